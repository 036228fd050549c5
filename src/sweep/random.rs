//! The random sweep's values, generation 2: each value a pure function of (unit seed, argument,
//! index), drawn with integer operations straight into the column.
//!
//! Generation 1 drew with ChaCha8, one value and one float `log2`/`pow2` at a time, from a
//! generator reseeded per block of 4096 inputs; it cost more host time than the device spent on
//! an input. Here each input's random word (two for double) is SplitMix64's output at a
//! position of the argument's stream, so any index is drawn alone (chunks, shards and resumes
//! agree whatever their lengths) and a column is filled by a branch-free loop over its indices.
//!
//! The distribution is generation 1's: half the time a uniform bit pattern of the type, half
//! the time a value of the argument's interval spread evenly over its binades (log-uniform:
//! each binade alike, values uniform inside it; a binade the interval only partly covers weighs
//! the part it covers), with a fair sign where the interval holds both. Generation 1 drew an
//! exponent and a fraction as floats and rejected values outside the interval; here one integer
//! *position* is drawn uniformly among the interval's, where a position counts binades and the
//! fraction bits inside them ([`position`]), which is the same distribution without rejection.
//! Subnormal binades count as binades as they did there: each of their values is reached from
//! the positions that truncate to it (generation 1 rounded instead, and gave 0 for double's
//! subnormal binades, whose scale it could not form).

use super::range::{self, InputRange, Keys};
use crate::num::fp::FloatType;
use crate::spec::registry::Function;
use crate::spec::signature::ValueKind;

/// The random sweep's generation, written in every row's `options` as `sweep=2`; rows
/// without it were made by generation 1.
pub const GENERATION: u32 = 2;

/// SplitMix64's finalizer (Stafford's Mix13): a bijection of u64 whose every output bit
/// depends on every input bit.
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One argument's random words: word `n` is SplitMix64's `n`-th output from the stream's key
/// (the key plus `n + 1` times the golden gamma, mixed), so any word is computed alone. Two
/// arguments' streams are the same sequence shifted by a position their keys' hash makes
/// pseudo-random in 2^64, so the 2^40-odd words a sweep uses never meet.
///
/// A few lines rather than a crate: the counter-based generators on crates.io (Philox and
/// Threefry in `urng`, `rng-pack`, `philox` 0.0.0) hand out words through a stateful buffer,
/// not as an inlinable function of the position that the column loops need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stream {
    key: u64,
}

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

impl Stream {
    /// Argument `argument`'s stream of the unit seeded `seed`.
    pub(crate) fn new(seed: u64, argument: usize) -> Stream {
        Stream {
            key: mix(seed ^ mix(argument as u64 + 1)),
        }
    }

    /// The words of random input `index`: two for double, whose bit patterns take a whole word;
    /// one, given twice, for half and float, whose draws take 32 bits and two flags.
    #[inline(always)]
    fn words<const WIDE: bool>(self, index: u64) -> (u64, u64) {
        let at = |n: u64| mix(self.key.wrapping_add((n + 1).wrapping_mul(GOLDEN_GAMMA)));
        if WIDE {
            (at(2 * index), at(2 * index + 1))
        } else {
            let word = at(index);
            (word, word)
        }
    }
}

/// A uniform integer in `0..span` from a uniform word (Lemire's multiply-shift; its bias,
/// below span / 2^64, or span / 2^32 from the low 32 bits where `WIDE` is false, is far under
/// anything a sweep could see). Narrow draws (half and float) have spans of at most 2^32: a
/// 32-bit product, which vector units have, where a 128-bit one is scalar only.
#[inline(always)]
fn below<const WIDE: bool>(word: u64, span: u64) -> u64 {
    if WIDE {
        ((u128::from(word) * u128::from(span)) >> 64) as u64
    } else {
        ((word & 0xffff_ffff) * span) >> 32
    }
}

/// The position of a positive finite encoding `encoding` of a format with `fraction` fraction
/// bits: its binade above the smallest subnormal's, times 2^fraction, plus the fraction bits
/// after its leading one. Positions are uniform over binades and over the values inside one.
pub(super) fn position(encoding: u64, fraction: u32) -> u64 {
    if encoding >> fraction != 0 {
        encoding + (u64::from(fraction - 1) << fraction)
    } else {
        let binade = 63 - encoding.leading_zeros();
        (u64::from(binade) << fraction)
            | ((encoding << (fraction - binade)) & ((1 << fraction) - 1))
    }
}

/// The encoding at `position` ([`position`]'s inverse; in a subnormal binade the position's
/// fraction bits the binade cannot hold are dropped). Selections are masks, not branches: the
/// binade is random, and a branch on it is mispredicted every few values.
#[inline(always)]
pub(super) fn encoding(position: u64, fraction: u32) -> u64 {
    let binade = position >> fraction;
    let normal = position.wrapping_sub(u64::from(fraction - 1) << fraction);
    let leading = 1u64 << fraction;
    let shift = u64::from(fraction).saturating_sub(binade);
    let subnormal = (leading | (position & (leading - 1))) >> (shift & 63);
    let is_subnormal = u64::from(binade < u64::from(fraction)).wrapping_neg();
    (normal & !is_subnormal) | (subnormal & is_subnormal)
}

/// `a` where `pick` is 0, `b` where it is all ones.
#[inline(always)]
fn choose(pick: u64, a: u64, b: u64) -> u64 {
    a ^ ((a ^ b) & pick)
}

/// How log-uniform values of an interval are drawn: the positions of each sign's magnitudes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LogUniform {
    fraction: u32,
    /// The sign bit of the format.
    sign: u64,
    /// (lowest position, how many) of the positive magnitudes, then of the negative ones.
    parts: [(u64, u64); 2],
    /// Whether both signs are drawn (the coin picks one), else which one.
    both_signs: bool,
    negative: bool,
}

impl LogUniform {
    /// Log-uniform values of `element` in [low, high] (finite); `None` where it holds no
    /// nonzero value.
    pub(crate) fn new(element: FloatType, (low, high): (f64, f64)) -> Option<LogUniform> {
        let fraction = element.fraction_bits();
        let tiny = element.from_bits(1);
        // The magnitudes of one sign's part, as (lowest, highest) positions.
        let part = |near: f64, far: f64| {
            let keys = range::keys(
                element,
                InputRange {
                    low: near.max(tiny),
                    high: far,
                },
            )?;
            let (lowest, highest) = (keys.low as u64, keys.high as u64);
            // Every position that truncates to the highest value belongs to it.
            let top = position(highest, fraction);
            let binade = top >> fraction;
            let dropped = u64::from(fraction).saturating_sub(binade);
            let top = top | ((1u64 << dropped) - 1);
            Some((
                position(lowest, fraction),
                top - position(lowest, fraction) + 1,
            ))
        };
        let positive = if high > 0.0 {
            part(low.max(0.0), high)
        } else {
            None
        };
        let negative = if low < 0.0 {
            part((-high).max(0.0), -low)
        } else {
            None
        };
        let (both_signs, is_negative) = match (positive, negative) {
            (None, None) => return None,
            (Some(_), Some(_)) => (true, false),
            (Some(_), None) => (false, false),
            (None, Some(_)) => (false, true),
        };
        let empty = (0, 1);
        Some(LogUniform {
            fraction,
            sign: 1u64 << (element.bits() - 1),
            parts: [positive.unwrap_or(empty), negative.unwrap_or(empty)],
            both_signs,
            negative: is_negative,
        })
    }

    /// The encoding drawn from `coin` (its bit 62 picks the sign) and `word` (the position).
    #[inline(always)]
    pub(super) fn draw<const WIDE: bool>(&self, coin: u64, word: u64) -> u64 {
        // The sign as a mask: the coin's where both are drawn, else the fixed one.
        let negative =
            (((coin >> 62) & u64::from(self.both_signs)) | u64::from(self.negative)).wrapping_neg();
        let [(low_positive, count_positive), (low_negative, count_negative)] = self.parts;
        let lowest = choose(negative, low_positive, low_negative);
        let count = choose(negative, count_positive, count_negative);
        let magnitude = encoding(lowest + below::<WIDE>(word, count), self.fraction);
        magnitude | (self.sign & negative)
    }
}

/// How one argument's random values are drawn.
#[derive(Clone, Debug)]
pub(crate) enum Draw {
    /// Half the time (`coin`'s top bit) a uniform bit pattern of the type (every exponent,
    /// NaNs and infinities too), half the time a log-uniform value of the function's
    /// interval.
    Float { mask: u64, log: LogUniform },
    /// In a `--range`: half the time one of the type's values in the range, each alike, half
    /// the time a log-uniform value of the range's finite part inside the function's interval
    /// (or of the range's finite part where they do not meet); always the former where the
    /// range's finite part holds no nonzero value.
    Ranged { keys: Keys, log: Option<LogUniform> },
    /// One of `span` integers from `low`, each alike.
    Integer { low: i64, span: u64 },
}

impl Draw {
    /// Argument `index` (of `kind`) of an unranged sweep.
    pub(crate) fn new(
        function: &Function,
        element: FloatType,
        kind: ValueKind,
        index: usize,
    ) -> Draw {
        match kind {
            ValueKind::FloatGentype | ValueKind::FloatScalar => Draw::Float {
                mask: u64::MAX >> (64 - element.bits()),
                log: LogUniform::new(element, function.sample_range(index))
                    .expect("every function's sample interval holds nonzero values"),
            },
            ValueKind::IntGentype => {
                let (low, high) = function.int_range;
                Draw::integers(low.into(), high.into())
            }
            // `nan`'s codes: every fraction field.
            ValueKind::UintGentype => Draw::integers(0, (1i64 << element.fraction_bits()) - 1),
        }
    }

    /// Argument `index` (of `kind`) drawn in `range`; `None` where the range holds none of its
    /// values (a run refuses that before it starts).
    pub(crate) fn in_range(
        function: &Function,
        element: FloatType,
        kind: ValueKind,
        index: usize,
        range: InputRange,
    ) -> Option<Draw> {
        match kind {
            ValueKind::FloatGentype | ValueKind::FloatScalar => {
                let keys = range::keys(element, range)?;
                let max = element.max_finite();
                let (sample_low, sample_high) = function.sample_range(index);
                let inner = InputRange {
                    low: range.low.max(sample_low),
                    high: range.high.min(sample_high),
                };
                let log = [inner, range]
                    .into_iter()
                    .filter(|r| r.low <= r.high)
                    .find_map(|r| {
                        let finite = (r.low.max(-max), r.high.min(max));
                        (finite.0 <= finite.1)
                            .then(|| LogUniform::new(element, finite))
                            .flatten()
                    });
                Some(Draw::Ranged { keys, log })
            }
            ValueKind::IntGentype | ValueKind::UintGentype => {
                let (low, high) = range::integers(range, range::integer_bounds(element, kind))?;
                Some(Draw::integers(low, high))
            }
        }
    }

    fn integers(low: i64, high: i64) -> Draw {
        Draw::Integer {
            low,
            span: (high - low) as u64 + 1,
        }
    }

    /// The values of random inputs `indices` of `stream` appended to `column`. The format is
    /// chosen once, so each loop's [`FloatType::from_bits`] is a plain conversion. The loops
    /// run in the widest vectors this CPU has: SplitMix64's 64-bit multiplies are three 32-bit
    /// ones in any x86 vector unit below AVX-512, and AVX2's lanes cut the drawing's host
    /// samples 2.7-fold from the baseline's SSE2 (float fma, 2^24 inputs, every width: 358 to
    /// 131).
    pub(crate) fn extend(
        &self,
        element: FloatType,
        stream: Stream,
        indices: std::ops::Range<u64>,
        column: &mut Vec<f64>,
    ) {
        crate::num::wide::widest(
            #[inline(always)]
            || match element {
                FloatType::Half => {
                    self.extend_as::<false>(element, stream, indices, column, |bits| {
                        FloatType::Half.from_bits(bits)
                    })
                }
                FloatType::Float => {
                    self.extend_as::<false>(element, stream, indices, column, |bits| {
                        FloatType::Float.from_bits(bits)
                    })
                }
                FloatType::Double => {
                    self.extend_as::<true>(element, stream, indices, column, |bits| {
                        FloatType::Double.from_bits(bits)
                    })
                }
            },
        )
    }

    #[inline(always)]
    fn extend_as<const WIDE: bool>(
        &self,
        element: FloatType,
        stream: Stream,
        indices: std::ops::Range<u64>,
        column: &mut Vec<f64>,
        value: impl Fn(u64) -> f64,
    ) {
        // The draw's fields are copied out first: the loops then read no memory but the
        // column they write.
        match *self {
            Draw::Float { mask, log } => fill(column, indices, |index| {
                let (coin, word) = stream.words::<WIDE>(index);
                let logarithmic = log.draw::<WIDE>(coin, word);
                value(choose(
                    (coin >> 63).wrapping_neg(),
                    word & mask,
                    logarithmic,
                ))
            }),
            Draw::Ranged { keys, log } => {
                let count = keys.count();
                let uniform = move |word: u64| {
                    range::bits_of_key(element, keys.low + below::<WIDE>(word, count) as i64)
                };
                match log {
                    Some(log) => fill(column, indices, |index| {
                        let (coin, word) = stream.words::<WIDE>(index);
                        let logarithmic = log.draw::<WIDE>(coin, word);
                        value(choose(
                            (coin >> 63).wrapping_neg(),
                            uniform(word),
                            logarithmic,
                        ))
                    }),
                    None => fill(column, indices, |index| {
                        value(uniform(stream.words::<WIDE>(index).1))
                    }),
                }
            }
            Draw::Integer { low, span } => fill(column, indices, |index| {
                (low + below::<WIDE>(stream.words::<WIDE>(index).1, span) as i64) as f64
            }),
        }
    }
}

/// Appends `value_of(index)` for every index of `indices` to `column`, in a loop the caller's
/// vectors run whole: `Vec::extend` goes through iterator adapters the compiler does not
/// inline into [`crate::num::wide::widest`]'s copies, which then ran the baseline's SSE2.
#[inline(always)]
fn fill(column: &mut Vec<f64>, indices: std::ops::Range<u64>, value_of: impl Fn(u64) -> f64) {
    let count = usize::try_from(indices.end.saturating_sub(indices.start))
        .expect("a chunk's inputs fit in memory");
    column.reserve(count);
    let first = indices.start;
    for (k, slot) in column.spare_capacity_mut()[..count].iter_mut().enumerate() {
        slot.write(value_of(first + k as u64));
    }
    // SAFETY: the loop wrote the `count` values after the column's `len` (`reserve` made room).
    unsafe { column.set_len(column.len() + count) };
}
