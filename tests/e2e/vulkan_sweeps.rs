//! End-to-end tests of the sweeps and the campaign's safety nets on the vulkan path (Mesa
//! lavapipe, `.deps/lavapipe`): an exhaustive run split into shards merges into exactly the
//! unsharded CSV and its JUnit; a unit whose shader never finishes is stopped by
//! `--unit-timeout` in its worker and the next unit runs on a reopened device; rows judged by
//! an absolute bound (sin) report it as OpenCL's do. Lavapipe's numbers are not asserted.

mod common;
use common::{assemble_file_for, assert_judged, merge, own_kernel_unit, repository, text, Results};

use std::path::Path;

/// Runs clacc on lavapipe's ULP units with `flags`, writing `csv`, which must end judged;
/// returns its exit code.
fn ulp_on_lavapipe(csv: &Path, flags: &[&str]) -> Option<i32> {
    let mut args = vec!["--kind", "ulp"];
    args.extend(flags);
    let output = common::on_lavapipe(csv, &args);
    assert_judged(&output);
    output.status.code()
}

/// Every half for exp at widths 1 and 3, whole and in two shards: the merged shards are the
/// whole run's CSV byte for byte, every row saw all 2^16 halves, and the JUnit holds a testcase
/// per row.
#[test]
fn an_exhaustive_vulkan_run_in_shards_merges_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = [
        "--function",
        "exp",
        "--type",
        "half",
        "--width",
        "1,3",
        "--exhaustive",
    ];
    let whole = dir.path().join("whole.csv");
    let junit = dir.path().join("whole.xml");
    let mut flags = sweep.to_vec();
    flags.extend(["--junit", junit.to_str().unwrap()]);
    ulp_on_lavapipe(&whole, &flags);
    let mut shards = Vec::new();
    for index in ["0/2", "1/2"] {
        let csv = dir.path().join(format!("shard{}.csv", &index[..1]));
        let mut flags = sweep.to_vec();
        flags.extend(["--shard", index]);
        ulp_on_lavapipe(&csv, &flags);
        shards.push(csv);
    }
    assert_ne!(
        std::fs::read_to_string(&shards[0]).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    let merged = dir.path().join("merged.csv");
    let output = merge(&[&shards[1], &shards[0]], &merged);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    let results = Results::read(&whole);
    assert_eq!(results.rows.len(), 2);
    for row in &results.rows {
        assert_eq!(results.cell(row, "path"), "vulkan");
        assert!(
            results.cell(row, "options").contains("exhaustive=yes"),
            "{row:?}"
        );
        let judged: u64 = results.cell(row, "inputs").parse().unwrap();
        assert!(judged > 60_000 && judged <= 65_536, "{row:?}");
        assert!(
            ["pass", "fail"].contains(&results.cell(row, "status")),
            "{row:?}"
        );
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase").count(), 2, "{xml}");
}

/// A shader that never finishes is stopped by `--unit-timeout` (its worker is killed) and
/// recorded as `timeout`; the next unit runs on a freshly opened device and is judged.
#[test]
fn a_hung_vulkan_unit_times_out_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let shader = dir.path().join("hanging_exp.spv");
    assemble_file_for(
        &repository().join("kernels/examples/hanging_exp_vulkan.spvasm"),
        &shader,
        "vulkan1.3",
    );
    let kernel = format!("exp={}", shader.display());
    let csv = dir.path().join("hung.csv");
    let mut flags = own_kernel_unit("exp,sin", &kernel);
    flags.extend(["--unit-timeout", "5"]);
    let output = common::on_lavapipe(&csv, &flags);
    // A unit that timed out makes the run's status 1.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let rows = Results::read(&csv).maps();
    let exp = rows.iter().find(|row| row["function"] == "exp").unwrap();
    assert_eq!(exp["status"], "timeout", "{exp:?}");
    assert!(exp["note"].contains("--unit-timeout 5s"), "{exp:?}");
    let sin = rows.iter().find(|row| row["function"] == "sin").unwrap();
    assert!(
        ["pass", "fail"].contains(&sin["status"].as_str()),
        "{sin:?}"
    );
}

/// sin's Vulkan cell bounds the absolute error inside [-pi, pi] and nothing in ulp: no ulp
/// figure, the note leads with the largest absolute error and its bound, and the worst case
/// is an input inside the range (a NaN judged correct once stood there, with max_ulp 0).
#[test]
fn a_vulkan_row_judged_by_an_absolute_bound_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sin.csv");
    ulp_on_lavapipe(
        &csv,
        &[
            "--function",
            "sin",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "2000",
        ],
    );
    let rows = Results::read(&csv).maps();
    let sin = &rows[0];
    assert_eq!(
        (sin["max_ulp"].as_str(), sin["bound_ulp"].as_str()),
        ("", ""),
        "{sin:?}"
    );
    assert!(
        sin["note"].starts_with("max abs error ")
            && sin["note"].contains("(bound 2^-11 = 4.88e-4 if x in [-pi,pi])"),
        "{sin:?}"
    );
    let worst = clacc::num::hexfloat::parse(&sin["worst_input"]).unwrap();
    assert!(worst.abs() <= std::f64::consts::PI, "{sin:?}");
}
