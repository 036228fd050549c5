//! The verdict corpus (`kernels/corpus/`): small SPIR-V modules that implement one function the
//! way a conforming device may, or with a defect a checker must catch, each run through
//! `clacc --kernel` on the real device. `kernels/corpus/corpus.csv` gives each run's options,
//! the verdict clacc must give and a text the unit's row must contain (the rule that decided).
//! The test fails on any false PASS or false FAIL, and names every one.

mod common;
use common::{assemble_corpus, Results};

use std::collections::BTreeMap;
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

fn manifest(root: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(root.join("kernels/corpus/corpus.csv"))
        .expect("read kernels/corpus/corpus.csv");
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
                "corpus.csv: verdict must be pass or fail, found {verdict}"
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

#[test]
fn corpus_verdicts_have_no_false_pass_and_no_false_fail() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let entries = manifest(root);
    let dir = tempfile::tempdir().unwrap();
    let mut binaries: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut false_passes = Vec::new();
    let mut false_fails = Vec::new();
    let mut wrong_rule = Vec::new();
    for (number, entry) in entries.iter().enumerate() {
        let binary = binaries
            .entry(entry.module.clone())
            .or_insert_with(|| assemble_corpus(&entry.module, dir.path()))
            .clone();
        let csv = dir.path().join(format!("run{number}.csv"));
        let kernel = format!("{}={}", entry.function, binary.display());
        let output = Command::new(env!("CARGO_BIN_EXE_clacc"))
            .current_dir(root)
            .args(["--kernel", &kernel, "--function", &entry.function])
            .args(["--type", "float", "--width", "1", "--inputs", INPUTS])
            .args(&entry.options)
            .arg("--csv")
            .arg(&csv)
            .output()
            .expect("run the clacc binary");
        let label = format!(
            "{} ({}, {}) {}",
            entry.module,
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
        let results = Results::read(&csv);
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
            (true, _) => false_fails.push(format!(
                "{label}: {status}, {} failures, worst {} -> {} ({})",
                field("failures"),
                field("worst_input"),
                field("worst_device"),
                field("note")
            )),
            (false, _) => false_passes.push(format!("{label}: {status}")),
        }
        let decided = format!(
            "{} | {} | {}",
            field("rule"),
            field("allowed"),
            field("note")
        );
        if !decided.contains(&entry.expect) {
            wrong_rule.push(format!("{label}: `{}` not in `{decided}`", entry.expect));
        }
    }
    assert!(
        binaries.len() >= 15,
        "the corpus should hold at least 15 modules, found {}",
        binaries.len()
    );
    assert!(
        entries.iter().any(|e| e.must_pass) && entries.iter().any(|e| !e.must_pass),
        "the corpus needs both conforming and defective runs"
    );
    assert!(
        false_passes.is_empty() && false_fails.is_empty() && wrong_rule.is_empty(),
        "{} runs of {} modules: false PASS {}, false FAIL {}, wrong rule {}\n{}",
        entries.len(),
        binaries.len(),
        false_passes.len(),
        false_fails.len(),
        wrong_rule.len(),
        false_passes
            .iter()
            .chain(&false_fails)
            .chain(&wrong_rule)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
