//! The one ULP-error measure clacc uses everywhere.
//!
//! The OpenCL SPIR-V Environment Specification, "Relative Error as ULPs"
//! (003_606d5394990817d6.txt) defines:
//!
//! > If x is a real number that lies between two finite consecutive floating-point numbers a and
//! > b, without being equal to one of them, then ulp(x) = |b − a|, otherwise ulp(x) is the
//! > distance between the two non-equal finite floating-point numbers nearest x. Moreover,
//! > ulp(NaN) is NaN.
//!
//! and "The reference value used to compute the ULP value is the infinitely precise result."
//! The error of a device result d against the exact result x is therefore |d − x| / ulp(x),
//! with ulp taken at the *exact* value. Consequences worked out in [`ulp_of`]:
//! - inside a binade [2^e, 2^(e+1)) of normal numbers ulp(x) = 2^(e − p + 1);
//! - at an exact power of two the nearest non-equal neighbour is the one below, so ulp(2^e) is
//!   the smaller gap 2^(e − p) (except at the smallest normal, where the gap below is the
//!   subnormal spacing, which is the same);
//! - among subnormals, and at zero, ulp is the smallest subnormal 2^(emin − p + 1);
//! - beyond the largest finite value (and for an infinite x) the two nearest finite numbers are
//!   the largest finite value and its predecessor, so ulp is the top binade's gap.

use crate::num::exact_sum::{Exact, Moved};
use crate::num::fp::FloatType;
use gmp_mpfr_sys::mpfr;
use rug::Float;
use std::cmp::Ordering;

/// ulp(x) of an exact value for the format `element`, per the spec's definition (module docs).
/// Every such ulp is a power of two that an `f64` holds exactly; ulp(NaN) is NaN.
pub fn ulp_of(exact: &Float, element: FloatType) -> f64 {
    if exact.is_nan() {
        return f64::NAN;
    }
    let precision = element.precision() as i32;
    let smallest_gap = element.emin() - precision + 1;
    let top_gap = element.emax() - precision + 1;
    if exact.is_zero() {
        return pow2(smallest_gap);
    }
    if exact.is_infinite() {
        return pow2(top_gap);
    }
    // MPFR's exponent puts |x| in [2^(exp-1), 2^exp).
    let binade = exact
        .get_exp()
        .expect("finite non-zero value has an exponent")
        - 1;
    if binade > element.emax() {
        return pow2(top_gap);
    }
    let gap = binade.max(element.emin()) - precision + 1;
    if binade > element.emin() && is_power_of_two(exact, binade) {
        return pow2(gap - 1);
    }
    pow2(gap)
}

/// The error of `device_result` against the infinitely precise `reference`, in ulp of the
/// format `element`: |device_result − reference| / ulp(reference).
///
/// Values where the spec's formula has no number are decided here, once:
/// - both NaN: 0; exactly one NaN: infinite (a NaN where a number is due, or the reverse);
/// - an infinite reference: 0 for the same infinity, otherwise infinite;
/// - an infinite device result against a finite reference: infinite. Whether the spec's
///   overflow allowance accepts it anyway is the judge's decision, not a distance.
///
/// Zeros compare by value here (−0 and +0 are 0 ulp apart); the sign of zero is checked
/// bit-exactly by the edge-case rules, where the spec prescribes it.
pub fn ulp_error(device_result: f64, reference: &Float, element: FloatType) -> f64 {
    match (device_result.is_nan(), reference.is_nan()) {
        (true, true) => return 0.0,
        (true, false) | (false, true) => return f64::INFINITY,
        (false, false) => {}
    }
    if reference.is_infinite() {
        let same = device_result.is_infinite()
            && device_result.is_sign_negative() == reference.is_sign_negative();
        return if same { 0.0 } else { f64::INFINITY };
    }
    if device_result.is_infinite() {
        return f64::INFINITY;
    }
    let ulp = ulp_of(reference, element);
    // MPFR rounds the exact difference once, so 64 bits give the error to 2^-64 relative
    // whatever the exponents; dividing by a power of two is exact.
    let mut difference = Float::with_val(64, device_result);
    difference -= reference;
    difference.abs_mut();
    difference /= ulp;
    difference.to_f64()
}

/// [`ulp_error`] against a reference held as an `f64` (the fast tier's correctly rounded double
/// value), for half and float results. The same definition: the reference's binade and ulp
/// are those of [`ulp_of`]; the caller keeps to normal, non-power-of-two references, where the
/// double's rounding cannot move the exact value across a binade boundary, and everything
/// else goes to MPFR.
pub fn ulp_error_of_value(device_result: f64, reference: f64, element: FloatType) -> f64 {
    debug_assert!(
        element != FloatType::Double,
        "a double reference is not exact enough for double"
    );
    if device_result.is_nan()
        || reference.is_nan()
        || device_result.is_infinite()
        || reference.is_infinite()
    {
        return ulp_error(device_result, &Float::with_val(53, reference), element);
    }
    // The binade of a normal double is its biased exponent field.
    let binade = ((reference.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let precision = element.precision() as i32;
    let ulp = if reference == 0.0 {
        pow2(element.emin() - precision + 1)
    } else if binade > element.emax() {
        pow2(element.emax() - precision + 1)
    } else {
        let gap = binade.max(element.emin()) - precision + 1;
        let power_of_two = crate::num::fp::fraction_is_zero(reference);
        pow2(if binade > element.emin() && power_of_two {
            gap - 1
        } else {
            gap
        })
    };
    (device_result - reference).abs() / ulp
}

/// [`ulp_error`] where the exact value x is a sum of doubles (`exact`, its value) and the reference is x
/// rounded to nearest at `working_precision` bits, as MPFR's correctly rounded reference is:
/// the same number, bit for bit, without MPFR. The steps are `ulp_error`'s own roundings in
/// integer arithmetic ([`crate::num::exact_sum`]): the reference x' = RN(x) at the working
/// precision, ulp(x') by [`ulp_of`]'s rules, |r − x'| rounded to nearest at 64 bits, divided by
/// that power of two, rounded to nearest double.
///
/// `None` (MPFR decides) where those roundings are not the ones `ulp_error` makes: a result
/// that is not finite; an x' that rounded down onto a power of two (the reference then stands
/// just beyond it: `reference::high_precision`); an error that is not a normal double.
pub fn ulp_error_of_sum(
    device_result: f64,
    exact: Exact,
    working_precision: u32,
    element: FloatType,
) -> Option<f64> {
    if !device_result.is_finite() {
        return None;
    }
    let mut reference = exact;
    let moved = reference.round_to(working_precision);
    if moved == Moved::Down && reference.is_power_of_two() {
        return None;
    }
    let precision = element.precision() as i32;
    let gap = match reference.binade() {
        None => element.emin() - precision + 1,
        Some(binade) if binade > element.emax() => element.emax() - precision + 1,
        Some(binade) => {
            let gap = binade.max(element.emin()) - precision + 1;
            if binade > element.emin() && reference.is_power_of_two() {
                gap - 1
            } else {
                gap
            }
        }
    };
    let difference = reference.minus_from(device_result);
    let (significand, exponent) = difference.nearest_64();
    crate::num::exact_sum::nearest_normal_double(significand, exponent - gap)
}

/// 2^exponent, built from its encoding: f64 holds 2^-1074 .. 2^1023 exactly, and every ulp of
/// half, float and double lies there.
fn pow2(exponent: i32) -> f64 {
    debug_assert!((-1074..=1023).contains(&exponent));
    if exponent >= -1022 {
        f64::from_bits(((exponent + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (exponent + 1074))
    }
}

/// Whether |x| == 2^binade exactly.
pub fn is_power_of_two(x: &Float, binade: i32) -> bool {
    let magnitude = x.as_abs();
    // SAFETY: `magnitude` borrows a valid, initialised mpfr value for the duration of the call.
    let order = unsafe { mpfr::cmp_ui_2exp(magnitude.as_raw(), 1, binade.into()) };
    order.cmp(&0) == Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(value: f64) -> Float {
        Float::with_val(200, value)
    }

    fn two_to(exponent: i32) -> f64 {
        pow2(exponent)
    }

    #[test]
    fn ulp_inside_a_binade_is_the_binade_gap() {
        assert_eq!(ulp_of(&exact(1.5), FloatType::Float), two_to(-23));
        assert_eq!(ulp_of(&exact(3.0), FloatType::Float), two_to(-22));
        assert_eq!(ulp_of(&exact(1.5), FloatType::Half), two_to(-10));
        assert_eq!(ulp_of(&exact(1.5), FloatType::Double), two_to(-52));
        // A value strictly between two floats: 1 + 2^-30 lies in (1, 1 + 2^-23).
        assert_eq!(
            ulp_of(&exact(1.0 + two_to(-30)), FloatType::Float),
            two_to(-23)
        );
        // Negative values mirror positive ones.
        assert_eq!(ulp_of(&exact(-1.5), FloatType::Float), two_to(-23));
    }

    #[test]
    fn ulp_at_a_power_of_two_is_the_smaller_gap_below() {
        assert_eq!(ulp_of(&exact(1.0), FloatType::Float), two_to(-24));
        assert_eq!(ulp_of(&exact(-4.0), FloatType::Float), two_to(-22));
        assert_eq!(ulp_of(&exact(1.0), FloatType::Half), two_to(-11));
        assert_eq!(ulp_of(&exact(1.0), FloatType::Double), two_to(-53));
        // Just above a power of two the gap is the binade's own.
        assert_eq!(
            ulp_of(&exact(1.0 + two_to(-40)), FloatType::Float),
            two_to(-23)
        );
        // The smallest normal: the gap below is the subnormal spacing, equal to the one above.
        assert_eq!(ulp_of(&exact(two_to(-126)), FloatType::Float), two_to(-149));
    }

    #[test]
    fn ulp_at_zero_and_among_subnormals_is_the_smallest_subnormal() {
        assert_eq!(ulp_of(&exact(0.0), FloatType::Float), two_to(-149));
        assert_eq!(ulp_of(&exact(-0.0), FloatType::Float), two_to(-149));
        assert_eq!(ulp_of(&exact(two_to(-140)), FloatType::Float), two_to(-149));
        assert_eq!(ulp_of(&exact(two_to(-160)), FloatType::Float), two_to(-149));
        assert_eq!(ulp_of(&exact(0.0), FloatType::Half), two_to(-24));
        assert_eq!(ulp_of(&exact(0.0), FloatType::Double), two_to(-1074));
    }

    #[test]
    fn ulp_near_and_beyond_the_largest_finite_value_is_the_top_gap() {
        let float_max = f32::MAX as f64;
        assert_eq!(ulp_of(&exact(float_max), FloatType::Float), two_to(104));
        // Between FLT_MAX and 2^128: no finite float above, so the two nearest finite ones.
        let beyond = Float::with_val(200, float_max) + Float::with_val(200, two_to(103));
        assert_eq!(ulp_of(&beyond, FloatType::Float), two_to(104));
        assert_eq!(ulp_of(&exact(two_to(128)), FloatType::Float), two_to(104));
        assert_eq!(ulp_of(&exact(two_to(500)), FloatType::Float), two_to(104));
        assert_eq!(ulp_of(&exact(65504.0), FloatType::Half), two_to(5));
        assert_eq!(ulp_of(&exact(f64::MAX), FloatType::Double), two_to(971));
        assert_eq!(
            ulp_of(&Float::with_val(53, f64::INFINITY), FloatType::Double),
            two_to(971)
        );
    }

    #[test]
    fn the_f64_form_agrees_with_the_mpfr_form() {
        let samples = [
            1.0, 1.5, -3.75, 1.0e-30, 6.0e-39, 3.0e38, 65504.0, 0.0, 1.0e-7, -2.5e-5,
        ];
        for element in [FloatType::Half, FloatType::Float] {
            for reference in samples {
                for device in [
                    reference * (1.0 + 1e-3),
                    reference + 1e-40,
                    0.0,
                    element.max_finite(),
                ] {
                    let mpfr = ulp_error(device, &exact(reference), element);
                    let fast = ulp_error_of_value(device, reference, element);
                    assert!(
                        (mpfr - fast).abs() <= 1e-12 * mpfr.max(1.0),
                        "{element} {device} {reference}: {mpfr} {fast}"
                    );
                }
            }
        }
    }

    #[test]
    fn powers_of_two_are_exact_across_the_double_range() {
        for exponent in -1074..=1023 {
            let mut expected = Float::with_val(2, 1);
            expected <<= exponent;
            assert_eq!(pow2(exponent), expected.to_f64(), "2^{exponent}");
        }
    }

    #[test]
    fn ulp_of_nan_is_nan() {
        assert!(ulp_of(&Float::with_val(53, f64::NAN), FloatType::Float).is_nan());
    }

    #[test]
    fn error_is_distance_over_ulp_of_the_exact_value() {
        // exact = 1 + 2^-25 (a quarter ulp above 1 in float); device returns 1 + 2^-23.
        let reference = exact(1.0 + two_to(-25));
        let device_result = 1.0 + two_to(-23);
        assert_eq!(ulp_error(device_result, &reference, FloatType::Float), 0.75);
        // Below a power of two the ulp is the smaller gap: exact 1, device 1 - 2^-24 = 1 ulp.
        assert_eq!(
            ulp_error(1.0 - two_to(-24), &exact(1.0), FloatType::Float),
            1.0
        );
        // The same distance above 1 counts as 1 ulp too (ulp taken at the exact value).
        assert_eq!(
            ulp_error(1.0 + two_to(-24), &exact(1.0), FloatType::Float),
            1.0
        );
        assert_eq!(ulp_error(1.0, &exact(1.0), FloatType::Float), 0.0);
        // Near zero: 3 subnormals away from an exact 0.
        assert_eq!(
            ulp_error(3.0 * two_to(-149), &exact(0.0), FloatType::Float),
            3.0
        );
        // Beyond FLT_MAX: exact 2^128, device FLT_MAX is 2^104 away = 1 ulp of the top gap.
        assert_eq!(
            ulp_error(f32::MAX as f64, &exact(two_to(128)), FloatType::Float),
            1.0
        );
    }

    #[test]
    fn error_with_nan_and_infinities_is_decided_explicitly() {
        let nan = Float::with_val(53, f64::NAN);
        let inf = Float::with_val(53, f64::INFINITY);
        assert_eq!(ulp_error(f64::NAN, &nan, FloatType::Float), 0.0);
        assert_eq!(ulp_error(1.0, &nan, FloatType::Float), f64::INFINITY);
        assert_eq!(
            ulp_error(f64::NAN, &exact(1.0), FloatType::Float),
            f64::INFINITY
        );
        assert_eq!(ulp_error(f64::INFINITY, &inf, FloatType::Float), 0.0);
        assert_eq!(
            ulp_error(f64::NEG_INFINITY, &inf, FloatType::Float),
            f64::INFINITY
        );
        assert_eq!(
            ulp_error(f32::MAX as f64, &inf, FloatType::Float),
            f64::INFINITY
        );
        assert_eq!(
            ulp_error(f64::INFINITY, &exact(1.0), FloatType::Float),
            f64::INFINITY
        );
        assert_eq!(ulp_error(-0.0, &exact(0.0), FloatType::Float), 0.0);
    }

    /// Every finite half value in increasing order, -0 left out (it equals +0).
    fn all_finite_halves() -> Vec<f64> {
        let mut values: Vec<f64> = (0u16..=0xffff)
            .filter(|bits| bits & 0x7c00 != 0x7c00 && *bits != 0x8000)
            .map(|bits| {
                let magnitude = bits & 0x7fff;
                let exponent = (magnitude >> 10) as i32;
                let fraction = (magnitude & 0x3ff) as f64;
                let value = if exponent == 0 {
                    fraction * two_to(-24)
                } else {
                    (1024.0 + fraction) * two_to(exponent - 25)
                };
                if bits & 0x8000 != 0 {
                    -value
                } else {
                    value
                }
            })
            .collect();
        values.sort_by(f64::total_cmp);
        values
    }

    /// The definition read literally, by brute force over the sorted finite halves: the minimal
    /// distance between non-equal finite a <= x <= b, or else (beyond the range) the distance
    /// between the two finite numbers nearest x.
    fn oracle_ulp(x: f64, halves: &[f64]) -> f64 {
        let not_above = halves.partition_point(|h| *h <= x);
        let below = not_above.checked_sub(1);
        let first_at_or_above = halves.partition_point(|h| *h < x);
        let above = (first_at_or_above < halves.len()).then_some(first_at_or_above);
        match (below, above) {
            (Some(i), Some(j)) if i == j => {
                // x is itself a half: pair it with either neighbour, keep the smaller distance.
                let left = if i > 0 {
                    x - halves[i - 1]
                } else {
                    f64::INFINITY
                };
                let right = if i + 1 < halves.len() {
                    halves[i + 1] - x
                } else {
                    f64::INFINITY
                };
                left.min(right)
            }
            (Some(i), Some(j)) => halves[j] - halves[i],
            (Some(i), None) => halves[i] - halves[i - 1],
            (None, Some(j)) => halves[j + 1] - halves[j],
            (None, None) => unreachable!("the half list is not empty"),
        }
    }

    #[test]
    fn ulp_of_matches_brute_force_definition_on_every_half_and_midpoint() {
        let halves = all_finite_halves();
        let mut checked = 0;
        for pair in halves.windows(2) {
            let midpoint = (pair[0] + pair[1]) / 2.0;
            let quarter = pair[0] + (pair[1] - pair[0]) / 4.0;
            for x in [pair[0], midpoint, quarter] {
                assert_eq!(
                    ulp_of(&exact(x), FloatType::Half),
                    oracle_ulp(x, &halves),
                    "ulp({x:e}) for half"
                );
                checked += 1;
            }
        }
        for x in [65504.0, 65520.0, 65536.0, 1.0e6, -65519.0, -1.0e9] {
            assert_eq!(
                ulp_of(&exact(x), FloatType::Half),
                oracle_ulp(x, &halves),
                "ulp({x})"
            );
        }
        assert!(checked > 3 * 63000);
    }

    /// `ulp_error_of_sum` gives `ulp_error`'s number against MPFR's reference (the exact sum
    /// rounded at 170 bits), for sums of two to six doubles and results at, beside and far from
    /// the nearest double, in half a million cases; it declines almost none.
    #[test]
    fn errors_of_sums_are_mpfr_s_bit_for_bit() {
        let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut next = move || draws.next_bits();
        let (mut decided, mut declined) = (0, 0);
        for case in 0..500_000 {
            let count = 2 + next() % 5;
            let scale = (next() % 64) as i32 - 32;
            let terms: Vec<f64> = (0..count)
                .map(|k| {
                    let value = match next() % 5 {
                        0 => f64::from_bits(next() & !(0x7ffu64 << 52) | (next() % 2047) << 52),
                        1 => f64::from_bits(next() % (1 << 58)),
                        _ => {
                            let unit = f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12);
                            unit * crate::num::fp::pow2(scale - 53 * k as i32)
                        }
                    };
                    if next() % 2 == 0 {
                        -value
                    } else {
                        value
                    }
                })
                .filter(|v| v.is_finite())
                .collect();
            let mut sum = crate::num::exact_sum::ExactSum::default();
            let mut wide = Float::with_val(2300, 0);
            for term in &terms {
                sum.add(*term);
                wide += term;
            }
            let reference = Float::with_val(170, &wide);
            let nearest = reference.to_f64();
            if !nearest.is_finite() {
                continue;
            }
            let result = match case % 6 {
                0 | 1 => nearest,
                2 => nearest.next_up(),
                3 => nearest.next_down(),
                4 => f64::from_bits(nearest.to_bits() ^ (next() % 64)),
                _ => f64::from_bits(next()),
            };
            if !result.is_finite() {
                continue;
            }
            match ulp_error_of_sum(result, sum.value(), 170, FloatType::Double) {
                Some(error) => {
                    assert_eq!(
                        error.to_bits(),
                        ulp_error(result, &reference, FloatType::Double).to_bits(),
                        "{result:e} against {terms:?}"
                    );
                    decided += 1;
                }
                None => declined += 1,
            }
        }
        assert!(
            declined * 100 < decided,
            "{declined} declined, {decided} decided"
        );
    }
}
