//! Fast tiers over a whole column of float inputs, computed many lanes at a time: the same
//! correctly rounded floats as the scalar float tier ([`super::binding::FastTiers::float`]),
//! and the same correctly rounded doubles as the double tier, for float sin, cos and tan.
//!
//! A sweep's bulk pass needs the correctly rounded float of every input to compare with the
//! device's results. CORE-MATH's scalar `cr_sinf` costs 1 to 5 ns an input here (5 past 2^26,
//! where its argument reduction multiplies 128-bit integers), and calling it through the
//! tier's function pointer added about 1 ns more: in an exhaustive float sin run that column
//! was about two thirds of the judging's CPU. Here each lane computes an approximation `y`
//! with a proven error bound `e` in straight-line double arithmetic the compiler vectorizes,
//! and keeps the float nearest `y` only where every value within `e` of `y` rounds to it (a
//! Ziv rounding test): the exact value then rounds to that float too. The lanes the test
//! refuses (about one float in 300,000 for sine and for cosine, one in 90,000 for tangent,
//! [`tanf`], whose lanes divide sine by cosine of a quarter-turn reduction) and infinite or
//! NaN inputs get CORE-MATH's scalar value. Every value is therefore the correctly rounded
//! float, bit for bit the scalar tier's, and `every_float_column_is_core_maths` and
//! `every_float_tangent_is_core_maths` check that on all 2^32 floats (tangent's with
//! `CLACC_EVERY_FLOAT=1`).
//!
//! The results that are not the correctly rounded float are measured against the correctly
//! rounded double (about 3% of an exhaustive sin run's inputs on the Intel CPU device, where
//! CORE-MATH's `cr_sin` took 18 ns each, 7% of the run's CPU): [`sin_of_floats`] and
//! [`cos_of_floats`] give it from the same reduction and a double-double evaluation, with a
//! rounding test to double, and CORE-MATH's value where the test refuses; [`tan_of_floats`]
//! divides the two in double-double (`cr_tan` was about a tenth of a random float tan run's
//! host CPU).

use crate::num::fp::two_sum;
use std::sync::OnceLock;

/// A tier over a column: `out` gets the correctly rounded value (a float held as a double for
/// a float tier, a double for a double tier) of every input of `inputs`, which are floats
/// held as doubles.
pub type ColumnFn = fn(inputs: &[f64], out: &mut Vec<f64>);

/// Per float exponent field `e` (the subnormals' 0 read as 1, the scale they share), the value
/// `T(e) = 2^(e - 150)/π mod 2` to 104 bits: `windows[0][e]` holds the 52 bits from its
/// leading one down, `windows[1][e]` the next 52 (each truncated, each exact in a double). A
/// float `x = m·2^(e - 150)` (`m` its integer significand) has `x/π ≡ m·T(e) (mod 2)` because
/// `m` is an integer, which is all sine and cosine need. Stored window-major; [`look_up`] copies a
/// block's entries before its lanes run, and [`pieces`] splits each window in two.
struct Reduction {
    windows: [[f64; 256]; 2],
}

/// Bits per window of [`Reduction`].
const WINDOW_BITS: i32 = 52;

/// The table, from MPFR's π at 512 bits (the reduction mod 2 cancels at most 105 leading bits
/// of `2^104/π`, so 512 bits leave over 400 correct ones).
fn reduction() -> &'static Reduction {
    static TABLE: OnceLock<Reduction> = OnceLock::new();
    TABLE.get_or_init(|| {
        use rug::float::Constant;
        use rug::Float;
        const PRECISION: u32 = 512;
        let inverse_pi = Float::with_val(PRECISION, Constant::Pi).recip();
        let mut windows = [[0.0; 256]; 2];
        for exponent in 0..256usize {
            let scale = exponent.max(1) as i32 - 150;
            let value = Float::with_val(PRECISION, &inverse_pi << scale);
            // value mod 2, exactly: the subtracted multiple of 2 has fewer bits than value.
            let quotient = Float::with_val(PRECISION, &value / 2u32).floor();
            let mut rest = value - quotient * 2u32;
            // rug's exponent: rest = 0.1b…·2^exp, so its leading bit is 2^(exp - 1).
            let lead = rest.get_exp().expect("1/π is irrational") - 1;
            for (number, window) in windows.iter_mut().enumerate() {
                let unit = lead - (number as i32 + 1) * WINDOW_BITS + 1;
                let truncated = Float::with_val(PRECISION, &rest >> unit).floor() << unit;
                window[exponent] = truncated.to_f64();
                rest -= truncated;
            }
        }
        Reduction { windows }
    })
}

/// A window of [`Reduction`] as two doubles of at most 26 significant bits each, so that a
/// float significand (24 bits) times either is exact in double: the window with the low 27
/// bits of its stored fraction cleared (its leading 26 bits), and the rest (exact: the
/// window has at most 52 significant bits).
#[inline(always)]
fn pieces(window: f64) -> (f64, f64) {
    let high = f64::from_bits(window.to_bits() & !((1 << 27) - 1));
    (high, window - high)
}

/// 1.5·2^52: adding it to a nonnegative double below 2^51 rounds that to an integer (to
/// nearest, ties to even) whose low bits are then the low bits of the sum's significand.
const ROUNDING_SHIFT: f64 = 6_755_399_441_055_744.0;

/// sin(r) = r + r³·(S[0] + r²·(S[1] + …)): the Taylor coefficients -1/3!, 1/5!, … 1/25!
/// (`1.0 / n!` rounds the exact integer n!, which a double holds up to 22!, once more).
const SIN_TAYLOR: [f64; 12] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    -1.0 / 1_307_674_368_000.0,
    1.0 / 355_687_428_096_000.0,
    -1.0 / 121_645_100_408_832_000.0,
    1.0 / 51_090_942_171_709_440_000.0,
    -1.0 / 25_852_016_738_884_976_640_000.0,
    1.0 / 15_511_210_043_330_985_984_000_000.0,
];

/// The float lanes' series: [`SIN_TAYLOR`] to 1/17! (terms to r^17; [`sinf_lane`] has why).
const SIN_FLOAT: [f64; 8] = [
    SIN_TAYLOR[0],
    SIN_TAYLOR[1],
    SIN_TAYLOR[2],
    SIN_TAYLOR[3],
    SIN_TAYLOR[4],
    SIN_TAYLOR[5],
    SIN_TAYLOR[6],
    SIN_TAYLOR[7],
];

/// `a·b + c`, fused where `FUSED` (the CPU has FMA), else with two roundings.
#[inline(always)]
fn multiply_add<const FUSED: bool>(a: f64, b: f64, c: f64) -> f64 {
    if FUSED {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// sin(x) (cos(x) where `COSINE`) correctly rounded to float for the float `x`, or NaN where
/// this lane does not decide it (`x` infinite or NaN, or a float midpoint within the error
/// bound). `RN` below is rounding to nearest double, `u = 2^-53`.
///
/// **Reduction.** With `x = ±m·2^(e - 150)` and `T = T(e)` ([`Reduction`]), the pieces
/// `t0 + t1 + t2 + t3 = T - R` (`0 <= R < 2^-103·T`) give exact products `P_i = m·t_i`.
/// `k = round(RN(P0 + P1))`, and `a = P0 - k` is exact: `P0` is a multiple of `t0`'s unit
/// `2^(L - 25)` (`L` the leading exponent of `T < 2`, so `L <= 0`, and `k` is a multiple of
/// it too), and `|P0 - k| <= 0.5 + |P1| + u·2^25 < 1.01` (`|P1| < 2^24·2^(L - 25)`) needs
/// at most `27 - L` bits, at most 52 where `k ≠ 0` (then `m·T > 0.49`, so `L >= -25`); for
/// `k = 0` it is `P0`. Then `f = RN(RN(RN(a + P1) + P2) + P3)`. With `M = m·T`:
/// `|P2| + |P3| < 2^-50·M`, so the three roundings are within `u·(3|f| + 2^-48·M)` and the
/// truncation `m·R` within `2^-103·M`: `f` is `M - k` (≡ x/π mod 2) within `3u·|f| +
/// 2^-100·(|f| + k)`, and `|f| <= 0.5 + 2^-49`.
///
/// **Cosine.** cos(x) = sin(|x| + π/2), and `(|x| + π/2)/π ≡ M + 1/2`: `P0` becomes `RN(P0 +
/// 1/2)` and the rest is as above, with `M + 1/2` for `M`. The sum is exact where `L >= -27`
/// (a multiple of `2^(L - 25)` below `2^50·2^(L - 25) + 2^51·2^(L - 25)`); elsewhere `M <
/// 2^-3`, so `k` is 1 (or 0, where `M + 1/2` rounds to 1/2) and `|f|` lies in `[0.37, 0.5 +
/// 2^-49]`, and the sum's error of at most `u` (absolute) moves sin(fπ), whose slope
/// `π·|cos(fπ)|` is below 1.3 there, by under `1.3u`, while |sin(fπ)| >= 0.92: one more `u`
/// relative.
///
/// **Evaluation.** `r = RN(f·RN(π))` is `(M - k)·π` within a relative `5u` (plus the
/// `2^-100·(|f| + k)` of `f`, times π) and `|r| <= π/2 + 2^-47`. sin(r) = `r + r·r²·S(r²)`,
/// Taylor to r^17: the series alternates with shrinking terms, so the first term left out,
/// `|r|^19/19!`, bounds what is left out, below `2^-44.3` of `sin r` (`sin r >= 0.63·r`
/// here); the rounding errors of `r²`, the Estrin scheme and the two products stay below
/// `6u` of the correction `r·r²·S` (every coefficient's term is below a third of the
/// previous one's, `|r²·S| <= 0.37`), so below `2.3u·|r|`, and the last sum adds `u`: within
/// `5u + 2^-44.3` of sin(r) relative (`|r| <= 1.58·|sin r|`). A relative error `δ` of `r`
/// moves sin(r) by at most `δ` relative (`r·cos r <= sin r`), an absolute one by at most
/// itself. `(-1)^k`, and for sine the sign of `x`, make `y` exactly ±that. So `y` is sin(x)
/// (or cos(x)) within `(11u + 2^-44.3)·|y| + 2^-98.3·k`, below `2^-44.2·|y| + 2^-98.3·k`
/// (`11u` is `2^-49.5`; `2^-100·|f|·π` is under `u·|y|`). The bound used, `e = 2^-42·|y| +
/// 2^-96·k`, is more than 4.5 times that. (Terms to r^23 made the error `2^-49.5·|y|` and
/// let a bound of `2^-48·|y|` refuse fewer lanes, but the three more operations a lane cost
/// more than the refused lanes' CORE-MATH calls they saved.)
///
/// **Rounding test.** Rounding `y - e` moves it by at most `2^-53·|y - e|`, below `2^-10·e`
/// (`e >= 2^-42·|y|`), so `RN(y - e) < y - e/2 <` the exact value, and likewise `RN(y + e)` is
/// above it. Where both round to the same float `F`, so does every value between them
/// (rounding is monotonic), the exact value among them: `F` is the correctly rounded float.
/// (That holds at `x = ±0` too, where sine's `y = ±0` and `e = 0` exactly, and cosine's `y` is
/// within `e` of 1.)
#[inline(always)]
fn sinf_lane<const FUSED: bool, const COSINE: bool>(x: f64, windows: [f64; 2]) -> f64 {
    let (y, bound) = sine_within::<FUSED, COSINE>(x, windows);
    float_if_alike(y, bound)
}

/// The float both ends of `[y - e, y + e]` round to, or NaN where they round apart: the float
/// lanes' rounding test ([`sinf_lane`] has its proof).
#[inline(always)]
fn float_if_alike(y: f64, e: f64) -> f64 {
    let low = (y - e) as f32;
    let high = (y + e) as f32;
    if low == high {
        f64::from(low)
    } else {
        f64::NAN
    }
}

/// The double both `h + (l - e)` and `h + (l + e)` round to, or NaN where they round apart: the
/// double lanes' rounding test ([`sin_double_lane`] has its proof).
#[inline(always)]
fn double_if_alike(high: f64, low: f64, e: f64) -> f64 {
    let below = high + (low - e);
    let above = high + (low + e);
    if below == above {
        below
    } else {
        f64::NAN
    }
}

/// `(y, e)` with `y` within `e` of sin(x) (cos(x) where `COSINE`) for the finite float `x`
/// ([`sinf_lane`] has the proof); `y` NaN for an infinite or NaN `x`. `windows`:
/// [`Reduction`]'s for `x`'s exponent.
#[inline(always)]
fn sine_within<const FUSED: bool, const COSINE: bool>(x: f64, windows: [f64; 2]) -> (f64, f64) {
    let Reduced {
        products: [p0, p1, p2, p3],
        k,
        negative,
        finite,
        ..
    } = reduce::<COSINE>(x, windows);
    let f = (((p0 - k) + p1) + p2) + p3;
    let r = f * std::f64::consts::PI;
    let r2 = r * r;
    let sine = multiply_add::<FUSED>(r * r2, estrin8::<FUSED>(r2, &SIN_FLOAT), r);
    let y = match (finite, negative) {
        (false, _) => f64::NAN,
        (_, true) => -sine,
        (_, false) => sine,
    };
    let bound = multiply_add::<FUSED>(y.abs(), 2f64.powi(-42), k * 2f64.powi(-96));
    (y, bound)
}

/// A float `x` reduced by its [`Reduction`] windows ([`sinf_lane`] has the proof): `x/π`, or
/// `x/π + 1/2` where `COSINE`, is `products` summed (and `carry`), minus the integer `k`,
/// mod 2.
struct Reduced {
    /// `P0`, …, `P3`: each exact, decreasing in magnitude; `P0 - k` is exact too.
    products: [f64; 4],
    /// Where `COSINE`, what `P0` lost when 1/2 was added (`P0 + carry` is the exact sum; 0
    /// where the sum is exact); 0 for sine.
    carry: f64,
    k: f64,
    /// Whether the value is the negative of sin(fπ): `x`'s sign (sine) times `(-1)^k`.
    negative: bool,
    /// Whether `x` is finite.
    finite: bool,
    /// Whether `x` is ±0.
    zero: bool,
}

#[inline(always)]
fn reduce<const COSINE: bool>(x: f64, windows: [f64; 2]) -> Reduced {
    let bits = (x as f32).to_bits();
    let exponent = (bits >> 23) & 0xff;
    let implicit = if exponent == 0 { 0 } else { 0x80_0000 };
    let m = f64::from((bits & 0x7f_ffff) | implicit);
    let (t0, t1) = pieces(windows[0]);
    let (t2, t3) = pieces(windows[1]);
    let [p0, p1, p2, p3] = [m * t0, m * t1, m * t2, m * t3];
    // cos(x) = sin(|x| + π/2): half a half-turn more.
    let (p0, carry) = if COSINE { two_sum(p0, 0.5) } else { (p0, 0.0) };
    let shifted = (p0 + p1) + ROUNDING_SHIFT;
    let k = shifted - ROUNDING_SHIFT;
    let odd = shifted.to_bits() & 1 == 1;
    Reduced {
        products: [p0, p1, p2, p3],
        carry,
        k,
        // sin is odd: the sign of x times (-1)^k; cos is even.
        negative: if COSINE {
            odd
        } else {
            odd != (bits >> 31 == 1)
        },
        finite: exponent != 0xff,
        zero: m == 0.0,
    }
}

/// `cos(r) = 1 + r²·(C[0] + r²·(C[1] + …))` for [`tanf_lane`]: −1/2!, 1/4!, … 1/16!.
const COS_FLOAT: [f64; 8] = [
    COS_TAYLOR[0],
    COS_TAYLOR[1],
    COS_TAYLOR[2],
    COS_TAYLOR[3],
    COS_TAYLOR[4],
    COS_TAYLOR[5],
    -1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
];

/// tan(x) correctly rounded to float for the float `x`, or NaN where this lane does not
/// decide it (`x` infinite or NaN, a float midpoint within the error bound, or the guard
/// below). `RN` is rounding to nearest double, `u = 2^-53`.
///
/// **Reduction, by quarter turns.** With the [`Reduction`] windows doubled (exact, and the
/// doubled pieces are the pieces doubled), [`reduce`] computes what [`sinf_lane`] proves,
/// with `T' = 2T(e) < 4` for `T` and `M = m·T' ≡ 2x/π (mod 4)`: `a = P0 - k` is still exact
/// (`T'`'s leading exponent `L <= 1` now, so `|a| < 2` is a multiple of `2^(L - 25)` of at
/// most `26 - L` bits, at most 52 where `k ≠ 0`, as then `m·T' > 0.49` gives `L >= -26`),
/// and every other step is relative to `M`: `f` is `M - k` within `3u·|f| + 2^-100·(|f| +
/// k)`, `|f| <= 1/2 + 2^-49`, `k <= 2^26`. The exact reduced argument `ρ = (M - k)·π/2` is
/// `|x| - kπ/2` modulo 2π, so tan(x) = ±g(ρ), `g` = tan where `k` is even and −cot where it
/// is odd (tan(t + π/2) = −cot t), the sign that of `x` (tan is odd).
///
/// **Argument.** `r = RN(f·RN(π/2))` is `ρ` within `5.3u·|r| + 2^-99.3·k` (`3u·|f|·π/2`,
/// two more roundings, and the `2^-100·|f|` term, under `u·|r|`), and `|r| <= π/4 + 2^-48`.
/// Where `k` is odd and `|r| < 2^-40` the lane declines (a guard: cot's pole at 0 would
/// otherwise need a lower bound on `|ρ|`; no float is known to come that near an odd
/// multiple of π/2); elsewhere in the odd case `|r - ρ| <= (5.3u + 2^-73.3/2^-40)·|r| <
/// 2^-33.2·|r|`, so every ξ between `r` and `ρ` has `r`'s sign and `|ξ| >= (1 -
/// 2^-33.2)·|r|`.
///
/// **Sine and cosine.** `s` is sin(r) to r^17 as in [`sinf_lane`], here with `|r| <= 0.786`:
/// left out is under `2^-67·|r|`, the correction `r·r²·S` is at most `0.103·|r|` and its
/// rounding errors under `6u` of it, the last sum adds `u`, and `|r| <= 1.12·|sin r|`: `s`
/// is sin(r) within `2u` relative. `c = 1 + z·C(z)` (`z = RN(r²)`, [`COS_FLOAT`] to
/// `1/16!`; left out under `2^-58`): `C(z)` lies in `[-0.5, -0.47]`, each coefficient's
/// term under a twelfth of the last's, so `z`'s rounding, the Estrin scheme and the product
/// err by under `6u` of `|z·C| <= 0.31`, and the last sum adds `u`: `c` is cos(r) within
/// `3u` absolute, `4.3u` relative (cos r >= 0.707), under `5u`.
///
/// **Quotient.** `q`, `RN(s/c)` where `k` is even and `RN(c/s)` where it is odd, is tan r
/// or cot r (±g(r)) within `(2u + 5u + u)(1 + 2^-40) < 8.1u` relative, and `y` is `±q` with
/// tan(x)'s sign (x's sign times `(-1)^k`, exact). Then
/// `|g(r) - g(ρ)| <= |r - ρ|·max(1 + g(ξ)²)` over ξ between them (g' = 1 + g²):
/// * `k` even: `1 + tan²ξ <= 2.01` (`|ξ| <= π/4 + 2^-47`), so the relative part `5.3u·|r|`
///   adds at most `10.7u·|tan r|` (`|r| <= |tan r|`) and the absolute part `2^-98.2·k`.
/// * `k` odd: `1 + cot²ξ = 1/sin²ξ <= (1 + 2^-32)/sin²r` (`sin(λt) >= λ·sin t` for `λ <= 1`,
///   `0 <= t <= π`), so the relative part adds `5.3u·|cot r|·|r|/|sin r·cos r|·(1 + 2^-32)
///   <= 8.4u·|cot r|` (`2r/sin 2r <= π/2` for `|r| <= π/4`, a hair more just past it) and
///   the absolute part `2^-99.2·k·(1 + cot²r)`.
///
/// With `1 + g(r)² <= (1 + 2^-48)·(1 + y²)`, `y` is tan(x) within `(8.1u + 10.7u)(1 +
/// 2^-48)·|y| + 2^-98.2·k·(1 + y²)`, below `2^-48.7·|y| + 2^-98.2·k·(1 + y²)`. The bound
/// used, `e = 2^-40·|y| + 2^-96·k·(1 + y²)` (three roundings, each down by at most `u`
/// relative), is more than 4 times that. Near an odd multiple of π/2 the `y²` term grows
/// with `|y|` (cot's slope): the bound stays valid, and where it is too wide the rounding
/// test refuses.
///
/// **Rounding test.** As in [`sinf_lane`]: `e >= 2^-40·|y|`, so `RN(y - e)` lies below `y -
/// e/2`, below tan(x), and `RN(y + e)` above it; where both round to the same float, so does
/// tan(x). (At `x = ±0`, `y = ±0` and `e = 0` exactly.)
#[inline(always)]
fn tanf_lane<const FUSED: bool>(x: f64, windows: [f64; 2]) -> f64 {
    let (y, bound) = tan_within::<FUSED>(x, windows);
    float_if_alike(y, bound)
}

/// `(y, e)` with `y` within `e` of tan(x) for the finite float `x` ([`tanf_lane`] has the
/// proof); `y` NaN for an infinite or NaN `x` and where the lane's guard declines. `windows`:
/// [`Reduction`]'s for `x`'s exponent.
#[inline(always)]
fn tan_within<const FUSED: bool>(x: f64, windows: [f64; 2]) -> (f64, f64) {
    // 2x/π ≡ m·2T (mod 4): quarter turns, so |r| <= π/4 and cos r >= 0.7.
    let Reduced {
        products: [p0, p1, p2, p3],
        k,
        negative,
        finite,
        ..
    } = reduce::<false>(x, [2.0 * windows[0], 2.0 * windows[1]]);
    let f = (((p0 - k) + p1) + p2) + p3;
    let r = f * std::f64::consts::FRAC_PI_2;
    let r2 = r * r;
    let sine = multiply_add::<FUSED>(r * r2, estrin8::<FUSED>(r2, &SIN_FLOAT), r);
    let cosine = multiply_add::<FUSED>(r2, estrin8::<FUSED>(r2, &COS_FLOAT), 1.0);
    // `negative` is x's sign times (-1)^k: k is odd where the two differ.
    let odd = negative != x.is_sign_negative();
    let quotient = if odd { cosine / sine } else { sine / cosine };
    let decided = finite && !(odd && r.abs() < 2f64.powi(-40));
    let y = match (decided, negative) {
        (false, _) => f64::NAN,
        (_, true) => -quotient,
        (_, false) => quotient,
    };
    let slope = k * 2f64.powi(-96);
    let bound = multiply_add::<FUSED>(
        y.abs(),
        multiply_add::<FUSED>(slope, y.abs(), 2f64.powi(-40)),
        slope,
    );
    (y, bound)
}

/// The head of sine's series in double-double, and π: `head[n - 1]` is `(-1)^n/(2n + 1)!`
/// for n = 1 to 4 and `pi` is π, each as a pair `(h, l)`, `h` the constant rounded and `l` the
/// rest rounded (within 2^-106 of the constant, relative), from MPFR at 256 bits.
#[derive(Clone, Copy)]
struct SeriesHead {
    head: [(f64, f64); 4],
    pi: (f64, f64),
}

fn series_head() -> &'static SeriesHead {
    static HEAD: OnceLock<SeriesHead> = OnceLock::new();
    HEAD.get_or_init(|| {
        use rug::float::Constant;
        use rug::Float;
        let split = |value: Float| {
            let high = value.to_f64();
            (high, (value - high).to_f64())
        };
        let mut head = [(0.0, 0.0); 4];
        let mut factorial = rug::Integer::from(1);
        for (n, term) in head.iter_mut().enumerate() {
            let n = n as u32 + 1;
            factorial *= (2 * n) * (2 * n + 1);
            let magnitude = Float::with_val(256, 1) / Float::with_val(256, &factorial);
            *term = split(if n % 2 == 1 { -magnitude } else { magnitude });
        }
        SeriesHead {
            head,
            pi: split(Float::with_val(256, Constant::Pi)),
        }
    })
}

/// sin's Taylor coefficients past the head: `(-1)^n/(2n + 1)!` for n = 5 to 12 (1/11! to
/// 1/25!), each rounded once or twice.
const SIN_TAIL: [f64; 8] = [
    SIN_TAYLOR[4],
    SIN_TAYLOR[5],
    SIN_TAYLOR[6],
    SIN_TAYLOR[7],
    SIN_TAYLOR[8],
    SIN_TAYLOR[9],
    SIN_TAYLOR[10],
    SIN_TAYLOR[11],
];

/// cos(r) − 1 = r²·(C[0] + r²·(C[1] + …)): −1/2!, 1/4!, … 1/12!.
const COS_TAYLOR: [f64; 6] = [
    -0.5,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
];

/// `s + t = a + b` exactly where `|a| >= |b|` (or `a = 0`), `s = RN(a + b)` (Dekker).
#[inline(always)]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// `p + e = a·b` exactly, `p = RN(a·b)` (by a fused multiply-add: the lanes that call it run
/// where the CPU has one; elsewhere `mul_add` is the C library's `fma`, correct and slower).
#[inline(always)]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `(a_h + a_l)·(b_h + b_l)` as a double-double, within `2^-104.4·|a·b|` where `|a_l| <=
/// 2^-52·|a_h|` and likewise `b` (the product `a_l·b_l`, below `2^-104·|a·b|`, is dropped,
/// and the two roundings of the low parts' sum are below `2^-106.9`).
#[inline(always)]
fn product(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let (high, error) = two_product(a.0, b.0);
    (high, error + a.0.mul_add(b.1, a.1 * b.0))
}

/// `c[0] + c[1]·z + … + c[7]·z^7` by Estrin's scheme (pairs, then pairs of pairs: a chain
/// three operations deep instead of Horner's seven).
#[inline(always)]
fn estrin8<const FUSED: bool>(z: f64, c: &[f64; 8]) -> f64 {
    let z2 = z * z;
    let z4 = z2 * z2;
    let pair = |low: usize| multiply_add::<FUSED>(c[low + 1], z, c[low]);
    let low = multiply_add::<FUSED>(pair(2), z2, pair(0));
    let high = multiply_add::<FUSED>(pair(6), z2, pair(4));
    multiply_add::<FUSED>(high, z4, low)
}

/// sin(x) (cos(x) where `COSINE`) correctly rounded to double for the float `x`, or NaN
/// where this lane does not decide it (`x` infinite, NaN or zero, or a double midpoint within
/// the error bound): the double tier (CORE-MATH's `cr_sin`, `cr_cos`) for the inputs whose
/// float results a sweep measures.
/// `u = 2^-53`; every operation runs with a fused multiply-add ([`two_product`]).
///
/// **Reduction.** As in [`sinf_lane`]: `x/π ≡ M = P0 + P1 + P2 + P3 + m·R (mod 2)`, with
/// `a = P0 - k` exact, `|a| <= 1.01`, `|P2| + |P3| < 2^-50·M` and `0 <= m·R < 2^-103·M`.
/// Here `f = f_h + f_l` is a double-double: `s + σ = a + P1` exactly (two-sum),
/// `q = RN(P2 + P3)` (off by `u·|q|`), and `f_h + f_l = s + RN(σ + q)` exactly (two-sum),
/// the rounding off by `u·(|σ| + |q|)`. So `f` is `a + P1 + P2 + P3` within `u·(2|q| + |σ|)`,
/// at most `2^-102·M + 2^-106·|f|` (`|σ| <= u·|s|`), and `M - k` within that plus
/// `2^-103·M`: within `2^-101·(|f| + k)` (`M <= |f| + k + 2^-49`).
///
/// **Cosine.** `M + 1/2` for `M`, with `P0 + 1/2 = P0' + c` exactly (two-sum, `c` the
/// carry), and `a = P0' - k`. Where `L >= -27` the sum is exact ([`sinf_lane`]), `c = 0`
/// and all is as above. Elsewhere `M < 2^-3`, `P0'` lies in `[1/2, 0.63]` and `k` is 1 or 0,
/// so `a` is exact (Sterbenz, or `a = P0'`), `|c| <= 2^-54` joins `q` in the low sum (off by
/// `u·(|σ| + |c| + |q|)`, under `2^-105`), and `|f| >= 0.37`: `f` is still within
/// `2^-101·(|f| + k)` of `M + 1/2 - k`.
///
/// **Scaling.** `r = r_h + r_l = (f_h + f_l)·(π_h + π_l)` ([`product`], [`SeriesHead`]): off
/// by `2^-104.4·|r|` from the product, `2^-106·|r|` from π's pair, and `π·2^-101·(|f| +
/// k)` from `f`: `r` is `(M - k)·π` within `2^-103.6·|r| + 2^-99.3·(|f| + k)`, and `|r_l| <=
/// 2^-51.9·|r_h|`, `|r| <= π/2 + 2^-47`.
///
/// **Evaluation.** sin(r) = sin(r_h) + r_l·cos(r_h) − ρ, `|ρ| <= r_l²/2 < 2^-104·|r|`.
/// With `z = z_h + z_l = r_h²` exactly (two-product), sin(r_h) = `r_h + r_h·z·(H(z) +
/// z^4·T(z))`: `H` the head's four terms (−1/3! to 1/9!) and `T` the tail's eight (−1/11! to
/// 1/25!); the first term left out, `r^27/27!`, is below `2^-75·|r|`. `T(z_h)` in double
/// (Estrin) errs by under `4u·|T|` (each coefficient's term at most a twentieth of the
/// last's; the coefficients rounded twice at most, `2u` each), and `z^4` times that is
/// under `2^-69.3·|r|` (`z^5/11! <= 2^-18.7` for `|r| <= 1.58`), likewise `z_h` for `z` in
/// it. The head runs in double-double: four steps `acc = H_n + z·acc` ([`product`], then
/// a fast two-sum, valid as `|z·acc| <= 0.15·|H_n|`, and the low parts' sum), each within
/// `2^-103·|acc|`, and `r_h·(z·acc)` as well: the correction `r_h·z·(…)`, at most `0.37·|r|`,
/// within `2^-101·|r|`. `cos(r_h) = 1 + z·C(z_h)`, truncated at `z^6/12!` (left out: under
/// `2^-27`) and rounded (`2^-50`), times `|r_l| <= 2^-51.9·|r|`: under `2^-78·|r|`. The last
/// sums: `y = y_h + y_l` from a fast two-sum of `r_h` and the correction's high part
/// (exact, `|r_h|` the larger), then the low parts (`|y_l|`, the correction's low part and
/// `r_l·cos`, together under `2^-50.5·|r|`) summed with two roundings (`2^-102·|r|`) and a
/// fast two-sum (exact). In all `y` is sin(r) within `2^-69.2·|r|`, and sin(x) (the sign
/// applied exactly) within `2^-68.5·|y| + 2^-99.3·(|f| + k)` (`|r| <= 1.58·|sin r|`; an
/// absolute error of `r` moves sin(r) by no more). The bound used, `e = 2^-64·|y_h| +
/// 2^-96·k`, is more than 8 times that (`|f| <= 1/2` goes into the `|y|` term).
///
/// **Rounding test.** `RN(y_l - e)` is `y_l - e` within `u·(|y_l| + e)`, below `e/4` (`|y_l|
/// <= u·|y_h|`, `e >= 2^-64·|y_h|`), so `y_h + RN(y_l - e) < y - e/2`, which lies below the
/// exact value, and `y_h + RN(y_l + e)` above it. Where both sums round to the same double,
/// so does every value between them: it is the correctly rounded sin(x).
#[inline(always)]
fn sin_double_lane<const COSINE: bool>(x: f64, windows: [f64; 2], constants: &SeriesHead) -> f64 {
    let (high, low, bound) = sin_double_within::<COSINE>(x, windows, constants);
    double_if_alike(high, low, bound)
}

/// `(h, l, e)` with `h + l` within `e` of sin(x) (cos(x) where `COSINE`) for the finite
/// nonzero float `x`
/// ([`sin_double_lane`] has the proof); `h` NaN for an infinite, NaN or zero `x`. `windows`:
/// [`Reduction`]'s for `x`'s exponent.
#[inline(always)]
fn sin_double_within<const COSINE: bool>(
    x: f64,
    windows: [f64; 2],
    constants: &SeriesHead,
) -> (f64, f64, f64) {
    let Reduced {
        products: [p0, p1, p2, p3],
        carry,
        k,
        negative,
        finite,
        zero,
    } = reduce::<COSINE>(x, windows);
    let (s, sigma) = two_sum(p0 - k, p1);
    let f = two_sum(s, sigma + (carry + (p2 + p3)));
    let (r_high, r_low) = product(f, constants.pi);
    let z = two_product(r_high, r_high);
    let mut acc = (estrin8::<true>(z.0, &SIN_TAIL), 0.0);
    for term in constants.head.iter().rev() {
        let (high, low) = product(z, acc);
        let (sum, error) = fast_two_sum(term.0, high);
        acc = fast_two_sum(sum, error + (term.1 + low));
    }
    let correction = product((r_high, 0.0), product(z, acc));
    let cosine = z.0.mul_add(estrin6(z.0, &COS_TAYLOR), 1.0);
    let (high, low) = fast_two_sum(r_high, correction.0);
    let (high, low) = fast_two_sum(high, low + r_low.mul_add(cosine, correction.1));
    let (high, low) = match (finite && !zero, negative) {
        (false, _) => (f64::NAN, f64::NAN),
        (_, true) => (-high, -low),
        (_, false) => (high, low),
    };
    let bound = high.abs().mul_add(2f64.powi(-64), k * 2f64.powi(-96));
    (high, low, bound)
}

/// tan(x) correctly rounded to double for the float `x`, or NaN where this lane does not
/// decide it (`x` infinite, NaN or zero, or a double midpoint within the error bound): the
/// double tier (CORE-MATH's `cr_tan`) for the inputs whose float results a sweep measures.
/// `u = 2^-53`; every operation runs with a fused multiply-add.
///
/// **Sine and cosine.** [`sin_double_within`] gives `S' = s_h + s_l` within `e_s` of sin(x)
/// and `C' = c_h + c_l` within `e_c` of cos(x) ([`sin_double_lane`]'s proof), `|s_l| <=
/// u·|s_h|` and `|c_l| <= u·|c_h|` (each the result of a fast two-sum). The lane declines
/// unless `e_c <= |c_h|/4` (it declines only where cos(x) is tiny against `e_c`'s absolute
/// term, near an odd multiple of π/2) and `|s_h| >= 2^-900` (a guard: what follows needs its
/// values far from underflow, and sin of a nonzero float is larger than that).
///
/// **Propagation.** With `S = S' + α`, `C = C' + β` (`|α| <= e_s`, `|β| <= e_c`) and `t' =
/// S'/C'`: `tan x - t' = (α - t'·β)/(C' + β)`, so `|tan x - t'| <= (e_s + |t'|·e_c)/(|C'| -
/// e_c)`.
///
/// **Quotient.** `q_h = RN(s_h/c_h)`; the remainder `ρ = s_h - q_h·c_h` is a double (the
/// remainder of a division rounded to nearest, `|s_h| >= 2^-900` far above underflow),
/// so the fused multiply-add gives it exactly, `|ρ| <= u·|q_h·c_h|`. `t' = q_h + (ρ + s_l -
/// q_h·c_l)/C'`. The numerator's `w = RN(s_l - q_h·c_l)` (one fused operation, `|w| <=
/// 2.01u·|s_h|`) and `n = RN(ρ + w)` err by under `5.1u²·|s_h|`; dividing by `c_h` instead of
/// `C'` is off by `1.01u` relative, and `q_l = RN(n/c_h)` by `u` more, `|q_l| <= 3.1u·|t'|`:
/// `q_h + q_l` is `t'` within `(5.1 + 3.2 + 3.2)u²·|t'| < 2^-102.4·|q_h|` (`|t'| <= (1 +
/// 3.1u)·|q_h|`: `q_h` is `t'` within `u` from its rounding and `2u` from `s_l` and `c_l`).
///
/// **Bound.** `e = 2^-100·|q_h| + (1 + 2^-40)·(e_s + |q_h|·e_c)/d`, `d = RN(RN(|c_h|·(1 -
/// 2^-50)) - e_c)`: `d <= (1 + u)·(|C'| - e_c)` (`|C'| >= (1 - u)·|c_h|`, and `d >= 0.74·|c_h|`
/// by the guard), and `|t'| <= (1 + 3.1u)·|q_h|`, so the second term, after its five
/// roundings, still exceeds the propagated error (the `2^-40` covers `10u`), and the first is
/// 5 times the quotient's error (after the last rounding): `y = q_h + q_l` is tan(x) within
/// `e`.
///
/// **Rounding test.** As in [`sin_double_lane`]: `|q_l| <= 3.2u·|q_h|` and `e >=
/// 2^-100·|q_h|`, so `RN(q_l - e)` is `q_l - e` within `e/16`, and `q_h + RN(q_l - e)` lies
/// below `y - e/2`, below tan(x), and `q_h + RN(q_l + e)` above it: where both sums round to
/// the same double, so does tan(x).
#[inline(always)]
fn tan_double_lane(x: f64, windows: [f64; 2], constants: &SeriesHead) -> f64 {
    let (high, low, bound) = tan_double_within(x, windows, constants);
    double_if_alike(high, low, bound)
}

/// `(h, l, e)` with `h + l` within `e` of tan(x) for the finite nonzero float `x`
/// ([`tan_double_lane`] has the proof); `h` NaN for an infinite, NaN or zero `x` and where the
/// lane's guard declines. `windows`: [`Reduction`]'s for `x`'s exponent.
#[inline(always)]
fn tan_double_within(x: f64, windows: [f64; 2], constants: &SeriesHead) -> (f64, f64, f64) {
    let (sine_high, sine_low, sine_bound) = sin_double_within::<false>(x, windows, constants);
    let (cosine_high, cosine_low, cosine_bound) = sin_double_within::<true>(x, windows, constants);
    let high = sine_high / cosine_high;
    let remainder = (-high).mul_add(cosine_high, sine_high);
    let low = (remainder + (-high).mul_add(cosine_low, sine_low)) / cosine_high;
    let denominator = cosine_high.abs() * (1.0 - 2f64.powi(-50)) - cosine_bound;
    let propagated = high.abs().mul_add(cosine_bound, sine_bound) / denominator;
    let bound = high
        .abs()
        .mul_add(2f64.powi(-100), propagated * (1.0 + 2f64.powi(-40)));
    let guarded = cosine_bound <= 0.25 * cosine_high.abs() && sine_high.abs() >= 2f64.powi(-900);
    let high = if guarded { high } else { f64::NAN };
    (high, low, bound)
}

/// `c[0] + c[1]·z + … + c[5]·z^5` by Estrin's scheme.
#[inline(always)]
fn estrin6(z: f64, c: &[f64; 6]) -> f64 {
    let z2 = z * z;
    let pair = |low: usize| c[low + 1].mul_add(z, c[low]);
    pair(4).mul_add(z2 * z2, pair(2).mul_add(z2, pair(0)))
}

/// sin of every float of `inputs`, correctly rounded to float (the proof is at `sinf_lane`).
pub fn sinf(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<SineLane<false, false>>();
    sine_column(lanes, Some(tiny_sine), super::fast::sinf, inputs, out);
}

/// sin of every float of `inputs`, correctly rounded to double (the proof is at
/// `sin_double_lane`): the double tier, CORE-MATH's `cr_sin`, where the lanes decline.
pub fn sin_of_floats(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<SineLane<false, true>>();
    sine_column(lanes, None, super::fast::sin, inputs, out);
}

/// cos of every float of `inputs`, correctly rounded to double (the proof is at
/// `sin_double_lane`): the double tier, CORE-MATH's `cr_cos`, where the lanes decline.
pub fn cos_of_floats(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<SineLane<true, true>>();
    sine_column(lanes, None, super::fast::cos, inputs, out);
}

/// tan of every float of `inputs`, correctly rounded to float (the proof is at `tanf_lane`).
pub fn tanf(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<TangentLane<false>>();
    sine_column(lanes, Some(tiny_sine), super::fast::tanf, inputs, out);
}

/// tan of every float of `inputs`, correctly rounded to double (the proof is at
/// `tan_double_lane`): the double tier, CORE-MATH's `cr_tan`, where the lanes decline.
pub fn tan_of_floats(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<TangentLane<true>>();
    sine_column(lanes, None, super::fast::tan, inputs, out);
}

/// cos of every float of `inputs`, correctly rounded to float (the proof is at `sinf_lane`).
pub fn cosf(inputs: &[f64], out: &mut Vec<f64>) {
    let lanes = sine_lanes::<SineLane<true, false>>();
    sine_column(lanes, Some(tiny_cosine), super::fast::cosf, inputs, out);
}

/// A float column's values on a block of tiny floats, below [`TINY`] in magnitude: there
/// sin(x) and tan(x) round to `x` and cos(x) to 1, so no lane needs to run (on 45% of all
/// floats: an exhaustive sweep's blocks of 256 consecutive floats nearly all lie in one
/// binade).
///
/// **Sine.** For `0 < x < 2^-12`, `x - x³/6 <= sin x < x`, so sin(x) lies below `x` by less
/// than `x³/6 < 2^-26.5·x`. The float below `x` lies at least `2^-24·x` below it (exactly that
/// where `x` is a power of two, where the gap below is half the gap above; more for a
/// subnormal `x`, whose gap is `2^-149`), so the midpoint between them lies at least
/// `2^-25·x` below `x`: sin(x) lies strictly between that midpoint and `x` and rounds to `x`.
/// sin is odd, and sin(±0) = ±0.
///
/// **Cosine.** For `|x| < 2^-12`, `1 - x²/2 <= cos x <= 1` and `x²/2 < 2^-25`: cos(x) lies
/// strictly above `1 - 2^-25`, the midpoint between 1 and the float below it (`1 - 2^-24`),
/// and at most 1, so it rounds to 1.
///
/// **Tangent.** For `0 < x < 2^-12`, `tan x - x` is the integral of tan²t from 0 to `x`, and
/// `tan t <= 1.01·t` there, so tan(x) lies above `x` by less than `1.03·x³/3 < 2^-25.5·x`. The
/// float above `x` lies at least `2^-23·x/2 = 2^-24·x` above it (more for a subnormal `x`), so
/// tan(x) lies strictly between `x` and the midpoint above it and rounds to `x`. tan is odd,
/// and tan(±0) = ±0: [`tiny_sine`]'s values.
type Tiny = fn(block: &[f64], values: &mut [f64]);

/// sinf's [`Tiny`] values: each float itself.
fn tiny_sine(block: &[f64], values: &mut [f64]) {
    values.copy_from_slice(block);
}

/// cosf's [`Tiny`] values: 1.
fn tiny_cosine(_: &[f64], values: &mut [f64]) {
    values.fill(1.0);
}

/// The magnitude below which a float is tiny ([`Tiny`]).
const TINY: f64 = 1.0 / 4096.0;

/// Whether every value of `block` is below [`TINY`] in magnitude (a vectorized pass; NaN is
/// not).
#[inline(always)]
fn all_tiny(block: &[f64]) -> bool {
    block.iter().fold(true, |tiny, x| tiny & (x.abs() < TINY))
}

/// `lanes` over `inputs` into `out`, block by block, and the scalar tier `scalar` (CORE-MATH's)
/// where they decline; `tiny`, where it is given, on a block of tiny floats.
///
/// A block whose floats share one exponent field gets that field's windows for every lane: an
/// exhaustive sweep's blocks run through a binade in order, so after a block that shared one,
/// the next block's lanes assume its first float's and decline where a float's differs (its
/// inputs are read once, by the lanes: a separate pass that checked them first read them from
/// memory, 0.7 ns an input, and the lanes wait on nothing in the cache). Where they declined,
/// the block is checked, and a block of mixed exponents (a random sweep's) gets each float's
/// windows ([`look_up`]), as does the block after it.
///
/// The passes over a block (tiny, shared exponent, NaN) run in the widest vectors, and the
/// block [`AHEAD`] blocks on is fetched into the cache while this one runs.
fn sine_column(
    lanes: Lanes,
    tiny: Option<Tiny>,
    scalar: super::FastFn,
    inputs: &[f64],
    out: &mut Vec<f64>,
) {
    let table = reduction();
    out.clear();
    out.resize(inputs.len(), 0.0);
    crate::num::wide::widest(
        #[inline(always)]
        || blocks(table, lanes, tiny, scalar, inputs, out),
    );
}

/// [`sine_column`]'s loop over the blocks of `inputs`, `out` as long.
#[inline(always)]
fn blocks(
    table: &Reduction,
    lanes: Lanes,
    tiny: Option<Tiny>,
    scalar: super::FastFn,
    inputs: &[f64],
    out: &mut [f64],
) {
    let mut each = [[0.0; BLOCK]; 2];
    let mut last_shared = true;
    for (number, (block, values)) in inputs.chunks(BLOCK).zip(out.chunks_mut(BLOCK)).enumerate() {
        prefetch(inputs, (number + AHEAD) * BLOCK);
        if let Some(tiny) = tiny.filter(|_| all_tiny(block)) {
            tiny(block, values);
            continue;
        }
        let shared = if last_shared {
            Some(exponent_field(block[0]))
        } else {
            shared_exponent_field(block)
        };
        match shared {
            Some(field) => lanes(block, Windows::Shared(field, table.pair(field)), values),
            None => {
                look_up(table, block, &mut each);
                lanes(block, Windows::Each(&each), values);
            }
        }
        last_shared = shared.is_some();
        if !any_nan(values) {
            continue;
        }
        if shared.is_some() && shared_exponent_field(block).is_none() {
            look_up(table, block, &mut each);
            lanes(block, Windows::Each(&each), values);
            last_shared = false;
        }
        // Declined by the rounding test, or infinite or NaN: nearly never in a block.
        if any_nan(values) {
            for (x, value) in block.iter().zip(values.iter_mut()) {
                if value.is_nan() {
                    *value = scalar(&[*x]);
                }
            }
        }
    }
}

/// Blocks between the one a column computes and the one it fetches ([`prefetch`]).
const AHEAD: usize = 4;

/// Asks the CPU to bring the block of `inputs` at `start` (if any) into its cache. A sweep's
/// inputs were written a batch or two before (by another core, or evicted since), and a block
/// of tiny floats is read and copied faster than the hardware's own prefetching fetched the
/// next one: waiting on the reads was most of the column's time on such blocks.
#[inline(always)]
fn prefetch(inputs: &[f64], start: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // One address in each 64-byte line (8 doubles).
        for line in (start..inputs.len().min(start + BLOCK)).step_by(8) {
            // SAFETY: SSE is part of the x86-64 baseline, and `line` is within `inputs`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(inputs.as_ptr().add(line).cast()) };
        }
    }
}

/// Whether a value of `values` is NaN (a vectorized pass).
#[inline(always)]
fn any_nan(values: &[f64]) -> bool {
    values
        .iter()
        .fold(false, |found, value| found | value.is_nan())
}

/// Inputs per block: a block's table windows are looked up first, then its lanes run.
const BLOCK: usize = 256;

/// The exponent field of the float `x` holds (0 for subnormals and zeros).
#[inline(always)]
fn exponent_field(x: f64) -> usize {
    (((x as f32).to_bits() >> 23) & 0xff) as usize
}

/// The exponent field every float of `block` has, where they share one (one double exponent
/// and sign for all is the test: floats of one double exponent share a float field; a block
/// of subnormals fails it and gets [`look_up`]'s windows, the same ones).
#[inline(always)]
fn shared_exponent_field(block: &[f64]) -> Option<usize> {
    let key = block[0].to_bits() >> 52;
    let differ = block
        .iter()
        .fold(0, |differ, x| differ | ((x.to_bits() >> 52) ^ key));
    (differ == 0).then(|| exponent_field(block[0]))
}

impl Reduction {
    /// The two windows of exponent field `field`.
    fn pair(&self, field: usize) -> [f64; 2] {
        [self.windows[0][field], self.windows[1][field]]
    }
}

/// The [`Reduction`] windows of each float of `block`, one scalar load per input. Kept out of
/// the vectorized lanes: there the loads became gather instructions, which this project's AMD
/// CPUs run as microcode that held back the rest of the loop (the column took 3.4 against 2.7
/// ns an input, an exhaustive sin shard 3.1 against 2.7 s of CPU). Not inlined, so it keeps
/// the baseline instruction set, which has no gather.
#[inline(never)]
fn look_up(table: &Reduction, block: &[f64], windows: &mut [[f64; BLOCK]; 2]) {
    for (k, x) in block.iter().enumerate() {
        let field = exponent_field(*x);
        windows[0][k] = table.windows[0][field];
        windows[1][k] = table.windows[1][field];
    }
}

/// The windows a block's lanes take.
#[derive(Clone, Copy)]
enum Windows<'a> {
    /// Every float's exponent field is said to be this one, with these windows; a lane whose
    /// float has another declines.
    Shared(usize, [f64; 2]),
    /// Each float's own windows, `[0][k]` and `[1][k]` for `block[k]`.
    Each(&'a [[f64; BLOCK]; 2]),
}

/// A block's lanes: `values[k]` from `block[k]` and its windows.
type Lanes = fn(block: &[f64], windows: Windows, values: &mut [f64]);

/// `L`'s lanes over a block, compiled for the widest vectors this CPU has.
fn sine_lanes<L: Lane>() -> Lanes {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY (the call): only where the CPU has the features it is compiled for.
            return |block, windows, values| unsafe { sine_avx512::<L>(block, windows, values) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return |block, windows, values| unsafe { sine_avx2::<L>(block, windows, values) };
        }
    }
    sine::<false, L>
}

/// What one lane computes from a float and its [`Reduction`] windows: its value, or NaN
/// where the lane does not decide it.
trait Lane {
    fn value<const FUSED: bool>(x: f64, windows: [f64; 2], constants: &SeriesHead) -> f64;
}

/// sin (cos where `COSINE`): [`sin_double_lane`] where `DOUBLE`, else [`sinf_lane`].
struct SineLane<const COSINE: bool, const DOUBLE: bool>;

impl<const COSINE: bool, const DOUBLE: bool> Lane for SineLane<COSINE, DOUBLE> {
    #[inline(always)]
    fn value<const FUSED: bool>(x: f64, windows: [f64; 2], constants: &SeriesHead) -> f64 {
        if DOUBLE {
            sin_double_lane::<COSINE>(x, windows, constants)
        } else {
            sinf_lane::<FUSED, COSINE>(x, windows)
        }
    }
}

/// tan: [`tan_double_lane`] where `DOUBLE`, else [`tanf_lane`].
struct TangentLane<const DOUBLE: bool>;

impl<const DOUBLE: bool> Lane for TangentLane<DOUBLE> {
    #[inline(always)]
    fn value<const FUSED: bool>(x: f64, windows: [f64; 2], constants: &SeriesHead) -> f64 {
        if DOUBLE {
            tan_double_lane(x, windows, constants)
        } else {
            tanf_lane::<FUSED>(x, windows)
        }
    }
}

/// The lanes of a block, as two interleaved streams (its halves): one stream's chain of
/// dependent operations left the CPU idle.
#[inline(always)]
fn sine<const FUSED: bool, L: Lane>(block: &[f64], windows: Windows, values: &mut [f64]) {
    // A copy, so the constants stay in registers across the loops' stores.
    let constants = *series_head();
    let lane = |x: f64, windows: [f64; 2]| L::value::<FUSED>(x, windows, &constants);
    let half = block.len() / 2;
    // Every slice cut to `half` exactly, so the loops have no bounds checks: with them the
    // compiler left the last 8 lanes of each stream to a scalar loop, a third of the time.
    fn halves(column: &[f64], half: usize) -> (&[f64], &[f64]) {
        (&column[..half], &column[half..2 * half])
    }
    let (first_x, second_x) = halves(block, half);
    let (first, rest) = values.split_at_mut(half);
    let second = &mut rest[..half];
    let last = block.len() - 1;
    match windows {
        Windows::Shared(field, pair) => {
            let shared = |x: f64| {
                let value = lane(x, pair);
                if exponent_field(x) == field {
                    value
                } else {
                    f64::NAN
                }
            };
            for k in 0..half {
                first[k] = shared(first_x[k]);
                second[k] = shared(second_x[k]);
            }
            if block.len() % 2 == 1 {
                values[last] = shared(block[last]);
            }
        }
        Windows::Each(each) => {
            let (first_w0, second_w0) = halves(&each[0], half);
            let (first_w1, second_w1) = halves(&each[1], half);
            for k in 0..half {
                first[k] = lane(first_x[k], [first_w0[k], first_w1[k]]);
                second[k] = lane(second_x[k], [second_w0[k], second_w1[k]]);
            }
            if block.len() % 2 == 1 {
                values[last] = lane(block[last], [each[0][last], each[1][last]]);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,fma")]
unsafe fn sine_avx512<L: Lane>(block: &[f64], windows: Windows, values: &mut [f64]) {
    sine::<true, L>(block, windows, values);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn sine_avx2<L: Lane>(block: &[f64], windows: Windows, values: &mut [f64]) {
    sine::<true, L>(block, windows, values);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{fast, FastFn};
    use rayon::prelude::*;

    /// The columns: name, the column, CORE-MATH's scalar function, the variants of its lanes
    /// to test, and the stride of the floats [`every_float_column_is_core_maths`] checks.
    type Column = (
        &'static str,
        ColumnFn,
        FastFn,
        fn() -> Vec<(&'static str, Lanes)>,
        usize,
    );
    const COLUMNS: [Column; 4] = [
        (
            "sin",
            sinf,
            fast::sinf,
            variants::<SineLane<false, false>>,
            1,
        ),
        (
            "cos",
            cosf,
            fast::cosf,
            variants::<SineLane<true, false>>,
            1,
        ),
        // `cr_sin` costs about 18 ns a call here: every float would take 80 s of CPU.
        (
            "sin as double",
            sin_of_floats,
            fast::sin,
            variants::<SineLane<false, true>>,
            13,
        ),
        (
            "cos as double",
            cos_of_floats,
            fast::cos,
            variants::<SineLane<true, true>>,
            13,
        ),
    ];

    /// The tan column, as [`COLUMNS`]' (all floats: [`every_float_tangent_is_core_maths`]).
    const TANGENT: [Column; 2] = [
        ("tan", tanf, fast::tanf, variants::<TangentLane<false>>, 31),
        (
            "tan as double",
            tan_of_floats,
            fast::tan,
            variants::<TangentLane<true>>,
            31,
        ),
    ];

    /// The floats next to the float nearest each of the first 2000 multiples of π/2 (two on
    /// each side), where the reductions cancel most and tan is near 0 or its poles.
    fn near_half_turns() -> Vec<f64> {
        let mut inputs = Vec::new();
        for multiple in 1..2000 {
            let near = f64::from(multiple as f32 * std::f32::consts::FRAC_PI_2);
            let bits = (near as f32).to_bits();
            inputs.extend((bits - 2..bits + 3).map(|bits| f64::from(f32::from_bits(bits))));
        }
        inputs
    }

    /// The block-lanes variants this CPU can run besides AVX-512, by name (the columns run the
    /// ones [`sine_lanes`] picks, AVX-512 where the CPU has it).
    fn variants<L: Lane>() -> Vec<(&'static str, Lanes)> {
        let mut variants: Vec<(&'static str, Lanes)> = vec![("portable", sine::<false, L>)];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has the features.
            variants.push(("avx2", |block, windows, values| unsafe {
                sine_avx2::<L>(block, windows, values)
            }));
        }
        variants
    }

    /// Where the column's value differs from CORE-MATH's scalar function (NaN equal to NaN).
    fn mismatches(scalar: FastFn, inputs: &[f64], column: &[f64]) -> Vec<(f64, f64, f64)> {
        inputs
            .iter()
            .zip(column)
            .filter_map(|(x, value)| {
                let expected = scalar(&[*x]);
                let same =
                    value.to_bits() == expected.to_bits() || (value.is_nan() && expected.is_nan());
                (!same).then_some((*x, *value, expected))
            })
            .collect()
    }

    /// The float of every `stride`-th encoding from `offset`, in sorted runs of `run` (an
    /// exhaustive sweep's blocks share an exponent; a random sweep's do not, so both of
    /// [`look_up`]'s paths run).
    fn encodings(offset: u64, stride: u64, run: u64) -> Vec<f64> {
        (0..1u64 << 32)
            .skip(offset as usize)
            .step_by(stride as usize)
            .enumerate()
            .map(|(n, bits)| {
                let scattered = if (n as u64 / run) % 2 == 1 {
                    bits.wrapping_mul(0x9e37_79b9) & 0xffff_ffff
                } else {
                    bits
                };
                f64::from(f32::from_bits(scattered as u32))
            })
            .collect()
    }

    /// The columns are CORE-MATH's correctly rounded sine and cosine (in float and in double)
    /// and tangent (in float), bit for bit, in every variant, on every 509th float (8.4
    /// million, every exponent and both signs), half of them in blocks of mixed exponents, and
    /// on special values and floats near multiples of π/2, of both signs. The variants' lanes
    /// run on every block, tiny ones too; the columns take [`Tiny`]'s values where they have
    /// them.
    #[test]
    fn sine_and_cosine_columns_are_core_maths() {
        let mut inputs = encodings(7, 509, 1000);
        inputs.extend([
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::from_bits(1)),
            -f64::from(f32::from_bits(0x7f_ffff)),
            f64::from(f32::MAX),
            f64::from(f32::MIN),
            // The floats nearest π/2, π and 2π, where sin(x) or cos(x) is tiny.
            f64::from(std::f32::consts::FRAC_PI_2),
            f64::from(std::f32::consts::PI),
            f64::from(std::f32::consts::TAU),
            // The four that CORE-MATH's `cr_sinf` lists as exceptions to its own fast path:
            // 0x1.33333p+13, 0x1.75b8a2p-1, 0x1.4f0654p+0 and 0x1.2d97c8p+3 (near 3π).
            f64::from(f32::from_bits(0x4619_9998)),
            f64::from(f32::from_bits(0x3f3a_dc51)),
            f64::from(f32::from_bits(0x3fa7_832a)),
            f64::from(f32::from_bits(0x4116_cbe4)),
        ]);
        inputs.extend(near_half_turns());
        // 16367173·2^72 and its neighbours: it lies 2^-29.2 from an odd multiple of π/2, so
        // its tan is near 2^29.
        inputs.extend((0x6f79_be42u32..0x6f79_be49).map(|bits| f64::from(f32::from_bits(bits))));
        inputs.extend(inputs.clone().iter().map(|x| -x));
        for (name, column, scalar, variants, _) in COLUMNS.into_iter().chain(TANGENT) {
            for (variant, lanes) in variants() {
                let mut out = Vec::new();
                sine_column(lanes, None, scalar, &inputs, &mut out);
                let found = mismatches(scalar, &inputs, &out);
                assert!(
                    found.is_empty(),
                    "{name}, {variant}: {} differ, first {:?}",
                    found.len(),
                    found[0]
                );
            }
            let mut out = Vec::new();
            column(&inputs, &mut out);
            assert!(mismatches(scalar, &inputs, &out).is_empty(), "{name}");
        }
    }

    /// Every one of the 2^32 floats: the columns of [`sinf`] and [`cosf`] (the lanes this CPU
    /// runs) are CORE-MATH's `cr_sinf` and `cr_cosf`, which makes them exact on this CPU
    /// whatever the proof's margins; on every 13th float, [`sin_of_floats`] and
    /// [`cos_of_floats`] are its `cr_sin` and `cr_cos`.
    /// About 35 s on 2 cores.
    #[test]
    fn every_float_column_is_core_maths() {
        for (name, column, scalar, _, stride) in COLUMNS {
            let mismatched: usize = (0..1u64 << 16)
                .into_par_iter()
                .map(|high| {
                    let inputs: Vec<f64> = (0..1u64 << 16)
                        .step_by(stride)
                        .map(|low| f64::from(f32::from_bits(((high << 16) | low) as u32)))
                        .collect();
                    let mut out = Vec::new();
                    column(&inputs, &mut out);
                    mismatches(scalar, &inputs, &out).len()
                })
                .sum();
            assert_eq!(mismatched, 0, "{name}");
        }
    }

    /// Every 31st block of 2^16 floats (every float with `CLACC_EVERY_FLOAT=1`): [`tanf`] is
    /// CORE-MATH's `cr_tanf` and [`tan_of_floats`] its `cr_tan`, bit for bit (the scalar
    /// tiers where the lanes decline), and the float lanes leave few floats to the scalar
    /// tier.
    #[test]
    fn every_float_tangent_is_core_maths() {
        use crate::reference::column_checks::every_float_matches;
        every_float_matches(tanf, fast::tanf, "tan");
        every_float_matches(tan_of_floats, fast::tan, "tan as double");
        let table = reduction();
        let (mut lanes_declined, mut lanes_ran) = (0usize, 0usize);
        for bits in (0..u32::MAX).step_by(4093) {
            let x = f64::from(f32::from_bits(bits));
            if x.is_finite() {
                let field = exponent_field(x);
                lanes_ran += 1;
                lanes_declined += usize::from(tanf_lane::<true>(x, table.pair(field)).is_nan());
            }
        }
        eprintln!("tan: lanes declined {lanes_declined} of {lanes_ran} finite floats");
        assert!(
            lanes_declined * 10_000 < lanes_ran,
            "{lanes_declined} of {lanes_ran}"
        );
    }

    /// The tan lanes' bounds (float and double) hold against MPFR with room to spare (the
    /// largest error seen below a quarter of the bound) on random floats of every exponent,
    /// floats near multiples of π/2 and tiny ones; the float lanes decline none of them.
    #[test]
    fn tangent_bound_holds_against_mpfr() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let table = reduction();
        let mut inputs: Vec<f64> = (0..100_000)
            .map(|_| f64::from(f32::from_bits(rng.random::<u32>())))
            .filter(|x| x.is_finite())
            .collect();
        inputs.extend(near_half_turns());
        inputs.extend((1..200).map(|k| f64::from(f32::from_bits(k * 0x0020_0001))));
        inputs.extend([0.0, -0.0, f64::from(f32::MAX), f64::from(f32::from_bits(1))]);
        // 2^-29.2 from an odd multiple of π/2 ([`sine_and_cosine_columns_are_core_maths`]).
        inputs.extend((0x6f79_be42u32..0x6f79_be49).map(|bits| f64::from(f32::from_bits(bits))));
        let constants = series_head();
        let (mut worst, mut worst_double): (f64, f64) = (0.0, 0.0);
        for x in inputs {
            let windows = table.pair(exponent_field(x));
            let exact = rug::Float::with_val(400, x).tan();
            let (high, low, bound) = tan_double_within(x, windows, constants);
            if !high.is_nan() {
                let value = rug::Float::with_val(400, high) + low;
                let error = (value - &exact).abs().to_f64();
                assert!(
                    error <= bound,
                    "x = {x:e}: {high:e} + {low:e}, error {error:e} > {bound:e}"
                );
                worst_double = worst_double.max(error / bound);
            }
            for (y, bound) in [
                tan_within::<false>(x, windows),
                tan_within::<true>(x, windows),
            ] {
                assert!(!y.is_nan(), "x = {x:e}: declined");
                let error = (rug::Float::with_val(400, y) - &exact).abs().to_f64();
                assert!(
                    error <= bound,
                    "x = {x:e}: y {y:e}, error {error:e} > {bound:e}"
                );
                if bound > 0.0 {
                    worst = worst.max(error / bound);
                }
            }
        }
        assert!(
            worst < 1.0 / 4.0 && worst_double < 1.0 / 4.0,
            "the largest error is {worst} of the bound, {worst_double} in double"
        );
        eprintln!("tan: largest errors {worst} of the bound, {worst_double} in double");
    }

    /// The proof's bound holds against MPFR on random floats of every exponent with room to
    /// spare: the largest error seen stays below a third of the bound.
    #[test]
    fn sine_and_cosine_bounds_hold_against_mpfr() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let table = reduction();
        let mut worst: f64 = 0.0;
        for _ in 0..100_000 {
            let x = loop {
                let x = f32::from_bits(rng.random::<u32>());
                if x.is_finite() {
                    break f64::from(x);
                }
            };
            let exponent = (((x as f32).to_bits() >> 23) & 0xff) as usize;
            let windows = [table.windows[0][exponent], table.windows[1][exponent]];
            let sine = rug::Float::with_val(400, x).sin();
            let cosine = rug::Float::with_val(400, x).cos();
            for ((y, bound), exact) in [
                (sine_within::<false, false>(x, windows), &sine),
                (sine_within::<true, false>(x, windows), &sine),
                (sine_within::<false, true>(x, windows), &cosine),
                (sine_within::<true, true>(x, windows), &cosine),
            ] {
                let error = (rug::Float::with_val(400, y) - exact).abs().to_f64();
                assert!(
                    error <= bound,
                    "x = {x:e}: y {y:e}, error {error:e} > {bound:e}"
                );
                if bound > 0.0 {
                    worst = worst.max(error / bound);
                }
            }
        }
        assert!(
            worst < 1.0 / 3.0,
            "the largest error is {worst} of the bound"
        );
    }

    /// The double lanes' bound holds against MPFR with room to spare (the largest error seen
    /// below an eighth of it) on random floats of every exponent, floats just past multiples
    /// of π/2 (where the reduction cancels most) and tiny ones.
    #[test]
    fn sine_and_cosine_in_double_bounds_hold_against_mpfr() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let table = reduction();
        let constants = series_head();
        let mut inputs: Vec<f64> = (0..100_000)
            .map(|_| f64::from(f32::from_bits(rng.random::<u32>())))
            .filter(|x| x.is_finite() && *x != 0.0)
            .collect();
        for multiple in 1..2000 {
            let near = f64::from(multiple as f32 * std::f32::consts::FRAC_PI_2);
            let bits = (near as f32).to_bits();
            inputs.extend((bits - 2..bits + 3).map(|bits| f64::from(f32::from_bits(bits))));
        }
        inputs.extend((1..200).map(|k| f64::from(f32::from_bits(k * 0x0020_0001))));
        let mut worst: f64 = 0.0;
        for x in inputs {
            let exponent = (((x as f32).to_bits() >> 23) & 0xff) as usize;
            let windows = [table.windows[0][exponent], table.windows[1][exponent]];
            let sine = rug::Float::with_val(400, x).sin();
            let cosine = rug::Float::with_val(400, x).cos();
            for ((high, low, bound), exact) in [
                (sin_double_within::<false>(x, windows, constants), &sine),
                (sin_double_within::<true>(x, windows, constants), &cosine),
            ] {
                let value = rug::Float::with_val(400, high) + low;
                let error = (value - exact).abs().to_f64();
                assert!(
                    error <= bound,
                    "x = {x:e}: {high:e} + {low:e}, error {error:e} > {bound:e}"
                );
                worst = worst.max(error / bound);
            }
        }
        assert!(
            worst < 1.0 / 8.0,
            "the largest error is {worst} of the bound"
        );
    }
}
