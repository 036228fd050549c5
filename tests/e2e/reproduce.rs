//! Leftovers of issues 12 to 16: the summary's reproduce lines for every kind of unit, the
//! planned unit count that merge and --resume read, and large --inputs on conversions. Runs
//! on the Intel OpenCL CPU runtime (the binary re-execs itself with it).

mod common;
use common::{assemble_text, clacc, text, Results};

/// A conversion unit's reproduce line (`--kind conversion --function NAME --type T --width 1
/// --input X`, as src/report.rs builds it) runs that unit on exactly that input.
#[test]
fn a_conversion_reproduce_line_runs_that_unit_on_that_one_input() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    for (name, element, input) in [
        ("convert_double_to_half", "half", "0x1.0000000000001p+0"),
        ("convert_int_to_float", "float", "0x1.000001p+24"),
    ] {
        let csv = dir.join(format!("{name}.csv"));
        let output = clacc(&[
            "--kind",
            "conversion",
            "--function",
            name,
            "--type",
            element,
            "--width",
            "1",
            "--input",
            input,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let code = output.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "{name}: {code:?} {}",
            text(&output.stderr)
        );
        let rows = Results::read(&csv).maps();
        assert_eq!(rows.len(), 1, "{name}: one unit");
        let row = &rows[0];
        assert_eq!(row["function"], name);
        assert_eq!(row["kind"], "conversion");
        assert_eq!(row["inputs"], "1", "{name}: judges exactly the given input");
        assert_eq!(
            row["worst_input"], input,
            "{name}: the input given is the one judged"
        );
    }
}

/// An extension unit's reproduce line selects that unit too (a usage error before).
#[test]
fn an_extension_reproduce_line_selects_that_unit() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let csv = dir.join("fc2.csv");
    let output = clacc(&[
        "--kind",
        "extension",
        "--function",
        "float_controls2_ieee",
        "--type",
        "float",
        "--width",
        "1",
        "--input",
        "0x1p+0,-0x1p+2",
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
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["function"], "float_controls2_ieee");
    assert_eq!(rows[0]["kind"], "extension");
    if rows[0]["status"] != "skip" {
        // One pair, five instructions, each counted.
        assert_eq!(rows[0]["inputs"], "5", "{:?}", rows[0]);
    }
}

/// The geometric "without overflow" rules prescribe a value (`~max`, `~2^emax`): the CSV's
/// worst_reference is that value, not a NaN (every length and distance rule at width 4 is
/// such a rule, whatever the device returns).
#[test]
fn an_edge_rule_without_overflow_reports_the_value_it_prescribes() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let csv = dir.join("length.csv");
    let output = clacc(&[
        "--kind",
        "edge",
        "--function",
        "length,distance",
        "--type",
        "half,float",
        "--width",
        "4",
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
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let reference = &row["worst_reference"];
        let value: f64 = clacc::num::hexfloat::parse(reference)
            .unwrap_or_else(|| panic!("worst_reference {reference:?} of {row:?}"));
        assert!(value.is_finite() && value > 0.0, "{row:?}");
    }
}

/// A length float w1 kernel (the one-element vector is the scalar gentype): `result` is
/// `RESULT` applied to the input.
const LENGTH_W1: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
%17 = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %9 "clacc_kernel" %4
OpDecorate %4 BuiltIn GlobalInvocationId
%1 = OpTypeInt 64 0
%2 = OpTypeVector %1 3
%3 = OpTypePointer Input %2
%4 = OpVariable %3 Input
%5 = OpTypeFloat 32
%6 = OpTypePointer CrossWorkgroup %5
%7 = OpTypeVoid
%8 = OpTypeFunction %7 %6 %6
%9 = OpFunction %7 None %8
%10 = OpFunctionParameter %6
%11 = OpFunctionParameter %6
%12 = OpLabel
%13 = OpLoad %2 %4
%14 = OpCompositeExtract %1 %13 0
%15 = OpInBoundsPtrAccessChain %6 %10 %14
%16 = OpLoad %5 %15 Aligned 4
RESULT
%19 = OpInBoundsPtrAccessChain %6 %11 %14
OpStore %19 %18 Aligned 4
OpReturn
OpFunctionEnd
"#;

/// `--kernel length=FILE` runs the module through length's edge-case rules (refused before):
/// |x| passes "without overflow" (length(-max) = max), x itself fails it; a module of another
/// interface is refused by the interface check.
#[test]
fn a_user_length_module_is_judged_by_the_edge_rules() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut verdicts = Vec::new();
    for (name, result) in [
        ("abs", "%18 = OpExtInst %5 %17 fabs %16"),
        ("identity", "%18 = OpCopyObject %5 %16"),
    ] {
        let module = assemble_text(dir, name, &LENGTH_W1.replace("RESULT", result));
        let csv = dir.join(format!("{name}.csv"));
        let output = clacc(&[
            "--kind",
            "edge",
            "--function",
            "length",
            "--type",
            "float",
            "--width",
            "1",
            "--kernel",
            &format!("length={}", module.display()),
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let rows = Results::read(&csv).maps();
        assert_eq!(rows.len(), 1, "{name}: {}", text(&output.stderr));
        assert!(rows[0]["note"].contains("your module"), "{:?}", rows[0]);
        assert!(
            rows[0]["inputs"].parse::<u64>().unwrap() > 0,
            "{:?}",
            rows[0]
        );
        verdicts.push((rows[0]["status"].clone(), output.status.code()));
    }
    assert_eq!(verdicts[0], ("pass".to_string(), Some(0)), "|x|");
    assert_eq!(verdicts[1], ("fail".to_string(), Some(1)), "x");
    // The scalar module does not fit length's float2 kernel.
    let module = dir.join("abs.spv");
    let output = clacc(&[
        "--kind",
        "edge",
        "--function",
        "length",
        "--type",
        "float",
        "--width",
        "2",
        "--kernel",
        &format!("length={}", module.display()),
        "--csv",
        dir.join("w2.csv").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("does not fit length float w2"));
}

/// Two shards that both stopped after the same unit agree with each other, yet lack the
/// plan's last units: the planned_units column lets merge refuse them, naming what is missing.
#[test]
fn shards_cut_after_the_same_unit_do_not_merge() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut shards = Vec::new();
    for shard in ["0/2", "1/2"] {
        let csv = dir.join(format!("shard{}.csv", &shard[..1]));
        let output = clacc(&[
            "--kind",
            "ulp",
            "--function",
            "fabs,floor,ceil",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "200",
            "--shard",
            shard,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let rows = Results::read(&csv).maps();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r["planned_units"] == "3"), "{rows:?}");
        // Cut after the first unit: the header and one row.
        let whole = std::fs::read_to_string(&csv).unwrap();
        let cut: Vec<&str> = whole.lines().take(2).collect();
        std::fs::write(&csv, format!("{}\n", cut.join("\n"))).unwrap();
        shards.push(csv);
    }
    let merged = dir.join("merged.csv");
    let output = clacc(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--csv",
        merged.to_str().unwrap(),
    ]);
    let message = text(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{message}");
    assert!(
        message.contains("planned 3 units") && message.contains("units 2 to 3"),
        "{message}"
    );
    assert!(!merged.exists() || Results::read(&merged).maps().is_empty());
}

/// `--inputs` near 2^40 on a sampled conversion unit finishes (it crashed the worker building
/// a 2^40-element sample): the sample is cut to 2^24 inputs and the note says so; an
/// exhaustive unit runs its whole domain, smaller than the request.
#[test]
fn a_huge_input_count_on_conversions_finishes_with_a_cut_sample() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let csv = dir.join("huge.csv");
    let output = clacc(&[
        "--kind",
        "conversion",
        "--function",
        "convert_double_to_half,convert_half_to_float",
        "--type",
        "half",
        "--width",
        "1",
        "--inputs",
        "1099511627776",
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
    assert_eq!(rows.len(), 2);
    let sampled = rows
        .iter()
        .find(|r| r["function"] == "convert_double_to_half")
        .unwrap();
    assert_ne!(sampled["status"], "crash", "{sampled:?}");
    assert_eq!(sampled["inputs"], (1u64 << 24).to_string(), "{sampled:?}");
    assert!(
        sampled["note"].contains("--inputs 1099511627776 cut to 16777216"),
        "{sampled:?}"
    );
    let exhaustive = rows
        .iter()
        .find(|r| r["function"] == "convert_half_to_float")
        .unwrap();
    assert_eq!(exhaustive["inputs"], "65536", "{exhaustive:?}");
}
