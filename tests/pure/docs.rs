//! The documentation follows the code: every flag clacc takes is named in README.md, every
//! CSV column once in docs/csv-columns.md, and every relative link of README.md and docs/ leads
//! to a file that exists. Pure: reads the sources and clap's definition, runs nothing.

mod common;
use common::files_with_extension;
use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap()
}

/// Every long flag of every command a user runs (hidden commands and flags left out).
fn flags(command: &clap::Command, flags: &mut BTreeSet<String>) {
    for arg in command.get_arguments() {
        if let (Some(long), false) = (arg.get_long(), arg.is_hide_set()) {
            flags.insert(format!("--{long}"));
        }
    }
    for sub in command.get_subcommands() {
        if !sub.is_hide_set() {
            self::flags(sub, flags);
        }
    }
}

/// Whether `text` names `flag` whole (`--input` is not named by `--input-file`).
fn names(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        let next = text[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

#[test]
fn every_flag_is_named_in_the_readme() {
    let mut all = BTreeSet::new();
    flags(&clacc::face::args::Cli::command(), &mut all);
    let readme = read("README.md");
    let missing: Vec<&String> = all.iter().filter(|flag| !names(&readme, flag)).collect();
    assert!(
        missing.is_empty(),
        "README.md does not describe {missing:?}"
    );
    assert!(all.len() > 30, "clap's definition went missing: {all:?}");
}

#[test]
fn the_run_options_table_has_one_row_per_flag() {
    let readme = read("README.md");
    let mut seen = BTreeSet::new();
    for line in readme.lines().filter(|l| l.starts_with("| `--")) {
        let flag: String = line[3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-')
            .collect();
        assert!(
            seen.insert(flag.clone()),
            "README.md has two rows for {flag}"
        );
    }
    assert!(
        seen.len() > 20,
        "the run options table went missing: {seen:?}"
    );
}

#[test]
fn every_csv_column_is_described_once_and_only_they() {
    let text = read("docs/csv-columns.md");
    let mut described = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let name: String = line[3..].chars().take_while(|c| *c != '`').collect();
        described.push(name);
    }
    let set: BTreeSet<&str> = described.iter().map(String::as_str).collect();
    assert_eq!(
        set.len(),
        described.len(),
        "a column described twice: {described:?}"
    );
    let columns: BTreeSet<&str> = clacc::report::COLUMNS.into_iter().collect();
    assert_eq!(set, columns, "docs/csv-columns.md against report::COLUMNS");
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let mut files = vec![
        root().join("README.md"),
        root().join("tables/README.md"),
        root().join("kernels/README.md"),
    ];
    files_with_extension(&root().join("docs"), "md", &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (start, _) in text.match_indices("](") {
            let target: String = text[start + 2..]
                .chars()
                .take_while(|c| *c != ')' && *c != '#')
                .collect();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !file.parent().unwrap().join(&target).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
