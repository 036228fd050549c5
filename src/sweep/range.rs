//! `--range LO:HI`: the random and exhaustive sweeps restricted to inputs in [LO, HI], one range
//! for every argument or one per argument.
//!
//! A value lies in a range when LO <= value <= HI compares true: NaN never does, and -0 and +0
//! both lie in any range that holds 0. A type's values in a range are a run of consecutive
//! *keys*: the encodings ordered as their values are ([`key`]).

use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::spec::signature::ValueKind;

/// One argument's range: `low <= value <= high`, neither NaN.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct InputRange {
    pub low: f64,
    pub high: f64,
}

impl InputRange {
    /// Whether `value` lies in the range (never a NaN).
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// `--range`: one range for every argument, or one per argument.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct InputRanges(Vec<InputRange>);

/// Why `--range` does not fit a unit.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum RangeError {
    #[error("--range gives {given} ranges and {function} takes {takes} argument{}: give one range for every argument, or one per argument", if *takes == 1 { "" } else { "s" })]
    Arity {
        function: String,
        given: usize,
        takes: usize,
    },
    #[error("--range {range} holds no {element} value for argument {argument} of {function}")]
    NoFloat {
        range: String,
        element: FloatType,
        argument: usize,
        function: String,
    },
    #[error("--range {range} holds no integer for argument {argument} of {function}, which takes integers from {low} to {high}")]
    NoInteger {
        range: String,
        argument: usize,
        function: String,
        low: i64,
        high: i64,
    },
}

impl InputRanges {
    /// `LO:HI` or `LO:HI,LO:HI,…`, each bound a C99 hex float or a decimal (infinities too).
    pub fn parse(text: &str) -> Result<InputRanges, String> {
        let ranges = text
            .split(',')
            .map(|part| {
                let shape = || {
                    format!(
                        "`{}` is not a range: write LO:HI with C99 hex floats or decimals, e.g. 0x1p-10:0x1p+10 or -1:1 (one per argument, comma-separated)",
                        super::cases::quote(part.trim())
                    )
                };
                let (low, high) = part.split_once(':').ok_or_else(shape)?;
                let low = hexfloat::parse(low).ok_or_else(shape)?;
                let high = hexfloat::parse(high).ok_or_else(shape)?;
                if low.is_nan() || high.is_nan() {
                    return Err(format!(
                        "`{}`: a range's bounds are numbers, not NaN",
                        super::cases::quote(part.trim())
                    ));
                }
                if low > high {
                    return Err(format!(
                        "`{}`: LO is above HI; write the lower bound first",
                        super::cases::quote(part.trim())
                    ));
                }
                Ok(InputRange { low, high })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(InputRanges(ranges))
    }

    /// The canonical text, for the `options` column: each bound in C99 hex.
    pub fn text(&self) -> String {
        self.0
            .iter()
            .map(|r| {
                format!(
                    "{}:{}",
                    hexfloat::format_f64(r.low),
                    hexfloat::format_f64(r.high)
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// How many ranges were given.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The range of argument `index` (the one range, if one was given for all).
    pub fn of(&self, index: usize) -> InputRange {
        self.0[if self.0.len() == 1 { 0 } else { index }]
    }

    /// Why these ranges do not fit `function`'s arguments of `kinds` in `element` (a count
    /// other than 1 or the arity, or an argument whose range holds none of its values), or
    /// `Ok`.
    pub fn check(
        &self,
        function: &str,
        element: FloatType,
        kinds: &[ValueKind],
    ) -> Result<(), RangeError> {
        if self.0.len() != 1 && self.0.len() != kinds.len() {
            return Err(RangeError::Arity {
                function: function.to_string(),
                given: self.0.len(),
                takes: kinds.len(),
            });
        }
        for (index, kind) in kinds.iter().enumerate() {
            let range = self.of(index);
            let text = || InputRanges(vec![range]).text();
            match kind {
                ValueKind::FloatGentype | ValueKind::FloatScalar => {
                    if keys(element, range).is_none() {
                        return Err(RangeError::NoFloat {
                            range: text(),
                            element,
                            argument: index + 1,
                            function: function.to_string(),
                        });
                    }
                }
                ValueKind::IntGentype | ValueKind::UintGentype => {
                    let (low, high) = integer_bounds(element, *kind);
                    if integers(range, (low, high)).is_none() {
                        return Err(RangeError::NoInteger {
                            range: text(),
                            argument: index + 1,
                            function: function.to_string(),
                            low,
                            high,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The type's values in a range: keys `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Keys {
    pub low: i64,
    pub high: i64,
}

impl Keys {
    /// How many values.
    pub fn count(&self) -> u64 {
        (self.high - self.low) as u64 + 1
    }
}

/// The position of an encoding of `element` in the order of the values: +0 is 0, the positive
/// encodings count up from it, -0 is -1 and the negative ones count down (NaNs lie past the
/// infinities, outside every range).
pub(crate) fn key(element: FloatType, bits: u64) -> i64 {
    let sign = 1u64 << (element.bits() - 1);
    let magnitude = (bits & (sign - 1)) as i64;
    if bits & sign == 0 {
        magnitude
    } else {
        -magnitude - 1
    }
}

/// The encoding at `key` (see [`key`]).
pub(crate) fn bits_of_key(element: FloatType, key: i64) -> u64 {
    if key >= 0 {
        key as u64
    } else {
        (1u64 << (element.bits() - 1)) | (-(key + 1)) as u64
    }
}

/// The value at `key`, widened.
pub(crate) fn value_of_key(element: FloatType, key: i64) -> f64 {
    element.from_bits(bits_of_key(element, key))
}

/// The values of `element` in `range`, or `None` where it holds none.
pub(crate) fn keys(element: FloatType, range: InputRange) -> Option<Keys> {
    let key_of = |value: f64| key(element, element.to_bits(element.round(value)));
    let mut low = key_of(range.low);
    if value_of_key(element, low) < range.low {
        low += 1;
    }
    let mut high = key_of(range.high);
    if value_of_key(element, high) > range.high {
        high -= 1;
    }
    // Both zeros lie in a range that holds one of them.
    if value_of_key(element, low) == 0.0 {
        low = low.min(-1);
    }
    if value_of_key(element, high) == 0.0 {
        high = high.max(0);
    }
    (low <= high).then_some(Keys { low, high })
}

/// The integers an argument of `kind` takes: `int`, or an unsigned code as wide as the element
/// (its fraction bits, as the sweep draws them).
pub(crate) fn integer_bounds(element: FloatType, kind: ValueKind) -> (i64, i64) {
    match kind {
        ValueKind::UintGentype => (0, (1i64 << element.fraction_bits()) - 1),
        _ => (i32::MIN.into(), i32::MAX.into()),
    }
}

/// The integers of `bounds` in `range`, or `None` where it holds none.
pub(crate) fn integers(range: InputRange, (low, high): (i64, i64)) -> Option<(i64, i64)> {
    let from = range.low.ceil().max(low as f64) as i64;
    let to = range.high.floor().min(high as f64) as i64;
    (from <= to).then_some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_one_or_one_per_argument_and_refuse_bad_ones() {
        let ranges = InputRanges::parse("0x1p-10:0x1p10,-1:1").unwrap();
        assert_eq!(ranges.len(), 2);
        assert_eq!(
            ranges.of(1),
            InputRange {
                low: -1.0,
                high: 1.0
            }
        );
        assert_eq!(ranges.text(), "0x1p-10:0x1p+10,-0x1p+0:0x1p+0");
        let one = InputRanges::parse("-inf:0").unwrap();
        assert_eq!(one.of(2), one.of(0));
        for (bad, wanted) in [
            ("1:0", "LO is above HI"),
            ("nan:1", "not NaN"),
            ("1", "is not a range"),
            ("0:1,", "`` is not a range"),
            ("0:x", "is not a range"),
        ] {
            let error = InputRanges::parse(bad).unwrap_err();
            assert!(error.contains(wanted), "{bad}: {error}");
        }
    }

    #[test]
    fn keys_follow_the_order_of_the_values() {
        for element in FloatType::ALL {
            let keys: Vec<i64> = [
                -f64::INFINITY,
                -1.0,
                -0.0,
                0.0,
                1.0e-300,
                1.0,
                f64::INFINITY,
            ]
            .iter()
            .map(|v| key(element, element.to_bits(element.round(*v))))
            .collect();
            assert!(keys.windows(2).all(|pair| pair[0] <= pair[1]), "{keys:?}");
            for k in keys {
                assert_eq!(key(element, bits_of_key(element, k)), k);
            }
        }
        let half = FloatType::Half;
        // Every half in [0, 1]: both zeros, then 0x0001 ..= 0x3c00.
        let unit = keys(
            half,
            InputRange {
                low: 0.0,
                high: 1.0,
            },
        )
        .unwrap();
        assert_eq!(unit.count(), 0x3c00 + 2);
        assert_eq!(value_of_key(half, unit.low).to_bits(), (-0.0f64).to_bits());
        // Bounds between values round inward; a range between two values holds none.
        let inner = keys(
            half,
            InputRange {
                low: 1.0001,
                high: 1.9999,
            },
        )
        .unwrap();
        assert_eq!(value_of_key(half, inner.low), 1.0 + 2f64.powi(-10));
        assert_eq!(value_of_key(half, inner.high), 2.0 - 2f64.powi(-10));
        assert_eq!(
            keys(
                half,
                InputRange {
                    low: 1.0001,
                    high: 1.0002
                }
            ),
            None
        );
        assert_eq!(
            keys(
                half,
                InputRange {
                    low: 1.0e300,
                    high: 1.0e301
                }
            ),
            None
        );
        let all = keys(
            half,
            InputRange {
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            },
        )
        .unwrap();
        // Every encoding but the NaNs.
        assert_eq!(all.count(), 65536 - 2 * 1023);
    }

    #[test]
    fn ranges_are_checked_against_each_function_and_type() {
        let float = [ValueKind::FloatGentype];
        let pair = [ValueKind::FloatGentype, ValueKind::IntGentype];
        let two = InputRanges::parse("0:1,-3:3").unwrap();
        assert_eq!(
            two.check("sin", FloatType::Float, &float).unwrap_err().to_string(),
            "--range gives 2 ranges and sin takes 1 argument: give one range for every argument, or one per argument"
        );
        assert_eq!(two.check("ldexp", FloatType::Float, &pair), Ok(()));
        let narrow = InputRanges::parse("0x1.0001p+0:0x1.0002p+0").unwrap();
        assert!(narrow.check("sin", FloatType::Float, &float).is_ok());
        assert_eq!(
            narrow
                .check("sin", FloatType::Half, &float)
                .unwrap_err()
                .to_string(),
            "--range 0x1.0001p+0:0x1.0002p+0 holds no half value for argument 1 of sin"
        );
        assert!(narrow
            .check("ldexp", FloatType::Float, &pair)
            .unwrap_err()
            .to_string()
            .contains("holds no integer for argument 2 of ldexp"));
    }
}
