//! `clacc compare`: the result CSVs of several devices side by side, one row per unit (kind,
//! function, type, width, profile, build options) and, per device, the unit's max error and
//! status — the per-provider accuracy table vendors publish — with the cells marked where a
//! device fails or where its max error exceeds the other devices' (their median) by more than a
//! margin: the device that departs from what the others achieve on the same inputs. A device
//! better than the others is not marked; with two devices only the worse one is.
//!
//! The CSVs are read by column name, so files of clacc versions whose later columns differ still
//! compare; each device is named by its rows' `device` column. Every row of every file is read
//! and none replaces another: rows of one device from runs that differ (seed, inputs, options,
//! spec, versions, build path) are columns of their own, and whatever would put two rows in one
//! cell (a file given twice, a unit twice, a shard of a run) is refused, so a failure is never
//! hidden behind a pass.

use crate::spec::environment::KernelPath;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Default `--margin`: one ulp. Two sound implementations of a "<= 4 ulp" function commonly
/// differ by a fraction of an ulp in their worst case over the same inputs; a whole ulp is a
/// difference of substance, and below every Table 3 bound that is not correctly rounded.
pub const DEFAULT_MARGIN_ULP: f64 = 1.0;

/// The columns compare needs in every CSV.
const NEEDED_COLUMNS: [&str; 9] = [
    "kind",
    "function",
    "type",
    "width",
    "profile",
    "max_ulp",
    "bound_ulp",
    "status",
    "device",
];

/// The columns whose values tell runs of one device apart, each with the word a column label
/// names it by: rows of one device from runs that differ in one of them are columns of their
/// own. A column the CSV lacks (older versions) reads as empty, except `path`: every run before
/// it was of the SPIR-V path.
/// `planned_units` is not one: runs of one device over other selections complete each other.
const RUN_COLUMNS: [(&str, &str); 7] = [
    ("seed", "seed"),
    ("requested_inputs", "inputs"),
    ("options", "options"),
    ("spec", "spec"),
    ("clacc_version", "clacc"),
    ("driver_version", "driver"),
    ("path", "path"),
];

/// Where `path` is among [`RUN_COLUMNS`].
const PATH_AT: usize = 6;

/// The first columns of the table [`write_csv`] writes, before the devices' columns.
const TABLE_COLUMNS: [&str; 7] = [
    "kind",
    "function",
    "type",
    "width",
    "profile",
    "build_options",
    "bound_ulp",
];

/// What starts every SVG [`write_svg`] writes, after the `<svg ...>` line.
const SVG_TITLE: &str = "<title>clacc compare";

/// Why the comparison could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("cannot read {}: {detail}", path.display())]
    Read { path: PathBuf, detail: String },
    #[error(
        "{} has no `{column}` column; compare takes CSVs written by clacc --csv",
        path.display()
    )]
    MissingColumn { path: PathBuf, column: &'static str },
    #[error("--margin {0} is not a number of ulp >= 0; give e.g. --margin 1")]
    BadMargin(f64),
    #[error("cannot write {}: {detail}", path.display())]
    Write { path: PathBuf, detail: String },
    #[error(
        "{} is given twice{}; give each CSV once",
        path.display(),
        if first == path { String::new() } else { format!(" (also as {})", first.display()) }
    )]
    GivenTwice { first: PathBuf, path: PathBuf },
    #[error(
        "{} holds the same bytes as {}: the same results given twice; give each CSV once",
        path.display(),
        first.display()
    )]
    SameContent { first: PathBuf, path: PathBuf },
    #[error(
        "{}:{line} is a row of shard {shard} of a sharded run; combine the shards with `clacc merge --csv MERGED.csv SHARDS...` and compare MERGED.csv",
        path.display()
    )]
    Shard {
        path: PathBuf,
        line: u64,
        shard: String,
    },
    #[error(
        "{}:{line} repeats {unit} of {device}, already at line {first_line}; a run writes each unit once: give a CSV as clacc wrote it",
        path.display()
    )]
    UnitTwiceInFile {
        path: PathBuf,
        line: u64,
        first_line: u64,
        unit: String,
        device: String,
    },
    #[error(
        "{}:{line} and {}:{first_line} both hold {unit} of {device}, from runs with the same seed, inputs, options, spec, versions and path; compare only one of the two files",
        path.display(),
        first.display()
    )]
    UnitTwiceInRuns {
        first: PathBuf,
        first_line: u64,
        path: PathBuf,
        line: u64,
        unit: String,
        device: String,
    },
}

/// One device's result for one unit, as its CSV row gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// `max_ulp` as written (`inf`, a decimal, or empty where nothing was measured).
    pub max_ulp: String,
    pub status: String,
}

impl Cell {
    /// The max error as a number, `None` where the unit measured nothing.
    pub fn error(&self) -> Option<f64> {
        match self.max_ulp.as_str() {
            "" => None,
            "inf" => Some(f64::INFINITY),
            text => text.parse().ok(),
        }
    }

    /// A unit that did not pass and did not merely not apply.
    pub fn failed(&self) -> bool {
        !matches!(self.status.as_str(), "pass" | "skip")
    }
}

/// What identifies a unit across devices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitKey {
    pub kind: String,
    pub function: String,
    pub element_type: String,
    pub width: String,
    pub profile: String,
    pub build_options: String,
}

impl UnitKey {
    /// `sin float w1 (ulp, full)`, for messages.
    fn label(&self) -> String {
        let options = if self.build_options.is_empty() {
            String::new()
        } else {
            format!(", {}", self.build_options)
        };
        format!(
            "{} {} w{} ({}, {}{options})",
            self.function, self.element_type, self.width, self.kind, self.profile
        )
    }
}

/// One column of the table: a device, or one of its runs where the device's rows come from
/// runs that differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The rows' `device`.
    pub device: String,
    /// The device, and where it has several columns what tells this one's run apart:
    /// `Intel(R) OpenCL / CPU [seed 0x1]`.
    pub label: String,
}

/// One row of the comparison: a unit and each column's cell (`None`: the column has no row).
#[derive(Clone, Debug)]
pub struct Comparison {
    pub key: UnitKey,
    pub bound_ulp: String,
    pub cells: Vec<Option<Cell>>,
    /// Per column: its max error is more than the margin above the median of the others'.
    pub differs: Vec<bool>,
    /// Per column: it is one kernel path of a driver ([`Table::path_pairs`]) and worse than
    /// the other ([`paths_disagree`]), by more than the margin or by its verdict.
    pub worse_path: Vec<bool>,
}

/// The whole table: columns (first-seen order) and rows (first-seen order).
#[derive(Clone, Debug)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Comparison>,
    pub margin: f64,
    /// The two kernel paths of one driver: (SPIR-V column, OpenCL C column) of one device
    /// whose runs differ in nothing else.
    pub path_pairs: Vec<(usize, usize)>,
}

/// One row of an input CSV, with where it was and the run that wrote it.
struct SourceRow {
    line: u64,
    device: String,
    /// The values of [`RUN_COLUMNS`], in their order.
    run: Vec<String>,
    key: UnitKey,
    bound: String,
    cell: Cell,
}

/// Reads one CSV's rows, by column name; refuses a row of a shard.
fn read_rows(path: &Path, bytes: &[u8]) -> Result<Vec<SourceRow>, CompareError> {
    let read_error = |detail: String| CompareError::Read {
        path: path.to_path_buf(),
        detail,
    };
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader
        .headers()
        .map_err(|e| read_error(e.to_string()))?
        .clone();
    let position = |column: &str| header.iter().position(|name| name == column);
    let mut at = HashMap::new();
    for column in NEEDED_COLUMNS {
        let index = position(column).ok_or(CompareError::MissingColumn {
            path: path.to_path_buf(),
            column,
        })?;
        at.insert(column, index);
    }
    // Older CSVs may lack these; they were then built without options, unsharded, and so on.
    let options_at = position("build_options");
    let shard_at = position("shard");
    let run_at: Vec<Option<usize>> = RUN_COLUMNS
        .iter()
        .map(|(column, _)| position(column))
        .collect();
    let mut rows = Vec::new();
    for (number, record) in reader.records().enumerate() {
        let record = record.map_err(|e| read_error(format!("row {}: {e}", number + 2)))?;
        let line = record
            .position()
            .map_or(number as u64 + 2, |position| position.line());
        let optional =
            |index: Option<usize>| index.and_then(|i| record.get(i)).unwrap_or("").to_string();
        let shard = optional(shard_at);
        if !matches!(shard.as_str(), "" | "0/1") {
            return Err(CompareError::Shard {
                path: path.to_path_buf(),
                line,
                shard,
            });
        }
        let get = |column: &str| record.get(at[column]).unwrap_or("").to_string();
        let run = run_at
            .iter()
            .enumerate()
            .map(|(index, at)| match at {
                None if index == PATH_AT => KernelPath::Spirv.name().to_string(),
                _ => optional(*at),
            })
            .collect();
        let key = UnitKey {
            kind: get("kind"),
            function: get("function"),
            element_type: get("type"),
            width: get("width"),
            profile: get("profile"),
            build_options: optional(options_at),
        };
        let cell = Cell {
            max_ulp: get("max_ulp"),
            status: get("status"),
        };
        rows.push(SourceRow {
            line,
            device: get("device"),
            run,
            key,
            bound: get("bound_ulp"),
            cell,
        });
    }
    Ok(rows)
}

/// Reads every input whole, refusing one given twice: by another name of the same file (a
/// symbolic or hard link), or as a copy (the same bytes).
fn read_inputs(inputs: &[PathBuf]) -> Result<Vec<Vec<u8>>, CompareError> {
    use std::os::unix::fs::MetadataExt;
    let mut contents: Vec<Vec<u8>> = Vec::new();
    let mut files: Vec<Option<(u64, u64)>> = Vec::new();
    for path in inputs {
        let bytes = fs::read(path).map_err(|e| CompareError::Read {
            path: path.clone(),
            detail: e.to_string(),
        })?;
        let file = fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        for (earlier, earlier_bytes) in contents.iter().enumerate() {
            let first = inputs[earlier].clone();
            if file.is_some() && files[earlier] == file {
                return Err(CompareError::GivenTwice {
                    first,
                    path: path.clone(),
                });
            }
            if *earlier_bytes == bytes {
                return Err(CompareError::SameContent {
                    first,
                    path: path.clone(),
                });
            }
        }
        contents.push(bytes);
        files.push(file);
    }
    Ok(contents)
}

/// `exhaustive=no cases=sweep` → pairs.
fn option_pairs(text: &str) -> Vec<(&str, &str)> {
    text.split_whitespace()
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect()
}

/// What tells `run` apart from the other runs of its device (`runs`, itself among them): each
/// run column whose value differs among them, with this run's value; of `options` only the
/// options that differ.
fn run_difference(run: &[String], runs: &[&Vec<String>]) -> Vec<String> {
    let mut parts = Vec::new();
    for (index, (column, word)) in RUN_COLUMNS.iter().enumerate() {
        if runs.iter().all(|other| other[index] == run[index]) {
            continue;
        }
        if *column != "options" {
            let value = if run[index].is_empty() {
                "(none)"
            } else {
                &run[index]
            };
            parts.push(format!("{word} {value}"));
            continue;
        }
        let all: Vec<Vec<(&str, &str)>> = runs.iter().map(|r| option_pairs(&r[index])).collect();
        let mine = option_pairs(&run[index]);
        let mut keys: Vec<&str> = Vec::new();
        for (key, _) in all.iter().flatten() {
            if !keys.contains(key) {
                keys.push(key);
            }
        }
        let value_of = |pairs: &[(&str, &str)], key: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        };
        for key in keys {
            let wanted = value_of(&mine, key);
            if all.iter().all(|pairs| value_of(pairs, key) == wanted) {
                continue;
            }
            // A key only some runs name (`work_group`, named only off its default).
            parts.push(wanted.map_or_else(
                || format!("{key} at its default"),
                |value| format!("{key}={value}"),
            ));
        }
    }
    parts
}

/// The columns' labels: the device alone, or the device and what tells its runs apart.
fn labelled(columns: &[(String, Vec<String>)]) -> Vec<Column> {
    columns
        .iter()
        .map(|(device, run)| {
            let runs: Vec<&Vec<String>> = columns
                .iter()
                .filter(|(other, _)| other == device)
                .map(|(_, run)| run)
                .collect();
            let label = if runs.len() == 1 {
                device.clone()
            } else {
                format!("{device} [{}]", run_difference(run, &runs).join(", "))
            };
            Column {
                device: device.clone(),
                label,
            }
        })
        .collect()
}

fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[middle]
    } else if values[middle - 1] == values[middle] {
        // Also right for two infinities, whose mean would be NaN for opposite signs.
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    })
}

/// Whether the error `value` exceeds `reference` by more than `margin` ulp; an infinite error
/// exceeds every finite one and no other infinite one.
fn exceeds_by_more_than(value: f64, reference: f64, margin: f64) -> bool {
    if value.is_infinite() || reference.is_infinite() {
        return value.is_infinite() && reference.is_finite();
    }
    value - reference > margin
}

/// The kernel paths of one driver in `columns` (device, run values): each SPIR-V column with
/// the OpenCL C column of the same device whose run differs in the path alone.
fn path_pairs(columns: &[(String, Vec<String>)]) -> Vec<(usize, usize)> {
    let others_alike = |a: &[String], b: &[String]| {
        (0..RUN_COLUMNS.len()).all(|index| index == PATH_AT || a[index] == b[index])
    };
    let mut pairs = Vec::new();
    for (spirv, (device, run)) in columns.iter().enumerate() {
        if run[PATH_AT] != KernelPath::Spirv.name() {
            continue;
        }
        pairs.extend(
            columns
                .iter()
                .enumerate()
                .filter(|(_, (other, other_run))| {
                    other == device
                        && other_run[PATH_AT] == KernelPath::OpenclC.name()
                        && others_alike(run, other_run)
                })
                .map(|(opencl_c, _)| (spirv, opencl_c)),
        );
    }
    pairs
}

/// Which of a driver's two paths for one unit (their cells) is worse, where they disagree:
/// one's max error exceeds the other's by more than `margin`, or one does not pass where the
/// other does. `None` where they agree or one has no row.
pub fn paths_disagree(
    spirv: Option<&Cell>,
    opencl_c: Option<&Cell>,
    margin: f64,
) -> Option<KernelPath> {
    let (spirv, opencl_c) = (spirv?, opencl_c?);
    if let (Some(a), Some(b)) = (spirv.error(), opencl_c.error()) {
        if exceeds_by_more_than(a, b, margin) {
            return Some(KernelPath::Spirv);
        }
        if exceeds_by_more_than(b, a, margin) {
            return Some(KernelPath::OpenclC);
        }
    }
    match (spirv.failed(), opencl_c.failed()) {
        (true, false) => Some(KernelPath::Spirv),
        (false, true) => Some(KernelPath::OpenclC),
        _ => None,
    }
}

/// Builds the table from the CSVs. A column is a device (its rows' `device` column) and the run
/// that wrote its rows: rows of one device from runs that differ in a [`RUN_COLUMNS`] value get a
/// column each, named by what differs; files of one device and one run's settings (other
/// selections) fill one column. Nothing is replaced: a file given twice, a unit twice in one
/// column, and a shard's row are refused.
pub fn compare(inputs: &[PathBuf], margin: f64) -> Result<Table, CompareError> {
    if margin.is_nan() || margin < 0.0 {
        return Err(CompareError::BadMargin(margin));
    }
    let contents = read_inputs(inputs)?;
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    let mut order: Vec<UnitKey> = Vec::new();
    let mut bounds: HashMap<UnitKey, String> = HashMap::new();
    // Each cell with the file (its index in `inputs`) and line that gave it.
    let mut cells: HashMap<(UnitKey, usize), (Cell, usize, u64)> = HashMap::new();
    for (file, (path, bytes)) in inputs.iter().zip(&contents).enumerate() {
        for row in read_rows(path, bytes)? {
            let identity = (row.device, row.run);
            let column = match columns.iter().position(|c| *c == identity) {
                Some(index) => index,
                None => {
                    columns.push(identity);
                    columns.len() - 1
                }
            };
            if !bounds.contains_key(&row.key) {
                order.push(row.key.clone());
                bounds.insert(row.key.clone(), row.bound);
            } else if bounds[&row.key].is_empty() && !row.bound.is_empty() {
                bounds.insert(row.key.clone(), row.bound);
            }
            if let Some((_, first_file, first_line)) = cells.get(&(row.key.clone(), column)) {
                let (unit, device) = (row.key.label(), columns[column].0.clone());
                return Err(if *first_file == file {
                    CompareError::UnitTwiceInFile {
                        path: path.clone(),
                        line: row.line,
                        first_line: *first_line,
                        unit,
                        device,
                    }
                } else {
                    CompareError::UnitTwiceInRuns {
                        first: inputs[*first_file].clone(),
                        first_line: *first_line,
                        path: path.clone(),
                        line: row.line,
                        unit,
                        device,
                    }
                });
            }
            cells.insert((row.key, column), (row.cell, file, row.line));
        }
    }
    let pairs = path_pairs(&columns);
    let rows = order
        .into_iter()
        .map(|key| {
            let row_cells: Vec<Option<Cell>> = (0..columns.len())
                .map(|column| {
                    cells
                        .get(&(key.clone(), column))
                        .map(|(cell, _, _)| cell.clone())
                })
                .collect();
            let errors: Vec<Option<f64>> = row_cells
                .iter()
                .map(|cell| cell.as_ref().and_then(Cell::error))
                .collect();
            let differs = (0..columns.len())
                .map(|column| {
                    let Some(value) = errors[column] else {
                        return false;
                    };
                    let mut others: Vec<f64> = errors
                        .iter()
                        .enumerate()
                        .filter(|(other, _)| *other != column)
                        .filter_map(|(_, error)| *error)
                        .collect();
                    median(&mut others)
                        .is_some_and(|reference| exceeds_by_more_than(value, reference, margin))
                })
                .collect();
            let mut worse_path = vec![false; columns.len()];
            for (spirv, opencl_c) in &pairs {
                match paths_disagree(
                    row_cells[*spirv].as_ref(),
                    row_cells[*opencl_c].as_ref(),
                    margin,
                ) {
                    Some(KernelPath::Spirv) => worse_path[*spirv] = true,
                    Some(KernelPath::OpenclC) => worse_path[*opencl_c] = true,
                    // It names one of the two paths it is given.
                    Some(KernelPath::Vulkan) | None => {}
                }
            }
            Comparison {
                bound_ulp: bounds.remove(&key).unwrap_or_default(),
                key,
                cells: row_cells,
                differs,
                worse_path,
            }
        })
        .collect();
    Ok(Table {
        columns: labelled(&columns),
        rows,
        margin,
        path_pairs: pairs,
    })
}

/// The marks of one cell: `FAIL` (or the status, for error/crash/timeout), `DIFFERS`, and
/// `PATH` where it is the worse of a driver's two kernel paths.
pub fn marks(row: &Comparison, device: usize) -> Vec<String> {
    let mut marks = Vec::new();
    if let Some(cell) = &row.cells[device] {
        if cell.failed() {
            marks.push(cell.status.to_uppercase());
        }
    }
    if row.differs[device] {
        marks.push("DIFFERS".to_string());
    }
    if row.worse_path[device] {
        marks.push("PATH".to_string());
    }
    marks
}

/// The terminal cell: `1.5132`, `inf FAIL`, `3 DIFFERS`, `skip`, or `-` where the device has no
/// row for the unit.
fn terminal_cell(row: &Comparison, device: usize) -> String {
    let Some(cell) = &row.cells[device] else {
        return "-".to_string();
    };
    let value = if cell.max_ulp.is_empty() {
        cell.status.clone()
    } else {
        cell.max_ulp.clone()
    };
    let marks = marks(row, device);
    if marks.is_empty() {
        value
    } else {
        format!("{value} {}", marks.join(" "))
    }
}

/// The table as text: a legend naming the devices, then one line per unit.
pub fn render(table: &Table) -> String {
    let mut text = String::new();
    for (index, column) in table.columns.iter().enumerate() {
        text.push_str(&format!("device {}: {}\n", index + 1, column.label));
    }
    let mut header = vec![
        "kind".to_string(),
        "function".to_string(),
        "type".to_string(),
        "width".to_string(),
        "profile".to_string(),
        "bound".to_string(),
    ];
    header.extend((1..=table.columns.len()).map(|index| format!("device {index}")));
    let mut lines: Vec<Vec<String>> = vec![header];
    for row in &table.rows {
        let profile = if row.key.build_options.is_empty() {
            row.key.profile.clone()
        } else {
            format!("{} {}", row.key.profile, row.key.build_options)
        };
        let mut line = vec![
            row.key.kind.clone(),
            row.key.function.clone(),
            row.key.element_type.clone(),
            row.key.width.clone(),
            profile,
            row.bound_ulp.clone(),
        ];
        line.extend((0..table.columns.len()).map(|column| terminal_cell(row, column)));
        lines.push(line);
    }
    let columns = lines[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|column| {
            lines
                .iter()
                .map(|line| line[column].len())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in &lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    let failing = count(table, |row, device| {
        row.cells[device].as_ref().is_some_and(Cell::failed)
    });
    let differing = count(table, |row, device| row.differs[device]);
    let mut devices: Vec<&str> = table.columns.iter().map(|c| c.device.as_str()).collect();
    devices.sort_unstable();
    devices.dedup();
    let columns = if devices.len() == table.columns.len() {
        format!("{} devices", devices.len())
    } else {
        format!(
            "{} columns of {} devices",
            table.columns.len(),
            devices.len()
        )
    };
    text.push_str(&format!(
        "{} units, {columns}; cells failing: {failing}; cells more than {} ulp above the other devices' median: {differing}\n",
        table.rows.len(),
        table.margin
    ));
    for column in 0..table.columns.len() {
        text.push_str(&column_summary(table, column));
    }
    for pair in &table.path_pairs {
        text.push_str(&paths_summary(table, *pair));
    }
    text
}

/// How many units a listing names before `…`.
const LISTED_UNITS: usize = 20;

/// Where a driver's two kernel paths disagree: `paths of NAME (device 1 spirv, device 2
/// opencl-c): 2 of 40 units they share disagree (…): sin float w4 (ulp, full): spirv 1.2 pass,
/// opencl-c 3.5 fail; …`, or that they agree on every unit.
fn paths_summary(table: &Table, (spirv, opencl_c): (usize, usize)) -> String {
    let shared: Vec<&Comparison> = table
        .rows
        .iter()
        .filter(|row| row.cells[spirv].is_some() && row.cells[opencl_c].is_some())
        .collect();
    let disagreeing: Vec<String> = shared
        .iter()
        .filter(|row| row.worse_path[spirv] || row.worse_path[opencl_c])
        .map(|row| {
            let cell = |column: usize| {
                let cell = row.cells[column].as_ref().expect("a shared unit");
                let error = if cell.max_ulp.is_empty() {
                    "-"
                } else {
                    &cell.max_ulp
                };
                format!("{error} {}", cell.status)
            };
            format!(
                "{}: spirv {}, opencl-c {}",
                row.key.label(),
                cell(spirv),
                cell(opencl_c)
            )
        })
        .collect();
    let head = format!(
        "paths of {} (device {} spirv, device {} opencl-c)",
        table.columns[spirv].device,
        spirv + 1,
        opencl_c + 1
    );
    if disagreeing.is_empty() {
        return format!(
            "{head}: all {} units they share agree (within {} ulp, the same verdict)\n",
            shared.len(),
            table.margin
        );
    }
    format!(
        "{head}: {} of {} units they share disagree (more than {} ulp apart, or one not passing): {}{}\n",
        disagreeing.len(),
        shared.len(),
        table.margin,
        disagreeing
            .iter()
            .take(LISTED_UNITS)
            .cloned()
            .collect::<Vec<_>>()
            .join("; "),
        if disagreeing.len() > LISTED_UNITS {
            "; …"
        } else {
            ""
        }
    )
}

/// One column's line under the table: `device 1 (NAME): 2 of 4 units not passing (fail 1,
/// crash 1); 1 DIFFERS`.
fn column_summary(table: &Table, column: usize) -> String {
    let cells: Vec<&Cell> = table
        .rows
        .iter()
        .filter_map(|row| row.cells[column].as_ref())
        .collect();
    let mut statuses: Vec<(&str, usize)> = Vec::new();
    for cell in cells.iter().filter(|cell| cell.failed()) {
        match statuses
            .iter_mut()
            .find(|(status, _)| *status == cell.status)
        {
            Some((_, count)) => *count += 1,
            None => statuses.push((&cell.status, 1)),
        }
    }
    let failing: usize = statuses.iter().map(|(_, count)| count).sum();
    let breakdown = if statuses.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = statuses
            .iter()
            .map(|(status, count)| format!("{status} {count}"))
            .collect();
        format!(" ({})", parts.join(", "))
    };
    let differing = table.rows.iter().filter(|row| row.differs[column]).count();
    format!(
        "device {} ({}): {failing} of {} units not passing{breakdown}; {differing} DIFFERS\n",
        column + 1,
        table.columns[column].label,
        cells.len()
    )
}

fn count(table: &Table, predicate: impl Fn(&Comparison, usize) -> bool) -> usize {
    table
        .rows
        .iter()
        .map(|row| {
            (0..table.columns.len())
                .filter(|&column| predicate(row, column))
                .count()
        })
        .sum()
}

/// The table as CSV: the unit's columns, then per column `max_ulp <label>`, `status <label>`
/// and `mark <label>` (space-separated marks; empty where none). A column without a row for a
/// unit has empty cells there.
pub fn write_csv(table: &Table, path: &Path) -> Result<(), CompareError> {
    let write_error = |detail: String| CompareError::Write {
        path: path.to_path_buf(),
        detail,
    };
    let mut writer = csv::Writer::from_path(path).map_err(|e| write_error(e.to_string()))?;
    let mut header: Vec<String> = TABLE_COLUMNS.iter().map(|name| name.to_string()).collect();
    for column in &table.columns {
        header.push(format!("max_ulp {}", column.label));
        header.push(format!("status {}", column.label));
        header.push(format!("mark {}", column.label));
    }
    writer
        .write_record(&header)
        .map_err(|e| write_error(e.to_string()))?;
    for row in &table.rows {
        let mut record = vec![
            row.key.kind.clone(),
            row.key.function.clone(),
            row.key.element_type.clone(),
            row.key.width.clone(),
            row.key.profile.clone(),
            row.key.build_options.clone(),
            row.bound_ulp.clone(),
        ];
        for device in 0..table.columns.len() {
            let (max_ulp, status) = row.cells[device]
                .as_ref()
                .map_or((String::new(), String::new()), |cell| {
                    (cell.max_ulp.clone(), cell.status.clone())
                });
            record.push(max_ulp);
            record.push(status);
            record.push(marks(row, device).join(" ").to_lowercase());
        }
        writer
            .write_record(&record)
            .map_err(|e| write_error(e.to_string()))?;
    }
    writer.flush().map_err(|e| write_error(e.to_string()))
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The table as an SVG: one line per unit, one cell per device, green where it passed, red where
/// it failed, orange where it could not be measured (error, crash, timeout), grey where it was
/// skipped or not run; a thick black frame marks a cell more than the margin above the others,
/// and the worse of a driver's two kernel paths.
pub fn write_svg(table: &Table, path: &Path) -> Result<(), CompareError> {
    const ROW_HEIGHT: usize = 18;
    const LABEL_WIDTH: usize = 330;
    const CELL_WIDTH: usize = 190;
    let top = 20 + ROW_HEIGHT * (table.columns.len() + 1);
    let width = LABEL_WIDTH + CELL_WIDTH * table.columns.len() + 10;
    let height = top + ROW_HEIGHT * table.rows.len() + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"monospace\" font-size=\"12\">\n{SVG_TITLE}: {} units, {} columns</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        table.rows.len(),
        table.columns.len()
    );
    for (index, column) in table.columns.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"10\" y=\"{}\">device {}: {}</text>\n",
            16 + ROW_HEIGHT * index,
            index + 1,
            escape_xml(&column.label)
        ));
    }
    let header_y = 16 + ROW_HEIGHT * table.columns.len();
    svg.push_str(&format!(
        "<text x=\"10\" y=\"{header_y}\" font-weight=\"bold\">unit (bound ulp; margin {} ulp)</text>\n",
        table.margin
    ));
    for index in 0..table.columns.len() {
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{header_y}\" font-weight=\"bold\">device {}</text>\n",
            LABEL_WIDTH + CELL_WIDTH * index + 4,
            index + 1
        ));
    }
    for (line, row) in table.rows.iter().enumerate() {
        let y = top + ROW_HEIGHT * line;
        let label = format!(
            "{} {} {} w{} {}{} ({})",
            row.key.kind,
            row.key.function,
            row.key.element_type,
            row.key.width,
            row.key.profile,
            if row.key.build_options.is_empty() {
                String::new()
            } else {
                format!(" {}", row.key.build_options)
            },
            if row.bound_ulp.is_empty() {
                "-"
            } else {
                &row.bound_ulp
            }
        );
        svg.push_str(&format!(
            "<text x=\"10\" y=\"{}\">{}</text>\n",
            y + 13,
            escape_xml(&label)
        ));
        for device in 0..table.columns.len() {
            let x = LABEL_WIDTH + CELL_WIDTH * device;
            let fill = match row.cells[device].as_ref().map(|c| c.status.as_str()) {
                Some("pass") => "#b7e1b0",
                Some("fail") => "#f4a6a0",
                Some("skip") | None => "#dddddd",
                Some(_) => "#f6c27a",
            };
            let frame = if row.differs[device] || row.worse_path[device] {
                "stroke=\"black\" stroke-width=\"2.5\""
            } else {
                "stroke=\"white\" stroke-width=\"1\""
            };
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" {frame}/>\n\
                 <text x=\"{}\" y=\"{}\">{}</text>\n",
                CELL_WIDTH - 2,
                ROW_HEIGHT - 2,
                x + 4,
                y + 13,
                escape_xml(&terminal_cell(row, device))
            ));
        }
    }
    svg.push_str("</svg>\n");
    fs::write(path, svg).map_err(|e| CompareError::Write {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}

/// The first `count` lines of `path` (within its first 4 KiB), `None` where it cannot be read.
fn first_lines(path: &Path, count: usize) -> Option<Vec<String>> {
    use std::io::{BufRead, Read};
    let file = fs::File::open(path).ok()?;
    let mut reader = std::io::BufReader::new(file.take(4096));
    let mut lines = Vec::new();
    for _ in 0..count {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        lines.push(line);
    }
    Some(lines)
}

/// Whether `path` holds a table [`write_csv`] wrote (its header starts with the unit's
/// columns), which a later `clacc compare --csv` may replace without losing anything else.
pub fn is_compare_csv(path: &Path) -> bool {
    let start = TABLE_COLUMNS.join(",");
    first_lines(path, 1).is_some_and(|lines| {
        let header = lines[0].trim_end_matches(['\r', '\n']);
        header == start || header.starts_with(&format!("{start},"))
    })
}

/// Whether `path` holds an image [`write_svg`] wrote (its title says so), which a later
/// `clacc compare --svg` may replace without losing anything else.
pub fn is_compare_svg(path: &Path) -> bool {
    first_lines(path, 2).is_some_and(|lines| {
        lines[0].starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")
            && lines[1].starts_with(SVG_TITLE)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_margins_treat_infinities_as_their_own_value() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [1.0, 2.0]), Some(1.5));
        assert_eq!(
            median(&mut [f64::INFINITY, f64::INFINITY]),
            Some(f64::INFINITY)
        );
        assert_eq!(median(&mut []), None);
        assert!(exceeds_by_more_than(f64::INFINITY, 2.0, 1.0));
        assert!(!exceeds_by_more_than(2.0, f64::INFINITY, 1.0));
        assert!(!exceeds_by_more_than(f64::INFINITY, f64::INFINITY, 1.0));
        assert!(exceeds_by_more_than(3.5, 2.0, 1.0));
        assert!(!exceeds_by_more_than(3.0, 2.0, 1.0));
        assert!(!exceeds_by_more_than(0.5, 2.0, 1.0));
    }

    #[test]
    fn runs_of_one_device_are_labelled_by_what_differs_and_only_that() {
        let run = |seed: &str, options: &str| -> (String, Vec<String>) {
            let mut values: Vec<String> = RUN_COLUMNS.iter().map(|_| "x".to_string()).collect();
            values[0] = seed.to_string();
            values[2] = options.to_string();
            ("dev".to_string(), values)
        };
        let clacc = "exhaustive=no kernels=clacc";
        let columns = [
            run("0x1", clacc),
            run("0x2", clacc),
            run("0x1", "exhaustive=no kernels=sin:ab work_group=64"),
            ("other".to_string(), run("0x9", clacc).1),
        ];
        let labels: Vec<String> = labelled(&columns).into_iter().map(|c| c.label).collect();
        assert_eq!(
            labels,
            [
                "dev [seed 0x1, kernels=clacc, work_group at its default]",
                "dev [seed 0x2, kernels=clacc, work_group at its default]",
                "dev [seed 0x1, kernels=sin:ab, work_group=64]",
                "other",
            ]
        );
    }

    /// A CSV of `rows` (kind, function, max_ulp, status, device, path; `path` empty: a CSV
    /// written before the column) in `dir`.
    fn csv(dir: &Path, name: &str, rows: &[[&str; 6]]) -> PathBuf {
        let with_path = rows.iter().all(|row| !row[5].is_empty());
        let mut text = format!(
            "kind,function,type,width,profile,max_ulp,bound_ulp,status,device,seed{}\n",
            if with_path { ",path" } else { "" }
        );
        for [kind, function, max_ulp, status, device, path] in rows {
            text.push_str(&format!(
                "{kind},{function},float,1,full,{max_ulp},4,{status},{device},0x1{}\n",
                if with_path {
                    format!(",{path}")
                } else {
                    String::new()
                }
            ));
        }
        let file = dir.join(name);
        fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn a_drivers_two_paths_are_paired_marked_and_summed_up() {
        let dir = tempfile::tempdir().unwrap();
        // One CSV holding both paths of one device (a `--source both` run).
        let both = csv(
            dir.path(),
            "both.csv",
            &[
                ["ulp", "sin", "1.5", "pass", "cpu", "spirv"],
                ["ulp", "cos", "1", "pass", "cpu", "spirv"],
                ["ulp", "exp", "0.5", "pass", "cpu", "spirv"],
                ["ulp", "sin", "3", "pass", "cpu", "opencl-c"],
                ["ulp", "cos", "1.5", "pass", "cpu", "opencl-c"],
                ["ulp", "exp", "9", "fail", "cpu", "opencl-c"],
            ],
        );
        let table = compare(std::slice::from_ref(&both), 1.0).unwrap();
        let labels: Vec<&str> = table.columns.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["cpu [path spirv]", "cpu [path opencl-c]"]);
        assert_eq!(table.path_pairs, [(0, 1)]);
        let marked: Vec<(&str, Vec<String>)> = table
            .rows
            .iter()
            .map(|row| (row.key.function.as_str(), marks(row, 1)))
            .collect();
        assert_eq!(
            marked,
            [
                ("sin", vec!["DIFFERS".to_string(), "PATH".to_string()]),
                // Within the margin: no mark.
                ("cos", vec![]),
                (
                    "exp",
                    vec![
                        "FAIL".to_string(),
                        "DIFFERS".to_string(),
                        "PATH".to_string()
                    ]
                ),
            ]
        );
        assert!(table.rows.iter().all(|row| !row.worse_path[0]));
        let text = render(&table);
        assert!(
            text.contains("paths of cpu (device 1 spirv, device 2 opencl-c): 2 of 3 units they share disagree (more than 1 ulp apart, or one not passing): sin float w1 (ulp, full): spirv 1.5 pass, opencl-c 3 pass; exp float w1 (ulp, full): spirv 0.5 pass, opencl-c 9 fail\n"),
            "{text}"
        );
        // Two CSVs of one device, one per path; a CSV before the column is SPIR-V; a verdict
        // alone (both within the margin) is a disagreement too.
        let old = csv(
            dir.path(),
            "old.csv",
            &[["ulp", "sin", "4", "pass", "cpu", ""]],
        );
        let opencl_c = csv(
            dir.path(),
            "opencl-c.csv",
            &[["ulp", "sin", "4.5", "fail", "cpu", "opencl-c"]],
        );
        let other = csv(
            dir.path(),
            "other.csv",
            &[["ulp", "sin", "4", "pass", "gpu", "opencl-c"]],
        );
        let table = compare(&[old, opencl_c, other], 1.0).unwrap();
        assert_eq!(table.path_pairs, [(0, 1)]);
        assert_eq!(table.rows[0].worse_path, [false, true, false]);
        let text = render(&table);
        assert!(
            text.contains("paths of cpu (device 1 spirv, device 2 opencl-c): 1 of 1 units they share disagree"),
            "{text}"
        );
        // Agreeing paths say so; devices without two paths get no such line.
        let agreeing = csv(
            dir.path(),
            "agreeing.csv",
            &[
                ["ulp", "sin", "1", "pass", "cpu", "spirv"],
                ["ulp", "sin", "1.5", "pass", "cpu", "opencl-c"],
            ],
        );
        let text = render(&compare(&[agreeing], 1.0).unwrap());
        assert!(
            text.contains("paths of cpu (device 1 spirv, device 2 opencl-c): all 1 units they share agree (within 1 ulp, the same verdict)"),
            "{text}"
        );
        let single = csv(
            dir.path(),
            "single.csv",
            &[["ulp", "sin", "1", "pass", "cpu", "spirv"]],
        );
        assert!(!render(&compare(&[single], 1.0).unwrap()).contains("paths of"));
    }

    #[test]
    fn cells_read_errors_and_failures_from_their_text() {
        let cell = |max_ulp: &str, status: &str| Cell {
            max_ulp: max_ulp.to_string(),
            status: status.to_string(),
        };
        assert_eq!(cell("inf", "fail").error(), Some(f64::INFINITY));
        assert_eq!(cell("", "skip").error(), None);
        assert_eq!(cell("1.5", "pass").error(), Some(1.5));
        assert!(cell("", "crash").failed());
        assert!(!cell("", "skip").failed());
        assert!(!cell("0.5", "pass").failed());
    }
}
