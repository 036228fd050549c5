//! Rounding to a unit's grid in an element's exponent range, and the formulas' constants on
//! it (`C_pi_180`, `C_180_pi`: "a correctly rounded approximation to" π/180 and 180/π, so
//! either neighbour): what the interval evaluation ([`super::inherited`]) and the literal
//! evaluation ([`super::literal`]) both read.

use crate::num::fp::FloatType;
use crate::spec::vulkan::formula::Constant;
use rug::float::{Constant as MpfrConstant, Round};
use rug::Float;

/// `v` rounded down (`Round::Down`, or any but `Up`) or up to the grid of `unit`'s precision
/// in `element`'s exponent range (its subnormals' spacing below the normal range). Exact
/// scalings and an integer rounding: no other rounding.
pub(super) fn round_to(v: &Float, element: FloatType, unit: FloatType, round: Round) -> Float {
    let Some(exp) = v.get_exp() else {
        return v.clone();
    };
    let working = v.prec();
    let precision = unit.precision() as i32;
    let gap = (exp - 1).max(element.emin()) - precision + 1;
    let scaled = Float::with_val(working, v * Float::with_val(working, Float::i_exp(1, -gap)));
    let steps = match round {
        Round::Up => Float::with_val(working, scaled.ceil_ref()),
        _ => Float::with_val(working, scaled.floor_ref()),
    };
    steps * Float::with_val(working, Float::i_exp(1, gap))
}

/// The exact constant at `precision` bits.
pub(super) fn constant_value(constant: Constant, precision: u32) -> Float {
    let pi = Float::with_val(precision, MpfrConstant::Pi);
    match constant {
        Constant::PiOver180 => Float::with_val(precision, &pi / 180),
        Constant::OneEightyOverPi => Float::with_val(precision, 180 / &pi),
    }
}

/// `constant` in `element` (its own unit): the nearer neighbour (the exact value rounded to
/// double, then to the type) and both neighbours of the exact value on the type's grid, the
/// interval evaluation's range: `(nearest, low, high)`.
pub(super) fn constant_neighbours(constant: Constant, element: FloatType) -> (f64, f64, f64) {
    let value = constant_value(constant, 256);
    let low = round_to(&value, element, element, Round::Down).to_f64();
    let high = round_to(&value, element, element, Round::Up).to_f64();
    (element.round(value.to_f64()), low, high)
}
