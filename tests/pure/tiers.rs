//! The test tiers, kept: a unit test that opens a device, itself or through the helpers it
//! calls, lives in an `on_device` module compiled only with the `device-tests` feature (so the
//! pure tier, built without it, cannot run it), and a test in such a module does open one (so
//! the device tier runs nothing the pure tier could). The integration targets that drive a
//! device (`device_*`, `e2e_*`) require the feature; `pure_*` do not. Pure: reads the sources,
//! runs nothing.

mod common;
use common::{module_path, source_files};
use std::collections::BTreeSet;
use std::path::Path;

/// What reaches a device: opening a session, listing the platforms (`device::enumerate`, by
/// whatever path; an iterator's `.enumerate()` is no path), finding the runtime.
const OPENERS: &[&str] = &[
    "Session::open(",
    "VulkanDevice::open(",
    "::enumerate(",
    "find_runtime_lib_dir(",
];

/// The attribute that gates the device tier.
const FEATURE: &str = "feature = \"device-tests\"";

/// The module name scripts/test selects the device tier's unit tests by (`::on_device::`).
const MODULE: &str = "on_device";

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The source with comments removed and the brackets, quotes and semicolons inside string and
/// character literals blanked, so that braces, items and calls can be counted; the rest of a
/// literal stays (an attribute's `feature = "device-tests"` is read). Lines are kept.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let blank = |c: char| match c {
        '{' | '}' | '(' | ')' | '[' | ']' | ';' | '"' | '\'' => ' ',
        c => c,
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r'
            && (!after_ident || (chars[i - 1] == 'b' && (i < 2 || !is_ident(chars[i - 2]))))
            && matches!(next, Some('"' | '#'))
            && chars[i + 1..].iter().find(|&&c| c != '#') == Some(&'"')
        {
            // A raw string: r"…", r#"…"#, br"…".
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            out.push('"');
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..].iter().take_while(|&&c| c == '#').count() >= hashes
                {
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push('"');
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\'', '\u{7f}'); a lifetime ('a) is left alone.
            i += if next == Some('\\') { 3 } else { 2 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The name after the word `keyword` (`fn`, `mod`) in an item's header, if it has one.
fn item_name(header: &str, keyword: &str) -> Option<String> {
    let mut from = 0;
    while let Some(found) = header[from..].find(keyword) {
        let start = from + found;
        from = start + keyword.len();
        let before = header[..start].chars().next_back();
        let rest = &header[from..];
        if before.is_some_and(is_ident) || !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        if !name.is_empty() {
            return Some(name);
        }
    }
    None
}

/// The free functions a body calls, by name: `name(` or `path::name(`, not `.method(`.
fn calls(body: &str) -> BTreeSet<String> {
    const KEYWORDS: &[&str] = &["if", "while", "for", "match", "return", "in", "fn", "move"];
    let chars: Vec<char> = body.chars().collect();
    let mut names = BTreeSet::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_ident(chars[i]) || (i > 0 && is_ident(chars[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        let name: String = chars[start..i].iter().collect();
        let before = chars[..start].iter().rev().find(|c| !c.is_whitespace());
        let open = chars[i..].iter().find(|c| !c.is_whitespace()) == Some(&'(');
        if open && before != Some(&'.') && !KEYWORDS.contains(&name.as_str()) {
            names.insert(name);
        }
    }
    names
}

struct Function {
    /// `run::extension::tests::on_device`.
    module: Vec<String>,
    name: String,
    test: bool,
    /// `src/run/ulp.rs:1895`.
    place: String,
    opens: bool,
    calls: BTreeSet<String>,
}

#[derive(Default)]
struct Sources {
    functions: Vec<Function>,
    /// Modules declared under the feature, inline or as files.
    gated: BTreeSet<Vec<String>>,
    /// Modules named `on_device`.
    named: BTreeSet<Vec<String>>,
}

enum Scope {
    Module,
    Function { index: usize, start: usize },
    Other,
}

impl Sources {
    fn read() -> Sources {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let src = root.join("src");
        let mut files = Vec::new();
        source_files(&src, &mut files);
        files.sort();
        let mut sources = Sources::default();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let place = file.strip_prefix(root).unwrap().display().to_string();
            sources.add(&code_of(&text), module_path(&src, &file), &place);
        }
        sources
    }

    /// Records a module's items: `mod` declarations with their attributes, and functions with
    /// what their bodies call.
    fn add(&mut self, code: &str, mut module: Vec<String>, file: &str) {
        let mut scopes: Vec<(Scope, usize)> = Vec::new();
        let mut header_start = 0;
        // Parentheses and brackets open within the current braces: a `;` in `[u8; 4]` does
        // not end an item's header.
        let mut depth = 0usize;
        let declare = |sources: &mut Sources, module: &[String], name: String, header: &str| {
            let mut path = module.to_vec();
            path.push(name.clone());
            if header.contains(FEATURE) {
                sources.gated.insert(path.clone());
            }
            if name == MODULE {
                sources.named.insert(path);
            }
        };
        for (at, c) in code.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth = depth.saturating_sub(1),
                ';' if depth == 0 => {
                    let header = &code[header_start..at];
                    if let Some(name) = item_name(header, "mod") {
                        declare(self, &module, name, header);
                    }
                    header_start = at + 1;
                }
                '{' => {
                    let header = &code[header_start..at];
                    let scope = if let Some(name) = item_name(header, "mod") {
                        declare(self, &module, name.clone(), header);
                        module.push(name);
                        Scope::Module
                    } else if let Some(name) = item_name(header, "fn") {
                        let line = code[..at].matches('\n').count() + 1;
                        self.functions.push(Function {
                            module: module.clone(),
                            name,
                            test: header.contains("#[test]"),
                            place: format!("{file}:{line}"),
                            opens: false,
                            calls: BTreeSet::new(),
                        });
                        Scope::Function {
                            index: self.functions.len() - 1,
                            start: at + 1,
                        }
                    } else {
                        Scope::Other
                    };
                    scopes.push((scope, depth));
                    depth = 0;
                    header_start = at + 1;
                }
                '}' => {
                    let (scope, outer) =
                        scopes.pop().unwrap_or_else(|| panic!("{file}: unbalanced"));
                    match scope {
                        Scope::Module => {
                            module.pop();
                        }
                        Scope::Function { index, start } => {
                            let body = &code[start..at];
                            let function = &mut self.functions[index];
                            function.opens = OPENERS.iter().any(|opener| body.contains(opener));
                            function.calls = calls(body);
                        }
                        Scope::Other => {}
                    }
                    depth = outer;
                    header_start = at + 1;
                }
                _ => {}
            }
        }
        assert!(scopes.is_empty(), "{file}: unbalanced braces");
    }

    /// Marks every function that calls, by name, one that opens a device.
    fn close_over_calls(&mut self) {
        loop {
            let opening: BTreeSet<String> = self
                .functions
                .iter()
                .filter(|f| f.opens)
                .map(|f| f.name.clone())
                .collect();
            let mut changed = false;
            for function in &mut self.functions {
                if !function.opens && function.calls.iter().any(|c| opening.contains(c)) {
                    function.opens = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn gated(&self, module: &[String]) -> bool {
        (1..=module.len()).any(|n| self.gated.contains(&module[..n]))
    }
}

#[test]
fn unit_tests_that_open_a_device_are_gated_and_only_those() {
    let mut sources = Sources::read();
    sources.close_over_calls();
    let tests: Vec<&Function> = sources.functions.iter().filter(|f| f.test).collect();
    // The reading found the tests and the device tests (it is not vacuous).
    assert!(tests.len() > 300, "{} tests", tests.len());
    assert!(tests.iter().filter(|f| f.opens).count() >= 8);
    let mut wrong = Vec::new();
    for test in tests {
        let gated = sources.gated(&test.module);
        if test.opens && !gated {
            wrong.push(format!(
                "{} `{}` opens a device outside an `on_device` module gated by {FEATURE}",
                test.place, test.name
            ));
        }
        if !test.opens && gated {
            wrong.push(format!(
                "{} `{}` needs no device: it belongs outside `on_device`, in the pure tier",
                test.place, test.name
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// scripts/test selects the device tier's unit tests by the module name: every gated module is
/// called `on_device`, and every `on_device` is gated.
#[test]
fn device_modules_are_named_on_device_and_gated() {
    let sources = Sources::read();
    assert!(!sources.gated.is_empty());
    assert_eq!(sources.gated, sources.named);
}

#[test]
fn device_and_end_to_end_targets_require_the_feature() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let targets: Vec<&str> = manifest.split("[[test]]").skip(1).collect();
    assert!(!targets.is_empty());
    for target in targets {
        let target = target.split("\n[").next().unwrap();
        let field = |key: &str| {
            target
                .lines()
                .find_map(|line| line.strip_prefix(key)?.trim().strip_prefix('='))
                .map(|value| value.trim().trim_matches('"').to_string())
                .unwrap_or_default()
        };
        let (name, path) = (field("name"), field("path"));
        let tier = name.split('_').next().unwrap();
        let folder = match tier {
            "device" | "e2e" | "pure" => tier,
            _ => panic!("test target `{name}` is named after no tier"),
        };
        assert!(
            path.starts_with(&format!("tests/{folder}/")),
            "`{name}` lies in {path}, outside tests/{folder}/"
        );
        let requires = field("required-features") == "[\"device-tests\"]";
        assert_eq!(
            requires,
            tier != "pure",
            "`{name}`: the device and end-to-end targets, and only those, require device-tests"
        );
    }
}
