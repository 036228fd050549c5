//! References of the common instructions the 2026 text's Tables 3 and 4 added (`degrees`,
//! `radians`, `fclamp`, `step`, `sign`, `mix`, `smoothstep`; `fmax_common` and `fmin_common`
//! are [`super::fmax`] and [`super::fmin`]). Their definitions are OpenCL C's built-in
//! common functions, which the OpenCL.std instructions of the same names implement.
//!
//! Intermediates are computed far above the output's precision ([`guard`]), so only the final
//! rounding to `out` matters: the exact value for the ulp and absolute checks.

use super::{assign_exact, assign_nan, fmax, fmin, guard};
use rug::float::{Constant, Round};
use rug::ops::AssignRound;
use rug::{Assign, Float};
use std::cmp::Ordering;

/// `degrees(x)` = (180 / π) · x.
pub fn degrees(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out);
    let pi = Float::with_val(precision, Constant::Pi);
    let value = Float::with_val(precision, &args[0] * 180u32) / pi;
    out.assign_round(&value, Round::Nearest)
}

/// `radians(x)` = (π / 180) · x.
pub fn radians(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out);
    let pi = Float::with_val(precision, Constant::Pi);
    let value = Float::with_val(precision, &args[0] * pi) / 180u32;
    out.assign_round(&value, Round::Nearest)
}

/// `fclamp(x, minval, maxval)` = fmin(fmax(x, minval), maxval) (undefined for minval >
/// maxval: see the registry's `defined`).
pub fn fclamp(out: &mut Float, args: &[Float]) -> Ordering {
    let mut low = Float::new(guard(out));
    fmax(&mut low, &args[..2]);
    fmin(out, &[low, args[2].clone()])
}

/// `step(edge, x)`: 0.0 if x < edge, else 1.0.
pub fn step(out: &mut Float, args: &[Float]) -> Ordering {
    let (edge, x) = (&args[0], &args[1]);
    out.assign(if x < edge { 0.0 } else { 1.0 });
    Ordering::Equal
}

/// `sign(x)`: 1.0 for x > 0, −1.0 for x < 0, x itself for ±0, and 0.0 for a NaN.
pub fn sign(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    if x.is_nan() {
        out.assign(0.0);
        Ordering::Equal
    } else if x.is_zero() {
        assign_exact(out, x)
    } else {
        out.assign(if x.is_sign_positive() { 1.0 } else { -1.0 });
        Ordering::Equal
    }
}

/// `mix(x, y, a)` = x + (y − x) · a, the formula OpenCL C gives, evaluated as the equal
/// x · (1 − a) + y · a, whose terms cannot overflow when the result does not (the format's
/// exponent range applies to intermediates under `correctly_rounded`).
pub fn mix(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out);
    let (x, y, a) = (&args[0], &args[1], &args[2]);
    let complement = Float::with_val(precision, 1 - a);
    let value = Float::with_val(precision, x * complement) + Float::with_val(precision, y * a);
    out.assign_round(&value, Round::Nearest)
}

/// `smoothstep(edge0, edge1, x)`: t = clamp((x − edge0) / (edge1 − edge0), 0, 1), then
/// t · t · (3 − 2t), OpenCL C's definition.
pub fn smoothstep(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out);
    let (edge0, edge1, x) = (&args[0], &args[1], &args[2]);
    if [edge0, edge1, x].iter().any(|v| v.is_nan()) {
        return assign_nan(out);
    }
    let numerator = Float::with_val(precision, x - edge0);
    let denominator = Float::with_val(precision, edge1 - edge0);
    let t = (numerator / denominator).clamp(&0.0, &1.0);
    let cubic = Float::with_val(precision, 3 - Float::with_val(precision, &t * 2u32));
    let value = Float::with_val(precision, &t * &t) * cubic;
    out.assign_round(&value, Round::Nearest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::{correctly_rounded, operand, ReferenceFn};

    fn cr(function: ReferenceFn, args: &[f64]) -> f64 {
        let args: Vec<Float> = args.iter().map(|x| operand(*x)).collect();
        correctly_rounded(function, &args, FloatType::Float).to_f64()
    }

    #[test]
    fn common_functions_follow_their_definitions() {
        assert_eq!(cr(degrees, &[std::f64::consts::PI]), 180.0);
        assert_eq!(cr(degrees, &[1.0]), f64::from(57.295_78_f32));
        assert_eq!(cr(degrees, &[-0.0]).to_bits(), (-0.0f64).to_bits());
        assert_eq!(cr(radians, &[180.0]), f64::from(std::f32::consts::PI));
        assert_eq!(cr(radians, &[f64::INFINITY]), f64::INFINITY);
        assert_eq!(cr(fclamp, &[5.0, -1.0, 2.0]), 2.0);
        assert_eq!(cr(fclamp, &[-5.0, -1.0, 2.0]), -1.0);
        assert_eq!(cr(fclamp, &[0.5, -1.0, 2.0]), 0.5);
        assert_eq!(cr(step, &[1.0, 0.5]), 0.0);
        assert_eq!(cr(step, &[1.0, 1.0]), 1.0);
        assert_eq!(cr(sign, &[-3.5]), -1.0);
        assert_eq!(cr(sign, &[-0.0]).to_bits(), (-0.0f64).to_bits());
        assert_eq!(cr(sign, &[f64::NAN]), 0.0);
        assert_eq!(cr(sign, &[1e-40]), 1.0);
        assert_eq!(cr(mix, &[2.0, 4.0, 0.25]), 2.5);
        // (y - x) overflows float, the exact blend does not.
        let max = f64::from(f32::MAX);
        assert_eq!(cr(mix, &[-max, max, 0.5]), 0.0);
        assert_eq!(cr(smoothstep, &[0.0, 1.0, 0.5]), 0.5);
        assert_eq!(cr(smoothstep, &[0.0, 2.0, -1.0]), 0.0);
        assert_eq!(cr(smoothstep, &[0.0, 2.0, 3.0]), 1.0);
        assert_eq!(cr(smoothstep, &[0.0, 4.0, 1.0]), 0.15625);
    }
}
