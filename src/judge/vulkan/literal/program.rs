//! A table formula of scalar operations compiled once into steps over numbered nodes: the
//! literal evaluation of [`super`] without its walk of the formula's tree. The tree walk moved
//! a value, looked each name up and allocated its bindings at every step, most of `fma`'s
//! judging; the steps here call the same node functions ([`super::arithmetic`],
//! [`super::fused`], [`super::root`], ...) in the walk's order (its first stop is theirs), so
//! the proofs in [`super`] read unchanged. Formulas over vectors (`sum`, a component, cross's
//! operations) and anything the walk would stop at by name are not compiled: the walk
//! evaluates them.

use super::{arithmetic, clamped, fused, reciprocal_root, root, truncated, Cells, Node, Outcome};
use crate::spec::vulkan::formula::{Expr, Formula, Operator};

/// One operation; its node is the next one after the parameters' and the earlier steps'.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Number(f64),
    Negate(usize),
    /// `a op b`, OpFMul or OpFDiv (or an addition of no product).
    Arithmetic(Operator, usize, usize),
    /// `a ± b`, with the products an operand is (its operands' nodes), for the fused
    /// evaluations.
    Sum {
        op: Operator,
        a: usize,
        b: usize,
        left: Option<(usize, usize)>,
        right: Option<(usize, usize)>,
    },
    /// sqrt's `1.0 / inversesqrt(t)`.
    Root(usize),
    ReciprocalRoot(usize),
    Trunc(usize),
    Clamp(usize, usize, usize),
}

/// Nodes a program may hold (parameters and steps): smoothstep's, the largest, has 15.
const MOST_NODES: usize = 24;

/// A compiled formula: its steps, and the node of its value.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Program {
    parameters: usize,
    steps: Vec<Step>,
    result: usize,
}

impl Program {
    /// `formula` over `parameters` (scalars), where every operation is one of [`Step`]'s and
    /// every name is bound; `None` otherwise (the walk evaluates it).
    pub(super) fn compile(
        formula: &Formula,
        parameters: &[&'static str],
        cells: &Cells,
    ) -> Option<Program> {
        let mut compiler = Compiler {
            cells,
            steps: Vec::new(),
            nodes: parameters.len(),
        };
        let scope: Vec<(&str, usize)> = parameters.iter().copied().zip(0..).collect();
        let result = compiler.formula(formula, scope)?;
        (compiler.nodes <= MOST_NODES).then_some(Program {
            parameters: parameters.len(),
            steps: compiler.steps,
            result,
        })
    }

    /// The formula's node at `args` (one per parameter), as the walk gives it.
    pub(super) fn run(&self, args: &[f64], cells: &Cells, inner: bool) -> Outcome<Node> {
        debug_assert_eq!(args.len(), self.parameters);
        let mut nodes = [Node::point(0.0); MOST_NODES];
        for (node, arg) in nodes.iter_mut().zip(args) {
            *node = Node::point(*arg);
        }
        for (at, step) in (self.parameters..).zip(&self.steps) {
            let pair = |(p, q): (usize, usize)| (&nodes[p], &nodes[q]);
            nodes[at] = match *step {
                Step::Number(v) => Node::point(v),
                Step::Negate(v) => nodes[v].negated(),
                Step::Arithmetic(op, a, b) => arithmetic(op, &nodes[a], &nodes[b], cells, inner)?,
                Step::Sum {
                    op,
                    a,
                    b,
                    left,
                    right,
                } => fused(
                    op,
                    &nodes[a],
                    &nodes[b],
                    left.map(pair),
                    right.map(pair),
                    cells,
                    inner,
                )?,
                Step::Root(t) => root(&nodes[t], cells, inner)?,
                Step::ReciprocalRoot(t) => reciprocal_root(&nodes[t], cells, inner)?,
                Step::Trunc(v) => truncated(&nodes[v], inner)?,
                Step::Clamp(v, low, high) => clamped(&[nodes[v], nodes[low], nodes[high]], inner)?,
            };
        }
        Ok(nodes[self.result])
    }
}

struct Compiler<'c> {
    cells: &'c Cells,
    steps: Vec<Step>,
    /// Nodes so far: the parameters', then one per step.
    nodes: usize,
}

impl Compiler<'_> {
    /// A formula's node, its names bound by `scope` (and its `where` binding after them).
    fn formula<'f>(
        &mut self,
        formula: &'f Formula,
        mut scope: Vec<(&'f str, usize)>,
    ) -> Option<usize> {
        if let Some((name, expr)) = &formula.binding {
            let node = self.expr(expr, &scope)?;
            scope.push((name.as_str(), node));
        }
        self.expr(&formula.body, &scope)
    }

    fn push(&mut self, step: Step) -> usize {
        self.steps.push(step);
        self.nodes += 1;
        self.nodes - 1
    }

    fn expr(&mut self, expr: &Expr, scope: &[(&str, usize)]) -> Option<usize> {
        match expr {
            Expr::Number(v) => Some(self.push(Step::Number(*v))),
            Expr::Variable(name) => scope
                .iter()
                .rev()
                .find(|(bound, _)| bound == name)
                .map(|(_, node)| *node),
            Expr::Negate(inner) => {
                let inner = self.expr(inner, scope)?;
                Some(self.push(Step::Negate(inner)))
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b, scope),
            Expr::Call(name, args) => self.call(name, args, scope),
            Expr::Component(..) | Expr::Constant(_) | Expr::Operation(_) => None,
        }
    }

    /// An operand of a sum or a difference: its node, and a product's operands' where it is
    /// one (the walk's `operand`).
    fn operand(
        &mut self,
        e: &Expr,
        scope: &[(&str, usize)],
    ) -> Option<(usize, Option<(usize, usize)>)> {
        match e {
            Expr::Binary(Operator::Mul, p, q) => {
                let (p, q) = (self.expr(p, scope)?, self.expr(q, scope)?);
                Some((
                    self.push(Step::Arithmetic(Operator::Mul, p, q)),
                    Some((p, q)),
                ))
            }
            _ => Some((self.expr(e, scope)?, None)),
        }
    }

    fn binary(
        &mut self,
        op: Operator,
        a: &Expr,
        b: &Expr,
        scope: &[(&str, usize)],
    ) -> Option<usize> {
        if let (Operator::Div, Expr::Number(one), Expr::Call(name, t)) = (op, a, b) {
            if let ([t], true) = (t.as_slice(), *one == 1.0 && name == "inversesqrt") {
                let t = self.expr(t, scope)?;
                return Some(self.push(Step::Root(t)));
            }
        }
        if !matches!(op, Operator::Add | Operator::Sub) {
            let (a, b) = (self.expr(a, scope)?, self.expr(b, scope)?);
            return Some(self.push(Step::Arithmetic(op, a, b)));
        }
        let ((a, left), (b, right)) = (self.operand(a, scope)?, self.operand(b, scope)?);
        Some(self.push(Step::Sum {
            op,
            a,
            b,
            left,
            right,
        }))
    }

    fn call(&mut self, name: &str, args: &[Expr], scope: &[(&str, usize)]) -> Option<usize> {
        match (name, args) {
            ("inversesqrt", [arg]) => {
                let arg = self.expr(arg, scope)?;
                Some(self.push(Step::ReciprocalRoot(arg)))
            }
            ("trunc", [arg]) => {
                let arg = self.expr(arg, scope)?;
                Some(self.push(Step::Trunc(arg)))
            }
            ("clamp", [v, low, high]) => {
                let v = self.expr(v, scope)?;
                let low = self.expr(low, scope)?;
                let high = self.expr(high, scope)?;
                Some(self.push(Step::Clamp(v, low, high)))
            }
            // Vector operations: the walk's.
            ("sum", _) => None,
            _ if Operator::of_instruction(name).is_some() => None,
            _ => {
                let (_, formula, parameters) =
                    self.cells.calls.iter().find(|(text, _, _)| *text == name)?;
                if parameters.len() != args.len() {
                    return None;
                }
                let mut bound = Vec::with_capacity(args.len());
                for (parameter, arg) in parameters.iter().zip(args) {
                    bound.push((*parameter, self.expr(arg, scope)?));
                }
                self.formula(formula, bound)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{literal_in, pick, tests::draw, Stopped};
    use super::*;
    use crate::num::fp::FloatType;
    use crate::num::test_draws::Xorshift;

    /// A node's every field, bit for bit.
    fn bits(node: &Node) -> Vec<u64> {
        let mut bits: Vec<u64> = node.values.iter().map(|v| v.to_bits()).collect();
        bits.extend([node.low, node.high, node.inner.0, node.inner.1].map(f64::to_bits));
        bits.extend([u64::from(node.nonnegative), u64::from(node.nonpositive)]);
        bits
    }

    fn outcome(outcome: Outcome<Node>) -> Result<Vec<u64>, Stopped> {
        outcome.map(|node| bits(&node))
    }

    /// Every table formula that compiles gives the walk's node, every field bit for bit, or
    /// its stop, plainly and with inner ranges, in each type's column: at ordinary arguments, zeros, infinities,
    /// NaN, near-equal pairs and tiny and huge values. fma's, sqrt's, mix's, smoothstep's and
    /// fmod's compile.
    #[test]
    fn programs_evaluate_as_the_walk_does() {
        let mut draws = Xorshift(0x5eed_0fc0_de12_3400);
        let mut compiled = Vec::new();
        for element in [FloatType::Double, FloatType::Float, FloatType::Half] {
            let cells = Cells::of(element).expect("the column's cells");
            for (formula, parameters, program) in &cells.parameters {
                let Some(program) = program else {
                    continue;
                };
                compiled.push(parameters.clone());
                let mut stops = 0;
                for set in 0..20_000 {
                    let mut args: Vec<f64> = (0..parameters.len())
                        .map(|_| match draws.next_bits() % 16 {
                            0 => 0.0,
                            1 => -0.0,
                            2 => f64::INFINITY,
                            3 => f64::NAN,
                            4 => f64::from_bits(draws.next_bits() % (1 << 52)),
                            5 => (draws.next_bits() % 9) as f64 / 4.0,
                            _ => draw(&mut draws),
                        })
                        .map(|v| element.round(v))
                        .collect();
                    if set % 4 == 0 && args.len() > 1 {
                        // Near-equal operands: cancellations, and divisors near zero.
                        args[1] = args[0] * (1.0 + f64::EPSILON * (draws.next_bits() % 8) as f64);
                    }
                    for inner in [false, true] {
                        let walked =
                            pick(literal_in::<1>(formula, parameters, &args, cells, inner), 0);
                        let run = program.run(&args, cells, inner);
                        stops += usize::from(walked.is_err());
                        assert_eq!(
                            outcome(run),
                            outcome(walked),
                            "{parameters:?} at {args:?}, inner {inner}"
                        );
                    }
                }
                eprintln!(
                    "{parameters:?}: {} steps, {stops} of 40000 stopped",
                    program.steps.len()
                );
                assert!(stops < 40_000, "{parameters:?}: every set stopped");
            }
        }
        for parameters in [
            vec!["x", "y", "z"],
            vec!["x"],
            vec!["x", "y", "a"],
            vec!["edge0", "edge1", "x"],
            vec!["x", "y"],
        ] {
            assert!(
                compiled.contains(&parameters),
                "{parameters:?}: {compiled:?}"
            );
        }
    }
}
