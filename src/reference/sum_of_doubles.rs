//! Exact values that are sums of doubles: fma, dot, cross, mix and fmod of double arguments, written
//! as a few doubles whose sum is the value exactly ([`ExactSum`]), for measuring a double
//! result's error without MPFR ([`crate::num::ulp::ulp_error_of_sum`]).
//!
//! **Products.** A product of two doubles is added exactly, as an integer times 2^-2148
//! ([`ExactSum::add_product`]); one of 2^1100 or more is declined (`false`): MPFR decides.
//!
//! **The same number as MPFR's reference.** The error is measured against the exact value
//! rounded once at the working precision, which is MPFR's reference only where MPFR's value
//! is that rounding: `mpfr_fma` rounds once, fmod is exact (its value is a double); the dot
//! product adds exact products to a running sum rounded at 426 bits (`reference::geometric`),
//! which [`dot`] does too; mix adds two products computed in 426 bits
//! (`reference::common`), exact where every partial value spans at most 420 bits, and [`mix`]
//! declines elsewhere.

use crate::num::exact_sum::ExactSum;
use crate::num::fp::FloatType;

/// The precision of MPFR's running sums in the dot product and cross: the double working
/// precision and the guard bits (`reference::geometric`).
fn mpfr_sum_precision() -> u32 {
    super::working_precision(FloatType::Double) + super::GUARD_BITS
}

/// Bits a partial value of 426-bit MPFR arithmetic may span and still be exact (module docs).
const WIDEST_EXACT_SPAN: i32 = 420;

/// `x·y + z`, as `mpfr_fma` rounds it once.
pub fn fma(args: &[f64], sum: &mut ExactSum) -> bool {
    let [x, y, z] = args else { return false };
    args.iter().all(|a| a.is_finite()) && sum.add_product(*x, *y) && {
        sum.add(*z);
        true
    }
}

/// `Σ xᵢ·yᵢ` (`args` holds x's components, then y's), summed as MPFR sums it: each exact
/// product added to a running sum held at 426 bits.
pub fn dot(args: &[f64], sum: &mut ExactSum) -> bool {
    if !args.len().is_multiple_of(2) || !args.iter().all(|a| a.is_finite()) {
        return false;
    }
    let (x, y) = args.split_at(args.len() / 2);
    x.iter().zip(y).all(|(x, y)| {
        let split = sum.add_product(*x, *y);
        sum.round_to(mpfr_sum_precision());
        split
    })
}

/// Component `index` of `cross(x, y)`, `x[i]·y[j] − x[j]·y[i]` (i, j the next two indices,
/// mod 3), rounded at 426 bits as MPFR subtracts the products; 0 for a 4-vector's fourth.
fn cross(args: &[f64], sum: &mut ExactSum, index: usize) -> bool {
    if !args.len().is_multiple_of(2) || args.len() < 6 || !args.iter().all(|a| a.is_finite()) {
        return false;
    }
    if index == 3 {
        return true;
    }
    let (x, y) = args.split_at(args.len() / 2);
    let (i, j) = ((index + 1) % 3, (index + 2) % 3);
    let split = sum.add_product(x[i], y[j]) && sum.add_product(-x[j], y[i]);
    sum.round_to(mpfr_sum_precision());
    split
}

/// Component 0 of `cross(x, y)`.
pub fn cross_0(args: &[f64], sum: &mut ExactSum) -> bool {
    cross(args, sum, 0)
}

/// Component 1 of `cross(x, y)`.
pub fn cross_1(args: &[f64], sum: &mut ExactSum) -> bool {
    cross(args, sum, 1)
}

/// Component 2 of `cross(x, y)`.
pub fn cross_2(args: &[f64], sum: &mut ExactSum) -> bool {
    cross(args, sum, 2)
}

/// Component 3 of `cross(x, y)` at width 4: 0.
pub fn cross_3(args: &[f64], sum: &mut ExactSum) -> bool {
    cross(args, sum, 3)
}

/// `x·(1 − a) + y·a`, each part exact in MPFR's 426 bits where the spans allow.
pub fn mix(args: &[f64], sum: &mut ExactSum) -> bool {
    let [x, y, a] = args else { return false };
    if !args.iter().all(|a| a.is_finite()) {
        return false;
    }
    // 1 − a as two doubles (Knuth's two-sum: exact where the sum does not overflow).
    let complement = 1.0 - a;
    let part = complement - 1.0;
    let complement_error = (1.0 - (complement - part)) + (-a - part);
    let mut one_minus_a = ExactSum::default();
    one_minus_a.add(1.0);
    one_minus_a.subtract(*a);
    one_minus_a.term_span() <= WIDEST_EXACT_SPAN
        && sum.add_product(*x, complement)
        && sum.add_product(*x, complement_error)
        && sum.add_product(*y, *a)
        && sum.term_span() <= WIDEST_EXACT_SPAN - 10
}

/// `x − y·trunc(x/y)`, a double (C's fmod is exact), for a non-zero y.
pub fn fmod(args: &[f64], sum: &mut ExactSum) -> bool {
    let [x, y] = args else { return false };
    if !x.is_finite() || !y.is_finite() || *y == 0.0 {
        return false;
    }
    sum.add(x % y);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::exact_sum::Moved;
    use crate::reference::{binding, high_precision};
    use crate::spec::reference_id::ReferenceId as Id;
    use rug::Float;

    /// Each function's sum, rounded at the working precision, is MPFR's reference (where the
    /// function does not decline, which is most arguments).
    #[test]
    fn sums_are_the_mpfr_references() {
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move || draws.next_bits();
        let mut draw = move || match next() % 4 {
            0 => f64::from_bits(next()),
            1 => (next() % 2001) as f64 / 1000.0 - 1.0,
            2 => f64::from_bits(0x3ff0_0000_0000_0000 | next() >> 12) * (next() % 200) as f64,
            _ => f64::from_bits(next() % (1 << 62)) - 0.5,
        };
        type Terms = fn(&[f64], &mut ExactSum) -> bool;
        let functions: [(Id, Terms, usize); 10] = [
            (Id::Cross0, cross_0, 6),
            (Id::Cross1, cross_1, 6),
            (Id::Cross2, cross_2, 6),
            (Id::Cross3, cross_3, 8),
            (Id::Fma, fma, 3),
            (Id::Mix, mix, 3),
            (Id::Fmod, fmod, 2),
            (Id::Dot, dot, 4),
            (Id::Dot, dot, 6),
            (Id::Dot, dot, 8),
        ];
        for (id, function, arity) in functions {
            let mut decided = 0;
            for _ in 0..20_000 {
                let args: Vec<f64> = (0..arity).map(|_| draw()).collect();
                let mut sum = ExactSum::default();
                if !function(&args, &mut sum) {
                    continue;
                }
                let operands: Vec<Float> = args.iter().map(|a| Float::with_val(53, a)).collect();
                let reference = high_precision(binding::mpfr(id), &operands, FloatType::Double);
                let mut value = sum.value();
                let moved = value.round_to(170);
                if moved == Moved::Down && value.is_power_of_two() {
                    // MPFR's reference stands just beyond the power of two there, and
                    // `ulp_error_of_sum` declines.
                    continue;
                }
                assert_eq!(value.to_float(), reference, "{id:?} {args:?}");
                decided += 1;
            }
            assert!(decided > 10_000, "{id:?}: {decided} decided");
        }
    }
}
