//! Drives one unit (function, type, width) through the pipeline: table row → kernel → device →
//! references → judgement → report row.

use crate::device::{DeviceError, Session};
use crate::fp::FloatType;
use crate::judge::{Rules, UnitStats};
use crate::kernel::{self, KernelSpec, ValueKind, ENTRY_POINT};
use crate::registry::{Function, Output};
use crate::report::{Kind, Status, UnitReport};
use crate::sweep;
use crate::table::{self, Profile, Requirement};
use indicatif::ProgressBar;
use rug::float::Round;

/// Settings shared by every unit of a run.
#[derive(Clone, Debug)]
pub struct RunSettings {
    pub profile: Profile,
    /// Inputs per unit (special values included; rounded up to whole vectors).
    pub inputs: usize,
    /// Explicit cases (`--input-file`) run instead of the sweep, when given.
    pub explicit_cases: Option<Vec<Vec<f64>>>,
    pub seed: u64,
    /// Options passed to clBuildProgram.
    pub build_options: String,
    /// Threads computing references.
    pub threads: usize,
}

/// Scalars per device launch: large enough to amortise the launch, small enough to bound
/// memory (inputs, outputs and judged cases of one chunk).
const CHUNK_SCALARS: usize = 1 << 16;

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
    progress: &ProgressBar,
) -> UnitReport {
    let mut report = skeleton(function, element, width, settings.profile);
    let ulp_table = table::builtin(settings.profile);
    let Some(row) = ulp_table.row(function.name) else {
        report.status = Status::Error;
        report.note = format!("{} has no row for {}", ulp_table.source, function.name);
        return report;
    };
    let requirement = row.requirement(element).clone();
    report.requirement = Some(requirement.clone());
    if requirement == Requirement::NotApplicable {
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
    // embedded-profile float and for half: "Rounding Modes").
    let rounding = if fp_config.round_to_nearest() {
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
    match measure(
        session,
        settings,
        function,
        &spec,
        requirement.clone(),
        fp_config.denormals(),
        rounding,
        progress,
    ) {
        Ok(stats) => {
            report.status = if stats.failures > 0 {
                Status::Fail
            } else {
                Status::Pass
            };
            let mut notes = Vec::new();
            if requirement == Requirement::ImplementationDefined {
                notes.push("implementation-defined accuracy: measured, not judged".to_string());
            }
            if stats.undefined > 0 {
                notes.push(format!(
                    "{} inputs outside the specified domain not judged",
                    stats.undefined
                ));
            }
            if !fp_config.denormals() {
                notes.push(format!(
                    "device flushes {element} subnormals: FTZ rules applied"
                ));
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
    requirement: Requirement,
    denormals: bool,
    rounding: Round,
    progress: &ProgressBar,
) -> Result<UnitStats, String> {
    let words = kernel::build(spec).map_err(|e| format!("kernel not built: {e}"))?;
    let built = session
        .build(
            &spec.file_stem(),
            &kernel::words_to_bytes(&words),
            ENTRY_POINT,
            &settings.build_options,
        )
        .map_err(|error| match error {
            DeviceError::Build { log, .. } => {
                eprintln!("clacc: the driver refused {}:\n{log}", spec.file_stem());
                format!(
                    "driver refused the module: {}",
                    log.lines().next().unwrap_or("").trim()
                )
            }
            other => other.to_string(),
        })?;
    let element = spec.element;
    let argument_kinds = spec.argument_kinds();
    let result_kinds = spec.result_kinds();
    let seed = sweep::unit_seed(settings.seed, function.name, element, spec.width);
    let (columns, judged) = match &settings.explicit_cases {
        Some(cases) => {
            if cases[0].len() != argument_kinds.len() {
                return Err(format!(
                    "--input-file cases have {} arguments; {} takes {}",
                    cases[0].len(),
                    function.name,
                    argument_kinds.len()
                ));
            }
            (
                sweep::explicit_columns(cases, element, &argument_kinds, spec.width),
                cases.len(),
            )
        }
        None => {
            let columns = sweep::generate(
                function,
                element,
                &argument_kinds,
                settings.inputs,
                spec.width,
                seed,
            );
            let length = columns[0].len();
            (columns, length)
        }
    };
    let total = columns[0].len();
    progress.set_length(total as u64);
    progress.set_position(0);
    let rules = Rules {
        outputs: function.outputs.to_vec(),
        requirement,
        element,
        flushes_subnormals: !denormals,
        rounding,
    };
    let width = spec.width as usize;
    let chunk = CHUNK_SCALARS / width * width;
    let mut stats = UnitStats::default();
    let mut start = 0;
    while start < total {
        let end = (start + chunk).min(total);
        let encoded: Vec<Vec<u8>> = columns
            .iter()
            .zip(&argument_kinds)
            .map(|(column, kind)| encode(*kind, element, &column[start..end]))
            .collect();
        let input_slices: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
        let mut outputs: Vec<Vec<u8>> = result_kinds
            .iter()
            .map(|kind| vec![0u8; (end - start) * kind.component_bytes(element)])
            .collect();
        let mut output_slices: Vec<&mut [u8]> = outputs.iter_mut().map(Vec::as_mut_slice).collect();
        session
            .run(
                &built,
                &input_slices,
                &mut output_slices,
                (end - start) / width,
            )
            .map_err(|e| e.to_string())?;
        let device_results: Vec<Vec<f64>> = outputs
            .iter()
            .zip(&result_kinds)
            .map(|(bytes, kind)| decode(*kind, element, bytes))
            .collect();
        stats.merge(judge_chunk(
            &rules,
            function,
            &columns,
            start,
            &device_results,
            judged,
            settings.threads,
        ));
        progress.set_position(end as u64);
        start = end;
    }
    Ok(stats)
}

/// A buffer of `kind` values, packed little-endian (integers and codes are held exactly in
/// the `f64` columns).
fn encode(kind: ValueKind, element: FloatType, values: &[f64]) -> Vec<u8> {
    match kind {
        ValueKind::FloatGentype => element.encode(values),
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
        ValueKind::FloatGentype => element.decode(bytes),
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

/// Judges one chunk on `threads` threads; each takes a contiguous slice, and the slices merge
/// in order, so the result does not depend on the thread count.
fn judge_chunk(
    rules: &Rules,
    function: &Function,
    columns: &[Vec<f64>],
    offset: usize,
    device_results: &[Vec<f64>],
    judged: usize,
    threads: usize,
) -> UnitStats {
    // Inputs past `judged` only pad the last vector of explicit cases.
    let length = device_results[0].len().min(judged.saturating_sub(offset));
    let slice_length = length.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..length)
            .step_by(slice_length)
            .map(|slice_start| {
                scope.spawn(move || {
                    let mut stats = UnitStats::default();
                    let mut args = vec![0.0; columns.len()];
                    let mut results = vec![0.0; device_results.len()];
                    for i in slice_start..(slice_start + slice_length).min(length) {
                        let index = offset + i;
                        for (arg, column) in args.iter_mut().zip(columns) {
                            *arg = column[index];
                        }
                        for (result, output) in results.iter_mut().zip(device_results) {
                            *result = output[i];
                        }
                        if !function.in_domain(&args) {
                            stats.undefined += 1;
                            continue;
                        }
                        let case = rules.judge(index as u64, &args, &results);
                        stats.record_region(&case, rules.element);
                        stats.record(case);
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
