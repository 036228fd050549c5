//! The cells the Vulkan appendix's precision tables need beyond the OpenCL tables' grammar
//! (`Requirement::Vulkan`), and their reader, [`parse_cell`] (`tables/README.md`, "The Vulkan
//! cells"). Apart from `spec::table`, which holds them, so that the table's loader and the
//! Vulkan names do not import each other.

use std::fmt;

/// A cell the Vulkan appendix needs beyond the OpenCL tables' grammar (`Requirement::Vulkan`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum Cell {
    /// `<= N ulp where |y| in [A, B] or y == 0` (OpFDiv): N ulp where the divisor's magnitude
    /// lies in [A, B] or is zero; the text bounds nothing elsewhere.
    UlpForDivisor { ulp: f64, low: f64, high: f64 },
    /// `<= A+B|x| ulp` (exp, exp2): a bound growing with the argument's magnitude.
    UlpPerMagnitude { constant: f64, per_magnitude: f64 },
    /// `<= N ulp outside [A, B]; abs < E inside` (log, log2): the absolute error is strictly
    /// below E for x in [A, B], at most N ulp elsewhere.
    UlpOutsideAbsoluteInside {
        ulp: f64,
        low: f64,
        high: f64,
        absolute: f64,
    },
    /// `abs <= E inside [A, B]` (sin, cos): |result − exact| <= E for x in [A, B]; outside,
    /// the text sets no bound (the judge's reading: `judge::vulkan`).
    AbsoluteInside { absolute: f64, low: f64, high: f64 },
    /// `inherited: FORMULA`: the text's formula, in the notation `tables/README.md` gives.
    Inherited(String),
}

impl Cell {
    /// Short text for reports: the cell as the data file writes it.
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::UlpForDivisor { ulp, low, high } => write!(
                f,
                "<= {ulp} ulp where |y| in [{}, {}] or y == 0",
                number_text(*low),
                number_text(*high)
            ),
            Cell::UlpPerMagnitude {
                constant,
                per_magnitude,
            } => write!(f, "<= {constant}+{per_magnitude}|x| ulp"),
            Cell::UlpOutsideAbsoluteInside {
                ulp,
                low,
                high,
                absolute,
            } => write!(
                f,
                "<= {ulp} ulp outside [{}, {}]; abs < {} inside",
                number_text(*low),
                number_text(*high),
                number_text(*absolute)
            ),
            Cell::AbsoluteInside {
                absolute,
                low,
                high,
            } => write!(
                f,
                "abs <= {} inside [{}, {}]",
                number_text(*absolute),
                number_text(*low),
                number_text(*high)
            ),
            Cell::Inherited(formula) => write!(f, "inherited: {formula}"),
        }
    }
}

/// A number as the cells write it: `pi`, `-pi`, `2^-21`, `0.5`.
/// A cell's number as the data file writes it: `pi`, `2^-11`, or the decimal.
pub fn number_text(value: f64) -> String {
    if value.abs() == std::f64::consts::PI {
        return if value < 0.0 { "-pi" } else { "pi" }.to_string();
    }
    let exponent = value.abs().log2();
    if value != 0.0 && exponent.fract() == 0.0 && exponent.abs() > 1.0 {
        let sign = if value < 0.0 { "-" } else { "" };
        return format!("{sign}2^{exponent}");
    }
    value.to_string()
}

/// Reads a Vulkan cell (already trimmed); `None` when the cell is none of [`Cell`]'s forms (the
/// caller then tries the OpenCL ones), `Some(Err(message))` when it starts like one but is
/// malformed.
pub fn parse_cell(cell: &str) -> Option<Result<Cell, String>> {
    let cell = cell.trim();
    if let Some(formula) = cell.strip_prefix("inherited:") {
        let formula = formula.split_whitespace().collect::<Vec<_>>().join(" ");
        return Some(if formula.is_empty() {
            Err(format!(
                "cannot read `{cell}`: `inherited:` needs a formula"
            ))
        } else {
            Ok(Cell::Inherited(formula))
        });
    }
    let bad = |what: &str| format!("cannot read `{cell}`: expected {what}");
    if let Some(rest) = cell.strip_prefix("abs <=") {
        let (bound, range) = rest.split_once(" inside ")?;
        return Some((|| {
            let (low, high) = range_of(range).ok_or_else(|| bad("`[A, B]` after `inside`"))?;
            Ok(Cell::AbsoluteInside {
                absolute: number(bound).ok_or_else(|| bad("a bound such as `2^-11`"))?,
                low,
                high,
            })
        })());
    }
    let rest = cell.strip_prefix("<=")?.trim();
    if let Some((ulp, condition)) = rest.split_once(" ulp where ") {
        return Some((|| {
            let range = condition
                .strip_prefix("|y| in ")
                .and_then(|c| c.strip_suffix(" or y == 0"))
                .ok_or_else(|| bad("`|y| in [A, B] or y == 0` after `where`"))?;
            let (low, high) = range_of(range).ok_or_else(|| bad("`[A, B]`"))?;
            Ok(Cell::UlpForDivisor {
                ulp: number(ulp).ok_or_else(|| bad("a number of ulps"))?,
                low,
                high,
            })
        })());
    }
    if let Some((outside, inside)) = rest.split_once(" ulp outside ") {
        return Some((|| {
            let (range, absolute) = inside
                .split_once("; abs < ")
                .and_then(|(r, a)| Some((r, a.strip_suffix(" inside")?)))
                .ok_or_else(|| bad("`[A, B]; abs < E inside`"))?;
            let (low, high) = range_of(range).ok_or_else(|| bad("`[A, B]`"))?;
            Ok(Cell::UlpOutsideAbsoluteInside {
                ulp: number(outside).ok_or_else(|| bad("a number of ulps"))?,
                low,
                high,
                absolute: number(absolute).ok_or_else(|| bad("a bound such as `2^-21`"))?,
            })
        })());
    }
    let bound = rest.strip_suffix(" ulp")?.trim();
    let (constant, per_magnitude) = bound.split_once('+')?;
    let per_magnitude = per_magnitude.strip_suffix("|x|")?;
    Some(match (number(constant), number(per_magnitude)) {
        (Some(constant), Some(per_magnitude)) if constant >= 0.0 && per_magnitude >= 0.0 => {
            Ok(Cell::UlpPerMagnitude {
                constant,
                per_magnitude,
            })
        }
        _ => Err(bad("`A+B|x|` with numbers A and B")),
    })
}

/// `[A, B]` with A <= B.
fn range_of(text: &str) -> Option<(f64, f64)> {
    let (low, high) = text
        .trim()
        .strip_prefix('[')?
        .strip_suffix(']')?
        .split_once(',')?;
    let (low, high) = (number(low)?, number(high)?);
    (low <= high).then_some((low, high))
}

/// `pi`, `-pi`, `2^E` (E an integer), or a decimal: the numbers the Vulkan cells use. pi is
/// the double nearest π, which lies below π: no float, half or double lies between the two, so
/// `x <= pi` reads the same for every input type.
fn number(text: &str) -> Option<f64> {
    let text = text.trim();
    let (sign, magnitude) = match text.strip_prefix('-') {
        Some(m) => (-1.0, m),
        None => (1.0, text),
    };
    let value = if magnitude == "pi" {
        std::f64::consts::PI
    } else if let Some(exponent) = magnitude.strip_prefix("2^") {
        let exponent: i32 = exponent.parse().ok()?;
        if !(-1074..=1023).contains(&exponent) {
            return None;
        }
        2f64.powi(exponent)
    } else if magnitude.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && magnitude.starts_with(|c: char| c.is_ascii_digit())
    {
        magnitude.parse().ok()?
    } else {
        return None;
    };
    Some(sign * value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_print_back() {
        for text in [
            "<= 2.5 ulp where |y| in [2^-126, 2^126] or y == 0",
            "<= 3+2|x| ulp",
            "<= 3 ulp outside [0.5, 2]; abs < 2^-21 inside",
            "abs <= 2^-11 inside [-pi, pi]",
            "inherited: exp2(y * log2(x))",
        ] {
            let cell = parse_cell(text).unwrap().unwrap();
            assert_eq!(cell.to_string(), text);
        }
        assert_eq!(
            parse_cell("abs <= 2^-7 inside [-pi, pi]"),
            Some(Ok(Cell::AbsoluteInside {
                absolute: 1.0 / 128.0,
                low: -std::f64::consts::PI,
                high: std::f64::consts::PI
            }))
        );
        assert_eq!(parse_cell("<= 4 ulp"), None);
        assert_eq!(parse_cell("correctly-rounded"), None);
        for bad in [
            "inherited:",
            "abs <= 2^-11 inside [pi, -pi]",
            "abs <= x inside [-pi, pi]",
            "<= 2.5 ulp where |x| in [1, 2] or y == 0",
            "<= 3 ulp outside [0.5, 2]; abs <= 2^-21 inside",
            "<= a+2|x| ulp",
        ] {
            assert!(
                matches!(parse_cell(bad), Some(Err(_))),
                "{bad}: {:?}",
                parse_cell(bad)
            );
        }
    }
}
