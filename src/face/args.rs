//! The command line's flags (clap): what each one accepts, its default, and the one line a bad
//! value gets. The flags that name one of a few things (--kind, --type, --profile, --spec) are
//! enums here, parsed with the library's own spellings.

use crate::num::fp::FloatType;
use crate::report::shard::Shard;
use crate::report::Kind;
use crate::run::WorkGroup;
use crate::spec::environment::KernelPath;
use crate::spec::table::{Profile, Revision};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "clacc",
    version,
    about = "Checks an OpenCL device's floating-point accuracy against the OpenCL SPIR-V Environment Specification",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// List every OpenCL platform and device, and whether clacc can use it.
    Devices,
    /// Write the SPIR-V modules clacc would send to the driver (.spv and .spvasm).
    Kernels(KernelArgs),
    /// Combine the CSVs of a sharded run into what one unsharded run writes.
    Merge(MergeArgs),
    /// Compare the result CSVs of several devices: max error per unit and device, marked where a
    /// device fails or differs from the others by more than --margin ulp.
    Compare(CompareArgs),
    /// Check everything that applies to the device (every kind, function, type and width, its
    /// profile, Table 5, the build options it honours) into one CSV, and give a verdict.
    Certify(Box<CertifyArgs>),
    /// List every cell that differs between the 2017 and the 2026 text of the spec (Tables
    /// 3, 4, 5 and the edge-case rules): why a verdict changes with --spec. With --from and
    /// --to naming two kernel paths: between the texts that judge them (the OpenCL SPIR-V
    /// environment's and the OpenCL C chapter's, today's both).
    SpecDiff {
        /// The path whose text is the left column (spirv or opencl-c; default spirv).
        #[arg(long, default_value = "spirv", value_parser = ByName::<PathChoice>::new())]
        from: PathChoice,
        /// The path whose text is the right column (default spirv; the same path as --from
        /// compares its 2017 and 2026 text).
        #[arg(long, default_value = "spirv", value_parser = ByName::<PathChoice>::new())]
        to: PathChoice,
        /// Print a Markdown table (what docs/spec-revisions.md shows) instead of aligned columns.
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
        #[command(flatten)]
        device: DeviceArgs,
        module: PathBuf,
        #[arg(long)]
        name: String,
        /// What clBuildProgram is given (how a run checks --build-options before it starts).
        #[arg(long = "with-options", default_value = "", allow_hyphen_values = true)]
        options: String,
    },
}

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The shards' CSV files.
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// Where the merged CSV goes.
    #[arg(long)]
    pub(crate) csv: PathBuf,
    /// Replace an existing --csv that is not a clacc CSV.
    #[arg(long)]
    pub(crate) force: bool,
}

#[derive(Args, Clone, Debug)]
pub(crate) struct CompareArgs {
    /// Result CSVs of clacc runs, one or more per device (the device comes from each row; runs
    /// of one device that differ in seed, inputs, options, spec, versions or path are columns
    /// of their own).
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// Mark a device whose max error is more than this many ulp above the median of the other
    /// devices' max errors.
    #[arg(long, default_value_t = crate::report::compare::DEFAULT_MARGIN_ULP)]
    pub(crate) margin: f64,
    /// Also write the table as CSV.
    #[arg(long)]
    pub(crate) csv: Option<PathBuf>,
    /// Also write the table as an SVG image.
    #[arg(long)]
    pub(crate) svg: Option<PathBuf>,
    /// Replace an existing --csv or --svg that is not a table clacc compare wrote.
    #[arg(long)]
    pub(crate) force: bool,
}

/// The device a run uses; only the commands that open one take these (`clacc devices` lists
/// every device, and merge, compare, kernels and spec-diff use none).
#[derive(Args, Clone)]
pub(crate) struct DeviceArgs {
    /// Platform by index or name (a substring that names one platform, or its whole name),
    /// e.g. `0`, `Intel`, `rusticl`.
    #[arg(long)]
    pub(crate) platform: Option<String>,
    /// Device by index within the platform, or by name as --platform.
    #[arg(long)]
    pub(crate) device: Option<String>,
}

#[derive(Args, Clone)]
pub(crate) struct SelectionArgs {
    /// Functions to check, comma-separated (`sin,cos,OpFAdd`); default every function clacc knows.
    #[arg(long, value_delimiter = ',')]
    pub(crate) function: Vec<String>,
    /// Element types: half, float, double (comma-separated); default every type the device supports.
    #[arg(long = "type", value_delimiter = ',', value_parser = ByName::<TypeChoice>::new())]
    pub(crate) types: Vec<TypeChoice>,
    /// Vector widths: 1, 2, 3, 4, 8, 16 or `all` (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub(crate) width: Vec<String>,
}

#[derive(Args, Clone)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) device: DeviceArgs,
    #[command(flatten)]
    pub(crate) selection: SelectionArgs,
    /// Accuracy table: full (Table 3), embedded (Table 4), relaxed (kernels built with
    /// -cl-fast-relaxed-math, judged by Table 5 and else by the device's table), or auto (the
    /// device's CL_DEVICE_PROFILE).
    #[arg(long, default_value = "auto", value_parser = ByName::<ProfileChoice>::new())]
    pub(crate) profile: ProfileChoice,
    /// What to check, comma-separated: ulp (accuracy against the ULP tables), edge (exact
    /// special-value results), conversion (OpFConvert, OpConvert*, correctly rounded or
    /// exact), extension (SPIR-V float8, float_controls2, arithmetic_fence); default: all.
    #[arg(long, value_delimiter = ',', value_parser = ByName::<KindChoice>::new())]
    pub(crate) kind: Vec<KindChoice>,
    /// Run exactly these inputs instead of the sweep: one case per line, C99 hex floats,
    /// comma-separated arguments, `#` comments.
    #[arg(long)]
    pub(crate) input_file: Option<PathBuf>,
    /// Run exactly this input: its arguments as C99 hex floats, comma-separated; repeatable,
    /// each a case in order, as lines of --input-file (a failure's reproduce line gives a
    /// vector unit's every lane so).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "input_file")]
    pub(crate) input: Vec<String>,
    /// Run your own SPIR-V module for a function instead of clacc's (`sin=my_sin.spv`;
    /// repeatable): same entry point and buffers as clacc's kernels (see kernels/README.md),
    /// judged by the same table. Needs one --type and one --width.
    #[arg(long, value_name = "FUNCTION=FILE")]
    pub(crate) kernel: Vec<String>,
    /// How the kernels reach the device: spirv (SPIR-V modules, clCreateProgramWithIL), opencl-c
    /// (OpenCL C source built by the driver, judged by the OpenCL C specification's tables),
    /// both (every unit through each; extension units are SPIR-V only), or vulkan (compute
    /// shaders on a Vulkan device, judged by the Vulkan environment's tables; the only path a
    /// Vulkan device takes). Default: vulkan on a Vulkan device, spirv where the device takes
    /// SPIR-V, else opencl-c.
    #[arg(long, value_parser = ByName::<SourceChoice>::new())]
    pub(crate) source: Option<SourceChoice>,
    /// Build with -cl-fp32-correctly-rounded-divide-sqrt (when the device reports
    /// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT): float divide and sqrt must be correctly rounded.
    #[arg(long)]
    pub(crate) correctly_rounded_divide_sqrt: bool,
    /// Run the kernels and judge nothing: the device's own time, which scripts/bench compares
    /// with a full run's.
    #[arg(long)]
    pub(crate) device_only: bool,
    /// Draw and enumerate only inputs in [LO, HI]: `LO:HI` for every argument, or one range
    /// per argument, comma-separated (`0x1p-10:0x1p10,-1:1`); C99 hex floats or decimals.
    /// Special values outside it are left out. Applies to the ULP units' sweeps.
    #[arg(long, value_name = "LO:HI", value_parser = parse_range, allow_hyphen_values = true)]
    pub(crate) range: Option<crate::sweep::InputRanges>,
    #[command(flatten)]
    pub(crate) campaign: CampaignArgs,
}

/// A plain run reads the flags it shares with `clacc certify` as its own (`args.inputs`).
impl std::ops::Deref for RunArgs {
    type Target = CampaignArgs;
    fn deref(&self) -> &CampaignArgs {
        &self.campaign
    }
}

impl std::ops::DerefMut for RunArgs {
    fn deref_mut(&mut self) -> &mut CampaignArgs {
        &mut self.campaign
    }
}

/// `clacc certify`'s flags: the device and how the campaign runs; what it checks is not a
/// choice (every kind, function, type and width; the device's profile and Table 5).
#[derive(Args, Clone)]
pub(crate) struct CertifyArgs {
    #[command(flatten)]
    pub(crate) device: DeviceArgs,
    #[command(flatten)]
    pub(crate) campaign: CampaignArgs,
}

/// The flags a plain run and `clacc certify` share: the spec, the sweep, where the results go
/// and how units are run.
#[derive(Args, Clone)]
pub(crate) struct CampaignArgs {
    /// Which text of the spec judges: 2026 (the "OpenCL Numerical Compliance" chapter as
    /// maintained today, what devices are certified against) or 2017 (the text clacc first
    /// transcribed). Chooses Tables 3, 4, 5 and the edge cases; `clacc spec-diff` lists what
    /// differs.
    #[arg(long, default_value = "2026", value_parser = ByName::<SpecChoice>::new())]
    pub(crate) spec: SpecChoice,
    /// Inputs per unit, special values included (at most 2^40).
    #[arg(long, default_value = "65536", value_parser = parse_inputs, allow_hyphen_values = true)]
    pub(crate) inputs: usize,
    /// Seed of the random inputs (decimal or 0x hex).
    #[arg(long, value_parser = parse_seed, allow_hyphen_values = true)]
    pub(crate) seed: Option<u64>,
    /// Where to write the CSV results.
    #[arg(long, default_value = "clacc-results.csv")]
    pub(crate) csv: PathBuf,
    /// Every input where it fits: every half for one- and two-argument half functions, every
    /// float for one-argument float functions (the others keep the sweep).
    #[arg(long)]
    pub(crate) exhaustive: bool,
    /// Run a deterministic 1/N of the work: chunk k of every unit belongs to shard k mod N.
    /// `clacc merge` combines the shards' CSVs.
    #[arg(long, value_parser = parse_shard, default_value = "0/1", allow_hyphen_values = true)]
    pub(crate) shard: Shard,
    /// Also write the results as JUnit XML (a testcase per CSV row) for CI systems.
    #[arg(long)]
    pub(crate) junit: Option<PathBuf>,
    /// Also draw one SVG per unit into this folder: ULP error against input (one-argument
    /// functions) or a heat map over the two inputs' exponents, with the bound.
    #[arg(long)]
    pub(crate) plot: Option<PathBuf>,
    /// Options passed to the driver's clBuildProgram as they are, recorded in the CSV; they do
    /// not change which table judges (e.g. `-cl-fast-relaxed-math` judged by --profile full).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub(crate) build_options: String,
    /// Build with -cl-denorms-are-zero: float subnormals may flush (the FTZ rules apply).
    #[arg(long)]
    pub(crate) denorms_are_zero: bool,
    /// Keep the units already in --csv (from an interrupted run with the same options) and run
    /// only the rest, appending to it.
    #[arg(long)]
    pub(crate) resume: bool,
    /// With --resume: also run again the units whose rows say error, timeout or crash (their
    /// rows are removed first, the CSV replaced whole under its lock).
    #[arg(long, requires = "resume")]
    pub(crate) retry_failed: bool,
    /// Run units in this process instead of a worker process (a driver crash then ends the run,
    /// and no unit can be timed out).
    #[arg(long, conflicts_with = "unit_timeout")]
    pub(crate) no_isolate: bool,
    /// Seconds a unit may take in its worker, all of it, before it is recorded as `timeout`.
    #[arg(long, default_value = "3600", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub(crate) unit_timeout: u64,
    /// Threads computing references (default: every core).
    #[arg(long, value_parser = parse_threads, allow_hyphen_values = true)]
    pub(crate) threads: Option<usize>,
    /// Work-items per work-group of the ULP and edge kernels: a number (the inputs padded to
    /// whole groups, so each input runs alike wherever it lies; a kernel that requires another
    /// size, or takes fewer, gets that), or `device` for the device's own pick per launch, as
    /// the Khronos CTS launches (a device may compute leftover work-items on another path).
    #[arg(long, default_value = "256", value_parser = parse_work_group, allow_hyphen_values = true)]
    pub(crate) work_group: WorkGroup,
    /// Replace an existing --csv that is not a clacc CSV.
    #[arg(long)]
    pub(crate) force: bool,
}

#[derive(Args)]
pub(crate) struct KernelArgs {
    /// Folder to write the modules into.
    #[arg(long)]
    pub(crate) emit: PathBuf,
    #[command(flatten)]
    pub(crate) selection: SelectionArgs,
    /// Address bits of the modules (32 or 64).
    #[arg(long, default_value_t = 64)]
    pub(crate) address_bits: u32,
    /// Which kernels to write: SPIR-V modules (`.spv` and `.spvasm`), OpenCL C source (`.cl`)
    /// or Vulkan compute shaders (`vulkan`); default `spirv`, `vulkan` with `--platform vulkan`.
    #[arg(long, value_parser = parse_kernel_path)]
    pub(crate) source: Option<crate::spec::environment::KernelPath>,
    /// `vulkan`: the kernels a Vulkan device takes (the compute shaders of `--source vulkan`).
    /// No device is opened, so no other platform is taken here.
    #[arg(long, value_parser = parse_emit_platform)]
    pub(crate) platform: Option<crate::spec::environment::KernelPath>,
}

/// `kernels --platform` names the environment whose kernels are written, never a device:
/// `vulkan` only (an OpenCL platform takes either OpenCL path, which `--source` picks).
fn parse_emit_platform(text: &str) -> Result<crate::spec::environment::KernelPath, BadValue> {
    if text.trim().eq_ignore_ascii_case("vulkan") {
        Ok(crate::spec::environment::KernelPath::Vulkan)
    } else {
        Err(BadValue(format!(
            "`{text}`: `clacc kernels` opens no device, so --platform takes only `vulkan` here \
             (its compute shaders); for OpenCL kernels use --source spirv or --source opencl-c"
        )))
    }
}

fn parse_kernel_path(text: &str) -> Result<crate::spec::environment::KernelPath, BadValue> {
    crate::spec::environment::KernelPath::parse(text).ok_or_else(|| {
        BadValue(format!(
            "`{text}` is not a kind of kernel clacc writes: use spirv, opencl-c or vulkan"
        ))
    })
}

fn parse_shard(text: &str) -> Result<Shard, BadValue> {
    Shard::parse(text).ok_or_else(|| {
        BadValue(format!(
            "`{text}` is not a shard: write I/N with 0 <= I < N, e.g. 3/8"
        ))
    })
}

/// The largest `--inputs`: 2^40 inputs per unit, far past any sweep that finishes, and small
/// enough that no count or index derived from it overflows.
const MAX_INPUTS: u64 = 1 << 40;

fn parse_inputs(text: &str) -> Result<usize, BadValue> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(BadValue("--inputs must be at least 1".to_string())),
        Ok(count) if count <= MAX_INPUTS => Ok(count as usize),
        Ok(_) => Err(BadValue(format!(
            "`{text}` inputs per unit is more than clacc can address (at most 2^40 = {MAX_INPUTS}); use --exhaustive for every input, or --shard to spread a large sweep"
        ))),
        Err(_) => Err(BadValue(format!(
            "`{text}` is not a number of inputs: give a whole number from 1 to 2^40, e.g. --inputs 100000"
        ))),
    }
}

fn parse_seconds(text: &str) -> Result<u64, BadValue> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(BadValue("--unit-timeout must be at least 1 second".to_string())),
        Ok(seconds) if seconds <= 1 << 32 => Ok(seconds),
        _ => Err(BadValue(format!(
            "`{text}` is not a number of seconds: give a whole number from 1 to 2^32, e.g. --unit-timeout 600"
        ))),
    }
}

fn parse_threads(text: &str) -> Result<usize, BadValue> {
    match text.trim().parse::<usize>() {
        Ok(count) if (1..=4096).contains(&count) => Ok(count),
        _ => Err(BadValue(format!(
            "`{text}` is not a number of threads: give a whole number from 1 to 4096"
        ))),
    }
}

fn parse_work_group(text: &str) -> Result<WorkGroup, BadValue> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("device") {
        return Ok(WorkGroup::Device);
    }
    match text.parse::<usize>() {
        Ok(size) if (1..=65536).contains(&size) => Ok(WorkGroup::Size(size)),
        _ => Err(BadValue(format!(
            "`{text}` is not a work-group size: give a whole number from 1 to 65536 (e.g. 256), or `device` to leave the groups to the device"
        ))),
    }
}

fn parse_range(text: &str) -> Result<crate::sweep::InputRanges, BadValue> {
    crate::sweep::InputRanges::parse(text).map_err(BadValue)
}

fn parse_seed(text: &str) -> Result<u64, BadValue> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    };
    parsed.map_err(|_| {
        BadValue(format!(
            "`{text}` is not a seed: give a decimal or 0x-hex 64-bit integer"
        ))
    })
}

/// A flag value clap refuses in its own words (`error: invalid value '…' for '--flag': this`).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadValue(String);

/// A flag value that names none of the enum's values: the one line clacc prints for it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadName(pub String);

/// An enum a flag names by text: its spellings are the library's, so the accepted names stay
/// what they were when the flag was free text.
pub(crate) trait Choice: ValueEnum + Clone + Send + Sync + 'static {
    fn from_text(text: &str) -> Option<Self>;
    /// The line for a value that names nothing.
    fn refusal(text: &str) -> String;
}

/// The empty name of a list flag (`--type float,`): a stray comma, said so.
fn empty_name(flag: &str, example: &str) -> String {
    format!("{flag} has an empty name in its list (a stray comma?); write e.g. {flag} {example}")
}

fn parse_choice<T: Choice>(text: &str) -> Result<T, BadName> {
    T::from_text(text).ok_or_else(|| BadName(T::refusal(text)))
}

/// Parses a [`Choice`] and lists its values in `--help`.
#[derive(Clone)]
pub(crate) struct ByName<T>(PhantomData<T>);

impl<T> ByName<T> {
    pub(crate) fn new() -> Self {
        ByName(PhantomData)
    }
}

impl<T: Choice> TypedValueParser for ByName<T> {
    type Value = T;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        parse_choice::<T>.parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            T::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// `--kind`: what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum KindChoice {
    Ulp,
    Edge,
    Conversion,
    Extension,
}

impl KindChoice {
    pub(crate) fn kind(self) -> Kind {
        match self {
            KindChoice::Ulp => Kind::Ulp,
            KindChoice::Edge => Kind::Edge,
            KindChoice::Conversion => Kind::Conversion,
            KindChoice::Extension => Kind::Extension,
        }
    }
}

impl Choice for KindChoice {
    fn from_text(text: &str) -> Option<Self> {
        let kind = Kind::parse(text)?;
        Self::value_variants()
            .iter()
            .copied()
            .find(|choice| choice.kind() == kind)
    }

    fn refusal(text: &str) -> String {
        if text.trim().is_empty() {
            return empty_name("--kind", "ulp,edge");
        }
        format!(
            "unknown --kind `{text}`; use {}",
            Self::value_variants()
                .iter()
                .map(|choice| choice.kind().name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `--type`: an element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TypeChoice {
    Half,
    Float,
    Double,
}

impl TypeChoice {
    pub(crate) fn float_type(self) -> FloatType {
        match self {
            TypeChoice::Half => FloatType::Half,
            TypeChoice::Float => FloatType::Float,
            TypeChoice::Double => FloatType::Double,
        }
    }
}

impl Choice for TypeChoice {
    fn from_text(text: &str) -> Option<Self> {
        let element = FloatType::parse(text)?;
        Self::value_variants()
            .iter()
            .copied()
            .find(|choice| choice.float_type() == element)
    }

    fn refusal(text: &str) -> String {
        if text.trim().is_empty() {
            return empty_name("--type", "float,half");
        }
        format!("unknown type `{text}`; use half, float or double")
    }
}

/// `--profile`: which accuracy table judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProfileChoice {
    /// The device's CL_DEVICE_PROFILE.
    Auto,
    /// Kernels built with -cl-fast-relaxed-math, judged by Table 5, else by the device's table.
    Relaxed,
    /// Table 3.
    Full,
    /// Table 4.
    Embedded,
}

impl ProfileChoice {
    /// The name the flag takes (what a reproduce line writes).
    pub(crate) fn name(self) -> &'static str {
        match self {
            ProfileChoice::Auto => "auto",
            ProfileChoice::Relaxed => "relaxed",
            ProfileChoice::Full => "full",
            ProfileChoice::Embedded => "embedded",
        }
    }
}

impl Choice for ProfileChoice {
    fn from_text(text: &str) -> Option<Self> {
        match text {
            "auto" => Some(ProfileChoice::Auto),
            "relaxed" => Some(ProfileChoice::Relaxed),
            other => Profile::parse(other).map(|profile| match profile {
                Profile::Full => ProfileChoice::Full,
                Profile::Embedded => ProfileChoice::Embedded,
            }),
        }
    }

    fn refusal(text: &str) -> String {
        format!("unknown profile `{text}`; use full, embedded, relaxed or auto")
    }
}

/// `clacc spec-diff --from`, `--to`: a kernel path, whose environment's text is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PathChoice {
    Spirv,
    #[value(name = "opencl-c")]
    OpenclC,
}

impl PathChoice {
    pub(crate) fn path(self) -> KernelPath {
        match self {
            PathChoice::Spirv => KernelPath::Spirv,
            PathChoice::OpenclC => KernelPath::OpenclC,
        }
    }
}

impl Choice for PathChoice {
    fn from_text(text: &str) -> Option<Self> {
        let path = KernelPath::parse(text)?;
        Self::value_variants()
            .iter()
            .copied()
            .find(|choice| choice.path() == path)
    }

    fn refusal(text: &str) -> String {
        format!("unknown path `{text}`; use spirv or opencl-c")
    }
}

/// `--spec`: which text of the spec judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SpecChoice {
    #[value(name = "2017")]
    Spec2017,
    #[value(name = "2026")]
    Spec2026,
}

impl SpecChoice {
    pub(crate) fn revision(self) -> Revision {
        match self {
            SpecChoice::Spec2017 => Revision::Spec2017,
            SpecChoice::Spec2026 => Revision::Spec2026,
        }
    }
}

impl Choice for SpecChoice {
    fn from_text(text: &str) -> Option<Self> {
        let revision = Revision::parse(text)?;
        Self::value_variants()
            .iter()
            .copied()
            .find(|choice| choice.revision() == revision)
    }

    fn refusal(text: &str) -> String {
        format!("`{text}` is not a revision: use 2017 or 2026")
    }
}

/// `--source`: how the kernels reach the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SourceChoice {
    /// SPIR-V modules.
    Spirv,
    /// OpenCL C source.
    #[value(name = "opencl-c")]
    OpenclC,
    /// Every unit through each OpenCL path, into one CSV.
    Both,
    /// Compute shaders on a Vulkan device.
    Vulkan,
}

impl SourceChoice {
    /// The paths the choice runs, in the order a run takes them.
    pub(crate) fn paths(self) -> Vec<KernelPath> {
        match self {
            SourceChoice::Spirv => vec![KernelPath::Spirv],
            SourceChoice::OpenclC => vec![KernelPath::OpenclC],
            SourceChoice::Both => vec![KernelPath::Spirv, KernelPath::OpenclC],
            SourceChoice::Vulkan => vec![KernelPath::Vulkan],
        }
    }

    /// The choice that runs `path` alone.
    pub(crate) fn of(path: KernelPath) -> SourceChoice {
        match path {
            KernelPath::Spirv => SourceChoice::Spirv,
            KernelPath::OpenclC => SourceChoice::OpenclC,
            KernelPath::Vulkan => SourceChoice::Vulkan,
        }
    }

    /// The flag's name for it (what a reproduce line writes).
    pub(crate) fn name(self) -> &'static str {
        match self {
            SourceChoice::Spirv => KernelPath::Spirv.name(),
            SourceChoice::OpenclC => KernelPath::OpenclC.name(),
            SourceChoice::Both => "both",
            SourceChoice::Vulkan => KernelPath::Vulkan.name(),
        }
    }
}

impl Choice for SourceChoice {
    fn from_text(text: &str) -> Option<Self> {
        Self::value_variants()
            .iter()
            .copied()
            .find(|choice| choice.name() == text.trim())
    }

    fn refusal(text: &str) -> String {
        format!("unknown --source `{text}`; use spirv, opencl-c, both or vulkan")
    }
}

/// Parses the command line. A value none of an enum flag's names matches is a [`BadName`]
/// the face prints as its one line; every other mistake is clap's to report (exit 2).
pub fn parse() -> Result<Cli, BadName> {
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(error) => {
            let bad_name = std::error::Error::source(&error)
                .and_then(|source| source.downcast_ref::<BadName>())
                .map(|bad| BadName(bad.0.clone()));
            match bad_name {
                Some(bad) => Err(bad),
                None => exit_with_clap_text(error),
            }
        }
    }
}

/// Prints clap's text and exits as clap does, except that help or a version that cannot be
/// written to stdout (`clacc --help > /dev/full`) is an error (exit 2), not a silent success.
fn exit_with_clap_text(error: clap::Error) -> ! {
    use clap::error::ErrorKind;
    use std::io::{IsTerminal, Write};
    let to_stdout = matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    );
    if !to_stdout || std::io::stdout().is_terminal() {
        error.exit()
    }
    let mut stdout = std::io::stdout().lock();
    let written = write!(stdout, "{}", error.render()).and_then(|()| stdout.flush());
    if let Err(write_error) = written {
        let _ = writeln!(
            std::io::stderr(),
            "clacc: error: cannot write the help to stdout: {write_error}"
        );
        std::process::exit(2);
    }
    std::process::exit(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain run's flags as parsed, or the words of the refusal.
    fn run_args(flags: &[&str]) -> Result<RunArgs, String> {
        let mut argv = vec!["clacc"];
        argv.extend(flags);
        Cli::try_parse_from(argv)
            .map(|cli| cli.run)
            .map_err(|error| {
                std::error::Error::source(&error)
                    .map_or_else(|| error.to_string(), |s| s.to_string())
            })
    }

    #[test]
    fn enum_flags_take_the_library_spellings_and_defaults() {
        let args = run_args(&[
            "--type",
            "FLOAT,Float16,double",
            "--profile",
            "FULL_PROFILE",
            "--spec",
            "2017",
            "--kind",
            "edge,conversion",
        ])
        .unwrap();
        let types: Vec<FloatType> = args
            .selection
            .types
            .iter()
            .map(|t| t.float_type())
            .collect();
        assert_eq!(
            types,
            [FloatType::Float, FloatType::Half, FloatType::Double]
        );
        assert_eq!(args.profile, ProfileChoice::Full);
        assert_eq!(args.spec.revision(), Revision::Spec2017);
        let kinds: Vec<Kind> = args.kind.iter().map(|k| k.kind()).collect();
        assert_eq!(kinds, [Kind::Edge, Kind::Conversion]);
        let relaxed = run_args(&["--profile", "relaxed"]).unwrap();
        assert_eq!(relaxed.profile.name(), "relaxed");
        let defaults = run_args(&[]).unwrap();
        assert_eq!(defaults.profile, ProfileChoice::Auto);
        assert_eq!(defaults.spec.revision(), Revision::Spec2026);
        assert!(defaults.selection.types.is_empty() && defaults.kind.is_empty());
        // No --source: the device decides (SPIR-V where it takes it).
        assert_eq!(defaults.source, None);
        let paths = |name: &str| {
            run_args(&["--source", name])
                .unwrap()
                .source
                .unwrap()
                .paths()
        };
        assert_eq!(paths("spirv"), [KernelPath::Spirv]);
        assert_eq!(paths("opencl-c"), [KernelPath::OpenclC]);
        assert_eq!(paths("both"), [KernelPath::Spirv, KernelPath::OpenclC]);
        assert_eq!(paths("vulkan"), [KernelPath::Vulkan]);
        for path in KernelPath::ALL {
            assert_eq!(SourceChoice::of(path).paths(), [path]);
            assert_eq!(SourceChoice::of(path).name(), path.name());
        }
    }

    #[test]
    fn bad_enum_values_get_the_one_line_that_names_what_is_known() {
        let refusal = |flags: &[&str]| run_args(flags).err().unwrap();
        assert_eq!(
            refusal(&["--type", "quad"]),
            "unknown type `quad`; use half, float or double"
        );
        assert_eq!(
            refusal(&["--kind", "vibes"]),
            "unknown --kind `vibes`; use ulp, edge, conversion, extension"
        );
        assert_eq!(
            refusal(&["--profile", "quantum"]),
            "unknown profile `quantum`; use full, embedded, relaxed or auto"
        );
        assert_eq!(
            refusal(&["--spec", "1999"]),
            "`1999` is not a revision: use 2017 or 2026"
        );
        assert_eq!(
            refusal(&["--source", "ptx"]),
            "unknown --source `ptx`; use spirv, opencl-c, both or vulkan"
        );
        assert!(refusal(&["--type", "float,"]).starts_with("--type has an empty name"));
        assert!(refusal(&["--kind", ",ulp"]).starts_with("--kind has an empty name"));
    }

    #[test]
    fn work_groups_are_a_size_or_the_devices_pick() {
        let work_group = |flags: &[&str]| run_args(flags).map(|args| args.work_group);
        // The flag's default string is the library's default.
        assert_eq!(work_group(&[]), Ok(WorkGroup::default()));
        assert_eq!(WorkGroup::default(), WorkGroup::Size(256));
        assert_eq!(work_group(&["--work-group", "64"]), Ok(WorkGroup::Size(64)));
        assert_eq!(
            work_group(&["--work-group", "Device"]),
            Ok(WorkGroup::Device)
        );
        for bad in ["0", "65537", "-4", "big"] {
            let refusal = work_group(&["--work-group", bad]).unwrap_err();
            assert!(
                refusal.starts_with(&format!("`{bad}` is not a work-group size")),
                "{refusal}"
            );
        }
    }
}
