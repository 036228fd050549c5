//! Drives one unit (function, type, width) through the pipeline: table row → kernel → device →
//! references → judgement → report row.

pub mod campaign;
pub mod conversion;
pub mod edge;
pub mod extension;
pub mod geometric;
pub mod isolate;

use crate::device::{BuiltKernel, DeviceError, Session};
use crate::judge::{Rules, UnitStats};
use crate::kernel::{self, KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::report::{Kind, Status, UnitReport};
use crate::spec::registry::{Function, Output};
use crate::spec::signature::ValueKind;
use crate::spec::table::{self, Profile, Requirement};
use crate::sweep::{self, InputPlan};
use rug::float::Round;

/// Settings shared by every unit of a run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RunSettings {
    pub profile: Profile,
    /// The revision of the spec's text whose Tables 3, 4, 5 and edge cases judge (`--spec`).
    #[serde(default)]
    pub spec: crate::spec::table::Revision,
    /// Inputs per unit (special values included; rounded up to whole vectors).
    pub inputs: usize,
    /// Explicit cases (`--input-file`) run instead of the sweep, when given.
    pub explicit_cases: Option<Vec<Vec<f64>>>,
    pub seed: u64,
    /// Options passed to clBuildProgram.
    pub build_options: String,
    /// Threads computing references.
    pub threads: usize,
    /// Every input where the unit allows it ([`sweep::exhaustive_count`]).
    pub exhaustive: bool,
    /// The part of the work this run does.
    pub shard: Shard,
    /// User modules run in place of clacc's own kernel for a function (`--kernel NAME=FILE`).
    pub user_kernels: Vec<UserKernel>,
    /// Kernels built with `-cl-fast-relaxed-math`, judged by Table 5 where it lists them.
    pub relaxed: bool,
    /// Built with `-cl-fp32-correctly-rounded-divide-sqrt`: float divide and sqrt must be
    /// correctly rounded.
    pub correctly_rounded_divide_sqrt: bool,
    /// Built with `-cl-denorms-are-zero`: the flush-to-zero rules apply to float.
    pub denorms_are_zero: bool,
    /// Run the kernels and judge nothing: the device's own time, for benchmarks.
    pub device_only: bool,
    /// What the device's driver accepts, found by the run before its units start (isolated
    /// probe builds where cl_khr_spirv_queries is missing); `None`: ask the queries.
    #[serde(default)]
    pub extension_probe: Option<crate::run::extension::Probe>,
}

impl RunSettings {
    /// Why the flush-to-zero rules apply to `element` in this run's units, or `None`
    /// ([`crate::judge::flush_to_zero_reason`], the one reading for ULP and edge units): the
    /// device's config, `--denorms-are-zero` or the same build option given by hand, and a
    /// relaxed build (`-cl-fast-relaxed-math` implies `-cl-unsafe-math-optimizations`).
    pub fn flush_to_zero_reason(
        &self,
        fp_config: crate::spec::fp_config::FpConfig,
        element: FloatType,
    ) -> Option<String> {
        let relaxed_build = self.relaxed
            || self.build_options.contains("-cl-fast-relaxed-math")
            || self.build_options.contains("-cl-unsafe-math-optimizations");
        crate::judge::flush_to_zero_reason(
            fp_config,
            element,
            self.denorms_are_zero || self.build_options.contains("-cl-denorms-are-zero"),
            relaxed_build,
        )
    }
}

/// A user-supplied SPIR-V module implementing one function with clacc's kernel convention.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct UserKernel {
    pub function: String,
    pub path: String,
    pub spirv: Vec<u8>,
}

/// Scalars per device launch, and the unit of sharding: large enough to amortise the launch,
/// small enough to bound memory (two chunks in flight, with their inputs and outputs).
pub const CHUNK_SCALARS: usize = 1 << 16;

/// The extension that provides a type, for skip notes.
fn type_extension(element: FloatType) -> &'static str {
    match element {
        FloatType::Half => "cl_khr_fp16",
        FloatType::Float => "core",
        FloatType::Double => "cl_khr_fp64",
    }
}

fn skeleton(function: &Function, element: FloatType, width: u32, profile: Profile) -> UnitReport {
    UnitReport {
        kind: Kind::Ulp,
        function: function.name.to_string(),
        element,
        width,
        profile,
        requirement: None,
        rule: String::new(),
        relaxed: false,
        integer_outputs: function.outputs.iter().map(Output::is_integer).collect(),
        stats: UnitStats::default(),
        status: Status::Skip,
        note: String::new(),
    }
}

/// Measures one unit on the device and judges it. Never panics on device trouble: an OpenCL
/// or build failure becomes `status = error` with the reason in `note`.
pub fn run_unit(
    session: &Session,
    settings: &RunSettings,
    function: &Function,
    element: FloatType,
    width: u32,
    progress: &dyn Fn(u64, u64),
) -> UnitReport {
    let mut report = skeleton(function, element, width, settings.profile);
    let ulp_table = table::builtin_in(settings.spec, settings.profile);
    let table_5_only = function.table_5_only;
    let row = ulp_table.row(function.name);
    let table_5_rule =
        crate::judge::relaxed::builtin_in(settings.spec).rule(function.name, element);
    if row.is_none() && table_5_only && !(settings.relaxed && table_5_rule.is_some()) {
        report.note = format!(
            "only Table 5 bounds {} (relaxed math, float only): run float with --profile relaxed",
            function.name
        );
        return report;
    }
    // "<= 2.5 + 2n ulp, for gentype with vector width n": the bound at this unit's width.
    let mut requirement = match row {
        Some(row) => row.requirement(element).at_width(width),
        // Table 5's x * y + z row: its words are Table 3's mad cell ("either as a correctly
        // rounded fma or as a multiply and an add both of which are correctly rounded").
        None if table_5_only => Requirement::MadFmaOrMulAdd,
        None => {
            // A row the 2026 text added (degrees, mix, ...): the 2017 text bounds nothing.
            report.note = format!(
                "{} has no row for {}: the {} text does not bound it",
                ulp_table.source, function.name, settings.spec
            );
            return report;
        }
    };
    if settings.correctly_rounded_divide_sqrt
        && element == FloatType::Float
        && function.correctly_rounded_by_option
    {
        requirement = Requirement::CorrectlyRounded;
        report.rule = "correctly rounded (-cl-fp32-correctly-rounded-divide-sqrt)".to_string();
    }
    report.requirement = Some(requirement.clone());
    let relaxed_rule = if settings.relaxed {
        crate::judge::relaxed::builtin_in(settings.spec).rule(function.name, element)
    } else {
        None
    };
    report.relaxed = settings.relaxed;
    if let Some(rule) = relaxed_rule {
        report.rule = rule.describe(settings.profile == Profile::Embedded);
    }
    if requirement == Requirement::NotApplicable && relaxed_rule.is_none() {
        report.note = format!(
            "{} gives {} no {} bound",
            ulp_table.source,
            function.name,
            element.spirv_name()
        );
        return report;
    }
    let Some(fp_config) = session.info.fp_config(element) else {
        report.note = format!(
            "device does not support {element} ({})",
            type_extension(element)
        );
        return report;
    };
    // "Correctly rounded" means the device's default rounding: round to nearest even where it
    // has it (required for double and full-profile float), else round toward zero (allowed for
    // embedded-profile float and for half: "Rounding Modes"). A config the spec forbids gets
    // no allowance: it is judged as the spec requires and the unit fails as not conformant.
    let full_profile =
        settings.profile == Profile::Full || session.info.profile.contains("FULL_PROFILE");
    let not_conformant = crate::judge::nonconformance(fp_config, element, full_profile);
    let rounding = if fp_config.round_to_nearest() || not_conformant.is_some() {
        Round::Nearest
    } else if fp_config.round_to_zero() {
        Round::Zero
    } else {
        report.status = Status::Error;
        report.note = format!(
            "device's {element} config reports neither round to nearest nor round toward zero"
        );
        return report;
    };
    let spec = KernelSpec {
        instruction: function.instruction,
        shape: function.shape,
        element,
        width,
        address_bits: session.info.address_bits,
    };
    let flush_reason = settings.flush_to_zero_reason(fp_config, element);
    let flushes_subnormals = flush_reason.is_some();
    let rules = Rules {
        function: function.name,
        outputs: function.outputs.to_vec(),
        requirement: requirement.clone(),
        element,
        flushes_subnormals,
        rounding,
        relaxed: relaxed_rule,
        embedded: settings.profile == Profile::Embedded,
        finite_math_only: settings.relaxed
            || settings.build_options.contains("-cl-fast-relaxed-math")
            || settings.build_options.contains("-cl-finite-math-only"),
    };
    // The geometric bounds are defined on the whole vector: one case per work-item.
    let measured = if function.shape.is_geometric() {
        let rules = Rules {
            outputs: crate::spec::registry::outputs_at_width(function, width),
            ..rules
        };
        crate::run::geometric::measure(session, settings, function, &spec, rules, progress)
    } else {
        measure(session, settings, function, &spec, rules, progress)
    };
    match measured {
        Ok(stats) => {
            report.status = if stats.failures > 0 {
                Status::Fail
            } else {
                Status::Pass
            };
            let mut notes = Vec::new();
            if settings.device_only {
                notes.push("--device-only: results not judged".to_string());
            }
            if requirement == Requirement::ImplementationDefined {
                notes.push("implementation-defined accuracy: measured, not judged".to_string());
            }
            if stats.undefined > 0 {
                // The count is in the `undefined` column; the note stays the same across shards.
                notes.push(
                    "inputs where the spec leaves the result undefined are not judged".to_string(),
                );
            }
            if let Some(reason) = &flush_reason {
                notes.push(format!("{reason}: FTZ rules applied"));
            }
            if rounding == Round::Zero {
                notes.push(format!(
                    "default {element} rounding is toward zero: correctly rounded means RTZ"
                ));
            }
            if settings.relaxed && relaxed_rule.is_none() {
                notes.push(format!("not in Table 5: judged by {}", ulp_table.source));
            }
            if let Some(correction) = relaxed_rule
                .filter(|_| stats.failures > 0)
                .and_then(|rule| {
                    let worst = stats.worst.as_ref().map(|w| w.args.as_slice());
                    crate::judge::relaxed::correction(rule.instruction(), worst.unwrap_or(&[]))
                })
            {
                notes.push(correction.to_string());
            }
            if let Some(reason) = &not_conformant {
                // Judged as the spec requires; whatever was measured, the unit cannot pass.
                report.status = Status::Fail;
                notes.insert(0, reason.clone());
            }
            report.note = notes.join("; ");
            report.stats = stats;
        }
        Err(error) => {
            report.status = Status::Error;
            report.note = error;
        }
    }
    report
}

fn measure(
    session: &Session,
    settings: &RunSettings,
    function: &Function,
    spec: &KernelSpec,
    rules: Rules,
    progress: &dyn Fn(u64, u64),
) -> Result<UnitStats, String> {
    let built = build_unit_kernel(session, settings, function, spec)?;
    let element = spec.element;
    let argument_kinds = spec.argument_kinds();
    let result_kinds = spec.result_kinds();
    let plan = input_plan(settings, function, spec, &argument_kinds)?;
    let width = u64::from(spec.width);
    let chunk = (CHUNK_SCALARS as u64 / width) * width;
    let chunk_count = plan.total().div_ceil(chunk);
    let chunks = settings.shard.chunks(chunk_count);
    let planned = settings
        .shard
        .chunks_owned(chunk_count)
        .saturating_mul(chunk);
    progress(0, planned);
    // The device works on the next chunk while the references judge this one: a producer
    // thread generates inputs and runs the kernel, the caller's thread judges (on `threads`
    // threads), and a channel of two chunks bounds the memory in flight.
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Result<DeviceChunk, String>>(2);
    std::thread::scope(|scope| {
        let plan = &plan;
        let argument_kinds = &argument_kinds;
        let result_kinds = &result_kinds;
        scope.spawn(move || {
            for number in chunks {
                let start = number * chunk;
                let columns = plan.columns(start, chunk);
                let outcome = run_chunk(
                    session,
                    &built,
                    element,
                    argument_kinds,
                    result_kinds,
                    &columns,
                    width,
                )
                .map(|device_results| DeviceChunk {
                    start,
                    columns,
                    device_results,
                });
                let failed = outcome.is_err();
                if sender.send(outcome).is_err() || failed {
                    return;
                }
            }
        });
        let mut stats = UnitStats::default();
        let mut done = 0;
        let confirm = |stats: &mut UnitStats| {
            // Every reported worst case is MPFR's, whatever tier judged it first.
            if let Some(worst) = stats.worst.take() {
                let confirmed =
                    rules.judge_exactly(worst.index, &worst.args, &worst.device_results);
                // A correctly rounded result ranked at its bound keeps the bound as the
                // unit's maximum (its own error is at most that; others' are unmeasured).
                let bounded = worst.error == crate::judge::BOUND_OF_CORRECTLY_ROUNDED
                    && confirmed.error < worst.error;
                if worst.error == stats.max_error && !confirmed.absolute && !bounded {
                    stats.max_error = confirmed.error;
                }
                stats.worst = Some(confirmed);
            }
        };
        for received in receiver {
            let chunk_result = received?;
            let judged = plan
                .judged()
                .saturating_sub(chunk_result.start)
                .min(chunk_result.columns[0].len() as u64);
            if settings.device_only {
                stats.inputs += judged;
            } else {
                stats.merge(judge_chunk(
                    &rules,
                    function,
                    &chunk_result,
                    judged as usize,
                    settings.threads,
                ));
            }
            done += chunk;
            progress(done.min(planned), planned);
        }
        confirm(&mut stats);
        Ok(stats)
    })
}

/// The unit's module (the user's `--kernel` for the function, else clacc's own), built for
/// the device.
pub(crate) fn build_unit_kernel(
    session: &Session,
    settings: &RunSettings,
    function: &Function,
    spec: &KernelSpec,
) -> Result<BuiltKernel, String> {
    let (module_name, spirv) = match settings
        .user_kernels
        .iter()
        .find(|k| k.function == function.name)
    {
        Some(user) => (user.path.clone(), user.spirv.clone()),
        None => {
            let words = kernel::build(spec).map_err(|e| format!("kernel not built: {e}"))?;
            (spec.file_stem(), kernel::words_to_bytes(&words))
        }
    };
    session
        .build(&module_name, &spirv, ENTRY_POINT, &settings.build_options)
        .map_err(|error| match error {
            DeviceError::Build { log, .. } => {
                eprintln!("clacc: the driver refused {module_name}:\n{log}");
                format!("driver refused the module: {}", telling_line(&log))
            }
            other => other.to_string(),
        })
}

/// The build log line that says why: the first naming an error, else the first naming a
/// failure, else the last line.
fn telling_line(log: &str) -> String {
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let find = |word: &str| {
        lines
            .iter()
            .find(|l| l.to_lowercase().contains(word))
            .copied()
    };
    find("error")
        .or_else(|| find("fail"))
        .or_else(|| lines.last().copied())
        .unwrap_or("(empty build log)")
        .to_string()
}

/// Which 1/N of the work a run does: chunk k of every unit belongs to shard k mod N, so the
/// same seed gives the same shard contents on any machine, and every unit gets a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with 0 <= I < N.
    pub fn parse(text: &str) -> Option<Shard> {
        let (index, count) = text.split_once('/')?;
        let shard = Shard {
            index: index.trim().parse().ok()?,
            count: count.trim().parse().ok()?,
        };
        (shard.count > 0 && shard.index < shard.count).then_some(shard)
    }

    /// This shard's chunks among `chunk_count` (k mod N == I), walked lazily: a sweep of 2^40
    /// inputs must not list its chunk numbers before the first one runs.
    pub fn chunks(&self, chunk_count: u64) -> std::iter::StepBy<std::ops::Range<u64>> {
        (self.index..chunk_count).step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
    }

    /// How many of `chunk_count` chunks [`Shard::chunks`] walks.
    pub fn chunks_owned(&self, chunk_count: u64) -> u64 {
        chunk_count.saturating_sub(self.index).div_ceil(self.count)
    }

    pub fn owns(&self, chunk: u64) -> bool {
        chunk % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A chunk the device has computed.
struct DeviceChunk {
    start: u64,
    columns: Vec<Vec<f64>>,
    device_results: Vec<Vec<f64>>,
}

pub(crate) fn input_plan(
    settings: &RunSettings,
    function: &Function,
    spec: &KernelSpec,
    argument_kinds: &[ValueKind],
) -> Result<InputPlan, String> {
    let element = spec.element;
    if let Some(cases) = &settings.explicit_cases {
        if cases[0].len() != argument_kinds.len() {
            return Err(format!(
                "--input-file cases have {} arguments; {} takes {}",
                cases[0].len(),
                function.name,
                argument_kinds.len()
            ));
        }
        return Ok(InputPlan::explicit(
            function,
            element,
            argument_kinds,
            cases.clone(),
            spec.width,
        ));
    }
    if settings.exhaustive {
        if let Some(plan) = InputPlan::exhaustive(function, element, argument_kinds, spec.width) {
            return Ok(plan);
        }
    }
    let seed = sweep::unit_seed(settings.seed, function.name, element, spec.width);
    Ok(InputPlan::sweep(
        function,
        element,
        argument_kinds,
        settings.inputs,
        spec.width,
        seed,
    ))
}

/// Encodes one chunk, runs the kernel on it and decodes every output.
pub(crate) fn run_chunk(
    session: &Session,
    built: &BuiltKernel,
    element: FloatType,
    argument_kinds: &[ValueKind],
    result_kinds: &[ValueKind],
    columns: &[Vec<f64>],
    width: u64,
) -> Result<Vec<Vec<f64>>, String> {
    let length = columns[0].len();
    let encoded: Vec<Vec<u8>> = columns
        .iter()
        .zip(argument_kinds)
        .map(|(column, kind)| encode(*kind, element, column))
        .collect();
    let input_slices: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
    let mut outputs: Vec<Vec<u8>> = result_kinds
        .iter()
        .map(|kind| vec![0u8; length * kind.component_bytes(element)])
        .collect();
    let mut output_slices: Vec<&mut [u8]> = outputs.iter_mut().map(Vec::as_mut_slice).collect();
    session
        .run(
            built,
            &input_slices,
            &mut output_slices,
            length / width as usize,
        )
        .map_err(|e| e.to_string())?;
    Ok(outputs
        .iter()
        .zip(result_kinds)
        .map(|(bytes, kind)| decode(*kind, element, bytes))
        .collect())
}

/// A buffer of `kind` values, packed little-endian (integers and codes are held exactly in
/// the `f64` columns).
fn encode(kind: ValueKind, element: FloatType, values: &[f64]) -> Vec<u8> {
    match kind {
        // One tight loop per format (the chunk's hot path): the values are already in the
        // format, so each conversion is exact.
        ValueKind::FloatGentype | ValueKind::FloatScalar => match element {
            FloatType::Float => values
                .iter()
                .flat_map(|v| (*v as f32).to_le_bytes())
                .collect(),
            FloatType::Double => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            FloatType::Half => element.encode(values),
        },
        ValueKind::IntGentype => values
            .iter()
            .flat_map(|v| (*v as i32).to_le_bytes())
            .collect(),
        ValueKind::UintGentype => {
            let bytes = kind.component_bytes(element);
            values
                .iter()
                .flat_map(|v| (*v as u64).to_le_bytes()[..bytes].to_vec())
                .collect()
        }
    }
}

/// The values of a buffer of `kind`, widened exactly to `f64`.
fn decode(kind: ValueKind, element: FloatType, bytes: &[u8]) -> Vec<f64> {
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar => match element {
            FloatType::Float => bytes
                .chunks_exact(4)
                .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect(),
            FloatType::Double => bytes
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect(),
            FloatType::Half => element.decode(bytes),
        },
        ValueKind::IntGentype => bytes
            .chunks_exact(4)
            .map(|c| f64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
        ValueKind::UintGentype => bytes
            .chunks_exact(kind.component_bytes(element))
            .map(|c| {
                let mut word = [0u8; 8];
                word[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(word) as f64
            })
            .collect(),
    }
}

/// Judges the first `judged` inputs of a chunk on `threads` threads; each takes a contiguous
/// slice, and the slices merge in order, so the result does not depend on the thread count.
fn judge_chunk(
    rules: &Rules,
    function: &Function,
    chunk: &DeviceChunk,
    judged: usize,
    threads: usize,
) -> UnitStats {
    judge_in_slices(judged, threads, |inputs| {
        let mut stats = UnitStats::default();
        let mut args = vec![0.0; chunk.columns.len()];
        let mut results = vec![0.0; chunk.device_results.len()];
        for i in inputs {
            for (arg, column) in args.iter_mut().zip(&chunk.columns) {
                *arg = column[i];
            }
            for (result, output) in results.iter_mut().zip(&chunk.device_results) {
                *result = output[i];
            }
            if !function.in_domain(&args) {
                stats.undefined += 1;
                continue;
            }
            let index = chunk.start + i as u64;
            if let Some(verdict) = rules.fast_verdict(&args, &results) {
                stats.record_fast(verdict, index, &args, rules.element, || {
                    rules.judge(index, &args, &results)
                });
                continue;
            }
            let case = rules.judge_exactly(index, &args, &results);
            stats.record_region(&case, rules.element);
            stats.record(case);
        }
        stats
    })
}

/// Judges `0 .. count` on `threads` threads: each takes a contiguous slice, and the slices
/// merge in order, so the result does not depend on the thread count.
pub(crate) fn judge_in_slices(
    count: usize,
    threads: usize,
    judge_slice: impl Fn(std::ops::Range<usize>) -> UnitStats + Sync,
) -> UnitStats {
    let slice_length = count.div_ceil(threads.max(1)).max(1);
    let judge_slice = &judge_slice;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .step_by(slice_length)
            .map(|start| scope.spawn(move || judge_slice(start..(start + slice_length).min(count))))
            .collect();
        let mut merged = UnitStats::default();
        for handle in handles {
            merged.merge(handle.join().expect("judging thread panicked"));
        }
        merged
    })
}
