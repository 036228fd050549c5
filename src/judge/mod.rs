//! Judging device results against the spec's requirement for one (function, type).
//!
//! Per input: compare with the reference by the requirement's own rule (bits for correctly
//! rounded and exact results, [`crate::num::ulp::ulp_error`] against a bound otherwise); when
//! that fails, try the allowances the spec grants, in order, and record which one accepted the
//! result:
//! - overflow: "Where the range of allowed return values includes any value of magnitude larger
//!   than that of the largest representable finite floating-point number, operations may,
//!   additionally, return either an infinity of the appropriate sign or the finite number with
//!   the largest magnitude of the appropriate sign" (002_8f60b82f04afe871.txt, "ULP");
//! - flush to zero, on a device without denormals for the type: "Edge Case Behavior in Flush To
//!   Zero Mode" (003_606d5394990817d6.txt), its four results.
//!
//! Results reduce through `crate::report::stats::UnitStats::merge`, which is associative, so
//! threads, chunks and shards combine into what one pass would give.
//!
//! The rooms: [`Rules`] and the entry point [`Rules::judge`] are here; `tiers` decides what a
//! fast reference proves without MPFR (its rooms: the exact tier, the double tier, a sweep's
//! bulk passes, the column tiers); [`slice`] judges a slice of a sweep in bulk; `mpfr` judges everything else exactly; [`allowance`] holds the overflow and
//! flush-to-zero allowances; [`relaxed`] applies Table 5 (`-cl-fast-relaxed-math`); [`edge`],
//! [`conversion`] and [`extension`] judge the edge-case, conversion and extension units.

#[cfg(test)]
mod absolute_tests;
pub mod allowance;
pub mod conversion;
pub mod edge;
pub mod extension;
mod mpfr;
#[cfg(test)]
mod registry_tests;
pub mod relaxed;
pub mod slice;
#[cfg(test)]
mod tests;
mod tiers;
pub mod vulkan;

pub use allowance::flush_to_zero_reason;
pub use tiers::{ColumnTier, ColumnTiers, FastReference, KnownColumnsVerdict, RemquoColumnVerdict};

use crate::num::fp::FloatType;
use crate::reference;
use crate::report::stats::Case;
use crate::spec::fp_config::FpConfig;
use crate::spec::registry::Output;
use crate::spec::relaxed_table::RelaxedRule;
use crate::spec::table::Requirement;
use rug::float::Round;
use rug::Float;

/// Everything that decides how one unit's results are judged.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The spec table's name of the function (`nextafter` has flush-to-zero results of its
    /// own).
    pub function: &'static str,
    /// The function's results, in the kernel's order, each with its reference and check.
    pub outputs: Vec<Output>,
    /// The table cell for the function and type (judges
    /// [`crate::spec::registry::OutputCheck::Table`] results).
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
    /// On the vulkan path: the shader's execution modes and the type its ULP counts are in.
    /// Every table output is then judged by [`vulkan::judge`]'s rules: by the Vulkan tier where
    /// the double reference proves the verdict (`tiers::vulkan_tier`), else with MPFR's exact
    /// value; no bulk tier decides one (their rules know neither the modes nor the cells).
    pub vulkan: Option<VulkanJudging>,
}

/// What [`vulkan::judge`] needs beyond the cell: the unit's modes and ULP unit
/// ([`crate::spec::vulkan::column`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VulkanJudging {
    pub modes: vulkan::Modes,
    pub unit: FloatType,
}

#[cfg(test)]
impl Rules {
    /// The tests' rules: `function`'s outputs judged by `requirement` for `element` on a
    /// device with denormals, rounding to nearest, full profile, nothing relaxed or assumed
    /// finite; a test changes what it needs with `..`.
    pub(crate) fn of_test(
        function: &'static str,
        outputs: Vec<Output>,
        requirement: Requirement,
        element: FloatType,
    ) -> Rules {
        Rules {
            function,
            outputs,
            requirement,
            element,
            flushes_subnormals: false,
            rounding: Round::Nearest,
            relaxed: None,
            embedded: false,
            finite_math_only: false,
            vulkan: None,
        }
    }
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
            vulkan,
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
            && *vulkan == other.vulkan
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

/// `args` as MPFR operands.
pub(in crate::judge) fn to_floats(args: &[f64]) -> Vec<Float> {
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

impl Rules {
    /// Judges one input: `args` are the values the device was given (in the format), and
    /// `device_results` what it returned, one per output. The fast tier answers where it can
    /// prove a pass; everything else — failures, results near the bound, special values — is
    /// judged with MPFR.
    pub fn judge(&self, index: u64, args: &[f64], device_results: &[f64]) -> Case {
        self.judge_fast(index, args, device_results)
            .unwrap_or_else(|| self.judge_exactly(index, args, device_results))
    }
}
