//! The two 8-bit floating-point encodings of SPV_EXT_float8 (004_44c03773e2eb5a1b.txt):
//! `Float8E4M3EXT` (FP Encoding 4214) and `Float8E5M2EXT` (4215), "encoded as an FP8 E4M3 [E5M2]
//! type, as specified in the "FP8 Formats For Deep Learning" whitepaper
//! (https://arxiv.org/abs/2209.05433)". From that paper:
//!
//! | | E4M3 | E5M2 |
//! |---|---|---|
//! | exponent bias | 7 | 15 |
//! | infinities | none | S.11111.00 |
//! | NaN | S.1111.111 only | S.11111.{01, 10, 11} |
//! | zeros | S.0000.000 | S.00000.00 |
//! | largest finite | S.1111.110 = 448 | S.11110.11 = 57344 |
//! | smallest normal | S.0001.000 = 2^-6 | S.00001.00 = 2^-14 |
//! | smallest subnormal | S.0000.001 = 2^-9 | S.00000.01 = 2^-16 |
//!
//! E5M2 is IEEE 754's binary16 cut to its top byte; E4M3 spends its top exponent on numbers, all
//! but the NaN pattern.
//!
//! Conversions *to* float8 ([`Float8Format::encode`]) follow the extension's one rule on
//! conversions, added to `OpFConvert`, `OpConvertSToF` and `OpConvertUToF`: "When converting to
//! floating-point values with the Float8E4M3EXT or Float8E5M2EXT encoding, out-of-range values
//! and infinity are converted to largest representable finite value with a matching sign if the
//! conversion is decorated with SaturatedToLargestFloat8NormalConversionEXT, otherwise they are
//! converted to NaN if the destination type uses the Float8E4M3EXT FP encoding or infinity with a
//! matching sign if the destination type uses the Float8E5M2EXT FP encoding." The extension says
//! nothing else, so the rest comes from the environment specification (003_606d5394990817d6.txt):
//! the rounding mode is the `FPRoundingMode` decoration's, or "Round to nearest even, for
//! conversions to floating-point types"; the result is correctly rounded ("Conversion between
//! floating-point formats and explicit conversions must be correctly rounded"), subnormals
//! included. Decisions where the text leaves room, and which codes are interchangeable:
//!
//! - *Out of range* is judged after rounding: a finite value is out of range when, rounded to
//!   the format's precision in the requested mode with an unbounded exponent range, its
//!   magnitude exceeds the largest finite value (IEEE 754's overflow). So under RTE, E4M3 takes
//!   449..=464 to 448 (464 is the tie between 448 and the pattern S.1111.111, and 448's is the
//!   even significand) and E5M2 takes values below 61440 to 57344. The literal reading, "greater
//!   than the largest finite value", differs only for those values that round back to it;
//!   [`Float8Format::accepts`] accepts both readings' results.
//! - The rule overrides IEEE 754's directed-rounding overflow: without saturation a value out of
//!   range gives NaN (E4M3) or the signed infinity (E5M2) in every rounding mode, RTZ included.
//! - Saturation covers out-of-range values and infinities only: a NaN source stays a NaN.
//! - NaN results carry no required sign or payload (the extension says "converted to NaN";
//!   the environment specification: "How the rest of the NaN payload bits or the sign of NaN is
//!   converted is undefined"). [`Float8Format::encode`] answers the canonical code of
//!   [`Float8Format::canonical_nan`] (E4M3 S.1111.111; E5M2 the quiet S.11111.10, the source's
//!   sign kept for NaN sources and for E4M3 overflow); every NaN code
//!   ([`Float8Format::is_nan_code`]) is equally right, which [`Float8Format::accepts`] implements.

use std::cmp::Ordering;
use std::fmt;

use rug::Float;

use crate::num::convert::{exact_f64, round_to, split_f64, BinaryFormat, Rounded, Rounding};

/// One of the two float8 encodings of SPV_EXT_float8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float8Format {
    /// `Float8E4M3EXT`: 4 exponent bits (bias 7), 3 fraction bits, no infinities.
    E4M3,
    /// `Float8E5M2EXT`: 5 exponent bits (bias 15), 2 fraction bits, IEEE-style specials.
    E5M2,
}

impl Float8Format {
    pub const ALL: [Float8Format; 2] = [Float8Format::E4M3, Float8Format::E5M2];

    /// Short name: `E4M3`, `E5M2`.
    pub fn name(self) -> &'static str {
        match self {
            Float8Format::E4M3 => "E4M3",
            Float8Format::E5M2 => "E5M2",
        }
    }

    /// The SPIR-V FP Encoding's name: `Float8E4M3EXT`, `Float8E5M2EXT`.
    pub fn spirv_name(self) -> &'static str {
        match self {
            Float8Format::E4M3 => "Float8E4M3EXT",
            Float8Format::E5M2 => "Float8E5M2EXT",
        }
    }

    /// Width of the exponent field.
    pub fn exponent_bits(self) -> u32 {
        match self {
            Float8Format::E4M3 => 4,
            Float8Format::E5M2 => 5,
        }
    }

    /// Width of the fraction field (p - 1).
    pub fn fraction_bits(self) -> u32 {
        7 - self.exponent_bits()
    }

    /// Significand precision p, hidden bit included.
    pub fn precision(self) -> u32 {
        self.fraction_bits() + 1
    }

    /// Exponent bias: 7, 15.
    pub fn bias(self) -> i32 {
        (1 << (self.exponent_bits() - 1)) - 1
    }

    /// Exponent of the smallest normal number: -6, -14.
    pub fn emin(self) -> i32 {
        1 - self.bias()
    }

    /// Exponent of the largest finite number's leading bit: 8 (E4M3 numbers use the all-ones
    /// exponent), 15.
    pub fn emax(self) -> i32 {
        match self {
            Float8Format::E4M3 => 15 - self.bias(),
            Float8Format::E5M2 => 30 - self.bias(),
        }
    }

    /// Whether the format has infinities (E5M2 only).
    pub fn has_infinities(self) -> bool {
        self == Float8Format::E5M2
    }

    /// The largest finite value: 448, 57344.
    pub fn max_finite(self) -> f64 {
        self.decode(self.max_finite_code())
    }

    /// The encoding of +[`Self::max_finite`]: 0x7E, 0x7B (set bit 7 for the negative one).
    pub fn max_finite_code(self) -> u8 {
        match self {
            Float8Format::E4M3 => 0x7e,
            Float8Format::E5M2 => 0x7b,
        }
    }

    /// The smallest positive subnormal: 2^-9, 2^-16.
    pub fn min_subnormal(self) -> f64 {
        self.decode(0x01)
    }

    /// Whether `code` encodes a NaN: E4M3 0x7F and 0xFF; E5M2 0x7D..=0x7F and 0xFD..=0xFF.
    pub fn is_nan_code(self, code: u8) -> bool {
        let magnitude = code & 0x7f;
        match self {
            Float8Format::E4M3 => magnitude == 0x7f,
            Float8Format::E5M2 => magnitude > 0x7c,
        }
    }

    /// Whether `code` encodes an infinity (E5M2 0x7C and 0xFC).
    pub fn is_infinite_code(self, code: u8) -> bool {
        self.has_infinities() && code & 0x7f == 0x7c
    }

    /// The NaN code [`Self::encode`] answers: S.1111.111 (E4M3), the quiet S.11111.10 (E5M2).
    pub fn canonical_nan(self, negative: bool) -> u8 {
        let sign = if negative { 0x80 } else { 0 };
        match self {
            Float8Format::E4M3 => sign | 0x7f,
            Float8Format::E5M2 => sign | 0x7e,
        }
    }

    /// The exact value of `code`: NaN for the NaN codes, ±inf for E5M2's infinities, -0 for
    /// 0x80. Every float8 value is a half value too, so widening to any float type is exact.
    pub fn decode(self, code: u8) -> f64 {
        let negative = code & 0x80 != 0;
        if self.is_nan_code(code) {
            return f64::NAN;
        }
        if self.is_infinite_code(code) {
            return if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        let fraction_bits = self.fraction_bits();
        let field = i64::from((code & 0x7f) >> fraction_bits);
        let fraction = u64::from(code) & ((1 << fraction_bits) - 1);
        let lowest = i64::from(self.emin()) - i64::from(fraction_bits);
        if field == 0 {
            exact_f64(negative, fraction, lowest)
        } else {
            exact_f64(
                negative,
                fraction | (1 << fraction_bits),
                lowest + field - 1,
            )
        }
    }

    /// Encodes the exact value `value` (any precision: an integer or a wide float rounds once,
    /// here) in `rounding`, with `saturate` standing for the
    /// `SaturatedToLargestFloat8NormalConversionEXT` decoration; see the module docs. Results:
    /// - NaN: [`Self::canonical_nan`] with the source's sign (saturated or not);
    /// - ±inf, and finite values whose rounding overflows: ±[`Self::max_finite_code`] when
    ///   saturating, else [`Self::canonical_nan`] (E4M3, sign kept) or the signed infinity
    ///   (E5M2), whatever the rounding mode;
    /// - otherwise the correctly rounded value, subnormals included; a value that rounds to
    ///   zero keeps its sign (0x80 for negative ones).
    pub fn encode(self, value: &Float, rounding: Rounding, saturate: bool) -> u8 {
        let negative = value.is_sign_negative();
        if value.is_nan() {
            return self.canonical_nan(negative);
        }
        if value.is_infinite() {
            return self.out_of_range_code(negative, saturate);
        }
        if value.is_zero() {
            return self.encode_parts(negative, 0, 0, rounding, saturate);
        }
        let (integer, exponent) = value.to_integer_exp().expect("finite value");
        let mut magnitude = integer.abs();
        let mut exponent = i64::from(exponent);
        // Keep 120 bits and fold the rest into a sticky bit: the rounding position lies far
        // above bit 0 (float8 keeps at most 4 bits), so the decision is unchanged.
        let width = magnitude.significant_bits();
        let mut sticky = false;
        if width > 120 {
            let dropped = width - 120;
            sticky = magnitude.find_one(0).expect("non-zero") < dropped;
            magnitude >>= dropped;
            exponent += i64::from(dropped);
        }
        let magnitude = magnitude.to_u128().expect("120 bits") | u128::from(sticky);
        self.encode_parts(negative, magnitude, exponent, rounding, saturate)
    }

    /// [`Self::encode`] of the exact value an `f64` holds (so a half, float or double source
    /// rounds once; an integer wider than 53 bits must go through [`Self::encode`] instead).
    pub fn encode_f64(self, value: f64, rounding: Rounding, saturate: bool) -> u8 {
        let negative = value.is_sign_negative();
        if value.is_nan() {
            return self.canonical_nan(negative);
        }
        if value.is_infinite() {
            return self.out_of_range_code(negative, saturate);
        }
        let (negative, significand, exponent) = split_f64(value);
        self.encode_parts(
            negative,
            u128::from(significand),
            exponent,
            rounding,
            saturate,
        )
    }

    /// Whether a device's `code` is a right result for converting `value` (as [`Self::encode`]):
    /// its result, any other NaN code where that is a NaN, or the result under the literal
    /// reading of "out-of-range" (|value| greater than the largest finite value, before
    /// rounding) where the two readings differ.
    pub fn accepts(self, value: &Float, rounding: Rounding, saturate: bool, code: u8) -> bool {
        let expected = self.encode(value, rounding, saturate);
        let max = Float::with_val(53, self.max_finite());
        let literal = if value.is_finite() && value.cmp_abs(&max) == Some(Ordering::Greater) {
            self.out_of_range_code(value.is_sign_negative(), saturate)
        } else {
            expected
        };
        [expected, literal]
            .into_iter()
            .any(|want| want == code || (self.is_nan_code(want) && self.is_nan_code(code)))
    }

    /// Encodes ±magnitude × 2^exponent (exact, finite).
    pub(crate) fn encode_parts(
        self,
        negative: bool,
        magnitude: u128,
        exponent: i64,
        rounding: Rounding,
        saturate: bool,
    ) -> u8 {
        match round_to(
            self.binary_format(),
            negative,
            magnitude,
            exponent,
            rounding,
        ) {
            Rounded::Overflow { negative } => self.out_of_range_code(negative, saturate),
            Rounded::Finite {
                negative,
                significand,
                quantum,
            } => {
                let sign = if negative { 0x80u8 } else { 0 };
                let fraction_bits = self.fraction_bits();
                let hidden = 1u64 << fraction_bits;
                if significand < hidden {
                    // Zero or subnormal: exponent field 0.
                    return sign | significand as u8;
                }
                let field = quantum + i64::from(fraction_bits) + i64::from(self.bias());
                let field = u8::try_from(field).expect("exponent field in range");
                sign | (field << fraction_bits) | (significand - hidden) as u8
            }
        }
    }

    /// The result for an infinity or an out-of-range value of sign `negative`.
    fn out_of_range_code(self, negative: bool, saturate: bool) -> u8 {
        let sign = if negative { 0x80 } else { 0 };
        match (saturate, self) {
            (true, _) => sign | self.max_finite_code(),
            (false, Float8Format::E4M3) => self.canonical_nan(negative),
            (false, Float8Format::E5M2) => sign | 0x7c,
        }
    }

    fn binary_format(self) -> BinaryFormat {
        BinaryFormat {
            precision: self.precision(),
            emin: self.emin(),
            emax: self.emax(),
            max_significand: u64::from(self.max_finite_code() & ((1 << self.fraction_bits()) - 1))
                | (1 << self.fraction_bits()),
        }
    }
}

impl fmt::Display for Float8Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const E4M3: Float8Format = Float8Format::E4M3;
    const E5M2: Float8Format = Float8Format::E5M2;

    /// An independent decoding: the value times 2^16 as an integer, from the bit fields with
    /// shifts; `None` for NaN and infinity codes (decided by the whitepaper's patterns).
    fn scaled_by_2_16(format: Float8Format, code: u8) -> Option<i64> {
        let sign = if code >= 0x80 { -1 } else { 1 };
        let bits = code & 0x7f;
        let (field, fraction) = match format {
            Float8Format::E4M3 => {
                if bits == 0x7f {
                    return None;
                }
                (i64::from(bits >> 3), i64::from(bits & 0b111))
            }
            Float8Format::E5M2 => {
                if bits >> 2 == 0b11111 {
                    return None;
                }
                (i64::from(bits >> 2), i64::from(bits & 0b11))
            }
        };
        let magnitude = match format {
            // Subnormal: fraction/8 * 2^-6 = fraction * 2^-9; normal: (8 + f)/8 * 2^(field-7).
            Float8Format::E4M3 if field == 0 => fraction << 7,
            Float8Format::E4M3 => (8 + fraction) << (field + 6),
            // Subnormal: fraction/4 * 2^-14 = fraction * 2^-16; normal: (4 + f)/4 * 2^(field-15).
            Float8Format::E5M2 if field == 0 => fraction,
            Float8Format::E5M2 => (4 + fraction) << (field - 1),
        };
        Some(sign * magnitude)
    }

    /// (value, code) for every finite code but 0x80, ascending, from the independent decoding.
    fn finite_table(format: Float8Format) -> Vec<(f64, u8)> {
        let mut table: Vec<(f64, u8)> = (0..=255u8)
            .filter(|code| *code != 0x80)
            .filter_map(|code| scaled_by_2_16(format, code).map(|s| (s as f64 / 65536.0, code)))
            .collect();
        table.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        table
    }

    /// The code just above the largest finite one, as if the format went on: its value and
    /// whether its significand is even (E4M3's S.1111.111 is odd, E5M2's 2^16 is even).
    fn virtual_next(format: Float8Format) -> (f64, bool) {
        match format {
            Float8Format::E4M3 => (480.0, false),
            Float8Format::E5M2 => (65536.0, true),
        }
    }

    /// What a device must produce, by the bracketing neighbours (independent of the module's
    /// rounding core). `None` means "a NaN".
    fn by_neighbours(
        format: Float8Format,
        table: &[(f64, u8)],
        x: f64,
        rounding: Rounding,
        saturate: bool,
    ) -> Option<u8> {
        let sign = if x.is_sign_negative() { 0x80 } else { 0 };
        let out_of_range = || match (saturate, format) {
            (true, _) => Some(sign | format.max_finite_code()),
            (false, Float8Format::E4M3) => None,
            (false, Float8Format::E5M2) => Some(sign | 0x7c),
        };
        if x.is_nan() {
            return None;
        }
        let (next, next_even) = virtual_next(format);
        if x.abs() >= next {
            return out_of_range();
        }
        if x == 0.0 {
            return Some(sign);
        }
        if let Some((_, code)) = table.iter().find(|(v, _)| *v == x) {
            return Some(*code);
        }
        let above = table.partition_point(|(v, _)| *v < x);
        // (value, even significand, is the virtual neighbour)
        let low = if above == 0 {
            (-next, next_even, true)
        } else {
            let (v, c) = table[above - 1];
            (v, c & 1 == 0, false)
        };
        let high = if above == table.len() {
            (next, next_even, true)
        } else {
            let (v, c) = table[above];
            (v, c & 1 == 0, false)
        };
        let pick_low = match rounding {
            Rounding::Rtn => true,
            Rounding::Rtp => false,
            Rounding::Rtz => x > 0.0,
            Rounding::Rte => {
                let (below, over) = (x - low.0, high.0 - x);
                below < over || (below == over && low.1)
            }
        };
        let (value, _, is_virtual) = if pick_low { low } else { high };
        if is_virtual {
            return out_of_range();
        }
        if value == 0.0 {
            return Some(sign);
        }
        table.iter().find(|(v, _)| *v == value).map(|(_, c)| *c)
    }

    fn matches(format: Float8Format, got: u8, want: Option<u8>) -> bool {
        match want {
            None => format.is_nan_code(got),
            Some(code) => code == got,
        }
    }

    #[test]
    fn format_parameters_follow_the_whitepaper() {
        assert_eq!(
            (E4M3.bias(), E4M3.emin(), E4M3.emax(), E4M3.precision()),
            (7, -6, 8, 4)
        );
        assert_eq!(
            (E5M2.bias(), E5M2.emin(), E5M2.emax(), E5M2.precision()),
            (15, -14, 15, 3)
        );
        assert_eq!(E4M3.max_finite(), 448.0);
        assert_eq!(E5M2.max_finite(), 57344.0);
        assert_eq!(E4M3.min_subnormal(), 2f64.powi(-9));
        assert_eq!(E5M2.min_subnormal(), 2f64.powi(-16));
        assert_eq!(E4M3.to_string(), "E4M3");
        for format in Float8Format::ALL {
            let nans: Vec<u8> = (0..=255).filter(|c| format.is_nan_code(*c)).collect();
            let every: &[u8] = match format {
                Float8Format::E4M3 => &[0x7f, 0xff],
                Float8Format::E5M2 => &[0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff],
            };
            assert_eq!(nans, every);
            assert!(format.is_nan_code(format.canonical_nan(false)));
            assert!(format.is_nan_code(format.canonical_nan(true)));
        }
        let infinities: Vec<u8> = (0..=255).filter(|c| E5M2.is_infinite_code(*c)).collect();
        assert_eq!(infinities, [0x7c, 0xfc]);
        assert!((0..=255).all(|c| !E4M3.is_infinite_code(c)));
    }

    #[test]
    fn every_code_decodes_to_its_independent_value() {
        for format in Float8Format::ALL {
            for code in 0..=255u8 {
                let value = format.decode(code);
                match scaled_by_2_16(format, code) {
                    Some(scaled) => {
                        assert_eq!(value * 65536.0, scaled as f64, "{format} {code:#04x}");
                        assert_eq!(
                            value.is_sign_negative(),
                            code >= 0x80,
                            "{format} {code:#04x}"
                        );
                    }
                    None => assert!(
                        value.is_nan() || (format == E5M2 && code & 0x7f == 0x7c),
                        "{format} {code:#04x}"
                    ),
                }
                assert_eq!(value.is_nan(), format.is_nan_code(code));
            }
        }
        // E5M2 is binary16's top byte.
        for code in 0..=255u8 {
            let half = half::f16::from_bits(u16::from(code) << 8).to_f64();
            let value = E5M2.decode(code);
            assert!(value.to_bits() == half.to_bits() || (value.is_nan() && half.is_nan()));
        }
        let known = [
            (E4M3, 0x7e, 448.0),
            (E4M3, 0xfe, -448.0),
            (E4M3, 0x38, 1.0),
            (E4M3, 0x77, 240.0),
            (E4M3, 0x08, 2f64.powi(-6)),
            (E4M3, 0x07, 7.0 * 2f64.powi(-9)),
            (E4M3, 0x01, 2f64.powi(-9)),
            (E4M3, 0x78, 256.0),
            (E5M2, 0x7b, 57344.0),
            (E5M2, 0xfb, -57344.0),
            (E5M2, 0x3c, 1.0),
            (E5M2, 0x04, 2f64.powi(-14)),
            (E5M2, 0x03, 3.0 * 2f64.powi(-16)),
            (E5M2, 0x01, 2f64.powi(-16)),
            (E5M2, 0x7c, f64::INFINITY),
            (E5M2, 0xfc, f64::NEG_INFINITY),
        ];
        for (format, code, value) in known {
            assert_eq!(format.decode(code), value, "{format} {code:#04x}");
        }
        for format in Float8Format::ALL {
            assert_eq!(format.decode(0x80).to_bits(), (-0.0f64).to_bits());
            assert_eq!(format.decode(0x00).to_bits(), 0);
        }
        for code in [0x7f, 0xff] {
            assert!(E4M3.decode(code).is_nan());
        }
        for code in [0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff] {
            assert!(E5M2.decode(code).is_nan());
        }
    }

    #[test]
    fn every_non_nan_code_round_trips_in_every_mode() {
        for format in Float8Format::ALL {
            for code in (0..=255u8).filter(|c| !format.is_nan_code(*c)) {
                let value = format.decode(code);
                for rounding in Rounding::ALL {
                    for saturate in [false, true] {
                        let want = if saturate && format.is_infinite_code(code) {
                            (code & 0x80) | format.max_finite_code()
                        } else {
                            code
                        };
                        assert_eq!(format.encode_f64(value, rounding, saturate), want);
                        let wide = Float::with_val(200, value);
                        assert_eq!(format.encode(&wide, rounding, saturate), want);
                    }
                }
            }
        }
    }

    #[test]
    fn every_half_encodes_as_rounding_its_exact_value() {
        let mut halves: Vec<f64> = (0..=u16::MAX)
            .map(|bits| half::f16::from_bits(bits).to_f64())
            .collect();
        for format in Float8Format::ALL {
            let table = finite_table(format);
            for rounding in Rounding::ALL {
                for saturate in [false, true] {
                    for &x in &halves {
                        let got = format.encode_f64(x, rounding, saturate);
                        let want = by_neighbours(format, &table, x, rounding, saturate);
                        assert!(
                            matches(format, got, want),
                            "{format} {x:e} {rounding} sat={saturate}: {got:#04x} vs {want:x?}"
                        );
                        assert!(format.accepts(&Float::with_val(53, x), rounding, saturate, got));
                    }
                }
            }
        }
        // Monotone: ascending inputs never give a smaller result (a NaN from overflow counts
        // as the infinity of its sign).
        halves.retain(|x| !x.is_nan());
        halves.sort_by(|a, b| a.partial_cmp(b).unwrap());
        for format in Float8Format::ALL {
            for rounding in Rounding::ALL {
                for saturate in [false, true] {
                    let mut previous = f64::NEG_INFINITY;
                    for &x in &halves {
                        let code = format.encode_f64(x, rounding, saturate);
                        let value = match format.decode(code) {
                            v if v.is_nan() => f64::INFINITY.copysign(x),
                            v => v,
                        };
                        assert!(value >= previous, "{format} {rounding} {x:e}");
                        previous = value;
                    }
                }
            }
        }
    }

    #[test]
    fn half_to_e5m2_matches_bit_truncation_and_rounding() {
        for bits in 0..=u16::MAX {
            let x = half::f16::from_bits(bits);
            if x.is_nan() {
                assert!(E5M2.is_nan_code(E5M2.encode_f64(x.to_f64(), Rounding::Rtz, false)));
                continue;
            }
            // Toward zero: drop the low byte (the largest finite halves truncate to 57344).
            let truncated = (bits >> 8) as u8;
            assert_eq!(
                E5M2.encode_f64(x.to_f64(), Rounding::Rtz, false),
                truncated,
                "{bits:#06x}"
            );
            // To nearest even: add just under half a unit plus the kept LSB, then drop; a carry
            // into the all-ones exponent lands on the infinity.
            let sign = bits & 0x8000;
            let magnitude = bits & 0x7fff;
            let nearest = (magnitude + 0x7f + ((magnitude >> 8) & 1)) >> 8;
            let nearest = ((sign >> 8) | nearest.min(0x7c)) as u8;
            assert_eq!(
                E5M2.encode_f64(x.to_f64(), Rounding::Rte, false),
                nearest,
                "{bits:#06x}"
            );
        }
    }

    #[test]
    fn overflow_and_saturation_rules() {
        let encode = |format: Float8Format, x: f64, rounding, saturate| {
            format.encode_f64(x, rounding, saturate)
        };
        let (rte, rtz, rtp, rtn) = (Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn);
        // E4M3: no infinity, overflow is NaN; 464 is the tie that rounds back to 448.
        assert_eq!(encode(E4M3, 448.0, rte, false), 0x7e);
        assert_eq!(encode(E4M3, 449.0, rte, false), 0x7e);
        assert_eq!(encode(E4M3, 464.0, rte, false), 0x7e);
        assert!(E4M3.is_nan_code(encode(E4M3, 464.5, rte, false)));
        assert_eq!(encode(E4M3, 479.0, rtz, false), 0x7e);
        assert!(E4M3.is_nan_code(encode(E4M3, 480.0, rtz, false)));
        assert!(E4M3.is_nan_code(encode(E4M3, 1e6, rtz, false)));
        assert!(E4M3.is_nan_code(encode(E4M3, 449.0, rtp, false)));
        assert_eq!(encode(E4M3, -449.0, rtp, false), 0xfe);
        assert!(E4M3.is_nan_code(encode(E4M3, -449.0, rtn, false)));
        assert!(E4M3.is_nan_code(encode(E4M3, f64::INFINITY, rte, false)));
        assert!(E4M3.is_nan_code(encode(E4M3, f64::NEG_INFINITY, rtz, false)));
        // E5M2: overflow is the signed infinity, in every mode.
        assert_eq!(encode(E5M2, 61439.0, rte, false), 0x7b);
        assert_eq!(encode(E5M2, 61440.0, rte, false), 0x7c);
        assert_eq!(encode(E5M2, -61440.0, rte, false), 0xfc);
        assert_eq!(encode(E5M2, 65535.0, rtz, false), 0x7b);
        assert_eq!(encode(E5M2, 65536.0, rtz, false), 0x7c);
        assert_eq!(encode(E5M2, 1e6, rtn, false), 0x7c);
        assert_eq!(encode(E5M2, -1e6, rtp, false), 0xfc);
        assert_eq!(encode(E5M2, 57345.0, rtp, false), 0x7c);
        assert_eq!(encode(E5M2, f64::NEG_INFINITY, rte, false), 0xfc);
        for rounding in Rounding::ALL {
            for format in Float8Format::ALL {
                let max = format.max_finite_code();
                // Saturation: out-of-range values and infinities to the signed largest normal.
                assert_eq!(encode(format, 1e9, rounding, true), max);
                assert_eq!(encode(format, -1e9, rounding, true), 0x80 | max);
                assert_eq!(encode(format, f64::INFINITY, rounding, true), max);
                assert_eq!(
                    encode(format, f64::NEG_INFINITY, rounding, true),
                    0x80 | max
                );
                assert_eq!(
                    encode(format, format.max_finite() + 1.0, rounding, true),
                    max
                );
                // NaN stays NaN, saturated or not.
                for saturate in [false, true] {
                    assert_eq!(
                        encode(format, f64::NAN, rounding, saturate),
                        format.canonical_nan(false)
                    );
                    assert_eq!(
                        encode(format, -f64::NAN, rounding, saturate),
                        format.canonical_nan(true)
                    );
                }
            }
        }
    }

    #[test]
    fn subnormals_and_zeros() {
        let (rte, rtz, rtp, rtn) = (Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn);
        let tiny = E4M3.min_subnormal();
        assert_eq!(E4M3.encode_f64(tiny / 2.0, rte, false), 0x00);
        assert_eq!(E4M3.encode_f64(tiny * 0.75, rte, false), 0x01);
        assert_eq!(E4M3.encode_f64(tiny * 1.5, rte, false), 0x02);
        assert_eq!(E4M3.encode_f64(tiny * 2.5, rte, false), 0x02);
        assert_eq!(E4M3.encode_f64(-tiny / 2.0, rte, false), 0x80);
        assert_eq!(E4M3.encode_f64(-tiny / 4.0, rtn, false), 0x81);
        assert_eq!(E4M3.encode_f64(tiny / 4.0, rtp, false), 0x01);
        assert_eq!(E4M3.encode_f64(tiny / 4.0, rtz, false), 0x00);
        assert_eq!(E4M3.encode_f64(-0.0, rte, false), 0x80);
        assert_eq!(E4M3.encode_f64(7.5 * tiny, rte, false), 0x08);
        assert_eq!(E5M2.encode_f64(2f64.powi(-17), rte, false), 0x00);
        assert_eq!(E5M2.encode_f64(2f64.powi(-17), rtp, false), 0x01);
        assert_eq!(E5M2.encode_f64(3.5 * 2f64.powi(-16), rte, false), 0x04);
        assert_eq!(E5M2.encode_f64(-f64::MIN_POSITIVE, rtn, false), 0x81);
    }

    #[test]
    fn wide_sources_round_once() {
        let rte = Rounding::Rte;
        // 1 + 2^-4 + 2^-80 lies just above the tie between 1 and 1.125: rounded first to a
        // double it would become the tie and go to 1.
        let mut value = Float::with_val(200, 1);
        value += Float::with_val(200, 2f64.powi(-4));
        value += Float::with_val(200, 2f64.powi(-80));
        assert_eq!(E4M3.encode(&value, rte, false), 0x39);
        assert_eq!(E4M3.encode_f64(value.to_f64(), rte, false), 0x38);
        // 448 + 2^-100: above the largest finite value, by the literal reading out of range.
        let mut above = Float::with_val(200, 448);
        above += Float::with_val(200, 2f64.powi(-100));
        assert_eq!(E4M3.encode(&above, Rounding::Rtz, false), 0x7e);
        assert!(E4M3.is_nan_code(E4M3.encode(&above, Rounding::Rtp, false)));
        for code in [0x7e, 0x7f, 0xff] {
            assert!(E4M3.accepts(&above, Rounding::Rtz, false, code));
        }
        assert!(!E4M3.accepts(&above, Rounding::Rtz, false, 0x7d));
        assert!(!E4M3.accepts(&above, Rounding::Rtz, true, 0x7f));
        // Integers, those wider than a double's significand included.
        let int = |value: i128| Float::with_val(200, value);
        let big = (1i128 << 62) + 1;
        assert_eq!(E5M2.encode(&int(big), rte, false), 0x7c);
        assert_eq!(E5M2.encode(&int(-big), rte, true), 0xfb);
        assert_eq!(E4M3.encode(&int(17), rte, false), 0x58);
        assert_eq!(E4M3.encode(&int(17), Rounding::Rtp, false), 0x59);
        assert_eq!(E4M3.encode(&int(-300), rte, false), 0xf9);
        assert_eq!(E4M3.decode(0xf9), -288.0);
    }
}
