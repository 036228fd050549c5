//! A check of the function registry against what the judge relies on: the fast tiers agree
//! with MPFR. (Here because it reads `reference` and `sweep`, which the spec layer may not
//! import.)

use crate::num::fp::FloatType;
use crate::reference::{self, binding};
use crate::spec::registry::FUNCTIONS;
use crate::spec::signature::{Shape, ValueKind};
use crate::sweep;

/// A test's coverage: `counts` holds more than `least` for every one of `keys` (the whole map
/// printed where it does not).
fn assert_more_than<K: Ord + std::fmt::Debug>(
    counts: &std::collections::BTreeMap<K, i32>,
    keys: &[K],
    least: i32,
) {
    for key in keys {
        assert!(
            counts.get(key).is_some_and(|n| *n > least),
            "{key:?}: {counts:?}"
        );
    }
}

/// The rules of `function`'s row for `element` under `requirement`: round to nearest, no
/// flushing, no relaxed build.
fn rules_of(
    function: &crate::spec::registry::Function,
    element: FloatType,
    requirement: crate::spec::table::Requirement,
) -> crate::judge::Rules {
    crate::judge::Rules {
        function: function.name,
        element,
        ..super::tests::with_outputs(function.outputs.to_vec(), requirement)
    }
}

/// The fast tier is CORE-MATH's (or the host's IEEE) correctly rounded double; MPFR's
/// exact value rounded to double must be the same number on every sampled half, float and
/// double input (for double, MPFR rounded once into double's own format, subnormals
/// included). The float version must be MPFR's correctly rounded float on every float input;
/// a near approximation (rootn) within `NEAR_ERROR` of MPFR's value on half and float inputs.
#[test]
fn fast_tier_and_mpfr_agree_on_a_large_sample_for_every_function_that_uses_it() {
    let agree = |got: f64, expected: f64| (expected.is_nan() && got.is_nan()) || expected == got;
    let mut checked = 0;
    for function in FUNCTIONS {
        for output in function.outputs {
            let Some(float_version) = binding::float_tier(output) else {
                continue;
            };
            let fast = binding::fast_tier(output);
            for element in [FloatType::Float, FloatType::Half, FloatType::Double] {
                let kinds = match function.shape {
                    Shape::Unary | Shape::WithFloatOut | Shape::WithIntOut => {
                        vec![ValueKind::FloatGentype]
                    }
                    Shape::Binary => vec![ValueKind::FloatGentype; 2],
                    Shape::Ternary => vec![ValueKind::FloatGentype; 3],
                    Shape::FloatInt => vec![ValueKind::FloatGentype, ValueKind::IntGentype],
                    other => panic!("{}: a fast tier for shape {other:?}", function.name),
                };
                let seed = sweep::unit_seed(17, function.name, element, 1);
                let columns = sweep::generate(function, element, &kinds, 4000, 1, seed);
                for index in 0..columns[0].len() {
                    let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let mpfr = binding::mpfr(output.reference);
                    // MPFR's exact value as a double, and its correctly rounded value in the type.
                    let exact = reference::high_precision(mpfr, &operands, element).to_f64();
                    let rounded = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                    // The float version is the correctly rounded float itself.
                    if element == FloatType::Float {
                        let got = float_version(&args);
                        assert!(
                            agree(got, rounded),
                            "{}({args:?}): float version {got:e}, MPFR {rounded:e}",
                            function.name
                        );
                    }
                    checked += 1;
                    match fast {
                        // The correctly rounded double: for double MPFR rounded once into
                        // double's own format, subnormals included.
                        Some(fast) => {
                            let got = fast(&args);
                            let expected = if element == FloatType::Double {
                                rounded
                            } else {
                                exact
                            };
                            assert!(
                                agree(got, expected),
                                "{}({args:?}) for {element}: CORE-MATH {got:e}, MPFR {expected:e}",
                                function.name
                            );
                        }
                        // A near approximation: within NEAR_ERROR of the exact value (half and
                        // float arguments), its special values exact.
                        None if element != FloatType::Double => {
                            let near = binding::near_tier(output).expect("a double tier");
                            let got = near(&args);
                            let close = if exact.is_finite() && exact != 0.0 {
                                (got - exact).abs() <= reference::NEAR_ERROR * exact.abs()
                            } else {
                                agree(got, exact)
                            };
                            assert!(
                                close,
                                "{}({args:?}) for {element}: near {got:e}, MPFR {exact:e}",
                                function.name
                            );
                        }
                        None => {}
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// Every verdict the exact tier gives is MPFR's verdict on the same results: for every
/// function whose outputs all have an exact host version, sampled half, float and double
/// inputs (special values included) under a ULP bound and a correctly rounded cell, with the
/// correctly rounded results, one output moved to a neighbour, a zero of the other sign or a
/// NaN as the device's results. The exact tier passes what MPFR passes, with MPFR's error: 0
/// where the result is the exact value, the error measured against it where that value is no
/// value of the format (fract's, fdim's and ldexp's half and float results); where the host
/// declines, the fast tiers (fdim's) decide as they do for any function, and a sweep's bulk
/// pass counts a result equal to [`Rules::correctly_rounded_fn_where_exact_declines`] as they
/// do.
#[test]
fn exact_tier_decides_as_mpfr_does() {
    use crate::report::stats::{Allowance, FastVerdict, Outcome};
    use crate::spec::table::Requirement;
    let mut decided = [0; 4];
    let mut decided_in_bulk = 0;
    let mut decided_in_bulk_of_several = 0;
    let mut decided_in_bulk_where_declined = 0;
    for function in FUNCTIONS {
        if !function
            .outputs
            .iter()
            .all(|output| binding::exact(output.reference).is_some())
        {
            continue;
        }
        let kinds = match function.shape {
            Shape::Unary | Shape::IntResult | Shape::WithFloatOut | Shape::WithIntOut => {
                vec![ValueKind::FloatGentype]
            }
            Shape::Binary => vec![ValueKind::FloatGentype; 2],
            Shape::Ternary => vec![ValueKind::FloatGentype; 3],
            Shape::FloatInt => vec![ValueKind::FloatGentype, ValueKind::IntGentype],
            Shape::Nan => vec![ValueKind::UintGentype],
            other => panic!("{}: an exact tier for shape {other:?}", function.name),
        };
        for element in FloatType::ALL {
            let seed = sweep::unit_seed(23, function.name, element, 1);
            let columns = sweep::generate(function, element, &kinds, 3000, 1, seed);
            for requirement in [Requirement::Ulp(4.0), Requirement::CorrectlyRounded] {
                let rules = rules_of(function, element, requirement);
                for index in 0..columns[0].len() {
                    let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                    if !function.in_domain(&args) {
                        continue;
                    }
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let correct: Vec<f64> = function
                        .outputs
                        .iter()
                        .map(|output| {
                            reference::correctly_rounded(
                                binding::mpfr(output.reference),
                                &operands,
                                element,
                            )
                            .to_f64()
                        })
                        .collect();
                    let mut candidates = vec![correct.clone()];
                    for position in 0..correct.len() {
                        let value = correct[position];
                        let moved = if value.is_finite() {
                            element.from_bits(element.to_bits(value) ^ 1)
                        } else {
                            0.0
                        };
                        for replacement in [moved, -value, f64::NAN] {
                            let mut results = correct.clone();
                            results[position] = replacement;
                            candidates.push(results);
                        }
                    }
                    // Where a sweep decides in bulk (`Rules::exact_fns`), results that are the
                    // exact values (as the bulk pass compares them) are what the fast verdict
                    // passes at 0, and MPFR passes them too.
                    if let Some(exact) = rules.exact_fns() {
                        let values: Option<Vec<f64>> = exact
                            .iter()
                            .map(|(value, _)| value(&args, element))
                            .collect();
                        if let Some(values) = values {
                            let what = format!("{}({args:?}) {element}", function.name);
                            assert_eq!(
                                rules.fast_verdict(&args, &values),
                                Some(FastVerdict::Pass(0.0)),
                                "{what}"
                            );
                            // A device returns values of the format: an exact value that is
                            // none (fdim's 1 - 2^-24 in half) is no result to give MPFR.
                            let representable = values
                                .iter()
                                .all(|value| value.is_nan() || element.round(*value) == *value);
                            if representable {
                                let case = rules.judge_exactly(0, &args, &values);
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                            }
                            decided_in_bulk += 1;
                            if values.len() > 1 {
                                decided_in_bulk_of_several += 1;
                            }
                        } else if let Some(correctly_rounded) =
                            rules.correctly_rounded_fn_where_exact_declines()
                        {
                            // Where the exact tier declines, the bulk pass counts a result
                            // equal to this (finite) value correctly rounded, as the fast
                            // verdict does, and MPFR passes it within half an ulp.
                            let correct = correctly_rounded(&args);
                            if correct.is_finite() {
                                let what = format!("{}({args:?}) {element}", function.name);
                                assert_eq!(
                                    rules.fast_verdict(&args, &[correct]),
                                    Some(FastVerdict::CorrectlyRounded),
                                    "{what}"
                                );
                                let case = rules.judge_exactly(0, &args, &[correct]);
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                assert!(case.error <= 0.5, "{what}");
                                decided_in_bulk_where_declined += 1;
                            }
                        }
                    }
                    for results in candidates {
                        let Some(verdict) = rules.fast_verdict(&args, &results) else {
                            continue;
                        };
                        let case = rules.judge_exactly(0, &args, &results);
                        let what = format!(
                            "{}({args:?}) {element} {:?}: device {results:?}, exact tier \
                             {verdict:?}, MPFR {:?} {}",
                            function.name, rules.requirement, case.outcome, case.error
                        );
                        match verdict {
                            FastVerdict::Pass(error) => {
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                // Exact to 2^-28 ulp (`FastVerdict::Pass`): fdim's fast
                                // tiers measure against a double.
                                let tolerance = 2f64.powi(-28);
                                assert!((case.error - error).abs() <= tolerance, "{what}");
                                decided[usize::from(error > 0.0)] += 1;
                            }
                            FastVerdict::Overflow => {
                                let allowed = Outcome::Allowed(Allowance::Overflow);
                                assert_eq!(case.outcome, allowed, "{what}");
                                decided[2] += 1;
                            }
                            FastVerdict::CorrectlyRoundedOverflow => {
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                assert!(case.error.is_infinite(), "{what}");
                                decided[2] += 1;
                            }
                            // fdim's inexact differences, by its fast tiers.
                            FastVerdict::CorrectlyRounded => {
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                assert!(case.error <= 0.5, "{what}");
                                decided[1] += 1;
                            }
                            FastVerdict::Fail(error) => {
                                assert_eq!(case.outcome, Outcome::Fail, "{what}");
                                assert!((case.error - error).abs() <= 2f64.powi(-28), "{what}");
                                decided[3] += 1;
                            }
                            FastVerdict::Undefined | FastVerdict::AbsolutePass(_) => {
                                panic!("{what}: no Table 3 rule gives {verdict:?}")
                            }
                        }
                    }
                }
            }
        }
    }
    // Exact results, inexact ones measured against the exact value, and overflows.
    assert!(decided[0] > 100_000, "{decided:?}");
    assert!(decided[1] > 1_000 && decided[2] > 10, "{decided:?}");
    // Failures beyond a ULP bound where the exact tier declines: the double tier's.
    assert!(decided[3] > 100, "{decided:?}");
    assert!(decided_in_bulk > 100_000, "{decided_in_bulk}");
    // frexp's and modf's two outputs.
    assert!(
        decided_in_bulk_of_several > 10_000,
        "{decided_in_bulk_of_several}"
    );
    // fdim's inexact float and double differences.
    assert!(
        decided_in_bulk_where_declined > 1_000,
        "{decided_in_bulk_where_declined}"
    );
}

/// A function of several outputs (sincos, lgamma_r): where every checked output equals its
/// column ([`crate::judge::Rules::correctly_rounded_fns`]), the fast verdict is
/// `CorrectlyRounded`, as a sweep's bulk pass counts it, and MPFR passes (or, in an
/// implementation-defined cell, measures) it within half an ulp, whatever the unchecked outputs.
#[test]
fn columns_of_several_outputs_decide_as_the_fast_verdict_does() {
    use crate::report::stats::{FastVerdict, Outcome};
    use crate::spec::table::Requirement;
    let mut decided = std::collections::BTreeMap::new();
    for function in FUNCTIONS
        .iter()
        .filter(|function| function.outputs.len() > 1)
    {
        for element in [FloatType::Float, FloatType::Double] {
            for (requirement, passed) in [
                (Requirement::Ulp(4.0), Outcome::Pass),
                (Requirement::ImplementationDefined, Outcome::Measured),
            ] {
                let rules = rules_of(function, element, requirement);
                let Some(columns_of) = rules.correctly_rounded_fns() else {
                    continue;
                };
                let kinds = vec![ValueKind::FloatGentype];
                let seed = sweep::unit_seed(29, function.name, element, 1);
                let inputs = sweep::generate(function, element, &kinds, 2000, 1, seed);
                for x in &inputs[0] {
                    let args = [*x];
                    // An unchecked output (lgamma_r's sign) holds a value it may not have.
                    let mut results = vec![7.0; function.outputs.len()];
                    for (output, column) in &columns_of {
                        results[*output] = column(&args);
                    }
                    if !results.iter().all(|result| result.is_finite()) {
                        continue;
                    }
                    let what = format!("{}({x:e}) {element}", function.name);
                    assert_eq!(
                        rules.fast_verdict(&args, &results),
                        Some(FastVerdict::CorrectlyRounded),
                        "{what}"
                    );
                    let case = rules.judge_exactly(0, &args, &results);
                    assert_eq!(case.outcome, passed, "{what}");
                    assert!(case.error <= 0.5, "{what}");
                    *decided.entry(function.name).or_insert(0) += 1;
                }
            }
        }
    }
    assert!(
        decided.get("sincos").is_some_and(|count| *count > 2000),
        "{decided:?}"
    );
    assert!(
        decided.get("lgamma_r").is_some_and(|count| *count > 1000),
        "{decided:?}"
    );
}

/// Errors that agree to 2^-28 ulp, and to the double arithmetic's own rounding (2^-51
/// relative) where they are far larger.
fn close(mpfr: f64, fast: f64) -> bool {
    (mpfr - fast).abs() <= 2f64.powi(-28) + mpfr.abs() * 2f64.powi(-51)
}

/// Every verdict the fast tiers give under a Table 5 rule is MPFR's verdict on the same result
/// (`Rules::relaxed_verdict`): for every float function either revision of Table 5 lists, under
/// the full profile's numbers and under the embedded profile's with flushing, sampled inputs
/// (special values included) with the correctly rounded result, that result moved by 1, 2, 3,
/// 100 or 9000 ulp, negated, zero, an infinity, a NaN, or 0.25 or 1% off as the device's. A
/// pass has MPFR's error to 2^-28 ulp (`close`), in ulp (derived formulas' rules included: the
/// ULP bound beside the formula passes, or the formula's range accepts a result beyond it),
/// and so has a failure; an absolute pass MPFR's absolute error to 2^-52; an
/// undefined result is MPFR's undefined case, at distance 0 or infinity (which the error map
/// counts with no error, as it counts a fast undefined).
#[test]
fn relaxed_fast_verdicts_are_mpfrs() {
    use crate::report::stats::{FastVerdict, Outcome};
    use crate::spec::relaxed_table::builtin_in;
    use crate::spec::table::{Requirement, Revision};
    let mut passes = std::collections::BTreeMap::new();
    let mut undefined = std::collections::BTreeMap::new();
    let mut failures = std::collections::BTreeMap::new();
    let mut absolute = std::collections::BTreeMap::new();
    let mut overflowing = std::collections::BTreeMap::new();
    let mut beyond = std::collections::BTreeMap::new();
    for (revision, embedded) in [(Revision::Spec2026, false), (Revision::Spec2017, true)] {
        for function in FUNCTIONS {
            let element = FloatType::Float;
            let Some(rule) = builtin_in(&crate::spec::environment::OPENCL_SPIRV, revision)
                .rule(function.name, element)
            else {
                continue;
            };
            let kinds = function.shape.signature().arguments;
            let rules = crate::judge::Rules {
                relaxed: Some(rule),
                embedded,
                flushes_subnormals: embedded,
                finite_math_only: true,
                ..rules_of(function, element, Requirement::Ulp(4.0))
            };
            let seed = sweep::unit_seed(31, function.name, element, 1);
            let columns = sweep::generate(function, element, kinds, 1500, 1, seed);
            for index in 0..columns[0].len() {
                let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                if !function.in_domain(&args) {
                    continue;
                }
                let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                let mpfr = binding::mpfr(function.outputs[0].reference);
                let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                let moved = |ulps: u64| {
                    let bits = element.to_bits(correct).wrapping_add(ulps) & 0xffff_ffff;
                    element.from_bits(bits)
                };
                let mut candidates = vec![-correct, 0.0, f64::INFINITY, f64::NAN];
                candidates.extend([0, 1, 2, 3, 100, 9000].map(moved));
                candidates.extend([1u64, 2, 3].map(|ulps| moved(ulps.wrapping_neg())));
                // Far off, where a derived formula's range is wide (atan over an unbounded
                // quotient) or its operations' errors add up.
                candidates.extend([correct + 0.25, correct * 1.01].map(|v| element.round(v)));
                for result in candidates {
                    let results = vec![result; function.outputs.len()];
                    let Some(verdict) = rules.fast_verdict(&args, &results) else {
                        continue;
                    };
                    let case = rules.judge_exactly(0, &args, &results);
                    let what = format!(
                        "{}({args:?}) {revision:?} embedded={embedded}: device {result:e}, fast \
                         {verdict:?}, MPFR {:?} {}",
                        function.name, case.outcome, case.error
                    );
                    match verdict {
                        FastVerdict::Pass(error) => {
                            assert_eq!(case.outcome, Outcome::Pass, "{what}");
                            assert!(!case.absolute, "{what}");
                            assert!(close(case.error, error), "{what}");
                            *passes.entry(function.name).or_insert(0) += 1;
                            if error > 8192.0 {
                                *beyond.entry(function.name).or_insert(0) += 1;
                            }
                        }
                        FastVerdict::Undefined => {
                            assert_eq!(case.outcome, Outcome::Undefined, "{what}");
                            assert!(case.error == 0.0 || case.error.is_infinite(), "{what}");
                            *undefined.entry(function.name).or_insert(0) += 1;
                            if correct.is_infinite() && args.iter().all(|x| x.is_finite()) {
                                *overflowing.entry(function.name).or_insert(0) += 1;
                            }
                        }
                        FastVerdict::Fail(error) => {
                            assert_eq!(case.outcome, Outcome::Fail, "{what}");
                            assert!(!case.absolute, "{what}");
                            assert!(close(case.error, error), "{what}");
                            *failures.entry(function.name).or_insert(0) += 1;
                        }
                        FastVerdict::AbsolutePass(distance) => {
                            assert_eq!(case.outcome, Outcome::Pass, "{what}");
                            assert!(case.absolute, "{what}");
                            // Half a double ulp of a value of magnitude at most 1, and the
                            // subtraction's rounding.
                            assert!((case.error - distance).abs() <= 2f64.powi(-52), "{what}");
                            *absolute.entry(function.name).or_insert(0) += 1;
                        }
                        other => panic!("{what}: no relaxed verdict is {other:?}"),
                    }
                }
            }
        }
    }
    // ULP bounds (acos's 4096, exp's growing bound, log's outside [0.5, 2], division's 2.5),
    // unbounded pieces (sin beyond pi), undefined ones (cosh beyond 88, powr of x < 0).
    assert_more_than(&passes, &["acos", "exp", "exp2", "log", "OpFDiv"], 1000);
    // Results beyond a ULP bound with no derived formula beside it, no allowance possible.
    assert_more_than(&failures, &["acos", "exp", "exp2", "log", "OpFDiv"], 1000);
    // And beside a derived formula whose proven range refuses them too.
    assert_more_than(&failures, &["acosh", "atan2pi", "cbrt", "pow", "tan"], 100);
    // "derived F or <= 8192 ulp" where the formula is proven bounded or unstated
    // (`crate::judge::relaxed` module `bounded`); rootn's by its near approximation.
    let derived = [
        "acosh", "asinh", "atan2", "atan2pi", "cbrt", "pow", "powr", "rootn", "tan", "tanpi",
    ];
    assert_more_than(&passes, &derived, 3000);
    // And derived formulas proven to bound nothing (asinh for x < 0, tanpi beyond 1).
    assert_more_than(
        &undefined,
        &[
            "sin", "cos", "cosh", "powr", "rootn", "asinh", "tanpi", "tanh",
        ],
        100,
    );
    // Absolute bounds on [-pi, pi] and [-1, 1]; log's on [0.5, 2] stay with MPFR (its rule
    // has ULP bounds too).
    assert_more_than(&absolute, &["sin", "cos", "sinpi", "cospi"], 1000);
    assert!(!absolute.contains_key("log"), "{absolute:?}");
    // Results beyond every ULP bound that a derived formula's range accepts (module
    // `bounded`'s inner bounds), verified by MPFR above.
    assert_more_than(&beyond, &["asinh", "atan2pi", "expm1", "tan"], 100);
    // Exact values that round to an infinity, under -cl-finite-math-only: an infinite or
    // NaN result is undefined whatever the rule (pow's y·log2(x) past 128, exp's x past 88).
    assert_more_than(
        &overflowing,
        &["exp", "exp10", "pow", "pown", "powr", "sinh"],
        1000,
    );
}

/// Every verdict the fast tiers give under `-cl-finite-math-only` without a Table 5 rule
/// (`Rules::finite_math_verdict`) is MPFR's verdict on the same results: for every function
/// with a Table 3 row that Table 5 does not list in float (with flushing, as the relaxed build
/// flushes) and every function in half and double, sampled inputs (special values included)
/// with the correctly rounded results, those moved by 1, 2, 3 or 100 ulp either way, negated,
/// zero, infinities or NaN as the device's. A pass has MPFR's error to 2^-28 ulp, a correctly
/// rounded result MPFR's error to 0.5 ulp; an undefined result is MPFR's undefined case, with
/// a distance of 0 or infinity (which the error map counts with no error, as it counts a fast
/// undefined).
#[test]
fn finite_math_fast_verdicts_are_mpfrs() {
    use crate::report::stats::{FastVerdict, Outcome};
    use crate::spec::table::{Profile, Revision};
    let full = crate::spec::table::builtin_in(
        &crate::spec::environment::OPENCL_SPIRV,
        Revision::Spec2026,
        Profile::Full,
    );
    let relaxed = crate::spec::relaxed_table::builtin_in(
        &crate::spec::environment::OPENCL_SPIRV,
        Revision::Spec2026,
    );
    let mut passes = std::collections::BTreeMap::new();
    let mut undefined = std::collections::BTreeMap::new();
    let mut failures = std::collections::BTreeMap::new();
    for element in [FloatType::Float, FloatType::Half, FloatType::Double] {
        let mask = u64::MAX >> (64 - element.bits());
        for function in FUNCTIONS {
            let Some(row) = full.row(function.name) else {
                continue;
            };
            if relaxed.rule(function.name, element).is_some() || function.shape.is_geometric() {
                continue;
            }
            let rules = crate::judge::Rules {
                finite_math_only: true,
                flushes_subnormals: element == FloatType::Float,
                ..rules_of(function, element, row.requirement(element).at_width(1))
            };
            let kinds = function.shape.signature().arguments;
            let seed = sweep::unit_seed(37, function.name, element, 1);
            let columns = sweep::generate(function, element, kinds, 400, 1, seed);
            for index in 0..columns[0].len() {
                let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                if !function.in_domain(&args) {
                    continue;
                }
                let exact = rules.exact_references(&args);
                let correct: Vec<f64> = exact
                    .iter()
                    .zip(function.outputs)
                    .map(|(exact, output)| match output.is_integer() {
                        true => exact.to_f64(),
                        false => element.round(exact.to_f64()),
                    })
                    .collect();
                // Every table output takes the candidate made of its correctly rounded result;
                // integer outputs keep theirs.
                let candidate = |make: &dyn Fn(f64) -> f64| -> Vec<f64> {
                    correct
                        .iter()
                        .zip(function.outputs)
                        .map(|(correct, output)| match output.is_integer() {
                            true => *correct,
                            false => make(*correct),
                        })
                        .collect()
                };
                let moved = |ulps: u64| {
                    move |correct: f64| {
                        element.from_bits(element.to_bits(correct).wrapping_add(ulps) & mask)
                    }
                };
                let mut candidates = vec![
                    candidate(&|correct| -correct),
                    candidate(&|_| 0.0),
                    candidate(&|_| f64::INFINITY),
                    candidate(&|_| f64::NEG_INFINITY),
                    candidate(&|_| f64::NAN),
                ];
                for ulps in [0u64, 1, 2, 3, 100] {
                    candidates.push(candidate(&moved(ulps)));
                    candidates.push(candidate(&moved(ulps.wrapping_neg())));
                }
                for results in candidates {
                    let Some(verdict) = rules.fast_verdict(&args, &results) else {
                        continue;
                    };
                    let case = rules.judge_exactly_with(0, &args, &results, &exact);
                    let what = format!(
                        "{}({args:?}) {element}: device {results:?}, fast {verdict:?}, MPFR {:?} \
                         {}",
                        function.name, case.outcome, case.error
                    );
                    let passed = matches!(case.outcome, Outcome::Pass | Outcome::Measured);
                    match verdict {
                        FastVerdict::Pass(error) => {
                            assert!(passed && !case.absolute, "{what}");
                            assert!((case.error - error).abs() <= 2f64.powi(-28), "{what}");
                        }
                        FastVerdict::CorrectlyRounded => {
                            assert!(passed && case.error <= 0.5, "{what}");
                        }
                        FastVerdict::Undefined => {
                            assert_eq!(case.outcome, Outcome::Undefined, "{what}");
                            assert!(case.error == 0.0 || case.error.is_infinite(), "{what}");
                            *undefined.entry((function.name, element)).or_insert(0) += 1;
                            continue;
                        }
                        FastVerdict::Fail(error) => {
                            assert_eq!(case.outcome, Outcome::Fail, "{what}");
                            assert!((case.error - error).abs() <= 2f64.powi(-28), "{what}");
                            *failures.entry((function.name, element)).or_insert(0) += 1;
                            continue;
                        }
                        other => panic!("{what}: no finite-math verdict is {other:?}"),
                    }
                    *passes.entry((function.name, element)).or_insert(0) += 1;
                }
            }
        }
    }
    // The functions that went to MPFR input by input under `--profile relaxed` (tgamma and
    // lgamma: 4 to 12 s at 2^18 inputs), exact ones, and double.
    let covered = [
        ("tgamma", FloatType::Float),
        ("lgamma", FloatType::Float),
        ("lgamma_r", FloatType::Float),
        ("erfc", FloatType::Float),
        ("fdim", FloatType::Float),
        ("frexp", FloatType::Float),
        ("remquo", FloatType::Float),
        ("mad", FloatType::Float),
        ("exp", FloatType::Half),
        ("sin", FloatType::Double),
        ("pow", FloatType::Double),
    ];
    assert_more_than(&passes, &covered, 300);
    // Overflows past the largest finite value, poles, NaN results.
    let covered = [
        ("tgamma", FloatType::Float),
        ("lgamma", FloatType::Float),
        ("exp", FloatType::Double),
        ("log", FloatType::Half),
    ];
    assert_more_than(&undefined, &covered, 20);
    // Results beyond a ULP bound, no allowance possible (flushed operands checked).
    let covered = [
        ("tgamma", FloatType::Float),
        ("erfc", FloatType::Float),
        ("half_recip", FloatType::Float),
        ("exp", FloatType::Half),
    ];
    assert_more_than(&failures, &covered, 100);
}

/// The judge hands a Table 5 rule the exact reference it computed for the output
/// (`RelaxedRule::judge_knowing`) instead of letting the rule compute its instruction's: both
/// must be the same value at the same precision. For every output of every function either
/// revision of Table 5 lists, on sampled float inputs (special values included), the registry's
/// reference and the rule's give equal values, signs of zero and NaNs.
#[test]
fn table_5_rules_measure_against_the_registry_references() {
    use crate::spec::relaxed_table::builtin_in;
    use crate::spec::table::{Requirement, Revision};
    let element = FloatType::Float;
    let mut compared = 0;
    for revision in [Revision::Spec2017, Revision::Spec2026] {
        for function in FUNCTIONS {
            let Some(rule) = builtin_in(&crate::spec::environment::OPENCL_SPIRV, revision)
                .rule(function.name, element)
            else {
                continue;
            };
            let rules = rules_of(function, element, Requirement::Ulp(4.0));
            let kinds = function.shape.signature().arguments;
            let seed = sweep::unit_seed(41, function.name, element, 1);
            let columns = sweep::generate(function, element, kinds, 300, 1, seed);
            for index in 0..columns[0].len() {
                let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                let registry = rules.exact_references(&args);
                for (position, registry) in registry.iter().enumerate() {
                    let Some(output_rule) = rule.output(position) else {
                        continue;
                    };
                    let exact_reference = output_rule
                        .exact_reference()
                        .unwrap_or_else(|| panic!("{}: a rule without a reference", function.name));
                    let own = reference::high_precision(exact_reference, &operands, element);
                    let what = format!("{}({args:?}) output {position}", function.name);
                    assert_eq!(own.prec(), registry.prec(), "{what}");
                    assert_eq!(own.is_nan(), registry.is_nan(), "{what}");
                    if !own.is_nan() {
                        assert_eq!(own, *registry, "{what}");
                        assert_eq!(
                            own.is_sign_negative(),
                            registry.is_sign_negative(),
                            "{what}"
                        );
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 20_000, "{compared}");
}
