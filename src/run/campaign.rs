//! A run of many units: which units, in which order, in this process or in isolated workers,
//! skipping the ones a resumed CSV already holds, writing each row as its unit finishes.

use crate::device::opencl::DeviceDescription;
use crate::device::opencl::Session;
use crate::device::{Device, DeviceError};
use crate::num::fp::FloatType;
use crate::report::shard::Shard;
use crate::report::{
    CsvOpenError, CsvReport, LockedCsv, Provenance, RunFacts, Status, UnitReport,
    ALL_UNDEFINED_NOTE, EMPTY_SHARD_NOTE, NOTHING_JUDGED_NOTE,
};
use crate::run::isolate::{self, DeviceChoice, Outcome, Worker};
use crate::run::pipeline::{Ran, RefusedBuild};
use crate::run::unit::UnitId;
use crate::run::RunSettings;
use crate::spec::environment::KernelPath;
use crate::spec::registry;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

/// A device opened to run units on: an OpenCL session (whose OpenCL facts also choose the
/// conversion and extension units), or a Vulkan device, which runs the vulkan path's ULP units
/// through the same [`Device`] interface.
pub enum Opened {
    Opencl(Session),
    Vulkan(crate::device::vulkan::VulkanDevice),
}

impl Opened {
    /// The device the units run on.
    pub fn device(&self) -> &dyn Device {
        match self {
            Opened::Opencl(session) => session,
            Opened::Vulkan(device) => device,
        }
    }
}

/// Measures one unit in this process.
pub fn run_unit_here(
    opened: &Opened,
    settings: &RunSettings,
    unit: &UnitId,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    // Conversion units are chosen by OpenCL facts and build OpenCL modules.
    let opencl_only = || {
        Ran::settled(unit.lost(
            settings,
            Status::Error,
            "conversion units run on OpenCL devices only".to_string(),
        ))
    };
    match unit {
        UnitId::Ulp {
            function,
            element,
            width,
        } => {
            let entry = registry::find(function).expect("units name registered functions");
            crate::run::ulp::run_unit(opened.device(), settings, entry, *element, *width, progress)
        }
        UnitId::UlpWidths { .. } => {
            // Its first width's row; `run_rows_here` gives every width's.
            run_rows_here(opened, settings, unit, progress)
                .into_iter()
                .next()
                .expect("a group has a row per width")
        }
        UnitId::Edge {
            function,
            element,
            width,
        } => crate::run::edge::run_edge_unit(
            opened.device(),
            settings,
            function,
            *element,
            *width,
            progress,
        ),
        UnitId::Conversion { name, element } => {
            let Opened::Opencl(session) = opened else {
                return opencl_only();
            };
            match crate::run::conversion::find_unit(&session.info, name) {
                Some(conversion) => crate::run::conversion::run_conversion(
                    session,
                    &conversion,
                    &conversion_settings(settings),
                    progress,
                ),
                None => Ran::settled(unit.lost(
                    settings,
                    Status::Error,
                    format!("no conversion unit {name} ({element}) on this device"),
                )),
            }
        }
        UnitId::Extension { name, element } => {
            let session = match opened {
                Opened::Opencl(session) => session,
                Opened::Vulkan(device) => {
                    return match crate::run::extension::vulkan::find_vulkan_unit(&device.info, name)
                    {
                        Some(check) => crate::run::extension::vulkan::run_vulkan_extension(
                            device,
                            &check,
                            &conversion_settings(settings),
                            progress,
                        ),
                        None => Ran::settled(unit.lost(
                            settings,
                            Status::Error,
                            format!("no extension check {name} ({element})"),
                        )),
                    };
                }
            };
            let probe = settings
                .extension_probe
                .clone()
                .unwrap_or_else(|| crate::device::opencl::probe::spirv_extensions(&session.info));
            match crate::run::extension::find_unit(&session.info, &probe, name) {
                Some(check) => crate::run::extension::run_extension(
                    session,
                    &session.info,
                    &check,
                    &probe,
                    &conversion_settings(settings),
                    progress,
                ),
                None => Ran::settled(unit.lost(
                    settings,
                    Status::Error,
                    format!("no extension check {name} ({element})"),
                )),
            }
        }
    }
}

/// Measures a unit in this process: its rows, one per width for a [`UnitId::UlpWidths`].
pub fn run_rows_here(
    opened: &Opened,
    settings: &RunSettings,
    unit: &UnitId,
    progress: &dyn Fn(u64, u64),
) -> Vec<Ran> {
    match unit {
        UnitId::UlpWidths {
            function,
            element,
            widths,
        } => {
            let entry = registry::find(function).expect("units name registered functions");
            crate::run::ulp::run_widths(
                opened.device(),
                settings,
                entry,
                *element,
                widths,
                progress,
            )
        }
        other => vec![run_unit_here(opened, settings, other, progress)],
    }
}

/// The work of a run: consecutive ULP units of one function and type that run in a width
/// group ([`crate::run::ulp::runs_in_width_group`]) become one [`UnitId::UlpWidths`] (one
/// reference pass for all widths); every other unit stays as it is.
pub fn group_widths(units: &[&UnitId], settings: &RunSettings) -> Vec<UnitId> {
    let mut work: Vec<UnitId> = Vec::new();
    for unit in units {
        let UnitId::Ulp {
            function,
            element,
            width,
        } = unit
        else {
            work.push((*unit).clone());
            continue;
        };
        let grouped = registry::find(function)
            .is_some_and(|entry| crate::run::ulp::runs_in_width_group(settings, entry));
        if !grouped {
            work.push((*unit).clone());
            continue;
        }
        match work.last_mut() {
            Some(UnitId::UlpWidths {
                function: group_function,
                element: group_element,
                widths,
            }) if group_function == function && group_element == element => widths.push(*width),
            _ => work.push(UnitId::UlpWidths {
                function: function.clone(),
                element: *element,
                widths: vec![*width],
            }),
        }
    }
    work
}

fn conversion_settings(settings: &RunSettings) -> crate::sweep::conversion::ConversionSettings {
    crate::sweep::conversion::ConversionSettings {
        seed: settings.seed,
        inputs: settings.inputs,
        exhaustive: settings.exhaustive,
        threads: settings.threads,
        explicit: settings.explicit_cases.clone(),
        profile: settings.judging.profile(),
        path: settings.path,
    }
}

/// The conversion and extension units that apply to a device, in report order (those the
/// device cannot run are kept: their rows say why they are skipped).
pub fn conversion_and_extension_units(
    info: &crate::device::opencl::DeviceInfo,
    conversions: bool,
    extensions: bool,
    probe: Option<&crate::spec::probe::Probe>,
) -> Vec<UnitId> {
    let mut units = Vec::new();
    if conversions {
        for unit in crate::run::conversion::conversion_units(info) {
            units.push(UnitId::Conversion {
                name: unit.name(),
                element: unit.conversion.element(),
            });
        }
    }
    if extensions {
        let queried;
        let probe = match probe {
            Some(probe) => probe,
            None => {
                queried = crate::device::opencl::probe::spirv_extensions(info);
                &queried
            }
        };
        for unit in crate::run::extension::extension_units(info, probe) {
            units.push(UnitId::Extension {
                name: unit.name(),
                element: unit.check.element(),
            });
        }
    }
    units
}

/// How units are run.
pub struct Plan {
    pub units: Vec<UnitId>,
    pub settings: RunSettings,
    pub platform: Option<String>,
    pub device: Option<String>,
    pub csv: PathBuf,
    /// Keep the rows already in `csv` and run only the missing units.
    pub resume: bool,
    /// With `resume`: drop the rows of units that did not complete (error, timeout, crash)
    /// first, so that they run again.
    pub retry_failed: bool,
    /// The unit keys the other parts of one run plan (`clacc certify`'s, `--source both`'s):
    /// rows a resumed CSV may hold besides this plan's own.
    pub companion_keys: Vec<String>,
    /// The kernel paths of the whole run (this plan's and its companions'): a resumed CSV's
    /// rows of another path are another run's.
    pub paths: Vec<crate::spec::environment::KernelPath>,
    /// Run units in a worker process (`None`: in this process).
    pub isolation: Option<Isolation>,
    /// The bookkeeping columns of every row this run writes.
    pub provenance: Provenance,
}

/// Worker settings.
pub struct Isolation {
    /// The clacc executable to start as the worker.
    pub executable: PathBuf,
    pub unit_timeout: Duration,
}

/// What a campaign did.
pub struct Results {
    /// Reports of the units run now, in order.
    pub units: Vec<UnitReport>,
    /// Units taken from the CSV being resumed.
    pub resumed: usize,
    /// Statuses of the resumed rows (for the exit status).
    pub resumed_failures: usize,
}

/// Why a run of units stopped before its last unit (a unit's own trouble is its row's, never
/// this).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot write --csv {}: {source}", path.display())]
    WriteCsv {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("--csv {}: {reason}; wait for it to finish or give another --csv", path.display())]
    CsvBusy { path: PathBuf, reason: String },
    /// The CSV given to write or resume is not one this run may use (the report layer's words).
    #[error("{0}")]
    Csv(crate::report::merge::MergeError),
    #[error("--resume: {} holds rows judged by the {found} text of the spec, and this run uses --spec {wanted}; pass --spec {found} or another --csv", path.display())]
    ResumeSpec {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("--resume: {} holds a row of {unit}, which this run does not plan: it was written by a run of another selection; rerun with the same selection (--kind, --function, --type, --width) or give another --csv", path.display())]
    OtherSelection { path: PathBuf, unit: String },
    #[error("no device session to run units in")]
    NoSession,
    #[error("{0}")]
    WorkerStart(isolate::WorkerStartError),
    /// The worker's end of the pipe to its parent failed.
    #[error("worker: {0}")]
    Worker(std::io::Error),
    #[error("{0}")]
    Device(#[from] crate::device::DeviceError),
    #[error("cannot find clacc's own executable for worker processes: {0}")]
    Executable(std::io::Error),
}

/// What a person watching a run is shown as it goes; the command line draws it (progress
/// bars and the driver's build logs), so this layer knows no terminal.
pub trait Watch {
    /// The run has `units` units, `done` of them already in a resumed CSV.
    fn start(&self, units: u64, done: u64);
    /// The unit named `label` begins.
    fn unit(&self, label: &str);
    /// The running unit is at input `position` of `length`.
    fn inputs(&self, position: u64, length: u64);
    /// The running unit has its row.
    fn unit_done(&self);
    /// The driver refused a module: its whole build log (the unit's row keeps one line).
    fn refused(&self, refused: &RefusedBuild);
}

/// Runs the plan, writing each row as soon as its unit finishes, and shows its progress to
/// `watch`: in `opened`, or in worker processes (the first may be `started` already: the one
/// that described the device), as the plan's isolation says.
pub fn run(
    plan: &Plan,
    facts: &RunFacts,
    opened: Option<&Opened>,
    started: Option<Worker>,
    watch: &dyn Watch,
) -> Result<Results, RunError> {
    let csv_error = |source: std::io::Error| RunError::WriteCsv {
        path: plan.csv.clone(),
        source,
    };
    crate::report::merge::refuse_irregular(&plan.csv, "--csv").map_err(RunError::Csv)?;
    // The lock is taken before anything is read or truncated, and held until the run ends.
    let locked = LockedCsv::open(&plan.csv).map_err(|error| match error {
        CsvOpenError::Busy { .. } => RunError::CsvBusy {
            path: plan.csv.clone(),
            reason: error.to_string(),
        },
        CsvOpenError::Io(error) => csv_error(error),
    })?;
    let (mut csv, done, resumed_failures) = if plan.resume {
        let expected = expected_columns(plan, facts);
        let (locked, rows) = if plan.retry_failed {
            crate::report::merge::resume_retrying(&plan.csv, &expected, &plan.paths, locked)
        } else {
            crate::report::merge::resume(&plan.csv, &expected, &plan.paths)
                .map(|rows| (locked, rows))
        }
        .map_err(RunError::Csv)?;
        let spec = plan.settings.spec.name();
        if let Some(row) = rows.iter().find(|row| row.get("spec") != spec) {
            return Err(RunError::ResumeSpec {
                path: plan.csv.clone(),
                found: row.get("spec").to_string(),
                wanted: spec.to_string(),
            });
        }
        let done: HashSet<String> = rows
            .iter()
            .map(crate::report::merge::Row::unit_key)
            .collect();
        // Another selection of as many units has the same planned_units: its rows name units
        // this run does not plan.
        let planned: HashSet<String> = plan
            .units
            .iter()
            .map(|unit| unit.key(&plan.settings))
            .chain(plan.companion_keys.iter().cloned())
            .collect();
        if let Some(stray) = done.iter().find(|key| !planned.contains(*key)) {
            return Err(RunError::OtherSelection {
                path: plan.csv.clone(),
                unit: stray.replace('|', " ").trim_end().to_string(),
            });
        }
        let failures = rows
            .iter()
            .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
            .count();
        (
            CsvReport::append(locked, plan.provenance.clone()),
            done,
            failures,
        )
    } else {
        (
            CsvReport::create(locked, plan.provenance.clone()).map_err(csv_error)?,
            HashSet::new(),
            0,
        )
    };
    let todo: Vec<&UnitId> = plan
        .units
        .iter()
        .filter(|unit| !done.contains(&unit.key(&plan.settings)))
        .collect();
    let resumed = plan.units.len() - todo.len();
    watch.start(plan.units.len() as u64, resumed as u64);
    let progress = |position: u64, length: u64| watch.inputs(position, length);
    let mut reports_done = Vec::with_capacity(todo.len());
    // Every worker takes the run's settings once, as it starts (the first one here).
    let mut worker = started;
    if let Some(first) = worker.as_mut() {
        first
            .send_settings(&plan.settings)
            .map_err(RunError::Worker)?;
    }
    for unit in group_widths(&todo, &plan.settings) {
        watch.unit(&unit.label());
        let rows = unit.rows();
        let reports: Vec<UnitReport> = match (&plan.isolation, opened) {
            (None, Some(opened)) => run_rows_here(opened, &plan.settings, &unit, &progress)
                .into_iter()
                .map(|ran| {
                    if let Some(refused) = &ran.refused {
                        watch.refused(refused);
                    }
                    ran.report
                })
                .collect(),
            (None, None) => return Err(RunError::NoSession),
            (Some(isolation), _) => {
                if worker.is_none() {
                    let choice = DeviceChoice {
                        vulkan: plan.settings.path == KernelPath::Vulkan,
                        platform: plan.platform.clone(),
                        device: plan.device.clone(),
                    };
                    let (mut started, _) = Worker::open(&isolation.executable, &choice)
                        .map_err(RunError::WorkerStart)?;
                    started
                        .send_settings(&plan.settings)
                        .map_err(RunError::Worker)?;
                    worker = Some(started);
                }
                let running = worker.as_mut().expect("started above");
                let mut on_progress = |position: u64, length: u64| progress(position, length);
                // A group does the work of one unit per width: its time-out is theirs together.
                let timeout = isolation.unit_timeout * rows.len() as u32;
                let outcomes = running.run_rows(&unit, rows.len(), timeout, &mut on_progress);
                let (reports, worker_lost) =
                    rows_from_outcomes(&rows, outcomes, &plan.settings, isolation.unit_timeout);
                if worker_lost {
                    worker = None;
                }
                reports
            }
        };
        for report in reports {
            let report = no_pass_without_inputs(report, plan.settings.shard);
            csv.write(&report, facts).map_err(csv_error)?;
            reports_done.push(report);
            watch.unit_done();
        }
    }
    Ok(Results {
        units: reports_done,
        resumed,
        resumed_failures,
    })
}

/// The rows of a unit run in a worker, from what the worker sent (`outcomes`, as
/// [`Worker::run_rows`] returns them): its reports, then, where the worker crashed or hung
/// before reporting every row, each unreported row marked as the crash or time-out (the group
/// shared the worker's fate). `true` where the worker is gone.
fn rows_from_outcomes(
    rows: &[UnitId],
    outcomes: Vec<Outcome>,
    settings: &RunSettings,
    unit_timeout: Duration,
) -> (Vec<UnitReport>, bool) {
    let mut reports = Vec::with_capacity(rows.len());
    for outcome in outcomes {
        let (status, note) = match outcome {
            Outcome::Report(report) => {
                reports.push(*report);
                continue;
            }
            Outcome::Crashed(how) => (Status::Crash, format!("crashed: {how}")),
            // A group of widths shares one limit: the units' limits added up.
            Outcome::TimedOut if rows.len() > 1 => (
                Status::Timeout,
                format!(
                    "the {} widths run together did not finish within {}s (--unit-timeout {}s each); the worker was killed",
                    rows.len(),
                    unit_timeout.as_secs() * rows.len() as u64,
                    unit_timeout.as_secs()
                ),
            ),
            Outcome::TimedOut => (
                Status::Timeout,
                format!(
                    "did not finish within --unit-timeout {}s; the worker was killed",
                    unit_timeout.as_secs()
                ),
            ),
        };
        for row in &rows[reports.len().min(rows.len())..] {
            reports.push(row.lost(settings, status, note.clone()));
        }
        return (reports, true);
    }
    (reports, false)
}

/// What every row of a CSV being resumed must hold to be this run's: the run's columns
/// (`merge::RUN_COLUMNS`) and the shard.
fn expected_columns(plan: &Plan, facts: &RunFacts) -> Vec<(&'static str, String)> {
    let mut expected = vec![
        ("seed", format!("{:#x}", facts.seed)),
        ("device", facts.device.clone()),
        ("driver_version", facts.driver_version.clone()),
        ("clacc_version", env!("CARGO_PKG_VERSION").to_string()),
        ("shard", plan.provenance.shard.clone()),
        (
            "requested_inputs",
            plan.provenance.requested_inputs.to_string(),
        ),
        ("options", plan.provenance.options.clone()),
        // A run in parts (`clacc certify`) plans more units than each part holds.
        ("planned_units", plan.provenance.planned_units.to_string()),
    ];
    expected.retain(|(name, _)| crate::report::COLUMNS.contains(name));
    expected
}

/// A unit that judged nothing does not pass: in a shard it is the shard's empty row (marked so,
/// for `clacc merge`); in a whole run it is `skip` when the spec leaves every input undefined
/// and an error otherwise.
fn no_pass_without_inputs(mut report: UnitReport, shard: Shard) -> UnitReport {
    if report.status == Status::Pass && report.stats.inputs == 0 {
        if shard != Shard::WHOLE {
            report.note = EMPTY_SHARD_NOTE.to_string();
        } else if report.stats.undefined > 0 {
            report.status = Status::Skip;
            report.note = ALL_UNDEFINED_NOTE.to_string();
        } else {
            report.status = Status::Error;
            report.note = NOTHING_JUDGED_NOTE.to_string();
        }
    }
    report
}

/// How a worker process ended without an error of its own.
pub enum WorkerEnd {
    /// The parent closed stdin.
    Done,
    /// The device did not open; the parent has the reason and says it.
    DeviceRefused,
}

/// The worker process's loop: open the device the parent names and describe it, then take
/// the settings and run units until the parent closes stdin. A refused module's build log goes
/// to `on_refused` (the worker's stderr is the parent's).
pub fn serve_worker(on_refused: &dyn Fn(&RefusedBuild)) -> Result<WorkerEnd, RunError> {
    let mut output = isolate::WorkerOutput::take_stdout().map_err(RunError::Worker)?;
    let mut input = std::io::BufReader::new(std::io::stdin());
    let choice = isolate::read_choice(&mut input).map_err(RunError::Worker)?;
    let path = if choice.vulkan {
        KernelPath::Vulkan
    } else {
        KernelPath::Spirv
    };
    let opened = open_device(path, choice.platform.as_deref(), choice.device.as_deref());
    let answer = match &opened {
        Ok(Opened::Opencl(session)) => Ok(Some(DeviceDescription::of(session.info.clone()))),
        Ok(Opened::Vulkan(_)) => Ok(None),
        Err(error) => Err(error.to_string()),
    };
    output.device(&answer).map_err(RunError::Worker)?;
    let Ok(opened) = opened else {
        return Ok(WorkerEnd::DeviceRefused);
    };
    let Some(settings) = isolate::read_settings(&mut input).map_err(RunError::Worker)? else {
        return Ok(WorkerEnd::Done);
    };
    let output = std::cell::RefCell::new(&mut output);
    while let Some(unit) = isolate::read_unit(&mut input).map_err(RunError::Worker)? {
        let progress = |position: u64, length: u64| {
            let _ = output.borrow_mut().progress(position, length);
        };
        for ran in run_rows_here(&opened, &settings, &unit, &progress) {
            if let Some(refused) = &ran.refused {
                on_refused(refused);
            }
            output
                .borrow_mut()
                .report(&ran.report)
                .map_err(RunError::Worker)?;
        }
    }
    Ok(WorkerEnd::Done)
}

/// Opens the device `--platform` and `--device` name for a run of `path`: a Vulkan device for
/// the vulkan path (`--device` picks among the Vulkan devices), an OpenCL device for the others.
pub fn open_device(
    path: KernelPath,
    platform: Option<&str>,
    device: Option<&str>,
) -> Result<Opened, RunError> {
    if path == KernelPath::Vulkan {
        let devices = crate::device::vulkan::enumerate().map_err(DeviceError::from)?;
        let info = crate::run::vulkan::select(&devices, device)?.clone();
        let device = crate::device::vulkan::VulkanDevice::open(&info).map_err(DeviceError::from)?;
        return Ok(Opened::Vulkan(device));
    }
    let devices = crate::device::opencl::enumerate()?;
    let info = crate::device::opencl::select(&devices, platform, device)?.clone();
    Ok(Opened::Opencl(Session::open(info)?))
}

/// The units of a run: every selected function × type × width, in registry order.
pub fn ulp_units(
    functions: &[&registry::Function],
    types: &[FloatType],
    widths: &[u32],
) -> Vec<UnitId> {
    let mut units = Vec::new();
    for function in functions {
        for element in types {
            // The geometric instructions take widths 1 to 4 only.
            for width in widths
                .iter()
                .filter(|w| function.shape.widths().contains(w))
            {
                units.push(UnitId::Ulp {
                    function: function.name.to_string(),
                    element: *element,
                    width: *width,
                });
            }
        }
    }
    units
}

/// The edge-case units: every function with edge-case rules in the run's text (`environment`,
/// `revision`) among `functions` or named in `edge_only` (functions with edge-case rules and no
/// ULP row), × type × the widths its cases run at.
pub fn edge_units(
    functions: &[&registry::Function],
    edge_only: &[String],
    types: &[FloatType],
    widths: &[u32],
    (environment, revision): crate::spec::table::Text,
) -> Vec<UnitId> {
    let mut units = Vec::new();
    for name in crate::spec::edge_table::functions_in(environment, revision) {
        let selected =
            functions.iter().any(|f| f.name == name) || edge_only.iter().any(|f| f == name);
        if !selected {
            continue;
        }
        for element in types {
            for width in crate::run::edge::widths_for(name, *element, widths) {
                units.push(UnitId::Edge {
                    function: name.to_string(),
                    element: *element,
                    width,
                });
            }
        }
    }
    units
}

/// The path of the running executable, for workers.
pub fn current_executable() -> Result<PathBuf, RunError> {
    std::env::current_exe().map_err(RunError::Executable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::table::{Judging, Profile};

    fn settings(shard: Shard) -> RunSettings {
        RunSettings {
            judging: Judging::Table(Profile::Full),
            spec: crate::spec::table::Revision::Spec2026,
            path: crate::spec::environment::KernelPath::Spirv,
            inputs: 10,
            explicit_cases: None,
            range: None,
            seed: 1,
            build_options: String::new(),
            threads: 1,
            exhaustive: false,
            shard,
            user_kernels: Vec::new(),
            correctly_rounded_divide_sqrt: false,
            denorms_are_zero: false,
            device_only: false,
            work_group: crate::run::WorkGroup::default(),
            extension_probe: None,
            vulkan_modes: Vec::new(),
        }
    }

    fn ulp(function: &str, width: u32) -> UnitId {
        UnitId::Ulp {
            function: function.into(),
            element: FloatType::Float,
            width,
        }
    }

    #[test]
    fn consecutive_widths_of_a_function_run_as_one_group_and_geometric_ones_alone() {
        let mut whole = settings(Shard::WHOLE);
        let edge = UnitId::Edge {
            function: "sin".into(),
            element: FloatType::Float,
            width: 1,
        };
        let double_sin = UnitId::Ulp {
            function: "sin".into(),
            element: FloatType::Double,
            width: 1,
        };
        let units = [
            ulp("sin", 1),
            ulp("sin", 3),
            ulp("sin", 16),
            double_sin.clone(),
            ulp("exp", 2),
            ulp("length", 2),
            ulp("length", 4),
            edge.clone(),
        ];
        let refs: Vec<&UnitId> = units.iter().collect();
        let group = |function: &str, element, widths: Vec<u32>| UnitId::UlpWidths {
            function: function.into(),
            element,
            widths,
        };
        assert_eq!(
            group_widths(&refs, &whole),
            [
                group("sin", FloatType::Float, vec![1, 3, 16]),
                group("sin", FloatType::Double, vec![1]),
                group("exp", FloatType::Float, vec![2]),
                ulp("length", 2),
                ulp("length", 4),
                edge,
            ]
        );
        // A group's rows are its widths' own units, in order.
        assert_eq!(
            group("sin", FloatType::Float, vec![1, 3, 16]).rows(),
            [ulp("sin", 1), ulp("sin", 3), ulp("sin", 16)]
        );
        // A user's module has one width: its units run alone.
        whole.user_kernels.push(crate::run::UserKernel {
            function: "sin".into(),
            path: "sin.spv".into(),
            code: crate::run::UserCode::Spirv(Vec::new()),
        });
        let sins: Vec<&UnitId> = units[..2].iter().collect();
        assert_eq!(group_widths(&sins, &whole), [ulp("sin", 1), ulp("sin", 3)]);
    }

    #[test]
    fn a_crash_or_timeout_marks_every_width_the_worker_did_not_report() {
        let whole = settings(Shard::WHOLE);
        let rows = [ulp("sin", 1), ulp("sin", 2), ulp("sin", 4)];
        let reported = |width| {
            Outcome::Report(Box::new(ulp("sin", width).lost(
                &whole,
                Status::Pass,
                String::new(),
            )))
        };
        let timeout = Duration::from_secs(7);
        let (reports, lost) = rows_from_outcomes(
            &rows,
            vec![reported(1), Outcome::Crashed("signal 11".into())],
            &whole,
            timeout,
        );
        let summary: Vec<(u32, Status, String)> = reports
            .iter()
            .map(|r| (r.width, r.status, r.note.clone()))
            .collect();
        assert!(lost);
        assert_eq!(
            summary,
            [
                (1, Status::Pass, String::new()),
                (2, Status::Crash, "crashed: signal 11".to_string()),
                (4, Status::Crash, "crashed: signal 11".to_string()),
            ]
        );
        let (reports, lost) = rows_from_outcomes(&rows, vec![Outcome::TimedOut], &whole, timeout);
        assert!(lost);
        assert_eq!(reports.len(), 3);
        assert!(reports.iter().all(|r| r.status == Status::Timeout
            && r.note == "the 3 widths run together did not finish within 21s (--unit-timeout 7s each); the worker was killed"));
        let (reports, _) = rows_from_outcomes(&rows[..1], vec![Outcome::TimedOut], &whole, timeout);
        assert_eq!(
            reports[0].note,
            "did not finish within --unit-timeout 7s; the worker was killed"
        );
        let (reports, lost) = rows_from_outcomes(
            &rows,
            vec![reported(1), reported(2), reported(4)],
            &whole,
            timeout,
        );
        assert!(!lost);
        assert!(reports.iter().all(|r| r.status == Status::Pass));
    }

    #[test]
    fn a_unit_that_judged_nothing_never_passes() {
        let unit = UnitId::Ulp {
            function: "sin".into(),
            element: FloatType::Float,
            width: 1,
        };
        let whole = settings(Shard::WHOLE);
        let empty = unit.lost(&whole, Status::Pass, String::new());
        let judged = no_pass_without_inputs(empty.clone(), Shard::WHOLE);
        assert_eq!(judged.status, Status::Error);
        assert_eq!(judged.note, NOTHING_JUDGED_NOTE);
        // In a shard that holds none of the unit's inputs: a marked empty row.
        let shard = Shard { index: 1, count: 2 };
        let row = no_pass_without_inputs(empty.clone(), shard);
        assert_eq!(
            (row.status, row.note.as_str()),
            (Status::Pass, EMPTY_SHARD_NOTE)
        );
        // A unit that judged inputs, and a skip, are left as they are.
        let mut measured = empty.clone();
        measured.stats.inputs = 5;
        assert_eq!(
            no_pass_without_inputs(measured, Shard::WHOLE).status,
            Status::Pass
        );
        // Every input undefined (nan under relaxed math): does not apply.
        let mut undefined = empty.clone();
        undefined.stats.undefined = 200;
        let row = no_pass_without_inputs(undefined, Shard::WHOLE);
        assert_eq!(
            (row.status, row.note.as_str()),
            (Status::Skip, ALL_UNDEFINED_NOTE)
        );
        let skipped = unit.lost(&whole, Status::Skip, "no double".into());
        assert_eq!(
            no_pass_without_inputs(skipped, Shard::WHOLE).status,
            Status::Skip
        );
    }
}
