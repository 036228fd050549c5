//! The inherited cells ("inherited from FORMULA", `spirvenv-inherited-from`): the formula, as
//! the table writes it (`tables/vulkan/ulp_full.csv`, read by [`crate::spec::vulkan::formula`]),
//! evaluated in MPFR intervals whose ends are rounded outwards, each operation's range widened
//! by that operation's own cell in the unit's column: OpFAdd, OpFSub, OpFMul correctly rounded,
//! OpFDiv's 2.5 ulp inside its divisor range, inversesqrt's 2 ulp, exp's 3 + 2|x| ulp, log's
//! absolute bound inside [0.5, 2], sin's and cos's inside [-pi, pi], atan2's 4096 ulp, ... An
//! operation whose own cell is inherited (sqrt in asin, sinh and cosh in tanh, dot in length,
//! length in distance) is evaluated through its own formula, recursively. The result must then
//! lie in [x - E, x + E], E the larger distance from the exact x to the range's ends.
//!
//! Readings (also in `docs/spec-revisions.md`):
//! - An intermediate the formula names and reuses (smoothstep's `t`) is one interval used at
//!   each place as if its values were independent: a superset of the values one evaluation
//!   gives, as the Vulkan CTS's interval evaluation of derived functions also gives.
//! - `clamp` (FClamp: correct result) and `trunc` (correctly rounded, and an integer is
//!   representable) add no error; negation is exact. `C_pi_180` and `C_180_pi` are "a
//!   correctly rounded approximation" to π/180 and 180/π: either neighbour in the unit's type.
//! - `sum(x[i] * y[i])` adds left to right; cross's `OpFSub(OpFMul, OpFMul)` takes cross's own
//!   operands (x1·y2 − y1·x2, x2·y0 − y2·x0, x0·y1 − y0·x1). The text also permits
//!   reassociated forms; the judge evaluates the written one, as the CTS does.
//! - Where an operation's argument lies where its cell bounds nothing (sin or cos outside
//!   [-pi, pi], a divisor outside OpFDiv's range, atan2 over a range crossing its cut), the
//!   result is not judged (`Verdict::Unbounded`).
//! - Where NaN is among an operation's values (log of a negative value, inf - inf, 0 · inf,
//!   atan2 at the origin, a NaN argument), NaN is among the permitted values: any result is.
//! - Overflow: where an operation's range reaches beyond the largest finite value it may give
//!   that value or the infinity of its sign (the ULP rule's allowance), so its range extends to
//!   the infinity. An infinite end of the final range is read as that allowance, not as an
//!   infinite E: the result must then lie inside the range itself on that side.
//! - Without DenormPreserve an intermediate denormal may be flushed: a range reaching a
//!   denormal also holds zero.
//! - Zeros, infinities, NaN: where an argument or the exact result is not finite, a result the
//!   ranges permit passes (an intermediate may overflow: OpDot of (65504, inf) and (-2, -2) in
//!   half may be inf - inf = NaN), and so does the formula evaluated exactly on the arguments
//!   (IEEE's rules: 1.0 / inversesqrt(0) = 1.0 / inf = 0), any result where that is NaN. Where
//!   an argument is zero and the ranges bound nothing (sqrt(0): a divisor of inf), the exact
//!   evaluation is due where the exact result is zero too (sqrt(0) = 0; length(0, 1677) in
//!   half, whose dot overflows, is not judged).
//! - RelaxedPrecision (a float unit judged by the half column): each operation's ulp is half's
//!   precision in float's exponent range, as the result's.

use crate::num::fp::{fraction_is_zero, pow2, FloatType};
use crate::num::ulp::ulp_error;
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::{builtin_in, Profile, Requirement, UlpTable};
use crate::spec::vulkan::formula::{self, Constant, Expr, Formula, Operator};
use crate::spec::vulkan::{column, Cell};
use rug::float::{Constant as MpfrConstant, Round};
use rug::Float;
use std::sync::OnceLock;

use super::grid;
use super::literal::{self, Literal};
use super::Verdict;

/// MPFR's working precision for the ranges' ends: far beyond double's 53 bits; the ends are
/// rounded outwards, so the precision moves them only by a hair, never inwards. Below 128
/// bits, MPFR's two-limb paths multiply, divide and take roots without its general code.
const PRECISION: u32 = 127;

/// Why an inherited result is not judged: an operation of its formula is bounded nowhere
/// there (sin and cos outside [-pi, pi], a divisor outside OpFDiv's range).
pub(super) const UNBOUNDED: &str =
    "an operation of the formula is not bounded there (sin and cos outside [-pi, pi], a divisor outside OpFDiv's range)";

/// Why a result is not judged where NaN is among the formula's values: the appendix then
/// allows any result.
pub(super) const NAN_PERMITTED: &str =
    "NaN is among the formula's permitted values, so any result is";

/// Why an evaluation stops short of a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// An operation's cell bounds nothing for its arguments.
    Unbounded,
    /// NaN is among an operation's values: any result is permitted.
    Nan,
}

/// A closed range of values (ends may be infinite), ends rounded outwards.
#[derive(Clone, Debug)]
struct Interval {
    low: Float,
    high: Float,
}

impl Interval {
    fn point(v: Float) -> Interval {
        Interval {
            low: v.clone(),
            high: v,
        }
    }

    fn is_point(&self) -> bool {
        self.low == self.high
    }

    fn magnitude(&self) -> Float {
        let low = Float::with_val(PRECISION, self.low.abs_ref());
        let high = Float::with_val(PRECISION, self.high.abs_ref());
        low.max(&high)
    }
}

/// A scalar (one component) or a vector's components.
type Value = Vec<Interval>;

/// Whether the judge evaluates every operation of `formula`: it parses and each function it
/// calls is one [`formula::FUNCTIONS`] names (or `sum`, or an arithmetic operation by its name).
pub fn evaluable(formula: &str) -> bool {
    formula::parse(formula).is_ok_and(|f| {
        f.calls().iter().all(|name| {
            name == "sum"
                || Operator::of_instruction(name).is_some()
                || formula::FUNCTIONS.iter().any(|(text, _)| text == name)
        })
    })
}

/// What an evaluation needs beyond the formula: the result's type, the type the cells' ulps
/// are counted in, whether intermediates may be flushed, and whether the evaluation is the
/// exact one (no operation's error, no range checks: IEEE's rules on exact values).
#[derive(Clone, Copy)]
struct Context {
    element: FloatType,
    unit: FloatType,
    flush: bool,
    exact: bool,
    /// How each `sum` of three or four terms is associated: 0 as written (left to right),
    /// else that entry of [`associations`] (the reassociations AllowReassoc permits).
    association: usize,
}

/// The ways a sum of `terms` terms may be associated other than the written left-to-right
/// one, each as the pairs it adds in turn: indices into a list of partial sums that starts as
/// the terms, each pair's two taken out and their sum put first. Commuted operands give the
/// same range, so each tree appears once: 3 ways for three terms (two others), 15 for four
/// (fourteen others); none for fewer terms.
fn associations(terms: usize) -> &'static [Vec<(usize, usize)>] {
    static THREE: OnceLock<Vec<Vec<(usize, usize)>>> = OnceLock::new();
    static FOUR: OnceLock<Vec<Vec<(usize, usize)>>> = OnceLock::new();
    let cell = match terms {
        3 => &THREE,
        4 => &FOUR,
        _ => return &[],
    };
    cell.get_or_init(|| {
        // Every sequence of picks, each named by its tree (operands sorted: commuted trees
        // are one); the written order, (0, 1) at every step, left out.
        fn picks(
            sums: Vec<String>,
            steps: Vec<(usize, usize)>,
            into: &mut Vec<(String, Vec<(usize, usize)>)>,
        ) {
            if sums.len() == 1 {
                into.push((sums[0].clone(), steps));
                return;
            }
            for j in 1..sums.len() {
                for i in 0..j {
                    let (a, b) = (&sums[i], &sums[j]);
                    let tree = if a < b {
                        format!("({a}+{b})")
                    } else {
                        format!("({b}+{a})")
                    };
                    let mut rest: Vec<String> = vec![tree];
                    rest.extend(
                        sums.iter()
                            .enumerate()
                            .filter(|(k, _)| *k != i && *k != j)
                            .map(|(_, s)| s.clone()),
                    );
                    let mut steps = steps.clone();
                    steps.push((i, j));
                    picks(rest, steps, into);
                }
            }
        }
        let mut all = Vec::new();
        picks(
            (0..terms).map(|t| t.to_string()).collect(),
            Vec::new(),
            &mut all,
        );
        let written = all
            .iter()
            .find(|(_, steps)| steps.iter().all(|step| *step == (0, 1)))
            .map(|(tree, _)| tree.clone());
        let mut seen = vec![written];
        let mut others = Vec::new();
        for (tree, steps) in all {
            if !seen.contains(&Some(tree.clone())) {
                seen.push(Some(tree));
                others.push(steps);
            }
        }
        others
    })
}

/// Whether the formula (or one it calls, through the table) sums terms.
fn sums(formula: &Formula, element: FloatType, unit: FloatType) -> bool {
    formula.calls().iter().any(|name| {
        name == "sum"
            || formula::FUNCTIONS
                .iter()
                .find(|(text, _)| text == name)
                .is_some_and(|(_, registry)| match cell(registry, element, unit) {
                    Requirement::Vulkan(Cell::Inherited(text)) => {
                        formula::of_table(text).is_some_and(|called| sums(called, element, unit))
                    }
                    _ => false,
                })
    })
}

/// One result of an inherited cell: inside the formula's permitted range or not. `exact` is
/// the function's own exact value (what the error is measured against); `component` the
/// result's component for a vector result (normalize, cross); `denorm_preserve` whether the
/// entry point keeps denormals (else intermediates may be flushed); `reassociate` whether
/// AllowReassoc holds: a result outside the range of the formula as written then passes where
/// its sums added in another order permit it (each sum of three or four terms, every sum of
/// the formula taken in the same association).
#[allow(clippy::too_many_arguments)]
pub(super) fn judge(
    formula: &str,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    exact: &Float,
    device_result: f64,
    component: usize,
    denorm_preserve: bool,
    reassociate: bool,
) -> Verdict {
    let owned;
    let formula = match formula::of_table(formula) {
        Some(formula) => formula,
        None => match formula::parse(formula) {
            Ok(parsed) => {
                owned = parsed;
                &owned
            }
            Err(_) => return Verdict::Unbounded(UNBOUNDED),
        },
    };
    judged_literally(
        formula,
        element,
        unit,
        args,
        exact,
        device_result,
        component,
    )
    .unwrap_or_else(|| {
        judge_by_ranges(
            formula,
            element,
            unit,
            args,
            exact,
            device_result,
            component,
            denorm_preserve,
            reassociate,
        )
    })
}

/// [`judge`]'s verdict where the literal evaluation gives it ([`decided_literally`]), at
/// finite arguments and a finite exact value: a pass measured against `exact`, or "not
/// judged"; `None` where the interval evaluation decides.
pub fn judged_literally(
    formula: &Formula,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    exact: &Float,
    device_result: f64,
    component: usize,
) -> Option<Verdict> {
    // Zeros, infinities and NaN: the ranges, or else the formula evaluated exactly on them.
    let special = args.iter().any(|a| !a.is_finite()) || !exact.is_finite();
    if special {
        return None;
    }
    let decided = decided_literally(
        formula,
        element,
        unit,
        args,
        component,
        device_result,
        exact.is_zero(),
        Some(element.neighbours(exact.to_f64())),
    )?;
    Some(match decided {
        Literal::Pass => Verdict::Pass(ulp_error(device_result, exact, unit)),
        Literal::Unbounded => Verdict::Unbounded(UNBOUNDED),
    })
}

/// [`judge`]'s verdict where the literal evaluation decides it, at finite arguments and a
/// finite exact value (`exact_is_zero`: whether it is zero): `Pass` (at the result's error
/// against the exact value), `Unbounded` ("not judged"), or `None` where the interval
/// evaluation decides. `neighbours`: the values of a half or float type next to the exact
/// value (or it), which the final range holds where the evaluation reaches its end
/// ([`literal::decide`]). The Vulkan tier asks it too, for results whose exact value it knows
/// without the interval evaluation.
#[allow(clippy::too_many_arguments)]
pub fn decided_literally(
    formula: &Formula,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    component: usize,
    device_result: f64,
    exact_is_zero: bool,
    neighbours: Option<(f64, f64)>,
) -> Option<Literal> {
    match literal::decide(
        formula,
        args,
        component,
        element,
        unit,
        device_result,
        neighbours,
    )? {
        // The interval evaluation's stop, read as its judge reads it (x is not zero at a zero
        // argument here: such an x is evaluated exactly).
        Literal::Unbounded if exact_is_zero && args.contains(&0.0) => None,
        decided => Some(decided),
    }
}

/// [`judge`] by the interval evaluation alone.
#[allow(clippy::too_many_arguments)]
pub(super) fn judge_by_ranges(
    formula: &Formula,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    exact: &Float,
    device_result: f64,
    component: usize,
    denorm_preserve: bool,
    reassociate: bool,
) -> Verdict {
    let error = ulp_error(device_result, exact, unit);
    let context = Context {
        element,
        unit,
        flush: !denorm_preserve,
        exact: false,
        association: 0,
    };
    let literal = |verdict_error: f64| {
        let exactly = Context {
            exact: true,
            ..context
        };
        match evaluate(formula, args, component, exactly) {
            Err(Stop::Nan) => Verdict::Unbounded(NAN_PERMITTED),
            Err(Stop::Unbounded) => Verdict::Unbounded(UNBOUNDED),
            Ok(due) => {
                let equal = due.low <= device_result && due.high >= device_result;
                if verdict_error == 0.0 || equal {
                    Verdict::Pass(verdict_error)
                } else {
                    Verdict::Fail(verdict_error)
                }
            }
        }
    };
    let special = args.iter().any(|a| !a.is_finite()) || !exact.is_finite();
    match evaluate(formula, args, component, context) {
        Err(Stop::Nan) => Verdict::Unbounded(NAN_PERMITTED),
        Ok(range) if permitted(&range, exact, device_result, element) => Verdict::Pass(error),
        Ok(_) if !special => {
            // The text assumes AllowReassoc: a sum added in another order may give the result.
            let width = args.len() / formula.parameters().len().max(1);
            let reassociated = reassociate
                && sums(formula, element, unit)
                && (1..=associations(width).len()).any(|association| {
                    let context = Context {
                        association,
                        ..context
                    };
                    evaluate(formula, args, component, context)
                        .is_ok_and(|range| permitted(&range, exact, device_result, element))
                });
            if reassociated {
                Verdict::Pass(error)
            } else {
                Verdict::Fail(error)
            }
        }
        Err(Stop::Unbounded) if !(special || exact.is_zero() && args.contains(&0.0)) => {
            Verdict::Unbounded(UNBOUNDED)
        }
        _ => literal(error),
    }
}

/// A proven pass of an inherited cell without the interval evaluation ([`judge`]), where the
/// correctly rounded double `approximation` of the exact value x (within half a double ulp of
/// it) shows `device_result` within the root operation's own cell around x: `Some(error)`, its
/// error in the unit's ulp against `approximation` (exact to 2^-28 ulp; infinite for the
/// overflow allowance's infinity, as `judge` measures it), else `None` (the evaluation decides,
/// as before). It never decides a failure.
///
/// Why such a result passes: every operation's range contains the operation's exact value on
/// exact arguments (its exact interval is the hull of its corners over ranges that contain the
/// exact intermediates, rounded outwards, then widened, and the overflow allowance and the
/// flush of a denormal only widen it further). So the root operation's exact interval [l, h]
/// contains x (the formula's exact value is the function's: exp2(y log2 x) = pow(x, y),
/// 1 / (1 / sqrt x) = sqrt x, sin x / cos x = tan x, atan2(x, sqrt(1 - x^2)) = asin x and
/// atan2(sqrt(1 - x^2), x) = acos x for |x| < 1, (e^x -+ e^-x) / 2 = sinh x, cosh x), and its
/// widened range is [l - N u, h + N u] with u the larger
/// of the ends' ulps ([`ulp_in`], monotonic in the magnitude, and some end is at least |x| in
/// magnitude, so u >= ulp_in(x)) and N the root's cell (3 + 2|t| at the largest magnitude |t|
/// of exp2's argument range, which holds the exact y log2 x). So:
/// - x finite and at most the largest finite value: the final range's ends ([`permitted`]) are
///   at least N ulp_in(x) from x on each side, or infinite on that side, so E >= N ulp_in(x):
///   a finite result within N ulp_in(x) of x is permitted (x a normal, non-power-of-two value,
///   so its binade and ulp_in(x) are `approximation`'s, and the result within that by a margin
///   of 2^-20 of it, far more than half a double ulp of x: 2^-29 ulp at most); where
///   `approximation` is a power of two (pow near 1: y log2 x tiny) x's side of it decides,
///   known for pow at 1 (x > 1 where log2 x and y are non-zero and of one sign): x at or below
///   it takes the binade below (a power of two's ulp is the gap below it), x above it
///   `approximation`'s binade, its error measured from the double above (2^-53 from x at
///   most);
/// - x past the largest finite value: the range reaches past it, so the infinity of x's sign
///   is permitted (the overflow allowance), at an infinite error (x is finite: `judge`'s exact
///   value is MPFR's, whose exponent range reaches far past double's, and
///   [`crate::reference::high_precision`] keeps a value overflowing even that range finite).
///   This holds where x is past double too (`approximation` infinite: pow's results beyond
///   2^1024, about 8% of a float sweep's), as the root's exact interval still reaches p;
/// - |x| below the smallest normal value and a zero result: the range holds zero where
///   denormals may be flushed (an end strictly between zero and the smallest normal value is
///   moved to zero), and where they are not, if |x| <= N times the smallest denormal's ulp.
///
/// For pow the root's exact interval is wider than a point, which widens E further (the share
/// of lavapipe's float pow results outside exp2's own cell but inside the range). Write p for
/// pow(x, y) (the exact value above), L = log2 x exact and c the widening log2's cell gives
/// its point range (its absolute bound inside [0.5, 2], else 3 ulp_in(L) at least: the ulp of
/// L's binade): log2's range holds [L - c, L + c]; OpFMul's exact interval is the hull of the
/// products of its argument range's ends, so it holds [T - s, T + s] (T = y L = log2 p,
/// s = |y| c), and its widened range holds that. exp2 is increasing, so its exact interval
/// holds [2^(T - s), 2^(T + s)], whose high end is at least p and finite in MPFR where
/// s <= 512 (|T| is below 2^11 for a normal p below the largest finite value), so
/// u >= ulp_in(p) as above, and the widened low end l' <= p 2^-s - N ulp_in(p) stays finite
/// (the overflow allowance moves only an end past the largest finite value, the flush an end
/// toward zero). So E >= p - l' >= p (1 - 2^-s) + N ulp_in(p). The margin p (1 - 2^-s) is
/// computed rounded toward the smaller: s, p and 1 - 2^-s each taken 2^-40 below their double
/// values (f64's log2 and expm1 are within an ulp or two, `approximation` within half a
/// double ulp of p). Where s > 512 (and for sqrt) the margin is zero and E >= N ulp_in(p) as
/// above (where MPFR's exp2 overflows at the high end, the low end is below p 2^-512 and
/// p - l' > p exceeds N ulp_in(p) anyway).
///
/// The evaluation must also finish (no [`Stop`], which makes the result unjudged, not a pass),
/// which each formula's guard proves:
/// - pow, `exp2(y * log2(x))`: x > 0 and y finite, so log2 of the point x is finite and
///   bounded (its cell's range test is decided for a point), and the product's range stays
///   finite (no overflow allowance there), so exp2's argument magnitude is finite: log2's
///   range lies within c of L (c at most [`log2_widening`]'s upper bound), OpFMul's exact
///   interval within |y| (|L| + c) of zero, and OpFMul (correctly rounded) rounds its ends
///   outwards to the grid of the unit's precision, which keeps an end below M (1 - 2^-10) at
///   or below a grid value at most M (the largest finite value; RelaxedPrecision's grid has
///   one within 2^-11 of it); that bound, computed in f64 (log2 within an ulp or two, each
///   operation rounded once), is taken 2^-40 above;
/// - sqrt, `1.0 / inversesqrt(x)`: x > 0, so inversesqrt's range is positive and within
///   2 ulp of 1/sqrt(x); the divisor test of OpFDiv holds where 1/sqrt(x) lies inside its
///   divisor range by a factor of 2 on each side (far more than 2 ulp).
/// - tan, `sin(x) / cos(x)` (N OpFDiv's 2.5 ulp): x inside sin's and cos's range [-pi, pi],
///   and cos's range [c - a, c + a] (c = cos x within 2^-40 of f64's, a its absolute bound)
///   inside OpFDiv's divisor range by a factor of 2. The quotient's exact interval then holds
///   (s' / c) for every s' in sin's range [s - a, s + a]: [x - a / |c|, x + a / |c|], a margin
///   of a / (|c| + a) at least, beside the N ulp;
/// - asin and acos, `atan2(x, sqrt(1.0 - x * x))` and `atan2(sqrt(1.0 - x * x), x)` (N atan2's
///   4096 ulp, half's 5): 1 - x^2 >= 2^(3 - p) (p the unit's precision), so x * x rounded up
///   to the grid stays below 1 - 2^(2 - p), 1.0 - x * x positive and normal, inversesqrt's
///   range within [1 - 2 ulp, 2^(p / 2)] inside OpFDiv's divisor range (at least
///   [2^-14, 2^14]), sqrt's range positive: atan2's box holds neither the origin nor a piece
///   of its cut, and atan2 takes its extremes at the box's corners;
/// - sinh and cosh, `(exp(x) -+ exp(-x)) * 0.5` (the root OpFMul correctly rounded: N = 0):
///   e^|x| <= M / 4, so nothing overflows (no NaN, exp's magnitude |x| finite). exp's ranges
///   hold [e^x - N' u1, e^x + N' u1] and [e^-x - N' u2, e^-x + N' u2] (N' = 3 + 2|x|, half's
///   1 + 2|x|; u1, u2 at least the ulp_in of e^x and e^-x, from their binades taken 2^-40
///   below f64's values), so OpFSub's or OpFAdd's exact interval holds 2x -+ N' (u1 + u2), and
///   the product by 0.5 x -+ N' (u1 + u2) / 2: that margin. Past e^|x| = M / 4 only the
///   overflow allowance's infinity is decided: where x is past M, the range's high end
///   (e^|x| - e^-|x|) / 2 and more is past M too, and e^-|x| <= 1 keeps inf - inf away.
///   cosh's power-of-two `approximation` 1 takes x's side as pow at 1 does: x > 1 but at 0.
/// - asinh and acosh, `log(x + sqrt(x * x +- 1.0))` (N log's 3 ulp): x >= 0 (asinh), or
///   x >= 1 + 2^(3 - p) (acosh: x * x - 1.0 positive and normal after rounding, as for
///   asin), and x at most 2^60, 1 / (4 d) (d OpFDiv's least divisor) and sqrt(M) / 2 (x * x
///   +- 1 stays below M / 2: no overflow allowance; half's and float's acosh: x^2 at most M,
///   which is on the grid, so x * x rounded up and x * x - 1.0 stay at most M),
///   inversesqrt's range inside [2 d, 2^(p / 2)], the sum's range positive (x >= 0, sqrt's
///   range positive), so log's range is bounded: by 3 ulp outside [0.5, 2], by the larger
///   of that and its absolute bound across 0.5 or 2, by its absolute bound inside, which is
///   more than 3 ulp of the result there (|x| <= ln 2: 3 2^-p, below 2^-21 and 2^-7).
///   Where asinh's exact sum g = x + sqrt(x^2 + 1) lies inside log's [0.5, 2] (|x| <= 0.75:
///   g is 2 at 0.75 and 1/2 at -0.75, computed exactly from the cell's ends), log's argument
///   range holds g, so meets [0.5, 2], and log widens by its absolute bound a at least (alone
///   or as the larger reading): N = 0 and a margin of a (lavapipe's zero for a tiny x,
///   log(1.0), is such a pass);
/// - asinh elsewhere (x < 0, or past the bound above), its steps replayed in f64
///   ([`asinh_chain`]): where x * x + 1.0 does not overflow and inversesqrt's range lies inside
///   OpFDiv's divisor range, the evaluation reaches the sum, the low end c1 = x + s1 of whose
///   exact interval (s1 the low end of sqrt's range) lies in [c_low, c_high]. Where c_low is
///   at least the smallest normal value, so is c1 rounded down to the grid (that value is on
///   it): no flush moves it, log's argument range is positive (no NaN) and its range's low end
///   finite. log's exact interval reaches down to ln t1 <= ln c_high (t1 the rounded c1),
///   which is at most ln g = asinh x (t1 <= c1 <= g: sqrt's range holds sqrt(x^2 + 1)), and
///   log widens by 3 ulp_in of an end at least, some end's magnitude being at least |asinh x|
///   (the exact interval holds it), or by a where g lies inside [0.5, 2] as above. So
///   E >= asinh x - ln c_high + (3 ulp_in(asinh x) or a): the margin asinh x - ln c_high,
///   from 2^-50 below `approximation` and 2^-45 above f64's ln, then 2^-40 below, and no less
///   than zero, beside N. Where the sum cancels (x < 0 up to where c1 crosses zero), that
///   margin is most of the permitted range: sqrt's spread over the small g;
/// - tanh, `sinh(x) / cosh(x)` (N OpFDiv's 2.5 ulp; sinh and cosh through their formulas):
///   e^|x| <= D / 4 (D, d OpFDiv's divisor range, d <= 1/4) and n 2^(1 - p) <= 1/8 (n exp's
///   cell at x, p the unit's precision), so exp's ranges lie within e^±x (1 -+ 1/8) (beside a
///   denormal's ulp, at most n 2^(emin + 1 - p)), nothing overflows (no NaN), and cosh's range
///   lies in [0.4, 1.3 e^|x|], inside [d, D]. cosh's range is positive, so the quotient's exact
///   interval holds s' / cosh x for every s' in sinh's range, which holds sinh x -+ m (m
///   [`exp_pair_spread`], as for sinh): [x - m / cosh x, x + m / cosh x], a margin of
///   m / cosh x (cosh x taken 2^-40 above f64's), beside the N ulp. tanh's `approximation` ±1
///   (|x| < 1 always) takes the binade below, as pow's below 1 does;
/// - atanh, `log((1.0 + x) / (1.0 - x)) * 0.5` (the root OpFMul correctly rounded): 1 - |x| >=
///   2^(3 - p) and >= 2 d, so 1.0 + x and 1.0 - x round (outwards, to the grid) to positive
///   values at least 2^(3 - p), the divisor lies in [d, 2], and the quotient's range, within
///   9 2^(1 - p) < 1% of Q = (1 + x) / (1 - x) (two roundings, the corners' spread, 2.5 ulp),
///   is positive and normal: log is bounded. Its exact interval holds ln Q = 2X (X = atanh x,
///   the exact value). Where |x| <= 0.33 (Q inside [0.5, 2], so log's argument range meets
///   it: the absolute bound a applies, alone or as the larger reading) log's range holds
///   2X -+ a, the product's X -+ a / 2: that margin, N = 0. Elsewhere Q lies outside [0.5, 2]
///   (|x| > 1/3), so the argument range is not inside it and log's widening is 3 ulp_in of an
///   end, at least 3 ulp_in(2X) = 6 ulp_in(X) (|X| > 1/3 is normal), the product's
///   X -+ 3 ulp_in(X): N = 3.
#[allow(clippy::too_many_arguments)]
pub fn passes_by_root_cell(
    formula: &str,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    approximation: f64,
    device_result: f64,
    denorm_preserve: bool,
) -> Option<f64> {
    let max = element.max_finite();
    // `bound`: the root's cell N; `spread`: a lower bound of 1 - 2^-s (pow), else 0;
    // `absolute`: a lower bound of the root's exact interval's reach past x on each side.
    let (bound, spread, absolute) = match (formula, args) {
        ("exp2(y * log2(x))", &[x, y]) if x > 0.0 && x.is_finite() && y.is_finite() => {
            let Requirement::Vulkan(Cell::UlpPerMagnitude {
                constant,
                per_magnitude,
            }) = *cell("exp2", element, unit)
            else {
                return None;
            };
            let log = x.log2();
            let t = (y * log).abs();
            let (c, c_at_most) = log2_widening(x, log, element, unit)?;
            // The product's ends, at most |y| (|L| + c) in magnitude, rounded up once to the
            // grid: at most M where they are below M (1 - 2^-10) (a grid value).
            let product = y.abs() * (log.abs() * (1.0 + pow2(-40)) + c_at_most) * (1.0 + pow2(-40));
            if product.is_nan() || product > max * (1.0 - pow2(-10)) {
                return None;
            }
            let s = y.abs() * c * (1.0 - pow2(-40));
            let spread = if s <= 512.0 {
                -(-s * std::f64::consts::LN_2).exp_m1() * (1.0 - pow2(-40))
            } else {
                0.0
            };
            // f64's log2 is within an ulp or two of the exact one: 2^-40 below |t| is below
            // the exact |y log2 x|.
            (
                constant + per_magnitude * t * (1.0 - pow2(-40)),
                spread,
                0.0,
            )
        }
        ("1.0 / inversesqrt(x)", &[x]) if x > 0.0 && x.is_finite() => {
            let (ulp, low, high) = division_cell(element, unit)?;
            let divisor = 1.0 / approximation;
            if !(2.0 * low..=high / 2.0).contains(&divisor) {
                return None;
            }
            (ulp, 0.0, 0.0)
        }
        ("sin(x) / cos(x)", &[x]) => {
            let Requirement::Vulkan(Cell::AbsoluteInside {
                absolute,
                low,
                high,
            }) = *cell("sin", element, unit)
            else {
                return None;
            };
            let Requirement::Vulkan(Cell::AbsoluteInside {
                absolute: cos_absolute,
                ..
            }) = *cell("cos", element, unit)
            else {
                return None;
            };
            let (ulp, divisor_low, divisor_high) = division_cell(element, unit)?;
            let cosine = x.cos().abs();
            let (cosine_low, cosine_high) = (
                cosine * (1.0 - pow2(-40)) - cos_absolute,
                cosine * (1.0 + pow2(-40)) + cos_absolute,
            );
            if !(low <= x && x <= high)
                || cosine_low < 2.0 * divisor_low
                || cosine_high > divisor_high / 2.0
            {
                return None;
            }
            (ulp, 0.0, absolute / cosine_high)
        }
        ("atan2(x, sqrt(1.0 - x * x))" | "atan2(sqrt(1.0 - x * x), x)", &[x]) => {
            let Requirement::Ulp(n) = *cell("atan2", element, unit) else {
                return None;
            };
            if x.is_nan() || 1.0 - x * x < pow2(3 - unit.precision() as i32) {
                return None;
            }
            (n, 0.0, 0.0)
        }
        ("log(x + sqrt(x * x + 1.0))" | "log(x + sqrt(x * x - 1.0))", &[x]) => {
            let Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
                ulp: n,
                absolute,
                low: log_low,
                high: log_high,
            }) = *cell("log", element, unit)
            else {
                return None;
            };
            let asinh = formula.contains("+ 1.0");
            // asinh: x + sqrt(x^2 + 1) inside log's [low, high] (x within [-0.75, 0.75] for
            // [0.5, 2], computed exactly there): log's widening is at least its absolute bound.
            let inside = asinh
                && (log_low - 1.0 / log_low) / 2.0 <= x
                && x <= (log_high - 1.0 / log_high) / 2.0;
            let (n, absolute) = if inside { (0.0, absolute) } else { (n, 0.0) };
            let least = if asinh {
                0.0
            } else {
                1.0 + pow2(3 - unit.precision() as i32)
            };
            // Half's and float's acosh: x * x - 1.0 meets no overflow allowance while x^2
            // (exact in f64) is at most M, not only M / 2: M is on the grid, so x * x rounded
            // up stays at most M, and so does the difference.
            let most = if asinh || element == FloatType::Double {
                root_sum_most(element, unit)?
            } else {
                let (_, divisor_low, _) = division_cell(element, unit)?;
                if x * x > element.max_finite() {
                    return None;
                }
                pow2(60).min(0.25 / divisor_low)
            };
            if least <= x && x <= most {
                (n, 0.0, absolute)
            } else if asinh {
                // x < 0 or past the bound above: the chain's sum, its low end at least the
                // smallest normal value (log's low end finite, nothing flushed).
                let Some(AsinhChain::Sum { low, high }) = asinh_chain(x, element, unit) else {
                    return None;
                };
                if low < pow2(element.emin()) {
                    return None;
                }
                // asinh x - ln(high): x from 2^-50 below `approximation` (within half a double
                // ulp), ln(high) 2^-45 above f64's.
                let log_high = high.ln();
                let below = approximation - approximation.abs() * pow2(-50);
                let reach = (below - (log_high + log_high.abs() * pow2(-45))) * (1.0 - pow2(-40));
                (n, 0.0, absolute + reach.max(0.0))
            } else {
                return None;
            }
        }
        ("sinh(x) / cosh(x)", &[x]) => {
            let n = exp_ulp(x, element, unit)?;
            let (ulp, divisor_low, divisor_high) = division_cell(element, unit)?;
            let reach = x.abs().exp() * (1.0 + pow2(-40));
            if reach.is_nan()
                || reach > divisor_high / 4.0
                || divisor_low > 0.25
                || n * pow2(1 - unit.precision() as i32) > 0.125
            {
                return None;
            }
            let cosh = x.cosh() * (1.0 + pow2(-40));
            (ulp, 0.0, exp_pair_spread(x, n, element, unit) / cosh)
        }
        ("log((1.0 + x) / (1.0 - x)) * 0.5", &[x]) => {
            let Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
                ulp: n, absolute, ..
            }) = *cell("log", element, unit)
            else {
                return None;
            };
            let (_, divisor_low, _) = division_cell(element, unit)?;
            let gap = 1.0 - x.abs();
            if x.is_nan() || gap < pow2(3 - unit.precision() as i32) || gap < 2.0 * divisor_low {
                return None;
            }
            if x.abs() <= 0.33 {
                (0.0, 0.0, absolute / 2.0)
            } else {
                (n, 0.0, 0.0)
            }
        }
        ("(exp(x) - exp(-x)) * 0.5" | "(exp(x) + exp(-x)) * 0.5", &[x]) => {
            let n = exp_ulp(x, element, unit)?;
            let reach = x.abs().exp();
            if reach.is_nan() || reach > max / 4.0 {
                // Past that only the overflow allowance's infinity (x past the largest finite
                // value, e^|x| past twice it, and no NaN: e^-|x| <= 1).
                let overflow = x.is_finite() && approximation.abs() > max;
                let infinity = f64::INFINITY.copysign(approximation);
                return (overflow && device_result == infinity).then_some(f64::INFINITY);
            }
            (0.0, 0.0, exp_pair_spread(x, n, element, unit))
        }
        _ => return None,
    };
    let magnitude = approximation.abs();
    if magnitude > max {
        return (device_result == f64::INFINITY.copysign(approximation)).then_some(f64::INFINITY);
    }
    let tiny = pow2(element.emin());
    let below_normal = magnitude < tiny;
    if below_normal && device_result == 0.0 {
        let smallest = pow2(element.emin() - unit.precision() as i32 + 1);
        let holds_zero = !denorm_preserve || magnitude <= bound * smallest * (1.0 - pow2(-20));
        if holds_zero {
            return Some(crate::num::ulp::ulp_error_of_value(
                device_result,
                approximation,
                unit,
            ));
        }
    }
    if !device_result.is_finite() || magnitude > max / 2.0 {
        return None;
    }
    // x's binade, and the value its error is measured from, are `approximation`'s unless that
    // is a power of two, whose ulp (`ulp_of`, `ulp_error`) is the gap below it: x there or
    // just below it takes the binade below; x just above it takes `approximation`'s binade and
    // is measured from the double above. The formula tells the side where the pass knows it
    // (pow at 1: x > 1 exactly where log2 x and y are non-zero and of one sign).
    // Below the smallest normal value (x too: `approximation` is below it) every value's ulp
    // is the smallest denormal's, a power of two's too.
    let power_of_two = !below_normal && fraction_is_zero(approximation);
    let (binade_of, measured_from) = match (power_of_two, formula, args) {
        (false, ..) => (approximation, approximation),
        (true, "exp2(y * log2(x))" | "(exp(x) + exp(-x)) * 0.5", &[x, ..])
            if approximation == 1.0 =>
        {
            let next = |up: bool| {
                let bits = approximation.to_bits();
                f64::from_bits(if up { bits + 1 } else { bits - 1 })
            };
            // pow: x > 1 where log2 x and y are non-zero and of one sign; cosh: x > 1 but at 0.
            let above = match args {
                &[x, y] => x != 1.0 && y != 0.0 && (x > 1.0) == (y > 0.0),
                _ => x != 0.0,
            };
            if above {
                (approximation, next(true))
            } else {
                (next(false), approximation)
            }
        }
        // tanh: |x| < 1 for every finite argument, so x takes the binade below ±1.
        (true, "sinh(x) / cosh(x)", _) if approximation.abs() == 1.0 => {
            let below = f64::from_bits(approximation.to_bits() - 1);
            (below, approximation)
        }
        _ => return None,
    };
    let binade = ((binade_of.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ulp = pow2(binade.clamp(element.emin(), element.emax()) - unit.precision() as i32 + 1);
    let margin = magnitude * (1.0 - pow2(-40)) * spread + absolute;
    ((device_result - approximation).abs() <= (bound * ulp + margin) * (1.0 - pow2(-20)))
        .then(|| crate::num::ulp::ulp_error_of_value(device_result, measured_from, unit))
}

/// The largest x for which asinh's and acosh's formulas, `log(x + sqrt(x * x +- 1.0))`, are
/// proven bounded by their root's 3 ulp alone ([`passes_by_root_cell`]): 2^60, 1 / (4 d) (d
/// OpFDiv's least divisor) and sqrt(M) / 2, whichever is least.
fn root_sum_most(element: FloatType, unit: FloatType) -> Option<f64> {
    let (_, divisor_low, _) = division_cell(element, unit)?;
    Some(
        pow2(60)
            .min(0.25 / divisor_low)
            .min(element.max_finite().sqrt() / 2.0),
    )
}

/// What the interval evaluation of asinh's formula, `log(x + sqrt(x * x + 1.0))`, gives up to
/// log at a finite x ([`asinh_chain`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum AsinhChain {
    /// The evaluation reaches log: `low` and `high` bound the low end of the sum's exact
    /// interval (x plus the low end of sqrt's range, rounded down in MPFR), before it is
    /// rounded to the unit's grid.
    Sum { low: f64, high: f64 },
    /// It stops unbounded before log: x * x + 1.0 overflows, or inversesqrt's range lies
    /// outside OpFDiv's divisor range.
    Unbounded,
}

/// The steps of asinh's formula at a finite half or float x (`None` for double, whose x * x
/// f64 does not hold, and where a step's ulp is not certain), replayed in f64 as `evaluate`
/// takes them:
/// - x * x (exact in f64: at most 48 bits) rounded outwards to the unit's grid (p bits over
///   the result's exponent range), [a1, a2]; then + 1.0, rounded outwards, [b1, b2] (exact
///   in f64: the rounding of a two-sum). Where x^2 lies past G', the grid value below the
///   largest grid value G <= M, a2 + 1 rounds up past G (a2 >= G, and the grid's next value
///   is 2^(emax + 1)) or x^2 itself does: the overflow allowance makes that end infinite, so
///   inversesqrt's exact interval reaches down to 1 / sqrt(inf) = 0, its 2-ulp widening
///   below zero, and OpFDiv's divisor test fails (the range is neither inside [d, D], nor
///   [-D, -d], nor zero): unbounded. Nothing stops before (no NaN: b1 >= 1). At x^2 <= G' no
///   end overflows (a2 <= G', b2 <= G <= M), and a denormal flushed from a1 moves nothing
///   (b1 = 1 either way);
/// - inversesqrt: [e1, e2] = [1/sqrt(b2), 1/sqrt(b1)] (MPFR's 128-bit ends within 2^-127 of
///   them), widened by its cell's n ulp of u, the larger of its ends' `ulp_in`: [r1, r2].
///   Where r1 < d or r2 > D (OpFDiv's divisor range) the divisor test fails: unbounded; a
///   flush moves nothing (d is at least the smallest normal value in every column);
/// - OpFDiv 1.0 / [r1, r2]: [f1, f2] = [1/r2, 1/r1] widened by its 2.5 ulp of u': sqrt's
///   range [s1, s2];
/// - x + [s1, s2]: its exact interval's low end c1 = x + s1, MPFR's rounded down.
///
/// Each value is bounded in f64: every operation rounded to nearest once (so within 2^-53
/// of its exact value, relatively), and each bound then moved 2^-50 of it outwards, far more
/// than that and MPFR's 2^-127 together (1/sqrt rounds twice: 2^-52); b a power of four
/// makes 1/sqrt(b) exact, kept as a point. A widening's ulp is taken only where it is the same
/// at both bounds of its ends (`ulp_in` is monotonic in the magnitude, so it is then the
/// ends' own): the bounds straddle a power of two only within 2^-49 of one.
fn asinh_chain(x: f64, element: FloatType, unit: FloatType) -> Option<AsinhChain> {
    if !x.is_finite() || element.precision() > 24 {
        return None;
    }
    let (Requirement::CorrectlyRounded, Requirement::CorrectlyRounded, &Requirement::Ulp(root)) = (
        cell("OpFMul", element, unit),
        cell("OpFAdd", element, unit),
        cell("rsqrt", element, unit),
    ) else {
        return None;
    };
    let (quotient, divisor_low, divisor_high) = division_cell(element, unit)?;
    let grid = Grid {
        precision: unit.precision() as i32,
        emin: element.emin(),
    };
    let square = x * x;
    // G' = (2 - 2^(2 - p)) 2^emax, p the unit's precision.
    if square > (2.0 - pow2(2 - grid.precision)) * pow2(element.emax()) {
        return Some(AsinhChain::Unbounded);
    }
    let low_sum = grid.sum(grid.down(square), 1.0, false);
    let high_sum = grid.sum(grid.up(square), 1.0, true);
    let (e1, e2) = (reciprocal_root(high_sum), reciprocal_root(low_sum));
    let u = certain_ulp([e1, e2], element, unit)?;
    let r1 = outwards(e1.0 - root * u, e1.1 - root * u);
    let r2 = outwards(e2.0 + root * u, e2.1 + root * u);
    if r1.1 < divisor_low || r2.0 > divisor_high {
        return Some(AsinhChain::Unbounded);
    }
    if r1.0 < divisor_low || r2.1 > divisor_high {
        return None;
    }
    let (f1, f2) = (
        outwards(1.0 / r2.1, 1.0 / r2.0),
        outwards(1.0 / r1.1, 1.0 / r1.0),
    );
    let v = certain_ulp([f1, f2], element, unit)?;
    let s1 = outwards(f1.0 - quotient * v, f1.1 - quotient * v);
    let (low, high) = outwards(x + s1.0, x + s1.1);
    Some(AsinhChain::Sum { low, high })
}

/// `low` and `high` (each an f64 operation's result, within 2^-52 of its exact value) moved
/// 2^-50 of their magnitude outwards.
fn outwards(low: f64, high: f64) -> (f64, f64) {
    (low - low.abs() * pow2(-50), high + high.abs() * pow2(-50))
}

/// Bounds of 1/sqrt(b) for a positive b: a point where b is a power of four.
fn reciprocal_root(b: f64) -> (f64, f64) {
    let exponent = ((b.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if fraction_is_zero(b) && exponent % 2 == 0 {
        return (pow2(-exponent / 2), pow2(-exponent / 2));
    }
    let value = 1.0 / b.sqrt();
    outwards(value, value)
}

/// The larger `ulp_in` of values bounded by `ends` (each (low, high)), where both bounds give
/// the same.
fn certain_ulp(ends: [(f64, f64); 2], element: FloatType, unit: FloatType) -> Option<f64> {
    let at = |v: f64| ulp_in_f64(v, element, unit);
    let low = at(ends[0].0).max(at(ends[1].0));
    let high = at(ends[0].1).max(at(ends[1].1));
    (low == high).then_some(low)
}

/// [`ulp_in`] of a positive, normal f64: a power of two's the gap below it in the element's
/// own column (`ulp_of`), not in RelaxedPrecision's.
fn ulp_in_f64(v: f64, element: FloatType, unit: FloatType) -> f64 {
    let binade = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let gap = binade.clamp(element.emin(), element.emax()) - unit.precision() as i32 + 1;
    let power_of_two = fraction_is_zero(v);
    if unit == element && power_of_two && binade > element.emin() && binade <= element.emax() {
        pow2(gap - 1)
    } else {
        pow2(gap)
    }
}

/// The unit's grid (`round_to`'s): `precision` bits over the result's exponent range.
struct Grid {
    precision: i32,
    emin: i32,
}

impl Grid {
    fn gap(&self, v: f64) -> f64 {
        let binade = ((v.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
        pow2(binade.max(self.emin) - self.precision + 1)
    }

    /// `v` rounded down to the grid (exact: scalings by a power of two and a floor).
    fn down(&self, v: f64) -> f64 {
        let gap = self.gap(v);
        (v / gap).floor() * gap
    }

    fn up(&self, v: f64) -> f64 {
        let gap = self.gap(v);
        (v / gap).ceil() * gap
    }

    /// The exact a + b rounded to the grid, up or down: f64's sum s and its error (a
    /// two-sum); off the grid s rounds as the exact sum does (the error, within half an ulp
    /// of s, crosses no f64, and grid values are f64s), on it the error's sign decides.
    fn sum(&self, a: f64, b: f64, up: bool) -> f64 {
        let s = a + b;
        let b_part = s - a;
        let error = (a - (s - b_part)) + (b - b_part);
        let rounded = if up { self.up(s) } else { self.down(s) };
        if rounded != s || error == 0.0 {
            rounded
        } else if up && error > 0.0 {
            self.up(s.next_up())
        } else if !up && error < 0.0 {
            self.down(s.next_down())
        } else {
            s
        }
    }
}

/// A lower bound of how far the ranges of sinh's and cosh's formulas, `(exp(x) -+ exp(-x)) *
/// 0.5`, reach past sinh x and cosh x on each side, exp's cell being `n` ulp at x: n (u1 + u2)
/// / 2, u1 and u2 the ulp_in of e^x and e^-x at least (a range's widening takes the larger of
/// its ends' ulps), from their binades taken 2^-40 below f64's values.
fn exp_pair_spread(x: f64, n: f64, element: FloatType, unit: FloatType) -> f64 {
    let ulp_below = |v: f64| {
        let binade = (((v * (1.0 - pow2(-40))).to_bits() >> 52) & 0x7ff) as i32 - 1023;
        pow2(binade.clamp(element.emin(), element.emax()) - unit.precision() as i32 + 1)
    };
    n * (ulp_below(x.exp()) + ulp_below((-x).exp())) / 2.0
}

/// log2's widening of its range at the point x > 0 (`log`: f64's log2 x), as `widen` gives
/// it: (c, c_at_most), a lower and an upper bound of its distance from L = log2 x on each
/// side. Inside [0.5, 2] its absolute bound (exactly); outside (|L| >= 1) 3 ulp_in of an end,
/// at least the ulp of L's binade (taken from 2^-40 below |log2 x| in f64: an exact power of
/// two counts as the binade below it) and at most 2^(1 - p) |L| (1 + 2^-40) per ulp, p the
/// unit's precision (the ends are within 2^-100 of L, and ulp_in(v) <= 2^(1 - p) |v| for
/// |v| >= 1). `None` where log2's cell is not the one this reads.
fn log2_widening(x: f64, log: f64, element: FloatType, unit: FloatType) -> Option<(f64, f64)> {
    let Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
        ulp: n,
        low,
        high,
        absolute,
    }) = *cell("log2", element, unit)
    else {
        return None;
    };
    if (low..=high).contains(&x) {
        return Some((absolute, absolute));
    }
    let precision = unit.precision() as i32;
    let below = log.abs() * (1.0 - pow2(-40));
    let binade = ((below.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let c = n * pow2(binade.clamp(element.emin(), element.emax()) - precision + 1);
    let c_at_most = n * pow2(1 - precision) * log.abs() * (1.0 + pow2(-40));
    Some((c, c_at_most))
}

/// Whether [`judge`]'s interval evaluation of an inherited cell certainly stops with
/// [`Stop::Unbounded`] at `args`, so that it leaves any result there unjudged
/// (`Verdict::Unbounded`; asinh's stops with NaN, read the same): tanh past its divisor range
/// and asinh at x below zero or far above it (below), and pow, `exp2(y * log2(x))`,
/// at x > 0 and y finite where |y| (|L| + c) lies past the largest finite value M of the
/// result's type, L = log2 x and c the lower bound of log2's widening ([`log2_widening`])
/// (|y log2 x| beyond about M: float pow with |y| beyond about 2^120 and x away from 1, 0.8%
/// of a float sweep's inputs; pow(2, 65504) in half).
///
/// Why: log2's range at the point x reaches L - c' and L + c' (c' >= c; L finite: x > 0), and
/// OpFMul's exact interval is the hull of y times those ends, so one of its ends is at least
/// |y| (|L| + c) > M in magnitude, which rounding outwards keeps past M and the overflow
/// allowance then makes infinite. exp2's cell, 3 + 2|t| ulp at the largest magnitude |t| of its argument's range
/// (a range, not a point: log2's range is wider than a point, and so the product's), is then
/// infinite, and `widen` stops unbounded. Nothing stops the evaluation before (log2 of a
/// positive point, products of finite values: no NaN). `judge` reads that stop as
/// `Verdict::Unbounded` here: the arguments are finite and not zero (y is not, as T is not),
/// and the exact value is finite (MPFR's exponent range; an overflow kept finite by
/// [`crate::reference::high_precision`]); and `crate::judge::vulkan::judge` tries flushed
/// arguments only after a failure. The bound is computed in f64 2^-40 below: log2 is within
/// an ulp or two of the exact one, and each operation rounded once.
///
/// tanh, `sinh(x) / cosh(x)`, at a finite x where cosh x (f64's, taken 2^-40 below) lies past
/// OpFDiv's divisor range [d, D] (half's |x| past about 9.7, float's past about 88): cosh's
/// range holds cosh x > D, so the divisor test fails (the range is not inside [d, D], nor
/// [-D, -d], nor zero) and the evaluation stops unbounded. Nothing stops it before: exp's
/// ranges at a finite point have finite magnitudes (an overflowing end is infinite, not NaN),
/// exp(-|x|)'s range is finite, so sinh's difference and cosh's sum hold no inf - inf, and
/// the products by 0.5 no 0 inf. `judge` reads the stop as `Verdict::Unbounded`: x is finite
/// and not zero, tanh x finite.
///
/// asinh, `log(x + sqrt(x * x + 1.0))`, at x < 0 with |x| at most 1 / (4 d) and sqrt(M) / 2
/// where N ulp_in(|x|) >= 2 / |x| (N OpFDiv's 2.5 ulp; float's |x| from about 2^12, half's
/// from 64): the evaluation stops with NaN among log's values, which `judge` reads as
/// `Verdict::Unbounded` whatever the arguments. Up to log it finishes as for x >= 0
/// ([`passes_by_root_cell`]: x * x + 1.0 has no overflow, inversesqrt's range lies inside
/// OpFDiv's divisor range). sqrt's range, OpFDiv's widened by N ulp of its larger end, reaches
/// below s = sqrt(x^2 + 1) by N ulp_in(s) >= N ulp_in(|x|) (s > |x|), so the sum's exact
/// interval reaches below x + s = 1 / (|x| + s) < 1 / (2 |x|) by as much: its low end is at
/// most -1.5 / |x|, negative and, beyond the smallest normal value in magnitude (|x| <= 2^64
/// in float, 128 in half), not flushed to zero; rounding down keeps it negative, and log of a
/// range reaching below zero stops with NaN.
///
/// asinh at any other finite half or float x (but x >= 0 inside the bound
/// [`passes_by_root_cell`] proves bounded) where [`asinh_chain`] shows the evaluation stopping:
/// x * x + 1.0 overflowing (|x| past sqrt(G'), G' the grid value below the largest: float's
/// about 2^64, half's past 255.75) or inversesqrt's range outside OpFDiv's divisor range
/// (RelaxedPrecision's |x| past about 2^14, 1 / |x| below half's 2^-14), both unbounded
/// (`judge` reads the stop as `Verdict::Unbounded`: x is finite and not zero, asinh x
/// finite); or the low end of the sum's exact interval certainly below zero (x < 0 where
/// sqrt's spread, inversesqrt's 2 ulp and OpFDiv's 2.5, outweighs x + sqrt(x^2 + 1) =
/// 1 / (|x| + sqrt(x^2 + 1)): float's |x| from about 2^10, half's and RelaxedPrecision's from
/// about 2^4): rounded down it stays negative, and log's range holds NaN.
///
/// length, `sqrt(dot(x, x))`, and distance, `length(x - y)`, in half and float, where dot's
/// exact value D (the sum of the squared components, or of the components' exact
/// differences; f64's, within 2^-49 of it, taken 2^-40 to the safe side) is not zero and
/// lies past the largest finite value M, or below the smallest normal value without
/// DenormPreserve: dot's range holds D, so its high end passes M and the overflow allowance
/// makes it infinite while its low end is at most M; or its low end lies below the smallest
/// normal value and is flushed to zero (or is negative). In the first case inversesqrt's
/// range runs from 1/sqrt(inf) = 0 less its widening (below zero) to a positive end, so it is
/// inside neither side of OpFDiv's divisor range nor zero alone; in the second it reaches
/// 1/sqrt(0) = inf (or a negative argument's NaN): `sqrt`'s `1.0 / inversesqrt(t)` stops
/// unbounded (or with NaN). Nothing stops the evaluation before: differences and products of
/// finite points, sums of ranges with no -inf end. `judge` reads either stop as
/// `Verdict::Unbounded`: the arguments are finite and the exact value is finite and not zero.
///
/// acosh, `log(x + sqrt(x * x - 1.0))`, in half and float, at x > 0 with x^2 past M (f64's
/// x^2 is exact): the product's range reaches past M, so its high end is infinite and its low
/// end at most M, and so are the difference's less one; the root stops unbounded as length's
/// does, before log. `judge` reads the stop as `Verdict::Unbounded`: x is finite and not zero,
/// acosh x finite.
pub fn unbounded_at(
    formula: &str,
    element: FloatType,
    unit: FloatType,
    args: &[f64],
    denorm_preserve: bool,
) -> bool {
    let half_or_float = element != FloatType::Double;
    match (formula, args) {
        ("sqrt(dot(x, x))", _) if half_or_float => {
            dot_unbounded(args.iter().copied(), element, denorm_preserve)
        }
        ("length(x - y)", _) if half_or_float && args.len().is_multiple_of(2) => {
            let (x, y) = args.split_at(args.len() / 2);
            dot_unbounded(
                x.iter().zip(y).map(|(x, y)| x - y),
                element,
                denorm_preserve,
            )
        }
        ("log(x + sqrt(x * x - 1.0))", &[x]) if half_or_float && x > 0.0 && x.is_finite() => {
            x * x > element.max_finite()
        }
        ("exp2(y * log2(x))", &[x, y]) if x > 0.0 && x.is_finite() && y.is_finite() => {
            let log = x.log2();
            let Some((c, _)) = log2_widening(x, log, element, unit) else {
                return false;
            };
            let end = y.abs() * (log.abs() * (1.0 - pow2(-40)) + c) * (1.0 - pow2(-40));
            end > element.max_finite()
        }
        ("sin(x) / cos(x)", &[x]) if x.is_finite() => {
            let Requirement::Vulkan(Cell::AbsoluteInside { low, high, .. }) =
                *cell("sin", element, unit)
            else {
                return false;
            };
            x < low || x > high
        }
        ("sinh(x) / cosh(x)", &[x]) if x.is_finite() => {
            let Some((_, _, high)) = division_cell(element, unit) else {
                return false;
            };
            x.cosh() * (1.0 - pow2(-40)) > high
        }
        ("log(x + sqrt(x * x + 1.0))", &[x]) if x.is_finite() => {
            let Some((ulp, low, _)) = division_cell(element, unit) else {
                return false;
            };
            if x >= 0.0 && root_sum_most(element, unit).is_some_and(|most| x <= most) {
                return false;
            }
            let magnitude = -x;
            let most = (0.25 / low).min(element.max_finite().sqrt() / 2.0);
            let binade = ((magnitude.to_bits() >> 52) & 0x7ff) as i32 - 1023;
            let ulp_of_x =
                pow2(binade.clamp(element.emin(), element.emax()) - unit.precision() as i32 + 1);
            if x < 0.0 && magnitude <= most && ulp * ulp_of_x >= 2.0 / magnitude {
                return true;
            }
            match asinh_chain(x, element, unit) {
                Some(AsinhChain::Unbounded) => true,
                // The sum's exact interval reaches below zero, and rounding down keeps it
                // there: log's range holds NaN.
                Some(AsinhChain::Sum { high, .. }) => high < 0.0,
                None => false,
            }
        }
        _ => false,
    }
}

/// Whether dot's range over `components` (finite values of a half or float vector, or their
/// differences, each within 2^-53 of exact) certainly stops `sqrt` ([`unbounded_at`]): the sum
/// of their squares not zero and past the largest finite value, or, without DenormPreserve,
/// below the smallest normal one.
fn dot_unbounded(
    components: impl Iterator<Item = f64>,
    element: FloatType,
    denorm_preserve: bool,
) -> bool {
    let mut sum = 0.0;
    for d in components {
        if !d.is_finite() {
            return false;
        }
        sum += d * d;
    }
    let margin = pow2(-40);
    sum > 0.0
        && (sum * (1.0 - margin) > element.max_finite()
            || !denorm_preserve && sum * (1.0 + margin) < pow2(element.emin()))
}

/// Whether `result` lies in [x - E, x + E] (E the larger distance from x to a finite end), or
/// inside the range, or is the overflow allowance where the range reaches past the largest
/// finite value.
fn permitted(range: &Interval, x: &Float, result: f64, element: FloatType) -> bool {
    if result.is_nan() {
        return false;
    }
    let max = element.max_finite();
    if (result == f64::INFINITY || result == max) && range.high > max {
        return true;
    }
    if (result == f64::NEG_INFINITY || result == -max) && range.low < -max {
        return true;
    }
    if range.low <= result && range.high >= result {
        return true;
    }
    let distance = |end: &Float| Float::with_val_round(PRECISION, x - end, Round::Up).0.abs();
    let radius = [&range.low, &range.high]
        .into_iter()
        .filter(|end| end.is_finite())
        .map(distance)
        .fold(Float::with_val(PRECISION, 0), |a, b| a.max(&b));
    let off = Float::with_val_round(PRECISION, x - result, Round::Nearest)
        .0
        .abs();
    result.is_finite() && off <= radius
}

/// The formula's exact value at `args` (a double result's, IEEE's rules at zeros and
/// infinities), where it has one: the literal evaluation's tests measure errors against it.
#[cfg(test)]
pub(super) fn exact_value(formula: &Formula, args: &[f64], component: usize) -> Option<Float> {
    let context = Context {
        element: FloatType::Double,
        unit: FloatType::Double,
        flush: false,
        exact: true,
        association: 0,
    };
    evaluate(formula, args, component, context)
        .ok()
        .map(|range| range.low)
}

/// The formula's range at `args` (each parameter's components in turn): component
/// `component` of its value.
fn evaluate(
    formula: &Formula,
    args: &[f64],
    component: usize,
    context: Context,
) -> Result<Interval, Stop> {
    let parameters = formula.parameters();
    if parameters.is_empty() || !args.len().is_multiple_of(parameters.len()) {
        return Err(Stop::Unbounded);
    }
    let width = args.len() / parameters.len();
    let bound: Vec<(&str, Value)> = parameters
        .iter()
        .zip(args.chunks(width))
        .map(|(name, values)| {
            let value = values
                .iter()
                .map(|v| Interval::point(Float::with_val(PRECISION, *v)))
                .collect();
            (*name, value)
        })
        .collect();
    let value = apply(formula, bound, context)?;
    let index = if value.len() == 1 { 0 } else { component };
    value.get(index).cloned().ok_or(Stop::Unbounded)
}

/// A formula's value with its parameters bound.
fn apply<'a>(
    formula: &'a Formula,
    mut bound: Vec<(&'a str, Value)>,
    context: Context,
) -> Result<Value, Stop> {
    if let Some((name, expr)) = &formula.binding {
        let value = Evaluation {
            bound: &bound,
            index: None,
            context,
        }
        .expr(expr)?;
        bound.push((name.as_str(), value));
    }
    Evaluation {
        bound: &bound,
        index: None,
        context,
    }
    .expr(&formula.body)
}

/// One evaluation's names: the parameters (and a `where` binding), and `sum`'s index.
struct Evaluation<'a> {
    bound: &'a [(&'a str, Value)],
    index: Option<(&'a str, usize)>,
    context: Context,
}

impl Evaluation<'_> {
    fn lookup(&self, name: &str) -> Result<&Value, Stop> {
        self.bound
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .ok_or(Stop::Unbounded)
    }

    fn expr(&self, expr: &Expr) -> Result<Value, Stop> {
        let context = self.context;
        match expr {
            Expr::Number(v) => Ok(vec![Interval::point(Float::with_val(PRECISION, *v))]),
            Expr::Constant(constant) => Ok(vec![self.constant(*constant)]),
            Expr::Variable(name) => self.lookup(name).cloned(),
            Expr::Component(name, index) => {
                let (bound_index, i) = self.index.ok_or(Stop::Unbounded)?;
                if bound_index != index {
                    return Err(Stop::Unbounded);
                }
                let value = self.lookup(name)?;
                value
                    .get(i)
                    .cloned()
                    .map(|v| vec![v])
                    .ok_or(Stop::Unbounded)
            }
            Expr::Negate(inner) => Ok(self
                .expr(inner)?
                .into_iter()
                .map(|v| Interval {
                    low: -v.high,
                    high: -v.low,
                })
                .collect()),
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                componentwise(&[a, b], |args| arithmetic(*op, &args[0], &args[1], context))
            }
            Expr::Operation(_) => Err(Stop::Unbounded),
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    /// Either neighbour of the exact constant in the unit's type.
    fn constant(&self, constant: Constant) -> Interval {
        let value = grid::constant_value(constant, PRECISION);
        if self.context.exact {
            return Interval::point(value);
        }
        Interval {
            low: round_to(&value, self.context, Round::Down),
            high: round_to(&value, self.context, Round::Up),
        }
    }

    fn call(&self, name: &str, args: &[Expr]) -> Result<Value, Stop> {
        let context = self.context;
        if name == "sum" {
            let [body] = args else {
                return Err(Stop::Unbounded);
            };
            let width = self.bound.iter().map(|(_, v)| v.len()).max().unwrap_or(1);
            if context.association > 0 {
                return self.reassociated_sum(body, width);
            }
            let mut total: Option<Interval> = None;
            for i in 0..width {
                let term = Evaluation {
                    bound: self.bound,
                    index: Some(("i", i)),
                    context,
                }
                .expr(body)?;
                let [term] = <[Interval; 1]>::try_from(term).map_err(|_| Stop::Unbounded)?;
                total = Some(match total {
                    None => term,
                    Some(sum) => arithmetic(Operator::Add, &sum, &term, context)?,
                });
            }
            return total.map(|t| vec![t]).ok_or(Stop::Unbounded);
        }
        if let Some(op) = Operator::of_instruction(name) {
            return match args {
                [Expr::Operation(first), Expr::Operation(second)] => self.cross(op, first, second),
                [a, b] => {
                    let (a, b) = (self.expr(a)?, self.expr(b)?);
                    componentwise(&[a, b], |v| arithmetic(op, &v[0], &v[1], context))
                }
                _ => Err(Stop::Unbounded),
            };
        }
        let registry = formula::FUNCTIONS
            .iter()
            .find(|(text, _)| *text == name)
            .map(|(_, registry)| *registry)
            .ok_or(Stop::Unbounded)?;
        let values = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<Value>, Stop>>()?;
        let requirement = cell(registry, context.element, context.unit);
        if let Requirement::Vulkan(Cell::Inherited(text)) = &requirement {
            let formula = formula::of_table(text).ok_or(Stop::Unbounded)?;
            let parameters = formula.parameters();
            if parameters.len() != values.len() {
                return Err(Stop::Unbounded);
            }
            return apply(
                formula,
                parameters.into_iter().zip(values).collect(),
                context,
            );
        }
        componentwise(&values, |v| function(registry, v, requirement, context))
    }

    /// `sum(body)` over `width` terms added in the context's association (every term first,
    /// then the pairs in turn); an association this width has not stops.
    fn reassociated_sum(&self, body: &Expr, width: usize) -> Result<Value, Stop> {
        let steps = associations(width)
            .get(self.context.association - 1)
            .ok_or(Stop::Unbounded)?;
        let mut sums = Vec::with_capacity(width);
        for i in 0..width {
            let term = Evaluation {
                bound: self.bound,
                index: Some(("i", i)),
                context: self.context,
            }
            .expr(body)?;
            let [term] = <[Interval; 1]>::try_from(term).map_err(|_| Stop::Unbounded)?;
            sums.push(term);
        }
        for &(i, j) in steps {
            let b = sums.remove(j);
            let a = sums.remove(i);
            sums.insert(0, arithmetic(Operator::Add, &a, &b, self.context)?);
        }
        let [total] = <[Interval; 1]>::try_from(sums).map_err(|_| Stop::Unbounded)?;
        Ok(vec![total])
    }

    /// Cross's `op(first, second)`: component c is op(first(x[c+1], y[c+2]), second(y[c+1],
    /// x[c+2])), indices mod 3.
    fn cross(&self, op: Operator, first: &str, second: &str) -> Result<Value, Stop> {
        let (x, y) = (self.lookup("x")?, self.lookup("y")?);
        let (first, second) = (
            Operator::of_instruction(first).ok_or(Stop::Unbounded)?,
            Operator::of_instruction(second).ok_or(Stop::Unbounded)?,
        );
        if x.len() != 3 || y.len() != 3 {
            return Err(Stop::Unbounded);
        }
        (0..3)
            .map(|c| {
                let (j, k) = ((c + 1) % 3, (c + 2) % 3);
                let a = arithmetic(first, &x[j], &y[k], self.context)?;
                let b = arithmetic(second, &y[j], &x[k], self.context)?;
                arithmetic(op, &a, &b, self.context)
            })
            .collect()
    }
}

/// `f` applied component by component, a scalar argument standing for every component.
fn componentwise(
    values: &[Value],
    f: impl Fn(&[Interval]) -> Result<Interval, Stop>,
) -> Result<Value, Stop> {
    let width = values.iter().map(Vec::len).max().unwrap_or(1);
    if values.iter().any(|v| v.len() != 1 && v.len() != width) {
        return Err(Stop::Unbounded);
    }
    (0..width)
        .map(|i| {
            let args: Vec<Interval> = values
                .iter()
                .map(|v| v[if v.len() == 1 { 0 } else { i }].clone())
                .collect();
            f(&args)
        })
        .collect()
}

/// The range of the exact operation over the four corners, widened by the operation's cell.
fn arithmetic(
    op: Operator,
    a: &Interval,
    b: &Interval,
    context: Context,
) -> Result<Interval, Stop> {
    let requirement = cell(op.instruction(), context.element, context.unit);
    if op == Operator::Div && !context.exact {
        let Requirement::Vulkan(Cell::UlpForDivisor { low, high, .. }) = *requirement else {
            return Err(Stop::Unbounded);
        };
        let zero = b.low.is_zero() && b.high.is_zero();
        let positive = b.low >= low && b.high <= high;
        let negative = b.high <= -low && b.low >= -high;
        if !(zero || positive || negative) {
            return Err(Stop::Unbounded);
        }
    }
    let corner = |x: &Float, y: &Float, round| {
        let value = match op {
            Operator::Add => Float::with_val_round(PRECISION, x + y, round),
            Operator::Sub => Float::with_val_round(PRECISION, x - y, round),
            Operator::Mul => Float::with_val_round(PRECISION, x * y, round),
            Operator::Div => Float::with_val_round(PRECISION, x / y, round),
        };
        value.0
    };
    let mut lows = Vec::with_capacity(4);
    let mut highs = Vec::with_capacity(4);
    for x in [&a.low, &a.high] {
        for y in [&b.low, &b.high] {
            lows.push(corner(x, y, Round::Down));
            highs.push(corner(x, y, Round::Up));
        }
    }
    let exact = hull(lows, highs)?;
    widen(exact, requirement, None, context)
}

/// The smallest of `lows` to the largest of `highs`; NaN among them stops the evaluation.
fn hull(lows: Vec<Float>, highs: Vec<Float>) -> Result<Interval, Stop> {
    if lows.iter().chain(&highs).any(Float::is_nan) {
        return Err(Stop::Nan);
    }
    let low = lows.into_iter().reduce(|a, b| a.min(&b));
    let high = highs.into_iter().reduce(|a, b| a.max(&b));
    match (low, high) {
        (Some(low), Some(high)) => Ok(Interval { low, high }),
        _ => Err(Stop::Unbounded),
    }
}

/// The range of a GLSL.std.450 function over its arguments' ranges, widened by its cell.
fn function(
    registry: &str,
    args: &[Interval],
    requirement: &Requirement,
    context: Context,
) -> Result<Interval, Stop> {
    let rounded =
        |v: &Float, f: &dyn Fn(&Float, Round) -> Float| (f(v, Round::Down), f(v, Round::Up));
    let increasing = |arg: &Interval, f: &dyn Fn(&Float, Round) -> Float| {
        hull(vec![rounded(&arg.low, f).0], vec![rounded(&arg.high, f).1])
    };
    let exact = match (registry, args) {
        ("exp", [arg]) => increasing(arg, &|v, r| {
            Float::with_val_round(PRECISION, v.exp_ref(), r).0
        })?,
        ("exp2", [arg]) => increasing(arg, &|v, r| {
            Float::with_val_round(PRECISION, v.exp2_ref(), r).0
        })?,
        ("log" | "log2", [arg]) => {
            if arg.low.is_sign_negative() && !arg.low.is_zero() {
                return Err(Stop::Nan);
            }
            if registry == "log" {
                increasing(arg, &|v, r| {
                    Float::with_val_round(PRECISION, v.ln_ref(), r).0
                })?
            } else {
                increasing(arg, &|v, r| {
                    Float::with_val_round(PRECISION, v.log2_ref(), r).0
                })?
            }
        }
        ("rsqrt", [arg]) => {
            if arg.low.is_sign_negative() && !arg.low.is_zero() {
                return Err(Stop::Nan);
            }
            let f = |v: &Float, r| {
                // 1/sqrt(+0) = +inf; MPFR gives it for -0 as well, which IEEE's -inf is not:
                // a zero here comes from a range of non-negative values.
                let v = if v.is_zero() {
                    Float::with_val(PRECISION, 0)
                } else {
                    v.clone()
                };
                Float::with_val_round(PRECISION, v.recip_sqrt_ref(), r).0
            };
            hull(
                vec![f(&arg.high, Round::Down)],
                vec![f(&arg.low, Round::Up)],
            )?
        }
        ("trunc", [arg]) => Interval {
            low: Float::with_val(PRECISION, arg.low.trunc_ref()),
            high: Float::with_val(PRECISION, arg.high.trunc_ref()),
        },
        ("fclamp", [v, low, high]) => {
            let clamp = |v: &Float, low: &Float, high: &Float| {
                Float::with_val(PRECISION, v.max_ref(low)).min(high)
            };
            Interval {
                low: clamp(&v.low, &low.low, &high.low),
                high: clamp(&v.high, &low.high, &high.high),
            }
        }
        ("sin" | "cos", [arg]) => trigonometric(registry == "sin", arg)?,
        ("atan2", [y, x]) => atan2(y, x)?,
        _ => return Err(Stop::Unbounded),
    };
    let argument = args.first();
    widen(exact, requirement, argument, context)
}

/// sin or cos over a range: its ends' values, and ±1 where an extremum may lie inside.
fn trigonometric(sine: bool, arg: &Interval) -> Result<Interval, Stop> {
    let at = |v: &Float, r| {
        if sine {
            Float::with_val_round(PRECISION, v.sin_ref(), r).0
        } else {
            Float::with_val_round(PRECISION, v.cos_ref(), r).0
        }
    };
    if !arg.low.is_finite() || !arg.high.is_finite() {
        return Err(Stop::Nan);
    }
    let mut range = hull(
        vec![at(&arg.low, Round::Down), at(&arg.high, Round::Down)],
        vec![at(&arg.low, Round::Up), at(&arg.high, Round::Up)],
    )?;
    if arg.is_point() {
        return Ok(range);
    }
    // Extrema at pi/2 + k*pi (sin) or k*pi (cos); a margin keeps f64's rounding conservative.
    let (low, high) = (arg.low.to_f64(), arg.high.to_f64());
    let offset = if sine {
        std::f64::consts::FRAC_PI_2
    } else {
        0.0
    };
    let first = ((low - offset) / std::f64::consts::PI - 1e-9).ceil() as i64;
    let mut k = first;
    while offset + k as f64 * std::f64::consts::PI <= high + 1e-9 * (1.0 + high.abs()) {
        if k.rem_euclid(2) == 0 {
            range.high = Float::with_val(PRECISION, 1);
        } else {
            range.low = Float::with_val(PRECISION, -1);
        }
        k += 1;
        if k - first > 2 {
            return Ok(Interval {
                low: Float::with_val(PRECISION, -1),
                high: Float::with_val(PRECISION, 1),
            });
        }
    }
    Ok(range)
}

/// atan2(y, x) over a box: at its corners where the box holds neither the origin (undefined:
/// any result) nor a piece of the cut along negative x (there [-pi, pi]). A zero end of y
/// counts as +0 where y's range is non-negative, -0 where it is non-positive.
fn atan2(y: &Interval, x: &Interval) -> Result<Interval, Stop> {
    let zero = Float::with_val(PRECISION, 0);
    let y_holds_zero = y.low <= zero && y.high >= zero;
    if y_holds_zero && x.low <= zero && x.high >= zero {
        return Err(Stop::Nan);
    }
    let pi = Float::with_val(PRECISION, MpfrConstant::Pi);
    if y.low < zero && y.high > zero && x.low < zero {
        return Ok(Interval {
            low: Float::with_val_round(PRECISION, -&pi, Round::Down).0,
            high: Float::with_val_round(PRECISION, &pi, Round::Up).0,
        });
    }
    let signed = |v: &Float| {
        if v.is_zero() {
            if y.low >= zero {
                Float::with_val(PRECISION, 0)
            } else {
                -Float::with_val(PRECISION, 0)
            }
        } else {
            v.clone()
        }
    };
    let mut lows = Vec::new();
    let mut highs = Vec::new();
    for b in [&y.low, &y.high] {
        for a in [&x.low, &x.high] {
            let b = signed(b);
            lows.push(Float::with_val_round(PRECISION, b.atan2_ref(a), Round::Down).0);
            highs.push(Float::with_val_round(PRECISION, b.atan2_ref(a), Round::Up).0);
        }
    }
    hull(lows, highs)
}

/// The values an operation may return whose exact value lies in `exact`, its first argument
/// in `argument`, under its cell: N ulp (of the larger ulp of the two ends: a superset),
/// N + B|x| ulp at the argument's largest magnitude, an absolute bound where the argument
/// lies in its range (both readings where it straddles the range's edge), correctly rounded
/// as the two directed roundings, correct result exactly. Then the overflow allowance and,
/// without DenormPreserve, a flushed denormal. Another cell, or an argument outside an
/// absolute cell's range, bounds nothing.
fn widen(
    exact: Interval,
    requirement: &Requirement,
    argument: Option<&Interval>,
    context: Context,
) -> Result<Interval, Stop> {
    if exact.low.is_nan() || exact.high.is_nan() {
        return Err(Stop::Nan);
    }
    if context.exact {
        return Ok(exact);
    }
    // At an infinite argument the operation's value is IEEE's (exp2(-inf) = 0): a count of
    // ulps growing with |x| would be infinite there.
    if argument.is_some_and(|a| a.is_point() && !a.low.is_finite()) {
        return Ok(beyond_and_below(exact, context));
    }
    // An infinite end stays as it is; the ulp is the finite ends'.
    let ulp = [&exact.low, &exact.high]
        .into_iter()
        .filter(|end| end.is_finite())
        .map(|end| ulp_in(end, context))
        .fold(0.0, f64::max);
    let by = |distance: f64| Interval {
        low: Float::with_val_round(PRECISION, &exact.low - distance, Round::Down).0,
        high: Float::with_val_round(PRECISION, &exact.high + distance, Round::Up).0,
    };
    // Where the argument lies against [low, high]: (some inside, some outside).
    let inside = |low: f64, high: f64| {
        argument.map(|range| {
            let within = range.low >= low && range.high <= high;
            let beyond = range.high < low || range.low > high;
            (!beyond, !within)
        })
    };
    let widened = match requirement {
        Requirement::Exact => exact,
        Requirement::CorrectlyRounded => Interval {
            low: round_to(&exact.low, context, Round::Down),
            high: round_to(&exact.high, context, Round::Up),
        },
        Requirement::Ulp(n) => by(n * ulp),
        Requirement::Vulkan(Cell::UlpForDivisor { ulp: n, .. }) => by(n * ulp),
        Requirement::Vulkan(Cell::UlpPerMagnitude {
            constant,
            per_magnitude,
        }) => {
            let magnitude = argument.ok_or(Stop::Unbounded)?.magnitude().to_f64();
            if !magnitude.is_finite() {
                return Err(Stop::Unbounded);
            }
            by((constant + per_magnitude * magnitude) * ulp)
        }
        Requirement::Vulkan(Cell::AbsoluteInside {
            absolute,
            low,
            high,
        }) => match inside(*low, *high) {
            Some((true, false)) => by(*absolute),
            _ => return Err(Stop::Unbounded),
        },
        Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
            ulp: n,
            low,
            high,
            absolute,
        }) => match inside(*low, *high) {
            Some((true, false)) => by(*absolute),
            Some((false, true)) => by(n * ulp),
            Some(_) => by(absolute.max(n * ulp)),
            None => return Err(Stop::Unbounded),
        },
        _ => return Err(Stop::Unbounded),
    };
    Ok(beyond_and_below(widened, context))
}

/// The overflow allowance (past the largest finite value: that value or the infinity) and,
/// where denormals may be flushed, zero beside a denormal.
fn beyond_and_below(mut range: Interval, context: Context) -> Interval {
    let max = context.element.max_finite();
    if range.high > max {
        range.high = Float::with_val(PRECISION, f64::INFINITY);
        if range.low > max {
            range.low = Float::with_val(PRECISION, max);
        }
    }
    if range.low < -max {
        range.low = Float::with_val(PRECISION, f64::NEG_INFINITY);
        if range.high < -max {
            range.high = Float::with_val(PRECISION, -max);
        }
    }
    if context.flush {
        let tiny = pow2(context.element.emin());
        let zero = Float::with_val(PRECISION, 0);
        if range.low > zero && range.low < tiny {
            range.low = zero;
        } else if range.high < zero && range.high > -tiny {
            range.high = zero;
        }
    }
    range
}

/// The ulp of a value in the unit's precision and the result's exponent range (a float unit's
/// own; RelaxedPrecision's half precision over float's exponents).
fn ulp_in(v: &Float, context: Context) -> f64 {
    if context.unit == context.element {
        return crate::num::ulp::ulp_of(v, context.unit);
    }
    let precision = context.unit.precision() as i32;
    let element = context.element;
    let binade = match v.get_exp() {
        Some(exp) if v.is_finite() => exp - 1,
        _ => element.emin(),
    };
    pow2(binade.clamp(element.emin(), element.emax()) - precision + 1)
}

/// `v` rounded down or up to the unit's precision in the result's exponent range (beyond the
/// largest finite value it stays as is: the overflow allowance decides there).
fn round_to(v: &Float, context: Context, round: Round) -> Float {
    grid::round_to(v, context.element, context.unit, round)
}

/// exp's bound at `x` in the unit's column, in ulp: its cell's `constant + per_magnitude·|x|`.
fn exp_ulp(x: f64, element: FloatType, unit: FloatType) -> Option<f64> {
    let Requirement::Vulkan(Cell::UlpPerMagnitude {
        constant,
        per_magnitude,
    }) = *cell("exp", element, unit)
    else {
        return None;
    };
    Some(constant + per_magnitude * x.abs())
}

/// OpFDiv's cell (its ulp bound and the divisor range it holds on) in the unit's column.
fn division_cell(element: FloatType, unit: FloatType) -> Option<(f64, f64, f64)> {
    let Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high }) =
        *cell("OpFDiv", element, unit)
    else {
        return None;
    };
    Some((ulp, low, high))
}

/// The cell of the operation named `function` (the registry's name) in the column the unit's
/// result is judged by: half's for a RelaxedPrecision float result.
fn cell(function: &str, element: FloatType, unit: FloatType) -> &'static Requirement {
    // Found once: `builtin_in` names its file for every call, which cost a fifth of a float
    // pow unit's samples where every result looked exp2's and log2's cells up.
    static TABLE: OnceLock<&'static UlpTable> = OnceLock::new();
    let table = TABLE.get_or_init(|| builtin_in(&VULKAN, Revision::Spec2026, Profile::Full));
    let row = table
        .row(function)
        .expect("the Vulkan table has the formulas' operations");
    column(row, element, unit != element).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_formula_of_the_table_is_evaluated() {
        let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
        let mut count = 0;
        for row in &table.rows {
            for cell in [&row.float64, &row.float32, &row.float16] {
                if let Requirement::Vulkan(Cell::Inherited(text)) = cell {
                    assert!(evaluable(text), "{}: `{text}`", row.instruction);
                    assert!(formula::of_table(text).is_some(), "{}", row.instruction);
                    count += 1;
                }
            }
        }
        assert_eq!(count, 22 * 3);
        for (_, registry) in formula::FUNCTIONS {
            assert!(table.row(registry).is_some(), "{registry}");
        }
        assert!(!evaluable("sinpi(x)"));
        assert!(!evaluable("x +"));
    }

    /// Three terms are added in 3 ways, four in 15 (commuted operands are one way): the other
    /// ones besides the written order, each once.
    #[test]
    fn sums_have_every_other_association_once() {
        assert!(associations(2).is_empty());
        for (terms, others) in [(3, 2), (4, 14)] {
            let trees: Vec<String> = associations(terms)
                .iter()
                .map(|steps| {
                    let mut sums: Vec<String> = (0..terms).map(|t| t.to_string()).collect();
                    for &(i, j) in steps {
                        let (b, a) = (sums.remove(j), sums.remove(i));
                        sums.insert(
                            0,
                            if a < b {
                                format!("({a}+{b})")
                            } else {
                                format!("({b}+{a})")
                            },
                        );
                    }
                    sums.concat()
                })
                .collect();
            assert_eq!(trees.len(), others, "{trees:?}");
            for (k, tree) in trees.iter().enumerate() {
                assert!(!trees[..k].contains(tree), "{tree} twice");
                assert_ne!(tree, &"(((0+1)+2)+3)".to_string());
                assert_ne!(tree, &"((0+1)+2)".to_string());
            }
        }
    }

    /// AllowReassoc: a dot product of four cancelling terms added in any order (every pair
    /// first, then the rest in either order, or the two pairs), each addition rounded to
    /// nearest in the element, passes; a few of those results lie outside the written
    /// order's range (they failed before, and fail without AllowReassoc). A result far from
    /// every order's still fails.
    #[test]
    fn dot_products_added_in_any_order_pass() {
        let formula = formula::of_table("sum(x[i] * y[i])").expect("OpDot's formula");
        let mut draws = crate::num::test_draws::Xorshift(0x1234_5678_9abc_def1);
        let mut next = move || draws.next_bits();
        for element in [FloatType::Double, FloatType::Float] {
            let context = Context {
                element,
                unit: element,
                flush: false,
                exact: false,
                association: 0,
            };
            let (mut outside_written, mut tried) = (0, 0);
            for _ in 0..2000 {
                // Terms of one large binade (they cancel) or of smaller ones.
                let large = (next() % 60) as i32;
                let terms: Vec<f64> = (0..4)
                    .map(|_| {
                        let significand = f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12);
                        let binade = if next() % 2 == 0 {
                            large
                        } else {
                            (next() % 60) as i32 - 30
                        };
                        let sign = if next() % 2 == 0 { 1.0 } else { -1.0 };
                        element.round(sign * significand * pow2(binade))
                    })
                    .collect();
                let args: Vec<f64> = terms.iter().copied().chain([1.0; 4]).collect();
                let exact = terms
                    .iter()
                    .fold(Float::with_val(4000, 0), |sum, term| sum + term);
                let add = |a: f64, b: f64| element.round(a + b);
                let t = |k: usize| terms[k];
                let mut results = Vec::new();
                for (i, j, k, l) in [(0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)] {
                    for ((i, j), (k, l)) in [((i, j), (k, l)), ((k, l), (i, j))] {
                        let pair = add(t(i), t(j));
                        results.push(add(add(pair, t(k)), t(l)));
                        results.push(add(add(pair, t(l)), t(k)));
                        results.push(add(pair, add(t(k), t(l))));
                    }
                }
                for result in results {
                    tried += 1;
                    let written = evaluate(formula, &args, 0, context)
                        .map(|range| permitted(&range, &exact, result, element));
                    outside_written += usize::from(written == Ok(false));
                    if written == Ok(false) {
                        // Without AllowReassoc only the written order counts.
                        let strict = judge_by_ranges(
                            formula, element, element, &args, &exact, result, 0, true, false,
                        );
                        assert!(
                            matches!(strict, Verdict::Fail(_)),
                            "{terms:?} -> {result:e}"
                        );
                    }
                    let verdict = judge_by_ranges(
                        formula, element, element, &args, &exact, result, 0, true, true,
                    );
                    assert!(
                        matches!(verdict, Verdict::Pass(_)),
                        "{element:?} {terms:?} -> {result:e}: {verdict:?}"
                    );
                }
                let far = element.round(exact.to_f64() * 2.0 + 1.0);
                let verdict =
                    judge_by_ranges(formula, element, element, &args, &exact, far, 0, true, true);
                assert!(
                    matches!(verdict, Verdict::Fail(_)),
                    "{element:?} {terms:?} -> {far:e}"
                );
            }
            eprintln!(
                "{element:?}: {outside_written} of {tried} outside the written order's range"
            );
            assert!(outside_written > 0, "{element:?}");
        }
    }
}
