//! The exact path: each output judged against MPFR's reference by the requirement's own rule,
//! then the allowances ([`crate::judge::allowance`]); under `-cl-finite-math-only` inputs
//! whose arguments or exact results are not finite are undefined. The ground truth the fast
//! tiers ([`crate::judge::tiers`]) must agree with, and how worst cases are confirmed.

use crate::judge::vulkan::Verdict;
use crate::judge::{same_result, to_floats, Rules, VulkanJudging};
use crate::num::fp::FloatType;
use crate::num::ulp::ulp_error;
use crate::reference::{self, binding, ReferenceFn};
use crate::report::stats::{Case, Outcome};
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::table::Requirement;
use rug::Float;

/// remquo's quotient rule: the device's quotient has the sign of the true quotient and agrees
/// with it in the low `bits` bits of its magnitude ("at least the lower 7 bits of the integral
/// quotient").
pub(in crate::judge) fn quotient_matches(reference: &Float, device_result: f64, bits: u32) -> bool {
    // The reference quotient can exceed 2^53: read it as an exact integer.
    let Some(expected) = reference.to_integer() else {
        return false;
    };
    let got = rug::Integer::from(device_result as i64);
    let modulus = rug::Integer::from(1) << bits;
    let low_bits = |n: &rug::Integer| rug::Integer::from(n.abs_ref()) % &modulus;
    let expected_low = low_bits(&expected);
    let same_low_bits = expected_low == low_bits(&got);
    // A quotient whose low bits are all zero may carry either sign.
    let same_sign = expected.cmp0() == got.cmp0() || expected_low == 0;
    same_low_bits && same_sign
}

/// How bad an outcome is, for combining several outputs' outcomes into one.
fn severity(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Measured => 0,
        Outcome::Pass => 1,
        Outcome::Allowed(_) => 2,
        Outcome::Undefined => 3,
        Outcome::Fail => 4,
    }
}

/// Whether the exact value `exact` rounded to nearest in `element` is an infinity: rounded
/// to the format's precision (ties to even, MPFR's exponent range unbounded) it lies beyond
/// the largest finite value. Such a result is "+Inf, -Inf" to `-cl-finite-math-only` ("assume
/// that arguments and results are not NaNs, +Inf, -Inf"): `fdim(FLT_MAX, -FLT_MAX)` is +Inf in
/// float arithmetic though its exact value is finite.
pub(in crate::judge) fn rounds_to_infinity(exact: &Float, element: FloatType) -> bool {
    exact.is_infinite()
        || (exact.is_finite()
            && *Float::with_val(element.precision(), exact).as_abs() > element.max_finite())
}

impl Rules {
    /// Judges one input with MPFR alone (the ground truth, and how worst cases are confirmed).
    pub fn judge_exactly(&self, index: u64, args: &[f64], device_results: &[f64]) -> Case {
        let references = self.exact_references(args);
        self.judge_exactly_with(index, args, device_results, &references)
    }

    /// MPFR's reference for each output of one input (what [`Rules::judge_exactly`] judges
    /// against); it does not depend on the requirement, so every width of a function shares it.
    pub fn exact_references(&self, args: &[f64]) -> Vec<Float> {
        let operands = to_floats(args);
        if let Some(joint) = binding::joint_mpfr(&self.outputs) {
            return joint(&operands, self.element);
        }
        self.outputs
            .iter()
            .map(|output| {
                reference::high_precision(binding::mpfr(output.reference), &operands, self.element)
            })
            .collect()
    }

    /// [`Rules::judge_exactly`] against references already computed by
    /// [`Rules::exact_references`] for these `args`.
    pub fn judge_exactly_with(
        &self,
        index: u64,
        args: &[f64],
        device_results: &[f64],
        exact: &[Float],
    ) -> Case {
        let operands = to_floats(args);
        let mut references = Vec::with_capacity(self.outputs.len());
        let mut outcome = Outcome::Measured;
        let mut error: f64 = 0.0;
        let mut absolute = false;
        let mut deciding = 0;
        for (position, ((output, device_result), reference)) in self
            .outputs
            .iter()
            .zip(device_results)
            .zip(exact)
            .enumerate()
        {
            let reference = reference.clone();
            let (output_outcome, output_error, output_absolute) = self.judge_output(
                position,
                output,
                args,
                &operands,
                &reference,
                *device_result,
            );
            absolute |= output_absolute;
            if output_error > error {
                error = output_error;
                if severity(outcome) < severity(Outcome::Fail) {
                    deciding = position;
                }
            }
            if severity(output_outcome) > severity(outcome) {
                outcome = output_outcome;
                deciding = position;
            }
            references.push(reference);
        }
        if self.finite_math_only {
            let float_args_finite = args.iter().all(|x| x.is_finite());
            let results_finite = self
                .outputs
                .iter()
                .zip(&references)
                .all(|(output, reference)| {
                    output.is_integer()
                        || (reference.is_finite() && !rounds_to_infinity(reference, self.element))
                });
            if !float_args_finite || !results_finite {
                outcome = Outcome::Undefined;
            }
        }
        Case {
            index,
            args: args.to_vec(),
            device_results: device_results.to_vec(),
            references,
            error,
            absolute,
            outcome,
            output: deciding,
            lanes: Vec::new(),
        }
    }

    /// One output's verdict, its error (0 for integer outputs) and whether that error is
    /// absolute rather than in ulp.
    pub(in crate::judge) fn judge_output(
        &self,
        position: usize,
        output: &Output,
        args: &[f64],
        operands: &[Float],
        reference: &Float,
        device_result: f64,
    ) -> (Outcome, f64, bool) {
        match output.check {
            OutputCheck::Integer => {
                let accepts = |exact: &Float| exact.is_nan() || *exact == device_result;
                // Tables 3 and 4 make lgamma_r implementation-defined, the instruction and so
                // its sign output: measured and reported, never failed.
                if self.requirement == Requirement::ImplementationDefined {
                    return (Outcome::Measured, 0.0, false);
                }
                (
                    self.integer_outcome(binding::mpfr(output.reference), args, reference, accepts),
                    0.0,
                    false,
                )
            }
            OutputCheck::QuotientLowBits => {
                let bits = match self.requirement {
                    Requirement::RemquoExact { quotient_bits } => quotient_bits,
                    _ => 32,
                };
                let accepts = |exact: &Float| quotient_matches(exact, device_result, bits);
                (
                    self.integer_outcome(binding::mpfr(output.reference), args, reference, accepts),
                    0.0,
                    false,
                )
            }
            OutputCheck::Table => {
                if let Some(vulkan) = self.vulkan {
                    return self.judge_vulkan(vulkan, output, args, device_result, position);
                }
                if let Some(rule) = self.relaxed.and_then(|rule| rule.output(position)) {
                    return self.judge_relaxed(rule, output, args, reference, device_result);
                }
                let absolute = self.requirement.absolute_tolerance(args).is_some();
                let error = if absolute {
                    self.absolute_error(binding::mpfr(output.reference), operands, device_result)
                        .1
                } else {
                    ulp_error(device_result, reference, self.element)
                };
                let mut outcome = self.plain_outcome(
                    binding::mpfr(output.reference),
                    operands,
                    error,
                    device_result,
                );
                // An implementation-defined cell measures every result, but a correctly rounded
                // overflow (an infinity where the exact value is beyond the largest finite one)
                // is no error, as under every other rule ([`UnitStats::record`]).
                if outcome == Outcome::Measured
                    && error.is_infinite()
                    && device_result.is_infinite()
                    && self.matches_correctly_rounded(
                        binding::mpfr(output.reference),
                        operands,
                        device_result,
                    )
                {
                    outcome = Outcome::Pass;
                }
                if outcome == Outcome::Fail {
                    if let Some(allowance) = self.allowance(
                        binding::mpfr(output.reference),
                        args,
                        reference,
                        device_result,
                    ) {
                        outcome = Outcome::Allowed(allowance);
                    }
                }
                (outcome, error, absolute)
            }
        }
    }

    /// A table output on the vulkan path, by [`crate::judge::vulkan::judge`] with MPFR's exact
    /// value: what the Vulkan tier (`tiers::vulkan_tier`) leaves, and every worst case. A result its cell bounds nothing for, or leaves undefined, is counted as
    /// undefined: neither a pass nor a failure. A zero where GLSL.std.450 lets the instruction
    /// flush its result (ldexp's exponent below the type's range) passes.
    fn judge_vulkan(
        &self,
        vulkan: VulkanJudging,
        output: &Output,
        args: &[f64],
        device_result: f64,
        position: usize,
    ) -> (Outcome, f64, bool) {
        if crate::judge::vulkan::undefined_by_instruction(
            self.function,
            self.element,
            args,
            &vulkan.modes,
        ) {
            return (Outcome::Undefined, 0.0, false);
        }
        if device_result == 0.0
            && crate::spec::vulkan::may_return_zero(self.function, self.element, args)
        {
            return (Outcome::Pass, 0.0, false);
        }
        let function = binding::mpfr(output.reference);
        let exact =
            |args: &[f64]| reference::high_precision(function, &to_floats(args), self.element);
        let absolute = crate::judge::vulkan::error_counts_as_absolute(&self.requirement, args);
        match crate::judge::vulkan::judge(
            &self.requirement,
            self.element,
            vulkan.unit,
            args,
            &exact,
            device_result,
            &vulkan.modes,
            position,
        ) {
            Verdict::Pass(error) => (Outcome::Pass, error, absolute),
            Verdict::Fail(error) => (Outcome::Fail, error, absolute),
            Verdict::Unbounded(_) | Verdict::Undefined(_) => (Outcome::Undefined, 0.0, false),
        }
    }

    /// The requirement's own rule, no allowances.
    pub(in crate::judge) fn plain_outcome(
        &self,
        function: ReferenceFn,
        operands: &[Float],
        error: f64,
        device_result: f64,
    ) -> Outcome {
        let verdict = |passed: bool| if passed { Outcome::Pass } else { Outcome::Fail };
        match self.requirement {
            Requirement::CorrectlyRounded
            | Requirement::Exact
            | Requirement::RemquoExact { .. } => {
                verdict(self.matches_correctly_rounded(function, operands, device_result))
            }
            Requirement::MadFmaOrMulAdd => verdict(
                self.matches_correctly_rounded(reference::fma, operands, device_result)
                    || self.matches_correctly_rounded(
                        reference::mul_then_add,
                        operands,
                        device_result,
                    ),
            ),
            Requirement::Ulp(bound) | Requirement::UlpEachOutput(bound) => verdict(error <= bound),
            Requirement::Absolute(_) | Requirement::AbsoluteMaxSquared { .. } => {
                verdict(self.absolute_error(function, operands, device_result).0 <= 0.0)
            }
            // run_unit resolves it per width (`Requirement::at_width`) before judging.
            // judge::vulkan decides the Vulkan cells before the measured error reaches here.
            Requirement::UlpPerWidth(_)
            | Requirement::Vulkan(_)
            | Requirement::ImplementationDefined
            | Requirement::NotApplicable => Outcome::Measured,
        }
    }

    /// For an absolute-tolerance cell: (|device − exact| − tolerance, |device − exact|), the
    /// first <= 0 when the result passes. A NaN result passes only where the exact one is NaN.
    fn absolute_error(
        &self,
        function: ReferenceFn,
        operands: &[Float],
        device_result: f64,
    ) -> (f64, f64) {
        let args: Vec<f64> = operands.iter().map(Float::to_f64).collect();
        let tolerance = self.requirement.absolute_tolerance(&args).unwrap_or(0.0);
        let exact = reference::high_precision(function, operands, self.element);
        if exact.is_nan() || device_result.is_nan() {
            let both = exact.is_nan() && device_result.is_nan();
            return if both {
                (0.0, 0.0)
            } else {
                (1.0, f64::INFINITY)
            };
        }
        if exact.is_infinite() || device_result.is_infinite() {
            let same = exact.is_infinite() && exact.to_f64() == device_result;
            return if same {
                (0.0, 0.0)
            } else {
                (1.0, f64::INFINITY)
            };
        }
        let difference = (Float::with_val(exact.prec() + 64, device_result) - &exact)
            .abs()
            .to_f64();
        (difference - tolerance, difference)
    }

    fn matches_correctly_rounded(
        &self,
        function: ReferenceFn,
        operands: &[Float],
        device_result: f64,
    ) -> bool {
        let expected =
            reference::correctly_rounded_in(function, operands, self.element, self.rounding)
                .to_f64();
        same_result(device_result, expected)
    }
}
