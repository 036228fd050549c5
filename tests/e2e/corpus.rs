//! The verdict corpus (`kernels/corpus/`): small SPIR-V modules and OpenCL C kernels that
//! implement one function the way a conforming device may, or with a defect a checker must
//! catch, each run through `clacc --kernel` on the real device. `kernels/corpus/corpus.csv` (the
//! SPIR-V modules) and `kernels/corpus/corpus_opencl_c.csv` (the OpenCL C kernels, on every
//! device that takes OpenCL C) give each run's options, the verdict clacc must give and a text
//! the unit's row must contain (the rule that decided). The tests fail on any false PASS or
//! false FAIL, and name every one.

mod common;
use common::corpus::{assert_both_verdicts, manifest, Verdicts};
use common::{assemble_corpus, INTEL_OPENCL_C, POCL};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
