//! Exact sums of finite doubles and of their products, and their roundings, in integer
//! arithmetic.
//!
//! Every finite double is an integer multiple of 2^-1074 below 2^1024, and the product of two
//! is an integer multiple of 2^-2148, so a sum of a few of them (products below 2^1100) is an
//! integer times 2^-2148 below 2^1110: [`ExactSum`] holds its positive and its negative terms
//! in two such integers over [`LIMBS`] 64-bit words (bit i weighs 2^(i − 2148)), with no
//! rounding anywhere, and only the words its terms touched are ever read. Rounding such a
//! value to p significant bits, to nearest with ties to even, is then integer work: keep the
//! top p bits, look at the next one and whether any below it is set.
//!
//! It lets a double result's error be measured without MPFR where the exact value is a sum of
//! products of doubles (fma's `x·y + z`, a dot product): the value, its rounding to the
//! reference's working precision, the difference's rounding to 64 bits and the error's to
//! double are the roundings MPFR makes, bit for bit ([`crate::num::ulp::ulp_error_of_sum`]).

/// Words of the fixed-point integers: bits 2^-2148 to 2^1307, room for products below 2^1100,
/// the carries of a few of them, and the three words a term is added in.
const LIMBS: usize = 54;

/// The weight of bit 0: 2^-2148, the lowest bit of a product of two subnormal doubles.
const LOWEST: i32 = -2148;

/// Products at or above this power of two are declined ([`ExactSum::add_product`]).
const LARGEST_PRODUCT_BINADE: i32 = 1100;

/// The words `low..high` of a fixed-point integer that may be non-zero.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    low: usize,
    high: usize,
}

impl Span {
    const EMPTY: Span = Span {
        low: LIMBS,
        high: 0,
    };

    fn with(self, low: usize, high: usize) -> Span {
        Span {
            low: self.low.min(low),
            high: self.high.max(high),
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.low..self.high.max(self.low)
    }
}

/// The sum of the terms added so far, exactly (positive and negative ones apart), and the span
/// of their bits.
#[derive(Clone, Debug)]
pub struct ExactSum {
    positive: [u64; LIMBS],
    negative: [u64; LIMBS],
    words: Span,
    /// The lowest set bit's exponent among the terms added (`i32::MAX` before any).
    lowest_term_bit: i32,
    /// The highest set bit's exponent among the terms added (`i32::MIN` before any).
    highest_term_bit: i32,
}

impl Default for ExactSum {
    fn default() -> ExactSum {
        ExactSum {
            positive: [0; LIMBS],
            negative: [0; LIMBS],
            words: Span::EMPTY,
            lowest_term_bit: i32::MAX,
            highest_term_bit: i32::MIN,
        }
    }
}

/// A finite double's significand and the exponent of its bit 0 (`|value| = m·2^e`).
fn split(value: f64) -> (u64, i32) {
    let bits = value.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if field == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), field - 1075)
    }
}

/// Adds `significand · 2^(LOWEST + shift)` to `limbs`, returning the words it touched.
fn add_shifted(limbs: &mut [u64; LIMBS], significand: u128, shift: u32) -> (usize, usize) {
    let at = (shift / 64) as usize;
    let offset = shift % 64;
    // Up to 106 + 63 bits: three words.
    let parts = [
        (significand << offset) as u64,
        ((significand << offset) >> 64) as u64,
        if offset == 0 {
            0
        } else {
            (significand >> (128 - offset)) as u64
        },
    ];
    let mut carry = false;
    let mut i = at;
    for part in parts {
        let (sum, c1) = limbs[i].overflowing_add(part);
        let (sum, c2) = sum.overflowing_add(u64::from(carry));
        limbs[i] = sum;
        carry = c1 || c2;
        i += 1;
    }
    while carry {
        let (sum, c) = limbs[i].overflowing_add(1);
        limbs[i] = sum;
        carry = c;
        i += 1;
    }
    (at, i)
}

impl ExactSum {
    /// Adds `value` (finite; a NaN or an infinity is a caller's error).
    pub fn add(&mut self, value: f64) {
        self.add_term(value, 1.0, false);
    }

    /// Subtracts `value` (finite).
    pub fn subtract(&mut self, value: f64) {
        self.add_term(value, 1.0, true);
    }

    /// Adds the exact product `x·y` (finite): `false`, adding nothing, where it is 2^1100 or
    /// more.
    pub fn add_product(&mut self, x: f64, y: f64) -> bool {
        if x == 0.0 || y == 0.0 {
            return true;
        }
        let (mx, ex) = split(x);
        let (my, ey) = split(y);
        let top = ex + ey + 127 - (u128::from(mx) * u128::from(my)).leading_zeros() as i32;
        if top >= LARGEST_PRODUCT_BINADE {
            return false;
        }
        self.add_term(x, y, false);
        true
    }

    fn add_term(&mut self, x: f64, y: f64, negate: bool) {
        assert!(x.is_finite() && y.is_finite(), "an exact sum of {x} · {y}");
        if x == 0.0 || y == 0.0 {
            return;
        }
        let (mx, ex) = split(x);
        let (my, ey) = split(y);
        let significand = u128::from(mx) * u128::from(my);
        let exponent = ex + ey;
        let low = exponent + significand.trailing_zeros() as i32;
        let high = exponent + 127 - significand.leading_zeros() as i32;
        self.lowest_term_bit = self.lowest_term_bit.min(low);
        self.highest_term_bit = self.highest_term_bit.max(high);
        let shift = (exponent - LOWEST) as u32;
        let limbs = if ((x < 0.0) != (y < 0.0)) != negate {
            &mut self.negative
        } else {
            &mut self.positive
        };
        let (low, high) = add_shifted(limbs, significand, shift);
        self.words = self.words.with(low, high);
    }

    /// Bits from the highest set bit of any term to the lowest, both included (0 for no term).
    pub fn term_span(&self) -> i32 {
        if self.highest_term_bit < self.lowest_term_bit {
            0
        } else {
            self.highest_term_bit - self.lowest_term_bit + 1
        }
    }

    /// Rounds the sum to `precision` significant bits, to nearest with ties to even, as an
    /// MPFR number of that precision holds a running sum.
    pub fn round_to(&mut self, precision: u32) {
        let mut value = self.value();
        if value.round_to(precision) != Moved::Exact {
            let words = value.words;
            self.positive[words.range()].fill(0);
            self.negative[words.range()].fill(0);
            let side = if value.negative {
                &mut self.negative
            } else {
                &mut self.positive
            };
            side[words.range()].copy_from_slice(&value.magnitude[words.range()]);
        }
    }

    /// The sum's sign and magnitude.
    pub fn value(&self) -> Exact {
        let words = self.words;
        let range = words.range();
        // Which side is larger: the first word, from the top, where they differ.
        let negative = range
            .clone()
            .rev()
            .find(|i| self.positive[*i] != self.negative[*i])
            .is_some_and(|i| self.negative[i] > self.positive[i]);
        let (larger, smaller) = if negative {
            (&self.negative, &self.positive)
        } else {
            (&self.positive, &self.negative)
        };
        let mut magnitude = [0u64; LIMBS];
        let mut borrow = false;
        for i in range {
            let (difference, b1) = larger[i].overflowing_sub(smaller[i]);
            let (difference, b2) = difference.overflowing_sub(u64::from(borrow));
            magnitude[i] = difference;
            borrow = b1 || b2;
        }
        Exact {
            negative,
            magnitude,
            words,
        }
    }
}

/// An exact value: a sign and a magnitude in units of 2^-2148, non-zero only in `words`.
#[derive(Clone, Debug)]
pub struct Exact {
    negative: bool,
    magnitude: [u64; LIMBS],
    words: Span,
}

impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.is_negative() == other.is_negative() && self.magnitude == other.magnitude
    }
}

/// Which way a rounding moved a magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    Exact,
    Down,
    Up,
}

impl Exact {
    pub fn is_zero(&self) -> bool {
        self.top().is_none()
    }

    pub fn is_negative(&self) -> bool {
        self.negative && !self.is_zero()
    }

    /// The index of the highest set bit of the magnitude.
    fn top(&self) -> Option<u32> {
        let index = self.words.range().rev().find(|i| self.magnitude[*i] != 0)?;
        Some(index as u32 * 64 + 63 - self.magnitude[index].leading_zeros())
    }

    /// The exponent of the highest set bit: |x| lies in [2^b, 2^(b+1)) (`None` at zero).
    pub fn binade(&self) -> Option<i32> {
        self.top().map(|top| top as i32 + LOWEST)
    }

    /// Whether |x| is a power of two.
    pub fn is_power_of_two(&self) -> bool {
        self.magnitude[self.words.range()]
            .iter()
            .map(|limb| limb.count_ones())
            .sum::<u32>()
            == 1
    }

    fn bit(&self, index: u32) -> bool {
        self.magnitude[(index / 64) as usize] >> (index % 64) & 1 == 1
    }

    /// Whether any bit below `index` is set.
    fn any_below(&self, index: u32) -> bool {
        let limb = (index / 64) as usize;
        self.magnitude[self.words.low.min(limb)..limb]
            .iter()
            .any(|word| *word != 0)
            || self.magnitude[limb] & ((1u64 << (index % 64)) - 1) != 0
    }

    /// Rounds the magnitude to `precision` significant bits, to nearest with ties to even, in
    /// place.
    pub fn round_to(&mut self, precision: u32) -> Moved {
        let Some(top) = self.top() else {
            return Moved::Exact;
        };
        if top < precision {
            return Moved::Exact;
        }
        // Bit `kept` is the lowest kept one; `kept - 1` the rounding bit.
        let kept = top + 1 - precision;
        let half = self.bit(kept - 1);
        let sticky = self.any_below(kept - 1);
        let odd = self.bit(kept);
        let inexact = half || sticky;
        // Clear everything below `kept`.
        let limb = (kept / 64) as usize;
        let low = self.words.low.min(limb);
        self.magnitude[low..limb].fill(0);
        self.magnitude[limb] &= !((1u64 << (kept % 64)) - 1);
        if half && (sticky || odd) {
            let (_, high) = add_shifted(&mut self.magnitude, 1, kept);
            self.words = self.words.with(limb, high);
            Moved::Up
        } else if inexact {
            Moved::Down
        } else {
            Moved::Exact
        }
    }

    /// `self − value` (value finite), exactly.
    pub fn minus_from(&self, value: f64) -> Exact {
        let mut sum = ExactSum {
            words: self.words,
            ..ExactSum::default()
        };
        if self.negative {
            sum.negative = self.magnitude;
        } else {
            sum.positive = self.magnitude;
        }
        sum.subtract(value);
        sum.value()
    }

    /// The magnitude rounded to nearest (ties to even) to at most 64 significant bits, as
    /// `(significand, exponent)` with |x| ≈ significand · 2^exponent.
    pub fn nearest_64(&self) -> (u64, i32) {
        let Some(top) = self.top() else {
            return (0, 0);
        };
        let low = top.saturating_sub(63);
        // The 64 bits from `low` up, from the two words they lie in.
        let word = (low / 64) as usize;
        let offset = low % 64;
        let pair = u128::from(self.magnitude[word])
            | u128::from(*self.magnitude.get(word + 1).unwrap_or(&0)) << 64;
        let mut significand = (pair >> offset) as u64;
        if top < 64 {
            significand &= if top == 63 {
                u64::MAX
            } else {
                (1u64 << (top + 1)) - 1
            };
        }
        if low > 0 && self.bit(low - 1) && (self.any_below(low - 1) || significand & 1 == 1) {
            significand = match significand.checked_add(1) {
                Some(next) => next,
                None => return (1u64 << 63, low as i32 + 1 + LOWEST),
            };
        }
        (significand, low as i32 + LOWEST)
    }

    /// The value rounded to nearest double (ties to even), where that is zero or a normal
    /// double (`None` elsewhere, as [`nearest_normal_double`]): one rounding, at 53 bits.
    pub fn nearest_double(&self) -> Option<f64> {
        if self.is_zero() {
            return Some(0.0);
        }
        let mut value = self.clone();
        value.round_to(53);
        let (significand, exponent) = value.nearest_64();
        let magnitude = nearest_normal_double(significand, exponent)?;
        Some(if self.negative { -magnitude } else { magnitude })
    }
}

#[cfg(test)]
impl Exact {
    /// The value as an MPFR number, exactly.
    pub(crate) fn to_float(&self) -> rug::Float {
        let mut value = rug::Float::with_val(4000, 0);
        for (index, limb) in self.magnitude.iter().enumerate() {
            let mut word = rug::Float::with_val(4000, *limb);
            word <<= index as i32 * 64 + LOWEST;
            value += word;
        }
        if self.negative {
            -value
        } else {
            value
        }
    }
}

/// `significand · 2^exponent` rounded to nearest double, ties to even, where the result is a
/// normal double (`None` where it would be subnormal or past the largest double: the callers
/// go to MPFR there, whose conversion rounds those differently).
pub fn nearest_normal_double(significand: u64, exponent: i32) -> Option<f64> {
    if significand == 0 {
        return Some(0.0);
    }
    let bits = 64 - significand.leading_zeros() as i32;
    let (mut significand, mut exponent) = (significand, exponent);
    if bits > 53 {
        let dropped = (bits - 53) as u32;
        let half = 1u64 << (dropped - 1);
        let rest = significand & ((1u64 << dropped) - 1);
        significand >>= dropped;
        exponent += dropped as i32;
        if rest > half || (rest == half && significand & 1 == 1) {
            significand += 1;
            if significand == 1u64 << 53 {
                significand >>= 1;
                exponent += 1;
            }
        }
    }
    let top = 63 - significand.leading_zeros() as i32;
    let binade = exponent + top;
    if !(-1022..=1023).contains(&binade) {
        return None;
    }
    let fraction = (significand << (52 - top)) & ((1u64 << 52) - 1);
    Some(f64::from_bits(((binade + 1023) as u64) << 52 | fraction))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Float;

    fn mpfr_sum(terms: &[f64]) -> Float {
        let mut sum = Float::with_val(4000, 0);
        for term in terms {
            sum += term;
        }
        sum
    }

    fn exact_as_float(exact: &Exact) -> Float {
        exact.to_float()
    }

    fn draws() -> Vec<Vec<f64>> {
        let mut draws = crate::num::test_draws::Xorshift(0x1234_5678_9abc_def1);
        let mut next = move || draws.next_bits();
        let mut sets = Vec::new();
        for _ in 0..3000 {
            let count = 1 + next() % 6;
            let set: Vec<f64> = (0..count)
                .map(|_| match next() % 4 {
                    0 => f64::from_bits(next() & !(0x7ffu64 << 52) | (next() % 2047) << 52),
                    1 => (next() % 1000) as f64 - 500.0,
                    2 => f64::from_bits(next() % (1 << 60)),
                    _ => f64::from_bits(0x3ff0_0000_0000_0000 + next() % 16 - 8),
                })
                .filter(|v| v.is_finite())
                .collect();
            sets.push(set);
        }
        sets
    }

    #[test]
    fn sums_are_exact_and_round_as_mpfr_does() {
        for terms in draws() {
            let mut sum = ExactSum::default();
            let mut reference = mpfr_sum(&terms[..terms.len() / 2 * 2]);
            for (k, term) in terms.iter().enumerate() {
                if k % 3 == 2 {
                    sum.subtract(-term);
                } else {
                    sum.add(*term);
                }
            }
            // And the products of the terms' neighbours, exactly.
            for pair in terms.chunks(2) {
                if let [x, y] = pair {
                    if sum.add_product(*x, -*y) {
                        reference -= Float::with_val(200, &Float::with_val(53, *x) * *y);
                    }
                }
            }
            reference += mpfr_sum(&terms[terms.len() / 2 * 2..]);
            let exact = sum.value();
            assert_eq!(exact_as_float(&exact), reference, "{terms:?}");
            if !reference.is_zero() {
                assert_eq!(
                    exact.binade(),
                    reference.get_exp().map(|e| e - 1),
                    "{terms:?}"
                );
            }
            for precision in [53, 64, 170] {
                let mut rounded = exact.clone();
                rounded.round_to(precision);
                let expected = Float::with_val(precision, &reference);
                assert_eq!(
                    exact_as_float(&rounded),
                    expected,
                    "{terms:?} at {precision}"
                );
            }
            let (significand, exponent) = exact.nearest_64();
            let mut at_64 = Float::with_val(64, significand);
            at_64 <<= exponent;
            assert_eq!(
                at_64,
                Float::with_val(64, reference.clone().abs()),
                "{terms:?}"
            );
            if let Some(double) = nearest_normal_double(significand, exponent) {
                assert_eq!(double, at_64.to_f64(), "{terms:?}");
            }
        }
    }

    #[test]
    fn ties_round_to_even() {
        // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: even is 1.
        let mut sum = ExactSum::default();
        sum.add(1.0);
        sum.add(f64::EPSILON / 2.0);
        let mut value = sum.value();
        assert_eq!(value.round_to(53), Moved::Down);
        assert!(value.is_power_of_two());
        assert_eq!(nearest_normal_double(3 << 52 | 1, -53), Some(1.5));
        assert_eq!(nearest_normal_double((1 << 54) - 1, -54), Some(1.0));
        assert_eq!(nearest_normal_double(1, -1075), None);
    }
}
