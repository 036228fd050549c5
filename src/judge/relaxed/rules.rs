//! A unit's [`Rules`] under a Table 5 rule (`-cl-fast-relaxed-math`): the fast verdict where a
//! distance decides, and MPFR's with the flush-to-zero alternatives.

use crate::judge::allowance::flushed_alternatives;
use crate::judge::relaxed::{Derived, ErrorUnit, FastBounds, RelaxedOutcome};
use crate::judge::tiers::{side_of, FastReference, FastRule, FastState};
use crate::judge::{to_floats, Rules};
use crate::num::fp::FloatType;
use crate::reference::{self, binding};
use crate::report::stats::{Allowance, FastVerdict, Outcome};
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::relaxed_table::RelaxedRule;
use rug::float::Round;
use rug::Float;

impl Rules {
    /// A Table 5 rule's verdict where it needs no more than a distance to the exact value
    /// ([`RelaxedRule::fast_bounds`]), on a round-to-nearest float device, for a function of
    /// one output:
    /// - an infinite or NaN result where the arguments are finite and the exact value is NaN,
    ///   infinite or rounds to an infinity: `Undefined`, whatever the rule, because
    ///   `-cl-fast-relaxed-math` implies `-cl-finite-math-only` ([`Rules::judge_exactly_with`]
    ///   overrides the rule's verdict there, and MPFR's distance from such a result is 0 or
    ///   infinite, no error the error map holds), as [`Rules::finite_math_verdict`] decides
    ///   it. Relaxed pow's inputs whose y·log2(x) lies past 128 are a tenth of its sweep;
    /// - an `undefined` piece: `Undefined`, as MPFR's path decides it before any reference;
    /// - a piece with an unbounded alternative (or a derived formula proven to bound
    ///   nothing), where the correctly rounded double (the fast tier) is finite, so the exact
    ///   value is, and the result is no NaN (which a derived formula's unbounded range
    ///   refuses): `Undefined`;
    /// - ULP bounds, where the arguments are finite and the double is at most the largest
    ///   float in magnitude (so it is neither NaN nor infinite, and the exact value does not
    ///   round to an infinity, which `-cl-finite-math-only` leaves undefined), and beside them
    ///   derived formulas proven never to make the result undefined
    ///   ([`crate::judge::relaxed::Derived`]): the double tier's verdict under the largest of
    ///   the bounds ([`Rules::output_verdict`], [`Rules::near_verdict`] against rootn's near
    ///   approximation), a pass whose error is exact to 2^-28 ulp and
    ///   clear of the bound, a failure as clear beyond it where no allowance can apply and the
    ///   formulas' proven spans refuse the result too, or MPFR;
    /// - absolute bounds alone, under the same guards and for a finite result: a pass where
    ///   |result − double| plus the double's own error (half a double ulp) and the
    ///   subtraction's rounding stays within the largest bound, so the exact distance does
    ///   ([`FastVerdict::AbsolutePass`], with the double's distance).
    ///
    /// Any other result goes to MPFR, which also applies the flush-to-zero alternatives to
    /// it.
    pub(in crate::judge) fn relaxed_verdict(
        &self,
        rule: &RelaxedRule,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        let ([output], [device_result]) = (self.outputs.as_slice(), device_results) else {
            return None;
        };
        if self.element != FloatType::Float
            || self.rounding != Round::Nearest
            || output.check != OutputCheck::Table
        {
            return None;
        }
        if self.finite_math_only
            && !device_result.is_finite()
            && args.iter().all(|x| x.is_finite())
            && self.exact_results_finite(reference, args) == Some(false)
        {
            return Some(FastVerdict::Undefined);
        }
        let bounds = reference.relaxed_bounds(rule, args, self.embedded)?;
        if bounds == FastBounds::Undefined {
            return Some(FastVerdict::Undefined);
        }
        // rootn's double is its near approximation (within 2^-51 of the exact value, NaN
        // exactly where it is).
        let fast = binding::fast_tier(output);
        let double = fast.or_else(|| binding::near_tier(output))?;
        if !args.iter().all(|x| x.is_finite()) {
            return None;
        }
        if reference.state == FastState::Unknown {
            self.fill_fast_reference(args, reference);
        }
        if reference.state == FastState::Absent {
            return None;
        }
        let values = &mut reference.values[0];
        let approximation = *values.approximation.get_or_insert_with(|| double(args));
        let in_range = approximation.abs() <= self.element.max_finite();
        match bounds {
            FastBounds::Unconstrained if approximation.is_finite() && !device_result.is_nan() => {
                Some(FastVerdict::Undefined)
            }
            FastBounds::Within { bound, derived } if in_range => {
                let verdict = |bound, fails_beyond| {
                    let rule = FastRule {
                        bound,
                        correctly_rounded: false,
                        measured: false,
                        fails_beyond,
                    };
                    match fast {
                        Some(fast) => self.double_tier_verdict(
                            output,
                            fast,
                            args,
                            approximation,
                            *device_result,
                            rule,
                        ),
                        None => {
                            let side = |power| side_of(output, args, power);
                            self.near_verdict(approximation, *device_result, rule, side)
                        }
                    }
                };
                // A derived formula may accept a result beyond the bound, with the same error.
                let fails_beyond = self.failure_is_final(args, *device_result)
                    && derived.refuses(*device_result, approximation);
                verdict(bound, fails_beyond).or_else(|| {
                    // Every derived range proven finite (an unstated one may not be).
                    let accepted = matches!(derived, Derived::Within(..))
                        && device_result.is_finite()
                        && rule.derived_accepts(args, self.embedded, *device_result, approximation);
                    accepted.then(|| verdict(f64::INFINITY, false)).flatten()
                })
            }
            FastBounds::Absolute(bound)
                if fast.is_some() && in_range && device_result.is_finite() =>
            {
                let distance = (device_result - approximation).abs();
                // At least half a double ulp of the approximation, the most it is from the
                // exact value; the subtraction's rounding is the factor.
                let half_ulp = (approximation.abs() * 2f64.powi(-53)).max(2f64.powi(-1074));
                ((distance + half_ulp) * (1.0 + f64::EPSILON) <= bound)
                    .then_some(FastVerdict::AbsolutePass(distance))
            }
            _ => None,
        }
    }

    /// A Table 5 rule's verdict, with the flush-to-zero alternatives on devices without
    /// denormals (the rule itself already applies 002's overflow allowance).
    pub(in crate::judge) fn judge_relaxed(
        &self,
        rule: &RelaxedRule,
        output: &Output,
        args: &[f64],
        reference: &Float,
        device_result: f64,
    ) -> (Outcome, f64, bool) {
        let (outcome, error, unit) = match rule.judge_knowing(
            args,
            Some(reference),
            device_result,
            self.element,
            self.embedded,
            self.rounding,
        ) {
            RelaxedOutcome::Pass { error, unit } => (Outcome::Pass, error, unit),
            RelaxedOutcome::Fail { error, unit } => (Outcome::Fail, error, unit),
            RelaxedOutcome::Undefined => return (Outcome::Undefined, 0.0, false),
        };
        let absolute = unit == ErrorUnit::Absolute;
        if outcome == Outcome::Pass || !self.flushes_subnormals {
            return (outcome, error, absolute);
        }
        // `exact`: the reference at `operands` where the caller has it (the unflushed args).
        let rule_passes = |operands: &[f64], exact: Option<&Float>, result: f64| {
            matches!(
                rule.judge_knowing(
                    operands,
                    exact,
                    result,
                    self.element,
                    self.embedded,
                    self.rounding
                ),
                RelaxedOutcome::Pass { .. }
            )
        };
        if device_result == 0.0
            && self.conforming_result_may_be_subnormal(reference, |r| {
                rule_passes(args, Some(reference), r)
            })
        {
            return (Outcome::Allowed(Allowance::FlushedResult), error, absolute);
        }
        let flushed_passes = flushed_alternatives(args, self.element).any(|flushed| {
            rule_passes(&flushed, None, device_result)
                || (device_result == 0.0 && {
                    let operands = to_floats(&flushed);
                    let exact = reference::high_precision(
                        binding::mpfr(output.reference),
                        &operands,
                        self.element,
                    );
                    self.conforming_result_may_be_subnormal(&exact, |r| {
                        rule_passes(&flushed, Some(&exact), r)
                    })
                })
        });
        if flushed_passes {
            return (
                Outcome::Allowed(Allowance::FlushedOperands),
                error,
                absolute,
            );
        }
        (outcome, error, absolute)
    }
}
