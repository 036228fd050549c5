//! Float fma over whole columns of float triples: `x·y + z` rounded once to float, and rounded
//! once to double, many lanes at a time. Both columns decide every input (NaN only where the
//! value is NaN).
//!
//! **Exact.** The scalar tiers ([`crate::reference::fast::fmaf`], [`crate::reference::fast::fma`])
//! are IEEE 754's fusedMultiplyAdd on the operands as floats and as doubles: `f32::mul_add` and
//! `f64::mul_add`, which compute `x·y + z` exactly and round it once to nearest even (subnormal
//! results included: Rust leaves MXCSR's flush-to-zero and denormals-are-zero off), and give
//! NaN exactly where the operation is invalid (a NaN operand, ∞·0, ∞ − ∞). The lanes here are
//! the same two operations on the same operands (a float held as a double converts to `f32`
//! exactly), so each lane's value is the scalar tier's, bit for bit: the correctly rounded
//! float (double) of the exact value. No step rounds twice. What changes is only where the
//! operation runs: inlined into [`crate::num::wide::widest`]'s copies, compiled with the `fma`
//! feature, it is one fused multiply-add instruction a lane; the scalar tier, compiled for the
//! x86-64 baseline, called libm's `fmaf` for each input (about 9 ns, 11% of a float fma
//! sweep's samples).
//!
//! **NaN.** The value is NaN exactly where `x·y + z` evaluated in double is: for float
//! operands `x·y` is exact in double (48 significant bits, magnitude at most 2^256, never an
//! overflow or underflow), so the double product is infinite exactly where the exact one is,
//! and NaN exactly at ∞·0; the sum is then NaN exactly at a NaN operand or opposite infinities,
//! as fusedMultiplyAdd's.

/// `lane(x[i], y[i], z[i])` into `out` (cleared first), in the widest vectors.
#[inline(always)]
fn column(
    x: &[f64],
    y: &[f64],
    z: &[f64],
    out: &mut Vec<f64>,
    lane: impl Fn(f64, f64, f64) -> f64,
) {
    assert!(
        x.len() == y.len() && x.len() == z.len(),
        "argument columns of several lengths"
    );
    out.clear();
    out.resize(x.len(), 0.0);
    crate::num::wide::widest(
        #[inline(always)]
        || {
            for (((x, y), z), value) in x.iter().zip(y).zip(z).zip(out.iter_mut()) {
                *value = lane(*x, *y, *z);
            }
        },
    );
}

/// fma of every float triple, rounded once to float (the module's proof).
pub fn fmaf(x: &[f64], y: &[f64], z: &[f64], out: &mut Vec<f64>) {
    column(
        x,
        y,
        z,
        out,
        #[inline(always)]
        |x, y, z| f64::from((x as f32).mul_add(y as f32, z as f32)),
    );
}

/// fma of every float triple, rounded once to double (the module's proof).
pub fn fma_of_floats(x: &[f64], y: &[f64], z: &[f64], out: &mut Vec<f64>) {
    column(
        x,
        y,
        z,
        out,
        #[inline(always)]
        |x, y, z| x.mul_add(y, z),
    );
}

/// Whether fma is NaN at the floats `(x, y, z)` (the module's proof).
#[inline(always)]
pub fn fma_is_nan(x: f64, y: f64, z: f64) -> bool {
    (x * y + z).is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::{binding, correctly_rounded_value, fast};
    use crate::spec::reference_id::ReferenceId;

    /// Special values, floats whose product and sum cancel, round to a tie, overflow or fall
    /// among the subnormals, and random triples: both columns against MPFR's correctly rounded
    /// value (NaN where it is NaN), and the scalar tiers bit for bit; the domain test exactly
    /// where the value is NaN.
    #[test]
    fn fma_columns_are_mpfrs() {
        // The columns' specials (both signs) and 0.5.
        let mut specials = crate::reference::pair_column::checks::specials();
        specials.push(0.5);
        let [mut x, mut y, mut z] = crate::num::test_draws::every_tuple(&specials);
        let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut draw = move || draws.next_bits();
        for _ in 0..100_000 {
            let bits = draw();
            let (a, b) = (
                f32::from_bits(bits as u32),
                f32::from_bits((bits >> 32) as u32),
            );
            // A quarter with z the negated product's float (cancellation, exact zeros), a
            // quarter with z half an ulp of it away (ties), a quarter with small exponents
            // (subnormal results), the rest random.
            let product = a * b;
            let c = match draw() % 4 {
                0 => -product,
                1 => -product + product * f32::EPSILON / 2.0,
                2 => f32::from_bits(draw() as u32 & 0x8fff_ffff),
                _ => f32::from_bits(draw() as u32),
            };
            let (a, b) = if draw() % 4 == 2 {
                (
                    f32::from_bits(bits as u32 & 0x9fff_ffff),
                    f32::from_bits((bits >> 32) as u32 & 0x9fff_ffff),
                )
            } else {
                (a, b)
            };
            x.push(f64::from(a));
            y.push(f64::from(b));
            z.push(f64::from(c));
        }
        let (mut floats, mut doubles) = (Vec::new(), Vec::new());
        fmaf(&x, &y, &z, &mut floats);
        fma_of_floats(&x, &y, &z, &mut doubles);
        let mpfr = binding::mpfr(ReferenceId::Fma);
        for i in 0..x.len() {
            let args = [x[i], y[i], z[i]];
            for (column, element, scalar) in [
                (&floats, FloatType::Float, fast::fmaf as fn(&[f64]) -> f64),
                (&doubles, FloatType::Double, fast::fma),
            ] {
                let correct = correctly_rounded_value(mpfr, &args, element);
                let value = column[i];
                assert!(
                    value.to_bits() == correct.to_bits() || (value.is_nan() && correct.is_nan()),
                    "fma{args:?} in {element:?}: column {value:e}, MPFR {correct:e}"
                );
                assert!(
                    value.to_bits() == scalar(&args).to_bits()
                        || (value.is_nan() && scalar(&args).is_nan()),
                    "fma{args:?}: column {value:e}, scalar tier {:e}",
                    scalar(&args)
                );
            }
            assert_eq!(
                fma_is_nan(x[i], y[i], z[i]),
                floats[i].is_nan(),
                "fma{args:?}"
            );
        }
    }
}
