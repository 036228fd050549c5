//! Float sinh, cosh and tanh over a whole column of float inputs, many lanes at a time: the
//! correctly rounded float where a rounding test proves it, NaN where the lane leaves the value
//! undecided (the scalar tier, CORE-MATH's, decides those) and at a NaN argument. Each is
//! built from [`crate::reference::exp_column`]'s `e^a` or
//! [`crate::reference::expm1_column`]'s `e^a - 1` before their rounding tests, at `a = |x|`
//! (`2|x|` for tanh, exact), as sums and quotients of positive values, so nothing cancels.
//! `u` is 2^-53.
//!
//! **Past the range.** `a` is clamped to `[0, 128]` (`[0, 64]` for tanh, so that `2a <= 128`);
//! a NaN stays NaN, and so does the lane's value. sinh and cosh grow with `a` and overflow
//! the float range before 90 (`sinh 90 > cosh 89.5 > 2^128`), so at 128 (and at ±inf) they
//! round to +inf alike; tanh grows towards 1, and `1 - tanh 64 < 2e^-128` is far inside 1's
//! rounding interval, so past 64 it rounds to 1 alike. sinh and tanh are odd: the lane's value
//! at `a` takes `x`'s sign (`copysign`; rounding to nearest is symmetric), so `-0` gives `-0`.
//!
//! **cosh** `= (E + 1/E)/2` with `E = e^a`, within `2^-47.2 <= 55.8u` of it, relative
//! (exp_column's bound, for `|a| <= 128`). `1/E` is then within `55.9u` of `e^-a` before its
//! rounding, `56.9u` after; the sum of the two positive terms within `56.9u + u`, and the
//! halving is exact (no double overflows: `E <= 2^186`): `57.9u` in all.
//!
//! **sinh** `= (M + M/(M + 1))/2` with `M = e^a - 1 >= 0` (`e^a - e^-a = M + M/(M + 1)`), within
//! `ε <= 57u` of it, relative (expm1_column's bound; `M = +0` at `a = 0`, exactly). `M/(M + 1)`
//! moves by at most `ε·(1 + 2^-40)/(M + 1) <= 57.01u` relative where `M` does by `ε` (its
//! logarithmic derivative is `1/(M + 1) <= 1`), and the addition and division round by `u`
//! each: `59.01u`. The sum of two positive terms adds `u`, the halving nothing (the value is at
//! least `2^-150`, a normal double): `60.1u` in all.
//!
//! **tanh** `= M/(M + 2)` with `M = e^(2a) - 1`: the logarithmic derivative in `M` is
//! `2/(M + 2) <= 1`, so the value moves by at most `57.01u` where `M` does by `57u`, and the
//! addition and division round by `u` each: `59.1u` in all.
//!
//! So each lane's value `y` lies within `61u < 2^-47` of the function, relative. The rounding
//! test ([`rounded`]) takes `y ± y·2^-45` (each end rounded once more: still outside
//! `y·(1 ± 254u)`) and keeps the float nearest `y` only where both ends round to the same
//! float; rounding to float is monotonic, so the exact value, which lies between the ends,
//! rounds to that float too. At a float `x != 0` the three functions are transcendental
//! (Lindemann–Weierstrass: `e^x` is, and each is a rational function of it), so no value is a
//! float or a midpoint; at 0 the lanes are exact (`sinh 0 = tanh 0 = 0`, `cosh 0 = 1`).
//! `every_float_is_core_maths` checks the columns against CORE-MATH on every 31st block of
//! floats (on every float with `CLACC_EVERY_FLOAT=1`), and `hyperbolics_agree_with_mpfr`
//! specials, edges and a random sample against MPFR.

use crate::reference::exp_column::{exp_near, rounded};
use crate::reference::expm1_column::expm1_near;

/// sinh and cosh round to +inf from well below it on.
const LIMIT: f64 = 128.0;

/// tanh rounds to 1 from well below it on (and `2·TANH_LIMIT` is [`LIMIT`]).
const TANH_LIMIT: f64 = 64.0;

/// The rounding test's half-width, relative (the lanes err by at most 2^-47).
const TEST_WIDTH: f64 = 1.0 / 35_184_372_088_832.0; // 2^-45

/// sinh of every float of `inputs`, correctly rounded to float, NaN where undecided.
pub fn sinhf(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| {
        let m = expm1_near(x.abs().clamp(0.0, LIMIT));
        rounded((m + m / (m + 1.0)) * 0.5, TEST_WIDTH).copysign(x)
    });
}

/// cosh likewise.
pub fn coshf(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| {
        let e = exp_near(x.abs().clamp(0.0, LIMIT));
        rounded((e + 1.0 / e) * 0.5, TEST_WIDTH)
    });
}

/// tanh likewise.
pub fn tanhf(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| {
        let m = expm1_near(2.0 * x.abs().clamp(0.0, TANH_LIMIT));
        rounded(m / (m + 2.0), TEST_WIDTH).copysign(x)
    });
}

/// Whether sinh, cosh and tanh are NaN at `x`: exactly at a NaN (they are finite or
/// infinite at every other float, CORE-MATH's and MPFR's as C99's F.9.2).
#[inline(always)]
pub fn hyperbolic_is_nan(x: f64) -> bool {
    x.is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::column_checks::{every_float_matches, nan_domain_matches, Column};
    use crate::reference::{binding, correctly_rounded_value, fast, FastFn};
    use crate::spec::reference_id::ReferenceId;

    /// Each column, its scalar tiers (float and double) and its MPFR reference.
    fn columns() -> [(Column, [FastFn; 2], ReferenceId); 3] {
        [
            (sinhf, [fast::sinhf, fast::sinh], ReferenceId::Sinh),
            (coshf, [fast::coshf, fast::cosh], ReferenceId::Cosh),
            (tanhf, [fast::tanhf, fast::tanh], ReferenceId::Tanh),
        ]
    }

    /// Floats as the sweep gives them: the columns' values are CORE-MATH's wherever they
    /// decide ([`every_float_matches`]), and the domain test is exactly where CORE-MATH's
    /// float and double functions are NaN.
    #[test]
    fn every_float_is_core_maths() {
        for (column, [float, double], name) in columns() {
            let name = format!("{name:?}");
            every_float_matches(column, float, &name);
            nan_domain_matches(hyperbolic_is_nan, float, &name);
            nan_domain_matches(hyperbolic_is_nan, double, &name);
        }
    }

    /// Special values, the inputs next to the overflow thresholds, tanh's last values below 1,
    /// the small arguments where the value rounds to `x` (or 1), the clamps, and a random
    /// sample, against MPFR itself (not only CORE-MATH).
    #[test]
    fn hyperbolics_agree_with_mpfr() {
        let mut inputs = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::from_bits(1)),
            f64::from(f32::MAX),
        ];
        let mut edges = vec![
            89.41f32, 89.42, 9.01, 8.66, 0.5, 1.0, 64.0, 128.0, 44.0, 20.0,
        ];
        edges.extend((-149..8).map(|k| 2f32.powi(k)));
        for edge in edges {
            let middle = edge.to_bits();
            for step in 0..64 {
                inputs.push(f64::from(f32::from_bits(middle.wrapping_add(step))));
                inputs.push(f64::from(f32::from_bits(middle.wrapping_sub(step))));
            }
        }
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let state = draws.next_bits();
            let x = f32::from_bits(state as u32);
            // Half of them below 16 in magnitude, where the values are neither x nor ±inf or 1.
            inputs.push(f64::from(if state & (1 << 40) == 0 { x } else { x % 16.0 }));
        }
        let negatives: Vec<f64> = inputs.iter().map(|x| -x).collect();
        inputs.extend(negatives);
        for (column, _, name) in columns() {
            let mut values = Vec::new();
            column(&inputs, &mut values);
            let mut decided = 0;
            for (x, value) in inputs.iter().zip(&values) {
                let correct = correctly_rounded_value(binding::mpfr(name), &[*x], FloatType::Float);
                assert_eq!(hyperbolic_is_nan(*x), correct.is_nan(), "{name:?}({x:e})");
                if value.is_nan() {
                    continue;
                }
                decided += 1;
                assert_eq!(value.to_bits(), correct.to_bits(), "{name:?}({x:e})");
            }
            assert!(decided > inputs.len() * 9 / 10, "{name:?}: {decided}");
        }
    }
}
