//! The inputs of the extension checks: every float8 code, half and small integer where they
//! fit, else special values (each float8 value, each tie and a hair either side) and seeded
//! random ones; the float_controls2 operand pairs; the arithmetic fence's triples.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::num::convert::Rounding;
use crate::num::fp::FloatType;
use crate::spec::conversion::{int_bits, Scalar};
use crate::spec::extension::{Fc2Check, Float8Check, Other};

/// The most inputs a sampled float8 check runs: they go to the device in one launch (as the
/// arithmetic_fence check's 2^20), so `--inputs` near 2^40 would exhaust memory.
pub const SAMPLE_CAP: usize = 1 << 20;

impl Float8Check {
    /// The source bit pattern of `value` (a CSV's `worst_input`, as a reproduce line gives
    /// it): a float in its own format, an integer truncated to its width, a float8 value as
    /// its code (a NaN as the first NaN code).
    pub fn source_bits(&self, value: f64) -> u64 {
        match *self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            } => crate::num::hexfloat::element_bits(
                element,
                crate::sweep::cases::explicit_value(
                    element,
                    crate::spec::signature::ValueKind::FloatGentype,
                    value,
                ),
            ),
            Float8Check::To {
                from: Other::Int(int),
                ..
            } => int_bits(value as i128, int),
            Float8Check::From { from, .. } => (0..=255u8)
                .find(|code| {
                    let decoded = from.decode(*code);
                    decoded.to_bits() == value.to_bits() || (decoded.is_nan() && value.is_nan())
                })
                .map_or_else(
                    || u64::from(from.encode_f64(value, Rounding::TO_FLOAT_DEFAULT, false)),
                    u64::from,
                ),
        }
    }

    /// The input bits of a sampled check (float and `int` sources), specials first.
    fn sampled(&self, count: usize, seed: u64) -> Vec<u64> {
        let format = self.format();
        let mut values: Vec<u64> = Vec::new();
        match self.source() {
            Scalar::Float(32) => {
                let element = FloatType::Float;
                let mut finite: Vec<f64> = (0..=255u8)
                    .map(|code| format.decode(code))
                    .filter(|x| x.is_finite())
                    .collect();
                finite.sort_by(|a, b| a.partial_cmp(b).unwrap());
                finite.dedup();
                // Every float8 value, every midpoint (a tie) and a hair either side of it.
                let mut specials = finite.clone();
                specials.push(-0.0);
                for pair in finite.windows(2) {
                    let middle = (pair[0] + pair[1]) / 2.0;
                    let hair = (pair[1] - pair[0]) / 1024.0;
                    specials.extend([middle, middle - hair, middle + hair]);
                }
                // The overflow region: past the largest finite value, its tie with the next
                // (virtual) value, and beyond.
                let max = format.max_finite();
                let gap = max - finite[finite.len() - 2];
                specials.extend([max + gap / 2.0, max + gap / 4.0, max + gap, 2.0 * max]);
                specials.extend([format.min_subnormal() / 2.0, format.min_subnormal() / 4.0]);
                specials.extend([1.0e30, f64::INFINITY, f64::NEG_INFINITY]);
                for x in specials {
                    values.push(element.to_bits(element.round(x)));
                }
                values.push(0x7fc0_0000);
                values.push(0xffc0_0000);
                dedup(&mut values);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while values.len() < count {
                    let random: u32 = rng.random();
                    let value = if values.len().is_multiple_of(2) {
                        random
                    } else {
                        // A float in the float8 range (2^-18 to 2^17), random sign.
                        let exponent = rng.random_range(-18i32..=17);
                        let fraction = random & 0x7f_ffff;
                        let sign = random & 0x8000_0000;
                        sign | (((exponent + 127) as u32) << 23) | fraction
                    };
                    values.push(u64::from(value));
                }
            }
            Scalar::Int(bits) => {
                let int = match self {
                    Float8Check::To {
                        from: Other::Int(int),
                        ..
                    } => *int,
                    _ => unreachable!("integer sources are To checks"),
                };
                let mut specials: Vec<i128> = vec![0, 1, -1, int.min(), int.max()];
                for k in 0..bits {
                    let power = 1i128 << k;
                    specials.extend([power - 1, power, power + 1, -power, -power - 1]);
                }
                for value in [448, 464, 465, 480, 57344, 61440, 61441, 65536] {
                    specials.extend([value, -value]);
                }
                specials.retain(|n| int.contains(*n));
                values.extend(specials.into_iter().map(|n| int_bits(n, int)));
                dedup(&mut values);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while values.len() < count {
                    let length = rng.random_range(1..=bits);
                    let raw: u64 = rng.random();
                    values.push(raw & (u64::MAX >> (64 - length)));
                }
            }
            _ => unreachable!("exhaustive sources are not sampled"),
        }
        values
    }

    /// The inputs (source bits) of the check; a sample holds at most [`SAMPLE_CAP`].
    pub fn inputs(&self, count: usize, seed: u64) -> Vec<u64> {
        match self.exhaustive_count() {
            Some(all) => (0..all).collect(),
            None => self.sampled(count.min(SAMPLE_CAP), seed),
        }
    }
}

/// Drops repeated values, keeping the first of each.
fn dedup(values: &mut Vec<u64>) {
    let mut seen = HashSet::new();
    values.retain(|v| seen.insert(*v));
}

impl Fc2Check {
    /// The (x, y) operand pairs, values of the check's type widened to `f64`: every pair of
    /// ±0, ±0.25, ±1, ±4, ±inf and NaN (121 pairs), then the type's overflow pairs: (M, ±4),
    /// (±M, M) and (−M, −M), M its largest finite value (5 pairs).
    ///
    /// Why these, per type: on the grid every finite result of the five instructions is exact
    /// and normal in half, float and double alike (sums like 4.25 need 5 significant bits,
    /// quotients and products lie in [2^-4, 2^4], half's normal range starts at 2^-14), so
    /// only the special-value semantics decide and OpFDiv, which need not be correctly
    /// rounded, is judged on exact quotients. Overflow is where the type shows: M · 4, M + M,
    /// −M − M and −M + (−M) are infinite in the type but finite one format wider (a device
    /// that computes half in float and saturates, or keeps float's range, gives a finite
    /// value), so they give NotInf infinite results of finite operands besides 1 / 0; M ± 4
    /// rounds back to M (4 is below half an ulp of M in every type: correctly rounded
    /// addition), M / ±4 and M / M are exact. Only M as the dividend: a quotient by M would be
    /// inexact or subnormal.
    pub fn inputs(&self) -> Vec<(f64, f64)> {
        let values = [
            0.0,
            -0.0,
            0.25,
            -0.25,
            1.0,
            -1.0,
            4.0,
            -4.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let mut pairs: Vec<(f64, f64)> = values
            .iter()
            .flat_map(|x| values.iter().map(move |y| (*x, *y)))
            .collect();
        let max = self.element.max_finite();
        pairs.extend([
            (max, 4.0),
            (max, -4.0),
            (max, max),
            (-max, max),
            (-max, -max),
        ]);
        pairs
    }
}

/// (a, b, c) triples where the order matters: `(X + −X) + s` is `s` but `X + (−X + s)` is 0,
/// and `(s + X) + −X` is 0 but `s + (X + −X)` is `s`, for |X| in [2^20, 2^100) and |s| below
/// a quarter of X's ulp (so `X + s` rounds to X), at least 2^-30. Seeded.
pub fn fence_inputs(count: usize, seed: u64) -> Vec<[f32; 3]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut triples = vec![
        [1.0e30f32, -1.0e30, 1.0],
        [1.0, 1.0e30, -1.0e30],
        [16777216.0, -16777216.0, 0.25],
        [0.25, 16777216.0, -16777216.0],
    ];
    let float = |exponent: i32, fraction: u32| {
        f32::from_bits((((exponent + 127) as u32) << 23) | (fraction & 0x7f_ffff))
    };
    while triples.len() < count {
        let exponent = rng.random_range(20i32..100);
        let big = float(exponent, rng.random());
        let big = if rng.random() { big } else { -big };
        // ulp(X) = 2^(exponent - 23); below 2^(exponent - 25) is below a quarter of it.
        let small = float(rng.random_range(-30..exponent - 25), rng.random());
        let small = if rng.random() { small } else { -small };
        triples.push(if triples.len().is_multiple_of(2) {
            [big, -big, small]
        } else {
            [small, big, -big]
        });
    }
    triples
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::float8::Float8Format;

    #[test]
    fn float8_sampled_inputs_hold_every_code_value_and_every_tie() {
        let check = Float8Check::To {
            from: Other::Float(FloatType::Float),
            to: Float8Format::E4M3,
            saturate: false,
        };
        let inputs = check.inputs(3000, 1);
        assert_eq!(inputs.len(), 3000);
        assert_eq!(inputs, check.inputs(3000, 1));
        for code in 0..=255u8 {
            let value = Float8Format::E4M3.decode(code);
            if value.is_finite() {
                assert!(
                    inputs.contains(&FloatType::Float.to_bits(value)),
                    "{code:#x}"
                );
            }
        }
        // 464 (the tie between 448 and the NaN pattern) and 0.5 * 2^-9.
        assert!(inputs.contains(&FloatType::Float.to_bits(464.0)));
        assert!(inputs.contains(&FloatType::Float.to_bits(2f64.powi(-10))));
    }
}
