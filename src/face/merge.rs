//! `clacc merge`: the CSVs of a sharded run combined into what one unsharded run writes.

use super::args::MergeArgs;
use super::console::out_line;
use super::destinations::same_file;
use super::{usage, UsageError};
use crate::report::merge;
use std::process::ExitCode;

/// Checks --csv like a run does, merges the shards, writes the result; exit 1 when a merged
/// unit does not pass.
pub(crate) fn merge_csvs(args: &MergeArgs) -> Result<ExitCode, UsageError> {
    merge::refuse_irregular(&args.csv, "--csv")?;
    if let Some(input) = args.inputs.iter().find(|path| same_file(path, &args.csv)) {
        return usage(format!(
            "--csv {} is also one of the shards to merge ({}); give the merged CSV another path",
            args.csv.display(),
            input.display()
        ));
    }
    let has_content = std::fs::metadata(&args.csv).is_ok_and(|m| m.len() > 0);
    if has_content && !args.force && !merge::is_clacc_csv(&args.csv) {
        return usage(format!(
            "--csv {} exists and is not a clacc CSV; give another --csv, or --force to replace it",
            args.csv.display()
        ));
    }
    let inputs = args
        .inputs
        .iter()
        .map(|path| merge::read(path).map(|rows| (path.clone(), rows)))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = merge::merge(&inputs).map_err(|e| UsageError(format!("merge: {e}")))?;
    merge::write(&args.csv, &merged)?;
    let failing = merged
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .count();
    let printed = out_line(
        "the merge's line",
        format!(
            "merged {} files into {} ({} units, {} not passing)",
            inputs.len(),
            args.csv.display(),
            merged.len(),
            failing
        ),
    );
    // The merged CSV is complete: a line that could not be printed keeps a failing merge's 1.
    Ok(super::run::exit_after_run(failing > 0, [printed]))
}
