//! The Vulkan tier against `judge::vulkan::judge` (through MPFR's path, `judge_exactly`): the
//! same verdict and error wherever the tier decides, on sampled inputs of a function of each
//! cell kind, results around the correctly rounded one and at the bounds, under the modes
//! lavapipe declares and the others, RelaxedPrecision included.

use crate::judge::vulkan::{Modes, Rounding};
use crate::judge::{Rules, VulkanJudging};
use crate::num::fp::{pow2, FloatType};
use crate::reference::{self, binding};
use crate::report::stats::{Case, FastVerdict, Outcome};
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::signature::ValueKind;
use crate::spec::table::{builtin_in, Profile, Requirement};
use crate::spec::vulkan::Cell;

/// `value` moved `steps` encodings of `element` (no further down than encoding 0).
fn ulps_away(value: f64, element: FloatType, steps: i64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let bits = element.to_bits(value) as i64;
    element.from_bits((bits + steps).max(0) as u64)
}

/// The modes lavapipe declares (RTE, SignedZeroInfNanPreserve, denormals may be flushed), all
/// of them, none, and RTZ.
const MODES: [Modes; 4] = [
    Modes {
        rounding: Some(Rounding::Rte),
        denorm_preserve: false,
        signed_zero_inf_nan_preserve: true,
        reassociate: true,
    },
    Modes {
        rounding: Some(Rounding::Rte),
        denorm_preserve: true,
        signed_zero_inf_nan_preserve: true,
        reassociate: true,
    },
    Modes {
        rounding: None,
        denorm_preserve: false,
        signed_zero_inf_nan_preserve: false,
        reassociate: true,
    },
    Modes {
        rounding: Some(Rounding::Rtz),
        denorm_preserve: true,
        signed_zero_inf_nan_preserve: true,
        reassociate: true,
    },
];

/// The rules of a Vulkan unit of `name` in `element` (`relaxed`: a float result decorated
/// RelaxedPrecision, judged by the half column).
fn rules(name: &str, element: FloatType, relaxed: bool, modes: Modes) -> Rules {
    let function = crate::spec::registry::find(name).unwrap();
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    let (requirement, unit) =
        crate::spec::vulkan::column(table.row(function.name).unwrap(), element, relaxed);
    Rules {
        vulkan: Some(VulkanJudging { modes, unit }),
        ..Rules::of_test(
            function.name,
            function.outputs.to_vec(),
            requirement.clone(),
            element,
        )
    }
}

/// The device results tried at `args` whose correctly rounded result is `correct`: it, its
/// neighbours, a few ulp off, at and beside the cell's bound, zero, the largest value, the
/// infinities and NaN; each with whether it is a plausible device's (within 3 ulp).
fn results(rules: &Rules, args: &[f64], correct: f64, exact: f64) -> Vec<(f64, bool)> {
    let element = rules.element;
    let coarser = match rules.vulkan {
        Some(VulkanJudging { unit, .. }) => {
            pow2(element.precision() as i32 - unit.precision() as i32)
        }
        None => 1.0,
    };
    let mut steps: Vec<f64> = vec![5.0, 40.0, 5000.0];
    let bound = match &rules.requirement {
        Requirement::Ulp(n) => Some(*n),
        Requirement::Vulkan(Cell::UlpForDivisor { ulp, .. }) => Some(*ulp),
        Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside { ulp, .. }) => Some(*ulp),
        Requirement::Vulkan(Cell::UlpPerMagnitude {
            constant,
            per_magnitude,
        }) => Some(constant + per_magnitude * args[0].abs()),
        _ => None,
    };
    if let Some(n) = bound {
        let n = (n * coarser).min(1e9);
        steps.extend([n.floor(), n.floor() + 1.0, (n * 0.99).floor()]);
    }
    if coarser > 1.0 {
        steps.extend([coarser / 2.0, coarser, 3.0 * coarser]);
    }
    let mut near = vec![correct];
    for step in 1..=3 {
        near.push(ulps_away(correct, element, step));
        near.push(ulps_away(correct, element, -step));
    }
    let mut values = vec![0.0, element.max_finite(), f64::INFINITY, f64::NAN];
    for step in steps {
        values.push(ulps_away(correct, element, step as i64));
        values.push(ulps_away(correct, element, -(step as i64)));
    }
    if let Requirement::Vulkan(
        Cell::AbsoluteInside { absolute, .. } | Cell::UlpOutsideAbsoluteInside { absolute, .. },
    ) = &rules.requirement
    {
        for scale in [0.5, 0.99, 1.0, 1.01, 3.0] {
            values.push(element.round(exact + absolute * scale));
            values.push(element.round(exact - absolute * scale));
        }
    }
    let far = values.iter().map(|v| -v).chain(values.clone());
    near.into_iter()
        .map(|v| (v, true))
        .chain(far.map(|v| (v, false)))
        .collect()
}

/// Asserts the tier's `verdict` is `judge`'s `case` (MPFR's path): the same outcome and the
/// same error (to 2^-20 of it; an absolute distance to 2^-40), an overflow's infinite error.
fn agrees(verdict: FastVerdict, case: &Case, context: &str) {
    let close = |error: f64| (error - case.error).abs() <= pow2(-20) * error.max(1.0);
    match verdict {
        FastVerdict::Pass(error) => assert!(
            case.outcome == Outcome::Pass && !case.absolute && close(error),
            "{context}"
        ),
        FastVerdict::Fail(error) => assert!(
            case.outcome == Outcome::Fail && !case.absolute && close(error),
            "{context}"
        ),
        FastVerdict::AbsolutePass(distance) => assert!(
            case.outcome == Outcome::Pass
                && case.absolute
                && (distance - case.error).abs() <= pow2(-40),
            "{context}"
        ),
        FastVerdict::CorrectlyRoundedOverflow => assert!(
            case.outcome == Outcome::Pass && case.error.is_infinite(),
            "{context}"
        ),
        FastVerdict::Undefined => assert_eq!(case.outcome, Outcome::Undefined, "{context}"),
        FastVerdict::CorrectlyRounded => assert!(
            case.outcome == Outcome::Pass && !case.absolute && case.error <= 0.5,
            "{context}"
        ),
        other => panic!("{context}: the tier gave {other:?}"),
    }
}

/// [`agrees`], a pass's error bit for bit (the double tier's, measured as MPFR measures it).
fn agrees_to_the_bit(verdict: FastVerdict, case: &Case, context: &str) {
    match verdict {
        FastVerdict::Pass(error) => assert!(
            case.outcome == Outcome::Pass
                && !case.absolute
                && error.to_bits() == case.error.to_bits(),
            "{context}"
        ),
        other => agrees(other, case, context),
    }
}

/// Every verdict the tier gives is `judge`'s (MPFR's path) on the same result, error included;
/// and it decides nearly every plausible result (within 3 ulp of the correctly rounded one, at
/// finite normal arguments) of every function with a direct cell, and most of pow's and
/// sqrt's.
#[test]
fn the_vulkan_tier_decides_as_judge_does() {
    let functions = [
        "sin", "cos", "exp", "exp2", "log", "log2", "OpFDiv", "rsqrt", "atan2", "pow", "sqrt",
        "OpFAdd", "OpFMul", "tan", "asin", "acos", "sinh", "cosh", "tanh", "asinh", "acosh",
    ];
    let mut total_decided = 0;
    let mut total = 0;
    for name in functions {
        let function = crate::spec::registry::find(name).unwrap();
        let kinds: Vec<ValueKind> = function.shape.signature().arguments.to_vec();
        for (element, relaxed) in [
            (FloatType::Half, false),
            (FloatType::Float, false),
            (FloatType::Float, true),
        ] {
            let seed = crate::sweep::unit_seed(11, name, element, 1);
            let mut columns = crate::sweep::generate(function, element, &kinds, 120, 1, seed);
            // Beside the bounds' edges: exp's magnitudes, log's [0.5, 2], sin's pi.
            for extra in [0.5, 2.0, 3.140625, -3.140625, 1.5, 10.0, 1e-6] {
                for column in columns.iter_mut() {
                    column.push(element.round(extra));
                }
            }
            let count = columns[0].len();
            let mut decided = 0;
            let mut judged = 0;
            let (mut near_decided, mut near_judged) = (0, 0);
            for modes in MODES {
                let rules = rules(name, element, relaxed, modes);
                let output = &rules.outputs[0];
                for k in 0..count {
                    let args: Vec<f64> = columns.iter().map(|c| c[k]).collect();
                    if !function.in_domain(&args) {
                        continue;
                    }
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let mpfr = binding::mpfr(output.reference);
                    let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                    let exact = reference::high_precision(mpfr, &operands, element).to_f64();
                    // The bulk of a sweep: finite, normal arguments (the specials the sample
                    // starts with are a handful in a real sweep's 2^18).
                    let ordinary = args
                        .iter()
                        .all(|a| a.is_finite() && a.abs() >= pow2(element.emin()));
                    for (result, near) in results(&rules, &args, correct, exact) {
                        let near = near && ordinary;
                        let case = rules.judge_exactly(0, &args, &[result]);
                        judged += 1;
                        near_judged += usize::from(near);
                        let Some(verdict) = rules.fast_verdict(&args, &[result]) else {
                            continue;
                        };
                        decided += 1;
                        near_decided += usize::from(near);
                        let context =
                            format!("{name} {element:?} relaxed {relaxed} {modes:?} {args:?} -> {result:e}: tier {verdict:?}, judge {case:?}");
                        agrees(verdict, &case, &context);
                    }
                }
            }
            let share = near_decided as f64 / near_judged as f64;
            eprintln!(
                "{name} {element:?} relaxed {relaxed}: {decided} of {judged} decided, \
                 {near_decided} of {near_judged} within 3 ulp at normal arguments"
            );
            // tanh, the inherited cell the tier leaves to MPFR, decides nothing; sqrt where its
            // guard holds, cosh outside its powers of two (cosh at tiny x is 1 + x^2 / 2); the direct cells of one argument nearly everything. Two arguments' samples
            // are mostly pairs of specials (1, 2, 0.5, 3, ...), whose exact quotients, sums and
            // products sit on powers of two or the grid, where a neighbour needs MPFR.
            let least = match name {
                "tanh" => 0.0,
                "cosh" => 0.7,
                // acosh away from 1 only, half's squares overflow past 256; asinh (decided at
                // both signs since `inherited::asinh_chain`) is held to acosh's floor.
                "asinh" | "acosh" => 0.2,
                "OpFDiv" | "atan2" | "pow" => 0.3,
                // A float sum not exact in double is the larger operand's neighbourhood, on the
                // grid: only RTE decides there (under RTZ, either neighbour and
                // RelaxedPrecision's coarser grid, x's side of `a` decides).
                "OpFAdd" | "OpFMul" => 0.1,
                "sqrt" => 0.5,
                _ => 0.8,
            };
            assert!(
                share >= least,
                "{name} {element:?} relaxed {relaxed}: {share}"
            );
            total_decided += decided;
            total += judged;
        }
    }
    assert!(total_decided * 2 > total, "{total_decided} of {total}");
}

/// pow where y log2 x reaches past double's range and past the result's largest finite value
/// M: the tier's verdicts there (the overflow allowance's infinity past double, the results
/// beside it that `passes_by_root_cell` proves up to |y log2 x| = M / 2, the evaluation
/// [`crate::judge::vulkan::inherited::unbounded_at`] proves unbounded) are `judge`'s, on bases over the whole range
/// and exponents putting y log2 x at and beside 1024, 1100, 2^20, M / 2, 3 M / 4 and M (both
/// signs) and where p is a denormal,
/// every device result from zero to the infinities; and they decide most of them.
#[test]
fn pow_past_the_range_is_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
    let mut random = move || draws.next_unit();
    for (element, relaxed) in [
        (FloatType::Half, false),
        (FloatType::Float, false),
        (FloatType::Float, true),
    ] {
        let max = element.max_finite();
        let (mut undefined, mut overflow, mut denormal, mut decided, mut judged) = (0, 0, 0, 0, 0);
        for modes in MODES {
            let rules = rules("pow", element, relaxed, modes);
            let mpfr = binding::mpfr(rules.outputs[0].reference);
            for k in 0..160 {
                let span = f64::from(element.emax() - element.emin() + element.precision() as i32);
                let exponent =
                    (random() * span) as i32 + element.emin() - element.precision() as i32;
                let x = element.round(pow2(exponent) * (1.0 + random()));
                let log = x.log2();
                if x <= 0.0 || log == 0.0 || !x.is_finite() {
                    continue;
                }
                // Denormal results (2^-(|emin| + p / 2)) at negative targets, too.
                let denormal_target = f64::from(element.precision() as i32 / 2 - element.emin());
                let targets = [
                    denormal_target,
                    1024.0,
                    1100.0,
                    pow2(20),
                    max / 2.0,
                    0.75 * max,
                    max,
                ];
                let target = targets[k % targets.len()] * (1.0 + (random() - 0.5) * pow2(-8));
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let y = element.round(sign * target / log);
                if !y.is_finite() {
                    continue;
                }
                let args = [x, y];
                let operands: Vec<_> = args.iter().map(|a| reference::operand(*a)).collect();
                let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                let mut results = vec![
                    0.0,
                    -0.0,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    max,
                    -max,
                    f64::NAN,
                    1.0,
                    pow2(element.emin() - element.precision() as i32 + 1),
                ];
                for step in [0, 1, -1, 4, -4] {
                    results.push(ulps_away(correct, element, step));
                }
                for result in results {
                    let case = rules.judge_exactly(0, &args, &[result]);
                    judged += 1;
                    let Some(verdict) = rules.fast_verdict(&args, &[result]) else {
                        continue;
                    };
                    decided += 1;
                    undefined += usize::from(verdict == FastVerdict::Undefined);
                    overflow += usize::from(verdict == FastVerdict::CorrectlyRoundedOverflow);
                    denormal += usize::from(
                        matches!(verdict, FastVerdict::Pass(_)) && element.is_subnormal(result),
                    );
                    let context = format!(
                        "pow {element:?} relaxed {relaxed} {modes:?} {args:?} -> {result:e}: tier {verdict:?}, judge {case:?}"
                    );
                    agrees(verdict, &case, &context);
                }
            }
        }
        eprintln!(
            "pow {element:?} relaxed {relaxed} past the range: {decided} of {judged} decided, \
             {undefined} undefined, {overflow} overflows, {denormal} denormal passes"
        );
        assert!(
            undefined > 0 && overflow > 0 && denormal > 0,
            "{element:?} {relaxed}"
        );
        // The results the tier leaves are mostly those MPFR must measure: a finite result
        // where the exact value is past the largest finite one, a failure near the bounds.
        assert!(
            decided as f64 >= 0.4 * judged as f64,
            "{element:?} {relaxed}: {decided} of {judged}"
        );
    }
}

/// The one-argument inherited cells' proven passes (tan, asin, acos, sinh, cosh, asinh,
/// acosh, tanh, atanh:
/// [`crate::judge::vulkan::inherited::passes_by_root_cell`]) at and beside the distance each
/// proves: from the correctly rounded result outwards, 1, 2, 4, ... encodings away on each
/// side while the tier decides, then eight results between the last it decides and the first
/// it leaves: every verdict `judge`'s, error included.
#[test]
fn inherited_passes_are_judge_s_up_to_their_bounds() {
    for name in [
        "tan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "tanh", "atanh",
    ] {
        let function = crate::spec::registry::find(name).unwrap();
        let kinds: Vec<ValueKind> = function.shape.signature().arguments.to_vec();
        for (element, relaxed) in [
            (FloatType::Half, false),
            (FloatType::Float, false),
            (FloatType::Float, true),
        ] {
            let seed = crate::sweep::unit_seed(13, name, element, 1);
            let mut inputs =
                crate::sweep::generate(function, element, &kinds, 40, 1, seed).remove(0);
            // 20 and -100: tanh's divisor past OpFDiv's range in half, -100 in float too;
            // -100 and -5000: asinh's sum crossing zero in half, -5000 in float; squares
            // between M / 4 and M (acosh's bound in half).
            let root = element.max_finite().sqrt();
            inputs.extend(
                [0.5, -0.75, 1.5, 3.0, 1e-3, 20.0, -100.0, -5000.0]
                    .into_iter()
                    .chain([0.51, 0.75, 0.9995, 1.001].map(|k| k * root))
                    .map(|v| element.round(v)),
            );
            let mut decided = 0;
            for modes in &MODES[..2] {
                let rules = rules(name, element, relaxed, *modes);
                let mpfr = binding::mpfr(rules.outputs[0].reference);
                for &x in &inputs {
                    if !function.in_domain(&[x]) {
                        continue;
                    }
                    let operands = [reference::operand(x)];
                    let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                    let check = |result: f64| {
                        let verdict = rules.fast_verdict(&[x], &[result])?;
                        let case = rules.judge_exactly(0, &[x], &[result]);
                        let context = format!(
                            "{name} {element:?} relaxed {relaxed} {modes:?} {x:e} -> {result:e}: tier {verdict:?}, judge {case:?}"
                        );
                        agrees(verdict, &case, &context);
                        Some(verdict)
                    };
                    for side in [1i64, -1] {
                        let (mut last, mut step) = (0i64, 1i64);
                        while step < 1 << 40 {
                            if check(ulps_away(correct, element, side * step)).is_none() {
                                break;
                            }
                            decided += 1;
                            last = step;
                            step *= 2;
                        }
                        for i in 1..8 {
                            let between = last + (step - last) * i / 8;
                            decided += usize::from(
                                check(ulps_away(correct, element, side * between)).is_some(),
                            );
                        }
                    }
                }
            }
            eprintln!("{name} {element:?} relaxed {relaxed}: {decided} decided near the bounds");
            assert!(decided > 0, "{name} {element:?} {relaxed}");
        }
    }
}

/// Double results of inherited cells (fma, mix, fmod and OpDot, whose exact value is a sum of
/// products, and sqrt, smoothstep, length and distance, whose exact value is MPFR's): every
/// verdict the tier gives is `judge`'s (MPFR's path), the error bit for bit; and it decides
/// nearly every passing result at the formula's plain literal value at ordinary arguments.
#[test]
fn double_inherited_cells_are_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut next = move || draws.next_bits();
    let mut draw = move |ordinary: bool| {
        let kind = next() % 6;
        let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
        let magnitude = match kind {
            _ if ordinary => {
                f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                    * pow2((next() % 80) as i32 - 40)
            }
            0 => f64::from_bits(next() >> 1),
            1 => (next() % 9) as f64 / 4.0,
            2 => f64::from_bits(next() % (1 << 52)),
            3 => pow2((next() % 2040) as i32 - 1020),
            _ => {
                f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                    * pow2((next() % 80) as i32 - 40)
            }
        };
        sign * magnitude
    };
    let functions = [
        ("fma", 3),
        ("mix", 3),
        ("fmod", 2),
        ("OpDot", 4),
        ("OpDot", 6),
        ("OpDot", 8),
        ("sqrt", 1),
        ("smoothstep", 3),
        ("length", 1),
        ("length", 3),
        ("distance", 2),
        ("distance", 8),
    ];
    for (name, arity) in functions {
        let (mut decided, mut judged, mut passing, mut passing_decided) = (0, 0, 0, 0);
        for modes in MODES {
            let rules = rules(name, FloatType::Double, false, modes);
            let output = &rules.outputs[0];
            for set in 0..400 {
                let ordinary = set % 2 == 0;
                let args: Vec<f64> = (0..arity).map(|_| draw(ordinary)).collect();
                let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                let mpfr = binding::mpfr(output.reference);
                let correct =
                    reference::correctly_rounded(mpfr, &operands, FloatType::Double).to_f64();
                let exact = reference::high_precision(mpfr, &operands, FloatType::Double).to_f64();
                // The literal values: every product rounded, then each sum.
                let plain = match (name, args.as_slice()) {
                    ("fma", [x, y, z]) => x * y + z,
                    ("mix", [x, y, a]) => x * (1.0 - a) + y * a,
                    ("fmod", [x, y]) => x - y * (x / y).trunc(),
                    ("sqrt", [x]) => x.sqrt(),
                    ("smoothstep", [edge0, edge1, x]) => {
                        let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
                        t * t * (3.0 - 2.0 * t)
                    }
                    ("length", p) => p.iter().map(|c| c * c).sum::<f64>().sqrt(),
                    ("distance", pq) => {
                        let (p, q) = pq.split_at(pq.len() / 2);
                        p.iter()
                            .zip(q)
                            .map(|(p, q)| (p - q) * (p - q))
                            .sum::<f64>()
                            .sqrt()
                    }
                    (_, dot) => {
                        let (x, y) = dot.split_at(dot.len() / 2);
                        x.iter().zip(y).map(|(x, y)| x * y).sum()
                    }
                };
                let mut tried = results(&rules, &args, correct, exact);
                tried.push((plain, true));
                tried.push((plain.next_up(), true));
                for (result, _) in tried {
                    let case = rules.judge_exactly(0, &args, &[result]);
                    judged += 1;
                    let literal = result == plain;
                    let ordinary_pass = literal && ordinary && case.outcome == Outcome::Pass;
                    passing += usize::from(ordinary_pass);
                    let Some(verdict) = rules.fast_verdict(&args, &[result]) else {
                        continue;
                    };
                    decided += 1;
                    passing_decided += usize::from(ordinary_pass);
                    let context = format!(
                        "{name} {modes:?} {args:?} -> {result:e}: tier {verdict:?}, judge {case:?}"
                    );
                    agrees_to_the_bit(verdict, &case, &context);
                }
            }
        }
        eprintln!("{name} {arity}: {decided} of {judged} decided, {passing_decided} of {passing} ordinary passes");
        assert!(
            passing_decided as f64 >= 0.99 * passing as f64,
            "{name} {arity}: {passing_decided} of {passing}"
        );
    }
}

/// Work-items of several outputs (normalize's and cross's components) in every type: every
/// verdict the tier gives is `judge`'s, the error bit for bit; and it decides nearly every
/// work-item whose components are the formula's plain literal values (each operation rounded
/// to the type) at ordinary arguments.
#[test]
fn vector_results_are_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x1357_9bdf_2468_ace1);
    let mut next = move || draws.next_bits();
    for element in [FloatType::Double, FloatType::Float, FloatType::Half] {
        // Ordinary exponents, and those whose squares overflow or vanish.
        let (ordinary_exponents, far_exponents, far_least) = match element {
            FloatType::Double => (80, 500, 520),
            FloatType::Float => (40, 60, 66),
            FloatType::Half => (8, 7, 8),
        };
        let round = |v: f64| element.round(v);
        for (name, width) in [
            ("normalize", 1),
            ("normalize", 2),
            ("normalize", 3),
            ("normalize", 4),
            ("cross", 3),
        ] {
            let (mut decided, mut passing, mut passing_decided) = (0, 0, 0);
            // Passes at an infinity the overflow allowance permits (squares that vanish).
            let mut infinite = 0;
            for modes in MODES {
                let mut rules = rules(name, element, false, modes);
                rules.outputs.truncate(width);
                for set in 0..300 {
                    let ordinary = set % 2 == 0;
                    let arity = if name == "cross" { 2 * width } else { width };
                    let args: Vec<f64> = (0..arity)
                        .map(|_| {
                            let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
                            let significand = f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12);
                            let near = |e: u64| {
                                significand
                                    * pow2(
                                        (e % ordinary_exponents) as i32
                                            - 40.min(ordinary_exponents as i32 / 2),
                                    )
                            };
                            let magnitude = match next() % 4 {
                                _ if ordinary => near(next()),
                                0 => near(next()),
                                1 => {
                                    let e = (next() % far_exponents) as i32 + far_least;
                                    significand * pow2(if next() % 2 == 0 { e } else { -e })
                                }
                                _ => f64::from_bits(next() >> 1),
                            };
                            round(sign * magnitude)
                        })
                        .collect();
                    // The plain evaluation, each operation rounded to the type.
                    let plain: Vec<f64> = match name {
                        "cross" => (0..width)
                            .map(|c| {
                                let (x, y) = args.split_at(width);
                                let (i, j) = ((c + 1) % 3, (c + 2) % 3);
                                round(round(x[i] * y[j]) - round(x[j] * y[i]))
                            })
                            .collect(),
                        _ => {
                            let dot = args.iter().fold(None, |sum: Option<f64>, c| {
                                let square = round(c * c);
                                Some(sum.map_or(square, |sum| round(sum + square)))
                            });
                            let scale = round(1.0 / dot.unwrap().sqrt());
                            args.iter().map(|c| round(c * scale)).collect()
                        }
                    };
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let correct: Vec<f64> = rules
                        .outputs
                        .iter()
                        .map(|output| {
                            let mpfr = binding::mpfr(output.reference);
                            reference::correctly_rounded(mpfr, &operands, element).to_f64()
                        })
                        .collect();
                    let mut tried = vec![plain.clone(), correct.clone()];
                    for (component, steps) in [(0, 1), (width - 1, -3), (1 % width, 40)] {
                        let mut moved = plain.clone();
                        moved[component] = ulps_away(moved[component], element, steps);
                        tried.push(moved);
                    }
                    tried.push((0..width).map(|_| round(f64::from_bits(next()))).collect());
                    for (k, results) in tried.iter().enumerate() {
                        let case = rules.judge_exactly(0, &args, results);
                        let at_plain = k == 0 && ordinary && case.outcome == Outcome::Pass;
                        passing += usize::from(at_plain);
                        let Some(verdict) = rules.fast_verdict(&args, results) else {
                            continue;
                        };
                        decided += 1;
                        passing_decided += usize::from(at_plain);
                        infinite +=
                            usize::from(matches!(verdict, FastVerdict::CorrectlyRoundedOverflow));
                        let context = format!(
                            "{name} {element:?} {modes:?} {args:?} -> {results:?}: tier {verdict:?}, judge {case:?}"
                        );
                        agrees_to_the_bit(verdict, &case, &context);
                    }
                }
            }
            eprintln!("{name} {width} {element:?}: {decided} decided ({infinite} infinite passes), {passing_decided} of {passing} passes at the plain values");
            assert!(
                passing_decided as f64 >= 0.99 * passing as f64,
                "{name} {width} {element:?}: {passing_decided} of {passing}"
            );
            // Every component's square vanishing is rare past two components.
            assert!(
                name != "normalize" || width > 2 || infinite > 0,
                "{name} {width} {element:?}: no infinite pass"
            );
        }
    }
}

/// Double results of the direct cells (OpFAdd, OpFMul correctly rounded; OpFDiv's 2.5 ulp
/// inside its divisor range; rsqrt's ulp bound; sqrt is inherited), and results of cells
/// whose exact value the host computes (floor and ldexp correctly rounded, fmax and fclamp
/// "correct result") in every type: every verdict the tier gives is `judge`'s (MPFR's path);
/// and it decides every correctly rounded double result at ordinary arguments where the cell
/// holds it (not OpFAdd's and OpFMul's under RTZ), and every result equal to the host's exact
/// value.
#[test]
fn direct_and_exact_cells_are_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x0dd1_ce5e_ed5a_1e42);
    let mut next = move || draws.next_bits();
    let mut draw = move |ordinary: bool| {
        let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
        let magnitude = match next() % 5 {
            _ if ordinary => {
                f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                    * pow2((next() % 80) as i32 - 40)
            }
            0 => f64::from_bits(next() >> 1),
            1 => (next() % 9) as f64 / 4.0,
            2 => f64::from_bits(next() % (1 << 52)),
            _ => pow2((next() % 2040) as i32 - 1020),
        };
        sign * magnitude
    };
    let cases = [
        ("OpFAdd", FloatType::Double, false),
        ("OpFMul", FloatType::Double, false),
        ("OpFDiv", FloatType::Double, false),
        ("rsqrt", FloatType::Double, false),
        ("floor", FloatType::Double, false),
        ("fmax", FloatType::Double, false),
        ("fclamp", FloatType::Double, false),
        ("ldexp", FloatType::Double, false),
        ("floor", FloatType::Float, false),
        ("fmax", FloatType::Half, false),
        ("ldexp", FloatType::Float, false),
        // RelaxedPrecision: floor and ldexp correctly rounded on half's grid, fmax exact.
        ("floor", FloatType::Float, true),
        ("ldexp", FloatType::Float, true),
        ("fmax", FloatType::Float, true),
    ];
    for (name, element, relaxed) in cases {
        let function = crate::spec::registry::find(name).unwrap();
        let kinds = function.shape.signature().arguments;
        let (mut decided, mut judged, mut due, mut due_decided) = (0, 0, 0, 0);
        for modes in MODES {
            let rules = rules(name, element, relaxed, modes);
            let output = &rules.outputs[0];
            let holds_correctly_rounded = !(rules.requirement == Requirement::CorrectlyRounded
                && modes.rounding == Some(Rounding::Rtz));
            // On half's grid a value of the float format need not be the unit's rounding.
            let exact_due = !(relaxed && rules.requirement == Requirement::CorrectlyRounded);
            for set in 0..300 {
                let ordinary = set % 2 == 0;
                let args: Vec<f64> = kinds
                    .iter()
                    .map(|kind| match kind {
                        ValueKind::IntGentype => ((draw(true).to_bits() % 80) as f64) - 40.0,
                        _ => element.round(draw(ordinary)),
                    })
                    .collect();
                if !function.in_domain(&args) {
                    continue;
                }
                let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                let mpfr = binding::mpfr(output.reference);
                let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                let exact = reference::high_precision(mpfr, &operands, element).to_f64();
                for (result, _) in results(&rules, &args, correct, exact) {
                    let case = rules.judge_exactly(0, &args, &[result]);
                    judged += 1;
                    let verdict = rules.fast_verdict(&args, &[result]);
                    // A plausible device's result the tier must decide.
                    let in_range = match &rules.requirement {
                        Requirement::Vulkan(Cell::UlpForDivisor { low, high, .. }) => {
                            (*low..=*high).contains(&args[1].abs())
                        }
                        _ => true,
                    };
                    // The host's exact value, a value of the format.
                    let exact_value = binding::exact(output.reference)
                        .and_then(|exact| exact(&args, element))
                        .filter(|v| v.is_finite() && element.round(*v) == *v);
                    let must = ordinary
                        && args.iter().all(|a| a.is_finite())
                        && result == correct
                        && correct.is_finite()
                        && correct.abs() < element.max_finite()
                        && in_range
                        && ((exact_due && exact_value == Some(result))
                            || (element == FloatType::Double
                                && binding::fast_tier(output).is_some()
                                && holds_correctly_rounded));
                    due += usize::from(must);
                    let Some(verdict) = verdict else {
                        continue;
                    };
                    decided += 1;
                    due_decided += usize::from(must);
                    let context = format!(
                        "{name} {element:?} {modes:?} {args:?} -> {result:e}: tier {verdict:?}, judge {case:?}"
                    );
                    agrees(verdict, &case, &context);
                }
            }
        }
        eprintln!("{name} {element:?} relaxed {relaxed}: {decided} of {judged} decided, {due_decided} of {due} due");
        let enough = due > 0
            || relaxed
                && rules(name, element, relaxed, MODES[0]).requirement
                    == Requirement::CorrectlyRounded;
        assert!(
            enough && due_decided == due,
            "{name} {element:?}: {due_decided} of {due}"
        );
    }
}

/// frexp's and modf's two outputs, in every type: a work-item whose outputs are both the
/// host's exact values passes at no error, as `judge` passes it; one output off (the
/// mantissa or fraction a step away, the exponent or whole part off by one) is left to MPFR's
/// path, or decided as it decides.
#[test]
fn several_exact_outputs_are_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x7a11_0e5e_ed00_0d17);
    let mut next = move || draws.next_bits();
    for name in ["frexp", "modf"] {
        for element in [FloatType::Half, FloatType::Float, FloatType::Double] {
            let (mut due, mut due_decided) = (0, 0);
            for modes in MODES {
                let rules = rules(name, element, false, modes);
                for set in 0..200 {
                    let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
                    let magnitude = f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                        * pow2((next() % 30) as i32 - 10);
                    let x = element.round(sign * magnitude);
                    let args = match set % 10 {
                        0 => vec![0.0],
                        1 => vec![f64::INFINITY],
                        2 => vec![pow2(element.emin() - 1)],
                        _ => vec![x],
                    };
                    let exact: Vec<f64> = rules
                        .outputs
                        .iter()
                        .map(|output| binding::exact(output.reference).unwrap()(&args, element))
                        .collect::<Option<_>>()
                        .unwrap();
                    let mut tried = vec![exact.clone()];
                    for k in 0..exact.len() {
                        let mut off = exact.clone();
                        off[k] = if rules.outputs[k].check
                            == crate::spec::registry::OutputCheck::Integer
                        {
                            off[k] + 1.0
                        } else {
                            element.round(off[k].next_up()).max(off[k].next_up())
                        };
                        tried.push(off);
                    }
                    for (k, results) in tried.iter().enumerate() {
                        let case = rules.judge_exactly(0, &args, results);
                        let verdict = rules.fast_verdict(&args, results);
                        let must =
                            k == 0 && args[0].is_finite() && args[0].abs() >= pow2(element.emin());
                        due += usize::from(must);
                        let Some(verdict) = verdict else {
                            continue;
                        };
                        due_decided += usize::from(must);
                        let context = format!(
                            "{name} {element:?} {modes:?} {args:?} -> {results:?}: tier {verdict:?}, judge {case:?}"
                        );
                        agrees_to_the_bit(verdict, &case, &context);
                    }
                }
            }
            eprintln!("{name} {element:?}: {due_decided} of {due} due");
            assert!(
                due > 0 && due_decided == due,
                "{name} {element:?}: {due_decided} of {due}"
            );
        }
    }
}

/// Half and float results of inherited cells the literal evaluation reads (fma, mix, fmod,
/// OpDot, sqrt, smoothstep, length, distance): every verdict the tier gives is `judge`'s
/// (MPFR's path), the error within 2^-20 of it, to the bit where MPFR's exact value measures
/// it; and it decides most correctly rounded results at ordinary arguments.
#[test]
fn half_and_float_inherited_cells_are_decided_as_judge_does() {
    let mut draws = crate::num::test_draws::Xorshift(0x51ce_f00d_1234_abcd);
    let mut next = move || draws.next_bits();
    let functions = [
        ("fma", 3),
        ("mix", 3),
        ("fmod", 2),
        ("OpDot", 4),
        ("OpDot", 8),
        ("sqrt", 1),
        ("smoothstep", 3),
        ("radians", 1),
        ("degrees", 1),
        ("length", 1),
        ("length", 3),
        ("distance", 2),
        ("distance", 8),
    ];
    for element in [FloatType::Float, FloatType::Half] {
        for (name, arity) in functions {
            let (mut decided, mut judged, mut correct_ones, mut correct_decided) = (0, 0, 0, 0);
            for modes in MODES {
                let rules = rules(name, element, false, modes);
                let output = &rules.outputs[0];
                // Measured against MPFR's exact value or the host's exact double, as `judge`
                // measures: to the bit.
                let by_mpfr = binding::fast_tier(output).is_none()
                    && (binding::exact_sum(output.reference).is_none()
                        || binding::exact(output.reference).is_some());
                for set in 0..150 {
                    let ordinary = set % 3 != 0;
                    let args: Vec<f64> = (0..arity)
                        .map(|_| {
                            let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
                            let magnitude = if ordinary {
                                f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                                    * pow2((next() % 12) as i32 - 6)
                            } else {
                                match next() % 3 {
                                    0 => (next() % 9) as f64 / 4.0,
                                    1 => pow2((next() % 40) as i32 - 20),
                                    _ => {
                                        f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12)
                                            * pow2((element.emax() - (next() % 4) as i32).min(60))
                                    }
                                }
                            };
                            element.round(sign * magnitude)
                        })
                        .collect();
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let mpfr = binding::mpfr(output.reference);
                    let correct = reference::correctly_rounded(mpfr, &operands, element).to_f64();
                    let exact = reference::high_precision(mpfr, &operands, element).to_f64();
                    for (result, _) in results(&rules, &args, correct, exact) {
                        let case = rules.judge_exactly(0, &args, &[result]);
                        judged += 1;
                        let counted = ordinary && result == correct;
                        correct_ones += usize::from(counted);
                        let Some(verdict) = rules.fast_verdict(&args, &[result]) else {
                            continue;
                        };
                        decided += 1;
                        correct_decided += usize::from(counted);
                        let context = format!(
                            "{name} {element:?} {modes:?} {args:?} -> {result:e}: tier {verdict:?}, judge {case:?}"
                        );
                        if by_mpfr {
                            agrees_to_the_bit(verdict, &case, &context);
                        } else {
                            agrees(verdict, &case, &context);
                        }
                    }
                }
            }
            eprintln!(
                "{name} {arity} {element:?}: {decided} of {judged} decided, \
                 {correct_decided} of {correct_ones} correctly rounded ones"
            );
            assert!(
                correct_decided as f64 > 0.4 * correct_ones as f64,
                "{name} {arity} {element:?}: {correct_decided} of {correct_ones}"
            );
        }
    }
}

/// An inherited cell's result at a NaN argument, under SignedZeroInfNanPreserve: every
/// function of the table's inherited cells, in each type it has, each argument NaN in turn,
/// results NaN, zero, one and the infinity: the tier's "undefined" is `judge`'s.
#[test]
fn nan_arguments_of_inherited_cells_are_undefined_as_judge_says() {
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    let mut decided = 0;
    for row in &table.rows {
        for element in [FloatType::Half, FloatType::Float, FloatType::Double] {
            let (requirement, _) = crate::spec::vulkan::column(row, element, false);
            if !matches!(requirement, Requirement::Vulkan(Cell::Inherited(_))) {
                continue;
            }
            let Some(function) = crate::spec::registry::find(&row.instruction) else {
                continue;
            };
            let arity = function.shape.signature().arguments.len();
            for modes in &MODES[..2] {
                let rules = rules(&row.instruction, element, false, *modes);
                if rules.outputs.len() != 1 {
                    continue;
                }
                for position in 0..arity {
                    let mut args = vec![element.round(0.75); arity];
                    args[position] = f64::NAN;
                    for result in [f64::NAN, 0.0, 1.0, f64::INFINITY] {
                        let Some(verdict) = rules.fast_verdict(&args, &[result]) else {
                            continue;
                        };
                        let case = rules.judge_exactly(0, &args, &[result]);
                        let context =
                            format!("{} {element:?} {args:?} -> {result}", row.instruction);
                        agrees(verdict, &case, &context);
                        decided += 1;
                    }
                }
            }
        }
    }
    assert!(decided > 200, "{decided}");
}
