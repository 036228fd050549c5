//! References of the geometric instructions the 2026 text's Tables 3 and 4 bound (`length`,
//! `distance`, `normalize` and their `fast_` forms). One work-item's vector is one argument
//! list: `length(p)` and `normalize(p)` read `p`'s components, `distance(p0, p1)` reads `p0`'s
//! components then `p1`'s. The ULP bounds are against "the infinitely precise result", so
//! every sum of squares is taken far above the output's precision: all its terms are
//! non-negative, so no cancellation can make that rounding visible.

use super::{assign_nan, guard};
use rug::float::Round;
use rug::ops::AssignRound;
use rug::{Assign, Float};
use std::cmp::Ordering;

/// √(Σ cᵢ²) of `components`; +∞ when one is infinite (whatever else, as for `hypot`), NaN
/// when one is a NaN.
fn norm(precision: u32, components: impl Iterator<Item = Float>) -> Float {
    let mut sum = Float::with_val(precision, 0);
    let mut nan = false;
    for component in components {
        if component.is_infinite() {
            return Float::with_val(precision, f64::INFINITY);
        }
        nan |= component.is_nan();
        sum += Float::with_val(precision, component.square_ref());
    }
    if nan {
        return Float::with_val(precision, f64::NAN);
    }
    sum.sqrt()
}

/// `length(p)` = √(Σ pᵢ²).
pub fn length(out: &mut Float, args: &[Float]) -> Ordering {
    let value = norm(guard(out), args.iter().cloned());
    out.assign_round(&value, Round::Nearest)
}

/// `distance(p0, p1)` = length(p0 − p1); `args` holds p0's components, then p1's.
pub fn distance(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out);
    let (p0, p1) = args.split_at(args.len() / 2);
    let differences = p0
        .iter()
        .zip(p1)
        .map(|(a, b)| Float::with_val(precision, a - b));
    let value = norm(precision, differences);
    out.assign_round(&value, Round::Nearest)
}

/// Component `index` of `normalize(p)`: pᵢ / length(p). "normalize( v ) returns v if all
/// elements of v are zero", "a vector full of NaNs if any element is a NaN", and with infinite
/// elements proceeds as if each were replaced by copysign(1.0, x) and every other element by
/// copysign(0.0, x) (the 2026 text's edge cases for normalize).
fn normalize(out: &mut Float, args: &[Float], index: usize) -> Ordering {
    let precision = guard(out);
    normalized(out, &normalizing(precision, args), index, precision)
}

/// What `normalize(p)`'s components are computed from, at `precision`.
pub(super) enum Normalizing {
    /// A component is a NaN: every one is NaN.
    Nan,
    /// The components (an infinite one replaced by ±1 and then every other by ±0) and their
    /// length, `None` where every one is zero.
    Of {
        components: Vec<Float>,
        length: Option<Float>,
    },
}

/// [`Normalizing`] of `args`: the length is computed once for every component.
pub(super) fn normalizing(precision: u32, args: &[Float]) -> Normalizing {
    if args.iter().any(Float::is_nan) {
        return Normalizing::Nan;
    }
    let components: Vec<Float> = if args.iter().any(Float::is_infinite) {
        args.iter()
            .map(|x| {
                let magnitude = if x.is_infinite() { 1.0 } else { 0.0 };
                let signed = if x.is_sign_negative() {
                    -magnitude
                } else {
                    magnitude
                };
                Float::with_val(precision, signed)
            })
            .collect()
    } else {
        args.to_vec()
    };
    let length = (!components.iter().all(Float::is_zero))
        .then(|| norm(precision, components.iter().cloned()));
    Normalizing::Of { components, length }
}

/// Component `index` of `normalize(p)` into `out`, from `p`'s [`Normalizing`] at `precision`.
pub(super) fn normalized(
    out: &mut Float,
    normalizing: &Normalizing,
    index: usize,
    precision: u32,
) -> Ordering {
    match normalizing {
        Normalizing::Nan => assign_nan(out),
        Normalizing::Of {
            components,
            length: None,
        } => {
            out.assign(&components[index]);
            Ordering::Equal
        }
        Normalizing::Of {
            components,
            length: Some(length),
        } => {
            let value = Float::with_val(precision, &components[index] / length);
            out.assign_round(&value, Round::Nearest)
        }
    }
}

/// Component 0 of `normalize(p)`.
pub fn normalize_0(out: &mut Float, args: &[Float]) -> Ordering {
    normalize(out, args, 0)
}

/// Component 1 of `normalize(p)`.
pub fn normalize_1(out: &mut Float, args: &[Float]) -> Ordering {
    normalize(out, args, 1)
}

/// Component 2 of `normalize(p)`.
pub fn normalize_2(out: &mut Float, args: &[Float]) -> Ordering {
    normalize(out, args, 2)
}

/// Component 3 of `normalize(p)`.
pub fn normalize_3(out: &mut Float, args: &[Float]) -> Ordering {
    normalize(out, args, 3)
}

/// Σ xᵢ·yᵢ over the two halves of `args` (x's components, then y's): `OpDot`. The products
/// are exact at twice 53 bits, and the sum is taken 256 bits above the output's precision, far
/// below the max²·(2n − 1)·EPSILON the row allows.
pub fn dot(out: &mut Float, args: &[Float]) -> Ordering {
    let precision = guard(out).max(2 * 53 + 64);
    let (x, y) = args.split_at(args.len() / 2);
    let mut sum = Float::with_val(precision, 0);
    for (a, b) in x.iter().zip(y) {
        sum += Float::with_val(precision, a * b);
    }
    out.assign_round(&sum, Round::Nearest)
}

/// Component `index` of `cross(x, y)` = (x₁y₂ − x₂y₁, x₂y₀ − x₀y₂, x₀y₁ − x₁y₀), and 0 for the
/// fourth component of a 4-vector (OpenCL.std: "the w component of the result will be 0");
/// `args` holds x's components, then y's.
fn cross(out: &mut Float, args: &[Float], index: usize) -> Ordering {
    let precision = guard(out).max(2 * 53 + 64);
    let (x, y) = args.split_at(args.len() / 2);
    if index == 3 {
        out.assign(0);
        return Ordering::Equal;
    }
    let (i, j) = ((index + 1) % 3, (index + 2) % 3);
    let value =
        Float::with_val(precision, &x[i] * &y[j]) - Float::with_val(precision, &x[j] * &y[i]);
    out.assign_round(&value, Round::Nearest)
}

/// Component 0 of `cross(x, y)`.
pub fn cross_0(out: &mut Float, args: &[Float]) -> Ordering {
    cross(out, args, 0)
}

/// Component 1 of `cross(x, y)`.
pub fn cross_1(out: &mut Float, args: &[Float]) -> Ordering {
    cross(out, args, 1)
}

/// Component 2 of `cross(x, y)`.
pub fn cross_2(out: &mut Float, args: &[Float]) -> Ordering {
    cross(out, args, 2)
}

/// Component 3 of `cross(x, y)` at width 4: 0.
pub fn cross_3(out: &mut Float, args: &[Float]) -> Ordering {
    cross(out, args, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floats(values: &[f64]) -> Vec<Float> {
        values.iter().map(|x| Float::with_val(53, *x)).collect()
    }

    fn eval(function: super::super::ReferenceFn, values: &[f64]) -> f64 {
        let mut out = Float::new(200);
        function(&mut out, &floats(values));
        out.to_f64()
    }

    #[test]
    fn length_and_distance_are_exact_norms_without_overflow() {
        assert_eq!(eval(length, &[3.0, 4.0]), 5.0);
        assert_eq!(eval(length, &[-2.0]), 2.0);
        assert_eq!(eval(length, &[1.0e200, 1.0e200]), 1.0e200 * 2f64.sqrt());
        assert_eq!(eval(length, &[f64::NAN, f64::INFINITY]), f64::INFINITY);
        assert!(eval(length, &[f64::NAN, 1.0]).is_nan());
        // distance((1, 2, 3), (4, 6, 3)) = |(−3, −4, 0)| = 5.
        assert_eq!(eval(distance, &[1.0, 2.0, 3.0, 4.0, 6.0, 3.0]), 5.0);
    }

    #[test]
    fn dot_and_cross_are_exact() {
        // (1, 2, 3) · (4, −5, 6) = 4 − 10 + 18.
        assert_eq!(eval(dot, &[1.0, 2.0, 3.0, 4.0, -5.0, 6.0]), 12.0);
        // 2^60 · 2^60 − 2^60 · 2^60 + 1 · 1 cancels exactly to 1.
        let big = 2f64.powi(60);
        assert_eq!(eval(dot, &[big, big, 1.0, big, -big, 1.0]), 1.0);
        // x × y for x = (1, 0, 0), y = (0, 1, 0) is (0, 0, 1).
        let unit = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0];
        assert_eq!(eval(cross_0, &unit), 0.0);
        assert_eq!(eval(cross_2, &unit), 1.0);
        assert_eq!(eval(cross_3, &unit), 0.0);
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            [cross_0, cross_1, cross_2].map(|c| eval(c, &a)),
            [-3.0, 6.0, -3.0]
        );
    }

    #[test]
    fn normalize_follows_the_edge_cases_of_the_text() {
        assert_eq!(eval(normalize_0, &[3.0, 4.0]), 0.6);
        assert_eq!(eval(normalize_1, &[3.0, 4.0]), 0.8);
        let zero = eval(normalize_1, &[0.0, -0.0]);
        assert!(zero == 0.0 && zero.is_sign_negative(), "returns v itself");
        assert!(eval(normalize_0, &[1.0, f64::NAN]).is_nan());
        // (−∞, 5, +∞) reads as (−1, 0, 1).
        let infinite = [f64::NEG_INFINITY, 5.0, f64::INFINITY];
        assert_eq!(eval(normalize_0, &infinite), -(0.5f64.sqrt()));
        assert_eq!(eval(normalize_1, &infinite), 0.0);
        assert_eq!(eval(normalize_2, &infinite), 0.5f64.sqrt());
    }
}
