//! Accuracy units of the geometric instructions (`length`, `distance`, `normalize` and their
//! `fast_` forms, `OpDot`, `cross`), whose 2026 bounds are defined on the whole vector: "<= 5.5 + n ulp, for
//! gentype with vector width n" bounds the one result of `length(p)` against the infinitely
//! precise √(Σ pᵢ²), which depends on every component. So one judged case is one work-item:
//! its arguments are the components of its vectors (`p`, or `p0` then `p1`), its outputs the
//! scalar result, or `normalize`'s and `cross`'s components, each judged by the same bound;
//! for OpDot and cross that bound is max²·K·EPSILON with `max` over every component.
//!
//! The inputs, the kernel, the device launch and the chunk loop are the per-component units'
//! own ([`crate::run::ulp`]); only the grouping into work-items differs.

use crate::judge::Rules;
use crate::report::stats::{input_region, UnitStats};
use crate::spec::registry::Function;
use crate::spec::signature::ValueKind;
use crate::spec::table::Requirement;

/// One work-item's case from chunk columns: argument `a`'s components `g·w .. g·w + w` in
/// argument order, and its results (one scalar, or `w` components for a vector result).
pub fn work_item(
    columns: &[Vec<f64>],
    results: &[Vec<f64>],
    result_kinds: &[ValueKind],
    item: usize,
    width: usize,
) -> (Vec<f64>, Vec<f64>) {
    let components = item * width..(item + 1) * width;
    let args = columns
        .iter()
        .flat_map(|column| column[components.clone()].iter().copied())
        .collect();
    let outputs = results
        .iter()
        .zip(result_kinds)
        .flat_map(|(result, kind)| match kind {
            ValueKind::FloatScalar => result[item..item + 1].to_vec(),
            _ => result[components.clone()].to_vec(),
        })
        .collect();
    (args, outputs)
}

/// Judges work-items `0 .. items` of a chunk with MPFR (a Vulkan one by the tier first) on
/// `threads` threads
/// ([`crate::run::pipeline::judge_in_slices`]); work-items are counted in `inputs`, and a
/// case's `index` is its work-item's number in the sweep (`first_item` is the chunk's first).
#[allow(clippy::too_many_arguments)]
pub(crate) fn judge_items(
    rules: &Rules,
    function: &Function,
    columns: &[Vec<f64>],
    results: &[Vec<f64>],
    result_kinds: &[ValueKind],
    first_item: u64,
    items: usize,
    width: usize,
    threads: usize,
) -> UnitStats {
    crate::run::pipeline::judge_in_slices(items, threads, usize::MAX, |slice| {
        let mut stats = UnitStats::default();
        for item in slice {
            let (args, outputs) = work_item(columns, results, result_kinds, item, width);
            if !function.in_domain(&args) || !tolerance_is_attainable(rules, &args) {
                stats.undefined += 1;
                continue;
            }
            let index = first_item + item as u64;
            let region = input_region(&args, rules.element);
            // A Vulkan work-item the tier decides (an inherited cell the literal evaluation
            // reads, in every type) is decided there, as MPFR's path decides it; the OpenCL
            // tiers cover neither several outputs nor vector arguments.
            if rules.vulkan.is_some() {
                if let Some(verdict) = rules.fast_verdict(&args, &outputs) {
                    stats.record_fast(verdict, index, region, || {
                        rules.judge_exactly(index, &args, &outputs)
                    });
                    continue;
                }
            }
            let case = rules.judge_exactly(index, &args, &outputs);
            stats.record_region(region, &case);
            stats.record(case);
        }
        stats
    })
}

/// Whether OpDot's and cross's "absolute error tolerance of max * max * K * EPSILON" is
/// judged on this work-item: where every component is finite and max² is a normal value of
/// the type. Beyond the largest finite value the tolerance overflows and bounds nothing; below
/// the smallest normal it is finer than the subnormal spacing the products round to (or flush
/// to), so even exact arithmetic rounded per operation could not meet it (docs/judging.md,
/// "Readings").
/// Other rows bound every input.
fn tolerance_is_attainable(rules: &Rules, args: &[f64]) -> bool {
    if !matches!(rules.requirement, Requirement::AbsoluteMaxSquared { .. }) {
        return true;
    }
    // f64::max ignores NaNs: finiteness is checked component by component.
    let max = args.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let smallest_normal = 2f64.powi(rules.element.emin());
    args.iter().all(|x| x.is_finite())
        && (smallest_normal..=rules.element.max_finite()).contains(&(max * max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_item_gathers_every_argument_s_components_and_its_results() {
        // distance at width 2, two work-items: p0 = (1, 2), (3, 4); p1 = (5, 6), (7, 8).
        let columns = vec![vec![1.0, 2.0, 3.0, 4.0], vec![5.0, 6.0, 7.0, 8.0]];
        let scalar = vec![vec![10.0, 20.0]];
        let (args, outputs) = work_item(&columns, &scalar, &[ValueKind::FloatScalar], 1, 2);
        assert_eq!(args, [3.0, 4.0, 7.0, 8.0]);
        assert_eq!(outputs, [20.0]);
        // normalize at width 2: the result is a vector.
        let vector = vec![vec![0.1, 0.2, 0.3, 0.4]];
        let (args, outputs) = work_item(&columns[..1], &vector, &[ValueKind::FloatGentype], 1, 2);
        assert_eq!(args, [3.0, 4.0]);
        assert_eq!(outputs, [0.3, 0.4]);
    }

    #[test]
    fn the_dot_tolerance_is_judged_only_where_max_squared_is_a_normal_value() {
        use crate::num::fp::FloatType;
        use crate::spec::table::{Epsilon, Linear};
        let registry_dot = crate::spec::registry::find("OpDot").unwrap();
        let rules = |element| Rules {
            function: "OpDot",
            outputs: registry_dot.outputs.to_vec(),
            requirement: Requirement::AbsoluteMaxSquared {
                operations: Linear {
                    constant: 3.0,
                    per_component: 0.0,
                },
                epsilon: Epsilon::Flt,
            },
            element,
            flushes_subnormals: false,
            rounding: rug::float::Round::Nearest,
            relaxed: None,
            embedded: false,
            finite_math_only: false,
            vulkan: None,
        };
        let float = rules(FloatType::Float);
        assert!(tolerance_is_attainable(&float, &[1.0, 2.0, -3.0, 0.5]));
        // max² = 2^-130 is below FLT_MIN; 2^64 squared is beyond FLT_MAX.
        assert!(!tolerance_is_attainable(
            &float,
            &[2f64.powi(-65), 0.0, 0.0, 0.0]
        ));
        assert!(!tolerance_is_attainable(
            &float,
            &[2f64.powi(64), 1.0, 1.0, 1.0]
        ));
        assert!(!tolerance_is_attainable(&float, &[f64::NAN, 1.0, 1.0, 1.0]));
        // The same vector is within double's range.
        assert!(tolerance_is_attainable(
            &rules(FloatType::Double),
            &[2f64.powi(64), 1.0, 1.0, 1.0]
        ));
        // A ulp row bounds every input.
        let length = Rules {
            requirement: Requirement::Ulp(4.25),
            ..float
        };
        assert!(tolerance_is_attainable(
            &length,
            &[f64::NAN, 2f64.powi(-80)]
        ));
    }
}
