//! The verdict corpus (`kernels/corpus/`): small SPIR-V modules and OpenCL C kernels that
//! implement one function the way a conforming device may, or with a defect a checker must
//! catch, each run through `clacc --kernel` on the real device. `kernels/corpus/corpus.csv` (the
//! SPIR-V modules) and `kernels/corpus/corpus_opencl_c.csv` (the OpenCL C kernels, on every
//! device that takes OpenCL C) give each run's options, the verdict clacc must give and a text
//! the unit's row must contain (the rule that decided). The tests fail on any false PASS or
//! false FAIL, and name every one.

mod common;
use common::{assemble_corpus, Results, INTEL_OPENCL_C, POCL};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Inputs per run: enough to meet every special value and a spread of random ones, few enough
/// to keep the suite fast.
const INPUTS: &str = "1500";

struct Entry {
    module: String,
    function: String,
    options: Vec<String>,
    must_pass: bool,
    expect: String,
    purpose: String,
}

/// The runs of the manifest `kernels/corpus/{file}`.
fn manifest(root: &Path, file: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(root.join("kernels/corpus").join(file))
        .unwrap_or_else(|e| panic!("read kernels/corpus/{file}: {e}"));
    let data: String = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut reader = csv::Reader::from_reader(data.as_bytes());
    reader
        .records()
        .map(|record| {
            let record = record.expect("a well-formed corpus row");
            let verdict = &record[3];
            assert!(
                verdict == "pass" || verdict == "fail",
                "{file}: verdict must be pass or fail, found {verdict}"
            );
            Entry {
                module: record[0].to_string(),
                function: record[1].to_string(),
                options: record[2].split_whitespace().map(str::to_string).collect(),
                must_pass: verdict == "pass",
                expect: record[4].to_string(),
                purpose: record[5].to_string(),
            }
        })
        .collect()
}

/// What a corpus's runs came to: every run whose verdict or deciding rule was not the one the
/// manifest states, each described in a line.
#[derive(Default)]
struct Verdicts {
    false_passes: Vec<String>,
    false_fails: Vec<String>,
    wrong_rule: Vec<String>,
}

impl Verdicts {
    /// Runs `entry` with the kernel `kernel` (a `.spv` or `.cl` file) and `device_args` (the
    /// flags that pick the device and path), writing `csv`, and files a wrong verdict or rule
    /// under the module's name and `device` (a suffix naming the device, or nothing).
    fn run(
        &mut self,
        root: &Path,
        entry: &Entry,
        kernel: &Path,
        device_args: &[&str],
        csv: &Path,
        device: &str,
    ) {
        let kernel = format!("{}={}", entry.function, kernel.display());
        let output = Command::new(env!("CARGO_BIN_EXE_clacc"))
            .current_dir(root)
            .args(device_args)
            .args(["--kernel", &kernel, "--function", &entry.function])
            .args(["--type", "float", "--width", "1", "--inputs", INPUTS])
            .args(&entry.options)
            .arg("--csv")
            .arg(csv)
            .output()
            .expect("run the clacc binary");
        let label = format!(
            "{}{} ({}, {}) {}",
            entry.module,
            device,
            entry.purpose,
            entry.options.join(" "),
            if entry.must_pass {
                "must pass"
            } else {
                "must fail"
            }
        );
        let code = output.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "{label}: clacc exited {code:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let results = Results::read(csv);
        let row = results.only_row();
        let field = |name: &str| results.cell(row, name).to_string();
        let status = field("status");
        // The exit status and the row agree, and say the same as the manifest.
        assert_eq!(
            code == Some(0),
            status == "pass",
            "{label}: exit {code:?} but status {status}"
        );
        match (entry.must_pass, status.as_str()) {
            (true, "pass") | (false, "fail") => {}
            (true, _) => self.false_fails.push(format!(
                "{label}: {status}, {} failures, worst {} -> {} ({})",
                field("failures"),
                field("worst_input"),
                field("worst_device"),
                field("note")
            )),
            (false, _) => self.false_passes.push(format!("{label}: {status}")),
        }
        let decided = format!(
            "{} | {} | {}",
            field("rule"),
            field("allowed"),
            field("note")
        );
        if !decided.contains(&entry.expect) {
            self.wrong_rule
                .push(format!("{label}: `{}` not in `{decided}`", entry.expect));
        }
    }

    /// Fails the test on any false PASS, false FAIL or wrong rule, naming each.
    fn assert_none(&self, runs: usize, modules: usize) {
        assert!(
            self.false_passes.is_empty()
                && self.false_fails.is_empty()
                && self.wrong_rule.is_empty(),
            "{runs} runs of {modules} modules: false PASS {}, false FAIL {}, wrong rule {}\n{}",
            self.false_passes.len(),
            self.false_fails.len(),
            self.wrong_rule.len(),
            self.false_passes
                .iter()
                .chain(&self.false_fails)
                .chain(&self.wrong_rule)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn assert_both_verdicts(entries: &[Entry]) {
    assert!(
        entries.iter().any(|e| e.must_pass) && entries.iter().any(|e| !e.must_pass),
        "the corpus needs both conforming and defective runs"
    );
}

#[test]
fn corpus_verdicts_have_no_false_pass_and_no_false_fail() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let entries = manifest(root, "corpus.csv");
    let dir = tempfile::tempdir().unwrap();
    let mut binaries: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut verdicts = Verdicts::default();
    for (number, entry) in entries.iter().enumerate() {
        let binary = binaries
            .entry(entry.module.clone())
            .or_insert_with(|| assemble_corpus(&entry.module, dir.path()))
            .clone();
        let csv = dir.path().join(format!("run{number}.csv"));
        verdicts.run(root, entry, &binary, &[], &csv, "");
    }
    assert!(
        binaries.len() >= 15,
        "the corpus should hold at least 15 modules, found {}",
        binaries.len()
    );
    assert_both_verdicts(&entries);
    verdicts.assert_none(entries.len(), binaries.len());
}

/// The devices that take OpenCL C, by the flags that pick them: the Intel runtime (clacc's
/// default device, which takes SPIR-V too) and PoCL (the system's ICD, OpenCL C only).
const OPENCL_C_DEVICES: [(&str, &[&str]); 2] = [("intel", &INTEL_OPENCL_C), ("pocl", &POCL)];

#[test]
fn opencl_c_corpus_verdicts_have_no_false_pass_and_no_false_fail_on_every_device() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let entries = manifest(root, "corpus_opencl_c.csv");
    let dir = tempfile::tempdir().unwrap();
    let modules: BTreeSet<&str> = entries.iter().map(|e| e.module.as_str()).collect();
    let mut verdicts = Verdicts::default();
    for (device, device_args) in OPENCL_C_DEVICES {
        for (number, entry) in entries.iter().enumerate() {
            let kernel = root.join(format!("kernels/corpus/{}.cl", entry.module));
            let csv = dir.path().join(format!("{device}{number}.csv"));
            verdicts.run(
                root,
                entry,
                &kernel,
                device_args,
                &csv,
                &format!(" on {device}"),
            );
        }
    }
    assert!(
        modules.len() >= 12,
        "the OpenCL C corpus should hold at least 12 kernels, found {}",
        modules.len()
    );
    assert_both_verdicts(&entries);
    verdicts.assert_none(entries.len() * OPENCL_C_DEVICES.len(), modules.len());
}
