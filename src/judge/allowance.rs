//! The spec's allowances, each written once for every judge that applies it: the overflow
//! allowance of a ULP bound, and on a device without denormals the flush-to-zero results
//! ("Edge Case Behavior in Flush To Zero Mode", 003_606d5394990817d6.txt) — a flushed
//! result, flushed operands, nextafter's own — with why they apply to a unit
//! ([`flush_to_zero_reason`]). MPFR's path (`crate::judge::mpfr`) tries them, in order,
//! on a result its rule refuses.

use crate::judge::{to_floats, Rules};
use crate::num::fp::FloatType;
use crate::num::ulp::{ulp_error, ulp_of};
use crate::reference::{self, ReferenceFn};
use crate::report::stats::{Allowance, Case, Outcome};
use crate::spec::fp_config::FpConfig;
use crate::spec::table::Requirement;
use rug::Float;

/// The overflow allowance of a ULP bound: "Where the range of allowed return values includes
/// any value of magnitude larger than that of the largest representable finite floating-point
/// number, operations may, additionally, return either an infinity of the appropriate sign or
/// the finite number with the largest magnitude of the appropriate sign"
/// (002_8f60b82f04afe871.txt, "ULP"). The allowed range of an `n` ulp bound is
/// [x − n·ulp(x), x + n·ulp(x)] around the exact result x: when it reaches beyond the largest
/// finite value, ±inf or ±max with x's sign are allowed too. Tables 3 and 4 (`judge::Rules`)
/// and Table 5's ulp bounds (`judge::relaxed`) both judge by it.
pub fn overflow_allowed(exact: &Float, bound: f64, device_result: f64, element: FloatType) -> bool {
    let max = element.max_finite();
    let candidate = device_result.is_infinite() || device_result.abs() == max;
    if !candidate || !exact.is_finite() {
        return false;
    }
    if device_result.is_sign_negative() != exact.is_sign_negative() {
        return false;
    }
    let mut reach = Float::with_val(exact.prec() + 64, &*exact.as_abs());
    reach += bound * ulp_of(exact, element);
    reach > max
}

/// Why the flush-to-zero rules ("Edge Case Behavior in Flush To Zero Mode") apply to `element`
/// in a unit, or `None` when subnormals must be honoured. "Support for denormalized numbers is
/// required for double precision", so never for double: a double config without
/// CL_FP_DENORM is a [`crate::judge::nonconformance`], not an allowance. For float and half, a
/// config without CL_FP_DENORM; for float also `-cl-denorms-are-zero`, and
/// `-cl-fast-relaxed-math` (which implies `-cl-unsafe-math-optimizations`: clacc reads the FTZ
/// rules as the bound on what flushing may change there, see docs/judging.md, "Flush to zero
/// and relaxed math").
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

/// The inputs with some subnormal operands read as zero: each subnormal operand stays, or
/// becomes +0, or becomes −0 ("the sign of the zero is undefined"): 3^k − 1 alternatives.
pub(in crate::judge) fn flushed_alternatives(
    args: &[f64],
    element: FloatType,
) -> impl Iterator<Item = Vec<f64>> + '_ {
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

/// Whether the exact value is non-zero and below the smallest normal in magnitude.
fn subnormal_before_rounding(exact: &Float, element: FloatType) -> bool {
    exact.is_finite() && !exact.is_zero() && exact.get_exp().is_some_and(|e| e - 1 < element.emin())
}

/// [`Rules::stricter_than_cts`]'s note.
pub const NEXTAFTER_STRICTER_THAN_CTS: &str =
    "stricter than the Khronos CTS: under flush to zero it accepts nextafter(x, y) = \
     copysign(FLT_MIN, y) for every zero or subnormal x; clacc not where y is a zero (x, read \
     as zero, equals y, which nextafter returns) or NaN (a NaN operand gives a NaN)";

impl Rules {
    /// An integer output's verdict: the exact value, or (flush to zero, FTZ result 3) the
    /// exact value for the inputs with some subnormal operands read as zeros: ilogb(x),
    /// frexp's exponent, remquo's quotient of a flushed operand.
    pub(in crate::judge) fn integer_outcome(
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
    pub(in crate::judge) fn conforming_result_may_be_subnormal(
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
    /// other zero, nextafter(+0, y > 0) and nextafter(-0, y < 0), lands there too
    /// (docs/judging.md, "Readings clacc takes"), as the Khronos CTS accepts. Not where y is a
    /// zero (x == y returns y) or NaN (a NaN operand gives a NaN), which the CTS accepts as
    /// well ([`Rules::stricter_than_cts`]).
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

    /// The first allowance that accepts `device_result`, if any.
    pub(in crate::judge) fn allowance(
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
