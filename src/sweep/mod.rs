//! Inputs for one unit (function, type, width): special values first, then seeded random values.
//!
//! Deterministic: the same seed gives the same inputs on any machine, because each unit's
//! random stream is seeded from the run's seed and the unit's name through a fixed hash.

pub mod cases;
pub mod conversion;
pub mod extension;
pub mod random;
pub mod range;

pub use cases::{parse_case, parse_input_file, Cases};
pub use range::{InputRange, InputRanges};

use crate::num::fp::FloatType;
use crate::spec::registry::Function;
use crate::spec::signature::ValueKind;
use random::Draw;
use range::Keys;

/// The seed a run uses unless `--seed` says otherwise (printed in every summary).
pub const DEFAULT_SEED: u64 = 0x00c1_acc0;

/// A per-unit seed: FNV-1a over the run seed and the unit's name, stable across platforms.
pub fn unit_seed(run_seed: u64, function: &str, element: FloatType, width: u32) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let unit = format!("{run_seed}/{function}/{}/{width}", element.name());
    for byte in unit.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Values every function is tried on: zeros, subnormal and normal limits, infinities, NaN,
/// small integers and half-integers, multiples of π (trig), the overflow and underflow
/// thresholds of the exponential functions, and neighbours of 1 and of 2^(p-1) where rounding
/// functions change behaviour.
pub fn special_values(element: FloatType) -> Vec<f64> {
    let smallest_subnormal = element.from_bits(1);
    let largest_subnormal = element.from_bits((1u64 << element.fraction_bits()) - 1);
    let smallest_normal = 2f64.powi(element.emin());
    let max = element.max_finite();
    let precision = element.precision() as i32;
    let pi = std::f64::consts::PI;
    let mut magnitudes = vec![
        0.0,
        smallest_subnormal,
        largest_subnormal,
        smallest_normal,
        0.5,
        1.0,
        1.5,
        2.0,
        2.5,
        3.0,
        10.0,
        std::f64::consts::E,
        1.0 - 2f64.powi(-precision),
        1.0 + 2f64.powi(1 - precision),
        2f64.powi(precision - 1) - 0.5,
        2f64.powi(precision - 1) + 0.5,
        2f64.powi(precision),
        max,
        f64::INFINITY,
    ];
    // Multiples of π and π/2 (trig periods and zeros), small and large.
    for multiple in [0.25, 0.5, 1.0, 1.5, 2.0, 100.0, 1.0e4, 1.0e6] {
        magnitudes.push(multiple * pi);
    }
    // Where exp, exp2, exp10 overflow and underflow: ln, log2 and log10 of max and of the
    // smallest subnormal.
    for threshold in [
        max.ln(),
        max.log2(),
        max.log10(),
        smallest_subnormal.ln(),
        smallest_subnormal.log2(),
    ] {
        magnitudes.push(threshold.abs());
    }
    let mut values = Vec::with_capacity(2 * magnitudes.len() + 1);
    for magnitude in magnitudes {
        let value = element.round(magnitude);
        if values.iter().any(|v: &f64| v.to_bits() == value.to_bits()) {
            continue;
        }
        values.push(value);
        values.push(-value);
    }
    values.push(f64::NAN);
    values
}

/// The smaller set whose cross products two- and three-argument functions get: ±0, ±smallest
/// subnormal, ±smallest normal, ±0.5, ±1, ±2, ±3 (pairs only), ±max, ±inf, NaN.
fn special_values_for_products(element: FloatType, arguments: usize) -> Vec<f64> {
    let mut magnitudes = vec![
        0.0,
        element.from_bits(1),
        2f64.powi(element.emin()),
        1.0,
        2.0,
    ];
    if arguments == 2 {
        magnitudes.extend([0.5, 3.0, element.max_finite()]);
    }
    magnitudes.push(f64::INFINITY);
    let mut values: Vec<f64> = magnitudes.iter().flat_map(|m| [*m, -*m]).collect();
    values.push(f64::NAN);
    values
}

/// Integer arguments every function with one is tried on.
fn special_integers(range: (i32, i32)) -> Vec<f64> {
    let mut values: Vec<f64> = [0, 1, -1, 2, -2, 3, -3, range.0, range.1, i32::MAX, i32::MIN]
        .iter()
        .map(|n| f64::from(*n))
        .collect();
    values.dedup();
    values
}

/// `nan`'s argument: codes as wide as the element (payloads; only their NaN-ness is judged).
fn special_codes(element: FloatType) -> Vec<f64> {
    let fraction_mask = (1u64 << element.fraction_bits()) - 1;
    [0, 1, 2, fraction_mask >> 1, fraction_mask]
        .iter()
        .map(|c| *c as f64)
        .collect()
}

/// The whole of a sweep's columns at once (small sweeps and tests; runs stream an
/// [`InputPlan`] chunk by chunk instead).
pub fn generate(
    function: &Function,
    element: FloatType,
    kinds: &[ValueKind],
    count: usize,
    width: u32,
    seed: u64,
) -> Vec<Vec<f64>> {
    let plan = InputPlan::sweep(function, element, kinds, count, width, seed);
    plan.columns(0, plan.total())
}

/// `count` empty columns with room for `capacity` values each. (`vec![Vec::with_capacity(..);
/// count]` would not do: it clones the first, and a clone has no spare room, so all but one
/// column grew by doubling, copying and faulting in their memory again and again.)
pub fn empty_columns(count: usize, capacity: usize) -> Vec<Vec<f64>> {
    (0..count).map(|_| Vec::with_capacity(capacity)).collect()
}

/// How a unit's inputs are enumerated.
#[derive(Clone, Debug)]
enum Source {
    /// Special values (all combinations) first, then seeded random values; with `--range`,
    /// only the specials in it and values drawn in it (one draw per argument).
    Sweep {
        specials: Vec<Vec<f64>>,
        seed: u64,
        /// How each argument's random values are drawn (none where a `--range` holds no
        /// value of an argument: then the sweep has no inputs).
        draws: Vec<Draw>,
    },
    /// Every value of the format for one argument (input i is the encoding i), or every pair
    /// for two half arguments (input i is (i mod 2^16, i / 2^16)).
    Exhaustive,
    /// Every value of the format in each argument's `--range`: input i is the value at key
    /// `low + i` for one argument, (`low + i mod n`, `low' + i / n`) for two (n values in the
    /// first range).
    ExhaustiveInRanges(Vec<Keys>),
    /// Cases given by the user.
    Explicit(Cases),
}

/// The inputs of one unit, generated chunk by chunk on demand: memory stays bounded whatever
/// the sweep's size, and the same index always gives the same input on any machine.
#[derive(Clone, Debug)]
pub struct InputPlan {
    element: FloatType,
    kinds: Vec<ValueKind>,
    source: Source,
    /// Inputs that are judged.
    judged: u64,
    /// `judged` rounded up to whole vectors (the padding repeats the last input).
    total: u64,
}

/// Whether every input of the unit can be enumerated: every half for one half argument, every
/// pair of halves for two, every float for one float argument.
pub fn exhaustive_count(element: FloatType, kinds: &[ValueKind]) -> Option<u64> {
    let all_float = kinds.iter().all(|k| *k == ValueKind::FloatGentype);
    match (element, kinds.len()) {
        _ if !all_float => None,
        (FloatType::Half, 1) => Some(1 << 16),
        (FloatType::Half, 2) => Some(1 << 32),
        (FloatType::Float, 1) => Some(1 << 32),
        _ => None,
    }
}

impl InputPlan {
    /// Specials then random values, at least `count` in all.
    pub fn sweep(
        function: &Function,
        element: FloatType,
        kinds: &[ValueKind],
        count: usize,
        width: u32,
        seed: u64,
    ) -> InputPlan {
        InputPlan::sweep_in(function, element, kinds, count, width, seed, None)
    }

    /// Specials then random values, at least `count` in all, each argument's in its range of
    /// `ranges` where given (none at all where a range holds none of the argument's values).
    pub fn sweep_in(
        function: &Function,
        element: FloatType,
        kinds: &[ValueKind],
        count: usize,
        width: u32,
        seed: u64,
        ranges: Option<&InputRanges>,
    ) -> InputPlan {
        let specials = special_columns(function, element, kinds, ranges);
        let draws: Option<Vec<Draw>> = kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| match ranges {
                None => Some(Draw::new(function, element, *kind, index)),
                Some(ranges) => Draw::in_range(function, element, *kind, index, ranges.of(index)),
            })
            .collect();
        let judged = match draws {
            None => 0,
            Some(_) => (count.max(specials[0].len())) as u64,
        };
        InputPlan::new(
            element,
            kinds,
            Source::Sweep {
                specials,
                seed,
                draws: draws.unwrap_or_default(),
            },
            judged,
            width,
        )
    }

    /// Every input, when [`exhaustive_count`] allows it.
    pub fn exhaustive(element: FloatType, kinds: &[ValueKind], width: u32) -> Option<InputPlan> {
        InputPlan::exhaustive_in(element, kinds, width, None)
    }

    /// Every input in `ranges` (every input where none), when [`exhaustive_count`] allows it and
    /// every range holds a value of the type.
    pub fn exhaustive_in(
        element: FloatType,
        kinds: &[ValueKind],
        width: u32,
        ranges: Option<&InputRanges>,
    ) -> Option<InputPlan> {
        let count = exhaustive_count(element, kinds)?;
        let (source, count) = match ranges {
            None => (Source::Exhaustive, count),
            Some(ranges) => {
                let keys: Vec<Keys> = (0..kinds.len())
                    .map(|index| range::keys(element, ranges.of(index)))
                    .collect::<Option<_>>()?;
                let count = keys.iter().map(Keys::count).product();
                (Source::ExhaustiveInRanges(keys), count)
            }
        };
        Some(InputPlan::new(element, kinds, source, count, width))
    }

    /// The user's cases.
    pub fn explicit(
        element: FloatType,
        kinds: &[ValueKind],
        cases: Cases,
        width: u32,
    ) -> InputPlan {
        let judged = cases.len() as u64;
        InputPlan::new(element, kinds, Source::Explicit(cases), judged, width)
    }

    fn new(
        element: FloatType,
        kinds: &[ValueKind],
        source: Source,
        judged: u64,
        width: u32,
    ) -> InputPlan {
        let width = u64::from(width.max(1));
        InputPlan {
            element,
            kinds: kinds.to_vec(),
            source,
            judged,
            total: judged.div_ceil(width) * width,
        }
    }

    /// Inputs judged (the padding of the last vector excluded).
    pub fn judged(&self) -> u64 {
        self.judged
    }

    /// Inputs sent to the device (whole vectors).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Where the plan lists every encoding of its format in order (an exhaustive sweep with no
    /// `--range`), what the device is sent for them, written from the inputs' indices
    /// ([`Encodings::write`]) instead of from their columns.
    pub fn encodings(&self) -> Option<Encodings> {
        match (&self.source, self.element) {
            (Source::Exhaustive, FloatType::Float | FloatType::Half) => {
                Some(Encodings::new(self.element, self.kinds.len(), self.judged))
            }
            _ => None,
        }
    }

    /// Whether the inputs are drawn at random (past the special values), not listed.
    #[cfg(test)]
    pub(crate) fn draws_random(&self) -> bool {
        matches!(self.source, Source::Sweep { .. })
    }

    /// Columns (one per argument) for inputs `start .. start + length` (clipped to the total).
    pub fn columns(&self, start: u64, length: u64) -> Vec<Vec<f64>> {
        let end = (start + length).min(self.total);
        let mut columns = empty_columns(self.kinds.len(), end.saturating_sub(start) as usize);
        self.append_columns(start, length, &mut columns);
        columns
    }

    /// [`InputPlan::columns`] appended to `columns` (one per argument), which may hold other
    /// inputs before them.
    pub fn append_columns(&self, start: u64, length: u64, columns: &mut [Vec<f64>]) {
        let end = (start + length).min(self.total);
        let judged_end = end.min(self.judged);
        let before = columns[0].len();
        self.push_judged(start..judged_end, columns);
        // The padding to whole vectors repeats the last judged input.
        let padding = end.saturating_sub(start.max(judged_end));
        if padding > 0 {
            let last: Vec<f64> = if columns[0].len() > before {
                columns
                    .iter()
                    .map(|column| column[column.len() - 1])
                    .collect()
            } else {
                let last = self.judged.saturating_sub(1);
                let mut last_input = vec![Vec::new(); self.kinds.len()];
                self.push_judged(last..last + 1, &mut last_input);
                last_input.into_iter().map(|column| column[0]).collect()
            };
            for (column, value) in columns.iter_mut().zip(last) {
                column.extend(std::iter::repeat_n(value, padding as usize));
            }
        }
    }

    /// Appends judged inputs `range` (every index below `judged`) to `columns`.
    fn push_judged(&self, range: std::ops::Range<u64>, columns: &mut [Vec<f64>]) {
        match &self.source {
            Source::Explicit(cases) => {
                for index in range {
                    let case = cases.case(index as usize);
                    for ((column, kind), value) in columns.iter_mut().zip(&self.kinds).zip(case) {
                        column.push(cases::explicit_value(self.element, *kind, *value));
                    }
                }
            }
            Source::ExhaustiveInRanges(keys) => {
                let value = |key: i64| range::value_of_key(self.element, key);
                match (&mut *columns, keys.as_slice()) {
                    ([x], [only]) => x.extend(range.map(|index| value(only.low + index as i64))),
                    ([x, y], [first, second]) => {
                        let n = first.count();
                        for index in range {
                            x.push(value(first.low + (index % n) as i64));
                            y.push(value(second.low + (index / n) as i64));
                        }
                    }
                    _ => unreachable!("exhaustive sweeps take one or two arguments"),
                }
            }
            Source::Exhaustive => match columns {
                [x] => push_encodings(x, self.element, range),
                [x, y] => {
                    push_encodings(x, self.element, range.clone().map(|index| index & 0xffff));
                    push_encodings(y, self.element, range.map(|index| index >> 16));
                }
                _ => unreachable!("exhaustive sweeps take one or two arguments"),
            },
            Source::Sweep {
                specials,
                seed,
                draws,
            } => {
                let special_count = specials[0].len() as u64;
                let special_end = range.end.min(special_count);
                for (column, values) in columns.iter_mut().zip(specials) {
                    if range.start < special_end {
                        column
                            .extend_from_slice(&values[range.start as usize..special_end as usize]);
                    }
                }
                let random = range.start.max(special_count) - special_count
                    ..range.end.max(special_count) - special_count;
                self.push_random(*seed, draws, random, columns);
            }
        }
    }

    /// Appends the random inputs of offsets `offsets` (counted from the first random input):
    /// each argument's column filled by one loop over the offsets.
    fn push_random(
        &self,
        seed: u64,
        draws: &[Draw],
        offsets: std::ops::Range<u64>,
        columns: &mut [Vec<f64>],
    ) {
        if offsets.is_empty() {
            return;
        }
        for (argument, (column, draw)) in columns.iter_mut().zip(draws).enumerate() {
            draw.extend(
                self.element,
                random::Stream::new(seed, argument),
                offsets.clone(),
                column,
            );
        }
    }
}

/// The values of `encodings` appended to `column`. Exhaustive sweeps generate every input
/// here, so the format is chosen once: each arm's [`FloatType::from_bits`] is inlined with its
/// format known, a plain conversion the compiler vectorizes (with the format matched at every
/// input it was the largest part of an exhaustive float sweep's `--device-only` time), in the
/// widest vectors (each judging slice of an exhaustive sweep makes its columns here).
fn push_encodings(column: &mut Vec<f64>, element: FloatType, encodings: impl Iterator<Item = u64>) {
    crate::num::wide::widest(
        #[inline(always)]
        || match element {
            FloatType::Half => {
                column.extend(encodings.map(|bits| FloatType::Half.from_bits(bits)));
            }
            FloatType::Float => {
                column.extend(encodings.map(|bits| FloatType::Float.from_bits(bits)));
            }
            FloatType::Double => {
                column.extend(encodings.map(|bits| FloatType::Double.from_bits(bits)));
            }
        },
    );
}

/// What the device is sent for a plan of every encoding of a float or half format in order
/// ([`InputPlan::encodings`]): the encodings themselves, as the plan's columns would send them
/// (each value narrowed back to its format), written straight into the device's buffer from
/// the inputs' indices. Through the columns, every input was widened to `f64` on the input
/// thread and narrowed back on the device's: the two conversions were a quarter of an
/// exhaustive float sweep's host samples outside the judge (shard 0/16: 200 and 145 of 1350).
#[derive(Clone, Debug)]
pub struct Encodings {
    element: FloatType,
    /// One argument (input `i` is encoding `i`) or two (input `i` is `(i mod 2^16, i / 2^16)`).
    arguments: usize,
    judged: u64,
    /// Half: the encoding sent for each of the 2^16 (the value widened and narrowed back, as
    /// the columns send it: their NaNs are the conversions' own, so this is taken from them, not
    /// reasoned about); empty for float.
    half_sent: Vec<u16>,
}

impl Encodings {
    fn new(element: FloatType, arguments: usize, judged: u64) -> Encodings {
        let half_sent = match element {
            FloatType::Half => (0..=u16::MAX)
                .map(|bits| {
                    let value = FloatType::Half.from_bits(u64::from(bits));
                    FloatType::Half.to_bits(value) as u16
                })
                .collect(),
            _ => Vec::new(),
        };
        Encodings {
            element,
            arguments,
            judged,
            half_sent,
        }
    }

    /// Bytes per argument value (the format's).
    pub fn value_bytes(&self) -> usize {
        self.element.bytes()
    }

    /// Writes argument `argument`'s encodings of the inputs `indices` into `out`, little-endian,
    /// [`Encodings::value_bytes`] each, as the plan's columns would be sent: an index past the
    /// judged inputs (the padding to whole vectors) repeats the last judged input's.
    pub fn write(&self, argument: usize, indices: std::ops::Range<u64>, out: &mut [u8]) {
        let last = self.judged.saturating_sub(1);
        let clamp = move |index: u64| index.min(last);
        match (self.element, self.arguments, argument) {
            (FloatType::Float, 1, 0) => put_widest(out, indices.map(clamp), |index| {
                sent_float_bits(index as u32).to_le_bytes()
            }),
            (FloatType::Half, 1, 0) => put_widest(out, indices.map(clamp), |index| {
                self.half_sent[index as usize].to_le_bytes()
            }),
            (FloatType::Half, 2, 0) => put_widest(out, indices.map(clamp), |index| {
                self.half_sent[(index & 0xffff) as usize].to_le_bytes()
            }),
            (FloatType::Half, 2, 1) => put_widest(out, indices.map(clamp), |index| {
                self.half_sent[(index >> 16) as usize].to_le_bytes()
            }),
            _ => unreachable!("exhaustive sweeps take one float or one or two half arguments"),
        }
    }
}

/// The float encoding a column sends for encoding `bits`: the value widened to `f64` and
/// narrowed back, which is the encoding itself except for a signalling NaN, which widening
/// quiets (x86's `cvtss2sd`, like Arm's `fcvt`, sets the quiet bit and keeps the payload,
/// which narrowing keeps). Written out, not as the two conversions: the compiler may fold a
/// narrowing of a widening into nothing. The tests compare it with the two conversions
/// through memory, as the columns make them, on every NaN encoding.
#[inline(always)]
fn sent_float_bits(bits: u32) -> u32 {
    const QUIET: u32 = 0x0040_0000;
    if bits & 0x7fff_ffff > 0x7f80_0000 {
        bits | QUIET
    } else {
        bits
    }
}

/// Each index's `N` bytes into `out`, one after the other, in the widest vectors (`N` a
/// constant, so each is a store).
#[inline(always)]
fn put_widest<const N: usize>(
    out: &mut [u8],
    indices: impl Iterator<Item = u64>,
    bytes_of: impl Fn(u64) -> [u8; N],
) {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            for (slot, index) in out.chunks_exact_mut(N).zip(indices) {
                slot.copy_from_slice(&bytes_of(index));
            }
        },
    );
}

/// Every combination of the arguments' special values (those in each argument's range of
/// `ranges`, where given), as columns.
fn special_columns(
    function: &Function,
    element: FloatType,
    kinds: &[ValueKind],
    ranges: Option<&InputRanges>,
) -> Vec<Vec<f64>> {
    let float_arguments = kinds
        .iter()
        .filter(|k| **k == ValueKind::FloatGentype)
        .count();
    let specials: Vec<Vec<f64>> = kinds
        .iter()
        .map(|kind| match kind {
            ValueKind::FloatGentype if float_arguments == 1 => special_values(element),
            ValueKind::FloatGentype | ValueKind::FloatScalar => {
                special_values_for_products(element, float_arguments)
            }
            ValueKind::IntGentype => special_integers(function.int_range),
            ValueKind::UintGentype => special_codes(element),
        })
        .enumerate()
        .map(|(index, values): (usize, Vec<f64>)| match ranges {
            None => values,
            Some(ranges) => values
                .into_iter()
                .filter(|value| ranges.of(index).contains(*value))
                .collect(),
        })
        .collect();
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); kinds.len()];
    let combinations: usize = specials.iter().map(Vec::len).product();
    for mut index in 0..combinations {
        for (column, values) in columns.iter_mut().zip(&specials) {
            column.push(values[index % values.len()]);
            index /= values.len();
        }
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::registry;

    #[test]
    fn specials_hold_the_format_limits_with_both_signs() {
        let values = special_values(FloatType::Float);
        let has = |x: f64| values.iter().any(|v| v.to_bits() == x.to_bits());
        assert!(has(0.0) && has(-0.0));
        assert!(has(f64::from(f32::from_bits(1))));
        assert!(has(f64::from(f32::MIN_POSITIVE)) && has(-f64::from(f32::MAX)));
        assert!(has(f64::INFINITY) && has(f64::NEG_INFINITY));
        assert!(values.iter().any(|v| v.is_nan()));
        // Every special is a value of the format.
        for element in FloatType::ALL {
            for value in special_values(element) {
                assert!(value.is_nan() || element.round(value) == value);
            }
        }
    }

    #[test]
    fn generation_is_deterministic_and_sized() {
        let sin = registry::find("sin").unwrap();
        let seed = unit_seed(DEFAULT_SEED, "sin", FloatType::Float, 4);
        let first = generate(
            sin,
            FloatType::Float,
            &[ValueKind::FloatGentype],
            1001,
            4,
            seed,
        );
        let again = generate(
            sin,
            FloatType::Float,
            &[ValueKind::FloatGentype],
            1001,
            4,
            seed,
        );
        assert_eq!(first[0].len(), 1004);
        let bits = |c: &Vec<f64>| c.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&first[0]), bits(&again[0]));
        let other = generate(
            sin,
            FloatType::Float,
            &[ValueKind::FloatGentype],
            1001,
            4,
            seed + 1,
        );
        assert_ne!(bits(&first[0]), bits(&other[0]));
        for value in &first[0] {
            assert!(value.is_nan() || FloatType::Float.round(*value) == *value);
        }
    }

    #[test]
    fn binary_specials_cover_every_pair() {
        let pow = registry::find("pow").unwrap();
        let float = ValueKind::FloatGentype;
        let columns = generate(pow, FloatType::Float, &[float, float], 10, 1, 7);
        assert_eq!(columns.len(), 2);
        assert_eq!(columns[0].len(), 19 * 19);
        let zero_inf = columns[0]
            .iter()
            .zip(&columns[1])
            .any(|(x, y)| *x == 0.0 && *y == f64::NEG_INFINITY);
        assert!(zero_inf);
    }

    #[test]
    fn integer_arguments_come_from_the_function_range() {
        let ldexp = registry::find("ldexp").unwrap();
        let kinds = [ValueKind::FloatGentype, ValueKind::IntGentype];
        let columns = generate(ldexp, FloatType::Float, &kinds, 5000, 1, 3);
        let (low, high) = ldexp.int_range;
        let specials = special_integers(ldexp.int_range);
        for k in &columns[1] {
            assert_eq!(k.fract(), 0.0);
            assert!((f64::from(low)..=f64::from(high)).contains(k) || specials.contains(k));
        }
        assert!(columns[1].contains(&f64::from(i32::MIN)));
    }

    /// Where a random value lies: NaN, infinity, zero or subnormal, then normal magnitudes
    /// below 2^-64, 2^-8, 1, 2^8, 2^64 and above; the last count is the negative values.
    fn magnitude_classes(column: &[f64], element: FloatType) -> [f64; 10] {
        let mut counts = [0usize; 10];
        for x in column {
            let a = x.abs();
            let class = if x.is_nan() {
                0
            } else if a.is_infinite() {
                1
            } else if a < 2f64.powi(element.emin()) {
                2
            } else {
                3 + [-64, -8, 0, 8, 64]
                    .iter()
                    .take_while(|e| a >= 2f64.powi(**e))
                    .count()
            };
            counts[class] += 1;
            counts[9] += usize::from(x.is_sign_negative());
        }
        counts.map(|c| c as f64 / column.len() as f64)
    }

    #[test]
    fn random_values_keep_generation_1s_distribution() {
        // Generation 1's fractions per class (ChaCha8, 400000 inputs, run seed 1), measured
        // before it was replaced. Its zeros and subnormals are one class here: for double it
        // gave 0 where it meant a subnormal (0.0236 of exp's inputs), which generation 2 draws.
        let float = ValueKind::FloatGentype;
        // (function, type, arguments, the argument measured, generation 1's fractions)
        type Case<'a> = (&'a str, FloatType, &'a [ValueKind], usize, [f64; 10]);
        let cases: [Case; 8] = [
            (
                "sin",
                FloatType::Float,
                &[float],
                0,
                [
                    0.0019, 0.0, 0.0756, 0.3194, 0.2901, 0.0416, 0.0368, 0.1092, 0.1255, 0.4999,
                ],
            ),
            (
                "exp",
                FloatType::Double,
                &[float],
                0,
                [
                    0.0003, 0.0, 0.0243, 0.6776, 0.0398, 0.0056, 0.0048, 0.0136, 0.2339, 0.4988,
                ],
            ),
            (
                "log",
                FloatType::Half,
                &[float],
                0,
                [
                    0.0155, 0.0, 0.1494, 0.0, 0.1737, 0.2331, 0.2342, 0.1940, 0.0, 0.2501,
                ],
            ),
            (
                "pow",
                FloatType::Float,
                &[float, float],
                0,
                [
                    0.0019, 0.0, 0.0763, 0.3202, 0.2888, 0.0420, 0.0366, 0.1089, 0.1251, 0.2493,
                ],
            ),
            (
                "pow",
                FloatType::Float,
                &[float, float],
                1,
                [
                    0.0020, 0.0, 0.0763, 0.3224, 0.2922, 0.0422, 0.0300, 0.1093, 0.1256, 0.5010,
                ],
            ),
            (
                "ldexp",
                FloatType::Float,
                &[float, ValueKind::IntGentype],
                0,
                [
                    0.0021, 0.0, 0.0726, 0.3121, 0.2819, 0.0405, 0.0404, 0.1253, 0.1251, 0.5015,
                ],
            ),
            (
                "ldexp",
                FloatType::Float,
                &[float, ValueKind::IntGentype],
                1,
                [0.0, 0.0, 0.0017, 0.0, 0.0, 0.0, 0.8484, 0.1499, 0.0, 0.4990],
            ),
            (
                "acos",
                FloatType::Float,
                &[float],
                0,
                [
                    0.0019, 0.0, 0.0790, 0.3300, 0.2968, 0.0425, 0.0157, 0.1089, 0.1253, 0.4985,
                ],
            ),
        ];
        for (name, element, kinds, argument, expected) in cases {
            let function = registry::find(name).unwrap();
            let seed = unit_seed(1, name, element, 1);
            let plan = InputPlan::sweep(function, element, kinds, 400_000, 1, seed);
            let skip = special_columns(function, element, kinds, None)[0].len() as u64;
            let random = &plan.columns(skip, plan.total())[argument];
            let fractions = magnitude_classes(random, element);
            for (class, (now, then)) in fractions.iter().zip(expected).enumerate() {
                // Each fraction's sampling error is below 0.0008 a side.
                assert!(
                    (now - then).abs() < 0.005,
                    "{name} {element} argument {argument} class {class}: {now:.4}, generation 1 {then:.4}\n{fractions:.4?}"
                );
            }
        }
    }

    #[test]
    fn random_values_spread_over_the_exponents_of_the_interval() {
        let sin = registry::find("sin").unwrap();
        let plan = InputPlan::sweep(
            sin,
            FloatType::Float,
            &[ValueKind::FloatGentype],
            4000,
            1,
            5,
        );
        let values: Vec<f64> = plan.columns(0, 4000)[0]
            .iter()
            .copied()
            .filter(|v| v.is_finite() && (-100.0..=100.0).contains(v))
            .collect();
        // Log-uniform: values below 1e-30 are common, which a uniform draw would never give.
        assert!(values.iter().filter(|v| v.abs() < 1.0e-30).count() > 200);
        assert!(values.iter().filter(|v| v.abs() > 10.0).count() > 20);
        // Every binade of the interval is drawn, the subnormal ones and the top one too.
        let smallest = values
            .iter()
            .filter(|v| **v != 0.0)
            .fold(f64::INFINITY, |low, v| low.min(v.abs()));
        assert!(smallest < 2f64.powi(-140), "{smallest:e}");
        assert!(values.iter().any(|v| v.abs() >= 64.0));
    }

    #[test]
    fn log_uniform_positions_round_trip_and_stay_in_the_interval() {
        for element in FloatType::ALL {
            let fraction = element.fraction_bits();
            // Every encoding of the smallest binades and around the normal boundary.
            for encoding in (1..3000).chain((1 << fraction) - 100..(1 << fraction) + 100) {
                let at = random::position(encoding, fraction);
                assert_eq!(random::encoding(at, fraction), encoding, "{element}");
            }
            for (low, high) in [(0.3, 0.31), (-1.0e-3, 5.0), (-50.0, 0.0), (1.0, 1.0)] {
                let log = random::LogUniform::new(element, (low, high)).unwrap();
                for word in (0..20000u64).map(|n| n.wrapping_mul(0x9e37_79b9_7f4a_7c15)) {
                    let value = element.from_bits(log.draw::<true>(word, word));
                    assert!(
                        (low..=high).contains(&value),
                        "{element} {value:e} in {low}..{high}"
                    );
                }
            }
            assert!(random::LogUniform::new(element, (0.0, 0.0)).is_none());
        }
    }

    #[test]
    fn input_files_hold_hex_cases_with_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cases.txt");
        std::fs::write(
            &path,
            "# worst cases\n0x1.8p+1, -0x1p-149\n\n  0x0p+0,inf # zero\n",
        )
        .unwrap();
        let cases = parse_input_file(&path).unwrap();
        assert_eq!(cases.arity(), 2);
        assert_eq!(
            cases.values(),
            [3.0, -(2f64.powi(-149)), 0.0, f64::INFINITY]
        );
        std::fs::write(&path, "0x1p+0\n0x1p+0, 2\n").unwrap();
        assert!(parse_input_file(&path)
            .unwrap_err()
            .contains(":2: 2 arguments"));
        std::fs::write(&path, "0x1q+0\n").unwrap();
        assert!(parse_input_file(&path)
            .unwrap_err()
            .contains(":1: `0x1q+0` is not a number"));
        let kinds = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let plan = InputPlan::explicit(FloatType::Float, &kinds, cases, 4);
        assert_eq!((plan.judged(), plan.total()), (2, 4));
        assert_eq!(plan.columns(0, 4)[0], vec![3.0, 0.0, 0.0, 0.0]);
        assert!(!plan.draws_random());
    }

    #[test]
    fn any_chunk_of_a_plan_is_the_same_as_in_the_whole() {
        let pow = registry::find("pow").unwrap();
        let kinds = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let plan = InputPlan::sweep(pow, FloatType::Float, &kinds, 20000, 4, 99);
        assert!(plan.draws_random());
        let whole = plan.columns(0, plan.total());
        for (start, length) in [(0, 100), (350, 5000), (4096 + 361 - 3, 9), (19990, 100)] {
            let part = plan.columns(start, length);
            let end = (start + length).min(plan.total()) as usize;
            for (column, whole_column) in part.iter().zip(&whole) {
                let expected = &whole_column[start as usize..end];
                assert!(column
                    .iter()
                    .zip(expected)
                    .all(|(a, b)| a.to_bits() == b.to_bits()));
            }
        }
        // Windows appended one after another (a batch of chunks), the padded end among them,
        // are those windows.
        let bits = |columns: &[Vec<f64>]| -> Vec<Vec<u64>> {
            columns
                .iter()
                .map(|column| column.iter().map(|value| value.to_bits()).collect())
                .collect()
        };
        let windows = [(4096, 700), (0, 50), (19_950, 100), (350, 5000)];
        let mut appended = vec![Vec::new(); kinds.len()];
        let mut expected = vec![Vec::new(); kinds.len()];
        for (start, length) in windows {
            plan.append_columns(start, length, &mut appended);
            for (column, part) in expected.iter_mut().zip(plan.columns(start, length)) {
                column.extend(part);
            }
        }
        assert_eq!(bits(&appended), bits(&expected));
        // A window of padding alone, after other inputs, repeats the last judged input.
        let padded = [3, 8, 16]
            .into_iter()
            .map(|width| InputPlan::sweep(pow, FloatType::Float, &kinds, 10, width, 99))
            .find(|plan| plan.total() > plan.judged())
            .expect("a width that pads");
        let (judged, padding) = (padded.judged(), padded.total() - padded.judged());
        let mut columns = vec![vec![7.0], vec![7.0]];
        padded.append_columns(judged, padding, &mut columns);
        let last = padded.columns(judged - 1, 1);
        for (column, last) in columns.iter().zip(&last) {
            let mut expected = vec![7.0];
            expected.extend(std::iter::repeat_n(last[0], padding as usize));
            assert_eq!(bits(std::slice::from_ref(column)), bits(&[expected]));
        }
    }

    #[test]
    fn exhaustive_plans_enumerate_every_encoding() {
        let one = [ValueKind::FloatGentype];
        let plan = InputPlan::exhaustive(FloatType::Half, &one, 1).unwrap();
        assert_eq!(plan.judged(), 65536);
        assert!(!plan.draws_random());
        let all = plan.columns(0, plan.total());
        let mut bits: Vec<u64> = all[0].iter().map(|x| FloatType::Half.to_bits(*x)).collect();
        bits.sort_unstable();
        bits.dedup();
        // NaN encodings collapse to one value each sign when widened; every other one is there.
        assert!(bits.len() > 65536 - 2 * 1024);
        let float = InputPlan::exhaustive(FloatType::Float, &one, 1).unwrap();
        assert_eq!(float.judged(), 1 << 32);
        assert_eq!(float.columns(0x3f80_0000, 1)[0], vec![1.0]);
        let pair = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let pairs = InputPlan::exhaustive(FloatType::Half, &pair, 1).unwrap();
        assert_eq!(pairs.columns(0x3c00_4000, 1), vec![vec![2.0], vec![1.0]]);
        assert!(InputPlan::exhaustive(FloatType::Float, &pair, 1).is_none());
        assert!(InputPlan::exhaustive(FloatType::Double, &one, 1).is_none());
    }

    /// What [`Encodings::write`] writes is what the plan's columns send, each value narrowed
    /// to its format (as the device's buffers take columns), byte for byte: every NaN
    /// encoding of float (the signalling ones quieted by the columns' widening), its zeros,
    /// subnormals, infinities and a spread of the rest, the padding of a plan whose width
    /// does not divide it; every half, and pairs of halves across the quiet and signalling
    /// NaNs. Plans with ranges or drawn inputs have none.
    #[test]
    fn encodings_are_what_the_columns_send() {
        let sent_by_columns = |plan: &InputPlan, element: FloatType, start: u64, length: u64| {
            let size = element.bytes();
            plan.columns(start, length)
                .iter()
                .map(|column| {
                    column
                        .iter()
                        .flat_map(|value| element.to_bits(*value).to_le_bytes()[..size].to_vec())
                        .collect::<Vec<u8>>()
                })
                .collect::<Vec<_>>()
        };
        let written = |encodings: &Encodings, arguments: usize, start: u64, length: u64| {
            (0..arguments)
                .map(|argument| {
                    let mut bytes = vec![0xa5; length as usize * encodings.value_bytes()];
                    encodings.write(argument, start..start + length, &mut bytes);
                    bytes
                })
                .collect::<Vec<_>>()
        };
        let one = [ValueKind::FloatGentype];
        let float = InputPlan::exhaustive(FloatType::Float, &one, 1).unwrap();
        let encodings = float.encodings().unwrap();
        let mut windows: Vec<(u64, u64)> = vec![(0, 1 << 16), (0x8000_0000 - 5, 10)];
        // Each infinity and every NaN of its sign (2^23 - 1 encodings).
        for sign in [0, 0x8000_0000u64] {
            let infinity = sign + 0x7f80_0000;
            windows.extend(
                (0..1 << 23)
                    .step_by(1 << 20)
                    .map(|at| (infinity + at, 1 << 20)),
            );
        }
        windows.extend(
            (0..1u64 << 32)
                .step_by(1 << 26)
                .map(|at| (at + 12345, 4096)),
        );
        for (start, length) in windows {
            assert!(
                written(&encodings, 1, start, length)
                    == sent_by_columns(&float, FloatType::Float, start, length),
                "float inputs {start:#x} + {length}"
            );
        }
        // Width 3 pads 2^32 to whole vectors with the last input.
        let padded = InputPlan::exhaustive(FloatType::Float, &one, 3).unwrap();
        let (judged, total) = (padded.judged(), padded.total());
        assert!(total > judged);
        assert_eq!(
            written(
                &padded.encodings().unwrap(),
                1,
                judged - 3,
                total - judged + 3
            ),
            sent_by_columns(&padded, FloatType::Float, judged - 3, total - judged + 3)
        );
        let half = InputPlan::exhaustive(FloatType::Half, &one, 1).unwrap();
        assert_eq!(
            written(&half.encodings().unwrap(), 1, 0, 1 << 16),
            sent_by_columns(&half, FloatType::Half, 0, 1 << 16)
        );
        let pair = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let pairs = InputPlan::exhaustive(FloatType::Half, &pair, 1).unwrap();
        for start in [0, 0x7c00_7c00 - 100, 0x7e00_fc00, 0xffff_0000 - 3] {
            assert_eq!(
                written(
                    &pairs.encodings().unwrap(),
                    2,
                    start,
                    70000.min((1 << 32) - start)
                ),
                sent_by_columns(&pairs, FloatType::Half, start, 70000),
                "half pairs from {start:#x}"
            );
        }
        let ranges = InputRanges::parse("0:1").unwrap();
        let ranged = InputPlan::exhaustive_in(FloatType::Float, &one, 1, Some(&ranges));
        assert!(ranged.unwrap().encodings().is_none());
        let sin = registry::find("sin").unwrap();
        let drawn = InputPlan::sweep(sin, FloatType::Float, &one, 100, 1, 7);
        assert!(drawn.encodings().is_none());
    }

    #[test]
    fn ranged_sweeps_draw_and_list_only_inputs_in_the_range() {
        let ldexp = registry::find("ldexp").unwrap();
        let kinds = [ValueKind::FloatGentype, ValueKind::IntGentype];
        let ranges = InputRanges::parse("-0x1p-10:0x1p+3,-5:5").unwrap();
        let plan =
            InputPlan::sweep_in(ldexp, FloatType::Float, &kinds, 20000, 4, 11, Some(&ranges));
        assert!(plan.draws_random());
        let whole = plan.columns(0, plan.total());
        let (x, k) = (&whole[0], &whole[1]);
        assert!(x.iter().all(|v| (-2f64.powi(-10)..=8.0).contains(v)));
        assert!(x.iter().all(|v| FloatType::Float.round(*v) == *v));
        assert!(k
            .iter()
            .all(|v| (-5.0..=5.0).contains(v) && v.fract() == 0.0));
        // The specials in the range lead (1, 3, ...), the others are left out (10, NaN, infinity).
        assert!(x.contains(&1.0) && x.contains(&3.0) && !x.contains(&10.0));
        // Spread over the range: small magnitudes, negatives, and values near the top.
        assert!(x.iter().filter(|v| v.abs() < 1.0e-20).count() > 100);
        assert!(x.iter().filter(|v| **v < 0.0).count() > 100);
        assert!(x.iter().filter(|v| **v > 4.0).count() > 20);
        // Any chunk is the same drawn alone (shards and resumed runs draw chunks alone).
        for (start, length) in [(0, 10), (4000, 5000), (19_990, 100)] {
            assert_same_bits(&plan.columns(start, length), &whole, start, "ranged chunk");
        }
        // The same plan without a range is the plain sweep, bit for bit.
        let plain = InputPlan::sweep(ldexp, FloatType::Float, &kinds, 20000, 4, 11);
        let unranged = InputPlan::sweep_in(ldexp, FloatType::Float, &kinds, 20000, 4, 11, None);
        assert_eq!(
            fingerprint(&plain.columns(0, plain.total())),
            fingerprint(&unranged.columns(0, unranged.total()))
        );
        // A range of infinities only draws them.
        let sin = registry::find("sin").unwrap();
        let infinite = InputRanges::parse("inf:inf").unwrap();
        let plan = InputPlan::sweep_in(
            sin,
            FloatType::Half,
            &kinds[..1],
            100,
            1,
            3,
            Some(&infinite),
        );
        assert!(plan.columns(0, 100)[0].iter().all(|v| *v == f64::INFINITY));
        // A range holding no value of the type gives no input (a run refuses it first).
        let empty = InputRanges::parse("0x1.0001p+0:0x1.0002p+0").unwrap();
        let plan = InputPlan::sweep_in(sin, FloatType::Half, &kinds[..1], 100, 1, 3, Some(&empty));
        assert_eq!(plan.judged(), 0);
    }

    #[test]
    fn ranged_exhaustive_plans_list_every_value_in_the_range() {
        let one = [ValueKind::FloatGentype];
        let unit = InputRanges::parse("0:1").unwrap();
        let plan = InputPlan::exhaustive_in(FloatType::Half, &one, 4, Some(&unit)).unwrap();
        // Both zeros, every positive subnormal and normal half up to 1.
        assert_eq!(plan.judged(), 0x3c00 + 2);
        let values = &plan.columns(0, plan.judged())[0];
        assert_eq!(values[0].to_bits(), (-0.0f64).to_bits());
        assert_eq!(values[values.len() - 1], 1.0);
        assert!(values
            .windows(2)
            .all(|pair| pair[0] <= pair[1] && pair[0].to_bits() != pair[1].to_bits()));
        // Two half arguments: every pair of the two ranges, the first argument fastest.
        let pair = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let ranges = InputRanges::parse("1:2,-1:-0x1.ffcp-1").unwrap();
        let plan = InputPlan::exhaustive_in(FloatType::Half, &pair, 1, Some(&ranges)).unwrap();
        assert_eq!(plan.judged(), 1025 * 2);
        assert_eq!(
            plan.columns(1025, 1),
            vec![vec![1.0], vec![-(1.0 - 2f64.powi(-11))]]
        );
        // Float keeps to one argument; a range without a value of the type has no plan.
        let float = InputPlan::exhaustive_in(FloatType::Float, &one, 1, Some(&unit)).unwrap();
        assert_eq!(float.judged(), 0x3f80_0000 + 2);
        let empty = InputRanges::parse("0x1.0001p+0:0x1.0002p+0").unwrap();
        assert!(InputPlan::exhaustive_in(FloatType::Half, &one, 1, Some(&empty)).is_none());
    }

    #[test]
    fn explicit_nans_keep_their_payload_in_the_columns() {
        let one = [ValueKind::FloatGentype];
        let cases = Cases::flat(
            1,
            vec![crate::num::hexfloat::parse("-nan(0x1)").unwrap(), f64::NAN],
        );
        let plan = InputPlan::explicit(FloatType::Float, &one, cases, 1);
        let column = &plan.columns(0, 2)[0];
        let bits: Vec<u64> = column
            .iter()
            .map(|v| crate::num::hexfloat::element_bits(FloatType::Float, *v))
            .collect();
        assert_eq!(bits, [0xff80_0001, 0x7fc0_0000]);
    }

    #[test]
    fn unit_seeds_differ_per_unit() {
        let a = unit_seed(1, "sin", FloatType::Float, 1);
        assert_ne!(a, unit_seed(1, "cos", FloatType::Float, 1));
        assert_ne!(a, unit_seed(1, "sin", FloatType::Half, 1));
        assert_ne!(a, unit_seed(1, "sin", FloatType::Float, 2));
        assert_ne!(a, unit_seed(2, "sin", FloatType::Float, 1));
    }

    /// FNV-1a over the bytes of every value's bit pattern, column after column.
    fn fingerprint(columns: &[Vec<f64>]) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for value in columns.iter().flatten() {
            for byte in value.to_bits().to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }

    fn assert_same_bits(part: &[Vec<f64>], whole: &[Vec<f64>], start: u64, what: &str) {
        assert_eq!(part.len(), whole.len(), "{what}");
        for (column, whole_column) in part.iter().zip(whole) {
            let expected = &whole_column[start as usize..start as usize + column.len()];
            let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(column), bits(expected), "{what}");
        }
    }

    /// Every seed must keep giving the inputs it gave when these fingerprints were taken (the
    /// inputs are the evidence a vendor reproduces; generation 2's, taken when it replaced
    /// generation 1): one-, two- and three-argument functions, int and uint arguments,
    /// one-sided sample ranges, every type, 2^18 inputs each, and windows of any length that
    /// straddle the specials and the padding.
    #[test]
    fn sweep_inputs_are_those_pinned_bit_for_bit() {
        const PINNED: &[(&str, [u64; 3])] = &[
            (
                "sin",
                [0x417265373bae027d, 0x64240c0ca3fbf1ea, 0x7bb6f283a1c7bd33],
            ),
            (
                "log",
                [0xeba345348e3699de, 0x6428f55adc147a6e, 0x60cbb33b0ef61c49],
            ),
            (
                "pow",
                [0xfcb0ee184c817199, 0x87ba02aed02c8777, 0x7f63cd22b4803568],
            ),
            (
                "atan2",
                [0x81366cfab7fbfdef, 0x89c494d5937b0cc7, 0x9f356d479dc66d57],
            ),
            (
                "fma",
                [0x7972ce0d78aa865b, 0x89cdc5244b8a0cd7, 0x5b4421cb019f1b39],
            ),
            (
                "fclamp",
                [0xf26814eeac70db90, 0x60c3a92c25bb9811, 0x4fcf916f520221cf],
            ),
            (
                "ldexp",
                [0x8bf7a763ab88eb53, 0xced57d8b35545b31, 0x0a9744a4125cafab],
            ),
            (
                "pown",
                [0x3e09af9f3a6238b7, 0xcead786a955a4e6c, 0xe1e9dd389b34c1f1],
            ),
            (
                "rootn",
                [0x0febbdf2389b35a1, 0x664384baafcc9cda, 0x9c25ad56844445d4],
            ),
            (
                "nan",
                [0x547e1b5c5e681d4a, 0x3ad77127d51fc2e6, 0xc6af4df2ed36552d],
            ),
            (
                "remquo",
                [0x5864c617c5e52e8c, 0xe25eb0153196b77f, 0x476d6cad387f8a65],
            ),
            (
                "frexp",
                [0x845d3d75b0df20b6, 0x62750312945756fe, 0x97d7bb11b594a379],
            ),
            (
                "sincos",
                [0x6777fd3523a6e9ce, 0xa2ce2bea1f3a4c0b, 0x7b98c07f2593be5c],
            ),
            (
                "length",
                [0x30c3bc190ecfec63, 0x5f36dd2135378723, 0xd83d7feef385cdc9],
            ),
        ];
        let names = [
            "sin", "log", "pow", "atan2", "fma", "fclamp", "ldexp", "pown", "rootn", "nan",
            "remquo", "frexp", "sincos", "length",
        ];
        let mut actual = Vec::new();
        for name in names {
            let function = registry::find(name).unwrap();
            let kinds = function.shape.signature().arguments;
            let mut hashes = [0; 3];
            for (element, hash) in FloatType::ALL.into_iter().zip(&mut hashes) {
                let width = 16;
                let seed = unit_seed(DEFAULT_SEED, name, element, width);
                let plan = InputPlan::sweep(function, element, kinds, (1 << 18) + 5, width, seed);
                let whole = plan.columns(0, plan.total());
                assert_eq!(whole[0].len() as u64, plan.total());
                *hash = fingerprint(&whole);
                let specials = special_columns(function, element, kinds, None)[0].len() as u64;
                let windows = [
                    (0, 1),
                    (specials - 1, 2),
                    (specials, 4096),
                    (specials + 4095, 4098),
                    (specials + 3 * 4096 - 7, 20000),
                    (1000, 65536),
                    (plan.total() - 40, 100),
                    (plan.total() - 3, 3),
                    (2, 5),
                ];
                for (start, length) in windows {
                    let part = plan.columns(start, length);
                    let what = format!("{name} {} {start}+{length}", element.name());
                    assert_same_bits(&part, &whole, start, &what);
                }
                // Consecutive chunks, as runs and shards draw them, of any length.
                for chunk in [65536, 5000, 777] {
                    for start in (0..plan.total()).step_by(chunk) {
                        let part = plan.columns(start, chunk as u64);
                        let what = format!("{name} {} chunk {start}+{chunk}", element.name());
                        assert_same_bits(&part, &whole, start, &what);
                    }
                }
            }
            actual.push((name, hashes));
        }
        let table: String = actual
            .iter()
            .map(|(name, [h, f, d])| format!("(\"{name}\", [{h:#018x}, {f:#018x}, {d:#018x}]),\n"))
            .collect();
        let pinned: Vec<(&str, [u64; 3])> = PINNED.to_vec();
        assert_eq!(actual, pinned, "fingerprints now:\n{table}");
    }

    /// Exhaustive and explicit plans, pinned the same way: encodings in order, user cases
    /// rounded to the element (floats) or truncated (integers), the last repeated as padding.
    #[test]
    fn exhaustive_and_explicit_inputs_are_those_pinned() {
        let one = [ValueKind::FloatGentype];
        let pair = [ValueKind::FloatGentype, ValueKind::FloatGentype];
        let half = InputPlan::exhaustive(FloatType::Half, &one, 1).unwrap();
        let float = InputPlan::exhaustive(FloatType::Float, &one, 8).unwrap();
        let pairs = InputPlan::exhaustive(FloatType::Half, &pair, 4).unwrap();
        let cases = Cases::flat(
            2,
            (0..1000)
                .flat_map(|i| {
                    [
                        f64::from(i) * 0.123_456_789 - 61.0,
                        f64::from(i) * 0.7 - 350.2,
                    ]
                })
                .collect(),
        );
        let kinds = [ValueKind::FloatGentype, ValueKind::IntGentype];
        let explicit = InputPlan::explicit(FloatType::Half, &kinds, cases, 3);
        let actual = [
            fingerprint(&half.columns(0, half.total())),
            fingerprint(&float.columns(0x7f7f_0000, 1 << 17)),
            fingerprint(&float.columns((1 << 32) - 9, 100)),
            fingerprint(&pairs.columns(0x3c00_0000 - 7, 70000)),
            fingerprint(&explicit.columns(0, explicit.total())),
            fingerprint(&explicit.columns(998, 10)),
        ];
        let pinned: [u64; 6] = [
            0x848769a3ea63c745,
            0x0d5bb5ecfd54dcdd,
            0x3503fd7899bfddd0,
            0x5adc039d65e2c6c2,
            0xc5154df9db8b9eba,
            0x27b3fcbce5884535,
        ];
        assert_eq!(actual, pinned, "fingerprints now: {actual:#018x?}");
    }
}
