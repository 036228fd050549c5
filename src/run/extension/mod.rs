//! Checks of the SPIR-V floating-point extensions SPV_EXT_float8, SPV_KHR_float_controls2 and
//! SPV_EXT_arithmetic_fence, and the probe that tells whether a device accepts them.
//!
//! # Safety first
//!
//! A module declaring an extension the driver does not know may end the process inside
//! `clBuildProgram` (the Intel CPU runtime calls `exit(10)`). So a check runs only where the
//! [`Probe`] says the device accepts its extension
//! ([`crate::device::opencl::probe::spirv_extensions`] reads `cl_khr_spirv_queries`; without it the
//! answer is "unknown" and the check is skipped, unless the caller probed through an
//! [`probe::IsolatedBuilder`] with [`probe::probe`]), and every module passes
//! [`validate::guard`] (clacc's own validation of the extensions' rules, the device's SPIR-V
//! versions and the probe's list) before any driver sees it.
//!
//! # Units
//!
//! Rows of `kind` `extension`, width 1; `function` is the extension's short name and a detail:
//!
//! | function | what | type |
//! |---|---|---|
//! | `float8_<src>_to_<e4m3\|e5m2>[_sat]` | `OpFConvert` / `OpConvertSToF` / `OpConvertUToF` from `half`, `float`, `char`, `uchar`, `short`, `int` to a float8 encoding, `_sat`: `SaturatedToLargestFloat8NormalConversionEXT` | the float source, `float` for integers |
//! | `float8_<e4m3\|e5m2>_to_<dst>[_sat]` | from a float8 encoding to `half`, `float`, `double`, `char`, `int` (`_sat`: `SaturatedConversion`) | the float destination, `float` for integers |
//! | `float_controls2_[<half\|double>_]ieee` | `OpFAdd`, `OpFSub`, `OpFMul`, `OpFDiv`, `OpFNegate` under `FPFastMathDefault %type 0`: IEEE signed zeros, infinities and NaNs (no type in the name: float) | `float`, `half`, `double` |
//! | `float_controls2_[<half\|double>_]<nsz\|notinf\|notnan>_<default\|decoration>` | the same with one flag, set by `FPFastMathDefault` or by `FPFastMathMode` decorations | `float`, `half`, `double` |
//! | `arithmetic_fence` | `OpArithmeticFenceEXT` between fully fast-math additions | `float` |
//!
//! Float8 results are judged with [`crate::num::float8`] (every NaN code is as good as another;
//! conversions to float8 are correctly rounded in round to nearest even, overflow per the
//! extension), results from float8 exactly; all 256 codes are converted in both directions
//! (each code to every destination; each code's value is among the `float` sources), every
//! half and every 8- and 16-bit integer to float8. float_controls2 results are judged per
//! instruction in the check's type by one rule for every type
//! ([`crate::spec::extension::Fc2Check::verdict`]), each (input pair, instruction) counting as
//! one input; a half or double check runs only where the device has the type. A result the
//! flags leave free (NotInf with an infinite operand or result, NotNaN with a NaN) is counted
//! as undefined, NSZ accepts either sign of a zero operand or result. The fence check requires the
//! fenced order's value on inputs where reassociating across the fence changes the result; the
//! note tells how often the unfenced twin differed.

pub mod probe;
#[cfg(test)]
mod tests;
pub mod vulkan;

use rug::Float;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::opencl::DeviceInfo;
use crate::device::{BuiltKernel, Device, KernelForm};
use crate::judge::extension::{fence_verdict, fenced, Verdict8};
use crate::kernel::spirv_opencl::validate;
use crate::kernel::{self, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::report::stats::{Case, Outcome, UnitStats};
use crate::report::{Kind, Status, UnitReport};
use crate::run::conversion::{build_error, decode_bits, encode_bits};
use crate::run::pipeline::{self, Chunks, Ran, UnitError};
use crate::spec::extension::{Arithmetic, ExtensionCheck, Fc2Check, Float8Check, Other};
use crate::spec::probe::{Acceptance, Probe};
use crate::spec::table::{Judging, Profile, Requirement};
use crate::sweep;
use crate::sweep::conversion::ConversionSettings;
use crate::sweep::extension::{fence_inputs, SAMPLE_CAP};

/// One extension check for one device, with the reason it is skipped there, if it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionUnit {
    pub check: ExtensionCheck,
    /// Why the check does not run on this device (the probe's answer, a missing type), or
    /// `None` where the probe says the device accepts the extension.
    pub skip: Option<String>,
}

impl ExtensionUnit {
    pub fn name(&self) -> String {
        self.check.name()
    }
}

/// Every extension unit, in report order, each runnable only where `probe` says the device
/// accepts its extension (and the device has its float types and the SPIR-V version its
/// module needs).
pub fn extension_units(info: &DeviceInfo, probe: &Probe) -> Vec<ExtensionUnit> {
    ExtensionCheck::all()
        .into_iter()
        .map(|check| {
            let skip = match probe.acceptance(check.extension()) {
                Acceptance::Accepted => check
                    .float_types()
                    .into_iter()
                    .find(|element| info.fp_config(*element).is_none())
                    .map(|element| format!("device does not support {element}")),
                Acceptance::NotAccepted(why) | Acceptance::Unknown(why) => Some(why),
            };
            ExtensionUnit { check, skip }
        })
        .collect()
}

/// The unit named `name` for this device and probe.
pub fn find_unit(info: &DeviceInfo, probe: &Probe, name: &str) -> Option<ExtensionUnit> {
    extension_units(info, probe)
        .into_iter()
        .find(|unit| unit.name() == name)
}

fn skeleton(unit: &ExtensionUnit, profile: Profile) -> UnitReport {
    let (requirement, rule, integer) = match &unit.check {
        ExtensionCheck::Float8(check @ Float8Check::To { .. }) => (
            Requirement::CorrectlyRounded,
            "correctly rounded, rte; SPV_EXT_float8 overflow rule".to_string(),
            check.integer_output(),
        ),
        ExtensionCheck::Float8(check) => (
            Requirement::Exact,
            "exact".to_string(),
            check.integer_output(),
        ),
        ExtensionCheck::FloatControls2(check) => (
            Requirement::CorrectlyRounded,
            format!(
                "IEEE results; {} flags free their cases",
                check.flags.name()
            ),
            false,
        ),
        ExtensionCheck::ArithmeticFence => (
            Requirement::Exact,
            "the fenced order's value".to_string(),
            false,
        ),
    };
    UnitReport {
        kind: Kind::Extension,
        function: unit.name(),
        element: unit.check.element(),
        width: 1,
        judging: Judging::Table(profile),
        requirement: Some(requirement),
        rule,
        integer_outputs: vec![integer],
        stats: UnitStats::default(),
        status: Status::Skip,
        note: String::new(),
    }
}

/// Runs one extension unit on `session` and judges it; a skipped unit comes back `skip` with
/// its reason. The module passes [`validate::guard`] against `probe` and the IL versions of
/// `info` (the OpenCL facts of the same device) before the driver sees it. Never panics on
/// device trouble (`error` with the reason).
pub fn run_extension(
    session: &dyn Device,
    info: &DeviceInfo,
    unit: &ExtensionUnit,
    probe: &Probe,
    settings: &ConversionSettings,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    let mut report = skeleton(unit, settings.profile);
    if let Some(reason) = &unit.skip {
        report.note = reason.clone();
        return Ran::settled(report);
    }
    pipeline::run(
        ExtensionRun {
            check: &unit.check,
            flushing: flushing(info),
            float8_denormals_kept_in_half: false,
            settings,
            launch: Launch::Device {
                session,
                il_versions: &info.il_versions,
                probe,
            },
            report,
        },
        progress,
    )
}

fn report_with(mut report: UnitReport, outcome: Result<Measured, UnitError>) -> UnitReport {
    match outcome {
        Ok(measured) => {
            report.status = if measured.stats.failures > 0 {
                Status::Fail
            } else {
                Status::Pass
            };
            report.stats = measured.stats;
            report.note = measured.notes.join("; ");
        }
        Err(error) => {
            report.status = Status::Error;
            report.note = error.to_string();
        }
    }
    report
}

/// A unit's judged results and its notes.
pub(crate) struct Measured {
    pub stats: UnitStats,
    pub notes: Vec<String>,
}

/// Runs a kernel: (input buffers, output element sizes in bytes, work-items) → output
/// buffers. The real one is the device; tests pass synthetic ones.
#[cfg(test)]
pub(crate) type DeviceRun<'a> =
    dyn Fn(&[Vec<u8>], &[usize], usize) -> Result<Vec<Vec<u8>>, String> + Sync + 'a;

/// Where an extension unit's kernel runs.
enum Launch<'a> {
    /// Built for the device, after [`validate::guard`] passes it against the probe.
    Device {
        session: &'a dyn Device,
        /// The SPIR-V versions the device takes.
        il_versions: &'a [String],
        probe: &'a Probe,
    },
    /// A Vulkan device: the check's compute shader
    /// ([`crate::kernel::spirv_vulkan::extension::shader`]), `DenormPreserve` declared for a
    /// float8 conversion's float side where `denorm_preserve`.
    Vulkan {
        session: &'a dyn Device,
        denorm_preserve: bool,
    },
    /// A synthetic device (tests).
    #[cfg(test)]
    Given(&'a DeviceRun<'a>),
}

/// An extension unit set up for the pipeline: one chunk, every input in one launch.
struct ExtensionRun<'a> {
    check: &'a ExtensionCheck,
    /// The float types whose subnormals the device may flush (no `CL_FP_DENORM`; on Vulkan,
    /// no `DenormPreserve` for the width).
    flushing: Vec<FloatType>,
    /// The Vulkan environment's rule: float8 denormals are kept in conversions to binary16
    /// whatever the denorm mode.
    float8_denormals_kept_in_half: bool,
    settings: &'a ConversionSettings,
    launch: Launch<'a>,
    /// The row before its verdict.
    report: UnitReport,
}

/// A check's inputs.
enum Inputs {
    /// Source codes or values of a float8 conversion, and the flush-to-zero facts of the float
    /// side.
    Float8 {
        check: Float8Check,
        sources: Vec<u64>,
        flush_operand: bool,
        flush_result: bool,
    },
    /// (x, y) pairs of the check's type (widened to `f64`), each run through every
    /// arithmetic instruction.
    FloatControls2 {
        check: Fc2Check,
        pairs: Vec<(f64, f64)>,
    },
    /// (a, b, c) triples for the fenced and the unfenced sum.
    Fence { triples: Vec<[f32; 3]> },
}

/// A check's inputs and what its judging counts besides the stats.
struct Planned {
    inputs: Inputs,
    /// Fence inputs where the unfenced twin's result differed from the fenced order's.
    reassociated: AtomicU64,
}

/// The output buffers of a check's one launch, and its work-items.
struct Launched {
    outputs: Vec<Vec<u8>>,
    items: usize,
}

impl Inputs {
    fn len(&self) -> usize {
        match self {
            Inputs::Float8 { sources, .. } => sources.len(),
            Inputs::FloatControls2 { pairs, .. } => pairs.len(),
            Inputs::Fence { triples } => triples.len(),
        }
    }
}

impl ExtensionRun<'_> {
    fn plan(&self) -> Inputs {
        let settings = self.settings;
        let seed = sweep::unit_seed(settings.seed, &self.check.name(), self.check.element(), 1);
        match self.check {
            ExtensionCheck::Float8(check) => {
                let flushes = |element: FloatType| self.flushing.contains(&element);
                let (flush_operand, flush_result) = match check {
                    Float8Check::To {
                        from: Other::Float(element),
                        ..
                    } => (flushes(*element), false),
                    Float8Check::From {
                        to: Other::Float(element),
                        ..
                    } => (
                        false,
                        flushes(*element)
                            && !(self.float8_denormals_kept_in_half && *element == FloatType::Half),
                    ),
                    _ => (false, false),
                };
                let sources: Vec<u64> = match &settings.explicit {
                    Some(cases) => cases
                        .iter()
                        .filter_map(|case| case.first())
                        .map(|value| check.source_bits(*value))
                        .collect(),
                    None => check.inputs(settings.inputs, seed),
                };
                Inputs::Float8 {
                    check: *check,
                    sources,
                    flush_operand,
                    flush_result,
                }
            }
            ExtensionCheck::FloatControls2(check) => {
                // A reproduce line's case is (x, y), or x alone for OpFNegate (y is then x).
                let element = check.element;
                let pairs: Vec<(f64, f64)> = match &settings.explicit {
                    Some(cases) => cases
                        .iter()
                        .filter_map(|case| {
                            let x = *case.first()?;
                            let y = case.get(1).copied().unwrap_or(x);
                            Some((element.round(x), element.round(y)))
                        })
                        .collect(),
                    None => check.inputs(),
                };
                Inputs::FloatControls2 {
                    check: *check,
                    pairs,
                }
            }
            ExtensionCheck::ArithmeticFence => {
                let triples: Vec<[f32; 3]> = match &settings.explicit {
                    Some(cases) => cases
                        .iter()
                        .filter(|case| case.len() == 3)
                        .map(|case| [case[0] as f32, case[1] as f32, case[2] as f32])
                        .collect(),
                    None => fence_inputs(settings.inputs.clamp(4, 1 << 20), seed),
                };
                Inputs::Fence { triples }
            }
        }
    }

    /// The notes of a judged unit.
    fn notes(&self, planned: &Planned, stats: &UnitStats) -> Vec<String> {
        let settings = self.settings;
        match &planned.inputs {
            Inputs::Float8 {
                check,
                sources,
                flush_operand,
                flush_result,
            } => {
                let mut notes = vec![if check.is_exhaustive() {
                    format!("exhaustive: {} inputs", sources.len())
                } else {
                    format!("sampled: {} inputs, special values first", sources.len())
                }];
                if !check.is_exhaustive()
                    && settings.explicit.is_none()
                    && settings.inputs > SAMPLE_CAP
                {
                    notes.push(format!(
                        "--inputs {} cut to {} (one launch)",
                        settings.inputs, SAMPLE_CAP
                    ));
                }
                if stats.undefined > 0 {
                    notes.push(format!(
                        "{} inputs out of range or NaN without SaturatedConversion: not judged",
                        stats.undefined
                    ));
                }
                if *flush_operand || *flush_result {
                    notes.push(
                        "device flushes subnormals of the float side: FTZ rules applied".into(),
                    );
                }
                notes
            }
            Inputs::FloatControls2 { check, pairs } => {
                let mut notes = vec![format!(
                    "{} input pairs × OpFAdd, OpFSub, OpFMul, OpFDiv, OpFNegate, each counted",
                    pairs.len()
                )];
                if stats.undefined > 0 {
                    notes.push(format!(
                        "{} results where {} applies: not judged",
                        stats.undefined,
                        check.flags.name()
                    ));
                }
                // Every error is 0, so the worst case is the failure with the lowest index:
                // the first in instruction order.
                if let Some(worst) = stats
                    .worst
                    .as_ref()
                    .filter(|worst| worst.outcome == Outcome::Fail)
                {
                    let op = Arithmetic::ALL[worst.index as usize / pairs.len()];
                    notes.push(format!("first failure in {}", op.name()));
                }
                notes
            }
            Inputs::Fence { triples } => vec![
                format!(
                    "{} inputs where reassociation changes (a + b) + c",
                    triples.len()
                ),
                format!(
                    "without the fence the device reassociated {} of {}",
                    planned.reassociated.load(Ordering::Relaxed),
                    triples.len()
                ),
            ],
        }
    }
}

impl pipeline::Unit for ExtensionRun<'_> {
    /// `None` on a synthetic device.
    type Kernel = Option<Box<dyn BuiltKernel>>;
    type Prepared = Planned;
    /// Made with the chunk on the device thread.
    type Inputs = ();
    type Chunk = Launched;
    type Tally = UnitStats;

    fn build(&self) -> Result<Option<Box<dyn BuiltKernel>>, UnitError> {
        let (session, il_versions, probe) = match self.launch {
            Launch::Device {
                session,
                il_versions,
                probe,
            } => (session, il_versions, probe),
            Launch::Vulkan {
                session,
                denorm_preserve,
            } => {
                use crate::kernel::spirv_vulkan::extension;
                let words = extension::shader(self.check, denorm_preserve)
                    .map_err(|e| UnitError::Check(e.to_string()))?;
                let name = extension::file_stem(self.check, denorm_preserve);
                return session
                    .build(
                        &name,
                        KernelForm::SpirvVulkan(&kernel::words_to_bytes(&words)),
                        ENTRY_POINT,
                        "",
                    )
                    .map(Some)
                    .map_err(|error| build_error(&name, error));
            }
            #[cfg(test)]
            Launch::Given(_) => return Ok(None),
        };
        let address_bits = session.address_bits();
        let words = self
            .check
            .module(address_bits)
            .map_err(|e| UnitError::Check(e.to_string()))?;
        validate::guard(&words, il_versions, probe).map_err(|e| UnitError::Check(e.to_string()))?;
        let name = self.check.file_stem(address_bits);
        session
            .build(
                &name,
                KernelForm::SpirvOpencl(&kernel::words_to_bytes(&words)),
                ENTRY_POINT,
                "",
            )
            .map(Some)
            .map_err(|error| build_error(&name, error))
    }

    fn prepare(&self) -> Result<Planned, UnitError> {
        Ok(Planned {
            inputs: self.plan(),
            reassociated: AtomicU64::new(0),
        })
    }

    fn chunks(&self, planned: &Planned) -> Chunks {
        Chunks {
            numbers: Box::new(0..1),
            planned: planned.inputs.len() as u64,
        }
    }

    fn inputs(&self, _prepared: &Self::Prepared, _number: u64) {}

    fn device(
        &self,
        built: &Option<Box<dyn BuiltKernel>>,
        planned: &Planned,
        _number: u64,
        _inputs: (),
    ) -> Result<Launched, UnitError> {
        let (buffers, output_bytes): (Vec<Vec<u8>>, Vec<usize>) = match &planned.inputs {
            Inputs::Float8 { check, sources, .. } => (
                vec![encode_bits(sources, check.source_scalar().bytes())],
                vec![check.destination_scalar().bytes()],
            ),
            Inputs::FloatControls2 { check, pairs } => {
                let element = check.element;
                let bytes = element.bytes();
                let xs: Vec<u64> = pairs.iter().map(|(x, _)| element.to_bits(*x)).collect();
                let ys: Vec<u64> = pairs.iter().map(|(_, y)| element.to_bits(*y)).collect();
                (
                    vec![encode_bits(&xs, bytes), encode_bits(&ys, bytes)],
                    vec![bytes; 5],
                )
            }
            Inputs::Fence { triples } => (
                (0..3)
                    .map(|i| {
                        let bits: Vec<u64> =
                            triples.iter().map(|t| u64::from(t[i].to_bits())).collect();
                        encode_bits(&bits, 4)
                    })
                    .collect(),
                vec![4, 4],
            ),
        };
        let items = planned.inputs.len();
        let outputs = match (&self.launch, built) {
            #[cfg(test)]
            (Launch::Given(device), _) => {
                device(&buffers, &output_bytes, items).map_err(UnitError::Check)?
            }
            (Launch::Device { session, .. } | Launch::Vulkan { session, .. }, Some(built)) => {
                let slices: Vec<&[u8]> = buffers.iter().map(Vec::as_slice).collect();
                let mut outputs: Vec<Vec<u8>> = output_bytes
                    .iter()
                    .map(|bytes| vec![0u8; bytes * items])
                    .collect();
                let mut output_slices: Vec<&mut [u8]> =
                    outputs.iter_mut().map(Vec::as_mut_slice).collect();
                session.run(built.as_ref(), &slices, &mut output_slices, items)?;
                outputs
            }
            (Launch::Device { .. } | Launch::Vulkan { .. }, None) => {
                unreachable!("a device launch builds its kernel")
            }
        };
        Ok(Launched { outputs, items })
    }

    fn judge(&self, planned: &Planned, launched: &Launched) -> UnitStats {
        let outputs = &launched.outputs;
        let mut stats = UnitStats::default();
        match &planned.inputs {
            Inputs::Float8 {
                check,
                sources,
                flush_operand,
                flush_result,
            } => {
                let results = decode_bits(&outputs[0], check.destination_scalar().bytes());
                for (index, (source, result)) in sources.iter().zip(&results).enumerate() {
                    let verdict = check.verdict(*source, *result, *flush_operand, *flush_result);
                    let outcome = match verdict {
                        Verdict8::Undefined => {
                            stats.undefined += 1;
                            continue;
                        }
                        Verdict8::Pass => Outcome::Pass,
                        Verdict8::Allowed(allowance) => Outcome::Allowed(allowance),
                        Verdict8::Fail => Outcome::Fail,
                    };
                    let (arg, got, want) = check.case_values(*source, *result);
                    stats.record(case(index as u64, vec![arg], got, want, outcome));
                }
            }
            Inputs::FloatControls2 { check, pairs } => {
                let element = check.element;
                let results: Vec<Vec<u64>> = outputs
                    .iter()
                    .map(|o| decode_bits(o, element.bytes()))
                    .collect();
                for (op_index, op) in Arithmetic::ALL.into_iter().enumerate() {
                    for (pair_index, (x, y)) in pairs.iter().enumerate() {
                        let device = element.from_bits(results[op_index][pair_index]);
                        let outcome = match check.verdict(op, *x, *y, device) {
                            Verdict8::Undefined => {
                                stats.undefined += 1;
                                continue;
                            }
                            Verdict8::Pass | Verdict8::Allowed(_) => Outcome::Pass,
                            Verdict8::Fail => Outcome::Fail,
                        };
                        let args = match op {
                            Arithmetic::FNegate => vec![*x],
                            _ => vec![*x, *y],
                        };
                        let index = (op_index * pairs.len() + pair_index) as u64;
                        let want = Float::with_val(element.precision(), op.apply(element, *x, *y));
                        stats.record(case(index, args, device, want, outcome));
                    }
                }
            }
            Inputs::Fence { triples } => {
                let fenced_results = decode_bits(&outputs[0], 4);
                let open_results = decode_bits(&outputs[1], 4);
                for (index, triple) in triples.iter().enumerate() {
                    let device = f32::from_bits(fenced_results[index] as u32);
                    let open = f32::from_bits(open_results[index] as u32);
                    if open != fenced(*triple) {
                        planned.reassociated.fetch_add(1, Ordering::Relaxed);
                    }
                    let outcome = if fence_verdict(*triple, device) {
                        Outcome::Pass
                    } else {
                        Outcome::Fail
                    };
                    let args = triple.iter().map(|v| f64::from(*v)).collect();
                    let want = Float::with_val(24, fenced(*triple));
                    stats.record(case(index as u64, args, f64::from(device), want, outcome));
                }
            }
        }
        stats
    }

    fn advance(&self, launched: &Launched) -> u64 {
        launched.items as u64
    }
}

impl pipeline::OneRow for ExtensionRun<'_> {
    fn finish(self, measured: Result<(Planned, UnitStats), UnitError>) -> UnitReport {
        let measured = measured.map(|(planned, stats)| Measured {
            notes: self.notes(&planned, &stats),
            stats,
        });
        report_with(self.report, measured)
    }
}

/// The float types whose subnormals the device flushes.
fn flushing(info: &DeviceInfo) -> Vec<FloatType> {
    flushing_of(|element| info.fp_config(element).is_none_or(|c| c.denormals()))
}

/// The float types whose subnormals are not `preserved`.
fn flushing_of(preserved: impl Fn(FloatType) -> bool) -> Vec<FloatType> {
    FloatType::ALL
        .into_iter()
        .filter(|element| !preserved(*element))
        .collect()
}

/// Runs a check's inputs through `device` ((input buffers, output element sizes, items) →
/// output buffers) and judges the results. The device's half/float denormal support decides
/// the flush-to-zero allowances of float8 conversions.
#[cfg(test)]
pub(crate) fn judge_check(
    check: &ExtensionCheck,
    info: &DeviceInfo,
    settings: &ConversionSettings,
    progress: &dyn Fn(u64, u64),
    device: &DeviceRun,
) -> Result<Measured, UnitError> {
    let unit = ExtensionRun {
        check,
        flushing: flushing(info),
        float8_denormals_kept_in_half: false,
        settings,
        launch: Launch::Given(device),
        report: skeleton(
            &ExtensionUnit {
                check: *check,
                skip: None,
            },
            Profile::Full,
        ),
    };
    let planned = pipeline::Unit::prepare(&unit)?;
    let stats = pipeline::measure(&unit, None, &planned, progress)?;
    Ok(Measured {
        notes: unit.notes(&planned, &stats),
        stats,
    })
}

fn case(index: u64, args: Vec<f64>, device: f64, want: Float, outcome: Outcome) -> Case {
    Case {
        index,
        args,
        device_results: vec![device],
        references: vec![want],
        error: 0.0,
        absolute: false,
        outcome,
        output: 0,
        lanes: Vec::new(),
    }
}
