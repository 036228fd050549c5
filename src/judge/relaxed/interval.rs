//! Interval evaluation of `derived` formulas: every operation's exact range (MPFR, rounded
//! outwards) widened by its own allowed error, and conditions over interval inputs.

use super::*;

// ---- Conditions ----

/// A three-valued truth over interval inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Truth {
    Yes,
    No,
    Maybe,
}

impl Truth {
    pub(super) fn of(value: bool) -> Truth {
        if value {
            Truth::Yes
        } else {
            Truth::No
        }
    }

    pub(super) fn not(self) -> Truth {
        match self {
            Truth::Yes => Truth::No,
            Truth::No => Truth::Yes,
            Truth::Maybe => Truth::Maybe,
        }
    }

    pub(super) fn and(self, other: Truth) -> Truth {
        match (self, other) {
            (Truth::No, _) | (_, Truth::No) => Truth::No,
            (Truth::Yes, Truth::Yes) => Truth::Yes,
            _ => Truth::Maybe,
        }
    }

    pub(super) fn or(self, other: Truth) -> Truth {
        self.not().and(other.not()).not()
    }
}

/// An end of a range a condition is decided over: MPFR's, or a double
/// (`bounded::Doubles`'s spans, which compare without an MPFR value per input).
pub(super) trait End: Clone + PartialOrd {
    /// How the end compares with `bound`, exactly.
    fn against(&self, bound: &Number) -> Option<Ordering>;
    fn negated(&self) -> Self;
    fn zero(&self) -> Self;
    /// Whether the end is a finite integer of the parity, if any.
    fn is_integer_of(&self, parity: Option<Parity>) -> bool;
}

impl End for Float {
    fn against(&self, bound: &Number) -> Option<Ordering> {
        self.partial_cmp(&bound.value)
    }

    fn negated(&self) -> Float {
        -self.clone()
    }

    fn zero(&self) -> Float {
        Float::with_val(self.prec(), 0)
    }

    fn is_integer_of(&self, parity: Option<Parity>) -> bool {
        let integer = self.to_integer().filter(|_| self.is_integer());
        match (integer, parity) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(n), Some(Parity::Odd)) => n.is_odd(),
            (Some(n), Some(Parity::Even)) => n.is_even(),
        }
    }
}

impl End for f64 {
    fn against(&self, bound: &Number) -> Option<Ordering> {
        bound.compare(*self).map(Ordering::reverse)
    }

    fn negated(&self) -> f64 {
        -self
    }

    fn zero(&self) -> f64 {
        0.0
    }

    fn is_integer_of(&self, parity: Option<Parity>) -> bool {
        crate::spec::relaxed_table::is_integer_of(*self, parity)
    }
}

impl Condition {
    /// Whether the condition holds for every, no, or some point of the input intervals.
    pub(super) fn over(&self, inputs: &[Permitted]) -> Truth {
        self.over_ends(&|parameter| match &inputs[parameter] {
            Permitted::Between(lo, hi) => Some((lo.clone(), hi.clone())),
            Permitted::Anything => None,
        })
    }

    /// [`Condition::over`] of the ranges `range` gives each parameter (`None`: anything).
    pub(super) fn over_ends<E: End>(&self, range: &impl Fn(usize) -> Option<(E, E)>) -> Truth {
        let decide = |yes: bool, no: bool| {
            if yes {
                Truth::Yes
            } else if no {
                Truth::No
            } else {
                Truth::Maybe
            }
        };
        match self {
            Condition::Compare {
                operand,
                comparison,
                bound,
            } => {
                let Some((lo, hi)) = operand.range(range) else {
                    return Truth::Maybe;
                };
                let is = |v: &E, orders: &[Ordering]| {
                    v.against(bound).is_some_and(|o| orders.contains(&o))
                };
                use Ordering::{Equal, Greater, Less};
                let equal = decide(
                    is(&lo, &[Equal]) && is(&hi, &[Equal]),
                    is(&hi, &[Less]) || is(&lo, &[Greater]),
                );
                match comparison {
                    Comparison::Less => decide(is(&hi, &[Less]), is(&lo, &[Greater, Equal])),
                    Comparison::LessEqual => decide(is(&hi, &[Less, Equal]), is(&lo, &[Greater])),
                    Comparison::Greater => decide(is(&lo, &[Greater]), is(&hi, &[Less, Equal])),
                    Comparison::GreaterEqual => {
                        decide(is(&lo, &[Greater, Equal]), is(&hi, &[Less]))
                    }
                    Comparison::Equal => equal,
                    Comparison::NotEqual => equal.not(),
                }
            }
            Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            } => {
                let Some((lo, hi)) = operand.range(range) else {
                    return Truth::Maybe;
                };
                let above = |v: &E| match v.against(low) {
                    Some(Ordering::Greater) => true,
                    Some(Ordering::Equal) => !*open_low,
                    _ => false,
                };
                let below = |v: &E| match v.against(high) {
                    Some(Ordering::Less) => true,
                    Some(Ordering::Equal) => !*open_high,
                    _ => false,
                };
                decide(above(&lo) && below(&hi), !above(&hi) || !below(&lo))
            }
            Condition::Integer { operand, parity } => match operand.range(range) {
                Some((lo, hi)) if lo == hi => Truth::of(lo.is_integer_of(*parity)),
                _ => Truth::Maybe,
            },
            Condition::Not(inner) => inner.over_ends(range).not(),
            Condition::And(a, b) => a.over_ends(range).and(b.over_ends(range)),
            Condition::Or(a, b) => a.over_ends(range).or(b.over_ends(range)),
        }
    }
}

impl Operand {
    /// The operand's range, of its parameter's or of the magnitude; `None` when it may be
    /// anything.
    fn range<E: End>(&self, range: &impl Fn(usize) -> Option<(E, E)>) -> Option<(E, E)> {
        let (lo, hi) = range(self.parameter)?;
        let zero = lo.zero();
        if !self.magnitude || lo >= zero {
            return Some((lo, hi));
        }
        if hi <= zero {
            return Some((hi.negated(), lo.negated()));
        }
        let magnitude = if hi > lo.negated() { hi } else { lo.negated() };
        Some((zero, magnitude))
    }
}

// ---- Interval evaluation of derived formulas ----

/// The values an operation may return: any (NaN among them, or the spec bounds nothing), or a
/// closed interval of the extended reals (an infinite end: unbounded on that side).
#[derive(Clone, Debug)]
pub(super) enum Permitted {
    Anything,
    Between(Float, Float),
}

/// The element type, the profile, and the precision interval ends are computed at.
pub(super) struct Context {
    pub(super) element: FloatType,
    pub(super) embedded: bool,
    pub(super) precision: u32,
    /// The device's default rounding, what "correctly rounded" means for the result itself.
    pub(super) rounding: Round,
    /// Set while evaluating a formula when an operation had no stated bound for its
    /// arguments ([`Verdict::Unstated`]).
    pub(super) unstated: std::cell::Cell<bool>,
}

impl Context {
    pub(super) fn new(element: FloatType, embedded: bool) -> Context {
        Context {
            element,
            embedded,
            precision: reference::working_precision(element) + 64,
            rounding: Round::Nearest,
            unstated: std::cell::Cell::new(false),
        }
    }

    pub(super) fn float(&self, value: f64) -> Float {
        Float::with_val(self.precision, value)
    }

    pub(super) fn point(&self, value: f64) -> Permitted {
        if value.is_nan() {
            Permitted::Anything
        } else {
            Permitted::Between(self.float(value), self.float(value))
        }
    }

    pub(super) fn unbounded(&self) -> Permitted {
        Permitted::Between(self.float(f64::NEG_INFINITY), self.float(f64::INFINITY))
    }
}

pub(super) fn smaller(a: Float, b: Float) -> Float {
    if b < a {
        b
    } else {
        a
    }
}

pub(super) fn larger(a: Float, b: Float) -> Float {
    if b > a {
        b
    } else {
        a
    }
}

/// `value` (a `&Float` or an operation on floats) rounded down / up to `precision` bits.
pub(super) fn down<T>(value: T, precision: u32) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(precision, value, Round::Down).0
}

pub(super) fn up<T>(value: T, precision: u32) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(precision, value, Round::Up).0
}

pub(super) fn hull(a: Permitted, b: Permitted) -> Permitted {
    match (a, b) {
        (Permitted::Between(a_lo, a_hi), Permitted::Between(b_lo, b_hi)) => {
            Permitted::Between(smaller(a_lo, b_lo), larger(a_hi, b_hi))
        }
        _ => Permitted::Anything,
    }
}

/// The values `formula` may produce when every operation errs as its rule allows.
pub(super) fn evaluate(formula: &Formula, inputs: &[Permitted], context: &Context) -> Permitted {
    match formula {
        Formula::Parameter { index, .. } => inputs[*index].clone(),
        Formula::Constant { value, .. } => context.point(*value),
        Formula::Negate(inner) => match evaluate(inner, inputs, context) {
            Permitted::Anything => Permitted::Anything,
            Permitted::Between(lo, hi) => Permitted::Between(-hi, -lo),
        },
        Formula::Operation {
            instruction,
            arguments,
            error,
        } => {
            let arguments: Vec<Permitted> = arguments
                .iter()
                .map(|a| overflowed(evaluate(a, inputs, context), context))
                .collect();
            permitted(instruction, error, &arguments, context)
        }
    }
}

/// An intermediate value's range as the float evaluation sees it: where the permitted range
/// reaches past the largest finite value, the operation "may, additionally, return either an
/// infinity of the appropriate sign or the finite number with the largest magnitude"
/// (002_8f60b82f04afe871.txt, "ULP"), and the next operation receives that. So acosh's
/// x*x for x >= 2^64 in float may be +inf, and the formula's range becomes unbounded.
pub(super) fn overflowed(range: Permitted, context: &Context) -> Permitted {
    let Permitted::Between(mut lo, mut hi) = range else {
        return range;
    };
    // Only finite values beyond the largest one overflow: an exact infinity (log2(0)) stays.
    let max = context.float(context.element.max_finite());
    let positive_infinity = context.float(f64::INFINITY);
    if hi > max && lo < positive_infinity {
        lo = smaller(lo, max.clone());
        hi = positive_infinity.clone();
    }
    if lo < -max.clone() && hi > -positive_infinity.clone() {
        hi = larger(hi, -max);
        lo = -positive_infinity;
    }
    Permitted::Between(lo, hi)
}

/// The values one operation may return for arguments in the given ranges.
pub(super) fn permitted(
    instruction: &str,
    error: &OperationError,
    arguments: &[Permitted],
    context: &Context,
) -> Permitted {
    let mut spans = Vec::new();
    for argument in arguments {
        match argument {
            Permitted::Anything => return Permitted::Anything,
            Permitted::Between(lo, hi) => spans.push((lo.clone(), hi.clone())),
        }
    }
    let Some(exact) = exact_range(instruction, &spans, context) else {
        return Permitted::Anything;
    };
    // Already unbounded on both sides (a pole inside the arguments' ranges): no error rule can
    // widen it, and a rule's unbounded piece must not mark it as unstated.
    if prescribed(&spans, &exact) || (exact.0.is_infinite() && exact.1.is_infinite()) {
        return Permitted::Between(exact.0, exact.1);
    }
    match error {
        OperationError::Exact => Permitted::Between(exact.0, exact.1),
        OperationError::Table { full, embedded } => {
            let requirement = if context.embedded { embedded } else { full };
            requirement_range(requirement, &exact, context)
        }
        OperationError::Relaxed(rule) => rule_range(rule, arguments, &exact, context),
    }
}

/// Annex F's exact special values: every argument a single value among ±0, ±1, ±inf, and the
/// exact result a single such value.
pub(super) fn prescribed(arguments: &[(Float, Float)], exact: &(Float, Float)) -> bool {
    let special = |v: &Float| v.is_infinite() || v.is_zero() || *v.as_abs() == 1;
    arguments.iter().all(|(lo, hi)| lo == hi && special(lo))
        && exact.0 == exact.1
        && special(&exact.0)
}

pub(super) fn requirement_range(
    requirement: &Requirement,
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    match requirement {
        Requirement::CorrectlyRounded | Requirement::RemquoExact { .. } => Permitted::Between(
            to_grid(&exact.0, false, context),
            to_grid(&exact.1, true, context),
        ),
        Requirement::Exact => Permitted::Between(exact.0.clone(), exact.1.clone()),
        Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => widen_ulps(exact, *n, context),
        // Stated bounds that are not ULP bounds on one value (none of Table 5's formulas uses
        // an operation with one): any result is within them here.
        Requirement::MadFmaOrMulAdd
        | Requirement::UlpPerWidth(_)
        | Requirement::Absolute(_)
        | Requirement::AbsoluteMaxSquared { .. }
        | Requirement::Vulkan(_) => context.unbounded(),
        Requirement::ImplementationDefined | Requirement::NotApplicable => {
            context.unstated.set(true);
            context.unbounded()
        }
    }
}

/// The hull of the pieces of `rule` that may apply to the arguments.
pub(super) fn rule_range(
    rule: &RelaxedRule,
    arguments: &[Permitted],
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    let RelaxedRule::Pieces { pieces, .. } = rule else {
        return Permitted::Anything;
    };
    let mut result: Option<Permitted> = None;
    for piece in pieces {
        let applies = piece
            .condition
            .as_ref()
            .map_or(Truth::Yes, |c| c.over(arguments));
        if applies == Truth::No {
            continue;
        }
        for alternative in &piece.alternatives {
            let bound = alternative.bound(context.embedded);
            let range = bound_range(bound, arguments, exact, context);
            result = Some(match result {
                None => range,
                Some(so_far) => hull(so_far, range),
            });
        }
        if applies == Truth::Yes {
            break;
        }
    }
    result.unwrap_or(Permitted::Anything)
}

pub(super) fn bound_range(
    bound: &Bound,
    arguments: &[Permitted],
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    let precision = context.precision;
    match bound {
        Bound::Ulp(n) => widen_ulps(exact, *n, context),
        Bound::UlpGrowing {
            base,
            factor,
            parameter,
            ..
        } => match &arguments[*parameter] {
            Permitted::Anything => context.unbounded(),
            Permitted::Between(lo, hi) => {
                let magnitude = larger(lo.clone().abs(), hi.clone().abs());
                let n = base + (factor * magnitude.to_f64_round(Round::Up)).floor();
                widen_ulps(exact, n, context)
            }
        },
        Bound::Absolute(bound) => Permitted::Between(
            down(&exact.0 - &bound.value, precision),
            up(&exact.1 + &bound.value, precision),
        ),
        Bound::Derived(formula) => inherit(exact, evaluate(formula, arguments, context), context),
        Bound::FmaOrMulAdd => {
            // Multiply then add, each correctly rounded, encloses the fma too.
            let product = permitted(
                "OpFMul",
                &OperationError::Table {
                    full: Requirement::CorrectlyRounded,
                    embedded: Requirement::CorrectlyRounded,
                },
                &arguments[..2],
                context,
            );
            permitted(
                "OpFAdd",
                &OperationError::Table {
                    full: Requirement::CorrectlyRounded,
                    embedded: Requirement::CorrectlyRounded,
                },
                &[product, arguments[2].clone()],
                context,
            )
        }
        Bound::Table(requirement) => requirement_range(requirement, exact, context),
        Bound::Unbounded => {
            context.unstated.set(true);
            context.unbounded()
        }
        Bound::Undefined => Permitted::Anything,
    }
}

/// A derived operation's own permitted range: [x − E, x + E] for every exact x in the range,
/// with E the largest distance from x to the formula's range.
pub(super) fn inherit(exact: &(Float, Float), formula: Permitted, context: &Context) -> Permitted {
    let Permitted::Between(f_lo, f_hi) = formula else {
        return Permitted::Anything;
    };
    let (x_lo, x_hi) = exact;
    if !x_lo.is_finite() || !x_hi.is_finite() {
        return Permitted::Between(smaller(x_lo.clone(), f_lo), larger(x_hi.clone(), f_hi));
    }
    if !f_lo.is_finite() || !f_hi.is_finite() {
        return context.unbounded();
    }
    let precision = context.precision;
    let zero = context.float(0.0);
    let e = larger(
        larger(up(x_hi - &f_lo, precision), up(&f_hi - x_lo, precision)),
        zero,
    );
    Permitted::Between(down(x_lo - &e, precision), up(x_hi + &e, precision))
}

/// Widens exact values by n ulp of the element type. Infinite ends stay.
///
/// The largest v + n·ulp(v) over the range is at its upper end `hi` when `hi >= 0` (ulp grows
/// with |v|). When `hi < 0`, values beyond 2|hi| in magnitude stay below `hi` (as long as
/// n·2^(1−p) <= 1/2), so the gap at max(lo, 2·hi) bounds the rest. Symmetrically for the lower
/// end. Larger counts use the gap at the range's largest magnitude.
pub(super) fn widen_ulps(exact: &(Float, Float), n: f64, context: &Context) -> Permitted {
    if !n.is_finite() {
        return context.unbounded();
    }
    let element = context.element;
    let precision = context.precision;
    let (lo, hi) = exact;
    let small = n <= f64::powi(2.0, element.precision() as i32 - 2);
    let widest = ulp_of(&larger(lo.clone().abs(), hi.clone().abs()), element);
    let (lower_gap, upper_gap) = if !small {
        (widest, widest)
    } else {
        let lower = if *lo > 0 {
            smaller(hi.clone(), lo.clone() * 2u32)
        } else {
            lo.clone()
        };
        let upper = if *hi < 0 {
            larger(lo.clone(), hi.clone() * 2u32)
        } else {
            hi.clone()
        };
        (ulp_of(&lower, element), ulp_of(&upper, element))
    };
    let new_lo = if lo.is_infinite() {
        lo.clone()
    } else {
        down(lo - &(context.float(lower_gap) * n), precision)
    };
    let new_hi = if hi.is_infinite() {
        hi.clone()
    } else {
        up(hi + &(context.float(upper_gap) * n), precision)
    };
    Permitted::Between(new_lo, new_hi)
}

/// `value` rounded down or up to the element type's grid (its precision and subnormal spacing,
/// no overflow: above the largest finite value the top binade's spacing continues).
pub(super) fn to_grid(value: &Float, up: bool, context: &Context) -> Float {
    if !value.is_finite() || value.is_zero() {
        return value.clone();
    }
    let element = context.element;
    let binade = value.get_exp().expect("finite non-zero value") - 1;
    let exponent = binade.max(element.emin()) - element.precision() as i32 + 1;
    let mut scaled = value.clone();
    scaled >>= exponent;
    let mut rounded = if up { scaled.ceil() } else { scaled.floor() };
    rounded <<= exponent;
    rounded
}

/// f(args) at the context's precision, as an interval that holds the exact value: the
/// correctly rounded result, widened by one unit of that precision unless MPFR says it is
/// exact. `None` for NaN.
pub(super) fn at(
    function: ReferenceFn,
    args: &[&Float],
    context: &Context,
) -> Option<(Float, Float)> {
    let operands: Vec<Float> = args.iter().map(|a| (*a).clone()).collect();
    let mut out = Float::new(context.precision);
    let rounding = function(&mut out, &operands);
    if out.is_nan() {
        return None;
    }
    if rounding == Ordering::Equal || out.is_infinite() {
        return Some((out.clone(), out));
    }
    let (mut lo, mut hi) = (out.clone(), out);
    lo.next_down();
    hi.next_up();
    Some((lo, hi))
}

/// The exact values of an operation over argument ranges, enclosed; `None` when NaN is
/// possible.
pub(super) fn exact_range(
    instruction: &str,
    spans: &[(Float, Float)],
    context: &Context,
) -> Option<(Float, Float)> {
    let entry = catalog(instruction)?;
    let reference = binding::mpfr(entry.reference);
    let all_points = spans.iter().all(|(lo, hi)| lo == hi);
    let increasing = |(lo, hi): &(Float, Float)| -> Option<(Float, Float)> {
        Some((
            at(reference, &[lo], context)?.0,
            at(reference, &[hi], context)?.1,
        ))
    };
    match instruction {
        "OpFAdd" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            Some((
                at(reference, &[a_lo, b_lo], context)?.0,
                at(reference, &[a_hi, b_hi], context)?.1,
            ))
        }
        "OpFSub" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            Some((
                at(reference, &[a_lo, b_hi], context)?.0,
                at(reference, &[a_hi, b_lo], context)?.1,
            ))
        }
        "OpFMul" => corners(reference, &spans[0], &spans[1], context),
        "OpFDiv" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            if *b_lo <= 0 && *b_hi >= 0 {
                if *a_lo <= 0 && *a_hi >= 0 {
                    return None;
                }
                return match context.unbounded() {
                    Permitted::Between(lo, hi) => Some((lo, hi)),
                    Permitted::Anything => None,
                };
            }
            corners(reference, &spans[0], &spans[1], context)
        }
        "fabs" => {
            let (lo, hi) = &spans[0];
            if *lo >= 0 {
                Some((lo.clone(), hi.clone()))
            } else if *hi <= 0 {
                Some((-hi.clone(), -lo.clone()))
            } else {
                Some((context.float(0.0), larger(-lo.clone(), hi.clone())))
            }
        }
        _ => match entry.direction {
            Direction::Monotonic { domain, .. } if domain.excludes(&spans[0].0, &spans[0].1) => {
                None
            }
            Direction::Monotonic { rising: true, .. } => increasing(&spans[0]),
            Direction::Monotonic { rising: false, .. } => {
                let (lo, hi) = &spans[0];
                Some((
                    at(reference, &[hi], context)?.0,
                    at(reference, &[lo], context)?.1,
                ))
            }
            Direction::Periodic => periodic(instruction, reference, &spans[0], context),
            Direction::Other | Direction::Bounded { .. } if all_points => {
                let points: Vec<&Float> = spans.iter().map(|(lo, _)| lo).collect();
                at(reference, &points, context)
            }
            Direction::Bounded { low, high } => Some((context.float(low), context.float(high))),
            Direction::Other => match context.unbounded() {
                Permitted::Between(lo, hi) => Some((lo, hi)),
                Permitted::Anything => None,
            },
        },
    }
}

/// The extremes of f over the four corners of two ranges (f monotone in each argument on the
/// box: multiplication, or division away from a zero divisor).
pub(super) fn corners(
    function: ReferenceFn,
    a: &(Float, Float),
    b: &(Float, Float),
    context: &Context,
) -> Option<(Float, Float)> {
    let mut result: Option<(Float, Float)> = None;
    for x in [&a.0, &a.1] {
        for y in [&b.0, &b.1] {
            let (lo, hi) = at(function, &[x, y], context)?;
            result = Some(match result {
                None => (lo, hi),
                Some((l, h)) => (smaller(l, lo), larger(h, hi)),
            });
        }
    }
    result
}

/// sin, cos and tan over a range: the ends, plus ±1 where an extremum of sin or cos may lie
/// inside; tan is unbounded where a pole may lie inside.
pub(super) fn periodic(
    instruction: &str,
    function: ReferenceFn,
    (lo, hi): &(Float, Float),
    context: &Context,
) -> Option<(Float, Float)> {
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    if lo == hi {
        return at(function, &[lo], context);
    }
    let wide = Float::with_val(context.precision, hi - lo) > 6.25;
    let unbounded = || match context.unbounded() {
        Permitted::Between(lo, hi) => Some((lo, hi)),
        Permitted::Anything => None,
    };
    if wide {
        return if instruction == "tan" {
            unbounded()
        } else {
            Some((context.float(-1.0), context.float(1.0)))
        };
    }
    let a = at(function, &[lo], context)?;
    let b = at(function, &[hi], context)?;
    // Extrema of sin and poles of tan at pi/2 + k pi; extrema of cos at k pi.
    let critical = critical_points(lo, hi, instruction != "cos", context);
    if instruction == "tan" {
        return if critical.is_empty() {
            Some((a.0, b.1))
        } else {
            unbounded()
        };
    }
    let mut low = smaller(a.0, b.0);
    let mut high = larger(a.1, b.1);
    for k in critical {
        let value = context.float(if k.is_even() { 1.0 } else { -1.0 });
        low = smaller(low, value.clone());
        high = larger(high, value);
    }
    Some((low, high))
}

/// The integers k for which offset + k·pi (offset pi/2 or 0) may lie in [lo, hi], with a
/// slack of 2^-40 so that rounding can only add candidates.
pub(super) fn critical_points(
    lo: &Float,
    hi: &Float,
    half_pi: bool,
    context: &Context,
) -> Vec<Integer> {
    let magnitude = [lo, hi]
        .iter()
        .filter_map(|v| v.get_exp())
        .max()
        .unwrap_or(0)
        .max(0);
    let precision = context.precision + magnitude as u32 + 32;
    let pi = Float::with_val(precision, Constant::Pi);
    let offset = if half_pi {
        Float::with_val(precision, &pi / 2u32)
    } else {
        Float::with_val(precision, 0)
    };
    let slack = Float::with_val(precision, 1) >> 40u32;
    let first = Float::with_val(precision, lo - &offset) / &pi - &slack;
    let last = Float::with_val(precision, hi - &offset) / &pi + &slack;
    let (Some(mut k), Some(last)) = (first.ceil().to_integer(), last.floor().to_integer()) else {
        return Vec::new();
    };
    let mut points = Vec::new();
    while k <= last {
        points.push(k.clone());
        k += 1;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::super::tests::{exact, two, F};
    use super::*;

    // ---- The interval arithmetic ----

    fn context() -> Context {
        Context::new(F, false)
    }

    fn span(permitted: &Permitted) -> (f64, f64) {
        match permitted {
            Permitted::Between(lo, hi) => (lo.to_f64(), hi.to_f64()),
            Permitted::Anything => panic!("anything"),
        }
    }

    #[test]
    fn rounding_to_the_float_grid_and_widening_by_ulps() {
        let cx = context();
        let v = cx.float(1.0 + two(-30));
        assert_eq!(to_grid(&v, true, &cx).to_f64(), 1.0 + two(-23));
        assert_eq!(to_grid(&v, false, &cx).to_f64(), 1.0);
        let tiny = cx.float(3.0 * two(-151));
        assert_eq!(to_grid(&tiny, true, &cx).to_f64(), two(-149));
        assert_eq!(to_grid(&tiny, false, &cx).to_f64(), 0.0);
        let one = (cx.float(1.0), cx.float(1.0));
        // At 1 the ulp is the gap below, 2^-24, on both sides.
        assert_eq!(
            span(&widen_ulps(&one, 2.0, &cx)),
            (1.0 - two(-23), 1.0 + two(-23))
        );
        let range = (cx.float(-3.0), cx.float(-1.0));
        // Below -3: the gap at -3 (2^-22); above -1: the gap at -2 (2^-23) covers -1 - tiny.
        assert_eq!(
            span(&widen_ulps(&range, 1.0, &cx)),
            (-3.0 - two(-22), -1.0 + two(-23))
        );
        let infinite = (cx.float(f64::NEG_INFINITY), cx.float(0.0));
        assert_eq!(
            span(&widen_ulps(&infinite, 3.0, &cx)),
            (f64::NEG_INFINITY, 3.0 * two(-149))
        );
    }

    #[test]
    fn exact_ranges_find_extrema_and_poles() {
        let cx = context();
        let range = |instruction: &str, lo: f64, hi: f64| {
            exact_range(instruction, &[(cx.float(lo), cx.float(hi))], &cx)
                .map(|(lo, hi)| (lo.to_f64(), hi.to_f64()))
        };
        let (lo, hi) = range("sin", 1.5, 1.7).unwrap();
        assert_eq!(hi, 1.0);
        assert!((lo - 1.7f64.sin()).abs() < 1e-15);
        let (lo, _) = range("cos", 3.1, 3.2).unwrap();
        assert_eq!(lo, -1.0);
        let (lo, hi) = range("sin", 0.1, 0.2).unwrap();
        assert!((lo - exact(reference::sin, &[0.1])).abs() < 1e-16);
        assert!((hi - exact(reference::sin, &[0.2])).abs() < 1e-16);
        assert_eq!(
            range("tan", 1.5, 1.6),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(range("sin", 0.0, 10.0), Some((-1.0, 1.0)));
        assert_eq!(range("sin", 0.0, f64::INFINITY), None);
        assert_eq!(range("log", -1.0, 2.0), None);
        assert_eq!(range("acos", 0.5, 1.5), None);
        let (lo, hi) = range("acos", 0.0, 1.0).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        let divide = |a: (f64, f64), b: (f64, f64)| {
            exact_range(
                "OpFDiv",
                &[
                    (cx.float(a.0), cx.float(a.1)),
                    (cx.float(b.0), cx.float(b.1)),
                ],
                &cx,
            )
            .map(|(lo, hi)| (lo.to_f64(), hi.to_f64()))
        };
        assert_eq!(
            divide((1.0, 2.0), (-1.0, 1.0)),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(divide((-1.0, 2.0), (0.0, 1.0)), None);
        assert_eq!(divide((1.0, 2.0), (4.0, 8.0)), Some((0.125, 0.5)));
    }

    #[test]
    fn inherited_range_is_symmetric_around_the_exact_value() {
        let cx = context();
        let exact = (cx.float(2.0), cx.float(2.0));
        let formula = Permitted::Between(cx.float(1.0), cx.float(2.5));
        assert_eq!(span(&inherit(&exact, formula, &cx)), (1.0, 3.0));
        let unbounded = Permitted::Between(cx.float(1.0), cx.float(f64::INFINITY));
        assert_eq!(
            span(&inherit(&exact, unbounded, &cx)),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        assert!(matches!(
            inherit(&exact, Permitted::Anything, &cx),
            Permitted::Anything
        ));
    }
}
