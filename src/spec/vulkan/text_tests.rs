//! `tables/vulkan/ulp_full.csv` against the appendix itself: both precision tables re-read
//! from the AsciiDoc source, every row either a row of the file (in the text's order, every
//! cell read by this module's own reader of the wording and compared with the file's) or a
//! row `LEFT_OUT` names, and every inherited formula's wording.

use super::*;
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::asciidoc::{read, SPEC_VULKAN};
use crate::spec::table::builtin_in;
use crate::spec::table::Profile;

/// The two tables' titles, in the text's order.
const TITLES: [&str; 2] = [
    ".Precision of Core SPIR-V Instructions",
    ".Precision of GLSL.std.450 Instructions",
];

/// The formulas the file writes in another notation than the text's (markup removed): the
/// row, the text's words, the file's formula.
const NOTATIONS: &[(&str, &str, &str)] = &[
    (
        "OpDot",
        "sum for i < n of x_{i} * y_{i}",
        "sum(x[i] * y[i])",
    ),
    ("fma", "OpFMul followed by OpFAdd", "x * y + z"),
    (
        "radians",
        "x * C_pi_180, where C_pi_180 is a correctly rounded approximation to pi / 180",
        "x * C_pi_180",
    ),
    (
        "degrees",
        "x * C_180_pi, where C_180_pi is a correctly rounded approximation to 180 / pi",
        "x * C_180_pi",
    ),
    (
        "smoothstep",
        "t * t * (3.0 - 2.0 * t), where t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)",
        "t * t * (3.0 - 2.0 * t) where t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)",
    ),
];

/// One row of a table: its instruction names and its cells (one spanning both columns, or a
/// single-precision and a half-precision one), markup removed.
struct TextRow {
    names: Vec<String>,
    cells: Vec<String>,
}

/// The rows of the table under `title`, conditional lines (`ifdef::`, `endif::`) skipped.
fn rows(text: &str, title: &str) -> Vec<TextRow> {
    let start = text
        .lines()
        .position(|l| l.trim() == title)
        .unwrap_or_else(|| panic!("no table `{title}` in the text"));
    let lines: Vec<&str> = text.lines().skip(start).collect();
    let open = lines.iter().position(|l| l.trim() == "|====").unwrap();
    let close = open
        + 1
        + lines[open + 1..]
            .iter()
            .position(|l| l.trim() == "|====")
            .unwrap();
    let body: Vec<&str> = lines[open + 1..close]
        .iter()
        .filter(|l| !l.starts_with("ifdef::") && !l.starts_with("endif::"))
        .copied()
        .collect();
    // Cells: each starts at a `|`, `a|`, `2+|` or `2+a|` that begins the text or follows a
    // space.
    let joined = format!(" {}", body.join(" "));
    let mut cells: Vec<(u32, String)> = Vec::new();
    let mut rest = joined.as_str();
    while let Some(at) = next_cell(rest) {
        let (marker, after) = rest[at..].split_at(rest[at..].find('|').unwrap() + 1);
        let span = if marker.trim_start().starts_with("2+") {
            2
        } else {
            1
        };
        let end = next_cell(after).unwrap_or(after.len());
        cells.push((span, plain(&after[..end])));
        rest = &after[end..];
    }
    let header: Vec<&str> = cells[..3].iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(
        header,
        [
            "Instruction",
            "Single precision, unless decorated with RelaxedPrecision",
            "Half precision"
        ],
        "{title}"
    );
    let mut rows = Vec::new();
    let mut i = 3;
    while i < cells.len() {
        // `OpDot(x, y)`, `exp(x)`, `fma()`: the argument lists dropped first.
        let mut bare = cells[i].1.clone();
        while let (Some(open), Some(close)) = (bare.find('('), bare.find(')')) {
            bare.replace_range(open..=close, "");
        }
        let names = bare.split(',').map(|n| n.trim().to_string()).collect();
        let (count, spans) = if cells[i + 1].0 == 2 { (1, 2) } else { (2, 1) };
        assert!(cells[i + 1..i + 1 + count].iter().all(|(s, _)| *s == spans));
        rows.push(TextRow {
            names,
            cells: cells[i + 1..i + 1 + count]
                .iter()
                .map(|(_, c)| c.clone())
                .collect(),
        });
        i += 1 + count;
    }
    rows
}

/// Where the next cell's marker starts in `text` (its leading space included).
fn next_cell(text: &str) -> Option<usize> {
    [" 2+a|", " 2+|", " a|", " |"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
}

/// A cell's words with the AsciiDoc and LaTeX markup removed: `code:`, `[eq]#...#`,
/// `latexmath:[...]` (ended by the first `]`; `\]` an escaped bracket), `{times}`, `{vert}`, `{plus}`, `\times`,
/// `\vert`, `\leq`, `\pi`, `\mathrm{f}`, `\exp`, `\log`, `\sin`..., `\frac{a}{b}` as `a / b`
/// (each side in parentheses when it has a space), `2^{-21}` and `2^-21^` as `2^-21`,
/// `C_{\pi\_180}` as `C_pi_180`; runs of spaces collapsed.
fn plain(cell: &str) -> String {
    let mut text = String::new();
    let mut rest = cell;
    while let Some(at) = rest.find("latexmath:[") {
        text.push_str(&rest[..at]);
        let after = &rest[at + "latexmath:[".len()..];
        let (mut end, mut latex) = (after.len(), String::new());
        let chars: Vec<(usize, char)> = after.char_indices().collect();
        let mut k = 0;
        while k < chars.len() {
            let (i, c) = chars[k];
            if c == '\\' && chars.get(k + 1).is_some_and(|(_, n)| *n == ']') {
                latex.push(']');
                k += 2;
                continue;
            }
            if c == ']' {
                end = i + 1;
                break;
            }
            latex.push(c);
            k += 1;
        }
        text.push_str(&latex_plain(&latex));
        rest = &after[end..];
    }
    text.push_str(rest);
    let text = text
        .replace("[eq]#", "")
        .replace('#', "")
        .replace("code:", "")
        .replace("{times}", "*")
        .replace("{vert}", "|")
        .replace("{plus}", "+");
    let mut text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // `2^-126^`: a superscript's closing caret.
    while let Some(at) = text.find("^,").or_else(|| text.find("^]")) {
        text.remove(at);
    }
    text
}

fn latex_plain(latex: &str) -> String {
    let mut text = latex
        .replace("\\sum_{i = 0}^{n - 1}", "sum for i < n of")
        .replace("\\pi\\_180", "pi_180")
        .replace("180\\_\\pi", "180_pi")
        .replace("C_{pi_180}", "C_pi_180")
        .replace("C_{180_pi}", "C_180_pi")
        .replace("\\times", "*")
        .replace("\\vert", "|")
        .replace("\\leq", "<=")
        .replace("\\pi", "pi")
        .replace("\\mathrm{atan2}", "atan2");
    for f in ["exp", "log", "sin", "cos", "sinh", "cosh"] {
        text = text.replace(&format!("\\{f}("), &format!("{f}("));
    }
    while let Some(at) = text.find("\\frac{") {
        let (a, after_a) = braced(&text[at + "\\frac".len()..]);
        let (b, after_b) = braced(after_a);
        let side = |s: &str| {
            if s.contains(' ') {
                format!("({s})")
            } else {
                s.to_string()
            }
        };
        text = format!("{}{} / {}{}", &text[..at], side(a), side(b), after_b);
    }
    while let Some(at) = text.find("^{") {
        let (exponent, after) = braced(&text[at + 1..]);
        text = format!("{}^{exponent}{after}", &text[..at]);
    }
    text
}

/// The text of a `{...}` group at the start of `text`, and what follows it.
fn braced(text: &str) -> (&str, &str) {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return (&text[1..i], &text[i + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("unclosed brace in `{text}`")
}

/// The requirement a cell's wording states, read independently of the file's grammar; the
/// formula of an inherited cell as the file writes it (`()` filled with `x`).
fn reading(row: &str, cell: &str) -> Requirement {
    let cell = cell.trim_end_matches('.').trim();
    let number = |t: &str| -> f64 {
        let t = t
            .trim()
            .trim_start_matches('<')
            .trim_start_matches('=')
            .trim();
        match t {
            "pi" => std::f64::consts::PI,
            "-pi" => -std::f64::consts::PI,
            _ => match t.strip_prefix("2^") {
                Some(e) => 2f64.powi(e.parse().unwrap()),
                None => t.parse().unwrap_or_else(|_| panic!("{row}: `{t}`")),
            },
        }
    };
    let range = |t: &str| -> (f64, f64) {
        let (a, b) = t
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split_once(',')
            .unwrap();
        (number(a), number(b))
    };
    if cell == "Correct result" {
        return Requirement::Exact;
    }
    if cell == "Correctly rounded" {
        return Requirement::CorrectlyRounded;
    }
    if let Some(formula) = cell.strip_prefix("Inherited from ") {
        let formula = formula.replace("()", "(x)");
        let written = NOTATIONS
            .iter()
            .find(|(r, words, _)| *r == row && *words == formula)
            .map_or(formula.clone(), |(_, _, file)| file.to_string());
        return Requirement::Vulkan(Cell::Inherited(written));
    }
    if let Some((ulp, condition)) = cell.split_once(" ULP for |y| = 0 or |y| in the range ") {
        let (low, high) = range(condition);
        return Requirement::Vulkan(Cell::UlpForDivisor {
            ulp: number(ulp),
            low,
            high,
        });
    }
    if let Some((outside, inside)) = cell.split_once(" ULP outside the range ") {
        let (range_text, absolute) = inside.split_once(". Absolute error < ").unwrap();
        let (absolute, inside_range) = absolute.split_once(" inside the range ").unwrap();
        assert_eq!(range(range_text), range(inside_range), "{row}");
        let (low, high) = range(range_text);
        return Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
            ulp: number(outside),
            low,
            high,
            absolute: number(absolute),
        });
    }
    if let Some(rest) = cell.strip_prefix("Absolute error <= ") {
        let (absolute, range_text) = rest.split_once(" inside the range ").unwrap();
        let (low, high) = range(range_text);
        return Requirement::Vulkan(Cell::AbsoluteInside {
            absolute: number(absolute),
            low,
            high,
        });
    }
    let ulps = cell
        .strip_suffix(" ULP")
        .unwrap_or_else(|| panic!("{row}: `{cell}`"));
    if let Some((constant, growth)) = ulps.split_once(" + ") {
        let growth = growth.replace(' ', "");
        let per_magnitude = growth.strip_suffix("*|x|").unwrap();
        return Requirement::Vulkan(Cell::UlpPerMagnitude {
            constant: number(constant),
            per_magnitude: number(per_magnitude),
        });
    }
    Requirement::Ulp(number(ulps))
}

#[test]
fn data_file_matches_the_text() {
    let text = read(SPEC_VULKAN);
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    let mut expected_rows = Vec::new();
    let mut left_out = Vec::new();
    for title in TITLES {
        for row in rows(&text, title) {
            let (single, half) = match row.cells.as_slice() {
                [both] => (both.clone(), both.clone()),
                [single, half] => (single.clone(), half.clone()),
                other => panic!("{:?}: {other:?}", row.names),
            };
            for name in &row.names {
                let planned = INSTRUCTIONS
                    .iter()
                    .find(|(_, vulkan)| vulkan.eq_ignore_ascii_case(name));
                let Some((registry, _)) = planned else {
                    assert!(
                        LEFT_OUT.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)),
                        "`{name}` ({title}) is neither a row of the file nor in LEFT_OUT"
                    );
                    left_out.push(name.clone());
                    continue;
                };
                let file_row = table
                    .row(registry)
                    .unwrap_or_else(|| panic!("{registry} ({name}) has no row in the file"));
                assert_eq!(
                    file_row.float32,
                    reading(registry, &single),
                    "{registry}: single precision `{single}`"
                );
                assert_eq!(
                    file_row.float16,
                    reading(registry, &half),
                    "{registry}: half precision `{half}`"
                );
                // "The precision of double-precision instructions is at least that of single
                // precision".
                assert_eq!(file_row.float64, file_row.float32, "{registry}: float64");
                expected_rows.push(*registry);
            }
        }
    }
    let file_rows: Vec<&str> = table.rows.iter().map(|r| r.instruction.as_str()).collect();
    assert_eq!(
        file_rows, expected_rows,
        "the file's rows, in the text's order"
    );
    // Every LEFT_OUT entry is a row of the text (none is stale).
    for (name, why) in LEFT_OUT {
        assert!(
            left_out.iter().any(|n| n.eq_ignore_ascii_case(name)),
            "LEFT_OUT names `{name}` ({why}), which the tables do not list"
        );
    }
    assert!(text.contains(
        "The precision of double-precision instructions is at least that of single\nprecision."
    ));
}

#[test]
fn markup_is_removed() {
    assert_eq!(
        plain("latexmath:[\\log(\\frac{1.0 + x}{1.0 - x}) \\times 0.5]"),
        "log((1.0 + x) / (1.0 - x)) * 0.5"
    );
    assert_eq!(
        plain("Absolute error latexmath:[\\leq 2^{-11}] inside the range latexmath:[[-\\pi, \\pi\\]]."),
        "Absolute error <= 2^-11 inside the range [-pi, pi]."
    );
    assert_eq!(
        plain("2.5 ULP for [eq]#{vert}y{vert} = 0# or [eq]#{vert}y{vert}# in the range [2^-126^, 2^126^]."),
        "2.5 ULP for |y| = 0 or |y| in the range [2^-126, 2^126]."
    );
}
