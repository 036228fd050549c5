//! `clacc compare` and `clacc spec-diff`: the tables the report and spec layers render, printed.

use super::args::CompareArgs;
use super::console::out;
use super::destinations::{check_writable_file, same_file};
use super::{usage, UsageError};
use crate::report::compare;
use crate::spec::diff;
use crate::spec::environment::KernelPath;
use std::path::Path;
use std::process::ExitCode;

/// `clacc compare`: checks where the table goes, reads the CSVs, writes the CSV and SVG asked
/// for, prints the table. Exit 0: differences and failures are what the table reports, not an
/// error of the command.
pub(crate) fn compare_csvs(args: &CompareArgs) -> Result<ExitCode, UsageError> {
    check_outputs(args)?;
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

/// Checks --csv and --svg before anything is read or written, as a run checks its --csv: a
/// regular file (or none yet) in an existing folder, neither one of the inputs nor the other
/// output; an existing file that compare did not write (its header or title tells) is
/// replaced only with --force.
fn check_outputs(args: &CompareArgs) -> Result<(), UsageError> {
    type WrittenByCompare = fn(&Path) -> bool;
    let outputs: [(&str, Option<&Path>, WrittenByCompare); 2] = [
        ("--csv", args.csv.as_deref(), compare::is_compare_csv),
        ("--svg", args.svg.as_deref(), compare::is_compare_svg),
    ];
    if let (Some(csv), Some(svg)) = (&args.csv, &args.svg) {
        if same_file(csv, svg) {
            return usage(format!(
                "--csv {} and --svg {} are one file; give each its own path",
                csv.display(),
                svg.display()
            ));
        }
    }
    for (flag, path, written_by_compare) in outputs {
        let Some(path) = path else { continue };
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            // Writing a FIFO or a device (`/dev/full`) loses the table; a folder is a typo.
            return usage(format!(
                "{flag} {} exists and is not a regular file; give a file path",
                path.display()
            ));
        }
        if let Some(input) = args.inputs.iter().find(|input| same_file(input, path)) {
            return usage(format!(
                "{flag} {} is also one of the CSVs to compare ({}); give the table another path",
                path.display(),
                input.display()
            ));
        }
        let has_content = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if has_content && !args.force && !written_by_compare(path) {
            return usage(format!(
                "{flag} {} exists and is not what clacc compare writes; give another {flag}, or --force to replace it",
                path.display()
            ));
        }
        check_writable_file(path, flag)?;
    }
    Ok(())
}

/// `clacc spec-diff`: every cell that differs between two texts: the SPIR-V environment's
/// 2017 and 2026 text by default, or the texts that judge two kernel paths (`--from`, `--to`).
pub(crate) fn spec_diff(
    from: KernelPath,
    to: KernelPath,
    markdown: bool,
) -> Result<ExitCode, UsageError> {
    let (before, after) = diff::texts(from, to).map_err(UsageError)?;
    out("the table", &diff::render(before, after, markdown))?;
    Ok(ExitCode::SUCCESS)
}
