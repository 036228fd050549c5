//! End-to-end tests on a third, independent implementation: Debian's PoCL 3.1 on the CPU (its
//! own SLEEF-based math library), which scripts/setup installs as the system's ICD. It takes no
//! SPIR-V, so clacc reaches it through the OpenCL C path alone. No test asserts which of its
//! built-ins are accurate (that is a finding, in docs/devices/pocl.md); they assert that it is
//! listed and usable through OpenCL C, that every planned unit gets a sane row naming the
//! path, and that a refusal of SPIR-V names the way that works.

mod common;
use common::{clacc, text, Results, POCL};

use std::collections::BTreeSet;

/// PoCL's block of `clacc devices`.
fn pocl_block(listing: &str) -> String {
    listing
        .split("\n[")
        .find(|block| {
            block
                .lines()
                .next()
                .unwrap_or("")
                .contains("Portable Computing Language")
        })
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no PoCL platform listed:\n{listing}"))
}

#[test]
fn devices_lists_pocl_without_spirv_and_usable_through_opencl_c() {
    let output = clacc(&["devices"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let pocl = pocl_block(&text(&output.stdout));
    assert!(pocl.contains("no SPIR-V"), "{pocl}");
    let usable = pocl
        .lines()
        .find(|line| line.trim_start().starts_with("usable"))
        .unwrap_or_else(|| panic!("no usable line:\n{pocl}"));
    assert!(usable.contains("yes"), "{pocl}");
    assert!(usable.contains("OpenCL C"), "{pocl}");
    // Double is there, half is not.
    let line = |name: &str| {
        pocl.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} line:\n{pocl}"))
            .to_string()
    };
    assert!(line("double ").contains("denorm"), "{pocl}");
    assert!(line("half ").contains("not supported"), "{pocl}");
}

#[test]
fn every_kind_on_pocl_gives_a_sane_row_per_planned_unit_on_the_opencl_c_path() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("pocl.csv");
    let mut args: Vec<&str> = POCL.to_vec();
    args.extend([
        "--kind",
        "ulp,edge,conversion",
        "--function",
        "sin,pow,exp,fma,remquo,convert_float_to_int,convert_double_to_float_rtz",
        "--type",
        "float,double",
        "--width",
        "1,3,8",
        "--inputs",
        "1500",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    let output = clacc(&args);
    let stderr = text(&output.stderr);
    // 0 when every unit passed, 1 when one failed: what PoCL gets wrong is not asserted.
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "exit {:?}: {stderr}",
        output.status.code()
    );
    let results = Results::read(&csv_path);
    let rows = results.maps();
    let planned: usize = rows[0]["planned_units"].parse().unwrap();
    assert_eq!(rows.len(), planned, "every planned unit has its row");
    let mut kinds = BTreeSet::new();
    for row in &rows {
        let unit = format!(
            "{} {} {} w{}",
            row["kind"], row["function"], row["type"], row["width"]
        );
        assert_eq!(row["path"], "opencl-c", "{unit}");
        assert!(
            row["device"].contains("Portable Computing Language"),
            "{unit}: {}",
            row["device"]
        );
        // A verdict for each: no build error, crash or timeout on a device that takes the
        // OpenCL C of every one of these units.
        assert!(
            matches!(row["status"].as_str(), "pass" | "fail"),
            "{unit}: {} {}",
            row["status"],
            row["note"]
        );
        kinds.insert(row["kind"].clone());
    }
    assert_eq!(
        kinds,
        ["conversion", "edge", "ulp"]
            .into_iter()
            .map(String::from)
            .collect()
    );
    // The summary names the device and the rows' count.
    let summary = text(&output.stdout);
    assert!(summary.contains("Portable Computing Language"), "{summary}");
    assert!(summary.contains(&format!("{planned} units: ")), "{summary}");
}

#[test]
fn spirv_on_pocl_is_refused_in_one_line_naming_opencl_c() {
    let output = clacc(&[
        "--platform",
        "Portable",
        "--source",
        "spirv",
        "--function",
        "sin",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("opencl-c"), "{stderr}");
}
