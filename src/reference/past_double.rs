//! Where a function's exact value is finite and past the largest double, from a bound on its
//! arguments alone: there its correctly rounded double tier is that infinity, with the
//! overflow flag raised ([`super::why_infinite`]'s `PastDouble`), so a sweep's result equal to
//! the column's infinity has the overflow verdict without evaluating the double tier (float
//! pow: a quarter of a random sweep's inputs, two CORE-MATH calls each).
//!
//! A rule says `true` only where `|f(args)| > 2^1024` (above every double, so it rounds to
//! infinity), for finite arguments; `false` wherever its bound does not show it, which leaves
//! the input to the double tier. Each bound keeps a margin of at least one unit in the last
//! place of the compared double (the comparisons are of doubles computed with at most one
//! rounding). The tests hold every rule to `why_infinite` on the double tier.

/// |f(args)| > 2^1024, where the function's bound shows it.
pub type PastDoubleFn = fn(&[f64]) -> bool;

/// e^x is increasing, and e^710 = 2^1024.3.
pub fn exp(args: &[f64]) -> bool {
    args[0] >= 710.0 && args[0].is_finite()
}

/// 2^x is increasing, and 2^1025 is past 2^1024.
pub fn exp2(args: &[f64]) -> bool {
    args[0] >= 1025.0 && args[0].is_finite()
}

/// 10^x is increasing, and 10^309 = 2^1026.5.
pub fn exp10(args: &[f64]) -> bool {
    args[0] >= 309.0 && args[0].is_finite()
}

/// e^x − 1 is increasing, and e^710 − 1 = 2^1024.3.
pub fn expm1(args: &[f64]) -> bool {
    exp(args)
}

/// |sinh x| and cosh x are (e^|x| ± e^−|x|)/2 >= (e^|x| − 1)/2, increasing in |x|, and
/// (e^711 − 1)/2 = 2^1024.3.
pub fn hyperbolic(args: &[f64]) -> bool {
    args[0].abs() >= 711.0 && args[0].is_finite()
}

/// Γ is increasing on [2, ∞), and Γ(172) = 171! = 2^1027.8.
pub fn tgamma(args: &[f64]) -> bool {
    args[0] >= 172.0 && args[0].is_finite()
}

/// pow(x, y) = ±|x|^y for finite `x != 0` and `y` (`y` an integer where `x < 0`; elsewhere there
/// it is NaN). With `e` the exponent of `x` (|x| in [2^e, 2^(e+1)); for a subnormal double
/// only |x| < 2^(e+1) holds, with `e = −1023`, and only that bound is used for `e <= −2`):
/// - `e >= 1`, `y > 0`: |x|^y >= 2^(e·y);
/// - `e <= −2`, `y < 0`: |x|^y = (1/|x|)^|y| > 2^(−(e+1)·|y|) = 2^((e+1)·y).
///
/// The exponent, rounded once, is at least 1025 where this says so, so exactly it is above
/// 1025 − 2^−42: the value is past 2^1024. (For float `y` the product with an integer of 11
/// bits is exact.)
pub fn pow(args: &[f64]) -> bool {
    let (x, y) = (args[0], args[1]);
    if !x.is_finite() || !y.is_finite() || x == 0.0 || (x < 0.0 && y.trunc() != y) {
        return false;
    }
    let e = f64::from(((x.to_bits() >> 52) & 0x7ff) as i32 - 1023);
    (e >= 1.0 && y > 0.0 && e * y >= 1025.0) || (e <= -2.0 && y < 0.0 && (e + 1.0) * y >= 1025.0)
}

/// powr(x, y) is pow(x, y) for x > 0 (NaN below).
pub fn powr(args: &[f64]) -> bool {
    args[0] > 0.0 && pow(args)
}

#[cfg(test)]
mod tests {
    use crate::num::test_draws::Xorshift;
    use crate::reference::{binding, why_infinite, Infinity};
    use crate::spec::registry::FUNCTIONS;

    /// Every rule against the double tier's own infinity and flag: wherever a rule says
    /// `true`, `why_infinite` says the value is past double. Arguments: floats and doubles
    /// drawn log-uniformly over their whole range, both signs, and the edges of each bound.
    #[test]
    fn past_double_is_the_double_tiers_overflow() {
        let mut draws = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut draw = move |double: bool| {
            let bits = draws.next_bits();
            if double {
                f64::from_bits(bits)
            } else {
                f64::from(f32::from_bits((bits >> 16) as u32))
            }
        };
        let edges: [f64; 13] = [
            709.0,
            710.0,
            711.0,
            171.0,
            172.0,
            1024.0,
            1025.0,
            308.0,
            309.0,
            2.0,
            0.5,
            0.25,
            1025.0 / 3.0,
        ];
        let mut checked = 0;
        for function in FUNCTIONS {
            for output in function.outputs {
                let (Some(past_double), Some(fast)) = (
                    binding::past_double(output.reference),
                    binding::fast_tier(output),
                ) else {
                    continue;
                };
                let arity = function.shape.signature().operand_count();
                let mut said = 0;
                for draw_number in 0..400_000 {
                    let mut args: Vec<f64> =
                        (0..arity).map(|_| draw(draw_number % 2 == 0)).collect();
                    if draw_number % 5 == 0 {
                        let edge = edges[draw_number / 5 % edges.len()];
                        let beside = [edge.next_down(), edge, edge.next_up()];
                        args[draw_number % arity] = beside[draw_number / 55 % 3];
                    }
                    if !past_double(&args) {
                        continue;
                    }
                    said += 1;
                    assert_eq!(
                        why_infinite(fast, &args),
                        Some(Infinity::PastDouble),
                        "{}({args:?}): said past double",
                        function.name
                    );
                }
                assert!(
                    said > 1000,
                    "{}: the rule said so {said} times",
                    function.name
                );
                checked += 1;
            }
        }
        assert!(checked >= 8, "{checked} functions with a past-double rule");
    }
}
