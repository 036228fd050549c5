//! `clacc spec-diff`: every cell that differs between the two revisions of the spec's text
//! (Tables 3 and 4 cell by cell, Table 5 rule by rule, the edge-case rules row by row), so a
//! vendor sees why a verdict changed with `--spec`.

use crate::num::fp::FloatType;
use crate::spec::table::{self, Profile, Revision};
use crate::spec::{edge_table, relaxed_table};

/// One difference: which table, profile, instruction and type, and the cell in each revision
/// (`-` where the revision has no such row).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub table: &'static str,
    pub profile: &'static str,
    pub instruction: String,
    pub element: &'static str,
    pub before: String,
    pub after: String,
}

/// Every difference between `before` and `after`, Tables 3 and 4 first, then Table 5, then
/// the edge-case rules.
pub fn differences(before: Revision, after: Revision) -> Vec<Difference> {
    let show =
        |r: &Option<table::Requirement>| r.as_ref().map_or("-".to_string(), |r| r.describe());
    let mut found: Vec<Difference> = table::changes(before, after)
        .into_iter()
        .map(|change| Difference {
            table: match change.profile {
                Profile::Full => "Table 3",
                Profile::Embedded => "Table 4",
            },
            profile: change.profile.name(),
            instruction: change.instruction.clone(),
            element: change.element.name(),
            before: show(&change.before),
            after: show(&change.after),
        })
        .collect();
    let (old, new) = (
        relaxed_table::builtin_in(before),
        relaxed_table::builtin_in(after),
    );
    for profile in Profile::ALL {
        let embedded = profile == Profile::Embedded;
        for row in &new.rows {
            let was = old
                .rule(&row.instruction, FloatType::Float)
                .map_or("-".to_string(), |r| r.describe(embedded));
            let is = row.float32.describe(embedded);
            if was != is {
                found.push(Difference {
                    table: "Table 5",
                    profile: profile.name(),
                    instruction: row.instruction.clone(),
                    element: FloatType::Float.name(),
                    before: was,
                    after: is,
                });
            }
        }
    }
    let (old, new) = (
        edge_table::builtin_in(before),
        edge_table::builtin_in(after),
    );
    // The 2026 file keeps the 2017 file's rows in the same order (test
    // `both_revisions_check_the_same_inputs`), so rows pair up.
    for (was, is) in old.iter().zip(new) {
        if was.text != is.text || was.source != is.source {
            found.push(Difference {
                table: "edge cases",
                profile: "all",
                instruction: is.function.clone(),
                element: "all",
                before: format!("{} [{}]", was.text, short(&was.source)),
                after: format!("{} [{}]", is.text, short(&is.source)),
            });
        }
    }
    found
}

/// A source sentence cut to its first words, so the edge rows stay readable in a table.
fn short(source: &str) -> String {
    const WORDS: usize = 6;
    let words: Vec<&str> = source.split_whitespace().collect();
    if words.len() <= WORDS {
        source.to_string()
    } else {
        format!("{} …", words[..WORDS].join(" "))
    }
}

/// The differences as aligned text columns, or as a Markdown table (`markdown`), for
/// docs/spec-revisions.md.
pub fn render(before: Revision, after: Revision, markdown: bool) -> String {
    let rows = differences(before, after);
    let header = [
        "table".to_string(),
        "profile".to_string(),
        "instruction".to_string(),
        "type".to_string(),
        before.name().to_string(),
        after.name().to_string(),
    ];
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|d| {
            [
                d.table.to_string(),
                d.profile.to_string(),
                d.instruction.clone(),
                d.element.to_string(),
                d.before.clone(),
                d.after.clone(),
            ]
        })
        .collect();
    let mut text = String::new();
    if markdown {
        text.push_str(&format!("| {} |\n", header.join(" | ")));
        text.push_str(&format!("|{}\n", "---|".repeat(header.len())));
        for row in &cells {
            let escaped: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
            text.push_str(&format!("| {} |\n", escaped.join(" | ")));
        }
    } else {
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                cells
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([header[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for row in std::iter::once(&header).chain(&cells) {
            let padded: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, width)| format!("{cell:<width$}"))
                .collect();
            text.push_str(padded.join("  ").trim_end());
            text.push('\n');
        }
    }
    text.push_str(&format!(
        "{} differences between the {} and the {} text\n",
        rows.len(),
        before,
        after
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_difference_is_listed() {
        let found = differences(Revision::Spec2017, Revision::Spec2026);
        let has = |table: &str, profile: &str, instruction: &str, element: &str| {
            found.iter().find(|d| {
                d.table == table
                    && d.profile == profile
                    && d.instruction == instruction
                    && d.element == element
            })
        };
        let sqrt = has("Table 3", "full", "sqrt", "half").expect("half sqrt");
        assert_eq!(
            (sqrt.before.as_str(), sqrt.after.as_str()),
            ("correctly rounded", "<= 1.5 ulp")
        );
        let div = has("Table 3", "full", "OpFDiv", "half").expect("half divide");
        assert_eq!(div.after, "<= 1 ulp");
        assert!(has("Table 3", "full", "tan", "half").is_some());
        let length = has("Table 3", "full", "length", "float").expect("a new row");
        assert_eq!(
            (length.before.as_str(), length.after.as_str()),
            ("-", "<= 2.75+0.5n ulp")
        );
        assert!(has("Table 4", "embedded", "degrees", "double").is_some());
        let atan2 = has("Table 5", "full", "atan2", "float").expect("atan2's non-derived bound");
        assert!(atan2.after.contains("8192"), "{}", atan2.after);
        let exp = has("Table 5", "embedded", "exp", "float").expect("embedded exp");
        assert!(exp.after.contains("floor"), "{}", exp.after);
        assert!(
            has("Table 5", "full", "exp", "float").is_none(),
            "full exp unchanged"
        );
        assert!(found
            .iter()
            .any(|d| d.table == "edge cases" && d.instruction.starts_with("fmax")));
        assert!(has("Table 3", "full", "sin", "float").is_none());
        assert!(differences(Revision::Spec2026, Revision::Spec2026).is_empty());
        let text = render(Revision::Spec2017, Revision::Spec2026, true);
        assert!(text.starts_with("| table | profile | instruction | type | 2017 | 2026 |\n"));
        assert!(text.contains("| Table 3 | full | sqrt | half | correctly rounded | <= 1.5 ulp |"));
    }
}
