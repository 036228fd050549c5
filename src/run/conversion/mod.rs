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
//! How results are judged: [`crate::judge::conversion`]; which inputs:
//! [`crate::sweep::conversion`]; the modules: [`crate::kernel::spirv_opencl::conversion`].

// Every conversion test drives the Intel device: the device tier (`--features device-tests`).
#[cfg(all(test, feature = "device-tests"))]
pub(crate) mod on_device;

use crate::device::opencl::DeviceInfo;
use crate::device::{BuiltKernel, Device, DeviceError};
use crate::judge::conversion::{judge_chunk, Judge};
use crate::kernel::ENTRY_POINT;
use crate::num::convert::IntType;
use crate::num::fp::FloatType;
use crate::report::stats::{Outcome, UnitStats};
use crate::report::{Kind, Status, UnitReport};
use crate::run::kernel_form;
use crate::run::pipeline::{self, Chunks, Ran, UnitError};
use crate::spec::conversion::Conversion;
use crate::spec::table::{Judging, Profile, Requirement};
use crate::sweep::conversion::{self as inputs, ConversionSettings};

/// Elements per device launch: 2^22 (16 MiB of `float` in, 8 MiB of `half` out), so an
/// exhaustive `float` source takes 1,024 launches.
pub const CHUNK_ELEMENTS: usize = 1 << 22;

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
/// (a type the device lacks) or runnable; read from its OpenCL facts (extensions, profile).
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
        judging: Judging::Table(profile),
        requirement: Some(if integer {
            Requirement::Exact
        } else {
            Requirement::CorrectlyRounded
        }),
        rule: rule(conversion),
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
    session: &dyn Device,
    unit: &ConversionUnit,
    settings: &ConversionSettings,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    let report = skeleton(unit, settings.profile);
    if let Some(reason) = &unit.skip {
        let mut report = report;
        report.note = reason.clone();
        return Ran::settled(report);
    }
    let judge = Judge::for_device(unit.conversion, session);
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
    session: &'a dyn Device,
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
    type Kernel = Box<dyn BuiltKernel>;
    type Prepared = inputs::Plan;
    /// The chunk's source encodings.
    type Inputs = Vec<u64>;
    type Chunk = ConversionChunk;
    type Tally = UnitStats;

    fn build(&self) -> Result<Box<dyn BuiltKernel>, UnitError> {
        let (name, kernel) = kernel_form::unit_kernel(
            self.settings.path,
            None,
            kernel_form::UnitKernel::Conversion(
                &self.judge.conversion,
                self.session.address_bits(),
            ),
        )?;
        self.session
            .build(&name, kernel.form(), ENTRY_POINT, "")
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

    fn inputs(&self, plan: &inputs::Plan, number: u64) -> Vec<u64> {
        let start = number * CHUNK_ELEMENTS as u64;
        plan.chunk(start, (start + CHUNK_ELEMENTS as u64).min(plan.len()))
    }

    fn device(
        &self,
        built: &Box<dyn BuiltKernel>,
        _plan: &inputs::Plan,
        number: u64,
        sources: Vec<u64>,
    ) -> Result<ConversionChunk, UnitError> {
        let start = number * CHUNK_ELEMENTS as u64;
        let conversion = &self.judge.conversion;
        let destination_bytes = conversion.destination().bytes();
        let input = encode_bits(&sources, conversion.source().bytes());
        let mut output = vec![0u8; sources.len() * destination_bytes];
        self.session.run(
            built.as_ref(),
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
}

impl pipeline::OneRow for ConversionRun<'_> {
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

impl Judge {
    /// The judge of `conversion` on this device: its flush-to-zero facts decide the FTZ
    /// allowances.
    pub(crate) fn for_device(conversion: Conversion, device: &dyn Device) -> Judge {
        Judge::new(conversion, |element: FloatType| {
            device.fp_config(element).is_some_and(|c| !c.denormals())
        })
    }
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

/// [`run_conversion`] with device results replaced by `tamper` before judging (device tests).
#[cfg(all(test, feature = "device-tests"))]
pub(crate) fn run_tampered(
    session: &dyn Device,
    unit: &ConversionUnit,
    settings: &ConversionSettings,
    tamper: Tamper,
) -> Result<UnitStats, UnitError> {
    let run = ConversionRun {
        session,
        judge: Judge::for_device(unit.conversion, session),
        settings,
        tamper: Some(tamper),
        report: skeleton(unit, settings.profile),
    };
    let kernel = pipeline::Unit::build(&run)?;
    let plan = pipeline::Unit::prepare(&run)?;
    pipeline::measure(&run, kernel, &plan, &|_, _| {})
}
