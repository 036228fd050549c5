//! Verdicts of the extension checks: float8 conversions against [`crate::num::float8`] (any
//! NaN code for a NaN, the extension's overflow rule), float_controls2 results against IEEE
//! arithmetic with the flags' freedoms, the fence against the fenced order's value.

use rug::Float;

use crate::num::convert::{self, ConvertResult, Rounding};
use crate::num::fp::FloatType;
use crate::report::stats::Allowance;
use crate::spec::conversion::int_value;
use crate::spec::extension::{Arithmetic, Fc2Check, Flags, Float8Check, Other};

/// The verdict on one float8 element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict8 {
    Pass,
    Allowed(Allowance),
    Fail,
    Undefined,
}

impl Float8Check {
    /// The exact value of a source element (a float, an integer or a float8 code).
    pub(crate) fn source_value(&self, bits: u64) -> Float {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            } => Float::with_val(64, element.from_bits(bits)),
            Float8Check::To {
                from: Other::Int(int),
                ..
            } => Float::with_val(128, int_value(bits, *int)),
            Float8Check::From { from, .. } => Float::with_val(64, from.decode(bits as u8)),
        }
    }

    /// Judges one element. `flush_operand`: the device has no denormals for a half or float
    /// source; `flush_result`: none for a half or float destination.
    pub fn verdict(
        &self,
        source_bits: u64,
        device_bits: u64,
        flush_operand: bool,
        flush_result: bool,
    ) -> Verdict8 {
        match *self {
            Float8Check::To { from, to, saturate } => {
                let value = self.source_value(source_bits);
                let code = device_bits as u8;
                if to.accepts(&value, Rounding::TO_FLOAT_DEFAULT, saturate, code) {
                    return Verdict8::Pass;
                }
                // A subnormal half or float operand read as ±0 converts to ±0.
                if let Other::Float(element) = from {
                    let x = element.from_bits(source_bits);
                    if flush_operand && element.is_subnormal(x) && code & 0x7f == 0 {
                        return Verdict8::Allowed(Allowance::FlushedOperands);
                    }
                }
                Verdict8::Fail
            }
            Float8Check::From { from, to, saturate } => {
                let x = from.decode(source_bits as u8);
                match to {
                    Other::Float(element) => {
                        let got = element.from_bits(device_bits);
                        if x.is_nan() && got.is_nan() || element.to_bits(x) == device_bits {
                            return Verdict8::Pass;
                        }
                        if flush_result && element.is_subnormal(x) && got == 0.0 {
                            return Verdict8::Allowed(Allowance::FlushedResult);
                        }
                        Verdict8::Fail
                    }
                    Other::Int(int) => {
                        match convert::float_to_int(x, int, Rounding::TO_INT_DEFAULT, saturate) {
                            ConvertResult::Int(want) if int_value(device_bits, int) == want => {
                                Verdict8::Pass
                            }
                            ConvertResult::Undefined(_) => Verdict8::Undefined,
                            _ => Verdict8::Fail,
                        }
                    }
                }
            }
        }
    }

    /// (argument, device result, required result) of an element, for a report's worst case:
    /// float8 codes are shown as their values.
    pub fn case_values(&self, source_bits: u64, device_bits: u64) -> (f64, f64, Float) {
        match *self {
            Float8Check::To { to, saturate, .. } => {
                let value = self.source_value(source_bits);
                let want = to.decode(to.encode(&value, Rounding::TO_FLOAT_DEFAULT, saturate));
                (
                    value.to_f64(),
                    to.decode(device_bits as u8),
                    Float::with_val(53, want),
                )
            }
            Float8Check::From { from, to, saturate } => {
                let x = from.decode(source_bits as u8);
                match to {
                    Other::Float(element) => {
                        (x, element.from_bits(device_bits), Float::with_val(53, x))
                    }
                    Other::Int(int) => {
                        let want =
                            match convert::float_to_int(x, int, Rounding::TO_INT_DEFAULT, saturate)
                            {
                                ConvertResult::Int(n) => Float::with_val(128, n),
                                _ => Float::with_val(53, f64::NAN),
                            };
                        (x, int_value(device_bits, int) as f64, want)
                    }
                }
            }
        }
    }
}

impl Fc2Check {
    /// Judges one instruction's result, in the check's type: operands `x`, `y` and the
    /// `device` result are values of that type widened to `f64`. `Undefined` where a flag
    /// applies (NotInf with an infinite operand or result, NotNaN with a NaN one: "anything"
    /// is allowed), otherwise the IEEE result, where NSZ also accepts the results of zero
    /// operands of the other sign and a zero of either sign for a zero. One rule for every
    /// type: only [`Arithmetic::apply`]'s rounding and the largest finite value depend on it.
    pub fn verdict(&self, op: Arithmetic, x: f64, y: f64, device: f64) -> Verdict8 {
        let element = self.element;
        let operands = op.operands(x, y);
        let ieee = op.apply(element, x, y);
        let applies = match self.flags {
            Flags::NotInf => ieee.is_infinite() || operands.iter().any(|v| v.is_infinite()),
            Flags::NotNan => ieee.is_nan() || operands.iter().any(|v| v.is_nan()),
            Flags::None | Flags::Nsz => false,
        };
        if applies {
            return Verdict8::Undefined;
        }
        // Widening is exact, so equal bits in f64 are equal bits in the type.
        let same =
            |want: f64| (want.is_nan() && device.is_nan()) || want.to_bits() == device.to_bits();
        if same(ieee) || op == Arithmetic::FDiv && division_overflow(element, ieee, device) {
            return Verdict8::Pass;
        }
        if self.flags != Flags::Nsz {
            return Verdict8::Fail;
        }
        // NSZ: every choice of sign for the zero operands, and either sign of a zero result.
        let flips = |v: f64| if v == 0.0 { vec![v, -v] } else { vec![v] };
        for xs in flips(x) {
            for ys in flips(y) {
                let want = op.apply(element, xs, ys);
                if same(want) || want == 0.0 && device == 0.0 {
                    return Verdict8::Pass;
                }
            }
        }
        Verdict8::Fail
    }
}

/// OpFDiv need not be correctly rounded; where the exact quotient overflows, the largest
/// finite value of `element` of the right sign is as good as the infinity (no test input's
/// quotient overflows, M / ±4 and M / M are exact, but a caller's may).
fn division_overflow(element: FloatType, ieee: f64, device: f64) -> bool {
    ieee.is_infinite() && device.abs() == element.max_finite() && ieee.signum() == device.signum()
}

/// The fenced order's result: `(a + b) + c`, each addition rounded once.
pub fn fenced(triple: [f32; 3]) -> f32 {
    (triple[0] + triple[1]) + triple[2]
}

/// Whether a device's fenced result is right: the fenced order's value (zeros by value: the
/// additions carry NSZ).
pub fn fence_verdict(triple: [f32; 3], device: f32) -> bool {
    device == fenced(triple)
}
