//! The clacc command line. Exit codes: 0 every unit passed (or was skipped), 1 a unit failed or
//! could not be measured, 2 a usage or environment error.

use clacc::device::{self, DeviceInfo, Session};
use clacc::fp::FloatType;
use clacc::kernel::{self, KernelSpec};
use clacc::registry::{self, Function};
use clacc::report::{self, CsvReport, RunFacts, Status};
use clacc::run::{self, RunSettings};
use clacc::runtime;
use clacc::sweep;
use clacc::table::Profile;
use clap::{Args, Parser, Subcommand};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Accuracy table: full (Table 3), embedded (Table 4), or auto (the device's CL_DEVICE_PROFILE).
    #[arg(long, default_value = "auto")]
    profile: String,
    /// Inputs per unit, special values included.
    #[arg(long, default_value_t = 65536)]
    inputs: usize,
    /// Run exactly these inputs instead of the sweep: one case per line, C99 hex floats,
    /// comma-separated arguments, `#` comments.
    #[arg(long)]
    input_file: Option<PathBuf>,
    /// Seed of the random inputs (decimal or 0x hex).
    #[arg(long, value_parser = parse_seed)]
    seed: Option<u64>,
    /// Where to write the CSV results.
    #[arg(long, default_value = "clacc-results.csv")]
    csv: PathBuf,
    /// Threads computing references (default: every core).
    #[arg(long)]
    threads: Option<usize>,
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
                    registry::known_names().join(", ")
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
        return Ok(kernel::WIDTHS.to_vec());
    }
    names
        .iter()
        .map(|name| match name.parse::<u32>() {
            Ok(width) if kernel::WIDTHS.contains(&width) => Ok(width),
            _ => usage(format!(
                "unknown width `{name}`; use 1, 2, 3, 4, 8, 16 or all"
            )),
        })
        .collect()
}

fn select_profile(text: &str, device: &DeviceInfo) -> Result<Profile, UsageError> {
    match text {
        "auto" => Profile::parse(&device.profile).map_or_else(
            || usage(format!("device reports an unknown profile `{}`; pass --profile full or embedded", device.profile)),
            Ok,
        ),
        "relaxed" => usage("--profile relaxed (Table 5, -cl-fast-relaxed-math) is not supported yet; use full or embedded"),
        other => Profile::parse(other)
            .map_or_else(|| usage(format!("unknown profile `{other}`; use full, embedded or auto")), Ok),
    }
}

fn open_device(args: &DeviceArgs) -> Result<DeviceInfo, UsageError> {
    let devices = device::enumerate().map_err(|e| UsageError(e.to_string()))?;
    device::select(&devices, args.platform.as_deref(), args.device.as_deref())
        .cloned()
        .map_err(|e| UsageError(e.to_string()))
}

fn print_devices() -> Result<ExitCode, UsageError> {
    let devices = device::enumerate().map_err(|e| UsageError(e.to_string()))?;
    if devices.is_empty() {
        return usage("the OpenCL loader sees no platform; run scripts/setup to install the Intel CPU runtime");
    }
    let default = device::select(&devices, None, None).ok().map(|d| d.id);
    for info in &devices {
        let fp = |config: Option<device::FpConfig>| {
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
        println!("    float          {}", fp(Some(info.single_fp)));
        println!("    double         {}", fp(info.double_fp));
        println!("    half           {}", fp(info.half_fp));
        println!("    address bits   {}", info.address_bits);
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
    if !std::io::stderr().is_terminal() {
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

fn run_checks(args: &RunArgs) -> Result<ExitCode, UsageError> {
    let functions = select_functions(&args.selection.function)?;
    let widths = select_widths(&args.selection.width)?;
    if args.inputs == 0 {
        return usage("--inputs must be at least 1");
    }
    let explicit_cases = match &args.input_file {
        Some(path) => Some(sweep::parse_input_file(path).map_err(UsageError)?),
        None => None,
    };
    let info = open_device(&args.device)?;
    let types = select_types(&args.selection.types, Some(&info))?;
    let profile = select_profile(&args.profile, &info)?;
    let seed = args.seed.unwrap_or(sweep::DEFAULT_SEED);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let facts = RunFacts {
        seed,
        device: format!("{} / {}", info.platform_name, info.name),
        driver_version: info.driver_version.clone(),
        build_options: String::new(),
    };
    let mut csv = CsvReport::create(&args.csv)
        .map_err(|e| UsageError(format!("cannot write --csv {}: {e}", args.csv.display())))?;
    eprintln!(
        "clacc {}: {} (driver {}), profile {}, seed {:#x}, {} inputs per unit",
        env!("CARGO_PKG_VERSION"),
        facts.device,
        facts.driver_version,
        profile.name(),
        seed,
        args.inputs
    );
    let session = Session::open(info).map_err(|e| UsageError(e.to_string()))?;
    let settings = RunSettings {
        profile,
        inputs: args.inputs,
        explicit_cases,
        seed,
        build_options: facts.build_options.clone(),
        threads,
    };
    let (_bars, overall, unit_bar) = progress_bars();
    overall.set_length((functions.len() * types.len() * widths.len()) as u64);
    let mut units = Vec::new();
    for function in &functions {
        for element in &types {
            for width in &widths {
                unit_bar.set_prefix(format!("{} {element} w{width}", function.name));
                let unit =
                    run::run_unit(&session, &settings, function, *element, *width, &unit_bar);
                csv.write(&unit, &facts).map_err(|e| {
                    UsageError(format!("cannot write --csv {}: {e}", args.csv.display()))
                })?;
                units.push(unit);
                overall.inc(1);
            }
        }
    }
    unit_bar.finish_and_clear();
    overall.finish_and_clear();
    print!("{}", report::summary(&units, &facts, &args.csv));
    let failed = units
        .iter()
        .any(|u| matches!(u.status, Status::Fail | Status::Error));
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn main() -> ExitCode {
    runtime::reexec_with_local_runtime();
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Some(Command::Devices) => print_devices(),
        Some(Command::Kernels(args)) => emit_kernels(args),
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
