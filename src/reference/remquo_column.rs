//! Float remquo over columns of float pairs, many lanes at a time, exactly: for each `(x, y)`
//! with `x` finite and `y` finite and non-zero, the remainder `x − n·y` (`n` the integer
//! nearest `x/y`, ties to even) and `n`'s low 7 bits (of `|n|`, 0 to 127); NaN for both where
//! `x` or `y` is not (the scalar path decides those).
//!
//! **Integers.** A float is `±M·2^e` with `M < 2^24` an integer and `e = max(E, 1) − 150` (`E`
//! its exponent field: the subnormals share the smallest unit, 2^-149). With `|x| = X·2^a`
//! and `|y| = Y·2^b`:
//! - where `a < b`, `x` and `y` are normal with `x`'s exponent below `y`'s (a subnormal has the
//!   smallest unit), so `|x| < |y|`: `n` is 0 where `|x| <= |y|/2` (a tie at 1/2 goes to the
//!   even 0), the remainder `x`; else `|x|/|y|` lies in (1/2, 1), `n` is 1 and the remainder
//!   `|x| − |y|` (exact: Sterbenz), with `x`'s sign;
//! - where `a >= b`, `|x|/|y| = T/Y` with the integer `T = X·2^s`, `s = a − b <= 253`. The lane
//!   finds `t = T mod Y` and `floor(T/Y) mod 128` by a division of `X` by `Y` and then nine
//!   steps of at most 29 bits each (9·29 >= 253): a step multiplies `t` (below `Y < 2^24`) by
//!   `2^c`, `c <= 29`, so `v = t·2^c < 2^53` is exact, and divides `v` by `Y`. Each division
//!   ([`divide`], of a `v < 2^53` with `v/Y < 2^29`) takes `q = floor(RN(v·R))` with `R =
//!   RN(1/Y)`: `RN(v·R)` is within `(v/Y)·2^-51.9 < 2^-22` of `v/Y`, so `q` is `floor(v/Y)` or
//!   one less or one more; `v − q·Y` (one fused multiply-add) is then an integer in
//!   `[−Y, 2Y)`, below 2^25: exact, and adding or subtracting `Y` once (with `q` one less or
//!   one more) leaves `v mod Y` and `floor(v/Y)`. As `T·2^c/Y`'s floor is
//!   `floor(T/Y)·2^c + floor(v/Y)`, the low bits become `(low·2^c + q) mod 128`, each term
//!   `q` reduced mod 128 first (`z − floor(z/128)·128` is exact for an integer `z < 2^53`),
//!   the sum below 2^37: exact. (One division a lane and a multiplication a step: a division each
//!   step cost three times as much.) A step after `left` reaches 0 changes nothing, so
//!   [`remquof`] skips those where a whole group of lanes has done (its doc has why).
//!
//! Then `n = floor(T/Y) + 1` where `2t > Y`, or `2t = Y` with an odd floor (ties to even),
//! else the floor, and the remainder is `(t − Y)·2^b` or `t·2^b`: an integer below 2^24 times
//! a power of two in float's range, exact. remquo's remainder has `x`'s sign applied to it
//! (`remquo(−x, y) = −remquo(x, y)`), and its quotient's sign is `x`'s times `y`'s;
//! `n`'s low bits are the low bits of the quotient remquo's rule compares
//! ([`crate::judge::Rules::remquo_verdict`] has why they are those of `|x|/|y|` rounded).
//! `remquo_columns_are_mpfrs` checks both against MPFR.

/// Nine steps of at most this many bits cover the largest exponent gap, 253 (x's unit at most
/// 2^104, y's at least 2^-149).
const STEP_BITS: f64 = 29.0;

/// The steps a lane takes at most: 9·29 >= 253 (254 where a field reads 255, a lane made NaN).
const STEPS: usize = 9;

/// Lanes a block sorts by the steps they need.
const BLOCK: usize = 64;

/// Lanes a vector step runs together (a multiple of both AVX-512's and AVX2's double lanes).
const GROUP: usize = 8;

use crate::reference::exp_column::ROUNDING_SHIFT;

/// remquo of every float pair `(x[i], y[i])`: the remainder into `remainders` and the
/// quotient's low 7 bits (of its magnitude) into `low_bits`, both NaN where `x` is not finite
/// or `y` is not finite or is zero (the module's proof).
///
/// The column goes in blocks of [`BLOCK`] lanes, each sorted by the steps its lanes need
/// (`ceil(max(a − b, 0)/29)`, where a random pair's is about 2 and a block's largest about 8),
/// and a step runs over the groups of [`GROUP`] lanes holding a lane that still needs it: about
/// 2.2 steps a lane in a random sweep instead of nine. A step of a lane whose `left` is 0 is
/// exact nothing: `c = 0` makes `scale = power_of_two(0) = 1`, `v = t < Y`, and then
/// `v·R <= (Y − 1)/Y·(1 + 2^-53) < 1 − 2^-25` rounds below 1, so `q = 0`, the fused
/// multiply-add gives `t` back (`−0·Y + t = t`, `t` being `+0` or positive), neither correction
/// applies, and `low` (an integer in [0, 128)) becomes `modulo_128(low·1 + modulo_128(0)) =
/// low`. So a lane given more steps than it needs ends as the nine written-out steps left it.
pub fn remquof(x: &[f64], y: &[f64], remainders: &mut Vec<f64>, low_bits: &mut Vec<f64>) {
    assert_eq!(x.len(), y.len(), "argument columns of two lengths");
    remainders.clear();
    remainders.resize(x.len(), 0.0);
    low_bits.clear();
    low_bits.resize(x.len(), 0.0);
    crate::num::wide::widest(
        #[inline(always)]
        || {
            let mut block = Block::new();
            for (((x, y), remainders), low_bits) in x
                .chunks(BLOCK)
                .zip(y.chunks(BLOCK))
                .zip(remainders.chunks_mut(BLOCK))
                .zip(low_bits.chunks_mut(BLOCK))
            {
                block.remquo(x, y, remainders, low_bits);
            }
        },
    );
}

/// One block's lanes, in the order of the steps they need, with each lane's state between
/// steps (the names of [`start`]'s proof).
struct Block {
    x: [f64; BLOCK],
    y: [f64; BLOCK],
    t: [f64; BLOCK],
    low: [f64; BLOCK],
    left: [f64; BLOCK],
    big_y: [f64; BLOCK],
    reciprocal: [f64; BLOCK],
    /// The index, in the block's argument slices, of each sorted lane.
    order: [usize; BLOCK],
    /// The steps each argument lane needs.
    needs: [u32; BLOCK],
}

impl Block {
    fn new() -> Block {
        Block {
            x: [0.0; BLOCK],
            y: [0.0; BLOCK],
            t: [0.0; BLOCK],
            low: [0.0; BLOCK],
            left: [0.0; BLOCK],
            big_y: [0.0; BLOCK],
            reciprocal: [0.0; BLOCK],
            order: [0; BLOCK],
            needs: [0; BLOCK],
        }
    }

    /// remquo of the pairs `(x[i], y[i])`, at most [`BLOCK`] of them, into `remainders[i]` and
    /// `low_bits[i]`.
    #[inline(always)]
    fn remquo(&mut self, x: &[f64], y: &[f64], remainders: &mut [f64], low_bits: &mut [f64]) {
        let count = x.len();
        assert!(count <= BLOCK && y.len() == count && remainders.len() == count);
        assert!(low_bits.len() == count);
        // Counting sort by the steps needed, the counts by vector loops (a histogram's
        // increments wait on each other); `done_after[k]`: the lanes that need at most k.
        for i in 0..count {
            let gap = unit_field(x[i]).saturating_sub(unit_field(y[i]));
            self.needs[i] = gap.div_ceil(STEP_BITS as u32).min(STEPS as u32);
        }
        let mut done_after = [count; STEPS + 1];
        let mut next = [0usize; STEPS + 1];
        for k in 0..STEPS {
            done_after[k] = self.needs[..count]
                .iter()
                .map(|&needs| u32::from(needs as usize <= k))
                .sum::<u32>() as usize;
            next[k + 1] = done_after[k];
        }
        for i in 0..count {
            let place = &mut next[self.needs[i] as usize];
            self.order[*place] = i;
            self.x[*place] = x[i];
            self.y[*place] = y[i];
            *place += 1;
        }
        // Lanes past `count` (a last, short block) are pairs that need no step.
        self.x[count..].fill(0.0);
        self.y[count..].fill(1.0);
        for i in 0..BLOCK {
            (
                self.t[i],
                self.low[i],
                self.left[i],
                self.big_y[i],
                self.reciprocal[i],
            ) = start(self.x[i], self.y[i]);
        }
        for &needing in &done_after[..STEPS] {
            if needing == count {
                break;
            }
            // Lanes from `needing` on need this step; those before it in their group take it
            // as nothing (`remquof`'s proof).
            for group in needing / GROUP..BLOCK / GROUP {
                for i in group * GROUP..(group + 1) * GROUP {
                    (self.t[i], self.low[i], self.left[i]) = step(
                        self.t[i],
                        self.low[i],
                        self.left[i],
                        self.big_y[i],
                        self.reciprocal[i],
                    );
                }
            }
        }
        for i in 0..BLOCK {
            (self.t[i], self.low[i]) = finish(self.x[i], self.y[i], self.t[i], self.low[i]);
        }
        for (sorted, &i) in self.order[..count].iter().enumerate() {
            remainders[i] = self.t[sorted];
            low_bits[i] = self.low[sorted];
        }
    }
}

/// A float's exponent field, at least 1 (its unit's exponent plus 150), for a float `f` held as
/// a double.
#[inline(always)]
fn unit_field(f: f64) -> u32 {
    (((f as f32).to_bits() >> 23) & 0xff).max(1)
}

/// A float's integer significand `M` and unit exponent `e` (`|f| = M·2^e`), for a float `f`
/// held as a double.
#[inline(always)]
fn integer_and_unit(f: f64) -> (f64, f64) {
    let bits = (f as f32).to_bits();
    let field = (bits >> 23) & 0xff;
    let implicit = if field == 0 { 0 } else { 1 << 23 };
    (
        f64::from((bits & 0x7f_ffff) | implicit),
        f64::from(field.max(1)) - 150.0,
    )
}

/// 2^e for an integer `e` of double's normal range: `e + 1.5·2^52` holds `e` in its low bits
/// (in [2^52, 2^53) a double's bits count units), which go to the exponent field. (A
/// conversion to an integer kept the loop over a column from vectorizing.)
#[inline(always)]
fn power_of_two(e: f64) -> f64 {
    let shifted = e + ROUNDING_SHIFT;
    let biased = shifted
        .to_bits()
        .wrapping_sub(ROUNDING_SHIFT.to_bits())
        .wrapping_add(1023);
    f64::from_bits(biased << 52)
}

/// `z mod 128` for an integer `z` in [0, 2^53), exactly.
#[inline(always)]
fn modulo_128(z: f64) -> f64 {
    z - (z * (1.0 / 128.0)).floor() * 128.0
}

/// `(v mod divisor, floor(v/divisor))` for integers `v < 2^53` and `divisor` in [1, 2^24) with
/// `v/divisor < 2^29`, `reciprocal` being `1/divisor` rounded (the module's proof).
#[inline(always)]
fn divide(v: f64, divisor: f64, reciprocal: f64) -> (f64, f64) {
    let q = (v * reciprocal).floor();
    let rest = (-q).mul_add(divisor, v);
    let (rest, q) = if rest < 0.0 {
        (rest + divisor, q - 1.0)
    } else {
        (rest, q)
    };
    if rest >= divisor {
        (rest - divisor, q + 1.0)
    } else {
        (rest, q)
    }
}

/// A pair's state before its steps (the module's proof): `(t, low, left, Y, 1/Y rounded)`,
/// `t` and `low` from the division of `X` by `Y`, `left` the exponent gap `a − b` (0 where
/// negative) the steps still have to take.
#[inline(always)]
fn start(x: f64, y: f64) -> (f64, f64, f64, f64, f64) {
    let (big_x, a) = integer_and_unit(x.abs());
    let (big_y, b) = integer_and_unit(y.abs());
    let reciprocal = 1.0 / big_y;
    let (t, q) = divide(big_x, big_y, reciprocal);
    (t, modulo_128(q), (a - b).max(0.0), big_y, reciprocal)
}

/// One step of at most [`STEP_BITS`] bits of `left` (the module's proof): the new
/// `(t, low, left)`.
#[inline(always)]
fn step(t: f64, low: f64, left: f64, big_y: f64, reciprocal: f64) -> (f64, f64, f64) {
    let c = left.min(STEP_BITS);
    let scale = power_of_two(c);
    let (t, q) = divide(t * scale, big_y, reciprocal);
    (t, modulo_128(low * scale + modulo_128(q)), left - c)
}

/// `(remainder, low bits)` at one pair from `t` and `low` after its steps (the module's
/// proof), straight-line with selects so the loop over a block vectorizes.
#[inline(always)]
fn finish(x: f64, y: f64, t: f64, low: f64) -> (f64, f64) {
    let (ax, ay) = (x.abs(), y.abs());
    let (big_y, b) = integer_and_unit(ay);
    let (_, a) = integer_and_unit(ax);
    let twice = 2.0 * t;
    let odd = low - 2.0 * (low * 0.5).floor() == 1.0;
    let up = twice > big_y || (twice == big_y && odd);
    let unit = power_of_two(b);
    let (magnitude, n_low) = if a < b {
        if ax <= ay * 0.5 {
            (ax, 0.0)
        } else {
            (ax - ay, 1.0)
        }
    } else if up {
        ((t - big_y) * unit, modulo_128(low + 1.0))
    } else {
        (t * unit, low)
    };
    let remainder = if x.is_sign_negative() {
        -magnitude
    } else {
        magnitude
    };
    if x.is_finite() && y.is_finite() && y != 0.0 {
        (remainder, n_low)
    } else {
        (f64::NAN, f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::reference::{binding, correctly_rounded_value};
    use crate::spec::reference_id::ReferenceId;
    use rug::Float;

    /// The column lane by lane, every lane taking all nine steps: the reference
    /// `blocked_column_is_lane_by_lane` holds the blocks' sorting and early exit to.
    fn lane(x: f64, y: f64) -> (f64, f64) {
        let (mut t, mut low, mut left, big_y, reciprocal) = start(x, y);
        for _ in 0..STEPS {
            (t, low, left) = step(t, low, left, big_y, reciprocal);
        }
        finish(x, y, t, low)
    }

    /// The blocked column equals the lane-by-lane one bit for bit: on random bit patterns, on
    /// pairs of every exponent-field gap (−255 to 255, so every step count 0 to 9) shuffled
    /// so each block mixes them, with the specials among them, and on every column length up
    /// to three blocks (short last blocks).
    #[test]
    fn blocked_column_is_lane_by_lane() {
        let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut draw = move || draws.next_bits();
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..100_000 {
            let bits = draw();
            x.push(f64::from(f32::from_bits(bits as u32)));
            y.push(f64::from(f32::from_bits((bits >> 32) as u32)));
        }
        let specials = crate::reference::pair_column::checks::specials();
        let mut gaps = Vec::new();
        for round in 0..40u32 {
            for ex in 0..256u32 {
                for ey in 0..256u32 {
                    if (ex + ey + round) % 40 != 0 {
                        continue;
                    }
                    let bits = draw();
                    let a = f32::from_bits((ex << 23) | (bits as u32 & 0x807f_ffff));
                    let b = f32::from_bits((ey << 23) | ((bits >> 32) as u32 & 0x807f_ffff));
                    gaps.push((f64::from(a), f64::from(b)));
                }
            }
            gaps.extend(
                specials
                    .iter()
                    .map(|&s| (s, f64::from(draw() as u32 as f32))),
            );
            gaps.extend(
                specials
                    .iter()
                    .map(|&s| (f64::from(draw() as u32 as f32), s)),
            );
        }
        // Fisher–Yates, so each block holds gaps of every size.
        for i in (1..gaps.len()).rev() {
            gaps.swap(i, (draw() % (i as u64 + 1)) as usize);
        }
        x.extend(gaps.iter().map(|pair| pair.0));
        y.extend(gaps.iter().map(|pair| pair.1));
        let (mut remainders, mut low_bits) = (Vec::new(), Vec::new());
        let mut check = |x: &[f64], y: &[f64]| {
            remquof(x, y, &mut remainders, &mut low_bits);
            assert_eq!(remainders.len(), x.len());
            for i in 0..x.len() {
                let (remainder, low) = lane(x[i], y[i]);
                assert_eq!(
                    (remainders[i].to_bits(), low_bits[i].to_bits()),
                    (remainder.to_bits(), low.to_bits()),
                    "remquo({:e}, {:e}) at {i} of {}",
                    x[i],
                    y[i],
                    x.len()
                );
            }
        };
        check(&x, &y);
        let start = x.len() - gaps.len();
        for count in 0..=3 * BLOCK {
            check(&x[start..start + count], &y[start..start + count]);
        }
    }

    /// Special values, pairs at every exponent gap (the largest: the largest float over the
    /// smallest subnormal), quotients at ties (x an odd or even multiple of y/2), and random
    /// pairs: the remainder against MPFR's, bit for bit (zeros by value: the verdict compares
    /// with `==`), and the low bits against those of `x/y` rounded by MPFR.
    #[test]
    fn remquo_columns_are_mpfrs() {
        // The columns' specials (both signs), a half-integer quotient's divisor and a
        // normal with a low bit set.
        let mut specials = crate::reference::pair_column::checks::specials();
        specials.extend([-2.5, f64::from(f32::from_bits(0x00c0_0001))]);
        let [mut x, mut y] = crate::num::test_draws::every_tuple(&specials);
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        let mut draw = move || draws.next_bits();
        for _ in 0..200_000 {
            let bits = draw();
            let b = f32::from_bits((bits >> 32) as u32);
            let a = match draw() % 4 {
                // A multiple of b/2, odd or even: a tie, or an exact quotient.
                0 => b * 0.5 * (draw() % 512) as f32,
                // Near b's exponent.
                1 => b * f32::from_bits(0x3f00_0000 + (draw() as u32 % 0x0200_0000)),
                _ => f32::from_bits(bits as u32),
            };
            x.push(f64::from(a));
            y.push(f64::from(b));
        }
        // Every exponent gap, with odd significands.
        for ex in 0..255u32 {
            for ey in 0..255u32 {
                let a = f32::from_bits((ex << 23) | 0x12_3457 | (draw() as u32 & 0x7f_0000));
                let b = f32::from_bits((ey << 23) | 0x65_4321 | (draw() as u32 & 0x0f_fff0));
                x.push(f64::from(a));
                y.push(f64::from(-b));
            }
        }
        let (mut remainders, mut low_bits) = (Vec::new(), Vec::new());
        remquof(&x, &y, &mut remainders, &mut low_bits);
        let mut decided = 0;
        for i in 0..x.len() {
            let args = [x[i], y[i]];
            let (remainder, low) = (remainders[i], low_bits[i]);
            let defined = x[i].is_finite() && y[i].is_finite() && y[i] != 0.0;
            assert_eq!(
                remainder.is_nan(),
                !defined,
                "remquo{args:?}: {remainder:e}"
            );
            assert_eq!(low.is_nan(), !defined, "remquo{args:?}: {low}");
            if !defined {
                continue;
            }
            decided += 1;
            let correct = correctly_rounded_value(
                binding::mpfr(ReferenceId::RemquoRemainder),
                &args,
                FloatType::Float,
            );
            assert!(
                remainder == correct,
                "remquo{args:?}: column {remainder:e}, MPFR {correct:e}"
            );
            // x/y to 400 bits is within 2^-120 of T/Y (below 2^280), which lies at least
            // 2^-25 from any half-integer it is not: rounded to an integer, ties to even, it
            // is n.
            let quotient = Float::with_val(400, Float::with_val(400, x[i]) / y[i]).round_even();
            let expected = quotient.to_integer().expect("finite").abs().mod_u(128);
            assert_eq!(
                low,
                f64::from(expected),
                "remquo{args:?}: column's low bits {low}, MPFR's n {quotient}"
            );
        }
        assert!(decided > x.len() / 2, "{decided}");
    }
}
