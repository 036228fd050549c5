//! The plain run: the flags checked and turned into the library's plan, the campaign driven
//! with progress bars, the summary printed. [`prepare_campaign`] reads as its steps.

use super::args::ProfileChoice;
use super::args::{RunArgs, SourceChoice};
use super::console::{err_line, out, out_line};
use super::destinations::check_destinations;
use super::devices::{isolated_builder, open_device};
use super::selection::{
    is_conversion_or_extension, select_functions, select_judging, select_kinds, select_types,
    select_widths, why_nothing,
};
use super::user_kernels::{check_user_interfaces, check_user_paths, read_user_kernels};
use super::{usage, UsageError};
use crate::device::opencl::{DeviceDescription, DeviceInfo, Session};
use crate::num::fp::FloatType;
use crate::report::shard::Shard;
use crate::report::{self, Kind, Provenance, RunFacts, Status, UnitReport};
use crate::run::campaign::{self, Isolation, Opened, Plan};
use crate::run::isolate::{DeviceChoice, Worker};
use crate::run::unit::UnitId;
use crate::run::{RunSettings, UserCode, UserKernel, WorkGroup};
use crate::spec::environment::KernelPath;
use crate::spec::probe::Probe;
use crate::spec::registry::{self, Function};
use crate::spec::table::{Judging, Profile};
use crate::sweep::{self, Cases};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// The two bars a person watching sees: units overall, and the inputs of the unit running.
struct ProgressBars {
    /// Held so the bars draw together.
    _bars: MultiProgress,
    overall: ProgressBar,
    unit: ProgressBar,
}

impl ProgressBars {
    fn new() -> ProgressBars {
        let bars = MultiProgress::new();
        // Bars only for a person watching: quiet when the output goes to a file or a pipe.
        if !std::io::stdout().is_terminal() || !std::io::stderr().is_terminal() {
            bars.set_draw_target(ProgressDrawTarget::hidden());
        }
        let overall = bars.add(ProgressBar::new(0));
        overall.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:30}] {pos}/{len} units {elapsed_precise}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        overall.set_prefix("overall");
        let unit = bars.add(ProgressBar::new(0));
        unit.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:30}] {pos}/{len} inputs {per_sec} eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        ProgressBars {
            _bars: bars,
            overall,
            unit,
        }
    }

    fn finish(&self) {
        self.unit.finish_and_clear();
        self.overall.finish_and_clear();
    }
}

impl campaign::Watch for ProgressBars {
    fn start(&self, units: u64, done: u64) {
        self.overall.set_length(units);
        self.overall.set_position(done);
    }

    fn unit(&self, label: &str) {
        self.unit.set_prefix(label.to_string());
        self.unit.reset();
    }

    fn inputs(&self, position: u64, length: u64) {
        self.unit.set_length(length);
        self.unit.set_position(position);
    }

    fn unit_done(&self) {
        self.overall.inc(1);
    }

    fn refused(&self, refused: &crate::run::pipeline::RefusedBuild) {
        self.unit.suspend(|| print_refused(refused));
    }
}

/// What one campaign did, for the summary files and the exit status.
pub(crate) struct CampaignOutcome {
    pub(crate) units: Vec<UnitReport>,
    /// Each unit's kernel path, in the order of `units`.
    pub(crate) paths: Vec<KernelPath>,
    pub(crate) failed: bool,
    /// Whether the summary reached stdout.
    pub(crate) printed: Result<(), UsageError>,
}

/// Whether a unit of the plan draws inputs by the random sweep: an ulp unit without explicit
/// cases that is not exhaustive (`--exhaustive` not given, or no exhaustive sweep fits it).
fn draws_random(plan: &Plan) -> bool {
    let settings = &plan.settings;
    settings.explicit_cases.is_none()
        && plan.units.iter().any(|unit| match unit {
            UnitId::Ulp {
                function, element, ..
            }
            | UnitId::UlpWidths {
                function, element, ..
            } => {
                !settings.exhaustive
                    || registry::find(function).is_none_or(|function| {
                        let kinds = function.shape.signature().arguments;
                        sweep::exhaustive_count(*element, kinds).is_none()
                    })
            }
            UnitId::Edge { .. } | UnitId::Conversion { .. } | UnitId::Extension { .. } => false,
        })
}

/// The plain run: the campaign (a part per kernel path `--source` names), then the summary
/// files, then the exit code.
pub(crate) fn run_checks(args: &RunArgs) -> Result<ExitCode, UsageError> {
    let outcome = run_parts(&by_path(args))?;
    let written = write_summary_files(args, &outcome);
    Ok(exit_after_run(outcome.failed, [outcome.printed, written]))
}

/// A run's flags split into one run per kernel path: `--source both` into a SPIR-V run and an
/// OpenCL C run (each unit through each), any other run left whole.
pub(crate) fn by_path(args: &RunArgs) -> Vec<RunArgs> {
    match args.source {
        Some(choice @ SourceChoice::Both) => choice
            .paths()
            .into_iter()
            .map(|path| {
                let mut part = args.clone();
                part.source = Some(SourceChoice::of(path));
                part
            })
            .collect(),
        _ => vec![args.clone()],
    }
}

/// Runs the parts of one run into one CSV (`clacc certify`'s, `--source both`'s), one after
/// another. They are planned together before any runs: every row records the whole run's
/// unit count (`planned_units`) and each part knows the others' units and paths, so
/// `--resume`, `--shard` and `clacc merge` treat the parts as one run, and a part is appended
/// to the CSV the part before it wrote.
pub(crate) fn run_parts(parts: &[RunArgs]) -> Result<CampaignOutcome, UsageError> {
    let mut prepared = parts
        .iter()
        .map(prepare_campaign)
        .collect::<Result<Vec<PreparedCampaign>, UsageError>>()?;
    let planned: u64 = prepared.iter().map(|p| p.plan.units.len() as u64).sum();
    // Rows record the random sweep's generation where the run draws random inputs (`--resume`
    // and `clacc merge` refuse to mix generations); exhaustive-only and explicit-case runs draw
    // none, and their options stay as every generation writes them.
    let random = prepared.iter().any(|part| draws_random(&part.plan));
    let keys: Vec<Vec<String>> = prepared
        .iter()
        .map(|part| {
            let settings = &part.plan.settings;
            part.plan.units.iter().map(|u| u.key(settings)).collect()
        })
        .collect();
    let mut paths: Vec<KernelPath> = Vec::new();
    for part in &prepared {
        if !paths.contains(&part.plan.settings.path) {
            paths.push(part.plan.settings.path);
        }
    }
    for (index, part) in prepared.iter_mut().enumerate() {
        part.plan.companion_keys = keys
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != index)
            .flat_map(|(_, keys)| keys.iter().cloned())
            .collect();
        part.plan.provenance.planned_units = planned;
        if random {
            part.plan.provenance.options = report::with_sweep_generation(
                &part.plan.provenance.options,
                sweep::random::GENERATION,
            );
        }
        part.plan.paths = paths.clone();
        // The first part starts (or resumes) the CSV; the others continue it.
        part.plan.resume |= index > 0;
    }
    let mut outcome = CampaignOutcome {
        units: Vec::new(),
        paths: Vec::new(),
        failed: false,
        printed: Ok(()),
    };
    for (part, args) in prepared.into_iter().zip(parts) {
        let part_outcome = part.drive(args)?;
        outcome.units.extend(part_outcome.units);
        outcome.paths.extend(part_outcome.paths);
        outcome.failed |= part_outcome.failed;
        outcome.printed = outcome.printed.and(part_outcome.printed);
    }
    Ok(outcome)
}

/// The kernel path of a run (or of one part of a `--source both` run, split by [`by_path`]
/// into parts that name one path each): `--source`'s, else that of the `--kernel` files given
/// (`.spv` or `.cl`), else SPIR-V where the device takes it and OpenCL C where it does not.
/// Refused where the device, the spec's text or the other flags cannot have it (a `--kernel`
/// file of the other path is `check_user_paths`' to refuse).
fn kernel_path(
    args: &RunArgs,
    info: &DeviceInfo,
    kinds: &[Kind],
    user_kernels: &[UserKernel],
) -> Result<KernelPath, UsageError> {
    let user_path = user_kernels.first().map(|user| user.code.path());
    let path = match (args.source, user_path) {
        (Some(choice), _) => choice.paths()[0],
        (None, Some(path)) => path,
        (None, None) if info.takes_il() => KernelPath::Spirv,
        (None, None) => KernelPath::OpenclC,
    };
    let flag = args.source.map_or_else(
        || format!("{} (the default on this device)", path.name()),
        |choice| choice.name().to_string(),
    );
    match path {
        // `--source both` or `spirv`: the SPIR-V path is the one refused.
        KernelPath::Spirv if !info.takes_il() => usage(format!(
            "{} takes no SPIR-V ({}), so no --source with spirv: its kernels can only be OpenCL C: run with --source opencl-c, or without --source",
            info.label(),
            info.unusable_reason().unwrap_or_default()
        )),
        KernelPath::OpenclC if !info.takes_opencl_c() => usage(format!(
            "--source {flag}: {} has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is false, or it names no OpenCL C version); run it with --source spirv",
            info.label()
        )),
        path if !path.environment().holds(args.spec.revision()) => usage(format!(
            "--source {flag} with --spec {}: clacc holds the {} text of the {} tables only, which judge the {path} path; give --spec {}, or another --source",
            args.spec.revision(),
            path.environment().revision_names(),
            path.environment().name,
            path.environment().revision_names()
        )),
        KernelPath::OpenclC if kinds.iter().all(|kind| *kind == Kind::Extension) => usage(format!(
            "--source {flag}: --kind extension checks SPIR-V extensions, which OpenCL C kernels do not use; add --source spirv, or another --kind"
        )),
        path => Ok(path),
    }
}

/// The run's own status stays: a summary, --junit or --plot that could not be written after
/// the run is reported, and turns only a passing run's exit into 2.
pub(crate) fn exit_after_run(
    failed: bool,
    written: impl IntoIterator<Item = Result<(), UsageError>>,
) -> ExitCode {
    let mut unwritten = false;
    for UsageError(message) in written.into_iter().filter_map(Result::err) {
        err_line(format!(
            "clacc: error: {message} (the CSV holds every result)"
        ));
        unwritten = true;
    }
    if failed {
        ExitCode::from(1)
    } else if unwritten {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// --junit from the CSV's rows (a testcase per row, those of an earlier invocation that
/// --resume kept too) and --plot from the units run now (a plot needs every input's error, which
/// the CSV does not hold): where they ran through both kernel paths, each path's plots in a
/// folder of its own (`DIR/spirv/`, `DIR/opencl-c/`), since a unit has one of each.
pub(crate) fn write_summary_files(
    args: &RunArgs,
    outcome: &CampaignOutcome,
) -> Result<(), UsageError> {
    if let Some(path) = &args.junit {
        let rows = crate::report::merge::read(&args.csv)?;
        crate::report::junit::write(path, &rows)
            .map_err(|e| UsageError(format!("cannot write --junit {}: {e}", path.display())))?;
    }
    if let Some(dir) = &args.plot {
        let mut paths: Vec<KernelPath> = Vec::new();
        for path in &outcome.paths {
            if !paths.contains(path) {
                paths.push(*path);
            }
        }
        let mut written = Vec::new();
        for path in &paths {
            let units: Vec<UnitReport> = outcome
                .units
                .iter()
                .zip(&outcome.paths)
                .filter(|(_, unit_path)| *unit_path == path)
                .map(|(unit, _)| unit.clone())
                .collect();
            let folder = if paths.len() > 1 {
                dir.join(path.name())
            } else {
                dir.clone()
            };
            written.extend(
                crate::report::plot::write_all(&folder, &units, *path).map_err(|e| {
                    UsageError(format!("cannot write --plot {}: {e}", folder.display()))
                })?,
            );
        }
        out_line(
            "the count of plots",
            format!("{} plots in {}", written.len(), dir.display()),
        )?;
        if args.resume {
            out_line(
                "the count of plots",
                format!(
                    "  (units an earlier run wrote to {} have no plot: a plot needs every input's error, which only the run that measured them has)",
                    args.csv.display()
                ),
            )?;
        }
    }
    Ok(())
}

/// The selection flags read: which kinds, functions, conversion or extension units and widths.
struct Selection {
    kinds: Vec<Kind>,
    functions: Vec<&'static Function>,
    /// Conversion and extension unit names given to --function (a summary's reproduce line).
    unit_names: Vec<String>,
    /// Functions with edge-case rules but no ULP row (the geometric ones) given to --function.
    edge_only_names: Vec<String>,
    widths: Vec<u32>,
}

/// Some functions have edge-case rules but no ULP row (the geometric ones): --function may name
/// them too.
fn edge_only(name: &str) -> bool {
    registry::find(name).is_none() && crate::spec::edge_table::functions().contains(&name)
}

/// A campaign whose flags are checked and whose units are planned, ready to run.
pub(crate) struct PreparedCampaign {
    pub(crate) plan: Plan,
    facts: RunFacts,
    /// In-process runs share one opened device; isolated runs open theirs in the worker.
    session: Option<Opened>,
    /// The worker that opened and described an isolated run's OpenCL device: its first.
    worker: Option<Worker>,
}

impl PreparedCampaign {
    /// Runs the plan with progress bars and prints the summary.
    pub(crate) fn drive(self, args: &RunArgs) -> Result<CampaignOutcome, UsageError> {
        drive(
            args,
            &self.plan,
            self.facts,
            self.session.as_ref(),
            self.worker,
        )
    }
}

/// Whether the flags name a Vulkan device: `--platform vulkan` (the platform `clacc devices`
/// lists the Vulkan devices under), or `--source vulkan` with no `--platform`.
pub(crate) fn names_vulkan(args: &RunArgs) -> bool {
    match &args.device.platform {
        Some(_) => names_vulkan_platform(&args.device),
        None => args.source == Some(SourceChoice::Vulkan),
    }
}

/// Whether `--platform` names the Vulkan platform.
pub(crate) fn names_vulkan_platform(device: &super::args::DeviceArgs) -> bool {
    device
        .platform
        .as_deref()
        .is_some_and(|platform| platform.trim().eq_ignore_ascii_case("vulkan"))
}

/// Checks the flags, opens the device and plans the units, running nothing yet.
pub(crate) fn prepare_campaign(args: &RunArgs) -> Result<PreparedCampaign, UsageError> {
    if names_vulkan(args) {
        return prepare_vulkan_campaign(args);
    }
    if args.source == Some(SourceChoice::Vulkan) {
        return usage(format!(
            "--source vulkan runs compute shaders on a Vulkan device, and --platform {} names an OpenCL platform; give --platform vulkan (clacc devices lists the Vulkan devices), or another --source",
            args.device.platform.as_deref().unwrap_or_default()
        ));
    }
    refuse_empty_names(args)?;
    let selection = read_selection(args)?;
    let explicit_cases = read_cases(args)?;
    let user_kernels = read_user_kernels(&args.kernel, &args.selection, false)?;
    check_destinations(args)?;
    let selection = with_user_kernels(selection, &user_kernels, args);
    check_what_judges(&selection, &user_kernels, explicit_cases.is_some())?;
    if args.resume && !args.csv.is_file() {
        err_line(format!(
            "clacc: note: --resume: {} does not exist yet; starting a new run",
            args.csv.display()
        ));
    }
    let isolation = isolation(args)?;
    // An isolated run's parent plans from the worker's description of the device and never
    // loads the driver itself, unless it must ask the driver: an OpenCL C --kernel's interface
    // is read by compiling it (`check_user_interfaces`).
    let asks_the_driver = user_kernels
        .iter()
        .any(|user| matches!(user.code, UserCode::OpenclC(_)));
    let (description, worker) = match &isolation {
        Some(isolation) if !asks_the_driver => {
            let choice = DeviceChoice {
                vulkan: false,
                platform: args.device.platform.clone(),
                device: args.device.device.clone(),
            };
            let (worker, description) = Worker::open(&isolation.executable, &choice)
                .map_err(|error| UsageError(error.to_string()))?;
            let description = description
                .ok_or_else(|| UsageError("the worker opened no OpenCL device".to_string()))?;
            (description, Some(worker))
        }
        _ => (DeviceDescription::of(open_device(&args.device)?), None),
    };
    let info = description.info;
    let path = kernel_path(args, &info, &selection.kinds, &user_kernels)?;
    check_user_paths(&user_kernels, path)?;
    check_user_interfaces(&user_kernels, &args.selection, Some(&info))?;
    let types = select_types(&args.selection.types, Some(&info));
    check_inputs_fit(args, &selection, &types, explicit_cases.as_ref())?;
    let judging = select_judging(args.profile, &info)?;
    if args.correctly_rounded_divide_sqrt && !info.single_fp.correctly_rounded_divide_sqrt() {
        return usage(format!(
            "--correctly-rounded-divide-sqrt: {} does not report CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, so -cl-fp32-correctly-rounded-divide-sqrt promises nothing there",
            info.name
        ));
    }
    let facts = run_facts(args, &info, judging, path);
    if !args.build_options.trim().is_empty() {
        check_build_options(&info, &facts.build_options, path)?;
    }
    let mut provenance = provenance(args, explicit_cases.as_ref(), &user_kernels);
    let settings = run_settings(
        args,
        extension_probe(
            &info,
            description.spirv_queries,
            &selection.kinds,
            facts.path,
        ),
        judging,
        &facts,
        explicit_cases,
        user_kernels,
    );
    let paths = vec![settings.path];
    let units = plan_units(args, &selection, &types, &info, &settings)?;
    let session = match isolation {
        None => Some(Opened::Opencl(Session::open(info)?)),
        Some(_) => None,
    };
    provenance.planned_units = units.len() as u64;
    Ok(PreparedCampaign {
        plan: Plan {
            units,
            provenance,
            settings,
            platform: args.device.platform.clone(),
            device: args.device.device.clone(),
            csv: args.csv.clone(),
            resume: args.resume,
            retry_failed: args.retry_failed,
            companion_keys: Vec::new(),
            paths,
            isolation,
        },
        facts,
        session,
        worker,
    })
}

/// [`prepare_campaign`] on a Vulkan device: the vulkan path's ULP units of the functions the
/// Vulkan environment has an instruction for, each type's shaders declaring the execution modes
/// the device allows for its width.
fn prepare_vulkan_campaign(args: &RunArgs) -> Result<PreparedCampaign, UsageError> {
    refuse_opencl_flags(args)?;
    refuse_empty_names(args)?;
    let selection = read_selection(args)?;
    let kinds_given = !args.kind.is_empty();
    let runs_here = |kind: &Kind| matches!(kind, Kind::Ulp | Kind::Extension);
    if let Some(kind) = selection
        .kinds
        .iter()
        .find(|kind| !runs_here(kind))
        .filter(|_| kinds_given)
    {
        return usage(format!(
            "--kind {}: the vulkan path runs ulp units only, besides the SPIR-V extension checks (the Vulkan environment's precision tables bound errors; edge cases and conversions are OpenCL's); give --kind ulp or extension",
            kind.name()
        ));
    }
    // Without --kind, the vulkan path runs its ULP units; --kind extension adds the checks.
    let kinds: Vec<Kind> = if kinds_given {
        selection.kinds.iter().copied().filter(runs_here).collect()
    } else {
        vec![Kind::Ulp]
    };
    let is_extension = |name: &String| {
        crate::spec::extension::ExtensionCheck::all()
            .iter()
            .any(|c| c.name() == *name)
    };
    let refused: Vec<&str> = selection
        .unit_names
        .iter()
        .filter(|name| !(kinds.contains(&Kind::Extension) && is_extension(name)))
        .chain(&selection.edge_only_names)
        .map(String::as_str)
        .collect();
    if !refused.is_empty() {
        return usage(format!(
            "--function {}: the vulkan path runs ulp units and, with --kind extension, the extension checks, and {} {} neither",
            refused.join(","),
            if refused.len() == 1 { "it" } else { "they" },
            if refused.len() == 1 { "is" } else { "are" }
        ));
    }
    let selection = Selection { kinds, ..selection };
    let explicit_cases = read_cases(args)?;
    let user_kernels = read_user_kernels(&args.kernel, &args.selection, true)?;
    check_destinations(args)?;
    let selection = with_user_kernels(selection, &user_kernels, args);
    check_what_judges(&selection, &user_kernels, explicit_cases.is_some())?;
    let functions = vulkan_functions(args, &selection.functions)?;
    let selection = Selection {
        functions,
        ..selection
    };
    if args.resume && !args.csv.is_file() {
        err_line(format!(
            "clacc: note: --resume: {} does not exist yet; starting a new run",
            args.csv.display()
        ));
    }
    let devices = crate::device::vulkan::enumerate().map_err(crate::device::DeviceError::from)?;
    let info = crate::run::vulkan::select(&devices, args.device.device.as_deref())?.clone();
    if let Some(reason) = info.unusable_reason() {
        return usage(format!("{}: {reason}", info.label()));
    }
    let path = KernelPath::Vulkan;
    if !path.environment().holds(args.spec.revision()) {
        return usage(format!(
            "--spec {}: clacc holds the {} text of the {} tables only, which judge the vulkan path; give --spec {}",
            args.spec.revision(),
            path.environment().revision_names(),
            path.environment().name,
            path.environment().revision_names()
        ));
    }
    check_user_paths(&user_kernels, path)?;
    check_user_interfaces(&user_kernels, &args.selection, None)?;
    // A type the device lacks (shaderFloat16, shaderFloat64) is planned: its units are `skip`
    // with the reason.
    let types = select_types(&args.selection.types, None);
    check_inputs_fit(args, &selection, &types, explicit_cases.as_ref())?;
    let judging = match args.profile {
        ProfileChoice::Embedded => {
            return usage("--profile embedded: the Vulkan environment has no embedded profile; give --profile full or relaxed (RelaxedPrecision shaders)")
        }
        ProfileChoice::Relaxed => Judging::Relaxed {
            otherwise: Profile::Full,
        },
        ProfileChoice::Auto | ProfileChoice::Full => Judging::Table(Profile::Full),
    };
    let facts = RunFacts {
        seed: args.seed.unwrap_or(sweep::DEFAULT_SEED),
        device: format!("Vulkan / {}", info.name),
        driver_version: format!("{}, Vulkan {}", info.driver_info, info.version_text()),
        build_options: String::new(),
        command: vulkan_reproduce_prefix(&info, args),
        spec: args.spec.revision(),
        path,
    };
    let mut provenance = provenance(args, explicit_cases.as_ref(), &user_kernels);
    let settings = RunSettings {
        judging,
        spec: args.spec.revision(),
        path,
        inputs: args.inputs,
        explicit_cases,
        range: args.range.clone(),
        exhaustive: args.exhaustive,
        shard: args.shard,
        seed: facts.seed,
        build_options: String::new(),
        threads: thread_count(args),
        user_kernels,
        correctly_rounded_divide_sqrt: false,
        denorms_are_zero: false,
        device_only: args.device_only,
        work_group: args.work_group,
        extension_probe: None,
        vulkan_modes: crate::run::vulkan::modes_of(&info),
    };
    let isolation = isolation(args)?;
    let mut units = if selection.kinds.contains(&Kind::Ulp) {
        campaign::ulp_units(&selection.functions, &types, &selection.widths)
    } else {
        Vec::new()
    };
    // Vulkan's vectors have 2 to 4 components.
    units.retain(|unit| matches!(unit, UnitId::Ulp { width, .. } if *width <= 4));
    if selection.kinds.contains(&Kind::Extension) {
        // Every check without --function (those the device cannot run are `skip` rows with
        // the reason), else the ones it names.
        let every = args.selection.function.is_empty() && args.kernel.is_empty();
        units.extend(
            crate::run::extension::vulkan::vulkan_extension_units(&info)
                .into_iter()
                .filter(|unit| every || selection.unit_names.contains(&unit.name()))
                .map(|unit| UnitId::Extension {
                    name: unit.name(),
                    element: unit.check.element(),
                }),
        );
    }
    let mut seen = std::collections::HashSet::new();
    units.retain(|unit| seen.insert(unit.key(&settings)));
    if units.is_empty() {
        return usage(format!(
            "nothing to run: the vulkan path runs widths 1 to 4 (Vulkan's vectors){}",
            if selection.functions.is_empty() {
                String::new()
            } else {
                format!(
                    ", and {}",
                    why_nothing(args, &selection.kinds, &types, &selection.widths)
                )
            }
        ));
    }
    let session = match isolation {
        None => Some(Opened::Vulkan(
            crate::device::vulkan::VulkanDevice::open(&info)
                .map_err(crate::device::DeviceError::from)?,
        )),
        Some(_) => None,
    };
    provenance.planned_units = units.len() as u64;
    Ok(PreparedCampaign {
        plan: Plan {
            units,
            provenance,
            settings,
            platform: Some("vulkan".to_string()),
            device: Some(info.index.to_string()),
            csv: args.csv.clone(),
            resume: args.resume,
            retry_failed: args.retry_failed,
            companion_keys: Vec::new(),
            paths: vec![path],
            isolation,
        },
        facts,
        session,
        worker: None,
    })
}

/// The OpenCL-only flags, refused on a Vulkan device with what to do instead.
fn refuse_opencl_flags(args: &RunArgs) -> Result<(), UsageError> {
    if let Some(choice) = args.source.filter(|choice| *choice != SourceChoice::Vulkan) {
        return usage(format!(
            "--source {}: a Vulkan device takes compute shaders only (--source vulkan, its default); run OpenCL kernels with an OpenCL --platform",
            choice.name()
        ));
    }
    for (flag, set) in [
        (
            "--correctly-rounded-divide-sqrt",
            args.correctly_rounded_divide_sqrt,
        ),
        ("--denorms-are-zero", args.denorms_are_zero),
        ("--build-options", !args.build_options.trim().is_empty()),
    ] {
        if set {
            return usage(format!(
                "{flag} is an OpenCL build option, and a Vulkan device builds compute shaders, whose execution modes clacc chooses from the device's float-controls properties"
            ));
        }
    }
    Ok(())
}

/// The selected functions the vulkan path runs: those the Vulkan environment has an instruction
/// for (`spec::vulkan`); one --function names without is refused, and with no --function the
/// others are left out.
fn vulkan_functions(
    args: &RunArgs,
    functions: &[&'static Function],
) -> Result<Vec<&'static Function>, UsageError> {
    let (kept, left): (Vec<&'static Function>, Vec<&'static Function>) = functions
        .iter()
        .copied()
        .partition(|function| crate::spec::vulkan::instruction(function.name).is_some());
    if !args.selection.function.is_empty() && !left.is_empty() {
        let names: Vec<&str> = left.iter().map(|function| function.name).collect();
        return usage(format!(
            "--function {0}: the Vulkan environment has no instruction for {0} (GLSL.std.450 and the core instructions hold what a shader can call), so the vulkan path does not run {1}",
            names.join(","),
            if names.len() == 1 { "it" } else { "them" },
        ));
    }
    Ok(kept)
}

/// `clacc --platform vulkan --device 0 --profile full --spec 2026`: a Vulkan run's conditions.
fn vulkan_reproduce_prefix(
    info: &crate::device::vulkan::VulkanDeviceInfo,
    args: &RunArgs,
) -> String {
    let mut command = format!(
        "clacc --platform vulkan --device {} --profile {} --spec {}",
        info.index,
        args.profile.name(),
        args.spec.revision()
    );
    if args.work_group != WorkGroup::default() {
        command.push_str(&format!(" --work-group {}", args.work_group.text()));
    }
    for kernel in &args.kernel {
        command.push_str(&format!(" --kernel {kernel}"));
    }
    command
}

/// An empty name in a list flag (`--function sin,`) is a stray comma; --type and --kind refuse
/// theirs as they are parsed.
fn refuse_empty_names(args: &RunArgs) -> Result<(), UsageError> {
    for (flag, names) in [
        ("--function", &args.selection.function),
        ("--width", &args.selection.width),
    ] {
        if names.iter().any(|name| name.trim().is_empty()) {
            return usage(format!(
                "{flag} has an empty name in its list (a stray comma?); write e.g. {flag} {}",
                match flag {
                    "--function" => "sin,cos",
                    _ => "1,4",
                }
            ));
        }
    }
    Ok(())
}

/// --kind, --function and --width read; --function's names sorted into table functions,
/// edge-only functions and conversion or extension units.
fn read_selection(args: &RunArgs) -> Result<Selection, UsageError> {
    let kinds = select_kinds(&args.kind);
    // A conversion or extension unit's name (a summary's reproduce line) selects that unit.
    let (unit_names, function_names): (Vec<String>, Vec<String>) = args
        .selection
        .function
        .iter()
        .cloned()
        .partition(|f| is_conversion_or_extension(f));
    let (edge_only_names, table_names): (Vec<String>, Vec<String>) =
        function_names.into_iter().partition(|f| edge_only(f));
    let functions = if !args.selection.function.is_empty() && table_names.is_empty() {
        Vec::new()
    } else {
        select_functions(&table_names)?
    };
    let widths = select_widths(&args.selection.width)?;
    if args.inputs == 0 {
        return usage("--inputs must be at least 1");
    }
    if args.unit_timeout == 0 {
        return usage("--unit-timeout must be at least 1 second");
    }
    Ok(Selection {
        kinds,
        functions,
        unit_names,
        edge_only_names,
        widths,
    })
}

/// --input-file or --input: the cases to run instead of the sweep (which --exhaustive and
/// --range shape, so they are refused beside them).
fn read_cases(args: &RunArgs) -> Result<Option<Cases>, UsageError> {
    if args.input_file.is_none() && args.input.is_empty() {
        return Ok(None);
    }
    for (flag, set, what) in [
        (
            "--exhaustive",
            args.exhaustive,
            "runs every input of the type",
        ),
        ("--range", args.range.is_some(), "narrows the sweep"),
    ] {
        if set {
            return usage(format!(
                "{flag} {what}, and --input/--input-file run only the cases given: use one or the other"
            ));
        }
    }
    Ok(Some(match &args.input_file {
        Some(path) => sweep::parse_input_file(path).map_err(UsageError)?,
        None => Cases::given(&args.input).map_err(UsageError)?,
    }))
}

/// --range and the explicit cases against the units they reach, before anything runs: each
/// selected ULP function takes as many ranges as it has arguments (or one), each holding a value
/// of every selected type; each case's argument is a value of every selected type (or integer)
/// the argument takes, since clacc runs inputs exactly as written.
fn check_inputs_fit(
    args: &RunArgs,
    selection: &Selection,
    types: &[FloatType],
    cases: Option<&Cases>,
) -> Result<(), UsageError> {
    if let Some(ranges) = args
        .range
        .as_ref()
        .filter(|_| selection.kinds.contains(&Kind::Ulp))
    {
        for function in &selection.functions {
            for element in types {
                ranges
                    .check(
                        function.name,
                        *element,
                        function.shape.signature().arguments,
                    )
                    .map_err(|error| UsageError(error.to_string()))?;
            }
        }
    }
    let Some(cases) = cases else {
        return Ok(());
    };
    let table_units = selection.kinds.contains(&Kind::Ulp) || selection.kinds.contains(&Kind::Edge);
    let wanted = sweep::cases::wanted_values(
        cases.arity(),
        types,
        if table_units {
            &selection.functions
        } else {
            &[]
        },
        selection.kinds.contains(&Kind::Edge) && !selection.edge_only_names.is_empty(),
        &selection.unit_names,
    );
    let Err((index, argument, error)) = sweep::cases::check_cases(cases, &wanted) else {
        return Ok(());
    };
    let place = match &args.input_file {
        Some(path) => format!(
            "{}:{}",
            path.display(),
            sweep::cases::line_of_case(path, index).unwrap_or(0)
        ),
        None if args.input.len() == 1 => "--input".to_string(),
        None => format!("--input `{}`", sweep::cases::quote(&args.input[index])),
    };
    usage(format!(
        "{place}: argument {}: {error}; clacc runs each input exactly as written, never rounded (choose --type to match the inputs)",
        argument + 1
    ))
}

/// --kernel without --function: the functions of the modules given.
fn with_user_kernels(
    selection: Selection,
    user_kernels: &[UserKernel],
    args: &RunArgs,
) -> Selection {
    if user_kernels.is_empty() || !args.selection.function.is_empty() {
        return selection;
    }
    Selection {
        functions: user_kernels
            .iter()
            .filter_map(|k| registry::find(&k.function))
            .collect(),
        ..selection
    }
}

/// --kernel modules and explicit cases need a kind that judges them.
fn check_what_judges(
    selection: &Selection,
    user_kernels: &[UserKernel],
    has_explicit_cases: bool,
) -> Result<(), UsageError> {
    let kinds = &selection.kinds;
    // A geometric function's module is judged by its edge-case rules, any other by the ULP
    // tables.
    let geometric_kernels = user_kernels
        .iter()
        .all(|k| registry::find(&k.function).is_none());
    if !user_kernels.is_empty() && geometric_kernels && !kinds.contains(&Kind::Edge) {
        return usage("--kernel modules of length, distance and normalize are judged by their edge-case rules: add --kind edge");
    }
    if !user_kernels.is_empty() && !kinds.contains(&Kind::Ulp) && !kinds.contains(&Kind::Edge) {
        return usage(
            "--kernel modules are judged by the ULP tables and the edge-case rules: add --kind ulp or edge",
        );
    }
    if has_explicit_cases
        && !kinds.contains(&Kind::Ulp)
        && !kinds.contains(&Kind::Edge)
        && selection.unit_names.is_empty()
    {
        return usage(
            "--input-file and --input give cases to ulp and edge units, or to the conversion or extension units --function names: add --kind ulp or edge, or name a unit (e.g. --function convert_double_to_half)",
        );
    }
    for user in user_kernels {
        if !selection.functions.iter().any(|f| f.name == user.function)
            && !selection.edge_only_names.contains(&user.function)
        {
            return usage(format!(
                "--kernel {}: add {} to --function",
                user.path, user.function
            ));
        }
    }
    Ok(())
}

/// Builds one small kernel of the run's path with the run's options in a process of its own, so
/// that options the driver does not take are a usage error before anything runs, not an error
/// row per unit.
fn check_build_options(
    info: &DeviceInfo,
    options: &str,
    path: KernelPath,
) -> Result<(), UsageError> {
    let add = registry::find("OpFAdd").expect("the registry has OpFAdd");
    let spec = crate::kernel::KernelSpec {
        instruction: add.instruction,
        shape: add.shape,
        element: FloatType::Float,
        width: 1,
        address_bits: info.address_bits,
    };
    let cannot = |e: crate::kernel::KernelError| {
        UsageError(format!(
            "cannot build the kernel that checks --build-options: {e}"
        ))
    };
    let (module, source);
    let kernel = match path {
        KernelPath::Spirv => {
            module = crate::kernel::words_to_bytes(
                &crate::kernel::spirv_opencl::build(&spec).map_err(cannot)?,
            );
            crate::device::KernelForm::SpirvOpencl(&module)
        }
        KernelPath::OpenclC => {
            source = crate::kernel::opencl_c::source(&spec).map_err(cannot)?;
            crate::device::KernelForm::OpenclC(&source)
        }
        KernelPath::Vulkan => return usage(
            "--build-options: the vulkan path builds compute shaders, which take no build options",
        ),
    };
    match super::devices::build_isolated(info, &spec.file_stem(), kernel, options) {
        crate::run::extension::probe::IsolatedOutcome::Built => Ok(()),
        crate::run::extension::probe::IsolatedOutcome::Refused(why) => usage(format!(
            "--build-options: {} does not build a plain module with `{options}`: {why}",
            info.name
        )),
        crate::run::extension::probe::IsolatedOutcome::Crashed(why) => usage(format!(
            "--build-options: building a plain module with `{options}` on {} failed: {why}",
            info.name
        )),
    }
}

/// The options the kernels are built with: the profile's, the flags', then --build-options.
fn build_options(args: &RunArgs, judging: Judging) -> String {
    let mut build_options: Vec<&str> = Vec::new();
    if judging.relaxed() {
        build_options.push("-cl-fast-relaxed-math");
    }
    if args.correctly_rounded_divide_sqrt {
        build_options.push("-cl-fp32-correctly-rounded-divide-sqrt");
    }
    if args.denorms_are_zero {
        build_options.push("-cl-denorms-are-zero");
    }
    if !args.build_options.trim().is_empty() {
        build_options.push(args.build_options.trim());
    }
    build_options.join(" ")
}

/// What every row and summary of the run records about it.
fn run_facts(args: &RunArgs, info: &DeviceInfo, judging: Judging, path: KernelPath) -> RunFacts {
    RunFacts {
        seed: args.seed.unwrap_or(sweep::DEFAULT_SEED),
        device: format!("{} / {}", info.platform_name, info.name),
        driver_version: info.driver_version.clone(),
        build_options: build_options(args, judging),
        command: reproduce_prefix(info, args, path),
        spec: args.spec.revision(),
        path,
    }
}

/// The run's first line on stderr: version, device, spec, profile, seed, what each unit runs,
/// shard.
fn announce(args: &RunArgs, facts: &RunFacts, plan: &Plan) {
    let settings = &plan.settings;
    let profile_text = match settings.judging {
        Judging::Relaxed { .. } if facts.path == KernelPath::Vulkan => {
            "relaxed (RelaxedPrecision shaders, float judged by the half column)".to_string()
        }
        Judging::Relaxed { otherwise } => format!("relaxed (Table 5, else {})", otherwise.name()),
        Judging::Table(profile) => profile.name().to_string(),
    };
    let inputs_text = if let Some(cases) = &settings.explicit_cases {
        match cases.len() {
            1 => "the 1 input given".to_string(),
            count => format!("the {count} inputs given"),
        }
    } else if plan.units.iter().all(|unit| unit.kind() == Kind::Edge) {
        "the spec's edge cases".to_string()
    } else {
        format!(
            "{}{} inputs per unit",
            if args.exhaustive {
                "exhaustive where it fits, else "
            } else {
                ""
            },
            args.inputs
        )
    };
    let shard_text = if args.shard == Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {}", args.shard)
    };
    // A Vulkan run's shaders declare the execution modes its device allows, type by type.
    let modes_text: Vec<String> = settings
        .vulkan_modes
        .iter()
        .map(|modes| format!("{} {}", modes.element, modes.describe()))
        .collect();
    let modes_text = if modes_text.is_empty() {
        String::new()
    } else {
        format!(", execution modes {}", modes_text.join(", "))
    };
    err_line(format!(
        "clacc {}: {} (driver {}), spec {}, {} kernels{modes_text}, profile {profile_text}, seed {:#x}, {inputs_text}{shard_text}",
        env!("CARGO_PKG_VERSION"),
        facts.device,
        facts.driver_version,
        args.spec.revision(),
        facts.path,
        facts.seed,
    ));
}

/// The CSV's provenance columns (the planned units are counted once the units are planned).
fn provenance(
    args: &RunArgs,
    explicit_cases: Option<&Cases>,
    user_kernels: &[UserKernel],
) -> Provenance {
    Provenance {
        shard: args.shard.to_string(),
        requested_inputs: args.inputs as u64,
        // The work-groups can change a device's results, so a CSV resumes or merges only
        // with its own (named where not the default, which earlier CSVs hold).
        options: report::options_text(
            args.exhaustive,
            explicit_cases.map(|cases| (cases.len(), cases.values())),
            &user_kernels
                .iter()
                .map(|k| (k.function.clone(), k.code.bytes().to_vec()))
                .collect::<Vec<_>>(),
            args.device_only,
            args.range.as_ref().map(sweep::InputRanges::text).as_deref(),
        ) + &if args.work_group == WorkGroup::default() {
            String::new()
        } else {
            format!(" work_group={}", args.work_group.text())
        },
        planned_units: 0,
    }
}

/// The library's settings of the run.
/// What the extension units may build, where the run has them: the device's
/// `cl_khr_spirv_queries` answer (`spirv_queries`), or for a device without them a probe as
/// `clacc devices` does, one isolated build per extension, so that a driver that dies on one
/// costs only that process.
fn extension_probe(
    info: &DeviceInfo,
    spirv_queries: Probe,
    kinds: &[Kind],
    path: KernelPath,
) -> Option<Probe> {
    (kinds.contains(&Kind::Extension) && path == KernelPath::Spirv).then(|| {
        let builder = isolated_builder(info);
        crate::run::extension::probe::probe(info, spirv_queries, Some(&builder))
    })
}

fn run_settings(
    args: &RunArgs,
    extension_probe: Option<Probe>,
    judging: Judging,
    facts: &RunFacts,
    explicit_cases: Option<Cases>,
    user_kernels: Vec<UserKernel>,
) -> RunSettings {
    let threads = thread_count(args);
    RunSettings {
        judging,
        spec: args.spec.revision(),
        path: facts.path,
        inputs: args.inputs,
        explicit_cases,
        range: args.range.clone(),
        exhaustive: args.exhaustive,
        shard: args.shard,
        seed: facts.seed,
        build_options: facts.build_options.clone(),
        threads,
        user_kernels,
        correctly_rounded_divide_sqrt: args.correctly_rounded_divide_sqrt,
        denorms_are_zero: args.denorms_are_zero,
        device_only: args.device_only,
        work_group: args.work_group,
        extension_probe,
        vulkan_modes: Vec::new(),
    }
}

/// Threads computing references (`--threads`, else one per core).
fn thread_count(args: &RunArgs) -> usize {
    args.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Worker processes (unless --no-isolate), each unit under --unit-timeout.
fn isolation(args: &RunArgs) -> Result<Option<Isolation>, UsageError> {
    if args.no_isolate {
        return Ok(None);
    }
    Ok(Some(Isolation {
        executable: campaign::current_executable()
            .map_err(|error| UsageError(error.to_string()))?,
        unit_timeout: Duration::from_secs(args.unit_timeout),
    }))
}

/// Every unit the selection holds, each once; none is a usage error that says why.
fn plan_units(
    args: &RunArgs,
    selection: &Selection,
    types: &[FloatType],
    info: &DeviceInfo,
    settings: &RunSettings,
) -> Result<Vec<UnitId>, UsageError> {
    let kinds = &selection.kinds;
    let mut units = Vec::new();
    if kinds.contains(&Kind::Ulp) {
        units.extend(campaign::ulp_units(
            &selection.functions,
            types,
            &selection.widths,
        ));
    }
    if kinds.contains(&Kind::Edge) {
        let edge_only_selected: Vec<String> = if args.selection.function.is_empty() {
            crate::spec::edge_table::functions()
                .into_iter()
                .filter(|f| edge_only(f))
                .map(str::to_string)
                .collect()
        } else {
            selection.edge_only_names.clone()
        };
        units.extend(campaign::edge_units(
            &selection.functions,
            &edge_only_selected,
            types,
            &selection.widths,
            (settings.path.environment(), settings.spec),
        ));
    }
    // Extension units check SPIR-V extensions: the OpenCL C path has none to check.
    let extensions = kinds.contains(&Kind::Extension) && settings.path == KernelPath::Spirv;
    // Conversions and extension checks have no function selection of their own: they run when
    // no --function narrows the run.
    if args.selection.function.is_empty() && args.kernel.is_empty() {
        units.extend(campaign::conversion_and_extension_units(
            info,
            kinds.contains(&Kind::Conversion),
            extensions,
            settings.extension_probe.as_ref(),
        ));
    } else if !selection.unit_names.is_empty() {
        units.extend(
            campaign::conversion_and_extension_units(
                info,
                kinds.contains(&Kind::Conversion),
                extensions,
                settings.extension_probe.as_ref(),
            )
            .into_iter()
            .filter(|unit| match unit {
                UnitId::Conversion { name, .. } | UnitId::Extension { name, .. } => {
                    selection.unit_names.contains(name)
                }
                _ => false,
            }),
        );
    }
    // A name given twice (`sin,sin`, `fadd,OpFAdd`) runs once.
    let mut seen = std::collections::HashSet::new();
    units.retain(|unit| seen.insert(unit.key(settings)));
    // Given inputs reach an edge unit only where they are its edge cases.
    let mut missed_edge_cases = std::collections::BTreeSet::new();
    if let Some(given) = &settings.explicit_cases {
        units.retain(|unit| match unit {
            UnitId::Edge {
                function, element, ..
            } => {
                let meets = crate::run::edge::given_inputs_meet_an_edge_case(
                    settings.path.environment(),
                    settings.spec,
                    function,
                    *element,
                    given,
                );
                if !meets {
                    missed_edge_cases.insert(format!("{function} ({element})"));
                }
                meets
            }
            _ => true,
        });
    }
    if let Some(arity) = settings.explicit_cases.as_ref().map(|cases| cases.arity()) {
        for unit in &units {
            let UnitId::Ulp { function, .. } = unit else {
                continue;
            };
            let entry = registry::find(function).expect("units name registered functions");
            let takes = entry.shape.signature().arguments.len();
            if arity != takes {
                return usage(format!(
                    "{} gives {} argument{} a case; {function} takes {takes}",
                    if !args.input.is_empty() {
                        "--input"
                    } else {
                        "--input-file"
                    },
                    arity,
                    if arity == 1 { "" } else { "s" },
                ));
            }
        }
    }
    if units.is_empty() && !missed_edge_cases.is_empty() {
        return usage(format!(
            "nothing to run: the inputs given are none of the edge cases of {} (the rules in tables/edge_cases.csv); judge them by the ULP table with --kind ulp",
            missed_edge_cases.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if units.is_empty() {
        return usage(format!(
            "nothing to run: {}",
            why_nothing(args, kinds, types, &selection.widths)
        ));
    }
    Ok(units)
}

/// Runs the plan with progress bars and prints the summary.
fn drive(
    args: &RunArgs,
    plan: &Plan,
    facts: RunFacts,
    session: Option<&Opened>,
    worker: Option<Worker>,
) -> Result<CampaignOutcome, UsageError> {
    announce(args, &facts, plan);
    let bars = ProgressBars::new();
    let results = campaign::run(plan, &facts, session, worker, &bars)
        .map_err(|error| UsageError(error.to_string()))?;
    bars.finish();
    let mut printed = out(
        "the summary",
        &report::summary(&results.units, &facts, &args.csv),
    );
    if results.resumed > 0 && printed.is_ok() {
        printed = out_line(
            "the summary",
            format!(
                "{} units were already in {} from an earlier run ({} of them not passing)",
                results.resumed,
                args.csv.display(),
                results.resumed_failures
            ),
        );
    }
    let failed = results.resumed_failures > 0
        || results
            .units
            .iter()
            .any(|u| !matches!(u.status, Status::Pass | Status::Skip));
    Ok(CampaignOutcome {
        paths: vec![plan.settings.path; results.units.len()],
        units: results.units,
        failed,
        printed,
    })
}

/// `clacc --platform 0 --device 0 --profile full --seed 0x… [options]`: the conditions a
/// failure's reproduce line needs besides the unit and its input.
fn reproduce_prefix(info: &DeviceInfo, args: &RunArgs, path: KernelPath) -> String {
    let mut command = format!(
        "clacc --platform {} --device {} --profile {} --spec {}",
        info.platform_index,
        info.device_index,
        args.profile.name(),
        args.spec.revision()
    );
    // SPIR-V is the path of every device that takes it unless --source says otherwise.
    if path == KernelPath::OpenclC {
        command.push_str(" --source opencl-c");
    }
    for (flag, set) in [
        (
            "--correctly-rounded-divide-sqrt",
            args.correctly_rounded_divide_sqrt,
        ),
        ("--denorms-are-zero", args.denorms_are_zero),
    ] {
        if set {
            command.push(' ');
            command.push_str(flag);
        }
    }
    if !args.build_options.trim().is_empty() {
        command.push_str(&format!(" --build-options '{}'", args.build_options.trim()));
    }
    if args.work_group != WorkGroup::default() {
        command.push_str(&format!(" --work-group {}", args.work_group.text()));
    }
    for kernel in &args.kernel {
        command.push_str(&format!(" --kernel {kernel}"));
    }
    command
}

/// The whole build log of a module the driver refused (the unit's row holds one line of it).
pub(crate) fn print_refused(refused: &crate::run::pipeline::RefusedBuild) {
    err_line(format!(
        "clacc: the driver refused {}:\n{}",
        refused.module, refused.log
    ));
}
