//! End-to-end tests: the clacc binary on the real devices (the Intel OpenCL CPU runtime that
//! scripts/setup installs, and Debian's PoCL, which has no SPIR-V support).

mod common;
use common::{clacc, text, Results};

use std::process::Command;

#[test]
fn devices_lists_the_intel_device_with_its_spirv_versions() {
    let output = clacc(&["devices"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let text = text(&output.stdout);
    let intel = text
        .split("\n[")
        .find(|block| block.contains("Intel(R) OpenCL"))
        .unwrap_or_else(|| panic!("no Intel platform listed:\n{text}"));
    assert!(intel.contains("SPIR-V_1.0"), "{intel}");
    assert!(intel.contains("usable         yes"), "{intel}");
    assert!(intel.contains("address bits   64"), "{intel}");
    let pocl = text
        .split("\n[")
        .find(|block| block.contains("Portable Computing Language"))
        .unwrap_or_else(|| panic!("no PoCL platform listed:\n{text}"));
    assert!(pocl.contains("no SPIR-V"), "{pocl}");
}

#[test]
fn one_function_run_passes_and_writes_the_documented_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("out.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "sin",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "5000",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    let results = Results::read(&csv_path);
    let rows = &results.rows;
    let required = "function,type,width,profile,inputs,failures,max_ulp,bound_ulp,worst_input,worst_device,worst_reference,status,note";
    assert_eq!(results.header[..13].join(","), required);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(&row[results.column("function")], "sin");
    assert_eq!(&row[results.column("type")], "float");
    assert_eq!(&row[results.column("profile")], "full");
    assert_eq!(&row[results.column("status")], "pass");
    assert!(row[results.column("inputs")].parse::<u64>().unwrap() >= 5000);
    let max_ulp: f64 = row[results.column("max_ulp")].parse().unwrap();
    let bound: f64 = row[results.column("bound_ulp")].parse().unwrap();
    assert_eq!(bound, 4.0, "Table 3, sin, Float32");
    assert!(max_ulp > 0.0 && max_ulp <= bound, "{max_ulp}");
    // The worst case round-trips: its hex input parses back to a float.
    let worst = clacc::num::hexfloat::parse(&row[results.column("worst_input")]).unwrap();
    assert_eq!(f64::from(worst as f32), worst);
    assert!(
        text(&output.stdout).contains("1 units: 1 passed"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn same_seed_gives_the_same_results_and_another_seed_other_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, seed: &str| {
        let path = dir.path().join(name);
        let output = clacc(&[
            "--kind",
            "ulp",
            "--function",
            "exp,pow",
            "--type",
            "float",
            "--width",
            "4",
            "--inputs",
            "3000",
            "--seed",
            seed,
            "--csv",
            path.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        std::fs::read_to_string(path).unwrap()
    };
    let first = run("a.csv", "0x1234");
    assert_eq!(first, run("b.csv", "0x1234"));
    assert_ne!(first, run("c.csv", "99"));
    assert!(first.contains(",0x1234,"));
}

#[test]
fn spirv_on_pocl_is_refused_in_one_line_naming_the_opencl_c_path() {
    // PoCL takes no SPIR-V: its runs go through OpenCL C (tests/e2e/paths.rs), and SPIR-V is
    // refused before anything runs.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args([
            "--platform",
            "Portable",
            "--source",
            "spirv",
            "--function",
            "sin",
        ])
        .env("OCL_ICD_FILENAMES", "libpocl.so.2")
        .env_remove("CLACC_REEXECUTED")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output.stderr);
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(message.contains("takes no SPIR-V"), "{message}");
    assert!(message.contains("run with --source opencl-c"), "{message}");
}

#[test]
fn unknown_names_are_usage_errors_that_list_what_is_known() {
    let output = clacc(&["--function", "sine"]);
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output.stderr);
    assert!(message.contains("unknown function `sine`"), "{message}");
    assert!(
        message.contains("sinpi") && message.contains("OpFAdd"),
        "{message}"
    );

    let output = clacc(&["--function", "sin", "--type", "quad"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown type `quad`"));

    let output = clacc(&["--function", "sin", "--width", "5"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown width `5`"));

    // The worker that looked for it says nothing itself: one line, the parent's.
    let output = clacc(&["--platform", "NoSuchVendor"]);
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output.stderr);
    assert!(message.contains("no platform matches `NoSuchVendor`"));
    assert_eq!(message.lines().count(), 1, "{message}");

    let output = clacc(&["--profile", "quantum", "--function", "sin"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown profile `quantum`"));

    let output = clacc(&["--kind", "vibes", "--function", "sin"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unknown --kind `vibes`"));

    let output = clacc(&["--no-such-flag"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn emitted_kernels_are_valid_spirv_and_match_what_runs() {
    let dir = tempfile::tempdir().unwrap();
    let output = clacc(&[
        "kernels",
        "--emit",
        dir.path().to_str().unwrap(),
        "--function",
        "sin,pow,fma,OpFAdd",
        "--type",
        "float,half,double",
        "--width",
        "1,3,16",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut modules = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "spv") {
            modules += 1;
            assert!(path.with_extension("spvasm").is_file());
            let half = path.to_str().unwrap().contains("_half_");
            let validation = Command::new("spirv-val")
                .args(["--target-env", if half { "spv1.0" } else { "opencl2.2" }])
                .arg(&path)
                .output()
                .expect("spirv-val is installed by scripts/setup");
            assert!(
                validation.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&validation.stderr)
            );
        }
    }
    assert_eq!(modules, 4 * 3 * 3);
    let listing = std::fs::read_to_string(dir.path().join("sin_float_w1_a64.spvasm")).unwrap();
    assert!(
        listing.contains("OpExtInstImport \"OpenCL.std\""),
        "{listing}"
    );
}

/// `kernels --platform vulkan` writes the compute shaders a Vulkan device takes (as `--source
/// vulkan`), each valid for Vulkan 1.3, at Vulkan's widths only; a `--source` of another path
/// with it is refused in one line.
#[test]
fn emitted_vulkan_shaders_are_valid_for_vulkan() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let output = clacc(&[
        "kernels",
        "--emit",
        folder,
        "--platform",
        "vulkan",
        "--function",
        "sin,OpFDiv",
        "--type",
        "float,half",
        "--width",
        "1,4,16",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).starts_with("wrote 8 compute shaders (.spv and .spvasm)"),
        "{}",
        text(&output.stdout)
    );
    let mut shaders = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "spv") {
            shaders += 1;
            let validation = Command::new("spirv-val")
                .args(["--target-env", "vulkan1.3"])
                .arg(&path)
                .output()
                .expect("spirv-val is installed by scripts/setup");
            assert!(
                validation.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&validation.stderr)
            );
            let listing = std::fs::read_to_string(path.with_extension("spvasm")).unwrap();
            assert!(listing.contains("OpEntryPoint GLCompute"), "{listing}");
        }
    }
    // Two functions, two types, widths 1 and 4 (16 is no Vulkan vector size).
    assert_eq!(shaders, 2 * 2 * 2);

    let output = clacc(&[
        "kernels",
        "--emit",
        folder,
        "--platform",
        "vulkan",
        "--source",
        "spirv",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--source spirv writes no kernel a vulkan platform takes"),
        "{stderr}"
    );
}

/// A default run (every function, every type the device has, every width) with few inputs:
/// every Table 3 row appears for every type and width (and every Table-5-only function, skipped),
/// every unit is measured (pass or fail) or skipped for a stated reason, and the exit status and summary agree with the rows. Which of
/// the vendor's built-ins fail depends on the host CPU (the Intel runtime picks its code by the
/// instruction set), so this test asserts nothing about them: verdicts are the corpus's business.
#[test]
fn a_default_run_covers_every_row_type_and_width() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("all.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--inputs",
        "400",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    let results = Results::read(&csv_path);
    let rows = &results.rows;
    let status = results.column("status");
    let function = results.column("function");
    let unmeasured: Vec<String> = rows
        .iter()
        .filter(|r| !matches!(&r[status], "pass" | "fail" | "skip"))
        .map(|r| r.iter().collect::<Vec<_>>().join(","))
        .collect();
    assert!(unmeasured.is_empty(), "{}", unmeasured.join("\n"));
    let failed = rows.iter().any(|r| &r[status] == "fail");
    assert_eq!(
        output.status.code(),
        Some(if failed { 1 } else { 0 }),
        "the exit status follows the rows"
    );
    // The default is the 2026 text: every row of its Table 3 × the three types the device
    // supports × the widths the instruction takes: the six gentype widths, 1 to 4 for the
    // geometric ones (whose bounds are per vector), 2 to 4 for OpDot, 3 and 4 for cross.
    let table = clacc::spec::table::builtin_in(
        &clacc::spec::environment::OPENCL_SPIRV,
        clacc::spec::table::Revision::Spec2026,
        clacc::spec::table::Profile::Full,
    );
    let geometric = [
        "distance",
        "length",
        "normalize",
        "fast_distance",
        "fast_length",
        "fast_normalize",
        "OpDot",
        "cross",
    ];
    let widths = |name: &str| match name {
        "OpDot" => 3,
        "cross" => 2,
        _ if geometric.contains(&name) => 4,
        _ => 6,
    };
    let run: Vec<&str> = table.rows.iter().map(|r| r.instruction.as_str()).collect();
    // And the functions only Table 5 bounds (OpFMul_OpFAdd), skipped here with their note.
    let table_5_only = clacc::spec::registry::table_5_only();
    let expected: usize = run
        .iter()
        .chain(&table_5_only)
        .map(|name| 3 * widths(name))
        .sum();
    assert_eq!(rows.len(), expected);
    for name in run.iter().chain(&table_5_only) {
        let present = rows.iter().filter(|r| &r[function] == *name).count();
        assert_eq!(present, 3 * widths(name), "{name}");
    }
    for name in geometric {
        let measured = rows
            .iter()
            .filter(|r| &r[function] == name && &r[results.column("type")] == "float")
            .filter(|r| r[results.column("inputs")].parse::<u64>().unwrap() > 0)
            .count();
        assert_eq!(
            measured,
            widths(name),
            "{name} float is measured at every width"
        );
    }
    assert!(rows.iter().all(|r| &r[results.column("spec")] == "2026"));
    assert!(rows.iter().all(|r| &r[results.column("kind")] == "ulp"));
    let skipped: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[status] == "skip").collect();
    let (table_5_skips, other_skips): (Vec<_>, Vec<_>) = skipped
        .into_iter()
        .partition(|r| table_5_only.contains(&&r[function]));
    assert_eq!(table_5_skips.len(), table_5_only.len() * 18);
    assert!(table_5_skips
        .iter()
        .all(|r| r[results.column("note")].starts_with("only Table 5 bounds")));
    assert!(other_skips.iter().all(|r| ["half_", "native_", "fast_"]
        .iter()
        .any(|p| r[0].starts_with(p))));
    assert!(other_skips
        .iter()
        .all(|r| r[results.column("note")].contains("gives")));
    let summary = text(&output.stdout);
    assert_eq!(summary.starts_with("FAILURES"), failed, "{summary}");
}

#[test]
fn an_input_file_runs_exactly_the_listed_cases() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.txt");
    std::fs::write(
        &cases,
        "# a vendor's cases\n0x1.921fb6p+1, 0x1p+0\n-0x1p-149,0x1.8p+1\n0x0p+0 , -inf\n",
    )
    .unwrap();
    let csv_path = dir.path().join("out.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "atan2",
        "--type",
        "float",
        "--width",
        "1,4",
        "--input-file",
        cases.to_str().unwrap(),
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let results = Results::read(&csv_path);
    let rows = &results.rows;
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(&row[results.column("inputs")], "3");
    }
    // A case whose arity does not fit the function is a usage error before anything runs.
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "sin",
        "--type",
        "float",
        "--width",
        "1",
        "--input-file",
        cases.to_str().unwrap(),
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("--input-file gives 2 arguments a case; sin takes 1"),
        "{}",
        text(&output.stderr)
    );
    std::fs::write(&cases, "0x1p+0\nbanana\n").unwrap();
    let output = clacc(&["--function", "sin", "--input-file", cases.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains(":2: `banana` is not a number"));
}

/// The edge-case rules run for every function that has them, every type and every width the
/// function takes; a wrong result names the violated rule's text and its input.
#[test]
fn edge_rows_cover_every_function_type_and_width() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("edge.csv");
    let output = clacc(&["--kind", "edge", "--csv", csv_path.to_str().unwrap()]);
    assert!(
        matches!(output.status.code(), Some(0) | Some(1)),
        "{}",
        text(&output.stderr)
    );
    let results = Results::read(&csv_path);
    let rows = &results.rows;
    let function = results.column("function");
    for name in clacc::spec::edge_table::functions() {
        let count = rows.iter().filter(|r| r[function] == *name).count();
        // 3 types x 6 widths; half_* exist for float only (Table 3); the geometric functions
        // take widths 1 to 4.
        let expected = if name.starts_with("half_") {
            6
        } else if clacc::spec::registry::find(name).is_some_and(|f| !f.shape.is_geometric()) {
            18
        } else {
            12
        };
        assert_eq!(count, expected, "{name}");
    }
    assert!(rows.iter().all(|r| &r[results.column("kind")] == "edge"));
    // Every unit is measured: a vendor's wrong result is a fail, never a crash or an error.
    let unmeasured: Vec<String> = rows
        .iter()
        .filter(|r| !matches!(&r[results.column("status")], "pass" | "fail" | "skip"))
        .map(|r| r.iter().collect::<Vec<_>>().join(","))
        .collect();
    assert!(unmeasured.is_empty(), "{}", unmeasured.join("\n"));
    // Every failing row names a rule of the default revision's edge-case table
    // (tables/edge_cases_2026.csv) with its spec text or clause.
    for row in rows
        .iter()
        .filter(|r| &r[results.column("status")] == "fail")
    {
        let note = &row[results.column("note")];
        assert!(
            note.contains("tables/edge_cases_2026.csv:") && note.contains("requires"),
            "{note}"
        );
    }
    let summary = text(&output.stdout);
    if summary.contains("FAILURES") {
        assert!(summary.contains("FAILURES (edge cases"), "{summary}");
        assert!(summary.contains("reproduce: clacc"), "{summary}");
    }
}

/// A module with fadd's interface whose body calls a function it only imports: valid SPIR-V
/// that no driver can link.
const UNLINKABLE_FADD: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %kernel "clacc_kernel" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %helper LinkageAttributes "clacc_missing_helper" Import
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%gid_ptr = OpTypePointer Input %v3ulong
%gid = OpVariable %gid_ptr Input
%float = OpTypeFloat 32
%float_ptr = OpTypePointer CrossWorkgroup %float
%void = OpTypeVoid
%kernel_type = OpTypeFunction %void %float_ptr %float_ptr %float_ptr
%helper_type = OpTypeFunction %float %float %float
%helper = OpFunction %float None %helper_type
%hx = OpFunctionParameter %float
%hy = OpFunctionParameter %float
OpFunctionEnd
%kernel = OpFunction %void None %kernel_type
%in0 = OpFunctionParameter %float_ptr
%in1 = OpFunctionParameter %float_ptr
%out0 = OpFunctionParameter %float_ptr
%entry = OpLabel
%ids = OpLoad %v3ulong %gid
%i = OpCompositeExtract %ulong %ids 0
%xp = OpInBoundsPtrAccessChain %float_ptr %in0 %i
%x = OpLoad %float %xp Aligned 4
%yp = OpInBoundsPtrAccessChain %float_ptr %in1 %i
%y = OpLoad %float %yp Aligned 4
%sum = OpFunctionCall %float %helper %x %y
%outp = OpInBoundsPtrAccessChain %float_ptr %out0 %i
OpStore %outp %sum Aligned 4
OpReturn
OpFunctionEnd
"#;

/// A module the driver refuses is the unit's `error` with the log's telling line in its note,
/// and the whole build log on the command line's stderr, from a worker as in this process.
#[test]
fn a_refused_module_is_an_error_row_with_its_build_log_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let module = common::assemble_text(dir.path(), "unlinkable", UNLINKABLE_FADD);
    for isolation in [None, Some("--no-isolate")] {
        let csv = dir.path().join("refused.csv");
        let kernel = format!("OpFAdd={}", module.display());
        let csv_arg = csv.display().to_string();
        let mut args = vec![
            "--kernel",
            &kernel,
            "--function",
            "OpFAdd",
            "--type",
            "float",
            "--width",
            "1",
            "--kind",
            "ulp",
            "--inputs",
            "100",
            "--force",
            "--csv",
            &csv_arg,
        ];
        args.extend(isolation);
        let output = clacc(&args);
        let log = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{isolation:?}: {log}");
        let results = Results::read(&csv);
        let row = results.only_row();
        assert_eq!(results.cell(row, "status"), "error", "{isolation:?}");
        let note = results.cell(row, "note");
        let telling = note
            .strip_prefix("driver refused the module: ")
            .unwrap_or_else(|| panic!("{isolation:?}: {note}"));
        let printed = format!("clacc: the driver refused {}:\n", module.display());
        assert!(log.contains(&printed), "{isolation:?}: {log}");
        // The row's line is one line of the whole log printed after it.
        let after = &log[log.find(&printed).unwrap() + printed.len()..];
        assert!(
            after.lines().any(|line| line.trim() == telling),
            "{isolation:?}: {telling} in {log}"
        );
    }
}

/// The platforms `clacc devices` lists, by index: `[0:0] Intel(R) OpenCL / AMD EPYC`.
fn platform_names() -> Vec<String> {
    let output = clacc(&["devices"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut names: Vec<String> = text(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix('['))
        .filter_map(|line| Some(line.split_once("] ")?.1.split(" / ").next()?.to_string()))
        .collect();
    names.dedup();
    names
}

#[test]
fn a_platform_name_that_several_platforms_have_is_refused_naming_them() {
    let names = platform_names();
    let sharing_cl: Vec<&String> = names
        .iter()
        .filter(|name| name.to_lowercase().contains("cl"))
        .collect();
    assert!(
        sharing_cl.len() >= 2,
        "Intel(R) OpenCL and rusticl both have `cl`: {names:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("x.csv");
    let run = |platform: &str| {
        clacc(&[
            "--platform",
            platform,
            "--kind",
            "ulp",
            "--function",
            "sin",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "64",
            "--csv",
            csv.to_str().unwrap(),
        ])
    };
    let output = run("cl");
    common::assert_refused(&output, "`cl` names several platforms");
    for name in sharing_cl {
        assert!(text(&output.stderr).contains(name.as_str()), "{name}");
    }
    assert!(!csv.exists());
    common::assert_refused(&run(""), "--platform is empty");
    common::assert_refused(
        &clacc(&["--device", "", "--function", "sin"]),
        "--device is empty",
    );
    // The whole name, in any case, names its platform.
    let output = run(&names[0].to_uppercase());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains(&format!(": {} / ", names[0])));
}

#[test]
fn commands_that_open_no_device_refuse_device_options() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let csv = csv.to_str().unwrap();
    for args in [
        &["devices", "--platform", "0"][..],
        &["spec-diff", "--device", "0"],
        &["merge", "a.csv", "--csv", csv, "--platform", "0"],
        &["compare", "a.csv", "--device", "0"],
        &["kernels", "--emit", csv, "--platform", "0"],
        &["--platform", "0", "devices"],
    ] {
        let output = clacc(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("unexpected argument")
                || stderr.contains("cannot be used with")
                || stderr.contains("opens no device, so --platform takes only `vulkan`"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!std::path::Path::new(csv).exists());
}
