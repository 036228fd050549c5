//! The Vulkan tier: a Vulkan table output decided from the correctly rounded double reference
//! (CORE-MATH) exactly as [`crate::judge::vulkan::judge`] decides it with MPFR's exact value,
//! wherever the double proves the verdict; everything else goes to MPFR (`judge_vulkan`).
//!
//! The rules stay written once, in [`crate::judge::vulkan`]: this tier only finds, from the
//! double `a` (the exact value x rounded once to double: `x.to_f64()` is `a`, so every test of
//! the rules on `x.to_f64()` reads the same on `a`), which branch the rules take and whether
//! the result is certainly inside or outside the bound, through the fast tiers' own machinery
//! ([`Rules::output_verdict`]: the format's rounding of `a`, the margin around the bound,
//! the side of a power of two; [`FastRule`]).
//!
//! Double results of inherited cells are decided by the literal evaluation's pass and
//! its "not judged" against the exact value (`judge::vulkan::judge_literally`), at the error
//! MPFR's path measures, bit for bit: where the exact value is a sum of products of the
//! arguments (fma, mix, fmod, OpDot, cross: `binding::exact_sum`) without MPFR
//! ([`ulp_error_of_sum`]: the exact sum rounded at the working precision, then the
//! difference at 64 bits, as MPFR rounds them), elsewhere against MPFR's exact value, computed
//! once. A result of one output that is the double tier's correctly rounded value (`sqrt`,
//! `fma`) passes as `CorrectlyRounded` where the literal evaluation passes it, counted at its
//! bound as the double tier counts OpenCL's, without the exact value's error. Several outputs
//! (normalize's, cross's components) are decided where all pass. Direct cells' double
//! results: below. Everything else of double goes to MPFR's path (a double approximation of
//! x is too coarse for a double result's error).
//!
//! Decided for half and float results of one table output:
//! - what GLSL.std.450 leaves undefined ([`undefined_by_instruction`]), ldexp's permitted zero,
//!   and without SignedZeroInfNanPreserve an argument or exact value that is not finite or
//!   lies past the largest finite value: undefined (or the zero's pass), as `judge_vulkan`
//!   decides them before anything else;
//! - poison (NaN at finite arguments: the double is NaN exactly where x is);
//! - `Ulp(n)`, `UlpPerMagnitude` (3 + 2|x|, the bound per input), `UlpForDivisor` (outside its
//!   divisor range: unbounded, so undefined), `UlpOutsideAbsoluteInside` outside its range:
//!   the ULP bound, in the cell's unit (RelaxedPrecision's half ulp in float's exponent range
//!   is 2^13 float ulps: the bound scaled up and the error down by that power of two, exactly);
//!   an infinity where |a| is past the largest finite value passes by the overflow allowance
//!   (x is then past it too), and the infinity of an exact infinity (x / 0) at no error;
//! - `AbsoluteInside` (sin, cos): a pass where |r - a| stays below the bound by 2^-10 of it
//!   (x is within 2^-54 of a), else MPFR; outside the range, unbounded;
//! - `CorrectlyRounded`: the neighbours of x in the rules' grid are `a`'s where `a` is off the
//!   grid (every grid point is a double, so x and `a` lie between the same two), and then RTE
//!   (where `a` is no midpoint), RTZ and either neighbour decide both ways; on the grid `a`
//!   itself passes (x is `a` or within half a double ulp: the nearest, and either neighbour),
//!   and under RTE every other result fails, as does every other one where the double is the
//!   exact value;
//! - inherited cells: the inputs where [`inherited::unbounded_at`] proves the formula's
//!   evaluation bounds nothing (undefined; asked before the exact value, which every branch
//!   before it would also call undefined), the passes [`inherited::passes_by_root_cell`]
//!   proves, and the literal evaluation's passes and stops in the type
//!   (`Rules::inherited_literally`: fma, mix, fmod, OpDot, sqrt, length, ...; between the
//!   literal values and the exact value's neighbours in the type). A pass is measured as
//!   `judge` measures it where the exact value is known without a fast tier (MPFR's, bit for
//!   bit; the exact sum's by [`ulp_error_of_sum`]), else against CORE-MATH's double;
//!   normalize's and cross's components each so, combined at the largest error;
//! - a result equal to the exact value the host computes (floor, fmax, ldexp, ...) in a cell
//!   that holds it, at no error, and frexp's and modf's work-items whose outputs all are.
//!
//! Double results of direct cells: the correctly rounded value (the double tier's) passes
//! where the cell holds it (`CorrectlyRounded`: OpFAdd, OpFMul, OpFDiv inside its divisor
//! range, rsqrt), OpFDiv's divisor outside its range is undefined; anything else goes to
//! MPFR.
//!
//! A failure is decided only where `judge` cannot turn it into a pass: a finite, non-zero
//! result below the largest finite value (no overflow allowance), measured off a
//! non-power-of-two `a`, and with DenormPreserve or no denormal argument (without it a fail
//! is tried again on flushed arguments, and a zero result for a denormal x passes).
//! Absolute failures go to MPFR, which records their distance as the unit's largest absolute
//! error, as do absolute passes of a cell that also measures in ulp (log's [0.5, 2]), whose
//! largest absolute error a fast pass would not record.

use crate::judge::tiers::{side_of, FastReference, FastRule, FastState, FastValues};
use crate::judge::vulkan::{
    error_is_absolute, inherited, judge_literally, undefined_by_instruction, Literal, Modes,
    Rounding, Verdict,
};
use crate::judge::{Rules, VulkanJudging};
use crate::num::exact_sum::{Exact, ExactSum};
use crate::num::fp::{fraction_is_zero, pow2, two_sum, FloatType};
use crate::num::ulp::{ulp_error, ulp_error_of_sum, ulp_error_of_value};
use crate::reference::{self, binding};
use crate::report::stats::FastVerdict;
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::table::Requirement;
use crate::spec::vulkan::Cell;

/// The exact value of an output without a fast tier ([`Rules::exact_value`]).
// One input's, on the stack and moved once: boxing the sum would allocate per input.
#[allow(clippy::large_enum_variant)]
enum KnownExact {
    /// A double the host computes exactly ([`binding::exact`]: fmod's `x % y`).
    Value(f64),
    Sum(Exact),
    Mpfr(rug::Float),
}

impl KnownExact {
    /// Rounded to nearest double; `None` where an exact sum's nearest double is not normal.
    fn nearest_double(&self) -> Option<f64> {
        match self {
            KnownExact::Value(value) => Some(*value),
            KnownExact::Sum(sum) => sum.nearest_double(),
            KnownExact::Mpfr(x) => Some(x.to_f64()),
        }
    }
}

/// What the rules see of one input, from the double reference.
struct Input<'a> {
    output: &'a Output,
    args: &'a [f64],
    /// The exact value rounded once to double (finite here).
    approximation: f64,
    device_result: f64,
    modes: Modes,
    /// The ulp unit's coarseness: 2^(element's precision - unit's), 1 but for
    /// RelaxedPrecision.
    coarser: f64,
}

/// Which of `judge`'s rules applies to an input.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind<'a> {
    /// A bound in the cell's ulp: N, 3 + 2|x| at this x, OpFDiv's inside its divisor range (or
    /// at a zero divisor), log's outside [0.5, 2].
    Ulps(f64),
    /// An absolute bound inside the cell's range (sin, cos).
    Absolute(f64),
    CorrectlyRounded,
    Inherited(&'a str),
    /// The cell bounds nothing here: undefined.
    Unbounded,
}

impl Rules {
    /// The Vulkan tier's verdict on one input (module docs), `None` where MPFR must judge.
    pub(in crate::judge) fn vulkan_verdict(
        &self,
        vulkan: VulkanJudging,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        if let Some(verdict) = self.vulkan_exact_outputs(vulkan, args, device_results) {
            return Some(verdict);
        }
        if self.element == FloatType::Double {
            return self.vulkan_double_verdict(vulkan, args, device_results);
        }
        let ([output], &[device_result]) = (self.outputs.as_slice(), device_results) else {
            return self.vulkan_components_verdict(vulkan, args, device_results);
        };
        let modes = vulkan.modes;
        if let Some(decided) = self.decided_before_the_cell(output, modes, args, device_result) {
            return decided;
        }
        if let Some(verdict) = self.vulkan_exact_value(vulkan.unit, output, args, device_result) {
            return Some(verdict);
        }
        // Before the exact value, which MPFR may have to compute: every branch that would
        // decide first decides "undefined" too.
        if let Requirement::Vulkan(Cell::Inherited(formula)) = &self.requirement {
            if inherited::unbounded_at(
                formula,
                self.element,
                vulkan.unit,
                args,
                modes.denorm_preserve,
            ) {
                return Some(FastVerdict::Undefined);
            }
        }
        let fast = binding::fast_tier(output);
        // The exact value itself where no fast tier stands for it (MPFR's, or the exact sum):
        // a literal pass is measured against it as `judge` measures it.
        let mut exact = None;
        let approximation = match fast {
            Some(fast) => {
                if reference.state == FastState::Unknown {
                    // A sweep's double column, where it has one
                    // ([`FastReference::know_double`]).
                    reference.values[0] = FastValues {
                        correctly_rounded: None,
                        approximation: reference.double,
                    };
                    reference.count = 1;
                    reference.state = FastState::Known;
                }
                *reference.values[0]
                    .approximation
                    .get_or_insert_with(|| fast(args))
            }
            // An inherited cell's literal evaluation needs the exact value only to measure a
            // pass: to double, from the exact sum or MPFR (no interval evaluation).
            None if matches!(self.requirement, Requirement::Vulkan(Cell::Inherited(_))) => exact
                .insert(self.exact_value(output, args))
                .nearest_double()?,
            None => return None,
        };
        if approximation.is_nan() {
            // Poison, or without SignedZeroInfNanPreserve a NaN: undefined either way.
            return Some(FastVerdict::Undefined);
        }
        let beyond = approximation.abs() > self.element.max_finite();
        if !modes.signed_zero_inf_nan_preserve && beyond {
            return Some(FastVerdict::Undefined);
        }
        let kind = match &self.requirement {
            Requirement::Ulp(n) => Kind::Ulps(*n),
            Requirement::Vulkan(Cell::UlpPerMagnitude {
                constant,
                per_magnitude,
            }) => Kind::Ulps(constant + per_magnitude * args[0].abs()),
            Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high }) => {
                let y = args.get(1)?.abs();
                if y == 0.0 || (*low..=*high).contains(&y) {
                    Kind::Ulps(*ulp)
                } else {
                    Kind::Unbounded
                }
            }
            Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside { ulp, .. }) => {
                if error_is_absolute(&self.requirement, args) {
                    return None;
                }
                Kind::Ulps(*ulp)
            }
            Requirement::Vulkan(Cell::AbsoluteInside { absolute, .. }) => {
                if error_is_absolute(&self.requirement, args) {
                    Kind::Absolute(*absolute)
                } else {
                    Kind::Unbounded
                }
            }
            Requirement::CorrectlyRounded => Kind::CorrectlyRounded,
            Requirement::Vulkan(Cell::Inherited(formula)) => Kind::Inherited(formula),
            _ => return None,
        };
        let coarser =
            pow2((self.element.precision() as i32 - vulkan.unit.precision() as i32).max(0));
        let input = Input {
            output,
            args,
            approximation,
            device_result,
            modes,
            coarser,
        };
        match kind {
            Kind::Unbounded => Some(FastVerdict::Undefined),
            // A ULP cell: an exact infinity (a pole, x / 0) is matched by the same infinity at
            // no error; a finite x past double (so past the largest finite value) by the
            // overflow allowance. Told apart as the fast tiers tell them
            // ([`Rules::infinite_verdict`]); everything else goes to MPFR.
            Kind::Ulps(_) if approximation.is_infinite() => {
                if device_result != approximation {
                    return None;
                }
                match reference::why_infinite(fast?, args)? {
                    reference::Infinity::Pole => Some(FastVerdict::Pass(0.0)),
                    reference::Infinity::PastDouble if args.iter().all(|x| *x != 0.0) => {
                        Some(FastVerdict::CorrectlyRoundedOverflow)
                    }
                    reference::Infinity::PastDouble => None,
                }
            }
            Kind::Inherited(formula) => inherited::passes_by_root_cell(
                formula,
                self.element,
                vulkan.unit,
                args,
                approximation,
                device_result,
                modes.denorm_preserve,
            )
            .map(|error| {
                if error.is_infinite() {
                    // Counted as `judge`'s pass at an infinite distance: no error.
                    FastVerdict::CorrectlyRoundedOverflow
                } else {
                    FastVerdict::Pass(error)
                }
            })
            .or_else(|| {
                self.inherited_literally(
                    vulkan,
                    formula,
                    args,
                    0,
                    approximation,
                    exact,
                    device_result,
                )
            }),
            _ if approximation.is_infinite() => None,
            Kind::Ulps(n) => self.vulkan_ulps(&input, n),
            Kind::Absolute(bound) => {
                let distance = (device_result - approximation).abs();
                (device_result.is_finite() && distance <= bound * (1.0 - 1.0 / 1024.0))
                    .then_some(FastVerdict::AbsolutePass(distance))
            }
            Kind::CorrectlyRounded => self.vulkan_correctly_rounded(&input),
        }
    }

    /// What `judge_vulkan` decides of an output before its cell (`Some`; `Some(None)` where
    /// MPFR's path decides): not a table output, an instruction's undefined arguments, a
    /// permitted zero, an argument that is not finite.
    fn decided_before_the_cell(
        &self,
        output: &Output,
        modes: Modes,
        args: &[f64],
        device_result: f64,
    ) -> Option<Option<FastVerdict>> {
        if output.check != OutputCheck::Table {
            return Some(None);
        }
        if undefined_by_instruction(self.function, self.element, args, &modes) {
            return Some(Some(FastVerdict::Undefined));
        }
        if device_result == 0.0
            && crate::spec::vulkan::may_return_zero(self.function, self.element, args)
        {
            return Some(Some(FastVerdict::Pass(0.0)));
        }
        if !args.iter().all(|a| a.is_finite()) {
            // An inherited cell's interval evaluation meets a NaN argument's NaN at the first
            // operation that takes it (every range is checked for NaN), and `judge` reads
            // that stop, or the divisor's before it, as "not judged".
            let inherited = matches!(self.requirement, Requirement::Vulkan(Cell::Inherited(_)));
            let undefined =
                !modes.signed_zero_inf_nan_preserve || inherited && args.iter().any(|a| a.is_nan());
            return Some(undefined.then_some(FastVerdict::Undefined));
        }
        None
    }

    /// A double work-item: one output's verdict ([`Rules::vulkan_double_output`]); of several
    /// (normalize's and cross's components), a pass where every output passes, at the largest
    /// error, as MPFR's path combines them; anything else goes to MPFR's path.
    fn vulkan_double_verdict(
        &self,
        vulkan: VulkanJudging,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        if self.outputs.len() != device_results.len() {
            return None;
        }
        let joint = self.joint_exact(args);
        let mut verdicts = self.outputs.iter().zip(device_results).enumerate().map(
            |(position, (output, result))| {
                let exact = joint.as_ref().map(|exact| &exact[position]);
                self.vulkan_double_output(vulkan, output, args, *result, position, exact)
            },
        );
        if self.outputs.len() == 1 {
            return verdicts.next()?;
        }
        all_passed(verdicts)
    }

    /// Every output's exact value where one MPFR computation serves them all (normalize's
    /// length), computed once.
    fn joint_exact(&self, args: &[f64]) -> Option<Vec<rug::Float>> {
        binding::joint_mpfr(&self.outputs).map(|joint| {
            let operands: Vec<_> = args.iter().map(|a| reference::operand(*a)).collect();
            joint(&operands, self.element)
        })
    }

    /// A half or float work-item of several outputs of an inherited cell (normalize's and
    /// cross's components): each output's literal pass ([`Rules::inherited_literally`])
    /// against its exact value (computed once for all where one MPFR computation serves them:
    /// normalize's length), combined at the largest error as MPFR's path combines them.
    /// Anything else (an output decided before its cell, an exact value that is NaN or past
    /// the largest finite value, a result the literal evaluation leaves) goes to MPFR's path.
    fn vulkan_components_verdict(
        &self,
        vulkan: VulkanJudging,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        let Requirement::Vulkan(Cell::Inherited(formula)) = &self.requirement else {
            return None;
        };
        if self.outputs.len() != device_results.len() {
            return None;
        }
        for (output, result) in self.outputs.iter().zip(device_results) {
            if self
                .decided_before_the_cell(output, vulkan.modes, args, *result)
                .is_some()
            {
                return None;
            }
        }
        let mut joint = self.joint_exact(args).map(Vec::into_iter);
        all_passed(self.outputs.iter().zip(device_results).enumerate().map(
            |(component, (output, result))| {
                let exact = match joint.as_mut() {
                    Some(joint) => KnownExact::Mpfr(joint.next()?),
                    None => self.exact_value(output, args),
                };
                let approximation = exact.nearest_double()?;
                if !approximation.is_finite() || approximation.abs() > self.element.max_finite() {
                    return None;
                }
                self.inherited_literally(
                    vulkan,
                    formula,
                    args,
                    component,
                    approximation,
                    Some(exact),
                    *result,
                )
            },
        ))
    }

    /// A double result of an inherited cell, at finite arguments: the literal evaluation's pass
    /// and its "not judged" ([`judge_literally`]), against the exact value computed once.
    /// Where the exact value is a sum of products of the arguments ([`binding::exact_sum`]:
    /// fma, mix, fmod, OpDot, cross) it and the error are computed without MPFR, as MPFR computes
    /// them ([`ulp_error_of_sum`]); elsewhere from MPFR's exact value, as `judge` takes it,
    /// without the rest of MPFR's path (a case, the exact value a second time); `exact` where
    /// it is known already. Everything the literal evaluation leaves to the intervals goes to
    /// MPFR's path.
    fn vulkan_double_output(
        &self,
        vulkan: VulkanJudging,
        output: &Output,
        args: &[f64],
        device_result: f64,
        component: usize,
        exact: Option<&rug::Float>,
    ) -> Option<FastVerdict> {
        if let Some(decided) =
            self.decided_before_the_cell(output, vulkan.modes, args, device_result)
        {
            return decided;
        }
        if let Some(verdict) =
            self.double_correctly_rounded(vulkan.modes, output, args, device_result, component)
        {
            return Some(verdict);
        }
        let Requirement::Vulkan(Cell::Inherited(formula)) = &self.requirement else {
            return None;
        };
        if vulkan.unit != FloatType::Double {
            return None;
        }
        if let Some(terms) = binding::exact_sum(output.reference) {
            if let Some(verdict) =
                self.double_by_exact_sum(vulkan, formula, terms, args, device_result, component)
            {
                return verdict;
            }
        }
        let computed;
        let x = match exact {
            Some(x) => x,
            None => {
                let operands: Vec<_> = args.iter().map(|a| reference::operand(*a)).collect();
                computed = reference::high_precision(
                    binding::mpfr(output.reference),
                    &operands,
                    self.element,
                );
                &computed
            }
        };
        let verdict = judge_literally(
            &self.requirement,
            self.element,
            vulkan.unit,
            args,
            x,
            device_result,
            &vulkan.modes,
            component,
        )?;
        match verdict {
            Verdict::Pass(error) => Some(passed_at(error)),
            Verdict::Fail(_) => None,
            Verdict::Unbounded(_) | Verdict::Undefined(_) => Some(FastVerdict::Undefined),
        }
    }

    /// The exact value of an output without a fast tier: the host's exact double where it
    /// computes one (fmod), the exact sum where it is one (mix, OpDot, cross), else MPFR's
    /// (`judge`'s exact value).
    fn exact_value(&self, output: &Output, args: &[f64]) -> KnownExact {
        let host = binding::exact(output.reference).and_then(|exact| exact(args, self.element));
        if let Some(value) = host.filter(|v| v.is_finite()) {
            return KnownExact::Value(value);
        }
        if let Some(terms) = binding::exact_sum(output.reference) {
            let mut sum = ExactSum::default();
            if terms(args, &mut sum) {
                return KnownExact::Sum(sum.value());
            }
        }
        let operands: Vec<_> = args.iter().map(|a| reference::operand(*a)).collect();
        KnownExact::Mpfr(reference::high_precision(
            binding::mpfr(output.reference),
            &operands,
            self.element,
        ))
    }

    /// A half or float result (output `component`) of an inherited cell that the literal
    /// evaluation decides, each value rounded to the type, the exact value's neighbours there
    /// too ([`inherited::decided_literally`]): a pass, at `judge`'s error where `exact` is
    /// known (MPFR's exact value, or the exact sum's), else against `approximation` (the exact
    /// value rounded to double: within 2^-29 of the type's ulp of `judge`'s error; measured off
    /// a normal, non-power-of-two double only, else MPFR); an infinity at no error (the
    /// overflow allowance's), or "not judged".
    #[allow(clippy::too_many_arguments)]
    fn inherited_literally(
        &self,
        vulkan: VulkanJudging,
        formula: &str,
        args: &[f64],
        component: usize,
        approximation: f64,
        exact: Option<KnownExact>,
        device_result: f64,
    ) -> Option<FastVerdict> {
        let finite = args.iter().all(|a| a.is_finite()) && approximation.is_finite();
        if vulkan.unit != self.element || !finite {
            return None;
        }
        let formula = crate::spec::vulkan::formula::of_table(formula)?;
        let decided = inherited::decided_literally(
            formula,
            self.element,
            vulkan.unit,
            args,
            component,
            device_result,
            approximation == 0.0,
            Some(self.element.neighbours(approximation)),
        )?;
        match decided {
            Literal::Unbounded => Some(FastVerdict::Undefined),
            Literal::Pass if device_result.is_infinite() => {
                Some(FastVerdict::CorrectlyRoundedOverflow)
            }
            Literal::Pass => {
                // `judge`'s own measure where the exact value is known (at zero and at a
                // power of two too: smoothstep's clamps, length's exact roots).
                let measured = match exact {
                    // A difference exact in double is MPFR's too (it rounds at 64 bits), and
                    // the rules of ulp(x) are the same at an exact double.
                    Some(KnownExact::Value(x)) if two_sum(device_result, -x).1 == 0.0 => {
                        Some(ulp_error_of_value(device_result, x, self.element))
                    }
                    Some(KnownExact::Value(x)) => Some(ulp_error(
                        device_result,
                        &rug::Float::with_val(53, x),
                        self.element,
                    )),
                    Some(KnownExact::Mpfr(x)) => Some(ulp_error(device_result, &x, self.element)),
                    Some(KnownExact::Sum(x)) => ulp_error_of_sum(
                        device_result,
                        x,
                        reference::working_precision(self.element),
                        self.element,
                    ),
                    None => None,
                };
                let power_of_two = fraction_is_zero(approximation);
                measured
                    .or_else(|| {
                        (approximation.is_normal() && !power_of_two)
                            .then(|| ulp_error_of_value(device_result, approximation, self.element))
                    })
                    .map(FastVerdict::Pass)
            }
        }
    }

    /// A work-item of several outputs (frexp's, modf's), each the host's exact value
    /// ([`binding::exact`]): a table output as [`Rules::vulkan_exact_value`] passes it (after
    /// what `judge_vulkan` decides before the cell: nothing there), an integer output equal to
    /// it (or any, where it is NaN), as MPFR's path accepts it: a pass at no error. `None`
    /// elsewhere (MPFR's path judges each output).
    fn vulkan_exact_outputs(
        &self,
        vulkan: VulkanJudging,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        let modes = vulkan.modes;
        if self.outputs.len() < 2 || self.outputs.len() != device_results.len() {
            return None;
        }
        for (output, result) in self.outputs.iter().zip(device_results) {
            let passes = match output.check {
                // The exact value first: it declines every output without one at once.
                OutputCheck::Table => {
                    self.vulkan_exact_value(vulkan.unit, output, args, *result)
                        == Some(FastVerdict::Pass(0.0))
                        && self
                            .decided_before_the_cell(output, modes, args, *result)
                            .is_none()
                }
                OutputCheck::Integer => binding::exact(output.reference)
                    .and_then(|exact| exact(args, self.element))
                    .is_some_and(|value| crate::judge::exact_output_matches(*result, value, true)),
                OutputCheck::QuotientLowBits => false,
            };
            if !passes {
                return None;
            }
        }
        Some(FastVerdict::Pass(0.0))
    }

    /// A result equal to the exact value the host computes ([`binding::exact`]: floor, fmax,
    /// clamp, ldexp, ...), a value of the format, in a cell that holds the exact value (a
    /// "correct result", correctly rounded in any mode in the element's own precision, an ulp
    /// bound): `judge`'s pass at no
    /// error (a finite exact value is no poison and lies inside the finite range). `None`
    /// elsewhere: the cell's other rules decide.
    fn vulkan_exact_value(
        &self,
        unit: FloatType,
        output: &Output,
        args: &[f64],
        device_result: f64,
    ) -> Option<FastVerdict> {
        // Correctly rounded in a coarser unit (RelaxedPrecision's half grid), a value of the
        // element may lie off the grid: not the unit's rounding.
        let holds_the_exact_value = match self.requirement {
            Requirement::Exact | Requirement::Ulp(_) => true,
            Requirement::CorrectlyRounded => unit == self.element,
            _ => false,
        };
        if !holds_the_exact_value {
            return None;
        }
        let value = binding::exact(output.reference)?(args, self.element)?;
        let of_the_format = value.is_finite() && self.element.round(value) == value;
        (of_the_format && device_result == value).then_some(FastVerdict::Pass(0.0))
    }

    /// A double result of one output that is the double tier's correctly rounded value (finite,
    /// so the exact value is inside the finite range and no poison), in a cell that holds it:
    /// `CorrectlyRounded`, counted at its bound (0.5 ulp) as the double tier counts OpenCL's
    /// double results ([`FastVerdict::CorrectlyRounded`]), without the exact value's error
    /// (MPFR's exact value, or the exact sum's, was most of such a result's cost). The cells:
    /// correctly rounded under RTE or no declared mode, an n-ulp bound of at least half an
    /// ulp, OpFDiv's inside its divisor range (outside it, at finite arguments, the result is
    /// unbounded: undefined), and an inherited cell where the literal evaluation passes the
    /// result (`sqrt`, `fma`; a value not zero, so the exact value is not either), which is
    /// what `judge` measures against the exact value there. A result equal to the exact value
    /// the host computes passes at no error ([`Rules::vulkan_exact_value`]). Anything else
    /// goes on (an inherited cell's other rules, else MPFR's path); several outputs are
    /// combined at their errors (`vulkan_double_verdict`).
    fn double_correctly_rounded(
        &self,
        modes: Modes,
        output: &Output,
        args: &[f64],
        device_result: f64,
        component: usize,
    ) -> Option<FastVerdict> {
        if self.outputs.len() != 1 {
            return None;
        }
        if let Some(verdict) =
            self.vulkan_exact_value(FloatType::Double, output, args, device_result)
        {
            return Some(verdict);
        }
        let inherited = match &self.requirement {
            Requirement::CorrectlyRounded if modes.rounding != Some(Rounding::Rtz) => None,
            Requirement::Ulp(n) if *n >= 0.5 => None,
            Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high }) => {
                let y = args.get(1)?.abs();
                if y != 0.0 && !(*low..=*high).contains(&y) {
                    // Unbounded at finite arguments (the quotient is no poison): not judged.
                    return Some(FastVerdict::Undefined);
                }
                if *ulp < 0.5 || y == 0.0 {
                    return None;
                }
                None
            }
            Requirement::Vulkan(Cell::Inherited(formula)) => Some(formula),
            _ => return None,
        };
        let rounded = binding::fast_tier(output)?(args);
        if device_result != rounded || !rounded.is_finite() {
            return None;
        }
        let Some(formula) = inherited else {
            return Some(FastVerdict::CorrectlyRounded);
        };
        if rounded == 0.0 {
            return None;
        }
        let formula = crate::spec::vulkan::formula::of_table(formula)?;
        let decided = inherited::decided_literally(
            formula,
            self.element,
            FloatType::Double,
            args,
            component,
            device_result,
            false,
            None,
        );
        (decided == Some(Literal::Pass)).then_some(FastVerdict::CorrectlyRounded)
    }

    /// [`Rules::vulkan_double_output`] where the exact value is the sum `terms` gives: `Some`
    /// of its verdict, `None` where the sum declines (MPFR's exact value decides then).
    fn double_by_exact_sum(
        &self,
        vulkan: VulkanJudging,
        formula: &str,
        terms: binding::ExactSumFn,
        args: &[f64],
        device_result: f64,
        component: usize,
    ) -> Option<Option<FastVerdict>> {
        let mut exact = ExactSum::default();
        if !terms(args, &mut exact) {
            return None;
        }
        // Finite, and below 2^1023: not past the largest double, so `judge` goes on to the
        // cell whatever the modes (a value nearer that edge takes MPFR's).
        let value = exact.value();
        if value.binade().is_some_and(|binade| binade >= 1023) {
            return None;
        }
        let Some(formula) = crate::spec::vulkan::formula::of_table(formula) else {
            return Some(None);
        };
        let decided = inherited::decided_literally(
            formula,
            self.element,
            vulkan.unit,
            args,
            component,
            device_result,
            value.is_zero(),
            None,
        );
        match decided {
            // Left to the interval evaluation: MPFR's path.
            None => Some(None),
            Some(Literal::Unbounded) => Some(Some(FastVerdict::Undefined)),
            Some(Literal::Pass) => {
                let precision = reference::working_precision(self.element);
                ulp_error_of_sum(device_result, value, precision, self.element)
                    .map(|error| Some(FastVerdict::Pass(error)))
            }
        }
    }

    /// Whether `judge` keeps a failure of this result: no overflow allowance (a finite,
    /// non-zero result below the largest finite value) and no flushed denormal to try.
    fn vulkan_failure_is_final(&self, input: &Input) -> bool {
        let result = input.device_result;
        result.is_finite()
            && result != 0.0
            && result.abs() < self.element.max_finite()
            && (input.modes.denorm_preserve
                || !input.args.iter().any(|a| self.element.is_subnormal(*a)))
    }

    /// An `n`-ulp bound in the cell's unit: the fast tiers' [`Rules::output_verdict`] on the
    /// bound in the element's ulp, its error brought back to the unit's.
    fn vulkan_ulps(&self, input: &Input, n: f64) -> Option<FastVerdict> {
        let (approximation, result) = (input.approximation, input.device_result);
        if result.is_infinite() {
            // The overflow allowance: x is past the largest finite value where `a` is.
            let same_sign = result.is_sign_negative() == approximation.is_sign_negative();
            return (approximation.abs() > self.element.max_finite() && same_sign)
                .then_some(FastVerdict::CorrectlyRoundedOverflow);
        }
        let rule = FastRule {
            bound: n * input.coarser,
            correctly_rounded: false,
            measured: false,
            fails_beyond: self.vulkan_failure_is_final(input),
        };
        let side = |power| side_of(input.output, input.args, power);
        let exact = binding::double_tier_is_exact(input.output, self.element);
        match self.output_verdict(approximation, exact, result, rule, side)? {
            FastVerdict::Pass(error) => Some(FastVerdict::Pass(error / input.coarser)),
            FastVerdict::Fail(error) => Some(FastVerdict::Fail(error / input.coarser)),
            _ => None,
        }
    }

    /// A correctly rounded cell (module docs): the neighbours of `a` on the grid of the unit's
    /// precision in the element's exponents, as `judge`'s `neighbours` finds them for x.
    fn vulkan_correctly_rounded(&self, input: &Input) -> Option<FastVerdict> {
        let (approximation, result) = (input.approximation, input.device_result);
        let max = self.element.max_finite();
        if !result.is_finite() || approximation.abs() > max {
            return None;
        }
        let coarser_bits = input.coarser.log2() as i32;
        let gap = pow2(self.element.gap_exponent(approximation) + coarser_bits);
        let (low, high) = (
            (approximation / gap).floor() * gap,
            (approximation / gap).ceil() * gap,
        );
        if low.abs() > max || high.abs() > max {
            return None;
        }
        let exact = binding::double_tier_is_exact(input.output, self.element);
        let error = || ulp_error_of_value(result, approximation, self.element) / input.coarser;
        if low == high {
            // On the grid: x is `a`, or within half a double ulp of it.
            if result == approximation && (exact || input.modes.rounding != Some(Rounding::Rtz)) {
                return Some(FastVerdict::Pass(error()));
            }
            // Another result fails where `a` is the only one accepted: the double is exact, or
            // RTE, whose nearest is `a` on whichever side of it x lies.
            let only =
                exact || (input.coarser == 1.0 && input.modes.rounding == Some(Rounding::Rte));
            let power_of_two = fraction_is_zero(approximation);
            return (only && !power_of_two && self.vulkan_failure_is_final(input))
                .then(|| FastVerdict::Fail(error()));
        }
        let accepted = if input.coarser > 1.0 {
            (low..=high).contains(&result)
        } else {
            match input.modes.rounding {
                None => result == low || result == high,
                Some(Rounding::Rtz) if approximation < 0.0 => result == high,
                Some(Rounding::Rtz) => result == low,
                Some(Rounding::Rte) => {
                    if !exact && reference::is_midpoint(approximation, self.element) {
                        return None;
                    }
                    result == self.element.round(approximation)
                }
            }
        };
        if accepted {
            Some(FastVerdict::Pass(error()))
        } else {
            self.vulkan_failure_is_final(input)
                .then(|| FastVerdict::Fail(error()))
        }
    }
}

/// Several outputs' verdicts combined as MPFR's path combines them: a pass where every one
/// passes, at the largest error (the overflow allowance's infinity among them: no error);
/// `None` at the first that is anything else, or undecided.
fn all_passed(verdicts: impl IntoIterator<Item = Option<FastVerdict>>) -> Option<FastVerdict> {
    let mut largest = 0.0f64;
    for verdict in verdicts {
        match verdict? {
            FastVerdict::Pass(error) => largest = largest.max(error),
            FastVerdict::CorrectlyRoundedOverflow => largest = f64::INFINITY,
            _ => return None,
        }
    }
    Some(passed_at(largest))
}

/// A pass of MPFR's path at `error`, recorded as that path records it: at an infinite
/// distance (the overflow allowance's infinity, where the exact value is finite) as no error
/// ([`crate::report::stats::UnitStats::record`]), the record a correctly rounded overflow's
/// verdict gets.
fn passed_at(error: f64) -> FastVerdict {
    if error.is_infinite() {
        FastVerdict::CorrectlyRoundedOverflow
    } else {
        FastVerdict::Pass(error)
    }
}

#[cfg(test)]
mod tests;
