//! The cell grammar of the edge-case rules (`tables/README.md`, "Edge-case rules"): one row's
//! cells read into an [`EdgeRule`], checked against the function's [`Signature`].

use super::*;
use crate::spec::cell::RuleCellError;

/// A cell's error and the field it is in.
type FieldError = (&'static str, RuleCellError);

/// Reads one row (six trimmed cells) into a rule, checking it against the function's signature.
pub(super) fn parse_row(file: &str, line: usize, cells: &[&str]) -> Result<EdgeRule, FieldError> {
    let [function, applies, inputs_cell, expected_cell, outputs_cell, source] = cells else {
        unreachable!("the caller checks the field count");
    };
    let signature = signature(function).ok_or_else(|| {
        (
            "function",
            format!(
                "unknown function `{function}`: expected an OpenCL.std math instruction of \
                 Table 3 (`sin`, `atan2`, `remquo`) or `length`, `distance`, `normalize`"
            )
            .into(),
        )
    })?;
    let applies = match *applies {
        "always" => Applies::Always,
        "ftz" => Applies::FlushToZero,
        other => {
            return Err((
                "applies",
                format!("cannot read `{other}`: expected `always` or `ftz`").into(),
            ))
        }
    };
    let inputs = parse_inputs(signature, inputs_cell).map_err(|m| ("inputs", m))?;
    let vector_width = inputs.iter().find_map(|input| match input {
        Input::Vector(elements) => Some(elements.len()),
        _ => None,
    });
    let mut outputs = vec![
        parse_outcome(signature.outputs[0].1, expected_cell, vector_width)
            .map_err(|m| ("expected", m))?,
    ];
    outputs.extend(
        parse_out_parameters(signature, outputs_cell, vector_width).map_err(|m| ("outputs", m))?,
    );
    if source.is_empty() {
        return Err((
            "source",
            "empty: cite the spec sentence or the C99 clause".into(),
        ));
    }
    let correlated = outputs.iter().any(Outcome::is_correlated);
    check_consistency(&inputs, &outputs, correlated, vector_width)?;
    let mut text = format!("{inputs_cell} -> {expected_cell}");
    if !outputs_cell.is_empty() {
        text.push_str(&format!("; {outputs_cell}"));
    }
    Ok(EdgeRule {
        function: function.to_string(),
        file: file.to_string(),
        line,
        applies,
        inputs,
        outputs,
        correlated,
        source: source.to_string(),
        text,
    })
}

/// The checks that involve more than one cell: `±` correlation, variables, NaN operands,
/// vector widths.
fn check_consistency(
    inputs: &[Input],
    outputs: &[Outcome],
    correlated: bool,
    vector_width: Option<usize>,
) -> Result<(), FieldError> {
    let scalar_plus_minus = inputs
        .iter()
        .filter(|input| match input {
            Input::Value(sign, _) => *sign == Sign::PlusMinus,
            Input::Class { plus_minus, .. } => *plus_minus,
            _ => false,
        })
        .count();
    let vector_plus_minus = inputs.iter().any(|input| match input {
        Input::Vector(elements) => elements
            .iter()
            .any(|e| matches!(e, Input::Value(Sign::PlusMinus, _))),
        _ => false,
    });
    if correlated && (scalar_plus_minus != 1 || vector_plus_minus) {
        return Err((
            "inputs",
            format!(
                "a `±` or `∓` result takes its sign from the row's one `±` input, but the \
                 inputs have {}{}; write one row per sign instead",
                scalar_plus_minus,
                if vector_plus_minus {
                    " scalar ones and `±` vector elements"
                } else {
                    ""
                }
            )
            .into(),
        ));
    }

    let mut bound: Vec<char> = Vec::new();
    for input in inputs {
        if let Input::Class { var: Some(var), .. } = input {
            if bound.contains(var) {
                return Err((
                    "inputs",
                    format!("the variable `{var}` names two arguments").into(),
                ));
            }
            bound.push(*var);
        }
    }
    let may_be_nan = inputs.iter().any(|input| match input {
        Input::Nan => true,
        Input::Class { class, .. } => class.may_be_nan(),
        _ => false,
    });
    for (index, outcome) in outputs.iter().enumerate() {
        let field = if index == 0 { "expected" } else { "outputs" };
        let mut pending = vec![outcome];
        while let Some(outcome) = pending.pop() {
            match outcome {
                Outcome::Argument { var, .. } if !bound.contains(var) => {
                    return Err((
                        field,
                        format!("`{var}` is not the variable of any input").into(),
                    ))
                }
                Outcome::NanOperand if !may_be_nan => {
                    return Err((
                        field,
                        "`nan operand` needs an input that can be a NaN".into(),
                    ))
                }
                Outcome::InputVector if vector_width.is_none() => {
                    return Err((field, "`v` needs a vector input".into()))
                }
                Outcome::Vector(elements) => pending.extend(elements),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Splits the inputs cell on `;` and reads each argument by its kind.
fn parse_inputs(signature: &Signature, cell: &str) -> Result<Vec<Input>, RuleCellError> {
    let parts: Vec<&str> = cell.split(';').map(str::trim).collect();
    if parts.len() != signature.args.len() {
        return Err(format!(
            "`{}` takes {} argument(s), found {} in `{cell}` (arguments are separated by `;`)",
            signature.name,
            signature.args.len(),
            parts.len()
        )
        .into());
    }
    let inputs = signature
        .args
        .iter()
        .zip(&parts)
        .map(|(kind, text)| match kind {
            ArgKind::Float => parse_float_input(text),
            ArgKind::Int | ArgKind::UInt => parse_integer_input(text, *kind),
            ArgKind::Vector => parse_vector_input(text),
        })
        .collect::<Result<Vec<Input>, RuleCellError>>()?;
    let widths: HashSet<usize> = inputs
        .iter()
        .filter_map(|input| match input {
            Input::Vector(elements) => Some(elements.len()),
            _ => None,
        })
        .collect();
    if widths.len() > 1 {
        return Err(
            format!("the vectors of `{cell}` differ in width; they must be equally wide").into(),
        );
    }
    Ok(inputs)
}

const INPUT_FORMS: &str = "a value (`+0`, `-inf`, `±0`, `nan`, `1`, `0.5`, `±smallest normal`, \
    `denorm_min`, `max`, `2^(emax-1)`, `3*2^emin`), a class (`finite x > 0`, `|x| > 1`, \
    `odd integer n < 0`, `n + 0.5`, ...; see tables/README.md) or `±(class)` for a class of \
    positive values";

fn parse_float_input(text: &str) -> Result<Input, RuleCellError> {
    if text == "nan" {
        return Ok(Input::Nan);
    }
    if let Some(inner) = text
        .strip_prefix("±(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        let (class, var) = parse_class(inner.trim()).ok_or_else(|| {
            format!("cannot read `{text}`: `{inner}` is not a class; expected {INPUT_FORMS}")
        })?;
        if !class.is_positive() {
            return Err(format!(
                "cannot read `{text}`: `±(...)` needs a class of positive values \
                 (`x > 0`, `finite x > 0`, `odd integer n > 0`, ...)"
            )
            .into());
        }
        return float_class(text, class, var, true);
    }
    if let Some((class, var)) = parse_class(text) {
        return float_class(text, class, var, false);
    }
    if class_pattern(text).is_none_or(|(_, var)| var.is_some()) {
        return Err(
            format!("cannot read `{text}`: not a known class; expected {INPUT_FORMS}").into(),
        );
    }
    let (sign, magnitude) = parse_value(text, ValueContext::Input)?;
    Ok(Input::Value(sign, magnitude))
}

fn float_class(
    text: &str,
    class: Class,
    var: Option<char>,
    plus_minus: bool,
) -> Result<Input, RuleCellError> {
    if class.float_values(FloatType::Double).is_none() {
        return Err(
            format!("cannot read `{text}`: this class is for integer arguments only").into(),
        );
    }
    Ok(Input::Class {
        class,
        var,
        plus_minus,
    })
}

fn parse_integer_input(text: &str, kind: ArgKind) -> Result<Input, RuleCellError> {
    if let Some(n) = parse_integer(text) {
        let valid = match kind {
            ArgKind::UInt => n >= 0,
            _ => i32::try_from(n).is_ok(),
        };
        if !valid {
            return Err(format!("`{text}` is out of range for this integer argument").into());
        }
        return Ok(Input::Integer(n));
    }
    match parse_class(text) {
        Some((class, var)) if class.integer_values(kind, FloatType::Half).is_some() => {
            Ok(Input::Class {
                class,
                var,
                plus_minus: false,
            })
        }
        _ => Err(format!(
            "cannot read `{text}` as an integer argument: expected an integer (`0`, `-1`) or \
             one of the classes `integer n`, `non-zero integer n`, `odd integer n > 0`, \
             `odd integer n < 0`, `even integer n > 0`, `even integer n < 0`, `even integer n`, \
             `positive integer n`, `negative integer n` (`nancode n` for `nan`)"
        )
        .into()),
    }
}

fn parse_vector_input(text: &str) -> Result<Input, RuleCellError> {
    let inner = text
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .ok_or_else(|| {
            format!("cannot read `{text}`: a vector argument is written `(a, b, c, d)`")
        })?;
    let elements = inner
        .split(',')
        .map(|element| {
            let element = element.trim();
            if element == "nan" {
                Ok(Input::Nan)
            } else {
                parse_value(element, ValueContext::Input)
                    .map(|(sign, magnitude)| Input::Value(sign, magnitude))
                    .map_err(|m| format!("in the vector `{text}`: {m}").into())
            }
        })
        .collect::<Result<Vec<Input>, RuleCellError>>()?;
    // One element: the geometric functions' scalar gentype (length(x) = |x|, ...).
    if !matches!(elements.len(), 1..=4 | 8 | 16) {
        return Err(format!(
            "the vector `{text}` has {} elements; geometric arguments have 1 (a scalar), 2, 3, \
             4, 8 or 16",
            elements.len()
        )
        .into());
    }
    Ok(Input::Vector(elements))
}

/// Matches a class's spelling, the variable replaced by `V`. Returns the class and its variable.
fn parse_class(text: &str) -> Option<(Class, Option<char>)> {
    let (pattern, var) = class_pattern(text)?;
    CLASSES
        .iter()
        .find(|(name, _)| *name == pattern)
        .map(|(_, class)| (*class, var))
}

/// The text with whitespace runs collapsed and its variable (a lone `x`, `y`, `z` or `n`)
/// replaced by `V`, and that variable; `None` if it has two different variables.
fn class_pattern(text: &str) -> Option<(String, Option<char>)> {
    let words = text.split_whitespace().collect::<Vec<&str>>().join(" ");
    let chars: Vec<char> = words.chars().collect();
    let mut var: Option<char> = None;
    let mut pattern = String::with_capacity(words.len());
    for (i, &c) in chars.iter().enumerate() {
        let letter = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
        };
        let alone = !letter(i.checked_sub(1)) && !letter(Some(i + 1));
        if alone && matches!(c, 'x' | 'y' | 'z' | 'n') {
            match var {
                Some(v) if v != c => return None,
                _ => var = Some(c),
            }
            pattern.push('V');
        } else {
            pattern.push(c);
        }
    }
    Some((pattern, var))
}

/// Where a value is written, which decides the forms it may take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueContext {
    /// An argument: exactly representable in every type, no `pi`, no `∓`.
    Input,
    /// An exact result: representable (or `pi`), `∓` allowed.
    Result,
    /// After `~`: any decimal, `∓` allowed.
    Near,
}

const VALUE_FORMS: &str = "`+0`, `-0`, `±0`, `+inf`, `-inf`, `±inf`, a number (`1`, `-0.5`), \
    `denorm_min`, `largest denorm`, `smallest normal`, `max`, `2^E` (E an integer or \
    `(emax-1)`, `(emin-p+1)`, ...), `K*M` (`3*2^emin`, `5*denorm_min`), each with an optional \
    sign `+`, `-`, `±`";

/// Reads a signed value: `[sign] magnitude`.
fn parse_value(text: &str, context: ValueContext) -> Result<(Sign, Magnitude), RuleCellError> {
    let (sign, rest, explicit) = if let Some(rest) = text.strip_prefix('±') {
        (Sign::PlusMinus, rest, true)
    } else if let Some(rest) = text.strip_prefix('∓') {
        if context == ValueContext::Input {
            return Err(format!("cannot read `{text}`: `∓` is for results only").into());
        }
        (Sign::MinusPlus, rest, true)
    } else if let Some(rest) = text.strip_prefix('+') {
        (Sign::Plus, rest, true)
    } else if let Some(rest) = text.strip_prefix('-') {
        (Sign::Minus, rest, true)
    } else {
        (Sign::Plus, text, false)
    };
    let magnitude =
        parse_magnitude(rest.trim(), context).map_err(|m| format!("cannot read `{text}`: {m}"))?;
    if !explicit && matches!(magnitude, Magnitude::Zero | Magnitude::Infinity) {
        return Err(format!(
            "cannot read `{text}`: a zero or an infinity needs its sign: `+{text}`, `-{text}` or \
             `±{text}`"
        )
        .into());
    }
    if magnitude.is_pi() && context != ValueContext::Result {
        return Err(format!("cannot read `{text}`: `pi` is for exact results only").into());
    }
    Ok((sign, magnitude))
}

fn parse_magnitude(text: &str, context: ValueContext) -> Result<Magnitude, RuleCellError> {
    let magnitude = match text {
        "0" => Magnitude::Zero,
        "inf" => Magnitude::Infinity,
        "denorm_min" => Magnitude::DenormMin,
        "largest denorm" => Magnitude::LargestDenorm,
        "smallest normal" => Magnitude::SmallestNormal,
        "max" => Magnitude::Max,
        "pi" => Magnitude::Pi { times: 1, over: 1 },
        "pi/2" => Magnitude::Pi { times: 1, over: 2 },
        "pi/4" => Magnitude::Pi { times: 1, over: 4 },
        "3pi/4" => Magnitude::Pi { times: 3, over: 4 },
        _ => {
            if let Some(exponent) = text.strip_prefix("2^") {
                Magnitude::PowerOfTwo(parse_exponent(exponent)?)
            } else if let Some((k, rest)) = text.split_once('*') {
                let k: u32 = match parse_integer(k.trim()) {
                    Some(k) if (2..=1 << 20).contains(&k) => k as u32,
                    _ => {
                        return Err(format!(
                            "the multiplier `{k}` must be a whole number from 2 to 2^20"
                        )
                        .into())
                    }
                };
                match parse_magnitude(rest.trim(), ValueContext::Input)? {
                    Magnitude::Zero
                    | Magnitude::Infinity
                    | Magnitude::Times(..)
                    | Magnitude::Pi { .. } => {
                        return Err(format!(
                            "`{rest}` cannot be multiplied: write `K*2^E` or `K*denorm_min`"
                        )
                        .into())
                    }
                    base => Magnitude::Times(k, Box::new(base)),
                }
            } else {
                let value =
                    parse_decimal(text).ok_or_else(|| format!("expected one of {VALUE_FORMS}"))?;
                if value == 0.0 {
                    Magnitude::Zero
                } else {
                    if context != ValueContext::Near && FloatType::Half.round(value) != value {
                        return Err(format!(
                            "`{text}` is not exactly representable in half, float and double; \
                             only results after `~` may be inexact"
                        )
                        .into());
                    }
                    Magnitude::Decimal(value)
                }
            }
        }
    };
    Ok(magnitude)
}

/// Digits with an optional fraction: `3`, `0.5`, `0.70710678`.
fn parse_decimal(text: &str) -> Option<f64> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let well_formed = match text.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(text),
    };
    if well_formed {
        text.parse().ok()
    } else {
        None
    }
}

/// An optionally negative whole number.
fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The E of `2^E`: an integer, `emin`, `emax` or `p`, or a parenthesised sum of them
/// (`(emin-p+1)`).
fn parse_exponent(text: &str) -> Result<Exponent, RuleCellError> {
    let bad = || {
        format!(
            "cannot read the exponent `{text}`: expected an integer, `emin`, `emax`, `p`, or a \
             parenthesised sum such as `(emin-p+1)`"
        )
    };
    let (body, grouped) = match text.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => (inner, true),
        None => (text, false),
    };
    // Signed terms: `emin-p+1` is +emin, -p, +1; a sign may only open the first term.
    let mut terms: Vec<(bool, String)> = Vec::new();
    let mut current = String::new();
    let mut negative = false;
    for c in body.chars() {
        if c == '+' || c == '-' {
            let term = current.trim();
            if term.is_empty() {
                if !terms.is_empty() || negative {
                    return Err(bad().into());
                }
            } else {
                terms.push((negative, term.to_string()));
                current.clear();
            }
            negative = c == '-';
        } else {
            current.push(c);
        }
    }
    let term = current.trim();
    if term.is_empty() {
        return Err(bad().into());
    }
    terms.push((negative, term.to_string()));
    if !grouped && terms.len() != 1 {
        return Err(bad().into());
    }
    let mut exponent = Exponent::default();
    for (negative, term) in terms {
        let unit = if negative { -1 } else { 1 };
        match term.as_str() {
            "p" => exponent.p += unit,
            "emin" => exponent.emin += unit,
            "emax" => exponent.emax += unit,
            digits => {
                let n = parse_decimal(digits)
                    .filter(|n| n.fract() == 0.0 && *n <= 4096.0)
                    .ok_or_else(bad)?;
                exponent.constant += unit * n as i32;
            }
        }
    }
    Ok(exponent)
}

/// Reads a result cell for a result of `kind`.
fn parse_outcome(
    kind: OutputKind,
    text: &str,
    vector_width: Option<usize>,
) -> Result<Outcome, RuleCellError> {
    if text == "*" {
        return Ok(Outcome::Any);
    }
    match kind {
        OutputKind::Int => parse_integer_outcome(text),
        OutputKind::Float => parse_float_outcome(text),
        OutputKind::Vector => {
            if text == "v" {
                return Ok(Outcome::InputVector);
            }
            let inner = text
                .strip_prefix('(')
                .and_then(|rest| rest.strip_suffix(')'))
                .ok_or_else(|| {
                    format!(
                        "cannot read `{text}`: a vector result is `v` (the input vector) or \
                         `(a, b, c, d)`"
                    )
                })?;
            let elements = inner
                .split(',')
                .map(|element| parse_float_outcome(element.trim()))
                .collect::<Result<Vec<Outcome>, RuleCellError>>()?;
            if Some(elements.len()) != vector_width {
                return Err(format!(
                    "the vector `{text}` has {} elements, the input {}",
                    elements.len(),
                    vector_width.map_or("is not a vector".to_string(), |w| format!("has {w}"))
                )
                .into());
            }
            Ok(Outcome::Vector(elements))
        }
    }
}

fn parse_integer_outcome(text: &str) -> Result<Outcome, RuleCellError> {
    let min = i64::from(i32::MIN);
    let max = i64::from(i32::MAX);
    Ok(match text {
        "INT_MAX" => Outcome::Integer(max),
        "INT_MIN" => Outcome::Integer(min),
        // C99 7.12 paragraph 8: FP_ILOGB0 is INT_MIN or -INT_MAX, FP_ILOGBNAN INT_MAX or INT_MIN.
        "FP_ILOGB0" => Outcome::IntegerOneOf("FP_ILOGB0", vec![min, -max]),
        "FP_ILOGBNAN" => Outcome::IntegerOneOf("FP_ILOGBNAN", vec![max, min]),
        _ => match parse_integer(text) {
            Some(n) if (min..=max).contains(&n) => Outcome::Integer(n),
            _ => {
                return Err(format!(
                    "cannot read `{text}` as an integer result: expected an integer (`0`), \
                     `INT_MAX`, `INT_MIN`, `FP_ILOGB0`, `FP_ILOGBNAN` or `*`"
                )
                .into())
            }
        },
    })
}

const OUTCOME_FORMS: &str = "`*`, `nan`, `nan operand`, an exact value (`+0`, `±inf`, `∓0`, \
    `0.5`, `±pi/2`, `+denorm_min`, ...), `~E` (close to E), `±any`, `x`, `|x|`, `-|x|` or \
    `in [a, b)`";

fn parse_float_outcome(text: &str) -> Result<Outcome, RuleCellError> {
    let single_var = |s: &str| -> Option<char> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c @ ('x' | 'y' | 'z' | 'n')), None) => Some(c),
            _ => None,
        }
    };
    if let Some(var) = single_var(text) {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::Same,
        });
    }
    if let Some(var) = text
        .strip_prefix('|')
        .and_then(|r| r.strip_suffix('|'))
        .and_then(single_var)
    {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::Magnitude,
        });
    }
    if let Some(var) = text
        .strip_prefix("-|")
        .and_then(|r| r.strip_suffix('|'))
        .and_then(single_var)
    {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::NegatedMagnitude,
        });
    }
    match text {
        "*" => return Ok(Outcome::Any),
        "nan" => return Ok(Outcome::Nan),
        "nan operand" => return Ok(Outcome::NanOperand),
        "±any" => return Ok(Outcome::SignOnly(Sign::PlusMinus)),
        "+any" => return Ok(Outcome::SignOnly(Sign::Plus)),
        "-any" => return Ok(Outcome::SignOnly(Sign::Minus)),
        _ => {}
    }
    if let Some(range) = text.strip_prefix("in [").and_then(|r| r.strip_suffix(')')) {
        let bounds = range.split_once(',').and_then(|(a, b)| {
            Some((
                parse_signed_decimal(a.trim())?,
                parse_signed_decimal(b.trim())?,
            ))
        });
        return match bounds {
            Some((low, high)) if low < high => Ok(Outcome::HalfOpen(low, high)),
            _ => {
                Err(format!("cannot read `{text}`: expected `in [a, b)` with numbers a < b").into())
            }
        };
    }
    if let Some(rest) = text.strip_prefix('~') {
        let (sign, magnitude) = parse_value(rest.trim(), ValueContext::Near)?;
        if matches!(magnitude, Magnitude::Zero | Magnitude::Infinity) {
            return Err(format!(
                "cannot read `{text}`: `~` needs a finite non-zero value; write the exact zero or \
                 infinity without `~`"
            )
            .into());
        }
        return Ok(Outcome::Near(sign, magnitude));
    }
    if text == "any" || text == "0" || text == "inf" {
        let hint = if text == "any" {
            "write `*` for an unconstrained result, or `±any`".to_string()
        } else {
            format!("a zero or an infinity needs its sign: `+{text}`, `-{text}` or `±{text}`")
        };
        return Err(format!("cannot read `{text}`: {hint}").into());
    }
    let (sign, magnitude) = parse_value(text, ValueContext::Result)
        .map_err(|m| format!("{m}; a result is one of {OUTCOME_FORMS}"))?;
    Ok(Outcome::Value(sign, magnitude))
}

fn parse_signed_decimal(text: &str) -> Option<f64> {
    match text.strip_prefix('-') {
        Some(rest) => parse_decimal(rest).map(|v| -v),
        None => parse_decimal(text),
    }
}

/// Reads the outputs cell: `name=value` pairs separated by `;`, one per out-parameter; an
/// out-parameter left out is unconstrained.
fn parse_out_parameters(
    signature: &Signature,
    cell: &str,
    vector_width: Option<usize>,
) -> Result<Vec<Outcome>, RuleCellError> {
    let parameters = &signature.outputs[1..];
    let mut outcomes = vec![Outcome::Any; parameters.len()];
    let mut given = vec![false; parameters.len()];
    if cell.is_empty() {
        return Ok(outcomes);
    }
    for part in cell.split(';').map(str::trim) {
        let Some((name, value)) = part.split_once('=') else {
            return Err(format!(
                "cannot read `{part}`: expected `name=value` (e.g. `iptr=+0`, `exp=0`)"
            )
            .into());
        };
        let name = name.trim();
        let Some(index) = parameters.iter().position(|(n, _)| *n == name) else {
            let names: Vec<String> = parameters.iter().map(|(n, _)| format!("`{n}`")).collect();
            return Err(format!(
                "`{}` has no out-parameter `{name}`{}",
                signature.name,
                if names.is_empty() {
                    ": leave the outputs cell empty".to_string()
                } else {
                    format!("; it has {}", names.join(", "))
                }
            )
            .into());
        };
        if given[index] {
            return Err(format!("`{name}` is given twice").into());
        }
        given[index] = true;
        outcomes[index] = parse_outcome(parameters[index].1, value.trim(), vector_width)
            .map_err(|m| format!("`{name}`: {m}"))?;
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    // ---- The value grammar ----

    #[test]
    fn named_values_and_powers_of_two() {
        let value = |text: &str, element: FloatType| {
            let (sign, magnitude) = parse_value(text, ValueContext::Input).unwrap();
            let v = magnitude.value(element);
            if sign == Sign::Minus {
                -v
            } else {
                v
            }
        };
        for element in FloatType::ALL {
            let p = element.precision() as i32;
            let dmin = element.from_bits(1);
            assert_eq!(value("denorm_min", element), dmin);
            assert_eq!(value("2^(emin-p+1)", element), dmin);
            assert_eq!(value("5*denorm_min", element), 5.0 * dmin);
            assert_eq!(value("smallest normal", element), 2f64.powi(element.emin()));
            assert_eq!(
                value("largest denorm", element),
                2f64.powi(element.emin()) - dmin
            );
            assert_eq!(value("-max", element), -element.max_finite());
            assert_eq!(value("2^emax", element), 2f64.powi(element.emax()));
            assert_eq!(
                value("3*2^(emax-3)", element),
                3.0 * 2f64.powi(element.emax() - 3)
            );
            assert_eq!(value("2^(p-1)", element), 2f64.powi(p - 1));
            assert_eq!(value("2^-3", element), 0.125);
        }
        for bad in [
            "2^emax-1",
            "2^(emax--1)",
            "2^()",
            "2^(q)",
            "2^(emax+)",
            "1*max",
            "3*+inf",
            "0.1",
            "1e3",
            "+nan",
            "pi",
        ] {
            assert!(
                parse_value(bad, ValueContext::Input).is_err(),
                "`{bad}` was accepted"
            );
        }
        assert!(parse_value("0.70710678", ValueContext::Near).is_ok());
        assert!(parse_value("∓0", ValueContext::Result).is_ok());
        assert!(parse_value("∓0", ValueContext::Input).is_err());
        assert_eq!(
            parse_class("n + 0.5 for odd n"),
            Some((Class::HalfIntegerOdd, Some('n')))
        );
        assert_eq!(
            parse_class("|y|  > 1"),
            Some((Class::MagnitudeAboveOne, Some('y')))
        );
        assert_eq!(parse_class("n + 0.5 for odd x"), None, "two variables");
        assert_eq!(parse_class("finite max > 0"), None);
    }
}
