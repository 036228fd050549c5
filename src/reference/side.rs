//! Which side of a power of two an exact value lies on, from the function's shape alone.
//!
//! The spec takes ulp(x) at the exact value x, and at a power of two 2^k the gap above and the
//! gap below differ by a factor of two (`num::ulp`). Where a fast tier's double is exactly
//! ±2^k, the exact value may lie on either side (exp2 of any |x| < 2^-54 rounds to 1 in
//! double), so the error of a result that is not the correctly rounded one is known only up
//! to that factor, and the input went to MPFR. These rules settle the side for the functions
//! whose values sit on a power of two over whole ranges of inputs (near 0 for exp, cos, erfc,
//! acospi; near an integer for exp2; near 1 for pow), each from a property of the function
//! that holds for every real argument: monotonicity, a bound, the points where it equals the
//! power of two. A rule answers |f(args)| compared with |power| (`Less`, `Equal`, `Greater`),
//! or `None` where its property does not settle it; it never depends on a rounding. The tests
//! check every rule against MPFR: its value at 600 bits and, where that is ±2^k, its rounding
//! direction.

use std::cmp::Ordering;

/// |f(args)| compared with |power| (a power of two), where the function's shape settles it.
pub type SideFn = fn(&[f64], f64) -> Option<Ordering>;

/// k where `value` is ±2^k, a normal double; `None` for every other value.
pub fn exponent_of_power_of_two(value: f64) -> Option<i32> {
    let bits = value.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    (crate::num::fp::fraction_is_zero(value) && field != 0 && field != 0x7ff)
        .then_some(field - 1023)
}

/// exp2 is increasing and exp2(k) = 2^k: exp2(x) compares with 2^k as x with k (an exact
/// comparison of two doubles). A negative power of two is never a value of exp2.
pub fn exp2(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power <= 0.0 || x.is_nan() {
        return None;
    }
    let k = f64::from(exponent_of_power_of_two(power)?);
    x.partial_cmp(&k)
}

/// exp and exp10 are increasing and equal 1 exactly at x = 0: at the power 1 they compare as
/// x with 0. (Other powers of two are values at irrational arguments: `None`.)
pub fn exp(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power != 1.0 || x.is_nan() {
        return None;
    }
    x.partial_cmp(&0.0)
}

/// cosh(x) >= 1, with equality only at x = 0.
pub fn cosh(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power != 1.0 || x.is_nan() {
        return None;
    }
    Some(if x == 0.0 {
        Ordering::Equal
    } else {
        Ordering::Greater
    })
}

/// |cos(x)| <= 1, with equality only at multiples of π, of which 0 is the only rational one
/// (every finite argument is rational).
pub fn cos(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power.abs() != 1.0 || !x.is_finite() {
        return None;
    }
    Some(if x == 0.0 {
        Ordering::Equal
    } else {
        Ordering::Less
    })
}

/// |cospi(x)| <= 1, with equality exactly at the integers.
pub fn cospi(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power.abs() != 1.0 || !x.is_finite() {
        return None;
    }
    Some(if x == x.trunc() {
        Ordering::Equal
    } else {
        Ordering::Less
    })
}

/// erfc is decreasing from 2 (at −∞) through 1 (at 0) to 0 (at +∞): at 1 it compares as −x
/// with 0; below 2 everywhere but at −∞.
pub fn erfc(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if x.is_nan() {
        return None;
    }
    if power == 1.0 {
        return 0.0.partial_cmp(&x);
    }
    if power == 2.0 {
        return Some(if x == f64::NEG_INFINITY {
            Ordering::Equal
        } else {
            Ordering::Less
        });
    }
    None
}

/// acospi is decreasing on [−1, 1] from 1 through 1/2 (at 0) to 0: at 1/2 it compares as −x
/// with 0; below 1 everywhere but at −1.
pub fn acospi(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if !(-1.0..=1.0).contains(&x) {
        return None;
    }
    if power == 0.5 {
        return 0.0.partial_cmp(&x);
    }
    if power == 1.0 {
        return Some(if x == -1.0 {
            Ordering::Equal
        } else {
            Ordering::Less
        });
    }
    None
}

/// atan2pi(y, x) is the angle of (x, y) in half-turns, in [−1, 1]:
/// - |atan2pi| = 1/2 exactly where the point is on the y axis (x = ±0, y ≠ 0) or at y = ±∞
///   with x finite; elsewhere, for y ≠ 0, it is below 1/2 in the right half-plane (x > 0) and
///   above it in the left one (x < 0);
/// - |atan2pi| = 1/4 on the diagonal |y| = x > 0 (infinities included), and for x > 0 it
///   compares with 1/4 as |y| with x;
/// - |atan2pi| = 1 exactly on the negative x axis (y = ±0 and x < 0 or x = −0) and at
///   x = −∞ with y finite; below 1 everywhere else.
pub fn atan2pi(args: &[f64], power: f64) -> Option<Ordering> {
    let (y, x) = (args[0], args[1]);
    if x.is_nan() || y.is_nan() {
        return None;
    }
    match power.abs() {
        0.5 if y == 0.0 => None,
        0.5 if x == 0.0 || (y.is_infinite() && x.is_finite()) => Some(Ordering::Equal),
        0.5 => 0.0.partial_cmp(&x),
        0.25 if x > 0.0 => y.abs().partial_cmp(&x),
        1.0 => Some(
            if (y == 0.0 && x.is_sign_negative()) || (y.is_finite() && x == f64::NEG_INFINITY) {
                Ordering::Equal
            } else {
                Ordering::Less
            },
        ),
        _ => None,
    }
}

/// pow, powr and pown at |power| = 1: |x|^y is 1 exactly where |x| = 1 or y = 0, above 1 where
/// |x| and y are on the same side of 1 and 0 (|x| > 1 and y > 0, or |x| < 1 and y < 0), and
/// below 1 otherwise (infinite operands included: 0^(+y) = 0, ∞^(−y) = 0, 0^(−y) = ∞).
/// A negative x with a finite y that is not an integer has no real power (NaN): `None`.
pub fn pow(args: &[f64], power: f64) -> Option<Ordering> {
    let (x, y) = (args[0].abs(), args[1]);
    if power.abs() != 1.0 || x.is_nan() || y.is_nan() {
        return None;
    }
    if args[0] < 0.0 && y.is_finite() && y != y.trunc() {
        return None;
    }
    if x == 1.0 || y == 0.0 {
        return Some(Ordering::Equal);
    }
    Some(if (x > 1.0) == (y > 0.0) {
        Ordering::Greater
    } else {
        Ordering::Less
    })
}

/// powr(x, y) = e^(y ln x) as [`pow`], where it is defined: x >= 0, and not 0^0, ∞^0 or 1^±∞
/// (NaN by its edge-case rules).
pub fn powr(args: &[f64], power: f64) -> Option<Ordering> {
    let (x, y) = (args[0], args[1]);
    let undefined =
        x < 0.0 || (y == 0.0 && (x == 0.0 || x.is_infinite())) || (x == 1.0 && y.is_infinite());
    if undefined {
        return None;
    }
    pow(args, power)
}

/// rootn(x, n) = x^(1/n) at |power| = 1: |x|^(1/n) compares with 1 as pow does with y = 1/n
/// (n = 0 has no root, nor has x < 0 an even root: NaN).
pub fn rootn(args: &[f64], power: f64) -> Option<Ordering> {
    let n = args[1];
    if n == 0.0 || (args[0] < 0.0 && n % 2.0 == 0.0) {
        return None;
    }
    pow(&[args[0], args[1].signum()], power)
}

/// tgamma for x > 0 at 1: Γ(1) = Γ(2) = 1, Γ < 1 on (1, 2) and Γ > 1 on (0, 1) and (2, ∞)
/// (Γ is convex on x > 0, with its minimum 0.8856 at 1.4616).
pub fn tgamma(args: &[f64], power: f64) -> Option<Ordering> {
    let x = args[0];
    if power != 1.0 || x.is_nan() || x <= 0.0 {
        return None;
    }
    Some(if x == 1.0 || x == 2.0 {
        Ordering::Equal
    } else if x > 1.0 && x < 2.0 {
        Ordering::Less
    } else {
        Ordering::Greater
    })
}

#[cfg(test)]
mod tests {
    use crate::reference::{self, binding};
    use crate::spec::reference_id::ReferenceId as Id;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rug::Float;
    use std::cmp::Ordering;

    /// |exact| against |power| by MPFR: its value at 600 bits, and where that is ±|power|,
    /// the side its rounding direction says the exact value is on.
    fn mpfr_side(id: Id, args: &[f64], power: f64) -> Ordering {
        let operands: Vec<Float> = args.iter().map(|x| reference::operand(*x)).collect();
        let mut value = Float::new(600);
        let rounding = binding::mpfr(id)(&mut value, &operands);
        match value.as_abs().partial_cmp(&power.abs()) {
            Some(Ordering::Equal) if value.is_sign_negative() => rounding,
            Some(Ordering::Equal) => rounding.reverse(),
            Some(side) => side,
            None => panic!("{id:?}{args:?} is NaN where the rule answered"),
        }
    }

    /// Arguments near the points where each rule's function equals a power of two (tiny,
    /// near ±1 and ±2, integers), and random floats of every binade.
    fn arguments(rng: &mut ChaCha8Rng) -> f64 {
        let tiny = f64::from(f32::from_bits(rng.random::<u32>() & 0x33ff_ffff));
        let near = [0.0, 1.0, -1.0, 2.0, 3.0, -7.0, 0.5][rng.random_range(0..7)];
        match rng.random_range(0..4) {
            0 => tiny,
            1 => f64::from((near + tiny) as f32),
            2 => f64::from(f32::from_bits(rng.random::<u32>())),
            _ => near,
        }
    }

    #[test]
    fn every_side_rule_agrees_with_mpfr() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut answered = std::collections::BTreeMap::<String, usize>::new();
        let ids = [
            (Id::Exp, 1),
            (Id::Exp2, 1),
            (Id::Exp10, 1),
            (Id::Cosh, 1),
            (Id::Cos, 1),
            (Id::Cospi, 1),
            (Id::Erfc, 1),
            (Id::Acospi, 1),
            (Id::Atan2pi, 2),
            (Id::Pow, 2),
            (Id::Powr, 2),
            (Id::Pown, 2),
            (Id::Rootn, 2),
            (Id::Tgamma, 1),
        ];
        for (id, arguments_taken) in &ids {
            let fast = binding::fast(*id).expect("a side rule is for a fast tier");
            let side = fast.side.expect("a rule");
            let double = match fast.double {
                binding::DoubleTier::CorrectlyRounded(double)
                | binding::DoubleTier::Near(double) => double,
            };
            for _ in 0..5_000 {
                let mut args: Vec<f64> =
                    (0..*arguments_taken).map(|_| arguments(&mut rng)).collect();
                if matches!(id, Id::Pown | Id::Rootn) {
                    // pown's and rootn's n is an int.
                    args[1] = args[1].trunc().clamp(-2_147_483_648.0, 2_147_483_647.0);
                }
                let approximation = double(&args);
                let mut powers = vec![0.25, 0.5, 1.0, 2.0, -1.0, -0.5];
                if super::exponent_of_power_of_two(approximation).is_some() {
                    powers.push(approximation);
                }
                for power in powers {
                    if let Some(side) = side(&args, power) {
                        assert_eq!(
                            side,
                            mpfr_side(*id, &args, power),
                            "{id:?}{args:?} beside {power}"
                        );
                        *answered.entry(format!("{id:?}")).or_default() += 1;
                    }
                }
            }
        }
        // Every rule answered, on many inputs.
        for (id, _) in ids {
            let id = format!("{id:?}");
            assert!(
                answered.get(&id).copied().unwrap_or(0) > 300,
                "{id}: {answered:?}"
            );
        }
    }
}
