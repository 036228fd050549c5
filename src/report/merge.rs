//! Combining result CSVs: the shards of one run into what the unsharded run writes (counts
//! summed, maxima and worst cases merged), and reading back a CSV that `--resume` continues.
//!
//! The rule for the worst case is `report::stats::UnitStats::merge`'s, read from the columns: a
//! failing worst case outranks a passing one, then the larger error it was ranked at
//! (`worst_ulp`, or 0.5 for a correctly rounded result ranked at its bound), then the smaller
//! `worst_index`. The status is the worst of the shards' (crash, timeout, error, fail, pass,
//! skip): a unit that crashed in one shard never merges into a pass, and one that could not be
//! measured in a shard (error, timeout, crash) merges into that shard's row, as it stands in
//! the unsharded CSV.
//!
//! Every row read back is checked against what clacc writes (`check_row`): a row edited into a
//! pass, or one whose numbers do not parse, is refused with its file and line.
//!
//! Nothing is merged that is not provably the shards of one run: every row must agree on the
//! run's columns (`RUN_COLUMNS`), every shard `0..N` must be there exactly once, and every
//! shard must hold every unit exactly once.

use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::report::shard::Shard;
use crate::report::stats::BOUND_OF_CORRECTLY_ROUNDED;
use crate::report::CsvOpenError;
use crate::report::{
    format_ulp, Kind, LockedCsv, ALL_UNDEFINED_NOTE, COLUMNS, EMPTY_SHARD_NOTE, NOTHING_JUDGED_NOTE,
};
use crate::spec::environment::KernelPath;
use crate::spec::table::Revision;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Why CSVs cannot be read, merged, written or resumed. Each says which file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{what} {} exists and is not a regular file; give the path of a CSV file", path.display())]
    NotRegular { what: String, path: PathBuf },
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: csv::Error },
    #[error(
        "{} is not a CSV of this clacc version (its header differs); use files written by clacc {}",
        path.display(),
        env!("CARGO_PKG_VERSION")
    )]
    OtherVersion { path: PathBuf },
    #[error("cannot read {}: {source}", path.display())]
    ReadText {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}: {source}", path.display())]
    BadRecord {
        path: PathBuf,
        line: u64,
        source: csv::Error,
    },
    #[error(
        "{}:{line}: {column} `{}` {}; clacc never writes such a row (was the file edited?): restore it or rerun the unit into a fresh --csv",
        path.display(),
        bad.value,
        bad.problem,
        column = bad.column
    )]
    BadRow {
        path: PathBuf,
        line: u64,
        bad: BadCell,
    },
    #[error(
        "{} holds two rows for {unit} (two runs wrote it at once?); rerun that unit into a fresh --csv",
        path.display()
    )]
    TwoRows { path: PathBuf, unit: String },
    #[error(
        "cannot merge: {} was judged by the {spec} text of the spec, {} by the {other_spec} text; merge runs of one --spec only",
        earlier.display(),
        path.display()
    )]
    TwoRevisions {
        earlier: PathBuf,
        spec: String,
        path: PathBuf,
        other_spec: String,
    },
    #[error("no CSV to merge")]
    NothingToMerge,
    #[error(
        "{} has no rows: a finished shard writes a row for every unit; finish it with --resume first",
        path.display()
    )]
    NoRows { path: PathBuf },
    #[error(
        "{} and {} are not shards of one run: {column} is `{first_value}` in one and `{value}` in the other",
        first.display(),
        path.display()
    )]
    OtherRun {
        first: PathBuf,
        path: PathBuf,
        column: &'static str,
        first_value: String,
        value: String,
    },
    #[error("{} mixes rows of shards {shard} and {other_shard}; give each shard its own CSV", path.display())]
    MixedShards {
        path: PathBuf,
        shard: String,
        other_shard: String,
    },
    #[error("{}: `{text}` is not a shard (I/N)", path.display())]
    NotAShard { path: PathBuf, text: String },
    #[error(
        "{} is shard {shard} but another file is a shard of {count}; merge the shards of one --shard I/{count} run",
        path.display()
    )]
    OtherShardCount {
        path: PathBuf,
        shard: Shard,
        count: u64,
    },
    #[error(
        "shard {shard} is given twice ({} and {}); give each shard once",
        earlier.display(),
        path.display()
    )]
    ShardTwice {
        shard: Shard,
        earlier: PathBuf,
        path: PathBuf,
    },
    #[error(
        "unit {unit} is in {} but not in {}: a shard that did not finish? finish it with --resume",
        holder.display(),
        lacking.display()
    )]
    MissingUnit {
        unit: String,
        holder: PathBuf,
        lacking: PathBuf,
    },
    #[error(
        "the run planned {planned} units but its shards hold {held} (the last is {last}): units {} to {planned} of the plan are missing; finish every shard with --resume",
        held + 1
    )]
    UnfinishedPlan {
        planned: usize,
        held: usize,
        last: String,
    },
    #[error(
        "missing shard{} {}: merge the CSV of every shard of the run",
        if shards.len() == 1 { "" } else { "s" },
        shards.join(", ")
    )]
    MissingShards { shards: Vec<String> },
    #[error("cannot write {}: {source}", path.display())]
    Open { path: PathBuf, source: CsvOpenError },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: csv::Error },
    #[error("cannot write {}: {source}", path.display())]
    Flush {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "--resume: {} holds rows written with {was} ({unit}), this run has {now}; resume with the same options or give another --csv",
        path.display()
    )]
    ResumeOtherRun {
        path: PathBuf,
        was: String,
        unit: String,
        now: String,
    },
    #[error(
        "--resume: the rows of {} were written by a run of another selection ({} planned there, {planned_here} here); rerun with the same selection (--kind, --function, --type, --width) or give another --csv",
        path.display(),
        units(*planned_there)
    )]
    ResumeOtherSelection {
        path: PathBuf,
        planned_there: u64,
        planned_here: u64,
    },
    #[error(
        "--resume: {} holds rows of the {found} path ({unit}), and this run plans {planned}; resume with the --source that wrote it (--source both for both paths) or give another --csv",
        path.display()
    )]
    ResumeOtherPath {
        path: PathBuf,
        found: String,
        unit: String,
        planned: String,
    },
    #[error("cannot read --csv {} to resume: {source}", path.display())]
    ResumeRead {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot repair {}: {source}", path.display())]
    Repair {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "--resume: {} is not a CSV of this clacc version (its header differs); give another --csv or drop --resume",
        path.display()
    )]
    ResumeOtherVersion { path: PathBuf },
    #[error(
        "--resume: {} holds random inputs of sweep generation {there} and this clacc draws generation {here}: the same seed gives other inputs now, so its rows cannot be continued; give another --csv",
        path.display()
    )]
    ResumeOtherSweep {
        path: PathBuf,
        there: u32,
        here: u32,
    },
    #[error(
        "{} and {} hold random inputs of different sweep generations ({first_generation} in one, {generation} in the other): the same seed gave other inputs; merge CSVs of one clacc's run",
        first.display(),
        path.display()
    )]
    OtherSweep {
        first: PathBuf,
        path: PathBuf,
        first_generation: u32,
        generation: u32,
    },
}

/// The random sweep generation an `options` text records: its `sweep=N`; 1 for a run without
/// `--exhaustive` or cases that names none (written before generation 2); `None` where the run
/// may have drawn no random input (cases given, or `--exhaustive`, whose rows no generation
/// changes unless a unit fell back to random inputs, and then its options differ anyway).
pub fn sweep_generation(options: &str) -> Option<u32> {
    let pairs = option_pairs(options);
    let named = |key: &str, value: &str| pairs.contains(&(key, value));
    match pairs.iter().find(|(key, _)| *key == "sweep") {
        Some((_, value)) => value.parse().ok(),
        None => (named("exhaustive", "no") && named("cases", "sweep")).then_some(1),
    }
}

/// Two generations that both drew random inputs and differ.
fn other_generations(there: &str, here: &str) -> Option<(u32, u32)> {
    match (sweep_generation(there), sweep_generation(here)) {
        (Some(there), Some(here)) if there != here => Some((there, here)),
        _ => None,
    }
}

/// Columns every row of one run shares: rows that differ in one were not made by one run.
/// (Listed names that the header lacks are ignored, so a later column can join the list.)
pub const RUN_COLUMNS: [&str; 8] = [
    "seed",
    "device",
    "driver_version",
    "clacc_version",
    "requested_inputs",
    "options",
    "spec",
    "planned_units",
];

fn run_columns() -> impl Iterator<Item = &'static str> {
    RUN_COLUMNS
        .iter()
        .copied()
        .filter(|name| COLUMNS.contains(name))
}

/// The statuses a row may have, best first: merging keeps the worst.
const STATUS_RANK: [&str; 6] = ["skip", "pass", "fail", "error", "timeout", "crash"];

fn rank(status: &str) -> usize {
    STATUS_RANK
        .iter()
        .position(|s| *s == status)
        .unwrap_or(STATUS_RANK.len())
}

/// One CSV row, by column name.
#[derive(Clone, Debug)]
pub struct Row {
    values: Vec<String>,
}

fn column(name: &str) -> usize {
    COLUMNS
        .iter()
        .position(|c| *c == name)
        .unwrap_or_else(|| panic!("no CSV column {name}"))
}

impl Row {
    /// A row of clacc's columns, in [`COLUMNS`]' order (what a run writes, `report::csv_record`).
    pub fn from_fields(values: Vec<String>) -> Row {
        assert_eq!(values.len(), COLUMNS.len(), "a row has every column");
        Row { values }
    }

    pub fn get(&self, name: &str) -> &str {
        &self.values[column(name)]
    }

    fn set(&mut self, name: &str, value: String) {
        self.values[column(name)] = value;
    }

    /// What identifies a unit across shards and resumed runs.
    pub fn unit_key(&self) -> String {
        [
            "kind",
            "function",
            "type",
            "width",
            "profile",
            "build_options",
            "path",
        ]
        .iter()
        .map(|name| self.get(name))
        .collect::<Vec<_>>()
        .join("|")
    }

    /// `sin float w1 (ulp, full)`, `sin float w1 (ulp, full, opencl-c)`, for messages: the
    /// path where it is not the SPIR-V one every CSV before the column holds.
    fn label(&self) -> String {
        let mut variant = vec![self.get("kind"), self.get("profile")];
        variant.extend(
            [self.get("build_options")]
                .into_iter()
                .filter(|options| !options.is_empty()),
        );
        if self.get("path") != KernelPath::Spirv.name() {
            variant.push(self.get("path"));
        }
        format!(
            "{} {} w{} ({})",
            self.get("function"),
            self.get("type"),
            self.get("width"),
            variant.join(", ")
        )
    }

    fn number(&self, name: &str) -> u64 {
        self.get(name).parse().unwrap_or(0)
    }

    fn ulp(&self, name: &str) -> f64 {
        match self.get(name) {
            "" => f64::NEG_INFINITY,
            "inf" => f64::INFINITY,
            text => text.parse().unwrap_or(f64::NEG_INFINITY),
        }
    }

    /// A passing row of a shard that held none of the unit's inputs.
    fn is_empty_shard_row(&self) -> bool {
        self.number("inputs") == 0 && self.get("note") == EMPTY_SHARD_NOTE
    }

    pub fn fields(&self) -> &[String] {
        &self.values
    }
}

/// `1 unit`, `3 units`.
fn units(count: u64) -> String {
    format!("{count} unit{}", if count == 1 { "" } else { "s" })
}

/// What is wrong with one cell of a row read back: its column, its text and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadCell {
    pub column: &'static str,
    pub value: String,
    pub problem: String,
}

/// The widths a unit has (`UnitId` widths; conversions and extension checks are 1).
const WIDTHS: [&str; 6] = ["1", "2", "3", "4", "8", "16"];

/// A count: decimal digits only (no sign, no exponent), within `u64`.
fn count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A decimal figure as `format_ulp` and `{:e}` write it: non-negative and finite, or `inf`
/// where `infinite` allows it. (Rust's own parse would take `nan`, `-0` and `infinity`.)
fn figure(text: &str, infinite: bool) -> Option<f64> {
    if text == "inf" {
        return infinite.then_some(f64::INFINITY);
    }
    if !text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    text.parse::<f64>().ok().filter(|value| value.is_finite())
}

/// An input as `hexfloat::format_f64` writes it: `[-]0x…p…`, `[-]inf` or `[-]nan`.
fn is_hex_float(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    match body {
        "inf" | "nan" => true,
        // A NaN input with its payload, as `report::format_inputs` writes it.
        _ if body.starts_with("nan(") => hexfloat::parse(body).is_some(),
        _ => body.starts_with("0x") && hexfloat::parse(body).is_some(),
    }
}

/// Checks a row read back against what `report::CsvReport` and `merge` write: every number
/// parses, every name is one clacc knows, and the status agrees with the numbers, so that a
/// row edited into a pass (or cut and glued) never merges or resumes as one.
fn check_row(row: &Row) -> Result<(), BadCell> {
    let bad = |column: &'static str, problem: String| BadCell {
        column,
        value: row.get(column).to_string(),
        problem,
    };
    let one_of = |column: &'static str, known: &[&str]| {
        if known.contains(&row.get(column)) {
            Ok(())
        } else {
            Err(bad(column, format!("is not one of {}", known.join(", "))))
        }
    };
    if row.get("function").is_empty() {
        return Err(bad("function", "is empty".to_string()));
    }
    let types: Vec<&str> = FloatType::ALL.iter().map(|t| t.name()).collect();
    one_of("type", &types)?;
    one_of("width", &WIDTHS)?;
    one_of("profile", &["full", "embedded", "relaxed"])?;
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    one_of("kind", &kinds)?;
    one_of("status", &STATUS_RANK)?;
    let spec: Vec<&str> = Revision::ALL.iter().map(|r| r.name()).collect();
    one_of("spec", &spec)?;
    let paths: Vec<&str> = KernelPath::ALL.iter().map(|p| p.name()).collect();
    one_of("path", &paths)?;
    let mut counts = HashMap::new();
    for column in [
        "inputs",
        "failures",
        "undefined",
        "requested_inputs",
        "planned_units",
    ] {
        let value = count(row.get(column))
            .ok_or_else(|| bad(column, "is not a count (decimal digits)".to_string()))?;
        counts.insert(column, value);
    }
    if counts["failures"] > counts["inputs"] {
        return Err(bad(
            "failures",
            format!("exceeds inputs ({})", row.get("inputs")),
        ));
    }
    // Empty where nothing was measured; `inf` where a NaN met a number.
    let optional = |column: &'static str, infinite: bool| match row.get(column) {
        "" => Ok(None),
        text => figure(text, infinite).map(Some).ok_or_else(|| {
            bad(
                column,
                format!(
                    "is not a non-negative decimal{}",
                    if infinite { ", `inf`" } else { "" }
                ) + " or empty",
            )
        }),
    };
    let max_ulp = optional("max_ulp", true)?;
    let bound_ulp = optional("bound_ulp", false)?;
    optional("worst_ulp", true)?;
    optional("max_abs_error", true)?;
    let worst = row.get("worst_input");
    if !worst.is_empty() && !worst.split(' ').all(is_hex_float) {
        return Err(bad(
            "worst_input",
            "is not C99 hex floats (`%a`) separated by spaces".to_string(),
        ));
    }
    if !row.get("worst_index").is_empty() && count(row.get("worst_index")).is_none() {
        return Err(bad(
            "worst_index",
            "is not a count (decimal digits) or empty".to_string(),
        ));
    }
    // A worst case is written whole or not at all.
    for column in ["worst_ulp", "worst_index"] {
        if row.get(column).is_empty() != worst.is_empty() {
            return Err(bad(
                column,
                format!(
                    "is {} while worst_input is {}",
                    if row.get(column).is_empty() {
                        "empty"
                    } else {
                        "given"
                    },
                    if worst.is_empty() { "empty" } else { "given" }
                ),
            ));
        }
    }
    let status = row.get("status");
    let measured = matches!(status, "pass" | "fail");
    // A row every input of which an absolute bound judged measured nothing in ulp
    // (`report::ErrorFigures`): its measure is max_abs_error (empty where every error was 0).
    let judged_absolutely = !row.get("max_abs_error").is_empty() || row.get("rule").contains("abs");
    match (measured, max_ulp) {
        (true, None) if judged_absolutely => {}
        (true, None) => {
            return Err(bad(
                "max_ulp",
                format!("is empty in a `{status}` row, which was measured"),
            ))
        }
        (false, Some(_)) => {
            return Err(bad(
                "max_ulp",
                format!("is given in a `{status}` row, which was not measured"),
            ))
        }
        _ => {}
    }
    if status == "pass" {
        if counts["failures"] > 0 {
            return Err(bad(
                "status",
                format!("contradicts failures {}", row.get("failures")),
            ));
        }
        // Where bound_ulp judged the unit (its rule is the table cell's own: a Table 5 rule,
        // `<=4096 ulp` or `derived:…`, judges by another). A correctly rounded or exact result
        // ranks at 0.5 ulp (`record_fast`), and correctly rounded toward zero is within 1: no
        // bound below 1 ulp is read as tighter than that.
        let rule = row.get("rule");
        let judged_by_bound = rule.starts_with(&format!("<= {} ulp", row.get("bound_ulp")))
            || rule.starts_with("correctly rounded")
            || rule.starts_with("0 ulp");
        if let (Some(max), Some(bound), true) = (max_ulp, bound_ulp, judged_by_bound) {
            if max > bound.max(1.0) {
                return Err(bad(
                    "status",
                    format!(
                        "contradicts max_ulp {} above bound_ulp {}",
                        row.get("max_ulp"),
                        row.get("bound_ulp")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Refuses a path that exists and is not a regular file (a FIFO, `/dev/full`, a folder):
/// reading one may never end, writing one loses the rows.
pub fn refuse_irregular(path: &Path, what: &str) -> Result<(), MergeError> {
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => Err(MergeError::NotRegular {
            what: what.to_string(),
            path: path.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

/// A UTF-8 byte order mark, which some editors put before a CSV they save.
const BOM: &str = "\u{feff}";

/// `text` without a leading byte order mark.
fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// The columns of the CSVs clacc wrote before the `path` column: every one of their rows is of
/// the SPIR-V path, the only one there was.
const PATHLESS_COLUMNS: usize = COLUMNS.len() - 1;

/// The rows of a clacc CSV's text (its BOM already stripped): the header must be clacc's
/// (same columns, same order; or those before the `path` column, whose rows read as `spirv`)
/// and every row one clacc writes ([`check_row`]). The one reader of rows, for `merge`,
/// `--resume` and `certify`'s verdict.
fn parse_rows(path: &Path, text: &str) -> Result<Vec<Row>, MergeError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|source| MergeError::Read {
            path: path.to_path_buf(),
            source,
        })?
        .iter()
        .map(str::to_string)
        .collect();
    let pathless = header == COLUMNS[..PATHLESS_COLUMNS];
    if header != COLUMNS && !pathless {
        return Err(MergeError::OtherVersion {
            path: path.to_path_buf(),
        });
    }
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        let line = reader.position().line();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(source) => {
                return Err(MergeError::BadRecord {
                    path: path.to_path_buf(),
                    line: source.position().map_or(line, csv::Position::line),
                    source,
                })
            }
        }
        let mut values: Vec<String> = record.iter().map(str::to_string).collect();
        if pathless {
            values.push(KernelPath::Spirv.name().to_string());
        }
        let row = Row { values };
        check_row(&row).map_err(|bad| MergeError::BadRow {
            path: path.to_path_buf(),
            line: record.position().map_or(line, csv::Position::line),
            bad,
        })?;
        rows.push(row);
    }
    Ok(rows)
}

/// Reads a clacc CSV (see [`parse_rows`]).
pub fn read(path: &Path) -> Result<Vec<Row>, MergeError> {
    refuse_irregular(path, "CSV")?;
    let text = std::fs::read_to_string(path).map_err(|source| MergeError::ReadText {
        path: path.to_path_buf(),
        source,
    })?;
    parse_rows(path, without_bom(&text))
}

/// Refuses a file holding two rows of one unit.
fn refuse_duplicates(path: &Path, rows: &[Row]) -> Result<(), MergeError> {
    let mut seen = HashSet::new();
    for row in rows {
        if !seen.insert(row.unit_key()) {
            return Err(MergeError::TwoRows {
                path: path.to_path_buf(),
                unit: row.label(),
            });
        }
    }
    Ok(())
}

fn sum_allowances(a: &str, b: &str) -> String {
    let mut counts: Vec<(String, u64)> = Vec::new();
    for item in a.split_whitespace().chain(b.split_whitespace()) {
        if let Some((name, count)) = item.split_once(':') {
            let count: u64 = count.parse().unwrap_or(0);
            match counts.iter_mut().find(|(n, _)| n == name) {
                Some((_, total)) => *total += count,
                None => counts.push((name.to_string(), count)),
            }
        }
    }
    // The order `report::stats::Allowance::ALL` prints them in.
    let order = ["overflow", "ftz-result", "ftz-operands"];
    counts.sort_by_key(|(name, _)| order.iter().position(|o| o == name).unwrap_or(order.len()));
    counts
        .iter()
        .map(|(name, count)| format!("{name}:{count}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `candidate`'s worst case outranks `current`'s.
fn worst_outranks(candidate: &Row, current: &Row) -> bool {
    if candidate.get("worst_input").is_empty() {
        return false;
    }
    if current.get("worst_input").is_empty() {
        return true;
    }
    let failed = |row: &Row| row.number("failures") > 0;
    match (failed(candidate), failed(current)) {
        (true, false) => return true,
        (false, true) => return false,
        _ => {}
    }
    // Errors in ulp and absolute errors are not comparable: ulp ones rank first
    // (`stats::Case`'s rule).
    match (worst_is_absolute(candidate), worst_is_absolute(current)) {
        (false, true) => return true,
        (true, false) => return false,
        _ => {}
    }
    let (a, b) = (ranked_error(candidate), ranked_error(current));
    a > b || (a == b && candidate.number("worst_index") < current.number("worst_index"))
}

/// Whether a row's worst case was judged by an absolute bound: nothing in its row was measured
/// in ulp, and an absolute error was (`report::ErrorFigures`).
fn worst_is_absolute(row: &Row) -> bool {
    row.get("max_ulp").is_empty() && !row.get("max_abs_error").is_empty()
}

/// The error a row's worst case was ranked at in its run: `worst_ulp`, MPFR's confirmation,
/// except for a correctly rounded result the fast tiers recorded at its bound
/// (`UnitStats::record_fast`), which ranked there: its row's `max_ulp` is that bound.
fn ranked_error(row: &Row) -> f64 {
    let error = row.ulp("worst_ulp");
    if error <= BOUND_OF_CORRECTLY_ROUNDED && row.ulp("max_ulp") >= BOUND_OF_CORRECTLY_ROUNDED {
        BOUND_OF_CORRECTLY_ROUNDED
    } else {
        error
    }
}

/// Folds `other` (the same unit, another shard) into `merged`.
fn merge_row(merged: &mut Row, other: &Row) {
    if matches!(merged.get("kind"), "conversion" | "extension") {
        // These units are not split by shards: every shard ran them whole. Keep one row, the
        // worst.
        if rank(other.get("status")) > rank(merged.get("status")) {
            *merged = other.clone();
        }
        return;
    }
    // A unit that could not be measured in a shard (error, timeout, crash) merges into that
    // shard's row whole, as the unsharded run writes it: no measurements, the note saying why.
    // Between two such rows of one status, the lower shard's, whatever the order of the files.
    let (was, came) = (rank(merged.get("status")), rank(other.get("status")));
    if was.max(came) >= rank("error") {
        let shard_index = |row: &Row| Shard::parse(row.get("shard")).map_or(u64::MAX, |s| s.index);
        if came > was || (came == was && shard_index(other) < shard_index(merged)) {
            *merged = other.clone();
        }
        return;
    }
    let before = merged.clone();
    // Decide the worst case on the rows as they were, before their counts are summed.
    let other_worst_outranks = worst_outranks(other, merged);
    for name in ["inputs", "failures", "undefined"] {
        let total = merged.number(name).saturating_add(other.number(name));
        merged.set(name, total.to_string());
    }
    merged.set(
        "allowed",
        sum_allowances(merged.get("allowed"), other.get("allowed")),
    );
    let max = merged.ulp("max_ulp").max(other.ulp("max_ulp"));
    if max.is_finite() || max == f64::INFINITY {
        merged.set("max_ulp", format_ulp(max));
    }
    let max_abs_error = merged.ulp("max_abs_error").max(other.ulp("max_abs_error"));
    if max_abs_error.is_finite() {
        merged.set("max_abs_error", format!("{max_abs_error:e}"));
    }
    if other_worst_outranks {
        // The note of a failing unit describes its worst case: it travels with it.
        for name in [
            "worst_input",
            "worst_device",
            "worst_reference",
            "worst_ulp",
            "worst_index",
            "note",
        ] {
            merged.set(name, other.get(name).to_string());
        }
    }
    if before.is_empty_shard_row() && !other.is_empty_shard_row() {
        merged.set("note", other.get("note").to_string());
    }
    // The note came with the worst case's shard, which need not hold the largest absolute
    // error (Table 5's log judges some inputs in ulp, some absolutely).
    if max_abs_error.is_finite() {
        let note = crate::report::restate_max_abs_error(merged.get("note"), max_abs_error);
        merged.set("note", note);
    }
    // The worst status wins.
    if came > was {
        merged.set("status", other.get("status").to_string());
    }
    // A unit that failed in one shard fails; a passing shard beside it does not change that.
    if merged.get("status") == "pass" && merged.number("failures") > 0 {
        merged.set("status", "fail".to_string());
    }
}

/// Refuses rows judged by different revisions of the spec (the `spec` column): their verdicts
/// answer different questions.
fn one_revision(files: &[(PathBuf, Vec<Row>)]) -> Result<(), MergeError> {
    let mut first: Option<(&Path, &str)> = None;
    for (path, rows) in files {
        for row in rows {
            match first {
                None => first = Some((path, row.get("spec"))),
                Some((earlier, spec)) if spec != row.get("spec") => {
                    return Err(MergeError::TwoRevisions {
                        earlier: earlier.to_path_buf(),
                        spec: spec.to_string(),
                        path: path.clone(),
                        other_spec: row.get("spec").to_string(),
                    })
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// The unit columns a whole run shares (every row of a `--profile relaxed` run's ULP units is
/// `relaxed`, every row of a `--build-options` run has them, every row of a `--source opencl-c`
/// run is `opencl-c`), which are not `RUN_COLUMNS` because `clacc certify` and `--source both`
/// write several into one CSV.
const VARIANT_COLUMNS: [&str; 3] = ["profile", "build_options", "path"];

/// Where the first file lacks a unit the second holds, or the other way round (`missing`, a
/// unit key): the variant column in which the two files' rows differ, with the first file's
/// value and the second's, when the lacking file holds the same unit under another variant
/// that the holder lacks (shards of another `--profile` or `--build-options`, not a shard
/// that stopped early). Files are (rows, unit keys).
fn other_variant(
    missing: &str,
    first: (&[Row], &BTreeSet<String>),
    second: (&[Row], &BTreeSet<String>),
) -> Option<(&'static str, String, String)> {
    let (holder, lacking, first_holds) = if first.1.contains(missing) {
        (first, second, true)
    } else {
        (second, first, false)
    };
    let held = holder.0.iter().find(|row| row.unit_key() == missing)?;
    let same_unit = |row: &&Row| {
        ["kind", "function", "type", "width"]
            .iter()
            .all(|name| row.get(name) == held.get(name))
    };
    let counterpart = lacking
        .0
        .iter()
        .filter(same_unit)
        .find(|row| !holder.1.contains(&row.unit_key()))?;
    let column = VARIANT_COLUMNS
        .into_iter()
        .find(|name| held.get(name) != counterpart.get(name))?;
    let (held_value, other_value) = (
        held.get(column).to_string(),
        counterpart.get(column).to_string(),
    );
    Some(if first_holds {
        (column, held_value, other_value)
    } else {
        (column, other_value, held_value)
    })
}

/// Checks that `files` are the complete shards of one run; returns the shard count.
fn check_one_run(files: &[(PathBuf, Vec<Row>)]) -> Result<u64, MergeError> {
    one_revision(files)?;
    let (first_path, first_rows) = files.first().ok_or(MergeError::NothingToMerge)?;
    let reference = first_rows.first().ok_or_else(|| MergeError::NoRows {
        path: first_path.clone(),
    })?;
    let keys: BTreeSet<String> = first_rows.iter().map(Row::unit_key).collect();
    let mut owners: HashMap<u64, &Path> = HashMap::new();
    let mut count = None;
    for (path, rows) in files {
        let Some(first) = rows.first() else {
            return Err(MergeError::NoRows { path: path.clone() });
        };
        refuse_duplicates(path, rows)?;
        for row in rows {
            if let Some((first_generation, generation)) =
                other_generations(reference.get("options"), row.get("options"))
            {
                return Err(MergeError::OtherSweep {
                    first: first_path.clone(),
                    path: path.clone(),
                    first_generation,
                    generation,
                });
            }
            for name in run_columns() {
                if row.get(name) != reference.get(name) {
                    return Err(MergeError::OtherRun {
                        first: first_path.clone(),
                        path: path.clone(),
                        column: name,
                        first_value: reference.get(name).to_string(),
                        value: row.get(name).to_string(),
                    });
                }
            }
            if row.get("shard") != first.get("shard") {
                return Err(MergeError::MixedShards {
                    path: path.clone(),
                    shard: first.get("shard").to_string(),
                    other_shard: row.get("shard").to_string(),
                });
            }
        }
        let shard = Shard::parse(first.get("shard")).ok_or_else(|| MergeError::NotAShard {
            path: path.clone(),
            text: first.get("shard").to_string(),
        })?;
        match count {
            None => count = Some(shard.count),
            Some(n) if n != shard.count => {
                return Err(MergeError::OtherShardCount {
                    path: path.clone(),
                    shard,
                    count: n,
                })
            }
            Some(_) => {}
        }
        if let Some(earlier) = owners.insert(shard.index, path) {
            return Err(MergeError::ShardTwice {
                shard,
                earlier: earlier.to_path_buf(),
                path: path.clone(),
            });
        }
        let file_keys: BTreeSet<String> = rows.iter().map(Row::unit_key).collect();
        if let Some(missing) = keys.symmetric_difference(&file_keys).next() {
            if let Some((column, first_value, value)) =
                other_variant(missing, (first_rows, &keys), (rows, &file_keys))
            {
                return Err(MergeError::OtherRun {
                    first: first_path.clone(),
                    path: path.clone(),
                    column,
                    first_value,
                    value,
                });
            }
            let (holder, lacking) = if keys.contains(missing) {
                (first_path, path)
            } else {
                (path, first_path)
            };
            return Err(MergeError::MissingUnit {
                unit: missing.replace('|', " "),
                holder: holder.clone(),
                lacking: lacking.clone(),
            });
        }
    }
    // Every shard plans every unit and writes them in plan order; shards that all stopped after
    // the same unit agree with each other but lack the plan's last units.
    let planned = reference.number("planned_units") as usize;
    if planned > keys.len() {
        let last = first_rows.last().map(Row::unit_key).unwrap_or_default();
        return Err(MergeError::UnfinishedPlan {
            planned,
            held: keys.len(),
            last: last.replace('|', " "),
        });
    }
    let count = count.expect("at least one file");
    let missing: Vec<String> = (0..count)
        .filter(|index| !owners.contains_key(index))
        .map(|index| format!("{index}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards { shards: missing });
    }
    Ok(count)
}

/// Merges shard CSVs (each with its path, for messages): rows of the same unit are combined,
/// in the order of first appearance. Refuses files that are not the complete shards of one run.
pub fn merge(files: &[(PathBuf, Vec<Row>)]) -> Result<Vec<Row>, MergeError> {
    check_one_run(files)?;
    let mut merged: Vec<Row> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for (_, rows) in files {
        for row in rows {
            match position.get(&row.unit_key()) {
                Some(index) => merge_row(&mut merged[*index], row),
                None => {
                    position.insert(row.unit_key(), merged.len());
                    merged.push(row.clone());
                }
            }
        }
    }
    for row in &mut merged {
        // The merged rows are the whole run's.
        row.set("shard", "0/1".to_string());
        // No shard judged an input: what the whole run writes (`campaign`'s rule).
        if row.is_empty_shard_row() && row.get("status") == "pass" {
            let (status, note) = if row.number("undefined") > 0 {
                ("skip", ALL_UNDEFINED_NOTE)
            } else {
                ("error", NOTHING_JUDGED_NOTE)
            };
            row.set("status", status.to_string());
            row.set("note", note.to_string());
            // Not measured: no max_ulp, as `report::CsvReport` writes such rows.
            row.set("max_ulp", String::new());
        }
    }
    Ok(merged)
}

/// Writes rows under clacc's header.
pub fn write(path: &Path, rows: &[Row]) -> Result<(), MergeError> {
    let flush_failure = |source: std::io::Error| MergeError::Flush {
        path: path.to_path_buf(),
        source,
    };
    let file = crate::report::LockedCsv::open(path)
        .map_err(|source| MergeError::Open {
            path: path.to_path_buf(),
            source,
        })?
        .truncate()
        .map_err(flush_failure)?;
    let mut writer = csv::Writer::from_writer(file);
    let failure = |source: csv::Error| MergeError::Write {
        path: path.to_path_buf(),
        source,
    };
    writer.write_record(COLUMNS).map_err(failure)?;
    for row in rows {
        writer.write_record(row.fields()).map_err(failure)?;
    }
    writer.flush().map_err(flush_failure)
}

/// Whether `path` starts with clacc's header (this version's or an older one's: the first
/// thirteen columns are stable), so that overwriting it loses nothing clacc did not write.
pub fn is_clacc_csv(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    if std::io::BufReader::new(file.take(4096))
        .read_line(&mut first)
        .is_err()
    {
        return false;
    }
    without_bom(&first).starts_with(&COLUMNS[..13].join(","))
}

use std::io::Read as _;

/// `exhaustive=no cases=sweep` → pairs, to name the option that differs.
fn option_pairs(text: &str) -> Vec<(&str, &str)> {
    text.split_whitespace()
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect()
}

/// Refuses rows written by another run than the one described by `expected` ((column, value)
/// pairs: the run's columns and the shard), naming the first option that differs.
fn refuse_other_runs(
    path: &Path,
    rows: &[Row],
    expected: &[(&str, String)],
) -> Result<(), MergeError> {
    let options = expected.iter().find(|(name, _)| *name == "options");
    for row in rows {
        // Named first: another generation's rows differ from this run's in every input.
        if let Some((_, value)) = options {
            if let Some((there, here)) = other_generations(row.get("options"), value) {
                return Err(MergeError::ResumeOtherSweep {
                    path: path.to_path_buf(),
                    there,
                    here,
                });
            }
        }
        for (name, value) in expected {
            let found = row.get(name);
            if found == value {
                continue;
            }
            // Another count of planned units: the rows are of another selection of units.
            if *name == "planned_units" {
                if let (Some(there), Some(here)) = (count(found), count(value)) {
                    return Err(MergeError::ResumeOtherSelection {
                        path: path.to_path_buf(),
                        planned_there: there,
                        planned_here: here,
                    });
                }
            }
            let (was, now) = if *name == "options" {
                let (was_pairs, now_pairs) = (option_pairs(found), option_pairs(value));
                // A key only one side names (`work_group`, named only off its default) is
                // shown as the default on the other.
                let shown = |pairs: &[(&str, &str)], key: &str| {
                    pairs.iter().find(|(k, _)| *k == key).map_or_else(
                        || format!("{key} at its default"),
                        |(_, v)| format!("{key}={v}"),
                    )
                };
                was_pairs
                    .iter()
                    .find(|pair| !now_pairs.contains(pair))
                    .or_else(|| now_pairs.iter().find(|pair| !was_pairs.contains(pair)))
                    .map(|(key, _)| (shown(&was_pairs, key), shown(&now_pairs, key)))
                    .unwrap_or_else(|| (found.to_string(), value.to_string()))
            } else {
                (format!("{name} {found}"), format!("{name} {value}"))
            };
            return Err(MergeError::ResumeOtherRun {
                path: path.to_path_buf(),
                was,
                unit: row.label(),
                now,
            });
        }
    }
    Ok(())
}

/// Refuses rows of a kernel path the run does not plan (`paths`): an OpenCL C row in a SPIR-V
/// run's CSV, or the other way round, is another run's.
fn refuse_other_paths(path: &Path, rows: &[Row], paths: &[KernelPath]) -> Result<(), MergeError> {
    let planned: Vec<&str> = paths.iter().map(|p| p.name()).collect();
    match rows.iter().find(|row| !planned.contains(&row.get("path"))) {
        Some(row) => Err(MergeError::ResumeOtherPath {
            path: path.to_path_buf(),
            found: row.get("path").to_string(),
            unit: row.label(),
            planned: planned.join(" and "),
        }),
        None => Ok(()),
    }
}

/// Prepares `path` for `--resume`: checks that it is a clacc CSV of the same run (`expected`:
/// (column, value) pairs every row must have; `paths`: the kernel paths it plans) before
/// touching it, keeps its header and every complete row, drops a row cut off by an
/// interruption, and returns the rows already there.
pub fn resume(
    path: &Path,
    expected: &[(&str, String)],
    paths: &[KernelPath],
) -> Result<Vec<Row>, MergeError> {
    refuse_irregular(path, "--csv")?;
    let text = std::fs::read_to_string(path).map_err(|source| MergeError::ResumeRead {
        path: path.to_path_buf(),
        source,
    })?;
    // A byte order mark (an editor's) is no part of the header; a repair drops it.
    let text = without_bom(&text);
    let repair_failure = |source: std::io::Error| MergeError::Repair {
        path: path.to_path_buf(),
        source,
    };
    let header = COLUMNS.join(",");
    if text.trim().is_empty() {
        // Killed before anything was written: start it again from the header.
        std::fs::write(path, format!("{header}\n")).map_err(repair_failure)?;
        return Ok(Vec::new());
    }
    if !text.contains('\n') && header.starts_with(text) {
        // Cut off inside the header: nothing was measured yet.
        std::fs::write(path, format!("{header}\n")).map_err(repair_failure)?;
        return Ok(Vec::new());
    }
    if text.lines().next() != Some(header.as_str()) {
        return Err(MergeError::ResumeOtherVersion {
            path: path.to_path_buf(),
        });
    }
    // Every row clacc writes ends with a newline; anything after the last one was cut off.
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let rows = parse_rows(path, complete)?;
    refuse_duplicates(path, &rows)?;
    refuse_other_paths(path, &rows, paths)?;
    refuse_other_runs(path, &rows, expected)?;
    if complete.len() != text.len() {
        let repaired = if complete.is_empty() {
            format!("{header}\n")
        } else {
            complete.to_string()
        };
        std::fs::write(path, repaired).map_err(repair_failure)?;
    }
    Ok(rows)
}

/// Whether a row is of a unit that did not complete (`error`, `timeout`, `crash`): what
/// [`resume_retrying`] runs again.
pub fn did_not_complete(row: &Row) -> bool {
    rank(row.get("status")) >= rank("error")
}

/// `--resume` that also runs again the units that did not complete ([`did_not_complete`]: a
/// crash, a time-out, an error), whose rows [`resume`] would keep for ever. Checks and repairs
/// `path` as [`resume`] does, then, where such rows are there, replaces the file by one
/// without them: the kept rows are written to a temporary file beside it, which is locked,
/// synced and renamed over `path`, so an interruption leaves either the old file or the new
/// one, never a part of either. `locked` is the caller's lock on `path`; the lock returned is
/// on the file `path` names afterwards (the one to append the units' new rows to). Returns the
/// rows kept.
pub fn resume_retrying(
    path: &Path,
    expected: &[(&str, String)],
    paths: &[KernelPath],
    locked: LockedCsv,
) -> Result<(LockedCsv, Vec<Row>), MergeError> {
    let rows = resume(path, expected, paths)?;
    if !rows.iter().any(did_not_complete) {
        return Ok((locked, rows));
    }
    let kept: Vec<Row> = rows
        .into_iter()
        .filter(|row| !did_not_complete(row))
        .collect();
    // A link to the CSV stays a link: the file it names is the one replaced.
    let target = std::fs::canonicalize(path).map_err(|source| MergeError::Repair {
        path: path.to_path_buf(),
        source,
    })?;
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = target.with_file_name(format!(".{name}.clacc-retry"));
    let replaced = replace_rows(&target, &temporary, &kept);
    if replaced.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    // The old file's lock is held until the new file is in place (`locked` drops here), so a
    // run that opened the old one finds it busy, and `LockedCsv::open` then opens the path
    // again.
    drop(locked);
    let renamed = replaced?
        .renamed_to(path)
        .map_err(|source| MergeError::Repair {
            path: path.to_path_buf(),
            source,
        })?;
    Ok((renamed, kept))
}

/// Writes `rows` under clacc's header to `temporary`, locked, and renames it over `path`.
fn replace_rows(path: &Path, temporary: &Path, rows: &[Row]) -> Result<LockedCsv, MergeError> {
    let failure = |source: std::io::Error| MergeError::Repair {
        path: path.to_path_buf(),
        source,
    };
    let locked = LockedCsv::open(temporary).map_err(|error| match error {
        CsvOpenError::Io(source) => failure(source),
        busy @ CsvOpenError::Busy { .. } => failure(std::io::Error::other(format!(
            "{}: {busy}",
            temporary.display()
        ))),
    })?;
    locked.file.set_len(0).map_err(failure)?;
    let mut writer = csv::Writer::from_writer(&locked.file);
    let csv_failure = |source: csv::Error| failure(std::io::Error::other(source));
    writer.write_record(COLUMNS).map_err(csv_failure)?;
    for row in rows {
        writer.write_record(row.fields()).map_err(csv_failure)?;
    }
    writer.flush().map_err(failure)?;
    drop(writer);
    let permissions = std::fs::metadata(path).map_err(failure)?.permissions();
    std::fs::set_permissions(temporary, permissions).map_err(failure)?;
    locked.file.sync_all().map_err(failure)?;
    std::fs::rename(temporary, path).map_err(failure)?;
    Ok(locked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, &str)]) -> Row {
        let mut values = vec![String::new(); COLUMNS.len()];
        values[column("path")] = "spirv".to_string();
        for (name, value) in pairs {
            values[column(name)] = value.to_string();
        }
        Row { values }
    }

    fn unit(
        inputs: &str,
        failures: &str,
        max: &str,
        worst: &str,
        worst_ulp: &str,
        index: &str,
        status: &str,
    ) -> Row {
        row(&[
            ("kind", "ulp"),
            ("function", "sin"),
            ("type", "float"),
            ("width", "1"),
            ("profile", "full"),
            ("inputs", inputs),
            ("failures", failures),
            ("undefined", "1"),
            ("max_ulp", max),
            ("worst_input", worst),
            ("worst_ulp", worst_ulp),
            ("worst_index", index),
            ("status", status),
            ("allowed", "overflow:2"),
            ("shard", "0/1"),
            ("seed", "0x1"),
            ("requested_inputs", "10"),
            ("spec", "2026"),
            ("planned_units", "1"),
        ])
    }

    /// Each list of rows as shard i of n, under made-up paths.
    fn shards(files: Vec<Vec<Row>>) -> Vec<(PathBuf, Vec<Row>)> {
        let count = files.len();
        files
            .into_iter()
            .enumerate()
            .map(|(index, mut rows)| {
                for row in &mut rows {
                    row.set("shard", format!("{index}/{count}"));
                }
                (PathBuf::from(format!("shard{index}.csv")), rows)
            })
            .collect()
    }

    #[test]
    fn shards_merge_into_sums_maxima_and_the_worst_case() {
        let a = unit("100", "0", "1.5", "0x1p+0", "1.5", "7", "pass");
        let b = unit("50", "2", "6.25", "0x1p+3", "6.25", "120", "fail");
        let c = unit("60", "0", "7", "0x1p+4", "7", "3", "pass");
        let merged = merge(&shards(vec![
            vec![a.clone()],
            vec![b.clone()],
            vec![c.clone()],
        ]))
        .unwrap();
        assert_eq!(merged.len(), 1);
        let m = &merged[0];
        assert_eq!(m.get("inputs"), "210");
        assert_eq!(m.get("failures"), "2");
        assert_eq!(m.get("undefined"), "3");
        assert_eq!(m.get("max_ulp"), "7");
        // The failing shard's worst case outranks a larger passing error.
        assert_eq!(m.get("worst_input"), "0x1p+3");
        assert_eq!(m.get("status"), "fail");
        assert_eq!(m.get("allowed"), "overflow:6");
        // Order does not matter.
        let other = merge(&shards(vec![vec![c], vec![b], vec![a]])).unwrap();
        assert_eq!(other[0].fields(), m.fields());
    }

    /// Rows judged by an absolute bound: the largest absolute error of every shard, restated
    /// in the note, and a worst case judged in ulp outranks an absolute one.
    #[test]
    fn absolute_errors_merge_to_their_maximum_and_rank_below_ulp_errors() {
        let absolute = |max_abs: &str, worst_abs: &str, index: &str| {
            let mut row = unit("100", "0", "", "0x1p+0", worst_abs, index, "pass");
            row.set("max_abs_error", max_abs.to_string());
            row.set(
                "note",
                format!("max abs error {max_abs} (bound 2^-11 = 4.88e-4 if x in [-pi,pi])"),
            );
            row
        };
        let small = absolute("1.5e-5", "1.5e-5", "4");
        let large = absolute("1.50381e-4", "1.50381e-4", "9");
        for order in [
            vec![vec![small.clone()], vec![large.clone()]],
            vec![vec![large.clone()], vec![small.clone()]],
        ] {
            let merged = merge(&shards(order)).unwrap();
            let m = &merged[0];
            assert_eq!(m.get("max_abs_error"), "1.50381e-4");
            assert_eq!(m.get("max_ulp"), "");
            assert_eq!(m.get("worst_index"), "9");
            assert!(m.get("note").starts_with("max abs error 1.50e-4 "), "{m:?}");
        }
        // Under a mixed rule, a shard whose worst case was judged in ulp gives the worst case,
        // whatever the other's absolute error; the note still states the largest one.
        let mut in_ulp = unit("100", "0", "2.5", "0x1p+2", "2.5", "11", "pass");
        in_ulp.set("max_abs_error", "1e-6".to_string());
        in_ulp.set(
            "note",
            "max abs error 1.00e-6 (bound 2^-21), max_ulp over the other inputs".to_string(),
        );
        let merged = merge(&shards(vec![vec![large.clone()], vec![in_ulp]])).unwrap();
        let m = &merged[0];
        assert_eq!(m.get("worst_input"), "0x1p+2");
        assert_eq!(m.get("max_ulp"), "2.5");
        assert_eq!(m.get("max_abs_error"), "1.50381e-4");
        assert!(m.get("note").starts_with("max abs error 1.50e-4 "), "{m:?}");
    }

    /// Correctly rounded results ranked at their bound (max_ulp 0.5): the earlier input is
    /// the worst case, as in the unsharded run, whatever MPFR confirmed each shard's to be.
    #[test]
    fn correctly_rounded_worst_cases_rank_at_their_bound() {
        let early = unit("100", "0", "0.5", "0x0p+0", "0", "38", "pass");
        let late = unit("100", "0", "0.5", "0x1p+0", "0.0959", "65536", "pass");
        for files in [
            vec![vec![early.clone()], vec![late.clone()]],
            vec![vec![late.clone()], vec![early.clone()]],
        ] {
            assert_eq!(merge(&shards(files)).unwrap()[0].get("worst_index"), "38");
        }
        // A measured error above the bound still outranks them.
        let measured = unit("100", "0", "0.7", "0x1p+1", "0.7", "900", "pass");
        let merged = merge(&shards(vec![vec![early], vec![measured]])).unwrap();
        assert_eq!(merged[0].get("worst_index"), "900");
    }

    #[test]
    fn equal_errors_keep_the_earlier_input() {
        let a = unit("10", "0", "2", "0x1p+1", "2", "50", "pass");
        let b = unit("10", "0", "2", "0x1p+2", "2", "9", "pass");
        assert_eq!(
            merge(&shards(vec![vec![a], vec![b]])).unwrap()[0].get("worst_input"),
            "0x1p+2"
        );
    }

    #[test]
    fn resume_drops_a_row_cut_off_mid_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let done = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        write(&path, std::slice::from_ref(&done)).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("ulp,cos,float,1,fu");
        std::fs::write(&path, &text).unwrap();
        let rows = resume(&path, &[], &KernelPath::ALL).unwrap();
        assert_eq!(
            rows.iter().map(Row::unit_key).collect::<Vec<_>>(),
            vec![done.unit_key()]
        );
        assert!(std::fs::read_to_string(&path).unwrap().ends_with('\n'));
        assert_eq!(read(&path).unwrap().len(), 1);
    }

    #[test]
    fn resume_leaves_a_file_that_is_not_clacc_s_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.csv");
        std::fs::write(&path, "a,b\n1,2\n3,").unwrap();
        assert!(resume(&path, &[], &KernelPath::ALL)
            .unwrap_err()
            .to_string()
            .contains("not a CSV of this clacc version"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,2\n3,");
        // A file killed before its header was written starts again from the header.
        std::fs::write(&path, "").unwrap();
        assert!(resume(&path, &[], &KernelPath::ALL).unwrap().is_empty());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n", COLUMNS.join(","))
        );
    }

    #[test]
    fn a_crashed_shard_never_merges_into_a_pass() {
        let mut crashed = unit("0", "0", "", "", "", "", "crash");
        crashed.set("note", "crashed: killed by signal 11 (SIGSEGV)".into());
        crashed.set("allowed", String::new());
        let mut empty = unit("0", "0", "0", "", "", "", "pass");
        empty.set("note", EMPTY_SHARD_NOTE.into());
        for files in [
            vec![vec![crashed.clone()], vec![empty.clone()]],
            vec![vec![empty.clone()], vec![crashed.clone()]],
        ] {
            let merged = merge(&shards(files)).unwrap();
            assert_eq!(merged[0].get("status"), "crash");
            assert!(merged[0].get("note").contains("SIGSEGV"));
        }
        // A timeout outranks a fail.
        let mut timeout = unit("0", "0", "", "", "", "", "timeout");
        timeout.set("note", "did not finish".into());
        let failed = unit("10", "1", "9", "0x1p+0", "9", "3", "fail");
        let merged = merge(&shards(vec![vec![failed], vec![timeout]])).unwrap();
        assert_eq!(merged[0].get("status"), "timeout");
        assert_eq!(merged[0].get("note"), "did not finish");
        // Every shard empty: nothing judged, no pass.
        let mut nothing = empty.clone();
        nothing.set("undefined", "0".into());
        let merged = merge(&shards(vec![vec![nothing.clone()], vec![nothing]])).unwrap();
        assert_eq!(merged[0].get("status"), "error");
        assert_eq!(merged[0].get("note"), NOTHING_JUDGED_NOTE);
        // Every input undefined in every shard: does not apply, as in a whole run.
        let merged = merge(&shards(vec![vec![empty.clone()], vec![empty]])).unwrap();
        assert_eq!(merged[0].get("status"), "skip");
        assert_eq!(merged[0].get("note"), ALL_UNDEFINED_NOTE);
        assert_eq!(merged[0].get("max_ulp"), "");
    }

    #[test]
    fn merge_refuses_what_is_not_the_complete_shards_of_one_run() {
        let a = unit("10", "0", "1", "0x1p+0", "1", "1", "pass");
        let mut cos = a.clone();
        cos.set("function", "cos".into());
        let error = |files: Vec<(PathBuf, Vec<Row>)>| merge(&files).unwrap_err().to_string();
        // The same shard twice.
        let mut twice = shards(vec![vec![a.clone()], vec![a.clone()]]);
        twice[1].1[0].set("shard", "0/2".into());
        assert!(error(twice).contains("shard 0/2 is given twice"));
        // A missing shard is named.
        let mut partial = shards(vec![vec![a.clone()], vec![a.clone()]]);
        for row in &mut partial[1].1 {
            row.set("shard", "2/3".into());
        }
        for row in &mut partial[0].1 {
            row.set("shard", "0/3".into());
        }
        assert!(error(partial).contains("missing shard 1/3"));
        // Shards of runs with different N.
        let mut mixed = shards(vec![vec![a.clone()], vec![a.clone()]]);
        mixed[1].1[0].set("shard", "0/3".into());
        assert!(error(mixed).contains("shard of 2"));
        // Another seed.
        let mut seeds = shards(vec![vec![a.clone()], vec![a.clone()]]);
        seeds[1].1[0].set("seed", "0x2".into());
        assert!(error(seeds).contains("seed is `0x1` in one and `0x2`"));
        // Another device.
        let mut devices = shards(vec![vec![a.clone()], vec![a.clone()]]);
        devices[1].1[0].set("device", "other".into());
        assert!(error(devices).contains("device"));
        // Two rows of one unit in one file.
        assert!(error(shards(vec![vec![a.clone(), a.clone()]])).contains("holds two rows"));
        // A shard that did not finish every unit.
        assert!(error(shards(vec![vec![a.clone(), cos], vec![a.clone()]]))
            .contains("not in shard1.csv"));
        // A file with no rows.
        assert!(error(shards(vec![vec![a], vec![]])).contains("has no rows"));
    }

    #[test]
    fn resume_refuses_rows_of_another_run_naming_the_option() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let mut done = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        done.set("options", "exhaustive=no cases=sweep".into());
        write(&path, std::slice::from_ref(&done)).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        let expected = |options: &str, seed: &str| {
            vec![("seed", seed.to_string()), ("options", options.to_string())]
        };
        let message = resume(
            &path,
            &expected("exhaustive=yes cases=sweep", "0x1"),
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("exhaustive=no") && message.contains("exhaustive=yes"),
            "{message}"
        );
        let message = resume(
            &path,
            &expected("exhaustive=no cases=sweep", "0x9"),
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("seed 0x1") && message.contains("seed 0x9"),
            "{message}"
        );
        // A key named on one side only (work_group off its default) is the default on the
        // other, either way round.
        let message = resume(
            &path,
            &expected("exhaustive=no cases=sweep work_group=64", "0x1"),
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("written with work_group at its default")
                && message.contains("this run has work_group=64"),
            "{message}"
        );
        let mut grouped = done.clone();
        grouped.set(
            "options",
            "exhaustive=no cases=sweep work_group=device".into(),
        );
        let other = dir.path().join("grouped.csv");
        write(&other, std::slice::from_ref(&grouped)).unwrap();
        let message = resume(
            &other,
            &expected("exhaustive=no cases=sweep", "0x1"),
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("written with work_group=device")
                && message.contains("this run has work_group at its default"),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        assert_eq!(
            resume(
                &path,
                &expected("exhaustive=no cases=sweep", "0x1"),
                &KernelPath::ALL
            )
            .unwrap()
            .len(),
            1
        );
    }

    #[test]
    fn resume_refuses_rows_of_another_sweep_generation_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        // Written before generation 2: no `sweep=` in its options.
        let mut done = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        done.set("options", "exhaustive=no cases=sweep".into());
        write(&path, std::slice::from_ref(&done)).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        let expected = |options: &str, version: &str| {
            vec![
                ("clacc_version", version.to_string()),
                ("options", options.to_string()),
            ]
        };
        let message = resume(
            &path,
            &expected("exhaustive=no cases=sweep sweep=2", "9.9.9"),
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        // One line, named before any other column that differs (here the version).
        assert_eq!(
            message,
            format!(
                "--resume: {} holds random inputs of sweep generation 1 and this clacc draws generation 2: the same seed gives other inputs now, so its rows cannot be continued; give another --csv",
                path.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        // Generation 2's rows resume under generation 2.
        done.set("options", "exhaustive=no cases=sweep sweep=2".into());
        write(&path, std::slice::from_ref(&done)).unwrap();
        let version = done.get("clacc_version").to_string();
        let rows = resume(
            &path,
            &expected("exhaustive=no cases=sweep sweep=2", &version),
            &KernelPath::ALL,
        )
        .unwrap();
        assert_eq!(rows.len(), 1);
        // Runs that may have drawn no random input (exhaustive, cases given) name no generation.
        assert_eq!(sweep_generation("exhaustive=yes cases=sweep"), None);
        assert_eq!(sweep_generation("exhaustive=no cases=2x0123"), None);
        assert_eq!(sweep_generation("exhaustive=no cases=sweep"), Some(1));
        assert_eq!(
            sweep_generation("exhaustive=no cases=sweep sweep=2"),
            Some(2)
        );
    }

    #[test]
    fn merge_refuses_shards_of_two_sweep_generations_naming_both() {
        let mut a = unit("10", "0", "1", "0x1p+0", "1", "1", "pass");
        a.set("options", "exhaustive=no cases=sweep sweep=2".into());
        let mut old = a.clone();
        old.set("options", "exhaustive=no cases=sweep".into());
        let message = merge(&shards(vec![vec![a.clone()], vec![old.clone()]]))
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "shard0.csv and shard1.csv hold random inputs of different sweep generations (2 in one, 1 in the other): the same seed gave other inputs; merge CSVs of one clacc's run"
        );
        let message = merge(&shards(vec![vec![old.clone()], vec![a.clone()]]))
            .unwrap_err()
            .to_string();
        assert!(message.contains("(1 in one, 2 in the other)"), "{message}");
        // Shards of one generation merge.
        assert_eq!(
            merge(&shards(vec![vec![a.clone()], vec![a]]))
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            merge(&shards(vec![vec![old.clone()], vec![old]]))
                .unwrap()
                .len(),
            1
        );
    }

    /// A CSV at `path` holding a sin and a cos row (`cos` as `edit` leaves it), as text.
    fn csv_with_cos(path: &Path, edit: impl FnOnce(&mut Row)) -> String {
        let mut sin = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        sin.set("bound_ulp", "4".into());
        sin.set("rule", "<= 4 ulp".into());
        sin.set("planned_units", "2".into());
        let mut cos = sin.clone();
        cos.set("function", "cos".into());
        edit(&mut cos);
        write(path, &[sin, cos]).unwrap();
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn rows_that_contradict_themselves_are_refused_naming_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let bad: [(&str, &str, &str, &str); 16] = [
            // (column set, value, column named, words of the refusal)
            ("max_ulp", "7.1362e44", "status", "above bound_ulp 4"),
            ("max_ulp", "nan", "max_ulp", "non-negative decimal"),
            ("max_ulp", "-1", "max_ulp", "non-negative decimal"),
            ("max_ulp", "infinity", "max_ulp", "`infinity`"),
            ("failures", "11", "failures", "exceeds inputs (10)"),
            ("failures", "1", "status", "contradicts failures 1"),
            ("inputs", "ten", "inputs", "not a count"),
            ("undefined", "-1", "undefined", "not a count"),
            ("worst_input", "0x1p+0 zz", "worst_input", "hex floats"),
            ("worst_input", "1.5", "worst_input", "hex floats"),
            ("kind", "bogus", "kind", "not one of ulp, edge"),
            ("type", "quad", "type", "not one of half, float, double"),
            ("width", "5", "width", "not one of"),
            ("profile", "strict", "profile", "not one of full"),
            ("status", "passed", "status", "not one of"),
            (
                "worst_ulp",
                "",
                "worst_ulp",
                "empty while worst_input is given",
            ),
        ];
        for (column, value, named, words) in bad {
            let text = csv_with_cos(&path, |cos| cos.set(column, value.into()));
            for message in [
                read(&path).unwrap_err().to_string(),
                resume(&path, &[], &KernelPath::ALL)
                    .unwrap_err()
                    .to_string(),
            ] {
                let wanted = format!("{}:3: {named} `", path.display());
                assert!(
                    message.starts_with(&wanted) && message.contains(words),
                    "{column}={value}: {message}"
                );
            }
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        // Measured rows have a max_ulp; unmeasured ones none.
        let text = csv_with_cos(&path, |cos| cos.set("max_ulp", String::new()));
        assert!(read(&path)
            .unwrap_err()
            .to_string()
            .contains("max_ulp `` is empty in a `pass` row"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        csv_with_cos(&path, |cos| cos.set("status", "crash".into()));
        assert!(read(&path)
            .unwrap_err()
            .to_string()
            .contains("max_ulp `2` is given in a `crash` row"));
        // What clacc writes passes: correctly rounded toward zero within 1 ulp of a 0.5
        // bound, an exact result ranked at 0.5, `inf` in a failing row, an integer output, a
        // Table 5 rule looser than the table's bound_ulp.
        for (rule, bound, max, status) in [
            ("correctly rounded", "0.5", "0.9", "pass"),
            ("0 ulp", "0", "0.5", "pass"),
            ("<= 4 ulp", "4", "inf", "fail"),
            ("<=4096 ulp", "4", "376.738", "pass"),
            (
                "derived:sin(x)*(1/cos(x)) or <=8192 ulp",
                "5",
                "5.6242",
                "pass",
            ),
        ] {
            csv_with_cos(&path, |cos| {
                cos.set("rule", rule.into());
                cos.set("bound_ulp", bound.into());
                cos.set("max_ulp", max.into());
                cos.set("status", status.into());
                cos.set("worst_input", "-0x1.8p-3 inf -nan".into());
                cos.set("worst_device", "3".into());
            });
            assert_eq!(read(&path).unwrap().len(), 2, "{rule} {max} {status}");
        }
    }

    #[test]
    fn a_csv_with_a_byte_order_mark_is_read_resumed_and_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.csv");
        let text = csv_with_cos(&path, |_| {});
        std::fs::write(&path, format!("{BOM}{text}")).unwrap();
        assert!(is_clacc_csv(&path));
        assert_eq!(read(&path).unwrap().len(), 2);
        assert_eq!(resume(&path, &[], &KernelPath::ALL).unwrap().len(), 2);
        // A row cut off behind it is dropped as without it.
        std::fs::write(&path, format!("{BOM}{text}ulp,tan,fl")).unwrap();
        assert_eq!(resume(&path, &[], &KernelPath::ALL).unwrap().len(), 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_unit_not_measured_in_a_shard_merges_into_that_shard_s_row() {
        // What `UnitId::lost` writes: no requirement, no measurement.
        let mut crashed = unit("0", "0", "", "", "", "", "crash");
        crashed.set("note", "crashed: killed by signal 11 (SIGSEGV)".into());
        crashed.set("allowed", String::new());
        crashed.set("undefined", "0".into());
        let mut empty = unit("0", "0", "0", "", "", "", "pass");
        empty.set("note", EMPTY_SHARD_NOTE.into());
        empty.set("bound_ulp", "4".into());
        empty.set("rule", "<= 4 ulp".into());
        let mut measured = unit("10", "1", "9", "0x1p+0", "9", "3", "fail");
        measured.set("bound_ulp", "4".into());
        for other in [empty, measured] {
            for files in [
                vec![vec![crashed.clone()], vec![other.clone()]],
                vec![vec![other.clone()], vec![crashed.clone()]],
            ] {
                let merged = merge(&shards(files)).unwrap();
                let mut whole = crashed.clone();
                whole.set("shard", "0/1".into());
                assert_eq!(merged[0].fields(), whole.fields());
            }
        }
        // Two shards that timed out give the lower shard's row, whatever the order.
        let mut late = crashed.clone();
        late.set("status", "timeout".into());
        let mut early = late.clone();
        early.set("note", "the first".into());
        let mut files = shards(vec![vec![early], vec![late]]);
        let merged = merge(&files).unwrap();
        files.reverse();
        assert_eq!(merge(&files).unwrap()[0].fields(), merged[0].fields());
        assert_eq!(merged[0].get("note"), "the first");
    }

    #[test]
    fn shards_of_another_profile_or_build_options_name_the_column() {
        let full = unit("10", "0", "1", "0x1p+0", "1", "1", "pass");
        let mut relaxed = full.clone();
        relaxed.set("profile", "relaxed".into());
        relaxed.set("build_options", "-cl-fast-relaxed-math".into());
        let message = merge(&shards(vec![vec![full.clone()], vec![relaxed.clone()]]))
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(
                "not shards of one run: profile is `full` in one and `relaxed` in the other"
            ),
            "{message}"
        );
        let mut mad = full.clone();
        mad.set("build_options", "-cl-mad-enable".into());
        let message = merge(&shards(vec![vec![mad], vec![full.clone()]]))
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("build_options is `-cl-mad-enable` in one and `` in the other"),
            "{message}"
        );
        // A certify shard that stopped before its relaxed rows did not finish.
        let message = merge(&shards(vec![vec![full.clone(), relaxed], vec![full]]))
            .unwrap_err()
            .to_string();
        assert!(message.contains("a shard that did not finish"), "{message}");
    }

    #[test]
    fn the_paths_of_a_unit_merge_apart_and_never_into_each_other() {
        let spirv = unit("10", "0", "1", "0x1p+0", "1", "1", "pass");
        let mut opencl_c = unit("10", "2", "9", "0x1p+2", "9", "4", "fail");
        opencl_c.set("path", "opencl-c".into());
        // A `--source both` run: each shard holds each path's row, merged path by path.
        let both = merge(&shards(vec![
            vec![spirv.clone(), opencl_c.clone()],
            vec![spirv.clone(), opencl_c.clone()],
        ]))
        .unwrap();
        let merged: Vec<(&str, &str, &str)> = both
            .iter()
            .map(|row| (row.get("path"), row.get("inputs"), row.get("status")))
            .collect();
        assert_eq!(
            merged,
            [("spirv", "20", "pass"), ("opencl-c", "20", "fail")]
        );
        // Shards of one unit through different paths are not one run's.
        let message = merge(&shards(vec![vec![spirv.clone()], vec![opencl_c.clone()]]))
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(
                "not shards of one run: path is `spirv` in one and `opencl-c` in the other"
            ),
            "{message}"
        );
        // The OpenCL C row is named so in messages; a SPIR-V row as before the column.
        assert_eq!(opencl_c.label(), "sin float w1 (ulp, full, opencl-c)");
        assert_eq!(spirv.label(), "sin float w1 (ulp, full)");
        let mut unknown = spirv;
        unknown.set("path", "ptx".into());
        assert_eq!(
            check_row(&unknown).unwrap_err().problem,
            "is not one of spirv, opencl-c, vulkan"
        );
        // A Vulkan row is the vulkan path's, named so.
        let mut vulkan = opencl_c;
        vulkan.set("path", "vulkan".into());
        assert!(check_row(&vulkan).is_ok());
        assert_eq!(vulkan.label(), "sin float w1 (ulp, full, vulkan)");
    }

    #[test]
    fn a_csv_written_before_the_path_column_reads_as_spirv() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        let done = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        let old_header = COLUMNS[..COLUMNS.len() - 1].join(",");
        let old_row = done.fields()[..COLUMNS.len() - 1].join(",");
        std::fs::write(&path, format!("{old_header}\n{old_row}\n")).unwrap();
        let rows = read(&path).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].get("path"), "spirv");
        assert_eq!(rows[0].unit_key(), done.unit_key());
        // Resuming one would append rows of another header: refused, the file untouched.
        let message = resume(&path, &[], &KernelPath::ALL)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("is not a CSV of this clacc version"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{old_header}\n{old_row}\n")
        );
    }

    #[test]
    fn resume_refuses_rows_of_a_path_the_run_does_not_plan() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let mut opencl_c = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        opencl_c.set("path", "opencl-c".into());
        write(&path, std::slice::from_ref(&opencl_c)).unwrap();
        let message = resume(&path, &[], &[KernelPath::Spirv])
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(
                "holds rows of the opencl-c path (sin float w1 (ulp, full, opencl-c)), and this run plans spirv"
            ) && message.contains("--source both"),
            "{message}"
        );
        assert_eq!(resume(&path, &[], &[KernelPath::OpenclC]).unwrap().len(), 1);
        assert_eq!(resume(&path, &[], &KernelPath::ALL).unwrap().len(), 1);
    }

    #[test]
    fn resume_after_another_selection_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        write(&path, &[unit("10", "0", "2", "0x1p+1", "2", "5", "pass")]).unwrap();
        let message = resume(
            &path,
            &[("planned_units", "2".to_string())],
            &KernelPath::ALL,
        )
        .unwrap_err()
        .to_string();
        assert!(
            message
                .contains("written by a run of another selection (1 unit planned there, 2 here)")
                && message.contains("rerun with the same selection")
                && !message.contains("planned_units"),
            "{message}"
        );
    }

    #[test]
    fn resume_retrying_drops_the_rows_of_units_that_did_not_complete() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let done = unit("10", "0", "2", "0x1p+1", "2", "5", "pass");
        let unfinished: Vec<Row> = ["crash", "timeout", "error"]
            .iter()
            .zip(["cos", "tan", "exp"])
            .map(|(status, function)| {
                let mut row = unit("0", "0", "", "", "", "", status);
                row.set("function", function.into());
                row
            })
            .collect();
        let mut all = vec![unfinished[0].clone(), done.clone()];
        all.extend(unfinished[1..].iter().cloned());
        write(&path, &all).unwrap();
        let locked = LockedCsv::open(&path).unwrap();
        let (locked, rows) = resume_retrying(&path, &[], &KernelPath::ALL, locked).unwrap();
        assert_eq!(
            rows.iter().map(Row::unit_key).collect::<Vec<_>>(),
            vec![done.unit_key()]
        );
        let only_done = dir.path().join("done.csv");
        write(&only_done, std::slice::from_ref(&done)).unwrap();
        let kept = std::fs::read_to_string(&only_done).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
        // The lock returned holds the file the path names, and rows go there.
        assert!(matches!(
            LockedCsv::open(&path),
            Err(CsvOpenError::Busy { .. })
        ));
        use std::io::Write as _;
        (&locked.file).write_all(b"appended\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{kept}appended\n")
        );
        drop(locked);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            2,
            "a temporary file stayed"
        );
        // Nothing to retry: the file and its lock stay as they are.
        std::fs::write(&path, &kept).unwrap();
        let locked = LockedCsv::open(&path).unwrap();
        let (locked, rows) = resume_retrying(&path, &[], &KernelPath::ALL, locked).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
        drop(locked);
        assert!(LockedCsv::open(&path).is_ok());
        // Through a link, the file it names is replaced and the link stays.
        write(&path, &all).unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let (locked, rows) = resume_retrying(
            &link,
            &[],
            &KernelPath::ALL,
            LockedCsv::open(&link).unwrap(),
        )
        .unwrap();
        drop(locked);
        assert_eq!(rows.len(), 1);
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
    }

    #[test]
    fn resume_restarts_a_file_cut_inside_its_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, &COLUMNS.join(",")[..17]).unwrap();
        assert!(resume(&path, &[], &KernelPath::ALL).unwrap().is_empty());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n", COLUMNS.join(","))
        );
    }
}
