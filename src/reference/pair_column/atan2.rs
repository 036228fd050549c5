//! Float atan2 over columns of float pairs: `atan2(y, x)` correctly rounded to float, or NaN
//! where undecided (about one input in 2^22, and NaN arguments). `u` is 2^-53.
//!
//! **Octants.** With `a = min(|x|, |y|)` and `b = max(|x|, |y|)` (`a = |y|` where they are
//! equal), `q = a / b` lies in [0, 1] and `θ₀ = atan(q)` in [0, π/4]; `|atan2(y, x)|` is `θ₀`
//! (`|y| <= |x|`, `x` positive), `π − θ₀` (`|y| <= |x|`, `x` negative), `π/2 − θ₀` (`|y| > |x|`,
//! `x` positive) or `π/2 + θ₀` (`|y| > |x|`, `x` negative), "positive" read from the sign bit
//! (so that `x = −0` is negative), and the sign is `y`'s. `q` is the rounded quotient: within
//! `u` of `a/b`, relative, and since `t·atan'(t) <= atan(t)`, `atan(q)` lies within `u` of
//! `atan(a/b)`, relative. No quotient of floats underflows (`a/b >= 2^-277`).
//!
//! **atan(q)** by the addition formula: `k = round(16q)`, `c = k/16`, `z = (q − c)/(1 + q·c)`,
//! `atan(q) = atan(c) + atan(z)`, `|z| <= 1/32`; `atan(z) = z + z·z²·P(z²)`, P the Taylor
//! polynomial `−1/3 + z²/5 − z⁴/7 + z⁶/9`, whose truncation, `|z|^11/11` at most, is below
//! `2^-53.4·|z|`. `atan(c)` is a table of the 17 doubles nearest `atan(k/16)`.
//! - `k = 0`: `z = q` exactly; `z²·P(z²)` is below `2^-11.5` in magnitude and its evaluation
//!   errs by a few `u` of that; the final addition rounds once: `θ₀` lies within
//!   `u + 2^-53.4 + 2^-60 <= 2^-51.7` of `atan(q)`, relative.
//! - `k >= 1` (so `q >= 1/32`): `q − c` is exact (Sterbenz: `c/2 <= q <= 2c`), `1 + q·c`
//!   rounds twice and the division once: `z` within `3.01·u` of the exact quotient, and the
//!   polynomial's value within `3.01·u + 2·u + 2^-53.4 <= 5.8·u` of `atan(z)`, relative, so
//!   within `0.19·u` absolute (`|z| <= 1/32`); the table's entry errs by `u/2` and the sum
//!   (below 1) rounds by `u/2`: `1.19·u` absolute, and since `atan(q) >= atan(1/32) >= 2^-5.01`,
//!   within `38.2·u` relative.
//!
//! With `q`'s rounding, `θ₀` lies within `39.2·u <= 2^-47.7` of `atan(a/b)`, relative.
//!
//! **The quadrant.** `θ = base + s·θ₀`, `base` the double nearest 0, π/2 or π (errs by at most
//! `2·u`), `s = ±1`, rounded once (at most `2·u`, as `θ <= π`). Where `base = 0`, `θ = θ₀`;
//! elsewhere `θ >= π/4`, and its error, at most `2^-47.7·π/4 + 4·u`, is below `2^-47.5·θ`. So
//! `θ` lies within `2^-47.5` of `|atan2(y, x)|`, relative, and the rounding test
//! ([`crate::reference::exp_column::rounded`], half-width `2^-46`, whose ends rounded once more still lie outside
//! `θ·(1 ± 2^-46.1)`) keeps a float only where it is the correctly rounded one. Only
//! atan2's zeros are floats; its values at ±π/4, ±π/2, ±3π/4, ±π are not, nor midpoints.
//!
//! **Special values.** Zeros and infinities follow the octants: `q` is 0 where `a = 0` (both
//! zero: `atan2(±0, ±0)` is ±0 or ±π by `x`'s sign bit) or `b = ∞` with `a` finite (the axes:
//! ±π/2, ±0, ±π), and 1 where both are infinite (±π/4, ±3π/4); `k` is then 0 or 16 and
//! `z = 0`. A NaN argument gives NaN (undecided: the scalar tier gives the NaN).

use crate::reference::exp_column::{rounded, ROUNDING_SHIFT};

/// atan(k/16), k = 0 to 16, the doubles nearest; padded to 32 entries so that an index
/// masked to five bits needs no bounds check (NaN lanes index anything, and are NaN).
const ATAN: [f64; 32] = {
    let mut table = [0.0; 32];
    let bits: [u64; 17] = [
        0x0000_0000_0000_0000,
        0x3faf_f55b_b72c_fdea,
        0x3fbf_d5ba_9aac_2f6e,
        0x3fc7_b97b_4bce_5b02,
        0x3fcf_5b75_f92c_80dd,
        0x3fd3_6277_3707_ebcc,
        0x3fd6_f619_41e4_def1,
        0x3fda_64ee_c3cc_23fd,
        0x3fdd_ac67_0561_bb4f,
        0x3fe0_657e_94db_30d0,
        0x3fe1_e00b_abde_feb4,
        0x3fe3_45f0_1cce_37bb,
        0x3fe4_978f_a326_9ee1,
        0x3fe5_d589_8716_9b18,
        0x3fe7_00a7_c578_4634,
        0x3fe8_19d0_b715_8a4d,
        0x3fe9_21fb_5444_2d18,
    ];
    let mut k = 0;
    while k < 17 {
        table[k] = f64::from_bits(bits[k]);
        k += 1;
    }
    table
};

/// Taylor's coefficients of `(atan(z) − z)/z³` in `z²`: −1/3, 1/5, −1/7, 1/9, rounded.
const P: [f64; 4] = [
    -f64::from_bits(0x3fd5_5555_5555_5555),
    f64::from_bits(0x3fc9_9999_9999_999a),
    -f64::from_bits(0x3fc2_4924_9249_2492),
    f64::from_bits(0x3fbc_71c7_1c71_c71c),
];

/// The rounding test's half-width, relative (the lane errs by at most 2^-47.5).
const TEST_WIDTH: f64 = 1.0 / 70_368_744_177_664.0; // 2^-46

/// atan2 of every pair `(y[i], x[i])` of floats (atan2's order), correctly rounded to float,
/// NaN where undecided.
// The closure, not the function item, is what inlines the lane ([`super::column`]).
#[allow(clippy::redundant_closure)]
pub fn atan2f(y: &[f64], x: &[f64], out: &mut Vec<f64>) {
    super::column(
        y,
        x,
        out,
        #[inline(always)]
        |y, x| lane(y, x),
    );
}

/// `atan2(y, x)` correctly rounded to float, or NaN (the proof is in the module's comment).
/// Straight-line code with selects, so that the loop over a column vectorizes.
#[inline(always)]
fn lane(y: f64, x: f64) -> f64 {
    let (ay, ax) = (y.abs(), x.abs());
    let steep = ay > ax;
    let (a, b) = if steep { (ax, ay) } else { (ay, ax) };
    let q = if a == 0.0 {
        0.0
    } else if a == f64::INFINITY {
        1.0
    } else {
        a / b
    };
    let shifted = q * 16.0 + ROUNDING_SHIFT;
    let c = (shifted - ROUNDING_SHIFT) * 0.0625;
    let k = shifted.to_bits().wrapping_sub(ROUNDING_SHIFT.to_bits()) & 31;
    let z = (q - c) / (1.0 + q * c);
    let z2 = z * z;
    let p = ((P[3] * z2 + P[2]) * z2 + P[1]) * z2 + P[0];
    let theta0 = ATAN[k as usize] + (z + z * (z2 * p));
    let negative_x = x.is_sign_negative();
    let (base, sign) = match (steep, negative_x) {
        (false, false) => (0.0, 1.0),
        (false, true) => (std::f64::consts::PI, -1.0),
        (true, false) => (std::f64::consts::FRAC_PI_2, -1.0),
        (true, true) => (std::f64::consts::FRAC_PI_2, 1.0),
    };
    let value = rounded(base + sign * theta0, TEST_WIDTH).copysign(y);
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::super::checks;
    use crate::num::fp::FloatType;
    use crate::reference::fast;
    use crate::spec::reference_id::ReferenceId;

    /// Every 31st block of each argument's floats against a set of the other (all of them
    /// with `CLACC_EVERY_FLOAT=1`), and random pairs: the column is CORE-MATH's wherever it
    /// decides.
    #[test]
    fn atan2_is_core_maths() {
        checks::sweep_against_scalar(super::atan2f, fast::atan2f, "atan2");
    }

    /// Special values (every pair of zeros, infinities, NaN, the octants' edges) against
    /// MPFR, and the quadrants' signs.
    #[test]
    fn atan2_agrees_with_mpfr() {
        let pairs = checks::special_pairs();
        let decided =
            checks::agree_with_mpfr(super::atan2f, ReferenceId::Atan2, FloatType::Float, &pairs);
        assert!(decided > pairs.len() / 2, "{decided} of {}", pairs.len());
        // The quadrants' zeros and infinities, signs included, as CORE-MATH gives them.
        let inf = f64::INFINITY;
        let y = [0.0, -0.0, 0.0, -0.0, inf, -inf, 1.0];
        let x = [0.0, 0.0, -0.0, -0.0, -inf, inf, f64::NAN];
        let mut values = Vec::new();
        super::atan2f(&y, &x, &mut values);
        for k in 0..6 {
            let expected = fast::atan2f(&[y[k], x[k]]);
            assert_eq!(values[k].to_bits(), expected.to_bits(), "{k}");
        }
        assert!(values[6].is_nan());
    }
}
