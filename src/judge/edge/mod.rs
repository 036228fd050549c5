//! The edge-case rules applied: [`cases`] expands the rules of one function (read by
//! `crate::spec::edge_table`) into concrete [`EdgeCase`]s for one element type, several values
//! per symbol; [`check`] judges a device's results for one case. The spec says these prescribed
//! results are exact ("Those values shall produce exactly the prescribed answers, and no
//! other"), so no ulp allowance applies: a case passes or fails bit for bit, except where a rule
//! itself says otherwise (a NaN, a range, `~`).

use std::collections::HashSet;
use std::fmt;

use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::spec::edge_table::{
    builtin, builtin_in, pow2, signature, Applies, ArgKind, ArgumentForm, EdgeRule, Input,
    Magnitude, Outcome, OutputKind, Sign,
};

// ---------------------------------------------------------------------------------------------
// Cases: rules expanded to concrete inputs, and the judgement of a device's results.
// ---------------------------------------------------------------------------------------------

/// What one result of one case must be.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// Exactly this value, sign of zero included (never a NaN).
    Exact(f64),
    /// The correctly rounded value of a constant the type cannot hold (`pi/2`), computed with
    /// MPFR at the type's precision: bit for bit, like `Exact`.
    CorrectlyRounded { value: f64, of: String },
    /// Any NaN: "returns a NaN".
    AnyNan,
    /// "one of the NaN operands" or "the NaN": the arguments at these indices are the NaNs. Any
    /// NaN is accepted: the spec lets a signaling NaN be quieted and leaves "the rest of the NaN
    /// payload bits or the sign of NaN" undefined, so no bit of the result can be required.
    OneOfNanOperands(Vec<usize>),
    /// This integer (an integer result handed over as an exact `f64`).
    Integer(i64),
    /// One of these integers (`FP_ILOGB0`: INT_MIN or -INT_MAX).
    OneOfIntegers { name: String, values: Vec<i64> },
    /// Any non-NaN value with this sign bit (C99: "returns a result with the same sign as x").
    Signed { negative: bool },
    /// `low <= result < high`, compared as numbers (so -0 counts as 0); not a NaN.
    HalfOpen { low: f64, high: f64 },
    /// A finite result with |result - value| <= max_relative_error·|value|: the geometric
    /// functions' "without overflow or extraordinary precision loss due to underflow".
    Near { value: f64, max_relative_error: f64 },
    /// Anything: the rule does not constrain this result.
    Any,
}

impl Expected {
    /// Whether `device_result` satisfies this expectation; `args` are the case's arguments.
    pub fn accepts(&self, device_result: f64, args: &[f64]) -> bool {
        // No expectation needs the arguments yet: the one that refers to them (a NaN operand)
        // cannot check a payload the spec leaves undefined. They are part of the signature so
        // that such a check needs no change of callers.
        let _ = args;
        let r = device_result;
        match self {
            Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => {
                !r.is_nan() && r == *v && r.is_sign_negative() == v.is_sign_negative()
            }
            Expected::AnyNan => r.is_nan(),
            // The indices only document which operands were NaNs; see the variant's doc.
            Expected::OneOfNanOperands(_) => r.is_nan(),
            Expected::Integer(n) => r == *n as f64,
            Expected::OneOfIntegers { values, .. } => values.iter().any(|n| r == *n as f64),
            Expected::Signed { negative } => !r.is_nan() && r.is_sign_negative() == *negative,
            Expected::HalfOpen { low, high } => *low <= r && r < *high,
            Expected::Near {
                value,
                max_relative_error,
            } => r.is_finite() && (r - value).abs() <= max_relative_error * value.abs(),
            Expected::Any => true,
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Exact(v) => f.write_str(&show(*v)),
            Expected::CorrectlyRounded { value, of } => {
                write!(f, "{} ({of} correctly rounded)", show(*value))
            }
            Expected::AnyNan => f.write_str("a NaN"),
            Expected::OneOfNanOperands(indices) => {
                let list: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
                write!(
                    f,
                    "a NaN (one of the NaN operands: argument {})",
                    list.join(", ")
                )
            }
            Expected::Integer(n) => write!(f, "{n}"),
            Expected::OneOfIntegers { name, values } => {
                let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                write!(f, "{name} ({})", list.join(" or "))
            }
            Expected::Signed { negative } => write!(
                f,
                "any non-NaN value with a {} sign",
                if *negative { "-" } else { "+" }
            ),
            Expected::HalfOpen { low, high } => write!(f, "a value in [{low}, {high})"),
            Expected::Near {
                value,
                max_relative_error,
            } => write!(
                f,
                "a finite value within a relative {} of {}",
                show(*max_relative_error),
                show(*value)
            ),
            Expected::Any => f.write_str("anything"),
        }
    }
}

/// Another set of acceptable results for a case: an `ftz` rule with the same inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub rule_file: String,
    pub rule_line: usize,
    pub expected: Vec<Expected>,
    pub rule_text: String,
}

/// One rule at one concrete input, in one element type.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeCase {
    pub function: String,
    pub rule_file: String,
    pub rule_line: usize,
    /// The arguments in order. An integer argument (`ldexp`'s n, `nan`'s code) is its exact
    /// value; a vector argument is `width` consecutive elements (`distance`: x's, then y's).
    pub args: Vec<f64>,
    /// The vector width of a geometric function's arguments; 1 for scalar functions.
    pub width: usize,
    /// One per result, in the [`Signature`](crate::spec::edge_table::Signature)'s order; a vector result is `width` entries.
    pub expected: Vec<Expected>,
    /// Further acceptable results, each complete: filled only when expanding for a device that
    /// flushes subnormals, from the `ftz` rules ("Edge Case Behavior in Flush To Zero Mode").
    pub alternatives: Vec<Alternative>,
    /// The rule's source: the spec sentence or C99 clause.
    pub rule_text: String,
}

impl EdgeCase {
    /// Every acceptable result vector: the rule's own first, then the alternatives.
    pub fn acceptable(&self) -> impl Iterator<Item = &[Expected]> {
        std::iter::once(self.expected.as_slice())
            .chain(self.alternatives.iter().map(|a| a.expected.as_slice()))
    }
}

/// The relative tolerance of `~` results: 2^-floor(p/2) (2^-5 half, 2^-12 float, 2^-26 double).
/// Loose enough for any implementation within the accuracy tables, tight enough to catch an
/// overflow to infinity, a flush to zero or a result that lost half its bits to underflow.
pub fn near_tolerance(element: FloatType) -> f64 {
    pow2(-(element.precision() as i32 / 2))
}

/// Every rule of `function` in the built-in data, expanded for `element`. With
/// `flush_to_zero` (a device without denormals for the type), inputs that are subnormal are
/// left out (the device would see a zero of either sign, so no prescribed result applies), and
/// the `ftz` rules are attached to the cases they may replace as [`EdgeCase::alternatives`].
/// An unknown function has no cases.
pub fn cases(function: &str, element: FloatType, flush_to_zero: bool) -> Vec<EdgeCase> {
    expand(builtin(), function, element, flush_to_zero)
}

/// [`cases`] from the rules of one revision of the text.
pub fn cases_in(
    revision: crate::spec::table::Revision,
    function: &str,
    element: FloatType,
    flush_to_zero: bool,
) -> Vec<EdgeCase> {
    expand(builtin_in(revision), function, element, flush_to_zero)
}

/// [`cases`] over any rules (a user's file read with [`parse`](crate::spec::edge_table::parse)). An `ftz` rule whose inputs
/// match no `always` case is dropped: it can only widen what an `always` rule accepts.
pub fn expand(
    rules: &[EdgeRule],
    function: &str,
    element: FloatType,
    flush_to_zero: bool,
) -> Vec<EdgeCase> {
    let mut cases: Vec<EdgeCase> = rules
        .iter()
        .filter(|r| r.function == function && r.applies == Applies::Always)
        .flat_map(|r| expand_rule(r, element, flush_to_zero))
        .collect();
    if flush_to_zero {
        let alternatives = rules
            .iter()
            .filter(|r| r.function == function && r.applies == Applies::FlushToZero)
            .flat_map(|r| expand_rule(r, element, true));
        for alternative in alternatives {
            for case in cases
                .iter_mut()
                .filter(|c| same_bits(&c.args, &alternative.args))
            {
                case.alternatives.push(Alternative {
                    rule_file: alternative.rule_file.clone(),
                    rule_line: alternative.rule_line,
                    expected: alternative.expected.clone(),
                    rule_text: alternative.rule_text.clone(),
                });
            }
        }
    }
    cases
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Expands one rule: for a correlated rule once per sign of its `±` input, otherwise once;
/// each time the Cartesian product of the arguments' values, duplicates removed.
fn expand_rule(rule: &EdgeRule, element: FloatType, flush_to_zero: bool) -> Vec<EdgeCase> {
    let signature = signature(&rule.function).expect("parse checked the function");
    let row_signs: &[Option<bool>] = if rule.correlated {
        &[Some(false), Some(true)]
    } else {
        &[None]
    };
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut cases = Vec::new();
    for &row_sign in row_signs {
        let choices: Vec<Vec<Vec<f64>>> = rule
            .inputs
            .iter()
            .zip(signature.args)
            .map(|(input, kind)| input_values(input, *kind, element, row_sign))
            .collect();
        for args in cartesian(&choices) {
            let flat: Vec<f64> = args.iter().flatten().copied().collect();
            let floats_of = |(arg, kind): (&Vec<f64>, &ArgKind)| {
                if matches!(kind, ArgKind::Float | ArgKind::Vector) {
                    arg.clone()
                } else {
                    Vec::new()
                }
            };
            let has_subnormal = args
                .iter()
                .zip(signature.args)
                .flat_map(floats_of)
                .any(|v| element.is_subnormal(v));
            if flush_to_zero && has_subnormal {
                continue;
            }
            if !seen.insert(flat.iter().map(|v| v.to_bits()).collect()) {
                continue;
            }
            let width = args
                .iter()
                .zip(signature.args)
                .find(|(_, kind)| **kind == ArgKind::Vector)
                .map_or(1, |(arg, _)| arg.len());
            let expected = rule
                .outputs
                .iter()
                .zip(signature.outputs)
                .flat_map(|(outcome, (_, kind))| {
                    resolve(
                        outcome,
                        *kind,
                        element,
                        rule,
                        &args,
                        row_sign.unwrap_or(false),
                        width,
                    )
                })
                .collect();
            cases.push(EdgeCase {
                function: rule.function.clone(),
                rule_file: rule.file.clone(),
                rule_line: rule.line,
                args: flat,
                width,
                expected,
                alternatives: Vec::new(),
                rule_text: rule.source.clone(),
            });
        }
    }
    cases
}

/// The values one argument takes: each entry is one argument value (one element, or a
/// vector's elements). `row_sign` is the sign of a correlated row's `±` (`Some(true)`:
/// negative); `None` lets every `±` take both signs.
fn input_values(
    input: &Input,
    kind: ArgKind,
    element: FloatType,
    row_sign: Option<bool>,
) -> Vec<Vec<f64>> {
    let signs = |base: Vec<f64>, plus_minus: bool| -> Vec<f64> {
        match (plus_minus, row_sign) {
            (false, _) => base,
            (true, Some(negative)) => base
                .into_iter()
                .map(|v| if negative { -v } else { v })
                .collect(),
            (true, None) => {
                let mut both = base.clone();
                both.extend(base.iter().map(|v| -v));
                both
            }
        }
    };
    let scalars: Vec<f64> = match input {
        Input::Value(sign, magnitude) => {
            let v = magnitude.value(element);
            match sign {
                Sign::Plus => vec![v],
                Sign::Minus => vec![-v],
                _ => signs(vec![v], true),
            }
        }
        Input::Nan => vec![f64::NAN],
        Input::Integer(n) => vec![*n as f64],
        Input::Class {
            class, plus_minus, ..
        } => {
            let base = match kind {
                ArgKind::Int | ArgKind::UInt => class
                    .integer_values(kind, element)
                    .expect("parse checked the class")
                    .into_iter()
                    .map(|n| n as f64)
                    .collect(),
                _ => class
                    .float_values(element)
                    .expect("parse checked the class"),
            };
            signs(base, *plus_minus)
        }
        Input::Vector(elements) => {
            // Vector elements never take part in a correlated sign (parse refuses it).
            let per_element: Vec<Vec<Vec<f64>>> = elements
                .iter()
                .map(|e| input_values(e, ArgKind::Float, element, None))
                .collect();
            return cartesian(&per_element)
                .into_iter()
                .map(|parts| parts.into_iter().flatten().collect())
                .collect();
        }
    };
    scalars.into_iter().map(|v| vec![v]).collect()
}

/// Every combination taking one entry from each list, the first list varying slowest.
fn cartesian<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut product: Vec<Vec<T>> = vec![Vec::new()];
    for list in lists {
        product = product
            .iter()
            .flat_map(|prefix| {
                list.iter().map(move |item| {
                    let mut next = prefix.clone();
                    next.push(item.clone());
                    next
                })
            })
            .collect();
    }
    product
}

/// The concrete expectations of one outcome (a vector outcome gives `width` of them).
fn resolve(
    outcome: &Outcome,
    kind: OutputKind,
    element: FloatType,
    rule: &EdgeRule,
    args: &[Vec<f64>],
    row_negative: bool,
    width: usize,
) -> Vec<Expected> {
    let signed = |sign: &Sign, magnitude: &Magnitude| {
        let v = magnitude.value(element);
        if sign.negative(row_negative) {
            -v
        } else {
            v
        }
    };
    let nan_or_exact = |v: f64| {
        if v.is_nan() {
            Expected::AnyNan
        } else {
            Expected::Exact(v)
        }
    };
    let one = match outcome {
        Outcome::Any if kind == OutputKind::Vector => return vec![Expected::Any; width],
        Outcome::Any => Expected::Any,
        Outcome::Nan => Expected::AnyNan,
        Outcome::NanOperand => Expected::OneOfNanOperands(
            args.iter()
                .enumerate()
                .filter(|(_, a)| a.len() == 1 && a[0].is_nan())
                .map(|(i, _)| i)
                .collect(),
        ),
        Outcome::Value(sign, magnitude) => {
            let value = signed(sign, magnitude);
            if let Magnitude::Pi { times, over } = magnitude {
                let mut of = String::new();
                if sign.negative(row_negative) {
                    of.push('-');
                }
                if *times != 1 {
                    of.push_str(&times.to_string());
                }
                of.push_str("pi");
                if *over != 1 {
                    of.push_str(&format!("/{over}"));
                }
                Expected::CorrectlyRounded { value, of }
            } else {
                Expected::Exact(value)
            }
        }
        Outcome::Near(sign, magnitude) => Expected::Near {
            value: signed(sign, magnitude),
            max_relative_error: near_tolerance(element),
        },
        Outcome::SignOnly(sign) => Expected::Signed {
            negative: sign.negative(row_negative),
        },
        Outcome::Argument { var, form } => {
            let index = rule
                .inputs
                .iter()
                .position(|i| matches!(i, Input::Class { var: Some(v), .. } if v == var))
                .expect("parse checked the variable");
            let a = args[index][0];
            nan_or_exact(match form {
                ArgumentForm::Same => a,
                ArgumentForm::Magnitude => a.abs(),
                ArgumentForm::NegatedMagnitude => -a.abs(),
            })
        }
        Outcome::HalfOpen(low, high) => Expected::HalfOpen {
            low: *low,
            high: *high,
        },
        Outcome::Integer(n) => Expected::Integer(*n),
        Outcome::IntegerOneOf(name, values) => Expected::OneOfIntegers {
            name: name.to_string(),
            values: values.clone(),
        },
        Outcome::Vector(elements) => {
            return elements
                .iter()
                .flat_map(|e| resolve(e, OutputKind::Float, element, rule, args, row_negative, 1))
                .collect()
        }
        Outcome::InputVector => {
            let vector = rule
                .inputs
                .iter()
                .position(|i| matches!(i, Input::Vector(_)))
                .expect("parse checked the vector input");
            return args[vector].iter().map(|v| nan_or_exact(*v)).collect();
        }
    };
    vec![one]
}

/// A value for messages: `+0`, `-0`, `+inf`, `-inf`, `nan`, otherwise C99 hex (`0x1p-149`).
fn show(value: f64) -> String {
    if value.is_nan() {
        "nan".to_string()
    } else if value == 0.0 || value.is_infinite() {
        format!(
            "{}{}",
            if value.is_sign_negative() { "-" } else { "+" },
            if value == 0.0 { "0" } else { "inf" }
        )
    } else {
        hexfloat::format_f64(value)
    }
}

/// `sin(-0)`, `distance((a, b), (c, d))`: the call, arguments as [`show`] prints them.
fn describe_call(case: &EdgeCase) -> String {
    let kinds = signature(&case.function).map_or(&[][..], |s| s.args);
    let mut parts = Vec::new();
    let mut next = 0;
    for kind in kinds {
        let take = if *kind == ArgKind::Vector {
            case.width
        } else {
            1
        };
        let values = case.args.get(next..next + take).unwrap_or(&[]);
        next += take;
        let shown: Vec<String> = values
            .iter()
            .map(|v| match kind {
                ArgKind::Int | ArgKind::UInt => format!("{}", *v as i64),
                _ => show(*v),
            })
            .collect();
        parts.push(if *kind == ArgKind::Vector {
            format!("({})", shown.join(", "))
        } else {
            shown.join("")
        });
    }
    format!("{}({})", case.function, parts.join(", "))
}

/// The name of each result position: `result`, `exp`; a vector result's `result[i]`.
fn output_names(case: &EdgeCase) -> Vec<String> {
    let outputs = signature(&case.function).map_or(&[][..], |s| s.outputs);
    let mut names = Vec::new();
    for (name, kind) in outputs {
        match kind {
            OutputKind::Vector => names.extend((0..case.width).map(|i| format!("{name}[{i}]"))),
            _ => names.push(name.to_string()),
        }
    }
    names
}

/// Judges a device's results for one case: `None` if they satisfy the rule (or, on a
/// flush-to-zero device, one of its alternatives); otherwise a message naming the call, what
/// came back, what each acceptable rule required, and each rule's location and source text.
/// `device_results` holds one value per [`EdgeCase::expected`] entry (integer results as exact
/// `f64`s).
pub fn check(case: &EdgeCase, device_results: &[f64]) -> Option<String> {
    let names = output_names(case);
    let name = |i: usize| {
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("output {i}"))
    };
    if device_results.len() != case.expected.len() {
        return Some(format!(
            "{}: {} results given, {} expected (rule {}:{}: \"{}\")",
            describe_call(case),
            device_results.len(),
            case.expected.len(),
            case.rule_file,
            case.rule_line,
            case.rule_text
        ));
    }
    let satisfied = |expected: &[Expected]| {
        expected
            .iter()
            .zip(device_results)
            .all(|(e, r)| e.accepts(*r, &case.args))
    };
    if case.acceptable().any(satisfied) {
        return None;
    }
    let is_integer =
        |e: &Expected| matches!(e, Expected::Integer(_) | Expected::OneOfIntegers { .. });
    let got: Vec<String> = device_results
        .iter()
        .zip(&case.expected)
        .enumerate()
        .map(|(i, (r, e))| {
            let value = if is_integer(e) && r.fract() == 0.0 {
                format!("{}", *r as i64)
            } else {
                show(*r)
            };
            format!("{} = {value}", name(i))
        })
        .collect();
    let wanted = |expected: &[Expected]| -> String {
        let parts: Vec<String> = expected
            .iter()
            .zip(device_results)
            .enumerate()
            .filter(|(_, (e, r))| !e.accepts(**r, &case.args))
            .map(|(i, (e, _))| format!("{} = {e}", name(i)))
            .collect();
        parts.join(", ")
    };
    let mut message = format!(
        "{} gave {}; rule {}:{} (\"{}\") requires {}",
        describe_call(case),
        got.join(", "),
        case.rule_file,
        case.rule_line,
        case.rule_text,
        wanted(&case.expected)
    );
    for alternative in &case.alternatives {
        message.push_str(&format!(
            "; the flush-to-zero alternative {}:{} (\"{}\") requires {}",
            alternative.rule_file,
            alternative.rule_line,
            alternative.rule_text,
            wanted(&alternative.expected)
        ));
    }
    Some(message)
}

#[cfg(test)]
mod tests {
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
                                Expected::Exact(v)
                                | Expected::CorrectlyRounded { value: v, .. } => *v,
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
}

/// The 2026 rules against the 2026 text, and against the 2017 rules.
#[cfg(test)]
mod revision_tests {
    use super::*;
    use crate::spec::edge_table::functions;
    use crate::spec::table::asciidoc::{plain, SPEC_2026};
    use crate::spec::table::Revision;

    /// (line, function heading, bullet text) for every `**` bullet of "Additional
    /// Requirements" (a code block after a bullet joined onto it) and every `*` bullet of the
    /// flush-to-zero section, plus the text of the whole "Edge Case Behavior" section as one
    /// line (code blocks verbatim), for finding sources.
    fn bullets_2026() -> (Vec<(usize, Option<String>, String)>, String) {
        let text = crate::spec::table::asciidoc::read(SPEC_2026);
        let lines: Vec<&str> = text.lines().collect();
        let start = lines
            .iter()
            .position(|l| *l == "=== Edge Case Behavior")
            .expect("an Edge Case Behavior section");
        let mut bullets: Vec<(usize, Option<String>, String)> = Vec::new();
        let mut section = String::new();
        let mut heading: Option<String> = None;
        let mut in_code = false;
        let mut in_bullet = false;
        for (index, raw) in lines.iter().enumerate().skip(start) {
            let line = raw.trim();
            if line == "----" {
                in_code = !in_code;
                continue;
            }
            let content = if in_code {
                line.to_string()
            } else if matches!(line, "+" | "[source,opencl_c]") {
                continue;
            } else {
                plain(line)
            };
            section.push(' ');
            section.push_str(&content);
            if line.is_empty() {
                in_bullet = false;
                continue;
            }
            if in_bullet && (in_code || !line.starts_with('*')) {
                if let Some(last) = bullets.last_mut() {
                    last.2 = format!("{} {content}", last.2)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ");
                }
                continue;
            }
            if let Some(bullet) = line.strip_prefix("** ") {
                bullets.push((index + 1, heading.clone(), plain(bullet)));
                in_bullet = true;
            } else if let Some(bullet) = line.strip_prefix("* ") {
                let bullet = plain(bullet);
                match bullet
                    .strip_prefix("OpExtInst ")
                    .and_then(|b| b.strip_suffix(':'))
                {
                    Some(name) => {
                        heading = Some(name.to_string());
                        in_bullet = false;
                    }
                    None => {
                        bullets.push((index + 1, None, bullet));
                        in_bullet = true;
                    }
                }
            } else {
                in_bullet = false;
            }
        }
        let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
        (bullets, section)
    }

    #[test]
    fn every_2026_bullet_has_a_row() {
        let (bullets, section) = bullets_2026();
        let rules = builtin_in(Revision::Spec2026);
        // Guards the extractor: 81 bullets under 26 headings, and 4 flush-to-zero ones.
        let under_headings = bullets.iter().filter(|b| b.1.is_some()).count();
        assert_eq!((under_headings, bullets.len()), (81, 85), "{bullets:#?}");
        let mut problems = Vec::new();
        for (line, function, text) in &bullets {
            let citing: Vec<&EdgeRule> = rules
                .iter()
                .filter(|r| r.source.split_whitespace().collect::<Vec<_>>().join(" ") == *text)
                .collect();
            let fits = match function {
                Some(name) => citing.iter().any(|r| r.function == *name),
                None => citing.iter().any(|r| r.applies == Applies::FlushToZero),
            };
            if !fits {
                problems.push(format!(
                    "line {line} ({function:?}): no row cites \"{text}\""
                ));
            }
        }
        for rule in rules.iter().filter(|r| !r.source.starts_with("C99 ")) {
            let source = rule.source.split_whitespace().collect::<Vec<_>>().join(" ");
            if !section.contains(&source) {
                problems.push(format!(
                    "{}:{}: the source is not in the 2026 text: {source}",
                    rule.file, rule.line
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn both_revisions_check_the_same_inputs() {
        for function in functions() {
            for element in FloatType::ALL {
                for flush in [false, true] {
                    let inputs = |revision| {
                        let mut args: Vec<Vec<u64>> = cases_in(revision, function, element, flush)
                            .iter()
                            .map(|c| c.args.iter().map(|x| x.to_bits()).collect())
                            .collect();
                        args.sort();
                        args
                    };
                    assert_eq!(
                        inputs(Revision::Spec2017),
                        inputs(Revision::Spec2026),
                        "{function} {element} ftz={flush}"
                    );
                }
            }
        }
        let nan_pair = |revision| {
            cases_in(revision, "fmax", FloatType::Float, false)
                .into_iter()
                .find(|c| c.args.iter().all(|x| x.is_nan()))
                .expect("fmax(NaN, NaN)")
        };
        assert!(nan_pair(Revision::Spec2017)
            .rule_text
            .starts_with("Functions that return"));
        assert_eq!(
            nan_pair(Revision::Spec2026).rule_text,
            "C99 F.9 paragraph 11"
        );
    }
}
