//! The data files of `tables/opencl_c/` against the OpenCL C chapter's own text
//! (`opencl_c_numerical_compliance_2026.asciidoc`), with the SPIR-V tables' machinery: the
//! markup reader (`table::asciidoc`), the cell reader (`asciidoc_cell`) and the row comparison
//! (`compare`) of `table::tests::data_files_match_the_2026_text`.

use super::registry_name;
use crate::spec::edge_table::{self, Applies, EdgeRule};
use crate::spec::environment::{OPENCL_C, OPENCL_SPIRV};
use crate::spec::relaxed_table;
use crate::spec::table::asciidoc::{plain, read, SPEC_OPENCL_C};
use crate::spec::table::tests::{asciidoc_cell, compare, SpecRow};
use crate::spec::table::{builtin, builtin_in, Profile, Requirement, Revision};

const NOW: Revision = Revision::Spec2026;

/// The text's four ULP tables and its unsafe-math table, by title.
const SINGLE: &str = "ULP Values for Single-Precision Built-in Math Functions";
const EMBEDDED: &str = "ULP Values for the Embedded Profile";
const DOUBLE: &str = "ULP Values for Double-Precision Built-in Math Functions";
const HALF: &str = "ULP Values for Half-Precision Floating-Point Arithmetic Operations";
const UNSAFE: &str = "ULP Values for Single-Precision Built-in Math Functions With Unsafe Math \
    Optimizations in the Full and Embedded Profiles";

/// The rows of the table titled `title`: (line, cells), `header` cells checked first. A line
/// starting with `|` opens one cell per `|`; a line without one continues the last cell; `//`
/// comments and blank lines are skipped; rows whose cells are all empty (the text's `| |`
/// separators) are dropped.
fn rows(text: &str, title: &str, header: &[&str]) -> Vec<(usize, Vec<String>)> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    lines
        .by_ref()
        .find(|(_, l)| *l == format!(".{title}"))
        .unwrap_or_else(|| panic!("the OpenCL C text has no table `.{title}`"));
    lines.by_ref().find(|(_, l)| *l == "|====");
    let mut cells: Vec<(usize, String)> = Vec::new();
    for (n, line) in lines {
        if line == "|====" {
            break;
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        match line.strip_prefix('|') {
            Some(rest) => cells.extend(rest.split('|').map(|c| (n, c.trim().to_string()))),
            None => {
                let last = cells.last_mut().expect("a continuation of a cell");
                last.1 = format!("{} {line}", last.1);
            }
        }
    }
    let mut grouped = cells.chunks(header.len());
    let head: Vec<&str> = grouped
        .next()
        .expect("a header")
        .iter()
        .map(|(_, c)| c.as_str())
        .collect();
    assert_eq!(
        head, header,
        "{title}: the columns are not what the files assume"
    );
    grouped
        .inspect(|row| assert_eq!(row.len(), header.len(), "{title}: a short row {row:?}"))
        .filter(|row| row.iter().any(|(_, c)| !c.is_empty()))
        .map(|row| (row[0].0, row.iter().map(|(_, c)| c.clone()).collect()))
        .collect()
}

/// The text's wording of one ULP cell of `function`, read with the SPIR-V tables' reader once
/// the wordings only this chapter has are read (each a reading the data files' headers state):
/// "Undefined" and "Any value allowed (infinite ulp)" bound nothing, as implementation-defined
/// does; mad's rule is written without commas; remquo's "0 ulp" is the remainder's, its
/// quotient keeping the low 7 bits the OpenCL C remquo definition requires (as the half table
/// writes out).
fn cell(line: usize, function: &str, text: &str) -> Requirement {
    let text = text
        .replace("{leq}", "<=")
        .replace("\\<=", "<=")
        .replace("<=1 ", "<= 1 ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let requirement = match text.as_str() {
        "Undefined" | "Any value allowed (infinite ulp)" => Requirement::ImplementationDefined,
        "Implemented either as a correctly rounded fma or as a multiply followed by an add \
         both of which are correctly rounded" => Requirement::MadFmaOrMulAdd,
        _ => asciidoc_cell(line, &text),
    };
    match requirement {
        Requirement::Exact if function == "remquo" => Requirement::RemquoExact { quotient_bits: 7 },
        other => other,
    }
}

/// One table of the text as (line, registry name, its cells read), columns from `column` on.
fn read_table(text: &str, title: &str, header: &[&str]) -> Vec<(usize, String, Vec<Requirement>)> {
    rows(text, title, header)
        .into_iter()
        .map(|(line, cells)| {
            let name = registry_name(&plain(&cells[0])).to_string();
            let read = cells[1..].iter().map(|c| cell(line, &name, c)).collect();
            (line, name, read)
        })
        .collect()
}

/// The cell of `name` in a table read by [`read_table`], column `column`; every row of that
/// name must give it the same cell (`1.0 / x` and `x / y`). `None`: the table does not list it.
fn lookup(
    table: &[(usize, String, Vec<Requirement>)],
    name: &str,
    column: usize,
    problems: &mut Vec<String>,
) -> Option<Requirement> {
    let mut found = table.iter().filter(|(_, n, _)| n == name);
    let (_, _, first) = found.next()?;
    for (line, _, other) in found {
        if other[column] != first[column] {
            problems.push(format!(
                "line {line}: a second `{name}` row reads {:?}, the first {:?}",
                other[column], first[column]
            ));
        }
    }
    Some(first[column].clone())
}

/// The rows one data file must hold: the rows of the Float32 table `title` in its order (one
/// per registry name), Float64 from the double table (one table for both profiles), Float16
/// from the half table's column `half_column`; `-` where a table does not list the function.
fn merged(text: &str, title: &str, half_column: usize) -> Vec<SpecRow> {
    let two = ["Function", "Min Accuracy - ULP values"];
    let float32 = read_table(text, title, &two);
    let double = read_table(text, DOUBLE, &two);
    let half = read_table(
        text,
        HALF,
        &[
            "Function",
            "Min Accuracy - Full Profile",
            "Min Accuracy - Embedded Profile",
        ],
    );
    let mut problems = Vec::new();
    for (line, name, _) in double.iter().chain(&half) {
        if !float32.iter().any(|(_, n, _)| n == name) {
            problems.push(format!("line {line}: `{name}` is not in {title}"));
        }
    }
    let mut rows: Vec<SpecRow> = Vec::new();
    for (line, name, _) in &float32 {
        if rows.iter().any(|r| r.instruction == *name) {
            continue;
        }
        let mut column = |table: &[(usize, String, Vec<Requirement>)], column: usize| {
            lookup(table, name, column, &mut problems).unwrap_or(Requirement::NotApplicable)
        };
        let cells = [
            column(&double, 0),
            column(&float32, 0),
            column(&half, half_column),
        ];
        rows.push(SpecRow {
            line: *line,
            instruction: name.clone(),
            cells,
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    rows
}

#[test]
fn ulp_files_match_the_text() {
    let text = read(SPEC_OPENCL_C);
    let full = merged(&text, SINGLE, 0);
    compare(&full, builtin_in(&OPENCL_C, NOW, Profile::Full), SINGLE);
    let embedded = merged(&text, EMBEDDED, 1);
    compare(
        &embedded,
        builtin_in(&OPENCL_C, NOW, Profile::Embedded),
        EMBEDDED,
    );
    // Guards the extractor: 117 single-precision rows (two of them OpFDiv), 115 embedded ones
    // (no lgamma, lgamma_r), 84 double and 84 half ones.
    let two = ["Function", "Min Accuracy - ULP values"];
    let count = |title: &str| read_table(&text, title, &two).len();
    assert_eq!(
        (count(SINGLE), count(EMBEDDED), count(DOUBLE)),
        (117, 115, 84)
    );
    assert_eq!((full.len(), embedded.len()), (116, 114));
}

#[test]
fn every_name_of_the_text_is_a_registry_function() {
    let text = read(SPEC_OPENCL_C);
    let two = ["Function", "Min Accuracy - ULP values"];
    let mut names: Vec<String> = [SINGLE, EMBEDDED, DOUBLE]
        .iter()
        .flat_map(|title| rows(&text, title, &two))
        .map(|(_, cells)| registry_name(&plain(&cells[0])).to_string())
        .collect();
    names.extend(
        rows(&text, UNSAFE, &["Function", "Minimum Accuracy"])
            .into_iter()
            .map(|(_, cells)| registry_name(&plain(&cells[0])).to_string()),
    );
    let unknown: Vec<&String> = names
        .iter()
        .filter(|n| {
            !crate::spec::registry::FUNCTIONS
                .iter()
                .any(|f| f.name == **n)
        })
        .collect();
    assert!(unknown.is_empty(), "no registry function: {unknown:?}");
}

/// Table 5's derived formulas widen each operation by its Float32 cell from
/// [`crate::spec::table::builtin`] (the SPIR-V 2017 table): right for the OpenCL C path too,
/// since every Float32 cell reads the same in this chapter.
#[test]
fn float32_cells_are_the_spirv_ones() {
    for profile in Profile::ALL {
        let opencl_c = builtin_in(&OPENCL_C, NOW, profile);
        for row in &builtin(profile).rows {
            match opencl_c.row(&row.instruction) {
                Some(now) => assert_eq!(row.float32, now.float32, "{profile} {}", row.instruction),
                None => assert!(
                    profile == Profile::Embedded
                        && ["lgamma", "lgamma_r"].contains(&row.instruction.as_str()),
                    "{profile} {} has no OpenCL C row",
                    row.instruction
                ),
            }
        }
    }
}

#[test]
fn unsafe_math_file_matches_the_text() {
    let text = read(SPEC_OPENCL_C);
    let rows = rows(&text, UNSAFE, &["Function", "Minimum Accuracy"]);
    // Guards the extractor: 37 rows, two of them OpFDiv, as in the SPIR-V text.
    assert_eq!(rows.len(), 37);
    let mut order: Vec<String> = Vec::new();
    let mut words: Vec<(usize, String)> = Vec::new();
    for (line, cells) in &rows {
        let heading = plain(&cells[0]);
        // pow's footnote is a reference to text kept elsewhere in the specification.
        let cell = plain(&cells[1]).replace(" footnote:[{fn-pow-performance}]", "");
        let spoken = format!("{heading}: {cell}");
        let name = registry_name(&heading).to_string();
        if order.last() == Some(&name) {
            let last = words.last_mut().unwrap();
            last.1 = format!("{} | {spoken}", last.1);
        } else {
            order.push(name);
            words.push((*line, spoken));
        }
    }
    let table = relaxed_table::builtin_in(&OPENCL_C, NOW);
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

/// The chapter's unsafe-math table words each rule as the SPIR-V environment's does (headings
/// and a footnote apart), and the file reads each rule the same way: so the report's bound
/// columns and the judge read the same rule on either path.
#[test]
fn unsafe_math_rules_are_the_spirv_2026_ones() {
    let (spirv, opencl_c) = (
        relaxed_table::builtin_in(&OPENCL_SPIRV, NOW),
        relaxed_table::builtin_in(&OPENCL_C, NOW),
    );
    let names = |t: &relaxed_table::RelaxedTable| -> Vec<String> {
        t.rows.iter().map(|r| r.instruction.clone()).collect()
    };
    assert_eq!(names(spirv), names(opencl_c));
    for row in &opencl_c.rows {
        let same = spirv.row(&row.instruction).unwrap();
        for embedded in [false, true] {
            assert_eq!(
                row.float32.describe(embedded),
                same.float32.describe(embedded),
                "{}",
                row.instruction
            );
        }
    }
}

// ---- Edge cases ----

/// The code block delimiter of this chapter (`----------`) or the SPIR-V text (`----`).
fn is_fence(line: &str) -> bool {
    line.len() >= 4 && line.chars().all(|c| c == '-')
}

/// (line, bullet) for every `*` bullet of "Edge Case Behavior" (a code block after a bullet
/// joined onto it), plus the whole section as one line (code verbatim), for finding sources.
fn bullets() -> (Vec<(usize, String)>, String) {
    let text = read(SPEC_OPENCL_C);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == "== Edge Case Behavior")
        .expect("an Edge Case Behavior section");
    let mut bullets: Vec<(usize, String)> = Vec::new();
    let mut section = String::new();
    let (mut in_code, mut in_bullet) = (false, false);
    for (index, raw) in lines.iter().enumerate().skip(start + 1) {
        let line = raw.trim();
        if line.starts_with("= ") {
            break;
        }
        // A stray line in this copy of the text (grep's own message, pasted into the trunc
        // bullet when the copy was made); no part of the specification.
        if line == "Binary file (standard input) matches" {
            continue;
        }
        if is_fence(line) {
            in_code = !in_code;
            continue;
        }
        let content = if in_code {
            line.to_string()
        } else if matches!(line, "+" | "[source,opencl_c]" | "[none]") {
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
        if let Some(bullet) = line.strip_prefix("* ") {
            bullets.push((index + 1, plain(bullet)));
            in_bullet = true;
        } else if in_bullet {
            let last = bullets.last_mut().unwrap();
            last.1 = format!("{} {content}", last.1)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
        }
    }
    let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
    (bullets, section)
}

/// The function a bullet is about: its first word (`acospi(1) = +0.`, `length calculates`).
fn function_of(bullet: &str) -> &str {
    let end = bullet
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(bullet.len());
    &bullet[..end]
}

const NO_EXP10_ZERO: &str = "exp10( ±0 ) returns 1.";
const HALF_BASES: [&str; 12] = [
    "cos", "exp", "exp2", "exp10", "log", "log2", "log10", "powr", "rsqrt", "sin", "sqrt", "tan",
];

#[test]
fn edge_rules_match_the_text() {
    let (bullets, section) = bullets();
    let rules = edge_table::builtin_in(&OPENCL_C, NOW);
    // Guards the extractor: 80 bullets of "Additional Requirements" and 4 flush-to-zero ones
    // (the SPIR-V text has 81 and 4: it has exp10(±0) too).
    assert_eq!(bullets.len(), 84, "{bullets:#?}");
    let mut problems = Vec::new();
    for (line, text) in &bullets {
        let citing: Vec<&EdgeRule> = rules
            .iter()
            .filter(|r| r.source.split_whitespace().collect::<Vec<_>>().join(" ") == *text)
            .collect();
        let function = function_of(text);
        let fits = citing.iter().any(|r| r.function == function);
        if !fits {
            problems.push(format!("line {line} ({function}): no row cites \"{text}\""));
        }
    }
    for rule in rules.iter().filter(|r| !r.source.starts_with("C99 ")) {
        let source = rule.source.split_whitespace().collect::<Vec<_>>().join(" ");
        if !section.contains(&source) {
            problems.push(format!(
                "{}:{}: the source is not in the OpenCL C text: {source}",
                rule.file, rule.line
            ));
        }
    }
    let flush: Vec<&str> = rules
        .iter()
        .filter(|r| r.applies == Applies::FlushToZero)
        .map(|r| r.function.as_str())
        .collect();
    assert!(flush.iter().all(|f| *f == "nextafter"), "{flush:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The rules are the SPIR-V environment's 2026 ones, row for row (what each prescribes), but
/// for exp10(±0), which this chapter does not prescribe, and the half_ functions' rows, their
/// base functions' rows by the "half_<funcname>" paragraph.
#[test]
fn edge_rules_are_the_spirv_ones_but_for_the_texts_differences() {
    let spirv = edge_table::builtin_in(&OPENCL_SPIRV, NOW);
    let opencl_c = edge_table::builtin_in(&OPENCL_C, NOW);
    let key = |r: &EdgeRule| (r.function.clone(), r.applies, r.text.clone());
    let kept: Vec<&EdgeRule> = spirv.iter().filter(|r| r.source != NO_EXP10_ZERO).collect();
    assert_eq!(kept.len() + 1, spirv.len(), "one exp10(±0) row");
    let (same, half) = opencl_c.split_at(kept.len());
    for (was, is) in kept.iter().zip(same) {
        assert_eq!(key(was), key(is), "{}:{}", is.file, is.line);
        let c99 = |r: &EdgeRule| r.source.starts_with("C99 ");
        assert_eq!(c99(was), c99(is), "{}:{}", is.file, is.line);
        if c99(was) {
            assert_eq!(was.source, is.source, "{}:{}", is.file, is.line);
        }
    }
    let own_nan = |name: &str| {
        kept.iter()
            .any(|r| r.function == name && r.source == "C99 F.9 paragraph 11")
    };
    let expected: Vec<(String, Applies, String, String)> = HALF_BASES
        .iter()
        .flat_map(|base| {
            let half = format!("half_{base}");
            let skip_nan = own_nan(&half);
            kept.iter()
                .filter(move |r| r.function == *base)
                .filter(move |r| !(skip_nan && r.source == "C99 F.9 paragraph 11"))
                .map(move |r| (half.clone(), r.applies, r.text.clone(), r.source.clone()))
        })
        .map(|(f, a, t, s)| {
            // The base row's source, in this chapter's wording where it is an OpenCL one.
            let source = if s.starts_with("C99 ") {
                s
            } else {
                same.iter()
                    .zip(&kept)
                    .find(|(_, was)| was.source == s)
                    .map(|(is, _)| is.source.clone())
                    .unwrap()
            };
            (f, a, t, source)
        })
        .collect();
    let found: Vec<(String, Applies, String, String)> = half
        .iter()
        .map(|r| {
            (
                r.function.clone(),
                r.applies,
                r.text.clone(),
                r.source.clone(),
            )
        })
        .collect();
    assert_eq!(found, expected);
    assert_eq!(found.len(), 41);
}

/// The edge units a run plans on each path: the OpenCL C rules cover every function the SPIR-V
/// ones do, and half_powr (by the half_<funcname> paragraph; the SPIR-V rules give it none).
#[test]
fn edge_functions_are_the_spirv_ones_and_half_powr() {
    let spirv = edge_table::functions();
    assert_eq!(spirv, edge_table::functions_in(&OPENCL_SPIRV, NOW));
    let opencl_c = edge_table::functions_in(&OPENCL_C, NOW);
    let added: Vec<&str> = opencl_c
        .iter()
        .copied()
        .filter(|f| !spirv.contains(f))
        .collect();
    assert_eq!(added, ["half_powr"]);
    assert!(spirv.iter().all(|f| opencl_c.contains(f)));
}
