//! What the pure checks share: the files they read and the module each source file is. Each
//! check uses what it needs of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every file under `dir` whose extension is `extension`, recursively.
pub fn files_with_extension(dir: &Path, extension: &str, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_with_extension(&path, extension, files);
        } else if path.extension().is_some_and(|e| e == extension) {
            files.push(path);
        }
    }
}

/// Every Rust source file under `dir`.
pub fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    files_with_extension(dir, "rs", files);
}

/// The module path of a source file: `src/run/conversion/mod.rs` → `["run", "conversion"]`,
/// `src/lib.rs` → `[]`, `src/main.rs` → `["main"]`.
pub fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}
