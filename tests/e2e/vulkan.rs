//! End-to-end tests of the vulkan path on Mesa lavapipe (`.deps/lavapipe`, installed by
//! scripts/setup): the binary run as a user runs it, compute shaders judged by the Vulkan
//! environment's precision tables. No test asserts a vendor's numeric result (lavapipe's
//! findings are in docs/devices/lavapipe.md); they assert structure, verdict kinds and facts
//! every conforming device meets: a correctly rounded fadd passes. (`clacc devices` is
//! tests/e2e/vulkan_devices.rs's.)

mod common;
use common::{assert_refused, clacc, repository, text, Results};

use std::path::Path;

/// The flags that pick lavapipe.
const LAVAPIPE: [&str; 4] = ["--platform", "vulkan", "--device", "llvmpipe"];

/// Runs clacc on lavapipe with `flags`, writing `csv`.
fn on_lavapipe(csv: &Path, flags: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = LAVAPIPE.to_vec();
    args.extend(flags);
    args.extend(["--csv", csv.to_str().unwrap()]);
    clacc(&args)
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
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("lavapipe.csv");
    let output = on_lavapipe(
        &csv,
        &[
            "--function",
            "OpFAdd,sqrt,sin",
            "--width",
            "1,2,3,4",
            "--inputs",
            "2048",
        ],
    );
    let stderr = text(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    assert!(stderr.contains("vulkan kernels"), "{stderr}");
    let results = Results::read(&csv);
    // 3 functions, 3 types, 4 widths.
    assert_eq!(results.rows.len(), 36);
    assert_vulkan_rows(&results);
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
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("relaxed.csv");
    let output = on_lavapipe(
        &csv,
        &[
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
        ],
    );
    let stderr = text(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    let results = Results::read(&csv);
    assert_eq!(results.rows.len(), 2);
    assert_vulkan_rows(&results);
    for row in &results.rows {
        assert_eq!(results.cell(row, "profile"), "relaxed");
        // RelaxedPrecision is a decoration, not an OpenCL build option.
        assert_eq!(results.cell(row, "build_options"), "");
    }
    let fadd = results
        .rows
        .iter()
        .find(|row| results.cell(row, "function") == "OpFAdd")
        .unwrap();
    assert_eq!(results.cell(fadd, "status"), "pass");
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
    let dir = tempfile::tempdir().unwrap();
    let vulkan = dir.path().join("vulkan.csv");
    let intel = dir.path().join("intel.csv");
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
    let output = on_lavapipe(&vulkan, &unit);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        text(&output.stderr)
    );
    let mut args = vec!["--platform", "Intel", "--kind", "ulp"];
    args.extend(unit);
    args.extend(["--csv", intel.to_str().unwrap()]);
    let output = clacc(&args);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        text(&output.stderr)
    );
    let table = dir.path().join("table.csv");
    let output = clacc(&[
        "compare",
        vulkan.to_str().unwrap(),
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
    let output = clacc(&[
        "certify",
        "--platform",
        "vulkan",
        "--device",
        "llvmpipe",
        "--inputs",
        "64",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        text(&output.stderr)
    );
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
    let output = std::process::Command::new("spirv-as")
        .args(["--target-env", "vulkan1.3"])
        .arg(repository().join("kernels/spirv_vulkan/fadd_float_w4.spvasm"))
        .arg("-o")
        .arg(&shader)
        .output()
        .expect("spirv-as is installed by scripts/setup");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let kernel = format!("OpFAdd={}", shader.display());
    let csv = dir.path().join("user.csv");
    let output = on_lavapipe(
        &csv,
        &[
            "--kernel", &kernel, "--type", "float", "--width", "4", "--inputs", "1024",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    assert_vulkan_rows(&results);
    assert_eq!(results.first("status"), "pass");
    // The same shader for half: its buffers hold floats, so it is refused before anything runs.
    let output = on_lavapipe(
        &dir.path().join("half.csv"),
        &["--kernel", &kernel, "--type", "half", "--width", "4"],
    );
    assert_refused(&output, "does not fit OpFAdd half w4");
}
