//! `clacc certify`: every check that applies to the device, into one CSV, and a verdict.

use super::args::{KindChoice, ProfileChoice, RunArgs, TypeChoice};
use super::console::out;
use super::devices::open_device;
use super::run::{exit_after_run, run_campaign, write_summary_files};
use super::{usage, UsageError};
use crate::report::merge;
use std::process::ExitCode;

/// `clacc certify`: everything that applies to the device, into one CSV, and a verdict —
/// every kind of check for every function, type and width at the device's own profile; Table 5
/// (-cl-fast-relaxed-math, which every device must accept); and float divide and sqrt built
/// with -cl-fp32-correctly-rounded-divide-sqrt where the device reports that it honours it.
pub(crate) fn certify(args: &RunArgs) -> Result<ExitCode, UsageError> {
    if !args.selection.function.is_empty()
        || !args.selection.types.is_empty()
        || !args.kind.is_empty()
    {
        return usage(
            "certify checks every function, type and kind; use the plain run for a selection",
        );
    }
    let info = open_device(&args.device)?;
    let mut base = args.clone();
    base.profile = ProfileChoice::Auto;
    base.selection.width = vec!["all".to_string()];
    let mut variants = vec![base.clone()];
    let mut relaxed = base.clone();
    relaxed.profile = ProfileChoice::Relaxed;
    relaxed.kind = vec![KindChoice::Ulp];
    variants.push(relaxed);
    if info.single_fp.correctly_rounded_divide_sqrt() {
        let mut exact_division = base.clone();
        exact_division.kind = vec![KindChoice::Ulp];
        exact_division.selection.function = crate::spec::registry::FUNCTIONS
            .iter()
            .filter(|f| f.correctly_rounded_by_option)
            .map(|f| f.name.to_string())
            .collect();
        exact_division.selection.types = vec![TypeChoice::Float];
        exact_division.correctly_rounded_divide_sqrt = true;
        variants.push(exact_division);
    }
    let mut units = Vec::new();
    let mut facts = None;
    let mut printed = Ok(());
    for (index, variant) in variants.iter_mut().enumerate() {
        // The first variant starts (or resumes) the CSV; the others append their rows to it.
        variant.resume = args.resume || index > 0;
        let outcome = run_campaign(variant)?;
        units.extend(outcome.units);
        printed = printed.and(outcome.printed);
        facts.get_or_insert(outcome.facts);
    }
    let facts = facts.expect("at least one variant ran");
    let written = write_summary_files(args, &units, &facts);
    let rows = merge::read(&args.csv)?;
    let not_passing: Vec<String> = rows
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .map(|row| {
            format!(
                "{} {} {} w{} ({})",
                row.get("kind"),
                row.get("function"),
                row.get("type"),
                row.get("width"),
                row.get("status")
            )
        })
        .collect();
    let verdict = if not_passing.is_empty() {
        format!(
            "\nVERDICT: PASS — all {} units in {} passed or do not apply\n",
            rows.len(),
            args.csv.display()
        )
    } else {
        format!(
            "\nVERDICT: FAIL — {} of {} units in {} did not pass: {}\n",
            not_passing.len(),
            rows.len(),
            args.csv.display(),
            not_passing
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
                + if not_passing.len() > 20 { ", …" } else { "" }
        )
    };
    let printed = printed.and_then(|()| out("the verdict", &verdict));
    Ok(exit_after_run(!not_passing.is_empty(), [printed, written]))
}
