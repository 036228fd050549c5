//! Fault injection: the bookkeeping around the CSV under faults and bad input (issue 16). Each
//! test is one defect that once wrote a false result, lost one, or answered unclearly, plus the
//! interruptions that already held (a killed run, a CSV cut at any byte, each resumed). Small
//! sweeps, the real Intel device, modules whose behaviour is known.

mod common;
use common::{
    assemble_text, assert_judged, assert_refused, clacc, merge, own_kernel_unit, text, Results,
    SEGFAULTING_SIN,
};

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A quick unit: OpFAdd float w1 (the run's bookkeeping is under test, not the device).
const QUICK: [&str; 8] = [
    "--kind",
    "ulp",
    "--function",
    "OpFAdd",
    "--type",
    "float",
    "--width",
    "1",
];

fn quick(csv: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = QUICK.to_vec();
    if !extra.contains(&"--inputs") {
        args.extend(["--inputs", "2000"]);
    }
    args.extend(["--csv", csv.to_str().unwrap()]);
    args.extend(extra);
    clacc(&args)
}

#[test]
fn a_shard_whose_unit_crashed_never_merges_into_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let module = assemble_text(dir.path(), "segv", SEGFAULTING_SIN);
    let kernel = format!("sin={}", module.display());
    let shard = |index: &str| {
        let csv = dir.path().join(format!("shard{}.csv", &index[..1]));
        let mut args = own_kernel_unit("sin", &kernel);
        args.extend(["--shard", index, "--csv", csv.to_str().unwrap()]);
        let output = clacc(&args);
        (csv, output)
    };
    // 1000 inputs are one chunk: shard 0/2 runs it and crashes, shard 1/2 holds nothing.
    let (crashed, output) = shard("0/2");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&crashed);
    let row = &results.rows[0];
    assert_eq!(results.cell(row, "status"), "crash");
    assert!(results.cell(row, "note").contains("SIGSEGV"), "{row:?}");
    let (empty, output) = shard("1/2");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let results = Results::read(&empty);
    let row = &results.rows[0];
    assert_eq!(
        (results.cell(row, "inputs"), results.cell(row, "status")),
        ("0", "pass")
    );
    assert!(results.cell(row, "note").contains("empty shard row"));
    for order in [[&crashed, &empty], [&empty, &crashed]] {
        let merged = dir.path().join("merged.csv");
        let output = merge(&[order[0], order[1]], &merged);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let results = Results::read(&merged);
        let row = &results.rows[0];
        assert_eq!(results.cell(row, "status"), "crash");
        assert!(results.cell(row, "note").contains("SIGSEGV"));
    }
}

#[test]
fn merge_refuses_files_that_are_not_the_complete_shards_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let run = |name: &str, extra: &[&str]| {
        let output = quick(&path(name), extra);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        path(name)
    };
    let zero = run("s0.csv", &["--shard", "0/2"]);
    let one = run("s1.csv", &["--shard", "1/2"]);
    let other_seed = run("seed.csv", &["--shard", "1/2", "--seed", "7"]);
    let other_inputs = run("inputs.csv", &["--shard", "1/2", "--inputs", "3000"]);
    let of_three = run("three.csv", &["--shard", "1/3"]);
    let merged = path("merged.csv");
    assert_refused(&merge(&[&zero, &zero], &merged), "given twice");
    assert_refused(&merge(&[&zero], &merged), "missing shard 1/2");
    assert_refused(&merge(&[&zero, &other_seed], &merged), "seed");
    assert_refused(&merge(&[&zero, &other_inputs], &merged), "requested_inputs");
    assert_refused(&merge(&[&zero, &of_three], &merged), "shard of 2");
    // Two rows of one unit in one file (two runs spliced into it).
    let doubled = path("doubled.csv");
    let mut spliced = std::fs::read_to_string(&one).unwrap();
    let row = spliced.lines().nth(1).unwrap().to_string();
    spliced.push_str(&row);
    spliced.push('\n');
    std::fs::write(&doubled, spliced).unwrap();
    assert_refused(&merge(&[&zero, &doubled], &merged), "holds two rows");
    assert!(!merged.exists(), "a refused merge wrote its output");
    let before = std::fs::read_to_string(&zero).unwrap();
    assert_refused(&merge(&[&zero, &one], &zero), "also one of the shards");
    assert_eq!(std::fs::read_to_string(&zero).unwrap(), before);
    // The two shards of one run merge, and the merged counts are the whole run's.
    let output = merge(&[&zero, &one], &merged);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let whole = run("whole.csv", &[]);
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

#[test]
fn a_second_run_on_a_csv_being_written_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("busy.csv");
    let mut first = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(QUICK)
        .args(["--function", "sin", "--inputs", "100000000", "--csv"])
        .arg(&csv)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&csv).map_or(true, |t| t.is_empty()) {
        assert!(started.elapsed() < Duration::from_secs(60), "no header");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = quick(&csv, &[]);
    let resumed = quick(&csv, &["--resume"]);
    first.kill().unwrap();
    first.wait().unwrap();
    let pid = format!("pid {}", first.id());
    assert_refused(&second, &pid);
    assert_refused(&resumed, &pid);
    // The first run's file is untouched by the refused ones: its header, no spliced rows.
    let kept = std::fs::read_to_string(&csv).unwrap();
    assert!(kept.starts_with("function,type,width,"), "{kept}");
    assert_eq!(kept.lines().count(), 1, "{kept}");
}

#[test]
fn resume_refuses_rows_written_with_other_options() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    assert_eq!(quick(&csv, &[]).status.code(), Some(0));
    let before = std::fs::read_to_string(&csv).unwrap();
    let cases = dir.path().join("cases.txt");
    std::fs::write(&cases, "0x1p+0, 0x1p+1\n").unwrap();
    for (extra, named) in [
        (vec!["--seed", "9"], "seed"),
        (vec!["--inputs", "3000"], "requested_inputs"),
        (vec!["--shard", "0/2"], "shard"),
        (vec!["--exhaustive"], "exhaustive=yes"),
        (vec!["--input-file", cases.to_str().unwrap()], "cases="),
    ] {
        let mut args = extra.clone();
        args.push("--resume");
        assert_refused(&quick(&csv, &args), named);
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), before, "{extra:?}");
    }
    // The same options resume (nothing left to run).
    let output = quick(&csv, &["--resume"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
}

#[test]
fn a_csv_that_is_not_a_regular_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.csv");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for target in [fifo.as_path(), Path::new("/dev/full"), dir.path()] {
        for resume in [true, false] {
            let extra: &[&str] = if resume { &["--resume"] } else { &[] };
            let started = Instant::now();
            assert_refused(&quick(target, extra), "not a regular file");
            assert!(started.elapsed() < Duration::from_secs(30));
        }
    }
    let merged = merge(&[Path::new("/dev/full")], &dir.path().join("m.csv"));
    assert_refused(&merged, "not a regular file");
}

#[test]
fn inputs_beyond_what_a_sweep_addresses_are_refused_and_large_sweeps_start_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("big.csv");
    for count in ["18446744073709551615", "100000000000000"] {
        assert_refused(&quick(&csv, &["--inputs", count]), "at most 2^40");
    }
    // 2^40 inputs at width 16: the first chunk runs at once (no list of 2^24 chunk numbers
    // first), and the unit ends as a timeout, never as a pass over 0 inputs.
    let started = Instant::now();
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "OpFAdd",
        "--type",
        "float",
        "--width",
        "16",
        "--inputs",
        "1099511627776",
        "--unit-timeout",
        "4",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    let row = &results.rows[0];
    assert_eq!(results.cell(row, "status"), "timeout");
    assert_eq!(results.cell(row, "requested_inputs"), "1099511627776");
}

#[test]
fn csv_never_overwrites_a_file_clacc_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.csv");
    std::fs::write(&notes, "my,own\ndata,1\n").unwrap();
    assert_refused(&quick(&notes, &[]), "not a clacc CSV");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my,own\ndata,1\n");
    let cases = dir.path().join("cases.txt");
    std::fs::write(&cases, "0x1p+0, 0x1p+1\n").unwrap();
    assert_refused(
        &quick(&cases, &["--input-file", cases.to_str().unwrap()]),
        "also the --input-file",
    );
    assert_eq!(std::fs::read_to_string(&cases).unwrap(), "0x1p+0, 0x1p+1\n");
    let both = dir.path().join("both.csv");
    assert_refused(
        &quick(&both, &["--junit", both.to_str().unwrap()]),
        "also the --junit",
    );
    let report = dir.path().join("report.xml");
    assert_refused(
        &quick(
            &report.with_extension("csv"),
            &[
                "--input-file",
                cases.to_str().unwrap(),
                "--junit",
                cases.to_str().unwrap(),
            ],
        ),
        "--junit",
    );
    assert_eq!(std::fs::read_to_string(&cases).unwrap(), "0x1p+0, 0x1p+1\n");
    // --force replaces it; a clacc CSV is replaced without it.
    let output = quick(&notes, &["--force"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let output = quick(&notes, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(Results::read(&notes).rows.len(), 1);
}

#[test]
fn a_selection_with_nothing_in_it_is_a_usage_error_naming_why() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("none.csv");
    let path = csv.to_str().unwrap();
    for (args, why) in [
        (
            vec!["--function", "length", "--width", "16"],
            "length runs at widths 1,2,3,4; --width 16 selects none",
        ),
        (
            vec!["--kind", "ulp", "--function", "cross", "--width", "1,2"],
            "cross runs at widths 3,4",
        ),
        (
            vec!["--kind", "conversion", "--function", "sin"],
            "--function takes conversion and extension unit names (e.g. convert_float_to_half_rte, float_controls2_ieee: a summary's reproduce line gives them), and sin names none",
        ),
        (
            vec!["--kind", "edge", "--function", "OpFAdd"],
            "OpFAdd has no edge-case rules",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--csv", path]);
        assert_refused(&clacc(&all), why);
        assert!(!csv.exists(), "{args:?} left a CSV");
    }
}

#[test]
fn a_user_module_of_another_interface_is_refused_before_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let emitted = dir.path().join("emitted");
    let output = clacc(&[
        "kernels",
        "--emit",
        emitted.to_str().unwrap(),
        "--function",
        "sin,pow",
        "--type",
        "float,double",
        "--width",
        "1,16",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let csv = dir.path().join("k.csv");
    for (module, expected) in [
        ("sin_double_w1_a64.spv", "pointer to double, expected"),
        ("sin_float_w16_a64.spv", "float vector of 16, expected"),
        ("pow_float_w1_a64.spv", "has 3 parameters, expected 2"),
    ] {
        let kernel = format!("sin={}", emitted.join(module).display());
        let mut args = own_kernel_unit("sin", &kernel);
        args.extend(["--csv", csv.to_str().unwrap()]);
        let output = clacc(&args);
        assert_refused(&output, expected);
        assert!(text(&output.stderr).contains("pointer to float"));
        assert!(!csv.exists());
    }
}

#[test]
fn junit_and_plot_destinations_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let missing = dir.path().join("no/such/folder/r.xml");
    assert_refused(
        &quick(&csv, &["--junit", missing.to_str().unwrap()]),
        "does not exist",
    );
    assert!(!csv.exists(), "the run started before --junit was checked");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    assert_refused(&quick(&csv, &["--plot", file.to_str().unwrap()]), "--plot");
    assert!(!csv.exists(), "the run started before --plot was checked");
    assert_refused(
        &quick(&csv, &["--junit", dir.path().to_str().unwrap()]),
        "not a regular file",
    );
}

#[test]
fn a_junit_that_fails_after_the_run_keeps_the_run_s_own_status() {
    let dir = tempfile::tempdir().unwrap();
    let module = assemble_text(dir.path(), "segv", SEGFAULTING_SIN);
    let kernel = format!("sin={}", module.display());
    let folder = dir.path().join("reports");
    std::fs::create_dir(&folder).unwrap();
    let junit = folder.join("run.xml");
    let csv = dir.path().join("r.csv");
    // sin crashes (exit 1 is the run's status); OpFAdd runs long enough to lose the folder.
    let child = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args([
            "--kind",
            "ulp",
            "--function",
            "sin,OpFAdd",
            "--kernel",
            &kernel,
        ])
        .args(["--type", "float", "--width", "1", "--inputs", "4000000"])
        .arg("--csv")
        .arg(&csv)
        .arg("--junit")
        .arg(&junit)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "sin never ended"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::remove_dir(&folder).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = text(&output.stderr);
    assert!(stderr.contains("cannot write --junit"), "{stderr}");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        Results::read(&csv).rows.len(),
        2,
        "the CSV holds every result"
    );
}

#[test]
fn a_function_named_twice_runs_once() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("twice.csv");
    let output = clacc(&[
        "--kind",
        "ulp",
        "--function",
        "OpFAdd,fadd,OpFAdd",
        "--type",
        "float,float",
        "--width",
        "1,1",
        "--inputs",
        "1000",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(Results::read(&csv).rows.len(), 1);
}

#[test]
fn unit_timeout_bounds_the_whole_unit_whatever_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("slow.csv");
    // Hundreds of chunks, each reporting progress well within the limit: the unit as a whole
    // runs past it.
    let started = Instant::now();
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
        "200000000",
        "--unit-timeout",
        "3",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(Results::read(&csv).first("status"), "timeout");
}

#[test]
fn unclear_arguments_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("x.csv");
    assert_refused(&quick(&csv, &["--inputs", "-1"]), "not a number of inputs");
    assert_refused(&quick(&csv, &["--inputs", "0"]), "at least 1");
    assert_refused(
        &quick(&csv, &["--unit-timeout", "-5"]),
        "not a number of seconds",
    );
    assert_refused(&quick(&csv, &["--threads", "0"]), "not a number of threads");
    assert_refused(&quick(&csv, &["--shard", "-1/2"]), "is not a shard");
    assert_refused(&quick(&csv, &["--seed", "-5"]), "is not a seed");
    assert_refused(
        &clacc(&["--function", "sin,", "--csv", csv.to_str().unwrap()]),
        "empty name",
    );
    let nowhere = dir.path().join("no/such/folder/x.csv");
    assert_refused(&quick(&nowhere, &[]), "does not exist");
    let output = clacc(&["--function", "lenght", "--csv", csv.to_str().unwrap()]);
    assert_refused(&output, "unknown function `lenght`");
    for name in ["length", "distance", "normalize"] {
        assert!(text(&output.stderr).contains(name));
    }
    assert!(!csv.exists());
}

/// Several quick units, for the interruption cases.
const SEVERAL: [&str; 10] = [
    "--kind",
    "ulp",
    "--function",
    "OpFAdd,OpFMul,OpFSub,sqrt",
    "--type",
    "float",
    "--width",
    "1,2,4",
    "--inputs",
    "20000",
];

fn several(csv: &Path, extra: &[&str]) -> Output {
    let mut args = SEVERAL.to_vec();
    args.extend(["--csv", csv.to_str().unwrap()]);
    args.extend(extra);
    clacc(&args)
}

#[test]
fn a_killed_run_resumes_into_the_uninterrupted_csv() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let status = several(&whole, &[]).status.code();
    assert!(matches!(status, Some(0 | 1)));
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    let killed = dir.path().join("killed.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(SEVERAL)
        .arg("--csv")
        .arg(&killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&killed).map_or(0, |t| t.lines().count()) < 4
        && started.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SIGKILL: no handler, no flush.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(std::fs::read_to_string(&killed).unwrap().len() < whole_text.len());
    assert_eq!(several(&killed, &["--resume"]).status.code(), status);
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), whole_text);
}

#[test]
fn a_csv_cut_at_any_byte_resumes_into_the_uninterrupted_csv() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let status = several(&whole, &[]).status.code();
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    let header_end = whole_text.find('\n').unwrap();
    let second_row = header_end + 1 + whole_text[header_end + 1..].find('\n').unwrap();
    let cut_csv = dir.path().join("cut.csv");
    // Inside the header, right after it, inside a row, right after a row, one byte short.
    for cut in [
        0,
        header_end / 2,
        header_end + 1,
        header_end + 40,
        second_row + 1,
        whole_text.len() - 1,
    ] {
        std::fs::write(&cut_csv, &whole_text.as_bytes()[..cut]).unwrap();
        let output = several(&cut_csv, &["--resume"]);
        assert_eq!(output.status.code(), status, "{}", text(&output.stderr));
        assert_eq!(
            std::fs::read_to_string(&cut_csv).unwrap(),
            whole_text,
            "cut at byte {cut}"
        );
    }
}

#[test]
fn conversions_in_shards_merge_into_the_whole_run_not_n_times_it() {
    // Conversion units are not split by chunks: every shard runs them whole, and the merge
    // keeps one row instead of summing N copies.
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let mut args = vec!["--kind", "conversion", "--inputs", "500", "--csv"];
        args.push(path.to_str().unwrap());
        args.extend(extra);
        let output = clacc(&args);
        assert_judged(&output);
        path
    };
    let whole = run("whole.csv", &[]);
    let zero = run("s0.csv", &["--shard", "0/2"]);
    let one = run("s1.csv", &["--shard", "1/2"]);
    let merged = dir.path().join("merged.csv");
    assert_judged(&merge(&[&one, &zero], &merged));
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

#[test]
fn a_unit_that_judges_nothing_never_passes_whole_or_merged() {
    // Under -cl-fast-relaxed-math (finite math only) the spec leaves every result of `nan`
    // undefined: no input is judged, so the unit cannot pass. Whole, it is `skip` saying so;
    // in shards each row is a marked empty shard row, and the merge gives the whole run's row.
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let mut args = vec!["--profile", "relaxed", "--kind", "ulp", "--function", "nan"];
        args.extend([
            "--type", "float", "--width", "1", "--inputs", "1000", "--csv",
        ]);
        args.push(path.to_str().unwrap());
        args.extend(extra);
        let output = clacc(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        path
    };
    let whole = run("whole.csv", &[]);
    let results = Results::read(&whole);
    let row = &results.rows[0];
    assert_eq!(
        (results.cell(row, "inputs"), results.cell(row, "status")),
        ("0", "skip")
    );
    assert!(results.cell(row, "note").contains("undefined"), "{row:?}");
    let zero = run("s0.csv", &["--shard", "0/2"]);
    let one = run("s1.csv", &["--shard", "1/2"]);
    for shard in [&zero, &one] {
        let results = Results::read(shard);
        let row = &results.rows[0];
        assert!(
            results.cell(row, "note").contains("empty shard row"),
            "{row:?}"
        );
    }
    let merged = dir.path().join("merged.csv");
    assert_eq!(merge(&[&one, &zero], &merged).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

/// Runs clacc with `args` and stdout on /dev/full (`> /dev/full`); stderr as `stderr` says.
fn with_full_stdout(args: &[&str], stderr: Stdio) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .stdout(full)
        .stderr(stderr)
        .output()
        .unwrap()
}

/// A write error on stdout is not a panic (exit 101 and a backtrace); it is one line, exit 2.
#[test]
fn a_full_stdout_is_an_error_of_the_command_not_a_panic() {
    for (args, what) in [
        (&["devices"][..], "cannot write the device list to stdout"),
        (&["spec-diff"][..], "cannot write the table to stdout"),
        (&["--help"][..], "cannot write the help to stdout"),
        (
            &["certify", "--help"][..],
            "cannot write the help to stdout",
        ),
        (&["--version"][..], "cannot write the help to stdout"),
    ] {
        let output = with_full_stdout(args, Stdio::piped());
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_refused(&output, what);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// A run whose summary cannot be printed keeps its CSV whole and its own status: a passing run
/// exits 2 (as when --junit cannot be written), a failing one stays 1; with stderr closed too
/// the status is all that tells, and it still does.
#[test]
fn a_run_whose_summary_cannot_be_printed_keeps_its_csv_and_status() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("full.csv");
    let run: Vec<&str> = vec![
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
    ];
    let output = with_full_stdout(&run, Stdio::piped());
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("cannot write the summary to stdout")
            && stderr.contains("the CSV holds every result"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(Results::read(&csv).first("status"), "pass");

    // stderr closed as well (`2>&-`).
    std::fs::remove_file(&csv).unwrap();
    let closed = Command::new("sh")
        .arg("-c")
        .arg(r#"exec "$0" "$@" >/dev/full 2>&-"#)
        .arg(env!("CARGO_BIN_EXE_clacc"))
        .args(&run)
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(2));
    assert_eq!(Results::read(&csv).first("status"), "pass");

    // stderr full, stdout fine: the summary is printed and the run passes.
    let output = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(&run)
        .stderr(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output.stdout).contains("1 units: 1 passed"));

    // A failing run (its module crashes) stays 1.
    let module = assemble_text(dir.path(), "segv", SEGFAULTING_SIN);
    let kernel = format!("sin={}", module.display());
    let mut failing = run.clone();
    failing.extend(["--kernel", &kernel]);
    let output = with_full_stdout(&failing, Stdio::piped());
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("cannot write the summary"), "{stderr}");
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(Results::read(&csv).first("status"), "crash");
}

/// A CSV removed and made again while the run writes it took the rows that followed to the
/// removed file: the run stops at the next row, exit 2, saying so and which units were done.
#[test]
fn a_csv_replaced_during_the_run_stops_it_saying_where_the_rows_went() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("moving.csv");
    let child = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(["--kind", "ulp", "--function", "sin,cos,tan,exp"])
        .args(["--type", "float", "--width", "all", "--inputs", "200000"])
        .arg("--csv")
        .arg(&csv)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // The first group's rows (sin, every width), then three groups still to run.
    while std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 2 {
        assert!(started.elapsed() < Duration::from_secs(120), "no row");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::remove_file(&csv).unwrap();
    std::fs::write(&csv, "someone else's file\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write --csv {}", csv.display()))
            && stderr.contains("during the run, so the run stopped")
            && stderr.contains("ulp sin float w1")
            && stderr.contains("written nowhere"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "someone else's file\n",
        "the new file at the path is not the run's"
    );
}

/// `CLACC_OPENCL_RUNTIME` naming no runtime is refused, not ignored for whatever the loader
/// finds.
#[test]
fn a_runtime_folder_without_the_runtime_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    for (folder, problem) in [
        (missing.clone(), "no such folder".to_string()),
        (
            dir.path().to_path_buf(),
            format!("{}/lib/libintelocl.so does not exist", dir.path().display()),
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_clacc"))
            .arg("devices")
            .env("CLACC_OPENCL_RUNTIME", &folder)
            .output()
            .unwrap();
        assert_refused(
            &output,
            &format!("CLACC_OPENCL_RUNTIME={}: {problem}", folder.display()),
        );
        assert_eq!(text(&output.stderr).lines().count(), 1);
        assert!(output.stdout.is_empty());
    }
}

/// A 22-byte module that starts with the magic number is refused for its size, not for a magic
/// number it has.
#[test]
fn a_truncated_module_is_refused_for_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("short.spv");
    let mut bytes = 0x0723_0203u32.to_le_bytes().to_vec();
    bytes.resize(22, 0);
    std::fs::write(&module, &bytes).unwrap();
    let kernel = format!("sin={}", module.display());
    let csv = dir.path().join("k.csv");
    let mut args = own_kernel_unit("sin", &kernel);
    args.extend(["--csv", csv.to_str().unwrap()]);
    let output = clacc(&args);
    assert_refused(&output, "22 bytes is too short for a SPIR-V module");
    assert!(!text(&output.stderr).contains("magic"));
    assert!(!csv.exists());
}
