//! `clacc certify`: every check that applies to the device, into one CSV, and a verdict.

use super::args::{
    CertifyArgs, KindChoice, ProfileChoice, RunArgs, SelectionArgs, SourceChoice, TypeChoice,
};
use super::console::out;
use super::devices::open_device;
use super::run::{exit_after_run, names_vulkan_platform, run_parts, write_summary_files};
use super::UsageError;
use crate::report::merge;
use crate::spec::environment::KernelPath;
use std::process::ExitCode;

/// `clacc certify`: everything that applies to the device, into one CSV, and a verdict —
/// every kind of check for every function, type and width at the device's own profile; Table 5
/// (-cl-fast-relaxed-math, which every device must accept); and float divide and sqrt built
/// with -cl-fp32-correctly-rounded-divide-sqrt where the device reports that it honours it.
/// Each through both kernel paths where the device takes SPIR-V (the conformance process asks
/// for both), through OpenCL C alone where it does not. A Vulkan device (`--platform vulkan`)
/// runs the vulkan path's ULP units, full precision and RelaxedPrecision.
///
/// The parts run as one run into one CSV ([`run_parts`]).
pub(crate) fn certify(args: &CertifyArgs) -> Result<ExitCode, UsageError> {
    let (paths, why) = certified_paths(args)?;
    let parts = parts(args, &paths)?;
    let outcome = run_parts(&parts)?;
    let written = write_summary_files(&parts[0], &outcome);
    let printed = outcome.printed;
    let rows = merge::read(&args.campaign.csv)?;
    let both = paths.len() > 1;
    let not_passing: Vec<String> = rows
        .iter()
        .filter(|row| !matches!(row.get("status"), "pass" | "skip"))
        .map(|row| {
            format!(
                "{} {} {} w{} {}{}{} ({})",
                row.get("kind"),
                row.get("function"),
                row.get("type"),
                row.get("width"),
                row.get("profile"),
                match row.get("build_options") {
                    "" => String::new(),
                    options => format!(" [{options}]"),
                },
                if both {
                    format!(" {}", row.get("path"))
                } else {
                    String::new()
                },
                row.get("status")
            )
        })
        .collect();
    let paths_text = format!("; {why}");
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
            "\nVERDICT: PASS — all {} units in {} passed or do not apply{shard_text}{paths_text}\n",
            rows.len(),
            args.campaign.csv.display()
        )
    } else {
        let listed: Vec<String> = not_passing.iter().take(20).cloned().collect();
        format!(
            "\nVERDICT: FAIL — {} of {} units in {} did not pass{shard_text}{paths_text}: {}{}\n",
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

/// The kernel paths a certification runs, and the verdict's words for them: both where the
/// device takes SPIR-V and the spec's text judges OpenCL C, else the one it can run.
fn certified_paths(args: &CertifyArgs) -> Result<(Vec<KernelPath>, String), UsageError> {
    if names_vulkan_platform(&args.device) {
        return Ok((
            vec![KernelPath::Vulkan],
            "compute shaders through the vulkan path, judged by the Vulkan environment's precision tables (ulp units: full precision and RelaxedPrecision)".to_string(),
        ));
    }
    let info = open_device(&args.device)?;
    let revision = args.campaign.spec.revision();
    Ok(match (info.takes_il(), KernelPath::OpenclC.environment().holds(revision)) {
        (true, true) => (
            vec![KernelPath::Spirv, KernelPath::OpenclC],
            "kernels through both paths, SPIR-V and OpenCL C".to_string(),
        ),
        (true, false) => (
            vec![KernelPath::Spirv],
            format!(
                "kernels through SPIR-V only: clacc holds the OpenCL C tables of the {} text, not {revision} (give --spec {} for both paths)",
                KernelPath::OpenclC.environment().revision_names(),
                KernelPath::OpenclC.environment().revision_names()
            ),
        ),
        // The OpenCL C part refuses --spec 2017 on its own, in a plain run's words.
        (false, _) => (
            vec![KernelPath::OpenclC],
            "kernels through OpenCL C only: the device takes no SPIR-V".to_string(),
        ),
    })
}

/// The certification's parts, each a plain run's flags, for each of `paths`: the device's
/// profile, every kind; Table 5; correctly rounded float divide and sqrt where the device
/// honours the option.
fn parts(args: &CertifyArgs, paths: &[KernelPath]) -> Result<Vec<RunArgs>, UsageError> {
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
        input: Vec::new(),
        kernel: Vec::new(),
        source: None,
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
    // The build option is OpenCL's: a Vulkan device has no such part.
    let exact_division = !names_vulkan_platform(&args.device)
        && open_device(&args.device)?
            .single_fp
            .correctly_rounded_divide_sqrt();
    if exact_division {
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
    Ok(paths
        .iter()
        .flat_map(|path| {
            parts.iter().map(|part| RunArgs {
                source: Some(SourceChoice::of(*path)),
                ..part.clone()
            })
        })
        .collect())
}
