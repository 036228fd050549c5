//! Exact judging of conversion results.
//!
//! # Judgement
//!
//! "Conversion between floating-point formats and explicit conversions must be correctly
//! rounded" (003_606d5394990817d6.txt, "Relative Error as ULPs"), in the decoration's mode or
//! the default one ("Rounding Modes for Conversions"): every result must have exactly the bits
//! of [`convert::float_to_float`] / [`convert::int_to_float`] / [`convert::float_to_int`] (any
//! NaN for a NaN; the sign of zero counts). Allowances, counted in the `allowed` column:
//!
//! - a device without denormals for the destination type (no `CL_FP_DENORM`, e.g. half on the
//!   Intel CPU runtime) may return ±0 where the exact value is subnormal before rounding
//!   ("Edge Case Behavior in Flush To Zero Mode", results 2 and 4: `ftz-result`);
//! - a device without denormals for the source type may read a subnormal operand as ±0 and
//!   return that zero's conversion (results 3 and 4: `ftz-operands`); "the sign of the zero is
//!   undefined" in both.
//!
//! A float-to-integer conversion without `SaturatedConversion` whose value is out of the
//! destination's range (infinities included) or NaN has no defined result: such inputs are
//! counted in [`UnitStats::undefined`] and not judged. With the decoration they are judged
//! (clamped; NaN gives 0).
//!
//! `max_ulp` is 0 for every unit: the checks are exact, there is no error to measure. The
//! `worst_reference` column holds the result the spec requires (not the unrounded source,
//! which `worst_input` already shows).
//!

use rug::Float;

use crate::num::convert::{self, ConvertResult};
use crate::num::fp::FloatType;
use crate::report::stats::{Allowance, Case, Outcome, UnitStats};
use crate::spec::conversion::{int_value, Conversion};

/// Judges one unit's results: the conversion and the device's flush-to-zero facts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judge {
    pub conversion: Conversion,
    /// The destination float type has no denormals on the device (FTZ results 2 and 4).
    pub flush_result: bool,
    /// The source float type has no denormals on the device (FTZ results 3 and 4).
    pub flush_operand: bool,
}

/// The verdict on one input, before a [`Case`] is made of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Verdict {
    Pass,
    Allowed(Allowance),
    Fail,
    /// No defined result (not judged).
    Undefined,
}

impl Judge {
    /// The judge of `conversion` on a device where `flushes` tells which float types have no
    /// denormals.
    pub(crate) fn new(conversion: Conversion, flushes: impl Fn(FloatType) -> bool) -> Judge {
        let (flush_result, flush_operand) = match conversion {
            Conversion::FloatToFloat { from, to, .. } => (flushes(to), flushes(from)),
            Conversion::IntToFloat { to, .. } => (flushes(to), false),
            Conversion::FloatToInt { from, .. } => (false, flushes(from)),
        };
        Judge {
            conversion,
            flush_result,
            flush_operand,
        }
    }

    /// The exact value of a source element's bits.
    fn source_value(&self, bits: u64) -> SourceValue {
        match self.conversion {
            Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
                SourceValue::Float(from.from_bits(bits))
            }
            Conversion::IntToFloat { from, .. } => SourceValue::Int(int_value(bits, from)),
        }
    }

    /// The result the spec requires for a source element.
    fn expected(&self, source: SourceValue) -> ConvertResult {
        match (self.conversion, source) {
            (Conversion::FloatToFloat { to, .. }, SourceValue::Float(x)) => {
                ConvertResult::Float(convert::float_to_float(x, to, self.conversion.rounding()))
            }
            (Conversion::IntToFloat { from, to, .. }, SourceValue::Int(n)) => ConvertResult::Float(
                convert::int_to_float(n, from, to, self.conversion.rounding()),
            ),
            (Conversion::FloatToInt { to, saturated, .. }, SourceValue::Float(x)) => {
                convert::float_to_int(x, to, self.conversion.rounding(), saturated)
            }
            _ => unreachable!("source values follow the conversion's source type"),
        }
    }

    /// Whether the device's destination bits are `expected`: the same bits, or any NaN for a
    /// NaN.
    fn matches(&self, expected: ConvertResult, device_bits: u64) -> bool {
        match (expected, self.conversion) {
            (ConvertResult::Float(want), Conversion::FloatToFloat { to, .. })
            | (ConvertResult::Float(want), Conversion::IntToFloat { to, .. }) => {
                let got = to.from_bits(device_bits);
                if want.is_nan() {
                    got.is_nan()
                } else {
                    to.to_bits(want) == device_bits
                }
            }
            (ConvertResult::Int(want), Conversion::FloatToInt { to, .. }) => {
                int_value(device_bits, to) == want
            }
            _ => false,
        }
    }

    /// Judges one element: source bits in, destination bits out.
    pub(crate) fn verdict(&self, source_bits: u64, device_bits: u64) -> Verdict {
        let source = self.source_value(source_bits);
        let expected = self.expected(source);
        if let ConvertResult::Undefined(_) = expected {
            return Verdict::Undefined;
        }
        if self.matches(expected, device_bits) {
            return Verdict::Pass;
        }
        let SourceValue::Float(x) = source else {
            return Verdict::Fail;
        };
        let zero_result = match self.conversion {
            Conversion::FloatToFloat { to, .. } => to.from_bits(device_bits) == 0.0,
            Conversion::FloatToInt { .. } => device_bits == 0,
            Conversion::IntToFloat { .. } => false,
        };
        if self.flush_result && zero_result {
            if let Conversion::FloatToFloat { to, .. } = self.conversion {
                if x != 0.0 && x.abs() < 2f64.powi(to.emin()) {
                    return Verdict::Allowed(Allowance::FlushedResult);
                }
            }
        }
        if self.flush_operand {
            let from = match self.conversion {
                Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => from,
                Conversion::IntToFloat { .. } => unreachable!("integer sources have no subnormals"),
            };
            // The flushed operand's conversion is a zero (of either sign: FTZ says the sign of a
            // flushed zero is undefined), and an integer 0.
            if from.is_subnormal(x) && zero_result {
                return Verdict::Allowed(Allowance::FlushedOperands);
            }
        }
        Verdict::Fail
    }

    /// The full record of one judged element, for the worst case of the report.
    fn case(&self, index: u64, source_bits: u64, device_bits: u64, verdict: Verdict) -> Case {
        let source = self.source_value(source_bits);
        let expected = self.expected(source);
        let arg = match source {
            SourceValue::Float(x) => x,
            SourceValue::Int(n) => n as f64,
        };
        let (device, reference) = match self.conversion {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => {
                let want = match expected {
                    ConvertResult::Float(want) => want,
                    _ => f64::NAN,
                };
                (to.from_bits(device_bits), Float::with_val(64, want))
            }
            Conversion::FloatToInt { to, .. } => {
                let got = int_value(device_bits, to);
                let want = match expected {
                    ConvertResult::Int(want) => Float::with_val(128, want),
                    _ => Float::with_val(53, f64::NAN),
                };
                (got as f64, want)
            }
        };
        Case {
            index,
            args: vec![arg],
            device_results: vec![device],
            references: vec![reference],
            error: 0.0,
            absolute: false,
            outcome: match verdict {
                Verdict::Pass => Outcome::Pass,
                Verdict::Allowed(allowance) => Outcome::Allowed(allowance),
                Verdict::Fail | Verdict::Undefined => Outcome::Fail,
            },
            output: 0,
            lanes: Vec::new(),
        }
    }

    /// The exact source value of a case whose `f64` argument is not exact (64-bit integers).
    pub(crate) fn inexact_source(&self, source_bits: u64) -> Option<i128> {
        match self.source_value(source_bits) {
            SourceValue::Int(n) if (n as f64) as i128 != n => Some(n),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum SourceValue {
    Float(f64),
    Int(i128),
}

/// Judges a chunk on `threads` threads, each a contiguous slice, merged in order (the result
/// does not depend on the thread count). Only failures and each slice's first input become
/// [`Case`]s: passes are counted, so an exhaustive sweep allocates nothing per input, and the
/// merged worst case is the one recording every case would give (the first failure, else the
/// first input, since every error is 0).
pub(crate) fn judge_chunk(
    judge: &Judge,
    offset: u64,
    sources: &[u64],
    results: &[u64],
    threads: usize,
) -> UnitStats {
    let slice = sources.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = sources
            .chunks(slice)
            .zip(results.chunks(slice))
            .enumerate()
            .map(|(number, (sources, results))| {
                let first = offset + (number * slice) as u64;
                scope.spawn(move || {
                    let mut stats = UnitStats::default();
                    for (i, (source, result)) in sources.iter().zip(results).enumerate() {
                        let verdict = judge.verdict(*source, *result);
                        let index = first + i as u64;
                        match verdict {
                            Verdict::Undefined => stats.undefined += 1,
                            Verdict::Fail => {
                                stats.record(judge.case(index, *source, *result, verdict))
                            }
                            Verdict::Pass if i == 0 => {
                                stats.record(judge.case(index, *source, *result, verdict))
                            }
                            Verdict::Pass => stats.inputs += 1,
                            Verdict::Allowed(allowance) => {
                                stats.inputs += 1;
                                stats.allowed[allowance as usize] += 1;
                            }
                        }
                    }
                    stats
                })
            })
            .collect();
        let mut merged = UnitStats::default();
        for handle in handles {
            merged.merge(handle.join().expect("judging thread panicked"));
        }
        merged
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::convert::{IntType, Rounding};
    use crate::spec::conversion::int_bits;

    fn judge(conversion: Conversion, flush_result: bool, flush_operand: bool) -> Judge {
        Judge {
            conversion,
            flush_result,
            flush_operand,
        }
    }

    fn half_bits(x: f64) -> u64 {
        FloatType::Half.to_bits(x)
    }

    fn float_bits(x: f64) -> u64 {
        FloatType::Float.to_bits(x)
    }

    #[test]
    fn judging_needs_the_exact_bits_in_the_unit_s_mode() {
        let rtz = judge(
            Conversion::FloatToFloat {
                from: FloatType::Float,
                to: FloatType::Half,
                rounding: Some(Rounding::Rtz),
            },
            false,
            false,
        );
        // 1 + 2^-11 + 2^-20 lies above the tie between 1 and 1 + 2^-10.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-20);
        assert_eq!(rtz.verdict(float_bits(x), half_bits(1.0)), Verdict::Pass);
        let up = 1.0 + 2f64.powi(-10);
        assert_eq!(rtz.verdict(float_bits(x), half_bits(up)), Verdict::Fail);
        // Overflow under RTZ gives the largest finite value, not infinity.
        assert_eq!(
            rtz.verdict(float_bits(1.0e6), half_bits(65504.0)),
            Verdict::Pass
        );
        assert_eq!(
            rtz.verdict(float_bits(1.0e6), half_bits(f64::INFINITY)),
            Verdict::Fail
        );
        // The sign of zero counts; any NaN meets a NaN.
        assert_eq!(
            rtz.verdict(float_bits(-0.0), half_bits(-0.0)),
            Verdict::Pass
        );
        assert_eq!(rtz.verdict(float_bits(-0.0), half_bits(0.0)), Verdict::Fail);
        assert_eq!(rtz.verdict(0x7fc0_0000, 0xfe01), Verdict::Pass);
        assert_eq!(rtz.verdict(0x7fc0_0000, half_bits(0.0)), Verdict::Fail);
    }

    #[test]
    fn flush_to_zero_allowances_apply_only_where_the_device_flushes() {
        let to_half = Conversion::FloatToFloat {
            from: FloatType::Float,
            to: FloatType::Half,
            rounding: None,
        };
        let subnormal_half = 2f64.powi(-20);
        let strict = judge(to_half, false, false);
        assert_eq!(
            strict.verdict(float_bits(subnormal_half), half_bits(0.0)),
            Verdict::Fail
        );
        let flushing = judge(to_half, true, false);
        for zero in [0.0, -0.0] {
            assert_eq!(
                flushing.verdict(float_bits(subnormal_half), half_bits(zero)),
                Verdict::Allowed(Allowance::FlushedResult)
            );
        }
        // Just below the smallest normal is subnormal before rounding, even where it rounds up.
        let below_normal = 2f64.powi(-14) - 2f64.powi(-30);
        assert_eq!(
            flushing.verdict(float_bits(below_normal), half_bits(0.0)),
            Verdict::Allowed(Allowance::FlushedResult)
        );
        // A normal result is never flushed.
        assert_eq!(
            flushing.verdict(float_bits(2f64.powi(-14)), half_bits(0.0)),
            Verdict::Fail
        );
        // A subnormal half operand read as zero.
        let to_float = Conversion::FloatToFloat {
            from: FloatType::Half,
            to: FloatType::Float,
            rounding: None,
        };
        let reading_zero = judge(to_float, false, true);
        assert_eq!(
            reading_zero.verdict(half_bits(2f64.powi(-24)), float_bits(-0.0)),
            Verdict::Allowed(Allowance::FlushedOperands)
        );
        assert_eq!(
            judge(to_float, false, false).verdict(half_bits(2f64.powi(-24)), float_bits(0.0)),
            Verdict::Fail
        );
        assert_eq!(
            reading_zero.verdict(half_bits(1.0), float_bits(0.0)),
            Verdict::Fail
        );
    }

    #[test]
    fn out_of_range_integers_are_undefined_unless_saturated() {
        let plain = judge(
            Conversion::FloatToInt {
                from: FloatType::Float,
                to: IntType::U8,
                saturated: false,
            },
            false,
            false,
        );
        assert_eq!(plain.verdict(float_bits(300.0), 44), Verdict::Undefined);
        assert_eq!(plain.verdict(0x7fc0_0000, 7), Verdict::Undefined);
        assert_eq!(plain.verdict(float_bits(-0.75), 0), Verdict::Pass);
        assert_eq!(plain.verdict(float_bits(200.9), 200), Verdict::Pass);
        assert_eq!(plain.verdict(float_bits(200.9), 201), Verdict::Fail);
        let saturated = judge(
            Conversion::FloatToInt {
                from: FloatType::Float,
                to: IntType::I8,
                saturated: true,
            },
            false,
            false,
        );
        assert_eq!(saturated.verdict(float_bits(300.0), 127), Verdict::Pass);
        assert_eq!(saturated.verdict(float_bits(-300.0), 0x80), Verdict::Pass);
        assert_eq!(
            saturated.verdict(float_bits(f64::NEG_INFINITY), 0x80),
            Verdict::Pass
        );
        assert_eq!(saturated.verdict(0x7fc0_0000, 0), Verdict::Pass);
        assert_eq!(saturated.verdict(0x7fc0_0000, 127), Verdict::Fail);
        assert_eq!(
            saturated.verdict(float_bits(-3.5), int_bits(-3, IntType::I8)),
            Verdict::Pass
        );
    }

    #[test]
    fn integer_sources_round_in_the_unit_s_mode() {
        let rtp = judge(
            Conversion::IntToFloat {
                from: IntType::U64,
                to: FloatType::Float,
                rounding: Some(Rounding::Rtp),
            },
            false,
            false,
        );
        // 2^24 + 1 lies between 2^24 and 2^24 + 2.
        let n = (1u64 << 24) + 1;
        assert_eq!(rtp.verdict(n, float_bits(16777218.0)), Verdict::Pass);
        assert_eq!(rtp.verdict(n, float_bits(16777216.0)), Verdict::Fail);
        assert_eq!(
            rtp.verdict(u64::MAX, float_bits(2f64.powi(64))),
            Verdict::Pass
        );
        let to_half = judge(
            Conversion::IntToFloat {
                from: IntType::I16,
                to: FloatType::Half,
                rounding: None,
            },
            true,
            false,
        );
        // -32768 is exact in half; 0 converts to +0, never -0 (flushing does not excuse it).
        assert_eq!(to_half.verdict(0x8000, half_bits(-32768.0)), Verdict::Pass);
        assert_eq!(to_half.verdict(0, half_bits(-0.0)), Verdict::Fail);
    }
}
