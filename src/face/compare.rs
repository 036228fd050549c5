//! `clacc compare` and `clacc spec-diff`: the tables the report and spec layers render, printed.

use super::args::CompareArgs;
use super::console::out;
use super::UsageError;
use crate::report::compare;
use crate::spec::diff;
use crate::spec::table::Revision;
use std::process::ExitCode;

/// `clacc compare`: prints the table, writes the CSV and SVG asked for. Exit 0: differences are
/// what the table reports, not an error of the command.
pub(crate) fn compare_csvs(args: &CompareArgs) -> Result<ExitCode, UsageError> {
    let table = compare::compare(&args.inputs, args.margin)?;
    if let Some(path) = &args.csv {
        compare::write_csv(&table, path)?;
    }
    if let Some(path) = &args.svg {
        compare::write_svg(&table, path)?;
    }
    out("the table", &compare::render(&table))?;
    Ok(ExitCode::SUCCESS)
}

/// `clacc spec-diff`: every cell that differs between the two texts of the spec.
pub(crate) fn spec_diff(markdown: bool) -> Result<ExitCode, UsageError> {
    out(
        "the table",
        &diff::render(Revision::Spec2017, Revision::Spec2026, markdown),
    )?;
    Ok(ExitCode::SUCCESS)
}
