//! The run as JUnit XML, for CI systems that show test reports: one `<testsuite>` per kind of
//! check (`clacc.ulp`, `clacc.edge`, ...), one `<testcase>` per unit (per CSV row).
//!
//! A failed unit carries its worst case in the failure message (inputs in hex and decimal, the
//! device's result, the reference, the error in ulp, the rule): the facts the terminal summary
//! prints. Errored and skipped units carry their note. The run's facts (seed, device, driver
//! and clacc versions) are each suite's properties.
//!
//! The XML is written by hand: the format is a few fixed elements, and every piece of text from
//! outside (device names, notes, driver build logs) goes through [`escape`], which also keeps
//! line breaks inside attributes and replaces the characters XML 1.0 cannot carry at all.

use crate::num::hexfloat;
use crate::report::merge::Row;
use crate::report::Kind;
use std::fmt::Write as _;
use std::path::Path;

/// Writes [`render`]'s XML to `path`.
pub fn write(path: &Path, rows: &[Row]) -> std::io::Result<()> {
    std::fs::write(path, render(rows))
}

/// The JUnit XML document for a CSV's `rows` (every unit of the run, those an earlier
/// invocation wrote before `--resume` too), in their order within each kind's suite.
pub fn render(rows: &[Row]) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let totals = Counts::of(rows.iter());
    // A run through both kernel paths holds each unit twice: the names tell them apart.
    let mut paths: Vec<&str> = Vec::new();
    for row in rows {
        if !paths.contains(&row.get("path")) {
            paths.push(row.get("path"));
        }
    }
    let both = paths.len() > 1;
    let _ = writeln!(xml, "<testsuites name=\"clacc\" {}>", totals.attributes());
    for kind in Kind::ALL {
        let members: Vec<&Row> = rows
            .iter()
            .filter(|r| r.get("kind") == kind.name())
            .collect();
        let Some(first) = members.first() else {
            continue;
        };
        let counts = Counts::of(members.iter().copied());
        let _ = writeln!(
            xml,
            "  <testsuite name=\"clacc.{}\" {}>",
            kind.name(),
            counts.attributes()
        );
        write_properties(&mut xml, first, &paths.join(" "));
        for row in members {
            write_testcase(&mut xml, row, both);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// The counts a `<testsuite>` or `<testsuites>` element states.
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Counts {
    fn of<'a>(rows: impl Iterator<Item = &'a Row>) -> Counts {
        let mut counts = Counts {
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        };
        for row in rows {
            counts.tests += 1;
            match row.get("status") {
                "pass" => {}
                "fail" => counts.failures += 1,
                "skip" => counts.skipped += 1,
                // error, crash, timeout
                _ => counts.errors += 1,
            }
        }
        counts
    }

    fn attributes(&self) -> String {
        format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
            self.tests, self.failures, self.errors, self.skipped
        )
    }
}

/// The run's columns, which every row of one run holds alike, and its kernel `paths`.
fn write_properties(xml: &mut String, row: &Row, paths: &str) {
    xml.push_str("    <properties>\n");
    for name in [
        "seed",
        "spec",
        "device",
        "driver_version",
        "clacc_version",
        "shard",
        "requested_inputs",
        "options",
    ] {
        let _ = writeln!(
            xml,
            "      <property name=\"{name}\" value=\"{}\"/>",
            attribute(row.get(name))
        );
    }
    let _ = writeln!(
        xml,
        "      <property name=\"path\" value=\"{}\"/>",
        attribute(paths)
    );
    xml.push_str("    </properties>\n");
}

/// `sin float w4`, with the build options where the run gave some (a certification holds
/// float divide both with and without -cl-fp32-correctly-rounded-divide-sqrt), and the kernel
/// path where the rows hold `both` (`sin float w4 (opencl-c)`).
fn testcase_name(row: &Row, both: bool) -> String {
    let mut name = format!(
        "{} {} w{}",
        row.get("function"),
        row.get("type"),
        row.get("width")
    );
    if !row.get("build_options").is_empty() {
        let _ = write!(name, " [{}]", row.get("build_options"));
    }
    if both {
        let _ = write!(name, " ({})", row.get("path"));
    }
    name
}

fn write_testcase(xml: &mut String, row: &Row, both: bool) {
    let _ = write!(
        xml,
        "    <testcase name=\"{}\" classname=\"clacc.{}.{}\"",
        attribute(&testcase_name(row, both)),
        row.get("kind"),
        row.get("profile"),
    );
    let note = row.get("note");
    match row.get("status") {
        "pass" => {
            let _ = write!(
                xml,
                ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                text(&measured_line(row))
            );
        }
        "fail" => {
            let _ = write!(
                xml,
                ">\n      <failure message=\"{}\">{}</failure>\n      <system-out>{}</system-out>\n    </testcase>\n",
                attribute(&failure_message(row)),
                text(&failure_details(row, both)),
                text(&measured_line(row)),
            );
        }
        "skip" => {
            let _ = write!(
                xml,
                ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                attribute(note)
            );
        }
        status => {
            let _ = write!(
                xml,
                ">\n      <error type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                attribute(status),
                attribute(if note.is_empty() { status } else { note })
            );
        }
    }
}

/// The row's largest errors: `max 6 ulp`, `max absolute error 1.2e-4`, or both (Table 5's
/// log judges some inputs by each).
fn maxima(row: &Row) -> String {
    let mut parts = Vec::new();
    if !row.get("max_ulp").is_empty() {
        parts.push(format!("max {} ulp", row.get("max_ulp")));
    }
    if !row.get("max_abs_error").is_empty() {
        parts.push(format!("max absolute error {}", row.get("max_abs_error")));
    }
    if parts.is_empty() {
        parts.push("no error measured".to_string());
    }
    parts.join(", ")
}

/// One line for a measured unit: what its CSV row says, for CI pages that show output.
fn measured_line(row: &Row) -> String {
    let mut line = format!(
        "{} inputs, {} failures, {}",
        row.get("inputs"),
        row.get("failures"),
        maxima(row)
    );
    if !row.get("bound_ulp").is_empty() {
        let _ = write!(line, ", bound {} ulp", row.get("bound_ulp"));
    }
    let _ = write!(line, " ({})", row.get("rule"));
    if !row.get("allowed").is_empty() {
        let _ = write!(line, "; allowed {}", row.get("allowed"));
    }
    if !row.get("note").is_empty() {
        let _ = write!(line, "; {}", row.get("note"));
    }
    line
}

/// The hex values of a worst-case column (space-separated) each with its decimal value:
/// `0x1p+0 (1e0)`; integers (an integer output) stay as they are.
fn with_decimals(values: &str) -> String {
    values
        .split_whitespace()
        .map(|value| match hexfloat::parse(value) {
            Some(number) if value.contains("0x") => format!("{value} ({number:e})"),
            _ => value.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The worst case's facts, each `name value`, as the failure message and details give them.
fn worst_case(row: &Row) -> Option<[(&'static str, String); 4]> {
    if row.get("worst_input").is_empty() {
        return None;
    }
    Some([
        ("worst input", with_decimals(row.get("worst_input"))),
        ("device", with_decimals(row.get("worst_device"))),
        ("reference", with_decimals(row.get("worst_reference"))),
        (
            "error",
            // Only a row no ULP piece judged has an absolute worst case (a case judged in
            // ulp outranks every absolute one).
            if row.get("max_ulp").is_empty() && !row.get("max_abs_error").is_empty() {
                format!("{} (absolute)", row.get("worst_ulp"))
            } else {
                format!("{} ulp", row.get("worst_ulp"))
            },
        ),
    ])
}

/// The counts and the rule, as the terminal summary states them.
fn headline(row: &Row) -> String {
    format!(
        "{} of {} inputs fail ({}); {}",
        row.get("failures"),
        row.get("inputs"),
        row.get("rule"),
        maxima(row)
    )
}

/// The failure on one line: the counts, then the worst case.
fn failure_message(row: &Row) -> String {
    let mut message = headline(row);
    for (name, value) in worst_case(row).into_iter().flatten() {
        let _ = write!(message, "; {name} {value}");
    }
    message
}

/// The failure as the terminal summary lays it out, one fact per line, plus the note.
fn failure_details(row: &Row, both: bool) -> String {
    let mut details = format!("{}: {}", testcase_name(row, both), headline(row));
    for (name, value) in worst_case(row).into_iter().flatten() {
        let _ = write!(details, "\n{name:<9} {value}");
    }
    if !row.get("note").is_empty() {
        let _ = write!(details, "\n{:<9} {}", "note", row.get("note"));
    }
    details
}

/// Whether XML 1.0 can carry `c` at all (its `Char` production).
fn is_xml_char(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r'
        | '\u{20}'..='\u{D7FF}'
        | '\u{E000}'..='\u{FFFD}'
        | '\u{10000}'..='\u{10FFFF}')
}

/// `value` escaped for an attribute in double quotes: markup characters as entities, line
/// breaks and tabs as character references (a parser would turn them into spaces otherwise),
/// characters XML cannot carry as U+FFFD.
fn attribute(value: &str) -> String {
    escape(value, true)
}

/// `value` escaped for element content: markup characters as entities, line breaks kept.
fn text(value: &str) -> String {
    escape(value, false)
}

fn escape(value: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // A bare CR would be read back as LF; tabs and LFs in attributes as spaces.
            '\r' => out.push_str("&#13;"),
            '\n' | '\t' if in_attribute => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;
    use crate::report::stats::{Case, Outcome, UnitStats};
    use crate::report::{csv_record, Provenance, RunFacts, Status, UnitReport};
    use crate::spec::table::{Judging, Profile, Requirement};
    use rug::Float;

    fn unit(function: &str, kind: Kind, status: Status, note: &str) -> UnitReport {
        UnitReport {
            kind,
            function: function.into(),
            element: FloatType::Float,
            width: 1,
            judging: Judging::Table(Profile::Full),
            requirement: Some(Requirement::Ulp(4.0)),
            rule: String::new(),
            integer_outputs: vec![false],
            stats: UnitStats {
                inputs: 100,
                max_error: 0.5,
                ..UnitStats::default()
            },
            status,
            note: note.into(),
        }
    }

    /// sin(1.0) answered 6 ulp away from the reference.
    fn failing_sin() -> UnitReport {
        let x = 1.0f64;
        let exact = Float::with_val(200, x).sin();
        let device = f64::from(f32::from_bits((x.sin() as f32).to_bits() + 6));
        let mut report = unit("sin", Kind::Ulp, Status::Fail, "");
        report.width = 4;
        report.stats.failures = 3;
        report.stats.max_error = 6.0;
        report.stats.worst = Some(Case {
            index: 17,
            args: vec![x],
            device_results: vec![device],
            references: vec![exact],
            error: 6.0,
            absolute: false,
            outcome: Outcome::Fail,
            output: 0,
            lanes: Vec::new(),
        });
        report
    }

    const NASTY: &str = "driver said: \"<error> & 'nope'\"\nline two\r\n\ttab \u{1} ]]> end";

    fn facts() -> RunFacts {
        RunFacts {
            command: "clacc".into(),
            seed: 0xc1acc0,
            device: "Intel(R) <CPU> & \"friends\"".into(),
            driver_version: "2024.18.6.0.02_160000".into(),
            build_options: String::new(),
            spec: crate::spec::table::Revision::Spec2026,
            path: crate::spec::environment::KernelPath::Spirv,
        }
    }

    fn units() -> Vec<UnitReport> {
        vec![
            unit("cos", Kind::Ulp, Status::Pass, ""),
            failing_sin(),
            unit("tan", Kind::Ulp, Status::Error, NASTY),
            unit("half_exp", Kind::Ulp, Status::Skip, "no half & no <double>"),
            unit("exp", Kind::Ulp, Status::Crash, "worker died: SIGSEGV"),
            unit("sin", Kind::Edge, Status::Pass, ""),
            unit("cos", Kind::Edge, Status::Skip, "device lacks fp64"),
        ]
    }

    /// The units' CSV rows, as a run writes them.
    fn rows() -> Vec<Row> {
        let provenance = Provenance {
            shard: "0/1".into(),
            requested_inputs: 100,
            options: "exhaustive=no cases=sweep kernels=clacc device_only=no".into(),
            planned_units: 7,
        };
        units()
            .iter()
            .map(|unit| Row::from_fields(csv_record(unit, &facts(), &provenance).to_vec()))
            .collect()
    }

    fn attribute_of<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
        node.attribute(name)
            .unwrap_or_else(|| panic!("{} has no {name}", node.tag_name().name()))
    }

    fn count(node: roxmltree::Node, name: &str) -> usize {
        attribute_of(node, name).parse().unwrap()
    }

    #[test]
    fn suites_per_kind_with_counts_and_one_testcase_per_unit() {
        let xml = render(&rows());
        let document = roxmltree::Document::parse(&xml).unwrap();
        let root = document.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!((count(root, "tests"), count(root, "failures")), (7, 1));
        assert_eq!((count(root, "errors"), count(root, "skipped")), (2, 2));
        let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
        let names: Vec<&str> = suites.iter().map(|s| attribute_of(*s, "name")).collect();
        assert_eq!(names, ["clacc.ulp", "clacc.edge"]);
        let ulp = suites[0];
        assert_eq!(
            [
                count(ulp, "tests"),
                count(ulp, "failures"),
                count(ulp, "errors"),
                count(ulp, "skipped")
            ],
            [5, 1, 2, 1]
        );
        let edge = suites[1];
        assert_eq!(
            [
                count(edge, "tests"),
                count(edge, "failures"),
                count(edge, "errors"),
                count(edge, "skipped")
            ],
            [2, 0, 0, 1]
        );
        let cases: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 7);
        let labels: Vec<(&str, &str)> = cases
            .iter()
            .map(|c| (attribute_of(*c, "name"), attribute_of(*c, "classname")))
            .collect();
        assert_eq!(
            labels,
            [
                ("cos float w1", "clacc.ulp.full"),
                ("sin float w4", "clacc.ulp.full"),
                ("tan float w1", "clacc.ulp.full"),
                ("half_exp float w1", "clacc.ulp.full"),
                ("exp float w1", "clacc.ulp.full"),
                ("sin float w1", "clacc.edge.full"),
                ("cos float w1", "clacc.edge.full"),
            ]
        );
        // Each suite names the run.
        for suite in suites {
            let properties: Vec<(&str, &str)> = suite
                .descendants()
                .filter(|n| n.has_tag_name("property"))
                .map(|p| (attribute_of(p, "name"), attribute_of(p, "value")))
                .collect();
            assert!(properties.contains(&("seed", "0xc1acc0")));
            assert!(properties.contains(&("spec", "2026")));
            assert!(properties.contains(&("device", "Intel(R) <CPU> & \"friends\"")));
            assert!(properties.contains(&("driver_version", "2024.18.6.0.02_160000")));
            assert!(properties.contains(&("clacc_version", env!("CARGO_PKG_VERSION"))));
            assert!(properties.contains(&("path", "spirv")));
        }
    }

    #[test]
    fn testcases_name_their_path_where_both_paths_are_present() {
        let mut both = rows();
        let spirv = both.len();
        let opencl_c: Vec<Row> = rows()
            .into_iter()
            .map(|row| {
                let mut fields = row.fields().to_vec();
                *fields.last_mut().unwrap() = "opencl-c".to_string();
                Row::from_fields(fields)
            })
            .collect();
        both.extend(opencl_c);
        let xml = render(&both);
        let document = roxmltree::Document::parse(&xml).unwrap();
        let cases: Vec<(&str, &str)> = document
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|c| (attribute_of(c, "name"), attribute_of(c, "classname")))
            .collect();
        assert_eq!(cases.len(), 2 * spirv);
        assert_eq!(cases[0], ("cos float w1 (spirv)", "clacc.ulp.full"));
        assert!(
            cases.contains(&("cos float w1 (opencl-c)", "clacc.ulp.full")),
            "{cases:?}"
        );
        // Every test case is named once.
        let unique: std::collections::HashSet<&(&str, &str)> = cases.iter().collect();
        assert_eq!(unique.len(), cases.len(), "{cases:?}");
        let failure = document
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert!(failure
            .text()
            .unwrap()
            .starts_with("sin float w4 (spirv): "));
        let property = document
            .descendants()
            .find(|n| n.has_tag_name("property") && attribute_of(*n, "name") == "path")
            .unwrap();
        assert_eq!(attribute_of(property, "value"), "spirv opencl-c");
    }

    #[test]
    fn a_failure_names_its_worst_case() {
        let xml = render(&rows());
        let document = roxmltree::Document::parse(&xml).unwrap();
        let failures: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("failure"))
            .collect();
        assert_eq!(failures.len(), 1);
        let failure = failures[0];
        assert_eq!(
            attribute_of(failure.parent().unwrap(), "name"),
            "sin float w4"
        );
        let message = attribute_of(failure, "message");
        let device = f64::from(f32::from_bits((1f64.sin() as f32).to_bits() + 6));
        for fact in [
            "3 of 100 inputs fail (<= 4 ulp)".to_string(),
            "max 6 ulp".to_string(),
            "worst input 0x1p+0 (1e0)".to_string(),
            format!("device {} ({device:e})", hexfloat::format_f64(device)),
            // The reference at 2 * 24 + 10 bits, and its decimal value.
            "reference 0x1.aed548f090cee08p-1".to_string(),
            format!("({:e})", hexfloat::parse("0x1.aed548f090cee08p-1").unwrap()),
            "error 6 ulp".to_string(),
        ] {
            assert!(message.contains(&fact), "{fact:?} not in {message:?}");
        }
        assert!(!message.contains('\n'));
        let details = failure.text().unwrap();
        assert!(details.starts_with("sin float w4: 3 of 100 inputs fail"));
        assert!(details.contains("\nerror     6 ulp"), "{details}");
        // No other unit has a failure, and passing units carry no verdict element.
        let pass = document
            .descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("cos float w1"))
            .unwrap();
        assert!(pass
            .children()
            .all(|n| !n.has_tag_name("failure") && !n.has_tag_name("skipped")));
    }

    #[test]
    fn notes_are_escaped_and_read_back_intact() {
        let xml = render(&rows());
        let document = roxmltree::Document::parse(&xml).unwrap();
        let errors: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("error"))
            .collect();
        assert_eq!(errors.len(), 2);
        let (error, crash) = (errors[0], errors[1]);
        assert_eq!(attribute_of(error, "type"), "error");
        assert_eq!(attribute_of(crash, "type"), "crash");
        assert_eq!(attribute_of(crash, "message"), "worker died: SIGSEGV");
        // Everything XML can carry reads back exactly (line breaks and tabs included); the
        // control character it cannot carry becomes U+FFFD.
        assert_eq!(
            attribute_of(error, "message"),
            NASTY.replace('\u{1}', "\u{FFFD}")
        );
        let skipped: Vec<&str> = document
            .descendants()
            .filter(|n| n.has_tag_name("skipped"))
            .map(|n| attribute_of(n, "message"))
            .collect();
        assert_eq!(skipped, ["no half & no <double>", "device lacks fp64"]);
        assert!(!xml.contains("<double>"));
        assert!(!xml.contains('\u{1}'));
    }

    #[test]
    fn an_empty_run_is_a_valid_document() {
        let xml = render(&[]);
        let document = roxmltree::Document::parse(&xml).unwrap();
        let root = document.root_element();
        assert_eq!(count(root, "tests"), 0);
        assert_eq!(root.children().filter(|n| n.is_element()).count(), 0);
    }

    #[test]
    fn write_puts_the_document_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clacc.xml");
        write(&path, &rows()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), render(&rows()));
    }
}
