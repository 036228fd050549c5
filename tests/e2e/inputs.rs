//! The inputs a user gives: `--input-file` read within its limits, values that are not the
//! type's refused, NaN payloads sent and printed as written, and `--range` sweeps. The real
//! Intel device, small sweeps, modules whose behaviour is known.

mod common;
use common::{assemble_text, assert_refused, clacc, text, Results};

use clacc::num::fp::FloatType;
use clacc::num::hexfloat;
use std::path::Path;

/// `--kind ulp --function FUNCTION --type TYPE --width 1 --csv CSV` and `extra`.
fn run(function: &str, element: &str, csv: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--kind",
        "ulp",
        "--function",
        function,
        "--type",
        element,
        "--width",
        "1",
        "--csv",
    ];
    args.push(csv.to_str().unwrap());
    args.extend(extra);
    clacc(&args)
}

#[test]
fn an_input_file_is_read_within_its_limits_and_quoted_short() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.txt");
    let csv = dir.path().join("out.csv");
    let input_file = ["--input-file", cases.to_str().unwrap()];
    // A line of 1 MiB: refused at its first 4 KiB, quoted in 80 characters.
    std::fs::write(&cases, format!("0x1p+0\n{}\n", "7".repeat(1 << 20))).unwrap();
    let output = run("sin", "float", &csv, &input_file);
    assert_refused(&output, ":2: a line longer than 4096 bytes (`7777");
    assert!(output.stderr.len() < 400, "{}", text(&output.stderr));
    // A bad field is quoted short as well.
    std::fs::write(&cases, format!("{}q\n", "7".repeat(1000))).unwrap();
    let output = run("sin", "float", &csv, &input_file);
    assert_refused(&output, "…` is not a number");
    assert!(output.stderr.len() < 400, "{}", text(&output.stderr));
    // More numbers than 2^24: refused, naming the limit (the file is not held whole).
    std::fs::write(&cases, "0x1p+0\n".repeat((1 << 24) + 1)).unwrap();
    let output = run("sin", "float", &csv, &input_file);
    assert_refused(&output, "holds more than 16777216 numbers (2^24");
    assert!(!csv.exists(), "nothing ran");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.txt");
    let csv = dir.path().join("out.csv");
    let input_file = ["--input-file", cases.to_str().unwrap()];
    std::fs::write(&cases, "\u{feff}banana\n").unwrap();
    let output = run("sin", "float", &csv, &input_file);
    assert_refused(&output, ":1: `banana` is not a number");
    assert!(!text(&output.stderr).contains('\u{feff}'));
    std::fs::write(&cases, "\u{feff}0x1p+0 # one\n-0x1.8p+1\n").unwrap();
    let output = run("sin", "float", &csv, &input_file);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(Results::read(&csv).first("inputs"), "2");
}

#[test]
fn inputs_that_are_not_values_of_the_type_are_refused_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("out.csv");
    for (input, nearest) in [
        ("0x1p+200", "the nearest float is inf"),
        ("0x1.000000001p+0", "the nearest float is 0x1p+0"),
        ("0x1p-160", "the nearest float is 0x0p+0"),
        (
            "nan(0x800000)",
            "a float NaN's payload (its trailing significand) is 0x1 to 0x7fffff",
        ),
    ] {
        let output = run("sin", "float", &csv, &["--input", input]);
        assert_refused(
            &output,
            &format!("--input: argument 1: {input} is not a float"),
        );
        assert_refused(&output, nearest);
        assert!(!csv.exists(), "{input}: nothing ran");
    }
    // In a file, the line is named; with two types, the one the value is not of.
    let cases = dir.path().join("cases.txt");
    std::fs::write(&cases, "# first\n0x1p+0\n\n0x1.000000001p+0\n").unwrap();
    let input_file = ["--input-file", cases.to_str().unwrap()];
    let output = run("sin", "float,double", &csv, &input_file);
    assert_refused(
        &output,
        "cases.txt:4: argument 1: 0x1.000000001p+0 is not a float value",
    );
    // An integer argument takes integers.
    let output = run("ldexp", "float", &csv, &["--input", "0x1p+0,2.5"]);
    assert_refused(&output, "argument 2: 0x1.4p+1 is not an integer");
    // Values of the type run.
    let output = run("sin", "double", &csv, &input_file);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(Results::read(&csv).first("inputs"), "2");
}

#[test]
fn exhaustive_and_range_with_explicit_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("out.csv");
    let output = run("sin", "half", &csv, &["--exhaustive", "--input", "0x1p+0"]);
    assert_refused(&output, "--exhaustive runs every input of the type, and --input/--input-file run only the cases given");
    let output = run(
        "sin",
        "float",
        &csv,
        &["--range", "0:1", "--input", "0x1p+0"],
    );
    assert_refused(&output, "--range narrows the sweep");
    assert!(!csv.exists());
}

/// clacc's sin float w1 interface, but the result is the input's low 24 bits as a number:
/// what the device received, bit for bit, in the CSV's worst_device.
const LOW_BITS_SIN: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %kernel "clacc_kernel" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
%ulong = OpTypeInt 64 0
%uint = OpTypeInt 32 0
%v3ulong = OpTypeVector %ulong 3
%gid_ptr = OpTypePointer Input %v3ulong
%gid = OpVariable %gid_ptr Input
%float = OpTypeFloat 32
%float_ptr = OpTypePointer CrossWorkgroup %float
%void = OpTypeVoid
%mask = OpConstant %uint 16777215
%kernel_type = OpTypeFunction %void %float_ptr %float_ptr
%kernel = OpFunction %void None %kernel_type
%in0 = OpFunctionParameter %float_ptr
%out0 = OpFunctionParameter %float_ptr
%entry = OpLabel
%ids = OpLoad %v3ulong %gid
%i = OpCompositeExtract %ulong %ids 0
%xp = OpInBoundsPtrAccessChain %float_ptr %in0 %i
%x = OpLoad %float %xp Aligned 4
%bits = OpBitcast %uint %x
%low = OpBitwiseAnd %uint %bits %mask
%value = OpConvertUToF %float %low
%outp = OpInBoundsPtrAccessChain %float_ptr %out0 %i
OpStore %outp %value Aligned 4
OpReturn
OpFunctionEnd
"#;

#[test]
fn nan_payloads_reach_the_device_as_written_and_print_back() {
    let dir = tempfile::tempdir().unwrap();
    let module = assemble_text(dir.path(), "low_bits_sin", LOW_BITS_SIN);
    let kernel = format!("sin={}", module.display());
    for (input, bits) in [
        ("-nan(0x1)", 0xff80_0001u64),
        ("nan(0x2a0001)", 0x7faa_0001),
        ("nan(0x400001)", 0x7fc0_0001),
        ("nan", 0x7fc0_0000),
    ] {
        let csv = dir.path().join("nan.csv");
        let output = run(
            "sin",
            "float",
            &csv,
            &["--kernel", &kernel, "--input", input],
        );
        assert_eq!(
            output.status.code(),
            Some(1),
            "{input}: {}",
            text(&output.stderr)
        );
        let results = Results::read(&csv);
        // The device got the NaN's bits: signalling ones stay signalling.
        let device = hexfloat::parse(results.first("worst_device")).unwrap();
        assert_eq!(device as u64, bits & 0xff_ffff, "{input}");
        // The printed input reads back to the same bits, in the CSV and the reproduce line.
        let printed = results.first("worst_input");
        let back = hexfloat::typed_nan(FloatType::Float, hexfloat::parse(printed).unwrap());
        assert_eq!(
            hexfloat::element_bits(FloatType::Float, back.unwrap()),
            bits,
            "{printed}"
        );
        let summary = text(&output.stdout);
        assert!(
            summary.contains(&format!("--input {printed}\n")),
            "{summary}"
        );
    }
}

#[test]
fn a_range_sweep_draws_in_the_range_and_is_kept_apart() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("range.csv");
    let range = ["--inputs", "3000", "--range", "0x1p-2:4,-3:3"];
    let output = run("pow", "float", &csv, &range);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    let worst: Vec<f64> = results
        .first("worst_input")
        .split(' ')
        .map(|x| hexfloat::parse(x).unwrap())
        .collect();
    assert!(
        (0.25..=4.0).contains(&worst[0]) && (-3.0..=3.0).contains(&worst[1]),
        "{worst:?}"
    );
    assert!(results
        .first("options")
        .ends_with(" range=0x1p-2:0x1p+2,-0x1.8p+1:0x1.8p+1"));
    // Resumed with another range, or none: refused, the rows kept.
    let before = std::fs::read_to_string(&csv).unwrap();
    for other in [
        &["--inputs", "3000", "--range", "0:4,-3:3"][..],
        &["--inputs", "3000"],
    ] {
        let mut args = other.to_vec();
        args.push("--resume");
        assert_refused(&run("pow", "float", &csv, &args), "options");
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
    }
    // Two shards merged are the whole run: each chunk draws the same inputs alone.
    let whole = dir.path().join("whole.csv");
    let sin_range = ["--inputs", "140000", "--range", "-0x1p+3:0x1p-3"];
    assert_eq!(
        run("sin", "float", &whole, &sin_range).status.code(),
        Some(0)
    );
    let mut shards = Vec::new();
    for shard in ["0/2", "1/2"] {
        let path = dir.path().join(format!("shard{}.csv", &shard[..1]));
        let mut args = sin_range.to_vec();
        args.extend(["--shard", shard]);
        assert_eq!(run("sin", "float", &path, &args).status.code(), Some(0));
        shards.push(path);
    }
    let merged = dir.path().join("merged.csv");
    let output = clacc(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--csv",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let (whole, merged) = (Results::read(&whole), Results::read(&merged));
    for column in ["inputs", "max_ulp", "worst_input", "worst_index", "options"] {
        assert_eq!(whole.first(column), merged.first(column), "{column}");
    }
    let worst = hexfloat::parse(whole.first("worst_input")).unwrap();
    assert!((-8.0..=0.125).contains(&worst), "{worst}");
}

#[test]
fn a_range_exhaustive_half_run_judges_every_half_in_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("half.csv");
    let output = run("sin", "half", &csv, &["--exhaustive", "--range", "0:1"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    // 0x0000 ..= 0x3c00 and -0.
    assert_eq!(results.first("inputs"), (0x3c00 + 2).to_string());
    assert!(results.first("options").starts_with("exhaustive=yes "));
    assert!(results.first("options").ends_with(" range=0x0p+0:0x1p+0"));
}

#[test]
fn bad_ranges_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    for (range, wanted) in [
        ("1:0", "LO is above HI"),
        ("nan:1", "not NaN"),
        ("0:1:2", "is not a range"),
    ] {
        let output = run("sin", "float", &csv, &["--range", range]);
        assert_eq!(output.status.code(), Some(2), "{range}");
        assert!(
            text(&output.stderr).contains(wanted),
            "{range}: {}",
            text(&output.stderr)
        );
    }
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "sin,pow",
        "--type",
        "float",
        "--range",
        "0:1,0:2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_refused(&output, "--range gives 2 ranges and sin takes 1 argument");
    let output = run("sin", "half", &csv, &["--range", "0x1.0001p+0:0x1.0002p+0"]);
    assert_refused(&output, "holds no half value for argument 1 of sin");
    assert!(!csv.exists());
}
