//! The Vulkan verdict corpus (`kernels/corpus/vulkan/`): hand-written compute shaders that
//! implement one function the way a conforming Vulkan device may (at the Vulkan table's bound,
//! either rounding neighbour, an inherited formula evaluated literally) or just past that bound,
//! each run through `clacc --kernel FUNCTION=FILE --source vulkan` on lavapipe and judged by the
//! Vulkan table. `kernels/corpus/vulkan/corpus.csv` gives each run's options, the verdict clacc
//! must give and a text the unit's row must contain. The test fails on any false PASS or false
//! FAIL, and names every one.

mod common;
use common::corpus::{assert_both_verdicts, manifest, Verdicts};
use common::{assemble_file_for, repository};

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The flags that pick lavapipe and the vulkan path.
const LAVAPIPE: [&str; 6] = [
    "--platform",
    "vulkan",
    "--device",
    "llvmpipe",
    "--source",
    "vulkan",
];

#[test]
fn vulkan_corpus_verdicts_have_no_false_pass_and_no_false_fail_on_lavapipe() {
    let root = repository();
    let entries = manifest(root, "vulkan/corpus.csv");
    let dir = tempfile::tempdir().unwrap();
    let mut binaries: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut verdicts = Verdicts::default();
    for (number, entry) in entries.iter().enumerate() {
        let binary = binaries
            .entry(entry.module.clone())
            .or_insert_with(|| {
                let binary = dir.path().join(format!("{}.spv", entry.module));
                let source = root.join(format!("kernels/corpus/vulkan/{}.spvasm", entry.module));
                assemble_file_for(&source, &binary, "vulkan1.3");
                binary
            })
            .clone();
        let csv = dir.path().join(format!("run{number}.csv"));
        verdicts.run(root, entry, &binary, &LAVAPIPE, &csv, " on lavapipe");
    }
    assert_eq!(binaries.len(), 16, "the Vulkan corpus holds 16 shaders");
    assert_both_verdicts(&entries);
    verdicts.assert_none(entries.len(), binaries.len());
}
