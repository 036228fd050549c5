//! The clacc command line. Exit codes: 0 every unit passed (or was skipped), 1 a unit failed or
//! could not be measured, 2 a usage or environment error.

use clacc::device::runtime;
use clacc::device::{self, DeviceInfo, Session};
use clacc::kernel::{self, KernelSpec};
use clacc::num::fp::FloatType;
use clacc::report::merge;
use clacc::report::{self, Kind, RunFacts, Status};
use clacc::run::campaign::{self, Isolation, Plan};
use clacc::run::{RunSettings, Shard, UserKernel};
use clacc::spec::registry::{self, Function};
use clacc::spec::table::{Profile, Revision};
use clacc::sweep;
use clap::{Args, Parser, Subcommand};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "clacc",
    version,
    about = "Checks an OpenCL device's floating-point accuracy against the OpenCL SPIR-V Environment Specification",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// List every OpenCL platform and device, and whether clacc can use it.
    Devices,
    /// Write the SPIR-V modules clacc would send to the driver (.spv and .spvasm).
    Kernels(KernelArgs),
    /// Combine the CSVs of a sharded run into what one unsharded run writes.
    Merge(MergeArgs),
    /// Compare the result CSVs of several devices: max error per unit and device, marked where a
    /// device fails or differs from the others by more than --margin ulp.
    Compare(clacc::report::compare::CompareArgs),
    /// Check everything that applies to the device (every kind, function, type and width, its
    /// profile, Table 5, the build options it honours) into one CSV, and give a verdict.
    Certify(Box<RunArgs>),
    /// List every cell that differs between the 2017 and the 2026 text of the spec (Tables
    /// 3, 4, 5 and the edge-case rules): why a verdict changes with --spec.
    SpecDiff {
        /// Print a Markdown table (what README.md shows) instead of aligned columns.
        #[arg(long)]
        markdown: bool,
    },
    /// (internal) run units sent by a parent clacc process.
    #[command(hide = true)]
    Worker,
    /// (internal) build one SPIR-V module on the device, in a process that may die: exit 0
    /// built, 3 refused (the reason on stdout). How extensions are probed on a device without
    /// cl_khr_spirv_queries.
    #[command(hide = true)]
    ProbeBuild {
        module: PathBuf,
        #[arg(long)]
        name: String,
    },
}

#[derive(Args)]
struct MergeArgs {
    /// The shards' CSV files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Where the merged CSV goes.
    #[arg(long)]
    csv: PathBuf,
    /// Replace an existing --csv that is not a clacc CSV.
    #[arg(long)]
    force: bool,
}

#[derive(Args, Clone)]
struct DeviceArgs {
    /// Platform by index or name substring (e.g. `0`, `Intel`, `Portable`).
    #[arg(long, global = true)]
    platform: Option<String>,
    /// Device by index within the platform or name substring.
    #[arg(long, global = true)]
    device: Option<String>,
}

#[derive(Args, Clone)]
struct SelectionArgs {
    /// Functions to check, comma-separated (`sin,cos,OpFAdd`); default every function clacc knows.
    #[arg(long, value_delimiter = ',')]
    function: Vec<String>,
    /// Element types: half, float, double (comma-separated); default every type the device supports.
    #[arg(long = "type", value_delimiter = ',')]
    types: Vec<String>,
    /// Vector widths: 1, 2, 3, 4, 8, 16 or `all` (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    width: Vec<String>,
}

#[derive(Args, Clone)]
struct RunArgs {
    #[command(flatten)]
    device: DeviceArgs,
    #[command(flatten)]
    selection: SelectionArgs,
    /// Accuracy table: full (Table 3), embedded (Table 4), relaxed (kernels built with
    /// -cl-fast-relaxed-math, judged by Table 5 and else by the device's table), or auto (the
    /// device's CL_DEVICE_PROFILE).
    #[arg(long, default_value = "auto")]
    profile: String,
    /// Which text of the spec judges: 2026 (the "OpenCL Numerical Compliance" chapter as
    /// maintained today, what devices are certified against) or 2017 (the text clacc first
    /// transcribed). Chooses Tables 3, 4, 5 and the edge cases; `clacc spec-diff` lists what
    /// differs.
    #[arg(long, default_value = "2026", value_parser = parse_spec)]
    spec: Revision,
    /// Inputs per unit, special values included (at most 2^40).
    #[arg(long, default_value = "65536", value_parser = parse_inputs, allow_hyphen_values = true)]
    inputs: usize,
    /// Run exactly these inputs instead of the sweep: one case per line, C99 hex floats,
    /// comma-separated arguments, `#` comments.
    #[arg(long)]
    input_file: Option<PathBuf>,
    /// Run exactly one input: its arguments as C99 hex floats, comma-separated (what a
    /// failure's reproduce line uses).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "input_file")]
    input: Option<String>,
    /// Seed of the random inputs (decimal or 0x hex).
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// Where to write the CSV results.
    #[arg(long, default_value = "clacc-results.csv")]
    csv: PathBuf,
    /// Every input where it fits: every half for one- and two-argument half functions, every
    /// float for one-argument float functions (the others keep the sweep).
    #[arg(long)]
    exhaustive: bool,
    /// Run a deterministic 1/N of the work: chunk k of every unit belongs to shard k mod N.
    /// `clacc merge` combines the shards' CSVs.
    #[arg(long, value_parser = parse_shard, default_value = "0/1", allow_hyphen_values = true)]
    shard: Shard,
    /// Run your own SPIR-V module for a function instead of clacc's (`sin=my_sin.spv`;
    /// repeatable): same entry point and buffers as clacc's kernels (see kernels/README.md),
    /// judged by the same table. Needs one --type and one --width.
    #[arg(long, value_name = "FUNCTION=FILE")]
    kernel: Vec<String>,
    /// Also write the results as JUnit XML (a testcase per CSV row) for CI systems.
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Also draw one SVG per unit into this folder: ULP error against input (one-argument
    /// functions) or a heat map over the two inputs' exponents, with the bound.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// What to check, comma-separated: ulp (accuracy against the ULP tables), edge (exact
    /// special-value results), conversion (OpFConvert, OpConvert*, correctly rounded or
    /// exact), extension (SPIR-V float8, float_controls2, arithmetic_fence); default: all.
    #[arg(long, value_delimiter = ',')]
    kind: Vec<String>,
    /// Options passed to the driver's clBuildProgram as they are, recorded in the CSV; they do
    /// not change which table judges (e.g. `-cl-fast-relaxed-math` judged by --profile full).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    build_options: String,
    /// Build with -cl-fp32-correctly-rounded-divide-sqrt (when the device reports
    /// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT): float divide and sqrt must be correctly rounded.
    #[arg(long)]
    correctly_rounded_divide_sqrt: bool,
    /// Build with -cl-denorms-are-zero: float subnormals may flush (the FTZ rules apply).
    #[arg(long)]
    denorms_are_zero: bool,
    /// Run the kernels and judge nothing: the device's own time, which scripts/bench compares
    /// with a full run's.
    #[arg(long)]
    device_only: bool,
    /// Keep the units already in --csv (from an interrupted run with the same options) and run
    /// only the rest, appending to it.
    #[arg(long)]
    resume: bool,
    /// Run units in this process instead of a worker process (a driver crash then ends the run).
    #[arg(long)]
    no_isolate: bool,
    /// Seconds a unit may take in its worker, all of it, before it is recorded as `timeout`.
    #[arg(long, default_value = "3600", value_parser = parse_seconds, allow_hyphen_values = true)]
    unit_timeout: u64,
    /// Threads computing references (default: every core).
    #[arg(long, value_parser = parse_threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Replace an existing --csv that is not a clacc CSV.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct KernelArgs {
    /// Folder to write the modules into.
    #[arg(long)]
    emit: PathBuf,
    #[command(flatten)]
    selection: SelectionArgs,
    /// Address bits of the modules (32 or 64).
    #[arg(long, default_value_t = 64)]
    address_bits: u32,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text)
        .ok_or_else(|| format!("`{text}` is not a shard: write I/N with 0 <= I < N, e.g. 3/8"))
}

/// The largest `--inputs`: 2^40 inputs per unit, far past any sweep that finishes, and small
/// enough that no count or index derived from it overflows.
const MAX_INPUTS: u64 = 1 << 40;

fn parse_inputs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("--inputs must be at least 1".to_string()),
        Ok(count) if count <= MAX_INPUTS => Ok(count as usize),
        Ok(_) => Err(format!(
            "`{text}` inputs per unit is more than clacc can address (at most 2^40 = {MAX_INPUTS}); use --exhaustive for every input, or --shard to spread a large sweep"
        )),
        Err(_) => Err(format!(
            "`{text}` is not a number of inputs: give a whole number from 1 to 2^40, e.g. --inputs 100000"
        )),
    }
}

fn parse_seconds(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("--unit-timeout must be at least 1 second".to_string()),
        Ok(seconds) if seconds <= 1 << 32 => Ok(seconds),
        _ => Err(format!(
            "`{text}` is not a number of seconds: give a whole number from 1 to 2^32, e.g. --unit-timeout 600"
        )),
    }
}

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count) if (1..=4096).contains(&count) => Ok(count),
        _ => Err(format!(
            "`{text}` is not a number of threads: give a whole number from 1 to 4096"
        )),
    }
}

fn parse_spec(text: &str) -> Result<Revision, String> {
    Revision::parse(text).ok_or_else(|| format!("`{text}` is not a revision: use 2017 or 2026"))
}

fn parse_seed(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    };
    parsed.map_err(|_| format!("`{text}` is not a seed: give a decimal or 0x-hex 64-bit integer"))
}

/// A usage or environment error: one line, exit 2.
struct UsageError(String);

fn usage<T>(message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(message.into()))
}

/// Every name `--function` takes: the registry's, then the edge-only functions.
fn known_function_names() -> String {
    let mut names = registry::known_names();
    names.extend(
        clacc::judge::edge::functions()
            .into_iter()
            .filter(|name| registry::find(name).is_none()),
    );
    names.join(", ")
}

/// Whether `name` is a conversion or extension unit's name (`convert_double_to_half`,
/// `float8_half_to_e4m3`), which `--function` selects like a function.
fn is_conversion_or_extension(name: &str) -> bool {
    clacc::run::conversion::Conversion::all()
        .iter()
        .any(|c| c.name() == name)
        || clacc::run::extension::ExtensionCheck::all()
            .iter()
            .any(|c| c.name() == name)
}

fn select_functions(names: &[String]) -> Result<Vec<&'static Function>, UsageError> {
    if names.is_empty() {
        return Ok(registry::FUNCTIONS.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            registry::find(name).ok_or_else(|| {
                UsageError(format!(
                    "unknown function `{name}`; known functions: {}",
                    known_function_names()
                ))
            })
        })
        .collect()
}

fn select_types(
    names: &[String],
    device: Option<&DeviceInfo>,
) -> Result<Vec<FloatType>, UsageError> {
    if names.is_empty() {
        return Ok(FloatType::ALL
            .into_iter()
            .filter(|t| device.is_none_or(|d| d.fp_config(*t).is_some()))
            .collect());
    }
    names
        .iter()
        .map(|name| {
            FloatType::parse(name).ok_or_else(|| {
                UsageError(format!("unknown type `{name}`; use half, float or double"))
            })
        })
        .collect()
}

fn select_widths(names: &[String]) -> Result<Vec<u32>, UsageError> {
    if names.iter().any(|n| n == "all") {
        return Ok(clacc::spec::signature::WIDTHS.to_vec());
    }
    names
        .iter()
        .map(|name| match name.parse::<u32>() {
            Ok(width) if clacc::spec::signature::WIDTHS.contains(&width) => Ok(width),
            _ => usage(format!(
                "unknown width `{name}`; use 1, 2, 3, 4, 8, 16 or all"
            )),
        })
        .collect()
}

fn select_profile(text: &str, device: &DeviceInfo) -> Result<Profile, UsageError> {
    match text {
        "auto" => Profile::parse(&device.profile).map_or_else(
            || {
                usage(format!(
                    "device reports an unknown profile `{}`; pass --profile full or embedded",
                    device.profile
                ))
            },
            Ok,
        ),
        // Relaxed judges by Table 5 and falls back to the device's own table.
        "relaxed" => select_profile("auto", device),
        other => Profile::parse(other).map_or_else(
            || {
                usage(format!(
                    "unknown profile `{other}`; use full, embedded or auto"
                ))
            },
            Ok,
        ),
    }
}

fn open_device(args: &DeviceArgs) -> Result<DeviceInfo, UsageError> {
    let devices = device::enumerate().map_err(|e| UsageError(e.to_string()))?;
    device::select(&devices, args.platform.as_deref(), args.device.as_deref())
        .cloned()
        .map_err(|e| UsageError(e.to_string()))
}

fn probe_build(
    device: &DeviceArgs,
    module: &std::path::Path,
    name: &str,
) -> Result<ExitCode, UsageError> {
    let info = open_device(device)?;
    let spirv = std::fs::read(module)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", module.display())))?;
    let session = Session::open(info).map_err(|e| UsageError(e.to_string()))?;
    match clacc::run::extension::build_in_this_process(&session, name, &spirv) {
        clacc::run::extension::IsolatedOutcome::Built => Ok(ExitCode::SUCCESS),
        clacc::run::extension::IsolatedOutcome::Refused(why) => {
            println!("{why}");
            Ok(ExitCode::from(3))
        }
        clacc::run::extension::IsolatedOutcome::Crashed(why) => {
            println!("{why}");
            Ok(ExitCode::from(4))
        }
    }
}

/// Probes by building each extension's minimal module in its own `clacc probe-build`
/// process, for devices that cannot be asked (no cl_khr_spirv_queries): a driver that dies on
/// an extension it does not know takes only that process with it.
fn isolated_builder(
    info: &DeviceInfo,
) -> impl Fn(&str, &[u8]) -> clacc::run::extension::IsolatedOutcome + '_ {
    use clacc::run::extension::IsolatedOutcome;
    move |name: &str, spirv: &[u8]| {
        let Ok(executable) = std::env::current_exe() else {
            return IsolatedOutcome::Crashed("cannot find clacc's own executable".to_string());
        };
        let Ok(dir) = tempfile_dir() else {
            return IsolatedOutcome::Crashed("cannot write a temporary module".to_string());
        };
        let path = dir.join(format!(
            "{}.spv",
            name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        ));
        if std::fs::write(&path, spirv).is_err() {
            return IsolatedOutcome::Crashed("cannot write a temporary module".to_string());
        }
        let output = std::process::Command::new(executable)
            .args([
                "probe-build",
                "--platform",
                &info.platform_index.to_string(),
                "--device",
                &info.device_index.to_string(),
                "--name",
                name,
            ])
            .arg(&path)
            .output();
        let _ = std::fs::remove_dir_all(&dir);
        match output {
            Ok(output) => match output.status.code() {
                Some(0) => IsolatedOutcome::Built,
                Some(3) => IsolatedOutcome::Refused(
                    String::from_utf8_lossy(&output.stdout).trim().to_string(),
                ),
                _ => IsolatedOutcome::Crashed(clacc::run::isolate::describe_exit(output.status)),
            },
            Err(error) => {
                IsolatedOutcome::Crashed(format!("cannot start clacc probe-build: {error}"))
            }
        }
    }
}

/// A fresh private folder under the system's temporary directory.
fn tempfile_dir() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "clacc-probe-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn print_devices() -> Result<ExitCode, UsageError> {
    let devices = device::enumerate().map_err(|e| UsageError(e.to_string()))?;
    if devices.is_empty() {
        return usage("the OpenCL loader sees no platform; run scripts/setup to install the Intel CPU runtime");
    }
    let default = device::select(&devices, None, None).ok().map(|d| d.id);
    for info in &devices {
        let fp = |config: Option<clacc::spec::fp_config::FpConfig>| {
            config.map_or("not supported".to_string(), |c| c.describe())
        };
        let usable = match info.unusable_reason() {
            None if Some(info.id) == default => "yes (default)".to_string(),
            None => "yes".to_string(),
            Some(reason) => format!("no: {reason}"),
        };
        println!(
            "[{}:{}] {} / {}",
            info.platform_index, info.device_index, info.platform_name, info.name
        );
        println!("    profile        {}", info.profile);
        println!("    version        {}", info.version);
        println!("    driver         {}", info.driver_version);
        println!(
            "    IL versions    {}",
            if info.il_versions.is_empty() {
                "no SPIR-V".to_string()
            } else {
                info.il_versions.join(" ")
            }
        );
        if let Some(entry_point) = info.il_entry_point() {
            println!("    IL entry point {}", entry_point.call_name());
        }
        println!("    float          {}", fp(Some(info.single_fp)));
        println!("    double         {}", fp(info.double_fp));
        println!("    half           {}", fp(info.half_fp));
        println!("    address bits   {}", info.address_bits);
        let builder = isolated_builder(info);
        let probe = clacc::run::extension::probe(info, Some(&builder));
        println!("    SPIR-V ext.    {}", probe.describe());
        println!("    usable         {usable}");
    }
    Ok(ExitCode::SUCCESS)
}

fn emit_kernels(args: &KernelArgs) -> Result<ExitCode, UsageError> {
    let functions = select_functions(&args.selection.function)?;
    let types = select_types(&args.selection.types, None)?;
    let widths = select_widths(&args.selection.width)?;
    if !kernel::ADDRESS_BITS.contains(&args.address_bits) {
        return usage(format!(
            "--address-bits {} is not 32 or 64",
            args.address_bits
        ));
    }
    std::fs::create_dir_all(&args.emit)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", args.emit.display())))?;
    let mut written = 0;
    for function in &functions {
        for element in &types {
            for width in &widths {
                let spec = KernelSpec {
                    instruction: function.instruction,
                    shape: function.shape,
                    element: *element,
                    width: *width,
                    address_bits: args.address_bits,
                };
                let words = kernel::build(&spec)
                    .map_err(|e| UsageError(format!("{}: {e}", spec.file_stem())))?;
                let base = args.emit.join(spec.file_stem());
                let write = |path: PathBuf, bytes: &[u8]| {
                    std::fs::write(&path, bytes)
                        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))
                };
                write(base.with_extension("spv"), &kernel::words_to_bytes(&words))?;
                write(
                    base.with_extension("spvasm"),
                    kernel::disassemble(&words).as_bytes(),
                )?;
                written += 1;
            }
        }
    }
    println!(
        "wrote {written} modules (.spv and .spvasm) to {}",
        args.emit.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn progress_bars() -> (MultiProgress, ProgressBar, ProgressBar) {
    let bars = MultiProgress::new();
    // Bars only for a person watching: quiet when the output goes to a file or a pipe.
    if !std::io::stdout().is_terminal() || !std::io::stderr().is_terminal() {
        bars.set_draw_target(ProgressDrawTarget::hidden());
    }
    let overall = bars.add(ProgressBar::new(0));
    overall.set_style(
        ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} units {elapsed_precise}")
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
    (bars, overall, unit)
}

fn select_kinds(names: &[String]) -> Result<Vec<Kind>, UsageError> {
    const AVAILABLE: [Kind; 4] = [Kind::Ulp, Kind::Edge, Kind::Conversion, Kind::Extension];
    if names.is_empty() {
        return Ok(AVAILABLE.to_vec());
    }
    names
        .iter()
        .map(|name| match Kind::parse(name) {
            Some(kind) if AVAILABLE.contains(&kind) => Ok(kind),
            _ => usage(format!(
                "unknown --kind `{name}`; use {}",
                AVAILABLE.map(Kind::name).join(", ")
            )),
        })
        .collect()
}

/// What one campaign did, for the summary files and the exit status.
struct CampaignOutcome {
    units: Vec<clacc::report::UnitReport>,
    facts: RunFacts,
    failed: bool,
}

fn run_checks(args: &RunArgs) -> Result<ExitCode, UsageError> {
    let outcome = run_campaign(args)?;
    let written = write_summary_files(args, &outcome.units, &outcome.facts);
    Ok(exit_after_run(outcome.failed, written))
}

/// The run's own status stays: a --junit or --plot that could not be written after the run is
/// reported, and turns only a passing run's exit into 2.
fn exit_after_run(failed: bool, written: Result<(), UsageError>) -> ExitCode {
    let unwritten = match written {
        Ok(()) => false,
        Err(UsageError(message)) => {
            eprintln!("clacc: error: {message} (the CSV holds every result)");
            true
        }
    };
    if failed {
        ExitCode::from(1)
    } else if unwritten {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether `a` and `b` name one file: the same inode when both exist, else the same absolute
/// path.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Checks where the results will go before anything runs: --csv must be a regular file that is
/// not one of the run's inputs and not another output, and an existing file clacc did not
/// write is replaced only with --force; --junit's folder and --plot must be writable.
fn check_destinations(args: &RunArgs) -> Result<(), UsageError> {
    let csv = &args.csv;
    merge::refuse_irregular(csv, "--csv").map_err(UsageError)?;
    let mut others: Vec<(&str, PathBuf)> = Vec::new();
    if let Some(path) = &args.input_file {
        others.push(("--input-file", path.clone()));
    }
    if let Some(path) = &args.junit {
        others.push(("--junit", path.clone()));
    }
    for spec in &args.kernel {
        if let Some((_, path)) = spec.split_once('=') {
            others.push(("--kernel", PathBuf::from(path)));
        }
    }
    for (flag, path) in &others {
        if same_file(csv, path) {
            return usage(format!(
                "--csv {} is also the {flag} file; give the CSV another path",
                csv.display()
            ));
        }
    }
    if let Some(junit) = &args.junit {
        for (flag, path) in others.iter().filter(|(flag, _)| *flag != "--junit") {
            if same_file(junit, path) {
                return usage(format!(
                    "--junit {} is also the {flag} file; give the JUnit report another path",
                    junit.display()
                ));
            }
        }
    }
    if !csv.exists() {
        check_writable_file(csv, "--csv")?;
    }
    let has_content = std::fs::metadata(csv).is_ok_and(|m| m.len() > 0);
    if has_content && !args.resume && !args.force && !merge::is_clacc_csv(csv) {
        return usage(format!(
            "--csv {} exists and is not a clacc CSV; give another --csv, or --force to replace it",
            csv.display()
        ));
    }
    if let Some(path) = &args.junit {
        check_writable_file(path, "--junit")?;
    }
    if let Some(dir) = &args.plot {
        std::fs::create_dir_all(dir).map_err(|e| {
            UsageError(format!(
                "--plot {}: cannot create the folder: {e}",
                dir.display()
            ))
        })?;
        check_writable_dir(dir, "--plot")?;
    }
    Ok(())
}

/// A file clacc will write later: a regular file or nothing yet, in a writable folder.
fn check_writable_file(path: &std::path::Path, flag: &str) -> Result<(), UsageError> {
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => usage(format!(
            "{flag} {} exists and is not a regular file; give a file path",
            path.display()
        )),
        Ok(_) => std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(|_| ())
            .map_err(|e| UsageError(format!("{flag} {}: cannot write it: {e}", path.display()))),
        Err(_) => {
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => std::path::Path::new("."),
            };
            if !parent.is_dir() {
                return usage(format!(
                    "{flag} {}: the folder {} does not exist",
                    path.display(),
                    parent.display()
                ));
            }
            check_writable_dir(parent, flag)
        }
    }
}

/// Writes and removes a probe file: permissions, read-only mounts and full quotas all show.
fn check_writable_dir(dir: &std::path::Path, flag: &str) -> Result<(), UsageError> {
    let probe = dir.join(format!(".clacc-write-check-{}", std::process::id()));
    let written = std::fs::write(&probe, b"");
    let _ = std::fs::remove_file(&probe);
    written.map_err(|e| UsageError(format!("{flag}: cannot write into {}: {e}", dir.display())))
}

/// Checks each --kernel module against the interface of clacc's kernel for its unit.
fn check_user_interfaces(
    user_kernels: &[UserKernel],
    selection: &SelectionArgs,
    address_bits: u32,
) -> Result<(), UsageError> {
    let (Some(element), Some(width)) = (
        selection.types.first().and_then(|t| FloatType::parse(t)),
        selection.width.first().and_then(|w| w.parse::<u32>().ok()),
    ) else {
        return Ok(());
    };
    for user in user_kernels {
        let spec = match registry::find(&user.function) {
            Some(function) => KernelSpec {
                instruction: function.instruction,
                shape: function.shape,
                element,
                width,
                address_bits,
            },
            // A geometric function: the kernel its edge units build.
            None => clacc::run::edge::kernel_spec(&user.function, element, width, address_bits)
                .expect("read_user_kernels accepts only functions with a kernel"),
        };
        clacc::kernel::interface::check(&spec, &user.spirv).map_err(|e| {
            UsageError(format!(
                "--kernel {}: does not fit {} {element} w{width} on this device: {e}",
                user.path, user.function
            ))
        })?;
    }
    Ok(())
}

/// Why a selection holds no unit, for the usage error.
fn why_nothing(args: &RunArgs, kinds: &[Kind], types: &[FloatType], widths: &[u32]) -> String {
    let names = &args.selection.function;
    let kind_list = kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(",");
    let per_function = kinds.contains(&Kind::Ulp) || kinds.contains(&Kind::Edge);
    if !names.is_empty() && !per_function {
        return format!(
            "--kind {kind_list} has no --function selection (conversions and extension checks run only without --function); drop --function, or add --kind ulp or edge"
        );
    }
    let edge_functions = clacc::judge::edge::functions();
    let mut reasons = Vec::new();
    for name in names {
        let in_table = registry::find(name);
        let edge_name = in_table.map_or(name.as_str(), |f| f.name);
        let has_edge = edge_functions.contains(&edge_name);
        if let Some(function) = in_table.filter(|_| kinds.contains(&Kind::Ulp)) {
            // The geometric instructions take a few widths only (length: 1 to 4, cross: 3, 4).
            let takes = function.shape.widths();
            if !widths.iter().any(|w| takes.contains(w)) {
                reasons.push(format!(
                    "{name} runs at widths {}; --width {} selects none",
                    takes
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(","),
                    widths
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                ));
            }
            continue;
        }
        if !has_edge {
            reasons.push(format!(
                "{name} has no edge-case rules (--kind {kind_list}); add --kind ulp"
            ));
        } else if !kinds.contains(&Kind::Edge) {
            reasons.push(format!(
                "{name} has only edge-case rules, no ULP table row; add --kind edge"
            ));
        } else {
            let runs_at: Vec<String> = types
                .iter()
                .flat_map(|t| {
                    clacc::run::edge::widths_for(edge_name, *t, &clacc::spec::signature::WIDTHS)
                })
                .map(|w| w.to_string())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            reasons.push(format!(
                "{name}'s edge cases run at widths {}; --width {} selects none",
                runs_at.join(","),
                widths
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
    }
    if reasons.is_empty() {
        format!(
            "the selection (--kind {kind_list}, --type {}) contains no unit",
            types.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
        )
    } else {
        reasons.join("; ")
    }
}

fn write_summary_files(
    args: &RunArgs,
    units: &[clacc::report::UnitReport],
    facts: &RunFacts,
) -> Result<(), UsageError> {
    if let Some(path) = &args.junit {
        clacc::report::junit::write(path, units, facts)
            .map_err(|e| UsageError(format!("cannot write --junit {}: {e}", path.display())))?;
    }
    if let Some(dir) = &args.plot {
        let written = clacc::report::plot::write_all(dir, units)
            .map_err(|e| UsageError(format!("cannot write --plot {}: {e}", dir.display())))?;
        println!("{} plots in {}", written.len(), dir.display());
    }
    Ok(())
}

/// `clacc certify`: everything that applies to the device, into one CSV, and a verdict —
/// every kind of check for every function, type and width at the device's own profile; Table 5
/// (-cl-fast-relaxed-math, which every device must accept); and float divide and sqrt built
/// with -cl-fp32-correctly-rounded-divide-sqrt where the device reports that it honours it.
fn certify(args: &RunArgs) -> Result<ExitCode, UsageError> {
    if !args.selection.function.is_empty()
        || !args.selection.types.is_empty()
        || !args.kind.is_empty()
    {
        return usage(
            "certify checks every function, type and kind; use the plain run for a selection",
        );
    }
    let info = open_device(&args.device)?;
    let mut base = args.clone();
    base.profile = "auto".to_string();
    base.selection.width = vec!["all".to_string()];
    let mut variants = vec![base.clone()];
    let mut relaxed = base.clone();
    relaxed.profile = "relaxed".to_string();
    relaxed.kind = vec!["ulp".to_string()];
    variants.push(relaxed);
    if info.single_fp.correctly_rounded_divide_sqrt() {
        let mut exact_division = base.clone();
        exact_division.kind = vec!["ulp".to_string()];
        exact_division.selection.function = registry::FUNCTIONS
            .iter()
            .filter(|f| f.correctly_rounded_by_option)
            .map(|f| f.name.to_string())
            .collect();
        exact_division.selection.types = vec!["float".to_string()];
        exact_division.correctly_rounded_divide_sqrt = true;
        variants.push(exact_division);
    }
    let mut units = Vec::new();
    let mut facts = None;
    for (index, variant) in variants.iter_mut().enumerate() {
        // The first variant starts (or resumes) the CSV; the others append their rows to it.
        variant.resume = args.resume || index > 0;
        let outcome = run_campaign(variant)?;
        units.extend(outcome.units);
        facts.get_or_insert(outcome.facts);
    }
    let facts = facts.expect("at least one variant ran");
    let written = write_summary_files(args, &units, &facts);
    let rows = merge::read(&args.csv).map_err(UsageError)?;
    let not_passing: Vec<String> = rows
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .map(|row| {
            format!(
                "{} {} {} w{} ({})",
                row.get("kind"),
                row.get("function"),
                row.get("type"),
                row.get("width"),
                row.get("status")
            )
        })
        .collect();
    println!();
    if not_passing.is_empty() {
        println!(
            "VERDICT: PASS — all {} units in {} passed or do not apply",
            rows.len(),
            args.csv.display()
        );
    } else {
        println!(
            "VERDICT: FAIL — {} of {} units in {} did not pass: {}",
            not_passing.len(),
            rows.len(),
            args.csv.display(),
            not_passing
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
                + if not_passing.len() > 20 { ", …" } else { "" }
        );
    }
    Ok(exit_after_run(!not_passing.is_empty(), written))
}

fn run_campaign(args: &RunArgs) -> Result<CampaignOutcome, UsageError> {
    for (flag, names) in [
        ("--function", &args.selection.function),
        ("--type", &args.selection.types),
        ("--width", &args.selection.width),
        ("--kind", &args.kind),
    ] {
        if names.iter().any(|name| name.trim().is_empty()) {
            return usage(format!(
                "{flag} has an empty name in its list (a stray comma?); write e.g. {flag} {}",
                match flag {
                    "--function" => "sin,cos",
                    "--type" => "float,half",
                    "--width" => "1,4",
                    _ => "ulp,edge",
                }
            ));
        }
    }
    let kinds = select_kinds(&args.kind)?;
    // Some functions have edge-case rules but no ULP row (the geometric ones): --function may
    // name them too.
    let edge_only = |name: &str| {
        registry::find(name).is_none() && clacc::judge::edge::functions().contains(&name)
    };
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
    let explicit_cases = match (&args.input_file, &args.input) {
        (Some(path), _) => Some(sweep::parse_input_file(path).map_err(UsageError)?),
        (None, Some(input)) => Some(vec![
            sweep::parse_case(input).map_err(|e| UsageError(format!("--input: {e}")))?
        ]),
        (None, None) => None,
    };
    let user_kernels = read_user_kernels(&args.kernel, &args.selection)?;
    check_destinations(args)?;
    let functions = if user_kernels.is_empty() || !args.selection.function.is_empty() {
        functions
    } else {
        user_kernels
            .iter()
            .filter_map(|k| registry::find(&k.function))
            .collect()
    };
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
    if explicit_cases.is_some()
        && !kinds.contains(&Kind::Ulp)
        && !kinds.contains(&Kind::Edge)
        && unit_names.is_empty()
    {
        return usage(
            "--input-file and --input give cases to ulp and edge units, or to the conversion or extension units --function names: add --kind ulp or edge, or name a unit (e.g. --function convert_double_to_half)",
        );
    }
    for user in &user_kernels {
        if !functions.iter().any(|f| f.name == user.function)
            && !edge_only_names.contains(&user.function)
        {
            return usage(format!(
                "--kernel {}: add {} to --function",
                user.path, user.function
            ));
        }
    }
    if args.resume && !args.csv.is_file() {
        eprintln!(
            "clacc: note: --resume: {} does not exist yet; starting a new run",
            args.csv.display()
        );
    }
    let info = open_device(&args.device)?;
    check_user_interfaces(&user_kernels, &args.selection, info.address_bits)?;
    let types = select_types(&args.selection.types, Some(&info))?;
    let profile = select_profile(&args.profile, &info)?;
    let relaxed = args.profile == "relaxed";
    if args.correctly_rounded_divide_sqrt && !info.single_fp.correctly_rounded_divide_sqrt() {
        return usage(format!(
            "--correctly-rounded-divide-sqrt: {} does not report CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, so -cl-fp32-correctly-rounded-divide-sqrt promises nothing there",
            info.name
        ));
    }
    let mut build_options: Vec<&str> = Vec::new();
    if relaxed {
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
    let seed = args.seed.unwrap_or(sweep::DEFAULT_SEED);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let facts = RunFacts {
        seed,
        device: format!("{} / {}", info.platform_name, info.name),
        driver_version: info.driver_version.clone(),
        build_options: build_options.join(" "),
        command: reproduce_prefix(&info, args),
        spec: args.spec,
    };
    let profile_text = if relaxed {
        format!("relaxed (Table 5, else {})", profile.name())
    } else {
        profile.name().to_string()
    };
    let exhaustive_text = if args.exhaustive {
        "exhaustive where it fits, else "
    } else {
        ""
    };
    let shard_text = if args.shard == Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {}", args.shard)
    };
    eprintln!(
        "clacc {}: {} (driver {}), spec {}, profile {profile_text}, seed {seed:#x}, {exhaustive_text}{} inputs per unit{shard_text}",
        env!("CARGO_PKG_VERSION"),
        facts.device,
        facts.driver_version,
        args.spec,
        args.inputs,
    );
    let mut provenance = report::Provenance {
        shard: args.shard.to_string(),
        requested_inputs: args.inputs as u64,
        options: report::options_text(
            args.exhaustive,
            explicit_cases.as_deref(),
            &user_kernels
                .iter()
                .map(|k| (k.function.clone(), k.spirv.clone()))
                .collect::<Vec<_>>(),
            args.device_only,
        ),
        planned_units: 0,
    };
    // A device without cl_khr_spirv_queries is probed as `clacc devices` does: one isolated
    // build per extension, so a driver that dies on one costs only that process.
    let extension_probe = kinds.contains(&Kind::Extension).then(|| {
        let builder = isolated_builder(&info);
        clacc::run::extension::probe(&info, Some(&builder))
    });
    let settings = RunSettings {
        profile,
        spec: args.spec,
        inputs: args.inputs,
        explicit_cases,
        exhaustive: args.exhaustive,
        shard: args.shard,
        seed,
        build_options: facts.build_options.clone(),
        threads,
        user_kernels,
        relaxed,
        correctly_rounded_divide_sqrt: args.correctly_rounded_divide_sqrt,
        denorms_are_zero: args.denorms_are_zero,
        device_only: args.device_only,
        extension_probe,
    };
    let isolation = if args.no_isolate {
        None
    } else {
        Some(Isolation {
            executable: campaign::current_executable().map_err(UsageError)?,
            unit_timeout: Duration::from_secs(args.unit_timeout),
        })
    };
    let info_for_units = info.clone();
    // In-process runs share one session; isolated runs open theirs in the worker.
    let session = match isolation {
        None => Some(Session::open(info).map_err(|e| UsageError(e.to_string()))?),
        Some(_) => None,
    };
    let mut units = Vec::new();
    if kinds.contains(&Kind::Ulp) {
        units.extend(campaign::ulp_units(&functions, &types, &widths));
    }
    if kinds.contains(&Kind::Edge) {
        let edge_only_selected: Vec<String> = if args.selection.function.is_empty() {
            clacc::judge::edge::functions()
                .into_iter()
                .filter(|f| edge_only(f))
                .map(str::to_string)
                .collect()
        } else {
            edge_only_names.clone()
        };
        units.extend(campaign::edge_units(
            &functions,
            &edge_only_selected,
            &types,
            &widths,
        ));
    }
    // Conversions and extension checks have no function selection of their own: they run when
    // no --function narrows the run.
    if args.selection.function.is_empty() && args.kernel.is_empty() {
        units.extend(campaign::conversion_and_extension_units(
            &info_for_units,
            kinds.contains(&Kind::Conversion),
            kinds.contains(&Kind::Extension),
            settings.extension_probe.as_ref(),
        ));
    } else if !unit_names.is_empty() {
        units.extend(
            campaign::conversion_and_extension_units(
                &info_for_units,
                kinds.contains(&Kind::Conversion),
                kinds.contains(&Kind::Extension),
                settings.extension_probe.as_ref(),
            )
            .into_iter()
            .filter(|unit| match unit {
                campaign::UnitId::Conversion { name, .. }
                | campaign::UnitId::Extension { name, .. } => unit_names.contains(name),
                _ => false,
            }),
        );
    }
    // A name given twice (`sin,sin`, `fadd,OpFAdd`) runs once.
    let mut seen = std::collections::HashSet::new();
    units.retain(|unit| seen.insert(unit.key(&settings)));
    if units.is_empty() {
        return usage(format!(
            "nothing to run: {}",
            why_nothing(args, &kinds, &types, &widths)
        ));
    }
    provenance.planned_units = units.len() as u64;
    let plan = Plan {
        units,
        provenance,
        settings,
        platform: args.device.platform.clone(),
        device: args.device.device.clone(),
        csv: args.csv.clone(),
        resume: args.resume,
        isolation,
    };
    let (_bars, overall, unit_bar) = progress_bars();
    let results =
        campaign::run(&plan, &facts, session.as_ref(), &overall, &unit_bar).map_err(UsageError)?;
    unit_bar.finish_and_clear();
    overall.finish_and_clear();
    print!("{}", report::summary(&results.units, &facts, &args.csv));
    if results.resumed > 0 {
        println!(
            "{} units were already in {} from an earlier run ({} of them not passing)",
            results.resumed,
            args.csv.display(),
            results.resumed_failures
        );
    }
    let failed = results.resumed_failures > 0
        || results
            .units
            .iter()
            .any(|u| !matches!(u.status, Status::Pass | Status::Skip));
    Ok(CampaignOutcome {
        units: results.units,
        facts,
        failed,
    })
}

/// `clacc --platform 0 --device 0 --profile full --seed 0x… [options]`: the conditions a
/// failure's reproduce line needs besides the unit and its input.
fn reproduce_prefix(info: &DeviceInfo, args: &RunArgs) -> String {
    let mut command = format!(
        "clacc --platform {} --device {} --profile {} --spec {}",
        info.platform_index, info.device_index, args.profile, args.spec
    );
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
    for kernel in &args.kernel {
        command.push_str(&format!(" --kernel {kernel}"));
    }
    command
}

/// Reads `--kernel FUNCTION=FILE` modules and refuses what would be unsafe to hand a driver
/// (drivers do not validate modules): not SPIR-V, or rejected by `spirv-val`.
fn read_user_kernels(
    specs: &[String],
    selection: &SelectionArgs,
) -> Result<Vec<UserKernel>, UsageError> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let single = |values: &[String]| values.len() == 1 && values[0] != "all";
    if !single(&selection.types) || !single(&selection.width) {
        return usage("--kernel needs exactly one --type and one --width (the module is built for one of each)");
    }
    let element = FloatType::parse(&selection.types[0]).ok_or_else(|| {
        UsageError(format!(
            "unknown type `{}`; use half, float or double",
            selection.types[0]
        ))
    })?;
    specs
        .iter()
        .map(|spec| {
            let (name, path) = spec.split_once('=').ok_or_else(|| {
                UsageError(format!(
                    "--kernel `{spec}`: write FUNCTION=FILE.spv, e.g. sin=my_sin.spv"
                ))
            })?;
            // The geometric functions have no ULP row but edge-case rules: their edge units
            // take a module too.
            let function = registry::find(name)
                .map(|f| f.name)
                .or_else(|| {
                    clacc::judge::edge::functions()
                        .into_iter()
                        .find(|f| *f == name)
                })
                .ok_or_else(|| {
                    UsageError(format!(
                        "--kernel `{spec}`: unknown function `{name}`; known functions: {}",
                        known_function_names()
                    ))
                })?;
            // A device file or FIFO would be read without end.
            if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
                return usage(format!(
                    "--kernel {path} is not a regular file; give a .spv module"
                ));
            }
            let spirv = std::fs::read(path)
                .map_err(|e| UsageError(format!("--kernel: cannot read {path}: {e}")))?;
            if spirv.len() < 20 || spirv.len() % 4 != 0 || spirv[..4] != [0x03, 0x02, 0x23, 0x07] {
                return usage(format!(
                    "--kernel {path}: not a SPIR-V module (no little-endian SPIR-V magic number)"
                ));
            }
            validate_with_spirv_val(path, element)?;
            Ok(UserKernel {
                function: function.to_string(),
                path: path.to_string(),
                spirv,
            })
        })
        .collect()
}

fn validate_with_spirv_val(path: &str, element: FloatType) -> Result<(), UsageError> {
    // spirv-val's OpenCL environment refuses Float16; half modules are checked as plain SPIR-V.
    let environment = if element == FloatType::Half {
        "spv1.0"
    } else {
        "opencl2.2"
    };
    match std::process::Command::new("spirv-val").args(["--target-env", environment, path]).output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => usage(format!(
            "--kernel {path}: spirv-val --target-env {environment} refuses it, so clacc will not hand it to a driver: {}",
            String::from_utf8_lossy(&output.stderr).trim().replace('\n', " ")
        )),
        Err(_) => {
            eprintln!("clacc: note: spirv-val not found (scripts/setup installs it): {path} goes to the driver unvalidated");
            Ok(())
        }
    }
}

fn merge_csvs(args: &MergeArgs) -> Result<ExitCode, UsageError> {
    merge::refuse_irregular(&args.csv, "--csv").map_err(UsageError)?;
    if let Some(input) = args.inputs.iter().find(|path| same_file(path, &args.csv)) {
        return usage(format!(
            "--csv {} is also one of the shards to merge ({}); give the merged CSV another path",
            args.csv.display(),
            input.display()
        ));
    }
    let has_content = std::fs::metadata(&args.csv).is_ok_and(|m| m.len() > 0);
    if has_content && !args.force && !merge::is_clacc_csv(&args.csv) {
        return usage(format!(
            "--csv {} exists and is not a clacc CSV; give another --csv, or --force to replace it",
            args.csv.display()
        ));
    }
    let inputs = args
        .inputs
        .iter()
        .map(|path| merge::read(path).map(|rows| (path.clone(), rows)))
        .collect::<Result<Vec<_>, String>>()
        .map_err(UsageError)?;
    let merged = merge::merge(&inputs).map_err(|e| UsageError(format!("merge: {e}")))?;
    merge::write(&args.csv, &merged).map_err(UsageError)?;
    let failing = merged
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .count();
    println!(
        "merged {} files into {} ({} units, {} not passing)",
        inputs.len(),
        args.csv.display(),
        merged.len(),
        failing
    );
    Ok(if failing > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn main() -> ExitCode {
    // Like other command-line tools, end quietly when a reader of our output goes away
    // (`clacc devices | head -1`) instead of panicking on the broken pipe.
    // SAFETY: setting a signal disposition before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    runtime::reexec_with_local_runtime();
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Some(Command::Devices) => print_devices(),
        Some(Command::Kernels(args)) => emit_kernels(args),
        Some(Command::Merge(args)) => merge_csvs(args),
        Some(Command::Compare(args)) => {
            clacc::report::compare::run(args).map_err(|error| UsageError(error.to_string()))
        }
        Some(Command::SpecDiff { markdown }) => {
            print!(
                "{}",
                clacc::spec::diff::render(Revision::Spec2017, Revision::Spec2026, *markdown)
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Certify(args)) => certify(args.as_ref()),
        Some(Command::ProbeBuild { module, name }) => probe_build(&cli.run.device, module, name),
        Some(Command::Worker) => match campaign::serve_worker() {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(message) => Err(UsageError(message)),
        },
        None => run_checks(&cli.run),
    };
    match outcome {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("clacc: error: {message}");
            ExitCode::from(2)
        }
    }
}
