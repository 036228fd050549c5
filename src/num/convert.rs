//! Exact reference results for the conversion instructions: `OpFConvert` between half, float and
//! double, `OpConvertSToF` / `OpConvertUToF` from every integer width, and `OpConvertFToS` /
//! `OpConvertFToU` with and without the `SaturatedConversion` decoration. The float8 encodings
//! of SPV_EXT_float8 live in [`crate::num::float8`] and share this module's rounding core.
//!
//! What decides the results:
//!
//! - OpenCL SPIR-V Environment Specification (003_606d5394990817d6.txt), "Rounding Modes for
//!   Conversions": "If no rounding mode is specified explicitly then the default rounding mode
//!   for OpenCL conversion operations is: Round to nearest even, for conversions to
//!   floating-point types. Round toward zero, for conversions from floating-point to integer
//!   types." ([`Rounding::TO_FLOAT_DEFAULT`], [`Rounding::TO_INT_DEFAULT`]).
//! - Same document, "Relative Error as ULPs": "Conversion between floating-point formats and
//!   explicit conversions must be correctly rounded." Every result here is the exact source
//!   value rounded once, in the requested mode, to the destination's precision and exponent
//!   range (subnormals included). Overflow follows IEEE 754: round to nearest and rounding away
//!   from zero give an infinity, rounding toward zero gives the largest finite value.
//! - SPIR-V, decoration `SaturatedConversion`: "Indicates that a conversion to an integer type
//!   which is outside the representable range of Result Type will be clamped to the nearest
//!   representable value of Result Type. NaN will be converted to 0."
//! - Without that decoration neither SPIR-V (`OpConvertFToS`: "Convert value numerically from
//!   floating point to signed integer, with round toward 0.0.") nor the environment
//!   specification gives a result for an out-of-range value or a NaN (C99 6.3.1.4, which
//!   OpenCL C builds on, calls it undefined behaviour); [`float_to_int`] answers
//!   [`ConvertResult::Undefined`] there instead of inventing a value.
//!
//! Everything is exact integer arithmetic on the source's significand and exponent; nothing
//! depends on the host's casts or rounding mode.

use std::cmp::Ordering;
use std::fmt;

use crate::num::fp::FloatType;

/// A rounding mode, named as SPIR-V's `FPRoundingMode` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Round to nearest, ties to even (`RTE`).
    Rte,
    /// Round toward zero (`RTZ`).
    Rtz,
    /// Round toward positive infinity (`RTP`).
    Rtp,
    /// Round toward negative infinity (`RTN`).
    Rtn,
}

impl Rounding {
    pub const ALL: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

    /// The mode of a conversion to a floating-point type without an `FPRoundingMode` decoration.
    pub const TO_FLOAT_DEFAULT: Rounding = Rounding::Rte;

    /// The mode of a conversion from floating point to an integer type without a decoration.
    pub const TO_INT_DEFAULT: Rounding = Rounding::Rtz;

    /// Lower-case name, as in OpenCL C's `convert_T_rte` suffixes: `rte`, `rtz`, `rtp`, `rtn`.
    pub fn name(self) -> &'static str {
        match self {
            Rounding::Rte => "rte",
            Rounding::Rtz => "rtz",
            Rounding::Rtp => "rtp",
            Rounding::Rtn => "rtn",
        }
    }

    /// Whether an inexact value of sign `negative` is rounded to the neighbour farther from
    /// zero by a directed mode (never asked for `Rte`, which decides by distance).
    fn rounds_away(self, negative: bool) -> bool {
        match self {
            Rounding::Rte | Rounding::Rtz => false,
            Rounding::Rtp => !negative,
            Rounding::Rtn => negative,
        }
    }
}

impl fmt::Display for Rounding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An integer type a conversion reads or writes (SPIR-V `OpTypeInt` width and signedness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

impl IntType {
    pub const ALL: [IntType; 8] = [
        IntType::I8,
        IntType::U8,
        IntType::I16,
        IntType::U16,
        IntType::I32,
        IntType::U32,
        IntType::I64,
        IntType::U64,
    ];

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntType::I8 | IntType::U8 => 8,
            IntType::I16 | IntType::U16 => 16,
            IntType::I32 | IntType::U32 => 32,
            IntType::I64 | IntType::U64 => 64,
        }
    }

    /// Whether the type is signed (two's complement).
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntType::I8 | IntType::I16 | IntType::I32 | IntType::I64
        )
    }

    /// The smallest value of the type.
    pub fn min(self) -> i128 {
        if self.is_signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    /// The largest value of the type.
    pub fn max(self) -> i128 {
        if self.is_signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// Whether `value` is a value of the type.
    pub fn contains(self, value: i128) -> bool {
        (self.min()..=self.max()).contains(&value)
    }

    /// The OpenCL C name: `char`, `uchar`, `short`, `ushort`, `int`, `uint`, `long`, `ulong`.
    pub fn name(self) -> &'static str {
        match self {
            IntType::I8 => "char",
            IntType::U8 => "uchar",
            IntType::I16 => "short",
            IntType::U16 => "ushort",
            IntType::I32 => "int",
            IntType::U32 => "uint",
            IntType::I64 => "long",
            IntType::U64 => "ulong",
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result a conversion must produce.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConvertResult {
    /// A value of the destination floating-point format, widened exactly to `f64` (NaN for NaN).
    Float(f64),
    /// A value of the destination integer type.
    Int(i128),
    /// The specifications define no result; the text says why and cites the sentence.
    Undefined(&'static str),
    /// A float8 encoding (see [`crate::num::float8::Float8Format`] for which NaN codes are
    /// interchangeable).
    Float8(u8),
}

/// Why a NaN converted to an integer without `SaturatedConversion` has no defined result.
pub const UNDEFINED_NAN_TO_INT: &str = "NaN converted to an integer type without \
     SaturatedConversion: no result is defined; SPIR-V defines one only under that decoration \
     (\"NaN will be converted to 0.\")";

/// Why an out-of-range value converted to an integer without `SaturatedConversion` (an infinity
/// included) has no defined result.
pub const UNDEFINED_OUT_OF_RANGE_TO_INT: &str = "out-of-range value converted to an integer \
     type without SaturatedConversion: no result is defined; SPIR-V defines one only under that \
     decoration (\"Indicates that a conversion to an integer type which is outside the \
     representable range of Result Type will be clamped to the nearest representable value of \
     Result Type.\")";

/// `OpFConvert` of the exact value `value` (any half, float or double, widened to `f64`) to
/// `to`, rounded once in `rounding` ([`Rounding::TO_FLOAT_DEFAULT`] when the instruction has no
/// `FPRoundingMode`). The destination's subnormals are produced, not flushed. Overflow per IEEE
/// 754: an infinity for RTE and for the directed mode that rounds away from zero, the largest
/// finite value of the right sign otherwise. ±0 and ±inf keep their sign; a NaN gives a NaN
/// (its sign and payload are not specified).
pub fn float_to_float(value: f64, to: FloatType, rounding: Rounding) -> f64 {
    if value.is_nan() {
        return f64::NAN;
    }
    if value.is_infinite() {
        return value;
    }
    let (negative, significand, exponent) = split_f64(value);
    let rounded = round_to(
        BinaryFormat::of(to),
        negative,
        u128::from(significand),
        exponent,
        rounding,
    );
    ieee_result(to, rounded, rounding)
}

/// `OpConvertSToF` / `OpConvertUToF` of `value`, a value of `from`, to `to`, rounded once in
/// `rounding`. A magnitude past the destination's range overflows per IEEE 754 as in
/// [`float_to_float`] (e.g. `ushort` 65535 to half: +inf under RTE and RTP, 65504 under RTZ
/// and RTN). Zero converts to +0.
///
/// # Panics
/// When `value` is not a value of `from`.
pub fn int_to_float(value: i128, from: IntType, to: FloatType, rounding: Rounding) -> f64 {
    assert!(from.contains(value), "{value} is not a {from} value");
    let rounded = round_to(
        BinaryFormat::of(to),
        value < 0,
        value.unsigned_abs(),
        0,
        rounding,
    );
    ieee_result(to, rounded, rounding)
}

/// `OpConvertFToS` / `OpConvertFToU` of the exact value `value` to `to`. The value is rounded to
/// an integer in `rounding` ([`Rounding::TO_INT_DEFAULT`], toward zero, without a decoration);
/// an integer outside `to`'s range, an infinity or a NaN then gives, with `saturated` (the
/// `SaturatedConversion` decoration), the range's nearest end (NaN gives 0), and without it
/// [`ConvertResult::Undefined`] ([`UNDEFINED_OUT_OF_RANGE_TO_INT`], [`UNDEFINED_NAN_TO_INT`]).
/// The range is judged after rounding: -0.75 to `uchar` is 0 under RTZ and RTE but out of range
/// under RTN.
pub fn float_to_int(value: f64, to: IntType, rounding: Rounding, saturated: bool) -> ConvertResult {
    if value.is_nan() {
        return if saturated {
            ConvertResult::Int(0)
        } else {
            ConvertResult::Undefined(UNDEFINED_NAN_TO_INT)
        };
    }
    match round_to_integer(value, rounding).filter(|integer| to.contains(*integer)) {
        Some(integer) => ConvertResult::Int(integer),
        None if saturated => ConvertResult::Int(if value < 0.0 { to.min() } else { to.max() }),
        None => ConvertResult::Undefined(UNDEFINED_OUT_OF_RANGE_TO_INT),
    }
}

/// A binary floating-point format as rounding sees it: finite values are
/// ±significand × 2^(e − precision + 1) with e in [emin, emax] and a significand of `precision`
/// bits, subnormals at e = emin; the largest finite value is `max_significand` × 2^(emax −
/// precision + 1) (all ones for IEEE formats, one less for float8 E4M3, whose all-ones code is
/// its NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BinaryFormat {
    pub precision: u32,
    pub emin: i32,
    pub emax: i32,
    pub max_significand: u64,
}

impl BinaryFormat {
    pub(crate) fn of(element: FloatType) -> BinaryFormat {
        BinaryFormat {
            precision: element.precision(),
            emin: element.emin(),
            emax: element.emax(),
            max_significand: (1u64 << element.precision()) - 1,
        }
    }

    /// Exponent of the last significand bit of the subnormals (and of the smallest normals).
    pub(crate) fn min_quantum(self) -> i64 {
        i64::from(self.emin) - i64::from(self.precision) + 1
    }

    /// Exponent of the last significand bit of the top binade.
    pub(crate) fn max_quantum(self) -> i64 {
        i64::from(self.emax) - i64::from(self.precision) + 1
    }
}

/// An exact value rounded to a [`BinaryFormat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rounded {
    /// ±significand × 2^quantum: significand < 2^precision, quantum >= the format's minimum,
    /// and significand >= 2^(precision − 1) unless quantum is the minimum (zero and subnormals).
    Finite {
        negative: bool,
        significand: u64,
        quantum: i64,
    },
    /// Rounded with an unbounded exponent range, the magnitude exceeds the largest finite value.
    Overflow { negative: bool },
}

/// Rounds ±magnitude × 2^exponent (exact) to `format` in `rounding`, once: the quantum (the
/// weight of the last kept bit) is the value's own binade's, but never below the subnormals'.
pub(crate) fn round_to(
    format: BinaryFormat,
    negative: bool,
    magnitude: u128,
    exponent: i64,
    rounding: Rounding,
) -> Rounded {
    if magnitude == 0 {
        return Rounded::Finite {
            negative,
            significand: 0,
            quantum: format.min_quantum(),
        };
    }
    let precision = i64::from(format.precision);
    let leading = exponent + 127 - i64::from(magnitude.leading_zeros());
    let mut quantum = (leading - precision + 1).max(format.min_quantum());
    let mut significand = if quantum <= exponent {
        // Exact: at most `precision` bits once shifted.
        magnitude << (exponent - quantum)
    } else {
        divide_by_power_of_two(magnitude, quantum - exponent, negative, rounding)
    };
    if significand >> precision != 0 {
        // Rounded up into the next binade: 2^precision × 2^q = 2^(precision − 1) × 2^(q + 1).
        significand >>= 1;
        quantum += 1;
    }
    let significand = u64::try_from(significand).expect("significand fits the precision");
    let max_quantum = format.max_quantum();
    if quantum > max_quantum || (quantum == max_quantum && significand > format.max_significand) {
        return Rounded::Overflow { negative };
    }
    Rounded::Finite {
        negative,
        significand,
        quantum,
    }
}

/// magnitude / 2^shift (shift > 0) rounded to an integer in `rounding`, for a value of sign
/// `negative`.
fn divide_by_power_of_two(magnitude: u128, shift: i64, negative: bool, rounding: Rounding) -> u128 {
    debug_assert!(shift > 0);
    let (quotient, remainder, half) = match shift {
        1..=127 => (
            magnitude >> shift,
            magnitude & ((1u128 << shift) - 1),
            Some(1u128 << (shift - 1)),
        ),
        // The whole magnitude is the remainder; half is 2^127.
        128 => (0, magnitude, Some(1u128 << 127)),
        // The whole magnitude is the remainder, below half (2^128 or more).
        _ => (0, magnitude, None),
    };
    let remainder_vs_half = half.map_or(Ordering::Less, |half| remainder.cmp(&half));
    let inexact = remainder != 0;
    let up = match rounding {
        Rounding::Rte => {
            remainder_vs_half == Ordering::Greater
                || (remainder_vs_half == Ordering::Equal && quotient & 1 == 1)
        }
        _ => inexact && rounding.rounds_away(negative),
    };
    quotient + u128::from(up)
}

/// The exact value of a finite `f64`: (negative, significand, exponent) with value
/// ±significand × 2^exponent.
pub(crate) fn split_f64(value: f64) -> (bool, u64, i64) {
    let bits = value.to_bits();
    let negative = bits >> 63 != 0;
    let field = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    if field == 0 {
        (negative, fraction, -1074)
    } else {
        (negative, fraction | (1u64 << 52), field - 1075)
    }
}

/// ±significand × 2^exponent as an `f64`; the value must be one an `f64` holds exactly.
pub(crate) fn exact_f64(negative: bool, significand: u64, exponent: i64) -> f64 {
    let sign = u64::from(negative) << 63;
    if significand == 0 {
        return f64::from_bits(sign);
    }
    let top = 63 - i64::from(significand.leading_zeros());
    let leading = top + exponent;
    let bits = if leading >= -1022 {
        assert!(leading <= 1023 && top <= 52, "not an f64 value");
        let normalized = significand << (52 - top);
        (((leading + 1023) as u64) << 52) | (normalized & ((1u64 << 52) - 1))
    } else {
        // A subnormal: a multiple of 2^-1074 below 2^-1022.
        let shift = exponent + 1074;
        assert!(shift >= 0, "not an f64 value");
        significand << shift
    };
    f64::from_bits(sign | bits)
}

/// The `f64` an IEEE format's rounding result stands for, overflow resolved per IEEE 754.
fn ieee_result(to: FloatType, rounded: Rounded, rounding: Rounding) -> f64 {
    match rounded {
        Rounded::Finite {
            negative,
            significand,
            quantum,
        } => exact_f64(negative, significand, quantum),
        Rounded::Overflow { negative } => {
            let magnitude = if rounding == Rounding::Rte || rounding.rounds_away(negative) {
                f64::INFINITY
            } else {
                to.max_finite()
            };
            if negative {
                -magnitude
            } else {
                magnitude
            }
        }
    }
}

/// A finite or infinite `value` rounded to an integer in `rounding`; `None` when that integer
/// lies outside every [`IntType`] (|value| >= 2^100, or an infinity).
fn round_to_integer(value: f64, rounding: Rounding) -> Option<i128> {
    if value.is_infinite() {
        return None;
    }
    let (negative, significand, exponent) = split_f64(value);
    let magnitude = if exponent >= 0 {
        if exponent > 100 - 53 {
            return None;
        }
        u128::from(significand) << exponent
    } else {
        divide_by_power_of_two(u128::from(significand), -exponent, negative, rounding)
    };
    let magnitude = i128::try_from(magnitude).expect("below 2^100");
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::float::Round;
    use rug::{Float, Integer};

    fn mpfr_round(rounding: Rounding) -> Round {
        match rounding {
            Rounding::Rte => Round::Nearest,
            Rounding::Rtz => Round::Zero,
            Rounding::Rtp => Round::Up,
            Rounding::Rtn => Round::Down,
        }
    }

    /// Every finite half value, ascending, with -0 left out (0 stands for both zeros).
    fn finite_halves_ascending() -> Vec<f64> {
        let mut values: Vec<f64> = (0..=u16::MAX)
            .map(|bits| half::f16::from_bits(bits).to_f64())
            .filter(|value| value.is_finite() && !(*value == 0.0 && value.is_sign_negative()))
            .collect();
        values.sort_by(|a, b| a.partial_cmp(b).unwrap());
        values
    }

    /// An independent reference for rounding an exact `x` to half: find the two half values
    /// around it by search, then pick by mode; ties go to the one whose encoding is even. Past
    /// the largest finite value the neighbour above is 2^16 (even), which means overflow.
    fn half_by_neighbours(ascending: &[f64], x: f64, rounding: Rounding) -> f64 {
        let max = 65504.0;
        let overflow = |negative: bool| {
            let to_infinity = match rounding {
                Rounding::Rte => true,
                Rounding::Rtz => false,
                Rounding::Rtp => !negative,
                Rounding::Rtn => negative,
            };
            let magnitude = if to_infinity { f64::INFINITY } else { max };
            if negative {
                -magnitude
            } else {
                magnitude
            }
        };
        if x.abs() >= 65536.0 {
            return overflow(x < 0.0);
        }
        if let Ok(index) = ascending.binary_search_by(|v| v.partial_cmp(&x).unwrap()) {
            return ascending[index];
        }
        let above = ascending.partition_point(|v| *v < x);
        // Virtual neighbours ±2^16 stand in for the overflow side.
        let low = if above == 0 {
            -65536.0
        } else {
            ascending[above - 1]
        };
        let high = if above == ascending.len() {
            65536.0
        } else {
            ascending[above]
        };
        let even = |v: f64| v.abs() == 65536.0 || half::f16::from_f64(v).to_bits() & 1 == 0;
        let pick_low = match rounding {
            Rounding::Rtn => true,
            Rounding::Rtp => false,
            Rounding::Rtz => x > 0.0,
            Rounding::Rte => {
                let (below, over) = (x - low, high - x);
                below < over || (below == over && even(low))
            }
        };
        let chosen = if pick_low { low } else { high };
        if chosen.abs() > max {
            return overflow(chosen < 0.0);
        }
        if chosen == 0.0 && x < 0.0 {
            return -0.0;
        }
        chosen
    }

    /// An independent bit-level float -> half conversion (guard and sticky bits, carries
    /// propagating from the fraction into the exponent field).
    fn f32_to_f16_bits(x: f32, rounding: Rounding) -> u16 {
        let bits = x.to_bits();
        let sign = ((bits >> 16) & 0x8000) as u16;
        let negative = sign != 0;
        let field = ((bits >> 23) & 0xff) as i32;
        let fraction = bits & 0x7f_ffff;
        if field == 0xff {
            return sign | 0x7c00 | if fraction != 0 { 0x200 } else { 0 };
        }
        if field == 0 && fraction == 0 {
            return sign;
        }
        let away = match rounding {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => !negative,
            Rounding::Rtn => negative,
        };
        let half_field = field.max(1) - 127 + 15;
        if half_field >= 31 {
            return sign | if away { 0x7c00 } else { 0x7bff };
        }
        let significand = if field == 0 {
            fraction
        } else {
            fraction | 0x80_0000
        };
        let shift = if half_field >= 1 {
            13
        } else {
            (13 + 1 - half_field) as u32
        };
        let (kept, guard, sticky) = if shift >= 32 {
            (0, false, significand != 0)
        } else {
            (
                significand >> shift,
                (significand >> (shift - 1)) & 1 == 1,
                significand & ((1 << (shift - 1)) - 1) != 0,
            )
        };
        let base = if half_field >= 1 {
            ((half_field as u32) << 10) + (kept & 0x3ff)
        } else {
            kept
        };
        let increment = match rounding {
            Rounding::Rte => guard && (sticky || kept & 1 == 1),
            Rounding::Rtz => false,
            _ => away && (guard || sticky),
        };
        sign | (base + u32::from(increment)) as u16
    }

    fn same(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
    }

    #[test]
    fn rounding_names_and_defaults() {
        let names: Vec<String> = Rounding::ALL.iter().map(|r| r.to_string()).collect();
        assert_eq!(names, ["rte", "rtz", "rtp", "rtn"]);
        assert_eq!(Rounding::TO_FLOAT_DEFAULT, Rounding::Rte);
        assert_eq!(Rounding::TO_INT_DEFAULT, Rounding::Rtz);
    }

    #[test]
    fn int_type_ranges() {
        assert_eq!((IntType::I8.min(), IntType::I8.max()), (-128, 127));
        assert_eq!((IntType::U8.min(), IntType::U8.max()), (0, 255));
        assert_eq!(IntType::I16.min(), i128::from(i16::MIN));
        assert_eq!(IntType::U16.max(), i128::from(u16::MAX));
        assert_eq!(IntType::I32.max(), i128::from(i32::MAX));
        assert_eq!(IntType::U32.max(), i128::from(u32::MAX));
        assert_eq!(IntType::I64.min(), i128::from(i64::MIN));
        assert_eq!(IntType::U64.max(), i128::from(u64::MAX));
        assert!(!IntType::U64.contains(-1));
        assert_eq!(IntType::U16.to_string(), "ushort");
    }

    #[test]
    fn every_half_converts_to_float_exactly_and_back() {
        for bits in 0..=u16::MAX {
            let value = half::f16::from_bits(bits);
            let exact = f64::from(value.to_f32());
            for rounding in Rounding::ALL {
                let float = float_to_float(value.to_f64(), FloatType::Float, rounding);
                assert!(same(float, exact), "{bits:#06x} {rounding}");
                let back = float_to_float(float, FloatType::Half, rounding);
                if value.is_nan() {
                    assert!(back.is_nan());
                } else {
                    assert_eq!(
                        FloatType::Half.to_bits(back),
                        u64::from(bits),
                        "{bits:#06x}"
                    );
                }
                let double = float_to_float(value.to_f64(), FloatType::Double, rounding);
                assert!(same(double, exact));
            }
        }
    }

    #[test]
    fn sampled_floats_to_half_match_a_bit_level_conversion() {
        // Every 997th encoding, plus every encoding around the half range's edges.
        let mut samples: Vec<u32> = (0..=u32::MAX).step_by(997).collect();
        for edge in [
            0x3380_0000u32,
            0x3300_0000,
            0x3880_0000,
            0x477f_e000,
            0x4780_0000,
        ] {
            samples.extend(edge - 0x4000..edge + 0x4000);
        }
        for bits in samples {
            for sign in [0, 0x8000_0000] {
                let x = f32::from_bits(bits ^ sign);
                for rounding in Rounding::ALL {
                    let got = float_to_float(f64::from(x), FloatType::Half, rounding);
                    let want = f32_to_f16_bits(x, rounding);
                    if x.is_nan() {
                        assert!(got.is_nan());
                    } else {
                        assert_eq!(
                            FloatType::Half.to_bits(got),
                            u64::from(want),
                            "{x:e} ({:#010x}) {rounding}",
                            x.to_bits()
                        );
                    }
                }
                // The `half` crate rounds to nearest even on its own.
                let independent = half::f16::from_f32(x).to_f64();
                let got = float_to_float(f64::from(x), FloatType::Half, Rounding::Rte);
                assert!(same(got, independent), "{x:e}");
            }
        }
    }

    #[test]
    fn half_edges_in_every_mode() {
        let half = FloatType::Half;
        let tiny = 2f64.powi(-24);
        let cases: [(f64, [f64; 4]); 8] = [
            // value: [rte, rtz, rtp, rtn]
            (65504.0, [65504.0; 4]),
            (65519.0, [65504.0, 65504.0, f64::INFINITY, 65504.0]),
            (65520.0, [f64::INFINITY, 65504.0, f64::INFINITY, 65504.0]),
            (
                -65520.0,
                [f64::NEG_INFINITY, -65504.0, -65504.0, f64::NEG_INFINITY],
            ),
            (tiny / 2.0, [0.0, 0.0, tiny, 0.0]),
            (-tiny / 2.0, [-0.0, -0.0, -0.0, -tiny]),
            (tiny * 1.5, [2.0 * tiny, tiny, 2.0 * tiny, tiny]),
            (
                2f64.powi(-14) - tiny / 2.0,
                [
                    2f64.powi(-14),
                    2f64.powi(-14) - tiny,
                    2f64.powi(-14),
                    2f64.powi(-14) - tiny,
                ],
            ),
        ];
        for (value, wants) in cases {
            for (rounding, want) in Rounding::ALL.into_iter().zip(wants) {
                let got = float_to_float(value, half, rounding);
                assert!(same(got, want), "{value:e} {rounding}: {got:e} != {want:e}");
            }
        }
    }

    #[test]
    fn double_to_float_at_subnormal_and_overflow_boundaries() {
        let float = FloatType::Float;
        let min_sub = 2f64.powi(-149);
        let min_normal = 2f64.powi(-126);
        let max = f64::from(f32::MAX);
        let top_ulp = 2f64.powi(104);
        let inf = f64::INFINITY;
        let cases: Vec<(f64, [f64; 4])> = vec![
            (min_sub, [min_sub; 4]),
            (min_sub / 2.0, [0.0, 0.0, min_sub, 0.0]),
            (
                min_sub / 2.0 + 2f64.powi(-200),
                [min_sub, 0.0, min_sub, 0.0],
            ),
            (
                min_sub * 1.5,
                [2.0 * min_sub, min_sub, 2.0 * min_sub, min_sub],
            ),
            (
                min_sub * 2.5,
                [2.0 * min_sub, 2.0 * min_sub, 3.0 * min_sub, 2.0 * min_sub],
            ),
            (-min_sub / 4.0, [-0.0, -0.0, -0.0, -min_sub]),
            (f64::from_bits(1), [0.0, 0.0, min_sub, 0.0]),
            (
                min_normal - min_sub / 2.0,
                [
                    min_normal,
                    min_normal - min_sub,
                    min_normal,
                    min_normal - min_sub,
                ],
            ),
            (min_normal, [min_normal; 4]),
            (max, [max; 4]),
            (max + top_ulp / 2.0, [inf, max, inf, max]),
            (max + top_ulp / 2.0 - 2f64.powi(75), [max, max, inf, max]),
            (-(max + top_ulp / 2.0), [-inf, -max, -max, -inf]),
            (f64::MAX, [inf, max, inf, max]),
            (-f64::MAX, [-inf, -max, -max, -inf]),
            (1.0 + 2f64.powi(-24), [1.0, 1.0, 1.0 + 2f64.powi(-23), 1.0]),
            (
                1.0 + 3.0 * 2f64.powi(-24),
                [
                    1.0 + 2f64.powi(-22),
                    1.0 + 2f64.powi(-23),
                    1.0 + 2f64.powi(-22),
                    1.0 + 2f64.powi(-23),
                ],
            ),
        ];
        for (value, wants) in cases {
            for (rounding, want) in Rounding::ALL.into_iter().zip(wants) {
                let got = float_to_float(value, float, rounding);
                assert!(same(got, want), "{value:e} {rounding}: {got:e} != {want:e}");
            }
            // Rust's f64 -> f32 cast rounds to nearest even.
            assert!(same(
                float_to_float(value, float, Rounding::Rte),
                f64::from(value as f32)
            ));
        }
    }

    #[test]
    fn sampled_doubles_to_float_match_mpfr() {
        // Doubles whose float result is normal and finite: MPFR at 24 bits rounds them alone.
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let state = draws.next_bits();
            // Exponent field within the float's normal range.
            let field = 1023 - 125 + (state >> 52) % 252;
            let bits = (state & 0x800f_ffff_ffff_ffff) | (field << 52);
            let x = f64::from_bits(bits);
            for rounding in Rounding::ALL {
                let (reference, _) = Float::with_val_round(24, x, mpfr_round(rounding));
                let got = float_to_float(x, FloatType::Float, rounding);
                if reference.to_f64().abs() <= f64::from(f32::MAX) {
                    assert!(same(got, reference.to_f64()), "{x:e} {rounding}");
                }
            }
            assert!(same(
                float_to_float(x, FloatType::Float, Rounding::Rte),
                f64::from(x as f32)
            ));
        }
    }

    #[test]
    fn special_values_keep_their_meaning() {
        for to in FloatType::ALL {
            for rounding in Rounding::ALL {
                assert!(float_to_float(f64::NAN, to, rounding).is_nan());
                assert_eq!(float_to_float(f64::INFINITY, to, rounding), f64::INFINITY);
                assert_eq!(
                    float_to_float(f64::NEG_INFINITY, to, rounding),
                    f64::NEG_INFINITY
                );
                assert!(float_to_float(-0.0, to, rounding).is_sign_negative());
                assert!(float_to_float(0.0, to, rounding).is_sign_positive());
                assert_eq!(
                    float_to_float(f64::MAX, FloatType::Double, rounding),
                    f64::MAX
                );
            }
        }
    }

    #[test]
    fn every_16_bit_integer_to_half_and_float() {
        let ascending = finite_halves_ascending();
        for (from, range) in [
            (IntType::I16, i128::from(i16::MIN)..=i128::from(i16::MAX)),
            (IntType::U16, 0..=i128::from(u16::MAX)),
        ] {
            for value in range {
                let exact = value as f64; // |value| < 2^17: exact.
                for rounding in Rounding::ALL {
                    let to_float = int_to_float(value, from, FloatType::Float, rounding);
                    assert!(same(to_float, exact), "{value} {rounding}");
                    let to_half = int_to_float(value, from, FloatType::Half, rounding);
                    let want = half_by_neighbours(&ascending, exact, rounding);
                    assert!(
                        same(to_half, want),
                        "{from} {value} {rounding}: {to_half} != {want}"
                    );
                }
                assert!(same(
                    int_to_float(value, from, FloatType::Half, Rounding::Rte),
                    half::f16::from_f64(exact).to_f64()
                ));
            }
        }
        assert_eq!(
            int_to_float(65535, IntType::U16, FloatType::Half, Rounding::Rte),
            f64::INFINITY
        );
        assert_eq!(
            int_to_float(65535, IntType::U16, FloatType::Half, Rounding::Rtz),
            65504.0
        );
        assert_eq!(
            int_to_float(65519, IntType::U16, FloatType::Half, Rounding::Rte),
            65504.0
        );
        assert_eq!(
            int_to_float(2049, IntType::I16, FloatType::Half, Rounding::Rte),
            2048.0
        );
        assert_eq!(
            int_to_float(2051, IntType::I16, FloatType::Half, Rounding::Rte),
            2052.0
        );
        assert_eq!(
            int_to_float(-2049, IntType::I16, FloatType::Half, Rounding::Rtn),
            -2050.0
        );
    }

    #[test]
    fn wide_integer_edges_to_double_and_float() {
        let double = FloatType::Double;
        let float = FloatType::Float;
        let p53 = 2f64.powi(53);
        let p63 = 2f64.powi(63);
        let p64 = 2f64.powi(64);
        let cases: Vec<(i128, IntType, FloatType, [f64; 4])> = vec![
            (
                (1 << 53) + 1,
                IntType::I64,
                double,
                [p53, p53, p53 + 2.0, p53],
            ),
            (
                (1 << 53) + 3,
                IntType::U64,
                double,
                [p53 + 4.0, p53 + 2.0, p53 + 4.0, p53 + 2.0],
            ),
            (
                -(1 << 53) - 1,
                IntType::I64,
                double,
                [-p53, -p53, -p53, -p53 - 2.0],
            ),
            (
                u64::MAX.into(),
                IntType::U64,
                double,
                [p64, p64 - 2048.0, p64, p64 - 2048.0],
            ),
            (
                u64::MAX.into(),
                IntType::U64,
                float,
                [p64, p64 - 2f64.powi(40), p64, p64 - 2f64.powi(40)],
            ),
            (i64::MIN.into(), IntType::I64, double, [-p63; 4]),
            (i64::MIN.into(), IntType::I64, float, [-p63; 4]),
            (
                i128::from(i64::MIN) + 1,
                IntType::I64,
                double,
                [-p63, -p63 + 1024.0, -p63 + 1024.0, -p63],
            ),
            (
                i64::MAX.into(),
                IntType::I64,
                double,
                [p63, p63 - 1024.0, p63, p63 - 1024.0],
            ),
            (
                i64::MAX.into(),
                IntType::I64,
                float,
                [p63, p63 - 2f64.powi(39), p63, p63 - 2f64.powi(39)],
            ),
            (
                (1 << 24) + 1,
                IntType::I32,
                float,
                [16777216.0, 16777216.0, 16777218.0, 16777216.0],
            ),
            (
                u32::MAX.into(),
                IntType::U32,
                float,
                [
                    2f64.powi(32),
                    2f64.powi(32) - 256.0,
                    2f64.powi(32),
                    2f64.powi(32) - 256.0,
                ],
            ),
            (
                u64::MAX.into(),
                IntType::U64,
                FloatType::Half,
                [f64::INFINITY, 65504.0, f64::INFINITY, 65504.0],
            ),
            (
                i64::MIN.into(),
                IntType::I64,
                FloatType::Half,
                [f64::NEG_INFINITY, -65504.0, -65504.0, f64::NEG_INFINITY],
            ),
            (0, IntType::I8, FloatType::Half, [0.0; 4]),
        ];
        for (value, from, to, wants) in cases {
            for (rounding, want) in Rounding::ALL.into_iter().zip(wants) {
                let got = int_to_float(value, from, to, rounding);
                assert!(
                    same(got, want),
                    "{value} {from} -> {to} {rounding}: {got:e} != {want:e}"
                );
            }
        }
        assert!(int_to_float(0, IntType::I32, float, Rounding::Rtn).is_sign_positive());
        // Rust's integer -> float casts round to nearest even.
        assert_eq!(
            int_to_float((1 << 53) + 1, IntType::I64, double, Rounding::Rte),
            ((1i64 << 53) + 1) as f64
        );
        assert_eq!(
            int_to_float(u64::MAX.into(), IntType::U64, float, Rounding::Rte),
            f64::from(u64::MAX as f32)
        );
    }

    #[test]
    fn sampled_wide_integers_match_mpfr() {
        let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..100_000 {
            let state = draws.next_bits();
            // Vary the magnitude so every width of significand is exercised.
            let value = state >> (state % 64);
            for (as_int, from) in [
                (i128::from(value), IntType::U64),
                (i128::from(value as i64), IntType::I64),
                (i128::from(value as u32), IntType::U32),
                (i128::from(value as i32), IntType::I32),
            ] {
                for to in [FloatType::Float, FloatType::Double] {
                    for rounding in Rounding::ALL {
                        let (reference, _) = Float::with_val_round(
                            to.precision(),
                            &Integer::from(as_int),
                            mpfr_round(rounding),
                        );
                        let got = int_to_float(as_int, from, to, rounding);
                        assert!(same(got, reference.to_f64()), "{as_int} {to} {rounding}");
                    }
                }
            }
        }
    }

    #[test]
    fn float_to_int_rounds_toward_zero_by_default() {
        let rtz = Rounding::TO_INT_DEFAULT;
        for (value, want) in [
            (2.7, 2),
            (-2.7, -2),
            (0.999, 0),
            (-0.999, 0),
            (-0.0, 0),
            (127.9, 127),
        ] {
            assert_eq!(
                float_to_int(value, IntType::I8, rtz, false),
                ConvertResult::Int(want),
                "{value}"
            );
        }
        let cases: [(f64, [i128; 4]); 8] = [
            // value: [rte, rtz, rtp, rtn]
            (2.5, [2, 2, 3, 2]),
            (3.5, [4, 3, 4, 3]),
            (-2.5, [-2, -2, -2, -3]),
            (2.1, [2, 2, 3, 2]),
            (-2.1, [-2, -2, -2, -3]),
            (0.5, [0, 0, 1, 0]),
            (f64::from_bits(1), [0, 0, 1, 0]),
            (-f64::from_bits(1), [0, 0, 0, -1]),
        ];
        for (value, wants) in cases {
            for (rounding, want) in Rounding::ALL.into_iter().zip(wants) {
                assert_eq!(
                    float_to_int(value, IntType::I32, rounding, false),
                    ConvertResult::Int(want),
                    "{value} {rounding}"
                );
            }
        }
        assert_eq!(
            float_to_int(-0.75, IntType::U8, Rounding::Rtz, false),
            ConvertResult::Int(0)
        );
        assert_eq!(
            float_to_int(-0.25, IntType::U8, Rounding::Rte, false),
            ConvertResult::Int(0)
        );
        assert_eq!(
            float_to_int(-0.75, IntType::U8, Rounding::Rtn, false),
            ConvertResult::Undefined(UNDEFINED_OUT_OF_RANGE_TO_INT)
        );
        assert_eq!(
            float_to_int(255.5, IntType::U8, Rounding::Rtz, false),
            ConvertResult::Int(255)
        );
        assert_eq!(
            float_to_int(255.5, IntType::U8, Rounding::Rte, false),
            ConvertResult::Undefined(UNDEFINED_OUT_OF_RANGE_TO_INT)
        );
        let p63 = 2f64.powi(63);
        assert_eq!(
            float_to_int(-p63, IntType::I64, Rounding::Rtz, false),
            ConvertResult::Int(i64::MIN.into())
        );
        assert_eq!(
            float_to_int(p63 - 1024.0, IntType::I64, Rounding::Rtz, false),
            ConvertResult::Int(i128::from(i64::MAX) - 1023)
        );
        assert_eq!(
            float_to_int(2f64.powi(64) - 2048.0, IntType::U64, Rounding::Rtz, false),
            ConvertResult::Int(i128::from(u64::MAX) - 2047)
        );
    }

    #[test]
    fn saturation_clamps_and_maps_nan_to_zero() {
        for to in IntType::ALL {
            for rounding in Rounding::ALL {
                let sat = |value: f64| float_to_int(value, to, rounding, true);
                assert_eq!(sat(f64::NAN), ConvertResult::Int(0));
                assert_eq!(sat(-f64::NAN), ConvertResult::Int(0));
                assert_eq!(sat(f64::INFINITY), ConvertResult::Int(to.max()));
                assert_eq!(sat(f64::NEG_INFINITY), ConvertResult::Int(to.min()));
                assert_eq!(sat(f64::MAX), ConvertResult::Int(to.max()));
                assert_eq!(sat(-f64::MAX), ConvertResult::Int(to.min()));
                assert_eq!(sat(2f64.powi(64)), ConvertResult::Int(to.max()));
                assert_eq!(sat(-2f64.powi(63) - 4096.0), ConvertResult::Int(to.min()));
                assert_eq!(sat(1.0), ConvertResult::Int(1));
            }
        }
        assert_eq!(
            float_to_int(300.0, IntType::U8, Rounding::Rtz, true),
            ConvertResult::Int(255)
        );
        assert_eq!(
            float_to_int(-1.0, IntType::U8, Rounding::Rtz, true),
            ConvertResult::Int(0)
        );
        assert_eq!(
            float_to_int(-129.0, IntType::I8, Rounding::Rtz, true),
            ConvertResult::Int(-128)
        );
        assert_eq!(
            float_to_int(127.5, IntType::I8, Rounding::Rte, true),
            ConvertResult::Int(127)
        );
        assert_eq!(
            float_to_int(-0.75, IntType::U8, Rounding::Rtn, true),
            ConvertResult::Int(0)
        );
        assert_eq!(
            float_to_int(2f64.powi(63), IntType::I64, Rounding::Rtz, true),
            ConvertResult::Int(i64::MAX.into())
        );
    }

    #[test]
    fn saturated_rtz_agrees_with_rust_casts() {
        // Rust's float -> integer `as` truncates, clamps and maps NaN to 0: SaturatedConversion
        // under the default rounding.
        let mut draws = crate::num::test_draws::Xorshift(0x1234_5678_9abc_def1);
        let check = |x: f64| {
            let rtz = Rounding::Rtz;
            let int = |to| match float_to_int(x, to, rtz, true) {
                ConvertResult::Int(v) => v,
                other => panic!("{x:e}: {other:?}"),
            };
            assert_eq!(int(IntType::I8), i128::from(x as i8), "{x:e}");
            assert_eq!(int(IntType::U8), i128::from(x as u8), "{x:e}");
            assert_eq!(int(IntType::I16), i128::from(x as i16), "{x:e}");
            assert_eq!(int(IntType::U16), i128::from(x as u16), "{x:e}");
            assert_eq!(int(IntType::I32), i128::from(x as i32), "{x:e}");
            assert_eq!(int(IntType::U32), i128::from(x as u32), "{x:e}");
            assert_eq!(int(IntType::I64), i128::from(x as i64), "{x:e}");
            assert_eq!(int(IntType::U64), i128::from(x as u64), "{x:e}");
        };
        for _ in 0..200_000 {
            let state = draws.next_bits();
            // Exponents up to 2^70 with a random sign.
            let field = 1023 - 4 + (state >> 52) % 75;
            check(f64::from_bits(
                (state & 0x800f_ffff_ffff_ffff) | (field << 52),
            ));
        }
        for x in [
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            0.0,
            -0.0,
            2f64.powi(64),
            -2f64.powi(63),
        ] {
            check(x);
        }
    }

    #[test]
    fn out_of_range_and_nan_are_undefined_without_saturation() {
        let undefined = ConvertResult::Undefined(UNDEFINED_OUT_OF_RANGE_TO_INT);
        for to in IntType::ALL {
            for rounding in Rounding::ALL {
                let plain = |value: f64| float_to_int(value, to, rounding, false);
                assert_eq!(
                    plain(f64::NAN),
                    ConvertResult::Undefined(UNDEFINED_NAN_TO_INT)
                );
                assert_eq!(plain(f64::INFINITY), undefined);
                assert_eq!(plain(f64::NEG_INFINITY), undefined);
                assert_eq!(plain(f64::MAX), undefined);
                assert_eq!(
                    plain(to.max() as f64 + 2f64.powi(to.bits() as i32 - 8)),
                    undefined
                );
                assert_eq!(
                    plain(to.min() as f64 - 2f64.powi(to.bits() as i32 - 8).max(1.0)),
                    undefined
                );
                assert_eq!(plain(to.min() as f64), ConvertResult::Int(to.min()));
            }
        }
        assert_eq!(
            float_to_int(128.0, IntType::I8, Rounding::Rtz, false),
            undefined
        );
        assert_eq!(
            float_to_int(-1.0, IntType::U32, Rounding::Rtz, false),
            undefined
        );
        assert_eq!(
            float_to_int(2f64.powi(63), IntType::I64, Rounding::Rtz, false),
            undefined
        );
        assert_eq!(
            float_to_int(2f64.powi(64), IntType::U64, Rounding::Rtz, false),
            undefined
        );
    }
}
