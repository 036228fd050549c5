//! Two-argument float functions over whole columns of float inputs, many lanes at a time: the
//! correctly rounded float where a rounding test proves it, NaN where the lane leaves the value
//! undecided (the scalar tier, CORE-MATH's, decides those). Each module's comment holds its
//! proof; the tests compare every column with CORE-MATH (one argument swept over its floats
//! against a set of the other, and random pairs) and with MPFR on special values.

pub mod atan2;
pub mod hypot;
pub mod pow;

#[cfg(test)]
pub(crate) mod checks;

/// `lane(x[i], y[i])` into `out` (cleared first), in the widest vectors. Pass the lane as a
/// closure marked `#[inline(always)]`: a function item is called through its `Fn::call`
/// shim, which the compiler left out of line for pow's lane (compiled for the baseline, one
/// input at a time: 44 ns an input).
#[inline(always)]
fn column(x: &[f64], y: &[f64], out: &mut Vec<f64>, lane: impl Fn(f64, f64) -> f64) {
    assert_eq!(x.len(), y.len(), "argument columns of two lengths");
    out.clear();
    out.resize(x.len(), 0.0);
    crate::num::wide::widest(
        #[inline(always)]
        || {
            for ((x, y), value) in x.iter().zip(y).zip(out.iter_mut()) {
                *value = lane(*x, *y);
            }
        },
    );
}
