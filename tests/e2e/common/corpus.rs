//! The verdict corpora's manifests and their runs, shared by the OpenCL corpus
//! (`tests/e2e/corpus.rs`) and the Vulkan one (`tests/e2e/corpus_vulkan.rs`): each manifest row
//! runs one kernel through `clacc --kernel` on a real device and states the verdict clacc must
//! give and a text the unit's row must contain (the rule that decided).

use std::path::Path;
use std::process::Command;

use super::Results;

/// Inputs per run: enough to meet every special value and a spread of random ones, few enough
/// to keep the suite fast.
const INPUTS: &str = "1500";

pub struct Entry {
    pub module: String,
    pub function: String,
    pub options: Vec<String>,
    pub must_pass: bool,
    pub expect: String,
    pub purpose: String,
}

/// The runs of the manifest `kernels/corpus/{file}`.
pub fn manifest(root: &Path, file: &str) -> Vec<Entry> {
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
pub struct Verdicts {
    false_passes: Vec<String>,
    false_fails: Vec<String>,
    wrong_rule: Vec<String>,
}

impl Verdicts {
    /// Runs `entry` with the kernel `kernel` (a `.spv` or `.cl` file) and `device_args` (the
    /// flags that pick the device and path), writing `csv`, and files a wrong verdict or rule
    /// under the module's name and `device` (a suffix naming the device, or nothing).
    pub fn run(
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
    pub fn assert_none(&self, runs: usize, modules: usize) {
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

pub fn assert_both_verdicts(entries: &[Entry]) {
    assert!(
        entries.iter().any(|e| e.must_pass) && entries.iter().any(|e| !e.must_pass),
        "the corpus needs both conforming and defective runs"
    );
}
