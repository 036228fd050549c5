//! A proof, in double arithmetic, that a `derived` alternative leaves no result undefined, so
//! that the fast tiers may judge a rule "derived F or <= N ulp" by its ULP bound
//! ([`RelaxedRule::fast_bounds`], [`Derived`]), and a span holding the formula's range, so
//! that they may fail a result the formula refuses too.
//!
//! [`RelaxedRule::judge`] makes a result undefined where a derived formula's range (MPFR,
//! [`interval::evaluate`]) may hold NaN or is unbounded and no operation on the way stated no
//! bound (`Verdict::Unconstrained`). Anywhere else a result within the ULP bound passes with
//! its [`ulp_error`], whichever alternative accepts it: both measure that error. Either of two
//! facts rules `Unconstrained` out, and [`derived_range`] decides each in doubles:
//! - **the range is finite.** [`Doubles::span`] follows `interval::evaluate` operation by
//!   operation and encloses each of its ranges: over argument spans that hold MPFR's ranges,
//!   every exact value is a double rounded once to nearest and then moved two steps outwards,
//!   at least half a double ulp (2^-54 relative) beyond the value, where MPFR's ends lie within
//!   2^-174 of it (its precision is 176 bits for float); where a wider span could change a
//!   decision (a condition, an extremum, a pole), the span takes the wider outcome (both
//!   pieces' alternatives, ±1, a pole), and it gives up wherever MPFR's range could be
//!   unbounded or hold NaN;
//! - **an operation states no bound.** An operation of the formula itself (MPFR evaluates
//!   every one; those of a nested rule's formula only where its piece applies) whose arguments
//!   are the inputs or constants, so the same points for MPFR, whose value there is finite
//!   and not among Annex F's exact special values, whose rule there bounds nothing (`sin`
//!   outside [-π, π]): MPFR marks the formula unstated.
//!
//! Everything else is left to MPFR. Float only, as the fast tiers judge Table 5 for float.

use super::*;
use crate::reference::{binding, fast, FastFn};

mod image;

use image::{corners, exact_span, hull, inner_image, is_point, keep_infinite, lower, upper};

/// A closed interval of doubles: finite, or [`EVERYTHING`].
type Span = (f64, f64);

/// MPFR's unbounded range (`Context::unbounded`), where a bound states nothing or a pole may
/// lie inside. Most operations make anything of it, which gives up; atan makes [-π/2, π/2]
/// of it (in atan2's formula, atan(y / x) over a quotient no bound covers), exp and exp2
/// from its lower end 0.
const EVERYTHING: Span = (f64::NEG_INFINITY, f64::INFINITY);

/// Why [`Doubles::span`] stopped.
enum Stop {
    /// No proof here: MPFR decides.
    Unknown,
    /// An operation of the formula states no bound for its arguments (module docs).
    Unstated,
    /// MPFR's range here is anything ([`Doubles::inner`]): NaN may lie in it.
    Anything,
}

/// What `formula`, a derived alternative at `args`, gives MPFR's judge where it is proven
/// (module docs): an unstated bound, or a finite span holding the formula's range; `None`
/// where MPFR's range may be unbounded or hold NaN, and so leave the result undefined.
pub(super) fn derived_range(formula: &Formula, args: &[f64], embedded: bool) -> Option<Derived> {
    if !args.iter().all(|a| a.is_finite()) {
        return None;
    }
    let inputs: Vec<Span> = args.iter().map(|&a| (a, a)).collect();
    let doubles = Doubles::new(embedded);
    match doubles.span(formula, &inputs, true) {
        Ok((lo, hi)) if lo.is_finite() && hi.is_finite() => Some(Derived::Within(lo, hi)),
        Ok(_) => None,
        Err(Stop::Unstated) => Some(Derived::Unstated),
        Err(Stop::Unknown | Stop::Anything) => None,
    }
}

/// Whether `formula`, a derived alternative at `args` whose range [`derived_range`] has proven
/// finite, makes MPFR's judge accept `device_result`, a finite value, where the exact value
/// lies within half a double ulp of `approximation` (or 2^-51 relative, rootn's near
/// approximation): there "Inherited From" accepts a result within e = max(x − lo, hi − x) of
/// the exact value x
/// (`Judged::inherited_accepts`), with the same error as a ULP bound. [`Doubles::inner`]
/// bounds lo from above and hi from below, so e from below; the distance is taken from the
/// approximation, widened as in [`Derived::refuses`].
pub(super) fn derived_accepts(
    formula: &Formula,
    args: &[f64],
    embedded: bool,
    device_result: f64,
    approximation: f64,
) -> bool {
    let points: Vec<Span> = args.iter().map(|&a| (a, a)).collect();
    let Ok((lo, hi)) = Doubles::new(embedded).inner(formula, &points, &points) else {
        return false;
    };
    if !lo.is_finite() || !hi.is_finite() {
        return false;
    }
    let slack = 4.0 * f64::EPSILON * approximation.abs() + f64::MIN_POSITIVE;
    let margin = crate::num::fp::pow2(-50);
    let reach = (approximation - lo).max(hi - approximation) * (1.0 - margin);
    ((device_result - approximation).abs() + 2.0 * slack) * (1.0 + margin) <= reach
}

/// Whether MPFR's judge finds `formula`, a derived alternative at `args` where the exact
/// value is finite, bounding nothing: its range anything or unbounded (so "Inherited From"
/// decides nothing for a result that is a number), as [`Doubles::inner`] proves it (asinh's
/// formula for x < 0, where x + sqrt(x·x + 1) may be 0; tan(x·M_PI_F) beyond π, where sin
/// states no bound; tanh's beyond 88, where exp overflows). `Some(true)` where no operation of the formula may state no bound, so the
/// alternative is unconstrained and the result undefined; `Some(false)` where it may be
/// unstated instead; `None` where nothing is proven.
pub(super) fn derived_unbounded(formula: &Formula, args: &[f64], embedded: bool) -> Option<bool> {
    if !args.iter().all(|a| a.is_finite()) {
        return None;
    }
    let doubles = Doubles::new(embedded);
    let points: Vec<Span> = args.iter().map(|&a| (a, a)).collect();
    match doubles.inner(formula, &points, &points) {
        Err(Stop::Anything) => {}
        Ok((l, h)) if l == f64::NEG_INFINITY || h == f64::INFINITY => {}
        _ => return None,
    }
    Some(!doubles.may_state_nothing.get())
}

struct Doubles {
    element: FloatType,
    embedded: bool,
    /// Set by [`Doubles::inner`] where MPFR's evaluation may reach a rule that states no
    /// bound, setting its unstated flag.
    may_state_nothing: std::cell::Cell<bool>,
}

impl Doubles {
    /// The proof for float, in the full (`embedded` false) or embedded profile.
    fn new(embedded: bool) -> Doubles {
        Doubles {
            element: FloatType::Float,
            embedded,
            may_state_nothing: std::cell::Cell::new(false),
        }
    }

    /// A span holding `interval::evaluate(formula, ...)` over input ranges within `inputs`;
    /// `top` for the formula of the alternative itself, whose every operation MPFR reaches.
    fn span(&self, formula: &Formula, inputs: &[Span], top: bool) -> Result<Span, Stop> {
        match formula {
            Formula::Parameter { index, .. } => Ok(inputs[*index]),
            Formula::Constant { value, .. } if value.is_finite() => Ok((*value, *value)),
            Formula::Constant { .. } => Err(Stop::Unknown),
            Formula::Negate(inner) => {
                let (lo, hi) = self.span(inner, inputs, top)?;
                Ok((-hi, -lo))
            }
            Formula::Operation {
                instruction,
                arguments,
                error,
            } => {
                let mut spans = Vec::with_capacity(arguments.len());
                for argument in arguments {
                    spans.push(self.overflowed(self.span(argument, inputs, top)?));
                }
                let exact = exact_span(instruction, &spans)?;
                let finite = exact.0.is_finite() && exact.1.is_finite();
                if top && finite && self.states_nothing(error, &spans) {
                    return Err(Stop::Unstated);
                }
                // MPFR returns a range unbounded on both sides as it is, no rule applied.
                if exact.0.is_infinite() && exact.1.is_infinite() {
                    return Ok(exact);
                }
                match error {
                    OperationError::Exact => Ok(exact),
                    OperationError::Table { full, embedded } => {
                        self.requirement(if self.embedded { embedded } else { full }, exact)
                    }
                    OperationError::Relaxed(rule) => self.rule(rule, &spans, exact),
                }
            }
        }
    }

    /// Bounds on MPFR's range [lo, hi] of `formula` from inside: `(l, h)` with lo <= l and
    /// h <= hi, where `outer_inputs` hold MPFR's input ranges ([`Doubles::span`]'s) and
    /// `inner_inputs` bound them so; [`Stop::Anything`] where MPFR's range is anything. The
    /// pair is no interval: where the range is a single value that no double is, l > h. The
    /// bounds hold where every range on the way is one: where one is anything, so is the
    /// formula's (`interval::permitted`, `rule_range` and `inherit` pass it on), and neither
    /// [`derived_accepts`] (which needs the range finite) nor [`derived_unbounded`] relies on
    /// them. Every operation's exact image is bounded inside
    /// ([`inner_image`]); a rule adds the pieces MPFR surely applies, and of their
    /// alternatives the widest, as MPFR's range is their hull: a ULP or correctly rounded
    /// bound widens the exact values by at least nothing, an absolute one by its bound, an
    /// unbounded one makes everything, and a derived one inherits from its formula's bounds
    /// ([`Doubles::inner_derived`]). Everything else gives up.
    fn inner(
        &self,
        formula: &Formula,
        outer_inputs: &[Span],
        inner_inputs: &[Span],
    ) -> Result<Span, Stop> {
        match formula {
            Formula::Parameter { index, .. } => Ok(inner_inputs[*index]),
            Formula::Constant { value, .. } if value.is_finite() => Ok((*value, *value)),
            Formula::Constant { .. } => Err(Stop::Unknown),
            Formula::Negate(inner) => {
                let (l, h) = self.inner(inner, outer_inputs, inner_inputs)?;
                Ok((-h, -l))
            }
            Formula::Operation {
                instruction,
                arguments,
                error,
            } => {
                let mut outer = Vec::with_capacity(arguments.len());
                let mut inner = Vec::with_capacity(arguments.len());
                for (position, argument) in arguments.iter().enumerate() {
                    // An argument that is anything makes the operation anything; MPFR still
                    // evaluates the arguments after it.
                    let bounds = self.inner(argument, outer_inputs, inner_inputs);
                    if let Err(Stop::Anything) = bounds {
                        let rest = &arguments[position + 1..];
                        self.note_unstated(rest.iter().any(|a| self.states_nothing_somewhere(a)));
                    }
                    inner.push(self.inner_overflowed(bounds?));
                    // Where no span is proven, MPFR's range lies within everything.
                    let span = self.span(argument, outer_inputs, false);
                    outer.push(span.map_or(EVERYTHING, |span| self.overflowed(span)));
                }
                let exact_outer = exact_span(instruction, &outer).ok();
                let exact_inner = inner_image(instruction, &outer, &inner)?;
                // MPFR returns the exact values alone where both ends are infinite (an
                // infinity, or everything) and at Annex F's special points
                // (`interval::prescribed`); every rule's range holds them. The rule applies
                // surely only where the exact values are proven finite and not special.
                let special = |(lo, hi): Span| {
                    [-1.0, 0.0, 1.0].iter().any(|v| lo <= *v && *v <= hi)
                        || lo.is_infinite()
                        || hi.is_infinite()
                };
                let finite = exact_outer.is_some_and(|(lo, hi)| lo.is_finite() && hi.is_finite());
                if !finite
                    || outer.iter().all(|span| special(*span))
                        && special(exact_outer.unwrap_or(EVERYTHING))
                {
                    // MPFR may apply the rule instead.
                    self.note_unstated(self.error_states_nothing(error));
                    return Ok(exact_inner);
                }
                match error {
                    OperationError::Exact => Ok(exact_inner),
                    OperationError::Table { full, embedded } => {
                        let requirement = if self.embedded { embedded } else { full };
                        self.note_unstated(self.error_states_nothing(error));
                        self.inner_requirement(requirement, exact_outer, exact_inner)
                    }
                    OperationError::Relaxed(rule) => {
                        self.inner_rule(rule, &outer, &inner, exact_outer, exact_inner)
                    }
                }
            }
        }
    }

    /// [`Doubles::inner`] of `interval::rule_range`: the first piece whose condition is not
    /// false over the arguments' spans must be true there (so it is MPFR's too, and the pieces
    /// before it false), and MPFR's range holds each of its alternatives' ranges.
    fn inner_rule(
        &self,
        rule: &RelaxedRule,
        outer: &[Span],
        inner: &[Span],
        exact_outer: Option<Span>,
        exact_inner: Span,
    ) -> Result<Span, Stop> {
        let RelaxedRule::Pieces { pieces, .. } = rule else {
            return Err(Stop::Unknown);
        };
        let mut applying = None;
        for piece in pieces {
            match piece
                .condition
                .as_ref()
                .map_or(Truth::Yes, |c| condition_over(c, outer))
            {
                Truth::No => continue,
                Truth::Yes => {
                    applying = Some(piece);
                    break;
                }
                Truth::Maybe => return Err(Stop::Unknown),
            }
        }
        let piece = applying.ok_or(Stop::Unknown)?;
        let mut widest: Option<Span> = None;
        // MPFR evaluates every alternative, after one that is anything too.
        let rest_state_nothing = |from: usize| {
            piece.alternatives[from..]
                .iter()
                .any(|a| self.alternative_states_nothing(a.bound(self.embedded)))
        };
        for (position, alternative) in piece.alternatives.iter().enumerate() {
            let bound = alternative.bound(self.embedded);
            if !matches!(bound, Bound::Derived(_)) {
                self.note_unstated(self.alternative_states_nothing(bound));
            }
            let range = match bound {
                Bound::Ulp(n) => self.inner_widen(exact_outer, exact_inner, *n)?,
                Bound::UlpGrowing {
                    base,
                    factor,
                    parameter,
                    ..
                } => {
                    // MPFR's magnitude, max(|lo|, |hi|) of its argument, is at least these.
                    let (l, h) = inner[*parameter];
                    let magnitude = (-l).max(h).max(0.0);
                    let n = base + (factor * magnitude).floor();
                    self.inner_widen(exact_outer, exact_inner, n)?
                }
                Bound::Table(requirement) => {
                    self.inner_requirement(requirement, exact_outer, exact_inner)?
                }
                Bound::Absolute(bound) => {
                    let bound = bound.double_below();
                    (
                        keep_infinite(exact_inner.0, |l| upper(l - bound))?,
                        keep_infinite(exact_inner.1, |h| lower(h + bound))?,
                    )
                }
                Bound::Unbounded => EVERYTHING,
                Bound::Derived(formula) => {
                    match self.inner_derived(formula, outer, inner, exact_outer, exact_inner) {
                        Ok(range) => range,
                        // MPFR's hull of the alternatives is anything.
                        Err(Stop::Anything) => {
                            self.note_unstated(rest_state_nothing(position + 1));
                            return Err(Stop::Anything);
                        }
                        Err(_) => {
                            self.note_unstated(self.states_nothing_somewhere(formula));
                            continue;
                        }
                    }
                }
                Bound::Undefined => {
                    self.note_unstated(rest_state_nothing(position + 1));
                    return Err(Stop::Anything);
                }
                Bound::FmaOrMulAdd => continue,
            };
            widest = Some(widest.map_or(range, |w| (w.0.min(range.0), w.1.max(range.1))));
        }
        widest.ok_or(Stop::Unknown)
    }

    /// [`Doubles::inner`] of `interval::inherit`: where the exact values and the formula's
    /// range are finite, MPFR's e is at least max(f_hi − x_lo, x_hi − f_lo), so its range
    /// reaches x_lo − e and x_hi + e; anywhere it holds both ranges.
    fn inner_derived(
        &self,
        formula: &Formula,
        outer: &[Span],
        inner: &[Span],
        exact_outer: Option<Span>,
        exact_inner: Span,
    ) -> Result<Span, Stop> {
        let formula_inner = self.inner(formula, outer, inner)?;
        let formula_outer = self.span(formula, outer, false);
        let finite = |(lo, hi): Span| lo.is_finite() && hi.is_finite();
        let hull = (
            exact_inner.0.min(formula_inner.0),
            exact_inner.1.max(formula_inner.1),
        );
        match formula_outer {
            Ok(span)
                if finite(span) && exact_outer.is_some_and(finite) && finite(formula_inner) =>
            {
                let e = lower(formula_inner.1 - exact_inner.0)?
                    .max(lower(exact_inner.1 - formula_inner.0)?)
                    .max(0.0);
                Ok((
                    upper(exact_inner.0 - e)?.min(hull.0),
                    lower(exact_inner.1 + e)?.max(hull.1),
                ))
            }
            _ => Ok(hull),
        }
    }

    /// [`Doubles::inner`] of `interval::requirement_range`: a correctly rounded bound rounds
    /// the exact values outwards, an exact one holds them, a ULP bound widens them; the
    /// bounds that are no ULP bound on one value make everything.
    fn inner_requirement(
        &self,
        requirement: &Requirement,
        exact_outer: Option<Span>,
        exact_inner: Span,
    ) -> Result<Span, Stop> {
        match requirement {
            // MPFR rounds its ends outwards to the float grid (`interval::to_grid`), which
            // moves them no less than rounding these, within the largest float.
            Requirement::CorrectlyRounded | Requirement::RemquoExact { .. } => {
                let (l, h) = exact_inner;
                Ok((
                    to_grid(l, false).unwrap_or(l),
                    to_grid(h, true).unwrap_or(h),
                ))
            }
            Requirement::Exact => Ok(exact_inner),
            Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => {
                self.inner_widen(exact_outer, exact_inner, *n)
            }
            _ => Ok(EVERYTHING),
        }
    }

    /// [`Doubles::inner`] of `interval::widen_ulps` by at least `n` ulp (MPFR's count, n or
    /// more): MPFR widens its lower end by n times the ulp of a value no smaller in magnitude
    /// than its lower end, or than min(hi, 2·lo) where lo > 0, each at least the ulp of the
    /// bound on it here (`exact_outer`'s lower end where positive, the inner bound where
    /// negative, else the smallest ulp), and its upper end likewise; every such ulp is at
    /// least half the gap of its binade.
    fn inner_widen(
        &self,
        exact_outer: Option<Span>,
        exact_inner: Span,
        n: f64,
    ) -> Result<Span, Stop> {
        if !n.is_finite() {
            return Ok(EVERYTHING);
        }
        let exact_outer = exact_outer.unwrap_or(EVERYTHING);
        // `binade` may be one too high: the gap below it, half as large again.
        let half_gap =
            |v: f64| crate::num::fp::pow2(self.binade(v) - self.element.precision() as i32 - 1);
        let (l, h) = exact_inner;
        let lower_gap = if exact_outer.0 > 0.0 {
            half_gap(exact_outer.0)
        } else if l < 0.0 {
            half_gap(l)
        } else {
            half_gap(0.0)
        };
        let upper_gap = if exact_outer.1 < 0.0 {
            half_gap(exact_outer.1)
        } else if h > 0.0 {
            half_gap(h)
        } else {
            half_gap(0.0)
        };
        Ok((
            keep_infinite(l, |l| upper(l - n * lower_gap))?,
            keep_infinite(h, |h| lower(h + n * upper_gap))?,
        ))
    }

    /// `interval::overflowed` on inner bounds: where MPFR's upper end is beyond the largest
    /// finite value (h is), it becomes +inf (or is, where the range is +inf alone), and its
    /// lower end stays at most l; the same below.
    fn inner_overflowed(&self, (mut l, mut h): Span) -> Span {
        let max = self.element.max_finite();
        if h > max {
            h = f64::INFINITY;
        }
        if l < -max {
            l = f64::NEG_INFINITY;
        }
        (l, h)
    }

    /// Whether an operation of `formula` (of its rules' derived formulas too) may state no
    /// bound wherever MPFR evaluates it, setting its unstated flag (`interval::requirement_range`,
    /// `interval::bound_range`): an unbounded or implementation-defined alternative in any
    /// piece.
    fn states_nothing_somewhere(&self, formula: &Formula) -> bool {
        match formula {
            Formula::Parameter { .. } | Formula::Constant { .. } => false,
            Formula::Negate(inner) => self.states_nothing_somewhere(inner),
            Formula::Operation {
                arguments, error, ..
            } => {
                arguments.iter().any(|a| self.states_nothing_somewhere(a))
                    || self.error_states_nothing(error)
            }
        }
    }

    /// [`Doubles::states_nothing_somewhere`] of one operation's own rule.
    fn error_states_nothing(&self, error: &OperationError) -> bool {
        match error {
            OperationError::Exact => false,
            OperationError::Table { full, embedded } => {
                requirement_states_nothing(if self.embedded { embedded } else { full })
            }
            OperationError::Relaxed(rule) => match rule.as_ref() {
                RelaxedRule::Pieces { pieces, .. } => pieces
                    .iter()
                    .flat_map(|p| &p.alternatives)
                    .any(|a| self.alternative_states_nothing(a.bound(self.embedded))),
                RelaxedRule::PerOutput { .. } => true,
            },
        }
    }

    /// [`Doubles::states_nothing_somewhere`] of one alternative.
    fn alternative_states_nothing(&self, bound: &Bound) -> bool {
        match bound {
            Bound::Unbounded => true,
            Bound::Table(requirement) => requirement_states_nothing(requirement),
            Bound::Derived(f) => self.states_nothing_somewhere(f),
            _ => false,
        }
    }

    /// Notes that MPFR's evaluation may set its unstated flag where `states` holds.
    fn note_unstated(&self, states: bool) {
        if states {
            self.may_state_nothing.set(true);
        }
    }

    /// `interval::overflowed`, the same: past the largest finite value a range becomes
    /// unbounded on that side.
    fn overflowed(&self, (mut lo, mut hi): Span) -> Span {
        let max = self.element.max_finite();
        if hi > max && lo < f64::INFINITY {
            lo = lo.min(max);
            hi = f64::INFINITY;
        }
        if lo < -max && hi > f64::NEG_INFINITY {
            hi = hi.max(-max);
            lo = f64::NEG_INFINITY;
        }
        (lo, hi)
    }

    /// Whether MPFR's `interval::permitted` reaches the rule of an operation at points whose
    /// exact value is finite (`exact_span` succeeded), and there the rule bounds nothing. It
    /// skips the rule where every argument and the value are Annex F special values.
    fn states_nothing(&self, error: &OperationError, spans: &[Span]) -> bool {
        let special = |v: f64| v == 0.0 || v.abs() == 1.0;
        if !spans.iter().all(is_point) || spans.iter().all(|s| special(s.0)) {
            return false;
        }
        match error {
            OperationError::Exact => false,
            OperationError::Table { full, embedded } => {
                requirement_states_nothing(if self.embedded { embedded } else { full })
            }
            OperationError::Relaxed(rule) => {
                let RelaxedRule::Pieces { pieces, .. } = rule.as_ref() else {
                    return false;
                };
                let points: Vec<f64> = spans.iter().map(|s| s.0).collect();
                piece_at(pieces, &points).alternatives.iter().any(|a| {
                    match a.bound(self.embedded) {
                        Bound::Unbounded => true,
                        Bound::Table(requirement) => requirement_states_nothing(requirement),
                        _ => false,
                    }
                })
            }
        }
    }

    /// `interval::requirement_range`.
    fn requirement(&self, requirement: &Requirement, exact: Span) -> Result<Span, Stop> {
        match requirement {
            Requirement::CorrectlyRounded | Requirement::RemquoExact { .. } => {
                Ok((to_grid(exact.0, false)?, to_grid(exact.1, true)?))
            }
            Requirement::Exact => Ok(exact),
            Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => self.widen(exact, *n),
            _ => Ok(EVERYTHING),
        }
    }

    /// `interval::rule_range`: the hull of the pieces that may apply. A piece MPFR's narrower
    /// arguments select is one of them (a condition true or false over a span is so over
    /// every range inside it), and the last piece always applies.
    fn rule(&self, rule: &RelaxedRule, spans: &[Span], exact: Span) -> Result<Span, Stop> {
        let RelaxedRule::Pieces { pieces, .. } = rule else {
            return Err(Stop::Unknown);
        };
        let mut result: Option<Span> = None;
        for piece in pieces {
            let applies = piece
                .condition
                .as_ref()
                .map_or(Truth::Yes, |c| condition_over(c, spans));
            if applies == Truth::No {
                continue;
            }
            for alternative in &piece.alternatives {
                let range = self.bound(alternative.bound(self.embedded), spans, exact)?;
                result = Some(result.map_or(range, |so_far| hull(so_far, range)));
            }
            if applies == Truth::Yes {
                break;
            }
        }
        result.ok_or(Stop::Unknown)
    }

    /// `interval::bound_range`.
    fn bound(&self, bound: &Bound, spans: &[Span], exact: Span) -> Result<Span, Stop> {
        match bound {
            Bound::Ulp(n) => self.widen(exact, *n),
            Bound::UlpGrowing {
                base,
                factor,
                parameter,
                ..
            } => {
                // MPFR rounds the magnitude up to a double, at most this one.
                let (lo, hi) = spans[*parameter];
                let magnitude = lo.abs().max(hi.abs());
                self.widen(exact, base + (factor * magnitude).floor())
            }
            Bound::Absolute(bound) => {
                let bound = bound.double_above();
                Ok((lower(exact.0 - bound)?, upper(exact.1 + bound)?))
            }
            Bound::Derived(formula) => inherit(exact, self.span(formula, spans, false)?),
            Bound::FmaOrMulAdd => {
                let product = corners(fast::mul, spans[0], spans[1])?;
                let product = (to_grid(product.0, false)?, to_grid(product.1, true)?);
                let sum = (
                    lower(product.0 + spans[2].0)?,
                    upper(product.1 + spans[2].1)?,
                );
                Ok((to_grid(sum.0, false)?, to_grid(sum.1, true)?))
            }
            Bound::Table(requirement) => self.requirement(requirement, exact),
            Bound::Unbounded => Ok(EVERYTHING),
            Bound::Undefined => Err(Stop::Unknown),
        }
    }

    /// `interval::widen_ulps`, by the gap of the binade of the span's largest magnitude on
    /// both sides: at least every gap MPFR takes, which lie at magnitudes no larger.
    fn widen(&self, exact: Span, n: f64) -> Result<Span, Stop> {
        if !n.is_finite() {
            return Ok(EVERYTHING);
        }
        let widest = exact.0.abs().max(exact.1.abs());
        // `binade` may be one too high: that only widens.
        let gap = crate::num::fp::pow2(self.binade(widest) - self.element.precision() as i32 + 1);
        Ok((lower(exact.0 - gap * n)?, upper(exact.1 + gap * n)?))
    }

    /// The binade of |v| in the element type (its exponent, kept within the normal range), or
    /// the one above where log2 rounds up at the top of a binade.
    fn binade(&self, v: f64) -> i32 {
        let element = self.element;
        if v == 0.0 {
            element.emin()
        } else {
            (v.abs().log2().floor() as i32).clamp(element.emin(), element.emax())
        }
    }
}

/// `Condition::over` on spans: each double end compares with a bound exactly
/// ([`Number::compare`]), as MPFR compares the same value, with no MPFR value made per input.
fn condition_over(condition: &Condition, spans: &[Span]) -> Truth {
    condition.over_ends(&|parameter| Some(spans[parameter]))
}

/// `interval::inherit` for a finite exact range.
fn inherit(exact: Span, formula: Span) -> Result<Span, Stop> {
    if exact.0.is_finite() && exact.1.is_finite() && formula == EVERYTHING {
        return Ok(EVERYTHING);
    }
    let e = upper(exact.1 - formula.0)?
        .max(upper(formula.1 - exact.0)?)
        .max(0.0);
    Ok((lower(exact.0 - e)?, upper(exact.1 + e)?))
}

/// `interval::to_grid` on the float grid: 24 bits at any binade (beyond the largest finite
/// float too, where MPFR's grid goes on); infinities stay.
fn to_grid(value: f64, up: bool) -> Result<f64, Stop> {
    if value.is_nan() {
        return Err(Stop::Unknown);
    }
    if value.is_infinite() {
        return Ok(value);
    }
    if value.abs() > f64::from(f32::MAX) {
        // Exact: scaling by a power of two, and rounding a double to an integer.
        let binade = ((value.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let spacing = crate::num::fp::pow2(binade - 23);
        let steps = value / spacing;
        return Ok(if up { steps.ceil() } else { steps.floor() } * spacing);
    }
    let nearest = value as f32;
    let on_grid = if up && f64::from(nearest) < value {
        nearest.next_up()
    } else if !up && f64::from(nearest) > value {
        nearest.next_down()
    } else {
        nearest
    };
    Ok(f64::from(on_grid))
}

/// Whether MPFR's `interval::requirement_range` marks a requirement unstated.
fn requirement_states_nothing(requirement: &Requirement) -> bool {
    matches!(
        requirement,
        Requirement::ImplementationDefined | Requirement::NotApplicable
    )
}

#[cfg(test)]
mod tests;
