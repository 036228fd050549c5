//! The geometric rows of the 2026 text (`<= 2.75 + 0.5n ulp` for float `length`, with n the
//! vector width; max²·(2n − 1)·FLT_EPSILON for OpDot) judged per work-item, with SPIR-V
//! modules of known behaviour run through `clacc --kernel` on the real device
//! (`kernels/corpus/length_*.spvasm`, `dot_*.spvasm`).

mod common;
use common::{assemble_corpus, clacc, Results};

use std::process::Output;

/// Runs `length` at float width 3 with `module` in place of clacc's kernel; the exit code
/// and the one CSV row as (column name, value) pairs.
fn run_length(module: &str, extra: &[&str]) -> (Output, Vec<(String, String)>) {
    run_float3("length", module, extra)
}

/// Runs `function` at float width 3 with `module` in place of clacc's kernel.
fn run_float3(function: &str, module: &str, extra: &[&str]) -> (Output, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let binary = assemble_corpus(module, dir.path());
    let csv_path = dir.path().join("unit.csv");
    let kernel = format!("{function}={}", binary.display());
    let mut args = vec![
        "--kernel",
        &kernel,
        "--function",
        function,
        "--type",
        "float",
        "--width",
        "3",
        "--kind",
        "ulp",
        "--inputs",
        "1500",
        "--csv",
    ];
    let csv_text = csv_path.to_str().unwrap().to_string();
    args.push(&csv_text);
    args.extend(extra);
    let output = clacc(&args);
    let results = Results::read(&csv_path);
    let row = results
        .header
        .iter()
        .cloned()
        .zip(results.only_row().iter().map(str::to_string))
        .collect();
    (output, row)
}

fn field<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(n, _)| n == name).expect(name).1
}

#[test]
fn a_length_computed_in_double_and_rounded_passes_the_per_vector_bound() {
    let (output, row) = run_length("length_double_w3", &[]);
    assert_eq!(output.status.code(), Some(0), "{row:?}");
    assert_eq!(field(&row, "status"), "pass");
    // 2.75 + 0.5 · 3: the bound at this width.
    assert_eq!(field(&row, "bound_ulp"), "4.25");
    // One case per work-item: 1500 components are 500 float3 vectors.
    assert_eq!(field(&row, "inputs"), "500");
    let max_ulp: f64 = field(&row, "max_ulp").parse().unwrap();
    assert!(max_ulp <= 0.5 + 1e-6, "rounded once from double: {max_ulp}");
    // The worst case names the whole vector: three components.
    assert_eq!(field(&row, "worst_input").split_whitespace().count(), 3);
}

#[test]
fn a_length_off_by_more_than_the_bound_fails_and_the_2017_text_does_not_bound_it() {
    let (output, row) = run_length("length_scaled_w3", &[]);
    assert_eq!(output.status.code(), Some(1), "{row:?}");
    assert_eq!(field(&row, "status"), "fail");
    assert_eq!(field(&row, "bound_ulp"), "4.25");
    assert_eq!(field(&row, "spec"), "2026");
    // 2^-17 relative is 64 to 128 ulp of a float by where the length lies in its binade, and
    // the scaled float is rounded once more: at most half an ulp beyond.
    let max_ulp: f64 = field(&row, "max_ulp").parse().unwrap();
    assert!(
        (64.0..=128.5).contains(&max_ulp),
        "2^-17 too long: {max_ulp}"
    );
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.contains("length"), "{summary}");
    // The 2017 text has no row for length: the same module is not judged.
    let (output, row) = run_length("length_scaled_w3", &["--spec", "2017"]);
    assert_eq!(output.status.code(), Some(0), "{row:?}");
    assert_eq!(field(&row, "status"), "skip");
    assert!(field(&row, "note").contains("does not bound it"), "{row:?}");
}

#[test]
fn a_dot_product_rounded_from_double_passes_and_one_scaled_by_2_to_the_minus_17_fails() {
    let (output, row) = run_float3("OpDot", "dot_double_w3", &[]);
    assert_eq!(output.status.code(), Some(0), "{row:?}");
    assert_eq!(field(&row, "status"), "pass");
    // 2n − 1 = 5 operations at n = 3.
    assert_eq!(field(&row, "rule"), "abs <= max*max*5*FLT_EPSILON");
    assert_eq!(field(&row, "worst_input").split_whitespace().count(), 6);
    let judged: u64 = field(&row, "inputs").parse().unwrap();
    let undefined: u64 = field(&row, "undefined").parse().unwrap();
    assert_eq!(judged + undefined, 500, "one case per work-item");
    assert!(judged > 100, "{row:?}");
    let (output, row) = run_float3("OpDot", "dot_scaled_w3", &[]);
    assert_eq!(output.status.code(), Some(1), "{row:?}");
    assert_eq!(field(&row, "status"), "fail");
    assert_eq!(field(&row, "rule"), "abs <= max*max*5*FLT_EPSILON");
    let failures: u64 = field(&row, "failures").parse().unwrap();
    assert!(failures > 0, "{row:?}");
}

/// A geometric unit's reproduce line gives its work-item a component a case (`--input
/// p0[j],p1[j]` in component order), as `--input-file` lays them: that run judges the one
/// work-item and fails it again.
#[test]
fn a_dot_products_reproduce_line_runs_its_work_item_again() {
    let dir = tempfile::tempdir().unwrap();
    let binary = assemble_corpus("dot_scaled_w3", dir.path());
    let kernel = format!("OpDot={}", binary.display());
    let csv = dir.path().join("unit.csv");
    let output = clacc(&[
        "--kernel",
        &kernel,
        "--function",
        "OpDot",
        "--type",
        "float",
        "--width",
        "3",
        "--kind",
        "ulp",
        "--inputs",
        "1500",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let worst = Results::read(&csv).first("worst_input").to_string();
    let summary = String::from_utf8_lossy(&output.stdout);
    let line = summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: clacc "))
        .unwrap_or_else(|| panic!("no reproduce line:\n{summary}"));
    assert_eq!(line.matches(" --input ").count(), 3, "{line}");
    let again_csv = dir.path().join("again.csv");
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["--csv", again_csv.to_str().unwrap()]);
    let output = clacc(&args);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{line}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let again = Results::read(&again_csv);
    assert_eq!(again.first("inputs"), "1", "one work-item");
    assert_eq!(again.first("failures"), "1");
    assert_eq!(again.first("worst_input"), worst, "the same vectors");
}
