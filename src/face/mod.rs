//! The command line: the only code that knows clap, indicatif and exit codes. It parses the
//! flags, turns them into the library's settings, drives the library, prints what it returns
//! and adds the context of the flag to its typed errors. Exit codes: 0 every unit passed (or was
//! skipped), 1 a unit failed or could not be measured, 2 a usage or environment error.

pub mod args;
mod certify;
mod compare;
mod console;
mod destinations;
mod devices;
mod kernels;
mod merge;
mod run;
mod selection;
mod user_kernels;

use crate::device::opencl::runtime;
use crate::run::campaign;
use args::{BadName, Cli, Command};
use std::process::ExitCode;

/// A usage or environment error: one line, exit 2.
pub struct UsageError(pub(crate) String);

pub(crate) fn usage<T>(message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(message.into()))
}

impl From<BadName> for UsageError {
    fn from(bad: BadName) -> Self {
        UsageError(bad.0)
    }
}

/// The library's errors say which file or flag and what to do: the face prints them as they
/// are, adding context where the flag is its own.
macro_rules! usage_from {
    ($($error:ty),*) => {
        $(impl From<$error> for UsageError {
            fn from(error: $error) -> Self {
                UsageError(error.to_string())
            }
        })*
    };
}

usage_from!(
    crate::report::compare::CompareError,
    crate::report::merge::MergeError,
    crate::device::DeviceError
);

/// Re-executes clacc with the local OpenCL runtimes' variables set (see
/// [`runtime::reexec_with_local_runtime`]). A variable that names no runtime is an environment
/// error; when only the exec fails clacc goes on, with a note.
pub fn reexec_with_local_runtime() -> Result<(), UsageError> {
    match runtime::reexec_with_local_runtime() {
        Ok(()) => Ok(()),
        Err(error @ runtime::ReexecError::NoRuntime { .. }) => usage(error.to_string()),
        Err(error @ runtime::ReexecError::Exec(_)) => {
            console::err_line(format!("clacc: note: {error}"));
            Ok(())
        }
    }
}

/// Runs the command the line names.
pub fn dispatch(cli: &Cli) -> Result<ExitCode, UsageError> {
    match &cli.command {
        Some(Command::Devices) => devices::print_devices(),
        Some(Command::Kernels(args)) => kernels::emit_kernels(args),
        Some(Command::Merge(args)) => merge::merge_csvs(args),
        Some(Command::Compare(args)) => compare::compare_csvs(args),
        Some(Command::SpecDiff { from, to, markdown }) => {
            compare::spec_diff(from.path(), to.path(), *markdown)
        }
        Some(Command::Certify(args)) => certify::certify(args.as_ref()),
        Some(Command::ProbeBuild {
            device,
            module,
            name,
            options,
        }) => devices::probe_build(device, module, name, options),
        Some(Command::Worker) => match campaign::serve_worker(&run::print_refused) {
            Ok(campaign::WorkerEnd::Done) => Ok(ExitCode::SUCCESS),
            // The parent prints why, as the run's one error line.
            Ok(campaign::WorkerEnd::DeviceRefused) => Ok(ExitCode::from(2)),
            Err(error) => Err(UsageError(error.to_string())),
        },
        None => run::run_checks(&cli.run),
    }
}

/// The process's exit code; a usage or environment error is printed as its one line.
pub fn exit_code(outcome: Result<ExitCode, UsageError>) -> ExitCode {
    match outcome {
        Ok(code) => code,
        Err(UsageError(message)) => {
            console::err_line(format!("clacc: error: {message}"));
            ExitCode::from(2)
        }
    }
}
