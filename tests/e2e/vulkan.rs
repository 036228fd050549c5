//! End-to-end tests of the vulkan path on Mesa lavapipe (`.deps/lavapipe`, installed by
//! scripts/setup): the binary run as a user runs it, compute shaders judged by the Vulkan
//! environment's precision tables. No test asserts a vendor's numeric result (lavapipe's
//! findings are in docs/devices/lavapipe.md); they assert structure, verdict kinds and facts
//! every conforming device meets: a correctly rounded fadd passes. (`clacc devices` is
//! tests/e2e/vulkan_devices.rs's.)

mod common;
use common::{
    assemble_file_for, assert_judged, assert_refused, clacc, on_lavapipe, repository, text,
    Results, LAVAPIPE,
};

use std::path::PathBuf;
use std::process::Output;

/// A finished run on lavapipe in a folder of its own: its output, its CSV's path and rows.
struct Judged {
    dir: tempfile::TempDir,
    csv: PathBuf,
    output: Output,
    results: Results,
}

/// Runs clacc on lavapipe with `flags` into a fresh CSV, which must end judged: exit 0 (every
/// unit passed) or 1 (some failed), never a refusal or a crash of the run.
fn judged(flags: &[&str]) -> Judged {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("lavapipe.csv");
    let output = on_lavapipe(&csv, flags);
    assert_judged(&output);
    let results = Results::read(&csv);
    assert_vulkan_rows(&results);
    Judged {
        dir,
        csv,
        output,
        results,
    }
}

/// The row of `function` in `results`.
fn row_of<'a>(results: &'a Results, function: &str) -> &'a csv::StringRecord {
    results
        .rows
        .iter()
        .find(|row| results.cell(row, "function") == function)
        .unwrap_or_else(|| panic!("no {function} row"))
}

/// Every row's `path` cell is `vulkan`; every status is one clacc writes.
fn assert_vulkan_rows(results: &Results) {
    for row in &results.rows {
        assert_eq!(results.cell(row, "path"), "vulkan");
        assert!(
            ["pass", "fail", "skip", "error", "timeout", "crash"]
                .contains(&results.cell(row, "status")),
            "{row:?}"
        );
    }
}

#[test]
fn a_ulp_run_covers_every_type_and_vulkan_width_and_fadd_passes() {
    let run = judged(&[
        "--function",
        "OpFAdd,sqrt,sin",
        "--width",
        "1,2,3,4",
        "--inputs",
        "2048",
    ]);
    let stderr = text(&run.output.stderr);
    assert!(stderr.contains("vulkan kernels"), "{stderr}");
    let results = &run.results;
    // 3 functions, 3 types, 4 widths.
    assert_eq!(results.rows.len(), 36);
    for row in &results.rows {
        if results.cell(row, "function") == "OpFAdd" {
            // Correctly rounded in the RTE mode the shader declares: every device passes.
            assert_eq!(results.cell(row, "status"), "pass", "{row:?}");
        }
        assert!(
            results.cell(row, "device").starts_with("Vulkan / llvmpipe"),
            "{row:?}"
        );
    }
}

#[test]
fn relaxed_runs_relaxed_precision_shaders_judged_as_relaxed() {
    let run = judged(&[
        "--profile",
        "relaxed",
        "--function",
        "OpFAdd,exp",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "2048",
    ]);
    let results = &run.results;
    assert_eq!(results.rows.len(), 2);
    for row in &results.rows {
        assert_eq!(results.cell(row, "profile"), "relaxed");
        // RelaxedPrecision is a decoration, not an OpenCL build option.
        assert_eq!(results.cell(row, "build_options"), "");
    }
    assert_eq!(results.cell(row_of(results, "OpFAdd"), "status"), "pass");
}

#[test]
fn opencl_flags_on_a_vulkan_device_and_vulkan_on_an_opencl_one_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("refused.csv");
    let csv = csv.to_str().unwrap();
    for (flags, wanted) in [
        (
            &["--platform", "vulkan", "--source", "spirv"][..],
            "a Vulkan device takes compute shaders only",
        ),
        (
            &["--platform", "vulkan", "--source", "both"][..],
            "a Vulkan device takes compute shaders only",
        ),
        (
            &["--platform", "0", "--source", "vulkan"][..],
            "names an OpenCL platform",
        ),
        (
            &["--platform", "vulkan", "--kind", "edge"][..],
            "the vulkan path runs ulp units only",
        ),
        (
            &["--platform", "vulkan", "--profile", "embedded"][..],
            "no embedded profile",
        ),
        (
            &["--platform", "vulkan", "--denorms-are-zero"][..],
            "OpenCL build option",
        ),
        (
            &["--platform", "vulkan", "--function", "sincos"][..],
            "has no instruction for sincos",
        ),
    ] {
        let mut args = flags.to_vec();
        args.extend(["--csv", csv]);
        let output = clacc(&args);
        assert_refused(&output, wanted);
        assert_eq!(text(&output.stderr).lines().count(), 1, "{flags:?}");
    }
}

#[test]
fn a_resumed_vulkan_run_runs_only_the_missing_units_and_refuses_an_opencl_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("resume.csv");
    let first = [
        "--function",
        "OpFAdd",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "1024",
    ];
    let output = on_lavapipe(&csv, &first);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let output = on_lavapipe(
        &csv,
        &[
            "--function",
            "OpFAdd",
            "--type",
            "float",
            "--width",
            "1,2",
            "--inputs",
            "1024",
            "--resume",
        ],
    );
    // Another selection's rows are refused as such; the same selection resumes.
    assert_refused(&output, "--resume");
    let mut again = first.to_vec();
    again.push("--resume");
    let output = on_lavapipe(&csv, &again);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("1 units were already in"),
        "{}",
        text(&output.stdout)
    );
    assert_eq!(Results::read(&csv).rows.len(), 1);
    // The same CSV resumed on the Intel runtime's SPIR-V path: rows of another path.
    let output = clacc(&[
        "--platform",
        "Intel",
        "--function",
        "OpFAdd",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "1024",
        "--resume",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_refused(&output, "vulkan");
}

#[test]
fn compare_pairs_lavapipe_with_intel_s_opencl_side_each_judged_by_its_own_table() {
    let unit = [
        "--function",
        "OpFAdd,sqrt",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "2048",
    ];
    let vulkan = judged(&unit);
    let dir = vulkan.dir.path();
    let intel = dir.join("intel.csv");
    let mut args = vec!["--platform", "Intel", "--kind", "ulp"];
    args.extend(unit);
    args.extend(["--csv", intel.to_str().unwrap()]);
    assert_judged(&clacc(&args));
    let table = dir.join("table.csv");
    let output = clacc(&[
        "compare",
        vulkan.csv.to_str().unwrap(),
        intel.to_str().unwrap(),
        "--csv",
        table.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let shown = text(&output.stdout);
    assert!(shown.contains("llvmpipe"), "{shown}");
    assert!(shown.contains("Intel"), "{shown}");
    // One row per unit, the two devices' cells side by side.
    let compared = Results::read(&table);
    assert_eq!(compared.rows.len(), 2, "{shown}");
    let functions: Vec<&str> = compared
        .rows
        .iter()
        .map(|row| compared.cell(row, "function"))
        .collect();
    assert_eq!(functions, ["OpFAdd", "sqrt"]);
}

#[test]
fn certify_runs_the_vulkan_path_and_says_so_in_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("certify.csv");
    let mut args = vec!["certify"];
    args.extend(LAVAPIPE);
    args.extend(["--inputs", "64", "--csv", csv.to_str().unwrap()]);
    let output = clacc(&args);
    let stdout = text(&output.stdout);
    assert_judged(&output);
    assert!(stdout.contains("VERDICT: "), "{stdout}");
    assert!(stdout.contains("vulkan path"), "{stdout}");
    let results = Results::read(&csv);
    assert_vulkan_rows(&results);
    let profiles: std::collections::BTreeSet<&str> = results
        .rows
        .iter()
        .map(|row| results.cell(row, "profile"))
        .collect();
    assert_eq!(
        profiles.into_iter().collect::<Vec<_>>(),
        ["full", "relaxed"]
    );
}

#[test]
fn a_users_compute_shader_runs_in_place_of_clacc_s_and_a_misfit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // clacc's own float OpFAdd shader (its snapshot), assembled as a user would.
    let shader = dir.path().join("my_fadd.spv");
    assemble_file_for(
        &repository().join("kernels/spirv_vulkan/fadd_float_w4.spvasm"),
        &shader,
        "vulkan1.3",
    );
    let kernel = format!("OpFAdd={}", shader.display());
    let run = judged(&[
        "--kernel", &kernel, "--type", "float", "--width", "4", "--inputs", "1024",
    ]);
    assert!(run.output.status.success(), "{}", text(&run.output.stderr));
    assert_eq!(run.results.first("status"), "pass");
    // The same shader for half: its buffers hold floats, so it is refused before anything runs.
    let output = on_lavapipe(
        &dir.path().join("half.csv"),
        &["--kernel", &kernel, "--type", "half", "--width", "4"],
    );
    assert_refused(&output, "does not fit OpFAdd half w4");
}

#[test]
fn plot_draws_each_vulkan_unit_naming_its_function_and_the_vulkan_path() {
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("plots");
    let run = judged(&[
        "--function",
        "sin,pow",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "2048",
        "--plot",
        plots.to_str().unwrap(),
    ]);
    assert!(
        text(&run.output.stdout).contains("2 plots in"),
        "{}",
        text(&run.output.stdout)
    );
    for (file, title) in [
        ("sin_float_w1.svg", "sin float w1"),
        // Two arguments: a heat map over the exponents.
        ("pow_float_w1.svg", "pow float w1"),
    ] {
        let svg = std::fs::read_to_string(plots.join(file))
            .unwrap_or_else(|e| panic!("{file} not written: {e}"));
        assert!(svg.starts_with("<svg"), "{file}");
        assert!(svg.contains(title), "{file} does not name {title}");
        assert!(svg.contains("vulkan kernels, full profile"), "{file}");
    }
    // sin's cell is an absolute bound inside [-pi, pi]: the title gives the largest distance.
    let sin = std::fs::read_to_string(plots.join("sin_float_w1.svg")).unwrap();
    assert!(sin.contains("max abs "), "{sin}");
}
