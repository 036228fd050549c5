//! C99 hexadecimal floating-point text (`%a`), so values in reports round-trip exactly.

use rug::{Float, Integer};

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
/// number, as an `f64` (exact when the text came from [`format_f64`]).
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
    } else if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_magnitude(hex)?
    } else {
        lower.parse::<f64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
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
    let digits = format!("{whole}{fraction}");
    let significand =
        Integer::from_str_radix(if digits.is_empty() { "0" } else { &digits }, 16).ok()?;
    let shift = power.checked_sub(4 * i32::try_from(fraction.len()).ok()?)?;
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
    fn high_precision_values_keep_their_digits() {
        let third = Float::with_val(64, 1) / 3u32;
        assert_eq!(format_float(&third), "0x1.5555555555555556p-2");
    }
}
