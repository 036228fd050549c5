//! What every end-to-end test file needs: running the clacc binary and reading its output.
// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::process::{Command, Output};

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
