//! The floating-point formats clacc checks, and the facts about each one that
//! every other module needs (bit width, precision, exponent range, names).

use std::fmt;

/// One of the three OpenCL floating-point element types.
#[derive(
    Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
pub enum FloatType {
    /// `half`, SPIR-V `OpTypeFloat 16`, capability Float16.
    Half,
    /// `float`, SPIR-V `OpTypeFloat 32`.
    Float,
    /// `double`, SPIR-V `OpTypeFloat 64`, capability Float64.
    Double,
}

impl FloatType {
    pub const ALL: [FloatType; 3] = [FloatType::Half, FloatType::Float, FloatType::Double];

    /// Storage width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatType::Half => 16,
            FloatType::Float => 32,
            FloatType::Double => 64,
        }
    }

    /// Bytes per element in a buffer.
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }

    /// Significand precision p in bits, hidden bit included (IEEE 754 binary16/32/64).
    pub fn precision(self) -> u32 {
        match self {
            FloatType::Half => 11,
            FloatType::Float => 24,
            FloatType::Double => 53,
        }
    }

    /// Exponent of the smallest normal number: 2^emin.
    pub fn emin(self) -> i32 {
        match self {
            FloatType::Half => -14,
            FloatType::Float => -126,
            FloatType::Double => -1022,
        }
    }

    /// Exponent of the largest finite number's leading bit: max = (2 - 2^(1-p)) * 2^emax.
    pub fn emax(self) -> i32 {
        match self {
            FloatType::Half => 15,
            FloatType::Float => 127,
            FloatType::Double => 1023,
        }
    }

    /// Number of explicit fraction bits (p - 1).
    pub fn fraction_bits(self) -> u32 {
        self.precision() - 1
    }

    /// The OpenCL C name, as used on the command line and in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            FloatType::Half => "half",
            FloatType::Float => "float",
            FloatType::Double => "double",
        }
    }

    /// The column name the spec's tables use ("Minimum Accuracy - Float32").
    pub fn spirv_name(self) -> &'static str {
        match self {
            FloatType::Half => "Float16",
            FloatType::Float => "Float32",
            FloatType::Double => "Float64",
        }
    }

    /// Parses a command-line type name (`half`, `float`, `double`, or the SPIR-V names).
    pub fn parse(text: &str) -> Option<FloatType> {
        FloatType::ALL.into_iter().find(|t| {
            text.eq_ignore_ascii_case(t.name()) || text.eq_ignore_ascii_case(t.spirv_name())
        })
    }
}

impl fmt::Display for FloatType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FloatType {
    /// The value's encoding in this format (the value must be representable, e.g. produced by
    /// [`FloatType::round`] or [`FloatType::from_bits`]).
    pub fn to_bits(self, value: f64) -> u64 {
        match self {
            FloatType::Half => u64::from(half::f16::from_f64(value).to_bits()),
            FloatType::Float => u64::from((value as f32).to_bits()),
            FloatType::Double => value.to_bits(),
        }
    }

    /// The value an encoding of this format holds, widened exactly to `f64`.
    #[inline]
    pub fn from_bits(self, bits: u64) -> f64 {
        match self {
            FloatType::Half => half::f16::from_bits(bits as u16).to_f64(),
            FloatType::Float => f64::from(f32::from_bits(bits as u32)),
            FloatType::Double => f64::from_bits(bits),
        }
    }

    /// Rounds an `f64` once to the nearest value of this format (ties to even), overflow to
    /// infinity and subnormals included, widened back. For half this cannot go through
    /// `half::f16::from_f64`, which converts through `f32` on CPUs with F16C and so rounds
    /// twice (1.5708007974 becomes the half-way value 1.57080078125 in float, then 1.5703125
    /// by the tie rule, where the value rounded once is 1.5712890625).
    pub fn round(self, value: f64) -> f64 {
        match self {
            FloatType::Double => value,
            // `as f32` is IEEE convertFormat: one rounding, to nearest even.
            FloatType::Float => f64::from(value as f32),
            FloatType::Half if !value.is_finite() => value,
            FloatType::Half => {
                let gap = f64::from_bits(((self.gap_exponent(value) + 1023) as u64) << 52);
                // value / gap and back are exact scalings: the rounding to an integer is the
                // one rounding.
                let rounded = (value / gap).round_ties_even() * gap;
                if rounded.abs() > self.max_finite() {
                    f64::INFINITY.copysign(value)
                } else {
                    rounded
                }
            }
        }
    }

    /// log2 of the spacing of this format's values at the magnitude of a finite double (the
    /// subnormal spacing below the normal range, the top binade's beyond the largest finite
    /// value).
    pub fn gap_exponent(self, value: f64) -> i32 {
        // The binade of a double (subnormal doubles are far below any half or float spacing).
        let binade = (((value.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(-1022);
        binade.clamp(self.emin(), self.emax()) - self.precision() as i32 + 1
    }

    /// The values of this format next to a finite double, below and above it (both the
    /// value where it is one of the format's); past the largest finite value, the infinity.
    /// Rounding is monotonic and every value of the format is a double, so they are the
    /// exact value's own neighbours wherever the double is that value rounded to nearest.
    pub fn neighbours(self, value: f64) -> (f64, f64) {
        if self == FloatType::Double || !value.is_finite() {
            return (value, value);
        }
        let gap = pow2(self.gap_exponent(value));
        let scaled = value / gap;
        let finite = |v: f64| {
            if v.abs() > self.max_finite() {
                f64::INFINITY.copysign(v)
            } else {
                v
            }
        };
        (finite(scaled.floor() * gap), finite(scaled.ceil() * gap))
    }

    /// Whether `value` is a subnormal of this format: 0 < |value| < 2^emin.
    pub fn is_subnormal(self, value: f64) -> bool {
        value != 0.0 && value.abs() < pow2(self.emin())
    }

    /// The largest finite value.
    pub fn max_finite(self) -> f64 {
        match self {
            FloatType::Half => 65504.0,
            FloatType::Float => f64::from(f32::MAX),
            FloatType::Double => f64::MAX,
        }
    }

    /// Encodes values into a little-endian buffer of this format.
    pub fn encode(self, values: &[f64]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(values.len() * self.bytes());
        for value in values {
            let bits = self.to_bits(*value);
            bytes.extend_from_slice(&bits.to_le_bytes()[..self.bytes()]);
        }
        bytes
    }

    /// Decodes a little-endian buffer of this format.
    pub fn decode(self, bytes: &[u8]) -> Vec<f64> {
        bytes
            .chunks_exact(self.bytes())
            .map(|chunk| {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                self.from_bits(u64::from_le_bytes(word))
            })
            .collect()
    }
}

/// `a + b` rounded to nearest and its rounding error, exactly (Knuth's two-sum: no condition
/// on the operands' magnitudes; finite sums).
#[inline(always)]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let sum = a + b;
    let a_part = sum - b;
    let b_part = sum - a_part;
    (sum, (a - a_part) + (b - b_part))
}

/// Whether `value`'s stored fraction is zero: a normal power of two (or zero, or an infinity,
/// which the callers have set apart), where the binade below has half the ulp.
pub fn fraction_is_zero(value: f64) -> bool {
    value.to_bits() & ((1u64 << 52) - 1) == 0
}

/// 2^exponent, as `2f64.powi(exponent)` gives it but without compiler-rt's multiplication loop
/// (a quarter of ldexp's judging was that loop): exact from 2^-1023 to 2^1023, +0 below
/// (powi computes 1 / 2^-exponent, and 2^-exponent overflows there), +inf above. The sweeps
/// draw their magnitudes with it, so it stays powi's bit for bit: every seed gives the inputs
/// it always gave.
pub fn pow2(exponent: i32) -> f64 {
    if exponent > 1023 {
        f64::INFINITY
    } else if exponent >= -1022 {
        f64::from_bits(((exponent + 1023) as u64) << 52)
    } else if exponent == -1023 {
        f64::from_bits(1u64 << 51)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip_for_every_type() {
        for element in FloatType::ALL {
            let values = [0.0, -0.0, 1.5, -2.0, element.max_finite(), f64::INFINITY];
            let decoded = element.decode(&element.encode(&values));
            for (value, back) in values.iter().zip(&decoded) {
                assert_eq!(value.to_bits(), back.to_bits(), "{element} {value}");
            }
            assert!(element.decode(&element.encode(&[f64::NAN]))[0].is_nan());
        }
    }

    #[test]
    fn rounding_and_subnormals_follow_each_format() {
        assert_eq!(FloatType::Half.round(1.0 + 2f64.powi(-12)), 1.0);
        assert_eq!(FloatType::Half.round(65520.0), f64::INFINITY);
        assert_eq!(FloatType::Half.round(65519.99), 65504.0);
        // Rounded once, not through float (which gives 1.5703125 by a second tie).
        assert_eq!(FloatType::Half.round(1.5708007974), 1.5712890625);
        assert_eq!(FloatType::Half.round(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(
            FloatType::Half.round(2f64.powi(-25)),
            0.0,
            "half-way to the smallest subnormal: even"
        );
        assert_eq!(FloatType::Half.round(1.5 * 2f64.powi(-24)), 2f64.powi(-23));
        assert_eq!(FloatType::Float.round(0.1), f64::from(0.1f32));
        assert!(FloatType::Half.is_subnormal(2f64.powi(-15)));
        assert!(!FloatType::Half.is_subnormal(2f64.powi(-14)));
        assert!(FloatType::Float.is_subnormal(f64::from(f32::from_bits(1))));
        assert!(!FloatType::Double.is_subnormal(0.0));
    }

    #[test]
    fn neighbours_are_the_format_s_values_around_a_double() {
        let float = FloatType::Float;
        let one_up = f64::from(1.0f32.next_up());
        assert_eq!(float.neighbours(1.0), (1.0, 1.0));
        assert_eq!(float.neighbours(1.0 + 1e-9), (1.0, one_up));
        assert_eq!(float.neighbours(-1.0 - 1e-9), (-one_up, -1.0));
        assert_eq!(
            float.neighbours(1.0 - 1e-9),
            (f64::from(1.0f32.next_down()), 1.0)
        );
        // Subnormals, zero, and past the largest value.
        let tiny = f64::from(f32::from_bits(1));
        assert_eq!(float.neighbours(tiny / 3.0), (0.0, tiny));
        assert_eq!(float.neighbours(0.0), (0.0, 0.0));
        assert_eq!(
            float.neighbours(f64::from(f32::MAX) * (1.0 + 1e-12)),
            (f64::from(f32::MAX), f64::INFINITY)
        );
        assert_eq!(
            FloatType::Half.neighbours(1.0 + 1e-5),
            (1.0, 1.0 + 2f64.powi(-10))
        );
        assert_eq!(
            FloatType::Half.neighbours(65504.5),
            (65504.0, f64::INFINITY)
        );
        assert_eq!(FloatType::Double.neighbours(0.1), (0.1, 0.1));
    }

    /// The sweeps' inputs must not change: the same powers of two as `powi`, bit for bit, over
    /// every exponent a sweep draws and beyond.
    #[test]
    fn powers_of_two_are_those_powi_gave() {
        for exponent in -1200..=1200 {
            let expected = 2f64.powi(std::hint::black_box(exponent));
            assert_eq!(pow2(exponent).to_bits(), expected.to_bits(), "{exponent}");
        }
    }
}
