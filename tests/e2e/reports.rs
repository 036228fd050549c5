//! End-to-end tests of what a run leaves for people and pipelines: JUnit XML, SVG plots, the
//! reproduce line, and checking a user's own SPIR-V implementation — on the real Intel device.

mod common;
use common::{clacc, taylor_sin, text, Results};

use std::path::Path;

/// A sweep of `taylor_sin` (float, width 1, 3000 inputs) into `dir/sweep.csv`, with `extra`
/// options: the run and its CSV.
fn taylor_sin_sweep(dir: &Path, extra: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let kernel = format!("sin={}", taylor_sin(dir).display());
    let csv = dir.join("sweep.csv");
    let mut args = vec![
        "--kind", "ulp", "--kernel", &kernel, "--type", "float", "--width", "1", "--inputs", "3000",
    ];
    args.extend_from_slice(extra);
    args.extend(["--csv", csv.to_str().unwrap()]);
    (clacc(&args), csv)
}

/// The summary's reproduce line (what follows `reproduce: clacc `) run as given, into
/// `dir/again.csv`, which must fail (exit 1): the line and that run's CSV.
fn rerun_reproduce_line(output: &std::process::Output, dir: &Path) -> (String, Results) {
    let summary = text(&output.stdout);
    let line = summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: clacc "))
        .unwrap_or_else(|| panic!("no reproduce line:\n{summary}"))
        .to_string();
    let again_csv = dir.join("again.csv");
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["--csv", again_csv.to_str().unwrap()]);
    let again = clacc(&args);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    (line, Results::read(&again_csv))
}

#[test]
fn a_users_poor_sin_is_reported_failing_at_its_worst_input() {
    let dir = tempfile::tempdir().unwrap();
    let module = taylor_sin(dir.path());
    let kernel = format!("sin={}", module.display());
    // 3 is where x - x³/6 is worst of these: sin(3) = 0.141, the polynomial gives -1.5.
    let cases = dir.path().join("cases.txt");
    std::fs::write(&cases, "0x1.99999ap-4\n0x1p+0\n0x1p+1\n0x1.8p+1\n0x1p-3\n").unwrap();
    let csv = dir.path().join("user.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--kernel",
        &kernel,
        "--type",
        "float",
        "--width",
        "1",
        "--input-file",
        cases.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    let rows = &results.rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            results.cell(&rows[0], "function"),
            results.cell(&rows[0], "status")
        ),
        ("sin", "fail")
    );
    assert_eq!(
        results.cell(&rows[0], "worst_input"),
        "0x1.8p+1",
        "worst input"
    );
    assert_eq!(
        results.cell(&rows[0], "worst_device"),
        "-0x1.8p+0",
        "the device's (the module's) result for it"
    );
    // A sweep finds it failing too, with the worst input far from 0.
    let output = clacc(&[
        "--kind",
        "ulp",
        "--kernel",
        &kernel,
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "5000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let worst = clacc::num::hexfloat::parse(Results::read(&csv).first("worst_input")).unwrap();
    assert!(worst.abs() > 1.0, "{worst}");
}

#[test]
fn the_reproduce_line_shows_just_that_input_failing() {
    let dir = tempfile::tempdir().unwrap();
    let (output, csv) = taylor_sin_sweep(dir.path(), &[]);
    let (_, results) = rerun_reproduce_line(&output, dir.path());
    let rows = &results.rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(results.cell(&rows[0], "inputs"), "1", "just that input");
    assert_eq!(results.cell(&rows[0], "failures"), "1", "and it fails");
    assert_eq!(
        results.cell(&rows[0], "worst_input"),
        Results::read(&csv).first("worst_input"),
        "the same input"
    );
}

/// A work-group size other than the default is recorded with the rows and carried by the
/// reproduce line, whose run fails on the same input.
#[test]
fn a_chosen_work_group_is_recorded_and_reproduced() {
    let dir = tempfile::tempdir().unwrap();
    let (output, csv) = taylor_sin_sweep(dir.path(), &["--work-group", "64"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    assert!(
        results.first("options").ends_with(" work_group=64"),
        "{}",
        results.first("options")
    );
    let (line, again) = rerun_reproduce_line(&output, dir.path());
    assert!(line.contains(" --work-group 64 "), "{line}");
    assert_eq!(again.first("failures"), "1");
    assert_eq!(again.first("worst_input"), results.first("worst_input"));
}

/// An OpenCL C sin at width 2 whose small lane 0 goes wrong only beside a large lane 1, as
/// PoCL 6.0's float sin and cos did (docs/devices/pocl.md).
const LANE_COUPLED_SIN: &str = "\
__kernel void clacc_kernel(__global const float2 *in0, __global float2 *out0)
{
    size_t g = get_global_id(0);
    float2 x = in0[g];
    float2 r = sin(x);
    if (fabs(x.s0) < 1.0f && fabs(x.s1) > 0x1p+20f)
        r.s0 = 42.0f;
    out0[g] = r;
}
";

/// A vector unit's reproduce line gives every lane of the worst input's vector, so a lane
/// that fails because of another fails again; the worst lane alone passes.
#[test]
fn a_vector_reproduce_line_gives_every_lane_and_fails_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("lane_coupled_sin.cl");
    std::fs::write(&source, LANE_COUPLED_SIN).unwrap();
    let kernel = format!("sin={}", source.display());
    let csv = dir.path().join("sweep.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--source",
        "opencl-c",
        "--kernel",
        &kernel,
        "--type",
        "float",
        "--width",
        "2",
        "--inputs",
        "4096",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let worst = Results::read(&csv).first("worst_input").to_string();
    let (line, again) = rerun_reproduce_line(&output, dir.path());
    let inputs: Vec<&str> = line.split(" --input ").skip(1).collect();
    assert_eq!(inputs.len(), 2, "both lanes: {line}");
    assert_eq!(
        inputs[0], worst,
        "the worst input in its lane, lane 0: {line}"
    );
    let large = clacc::num::hexfloat::parse(inputs[1]).unwrap();
    assert!(large.abs() > 2f64.powi(20), "{line}");
    assert_eq!(again.first("inputs"), "2");
    assert_eq!(again.first("failures"), "1", "lane 0 fails again");
    assert_eq!(again.first("worst_input"), worst);
    assert_eq!(again.first("worst_device"), "0x1.5p+5");
    // The line as it was, the worst input alone, passes: its vector's lane 1 is not large
    // (the last vector is padded with the last case).
    let (alone, _) = line.split_once(" --input ").unwrap();
    let alone_csv = dir.path().join("alone.csv");
    let mut args: Vec<&str> = alone.split_whitespace().collect();
    args.extend(["--input", &worst, "--csv", alone_csv.to_str().unwrap()]);
    let output = clacc(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{line}\n{}",
        text(&output.stdout)
    );
}

#[test]
fn junit_has_a_testcase_per_csv_row_and_plots_draw_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("run.csv");
    let junit = dir.path().join("run.xml");
    let plots = dir.path().join("plots");
    let output = clacc(&[
        "--function",
        "sin,pow,half_recip",
        "--type",
        "float",
        "--width",
        "1,4",
        "--inputs",
        "3000",
        "--csv",
        csv.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        "--plot",
        plots.to_str().unwrap(),
    ]);
    assert!(
        matches!(output.status.code(), Some(0) | Some(1)),
        "{}",
        text(&output.stderr)
    );
    let results = Results::read(&csv);
    let rows = &results.rows;
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("the JUnit file parses");
    let testcases = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert_eq!(testcases, rows.len());
    let failing_rows = rows.iter().filter(|r| &r[11] == "fail").count();
    let failures = document
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, failing_rows);
    // One SVG per ULP unit; the one-argument plot draws sin's 4 ulp bound.
    let sin = std::fs::read_to_string(plots.join("sin_float_w1.svg")).unwrap();
    roxmltree::Document::parse(&sin).expect("the plot is well-formed SVG");
    assert!(sin.contains("bound 4 ulp"), "no bound line");
    let pow = std::fs::read_to_string(plots.join("pow_float_w1.svg")).unwrap();
    assert!(pow.contains("bound 16 ulp"));
}
