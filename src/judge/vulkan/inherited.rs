//! The inherited cells ("inherited from FORMULA"): the permitted range is every value the
//! formula can give when each of its operations returns anything its own cell allows, found
//! by a small interval evaluation in MPFR (ends rounded outwards). Judged formulas:
//! - sqrt: `1.0 / inversesqrt(x)`;
//! - tan: `sin(x) / cos(x)`;
//! - pow: `exp2(y * log2(x))` (x > 0: the formula is undefined for x < 0).
//!
//! Every other formula is [`evaluable`]'s `false`: its units are not judged.

use crate::num::fp::FloatType;
use crate::num::ulp::ulp_error;
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::{builtin_in, Profile, Requirement};
use crate::spec::vulkan::{column, Cell};
use rug::float::Round;
use rug::Float;
use std::cmp::Ordering;

use super::Verdict;

/// MPFR's working precision for the ranges' ends: far beyond double's 53 bits.
const PRECISION: u32 = 256;

/// The formulas judged here, as the table writes them.
const SQRT: &str = "1.0 / inversesqrt(x)";
const TAN: &str = "sin(x) / cos(x)";
const POW: &str = "exp2(y * log2(x))";

/// Whether the formula of an inherited cell is one this module evaluates.
pub fn evaluable(formula: &str) -> bool {
    [SQRT, TAN, POW].contains(&formula)
}

/// Why an inherited result is not judged: an operation of its formula is bounded nowhere
/// there (sin or cos outside [-pi, pi], a divisor outside OpFDiv's range).
pub(super) const UNBOUNDED: &str =
    "an operation of the formula is not bounded there (sin and cos outside [-pi, pi], a divisor outside OpFDiv's range)";

/// Why a result is not judged where the formula, evaluated on zeros, infinities or NaN, gives
/// NaN: the appendix then allows any result.
pub(super) const NAN_PERMITTED: &str =
    "NaN is among the formula's permitted values, so any result is";

/// Why a result is not judged where the formula itself is undefined (log2 of a negative x).
const UNDEFINED_FORMULA: &str = "the formula is undefined for these arguments";

/// A range of real values, ends rounded outwards.
struct Range {
    low: Float,
    high: Float,
}

/// One result of an inherited cell: inside the formula's permitted range or not; `exact` is
/// the function's own exact value (what the error is measured against).
pub(super) fn judge(
    formula: &str,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    exact: &Float,
    device_result: f64,
) -> Verdict {
    let error = ulp_error(device_result, exact, unit);
    let x = args.first().copied().unwrap_or(f64::NAN);
    // Zeros, infinities and NaN: the function's own value, or the formula's evaluated on them
    // (1.0 / inversesqrt(0) = 1.0 / inf = 0; exp2(0 * log2(inf)) = exp2(NaN) = NaN).
    if args.iter().any(|a| !a.is_finite()) || !exact.is_finite() || exact.is_zero() {
        let y = args.get(1).copied().unwrap_or(f64::NAN);
        let literal = match formula {
            SQRT => 1.0 / (1.0 / x.sqrt()),
            TAN => x.sin() / x.cos(),
            _ => (y * x.log2()).exp2(),
        };
        // "If NaN is one of the permitted values then the operation may return any result"
        // (pow(0, NaN), pow(NaN, 0), sqrt of a negative x).
        if literal.is_nan() {
            return Verdict::Unbounded(NAN_PERMITTED);
        }
        return if error == 0.0 || device_result == literal {
            Verdict::Pass(error)
        } else {
            Verdict::Fail(error)
        };
    }
    let permitted = match formula {
        SQRT => sqrt(element, unit, x),
        TAN => tan(element, unit, x),
        POW => pow(element, unit, x, args.get(1).copied().unwrap_or(f64::NAN)),
        _ => Err("the formula is not evaluated"),
    };
    match permitted {
        Err(reason) => Verdict::Unbounded(reason),
        Ok(range) => {
            let max = element.max_finite();
            // The overflow allowance: where the range reaches past the largest finite value,
            // that infinity or the largest finite value of its sign.
            let overflow = ((device_result == f64::INFINITY || device_result == max)
                && range.high > max)
                || ((device_result == f64::NEG_INFINITY || device_result == -max)
                    && range.low < -max);
            let inside = range.low <= device_result && range.high >= device_result;
            if inside || overflow {
                Verdict::Pass(error)
            } else {
                Verdict::Fail(error)
            }
        }
    }
}

/// `1.0 / inversesqrt(x)`: inversesqrt's exact value widened by its cell, then the quotient's
/// range widened by OpFDiv's.
fn sqrt(element: FloatType, unit: FloatType, x: f64) -> Result<Range, &'static str> {
    let operand = Float::with_val(PRECISION, x);
    let exact = Range {
        low: Float::with_val_round(PRECISION, operand.recip_sqrt_ref(), Round::Down).0,
        high: Float::with_val_round(PRECISION, operand.recip_sqrt_ref(), Round::Up).0,
    };
    let inverse_sqrt = widen(exact, &cell("rsqrt", element, unit), unit, None)?;
    let one = Range {
        low: Float::with_val(PRECISION, 1),
        high: Float::with_val(PRECISION, 1),
    };
    divide(one, inverse_sqrt, element, unit)
}

/// `sin(x) / cos(x)`: each widened by its own cell (bounded inside [-pi, pi] only), then the
/// quotient's range widened by OpFDiv's.
fn tan(element: FloatType, unit: FloatType, x: f64) -> Result<Range, &'static str> {
    let operand = Float::with_val(PRECISION, x);
    let sine = Range {
        low: Float::with_val_round(PRECISION, operand.sin_ref(), Round::Down).0,
        high: Float::with_val_round(PRECISION, operand.sin_ref(), Round::Up).0,
    };
    let cosine = Range {
        low: Float::with_val_round(PRECISION, operand.cos_ref(), Round::Down).0,
        high: Float::with_val_round(PRECISION, operand.cos_ref(), Round::Up).0,
    };
    let point = Range {
        low: operand.clone(),
        high: operand.clone(),
    };
    let sine = widen(sine, &cell("sin", element, unit), unit, Some(&point))?;
    let cosine = widen(cosine, &cell("cos", element, unit), unit, Some(&point))?;
    divide(sine, cosine, element, unit)
}

/// `exp2(y * log2(x))`: log2's exact value widened by its cell, the product's range by
/// OpFMul's, then exp2's range over it by exp2's cell at the product's largest magnitude.
fn pow(element: FloatType, unit: FloatType, x: f64, y: f64) -> Result<Range, &'static str> {
    if x <= 0.0 {
        return Err(UNDEFINED_FORMULA);
    }
    let operand = Float::with_val(PRECISION, x);
    let point = Range {
        low: operand.clone(),
        high: operand.clone(),
    };
    let log = Range {
        low: Float::with_val_round(PRECISION, operand.log2_ref(), Round::Down).0,
        high: Float::with_val_round(PRECISION, operand.log2_ref(), Round::Up).0,
    };
    let log = widen(log, &cell("log2", element, unit), unit, Some(&point))?;
    let factor = Float::with_val(PRECISION, y);
    let ends = |round| {
        [&log.low, &log.high].map(|end| Float::with_val_round(PRECISION, end * &factor, round).0)
    };
    let [a, b] = ends(Round::Down);
    let [c, d] = ends(Round::Up);
    let product = Range {
        low: a.min(&b),
        high: c.max(&d),
    };
    let product = widen(product, &cell("OpFMul", element, unit), unit, None)?;
    let power = Range {
        low: Float::with_val_round(PRECISION, product.low.exp2_ref(), Round::Down).0,
        high: Float::with_val_round(PRECISION, product.high.exp2_ref(), Round::Up).0,
    };
    widen(power, &cell("exp2", element, unit), unit, Some(&product))
}

/// `dividend / divisor` over the two ranges, widened by OpFDiv's cell, which bounds a divisor
/// only where its magnitude lies in the cell's range (or is zero).
fn divide(
    dividend: Range,
    divisor: Range,
    element: FloatType,
    unit: FloatType,
) -> Result<Range, &'static str> {
    let Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high }) = cell("OpFDiv", element, unit)
    else {
        return Err("OpFDiv's cell is not a divisor range");
    };
    let positive = divisor.low >= low && divisor.high <= high;
    let negative = divisor.high <= -low && divisor.low >= -high;
    if !(positive || negative) {
        return Err(UNBOUNDED);
    }
    let mut lows = Vec::new();
    let mut highs = Vec::new();
    for a in [&dividend.low, &dividend.high] {
        for b in [&divisor.low, &divisor.high] {
            lows.push(Float::with_val_round(PRECISION, a / b, Round::Down).0);
            highs.push(Float::with_val_round(PRECISION, a / b, Round::Up).0);
        }
    }
    let smallest = lows.into_iter().min_by(order).expect("four corners");
    let largest = highs.into_iter().max_by(order).expect("four corners");
    widen(
        Range {
            low: smallest,
            high: largest,
        },
        &Requirement::Ulp(ulp),
        unit,
        None,
    )
}

fn order(a: &Float, b: &Float) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// The cell of the operation named `function` (the registry's name) in the column the unit's
/// result is judged by: half's for a RelaxedPrecision float result.
fn cell(function: &str, element: FloatType, unit: FloatType) -> Requirement {
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    let row = table
        .row(function)
        .expect("the Vulkan table has the formulas' operations");
    column(row, element, unit != element).0.clone()
}

/// The values an operation may return whose exact value lies in `exact`, its argument in
/// `argument`, under its cell: N ulp (of the larger ulp of the two ends: ulp grows with |v|,
/// so a superset), N + B|x| ulp at the argument's largest magnitude, an absolute bound where
/// the argument lies in its range (both readings where it straddles the range's edge),
/// correctly rounded as 1 ulp (either neighbour). Any other cell, or an argument outside an
/// absolute cell's range, bounds nothing.
fn widen(
    exact: Range,
    requirement: &Requirement,
    unit: FloatType,
    argument: Option<&Range>,
) -> Result<Range, &'static str> {
    let ulp =
        crate::num::ulp::ulp_of(&exact.low, unit).max(crate::num::ulp::ulp_of(&exact.high, unit));
    let by = |distance: f64| Range {
        low: Float::with_val_round(PRECISION, &exact.low - distance, Round::Down).0,
        high: Float::with_val_round(PRECISION, &exact.high + distance, Round::Up).0,
    };
    // Where the argument lies against [low, high]: (some inside, some outside).
    let inside = |low: f64, high: f64| {
        argument.map(|range| {
            let within = range.low >= low && range.high <= high;
            let beyond = range.high < low || range.low > high;
            (!beyond, !within)
        })
    };
    match requirement {
        Requirement::Ulp(n) => Ok(by(n * ulp)),
        Requirement::CorrectlyRounded | Requirement::Exact => Ok(by(ulp)),
        Requirement::Vulkan(Cell::UlpPerMagnitude {
            constant,
            per_magnitude,
        }) => {
            let range = argument.ok_or(UNBOUNDED)?;
            let magnitude = range.low.to_f64().abs().max(range.high.to_f64().abs());
            Ok(by((constant + per_magnitude * magnitude) * ulp))
        }
        Requirement::Vulkan(Cell::AbsoluteInside {
            absolute,
            low,
            high,
        }) => match inside(*low, *high) {
            Some((true, false)) => Ok(by(*absolute)),
            _ => Err(UNBOUNDED),
        },
        Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
            ulp: n,
            low,
            high,
            absolute,
        }) => match inside(*low, *high) {
            Some((true, false)) => Ok(by(*absolute)),
            Some((false, true)) => Ok(by(n * ulp)),
            Some(_) => Ok(by(absolute.max(n * ulp))),
            None => Err(UNBOUNDED),
        },
        _ => Err("an operation of the formula has a cell the evaluation does not read"),
    }
}
