//! What every end-to-end test file needs: running the clacc binary, reading the CSV it wrote
//! by column name, and assembling SPIR-V modules of known behaviour as a user would.
// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository: kernels/, tables/ and the corpus are read from here.
pub fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the clacc binary built for these tests with `args`, waiting for it to finish.
pub fn clacc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .output()
        .expect("run the clacc binary")
}

/// A process's output as text (lossy: a driver may print anything).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The one-line refusal of bad input: exit 2 and an error line containing `wanted`.
pub fn assert_refused(output: &Output, wanted: &str) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(wanted), "expected `{wanted}` in: {stderr}");
}

/// A results CSV read whole; cells are found by column name, as every reader of clacc's CSV
/// should (columns are only ever added).
pub struct Results {
    pub header: Vec<String>,
    pub rows: Vec<csv::StringRecord>,
}

impl Results {
    pub fn read(path: &Path) -> Results {
        let mut reader = csv::Reader::from_path(path)
            .unwrap_or_else(|e| panic!("open the CSV {}: {e}", path.display()));
        let header = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader.records().map(|r| r.unwrap()).collect();
        Results { header, rows }
    }

    pub fn column(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    /// `row`'s cell in column `name`.
    pub fn cell<'a>(&self, row: &'a csv::StringRecord, name: &str) -> &'a str {
        &row[self.column(name)]
    }

    /// Every row as column name → cell.
    pub fn maps(&self) -> Vec<HashMap<String, String>> {
        self.rows
            .iter()
            .map(|row| {
                self.header
                    .iter()
                    .cloned()
                    .zip(row.iter().map(str::to_string))
                    .collect()
            })
            .collect()
    }

    /// The first row's cell in column `name` (a run of one unit).
    pub fn first(&self, name: &str) -> &str {
        self.cell(&self.rows[0], name)
    }

    /// The row of a run that must have exactly one unit.
    pub fn only_row(&self) -> &csv::StringRecord {
        assert_eq!(self.rows.len(), 1, "one unit expected: {:?}", self.rows);
        &self.rows[0]
    }
}

/// Assembles `source` (a `.spvasm` file) into `binary` as a user would: `spirv-as
/// --target-env spv1.0`.
pub fn assemble_file(source: &Path, binary: &Path) {
    let output = Command::new("spirv-as")
        .args(["--target-env", "spv1.0"])
        .arg(source)
        .arg("-o")
        .arg(binary)
        .output()
        .expect("spirv-as is installed by scripts/setup");
    assert!(
        output.status.success(),
        "spirv-as refused {}: {}",
        source.display(),
        text(&output.stderr)
    );
}

/// Assembles `kernels/corpus/{module}.spvasm` into `out_dir/{module}.spv`.
pub fn assemble_corpus(module: &str, out_dir: &Path) -> PathBuf {
    let binary = out_dir.join(format!("{module}.spv"));
    assemble_file(
        &repository().join(format!("kernels/corpus/{module}.spvasm")),
        &binary,
    );
    binary
}

/// Assembles the module text `source` into `dir/{name}.spv`.
pub fn assemble_text(dir: &Path, name: &str, source: &str) -> PathBuf {
    let source_path = dir.join(format!("{name}.spvasm"));
    let binary = dir.join(format!("{name}.spv"));
    std::fs::write(&source_path, source).unwrap();
    assemble_file(&source_path, &binary);
    binary
}
