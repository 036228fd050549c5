//! What clacc prints: results and summaries on stdout, notes and errors on stderr. `print!` and
//! `eprintln!` panic when a write fails (`> /dev/full`, a full disk); these never do. A reader
//! that goes away (`clacc devices | head -1`) still ends the process quietly: SIGPIPE keeps its
//! default action (main.rs), so the write never returns.

use super::UsageError;
use std::fmt::Display;
use std::io::Write;

/// Writes `text`, which is `what` (`the summary`), to stdout and flushes it; a failed write is
/// an error of the command that says what was not printed.
pub(crate) fn out(what: &str, text: &str) -> Result<(), UsageError> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|error| UsageError(format!("cannot write {what} to stdout: {error}")))
}

/// [`out`] with a newline.
pub(crate) fn out_line(what: &str, line: impl Display) -> Result<(), UsageError> {
    out(what, &format!("{line}\n"))
}

/// Writes one line to stderr. stderr is where clacc reports what went wrong, so a line that
/// cannot be written there has nowhere else to go: it is dropped, and the exit status still
/// tells what happened.
pub(crate) fn err_line(line: impl Display) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}").and_then(|()| stderr.flush());
}
