//! The source values of a conversion unit, as bit patterns of the source type: every value
//! where it fits, else special values then seeded random ones.
//!
//! # Inputs
//!
//! - Exhaustive where it fits: every half, every 8- and 16-bit integer (65,536 inputs at
//!   most), always; every float for the five float-to-half units (2^32 inputs, in 2^10 device
//!   launches of 2^22 elements) when [`ConversionSettings::exhaustive`] is set. One such unit
//!   takes about 206 s on the Intel CPU runtime with two cores (device and judging), so the
//!   five take about 17 minutes; float to double is exact and float to integer is decided by
//!   the range boundaries, so those stay sampled.
//! - Sampled otherwise (`double` sources, 32- and 64-bit integers, `float` sources):
//!   special values first (zeros, subnormal and normal limits, infinities, NaNs,
//!   and the destination's boundaries: its overflow threshold and the ties around it, its
//!   subnormal range and the ties there, the integer type's limits and their neighbours), then
//!   seeded random values, half uniform over the source's encodings and half over the range
//!   where the destination's rounding happens. The stream is seeded by
//!   [`crate::sweep::unit_seed`]`(seed, unit name, type, 1)`, so it is reproducible anywhere.
//!
//! 64-bit integer inputs appear in the CSV as `f64` values, which cannot hold every such
//! integer; a failing unit's note gives the worst input's exact value.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::num::convert::IntType;
use crate::num::fp::FloatType;
use crate::spec::conversion::{int_bits, Conversion};

/// What a run decides for every conversion unit.
#[derive(Clone, Debug, PartialEq)]
pub struct ConversionSettings {
    /// The run's seed (`--seed`); each unit's stream is [`crate::sweep::unit_seed`] of it.
    pub seed: u64,
    /// Inputs of a sampled unit (special values included).
    pub inputs: usize,
    /// Enumerate every `float` source value (2^32) instead of sampling (`--exhaustive`).
    pub exhaustive: bool,
    /// Threads judging results (`--threads`).
    pub threads: usize,
    /// Source values to run instead of the unit's own inputs (`--input`, `--input-file`: a
    /// summary's reproduce line); each case's first value.
    pub explicit: Option<crate::sweep::Cases>,
    /// The profile that judges the run (`--profile`): what the rows record, and so what
    /// `--resume` and `clacc merge` key them by, as every other unit's.
    pub profile: crate::spec::table::Profile,
    /// How the units' kernels reach the device (`--source`): the run's
    /// [`crate::spec::environment::KernelPath`].
    pub path: crate::spec::environment::KernelPath,
}

/// The per-unit seed of a conversion unit.
pub(crate) fn unit_seed(conversion: &Conversion, run_seed: u64) -> u64 {
    crate::sweep::unit_seed(run_seed, &conversion.name(), conversion.element(), 1)
}

/// The inputs of one unit.
pub(crate) enum Plan {
    /// Every bit pattern `0..count` of the source.
    Exhaustive { count: u64 },
    /// Listed bit patterns.
    Listed(Vec<u64>),
}

impl Plan {
    pub(crate) fn len(&self) -> u64 {
        match self {
            Plan::Exhaustive { count } => *count,
            Plan::Listed(values) => values.len() as u64,
        }
    }

    pub(crate) fn is_exhaustive(&self) -> bool {
        matches!(self, Plan::Exhaustive { .. })
    }

    /// Inputs `start..end` as source bit patterns.
    pub(crate) fn chunk(&self, start: u64, end: u64) -> Vec<u64> {
        match self {
            Plan::Exhaustive { .. } => (start..end).collect(),
            Plan::Listed(values) => values[start as usize..end as usize].to_vec(),
        }
    }
}

/// The plan for `conversion` under `settings`.
pub(crate) fn plan(conversion: &Conversion, settings: &ConversionSettings) -> Plan {
    if let Some(cases) = &settings.explicit {
        return Plan::Listed(
            cases
                .iter()
                .filter_map(|case| case.first())
                .map(|value| source_bits(conversion, *value))
                .collect(),
        );
    }
    match conversion.exhaustive_count(settings.exhaustive) {
        Some(count) => Plan::Exhaustive { count },
        None => Plan::Listed(sampled(
            conversion,
            settings.inputs,
            unit_seed(conversion, settings.seed),
        )),
    }
}

/// The source bit pattern of `value` (a CSV's `worst_input`): a float source takes the value
/// in its own format (a NaN with the payload written, see [`crate::num::hexfloat::parse`]), an
/// integer source the value truncated and wrapped to its width.
pub(crate) fn source_bits(conversion: &Conversion, value: f64) -> u64 {
    match *conversion {
        Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
            let value = crate::sweep::cases::explicit_value(
                from,
                crate::spec::signature::ValueKind::FloatGentype,
                value,
            );
            crate::num::hexfloat::element_bits(from, value)
        }
        Conversion::IntToFloat { from, .. } => int_bits(value as i128, from),
    }
}

/// The most inputs a sampled unit holds: its sample is one `Vec` (8 bytes an input, 128 MiB
/// here), so `--inputs` near 2^40 would exhaust the worker's memory. A larger request is cut
/// to this, and the row's note says so.
pub const SAMPLE_CAP: usize = 1 << 24;

/// How many inputs a sampled unit judges: `inputs` (at most [`SAMPLE_CAP`]), or all its
/// special values if more.
pub(crate) fn sampled_count(conversion: &Conversion, inputs: usize) -> usize {
    inputs.min(SAMPLE_CAP).max(specials(conversion).len())
}

/// Special values, then random values up to `count` (at most [`SAMPLE_CAP`]) in all.
pub(crate) fn sampled(conversion: &Conversion, count: usize, seed: u64) -> Vec<u64> {
    let mut values = specials(conversion);
    let total = count.min(SAMPLE_CAP).max(values.len());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while values.len() < total {
        let uniform = values.len().is_multiple_of(2);
        let value = match *conversion {
            Conversion::FloatToFloat { from, to, .. } => {
                if uniform {
                    random_bits(&mut rng, from.bits())
                } else {
                    // Where `to` rounds: its subnormals (and below) up to past its overflow.
                    let low = to.emin() - to.precision() as i32 - 2;
                    random_float(&mut rng, from, low, to.emax() + 2)
                }
            }
            Conversion::FloatToInt { from, to, .. } => {
                if uniform {
                    random_bits(&mut rng, from.bits())
                } else {
                    // Below 1 up to past the integer range.
                    random_float(&mut rng, from, -3, to.bits() as i32 + 1)
                }
            }
            Conversion::IntToFloat { from, .. } => {
                if uniform {
                    random_bits(&mut rng, from.bits())
                } else {
                    random_int_of_random_length(&mut rng, from)
                }
            }
        };
        values.push(value);
    }
    values
}

fn random_bits(rng: &mut ChaCha8Rng, bits: u32) -> u64 {
    let value: u64 = rng.random();
    if bits == 64 {
        value
    } else {
        value & ((1u64 << bits) - 1)
    }
}

/// A value of `element` with a random sign, a uniformly random exponent in `low..=high`
/// (clamped to the format's subnormal and normal range) and random fraction bits.
fn random_float(rng: &mut ChaCha8Rng, element: FloatType, low: i32, high: i32) -> u64 {
    let lowest = element.emin() - element.fraction_bits() as i32;
    let exponent = rng.random_range(low.max(lowest)..=high.min(element.emax()));
    let fraction: u64 = random_bits(rng, element.fraction_bits());
    let negative: bool = rng.random();
    // 1.fraction × 2^exponent, or a subnormal when the exponent is below emin: its bits are
    // then the fraction shifted into place, which keeps the value within [2^exponent,
    // 2^(exponent+1)).
    let bits = if exponent >= element.emin() {
        let biased = (exponent - element.emin() + 1) as u64;
        (biased << element.fraction_bits()) | fraction
    } else {
        let shift = (element.emin() - exponent) as u32;
        ((1u64 << element.fraction_bits()) | fraction) >> shift
    };
    let sign = if negative {
        1u64 << (element.bits() - 1)
    } else {
        0
    };
    sign | bits
}

/// An integer of `int` whose magnitude has a uniformly random bit length, so small values are
/// as frequent as large ones.
fn random_int_of_random_length(rng: &mut ChaCha8Rng, int: IntType) -> u64 {
    let magnitude_bits = if int.is_signed() {
        int.bits() - 1
    } else {
        int.bits()
    };
    let length = rng.random_range(1..=magnitude_bits);
    let magnitude = random_bits(rng, length) | (1u64 << (length - 1));
    let value = if int.is_signed() && rng.random::<bool>() {
        -i128::from(magnitude)
    } else {
        i128::from(magnitude)
    };
    int_bits(value, int)
}

/// The special values of a sampled unit, as source bits, without repeats.
pub(crate) fn specials(conversion: &Conversion) -> Vec<u64> {
    let mut bits = match *conversion {
        Conversion::FloatToFloat { from, to, .. } => {
            let mut values = float_specials(from);
            values.extend(float_boundaries(to));
            to_float_bits(from, &values)
        }
        Conversion::FloatToInt { from, to, .. } => {
            let mut values = float_specials(from);
            values.extend(integer_boundaries(to));
            to_float_bits(from, &values)
        }
        Conversion::IntToFloat { from, to, .. } => int_specials(from, to)
            .into_iter()
            .map(|n| int_bits(n, from))
            .collect(),
    };
    let mut seen = std::collections::HashSet::new();
    bits.retain(|b| seen.insert(*b));
    bits
}

/// ±0, subnormal and normal limits, ±1, ties between integers, ±max, ±inf, NaNs.
fn float_specials(element: FloatType) -> Vec<f64> {
    let min_subnormal = element.from_bits(1);
    let max_subnormal = element.from_bits((1u64 << element.fraction_bits()) - 1);
    let min_normal = 2f64.powi(element.emin());
    vec![
        0.0,
        min_subnormal,
        2.0 * min_subnormal,
        max_subnormal,
        min_normal,
        0.5,
        1.0,
        1.5,
        2.5,
        3.0,
        element.max_finite(),
        f64::INFINITY,
    ]
}

/// Where rounding to `to` decides between neighbours or overflows: its largest finite value,
/// the overflow threshold (a tie) and neighbours, its subnormal range with the ties there, and
/// ties in the middle of the range (odd and even significands).
fn float_boundaries(to: FloatType) -> Vec<f64> {
    let precision = to.precision() as i32;
    let max = to.max_finite();
    let top_ulp = 2f64.powi(to.emax() - precision + 1);
    let min_subnormal = to.from_bits(1);
    let min_normal = 2f64.powi(to.emin());
    let one_ulp = 2f64.powi(1 - precision);
    let mut values = vec![
        max,
        max + top_ulp / 2.0,
        max + top_ulp / 4.0,
        max + 3.0 * top_ulp / 4.0,
        max + top_ulp,
        min_subnormal,
        min_subnormal / 2.0,
        min_subnormal / 4.0,
        3.0 * min_subnormal / 4.0,
        1.5 * min_subnormal,
        2.5 * min_subnormal,
        min_normal,
        min_normal - min_subnormal / 2.0,
        min_normal - min_subnormal,
        1.0 + one_ulp / 2.0,
        1.0 + 3.0 * one_ulp / 2.0,
        1.0 + one_ulp / 4.0,
        1.0 + 3.0 * one_ulp / 4.0,
        1.0 - one_ulp / 4.0,
    ];
    values.retain(|v| v.is_finite());
    values
}

/// The integer type's limits and what lies around them, and the values around zero where
/// truncation and the unsigned range's lower end meet.
fn integer_boundaries(to: IntType) -> Vec<f64> {
    let min = to.min() as f64;
    let max = to.max() as f64;
    let mut values = vec![
        0.25,
        0.75,
        -0.25,
        -0.75,
        -1.0,
        min,
        max,
        max + 1.0,
        max + 0.5,
        max - 0.5,
        max + 2.0,
        min - 1.0,
        min - 0.5,
        min + 0.5,
        2.0 * max,
        -2.0 * max,
    ];
    // The largest values below 2^(bits-1) and 2^bits of the source formats, e.g. 2^31 - 128 for
    // a float source and an int destination (the last float below the range's end).
    for power in [to.bits() - 1, to.bits()] {
        let edge = 2f64.powi(power as i32);
        for element in FloatType::ALL {
            let below = element.from_bits(element.to_bits(edge) - 1);
            values.push(below);
            values.push(-below);
        }
    }
    values
}

/// Bits of ±each value rounded into `element` (values it cannot hold are rounded to nearest,
/// which still lands next to the boundary), then NaNs: the default quiet NaN, a negative one,
/// and one with a payload (a signalling pattern where the format allows it).
fn to_float_bits(element: FloatType, values: &[f64]) -> Vec<u64> {
    let mut bits = Vec::new();
    for value in values {
        let rounded = element.round(*value);
        bits.push(element.to_bits(rounded));
        bits.push(element.to_bits(-rounded));
    }
    let sign = 1u64 << (element.bits() - 1);
    let exponent_mask =
        ((1u64 << (element.bits() - 1 - element.fraction_bits())) - 1) << element.fraction_bits();
    let quiet = exponent_mask | (1u64 << (element.fraction_bits() - 1));
    bits.push(quiet);
    bits.push(sign | quiet);
    bits.push(exponent_mask | 1);
    bits.push(quiet | 0x15);
    bits
}

/// 0, ±1, the type's limits, every power of two with its neighbours, and the values around
/// `to`'s precision where rounding starts (ties between representable neighbours, odd and
/// even) and around its overflow threshold.
fn int_specials(from: IntType, to: FloatType) -> Vec<i128> {
    let mut values = vec![
        0,
        1,
        -1,
        from.min(),
        from.max(),
        from.min() + 1,
        from.max() - 1,
    ];
    for k in 0..from.bits() {
        let power = 1i128 << k;
        values.extend([power - 1, power, power + 1, -power - 1, -power, -power + 1]);
    }
    let precision = to.precision();
    for k in precision..from.bits() {
        let power = 1i128 << k;
        // In [2^k, 2^(k+1)) the gap is 2^(k - p + 1): the tie above 2^k is half a gap up.
        let gap = 1i128 << (k + 1 - precision);
        let half = gap / 2;
        values.extend([
            power + half,
            power + gap + half,
            power + half + 1,
            power + half - 1,
        ]);
        values.extend([-(power + half), -(power + gap + half)]);
    }
    let max = to.max_finite();
    if max < 2f64.powi(from.bits() as i32) {
        // Half: 65504 is the largest, 65520 the tie to overflow.
        for value in [
            max,
            max + 1.0,
            max + 15.0,
            max + 16.0,
            max + 17.0,
            max + 31.0,
        ] {
            values.push(value as i128);
            values.push(-(value as i128));
        }
    }
    values.retain(|n| from.contains(*n));
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::convert::Rounding;

    #[test]
    fn sampled_inputs_start_with_specials_and_are_reproducible() {
        let conversion = Conversion::FloatToFloat {
            from: FloatType::Double,
            to: FloatType::Half,
            rounding: Some(Rounding::Rtn),
        };
        let specials = specials(&conversion);
        let first = sampled(&conversion, 1000, 5);
        assert_eq!(first.len(), 1000);
        assert_eq!(&first[..specials.len()], specials.as_slice());
        assert_eq!(first, sampled(&conversion, 1000, 5));
        assert_ne!(first, sampled(&conversion, 1000, 6));
        // The overflow tie of half (65520) and the smallest half subnormal's half are there.
        assert!(specials.contains(&65520f64.to_bits()));
        assert!(specials.contains(&2f64.powi(-25).to_bits()));
        // The focused random half lands where half rounds: within [2^-27, 2^17).
        let focused = first[specials.len()..]
            .iter()
            .skip(1)
            .step_by(2)
            .map(|b| f64::from_bits(*b).abs())
            .filter(|x| (2f64.powi(-40)..2f64.powi(17)).contains(x))
            .count();
        assert!(focused > 400, "{focused}");

        let long = Conversion::IntToFloat {
            from: IntType::I64,
            to: FloatType::Float,
            rounding: None,
        };
        let ints = super::specials(&long);
        let tie = (1i128 << 24) + 1;
        assert!(ints.contains(&int_bits(tie, IntType::I64)));
        assert!(ints.contains(&int_bits(i128::from(i64::MIN), IntType::I64)));
    }
}
