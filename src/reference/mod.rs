//! Exact references through MPFR (`rug`, raw `gmp-mpfr-sys` where `rug` lacks a function).
//!
//! Every reference is one function `fn(&mut Float, &[Float]) -> Ordering` that writes the
//! result rounded to nearest at the output's precision and returns MPFR's ternary value. Two
//! evaluations are built on it:
//! - [`correctly_rounded`]: the result rounded once to the target format, with that format's
//!   exponent range, overflow and subnormals emulated — the value a correctly rounded device
//!   returns and what "0 ulp" functions must return;
//! - [`high_precision`]: the result at [`working_precision`], well above the target's, as the
//!   "infinitely precise result" the ULP error is measured against.

use crate::num::fp::FloatType;

pub mod binding;
pub mod column;
#[cfg(test)]
mod column_checks;
mod common;
pub mod exact;
pub mod exp_column;
pub mod expm1_column;
pub mod fma_column;
pub mod hyperbolic_column;
pub mod log_column;
pub mod pair_column;
pub mod past_double;
pub mod remquo_column;
pub use common::{degrees, fclamp, mix, radians, sign, smoothstep, step};
mod geometric;
pub mod side;
pub mod sum_of_doubles;
pub use geometric::{
    cross_0, cross_1, cross_2, cross_3, distance, dot, length, normalize_0, normalize_1,
    normalize_2, normalize_3,
};
use gmp_mpfr_sys::mpfr;
use rug::float::Round;
use rug::ops::AssignRound;
use rug::Float;
use std::cmp::Ordering;

/// A reference implementation: writes f(args) rounded to nearest at `out`'s precision and
/// returns the rounding direction (MPFR's ternary value).
pub type ReferenceFn = fn(&mut Float, &[Float]) -> Ordering;

/// A fast reference: the function correctly rounded to double (CORE-MATH). For half and float
/// inputs its error, at most half a double ulp, is below 2^-29 ulp of the result's format, far
/// under anything the tables distinguish; MPFR confirms every failure and worst case.
pub type FastFn = fn(&[f64]) -> f64;

/// How far a [`binding::DoubleTier::Near`] approximation may lie from the exact value,
/// relative: 2^-51, which for a float result is under 2^-27 ulp.
pub const NEAR_ERROR: f64 = 2.0 * f64::EPSILON;

/// The CORE-MATH functions behind [`FastFn`]s, one per reference that has one.
pub mod fast {
    macro_rules! one {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("`", stringify!($name), "(x)` correctly rounded to double.")]
            pub fn $name(args: &[f64]) -> f64 {
                core_math::$name(args[0])
            }
        )*};
    }
    macro_rules! two {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("`", stringify!($name), "(x, y)` correctly rounded to double.")]
            pub fn $name(args: &[f64]) -> f64 {
                core_math::$name(args[0], args[1])
            }
        )*};
    }
    one!(
        acos, acosh, acospi, asin, asinh, asinpi, atan, atanh, atanpi, cbrt, cos, cosh, cospi, erf,
        erfc, exp, exp2, exp10, expm1, lgamma, log, log2, log10, log1p, rsqrt, sin, sinh, sinpi,
        tan, tanh, tanpi, tgamma
    );
    two!(atan2pi, hypot);

    /// `pow(x, y)` correctly rounded to double: [`pow_tiny_exponent`] where 0 < |y| < 2^-969,
    /// CORE-MATH elsewhere.
    pub fn pow(args: &[f64]) -> f64 {
        let (x, y) = (args[0], args[1]);
        pow_tiny_exponent(x, y).unwrap_or_else(|| core_math::pow(x, y))
    }

    /// `pow(x, y)` correctly rounded to double where x is finite and nonzero and
    /// 0 < |y| < 2^-969; `None` elsewhere. CORE-MATH's first phase declines every such y (its
    /// product y·log x could underflow) and its two multiple-precision phases cost about 70
    /// times the first (1,862 against 24 to 73 cycles a call here). A random sweep draws such
    /// a y for one double pair in sixteen (54 of the 2,048 exponents of a uniform bit pattern,
    /// about a tenth of the log-uniform draws of pow's y range), and they were a sixth of
    /// double pow's host samples.
    ///
    /// Such a y is no integer (0 < |y| < 1), so for x < 0 there is no real power: NaN (C99
    /// F.9.4.4, as CORE-MATH and MPFR give it). For x > 0, x^y = e^t with t = y·ln x, and
    /// |ln x| <= 1075·ln 2 < 745 for every positive double (2^-1074 <= x < 2^1024), so
    /// |t| < 745·2^-969 < 2^-959 and |e^t − 1| <= |t|·e^|t| < 2^-958. The doubles beside 1
    /// are 1 − 2^-53 and 1 + 2^-52, and the midpoints toward them 2^-54 and 2^-53 away, far
    /// beyond 2^-958: e^t rounds to 1.
    pub fn pow_tiny_exponent(x: f64, y: f64) -> Option<f64> {
        let tiny = y != 0.0 && y.abs() < 2f64.powi(-969);
        if !tiny || !x.is_finite() || x == 0.0 {
            return None;
        }
        Some(if x < 0.0 { f64::NAN } else { 1.0 })
    }

    /// `atan2(y, x)` correctly rounded to double: [`atan2_far`] where one argument dwarfs
    /// the other, CORE-MATH elsewhere. CORE-MATH takes its multiple-precision path wherever
    /// the exponents differ by 53 or more, which is more than half of all pairs of random
    /// floats: relaxed atan2 spent a fifth of its time there.
    pub fn atan2(args: &[f64]) -> f64 {
        let (y, x) = (args[0], args[1]);
        atan2_far(y, x).unwrap_or_else(|| core_math::atan2(y, x))
    }

    /// `atan2(y, x)` correctly rounded to double where |y| and |x| lie in [2^-400, 2^400]
    /// and the smaller is below 2^-26 times the larger (all such pairs of floats); `None`
    /// elsewhere, or where the rounding test below fails (about once in 2^47 inputs).
    ///
    /// With a = min(|x|, |y|), b = max(|x|, |y|) and q = a / b, the value is ±atan(q)
    /// (|y| < |x|, x > 0), ±(π − atan(q)) (|y| < |x|, x < 0) or ±(π/2 ∓ atan(q)) (|y| >=
    /// |x|), signed as y. q is held as t + l: t = a / b rounded, and l = (a − t·b) / b, where
    /// the fma gives a − t·b exactly (a division's remainder is a double, and none underflows
    /// in this range), so l errs by at most 2^-53·|l| <= 2^-106·t. atan(q) = q − q^3/3 + r
    /// with 0 <= r <= q^5/5 <= 2^-106·t (t^4 < 2^-104), and q^3 = t^3·(1 + l/t)^3 differs
    /// from t^3 by at most 2^-105·t; with the roundings of t³/3 and of the subtraction, t +
    /// (l − t³/3) lies within 2^-102·t of atan(q) (t^3 underflows only where t^3 < 2^-1022,
    /// far below 2^-102·t for t >= 2^-800). π and π/2 are double-double values within 2^-106
    /// of the constants; C − σt is split exactly (two-sum) and the low parts add with
    /// roundings below 2^-104. So the value lies within `error` of hi + lo, and where
    /// hi + (lo − error) and hi + (lo + error) round to the same double (the roundings of
    /// lo ± error stay below the 2^2 margin in `error`), that double is the correctly
    /// rounded value: rounding to nearest is monotonic.
    pub fn atan2_far(y: f64, x: f64) -> Option<f64> {
        const PI: (f64, f64) = (
            std::f64::consts::PI,
            1.2246467991473532e-16, // π − PI.0, rounded
        );
        const HALF_PI: (f64, f64) = (std::f64::consts::FRAC_PI_2, 6.123233995736766e-17);
        let in_range = |v: f64| (2f64.powi(-400)..=2f64.powi(400)).contains(&v.abs());
        if !in_range(y) || !in_range(x) {
            return None;
        }
        let (a, b) = if y.abs() < x.abs() {
            (y.abs(), x.abs())
        } else {
            (x.abs(), y.abs())
        };
        let t = a / b;
        if t >= 2f64.powi(-26) {
            return None;
        }
        let l = (-t).mul_add(b, a) / b;
        let atan_low = l - t * t * t / 3.0;
        let (hi, lo, error) = if y.abs() < x.abs() && x > 0.0 {
            (t, atan_low, 2f64.powi(-100) * t)
        } else {
            // |value| = C − σ·atan(q).
            let (constant, sigma) = if y.abs() < x.abs() {
                (PI, 1.0)
            } else {
                (HALF_PI, x.signum())
            };
            let hi = constant.0 - sigma * t;
            // Exact: |constant.0| > |t| (fast two-sum).
            let split = (constant.0 - hi) - sigma * t;
            (hi, split + (constant.1 - sigma * atan_low), 2f64.powi(-100))
        };
        let below = hi + (lo - error);
        let above = hi + (lo + error);
        (below == above).then(|| below.copysign(y))
    }

    macro_rules! float_one {
        ($($float:ident),* $(,)?) => {$(
            #[doc = concat!("`", stringify!($float), "(x)` correctly rounded to float.")]
            pub fn $float(args: &[f64]) -> f64 {
                f64::from(core_math::$float(args[0] as f32))
            }
        )*};
    }
    macro_rules! float_two {
        ($($float:ident),* $(,)?) => {$(
            #[doc = concat!("`", stringify!($float), "(x, y)` correctly rounded to float.")]
            pub fn $float(args: &[f64]) -> f64 {
                f64::from(core_math::$float(args[0] as f32, args[1] as f32))
            }
        )*};
    }
    float_one!(
        acosf, acoshf, acospif, asinf, asinhf, asinpif, atanf, atanhf, atanpif, cbrtf, cosf, coshf,
        cospif, erff, erfcf, expf, exp2f, exp10f, expm1f, lgammaf, logf, log2f, log10f, log1pf,
        rsqrtf, sinf, sinhf, sinpif, tanf, tanhf, tanpif, tgammaf,
    );
    float_two!(atan2f, hypotf, powf);

    /// `atan2pi(y, x)` correctly rounded to float, from CORE-MATH's double: rounded once more
    /// to float it is the correctly rounded float unless it is a float midpoint
    /// ([`super::is_midpoint`]), where CORE-MATH's float function decides. The double costs a
    /// third of the float function here (34 against 94 ns an input, which for atan2pi float
    /// was the largest part of judging).
    pub fn atan2pif(args: &[f64]) -> f64 {
        let double = core_math::atan2pi(args[0], args[1]);
        if super::is_midpoint(double, crate::num::fp::FloatType::Float) {
            f64::from(core_math::atan2pif(args[0] as f32, args[1] as f32))
        } else {
            crate::num::fp::FloatType::Float.round(double)
        }
    }

    // The basic operations, correctly rounded to double by the host's IEEE 754 binary64
    // arithmetic (Rust's `+ - * /`, `sqrt` and `mul_add` are the IEEE operations, each rounded
    // once to nearest even). For double operands that is the correctly rounded result itself;
    // for float and half operands (exact in double) it is the exact result rounded once to
    // double, which is all a fast reference must be.

    /// `x + y` correctly rounded to double.
    pub fn add(args: &[f64]) -> f64 {
        args[0] + args[1]
    }

    /// `x - y` correctly rounded to double.
    pub fn sub(args: &[f64]) -> f64 {
        args[0] - args[1]
    }

    /// `x * y` correctly rounded to double.
    pub fn mul(args: &[f64]) -> f64 {
        args[0] * args[1]
    }

    /// `x / y` correctly rounded to double.
    pub fn div(args: &[f64]) -> f64 {
        args[0] / args[1]
    }

    /// `sqrt(x)` correctly rounded to double.
    pub fn sqrt(args: &[f64]) -> f64 {
        args[0].sqrt()
    }

    /// `1 / x` correctly rounded to double.
    pub fn recip(args: &[f64]) -> f64 {
        1.0 / args[0]
    }

    /// `powr(x, y)` correctly rounded to double.
    pub fn powr(args: &[f64]) -> f64 {
        powr_with(args, |x, y| pow(&[x, y]))
    }

    /// `powr(x, y)` correctly rounded to float.
    pub fn powrf(args: &[f64]) -> f64 {
        powr_with(args, |x, y| f64::from(core_math::powf(x as f32, y as f32)))
    }

    /// powr is exp(y·log x): pow's value where x is positive, finite and not 1, and IEEE
    /// 754's powr special values elsewhere (`mpfr_powr` follows them): NaN for a NaN operand or
    /// x < 0, for powr(±0, ±0), powr(+inf, ±0) and powr(1, ±inf); powr(±0, y) is +inf for
    /// y < 0 and +0 for y > 0; powr(+inf, y) is +0 for y < 0 and +inf for y > 0; powr(1, y)
    /// is 1 for finite y.
    fn powr_with(args: &[f64], pow: impl Fn(f64, f64) -> f64) -> f64 {
        let (x, y) = (args[0], args[1]);
        if x.is_nan() || y.is_nan() || x < 0.0 {
            f64::NAN
        } else if x == 0.0 || x == f64::INFINITY {
            match (y == 0.0, (y < 0.0) == (x == 0.0)) {
                (true, _) => f64::NAN,
                (false, true) => f64::INFINITY,
                (false, false) => 0.0,
            }
        } else if x == 1.0 {
            if y.is_infinite() {
                f64::NAN
            } else {
                1.0
            }
        } else {
            pow(x, y)
        }
    }

    /// `pown(x, n)` correctly rounded to double: CORE-MATH's pow at y = n (an integer `int`,
    /// exact in double), whose special values are pown's (pown(x, 0) = 1 for every x, NaN
    /// included; C's pow gives the same).
    pub fn pown(args: &[f64]) -> f64 {
        core_math::pow(args[0], args[1])
    }

    /// `fdim(x, y)` correctly rounded to double: x − y rounded once where x > y, +0 where
    /// x <= y, NaN for a NaN operand.
    pub fn fdim(args: &[f64]) -> f64 {
        let (x, y) = (args[0], args[1]);
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            x - y
        } else {
            0.0
        }
    }

    /// `x * y + z` rounded once to double (IEEE fusedMultiplyAdd; libm's `fma` where the CPU
    /// has no instruction for it).
    pub fn fma(args: &[f64]) -> f64 {
        args[0].mul_add(args[1], args[2])
    }

    // Their float versions, by the host's IEEE 754 binary32 arithmetic: on float operands
    // each operation rounds the exact result once to nearest even float, so it is the
    // correctly rounded float result itself (subnormal results included: Rust leaves MXCSR's
    // flush-to-zero and denormals-are-zero off). `mul_add` is fusedMultiplyAdd (the FMA
    // instruction or libm's `fmaf`), never a multiply and an add.

    /// `x + y` correctly rounded to float.
    pub fn addf(args: &[f64]) -> f64 {
        f64::from(args[0] as f32 + args[1] as f32)
    }

    /// `x - y` correctly rounded to float.
    pub fn subf(args: &[f64]) -> f64 {
        f64::from(args[0] as f32 - args[1] as f32)
    }

    /// `x * y` correctly rounded to float.
    pub fn mulf(args: &[f64]) -> f64 {
        f64::from(args[0] as f32 * args[1] as f32)
    }

    /// `x / y` correctly rounded to float.
    pub fn divf(args: &[f64]) -> f64 {
        f64::from(args[0] as f32 / args[1] as f32)
    }

    /// `sqrt(x)` correctly rounded to float.
    pub fn sqrtf(args: &[f64]) -> f64 {
        f64::from((args[0] as f32).sqrt())
    }

    /// `x * y + z` rounded once to float.
    pub fn fmaf(args: &[f64]) -> f64 {
        f64::from((args[0] as f32).mul_add(args[1] as f32, args[2] as f32))
    }

    /// `pown(x, n)` correctly rounded to float: CORE-MATH's powf at y = n where n is a float
    /// (|n| <= 2^24), MPFR's correctly rounded float beyond (an `int` n past 2^24, which no
    /// sweep draws).
    pub fn pownf(args: &[f64]) -> f64 {
        let n = args[1];
        if n.abs() <= 2f64.powi(24) {
            f64::from(core_math::powf(args[0] as f32, n as f32))
        } else {
            super::correctly_rounded_value(super::pown, args, crate::num::fp::FloatType::Float)
        }
    }

    /// `rootn(x, n)` near the exact value ([`super::NEAR_ERROR`]) for a half or float x and
    /// an integer n ([`rootn_by`] for the special values and n = ±1).
    ///
    /// For |n| >= 2 the root is |x|^r·|x|^t, 1/n = r + t with r = 1/n rounded to double:
    /// t = (1 − r·n)/n, where 1 − r·n is a multiple of r's ulp below 2^-53 in magnitude, so
    /// the fused multiply-add computes it exactly. p = pow(|x|, r) by CORE-MATH (2^-53
    /// relative) and |x|^t = exp(t·ln|x|) = 1 + s with s = t·ln|x| under 2^-46 (|ln|x|| < 104
    /// for every float, |n| >= 2), so s²/2 < 2^-92 and s's own roundings (log, quotient,
    /// product) stay under 2^-95; a = p + p·s rounded once adds 2^-53. In all a lies within
    /// 2^-51.9 of the root.
    pub fn rootn_near(args: &[f64]) -> f64 {
        rootn_by(args, |magnitude, n| {
            let r = 1.0 / n;
            let t = (-r).mul_add(n, 1.0) / n;
            let power = core_math::pow(magnitude, r);
            let s = t * core_math::log(magnitude);
            power.mul_add(s, power)
        })
    }

    /// `rootn(x, n)` for an integer n, its special values exactly, as IEEE 754's rootn
    /// (MPFR's): NaN for n = 0 or x < 0 with n even; rootn(±0, n) is ±0 (n > 0) or ±inf
    /// (n < 0), the sign kept for odd n only; rootn(±inf, n) likewise with the roles of 0 and
    /// inf swapped; x for n = 1, 1/x rounded once for n = −1. Otherwise (x finite and not
    /// zero, |n| >= 2) the root's sign times `root(|x|, n)`.
    fn rootn_by(args: &[f64], root: impl Fn(f64, f64) -> f64) -> f64 {
        let (x, n) = (args[0], args[1]);
        if n == 0.0 || x.is_nan() || n.fract() != 0.0 {
            return f64::NAN;
        }
        // Parity by integer arithmetic (`%` on f64 is a software fmod call); every integer of
        // 2^53 or more is even.
        let odd = n.abs() < 9_007_199_254_740_992.0 && (n as i64) & 1 != 0;
        if x < 0.0 && !odd {
            return f64::NAN;
        }
        let sign = if odd { x.signum() } else { 1.0 };
        if x == 0.0 || x.is_infinite() {
            let infinite = x.is_infinite() == (n > 0.0);
            return sign * if infinite { f64::INFINITY } else { 0.0 };
        }
        if n == 1.0 {
            return x;
        }
        if n == -1.0 {
            return 1.0 / x;
        }
        sign * root(x.abs(), n)
    }

    /// How far [`rootnf`]'s estimate may lie from the root, relative: 2^-45, over twice
    /// its proven error.
    const ROOTNF_ERROR: f64 = 1.0 / (1u64 << 45) as f64;

    /// `rootn(x, n)` correctly rounded to float, for a float x and an integer n: the float
    /// that both ends of the interval e·(1 ± 2^-45) round to, e an estimate of the root within
    /// 2^-46.2 of it (each end computed with one more rounding, 2^-53, so the interval holds
    /// the root, and rounding is monotonic); where the ends differ (a root within 2^-45 of a
    /// midpoint, about one input in 2^21), MPFR rounds it.
    ///
    /// For |n| >= 2, e = 2^(log2|x| / n) by CORE-MATH's log2 and exp2 (each 2^-53 relative),
    /// cheaper than [`rootn_near`]'s pow and log and precise enough to round to float:
    /// |log2|x|| <= 149 for every float, so the quotient, within 2^-52 of log2|x|/n relative,
    /// is within 74.5·2^-52 < 2^-45.7 of it absolute; 2^δ − 1 < 0.7·|δ| for so small a δ
    /// makes that 2^-46.2 relative in the power, and exp2's own rounding adds 2^-53. For
    /// n = ±1 e is x or 1/x rounded once (2^-53).
    pub fn rootnf(args: &[f64]) -> f64 {
        let estimate = rootn_by(args, |magnitude, n| {
            core_math::exp2(core_math::log2(magnitude) / n)
        });
        if !estimate.is_finite() || estimate == 0.0 {
            // The special values, exact.
            return estimate;
        }
        let (low, high) = (
            (estimate * (1.0 - ROOTNF_ERROR)) as f32,
            (estimate * (1.0 + ROOTNF_ERROR)) as f32,
        );
        if low == high {
            f64::from(low)
        } else {
            super::correctly_rounded_value(super::rootn, args, crate::num::fp::FloatType::Float)
        }
    }

    /// `fdim(x, y)` correctly rounded to float.
    pub fn fdimf(args: &[f64]) -> f64 {
        let (x, y) = (args[0] as f32, args[1] as f32);
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            f64::from(x - y)
        } else {
            0.0
        }
    }

    /// `1 / x` correctly rounded to float.
    pub fn recipf(args: &[f64]) -> f64 {
        f64::from(1.0 / args[0] as f32)
    }
}

/// Whether `approximation` lies exactly halfway between two neighbouring values of `element`
/// (subnormal spacing and the overflow threshold, max + ulp/2, included): the only doubles
/// whose rounding to `element` can differ from the rounding of the exact value they
/// approximate. A correctly rounded double `a = RN53(x)` that is not such a midpoint rounds to
/// the same `element` value as `x`: every midpoint of `element` is a double, so no midpoint
/// lies strictly between `x` and `a` (rounding to nearest never steps over a double), and
/// `a` is not one. For half and float only (every double is a double).
pub fn is_midpoint(approximation: f64, element: FloatType) -> bool {
    if !approximation.is_finite() || approximation == 0.0 {
        return false;
    }
    // A midpoint is an odd multiple of half the format's gap: its lowest set bit has weight
    // gap / 2 exactly. (Integer arithmetic: this runs once per judged input.)
    let bits = approximation.to_bits() & !(1u64 << 63);
    let field = (bits >> 52) as i32;
    let (significand, lowest_weight) = if field == 0 {
        (bits, -1074)
    } else {
        (bits & ((1u64 << 52) - 1) | (1u64 << 52), field - 1075)
    };
    let lowest_set_bit = lowest_weight + significand.trailing_zeros() as i32;
    lowest_set_bit == element.gap_exponent(approximation) - 1
}

/// The precision of the "infinitely precise" reference: more than twice the target's plus a
/// margin, so the reference's own error (2^-W relative) is invisible at any ULP bound.
pub fn working_precision(element: FloatType) -> u32 {
    2 * element.precision() + 64
}

/// Bits the references of several steps (`common`, `geometric`) hold their intermediates at
/// above the output's, so rounding them is invisible.
pub(crate) const GUARD_BITS: u32 = 256;

/// The precision of intermediates for an output of `out`'s ([`GUARD_BITS`] above it).
fn guard(out: &Float) -> u32 {
    out.prec() + GUARD_BITS
}

/// f(args) at [`working_precision`] in MPFR's (huge) default exponent range.
///
/// A finite exact value too large for MPFR's exponent range (|f| >= 2^(2^30), as exp(1e10))
/// comes back as the largest finite value of that range with its sign, not as an infinity: it
/// stands for a finite result beyond every format's range, which the overflow allowance judges
/// (an infinity here would read as an exact infinity, a pole).
///
/// The spec's ulp is taken at the exact value, whose binade at a power of two 2^k depends on
/// its side: an exact value just beyond 2^k (farther from zero, as exp(2^-120) or
/// acospi(-2^-149) lie above 1 and 0.5) that rounds onto 2^k at this precision would take the
/// gap below 2^k, half the right one, and double the error. Such a value comes back just
/// beyond 2^k instead (MPFR's ternary says which side the exact value is on): one ulp of a
/// precision 2,200 bits finer, so a value of its binade whose distance from 2^k no error a
/// report holds can show (as an f64 it is below the smallest subnormal, even at 2^1024).
pub fn high_precision(function: ReferenceFn, args: &[Float], element: FloatType) -> Float {
    let mut out = Float::new(working_precision(element));
    // SAFETY: MPFR's flags are thread-local; clearing one before the call is always allowed.
    unsafe { mpfr::clear_overflow() };
    let rounding = function(&mut out, args);
    settled(out, rounding)
}

/// `sin(x)` and `cos(x)` (sincos's outputs) as [`high_precision`] gives each, from one
/// `mpfr_sin_cos` call, which shares the argument reduction: 1.45 against 2.40 µs for the two
/// calls at double's precision. Each value is correctly rounded at the same precision, so
/// both values and their rounding directions are the ones the two calls give.
pub fn high_precision_sin_cos(args: &[Float], element: FloatType) -> Vec<Float> {
    let precision = working_precision(element);
    // Exact: an argument has at most 53 bits, every working precision more.
    let mut sine = Float::with_val(precision, &args[0]);
    let mut cosine = Float::new(precision);
    // SAFETY: as in `high_precision`.
    unsafe { mpfr::clear_overflow() };
    let (sine_rounding, cosine_rounding) = sine.sin_cos_round(&mut cosine, Round::Nearest);
    vec![
        settled(sine, sine_rounding),
        settled(cosine, cosine_rounding),
    ]
}

/// `normalize(p)`'s components as [`high_precision`] gives each (`normalize_0` to
/// `normalize_3`), the length computed once: each component is the same division of the same
/// values, rounded the same way (a component at most 1 in magnitude sets no overflow flag).
pub fn high_precision_normalize(args: &[Float], element: FloatType) -> Vec<Float> {
    let working = working_precision(element);
    let precision = working + GUARD_BITS;
    // SAFETY: as in `high_precision`.
    unsafe { mpfr::clear_overflow() };
    let normalizing = geometric::normalizing(precision, args);
    (0..args.len())
        .map(|index| {
            let mut out = Float::new(working);
            let rounding = geometric::normalized(&mut out, &normalizing, index, precision);
            settled(out, rounding)
        })
        .collect()
}

/// [`high_precision`]'s value from MPFR's `out` and its rounding direction, the MPFR call just
/// made (its overflow flag cleared before it).
fn settled(mut out: Float, rounding: Ordering) -> Float {
    let beyond = if out.is_sign_positive() {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    let power_of_two = out.is_normal()
        && out
            .get_exp()
            .is_some_and(|exponent| crate::num::ulp::is_power_of_two(&out, exponent - 1));
    if rounding == beyond && power_of_two {
        // 2^k is exact at any precision.
        out.set_prec(out.prec() + 2200);
        if out.is_sign_positive() {
            out.next_up();
        } else {
            out.next_down();
        }
    }
    // SAFETY: reads the thread-local flag the call above may have raised.
    if out.is_infinite() && unsafe { mpfr::overflow_p() } != 0 {
        // The infinity's neighbour toward zero is the range's largest finite value.
        if out.is_sign_positive() {
            out.next_down();
        } else {
            out.next_up();
        }
    }
    out
}

/// Why a fast tier's infinite value is infinite ([`why_infinite`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Infinity {
    /// The exact value is that infinity: a pole (lgamma at a non-positive integer, tanpi at a
    /// half-integer, 1/0).
    Pole,
    /// The exact value is finite and rounds past the largest double.
    PastDouble,
}

/// Why `fast(args)` is infinite, where it is: the exact result overflowed double, or it is an
/// exact infinity (a pole). IEEE 754 raises overflow for the first and divide-by-zero for the
/// second (on finite operands), and CORE-MATH and the host's arithmetic raise them as the
/// standard says. Read from the SSE status register (MXCSR), where x86-64 double arithmetic
/// raises them, around the call (an opaque foreign call, so the compiler moves no
/// floating-point work across it): libc's `feclearexcept` also rewrites the x87 environment,
/// which costs more than the call itself. Neither flag or both (an infinite argument raises
/// none), or a flag raised elsewhere (x87 arithmetic), give `None`, and MPFR decides. Where
/// the register is not known (not x86-64), always `None`.
///
/// The two flags are cleared only where set, and left as the call raised them: nothing in
/// clacc reads them elsewhere (CORE-MATH's functions that test flags hold the environment
/// first, `feholdexcept`), and each load of MXCSR waits for the floating-point work in flight
/// (restoring the caller's flags after every call took a quarter of float fma's bulk
/// overflow verdicts).
pub fn why_infinite(fast: FastFn, args: &[f64]) -> Option<Infinity> {
    #[cfg(target_arch = "x86_64")]
    {
        // MXCSR's exception flags, in its low bits.
        const DIVIDE_BY_ZERO: u32 = 0x04;
        const OVERFLOW: u32 = 0x08;
        let before = mxcsr();
        if before & (DIVIDE_BY_ZERO | OVERFLOW) != 0 {
            set_mxcsr(before & !(DIVIDE_BY_ZERO | OVERFLOW));
        }
        let value = std::hint::black_box(fast(std::hint::black_box(args)));
        let raised = mxcsr() & (DIVIDE_BY_ZERO | OVERFLOW);
        if !value.is_infinite() {
            return None;
        }
        match raised {
            OVERFLOW => Some(Infinity::PastDouble),
            DIVIDE_BY_ZERO => Some(Infinity::Pole),
            _ => None,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (fast, args);
        None
    }
}

#[cfg(target_arch = "x86_64")]
fn mxcsr() -> u32 {
    let mut value: u32 = 0;
    // SAFETY: stores the calling thread's MXCSR into a local.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags));
    }
    value
}

#[cfg(target_arch = "x86_64")]
fn set_mxcsr(value: u32) {
    // SAFETY: loads a value read from MXCSR with only exception flags changed: the rounding
    // mode and masks stay as they were.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, preserves_flags));
    }
}

/// f(args) rounded to nearest-even into the target format exactly once: precision p, the
/// format's exponent range (overflow to infinity at the IEEE threshold) and its subnormals.
pub fn correctly_rounded(function: ReferenceFn, args: &[Float], element: FloatType) -> Float {
    let precision = element.precision();
    // MPFR writes x = m * 2^e with 0.5 <= |m| < 1: the smallest subnormal 2^(emin-p+1) has
    // e = emin - p + 2, and the largest finite value is below 2^(emax+1), so e <= emax + 1.
    let format_emin = mpfr::exp_t::from(element.emin() - precision as i32 + 2);
    let format_emax = mpfr::exp_t::from(element.emax() + 1);
    let mut out = Float::new(precision);
    // SAFETY: MPFR's exponent range is thread-local; it is restored before returning, and
    // every operand is a value of the target format, so it lies inside the narrowed range.
    unsafe {
        let saved_emin = mpfr::get_emin();
        let saved_emax = mpfr::get_emax();
        mpfr::set_emin(format_emin);
        mpfr::set_emax(format_emax);
        let ternary = ordering_to_int(function(&mut out, args));
        let ternary = mpfr::check_range(out.as_raw_mut(), ternary, mpfr::rnd_t::RNDN);
        mpfr::subnormalize(out.as_raw_mut(), ternary, mpfr::rnd_t::RNDN);
        mpfr::set_emin(saved_emin);
        mpfr::set_emax(saved_emax);
    }
    out
}

/// [`correctly_rounded`] of f64 arguments (each [`operand`]), as an f64.
pub fn correctly_rounded_value(function: ReferenceFn, args: &[f64], element: FloatType) -> f64 {
    let operands: Vec<Float> = args.iter().map(|x| operand(*x)).collect();
    correctly_rounded(function, &operands, element).to_f64()
}

/// An operand for the references: the exact value of an input, NaN sign included (MPFR keeps a
/// NaN's sign bit, and `copysign(x, -NaN)` depends on it).
pub fn operand(value: f64) -> Float {
    let mut operand = Float::with_val(53, value);
    if value.is_nan() && value.is_sign_negative() {
        // SAFETY: in-place on a live value; mpfr_setsign sets a NaN's sign bit too.
        unsafe { mpfr::setsign(operand.as_raw_mut(), operand.as_raw(), 1, mpfr::rnd_t::RNDN) };
    }
    operand
}

/// f(args) rounded once into the target format in the given rounding mode: the value a
/// correctly rounded device gives when its default rounding mode is `round` (embedded-profile
/// devices may round single precision toward zero). Round-to-nearest is [`correctly_rounded`].
///
/// The references round to nearest, so for round-toward-zero the function is evaluated at
/// [`working_precision`] and its ternary value tells on which side of a representable result
/// the exact value lies: exactly the information a second, directed rounding needs.
pub fn correctly_rounded_in(
    function: ReferenceFn,
    args: &[Float],
    element: FloatType,
    round: Round,
) -> Float {
    if round == Round::Nearest {
        return correctly_rounded(function, args, element);
    }
    let mut wide = Float::new(working_precision(element));
    let wide_rounding = function(&mut wide, args);
    let precision = element.precision();
    let format_emin = mpfr::exp_t::from(element.emin() - precision as i32 + 2);
    let format_emax = mpfr::exp_t::from(element.emax() + 1);
    let mut out = Float::new(precision);
    // SAFETY: as in `correctly_rounded`; the range is restored before returning.
    unsafe {
        let saved_emin = mpfr::get_emin();
        let saved_emax = mpfr::get_emax();
        mpfr::set_emin(format_emin);
        mpfr::set_emax(format_emax);
        let mut rounding = out.assign_round(&wide, round);
        if rounding == Ordering::Equal && wide_rounding != Ordering::Equal && wide.is_finite() {
            // `wide` is representable but the exact value lies beside it: directed rounding
            // must step to the neighbour on the exact value's side when that is the direction.
            let exact_below = wide_rounding == Ordering::Greater;
            let positive = wide.is_sign_positive();
            let go_down = match round {
                Round::Down => exact_below,
                Round::Zero => positive && exact_below,
                _ => false,
            };
            let go_up = match round {
                Round::Up => !exact_below,
                Round::Zero => !positive && !exact_below,
                _ => false,
            };
            if go_down {
                out.next_down();
                rounding = Ordering::Less;
            } else if go_up {
                out.next_up();
                rounding = Ordering::Greater;
            } else {
                rounding = wide_rounding;
            }
        }
        let raw_round = match round {
            Round::Zero => mpfr::rnd_t::RNDZ,
            Round::Up => mpfr::rnd_t::RNDU,
            Round::Down => mpfr::rnd_t::RNDD,
            _ => mpfr::rnd_t::RNDN,
        };
        let ternary = mpfr::check_range(out.as_raw_mut(), ordering_to_int(rounding), raw_round);
        mpfr::subnormalize(out.as_raw_mut(), ternary, raw_round);
        mpfr::set_emin(saved_emin);
        mpfr::set_emax(saved_emax);
    }
    out
}

fn ordering_to_int(ordering: Ordering) -> i32 {
    match ordering {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

fn int_to_ordering(ternary: i32) -> Ordering {
    ternary.cmp(&0)
}

/// Calls a raw one-argument MPFR function `mpfr_xxx(rop, op, rnd)`.
fn raw1(
    out: &mut Float,
    x: &Float,
    function: unsafe extern "C" fn(*mut mpfr::mpfr_t, *const mpfr::mpfr_t, mpfr::rnd_t) -> i32,
) -> Ordering {
    // SAFETY: both pointers come from live rug values; MPFR allows no aliasing problems here.
    int_to_ordering(unsafe { function(out.as_raw_mut(), x.as_raw(), mpfr::rnd_t::RNDN) })
}

/// Calls a raw two-argument MPFR function `mpfr_xxx(rop, op1, op2, rnd)`.
fn raw2(
    out: &mut Float,
    x: &Float,
    y: &Float,
    function: unsafe extern "C" fn(
        *mut mpfr::mpfr_t,
        *const mpfr::mpfr_t,
        *const mpfr::mpfr_t,
        mpfr::rnd_t,
    ) -> i32,
) -> Ordering {
    // SAFETY: as in `raw1`.
    int_to_ordering(unsafe {
        function(out.as_raw_mut(), x.as_raw(), y.as_raw(), mpfr::rnd_t::RNDN)
    })
}

fn assign_nan(out: &mut Float) -> Ordering {
    out.assign(f64::NAN);
    Ordering::Equal
}

/// Copies a value that is representable at `out`'s precision (a selected operand).
fn assign_exact(out: &mut Float, value: &Float) -> Ordering {
    out.assign_round(value, Round::Nearest)
}

use rug::Assign;

macro_rules! unary_rug {
    ($($name:ident => $method:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(x)` through rug's `", stringify!($method), "`.")]
        pub fn $name(out: &mut Float, args: &[Float]) -> Ordering {
            out.assign_round(args[0].$method(), Round::Nearest)
        }
    )*};
}

macro_rules! unary_raw {
    ($($name:ident => $function:path),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(x)` through MPFR's `", stringify!($function), "`.")]
        pub fn $name(out: &mut Float, args: &[Float]) -> Ordering {
            raw1(out, &args[0], $function)
        }
    )*};
}

macro_rules! binary_raw {
    ($($name:ident => $function:path),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(x, y)` through MPFR's `", stringify!($function), "`.")]
        pub fn $name(out: &mut Float, args: &[Float]) -> Ordering {
            raw2(out, &args[0], &args[1], $function)
        }
    )*};
}

unary_rug! {
    acos => acos_ref, acosh => acosh_ref, asin => asin_ref, asinh => asinh_ref,
    atan => atan_ref, atanh => atanh_ref, cbrt => cbrt_ref, cos => cos_ref, cosh => cosh_ref,
    erf => erf_ref, erfc => erfc_ref, exp => exp_ref, exp2 => exp2_ref, exp10 => exp10_ref,
    expm1 => exp_m1_ref, log => ln_ref, log2 => log2_ref, log10 => log10_ref,
    log1p => ln_1p_ref, sin => sin_ref, sinh => sinh_ref, sqrt => sqrt_ref, tan => tan_ref,
    tanh => tanh_ref, tgamma => gamma_ref,
}

/// `rsqrt(x)` = 1/sqrt(x), rounded once (`mpfr_rec_sqrt`). MPFR gives +inf at −0 where
/// 1/sqrt(−0) = 1/−0 = −inf, the value the spec's definition as a reciprocal square root has.
pub fn rsqrt(out: &mut Float, args: &[Float]) -> Ordering {
    if args[0].is_zero() && args[0].is_sign_negative() {
        out.assign(f64::NEG_INFINITY);
        return Ordering::Equal;
    }
    out.assign_round(args[0].recip_sqrt_ref(), Round::Nearest)
}

unary_raw! {
    sinpi => mpfr::sinpi, cospi => mpfr::cospi, tanpi => mpfr::tanpi,
    asinpi => mpfr::asinpi, acospi => mpfr::acospi, atanpi => mpfr::atanpi,
    ceil => mpfr::rint_ceil, floor => mpfr::rint_floor, trunc => mpfr::rint_trunc,
    round => mpfr::rint_round, rint => mpfr::rint,
}

binary_raw! {
    add => mpfr::add, sub => mpfr::sub, mul => mpfr::mul, div => mpfr::div,
    atan2 => mpfr::atan2, atan2pi => mpfr::atan2pi, hypot => mpfr::hypot,
    fmod => mpfr::fmod, remainder => mpfr::remainder, copysign => mpfr::copysign,
}

/// `powr(x, y)` = exp(y·log x), MPFR's `mpfr_powr`, except that a NaN operand gives NaN: the
/// spec's "powr( x, NaN ) returns the NaN for x >= 0" where MPFR's powr(1, NaN) is 1.
pub fn powr(out: &mut Float, args: &[Float]) -> Ordering {
    if args[0].is_nan() || args[1].is_nan() {
        return assign_nan(out);
    }
    raw2(out, &args[0], &args[1], mpfr::powr)
}

/// `pow(x, y)`: C99 pow, which MPFR's `mpfr_pow` follows case by case (F.9.4.4).
pub fn pow(out: &mut Float, args: &[Float]) -> Ordering {
    raw2(out, &args[0], &args[1], mpfr::pow)
}

/// `1 / x`, rounded once.
pub fn recip(out: &mut Float, args: &[Float]) -> Ordering {
    out.assign_round(args[0].recip_ref(), Round::Nearest)
}

/// `|x|`.
pub fn fabs(out: &mut Float, args: &[Float]) -> Ordering {
    out.assign_round(&*args[0].as_abs(), Round::Nearest)
}

/// `lgamma(x)`: log|Γ(x)|.
pub fn lgamma(out: &mut Float, args: &[Float]) -> Ordering {
    let mut sign = 0;
    // SAFETY: live operands; `sign` receives the sign of Γ(x), unused here.
    int_to_ordering(unsafe {
        mpfr::lgamma(
            out.as_raw_mut(),
            &mut sign,
            args[0].as_raw(),
            mpfr::rnd_t::RNDN,
        )
    })
}

/// `logb(x)`: the unbiased exponent floor(log2|x|) as a float; -inf at 0, +inf at ±inf.
pub fn logb(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    if x.is_nan() {
        return assign_nan(out);
    }
    if x.is_infinite() {
        out.assign(f64::INFINITY);
    } else if x.is_zero() {
        out.assign(f64::NEG_INFINITY);
    } else {
        let exponent = x.get_exp().expect("finite non-zero") - 1;
        return out.assign_round(exponent, Round::Nearest);
    }
    Ordering::Equal
}

/// `fdim(x, y)`: x - y if x > y, else +0; NaN if either is NaN.
pub fn fdim(out: &mut Float, args: &[Float]) -> Ordering {
    let (x, y) = (&args[0], &args[1]);
    if x.is_nan() || y.is_nan() {
        return assign_nan(out);
    }
    if x > y {
        raw2(out, x, y, mpfr::sub)
    } else {
        out.assign(0.0);
        Ordering::Equal
    }
}

/// `fmax(x, y)`: the larger; a NaN operand is ignored (C99 F.9.9.2).
pub fn fmax(out: &mut Float, args: &[Float]) -> Ordering {
    select_ignoring_nan(out, &args[0], &args[1], |x, y| {
        x > y || (x == y && x.is_sign_positive())
    })
}

/// `fmin(x, y)`: the smaller; a NaN operand is ignored.
pub fn fmin(out: &mut Float, args: &[Float]) -> Ordering {
    select_ignoring_nan(out, &args[0], &args[1], |x, y| {
        x < y || (x == y && x.is_sign_negative())
    })
}

/// `maxmag(x, y)`: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y).
pub fn maxmag(out: &mut Float, args: &[Float]) -> Ordering {
    let (x, y) = (&args[0], &args[1]);
    match x.as_abs().partial_cmp(&*y.as_abs()) {
        Some(Ordering::Greater) => assign_exact(out, x),
        Some(Ordering::Less) => assign_exact(out, y),
        _ => fmax(out, args),
    }
}

/// `minmag(x, y)`: x if |x| < |y|, y if |y| < |x|, otherwise fmin(x, y).
pub fn minmag(out: &mut Float, args: &[Float]) -> Ordering {
    let (x, y) = (&args[0], &args[1]);
    match x.as_abs().partial_cmp(&*y.as_abs()) {
        Some(Ordering::Less) => assign_exact(out, x),
        Some(Ordering::Greater) => assign_exact(out, y),
        _ => fmin(out, args),
    }
}

fn select_ignoring_nan(
    out: &mut Float,
    x: &Float,
    y: &Float,
    prefer_x: fn(&Float, &Float) -> bool,
) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => assign_nan(out),
        (true, false) => assign_exact(out, y),
        (false, true) => assign_exact(out, x),
        (false, false) if prefer_x(x, y) => assign_exact(out, x),
        (false, false) => assign_exact(out, y),
    }
}

/// `fma(x, y, z)`: x * y + z rounded once.
pub fn fma(out: &mut Float, args: &[Float]) -> Ordering {
    // SAFETY: live operands.
    int_to_ordering(unsafe {
        mpfr::fma(
            out.as_raw_mut(),
            args[0].as_raw(),
            args[1].as_raw(),
            args[2].as_raw(),
            mpfr::rnd_t::RNDN,
        )
    })
}

/// `x * y` rounded to `out`'s precision, then `+ z` rounded again: the second implementation
/// the spec allows for `mad` (Table 3: "a multiply followed by an add, both of which are
/// correctly rounded"). Under [`correctly_rounded`] both roundings happen in the target format.
pub fn mul_then_add(out: &mut Float, args: &[Float]) -> Ordering {
    let mut product = Float::new(out.prec());
    let product_rounding = raw2(&mut product, &args[0], &args[1], mpfr::mul);
    // SAFETY: live operands; the intermediate product must itself be rounded as the target
    // would round it (range and subnormals), which `correctly_rounded`'s range provides.
    unsafe {
        let ternary = mpfr::check_range(
            product.as_raw_mut(),
            ordering_to_int(product_rounding),
            mpfr::rnd_t::RNDN,
        );
        mpfr::subnormalize(product.as_raw_mut(), ternary, mpfr::rnd_t::RNDN);
    }
    raw2(out, &product, &args[2], mpfr::add)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(x: f64) -> Float {
        operand(x)
    }

    fn cr(function: ReferenceFn, args: &[f64], element: FloatType) -> f64 {
        let args: Vec<Float> = args.iter().map(|x| value(*x)).collect();
        correctly_rounded(function, &args, element).to_f64()
    }

    /// `fast::atan2_far` is CORE-MATH's correctly rounded atan2 wherever it answers, and it
    /// answers for every pair of floats one of which is below 2^-26 times the other (random
    /// floats, and each sign and ordering of them), and for doubles within its range; MPFR
    /// agrees on a sample. Ratios beside 2^-26, the range's ends, and the four quadrants
    /// beside the axes are among the inputs.
    #[test]
    fn far_atan2_is_correctly_rounded() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        let mut answered = 0;
        for round in 0..400_000 {
            let (y, x) = match round % 4 {
                0 | 1 => loop {
                    let y = f64::from(f32::from_bits(rng.random()));
                    let x = f64::from(f32::from_bits(rng.random()));
                    if y.is_finite() && x.is_finite() {
                        break (y, x);
                    }
                },
                2 => {
                    // A ratio beside the threshold.
                    let b: f64 =
                        rng.random_range(1.0..2.0) * 2f64.powi(rng.random_range(-300..300));
                    let a = b * 2f64.powi(-26) * rng.random_range(0.999..1.001);
                    let signs = [1.0, -1.0];
                    let (s, u) = (signs[rng.random_range(0..2)], signs[rng.random_range(0..2)]);
                    if rng.random_bool(0.5) {
                        (s * a, u * b)
                    } else {
                        (s * b, u * a)
                    }
                }
                _ => {
                    let bits = |rng: &mut rand_chacha::ChaCha8Rng| {
                        f64::from_bits(rng.random::<u64>() >> 2 | 0x2000_0000_0000_0000)
                            * 2f64.powi(-512)
                    };
                    let signs = [1.0, -1.0];
                    let y = signs[rng.random_range(0..2)] * bits(&mut rng);
                    let x = signs[rng.random_range(0..2)] * bits(&mut rng);
                    (y, x)
                }
            };
            let float_pair = (y as f32) as f64 == y && (x as f32) as f64 == x;
            let far = y != 0.0 && x != 0.0 && {
                let (a, b) = (y.abs().min(x.abs()), y.abs().max(x.abs()));
                a < b * 2f64.powi(-26) * (1.0 - f64::EPSILON)
            };
            match fast::atan2_far(y, x) {
                Some(value) => {
                    let expected = core_math::atan2(y, x);
                    assert_eq!(value.to_bits(), expected.to_bits(), "atan2({y:e}, {x:e})");
                    if answered % 1000 == 0 {
                        let mpfr = cr(atan2, &[y, x], FloatType::Double);
                        assert_eq!(value, mpfr, "atan2({y:e}, {x:e}) against MPFR");
                    }
                    answered += 1;
                }
                None => assert!(!(float_pair && far), "atan2({y:e}, {x:e}) declined"),
            }
        }
        assert!(answered > 150_000, "{answered}");
    }

    /// `fast::pow_tiny_exponent` gives CORE-MATH's bits (NaN's included) and MPFR's correctly
    /// rounded double wherever it answers, and answers for every finite nonzero x beside a y
    /// of 0 < |y| < 2^-969: random bit patterns of x (subnormal, huge, negative) against
    /// random tiny y of both signs, the bounds 2^-969 and the smallest subnormal, and x at
    /// the ends of the range where |ln x| is largest.
    #[test]
    fn pow_of_a_tiny_exponent_is_correctly_rounded() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
        let edges = [
            f64::MAX,
            -f64::MAX,
            f64::from_bits(1),
            -f64::from_bits(1),
            1.0,
            -1.0,
            1.0 - f64::EPSILON / 2.0,
            1.0 + f64::EPSILON,
            0.0,
            f64::INFINITY,
            f64::NAN,
        ];
        let limit = 2f64.powi(-969);
        let mut answered = 0;
        for round in 0..200_000u32 {
            let x = match round % 8 {
                0 => edges[rng.random_range(0..edges.len())],
                _ => f64::from_bits(rng.random()),
            };
            let y = match round % 5 {
                0 => limit.next_down(),
                1 => limit,
                2 => f64::from_bits(1),
                3 => f64::from_bits(rng.random::<u64>() >> 12),
                _ => f64::from_bits(rng.random::<u64>() & 0x7fff_ffff_ffff_ffff),
            } * [1.0, -1.0][rng.random_range(0..2)];
            let tiny = y != 0.0 && y.abs() < limit;
            match fast::pow_tiny_exponent(x, y) {
                Some(value) => {
                    assert!(tiny && x.is_finite() && x != 0.0, "pow({x:e}, {y:e})");
                    let expected = core_math::pow(x, y);
                    assert_eq!(value.to_bits(), expected.to_bits(), "pow({x:e}, {y:e})");
                    assert_eq!(fast::pow(&[x, y]).to_bits(), expected.to_bits());
                    if answered % 100 == 0 {
                        let mpfr = cr(pow, &[x, y], FloatType::Double);
                        assert!(
                            value == mpfr || (value.is_nan() && mpfr.is_nan()),
                            "pow({x:e}, {y:e}) against MPFR"
                        );
                    }
                    answered += 1;
                }
                None => {
                    assert!(
                        !(tiny && x.is_finite() && x != 0.0),
                        "pow({x:e}, {y:e}) declined"
                    );
                    let expected = core_math::pow(x, y);
                    assert_eq!(fast::pow(&[x, y]).to_bits(), expected.to_bits());
                }
            }
        }
        assert!(answered > 50_000, "{answered}");
    }

    /// sincos's joint reference is sin's and cos's, value, precision and sign for sign, in
    /// every format: at zeros, NaN and infinities, tiny, huge and random arguments.
    #[test]
    fn joint_sine_and_cosine_are_the_two_references() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut arguments = vec![
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE / 8.0,
            -1.0e-300,
            std::f64::consts::FRAC_PI_2,
            1.0e22,
            -f64::MAX,
        ];
        arguments.extend((0..2000).map(|_| f64::from_bits(rng.random::<u64>())));
        for element in FloatType::ALL {
            for x in &arguments {
                let x = element.round(*x);
                let args = [value(x)];
                let joint = high_precision_sin_cos(&args, element);
                let alone = [
                    high_precision(sin, &args, element),
                    high_precision(cos, &args, element),
                ];
                for (joint, alone) in joint.iter().zip(&alone) {
                    let same = (joint.is_nan() && alone.is_nan())
                        || (joint == alone
                            && joint.is_sign_negative() == alone.is_sign_negative()
                            && joint.prec() == alone.prec());
                    assert!(same, "{element:?} sincos({x:e}): {joint} against {alone}");
                }
            }
        }
    }

    /// normalize's components from one length are each component's own reference, bit for
    /// bit: random vectors of widths 1 to 4, with zeros, infinities and NaNs among them.
    #[test]
    fn normalize_s_joint_references_are_each_component_s() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x6e0a_11ed);
        let specials = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e-310,
            1e300,
        ];
        let components: [ReferenceFn; 4] = [normalize_0, normalize_1, normalize_2, normalize_3];
        for _ in 0..3000 {
            let width = rng.random_range(1..=4);
            let args: Vec<Float> = (0..width)
                .map(|_| {
                    let x = match rng.random_range(0..4) {
                        0 => specials[rng.random_range(0..specials.len())],
                        1 => f64::from_bits(rng.random::<u64>()),
                        _ => rng.random_range(-1e3..1e3),
                    };
                    value(x)
                })
                .collect();
            for element in FloatType::ALL {
                let joint = high_precision_normalize(&args, element);
                for (index, joint) in joint.iter().enumerate() {
                    let alone = high_precision(components[index], &args, element);
                    let same = (joint.is_nan() && alone.is_nan())
                        || (*joint == alone
                            && joint.is_sign_negative() == alone.is_sign_negative()
                            && joint.prec() == alone.prec());
                    assert!(
                        same,
                        "{element:?} normalize({args:?})[{index}]: {joint} against {alone}"
                    );
                }
            }
        }
    }

    #[test]
    fn correctly_rounded_matches_native_float_arithmetic() {
        // The host's f32 arithmetic is correctly rounded: MPFR in float's format must agree.
        let samples = [1.1f32, -3.75, 1.0e-40, 3.0e38, 7.0e-39, 0.1, 123456.79];
        for &x in &samples {
            for &y in &samples {
                let expected_sum = x + y;
                let expected_product = x * y;
                let expected_quotient = x / y;
                assert_eq!(
                    cr(add, &[x as f64, y as f64], FloatType::Float),
                    expected_sum as f64
                );
                assert_eq!(
                    cr(mul, &[x as f64, y as f64], FloatType::Float),
                    expected_product as f64,
                    "{x:e} * {y:e}"
                );
                assert_eq!(
                    cr(div, &[x as f64, y as f64], FloatType::Float),
                    expected_quotient as f64,
                    "{x:e} / {y:e}"
                );
                assert_eq!(
                    cr(sqrt, &[x.abs() as f64], FloatType::Float),
                    x.abs().sqrt() as f64
                );
            }
        }
    }

    /// The basic operations' float versions (and recip's) are MPFR's correctly rounded float
    /// results, on
    /// random bit patterns (subnormal, overflowing and NaN-making operands among them) and on
    /// an fma whose rounding first to double and then to float would be wrong.
    #[test]
    fn float_versions_of_the_basic_operations_are_correctly_rounded() {
        use rand::{Rng, SeedableRng};
        let operations: [(FastFn, ReferenceFn, usize); 7] = [
            (fast::recipf, recip, 1),
            (fast::addf, add, 2),
            (fast::subf, sub, 2),
            (fast::mulf, mul, 2),
            (fast::divf, div, 2),
            (fast::sqrtf, sqrt, 1),
            (fast::fmaf, fma, 3),
        ];
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (float_version, reference, arguments) in operations {
            for _ in 0..20_000 {
                let args: Vec<f64> = (0..arguments)
                    .map(|_| {
                        // Narrow exponents half the time, so that sums and fmas cancel.
                        let bits = if rng.random::<bool>() {
                            rng.random::<u32>()
                        } else {
                            rng.random::<u32>() & 0x83ff_ffff | 0x3c00_0000
                        };
                        f64::from(f32::from_bits(bits))
                    })
                    .collect();
                let expected = cr(reference, &args, FloatType::Float);
                assert!(same(float_version(&args), expected), "{args:?}");
            }
        }
        // (1 + 2^-12)^2 + 2^-70 = 1 + 2^-11 + 2^-24 + 2^-70: just above the float midpoint
        // 1 + 2^-11 + 2^-24, so it rounds up; rounded to double first it is the midpoint, and
        // the tie then goes to the even float below.
        let args = [1.0 + 2f64.powi(-12), 1.0 + 2f64.powi(-12), 2f64.powi(-70)];
        let up = 1.0 + 2f64.powi(-11) + 2f64.powi(-23);
        assert_eq!(cr(fma, &args, FloatType::Float), up);
        assert_eq!(fast::fmaf(&args), up);
        assert_ne!(f64::from(fast::fma(&args) as f32), up);
    }

    #[test]
    fn correctly_rounded_overflows_and_underflows_like_ieee() {
        // FLT_MAX * 2 overflows to +inf; tiny products round to subnormals or zero.
        let max = f32::MAX as f64;
        assert_eq!(cr(mul, &[max, 2.0], FloatType::Float), f64::INFINITY);
        let smallest = f32::from_bits(1) as f64;
        assert_eq!(cr(mul, &[smallest, 0.5], FloatType::Float), 0.0); // tie to even: 0
        assert_eq!(cr(mul, &[smallest, 0.75], FloatType::Float), smallest);
        assert_eq!(cr(mul, &[smallest, 1.5], FloatType::Float), 2.0 * smallest);
        // Half: 65504 is the largest finite value; 65520 and above round to infinity.
        assert_eq!(cr(add, &[65504.0, 15.0], FloatType::Half), 65504.0);
        assert_eq!(cr(add, &[65504.0, 16.0], FloatType::Half), f64::INFINITY);
        assert_eq!(cr(mul, &[2f64.powi(-24), 0.5], FloatType::Half), 0.0);
    }

    #[test]
    fn high_precision_is_far_more_precise_than_the_target() {
        let pi_over_4 = Float::with_val(53, std::f64::consts::FRAC_PI_4);
        let sine = high_precision(sin, &[pi_over_4], FloatType::Float);
        assert_eq!(sine.prec(), working_precision(FloatType::Float));
        assert!((sine.to_f64() - std::f64::consts::FRAC_1_SQRT_2).abs() < 3e-16);
    }

    #[test]
    fn selection_functions_follow_c99_nan_rules() {
        let nan = f64::NAN;
        assert_eq!(cr(fmax, &[1.0, nan], FloatType::Float), 1.0);
        assert_eq!(cr(fmin, &[nan, -2.0], FloatType::Float), -2.0);
        assert!(cr(fmax, &[nan, nan], FloatType::Float).is_nan());
        assert_eq!(cr(maxmag, &[-3.0, 2.0], FloatType::Float), -3.0);
        assert_eq!(cr(minmag, &[-3.0, 2.0], FloatType::Float), 2.0);
        assert_eq!(cr(maxmag, &[-2.0, 2.0], FloatType::Float), 2.0);
        assert_eq!(cr(fdim, &[1.0, 3.0], FloatType::Float), 0.0);
        assert_eq!(cr(fdim, &[3.0, 1.0], FloatType::Float), 2.0);
        assert!(cr(fmax, &[-0.0, 0.0], FloatType::Float).is_sign_positive());
        assert!(cr(fmin, &[0.0, -0.0], FloatType::Float).is_sign_negative());
    }

    #[test]
    fn rounding_functions_and_logb_are_exact() {
        assert_eq!(cr(rint, &[2.5], FloatType::Float), 2.0);
        assert_eq!(cr(round, &[2.5], FloatType::Float), 3.0);
        assert_eq!(cr(ceil, &[-0.5], FloatType::Float), 0.0);
        assert!(cr(ceil, &[-0.5], FloatType::Float).is_sign_negative());
        assert_eq!(cr(floor, &[-0.5], FloatType::Float), -1.0);
        assert_eq!(cr(trunc, &[-1.5], FloatType::Float), -1.0);
        assert_eq!(cr(logb, &[10.0], FloatType::Float), 3.0);
        assert_eq!(
            cr(logb, &[f32::from_bits(1) as f64], FloatType::Float),
            -149.0
        );
        assert_eq!(cr(logb, &[0.0], FloatType::Float), f64::NEG_INFINITY);
        assert_eq!(cr(rsqrt, &[4.0], FloatType::Float), 0.5);
        assert_eq!(cr(rsqrt, &[-0.0], FloatType::Float), f64::NEG_INFINITY);
        assert_eq!(cr(rsqrt, &[0.0], FloatType::Float), f64::INFINITY);
        assert!(cr(powr, &[1.0, f64::NAN], FloatType::Float).is_nan());
        assert_eq!(cr(copysign, &[2.0, -f64::NAN], FloatType::Float), -2.0);
        assert_eq!(cr(copysign, &[-2.0, f64::NAN], FloatType::Float), 2.0);
    }

    #[test]
    fn directed_rounding_rounds_once_toward_its_direction() {
        let toward_zero = |function: ReferenceFn, args: &[f64], element| {
            let args: Vec<Float> = args.iter().map(|x| operand(*x)).collect();
            correctly_rounded_in(function, &args, element, Round::Zero).to_f64()
        };
        // 1 + 2^-30 in float: toward zero gives 1, for either sign.
        assert_eq!(
            toward_zero(add, &[1.0, 2f64.powi(-30)], FloatType::Float),
            1.0
        );
        assert_eq!(
            toward_zero(add, &[-1.0, -(2f64.powi(-30))], FloatType::Float),
            -1.0
        );
        // 1 - 2^-60 is below 1: toward zero it is the float below 1.
        assert_eq!(
            toward_zero(sub, &[1.0, 2f64.powi(-60)], FloatType::Float),
            1.0 - 2f64.powi(-24)
        );
        // 1/3 rounds up to nearest, so toward zero it is the float below.
        let third_down = f64::from(f32::from_bits((1.0f32 / 3.0).to_bits() - 1));
        assert_eq!(toward_zero(div, &[1.0, 3.0], FloatType::Float), third_down);
        // Overflow toward zero gives the largest finite value, not infinity.
        let max = f64::from(f32::MAX);
        assert_eq!(toward_zero(mul, &[max, 2.0], FloatType::Float), max);
        // Where the working-precision value rounded onto a float: exp(-2^-149) = 1 - 2^-149 + ...
        // is 1 at working precision (rounded up), so toward zero must step to the float below
        // 1; exp(+2^-149) rounded down onto 1 stays 1.
        let tiny = f64::from(f32::from_bits(1));
        assert_eq!(
            toward_zero(exp, &[-tiny], FloatType::Float),
            1.0 - 2f64.powi(-24)
        );
        assert_eq!(toward_zero(exp, &[tiny], FloatType::Float), 1.0);
        // Round to nearest is unchanged.
        let args = [operand(1.0), operand(3.0)];
        assert_eq!(
            correctly_rounded_in(div, &args, FloatType::Float, Round::Nearest).to_f64(),
            f64::from(1.0f32 / 3.0)
        );
    }

    #[test]
    fn mad_alternatives_differ_where_the_product_rounds() {
        // x*y = 1 - 2^-48 exactly; fma keeps it, multiply-then-add rounds the product to 1.
        let x = 1.0 - 2f64.powi(-24);
        let y = 1.0 + 2f64.powi(-24);
        assert_eq!(cr(fma, &[x, y, -1.0], FloatType::Float), -(2f64.powi(-48)));
        assert_eq!(cr(mul_then_add, &[x, y, -1.0], FloatType::Float), 0.0);
    }
}

/// The format a reference output is being computed for, from its precision: the target's own
/// precision under [`correctly_rounded`], [`working_precision`] under [`high_precision`]. Only
/// results defined by the format's own spacing (nextafter) need it.
fn format_of(out: &Float) -> FloatType {
    FloatType::ALL
        .into_iter()
        .find(|t| out.prec() == t.precision() || out.prec() == working_precision(*t))
        .expect("references are evaluated at a format's precision or its working precision")
}

/// An integer-valued output (written exactly), or NaN where the spec leaves it unspecified.
fn assign_integer(out: &mut Float, value: Option<i64>) -> Ordering {
    match value {
        Some(value) => out.assign_round(value, Round::Nearest),
        None => assign_nan(out),
    }
}

/// The integer an integer argument holds (the sweeps pass `int` arguments as exact values).
fn integer_argument(value: &Float) -> i64 {
    value.to_f64() as i64
}

/// Calls a raw MPFR function of a float and an integer, `mpfr_xxx(rop, op, n, rnd)`.
fn raw_si(
    out: &mut Float,
    x: &Float,
    n: &Float,
    function: unsafe extern "C" fn(
        *mut mpfr::mpfr_t,
        *const mpfr::mpfr_t,
        std::os::raw::c_long,
        mpfr::rnd_t,
    ) -> i32,
) -> Ordering {
    let n = integer_argument(n);
    // SAFETY: live operands, as in `raw1`.
    int_to_ordering(unsafe { function(out.as_raw_mut(), x.as_raw(), n as _, mpfr::rnd_t::RNDN) })
}

/// `ldexp(x, k)` = x · 2^k, rounded once.
pub fn ldexp(out: &mut Float, args: &[Float]) -> Ordering {
    raw_si(out, &args[0], &args[1], mpfr::mul_2si)
}

/// `pown(x, n)` = x^n for an integer n (pown(x, 0) = 1 for any x, NaN included).
pub fn pown(out: &mut Float, args: &[Float]) -> Ordering {
    raw_si(out, &args[0], &args[1], mpfr::pow_si)
}

/// `rootn(x, n)` = x^(1/n): MPFR's IEEE 754 rootn (NaN for n = 0 and for x < 0 with even n).
/// n must be an integer; anything else (a derived formula's operand) gives NaN.
pub fn rootn(out: &mut Float, args: &[Float]) -> Ordering {
    if !args[1].is_integer() {
        return assign_nan(out);
    }
    raw_si(out, &args[0], &args[1], mpfr::rootn_si)
}

/// `ilogb(x)`: the unbiased exponent as an integer; INT_MAX for ±inf. ilogb(0) and ilogb(NaN)
/// are the implementation's FP_ILOGB0 and FP_ILOGBNAN: unspecified here (NaN).
pub fn ilogb(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    let value = if x.is_infinite() {
        Some(i64::from(i32::MAX))
    } else if x.is_nan() || x.is_zero() {
        None
    } else {
        x.get_exp().map(|e| i64::from(e) - 1)
    };
    assign_integer(out, value)
}

/// `frexp(x)`'s mantissa in [0.5, 1): x itself for 0, ±inf and NaN.
pub fn frexp_mantissa(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    match x.get_exp() {
        Some(exponent) if x.is_normal() => {
            let mut mantissa = Float::with_val(x.prec(), x);
            mantissa >>= exponent;
            assign_exact(out, &mantissa)
        }
        _ => assign_exact(out, x),
    }
}

/// `frexp(x)`'s exponent: x = mantissa · 2^exponent; 0 for 0, and 0 for ±inf and NaN
/// ("frexp( ±∞, exp ) returns ±∞ and stores 0 in exp", "frexp( NaN, exp ) ... stores 0").
pub fn frexp_exponent(out: &mut Float, args: &[Float]) -> Ordering {
    let exponent = if args[0].is_normal() {
        args[0].get_exp().map(i64::from)
    } else {
        Some(0)
    };
    assign_integer(out, exponent)
}

/// `modf(x)`'s fractional part: x − trunc(x) with x's sign; ±0 for ±inf.
pub fn modf_fraction(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    if x.is_nan() {
        return assign_nan(out);
    }
    if x.is_infinite() {
        out.assign(if x.is_sign_negative() { -0.0 } else { 0.0 });
        return Ordering::Equal;
    }
    let ordering = out.assign_round(x.fract_ref(), Round::Nearest);
    if out.is_zero() && x.is_sign_negative() {
        out.assign(-0.0);
    }
    ordering
}

/// `fract(x)` = fmin(x − floor(x), the largest value below 1); ±0 for ±inf, the spec's rules
/// ("fract( -0, iptr ) returns -0", "fract( +inf, iptr ) returns +0", "fract( -inf ... ) -0").
pub fn fract(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    if x.is_nan() {
        return assign_nan(out);
    }
    if x.is_infinite() || x.is_zero() {
        out.assign(if x.is_sign_negative() { -0.0 } else { 0.0 });
        return Ordering::Equal;
    }
    let mut floor = Float::with_val(x.prec(), x);
    floor.floor_mut();
    // x - floor(x), rounded once: a temporary of fixed precision would round twice.
    let ordering = out.assign_round(x - &floor, Round::Nearest);
    let element = format_of(out);
    let below_one = 1.0 - 2f64.powi(-(element.precision() as i32));
    if *out >= below_one {
        // fmin(x - floor(x), 0x1.fffffep-1f): a fraction that rounds up to 1 is capped.
        out.assign(below_one);
        return Ordering::Equal;
    }
    ordering
}

/// `lgamma_r(x)`'s sign of Γ(x) where Γ is defined. At its poles (zero and the negative
/// integers) the spec requires 0 in signp, an edge-case rule checked by the edge-case tables;
/// here, as for NaN and −inf, the sign is unspecified (NaN).
pub fn lgamma_sign(out: &mut Float, args: &[Float]) -> Ordering {
    let x = &args[0];
    let pole = x.is_zero() || (x.is_sign_negative() && x.is_integer());
    if x.is_nan() || (x.is_infinite() && x.is_sign_negative()) || pole {
        return assign_nan(out);
    }
    let mut value = Float::new(64);
    let mut sign = 0;
    // SAFETY: live operands; only the sign is used.
    unsafe { mpfr::lgamma(value.as_raw_mut(), &mut sign, x.as_raw(), mpfr::rnd_t::RNDN) };
    assign_integer(out, Some(if sign < 0 { -1 } else { 1 }))
}

/// `remquo(x, y)`'s remainder: x − n·y with n = x/y rounded to nearest even.
pub fn remquo_remainder(out: &mut Float, args: &[Float]) -> Ordering {
    raw2(out, &args[0], &args[1], mpfr::remainder)
}

/// `remquo(x, y)`'s quotient n (MPFR keeps its low bits and sign, more than the 7 the spec
/// requires); 0 where the remainder is NaN ("returns a NaN and 0 in quo if ...").
pub fn remquo_quotient(out: &mut Float, args: &[Float]) -> Ordering {
    let (x, y) = (&args[0], &args[1]);
    if x.is_nan() || y.is_nan() || x.is_infinite() || y.is_zero() {
        return assign_integer(out, Some(0));
    }
    let mut remainder = Float::new(x.prec().max(y.prec()));
    let mut quotient: std::os::raw::c_long = 0;
    // SAFETY: live operands; MPFR writes the quotient's low bits into `quotient`.
    unsafe {
        mpfr::remquo(
            remainder.as_raw_mut(),
            &mut quotient,
            x.as_raw(),
            y.as_raw(),
            mpfr::rnd_t::RNDN,
        )
    };
    assign_integer(out, Some(quotient as i64))
}

/// `nextafter(x, y)`: the next value of the format after x toward y (y if x == y).
pub fn nextafter(out: &mut Float, args: &[Float]) -> Ordering {
    let element = format_of(out);
    out.assign(nextafter_value(args[0].to_f64(), args[1].to_f64(), element));
    Ordering::Equal
}

/// The next value of `element` after x toward y (y if x == y), from the encoding.
pub fn nextafter_value(x: f64, y: f64, element: FloatType) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        y
    } else {
        let bits = element.to_bits(x);
        let sign_bit = 1u64 << (element.bits() - 1);
        let magnitude = bits & !sign_bit;
        let toward_larger_magnitude = (y > x) == (x >= 0.0);
        let next = if magnitude == 0 {
            // From ±0 to the smallest subnormal with y's sign.
            if y > x {
                1
            } else {
                sign_bit | 1
            }
        } else if toward_larger_magnitude {
            bits + 1
        } else {
            bits - 1
        };
        element.from_bits(next)
    }
}

/// `sincos(x)`'s sine and cosine are `sin` and `cos`; `nan(nancode)` is a NaN.
pub fn nan(out: &mut Float, _args: &[Float]) -> Ordering {
    assign_nan(out)
}

#[cfg(test)]
mod output_tests {
    use super::*;

    fn cr(function: ReferenceFn, args: &[f64], element: FloatType) -> f64 {
        correctly_rounded_value(function, args, element)
    }

    #[test]
    fn integer_argument_functions() {
        assert_eq!(cr(ldexp, &[1.5, 3.0], FloatType::Float), 12.0);
        assert_eq!(
            cr(ldexp, &[1.0, -149.0], FloatType::Float),
            f64::from(f32::from_bits(1))
        );
        assert_eq!(cr(ldexp, &[1.0, 128.0], FloatType::Float), f64::INFINITY);
        assert_eq!(cr(pown, &[f64::NAN, 0.0], FloatType::Float), 1.0);
        assert_eq!(cr(pown, &[-0.0, -3.0], FloatType::Float), f64::NEG_INFINITY);
        assert_eq!(cr(rootn, &[27.0, 3.0], FloatType::Float), 3.0);
        assert!(cr(rootn, &[-16.0, 2.0], FloatType::Float).is_nan());
        assert!(cr(rootn, &[5.0, 0.0], FloatType::Float).is_nan());
    }

    /// rootnf's estimate rounds to MPFR's correctly rounded float at the ends of the float
    /// range, at exact roots and at the int range's ends (where log2|x|/n is largest and
    /// smallest), both signs.
    #[test]
    fn rootnf_is_mpfrs_correctly_rounded_float() {
        let mut xs = vec![
            f64::from(f32::from_bits(1)),
            f64::from(f32::from_bits(0x7f7f_ffff)),
            f64::from(f32::MIN_POSITIVE),
            1.0,
            27.0,
            0.125,
            2f64.powi(-148),
            3.0f64.powi(15),
            1.0 + 2f64.powi(-23),
        ];
        // A spread of float bit patterns.
        xs.extend((1..4000u32).map(|k| f64::from(f32::from_bits(k.wrapping_mul(535_157)))));
        let mut decided = 0;
        for x in xs.iter().flat_map(|x| [*x, -*x]).filter(|x| x.is_finite()) {
            for n in [
                2.0,
                -2.0,
                3.0,
                -3.0,
                7.0,
                -8.0,
                1.0,
                -1.0,
                24.0,
                2147483647.0,
                -2147483648.0,
            ] {
                let args = [x, n];
                let expected = cr(rootn, &args, FloatType::Float);
                let got = fast::rootnf(&args);
                assert!(
                    got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan()),
                    "rootn({x:e}, {n}): {got:e}, MPFR {expected:e}"
                );
                decided += 1;
            }
        }
        assert!(decided > 80_000, "{decided}");
    }

    /// Integer outputs are read at high precision: a 24-bit float cannot hold INT_MAX.
    fn exact(function: ReferenceFn, args: &[f64]) -> f64 {
        let args: Vec<Float> = args.iter().map(|x| operand(*x)).collect();
        high_precision(function, &args, FloatType::Float).to_f64()
    }

    #[test]
    fn integer_outputs() {
        assert_eq!(cr(ilogb, &[10.0], FloatType::Float), 3.0);
        assert_eq!(exact(ilogb, &[f64::INFINITY]), f64::from(i32::MAX));
        assert!(cr(ilogb, &[0.0], FloatType::Float).is_nan());
        assert_eq!(cr(frexp_mantissa, &[12.0], FloatType::Float), 0.75);
        assert_eq!(cr(frexp_exponent, &[12.0], FloatType::Float), 4.0);
        assert_eq!(cr(frexp_exponent, &[f64::INFINITY], FloatType::Float), 0.0);
        assert_eq!(
            cr(
                frexp_mantissa,
                &[f64::from(f32::from_bits(1))],
                FloatType::Float
            ),
            0.5
        );
        assert_eq!(
            cr(
                frexp_exponent,
                &[f64::from(f32::from_bits(1))],
                FloatType::Float
            ),
            -148.0
        );
        assert_eq!(cr(lgamma_sign, &[-0.5], FloatType::Float), -1.0);
        assert!(cr(lgamma_sign, &[-2.0], FloatType::Float).is_nan());
        assert!(cr(lgamma_sign, &[-0.0], FloatType::Float).is_nan());
        assert_eq!(cr(lgamma_sign, &[3.5], FloatType::Float), 1.0);
        assert_eq!(cr(remquo_quotient, &[7.0, 2.0], FloatType::Float), 4.0); // 3.5 → 4 (even)
        assert_eq!(cr(remquo_remainder, &[7.0, 2.0], FloatType::Float), -1.0);
        assert_eq!(cr(remquo_quotient, &[-9.0, 2.0], FloatType::Float), -4.0);
        assert_eq!(cr(remquo_quotient, &[1.0, 0.0], FloatType::Float), 0.0);
    }

    #[test]
    fn fraction_functions_follow_the_spec() {
        assert_eq!(cr(modf_fraction, &[-2.5], FloatType::Float), -0.5);
        assert!(cr(modf_fraction, &[-2.0], FloatType::Float).is_sign_negative());
        assert!(cr(modf_fraction, &[f64::NEG_INFINITY], FloatType::Float).is_sign_negative());
        assert_eq!(cr(fract, &[-2.25], FloatType::Float), 0.75);
        // The largest float below -1 has x - floor(x) rounding to 1: capped below 1.
        let tiny_negative = -f64::from(f32::from_bits(1));
        assert_eq!(
            cr(fract, &[tiny_negative], FloatType::Float),
            f64::from(1.0f32 - f32::EPSILON / 2.0)
        );
        assert!(cr(fract, &[-0.0], FloatType::Float).is_sign_negative());
        assert_eq!(cr(fract, &[f64::INFINITY], FloatType::Float), 0.0);
    }

    #[test]
    fn nextafter_steps_by_the_format_spacing() {
        let min_sub = f64::from(f32::from_bits(1));
        assert_eq!(cr(nextafter, &[0.0, 1.0], FloatType::Float), min_sub);
        assert_eq!(cr(nextafter, &[-0.0, 1.0], FloatType::Float), min_sub);
        assert_eq!(cr(nextafter, &[0.0, -1.0], FloatType::Float), -min_sub);
        assert_eq!(
            cr(nextafter, &[1.0, 2.0], FloatType::Float),
            1.0 + 2f64.powi(-23)
        );
        assert_eq!(
            cr(nextafter, &[1.0, 0.0], FloatType::Float),
            1.0 - 2f64.powi(-24)
        );
        assert_eq!(
            cr(nextafter, &[-1.0, 0.0], FloatType::Float),
            -(1.0 - 2f64.powi(-24))
        );
        assert_eq!(
            cr(nextafter, &[1.0, 2.0], FloatType::Half),
            1.0 + 2f64.powi(-10)
        );
        assert_eq!(cr(nextafter, &[2.0, 2.0], FloatType::Double), 2.0);
        // Under high precision the same format spacing applies.
        let args = [operand(1.0), operand(2.0)];
        assert_eq!(
            high_precision(nextafter, &args, FloatType::Float).to_f64(),
            1.0 + 2f64.powi(-23)
        );
    }
}
