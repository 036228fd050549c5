//! `clacc spec-diff`: every cell that differs between two texts that judge: the two revisions
//! of the SPIR-V environment's text (Tables 3 and 4 cell by cell, Table 5 rule by rule, the
//! edge-case rules row by row), so a vendor sees why a verdict changed with `--spec`; or the
//! texts of two kernel paths (the OpenCL SPIR-V environment's and the OpenCL C chapter's, both
//! today's), so a vendor sees why the same function is judged differently by `--source`.

use crate::num::fp::FloatType;
use crate::spec::environment::KernelPath;
use crate::spec::table::{self, Profile, Revision};
use crate::spec::{edge_table, relaxed_table};

/// One text that judges: the kernel path whose environment holds it, and its revision.
pub type Text = (KernelPath, Revision);

/// One difference: which table, profile, instruction and type, and the cell in each text
/// (`-` where the text has no such row).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub table: &'static str,
    pub profile: &'static str,
    pub instruction: String,
    pub element: &'static str,
    pub before: String,
    pub after: String,
}

/// The two texts `clacc spec-diff --from FROM --to TO` compares: one path's oldest and newest
/// revision when the paths are the same, else both paths' newest text. `Err` names why there
/// is nothing to compare (a path whose environment holds one text, compared with itself).
pub fn texts(from: KernelPath, to: KernelPath) -> Result<(Text, Text), String> {
    let newest = |path: KernelPath| *path.environment().revisions().last().unwrap();
    if from != to {
        return Ok(((from, newest(from)), (to, newest(to))));
    }
    let revisions = from.environment().revisions();
    match revisions.as_slice() {
        [first, .., last] => Ok(((from, *first), (to, *last))),
        _ => Err(format!(
            "the {} environment holds one text ({}), so --from {from} --to {to} compares \
             nothing: name another path (--from spirv --to {to})",
            from.environment().name,
            from.environment().revision_names()
        )),
    }
}

/// How a text is named in the header: its revision between revisions of one path, its path
/// and revision between paths.
fn label(text: Text, other: Text) -> String {
    if text.0 == other.0 {
        text.1.name().to_string()
    } else {
        format!("{} {}", text.0, text.1)
    }
}

/// Every difference between `before` and `after`, Tables 3 and 4 first, then Table 5, then
/// the edge-case rules. Between two paths the tables are named by what they hold (the OpenCL
/// C chapter numbers none): `full`/`embedded` ULP tables and `unsafe math`.
pub fn differences(before: Text, after: Text) -> Vec<Difference> {
    let numbered = before.0 == KernelPath::Spirv && after.0 == KernelPath::Spirv;
    let name = |numbered_name: &'static str, plain: &'static str| {
        if numbered {
            numbered_name
        } else {
            plain
        }
    };
    let (old_env, new_env) = (before.0.environment(), after.0.environment());
    let show =
        |r: &Option<table::Requirement>| r.as_ref().map_or("-".to_string(), |r| r.describe());
    let mut found: Vec<Difference> = table::changes((old_env, before.1), (new_env, after.1))
        .into_iter()
        .map(|change| Difference {
            table: match change.profile {
                Profile::Full => name("Table 3", "ULP"),
                Profile::Embedded => name("Table 4", "ULP"),
            },
            profile: change.profile.name(),
            instruction: change.instruction.clone(),
            element: change.element.name(),
            before: show(&change.before),
            after: show(&change.after),
        })
        .collect();
    let (old, new) = (
        relaxed_table::builtin_in(old_env, before.1),
        relaxed_table::builtin_in(new_env, after.1),
    );
    for profile in Profile::ALL {
        let embedded = profile == Profile::Embedded;
        let dropped = old
            .rows
            .iter()
            .filter(|r| new.row(&r.instruction).is_none());
        for row in new.rows.iter().chain(dropped) {
            let describe = |table: &relaxed_table::RelaxedTable| {
                table
                    .rule(&row.instruction, FloatType::Float)
                    .map_or("-".to_string(), |r| r.describe(embedded))
            };
            let (was, is) = (describe(old), describe(new));
            if was != is {
                found.push(Difference {
                    table: name("Table 5", "unsafe math"),
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
        edge_table::builtin_in(old_env, before.1),
        edge_table::builtin_in(new_env, after.1),
    );
    let edge = |function: &str, before: String, after: String| Difference {
        table: "edge cases",
        profile: "all",
        instruction: function.to_string(),
        element: "all",
        before,
        after,
    };
    if before.0 == after.0 {
        // The 2026 file keeps the 2017 file's rows in the same order (test
        // `both_revisions_check_the_same_inputs`), so rows pair up.
        for (was, is) in old.iter().zip(new) {
            if was.text != is.text || was.source != is.source {
                found.push(edge(
                    &is.function,
                    format!("{} [{}]", was.text, short(&was.source)),
                    format!("{} [{}]", is.text, short(&is.source)),
                ));
            }
        }
    } else {
        // Two chapters word their sentences each in its own way (spacing, `inf` or `∞`), so
        // rules pair up by what they prescribe; a rule only one text gives is listed.
        let rule = |r: &edge_table::EdgeRule| format!("{} [{}]", r.text, short(&r.source));
        let holds = |rules: &[edge_table::EdgeRule], r: &edge_table::EdgeRule| {
            rules
                .iter()
                .any(|other| other.function == r.function && other.text == r.text)
        };
        for was in old.iter().filter(|r| !holds(new, r)) {
            found.push(edge(&was.function, rule(was), "-".to_string()));
        }
        for is in new.iter().filter(|r| !holds(old, r)) {
            found.push(edge(&is.function, "-".to_string(), rule(is)));
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
pub fn render(before: Text, after: Text, markdown: bool) -> String {
    let rows = differences(before, after);
    let header = [
        "table".to_string(),
        "profile".to_string(),
        "instruction".to_string(),
        "type".to_string(),
        label(before, after),
        label(after, before),
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
        label(before, after),
        label(after, before)
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPIRV_2017: Text = (KernelPath::Spirv, Revision::Spec2017);
    const SPIRV_2026: Text = (KernelPath::Spirv, Revision::Spec2026);
    const OPENCL_C_2026: Text = (KernelPath::OpenclC, Revision::Spec2026);

    /// What reading the two texts side by side finds (docs/spec-revisions.md lists it):
    /// the OpenCL C chapter gives double precision one table for both profiles (so the
    /// embedded Float64 cells are the full ones), lists no Float64 or Float16 lgamma, lgamma_r
    /// and no embedded lgamma, lgamma_r at all, leaves Float64 and Float16 mad
    /// implementation-defined ("Any value allowed" for Float64), rewords no unsafe-math rule,
    /// has no exp10(±0) bullet and gives the half_ functions their base's edge cases.
    #[test]
    fn paths_differ_where_the_texts_do() {
        let found = differences(SPIRV_2026, OPENCL_C_2026);
        let cells: Vec<(&str, &str, &str, &str, &str, &str)> = found
            .iter()
            .filter(|d| d.table != "edge cases")
            .map(|d| {
                (
                    d.table,
                    d.profile,
                    d.instruction.as_str(),
                    d.element,
                    d.before.as_str(),
                    d.after.as_str(),
                )
            })
            .collect();
        let (none, id, fma) = (
            "-",
            "implementation-defined",
            "correctly rounded fma or mul+add",
        );
        let expected = [
            ("ULP", "full", "lgamma", "double", id, none),
            ("ULP", "full", "lgamma", "half", id, none),
            ("ULP", "full", "lgamma_r", "double", id, none),
            ("ULP", "full", "lgamma_r", "half", id, none),
            ("ULP", "full", "mad", "double", fma, id),
            ("ULP", "full", "mad", "half", fma, id),
            (
                "ULP",
                "embedded",
                "OpFDiv",
                "double",
                "<= 3 ulp",
                "correctly rounded",
            ),
            ("ULP", "embedded", "cbrt", "double", "<= 4 ulp", "<= 2 ulp"),
            (
                "ULP",
                "embedded",
                "cross",
                "double",
                id,
                "abs <= max*max*3*FLT_EPSILON",
            ),
            ("ULP", "embedded", "distance", "double", id, "<= 5.5+2n ulp"),
            (
                "ULP",
                "embedded",
                "OpDot",
                "double",
                id,
                "abs <= max*max*(2n-1)*FLT_EPSILON",
            ),
            ("ULP", "embedded", "exp", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "exp2", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "exp10", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "expm1", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "length", "double", id, "<= 5.5+n ulp"),
            ("ULP", "embedded", "log", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "log2", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "log10", "double", "<= 4 ulp", "<= 3 ulp"),
            ("ULP", "embedded", "log1p", "double", "<= 4 ulp", "<= 2 ulp"),
            ("ULP", "embedded", "normalize", "double", id, "<= 4.5+n ulp"),
            ("ULP", "embedded", "rsqrt", "double", "<= 4 ulp", "<= 2 ulp"),
            (
                "ULP",
                "embedded",
                "sqrt",
                "double",
                "<= 4 ulp",
                "correctly rounded",
            ),
            ("ULP", "embedded", "lgamma", "double", id, none),
            ("ULP", "embedded", "lgamma", "float", id, none),
            ("ULP", "embedded", "lgamma", "half", id, none),
            ("ULP", "embedded", "lgamma_r", "double", id, none),
            ("ULP", "embedded", "lgamma_r", "float", id, none),
            ("ULP", "embedded", "lgamma_r", "half", id, none),
        ];
        assert_eq!(cells, expected);
        let edge: Vec<&Difference> = found.iter().filter(|d| d.table == "edge cases").collect();
        let dropped: Vec<&str> = edge
            .iter()
            .filter(|d| d.after == "-")
            .map(|d| d.before.as_str())
            .collect();
        assert_eq!(dropped, ["±0 -> 1 [exp10( ±0 ) returns 1.]"]);
        let added: Vec<&&Difference> = edge.iter().filter(|d| d.before == "-").collect();
        assert_eq!(added.len(), 41);
        assert!(added.iter().all(|d| d.instruction.starts_with("half_")));
        assert_eq!(edge.len(), 42);
        let text = render(SPIRV_2026, OPENCL_C_2026, false);
        assert!(
            text.ends_with("71 differences between the spirv 2026 and the opencl-c 2026 text\n")
        );
        assert_eq!(
            texts(KernelPath::Spirv, KernelPath::OpenclC),
            Ok((SPIRV_2026, OPENCL_C_2026))
        );
        assert_eq!(
            texts(KernelPath::Spirv, KernelPath::Spirv),
            Ok((SPIRV_2017, SPIRV_2026))
        );
        assert!(texts(KernelPath::OpenclC, KernelPath::OpenclC)
            .unwrap_err()
            .contains("holds one text (2026)"));
    }

    #[test]
    fn every_kind_of_difference_is_listed() {
        let found = differences(SPIRV_2017, SPIRV_2026);
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
        assert!(differences(SPIRV_2026, SPIRV_2026).is_empty());
        let text = render(SPIRV_2017, SPIRV_2026, true);
        assert!(text.starts_with("| table | profile | instruction | type | 2017 | 2026 |\n"));
        assert!(text.contains("| Table 3 | full | sqrt | half | correctly rounded | <= 1.5 ulp |"));
    }
}
