//! Float expm1 over a whole column of float inputs, many lanes at a time: the correctly rounded
//! float where a rounding test proves it, NaN where the lane leaves the value undecided (the
//! scalar tier, CORE-MATH's, decides those: 180 of the 2^32 floats, and NaN).
//!
//! **Past the range.** An `x` beyond `±LIMIT` (infinities included) is taken as `±LIMIT`:
//! `e^x - 1` is increasing, `e^128 - 1` rounds to +∞ and `e^-128 - 1` to -1 (it is within
//! `2^-184` of -1, far inside -1's rounding interval), so every `x` past them rounds alike. A NaN
//! stays NaN (`f64::clamp`), and so does its lane's value.
//!
//! **The lane.** `k = round(x/ln 2)` by adding and subtracting 1.5·2^52 to `x·(1/ln 2)` (rounded
//! once, so `|x - k·ln 2| <= ln 2·(1/2 + 2^-44)` for `|x| <= 128`); `ln 2` is split into
//! `LN2_HI` (29 bits: `k·LN2_HI` is exact for `|k| <= 185`) and `LN2_LO`, and
//! `r = (x - k·LN2_HI) - k·LN2_LO`. Then `e^x - 1 = 2^k·(e^r - 1) + (2^k - 1)`, with
//! `e^r - 1 = r·Q(r)`, `Q(r) = Σ r^n/(n + 1)!` to `n = 12` by Horner's rule: there is no
//! cancellation inside `e^r - 1`, so near 0 (`k = 0`, where `r = x` exactly and the sum is
//! `r·Q(r) + 0`) the value keeps its relative accuracy, where `e^x` rounded and then less 1
//! would lose it. `x = ±0` gives `x` itself (the lane's sums would give +0 for -0).
//!
//! **The error.** With `u = 2^-53`, `|r| <= 0.347` and `Q(r) >= Q(-0.347) > 0.845`:
//! - `r`: the two subtractions round by at most `0.35u` each, `k·LN2_LO`'s product and the
//!   split's own error (`|ln 2 - LN2_HI - LN2_LO| <= 2^-83`) by under `2^-70`, so `r` differs
//!   from `x - k·ln 2` by at most `0.71u` (and not at all where `k = 0`); that moves `e^x - 1`
//!   by at most `0.72u·e^x`, at most `2.47u` of `|e^x - 1|` where `k != 0` (there
//!   `|x| >= 0.3465`, and `e^x/|e^x - 1| <= 3.42`);
//! - `Q`: the tail past `n = 12` is at most `0.347^13/14!·1.03 <= 2^-56.2`, `0.14u` of `Q(r)`;
//!   the rounded coefficients err by at most `u·Q(|r|) <= 1.2u` (`1.42u` of `Q(r)`), Horner's
//!   12 steps by `γ_24·Q(|r|)`, at most `34u` of `Q(r)`; with `r·Q`'s rounding, the lane's
//!   `e^r - 1` lies within `ε = 36.6u` of it, relative;
//! - the sum: `2^k·(e^r - 1)` is exact (a power of two, no double overflows or underflows for
//!   `|k| <= 185`), and at most `1.42` times `|e^x - 1|` (the worst case is `k = 1`,
//!   `r = -0.347`); `2^k - 1` is exact for `|k| <= 53` and rounded once (`u` of about
//!   `|e^x - 1|`) beyond; the sum rounds once (`u`).
//!
//! So the lane's value `y` lies within `36.6u` (`k = 0`) or `1.42·36.6u + 2.47u + 2.01u <= 57u`
//! of `e^x - 1`, relative: under `2^-47.1`. The rounding test takes `y ± y·2^-46` (each end
//! rounded once more: still outside `y·(1 ± 125u)`) and keeps the float nearest `y` only where
//! both ends round to the same float; rounding to float is monotonic, so the exact value, which
//! lies between the ends, rounds to that float too. `e^x - 1` is transcendental at every float
//! but 0, so no exact value is a float or a midpoint. `every_float_is_core_maths` checks the
//! column against CORE-MATH on every 31st block of floats (on every float with
//! `CLACC_EVERY_FLOAT=1`), and `expm1_agrees_with_mpfr` specials, edges and a sample against
//! MPFR.

use crate::reference::exp_column::{rounded, INVERSE_LN2, LN2_HI, LN2_LO, ROUNDING_SHIFT};

/// Past it `e^x - 1` overflows; below its negative, it rounds to -1.
const LIMIT: f64 = 128.0;

/// 1/(n + 1)! rounded to nearest, n = 0 to 12: `Q`'s coefficients.
const TAYLOR: [f64; 13] = [
    1.0,
    0.5,
    f64::from_bits(0x3fc5_5555_5555_5555),
    f64::from_bits(0x3fa5_5555_5555_5555),
    f64::from_bits(0x3f81_1111_1111_1111),
    f64::from_bits(0x3f56_c16c_16c1_6c17),
    f64::from_bits(0x3f2a_01a0_1a01_a01a),
    f64::from_bits(0x3efa_01a0_1a01_a01a),
    f64::from_bits(0x3ec7_1de3_a556_c734),
    f64::from_bits(0x3e92_7e4f_b778_9f5c),
    f64::from_bits(0x3e5a_e645_67f5_44e4),
    f64::from_bits(0x3e21_eed8_eff8_d898),
    f64::from_bits(0x3de6_1246_13a8_6d09),
];

/// The rounding test's half-width, relative (the lane errs by at most 2^-47.1).
const TEST_WIDTH: f64 = 1.0 / 70_368_744_177_664.0; // 2^-46

/// expm1 of every float of `inputs`, correctly rounded to float, NaN where undecided.
pub fn expm1f(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, lane);
}

/// `e^x - 1` correctly rounded to float, or NaN (the proof is in the module's comment).
/// Straight line code with selects, so that the loop over a column vectorizes.
#[inline(always)]
fn lane(x: f64) -> f64 {
    let y = expm1_near(x.clamp(-LIMIT, LIMIT));
    if x == 0.0 {
        x
    } else {
        rounded(y, TEST_WIDTH)
    }
}

/// `e^x - 1` within `57u` (`u = 2^-53`) of it, relative, for a float `x` in `[-128, 128]`
/// (the module's proof, before the rounding test; +0 at ±0): the hyperbolic columns' part.
#[inline(always)]
pub(crate) fn expm1_near(clamped: f64) -> f64 {
    let shifted = clamped * INVERSE_LN2 + ROUNDING_SHIFT;
    let k = shifted - ROUNDING_SHIFT;
    // `shifted` lies in [2^52, 2^53), where its bits count units: they are k's above the
    // shift's.
    let k_bits = shifted
        .to_bits()
        .wrapping_sub(ROUNDING_SHIFT.to_bits())
        .wrapping_add(1023);
    let scale = f64::from_bits(k_bits << 52);
    let r = (clamped - k * LN2_HI) - k * LN2_LO;
    let mut q = TAYLOR[12];
    for c in TAYLOR[..12].iter().rev() {
        q = q * r + c;
    }
    scale * (r * q) + (scale - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::column_checks::every_float_matches;
    use crate::reference::{binding, correctly_rounded_value, fast};
    use crate::spec::reference_id::ReferenceId;
    use rug::float::Constant;
    use rug::Float;

    /// The constants are what their comments say, from MPFR.
    #[test]
    fn constants_are_right() {
        let ln2 = Float::with_val(256, Constant::Log2);
        assert_eq!(LN2_HI, Float::with_val(29, &ln2).to_f64());
        assert_eq!(LN2_LO, Float::with_val(256, &ln2 - LN2_HI).to_f64());
        assert_eq!(INVERSE_LN2, Float::with_val(256, ln2.recip_ref()).to_f64());
        let mut factorial = Float::with_val(256, 1);
        for (n, c) in TAYLOR.iter().enumerate() {
            factorial *= n as u32 + 1;
            assert_eq!(
                *c,
                Float::with_val(256, factorial.recip_ref()).to_f64(),
                "1/{}!",
                n + 1
            );
        }
    }

    /// Floats as the sweep gives them: the column's values are CORE-MATH's wherever it
    /// decides ([`every_float_matches`]; run on all 2^32 floats for #46: none differed, 36 s
    /// of CPU in release, 180 left undecided besides the NaNs).
    #[test]
    fn every_float_is_core_maths() {
        every_float_matches(expm1f, fast::expm1f, "Expm1");
    }

    /// Special values and the inputs next to 0, ±ln 2/2 (where `k` leaves 0), the overflow
    /// threshold, the range's ends and where the value reaches -1, and a random sample, against
    /// MPFR itself (not only CORE-MATH).
    #[test]
    fn expm1_agrees_with_mpfr() {
        let mut inputs = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::MAX),
            f64::from(f32::MIN),
            f64::from(f32::from_bits(1)),
            -f64::from(f32::from_bits(1)),
        ];
        let half_ln2 = std::f32::consts::LN_2 / 2.0;
        for edge in [
            1e-30f32, 2e-8, 1e-4, 0.25, half_ln2, 1.0, 88.72, 88.73, 17.0, 17.33, 18.0, 128.0, 1e10,
        ] {
            let middle = edge.to_bits();
            for sign in [1.0f32, -1.0] {
                for step in 0..64 {
                    let bits = (f32::from_bits(middle) * sign).to_bits();
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_add(step))));
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_sub(step))));
                }
            }
        }
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let state = draws.next_bits();
            let x = f32::from_bits(state as u32);
            // Half of them below 1 in magnitude, where k = 0 and its neighbours take them.
            inputs.push(f64::from(if state & (1 << 40) == 0 { x } else { x % 1.0 }));
        }
        let mut values = Vec::new();
        expm1f(&inputs, &mut values);
        let mut decided = 0;
        for (x, value) in inputs.iter().zip(&values) {
            if value.is_nan() {
                continue;
            }
            decided += 1;
            let reference = binding::mpfr(ReferenceId::Expm1);
            let correct = correctly_rounded_value(reference, &[*x], FloatType::Float);
            assert_eq!(value.to_bits(), correct.to_bits(), "expm1({x:e})");
        }
        assert!(decided > inputs.len() / 2, "{decided}");
    }
}
