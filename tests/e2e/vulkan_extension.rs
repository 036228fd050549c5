//! End-to-end tests of `--kind extension` on the vulkan path (#45 item 4), on Mesa lavapipe
//! (`.deps/lavapipe`, installed by scripts/setup), run as a user runs them. No test asserts a
//! vendor's verdict as a requirement: every row has a verdict and a reason, the checks lavapipe
//! offers what they need for run, and those it cannot run say why.

mod common;
use common::{assert_judged, assert_refused, clacc, on_lavapipe, text, Results};

use std::collections::HashMap;
use std::path::Path;

/// Runs `clacc --platform vulkan --device llvmpipe --source vulkan --kind extension` with
/// `flags`, writing `csv`.
fn extension_run(csv: &Path, flags: &[&str]) -> std::process::Output {
    let mut args = vec!["--source", "vulkan", "--kind", "extension"];
    args.extend(flags);
    on_lavapipe(csv, &args)
}

fn rows_of(csv: &Path) -> Vec<HashMap<String, String>> {
    Results::read(csv).maps()
}

#[test]
fn every_check_has_a_row_with_a_verdict_and_a_reason_on_lavapipe() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("extension.csv");
    let junit = dir.path().join("extension.xml");
    let output = extension_run(&csv, &["--junit", junit.to_str().unwrap()]);
    assert_judged(&output);
    let stderr = text(&output.stderr);
    let rows = rows_of(&csv);
    // 38 float8 checks, 7 float_controls2 ones on each of float, half and double, the fence:
    // the OpenCL side's list.
    assert_eq!(rows.len(), 60, "{stderr}");
    for row in &rows {
        assert_eq!(row["kind"], "extension", "{row:?}");
        assert_eq!(row["path"], "vulkan", "{row:?}");
        assert_eq!(row["width"], "1", "{row:?}");
        assert!(
            ["pass", "fail", "skip"].contains(&row["status"].as_str()),
            "no verdict: {row:?}"
        );
        assert!(!row["note"].is_empty(), "no reason: {row:?}");
    }
    // lavapipe has VK_KHR_shader_float_controls2, shaderFloat16 with 16-bit storage,
    // shaderFloat64 and SignedZeroInfNanPreserve for all three widths: every float_controls2
    // check runs its 126 pairs through 5 instructions, each judged or counted undefined where
    // its flag frees the result, 7 checks per type.
    let fc2: Vec<&HashMap<String, String>> = rows
        .iter()
        .filter(|row| row["function"].starts_with("float_controls2_"))
        .collect();
    assert_eq!(fc2.len(), 21);
    for (element, prefix) in [
        ("float", "float_controls2_"),
        ("half", "float_controls2_half_"),
        ("double", "float_controls2_double_"),
    ] {
        let of_type: Vec<&&HashMap<String, String>> =
            fc2.iter().filter(|row| row["type"] == element).collect();
        assert_eq!(of_type.len(), 7, "{element}");
        for row in &of_type {
            assert!(row["function"].starts_with(prefix), "{row:?}");
            assert_ne!(row["status"], "skip", "{row:?}");
            let judged: u64 = row["inputs"].parse().unwrap();
            let undefined: u64 = row["undefined"].parse().unwrap();
            assert_eq!(judged + undefined, 126 * 5, "{row:?}");
            assert!(row["note"].contains("126 input pairs"), "{row:?}");
            if row["status"] == "fail" {
                assert!(row["note"].contains("first failure in Op"), "{row:?}");
            }
        }
        // No flag, no freedom: every result of the IEEE check is judged.
        let ieee = of_type
            .iter()
            .find(|row| row["function"] == format!("{prefix}ieee"))
            .unwrap();
        assert_eq!(ieee["undefined"], "0", "{ieee:?}");
    }
    // No float8 on lavapipe; what Vulkan cannot express is said so on any device.
    for row in rows
        .iter()
        .filter(|row| row["function"].starts_with("float8_"))
    {
        assert_eq!(row["status"], "skip", "{row:?}");
        let reason = if row["function"].ends_with("_sat")
            && ["_to_char_sat", "_to_int_sat"]
                .iter()
                .any(|tail| row["function"].ends_with(tail))
        {
            "SaturatedConversion is a Kernel decoration"
        } else {
            "VK_EXT_shader_float8"
        };
        assert!(row["note"].contains(reason), "{row:?}");
    }
    let fence = rows
        .iter()
        .find(|row| row["function"] == "arithmetic_fence")
        .unwrap();
    assert_eq!(fence["status"], "skip");
    assert!(
        fence["note"].contains("SPV_EXT_arithmetic_fence"),
        "{fence:?}"
    );
    // The summary and the JUnit report carry the same rows.
    assert!(stderr.contains("vulkan kernels"), "{stderr}");
    let summary = text(&output.stdout);
    assert!(summary.contains("float_controls2_ieee"), "{summary}");
    let junit = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), 60, "{junit}");
}

#[test]
fn one_check_runs_by_its_name_and_its_inputs_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("one.csv");
    // A reproduce line's shape: the unit's name and its (x, y) case.
    let output = extension_run(
        &csv,
        &[
            "--function",
            "float_controls2_nsz_default",
            "--input",
            "-0x0p+0,0x1p+0",
        ],
    );
    assert_judged(&output);
    let rows = rows_of(&csv);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["function"], "float_controls2_nsz_default");
    // One pair through five instructions.
    assert_eq!(rows[0]["inputs"], "5", "{:?}", rows[0]);
    assert!(rows[0]["note"].contains("1 input pairs"), "{:?}", rows[0]);
}

#[test]
fn a_half_check_runs_by_its_name_and_takes_half_values() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("half.csv");
    // The largest half and 4: their product overflows in half, which NotInf frees.
    let output = extension_run(
        &csv,
        &[
            "--function",
            "float_controls2_half_notinf_default",
            "--input",
            "0x1.ffcp+15,0x1p+2",
        ],
    );
    assert_judged(&output);
    let rows = rows_of(&csv);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["type"], "half");
    // OpFMul's result is infinite: undefined; the other four are judged.
    assert_eq!(rows[0]["inputs"], "4", "{:?}", rows[0]);
    assert_eq!(rows[0]["undefined"], "1", "{:?}", rows[0]);
}

#[test]
fn kinds_and_names_the_vulkan_path_has_not_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("refused.csv");
    for (flags, wanted) in [
        (
            &["--kind", "conversion"][..],
            "edge cases and conversions are OpenCL's",
        ),
        (
            &[
                "--kind",
                "extension",
                "--function",
                "convert_double_to_half",
            ][..],
            "the extension checks, and it is neither",
        ),
        (
            &["--function", "float_controls2_ieee"][..],
            "with --kind extension",
        ),
    ] {
        let output = on_lavapipe(&csv, flags);
        assert_refused(&output, wanted);
        assert_eq!(text(&output.stderr).lines().count(), 1, "{flags:?}");
    }
}

/// The OpenCL side is unchanged by the vulkan path's checks: rusticl still runs its
/// float_controls2 checks (float, half, double) through the OpenCL SPIR-V path, with `path`
/// `spirv`.
#[test]
fn rusticl_s_extension_rows_stay_on_the_opencl_path() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rusticl.csv");
    let output = clacc(&[
        "--platform",
        "rusticl",
        "--kind",
        "extension",
        "--function",
        "float_controls2_ieee,float_controls2_half_ieee,float_controls2_double_ieee,arithmetic_fence",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_judged(&output);
    let rows = rows_of(&csv);
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row["path"], "spirv", "{row:?}");
    }
    for name in [
        "float_controls2_ieee",
        "float_controls2_half_ieee",
        "float_controls2_double_ieee",
    ] {
        let ieee = rows.iter().find(|row| row["function"] == name).unwrap();
        assert_ne!(ieee["status"], "skip", "{ieee:?}");
    }
}
