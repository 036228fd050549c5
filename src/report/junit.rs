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

use crate::report::{maxima, ErrorFigures, Kind, RunFacts, Status, UnitReport, WorstCase};
use std::fmt::Write as _;
use std::path::Path;

/// Writes [`render`]'s XML to `path`.
pub fn write(path: &Path, units: &[UnitReport], facts: &RunFacts) -> std::io::Result<()> {
    std::fs::write(path, render(units, facts))
}

/// The JUnit XML document for `units`, in their order within each kind's suite.
pub fn render(units: &[UnitReport], facts: &RunFacts) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let totals = Counts::of(units.iter());
    let _ = writeln!(xml, "<testsuites name=\"clacc\" {}>", totals.attributes());
    for kind in Kind::ALL {
        let members: Vec<&UnitReport> = units.iter().filter(|u| u.kind == kind).collect();
        if members.is_empty() {
            continue;
        }
        let counts = Counts::of(members.iter().copied());
        let _ = writeln!(
            xml,
            "  <testsuite name=\"clacc.{}\" {}>",
            kind.name(),
            counts.attributes()
        );
        write_properties(&mut xml, facts);
        for unit in members {
            write_testcase(&mut xml, unit, &ErrorFigures::of(unit, facts.spec));
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
    fn of<'a>(units: impl Iterator<Item = &'a UnitReport>) -> Counts {
        let mut counts = Counts {
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        };
        for unit in units {
            counts.tests += 1;
            match unit.status {
                Status::Pass => {}
                Status::Fail => counts.failures += 1,
                Status::Error | Status::Crash | Status::Timeout => counts.errors += 1,
                Status::Skip => counts.skipped += 1,
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

fn write_properties(xml: &mut String, facts: &RunFacts) {
    let properties = [
        ("seed", format!("{:#x}", facts.seed)),
        ("spec", facts.spec.name().to_string()),
        ("device", facts.device.clone()),
        ("driver_version", facts.driver_version.clone()),
        ("clacc_version", env!("CARGO_PKG_VERSION").to_string()),
        ("build_options", facts.build_options.clone()),
    ];
    xml.push_str("    <properties>\n");
    for (name, value) in properties {
        let _ = writeln!(
            xml,
            "      <property name=\"{name}\" value=\"{}\"/>",
            attribute(&value)
        );
    }
    xml.push_str("    </properties>\n");
}

fn write_testcase(xml: &mut String, unit: &UnitReport, figures: &ErrorFigures) {
    let _ = write!(
        xml,
        "    <testcase name=\"{}\" classname=\"clacc.{}.{}\"",
        attribute(&format!(
            "{} {} w{}",
            unit.function,
            unit.element.name(),
            unit.width
        )),
        unit.kind.name(),
        unit.profile.name(),
    );
    match unit.status {
        Status::Pass => {
            let _ = write!(
                xml,
                ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                text(&measured_line(unit, figures))
            );
        }
        Status::Fail => {
            let _ = write!(
                xml,
                ">\n      <failure message=\"{}\">{}</failure>\n      <system-out>{}</system-out>\n    </testcase>\n",
                attribute(&failure_message(unit, figures)),
                text(&failure_details(unit, figures)),
                text(&measured_line(unit, figures)),
            );
        }
        Status::Error | Status::Crash | Status::Timeout => {
            let _ = write!(
                xml,
                ">\n      <error type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                unit.status.name(),
                attribute(if unit.note.is_empty() {
                    unit.status.name()
                } else {
                    &unit.note
                })
            );
        }
        Status::Skip => {
            let _ = write!(
                xml,
                ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                attribute(&unit.note)
            );
        }
    }
}

/// One line for a measured unit: what a CSV row says about it, for CI pages that show output.
fn measured_line(unit: &UnitReport, figures: &ErrorFigures) -> String {
    let mut line = format!(
        "{} inputs, {} failures, {}",
        unit.stats.inputs,
        unit.stats.failures,
        maxima(unit, figures)
    );
    if !figures.bound_ulp.is_empty() {
        let _ = write!(line, ", bound {} ulp", figures.bound_ulp);
    }
    let _ = write!(line, " ({})", unit.rule_text());
    let allowed = unit.stats.allowances_text();
    if !allowed.is_empty() {
        let _ = write!(line, "; allowed {allowed}");
    }
    let note = figures.note(unit);
    if !note.is_empty() {
        let _ = write!(line, "; {note}");
    }
    line
}

/// The failure on one line: the counts, then the worst case.
fn failure_message(unit: &UnitReport, figures: &ErrorFigures) -> String {
    let mut message = format!(
        "{} of {} inputs fail ({}); {}",
        unit.stats.failures,
        unit.stats.inputs,
        unit.rule_text(),
        maxima(unit, figures)
    );
    if let Some(case) = &unit.stats.worst {
        let worst = WorstCase::of(case, unit);
        let _ = write!(
            message,
            "; worst input {}; device {} ({}); reference {} ({}); error {}",
            worst.inputs,
            worst.device_hex,
            worst.device_decimal,
            worst.reference_hex,
            worst.reference_decimal,
            worst.error
        );
    }
    message
}

/// The failure as the terminal summary lays it out, one fact per line, plus the note.
fn failure_details(unit: &UnitReport, figures: &ErrorFigures) -> String {
    let mut details = format!(
        "{} {} w{}: {} of {} inputs fail ({}); {}",
        unit.function,
        unit.element.name(),
        unit.width,
        unit.stats.failures,
        unit.stats.inputs,
        unit.rule_text(),
        maxima(unit, figures)
    );
    if let Some(case) = &unit.stats.worst {
        let worst = WorstCase::of(case, unit);
        let _ = write!(
            details,
            "\nworst input {}\ndevice    {} ({})\nreference {} ({})\nerror     {}",
            worst.inputs,
            worst.device_hex,
            worst.device_decimal,
            worst.reference_hex,
            worst.reference_decimal,
            worst.error
        );
    }
    let note = figures.note(unit);
    if !note.is_empty() {
        let _ = write!(details, "\nnote      {note}");
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
    use crate::num::hexfloat;
    use crate::report::stats::{Case, Outcome, UnitStats};
    use crate::spec::table::{Profile, Requirement};
    use rug::Float;

    fn unit(function: &str, kind: Kind, status: Status, note: &str) -> UnitReport {
        UnitReport {
            kind,
            function: function.into(),
            element: FloatType::Float,
            width: 1,
            profile: Profile::Full,
            requirement: Some(Requirement::Ulp(4.0)),
            rule: String::new(),
            relaxed: false,
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

    fn attribute_of<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
        node.attribute(name)
            .unwrap_or_else(|| panic!("{} has no {name}", node.tag_name().name()))
    }

    fn count(node: roxmltree::Node, name: &str) -> usize {
        attribute_of(node, name).parse().unwrap()
    }

    #[test]
    fn suites_per_kind_with_counts_and_one_testcase_per_unit() {
        let xml = render(&units(), &facts());
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
        }
    }

    #[test]
    fn a_failure_names_its_worst_case() {
        let xml = render(&units(), &facts());
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
            "(8.4147098480789651e-1)".to_string(),
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
        let xml = render(&units(), &facts());
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
        let xml = render(&[], &facts());
        let document = roxmltree::Document::parse(&xml).unwrap();
        let root = document.root_element();
        assert_eq!(count(root, "tests"), 0);
        assert_eq!(root.children().filter(|n| n.is_element()).count(), 0);
    }

    #[test]
    fn write_puts_the_document_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clacc.xml");
        write(&path, &units(), &facts()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            render(&units(), &facts())
        );
    }
}
