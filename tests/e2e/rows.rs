//! Reading clacc's own CSVs back, as `clacc merge` and a run's `--resume` do: a row clacc
//! never writes is refused naming its file, line and column; a byte order mark is no obstacle;
//! a merged crash is the unsharded run's row; and a refusal gives the real reason (another
//! profile, build options or selection). Small sweeps on the real Intel device; the rows are
//! edited, never the device's numbers asserted.

mod common;
use common::{assemble_text, assert_refused, clacc, merge, text, SEGFAULTING_SIN};

use std::path::{Path, PathBuf};
use std::process::Output;

/// Runs float w1 of `functions` (`sin`, `sin,cos`) over `inputs` inputs into `csv`.
fn run(csv: &Path, functions: &str, inputs: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "--kind",
        "ulp",
        "--function",
        functions,
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        inputs,
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend(extra);
    clacc(&args)
}

/// Runs `functions` over 64 inputs and expects exit 0; returns the CSV's text.
fn run_ok(csv: &Path, functions: &str, extra: &[&str]) -> String {
    let output = run(csv, functions, "64", extra);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    std::fs::read_to_string(csv).unwrap()
}

/// Cells to change: (column, value).
type Edits = Vec<(&'static str, String)>;

/// A copy of the CSV `source` at `dest` whose first row has `edits`, written as clacc writes
/// rows.
fn edited(source: &Path, dest: &Path, edits: &[(&str, String)]) {
    let mut reader = csv::Reader::from_path(source).unwrap();
    let header = reader.headers().unwrap().clone();
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    for (column, value) in edits {
        let index = header.iter().position(|h| h == *column).unwrap();
        rows[0][index] = value.clone();
    }
    let mut writer = csv::Writer::from_path(dest).unwrap();
    writer.write_record(&header).unwrap();
    for row in rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
}

/// The first row's cell of column `name` in the CSV `path`.
fn cell(path: &Path, name: &str) -> String {
    let results = common::Results::read(path);
    results.first(name).to_string()
}

#[test]
fn rows_clacc_never_writes_are_refused_by_merge_and_resume_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    run_ok(&whole, "sin", &[]);
    let inputs: u64 = cell(&whole, "inputs").parse().unwrap();
    let bound = cell(&whole, "bound_ulp");
    let pass = |edits: &[(&'static str, &str)]| {
        let mut all: Edits = vec![
            ("status", "pass".to_string()),
            ("failures", "0".to_string()),
        ];
        all.extend(edits.iter().map(|(c, v)| (*c, v.to_string())));
        all
    };
    let too_many = (inputs + 1).to_string();
    let above_bound = format!("above bound_ulp {bound}");
    // (the edits, the column the refusal names, words of the refusal)
    let cases: Vec<(Edits, &str, &str)> = vec![
        // An error beyond the bound edited into a pass.
        (pass(&[("max_ulp", "7.1362e44")]), "status", &above_bound),
        (
            pass(&[("failures", "1")]),
            "status",
            "contradicts failures 1",
        ),
        (
            pass(&[("max_ulp", "nan")]),
            "max_ulp",
            "non-negative decimal",
        ),
        (
            pass(&[("max_ulp", "-1")]),
            "max_ulp",
            "non-negative decimal",
        ),
        (
            vec![("failures", too_many.clone()), ("status", "fail".into())],
            "failures",
            "exceeds inputs",
        ),
        (
            pass(&[("worst_input", "0x1p+0zz")]),
            "worst_input",
            "hex floats",
        ),
        (pass(&[("kind", "bogus")]), "kind", "not one of"),
        (pass(&[("type", "quad")]), "type", "not one of"),
        (pass(&[("width", "5")]), "width", "not one of"),
        (pass(&[("profile", "strict")]), "profile", "not one of"),
        (pass(&[("undefined", "lots")]), "undefined", "not a count"),
    ];
    for (number, (edits, named, words)) in cases.iter().enumerate() {
        let copy = dir.path().join(format!("bad{number}.csv"));
        edited(&whole, &copy, edits);
        let before = std::fs::read_to_string(&copy).unwrap();
        let wanted = format!("{}:2: {named} `", copy.display());
        let merged = dir.path().join("merged.csv");
        let output = merge(&[&copy], &merged);
        assert_refused(&output, &wanted);
        assert_refused(&output, words);
        assert!(!merged.exists(), "a refused merge wrote its output");
        let output = run(&copy, "sin", "64", &["--resume"]);
        assert_refused(&output, &wanted);
        assert_refused(&output, words);
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), before, "{edits:?}");
    }
}

#[test]
fn a_csv_saved_with_a_byte_order_mark_resumes_is_replaced_and_is_merged_over() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let whole_text = run_ok(&whole, "sin,cos", &[]);
    // Interrupted after sin, then saved by an editor that adds a byte order mark.
    let sin_only: String = whole_text
        .lines()
        .take(2)
        .map(|line| format!("{line}\n"))
        .collect();
    let marked = dir.path().join("marked.csv");
    std::fs::write(&marked, format!("\u{feff}{sin_only}")).unwrap();
    let resumed = run_ok(&marked, "sin,cos", &["--resume"]);
    assert_eq!(resumed.trim_start_matches('\u{feff}'), whole_text);
    // A clacc CSV with a mark is clacc's: a run replaces it, a merge writes over it.
    std::fs::write(&marked, format!("\u{feff}{whole_text}")).unwrap();
    assert_eq!(run_ok(&marked, "sin,cos", &[]), whole_text);
    std::fs::write(&marked, format!("\u{feff}{whole_text}")).unwrap();
    let output = merge(&[&whole], &marked);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(std::fs::read_to_string(&marked).unwrap(), whole_text);
}

#[test]
fn a_merged_crash_row_is_the_unsharded_run_s_row() {
    let dir = tempfile::tempdir().unwrap();
    let module = assemble_text(dir.path(), "segv", SEGFAULTING_SIN);
    let kernel = format!("sin={}", module.display());
    let crashing = |csv: &PathBuf, shard: &str| {
        // 1000 inputs are one chunk: shard 0/2 runs it and crashes, shard 1/2 holds nothing.
        let output = run(csv, "sin", "1000", &["--kernel", &kernel, "--shard", shard]);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{}",
            text(&output.stderr)
        );
    };
    let path = |name: &str| dir.path().join(name);
    let (whole, zero, one) = (path("whole.csv"), path("s0.csv"), path("s1.csv"));
    crashing(&whole, "0/1");
    crashing(&zero, "0/2");
    crashing(&one, "1/2");
    assert_eq!(cell(&whole, "status"), "crash");
    assert_eq!(cell(&whole, "max_ulp"), "");
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    for order in [[&zero, &one], [&one, &zero]].map(|pair| pair.map(PathBuf::as_path)) {
        let merged = path("merged.csv");
        let output = merge(&[order[0], order[1]], &merged);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        assert_eq!(std::fs::read_to_string(&merged).unwrap(), whole_text);
    }
}

#[test]
fn shards_of_another_profile_or_build_options_are_named_not_called_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let zero = path("s0.csv");
    run_ok(&zero, "sin", &["--shard", "0/2"]);
    for (extra, wanted) in [
        (
            "--profile=relaxed",
            "profile is `full` in one and `relaxed` in the other",
        ),
        (
            "--build-options=-cl-mad-enable",
            "build_options is `` in one and `-cl-mad-enable` in the other",
        ),
    ] {
        let one = path("s1.csv");
        run_ok(&one, "sin", &["--shard", "1/2", extra]);
        let output = merge(&[&zero, &one], &path("merged.csv"));
        assert_refused(&output, wanted);
        assert!(!text(&output.stderr).contains("did not finish"));
    }
}

#[test]
fn resume_of_another_selection_says_so_not_planned_units() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let before = run_ok(&csv, "sin", &[]);
    let output = run(&csv, "sin,cos", "64", &["--resume"]);
    assert_refused(
        &output,
        "were written by a run of another selection (1 unit planned there, 2 here); rerun with the same selection",
    );
    assert!(!text(&output.stderr).contains("planned_units"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
}
