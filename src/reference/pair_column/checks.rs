//! The checks every two-argument column takes: against its scalar tier (CORE-MATH) over one
//! argument's floats and random pairs, and against MPFR on special values.

use crate::num::fp::FloatType;
use crate::num::test_draws::Xorshift;
use crate::reference::{binding, correctly_rounded_value, FastFn};
use crate::spec::reference_id::ReferenceId;

/// A column of a two-argument function.
pub type PairColumn = fn(&[f64], &[f64], &mut Vec<f64>);

/// Floats every column meets: zeros, infinities, NaN, ones, the ends of the subnormals and
/// normals, and values of the exponents between.
pub fn specials() -> Vec<f64> {
    let mut values = vec![
        0.0,
        1.0,
        f64::INFINITY,
        f64::NAN,
        f64::from(f32::from_bits(1)),
        f64::from(f32::from_bits(0x007f_ffff)),
        f64::from(f32::MIN_POSITIVE),
        f64::from(f32::MAX),
        3.0,
        0.1f32.into(),
        1e-20f32.into(),
        1e20f32.into(),
        0.75,
        1.5,
        2f64.powi(-24),
        f64::from(1.0f32 + f32::EPSILON),
        f64::from(1.0f32 - f32::EPSILON / 2.0),
        std::f64::consts::PI as f32 as f64,
    ];
    let negatives: Vec<f64> = values.iter().map(|x| -x).collect();
    values.extend(negatives);
    values
}

/// Every pair of [`specials`].
pub fn special_pairs() -> Vec<(f64, f64)> {
    let values = specials();
    values
        .iter()
        .flat_map(|x| values.iter().map(move |y| (*x, *y)))
        .collect()
}

/// The tests' bit stream, for the pairs they draw.
struct Draws(Xorshift);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0.next_bits()
    }

    /// A float of random bits, or (one time in two) one within a few binades of 1.
    fn float(&mut self) -> f64 {
        let bits = self.next();
        let x = f32::from_bits(bits as u32);
        if bits & (1 << 40) == 0 {
            f64::from(x)
        } else {
            let near_one = f32::from_bits(
                (bits as u32 & 0x807f_ffff) | ((120 + (bits >> 48) as u32 % 16) << 23),
            );
            f64::from(near_one)
        }
    }
}

/// The pairs where `column`'s value is not NaN and differs from `scalar`'s, as
/// (x, y, column, scalar), and how many of NaN-free pairs it left undecided.
fn mismatches(
    column: PairColumn,
    scalar: FastFn,
    x: &[f64],
    y: &[f64],
) -> (Vec<(f64, f64, f64, f64)>, usize) {
    let mut values = Vec::new();
    column(x, y, &mut values);
    assert_eq!(values.len(), x.len());
    let mut undecided = 0;
    let mut wrong = Vec::new();
    for ((x, y), value) in x.iter().zip(y).zip(&values) {
        if value.is_nan() {
            undecided += usize::from(!x.is_nan() && !y.is_nan());
            continue;
        }
        let expected = scalar(&[*x, *y]);
        if value.to_bits() != expected.to_bits() {
            wrong.push((*x, *y, *value, expected));
        }
    }
    (wrong, undecided)
}

/// `column` against `scalar`: each argument swept over every 31st block of 2^16 float
/// encodings (every exponent, both signs) against four of [`specials`] and as many random
/// floats, a different four each block (every float against 1 and −π with
/// `CLACC_EVERY_FLOAT=1`: 2^34 pairs, about 20 CPU minutes a function), then `CLACC_RANDOM_PAIRS` random
/// pairs (10^6 by default; a thousandth in debug builds). Prints how many pairs without a
/// NaN argument it left undecided.
pub fn sweep_against_scalar(column: PairColumn, scalar: FastFn, name: &str) {
    let every_float = std::env::var_os("CLACC_EVERY_FLOAT").is_some();
    let stride: u64 = if every_float {
        1
    } else if cfg!(debug_assertions) {
        97 * 31
    } else {
        31
    };
    const BLOCK: u64 = 1 << 16;
    let mut draws = Draws(Xorshift(0x2545_f491_4f6c_dd1d));
    let mut others = specials();
    others.extend((0..others.len()).map(|_| draws.float()));
    let mut undecided = 0;
    let mut swept = Vec::with_capacity(BLOCK as usize);
    let mut fixed = vec![0.0; BLOCK as usize];
    for number in (0..(1u64 << 32) / BLOCK).step_by(stride as usize) {
        swept.clear();
        swept.extend(
            (number * BLOCK..(number + 1) * BLOCK)
                .map(|bits| f64::from(f32::from_bits(bits as u32))),
        );
        let chosen: Vec<f64> = if every_float {
            vec![1.0, -f64::from(std::f32::consts::PI)]
        } else {
            (0..4)
                .map(|k| others[(number as usize / 31 * 4 + k) % others.len()])
                .collect()
        };
        for other in chosen {
            fixed.fill(other);
            for (x, y) in [(&swept, &fixed), (&fixed, &swept)] {
                let (wrong, left) = mismatches(column, scalar, x, y);
                assert!(
                    wrong.is_empty(),
                    "{name}: {:?}",
                    &wrong[..wrong.len().min(5)]
                );
                undecided += left;
            }
        }
    }
    eprintln!("{name}: {undecided} swept pairs without NaN left undecided (stride {stride})");
    let pairs: u64 = std::env::var("CLACC_RANDOM_PAIRS")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            1000
        } else {
            1_000_000
        });
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut left_total = 0;
    let mut drawn = 0;
    while drawn < pairs {
        let count = (pairs - drawn).min(BLOCK);
        x.clear();
        y.clear();
        for _ in 0..count {
            x.push(draws.float());
            y.push(draws.float());
        }
        let (wrong, left) = mismatches(column, scalar, &x, &y);
        assert!(
            wrong.is_empty(),
            "{name}: {:?}",
            &wrong[..wrong.len().min(5)]
        );
        left_total += left;
        drawn += count;
    }
    eprintln!("{name}: {left_total} of {pairs} random pairs without NaN left undecided");
}

/// A two-argument domain test (`nan_at` of `crate::judge::tiers::PairColumnTier`) against
/// `scalar`: `nan_at` exactly where `scalar` is NaN, on [`special_pairs`], on every 127th
/// block of each argument's floats against one of [`specials`] or a random float (every
/// exponent, both signs; all floats with `CLACC_EVERY_FLOAT=1`), both orders, and on 10^6
/// random pairs (a thousandth of both in debug builds).
pub fn nan_domain_matches(nan_at: fn(f64, f64) -> bool, scalar: FastFn, name: &str) {
    let check = |x: f64, y: f64| {
        assert_eq!(
            nan_at(x, y),
            scalar(&[x, y]).is_nan(),
            "{name}({x:e}, {y:e}): nan_at"
        );
    };
    for (x, y) in special_pairs() {
        check(x, y);
    }
    let stride = if std::env::var_os("CLACC_EVERY_FLOAT").is_some() {
        1
    } else if cfg!(debug_assertions) {
        97 * 127
    } else {
        127
    };
    const BLOCK: u64 = 1 << 16;
    let mut draws = Draws(Xorshift(0x9e37_79b9_7f4a_7c15));
    let mut others = specials();
    others.extend((0..others.len()).map(|_| draws.float()));
    for number in (0..(1u64 << 32) / BLOCK).step_by(stride) {
        let other = others[number as usize / stride % others.len()];
        for bits in number * BLOCK..(number + 1) * BLOCK {
            let swept = f64::from(f32::from_bits(bits as u32));
            check(swept, other);
            check(other, swept);
        }
    }
    let pairs = if cfg!(debug_assertions) {
        1000
    } else {
        1_000_000
    };
    for _ in 0..pairs {
        check(draws.float(), draws.float());
    }
}

/// `column` at `pairs` against MPFR's value correctly rounded to `element`; returns how many
/// it decided.
pub fn agree_with_mpfr(
    column: PairColumn,
    id: ReferenceId,
    element: FloatType,
    pairs: &[(f64, f64)],
) -> usize {
    let x: Vec<f64> = pairs.iter().map(|pair| pair.0).collect();
    let y: Vec<f64> = pairs.iter().map(|pair| pair.1).collect();
    let mut values = Vec::new();
    column(&x, &y, &mut values);
    let mut decided = 0;
    for ((x, y), value) in x.iter().zip(&y).zip(&values) {
        if value.is_nan() {
            continue;
        }
        decided += 1;
        let correct = correctly_rounded_value(binding::mpfr(id), &[*x, *y], element);
        assert_eq!(value.to_bits(), correct.to_bits(), "{id:?}({x:e}, {y:e})");
    }
    decided
}
