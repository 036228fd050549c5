//! The exact tier: functions whose result is a value the host computes exactly in binary64
//! for half, float and double arguments (every half and float value is a double), so no MPFR
//! is needed where the device returned that value. Each returns `Some(value)` only where
//! `value` *is* the exact result of its MPFR reference (sign of zero and NaN included; an
//! integer output's NaN is its "unspecified"), `None` where the host cannot prove it (then MPFR
//! decides). A device result equal to it has error 0, as MPFR measures it.
//!
//! Why the host is exact, per function (IEEE 754 binary64, round to nearest, which Rust's
//! floating-point operations are):
//! - ceil, floor, trunc, round, rint: the integer a value rounds to has no more significant
//!   bits than the value itself (a value of magnitude >= 2^52 is an integer already), so it is
//!   representable; Rust's `ceil`, `floor`, `trunc`, `round` (half away from zero, C's round)
//!   and `round_ties_even` (rint in round to nearest) are the IEEE roundToIntegral operations.
//! - fabs, copysign, fmax, fmin, maxmag, minmag, fclamp, step, sign: selections of an operand
//!   or a constant, only bits moved.
//! - fmod and remainder: the remainder x − n·y is representable (IEEE 754 §5.3.1: remainder is
//!   exact), and Rust's `%` on f64 is C's fmod (LLVM `frem`), `remainder` libm's.
//! - frexp, logb, ilogb: fields of the encoding (a subnormal double is first scaled by 2^64,
//!   exactly).
//! - ldexp: a multiplication by a power of two is exact unless the result overflows or loses
//!   bits below the subnormal range; the result `y` is returned only where scaling it back by
//!   2^-k (a scaling away from the underflow, exact) gives x again, so y = x·2^k exactly.
//! - modf: x − trunc(x) is exact (Sterbenz: trunc(x) is 0 or lies in [x/2, x] for |x| >= 1).
//! - fdim: x − y rounded to nearest is returned only where its rounding error, which 2Sum
//!   computes exactly without overflow (Knuth, TAOCP 4.2.2), is zero.
//! - fract: x − floor(x), exact where 2Sum says so, capped as the reference caps it
//!   ([`fract`] says why the inexact differences are all capped).
//! - nextafter: a neighbour in the format's own encoding, [`super::nextafter_value`], the very
//!   value the MPFR reference writes.
//!
//! The exact value is a double, not necessarily a value of the format (a float fraction with
//! more than 24 bits, an ldexp past float's range): the judge then measures any result's error
//! against it exactly.

use crate::num::fp::{pow2, two_sum, FloatType};

/// An exact reference on the host: the exact result of the function of `args` where the host
/// proves it is exact (`None` elsewhere), for results in `element`.
pub type ExactFn = fn(&[f64], FloatType) -> Option<f64>;

/// An exact reference over a column of inputs (a sweep's slice), as its [`ExactFn`] gives it
/// input by input: `values[k]` is input k's exact value, except where `declined[k]` (the
/// [`ExactFn`]'s `None`: the host declines), where `values[k]` is a NaN that stands for
/// nothing. Plain columns, not one `Option` an input: their comparisons with the device's
/// results vectorize.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExactColumn {
    pub values: Vec<f64>,
    pub declined: Vec<bool>,
    /// Whether any input is declined (only ldexp's and fdim's are).
    pub any_declined: bool,
}

impl ExactColumn {
    /// Input `k`'s exact value, `None` where the host declined it (as the [`ExactFn`] says).
    #[inline]
    pub fn value(&self, k: usize) -> Option<f64> {
        (!self.declined[k]).then(|| self.values[k])
    }

    /// The positions of the declined inputs, in order.
    pub fn declined_positions(&self) -> impl Iterator<Item = usize> + '_ {
        let declined = if self.any_declined {
            self.declined.as_slice()
        } else {
            &[]
        };
        declined
            .iter()
            .enumerate()
            .filter(|(_, declined)| **declined)
            .map(|(k, _)| k)
    }
}

/// An [`ExactFn`] over columns: fills `out` with the exact values of the inputs whose
/// arguments are `arguments` (one column per argument, all of one length), for results in
/// `element` ([`column`] of the [`ExactFn`], so the same values by construction).
pub type ExactColumnFn = fn(arguments: &[&[f64]], element: FloatType, out: &mut ExactColumn);

/// The [`ExactColumn`] of `exact`, a function of as many arguments as `arguments` holds
/// columns (1 to 3), over `arguments` into `out`, in one loop that inlines `exact` (no call
/// through a pointer per input) compiled for the widest vectors this CPU has. Its `None` is a flag and a NaN, not a branch, so that the
/// loop vectorizes wherever `exact`'s own branches are selects (fdim's; ldexp's [`scale`] has
/// no loop for that reason).
#[inline(always)]
pub fn column(
    arguments: &[&[f64]],
    element: FloatType,
    out: &mut ExactColumn,
    exact: impl Fn(&[f64], FloatType) -> Option<f64>,
) {
    let length = arguments.first().map_or(0, |column| column.len());
    let ExactColumn {
        values,
        declined,
        any_declined,
    } = out;
    values.clear();
    values.resize(length, 0.0);
    declined.clear();
    declined.resize(length, false);
    let lane = |args: &[f64], value: &mut f64, declined: &mut bool| {
        let exact = exact(args, element);
        *value = exact.unwrap_or(f64::NAN);
        *declined = exact.is_none();
        exact.is_none()
    };
    *any_declined = crate::num::wide::widest(
        #[inline(always)]
        || {
            let mut any = false;
            let lanes = values.iter_mut().zip(declined.iter_mut());
            match arguments {
                [x] => {
                    for ((value, declined), x) in lanes.zip(*x) {
                        any |= lane(&[*x], value, declined);
                    }
                }
                [x, y] => {
                    for (((value, declined), x), y) in lanes.zip(*x).zip(&y[..length]) {
                        any |= lane(&[*x, *y], value, declined);
                    }
                }
                [x, y, z] => {
                    let lanes = lanes.zip(*x).zip(&y[..length]).zip(&z[..length]);
                    for ((((value, declined), x), y), z) in lanes {
                        any |= lane(&[*x, *y, *z], value, declined);
                    }
                }
                _ => panic!("an exact function of {} arguments", arguments.len()),
            }
            any
        },
    );
}

/// `ceil(x)`.
#[inline]
pub fn ceil(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].ceil())
}

/// `floor(x)`.
#[inline]
pub fn floor(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].floor())
}

/// `trunc(x)`.
#[inline]
pub fn trunc(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].trunc())
}

/// `round(x)`: halfway cases away from zero.
#[inline]
pub fn round(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].round())
}

/// `rint(x)`: halfway cases to even (round to nearest).
#[inline]
pub fn rint(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].round_ties_even())
}

/// `fabs(x)`.
#[inline]
pub fn fabs(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].abs())
}

/// `copysign(x, y)`: a NaN y's sign bit counts, as in MPFR.
#[inline]
pub fn copysign(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0].copysign(args[1]))
}

/// `fmod(x, y)`.
#[inline]
pub fn fmod(args: &[f64], _: FloatType) -> Option<f64> {
    Some(args[0] % args[1])
}

/// IEEE 754 remainder (C's `remainder`): x − n·y with n = x/y rounded to nearest even.
pub fn ieee_remainder(x: f64, y: f64) -> f64 {
    extern "C" {
        fn remainder(x: f64, y: f64) -> f64;
    }
    // SAFETY: the C library's pure function of two doubles (libm, which std links).
    unsafe { remainder(x, y) }
}

/// `remainder(x, y)`. A zero remainder has x's sign (IEEE 754 §5.3.1, MPFR), which glibc's
/// `remainder` does not always give (−0 for some positive x with a subnormal y).
#[inline]
pub fn remainder(args: &[f64], _: FloatType) -> Option<f64> {
    let value = ieee_remainder(args[0], args[1]);
    Some(if value == 0.0 {
        0f64.copysign(args[0])
    } else {
        value
    })
}

/// `(m, e)` with |x| = m·2^e, m in [0.5, 1), for finite non-zero x.
#[inline]
fn split(x: f64) -> (f64, i32) {
    let (scaled, offset) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(64), 64)
    } else {
        (x, 0)
    };
    let bits = scaled.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    // The same sign and fraction with the biased exponent of [0.5, 1).
    let mantissa = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (mantissa, biased - 1022 - offset)
}

/// `frexp(x)`'s mantissa: x itself for 0, ±inf and NaN.
#[inline]
pub fn frexp_mantissa(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    Some(if x.is_finite() && x != 0.0 {
        split(x).0
    } else {
        x
    })
}

/// `frexp(x)`'s exponent: 0 for 0, ±inf and NaN.
#[inline]
pub fn frexp_exponent(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    Some(if x.is_finite() && x != 0.0 {
        f64::from(split(x).1)
    } else {
        0.0
    })
}

/// `logb(x)`: floor(log2|x|); −inf at 0, +inf at ±inf.
#[inline]
pub fn logb(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    Some(if x.is_nan() {
        x
    } else if x.is_infinite() {
        f64::INFINITY
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        f64::from(split(x).1 - 1)
    })
}

/// `ilogb(x)`: INT_MAX at ±inf, unspecified (NaN) at 0 and NaN.
#[inline]
pub fn ilogb(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    Some(if x.is_infinite() {
        f64::from(i32::MAX)
    } else if x.is_nan() || x == 0.0 {
        f64::NAN
    } else {
        f64::from(split(x).1 - 1)
    })
}

/// x·2^k for an integer |k| <= 2200, in three steps of k's sign, each factor a normal power of
/// two (|k|/3 and about half the rest: at most 734), with no loop and no integer division (a
/// column of ldexp vectorizes; k's parts are small integers, exact in f64). Each step is exact
/// where x·2^k is a double: the partial products lie between x and x·2^k in magnitude, and
/// scaling toward x·2^k drops no bit that x·2^k keeps. Where it is no double, [`ldexp`]
/// declines whatever the steps (module docs), so the split does not change what it decides.
#[inline]
fn scale(x: f64, k: f64) -> f64 {
    let first = (k / 3.0).trunc();
    let second = ((k - first) * 0.5).trunc();
    let third = k - first - second;
    // 2^part by its biased exponent part + 1023 (289 to 1757), read from the low bits of
    // 2^52 + part + 1023, a sum that is exact (no conversion to an integer, which the
    // compiler does not vectorize): shifted into the exponent field, the rest shifted out.
    let factor = |part: f64| f64::from_bits((part + (1023.0 + 2f64.powi(52))).to_bits() << 52);
    x * factor(first) * factor(second) * factor(third)
}

/// `ldexp(x, k)`, where x·2^k is a double (module docs).
#[inline]
pub fn ldexp(args: &[f64], _: FloatType) -> Option<f64> {
    let (x, k) = (args[0], args[1]);
    if !x.is_finite() || x == 0.0 {
        return Some(x);
    }
    // Beyond ±2200 every finite non-zero double over- or underflows.
    if k.fract() != 0.0 || k.abs() > 2200.0 {
        return None;
    }
    let y = scale(x, k);
    (y.is_finite() && scale(y, -k) == x).then_some(y)
}

/// `modf(x)`'s fractional part: x − trunc(x) with x's sign; ±0 for ±inf.
#[inline]
pub fn modf_fraction(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    if x.is_nan() {
        return Some(x);
    }
    if x.is_infinite() {
        return Some(0f64.copysign(x));
    }
    let fraction = x - x.trunc();
    Some(if fraction == 0.0 {
        0f64.copysign(x)
    } else {
        fraction
    })
}

/// The selection rule of [`super::fmax`] and [`super::fmin`]: a NaN operand is ignored.
#[inline]
fn select_ignoring_nan(x: f64, y: f64, prefer_x: fn(f64, f64) -> bool) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => f64::NAN,
        (true, false) => y,
        (false, true) => x,
        (false, false) if prefer_x(x, y) => x,
        (false, false) => y,
    }
}

#[inline]
fn larger(x: f64, y: f64) -> f64 {
    select_ignoring_nan(x, y, |x, y| x > y || (x == y && x.is_sign_positive()))
}

#[inline]
fn smaller(x: f64, y: f64) -> f64 {
    select_ignoring_nan(x, y, |x, y| x < y || (x == y && x.is_sign_negative()))
}

/// `fmax(x, y)`.
#[inline]
pub fn fmax(args: &[f64], _: FloatType) -> Option<f64> {
    Some(larger(args[0], args[1]))
}

/// `fmin(x, y)`.
#[inline]
pub fn fmin(args: &[f64], _: FloatType) -> Option<f64> {
    Some(smaller(args[0], args[1]))
}

/// `maxmag(x, y)`: the larger magnitude, otherwise fmax.
#[inline]
pub fn maxmag(args: &[f64], _: FloatType) -> Option<f64> {
    let (x, y) = (args[0], args[1]);
    Some(match x.abs().partial_cmp(&y.abs()) {
        Some(std::cmp::Ordering::Greater) => x,
        Some(std::cmp::Ordering::Less) => y,
        _ => larger(x, y),
    })
}

/// `minmag(x, y)`: the smaller magnitude, otherwise fmin.
#[inline]
pub fn minmag(args: &[f64], _: FloatType) -> Option<f64> {
    let (x, y) = (args[0], args[1]);
    Some(match x.abs().partial_cmp(&y.abs()) {
        Some(std::cmp::Ordering::Less) => x,
        Some(std::cmp::Ordering::Greater) => y,
        _ => smaller(x, y),
    })
}

/// `fclamp(x, minval, maxval)` = fmin(fmax(x, minval), maxval).
#[inline]
pub fn fclamp(args: &[f64], _: FloatType) -> Option<f64> {
    Some(smaller(larger(args[0], args[1]), args[2]))
}

/// `step(edge, x)`: 0 if x < edge, else 1.
#[inline]
pub fn step(args: &[f64], _: FloatType) -> Option<f64> {
    Some(if args[1] < args[0] { 0.0 } else { 1.0 })
}

/// `sign(x)`: ±1, x itself for ±0, 0 for NaN.
#[inline]
pub fn sign(args: &[f64], _: FloatType) -> Option<f64> {
    let x = args[0];
    Some(if x.is_nan() {
        0.0
    } else if x == 0.0 {
        x
    } else {
        1f64.copysign(x)
    })
}

/// `fdim(x, y)`: x − y where x > y and the difference is a double, +0 where x <= y.
#[inline]
pub fn fdim(args: &[f64], _: FloatType) -> Option<f64> {
    let (x, y) = (args[0], args[1]);
    if x.is_nan() || y.is_nan() {
        return Some(f64::NAN);
    }
    if x <= y {
        return Some(0.0);
    }
    let difference = x - y;
    if x.is_infinite() || y.is_infinite() {
        // inf − finite, finite − (−inf), inf − (−inf): an exact infinity.
        return Some(difference);
    }
    if !difference.is_finite() {
        return None;
    }
    (two_sum(x, -y).1 == 0.0).then_some(difference)
}

/// `fract(x)`: x − floor(x) capped at the largest value below 1 (1 − 2^-p in `element`), as
/// the MPFR reference writes it; ±0 for ±0 and ±inf. The difference is exact where 2Sum says
/// so: the cap applies as to the exact value. It is inexact only for x in (−1, 0) with bits
/// below 2^-53 (elsewhere Sterbenz's lemma holds: floor(x) lies in [x/2, x] or [2x, x]), where
/// the exact value 1 + x is capped for x >= −2^-p (1 + x >= 1 − 2^-p): for a half or float x
/// always (|x| < 2^-29), for a double x in [−2^-53, 0) (a negative double of a random sweep
/// is that tiny nearly half the time). Below, a double's 1 + x is no double: `None`.
#[inline]
pub fn fract(args: &[f64], element: FloatType) -> Option<f64> {
    let x = args[0];
    if x.is_nan() {
        return Some(x);
    }
    if x.is_infinite() || x == 0.0 {
        return Some(0f64.copysign(x));
    }
    let gap_below_one = pow2(-(element.precision() as i32));
    let below_one = 1.0 - gap_below_one;
    let floor = x.floor();
    let fraction = x - floor;
    if two_sum(x, -floor).1 == 0.0 {
        Some(fraction.min(below_one))
    } else {
        (x >= -gap_below_one).then_some(below_one)
    }
}

/// `nan(nancode)`: a quiet NaN whatever the code (any NaN encoding is that NaN).
#[inline]
pub fn nan(_: &[f64], _: FloatType) -> Option<f64> {
    Some(f64::NAN)
}

/// `nextafter(x, y)` in `element`'s encoding.
#[inline]
pub fn nextafter(args: &[f64], element: FloatType) -> Option<f64> {
    Some(super::nextafter_value(args[0], args[1], element))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{binding, operand, working_precision};
    use crate::spec::reference_id::ReferenceId as Id;
    use rug::Float;
    use std::cmp::Ordering;

    /// Every exact function, its float arguments and whether an integer `k` follows them.
    const EXACT: &[(Id, usize, bool)] = &[
        (Id::Ceil, 1, false),
        (Id::Copysign, 2, false),
        (Id::Fabs, 1, false),
        (Id::Fclamp, 3, false),
        (Id::Fdim, 2, false),
        (Id::Floor, 1, false),
        (Id::Fmax, 2, false),
        (Id::Fmin, 2, false),
        (Id::Fmod, 2, false),
        (Id::Fract, 1, false),
        (Id::FrexpExponent, 1, false),
        (Id::FrexpMantissa, 1, false),
        (Id::Ilogb, 1, false),
        (Id::Ldexp, 1, true),
        (Id::Logb, 1, false),
        (Id::Maxmag, 2, false),
        (Id::Minmag, 2, false),
        (Id::ModfFraction, 1, false),
        (Id::Nan, 1, false),
        (Id::Nextafter, 2, false),
        (Id::Remainder, 2, false),
        (Id::RemquoRemainder, 2, false),
        (Id::Rint, 1, false),
        (Id::Round, 1, false),
        (Id::Sign, 1, false),
        (Id::Step, 2, false),
        (Id::Trunc, 1, false),
    ];

    /// xorshift64*: a fixed, dependency-free stream of bit patterns.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Values of `element` that the exact functions treat specially: signed zeros,
    /// infinities, NaNs of both signs, the subnormal and normal extremes, halfway cases.
    fn specials(element: FloatType) -> Vec<f64> {
        let tiny = element.from_bits(1);
        let largest_subnormal = element.from_bits((1u64 << element.fraction_bits()) - 1);
        let smallest_normal = 2f64.powi(element.emin());
        let mut values = vec![
            0.0,
            f64::INFINITY,
            f64::NAN,
            tiny,
            largest_subnormal,
            smallest_normal,
            element.max_finite(),
            0.5,
            1.0,
            1.5,
            2.5,
            3.0,
            0.49999997,
            1e4,
        ];
        values.extend(values.clone().into_iter().map(|x| -x));
        values.into_iter().map(|x| element.round(x)).collect()
    }

    /// One argument of `element`: a special value, or a uniform bit pattern (every binade,
    /// subnormals, NaNs and infinities, so ratios of the operands from huge to tiny).
    fn argument(state: &mut u64, element: FloatType, specials: &[f64]) -> f64 {
        let draw = next(state);
        if draw.is_multiple_of(8) {
            specials[(draw >> 8) as usize % specials.len()]
        } else {
            element.from_bits((draw >> 3) & ((1u64 << (element.bits() - 1)) * 2 - 1))
        }
    }

    /// Arguments of a function of `floats` arguments of `element` and an integer `k` where
    /// `takes_k`: every pair of special values, then `count` drawn by [`argument`] (k within
    /// ±64 or ±2300, past every exponent).
    fn samples(
        state: &mut u64,
        element: FloatType,
        floats: usize,
        takes_k: bool,
        count: usize,
    ) -> Vec<Vec<f64>> {
        let specials = specials(element);
        let mut samples: Vec<Vec<f64>> = Vec::new();
        for &x in &specials {
            for &y in &specials {
                let mut args: Vec<f64> = [x, y, y].into_iter().take(floats).collect();
                if takes_k {
                    args.push(y.trunc().clamp(-2300.0, 2300.0));
                }
                if args.iter().all(|a| !a.is_nan()) || !takes_k {
                    samples.push(args);
                }
            }
        }
        for _ in 0..count {
            let mut args: Vec<f64> = (0..floats)
                .map(|_| argument(state, element, &specials))
                .collect();
            if takes_k {
                let draw = next(state);
                let span = if draw.is_multiple_of(2) { 64 } else { 2300 };
                args.push(((draw >> 1) % (2 * span + 1)) as f64 - span as f64);
            }
            samples.push(args);
        }
        samples
    }

    /// MPFR's exact value at the working precision and whether it is exact (ternary 0).
    fn mpfr_value(id: Id, args: &[f64], element: FloatType) -> (Float, Ordering) {
        let operands: Vec<Float> = args.iter().map(|x| operand(*x)).collect();
        let mut out = Float::new(working_precision(element));
        let ternary = binding::mpfr(id)(&mut out, &operands);
        (out, ternary)
    }

    /// Where the host claims an exact result it is MPFR's exact result, bit for bit (sign of
    /// zero, NaN): 100 000 sampled inputs per function and format plus every pair of special
    /// values; the host decides nearly all of them (ldexp and fdim may decline).
    #[test]
    fn exact_host_results_are_mpfr_exact_results() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for &(id, floats, takes_k) in EXACT {
            let exact = binding::exact(id).expect("listed as exact");
            for element in FloatType::ALL {
                let samples = samples(&mut state, element, floats, takes_k, 100_000);
                let mut decided = 0;
                for args in &samples {
                    let Some(value) = exact(args, element) else {
                        continue;
                    };
                    decided += 1;
                    let (expected, ternary) = mpfr_value(id, args, element);
                    // MPFR's rounding-to-integer functions return how the integer compares with
                    // x, not whether it is rounded; an integer of a format's value is exact at
                    // the working precision (more than twice the format's).
                    let exact_in_mpfr = ternary == Ordering::Equal
                        || matches!(id, Id::Ceil | Id::Floor | Id::Trunc | Id::Round | Id::Rint);
                    let same = (expected.is_nan() && value.is_nan())
                        || (exact_in_mpfr
                            && expected == value
                            && expected.is_sign_negative() == value.is_sign_negative());
                    assert!(
                        same,
                        "{id:?}({args:?}) {element}: host {value:e}, MPFR {expected} ({ternary:?})"
                    );
                }
                // ldexp's over- and underflows and fdim's inexact differences go to MPFR.
                let declines = matches!(id, Id::Ldexp | Id::Fdim);
                let share = if declines { 4 } else { 9 };
                assert!(
                    decided * 10 >= samples.len() * share,
                    "{id:?} {element}: {decided} of {}",
                    samples.len()
                );
            }
        }
    }

    /// Each exact function's column ([`binding::exact_column`]) is its scalar function input by
    /// input: the same value, bit for bit, and the same declines, over the samples of the test
    /// above (special values and random ones), at lengths that end its vectors anywhere.
    #[test]
    fn exact_columns_are_the_scalar_functions_input_by_input() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for &(id, floats, takes_k) in EXACT {
            let exact = binding::exact(id).expect("listed as exact");
            let column = binding::exact_column(id).expect("an exact function has a column");
            for element in FloatType::ALL {
                let samples = samples(&mut state, element, floats, takes_k, 20_000);
                let columns: Vec<Vec<f64>> = (0..floats + usize::from(takes_k))
                    .map(|j| samples.iter().map(|args| args[j]).collect())
                    .collect();
                let mut out = ExactColumn::default();
                for range in [0..0, 5..6, 3..70, 64..191, 0..samples.len()] {
                    let arguments: Vec<&[f64]> =
                        columns.iter().map(|c| &c[range.clone()]).collect();
                    column(&arguments, element, &mut out);
                    assert_eq!(out.values.len(), range.len(), "{id:?} {element}");
                    let mut declined = Vec::new();
                    for (k, args) in samples[range.clone()].iter().enumerate() {
                        let expected = exact(args, element);
                        assert_eq!(
                            out.value(k).map(f64::to_bits),
                            expected.map(f64::to_bits),
                            "{id:?}({args:?}) {element}"
                        );
                        if expected.is_none() {
                            declined.push(k);
                        }
                    }
                    assert_eq!(out.any_declined, !declined.is_empty(), "{id:?} {element}");
                    let positions: Vec<usize> = out.declined_positions().collect();
                    assert_eq!(positions, declined, "{id:?} {element}");
                }
            }
        }
    }

    /// Every registry function with exact outputs has their columns for its own arguments (a
    /// column takes one to three: more panics).
    #[test]
    fn exact_columns_take_the_registry_functions_arguments() {
        for function in crate::spec::registry::FUNCTIONS {
            let arguments = function.shape.signature().arguments.len();
            let column: Vec<f64> = vec![1.5, -2.0, 0.0];
            let columns = vec![column.as_slice(); arguments];
            for output in function.outputs {
                if let Some(exact_column) = binding::exact_column(output.reference) {
                    let mut out = ExactColumn::default();
                    exact_column(&columns, FloatType::Float, &mut out);
                    assert_eq!(out.values.len(), 3, "{}", function.name);
                }
            }
        }
    }

    /// ldexp at the ends of double's exponents, where [`scale`]'s three steps matter: the host
    /// gives MPFR's exact value wherever it is a double and declines where it is none.
    #[test]
    fn ldexp_at_the_exponent_extremes_is_mpfr_exact() {
        let tiny = f64::from_bits(1);
        let xs = [
            tiny,
            3.0 * tiny,
            f64::MIN_POSITIVE,
            1.5,
            f64::MAX,
            -(2f64.powi(1023)),
            -5.0 * tiny,
        ];
        let ks = [
            0.0, 1.0, 52.0, 1022.0, 1023.0, 1024.0, 1074.0, 1075.0, 1100.0, 2045.0, 2046.0, 2047.0,
            2097.0, 2098.0, 2099.0, 2200.0,
        ];
        let mut decided = 0;
        for x in xs {
            for k in ks.iter().flat_map(|k| [*k, -*k]) {
                let (expected, ternary) = mpfr_value(Id::Ldexp, &[x, k], FloatType::Double);
                let representable = ternary == Ordering::Equal
                    && expected.is_finite()
                    && expected.to_f64() == expected;
                match ldexp(&[x, k], FloatType::Double) {
                    Some(value) => {
                        decided += 1;
                        assert!(representable && value == expected, "ldexp({x:e}, {k})");
                    }
                    None => assert!(!representable, "ldexp({x:e}, {k}) declined"),
                }
            }
        }
        assert!(decided >= 80, "{decided}");
    }

    /// Every exact function a registry row uses is sampled by the test above.
    #[test]
    fn the_sample_covers_every_exact_function() {
        let mut used = 0;
        for function in crate::spec::registry::FUNCTIONS {
            for output in function.outputs {
                if binding::exact(output.reference).is_some() {
                    used += 1;
                    assert!(
                        EXACT.iter().any(|(id, _, _)| *id == output.reference),
                        "{}: {:?} is not sampled",
                        function.name,
                        output.reference
                    );
                }
            }
        }
        assert!(used >= EXACT.len(), "{used}");
    }

    #[test]
    fn inexact_ldexp_and_fdim_are_declined() {
        let tiny = f64::from_bits(1);
        // 2^-1074 · 2^-1 and 3·2^-1074 · 2^-1 round in double: not exact.
        assert_eq!(ldexp(&[tiny, -1.0], FloatType::Double), None);
        assert_eq!(ldexp(&[3.0 * tiny, -1.0], FloatType::Double), None);
        assert_eq!(ldexp(&[4.0 * tiny, -2.0], FloatType::Double), Some(tiny));
        assert_eq!(ldexp(&[f64::MAX, 1.0], FloatType::Double), None);
        assert_eq!(ldexp(&[1.5, 3.0], FloatType::Float), Some(12.0));
        // 1 − 2^-60 is no double; 3e38 − 1e-45 is no double either.
        assert_eq!(fdim(&[1.0, 2f64.powi(-60)], FloatType::Double), None);
        assert_eq!(fdim(&[f64::MAX, -f64::MAX], FloatType::Double), None);
        assert_eq!(fdim(&[3.0, 1.0], FloatType::Float), Some(2.0));
        assert_eq!(fdim(&[1.0, 3.0], FloatType::Float), Some(0.0));
    }

    #[test]
    fn fract_is_capped_below_one_in_the_format() {
        let float = FloatType::Float;
        assert_eq!(fract(&[-0.25], float), Some(0.75));
        // 1 − 2^-30 is a double, above float's cap 1 − 2^-24.
        assert_eq!(
            fract(&[-(2f64.powi(-30))], float),
            Some(1.0 - 2f64.powi(-24))
        );
        // 1 − 2^-149 is no double: capped all the same.
        assert_eq!(
            fract(&[-(2f64.powi(-149))], float),
            Some(1.0 - 2f64.powi(-24))
        );
        // A double's too: 1 − 2^-1074 and 1 − 2^-54 lie above double's cap 1 − 2^-53; 1 −
        // 2^-52 − 2^-60 lies below it and is no double.
        let double = FloatType::Double;
        for tiny in [2f64.powi(-1074), 2f64.powi(-54), 2f64.powi(-53)] {
            assert_eq!(fract(&[-tiny], double), Some(1.0 - 2f64.powi(-53)));
        }
        assert_eq!(fract(&[-(2f64.powi(-52) + 2f64.powi(-60))], double), None);
        assert_eq!(fract(&[-0.25], double), Some(0.75));
        let fraction = fract(&[-3.0], float).expect("exact");
        assert!(fraction == 0.0 && fraction.is_sign_positive());
        let zero = fract(&[f64::NEG_INFINITY], float).expect("exact");
        assert!(zero == 0.0 && zero.is_sign_negative());
    }
}
