//! C99 hexadecimal floating-point text (`%a`), so values in reports round-trip exactly, and
//! NaNs with their payload: `nan(0x…)`.
//!
//! A NaN's payload is written as its trailing significand field T (every bit after the
//! exponent, the quiet bit included): for float `nan(0x400000)` is the quiet NaN 0x7fc00000 and
//! `nan(0x1)` the signalling NaN 0x7f800001. T depends on the type, so parsed text holds it in
//! the low bits of an `f64` NaN (the *parsed form*, see [`parse`]); [`typed_nan`] makes that a
//! NaN of a type, held as the type's values are widened to `f64`: T at the top of the double's
//! trailing significand (where the hardware's widening puts it).

use crate::num::fp::FloatType;
use rug::{Float, Integer};

/// The trailing significand field of an `f64`.
const TRAILING: u64 = (1 << 52) - 1;

/// `0x1.921fb6p+1`, `-0x0p+0`, `inf`, `-inf`, `nan`, `-nan`: the exact value of an `f64` (so of any
/// half or float widened to it). Subnormal doubles print normalised (`0x1p-1074`), which C's
/// `strtod` reads back exactly.
pub fn format_f64(value: f64) -> String {
    if value.is_nan() {
        return if value.is_sign_negative() {
            "-nan"
        } else {
            "nan"
        }
        .to_string();
    }
    format_float(&Float::with_val(53, value))
}

/// The exact value of an MPFR number in C99 hex form (see [`format_f64`]).
pub fn format_float(value: &Float) -> String {
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value.is_nan() {
        return format!("{sign}nan");
    }
    if value.is_infinite() {
        return format!("{sign}inf");
    }
    if value.is_zero() {
        return format!("{sign}0x0p+0");
    }
    let (significand, exponent) = value.to_integer_exp().expect("finite value");
    let significand = significand.abs();
    let bits = significand.significant_bits();
    // value = 1.fraction * 2^(exponent + bits - 1), with bits - 1 fraction bits.
    let fraction_bits = bits - 1;
    let padding = (4 - fraction_bits % 4) % 4;
    let fraction: Integer = (significand - (Integer::from(1) << fraction_bits)) << padding;
    let digits = ((fraction_bits + padding) / 4) as usize;
    let power = i64::from(exponent) + i64::from(bits) - 1;
    let mut hex = if digits == 0 {
        String::new()
    } else {
        format!("{:0>width$}", fraction.to_string_radix(16), width = digits)
    };
    while hex.ends_with('0') {
        hex.pop();
    }
    let point = if hex.is_empty() { "" } else { "." };
    let power_sign = if power >= 0 { "+" } else { "" };
    format!("{sign}0x1{point}{hex}p{power_sign}{power}")
}

/// Reads C99 hex floats (`0x1.8p+1`, `-0x0p+0`, `0X1P-2`), `inf`, `-inf`, `nan`, or a decimal
/// number, as an `f64` (exact when the text came from [`format_f64`]). `nan(0xT)` (T from 1 to
/// 2^52 - 1) is held in the parsed form: the `f64` NaN whose trailing significand is T; plain
/// `nan` is `f64::NAN` (T = 2^51), which [`typed_nan`] reads as each type's default quiet NaN.
pub fn parse(text: &str) -> Option<f64> {
    let text = text.trim();
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let magnitude = if lower == "inf" || lower == "infinity" {
        f64::INFINITY
    } else if lower == "nan" {
        f64::NAN
    } else if let Some(payload) = lower.strip_prefix("nan(").and_then(|r| r.strip_suffix(')')) {
        let trailing = u64::from_str_radix(payload.trim().strip_prefix("0x")?, 16).ok()?;
        if trailing == 0 || trailing > TRAILING {
            return None;
        }
        f64::from_bits(0x7ff0_0000_0000_0000 | trailing)
    } else if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_magnitude(hex)?
    } else {
        lower.parse::<f64>().ok()?
    };
    // The sign as a bit (negation's own definition), so a NaN's payload stays as written.
    Some(f64::from_bits(
        magnitude.to_bits() ^ (u64::from(negative) << 63),
    ))
}

/// The trailing significand T of `element`'s NaNs: 1 to 2^(p-1) - 1.
fn nan_field(element: FloatType) -> u64 {
    (1 << element.fraction_bits()) - 1
}

/// The NaN of `element` that a parsed NaN (see [`parse`]) names, widened as the type's values
/// are; `None` where its T does not fit the type's field (e.g. `nan(0x800000)` for float).
/// Plain `nan` is the type's default quiet NaN (T = the quiet bit).
pub fn typed_nan(element: FloatType, parsed: f64) -> Option<f64> {
    let bits = parsed.to_bits();
    let trailing = match bits & TRAILING {
        plain if plain == 1 << 51 => 1 << (element.fraction_bits() - 1),
        trailing if trailing <= nan_field(element) => trailing,
        _ => return None,
    };
    Some(f64::from_bits(
        (bits & (1 << 63)) | 0x7ff0_0000_0000_0000 | trailing << (52 - element.fraction_bits()),
    ))
}

/// The trailing significand T of the NaN of `element` that `value` holds widened (0 when
/// `value` is not a widened NaN of the type).
fn widened_nan_trailing(element: FloatType, value: f64) -> u64 {
    (value.to_bits() & TRAILING) >> (52 - element.fraction_bits())
}

/// `element`'s encoding of `value` (a value of the type, widened): as
/// [`FloatType::to_bits`], but a NaN keeps every bit of its payload, a signalling one too
/// (narrowing through the hardware quiets it).
pub fn element_bits(element: FloatType, value: f64) -> u64 {
    if !value.is_nan() {
        return element.to_bits(value);
    }
    let sign = (value.to_bits() >> 63) << (element.bits() - 1);
    let exponent =
        ((1u64 << (element.bits() - element.precision())) - 1) << element.fraction_bits();
    sign | exponent | widened_nan_trailing(element, value)
}

/// An input of `element` as clacc prints it: [`format_f64`], and a NaN as `nan(0xT)` (or
/// `-nan(0xT)`) with its trailing significand in the type, which [`parse`] and [`typed_nan`]
/// read back to the same bits.
pub fn format_input(element: FloatType, value: f64) -> String {
    if !value.is_nan() {
        return format_f64(value);
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    match widened_nan_trailing(element, value) {
        // Not a NaN of the type (no caller holds one): its sign alone.
        0 => format!("{sign}nan"),
        trailing => format!("{sign}nan({trailing:#x})"),
    }
}

fn parse_hex_magnitude(hex: &str) -> Option<f64> {
    let (mantissa, power) = match hex.split_once('p') {
        Some((mantissa, power)) => (mantissa, power.parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let shift = power.checked_sub(4 * i32::try_from(fraction.len()).ok()?)?;
    // Up to 13 hex digits are at most 52 bits, exact in an f64, and 2^shift is exact there:
    // their product is rounded once, as below (an input file of 2^24 cases reads in a second).
    if whole.len() + fraction.len() <= 13 && (-1022..=1023).contains(&shift) {
        let significand = whole
            .bytes()
            .chain(fraction.bytes())
            .try_fold(0u64, |value, digit| {
                Some(value << 4 | u64::from((digit as char).to_digit(16)?))
            });
        if let Some(significand) = significand {
            return Some(significand as f64 * crate::num::fp::pow2(shift));
        }
    }
    let digits = format!("{whole}{fraction}");
    let significand =
        Integer::from_str_radix(if digits.is_empty() { "0" } else { &digits }, 16).ok()?;
    // One rounding, to nearest, at f64's precision and range.
    let mut value = Float::with_val(significand.significant_bits().max(1), &significand);
    value <<= shift;
    Some(value.to_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_c_printf_a() {
        assert_eq!(format_f64(1.0), "0x1p+0");
        assert_eq!(format_f64(-2.5), "-0x1.4p+1");
        assert_eq!(format_f64(f64::from(std::f32::consts::PI)), "0x1.921fb6p+1");
        assert_eq!(format_f64(0.0), "0x0p+0");
        assert_eq!(format_f64(-0.0), "-0x0p+0");
        assert_eq!(format_f64(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_f64(f64::NAN), "nan");
        assert_eq!(format_f64(0.1), "0x1.999999999999ap-4");
        assert_eq!(format_f64(f64::from(f32::from_bits(1))), "0x1p-149");
    }

    #[test]
    fn every_format_round_trips() {
        let values = [
            1.0,
            -0.0,
            0.1,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from(f32::MAX),
            65504.0,
            -3.0e-300,
            f64::INFINITY,
        ];
        for value in values {
            let text = format_f64(value);
            assert_eq!(parse(&text).unwrap().to_bits(), value.to_bits(), "{text}");
        }
        assert!(parse("nan").unwrap().is_nan());
        assert!(parse("-nan").unwrap().is_sign_negative());
        assert_eq!(format_f64(-f64::NAN), "-nan");
        assert_eq!(parse("0X1.8P+1"), Some(3.0));
        assert_eq!(parse("0x.8p0"), Some(0.5));
        assert_eq!(parse("2.5"), Some(2.5));
        assert_eq!(parse("0x"), None);
        assert_eq!(parse("1.2.3"), None);
    }

    #[test]
    fn nan_payloads_parse_and_print_back_to_the_same_bits() {
        // The parsed form: T in the low bits, the sign as written.
        assert_eq!(parse("nan(0x1)").unwrap().to_bits(), 0x7ff0_0000_0000_0001);
        assert_eq!(
            parse("-NaN(0X2a)").unwrap().to_bits(),
            0xfff0_0000_0000_002a
        );
        for bad in [
            "nan(0x0)",
            "nan(0x10000000000000)",
            "nan(12)",
            "nan(0x)",
            "nan(",
        ] {
            assert_eq!(parse(bad).map(f64::to_bits), None, "{bad}");
        }
        // Every quiet and signalling NaN of each type, with either sign, prints as nan(0xT)
        // and reads back to its encoding.
        for element in FloatType::ALL {
            let field = nan_field(element);
            let exponent = element.to_bits(f64::INFINITY);
            let quiet = 1 << (element.fraction_bits() - 1);
            for trailing in [1, 2, quiet - 1, quiet, quiet | 1, field] {
                for sign in [0, 1u64 << (element.bits() - 1)] {
                    let bits = sign | exponent | trailing;
                    let widened = typed_nan(element, element_nan_text(element, bits)).unwrap();
                    assert_eq!(element_bits(element, widened), bits, "{element} {bits:#x}");
                    let text = format_input(element, widened);
                    let back = typed_nan(element, parse(&text).unwrap()).unwrap();
                    assert_eq!(back.to_bits(), widened.to_bits(), "{text}");
                }
            }
            // Plain nan is the type's default quiet NaN; a T wider than the field is refused.
            let default = typed_nan(element, f64::NAN).unwrap();
            assert_eq!(element_bits(element, default), exponent | quiet);
            assert_eq!(format_input(element, default), format!("nan({quiet:#x})"));
            if element != FloatType::Double {
                assert!(
                    typed_nan(element, parse(&format!("nan({:#x})", field + 1)).unwrap()).is_none()
                );
            }
            // What the hardware's widening gives (a quiet NaN) prints as the NaN it is.
            let widened = element.from_bits(exponent | quiet | 5);
            assert_eq!(
                format_input(element, widened),
                format!("nan({:#x})", quiet | 5)
            );
        }
        assert_eq!(format_input(FloatType::Float, -f64::NAN), "-nan(0x400000)");
        assert_eq!(format_input(FloatType::Half, 1.5), "0x1.8p+0");
    }

    /// The parsed form of the NaN of `element` whose encoding is `bits`.
    fn element_nan_text(element: FloatType, bits: u64) -> f64 {
        let negative = bits >> (element.bits() - 1) == 1;
        let text = format!(
            "{}nan({:#x})",
            if negative { "-" } else { "" },
            bits & nan_field(element)
        );
        parse(&text).unwrap()
    }

    #[test]
    fn short_hex_floats_read_as_the_exact_path_reads_them() {
        // Every shift at the edges of the short path, and significands that round there.
        let mut rng = 0x1234_5678_9abc_def0u64;
        for _ in 0..20000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let digits = 1 + (rng % 13) as usize;
            let significand = format!("{:013x}", rng >> 12);
            let (whole, fraction) = significand[13 - digits..].split_at(1);
            let power = (rng >> 50) as i32 % 2200 - 1100;
            let text = format!("{whole}.{fraction}p{power}");
            let slow = {
                let value = Integer::from_str_radix(&format!("{whole}{fraction}"), 16).unwrap();
                let mut exact = Float::with_val(value.significant_bits().max(1), &value);
                exact <<= power - 4 * fraction.len() as i32;
                exact.to_f64()
            };
            assert_eq!(
                parse_hex_magnitude(&text).unwrap().to_bits(),
                slow.to_bits(),
                "{text}"
            );
        }
        assert_eq!(parse("0x1p-1074"), Some(f64::from_bits(1)));
        assert_eq!(parse("0x1p-1075"), Some(0.0));
        assert_eq!(parse("0x1.8p-1074"), Some(f64::from_bits(2)));
        assert_eq!(parse("0x1p+1024"), Some(f64::INFINITY));
        assert_eq!(parse("0x1.g"), None);
    }

    #[test]
    fn high_precision_values_keep_their_digits() {
        let third = Float::with_val(64, 1) / 3u32;
        assert_eq!(format_float(&third), "0x1.5555555555555556p-2");
    }
}
