//! Judging device results against the spec's requirement for one (function, type).
//!
//! Per input: compare with the reference by the requirement's own rule (bits for correctly
//! rounded and exact results, [`ulp_error`] against a bound otherwise); when that fails, try the
//! allowances the spec grants, in order, and record which one accepted the result:
//! - overflow: "Where the range of allowed return values includes any value of magnitude larger
//!   than that of the largest representable finite floating-point number, operations may,
//!   additionally, return either an infinity of the appropriate sign or the finite number with
//!   the largest magnitude of the appropriate sign" (002_8f60b82f04afe871.txt, "ULP");
//! - flush to zero, on a device without denormals for the type: "Edge Case Behavior in Flush To
//!   Zero Mode" (003_606d5394990817d6.txt), its four results.
//!
//! Results reduce through `crate::report::stats::UnitStats::merge`, which is associative, so
//! threads, chunks and shards combine into what one pass would give.

pub mod allowance;
pub mod conversion;
pub mod edge;
pub mod extension;
#[cfg(test)]
mod registry_tests;
pub mod relaxed;

use crate::judge::allowance::overflow_allowed;
use crate::judge::relaxed::{Derived, ErrorUnit, FastBounds, RelaxedOutcome};
use crate::num::fp::FloatType;
use crate::num::ulp::ulp_error;
use crate::reference::binding;
use crate::reference::column::ColumnFn;
use crate::reference::exact::ExactFn;
use crate::reference::{self, FastFn, ReferenceFn};
use crate::report::stats::{Allowance, Case, FastVerdict, Outcome};
use crate::spec::fp_config::FpConfig;
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::relaxed_table::RelaxedRule;
use crate::spec::table::Requirement;
use rug::float::Round;
use rug::Float;
use std::cmp::Ordering;

/// Everything that decides how one unit's results are judged.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The spec table's name of the function (`nextafter` has flush-to-zero results of its
    /// own).
    pub function: &'static str,
    /// The function's results, in the kernel's order, each with its reference and check.
    pub outputs: Vec<Output>,
    /// The table cell for the function and type (judges [`OutputCheck::Table`] results).
    pub requirement: Requirement,
    pub element: FloatType,
    /// The device does not support denormals for `element` (CL_FP_DENORM unset), so the flush
    /// to zero alternatives apply.
    pub flushes_subnormals: bool,
    /// The device's default rounding for `element`, which "correctly rounded" means: round to
    /// nearest even, or round toward zero where an embedded profile (or half) allows it.
    pub rounding: Round,
    /// The `-cl-fast-relaxed-math` rule (Table 5) that replaces `requirement` for the results
    /// it covers, when the kernels were built relaxed and Table 5 lists the function.
    pub relaxed: Option<&'static RelaxedRule>,
    /// Judge by the embedded-profile numbers (Table 4, and Table 5's embedded bounds).
    pub embedded: bool,
    /// Built with -cl-fast-relaxed-math, which implies -cl-finite-math-only ("assume that
    /// arguments and results are not NaNs or ±∞", OpenCL API, clBuildProgram): inputs that are
    /// not finite, or whose exact results are not, are undefined.
    pub finite_math_only: bool,
}

/// Two rules judge every result alike: same fields, the same Table 5 rule (the table is
/// loaded once, so the same rule is the same row). Lets the rows of a width group share a
/// verdict where their results agree.
impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        // Destructured whole, so a new field cannot be forgotten here.
        let Rules {
            function,
            outputs,
            requirement,
            element,
            flushes_subnormals,
            rounding,
            relaxed,
            embedded,
            finite_math_only,
        } = self;
        *function == other.function
            && *outputs == other.outputs
            && *requirement == other.requirement
            && *element == other.element
            && *flushes_subnormals == other.flushes_subnormals
            && *rounding == other.rounding
            && match (relaxed, other.relaxed) {
                (None, None) => true,
                (Some(mine), Some(theirs)) => std::ptr::eq(*mine, theirs),
                _ => false,
            }
            && *embedded == other.embedded
            && *finite_math_only == other.finite_math_only
    }
}

/// The fast tiers' references for one input, one per output, filled in place the first time a
/// verdict needs them ([`Rules::fast_verdict_with`]) and held inline: a sweep makes one per
/// input, so it must cost no allocation and no copy.
#[derive(Clone, Debug)]
pub struct FastReference {
    values: [FastValues; MAX_FAST_OUTPUTS],
    count: usize,
    state: FastState,
    /// The exact tier's value of a one-output function, where the caller already has it
    /// (`Some(None)`: the host declined): a sweep's bulk pass ([`Rules::exact_fns`]).
    exact: Option<Option<f64>>,
    /// The correctly rounded result of a one-output function in the rule's format, where the
    /// caller already has it: a sweep's column ([`Rules::correctly_rounded_fn`]).
    correctly_rounded: Option<f64>,
    /// The double tier's value for a one-output function of float arguments, where the caller
    /// already has it: a sweep's column ([`Rules::double_column_fn`]).
    double: Option<f64>,
    /// What a Table 5 rule applies to the input ([`RelaxedRule::fast_bounds`]), with the
    /// rule (by address) and profile it was found for: every width of a relaxed unit has the
    /// same rule, and a derived formula's proof costs more than the rest of a verdict.
    relaxed_bounds: Option<(*const RelaxedRule, bool, Option<FastBounds>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastState {
    /// Not computed for this input yet.
    Unknown,
    Known,
    /// A result has no fast tier: MPFR judges the input.
    Absent,
}

/// The most outputs a function has (normalize and cross at width 4); a function with more would
/// get no fast tier (MPFR judges it).
const MAX_FAST_OUTPUTS: usize = 4;

/// A row's [`Rules::fast_verdict_with`] for inputs whose correctly rounded float and double are
/// known ([`Rules::known_columns_verdict`]): an exhaustive float sin sweep leaves about one
/// input in 25 to judge one by one, and finding the rule and the tiers again for each was most
/// of their cost.
#[derive(Clone, Copy)]
pub struct KnownColumnsVerdict<'a> {
    rules: &'a Rules,
    output: &'a Output,
    double_tier: FastFn,
    rule: FastRule,
}

impl KnownColumnsVerdict<'_> {
    /// `fast_verdict_with`'s verdict on `device_result` at `args`, whose correctly rounded
    /// float is `correctly_rounded` and correctly rounded double `double`: the steps
    /// [`Rules::tier_verdict`] takes for its one output.
    #[inline]
    pub fn verdict(
        &self,
        args: &[f64],
        correctly_rounded: f64,
        double: f64,
        device_result: f64,
    ) -> Option<FastVerdict> {
        if correctly_rounded.is_finite() && device_result == correctly_rounded {
            return Some(FastVerdict::CorrectlyRounded);
        }
        let rule = FastRule {
            fails_beyond: self.rules.failure_is_final(args, device_result),
            ..self.rule
        };
        self.rules.double_tier_verdict(
            self.output,
            self.double_tier,
            args,
            double,
            device_result,
            rule,
        )
    }
}

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
    /// [`Rules::double_column_fn`] gives, so the verdict does not compute it again.
    pub fn know_double(&mut self, double: f64) {
        self.double = Some(double);
    }

    /// `rule.fast_bounds(args, embedded)`, found once per input.
    fn relaxed_bounds(
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
struct FastValues {
    correctly_rounded: Option<f64>,
    approximation: Option<f64>,
}

/// Why the flush-to-zero rules ("Edge Case Behavior in Flush To Zero Mode") apply to `element`
/// in a unit, or `None` when subnormals must be honoured. "Support for denormalized numbers is
/// required for double precision", so never for double: a double config without
/// CL_FP_DENORM is a [`nonconformance`], not an allowance. For float and half, a config
/// without CL_FP_DENORM; for float also `-cl-denorms-are-zero`, and `-cl-fast-relaxed-math`
/// (which implies `-cl-unsafe-math-optimizations`: clacc reads the FTZ rules as the bound on
/// what flushing may change there, see README "Flush to zero and relaxed math").
pub fn flush_to_zero_reason(
    fp_config: FpConfig,
    element: FloatType,
    denorms_are_zero: bool,
    relaxed: bool,
) -> Option<String> {
    match element {
        FloatType::Double => None,
        _ if !fp_config.denormals() => Some(format!("device flushes {element} subnormals")),
        FloatType::Float if denorms_are_zero => Some("-cl-denorms-are-zero".to_string()),
        FloatType::Float if relaxed => Some("-cl-fast-relaxed-math".to_string()),
        _ => None,
    }
}

/// A device config the spec forbids for `element`, which no allowance may paper over:
/// "Support for denormalized numbers is required for double precision floating-point";
/// "For double precision operations, Round to nearest even is a required rounding mode";
/// "devices supporting the full profile must support Round to nearest even" for single
/// precision ("Rounding Modes", "INF, NaN, and Denormalized Numbers").
pub fn nonconformance(
    fp_config: FpConfig,
    element: FloatType,
    full_profile: bool,
) -> Option<String> {
    let mut reasons = Vec::new();
    if element == FloatType::Double && !fp_config.denormals() {
        reasons.push("double without denormals (CL_FP_DENORM), which the spec requires");
    }
    if !fp_config.round_to_nearest() {
        if element == FloatType::Double {
            reasons.push("double without round to nearest even, a required rounding mode");
        } else if element == FloatType::Float && full_profile {
            reasons.push("full-profile float without round to nearest even, which it must support");
        }
    }
    (!reasons.is_empty()).then(|| format!("not conformant: {}", reasons.join("; ")))
}

/// How the fast tiers judge a table output ([`Rules::fast_rule`]).
#[derive(Clone, Copy, Debug)]
struct FastRule {
    /// The error a result must stay under (0.5 in a correctly rounded cell, none in an
    /// implementation-defined one).
    bound: f64,
    /// Only the correctly rounded bits pass (a correctly rounded or 0-ulp cell).
    correctly_rounded: bool,
    /// An implementation-defined cell: every result measured, none failed.
    measured: bool,
    /// A result beyond the bound fails as MPFR's path fails it: set per input where no
    /// allowance can apply ([`Rules::failure_is_final`]).
    fails_beyond: bool,
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
fn combine(verdict: Option<FastVerdict>, one: FastVerdict) -> Option<Option<FastVerdict>> {
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

fn to_floats(args: &[f64]) -> Vec<Float> {
    args.iter().map(|x| reference::operand(*x)).collect()
}

/// Whether an output's device result is its exact value `value` as the exact tier sees it:
/// the same result ([`same_result`]) for a table output, the same integer for an integer one
/// (whose exact value is NaN where the spec leaves it open).
pub fn exact_output_matches(device_result: f64, value: f64, integer: bool) -> bool {
    if integer {
        value.is_nan() || device_result == value
    } else {
        same_result(device_result, value)
    }
}

/// Same value, or both NaN (any payload). Zeros compare by value: the ULP tables judge values
/// (ulp is defined on real numbers), and where the spec prescribes a zero's sign — ceil(−0.5),
/// sin(−0) — the edge-case rules check it bit for bit.
pub fn same_result(device_result: f64, expected: f64) -> bool {
    (device_result.is_nan() && expected.is_nan()) || device_result == expected
}

/// The inputs with some subnormal operands read as zero: each subnormal operand stays, or
/// becomes +0, or becomes −0 ("the sign of the zero is undefined"): 3^k − 1 alternatives.
fn flushed_alternatives(args: &[f64], element: FloatType) -> impl Iterator<Item = Vec<f64>> + '_ {
    let subnormal: Vec<usize> = (0..args.len())
        .filter(|i| element.is_subnormal(args[*i]))
        .collect();
    let alternatives = if subnormal.is_empty() {
        1
    } else {
        3usize.pow(subnormal.len() as u32)
    };
    (1..alternatives).map(move |choice| {
        let mut flushed = args.to_vec();
        let mut code = choice;
        for position in &subnormal {
            match code % 3 {
                1 => flushed[*position] = 0.0,
                2 => flushed[*position] = -0.0,
                _ => {}
            }
            code /= 3;
        }
        flushed
    })
}

/// remquo's quotient rule: the device's quotient has the sign of the true quotient and agrees
/// with it in the low `bits` bits of its magnitude ("at least the lower 7 bits of the integral
/// quotient").
fn quotient_matches(reference: &Float, device_result: f64, bits: u32) -> bool {
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

/// Whether the exact value is non-zero and below the smallest normal in magnitude.
fn subnormal_before_rounding(exact: &Float, element: FloatType) -> bool {
    exact.is_finite() && !exact.is_zero() && exact.get_exp().is_some_and(|e| e - 1 < element.emin())
}

/// [`Rules::stricter_than_cts`]'s note.
pub const NEXTAFTER_STRICTER_THAN_CTS: &str =
    "stricter than the Khronos CTS: under flush to zero it accepts nextafter(x, y) = \
     copysign(FLT_MIN, y) for every zero or subnormal x; clacc not where y is a zero (x, read \
     as zero, equals y, which nextafter returns) or NaN (a NaN operand gives a NaN)";

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

impl Rules {
    /// Judges one input: `args` are the values the device was given (in the format), and
    /// `device_results` what it returned, one per output. The fast tier answers where it can
    /// prove a pass; everything else — failures, results near the bound, special values — is
    /// judged with MPFR.
    pub fn judge(&self, index: u64, args: &[f64], device_results: &[f64]) -> Case {
        self.judge_fast(index, args, device_results)
            .unwrap_or_else(|| self.judge_exactly(index, args, device_results))
    }

    /// The fast tier: a correctly rounded double reference (CORE-MATH) for half and float
    /// results of a ULP-bounded output. It only ever passes a result, and only where the double
    /// reference is a normal, non-power-of-two value of the format's range and the error stays
    /// clear of the bound by far more than the reference's own error (2^-29 ulp).
    fn judge_fast(&self, index: u64, args: &[f64], device_results: &[f64]) -> Option<Case> {
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
        if let Some(rule) = self.relaxed {
            return self.relaxed_verdict(rule, reference, args, device_results);
        }
        if self.finite_math_only {
            return self.finite_math_verdict(reference, args, device_results);
        }
        self.requirement_verdict(reference, args, device_results)
    }

    /// [`Rules::fast_verdict_with`] found once for a row instead of once per input, where a
    /// sweep knows each input's correctly rounded float and double from its columns: a float
    /// function of one table output with a correctly rounded double tier and no exact tier,
    /// judged by its requirement's own rule (not relaxed, not finite-math-only, no remquo or
    /// mad requirement). There `fast_verdict_with` always reaches [`Rules::tier_verdict`]'s
    /// one output, whose steps [`KnownColumnsVerdict::verdict`] takes with the lookups made;
    /// `None` elsewhere. The test `known_columns_verdicts_are_fast_verdicts` holds the two
    /// equal on every function and profile that has one.
    pub fn known_columns_verdict(&self) -> Option<KnownColumnsVerdict<'_>> {
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        let requirement_only = self.relaxed.is_none()
            && !self.finite_math_only
            && !matches!(
                self.requirement,
                Requirement::RemquoExact { .. } | Requirement::MadFmaOrMulAdd
            );
        if !requirement_only
            || self.element != FloatType::Float
            || output.check != OutputCheck::Table
            || binding::exact(output.reference).is_some()
        {
            return None;
        }
        binding::float_tier(output)?;
        Some(KnownColumnsVerdict {
            rules: self,
            output,
            double_tier: binding::fast_tier(output)?,
            rule: self.requirement_rule()?,
        })
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
    fn finite_math_verdict(
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
    fn exact_results_finite(&self, reference: &mut FastReference, args: &[f64]) -> Option<bool> {
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
    fn exact_result_finite(
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
    fn tier_verdict(
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

    /// A Table 5 rule's verdict where it needs no more than a distance to the exact value
    /// ([`RelaxedRule::fast_bounds`]), on a round-to-nearest float device, for a function of
    /// one output:
    /// - an infinite or NaN result where the arguments are finite and the exact value is NaN,
    ///   infinite or rounds to an infinity: `Undefined`, whatever the rule, because
    ///   `-cl-fast-relaxed-math` implies `-cl-finite-math-only` ([`Rules::judge_exactly_with`]
    ///   overrides the rule's verdict there, and MPFR's distance from such a result is 0 or
    ///   infinite, no error the error map holds), as [`Rules::finite_math_verdict`] decides
    ///   it. Relaxed pow's inputs whose y·log2(x) lies past 128 are a tenth of its sweep;
    /// - an `undefined` piece: `Undefined`, as MPFR's path decides it before any reference;
    /// - a piece with an unbounded alternative (or a derived formula proven to bound
    ///   nothing), where the correctly rounded double (the fast tier) is finite, so the exact
    ///   value is, and the result is no NaN (which a derived formula's unbounded range
    ///   refuses): `Undefined`;
    /// - ULP bounds, where the arguments are finite and the double is at most the largest
    ///   float in magnitude (so it is neither NaN nor infinite, and the exact value does not
    ///   round to an infinity, which `-cl-finite-math-only` leaves undefined), and beside them
    ///   derived formulas proven never to make the result undefined
    ///   ([`crate::judge::relaxed::Derived`]): the double tier's verdict under the largest of
    ///   the bounds ([`Rules::output_verdict`], [`Rules::near_verdict`] against rootn's near
    ///   approximation), a pass whose error is exact to 2^-28 ulp and
    ///   clear of the bound, a failure as clear beyond it where no allowance can apply and the
    ///   formulas' proven spans refuse the result too, or MPFR;
    /// - absolute bounds alone, under the same guards and for a finite result: a pass where
    ///   |result − double| plus the double's own error (half a double ulp) and the
    ///   subtraction's rounding stays within the largest bound, so the exact distance does
    ///   ([`FastVerdict::AbsolutePass`], with the double's distance).
    ///
    /// Any other result goes to MPFR, which also applies the flush-to-zero alternatives to
    /// it.
    fn relaxed_verdict(
        &self,
        rule: &RelaxedRule,
        reference: &mut FastReference,
        args: &[f64],
        device_results: &[f64],
    ) -> Option<FastVerdict> {
        let ([output], [device_result]) = (self.outputs.as_slice(), device_results) else {
            return None;
        };
        if self.element != FloatType::Float
            || self.rounding != Round::Nearest
            || output.check != OutputCheck::Table
        {
            return None;
        }
        if self.finite_math_only
            && !device_result.is_finite()
            && args.iter().all(|x| x.is_finite())
            && self.exact_results_finite(reference, args) == Some(false)
        {
            return Some(FastVerdict::Undefined);
        }
        let bounds = reference.relaxed_bounds(rule, args, self.embedded)?;
        if bounds == FastBounds::Undefined {
            return Some(FastVerdict::Undefined);
        }
        // rootn's double is its near approximation (within 2^-51 of the exact value, NaN
        // exactly where it is).
        let fast = binding::fast_tier(output);
        let double = fast.or_else(|| binding::near_tier(output))?;
        if !args.iter().all(|x| x.is_finite()) {
            return None;
        }
        if reference.state == FastState::Unknown {
            self.fill_fast_reference(args, reference);
        }
        if reference.state == FastState::Absent {
            return None;
        }
        let values = &mut reference.values[0];
        let approximation = *values.approximation.get_or_insert_with(|| double(args));
        let in_range = approximation.abs() <= self.element.max_finite();
        match bounds {
            FastBounds::Unconstrained if approximation.is_finite() && !device_result.is_nan() => {
                Some(FastVerdict::Undefined)
            }
            FastBounds::Within { bound, derived } if in_range => {
                let verdict = |bound, fails_beyond| {
                    let rule = FastRule {
                        bound,
                        correctly_rounded: false,
                        measured: false,
                        fails_beyond,
                    };
                    match fast {
                        Some(fast) => self.double_tier_verdict(
                            output,
                            fast,
                            args,
                            approximation,
                            *device_result,
                            rule,
                        ),
                        None => {
                            let side = |power| side_of(output, args, power);
                            self.near_verdict(approximation, *device_result, rule, side)
                        }
                    }
                };
                // A derived formula may accept a result beyond the bound, with the same error.
                let fails_beyond = self.failure_is_final(args, *device_result)
                    && derived.refuses(*device_result, approximation);
                verdict(bound, fails_beyond).or_else(|| {
                    // Every derived range proven finite (an unstated one may not be).
                    let accepted = matches!(derived, Derived::Within(..))
                        && device_result.is_finite()
                        && rule.derived_accepts(args, self.embedded, *device_result, approximation);
                    accepted.then(|| verdict(f64::INFINITY, false)).flatten()
                })
            }
            FastBounds::Absolute(bound)
                if fast.is_some() && in_range && device_result.is_finite() =>
            {
                let distance = (device_result - approximation).abs();
                // At least half a double ulp of the approximation, the most it is from the
                // exact value; the subtraction's rounding is the factor.
                let half_ulp = (approximation.abs() * 2f64.powi(-53)).max(2f64.powi(-1074));
                ((distance + half_ulp) * (1.0 + f64::EPSILON) <= bound)
                    .then_some(FastVerdict::AbsolutePass(distance))
            }
            _ => None,
        }
    }

    /// Whether MPFR's path fails a result of this one-output function that its rule's ULP
    /// bound refuses (`judge_output`, `judge_relaxed`): no allowance can accept it. The
    /// overflow allowance takes only ±inf and ±max, the flush-to-zero ones only a zero result
    /// or subnormal operands (and nextafter's results beside the smallest normal value, in a
    /// correctly rounded cell, which fails nothing here). `-cl-finite-math-only` makes an input
    /// undefined only where an argument or the exact value is not finite, which the callers
    /// have ruled out.
    fn failure_is_final(&self, args: &[f64], device_result: f64) -> bool {
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

    /// Whether a NaN from the device where [`Rules::correctly_rounded_fn`]'s value is NaN is
    /// what [`Rules::fast_verdict_with`] passes with no error: where the fast tier is a
    /// correctly rounded double, NaN exactly where the function is (rootn's near tier is not
    /// NaN at rootn(0, 0), where its float function is); never under `-cl-finite-math-only`,
    /// where MPFR's path makes such an input undefined.
    pub fn correctly_rounded_nan_passes(&self) -> bool {
        self.fast_rule().is_some()
            && self.correctly_rounded_fn().is_some()
            && self
                .outputs
                .first()
                .is_some_and(|output| binding::fast_tier(output).is_some())
    }

    /// For a rule with [`Rules::correctly_rounded_fn`], whose value at `args` is the infinity
    /// `infinity`: the verdict [`Rules::fast_verdict_with`] gives a device result equal to it,
    /// where that verdict is the overflow one (`FastRule::overflow`) or a pole's pass with no
    /// error, else `None`. It is what the fast verdict computes, by the same functions,
    /// without the correctly rounded value it already has: the double approximation, then
    /// `infinite_verdict` where that is infinite and `output_verdict` where it is finite. On
    /// that path neither looks at the rule but for the overflow verdict itself, so whether an
    /// input is decided holds for every rule of the function and type. Lets a sweep decide
    /// those inputs in bulk (exp or sinh of a large argument: a quarter of a random sweep's;
    /// lgamma's poles: a tenth).
    pub fn infinity_verdict(&self, args: &[f64], infinity: f64) -> Option<FastVerdict> {
        let rule = self.fast_rule()?;
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        let fast = binding::fast_tier(output)?;
        if !infinity.is_infinite() {
            return None;
        }
        self.double_tier_verdict(output, fast, args, fast(args), infinity, rule)
            .filter(|verdict| *verdict == rule.overflow() || *verdict == FastVerdict::Pass(0.0))
    }

    /// The verdict the fast tiers give a correctly rounded overflow under this rule
    /// ([`Rules::infinity_verdict`]), where they apply it.
    pub fn overflow_of_rule(&self) -> Option<FastVerdict> {
        self.fast_rule().map(FastRule::overflow)
    }

    /// The function whose value is the correctly rounded result in `element` where
    /// [`Rules::fast_verdict_with`] would find a device result equal to it (and finite)
    /// [`FastVerdict::CorrectlyRounded`] before anything else could decide: a rule of one
    /// table output, its own rule applied under round to nearest, no exact tier, and a
    /// correctly rounded fast tier in the format (the float version for float, the double
    /// one for double); under `-cl-finite-math-only` (no Table 5 rule) only where every
    /// argument and the value are finite ([`Rules::bulk_needs_finite_arguments`]). Lets a
    /// sweep compute a column of these once and compare results to it, skipping the fast
    /// tiers' per-input work for the results that match.
    pub fn correctly_rounded_fn(&self) -> Option<FastFn> {
        self.correctly_rounded_tier(false)
    }

    /// [`Rules::correctly_rounded_fn`] over a whole column of one-argument inputs, the same
    /// values faster, where the function has one for the rule's format (float).
    pub fn correctly_rounded_column_fn(&self) -> Option<ColumnFn> {
        self.correctly_rounded_fn()?;
        match (self.element, self.outputs.as_slice()) {
            (FloatType::Float, [output]) => binding::float_column_tier(output),
            _ => None,
        }
    }

    /// The double tier ([`binding::fast_tier`], correctly rounded to double) of a float
    /// function of one table output over a whole column of one-argument inputs, the same
    /// values faster, where the function has one: the per-input verdicts' reference for a
    /// float result that is not the correctly rounded float ([`FastReference::know_double`]).
    pub fn double_column_fn(&self) -> Option<ColumnFn> {
        match (self.element, self.outputs.as_slice()) {
            (FloatType::Float, [output]) if output.check == OutputCheck::Table => {
                binding::double_column_tier(output)
            }
            _ => None,
        }
    }

    /// [`Rules::correctly_rounded_fn`] for a function of several outputs (sincos, lgamma_r):
    /// per checked output, its position and the function whose value is its correctly rounded
    /// result, where [`Rules::fast_verdict_with`] finds results that all equal theirs (and
    /// are finite) [`FastVerdict::CorrectlyRounded`]: every output a table output with a
    /// correctly rounded fast tier in the format and no exact tier, or an integer output the
    /// rule leaves unchecked (lgamma_r's sign in its implementation-defined cell), the rule
    /// applied by the fast tiers.
    pub fn correctly_rounded_fns(&self) -> Option<Vec<(usize, FastFn)>> {
        let rule = self.bulk_rule()?;
        if self.outputs.len() < 2 {
            return None;
        }
        let mut columns = Vec::new();
        for (position, output) in self.outputs.iter().enumerate() {
            if output.check == OutputCheck::Integer && rule.measured {
                continue;
            }
            if output.check != OutputCheck::Table || binding::exact(output.reference).is_some() {
                return None;
            }
            columns.push((position, self.correctly_rounded_in_format(output)?));
        }
        (!columns.is_empty()).then_some(columns)
    }

    /// For a function with an exact tier that may decline an input (fdim's inexact
    /// differences): the function whose value is the correctly rounded result in `element`
    /// where the exact tier declines, which [`Rules::fast_verdict_with`] then compares a
    /// result with first, as [`Rules::correctly_rounded_fn`]'s. Lets a sweep decide those
    /// inputs in bulk too.
    pub fn correctly_rounded_fn_where_exact_declines(&self) -> Option<FastFn> {
        self.correctly_rounded_tier(true)
    }

    /// The correctly rounded fast tier of a one-output rule applied by the fast tiers, for a
    /// function with an exact tier (`exact`) or without one.
    fn correctly_rounded_tier(&self, exact: bool) -> Option<FastFn> {
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        if self.bulk_rule().is_none()
            || output.check != OutputCheck::Table
            || binding::exact(output.reference).is_some() != exact
        {
            return None;
        }
        self.correctly_rounded_in_format(output)
    }

    /// `output`'s correctly rounded fast tier in the rule's format: the float version for
    /// float, the double one for double; none for half.
    fn correctly_rounded_in_format(&self, output: &Output) -> Option<FastFn> {
        match self.element {
            FloatType::Float => binding::float_tier(output),
            FloatType::Double => binding::fast_tier(output),
            FloatType::Half => None,
        }
    }

    /// Per output, the function whose value is the exact result and whether the output is an
    /// integer, where [`Rules::fast_verdict_with`] would find device results that are all
    /// those values `Pass(0.0)` before anything else could decide (see [`exact_output_matches`]
    /// for what is the same): the rule's own rule applied (as for
    /// [`Rules::correctly_rounded_fn`]) and an exact tier for every output (frexp's two, or
    /// modf's). Lets a sweep decide the inputs whose every result is exact in one pass.
    pub fn exact_fns(&self) -> Option<Vec<(ExactFn, bool)>> {
        self.bulk_rule()?;
        self.outputs
            .iter()
            .map(|output| {
                let exact = binding::exact(output.reference)?;
                match output.check {
                    OutputCheck::Table => Some((exact, false)),
                    OutputCheck::Integer => Some((exact, true)),
                    OutputCheck::QuotientLowBits => None,
                }
            })
            .collect()
    }

    /// The rule the fast tiers apply to a table output wherever the arguments and results may
    /// be anything, as a sweep's bulk passes of NaN passes, poles and overflows need it
    /// ([`Rules::correctly_rounded_nan_passes`], [`Rules::infinity_verdict`]). `None` where
    /// they apply none: a relaxed or finite-math-only build (whose inputs
    /// [`Rules::fast_verdict_with`] decides one by one, where it proves them defined, and whose
    /// finite ones [`Rules::bulk_rule`] lets a sweep decide in bulk), or no
    /// [`Rules::requirement_rule`].
    fn fast_rule(&self) -> Option<FastRule> {
        if self.finite_math_only {
            return None;
        }
        self.bulk_rule()
    }

    /// The rule a sweep's bulk passes apply to a table output where every argument is finite
    /// ([`Rules::bulk_needs_finite_arguments`]): [`Rules::fast_rule`]'s, and under
    /// `-cl-finite-math-only` without a Table 5 rule the requirement's too. There
    /// [`Rules::finite_math_verdict`] gives an input with finite arguments and a correctly
    /// rounded (or exact) result that is finite the requirement's own verdict, which for a
    /// result equal to that value is the bulk pass's.
    fn bulk_rule(&self) -> Option<FastRule> {
        if self.relaxed.is_some() {
            return None;
        }
        self.requirement_rule()
    }

    /// Whether a sweep's bulk passes may decide only inputs whose every argument is finite,
    /// and only where the result they compare with is finite: under `-cl-finite-math-only`,
    /// where MPFR's path makes every other input undefined ([`Rules::judge_exactly_with`]).
    pub fn bulk_needs_finite_arguments(&self) -> bool {
        self.finite_math_only
    }

    /// The requirement's rule as the fast tiers apply it to a table output. `None` where they
    /// apply none (MPFR judges): a directed rounding, remquo's rule, an absolute or other
    /// bound.
    fn requirement_rule(&self) -> Option<FastRule> {
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
    fn fill_fast_reference(&self, args: &[f64], reference: &mut FastReference) {
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

    /// The exact tier ([`crate::reference::exact`]), for a function whose every output has an
    /// exact host version: `Some(verdict)` decides the input (`Some(None)` sends it to MPFR),
    /// `None` where the function has no exact tier or the host declines this input (then the
    /// fast tiers judge it, where the function has them).
    ///
    /// A table output whose device result is the exact value `v` has error 0, as MPFR
    /// measures it (`same_result`). Where `v` (a double) is not a value of the format (a half
    /// or float result: a fraction with more bits, a result past the largest finite value or
    /// below the subnormal spacing), the error of any result is known exactly: `v` *is* the
    /// exact value, so its binade is the spec's and `ulp_error_of_value` measures against it
    /// with a single rounding (2^-53 relative). The rule is applied as [`Rules::output_verdict`]
    /// applies it: the correctly rounded result (`v` rounded once to the format) passes, an
    /// infinity there by the overflow rule; another result passes a ULP cell only with its
    /// error below the bound by more than that rounding. An integer output passes where it is
    /// equal or unspecified (NaN). Anything else, every failure included, goes to MPFR.
    ///
    /// `known` is a one-output function's exact value where the caller has it (see
    /// [`FastReference::clear_knowing_exact`]).
    fn exact_verdict(
        &self,
        args: &[f64],
        device_results: &[f64],
        rule: FastRule,
        known: Option<Option<f64>>,
    ) -> Option<Option<FastVerdict>> {
        if !self
            .outputs
            .iter()
            .all(|output| binding::exact(output.reference).is_some())
        {
            return None;
        }
        let mut verdict = None;
        for (output, device_result) in self.outputs.iter().zip(device_results) {
            let exact = binding::exact(output.reference).expect("checked above");
            let value = match known {
                Some(known) if self.outputs.len() == 1 => known,
                _ => exact(args, self.element),
            }?;
            let integer = output.check == OutputCheck::Integer;
            let one = match output.check {
                OutputCheck::Table | OutputCheck::Integer
                    if exact_output_matches(*device_result, value, integer) =>
                {
                    FastVerdict::Pass(0.0)
                }
                OutputCheck::Table => match self.inexact_verdict(value, *device_result, rule) {
                    Some(one) => one,
                    None => return Some(None),
                },
                OutputCheck::Integer | OutputCheck::QuotientLowBits => return Some(None),
            };
            verdict = match combine(verdict, one) {
                Some(verdict) => verdict,
                None => return Some(None),
            };
        }
        Some(verdict)
    }

    /// [`Rules::exact_verdict`]'s rule for a device result that differs from the exact value
    /// `exact`, where `exact` is no value of the format (the result is then inexact).
    fn inexact_verdict(
        &self,
        exact: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        let rounded = self.element.round(exact);
        if self.element == FloatType::Double
            || !exact.is_finite()
            || rounded == exact
            || device_result.is_nan()
        {
            return None;
        }
        if device_result == rounded {
            if rounded.is_infinite() {
                return Some(rule.overflow());
            }
        } else if rule.correctly_rounded || device_result.is_infinite() {
            return None;
        }
        let error = crate::num::ulp::ulp_error_of_value(device_result, exact, self.element);
        (device_result == rounded || error <= rule.bound * (1.0 - f64::EPSILON))
            .then_some(FastVerdict::Pass(error))
    }

    /// remquo without MPFR, for finite x and non-zero finite y (every format):
    /// - fmod is exact (its result is representable), so m = fmod(|x|, 128|y|) is |x| less a
    ///   multiple 128k|y| of 128|y|, where 128|y| is finite;
    /// - the IEEE remainder is exact too: r = remainder(m, |y|) = m − n0|y| with n0 = m/|y|
    ///   rounded to nearest even, n0 <= 128; |x|/|y| = 128k + m/|y| rounds to 128k + n0 (the
    ///   tie rule sees the same parity), so remquo's remainder is sign(x)·r and its quotient
    ///   agrees with sign(x)sign(y)·n0 in its low 7 bits;
    /// - n0 = (m − r)/|y| is an integer <= 128 computed with a relative error under 2^-50, so
    ///   rounding it to the nearest integer recovers it.
    ///
    /// Passes where the device's remainder is that value and its quotient meets the rule of
    /// `quotient_matches` (at most 7 bits); everything else goes to MPFR.
    fn remquo_verdict(
        &self,
        args: &[f64],
        device_results: &[f64],
        quotient_bits: u32,
    ) -> Option<FastVerdict> {
        let quotient_output = self
            .outputs
            .iter()
            .position(|o| o.check == OutputCheck::QuotientLowBits)?;
        let (&[x, y, ..], &[device_remainder, device_quotient]) = (args, device_results) else {
            return None;
        };
        if quotient_output != 1 || quotient_bits > 7 {
            return None;
        }
        let modulus = 1i64 << quotient_bits;
        if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
            // remquo "returns a NaN and 0 in quo" (`reference::remquo_quotient`): a quotient
            // whose low bits are all zero matches 0, of either sign (a NaN argument is one
            // random half in 32).
            let zero_low_bits = (device_quotient as i64) % modulus == 0;
            return (device_remainder.is_nan() && zero_low_bits).then_some(FastVerdict::Pass(0.0));
        }
        // x is finite and y non-zero here; an infinite y makes the period infinite.
        let period = 128.0 * y.abs();
        if !period.is_finite() {
            return None;
        }
        let m = x.abs() % period;
        let r = crate::reference::exact::ieee_remainder(m, y.abs());
        let n0 = ((m - r) / y.abs()).round() as i64;
        let remainder = if x.is_sign_negative() { -r } else { r };
        let negative_quotient = x.is_sign_negative() != y.is_sign_negative();
        let expected_low = n0 % modulus;
        let got = device_quotient as i64;
        let same_low_bits = got.abs() % modulus == expected_low;
        // As in `quotient_matches`: a quotient whose low bits are all zero may carry either
        // sign; otherwise the signs agree (got is non-zero here, its low bits being non-zero).
        let same_sign = expected_low == 0 || (got < 0) == negative_quotient;
        (device_remainder == remainder && same_low_bits && same_sign)
            .then_some(FastVerdict::Pass(0.0))
    }

    /// A result whose fast reference (`approximation`, correctly rounded to double) is
    /// infinite: an exact infinity, or an exact value that overflowed double, which the
    /// correctly rounded evaluation tells apart by the flag it raises
    /// ([`reference::why_infinite`]). A device result that is that infinity, on finite
    /// arguments:
    /// - at a pole is the exact value, with no error, as MPFR measures it (lgamma of a large
    ///   negative float, every one an integer, a tenth of a random sweep's inputs; tanpi at
    ///   half-integers; x/0; these went to MPFR before);
    /// - past double is the correctly rounded overflow: |exact| rounds past the largest
    ///   double, for half and float far past the format's largest finite value, for double to
    ///   infinity itself. Decided only for non-zero arguments (a zero argument is where the
    ///   poles of the functions that can overflow double lie, as tgamma(0) and pow(0, -1)).
    ///   (Double overflows, a quarter of a random sweep's exp or sinh inputs, went to MPFR
    ///   before.)
    fn infinite_verdict(
        &self,
        fast: FastFn,
        args: &[f64],
        approximation: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        if device_result != approximation || !args.iter().all(|x| x.is_finite()) {
            return None;
        }
        match reference::why_infinite(fast, args)? {
            reference::Infinity::Pole => Some(FastVerdict::Pass(0.0)),
            reference::Infinity::PastDouble if args.iter().all(|x| *x != 0.0) => {
                Some(rule.overflow())
            }
            reference::Infinity::PastDouble => None,
        }
    }

    /// One output's verdict by its correctly rounded double tier `fast`, whose value at `args`
    /// is `approximation`: [`Rules::infinite_verdict`] where that is infinite, else
    /// [`Rules::output_verdict`].
    fn double_tier_verdict(
        &self,
        output: &Output,
        fast: FastFn,
        args: &[f64],
        approximation: f64,
        device_result: f64,
        rule: FastRule,
    ) -> Option<FastVerdict> {
        if approximation.is_infinite() {
            return self.infinite_verdict(fast, args, approximation, device_result, rule);
        }
        let side = |power| side_of(output, args, power);
        let exact = binding::double_tier_is_exact(output, self.element);
        self.output_verdict(approximation, exact, device_result, rule, side)
    }

    /// One output's fast verdict (see [`Rules::fast_verdict`]).
    ///
    /// `exact` says the approximation is the exact value itself
    /// ([`binding::double_tier_is_exact`]): a midpoint of the format then rounds to even, as
    /// any other value rounds. `side(2^k)` says where the exact value lies beside a power of
    /// two 2^k, where known ([`crate::reference::side`]).
    fn output_verdict(
        &self,
        approximation: f64,
        exact: bool,
        device_result: f64,
        rule: FastRule,
        side: impl Fn(f64) -> Option<Ordering>,
    ) -> Option<FastVerdict> {
        if approximation.is_nan() {
            return device_result.is_nan().then_some(FastVerdict::Pass(0.0));
        }
        if device_result.is_nan() {
            return None;
        }
        if self.element == FloatType::Double {
            return (device_result == approximation).then_some(FastVerdict::CorrectlyRounded);
        }
        if exact || !reference::is_midpoint(approximation, self.element) {
            let rounded = self.element.round(approximation);
            if device_result == rounded {
                if rounded.is_infinite() {
                    // The exact value is finite (the double is) and rounds past the largest
                    // finite value ([`FastRule::overflow`]).
                    return Some(rule.overflow());
                }
                return Some(FastVerdict::Pass(crate::num::ulp::ulp_error_of_value(
                    device_result,
                    approximation,
                    self.element,
                )));
            }
        }
        if rule.correctly_rounded || device_result.is_infinite() {
            return None;
        }
        // At ±2^k the exact value, within half a double ulp, may lie on either side, where the
        // spec's ulp differs by a factor of two: measured where the function's shape says
        // which (a double just beyond 2^k stands for a value beyond it, 2^k itself for one at
        // or within it, whose ulp is the gap below), else MPFR judges.
        let reference = if approximation.to_bits() & ((1u64 << 52) - 1) == 0 {
            match side(approximation)? {
                Ordering::Greater => away_from_zero(approximation),
                Ordering::Equal | Ordering::Less => approximation,
            }
        } else {
            approximation
        };
        rule.clear_of_bound(crate::num::ulp::ulp_error_of_value(
            device_result,
            reference,
            self.element,
        ))
    }

    /// A half or float result against a [`binding::DoubleTier::Near`] approximation `a`
    /// (within [`reference::NEAR_ERROR`] of the exact value) in a ULP cell, where the result
    /// is not the correctly rounded one (the float version decides that): its error against
    /// `a` is the exact error to 2^-27 ulp where the exact value's binade is `a`'s (the
    /// interval a·(1 ± 2 NEAR_ERROR) lies in one binade), and passes with the margin
    /// [`Rules::output_verdict`] keeps. NaN where `a` is NaN (exactly where the exact value is)
    /// passes; everything else goes to MPFR.
    fn near_verdict(
        &self,
        approximation: f64,
        device_result: f64,
        rule: FastRule,
        side: impl Fn(f64) -> Option<Ordering>,
    ) -> Option<FastVerdict> {
        if self.element == FloatType::Double || rule.correctly_rounded {
            return None;
        }
        if approximation.is_nan() {
            return device_result.is_nan().then_some(FastVerdict::Pass(0.0));
        }
        if !approximation.is_finite() || approximation == 0.0 || !device_result.is_finite() {
            return None;
        }
        let binade = |value: f64| value.to_bits() >> 52 & 0x7ff;
        let width = 2.0 * reference::NEAR_ERROR;
        let upper = binade(approximation * (1.0 + width));
        let mut reference = approximation;
        if binade(approximation * (1.0 - width)) != upper {
            // The interval holds a power of two p: measured where the function's shape says
            // which side of p the exact value is on, against a value of that binade within
            // NEAR_ERROR·p of it (p itself, whose ulp is the gap below, for a value at or
            // within p).
            let power = f64::from_bits(upper << 52).copysign(approximation);
            let beyond = approximation.abs() > power.abs();
            reference = match side(power)? {
                Ordering::Greater if beyond => approximation,
                Ordering::Greater => away_from_zero(power),
                Ordering::Equal | Ordering::Less if beyond => power,
                Ordering::Equal | Ordering::Less => approximation,
            };
        }
        rule.clear_of_bound(crate::num::ulp::ulp_error_of_value(
            device_result,
            reference,
            self.element,
        ))
    }

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
        }
    }

    /// One output's verdict, its error (0 for integer outputs) and whether that error is
    /// absolute rather than in ulp.
    fn judge_output(
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

    /// An integer output's verdict: the exact value, or (flush to zero, FTZ result 3) the
    /// exact value for the inputs with some subnormal operands read as zeros: ilogb(x),
    /// frexp's exponent, remquo's quotient of a flushed operand.
    fn integer_outcome(
        &self,
        function: ReferenceFn,
        args: &[f64],
        reference: &Float,
        accepts: impl Fn(&Float) -> bool,
    ) -> Outcome {
        if accepts(reference) {
            return Outcome::Pass;
        }
        if !self.flushes_subnormals {
            return Outcome::Fail;
        }
        let flushed_accepted = flushed_alternatives(args, self.element).any(|flushed| {
            accepts(&reference::high_precision(
                function,
                &to_floats(&flushed),
                self.element,
            ))
        });
        if flushed_accepted {
            Outcome::Allowed(Allowance::FlushedOperands)
        } else {
            Outcome::Fail
        }
    }

    /// Whether some result that conforms without flushing is subnormal (FTZ result 2: "if the
    /// result given by 1. is a sub-normal before rounding, it may be flushed to zero"): the
    /// exact value is subnormal before rounding, or the subnormal nearest it (the largest in
    /// magnitude, of its sign) is itself within the bound — an exact value just above the
    /// smallest normal whose allowed range reaches below it.
    fn conforming_result_may_be_subnormal(
        &self,
        exact: &Float,
        conforms: impl Fn(f64) -> bool,
    ) -> bool {
        if subnormal_before_rounding(exact, self.element) {
            return true;
        }
        if !exact.is_finite() || exact.is_zero() {
            return false;
        }
        let largest_subnormal = 2f64.powi(self.element.emin())
            - 2f64.powi(self.element.emin() - self.element.precision() as i32 + 1);
        let nearest = if exact.is_sign_negative() {
            -largest_subnormal
        } else {
            largest_subnormal
        };
        conforms(nearest)
    }

    /// nextafter's own flush-to-zero results ("Edge Case Behavior in Flush To Zero Mode": "a
    /// device may choose to conform to the following edge cases for OpExtInst nextafter"),
    /// for the inputs as given or with subnormal operands read as zeros (FTZ result 3).
    ///
    /// The text's last two replace "smallest denormal" by "smallest normal" in the two steps
    /// off zero that "Additional Requirements" lists (the ones crossing the sign of zero):
    /// on a flushing device zero's neighbours are ±smallest normal. The same step from the
    /// other zero, nextafter(+0, y > 0) and nextafter(-0, y < 0), lands there too (README,
    /// "Readings clacc takes"), as the Khronos CTS accepts. Not where y is a zero (x == y
    /// returns y) or NaN (a NaN operand gives a NaN), which the CTS accepts as well
    /// ([`Rules::stricter_than_cts`]).
    fn nextafter_flush_result(&self, args: &[f64], device_result: f64) -> bool {
        if self.function != "nextafter" || args.len() != 2 {
            return false;
        }
        let smallest_normal = 2f64.powi(self.element.emin());
        std::iter::once(args.to_vec())
            .chain(flushed_alternatives(args, self.element))
            .any(|operands| {
                let (x, y) = (operands[0], operands[1]);
                // nextafter(+smallest normal, y < +smallest normal) = +0, and its mirror.
                (x == smallest_normal && y < x && device_result == 0.0)
                    || (x == -smallest_normal && y > x && device_result == 0.0)
                    // nextafter(-0, y > 0) = smallest positive normal, its mirror, and the
                    // same steps from the other zero: copysign(smallest normal, y).
                    || (x == 0.0
                        && y != 0.0
                        && !y.is_nan()
                        && device_result == smallest_normal.copysign(y))
            })
    }

    /// The note for a failing unit whose worst case the Khronos CTS accepts under flush to
    /// zero: its float test takes nextafter(x, y) = copysign(smallest normal, y) for every
    /// zero or subnormal x (`binary_float.cpp`, "nextafter on FTZ platforms may return the
    /// smallest normal"), where y is a zero or NaN too, which clacc refuses
    /// ([`Rules::nextafter_flush_result`]). A vendor whose device passes the CTS learns why
    /// clacc fails it. `None` for every other case.
    pub fn stricter_than_cts(&self, worst: &Case) -> Option<&'static str> {
        let (&[x, y], &[device_result]) = (worst.args.as_slice(), worst.device_results.as_slice())
        else {
            return None;
        };
        let smallest_normal = 2f64.powi(self.element.emin());
        let cts_accepts = self.function == "nextafter"
            && self.flushes_subnormals
            && self.element == FloatType::Float
            && worst.outcome == Outcome::Fail
            && (x == 0.0 || self.element.is_subnormal(x))
            && device_result.to_bits() == smallest_normal.copysign(y).to_bits();
        cts_accepts.then_some(NEXTAFTER_STRICTER_THAN_CTS)
    }

    /// A Table 5 rule's verdict, with the flush-to-zero alternatives on devices without
    /// denormals (the rule itself already applies 002's overflow allowance).
    fn judge_relaxed(
        &self,
        rule: &RelaxedRule,
        output: &Output,
        args: &[f64],
        reference: &Float,
        device_result: f64,
    ) -> (Outcome, f64, bool) {
        let (outcome, error, unit) = match rule.judge_knowing(
            args,
            Some(reference),
            device_result,
            self.element,
            self.embedded,
            self.rounding,
        ) {
            RelaxedOutcome::Pass { error, unit } => (Outcome::Pass, error, unit),
            RelaxedOutcome::Fail { error, unit } => (Outcome::Fail, error, unit),
            RelaxedOutcome::Undefined => return (Outcome::Undefined, 0.0, false),
        };
        let absolute = unit == ErrorUnit::Absolute;
        if outcome == Outcome::Pass || !self.flushes_subnormals {
            return (outcome, error, absolute);
        }
        // `exact`: the reference at `operands` where the caller has it (the unflushed args).
        let rule_passes = |operands: &[f64], exact: Option<&Float>, result: f64| {
            matches!(
                rule.judge_knowing(
                    operands,
                    exact,
                    result,
                    self.element,
                    self.embedded,
                    self.rounding
                ),
                RelaxedOutcome::Pass { .. }
            )
        };
        if device_result == 0.0
            && self.conforming_result_may_be_subnormal(reference, |r| {
                rule_passes(args, Some(reference), r)
            })
        {
            return (Outcome::Allowed(Allowance::FlushedResult), error, absolute);
        }
        let flushed_passes = flushed_alternatives(args, self.element).any(|flushed| {
            rule_passes(&flushed, None, device_result)
                || (device_result == 0.0 && {
                    let operands = to_floats(&flushed);
                    let exact = reference::high_precision(
                        binding::mpfr(output.reference),
                        &operands,
                        self.element,
                    );
                    self.conforming_result_may_be_subnormal(&exact, |r| {
                        rule_passes(&flushed, Some(&exact), r)
                    })
                })
        });
        if flushed_passes {
            return (
                Outcome::Allowed(Allowance::FlushedOperands),
                error,
                absolute,
            );
        }
        (outcome, error, absolute)
    }

    /// The requirement's own rule, no allowances.
    fn plain_outcome(
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
            Requirement::UlpPerWidth(_)
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

    /// The first allowance that accepts `device_result`, if any.
    fn allowance(
        &self,
        function: ReferenceFn,
        args: &[f64],
        reference: &Float,
        device_result: f64,
    ) -> Option<Allowance> {
        if let Requirement::Ulp(bound) | Requirement::UlpEachOutput(bound) = self.requirement {
            if overflow_allowed(reference, bound, device_result, self.element) {
                return Some(Allowance::Overflow);
            }
        }
        if !self.flushes_subnormals {
            return None;
        }
        let operands = to_floats(args);
        if device_result == 0.0
            && self.conforming_result_may_be_subnormal(reference, |result| {
                let error = ulp_error(result, reference, self.element);
                self.plain_outcome(function, &operands, error, result) == Outcome::Pass
            })
        {
            return Some(Allowance::FlushedResult);
        }
        if self.nextafter_flush_result(args, device_result) {
            return Some(Allowance::FlushedResult);
        }
        self.flushed_operands_conform(function, args, device_result)
            .then_some(Allowance::FlushedOperands)
    }

    /// FTZ results 3 and 4: some subnormal operands read as zero of either sign, and the result
    /// conforms for those operands (or is their subnormal-before-rounding result, flushed).
    fn flushed_operands_conform(
        &self,
        function: ReferenceFn,
        args: &[f64],
        device_result: f64,
    ) -> bool {
        for flushed in flushed_alternatives(args, self.element) {
            let operands = to_floats(&flushed);
            let reference = reference::high_precision(function, &operands, self.element);
            let error = ulp_error(device_result, &reference, self.element);
            if self.plain_outcome(function, &operands, error, device_result) == Outcome::Pass {
                return true;
            }
            if device_result == 0.0
                && self.conforming_result_may_be_subnormal(&reference, |result| {
                    let error = ulp_error(result, &reference, self.element);
                    self.plain_outcome(function, &operands, error, result) == Outcome::Pass
                })
            {
                return true;
            }
        }
        false
    }
}

/// [`crate::reference::side`]'s rule for `output`'s reference at `power`, where it has one.
fn side_of(output: &Output, args: &[f64], power: f64) -> Option<Ordering> {
    binding::side_tier(output)?(args, power)
}

/// The double next to `value`, away from zero.
fn away_from_zero(value: f64) -> f64 {
    if value.is_sign_negative() {
        value.next_down()
    } else {
        value.next_up()
    }
}

/// Whether the exact value `exact` rounded to nearest in `element` is an infinity: rounded
/// to the format's precision (ties to even, MPFR's exponent range unbounded) it lies beyond
/// the largest finite value. Such a result is "+Inf, -Inf" to `-cl-finite-math-only` ("assume
/// that arguments and results are not NaNs, +Inf, -Inf"): `fdim(FLT_MAX, -FLT_MAX)` is +Inf in
/// float arithmetic though its exact value is finite.
fn rounds_to_infinity(exact: &Float, element: FloatType) -> bool {
    exact.is_infinite()
        || (exact.is_finite()
            && *Float::with_val(element.precision(), exact).as_abs() > element.max_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference as r;
    use crate::report::stats::{input_region, UnitStats};
    use crate::spec::reference_id::ReferenceId;

    /// The argument kinds of a function of `shape` whose arguments a fast-tier test samples
    /// (float arguments, and pown's and rootn's int); `None` for the shapes it skips.
    fn argument_kinds(
        shape: crate::spec::signature::Shape,
    ) -> Option<Vec<crate::spec::signature::ValueKind>> {
        use crate::spec::signature::{Shape, ValueKind};
        Some(match shape {
            Shape::Unary => vec![ValueKind::FloatGentype],
            Shape::Binary => vec![ValueKind::FloatGentype; 2],
            Shape::Ternary => vec![ValueKind::FloatGentype; 3],
            Shape::FloatInt => vec![ValueKind::FloatGentype, ValueKind::IntGentype],
            _ => return None,
        })
    }

    /// `value` moved `steps` encodings of `element` up (down where negative; no further down
    /// than the encoding 0), as a device result near it; a value that is not finite as it is.
    fn ulps_away(value: f64, element: FloatType, steps: i64) -> f64 {
        if !value.is_finite() {
            return value;
        }
        let bits = element.to_bits(value) as i64;
        element.from_bits((bits + steps).max(0) as u64)
    }

    /// Every verdict the fast tiers give is MPFR's verdict on the same result: for sampled
    /// inputs (special values included) of every one-output function with a fast reference,
    /// in every format, under a ULP bound and a correctly rounded cell, with the correctly
    /// rounded result, its neighbours, results a few ulp away, zero, max and infinity as the
    /// device's result.
    #[test]
    fn fast_tiers_decide_as_mpfr_does() {
        use crate::spec::registry::FUNCTIONS;
        let mut decided = [0usize; 4];
        let mut failed = 0;
        let mut column_matches = 0;
        let mut column_nans = 0;
        let mut column_overflows = 0;
        let mut double_overflows = 0;
        let mut beside_power_of_two = 0;
        let mut poles = 0;
        let mut near_half = 0;
        let mut exact_midpoints = 0;
        for function in FUNCTIONS {
            let [output] = function.outputs else { continue };
            if binding::float_tier(output).is_none() {
                continue;
            }
            use crate::spec::signature::ValueKind;
            let Some(kinds) = argument_kinds(function.shape) else {
                continue;
            };
            for element in FloatType::ALL {
                let seed = crate::sweep::unit_seed(5, function.name, element, 1);
                let mut columns = crate::sweep::generate(function, element, &kinds, 250, 1, seed);
                // Poles and overflows past double and past MPFR's own range, explicitly: every
                // pair of these (the first argument's value, the others'); an int argument
                // takes the integers (pown's n past 2^24 included).
                // Tiny arguments put exp, cos, erfc, acospi, pow (and more) on a power of two.
                let extremes = [
                    0.0, -0.0, 1.0, -1.0, -2.0, 0.5, 100.0, -100.0, 1e4, 1e9, 3e38, 1e-30, -3e-20,
                ];
                let integers = [
                    0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 40.0, -40.0, 33554433.0, -7.0, 5e8, -6e8,
                ];
                for first in 0..extremes.len() {
                    for other in 0..extremes.len() {
                        for (position, column) in columns.iter_mut().enumerate() {
                            let choice = if position == 0 { first } else { other };
                            column.push(match kinds[position] {
                                ValueKind::IntGentype => integers[choice],
                                _ => element.round(extremes[choice]),
                            });
                        }
                    }
                }
                for requirement in [
                    Requirement::Ulp(4.0),
                    Requirement::CorrectlyRounded,
                    Requirement::ImplementationDefined,
                ] {
                    // What MPFR calls a result the fast tiers pass: an implementation-defined
                    // cell measures it.
                    let passed = if requirement == Requirement::ImplementationDefined {
                        Outcome::Measured
                    } else {
                        Outcome::Pass
                    };
                    let mut rules = rules(output.reference, requirement.clone(), false);
                    rules.outputs = vec![*output];
                    rules.element = element;
                    for index in 0..columns[0].len() {
                        let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                        let correct = r::correctly_rounded(
                            binding::mpfr(output.reference),
                            &to_floats(&args),
                            element,
                        )
                        .to_f64();
                        let step = |steps: i64| ulps_away(correct, element, steps);
                        let max = element.max_finite();
                        for device in [
                            correct,
                            step(1),
                            step(-1),
                            step(3),
                            step(-3),
                            step(5),
                            0.0,
                            max,
                            -max,
                            f64::INFINITY,
                            f64::NEG_INFINITY,
                        ] {
                            let verdict = rules.fast_verdict(&args, &[device]);
                            // A sweep's column of correctly rounded results decides what the
                            // fast tiers would: a finite result equal to it is correctly
                            // rounded.
                            if let Some(correctly_rounded) = rules.correctly_rounded_fn() {
                                let column_value = correctly_rounded(&args);
                                if column_value.is_finite() && device == column_value {
                                    column_matches += 1;
                                    assert_eq!(
                                        verdict,
                                        Some(FastVerdict::CorrectlyRounded),
                                        "{}({args:?}) {element} {requirement:?}",
                                        function.name
                                    );
                                }
                                // And a NaN where it is NaN passes with no error (inside
                                // the domain: a sweep counts the rest as undefined).
                                // And an infinity where it is that infinity gets the
                                // fast verdict's overflow or a pole's pass where
                                // `infinity_verdict` says so.
                                if column_value.is_infinite() && device == column_value {
                                    if let Some(overflow) = rules.infinity_verdict(&args, device) {
                                        column_overflows += 1;
                                        assert_eq!(
                                            verdict,
                                            Some(overflow),
                                            "{}({args:?}) {element} {requirement:?}",
                                            function.name
                                        );
                                    }
                                }
                                if rules.correctly_rounded_nan_passes()
                                    && column_value.is_nan()
                                    && device.is_nan()
                                    && function.in_domain(&args)
                                {
                                    column_nans += 1;
                                    assert_eq!(
                                        verdict,
                                        Some(FastVerdict::Pass(0.0)),
                                        "{}({args:?}) {element} {requirement:?}",
                                        function.name
                                    );
                                }
                            }
                            let Some(verdict) = verdict else {
                                continue;
                            };
                            // A sum of halves on a midpoint of half, rounded to even, in a
                            // correctly rounded cell.
                            exact_midpoints += usize::from(
                                requirement == Requirement::CorrectlyRounded
                                    && element == FloatType::Half
                                    && binding::double_tier_is_exact(output, element)
                                    && binding::fast_tier(output).is_some_and(|fast| {
                                        r::is_midpoint(fast(&args), element)
                                            && device == element.round(fast(&args))
                                    }),
                            );
                            // rootn's near tier decides half results too.
                            near_half += usize::from(
                                element == FloatType::Half && binding::near_tier(output).is_some(),
                            );
                            let case = rules.judge_exactly(0, &args, &[device]);
                            let what = format!(
                                "{}({args:?}) {element} {requirement:?}: device {device:e}, \
                                 fast {verdict:?}, MPFR {:?} {}",
                                function.name, case.outcome, case.error
                            );
                            match verdict {
                                FastVerdict::Pass(error) => {
                                    decided[0] += 1;
                                    // An infinity passed: a pole ([`Rules::infinite_verdict`]).
                                    poles += usize::from(device.is_infinite());
                                    let approximation = binding::fast_tier(output)
                                        .or_else(|| binding::near_tier(output))
                                        .map(|double| double(&args));
                                    // Measured beside a power of two (`reference::side`).
                                    if approximation.is_some_and(|a| {
                                        r::side::exponent_of_power_of_two(a).is_some()
                                    }) && device != correct
                                    {
                                        beside_power_of_two += 1;
                                    }
                                    assert_eq!(case.outcome, passed, "{what}");
                                    // Huge measured errors agree to double's own precision.
                                    let tolerance = 1e-6 * case.error.max(1.0);
                                    assert!((case.error - error).abs() <= tolerance, "{what}");
                                }
                                FastVerdict::CorrectlyRounded => {
                                    decided[1] += 1;
                                    assert_eq!(case.outcome, passed, "{what}");
                                    assert!(case.error <= 0.5, "{what}");
                                }
                                FastVerdict::Overflow => {
                                    decided[2] += 1;
                                    double_overflows += usize::from(element == FloatType::Double);
                                    assert_eq!(
                                        case.outcome,
                                        Outcome::Allowed(Allowance::Overflow),
                                        "{what}"
                                    );
                                }
                                FastVerdict::CorrectlyRoundedOverflow => {
                                    decided[3] += 1;
                                    double_overflows += usize::from(element == FloatType::Double);
                                    assert_eq!(case.outcome, Outcome::Pass, "{what}");
                                    assert!(case.error.is_infinite(), "{what}");
                                }
                                FastVerdict::Fail(error) => {
                                    failed += 1;
                                    assert_eq!(case.outcome, Outcome::Fail, "{what}");
                                    let tolerance = 1e-6 * case.error.max(1.0);
                                    assert!((case.error - error).abs() <= tolerance, "{what}");
                                }
                                FastVerdict::Undefined | FastVerdict::AbsolutePass(_) => {
                                    panic!("{what}: no Table 3 rule gives {verdict:?}")
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(decided.iter().all(|count| *count > 0), "{decided:?}");
        // Results far beyond a ULP bound, where no allowance applies.
        assert!(failed > 10_000, "{failed}");
        // Double overflows too (exp(5e8), pow(5e8, 40)), by the flag CORE-MATH raises.
        assert!(double_overflows > 10, "{double_overflows}");
        assert!(column_matches > 1000, "{column_matches}");
        assert!(column_nans > 100, "{column_nans}");
        assert!(column_overflows > 100, "{column_overflows}");
        assert!(beside_power_of_two > 1000, "{beside_power_of_two}");
        // lgamma(0), lgamma(-2), atanh(1), log(0), rsqrt(0), 1/0, pow(0, -1), tanpi(0.5)...
        assert!(poles > 10_000, "{poles}");
        assert!(near_half > 1000, "{near_half}");
        assert!(exact_midpoints > 20, "{exact_midpoints}");
    }

    /// lgamma_r's cell is implementation-defined: the fast tiers measure its value as MPFR
    /// does, and take its sign output unchecked, as MPFR's verdict does.
    #[test]
    fn fast_tiers_measure_lgamma_r_as_mpfr_does() {
        let function = crate::spec::registry::FUNCTIONS
            .iter()
            .find(|f| f.name == "lgamma_r")
            .expect("lgamma_r");
        let mut rules = rules(
            ReferenceId::Lgamma,
            Requirement::ImplementationDefined,
            false,
        );
        rules.outputs = function.outputs.to_vec();
        let mut measured = 0;
        for x in [-3.7f32, -0.4, 0.3, 1.5, 2.5, 7.25, 30.0, 1.0e30] {
            let args = [f64::from(x)];
            let value = f64::from(crate::reference::fast::lgammaf(&args) as f32);
            let next = f64::from(f32::from_bits((value as f32).to_bits() + 3));
            for device in [[value, 1.0], [next, -1.0], [next, 5.0]] {
                let case = rules.judge_exactly(0, &args, &device);
                assert_eq!(case.outcome, Outcome::Measured, "{x}");
                match rules.fast_verdict(&args, &device) {
                    Some(FastVerdict::Pass(error)) => {
                        assert!((case.error - error).abs() <= 1e-6, "{x} {device:?}");
                        measured += 1;
                    }
                    Some(FastVerdict::CorrectlyRounded) => assert!(case.error <= 0.5),
                    other => panic!("lgamma_r({x}) {device:?}: {other:?}"),
                }
            }
        }
        assert!(measured >= 8, "{measured}");
        // At its poles (zero and the negative integers) the value is +inf exactly, whatever
        // sign comes with it.
        for x in [0.0, -3.0, -1.0e30] {
            for sign in [1.0, -1.0, 0.0] {
                let device = [f64::INFINITY, sign];
                let case = rules.judge_exactly(0, &[x], &device);
                assert_eq!((case.outcome, case.error), (Outcome::Measured, 0.0), "{x}");
                assert_eq!(
                    rules.fast_verdict(&[x], &device),
                    Some(FastVerdict::Pass(0.0)),
                    "{x}"
                );
            }
        }
    }

    /// remquo's exact host computation decides as MPFR does, on sampled inputs with the
    /// exact results and perturbed ones, NaN remainders included.
    #[test]
    fn remquo_without_mpfr_decides_as_mpfr_does() {
        let function = crate::spec::registry::FUNCTIONS
            .iter()
            .find(|f| f.name == "remquo")
            .expect("remquo");
        let (mut passes, mut nan_passes) = (0, 0);
        for element in FloatType::ALL {
            let mut rules = rules(
                ReferenceId::Fma,
                Requirement::RemquoExact { quotient_bits: 7 },
                false,
            );
            rules.outputs = function.outputs.to_vec();
            rules.element = element;
            let kinds = [crate::spec::signature::ValueKind::FloatGentype; 2];
            let seed = crate::sweep::unit_seed(9, "remquo", element, 1);
            let columns = crate::sweep::generate(function, element, &kinds, 3000, 1, seed);
            for (x, y) in columns[0].iter().zip(&columns[1]) {
                let args = [*x, *y];
                let operands = to_floats(&args);
                let remainder =
                    r::correctly_rounded(r::remquo_remainder, &operands, element).to_f64();
                let quotient = r::high_precision(r::remquo_quotient, &operands, element)
                    .to_integer()
                    .map(|q| (q % (1u64 << 30)).to_f64())
                    .unwrap_or(0.0);
                for (device_remainder, device_quotient) in [
                    (remainder, quotient),
                    (remainder, -quotient),
                    (remainder, quotient + 1.0),
                    (remainder, quotient + 128.0),
                    (element.round(remainder * 1.5 + 1e-30), quotient),
                ] {
                    let device = [device_remainder, device_quotient];
                    let Some(verdict) = rules.fast_verdict(&args, &device) else {
                        continue;
                    };
                    let case = rules.judge_exactly(0, &args, &device);
                    assert_eq!(verdict, FastVerdict::Pass(0.0));
                    assert_eq!(
                        (case.outcome, case.error),
                        (Outcome::Pass, 0.0),
                        "remquo({args:?}) {element}: device {device:?}"
                    );
                    passes += 1;
                    // A NaN argument, x infinite or y zero: NaN and a quotient of 0.
                    nan_passes += usize::from(device_remainder.is_nan());
                }
            }
        }
        assert!(passes > 3000, "{passes}");
        assert!(nan_passes > 1000, "{nan_passes}");
    }

    /// Past double's range: exp(1e9) in float is a finite result (beyond even MPFR's exponent
    /// range) that overflows, accepted as such by both tiers; atanh(1) is a pole, whose
    /// infinity both tiers pass as the exact result.
    #[test]
    fn overflow_past_double_is_told_from_a_pole() {
        let mut exp = rules(ReferenceId::Exp, Requirement::Ulp(3.0), false);
        exp.outputs[0].fast_tier = true;
        let infinity = [f64::INFINITY];
        assert_eq!(
            exp.fast_verdict(&[1e9], &infinity),
            Some(FastVerdict::Overflow)
        );
        assert_eq!(
            exp.judge_exactly(0, &[1e9], &infinity).outcome,
            Outcome::Allowed(Allowance::Overflow)
        );
        let mut atanh = rules(ReferenceId::Atanh, Requirement::Ulp(5.0), false);
        atanh.outputs[0].fast_tier = true;
        assert_eq!(
            atanh.fast_verdict(&[1.0], &infinity),
            Some(FastVerdict::Pass(0.0))
        );
        let pole = atanh.judge_exactly(0, &[1.0], &infinity);
        assert_eq!((pole.outcome, pole.error), (Outcome::Pass, 0.0));
    }

    #[test]
    fn midpoints_of_each_format_are_found() {
        use crate::reference::is_midpoint;
        let float = FloatType::Float;
        assert!(is_midpoint(1.0 + 2f64.powi(-24), float));
        assert!(is_midpoint(-(1.0 + 3.0 * 2f64.powi(-24)), float));
        assert!(!is_midpoint(1.0 + 2f64.powi(-23), float));
        assert!(!is_midpoint(1.0 + 2f64.powi(-25), float));
        // Between 0 and the smallest subnormal, and between two subnormals.
        assert!(is_midpoint(2f64.powi(-150), float));
        assert!(is_midpoint(3.0 * 2f64.powi(-150), float));
        assert!(!is_midpoint(2f64.powi(-149), float));
        // The overflow threshold, max + ulp/2.
        assert!(is_midpoint(f64::from(f32::MAX) + 2f64.powi(103), float));
        assert!(!is_midpoint(2f64.powi(128), float));
        assert!(is_midpoint(1.0 + 2f64.powi(-11), FloatType::Half));
        assert!(is_midpoint(65520.0, FloatType::Half));
        assert!(!is_midpoint(0.0, float) && !is_midpoint(f64::NAN, float));
        // Rounded once: the value half::f16::from_f64 rounds twice (through float).
        let round = |value: f64| FloatType::Half.round(value);
        assert_eq!(round(1.5708007974), 1.5712890625);
        assert_eq!(round(65519.0), 65504.0);
        assert_eq!(round(-65520.0), f64::NEG_INFINITY);
        assert_eq!(round(2f64.powi(-25) * 1.5), 2f64.powi(-24));
        assert_eq!(round(2f64.powi(-25)), 0.0);
    }

    /// One reference pass for all widths: references computed once for an input, with any
    /// width's rules, judge every width's result exactly as each width's rules judge alone.
    #[test]
    fn references_computed_once_judge_every_width_as_alone() {
        let sin = crate::spec::registry::find("sin").unwrap();
        for element in [FloatType::Float, FloatType::Double] {
            // Widths' bounds differ ("2.5 + 2n ulp" cells); a correctly rounded cell too.
            let widths: Vec<Rules> = [
                Requirement::Ulp(4.0),
                Requirement::Ulp(1.0),
                Requirement::Ulp(34.5),
                Requirement::CorrectlyRounded,
            ]
            .into_iter()
            .map(|requirement| {
                let mut rules = rules(sin.outputs[0].reference, requirement, false);
                rules.outputs = sin.outputs.to_vec();
                rules.element = element;
                rules
            })
            .collect();
            let mut fast_judged = 0;
            for x in [
                0.5,
                -1.25,
                3.0,
                1e-3,
                1e6,
                0.0,
                f64::INFINITY,
                f64::NAN,
                1e-310,
            ] {
                let args = [element.round(x)];
                let correct = element.round(x.sin());
                let mut fast = FastReference::new();
                let exact = widths[0].exact_references(&args);
                for (steps, rules) in [0i64, 1, -3, 40].into_iter().zip(widths.iter().cycle()) {
                    let device = if correct.is_finite() {
                        element.from_bits((element.to_bits(correct) as i64 + steps).max(0) as u64)
                    } else {
                        correct
                    };
                    let shared = rules.fast_verdict_with(&mut fast, &args, &[device]);
                    assert_eq!(shared, rules.fast_verdict(&args, &[device]), "{x} {steps}");
                    fast_judged += usize::from(shared.is_some());
                    let alone = rules.judge_exactly(3, &args, &[device]);
                    let with = rules.judge_exactly_with(3, &args, &[device], &exact);
                    // References compared as text: a NaN reference equals no Float.
                    let seen = |case: &Case| {
                        let references: Vec<String> =
                            case.references.iter().map(|r| format!("{r:?}")).collect();
                        (case.outcome, case.error.to_bits(), case.output, references)
                    };
                    assert_eq!(seen(&with), seen(&alone), "{x} {steps}");
                }
            }
            assert!(fast_judged > 0, "the fast tier decided none");
        }
    }

    pub(super) fn rules(reference: ReferenceId, requirement: Requirement, flushes: bool) -> Rules {
        Rules {
            function: "test",
            outputs: vec![Output {
                reference,
                check: OutputCheck::Table,
                fast_tier: false,
            }],
            requirement,
            element: FloatType::Float,
            flushes_subnormals: flushes,
            rounding: Round::Nearest,
            relaxed: None,
            embedded: false,
            finite_math_only: false,
        }
    }

    #[test]
    fn finite_math_only_leaves_results_that_round_to_infinity_undefined() {
        let mut fdim = rules(ReferenceId::Fdim, Requirement::Ulp(0.0), false);
        fdim.finite_math_only = true;
        let max = f64::from(f32::MAX);
        // max + 2^102 rounds down to max; max + 2^103, the midpoint, ties to infinity.
        let below_midpoint = -(2f64.powi(102));
        let at_midpoint = -(2f64.powi(103));
        let outcome =
            |y: f64, device_result: f64| fdim.judge(0, &[max, y], &[device_result]).outcome;
        // The correctly rounded max is accepted (by the overflow allowance, as it is max).
        assert!(!matches!(
            outcome(below_midpoint, max),
            Outcome::Fail | Outcome::Undefined
        ));
        assert_eq!(outcome(below_midpoint, 0.0), Outcome::Fail);
        assert_eq!(outcome(at_midpoint, 0.0), Outcome::Undefined);
        assert_eq!(outcome(-max, 0.0), Outcome::Undefined);
        for element in [FloatType::Half, FloatType::Float, FloatType::Double] {
            let max = element.max_finite();
            let half_ulp = crate::num::ulp::ulp_of(&Float::with_val(53, max), element) / 2.0;
            let midpoint = Float::with_val(element.precision() + 1, max) + half_ulp;
            let just_below = Float::with_val(element.precision() + 8, &midpoint) - half_ulp / 128.0;
            assert!(rounds_to_infinity(&midpoint, element), "{element:?}");
            assert!(!rounds_to_infinity(&just_below, element), "{element:?}");
            assert!(
                !rounds_to_infinity(&Float::with_val(53, -max), element),
                "{element:?}"
            );
            assert!(rounds_to_infinity(
                &Float::with_val(53, f64::NEG_INFINITY),
                element
            ));
        }
    }

    /// The double tier proves an exact half or float value past the largest finite one to
    /// round to infinity only beyond the midpoint `t` (`Rules::exact_result_finite`): half
    /// hypot(65504, 1024) ~ 65512.004 lies between 65504 and t = 65520 and rounds to 65504, so
    /// no fast verdict; hypot(65504, 2048) ~ 65536.03 is past t, and an infinite result there
    /// is undefined, as MPFR finds.
    #[test]
    fn finite_math_proves_an_overflow_only_past_the_midpoint() {
        let mut hypot = rules(ReferenceId::Hypot, Requirement::Ulp(2.0), false);
        hypot.outputs[0].fast_tier = true;
        hypot.element = FloatType::Half;
        hypot.finite_math_only = true;
        for device_result in [f64::INFINITY, 65504.0] {
            assert_eq!(
                hypot.fast_verdict(&[65504.0, 1024.0], &[device_result]),
                None
            );
        }
        let below = hypot.judge_exactly(0, &[65504.0, 1024.0], &[65504.0]);
        assert_eq!(below.outcome, Outcome::Pass);
        let past = [65504.0, 2048.0];
        assert_eq!(
            hypot.fast_verdict(&past, &[f64::INFINITY]),
            Some(FastVerdict::Undefined)
        );
        assert_eq!(
            hypot.judge_exactly(0, &past, &[f64::INFINITY]).outcome,
            Outcome::Undefined
        );
        // A finite result there is measured (a finite distance), by MPFR.
        assert_eq!(hypot.fast_verdict(&past, &[65504.0]), None);
    }

    fn next_up(x: f32) -> f64 {
        f64::from(f32::from_bits(x.to_bits() + 1))
    }

    #[test]
    fn ulp_bound_passes_within_and_fails_beyond() {
        let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
        let x = 1.0f32;
        let good = f64::from(x.sin());
        assert_eq!(
            sin.judge(0, &[f64::from(x)], &[good]).outcome,
            Outcome::Pass
        );
        let mut far = x.sin();
        for _ in 0..6 {
            far = f32::from_bits(far.to_bits() + 1);
        }
        let case = sin.judge(0, &[f64::from(x)], &[f64::from(far)]);
        assert_eq!(case.outcome, Outcome::Fail);
        assert!(case.error > 5.0 && case.error < 7.0, "{}", case.error);
    }

    #[test]
    fn correctly_rounded_needs_the_exact_bits() {
        let add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, false);
        let (x, y) = (1.0f32, 1.0e-8f32);
        let sum = f64::from(x + y);
        assert_eq!(
            add.judge(0, &[1.0, f64::from(y)], &[sum]).outcome,
            Outcome::Pass
        );
        assert_eq!(
            add.judge(0, &[1.0, f64::from(y)], &[next_up(x + y)])
                .outcome,
            Outcome::Fail
        );
        // Zeros compare by value here; their sign is the edge-case rules' to check.
        let ceil = rules(ReferenceId::Ceil, Requirement::CorrectlyRounded, false);
        assert_eq!(ceil.judge(0, &[-0.5], &[-0.0]).outcome, Outcome::Pass);
        assert_eq!(ceil.judge(0, &[-0.5], &[0.0]).outcome, Outcome::Pass);
        assert_eq!(ceil.judge(0, &[-1.5], &[-2.0]).outcome, Outcome::Fail);
    }

    #[test]
    fn correctly_rounded_follows_the_default_rounding_mode() {
        let mut div = rules(ReferenceId::Div, Requirement::CorrectlyRounded, false);
        let nearest = f64::from(1.0f32 / 3.0);
        let toward_zero = f64::from(f32::from_bits((1.0f32 / 3.0).to_bits() - 1));
        assert_eq!(div.judge(0, &[1.0, 3.0], &[nearest]).outcome, Outcome::Pass);
        assert_eq!(
            div.judge(0, &[1.0, 3.0], &[toward_zero]).outcome,
            Outcome::Fail
        );
        div.rounding = Round::Zero;
        assert_eq!(
            div.judge(0, &[1.0, 3.0], &[toward_zero]).outcome,
            Outcome::Pass
        );
        assert_eq!(div.judge(0, &[1.0, 3.0], &[nearest]).outcome, Outcome::Fail);
    }

    /// acospi(-2^-149) is 0.5 + 2^-149/π: just above 0.5, in the binade of ulp 2^-24, though
    /// it rounds to 0.5 at the working precision. The next float up is 1 ulp off, not the 2
    /// that the gap below 0.5 would give; exp(-2^-120), just below 1, keeps the gap below.
    #[test]
    fn an_exact_value_just_beyond_a_power_of_two_keeps_its_binade() {
        let acospi = rules(ReferenceId::Acospi, Requirement::Ulp(4.0), false);
        let tiny = -(2f64.powi(-149));
        let case = acospi.judge_exactly(0, &[tiny], &[0.5 + 2f64.powi(-24)]);
        assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
        let exp = rules(ReferenceId::Exp, Requirement::Ulp(4.0), false);
        let case = exp.judge_exactly(0, &[-(2f64.powi(-120))], &[1.0 - 2f64.powi(-24)]);
        assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
        let case = exp.judge_exactly(0, &[2f64.powi(-120)], &[1.0 + 2f64.powi(-23)]);
        assert!((case.error - 1.0).abs() < 1e-6, "{}", case.error);
    }

    /// rootn's fast tiers: the float version passes the correctly rounded bits, the near
    /// approximation measures other results as MPFR does, except where the exact value's
    /// binade is in doubt (a root that is a power of two).
    #[test]
    fn rootn_is_measured_against_its_near_approximation() {
        let mut rootn = rules(ReferenceId::Rootn, Requirement::Ulp(16.0), false);
        rootn.outputs[0].fast_tier = true;
        let cube_root_of_ten = f64::from(10f64.cbrt() as f32);
        let two_ulp_off = f64::from(f32::from_bits((cube_root_of_ten as f32).to_bits() + 2));
        assert_eq!(
            rootn.fast_verdict(&[10.0, 3.0], &[cube_root_of_ten]),
            Some(FastVerdict::CorrectlyRounded)
        );
        let Some(FastVerdict::Pass(error)) = rootn.fast_verdict(&[10.0, 3.0], &[two_ulp_off])
        else {
            panic!("rootn(10, 3) two ulp off is measured");
        };
        let case = rootn.judge_exactly(0, &[10.0, 3.0], &[two_ulp_off]);
        assert!(
            (error - case.error).abs() < 1e-7 && error > 1.5,
            "{error} {}",
            case.error
        );
        assert_eq!(
            rootn.fast_verdict(&[8.0, 3.0], &[2.0]),
            Some(FastVerdict::CorrectlyRounded)
        );
        assert_eq!(rootn.fast_verdict(&[8.0, 3.0], &[next_up(2.0)]), None);
        assert_eq!(
            rootn.fast_verdict(&[-8.0, 2.0], &[f64::NAN]),
            Some(FastVerdict::Pass(0.0))
        );
    }

    #[test]
    fn mad_accepts_either_allowed_implementation() {
        let mad = rules(ReferenceId::Fma, Requirement::MadFmaOrMulAdd, false);
        let x = 1.0 - 2f64.powi(-24);
        let y = 1.0 + 2f64.powi(-24);
        assert_eq!(
            mad.judge(0, &[x, y, -1.0], &[-(2f64.powi(-48))]).outcome,
            Outcome::Pass
        );
        assert_eq!(mad.judge(0, &[x, y, -1.0], &[0.0]).outcome, Outcome::Pass);
        assert_eq!(
            mad.judge(0, &[x, y, -1.0], &[2f64.powi(-48)]).outcome,
            Outcome::Fail
        );
        // The fast tiers pass the correctly rounded fma, and a zero multiply-add (whose sign
        // they leave to MPFR). (Float operands: (1 + 2^-23)(1 − 2^-23) − 1 is −2^-46, the
        // product alone rounds to 1.)
        let mut mad = mad;
        mad.outputs[0].fast_tier = true;
        let args = [1.0 + 2f64.powi(-23), 1.0 - 2f64.powi(-23), -1.0];
        assert_eq!(
            mad.fast_verdict(&args, &[-(2f64.powi(-46))]),
            Some(FastVerdict::CorrectlyRounded)
        );
        assert_eq!(mad.fast_verdict(&args, &[0.0]), None);
        assert_eq!(mad.judge(0, &args, &[0.0]).outcome, Outcome::Pass);
        assert_eq!(mad.fast_verdict(&args, &[2f64.powi(-46)]), None);
    }

    /// A device result that is mad's multiply-then-add passes the fast tiers as MPFR passes
    /// it, with MPFR's error (against the exact fma): sampled half and float inputs, the
    /// multiply-add as MPFR rounds it as the device's result, and its neighbours, which only
    /// MPFR judges.
    #[test]
    fn mad_multiply_then_add_decides_as_mpfr_does() {
        let function = crate::spec::registry::find("mad").expect("mad");
        let mut decided = 0;
        for element in [FloatType::Half, FloatType::Float] {
            let mut mad = rules(ReferenceId::Fma, Requirement::MadFmaOrMulAdd, false);
            mad.outputs[0].fast_tier = true;
            mad.element = element;
            let kinds = [crate::spec::signature::ValueKind::FloatGentype; 3];
            let seed = crate::sweep::unit_seed(11, "mad", element, 1);
            let columns = crate::sweep::generate(function, element, &kinds, 12_000, 1, seed);
            for index in 0..columns[0].len() {
                let args: Vec<f64> = columns.iter().map(|column| column[index]).collect();
                let mul_then_add =
                    r::correctly_rounded(r::mul_then_add, &to_floats(&args), element).to_f64();
                let fma = r::correctly_rounded(r::fma, &to_floats(&args), element).to_f64();
                if !mul_then_add.is_finite() || mul_then_add == fma {
                    continue;
                }
                let bits = element.to_bits(mul_then_add);
                for device in [
                    mul_then_add,
                    element.from_bits(bits + 1),
                    element.from_bits(bits.saturating_sub(1)),
                ] {
                    let verdict = mad.fast_verdict(&args, &[device]);
                    if device == fma {
                        // The correctly rounded fma: the fma's tiers.
                        continue;
                    }
                    if device != mul_then_add {
                        assert_eq!(verdict, None, "mad({args:?}) {element}: {device:e}");
                        continue;
                    }
                    let case = mad.judge_exactly(0, &args, &[device]);
                    let Some(FastVerdict::Pass(error)) = verdict else {
                        // A zero, or an fma beside a power of two: MPFR's.
                        continue;
                    };
                    assert_eq!(case.outcome, Outcome::Pass, "mad({args:?}) {element}");
                    assert!(
                        (case.error - error).abs() <= 1e-6 * case.error.max(1.0),
                        "mad({args:?}) {element}: fast {error}, MPFR {}",
                        case.error
                    );
                    decided += 1;
                }
            }
        }
        assert!(decided > 300, "{decided}");
    }

    #[test]
    fn overflow_allowance_applies_only_where_the_bound_reaches_past_max() {
        let exp = rules(ReferenceId::Exp, Requirement::Ulp(3.0), false);
        // exp(89) ≈ 4.5e38 > FLT_MAX: infinity allowed (and counted as an allowance).
        let case = exp.judge(0, &[89.0], &[f64::INFINITY]);
        assert_eq!(case.outcome, Outcome::Allowed(Allowance::Overflow));
        assert_eq!(
            exp.judge(0, &[89.0], &[f64::from(f32::MAX)]).outcome,
            Outcome::Allowed(Allowance::Overflow)
        );
        // exp(80) ≈ 5.5e34: infinity is wrong.
        assert_eq!(
            exp.judge(0, &[80.0], &[f64::INFINITY]).outcome,
            Outcome::Fail
        );
        // Wrong sign is never allowed.
        assert_eq!(
            exp.judge(0, &[89.0], &[f64::NEG_INFINITY]).outcome,
            Outcome::Fail
        );
    }

    #[test]
    fn flush_to_zero_alternatives_apply_only_without_denormals() {
        let tiny = f64::from(f32::from_bits(100));
        // sin(tiny) = tiny: flushing the operand gives sin(±0) = ±0.
        let strict = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
        assert_eq!(strict.judge(0, &[tiny], &[0.0]).outcome, Outcome::Fail);
        let flushing = rules(ReferenceId::Sin, Requirement::Ulp(4.0), true);
        let case = flushing.judge(0, &[tiny], &[0.0]);
        assert_eq!(case.outcome, Outcome::Allowed(Allowance::FlushedResult));
        // A subnormal operand read as zero: FLT_MIN + tiny with tiny flushed gives FLT_MIN,
        // 100 ulp from the exact (representable) sum.
        let add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, true);
        let min_normal = f64::from(f32::MIN_POSITIVE);
        let sum_case = add.judge(0, &[min_normal, tiny], &[min_normal]);
        assert_eq!(
            sum_case.outcome,
            Outcome::Allowed(Allowance::FlushedOperands)
        );
        let strict_add = rules(ReferenceId::Add, Requirement::CorrectlyRounded, false);
        assert_eq!(
            strict_add
                .judge(0, &[min_normal, tiny], &[min_normal])
                .outcome,
            Outcome::Fail
        );
        // Flushing never excuses a wrong normal result.
        assert_eq!(flushing.judge(0, &[1.0], &[0.0]).outcome, Outcome::Fail);
    }

    #[test]
    fn integer_outputs_get_the_flushed_operand_rule() {
        let integer = |reference| Output {
            reference,
            check: OutputCheck::Integer,
            fast_tier: false,
        };
        let tiny = f64::from(f32::from_bits(100));
        let mut ilogb = with_outputs(vec![integer(ReferenceId::Ilogb)], Requirement::Exact);
        // ilogb(±0) is FP_ILOGB0, which the spec leaves open: any value, once x reads as 0.
        assert_eq!(
            ilogb.judge(0, &[tiny], &[-2147483648.0]).outcome,
            Outcome::Fail
        );
        ilogb.flushes_subnormals = true;
        assert_eq!(
            ilogb.judge(0, &[tiny], &[-2147483648.0]).outcome,
            Outcome::Allowed(Allowance::FlushedOperands)
        );
        // A normal input gets no allowance.
        assert_eq!(ilogb.judge(0, &[8.0], &[2.0]).outcome, Outcome::Fail);
        // remquo's quotient with a flushed divisor: remquo(1, ±0) has no quotient (NaN
        // remainder), and a flushed dividend gives quotient 0.
        let quotient = Output {
            reference: ReferenceId::RemquoQuotient,
            check: OutputCheck::QuotientLowBits,
            fast_tier: false,
        };
        let mut remquo = with_outputs(
            vec![table(ReferenceId::RemquoRemainder), quotient],
            Requirement::RemquoExact { quotient_bits: 7 },
        );
        remquo.flushes_subnormals = true;
        let case = remquo.judge(0, &[tiny, 1.0], &[0.0, 0.0]);
        assert_ne!(case.outcome, Outcome::Fail);
        let case = remquo.judge(0, &[tiny, 1.0], &[0.0, 1.0]);
        assert_eq!(case.outcome, Outcome::Fail);
    }

    #[test]
    fn nextafter_flush_results_in_the_sweep() {
        let mut nextafter = rules(ReferenceId::Nextafter, Requirement::Exact, true);
        nextafter.function = "nextafter";
        let min = f64::from(f32::MIN_POSITIVE);
        let allowed = |x: f64, y: f64, d: f64| nextafter.judge(0, &[x, y], &[d]).outcome;
        assert_eq!(
            allowed(min, 0.0, 0.0),
            Outcome::Allowed(Allowance::FlushedResult)
        );
        assert_eq!(
            allowed(-min, 1.0, -0.0),
            Outcome::Allowed(Allowance::FlushedResult)
        );
        assert_eq!(
            allowed(-0.0, 1.0, min),
            Outcome::Allowed(Allowance::FlushedResult)
        );
        assert_eq!(
            allowed(0.0, -1.0, -min),
            Outcome::Allowed(Allowance::FlushedResult)
        );
        // Not away from zero: nextafter(+smallest normal, 1) is its successor.
        assert_eq!(allowed(min, 1.0, 0.0), Outcome::Fail);
        // Wrong sign: the step goes towards y.
        assert_eq!(allowed(-0.0, 1.0, -min), Outcome::Fail);
        nextafter.flushes_subnormals = false;
        assert_eq!(
            nextafter.judge(0, &[min, 0.0], &[0.0]).outcome,
            Outcome::Fail
        );
    }

    /// The same step off zero from the other zero lands on the smallest normal too, as the
    /// Khronos CTS accepts: nextafter(+0, 0x1p-126) = 0x1p-126 (y normal, x not flushed, the
    /// exact result 2^-149 flushes to zero, and zero's neighbour is the smallest normal). Not
    /// where y is a zero or NaN, which the CTS accepts and clacc says it refuses.
    #[test]
    fn nextafter_steps_off_either_zero_to_the_smallest_normal_under_ftz() {
        let mut nextafter = rules(ReferenceId::Nextafter, Requirement::Exact, true);
        nextafter.function = "nextafter";
        let min = f64::from(f32::MIN_POSITIVE);
        let subnormal = 2f64.powi(-140);
        let case = |x: f64, y: f64, d: f64| nextafter.judge(0, &[x, y], &[d]);
        let allowed = Outcome::Allowed(Allowance::FlushedResult);
        for (x, y, d) in [
            (0.0, min, min),
            (0.0, 1.0, min),
            (-0.0, -1.0, -min),
            (0.0, f64::INFINITY, min),
            // y subnormal, not flushed: the step off zero still goes to y's side.
            (0.0, subnormal, min),
        ] {
            assert_eq!(
                case(x, y, d).outcome,
                allowed,
                "nextafter({x:e}, {y:e}) = {d:e}"
            );
        }
        // A subnormal x read as either zero: the same step.
        assert_ne!(case(subnormal, 1.0, min).outcome, Outcome::Fail);
        assert_ne!(case(subnormal, -1.0, -min).outcome, Outcome::Fail);
        // x == y returns y; a NaN operand gives a NaN: the CTS accepts these, clacc does not,
        // and its failing row says so.
        for (x, y, d) in [
            (0.0, 0.0, min),
            (0.0, -0.0, -min),
            (subnormal, 0.0, min),
            (0.0, f64::NAN, min),
        ] {
            let judged = case(x, y, d);
            assert_eq!(
                judged.outcome,
                Outcome::Fail,
                "nextafter({x:e}, {y:e}) = {d:e}"
            );
            assert_eq!(
                nextafter.stricter_than_cts(&judged),
                Some(NEXTAFTER_STRICTER_THAN_CTS)
            );
        }
        // A failure the CTS refuses too gets no such note: a wrong sign, a normal x.
        assert_eq!(nextafter.stricter_than_cts(&case(0.0, 0.0, -min)), None);
        assert_eq!(nextafter.stricter_than_cts(&case(1.0, 0.0, min)), None);
        // Without flushing the CTS takes no such result either: fails, no note.
        nextafter.flushes_subnormals = false;
        let plain = nextafter.judge(0, &[0.0, 1.0], &[min]);
        assert_eq!(plain.outcome, Outcome::Fail);
        assert_eq!(nextafter.stricter_than_cts(&plain), None);
    }

    #[test]
    fn zero_is_allowed_where_a_conforming_result_is_subnormal() {
        // Exact value 2 ulp above FLT_MIN under a 4 ulp bound: FLT_MIN - 2 ulp, a subnormal,
        // conforms, so FTZ result 2 allows zero; 5 ulp above, no subnormal is within 4 ulp.
        let min = f64::from(f32::MIN_POSITIVE);
        let step = f64::from(f32::from_bits(1));
        let mut add = rules(ReferenceId::Add, Requirement::Ulp(4.0), true);
        assert_eq!(
            add.judge(0, &[min + 2.0 * step, 0.0], &[0.0]).outcome,
            Outcome::Allowed(Allowance::FlushedResult)
        );
        assert_eq!(
            add.judge(0, &[min + 5.0 * step, 0.0], &[0.0]).outcome,
            Outcome::Fail
        );
        add.flushes_subnormals = false;
        assert_eq!(
            add.judge(0, &[min + 2.0 * step, 0.0], &[0.0]).outcome,
            Outcome::Fail
        );
    }

    #[test]
    fn double_without_denormals_or_rte_is_not_conformant() {
        use crate::spec::fp_config::FpConfig;
        let denorm = 1;
        let nearest = 1 << 2;
        let zero = 1 << 3;
        let config = |bits| FpConfig(bits);
        assert!(nonconformance(config(nearest), FloatType::Double, true).is_some());
        assert!(nonconformance(config(denorm | zero), FloatType::Double, false).is_some());
        assert!(nonconformance(config(denorm | zero), FloatType::Float, true).is_some());
        assert!(nonconformance(config(zero), FloatType::Float, false).is_none());
        assert!(nonconformance(config(zero), FloatType::Half, true).is_none());
        // Double never flushes by allowance; float flushes under the options that allow it.
        assert!(flush_to_zero_reason(config(nearest), FloatType::Double, true, true).is_none());
        assert!(flush_to_zero_reason(config(nearest), FloatType::Half, false, false).is_some());
        let full = config(denorm | nearest);
        assert!(flush_to_zero_reason(full, FloatType::Float, false, false).is_none());
        assert!(flush_to_zero_reason(full, FloatType::Float, true, false).is_some());
        assert!(flush_to_zero_reason(full, FloatType::Float, false, true).is_some());
        assert!(flush_to_zero_reason(full, FloatType::Half, true, true).is_none());
    }

    #[test]
    fn nan_must_meet_nan() {
        let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
        assert_eq!(
            sin.judge(0, &[f64::INFINITY], &[f64::NAN]).outcome,
            Outcome::Pass
        );
        assert_eq!(
            sin.judge(0, &[f64::INFINITY], &[0.0]).outcome,
            Outcome::Fail
        );
        assert_eq!(sin.judge(0, &[1.0], &[f64::NAN]).outcome, Outcome::Fail);
    }

    /// A row's verdict with its lookups made once ([`Rules::known_columns_verdict`]) is
    /// [`Rules::fast_verdict_with`]'s on every input and result: every float function of the
    /// registry that has one, under a ULP bound, a 0-ulp, correctly rounded and
    /// implementation-defined cell, with and without flushing subnormals, on sampled inputs
    /// and extremes, with the correctly rounded result, its neighbours, results a few and
    /// many ulp away, zeros, the largest finite value, infinities and NaN as the device's.
    /// Rows it must refuse (relaxed, finite math, a directed rounding) have none.
    #[test]
    fn known_columns_verdicts_are_fast_verdicts() {
        use crate::spec::registry::FUNCTIONS;
        let element = FloatType::Float;
        let mut compared = 0;
        let mut functions = Vec::new();
        for function in FUNCTIONS {
            let Some(kinds) = argument_kinds(function.shape) else {
                continue;
            };
            let seed = crate::sweep::unit_seed(9, function.name, element, 1);
            let mut columns = crate::sweep::generate(function, element, &kinds, 300, 1, seed);
            for extreme in [0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, 1e9, 3e38, f64::INFINITY] {
                for column in columns.iter_mut() {
                    column.push(element.round(extreme));
                }
            }
            for requirement in [
                Requirement::Ulp(4.0),
                Requirement::Ulp(0.0),
                Requirement::CorrectlyRounded,
                Requirement::ImplementationDefined,
            ] {
                for flushes_subnormals in [false, true] {
                    let rules = Rules {
                        function: function.name,
                        flushes_subnormals,
                        ..with_outputs(function.outputs.to_vec(), requirement.clone())
                    };
                    let Some(known) = rules.known_columns_verdict() else {
                        continue;
                    };
                    let [output] = function.outputs else {
                        unreachable!("one output")
                    };
                    let float_version = binding::float_tier(output).expect("has one");
                    let double_tier = binding::fast_tier(output).expect("has one");
                    functions.push(function.name);
                    for index in 0..columns[0].len() {
                        let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                        let correct = float_version(&args);
                        let double = double_tier(&args);
                        let step = |steps: i64| ulps_away(correct, element, steps);
                        let max = element.max_finite();
                        for device_result in [
                            correct,
                            step(1),
                            step(-1),
                            step(2),
                            step(3),
                            step(-4),
                            step(5),
                            step(1000),
                            -correct,
                            0.0,
                            -0.0,
                            max,
                            -max,
                            f64::INFINITY,
                            f64::NEG_INFINITY,
                            f64::NAN,
                        ] {
                            let expected = rules.fast_verdict_with(
                                &mut FastReference::new(),
                                &args,
                                &[device_result],
                            );
                            assert_eq!(
                                known.verdict(&args, correct, double, device_result),
                                expected,
                                "{}({args:?}) = {device_result:e}, {requirement:?}, \
                                 flushing {flushes_subnormals}",
                                function.name
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
        for expected in ["sin", "cos", "exp", "log", "pow", "tan"] {
            assert!(functions.contains(&expected), "{expected}: {functions:?}");
        }
        assert!(compared > 100_000, "{compared}");
        // The rows it refuses: another rounding, a relaxed build, finite math.
        let sin = FUNCTIONS.iter().find(|f| f.name == "sin").expect("sin");
        let full = Rules {
            function: "sin",
            ..with_outputs(sin.outputs.to_vec(), Requirement::Ulp(4.0))
        };
        assert!(full.known_columns_verdict().is_some());
        for refused in [
            Rules {
                rounding: Round::Zero,
                requirement: Requirement::CorrectlyRounded,
                ..full.clone()
            },
            Rules {
                finite_math_only: true,
                ..full.clone()
            },
            Rules {
                element: FloatType::Half,
                ..full.clone()
            },
        ] {
            assert!(refused.known_columns_verdict().is_none(), "{refused:?}");
        }
    }

    pub(super) fn with_outputs(outputs: Vec<Output>, requirement: Requirement) -> Rules {
        Rules {
            function: "test",
            outputs,
            requirement,
            element: FloatType::Float,
            flushes_subnormals: false,
            rounding: Round::Nearest,
            relaxed: None,
            embedded: false,
            finite_math_only: false,
        }
    }

    fn table(reference: ReferenceId) -> Output {
        Output {
            reference,
            check: OutputCheck::Table,
            fast_tier: false,
        }
    }

    #[test]
    fn each_output_is_judged_by_its_own_rule() {
        let sincos = with_outputs(
            vec![table(ReferenceId::Sin), table(ReferenceId::Cos)],
            Requirement::UlpEachOutput(4.0),
        );
        let x = 0.5f32;
        let (sine, cosine) = (f64::from(x.sin()), f64::from(x.cos()));
        assert_eq!(
            sincos.judge(0, &[0.5], &[sine, cosine]).outcome,
            Outcome::Pass
        );
        let wrong_cosine = sincos.judge(0, &[0.5], &[sine, cosine * 1.01]);
        assert_eq!(wrong_cosine.outcome, Outcome::Fail);
        assert_eq!(wrong_cosine.output, 1);

        let integer = |reference| Output {
            reference,
            check: OutputCheck::Integer,
            fast_tier: false,
        };
        let frexp = with_outputs(
            vec![
                table(ReferenceId::FrexpMantissa),
                integer(ReferenceId::FrexpExponent),
            ],
            Requirement::Exact,
        );
        assert_eq!(frexp.judge(0, &[12.0], &[0.75, 4.0]).outcome, Outcome::Pass);
        assert_eq!(frexp.judge(0, &[12.0], &[0.75, 3.0]).outcome, Outcome::Fail);
        // An unspecified integer output (ilogb(0) is FP_ILOGB0) accepts any value.
        let ilogb = with_outputs(vec![integer(ReferenceId::Ilogb)], Requirement::Exact);
        assert_eq!(
            ilogb.judge(0, &[0.0], &[-2147483648.0]).outcome,
            Outcome::Pass
        );
        assert_eq!(ilogb.judge(0, &[8.0], &[2.0]).outcome, Outcome::Fail);

        // Tables 3 and 4 make lgamma_r implementation-defined, its sign output included:
        // measured, never failed (the edge-case rules still check prescribed signs).
        let lgamma_r = with_outputs(
            vec![table(ReferenceId::Lgamma), integer(ReferenceId::LgammaSign)],
            Requirement::ImplementationDefined,
        );
        assert_eq!(
            lgamma_r.judge(0, &[-0.5], &[1.2655, 1.0]).outcome,
            Outcome::Measured
        );
    }

    #[test]
    fn remquo_needs_the_remainder_exactly_and_seven_quotient_bits() {
        let quotient = Output {
            reference: ReferenceId::RemquoQuotient,
            check: OutputCheck::QuotientLowBits,
            fast_tier: false,
        };
        let remquo = with_outputs(
            vec![table(ReferenceId::RemquoRemainder), quotient],
            Requirement::RemquoExact { quotient_bits: 7 },
        );
        // 1000.5 / 0.5 = 2001 exactly: remainder 0, quotient 2001 = 0b11111010001.
        assert_eq!(
            remquo.judge(0, &[1000.5, 0.5], &[0.0, 2001.0]).outcome,
            Outcome::Pass
        );
        // Only the low 7 bits (and the sign) are required: 2001 mod 128 = 81, also when the
        // true quotient is beyond 2^53 (2^100 / 3 has quotient 2^100/3 rounded).
        let big = 2f64.powi(100);
        let exact = Float::with_val(200, big) / 3u32;
        let mut quotient = exact.clone();
        quotient.round_even_mut();
        let low = (quotient.to_integer().unwrap() % 128u32).to_f64();
        let rem = remquo.judge(0, &[big, 3.0], &[0.0, low]).references[0].to_f64();
        assert_eq!(
            remquo.judge(0, &[big, 3.0], &[rem, low]).outcome,
            Outcome::Pass
        );
        assert_eq!(
            remquo.judge(0, &[big, 3.0], &[rem, low + 1.0]).outcome,
            Outcome::Fail
        );
        assert_eq!(
            remquo.judge(0, &[1000.5, 0.5], &[0.0, 81.0]).outcome,
            Outcome::Pass
        );
        assert_eq!(
            remquo.judge(0, &[1000.5, 0.5], &[0.0, 80.0]).outcome,
            Outcome::Fail
        );
        assert_eq!(
            remquo.judge(0, &[-1000.5, 0.5], &[0.0, 81.0]).outcome,
            Outcome::Fail
        );
        assert_eq!(
            remquo.judge(0, &[-1000.5, 0.5], &[-0.0, -81.0]).outcome,
            Outcome::Pass
        );
        assert_eq!(
            remquo.judge(0, &[1000.5, 0.5], &[0.5, 2001.0]).outcome,
            Outcome::Fail
        );
    }

    #[test]
    fn merge_is_associative_and_keeps_the_worst_failure() {
        let sin = rules(ReferenceId::Sin, Requirement::Ulp(4.0), false);
        let cases: Vec<Case> = (0..9)
            .map(|i| {
                let x = 0.5 + f64::from(i) / 8.0;
                let right = f64::from((x as f32).sin());
                let device = if i == 4 { right * 1.001 } else { right };
                sin.judge(i as u64, &[f64::from(x as f32)], &[device])
            })
            .collect();
        let stats = |range: std::ops::Range<usize>| {
            let mut s = UnitStats::default();
            for case in &cases[range] {
                s.record_region(input_region(&case.args, FloatType::Float), case);
                s.record(case.clone());
            }
            s
        };
        let settled = |mut s: UnitStats| {
            s.settle();
            s
        };
        let mut left = stats(0..3);
        let mut middle = stats(3..6);
        middle.merge(stats(6..9));
        left.merge(middle);
        let mut right_first = stats(0..3);
        right_first.merge(stats(3..6));
        right_first.merge(stats(6..9));
        let whole = settled(stats(0..9));
        for merged in [&settled(left), &settled(right_first)] {
            assert_eq!(merged.error_map, whole.error_map);
            assert_eq!(merged.inputs, whole.inputs);
            assert_eq!(merged.failures, 1);
            assert_eq!(merged.max_error, whole.max_error);
            assert_eq!(merged.worst.as_ref().unwrap().index, 4);
        }
    }
}

/// The 2026 text's absolute tolerances (mix, smoothstep; cross and dot's max² · K · EPSILON).
#[cfg(test)]
mod absolute_tests {
    use super::tests::rules;
    use super::*;
    use crate::report::stats::UnitStats;
    use crate::spec::reference_id::ReferenceId;
    use crate::spec::table::{Epsilon, Linear};

    /// lgamma's cells are implementation-defined: measured, never failed. lgamma(FLT_MAX) is
    /// about 2^134, so +inf is its correctly rounded float: no error, not an infinite one;
    /// a finite result there is measured as it is.
    #[test]
    fn an_implementation_defined_cell_takes_a_correctly_rounded_overflow_as_no_error() {
        let lgamma = Rules {
            function: "lgamma",
            ..rules(
                ReferenceId::Lgamma,
                Requirement::ImplementationDefined,
                false,
            )
        };
        let max = f64::from(f32::MAX);
        let overflow = lgamma.judge(0, &[max], &[f64::INFINITY]);
        assert_eq!(overflow.outcome, Outcome::Pass);
        let mut stats = UnitStats::default();
        stats.record(overflow);
        assert_eq!(stats.max_error, 0.0);
        let finite = lgamma.judge(1, &[max], &[max]);
        assert_eq!(finite.outcome, Outcome::Measured);
        assert!(finite.error > 1.0);
        let wrong_sign = lgamma.judge(2, &[max], &[f64::NEG_INFINITY]);
        assert_eq!(wrong_sign.outcome, Outcome::Measured);
        assert!(wrong_sign.error.is_infinite());
    }

    #[test]
    fn absolute_tolerance_passes_within_and_fails_beyond() {
        let mix = rules(ReferenceId::Mix, Requirement::Absolute(1e-3), false);
        // mix(1, 2, 0.25) = 1.25 exactly.
        let near = f64::from(1.25f32 + 5e-4);
        let case = mix.judge(0, &[1.0, 2.0, 0.25], &[near]);
        assert_eq!(case.outcome, Outcome::Pass);
        assert!(case.absolute);
        assert!((case.error - 5e-4).abs() < 1e-7, "{}", case.error);
        let far = f64::from(1.25f32 + 2e-3);
        assert_eq!(
            mix.judge(0, &[1.0, 2.0, 0.25], &[far]).outcome,
            Outcome::Fail
        );
        assert_eq!(
            mix.judge(0, &[1.0, 2.0, 0.25], &[f64::NAN]).outcome,
            Outcome::Fail
        );
    }

    #[test]
    fn max_squared_tolerance_scales_with_the_largest_argument() {
        // fmax(x, y) stands in for a dot product: the tolerance is max² · 3 · FLT_EPSILON.
        let requirement = Requirement::AbsoluteMaxSquared {
            operations: Linear {
                constant: 3.0,
                per_component: 0.0,
            },
            epsilon: Epsilon::Flt,
        };
        let rules = rules(ReferenceId::Fmax, requirement, false);
        let tolerance = 64.0 * 3.0 * 2f64.powi(-23);
        let args = [8.0, 1.0];
        let within = 8.0 + tolerance * 0.5;
        assert_eq!(rules.judge(0, &args, &[within]).outcome, Outcome::Pass);
        let beyond = 8.0 + tolerance * 4.0;
        assert_eq!(rules.judge(0, &args, &[beyond]).outcome, Outcome::Fail);
    }
}
