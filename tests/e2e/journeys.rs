//! The workflows README.md and docs/ document, each run as a user runs it (on a reduced input
//! count):
//! `clacc certify` to its VERDICT line, killed and resumed, sharded as the Slurm recipe shards
//! it and merged; a run with --junit and --plot interrupted and resumed; `kernels --emit` with
//! the default selection; `devices`. `compare` has its journeys in compare.rs, a user's own
//! module in reports.rs.

mod common;
use common::{clacc, taylor_sin, text, Results};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Inputs per unit of the certifications here: every unit still builds and runs its kernel.
const CERTIFY_INPUTS: &str = "16";

/// `clacc certify --inputs 16 --csv CSV` plus `extra`.
fn certify(csv: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clacc"));
    command
        .args(["certify", "--inputs", CERTIFY_INPUTS, "--csv"])
        .arg(csv)
        .args(extra);
    command
}

/// The rows whose status is neither pass nor skip.
fn not_passing(results: &Results) -> usize {
    results
        .rows
        .iter()
        .filter(|row| !matches!(results.cell(row, "status"), "pass" | "skip"))
        .count()
}

/// The VERDICT line's claims checked against the CSV it names: PASS exactly when every row
/// passed or does not apply, the unit counts the CSV's, and the exit status the verdict's.
fn assert_verdict_matches_csv(output: &Output, csv: &Path) -> Results {
    let stdout = text(&output.stdout);
    let verdict = stdout
        .lines()
        .find(|line| line.starts_with("VERDICT: "))
        .unwrap_or_else(|| {
            panic!(
                "no VERDICT line (exit {:?}):\n{stdout}\n{}",
                output.status.code(),
                text(&output.stderr)
            )
        });
    let results = Results::read(csv);
    let failing = not_passing(&results);
    let rows = results.rows.len();
    if failing == 0 {
        assert!(
            verdict.starts_with(&format!("VERDICT: PASS — all {rows} units in ")),
            "{verdict}"
        );
        assert_eq!(output.status.code(), Some(0), "{verdict}");
    } else {
        assert!(
            verdict.starts_with(&format!("VERDICT: FAIL — {failing} of {rows} units in ")),
            "{verdict}"
        );
        assert_eq!(output.status.code(), Some(1), "{verdict}");
    }
    // Every row records the whole certification's plan, which the CSV holds whole.
    for row in &results.rows {
        assert_eq!(results.cell(row, "planned_units"), rows.to_string());
    }
    results
}

/// Starts `command` quietly and kills it (SIGKILL: no handler, no flush) once `csv` holds
/// `rows` lines.
fn kill_after_rows(mut command: Command, csv: &Path, rows: usize) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(csv).map_or(0, |t| t.lines().count()) < rows
        && started.elapsed() < Duration::from_secs(600)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn certify_reaches_its_verdict_and_its_shards_killed_resumed_and_merged_give_the_same_csv() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("certification.csv");
    let junit = dir.path().join("certification.xml");
    // The Slurm recipe's tasks (--shard I/2 --resume from the start), run beside the whole
    // certification; the second is killed early in its first part and then resumed.
    let results_dir = dir.path().join("results");
    std::fs::create_dir(&results_dir).unwrap();
    let shard_csv = |index: usize| results_dir.join(format!("shard-{index}.csv"));
    let shard_args = |index: usize| format!("{index}/2");
    let first_shard = {
        let csv = shard_csv(0);
        let shard = shard_args(0);
        std::thread::spawn(move || {
            certify(&csv, &["--shard", &shard, "--resume"])
                .output()
                .unwrap()
        })
    };
    let second_shard = {
        let csv = shard_csv(1);
        let shard = shard_args(1);
        std::thread::spawn(move || {
            kill_after_rows(certify(&csv, &["--shard", &shard, "--resume"]), &csv, 40);
            let killed_rows = Results::read(&csv).rows.len();
            let resumed = certify(&csv, &["--shard", &shard, "--resume"])
                .output()
                .unwrap();
            (killed_rows, resumed)
        })
    };

    let output = certify(&whole, &["--junit", junit.to_str().unwrap()])
        .output()
        .unwrap();
    let results = assert_verdict_matches_csv(&output, &whole);
    // Every part is there: the device's profile, Table 5, and the edge cases.
    let profiles: std::collections::BTreeSet<&str> = results
        .rows
        .iter()
        .map(|row| results.cell(row, "profile"))
        .collect();
    assert!(profiles.contains("relaxed"), "{profiles:?}");
    for kind in ["ulp", "edge", "conversion", "extension"] {
        assert!(
            results
                .rows
                .iter()
                .any(|row| results.cell(row, "kind") == kind),
            "no {kind} rows"
        );
    }
    // Intel takes SPIR-V: every unit through both paths, the SPIR-V extensions through SPIR-V
    // alone, and the verdict says so.
    let unit_of = |row: &csv::StringRecord, path: &str| -> Option<String> {
        (results.cell(row, "path") == path).then(|| {
            [
                "kind",
                "function",
                "type",
                "width",
                "profile",
                "build_options",
            ]
            .map(|column| results.cell(row, column))
            .join(" ")
        })
    };
    let through = |path: &str| -> std::collections::BTreeSet<String> {
        results
            .rows
            .iter()
            .filter_map(|row| unit_of(row, path))
            .collect()
    };
    let (spirv, opencl_c) = (through("spirv"), through("opencl-c"));
    let spirv_only: Vec<&String> = spirv.difference(&opencl_c).collect();
    assert!(
        spirv_only.iter().all(|unit| unit.starts_with("extension ")),
        "{spirv_only:?}"
    );
    // The OpenCL C text alone gives half_ functions their base function's edge rules, so
    // half_powr has edge units on that path only (docs/spec-revisions.md).
    let opencl_c_only: Vec<&String> = opencl_c.difference(&spirv).collect();
    assert!(
        !opencl_c.is_empty()
            && !opencl_c_only.is_empty()
            && opencl_c_only
                .iter()
                .all(|unit| unit.starts_with("edge half_powr ")),
        "{opencl_c_only:?}"
    );
    assert_eq!(spirv.len() + opencl_c.len(), results.rows.len());
    assert!(
        text(&output.stdout).contains("; kernels through both paths, SPIR-V and OpenCL C"),
        "{}",
        text(&output.stdout)
    );
    // JUnit: a testcase per CSV row, the failures and errors the CSV's.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let root = document.root_element();
    let count = |name: &str| -> usize { root.attribute(name).unwrap().parse().unwrap() };
    assert_eq!(count("tests"), results.rows.len());
    assert_eq!(count("failures") + count("errors"), not_passing(&results));
    // Each test case names its path, both paths being there.
    assert!(document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .all(|case| {
            let name = case.attribute("name").unwrap();
            name.ends_with(" (spirv)") || name.ends_with(" (opencl-c)")
        }));

    let first = first_shard.join().unwrap();
    assert_verdict_matches_csv(&first, &shard_csv(0));
    let (killed_rows, resumed) = second_shard.join().unwrap();
    assert!(
        killed_rows < results.rows.len(),
        "the kill came after the shard finished"
    );
    assert_verdict_matches_csv(&resumed, &shard_csv(1));

    let merged = dir.path().join("merged.csv");
    let merge = clacc(&[
        "merge",
        shard_csv(0).to_str().unwrap(),
        shard_csv(1).to_str().unwrap(),
        "--csv",
        merged.to_str().unwrap(),
    ]);
    assert!(
        matches!(merge.status.code(), Some(0 | 1)),
        "{}",
        text(&merge.stderr)
    );
    assert_eq!(merge.status.code(), output.status.code());
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "the merged shards differ from the whole certification"
    );
}

#[test]
fn certify_takes_no_selection() {
    for flag in [
        "--function",
        "--type",
        "--width",
        "--kind",
        "--profile",
        "--source",
    ] {
        let output = clacc(&["certify", flag, "sin"]);
        assert_eq!(output.status.code(), Some(2), "{flag}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(flag), "{flag}: {stderr}");
    }
    let help = text(&clacc(&["certify", "--help"]).stdout);
    let offers = |flag: &str| help.lines().any(|line| line.trim_start().starts_with(flag));
    for flag in [
        "--function",
        "--type",
        "--width",
        "--kind",
        "--profile",
        "--source",
    ] {
        assert!(!offers(flag), "certify --help offers {flag}:\n{help}");
    }
    assert!(offers("--resume") && offers("--shard"));
}

#[test]
fn junit_after_resume_has_a_testcase_per_csv_row_and_plots_say_what_they_lack() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = format!("sin={}", taylor_sin(dir.path()).display());
    let csv = dir.path().join("run.csv");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--kind",
            "ulp",
            "--function",
            "sin,cos,exp",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "2000",
            "--kernel",
            &kernel,
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        clacc(&args)
    };
    assert_eq!(run(&[]).status.code(), Some(1));
    let whole = std::fs::read_to_string(&csv).unwrap();
    // Interrupted after the failing unit (the user's poor sin) was written: what a kill leaves
    // (faults.rs shows a kill at any byte resumes the same way).
    let mut lines: Vec<&str> = whole.lines().collect();
    let sin_line = lines
        .iter()
        .position(|line| line.starts_with("sin,"))
        .unwrap();
    lines.truncate(sin_line + 1);
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();

    let junit = dir.path().join("run.xml");
    let plots = dir.path().join("plots");
    let resumed = run(&[
        "--resume",
        "--junit",
        junit.to_str().unwrap(),
        "--plot",
        plots.to_str().unwrap(),
    ]);
    // The failure kept from the first run still fails the run.
    assert_eq!(resumed.status.code(), Some(1), "{}", text(&resumed.stderr));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), whole);
    let results = Results::read(&csv);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let root = document.root_element();
    assert_eq!(root.attribute("tests"), Some("3"));
    assert_eq!(root.attribute("failures"), Some("1"));
    let names: Vec<&str> = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| n.attribute("name").unwrap())
        .collect();
    let rows: Vec<String> = results
        .rows
        .iter()
        .map(|row| {
            format!(
                "{} {} w{}",
                results.cell(row, "function"),
                results.cell(row, "type"),
                results.cell(row, "width")
            )
        })
        .collect();
    assert_eq!(names, rows);
    let failure = document
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(
        failure.parent().unwrap().attribute("name"),
        Some("sin float w1")
    );
    let message = failure.attribute("message").unwrap();
    assert!(
        message.contains(&format!(
            "worst input {}",
            results.cell(&results.rows[sin_line - 1], "worst_input")
        )),
        "{message}"
    );
    // Plots come from the units run now; the summary says the kept one has none.
    let drawn = std::fs::read_dir(&plots).unwrap().count();
    assert_eq!(drawn, 2);
    assert!(text(&resumed.stdout).contains("have no plot"));
}

#[test]
fn kernels_emit_writes_every_module_of_the_default_selection_and_spirv_val_takes_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kernels");
    let output = clacc(&["kernels", "--emit", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let written: usize = stdout
        .strip_prefix("wrote ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    let mut modules: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "spv"))
        .collect();
    modules.sort();
    assert_eq!(modules.len(), written);
    for module in &modules {
        assert!(module.with_extension("spvasm").is_file());
    }
    // The geometric instructions at their own widths only.
    let name = |path: &PathBuf| path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(!modules
        .iter()
        .any(|m| name(m).starts_with("cross_float_w2_")));
    assert!(modules
        .iter()
        .any(|m| name(m).starts_with("cross_float_w3_")));
    assert!(!modules
        .iter()
        .any(|m| name(m).starts_with("length_float_w8_")));
    // spirv-val on every module of one type and on every geometric one (every shape).
    for module in modules.iter().filter(|m| {
        let name = name(m);
        name.contains("_float_")
            || ["length", "distance", "normalize", "cross", "dot"]
                .iter()
                .any(|g| name.starts_with(g))
    }) {
        // The OpenCL 2.2 environment refuses Float16: half modules against plain SPIR-V 1.0.
        let target_env = if name(module).contains("_half_") {
            "spv1.0"
        } else {
            "opencl2.2"
        };
        let validated = Command::new("spirv-val")
            .args(["--target-env", target_env])
            .arg(module)
            .output()
            .unwrap();
        assert!(
            validated.status.success(),
            "{}: {}",
            module.display(),
            text(&validated.stderr)
        );
    }
}

#[test]
fn devices_lists_every_platform_and_which_device_clacc_can_use() {
    let output = clacc(&["devices"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    for platform in ["Intel(R) OpenCL", "rusticl", "Portable Computing Language"] {
        assert!(stdout.contains(platform), "{platform} missing:\n{stdout}");
    }
    assert!(stdout.contains("usable"), "{stdout}");
}

/// `--kind ulp --function sin,cos --type float --width 1,2 --inputs 2000000 --csv CSV` plus
/// `extra`: units long enough to be caught running.
fn long_units(csv: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clacc"));
    command
        .args([
            "--kind",
            "ulp",
            "--function",
            "sin,cos",
            "--type",
            "float",
            "--width",
            "1,2",
            "--inputs",
            "2000000",
            "--csv",
        ])
        .arg(csv)
        .args(extra);
    command
}

#[test]
fn a_unit_whose_worker_died_runs_again_with_retry_failed() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let output = long_units(&whole, &[]).output().unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)));

    // A worker killed from outside while it runs the units (a driver that died once): its unit
    // is a crash row. The run has written the CSV's header once its plan is made (the worker
    // has described the device by then).
    let csv = dir.path().join("crashed.csv");
    let mut run = long_units(&csv, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let killed = loop {
        let children = Command::new("pgrep")
            .args(["-P", &run.id().to_string()])
            .output()
            .unwrap();
        let worker = text(&children.stdout);
        if let Some(worker) = worker.split_whitespace().next().filter(|_| csv.exists()) {
            break Command::new("kill")
                .args(["-9", worker])
                .status()
                .unwrap()
                .success();
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no worker");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(killed);
    assert_eq!(run.wait().unwrap().code(), Some(1));
    let crashed = Results::read(&csv);
    assert!(crashed
        .rows
        .iter()
        .any(|row| crashed.cell(row, "status") == "crash"));

    // --resume keeps the crash; --retry-failed runs it again, into the uninterrupted CSV.
    assert_eq!(
        long_units(&csv, &["--resume"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(1)
    );
    let refused = long_units(&csv, &["--retry-failed"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("--resume"));
    let retried = long_units(&csv, &["--resume", "--retry-failed"])
        .output()
        .unwrap();
    assert_eq!(retried.status.code(), output.status.code());
    let mut retried_rows = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>();
    let mut whole_rows = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect::<Vec<_>>();
    // The retried unit's row comes last: the same rows, in another order.
    retried_rows.sort();
    whole_rows.sort();
    assert_eq!(retried_rows, whole_rows);
}

#[test]
fn resume_refuses_the_rows_of_another_selection_of_as_many_units() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("run.csv");
    let run = |function: &str, extra: &[&str]| {
        let mut args = vec![
            "--kind",
            "ulp",
            "--function",
            function,
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "64",
            "--csv",
        ];
        args.push(csv.to_str().unwrap());
        args.extend_from_slice(extra);
        clacc(&args)
    };
    assert!(matches!(run("sin", &[]).status.code(), Some(0 | 1)));
    let refused = run("cos", &["--resume"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("another selection"),
        "{}",
        text(&refused.stderr)
    );
}

/// Conversion and extension rows record the profile the run judges by (`--profile`), as every
/// other row does, so a resumed run knows them: on this full-profile device, `--profile
/// embedded` rows said `full` and ran again (or were refused) at every `--resume`.
#[test]
fn conversion_rows_record_the_runs_profile_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("embedded.csv");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--profile",
            "embedded",
            "--kind",
            "conversion,ulp",
            "--function",
            "convert_float_to_half_rte,sin",
            "--type",
            "float",
            "--width",
            "1",
            "--inputs",
            "16",
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        clacc(&args)
    };
    let first = run(&[]);
    assert!(
        matches!(first.status.code(), Some(0 | 1)),
        "{}",
        text(&first.stderr)
    );
    let written = std::fs::read_to_string(&csv).unwrap();
    let results = Results::read(&csv);
    assert_eq!(results.rows.len(), 2);
    for row in &results.rows {
        assert_eq!(results.cell(row, "profile"), "embedded", "{row:?}");
    }
    let resumed = run(&["--resume"]);
    assert_eq!(
        resumed.status.code(),
        first.status.code(),
        "{}",
        text(&resumed.stderr)
    );
    assert!(text(&resumed.stdout).contains("2 units were already in"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), written);
}
