//! End-to-end tests of certification-scale runs on the real Intel device: sharding and merging,
//! resuming an interrupted run, and surviving a driver that crashes or hangs.

mod common;
use common::{clacc, own_kernel_unit, text, Results};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SELECTION: [&str; 8] = [
    "--function",
    "sin,pow,frexp,OpFDiv",
    "--type",
    "float,half",
    "--width",
    "1,3",
    "--inputs",
    "150000",
];

fn run_to(csv: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = SELECTION.to_vec();
    args.extend(["--csv", csv.to_str().unwrap()]);
    args.extend(extra);
    clacc(&args)
}

#[test]
fn shards_merge_into_exactly_the_unsharded_csv() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let output = run_to(&whole, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut shards: Vec<PathBuf> = Vec::new();
    for index in 0..3 {
        let path = dir.path().join(format!("shard{index}.csv"));
        let shard = format!("{index}/3");
        let output = run_to(&path, &["--shard", &shard]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        shards.push(path);
    }
    // A shard alone judges only part of each unit.
    let part = std::fs::read_to_string(&shards[1]).unwrap();
    assert_ne!(part, std::fs::read_to_string(&whole).unwrap());
    let merged = dir.path().join("merged.csv");
    let mut args = vec!["merge"];
    // Merge in another order than the shards were made: the result must not depend on it.
    for path in shards.iter().rev() {
        args.push(path.to_str().unwrap());
    }
    args.extend(["--csv", merged.to_str().unwrap()]);
    let output = clacc(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

/// One reference pass for all widths: every width of a function runs on the width-1 unit's
/// inputs, so a width's row is the same whichever other widths the run selects.
#[test]
fn a_widths_row_does_not_depend_on_the_other_widths_selected() {
    let dir = tempfile::tempdir().unwrap();
    let rows_of = |widths: &str| {
        let csv = dir
            .path()
            .join(format!("w{}.csv", widths.replace(',', "_")));
        let output = clacc(&[
            "--kind",
            "ulp",
            "--function",
            "sin,frexp,fclamp",
            "--type",
            "float",
            "--width",
            widths,
            "--inputs",
            "70000",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let measured = [
            "function",
            "width",
            "inputs",
            "failures",
            "max_ulp",
            "worst_input",
            "worst_device",
            "worst_index",
            "allowed",
            "undefined",
            "status",
        ];
        Results::read(&csv)
            .maps()
            .into_iter()
            .map(|row| measured.map(|column| row[column].clone()))
            .collect::<Vec<_>>()
    };
    let together = rows_of("1,3,16");
    assert_eq!(together.len(), 9);
    // The same inputs at every width: fclamp's undefined inputs (min > max) are as many.
    let undefined: Vec<&str> = together
        .iter()
        .filter(|row| row[0] == "fclamp")
        .map(|row| row[9].as_str())
        .collect();
    assert_eq!(undefined.len(), 3);
    assert_ne!(undefined[0], "0");
    assert!(
        undefined.iter().all(|count| *count == undefined[0]),
        "{undefined:?}"
    );
    for width in ["1", "3", "16"] {
        let alone = rows_of(width);
        let same: Vec<_> = together
            .iter()
            .filter(|row| row[1] == width)
            .cloned()
            .collect();
        assert_eq!(alone, same, "width {width}");
    }
}

#[test]
fn an_interrupted_run_resumes_into_the_uninterrupted_csv() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    assert_eq!(run_to(&whole, &[]).status.code(), Some(0));

    let interrupted = dir.path().join("interrupted.csv");
    let mut args: Vec<String> = SELECTION.iter().map(|s| s.to_string()).collect();
    args.extend([
        "--csv".to_string(),
        interrupted.to_str().unwrap().to_string(),
    ]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few units are written, before the end.
    let started = Instant::now();
    loop {
        let rows = std::fs::read_to_string(&interrupted)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if rows >= 4 || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = std::fs::read_to_string(&interrupted).unwrap();
    let total_rows = std::fs::read_to_string(&whole).unwrap().lines().count();
    assert!(
        kept.lines().count() < total_rows,
        "the run finished before it was killed"
    );
    // Every row written before the kill is a finished unit of the uninterrupted run.
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    for line in kept.lines().filter(|l| !l.is_empty()) {
        if kept.ends_with('\n') || !kept.ends_with(line) {
            assert!(whole_text.contains(line), "{line}");
        }
    }

    let output = run_to(&interrupted, &["--resume"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("already in"),
        "{}",
        text(&output.stdout)
    );
    assert_eq!(std::fs::read_to_string(&interrupted).unwrap(), whole_text);
}

/// Writes clacc's own sin module with an extra `OpExtension` the driver does not know: the
/// Intel driver calls exit(10) inside clBuildProgram on it (spirv-val accepts it).
fn crashing_module(dir: &Path) -> PathBuf {
    let emitted = dir.join("emitted");
    let output = clacc(&[
        "kernels",
        "--emit",
        emitted.to_str().unwrap(),
        "--function",
        "sin",
        "--type",
        "float",
        "--width",
        "1",
    ]);
    assert!(output.status.success());
    let bytes = std::fs::read(emitted.join("sin_float_w1_a64.spv")).unwrap();
    let mut loader = rspirv::dr::Loader::new();
    rspirv::binary::parse_bytes(&bytes, &mut loader).unwrap();
    let mut module = loader.module();
    module.extensions.push(rspirv::dr::Instruction::new(
        rspirv::spirv::Op::Extension,
        None,
        None,
        vec![rspirv::dr::Operand::LiteralString(
            "SPV_CLACC_not_a_real_extension".into(),
        )],
    ));
    let path = dir.join("crash.spv");
    let words = rspirv::binary::Assemble::assemble(&module);
    std::fs::write(&path, clacc::kernel::words_to_bytes(&words)).unwrap();
    path
}

#[test]
fn a_driver_crash_is_recorded_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let module = crashing_module(dir.path());
    let kernel = format!("sin={}", module.display());
    let csv = dir.path().join("crash.csv");
    let mut args = own_kernel_unit("sin,cos", &kernel);
    args.extend(["--csv", csv.to_str().unwrap()]);
    let output = clacc(&args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    let rows = &results.rows;
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (
            results.cell(&rows[0], "function"),
            results.cell(&rows[0], "status")
        ),
        ("sin", "crash")
    );
    assert!(
        results.cell(&rows[0], "note").contains("status 10"),
        "{:?}",
        &rows[0]
    );
    assert_eq!(
        (
            results.cell(&rows[1], "function"),
            results.cell(&rows[1], "status")
        ),
        ("cos", "pass")
    );
}

/// The libraries the dynamic loader reported loading in process `pid`, from `LD_DEBUG=files`
/// logs written to `dir/ld.PID`.
fn libraries_loaded(dir: &Path, pid: u32) -> String {
    std::fs::read_to_string(dir.join(format!("ld.{pid}"))).unwrap_or_default()
}

#[test]
fn an_isolated_runs_parent_never_loads_the_driver() {
    // The parent plans from the worker's description of the device: loading the Intel runtime
    // there too cost every run its start-up twice (a tenth of float fabs' host time).
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("isolated.csv");
    let logs = dir.path().join("ld");
    let child = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args([
            "--kind",
            "ulp",
            "--function",
            "fabs",
            "--type",
            "float",
            "--inputs",
            "1000",
        ])
        .args(["--csv", csv.to_str().unwrap()])
        .env("LD_DEBUG", "files")
        .env("LD_DEBUG_OUTPUT", &logs)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let parent = child.id();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let parents = libraries_loaded(dir.path(), parent);
    assert!(parents.contains("file="), "no loader log for the parent");
    assert!(!parents.contains("libOpenCL"), "{parents}");
    let workers: String = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|name| name.strip_prefix("ld.")?.parse::<u32>().ok())
        .filter(|pid| *pid != parent)
        .map(|pid| libraries_loaded(dir.path(), pid))
        .collect();
    assert!(workers.contains("libOpenCL"), "the worker opened no device");
    // Every width of the selection has its row.
    assert_eq!(Results::read(&csv).rows.len(), 6);
}

#[test]
fn a_hanging_unit_times_out_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // clacc's sin kernel turned into an endless loop of volatile stores.
    let bytes = {
        let emitted = dir.path().join("emitted");
        clacc(&[
            "kernels",
            "--emit",
            emitted.to_str().unwrap(),
            "--function",
            "sin",
            "--type",
            "float",
            "--width",
            "1",
        ]);
        std::fs::read(emitted.join("sin_float_w1_a64.spv")).unwrap()
    };
    let mut loader = rspirv::dr::Loader::new();
    rspirv::binary::parse_bytes(&bytes, &mut loader).unwrap();
    let module = loader.module();
    let mut builder = rspirv::dr::Builder::new_from_module(module);
    let function = builder.module_ref().functions.len() - 1;
    builder.select_function(Some(function)).unwrap();
    {
        let block = builder.module_mut().functions[function]
            .blocks
            .last_mut()
            .unwrap();
        let ret = block.instructions.pop().unwrap();
        assert_eq!(ret.class.opcode, rspirv::spirv::Op::Return);
        let store = block.instructions.pop().unwrap();
        let spin = 1000;
        block.instructions.push(rspirv::dr::Instruction::new(
            rspirv::spirv::Op::Branch,
            None,
            None,
            vec![rspirv::dr::Operand::IdRef(spin)],
        ));
        let mut volatile_store = store.clone();
        volatile_store.operands[2] = rspirv::dr::Operand::MemoryAccess(
            rspirv::spirv::MemoryAccess::VOLATILE | rspirv::spirv::MemoryAccess::ALIGNED,
        );
        let mut spin_block = rspirv::dr::Block::new();
        spin_block.label = Some(rspirv::dr::Instruction::new(
            rspirv::spirv::Op::Label,
            None,
            Some(spin),
            vec![],
        ));
        spin_block.instructions.push(volatile_store);
        spin_block.instructions.push(rspirv::dr::Instruction::new(
            rspirv::spirv::Op::Branch,
            None,
            None,
            vec![rspirv::dr::Operand::IdRef(spin)],
        ));
        builder.module_mut().functions[function]
            .blocks
            .push(spin_block);
    }
    let mut module = builder.module();
    module.header.as_mut().unwrap().bound = 1001;
    let path = dir.path().join("hang.spv");
    std::fs::write(
        &path,
        clacc::kernel::words_to_bytes(&rspirv::binary::Assemble::assemble(&module)),
    )
    .unwrap();
    let validation = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(validation.status.success(), "{}", text(&validation.stderr));

    let kernel = format!("sin={}", path.display());
    let csv = dir.path().join("hang.csv");
    let started = Instant::now();
    let mut args = own_kernel_unit("sin,cos", &kernel);
    args.extend(["--unit-timeout", "3", "--csv", csv.to_str().unwrap()]);
    let output = clacc(&args);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let results = Results::read(&csv);
    let rows = &results.rows;
    assert_eq!(
        (
            results.cell(&rows[0], "function"),
            results.cell(&rows[0], "status")
        ),
        ("sin", "timeout")
    );
    assert_eq!(
        (
            results.cell(&rows[1], "function"),
            results.cell(&rows[1], "status")
        ),
        ("cos", "pass")
    );
}

#[test]
fn a_module_spirv_val_refuses_never_reaches_the_driver() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.spv");
    // A valid header followed by garbage.
    let mut bytes = vec![
        0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0,
    ];
    bytes.extend([0xff; 8]);
    std::fs::write(&path, &bytes).unwrap();
    let kernel = format!("sin={}", path.display());
    let output = clacc(&["--kernel", &kernel, "--type", "float", "--width", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("spirv-val"),
        "{}",
        text(&output.stderr)
    );
    let output = clacc(&["--kernel", &kernel]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("exactly one --type and one --width"));
}

/// Extension probing by building, for devices that cannot be asked: each module is built in a
/// `clacc probe-build` process, so the Intel driver's exit(10) on an unknown extension ends
/// only that process, and the parent reads it as a crash.
#[test]
fn probe_builds_run_in_a_process_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let emitted = dir.path().join("emitted");
    clacc(&[
        "kernels",
        "--emit",
        emitted.to_str().unwrap(),
        "--function",
        "sin",
        "--type",
        "float",
        "--width",
        "1",
    ]);
    let good = clacc(&[
        "probe-build",
        "--name",
        "sin",
        emitted.join("sin_float_w1_a64.spv").to_str().unwrap(),
    ]);
    assert_eq!(good.status.code(), Some(0), "{}", text(&good.stdout));
    let crash = crashing_module(dir.path());
    let died = clacc(&["probe-build", "--name", "crash", crash.to_str().unwrap()]);
    assert!(
        !matches!(died.status.code(), Some(0) | Some(3)),
        "{:?}",
        died.status
    );
    assert!(clacc::run::isolate::describe_exit(died.status).contains("status 10"));
}
