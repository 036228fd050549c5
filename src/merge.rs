//! Combining result CSVs: the shards of one run into what the unsharded run writes (counts
//! summed, maxima and worst cases merged), and reading back a CSV that `--resume` continues.
//!
//! The rule for the worst case is `judge::UnitStats::merge`'s, read from the columns: a failing
//! worst case outranks a passing one, then the larger `worst_ulp`, then the smaller
//! `worst_index`.

use crate::report::{format_ulp, COLUMNS};
use std::collections::HashMap;
use std::path::Path;

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
        ]
        .iter()
        .map(|name| self.get(name))
        .collect::<Vec<_>>()
        .join("|")
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

    pub fn fields(&self) -> &[String] {
        &self.values
    }
}

/// Reads a clacc CSV; the header must be clacc's (same columns, same order).
pub fn read(path: &Path) -> Result<Vec<Row>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_path(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    if header != COLUMNS {
        return Err(format!(
            "{} is not a CSV of this clacc version (its header differs); merge only files written by clacc {}",
            path.display(),
            env!("CARGO_PKG_VERSION")
        ));
    }
    let mut rows = Vec::new();
    for (number, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{}: row {}: {e}", path.display(), number + 2))?;
        rows.push(Row {
            values: record.iter().map(str::to_string).collect(),
        });
    }
    Ok(rows)
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
    // The order `judge::Allowance::ALL` prints them in.
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
    let (a, b) = (candidate.ulp("worst_ulp"), current.ulp("worst_ulp"));
    a > b || (a == b && candidate.number("worst_index") < current.number("worst_index"))
}

fn merge_status(a: &str, b: &str) -> String {
    let rank = |status: &str| match status {
        "error" => 3,
        "fail" => 2,
        "pass" => 1,
        _ => 0,
    };
    if rank(a) >= rank(b) { a } else { b }.to_string()
}

/// Folds `other` (the same unit, another shard) into `merged`.
fn merge_row(merged: &mut Row, other: &Row) {
    // Decide the worst case on the rows as they were, before their counts are summed.
    let other_worst_outranks = worst_outranks(other, merged);
    for name in ["inputs", "failures", "undefined"] {
        let total = merged.number(name) + other.number(name);
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
    let status = merge_status(merged.get("status"), other.get("status"));
    if status == "error" && merged.get("status") != "error" {
        merged.set("note", other.get("note").to_string());
    }
    // A unit that failed in one shard fails; a passing shard beside it does not change that.
    let status = if status == "pass" && merged.number("failures") > 0 {
        "fail".to_string()
    } else {
        status
    };
    merged.set("status", status);
}

/// Refuses rows judged by different revisions of the spec (the `spec` column): their verdicts
/// answer different questions. `paths` name the files `inputs` came from.
pub fn one_revision(paths: &[std::path::PathBuf], inputs: &[Vec<Row>]) -> Result<(), String> {
    let mut first: Option<(&Path, &str)> = None;
    for (path, rows) in paths.iter().zip(inputs) {
        for row in rows {
            match first {
                None => first = Some((path, row.get("spec"))),
                Some((earlier, spec)) if spec != row.get("spec") => {
                    return Err(format!(
                        "cannot merge: {} was judged by the {spec} text of the spec, {} by the {} \
                         text; merge runs of one --spec only",
                        earlier.display(),
                        path.display(),
                        row.get("spec")
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Merges shard CSVs: rows of the same unit are combined, in the order of first appearance.
pub fn merge(inputs: &[Vec<Row>]) -> Vec<Row> {
    let mut merged: Vec<Row> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for rows in inputs {
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
    merged
}

/// Writes rows under clacc's header.
pub fn write(path: &Path, rows: &[Row]) -> Result<(), String> {
    let mut writer = csv::Writer::from_path(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let failure = |e: csv::Error| format!("cannot write {}: {e}", path.display());
    writer.write_record(COLUMNS).map_err(failure)?;
    for row in rows {
        writer.write_record(row.fields()).map_err(failure)?;
    }
    writer
        .flush()
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Prepares `path` for `--resume`: checks that it is a clacc CSV before touching it, keeps its
/// header and every complete row, drops a row cut off by an interruption, and returns the rows
/// already there.
pub fn resume(path: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --csv {} to resume: {e}", path.display()))?;
    let header = COLUMNS.join(",");
    if text.trim().is_empty() {
        // Killed before anything was written: start it again from the header.
        std::fs::write(path, format!("{header}\n"))
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
        return Ok(Vec::new());
    }
    if text.lines().next() != Some(header.as_str()) {
        return Err(format!(
            "--resume: {} is not a CSV of this clacc version (its header differs); give another --csv or drop --resume",
            path.display()
        ));
    }
    // Every row clacc writes ends with a newline; anything after the last one was cut off.
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if complete.len() != text.len() {
        let repaired = if complete.is_empty() {
            format!("{header}\n")
        } else {
            complete.to_string()
        };
        std::fs::write(path, repaired)
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
    }
    read(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, &str)]) -> Row {
        let mut values = vec![String::new(); COLUMNS.len()];
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
        ])
    }

    #[test]
    fn shards_merge_into_sums_maxima_and_the_worst_case() {
        let a = unit("100", "0", "1.5", "0x1p+0", "1.5", "7", "pass");
        let b = unit("50", "2", "6.25", "0x1p+3", "6.25", "120", "fail");
        let c = unit("60", "0", "7", "0x1p+4", "7", "3", "pass");
        let merged = merge(&[vec![a.clone()], vec![b.clone()], vec![c.clone()]]);
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
        let other = merge(&[vec![c], vec![b], vec![a]]);
        assert_eq!(other[0].fields(), m.fields());
    }

    #[test]
    fn equal_errors_keep_the_earlier_input() {
        let a = unit("10", "0", "2", "0x1p+1", "2", "50", "pass");
        let b = unit("10", "0", "2", "0x1p+2", "2", "9", "pass");
        assert_eq!(merge(&[vec![a], vec![b]])[0].get("worst_input"), "0x1p+2");
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
        let rows = resume(&path).unwrap();
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
        assert!(resume(&path)
            .unwrap_err()
            .contains("not a CSV of this clacc version"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,2\n3,");
        // A file killed before its header was written starts again from the header.
        std::fs::write(&path, "").unwrap();
        assert!(resume(&path).unwrap().is_empty());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n", COLUMNS.join(","))
        );
    }
}
