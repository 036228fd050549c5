//! ULP units: one (function, type, width) judged against the spec's ULP tables (Table 3, 4,
//! 5 and the relaxed rules) on inputs the sweep plans, chunk by chunk through the
//! [`pipeline`]: table row → kernel → device → references → judgement → report row.

use crate::device::{BuiltKernel, Device, DeviceError, Launch};
use crate::judge::slice::{self, Segments, SliceJudge};
use crate::judge::Rules;
use crate::kernel::{KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::report::stats::{RowStats, UnitStats};
use crate::report::{Kind, Status, UnitReport};
use crate::run::kernel_form;
use crate::run::pipeline::{self, Chunks, Ran, Spares, UnitError};
use crate::run::{geometric, RunSettings, WorkGroup, CHUNK_SCALARS};
use crate::spec::environment::KernelPath;
use crate::spec::registry::{Function, Output};
use crate::spec::relaxed_table::RelaxedRule;
use crate::spec::signature::ValueKind;
use crate::spec::table::{self, Judging, Profile, Requirement};
use crate::sweep::{self, empty_columns, Encodings, InputPlan};
use rug::float::Round;

/// The extension that provides a type, for skip notes.
fn type_extension(element: FloatType) -> &'static str {
    match element {
        FloatType::Half => "cl_khr_fp16",
        FloatType::Float => "core",
        FloatType::Double => "cl_khr_fp64",
    }
}

fn skeleton(function: &Function, element: FloatType, width: u32, judging: Judging) -> UnitReport {
    UnitReport {
        kind: Kind::Ulp,
        function: function.name.to_string(),
        element,
        width,
        judging,
        requirement: None,
        rule: String::new(),
        integer_outputs: function.outputs.iter().map(Output::is_integer).collect(),
        stats: UnitStats::default(),
        status: Status::Skip,
        note: String::new(),
    }
}

/// Measures one unit on the device and judges it. Never panics on device trouble: an OpenCL
/// or build failure becomes `status = error` with the reason in `note`.
pub fn run_unit<'a>(
    session: &'a dyn Device,
    settings: &'a RunSettings,
    function: &'a Function,
    element: FloatType,
    width: u32,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    match UlpUnit::set_up(session, settings, function, element, width) {
        Ok(unit) => pipeline::run(unit, progress),
        Err(report) => Ran::settled(*report),
    }
}

/// A ULP unit (function, type, width) set up for the pipeline: its rules and the facts its
/// notes report. Geometric functions judge one work-item as one case
/// ([`crate::run::geometric`]); every other function one component.
pub struct UlpUnit<'a> {
    session: &'a dyn Device,
    settings: &'a RunSettings,
    function: &'a Function,
    spec: KernelSpec,
    rules: Rules,
    /// The row before its verdict.
    report: UnitReport,
    requirement: Requirement,
    relaxed_rule: Option<&'static RelaxedRule>,
    /// The source of the ULP table that judges, for the note of a function Table 5 lacks.
    table_source: String,
    flush_reason: Option<String>,
    rounding: Round,
    not_conformant: Option<String>,
    geometric: bool,
    /// Scalars per chunk: [`CHUNK_SCALARS`] rounded down to whole vectors.
    chunk: u64,
    argument_kinds: Vec<ValueKind>,
    result_kinds: Vec<ValueKind>,
    /// Chunks' columns the judge is done with, for the input thread's next chunks.
    spare_columns: Spares<Vec<Vec<f64>>>,
    /// Result columns' memory the judge is done with, for the device thread's next chunks.
    spare_bytes: Spares<Vec<u8>>,
}

/// A ULP unit's inputs.
pub struct Prepared {
    plan: InputPlan,
    /// Where the plan lists every encoding in order and the unit takes no columns for its
    /// device ([`WidthGroup`]), what the device is sent, written from the inputs' indices.
    encodings: Option<Encodings>,
}

impl Prepared {
    /// A plan whose inputs go to the device through their columns.
    fn of_columns(plan: InputPlan) -> Prepared {
        Prepared {
            plan,
            encodings: None,
        }
    }

    /// A plan whose inputs go to the device as their encodings where it lists them.
    fn of_encodings(plan: InputPlan) -> Prepared {
        Prepared {
            encodings: plan.encodings(),
            plan,
        }
    }
}

impl<'a> UlpUnit<'a> {
    /// The unit's rules from the tables, the options and the device's config; `Err` is the
    /// finished row of a unit that does not run (no bound, no type support).
    pub fn set_up(
        session: &'a dyn Device,
        settings: &'a RunSettings,
        function: &'a Function,
        element: FloatType,
        width: u32,
    ) -> Result<UlpUnit<'a>, Box<UnitReport>> {
        // A unit skipped before its rule is known still records what the run judges by (relaxed
        // under --profile relaxed), which is what its key and a --resume compare.
        let mut report = skeleton(function, element, width, settings.judging);
        let ulp_table = table::builtin_in(
            settings.path.environment(),
            settings.spec,
            settings.judging.profile(),
        );
        let table_5_only = function.table_5_only;
        let row = ulp_table.row(function.name);
        // The Vulkan environment has no Table 5: RelaxedPrecision reads its table's half column.
        let vulkan = settings.path == KernelPath::Vulkan;
        let table_5_rule = if vulkan {
            None
        } else {
            crate::spec::relaxed_table::builtin_in(settings.path.environment(), settings.spec)
                .rule(function.name, element)
        };
        if row.is_none() && table_5_only && !(settings.judging.relaxed() && table_5_rule.is_some())
        {
            report.note = format!(
                "only Table 5 bounds {} (relaxed math, float only): run float with --profile relaxed",
                function.name
            );
            return Err(Box::new(report));
        }
        // "<= 2.5 + 2n ulp, for gentype with vector width n": the bound at this unit's width.
        // The type a Vulkan cell's ULP counts are in: half's for a RelaxedPrecision float.
        let mut vulkan_unit = element;
        let mut requirement = match row {
            Some(row) if vulkan => {
                let (requirement, unit) =
                    crate::spec::vulkan::column(row, element, settings.judging.relaxed());
                vulkan_unit = unit;
                requirement.at_width(width)
            }
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
                return Err(Box::new(report));
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
        let relaxed_rule = if settings.judging.relaxed() && !vulkan {
            crate::spec::relaxed_table::builtin_in(settings.path.environment(), settings.spec)
                .rule(function.name, element)
        } else {
            None
        };
        if let Some(rule) = relaxed_rule {
            report.rule = rule.describe(settings.judging.profile() == Profile::Embedded);
        }
        if requirement == Requirement::NotApplicable && relaxed_rule.is_none() {
            report.note = format!(
                "{} gives {} no {} bound",
                ulp_table.source,
                function.name,
                element.spirv_name()
            );
            return Err(Box::new(report));
        }
        // An inherited formula the judge does not evaluate bounds nothing it could check: the
        // unit is not run rather than reported as a pass.
        if let Requirement::Vulkan(crate::spec::vulkan::Cell::Inherited(formula)) = &requirement {
            if !crate::judge::vulkan::inherited::evaluable(formula) {
                report.note = format!(
                    "not judged: inherited from {formula} (a formula the judge does not evaluate yet)"
                );
                return Err(Box::new(report));
            }
        }
        let Some(fp_config) = session.fp_config(element) else {
            report.note = if vulkan {
                format!(
                    "device does not support {element} ({})",
                    match element {
                        FloatType::Half => "shaderFloat16 and storageBuffer16BitAccess",
                        FloatType::Double => "shaderFloat64",
                        FloatType::Float => "no float",
                    }
                )
            } else {
                format!(
                    "device does not support {element} ({})",
                    type_extension(element)
                )
            };
            return Err(Box::new(report));
        };
        // "Correctly rounded" means the device's default rounding: round to nearest even where
        // it has it (required for double and full-profile float), else round toward zero
        // (allowed for embedded-profile float and for half: "Rounding Modes"). A config the
        // spec forbids gets no allowance: it is judged as the spec requires and the unit fails
        // as not conformant.
        let full_profile = settings.judging.profile() == Profile::Full || session.full_profile();
        // The Vulkan environment requires no rounding mode or denormal support of a device: the
        // shader's execution modes say what its results must meet.
        let not_conformant = if vulkan {
            None
        } else {
            crate::judge::nonconformance(fp_config, element, full_profile)
        };
        let rounding = if fp_config.round_to_nearest() || not_conformant.is_some() {
            Round::Nearest
        } else if fp_config.round_to_zero() {
            Round::Zero
        } else {
            report.status = Status::Error;
            report.note = format!(
                "device's {element} config reports neither round to nearest nor round toward zero"
            );
            return Err(Box::new(report));
        };
        let spec = KernelSpec {
            instruction: function.instruction,
            shape: function.shape,
            element,
            width,
            address_bits: session.address_bits(),
        };
        // A unit Vulkan has no shader for: GLSL.std.450's sin, exp, pow... take no double, its
        // cross only 3-vectors.
        if vulkan {
            use crate::kernel::KernelError;
            let modes = crate::kernel::spirv_vulkan::ShaderModes::default();
            if let Err(
                error @ (KernelError::NoVulkanInstructionForElement { .. }
                | KernelError::UnsupportedVulkanWidth { .. }),
            ) = crate::kernel::spirv_vulkan::build(&spec, &modes)
            {
                report.note = format!("{error}: the vulkan path has no such unit");
                return Err(Box::new(report));
            }
        }
        let flush_reason = settings.flush_to_zero_reason(fp_config, element);
        let flushes_subnormals = flush_reason.is_some();
        let geometric = function.shape.is_geometric();
        let rules = Rules {
            function: function.name,
            // The geometric bounds are defined on the whole vector: one case per work-item.
            outputs: if geometric {
                crate::spec::registry::outputs_at_width(function, width)
            } else {
                function.outputs.to_vec()
            },
            requirement: requirement.clone(),
            element,
            flushes_subnormals,
            rounding,
            relaxed: relaxed_rule,
            embedded: settings.judging.profile() == Profile::Embedded,
            // judge::vulkan decides NaN and infinities by the shader's modes itself.
            finite_math_only: !vulkan && settings.finite_math_only(element),
            vulkan: vulkan.then(|| crate::judge::VulkanJudging {
                modes: crate::run::vulkan::unit_judge_modes(
                    settings.vulkan_modes(element),
                    element,
                    settings
                        .user_kernels
                        .iter()
                        .find(|k| k.function == function.name)
                        .and_then(|k| match &k.code {
                            crate::run::UserCode::Spirv(bytes) => Some(bytes.as_slice()),
                            crate::run::UserCode::OpenclC(_) => None,
                        }),
                ),
                unit: vulkan_unit,
            }),
        };
        Ok(UlpUnit {
            session,
            settings,
            function,
            rules,
            report,
            requirement,
            relaxed_rule,
            table_source: ulp_table.source.to_string(),
            flush_reason,
            rounding,
            not_conformant,
            geometric,
            chunk: (CHUNK_SCALARS as u64 / u64::from(width)) * u64::from(width),
            argument_kinds: spec.argument_kinds(),
            result_kinds: spec.result_kinds(),
            spec,
            spare_columns: Spares::default(),
            spare_bytes: Spares::default(),
        })
    }

    /// How many scalars of the chunk starting at `start`, `length` long, are judged (the
    /// plan's padding to whole vectors is not).
    fn judged(plan: &InputPlan, start: u64, length: usize) -> u64 {
        plan.judged().saturating_sub(start).min(length as u64)
    }
}

impl pipeline::Unit for UlpUnit<'_> {
    type Kernel = Box<dyn BuiltKernel>;
    type Prepared = Prepared;
    /// The chunk's columns, one per argument.
    type Inputs = Vec<Vec<f64>>;
    type Chunk = DeviceChunk;
    type Tally = UnitStats;

    fn build(&self) -> Result<Box<dyn BuiltKernel>, UnitError> {
        build_unit_kernel(self.session, self.settings, self.function, &self.spec)
    }

    fn prepare(&self) -> Result<Prepared, UnitError> {
        let plan = input_plan(
            self.settings,
            self.function,
            &self.spec,
            &self.argument_kinds,
        )?;
        // A unit alone keeps its columns: geometric judging reads whole work-items of them.
        Ok(Prepared::of_columns(plan))
    }

    fn chunks(&self, prepared: &Prepared) -> Chunks {
        let chunk_count = prepared.plan.total().div_ceil(self.chunk);
        Chunks {
            numbers: Box::new(self.settings.shard.chunks(chunk_count)),
            planned: self
                .settings
                .shard
                .chunks_owned(chunk_count)
                .saturating_mul(self.chunk),
        }
    }

    fn inputs(&self, prepared: &Prepared, number: u64) -> Vec<Vec<f64>> {
        let mut columns = self
            .spare_columns
            .take()
            .unwrap_or_else(|| empty_columns(self.argument_kinds.len(), self.chunk as usize));
        columns.iter_mut().for_each(Vec::clear);
        prepared
            .plan
            .append_columns(number * self.chunk, self.chunk, &mut columns);
        columns
    }

    fn device(
        &self,
        built: &Box<dyn BuiltKernel>,
        _prepared: &Prepared,
        number: u64,
        columns: Vec<Vec<f64>>,
    ) -> Result<DeviceChunk, UnitError> {
        let start = number * self.chunk;
        let device_results = run_chunk(
            self.session,
            (built.as_ref(), u64::from(self.spec.width)),
            self.spec.element,
            &self.argument_kinds,
            &self.result_kinds,
            &columns,
            self.settings.work_group,
            self.settings.explicit_cases.is_some(),
            &self.spare_bytes,
        )?;
        Ok(DeviceChunk {
            start,
            columns,
            device_results,
        })
    }

    fn judge(&self, prepared: &Prepared, chunk: &DeviceChunk) -> UnitStats {
        let judged = Self::judged(&prepared.plan, chunk.start, chunk.columns[0].len());
        let width = self.spec.width as usize;
        if self.geometric {
            let first_item = chunk.start / width as u64;
            // A work-item is judged when its first component is (the last may be padding).
            let device_results: Vec<Vec<f64>> = chunk
                .device_results
                .iter()
                .map(ResultColumn::decoded_all)
                .collect();
            let stats = geometric::judge_items(
                &self.rules,
                self.function,
                &chunk.columns,
                &device_results,
                &self.result_kinds,
                first_item,
                judged.div_ceil(width as u64) as usize,
                width,
                self.settings.threads,
            );
            // A work-item's components are its lanes.
            with_lanes(stats, width, |item| {
                vector_lanes(&chunk.columns, (item - first_item) as usize * width, width)
            })
        } else {
            let rules = [&self.rules];
            let stats = judge_rows(
                &rules,
                self.function,
                &Segments::one(chunk.start),
                &chunk.columns,
                std::slice::from_ref(&chunk.device_results),
                judged as usize,
                self.settings.threads,
            )
            .into_only_row();
            // The chunk starts on a whole vector.
            with_lanes(stats, width, |index| {
                let first = (index - chunk.start) as usize / width * width;
                vector_lanes(&chunk.columns, first, width)
            })
        }
    }

    fn unjudged(&self, prepared: &Prepared, chunk: &DeviceChunk) -> Option<UnitStats> {
        if !self.settings.device_only {
            return None;
        }
        let mut judged = Self::judged(&prepared.plan, chunk.start, chunk.columns[0].len());
        if self.geometric {
            // Work-items are what a geometric unit counts.
            judged = judged.div_ceil(u64::from(self.spec.width));
        }
        Some(UnitStats {
            inputs: judged,
            ..UnitStats::default()
        })
    }

    fn advance(&self, _chunk: &DeviceChunk) -> u64 {
        // Whole chunks, the last one too: progress reaches `planned` exactly.
        self.chunk
    }

    fn recycle(&self, chunk: DeviceChunk) {
        self.spare_columns.give([chunk.columns]);
        self.spare_bytes.give(
            chunk
                .device_results
                .into_iter()
                .filter_map(ResultColumn::into_bytes),
        );
    }

    fn conclude(&self, _prepared: &Prepared, stats: UnitStats) -> UnitStats {
        self.confirm_worst(stats)
    }
}

impl pipeline::OneRow for UlpUnit<'_> {
    fn finish(self, measured: Result<(Prepared, UnitStats), UnitError>) -> UnitReport {
        self.report_of(measured.map(|(_, stats)| stats))
    }
}

impl UlpUnit<'_> {
    /// The merged stats made final: the worst case confirmed by MPFR.
    fn confirm_worst(&self, mut stats: UnitStats) -> UnitStats {
        if self.geometric {
            // MPFR judged every work-item already.
            return stats;
        }
        // Every reported worst case is MPFR's, whatever tier judged it first.
        if let Some(worst) = stats.worst.take() {
            let mut confirmed =
                self.rules
                    .judge_exactly(worst.index, &worst.args, &worst.device_results);
            confirmed.lanes = worst.lanes;
            // A correctly rounded result ranked at its bound keeps the bound as the unit's
            // maximum (its own error is at most that; others' are unmeasured).
            let bounded = worst.error == crate::report::stats::BOUND_OF_CORRECTLY_ROUNDED
                && confirmed.error < worst.error;
            if worst.error == stats.max_error && !confirmed.absolute && !bounded {
                stats.max_error = confirmed.error;
            }
            stats.worst = Some(confirmed);
        }
        stats
    }

    /// The unit's row from its final stats, or from why it stopped.
    fn report_of(self, measured: Result<UnitStats, UnitError>) -> UnitReport {
        let mut report = self.report;
        let element = self.spec.element;
        match measured {
            Ok(stats) => {
                report.status = if stats.failures > 0 {
                    Status::Fail
                } else {
                    Status::Pass
                };
                let mut notes = Vec::new();
                if self.settings.device_only {
                    notes.push("--device-only: results not judged".to_string());
                }
                if self.requirement == Requirement::ImplementationDefined {
                    notes.push("implementation-defined accuracy: measured, not judged".to_string());
                }
                if let (Some(vulkan), true) = (self.rules.vulkan, stats.undefined > 0) {
                    // The count is in the `undefined` column; the note stays the same across
                    // shards.
                    let reasons =
                        crate::judge::vulkan::unjudged_reasons(&self.requirement, &vulkan.modes);
                    notes.push(format!(
                        "inputs the Vulkan cell or the shader's modes leave unbounded or undefined are not judged ({})",
                        reasons.join("; ")
                    ));
                    if stats.inputs == 0 {
                        // Nothing judged is no pass.
                        report.status = Status::Skip;
                        notes.insert(0, format!("not judged: {}", self.requirement.describe()));
                    }
                } else if stats.undefined > 0 {
                    // The count is in the `undefined` column; the note stays the same across
                    // shards.
                    notes.push(
                        "inputs where the spec leaves the result undefined are not judged"
                            .to_string(),
                    );
                }
                if let Some(reason) = &self.flush_reason {
                    notes.push(format!("{reason}: FTZ rules applied"));
                }
                if self.rounding == Round::Zero {
                    notes.push(format!(
                        "default {element} rounding is toward zero: correctly rounded means RTZ"
                    ));
                }
                if self.settings.judging.relaxed() && self.settings.path == KernelPath::Vulkan {
                    if element == FloatType::Float {
                        notes.push(format!(
                            "RelaxedPrecision: judged by the half column of {}",
                            self.table_source
                        ));
                    }
                } else if self.settings.judging.relaxed() && self.relaxed_rule.is_none() {
                    notes.push(format!("not in Table 5: judged by {}", self.table_source));
                }
                if let Some(correction) =
                    self.relaxed_rule
                        .filter(|_| stats.failures > 0)
                        .and_then(|rule| {
                            let worst = stats.worst.as_ref().map(|w| w.args.as_slice());
                            crate::spec::relaxed_table::correction(
                                rule.instruction(),
                                worst.unwrap_or(&[]),
                            )
                        })
                {
                    notes.push(correction.to_string());
                }
                if let Some(note) = stats
                    .worst
                    .as_ref()
                    .filter(|_| stats.failures > 0)
                    .and_then(|worst| self.rules.stricter_than_cts(worst))
                {
                    notes.push(note.to_string());
                }
                if let Some(reason) = &self.not_conformant {
                    // Judged as the spec requires; whatever was measured, the unit cannot pass.
                    report.status = Status::Fail;
                    notes.insert(0, reason.clone());
                }
                report.note = notes.join("; ");
                report.stats = stats;
            }
            Err(error) => {
                report.status = Status::Error;
                report.note = error.to_string();
            }
        }
        report
    }
}

/// The unit's module (the user's `--kernel` for the function, else clacc's own), built for
/// the device.
pub(crate) fn build_unit_kernel(
    session: &dyn Device,
    settings: &RunSettings,
    function: &Function,
    spec: &KernelSpec,
) -> Result<Box<dyn BuiltKernel>, UnitError> {
    let user = settings
        .user_kernels
        .iter()
        .find(|k| k.function == function.name);
    let (module_name, kernel) = kernel_form::unit_kernel(
        settings.kernel_target(spec.element),
        user,
        kernel_form::UnitKernel::Function(spec),
    )?;
    session
        .build(
            &module_name,
            kernel.form(),
            ENTRY_POINT,
            &settings.build_options,
        )
        .map_err(|error| match error {
            DeviceError::Build { log, .. } => UnitError::Refused {
                note: format!(
                    "driver refused the module: {}",
                    pipeline::telling_line(&log)
                ),
                module: module_name,
                log,
            },
            other => UnitError::Device(other),
        })
}

/// A chunk the device has computed: its first input's index, its argument columns and the
/// device's result columns.
pub struct DeviceChunk {
    start: u64,
    columns: Vec<Vec<f64>>,
    device_results: Vec<ResultColumn>,
}

pub(crate) fn input_plan(
    settings: &RunSettings,
    function: &Function,
    spec: &KernelSpec,
    argument_kinds: &[ValueKind],
) -> Result<InputPlan, UnitError> {
    let element = spec.element;
    if let Some(cases) = &settings.explicit_cases {
        if cases.arity() != argument_kinds.len() {
            return Err(UnitError::InputArity {
                function: function.name.to_string(),
                given: cases.arity(),
                takes: argument_kinds.len(),
            });
        }
        return Ok(InputPlan::explicit(
            element,
            argument_kinds,
            cases.clone(),
            spec.width,
        ));
    }
    let range = settings.range.as_ref();
    if settings.exhaustive {
        if let Some(plan) = InputPlan::exhaustive_in(element, argument_kinds, spec.width, range) {
            return Ok(plan);
        }
    }
    let seed = sweep::unit_seed(settings.seed, function.name, element, spec.width);
    Ok(InputPlan::sweep_in(
        function,
        element,
        argument_kinds,
        settings.inputs,
        spec.width,
        seed,
        range,
    ))
}

/// `stats` with its worst case's [`Case::lanes`] at `width` over 1: `lanes(index)`, the
/// vector of input `index` as the kernel took it. Once per chunk, so judging input by input
/// pays nothing for it.
fn with_lanes(
    mut stats: UnitStats,
    width: usize,
    lanes: impl Fn(u64) -> Vec<Vec<f64>>,
) -> UnitStats {
    if let Some(worst) = stats.worst.as_mut().filter(|_| width > 1) {
        worst.lanes = lanes(worst.index);
    }
    stats
}

/// The cases of lanes `first .. first + width` of `columns`, as [`encode`] sends them: a
/// position past a column holds its last value.
fn vector_lanes(columns: &[Vec<f64>], first: usize, width: usize) -> Vec<Vec<f64>> {
    (first..first + width)
        .map(|position| {
            columns
                .iter()
                .map(|column| column[position.min(column.len() - 1)])
                .collect()
        })
        .collect()
}

/// Encodes one chunk, runs the kernel (of width `kernel.1`) on it and returns every output.
/// `nan_payloads`: the chunk may hold signalling NaNs (the user's cases), sent as they are.
/// The outputs go into memory from `spare_bytes` where it holds some.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_chunk(
    session: &dyn Device,
    kernel: (&dyn BuiltKernel, u64),
    element: FloatType,
    argument_kinds: &[ValueKind],
    result_kinds: &[ValueKind],
    columns: &[Vec<f64>],
    work_group: WorkGroup,
    nan_payloads: bool,
    spare_bytes: &Spares<Vec<u8>>,
) -> Result<Vec<ResultColumn>, DeviceError> {
    let mut results = run_kernels(
        session,
        &[kernel],
        element,
        argument_kinds,
        result_kinds,
        &Sent::Columns {
            columns,
            nan_payloads,
        },
        work_group,
        spare_bytes,
    )?;
    Ok(results.pop().expect("one kernel's results"))
}

/// What a launch's argument buffers are filled from.
enum Sent<'a> {
    /// One column of values per argument, each encoded ([`encode`]); with `nan_payloads`,
    /// every NaN input keeps its payload and stays signalling where it is
    /// ([`keep_nan_payloads`]).
    Columns {
        columns: &'a [Vec<f64>],
        nan_payloads: bool,
    },
    /// The encodings of the inputs `segments` place at positions `0 .. length`, written from
    /// their indices ([`Encodings::write`]).
    Encodings {
        encodings: &'a Encodings,
        segments: &'a Segments,
        length: usize,
    },
}

impl Sent<'_> {
    /// Inputs per argument.
    fn length(&self) -> usize {
        match self {
            Sent::Columns { columns, .. } => columns[0].len(),
            Sent::Encodings { length, .. } => *length,
        }
    }

    /// Argument `argument`'s buffer, every input's value in turn and then the last one's
    /// again to its end (the padding to whole vectors and work-groups).
    fn fill(&self, argument: usize, kind: ValueKind, element: FloatType, bytes: &mut [u8]) {
        match self {
            Sent::Columns {
                columns,
                nan_payloads,
            } => {
                let values = &columns[argument];
                encode(kind, element, values, bytes);
                if *nan_payloads {
                    keep_nan_payloads(kind, element, values, bytes);
                }
            }
            Sent::Encodings {
                encodings,
                segments,
                length,
            } => {
                let size = encodings.value_bytes();
                let (body, padding) = bytes.split_at_mut(length * size);
                let parts = body.chunks_mut(segments.length() * size);
                for (start, part) in segments.starts().iter().zip(parts) {
                    let count = (part.len() / size) as u64;
                    encodings.write(argument, *start..start + count, part);
                }
                if let Some(last) = body.len().checked_sub(size).map(|at| &body[at..]) {
                    for slot in padding.chunks_exact_mut(size) {
                        slot.copy_from_slice(last);
                    }
                }
            }
        }
    }
}

/// Runs kernels of several widths on one chunk (the same function and type, so the same
/// argument and result kinds) and returns each kernel's outputs. Each argument is written
/// once, straight into its device buffer ([`Sent::fill`]), and padded with its last value to
/// whole vectors of every width (3 does not divide a chunk) and whole work-groups of
/// `work_group`; every kernel is enqueued before the first result is read.
/// A kernel's outputs hold the values its work-items write, at most the chunk's length: the
/// padding's results are dropped (a non-geometric kernel computes each component from that
/// component's arguments alone). The outputs are copied into memory taken from `spare_bytes`
/// where it holds some.
#[allow(clippy::too_many_arguments)]
fn run_kernels(
    session: &dyn Device,
    kernels: &[(&dyn BuiltKernel, u64)],
    element: FloatType,
    argument_kinds: &[ValueKind],
    result_kinds: &[ValueKind],
    sent: &Sent,
    work_group: WorkGroup,
    spare_bytes: &Spares<Vec<u8>>,
) -> Result<Vec<Vec<ResultColumn>>, DeviceError> {
    let length = sent.length();
    // Each kernel's local size, and its work-items padded to whole groups of it.
    let work_group = |built: &dyn BuiltKernel| match work_group {
        WorkGroup::Size(preferred) => Some(built.work_group(preferred)),
        WorkGroup::Device => None,
    };
    let work_items = |built: &dyn BuiltKernel, width: u64| {
        let items = length.div_ceil(width as usize);
        work_group(built).map_or(items, |size| items.div_ceil(size) * size)
    };
    let padded = kernels
        .iter()
        .map(|(built, width)| work_items(*built, *width) * *width as usize)
        .max()
        .unwrap_or(length);
    let input_bytes: Vec<usize> = argument_kinds
        .iter()
        .map(|kind| padded * kind.component_bytes(element))
        .collect();
    let outputs = result_kinds.len();
    let mut launches = Vec::with_capacity(kernels.len());
    // Per output of every kernel in turn: its kind, its bytes and the values kept of it.
    let mut output_kinds = Vec::with_capacity(kernels.len() * outputs);
    let mut output_bytes = Vec::with_capacity(kernels.len() * outputs);
    let mut output_values = Vec::with_capacity(kernels.len() * outputs);
    for (position, (built, width)) in kernels.iter().enumerate() {
        let items = work_items(*built, *width);
        launches.push(Launch {
            kernel: *built,
            work_items: items,
            work_group: work_group(*built),
            outputs: position * outputs..(position + 1) * outputs,
        });
        for kind in result_kinds {
            let components = items * kind.components(*width as u32) as usize;
            output_kinds.push(*kind);
            output_bytes.push(components * kind.component_bytes(element));
            output_values.push(components.min(length));
        }
    }
    let mut kept: Vec<ResultColumn> = Vec::with_capacity(output_bytes.len());
    session.run_launches(
        &input_bytes,
        &mut |argument, bytes| sent.fill(argument, argument_kinds[argument], element, bytes),
        &launches,
        &output_bytes,
        &mut |output, bytes| {
            let (kind, count) = (output_kinds[output], output_values[output]);
            // The previous kernel's column of this output, where this one holds the same bits
            // (widths mostly agree): shared, not copied, and the judge sees it is the same.
            let previous = output
                .checked_sub(outputs)
                .map(|earlier| &kept[earlier])
                .filter(|earlier| {
                    earlier.holds(kind, &bytes[..count * kind.component_bytes(element)])
                })
                .map(ResultColumn::shared);
            kept.push(previous.unwrap_or_else(|| {
                ResultColumn::copied_into(
                    kind,
                    element,
                    bytes,
                    count,
                    spare_bytes.take().unwrap_or_default(),
                )
            }))
        },
    )?;
    let mut kept = kept.into_iter();
    Ok(kernels
        .iter()
        .map(|_| kept.by_ref().take(outputs).collect())
        .collect())
}

/// Writes `values` as `kind` values into `bytes`, packed little-endian, and fills the rest of
/// `bytes` with the last value (integers and codes are held exactly in the `f64` columns).
fn encode(kind: ValueKind, element: FloatType, values: &[f64], bytes: &mut [u8]) {
    let size = kind.component_bytes(element);
    let (body, padding) = bytes.split_at_mut(values.len() * size);
    // One tight loop per format (the chunk's hot path): the values are already in the format,
    // so each conversion is exact.
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar => match element {
            FloatType::Float => put(body, values, |v| (v as f32).to_le_bytes()),
            FloatType::Double => put(body, values, f64::to_le_bytes),
            FloatType::Half => put(body, values, |v| (element.to_bits(v) as u16).to_le_bytes()),
        },
        ValueKind::IntGentype => put(body, values, |v| (v as i32).to_le_bytes()),
        ValueKind::UintGentype => match size {
            // The code's low bytes, as the u64's little-endian prefix.
            2 => put(body, values, |v| (v as u64 as u16).to_le_bytes()),
            4 => put(body, values, |v| (v as u64 as u32).to_le_bytes()),
            _ => put(body, values, |v| (v as u64).to_le_bytes()),
        },
    }
    if let Some(last) = body.len().checked_sub(size).map(|at| &body[at..]) {
        for slot in padding.chunks_exact_mut(size) {
            slot.copy_from_slice(last);
        }
    }
}

/// Rewrites the NaNs [`encode`] wrote from `values` with their own bits: narrowing a double
/// quiets a signalling NaN, and a user's `nan(0x1)` must reach the device as written. Only for
/// the user's cases: the sweeps' NaNs are quiet already (widening quieted them), and their
/// encoding loop stays one conversion a value.
fn keep_nan_payloads(kind: ValueKind, element: FloatType, values: &[f64], bytes: &mut [u8]) {
    if !matches!(kind, ValueKind::FloatGentype | ValueKind::FloatScalar) || values.is_empty() {
        return;
    }
    let size = element.bytes();
    let slot_bits = |value: f64| hexfloat::element_bits(element, value).to_le_bytes();
    for (slot, value) in bytes.chunks_exact_mut(size).zip(values) {
        if value.is_nan() {
            slot.copy_from_slice(&slot_bits(*value)[..size]);
        }
    }
    // The padding repeats the last value.
    let last = values[values.len() - 1];
    if last.is_nan() {
        for slot in bytes.chunks_exact_mut(size).skip(values.len()) {
            slot.copy_from_slice(&slot_bits(last)[..size]);
        }
    }
}

/// Writes each value's `N` bytes into `body`, one after the other. `N` is a constant, so each
/// copy is a store: with the slot's length known only at run time, every value was a call to
/// `memmove`. In the widest vectors: the conversions of a float chunk then run eight values
/// an instruction.
#[inline(always)]
fn put<const N: usize>(body: &mut [u8], values: &[f64], bytes_of: impl Fn(f64) -> [u8; N]) {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            for (slot, value) in body.chunks_exact_mut(N).zip(values) {
                slot.copy_from_slice(&bytes_of(*value));
            }
        },
    )
}

/// One output of a kernel as the device wrote it: values of `kind`, packed little-endian.
/// Kept as bytes until a judging thread decodes the slice it judges, into a buffer that stays
/// in its cache: decoded on the device's thread, every width's results were written out at
/// twice their size and read back by the judging threads, on the thread that feeds the device
/// (float mad at 2^24, all widths: 1.02 against 0.81 s). Widths compare their bytes: a
/// width whose whole output is the previous width's shares its bytes ([`ResultColumn::shared`]),
/// found by one comparison with the mapped buffer, so that neither the copy nor the judge's
/// comparison slice by slice is paid again (they were 13% of float exp's host samples, 2^24
/// inputs, every width).
pub struct ResultColumn {
    kind: ValueKind,
    element: FloatType,
    bytes: std::sync::Arc<Vec<u8>>,
}

impl ResultColumn {
    /// The first `count` values of a mapped output buffer, copied into `bytes` (a spare
    /// column's memory, whatever it held).
    fn copied_into(
        kind: ValueKind,
        element: FloatType,
        buffer: &[u8],
        count: usize,
        mut bytes: Vec<u8>,
    ) -> Self {
        bytes.clear();
        bytes.extend_from_slice(&buffer[..count * kind.component_bytes(element)]);
        ResultColumn {
            kind,
            element,
            bytes: std::sync::Arc::new(bytes),
        }
    }

    /// Whether it holds values of `kind` packed as `bytes` (a mapped buffer's values).
    fn holds(&self, kind: ValueKind, bytes: &[u8]) -> bool {
        self.kind == kind && self.bytes.as_slice() == bytes
    }

    /// The same column, its bytes shared.
    fn shared(&self) -> ResultColumn {
        ResultColumn {
            kind: self.kind,
            element: self.element,
            bytes: std::sync::Arc::clone(&self.bytes),
        }
    }

    /// Its memory, for a later chunk's column: the last of the columns sharing it gets it.
    fn into_bytes(self) -> Option<Vec<u8>> {
        std::sync::Arc::try_unwrap(self.bytes).ok()
    }

    fn bytes_of(&self, values: std::ops::Range<usize>) -> &[u8] {
        let size = self.kind.component_bytes(self.element);
        &self.bytes[values.start * size..values.end * size]
    }

    /// Every value, widened exactly to `f64`.
    pub fn decoded_all(&self) -> Vec<f64> {
        decode(self.kind, self.element, &self.bytes)
    }
}

impl slice::ResultColumn for ResultColumn {
    /// Values `values`, widened exactly to `f64`.
    fn decoded(&self, values: std::ops::Range<usize>) -> Vec<f64> {
        decode(self.kind, self.element, self.bytes_of(values))
    }

    /// Whether both columns hold the same bits at `values`.
    fn same_bits(&self, other: &ResultColumn, values: std::ops::Range<usize>) -> bool {
        (std::sync::Arc::ptr_eq(&self.bytes, &other.bytes) && self.kind == other.kind)
            || self.bytes_of(values.clone()) == other.bytes_of(values)
    }
}

/// The values of `kind` packed in `body`, widened exactly to `f64`.
fn decode(kind: ValueKind, element: FloatType, body: &[u8]) -> Vec<f64> {
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar => match element {
            FloatType::Float => take(body, |b| f64::from(f32::from_le_bytes(b))),
            FloatType::Double => take(body, f64::from_le_bytes),
            FloatType::Half => take(body, |b| {
                element.from_bits(u64::from(u16::from_le_bytes(b)))
            }),
        },
        ValueKind::IntGentype => take(body, |b| f64::from(i32::from_le_bytes(b))),
        ValueKind::UintGentype => match kind.component_bytes(element) {
            2 => take(body, |b| f64::from(u16::from_le_bytes(b))),
            4 => take(body, |b| f64::from(u32::from_le_bytes(b))),
            _ => take(body, |b| u64::from_le_bytes(b) as f64),
        },
    }
}

/// Each `N` bytes of `body` read as one value (`N` a constant, as in [`put`]), in the widest
/// vectors (a slice's results are decoded before it is judged: 0.45 ns an input of an
/// exhaustive sweep, two floats a vector).
fn take<const N: usize>(body: &[u8], value_of: impl Fn([u8; N]) -> f64) -> Vec<f64> {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            // A loop into the vector's spare capacity, not `collect`, which the compiler does
            // not inline, nor into a zeroed vector, whose zeroing was 1.2% of an exhaustive
            // float sin run's CPU.
            let count = body.len() / N;
            let mut values = Vec::with_capacity(count);
            for (value, slot) in values.spare_capacity_mut()[..count]
                .iter_mut()
                .zip(body.chunks_exact(N))
            {
                value.write(value_of(slot.try_into().expect("chunks of N bytes")));
            }
            // SAFETY: the loop wrote each of the first `count` values (`body` has `count`
            // chunks of `N` bytes).
            unsafe { values.set_len(count) };
            values
        },
    )
}

/// Whether a ULP unit of `function` runs in a [`WidthGroup`] (one reference pass for all
/// widths): every function but the geometric ones (judged per work-item) and the ones a user's
/// `--kernel` module replaces (a module has one width).
pub fn runs_in_width_group(settings: &RunSettings, function: &Function) -> bool {
    !function.shape.is_geometric()
        && !settings
            .user_kernels
            .iter()
            .any(|k| k.function == function.name)
}

/// Measures the ULP units of one function and type at every width in `widths` on the same
/// inputs, one row per width in the order given. A width whose unit does not run (no bound,
/// no type support) or whose module the driver refuses has its row as alone; the others run as
/// one [`WidthGroup`].
pub fn run_widths(
    session: &dyn Device,
    settings: &RunSettings,
    function: &Function,
    element: FloatType,
    widths: &[u32],
    progress: &dyn Fn(u64, u64),
) -> Vec<Ran> {
    let mut rows: Vec<Option<Ran>> = widths.iter().map(|_| None).collect();
    let mut members = Vec::new();
    let mut kernels = Vec::new();
    // One build after the other, in this thread: the Intel CPU runtime's kernels built side by
    // side in threads of their own ran about 0.7 s slower per function (exp float, 2^24
    // inputs, all widths: 1.8 -> 2.55 s), more than the builds gain.
    for (row, width) in widths.iter().enumerate() {
        let unit = match UlpUnit::set_up(session, settings, function, element, *width) {
            Ok(unit) => unit,
            Err(report) => {
                rows[row] = Some(Ran::settled(*report));
                continue;
            }
        };
        match pipeline::Unit::build(&unit) {
            Ok(kernel) => {
                members.push((row, unit));
                kernels.push(kernel);
            }
            Err(error) => {
                let refused = error.refused();
                rows[row] = Some(Ran {
                    report: unit.report_of(Err(error)),
                    refused,
                });
            }
        }
    }
    if let Some((_, first)) = members.first() {
        let group = WidthGroup {
            settings,
            function,
            spec: KernelSpec {
                width: 1,
                ..first.spec
            },
            argument_kinds: first.argument_kinds.clone(),
            members: members.iter().map(|(_, unit)| unit).collect(),
            spare_columns: Spares::default(),
            spare_bytes: Spares::default(),
        };
        let measured =
            input_plan(settings, function, &group.spec, &group.argument_kinds).and_then(|plan| {
                let prepared = Prepared::of_encodings(plan);
                pipeline::measure(&group, kernels, &prepared, progress)
            });
        let notes: Result<Vec<UnitStats>, String> = measured
            .map(RowStats::into_rows)
            .map_err(|error| error.to_string());
        drop(group);
        for (position, (row, unit)) in members.into_iter().enumerate() {
            let stats = match &notes {
                Ok(tally) => Ok(tally.get(position).cloned().unwrap_or_default()),
                Err(note) => Err(UnitError::Check(note.clone())),
            };
            rows[row] = Some(Ran::settled(unit.report_of(stats)));
        }
    }
    rows.into_iter()
        .map(|row| row.expect("every width has its row"))
        .collect()
}

/// The ULP units of one function and type at several widths, run on one input plan: each
/// chunk's inputs are made once, every width's kernel runs on them, and each input's references
/// are computed once and judge every width's results ([`Rules::fast_verdict_with`],
/// [`Rules::judge_exactly_with`]). The plan is the width-1 unit's (its seed, its count), so the
/// width-1 row is the one a unit of its own reports; the other widths see the same inputs.
/// Chunks are [`CHUNK_SCALARS`] long, as a width-1 unit's, so shards split the inputs as they
/// do today: a width that does not divide a chunk (3) runs on the chunk padded to whole vectors
/// with its last input, and the padding's results are dropped (a non-geometric kernel computes
/// each component from that component's arguments alone).
pub struct WidthGroup<'a> {
    settings: &'a RunSettings,
    function: &'a Function,
    /// The plan's kernel spec: the members' type and shape at width 1.
    spec: KernelSpec,
    argument_kinds: Vec<ValueKind>,
    /// The units, one per width, in row order.
    members: Vec<&'a UlpUnit<'a>>,
    /// Batches' columns the judge is done with, for the input thread's next batches.
    spare_columns: Spares<Vec<Vec<f64>>>,
    /// Result columns' memory the judge is done with, for the device thread's next batches.
    spare_bytes: Spares<Vec<u8>>,
}

/// How many of a shard's chunks a [`WidthGroup`] runs and judges at once: one device launch
/// per width and one spread over the judging threads for the lot. The Intel CPU device's
/// worker threads spin a while after each launch, taking the judging threads' cores, and a
/// launch of one chunk gives them little to do: 8 chunks took exhaustive float sin's shard
/// 0/16 from 8.3 to 6.0 s here. Shards still own the same chunks.
const BATCH_CHUNKS: u64 = 8;

/// A batch of a [`WidthGroup`]'s chunks: their inputs once, one after the other, and each
/// member's device results.
pub struct GroupChunk {
    segments: Segments,
    /// How many of the chunks it holds.
    chunks: u64,
    arguments: BatchArguments,
    /// Per member: its result columns, as long as the batch.
    device_results: Vec<Vec<ResultColumn>>,
}

/// A batch's arguments as the input thread leaves them.
pub enum BatchArguments {
    /// One column of values per argument.
    Columns(Vec<Vec<f64>>),
    /// None, `length` inputs long: the plan lists encodings ([`Prepared::encodings`]), which
    /// the device's buffers take from the inputs' indices, and each judging slice makes its
    /// own columns ([`judge_encoded_rows`]).
    Encoded { length: usize },
}

impl pipeline::Unit for WidthGroup<'_> {
    type Kernel = Vec<Box<dyn BuiltKernel>>;
    type Prepared = Prepared;
    /// The batch's chunk starts and its arguments, the chunks one after the other.
    type Inputs = (Vec<u64>, BatchArguments);
    type Chunk = GroupChunk;
    type Tally = RowStats;

    fn build(&self) -> Result<Vec<Box<dyn BuiltKernel>>, UnitError> {
        self.members
            .iter()
            .map(|unit| pipeline::Unit::build(*unit))
            .collect()
    }

    fn prepare(&self) -> Result<Prepared, UnitError> {
        let plan = input_plan(
            self.settings,
            self.function,
            &self.spec,
            &self.argument_kinds,
        )?;
        Ok(Prepared::of_encodings(plan))
    }

    /// Batches of [`BATCH_CHUNKS`] of the shard's chunks, numbered from 0.
    fn chunks(&self, prepared: &Prepared) -> Chunks {
        let owned = self.owned_chunks(prepared);
        Chunks {
            numbers: Box::new(0..owned.div_ceil(BATCH_CHUNKS)),
            planned: owned.saturating_mul(CHUNK_SCALARS as u64),
        }
    }

    /// The shard's chunks of batch `batch`, in order, their inputs one after the other.
    fn inputs(&self, prepared: &Prepared, batch: u64) -> (Vec<u64>, BatchArguments) {
        let owned = self.owned_chunks(prepared);
        let first = batch * BATCH_CHUNKS;
        let chunks = BATCH_CHUNKS.min(owned - first);
        let starts: Vec<u64> = self
            .settings
            .shard
            .chunks(u64::MAX)
            .skip(first as usize)
            .take(chunks as usize)
            .map(|number| number * CHUNK_SCALARS as u64)
            .collect();
        if prepared.encodings.is_some() {
            let total = prepared.plan.total();
            let length = starts
                .iter()
                .map(|start| (total - start).min(CHUNK_SCALARS as u64) as usize)
                .sum();
            return (starts, BatchArguments::Encoded { length });
        }
        let arguments = self.argument_kinds.len();
        let mut columns = self
            .spare_columns
            .take()
            .unwrap_or_else(|| empty_columns(arguments, starts.len() * CHUNK_SCALARS));
        columns.iter_mut().for_each(Vec::clear);
        // Each chunk straight into the batch's columns, on this thread, one batch ahead of the
        // device: drawn on the judging threads into parts of their own, the parts were copied
        // here (memmove was 5% of float fma's host samples, 2^24 inputs, every width) and
        // were more memory for the kernel to zero; the draws run in vectors now, 2.7 times
        // faster.
        for start in &starts {
            prepared
                .plan
                .append_columns(*start, CHUNK_SCALARS as u64, &mut columns);
        }
        (starts, BatchArguments::Columns(columns))
    }

    fn device(
        &self,
        kernels: &Vec<Box<dyn BuiltKernel>>,
        prepared: &Prepared,
        _batch: u64,
        (starts, arguments): (Vec<u64>, BatchArguments),
    ) -> Result<GroupChunk, UnitError> {
        let chunks = starts.len() as u64;
        let segments = Segments::of_chunks(starts, CHUNK_SCALARS);
        let widths: Vec<(&dyn BuiltKernel, u64)> = kernels
            .iter()
            .zip(&self.members)
            .map(|(built, unit)| (built.as_ref(), u64::from(unit.spec.width)))
            .collect();
        let sent = match (&arguments, &prepared.encodings) {
            (BatchArguments::Columns(columns), _) => Sent::Columns {
                columns,
                nan_payloads: self.settings.explicit_cases.is_some(),
            },
            (BatchArguments::Encoded { length }, Some(encodings)) => Sent::Encodings {
                encodings,
                segments: &segments,
                length: *length,
            },
            (BatchArguments::Encoded { .. }, None) => {
                unreachable!("a batch without columns is one of a plan of encodings")
            }
        };
        let device_results = run_kernels(
            self.session(),
            &widths,
            self.spec.element,
            &self.argument_kinds,
            &self.members[0].result_kinds,
            &sent,
            self.settings.work_group,
            &self.spare_bytes,
        )?;
        Ok(GroupChunk {
            segments,
            chunks,
            arguments,
            device_results,
        })
    }

    fn judge(&self, prepared: &Prepared, chunk: &GroupChunk) -> RowStats {
        let judged = chunk.judged(&prepared.plan);
        let rules: Vec<&Rules> = self.members.iter().map(|unit| &unit.rules).collect();
        let tally = match &chunk.arguments {
            BatchArguments::Columns(columns) => judge_rows(
                &rules,
                self.function,
                &chunk.segments,
                columns,
                &chunk.device_results,
                judged,
                self.settings.threads,
            ),
            BatchArguments::Encoded { .. } => judge_encoded_rows(
                &rules,
                self.function,
                &prepared.plan,
                &chunk.segments,
                &chunk.device_results,
                judged,
                self.settings.threads,
            ),
        };
        tally.map_rows(|row, stats| {
            // Each kernel took the batch's columns as vectors of its width (at width 3 one
            // may straddle two chunks).
            let width = self.members[row].spec.width as usize;
            with_lanes(stats, width, |index| {
                let first = chunk.segments.position(index) / width * width;
                chunk.lanes(&prepared.plan, first, width)
            })
        })
    }

    fn unjudged(&self, prepared: &Prepared, chunk: &GroupChunk) -> Option<RowStats> {
        if !self.settings.device_only {
            return None;
        }
        let judged = chunk.judged(&prepared.plan);
        Some(RowStats::new(
            self.members
                .iter()
                .map(|_| UnitStats {
                    inputs: judged as u64,
                    ..UnitStats::default()
                })
                .collect(),
        ))
    }

    fn advance(&self, chunk: &GroupChunk) -> u64 {
        chunk.chunks * CHUNK_SCALARS as u64
    }

    fn recycle(&self, chunk: GroupChunk) {
        if let BatchArguments::Columns(columns) = chunk.arguments {
            self.spare_columns.give([columns]);
        }
        self.spare_bytes.give(
            chunk
                .device_results
                .into_iter()
                .flatten()
                .filter_map(ResultColumn::into_bytes),
        );
    }

    fn conclude(&self, _prepared: &Prepared, tally: RowStats) -> RowStats {
        tally.map_rows(|row, stats| self.members[row].confirm_worst(stats))
    }
}

impl WidthGroup<'_> {
    fn session(&self) -> &dyn Device {
        self.members[0].session
    }

    /// How many chunks of the plan this run's shard owns.
    fn owned_chunks(&self, prepared: &Prepared) -> u64 {
        let chunk_count = prepared.plan.total().div_ceil(CHUNK_SCALARS as u64);
        self.settings.shard.chunks_owned(chunk_count)
    }
}

impl GroupChunk {
    /// Inputs in the batch (its chunks' lengths together).
    fn length(&self) -> usize {
        match &self.arguments {
            BatchArguments::Columns(columns) => columns[0].len(),
            BatchArguments::Encoded { length } => *length,
        }
    }

    /// How many of its inputs are judged: all but the padding of the plan's last chunk, which
    /// only the last chunk of a batch can be (chunks grow), so they are the first ones.
    fn judged(&self, plan: &InputPlan) -> usize {
        let last = self.segments.starts().len() - 1;
        let last_length = self.length() - last * self.segments.length();
        last * self.segments.length()
            + UlpUnit::judged(plan, self.segments.starts()[last], last_length) as usize
    }

    /// The cases of positions `first .. first + width`, as the device took them
    /// ([`vector_lanes`]).
    fn lanes(&self, plan: &InputPlan, first: usize, width: usize) -> Vec<Vec<f64>> {
        match &self.arguments {
            BatchArguments::Columns(columns) => vector_lanes(columns, first, width),
            BatchArguments::Encoded { length } => (first..first + width)
                .map(|position| {
                    // A position past the batch holds its last input, as the device's padding.
                    let position = position.min(length - 1);
                    let segment = position / self.segments.length();
                    let index = self.segments.starts()[segment]
                        + (position % self.segments.length()) as u64;
                    plan.columns(index, 1).into_iter().map(|c| c[0]).collect()
                })
                .collect(),
        }
    }
}

/// Judges the first `judged` positions of a batch (`segments` says which inputs they hold) for
/// every row, row `r` under `rules[r]` with result columns `device_results[r]`: the judge's
/// [`SliceJudge`] on slices spread over `threads` threads, each a contiguous slice merged in
/// order, so the result does not depend on the thread count.
fn judge_rows(
    rules: &[&Rules],
    function: &Function,
    segments: &Segments,
    columns: &[Vec<f64>],
    device_results: &[Vec<ResultColumn>],
    judged: usize,
    threads: usize,
) -> RowStats {
    let judge = SliceJudge::new(rules, function);
    pipeline::judge_in_slices(judged, threads, judge.longest_slice(), |inputs| {
        judge.judge(segments, columns, device_results, inputs)
    })
}

/// [`judge_rows`] for a batch with no columns ([`BatchArguments::Encoded`]): each slice makes
/// the columns of its own inputs from `plan` and is judged on them, with its results seen from
/// its first position on ([`Window`]), one part per run of consecutive inputs (a slice across
/// two chunks is two parts, merged in order, as slices are). The same slices as
/// [`judge_rows`], the same inputs and results in each: the same verdicts. Made where they
/// are judged, a slice's columns are in its thread's cache; the batch's, made by the input
/// thread, came from memory (with their conversions, 16% of an exhaustive float sin run's
/// host samples).
fn judge_encoded_rows(
    rules: &[&Rules],
    function: &Function,
    plan: &InputPlan,
    segments: &Segments,
    device_results: &[Vec<ResultColumn>],
    judged: usize,
    threads: usize,
) -> RowStats {
    let judge = SliceJudge::new(rules, function);
    let segment_length = segments.length();
    pipeline::judge_in_slices(judged, threads, judge.longest_slice(), |inputs| {
        let mut tally = RowStats::default();
        let mut start = inputs.start;
        while start < inputs.end {
            let segment = start / segment_length;
            let end = inputs.end.min((segment + 1) * segment_length);
            let first_index = segments.starts()[segment] + (start % segment_length) as u64;
            let columns = plan.columns(first_index, (end - start) as u64);
            let windows: Vec<Vec<Window>> = device_results
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|column| Window {
                            column,
                            offset: start,
                        })
                        .collect()
                })
                .collect();
            pipeline::Tally::merge(
                &mut tally,
                judge.judge(
                    &Segments::one(first_index),
                    &columns,
                    &windows,
                    0..end - start,
                ),
            );
            start = end;
        }
        tally
    })
}

/// A result column seen from position `offset` on: its position `k` is the column's
/// `offset + k`.
struct Window<'a> {
    column: &'a ResultColumn,
    offset: usize,
}

impl Window<'_> {
    fn shifted(&self, positions: std::ops::Range<usize>) -> std::ops::Range<usize> {
        positions.start + self.offset..positions.end + self.offset
    }
}

impl slice::ResultColumn for Window<'_> {
    fn decoded(&self, positions: std::ops::Range<usize>) -> Vec<f64> {
        self.column.decoded(self.shifted(positions))
    }

    fn same_bits(&self, other: &Window, positions: std::ops::Range<usize>) -> bool {
        self.offset == other.offset && self.column.same_bits(other.column, self.shifted(positions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::slice::ResultColumn as _;
    use crate::judge::FastReference;
    use crate::report::stats::{input_region, Case};

    /// The worst case's lanes are its vector's, as the kernel took them: at width 3 a batch's
    /// vector may straddle two chunks, and one past the columns' end holds the last value.
    #[test]
    fn a_worst_case_gets_the_lanes_of_its_vector() {
        let worst = |index: u64| UnitStats {
            worst: Some(Case {
                index,
                args: vec![0.0, 0.0],
                device_results: vec![0.0],
                references: Vec::new(),
                error: 9.0,
                absolute: false,
                outcome: crate::report::stats::Outcome::Fail,
                output: 0,
                lanes: Vec::new(),
            }),
            ..UnitStats::default()
        };
        let lanes = |stats: UnitStats| stats.worst.unwrap().lanes;
        // Two arguments, positions 0 to 4: x = position, y = -position.
        let columns = vec![
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![-0.0, -1.0, -2.0, -3.0, -4.0],
        ];
        let at = |width: usize| {
            let columns = &columns;
            move |index: u64| vector_lanes(columns, index as usize / width * width, width)
        };
        assert_eq!(
            lanes(with_lanes(worst(3), 2, at(2))),
            [[2.0, -2.0], [3.0, -3.0]]
        );
        assert_eq!(
            lanes(with_lanes(worst(4), 3, at(3))),
            [[3.0, -3.0], [4.0, -4.0], [4.0, -4.0]],
            "padded with the last values"
        );
        assert!(
            lanes(with_lanes(worst(4), 1, at(1))).is_empty(),
            "width 1 has no other lane"
        );
        // A batch's chunks side by side: chunk 2's first input follows chunk 0's last.
        let segments = Segments::of_chunks(vec![0, 2 * CHUNK_SCALARS as u64], CHUNK_SCALARS);
        let position = segments.position(2 * CHUNK_SCALARS as u64);
        assert_eq!(position, CHUNK_SCALARS);
        assert_eq!(
            position / 3 * 3,
            CHUNK_SCALARS - 1,
            "a vector across the two"
        );
    }

    /// Every kind of column goes into its device buffer and comes back bit for bit, and the
    /// buffer's tail repeats the last value (the padding to whole vectors).
    #[test]
    fn columns_go_into_device_buffers_and_back_bit_for_bit() {
        let padding = 3;
        for element in FloatType::ALL {
            let floats: Vec<f64> = [0.0, -0.0, 1.5, -2.25, f64::INFINITY, f64::NEG_INFINITY]
                .into_iter()
                .chain([1, 0x3ff, 0x8001, 0x7bff].map(|bits| element.from_bits(bits)))
                .collect();
            let codes: Vec<f64> = [
                0.0,
                1.0,
                5.0,
                ((1u64 << element.fraction_bits()) - 1) as f64,
            ]
            .to_vec();
            let columns = [
                (ValueKind::FloatGentype, floats.clone()),
                (ValueKind::FloatScalar, floats),
                (
                    ValueKind::IntGentype,
                    vec![0.0, -1.0, 64.0, -149.0, 2147483647.0],
                ),
                (ValueKind::UintGentype, codes),
            ];
            for (kind, values) in columns {
                let size = kind.component_bytes(element);
                let mut bytes = vec![0xa5; (values.len() + padding) * size];
                encode(kind, element, &values, &mut bytes);
                let back = decode(kind, element, &bytes);
                let mut expected = values.clone();
                expected.extend(std::iter::repeat_n(values[values.len() - 1], padding));
                let bits = |column: &[f64]| column.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&back), bits(&expected), "{kind:?} {element:?}");
            }
        }
    }

    /// A batch of a plan of encodings fills the device's buffers as its columns would, byte
    /// for byte, its padding too: chunks apart in the plan, float around its NaNs (which the
    /// columns' widening quiets) and pairs of halves.
    #[test]
    fn encodings_fill_device_buffers_as_columns_do() {
        let cases = [
            (
                FloatType::Float,
                1,
                vec![0x7f80_0000 - 64, 0x8000_0000, 0xff80_0000],
            ),
            (
                FloatType::Half,
                2,
                vec![0x7c00_7c00 - 64, 0x0001_0000, 0xfe00_0000],
            ),
        ];
        let length = 256;
        for (element, arguments, starts) in cases {
            let kinds = vec![ValueKind::FloatGentype; arguments];
            let plan = InputPlan::exhaustive(element, &kinds, 1).unwrap();
            let encodings = plan.encodings().unwrap();
            let segments = Segments::of_chunks(starts.clone(), length);
            // The last chunk shorter, and the buffer longer than the batch (its padding).
            let batch = 2 * length + 100;
            let mut columns = empty_columns(arguments, batch);
            for start in &starts {
                plan.append_columns(
                    *start,
                    (batch - columns[0].len()).min(length) as u64,
                    &mut columns,
                );
            }
            let by_columns = Sent::Columns {
                columns: &columns,
                nan_payloads: false,
            };
            let by_encodings = Sent::Encodings {
                encodings: &encodings,
                segments: &segments,
                length: batch,
            };
            assert_eq!(by_columns.length(), by_encodings.length());
            for argument in 0..arguments {
                let bytes = (batch + 7) * element.bytes();
                let (mut expected, mut actual) = (vec![0; bytes], vec![0x5a; bytes]);
                by_columns.fill(argument, ValueKind::FloatGentype, element, &mut expected);
                by_encodings.fill(argument, ValueKind::FloatGentype, element, &mut actual);
                assert!(expected == actual, "{element:?} argument {argument}");
            }
        }
    }

    /// A batch of a plan of encodings, judged slice by slice on columns each slice makes,
    /// gets the statistics judging the batch's columns gets: two rows whose results differ
    /// on some inputs (both judged), results correctly rounded, a few ulp off, NaN and
    /// infinite, chunks apart in the plan, and slices across two chunks.
    #[test]
    fn encoded_batches_judge_as_their_columns_do() {
        let function = crate::spec::registry::find("sin").unwrap();
        let element = FloatType::Float;
        let one = [ValueKind::FloatGentype];
        let plan = InputPlan::exhaustive(element, &one, 1).unwrap();
        let segment = 8192;
        // Around 1, huge arguments, the infinities and NaNs, and tiny ones.
        let starts = vec![0x3f80_0000 - 4096, 0x7f80_0000 - 4096, 0x0080_0000];
        let segments = Segments::of_chunks(starts.clone(), segment);
        let mut columns = empty_columns(1, 3 * segment);
        for start in &starts {
            plan.append_columns(*start, segment as u64, &mut columns);
        }
        let count = columns[0].len();
        let row = |moved_every: usize| {
            let values: Vec<f64> = columns[0]
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    let correct = f64::from(x.sin() as f32);
                    match k % moved_every {
                        3 => element.from_bits(element.to_bits(correct).wrapping_add(2)),
                        5 => f64::NAN,
                        6 => f64::INFINITY,
                        _ => correct,
                    }
                })
                .collect();
            let mut bytes = vec![0; count * 4];
            encode(ValueKind::FloatGentype, element, &values, &mut bytes);
            vec![ResultColumn::copied_into(
                ValueKind::FloatGentype,
                element,
                &bytes,
                count,
                Vec::new(),
            )]
        };
        let device_results = [row(7), row(11)];
        let rules = Rules::of_test(
            function.name,
            function.outputs.to_vec(),
            crate::spec::table::Requirement::Ulp(4.0),
            element,
        );
        for rows in [1, 2] {
            let rules = vec![&rules; rows];
            // One thread and slices of a quarter of the batch: 6144 inputs, across chunks.
            let batch = judge_rows(
                &rules,
                function,
                &segments,
                &columns,
                &device_results[..rows],
                count,
                1,
            );
            let encoded = judge_encoded_rows(
                &rules,
                function,
                &plan,
                &segments,
                &device_results[..rows],
                count,
                1,
            );
            let (batch, encoded) = (batch.into_rows(), encoded.into_rows());
            assert!(batch[0].failures > 0 && batch[0].worst.is_some());
            assert_eq!(format!("{encoded:?}"), format!("{batch:?}"), "{rows} rows");
        }
    }

    /// A result column keeps the first values of its buffer; a slice of it decodes to that
    /// slice of the whole, and two columns compare over the slice alone.
    #[test]
    fn result_columns_decode_and_compare_slice_by_slice() {
        for element in FloatType::ALL {
            let values: Vec<f64> = (0..40).map(|k| f64::from(k) * 0.25 - 3.0).collect();
            let mut bytes = vec![0; (values.len() + 3) * element.bits() as usize / 8];
            encode(ValueKind::FloatGentype, element, &values, &mut bytes);
            let column =
                ResultColumn::copied_into(ValueKind::FloatGentype, element, &bytes, 37, Vec::new());
            assert_eq!(column.decoded_all(), values[..37]);
            assert_eq!(column.decoded(5..20), values[5..20]);
            let mut changed = values.clone();
            changed[30] = 100.0;
            encode(ValueKind::FloatGentype, element, &changed, &mut bytes);
            let other =
                ResultColumn::copied_into(ValueKind::FloatGentype, element, &bytes, 37, Vec::new());
            assert!(column.same_bits(&other, 0..30) && column.same_bits(&other, 31..37));
            assert!(!column.same_bits(&other, 29..31), "{element:?}");
            // A column holding the mapped bytes it would copy is shared: the same bits on
            // every slice, its memory going back once, with the last of the columns sharing it.
            let body = &bytes[..37 * element.bits() as usize / 8];
            assert!(other.holds(ValueKind::FloatGentype, body));
            assert!(!column.holds(ValueKind::FloatGentype, body));
            assert!(!other.holds(ValueKind::IntGentype, body));
            let shared = other.shared();
            assert!(shared.same_bits(&other, 0..37) && !shared.same_bits(&column, 29..31));
            assert_eq!(shared.decoded_all(), other.decoded_all());
            assert_eq!(other.into_bytes(), None);
            assert_eq!(shared.into_bytes().as_deref(), Some(body));
        }
    }

    /// A sweep's bulk passes change no verdict: judging a batch gives the statistics that
    /// judging each input alone gives (the fast tiers, else MPFR), with and without
    /// `-cl-finite-math-only`, for a correctly rounded column (sin, exp, whose value at −inf
    /// is finite, fma, double sqrt), exact tiers (fmod, NaN at finite arguments; fdim, which
    /// declines inputs) and two exact outputs (frexp), on a sweep
    /// with its special values (infinities and NaN arguments) and results that are correctly
    /// rounded, one ulp off, NaN or infinite; for one width, and for two whose results differ
    /// on some inputs (so both rows are judged input by input, the loop over rows).
    #[test]
    fn bulk_passes_judge_as_each_input_alone_does() {
        use crate::reference::{self, binding};
        use crate::spec::table::Requirement;
        let cases = [
            ("sin", FloatType::Float, Requirement::Ulp(4.0)),
            ("exp", FloatType::Float, Requirement::Ulp(3.0)),
            ("fma", FloatType::Float, Requirement::CorrectlyRounded),
            ("fmod", FloatType::Float, Requirement::Exact),
            ("sqrt", FloatType::Double, Requirement::CorrectlyRounded),
            ("fdim", FloatType::Float, Requirement::CorrectlyRounded),
            ("frexp", FloatType::Float, Requirement::Exact),
        ];
        for (name, element, requirement) in cases {
            let function = crate::spec::registry::find(name).unwrap();
            let kinds = function.shape.signature().arguments;
            let seed = sweep::unit_seed(5, name, element, 1);
            let columns = sweep::generate(function, element, kinds, 3000, 1, seed);
            let count = columns[0].len();
            // Per output, a result per input: the correctly rounded one, or one moved off it;
            // a second width's results (`second`) move 3 ulp off where k % 9 is 2 too.
            let result_kinds: Vec<ValueKind> = function.shape.signature().results().collect();
            let result_columns = |second: bool| -> Vec<ResultColumn> {
                function
                    .outputs
                    .iter()
                    .zip(&result_kinds)
                    .map(|(output, kind)| {
                        let values: Vec<f64> = (0..count)
                            .map(|k| {
                                let args: Vec<f64> = columns.iter().map(|c| c[k]).collect();
                                let operands: Vec<_> =
                                    args.iter().map(|x| reference::operand(*x)).collect();
                                let mpfr = binding::mpfr(output.reference);
                                let correct =
                                    reference::correctly_rounded(mpfr, &operands, element).to_f64();
                                let moved = |ulps: u64| {
                                    element.from_bits(element.to_bits(correct).wrapping_add(ulps))
                                };
                                match (k % 9, kind) {
                                    (5, ValueKind::FloatGentype) => moved(1),
                                    (2, ValueKind::FloatGentype) if second => moved(3),
                                    (5, _) => correct + 1.0,
                                    (6, ValueKind::FloatGentype) => f64::NAN,
                                    (7, ValueKind::FloatGentype) => f64::INFINITY,
                                    _ => correct,
                                }
                            })
                            .collect();
                        let mut bytes = vec![0; count * kind.component_bytes(element)];
                        encode(*kind, element, &values, &mut bytes);
                        ResultColumn::copied_into(*kind, element, &bytes, count, Vec::new())
                    })
                    .collect()
            };
            let widths = [result_columns(false), result_columns(true)];
            for finite_math_only in [false, true] {
                let rules = Rules {
                    finite_math_only,
                    ..Rules::of_test(
                        function.name,
                        function.outputs.to_vec(),
                        requirement.clone(),
                        element,
                    )
                };
                // Each width's results judged input by input, as the batch reads them back.
                let alone = |result_columns: &[ResultColumn]| {
                    let results: Vec<Vec<f64>> =
                        result_columns.iter().map(|c| c.decoded_all()).collect();
                    let mut alone = UnitStats::default();
                    let mut reference = FastReference::new();
                    for k in 0..count {
                        let args: Vec<f64> = columns.iter().map(|c| c[k]).collect();
                        let device_results: Vec<f64> = results.iter().map(|r| r[k]).collect();
                        if !function.in_domain(&args) {
                            alone.undefined += 1;
                            continue;
                        }
                        let region = input_region(&args[..args.len().min(2)], element);
                        reference.clear();
                        let index = k as u64;
                        match rules.fast_verdict_with(&mut reference, &args, &device_results) {
                            Some(verdict) => alone.record_fast(verdict, index, region, || {
                                rules.judge(index, &args, &device_results)
                            }),
                            None => {
                                let case = rules.judge(index, &args, &device_results);
                                alone.record_region(region, &case);
                                alone.record(case);
                            }
                        }
                    }
                    alone
                };
                // One width alone, then both: the second row differs from the first on some
                // inputs, so both rows are judged input by input.
                for rows in [1, 2] {
                    let batch = judge_rows(
                        &vec![&rules; rows],
                        function,
                        &Segments::one(0),
                        &columns,
                        &widths[..rows],
                        count,
                        1,
                    );
                    let settled = RowStats::new(widths[..rows].iter().map(|w| alone(w)).collect());
                    assert_eq!(
                        format!("{:?}", batch.into_rows()),
                        format!("{:?}", settled.into_rows()),
                        "{name} {element:?}, {rows} rows, finite math only: {finite_math_only}"
                    );
                }
            }
        }
    }
}
