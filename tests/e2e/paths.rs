//! End-to-end tests of the two kernel paths (`--source spirv|opencl-c|both`) as a user runs
//! them: an OpenCL C run on Intel, a run through both paths resumed after interruptions in
//! either part, shards of both paths merged (and shards of different paths refused), `clacc
//! compare` of a driver's two paths, the refusals, and PoCL (no SPIR-V: OpenCL C by default).
//! `clacc certify` through both paths is in journeys.rs.

mod common;
use common::{assert_refused, clacc, merge, text, Results};

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

/// A small selection: two functions, float, two widths, ULP and edge units.
const SELECTION: [&str; 10] = [
    "--kind",
    "ulp,edge",
    "--function",
    "sin,exp",
    "--type",
    "float",
    "--width",
    "1,4",
    "--inputs",
    "4096",
];

/// `clacc SELECTION --csv CSV` plus `extra`.
fn run(csv: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = SELECTION.to_vec();
    args.extend(["--csv", csv.to_str().unwrap()]);
    args.extend(extra);
    clacc(&args)
}

/// A run that must end with every unit passing (Intel's sin and exp do, through either path).
fn run_passing(csv: &Path, extra: &[&str]) -> Output {
    let output = run(csv, extra);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}\n{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    output
}

/// The CSV's units, each as `kind function type wN profile path`.
fn units(results: &Results) -> Vec<String> {
    results
        .rows
        .iter()
        .map(|row| {
            format!(
                "{} {} {} w{} {} {}",
                results.cell(row, "kind"),
                results.cell(row, "function"),
                results.cell(row, "type"),
                results.cell(row, "width"),
                results.cell(row, "profile"),
                results.cell(row, "path")
            )
        })
        .collect()
}

/// The CSV's header and its first `rows` rows (a run killed after `rows` units).
fn keep_rows(csv: &Path, rows: usize) {
    let text = std::fs::read_to_string(csv).unwrap();
    let kept: Vec<&str> = text.lines().take(rows + 1).collect();
    std::fs::write(csv, format!("{}\n", kept.join("\n"))).unwrap();
}

#[test]
fn an_opencl_c_run_on_intel_writes_opencl_c_rows_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("opencl-c.csv");
    let output = run_passing(&csv, &["--source", "opencl-c"]);
    let results = Results::read(&csv);
    assert_eq!(results.rows.len(), 8, "{:?}", units(&results));
    for row in &results.rows {
        assert_eq!(results.cell(row, "path"), "opencl-c");
        assert_eq!(results.cell(row, "status"), "pass");
        assert_eq!(results.cell(row, "spec"), "2026");
    }
    let stderr = text(&output.stderr);
    assert!(stderr.contains(", opencl-c kernels, profile "), "{stderr}");
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("8 units: 8 passed") && stdout.contains("; opencl-c kernels;"),
        "{stdout}"
    );
    // The default on Intel, which takes SPIR-V, is SPIR-V.
    let default = dir.path().join("default.csv");
    run_passing(&default, &[]);
    let results = Results::read(&default);
    assert!(results
        .rows
        .iter()
        .all(|row| results.cell(row, "path") == "spirv"));
}

#[test]
fn both_paths_run_every_unit_each_and_resume_in_either_part() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("both.csv");
    let plots = dir.path().join("plots");
    let output = run_passing(
        &whole,
        &["--source", "both", "--plot", plots.to_str().unwrap()],
    );
    // A unit has a plot per path, each path's in a folder of its own.
    for path in ["spirv", "opencl-c"] {
        assert!(
            plots.join(path).join("sin_float_w4.svg").is_file(),
            "{path}"
        );
    }
    let results = Results::read(&whole);
    let listed = units(&results);
    assert_eq!(listed.len(), 16, "{listed:?}");
    // The SPIR-V part first, then the same units through OpenCL C, in the same order.
    let (spirv, opencl_c) = listed.split_at(8);
    assert!(
        spirv.iter().all(|unit| unit.ends_with(" spirv")),
        "{listed:?}"
    );
    let same_units: Vec<String> = opencl_c
        .iter()
        .map(|unit| unit.replace(" opencl-c", " spirv"))
        .collect();
    assert_eq!(same_units, spirv);
    // Every row records the whole run's plan: both parts.
    assert!(results
        .rows
        .iter()
        .all(|row| results.cell(row, "planned_units") == "16"));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("; spirv kernels;") && stdout.contains("; opencl-c kernels;"),
        "{stdout}"
    );
    let expected = std::fs::read_to_string(&whole).unwrap();
    // Killed inside the SPIR-V part, and inside the OpenCL C part: --resume runs the rest and
    // the CSV ends as the uninterrupted run's.
    for kept in [3, 11] {
        let resumed = dir.path().join(format!("resumed-{kept}.csv"));
        std::fs::write(&resumed, &expected).unwrap();
        keep_rows(&resumed, kept);
        let output = run_passing(&resumed, &["--source", "both", "--resume"]);
        assert_eq!(
            std::fs::read_to_string(&resumed).unwrap(),
            expected,
            "kept {kept}: {}",
            text(&output.stderr)
        );
    }
    // A finished run resumed runs nothing.
    let output = run_passing(&whole, &["--source", "both", "--resume"]);
    assert!(
        text(&output.stdout).contains("were already in"),
        "{}",
        text(&output.stdout)
    );
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), expected);
    // A run of one path does not resume rows of the other.
    let output = run(&whole, &["--source", "spirv", "--resume"]);
    assert_refused(&output, "holds rows of the opencl-c path");
    assert_refused(&output, "this run plans spirv");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), expected);
}

#[test]
fn shards_of_both_paths_merge_and_shards_of_different_paths_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    run_passing(&whole, &["--source", "both"]);
    let shard = |index: usize, source: &str| {
        let csv = dir.path().join(format!("shard-{index}-{source}.csv"));
        run_passing(
            &csv,
            &["--source", source, "--shard", &format!("{index}/2")],
        );
        csv
    };
    let (first, second) = (shard(0, "both"), shard(1, "both"));
    let merged = dir.path().join("merged.csv");
    let output = merge(&[&first, &second], &merged);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "the merged shards of both paths differ from the whole run"
    );
    // Shard 0 through SPIR-V and shard 1 through OpenCL C are not one run's shards.
    let (spirv, opencl_c) = (shard(0, "spirv"), shard(1, "opencl-c"));
    let refused = dir.path().join("refused.csv");
    let output = merge(&[&spirv, &opencl_c], &refused);
    assert_refused(
        &output,
        "not shards of one run: path is `spirv` in one and `opencl-c` in the other",
    );
    assert!(!refused.exists());
}

#[test]
fn compare_shows_a_drivers_two_paths_side_by_side_and_whether_they_agree() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.csv");
    run_passing(&both, &["--source", "both"]);
    let output = clacc(&["compare", both.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let table = text(&output.stdout);
    let device = Results::read(&both).first("device").to_string();
    assert!(
        table.contains(&format!("device 1: {device} [path spirv]\n"))
            && table.contains(&format!("device 2: {device} [path opencl-c]\n")),
        "{table}"
    );
    let verdict = table
        .lines()
        .find(|line| {
            line.starts_with(&format!(
                "paths of {device} (device 1 spirv, device 2 opencl-c): "
            ))
        })
        .unwrap_or_else(|| panic!("no line on the two paths:\n{table}"));
    // Every unit passed through both paths: they disagree only where their errors are more
    // than the margin apart, and each unit so named is marked PATH in the table.
    let marked = table.lines().filter(|line| line.contains(" PATH")).count();
    if marked == 0 {
        assert!(
            verdict.ends_with(": all 8 units they share agree (within 1 ulp, the same verdict)"),
            "{verdict}"
        );
    } else {
        assert!(
            verdict.contains(&format!(": {marked} of 8 units they share disagree")),
            "{verdict}"
        );
    }
    // Two CSVs of one device, one per path, pair the same way.
    let spirv = dir.path().join("spirv.csv");
    let opencl_c = dir.path().join("opencl-c.csv");
    run_passing(&spirv, &["--source", "spirv"]);
    run_passing(&opencl_c, &["--source", "opencl-c"]);
    let output = clacc(&[
        "compare",
        opencl_c.to_str().unwrap(),
        spirv.to_str().unwrap(),
    ]);
    let table = text(&output.stdout);
    assert!(
        table.contains(&format!(
            "paths of {device} (device 2 spirv, device 1 opencl-c): "
        )),
        "{table}"
    );
}

#[test]
fn sources_that_cannot_run_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("refused.csv");
    let refused = |extra: &[&str], wanted: &str| {
        let output = run(&csv, extra);
        assert_refused(&output, wanted);
        assert_eq!(text(&output.stderr).lines().count(), 1, "{extra:?}");
        assert!(!csv.exists(), "{extra:?} wrote a CSV");
    };
    refused(
        &["--source", "opencl-c", "--spec", "2017"],
        "--source opencl-c with --spec 2017: clacc holds the 2026 text of the OpenCL C tables only, which judge the opencl-c path; give --spec 2026, or another --source",
    );
    refused(
        &["--source", "both", "--spec", "2017"],
        "--source opencl-c with --spec 2017",
    );
    refused(
        &["--source", "ptx"],
        "unknown --source `ptx`; use spirv, opencl-c, both or vulkan",
    );
    let output = clacc(&[
        "--kind",
        "extension",
        "--source",
        "opencl-c",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_refused(&output, "--kind extension checks SPIR-V extensions");
    // What certify checks is not a choice: it picks the paths itself.
    let output = clacc(&["certify", "--source", "spirv"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--source"));
}

/// clacc with PoCL (the system's ICD, without SPIR-V) visible beside the Intel runtime.
fn clacc_with_pocl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .env("OCL_ICD_FILENAMES", "libpocl.so.2")
        .env_remove("CLACC_REEXECUTED")
        .output()
        .expect("run the clacc binary")
}

#[test]
fn pocl_takes_no_spirv_so_its_runs_are_opencl_c_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("pocl.csv");
    let output = clacc_with_pocl(&[
        "--platform",
        "Portable",
        "--profile",
        "embedded",
        "--kind",
        "ulp,edge",
        "--function",
        "sin,exp",
        "--type",
        "float",
        "--width",
        "1,4",
        "--inputs",
        "4096",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    // What PoCL's library gets right is its findings' business: 0 or 1, never a usage error.
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    let results = Results::read(&csv);
    assert_eq!(results.rows.len(), 8, "{:?}", units(&results));
    let paths: BTreeSet<&str> = results
        .rows
        .iter()
        .map(|row| results.cell(row, "path"))
        .collect();
    assert_eq!(paths, BTreeSet::from(["opencl-c"]));
    assert!(results.rows.iter().all(|row| results
        .cell(row, "device")
        .starts_with("Portable Computing Language")
        && matches!(results.cell(row, "status"), "pass" | "fail")));
    // SPIR-V, alone or beside OpenCL C, is refused there.
    for source in ["spirv", "both"] {
        let output = clacc_with_pocl(&[
            "--platform",
            "Portable",
            "--source",
            source,
            "--function",
            "sin",
            "--csv",
            dir.path().join("refused.csv").to_str().unwrap(),
        ]);
        assert_refused(&output, "takes no SPIR-V (no SPIR-V: clCreateProgramWithIL is not supported), so no --source with spirv");
    }
}
