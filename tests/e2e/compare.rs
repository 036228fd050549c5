//! `clacc compare` on CSVs of known content: the columns it reads by name, the marks by the
//! margin rule over three devices, units one device lacks, and the one-line error for a file
//! that is not a clacc CSV. (tests/rusticl.rs compares real runs of two devices.)

mod common;
use common::{clacc, text, Results};

use std::path::{Path, PathBuf};

/// A results CSV holding `units` (function, width, max_ulp, status) of `device`, its columns in
/// an order of its own (compare reads them by name) and with a column clacc does not write.
fn results(dir: &Path, device: &str, units: &[(&str, &str, &str, &str)]) -> PathBuf {
    let path = dir.join(format!("{}.csv", device.replace(' ', "_")));
    let mut writer = csv::Writer::from_path(&path).unwrap();
    writer
        .write_record([
            "device",
            "status",
            "max_ulp",
            "function",
            "type",
            "width",
            "kind",
            "profile",
            "bound_ulp",
            "extra",
        ])
        .unwrap();
    for (function, width, max_ulp, status) in units {
        writer
            .write_record([
                device, status, max_ulp, function, "float", width, "ulp", "full", "4", "x",
            ])
            .unwrap();
    }
    writer.flush().unwrap();
    path
}

#[test]
fn three_devices_are_marked_by_failure_and_by_distance_from_the_others_median() {
    let dir = tempfile::tempdir().unwrap();
    let a = results(
        dir.path(),
        "dev A",
        &[("sin", "1", "1.5", "pass"), ("cos", "1", "2", "pass")],
    );
    let b = results(
        dir.path(),
        "dev B",
        &[("sin", "1", "1.9", "pass"), ("cos", "1", "inf", "fail")],
    );
    let c = results(dir.path(), "dev C", &[("sin", "1", "3.6", "pass")]);
    let out = dir.path().join("table.csv");
    let output = clacc(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        c.to_str().unwrap(),
        "--margin",
        "1.5",
        "--csv",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rows = Results::read(&out).maps();
    assert_eq!(rows.len(), 2);
    let sin = &rows[0];
    assert_eq!(
        (sin["function"].as_str(), sin["bound_ulp"].as_str()),
        ("sin", "4")
    );
    assert_eq!(sin["max_ulp dev A"], "1.5");
    assert_eq!(sin["max_ulp dev C"], "3.6");
    // Others' medians: A 2.75, B 2.55, C 1.7: only C is more than 1.5 ulp above.
    assert_eq!(sin["mark dev A"], "");
    assert_eq!(sin["mark dev B"], "");
    assert_eq!(sin["mark dev C"], "differs");
    let cos = &rows[1];
    assert_eq!(cos["mark dev B"], "fail differs");
    assert_eq!(cos["mark dev A"], "");
    // dev C has no cos row: empty cells, no mark.
    assert_eq!(cos["max_ulp dev C"], "");
    assert_eq!(cos["status dev C"], "");
    let terminal = text(&output.stdout);
    assert!(terminal.contains("device 3: dev C"), "{terminal}");
    assert!(terminal.contains("3.6 DIFFERS"), "{terminal}");
    assert!(terminal.contains("inf FAIL DIFFERS"), "{terminal}");
}

#[test]
fn a_file_that_is_not_a_results_csv_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = results(dir.path(), "dev A", &[("sin", "1", "1.5", "pass")]);
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "function,type\nsin,float\n").unwrap();
    let output = clacc(&["compare", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("bad.csv has no `kind` column"), "{stderr}");
    let output = clacc(&["compare", good.to_str().unwrap(), "--margin=-1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("--margin -1"),
        "{}",
        text(&output.stderr)
    );
}
