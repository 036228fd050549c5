//! Rows judged by an absolute bound (Table 5's sin, cos inside [-pi, pi]; log inside [0.5, 2],
//! ulp outside) say in the first thirteen columns what was measured against what bound: no ulp
//! figures for inputs no ULP bound judged, and a note that leads with the largest absolute
//! error and its bound. On the real Intel device; the device's numbers are not asserted, only
//! the columns' shape and that they agree with each other.

mod common;
use common::{clacc, text, Results};

use std::collections::HashMap;
use std::path::Path;

const SELECTION: [&str; 12] = [
    "--platform",
    "Intel",
    "--profile",
    "relaxed",
    "--kind",
    "ulp",
    "--type",
    "float",
    "--width",
    "1",
    "--function",
    "sin,log",
];

fn run_to(csv: &Path, inputs: &str, extra: &[&str]) -> String {
    let mut args: Vec<&str> = SELECTION.to_vec();
    args.extend(["--inputs", inputs, "--csv", csv.to_str().unwrap()]);
    args.extend(extra);
    let output = clacc(&args);
    let code = output.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "exit {code:?}: {}",
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn rows_by_function(csv: &Path) -> HashMap<String, HashMap<String, String>> {
    Results::read(csv)
        .maps()
        .into_iter()
        .map(|row| (row["function"].clone(), row))
        .collect()
}

/// The figure the note's `max abs error` clause gives, read back.
fn clause_figure(note: &str) -> f64 {
    let figure = note
        .strip_prefix("max abs error ")
        .unwrap_or_else(|| panic!("the note leads with the absolute error: {note}"))
        .split(' ')
        .next()
        .unwrap();
    figure.parse().unwrap()
}

/// The clause's three digits are `max_abs_error`'s.
fn assert_clause_states(row: &HashMap<String, String>) {
    let max_abs_error: f64 = row["max_abs_error"].parse().unwrap();
    let figure = clause_figure(&row["note"]);
    assert!(
        (figure - max_abs_error).abs() <= max_abs_error * 5e-3,
        "note says {figure}, max_abs_error {max_abs_error}"
    );
}

fn assert_shapes(rows: &HashMap<String, HashMap<String, String>>) {
    let sin = &rows["sin"];
    // No input is judged in ulp: no ulp figures (they read max_ulp 0, bound_ulp 4).
    assert_eq!(sin["max_ulp"], "", "{sin:?}");
    assert_eq!(sin["bound_ulp"], "", "{sin:?}");
    assert!(
        sin["note"].starts_with("max abs error ")
            && sin["note"].contains(" (bound 2^-11 = 4.88e-4 if x in [-pi,pi])"),
        "{sin:?}"
    );
    assert!(!sin["note"].contains("max_ulp"), "{sin:?}");
    assert_clause_states(sin);
    let max_abs_error: f64 = sin["max_abs_error"].parse().unwrap();
    let failures: u64 = sin["failures"].parse().unwrap();
    match sin["status"].as_str() {
        "pass" => assert!(max_abs_error <= 2f64.powi(-11) && failures == 0, "{sin:?}"),
        "fail" => assert!(max_abs_error > 2f64.powi(-11) && failures > 0, "{sin:?}"),
        other => panic!("sin: {other}"),
    }
    // log: absolute inside [0.5, 2], <= 3 ulp outside: both measures, each in its place.
    let log = &rows["log"];
    assert_eq!(log["bound_ulp"], "3", "{log:?}");
    let max_ulp: f64 = log["max_ulp"].parse().expect("log's ULP piece measured");
    assert!(max_ulp >= 0.0);
    assert!(
        log["note"].starts_with("max abs error ")
            && log["note"].contains(
                " (bound 2^-21 = 4.77e-7 if x in [0.5,2]), max_ulp over the other inputs"
            ),
        "{log:?}"
    );
}

#[test]
fn absolute_bound_rows_say_what_was_measured_against_what_bound() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("relaxed.csv");
    let summary = run_to(&csv, "256", &[]);
    let rows = rows_by_function(&csv);
    assert_shapes(&rows);
    assert_clause_states(&rows["log"]);
    // The terminal table says the same: no ulp figure for sin, the clause in its note.
    let sin_line = summary
        .lines()
        .find(|line| line.trim_start().starts_with("sin "))
        .unwrap_or_else(|| panic!("no sin line in {summary}"));
    let cells: Vec<&str> = sin_line.split_whitespace().collect();
    assert_eq!(cells[5], "-", "{sin_line}");
    assert!(sin_line.contains("max abs error "), "{sin_line}");
}

/// Shards of such rows merge, the columns keeping their shape. Only the shape: `clacc merge`
/// keeps the first file's `max_abs_error` (and the worst case's shard's note), not yet the
/// largest of every shard.
#[test]
fn absolute_bound_rows_still_merge() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for index in 0..2 {
        let path = dir.path().join(format!("shard{index}.csv"));
        run_to(&path, "150000", &["--shard", &format!("{index}/2")]);
        shards.push(path);
    }
    let merged = dir.path().join("merged.csv");
    let output = clacc(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--csv",
        merged.to_str().unwrap(),
    ]);
    let code = output.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "merge exit {code:?}: {}",
        text(&output.stderr)
    );
    let rows = rows_by_function(&merged);
    assert_shapes(&rows);
    // The merged shards are the unsharded run's CSV, largest absolute errors included.
    let whole = dir.path().join("whole.csv");
    run_to(&whole, "150000", &[]);
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    let parts: Vec<_> = shards.iter().map(|s| rows_by_function(s)).collect();
    for function in ["sin", "log"] {
        let inputs: u64 = parts
            .iter()
            .map(|p| p[function]["inputs"].parse::<u64>().unwrap())
            .sum();
        assert_eq!(rows[function]["inputs"], inputs.to_string());
    }
}
