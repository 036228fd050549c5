//! A double result of an inherited cell decided without the interval evaluation
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
//! **Where the evaluation would stop short.** The judge says "not judged" rather than pass
//! where a range reaches NaN (inf - inf, 0 · inf, 0 / 0, the root of a negative value) or an
//! operation's cell bounds nothing (a divisor range leaving OpFDiv's). Beside the literal
//! values, each node carries an outer bound of its MPFR range in double (the corners of its
//! operands' bounds, all four as the interval evaluation takes them, widened by 2^-40 of the
//! larger magnitude and at least 2^-1070: far more than the corners' rounding and the cells'
//! widening, at most 16 ulp), and the signs its range keeps (every corner on one side of
//! zero, or a bound on one side of it). A correctly rounded operation's end beyond 2^1000 is
//! taken as the infinity (the overflow allowance), any other bound must stay below 2^1000; a
//! NaN among the corners, a product of an unbounded operand by one whose bound reaches zero
//! (0 · inf), or a quotient, trunc or clamp of an unbounded operand, gives up (the evaluation
//! decides); an end below 2^-1000 is taken as zero, where the ranges of a shader without
//! DenormPreserve reach zero beside a denormal. A pass is given only where every divisor's bound lies inside
//! OpFDiv's divisor range on one side of zero and every root's argument is proven non-negative
//! and not zero alone.
//!
//! **A proven stop.** Where a divisor's bound lies certainly outside OpFDiv's divisor range
//! (on both sides, and the range not zero alone), the plain evaluation, whose operations run
//! in the interval evaluation's order, stops there as that evaluation does: "not judged"
//! (`sqrt` and `length` of large or tiny values), unless a zero argument's exact zero is due.
//!
//! Only double results with the double column's cells take this way (element = unit): a float
//! or half result is decided by the Vulkan tier first, and its rounding after a fused
//! operation is not one rounding of the exact value. The test
//! `literal_decisions_are_the_interval_evaluation_s` (`judge::vulkan::tests`) holds every
//! decision to the interval evaluation's.

use crate::num::fp::FloatType;
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::{builtin_in, Profile, Requirement};
use crate::spec::vulkan::formula::{self, Expr, Formula, Operator};
use crate::spec::vulkan::{column, Cell};
use std::sync::OnceLock;

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
}

impl Node {
    /// An argument: its value, exactly.
    fn point(v: f64) -> Node {
        Node {
            values: [v; EVALUATIONS],
            low: v,
            high: v,
            nonnegative: v >= 0.0,
            nonpositive: v <= 0.0,
        }
    }

    /// The bound's ends are finite: an operation's operand (the corners of finite ends are
    /// never NaN, and one rounded to an infinity is beyond 2^1000, which [`outer`] reads).
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
        }
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

/// Magnitudes a finite bound stays below (no overflow allowance); beyond it, a correctly
/// rounded operation's end is taken as the infinity ([`rounded_outer`]).
const LARGEST: f64 = two_to(1000);

/// Ends below it in magnitude are taken as zero (a denormal flushed).
const FLUSHED: f64 = two_to(-1000);

/// The outer bounds' widening, relative to the larger magnitude.
const SLACK: f64 = two_to(-40);

/// The outer bounds' widening at least: 16 ulp of the subnormals (a cell's widening there).
const TINY_SLACK: f64 = f64::from_bits(1 << 4); // 2^-1070, a subnormal

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
pub(super) fn decide(
    formula: &Formula,
    args: &[f64],
    component: usize,
    element: FloatType,
    unit: FloatType,
    device_result: f64,
) -> Option<Literal> {
    if element != FloatType::Double || unit != element {
        return None;
    }
    match literal(formula, args, component, Cells::double()?) {
        Ok(node) => {
            // An infinite value lies in its node's range as the overflow allowance does (the
            // range reaches past the largest finite value), so the range holds every value
            // from the literal values' least to their largest, infinities included.
            if node.values.iter().any(|v| v.is_nan()) {
                return None;
            }
            let low = node.values.iter().copied().fold(f64::INFINITY, f64::min);
            let high = node
                .values
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
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
fn literal(formula: &Formula, args: &[f64], component: usize, cells: &Cells) -> Outcome<Node> {
    let parameters = cells.parameters(formula);
    if parameters.is_empty() || !args.len().is_multiple_of(parameters.len()) {
        return Err(UNKNOWN);
    }
    if args.len() == parameters.len() {
        literal_in::<1>(formula, &parameters, args, component, cells)
    } else {
        literal_in::<4>(formula, &parameters, args, component, cells)
    }
}

/// [`literal`] in values of up to `N` components.
fn literal_in<const N: usize>(
    formula: &Formula,
    parameters: &[&'static str],
    args: &[f64],
    component: usize,
    cells: &Cells,
) -> Outcome<Node> {
    let width = args.len() / parameters.len();
    let mut bound = Vec::with_capacity(parameters.len() + 1);
    for (name, values) in parameters.iter().zip(args.chunks(width)) {
        bound.push((
            *name,
            Value::<N>::of(values.iter().map(|v| Node::point(*v)))?,
        ));
    }
    let value = apply(formula, bound, cells)?;
    let index = if value.len == 1 { 0 } else { component };
    value.get(index).ok_or(UNKNOWN)
}

fn apply<'a, const N: usize>(
    formula: &'a Formula,
    mut bound: Vec<(&'a str, Value<N>)>,
    cells: &Cells,
) -> Outcome<Value<N>> {
    if let Some((name, expr)) = &formula.binding {
        let value = Evaluation {
            bound: &bound,
            index: None,
            cells,
        }
        .expr(expr)?;
        bound.push((name.as_str(), value));
    }
    Evaluation {
        bound: &bound,
        index: None,
        cells,
    }
    .expr(&formula.body)
}

/// The cells the proof reads, checked once: OpFAdd, OpFSub and OpFMul correctly rounded,
/// OpFDiv at least half an ulp inside its divisor range, inversesqrt within a few ulp, trunc
/// correctly rounded and clamp exact, in the double column (OpFDiv's and inversesqrt's
/// widening at most 16 ulp: far inside the bounds' slack); and the formulas of the inherited
/// functions the formulas call, with their parameters.
struct Cells {
    /// inversesqrt's cell allows 2 ulp: `1.0 / sqrt(t)` in double is within it.
    reciprocal_root_within_two_roundings: bool,
    divisor_low: f64,
    divisor_high: f64,
    /// The inherited functions a formula may call (`dot`, `length`, `sqrt`, ...), by the
    /// text's name ([`formula::FUNCTIONS`]).
    calls: Vec<(&'static str, &'static Formula, Vec<&'static str>)>,
    /// Every inherited double formula's parameters, by its address (the judge's formulas are
    /// the table's, parsed once).
    parameters: Vec<(usize, Vec<&'static str>)>,
}

impl Cells {
    fn double() -> Option<&'static Cells> {
        static CELLS: OnceLock<Option<Cells>> = OnceLock::new();
        CELLS
            .get_or_init(|| {
                let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
                let cell = |name: &str| {
                    table
                        .row(name)
                        .map(|row| column(row, FloatType::Double, false).0)
                };
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
                    .filter_map(|row| match column(row, FloatType::Double, false).0 {
                        Requirement::Vulkan(Cell::Inherited(text)) => {
                            let formula = formula::of_table(text)?;
                            Some((std::ptr::from_ref(formula) as usize, formula.parameters()))
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
                (arithmetic && clamp && *ulp >= 0.5 && *ulp <= 16.0).then_some(Cells {
                    reciprocal_root_within_two_roundings: rsqrt >= 2.0,
                    divisor_low: *low,
                    divisor_high: *high,
                    calls,
                    parameters,
                })
            })
            .as_ref()
    }

    /// `formula.parameters()`, found once for the table's formulas.
    fn parameters(&self, formula: &Formula) -> std::borrow::Cow<'_, [&'static str]> {
        let address = std::ptr::from_ref(formula) as usize;
        match self.parameters.iter().find(|(at, _)| *at == address) {
            Some((_, parameters)) => std::borrow::Cow::Borrowed(parameters),
            None => std::borrow::Cow::Owned(formula.parameters()),
        }
    }
}

struct Evaluation<'a, const N: usize> {
    bound: &'a [(&'a str, Value<N>)],
    index: Option<(&'a str, usize)>,
    cells: &'a Cells,
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
            Expr::Constant(_) | Expr::Operation(_) => Err(UNKNOWN),
        }
    }

    /// An operand of a sum or a difference: its value, and a product's operands where it is
    /// one (for the fused evaluations).
    fn operand(&self, e: &Expr) -> Outcome<(Value<N>, Option<(Value<N>, Value<N>)>)> {
        match e {
            Expr::Binary(Operator::Mul, p, q) => {
                let (p, q) = (self.expr(p)?, self.expr(q)?);
                let product = componentwise([&p, &q], |v| {
                    arithmetic(Operator::Mul, &v[0], &v[1], self.cells)
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
                return componentwise([&t], |v| self.root(&v[0]));
            }
        }
        if !matches!(op, Operator::Add | Operator::Sub) {
            let (a, b) = (self.expr(a)?, self.expr(b)?);
            return componentwise([&a, &b], |v| arithmetic(op, &v[0], &v[1], self.cells));
        }
        let ((a, a_product), (b, b_product)) = (self.operand(a)?, self.operand(b)?);
        let none = Value::scalar(Node::point(0.0));
        let (pa, qa) = a_product.as_ref().map_or((&none, &none), |(p, q)| (p, q));
        let (pb, qb) = b_product.as_ref().map_or((&none, &none), |(p, q)| (p, q));
        let (fuse_left, fuse_right) = (a_product.is_some(), b_product.is_some());
        componentwise([&a, &b, pa, qa, pb, qb], |v| {
            let plain = arithmetic(op, &v[0], &v[1], self.cells)?;
            let sign = if op == Operator::Sub { -1.0 } else { 1.0 };
            // p·q + b, or a ± p·q, rounded once.
            let left = |e: usize| v[2].values[e].mul_add(v[3].values[e], sign * v[1].values[e]);
            let right = |e: usize| (sign * v[4].values[e]).mul_add(v[5].values[e], v[0].values[e]);
            Ok(plain.with_values(|e| match e {
                RIGHT_FIRST if fuse_right => right(e),
                RIGHT_FIRST | LEFT_FIRST if fuse_left => left(e),
                LEFT_FIRST if fuse_right => right(e),
                _ => plain.values[e],
            }))
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
                    };
                    let (value, product) = term.operand(body)?;
                    let value = value.single()?;
                    total = Some(match total {
                        None => value,
                        Some(sum) => {
                            let plain = arithmetic(Operator::Add, &sum, &value, self.cells)?;
                            match product {
                                Some((p, q)) => {
                                    let (p, q) = (p.single()?, q.single()?);
                                    plain.with_values(|e| match e {
                                        PLAIN => plain.values[e],
                                        _ => p.values[e].mul_add(q.values[e], sum.values[e]),
                                    })
                                }
                                None => plain,
                            }
                        }
                    });
                }
                total.map(Value::scalar).ok_or(UNKNOWN)
            }
            ("inversesqrt", [arg]) => {
                let arg = self.expr(arg)?;
                componentwise([&arg], |v| self.reciprocal_root(&v[0]))
            }
            ("trunc", [arg]) => {
                let arg = self.expr(arg)?;
                componentwise([&arg], |v| {
                    if !v[0].finite() {
                        return Err(UNKNOWN);
                    }
                    Ok(Node {
                        low: v[0].low.trunc(),
                        high: v[0].high.trunc(),
                        ..v[0].with_values(|e| v[0].values[e].trunc())
                    })
                })
            }
            ("clamp", [v, low, high]) => {
                let (v, low, high) = (self.expr(v)?, self.expr(low)?, self.expr(high)?);
                componentwise([&v, &low, &high], |v| {
                    if !v.iter().all(Node::finite) {
                        return Err(UNKNOWN);
                    }
                    let clamp = |x: f64, low: f64, high: f64| x.max(low).min(high);
                    // min(max(v, l), h) lies between min(l, h) and max(l, h)'s sides.
                    Ok(Node {
                        values: std::array::from_fn(|e| {
                            clamp(v[0].values[e], v[1].values[e], v[2].values[e])
                        }),
                        low: clamp(v[0].low, v[1].low, v[2].low),
                        high: clamp(v[0].high, v[1].high, v[2].high),
                        nonnegative: v[1].nonnegative && v[2].nonnegative,
                        nonpositive: v[1].nonpositive && v[2].nonpositive,
                    })
                })
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
                apply(formula, bound, self.cells)
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
        let sign = if op == Operator::Sub { -1.0 } else { 1.0 };
        let mut nodes = [Node::point(0.0); 3];
        for (c, node) in nodes.iter_mut().enumerate() {
            let (j, k) = ((c + 1) % 3, (c + 2) % 3);
            let (xj, yk, yj, xk) = (x.nodes[j], y.nodes[k], y.nodes[j], x.nodes[k]);
            let a = arithmetic(first, &xj, &yk, self.cells)?;
            let b = arithmetic(second, &yj, &xk, self.cells)?;
            let plain = arithmetic(op, &a, &b, self.cells)?;
            // x[j]·y[k] ± b, or a ± y[j]·x[k], rounded once.
            let left = |e: usize| xj.values[e].mul_add(yk.values[e], sign * b.values[e]);
            let right = |e: usize| (sign * yj.values[e]).mul_add(xk.values[e], a.values[e]);
            let (fuse_left, fuse_right) = (
                fusing && first == Operator::Mul,
                fusing && second == Operator::Mul,
            );
            *node = plain.with_values(|e| match e {
                RIGHT_FIRST if fuse_right => right(e),
                RIGHT_FIRST | LEFT_FIRST if fuse_left => left(e),
                LEFT_FIRST if fuse_right => right(e),
                _ => plain.values[e],
            });
        }
        Value::of(nodes.into_iter())
    }

    /// `inversesqrt(t)` as `1.0 / sqrt(t)` in double: two roundings, each within `u/(1 + u)`
    /// of its value relative (u = 2^-53), so within `2u` of `1/sqrt(t)` relative, less than 2
    /// ulp of it (2u |y| < 2 ulp(y) for y below the next power of two; every such y is a
    /// normal double); inversesqrt's range holds `1/sqrt(t)` for t in its argument's range,
    /// widened by its 2 ulp of its larger end, whose ulp is at least y's.
    fn reciprocal_root(&self, t: &Node) -> Outcome<Node> {
        if !self.cells.reciprocal_root_within_two_roundings {
            return Err(UNKNOWN);
        }
        let (low, high) = reciprocal_root_bound(t)?;
        // At a zero, +inf as the interval evaluation takes it (IEEE's 1/sqrt(-0) is -inf).
        Ok(Node {
            values: t.values.map(|v| {
                if v == 0.0 {
                    f64::INFINITY
                } else {
                    1.0 / v.sqrt()
                }
            }),
            low,
            high,
            nonnegative: true,
            nonpositive: false,
        })
    }

    /// `sqrt(t)`, inherited from `1.0 / inversesqrt(t)`: the nearest double of the root, and
    /// the division's bound, its divisor (inversesqrt's range) inside OpFDiv's divisor range;
    /// unbounded where that range lies outside it.
    fn root(&self, t: &Node) -> Outcome<Node> {
        let (least, most) = reciprocal_root_bound(t)?;
        // The range holds a positive value, 1/sqrt of its argument's low end.
        divides((least, most), true, self.cells)?;
        let (low, high) = outer(1.0 / most, 1.0 / least)?;
        Ok(Node {
            values: t.values.map(f64::sqrt),
            low: low.max(0.0),
            high,
            nonnegative: true,
            nonpositive: false,
        })
    }
}

/// An outer bound of inversesqrt's range over `t`'s: its exact ends' reciprocal roots (0 for
/// an infinite end, infinite for a zero one), widened by far more than its few ulp of the
/// larger finite end. `Unknown` where the range may reach below zero (inversesqrt stops with
/// NaN there) or is zero alone.
fn reciprocal_root_bound(t: &Node) -> Outcome<(f64, f64)> {
    if !(t.nonnegative || t.low > 0.0) || t.high.is_nan() || t.high <= 0.0 {
        return Err(UNKNOWN);
    }
    // (+0 for a low end at or below zero: 1/sqrt(-0) would be -inf.)
    let low = if t.low > 0.0 { t.low } else { 0.0 };
    let (least, most) = (1.0 / t.high.sqrt(), 1.0 / low.sqrt());
    let finite = if most.is_finite() { most } else { least };
    let slack = (finite * SLACK).max(TINY_SLACK);
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
fn arithmetic(op: Operator, a: &Node, b: &Node, cells: &Cells) -> Outcome<Node> {
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
        match op {
            Operator::Add => a + b,
            Operator::Sub => a - b,
            Operator::Mul => a * b,
            Operator::Div => a / b,
        }
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
        outer(low, high)?
    } else {
        rounded_outer(low, high)?
    };
    if nonnegative {
        low = low.max(0.0);
    }
    if nonpositive {
        high = high.min(0.0);
    }
    // A bound on one side of zero holds the range there too.
    Ok(Node {
        values,
        low,
        high,
        nonnegative: nonnegative || low >= 0.0,
        nonpositive: nonpositive || high <= 0.0,
    })
}

/// [`outer`] for a correctly rounded operation, whose widening is each end's own rounding:
/// an end beyond 2^1000 in magnitude (an overflow allowance's infinity at most) is taken as
/// the infinity, and the other end, finite, widened by 2^-40 of its own magnitude (at least
/// 2^-1070) and at most 2^1000 in magnitude (the allowance's largest finite value beyond).
fn rounded_outer(low: f64, high: f64) -> Outcome<(f64, f64)> {
    if low.is_nan() || high.is_nan() {
        return Err(UNKNOWN);
    }
    if low > -LARGEST && high < LARGEST {
        return outer(low, high);
    }
    // A finite end moved outwards; a low end at +inf (every corner past 2^1000, so the range
    // starts at the allowance's largest value at least) at 2^999, a high end at -inf likewise.
    let widened = |end: f64, sign: f64| {
        if end.is_infinite() {
            return end.signum() * LARGEST / 2.0;
        }
        let moved = end - sign * (end.abs() * SLACK).max(TINY_SLACK);
        moved.clamp(-LARGEST, LARGEST)
    };
    let low = if low <= -LARGEST {
        f64::NEG_INFINITY
    } else {
        widened(low, 1.0)
    };
    let high = if high >= LARGEST {
        f64::INFINITY
    } else {
        widened(high, -1.0)
    };
    Ok(flushed(low, high))
}

/// An end below 2^-1000 in magnitude taken as zero: without DenormPreserve a range beside a
/// denormal reaches zero.
fn flushed(mut low: f64, mut high: f64) -> (f64, f64) {
    if low > 0.0 && low < FLUSHED {
        low = 0.0;
    }
    if high < 0.0 && high > -FLUSHED {
        high = 0.0;
    }
    (low, high)
}

/// `[low, high]` (the corners of an operation's exact range over its operands' bounds)
/// widened by 2^-40 of its larger magnitude (at least 2^-1070), an end below 2^-1000 taken
/// as zero; `Unknown` where it reaches 2^1000, or at NaN.
fn outer(low: f64, high: f64) -> Outcome<(f64, f64)> {
    if low.is_nan() || high.is_nan() {
        return Err(UNKNOWN);
    }
    let magnitude = low.abs().max(high.abs());
    if magnitude >= LARGEST {
        return Err(UNKNOWN);
    }
    // Corners rounded to zero (a product below the subnormals) get the absolute slack.
    let slack = (magnitude * SLACK).max(TINY_SLACK);
    Ok(flushed(low - slack, high + slack))
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
    literal(formula, args, component, Cells::double()?)
        .ok()
        .map(|node| node.values)
}
