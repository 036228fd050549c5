//! The exact tier: functions whose exact value the host computes as a double (frexp, modf,
//! fdim, ...), and remquo without MPFR.

use crate::judge::tiers::{combine, FastRule};
use crate::judge::{exact_output_matches, Rules};
use crate::num::fp::FloatType;
use crate::reference::binding;
use crate::reference::exact::ExactColumnFn;
use crate::report::stats::FastVerdict;
use crate::spec::registry::OutputCheck;

impl Rules {
    /// [`Rules::exact_fns`] over columns: per output, the column version of its exact
    /// function ([`binding::exact_column`], the same values) and whether the output is an
    /// integer, where a sweep decides the rows' inputs in bulk by their exact values.
    pub fn exact_columns(&self) -> Option<Vec<(ExactColumnFn, bool)>> {
        let fns = self.exact_fns()?;
        self.outputs
            .iter()
            .zip(fns)
            .map(|(output, (_, integer))| Some((binding::exact_column(output.reference)?, integer)))
            .collect()
    }

    /// The exact tier ([`crate::reference::exact`]), for a function whose every output has an
    /// exact host version: `Some(verdict)` decides the input (`Some(None)` sends it to MPFR),
    /// `None` where the function has no exact tier or the host declines this input (then the
    /// fast tiers judge it, where the function has them).
    ///
    /// A table output whose device result is the exact value `v` has error 0, as MPFR
    /// measures it (`same_result`). Where `v` (a double) is not a value of the format (a half
    /// or float result: a fraction with more bits, a result past the largest finite value or
    /// below the subnormal spacing), the error of any result is known exactly: `v` *is* the
    /// exact value, so its binade is the spec's and `ulp_error_of_value` measures against it
    /// with a single rounding (2^-53 relative). The rule is applied as [`Rules::output_verdict`]
    /// applies it: the correctly rounded result (`v` rounded once to the format) passes, an
    /// infinity there by the overflow rule; another result passes a ULP cell only with its
    /// error below the bound by more than that rounding. An integer output passes where it is
    /// equal or unspecified (NaN). Anything else, every failure included, goes to MPFR.
    ///
    /// `known` is a one-output function's exact value where the caller has it (see
    /// [`FastReference::clear_knowing_exact`]).
    pub(in crate::judge) fn exact_verdict(
        &self,
        args: &[f64],
        device_results: &[f64],
        rule: FastRule,
        known: Option<Option<f64>>,
    ) -> Option<Option<FastVerdict>> {
        if !self
            .outputs
            .iter()
            .all(|output| binding::exact(output.reference).is_some())
        {
            return None;
        }
        let mut verdict = None;
        for (output, device_result) in self.outputs.iter().zip(device_results) {
            let exact = binding::exact(output.reference).expect("checked above");
            let value = match known {
                Some(known) if self.outputs.len() == 1 => known,
                _ => exact(args, self.element),
            }?;
            let integer = output.check == OutputCheck::Integer;
            let one = match output.check {
                OutputCheck::Table | OutputCheck::Integer
                    if exact_output_matches(*device_result, value, integer) =>
                {
                    FastVerdict::Pass(0.0)
                }
                OutputCheck::Table => match self.inexact_verdict(value, *device_result, rule) {
                    Some(one) => one,
                    None => return Some(None),
                },
                OutputCheck::Integer | OutputCheck::QuotientLowBits => return Some(None),
            };
            verdict = match combine(verdict, one) {
                Some(verdict) => verdict,
                None => return Some(None),
            };
        }
        Some(verdict)
    }

    /// [`Rules::exact_verdict`]'s rule for a device result that differs from the exact value
    /// `exact`, where `exact` is no value of the format (the result is then inexact).
    fn inexact_verdict(
        &self,
        exact: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        let rounded = self.element.round(exact);
        if self.element == FloatType::Double
            || !exact.is_finite()
            || rounded == exact
            || device_result.is_nan()
        {
            return None;
        }
        if device_result == rounded {
            if rounded.is_infinite() {
                return Some(rule.overflow());
            }
        } else if rule.correctly_rounded || device_result.is_infinite() {
            return None;
        }
        let error = crate::num::ulp::ulp_error_of_value(device_result, exact, self.element);
        (device_result == rounded || error <= rule.bound * (1.0 - f64::EPSILON))
            .then_some(FastVerdict::Pass(error))
    }

    /// remquo without MPFR, for finite x and non-zero finite y (every format):
    /// - fmod is exact (its result is representable), so m = fmod(|x|, 128|y|) is |x| less a
    ///   multiple 128k|y| of 128|y|, where 128|y| is finite;
    /// - the IEEE remainder is exact too: r = remainder(m, |y|) = m − n0|y| with n0 = m/|y|
    ///   rounded to nearest even, n0 <= 128; |x|/|y| = 128k + m/|y| rounds to 128k + n0 (the
    ///   tie rule sees the same parity), so remquo's remainder is sign(x)·r and its quotient
    ///   agrees with sign(x)sign(y)·n0 in its low 7 bits;
    /// - n0 = (m − r)/|y| is an integer <= 128 computed with a relative error under 2^-50, so
    ///   rounding it to the nearest integer recovers it.
    ///
    /// Passes where the device's remainder is that value and its quotient meets the rule of
    /// `quotient_matches` (at most 7 bits); everything else goes to MPFR.
    pub(in crate::judge) fn remquo_verdict(
        &self,
        args: &[f64],
        device_results: &[f64],
        quotient_bits: u32,
    ) -> Option<FastVerdict> {
        let quotient_output = self
            .outputs
            .iter()
            .position(|o| o.check == OutputCheck::QuotientLowBits)?;
        let (&[x, y, ..], &[device_remainder, device_quotient]) = (args, device_results) else {
            return None;
        };
        if quotient_output != 1 || quotient_bits > 7 {
            return None;
        }
        let modulus = 1i64 << quotient_bits;
        if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
            // remquo "returns a NaN and 0 in quo" (`reference::remquo_quotient`): a quotient
            // whose low bits are all zero matches 0, of either sign (a NaN argument is one
            // random half in 32).
            let zero_low_bits = (device_quotient as i64) % modulus == 0;
            return (device_remainder.is_nan() && zero_low_bits).then_some(FastVerdict::Pass(0.0));
        }
        // x is finite and y non-zero here; an infinite y makes the period infinite.
        let period = 128.0 * y.abs();
        if !period.is_finite() {
            return None;
        }
        let m = x.abs() % period;
        let r = crate::reference::exact::ieee_remainder(m, y.abs());
        let n0 = ((m - r) / y.abs()).round() as i64;
        let remainder = if x.is_sign_negative() { -r } else { r };
        let negative_quotient = x.is_sign_negative() != y.is_sign_negative();
        remquo_passes(
            remainder,
            n0,
            negative_quotient,
            modulus,
            device_remainder,
            device_quotient,
        )
        .then_some(FastVerdict::Pass(0.0))
    }
}

/// [`Rules::remquo_verdict`]'s pass at finite `x` and non-zero finite `y`, whose remquo
/// remainder is `remainder` and whose quotient has the magnitude `n` modulo a multiple of
/// `modulus` (`2^quotient_bits`, at most 128), negative where `negative_quotient`: the
/// device's remainder equals it and its quotient meets the rule of `quotient_matches`.
#[inline(always)]
pub(in crate::judge) fn remquo_passes(
    remainder: f64,
    n: i64,
    negative_quotient: bool,
    modulus: i64,
    device_remainder: f64,
    device_quotient: f64,
) -> bool {
    let expected_low = n % modulus;
    let got = device_quotient as i64;
    let same_low_bits = got.abs() % modulus == expected_low;
    // As in `quotient_matches`: a quotient whose low bits are all zero may carry either
    // sign; otherwise the signs agree (got is non-zero here, its low bits being non-zero).
    let same_sign = expected_low == 0 || (got < 0) == negative_quotient;
    device_remainder == remainder && same_low_bits && same_sign
}
