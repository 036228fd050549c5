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

/// The double tier of the registry's function `instruction` (Table 5 names its instructions
/// as the registry does), for one output: the exact value correctly rounded to double
/// (`false`), or within [`reference::NEAR_ERROR`] of it, relative (`true`, rootn's).
fn point_value(instruction: &str) -> Option<(FastFn, bool)> {
    // Looked up for every operation of a formula at every input: with SipHash the lookup
    // took 8% of relaxed pow's CPU. The keys are the registry's own names.
    static TIERS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, (FastFn, bool)>> =
        std::sync::OnceLock::new();
    let tiers = TIERS.get_or_init(|| {
        crate::spec::registry::FUNCTIONS
            .iter()
            .filter_map(|function| {
                let [output] = function.outputs else {
                    return None;
                };
                let tier = match (binding::fast_tier(output), binding::near_tier(output)) {
                    (Some(double), _) => (double, false),
                    (None, Some(near)) => (near, true),
                    (None, None) => return None,
                };
                Some((function.name, tier))
            })
            .collect()
    });
    tiers.get(instruction).copied()
}

/// The lowest double at least half a double ulp below `v`, a value rounded once to nearest
/// from an exact one (two steps down: at a power of two the step below is half the gap).
/// -inf bounds everything from below.
fn lower(v: f64) -> Result<f64, Stop> {
    if v.is_finite() {
        Ok(v.next_down().next_down())
    } else if v == f64::NEG_INFINITY {
        Ok(v)
    } else {
        Err(Stop::Unknown)
    }
}

/// +inf bounds everything from above.
fn upper(v: f64) -> Result<f64, Stop> {
    if v.is_finite() {
        Ok(v.next_up().next_up())
    } else if v == f64::INFINITY {
        Ok(v)
    } else {
        Err(Stop::Unknown)
    }
}

/// [`lower`] and [`upper`] of a value rounded once to nearest; an infinity stands for a value
/// past the largest double (or that infinity).
fn enclosure(value: f64) -> Result<Span, Stop> {
    if value == f64::INFINITY {
        Ok((f64::MAX, value))
    } else if value == f64::NEG_INFINITY {
        Ok((value, f64::MIN))
    } else {
        Ok((lower(value)?, upper(value)?))
    }
}

fn hull(a: Span, b: Span) -> Span {
    (a.0.min(b.0), a.1.max(b.1))
}

fn is_point(span: &Span) -> bool {
    span.0 == span.1
}

/// sin and cos over any range, with room for MPFR's ends, which may lie 2^-175 beyond ±1.
const UNIT: Span = (-1.0 - f64::EPSILON, 1.0 + f64::EPSILON);

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

/// `f` at the corners of two spans: multiplication, or division away from a zero divisor.
fn corners(f: FastFn, a: Span, b: Span) -> Result<Span, Stop> {
    let mut result: Option<Span> = None;
    for x in [a.0, a.1] {
        for y in [b.0, b.1] {
            let span = enclosure(f(&[x, y]))?;
            result = Some(result.map_or(span, |so_far| hull(so_far, span)));
        }
    }
    result.ok_or(Stop::Unknown)
}

/// How `instruction`'s exact value moves with its argument (its Table 5 catalog row).
fn direction(instruction: &str) -> Direction {
    catalog(instruction).map_or(Direction::Other, |entry| entry.direction)
}

/// The registry's correctly rounded double of `instruction` (not a near approximation, whose
/// values are no roundings to nearest).
fn correctly_rounded(instruction: &str) -> Result<FastFn, Stop> {
    match point_value(instruction) {
        Some((f, false)) => Ok(f),
        _ => Err(Stop::Unknown),
    }
}

/// An operation's value at points, enclosed.
fn at(instruction: &str, points: &[f64]) -> Result<Span, Stop> {
    let (f, near) = point_value(instruction).ok_or(Stop::Unknown)?;
    let value = f(points);
    if near {
        let error = value.abs() * 4.0 * reference::NEAR_ERROR;
        return Ok((lower(value - error)?, upper(value + error)?));
    }
    enclosure(value)
}

/// `interval::exact_range`, enclosed: the same case for each instruction, each end moved
/// outwards; `Unknown` wherever MPFR's may be unbounded or NaN.
fn exact_span(instruction: &str, spans: &[Span]) -> Result<Span, Stop> {
    let increasing = |(lo, hi): Span| Ok((at(instruction, &[lo])?.0, at(instruction, &[hi])?.1));
    match instruction {
        "OpFAdd" => {
            let (a, b) = (spans[0], spans[1]);
            Ok((lower(a.0 + b.0)?, upper(a.1 + b.1)?))
        }
        "OpFSub" => {
            let (a, b) = (spans[0], spans[1]);
            Ok((lower(a.0 - b.1)?, upper(a.1 - b.0)?))
        }
        "OpFMul" => corners(fast::mul, spans[0], spans[1]),
        "OpFDiv" => {
            let holds_zero = |(lo, hi): Span| lo <= 0.0 && hi >= 0.0;
            match (holds_zero(spans[0]), holds_zero(spans[1])) {
                (true, true) => Err(Stop::Unknown),
                (false, true) => Ok(EVERYTHING),
                _ => corners(fast::div, spans[0], spans[1]),
            }
        }
        "fabs" => {
            let (lo, hi) = spans[0];
            Ok(if lo >= 0.0 {
                (lo, hi)
            } else if hi <= 0.0 {
                (-hi, -lo)
            } else {
                (0.0, hi.max(-lo))
            })
        }
        _ => match direction(instruction) {
            Direction::Monotonic { domain, .. } if domain.excludes(&spans[0].0, &spans[0].1) => {
                Err(Stop::Unknown)
            }
            Direction::Monotonic { rising: true, .. } => increasing(spans[0]),
            Direction::Monotonic { rising: false, .. } => {
                let (lo, hi) = spans[0];
                Ok((at(instruction, &[hi])?.0, at(instruction, &[lo])?.1))
            }
            Direction::Periodic => periodic(instruction, spans[0]),
            Direction::Other if spans.iter().all(is_point) => {
                let points: Vec<f64> = spans.iter().map(|s| s.0).collect();
                at(instruction, &points)
            }
            // MPFR's box for atan2, exactly.
            Direction::Other if instruction == "atan2" => Ok((-3.5, 3.5)),
            Direction::Other => Err(Stop::Unknown),
        },
    }
}

/// Whether MPFR's `interval::requirement_range` marks a requirement unstated.
fn requirement_states_nothing(requirement: &Requirement) -> bool {
    matches!(
        requirement,
        Requirement::ImplementationDefined | Requirement::NotApplicable
    )
}

/// `bound(v)` for a finite `v`; an infinite end stays as it is (MPFR keeps it).
fn keep_infinite(v: f64, bound: impl Fn(f64) -> Result<f64, Stop>) -> Result<f64, Stop> {
    if v.is_infinite() {
        Ok(v)
    } else {
        bound(v)
    }
}

/// Bounds on `interval::exact_range` from inside, as [`Doubles::inner`] takes them: its range
/// holds the exact image of MPFR's argument ranges, which `inner` bounds (lo <= l, h <= hi
/// for each). A function monotonic in each argument (the sign of the others known from
/// `outer` where it matters) takes l at the arguments' l or h, whichever lowers it, and h
/// likewise; any other, only at arguments that are intervals (l <= h: points MPFR's ranges
/// hold), at their corners.
fn inner_image(instruction: &str, outer: &[Span], inner: &[Span]) -> Result<Span, Stop> {
    // The upper end of a value's enclosure bounds lo from above, the lower end hi from below.
    // An infinity from an infinite argument is exact (sqrt, log, exp at +inf, a sum); from
    // finite ones it stands for a value past the largest double.
    let enclose = |value: f64, points: &[f64]| {
        if value.is_infinite() && points.iter().any(|p| p.is_infinite()) {
            Ok::<Span, Stop>((value, value))
        } else {
            enclosure(value)
        }
    };
    let value_at = |f: FastFn, points: &[f64]| enclose(f(points), points);
    // An argument that is one double, in MPFR's range and in its bounds alike: a function
    // need not be monotonic in it.
    let fixed = |i: usize| outer[i].0 == outer[i].1 && inner[i] == outer[i];
    let sign = |i: usize| {
        let ((lo, hi), (l, h)) = (outer[i], inner[i]);
        if lo > 0.0 && l > 0.0 && h > 0.0 {
            Ok(1.0)
        } else if hi < 0.0 && l < 0.0 && h < 0.0 {
            Ok(-1.0)
        } else {
            Err(Stop::Unknown)
        }
    };
    // `f` increasing in each argument where `rising` says so, decreasing in the others.
    let monotonic = |f: FastFn, rising: &[bool]| {
        let pick = |low: bool| -> Vec<f64> {
            inner
                .iter()
                .zip(rising)
                .map(|(&(l, h), &up)| if up == low { l } else { h })
                .collect()
        };
        Ok((value_at(f, &pick(true))?.1, value_at(f, &pick(false))?.0))
    };
    match instruction {
        "OpFAdd" => {
            let (a, b) = (inner[0], inner[1]);
            Ok((
                enclose(a.0 + b.0, &[a.0, b.0])?.1,
                enclose(a.1 + b.1, &[a.1, b.1])?.0,
            ))
        }
        "OpFSub" => {
            let (a, b) = (inner[0], inner[1]);
            Ok((
                enclose(a.0 - b.1, &[a.0, b.1])?.1,
                enclose(a.1 - b.0, &[a.1, b.0])?.0,
            ))
        }
        // Everything times a range whose ends are nonzero: MPFR's corners hold both
        // infinities (a zero end would make NaN).
        "OpFMul" if (0..2).any(|i| inner[i] == EVERYTHING) => {
            let nonzero_ends = |i: usize| {
                let ((lo, hi), (l, h)) = (outer[i], inner[i]);
                lo > 0.0 || hi < 0.0 || (l < 0.0 && h > 0.0)
            };
            if nonzero_ends(0) && nonzero_ends(1) {
                Ok(EVERYTHING)
            } else {
                Err(Stop::Unknown)
            }
        }
        // a·b rises in a where b > 0, in b where a > 0; a / b in a where b > 0, in b where
        // a < 0 (b of one sign, as MPFR's range is unbounded where it may be zero).
        "OpFMul" => {
            let rising_a = fixed(0) || sign(1)? > 0.0;
            let rising_b = fixed(1) || sign(0)? > 0.0;
            monotonic(fast::mul, &[rising_a, rising_b])
        }
        // A divisor whose range holds 0: MPFR's quotient is anything where the dividend's
        // does too, else unbounded.
        "OpFDiv" if inner[1].0 <= 0.0 && inner[1].1 >= 0.0 => {
            let ((lo, hi), (l, h)) = (outer[0], inner[0]);
            if l <= 0.0 && h >= 0.0 {
                Err(Stop::Anything)
            } else if lo > 0.0 || hi < 0.0 {
                Ok(EVERYTHING)
            } else {
                Err(Stop::Unknown)
            }
        }
        // Infinite ends of both, the divisor of one sign: MPFR's corners hold ∞/∞, NaN.
        "OpFDiv"
            if (0..2).all(|i| inner[i].0 == f64::NEG_INFINITY || inner[i].1 == f64::INFINITY)
                && (outer[1].0 > 0.0 || outer[1].1 < 0.0) =>
        {
            Err(Stop::Anything)
        }
        "OpFDiv" => {
            let rising_a = sign(1)? > 0.0;
            let rising_b = fixed(1) || sign(0)? < 0.0;
            monotonic(fast::div, &[rising_a, rising_b])
        }
        "fabs" => {
            let (lo, hi) = outer[0];
            let (l, h) = inner[0];
            if lo >= 0.0 {
                Ok((l, h))
            } else if hi <= 0.0 {
                Ok((-h, -l))
            } else {
                Err(Stop::Unknown)
            }
        }
        _ => match direction(instruction) {
            // MPFR's range of an argument outside the domain (a negative one, or one beyond
            // ±1) is anything. Elsewhere its argument's range lies in the domain, where it is
            // a range at all: where it is anything, so is the formula's, and no bound given
            // here is relied on (`inner`).
            Direction::Monotonic { domain, .. } if domain.excludes(&inner[0].0, &inner[0].1) => {
                Err(Stop::Anything)
            }
            Direction::Monotonic { rising, .. } => {
                monotonic(correctly_rounded(instruction)?, &[rising])
            }
            // Points of MPFR's range more than 4 apart: a pole lies between, so MPFR's exact
            // range is everything.
            _ if instruction == "tan"
                && inner[0].0 <= inner[0].1
                && inner[0].1 - inner[0].0 > 4.0 =>
            {
                Ok(EVERYTHING)
            }
            // Rising on a span without a pole, which holds MPFR's range and the bounds.
            _ if instruction == "tan"
                && periodic("tan", outer[0]).is_ok()
                && [inner[0].0, inner[0].1]
                    .iter()
                    .all(|v| outer[0].0 <= *v && *v <= outer[0].1) =>
            {
                monotonic(correctly_rounded(instruction)?, &[true])
            }
            _ if inner.iter().all(|(l, h)| l <= h) => {
                let mut result: Option<Span> = None;
                let corners = 1usize << inner.len();
                for corner in 0..corners {
                    let points: Vec<f64> = inner
                        .iter()
                        .enumerate()
                        .map(|(i, &(l, h))| if corner >> i & 1 == 0 { l } else { h })
                        .collect();
                    let (lo, hi) = at(instruction, &points)?;
                    result = Some(result.map_or((hi, lo), |(l, h): Span| (l.min(hi), h.max(lo))));
                }
                result.ok_or(Stop::Unknown)
            }
            _ => Err(Stop::Unknown),
        },
    }
}

/// `interval::periodic`: the ends and every extremum (sin, cos) or pole (tan) that may lie
/// inside, found with a slack (2^-30 and 2^-45 relative) that holds every one MPFR's 2^-40
/// finds. Beyond 2^20 in magnitude, or across more than a few extrema, sin and cos take
/// [`UNIT`] and tan gives up.
fn periodic(instruction: &str, (lo, hi): Span) -> Result<Span, Stop> {
    let tan = instruction == "tan";
    if !lo.is_finite() || !hi.is_finite() {
        return Err(Stop::Unknown);
    }
    if lo == hi {
        return at(instruction, &[lo]);
    }
    let magnitude = lo.abs().max(hi.abs());
    let offset = if instruction == "cos" {
        0.0
    } else {
        std::f64::consts::FRAC_PI_2
    };
    let slack = crate::num::fp::pow2(-30) + magnitude * crate::num::fp::pow2(-45);
    let first = ((lo - offset) / std::f64::consts::PI - slack).ceil();
    let last = ((hi - offset) / std::f64::consts::PI + slack).floor();
    if tan {
        return if magnitude <= 1048576.0 && first > last {
            Ok((at(instruction, &[lo])?.0, at(instruction, &[hi])?.1))
        } else {
            Err(Stop::Unknown)
        };
    }
    if magnitude > 1048576.0 || last - first > 4.0 {
        return Ok(UNIT);
    }
    let mut span = hull(at(instruction, &[lo])?, at(instruction, &[hi])?);
    let mut k = first;
    while k <= last {
        // sin at π/2 + kπ and cos at kπ: 1 for even k.
        let extremum = if k.rem_euclid(2.0) == 0.0 {
            UNIT.1
        } else {
            UNIT.0
        };
        span = hull(span, (extremum, extremum));
        k += 1.0;
    }
    Ok(span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::relaxed_table::{builtin_in, Number};
    use crate::spec::table::Revision;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// An argument for a formula of `instruction`'s rule: random float bits, small values,
    /// values beside the poles of tan and the extrema of sin and cos, beside ±1 and the
    /// division's domain edges 2^±62 and 2^±126, and Annex F's specials; integers where the
    /// instruction's second parameter is one.
    fn sample(rng: &mut ChaCha8Rng, instruction: &str, parameter: usize) -> f64 {
        if parameter == 1 && matches!(instruction, "pown" | "rootn") {
            return f64::from(rng.random_range(-40..=40));
        }
        let pick: u32 = rng.random_range(0..10);
        let near = |rng: &mut ChaCha8Rng, v: f64| {
            let bits = (v as f32).to_bits() as i64 + rng.random_range(0..=6);
            f64::from(f32::from_bits(bits as u32))
        };
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let choice = rng.random_range(0..4usize);
        let value = match pick {
            0..=3 => loop {
                let v = f32::from_bits(rng.random());
                if v.is_finite() {
                    break f64::from(v);
                }
            },
            4 | 5 => f64::from(rng.random_range(-8.0f32..8.0)),
            6 => {
                let k = f64::from(rng.random_range(1..40));
                near(rng, k * std::f64::consts::FRAC_PI_2 * 0.9999995)
            }
            7 => near(rng, [1.0, 0.5, 2.0, 10.0][choice]),
            8 => near(rng, [62.0f64, -62.0, 126.0, -126.0][choice].exp2()),
            _ => [0.0, 1.0, 0.5, 2.0][choice],
        };
        sign * value
    }

    /// The doubles beside a condition's bounds, where a comparison turns.
    fn edges(condition: &Condition, into: &mut Vec<f64>) {
        match condition {
            Condition::Compare { bound, .. } => {
                into.extend([bound.double_below(), bound.double_above()])
            }
            Condition::Within { low, high, .. } => into.extend([
                low.double_below(),
                low.double_above(),
                high.double_below(),
                high.double_above(),
            ]),
            Condition::Integer { .. } => into.extend([3.0, 4.0, 4.5, 9007199254740992.0]),
            Condition::Not(inner) => edges(inner, into),
            Condition::And(a, b) | Condition::Or(a, b) => {
                edges(a, into);
                edges(b, into);
            }
        }
    }

    /// Every comparison and interval form, of a value and of its magnitude, against bounds
    /// that are doubles (0, 1, 2^-126) and one that is not (π): the tables use only some.
    fn every_form() -> Vec<Condition> {
        let pi = Float::with_val(200, rug::float::Constant::Pi);
        let numbers = || {
            [
                Number::new(Float::with_val(200, 0), "0".into()),
                Number::new(Float::with_val(200, 1), "1".into()),
                Number::new(Float::with_val(200, f64::powi(2.0, -126)), "2^-126".into()),
                Number::new(pi.clone(), "pi".into()),
            ]
        };
        let mut conditions = Vec::new();
        for magnitude in [false, true] {
            let operand = Operand {
                parameter: 0,
                name: "x".into(),
                magnitude,
            };
            for bound in numbers() {
                for comparison in [
                    Comparison::Less,
                    Comparison::LessEqual,
                    Comparison::Greater,
                    Comparison::GreaterEqual,
                    Comparison::Equal,
                    Comparison::NotEqual,
                ] {
                    conditions.push(Condition::Compare {
                        operand: operand.clone(),
                        comparison,
                        bound: bound.clone(),
                    });
                }
                for (open_low, open_high) in [(false, false), (true, false), (false, true)] {
                    conditions.push(Condition::Within {
                        operand: operand.clone(),
                        low: Number::new(-bound.value.clone(), "-".into()),
                        high: bound.clone(),
                        open_low,
                        open_high,
                    });
                }
            }
        }
        conditions
    }

    /// `condition_over` gives `Condition::over`'s truth, on 53-bit MPFR ranges, for every
    /// condition of both revisions of Table 5 and every form of one, over points and spans of
    /// sampled values and of the doubles beside each bound (signed, and a step either side).
    #[test]
    fn conditions_over_spans_are_mpfrs() {
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let mut compared = 0;
        let forms = every_form();
        let mut sets = vec![(
            "every form".to_string(),
            "",
            1,
            forms.iter().collect::<Vec<_>>(),
        )];
        for revision in [Revision::Spec2017, Revision::Spec2026] {
            for row in &builtin_in(revision).rows {
                let RelaxedRule::Pieces { pieces, .. } = &row.float32 else {
                    continue;
                };
                let arity = catalog(&row.instruction).unwrap().parameters.len();
                let conditions = pieces.iter().filter_map(|p| p.condition.as_ref());
                let name = format!("{revision} {}", row.instruction);
                sets.push((name, row.instruction.as_str(), arity, conditions.collect()));
            }
        }
        for (name, instruction, arity, conditions) in sets {
            for condition in conditions {
                let mut values = vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY];
                edges(condition, &mut values);
                for v in values.clone() {
                    values.extend([-v, v.next_up(), v.next_down()]);
                }
                for _ in 0..2000 {
                    let pick = |rng: &mut ChaCha8Rng, parameter| {
                        if rng.random_bool(0.5) {
                            values[rng.random_range(0..values.len())]
                        } else {
                            sample(rng, instruction, parameter)
                        }
                    };
                    let spans: Vec<Span> = (0..arity)
                        .map(|parameter| {
                            let a = pick(&mut rng, parameter);
                            let b = if rng.random_bool(0.3) {
                                a
                            } else {
                                pick(&mut rng, parameter)
                            };
                            (a.min(b), a.max(b))
                        })
                        .collect();
                    let ranges: Vec<Permitted> = spans
                        .iter()
                        .map(|&(lo, hi)| {
                            Permitted::Between(Float::with_val(53, lo), Float::with_val(53, hi))
                        })
                        .collect();
                    assert_eq!(
                        condition_over(condition, &spans),
                        condition.over(&ranges),
                        "{name}: {condition:?} over {spans:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 50_000, "{compared}");
    }

    /// What MPFR's judge evaluates for a derived alternative: the formula's range at the
    /// points, and whether an operation stated no bound.
    fn mpfr(formula: &Formula, args: &[f64], embedded: bool) -> (Permitted, bool) {
        let context = Context::new(FloatType::Float, embedded);
        let inputs: Vec<Permitted> = args.iter().map(|&a| context.point(a)).collect();
        let range = evaluate(formula, &inputs, &context);
        (range, context.unstated.get())
    }

    /// Every derived formula of both revisions of Table 5, in both profiles, on 1500 inputs
    /// each: where the double span is finite it holds MPFR's range, which is finite, and where
    /// it finds an unstated operation MPFR marks one. Coverage: the proof decides most inputs
    /// of the functions whose relaxed runs it speeds up.
    #[test]
    fn double_spans_enclose_mpfrs_ranges() {
        let mut rng = ChaCha8Rng::seed_from_u64(19);
        let mut problems = Vec::new();
        // Per formula: spans proven finite, unstated, all samples, inner bounds that are an
        // interval, ranges proven unbounded, ranges MPFR finds unbounded (or anything).
        let mut decided: std::collections::BTreeMap<
            String,
            (usize, usize, usize, usize, usize, usize),
        > = Default::default();
        for revision in [Revision::Spec2017, Revision::Spec2026] {
            for embedded in [false, true] {
                let doubles = Doubles::new(embedded);
                for row in &builtin_in(revision).rows {
                    let RelaxedRule::Pieces { pieces, .. } = &row.float32 else {
                        continue;
                    };
                    let arity = catalog(&row.instruction).unwrap().parameters.len();
                    let formulas = pieces.iter().flat_map(|p| &p.alternatives).filter_map(|a| {
                        match a.bound(embedded) {
                            Bound::Derived(formula) => Some(formula),
                            _ => None,
                        }
                    });
                    for formula in formulas {
                        let key = format!("{revision} {} {formula}", row.instruction);
                        let tally = decided.entry(key.clone()).or_default();
                        for _ in 0..1500 {
                            let args: Vec<f64> = (0..arity)
                                .map(|p| sample(&mut rng, &row.instruction, p))
                                .collect();
                            let points: Vec<Span> = args.iter().map(|&a| (a, a)).collect();
                            let proof = doubles.span(formula, &points, true);
                            let (range, unstated) = mpfr(formula, &args, embedded);
                            tally.2 += 1;
                            let bounded = matches!(&range, Permitted::Between(lo, hi)
                                if lo.is_finite() && hi.is_finite());
                            tally.5 += usize::from(!bounded);
                            if let Some(stated) = derived_unbounded(formula, &args, embedded) {
                                if bounded || (stated && unstated) {
                                    problems.push(format!(
                                        "{key} at {args:?} (embedded {embedded}): proven \
                                         unbounded (stated {stated}), MPFR {range:?} \
                                         (unstated {unstated})"
                                    ));
                                } else {
                                    tally.4 += 1;
                                }
                            }
                            let inner = doubles.inner(formula, &points, &points);
                            if let (Ok((l, h)), Permitted::Between(m_lo, m_hi)) = (inner, &range) {
                                if *m_lo > l || *m_hi < h {
                                    problems.push(format!(
                                        "{key} at {args:?} (embedded {embedded}): inner bounds \
                                         ({l:e}, {h:e}) beyond MPFR's {range:?}"
                                    ));
                                } else if l.is_finite() && h.is_finite() && l < h {
                                    tally.3 += 1;
                                }
                            }
                            match (proof, range) {
                                (Ok((lo, hi)), Permitted::Between(m_lo, m_hi))
                                    if m_lo.is_finite()
                                        && m_hi.is_finite()
                                        && lo <= m_lo
                                        && hi >= m_hi =>
                                {
                                    tally.0 += 1
                                }
                                (Err(Stop::Unstated), _) if unstated => tally.1 += 1,
                                (Err(Stop::Unknown), _) => {}
                                // Not finite: no claim.
                                (Ok((lo, hi)), _) if !lo.is_finite() || !hi.is_finite() => {}
                                (proof, range) => problems.push(format!(
                                    "{key} at {args:?} (embedded {embedded}): double {}, MPFR \
                                     {range:?} (unstated {unstated})",
                                    match proof {
                                        Ok(span) => format!("{span:?}"),
                                        Err(_) => "unstated".to_string(),
                                    }
                                )),
                            }
                        }
                    }
                }
            }
        }
        assert!(
            problems.is_empty(),
            "{} problems:\n{}",
            problems.len(),
            problems[..problems.len().min(20)].join("\n")
        );
        let share = |name: &str| {
            let (finite, unstated, all) = decided
                .iter()
                .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
                .fold((0, 0, 0), |t, (_, c)| (t.0 + c.0, t.1 + c.1, t.2 + c.2));
            (finite as f64 / all as f64, unstated as f64 / all as f64)
        };
        let inner_share = |name: &str| {
            let (inner, all) = decided
                .iter()
                .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
                .fold((0, 0), |t, (_, c)| (t.0 + c.3, t.1 + c.2));
            inner as f64 / all as f64
        };
        // Inner bounds that are an interval (wider than the exact value's enclosure): where
        // a product's or quotient's factors keep their signs, tan its branch.
        // Proven unbounded, of the samples where MPFR's range is: asinh's x + sqrt(x·x + 1)
        // where it may be 0 or overflows (x < 0, |x| >= 2^64), tanpi's tan beyond π, tanh's
        // exp(x) overflowing (not its formula at |x| <= 2^-10, where a piece takes x itself
        // and a difference beside 0 leaves the division's domain).
        for (name, least) in [("asinh", 0.9), ("tanpi", 0.85), ("tanh", 0.4)] {
            let (proven, unbounded) = decided
                .iter()
                .filter(|(key, _)| key.starts_with(&format!("2026 {name} ")))
                .fold((0, 0), |t, (_, c)| (t.0 + c.4, t.1 + c.5));
            assert!(
                proven as f64 > least * unbounded as f64 && unbounded > 500,
                "{name}: proven unbounded on {proven} of {unbounded} inputs"
            );
        }
        for (name, least) in [
            ("atan2", 0.8),
            ("atan2pi", 0.8),
            ("cbrt", 0.8),
            ("pow", 0.4),
            ("asinh", 0.4),
            ("tan", 0.2),
            ("tanpi", 0.2),
        ] {
            let share = inner_share(name);
            assert!(
                share > least,
                "{name}: inner bounds on {share} of its inputs"
            );
        }
        // Shares of all samples, domain errors (acosh below 1) included.
        for name in [
            "acosh", "acospi", "asinh", "asinpi", "atanh", "atanpi", "atan2", "atan2pi", "cbrt",
            "cosh", "exp10", "expm1", "log1p", "pow", "pown", "powr", "rootn", "sinh", "tan",
            "tanh", "tanpi",
        ] {
            let (finite, unstated) = share(name);
            assert!(
                finite + unstated > 0.2,
                "{name}: {finite} of its inputs proven finite, {unstated} unstated"
            );
        }
        for name in ["asinh", "cbrt", "exp10", "expm1", "sinh"] {
            let (finite, _) = share(name);
            assert!(
                finite > 0.75,
                "{name}: {finite} of its inputs proven finite"
            );
        }
        // sin and cos bound nothing beyond π, nor the division outside 2^±62: tan's and
        // atan2's inputs there are unstated.
        for name in ["tan", "atan2"] {
            let (finite, unstated) = share(name);
            assert!(
                finite > 0.2 && unstated > 0.3,
                "{name}: {finite} finite, {unstated} unstated"
            );
        }
    }

    /// An end within MPFR's slack of a pole of tan: MPFR counts the pole, so the span must,
    /// though the end lies on the near side in double arithmetic too.
    #[test]
    fn a_pole_within_mpfrs_slack_counts() {
        let context = Context::new(FloatType::Float, false);
        let end = std::f64::consts::FRAC_PI_2 - crate::num::fp::pow2(-42);
        let span = (context.float(1.0), context.float(end));
        let (lo, hi) = exact_range("tan", std::slice::from_ref(&span), &context).unwrap();
        assert!(lo.is_infinite() && hi.is_infinite(), "MPFR: a pole at π/2");
        assert!(matches!(periodic("tan", (1.0, end)), Err(Stop::Unknown)));
    }

    /// atan2(y, x) * M_1_PI_F at y = 2^-100, x = 2^100: the quotient lies outside every
    /// domain the division's rule bounds, so its range is unbounded, and atan's is then
    /// [-π/2, π/2] widened: finite, for MPFR and here.
    #[test]
    fn atan_bounds_an_unbounded_quotient() {
        let rule = builtin_in(Revision::Spec2026)
            .rule("atan2pi", FloatType::Float)
            .unwrap();
        let RelaxedRule::Pieces { pieces, .. } = rule else {
            panic!("atan2pi has one output")
        };
        let Bound::Derived(formula) = pieces[0].alternatives[0].bound(false) else {
            panic!("atan2pi's first alternative is its formula")
        };
        let args = [crate::num::fp::pow2(-100), crate::num::fp::pow2(100)];
        let Some(Derived::Within(lo, hi)) = derived_range(formula, &args, false) else {
            panic!("not proven finite")
        };
        let (range, _) = mpfr(formula, &args, false);
        let Permitted::Between(m_lo, m_hi) = range else {
            panic!("MPFR: anything")
        };
        assert!(m_lo.is_finite() && m_hi.is_finite());
        assert!(lo <= m_lo && hi >= m_hi && hi - lo < 1.1, "{lo} {hi}");
    }
}
