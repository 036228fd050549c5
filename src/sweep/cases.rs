//! Cases given by the user (`--input`, `--input-file`): read line by line, held flat, and
//! checked against the type each argument takes.

use crate::num::convert::IntType;
use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::spec::conversion::Conversion;
use crate::spec::registry::Function;
use crate::spec::signature::ValueKind;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// The most numbers (arguments of all cases together) an `--input-file` may hold: 2^24
/// one-argument cases, 2^23 two-argument ones. They are held in memory, 8 bytes each (128
/// MiB), and sent to each worker process.
pub const MAX_VALUES: usize = 1 << 24;

/// The longest line of an `--input-file`, in bytes: a case is a few numbers, and a longer line
/// is refused before it is read whole.
pub const MAX_LINE: usize = 4096;

/// How many characters of a bad line or field an error quotes.
const QUOTED: usize = 80;

/// The user's cases, flat: case `i` is `values[i * arity .. (i + 1) * arity]`. Shared, not
/// copied, by the units that run them.
#[derive(Clone, Debug)]
pub struct Cases {
    arity: usize,
    values: Arc<Vec<f64>>,
}

impl Cases {
    /// The cases `--input` gives, one a flag, in order (`texts` holds at least one); every
    /// one must have as many arguments as the first.
    pub fn given(texts: &[String]) -> Result<Cases, String> {
        let mut arity = 0;
        let mut values = Vec::new();
        for (number, text) in texts.iter().enumerate() {
            let case = parse_case(text).map_err(|e| format!("--input: {e}"))?;
            if number == 0 {
                arity = case.len();
            } else if case.len() != arity {
                return Err(format!(
                    "--input `{}` has {} argument{} where the first --input has {arity}: each --input is one case of the function's arguments",
                    quote(text),
                    case.len(),
                    if case.len() == 1 { "" } else { "s" }
                ));
            }
            values.extend(case);
        }
        Ok(Cases::flat(arity, values))
    }

    /// Cases of `arity` arguments each, one after the other in `values`.
    pub fn flat(arity: usize, values: Vec<f64>) -> Cases {
        assert!(
            arity > 0 && values.len().is_multiple_of(arity),
            "whole cases of at least one argument"
        );
        Cases {
            arity,
            values: Arc::new(values),
        }
    }

    /// The number of cases.
    pub fn len(&self) -> usize {
        self.values.len() / self.arity
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Arguments per case.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// Case `index`'s arguments.
    pub fn case(&self, index: usize) -> &[f64] {
        &self.values[index * self.arity..(index + 1) * self.arity]
    }

    /// Every case's arguments, in order.
    pub fn iter(&self) -> std::slice::ChunksExact<'_, f64> {
        self.values.chunks_exact(self.arity)
    }

    /// Every argument of every case, case after case (what the `options` column hashes).
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

/// The same cases bit for bit (NaN payloads and the sign of zero included).
impl PartialEq for Cases {
    fn eq(&self, other: &Cases) -> bool {
        self.arity == other.arity
            && self.values.len() == other.values.len()
            && self
                .values
                .iter()
                .zip(other.values.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl serde::Serialize for Cases {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.arity, self.values.as_slice()).serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Cases {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Cases, D::Error> {
        let (arity, values): (usize, Vec<f64>) = serde::Deserialize::deserialize(deserializer)?;
        if arity == 0 || !values.len().is_multiple_of(arity) {
            return Err(serde::de::Error::custom(
                "cases of no argument or a partial case",
            ));
        }
        Ok(Cases::flat(arity, values))
    }
}

/// `text` for an error line: its first 80 characters, then `…` if there were more (a 1 GiB line
/// must not go to the terminal).
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// One case: its arguments as C99 hex floats (or decimals), comma-separated.
pub fn parse_case(text: &str) -> Result<Vec<f64>, String> {
    text.split(',')
        .map(|field| {
            hexfloat::parse(field).ok_or_else(|| {
                format!(
                    "`{}` is not a number; write C99 hex floats like 0x1.8p+1 (nan(0x1) for a NaN with that payload), comma-separated",
                    quote(field.trim())
                )
            })
        })
        .collect()
}

/// Cases read from a file: one per line, each argument a C99 hex float (or decimal), several
/// arguments separated by commas; `#` starts a comment; a UTF-8 byte order mark at the start is
/// skipped. The format CORE-MATH uses for worst cases. Read a line at a time: at most
/// [`MAX_VALUES`] numbers, each line at most [`MAX_LINE`] bytes.
pub fn parse_input_file(path: &Path) -> Result<Cases, String> {
    let mut values = Vec::new();
    let mut arity = None;
    each_case_line(path, |number, content| {
        let at = |message: String| format!("{}:{number}: {message}", path.display());
        let case = parse_case(content).map_err(at)?;
        match arity {
            None => arity = Some(case.len()),
            Some(first) if first != case.len() => {
                return Err(at(format!(
                    "{} arguments where the first case has {first}",
                    case.len()
                )));
            }
            Some(_) => {}
        }
        if values.len() + case.len() > MAX_VALUES {
            return Err(format!(
                "--input-file {} holds more than {MAX_VALUES} numbers (2^24, the most clacc holds in memory: 2^24 one-argument cases, 2^23 two-argument ones); split it and run each part with a --csv of its own",
                path.display()
            ));
        }
        values.extend(case);
        Ok(true)
    })?;
    match arity {
        None => Err(format!("--input-file {} holds no case", path.display())),
        Some(arity) => {
            values.shrink_to_fit();
            Ok(Cases::flat(arity, values))
        }
    }
}

/// The line of `path` that holds case `index` (counted from 0), as [`parse_input_file`] read
/// it: for an error about a case found after reading.
pub fn line_of_case(path: &Path, index: usize) -> Option<usize> {
    let mut seen = 0;
    let mut line = None;
    each_case_line(path, |number, _| {
        seen += 1;
        if seen > index {
            line = Some(number);
        }
        Ok(line.is_none())
    })
    .ok()?;
    line
}

/// Calls `visit` with the number and the content (comment and blanks cut) of each line of
/// `path` that holds a case, while it answers `Ok(true)`: one line at a time, none longer
/// than [`MAX_LINE`] read, a byte order mark at the start skipped.
fn each_case_line(
    path: &Path,
    mut visit: impl FnMut(usize, &str) -> Result<bool, String>,
) -> Result<(), String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read --input-file {}: {e}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    for number in 1.. {
        let at = |message: String| format!("{}:{number}: {message}", path.display());
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read --input-file {}: {e}", path.display()))?;
        if read == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        } else if line.len() > MAX_LINE {
            return Err(at(format!(
                "a line longer than {MAX_LINE} bytes (`{}`); a case is a few numbers",
                quote(&String::from_utf8_lossy(&line))
            )));
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let text = std::str::from_utf8(&line).map_err(|_| {
            at(format!(
                "not UTF-8 text (`{}`)",
                quote(&String::from_utf8_lossy(&line))
            ))
        })?;
        let text = if number == 1 {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        };
        let content = text.split('#').next().unwrap_or("").trim();
        if !content.is_empty() && !visit(number, content)? {
            break;
        }
    }
    Ok(())
}

/// A case's argument that is not a value of the type the argument takes.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum NotInType {
    #[error("{value} is not a {element} value (the nearest {element} is {nearest})")]
    Inexact {
        value: String,
        element: FloatType,
        nearest: String,
    },
    #[error("{value} is not a {element} NaN: a {element} NaN's payload (its trailing significand) is 0x1 to {largest:#x}")]
    NanPayload {
        value: String,
        element: FloatType,
        largest: u64,
    },
    #[error("{value} is not an integer from {low} to {high}, as this argument takes")]
    Integer {
        value: String,
        low: i128,
        high: i128,
    },
}

/// The parsed value as the user wrote it (a NaN in its parsed form, see
/// [`hexfloat::parse`]).
fn written(value: f64) -> String {
    if !value.is_nan() {
        return hexfloat::format_f64(value);
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    match value.to_bits() & ((1 << 52) - 1) {
        plain if plain == 1 << 51 => format!("{sign}nan"),
        trailing => format!("{sign}nan({trailing:#x})"),
    }
}

/// Whether `value` (parsed from a case) is a value of `element` exactly: a NaN whose payload
/// fits the type, or a number the type holds without rounding.
pub fn check_float(element: FloatType, value: f64) -> Result<(), NotInType> {
    if value.is_nan() {
        return match hexfloat::typed_nan(element, value) {
            Some(_) => Ok(()),
            None => Err(NotInType::NanPayload {
                value: written(value),
                element,
                largest: (1 << element.fraction_bits()) - 1,
            }),
        };
    }
    let nearest = element.round(value);
    if nearest.to_bits() == value.to_bits() {
        Ok(())
    } else {
        Err(NotInType::Inexact {
            value: written(value),
            element,
            nearest: hexfloat::format_f64(nearest),
        })
    }
}

/// Whether `value` is an integer from `low` to `high`.
pub fn check_integer(value: f64, low: i128, high: i128) -> Result<(), NotInType> {
    if value.fract() == 0.0 && (low as f64..=high as f64).contains(&value) {
        Ok(())
    } else {
        Err(NotInType::Integer {
            value: written(value),
            low,
            high,
        })
    }
}

/// Whether `value` is a value of an argument of `kind` for `element` (an `int`, or an unsigned
/// code as wide as the element).
pub fn check_value(element: FloatType, kind: ValueKind, value: f64) -> Result<(), NotInType> {
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar => check_float(element, value),
        ValueKind::IntGentype => check_integer(value, i32::MIN.into(), i32::MAX.into()),
        ValueKind::UintGentype => check_integer(value, 0, (1i128 << element.bits()) - 1),
    }
}

/// What one argument of the cases must be for a unit they reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wanted {
    /// A value of an argument of `kind` in `element` ([`check_value`]).
    Value {
        argument: usize,
        element: FloatType,
        kind: ValueKind,
    },
    /// A value of a conversion's integer source type.
    Integer { argument: usize, int: IntType },
}

/// What the arguments of cases of `arity` must be for the units they reach: the arguments of
/// each table function of that arity (`functions`; another arity is that unit's own error) and,
/// with `edge_only`, of the edge-only functions (all float), in each of `types`; the source of
/// each conversion unit of `unit_names` (its first argument). Extension units take their
/// sources as they are.
pub fn wanted_values(
    arity: usize,
    types: &[FloatType],
    functions: &[&Function],
    edge_only: bool,
    unit_names: &[String],
) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    let mut want = |item: Wanted| {
        if !wanted.contains(&item) {
            wanted.push(item);
        }
    };
    for element in types {
        let float_arguments = edge_only.then_some(vec![ValueKind::FloatGentype; arity]);
        let function_arguments = functions
            .iter()
            .map(|function| function.shape.signature().arguments.to_vec())
            .filter(|kinds| kinds.len() == arity);
        for kinds in float_arguments.into_iter().chain(function_arguments) {
            for (argument, kind) in kinds.into_iter().enumerate() {
                let kind = match kind {
                    ValueKind::FloatScalar => ValueKind::FloatGentype,
                    other => other,
                };
                want(Wanted::Value {
                    argument,
                    element: *element,
                    kind,
                });
            }
        }
    }
    for conversion in Conversion::all() {
        if !unit_names.contains(&conversion.name()) {
            continue;
        }
        want(match conversion {
            Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
                Wanted::Value {
                    argument: 0,
                    element: from,
                    kind: ValueKind::FloatGentype,
                }
            }
            Conversion::IntToFloat { from, .. } => Wanted::Integer {
                argument: 0,
                int: from,
            },
        });
    }
    wanted
}

/// The first case (its index), argument and reason where an argument is not what `wanted`
/// says, case after case.
pub fn check_cases(cases: &Cases, wanted: &[Wanted]) -> Result<(), (usize, usize, NotInType)> {
    for (index, case) in cases.iter().enumerate() {
        for want in wanted {
            let (argument, checked) = match *want {
                Wanted::Value {
                    argument,
                    element,
                    kind,
                } => (argument, check_value(element, kind, case[argument])),
                Wanted::Integer { argument, int } => (
                    argument,
                    check_integer(case[argument], int.min(), int.max()),
                ),
            };
            checked.map_err(|error| (index, argument, error))?;
        }
    }
    Ok(())
}

/// The value an argument of `kind` gets from a case's `value`: a float as it is (rounded to
/// the type where it is not one of its values, which a run refuses before it starts), a NaN as
/// [`hexfloat::typed_nan`] makes it, an integer truncated.
pub fn explicit_value(element: FloatType, kind: ValueKind, value: f64) -> f64 {
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar if value.is_nan() => {
            hexfloat::typed_nan(element, value)
                .or_else(|| hexfloat::typed_nan(element, f64::NAN.copysign(value)))
                .expect("the default NaN fits every type")
        }
        ValueKind::FloatGentype | ValueKind::FloatScalar => element.round(value),
        ValueKind::IntGentype | ValueKind::UintGentype => value.trunc(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &tempfile::TempDir, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.path().join("cases.txt");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn cases_are_held_flat_and_round_trip_through_the_worker_frames() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, b"0x1p+0, nan(0x1)\r\n-0x0p+0,2 # c\n");
        let cases = parse_input_file(&path).unwrap();
        assert_eq!((cases.len(), cases.arity()), (2, 2));
        assert_eq!(cases.case(1)[1], 2.0);
        assert_eq!(cases.values().len(), 4);
        assert_eq!(cases.iter().count(), 2);
        let bytes = postcard::to_stdvec(&cases).unwrap();
        let back: Cases = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, cases);
        assert_eq!(back.case(0)[1].to_bits(), 0x7ff0_0000_0000_0001);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_long_lines_are_quoted_short() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(&dir, "\u{feff}0x1p+0\n".as_bytes());
        assert_eq!(parse_input_file(&path).unwrap().values(), &[1.0]);
        // A bad field is quoted without the mark, and cut to 80 characters.
        let path = write(&dir, "\u{feff}banana\n".as_bytes());
        let error = parse_input_file(&path).unwrap_err();
        assert!(error.contains(":1: `banana` is not a number"), "{error}");
        let long = format!("0x1p+0\n{}\n", "7".repeat(1000) + "q");
        let error = parse_input_file(&write(&dir, long.as_bytes())).unwrap_err();
        assert!(
            error.contains(&format!(":2: `{}…`", "7".repeat(80))),
            "{error}"
        );
        assert!(error.len() < 300, "{error}");
        // A line past MAX_LINE is refused before it is read whole.
        let huge = "1".repeat(MAX_LINE * 4);
        let error = parse_input_file(&write(&dir, huge.as_bytes())).unwrap_err();
        assert!(
            error.contains(":1: a line longer than 4096 bytes"),
            "{error}"
        );
        assert!(error.len() < 300, "{error}");
        // A line of exactly MAX_LINE bytes (without its newline) is read.
        let padded = format!("1{}\n", " ".repeat(MAX_LINE - 1));
        assert_eq!(
            parse_input_file(&write(&dir, padded.as_bytes()))
                .unwrap()
                .len(),
            1
        );
        let error = parse_input_file(&write(&dir, b"0x1p+0\n\xff\n")).unwrap_err();
        assert!(error.contains(":2: not UTF-8 text"), "{error}");
    }

    #[test]
    fn a_file_of_more_than_the_limit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = "1,2\n".repeat(MAX_VALUES / 2);
        let path = write(&dir, text.as_bytes());
        assert_eq!(parse_input_file(&path).unwrap().len(), MAX_VALUES / 2);
        text.push_str("# a comment is no case\n3,4\n");
        let error = parse_input_file(&write(&dir, text.as_bytes())).unwrap_err();
        assert!(
            error.contains("holds more than 16777216 numbers (2^24"),
            "{error}"
        );
    }

    #[test]
    fn values_of_another_type_are_named_with_the_nearest_value() {
        let float = FloatType::Float;
        let refusal = |text: &str| check_float(float, hexfloat::parse(text).unwrap());
        assert_eq!(
            refusal("0x1p+200").unwrap_err().to_string(),
            "0x1p+200 is not a float value (the nearest float is inf)"
        );
        assert_eq!(
            refusal("0x1.000000001p+0").unwrap_err().to_string(),
            "0x1.000000001p+0 is not a float value (the nearest float is 0x1p+0)"
        );
        assert_eq!(
            refusal("-0x1p-160").unwrap_err().to_string(),
            "-0x1p-160 is not a float value (the nearest float is -0x0p+0)"
        );
        assert_eq!(
            refusal("nan(0x800000)").unwrap_err().to_string(),
            "nan(0x800000) is not a float NaN: a float NaN's payload (its trailing significand) is 0x1 to 0x7fffff"
        );
        for fine in [
            "0x1p-149",
            "-inf",
            "nan",
            "-nan(0x1)",
            "nan(0x7fffff)",
            "0x1.fffffep+127",
        ] {
            assert_eq!(refusal(fine), Ok(()), "{fine}");
        }
        assert!(check_float(FloatType::Double, hexfloat::parse("0x1p-1074").unwrap()).is_ok());
        assert!(check_value(float, ValueKind::IntGentype, 2.5).is_err());
        assert!(check_value(float, ValueKind::IntGentype, -3.0).is_ok());
        assert!(check_value(FloatType::Half, ValueKind::UintGentype, 65536.0).is_err());
        assert!(check_value(FloatType::Half, ValueKind::UintGentype, 65535.0).is_ok());
        // A NaN case gives the type's NaN with that payload; plain nan its default quiet NaN.
        let signalling = explicit_value(
            float,
            ValueKind::FloatGentype,
            hexfloat::parse("-nan(0x1)").unwrap(),
        );
        assert_eq!(hexfloat::element_bits(float, signalling), 0xff80_0001);
        let quiet = explicit_value(FloatType::Half, ValueKind::FloatGentype, f64::NAN);
        assert_eq!(hexfloat::element_bits(FloatType::Half, quiet), 0x7e00);
    }
}
