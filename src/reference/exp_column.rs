//! Float exp, exp2 and exp10 over a whole column of float inputs, many lanes at a time: the
//! correctly rounded float where a rounding test proves it, NaN where the lane leaves the value
//! undecided (the scalar tier, CORE-MATH's, decides those: about one input in a million, and
//! NaN).
//!
//! **Past the range.** An `x` beyond `±LIMIT` (infinities included) is taken as `±LIMIT`: `b^x`
//! is increasing, and `b^LIMIT` rounds to +∞ and `b^-LIMIT` to +0 (both are past the float
//! overflow threshold, `2^128·(1 - 2^-25)`, and below the underflow one, `2^-150`), so every
//! `x` past them rounds alike and the lane's value at `±LIMIT` is the correctly rounded float
//! there too. A NaN stays NaN (`f64::clamp`), and so does its lane's value.
//!
//! **The lane.** `b^x = e^t` with `t = x·ln b` (`ln b` = 1, ln 2, ln 10). `C = ln b` is split
//! into a head `C_HI` of at most 29 significant bits and a tail `C_LO` (the double nearest
//! `C - C_HI`), so `t_hi = x·C_HI` is exact (24 + 29 bits) and `t_lo = x·C_LO` is rounded once.
//! `k = round(t_hi / ln 2)` by adding and subtracting 1.5·2^52 (`t_hi·(1/ln 2)` is rounded once,
//! so `|t_hi - k·ln 2| <= ln 2·(1/2 + 2^-40)`); `ln 2` is split likewise into `LN2_HI` (29 bits:
//! `k·LN2_HI` is exact for `|k| <= 2^24`) and `LN2_LO`. Then
//! `r = ((t_hi - k·LN2_HI) + t_lo) - k·LN2_LO`, and `b^x = 2^k·e^r`, where `2^k` is exact and
//! `e^r` is the Taylor polynomial of degree 12 evaluated by Horner's rule.
//!
//! **The error.** With `u = 2^-53` and the lanes' ranges (`|x| <= LIMIT`, so `|k| <= 185` and
//! `|t_lo| <= 2^-21`), every intermediate of the reduction is at most 0.35 in magnitude, so:
//! - the three roundings of `r`'s sum each err by at most `0.35·u`, `t_lo`'s and `k·LN2_LO`'s
//!   roundings by at most `2^-74`, and the splits' own errors (`|C - C_HI - C_LO| <= u·|C_LO|`,
//!   times `|x| <= 160`; the same for ln 2, times `|k|`) by at most `2^-73`: `r` differs from
//!   the exact `t - k·ln 2` by `δ <= 1.06·u`, and `e^δ - 1 <= 2^-52.8`;
//! - `|r| <= 0.35`; the polynomial's truncation is at most `0.35^13/13!·1.01 / e^-0.35 <=
//!   2^-51.7` of `e^r`; its coefficients (1/n! rounded to nearest) err by at most
//!   `u·Σ|r|^n/n! <= u·e^0.35`, `2^-52` of `e^r` at most; Horner's rule in double, 12 steps
//!   of a multiplication and an addition, errs by at most `γ_24·Σ|c_n||r|^n <= 24.01·u·e^0.35`,
//!   `24.01·u·e^0.35/e^-0.35 <= 2^-47.4` of `e^r`;
//! - the product with `2^k` is exact (no double overflows or underflows for `|k| <= 185`).
//!
//! So the lane's value `y` lies within `2^-47.2` of `b^x`, relative. The rounding test takes
//! `y ± y·2^-45` (each end rounded once more: still outside `y·(1 ± 2^-46.9)`) and keeps the
//! float nearest `y` only where both ends round to the same float. Rounding to float (the
//! conversion from double, to nearest even, overflowing to infinity, into the subnormals as
//! well) is monotonic, so the exact value, which lies between the ends, rounds to that float
//! too: the lane's value is the correctly rounded float, or NaN. (A midpoint between two
//! floats inside the interval makes its ends round apart, so a tie is never kept.)
//! `every_float_is_core_maths` checks the columns against CORE-MATH on every 31st block of
//! floats (on every float with `CLACC_EVERY_FLOAT=1`), and `exponentials_agree_with_mpfr` a
//! sample of them against MPFR.

use crate::num::wide::map_widest;

/// `b^x = e^(x·C)` for one base `b`: `C`'s head and tail, and the largest `|x|` the lanes take.
#[derive(Clone, Copy)]
struct Base {
    /// `C` to at most 29 significant bits.
    high: f64,
    /// The double nearest `C - high`.
    low: f64,
    /// Beyond it the value overflows, or underflows to +0.
    limit: f64,
}

/// e: exp overflows past 88.8 and underflows below -104.
const E: Base = Base {
    high: 1.0,
    low: 0.0,
    limit: 128.0,
};

/// 2: exp2 overflows past 128 and underflows below -150.
const TWO: Base = Base {
    high: LN2_HI,
    low: LN2_LO,
    limit: 160.0,
};

/// 10: exp10 overflows past 38.6 and underflows below -45.2.
const TEN: Base = Base {
    high: f64::from_bits(0x4002_6bb1_bc00_0000),
    low: -f64::from_bits(0x3e22_aaba_9f48_ad49),
    limit: 48.0,
};

/// ln 2 to 29 significant bits, and the double nearest the rest.
pub(crate) const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_ff00_0000);
pub(crate) const LN2_LO: f64 = -f64::from_bits(0x3dc7_1843_2a1b_0e26);

/// 1/ln 2, rounded to nearest.
pub(crate) const INVERSE_LN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);

/// Added and subtracted, rounds to an integer (1.5·2^52).
pub(crate) const ROUNDING_SHIFT: f64 = 6_755_399_441_055_744.0;

/// 1/n! rounded to nearest, n = 0 to 12.
pub(crate) const TAYLOR: [f64; 13] = [
    1.0,
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
];

/// The rounding test's half-width, relative (the lane errs by at most 2^-47.2).
const TEST_WIDTH: f64 = 1.0 / 35_184_372_088_832.0; // 2^-45

// Each column names its base in the lane's closure: a base passed in (as a function's
// argument, captured by the closure) reached the widest vectors' copy through a pointer, as a
// value the compiler did not know, so the range check of `f64::clamp` stayed in the loop and
// kept it from vectorizing (a call per input, then one double at a time: 8% of an exp sweep's
// samples).

/// exp of every float of `inputs`, correctly rounded to float, NaN where undecided.
pub fn expf(inputs: &[f64], out: &mut Vec<f64>) {
    map_widest(
        inputs,
        out,
        #[inline(always)]
        |x| lane(E, x),
    );
}

/// exp2 likewise.
pub fn exp2f(inputs: &[f64], out: &mut Vec<f64>) {
    map_widest(
        inputs,
        out,
        #[inline(always)]
        |x| lane(TWO, x),
    );
}

/// exp10 likewise.
pub fn exp10f(inputs: &[f64], out: &mut Vec<f64>) {
    map_widest(
        inputs,
        out,
        #[inline(always)]
        |x| lane(TEN, x),
    );
}

/// `b^x` correctly rounded to float, or NaN (the proof is in the module's comment). Straight
/// line code with selects, so that the loop over a column vectorizes.
#[inline(always)]
fn lane(base: Base, x: f64) -> f64 {
    // Past the range the value overflows (or underflows to +0) as it does at the range's end.
    rounded(power(base, x.clamp(-base.limit, base.limit)), TEST_WIDTH)
}

/// `e^x` within `2^-47.2` of it, relative, for a float `x` in `[-128, 128]` (the module's
/// proof, before the rounding test): the hyperbolic columns' part.
#[inline(always)]
pub(crate) fn exp_near(x: f64) -> f64 {
    power(E, x)
}

/// `b^x` before the rounding test, for `|x| <= base.limit` (the module's proof).
#[inline(always)]
fn power(base: Base, x: f64) -> f64 {
    let t_high = x * base.high;
    let t_low = x * base.low;
    let shifted = t_high * INVERSE_LN2 + ROUNDING_SHIFT;
    let k = shifted - ROUNDING_SHIFT;
    // `shifted` lies in [2^52, 2^53), where its bits count units: they are k's above the
    // shift's.
    let k_bits = shifted
        .to_bits()
        .wrapping_sub(ROUNDING_SHIFT.to_bits())
        .wrapping_add(1023);
    let scale = f64::from_bits(k_bits << 52);
    let r = ((t_high - k * LN2_HI) + t_low) - k * LN2_LO;
    let mut p = TAYLOR[12];
    for c in TAYLOR[..12].iter().rev() {
        p = p * r + c;
    }
    p * scale
}

/// The float nearest `value` where every real within `value·(1 ± width)` rounds to it (so
/// the exact value, which lies there, does too), else NaN. `width` must exceed the lane's
/// relative error by a margin for the two roundings of the ends (each at most 2^-53
/// relative). Rounding a double to float (to nearest even, overflowing to infinity, into the
/// subnormals) is monotonic, so the ends rounding alike is enough; a float midpoint inside
/// the interval makes them round apart, so a tie is never kept; an exact float `value` is
/// kept.
#[inline(always)]
pub(crate) fn rounded(value: f64, width: f64) -> f64 {
    let margin = value * width;
    let below = (value - margin) as f32;
    let above = (value + margin) as f32;
    if below == above {
        f64::from(below)
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::column_checks::{every_float_matches, Column};
    use crate::reference::{binding, correctly_rounded_value, fast, FastFn};
    use crate::spec::reference_id::ReferenceId;

    /// Each column, its scalar tier and its MPFR reference.
    fn columns() -> [(Column, FastFn, ReferenceId); 3] {
        [
            (expf, fast::expf, ReferenceId::Exp),
            (exp2f, fast::exp2f, ReferenceId::Exp2),
            (exp10f, fast::exp10f, ReferenceId::Exp10),
        ]
    }

    /// Floats as the sweep gives them: the columns' values are CORE-MATH's wherever they
    /// decide ([`every_float_matches`]; run on all 2^32 floats for #46: none differed).
    #[test]
    fn every_float_is_core_maths() {
        for (column, scalar, name) in columns() {
            every_float_matches(column, scalar, &format!("{name:?}"));
        }
    }

    /// Special values and the inputs next to the ranges' ends, overflow and underflow
    /// thresholds, and a random sample, against MPFR itself (not only CORE-MATH).
    #[test]
    fn exponentials_agree_with_mpfr() {
        let mut inputs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::MAX),
            f64::from(f32::MIN),
        ];
        for edge in [
            88.72, 88.73, -87.33, -103.97, -103.98, 128.0, -126.0, -149.0, -150.0, -151.0, 38.53,
            38.54, -37.93, -44.85, -45.15, -45.16, 10.0, 3.0, 48.0, 160.0, 128.0,
        ] {
            let middle = (edge as f32).to_bits();
            for sign in [1.0f32, -1.0] {
                for step in 0..64 {
                    let bits = (f32::from_bits(middle) * sign).to_bits();
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_add(step))));
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_sub(step))));
                }
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f32::from_bits(state as u32);
            // Half of them below 64 in magnitude, mostly inside the lanes' ranges.
            inputs.push(f64::from(if state & (1 << 40) == 0 { x } else { x % 64.0 }));
        }
        for (column, _, name) in columns() {
            let mut values = Vec::new();
            column(&inputs, &mut values);
            let mut decided = 0;
            for (x, value) in inputs.iter().zip(&values) {
                if value.is_nan() {
                    continue;
                }
                decided += 1;
                let correct = correctly_rounded_value(binding::mpfr(name), &[*x], FloatType::Float);
                assert_eq!(value.to_bits(), correct.to_bits(), "{name:?}({x:e})");
            }
            assert!(decided > inputs.len() / 2, "{name:?}: {decided}");
        }
    }
}
