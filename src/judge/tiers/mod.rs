//! The fast tiers: what a correctly rounded double (or float, or exact host) reference decides
//! about a result without MPFR, exactly, under the requirement's own rule ([`FastRule`]). They
//! only decide where the answer is certain; everything else goes to MPFR
//! ([`crate::judge::mpfr`]). The per-input dispatch and references are here; the exact tier,
//! the double tier, a sweep's bulk passes and the column tiers have a room each.

mod bulk;
mod column;
mod double_tier;
mod exact_tier;
mod vulkan_tier;

pub use bulk::{KnownColumnsVerdict, RemquoColumnVerdict};
pub use column::{ColumnTier, ColumnTiers};
pub(in crate::judge) use double_tier::side_of;

use crate::judge::relaxed::FastBounds;
use crate::judge::Rules;
use crate::num::fp::FloatType;
use crate::reference::{self, binding};
use crate::report::stats::{Case, FastVerdict, Outcome};
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::relaxed_table::RelaxedRule;
use crate::spec::table::Requirement;
use rug::float::Round;
use rug::Float;

/// The fast tiers' references for one input, one per output, filled in place the first time a
/// verdict needs them ([`Rules::fast_verdict_with`]) and held inline: a sweep makes one per
/// input, so it must cost no allocation and no copy.
#[derive(Clone, Debug)]
pub struct FastReference {
    pub(in crate::judge) values: [FastValues; MAX_FAST_OUTPUTS],
    count: usize,
    pub(in crate::judge) state: FastState,
    /// The exact tier's value of a one-output function, where the caller already has it
    /// (`Some(None)`: the host declined): a sweep's bulk pass ([`Rules::exact_fns`]).
    exact: Option<Option<f64>>,
    /// The correctly rounded result of a one-output function in the rule's format, where the
    /// caller already has it: a sweep's column ([`Rules::correctly_rounded_fn`]).
    correctly_rounded: Option<f64>,
    /// The double tier's value for a one-output function of float arguments, where the caller
    /// already has it: a sweep's column ([`Rules::column_tiers`]).
    double: Option<f64>,
    /// What a Table 5 rule applies to the input ([`RelaxedRule::fast_bounds`]), with the
    /// rule (by address) and profile it was found for: every width of a relaxed unit has the
    /// same rule, and a derived formula's proof costs more than the rest of a verdict.
    relaxed_bounds: Option<(*const RelaxedRule, bool, Option<FastBounds>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::judge) enum FastState {
    /// Not computed for this input yet.
    Unknown,
    Known,
    /// A result has no fast tier: MPFR judges the input.
    Absent,
}

/// The most outputs a function has (normalize and cross at width 4); a function with more would
/// get no fast tier (MPFR judges it).
const MAX_FAST_OUTPUTS: usize = 4;

impl FastReference {
    pub fn new() -> FastReference {
        FastReference {
            values: [FastValues {
                correctly_rounded: None,
                approximation: None,
            }; MAX_FAST_OUTPUTS],
            count: 0,
            state: FastState::Unknown,
            exact: None,
            correctly_rounded: None,
            double: None,
            relaxed_bounds: None,
        }
    }

    /// Forgets the input: the next verdict computes the next input's references.
    pub fn clear(&mut self) {
        self.state = FastState::Unknown;
        self.exact = None;
        self.correctly_rounded = None;
        self.double = None;
        self.relaxed_bounds = None;
    }

    /// Forgets the input, knowing its exact value `exact` from the one function
    /// [`Rules::exact_fns`] gives (`None` where it declined), so the verdict does not compute
    /// it again.
    pub fn clear_knowing_exact(&mut self, exact: Option<f64>) {
        self.clear();
        self.exact = Some(exact);
    }

    /// Forgets the input, knowing the value `correctly_rounded` of the function
    /// [`Rules::correctly_rounded_fn`] gives (a sweep's column), so the verdict does not
    /// compute it again: the float version for float, the double tier for double.
    pub fn clear_knowing_correctly_rounded(&mut self, correctly_rounded: f64) {
        self.clear();
        self.correctly_rounded = Some(correctly_rounded);
    }

    /// Knows, for the input since the last clear, the value `double` of the function
    /// [`ColumnTiers::doubles`] gives, so the verdict does not compute it again.
    pub fn know_double(&mut self, double: f64) {
        self.double = Some(double);
    }

    /// `rule.fast_bounds(args, embedded)`, found once per input.
    pub(in crate::judge) fn relaxed_bounds(
        &mut self,
        rule: &RelaxedRule,
        args: &[f64],
        embedded: bool,
    ) -> Option<FastBounds> {
        let key = std::ptr::from_ref(rule);
        match self.relaxed_bounds {
            Some((known, known_embedded, bounds)) if known == key && known_embedded == embedded => {
                bounds
            }
            _ => {
                let bounds = rule.fast_bounds(args, embedded);
                self.relaxed_bounds = Some((key, embedded, bounds));
                bounds
            }
        }
    }
}

impl Default for FastReference {
    fn default() -> FastReference {
        FastReference::new()
    }
}

/// One output's fast references: CORE-MATH's correctly rounded float (float only), and the
/// correctly rounded double, computed only when a device result differs from the former (most
/// float results equal it, and the double costs several times the float).
#[derive(Clone, Copy, Debug)]
pub(in crate::judge) struct FastValues {
    pub(in crate::judge) correctly_rounded: Option<f64>,
    pub(in crate::judge) approximation: Option<f64>,
}

/// How the fast tiers judge a table output ([`Rules::fast_rule`]).
#[derive(Clone, Copy, Debug)]
pub(in crate::judge) struct FastRule {
    /// The error a result must stay under (0.5 in a correctly rounded cell, none in an
    /// implementation-defined one).
    pub(in crate::judge) bound: f64,
    /// Only the correctly rounded bits pass (a correctly rounded or 0-ulp cell).
    pub(in crate::judge) correctly_rounded: bool,
    /// An implementation-defined cell: every result measured, none failed.
    pub(in crate::judge) measured: bool,
    /// A result beyond the bound fails as MPFR's path fails it: set per input where no
    /// allowance can apply ([`Rules::failure_is_final`]).
    pub(in crate::judge) fails_beyond: bool,
}

impl FastRule {
    /// The verdict on a device infinity where the exact value is finite and rounds past the
    /// largest finite value: a ULP cell's overflow allowance accepts it (|x| > max, so the
    /// allowed range reaches past max); elsewhere it matched the correctly rounded bits, an
    /// infinite distance that is no error, as MPFR judges it.
    fn overflow(self) -> FastVerdict {
        if self.correctly_rounded || self.measured {
            FastVerdict::CorrectlyRoundedOverflow
        } else {
            FastVerdict::Overflow
        }
    }

    /// A pass for a result whose error, measured against a double within 2^-28 ulp of the
    /// exact value, stays clear of the bound by 1/1024 (far more than that), and a failure
    /// for one as clear beyond it where [`FastRule::fails_beyond`]; `None` (MPFR) otherwise.
    fn clear_of_bound(self, error: f64) -> Option<FastVerdict> {
        if error <= self.bound * (1.0 - 1.0 / 1024.0) {
            Some(FastVerdict::Pass(error))
        } else if self.fails_beyond && error >= self.bound * (1.0 + 1.0 / 1024.0) {
            Some(FastVerdict::Fail(error))
        } else {
            None
        }
    }
}

/// Two outputs' fast verdicts as one (`Some(None)` for the first output; `None` where MPFR
/// must combine them, as with an overflow beside another output).
pub(in crate::judge) fn combine(
    verdict: Option<FastVerdict>,
    one: FastVerdict,
) -> Option<Option<FastVerdict>> {
    Some(Some(match (verdict, one) {
        (None, one) => one,
        (Some(FastVerdict::Pass(a)), FastVerdict::Pass(b)) => FastVerdict::Pass(a.max(b)),
        (Some(FastVerdict::CorrectlyRounded), FastVerdict::CorrectlyRounded) => {
            FastVerdict::CorrectlyRounded
        }
        // A correctly rounded output's error is at most 0.5: the other's decides beyond it.
        (Some(FastVerdict::Pass(a)), FastVerdict::CorrectlyRounded)
        | (Some(FastVerdict::CorrectlyRounded), FastVerdict::Pass(a)) => {
            if a <= 0.5 {
                FastVerdict::CorrectlyRounded
            } else {
                FastVerdict::Pass(a)
            }
        }
        _ => return None,
    }))
}

impl Rules {
    /// The fast tier: a correctly rounded double reference (CORE-MATH) for half and float
    /// results of a ULP-bounded output. It only ever passes a result, and only where the double
    /// reference is a normal, non-power-of-two value of the format's range and the error stays
    /// clear of the bound by far more than the reference's own error (2^-29 ulp).
    pub(in crate::judge) fn judge_fast(
        &self,
        index: u64,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<Case> {
        // A case carries a reference per output: remquo's fast verdict has none to give.
        if self
            .outputs
            .iter()
            .any(|output| binding::fast_tier(output).is_none())
        {
            return None;
        }
        let error = self.fast_error(args, device_results)?;
        let references = self
            .outputs
            .iter()
            .map(|output| {
                Float::with_val(
                    53,
                    (binding::fast_tier(output).expect("fast_error checked"))(args),
                )
            })
            .collect();
        Some(Case {
            index,
            args: args.to_vec(),
            device_results: device_results.to_vec(),
            references,
            error,
            absolute: false,
            outcome: Outcome::Pass,
            output: 0,
            lanes: Vec::new(),
        })
    }

    /// The fast tier's verdict without building a case: `Some(error)` when it proves a pass
    /// with a measured error (see [`Rules::judge`]), `None` when MPFR must judge.
    pub fn fast_error(&self, args: &[f64], device_results: &[f64]) -> Option<f64> {
        match self.fast_verdict(args, device_results)? {
            FastVerdict::Pass(error) => Some(error),
            _ => None,
        }
    }

    /// The fast tiers (module docs of [`crate::reference`]): what a correctly rounded double
    /// reference decides without MPFR, exactly.
    ///
    /// - Double results: the reference *is* the correctly rounded result. The same value from
    ///   the device is within 0.5 ulp ([`FastVerdict::CorrectlyRounded`]); anything else goes to
    ///   MPFR.
    /// - Half and float results: the reference `a` is the exact value rounded once to double.
    ///   Where `a` is no midpoint of the format ([`reference::is_midpoint`]), rounding `a` to
    ///   the format gives the correctly rounded result; a device result equal to it passes,
    ///   with its error measured against `a`, or is the correctly rounded overflow. A different
    ///   result passes where its error against `a` (exact to 2^-28 ulp, so the spec's binade
    ///   of the exact value is `a`'s: `a` is not a power of two) stays clear of the bound.
    /// - NaN where the reference is NaN passes with no error, as MPFR judges it.
    ///
    /// Only the requirement's own rule is applied, as the MPFR path applies it first: a result
    /// it refuses fails only where no allowance can accept it (`Rules::failure_is_final`);
    /// whatever needs an allowance or a directed rounding mode is left to MPFR, and of a Table
    /// 5 rule only what a distance decides ([`Rules::relaxed_verdict`]).
    /// Correctly rounded cells are decided only under round to nearest.
    pub fn fast_verdict(&self, args: &[f64], device_results: &[f64]) -> Option<FastVerdict> {
        self.fast_verdict_with(&mut FastReference::new(), args, device_results)
    }

    /// [`Rules::fast_verdict`] on a fast reference computed at most once per input: `reference`
    /// starts `None` and is filled the first time a verdict needs it, so the rules of every
    /// width of a function (which differ only in their requirement's bound) share it.
    pub fn fast_verdict_with(
        &self,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        // The Vulkan rules, by the shader's modes: where the double proves `judge_vulkan`'s
        // verdict (`vulkan_tier`), else MPFR.
        if let Some(vulkan) = self.vulkan {
            return self.vulkan_verdict(vulkan, reference, args, device_results);
        }
        if let Some(rule) = self.relaxed {
            return self.relaxed_verdict(rule, reference, args, device_results);
        }
        if self.finite_math_only {
            return self.finite_math_verdict(reference, args, device_results);
        }
        self.requirement_verdict(reference, args, device_results)
    }

    /// The verdict of the requirement's own rule, by the tiers of the function's outputs, then
    /// mad's multiply-then-add; on a build that is not finite-math-only, or where
    /// [`Rules::finite_math_verdict`] has proven the input defined.
    fn requirement_verdict(
        &self,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        self.tier_verdict(reference, args, device_results)
            .or_else(|| self.mul_then_add_verdict(args, device_results))
    }

    /// Under `-cl-finite-math-only` without a Table 5 rule (a function Table 5 does not list,
    /// or a type other than float), MPFR's path judges by the requirement and then makes the
    /// input undefined where an argument is not finite or an exact result is not finite or
    /// rounds to an infinity ([`Rules::judge_exactly_with`]). Decided here, for finite
    /// arguments, where the fast references prove which ([`Rules::exact_results_finite`]):
    /// - every exact result finite and rounding to a finite value: the requirement's verdict,
    ///   which is then MPFR's;
    /// - a one-output function whose exact result is NaN, infinite or rounds to an infinity,
    ///   under a rule that measures in ulp, with a device result that is NaN or infinite:
    ///   undefined. MPFR measures such a result 0 or infinitely far from the exact value, which
    ///   the error map counts with no error, as it counts a fast `Undefined`; a finite result
    ///   there has a finite distance (from a value past the largest finite one), which MPFR
    ///   measures.
    ///
    /// Inputs with an argument that is not finite (special values only) go to MPFR.
    pub(in crate::judge) fn finite_math_verdict(
        &self,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        if !args.iter().all(|x| x.is_finite()) {
            return None;
        }
        if self.exact_results_finite(reference, args)? {
            return self.requirement_verdict(reference, args, device_results);
        }
        let [device_result] = device_results else {
            return None;
        };
        (!device_result.is_finite() && self.requirement_rule().is_some())
            .then_some(FastVerdict::Undefined)
    }

    /// Whether every table output's exact value at `args` is finite and rounds (to nearest, as
    /// `-cl-finite-math-only`'s check reads it) to a finite value of the format, where the
    /// fast references prove it either way; `None` where they prove neither. Per output, the
    /// first that applies:
    /// - the exact tier's value `v`, which is the exact value: `v` finite and `v` rounded
    ///   finite;
    /// - CORE-MATH's correctly rounded float (float): the exact value rounded to nearest, so
    ///   finite exactly where the exact value is finite and rounds to a finite float;
    /// - the correctly rounded double `a`: NaN or infinite where the exact value is NaN,
    ///   infinite or past the largest double; for double, finite exactly where the exact value
    ///   rounds to a finite double. For half and float, the exact value lies within half a
    ///   double ulp of `a`, and the format's overflow threshold `t` (the midpoint between its
    ///   largest finite value and the next power of two) is a double: |a| at most the largest
    ///   finite value keeps the exact value below `t`, |a| > `t` puts it beyond `t`; in between
    ///   nothing is proven.
    ///
    /// Integer outputs are not checked, as MPFR's path does not check them.
    pub(in crate::judge) fn exact_results_finite(
        &self,
        reference: &mut FastReference,
        args: &[f64],
    ) -> Option<bool> {
        let mut all_finite = Some(true);
        for (position, output) in self.outputs.iter().enumerate() {
            if output.is_integer() {
                continue;
            }
            match self.exact_result_finite(position, output, reference, args) {
                Some(true) => {}
                Some(false) => return Some(false),
                None => all_finite = None,
            }
        }
        all_finite
    }

    /// [`Rules::exact_results_finite`] for one table output.
    pub(in crate::judge) fn exact_result_finite(
        &self,
        position: usize,
        output: &Output,
        reference: &mut FastReference,
        args: &[f64],
    ) -> Option<bool> {
        if let Some(exact) = binding::exact(output.reference) {
            let one_output = self.outputs.len() == 1;
            let known = match reference.exact {
                Some(known) if one_output => known,
                _ => {
                    let value = exact(args, self.element);
                    // Kept for `exact_verdict`, which would compute it again otherwise.
                    if one_output {
                        reference.exact = Some(value);
                    }
                    value
                }
            };
            if let Some(value) = known {
                return Some(value.is_finite() && self.element.round(value).is_finite());
            }
        }
        if reference.state == FastState::Unknown {
            self.fill_fast_reference(args, reference);
        }
        if reference.state == FastState::Absent {
            return None;
        }
        let values = &mut reference.values[position];
        if let Some(correct) = values.correctly_rounded {
            return Some(correct.is_finite());
        }
        let fast = binding::fast_tier(output)?;
        let approximation = *values.approximation.get_or_insert_with(|| fast(args));
        if !approximation.is_finite() {
            return Some(false);
        }
        let largest = self.element.max_finite();
        if self.element == FloatType::Double || approximation.abs() <= largest {
            return Some(true);
        }
        let threshold = (largest + crate::num::fp::pow2(self.element.emax() + 1)) / 2.0;
        (approximation.abs() > threshold).then_some(false)
    }

    /// [`Rules::requirement_verdict`] by the tiers of the function's outputs.
    pub(in crate::judge) fn tier_verdict(
        &self,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        if let Requirement::RemquoExact { quotient_bits } = self.requirement {
            return self.remquo_verdict(args, device_results, quotient_bits);
        }
        let mut rule = self.requirement_rule()?;
        if let Some(verdict) = self.exact_verdict(args, device_results, rule, reference.exact) {
            return verdict;
        }
        if let [device_result] = device_results {
            rule.fails_beyond = self.failure_is_final(args, *device_result);
        }
        if reference.state == FastState::Unknown {
            self.fill_fast_reference(args, reference);
        }
        if reference.state == FastState::Absent {
            return None;
        }
        let mut verdict = None;
        for ((output, device_result), values) in self
            .outputs
            .iter()
            .zip(device_results)
            .zip(&mut reference.values[..reference.count])
        {
            if output.check == OutputCheck::Integer && rule.measured {
                // Not checked, and no error (`judge_output`): the other outputs decide.
                continue;
            }
            if let Some(correct) = values.correctly_rounded {
                if correct.is_finite() && *device_result == correct {
                    verdict = combine(verdict, FastVerdict::CorrectlyRounded)?;
                    continue;
                }
            }
            let Some(fast) = binding::fast_tier(output) else {
                let near = binding::near_tier(output)?;
                let approximation = *values.approximation.get_or_insert_with(|| near(args));
                let side = |power| side_of(output, args, power);
                verdict = combine(
                    verdict,
                    self.near_verdict(approximation, *device_result, rule, side)?,
                )?;
                continue;
            };
            let approximation = *values.approximation.get_or_insert_with(|| fast(args));
            let one =
                self.double_tier_verdict(output, fast, args, approximation, *device_result, rule)?;
            verdict = combine(verdict, one)?;
        }
        verdict
    }

    /// Whether MPFR's path fails a result of this one-output function that its rule's ULP
    /// bound refuses (`judge_output`, `judge_relaxed`): no allowance can accept it. The
    /// overflow allowance takes only ±inf and ±max, the flush-to-zero ones only a zero result
    /// or subnormal operands (and nextafter's results beside the smallest normal value, in a
    /// correctly rounded cell, which fails nothing here). `-cl-finite-math-only` makes an input
    /// undefined only where an argument or the exact value is not finite, which the callers
    /// have ruled out.
    pub(in crate::judge) fn failure_is_final(&self, args: &[f64], device_result: f64) -> bool {
        self.outputs.len() == 1
            && self.outputs[0].check == OutputCheck::Table
            && device_result.is_finite()
            && device_result != 0.0
            && device_result.abs() < self.element.max_finite()
            && (!self.flushes_subnormals || !args.iter().any(|x| self.element.is_subnormal(*x)))
            && (!self.finite_math_only || args.iter().all(|x| x.is_finite()))
    }

    /// mad's second implementation (Table 3: "a multiply followed by an add, both of which are
    /// correctly rounded"), for half and float, where the fma's tiers decline its result: the
    /// product rounded to the format and then the sum, each rounded once by the host as
    /// `reference::mul_then_add` rounds them (binary32 arithmetic for float; for half both
    /// are exact in double, 22 and 41 bits, and rounded to half). A device result equal to it
    /// (not zero, whose sign MPFR also checks) passes, its error measured against the fma's
    /// correctly rounded double (exact to 2^-28 ulp) as MPFR measures it against the exact
    /// fma, where that double is no power of two (beside one the exact value may lie in
    /// either binade). The rest goes to MPFR.
    fn mul_then_add_verdict(&self, args: &[f64], device_results: &[f64]) -> Option<FastVerdict> {
        if self.requirement != Requirement::MadFmaOrMulAdd {
            return None;
        }
        self.requirement_rule()?;
        let (&[x, y, z], &[device_result], [output]) =
            (args, device_results, self.outputs.as_slice())
        else {
            return None;
        };
        let mul_then_add = match self.element {
            FloatType::Float => f64::from((x as f32) * (y as f32) + (z as f32)),
            FloatType::Half => self.element.round(self.element.round(x * y) + z),
            FloatType::Double => return None,
        };
        if !mul_then_add.is_finite() || mul_then_add == 0.0 || device_result != mul_then_add {
            return None;
        }
        let fma = binding::fast_tier(output)?(args);
        if !fma.is_finite()
            || fma == 0.0
            || reference::side::exponent_of_power_of_two(fma).is_some()
        {
            return None;
        }
        Some(FastVerdict::Pass(crate::num::ulp::ulp_error_of_value(
            device_result,
            fma,
            self.element,
        )))
    }

    /// The requirement's rule as the fast tiers apply it to a table output. `None` where they
    /// apply none (MPFR judges): a directed rounding, remquo's rule, an absolute or other
    /// bound.
    pub(in crate::judge) fn requirement_rule(&self) -> Option<FastRule> {
        // No bulk pass decides a Vulkan row: its rules depend on the shader's modes and on
        // each input (the Vulkan tier and `judge_vulkan` judge input by input).
        if self.vulkan.is_some() {
            return None;
        }
        let rule = |bound, correctly_rounded, measured| FastRule {
            bound,
            correctly_rounded,
            measured,
            fails_beyond: false,
        };
        match self.requirement {
            Requirement::Ulp(bound) | Requirement::UlpEachOutput(bound) => {
                Some(rule(bound, false, false))
            }
            // mad accepts the correctly rounded fma among its two results: the fast tiers pass
            // that one (the fma's correctly rounded bits), MPFR judges every other.
            Requirement::CorrectlyRounded | Requirement::Exact | Requirement::MadFmaOrMulAdd
                if self.rounding == Round::Nearest =>
            {
                Some(rule(0.5, true, false))
            }
            // Every result is measured and none fails (`plain_outcome`): a fast tier's error
            // is the measurement, exact to 2^-28 ulp, as for any ULP cell.
            Requirement::ImplementationDefined if self.rounding == Round::Nearest => {
                Some(rule(f64::INFINITY, false, true))
            }
            _ => None,
        }
    }

    /// Computes the fast tiers' references for one input into `reference` (independent of
    /// the requirement's bound); `Absent` where a result has no fast tier (MPFR judges it).
    pub(in crate::judge) fn fill_fast_reference(
        &self,
        args: &[f64],
        reference: &mut FastReference,
    ) {
        reference.state = FastState::Absent;
        if self.outputs.len() > MAX_FAST_OUTPUTS {
            return;
        }
        let measured = self.requirement_rule().is_some_and(|rule| rule.measured);
        for (position, output) in self.outputs.iter().enumerate() {
            if output.check == OutputCheck::Integer && measured {
                // Not checked ([`Rules::fast_verdict_with`]): no reference needed.
                continue;
            }
            if output.check != OutputCheck::Table {
                return;
            }
            // Float: the float version decides the correctly rounded bits outright
            // (a finite result: an infinity may be a pole or an overflow). Not under a Table 5
            // rule, which measures every result against the double (`relaxed_verdict`).
            let float_version = (self.element == FloatType::Float && self.relaxed.is_none())
                .then(|| binding::float_tier(output))
                .flatten();
            // A near tier (rootn's) measures half results too, which have no float version
            // (`Rules::near_verdict`; never double results).
            let near_tier =
                self.element != FloatType::Double && binding::near_tier(output).is_some();
            let correctly_rounded_double = binding::fast_tier(output).is_some();
            let double_tier = correctly_rounded_double || near_tier;
            if !double_tier && float_version.is_none() {
                return;
            }
            // A known correctly rounded result is `float_version`'s for float and the double
            // tier's for double (the two functions `Rules::correctly_rounded_in_format` picks).
            // A known double tier value is that result for double, and a sweep's double column
            // ([`FastReference::know_double`]) for float.
            let one_output = self.outputs.len() == 1;
            let known = reference.correctly_rounded.filter(|_| one_output);
            let values = &mut reference.values[position];
            values.correctly_rounded =
                float_version.map(|float_version| known.unwrap_or_else(|| float_version(args)));
            values.approximation = if one_output && correctly_rounded_double {
                known
                    .filter(|_| self.element == FloatType::Double)
                    .or(reference.double)
            } else {
                None
            };
        }
        reference.count = self.outputs.len();
        reference.state = FastState::Known;
    }
}
