//! The double tier: one output's verdict by a correctly rounded double reference (CORE-MATH),
//! or by rootn's near approximation, including poles and overflows past double.

use crate::judge::tiers::FastRule;
use crate::judge::Rules;
use crate::num::fp::{fraction_is_zero, FloatType};
use crate::reference::{self, binding, FastFn};
use crate::report::stats::FastVerdict;
use crate::spec::registry::Output;
use std::cmp::Ordering;

/// [`crate::reference::side`]'s rule for `output`'s reference at `power`, where it has one.
pub(in crate::judge) fn side_of(output: &Output, args: &[f64], power: f64) -> Option<Ordering> {
    binding::side_tier(output)?(args, power)
}

/// The double next to `value`, away from zero.
fn away_from_zero(value: f64) -> f64 {
    if value.is_sign_negative() {
        value.next_down()
    } else {
        value.next_up()
    }
}

impl Rules {
    /// A result whose fast reference (`approximation`, correctly rounded to double) is
    /// infinite: an exact infinity, or an exact value that overflowed double, which the
    /// correctly rounded evaluation tells apart by the flag it raises
    /// ([`reference::why_infinite`]). A device result that is that infinity, on finite
    /// arguments:
    /// - at a pole is the exact value, with no error, as MPFR measures it (lgamma of a large
    ///   negative float, every one an integer, a tenth of a random sweep's inputs; tanpi at
    ///   half-integers; x/0; these went to MPFR before);
    /// - past double is the correctly rounded overflow: |exact| rounds past the largest
    ///   double, for half and float far past the format's largest finite value, for double to
    ///   infinity itself. Decided only for non-zero arguments (a zero argument is where the
    ///   poles of the functions that can overflow double lie, as tgamma(0) and pow(0, -1)).
    ///   (Double overflows, a quarter of a random sweep's exp or sinh inputs, went to MPFR
    ///   before.)
    pub(in crate::judge) fn infinite_verdict(
        &self,
        fast: FastFn,
        args: &[f64],
        approximation: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        if device_result != approximation || !args.iter().all(|x| x.is_finite()) {
            return None;
        }
        match reference::why_infinite(fast, args)? {
            reference::Infinity::Pole => Some(FastVerdict::Pass(0.0)),
            reference::Infinity::PastDouble if args.iter().all(|x| *x != 0.0) => {
                Some(rule.overflow())
            }
            reference::Infinity::PastDouble => None,
        }
    }

    /// One output's verdict by its correctly rounded double tier `fast`, whose value at `args`
    /// is `approximation`: [`Rules::infinite_verdict`] where that is infinite, else
    /// [`Rules::output_verdict`].
    pub(in crate::judge) fn double_tier_verdict(
        &self,
        output: &Output,
        fast: FastFn,
        args: &[f64],
        approximation: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        if approximation.is_infinite() {
            return self.infinite_verdict(fast, args, approximation, device_result, rule);
        }
        let side = |power| side_of(output, args, power);
        let exact = binding::double_tier_is_exact(output, self.element);
        self.output_verdict(approximation, exact, device_result, rule, side)
    }

    /// One output's fast verdict (see [`Rules::fast_verdict`]).
    ///
    /// `exact` says the approximation is the exact value itself
    /// ([`binding::double_tier_is_exact`]): a midpoint of the format then rounds to even, as
    /// any other value rounds. `side(2^k)` says where the exact value lies beside a power of
    /// two 2^k, where known ([`crate::reference::side`]).
    pub(in crate::judge) fn output_verdict(
        &self,
        approximation: f64,
        exact: bool,
        device_result: f64,
        rule: FastRule,
        side: impl Fn(f64) -> Option<Ordering>,
    ) -> Option<FastVerdict> {
        if approximation.is_nan() {
            return device_result.is_nan().then_some(FastVerdict::Pass(0.0));
        }
        if device_result.is_nan() {
            return None;
        }
        if self.element == FloatType::Double {
            return (device_result == approximation).then_some(FastVerdict::CorrectlyRounded);
        }
        if exact || !reference::is_midpoint(approximation, self.element) {
            let rounded = self.element.round(approximation);
            if device_result == rounded {
                if rounded.is_infinite() {
                    // The exact value is finite (the double is) and rounds past the largest
                    // finite value ([`FastRule::overflow`]).
                    return Some(rule.overflow());
                }
                return Some(FastVerdict::Pass(crate::num::ulp::ulp_error_of_value(
                    device_result,
                    approximation,
                    self.element,
                )));
            }
        }
        if rule.correctly_rounded || device_result.is_infinite() {
            return None;
        }
        // At ±2^k the exact value, within half a double ulp, may lie on either side, where the
        // spec's ulp differs by a factor of two: measured where the function's shape says
        // which (a double just beyond 2^k stands for a value beyond it, 2^k itself for one at
        // or within it, whose ulp is the gap below), else MPFR judges.
        let reference = if fraction_is_zero(approximation) {
            match side(approximation)? {
                Ordering::Greater => away_from_zero(approximation),
                Ordering::Equal | Ordering::Less => approximation,
            }
        } else {
            approximation
        };
        rule.clear_of_bound(crate::num::ulp::ulp_error_of_value(
            device_result,
            reference,
            self.element,
        ))
    }

    /// A half or float result against a [`binding::DoubleTier::Near`] approximation `a`
    /// (within [`reference::NEAR_ERROR`] of the exact value) in a ULP cell, where the result
    /// is not the correctly rounded one (the float version decides that): its error against
    /// `a` is the exact error to 2^-27 ulp where the exact value's binade is `a`'s (the
    /// interval a·(1 ± 2 NEAR_ERROR) lies in one binade), and passes with the margin
    /// [`Rules::output_verdict`] keeps. NaN where `a` is NaN (exactly where the exact value is)
    /// passes; everything else goes to MPFR.
    pub(in crate::judge) fn near_verdict(
        &self,
        approximation: f64,
        device_result: f64,
        rule: FastRule,
        side: impl Fn(f64) -> Option<Ordering>,
    ) -> Option<FastVerdict> {
        if self.element == FloatType::Double || rule.correctly_rounded {
            return None;
        }
        if approximation.is_nan() {
            return device_result.is_nan().then_some(FastVerdict::Pass(0.0));
        }
        if !approximation.is_finite() || approximation == 0.0 || !device_result.is_finite() {
            return None;
        }
        let binade = |value: f64| value.to_bits() >> 52 & 0x7ff;
        let width = 2.0 * reference::NEAR_ERROR;
        let upper = binade(approximation * (1.0 + width));
        let mut reference = approximation;
        if binade(approximation * (1.0 - width)) != upper {
            // The interval holds a power of two p: measured where the function's shape says
            // which side of p the exact value is on, against a value of that binade within
            // NEAR_ERROR·p of it (p itself, whose ulp is the gap below, for a value at or
            // within p).
            let power = f64::from_bits(upper << 52).copysign(approximation);
            let beyond = approximation.abs() > power.abs();
            reference = match side(power)? {
                Ordering::Greater if beyond => approximation,
                Ordering::Greater => away_from_zero(power),
                Ordering::Equal | Ordering::Less if beyond => power,
                Ordering::Equal | Ordering::Less => approximation,
            };
        }
        rule.clear_of_bound(crate::num::ulp::ulp_error_of_value(
            device_result,
            reference,
            self.element,
        ))
    }
}
