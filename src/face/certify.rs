//! `clacc certify`: every check that applies to the device, into one CSV, and a verdict.

use super::args::{CertifyArgs, KindChoice, ProfileChoice, RunArgs, SelectionArgs, TypeChoice};
use super::console::out;
use super::devices::open_device;
use super::run::{exit_after_run, prepare_campaign, write_summary_files, PreparedCampaign};
use super::UsageError;
use crate::report::merge;
use std::process::ExitCode;

/// `clacc certify`: everything that applies to the device, into one CSV, and a verdict —
/// every kind of check for every function, type and width at the device's own profile; Table 5
/// (-cl-fast-relaxed-math, which every device must accept); and float divide and sqrt built
/// with -cl-fp32-correctly-rounded-divide-sqrt where the device reports that it honours it.
///
/// The parts are planned together before any runs: every row records the whole certification's
/// unit count (`planned_units`), so `--resume`, `--shard` and `clacc merge` treat the parts as
/// one run, and a part is appended to the CSV the part before it wrote.
pub(crate) fn certify(args: &CertifyArgs) -> Result<ExitCode, UsageError> {
    let parts = parts(args)?;
    let mut prepared = parts
        .iter()
        .map(prepare_campaign)
        .collect::<Result<Vec<PreparedCampaign>, UsageError>>()?;
    let planned: u64 = prepared.iter().map(|p| p.plan.units.len() as u64).sum();
    let keys: Vec<Vec<String>> = prepared
        .iter()
        .map(|part| {
            let settings = &part.plan.settings;
            part.plan.units.iter().map(|u| u.key(settings)).collect()
        })
        .collect();
    for (index, part) in prepared.iter_mut().enumerate() {
        part.plan.companion_keys = keys
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != index)
            .flat_map(|(_, keys)| keys.iter().cloned())
            .collect();
        part.plan.provenance.planned_units = planned;
        // The first part starts (or resumes) the CSV; the others continue it.
        part.plan.resume |= index > 0;
    }
    let mut units = Vec::new();
    let mut printed = Ok(());
    for (part, args) in prepared.into_iter().zip(&parts) {
        let outcome = part.drive(args)?;
        units.extend(outcome.units);
        printed = printed.and(outcome.printed);
    }
    let written = write_summary_files(&parts[0], &units);
    let rows = merge::read(&args.campaign.csv)?;
    let not_passing: Vec<String> = rows
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .map(|row| {
            format!(
                "{} {} {} w{} {}{} ({})",
                row.get("kind"),
                row.get("function"),
                row.get("type"),
                row.get("width"),
                row.get("profile"),
                match row.get("build_options") {
                    "" => String::new(),
                    options => format!(" [{options}]"),
                },
                row.get("status")
            )
        })
        .collect();
    let shard_text = if args.campaign.shard == crate::report::shard::Shard::WHOLE {
        String::new()
    } else {
        format!(
            " (shard {}: merge every shard's CSV with `clacc merge` for the whole verdict)",
            args.campaign.shard
        )
    };
    let verdict = if not_passing.is_empty() {
        format!(
            "\nVERDICT: PASS — all {} units in {} passed or do not apply{shard_text}\n",
            rows.len(),
            args.campaign.csv.display()
        )
    } else {
        let listed: Vec<String> = not_passing.iter().take(20).cloned().collect();
        format!(
            "\nVERDICT: FAIL — {} of {} units in {} did not pass{shard_text}: {}{}\n",
            not_passing.len(),
            rows.len(),
            args.campaign.csv.display(),
            listed.join(", "),
            if not_passing.len() > listed.len() {
                ", …"
            } else {
                ""
            }
        )
    };
    let printed = printed.and_then(|()| out("the verdict", &verdict));
    Ok(exit_after_run(!not_passing.is_empty(), [printed, written]))
}

/// The certification's parts, each a plain run's flags: the device's profile, every kind;
/// Table 5; correctly rounded float divide and sqrt where the device honours the option.
fn parts(args: &CertifyArgs) -> Result<Vec<RunArgs>, UsageError> {
    let info = open_device(&args.device)?;
    let everything = RunArgs {
        device: args.device.clone(),
        selection: SelectionArgs {
            function: Vec::new(),
            types: Vec::new(),
            width: vec!["all".to_string()],
        },
        profile: ProfileChoice::Auto,
        kind: Vec::new(),
        input_file: None,
        input: None,
        kernel: Vec::new(),
        correctly_rounded_divide_sqrt: false,
        device_only: false,
        range: None,
        campaign: args.campaign.clone(),
    };
    let mut parts = vec![everything.clone()];
    let mut relaxed = everything.clone();
    relaxed.profile = ProfileChoice::Relaxed;
    relaxed.kind = vec![KindChoice::Ulp];
    parts.push(relaxed);
    if info.single_fp.correctly_rounded_divide_sqrt() {
        let mut exact_division = everything;
        exact_division.kind = vec![KindChoice::Ulp];
        exact_division.selection.function = crate::spec::registry::FUNCTIONS
            .iter()
            .filter(|f| f.correctly_rounded_by_option)
            .map(|f| f.name.to_string())
            .collect();
        exact_division.selection.types = vec![TypeChoice::Float];
        exact_division.correctly_rounded_divide_sqrt = true;
        parts.push(exact_division);
    }
    Ok(parts)
}
