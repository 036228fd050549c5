//! What a run tells people and pipelines: one CSV row per unit, written as each unit finishes,
//! and a terminal summary with failures first.

pub mod compare;
pub mod junit;
pub mod merge;
pub mod plot;
pub mod shard;
pub mod stats;

use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::report::stats::{Case, UnitStats};
use crate::spec::environment::KernelPath;
use crate::spec::relaxed_table::{Bound, Condition, RelaxedRule};
use crate::spec::table::{Judging, Profile, Requirement, Revision};
use crate::spec::vulkan::{number_text, Cell};
use rug::Float;
use std::fmt::Write as _;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A unit's verdict.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    /// Not applicable to this device or type; `note` says why.
    Skip,
    /// The unit could not be measured (the driver refused the module, an OpenCL call failed).
    Error,
    /// The worker process running the unit died (a driver crash or `exit()`).
    Crash,
    /// The unit did not finish within `--unit-timeout`.
    Timeout,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Error => "error",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
        }
    }
}

/// What a row checks.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub enum Kind {
    /// Accuracy against the ULP tables (Tables 3, 4, 5).
    Ulp,
    /// Exact special-value results (the spec's edge-case rules).
    Edge,
    /// Conversions between types.
    Conversion,
    /// Checks of SPIR-V floating-point extensions.
    Extension,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Ulp, Kind::Edge, Kind::Conversion, Kind::Extension];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Ulp => "ulp",
            Kind::Edge => "edge",
            Kind::Conversion => "conversion",
            Kind::Extension => "extension",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == text)
    }
}

/// Everything one CSV row says about one unit (function, type, width).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct UnitReport {
    pub kind: Kind,
    pub function: String,
    pub element: FloatType,
    pub width: u32,
    /// The profile's table, or Table 5 first (a ULP unit of a relaxed run).
    pub judging: Judging,
    pub requirement: Option<Requirement>,
    /// The rule that judged the unit when it is not the table cell's own wording (a Table 5
    /// rule, an option's override); empty otherwise.
    #[serde(default)]
    pub rule: String,
    /// Per output, whether it is an integer (frexp's exponent, remquo's quotient, ilogb).
    pub integer_outputs: Vec<bool>,
    pub stats: UnitStats,
    pub status: Status,
    pub note: String,
}

impl UnitReport {
    /// The rule that judged the unit, for the CSV's `rule` column and the summary.
    pub fn rule_text(&self) -> String {
        if !self.rule.is_empty() {
            return self.rule.clone();
        }
        self.requirement
            .as_ref()
            .map(Requirement::describe)
            .unwrap_or_default()
    }
}

/// Facts of the whole run, repeated on every row so that several runs' CSVs can be pivoted.
#[derive(Clone, Debug)]
pub struct RunFacts {
    pub seed: u64,
    pub device: String,
    pub driver_version: String,
    pub build_options: String,
    /// The start of a command line that reproduces a run's conditions (device, profile, build
    /// options); a failure's reproduce line appends the unit and its worst input.
    pub command: String,
    /// The revision of the spec's text the tables came from (`--spec`): the `spec` column.
    pub spec: crate::spec::table::Revision,
    /// How the run's kernels reached the device (`--source`): the `path` column.
    pub path: crate::spec::environment::KernelPath,
}

impl RunFacts {
    /// One command line that runs just `unit`'s worst input again: at a width over 1, every
    /// lane of its vector, an `--input` each in lane order, where the unit knows them (a
    /// device may fail a lane because of the others); a row read back from a CSV knows only
    /// the worst input.
    pub fn reproduce(&self, unit: &UnitReport) -> Option<String> {
        let case = unit.stats.worst.as_ref()?;
        let element = input_type(unit);
        let input = |args: &[f64]| {
            let values: Vec<String> = args
                .iter()
                .map(|x| hexfloat::format_input(element, *x))
                .collect();
            format!(" --input {}", values.join(","))
        };
        let inputs: String = if case.lanes.is_empty() {
            input(&case.args)
        } else {
            case.lanes.iter().map(|lane| input(lane)).collect()
        };
        Some(format!(
            "{} --kind {} --function {} --type {} --width {}{inputs}",
            self.command,
            unit.kind.name(),
            unit.function,
            unit.element,
            unit.width,
        ))
    }
}

/// The CSV columns, in order (documented in docs/csv-columns.md).
pub const COLUMNS: [&str; 31] = [
    "function",
    "type",
    "width",
    "profile",
    "inputs",
    "failures",
    "max_ulp",
    "bound_ulp",
    "worst_input",
    "worst_device",
    "worst_reference",
    "status",
    "note",
    "kind",
    "rule",
    "allowed",
    "undefined",
    "worst_ulp",
    "worst_index",
    "max_abs_error",
    "seed",
    "device",
    "driver_version",
    "build_options",
    "clacc_version",
    // Bookkeeping (issue 16): which part of which run wrote the row, so that `merge` and
    // `--resume` can refuse rows of another run. Filled from `Provenance`.
    "shard",
    "requested_inputs",
    "options",
    // (end of the bookkeeping columns)
    "spec",
    // How many units the run planned (every shard plans them all): merge and --resume name
    // the units a run that stopped early lacks.
    "planned_units",
    // How the kernels reached the device (`spirv`, `opencl-c`); last, so that the CSVs written
    // before it read as they are with `spirv` (`merge::PATHLESS_COLUMNS`).
    "path",
];

/// A decimal ULP figure: up to 4 decimals, `inf` when a NaN met a number or similar.
pub fn format_ulp(error: f64) -> String {
    if error.is_infinite() {
        return "inf".to_string();
    }
    if error >= 1.0e6 {
        return format!("{error:.4e}");
    }
    let text = format!("{error:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// An error in full (shortest text that reads back as the same `f64`), for merging shards.
fn exact_ulp(error: f64) -> String {
    if error.is_infinite() {
        "inf".to_string()
    } else {
        format!("{error}")
    }
}

/// The numeric bound for the `bound_ulp` column: N for "<= N ulp", 0 for exact results, 0.5
/// for correctly rounded ones (round to nearest: the correctly rounded value is within half an
/// ulp; the bits are checked as well); empty where the rule is not a ULP bound.
pub fn bound_column(requirement: Option<&Requirement>) -> String {
    match requirement {
        Some(Requirement::Ulp(bound)) | Some(Requirement::UlpEachOutput(bound)) => {
            format_ulp(*bound)
        }
        Some(Requirement::Exact) | Some(Requirement::RemquoExact { .. }) => "0".to_string(),
        Some(Requirement::CorrectlyRounded) => "0.5".to_string(),
        _ => String::new(),
    }
}

/// What a row says about its error against its bound: the `max_ulp` and `bound_ulp` columns,
/// and the clause that leads the note where an absolute bound judged some inputs (Table 5's
/// sin, cos, sinpi, cospi and log's [0.5, 2]; the 2026 text's mix, smoothstep, OpDot, cross).
/// Such a bound measures no error in ulp: those inputs leave `max_ulp` and `bound_ulp` to the
/// inputs a ULP bound judged (empty where there are none) and the note says
/// `max abs error 1.15e-4 (bound 2^-11 = 4.88e-4 if x in [-pi,pi])`.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorFigures {
    pub max_ulp: String,
    pub bound_ulp: String,
    /// Empty unless an absolute bound judged some of the row's inputs.
    pub absolute: String,
}

impl ErrorFigures {
    /// The figures of `unit`, judged by the `spec` revision's tables of the `path`'s
    /// environment.
    pub fn of(unit: &UnitReport, spec: Revision, path: KernelPath) -> ErrorFigures {
        let measured = matches!(unit.status, Status::Pass | Status::Fail);
        let bounds = (unit.kind == Kind::Ulp)
            .then(|| RuleBounds::of(unit, spec, path))
            .flatten();
        let Some(bounds) = bounds else {
            return ErrorFigures {
                max_ulp: if measured {
                    format_ulp(unit.stats.max_error)
                } else {
                    String::new()
                },
                bound_ulp: bound_column(unit.requirement.as_ref()),
                absolute: String::new(),
            };
        };
        let stats = &unit.stats;
        // A case judged in ulp outranks every absolute one as the worst (`stats::Case`).
        let worst_absolute = stats.worst.as_ref().map(|case| case.absolute);
        let judged_in_ulp =
            bounds.ulp != UlpPart::None && (stats.max_error > 0.0 || worst_absolute == Some(false));
        let judged_absolutely = stats.max_abs_error > 0.0 || worst_absolute == Some(true);
        let mut absolute = String::new();
        if measured && judged_absolutely {
            let described: Vec<String> = bounds
                .absolute
                .iter()
                .map(|bound| bound.describe(unit))
                .collect();
            absolute = format!(
                "max abs error {} (bound {})",
                short_decimal(stats.max_abs_error),
                described.join(", ")
            );
            if judged_in_ulp {
                absolute.push_str(", max_ulp over the other inputs");
            }
        }
        ErrorFigures {
            max_ulp: if measured && judged_in_ulp {
                format_ulp(stats.max_error)
            } else {
                String::new()
            },
            bound_ulp: match bounds.ulp {
                UlpPart::Bound(bound) => format_ulp(bound),
                UlpPart::None | UlpPart::Other => String::new(),
            },
            absolute,
        }
    }

    /// The row's note: the absolute clause first (after a `not conformant:` reason, which
    /// leads), then the unit's own.
    pub fn note(&self, unit: &UnitReport) -> String {
        match (self.absolute.is_empty(), unit.note.is_empty()) {
            (true, _) => unit.note.clone(),
            (false, true) => self.absolute.clone(),
            (false, false) if unit.note.starts_with("not conformant:") => {
                format!("{}; {}", unit.note, self.absolute)
            }
            (false, false) => format!("{}; {}", self.absolute, unit.note),
        }
    }
}

/// `note` with the figure of its `max abs error` clause ([`ErrorFigures`]) restated as
/// `max_abs_error`. For `clacc merge`: a row's note comes with its worst case's shard, and
/// under a mixed rule (log's) that shard need not hold the largest absolute error.
pub fn restate_max_abs_error(note: &str, max_abs_error: f64) -> String {
    const LEAD: &str = "max abs error ";
    let Some(start) = note.find(LEAD).map(|at| at + LEAD.len()) else {
        return note.to_string();
    };
    let end = note[start..].find(' ').map_or(note.len(), |at| start + at);
    format!(
        "{}{}{}",
        &note[..start],
        short_decimal(max_abs_error),
        &note[end..]
    )
}

/// Three significant digits, `0` for zero: `1.15e-4`.
fn short_decimal(value: f64) -> String {
    if value == 0.0 {
        "0".to_string()
    } else {
        format!("{value:.2e}")
    }
}

/// The bounds of a row whose rule has an absolute bound ([`ErrorFigures`]).
struct RuleBounds {
    absolute: Vec<AbsoluteBound>,
    ulp: UlpPart,
}

/// What the pieces judged in ulp bound their inputs by.
#[derive(Clone, Copy, Debug, PartialEq)]
enum UlpPart {
    /// No piece judges in ulp.
    None,
    /// Every such piece by `<= N ulp`.
    Bound(f64),
    /// Some by another rule (growing with x, derived, several numbers).
    Other,
}

impl UlpPart {
    fn and(self, other: UlpPart) -> UlpPart {
        match (self, other) {
            (UlpPart::None, part) | (part, UlpPart::None) => part,
            (UlpPart::Bound(a), UlpPart::Bound(b)) if a == b => UlpPart::Bound(a),
            _ => UlpPart::Other,
        }
    }
}

/// One absolute bound: `2^-11` (value 4.88e-4) where `x in [-pi,pi]`, or a tolerance that
/// depends on the input (`max*max*5*FLT_EPSILON`: no value of its own).
struct AbsoluteBound {
    text: String,
    value: Option<f64>,
    condition: Option<String>,
}

impl AbsoluteBound {
    /// A Vulkan cell's `abs <= E inside [A, B]`, written as Table 5's: `2^-11 if x in [-pi,pi]`.
    fn inside(absolute: f64, low: f64, high: f64) -> AbsoluteBound {
        AbsoluteBound {
            text: number_text(absolute),
            value: Some(absolute),
            condition: Some(format!("x in [{},{}]", number_text(low), number_text(high))),
        }
    }

    /// `2^-11 = 4.88e-4 if x in [-pi,pi]`, `1e-3`, `max*max*5*FLT_EPSILON = 1.07e-6 at the
    /// worst input`.
    fn describe(&self, unit: &UnitReport) -> String {
        let mut text = self.text.clone();
        let value = self.value.or_else(|| {
            let worst = unit.stats.worst.as_ref().filter(|case| case.absolute)?;
            unit.requirement.as_ref()?.absolute_tolerance(&worst.args)
        });
        if let Some(value) = value {
            if text.parse::<f64>().ok() != Some(value) {
                let _ = write!(text, " = {}", short_decimal(value));
                if self.value.is_none() {
                    text.push_str(" at the worst input");
                }
            }
        }
        if let Some(condition) = &self.condition {
            let _ = write!(text, " if {condition}");
        }
        text
    }
}

impl RuleBounds {
    /// `None` where no absolute bound judges the row: Table 5's rule where it judged the row,
    /// else the table cell.
    fn of(unit: &UnitReport, spec: Revision, path: KernelPath) -> Option<RuleBounds> {
        let embedded = unit.judging.profile() == Profile::Embedded;
        // The Vulkan environment has no Table 5: RelaxedPrecision units are judged by its
        // table's cells.
        let relaxed_rule = (unit.judging.relaxed() && path != KernelPath::Vulkan)
            .then(|| {
                crate::spec::relaxed_table::builtin_in(path.environment(), spec)
                    .rule(&unit.function, unit.element)
            })
            .flatten();
        let mut bounds = RuleBounds {
            absolute: Vec::new(),
            ulp: UlpPart::None,
        };
        match relaxed_rule {
            Some(rule) => bounds.add_rule(rule, embedded),
            None => match unit.requirement.as_ref()? {
                Requirement::Absolute(bound) => bounds.absolute.push(AbsoluteBound {
                    text: format!("{bound:e}"),
                    value: Some(*bound),
                    condition: None,
                }),
                requirement @ Requirement::AbsoluteMaxSquared { .. } => {
                    let described = requirement.describe();
                    bounds.absolute.push(AbsoluteBound {
                        text: described
                            .strip_prefix("abs <= ")
                            .unwrap_or(&described)
                            .to_string(),
                        value: None,
                        condition: None,
                    });
                }
                // The Vulkan cells with an absolute part (sin, cos; log, log2): the same
                // figures as Table 5's, so no ulp figure stands for inputs judged absolutely.
                Requirement::Vulkan(Cell::AbsoluteInside {
                    absolute,
                    low,
                    high,
                }) => bounds
                    .absolute
                    .push(AbsoluteBound::inside(*absolute, *low, *high)),
                Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
                    ulp,
                    low,
                    high,
                    absolute,
                }) => {
                    bounds
                        .absolute
                        .push(AbsoluteBound::inside(*absolute, *low, *high));
                    bounds.ulp = UlpPart::Bound(*ulp);
                }
                _ => {}
            },
        }
        (!bounds.absolute.is_empty()).then_some(bounds)
    }

    fn add_rule(&mut self, rule: &RelaxedRule, embedded: bool) {
        match rule {
            RelaxedRule::Pieces { pieces, .. } => {
                for piece in pieces {
                    for alternative in &piece.alternatives {
                        self.add_bound(alternative.bound(embedded), piece.condition.as_ref());
                    }
                }
            }
            RelaxedRule::PerOutput { outputs, .. } => {
                for output in outputs {
                    self.add_rule(output, embedded);
                }
            }
        }
    }

    fn add_bound(&mut self, bound: &Bound, condition: Option<&Condition>) {
        match bound {
            Bound::Absolute(number) => {
                let condition = condition.map(ToString::to_string);
                let known = self
                    .absolute
                    .iter()
                    .any(|b| b.text == number.text && b.condition == condition);
                if !known {
                    self.absolute.push(AbsoluteBound {
                        text: number.text.clone(),
                        value: Some(number.value.to_f64()),
                        condition,
                    });
                }
            }
            Bound::Ulp(n) => self.ulp = self.ulp.and(UlpPart::Bound(*n)),
            Bound::Unbounded | Bound::Undefined => {}
            Bound::UlpGrowing { .. } | Bound::Derived(_) | Bound::FmaOrMulAdd | Bound::Table(_) => {
                self.ulp = self.ulp.and(UlpPart::Other)
            }
        }
    }
}

/// The reference printed with enough bits to show how far the device is: the format's
/// precision twice over plus a margin.
fn format_reference(reference: &Float, element: FloatType) -> String {
    let shown = Float::with_val(2 * element.precision() + 10, reference);
    hexfloat::format_float(&shown)
}

/// Every output of a case: floats in hex, integer outputs in decimal.
fn format_outputs(
    values: &[f64],
    integers: &[bool],
    element: FloatType,
    references: Option<&[Float]>,
) -> String {
    values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let integer = integers.get(i).copied().unwrap_or(false);
            match (integer, references) {
                (true, Some(refs)) if refs[i].is_nan() => "unspecified".to_string(),
                (true, Some(refs)) => format!("{}", refs[i].to_f64()),
                (true, None) => format!("{value}"),
                (false, Some(refs)) => format_reference(&refs[i], element),
                (false, None) => hexfloat::format_f64(*value),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A case's inputs as `--input` reads them back (NaNs as `nan(0x…)`, see
/// [`hexfloat::format_input`]), space-separated.
fn format_inputs(case: &Case, element: FloatType) -> String {
    case.args
        .iter()
        .map(|x| hexfloat::format_input(element, *x))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The type whose values a unit's inputs are: the unit's own, but a conversion's source type
/// (its `type` column is the destination's).
fn input_type(unit: &UnitReport) -> FloatType {
    use crate::spec::conversion::Conversion;
    if unit.kind == Kind::Conversion {
        let source = Conversion::all()
            .into_iter()
            .find(|conversion| conversion.name() == unit.function);
        if let Some(Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. }) =
            source
        {
            return from;
        }
    }
    unit.element
}

/// The note of a passing row whose shard judged none of the unit's inputs (it held none, or
/// only undefined ones): `clacc merge` adds the other shards' rows to it; alone it proves
/// nothing.
pub const EMPTY_SHARD_NOTE: &str =
    "empty shard row: this shard judged none of the unit's inputs; clacc merge adds the others";

/// The note of a unit that judged no input at all: it cannot pass.
pub const NOTHING_JUDGED_NOTE: &str = "no input was judged, so the unit cannot pass";

/// The note of a unit whose every input has a result the spec leaves undefined (e.g. `nan`
/// under -cl-fast-relaxed-math): nothing to judge, so it does not apply (`skip`).
pub const ALL_UNDEFINED_NOTE: &str =
    "the spec leaves every input's result undefined here: nothing to judge";

/// What every row of one run records about how it was made: the bookkeeping columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// `I/N` (`0/1` for a whole run, and for what `clacc merge` writes).
    pub shard: String,
    /// `--inputs` as given (a unit may judge more: every special value, whole vectors).
    pub requested_inputs: u64,
    /// Every other option that changes a row's numbers, canonical (see `options_text`).
    pub options: String,
    /// The number of units the run planned (the `planned_units` column).
    pub planned_units: u64,
}

/// The `options` column: `key=value` pairs, space-separated, in a fixed order, for the options
/// that change what a row measures and are not in a column of their own (seed, device, driver,
/// build options, profile and kind are). `cases` is the number of explicit cases and every
/// argument of every case, case after case (hashed as they are parsed: a NaN's payload as
/// written); `range` the canonical `--range` text, named only where given.
pub fn options_text(
    exhaustive: bool,
    cases: Option<(usize, &[f64])>,
    kernels: &[(String, Vec<u8>)],
    device_only: bool,
    range: Option<&str>,
) -> String {
    let yes_no = |flag: bool| if flag { "yes" } else { "no" };
    let cases = match cases {
        None => "sweep".to_string(),
        Some((count, values)) => {
            let bytes = values.iter().flat_map(|x| x.to_bits().to_le_bytes());
            format!("{count}x{:016x}", fnv1a(bytes))
        }
    };
    let kernels = if kernels.is_empty() {
        "clacc".to_string()
    } else {
        let mut named: Vec<String> = kernels
            .iter()
            .map(|(function, spirv)| format!("{function}:{}", content_hash(spirv)))
            .collect();
        named.sort();
        named.join(",")
    };
    let range = range.map_or_else(String::new, |range| format!(" range={range}"));
    format!(
        "exhaustive={} cases={cases} kernels={kernels} device_only={}{range}",
        yes_no(exhaustive),
        yes_no(device_only)
    )
}

/// `options` (an [`options_text`]) naming the random sweep's generation after its `cases` pair
/// (`cases=sweep sweep=2`): what a run that draws random inputs records.
pub fn with_sweep_generation(options: &str, generation: u32) -> String {
    options
        .split(' ')
        .flat_map(|pair| {
            let sweep = pair
                .starts_with("cases=")
                .then(|| format!("sweep={generation}"));
            std::iter::once(pair.to_string()).chain(sweep)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A stable 64-bit FNV-1a hash in hex: the same bytes give the same text with any build (std's
/// hasher promises no such thing).
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes.iter().copied()))
}

/// 64-bit FNV-1a of `bytes`, taken as they come (2^24 cases need not be copied to be hashed).
fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Why a CSV could not be opened for a run.
#[derive(Debug, thiserror::Error)]
pub enum CsvOpenError {
    /// Another process holds the file's lock; its pid when /proc/locks tells it.
    #[error("{}", busy_text(*pid))]
    Busy { pid: Option<u32> },
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Who holds a CSV's lock, as a message says it.
fn busy_text(pid: Option<u32>) -> String {
    match pid {
        Some(pid) => format!("another clacc process (pid {pid}) is writing it"),
        None => "another process is writing it".to_string(),
    }
}

/// A CSV opened for appending with an exclusive `flock` held for as long as it is open, so
/// that two runs never write one file. Nothing is truncated before the lock is held.
pub struct LockedCsv {
    file: File,
    /// The path it was opened by, and which file that was: see [`FileAtPath`].
    at: FileAtPath,
}

/// The path a CSV was opened by, and the (device, inode) of the file it named then. A file
/// removed or replaced while the run writes it (`rm`, `mv`, an editor's save) takes every later
/// row with it, out of reach of that path: a run checks before each row that the path still
/// names its file.
struct FileAtPath {
    path: PathBuf,
    identity: (u64, u64),
}

impl FileAtPath {
    fn of(path: &Path, file: &File) -> io::Result<FileAtPath> {
        Ok(FileAtPath {
            path: path.to_path_buf(),
            identity: identity(&file.metadata()?),
        })
    }

    /// `Ok` while the path names the file; else whether the path names nothing now.
    fn check(&self) -> Result<(), bool> {
        match std::fs::metadata(&self.path) {
            Ok(metadata) if identity(&metadata) == self.identity => Ok(()),
            Ok(_) => Err(false),
            Err(_) => Err(true),
        }
    }
}

fn identity(metadata: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

/// The CSV's path no longer names the file the run writes: the run stops, and says which
/// units' rows went where.
#[derive(Debug, thiserror::Error)]
#[error("{}", replaced_text(*removed, written, unwritten))]
pub struct CsvReplaced {
    /// The path names nothing now (else another file).
    removed: bool,
    /// The units whose rows went to the file the run opened.
    written: Vec<String>,
    /// The unit whose row was to be written now.
    unwritten: String,
}

/// How a unit is named in [`CsvReplaced`]: `ulp sin float w4`.
fn unit_label(unit: &UnitReport) -> String {
    format!(
        "{} {} {} w{}",
        unit.kind.name(),
        unit.function,
        unit.element.name(),
        unit.width
    )
}

fn replaced_text(removed: bool, written: &[String], unwritten: &str) -> String {
    let what = if removed {
        "it was removed during the run"
    } else {
        "another file took its path during the run"
    };
    let before = if written.is_empty() {
        "no unit's row had been written yet".to_string()
    } else {
        const SHOWN: usize = 20;
        let mut listed = written
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if written.len() > SHOWN {
            listed.push_str(", …");
        }
        format!(
            "the rows of the {} units done before ({listed}) went to the file the run had opened, which that path no longer names",
            written.len()
        )
    };
    format!("{what}, so the run stopped: {before}; the row of {unwritten}, done, and those of the units after it were written nowhere; run them again")
}

impl LockedCsv {
    pub fn open(path: &Path) -> Result<LockedCsv, CsvOpenError> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        loop {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .append(true)
                .create(true)
                .open(path)?;
            // SAFETY: flock on a descriptor this function owns.
            let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if locked != 0 {
                let error = io::Error::last_os_error();
                if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    return Err(CsvOpenError::Busy {
                        pid: lock_holder(&file),
                    });
                }
                return Err(CsvOpenError::Io(error));
            }
            // `merge::resume_retrying` renames a new file over the path while it holds the
            // old one's lock: a lock won on the old file, once that is released, guards
            // nothing, so the path is opened again.
            let opened = file.metadata()?;
            let named = std::fs::metadata(path).ok();
            if named.is_some_and(|named| (named.dev(), named.ino()) == (opened.dev(), opened.ino()))
            {
                let at = FileAtPath::of(path, &file)?;
                return Ok(LockedCsv { file, at });
            }
        }
    }
}

impl LockedCsv {
    /// The same locked file, now that it has been renamed to `path` (a CSV rewritten whole
    /// under its lock): the rows it takes are checked against `path` from now on.
    pub(crate) fn renamed_to(self, path: &Path) -> io::Result<LockedCsv> {
        let at = FileAtPath::of(path, &self.file)?;
        Ok(LockedCsv {
            file: self.file,
            at,
        })
    }
}

impl LockedCsv {
    /// The file emptied, still locked, for writing a whole CSV (`clacc merge`).
    pub fn truncate(self) -> io::Result<File> {
        self.file.set_len(0)?;
        Ok(self.file)
    }
}

/// The pid holding a `flock` on `file`, from /proc/locks (`1: FLOCK ADVISORY WRITE pid
/// maj:min:inode 0 EOF`).
fn lock_holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let flock = fields.iter().position(|f| *f == "FLOCK")?;
        let pid = fields.get(flock + 3)?.parse().ok()?;
        let file_inode: u64 = fields.get(flock + 4)?.rsplit(':').next()?.parse().ok()?;
        (file_inode == inode).then_some(pid)
    })
}

/// A unit's CSV row, column by column ([`COLUMNS`]).
pub fn csv_record(unit: &UnitReport, facts: &RunFacts, provenance: &Provenance) -> [String; 31] {
    let worst = unit.stats.worst.as_ref();
    let figures = ErrorFigures::of(unit, facts.spec, facts.path);
    [
        unit.function.clone(),
        unit.element.name().to_string(),
        unit.width.to_string(),
        unit.judging.name().to_string(),
        unit.stats.inputs.to_string(),
        unit.stats.failures.to_string(),
        figures.max_ulp.clone(),
        figures.bound_ulp.clone(),
        worst
            .map(|c| format_inputs(c, input_type(unit)))
            .unwrap_or_default(),
        worst
            .map(|c| format_outputs(&c.device_results, &unit.integer_outputs, unit.element, None))
            .unwrap_or_default(),
        worst
            .map(|c| {
                format_outputs(
                    &c.device_results,
                    &unit.integer_outputs,
                    unit.element,
                    Some(&c.references),
                )
            })
            .unwrap_or_default(),
        unit.status.name().to_string(),
        figures.note(unit),
        unit.kind.name().to_string(),
        unit.rule_text(),
        unit.stats.allowances_text(),
        unit.stats.undefined.to_string(),
        worst.map(|c| exact_ulp(c.error)).unwrap_or_default(),
        worst.map(|c| c.index.to_string()).unwrap_or_default(),
        if unit.stats.max_abs_error > 0.0 {
            format!("{:e}", unit.stats.max_abs_error)
        } else {
            String::new()
        },
        format!("{:#x}", facts.seed),
        facts.device.clone(),
        facts.driver_version.clone(),
        facts.build_options.clone(),
        env!("CARGO_PKG_VERSION").to_string(),
        provenance.shard.clone(),
        provenance.requested_inputs.to_string(),
        provenance.options.clone(),
        facts.spec.name().to_string(),
        provenance.planned_units.to_string(),
        facts.path.name().to_string(),
    ]
}

/// Writes the CSV: header first, then one row per unit, flushed as each unit finishes so that
/// an interrupted run keeps every finished unit. Every write appends, and only while the path
/// still names the file ([`CsvReplaced`]).
pub struct CsvReport {
    writer: csv::Writer<File>,
    provenance: Provenance,
    at: FileAtPath,
    /// The units whose rows this report wrote, for [`CsvReplaced`].
    written: Vec<String>,
}

impl CsvReport {
    /// Starts the file afresh (header only) under its lock.
    pub fn create(locked: LockedCsv, provenance: Provenance) -> io::Result<CsvReport> {
        locked.file.set_len(0)?;
        let mut writer = csv::Writer::from_writer(locked.file);
        writer.write_record(COLUMNS)?;
        writer.flush()?;
        Ok(CsvReport {
            writer,
            provenance,
            at: locked.at,
            written: Vec::new(),
        })
    }

    /// Appends to a CSV that already has its header (`--resume`).
    pub fn append(locked: LockedCsv, provenance: Provenance) -> CsvReport {
        CsvReport {
            writer: csv::Writer::from_writer(locked.file),
            provenance,
            at: locked.at,
            written: Vec::new(),
        }
    }

    /// Appends the unit's row, if the path still names the file (else an [`io::Error`] holding
    /// a [`CsvReplaced`], and nothing is written).
    pub fn write(&mut self, unit: &UnitReport, facts: &RunFacts) -> io::Result<()> {
        if let Err(removed) = self.at.check() {
            return Err(io::Error::other(CsvReplaced {
                removed,
                written: self.written.clone(),
                unwritten: unit_label(unit),
            }));
        }
        let record = csv_record(unit, facts, &self.provenance);
        self.writer.write_record(&record)?;
        self.writer.flush()?;
        self.written.push(unit_label(unit));
        Ok(())
    }
}

/// Decimal rendering for people, beside the hex form.
fn decimal(value: f64) -> String {
    format!("{value:e}")
}

/// A unit's worst case as text, as the terminal summary and the JUnit report show it.
pub struct WorstCase {
    /// Each input in hex with its decimal value, comma separated.
    pub inputs: String,
    pub device_hex: String,
    pub device_decimal: String,
    pub reference_hex: String,
    pub reference_decimal: String,
    /// The error with its unit: `6 ulp`, or `1.2e-3 (absolute)` where an absolute bound
    /// (Table 5's, the 2026 text's mix, smoothstep, OpDot and cross) judged it.
    pub error: String,
}

impl WorstCase {
    pub fn of(case: &Case, unit: &UnitReport) -> WorstCase {
        let element = input_type(unit);
        let inputs: Vec<String> = case
            .args
            .iter()
            .map(|x| format!("{} ({})", hexfloat::format_input(element, *x), decimal(*x)))
            .collect();
        WorstCase {
            inputs: inputs.join(", "),
            device_hex: format_outputs(
                &case.device_results,
                &unit.integer_outputs,
                unit.element,
                None,
            ),
            device_decimal: case
                .device_results
                .iter()
                .map(|v| decimal(*v))
                .collect::<Vec<_>>()
                .join(" "),
            reference_hex: format_outputs(
                &case.device_results,
                &unit.integer_outputs,
                unit.element,
                Some(&case.references),
            ),
            reference_decimal: case
                .references
                .iter()
                .map(|r| r.to_string_radix(10, Some(17)))
                .collect::<Vec<_>>()
                .join(" "),
            error: if case.absolute {
                format!("{:e} (absolute)", case.error)
            } else {
                format!("{} ulp", format_ulp(case.error))
            },
        }
    }
}

/// A failing unit's largest errors, as its figures give them: `max 6 ulp`, `max absolute
/// error 1.2e-3`, or both.
pub fn maxima(unit: &UnitReport, figures: &ErrorFigures) -> String {
    let mut parts = Vec::new();
    if !figures.max_ulp.is_empty() {
        parts.push(format!("max {} ulp", figures.max_ulp));
    }
    if unit.stats.max_abs_error > 0.0 {
        parts.push(format!("max absolute error {:e}", unit.stats.max_abs_error));
    }
    if parts.is_empty() {
        parts.push("no error measured".to_string());
    }
    parts.join(", ")
}

fn describe_failure(unit: &UnitReport, facts: &RunFacts) -> String {
    let reproduce = facts
        .reproduce(unit)
        .map(|line| format!("\n    reproduce: {line}"))
        .unwrap_or_default();
    if unit.kind == Kind::Edge {
        return format!(
            "{} {} w{}: {} of {} cases wrong; first: {}{reproduce}",
            unit.function,
            unit.element,
            unit.width,
            unit.stats.failures,
            unit.stats.inputs,
            unit.note
        );
    }
    let mut text = format!(
        "{} {} w{}: {} of {} inputs fail ({}); {}",
        unit.function,
        unit.element,
        unit.width,
        unit.stats.failures,
        unit.stats.inputs,
        unit.rule_text(),
        maxima(unit, &ErrorFigures::of(unit, facts.spec, facts.path)),
    );
    if let Some(case) = &unit.stats.worst {
        let worst = WorstCase::of(case, unit);
        let _ = write!(
            text,
            "\n    worst input {}\n    device    {} ({})\n    reference {} ({})\n    error     {}",
            worst.inputs,
            worst.device_hex,
            worst.device_decimal,
            worst.reference_hex,
            worst.reference_decimal,
            worst.error,
        );
    }
    text.push_str(&reproduce);
    text
}

/// The terminal summary: failures and errors first, then one line per unit, then the totals.
pub fn summary(units: &[UnitReport], facts: &RunFacts, csv_path: &Path) -> String {
    let mut text = String::new();
    let failed: Vec<&UnitReport> = units.iter().filter(|u| u.status == Status::Fail).collect();
    let errors: Vec<&UnitReport> = units
        .iter()
        .filter(|u| matches!(u.status, Status::Error | Status::Crash | Status::Timeout))
        .collect();
    // Failures grouped by kind: accuracy apart from edge cases, conversions, extensions.
    for kind in Kind::ALL {
        let of_kind: Vec<&&UnitReport> = failed.iter().filter(|u| u.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        let heading = match kind {
            Kind::Ulp => "FAILURES (accuracy)",
            Kind::Edge => "FAILURES (edge cases: exact special-value results)",
            Kind::Conversion => "FAILURES (conversions)",
            Kind::Extension => "FAILURES (SPIR-V extensions)",
        };
        let _ = writeln!(text, "{heading}");
        for unit in of_kind {
            let _ = writeln!(text, "  {}", describe_failure(unit, facts));
        }
        text.push('\n');
    }
    if !errors.is_empty() {
        text.push_str("ERRORS\n");
        for unit in &errors {
            let _ = writeln!(
                text,
                "  {} {} w{}: {}",
                unit.function, unit.element, unit.width, unit.note
            );
        }
        text.push('\n');
    }
    // A table per type, each in the run's order: function × width with error, bound, status.
    for element in FloatType::ALL {
        let of_type: Vec<&UnitReport> = units.iter().filter(|u| u.element == element).collect();
        if of_type.is_empty() {
            continue;
        }
        let _ = writeln!(text, "{}", element.name().to_uppercase());
        let _ = writeln!(
            text,
            "  {:<26} {:<10} {:>5} {:>10} {:>8} {:>10} {:>6}  {:<7} note",
            "function", "kind", "width", "inputs", "failures", "max_ulp", "bound", "status"
        );
        for unit in of_type {
            let figures = ErrorFigures::of(unit, facts.spec, facts.path);
            let _ = writeln!(
                text,
                "  {:<26} {:<10} {:>5} {:>10} {:>8} {:>10} {:>6}  {:<7} {}",
                unit.function,
                unit.kind.name(),
                unit.width,
                unit.stats.inputs,
                unit.stats.failures,
                if figures.max_ulp.is_empty() {
                    "-"
                } else {
                    &figures.max_ulp
                },
                figures.bound_ulp,
                unit.status.name(),
                figures.note(unit),
            );
        }
        text.push('\n');
    }
    let count = |status: Status| units.iter().filter(|u| u.status == status).count();
    let _ = writeln!(
        text,
        "{} units: {} passed, {} failed, {} skipped, {} errors, {} crashed, {} timed out; spec {}; {} kernels; seed {:#x}; device {}; CSV {}",
        units.len(),
        count(Status::Pass),
        count(Status::Fail),
        count(Status::Skip),
        count(Status::Error),
        count(Status::Crash),
        count(Status::Timeout),
        facts.spec,
        facts.path,
        facts.seed,
        facts.device,
        csv_path.display(),
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_figures_are_short_decimals() {
        assert_eq!(format_ulp(0.5), "0.5");
        assert_eq!(format_ulp(3.0), "3");
        assert_eq!(format_ulp(0.123456), "0.1235");
        assert_eq!(format_ulp(f64::INFINITY), "inf");
        assert_eq!(format_ulp(7.136238e44), "7.1362e44");
    }

    #[test]
    fn bound_column_follows_the_requirement_kind() {
        assert_eq!(bound_column(Some(&Requirement::Ulp(2.5))), "2.5");
        assert_eq!(bound_column(Some(&Requirement::Exact)), "0");
        assert_eq!(bound_column(Some(&Requirement::CorrectlyRounded)), "0.5");
        assert_eq!(bound_column(Some(&Requirement::ImplementationDefined)), "");
        assert_eq!(bound_column(None), "");
    }

    const FULL: Judging = Judging::Table(Profile::Full);
    const RELAXED: Judging = Judging::Relaxed {
        otherwise: Profile::Full,
    };

    /// A passing unit whose worst case (`absolute`: an absolute bound judged it) has `error`.
    fn judged_unit(function: &str, requirement: Requirement, judging: Judging) -> UnitReport {
        UnitReport {
            kind: Kind::Ulp,
            function: function.into(),
            element: FloatType::Float,
            width: 1,
            judging,
            requirement: Some(requirement),
            rule: String::new(),
            integer_outputs: vec![false],
            stats: UnitStats {
                inputs: 256,
                ..UnitStats::default()
            },
            status: Status::Pass,
            note: "inputs where the spec leaves the result undefined are not judged".into(),
        }
    }

    fn worst(args: &[f64], error: f64, absolute: bool) -> Option<Case> {
        Some(Case {
            index: 3,
            args: args.to_vec(),
            device_results: vec![0.5],
            references: vec![Float::with_val(53, 0.5)],
            error,
            absolute,
            outcome: crate::report::stats::Outcome::Pass,
            output: 0,
            lanes: Vec::new(),
        })
    }

    /// A vector unit's reproduce line gives every lane of the worst input's vector, each an
    /// `--input` in lane order (PoCL's float cos w2 failed a lane only beside a large one); a
    /// case that knows no lanes (width 1, a row read back from a CSV) gives its own input.
    #[test]
    fn a_vector_units_reproduce_line_gives_every_lane_in_order() {
        let facts = RunFacts {
            seed: 7,
            command: "clacc --platform 0 --device 0".into(),
            device: "Dev".into(),
            driver_version: "1".into(),
            build_options: String::new(),
            spec: Revision::Spec2026,
            path: KernelPath::Spirv,
        };
        let mut cos = judged_unit("cos", Requirement::Ulp(4.0), FULL);
        cos.width = 2;
        let small = crate::num::hexfloat::parse("-0x1.ffc836p-54").unwrap();
        cos.stats.worst = worst(&[small], 2046.0, false);
        let alone = "clacc --platform 0 --device 0 --kind ulp --function cos --type float --width 2 --input -0x1.ffc836p-54";
        assert_eq!(facts.reproduce(&cos).unwrap(), alone);
        if let Some(case) = cos.stats.worst.as_mut() {
            case.lanes = vec![vec![small], vec![2f64.powi(100)]];
        }
        assert_eq!(
            facts.reproduce(&cos).unwrap(),
            format!("{alone} --input 0x1p+100")
        );
        // Two arguments a lane: each lane's arguments together, comma-separated.
        let mut pow = judged_unit("pow", Requirement::Ulp(16.0), FULL);
        pow.width = 2;
        pow.stats.worst = worst(&[0.5, 3.0], 20.0, false);
        if let Some(case) = pow.stats.worst.as_mut() {
            case.lanes = vec![vec![1.5, -2.0], vec![0.5, 3.0]];
        }
        assert!(
            facts
                .reproduce(&pow)
                .unwrap()
                .ends_with(" --width 2 --input 0x1.8p+0,-0x1p+1 --input 0x1p-1,0x1.8p+1"),
            "{}",
            facts.reproduce(&pow).unwrap()
        );
    }

    /// Table 5's sin bounds the absolute error on [-pi, pi] and nothing elsewhere: no input is
    /// judged in ulp, so neither ulp column holds a figure (they held max_ulp 0 and Table 3's
    /// bound 4), and the note leads with what was measured against what bound.
    #[test]
    fn an_absolute_bound_reports_its_error_not_ulp_figures() {
        let mut sin = judged_unit("sin", Requirement::Ulp(4.0), RELAXED);
        sin.stats.max_abs_error = 1.1538560231492899e-4;
        sin.stats.worst = worst(&[1.5], sin.stats.max_abs_error, true);
        for spec in [Revision::Spec2017, Revision::Spec2026] {
            let figures = ErrorFigures::of(&sin, spec, KernelPath::Spirv);
            assert_eq!(figures.max_ulp, "");
            assert_eq!(figures.bound_ulp, "");
            assert_eq!(
                figures.note(&sin),
                "max abs error 1.15e-4 (bound 2^-11 = 4.88e-4 if x in [-pi,pi]); \
                 inputs where the spec leaves the result undefined are not judged"
            );
        }
        // sincos: each output by its own rule, both absolute.
        let mut sincos = sin.clone();
        sincos.function = "sincos".into();
        sincos.requirement = Some(Requirement::UlpEachOutput(4.0));
        let figures = ErrorFigures::of(&sincos, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(
            (figures.max_ulp.as_str(), figures.bound_ulp.as_str()),
            ("", "")
        );
        assert!(figures
            .absolute
            .starts_with("max abs error 1.15e-4 (bound 2^-11"));
        // Not measured: no figures, no clause.
        sin.status = Status::Error;
        sin.note = "driver refused the module".into();
        let figures = ErrorFigures::of(&sin, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(
            (figures.max_ulp.as_str(), figures.bound_ulp.as_str()),
            ("", "")
        );
        assert_eq!(figures.note(&sin), "driver refused the module");
        // The same function outside --profile relaxed is Table 3's ULP row, as before.
        let mut plain = judged_unit("sin", Requirement::Ulp(4.0), FULL);
        plain.stats.max_error = 0.5;
        plain.stats.worst = worst(&[1.5], 0.5, false);
        let figures = ErrorFigures::of(&plain, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(
            figures,
            ErrorFigures {
                max_ulp: "0.5".into(),
                bound_ulp: "4".into(),
                absolute: String::new(),
            }
        );
        assert_eq!(figures.note(&plain), plain.note);
    }

    /// The Vulkan cells with an absolute part report as Table 5's rows do: sin's NaN inputs
    /// (judged correct, error 0) gave a max_ulp of 0 where no input is judged in ulp.
    #[test]
    fn vulkan_absolute_cells_report_their_error_not_ulp_figures() {
        let full = Judging::Table(Profile::Full);
        let mut sin = judged_unit(
            "sin",
            Requirement::Vulkan(Cell::AbsoluteInside {
                absolute: 2f64.powi(-11),
                low: -std::f64::consts::PI,
                high: std::f64::consts::PI,
            }),
            full,
        );
        sin.note = String::new();
        sin.stats.max_abs_error = 3.5e-8;
        sin.stats.worst = worst(&[f64::NAN], 0.0, false);
        let figures = ErrorFigures::of(&sin, Revision::Spec2026, KernelPath::Vulkan);
        assert_eq!(figures.max_ulp, "");
        assert_eq!(figures.bound_ulp, "");
        assert_eq!(
            figures.note(&sin),
            "max abs error 3.50e-8 (bound 2^-11 = 4.88e-4 if x in [-pi,pi])"
        );
        let mut log = judged_unit(
            "log",
            Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
                ulp: 3.0,
                low: 0.5,
                high: 2.0,
                absolute: 2f64.powi(-21),
            }),
            full,
        );
        log.note = String::new();
        log.stats.max_error = 1.86;
        log.stats.max_abs_error = 1.0e-7;
        log.stats.worst = worst(&[3.0], 1.86, false);
        let figures = ErrorFigures::of(&log, Revision::Spec2026, KernelPath::Vulkan);
        assert_eq!(
            (figures.max_ulp.as_str(), figures.bound_ulp.as_str()),
            ("1.86", "3")
        );
        assert_eq!(
            figures.note(&log),
            "max abs error 1.00e-7 (bound 2^-21 = 4.77e-7 if x in [0.5,2]), max_ulp over the \
             other inputs"
        );
    }

    /// log under Table 5: absolute inside [0.5, 2], ulp outside: both, each in its place.
    #[test]
    fn a_mixed_rule_reports_both_measures() {
        let mut log = judged_unit("log", Requirement::Ulp(3.0), RELAXED);
        log.status = Status::Fail;
        log.note = String::new();
        log.stats.max_error = 366.52745078434606;
        log.stats.max_abs_error = 2.871150934846401e-5;
        log.stats.worst = worst(&[2.5], log.stats.max_error, false);
        let figures = ErrorFigures::of(&log, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(figures.max_ulp, "366.5275");
        assert_eq!(figures.bound_ulp, "3");
        assert_eq!(
            figures.note(&log),
            "max abs error 2.87e-5 (bound 2^-21 = 4.77e-7 if x in [0.5,2]), max_ulp over the \
             other inputs"
        );
        // The embedded profile's ULP piece.
        log.judging = Judging::Relaxed {
            otherwise: Profile::Embedded,
        };
        assert_eq!(
            ErrorFigures::of(&log, Revision::Spec2026, KernelPath::Spirv).bound_ulp,
            "4"
        );
        // Every input inside [0.5, 2]: nothing judged in ulp.
        log.stats.max_error = 0.0;
        log.stats.worst = worst(&[1.5], log.stats.max_abs_error, true);
        let figures = ErrorFigures::of(&log, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(figures.max_ulp, "");
        assert!(
            !figures.absolute.contains("max_ulp"),
            "{}",
            figures.absolute
        );
        // A not-conformant reason still leads the note.
        log.note = "not conformant: full-profile float without round to nearest even".into();
        assert!(figures.note(&log).starts_with("not conformant: "));
        assert!(figures
            .note(&log)
            .ends_with("; max abs error 2.87e-5 (bound 2^-21 = 4.77e-7 if x in [0.5,2])"));
    }

    #[test]
    fn a_merged_rows_clause_can_take_the_largest_error_of_every_shard() {
        let note = "max abs error 3.42e-5 (bound 2^-21 = 4.77e-7 if x in [0.5,2]), max_ulp over \
                    the other inputs; -cl-fast-relaxed-math: FTZ rules applied";
        assert_eq!(
            restate_max_abs_error(note, 3.9588730112945716e-5),
            note.replace("3.42e-5", "3.96e-5")
        );
        assert_eq!(restate_max_abs_error("no clause", 1.0), "no clause");
    }

    /// The 2026 text's absolute cells: a number (mix), or one that depends on the input (OpDot).
    #[test]
    fn table_3_absolute_cells_report_their_error_too() {
        let mut mix = judged_unit("mix", Requirement::Absolute(1e-3), FULL);
        mix.stats.max_abs_error = 3.5e-8;
        mix.stats.worst = worst(&[1.0, 2.0, 0.5], 3.5e-8, true);
        let figures = ErrorFigures::of(&mix, Revision::Spec2026, KernelPath::Spirv);
        assert_eq!(
            (figures.max_ulp.as_str(), figures.bound_ulp.as_str()),
            ("", "")
        );
        assert_eq!(figures.absolute, "max abs error 3.50e-8 (bound 1e-3)");
        let dot = Requirement::AbsoluteMaxSquared {
            operations: crate::spec::table::Linear {
                constant: 5.0,
                per_component: 0.0,
            },
            epsilon: crate::spec::table::Epsilon::Flt,
        };
        let mut dot = judged_unit("OpDot", dot, FULL);
        dot.width = 3;
        dot.stats.max_abs_error = 2.0e-7;
        dot.stats.worst = worst(&[1.0, -2.0, 0.5, 3.0, 1.0, 1.0], 2.0e-7, true);
        // max = 3: 9 * 5 * 2^-23.
        assert_eq!(
            ErrorFigures::of(&dot, Revision::Spec2026, KernelPath::Spirv).absolute,
            "max abs error 2.00e-7 (bound max*max*5*FLT_EPSILON = 5.36e-6 at the worst input)"
        );
    }

    #[test]
    fn csv_has_the_documented_header_and_quotes_per_rfc_4180() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut report = CsvReport::create(
            LockedCsv::open(&path).unwrap(),
            Provenance {
                shard: "0/1".into(),
                requested_inputs: 10,
                options: options_text(false, None, &[], false, None),
                planned_units: 1,
            },
        )
        .unwrap();
        let unit = UnitReport {
            kind: Kind::Ulp,
            function: "sin".into(),
            element: FloatType::Float,
            width: 1,
            judging: Judging::Table(Profile::Full),
            requirement: Some(Requirement::Ulp(4.0)),
            rule: String::new(),
            integer_outputs: vec![false],
            stats: UnitStats::default(),
            status: Status::Skip,
            note: "a note, with a comma and \"quotes\"".into(),
        };
        let facts = RunFacts {
            seed: 7,
            command: "clacc".into(),
            device: "Dev".into(),
            driver_version: "1".into(),
            build_options: String::new(),
            spec: crate::spec::table::Revision::Spec2017,
            path: crate::spec::environment::KernelPath::OpenclC,
        };
        report.write(&unit, &facts).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), COLUMNS.join(","));
        assert!(lines
            .next()
            .unwrap()
            .contains("\"a note, with a comma and \"\"quotes\"\"\""));
        let mut reader = csv::Reader::from_path(&path).unwrap();
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(&row[0], "sin");
        assert_eq!(&row[7], "4");
        assert_eq!(&row[11], "skip");
        assert_eq!(
            &row[COLUMNS.len() - 3],
            "2017",
            "the spec column names the revision"
        );
        assert_eq!(
            &row[COLUMNS.len() - 1],
            "opencl-c",
            "the path column names the kernels' path"
        );
    }

    #[test]
    fn a_csv_removed_or_replaced_during_the_run_gets_no_more_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let provenance = Provenance {
            shard: "0/1".into(),
            requested_inputs: 10,
            options: options_text(false, None, &[], false, None),
            planned_units: 3,
        };
        let mut report = CsvReport::create(LockedCsv::open(&path).unwrap(), provenance).unwrap();
        let unit = |function: &str| UnitReport {
            kind: Kind::Ulp,
            function: function.into(),
            element: FloatType::Float,
            width: 4,
            judging: Judging::Table(Profile::Full),
            requirement: Some(Requirement::Ulp(4.0)),
            rule: String::new(),
            integer_outputs: vec![false],
            stats: UnitStats::default(),
            status: Status::Skip,
            note: String::new(),
        };
        let facts = RunFacts {
            seed: 7,
            command: "clacc".into(),
            device: "Dev".into(),
            driver_version: "1".into(),
            build_options: String::new(),
            spec: crate::spec::table::Revision::Spec2026,
            path: crate::spec::environment::KernelPath::Spirv,
        };
        report.write(&unit("sin"), &facts).unwrap();
        std::fs::remove_file(&path).unwrap();
        let removed = report.write(&unit("cos"), &facts).unwrap_err().to_string();
        assert!(
            removed.starts_with("it was removed during the run, so the run stopped: the rows of the 1 units done before (ulp sin float w4) went to the file the run had opened"),
            "{removed}"
        );
        assert!(
            removed.contains("the row of ulp cos float w4, done,"),
            "{removed}"
        );
        // Recreated (an editor's save, `rm` then a new run's file): that file is not written.
        std::fs::write(&path, "someone else's\n").unwrap();
        let replaced = report.write(&unit("tan"), &facts).unwrap_err().to_string();
        assert!(
            replaced.starts_with("another file took its path during the run"),
            "{replaced}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone else's\n");
    }

    #[test]
    fn a_csv_being_written_cannot_be_opened_again_and_names_the_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locked.csv");
        let held = LockedCsv::open(&path).unwrap();
        match LockedCsv::open(&path) {
            Err(CsvOpenError::Busy { pid }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("opened twice: {:?}", other.map(|_| ())),
        }
        drop(held);
        // Another test's child process may hold a copy of the descriptor between its fork and
        // exec (the lock belongs to the open file, which that copy keeps open): the lock is
        // free once the exec closes it.
        let reopened = (0..100).any(|_| {
            LockedCsv::open(&path).is_ok() || {
                std::thread::sleep(std::time::Duration::from_millis(10));
                false
            }
        });
        assert!(reopened, "the lock outlived its file");
    }

    #[test]
    fn options_name_what_changes_the_numbers_and_nothing_else() {
        let plain = options_text(false, None, &[], false, None);
        assert_eq!(
            with_sweep_generation(&(plain.clone() + " work_group=64"), 2),
            "exhaustive=no cases=sweep sweep=2 kernels=clacc device_only=no work_group=64"
        );
        assert_eq!(
            plain,
            "exhaustive=no cases=sweep kernels=clacc device_only=no"
        );
        let with_cases = options_text(false, Some((1, &[1.0, 2.0])), &[], false, None);
        // The cases' count and the FNV-1a of their values' bytes, as CSVs written before the
        // cases were held flat name them (so those CSVs still resume).
        let bytes: Vec<u8> = [1.0f64, 2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert!(
            with_cases.contains(&format!("cases=1x{} ", content_hash(&bytes))),
            "{with_cases}"
        );
        assert_ne!(
            with_cases,
            options_text(false, Some((1, &[1.0, 3.0])), &[], false, None)
        );
        assert_eq!(
            options_text(false, None, &[], false, Some("0x0p+0:0x1p+0")),
            "exhaustive=no cases=sweep kernels=clacc device_only=no range=0x0p+0:0x1p+0"
        );
        let kernel = options_text(false, None, &[("sin".into(), vec![1, 2, 3])], false, None);
        assert!(kernel.contains(&format!("kernels=sin:{}", content_hash(&[1, 2, 3]))));
        // The hash is FNV-1a: stable across builds and machines.
        assert_eq!(content_hash(b""), "cbf29ce484222325");
        assert_eq!(content_hash(b"a"), "af63dc4c8601ec8c");
    }
}
