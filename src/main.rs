//! The clacc command line: everything it does is in `clacc::face`. Exit codes: 0 every unit
//! passed (or was skipped), 1 a unit failed or could not be measured, 2 a usage or environment
//! error.

use clacc::face;
use std::process::ExitCode;

// Chunk loops free and re-make columns of hundreds of KiB; glibc hands them back to the OS and
// faults them in again, mimalloc keeps them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Like other command-line tools, end quietly when a reader of our output goes away
    // (`clacc devices | head -1`) instead of panicking on the broken pipe.
    // SAFETY: setting a signal disposition before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    face::reexec_with_local_runtime();
    let outcome = face::args::parse()
        .map_err(face::UsageError::from)
        .and_then(|cli| face::dispatch(&cli));
    face::exit_code(outcome)
}
