//! The 2026 Table 5 against its text, and the rules that changed since 2017.

use super::*;
use crate::spec::relaxed_table::builtin_in;
use crate::spec::table::asciidoc::{plain, SPEC_2026};
use crate::spec::table::Revision;

/// (line, "heading: cell") per row of the 2026 Table 5.
fn rows_2026() -> Vec<(usize, String)> {
    let text = crate::spec::table::asciidoc::read(SPEC_2026);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let title =
        ".ULP Values for Single Precision Math Instructions with _-cl-unsafe-math-optimizations_";
    lines
        .by_ref()
        .find(|(_, l)| *l == title)
        .unwrap_or_else(|| panic!("the 2026 text has no `{title}`"));
    lines.by_ref().find(|(_, l)| *l == "|====");
    let header: Vec<&str> = lines
        .by_ref()
        .map(|(_, l)| l.trim())
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(header, ["| *Function*", "| *Minimum Accuracy*"]);
    // (line, heading, cell): a `| *` line opens a heading, another `|` line its cell.
    let mut rows: Vec<(usize, String, Option<String>)> = Vec::new();
    for (n, line) in lines {
        let line = line.trim();
        if line == "|====" {
            break;
        }
        if line.is_empty() {
            continue;
        }
        if let Some(heading) = line.strip_prefix("| *") {
            rows.push((n, format!("*{heading}"), None));
        } else if let Some(cell) = line.strip_prefix('|') {
            rows.last_mut().expect("a cell after a heading").2 = Some(cell.to_string());
        } else {
            let row = rows.last_mut().expect("a continuation line");
            match &mut row.2 {
                Some(cell) => *cell = format!("{cell} {line}"),
                None => row.1 = format!("{} {line}", row.1),
            }
        }
    }
    rows.into_iter()
        .map(|(n, heading, cell)| {
            let cell = cell.unwrap_or_else(|| panic!("line {n}: a heading without a cell"));
            (n, format!("{}: {}", plain(&heading), plain(&cell)))
        })
        .collect()
}

fn name_of(words: &str) -> String {
    let heading = words.split(':').next().unwrap();
    match heading.strip_prefix("OpExtInst ") {
        Some(name) => name.to_string(),
        None if heading.starts_with("OpFDiv") => "OpFDiv".to_string(),
        None => {
            assert_eq!(heading, "OpFMul and OpFAdd, for x * y + z");
            "OpFMul_OpFAdd".to_string()
        }
    }
}

#[test]
fn data_file_2026_matches_the_text() {
    let rows = rows_2026();
    // Guards the extractor: 37 rows, two of them OpFDiv, as in 2017.
    assert_eq!(rows.len(), 37);
    let table = builtin_in(&crate::spec::environment::OPENCL_SPIRV, Revision::Spec2026);
    let mut order: Vec<String> = Vec::new();
    let mut words: Vec<(usize, String)> = Vec::new();
    for (line, text) in &rows {
        let name = name_of(text);
        if order.last() == Some(&name) {
            let last = words.last_mut().unwrap();
            last.1 = format!("{} | {text}", last.1);
        } else {
            order.push(name);
            words.push((*line, text.clone()));
        }
    }
    let data: Vec<String> = table.rows.iter().map(|r| r.instruction.clone()).collect();
    assert_eq!(data, order, "{} is not in the text's order", table.source);
    let problems: Vec<String> = table
        .rows
        .iter()
        .zip(&words)
        .filter(|(row, (_, text))| row.spec != *text)
        .map(|(row, (line, text))| {
            format!(
                "{}:{}: `spec` is\n  {}\nbut line {line} says\n  {text}",
                table.source, row.line, row.spec
            )
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The float nearest `exact`, moved by `ulps` units in the last place.
fn off_by(exact: f64, ulps: i32) -> f64 {
    let float = exact as f32;
    f64::from(f32::from_bits((float.to_bits() as i32 + ulps) as u32))
}

fn passes(revision: Revision, name: &str, args: &[f64], result: f64, embedded: bool) -> bool {
    let rule = builtin_in(&crate::spec::environment::OPENCL_SPIRV, revision)
        .rule(name, FloatType::Float)
        .unwrap_or_else(|| panic!("{name} not in Table 5 of {revision}"));
    match rule.judge(args, result, FloatType::Float, embedded) {
        RelaxedOutcome::Pass { .. } => true,
        RelaxedOutcome::Fail { .. } => false,
        RelaxedOutcome::Undefined => panic!("{name}{args:?} undefined in {revision}"),
    }
}

#[test]
fn rules_that_changed_judge_by_their_revision() {
    use Revision::{Spec2017 as Old, Spec2026 as New};
    // atan2(1, 0): no formula covers x = 0; 2017 keeps Table 3's 6 ulp, 2026 bounds
    // every input by the non-derived 8192 ulp.
    let far = off_by(std::f64::consts::FRAC_PI_2, 100);
    assert!(!passes(Old, "atan2", &[1.0, 0.0], far, false));
    assert!(passes(New, "atan2", &[1.0, 0.0], far, false));
    // exp(2) on an embedded device: 2017 4 ulp, 2026 4 + floor(|2x|) = 8 ulp.
    let six_off = off_by(2f64.exp(), 6);
    assert!(!passes(Old, "exp", &[2.0], six_off, true));
    assert!(passes(New, "exp", &[2.0], six_off, true));
    assert!(
        passes(Old, "exp", &[2.0], six_off, false),
        "full: 7 ulp both"
    );
    // acosh(3): 2026 adds the non-derived 8192 ulp beside the formula.
    let far = off_by(3f64.acosh(), 4000);
    assert!(passes(New, "acosh", &[3.0], far, false));
    assert!(!passes(Old, "acosh", &[3.0], far, false));
    // Unchanged: sin's absolute 2^-11 on [-pi, pi].
    for revision in Revision::ALL {
        assert!(passes(revision, "sin", &[1.0], 1f64.sin() + 2e-4, false));
        assert!(!passes(revision, "sin", &[1.0], 1f64.sin() + 1e-3, false));
    }
}
