//! `clacc compare` on real runs of two devices (its CSV and SVG parsed), on runs of one device
//! that differ (two seeds, a failing kernel beside clacc's own) and on CSVs of known content:
//! the columns it reads by name, the marks by the margin rule over three devices, units one
//! device lacks, what it refuses rather than hide a row (a file twice, a unit twice, a shard),
//! the outputs it will not overwrite, and write errors on stdout.

mod common;
use common::{assert_refused, clacc, taylor_sin, text, Results};

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// The path as the argument a user types.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs clacc on the real device of `platform` over a small selection of float ulp units
/// (`extra` chooses functions and widths), 256 inputs each, into `csv`; returns its rows.
fn run_device(platform: &str, csv: &Path, extra: &[&str]) -> Vec<HashMap<String, String>> {
    let mut args = vec![
        "--platform",
        platform,
        "--kind",
        "ulp",
        "--type",
        "float",
        "--inputs",
        "256",
        "--csv",
        arg(csv),
    ];
    args.extend_from_slice(extra);
    let output = clacc(&args);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        text(&output.stderr)
    );
    Results::read(csv).maps()
}

/// `clacc compare` with `args` after the command; a comparison is exit 0.
fn compare_ok(args: &[&str]) -> String {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    let output = clacc(&all);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

/// A refusal of `clacc compare`: exit 2, one line containing each of `wanted`, nothing on
/// stdout.
fn compare_refused(args: &[&str], wanted: &[&str]) -> String {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    let output = clacc(&all);
    let stderr = text(&output.stderr);
    for part in wanted {
        assert_refused(&output, part);
    }
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
    stderr
}

/// The compare CSV's row of `function` at `width`.
fn table_row<'a>(
    table: &'a [HashMap<String, String>],
    function: &str,
    width: &str,
) -> &'a HashMap<String, String> {
    table
        .iter()
        .find(|row| row["function"] == function && row["width"] == width)
        .unwrap_or_else(|| panic!("no {function} w{width} in {table:?}"))
}

#[test]
fn two_real_devices_compare_into_a_table_whose_csv_and_svg_parse() {
    let dir = tempfile::tempdir().unwrap();
    let selection = ["--function", "sin,cos", "--width", "1,2"];
    let intel_csv = dir.path().join("intel.csv");
    let rusticl_csv = dir.path().join("rusticl.csv");
    let runs = [
        run_device("Intel", &intel_csv, &selection),
        run_device("rusticl", &rusticl_csv, &selection),
    ];
    let table_csv = dir.path().join("table.csv");
    let table_svg = dir.path().join("table.svg");
    let terminal = compare_ok(&[
        arg(&intel_csv),
        arg(&rusticl_csv),
        "--csv",
        arg(&table_csv),
        "--svg",
        arg(&table_svg),
    ]);
    let table = Results::read(&table_csv).maps();
    assert_eq!(table.len(), 4, "one row per unit:\n{terminal}");
    let mut failing_cells = 0;
    for (index, rows) in runs.iter().enumerate() {
        let device = &rows[0]["device"];
        // One run per device: the column is named by the device alone.
        assert!(
            terminal.contains(&format!("device {}: {device}\n", index + 1)),
            "{terminal}"
        );
        for row in rows {
            let line = table_row(&table, &row["function"], &row["width"]);
            assert_eq!(line[&format!("max_ulp {device}")], row["max_ulp"]);
            assert_eq!(line[&format!("status {device}")], row["status"]);
            assert_eq!(line["bound_ulp"], row["bound_ulp"]);
            let marked = line[&format!("mark {device}")].contains("fail");
            assert_eq!(marked, row["status"] != "pass", "{line:?}");
        }
        let failing = rows.iter().filter(|row| row["status"] != "pass").count();
        failing_cells += failing;
        assert!(
            terminal.contains(&format!(
                "device {} ({device}): {failing} of 4 units not passing",
                index + 1
            )),
            "{terminal}"
        );
    }
    let svg_text = std::fs::read_to_string(&table_svg).unwrap();
    let svg = roxmltree::Document::parse(&svg_text).expect("the SVG is well-formed XML");
    let root = svg.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let texts: Vec<&str> = root
        .descendants()
        .filter(|node| node.has_tag_name("text"))
        .filter_map(|node| node.text())
        .collect();
    for rows in &runs {
        let legend = texts
            .iter()
            .any(|t| t.ends_with(rows[0]["device"].as_str()));
        assert!(legend, "the legend names {}: {texts:?}", rows[0]["device"]);
    }
    let cells: Vec<_> = root
        .descendants()
        .filter(|node| node.has_tag_name("rect") && node.attribute("width") != Some("100%"))
        .collect();
    assert_eq!(cells.len(), 4 * 2, "a cell per unit and device");
    let red = cells
        .iter()
        .filter(|cell| cell.attribute("fill") == Some("#f4a6a0"))
        .count();
    assert_eq!(red, failing_cells);

    // Outputs compare wrote are replaced without --force; an input never is, nor a run's CSV.
    compare_ok(&[
        arg(&rusticl_csv),
        "--csv",
        arg(&table_csv),
        "--svg",
        arg(&table_svg),
    ]);
    assert_eq!(Results::read(&table_csv).maps().len(), 4);
    let before = std::fs::read(&intel_csv).unwrap();
    compare_refused(
        &[arg(&intel_csv), arg(&rusticl_csv), "--csv", arg(&intel_csv)],
        &["--csv", "is also one of the CSVs to compare"],
    );
    compare_refused(
        &[arg(&rusticl_csv), "--svg", arg(&intel_csv)],
        &[
            "--svg",
            "exists and is not what clacc compare writes",
            "--force",
        ],
    );
    assert_eq!(std::fs::read(&intel_csv).unwrap(), before);
}

#[test]
fn two_seeds_of_one_device_are_two_columns_named_by_their_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let mut runs = Vec::new();
    for seed in ["0x1", "0x2"] {
        let csv = dir.path().join(format!("seed{seed}.csv"));
        let extra = ["--function", "sin", "--width", "1", "--seed", seed];
        runs.push(run_device("Intel", &csv, &extra));
        inputs.push(csv);
    }
    let table_csv = dir.path().join("table.csv");
    let terminal = compare_ok(&[arg(&inputs[0]), arg(&inputs[1]), "--csv", arg(&table_csv)]);
    let table = Results::read(&table_csv).maps();
    assert_eq!(table.len(), 1, "{terminal}");
    for (index, (rows, seed)) in runs.iter().zip(["0x1", "0x2"]).enumerate() {
        let label = format!("{} [seed {seed}]", rows[0]["device"]);
        assert!(
            terminal.contains(&format!("device {}: {label}\n", index + 1)),
            "{terminal}"
        );
        assert_eq!(table[0][&format!("max_ulp {label}")], rows[0]["max_ulp"]);
        assert_eq!(table[0][&format!("status {label}")], rows[0]["status"]);
    }
    assert!(terminal.contains("2 columns of 1 devices"), "{terminal}");

    // The same file twice, by its name, another name or a copy, is refused.
    compare_refused(
        &[arg(&inputs[0]), arg(&inputs[1]), arg(&inputs[0])],
        &["seed0x1.csv is given twice; give each CSV once"],
    );
    let link = dir.path().join("link.csv");
    std::fs::hard_link(&inputs[0], &link).unwrap();
    compare_refused(
        &[arg(&inputs[0]), arg(&link)],
        &["link.csv is given twice (also as"],
    );
    let copy = dir.path().join("copy.csv");
    std::fs::copy(&inputs[1], &copy).unwrap();
    compare_refused(
        &[arg(&inputs[1]), arg(&copy)],
        &["copy.csv holds the same bytes as", "seed0x2.csv"],
    );
}

#[test]
fn a_failing_run_of_a_device_shows_beside_its_passing_run_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    let module = taylor_sin(dir.path());
    let kernel = format!("sin={}", module.display());
    let selection = ["--function", "sin", "--width", "1"];
    let poor_csv = dir.path().join("poor.csv");
    let poor = run_device(
        "Intel",
        &poor_csv,
        &[&selection[..], &["--kernel", &kernel]].concat(),
    );
    assert_eq!(
        poor[0]["status"], "fail",
        "taylor_sin fails beyond small |x|"
    );
    let own_csv = dir.path().join("own.csv");
    let own = run_device("Intel", &own_csv, &selection);
    let device = &own[0]["device"];
    let kernels = poor[0]["options"]
        .split_whitespace()
        .find(|pair| pair.starts_with("kernels="))
        .unwrap()
        .to_string();
    let poor_label = format!("{device} [{kernels}]");
    let own_label = format!("{device} [kernels=clacc]");
    for order in [[&poor_csv, &own_csv], [&own_csv, &poor_csv]] {
        let table_csv = dir.path().join("table.csv");
        let terminal = compare_ok(&[arg(order[0]), arg(order[1]), "--csv", arg(&table_csv)]);
        let table = Results::read(&table_csv).maps();
        assert_eq!(table.len(), 1, "{terminal}");
        assert_eq!(table[0][&format!("status {poor_label}")], "fail");
        assert!(table[0][&format!("mark {poor_label}")].contains("fail"));
        assert_eq!(table[0][&format!("status {own_label}")], own[0]["status"]);
        assert!(terminal.contains(&format!("{poor_label}): 1 of 1 units not passing (fail 1)")));
        let failing_line = terminal.lines().find(|l| l.starts_with("ulp")).unwrap();
        assert!(failing_line.contains("FAIL"), "{terminal}");
    }
}

/// A CSV of `rows` under `header`, written as given.
fn write_rows(path: &Path, header: &[&str], rows: &[Vec<&str>]) {
    let mut writer = csv::Writer::from_path(path).unwrap();
    writer.write_record(header).unwrap();
    for row in rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
}

/// The columns of a run's rows that compare reads, the run's own among them.
const RUN_HEADER: [&str; 13] = [
    "function",
    "type",
    "width",
    "profile",
    "max_ulp",
    "bound_ulp",
    "status",
    "kind",
    "seed",
    "device",
    "shard",
    "requested_inputs",
    "options",
];

/// A row of a run of `dev A` (seed 0x1, 256 inputs) for float sin w`width`.
fn run_row<'a>(width: &'a str, max_ulp: &'a str, status: &'a str, shard: &'a str) -> Vec<&'a str> {
    vec![
        "sin",
        "float",
        width,
        "full",
        max_ulp,
        "4",
        status,
        "ulp",
        "0x1",
        "dev A",
        shard,
        "256",
        "exhaustive=no cases=sweep kernels=clacc device_only=no",
    ]
}

#[test]
fn rows_that_would_share_a_cell_are_refused_naming_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let passing = dir.path().join("passing.csv");
    write_rows(&passing, &RUN_HEADER, &[run_row("1", "1.5", "pass", "0/1")]);
    // A copy of the run with its status edited: the same run's settings, another verdict.
    let failing = dir.path().join("failing.csv");
    write_rows(&failing, &RUN_HEADER, &[run_row("1", "inf", "fail", "0/1")]);
    for (first, second) in [(&failing, &passing), (&passing, &failing)] {
        compare_refused(
            &[arg(first), arg(second)],
            &[
                &format!(
                    "{}:2 and {}:2 both hold sin float w1 (ulp, full) of dev A",
                    arg(second),
                    arg(first)
                ),
                "compare only one of the two files",
            ],
        );
    }
    let repeated = dir.path().join("repeated.csv");
    write_rows(
        &repeated,
        &RUN_HEADER,
        &[
            run_row("1", "1.5", "pass", "0/1"),
            run_row("2", "1.5", "pass", "0/1"),
            run_row("1", "inf", "fail", "0/1"),
        ],
    );
    compare_refused(
        &[arg(&repeated)],
        &["repeated.csv:4 repeats sin float w1 (ulp, full) of dev A, already at line 2"],
    );
    let shard = dir.path().join("shard.csv");
    write_rows(&shard, &RUN_HEADER, &[run_row("1", "1.5", "pass", "1/2")]);
    compare_refused(
        &[arg(&passing), arg(&shard)],
        &["shard.csv:2 is a row of shard 1/2", "clacc merge"],
    );
    // Other selections of one run's settings fill one column.
    let width2 = dir.path().join("width2.csv");
    write_rows(&width2, &RUN_HEADER, &[run_row("2", "inf", "fail", "0/1")]);
    let table = dir.path().join("table.csv");
    let terminal = compare_ok(&[arg(&passing), arg(&width2), "--csv", arg(&table)]);
    let rows = Results::read(&table).maps();
    assert_eq!(rows.len(), 2, "{terminal}");
    assert_eq!(rows[1]["status dev A"], "fail");
    assert!(
        terminal.contains("device 1 (dev A): 1 of 2 units not passing (fail 1)"),
        "{terminal}"
    );
}

#[test]
fn outputs_that_are_inputs_foreign_files_or_not_files_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let a = results(dir.path(), "dev A", &[("sin", "1", "1.5", "pass")]);
    let b = results(dir.path(), "dev B", &[("sin", "1", "2", "pass")]);
    let a_bytes = std::fs::read(&a).unwrap();
    // An input, by its name or a hard link to it.
    compare_refused(
        &[arg(&a), arg(&b), "--csv", arg(&a)],
        &["--csv", "is also one of the CSVs to compare"],
    );
    let link = dir.path().join("link.svg");
    std::fs::hard_link(&a, &link).unwrap();
    compare_refused(
        &[arg(&a), arg(&b), "--svg", arg(&link), "--force"],
        &["--svg", "link.svg is also one of the CSVs to compare"],
    );
    assert_eq!(std::fs::read(&a).unwrap(), a_bytes);
    // A file compare did not write, refused before the other output is written.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let new_csv = dir.path().join("new.csv");
    for flag in ["--csv", "--svg"] {
        let other = if flag == "--csv" { "--svg" } else { "--csv" };
        compare_refused(
            &[arg(&a), other, arg(&new_csv), flag, arg(&notes)],
            &[&format!(
                "{flag} {} exists and is not what clacc compare writes",
                arg(&notes)
            )],
        );
        assert!(!new_csv.exists(), "nothing is written before the refusal");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    }
    // Not a file; one file for both outputs; a folder that does not exist.
    compare_refused(
        &[arg(&a), "--svg", arg(dir.path())],
        &["exists and is not a regular file"],
    );
    compare_refused(
        &[arg(&a), "--csv", arg(&new_csv), "--svg", arg(&new_csv)],
        &["are one file"],
    );
    let nowhere = dir.path().join("no-such-folder/table.csv");
    compare_refused(&[arg(&a), "--csv", arg(&nowhere)], &["does not exist"]);
    // --force replaces a foreign file; compare's own outputs are replaced without it.
    let svg = dir.path().join("table.svg");
    compare_ok(&[
        arg(&a),
        arg(&b),
        "--csv",
        arg(&notes),
        "--svg",
        arg(&svg),
        "--force",
    ]);
    assert_eq!(Results::read(&notes).maps().len(), 1);
    compare_ok(&[arg(&b), "--csv", arg(&notes), "--svg", arg(&svg)]);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("dev B"));
}

/// clacc with `args`, its stdout a full disk.
fn onto_full_disk(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .stdout(Stdio::from(full))
        .output()
        .unwrap()
}

#[test]
fn a_table_that_cannot_be_printed_is_an_error_of_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = results(dir.path(), "dev A", &[("sin", "1", "1.5", "pass")]);
    for args in [
        vec!["compare", arg(&a)],
        vec!["spec-diff"],
        vec!["spec-diff", "--markdown"],
    ] {
        let output = onto_full_disk(&args);
        assert_refused(&output, "to stdout: No space left on device");
        assert_eq!(text(&output.stderr).lines().count(), 1, "{args:?}");
    }
}
