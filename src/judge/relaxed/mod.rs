//! Judging one result under `-cl-fast-relaxed-math` by its Table 5 rule (read by
//! `crate::spec::relaxed_table`, where the cell grammar and the meaning of each alternative are
//! described): [`RelaxedRule::judge`] picks the piece whose condition holds, measures the result
//! against each alternative ([`ulp_error`], absolute error, or the interval a derived formula
//! permits, see `interval`) and gives a [`RelaxedOutcome`].
//!
//! Values without a number, decided here once:
//! - an `undefined` piece wins over everything, NaN included;
//! - otherwise a NaN exact result requires a NaN (any NaN), whatever the piece says;
//! - a derived range that may contain NaN (an operation outside its domain) or is unbounded (a
//!   pole, an operation without a bound, an infinite input reaching a finite result) permits any
//!   result: the outcome is `Undefined`, as is an x-dependent bound that is infinite;
//! - an exact result that is infinite must come back as that infinity or a value of the derived
//!   range; overflow of intermediate operations is not modelled (their ranges are real
//!   intervals), the final range gets the overflow allowance instead;
//! - inside a formula, an operation whose inputs and exact result are all among ±0, ±1, ±inf
//!   returns its exact result: ISO C Annex F prescribes those values (exp2(−inf) = +0,
//!   log(1) = +0, cos(0) = 1, ...), and "the usual allowances for rounding error" do not apply.

use std::cmp::Ordering;

use rug::float::{Constant, Round};
use rug::ops::AssignRound;
use rug::{Float, Integer};

use crate::judge::allowance::overflow_allowed;
use crate::num::fp::FloatType;
use crate::num::ulp::{ulp_error, ulp_of};
use crate::reference::{self, binding, ReferenceFn};
use crate::spec::relaxed_table::{
    catalog, Bound, Comparison, Condition, Direction, Formula, Number, Operand, OperationError,
    Parity, Piece, RelaxedRule,
};
use crate::spec::table::Requirement;

mod bounded;
mod interval;
mod rules;

use interval::*;

/// How an error is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorUnit {
    /// [`ulp_error`] against the exact result.
    Ulp,
    /// |device − exact|.
    Absolute,
}

/// The verdict on one result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RelaxedOutcome {
    Pass {
        error: f64,
        unit: ErrorUnit,
    },
    Fail {
        error: f64,
        unit: ErrorUnit,
    },
    /// The spec leaves the result undefined or unbounded for these inputs.
    Undefined,
}

/// The exact reference of `instruction`, as its Table 5 catalog row names it; `None` when no
/// rule can name it.
fn reference_of(instruction: &str) -> Option<ReferenceFn> {
    catalog(instruction).map(|entry| binding::mpfr(entry.reference))
}

// ---- Judging one result ----

/// One alternative's verdict.
enum Verdict {
    Pass(f64, ErrorUnit),
    Fail(f64, ErrorUnit),
    /// The alternative permits any result.
    Unconstrained,
    /// The alternative states no bound here: a derived formula through an operation the spec
    /// leaves unbounded for its arguments ("larger otherwise", a division outside its domain,
    /// an implementation-defined operation). Another alternative ("For non-derived
    /// implementations, the error is <= 8192 ulp") then judges.
    Unstated,
}

impl RelaxedRule {
    /// `args` are the inputs as given to the device (values of `element`), `device_result` what
    /// it returned; `embedded` selects the embedded-profile numbers where the table has them.
    ///
    /// Panics on a rule with several outputs (judge each [`RelaxedRule::output`]) and when
    /// `args` does not hold one value per parameter of the instruction.
    pub fn judge(
        &self,
        args: &[f64],
        device_result: f64,
        element: FloatType,
        embedded: bool,
    ) -> RelaxedOutcome {
        self.judge_with_rounding(args, device_result, element, embedded, Round::Nearest)
    }

    /// [`RelaxedRule::judge`] on a device whose default rounding ("Rounding Modes") is
    /// `rounding`: what a correctly rounded alternative means.
    pub fn judge_with_rounding(
        &self,
        args: &[f64],
        device_result: f64,
        element: FloatType,
        embedded: bool,
        rounding: Round,
    ) -> RelaxedOutcome {
        self.judge_knowing(args, None, device_result, element, embedded, rounding)
    }

    /// The exact reference a one-output rule measures results against: its instruction's
    /// (`None` for a rule of several outputs, or an instruction no rule can name).
    pub fn exact_reference(&self) -> Option<ReferenceFn> {
        match self {
            RelaxedRule::Pieces { instruction, .. } => reference_of(instruction),
            RelaxedRule::PerOutput { .. } => None,
        }
    }

    /// [`RelaxedRule::judge_with_rounding`] where the caller may already hold the exact result
    /// at `args`: `known`, [`reference::high_precision`]'s value of the instruction's reference
    /// (the judge's exact reference for the output, the same function at the same precision:
    /// a test checks the registry's references against this module's), computed here
    /// otherwise.
    pub fn judge_knowing(
        &self,
        args: &[f64],
        known: Option<&Float>,
        device_result: f64,
        element: FloatType,
        embedded: bool,
        rounding: Round,
    ) -> RelaxedOutcome {
        let (instruction, pieces) = match self {
            RelaxedRule::Pieces {
                instruction,
                pieces,
            } => (instruction, pieces),
            RelaxedRule::PerOutput { instruction, .. } => panic!(
                "`{instruction}` has several outputs: judge each with RelaxedRule::output(i)"
            ),
        };
        let entry = catalog(instruction).unwrap_or_else(|| panic!("unknown `{instruction}`"));
        let exact_fn = self
            .exact_reference()
            .unwrap_or_else(|| panic!("no reference for `{instruction}`"));
        assert_eq!(
            args.len(),
            entry.parameters.len(),
            "`{instruction}` takes {} argument(s)",
            entry.parameters.len()
        );
        let bounds: Vec<&Bound> = piece_at(pieces, args)
            .alternatives
            .iter()
            .map(|a| a.bound(embedded))
            .collect();
        if bounds.iter().any(|b| matches!(b, Bound::Undefined)) {
            return RelaxedOutcome::Undefined;
        }
        let operands: Vec<Float> = args.iter().map(|&a| reference::operand(a)).collect();
        let computed;
        let exact = match known {
            Some(known) => known,
            None => {
                computed = reference::high_precision(exact_fn, &operands, element);
                &computed
            }
        };
        if exact.is_nan() {
            return if device_result.is_nan() {
                RelaxedOutcome::Pass {
                    error: 0.0,
                    unit: ErrorUnit::Ulp,
                }
            } else {
                RelaxedOutcome::Fail {
                    error: f64::INFINITY,
                    unit: ErrorUnit::Ulp,
                }
            };
        }
        let mut context = Context::new(element, embedded);
        context.rounding = rounding;
        let verdicts: Vec<Verdict> = bounds
            .iter()
            .map(|bound| {
                let judged = Judged {
                    args,
                    operands: &operands,
                    exact,
                    device_result,
                    reference: exact_fn,
                    context: &context,
                };
                judged.verdict(bound)
            })
            .collect();
        if verdicts.iter().any(|v| matches!(v, Verdict::Unconstrained)) {
            return RelaxedOutcome::Undefined;
        }
        if let Some(Verdict::Pass(error, unit)) =
            verdicts.iter().find(|v| matches!(v, Verdict::Pass(..)))
        {
            return RelaxedOutcome::Pass {
                error: *error,
                unit: *unit,
            };
        }
        // The alternatives that state a bound and refuse the result decide; when none states
        // one, the spec bounds nothing here.
        match verdicts.iter().find(|v| matches!(v, Verdict::Fail(..))) {
            Some(Verdict::Fail(error, unit)) => RelaxedOutcome::Fail {
                error: *error,
                unit: *unit,
            },
            _ => RelaxedOutcome::Undefined,
        }
    }
}

/// The piece of `pieces` whose condition holds for `args`.
fn piece_at<'a>(pieces: &'a [Piece], args: &[f64]) -> &'a Piece {
    pieces
        .iter()
        .find(|p| p.condition.as_ref().is_none_or(|c| c.holds(args)))
        .expect("the last piece of a rule has no condition")
}

/// `<= base + floor(|factor * x|) ulp` at `x` (infinite where the spec bounds nothing).
fn growing_ulps(base: f64, factor: f64, x: f64) -> f64 {
    base + (factor * x).abs().floor()
}

/// What a one-output rule applies to an input where no alternative needs more than a distance
/// to the exact value ([`RelaxedRule::fast_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastBounds {
    /// An `undefined` piece: `Undefined` before any reference is computed.
    Undefined,
    /// An alternative bounds nothing (`unbounded`, an infinite x-dependent bound, a derived
    /// formula whose range module `bounded` proves anything or unbounded where no operation
    /// states no bound), or every alternative is such a formula: `Undefined` where the exact
    /// value is finite (neither NaN nor a pole's infinity, which a derived range inherits)
    /// and the result is a number (`Judged::inherited_accepts` refuses a NaN before it looks
    /// at the range).
    Unconstrained,
    /// Every alternative a ULP bound, the largest of them `bound`: each measures the same
    /// [`ulp_error`], so the first that passes passes exactly where `error <= bound` (or the
    /// overflow allowance applies), with that error. Beside them may stand `derived`
    /// formulas that cannot leave the result undefined ([`Derived`]): they accept a result
    /// only with that same error, and may accept one beyond the bound.
    Within { bound: f64, derived: Derived },
    /// Every alternative an absolute bound, in a rule whose every piece bounds absolutely or
    /// not at all (sin, cos, sinpi, cospi): each measures the same |device − exact|, rounded
    /// up, so the first that passes passes exactly where that is at most the largest bound,
    /// here the largest double at most it. Such a unit's results have no error in ulp, so its
    /// worst case is the one of largest absolute error, which MPFR judges
    /// (`crate::report::stats::FastVerdict::AbsolutePass`).
    Absolute(f64),
}

/// What the derived alternatives of a [`FastBounds::Within`] piece accept at its input, as
/// far as module `bounded` proves it in doubles. None of them leaves the result undefined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Derived {
    /// The piece has no derived alternative.
    Absent,
    /// An operation of a formula states no bound here, which MPFR's judge marks unstated: an
    /// unbounded range then judges nothing, but a bounded one still accepts its results
    /// (atan's range over an unbounded quotient, in atan2's formula).
    Unstated,
    /// The formulas' ranges lie within `[lo, hi]`, a finite span: one accepts only results
    /// within their largest distance from the exact value (the "Inherited From" range).
    Within(f64, f64),
}

impl Derived {
    /// What two derived alternatives accept together.
    fn or(self, other: Derived) -> Derived {
        match (self, other) {
            (Derived::Unstated, _) | (_, Derived::Unstated) => Derived::Unstated,
            (Derived::Within(a, b), Derived::Within(c, d)) => Derived::Within(a.min(c), b.max(d)),
            (Derived::Within(a, b), Derived::Absent) | (Derived::Absent, Derived::Within(a, b)) => {
                Derived::Within(a, b)
            }
            (Derived::Absent, Derived::Absent) => Derived::Absent,
        }
    }

    /// Whether every derived alternative refuses `device_result`, a finite value, where the
    /// exact value lies within half a double ulp of `approximation`, a finite double (or
    /// within 2^-51 of it, rootn's near approximation). MPFR's
    /// judge accepts a result within e = max(x − lo, hi − x) of the exact value x for a range
    /// within [lo, hi] (`Judged::inherited_accepts`); here e is taken from the approximation
    /// and widened by four of its double ulps and 2^-50 relative, more than x's distance and
    /// the roundings of both.
    pub fn refuses(self, device_result: f64, approximation: f64) -> bool {
        match self {
            Derived::Absent => true,
            Derived::Unstated => false,
            Derived::Within(lo, hi) => {
                let slack = 4.0 * f64::EPSILON * approximation.abs() + f64::MIN_POSITIVE;
                let reach = ((approximation - lo).max(hi - approximation) + slack)
                    * (1.0 + crate::num::fp::pow2(-50));
                (device_result - approximation).abs() > reach
            }
        }
    }
}

impl RelaxedRule {
    /// What [`RelaxedRule::judge_with_rounding`] applies to `args`, where it is a
    /// [`FastBounds`]; `None` for a rule of several outputs, where an alternative needs MPFR
    /// beyond the exact value itself (a correctly rounded result, a derived formula that
    /// module `bounded` cannot prove bounded at `args`), or where ULP and absolute bounds
    /// meet in a rule (log's), whose worst case would be a ULP one and leave the largest
    /// absolute error unconfirmed. Lets the fast tiers judge what a distance decides
    /// ([`crate::judge::Rules`]).
    pub fn fast_bounds(&self, args: &[f64], embedded: bool) -> Option<FastBounds> {
        let RelaxedRule::Pieces { pieces, .. } = self else {
            return None;
        };
        // Per input on the fast path: the alternatives are read in place, not collected.
        let piece = piece_at(pieces, args);
        let bounds = || piece.alternatives.iter().map(|a| a.bound(embedded));
        if bounds().any(|b| matches!(b, Bound::Undefined)) {
            return Some(FastBounds::Undefined);
        }
        let mut largest = None;
        let mut largest_absolute = None;
        let mut unconstrained = false;
        let mut has_derived = false;
        for bound in bounds() {
            let n = match bound {
                Bound::Ulp(n)
                | Bound::Table(Requirement::Ulp(n) | Requirement::UlpEachOutput(n)) => *n,
                Bound::UlpGrowing {
                    base,
                    factor,
                    parameter,
                    ..
                } => growing_ulps(*base, *factor, args[*parameter]),
                Bound::Unbounded => f64::INFINITY,
                Bound::Absolute(bound) => {
                    let below = bound.double_below();
                    largest_absolute = Some(largest_absolute.map_or(below, |l: f64| l.max(below)));
                    continue;
                }
                Bound::Derived(_) => {
                    has_derived = true;
                    continue;
                }
                _ => return None,
            };
            if n.is_finite() {
                largest = Some(largest.map_or(n, |l: f64| l.max(n)));
            } else {
                unconstrained = true;
            }
        }
        if unconstrained {
            return Some(FastBounds::Unconstrained);
        }
        match (largest, largest_absolute) {
            (Some(bound), None) => {
                let mut derived = Derived::Absent;
                if has_derived {
                    for bound in bounds() {
                        if let Bound::Derived(formula) = bound {
                            match bounded::derived_range(formula, args, embedded) {
                                Some(range) => derived = derived.or(range),
                                // Unconstrained: the result is undefined whatever the rest.
                                None if bounded::derived_unbounded(formula, args, embedded)
                                    == Some(true) =>
                                {
                                    return Some(FastBounds::Unconstrained);
                                }
                                None => return None,
                            }
                        }
                    }
                }
                Some(FastBounds::Within { bound, derived })
            }
            // Derived alternatives alone (tanpi beyond [-1, 1]): each unconstrained or
            // unstated, none passes or fails the result, which is undefined.
            (None, None)
                if has_derived
                    && bounds().all(|bound| {
                        matches!(bound, Bound::Derived(formula)
                            if bounded::derived_range(formula, args, embedded).is_none()
                                && bounded::derived_unbounded(formula, args, embedded).is_some())
                    }) =>
            {
                Some(FastBounds::Unconstrained)
            }
            (None, Some(bound)) if bounds_only_absolutely(pieces, embedded) => {
                Some(FastBounds::Absolute(bound))
            }
            _ => None,
        }
    }

    /// Whether a derived alternative of the piece at `args` accepts `device_result`, a finite
    /// result beyond its ULP bounds, as module `bounded` proves it ([`bounded::derived_accepts`]),
    /// where the exact value lies within half a double ulp of `approximation` (2^-51 relative,
    /// rootn's). Only where [`RelaxedRule::fast_bounds`] gave [`FastBounds::Within`] with
    /// [`Derived::Within`]: every derived alternative's range is proven finite, and none
    /// leaves the result undefined, so MPFR's judge passes it with its error.
    pub fn derived_accepts(
        &self,
        args: &[f64],
        embedded: bool,
        device_result: f64,
        approximation: f64,
    ) -> bool {
        let RelaxedRule::Pieces { pieces, .. } = self else {
            return false;
        };
        piece_at(pieces, args).alternatives.iter().any(|alternative| {
            matches!(
                alternative.bound(embedded),
                Bound::Derived(formula)
                    if bounded::derived_accepts(formula, args, embedded, device_result, approximation)
            )
        })
    }
}

/// Whether every alternative of every piece is an absolute bound, unbounded or undefined.
fn bounds_only_absolutely(pieces: &[Piece], embedded: bool) -> bool {
    pieces.iter().all(|piece| {
        piece.alternatives.iter().all(|a| {
            matches!(
                a.bound(embedded),
                Bound::Absolute(_) | Bound::Unbounded | Bound::Undefined
            )
        })
    })
}

/// One result being judged, and what every alternative needs.
struct Judged<'a> {
    args: &'a [f64],
    operands: &'a [Float],
    exact: &'a Float,
    device_result: f64,
    /// The instruction's exact reference.
    reference: ReferenceFn,
    context: &'a Context,
}

impl Judged<'_> {
    fn verdict(&self, bound: &Bound) -> Verdict {
        let element = self.context.element;
        match bound {
            Bound::Ulp(n) => self.within_ulps(*n),
            Bound::UlpGrowing {
                base,
                factor,
                parameter,
                ..
            } => {
                let n = growing_ulps(*base, *factor, self.args[*parameter]);
                if n.is_finite() {
                    self.within_ulps(n)
                } else {
                    Verdict::Unconstrained
                }
            }
            Bound::Absolute(bound) => {
                let d = self.device_result;
                let error = if d.is_finite() {
                    let mut difference = Float::with_val(self.exact.prec() + 64, d);
                    difference -= self.exact;
                    difference.abs().to_f64_round(Round::Up)
                } else {
                    f64::INFINITY
                };
                if bound.value >= error {
                    Verdict::Pass(error, ErrorUnit::Absolute)
                } else {
                    Verdict::Fail(error, ErrorUnit::Absolute)
                }
            }
            Bound::Derived(formula) => {
                let inputs: Vec<Permitted> =
                    self.args.iter().map(|&a| self.context.point(a)).collect();
                self.context.unstated.set(false);
                let range = evaluate(formula, &inputs, self.context);
                let error = ulp_error(self.device_result, self.exact, element);
                match self.inherited_accepts(range) {
                    None if self.context.unstated.get() => Verdict::Unstated,
                    None => Verdict::Unconstrained,
                    Some(true) => Verdict::Pass(error, ErrorUnit::Ulp),
                    Some(false) => Verdict::Fail(error, ErrorUnit::Ulp),
                }
            }
            Bound::FmaOrMulAdd => self.fma_or_mul_add(),
            Bound::Table(requirement) => match requirement {
                Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => self.within_ulps(*n),
                Requirement::CorrectlyRounded
                | Requirement::Exact
                | Requirement::RemquoExact { .. } => self.matches_rounded(&[self.reference]),
                Requirement::MadFmaOrMulAdd => self.fma_or_mul_add(),
                // Table 5's instructions have none of the geometric cells; nothing to bound.
                Requirement::ImplementationDefined
                | Requirement::NotApplicable
                | Requirement::UlpPerWidth(_)
                | Requirement::Absolute(_)
                | Requirement::AbsoluteMaxSquared { .. }
                | Requirement::Vulkan(_) => Verdict::Unconstrained,
            },
            Bound::Unbounded => Verdict::Unconstrained,
            Bound::Undefined => unreachable!("undefined pieces are decided before judging"),
        }
    }

    fn within_ulps(&self, n: f64) -> Verdict {
        let element = self.context.element;
        let error = ulp_error(self.device_result, self.exact, element);
        if error <= n || overflow_allowed(self.exact, n, self.device_result, element) {
            Verdict::Pass(error, ErrorUnit::Ulp)
        } else {
            Verdict::Fail(error, ErrorUnit::Ulp)
        }
    }

    fn fma_or_mul_add(&self) -> Verdict {
        self.matches_rounded(&[reference::fma, reference::mul_then_add])
    }

    /// Whether the result is one of the correctly rounded results of `functions`, in the
    /// device's default rounding.
    fn matches_rounded(&self, functions: &[ReferenceFn]) -> Verdict {
        let element = self.context.element;
        let error = ulp_error(self.device_result, self.exact, element);
        let d = self.device_result;
        let hit = functions.iter().any(|&function| {
            let expected = reference::correctly_rounded_in(
                function,
                self.operands,
                element,
                self.context.rounding,
            )
            .to_f64();
            (d.is_nan() && expected.is_nan()) || d == expected
        });
        if hit {
            Verdict::Pass(error, ErrorUnit::Ulp)
        } else {
            Verdict::Fail(error, ErrorUnit::Ulp)
        }
    }

    /// The "Inherited From" acceptance for a derived range `[Fmin, Fmax]` around the exact
    /// result x (module docs); `None` when any result is permitted.
    fn inherited_accepts(&self, range: Permitted) -> Option<bool> {
        let (low, high) = match range {
            Permitted::Anything => return None,
            Permitted::Between(low, high) => (low, high),
        };
        let d = self.device_result;
        if d.is_nan() {
            return Some(false);
        }
        let max = self.context.element.max_finite();
        let x = self.exact;
        let (low, high) = if x.is_infinite() {
            // The permitted values: the formula's range, and x itself.
            if *x == d {
                return Some(true);
            }
            (low, high)
        } else {
            if low.is_infinite() || high.is_infinite() {
                return None;
            }
            let precision = self.context.precision;
            let e = larger(up(x - &low, precision), up(&high - x, precision));
            (down(x - &e, precision), up(x + &e, precision))
        };
        let inside = low <= d && high >= d;
        let overflow = (d == f64::INFINITY || d == max) && high > max
            || (d == f64::NEG_INFINITY || d == -max) && low < -max;
        Some(inside || overflow)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod revision_tests;
