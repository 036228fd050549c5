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

/// [`cases`] from the rules of one revision of an environment's text (the run's:
/// `settings.path.environment()`, `settings.spec`).
pub fn cases_in(
    environment: &'static crate::spec::environment::Environment,
    revision: crate::spec::table::Revision,
    function: &str,
    element: FloatType,
    flush_to_zero: bool,
) -> Vec<EdgeCase> {
    expand(
        builtin_in(environment, revision),
        function,
        element,
        flush_to_zero,
    )
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
mod tests;

#[cfg(test)]
mod revision_tests;
