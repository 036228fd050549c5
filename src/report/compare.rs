//! `clacc compare`: the result CSVs of several devices side by side, one row per unit (kind,
//! function, type, width, profile, build options) and, per device, the unit's max error and
//! status — the per-provider accuracy table vendors publish — with the cells marked where a
//! device fails or where its max error exceeds the other devices' (their median) by more than a
//! margin: the device that departs from what the others achieve on the same inputs. A device
//! better than the others is not marked; with two devices only the worse one is.
//!
//! The CSVs are read by column name, so files of clacc versions whose later columns differ still
//! compare; each device is named by its rows' `device` column.

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

/// One row of the comparison: a unit and each device's cell (`None`: the device has no row).
#[derive(Clone, Debug)]
pub struct Comparison {
    pub key: UnitKey,
    pub bound_ulp: String,
    pub cells: Vec<Option<Cell>>,
    /// Per device: its max error is more than the margin above the median of the others'.
    pub differs: Vec<bool>,
}

/// The whole table: device names (column order) and rows (first-seen order).
#[derive(Clone, Debug)]
pub struct Table {
    pub devices: Vec<String>,
    pub rows: Vec<Comparison>,
    pub margin: f64,
}

/// Reads one CSV into (device, key, bound, cell) rows, by column name.
fn read_rows(path: &Path) -> Result<Vec<(String, UnitKey, String, Cell)>, CompareError> {
    let read_error = |detail: String| CompareError::Read {
        path: path.to_path_buf(),
        detail,
    };
    let mut reader = csv::Reader::from_path(path).map_err(|e| read_error(e.to_string()))?;
    let header = reader
        .headers()
        .map_err(|e| read_error(e.to_string()))?
        .clone();
    let position = |column: &'static str| {
        header
            .iter()
            .position(|name| name == column)
            .ok_or(CompareError::MissingColumn {
                path: path.to_path_buf(),
                column,
            })
    };
    let mut at = HashMap::new();
    for column in NEEDED_COLUMNS {
        at.insert(column, position(column)?);
    }
    // Older CSVs may lack build options; they were then built without any.
    let options_at = header.iter().position(|name| name == "build_options");
    let mut rows = Vec::new();
    for (number, record) in reader.records().enumerate() {
        let record = record.map_err(|e| read_error(format!("row {}: {e}", number + 2)))?;
        let get = |column: &str| record.get(at[column]).unwrap_or("").to_string();
        let key = UnitKey {
            kind: get("kind"),
            function: get("function"),
            element_type: get("type"),
            width: get("width"),
            profile: get("profile"),
            build_options: options_at
                .and_then(|i| record.get(i))
                .unwrap_or("")
                .to_string(),
        };
        let cell = Cell {
            max_ulp: get("max_ulp"),
            status: get("status"),
        };
        rows.push((get("device"), key, get("bound_ulp"), cell));
    }
    Ok(rows)
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

/// Builds the table from the CSVs. Devices are named by their rows' `device` column; the same
/// device in two files is one column (a later file's row for a unit replaces an earlier one's).
pub fn compare(inputs: &[PathBuf], margin: f64) -> Result<Table, CompareError> {
    if margin.is_nan() || margin < 0.0 {
        return Err(CompareError::BadMargin(margin));
    }
    let mut devices: Vec<String> = Vec::new();
    let mut order: Vec<UnitKey> = Vec::new();
    let mut bounds: HashMap<UnitKey, String> = HashMap::new();
    let mut cells: HashMap<(UnitKey, usize), Cell> = HashMap::new();
    for path in inputs {
        for (device, key, bound, cell) in read_rows(path)? {
            let device_index = match devices.iter().position(|d| *d == device) {
                Some(index) => index,
                None => {
                    devices.push(device);
                    devices.len() - 1
                }
            };
            if !bounds.contains_key(&key) {
                order.push(key.clone());
                bounds.insert(key.clone(), bound);
            } else if bounds[&key].is_empty() && !bound.is_empty() {
                bounds.insert(key.clone(), bound);
            }
            cells.insert((key, device_index), cell);
        }
    }
    let rows = order
        .into_iter()
        .map(|key| {
            let row_cells: Vec<Option<Cell>> = (0..devices.len())
                .map(|device| cells.get(&(key.clone(), device)).cloned())
                .collect();
            let errors: Vec<Option<f64>> = row_cells
                .iter()
                .map(|cell| cell.as_ref().and_then(Cell::error))
                .collect();
            let differs = (0..devices.len())
                .map(|device| {
                    let Some(value) = errors[device] else {
                        return false;
                    };
                    let mut others: Vec<f64> = errors
                        .iter()
                        .enumerate()
                        .filter(|(other, _)| *other != device)
                        .filter_map(|(_, error)| *error)
                        .collect();
                    median(&mut others)
                        .is_some_and(|reference| exceeds_by_more_than(value, reference, margin))
                })
                .collect();
            Comparison {
                bound_ulp: bounds.remove(&key).unwrap_or_default(),
                key,
                cells: row_cells,
                differs,
            }
        })
        .collect();
    Ok(Table {
        devices,
        rows,
        margin,
    })
}

/// The marks of one cell: `FAIL` (or the status, for error/crash/timeout) and `DIFFERS`.
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
    for (index, device) in table.devices.iter().enumerate() {
        text.push_str(&format!("device {}: {device}\n", index + 1));
    }
    let mut header = vec![
        "kind".to_string(),
        "function".to_string(),
        "type".to_string(),
        "width".to_string(),
        "profile".to_string(),
        "bound".to_string(),
    ];
    header.extend((1..=table.devices.len()).map(|index| format!("device {index}")));
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
        line.extend((0..table.devices.len()).map(|device| terminal_cell(row, device)));
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
    text.push_str(&format!(
        "{} units, {} devices; cells failing: {failing}; cells more than {} ulp above the other devices' median: {differing}\n",
        table.rows.len(),
        table.devices.len(),
        table.margin
    ));
    text
}

fn count(table: &Table, predicate: impl Fn(&Comparison, usize) -> bool) -> usize {
    table
        .rows
        .iter()
        .map(|row| {
            (0..table.devices.len())
                .filter(|&device| predicate(row, device))
                .count()
        })
        .sum()
}

/// The table as CSV: the unit's columns, then per device `max_ulp <device>`, `status <device>`
/// and `mark <device>` (space-separated marks; empty where none). A device without a row for a
/// unit has empty cells there.
pub fn write_csv(table: &Table, path: &Path) -> Result<(), CompareError> {
    let write_error = |detail: String| CompareError::Write {
        path: path.to_path_buf(),
        detail,
    };
    let mut writer = csv::Writer::from_path(path).map_err(|e| write_error(e.to_string()))?;
    let mut header: Vec<String> = [
        "kind",
        "function",
        "type",
        "width",
        "profile",
        "build_options",
        "bound_ulp",
    ]
    .iter()
    .map(|name| name.to_string())
    .collect();
    for device in &table.devices {
        header.push(format!("max_ulp {device}"));
        header.push(format!("status {device}"));
        header.push(format!("mark {device}"));
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
        for device in 0..table.devices.len() {
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
/// skipped or not run; a thick black frame marks a cell more than the margin above the others.
pub fn write_svg(table: &Table, path: &Path) -> Result<(), CompareError> {
    const ROW_HEIGHT: usize = 18;
    const LABEL_WIDTH: usize = 330;
    const CELL_WIDTH: usize = 190;
    let top = 20 + ROW_HEIGHT * (table.devices.len() + 1);
    let width = LABEL_WIDTH + CELL_WIDTH * table.devices.len() + 10;
    let height = top + ROW_HEIGHT * table.rows.len() + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for (index, device) in table.devices.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"10\" y=\"{}\">device {}: {}</text>\n",
            16 + ROW_HEIGHT * index,
            index + 1,
            escape_xml(device)
        ));
    }
    let header_y = 16 + ROW_HEIGHT * table.devices.len();
    svg.push_str(&format!(
        "<text x=\"10\" y=\"{header_y}\" font-weight=\"bold\">unit (bound ulp; margin {} ulp)</text>\n",
        table.margin
    ));
    for index in 0..table.devices.len() {
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
        for device in 0..table.devices.len() {
            let x = LABEL_WIDTH + CELL_WIDTH * device;
            let fill = match row.cells[device].as_ref().map(|c| c.status.as_str()) {
                Some("pass") => "#b7e1b0",
                Some("fail") => "#f4a6a0",
                Some("skip") | None => "#dddddd",
                Some(_) => "#f6c27a",
            };
            let frame = if row.differs[device] {
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
