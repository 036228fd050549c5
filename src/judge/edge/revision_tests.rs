//! The 2026 rules against the 2026 text, and against the 2017 rules.

use super::*;
use crate::spec::edge_table::functions;
use crate::spec::environment::OPENCL_SPIRV;
use crate::spec::table::asciidoc::{plain, SPEC_2026};
use crate::spec::table::Revision;

/// (line, function heading, bullet text) for every `**` bullet of "Additional
/// Requirements" (a code block after a bullet joined onto it) and every `*` bullet of the
/// flush-to-zero section, plus the text of the whole "Edge Case Behavior" section as one
/// line (code blocks verbatim), for finding sources.
fn bullets_2026() -> (Vec<(usize, Option<String>, String)>, String) {
    let text = crate::spec::table::asciidoc::read(SPEC_2026);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == "=== Edge Case Behavior")
        .expect("an Edge Case Behavior section");
    let mut bullets: Vec<(usize, Option<String>, String)> = Vec::new();
    let mut section = String::new();
    let mut heading: Option<String> = None;
    let mut in_code = false;
    let mut in_bullet = false;
    for (index, raw) in lines.iter().enumerate().skip(start) {
        let line = raw.trim();
        if line == "----" {
            in_code = !in_code;
            continue;
        }
        let content = if in_code {
            line.to_string()
        } else if matches!(line, "+" | "[source,opencl_c]") {
            continue;
        } else {
            plain(line)
        };
        section.push(' ');
        section.push_str(&content);
        if line.is_empty() {
            in_bullet = false;
            continue;
        }
        if in_bullet && (in_code || !line.starts_with('*')) {
            if let Some(last) = bullets.last_mut() {
                last.2 = format!("{} {content}", last.2)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
            }
            continue;
        }
        if let Some(bullet) = line.strip_prefix("** ") {
            bullets.push((index + 1, heading.clone(), plain(bullet)));
            in_bullet = true;
        } else if let Some(bullet) = line.strip_prefix("* ") {
            let bullet = plain(bullet);
            match bullet
                .strip_prefix("OpExtInst ")
                .and_then(|b| b.strip_suffix(':'))
            {
                Some(name) => {
                    heading = Some(name.to_string());
                    in_bullet = false;
                }
                None => {
                    bullets.push((index + 1, None, bullet));
                    in_bullet = true;
                }
            }
        } else {
            in_bullet = false;
        }
    }
    let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
    (bullets, section)
}

#[test]
fn every_2026_bullet_has_a_row() {
    let (bullets, section) = bullets_2026();
    let rules = builtin_in(&OPENCL_SPIRV, Revision::Spec2026);
    // Guards the extractor: 81 bullets under 26 headings, and 4 flush-to-zero ones.
    let under_headings = bullets.iter().filter(|b| b.1.is_some()).count();
    assert_eq!((under_headings, bullets.len()), (81, 85), "{bullets:#?}");
    let mut problems = Vec::new();
    for (line, function, text) in &bullets {
        let citing: Vec<&EdgeRule> = rules
            .iter()
            .filter(|r| r.source.split_whitespace().collect::<Vec<_>>().join(" ") == *text)
            .collect();
        let fits = match function {
            Some(name) => citing.iter().any(|r| r.function == *name),
            None => citing.iter().any(|r| r.applies == Applies::FlushToZero),
        };
        if !fits {
            problems.push(format!(
                "line {line} ({function:?}): no row cites \"{text}\""
            ));
        }
    }
    for rule in rules.iter().filter(|r| !r.source.starts_with("C99 ")) {
        let source = rule.source.split_whitespace().collect::<Vec<_>>().join(" ");
        if !section.contains(&source) {
            problems.push(format!(
                "{}:{}: the source is not in the 2026 text: {source}",
                rule.file, rule.line
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn both_revisions_check_the_same_inputs() {
    for function in functions() {
        for element in FloatType::ALL {
            for flush in [false, true] {
                let inputs = |revision| {
                    let mut args: Vec<Vec<u64>> =
                        cases_in(&OPENCL_SPIRV, revision, function, element, flush)
                            .iter()
                            .map(|c| c.args.iter().map(|x| x.to_bits()).collect())
                            .collect();
                    args.sort();
                    args
                };
                assert_eq!(
                    inputs(Revision::Spec2017),
                    inputs(Revision::Spec2026),
                    "{function} {element} ftz={flush}"
                );
            }
        }
    }
    let nan_pair = |revision| {
        cases_in(&OPENCL_SPIRV, revision, "fmax", FloatType::Float, false)
            .into_iter()
            .find(|c| c.args.iter().all(|x| x.is_nan()))
            .expect("fmax(NaN, NaN)")
    };
    assert!(nan_pair(Revision::Spec2017)
        .rule_text
        .starts_with("Functions that return"));
    assert_eq!(
        nan_pair(Revision::Spec2026).rule_text,
        "C99 F.9 paragraph 11"
    );
}

/// Every rule of the OpenCL C chapter expands in every type, flushing or not, and a half_
/// function's cases are its base function's inputs (its own NaN rows apart): the half_<funcname>
/// paragraph's rows.
#[test]
fn every_opencl_c_rule_expands() {
    use crate::spec::environment::OPENCL_C;
    let cases = |function: &str, element, flush| {
        cases_in(&OPENCL_C, Revision::Spec2026, function, element, flush)
    };
    let bits = |case: &EdgeCase| -> Vec<u64> { case.args.iter().map(|x| x.to_bits()).collect() };
    let mut names: Vec<&str> = builtin_in(&OPENCL_C, Revision::Spec2026)
        .iter()
        .map(|r| r.function.as_str())
        .collect();
    names.dedup();
    for function in names {
        for element in FloatType::ALL {
            for flush in [false, true] {
                let own = cases(function, element, flush);
                let Some(base) = function.strip_prefix("half_") else {
                    continue;
                };
                let base: Vec<Vec<u64>> = cases(base, element, flush).iter().map(bits).collect();
                for case in own.iter().filter(|c| !c.args.iter().any(|x| x.is_nan())) {
                    assert!(
                        base.contains(&bits(case)),
                        "{function} {element} ftz={flush}: {:?}",
                        case.args
                    );
                }
            }
        }
    }
}
