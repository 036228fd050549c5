//! Conversion checks: `OpFConvert`, `OpConvertSToF`/`OpConvertUToF` and
//! `OpConvertFToS`/`OpConvertFToU` run on the device and judged bit for bit against the exact
//! references of [`crate::num::convert`].
//!
//! # Units and their names
//!
//! One unit per (instruction, source type, destination type, decoration), always scalar
//! (width 1). Names follow OpenCL C's `convert_<dest>[_sat][_<mode>]`, with the source spelled
//! out so the direction reads left to right:
//!
//! | unit | instruction | decorations |
//! |---|---|---|
//! | `convert_float_to_half` | `OpFConvert` | none: round to nearest even, the default |
//! | `convert_float_to_half_rtz` | `OpFConvert` | `FPRoundingMode RTZ` (also `_rte`, `_rtp`, `_rtn`) |
//! | `convert_int_to_float`, `convert_ulong_to_half_rtp` | `OpConvertSToF` / `OpConvertUToF` | as above |
//! | `convert_float_to_uchar` | `OpConvertFToU` | none: round toward zero, the default |
//! | `convert_float_to_uchar_sat` | `OpConvertFToU` | `SaturatedConversion` |
//!
//! Sources and destinations: `half`, `float`, `double` between each other (both directions,
//! never to the same type, which `OpFConvert` does not allow); `char`, `uchar`, `short`,
//! `ushort`, `int`, `uint`, `long`, `ulong` to and from each float type.
//!
//! In the CSV the `type` column holds the destination float type where there is one (`half` for
//! `convert_float_to_half_rtz`, `float` for `convert_int_to_float`); a float-to-integer unit has
//! no float destination, so its `type` is the *source* float type (`float` for
//! `convert_float_to_uchar_sat`) and the name says the direction. `width` is 1.
//!
//! # Judgement
//!
//! "Conversion between floating-point formats and explicit conversions must be correctly
//! rounded" (003_606d5394990817d6.txt, "Relative Error as ULPs"), in the decoration's mode or
//! the default one ("Rounding Modes for Conversions"): every result must have exactly the bits
//! of [`convert::float_to_float`] / [`convert::int_to_float`] / [`convert::float_to_int`] (any
//! NaN for a NaN; the sign of zero counts). Allowances, counted in the `allowed` column:
//!
//! - a device without denormals for the destination type (no `CL_FP_DENORM`, e.g. half on the
//!   Intel CPU runtime) may return ±0 where the exact value is subnormal before rounding
//!   ("Edge Case Behavior in Flush To Zero Mode", results 2 and 4: `ftz-result`);
//! - a device without denormals for the source type may read a subnormal operand as ±0 and
//!   return that zero's conversion (results 3 and 4: `ftz-operands`); "the sign of the zero is
//!   undefined" in both.
//!
//! A float-to-integer conversion without `SaturatedConversion` whose value is out of the
//! destination's range (infinities included) or NaN has no defined result: such inputs are
//! counted in [`UnitStats::undefined`] and not judged. With the decoration they are judged
//! (clamped; NaN gives 0).
//!
//! `max_ulp` is 0 for every unit: the checks are exact, there is no error to measure. The
//! `worst_reference` column holds the result the spec requires (not the unrounded source,
//! which `worst_input` already shows).
//!
//! # Inputs
//!
//! - Exhaustive where it fits: every half, every 8- and 16-bit integer (65,536 inputs at
//!   most), always; every float for the five float-to-half units (2^32 inputs, in 2^10 device
//!   launches of 2^22 elements) when [`ConversionSettings::exhaustive`] is set. One such unit
//!   takes about 206 s on the Intel CPU runtime with two cores (device and judging), so the
//!   five take about 17 minutes; float to double is exact and float to integer is decided by
//!   the range boundaries, so those stay sampled.
//! - Sampled otherwise (`double` sources, 32- and 64-bit integers, `float` sources):
//!   special values first (zeros, subnormal and normal limits, infinities, NaNs,
//!   and the destination's boundaries: its overflow threshold and the ties around it, its
//!   subnormal range and the ties there, the integer type's limits and their neighbours), then
//!   seeded random values, half uniform over the source's encodings and half over the range
//!   where the destination's rounding happens. The stream is seeded by
//!   [`sweep::unit_seed`]`(seed, unit name, type, 1)`, so it is reproducible anywhere.
//!
//! 64-bit integer inputs appear in the CSV as `f64` values, which cannot hold every such
//! integer; a failing unit's note gives the worst input's exact value.

mod emit;
mod inputs;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use emit::{Body, Header, Scalar};

use std::fmt;

use rspirv::dr::Operand;
use rspirv::spirv::{Decoration, FPRoundingMode, Word};
use rug::Float;

use crate::device::{BuiltKernel, DeviceError, DeviceInfo, Session};
use crate::judge::{Allowance, Case, Outcome, UnitStats};
use crate::kernel::{self, ENTRY_POINT};
use crate::num::convert::{self, ConvertResult, IntType, Rounding};
use crate::num::fp::FloatType;
use crate::report::{Kind, Status, UnitReport};
use crate::run::pipeline::{self, Chunks, Ran, UnitError};
use crate::spec::table::{Profile, Requirement};
use crate::sweep;

/// Elements per device launch: 2^22 (16 MiB of `float` in, 8 MiB of `half` out), so an
/// exhaustive `float` source takes 1,024 launches.
pub const CHUNK_ELEMENTS: usize = 1 << 22;

/// One conversion instruction with its source and destination types and its decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// `OpFConvert`; `rounding` is the `FPRoundingMode` decoration, `None` for none.
    FloatToFloat {
        from: FloatType,
        to: FloatType,
        rounding: Option<Rounding>,
    },
    /// `OpConvertSToF` (signed `from`) or `OpConvertUToF` (unsigned `from`).
    IntToFloat {
        from: IntType,
        to: FloatType,
        rounding: Option<Rounding>,
    },
    /// `OpConvertFToS` (signed `to`) or `OpConvertFToU` (unsigned `to`), round toward zero;
    /// `saturated` is the `SaturatedConversion` decoration.
    FloatToInt {
        from: FloatType,
        to: IntType,
        saturated: bool,
    },
}

impl Conversion {
    /// Every conversion clacc checks, in report order: float to float, integer to float, float
    /// to integer.
    pub fn all() -> Vec<Conversion> {
        let modes: Vec<Option<Rounding>> = std::iter::once(None)
            .chain(Rounding::ALL.into_iter().map(Some))
            .collect();
        let mut all = Vec::new();
        for from in FloatType::ALL {
            for to in FloatType::ALL {
                if from != to {
                    for rounding in &modes {
                        all.push(Conversion::FloatToFloat {
                            from,
                            to,
                            rounding: *rounding,
                        });
                    }
                }
            }
        }
        for from in IntType::ALL {
            for to in FloatType::ALL {
                for rounding in &modes {
                    all.push(Conversion::IntToFloat {
                        from,
                        to,
                        rounding: *rounding,
                    });
                }
            }
        }
        for from in FloatType::ALL {
            for to in IntType::ALL {
                for saturated in [false, true] {
                    all.push(Conversion::FloatToInt {
                        from,
                        to,
                        saturated,
                    });
                }
            }
        }
        all
    }

    /// The unit's name (see the module doc): `convert_float_to_half_rtz`,
    /// `convert_int_to_float`, `convert_double_to_uchar_sat`.
    pub fn name(&self) -> String {
        let mode = |rounding: &Option<Rounding>| match rounding {
            Some(rounding) => format!("_{}", rounding.name()),
            None => String::new(),
        };
        match self {
            Conversion::FloatToFloat { from, to, rounding } => {
                format!("convert_{from}_to_{to}{}", mode(rounding))
            }
            Conversion::IntToFloat { from, to, rounding } => {
                format!("convert_{from}_to_{to}{}", mode(rounding))
            }
            Conversion::FloatToInt {
                from,
                to,
                saturated,
            } => format!(
                "convert_{from}_to_{to}{}",
                if *saturated { "_sat" } else { "" }
            ),
        }
    }

    /// The CSV's `type`: the destination float type, or the source one for float to integer.
    pub fn element(&self) -> FloatType {
        match self {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => *to,
            Conversion::FloatToInt { from, .. } => *from,
        }
    }

    /// The float types the conversion touches, each of which the device must support.
    pub fn float_types(&self) -> Vec<FloatType> {
        match self {
            Conversion::FloatToFloat { from, to, .. } => vec![*from, *to],
            Conversion::IntToFloat { to, .. } => vec![*to],
            Conversion::FloatToInt { from, .. } => vec![*from],
        }
    }

    /// The integer type the conversion touches, if any.
    pub fn int_type(&self) -> Option<IntType> {
        match self {
            Conversion::FloatToFloat { .. } => None,
            Conversion::IntToFloat { from, .. } => Some(*from),
            Conversion::FloatToInt { to, .. } => Some(*to),
        }
    }

    /// The rounding mode the result must be rounded in: the decoration's, else the default
    /// ("Rounding Modes for Conversions").
    pub fn rounding(&self) -> Rounding {
        match self {
            Conversion::FloatToFloat { rounding, .. } | Conversion::IntToFloat { rounding, .. } => {
                rounding.unwrap_or(Rounding::TO_FLOAT_DEFAULT)
            }
            Conversion::FloatToInt { .. } => Rounding::TO_INT_DEFAULT,
        }
    }

    /// The source buffer's element type.
    pub(crate) fn source(&self) -> Scalar {
        match self {
            Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
                Scalar::Float(from.bits())
            }
            Conversion::IntToFloat { from, .. } => Scalar::Int(from.bits()),
        }
    }

    /// The destination buffer's element type.
    pub(crate) fn destination(&self) -> Scalar {
        match self {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => {
                Scalar::Float(to.bits())
            }
            Conversion::FloatToInt { to, .. } => Scalar::Int(to.bits()),
        }
    }

    /// The SPIR-V instruction's name, for notes: `OpFConvert`, `OpConvertUToF`, ...
    pub fn instruction(&self) -> &'static str {
        match self {
            Conversion::FloatToFloat { .. } => "OpFConvert",
            Conversion::IntToFloat { from, .. } if from.is_signed() => "OpConvertSToF",
            Conversion::IntToFloat { .. } => "OpConvertUToF",
            Conversion::FloatToInt { to, .. } if to.is_signed() => "OpConvertFToS",
            Conversion::FloatToInt { .. } => "OpConvertFToU",
        }
    }

    /// The decoration the instruction carries, for notes: `FPRoundingMode RTZ`,
    /// `SaturatedConversion`, or `no decoration`.
    pub fn decoration(&self) -> String {
        match self {
            Conversion::FloatToFloat {
                rounding: Some(rounding),
                ..
            }
            | Conversion::IntToFloat {
                rounding: Some(rounding),
                ..
            } => format!("FPRoundingMode {}", rounding.name().to_uppercase()),
            Conversion::FloatToInt {
                saturated: true, ..
            } => "SaturatedConversion".to_string(),
            _ => "no decoration".to_string(),
        }
    }

    /// Every input when the source is small enough to enumerate: every half, every 8- and
    /// 16-bit integer; with `exhaustive`, also every float for float to half (2^32 inputs,
    /// about 3.5 minutes on two cores). `None` means sampled.
    pub fn exhaustive_count(&self, exhaustive: bool) -> Option<u64> {
        let bits = match self.source() {
            Scalar::Float(bits) | Scalar::Int(bits) => bits,
            Scalar::Float8(_) => 8,
        };
        let float_to_half = matches!(
            self,
            Conversion::FloatToFloat {
                from: FloatType::Float,
                to: FloatType::Half,
                ..
            }
        );
        match bits {
            0..=16 => Some(1 << bits),
            32 if exhaustive && float_to_half => Some(1 << 32),
            _ => None,
        }
    }
}

impl fmt::Display for Conversion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The SPIR-V `FPRoundingMode` of a [`Rounding`].
pub(crate) fn spirv_rounding(rounding: Rounding) -> FPRoundingMode {
    match rounding {
        Rounding::Rte => FPRoundingMode::RTE,
        Rounding::Rtz => FPRoundingMode::RTZ,
        Rounding::Rtp => FPRoundingMode::RTP,
        Rounding::Rtn => FPRoundingMode::RTN,
    }
}

/// Emits `conversion`'s instruction on `value` with its decoration, returning the result.
pub(crate) fn emit_conversion(
    body: &mut Body,
    conversion: &Conversion,
    value: Word,
) -> Result<Word, rspirv::dr::Error> {
    let result_type = body.value_type(conversion.destination());
    let builder = &mut *body.builder;
    let result = match conversion {
        Conversion::FloatToFloat { .. } => builder.f_convert(result_type, None, value)?,
        Conversion::IntToFloat { from, .. } if from.is_signed() => {
            builder.convert_s_to_f(result_type, None, value)?
        }
        Conversion::IntToFloat { .. } => builder.convert_u_to_f(result_type, None, value)?,
        Conversion::FloatToInt { to, .. } if to.is_signed() => {
            builder.convert_f_to_s(result_type, None, value)?
        }
        Conversion::FloatToInt { .. } => builder.convert_f_to_u(result_type, None, value)?,
    };
    match conversion {
        Conversion::FloatToFloat {
            rounding: Some(rounding),
            ..
        }
        | Conversion::IntToFloat {
            rounding: Some(rounding),
            ..
        } => builder.decorate(
            result,
            Decoration::FPRoundingMode,
            [Operand::FPRoundingMode(spirv_rounding(*rounding))],
        ),
        Conversion::FloatToInt {
            saturated: true, ..
        } => builder.decorate(result, Decoration::SaturatedConversion, []),
        _ => {}
    }
    Ok(result)
}

/// [`emit::kernel`] with its builder error as text.
pub(crate) fn emit_kernel(
    header: &Header,
    inputs: &[Scalar],
    outputs: &[Scalar],
    body: impl FnOnce(&mut Body) -> Result<Vec<Word>, rspirv::dr::Error>,
) -> Result<Vec<u32>, String> {
    emit::kernel(header, inputs, outputs, body)
        .map_err(|error| format!("internal error building SPIR-V: {error}"))
}

/// The module for `conversion` on a device with `address_bits`-bit addresses: SPIR-V 1.0, no
/// extension, one scalar conversion per work-item (see the kernel convention in `kernel`).
pub fn build_module(conversion: &Conversion, address_bits: u32) -> Result<Vec<u32>, String> {
    if address_bits != 32 && address_bits != 64 {
        return Err(format!(
            "unsupported device address width {address_bits} bits (supported: 32, 64)"
        ));
    }
    emit_kernel(
        &Header::plain(address_bits),
        &[conversion.source()],
        &[conversion.destination()],
        |body| {
            let value = body.inputs[0];
            Ok(vec![emit_conversion(body, conversion, value)?])
        },
    )
}

/// A file-name-safe stable name of a module: the unit's name and the address width,
/// `convert_float_to_half_rtz_a64`.
pub fn file_stem(conversion: &Conversion, address_bits: u32) -> String {
    format!("{}_a{address_bits}", conversion.name())
}

/// One conversion unit for one device: the conversion, and why it is skipped there, if it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionUnit {
    pub conversion: Conversion,
    /// Why the device cannot run it (a type it lacks), or `None`.
    pub skip: Option<String>,
}

impl ConversionUnit {
    pub fn name(&self) -> String {
        self.conversion.name()
    }

    /// How many inputs the unit judges with these settings (for progress bars).
    pub fn planned_inputs(&self, settings: &ConversionSettings) -> u64 {
        if self.skip.is_some() {
            return 0;
        }
        if let Some(cases) = &settings.explicit {
            return cases.len() as u64;
        }
        match self.conversion.exhaustive_count(settings.exhaustive) {
            Some(count) => count,
            None => inputs::sampled_count(&self.conversion, settings.inputs) as u64,
        }
    }
}

/// Why a device cannot run conversions touching `element`, or `None`.
fn type_skip(info: &DeviceInfo, element: FloatType) -> Option<String> {
    match (element, info.fp_config(element)) {
        (_, Some(_)) => None,
        (FloatType::Double, None) => {
            Some("device does not support double (no cl_khr_fp64)".to_string())
        }
        (FloatType::Half, None) => {
            Some("device does not support half (no cl_khr_fp16)".to_string())
        }
        (FloatType::Float, None) => Some("device does not support float".to_string()),
    }
}

/// Why a device cannot run conversions touching `int`, or `None`: 64-bit integers are optional
/// in the embedded profile (`cles_khr_int64`).
fn int_skip(info: &DeviceInfo, int: IntType) -> Option<String> {
    let embedded = profile_of(info) == Profile::Embedded;
    (int.bits() == 64 && embedded && !info.has_extension("cles_khr_int64"))
        .then(|| format!("embedded-profile device without cles_khr_int64 has no {int}"))
}

fn profile_of(info: &DeviceInfo) -> Profile {
    Profile::parse(&info.profile).unwrap_or(Profile::Full)
}

/// Every conversion unit, in report order, each with the reason it is skipped on this device
/// (a type the device lacks) or runnable.
pub fn conversion_units(info: &DeviceInfo) -> Vec<ConversionUnit> {
    Conversion::all()
        .into_iter()
        .map(|conversion| {
            let skip = conversion
                .float_types()
                .into_iter()
                .find_map(|element| type_skip(info, element))
                .or_else(|| conversion.int_type().and_then(|int| int_skip(info, int)));
            ConversionUnit { conversion, skip }
        })
        .collect()
}

/// The unit named `name` ([`Conversion::name`]) for this device, e.g. for a worker process
/// that is handed unit names.
pub fn find_unit(info: &DeviceInfo, name: &str) -> Option<ConversionUnit> {
    conversion_units(info)
        .into_iter()
        .find(|unit| unit.name() == name)
}

/// What a run decides for every conversion unit.
#[derive(Clone, Debug, PartialEq)]
pub struct ConversionSettings {
    /// The run's seed (`--seed`); each unit's stream is [`sweep::unit_seed`] of it.
    pub seed: u64,
    /// Inputs of a sampled unit (special values included).
    pub inputs: usize,
    /// Enumerate every `float` source value (2^32) instead of sampling (`--exhaustive`).
    pub exhaustive: bool,
    /// Threads judging results (`--threads`).
    pub threads: usize,
    /// Source values to run instead of the unit's own inputs (`--input`, `--input-file`: a
    /// summary's reproduce line); each case's first value.
    pub explicit: Option<Vec<Vec<f64>>>,
}

/// The `rule` column: what the result must be, e.g. `correctly rounded, rtz` or `exact,
/// rtz, saturated`.
fn rule(conversion: &Conversion) -> String {
    match conversion {
        Conversion::FloatToInt { saturated, .. } => format!(
            "exact, {}{}",
            conversion.rounding(),
            if *saturated { ", saturated" } else { "" }
        ),
        _ => format!("correctly rounded, {}", conversion.rounding()),
    }
}

/// The bare report of a unit: everything but the verdict.
fn skeleton(unit: &ConversionUnit, profile: Profile) -> UnitReport {
    let conversion = &unit.conversion;
    let integer = matches!(conversion, Conversion::FloatToInt { .. });
    UnitReport {
        kind: Kind::Conversion,
        function: conversion.name(),
        element: conversion.element(),
        width: 1,
        profile,
        requirement: Some(if integer {
            Requirement::Exact
        } else {
            Requirement::CorrectlyRounded
        }),
        rule: rule(conversion),
        relaxed: false,
        integer_outputs: vec![integer],
        stats: UnitStats::default(),
        status: Status::Skip,
        note: String::new(),
    }
}

/// Runs one conversion unit on the device and judges it. Never panics on device trouble: a
/// driver or OpenCL failure is `status = error` with the reason in `note`; a unit the device
/// cannot run is `skip` with the reason. `progress` is told (position, length) in inputs.
pub fn run_conversion(
    session: &Session,
    unit: &ConversionUnit,
    settings: &ConversionSettings,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    let report = skeleton(unit, profile_of(&session.info));
    if let Some(reason) = &unit.skip {
        let mut report = report;
        report.note = reason.clone();
        return Ran::settled(report);
    }
    let judge = Judge::for_device(unit.conversion, &session.info);
    pipeline::run(
        ConversionRun {
            session,
            judge,
            settings,
            tamper: None,
            report,
        },
        progress,
    )
}

/// A conversion unit set up for the pipeline: chunks of [`CHUNK_ELEMENTS`] sources, every
/// chunk judged bit for bit.
struct ConversionRun<'a> {
    session: &'a Session,
    judge: Judge,
    settings: &'a ConversionSettings,
    tamper: Option<Tamper<'a>>,
    /// The row before its verdict.
    report: UnitReport,
}

/// A chunk of sources and the device's destination bits.
struct ConversionChunk {
    start: u64,
    sources: Vec<u64>,
    results: Vec<u64>,
}

impl pipeline::Unit for ConversionRun<'_> {
    type Kernel = BuiltKernel;
    type Prepared = inputs::Plan;
    type Chunk = ConversionChunk;
    type Tally = UnitStats;

    fn build(&self) -> Result<BuiltKernel, UnitError> {
        let conversion = &self.judge.conversion;
        let address_bits = self.session.info.address_bits;
        let words = build_module(conversion, address_bits).map_err(UnitError::Check)?;
        let name = file_stem(conversion, address_bits);
        self.session
            .build(&name, &kernel::words_to_bytes(&words), ENTRY_POINT, "")
            .map_err(|error| build_error(&name, error))
    }

    fn prepare(&self) -> Result<inputs::Plan, UnitError> {
        Ok(inputs::plan(&self.judge.conversion, self.settings))
    }

    fn chunks(&self, plan: &inputs::Plan) -> Chunks {
        // Every chunk: a conversion unit is not sharded.
        Chunks {
            numbers: Box::new(0..plan.len().div_ceil(CHUNK_ELEMENTS as u64)),
            planned: plan.len(),
        }
    }

    fn device(
        &self,
        built: &BuiltKernel,
        plan: &inputs::Plan,
        number: u64,
    ) -> Result<ConversionChunk, UnitError> {
        let start = number * CHUNK_ELEMENTS as u64;
        let end = (start + CHUNK_ELEMENTS as u64).min(plan.len());
        let sources = plan.chunk(start, end);
        let conversion = &self.judge.conversion;
        let destination_bytes = conversion.destination().bytes();
        let input = encode_bits(&sources, conversion.source().bytes());
        let mut output = vec![0u8; sources.len() * destination_bytes];
        self.session.run(
            built,
            &[input.as_slice()],
            &mut [output.as_mut_slice()],
            sources.len(),
        )?;
        let mut results = decode_bits(&output, destination_bytes);
        if let Some(tamper) = self.tamper {
            for (offset, result) in results.iter_mut().enumerate() {
                tamper(start + offset as u64, result);
            }
        }
        Ok(ConversionChunk {
            start,
            sources,
            results,
        })
    }

    fn judge(&self, _plan: &inputs::Plan, chunk: &ConversionChunk) -> UnitStats {
        judge_chunk(
            &self.judge,
            chunk.start,
            &chunk.sources,
            &chunk.results,
            self.settings.threads.max(1),
        )
    }

    fn advance(&self, chunk: &ConversionChunk) -> u64 {
        chunk.sources.len() as u64
    }

    fn finish(self, measured: Result<(inputs::Plan, UnitStats), UnitError>) -> UnitReport {
        let mut report = self.report;
        let settings = self.settings;
        match measured {
            Ok((plan, stats)) => {
                let worst_exact = stats
                    .worst
                    .as_ref()
                    .filter(|case| case.outcome == Outcome::Fail)
                    .and_then(|case| {
                        self.judge
                            .inexact_source(plan.chunk(case.index, case.index + 1)[0])
                    });
                let measured = Measured {
                    stats,
                    coverage: (plan.len(), plan.is_exhaustive()),
                    worst_exact,
                };
                report.status = if measured.stats.failures > 0 {
                    Status::Fail
                } else {
                    Status::Pass
                };
                report.note = notes(&self.judge, &measured);
                let (_, exhaustive) = measured.coverage;
                if !exhaustive
                    && settings.explicit.is_none()
                    && settings.inputs > inputs::SAMPLE_CAP
                {
                    report.note.push_str(&format!(
                        "; --inputs {} cut to {} (a sample is held in memory)",
                        settings.inputs,
                        inputs::SAMPLE_CAP
                    ));
                }
                report.stats = measured.stats;
            }
            Err(error) => {
                report.status = Status::Error;
                report.note = error.to_string();
            }
        }
        report
    }
}

/// What a conversion unit found, with the facts the note reports.
struct Measured {
    stats: UnitStats,
    /// The number of inputs and whether they were every value of the source.
    coverage: (u64, bool),
    /// The exact source value of the worst case, where `f64` cannot hold it.
    worst_exact: Option<i128>,
}

fn notes(judge: &Judge, measured: &Measured) -> String {
    let conversion = &judge.conversion;
    let mut notes = Vec::new();
    let (count, exhaustive) = measured.coverage;
    let source = match conversion {
        Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => from.name(),
        Conversion::IntToFloat { from, .. } => from.name(),
    };
    if exhaustive {
        notes.push(format!("exhaustive: every {source} ({count} inputs)"));
    } else {
        notes.push(format!("sampled: {count} inputs, special values first"));
    }
    notes.push(format!(
        "{} with {}, rounding {}",
        conversion.instruction(),
        conversion.decoration(),
        conversion.rounding()
    ));
    if measured.stats.undefined > 0 {
        notes.push(format!(
            "{} inputs out of range or NaN without SaturatedConversion: no defined result, not judged",
            measured.stats.undefined
        ));
    }
    if judge.flush_result {
        notes.push(format!(
            "device flushes {} subnormals: a subnormal result may be ±0",
            conversion.element()
        ));
    }
    if judge.flush_operand {
        notes.push(format!(
            "device flushes {source} subnormals: a subnormal operand may be read as ±0"
        ));
    }
    if let Some(exact) = measured.worst_exact {
        notes.push(format!("worst input exactly {exact}"));
    }
    notes.join("; ")
}

/// Judges one unit's results: the conversion and the device's flush-to-zero facts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judge {
    pub conversion: Conversion,
    /// The destination float type has no denormals on the device (FTZ results 2 and 4).
    pub flush_result: bool,
    /// The source float type has no denormals on the device (FTZ results 3 and 4).
    pub flush_operand: bool,
}

/// The verdict on one input, before a [`Case`] is made of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Verdict {
    Pass,
    Allowed(Allowance),
    Fail,
    /// No defined result (not judged).
    Undefined,
}

impl Judge {
    pub(crate) fn for_device(conversion: Conversion, info: &DeviceInfo) -> Judge {
        let flushes = |element: FloatType| info.fp_config(element).is_some_and(|c| !c.denormals());
        let (flush_result, flush_operand) = match conversion {
            Conversion::FloatToFloat { from, to, .. } => (flushes(to), flushes(from)),
            Conversion::IntToFloat { to, .. } => (flushes(to), false),
            Conversion::FloatToInt { from, .. } => (false, flushes(from)),
        };
        Judge {
            conversion,
            flush_result,
            flush_operand,
        }
    }

    /// The exact value of a source element's bits.
    fn source_value(&self, bits: u64) -> SourceValue {
        match self.conversion {
            Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
                SourceValue::Float(from.from_bits(bits))
            }
            Conversion::IntToFloat { from, .. } => SourceValue::Int(int_value(bits, from)),
        }
    }

    /// The result the spec requires for a source element.
    fn expected(&self, source: SourceValue) -> ConvertResult {
        match (self.conversion, source) {
            (Conversion::FloatToFloat { to, .. }, SourceValue::Float(x)) => {
                ConvertResult::Float(convert::float_to_float(x, to, self.conversion.rounding()))
            }
            (Conversion::IntToFloat { from, to, .. }, SourceValue::Int(n)) => ConvertResult::Float(
                convert::int_to_float(n, from, to, self.conversion.rounding()),
            ),
            (Conversion::FloatToInt { to, saturated, .. }, SourceValue::Float(x)) => {
                convert::float_to_int(x, to, self.conversion.rounding(), saturated)
            }
            _ => unreachable!("source values follow the conversion's source type"),
        }
    }

    /// Whether the device's destination bits are `expected`: the same bits, or any NaN for a
    /// NaN.
    fn matches(&self, expected: ConvertResult, device_bits: u64) -> bool {
        match (expected, self.conversion) {
            (ConvertResult::Float(want), Conversion::FloatToFloat { to, .. })
            | (ConvertResult::Float(want), Conversion::IntToFloat { to, .. }) => {
                let got = to.from_bits(device_bits);
                if want.is_nan() {
                    got.is_nan()
                } else {
                    to.to_bits(want) == device_bits
                }
            }
            (ConvertResult::Int(want), Conversion::FloatToInt { to, .. }) => {
                int_value(device_bits, to) == want
            }
            _ => false,
        }
    }

    /// Judges one element: source bits in, destination bits out.
    pub(crate) fn verdict(&self, source_bits: u64, device_bits: u64) -> Verdict {
        let source = self.source_value(source_bits);
        let expected = self.expected(source);
        if let ConvertResult::Undefined(_) = expected {
            return Verdict::Undefined;
        }
        if self.matches(expected, device_bits) {
            return Verdict::Pass;
        }
        let SourceValue::Float(x) = source else {
            return Verdict::Fail;
        };
        let zero_result = match self.conversion {
            Conversion::FloatToFloat { to, .. } => to.from_bits(device_bits) == 0.0,
            Conversion::FloatToInt { .. } => device_bits == 0,
            Conversion::IntToFloat { .. } => false,
        };
        if self.flush_result && zero_result {
            if let Conversion::FloatToFloat { to, .. } = self.conversion {
                if x != 0.0 && x.abs() < 2f64.powi(to.emin()) {
                    return Verdict::Allowed(Allowance::FlushedResult);
                }
            }
        }
        if self.flush_operand {
            let from = match self.conversion {
                Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => from,
                Conversion::IntToFloat { .. } => unreachable!("integer sources have no subnormals"),
            };
            // The flushed operand's conversion is a zero (of either sign: FTZ says the sign of a
            // flushed zero is undefined), and an integer 0.
            if from.is_subnormal(x) && zero_result {
                return Verdict::Allowed(Allowance::FlushedOperands);
            }
        }
        Verdict::Fail
    }

    /// The full record of one judged element, for the worst case of the report.
    fn case(&self, index: u64, source_bits: u64, device_bits: u64, verdict: Verdict) -> Case {
        let source = self.source_value(source_bits);
        let expected = self.expected(source);
        let arg = match source {
            SourceValue::Float(x) => x,
            SourceValue::Int(n) => n as f64,
        };
        let (device, reference) = match self.conversion {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => {
                let want = match expected {
                    ConvertResult::Float(want) => want,
                    _ => f64::NAN,
                };
                (to.from_bits(device_bits), Float::with_val(64, want))
            }
            Conversion::FloatToInt { to, .. } => {
                let got = int_value(device_bits, to);
                let want = match expected {
                    ConvertResult::Int(want) => Float::with_val(128, want),
                    _ => Float::with_val(53, f64::NAN),
                };
                (got as f64, want)
            }
        };
        Case {
            index,
            args: vec![arg],
            device_results: vec![device],
            references: vec![reference],
            error: 0.0,
            absolute: false,
            outcome: match verdict {
                Verdict::Pass => Outcome::Pass,
                Verdict::Allowed(allowance) => Outcome::Allowed(allowance),
                Verdict::Fail | Verdict::Undefined => Outcome::Fail,
            },
            output: 0,
        }
    }

    /// The exact source value of a case whose `f64` argument is not exact (64-bit integers).
    fn inexact_source(&self, source_bits: u64) -> Option<i128> {
        match self.source_value(source_bits) {
            SourceValue::Int(n) if (n as f64) as i128 != n => Some(n),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum SourceValue {
    Float(f64),
    Int(i128),
}

/// The value of an integer element's bits (two's complement for signed types).
pub(crate) fn int_value(bits: u64, int: IntType) -> i128 {
    let width = int.bits();
    let masked = if width == 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    };
    if int.is_signed() && masked >> (width - 1) & 1 == 1 {
        i128::from(masked) - (1i128 << width)
    } else {
        i128::from(masked)
    }
}

/// The bits of an integer value in its type (two's complement for negative values).
pub(crate) fn int_bits(value: i128, int: IntType) -> u64 {
    let width = int.bits();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (value as u64) & mask
}

/// Little-endian buffer of `bytes`-byte elements.
pub(crate) fn encode_bits(values: &[u64], bytes: usize) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(values.len() * bytes);
    for value in values {
        buffer.extend_from_slice(&value.to_le_bytes()[..bytes]);
    }
    buffer
}

/// The elements of a little-endian buffer of `bytes`-byte elements.
pub(crate) fn decode_bits(buffer: &[u8], bytes: usize) -> Vec<u64> {
    buffer
        .chunks_exact(bytes)
        .map(|chunk| {
            let mut word = [0u8; 8];
            word[..bytes].copy_from_slice(chunk);
            u64::from_le_bytes(word)
        })
        .collect()
}

/// A driver refusal as a one-line note, with the whole log for the command line.
pub(crate) fn build_error(module: &str, error: DeviceError) -> UnitError {
    match error {
        DeviceError::Build { log, .. } => UnitError::Refused {
            module: module.to_string(),
            note: format!(
                "driver refused the module: {}",
                log.lines().next().unwrap_or("").trim()
            ),
            log,
        },
        other => UnitError::Device(other),
    }
}

/// Replaces device results before judging; tests use it to check that a wrong result fails.
pub(crate) type Tamper<'a> = &'a (dyn Fn(u64, &mut u64) + Sync);

/// Judges a chunk on `threads` threads, each a contiguous slice, merged in order (the result
/// does not depend on the thread count). Only failures and each slice's first input become
/// [`Case`]s: passes are counted, so an exhaustive sweep allocates nothing per input, and the
/// merged worst case is the one recording every case would give (the first failure, else the
/// first input, since every error is 0).
pub(crate) fn judge_chunk(
    judge: &Judge,
    offset: u64,
    sources: &[u64],
    results: &[u64],
    threads: usize,
) -> UnitStats {
    let slice = sources.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = sources
            .chunks(slice)
            .zip(results.chunks(slice))
            .enumerate()
            .map(|(number, (sources, results))| {
                let first = offset + (number * slice) as u64;
                scope.spawn(move || {
                    let mut stats = UnitStats::default();
                    for (i, (source, result)) in sources.iter().zip(results).enumerate() {
                        let verdict = judge.verdict(*source, *result);
                        let index = first + i as u64;
                        match verdict {
                            Verdict::Undefined => stats.undefined += 1,
                            Verdict::Fail => {
                                stats.record(judge.case(index, *source, *result, verdict))
                            }
                            Verdict::Pass if i == 0 => {
                                stats.record(judge.case(index, *source, *result, verdict))
                            }
                            Verdict::Pass => stats.inputs += 1,
                            Verdict::Allowed(allowance) => {
                                stats.inputs += 1;
                                stats.allowed[allowance as usize] += 1;
                            }
                        }
                    }
                    stats
                })
            })
            .collect();
        let mut merged = UnitStats::default();
        for handle in handles {
            merged.merge(handle.join().expect("judging thread panicked"));
        }
        merged
    })
}

/// [`run_conversion`] with device results replaced by `tamper` before judging (tests).
#[cfg(test)]
pub(crate) fn run_tampered(
    session: &Session,
    unit: &ConversionUnit,
    settings: &ConversionSettings,
    tamper: Tamper,
) -> Result<UnitStats, UnitError> {
    let run = ConversionRun {
        session,
        judge: Judge::for_device(unit.conversion, &session.info),
        settings,
        tamper: Some(tamper),
        report: skeleton(unit, profile_of(&session.info)),
    };
    let kernel = pipeline::Unit::build(&run)?;
    let plan = pipeline::Unit::prepare(&run)?;
    pipeline::measure(&run, kernel, &plan, &|_, _| {})
}

/// The per-unit seed of a conversion unit.
pub(crate) fn unit_seed(conversion: &Conversion, run_seed: u64) -> u64 {
    sweep::unit_seed(run_seed, &conversion.name(), conversion.element(), 1)
}
