//! Running the edge-case rules (`edge`) on the device: one unit per (function, type, width),
//! every case checked for its exact prescribed result.
//!
//! Scalar functions run each case in one lane of a vector whose other lanes hold ordinary
//! values, the lane moving from case to case, so a driver that mixes up lanes is caught.
//! Geometric functions take the case's vector as the kernel's vector.

use crate::device::{BuiltKernel, Device};
use crate::judge::edge::{self, EdgeCase, Expected};
use crate::kernel::{self, KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::report::stats::{Case, Outcome, UnitStats};
use crate::report::{Kind, Status, UnitReport};
use crate::run::kernel_form;
use crate::run::pipeline::{self, Chunks, Ran, UnitError};
use crate::run::{ulp, RunSettings, UserKernel};
use crate::spec::edge_table;
use crate::spec::registry;
use crate::spec::signature::{Instruction, ValueKind};
use crate::spec::table::{Judging, Profile};
use rug::Float;

/// The value every lane that holds no case gets, per kind: ordinary, far from any special value.
fn filler(kind: ValueKind) -> f64 {
    match kind {
        ValueKind::FloatGentype => 1.375,
        _ => 3.0,
    }
}

fn report(function: &str, element: FloatType, width: u32, profile: Profile) -> UnitReport {
    UnitReport {
        kind: Kind::Edge,
        function: function.to_string(),
        element,
        width,
        judging: Judging::Table(profile),
        // Edge cases are exact: 0 ulp, the prescribed result and no other.
        requirement: Some(crate::spec::table::Requirement::Exact),
        rule: "edge-case rules (tables/edge_cases.csv)".to_string(),
        integer_outputs: Vec::new(),
        stats: UnitStats::default(),
        status: Status::Skip,
        note: String::new(),
    }
}

/// The kernel for a function's edge cases (the interface a `--kernel` module must have).
pub fn kernel_spec(
    function: &str,
    element: FloatType,
    width: u32,
    address_bits: u32,
) -> Option<KernelSpec> {
    let (instruction, shape) = match registry::find(function) {
        Some(entry) => (entry.instruction, entry.shape),
        // The geometric functions have edge-case rules but no ULP row: their instruction and
        // shape come from the grammar and the kernel builder.
        None => {
            let instruction = Instruction::extended(function)?;
            (instruction, kernel::required_shape(&instruction)?)
        }
    };
    Some(KernelSpec {
        instruction,
        shape,
        element,
        width,
        address_bits,
    })
}

/// The widths a function's edge cases run at: every selected width for scalar functions; for
/// geometric ones the width of the data's vectors, if selected.
pub fn widths_for(function: &str, element: FloatType, selected: &[u32]) -> Vec<u32> {
    // The geometric instructions (length, distance, normalize) run their edge cases at the
    // widths the cases have, below.
    if registry::find(function).is_some_and(|entry| !entry.shape.is_geometric()) {
        // A function Table 3 does not give for the type (half_* outside Float32) has no
        // kernel there, so no edge unit.
        let exists = crate::spec::table::builtin(Profile::Full)
            .row(function)
            .is_none_or(|row| {
                *row.requirement(element) != crate::spec::table::Requirement::NotApplicable
            });
        return if exists {
            selected.to_vec()
        } else {
            Vec::new()
        };
    }
    let vector_widths: Vec<u32> = edge::cases(function, element, false)
        .iter()
        .map(|c| c.width as u32)
        .collect();
    selected
        .iter()
        .copied()
        .filter(|w| vector_widths.contains(w))
        .collect()
}

/// Checks every edge case of `function` for `element` at `width` on the device.
pub fn run_edge_unit(
    session: &dyn Device,
    settings: &RunSettings,
    function: &str,
    element: FloatType,
    width: u32,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    match EdgeUnit::set_up(session, settings, function, element, width) {
        Ok(unit) => pipeline::run(unit, progress),
        Err(report) => Ran::settled(*report),
    }
}

/// An edge unit set up for the pipeline: its cases, one chunk.
pub struct EdgeUnit<'a> {
    session: &'a dyn Device,
    settings: &'a RunSettings,
    function: &'a str,
    spec: KernelSpec,
    cases: Vec<EdgeCase>,
    /// Cases left out as undefined under `-cl-finite-math-only`.
    undefined: u64,
    flush_reason: Option<String>,
    /// The row before its verdict.
    report: UnitReport,
}

/// The device's results for every case of an edge unit.
pub struct EdgeChunk {
    device_results: Vec<Vec<f64>>,
}

impl<'a> EdgeUnit<'a> {
    /// The unit's cases; `Err` is the finished row of a unit that does not run.
    pub fn set_up(
        session: &'a dyn Device,
        settings: &'a RunSettings,
        function: &'a str,
        element: FloatType,
        width: u32,
    ) -> Result<EdgeUnit<'a>, Box<UnitReport>> {
        let mut unit = report(function, element, width, settings.judging.profile());
        let Some(fp_config) = session.fp_config(element) else {
            unit.note = format!("device does not support {element}");
            return Err(Box::new(unit));
        };
        // The same reading as the ULP units: never for double.
        let flush_reason = settings.flush_to_zero_reason(fp_config, element);
        let flush_to_zero = flush_reason.is_some();
        let takes_vectors = edge_table::signature(function)
            .is_some_and(|signature| signature.args.contains(&edge_table::ArgKind::Vector));
        let cases: Vec<EdgeCase> = edge::cases_in(
            settings.path.environment(),
            settings.spec,
            function,
            element,
            flush_to_zero,
        )
        .into_iter()
        // Geometric cases (vector arguments) run at their own vector width only; scalar
        // cases at every width, one lane at a time.
        .filter(|c| c.width == width as usize || (c.width == 1 && !takes_vectors))
        .filter(|c| {
            settings
                .explicit_cases
                .as_ref()
                .is_none_or(|wanted| wanted.iter().any(|w| same_args(w, &c.args)))
        })
        .collect();
        // -cl-fast-relaxed-math implies -cl-finite-math-only ("assume that arguments and
        // results are not NaNs or ±∞"): cases with such inputs or prescribed results are
        // undefined there, as in the ULP units.
        let finite_math_only = settings.build_options.contains("-cl-fast-relaxed-math")
            || settings.build_options.contains("-cl-finite-math-only");
        let all_cases = cases.len();
        let cases: Vec<EdgeCase> = if finite_math_only {
            cases.into_iter().filter(finite_case).collect()
        } else {
            cases
        };
        let undefined = (all_cases - cases.len()) as u64;
        if cases.is_empty() {
            unit.note = if undefined > 0 {
                format!("every edge case of {function} at width {width} has a NaN or an infinity, undefined under -cl-finite-math-only")
            } else {
                format!("no edge-case rule for {function} at width {width}")
            };
            return Err(Box::new(unit));
        }
        let Some(spec) = kernel_spec(function, element, width, session.address_bits()) else {
            unit.note = format!("no kernel shape for {function}");
            return Err(Box::new(unit));
        };
        unit.integer_outputs = spec
            .result_kinds()
            .iter()
            .map(|k| *k == ValueKind::IntGentype)
            .collect();
        Ok(EdgeUnit {
            session,
            settings,
            function,
            spec,
            cases,
            undefined,
            flush_reason,
            report: unit,
        })
    }

    /// Whether the cases run scalar by scalar in moving lanes (false) or as whole vectors.
    fn geometric(&self) -> bool {
        self.cases.iter().any(|c| c.width > 1)
    }
}

impl pipeline::Unit for EdgeUnit<'_> {
    /// `None` in a shard that does not own the unit's one chunk: nothing is built there.
    type Kernel = Option<Box<dyn BuiltKernel>>;
    type Prepared = ();
    /// Made with the chunk on the device thread.
    type Inputs = ();
    type Chunk = EdgeChunk;
    type Tally = UnitStats;

    fn build(&self) -> Result<Option<Box<dyn BuiltKernel>>, UnitError> {
        // The cases of a unit are one chunk: shard 0 owns it; the other shards write an empty
        // row that `clacc merge` folds in.
        if !self.settings.shard.owns(0) {
            return Ok(None);
        }
        // The user's module, when `--kernel` names this function, is the one checked: it
        // follows the same kernel convention, so each case's lane layout is the same.
        let (module_name, kernel) = kernel_form::unit_kernel(
            self.settings.kernel_target(self.spec.element),
            user_kernel(self.settings, self.function),
            kernel_form::UnitKernel::Function(&self.spec),
        )?;
        let built = self.session.build(
            &module_name,
            kernel.form(),
            ENTRY_POINT,
            &self.settings.build_options,
        )?;
        Ok(Some(built))
    }

    fn prepare(&self) -> Result<(), UnitError> {
        Ok(())
    }

    fn chunks(&self, _prepared: &()) -> Chunks {
        let owned = self.settings.shard.owns(0);
        Chunks {
            numbers: Box::new(0..u64::from(owned)),
            planned: if owned { self.cases.len() as u64 } else { 0 },
        }
    }

    fn inputs(&self, _prepared: &Self::Prepared, _number: u64) {}

    fn device(
        &self,
        built: &Option<Box<dyn BuiltKernel>>,
        _prepared: &(),
        _number: u64,
        _inputs: (),
    ) -> Result<EdgeChunk, UnitError> {
        let built = built
            .as_ref()
            .expect("a shard that owns the chunk built its kernel");
        let width = self.spec.width as usize;
        let geometric = self.geometric();
        let argument_kinds = self.spec.argument_kinds();
        let columns: Vec<Vec<f64>> = argument_kinds
            .iter()
            .enumerate()
            .map(|(argument, kind)| {
                let mut column = Vec::with_capacity(self.cases.len() * width);
                for (index, case) in self.cases.iter().enumerate() {
                    if geometric {
                        column.extend_from_slice(
                            &case.args[argument * width..(argument + 1) * width],
                        );
                    } else {
                        for lane in 0..width {
                            column.push(if lane == index % width {
                                case.args[argument]
                            } else {
                                filler(*kind)
                            });
                        }
                    }
                }
                column
            })
            .collect();
        let device_results = ulp::run_chunk(
            self.session,
            (built.as_ref(), width as u64),
            self.spec.element,
            &argument_kinds,
            &self.spec.result_kinds(),
            &columns,
            self.settings.work_group,
            false,
            &pipeline::Spares::default(),
        )?;
        Ok(EdgeChunk {
            device_results: device_results
                .iter()
                .map(ulp::ResultColumn::decoded_all)
                .collect(),
        })
    }

    fn judge(&self, _prepared: &(), chunk: &EdgeChunk) -> UnitStats {
        let width = self.spec.width as usize;
        let geometric = self.geometric();
        let result_kinds = self.spec.result_kinds();
        let mut stats = UnitStats::default();
        for (index, case) in self.cases.iter().enumerate() {
            // One value per output (a vector output contributes all its lanes).
            let mut results = Vec::new();
            for (output, kind) in chunk.device_results.iter().zip(&result_kinds) {
                match (geometric, kind) {
                    (true, ValueKind::FloatGentype) => {
                        results.extend_from_slice(&output[index * width..(index + 1) * width])
                    }
                    (true, _) => results.push(output[index]),
                    (false, _) => results.push(output[index * width + index % width]),
                }
            }
            let failed = edge::check(case, &results).is_some();
            stats.record(Case {
                index: index as u64,
                args: case.args.clone(),
                device_results: results,
                references: case.expected.iter().map(expected_value).collect(),
                error: 0.0,
                absolute: false,
                outcome: if failed { Outcome::Fail } else { Outcome::Pass },
                output: 0,
                lanes: Vec::new(),
            });
        }
        stats
    }

    fn advance(&self, _chunk: &EdgeChunk) -> u64 {
        self.cases.len() as u64
    }
}

impl pipeline::OneRow for EdgeUnit<'_> {
    fn finish(self, measured: Result<((), UnitStats), UnitError>) -> UnitReport {
        let mut unit = self.report;
        match measured {
            Ok(((), stats)) => {
                unit.status = if stats.failures > 0 {
                    Status::Fail
                } else {
                    Status::Pass
                };
                if let Some(worst) = &stats.worst {
                    if worst.outcome == Outcome::Fail {
                        let results: Vec<f64> = worst.device_results.clone();
                        unit.note = edge::check(&self.cases[worst.index as usize], &results)
                            .unwrap_or_default();
                    }
                }
                if let Some(reason) = &self.flush_reason {
                    let flush_note =
                        format!("{reason}: subnormal inputs skipped, FTZ alternatives accepted");
                    unit.note = if unit.note.is_empty() {
                        flush_note
                    } else {
                        format!("{}; {flush_note}", unit.note)
                    };
                }
                if let Some(user) = user_kernel(self.settings, self.function) {
                    let used = format!("your module {} checked", user.path);
                    unit.note = if unit.note.is_empty() {
                        used
                    } else {
                        format!("{}; {used}", unit.note)
                    };
                }
                if self.undefined > 0 {
                    let note = "cases with a NaN or an infinity are undefined under \
                                -cl-finite-math-only: not judged";
                    unit.note = if unit.note.is_empty() {
                        note.to_string()
                    } else {
                        format!("{}; {note}", unit.note)
                    };
                }
                unit.stats = stats;
                unit.stats.undefined += self.undefined;
                // In ulp terms an exact check is 0 (every case right) or unbounded (one is
                // wrong).
                unit.stats.max_error = if unit.stats.failures > 0 {
                    f64::INFINITY
                } else {
                    0.0
                };
            }
            Err(error) => {
                unit.status = Status::Error;
                unit.note = error.to_string();
            }
        }
        unit
    }
}

/// Whether a case's inputs and prescribed results are all finite numbers.
fn finite_case(case: &EdgeCase) -> bool {
    let finite_result = |expected: &Expected| match expected {
        Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => v.is_finite(),
        Expected::AnyNan | Expected::OneOfNanOperands(_) => false,
        _ => true,
    };
    case.args.iter().all(|a| a.is_finite()) && case.acceptable().flatten().all(finite_result)
}

/// The module `--kernel` gives for `function`, if any.
fn user_kernel<'a>(settings: &'a RunSettings, function: &str) -> Option<&'a UserKernel> {
    settings
        .user_kernels
        .iter()
        .find(|user| user.function == function)
}

/// Whether some of `given` (`--input`, `--input-file`) is one of `function`'s edge cases for
/// `element` in the revision `spec` of `environment`'s text, flushing or not: an edge unit with
/// none judges nothing.
pub fn given_inputs_meet_an_edge_case(
    environment: &'static crate::spec::environment::Environment,
    spec: crate::spec::table::Revision,
    function: &str,
    element: FloatType,
    given: &crate::sweep::cases::Cases,
) -> bool {
    [false, true].into_iter().any(|flush_to_zero| {
        edge::cases_in(environment, spec, function, element, flush_to_zero)
            .iter()
            .any(|case| given.iter().any(|wanted| same_args(wanted, &case.args)))
    })
}

/// Whether two argument lists are the same values (NaN equal to NaN, −0 apart from +0): how
/// `--input` picks the cases a reproduce line names.
fn same_args(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits())
}

/// The value an expectation names, for the CSV's worst_reference: the value itself, the
/// value a "without overflow" rule approximates (`~max`), the first of a set of integers, the
/// lower end of a range; NaN only where the rule prescribes a NaN or no value at all.
fn expected_value(expected: &Expected) -> Float {
    let value = match expected {
        Expected::Exact(value) => *value,
        Expected::CorrectlyRounded { value, .. } => *value,
        Expected::Integer(value) => *value as f64,
        Expected::Near { value, .. } => *value,
        Expected::OneOfIntegers { values, .. } => values.first().map_or(f64::NAN, |v| *v as f64),
        Expected::HalfOpen { low, .. } => *low,
        _ => f64::NAN,
    };
    Float::with_val(64, value)
}
