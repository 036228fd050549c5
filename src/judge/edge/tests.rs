//! Tests of the edge-case expansion and judging: signed zeros and NaNs, integer arguments,
//! vectors, overlapping rules, and the flush-to-zero alternatives.

use super::*;
use crate::spec::edge_table::{functions, parse, Class, BUILTIN_SOURCE};

// ---- 3. Expansion ----

fn has(cases: &[EdgeCase], args: &[f64], expected: &[Expected]) -> bool {
    cases
        .iter()
        .any(|c| same_bits(&c.args, args) && c.expected == expected)
}

#[test]
fn sin_expands_to_signed_zeros_and_nans() {
    let sin = cases("sin", FloatType::Float, false);
    assert!(has(&sin, &[0.0], &[Expected::Exact(0.0)]));
    assert!(has(&sin, &[-0.0], &[Expected::Exact(-0.0)]));
    assert!(has(&sin, &[f64::INFINITY], &[Expected::AnyNan]));
    assert!(has(&sin, &[f64::NEG_INFINITY], &[Expected::AnyNan]));
    let minus_zero = sin.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
    assert_eq!(minus_zero.rule_text, "C99 F.9.1.6");
    assert_eq!(minus_zero.rule_file, BUILTIN_SOURCE);
    assert!(minus_zero.alternatives.is_empty());
    assert!(cases("no_such_function", FloatType::Float, false).is_empty());
}

#[test]
fn pow_of_minus_zero_and_odd_negative_integers_is_minus_infinity() {
    let pow = cases("pow", FloatType::Double, false);
    let odd: Vec<f64> = pow
        .iter()
        .filter(|c| {
            c.args[0] == 0.0
                && c.args[0].is_sign_negative()
                && c.expected == [Expected::Exact(f64::NEG_INFINITY)]
        })
        .map(|c| c.args[1])
        .collect();
    for y in [-1.0, -3.0, -(2f64.powi(53) - 1.0)] {
        assert!(odd.contains(&y), "pow(-0, {y}) missing from {odd:?}");
    }
    assert!(odd
        .iter()
        .all(|y| y.fract() == 0.0 && (y % 2.0).abs() == 1.0));
    // pow(+0, odd negative) is +inf, and pow(±0, -inf) = +inf from both sources.
    assert!(has(&pow, &[0.0, -3.0], &[Expected::Exact(f64::INFINITY)]));
    assert!(has(
        &pow,
        &[-0.0, f64::NEG_INFINITY],
        &[Expected::Exact(f64::INFINITY)]
    ));
    // pow(x, ±0) = 1 even for a NaN x.
    assert!(has(&pow, &[f64::NAN, -0.0], &[Expected::Exact(1.0)]));
}

/// Every rule of every function, each type, both modes.
fn all_cases() -> Vec<(FloatType, bool, EdgeCase)> {
    let mut all = Vec::new();
    for element in FloatType::ALL {
        for flush in [false, true] {
            for function in functions() {
                for case in cases(function, element, flush) {
                    all.push((element, flush, case));
                }
            }
        }
    }
    all
}

#[test]
fn every_input_and_exact_result_is_a_value_of_its_type() {
    let all = all_cases();
    assert!(all.len() > 5000, "{} cases", all.len());
    for (element, flush, case) in &all {
        let signature = signature(&case.function).unwrap();
        let mut next = 0;
        for kind in signature.args {
            let take = if *kind == ArgKind::Vector {
                case.width
            } else {
                1
            };
            for &x in &case.args[next..next + take] {
                let ok = match kind {
                    ArgKind::Float | ArgKind::Vector => {
                        x.is_nan() || element.round(x).to_bits() == x.to_bits()
                    }
                    ArgKind::Int => x.fract() == 0.0 && i32::try_from(x as i64).is_ok(),
                    ArgKind::UInt => {
                        x.fract() == 0.0 && x >= 0.0 && x < 2f64.powi(element.bits() as i32)
                    }
                };
                assert!(
                    ok,
                    "{element} {}: argument {x} is not a value of its kind",
                    case.function
                );
                if *flush && matches!(kind, ArgKind::Float | ArgKind::Vector) {
                    assert!(
                        !element.is_subnormal(x),
                        "{element} FTZ {}: subnormal {x}",
                        case.function
                    );
                }
            }
            next += take;
        }
        assert_eq!(next, case.args.len(), "{}", case.function);
        let outputs: usize = signature
            .outputs
            .iter()
            .map(|(_, k)| {
                if *k == OutputKind::Vector {
                    case.width
                } else {
                    1
                }
            })
            .sum();
        assert_eq!(case.expected.len(), outputs, "{}", case.function);
        for expected in case.acceptable().flatten() {
            match expected {
                Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => assert!(
                    !v.is_nan() && element.round(*v).to_bits() == v.to_bits(),
                    "{element} {}: expected {v} is not a {element}",
                    case.function
                ),
                Expected::OneOfNanOperands(indices) => assert!(
                    !indices.is_empty() && indices.iter().all(|&i| case.args[i].is_nan()),
                    "{element} {}{:?}: `nan operand` without a NaN operand",
                    case.function,
                    case.args
                ),
                _ => {}
            }
        }
    }
}

/// Two rules that cover the same input must agree: each exact (or NaN, or integer) value
/// one requires must satisfy the other.
#[test]
fn overlapping_rules_agree() {
    let mut problems = Vec::new();
    for element in FloatType::ALL {
        for function in functions() {
            let all = cases(function, element, false);
            for a in &all {
                for b in all.iter().filter(|b| same_bits(&a.args, &b.args)) {
                    for (i, (ea, eb)) in a.expected.iter().zip(&b.expected).enumerate() {
                        let value = match ea {
                            Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => *v,
                            Expected::AnyNan | Expected::OneOfNanOperands(_) => f64::NAN,
                            Expected::Integer(n) => *n as f64,
                            _ => continue,
                        };
                        if !eb.accepts(value, &b.args) {
                            problems.push(format!(
                                "{element} {function}{:?} output {i}: line {} wants {ea}, line {} wants {eb}",
                                a.args, a.rule_line, b.rule_line
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn signs_follow_the_row() {
    let tanpi = cases("tanpi", FloatType::Half, false);
    assert!(has(&tanpi, &[3.0], &[Expected::Exact(-0.0)]));
    assert!(has(&tanpi, &[-3.0], &[Expected::Exact(0.0)]));
    assert!(has(&tanpi, &[-4.0], &[Expected::Exact(-0.0)]));
    assert!(
        has(&tanpi, &[2047.0], &[Expected::Exact(-0.0)]),
        "largest odd half"
    );
    assert!(has(
        &tanpi,
        &[1023.5],
        &[Expected::Exact(f64::NEG_INFINITY)]
    ));
    assert!(has(&tanpi, &[1022.5], &[Expected::Exact(f64::INFINITY)]));
    // Independent signs: powr(±0, ±0) is all four pairs.
    let powr = cases("powr", FloatType::Float, false);
    for (x, y) in [(0.0, 0.0), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0)] {
        assert!(has(&powr, &[x, y], &[Expected::AnyNan]), "powr({x}, {y})");
    }
    // A `±` class: atan2pi(±y, -inf) = ±1 for finite y > 0, at tiny, 1 and huge y.
    let atan2pi = cases("atan2pi", FloatType::Float, false);
    for y in [2f64.powi(-149), 1.0, f64::from(f32::MAX)] {
        assert!(has(
            &atan2pi,
            &[y, f64::NEG_INFINITY],
            &[Expected::Exact(1.0)]
        ));
        assert!(has(
            &atan2pi,
            &[-y, f64::NEG_INFINITY],
            &[Expected::Exact(-1.0)]
        ));
    }
    // Results computed from an argument: fmod(x, ±inf) = x, hypot(x, ±0) = |x|.
    let fmod = cases("fmod", FloatType::Double, false);
    assert!(has(&fmod, &[-1.5, f64::INFINITY], &[Expected::Exact(-1.5)]));
    let hypot = cases("hypot", FloatType::Double, false);
    assert!(has(
        &hypot,
        &[-f64::MAX, -0.0],
        &[Expected::Exact(f64::MAX)]
    ));
    assert!(has(&hypot, &[f64::NAN, 0.0], &[Expected::AnyNan]));
}

#[test]
fn pi_results_are_correctly_rounded_in_each_type() {
    let rounded = |element: FloatType| {
        cases("atan2", element, false)
            .into_iter()
            .find(|c| same_bits(&c.args, &[0.0, -0.0]))
            .unwrap()
            .expected[0]
            .clone()
    };
    let pi = |e: Expected| match e {
        Expected::CorrectlyRounded { value, of } => {
            assert_eq!(of, "pi");
            value
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(pi(rounded(FloatType::Double)), std::f64::consts::PI);
    assert_eq!(
        pi(rounded(FloatType::Float)),
        f64::from(std::f32::consts::PI)
    );
    assert_eq!(pi(rounded(FloatType::Half)), half::f16::PI.to_f64());
    let atan2 = cases("atan2", FloatType::Float, false);
    let three_quarters = atan2
        .iter()
        .find(|c| same_bits(&c.args, &[f64::NEG_INFINITY, f64::NEG_INFINITY]))
        .unwrap();
    assert_eq!(
        three_quarters.expected,
        [Expected::CorrectlyRounded {
            value: f64::from(-3.0 * std::f32::consts::FRAC_PI_4),
            of: "-3pi/4".to_string()
        }]
    );
}

#[test]
fn integer_arguments_and_results() {
    let ilogb = cases("ilogb", FloatType::Float, false);
    let zero = ilogb.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
    assert!(check(zero, &[f64::from(i32::MIN)]).is_none());
    assert!(check(zero, &[-f64::from(i32::MAX)]).is_none());
    assert!(check(zero, &[0.0]).unwrap().contains("FP_ILOGB0"));
    let rootn = cases("rootn", FloatType::Half, false);
    assert!(has(
        &rootn,
        &[-0.0, -f64::from(i32::MAX)],
        &[Expected::Exact(f64::NEG_INFINITY)]
    ));
    assert!(has(
        &rootn,
        &[-0.0, f64::from(i32::MIN)],
        &[Expected::Exact(f64::INFINITY)]
    ));
    let frexp = cases("frexp", FloatType::Double, false);
    assert!(has(
        &frexp,
        &[f64::NEG_INFINITY],
        &[Expected::Exact(f64::NEG_INFINITY), Expected::Integer(0)]
    ));
    let nan = cases("nan", FloatType::Half, false);
    assert_eq!(nan.len(), 3);
    assert!(nan.iter().all(|c| c.expected == [Expected::AnyNan]));
}

#[test]
fn vectors_are_expanded_at_their_width() {
    let length = cases("length", FloatType::Float, false);
    let huge = length
        .iter()
        .find(|c| c.args == [2f64.powi(126); 4])
        .expect("length of huge components");
    assert_eq!(huge.width, 4);
    assert!(check(huge, &[2f64.powi(127)]).is_none());
    assert!(check(huge, &[2f64.powi(127) * (1.0 - 2f64.powi(-20))]).is_none());
    assert!(check(huge, &[f64::INFINITY])
        .unwrap()
        .contains("without overflow"));
    let tiny = length
        .iter()
        .find(|c| {
            c.args
                == [
                    2f64.powi(-149),
                    2f64.powi(-149),
                    -(2f64.powi(-149)),
                    2f64.powi(-149),
                ]
        })
        .expect("length of subnormal components");
    assert!(check(tiny, &[0.0]).is_some());
    assert!(check(tiny, &[2f64.powi(-148)]).is_none());
    // Without denormals, no subnormal vector is a case.
    assert!(cases("length", FloatType::Float, true)
        .iter()
        .all(|c| c.args.iter().all(|v| !FloatType::Float.is_subnormal(*v))));

    let normalize = cases("normalize", FloatType::Float, false);
    let zeros: Vec<&EdgeCase> = normalize
        .iter()
        .filter(|c| c.width == 4 && c.args.iter().all(|v| *v == 0.0))
        .collect();
    assert_eq!(zeros.len(), 16, "every sign pattern of the zero vector");
    // And at widths 1, 2 and 3 (the geometric functions take 1 to 4 components).
    for width in 1..=3 {
        let zeros = normalize
            .iter()
            .filter(|c| c.width == width && c.args.iter().all(|v| *v == 0.0))
            .count();
        assert_eq!(zeros, 1 << width, "zero vectors of width {width}");
        for function in ["length", "distance", "normalize"] {
            assert!(
                cases(function, FloatType::Float, false)
                    .iter()
                    .any(|c| c.width == width),
                "{function} has no case at width {width}"
            );
        }
    }
    for case in zeros {
        let expected: Vec<Expected> = case.args.iter().map(|v| Expected::Exact(*v)).collect();
        assert_eq!(case.expected, expected);
    }
    let infinite = normalize
        .iter()
        .find(|c| same_bits(&c.args, &[f64::INFINITY, 1.0, -2.0, 0.0]))
        .unwrap();
    assert!(check(infinite, &[1.0, 0.0, -0.0, 0.0]).is_none());
    let message = check(infinite, &[1.0, 0.0, 0.0, 0.0]).unwrap();
    assert!(message.contains("result[2] = -0"), "{message}");
    assert!(
        message.contains("normalize((+inf, 0x1p+0, -0x1p+1, +0))"),
        "{message}"
    );

    let distance = cases("distance", FloatType::Half, false);
    assert!(distance.iter().all(|c| c.args.len() == 2 * c.width));
    assert!(distance.iter().any(|c| c.width == 4));
}

#[test]
fn flush_to_zero_alternatives_attach_to_their_cases() {
    let smallest = 2f64.powi(-126);
    let denorm_min = 2f64.powi(-149);
    let plain = cases("nextafter", FloatType::Float, false);
    assert!(plain.iter().all(|c| c.alternatives.is_empty()));
    assert!(has(&plain, &[-0.0, 1.0], &[Expected::Exact(denorm_min)]));
    assert!(plain
        .iter()
        .any(|c| same_bits(&c.args, &[-0.0, denorm_min])));

    let flushing = cases("nextafter", FloatType::Float, true);
    let case = flushing
        .iter()
        .find(|c| same_bits(&c.args, &[-0.0, 1.0]))
        .unwrap();
    assert_eq!(case.expected, [Expected::Exact(denorm_min)]);
    assert_eq!(case.alternatives.len(), 1);
    assert_eq!(case.alternatives[0].expected, [Expected::Exact(smallest)]);
    assert!(check(case, &[denorm_min]).is_none());
    assert!(check(case, &[smallest]).is_none());
    let message = check(case, &[0.0]).unwrap();
    assert!(
        message.contains("smallest positive denormal value"),
        "{message}"
    );
    assert!(
        message.contains("smallest positive normal value"),
        "{message}"
    );

    let down = flushing
        .iter()
        .find(|c| same_bits(&c.args, &[smallest, -1.0]))
        .unwrap();
    assert!(check(down, &[0.0]).is_none());
    assert!(check(down, &[smallest - denorm_min]).is_none());
    assert!(check(down, &[-0.0]).is_some());

    // Every `ftz` row widens some `always` case, in every type.
    for element in FloatType::ALL {
        for rule in builtin()
            .iter()
            .filter(|r| r.applies == Applies::FlushToZero)
        {
            let own = expand_rule(rule, element, true);
            assert!(!own.is_empty(), "line {}", rule.line);
            let all = cases(&rule.function, element, true);
            for alternative in own {
                assert!(
                    all.iter().any(|c| same_bits(&c.args, &alternative.args)
                        && c.alternatives.iter().any(|a| a.rule_line == rule.line)),
                    "{element}: line {} at {:?} attaches to no case",
                    rule.line,
                    alternative.args
                );
            }
        }
    }
}

// ---- 4. Judging ----

#[test]
fn check_names_the_rule_and_accepts_any_nan() {
    let sin = cases("sin", FloatType::Float, false);
    let minus_zero = sin.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
    assert!(check(minus_zero, &[-0.0]).is_none());
    let message = check(minus_zero, &[0.0]).expect("+0 for sin(-0)");
    assert!(message.contains("C99 F.9.1.6"), "{message}");
    assert!(message.contains("sin(-0) gave result = +0"), "{message}");
    assert!(message.contains("requires result = -0"), "{message}");
    assert!(message.contains(&format!("{BUILTIN_SOURCE}:{}", minus_zero.rule_line)));

    let infinity = sin
        .iter()
        .find(|c| same_bits(&c.args, &[f64::INFINITY]))
        .unwrap();
    for nan in [
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0xfff8_0000_dead_beef),
    ] {
        assert!(check(infinity, &[nan]).is_none());
    }
    assert!(check(infinity, &[0.0]).unwrap().contains("a NaN"));
    assert!(check(infinity, &[0.0, 1.0])
        .unwrap()
        .contains("2 results given, 1 expected"));

    // "returns the NaN": any NaN, quieted or not, either sign.
    let fract = cases("fract", FloatType::Double, false);
    let nan = fract
        .iter()
        .find(|c| c.args[0].is_nan() && c.rule_text.starts_with("fract( NaN"))
        .unwrap();
    assert_eq!(nan.expected[0], Expected::OneOfNanOperands(vec![0]));
    assert!(check(nan, &[-f64::NAN, f64::NAN]).is_none());
    let message = check(nan, &[f64::NAN, 0.0]).unwrap();
    let required = message.split("requires").nth(1).unwrap();
    assert_eq!(
        required.trim(),
        "iptr = a NaN",
        "only the failing output: {message}"
    );

    // The OpenCL text, verbatim, in the message.
    let atanpi = cases("atanpi", FloatType::Half, false);
    let case = atanpi
        .iter()
        .find(|c| same_bits(&c.args, &[f64::NEG_INFINITY]))
        .unwrap();
    assert!(check(case, &[-0.5]).is_none());
    assert!(check(case, &[0.5])
        .unwrap()
        .contains("atanpi ( ±∞ ) = ±0.5."));
}

#[test]
fn every_expectation_judges_as_documented() {
    use Expected::*;
    let args = [f64::NAN, 1.0];
    let table: Vec<(Expected, Vec<f64>, Vec<f64>)> = vec![
        (Exact(-0.0), vec![-0.0], vec![0.0, f64::NAN]),
        (Exact(f64::INFINITY), vec![f64::INFINITY], vec![f64::MAX]),
        (AnyNan, vec![f64::NAN, -f64::NAN], vec![0.0, f64::INFINITY]),
        (OneOfNanOperands(vec![0]), vec![f64::NAN], vec![1.0]),
        (Integer(0), vec![0.0, -0.0], vec![1.0, f64::NAN]),
        (
            OneOfIntegers {
                name: "FP_ILOGBNAN".into(),
                values: vec![2147483647, -2147483648],
            },
            vec![2147483647.0, -2147483648.0],
            vec![0.0, -2147483647.0],
        ),
        (
            Signed { negative: true },
            vec![-0.0, -1.0, f64::NEG_INFINITY],
            vec![0.0, -f64::NAN],
        ),
        (
            HalfOpen {
                low: 0.0,
                high: 1.0,
            },
            vec![0.0, -0.0, 0.5],
            vec![1.0, -1e-300, f64::NAN],
        ),
        (
            Near {
                value: 2.0,
                max_relative_error: 0.25,
            },
            vec![1.5, 2.5, 2.0],
            vec![1.4, f64::INFINITY, f64::NAN],
        ),
        (Any, vec![f64::NAN, 0.0, -1.0], vec![]),
    ];
    for (expected, accepted, refused) in table {
        for r in accepted {
            assert!(expected.accepts(r, &args), "{expected:?} refused {r}");
        }
        for r in refused {
            assert!(!expected.accepts(r, &args), "{expected:?} accepted {r}");
        }
    }
}

#[test]
fn every_form_of_the_grammar_reads() {
    let text = "\
# comment\n\
\n\
function,applies,inputs,expected,outputs,source\n\
sin,always,±0,±0,,C99 F.9.1.6\n\
atan2,always,±(finite y > 0);-inf,±pi,,C99 F.9.1.4\n\
fract,always,-inf,-0,iptr=-inf,\"fract( -inf, iptr ) returns -0 and -inf in iptr.\"\n\
frexp , always , nan , nan operand , exp = 0 , spec\n\
normalize,always,\"(+inf, 1, -2, +0)\",\"(~1, +0, -0, +0)\",,spec\n\
nextafter,ftz,-0;y > 0,+smallest normal,,spec\n\
ilogb,always,±0,FP_ILOGB0,,C99 7.12.6.5\n\
tanpi,always,±(odd integer n > 0),∓0,,spec\n";
    let rules = parse("t.csv", text).unwrap();
    assert_eq!(rules.len(), 8);
    assert_eq!(rules[0].line, 4, "comment and blank lines count");
    assert_eq!(
        rules[0].inputs,
        [Input::Value(Sign::PlusMinus, Magnitude::Zero)]
    );
    assert!(rules[0].correlated);
    assert_eq!(rules[0].text, "±0 -> ±0");
    assert_eq!(
        rules[1].inputs[0],
        Input::Class {
            class: Class::FinitePositive,
            var: Some('y'),
            plus_minus: true
        }
    );
    assert_eq!(
        rules[1].outputs,
        [Outcome::Value(
            Sign::PlusMinus,
            Magnitude::Pi { times: 1, over: 1 }
        )]
    );
    assert_eq!(
        rules[2].outputs[1],
        Outcome::Value(Sign::Minus, Magnitude::Infinity)
    );
    assert_eq!(rules[3].outputs, [Outcome::NanOperand, Outcome::Integer(0)]);
    assert!(!rules[3].correlated);
    assert_eq!(
        rules[4].inputs[0].clone(),
        Input::Vector(vec![
            Input::Value(Sign::Plus, Magnitude::Infinity),
            Input::Value(Sign::Plus, Magnitude::Decimal(1.0)),
            Input::Value(Sign::Minus, Magnitude::Decimal(2.0)),
            Input::Value(Sign::Plus, Magnitude::Zero),
        ])
    );
    assert_eq!(rules[5].applies, Applies::FlushToZero);
    assert!(matches!(
        rules[6].outputs[0],
        Outcome::IntegerOneOf("FP_ILOGB0", _)
    ));
    assert_eq!(
        rules[7].outputs,
        [Outcome::Value(Sign::MinusPlus, Magnitude::Zero)]
    );
    // A user's rules expand like the built-in ones.
    let tanpi = expand(&rules, "tanpi", FloatType::Float, false);
    assert!(has(&tanpi, &[3.0], &[Expected::Exact(-0.0)]));
    assert!(has(&tanpi, &[-3.0], &[Expected::Exact(0.0)]));
    assert_eq!(tanpi[0].rule_file, "t.csv");
}
