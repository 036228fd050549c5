//! End-to-end tests on a second, independent SPIR-V device: Mesa rusticl on llvmpipe (math from
//! libclc), which scripts/setup-rusticl installs into .deps/rusticl and clacc finds beside the
//! Intel runtime. Its float has no denormals, so these runs exercise the flush-to-zero rules on
//! a real device. No test asserts which libclc built-ins are accurate (that is a finding, in
//! docs/devices/mesa-rusticl.md); they assert coverage, sane verdicts and CSVs, and that a module of known behaviour
//! gets the same verdict on both devices.

mod common;
use common::{assemble_text, clacc, text, Results};

use std::collections::HashMap;

/// The `clacc devices` block of the first platform whose name contains `platform`, and its index.
fn device_block(listing: &str, platform: &str) -> (usize, String) {
    listing
        .split("\n[")
        .enumerate()
        .find(|(_, block)| block.lines().next().unwrap_or("").contains(platform))
        .map(|(index, block)| (index, block.to_string()))
        .unwrap_or_else(|| panic!("no {platform} platform listed:\n{listing}"))
}

#[test]
fn devices_lists_rusticl_with_spirv_beside_intel_which_stays_the_default() {
    let output = clacc(&["devices"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let listing = text(&output.stdout);
    let (intel_at, intel) = device_block(&listing, "Intel(R) OpenCL");
    let (rusticl_at, rusticl) = device_block(&listing, "rusticl");
    assert!(intel_at < rusticl_at, "Intel's ICD comes first:\n{listing}");
    assert!(intel.contains("usable         yes (default)"), "{intel}");
    assert!(rusticl.contains("llvmpipe"), "{rusticl}");
    assert!(rusticl.contains("SPIR-V_1.0"), "{rusticl}");
    assert!(
        rusticl.contains("IL entry point clCreateProgramWithIL\n"),
        "{rusticl}"
    );
    assert!(
        rusticl.lines().any(|l| l.trim() == "usable         yes"),
        "{rusticl}"
    );
    // RUSTICL_FEATURES=fp64,fp16 makes double and half visible; float reports no denormals.
    let line = |name: &str| {
        rusticl
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} line:\n{rusticl}"))
            .to_string()
    };
    assert!(!line("float ").contains("denorm"), "{rusticl}");
    assert!(line("double ").contains("denorm"), "{rusticl}");
    assert!(!line("half ").contains("not supported"), "{rusticl}");
}

#[test]
fn sin_pow_exp_on_rusticl_give_sane_verdicts_with_the_ftz_notes() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("rusticl.csv");
    let output = clacc(&[
        "--platform",
        "rusticl",
        "--kind",
        "ulp",
        "--function",
        "sin,pow,exp",
        "--type",
        "half,float,double",
        "--width",
        "1,3,8",
        "--inputs",
        "1500",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    let summary = text(&output.stdout);
    // 0 when every unit passed, 1 when one failed: what libclc gets wrong is not asserted.
    assert!(matches!(output.status.code(), Some(0 | 1)), "{stderr}");
    let rows = Results::read(&csv_path).maps();
    let mut units: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", r["function"], r["type"], r["width"]))
        .collect();
    units.sort();
    let mut expected = Vec::new();
    for function in ["exp", "pow", "sin"] {
        for element in ["double", "float", "half"] {
            for width in [1, 3, 8] {
                expected.push(format!("{function} {element} {width}"));
            }
        }
    }
    expected.sort();
    assert_eq!(units, expected, "every unit has exactly one row");
    for row in &rows {
        let unit = format!("{} {} {}", row["function"], row["type"], row["width"]);
        assert!(
            row["device"].starts_with("rusticl / llvmpipe"),
            "{unit}: {row:?}"
        );
        assert_eq!(row["kind"], "ulp", "{unit}");
        assert_eq!(row["profile"], "full", "{unit}");
        let status = row["status"].as_str();
        assert!(
            matches!(status, "pass" | "fail" | "skip"),
            "{unit}: {row:?}"
        );
        if status == "skip" {
            continue;
        }
        assert_eq!(row["inputs"], "1500", "{unit}");
        let failures: u64 = row["failures"].parse().unwrap();
        assert_eq!(status == "fail", failures > 0, "{unit}: {row:?}");
        assert!(
            !row["worst_input"].is_empty() && !row["worst_device"].is_empty(),
            "{unit}"
        );
        let bound: f64 = row["bound_ulp"].parse().unwrap();
        let max_ulp: f64 = match row["max_ulp"].as_str() {
            "inf" => f64::INFINITY,
            value => value.parse().unwrap(),
        };
        if status == "pass" {
            assert!(max_ulp <= bound, "{unit}: a pass beyond its bound: {row:?}");
        } else {
            assert!(
                max_ulp > bound,
                "{unit}: a failure within its bound: {row:?}"
            );
            assert!(
                summary.contains(&format!(
                    "{} {} w{}",
                    row["function"], row["type"], row["width"]
                )),
                "{unit}: the failure is in the summary:\n{summary}"
            );
        }
        // Float and half have no denormals on llvmpipe, double has: the note says where the
        // FTZ rules judged.
        let ftz_note = format!(
            "device flushes {} subnormals: FTZ rules applied",
            row["type"]
        );
        assert_eq!(
            row["note"].contains(&ftz_note),
            row["type"] != "double",
            "{unit}: {row:?}"
        );
    }
}

/// sin(x) = x as a module: data movement only, so its results are the same bits on every
/// device, and so must be clacc's verdict on it.
const IDENTITY_SIN: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %clacc_kernel "clacc_kernel" %gid_var
               OpDecorate %gid_var BuiltIn GlobalInvocationId
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer Input %v3ulong
    %gid_var = OpVariable %ptr_in Input
      %float = OpTypeFloat 32
  %ptr_float = OpTypePointer CrossWorkgroup %float
       %void = OpTypeVoid
 %kernel_fn = OpTypeFunction %void %ptr_float %ptr_float
%clacc_kernel = OpFunction %void None %kernel_fn
        %in0 = OpFunctionParameter %ptr_float
       %out0 = OpFunctionParameter %ptr_float
      %entry = OpLabel
        %gid = OpLoad %v3ulong %gid_var
          %g = OpCompositeExtract %ulong %gid 0
     %in_ptr = OpInBoundsPtrAccessChain %ptr_float %in0 %g
          %x = OpLoad %float %in_ptr Aligned 4
    %out_ptr = OpInBoundsPtrAccessChain %ptr_float %out0 %g
               OpStore %out_ptr %x Aligned 4
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn a_module_of_known_behaviour_gets_the_same_verdict_on_both_devices() {
    let dir = tempfile::tempdir().unwrap();
    let module = assemble_text(dir.path(), "identity_sin", IDENTITY_SIN);
    let kernel = format!("sin={}", module.display());
    let mut results = Vec::new();
    for platform in ["Intel", "rusticl"] {
        let csv_path = dir.path().join(format!("{platform}.csv"));
        let output = clacc(&[
            "--platform",
            platform,
            "--kind",
            "ulp",
            "--kernel",
            &kernel,
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "3000",
            "--csv",
            csv_path.to_str().unwrap(),
        ]);
        // sin(x) = x is far off for large x: a failing unit, exit status 1, on both.
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let rows = Results::read(&csv_path).maps();
        assert_eq!(rows.len(), 1);
        results.push(rows.into_iter().next().unwrap());
    }
    let (intel, rusticl) = (&results[0], &results[1]);
    assert!(intel["device"].starts_with("Intel"), "{intel:?}");
    assert!(rusticl["device"].starts_with("rusticl"), "{rusticl:?}");
    for column in [
        "status",
        "inputs",
        "failures",
        "max_ulp",
        "worst_input",
        "worst_device",
        "worst_reference",
    ] {
        assert_eq!(intel[column], rusticl[column], "column {column}");
    }
    assert_eq!(intel["status"], "fail");
}

#[test]
fn compare_sets_the_devices_rows_side_by_side_as_they_were_given() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for platform in ["Intel", "rusticl"] {
        let csv_path = dir.path().join(format!("{platform}.csv"));
        let output = clacc(&[
            "--platform",
            platform,
            "--kind",
            "ulp",
            "--function",
            "sin,exp",
            "--type",
            "float,double",
            "--width",
            "1,4",
            "--inputs",
            "1000",
            "--csv",
            csv_path.to_str().unwrap(),
        ]);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{}",
            text(&output.stderr)
        );
        inputs.push(csv_path);
    }
    let table = dir.path().join("compare.csv");
    let svg = dir.path().join("compare.svg");
    let output = clacc(&[
        "compare",
        inputs[0].to_str().unwrap(),
        inputs[1].to_str().unwrap(),
        "--csv",
        table.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let terminal = text(&output.stdout);
    let compared = Results::read(&table).maps();
    assert_eq!(compared.len(), 8, "one row per unit:\n{terminal}");
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg") && svg_text.contains("rusticl / llvmpipe"));
    let mut devices = Vec::new();
    let mut errors: Vec<HashMap<String, f64>> = Vec::new();
    for (input, name) in inputs.iter().zip(["Intel", "rusticl"]) {
        let rows = Results::read(input).maps();
        let device = rows[0]["device"].clone();
        assert!(device.starts_with(name));
        assert!(
            terminal.contains(&device),
            "the legend names {device}:\n{terminal}"
        );
        let mut device_errors = HashMap::new();
        for row in &rows {
            let key = format!("{} {} {}", row["function"], row["type"], row["width"]);
            let line = compared
                .iter()
                .find(|c| format!("{} {} {}", c["function"], c["type"], c["width"]) == key)
                .unwrap_or_else(|| panic!("{key} is missing from the comparison"));
            assert_eq!(line[&format!("max_ulp {device}")], row["max_ulp"], "{key}");
            assert_eq!(line[&format!("status {device}")], row["status"], "{key}");
            assert_eq!(line["bound_ulp"], row["bound_ulp"], "{key}");
            let mark = &line[&format!("mark {device}")];
            assert_eq!(
                mark.contains("fail"),
                row["status"] == "fail",
                "{key}: {mark}"
            );
            let error = match row["max_ulp"].as_str() {
                "inf" => f64::INFINITY,
                value => value.parse().unwrap(),
            };
            device_errors.insert(key, error);
        }
        devices.push(device);
        errors.push(device_errors);
    }
    // With two devices, DIFFERS marks the one more than the default 1 ulp above the other.
    for line in &compared {
        let key = format!("{} {} {}", line["function"], line["type"], line["width"]);
        for (this, other) in [(0, 1), (1, 0)] {
            let (mine, theirs) = (errors[this][&key], errors[other][&key]);
            let expected = if mine.is_infinite() || theirs.is_infinite() {
                mine.is_infinite() && theirs.is_finite()
            } else {
                mine - theirs > 1.0
            };
            let mark = &line[&format!("mark {}", devices[this])];
            assert_eq!(
                mark.contains("differs"),
                expected,
                "{key} {}: {mark}",
                devices[this]
            );
        }
    }
}

/// rusticl lacks cl_khr_spirv_queries, but isolated probe builds (as `clacc devices` makes)
/// find that it accepts SPV_KHR_float_controls2: a run checks float_controls2 on float, half
/// and double there instead of skipping it as "support unknown".
#[test]
fn float_controls2_checks_run_on_rusticl_through_isolated_probe_builds() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("fc2.csv");
    let output = clacc(&[
        "--platform",
        "rusticl",
        "--kind",
        "extension",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let code = output.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{code:?} {}",
        text(&output.stderr)
    );
    let rows = Results::read(&csv).maps();
    let fc2: Vec<&HashMap<String, String>> = rows
        .iter()
        .filter(|row| row["function"].starts_with("float_controls2_"))
        .collect();
    assert_eq!(fc2.len(), 21, "every float_controls2 check has a row");
    // rusticl has cl_khr_fp16 and cl_khr_fp64: the 7 checks of each type run.
    for element in ["float", "half", "double"] {
        let of_type: Vec<&&HashMap<String, String>> =
            fc2.iter().filter(|row| row["type"] == element).collect();
        assert_eq!(of_type.len(), 7, "{element}");
        for row in of_type {
            assert!(!row["note"].contains("support unknown"), "{row:?}");
            assert_ne!(row["status"], "skip", "{row:?}");
            assert!(row["inputs"].parse::<u64>().unwrap() > 0, "{row:?}");
            assert!(row["note"].contains("126 input pairs"), "{row:?}");
        }
    }
}
