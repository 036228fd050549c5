//! What the selection flags (--function, --type, --width, --profile, --kind) select, and why a
//! selection that holds no unit holds none.

use super::args::{KindChoice, ProfileChoice, RunArgs, TypeChoice};
use super::{usage, UsageError};
use crate::device::opencl::DeviceInfo;
use crate::num::fp::FloatType;
use crate::report::Kind;
use crate::spec::registry::{self, Function};
use crate::spec::table::{Judging, Profile};

/// Every name `--function` takes: the registry's, then the edge-only functions.
pub(crate) fn known_function_names() -> String {
    let mut names = registry::known_names();
    names.extend(
        crate::spec::edge_table::functions()
            .into_iter()
            .filter(|name| registry::find(name).is_none()),
    );
    names.join(", ")
}

/// Whether `name` is a conversion or extension unit's name (`convert_double_to_half`,
/// `float8_half_to_e4m3`), which `--function` selects like a function.
pub(crate) fn is_conversion_or_extension(name: &str) -> bool {
    crate::spec::conversion::Conversion::all()
        .iter()
        .any(|c| c.name() == name)
        || crate::spec::extension::ExtensionCheck::all()
            .iter()
            .any(|c| c.name() == name)
}

/// The registry's functions --function names; none named: every function.
pub(crate) fn select_functions(names: &[String]) -> Result<Vec<&'static Function>, UsageError> {
    if names.is_empty() {
        return Ok(registry::FUNCTIONS.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            registry::find(name).ok_or_else(|| {
                UsageError(format!(
                    "unknown function `{name}`; known functions: {}",
                    known_function_names()
                ))
            })
        })
        .collect()
}

/// The selected element types; none given: every type the device supports (every type when
/// no device is asked).
pub(crate) fn select_types(choices: &[TypeChoice], device: Option<&DeviceInfo>) -> Vec<FloatType> {
    if choices.is_empty() {
        return FloatType::ALL
            .into_iter()
            .filter(|t| device.is_none_or(|d| d.fp_config(*t).is_some()))
            .collect();
    }
    choices.iter().map(|choice| choice.float_type()).collect()
}

/// The widths --width names (`all`: every width a kernel takes).
pub(crate) fn select_widths(names: &[String]) -> Result<Vec<u32>, UsageError> {
    if names.iter().any(|n| n == "all") {
        return Ok(crate::spec::signature::WIDTHS.to_vec());
    }
    names
        .iter()
        .map(|name| match name.parse::<u32>() {
            Ok(width) if crate::spec::signature::WIDTHS.contains(&width) => Ok(width),
            _ => usage(format!(
                "unknown width `{name}`; use 1, 2, 3, 4, 8, 16 or all"
            )),
        })
        .collect()
}

/// What judges: the table named, or the device's own for auto; relaxed judges by Table 5 and
/// falls back to the device's own table.
pub(crate) fn select_judging(
    choice: ProfileChoice,
    device: &DeviceInfo,
) -> Result<Judging, UsageError> {
    let own = || {
        Profile::parse(&device.profile).ok_or_else(|| {
            UsageError(format!(
                "device reports an unknown profile `{}`; pass --profile full or embedded",
                device.profile
            ))
        })
    };
    Ok(match choice {
        ProfileChoice::Auto => Judging::Table(own()?),
        ProfileChoice::Relaxed => Judging::Relaxed { otherwise: own()? },
        ProfileChoice::Full => Judging::Table(Profile::Full),
        ProfileChoice::Embedded => Judging::Table(Profile::Embedded),
    })
}

/// The selected kinds of check; none given: every kind.
pub(crate) fn select_kinds(choices: &[KindChoice]) -> Vec<Kind> {
    if choices.is_empty() {
        return Kind::ALL.to_vec();
    }
    choices.iter().map(|choice| choice.kind()).collect()
}

/// Why a selection holds no unit, for the usage error.
pub(crate) fn why_nothing(
    args: &RunArgs,
    kinds: &[Kind],
    types: &[FloatType],
    widths: &[u32],
) -> String {
    let names = &args.selection.function;
    let kind_list = kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(",");
    let per_function = kinds.contains(&Kind::Ulp) || kinds.contains(&Kind::Edge);
    if !names.is_empty() && !per_function {
        let others: Vec<&str> = names
            .iter()
            .filter(|name| !is_conversion_or_extension(name))
            .map(String::as_str)
            .collect();
        return format!(
            "with --kind {kind_list}, --function takes conversion and extension unit names (e.g. convert_float_to_half_rte, float_controls2_ieee: a summary's reproduce line gives them), and {} names none; drop --function to run them all, or add --kind ulp or edge",
            others.join(", ")
        );
    }
    let edge_functions = crate::spec::edge_table::functions();
    let mut reasons = Vec::new();
    for name in names {
        let in_table = registry::find(name);
        let edge_name = in_table.map_or(name.as_str(), |f| f.name);
        let has_edge = edge_functions.contains(&edge_name);
        if let Some(function) = in_table.filter(|_| kinds.contains(&Kind::Ulp)) {
            // The geometric instructions take a few widths only (length: 1 to 4, cross: 3, 4).
            let takes = function.shape.widths();
            if !widths.iter().any(|w| takes.contains(w)) {
                reasons.push(format!(
                    "{name} runs at widths {}; --width {} selects none",
                    takes
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(","),
                    widths
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                ));
            }
            continue;
        }
        if !has_edge {
            reasons.push(format!(
                "{name} has no edge-case rules (--kind {kind_list}); add --kind ulp"
            ));
        } else if !kinds.contains(&Kind::Edge) {
            reasons.push(format!(
                "{name} has only edge-case rules, no ULP table row; add --kind edge"
            ));
        } else {
            let runs_at: Vec<String> = types
                .iter()
                .flat_map(|t| {
                    crate::run::edge::widths_for(edge_name, *t, &crate::spec::signature::WIDTHS)
                })
                .map(|w| w.to_string())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            reasons.push(format!(
                "{name}'s edge cases run at widths {}; --width {} selects none",
                runs_at.join(","),
                widths
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
    }
    if reasons.is_empty() {
        format!(
            "the selection (--kind {kind_list}, --type {}) contains no unit",
            types.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
        )
    } else {
        reasons.join("; ")
    }
}
