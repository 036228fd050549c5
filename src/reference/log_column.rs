//! Float log, log2, log10 and log1p over a whole column of float inputs, many lanes at a time:
//! the correctly rounded float where a rounding test proves it, NaN where the lane leaves the
//! value undecided (the scalar tier, CORE-MATH's, decides those: 262 to 530 floats of the
//! domain a function, over all 2^32, and the inputs outside the domain's interior: zero,
//! negatives, infinities, NaN).
//!
//! **The reduction.** A positive finite float `v` (every float, subnormals included, is a
//! normal double) is `2^e·m` with `e` an integer and `m` in `[√½, √2)`, read off the double's
//! bits ([`split`]): `m` keeps `v`'s significand, so `m - 1` and `m + 1` are exact (`m` has 24
//! significant bits and lies within a factor 2 of 1). Then `log m = 2·atanh(s)` with
//! `s = (m - 1)/(m + 1)`, `|s| <= (√2 - 1)/(√2 + 1) < 0.17158`, `z = s² <= 0.02944`, and
//! `2·atanh(s) = 2s·(1 + z·A(z))`, `A(z) = Σ z^k/(2k + 3)`, evaluated to `k = 9` by Horner's
//! rule. For base `b` (e, 2, 10): `log_b v = e·a + log(m)·c` with `a = log_b 2` (split into a
//! head `a_hi` of at most 29 significant bits, so that `e·a_hi` is exact for `|e| <= 2^8`,
//! and the double `a_lo` nearest the rest) and `c = 1/ln b` (rounded to nearest; exactly 1 for
//! base e). The lane computes `y = e·a_hi + (e·a_lo + p·c)` with `p` the polynomial's value.
//!
//! **log1p.** `1 + x` is rounded once to `w`. Where `w = 2^0·m` (`e = 0`: `1 + x` near 1,
//! where `log1p` is small and a rounded `1 + x` would cost its relative accuracy) the lane
//! takes `s = x/(2 + x)` instead, which is `(w - 1)/(w + 1)` for the exact `1 + x`, with two
//! roundings and no cancellation (`x >= √½ - 1 - 2^-52`). Elsewhere it takes `log(w)`, off
//! from `log(1 + x)` by `|log(1 + δ)| <= 1.01u` with `|δ| <= u`, which is at most `2.92u`
//! relative there (`|log1p(x)| >= ln √2·(1 - 2^-50) > 0.3465`).
//!
//! **The error** (`u = 2^-53`), relative to the exact value `V`:
//! - `s` errs by `δ_s <= u` (one division) or `2.01u` (log1p's `x/(2 + x)`), and `atanh` turns
//!   that into at most `|δ_s|/(1 - z) <= 1.031·|δ_s|` relative (`atanh(s) >= s`);
//! - the series' tail past `k = 9` is at most `z^10/23/(1 - z) <= 2^-55.4`, times `z`; the
//!   rounded coefficients err by at most `u·A(z) <= 0.35u`, Horner's 9 steps by at most
//!   `γ_18·A(z) <= 6.4u`, and `z`'s own rounding (with `s`'s error, `<= 5.1u` relative) moves
//!   `z·A(z)` by at most `6.1u·0.0101`: `z·A` is off by at most `0.0295·6.8u + 0.062u <= 0.27u`,
//!   `s·(z·A)`'s rounding adds `0.0101u`, and `s + s·z·A`'s rounding `u` relative, so `p`
//!   lies within `1.3u + 1.031·δ_s` of `log m`, relative: `ε_p <= 3.4u`;
//! - `|log m·c| <= |V|` (for `e != 0`, `|e·a| >= |a| >= 2·|log_b m|`); `c`'s rounding and
//!   `p·c`'s add `2u` relative to `|V|`, the sum `e·a_lo + p·c` `u`, the last sum `u` of `|y|`;
//!   `e·a_lo`'s rounding and the split's error (`|a - a_hi - a_lo| <= 2^-82·|a|`) stay below
//!   `2^-25u` of `|V|` (`|e·a_lo| <= 2^-31·|e·a|` and `|e·a| <= 2·|V|`).
//!
//! So `y` lies within `ε_p + 4.1u <= 7.5u` of `V`, relative, `10.5u` for log1p's rounded
//! `1 + x`: under `2^-49.6`. The rounding test takes `y ± y·2^-47` (each end rounded once
//! more: still outside `y·(1 ± 61u)`) and keeps the float nearest `y` only where both ends
//! round to the same float; rounding to float is monotonic, so `V`, which lies between the
//! ends, rounds to that float too. A value that is exactly a float (`log 1 = 0`, `log2 2^k = k`,
//! `log10 10^k = k` for `k <= 10`) is no rounding boundary, so the test keeps it (where the
//! interval holds no midpoint, as for any other value); at `m = 1` the lane's value is exact
//! (`s = 0`), so `log 1` is `+0`, not a tiny number. No value of these functions at a float
//! other than those is a float or a midpoint (they are transcendental there), so a tie is
//! never kept either. `every_float_is_core_maths` checks the columns against CORE-MATH on
//! every 31st block of floats (on every float with `CLACC_EVERY_FLOAT=1`), and
//! `logarithms_agree_with_mpfr` specials, edges, exact cases and a random sample against MPFR.

use crate::reference::exp_column::rounded;

/// `log_b v = e·a + log(m)·c` for one base `b`.
#[derive(Clone, Copy)]
struct Base {
    /// `a = log_b 2` to at most 29 significant bits.
    high: f64,
    /// The double nearest `a - high`.
    low: f64,
    /// `c = 1/ln b`, rounded to nearest.
    scale: f64,
}

/// e: `a = ln 2`, `c = 1`.
const E: Base = Base {
    high: f64::from_bits(0x3fe6_2e42_ff00_0000),
    low: -f64::from_bits(0x3dc7_1843_2a1b_0e26),
    scale: 1.0,
};

/// 2: `a = 1` exactly, `c = 1/ln 2`.
const TWO: Base = Base {
    high: 1.0,
    low: 0.0,
    scale: f64::from_bits(0x3ff7_1547_652b_82fe),
};

/// 10: `a = log10 2`, `c = 1/ln 10`.
const TEN: Base = Base {
    high: f64::from_bits(0x3fd3_4413_5100_0000),
    low: -f64::from_bits(0x3df8_2180_433b_83b5),
    scale: f64::from_bits(0x3fdb_cb7b_1526_e50e),
};

/// The fraction bits of √½ (and √2), rounded to nearest: where a significand's are below
/// them, it is below √2.
const SQRT_FRACTION: u64 = 0x0006_a09e_667f_3bcd;

/// 2^52: `2^52 + n` for an integer `0 <= n < 2^52` has `n` in its low bits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// `1/(2k + 3)` rounded to nearest, `k = 0` to 9: `A(z)`'s coefficients.
const ATANH: [f64; 10] = [
    f64::from_bits(0x3fd5_5555_5555_5555),
    f64::from_bits(0x3fc9_9999_9999_999a),
    f64::from_bits(0x3fc2_4924_9249_2492),
    f64::from_bits(0x3fbc_71c7_1c71_c71c),
    f64::from_bits(0x3fb7_45d1_745d_1746),
    f64::from_bits(0x3fb3_b13b_13b1_3b14),
    f64::from_bits(0x3fb1_1111_1111_1111),
    f64::from_bits(0x3fae_1e1e_1e1e_1e1e),
    f64::from_bits(0x3faa_f286_bca1_af28),
    f64::from_bits(0x3fa8_6186_1861_8618),
];

/// The rounding test's half-width, relative (the lane errs by at most 2^-49.6).
const TEST_WIDTH: f64 = 1.0 / 140_737_488_355_328.0; // 2^-47

/// log of every float of `inputs`, correctly rounded to float, NaN where undecided.
pub fn logf(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| logarithm(E, x));
}

/// log2 likewise.
pub fn log2f(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| logarithm(TWO, x));
}

/// log10 likewise.
pub fn log10f(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, |x| logarithm(TEN, x));
}

/// log1p likewise.
pub fn log1pf(inputs: &[f64], out: &mut Vec<f64>) {
    crate::num::wide::map_widest(inputs, out, log1p);
}

/// Whether log, log2 and log10 are NaN at `x`, which their columns leave NaN: a NaN, or `x`
/// below zero (−inf included), where the real logarithm has no value and C99's log (F.9.3.7,
/// CORE-MATH's, MPFR's) is NaN. At −0 it is −inf, and −0 is not below zero.
/// `nan_domain_is_core_maths` holds the test to CORE-MATH on every float it checks, and
/// `logarithms_agree_with_mpfr` to MPFR.
#[inline(always)]
pub fn log_is_nan(x: f64) -> bool {
    x.is_nan() | (x < 0.0)
}

/// Whether log1p is NaN at `x`: a NaN, or `x` below −1 (log1p(−1) is −inf), as
/// [`log_is_nan`] for `1 + x`.
#[inline(always)]
pub fn log1p_is_nan(x: f64) -> bool {
    x.is_nan() | (x < -1.0)
}

/// `v = 2^e·m` with `m` in `[√½, √2)`, as `(e, m)`, for a positive finite normal double `v`
/// (anything for other `v`: the lanes discard it). Integer arithmetic on the bits, so that it
/// vectorizes.
#[inline(always)]
fn split(v: f64) -> (f64, f64) {
    let bits = v.to_bits();
    // The exponent field, less one where the significand is below √2: `e + 1022`.
    let field = bits.wrapping_sub(SQRT_FRACTION) >> 52;
    let e = f64::from_bits(TWO_52.to_bits() | field) - (TWO_52 + 1022.0);
    let m = f64::from_bits(bits.wrapping_sub(field.wrapping_sub(1022) << 52));
    (e, m)
}

/// `log_b(2^e·m) = e·a + log(m)·c` with `s = numerator/denominator` (the module's proof),
/// before the rounding test.
#[inline(always)]
fn combine(base: Base, e: f64, numerator: f64, denominator: f64) -> f64 {
    let s = numerator / denominator;
    let z = s * s;
    let mut a = ATANH[9];
    for c in ATANH[..9].iter().rev() {
        a = a * z + c;
    }
    let p = 2.0 * (s + s * (z * a));
    e * base.high + (e * base.low + p * base.scale)
}

/// `log_b x` correctly rounded to float, or NaN (the module's proof). Straight line code with
/// selects, so that the loop over a column vectorizes.
#[inline(always)]
fn logarithm(base: Base, x: f64) -> f64 {
    let (e, m) = split(x);
    let y = combine(base, e, m - 1.0, m + 1.0);
    let inside = x > 0.0 && x < f64::INFINITY;
    if inside {
        nearest_float(y)
    } else {
        f64::NAN
    }
}

/// `log1p x` correctly rounded to float, or NaN (the module's proof).
#[inline(always)]
fn log1p(x: f64) -> f64 {
    let w = 1.0 + x;
    let (e, m) = split(w);
    let near_one = e == 0.0;
    let numerator = if near_one { x } else { m - 1.0 };
    let denominator = if near_one { 2.0 + x } else { m + 1.0 };
    let y = combine(E, e, numerator, denominator);
    let inside = x > -1.0 && x < f64::INFINITY;
    // log1p(±0) is ±0: the lane's sums would give +0 for both.
    if x == 0.0 {
        x
    } else if inside {
        nearest_float(y)
    } else {
        f64::NAN
    }
}

/// The float nearest `y` where every value within `y·TEST_WIDTH` of it rounds to that float,
/// NaN elsewhere ([`rounded`]).
#[inline(always)]
fn nearest_float(y: f64) -> f64 {
    rounded(y, TEST_WIDTH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::column_checks::{every_float_matches, nan_domain_matches, Column};
    use crate::reference::{binding, correctly_rounded_value, fast, FastFn};
    use crate::spec::reference_id::ReferenceId;
    use rug::float::Constant;
    use rug::Float;

    /// Each column, its scalar tier and its MPFR reference.
    fn columns() -> [(Column, FastFn, ReferenceId); 4] {
        [
            (logf, fast::logf, ReferenceId::Log),
            (log2f, fast::log2f, ReferenceId::Log2),
            (log10f, fast::log10f, ReferenceId::Log10),
            (log1pf, fast::log1pf, ReferenceId::Log1p),
        ]
    }

    /// A domain test, its function's scalar tiers (float and double) and its MPFR reference.
    type Domain = (fn(f64) -> bool, [FastFn; 2], ReferenceId);

    /// Each function's domain test.
    fn domains() -> [Domain; 4] {
        [
            (log_is_nan, [fast::logf, fast::log], ReferenceId::Log),
            (log_is_nan, [fast::log2f, fast::log2], ReferenceId::Log2),
            (log_is_nan, [fast::log10f, fast::log10], ReferenceId::Log10),
            (
                log1p_is_nan,
                [fast::log1pf, fast::log1p],
                ReferenceId::Log1p,
            ),
        ]
    }

    /// Wherever a domain test says NaN, CORE-MATH's float and double functions are NaN, and
    /// nowhere else are they NaN ([`nan_domain_matches`]: every 31st block of floats, all of
    /// them with `CLACC_EVERY_FLOAT=1`).
    #[test]
    fn nan_domain_is_core_maths() {
        for (nan_at, scalars, name) in domains() {
            for scalar in scalars {
                nan_domain_matches(nan_at, scalar, &format!("{name:?}"));
            }
        }
    }

    /// The constants are what their comments say: the heads' 29 bits and the tails, from MPFR.
    #[test]
    fn constants_are_the_logarithms() {
        let ln2 = Float::with_val(256, Constant::Log2);
        let ten = Float::with_val(256, 10).ln();
        let log10_2 = Float::with_val(256, &ln2 / &ten);
        for (name, base, a, c) in [
            ("e", E, ln2.clone(), Float::with_val(256, 1)),
            (
                "2",
                TWO,
                Float::with_val(256, 1),
                Float::with_val(256, ln2.recip_ref()),
            ),
            ("10", TEN, log10_2, Float::with_val(256, ten.recip_ref())),
        ] {
            let head = Float::with_val(29, &a);
            assert_eq!(base.high, head.to_f64(), "{name}: head");
            assert_eq!(
                base.low,
                Float::with_val(256, &a - base.high).to_f64(),
                "{name}"
            );
            assert_eq!(base.scale, c.to_f64(), "{name}: 1/ln b");
        }
        for (k, c) in ATANH.iter().enumerate() {
            assert_eq!(*c, 1.0 / (2 * k + 3) as f64);
        }
        let sqrt2 = Float::with_val(256, 2).sqrt().to_f64();
        assert_eq!(sqrt2.to_bits() & ((1 << 52) - 1), SQRT_FRACTION);
    }

    /// `split` gives `m` in `[√½, √2)` and `2^e·m = v`, across the floats' range.
    #[test]
    fn split_keeps_the_value() {
        let sqrt2 = std::f64::consts::SQRT_2;
        for bits in (0x0000_0001u32..0x7f80_0000).step_by(4099) {
            let v = f64::from(f32::from_bits(bits));
            let (e, m) = split(v);
            assert!((sqrt2 / 2.0..sqrt2).contains(&m), "{v:e}: {m}");
            assert_eq!(m * 2f64.powi(e as i32), v, "{v:e}");
        }
    }

    /// Floats as the sweep gives them: the columns' values are CORE-MATH's wherever they
    /// decide ([`every_float_matches`]; run on all 2^32 floats for #46: none differed, 169 s of
    /// CPU for the four in release; left undecided inside the domain: log 350, log2 530,
    /// log10 346, log1p 262).
    #[test]
    fn every_float_is_core_maths() {
        for (column, scalar, name) in columns() {
            every_float_matches(column, scalar, &format!("{name:?}"));
        }
    }

    /// Special values, exact cases, the inputs next to 1, -1, powers of two and ten, the
    /// subnormals, the largest floats, and a random sample, against MPFR itself (not only
    /// CORE-MATH).
    #[test]
    fn logarithms_agree_with_mpfr() {
        let mut inputs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::MAX),
            f64::from(f32::MIN),
            f64::from(f32::from_bits(1)),
        ];
        // 1, the reduction's ends √½ and √2, and log1p's (√2 - 1 and √½ - 1).
        let sqrt2 = std::f32::consts::SQRT_2;
        let mut edges = vec![
            1.0f32,
            0.5,
            0.25,
            sqrt2 / 2.0,
            sqrt2,
            sqrt2 - 1.0,
            sqrt2 / 2.0 - 1.0,
        ];
        edges.extend((-149..128).map(|k| 2f32.powi(k)));
        edges.extend((-45..39).map(|k| format!("1e{k}").parse::<f32>().expect("a float")));
        for edge in edges {
            let middle = edge.to_bits();
            for sign in [1.0f32, -1.0] {
                for step in 0..16 {
                    let bits = (f32::from_bits(middle) * sign).to_bits();
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_add(step))));
                    inputs.push(f64::from(f32::from_bits(bits.wrapping_sub(step))));
                }
            }
        }
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let state = draws.next_bits();
            let x = f32::from_bits(state as u32);
            // Half of them in (-1, 2): log's neighbourhood of 1 and log1p's of 0.
            inputs.push(f64::from(match state >> 40 & 3 {
                0 => x % 1.0,
                1 => x % 1.0 + 1.0,
                _ => x,
            }));
        }
        for (nan_at, _, name) in domains() {
            for x in &inputs {
                let correct = correctly_rounded_value(binding::mpfr(name), &[*x], FloatType::Float);
                assert_eq!(nan_at(*x), correct.is_nan(), "{name:?}({x:e})");
            }
        }
        for (column, _, name) in columns() {
            let mut values = Vec::new();
            column(&inputs, &mut values);
            let mut decided = 0;
            for (x, value) in inputs.iter().zip(&values) {
                if value.is_nan() {
                    continue;
                }
                decided += 1;
                let correct = correctly_rounded_value(binding::mpfr(name), &[*x], FloatType::Float);
                assert_eq!(value.to_bits(), correct.to_bits(), "{name:?}({x:e})");
            }
            assert!(decided > inputs.len() / 3, "{name:?}: {decided}");
        }
    }

    /// The exact values are decided, not left to the scalar tier, and exact: log(1) = +0,
    /// log2(2^k) = k, log10(10^k) = k, log1p(±0) = ±0.
    #[test]
    fn exact_values_are_decided() {
        let mut out = Vec::new();
        for column in [logf, log2f, log10f] {
            column(&[1.0], &mut out);
            assert_eq!(out[0].to_bits(), 0.0f64.to_bits());
        }
        let powers: Vec<f64> = (-149..128).map(|k| 2f64.powi(k)).collect();
        log2f(&powers, &mut out);
        for (k, value) in (-149..128).zip(&out) {
            assert_eq!(*value, f64::from(k), "log2(2^{k})");
        }
        let powers: Vec<f64> = (0..=10).map(|k| 10f64.powi(k)).collect();
        log10f(&powers, &mut out);
        for (k, value) in (0..=10).zip(&out) {
            assert_eq!(*value, f64::from(k), "log10(10^{k})");
        }
        log1pf(&[0.0, -0.0], &mut out);
        assert_eq!(out[0].to_bits(), 0.0f64.to_bits());
        assert_eq!(out[1].to_bits(), (-0.0f64).to_bits());
    }
}
