//! Leftovers of issues 12 to 16: the summary's reproduce lines for every kind of unit, the
//! planned unit count that merge and --resume read, and large --inputs on conversions. Runs
//! on the Intel OpenCL CPU runtime (the binary re-execs itself with it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn clacc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .output()
        .expect("run the clacc binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clacc-reproduce-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The CSV's rows as (column name → cell) lookups.
fn rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("open the CSV");
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            header
                .iter()
                .cloned()
                .zip(record.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// A conversion unit's reproduce line (`--kind conversion --function NAME --type T --width 1
/// --input X`, as src/report.rs builds it) runs that unit on exactly that input.
#[test]
fn a_conversion_reproduce_line_runs_that_unit_on_that_one_input() {
    let dir = scratch("conversion");
    for (name, element, input) in [
        ("convert_double_to_half", "half", "0x1.0000000000001p+0"),
        ("convert_int_to_float", "float", "0x1.000001p+24"),
    ] {
        let csv = dir.join(format!("{name}.csv"));
        let output = clacc(&[
            "--kind",
            "conversion",
            "--function",
            name,
            "--type",
            element,
            "--width",
            "1",
            "--input",
            input,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let code = output.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "{name}: {code:?} {}",
            text(&output.stderr)
        );
        let rows = rows(&csv);
        assert_eq!(rows.len(), 1, "{name}: one unit");
        let row = &rows[0];
        assert_eq!(row["function"], name);
        assert_eq!(row["kind"], "conversion");
        assert_eq!(row["inputs"], "1", "{name}: judges exactly the given input");
        assert_eq!(
            row["worst_input"], input,
            "{name}: the input given is the one judged"
        );
    }
}

/// An extension unit's reproduce line selects that unit too (a usage error before).
#[test]
fn an_extension_reproduce_line_selects_that_unit() {
    let dir = scratch("extension");
    let csv = dir.join("fc2.csv");
    let output = clacc(&[
        "--kind",
        "extension",
        "--function",
        "float_controls2_ieee",
        "--type",
        "float",
        "--width",
        "1",
        "--input",
        "0x1p+0,-0x1p+2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let code = output.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{code:?} {}",
        text(&output.stderr)
    );
    let rows = rows(&csv);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["function"], "float_controls2_ieee");
    assert_eq!(rows[0]["kind"], "extension");
    if rows[0]["status"] != "skip" {
        // One pair, five instructions, each counted.
        assert_eq!(rows[0]["inputs"], "5", "{:?}", rows[0]);
    }
}

/// The geometric "without overflow" rules prescribe a value (`~max`, `~2^emax`): the CSV's
/// worst_reference is that value, not a NaN (every length and distance rule at width 4 is
/// such a rule, whatever the device returns).
#[test]
fn an_edge_rule_without_overflow_reports_the_value_it_prescribes() {
    let dir = scratch("near");
    let csv = dir.join("length.csv");
    let output = clacc(&[
        "--kind",
        "edge",
        "--function",
        "length,distance",
        "--type",
        "half,float",
        "--width",
        "4",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let code = output.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{code:?} {}",
        text(&output.stderr)
    );
    let rows = rows(&csv);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let reference = &row["worst_reference"];
        let value: f64 = clacc::hexfloat::parse(reference)
            .unwrap_or_else(|| panic!("worst_reference {reference:?} of {row:?}"));
        assert!(value.is_finite() && value > 0.0, "{row:?}");
    }
}
