//! A result of an inherited cell decided without the interval evaluation
//! ([`super::inherited`]'s MPFR ranges, microseconds a result): the formula evaluated
//! literally in double, each operation rounded to nearest as IEEE's double operations round,
//! once plainly and twice with each product fused into the addition or subtraction that takes
//! it (the right operand's first, then the left's: the ways a device evaluates `x * y + z`, a
//! dot product or cross), and a result between the values those evaluations give passes.
//!
//! **Why such a result is permitted.** The interval evaluation gives every operation a range
//! that contains the operation's exact value at any arguments taken from its operands' ranges,
//! widened by the operation's cell; so by induction each literal value lies in its node's
//! range, given for each node kind:
//! - OpFAdd, OpFSub, OpFMul (correctly rounded: the range runs from the exact range's low end
//!   rounded down to its high end rounded up) of operands inside their ranges: the exact value
//!   lies in the exact range, so its nearest double does in the widened one; fused, the exact
//!   `p·q ± a` of operands inside their ranges lies in the operation's exact range (`p·q` lies
//!   in the product's exact range), and so does its nearest double in the widened one;
//! - OpFDiv (2.5 ulp inside its divisor range): the nearest double of the exact quotient is
//!   within half an ulp of it, and the range is widened by 2.5 ulp of its larger end, whose
//!   ulp is at least the quotient's;
//! - `1.0 / inversesqrt(t)` (sqrt's formula) as the nearest double of `sqrt(t)`: inversesqrt's
//!   range holds `1/sqrt(t)` for `t` in its argument's range, so the division's exact range
//!   holds `sqrt(t)`, and its nearest double lies within OpFDiv's 2.5 ulp;
//! - inversesqrt (2 ulp) as `1.0 / sqrt(t)` in double: two roundings, within 2u of
//!   `1/sqrt(t)` relative (u = 2^-53), less than 2 of its ulp;
//! - `trunc` and `clamp` are exact and monotonic; negation is exact; numbers are exact;
//! - `C_pi_180` and `C_180_pi` ("a correctly rounded approximation"): the range holds both
//!   neighbours of the exact constant in the type, and the literal value is one of them (the
//!   nearer), as are the inner range's ends;
//! - `sqrt`, `dot`, `length`: their own formulas from the table, literally; cross's
//!   `OpFSub(OpFMul, OpFMul)` on cross's operands, as the interval evaluation takes them.
//!
//! - an infinite literal value: the exact value it rounds lies past the largest finite value
//!   (or is a product by an infinite operand's value, or inversesqrt's +inf at zero, as the
//!   interval evaluation takes it there), so the node's range reaches past that value and
//!   holds the infinity (the overflow allowance).
//!
//! The final range then holds every literal value and all between them (it is an interval),
//! and the judge permits every result in it ([`super::inherited`]'s `permitted`): an infinity
//! where the range reaches past the largest finite value.
//!
//! **The inner evaluation.** A result outside the literal values (a device rounding one step
//! the other way) is decided by the evaluation run again, each node carrying an inner range:
//! doubles its range holds. An argument's is its value. A correctly rounded operation's runs
//! from the least corner of its operands' inner ranges rounded down to the largest rounded up
//! (its range holds the rounding of every exact value of operands in their ranges), each
//! corner's two neighbouring doubles decided exactly: by a two-sum's error, a product's error
//! as a fused multiply-add gives it, a quotient's remainder `x - q·y` as an exact sum.
//! OpFDiv's and inversesqrt's are each corner's neighbours moved by the whole ulps of the cell
//! (of the nearer one to zero, half of it at a power of two: at most the exact value's ulp,
//! which is at most the range's larger end's); inversesqrt's neighbours by the exact sign of
//! y²·t − 1. trunc and clamp between fixed limits, exact and monotonic, take the ends'. Where a
//! corner is not decided so (near the subnormals, past the largest value), the node's literal
//! values stand for its inner range. A result inside the final inner range passes.
//!
//! **Where the evaluation would stop short.** The judge says "not judged" rather than pass
//! where a range reaches NaN (inf - inf, 0 · inf, 0 / 0, the root of a negative value) or an
//! operation's cell bounds nothing (a divisor range leaving OpFDiv's). Beside the literal
//! values, each node carries an outer bound of its MPFR range in double (the corners of its
//! operands' bounds, all four as the interval evaluation takes them, widened by 2^-40 of the
//! larger magnitude and at least 2^-1070: far more than the corners' rounding and the cells'
//! widening, at most 16 ulp), and the signs its range keeps (every corner on one side of
//! zero, or a bound on one side of it). A correctly rounded operation's end beyond 2^1000 is
//! taken as the infinity (the overflow allowance), and so is a quotient's, once both its ends
//! are moved by its larger magnitude's slack (OpFDiv widens by ulps of its larger end); trunc
//! and clamp keep an infinite end (trunc(inf) = inf, clamp(inf, l, h) = h, MPFR's as IEEE's);
//! a NaN among the corners, a product of an unbounded operand by one whose bound reaches zero
//! (0 · inf), or a quotient of an unbounded operand, gives up (the evaluation decides); an
//! end below 2^-1000 is taken as zero, where the ranges of a shader without
//! DenormPreserve reach zero beside a denormal. A pass is given only where every divisor's
//! bound lies inside OpFDiv's divisor range on one side of zero and every root's argument is
//! proven non-negative and not zero alone.
//!
//! **A proven stop.** Where a divisor's bound lies certainly outside OpFDiv's divisor range
//! (on both sides, and the range not zero alone), the plain evaluation, whose operations run
//! in the interval evaluation's order, stops there as that evaluation does: "not judged"
//! (`sqrt` and `length` of large or tiny values), unless a zero argument's exact zero is due.
//!
//! **Float and half results** (element = unit, no RelaxedPrecision) take this way too, with
//! their own column's cells and bounds ([`Format`]: the constants above scaled to the type's
//! range and precision): each literal value is computed in double as above, then rounded once
//! more to the type. A value rounded twice is one of the two values of the type next to the
//! exact value it stands for (the double lies between them, or on one), so it lies in a
//! correctly rounded operation's range, which holds both; a quotient, root or reciprocal
//! root so rounded is within one ulp of the type of its exact value (the double's own error
//! is far below an ulp of the type), inside OpFDiv's 2.5 ulp and inversesqrt's 2; an
//! infinity from that rounding comes of a double past the type's largest value, so of an
//! exact value past it (the overflow allowance's). No inner ranges there. Instead, where the
//! evaluation reaches its end, the final range also holds the exact value's two neighbours
//! in the type: it holds the formula's exact value x (every operation's range holds its exact
//! value at exact operands, and the formula's exact value is the function's), and its root
//! operation's range holds both neighbours of x: a correctly rounded root's runs from its
//! exact range's low end rounded down to its high end rounded up, and every other root of
//! the table's formulas (OpFDiv's 2.5 ulp, exp2's 3 + 2|t|, log's 3 ulp or its absolute 2^-21
//! where its values lie below 1 in magnitude, atan2's) is widened by at least an ulp of its
//! larger end, at least x's; the overflow allowance and the flush of a denormal only widen
//! it. So a result between the literal values and x's neighbours passes (the caller's: the
//! neighbours of the exact value rounded to double, which are x's, [`FloatType::neighbours`]).
//!
//! The tests `literal_decisions_are_the_interval_evaluation_s` and
//! `float_and_half_literal_decisions_are_the_interval_evaluation_s` (`judge::vulkan::tests`)
//! hold every decision to the interval evaluation's.

use crate::num::exact_sum::ExactSum;
use crate::num::fp::{fraction_is_zero, two_sum, FloatType};
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::{builtin_in, Profile, Requirement};
use crate::spec::vulkan::formula::{self, Constant, Expr, Formula, Operator};
use crate::spec::vulkan::{column, Cell};
use program::Program;
use std::cell::RefCell;
use std::sync::OnceLock;

mod program;

/// The literal evaluations, one value each: plain, then with each product an addition or a
/// subtraction takes fused into it, the right operand's product where there is one (a dot
/// product's running sum takes the next product on the right), then the left's first.
const PLAIN: usize = 0;
const RIGHT_FIRST: usize = 1;
const LEFT_FIRST: usize = 2;
const EVALUATIONS: usize = 3;

/// One component of a node: its literal values, an outer bound of its range, and the signs
/// its range is proven to keep (its exact ends' corners on one side of zero, which rounding
/// outwards to the grid, flushing and the overflow allowance keep: zero is on the grid).
#[derive(Clone, Copy, Debug)]
struct Node {
    values: [f64; EVALUATIONS],
    low: f64,
    high: f64,
    /// The range's low end is at least zero.
    nonnegative: bool,
    /// The range's high end is at most zero.
    nonpositive: bool,
    /// Doubles every one of which the range holds (the inner evaluation's, [`NO_INNER`]
    /// outside it).
    inner: (f64, f64),
}

/// A node's inner range where the evaluation does not compute one.
const NO_INNER: (f64, f64) = (f64::NAN, f64::NAN);

impl Node {
    /// An argument: its value, exactly.
    fn point(v: f64) -> Node {
        Node {
            values: [v; EVALUATIONS],
            low: v,
            high: v,
            nonnegative: v >= 0.0,
            nonpositive: v <= 0.0,
            inner: (v, v),
        }
    }

    /// The bound's ends are finite: an operation's operand (the corners of finite ends are
    /// never NaN, and one rounded to an infinity is beyond 2^1000, which [`outer`] reads).
    /// A root's or reciprocal root's node: its values and bound, its range at least zero.
    fn positive(values: [f64; EVALUATIONS], low: f64, high: f64) -> Node {
        Node {
            values,
            low,
            high,
            nonnegative: true,
            nonpositive: false,
            inner: NO_INNER,
        }
    }

    fn finite(&self) -> bool {
        self.low.is_finite() && self.high.is_finite()
    }

    /// The bound lies on one side of zero, zero excluded.
    fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    fn negated(self) -> Node {
        Node {
            values: self.values.map(|v| -v),
            low: -self.high,
            high: -self.low,
            nonnegative: self.nonpositive,
            nonpositive: self.nonnegative,
            inner: (-self.inner.1, -self.inner.0),
        }
    }

    /// The least and the largest of the literal values.
    fn values_hull(&self) -> (f64, f64) {
        let low = self.values.iter().copied().fold(f64::INFINITY, f64::min);
        let high = self
            .values
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (low, high)
    }

    /// `inner` where it is a range of finite values, joined with the literal values (each in
    /// the range); the literal values alone otherwise.
    fn with_inner(self, inner: Option<(f64, f64)>) -> Node {
        let (low, high) = self.values_hull();
        let inner = match inner {
            Some((l, h)) if l.is_finite() && h.is_finite() && l <= h => (l.min(low), h.max(high)),
            _ => (low, high),
        };
        Node { inner, ..self }
    }

    /// The same bound with each evaluation's value from `value`.
    fn with_values(self, value: impl Fn(usize) -> f64) -> Node {
        Node {
            values: std::array::from_fn(value),
            ..self
        }
    }
}

/// A value: one component, or a vector's (Vulkan's vectors have at most 4).
#[derive(Clone, Copy, Debug)]
struct Value<const N: usize> {
    len: usize,
    nodes: [Node; N],
}

impl<const N: usize> Value<N> {
    fn scalar(node: Node) -> Value<N> {
        Value {
            len: 1,
            nodes: [node; N],
        }
    }

    fn of(nodes: impl ExactSizeIterator<Item = Node>) -> Outcome<Value<N>> {
        let len = nodes.len();
        if len == 0 || len > N {
            return Err(UNKNOWN);
        }
        let mut value = Value::scalar(Node::point(0.0));
        for (slot, node) in value.nodes.iter_mut().zip(nodes) {
            *slot = node;
        }
        value.len = len;
        Ok(value)
    }

    fn get(&self, i: usize) -> Option<Node> {
        (i < self.len).then(|| self.nodes[i])
    }

    fn map(self, f: impl Fn(Node) -> Node) -> Value<N> {
        Value {
            len: self.len,
            nodes: self.nodes.map(f),
        }
    }

    /// The only component.
    fn single(&self) -> Outcome<Node> {
        if self.len == 1 {
            Ok(self.nodes[0])
        } else {
            Err(UNKNOWN)
        }
    }
}

/// 2^e for a normal power of two, for the constants below.
const fn two_to(e: i64) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The outer bounds' constants for one result type (module docs: "Where the evaluation would
/// stop short"), each scaled to the type's range and precision.
#[derive(Clone, Copy, Debug)]
struct Format {
    element: FloatType,
    /// Magnitudes a finite bound stays below (no overflow allowance); beyond it, a correctly
    /// rounded operation's end is taken as the infinity ([`rounded_outer`]): 2^1000, 2^126,
    /// 2^15 (the largest finite values are near 2^1024, 2^128, 2^16: a bound below it, moved
    /// out by the slack, stays below them).
    largest: f64,
    /// Ends below it in magnitude are taken as zero (a denormal flushed): 2^-1000, 2^-126,
    /// 2^-14, each at least the smallest normal value (2^-1022, 2^-126, 2^-14). A bound's end
    /// lies below the range's, so where it is at least that value the range's end is too, and
    /// no flush moves it.
    flushed: f64,
    /// The widening relative to the larger magnitude: 2^-40, 2^-12, 2^-3; far more than 16
    /// ulp of the type (2^-48, 2^-19, 2^-6 relative at most) and the corners' roundings.
    slack: f64,
    /// The widening at least: 16 ulp of the subnormals (a cell's widening there) and more:
    /// 2^-1070, 2^-140, 2^-18.
    tiny_slack: f64,
}

impl Format {
    fn of(element: FloatType) -> Format {
        let (largest, flushed, slack, tiny_slack) = match element {
            FloatType::Double => (1000, -1000, -40, -1070),
            FloatType::Float => (126, -126, -12, -140),
            FloatType::Half => (15, -14, -3, -18),
        };
        Format {
            element,
            largest: two_to(largest),
            flushed: two_to(flushed),
            slack: two_to(slack),
            tiny_slack: if tiny_slack < -1022 {
                f64::from_bits(1 << (tiny_slack + 1074))
            } else {
                two_to(tiny_slack)
            },
        }
    }

    /// A value computed in double, rounded once more to the type (double's own: unchanged).
    /// Twice rounded, it is one of the two values of the type next to the exact value: inside
    /// a correctly rounded operation's range (which holds both), as the proofs need.
    fn round(&self, value: f64) -> f64 {
        self.element.round(value)
    }
}

/// What the literal evaluation proves of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    /// The interval evaluation permits it.
    Pass,
    /// The interval evaluation stops at a division whose divisor's range lies outside
    /// OpFDiv's divisor range (and at no earlier operation): `Verdict::Unbounded`.
    Unbounded,
}

/// Why the literal evaluation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stopped {
    /// A condition of the module's proof fails: the interval evaluation decides.
    Unknown,
    /// A divisor's range certainly outside OpFDiv's divisor range, every operation before it
    /// in the interval evaluation's order within the proof's conditions.
    Unbounded,
}

const UNKNOWN: Stopped = Stopped::Unknown;

type Outcome<T> = Result<T, Stopped>;

/// What the literal values of `formula` at `args` (component `component`) prove of
/// `device_result`, where every condition of the module's proof holds: `Pass` where it lies
/// between them, `Unbounded` where the evaluation stops at a divisor outside OpFDiv's range.
/// A half or float result also passes between them and `neighbours`, values of the type
/// next to the exact value (or it), as the module's docs prove.
pub(super) fn decide(
    formula: &Formula,
    args: &[f64],
    component: usize,
    element: FloatType,
    unit: FloatType,
    device_result: f64,
    neighbours: Option<(f64, f64)>,
) -> Option<Literal> {
    if unit != element {
        return None;
    }
    let cells = Cells::of(element)?;
    match literal(formula, args, component, cells, false) {
        Ok(node) => {
            // An infinite value lies in its node's range as the overflow allowance does (the
            // range reaches past the largest finite value), so the range holds every value
            // from the literal values' least to their largest, infinities included.
            if node.values.iter().any(|v| v.is_nan()) {
                return None;
            }
            let (low, high) = node.values_hull();
            if (low..=high).contains(&device_result) {
                return Some(Literal::Pass);
            }
            // Elsewhere the inner evaluation's range, computed only here (a few results), in
            // double only (its neighbours are double's); in half and float, the exact value's
            // neighbours.
            if element != FloatType::Double {
                let (below, above) = neighbours?;
                let (low, high) = [below, above]
                    .into_iter()
                    .filter(|v| v.is_finite())
                    .fold((low, high), |(l, h), v| (l.min(v), h.max(v)));
                return (low..=high)
                    .contains(&device_result)
                    .then_some(Literal::Pass);
            }
            let node = literal(formula, args, component, cells, true).ok()?;
            let (low, high) = node.inner;
            (low..=high)
                .contains(&device_result)
                .then_some(Literal::Pass)
        }
        Err(Stopped::Unbounded) => Some(Literal::Unbounded),
        Err(Stopped::Unknown) => None,
    }
}

/// Component `component` of the formula's literal values at `args` (each parameter's
/// components in turn). The operations run in the interval evaluation's order, so that its
/// first stop is this one's. Scalar parameters are evaluated in values of one component: a
/// vector's four are moved at every step, and were most of a scalar formula's time.
fn literal(
    formula: &Formula,
    args: &[f64],
    component: usize,
    cells: &Cells,
    inner: bool,
) -> Outcome<Node> {
    let (parameters, program) = cells.parameters(formula);
    if parameters.is_empty() || !args.len().is_multiple_of(parameters.len()) {
        return Err(UNKNOWN);
    }
    if args.len() == parameters.len() {
        if let Some(program) = program {
            return program.run(args, cells, inner);
        }
        return pick(
            literal_in::<1>(formula, &parameters, args, cells, inner),
            component,
        );
    }
    // Only a table formula's address names it for good (one parsed for a single call may
    // share a later one's stack slot).
    if matches!(parameters, std::borrow::Cow::Owned(_)) {
        return pick(
            literal_in::<4>(formula, &parameters, args, cells, inner),
            component,
        );
    }
    // A vector result's components (normalize's, cross's) are judged one after the other,
    // each from the same evaluation: the last one of each kind is kept for the next component.
    thread_local! {
        static LAST: RefCell<[Option<LastEvaluation>; 2]> = const { RefCell::new([None, None]) };
    }
    let key = std::ptr::from_ref(formula) as usize;
    LAST.with_borrow_mut(|last| {
        let last = &mut last[usize::from(inner)];
        // Bit for bit: -0 is not 0 here.
        let same = |kept: &&LastEvaluation| {
            kept.formula == key
                && kept
                    .args
                    .iter()
                    .map(|a| a.to_bits())
                    .eq(args.iter().map(|a| a.to_bits()))
        };
        if let Some(kept) = last.as_ref().filter(same) {
            return pick(kept.value, component);
        }
        let value = literal_in::<4>(formula, &parameters, args, cells, inner);
        *last = Some(LastEvaluation {
            formula: key,
            args: args.to_vec(),
            value,
        });
        pick(value, component)
    })
}

/// The last vector evaluation of a kind (inner or not) on a thread: its formula's address,
/// its arguments and its value.
struct LastEvaluation {
    formula: usize,
    args: Vec<f64>,
    value: Outcome<Value<4>>,
}

/// Component `component` of a vector value, a scalar's only one.
fn pick<const N: usize>(value: Outcome<Value<N>>, component: usize) -> Outcome<Node> {
    let value = value?;
    let index = if value.len == 1 { 0 } else { component };
    value.get(index).ok_or(UNKNOWN)
}

/// [`literal`]'s value, in values of up to `N` components.
fn literal_in<const N: usize>(
    formula: &Formula,
    parameters: &[&'static str],
    args: &[f64],
    cells: &Cells,
    inner: bool,
) -> Outcome<Value<N>> {
    let width = args.len() / parameters.len();
    let mut bound = Vec::with_capacity(parameters.len() + 1);
    for (name, values) in parameters.iter().zip(args.chunks(width)) {
        bound.push((
            *name,
            Value::<N>::of(values.iter().map(|v| Node::point(*v)))?,
        ));
    }
    apply(formula, bound, cells, inner)
}

fn apply<'a, const N: usize>(
    formula: &'a Formula,
    mut bound: Vec<(&'a str, Value<N>)>,
    cells: &Cells,
    inner: bool,
) -> Outcome<Value<N>> {
    if let Some((name, expr)) = &formula.binding {
        let value = Evaluation {
            bound: &bound,
            index: None,
            cells,
            inner,
        }
        .expr(expr)?;
        bound.push((name.as_str(), value));
    }
    Evaluation {
        bound: &bound,
        index: None,
        cells,
        inner,
    }
    .expr(&formula.body)
}

/// The cells the proof reads, checked once: OpFAdd, OpFSub and OpFMul correctly rounded,
/// OpFDiv at least half an ulp inside its divisor range, inversesqrt within a few ulp, trunc
/// correctly rounded and clamp exact, in the double column (OpFDiv's and inversesqrt's
/// widening at most 16 ulp: far inside the bounds' slack); and the formulas of the inherited
/// functions the formulas call, with their parameters.
struct Cells {
    /// The result type's bounds' constants, and its rounding of each literal value.
    format: Format,
    /// `C_pi_180`'s and `C_180_pi`'s nearest value in the type and range
    /// ([`super::grid::constant_neighbours`]).
    constants: [(f64, f64, f64); 2],
    /// inversesqrt's cell allows 2 ulp: `1.0 / sqrt(t)` in double is within it.
    reciprocal_root_within_two_roundings: bool,
    /// inversesqrt's cell, in ulp.
    reciprocal_root_ulps: f64,
    divisor_low: f64,
    divisor_high: f64,
    /// OpFDiv's cell inside its divisor range, in ulp.
    divisor_ulps: f64,
    /// The inherited functions a formula may call (`dot`, `length`, `sqrt`, ...), by the
    /// text's name ([`formula::FUNCTIONS`]).
    calls: Vec<(&'static str, &'static Formula, Vec<&'static str>)>,
    /// Every inherited double formula (the judge's formulas are the table's, parsed once),
    /// its parameters, and its program where it compiles.
    parameters: Vec<(&'static Formula, Vec<&'static str>, Option<Program>)>,
}

impl Cells {
    /// The cells of `element`'s column, checked once.
    fn of(element: FloatType) -> Option<&'static Cells> {
        static CELLS: [OnceLock<Option<Cells>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let index = match element {
            FloatType::Half => 0,
            FloatType::Float => 1,
            FloatType::Double => 2,
        };
        CELLS[index]
            .get_or_init(|| {
                let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
                let cell = |name: &str| table.row(name).map(|row| column(row, element, false).0);
                let rounded = |name: &str| cell(name) == Some(&Requirement::CorrectlyRounded);
                let arithmetic = ["OpFAdd", "OpFSub", "OpFMul", "trunc"]
                    .into_iter()
                    .all(rounded);
                let clamp = cell("fclamp") == Some(&Requirement::Exact);
                // inversesqrt's widening must stay far inside the bounds' slack.
                let rsqrt = match cell("rsqrt") {
                    Some(Requirement::Ulp(n)) if *n <= 16.0 => *n,
                    _ => return None,
                };
                let Some(Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high })) =
                    cell("OpFDiv")
                else {
                    return None;
                };
                let parameters = table
                    .rows
                    .iter()
                    .filter_map(|row| match column(row, element, false).0 {
                        Requirement::Vulkan(Cell::Inherited(text)) => {
                            let formula = formula::of_table(text)?;
                            Some((formula, formula.parameters(), None))
                        }
                        _ => None,
                    })
                    .collect();
                let mut calls = Vec::new();
                for (name, registry) in formula::FUNCTIONS {
                    if let Some(Requirement::Vulkan(Cell::Inherited(text))) = cell(registry) {
                        let called = formula::of_table(text)?;
                        calls.push((name, called, called.parameters()));
                    }
                }
                if !(arithmetic && clamp && *ulp >= 0.5 && *ulp <= 16.0) {
                    return None;
                }
                let mut cells = Cells {
                    format: Format::of(element),
                    constants: [Constant::PiOver180, Constant::OneEightyOverPi]
                        .map(|constant| super::grid::constant_neighbours(constant, element)),
                    reciprocal_root_within_two_roundings: rsqrt >= 2.0,
                    reciprocal_root_ulps: rsqrt,
                    divisor_low: *low,
                    divisor_high: *high,
                    divisor_ulps: *ulp,
                    calls,
                    parameters,
                };
                // Compiled against the cells' calls, then kept beside each formula.
                let programs: Vec<_> = cells
                    .parameters
                    .iter()
                    .map(|(formula, parameters, _)| Program::compile(formula, parameters, &cells))
                    .collect();
                for (entry, program) in cells.parameters.iter_mut().zip(programs) {
                    entry.2 = program;
                }
                Some(cells)
            })
            .as_ref()
    }

    /// `C_pi_180` or `C_180_pi` ("a correctly rounded approximation"): its range holds either
    /// neighbour of the exact value in the type (the interval evaluation's), its literal value
    /// is the nearer one, and both ends are inside it.
    fn constant(&self, constant: Constant) -> Node {
        let (nearest, low, high) = match constant {
            Constant::PiOver180 => self.constants[0],
            Constant::OneEightyOverPi => self.constants[1],
        };
        Node {
            values: [nearest; EVALUATIONS],
            low,
            high,
            nonnegative: low >= 0.0,
            nonpositive: high <= 0.0,
            inner: (low, high),
        }
    }

    /// `formula.parameters()`, found once for the table's formulas, and a table formula's
    /// program where it compiles.
    fn parameters(
        &self,
        formula: &Formula,
    ) -> (std::borrow::Cow<'_, [&'static str]>, Option<&Program>) {
        match self
            .parameters
            .iter()
            .find(|(table, _, _)| std::ptr::eq(*table, formula))
        {
            Some((_, parameters, program)) => {
                (std::borrow::Cow::Borrowed(parameters), program.as_ref())
            }
            None => (std::borrow::Cow::Owned(formula.parameters()), None),
        }
    }
}

struct Evaluation<'a, const N: usize> {
    bound: &'a [(&'a str, Value<N>)],
    index: Option<(&'a str, usize)>,
    cells: &'a Cells,
    /// Whether each node's inner range is computed ([`Node::inner`]).
    inner: bool,
}

impl<const N: usize> Evaluation<'_, N> {
    fn lookup(&self, name: &str) -> Outcome<&Value<N>> {
        self.bound
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .ok_or(UNKNOWN)
    }

    fn expr(&self, expr: &Expr) -> Outcome<Value<N>> {
        match expr {
            Expr::Number(v) => Ok(Value::scalar(Node::point(*v))),
            Expr::Variable(name) => self.lookup(name).copied(),
            Expr::Component(name, index) => {
                let (bound_index, i) = self.index.ok_or(UNKNOWN)?;
                if bound_index != index {
                    return Err(UNKNOWN);
                }
                self.lookup(name)?.get(i).map(Value::scalar).ok_or(UNKNOWN)
            }
            Expr::Negate(inner) => Ok(self.expr(inner)?.map(Node::negated)),
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Call(name, args) => self.call(name, args),
            Expr::Constant(constant) => Ok(Value::scalar(self.cells.constant(*constant))),
            Expr::Operation(_) => Err(UNKNOWN),
        }
    }

    /// An operand of a sum or a difference: its value, and a product's operands where it is
    /// one (for the fused evaluations).
    fn operand(&self, e: &Expr) -> Outcome<(Value<N>, Option<(Value<N>, Value<N>)>)> {
        match e {
            Expr::Binary(Operator::Mul, p, q) => {
                let (p, q) = (self.expr(p)?, self.expr(q)?);
                let product = componentwise([&p, &q], |v| {
                    arithmetic(Operator::Mul, &v[0], &v[1], self.cells, self.inner)
                })?;
                Ok((product, Some((p, q))))
            }
            _ => Ok((self.expr(e)?, None)),
        }
    }

    /// `a op b`, component by component; in the fused evaluations an addition or subtraction
    /// of a product fuses it.
    fn binary(&self, op: Operator, a: &Expr, b: &Expr) -> Outcome<Value<N>> {
        // sqrt's own formula, `1.0 / inversesqrt(t)`: the root of t (see `root`).
        if let (Operator::Div, Expr::Number(one), Expr::Call(name, t)) = (op, a, b) {
            if let ([t], true) = (t.as_slice(), *one == 1.0 && name == "inversesqrt") {
                let t = self.expr(t)?;
                return componentwise([&t], |v| root(&v[0], self.cells, self.inner));
            }
        }
        if !matches!(op, Operator::Add | Operator::Sub) {
            let (a, b) = (self.expr(a)?, self.expr(b)?);
            return componentwise([&a, &b], |v| {
                arithmetic(op, &v[0], &v[1], self.cells, self.inner)
            });
        }
        let ((a, a_product), (b, b_product)) = (self.operand(a)?, self.operand(b)?);
        let none = Value::scalar(Node::point(0.0));
        let (pa, qa) = a_product.as_ref().map_or((&none, &none), |(p, q)| (p, q));
        let (pb, qb) = b_product.as_ref().map_or((&none, &none), |(p, q)| (p, q));
        let (fuse_left, fuse_right) = (a_product.is_some(), b_product.is_some());
        componentwise([&a, &b, pa, qa, pb, qb], |v| {
            let left = fuse_left.then_some((&v[2], &v[3]));
            let right = fuse_right.then_some((&v[4], &v[5]));
            fused(op, &v[0], &v[1], left, right, self.cells, self.inner)
        })
    }

    fn call(&self, name: &str, args: &[Expr]) -> Outcome<Value<N>> {
        if let (Some(op), [Expr::Operation(first), Expr::Operation(second)]) =
            (Operator::of_instruction(name), args)
        {
            return self.cross(op, first, second);
        }
        match (name, args) {
            ("sum", [body]) => {
                let width = self.bound.iter().map(|(_, v)| v.len).max().unwrap_or(1);
                let mut total: Option<Node> = None;
                for i in 0..width {
                    let term = Evaluation {
                        bound: self.bound,
                        index: Some(("i", i)),
                        cells: self.cells,
                        inner: self.inner,
                    };
                    let (value, product) = term.operand(body)?;
                    let value = value.single()?;
                    total = Some(match total {
                        None => value,
                        Some(sum) => {
                            let product = match product {
                                Some((p, q)) => Some((p.single()?, q.single()?)),
                                None => None,
                            };
                            let right = product.as_ref().map(|(p, q)| (p, q));
                            fused(
                                Operator::Add,
                                &sum,
                                &value,
                                None,
                                right,
                                self.cells,
                                self.inner,
                            )?
                        }
                    });
                }
                total.map(Value::scalar).ok_or(UNKNOWN)
            }
            ("inversesqrt", [arg]) => {
                let arg = self.expr(arg)?;
                componentwise([&arg], |v| reciprocal_root(&v[0], self.cells, self.inner))
            }
            ("trunc", [arg]) => {
                let arg = self.expr(arg)?;
                componentwise([&arg], |v| truncated(&v[0], self.inner))
            }
            ("clamp", [v, low, high]) => {
                let (v, low, high) = (self.expr(v)?, self.expr(low)?, self.expr(high)?);
                componentwise([&v, &low, &high], |v| clamped(v, self.inner))
            }
            _ => {
                let (_, formula, parameters) = self
                    .cells
                    .calls
                    .iter()
                    .find(|(text, _, _)| *text == name)
                    .ok_or(UNKNOWN)?;
                if parameters.len() != args.len() {
                    return Err(UNKNOWN);
                }
                let mut bound = Vec::with_capacity(args.len() + 1);
                for (parameter, arg) in parameters.iter().zip(args) {
                    bound.push((*parameter, self.expr(arg)?));
                }
                apply(formula, bound, self.cells, self.inner)
            }
        }
    }

    /// Cross's `op(first, second)` (the text's `OpFSub(OpFMul, OpFMul)`): component c is
    /// `op(first(x[c+1], y[c+2]), second(y[c+1], x[c+2]))`, indices mod 3, in the interval
    /// evaluation's order; a product an addition or subtraction takes is fused as elsewhere.
    fn cross(&self, op: Operator, first: &str, second: &str) -> Outcome<Value<N>> {
        let (x, y) = (self.lookup("x")?, self.lookup("y")?);
        let first = Operator::of_instruction(first).ok_or(UNKNOWN)?;
        let second = Operator::of_instruction(second).ok_or(UNKNOWN)?;
        if x.len != 3 || y.len != 3 {
            return Err(UNKNOWN);
        }
        let fusing = matches!(op, Operator::Add | Operator::Sub);
        let mut nodes = [Node::point(0.0); 3];
        for (c, node) in nodes.iter_mut().enumerate() {
            let (j, k) = ((c + 1) % 3, (c + 2) % 3);
            let (xj, yk, yj, xk) = (x.nodes[j], y.nodes[k], y.nodes[j], x.nodes[k]);
            let a = arithmetic(first, &xj, &yk, self.cells, self.inner)?;
            let b = arithmetic(second, &yj, &xk, self.cells, self.inner)?;
            // x[j]·y[k] ± b, or a ± y[j]·x[k], fused where the operation adds or subtracts.
            let left = (fusing && first == Operator::Mul).then_some((&xj, &yk));
            let right = (fusing && second == Operator::Mul).then_some((&yj, &xk));
            *node = fused(op, &a, &b, left, right, self.cells, self.inner)?;
        }
        Value::of(nodes.into_iter())
    }
}

/// `inversesqrt(t)` as `1.0 / sqrt(t)` in double: two roundings, each within `u/(1 + u)`
/// of its value relative (u = 2^-53), so within `2u` of `1/sqrt(t)` relative, less than 2
/// ulp of it (2u |y| < 2 ulp(y) for y below the next power of two; every such y is a
/// normal double); inversesqrt's range holds `1/sqrt(t)` for t in its argument's range,
/// widened by its 2 ulp of its larger end, whose ulp is at least y's.
fn reciprocal_root(t: &Node, cells: &Cells, inner: bool) -> Outcome<Node> {
    if !cells.reciprocal_root_within_two_roundings {
        return Err(UNKNOWN);
    }
    let (low, high) = reciprocal_root_bound(t, &cells.format)?;
    // At a zero, +inf as the interval evaluation takes it (IEEE's 1/sqrt(-0) is -inf).
    let node = Node::positive(
        t.values.map(|v| {
            if v == 0.0 {
                f64::INFINITY
            } else {
                cells.format.round(1.0 / v.sqrt())
            }
        }),
        low,
        high,
    );
    if !inner {
        return Ok(node);
    }
    Ok(node.with_inner(reciprocal_root_inner(t, cells)))
}

/// inversesqrt's inner range over `t`'s: each end's exact reciprocal root widened by the
/// cell's ulps, the low end's from t's largest value, the high end's from its least.
fn reciprocal_root_inner(t: &Node, cells: &Cells) -> Option<(f64, f64)> {
    let ulps = cells.reciprocal_root_ulps;
    let end = |t: f64| reciprocal_root_both_ways(t).and_then(|(d, u)| widened(d, u, ulps));
    end(t.inner.1)
        .zip(end(t.inner.0))
        .map(|(least, most)| (least.0, most.1))
}

/// `sqrt(t)`, inherited from `1.0 / inversesqrt(t)`: the nearest double of the root, and
/// the division's bound, its divisor (inversesqrt's range) inside OpFDiv's divisor range;
/// unbounded where that range lies outside it.
fn root(t: &Node, cells: &Cells, inner: bool) -> Outcome<Node> {
    let (least, most) = reciprocal_root_bound(t, &cells.format)?;
    // The range holds a positive value, 1/sqrt of its argument's low end.
    divides((least, most), true, cells)?;
    let (low, high) = outer(1.0 / most, 1.0 / least, &cells.format)?;
    let node = Node::positive(
        t.values.map(|v| cells.format.round(v.sqrt())),
        low.max(0.0),
        high,
    );
    if !inner {
        return Ok(node);
    }
    // The division of 1 by inversesqrt's inner range (inside OpFDiv's divisor range,
    // checked above), as OpFDiv's inner range.
    let inner = reciprocal_root_inner(t, cells)
        .and_then(|root| inner_range(Operator::Div, (1.0, 1.0), root, Some(cells.divisor_ulps)));
    Ok(node.with_inner(inner))
}

/// `trunc(v)`: exact and monotonic, the range's ends truncated.
fn truncated(v: &Node, inner: bool) -> Outcome<Node> {
    // Monotonic on the extended line too (trunc(±inf) = ±inf, MPFR's as IEEE's): an infinite
    // end stays.
    let inner_range = (v.inner.0.trunc(), v.inner.1.trunc());
    Ok(Node {
        low: v.low.trunc(),
        high: v.high.trunc(),
        inner: if inner { inner_range } else { NO_INNER },
        ..v.with_values(|e| v.values[e].trunc())
    })
}

/// `clamp(v, low, high)` of nodes `[v, low, high]`: exact.
fn clamped(v: &[Node; 3], inner: bool) -> Outcome<Node> {
    // Monotonic in each operand on the extended line too (MPFR's max and min take the
    // infinities as IEEE's do): an infinite end is clamped as any other (smoothstep's
    // quotient past the range).
    let clamp = |x: f64, low: f64, high: f64| x.max(low).min(high);
    // min(max(v, l), h) lies between min(l, h) and max(l, h)'s sides.
    let node = Node {
        values: std::array::from_fn(|e| clamp(v[0].values[e], v[1].values[e], v[2].values[e])),
        low: clamp(v[0].low, v[1].low, v[2].low),
        high: clamp(v[0].high, v[1].high, v[2].high),
        nonnegative: v[1].nonnegative && v[2].nonnegative,
        nonpositive: v[1].nonpositive && v[2].nonpositive,
        inner: NO_INNER,
    };
    if !inner {
        return Ok(node);
    }
    // Exact and monotonic in its value: between fixed limits, the range's ends clamped.
    let (low, high) = (v[1].inner, v[2].inner);
    let fixed = low.0 == low.1 && high.0 == high.1;
    let inner = fixed.then(|| {
        let (l, h) = (low.0, high.0);
        (clamp(v[0].inner.0, l, h), clamp(v[0].inner.1, l, h))
    });
    Ok(node.with_inner(inner))
}

/// The doubles next to 1/sqrt(t) below and above it (the same double where it is one),
/// decided exactly, for t in [2^-960, 2^960]: y lies below 1/sqrt(t) where y²·t < 1, and
/// y·t = p + e exactly (two doubles: y·t is near sqrt(t), far from the subnormals), so
/// y²·t − 1 = y·p + y·e − 1 is an exact sum. `1.0 / sqrt(t)` is within 2 ulp of the root.
fn reciprocal_root_both_ways(t: f64) -> Option<(f64, f64)> {
    use std::cmp::Ordering;
    if !(INNER_TINY..=1.0 / INNER_TINY).contains(&t) {
        return None;
    }
    let side = |y: f64| {
        let p = y * t;
        let mut sum = ExactSum::default();
        sum.add_product(y, p);
        sum.add_product(y, y.mul_add(t, -p));
        sum.subtract(1.0);
        let value = sum.value();
        if value.is_zero() {
            Ordering::Equal
        } else if value.is_negative() {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    };
    let mut y = 1.0 / t.sqrt();
    for _ in 0..4 {
        let (next, order) = match side(y) {
            Ordering::Equal => return Some((y, y)),
            Ordering::Greater => (y.next_down(), Ordering::Greater),
            Ordering::Less => (y.next_up(), Ordering::Less),
        };
        match side(next) {
            Ordering::Equal => return Some((next, next)),
            side if side == order => y = next,
            _ => return Some((y.min(next), y.max(next))),
        }
    }
    None
}

/// An outer bound of inversesqrt's range over `t`'s: its exact ends' reciprocal roots (0 for
/// an infinite end, infinite for a zero one), widened by far more than its few ulp of the
/// larger finite end. `Unknown` where the range may reach below zero (inversesqrt stops with
/// NaN there) or is zero alone.
fn reciprocal_root_bound(t: &Node, format: &Format) -> Outcome<(f64, f64)> {
    if !(t.nonnegative || t.low > 0.0) || t.high.is_nan() || t.high <= 0.0 {
        return Err(UNKNOWN);
    }
    // (+0 for a low end at or below zero: 1/sqrt(-0) would be -inf.)
    let low = if t.low > 0.0 { t.low } else { 0.0 };
    let (least, most) = (1.0 / t.high.sqrt(), 1.0 / low.sqrt());
    let finite = if most.is_finite() { most } else { least };
    let slack = (finite * format.slack).max(format.tiny_slack);
    Ok((least - slack, most + slack))
}

/// Whether a divisor whose range lies in `bound` is inside OpFDiv's divisor range (all of it,
/// on one side of zero): `Ok` where certainly inside, `Unbounded` where certainly not (inside
/// neither side, and `nonzero`: not zero alone), else `Unknown`.
fn divides((low, high): (f64, f64), nonzero: bool, cells: &Cells) -> Outcome<()> {
    let (least, most) = (cells.divisor_low, cells.divisor_high);
    let inside = |l: f64, h: f64| l >= least && h <= most;
    if inside(low, high) || inside(-high, -low) {
        return Ok(());
    }
    let positive_side_left = high < least || low > most;
    let negative_side_left = low > -least || high < -most;
    if nonzero && positive_side_left && negative_side_left {
        return Err(Stopped::Unbounded);
    }
    Err(UNKNOWN)
}

/// The operation's literal value (rounded to nearest), the outer bound of its range and the
/// signs it keeps.
fn arithmetic(op: Operator, a: &Node, b: &Node, cells: &Cells, inner: bool) -> Outcome<Node> {
    // An infinite end of a sum's or a difference's operand gives NaN among the corners
    // wherever the interval evaluation's does (its ends lie inside these, and an infinite end
    // of its is the same end of these); a product's 0 · inf would not show.
    // A product with an infinite end is taken where the other operand's bound excludes zero:
    // the interval evaluation's ends lie inside the bounds, so none of its corners is 0 · inf.
    let sum = matches!(op, Operator::Add | Operator::Sub);
    let product_without_zero_times_infinity = op == Operator::Mul
        && (a.finite() || b.excludes_zero())
        && (b.finite() || a.excludes_zero());
    if !(sum || product_without_zero_times_infinity || a.finite() && b.finite()) {
        return Err(UNKNOWN);
    }
    let values = std::array::from_fn(|e| {
        let (a, b) = (a.values[e], b.values[e]);
        cells.format.round(match op {
            Operator::Add => a + b,
            Operator::Sub => a - b,
            Operator::Mul => a * b,
            Operator::Div => a / b,
        })
    });
    // Signs: every corner on one side of zero.
    let (same, opposite) = (
        (a.nonnegative && b.nonnegative) || (a.nonpositive && b.nonpositive),
        (a.nonnegative && b.nonpositive) || (a.nonpositive && b.nonnegative),
    );
    let (nonnegative, nonpositive) = match op {
        Operator::Add => (
            a.nonnegative && b.nonnegative,
            a.nonpositive && b.nonpositive,
        ),
        Operator::Sub => (
            a.nonnegative && b.nonpositive,
            a.nonpositive && b.nonnegative,
        ),
        Operator::Mul | Operator::Div => (same, opposite),
    };
    // All four corners, as the interval evaluation takes them: where its ends are infinite so
    // are these, and its inf - inf (NaN, a stop) is one of these too.
    let corners = match op {
        Operator::Add => [
            a.low + b.low,
            a.low + b.high,
            a.high + b.low,
            a.high + b.high,
        ],
        Operator::Sub => [
            a.low - b.low,
            a.low - b.high,
            a.high - b.low,
            a.high - b.high,
        ],
        Operator::Mul => [
            a.low * b.low,
            a.low * b.high,
            a.high * b.low,
            a.high * b.high,
        ],
        Operator::Div => {
            // The divisor's range holds its literal value: not zero alone where that is not.
            divides((b.low, b.high), b.values[PLAIN] != 0.0, cells)?;
            [
                a.low / b.low,
                a.low / b.high,
                a.high / b.low,
                a.high / b.high,
            ]
        }
    };
    // (`f64::min` and `max` would pass a NaN by.)
    if corners.iter().any(|corner| corner.is_nan()) {
        return Err(UNKNOWN);
    }
    let low = corners.iter().copied().fold(f64::INFINITY, f64::min);
    let high = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut low, mut high) = if op == Operator::Div {
        quotient_outer(low, high, &cells.format)?
    } else {
        rounded_outer(low, high, &cells.format)?
    };
    if nonnegative {
        low = low.max(0.0);
    }
    if nonpositive {
        high = high.min(0.0);
    }
    // A bound on one side of zero holds the range there too.
    let node = Node {
        values,
        low,
        high,
        nonnegative: nonnegative || low >= 0.0,
        nonpositive: nonpositive || high <= 0.0,
        inner: NO_INNER,
    };
    if !inner {
        return Ok(node);
    }
    let ulps = (op == Operator::Div).then_some(cells.divisor_ulps);
    Ok(node.with_inner(inner_range(op, a.inner, b.inner, ulps)))
}

/// `a op b` (OpFAdd or OpFSub, or another operation where neither product is given): the
/// plain literal value as [`arithmetic`]'s, and in the fused evaluations a product `p·q` that
/// is an operand rounded once with the other operand (`p·q ± b`, or `a ± p·q`): `left` the
/// left operand's product, `right` the right's, each fused where its evaluation takes it
/// ([`RIGHT_FIRST`], [`LEFT_FIRST`]), the other one where it is the only one.
fn fused(
    op: Operator,
    a: &Node,
    b: &Node,
    left: Option<(&Node, &Node)>,
    right: Option<(&Node, &Node)>,
    cells: &Cells,
    inner: bool,
) -> Outcome<Node> {
    let plain = arithmetic(op, a, b, cells, inner)?;
    if left.is_none() && right.is_none() {
        return Ok(plain);
    }
    let sign = if op == Operator::Sub { -1.0 } else { 1.0 };
    let round = |v: f64| cells.format.round(v);
    let left =
        |e: usize| left.map(|(p, q)| round(p.values[e].mul_add(q.values[e], sign * b.values[e])));
    let right = |e: usize| {
        right.map(|(p, q)| round((sign * p.values[e]).mul_add(q.values[e], a.values[e])))
    };
    Ok(plain.with_values(|e| {
        let value = match e {
            RIGHT_FIRST => right(e).or_else(|| left(e)),
            LEFT_FIRST => left(e).or_else(|| right(e)),
            _ => None,
        };
        value.unwrap_or(plain.values[e])
    }))
}

/// The inner range of `op` over operands' inner ranges `a` and `b`: the extreme corners'
/// exact values rounded down and up to double where the operation is correctly rounded
/// (OpFAdd, OpFSub, OpFMul: its range holds those roundings of every corner), and for
/// OpFDiv (`ulps` its cell's bound) each corner's quotient widened by the whole ulps its
/// cell allows ([`widened`]); `None` where a corner is not decided exactly.
fn inner_range(
    op: Operator,
    a: (f64, f64),
    b: (f64, f64),
    ulps: Option<f64>,
) -> Option<(f64, f64)> {
    // A point's two ends are one corner.
    let ends = |(low, high): (f64, f64)| [Some(low), (high != low).then_some(high)];
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in ends(a).into_iter().flatten() {
        for y in ends(b).into_iter().flatten() {
            let (down, up) = rounded_both_ways(op, x, y)?;
            let (down, up) = match ulps {
                Some(ulps) => widened(down, up, ulps)?,
                None => (down, up),
            };
            low = low.min(down);
            high = high.max(up);
        }
    }
    Some((low, high))
}

/// The doubles next to the exact `x op y` below and above it (the same double where it is
/// one), decided exactly: by the rounding error of the sum or product (error-free
/// transformations), by the sign of `x - q·y` for a quotient. `None` where that error may not
/// be exact (a product or a quotient near the subnormals) or the value is not finite.
fn rounded_both_ways(op: Operator, x: f64, y: f64) -> Option<(f64, f64)> {
    if !(x.is_finite() && y.is_finite()) {
        return None;
    }
    let near = |v: f64| v != 0.0 && v.abs() < INNER_TINY;
    let (value, error) = match op {
        Operator::Add => two_sum(x, y),
        Operator::Sub => two_sum(x, -y),
        Operator::Mul => {
            let product = x * y;
            if x != 0.0 && y != 0.0 && product.abs() < INNER_TINY {
                return None;
            }
            (product, x.mul_add(y, -product))
        }
        Operator::Div => {
            let quotient = x / y;
            let underflow = quotient == 0.0 && x != 0.0;
            if y == 0.0 || !quotient.is_finite() || underflow || near(quotient) || near(x) {
                return None;
            }
            // x/y - q has the sign of (x - q·y)·sign(y), exact as a sum of a product.
            let mut remainder = ExactSum::default();
            remainder.add(x);
            if !remainder.add_product(-quotient, y) {
                return None;
            }
            let remainder = remainder.value();
            let sign = if remainder.is_zero() {
                0.0
            } else if remainder.is_negative() == (y < 0.0) {
                1.0
            } else {
                -1.0
            };
            (quotient, sign)
        }
    };
    if !value.is_finite() {
        return None;
    }
    Some(if error < 0.0 {
        (value.next_down(), value)
    } else if error > 0.0 {
        (value, value.next_up())
    } else {
        (value, value)
    })
}

/// Values at most `INNER_TINY` in magnitude are left to the literal values: a product's or a
/// quotient's rounding error there may not be a double, and a flushed range starts there.
const INNER_TINY: f64 = two_to(-960);

/// `[up - n·u, down + n·u]` for the doubles `down` and `up` next to an exact value c (n the
/// whole ulps of a cell's bound `ulps`, u a lower bound of c's ulp: that of the one of the two
/// nearer zero, half of it at a power of two, whose ulp is the gap below): inside
/// `[c - n·u, c + n·u]`, which a cell of `ulps` ulp (of the range's larger end, at least c's)
/// holds. `None` near the subnormals and at zero.
fn widened(down: f64, up: f64, ulps: f64) -> Option<(f64, f64)> {
    let nearer = if down > 0.0 { down } else { -up };
    if !(nearer >= INNER_TINY && nearer.is_finite()) {
        return None;
    }
    let bits = nearer.to_bits();
    let mut ulp = f64::from_bits(bits & (0x7ff << 52)) * f64::EPSILON;
    if fraction_is_zero(nearer) {
        ulp /= 2.0;
    }
    let by = ulps.floor() * ulp;
    // Rounded inwards: each end's error (exact, a two-sum's) moves it back inside.
    let (low, low_error) = two_sum(up, -by);
    let (high, high_error) = two_sum(down, by);
    let low = if low_error > 0.0 { low.next_up() } else { low };
    let high = if high_error < 0.0 {
        high.next_down()
    } else {
        high
    };
    (low.is_finite() && high.is_finite()).then_some((low, high))
}

/// [`outer`] for a correctly rounded operation, whose widening is each end's own rounding:
/// an end beyond 2^1000 in magnitude (an overflow allowance's infinity at most) is taken as
/// the infinity, and the other end, finite, widened by 2^-40 of its own magnitude (at least
/// 2^-1070) and at most 2^1000 in magnitude (the allowance's largest finite value beyond).
fn rounded_outer(low: f64, high: f64, format: &Format) -> Outcome<(f64, f64)> {
    if low.is_nan() || high.is_nan() {
        return Err(UNKNOWN);
    }
    let largest = format.largest;
    if low > -largest && high < largest {
        return outer(low, high, format);
    }
    // A finite end moved outwards; a low end at +inf (every corner past 2^1000, so the range
    // starts at the allowance's largest value at least) at 2^999, a high end at -inf likewise.
    let widened = |end: f64, sign: f64| {
        if end.is_infinite() {
            return end.signum() * largest / 2.0;
        }
        let moved = end - sign * (end.abs() * format.slack).max(format.tiny_slack);
        moved.clamp(-largest, largest)
    };
    let low = if low <= -largest {
        f64::NEG_INFINITY
    } else {
        widened(low, 1.0)
    };
    let high = if high >= largest {
        f64::INFINITY
    } else {
        widened(high, -1.0)
    };
    Ok(flushed(low, high, format))
}

/// An end below 2^-1000 in magnitude taken as zero: without DenormPreserve a range beside a
/// denormal reaches zero.
fn flushed(mut low: f64, mut high: f64, format: &Format) -> (f64, f64) {
    if low > 0.0 && low < format.flushed {
        low = 0.0;
    }
    if high < 0.0 && high > -format.flushed {
        high = 0.0;
    }
    (low, high)
}

/// `[low, high]` (the corners of an operation's exact range over its operands' bounds)
/// widened by 2^-40 of its larger magnitude (at least 2^-1070), an end below 2^-1000 taken
/// as zero; `Unknown` where it reaches 2^1000, or at NaN.
fn outer(low: f64, high: f64, format: &Format) -> Outcome<(f64, f64)> {
    if low.is_nan() || high.is_nan() {
        return Err(UNKNOWN);
    }
    let magnitude = low.abs().max(high.abs());
    if magnitude >= format.largest {
        return Err(UNKNOWN);
    }
    // Corners rounded to zero (a product below the subnormals) get the absolute slack.
    let slack = (magnitude * format.slack).max(format.tiny_slack);
    Ok(flushed(low - slack, high + slack, format))
}

/// A quotient's bound: [`outer`]'s (OpFDiv widens by ulps of its larger end, so both ends
/// move by the larger magnitude's slack), where an end reaching [`Format::largest`] is taken
/// as the overflow allowance takes the range's: the infinity on its side, and an end beyond
/// it on the other side at that value at most (the allowance's largest finite value is
/// larger: fmod's `x / y` past the range). `Unknown` at an infinite corner, or at NaN.
fn quotient_outer(low: f64, high: f64, format: &Format) -> Outcome<(f64, f64)> {
    if low.is_nan() || high.is_nan() {
        return Err(UNKNOWN);
    }
    let magnitude = low.abs().max(high.abs());
    if magnitude < format.largest {
        return outer(low, high, format);
    }
    if !magnitude.is_finite() {
        return Err(UNKNOWN);
    }
    let slack = magnitude * format.slack;
    let largest = format.largest;
    let (low, high) = (low - slack, high + slack);
    let low = if low <= -largest {
        f64::NEG_INFINITY
    } else {
        low.min(largest)
    };
    let high = if high >= largest {
        f64::INFINITY
    } else {
        high.max(-largest)
    };
    Ok(flushed(low, high, format))
}

/// `f` applied component by component, a scalar standing for every component.
fn componentwise<const K: usize, const N: usize>(
    values: [&Value<N>; K],
    f: impl Fn(&[Node; K]) -> Outcome<Node>,
) -> Outcome<Value<N>> {
    let width = values.iter().map(|v| v.len).max().unwrap_or(1);
    if values.iter().any(|v| v.len != 1 && v.len != width) {
        return Err(UNKNOWN);
    }
    let mut result = Value::scalar(Node::point(0.0));
    result.len = width;
    for i in 0..width {
        let args = values.map(|v| v.nodes[if v.len == 1 { 0 } else { i }]);
        result.nodes[i] = f(&args)?;
    }
    Ok(result)
}

/// The formula's literal values at `args` (component `component`), for the tests beside the
/// interval evaluation's (`judge::vulkan::tests`).
#[cfg(test)]
pub(super) fn values(formula: &Formula, args: &[f64], component: usize) -> Option<[f64; 3]> {
    literal(
        formula,
        args,
        component,
        Cells::of(FloatType::Double)?,
        false,
    )
    .ok()
    .map(|node| node.values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::test_draws::Xorshift;
    use rug::float::Round;
    use rug::ops::DivAssignRound;
    use rug::Float;

    /// A double of `draws`: a random significand in binades -900 to 900, either sign, or an
    /// integer, or a power of two (where the ulp is the gap below).
    pub(super) fn draw(draws: &mut Xorshift) -> f64 {
        let sign = if draws.next_bits() & 1 == 0 {
            1.0
        } else {
            -1.0
        };
        let binade = (draws.next_bits() % 1801) as i32 - 900;
        let significand = f64::from_bits(0x3ff0_0000_0000_0000 | draws.next_bits() >> 12);
        sign * match draws.next_bits() % 4 {
            0 => (draws.next_bits() % 64) as f64,
            1 => two_to(i64::from(binade)),
            _ => significand * two_to(i64::from(binade)),
        }
    }

    /// The doubles below and above an exact value, by MPFR.
    fn mpfr_both_ways(exact: &Float) -> (f64, f64) {
        (
            exact.to_f64_round(Round::Down),
            exact.to_f64_round(Round::Up),
        )
    }

    /// The exact sums, products and quotients' neighbours are MPFR's directed roundings,
    /// wherever they are given; and so are reciprocal roots'. A widening by whole ulps stays
    /// within the exact value's own ulps of it.
    #[test]
    fn neighbours_of_exact_values_are_mpfr_s() {
        let mut draws = Xorshift(0x0bad_5eed_1234_5678);
        let mut given = [0usize; 5];
        for _ in 0..40_000 {
            let (x, y) = (draw(&mut draws), draw(&mut draws));
            for (k, op) in [Operator::Add, Operator::Sub, Operator::Mul, Operator::Div]
                .into_iter()
                .enumerate()
            {
                let Some(neighbours) = rounded_both_ways(op, x, y) else {
                    continue;
                };
                let exact = match op {
                    Operator::Add => Float::with_val(4200, x) + y,
                    Operator::Sub => Float::with_val(4200, x) - y,
                    Operator::Mul => Float::with_val(4200, x) * y,
                    Operator::Div => {
                        let mut down = Float::with_val(4200, x);
                        down.div_assign_round(y, Round::Down);
                        let mut up = Float::with_val(4200, x);
                        up.div_assign_round(y, Round::Up);
                        assert_eq!(
                            neighbours,
                            (down.to_f64_round(Round::Down), up.to_f64_round(Round::Up)),
                            "{x:e} / {y:e}"
                        );
                        given[k] += 1;
                        continue;
                    }
                };
                assert_eq!(neighbours, mpfr_both_ways(&exact), "{x:e} {op:?} {y:e}");
                given[k] += 1;
            }
            let t = x.abs();
            if let Some((down, up)) = reciprocal_root_both_ways(t) {
                let exact = Float::with_val(200, t).recip_sqrt();
                let mut low = Float::with_val(4200, t);
                low.recip_sqrt_round(Round::Down);
                let mut high = Float::with_val(4200, t);
                high.recip_sqrt_round(Round::Up);
                assert_eq!(
                    (down, up),
                    (low.to_f64_round(Round::Down), high.to_f64_round(Round::Up)),
                    "1/sqrt({t:e})"
                );
                given[4] += 1;
                // Two ulps either side of the root hold the widened neighbours.
                let (least, most) = widened(down, up, 2.5).expect("a normal root");
                let ulp = crate::num::ulp::ulp_of(&exact, FloatType::Double);
                let reach = Float::with_val(4200, &exact - 2.0 * ulp);
                assert!(least >= reach && least <= down, "1/sqrt({t:e}): {least:e}");
                let reach = Float::with_val(4200, &exact + 2.0 * ulp);
                assert!(most <= reach && most >= up, "1/sqrt({t:e}): {most:e}");
            }
        }
        // Each way decides most of its draws (a product or a quotient near the subnormals
        // is left out, and so is a root of an argument outside [2^-960, 2^960]).
        for (k, count) in given.into_iter().enumerate() {
            assert!(count > 25_000, "way {k}: {count} of 40000");
        }
    }
}
