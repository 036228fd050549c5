//! Float hypot over columns of float pairs: `sqrt(x² + y²)` correctly rounded to float, or NaN
//! where undecided (about one input in 2^26, and NaN arguments).
//!
//! **The lane.** For floats `x` and `y` (exact in double), `x·x` and `y·y` are exact in double:
//! 48 significant bits, and exponents between 2^-298 and 2^256, inside double's normal range.
//! Their sum `s` is rounded once (relative error at most `u = 2^-53`) and `r = sqrt(s)` once
//! more, so `r = h·sqrt(1 + ε₁)·(1 + ε₂)` with `|ε₁|, |ε₂| <= u`: `r` lies within
//! `1.5·u + u² < 2^-52.4` of `h = hypot(x, y)`, relative. Neither step overflows or
//! underflows (`s <= 2^257`), and `h = 0` gives `r = 0` exactly.
//!
//! **The rounding test** ([`super::rounded`]) takes `r·(1 ± 2^-50)`, whose ends (rounded
//! once more) still lie outside `r·(1 ± 2^-50.2)`, beyond the lane's error: where they round
//! to the same float, that float is the correctly rounded hypot. Exact results (hypot(3, 4)
//! = 5) are floats, kept; a result that is a float midpoint (a Pythagorean triple whose
//! hypotenuse has 25 significant bits) makes the ends round apart and is left to the scalar
//! tier, which breaks the tie.
//!
//! **Special values.** An infinite argument gives +∞ even beside a NaN (hypot(∞, NaN) = ∞):
//! selected before the lane's value. Otherwise a NaN argument makes `r` NaN, and the rounding
//! test gives NaN (undecided: the scalar tier gives the NaN). Signs of zeros vanish in the
//! squares: hypot(±0, ±0) = +0.

/// The rounding test's half-width, relative (the lane errs by at most 2^-52.4).
const TEST_WIDTH: f64 = 1.0 / 1_125_899_906_842_624.0; // 2^-50

/// hypot of every pair `(x[i], y[i])` of floats, correctly rounded to float, NaN where
/// undecided.
pub fn hypotf(x: &[f64], y: &[f64], out: &mut Vec<f64>) {
    super::column(x, y, out, lane);
}

/// `hypot(x, y)` correctly rounded to float, or NaN (the proof is in the module's comment).
#[inline(always)]
fn lane(x: f64, y: f64) -> f64 {
    let value = super::rounded((x * x + y * y).sqrt(), TEST_WIDTH);
    if x.is_infinite() || y.is_infinite() {
        f64::INFINITY
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::super::checks;
    use crate::reference::fast;
    use crate::spec::reference_id::ReferenceId;

    /// Every 31st block of `x` floats against a set of `y` (all of them with
    /// `CLACC_EVERY_FLOAT=1`), and random pairs: the column is CORE-MATH's wherever it decides.
    #[test]
    fn hypot_is_core_maths() {
        checks::sweep_against_scalar(super::hypotf, fast::hypotf, "hypot");
    }

    /// Special values, exact results and ties against MPFR.
    #[test]
    fn hypot_agrees_with_mpfr() {
        let mut pairs = checks::special_pairs();
        // Pythagorean triples (exact results) and a hypotenuse of 25 significant bits (a
        // float midpoint: 11869760² + 11867601² = 16784849², whose ends round apart).
        for (a, b) in [
            (3.0, 4.0),
            (5.0, 12.0),
            (8_119.0, 16_240.0),
            (11_869_760.0, 11_867_601.0),
        ] {
            for scale in [1.0, 2f64.powi(-140), 2f64.powi(100)] {
                pairs.push((a * scale, b * scale));
            }
        }
        let decided = checks::agree_with_mpfr(super::hypotf, ReferenceId::Hypot, &pairs);
        assert!(decided > pairs.len() / 2, "{decided} of {}", pairs.len());
        let mut five = Vec::new();
        super::hypotf(&[3.0, f64::INFINITY], &[4.0, f64::NAN], &mut five);
        assert_eq!(five, [5.0, f64::INFINITY]);
    }
}
