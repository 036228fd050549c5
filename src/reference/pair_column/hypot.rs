//! Float hypot over columns of float pairs: `sqrt(x² + y²)` correctly rounded to float, or NaN
//! where undecided (about one input in 2^26, and NaN arguments), and correctly rounded to
//! double likewise.
//!
//! **The lane.** For floats `x` and `y` (exact in double), `x·x` and `y·y` are exact in double:
//! 48 significant bits, and exponents between 2^-298 and 2^256, inside double's normal range.
//! Their sum `s` is rounded once (relative error at most `u = 2^-53`) and `r = sqrt(s)` once
//! more, so `r = h·sqrt(1 + ε₁)·(1 + ε₂)` with `|ε₁|, |ε₂| <= u`: `r` lies within
//! `1.5·u + u² < 2^-52.4` of `h = hypot(x, y)`, relative. Neither step overflows or
//! underflows (`s <= 2^257`), and `h = 0` gives `r = 0` exactly.
//!
//! **The rounding test** ([`crate::reference::exp_column::rounded`]) takes `r·(1 ± 2^-50)`, whose ends (rounded
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
//!
//! **The double column.** `p + q` (`p = x·x`, `q = y·y`, exact) is held exactly as
//! `s_high + s_low` (Knuth's two-sum), `r = sqrt(s_high)` is rounded once, and
//! `r² = square_high + square_low` exactly (Dekker's product, `r` split into halves of 26 and
//! 27 bits by Veltkamp's constant). No step overflows (`r <= 2^129`) or leaves double's
//! normal range (every value is a multiple of 2^-352 or zero, the smallest nonzero `r_low²`).
//! With `|s_low| <= u·s_high`, `|square_low| <= u·r²` and `r² = s_high·(1 + δ)²`, `|δ| <= u`:
//! - the residual `d = p + q − r²`: `s_high − square_high` is exact (Sterbenz: they lie
//!   within a factor 2), and the two further roundings, on values below `3.02·u·s_high` and
//!   `4.03·u·s_high`, err by at most `7.05·u²·s_high` together;
//! - `h = sqrt(r² + d) = r + d/(2r) − e` with `0 <= e <= d²/(8r³)·1.01 <= 2.05·u²·r`
//!   (`|d| <= 4.03·u·r²`); the computed correction `d'/(2r)` (`2r` exact) differs from
//!   `d/(2r)` by `3.53·u²·r` (the residual's error) plus its rounding, `2.02·u²·r`: so
//!   `h − r` lies within `7.6·u²·r < 2^-103·r` of the correction.
//!
//! The test takes `r + (correction ∓ 2^-100·r)`: the inner sums, rounded (by at most
//! `2.02·u²·r`), still enclose `h − r`, and rounding `r + t` to double is monotonic in `t`,
//! so where both ends give one double it is `h`'s correctly rounded double; an exact `h`
//! (hypot(3, 4)) is kept, a midpoint between doubles never. `r = 0` (both arguments zero)
//! gives 0/0, NaN: left to the scalar tier, as NaN arguments are; an infinite argument gives
//! +∞ as in the float column.

use crate::reference::exp_column::rounded;

/// The rounding test's half-width, relative (the lane errs by at most 2^-52.4).
const TEST_WIDTH: f64 = 1.0 / 1_125_899_906_842_624.0; // 2^-50

/// hypot of every pair `(x[i], y[i])` of floats, correctly rounded to float, NaN where
/// undecided.
// The closure, not the function item, is what inlines the lane ([`super::column`]).
#[allow(clippy::redundant_closure)]
pub fn hypotf(x: &[f64], y: &[f64], out: &mut Vec<f64>) {
    super::column(
        x,
        y,
        out,
        #[inline(always)]
        |x, y| lane(x, y),
    );
}

/// `hypot(x, y)` correctly rounded to float, or NaN (the proof is in the module's comment).
#[inline(always)]
fn lane(x: f64, y: f64) -> f64 {
    let value = rounded((x * x + y * y).sqrt(), TEST_WIDTH);
    if x.is_infinite() || y.is_infinite() {
        f64::INFINITY
    } else {
        value
    }
}

/// hypot of every pair `(x[i], y[i])` of floats, correctly rounded to double, NaN where
/// undecided.
// The closure, not the function item, is what inlines the lane ([`super::column`]).
#[allow(clippy::redundant_closure)]
pub fn hypot_of_floats(x: &[f64], y: &[f64], out: &mut Vec<f64>) {
    super::column(
        x,
        y,
        out,
        #[inline(always)]
        |x, y| double_lane(x, y),
    );
}

/// Veltkamp's splitting constant, 2^27 + 1: `c·v − (c·v − v)` keeps `v`'s high 26 bits.
const SPLITTER: f64 = 134_217_729.0;

/// The double test's half-width, relative to `r` (the lane errs by at most 2^-103.2).
const DOUBLE_TEST_WIDTH: f64 = 1.0 / 1_267_650_600_228_229_401_496_703_205_376.0; // 2^-100

/// `hypot(x, y)` correctly rounded to double, or NaN (the proof is in the module's comment).
#[inline(always)]
fn double_lane(x: f64, y: f64) -> f64 {
    let (p, q) = (x * x, y * y);
    // Knuth's two-sum: s_high + s_low = p + q exactly.
    let s_high = p + q;
    let p_part = s_high - q;
    let q_part = s_high - p_part;
    let s_low = (p - p_part) + (q - q_part);
    let r = s_high.sqrt();
    // Dekker's product: r·r = square_high + square_low exactly.
    let scaled = SPLITTER * r;
    let r_high = scaled - (scaled - r);
    let r_low = r - r_high;
    let square_high = r * r;
    let square_low = ((r_high * r_high - square_high) + 2.0 * r_high * r_low) + r_low * r_low;
    let residual = ((s_high - square_high) - square_low) + s_low;
    let correction = residual / (2.0 * r);
    let width = r * DOUBLE_TEST_WIDTH;
    let below = r + (correction - width);
    let above = r + (correction + width);
    if x.is_infinite() || y.is_infinite() {
        f64::INFINITY
    } else if below == above {
        below
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::super::checks;
    use crate::num::fp::FloatType;
    use crate::reference::fast;
    use crate::spec::reference_id::ReferenceId;

    /// Every 31st block of `x` floats against a set of `y` (all of them with
    /// `CLACC_EVERY_FLOAT=1`), and random pairs: the column is CORE-MATH's wherever it decides.
    #[test]
    fn hypot_is_core_maths() {
        checks::sweep_against_scalar(super::hypotf, fast::hypotf, "hypot");
    }

    /// The double column likewise, against CORE-MATH's double hypot.
    #[test]
    fn double_hypot_is_core_maths() {
        checks::sweep_against_scalar(super::hypot_of_floats, fast::hypot, "hypot (double)");
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
        for (column, element) in [
            (super::hypotf as checks::PairColumn, FloatType::Float),
            (super::hypot_of_floats, FloatType::Double),
        ] {
            let decided = checks::agree_with_mpfr(column, ReferenceId::Hypot, element, &pairs);
            assert!(decided > pairs.len() / 2, "{decided} of {}", pairs.len());
        }
        let mut five = Vec::new();
        super::hypotf(&[3.0, f64::INFINITY], &[4.0, f64::NAN], &mut five);
        assert_eq!(five, [5.0, f64::INFINITY]);
        super::hypot_of_floats(&[3.0, f64::INFINITY], &[4.0, f64::NAN], &mut five);
        assert_eq!(five, [5.0, f64::INFINITY]);
    }
}
