//! Tests of the judge: the fast tiers against MPFR, the allowances, the outputs' own rules.

use super::*;
use crate::judge::allowance::NEXTAFTER_STRICTER_THAN_CTS;
use crate::judge::mpfr::rounds_to_infinity;
use crate::reference as r;
use crate::reference::binding;
use crate::report::stats::{input_region, UnitStats};
use crate::report::stats::{Allowance, FastVerdict, Outcome};
use crate::spec::reference_id::ReferenceId;
use crate::spec::registry::OutputCheck;

/// The argument kinds of a function of `shape` whose arguments a fast-tier test samples
/// (float arguments, and pown's and rootn's int); `None` for the shapes it skips.
fn argument_kinds(
    shape: crate::spec::signature::Shape,
) -> Option<Vec<crate::spec::signature::ValueKind>> {
    use crate::spec::signature::{Shape, ValueKind};
    Some(match shape {
        Shape::Unary => vec![ValueKind::FloatGentype],
        Shape::Binary => vec![ValueKind::FloatGentype; 2],
        Shape::Ternary => vec![ValueKind::FloatGentype; 3],
        Shape::FloatInt => vec![ValueKind::FloatGentype, ValueKind::IntGentype],
        _ => return None,
    })
}

/// `value` moved `steps` encodings of `element` up (down where negative; no further down
/// than the encoding 0), as a device result near it; a value that is not finite as it is.
fn ulps_away(value: f64, element: FloatType, steps: i64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let bits = element.to_bits(value) as i64;
    element.from_bits((bits + steps).max(0) as u64)
}

/// Every verdict the fast tiers give is MPFR's verdict on the same result: for sampled
/// inputs (special values included) of every one-output function with a fast reference,
/// in every format, under a ULP bound and a correctly rounded cell, with the correctly
/// rounded result, its neighbours, results a few ulp away, zero, max and infinity as the
/// device's result.
#[test]
fn fast_tiers_decide_as_mpfr_does() {
    use crate::spec::registry::FUNCTIONS;
    let mut decided = [0usize; 4];
    let mut failed = 0;
    let mut column_matches = 0;
    let mut column_nans = 0;
    let mut column_overflows = 0;
    let mut double_overflows = 0;
    let mut beside_power_of_two = 0;
    let mut poles = 0;
    let mut near_half = 0;
    let mut exact_midpoints = 0;
    for function in FUNCTIONS {
        let [output] = function.outputs else { continue };
        if binding::float_tier(output).is_none() {
            continue;
        }
        use crate::spec::signature::ValueKind;
        let Some(kinds) = argument_kinds(function.shape) else {
            continue;
        };
        for element in FloatType::ALL {
            let seed = crate::sweep::unit_seed(5, function.name, element, 1);
            let mut columns = crate::sweep::generate(function, element, &kinds, 250, 1, seed);
            // Poles and overflows past double and past MPFR's own range, explicitly: every
            // pair of these (the first argument's value, the others'); an int argument
            // takes the integers (pown's n past 2^24 included).
            // Tiny arguments put exp, cos, erfc, acospi, pow (and more) on a power of two.
            let extremes = [
                0.0, -0.0, 1.0, -1.0, -2.0, 0.5, 100.0, -100.0, 1e4, 1e9, 3e38, 1e-30, -3e-20,
            ];
            let integers = [
                0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 40.0, -40.0, 33554433.0, -7.0, 5e8, -6e8,
            ];
            for first in 0..extremes.len() {
                for other in 0..extremes.len() {
                    for (position, column) in columns.iter_mut().enumerate() {
                        let choice = if position == 0 { first } else { other };
                        column.push(match kinds[position] {
                            ValueKind::IntGentype => integers[choice],
                            _ => element.round(extremes[choice]),
                        });
                    }
                }
            }
            for requirement in [
                Requirement::Ulp(4.0),
                Requirement::CorrectlyRounded,
                Requirement::ImplementationDefined,
            ] {
                // What MPFR calls a result the fast tiers pass: an implementation-defined
                // cell measures it.
                let passed = if requirement == Requirement::ImplementationDefined {
                    Outcome::Measured
                } else {
                    Outcome::Pass
                };
                let mut rules = rules(output.reference, requirement.clone(), false);
                rules.outputs = vec![*output];
                rules.element = element;
                for index in 0..columns[0].len() {
                    let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                    let correct = r::correctly_rounded(
                        binding::mpfr(output.reference),
                        &to_floats(&args),
                        element,
                    )
                    .to_f64();
                    let step = |steps: i64| ulps_away(correct, element, steps);
                    let max = element.max_finite();
                    for device in [
                        correct,
                        step(1),
                        step(-1),
                        step(3),
                        step(-3),
                        step(5),
                        0.0,
                        max,
                        -max,
                        f64::INFINITY,
                        f64::NEG_INFINITY,
                    ] {
                        let verdict = rules.fast_verdict(&args, &[device]);
                        // A sweep's column of correctly rounded results decides what the
                        // fast tiers would: a finite result equal to it is correctly
                        // rounded.
                        if let Some(correctly_rounded) = rules.correctly_rounded_fn() {
                            let column_value = correctly_rounded(&args);
                            if column_value.is_finite() && device == column_value {
                                column_matches += 1;
                                assert_eq!(
                                    verdict,
                                    Some(FastVerdict::CorrectlyRounded),
                                    "{}({args:?}) {element} {requirement:?}",
                                    function.name
                                );
                            }
                            // And a NaN where it is NaN passes with no error (inside
                            // the domain: a sweep counts the rest as undefined).
                            // And an infinity where it is that infinity gets the
                            // fast verdict's overflow or a pole's pass where
                            // `infinity_verdict` says so.
                            if column_value.is_infinite() && device == column_value {
                                if let Some(overflow) = rules.infinity_verdict(&args, device) {
                                    column_overflows += 1;
                                    assert_eq!(
                                        verdict,
                                        Some(overflow),
                                        "{}({args:?}) {element} {requirement:?}",
                                        function.name
                                    );
                                }
                            }
                            if rules.correctly_rounded_nan_passes()
                                && column_value.is_nan()
                                && device.is_nan()
                                && function.in_domain(&args)
                            {
                                column_nans += 1;
                                assert_eq!(
                                    verdict,
                                    Some(FastVerdict::Pass(0.0)),
                                    "{}({args:?}) {element} {requirement:?}",
                                    function.name
                                );
                            }
                        }
                        let Some(verdict) = verdict else {
                            continue;
                        };
                        // A sum of halves on a midpoint of half, rounded to even, in a
                        // correctly rounded cell.
                        exact_midpoints += usize::from(
                            requirement == Requirement::CorrectlyRounded
                                && element == FloatType::Half
                                && binding::double_tier_is_exact(output, element)
                                && binding::fast_tier(output).is_some_and(|fast| {
                                    r::is_midpoint(fast(&args), element)
                                        && device == element.round(fast(&args))
                                }),
                        );
                        // rootn's near tier decides half results too.
                        near_half += usize::from(
                            element == FloatType::Half && binding::near_tier(output).is_some(),
                        );
                        let case = rules.judge_exactly(0, &args, &[device]);
                        let what = format!(
                            "{}({args:?}) {element} {requirement:?}: device {device:e}, \
                             fast {verdict:?}, MPFR {:?} {}",
                            function.name, case.outcome, case.error
                        );
                        match verdict {
                            FastVerdict::Pass(error) => {
                                decided[0] += 1;
                                // An infinity passed: a pole ([`Rules::infinite_verdict`]).
                                poles += usize::from(device.is_infinite());
                                let approximation = binding::fast_tier(output)
                                    .or_else(|| binding::near_tier(output))
                                    .map(|double| double(&args));
                                // Measured beside a power of two (`reference::side`).
                                if approximation
                                    .is_some_and(|a| r::side::exponent_of_power_of_two(a).is_some())
                                    && device != correct
                                {
                                    beside_power_of_two += 1;
                                }
                                assert_eq!(case.outcome, passed, "{what}");
                                // Huge measured errors agree to double's own precision.
                                let tolerance = 1e-6 * case.error.max(1.0);
                                assert!((case.error - error).abs() <= tolerance, "{what}");
                            }
                            FastVerdict::CorrectlyRounded => {
                                decided[1] += 1;
                                assert_eq!(case.outcome, passed, "{what}");
                                assert!(case.error <= 0.5, "{what}");
                            }
                            FastVerdict::Overflow => {
                                decided[2] += 1;
                                double_overflows += usize::from(element == FloatType::Double);
                                assert_eq!(
                                    case.outcome,
                                    Outcome::Allowed(Allowance::Overflow),
                                    "{what}"
                                );
                            }
                            FastVerdict::CorrectlyRoundedOverflow => {
                                decided[3] += 1;
                                double_overflows += usize::from(element == FloatType::Double);
                                assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                assert!(case.error.is_infinite(), "{what}");
                            }
                            FastVerdict::Fail(error) => {
                                failed += 1;
                                assert_eq!(case.outcome, Outcome::Fail, "{what}");
                                let tolerance = 1e-6 * case.error.max(1.0);
                                assert!((case.error - error).abs() <= tolerance, "{what}");
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
    assert!(decided.iter().all(|count| *count > 0), "{decided:?}");
    // Results far beyond a ULP bound, where no allowance applies.
    assert!(failed > 10_000, "{failed}");
    // Double overflows too (exp(5e8), pow(5e8, 40)), by the flag CORE-MATH raises.
    assert!(double_overflows > 10, "{double_overflows}");
    assert!(column_matches > 1000, "{column_matches}");
    assert!(column_nans > 100, "{column_nans}");
    assert!(column_overflows > 100, "{column_overflows}");
    assert!(beside_power_of_two > 1000, "{beside_power_of_two}");
    // lgamma(0), lgamma(-2), atanh(1), log(0), rsqrt(0), 1/0, pow(0, -1), tanpi(0.5)...
    assert!(poles > 10_000, "{poles}");
    assert!(near_half > 1000, "{near_half}");
    assert!(exact_midpoints > 20, "{exact_midpoints}");
}

/// lgamma_r's cell is implementation-defined: the fast tiers measure its value as MPFR
/// does, and take its sign output unchecked, as MPFR's verdict does.
#[test]
fn fast_tiers_measure_lgamma_r_as_mpfr_does() {
    let function = crate::spec::registry::FUNCTIONS
        .iter()
        .find(|f| f.name == "lgamma_r")
        .expect("lgamma_r");
    let mut rules = rules(
        ReferenceId::Lgamma,
        Requirement::ImplementationDefined,
        false,
    );
    rules.outputs = function.outputs.to_vec();
    let mut measured = 0;
    for x in [-3.7f32, -0.4, 0.3, 1.5, 2.5, 7.25, 30.0, 1.0e30] {
        let args = [f64::from(x)];
        let value = f64::from(crate::reference::fast::lgammaf(&args) as f32);
        let next = f64::from(f32::from_bits((value as f32).to_bits() + 3));
        for device in [[value, 1.0], [next, -1.0], [next, 5.0]] {
            let case = rules.judge_exactly(0, &args, &device);
            assert_eq!(case.outcome, Outcome::Measured, "{x}");
            match rules.fast_verdict(&args, &device) {
                Some(FastVerdict::Pass(error)) => {
                    assert!((case.error - error).abs() <= 1e-6, "{x} {device:?}");
                    measured += 1;
                }
                Some(FastVerdict::CorrectlyRounded) => assert!(case.error <= 0.5),
                other => panic!("lgamma_r({x}) {device:?}: {other:?}"),
            }
        }
    }
    assert!(measured >= 8, "{measured}");
    // At its poles (zero and the negative integers) the value is +inf exactly, whatever
    // sign comes with it.
    for x in [0.0, -3.0, -1.0e30] {
        for sign in [1.0, -1.0, 0.0] {
            let device = [f64::INFINITY, sign];
            let case = rules.judge_exactly(0, &[x], &device);
            assert_eq!((case.outcome, case.error), (Outcome::Measured, 0.0), "{x}");
            assert_eq!(
                rules.fast_verdict(&[x], &device),
                Some(FastVerdict::Pass(0.0)),
                "{x}"
            );
        }
    }
}

/// remquo's exact host computation decides as MPFR does, on sampled inputs with the
/// exact results and perturbed ones, NaN remainders included.
#[test]
fn remquo_without_mpfr_decides_as_mpfr_does() {
    let function = crate::spec::registry::FUNCTIONS
        .iter()
        .find(|f| f.name == "remquo")
        .expect("remquo");
    let (mut passes, mut nan_passes) = (0, 0);
    for element in FloatType::ALL {
        let mut rules = rules(
            ReferenceId::Fma,
            Requirement::RemquoExact { quotient_bits: 7 },
            false,
        );
        rules.outputs = function.outputs.to_vec();
        rules.element = element;
        let kinds = [crate::spec::signature::ValueKind::FloatGentype; 2];
        let seed = crate::sweep::unit_seed(9, "remquo", element, 1);
        let columns = crate::sweep::generate(function, element, &kinds, 3000, 1, seed);
        for (x, y) in columns[0].iter().zip(&columns[1]) {
            let args = [*x, *y];
            let operands = to_floats(&args);
            let remainder = r::correctly_rounded(r::remquo_remainder, &operands, element).to_f64();
            let quotient = r::high_precision(r::remquo_quotient, &operands, element)
                .to_integer()
                .map(|q| (q % (1u64 << 30)).to_f64())
                .unwrap_or(0.0);
            for (device_remainder, device_quotient) in [
                (remainder, quotient),
                (remainder, -quotient),
                (remainder, quotient + 1.0),
                (remainder, quotient + 128.0),
                (element.round(remainder * 1.5 + 1e-30), quotient),
            ] {
                let device = [device_remainder, device_quotient];
                let Some(verdict) = rules.fast_verdict(&args, &device) else {
                    continue;
                };
                let case = rules.judge_exactly(0, &args, &device);
                assert_eq!(verdict, FastVerdict::Pass(0.0));
                assert_eq!(
                    (case.outcome, case.error),
                    (Outcome::Pass, 0.0),
                    "remquo({args:?}) {element}: device {device:?}"
                );
                passes += 1;
                // A NaN argument, x infinite or y zero: NaN and a quotient of 0.
                nan_passes += usize::from(device_remainder.is_nan());
            }
        }
    }
    assert!(passes > 3000, "{passes}");
    assert!(nan_passes > 1000, "{nan_passes}");
}

/// Past double's range: exp(1e9) in float is a finite result (beyond even MPFR's exponent
/// range) that overflows, accepted as such by both tiers; atanh(1) is a pole, whose
/// infinity both tiers pass as the exact result.
#[test]
fn overflow_past_double_is_told_from_a_pole() {
    let mut exp = rules(ReferenceId::Exp, Requirement::Ulp(3.0), false);
    exp.outputs[0].fast_tier = true;
    let infinity = [f64::INFINITY];
    assert_eq!(
        exp.fast_verdict(&[1e9], &infinity),
        Some(FastVerdict::Overflow)
    );
    assert_eq!(
        exp.judge_exactly(0, &[1e9], &infinity).outcome,
        Outcome::Allowed(Allowance::Overflow)
    );
    let mut atanh = rules(ReferenceId::Atanh, Requirement::Ulp(5.0), false);
    atanh.outputs[0].fast_tier = true;
    assert_eq!(
        atanh.fast_verdict(&[1.0], &infinity),
        Some(FastVerdict::Pass(0.0))
    );
    let pole = atanh.judge_exactly(0, &[1.0], &infinity);
    assert_eq!((pole.outcome, pole.error), (Outcome::Pass, 0.0));
}

#[test]
fn midpoints_of_each_format_are_found() {
    use crate::reference::is_midpoint;
    let float = FloatType::Float;
    assert!(is_midpoint(1.0 + 2f64.powi(-24), float));
    assert!(is_midpoint(-(1.0 + 3.0 * 2f64.powi(-24)), float));
    assert!(!is_midpoint(1.0 + 2f64.powi(-23), float));
    assert!(!is_midpoint(1.0 + 2f64.powi(-25), float));
    // Between 0 and the smallest subnormal, and between two subnormals.
    assert!(is_midpoint(2f64.powi(-150), float));
    assert!(is_midpoint(3.0 * 2f64.powi(-150), float));
    assert!(!is_midpoint(2f64.powi(-149), float));
    // The overflow threshold, max + ulp/2.
    assert!(is_midpoint(f64::from(f32::MAX) + 2f64.powi(103), float));
    assert!(!is_midpoint(2f64.powi(128), float));
    assert!(is_midpoint(1.0 + 2f64.powi(-11), FloatType::Half));
    assert!(is_midpoint(65520.0, FloatType::Half));
    assert!(!is_midpoint(0.0, float) && !is_midpoint(f64::NAN, float));
    // Rounded once: the value half::f16::from_f64 rounds twice (through float).
    let round = |value: f64| FloatType::Half.round(value);
    assert_eq!(round(1.5708007974), 1.5712890625);
    assert_eq!(round(65519.0), 65504.0);
    assert_eq!(round(-65520.0), f64::NEG_INFINITY);
    assert_eq!(round(2f64.powi(-25) * 1.5), 2f64.powi(-24));
    assert_eq!(round(2f64.powi(-25)), 0.0);
}

/// One reference pass for all widths: references computed once for an input, with any
/// width's rules, judge every width's result exactly as each width's rules judge alone.
#[test]
fn references_computed_once_judge_every_width_as_alone() {
    let sin = crate::spec::registry::find("sin").unwrap();
    for element in [FloatType::Float, FloatType::Double] {
        // Widths' bounds differ ("2.5 + 2n ulp" cells); a correctly rounded cell too.
        let widths: Vec<Rules> = [
            Requirement::Ulp(4.0),
            Requirement::Ulp(1.0),
            Requirement::Ulp(34.5),
            Requirement::CorrectlyRounded,
        ]
        .into_iter()
        .map(|requirement| {
            let mut rules = rules(sin.outputs[0].reference, requirement, false);
            rules.outputs = sin.outputs.to_vec();
            rules.element = element;
            rules
        })
        .collect();
        let mut fast_judged = 0;
        for x in [
            0.5,
            -1.25,
            3.0,
            1e-3,
            1e6,
            0.0,
            f64::INFINITY,
            f64::NAN,
            1e-310,
        ] {
            let args = [element.round(x)];
            let correct = element.round(x.sin());
            let mut fast = FastReference::new();
            let exact = widths[0].exact_references(&args);
            for (steps, rules) in [0i64, 1, -3, 40].into_iter().zip(widths.iter().cycle()) {
                let device = if correct.is_finite() {
                    element.from_bits((element.to_bits(correct) as i64 + steps).max(0) as u64)
                } else {
                    correct
                };
                let shared = rules.fast_verdict_with(&mut fast, &args, &[device]);
                assert_eq!(shared, rules.fast_verdict(&args, &[device]), "{x} {steps}");
                fast_judged += usize::from(shared.is_some());
                let alone = rules.judge_exactly(3, &args, &[device]);
                let with = rules.judge_exactly_with(3, &args, &[device], &exact);
                // References compared as text: a NaN reference equals no Float.
                let seen = |case: &Case| {
                    let references: Vec<String> =
                        case.references.iter().map(|r| format!("{r:?}")).collect();
                    (case.outcome, case.error.to_bits(), case.output, references)
                };
                assert_eq!(seen(&with), seen(&alone), "{x} {steps}");
            }
        }
        assert!(fast_judged > 0, "the fast tier decided none");
    }
}

pub(super) fn rules(reference: ReferenceId, requirement: Requirement, flushes: bool) -> Rules {
    Rules {
        flushes_subnormals: flushes,
        ..with_outputs(vec![table(reference)], requirement)
    }
}

#[test]
fn finite_math_only_leaves_results_that_round_to_infinity_undefined() {
    let mut fdim = rules(ReferenceId::Fdim, Requirement::Ulp(0.0), false);
    fdim.finite_math_only = true;
    let max = f64::from(f32::MAX);
    // max + 2^102 rounds down to max; max + 2^103, the midpoint, ties to infinity.
    let below_midpoint = -(2f64.powi(102));
    let at_midpoint = -(2f64.powi(103));
    let outcome = |y: f64, device_result: f64| fdim.judge(0, &[max, y], &[device_result]).outcome;
    // The correctly rounded max is accepted (by the overflow allowance, as it is max).
    assert!(!matches!(
        outcome(below_midpoint, max),
        Outcome::Fail | Outcome::Undefined
    ));
    assert_eq!(outcome(below_midpoint, 0.0), Outcome::Fail);
    assert_eq!(outcome(at_midpoint, 0.0), Outcome::Undefined);
    assert_eq!(outcome(-max, 0.0), Outcome::Undefined);
    for element in [FloatType::Half, FloatType::Float, FloatType::Double] {
        let max = element.max_finite();
        let half_ulp = crate::num::ulp::ulp_of(&Float::with_val(53, max), element) / 2.0;
        let midpoint = Float::with_val(element.precision() + 1, max) + half_ulp;
        let just_below = Float::with_val(element.precision() + 8, &midpoint) - half_ulp / 128.0;
        assert!(rounds_to_infinity(&midpoint, element), "{element:?}");
        assert!(!rounds_to_infinity(&just_below, element), "{element:?}");
        assert!(
            !rounds_to_infinity(&Float::with_val(53, -max), element),
            "{element:?}"
        );
        assert!(rounds_to_infinity(
            &Float::with_val(53, f64::NEG_INFINITY),
            element
        ));
    }
}

/// The double tier proves an exact half or float value past the largest finite one to
/// round to infinity only beyond the midpoint `t` (`Rules::exact_result_finite`): half
/// hypot(65504, 1024) ~ 65512.004 lies between 65504 and t = 65520 and rounds to 65504, so
/// no fast verdict; hypot(65504, 2048) ~ 65536.03 is past t, and an infinite result there
/// is undefined, as MPFR finds.
#[test]
fn finite_math_proves_an_overflow_only_past_the_midpoint() {
    let mut hypot = rules(ReferenceId::Hypot, Requirement::Ulp(2.0), false);
    hypot.outputs[0].fast_tier = true;
    hypot.element = FloatType::Half;
    hypot.finite_math_only = true;
    for device_result in [f64::INFINITY, 65504.0] {
        assert_eq!(
            hypot.fast_verdict(&[65504.0, 1024.0], &[device_result]),
            None
        );
    }
    let below = hypot.judge_exactly(0, &[65504.0, 1024.0], &[65504.0]);
    assert_eq!(below.outcome, Outcome::Pass);
    let past = [65504.0, 2048.0];
    assert_eq!(
        hypot.fast_verdict(&past, &[f64::INFINITY]),
        Some(FastVerdict::Undefined)
    );
    assert_eq!(
        hypot.judge_exactly(0, &past, &[f64::INFINITY]).outcome,
        Outcome::Undefined
    );
    // A finite result there is measured (a finite distance), by MPFR.
    assert_eq!(hypot.fast_verdict(&past, &[65504.0]), None);
}

fn next_up(x: f32) -> f64 {
    f64::from(f32::from_bits(x.to_bits() + 1))
}

#[test]
fn ulp_bound_passes_within_and_fails_beyond() {
    let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
    let x = 1.0f32;
    let good = f64::from(x.sin());
    assert_eq!(
        sin.judge(0, &[f64::from(x)], &[good]).outcome,
        Outcome::Pass
    );
    let mut far = x.sin();
    for _ in 0..6 {
        far = f32::from_bits(far.to_bits() + 1);
    }
    let case = sin.judge(0, &[f64::from(x)], &[f64::from(far)]);
    assert_eq!(case.outcome, Outcome::Fail);
    assert!(case.error > 5.0 && case.error < 7.0, "{}", case.error);
}

#[test]
fn correctly_rounded_needs_the_exact_bits() {
    let add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, false);
    let (x, y) = (1.0f32, 1.0e-8f32);
    let sum = f64::from(x + y);
    assert_eq!(
        add.judge(0, &[1.0, f64::from(y)], &[sum]).outcome,
        Outcome::Pass
    );
    assert_eq!(
        add.judge(0, &[1.0, f64::from(y)], &[next_up(x + y)])
            .outcome,
        Outcome::Fail
    );
    // Zeros compare by value here; their sign is the edge-case rules' to check.
    let ceil = rules(ReferenceId::Ceil, Requirement::CorrectlyRounded, false);
    assert_eq!(ceil.judge(0, &[-0.5], &[-0.0]).outcome, Outcome::Pass);
    assert_eq!(ceil.judge(0, &[-0.5], &[0.0]).outcome, Outcome::Pass);
    assert_eq!(ceil.judge(0, &[-1.5], &[-2.0]).outcome, Outcome::Fail);
}

#[test]
fn correctly_rounded_follows_the_default_rounding_mode() {
    let mut div = rules(ReferenceId::Div, Requirement::CorrectlyRounded, false);
    let nearest = f64::from(1.0f32 / 3.0);
    let toward_zero = f64::from(f32::from_bits((1.0f32 / 3.0).to_bits() - 1));
    assert_eq!(div.judge(0, &[1.0, 3.0], &[nearest]).outcome, Outcome::Pass);
    assert_eq!(
        div.judge(0, &[1.0, 3.0], &[toward_zero]).outcome,
        Outcome::Fail
    );
    div.rounding = Round::Zero;
    assert_eq!(
        div.judge(0, &[1.0, 3.0], &[toward_zero]).outcome,
        Outcome::Pass
    );
    assert_eq!(div.judge(0, &[1.0, 3.0], &[nearest]).outcome, Outcome::Fail);
}

/// acospi(-2^-149) is 0.5 + 2^-149/π: just above 0.5, in the binade of ulp 2^-24, though
/// it rounds to 0.5 at the working precision. The next float up is 1 ulp off, not the 2
/// that the gap below 0.5 would give; exp(-2^-120), just below 1, keeps the gap below.
#[test]
fn an_exact_value_just_beyond_a_power_of_two_keeps_its_binade() {
    let acospi = rules(ReferenceId::Acospi, Requirement::Ulp(4.0), false);
    let tiny = -(2f64.powi(-149));
    let case = acospi.judge_exactly(0, &[tiny], &[0.5 + 2f64.powi(-24)]);
    assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
    let exp = rules(ReferenceId::Exp, Requirement::Ulp(4.0), false);
    let case = exp.judge_exactly(0, &[-(2f64.powi(-120))], &[1.0 - 2f64.powi(-24)]);
    assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
    let case = exp.judge_exactly(0, &[2f64.powi(-120)], &[1.0 + 2f64.powi(-23)]);
    assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
}

/// rootn's fast tiers: the float version passes the correctly rounded bits, the near
/// approximation measures other results as MPFR does, except where the exact value's
/// binade is in doubt (a root that is a power of two).
#[test]
fn rootn_is_measured_against_its_near_approximation() {
    let mut rootn = rules(ReferenceId::Rootn, Requirement::Ulp(16.0), false);
    rootn.outputs[0].fast_tier = true;
    let cube_root_of_ten = f64::from(10f64.cbrt() as f32);
    let two_ulp_off = f64::from(f32::from_bits((cube_root_of_ten as f32).to_bits() + 2));
    assert_eq!(
        rootn.fast_verdict(&[10.0, 3.0], &[cube_root_of_ten]),
        Some(FastVerdict::CorrectlyRounded)
    );
    let Some(FastVerdict::Pass(error)) = rootn.fast_verdict(&[10.0, 3.0], &[two_ulp_off]) else {
        panic!("rootn(10, 3) two ulp off is measured");
    };
    let case = rootn.judge_exactly(0, &[10.0, 3.0], &[two_ulp_off]);
    assert!(
        (error - case.error).abs() < 1e-7 && error > 1.5,
        "{error} {}",
        case.error
    );
    assert_eq!(
        rootn.fast_verdict(&[8.0, 3.0], &[2.0]),
        Some(FastVerdict::CorrectlyRounded)
    );
    assert_eq!(rootn.fast_verdict(&[8.0, 3.0], &[next_up(2.0)]), None);
    assert_eq!(
        rootn.fast_verdict(&[-8.0, 2.0], &[f64::NAN]),
        Some(FastVerdict::Pass(0.0))
    );
}

#[test]
fn mad_accepts_either_allowed_implementation() {
    let mad = rules(ReferenceId::Fma, Requirement::MadFmaOrMulAdd, false);
    let x = 1.0 - 2f64.powi(-24);
    let y = 1.0 + 2f64.powi(-24);
    assert_eq!(
        mad.judge(0, &[x, y, -1.0], &[-(2f64.powi(-48))]).outcome,
        Outcome::Pass
    );
    assert_eq!(mad.judge(0, &[x, y, -1.0], &[0.0]).outcome, Outcome::Pass);
    assert_eq!(
        mad.judge(0, &[x, y, -1.0], &[2f64.powi(-48)]).outcome,
        Outcome::Fail
    );
    // The fast tiers pass the correctly rounded fma, and a zero multiply-add (whose sign
    // they leave to MPFR). (Float operands: (1 + 2^-23)(1 − 2^-23) − 1 is −2^-46, the
    // product alone rounds to 1.)
    let mut mad = mad;
    mad.outputs[0].fast_tier = true;
    let args = [1.0 + 2f64.powi(-23), 1.0 - 2f64.powi(-23), -1.0];
    assert_eq!(
        mad.fast_verdict(&args, &[-(2f64.powi(-46))]),
        Some(FastVerdict::CorrectlyRounded)
    );
    assert_eq!(mad.fast_verdict(&args, &[0.0]), None);
    assert_eq!(mad.judge(0, &args, &[0.0]).outcome, Outcome::Pass);
    assert_eq!(mad.fast_verdict(&args, &[2f64.powi(-46)]), None);
}

/// A device result that is mad's multiply-then-add passes the fast tiers as MPFR passes
/// it, with MPFR's error (against the exact fma): sampled half and float inputs, the
/// multiply-add as MPFR rounds it as the device's result, and its neighbours, which only
/// MPFR judges.
#[test]
fn mad_multiply_then_add_decides_as_mpfr_does() {
    let function = crate::spec::registry::find("mad").expect("mad");
    let mut decided = 0;
    for element in [FloatType::Half, FloatType::Float] {
        let mut mad = rules(ReferenceId::Fma, Requirement::MadFmaOrMulAdd, false);
        mad.outputs[0].fast_tier = true;
        mad.element = element;
        let kinds = [crate::spec::signature::ValueKind::FloatGentype; 3];
        let seed = crate::sweep::unit_seed(11, "mad", element, 1);
        let columns = crate::sweep::generate(function, element, &kinds, 12_000, 1, seed);
        for index in 0..columns[0].len() {
            let args: Vec<f64> = columns.iter().map(|column| column[index]).collect();
            let mul_then_add =
                r::correctly_rounded(r::mul_then_add, &to_floats(&args), element).to_f64();
            let fma = r::correctly_rounded(r::fma, &to_floats(&args), element).to_f64();
            if !mul_then_add.is_finite() || mul_then_add == fma {
                continue;
            }
            let bits = element.to_bits(mul_then_add);
            for device in [
                mul_then_add,
                element.from_bits(bits + 1),
                element.from_bits(bits.saturating_sub(1)),
            ] {
                let verdict = mad.fast_verdict(&args, &[device]);
                if device == fma {
                    // The correctly rounded fma: the fma's tiers.
                    continue;
                }
                if device != mul_then_add {
                    assert_eq!(verdict, None, "mad({args:?}) {element}: {device:e}");
                    continue;
                }
                let case = mad.judge_exactly(0, &args, &[device]);
                let Some(FastVerdict::Pass(error)) = verdict else {
                    // A zero, or an fma beside a power of two: MPFR's.
                    continue;
                };
                assert_eq!(case.outcome, Outcome::Pass, "mad({args:?}) {element}");
                assert!(
                    (case.error - error).abs() <= 1e-6 * case.error.max(1.0),
                    "mad({args:?}) {element}: fast {error}, MPFR {}",
                    case.error
                );
                decided += 1;
            }
        }
    }
    assert!(decided > 300, "{decided}");
}

#[test]
fn overflow_allowance_applies_only_where_the_bound_reaches_past_max() {
    let exp = rules(ReferenceId::Exp, Requirement::Ulp(3.0), false);
    // exp(89) ≈ 4.5e38 > FLT_MAX: infinity allowed (and counted as an allowance).
    let case = exp.judge(0, &[89.0], &[f64::INFINITY]);
    assert_eq!(case.outcome, Outcome::Allowed(Allowance::Overflow));
    assert_eq!(
        exp.judge(0, &[89.0], &[f64::from(f32::MAX)]).outcome,
        Outcome::Allowed(Allowance::Overflow)
    );
    // exp(80) ≈ 5.5e34: infinity is wrong.
    assert_eq!(
        exp.judge(0, &[80.0], &[f64::INFINITY]).outcome,
        Outcome::Fail
    );
    // Wrong sign is never allowed.
    assert_eq!(
        exp.judge(0, &[89.0], &[f64::NEG_INFINITY]).outcome,
        Outcome::Fail
    );
}

#[test]
fn flush_to_zero_alternatives_apply_only_without_denormals() {
    let tiny = f64::from(f32::from_bits(100));
    // sin(tiny) = tiny: flushing the operand gives sin(±0) = ±0.
    let strict = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
    assert_eq!(strict.judge(0, &[tiny], &[0.0]).outcome, Outcome::Fail);
    let flushing = rules(ReferenceId::Sin, Requirement::Ulp(4.0), true);
    let case = flushing.judge(0, &[tiny], &[0.0]);
    assert_eq!(case.outcome, Outcome::Allowed(Allowance::FlushedResult));
    // A subnormal operand read as zero: FLT_MIN + tiny with tiny flushed gives FLT_MIN,
    // 100 ulp from the exact (representable) sum.
    let add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, true);
    let min_normal = f64::from(f32::MIN_POSITIVE);
    let sum_case = add.judge(0, &[min_normal, tiny], &[min_normal]);
    assert_eq!(
        sum_case.outcome,
        Outcome::Allowed(Allowance::FlushedOperands)
    );
    let strict_add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, false);
    assert_eq!(
        strict_add
            .judge(0, &[min_normal, tiny], &[min_normal])
            .outcome,
        Outcome::Fail
    );
    // Flushing never excuses a wrong normal result.
    assert_eq!(flushing.judge(0, &[1.0], &[0.0]).outcome, Outcome::Fail);
}

#[test]
fn integer_outputs_get_the_flushed_operand_rule() {
    let integer = |reference| Output {
        reference,
        check: OutputCheck::Integer,
        fast_tier: false,
    };
    let tiny = f64::from(f32::from_bits(100));
    let mut ilogb = with_outputs(vec![integer(ReferenceId::Ilogb)], Requirement::Exact);
    // ilogb(±0) is FP_ILOGB0, which the spec leaves open: any value, once x reads as 0.
    assert_eq!(
        ilogb.judge(0, &[tiny], &[-2147483648.0]).outcome,
        Outcome::Fail
    );
    ilogb.flushes_subnormals = true;
    assert_eq!(
        ilogb.judge(0, &[tiny], &[-2147483648.0]).outcome,
        Outcome::Allowed(Allowance::FlushedOperands)
    );
    // A normal input gets no allowance.
    assert_eq!(ilogb.judge(0, &[8.0], &[2.0]).outcome, Outcome::Fail);
    // remquo's quotient with a flushed divisor: remquo(1, ±0) has no quotient (NaN
    // remainder), and a flushed dividend gives quotient 0.
    let quotient = Output {
        reference: ReferenceId::RemquoQuotient,
        check: OutputCheck::QuotientLowBits,
        fast_tier: false,
    };
    let mut remquo = with_outputs(
        vec![table(ReferenceId::RemquoRemainder), quotient],
        Requirement::RemquoExact { quotient_bits: 7 },
    );
    remquo.flushes_subnormals = true;
    let case = remquo.judge(0, &[tiny, 1.0], &[0.0, 0.0]);
    assert_ne!(case.outcome, Outcome::Fail);
    let case = remquo.judge(0, &[tiny, 1.0], &[0.0, 1.0]);
    assert_eq!(case.outcome, Outcome::Fail);
}

#[test]
fn nextafter_flush_results_in_the_sweep() {
    let mut nextafter = rules(ReferenceId::Nextafter, Requirement::Exact, true);
    nextafter.function = "nextafter";
    let min = f64::from(f32::MIN_POSITIVE);
    let allowed = |x: f64, y: f64, d: f64| nextafter.judge(0, &[x, y], &[d]).outcome;
    assert_eq!(
        allowed(min, 0.0, 0.0),
        Outcome::Allowed(Allowance::FlushedResult)
    );
    assert_eq!(
        allowed(-min, 1.0, -0.0),
        Outcome::Allowed(Allowance::FlushedResult)
    );
    assert_eq!(
        allowed(-0.0, 1.0, min),
        Outcome::Allowed(Allowance::FlushedResult)
    );
    assert_eq!(
        allowed(0.0, -1.0, -min),
        Outcome::Allowed(Allowance::FlushedResult)
    );
    // Not away from zero: nextafter(+smallest normal, 1) is its successor.
    assert_eq!(allowed(min, 1.0, 0.0), Outcome::Fail);
    // Wrong sign: the step goes towards y.
    assert_eq!(allowed(-0.0, 1.0, -min), Outcome::Fail);
    nextafter.flushes_subnormals = false;
    assert_eq!(
        nextafter.judge(0, &[min, 0.0], &[0.0]).outcome,
        Outcome::Fail
    );
}

/// The same step off zero from the other zero lands on the smallest normal too, as the
/// Khronos CTS accepts: nextafter(+0, 0x1p-126) = 0x1p-126 (y normal, x not flushed, the
/// exact result 2^-149 flushes to zero, and zero's neighbour is the smallest normal). Not
/// where y is a zero or NaN, which the CTS accepts and clacc says it refuses.
#[test]
fn nextafter_steps_off_either_zero_to_the_smallest_normal_under_ftz() {
    let mut nextafter = rules(ReferenceId::Nextafter, Requirement::Exact, true);
    nextafter.function = "nextafter";
    let min = f64::from(f32::MIN_POSITIVE);
    let subnormal = 2f64.powi(-140);
    let case = |x: f64, y: f64, d: f64| nextafter.judge(0, &[x, y], &[d]);
    let allowed = Outcome::Allowed(Allowance::FlushedResult);
    for (x, y, d) in [
        (0.0, min, min),
        (0.0, 1.0, min),
        (-0.0, -1.0, -min),
        (0.0, f64::INFINITY, min),
        // y subnormal, not flushed: the step off zero still goes to y's side.
        (0.0, subnormal, min),
    ] {
        assert_eq!(
            case(x, y, d).outcome,
            allowed,
            "nextafter({x:e}, {y:e}) = {d:e}"
        );
    }
    // A subnormal x read as either zero: the same step.
    assert_ne!(case(subnormal, 1.0, min).outcome, Outcome::Fail);
    assert_ne!(case(subnormal, -1.0, -min).outcome, Outcome::Fail);
    // x == y returns y; a NaN operand gives a NaN: the CTS accepts these, clacc does not,
    // and its failing row says so.
    for (x, y, d) in [
        (0.0, 0.0, min),
        (0.0, -0.0, -min),
        (subnormal, 0.0, min),
        (0.0, f64::NAN, min),
    ] {
        let judged = case(x, y, d);
        assert_eq!(
            judged.outcome,
            Outcome::Fail,
            "nextafter({x:e}, {y:e}) = {d:e}"
        );
        assert_eq!(
            nextafter.stricter_than_cts(&judged),
            Some(NEXTAFTER_STRICTER_THAN_CTS)
        );
    }
    // A failure the CTS refuses too gets no such note: a wrong sign, a normal x.
    assert_eq!(nextafter.stricter_than_cts(&case(0.0, 0.0, -min)), None);
    assert_eq!(nextafter.stricter_than_cts(&case(1.0, 0.0, min)), None);
    // Without flushing the CTS takes no such result either: fails, no note.
    nextafter.flushes_subnormals = false;
    let plain = nextafter.judge(0, &[0.0, 1.0], &[min]);
    assert_eq!(plain.outcome, Outcome::Fail);
    assert_eq!(nextafter.stricter_than_cts(&plain), None);
}

#[test]
fn zero_is_allowed_where_a_conforming_result_is_subnormal() {
    // Exact value 2 ulp above FLT_MIN under a 4 ulp bound: FLT_MIN - 2 ulp, a subnormal,
    // conforms, so FTZ result 2 allows zero; 5 ulp above, no subnormal is within 4 ulp.
    let min = f64::from(f32::MIN_POSITIVE);
    let step = f64::from(f32::from_bits(1));
    let mut add = rules(ReferenceId::Add, Requirement::Ulp(4.0), true);
    assert_eq!(
        add.judge(0, &[min + 2.0 * step, 0.0], &[0.0]).outcome,
        Outcome::Allowed(Allowance::FlushedResult)
    );
    assert_eq!(
        add.judge(0, &[min + 5.0 * step, 0.0], &[0.0]).outcome,
        Outcome::Fail
    );
    add.flushes_subnormals = false;
    assert_eq!(
        add.judge(0, &[min + 2.0 * step, 0.0], &[0.0]).outcome,
        Outcome::Fail
    );
}

#[test]
fn double_without_denormals_or_rte_is_not_conformant() {
    use crate::spec::fp_config::FpConfig;
    let denorm = 1;
    let nearest = 1 << 2;
    let zero = 1 << 3;
    let config = |bits| FpConfig(bits);
    assert!(nonconformance(config(nearest), FloatType::Double, true).is_some());
    assert!(nonconformance(config(denorm | zero), FloatType::Double, false).is_some());
    assert!(nonconformance(config(denorm | zero), FloatType::Float, true).is_some());
    assert!(nonconformance(config(zero), FloatType::Float, false).is_none());
    assert!(nonconformance(config(zero), FloatType::Half, true).is_none());
    // Double never flushes by allowance; float flushes under the options that allow it.
    assert!(flush_to_zero_reason(config(nearest), FloatType::Double, true, true).is_none());
    assert!(flush_to_zero_reason(config(nearest), FloatType::Half, false, false).is_some());
    let full = config(denorm | nearest);
    assert!(flush_to_zero_reason(full, FloatType::Float, false, false).is_none());
    assert!(flush_to_zero_reason(full, FloatType::Float, true, false).is_some());
    assert!(flush_to_zero_reason(full, FloatType::Float, false, true).is_some());
    assert!(flush_to_zero_reason(full, FloatType::Half, true, true).is_none());
}

#[test]
fn nan_must_meet_nan() {
    let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
    assert_eq!(
        sin.judge(0, &[f64::INFINITY], &[f64::NAN]).outcome,
        Outcome::Pass
    );
    assert_eq!(
        sin.judge(0, &[f64::INFINITY], &[0.0]).outcome,
        Outcome::Fail
    );
    assert_eq!(sin.judge(0, &[1.0], &[f64::NAN]).outcome, Outcome::Fail);
}

/// A row's verdict with its lookups made once ([`Rules::known_columns_verdict`]) is
/// [`Rules::fast_verdict_with`]'s on every input and result: every float function of the
/// registry that has one, under a ULP bound, a 0-ulp, correctly rounded and
/// implementation-defined cell, with and without flushing subnormals, on sampled inputs
/// and extremes, with the correctly rounded result, its neighbours, results a few and
/// many ulp away, zeros, the largest finite value, infinities and NaN as the device's.
/// Rows it must refuse (relaxed, finite math, a directed rounding) have none.
#[test]
fn known_columns_verdicts_are_fast_verdicts() {
    use crate::spec::registry::FUNCTIONS;
    let element = FloatType::Float;
    let mut compared = 0;
    let mut functions = Vec::new();
    for function in FUNCTIONS {
        let Some(kinds) = argument_kinds(function.shape) else {
            continue;
        };
        let seed = crate::sweep::unit_seed(9, function.name, element, 1);
        let mut columns = crate::sweep::generate(function, element, &kinds, 300, 1, seed);
        for extreme in [0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, 1e9, 3e38, f64::INFINITY] {
            for column in columns.iter_mut() {
                column.push(element.round(extreme));
            }
        }
        for requirement in [
            Requirement::Ulp(4.0),
            Requirement::Ulp(0.0),
            Requirement::CorrectlyRounded,
            Requirement::ImplementationDefined,
        ] {
            for flushes_subnormals in [false, true] {
                let rules = Rules {
                    function: function.name,
                    flushes_subnormals,
                    ..with_outputs(function.outputs.to_vec(), requirement.clone())
                };
                let Some(known) = rules.known_columns_verdict() else {
                    continue;
                };
                let [output] = function.outputs else {
                    unreachable!("one output")
                };
                let float_version = binding::float_tier(output).expect("has one");
                let double_tier = binding::fast_tier(output).expect("has one");
                functions.push(function.name);
                for index in 0..columns[0].len() {
                    let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                    let correct = float_version(&args);
                    let double = double_tier(&args);
                    let step = |steps: i64| ulps_away(correct, element, steps);
                    let max = element.max_finite();
                    for device_result in [
                        correct,
                        step(1),
                        step(-1),
                        step(2),
                        step(3),
                        step(-4),
                        step(5),
                        step(1000),
                        -correct,
                        0.0,
                        -0.0,
                        max,
                        -max,
                        f64::INFINITY,
                        f64::NEG_INFINITY,
                        f64::NAN,
                    ] {
                        let expected = rules.fast_verdict_with(
                            &mut FastReference::new(),
                            &args,
                            &[device_result],
                        );
                        assert_eq!(
                            known.verdict(&args, correct, double, device_result),
                            expected,
                            "{}({args:?}) = {device_result:e}, {requirement:?}, \
                             flushing {flushes_subnormals}",
                            function.name
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    for expected in ["sin", "cos", "exp", "log", "pow", "tan"] {
        assert!(functions.contains(&expected), "{expected}: {functions:?}");
    }
    assert!(compared > 100_000, "{compared}");
    // The rows it refuses: another rounding, a relaxed build, finite math.
    let sin = FUNCTIONS.iter().find(|f| f.name == "sin").expect("sin");
    let full = Rules {
        function: "sin",
        ..with_outputs(sin.outputs.to_vec(), Requirement::Ulp(4.0))
    };
    assert!(full.known_columns_verdict().is_some());
    for refused in [
        Rules {
            rounding: Round::Zero,
            requirement: Requirement::CorrectlyRounded,
            ..full.clone()
        },
        Rules {
            finite_math_only: true,
            ..full.clone()
        },
        Rules {
            element: FloatType::Half,
            ..full.clone()
        },
    ] {
        assert!(refused.known_columns_verdict().is_none(), "{refused:?}");
    }
}

pub(super) fn with_outputs(outputs: Vec<Output>, requirement: Requirement) -> Rules {
    Rules::of_test("test", outputs, requirement, FloatType::Float)
}

fn table(reference: ReferenceId) -> Output {
    Output {
        reference,
        check: OutputCheck::Table,
        fast_tier: false,
    }
}

#[test]
fn each_output_is_judged_by_its_own_rule() {
    let sincos = with_outputs(
        vec![table(ReferenceId::Sin), table(ReferenceId::Cos)],
        Requirement::UlpEachOutput(4.0),
    );
    let x = 0.5f32;
    let (sine, cosine) = (f64::from(x.sin()), f64::from(x.cos()));
    assert_eq!(
        sincos.judge(0, &[0.5], &[sine, cosine]).outcome,
        Outcome::Pass
    );
    let wrong_cosine = sincos.judge(0, &[0.5], &[sine, cosine * 1.01]);
    assert_eq!(wrong_cosine.outcome, Outcome::Fail);
    assert_eq!(wrong_cosine.output, 1);

    let integer = |reference| Output {
        reference,
        check: OutputCheck::Integer,
        fast_tier: false,
    };
    let frexp = with_outputs(
        vec![
            table(ReferenceId::FrexpMantissa),
            integer(ReferenceId::FrexpExponent),
        ],
        Requirement::Exact,
    );
    assert_eq!(frexp.judge(0, &[12.0], &[0.75, 4.0]).outcome, Outcome::Pass);
    assert_eq!(frexp.judge(0, &[12.0], &[0.75, 3.0]).outcome, Outcome::Fail);
    // An unspecified integer output (ilogb(0) is FP_ILOGB0) accepts any value.
    let ilogb = with_outputs(vec![integer(ReferenceId::Ilogb)], Requirement::Exact);
    assert_eq!(
        ilogb.judge(0, &[0.0], &[-2147483648.0]).outcome,
        Outcome::Pass
    );
    assert_eq!(ilogb.judge(0, &[8.0], &[2.0]).outcome, Outcome::Fail);

    // Tables 3 and 4 make lgamma_r implementation-defined, its sign output included:
    // measured, never failed (the edge-case rules still check prescribed signs).
    let lgamma_r = with_outputs(
        vec![table(ReferenceId::Lgamma), integer(ReferenceId::LgammaSign)],
        Requirement::ImplementationDefined,
    );
    assert_eq!(
        lgamma_r.judge(0, &[-0.5], &[1.2655, 1.0]).outcome,
        Outcome::Measured
    );
}

#[test]
fn remquo_needs_the_remainder_exactly_and_seven_quotient_bits() {
    let quotient = Output {
        reference: ReferenceId::RemquoQuotient,
        check: OutputCheck::QuotientLowBits,
        fast_tier: false,
    };
    let remquo = with_outputs(
        vec![table(ReferenceId::RemquoRemainder), quotient],
        Requirement::RemquoExact { quotient_bits: 7 },
    );
    // 1000.5 / 0.5 = 2001 exactly: remainder 0, quotient 2001 = 0b11111010001.
    assert_eq!(
        remquo.judge(0, &[1000.5, 0.5], &[0.0, 2001.0]).outcome,
        Outcome::Pass
    );
    // Only the low 7 bits (and the sign) are required: 2001 mod 128 = 81, also when the
    // true quotient is beyond 2^53 (2^100 / 3 has quotient 2^100/3 rounded).
    let big = 2f64.powi(100);
    let exact = Float::with_val(200, big) / 3u32;
    let mut quotient = exact.clone();
    quotient.round_even_mut();
    let low = (quotient.to_integer().unwrap() % 128u32).to_f64();
    let rem = remquo.judge(0, &[big, 3.0], &[0.0, low]).references[0].to_f64();
    assert_eq!(
        remquo.judge(0, &[big, 3.0], &[rem, low]).outcome,
        Outcome::Pass
    );
    assert_eq!(
        remquo.judge(0, &[big, 3.0], &[rem, low + 1.0]).outcome,
        Outcome::Fail
    );
    assert_eq!(
        remquo.judge(0, &[1000.5, 0.5], &[0.0, 81.0]).outcome,
        Outcome::Pass
    );
    assert_eq!(
        remquo.judge(0, &[1000.5, 0.5], &[0.0, 80.0]).outcome,
        Outcome::Fail
    );
    assert_eq!(
        remquo.judge(0, &[-1000.5, 0.5], &[0.0, 81.0]).outcome,
        Outcome::Fail
    );
    assert_eq!(
        remquo.judge(0, &[-1000.5, 0.5], &[-0.0, -81.0]).outcome,
        Outcome::Pass
    );
    assert_eq!(
        remquo.judge(0, &[1000.5, 0.5], &[0.5, 2001.0]).outcome,
        Outcome::Fail
    );
}

#[test]
fn merge_is_associative_and_keeps_the_worst_failure() {
    let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
    let cases: Vec<Case> = (0..9)
        .map(|i| {
            let x = 0.5 + f64::from(i) / 8.0;
            let right = f64::from((x as f32).sin());
            let device = if i == 4 { right * 1.001 } else { right };
            sin.judge(i as u64, &[f64::from(x as f32)], &[device])
        })
        .collect();
    let stats = |range: std::ops::Range<usize>| {
        let mut s = UnitStats::default();
        for case in &cases[range] {
            s.record_region(input_region(&case.args, FloatType::Float), case);
            s.record(case.clone());
        }
        s
    };
    let settled = |mut s: UnitStats| {
        s.settle();
        s
    };
    let mut left = stats(0..3);
    let mut middle = stats(3..6);
    middle.merge(stats(6..9));
    left.merge(middle);
    let mut right_first = stats(0..3);
    right_first.merge(stats(3..6));
    right_first.merge(stats(6..9));
    let whole = settled(stats(0..9));
    for merged in [&settled(left), &settled(right_first)] {
        assert_eq!(merged.error_map, whole.error_map);
        assert_eq!(merged.inputs, whole.inputs);
        assert_eq!(merged.failures, 1);
        assert_eq!(merged.max_error, whole.max_error);
        assert_eq!(merged.worst.as_ref().unwrap().index, 4);
    }
}
