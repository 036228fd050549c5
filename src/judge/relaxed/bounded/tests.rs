//! Tests of the double-arithmetic proof: its conditions and spans hold MPFR's, poles within
//! MPFR's slack included.

use super::image::periodic;
use super::*;
use crate::spec::relaxed_table::{builtin_in, Number};
use crate::spec::table::Revision;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An argument for a formula of `instruction`'s rule: random float bits, small values,
/// values beside the poles of tan and the extrema of sin and cos, beside ±1 and the
/// division's domain edges 2^±62 and 2^±126, and Annex F's specials; integers where the
/// instruction's second parameter is one.
fn sample(rng: &mut ChaCha8Rng, instruction: &str, parameter: usize) -> f64 {
    if parameter == 1 && matches!(instruction, "pown" | "rootn") {
        return f64::from(rng.random_range(-40..=40));
    }
    let pick: u32 = rng.random_range(0..10);
    let near = |rng: &mut ChaCha8Rng, v: f64| {
        let bits = (v as f32).to_bits() as i64 + rng.random_range(0..=6);
        f64::from(f32::from_bits(bits as u32))
    };
    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    let choice = rng.random_range(0..4usize);
    let value = match pick {
        0..=3 => loop {
            let v = f32::from_bits(rng.random());
            if v.is_finite() {
                break f64::from(v);
            }
        },
        4 | 5 => f64::from(rng.random_range(-8.0f32..8.0)),
        6 => {
            let k = f64::from(rng.random_range(1..40));
            near(rng, k * std::f64::consts::FRAC_PI_2 * 0.9999995)
        }
        7 => near(rng, [1.0, 0.5, 2.0, 10.0][choice]),
        8 => near(rng, [62.0f64, -62.0, 126.0, -126.0][choice].exp2()),
        _ => [0.0, 1.0, 0.5, 2.0][choice],
    };
    sign * value
}

/// The doubles beside a condition's bounds, where a comparison turns.
fn edges(condition: &Condition, into: &mut Vec<f64>) {
    match condition {
        Condition::Compare { bound, .. } => {
            into.extend([bound.double_below(), bound.double_above()])
        }
        Condition::Within { low, high, .. } => into.extend([
            low.double_below(),
            low.double_above(),
            high.double_below(),
            high.double_above(),
        ]),
        Condition::Integer { .. } => into.extend([3.0, 4.0, 4.5, 9007199254740992.0]),
        Condition::Not(inner) => edges(inner, into),
        Condition::And(a, b) | Condition::Or(a, b) => {
            edges(a, into);
            edges(b, into);
        }
    }
}

/// Every comparison and interval form, of a value and of its magnitude, against bounds
/// that are doubles (0, 1, 2^-126) and one that is not (π): the tables use only some.
fn every_form() -> Vec<Condition> {
    let pi = Float::with_val(200, rug::float::Constant::Pi);
    let numbers = || {
        [
            Number::new(Float::with_val(200, 0), "0".into()),
            Number::new(Float::with_val(200, 1), "1".into()),
            Number::new(Float::with_val(200, f64::powi(2.0, -126)), "2^-126".into()),
            Number::new(pi.clone(), "pi".into()),
        ]
    };
    let mut conditions = Vec::new();
    for magnitude in [false, true] {
        let operand = Operand {
            parameter: 0,
            name: "x".into(),
            magnitude,
        };
        for bound in numbers() {
            for comparison in [
                Comparison::Less,
                Comparison::LessEqual,
                Comparison::Greater,
                Comparison::GreaterEqual,
                Comparison::Equal,
                Comparison::NotEqual,
            ] {
                conditions.push(Condition::Compare {
                    operand: operand.clone(),
                    comparison,
                    bound: bound.clone(),
                });
            }
            for (open_low, open_high) in [(false, false), (true, false), (false, true)] {
                conditions.push(Condition::Within {
                    operand: operand.clone(),
                    low: Number::new(-bound.value.clone(), "-".into()),
                    high: bound.clone(),
                    open_low,
                    open_high,
                });
            }
        }
    }
    conditions
}

/// `condition_over` gives `Condition::over`'s truth, on 53-bit MPFR ranges, for every
/// condition of both revisions of Table 5 and every form of one, over points and spans of
/// sampled values and of the doubles beside each bound (signed, and a step either side).
#[test]
fn conditions_over_spans_are_mpfrs() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let mut compared = 0;
    let forms = every_form();
    let mut sets = vec![(
        "every form".to_string(),
        "",
        1,
        forms.iter().collect::<Vec<_>>(),
    )];
    for revision in [Revision::Spec2017, Revision::Spec2026] {
        for row in &builtin_in(&crate::spec::environment::OPENCL_SPIRV, revision).rows {
            let RelaxedRule::Pieces { pieces, .. } = &row.float32 else {
                continue;
            };
            let arity = catalog(&row.instruction).unwrap().parameters.len();
            let conditions = pieces.iter().filter_map(|p| p.condition.as_ref());
            let name = format!("{revision} {}", row.instruction);
            sets.push((name, row.instruction.as_str(), arity, conditions.collect()));
        }
    }
    for (name, instruction, arity, conditions) in sets {
        for condition in conditions {
            let mut values = vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY];
            edges(condition, &mut values);
            for v in values.clone() {
                values.extend([-v, v.next_up(), v.next_down()]);
            }
            for _ in 0..2000 {
                let pick = |rng: &mut ChaCha8Rng, parameter| {
                    if rng.random_bool(0.5) {
                        values[rng.random_range(0..values.len())]
                    } else {
                        sample(rng, instruction, parameter)
                    }
                };
                let spans: Vec<Span> = (0..arity)
                    .map(|parameter| {
                        let a = pick(&mut rng, parameter);
                        let b = if rng.random_bool(0.3) {
                            a
                        } else {
                            pick(&mut rng, parameter)
                        };
                        (a.min(b), a.max(b))
                    })
                    .collect();
                let ranges: Vec<Permitted> = spans
                    .iter()
                    .map(|&(lo, hi)| {
                        Permitted::Between(Float::with_val(53, lo), Float::with_val(53, hi))
                    })
                    .collect();
                assert_eq!(
                    condition_over(condition, &spans),
                    condition.over(&ranges),
                    "{name}: {condition:?} over {spans:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 50_000, "{compared}");
}

/// What MPFR's judge evaluates for a derived alternative: the formula's range at the
/// points, and whether an operation stated no bound.
fn mpfr(formula: &Formula, args: &[f64], embedded: bool) -> (Permitted, bool) {
    let context = Context::new(FloatType::Float, embedded);
    let inputs: Vec<Permitted> = args.iter().map(|&a| context.point(a)).collect();
    let range = evaluate(formula, &inputs, &context);
    (range, context.unstated.get())
}

/// Every derived formula of both revisions of Table 5, in both profiles, on 1500 inputs
/// each: where the double span is finite it holds MPFR's range, which is finite, and where
/// it finds an unstated operation MPFR marks one. Coverage: the proof decides most inputs
/// of the functions whose relaxed runs it speeds up.
#[test]
fn double_spans_enclose_mpfrs_ranges() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut problems = Vec::new();
    // Per formula: spans proven finite, unstated, all samples, inner bounds that are an
    // interval, ranges proven unbounded, ranges MPFR finds unbounded (or anything).
    let mut decided: std::collections::BTreeMap<
        String,
        (usize, usize, usize, usize, usize, usize),
    > = Default::default();
    for revision in [Revision::Spec2017, Revision::Spec2026] {
        for embedded in [false, true] {
            let doubles = Doubles::new(embedded);
            for row in &builtin_in(&crate::spec::environment::OPENCL_SPIRV, revision).rows {
                let RelaxedRule::Pieces { pieces, .. } = &row.float32 else {
                    continue;
                };
                let arity = catalog(&row.instruction).unwrap().parameters.len();
                let formulas = pieces
                    .iter()
                    .flat_map(|p| &p.alternatives)
                    .filter_map(|a| match a.bound(embedded) {
                        Bound::Derived(formula) => Some(formula),
                        _ => None,
                    });
                for formula in formulas {
                    let key = format!("{revision} {} {formula}", row.instruction);
                    let tally = decided.entry(key.clone()).or_default();
                    for _ in 0..1500 {
                        let args: Vec<f64> = (0..arity)
                            .map(|p| sample(&mut rng, &row.instruction, p))
                            .collect();
                        let points: Vec<Span> = args.iter().map(|&a| (a, a)).collect();
                        let proof = doubles.span(formula, &points, true);
                        let (range, unstated) = mpfr(formula, &args, embedded);
                        tally.2 += 1;
                        let bounded = matches!(&range, Permitted::Between(lo, hi)
                            if lo.is_finite() && hi.is_finite());
                        tally.5 += usize::from(!bounded);
                        if let Some(stated) = derived_unbounded(formula, &args, embedded) {
                            if bounded || (stated && unstated) {
                                problems.push(format!(
                                    "{key} at {args:?} (embedded {embedded}): proven \
                                     unbounded (stated {stated}), MPFR {range:?} \
                                     (unstated {unstated})"
                                ));
                            } else {
                                tally.4 += 1;
                            }
                        }
                        let inner = doubles.inner(formula, &points, &points);
                        if let (Ok((l, h)), Permitted::Between(m_lo, m_hi)) = (inner, &range) {
                            if *m_lo > l || *m_hi < h {
                                problems.push(format!(
                                    "{key} at {args:?} (embedded {embedded}): inner bounds \
                                     ({l:e}, {h:e}) beyond MPFR's {range:?}"
                                ));
                            } else if l.is_finite() && h.is_finite() && l < h {
                                tally.3 += 1;
                            }
                        }
                        match (proof, range) {
                            (Ok((lo, hi)), Permitted::Between(m_lo, m_hi))
                                if m_lo.is_finite()
                                    && m_hi.is_finite()
                                    && lo <= m_lo
                                    && hi >= m_hi =>
                            {
                                tally.0 += 1
                            }
                            (Err(Stop::Unstated), _) if unstated => tally.1 += 1,
                            (Err(Stop::Unknown), _) => {}
                            // Not finite: no claim.
                            (Ok((lo, hi)), _) if !lo.is_finite() || !hi.is_finite() => {}
                            (proof, range) => problems.push(format!(
                                "{key} at {args:?} (embedded {embedded}): double {}, MPFR \
                                 {range:?} (unstated {unstated})",
                                match proof {
                                    Ok(span) => format!("{span:?}"),
                                    Err(_) => "unstated".to_string(),
                                }
                            )),
                        }
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
    let share = |name: &str| {
        let (finite, unstated, all) = decided
            .iter()
            .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
            .fold((0, 0, 0), |t, (_, c)| (t.0 + c.0, t.1 + c.1, t.2 + c.2));
        (finite as f64 / all as f64, unstated as f64 / all as f64)
    };
    let inner_share = |name: &str| {
        let (inner, all) = decided
            .iter()
            .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
            .fold((0, 0), |t, (_, c)| (t.0 + c.3, t.1 + c.2));
        inner as f64 / all as f64
    };
    // Inner bounds that are an interval (wider than the exact value's enclosure): where
    // a product's or quotient's factors keep their signs, tan its branch.
    // Proven unbounded, of the samples where MPFR's range is: asinh's x + sqrt(x·x + 1)
    // where it may be 0 or overflows (x < 0, |x| >= 2^64), tanpi's tan beyond π, tanh's
    // exp(x) overflowing (not its formula at |x| <= 2^-10, where a piece takes x itself
    // and a difference beside 0 leaves the division's domain).
    for (name, least) in [("asinh", 0.9), ("tanpi", 0.85), ("tanh", 0.4)] {
        let (proven, unbounded) = decided
            .iter()
            .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
            .fold((0, 0), |t, (_, c)| (t.0 + c.4, t.1 + c.5));
        assert!(
            proven as f64 > least * unbounded as f64 && unbounded > 500,
            "{name}: proven unbounded on {proven} of {unbounded} inputs"
        );
    }
    for (name, least) in [
        ("atan2", 0.8),
        ("atan2pi", 0.8),
        ("cbrt", 0.8),
        ("pow", 0.4),
        ("asinh", 0.4),
        ("tan", 0.2),
        ("tanpi", 0.2),
    ] {
        let share = inner_share(name);
        assert!(
            share > least,
            "{name}: inner bounds on {share} of its inputs"
        );
    }
    // Shares of all samples, domain errors (acosh below 1) included.
    for name in [
        "acosh", "acospi", "asinh", "asinpi", "atanh", "atanpi", "atan2", "atan2pi", "cbrt",
        "cosh", "exp10", "expm1", "log1p", "pow", "pown", "powr", "rootn", "sinh", "tan", "tanh",
        "tanpi",
    ] {
        let (finite, unstated) = share(name);
        assert!(
            finite + unstated > 0.2,
            "{name}: {finite} of its inputs proven finite, {unstated} unstated"
        );
    }
    for name in ["asinh", "cbrt", "exp10", "expm1", "sinh"] {
        let (finite, _) = share(name);
        assert!(
            finite > 0.75,
            "{name}: {finite} of its inputs proven finite"
        );
    }
    // sin and cos bound nothing beyond π, nor the division outside 2^±62: tan's and
    // atan2's inputs there are unstated.
    for name in ["tan", "atan2"] {
        let (finite, unstated) = share(name);
        assert!(
            finite > 0.2 && unstated > 0.3,
            "{name}: {finite} finite, {unstated} unstated"
        );
    }
}

/// An end within MPFR's slack of a pole of tan: MPFR counts the pole, so the span must,
/// though the end lies on the near side in double arithmetic too.
#[test]
fn a_pole_within_mpfrs_slack_counts() {
    let context = Context::new(FloatType::Float, false);
    let end = std::f64::consts::FRAC_PI_2 - crate::num::fp::pow2(-42);
    let span = (context.float(1.0), context.float(end));
    let (lo, hi) = exact_range("tan", std::slice::from_ref(&span), &context).unwrap();
    assert!(lo.is_infinite() && hi.is_infinite(), "MPFR: a pole at π/2");
    assert!(matches!(periodic("tan", (1.0, end)), Err(Stop::Unknown)));
}

/// atan2(y, x) * M_1_PI_F at y = 2^-100, x = 2^100: the quotient lies outside every
/// domain the division's rule bounds, so its range is unbounded, and atan's is then
/// [-π/2, π/2] widened: finite, for MPFR and here.
#[test]
fn atan_bounds_an_unbounded_quotient() {
    let rule = builtin_in(&crate::spec::environment::OPENCL_SPIRV, Revision::Spec2026)
        .rule("atan2pi", FloatType::Float)
        .unwrap();
    let RelaxedRule::Pieces { pieces, .. } = rule else {
        panic!("atan2pi has one output")
    };
    let Bound::Derived(formula) = pieces[0].alternatives[0].bound(false) else {
        panic!("atan2pi's first alternative is its formula")
    };
    let args = [crate::num::fp::pow2(-100), crate::num::fp::pow2(100)];
    let Some(Derived::Within(lo, hi)) = derived_range(formula, &args, false) else {
        panic!("not proven finite")
    };
    let (range, _) = mpfr(formula, &args, false);
    let Permitted::Between(m_lo, m_hi) = range else {
        panic!("MPFR: anything")
    };
    assert!(m_lo.is_finite() && m_hi.is_finite());
    assert!(lo <= m_lo && hi >= m_hi && hi - lo < 1.1, "{lo} {hi}");
}
