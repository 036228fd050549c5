//! End-to-end tests of the three tables on the real Intel device: relaxed math (Table 5),
//! the embedded profile (Table 4), and build options that change or do not change the rules.

mod common;
use common::{clacc, Results};

#[test]
fn relaxed_covers_every_table_5_row_with_its_rule() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("relaxed.csv");
    let output = clacc(&[
        "--profile",
        "relaxed",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "600",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        matches!(output.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::read(&csv);
    let rows = &results.rows;
    // The default revision's Table 5 (2026; acosh, asinh, atan2 gained a non-derived bound).
    let table5 = clacc::spec::relaxed_table::builtin_in(
        &clacc::spec::environment::OPENCL_SPIRV,
        clacc::spec::table::Revision::Spec2026,
    );
    for row in &table5.rows {
        // Table 5's rows name instructions (OpFMul_OpFAdd, x*y+z, is the registry's too).
        let Some(unit) = rows
            .iter()
            .find(|r| results.cell(r, "function") == row.instruction)
        else {
            assert!(
                clacc::spec::registry::find(&row.instruction).is_none(),
                "{} missing",
                row.instruction
            );
            continue;
        };
        assert_eq!(results.cell(unit, "profile"), "relaxed");
        assert_eq!(
            results.cell(unit, "rule"),
            row.float32.describe(false),
            "{}",
            row.instruction
        );
        assert_eq!(results.cell(unit, "build_options"), "-cl-fast-relaxed-math");
        assert_eq!(results.cell(unit, "spec"), "2026");
    }
    // Undefined inputs are counted apart, never as failures.
    let pow = rows
        .iter()
        .find(|r| results.cell(r, "function") == "pow")
        .unwrap();
    assert!(results.cell(pow, "undefined").parse::<u64>().unwrap() > 0);
    let judged: u64 = results.cell(pow, "inputs").parse().unwrap();
    let failures: u64 = results.cell(pow, "failures").parse().unwrap();
    assert!(failures <= judged);
    // sin's absolute bound is reported in its own unit.
    let sin = rows
        .iter()
        .find(|r| results.cell(r, "function") == "sin")
        .unwrap();
    assert!(results.cell(sin, "rule").starts_with("abs<=2^-11"));
    // Functions Table 5 does not list fall back to Table 3, and say so.
    let fma = rows
        .iter()
        .find(|r| results.cell(r, "function") == "fma")
        .unwrap();
    assert!(
        results.cell(fma, "note").contains("not in Table 5"),
        "{:?}",
        fma
    );
}

/// Table 5's "OpFMul and OpFAdd for x * y + z": a kernel of an OpFMul then an OpFAdd, judged
/// by the row's fma-or-mul+add rule under --profile relaxed, and skipped by Tables 3 and 4,
/// which have no such row.
#[test]
fn relaxed_judges_opfmul_then_opfadd_by_table_5_and_other_profiles_skip_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("mul_add.csv");
    let output = clacc(&[
        "--profile",
        "relaxed",
        "--function",
        "OpFMul_OpFAdd",
        "--type",
        "float",
        "--width",
        "1,4",
        "--inputs",
        "2000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        matches!(output.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::read(&csv);
    let units = &results.rows;
    let table5 = clacc::spec::relaxed_table::builtin_in(
        &clacc::spec::environment::OPENCL_SPIRV,
        clacc::spec::table::Revision::Spec2026,
    );
    let rule = table5
        .rule("OpFMul_OpFAdd", clacc::num::fp::FloatType::Float)
        .unwrap();
    assert!(rule.describe(false).contains("fma or mul+add"));
    let widths: Vec<&str> = units.iter().map(|r| results.cell(r, "width")).collect();
    assert_eq!(widths, ["1", "4"]);
    for unit in units {
        assert_eq!(results.cell(unit, "function"), "OpFMul_OpFAdd");
        assert_eq!(results.cell(unit, "profile"), "relaxed");
        assert_eq!(results.cell(unit, "rule"), rule.describe(false));
        assert_ne!(results.cell(unit, "status"), "skip", "{unit:?}");
        assert!(results.cell(unit, "inputs").parse::<u64>().unwrap() > 0);
    }
    let full_csv = dir.path().join("full.csv");
    let output = clacc(&[
        "--profile",
        "full",
        "--function",
        "OpFMul_OpFAdd",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "100",
        "--csv",
        full_csv.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::read(&full_csv);
    let rows = &results.rows;
    assert_eq!(rows.len(), 1);
    assert_eq!(results.cell(&rows[0], "status"), "skip");
    assert!(results
        .cell(&rows[0], "note")
        .contains("only Table 5 bounds OpFMul_OpFAdd"));
}

/// A relaxed run's units that Table 5 does not bound (x * y + z for half) are skipped before
/// they are judged; their rows still say `relaxed`, so `--resume` takes the CSV back (it refused
/// it when those rows said `full`, and a certification killed in its relaxed part could not go on).
#[test]
fn a_relaxed_run_resumes_over_its_own_skipped_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("relaxed.csv");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--profile",
            "relaxed",
            "--kind",
            "ulp",
            "--function",
            "OpFMul_OpFAdd,sin",
            "--type",
            "half,float",
            "--width",
            "1",
            "--inputs",
            "64",
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        clacc(&args)
    };
    let first = run(&[]);
    assert!(
        matches!(first.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let written = std::fs::read(&csv).unwrap();
    let results = Results::read(&csv);
    let skipped = results
        .rows
        .iter()
        .find(|r| {
            results.cell(r, "function") == "OpFMul_OpFAdd" && results.cell(r, "type") == "half"
        })
        .expect("the half x * y + z row");
    assert_eq!(results.cell(skipped, "status"), "skip");
    for row in &results.rows {
        assert_eq!(results.cell(row, "profile"), "relaxed", "{row:?}");
    }
    let resumed = run(&["--resume"]);
    assert_eq!(
        resumed.status.code(),
        first.status.code(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(
        std::fs::read(&csv).unwrap(),
        written,
        "nothing left to run, nothing rewritten"
    );
}

#[test]
fn embedded_judges_float_sqrt_against_4_ulp_and_full_against_3() {
    let dir = tempfile::tempdir().unwrap();
    for (profile, bound) in [("embedded", "4"), ("full", "3")] {
        let csv = dir.path().join(format!("{profile}.csv"));
        let output = clacc(&[
            "--profile",
            profile,
            "--function",
            "sqrt",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "2000",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let results = Results::read(&csv);
        let rows = &results.rows;
        assert_eq!(results.cell(&rows[0], "bound_ulp"), bound, "{profile}");
        assert_eq!(results.cell(&rows[0], "profile"), profile);
    }
}

#[test]
fn relaxed_code_judged_by_the_full_table_fails_with_its_worst_input_named() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("mixed.csv");
    let output = clacc(&[
        "--build-options",
        "-cl-fast-relaxed-math",
        "--profile",
        "full",
        "--function",
        "exp,sqrt",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "4000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::read(&csv);
    let rows = &results.rows;
    let exp = rows
        .iter()
        .find(|r| results.cell(r, "function") == "exp")
        .unwrap();
    assert_eq!(results.cell(exp, "profile"), "full");
    assert_eq!(results.cell(exp, "rule"), "<= 3 ulp");
    assert_eq!(results.cell(exp, "status"), "fail");
    assert_eq!(results.cell(exp, "build_options"), "-cl-fast-relaxed-math");
    let worst = clacc::num::hexfloat::parse(results.cell(exp, "worst_input")).unwrap();
    assert!(worst.is_finite());
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(
        summary.contains("exp float w1") && summary.contains("worst input"),
        "{summary}"
    );
}

#[test]
fn options_the_device_cannot_honour_are_refused() {
    let output = clacc(&["--correctly-rounded-divide-sqrt", "--function", "sqrt"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT"));
}

#[test]
fn denorms_are_zero_applies_the_flush_to_zero_rules() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("daz.csv");
    let output = clacc(&[
        "--denorms-are-zero",
        "--function",
        "sin,OpFMul",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "3000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::read(&csv);
    let rows = &results.rows;
    for row in rows {
        assert!(
            results.cell(row, "note").contains("-cl-denorms-are-zero"),
            "{:?}",
            row
        );
        assert_eq!(results.cell(row, "build_options"), "-cl-denorms-are-zero");
    }
}

/// Conversion and extension rows record the run's `--profile`, not the device's own: on this
/// full-profile device, `--profile embedded` writes `embedded` in both kinds of row (they wrote
/// `full` before, so `--resume` ran them again).
#[test]
fn conversion_and_extension_rows_record_the_runs_profile() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("embedded.csv");
    let output = clacc(&[
        "--profile",
        "embedded",
        "--kind",
        "conversion,extension",
        "--function",
        "convert_float_to_half_rte,float_controls2_ieee",
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "16",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = Results::read(&csv).maps();
    let kinds: Vec<&str> = rows.iter().map(|row| row["kind"].as_str()).collect();
    assert_eq!(kinds, ["conversion", "extension"], "{rows:?}");
    for row in &rows {
        assert_eq!(row["profile"], "embedded", "{row:?}");
    }
}
