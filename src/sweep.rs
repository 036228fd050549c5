//! Inputs for one unit (function, type, width): special values first, then seeded random values.
//!
//! Deterministic: the same seed gives the same inputs on any machine, because each unit's
//! random stream is seeded from the run's seed and the unit's name through a fixed hash.

use crate::fp::FloatType;
use crate::registry::Function;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed a run uses unless `--seed` says otherwise (printed in every summary).
pub const DEFAULT_SEED: u64 = 0x00c1_acc0;

/// A per-unit seed: FNV-1a over the run seed and the unit's name, stable across platforms.
pub fn unit_seed(run_seed: u64, function: &str, element: FloatType, width: u32) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let unit = format!("{run_seed}/{function}/{}/{width}", element.name());
    for byte in unit.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Values every function is tried on: zeros, subnormal and normal limits, infinities, NaN,
/// small integers and halves, and neighbours of the values where functions change behaviour.
pub fn special_values(element: FloatType) -> Vec<f64> {
    let smallest_subnormal = element.from_bits(1);
    let largest_subnormal = element.from_bits((1u64 << element.fraction_bits()) - 1);
    let smallest_normal = 2f64.powi(element.emin());
    let max = element.max_finite();
    let magnitudes = [
        0.0,
        smallest_subnormal,
        largest_subnormal,
        smallest_normal,
        0.5,
        1.0,
        1.5,
        2.0,
        3.0,
        10.0,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::E,
        1.0 - 2f64.powi(-(element.precision() as i32)),
        1.0 + 2f64.powi(1 - element.precision() as i32),
        2f64.powi(element.precision() as i32 - 1) + 0.5,
        2f64.powi(element.precision() as i32),
        max,
        f64::INFINITY,
    ];
    let mut values = Vec::with_capacity(2 * magnitudes.len() + 1);
    for magnitude in magnitudes {
        let value = element.round(magnitude);
        values.push(value);
        values.push(-value);
    }
    values.push(f64::NAN);
    values
}

/// A smaller set for the cross products of two- and three-argument functions.
/// (±0, ±smallest subnormal, ±smallest normal, ±1, ±2, ±3, ±max, ±inf, NaN for pairs.)
fn special_values_for_products(element: FloatType, arguments: usize) -> Vec<f64> {
    let all = special_values(element);
    let keep: &[usize] = if arguments == 2 {
        &[0, 1, 2, 3, 6, 7, 10, 11, 14, 15, 16, 17, 34, 35, 36, 37, 38]
    } else {
        &[0, 1, 2, 3, 10, 11, 14, 15, 36, 37, 38]
    };
    keep.iter().map(|i| all[*i]).collect()
}

/// One column of values per argument, all of the same length: every special value (or
/// combination of them) first, then random values up to at least `count` in all, rounded up
/// to a multiple of `width` so that every vector is full.
pub fn generate(
    function: &Function,
    element: FloatType,
    arguments: usize,
    count: usize,
    width: u32,
    seed: u64,
) -> Vec<Vec<f64>> {
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); arguments];
    if arguments == 1 {
        columns[0] = special_values(element);
    } else {
        let specials = special_values_for_products(element, arguments);
        let combinations = specials.len().pow(arguments as u32);
        for mut index in 0..combinations {
            for column in columns.iter_mut() {
                column.push(specials[index % specials.len()]);
                index /= specials.len();
            }
        }
    }
    let width = width.max(1) as usize;
    let total = count.max(columns[0].len()).div_ceil(width) * width;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while columns[0].len() < total {
        for (argument, column) in columns.iter_mut().enumerate() {
            column.push(random_value(
                &mut rng,
                element,
                function.sample_range(argument),
            ));
        }
    }
    columns
}

/// Half the time a uniform bit pattern (covering every exponent, NaNs and infinities too),
/// half the time a uniform value of the function's interesting interval.
fn random_value(rng: &mut ChaCha8Rng, element: FloatType, (low, high): (f64, f64)) -> f64 {
    if rng.random::<bool>() {
        let mask = if element.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << element.bits()) - 1
        };
        element.from_bits(rng.random::<u64>() & mask)
    } else {
        element.round(low + (high - low) * rng.random::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn specials_hold_the_format_limits_with_both_signs() {
        let values = special_values(FloatType::Float);
        let has = |x: f64| values.iter().any(|v| v.to_bits() == x.to_bits());
        assert!(has(0.0) && has(-0.0));
        assert!(has(f64::from(f32::from_bits(1))));
        assert!(has(f64::from(f32::MIN_POSITIVE)) && has(-f64::from(f32::MAX)));
        assert!(has(f64::INFINITY) && has(f64::NEG_INFINITY));
        assert!(values.iter().any(|v| v.is_nan()));
        // Every special is a value of the format.
        for element in FloatType::ALL {
            for value in special_values(element) {
                assert!(value.is_nan() || element.round(value) == value);
            }
        }
    }

    #[test]
    fn generation_is_deterministic_and_sized() {
        let sin = registry::find("sin").unwrap();
        let seed = unit_seed(DEFAULT_SEED, "sin", FloatType::Float, 4);
        let first = generate(sin, FloatType::Float, 1, 1001, 4, seed);
        let again = generate(sin, FloatType::Float, 1, 1001, 4, seed);
        assert_eq!(first[0].len(), 1004);
        let bits = |c: &Vec<f64>| c.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&first[0]), bits(&again[0]));
        let other = generate(sin, FloatType::Float, 1, 1001, 4, seed + 1);
        assert_ne!(bits(&first[0]), bits(&other[0]));
        for value in &first[0] {
            assert!(value.is_nan() || FloatType::Float.round(*value) == *value);
        }
    }

    #[test]
    fn binary_specials_cover_every_pair() {
        let pow = registry::find("pow").unwrap();
        let columns = generate(pow, FloatType::Float, 2, 10, 1, 7);
        assert_eq!(columns.len(), 2);
        assert_eq!(columns[0].len(), 17 * 17);
        let zero_inf = columns[0]
            .iter()
            .zip(&columns[1])
            .any(|(x, y)| *x == 0.0 && *y == f64::NEG_INFINITY);
        assert!(zero_inf);
    }

    #[test]
    fn unit_seeds_differ_per_unit() {
        let a = unit_seed(1, "sin", FloatType::Float, 1);
        assert_ne!(a, unit_seed(1, "cos", FloatType::Float, 1));
        assert_ne!(a, unit_seed(1, "sin", FloatType::Half, 1));
        assert_ne!(a, unit_seed(1, "sin", FloatType::Float, 2));
        assert_ne!(a, unit_seed(2, "sin", FloatType::Float, 1));
    }
}
