//! Tests of Table 5's application: the data file against the spec's English, read sentence by
//! sentence, and each kind of rule (absolute, growing, derived, undefined, per output) judged.

use super::*;
use crate::spec::relaxed_table::builtin;

// ---- Transcription check: the data file against the spec text ----

const TITLE: &str =
    "Table 5. ULP Values for Single Precision Math Instructions with -cl-fast-relaxed-math";

/// One row as the spec prints it: its heading line and its cell (lines joined by spaces).
struct SpecRow {
    line: usize,
    heading: String,
    text: String,
}

fn spec_text() -> String {
    crate::spec::table::asciidoc::read(crate::spec::table::asciidoc::SPEC_2017)
}

/// Extracts Table 5 from the extracted-HTML layout: the title, a header line naming the
/// columns, then per row a heading line (`OpExtInst acos`, `OpFDiv for 1.0 / x`) and its cell
/// lines. The table ends at the next section heading.
fn spec_rows(text: &str) -> Vec<SpecRow> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    lines
        .by_ref()
        .find(|(_, l)| *l == TITLE)
        .unwrap_or_else(|| panic!("the spec has no line `{TITLE}`"));
    let (header_line, header) = lines.next().expect("the spec ends after the title");
    assert_eq!(
        header, "SPIR-V Instruction Minimum Accuracy",
        "spec line {header_line}: Table 5 no longer has the single (Float32) column the data \
         file assumes"
    );
    let mut rows: Vec<SpecRow> = Vec::new();
    for (line, content) in lines {
        if content == "Edge Case Behavior" || content.starts_with("Table ") {
            break;
        }
        if content.starts_with("OpExtInst ") || content.starts_with("OpF") {
            rows.push(SpecRow {
                line,
                heading: content.to_string(),
                text: String::new(),
            });
        } else {
            let row = rows
                .last_mut()
                .unwrap_or_else(|| panic!("spec line {line}: a cell before any heading"));
            if !row.text.is_empty() {
                row.text.push(' ');
            }
            row.text.push_str(content);
        }
    }
    rows
}

/// The data file's instruction name for a spec heading.
fn instruction_of(heading: &str) -> String {
    if let Some(name) = heading.strip_prefix("OpExtInst ") {
        return name.to_string();
    }
    if heading.starts_with("OpFDiv for ") {
        return "OpFDiv".to_string();
    }
    assert_eq!(
        heading, "OpFMul and OpFAdd for x * y + z",
        "unknown heading"
    );
    "OpFMul_OpFAdd".to_string()
}

/// What one alternative demands, in a form both readings can produce.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    /// Full-profile and embedded-profile ulp counts.
    Ulp(f64, f64),
    /// base + floor(|factor x|) ulp (full), n ulp (embedded).
    Growing(f64, f64, f64),
    Absolute(f64),
    /// The formula's canonical text.
    Derived(String),
    FmaOrMulAdd,
    Table,
    Unbounded,
    Undefined,
    Outputs(Vec<String>),
}

type Predicate = Box<dyn Fn(&[f64]) -> bool>;

struct Case {
    when: Predicate,
    expect: Vec<Expect>,
}

/// One instruction's meaning read from the spec's English: cases tried in order, the
/// non-derived bound added to every derived case where it applies, and what holds where
/// no case does.
struct Meaning {
    instruction: String,
    cases: Vec<Case>,
    non_derived: Option<(f64, Predicate)>,
    otherwise: Vec<Expect>,
}

impl Meaning {
    fn expect(&self, args: &[f64]) -> Vec<Expect> {
        let Some(case) = self.cases.iter().find(|c| (c.when)(args)) else {
            return self.otherwise.clone();
        };
        let mut expect = case.expect.clone();
        // Deliberate reading: pow(x, y) = pow(|x|, y) for even y, where the spec writes
        // log2(x) of a negative x.
        if matches!(self.instruction.as_str(), "pow" | "pown") && args[0] < 0.0 {
            for e in &mut expect {
                if let Expect::Derived(text) = e {
                    *text = text.replace("log2(x)", "log2(fabs(x))");
                }
            }
        }
        let derived = expect.iter().any(|e| matches!(e, Expect::Derived(_)));
        if let Some((n, applies)) = &self.non_derived {
            if derived && applies(args) {
                expect.push(Expect::Ulp(*n, *n));
            }
        }
        expect
    }
}

/// Which argument a spec variable names.
fn argument(instruction: &str, variable: &str) -> usize {
    let atan2 = matches!(instruction, "atan2" | "atan2pi");
    match (variable, atan2) {
        ("x", false) | ("y", true) => 0,
        ("y", false) | ("x", true) => 1,
        ("z", false) => 2,
        _ => panic!("`{instruction}`: no variable `{variable}`"),
    }
}

/// A spec number: `π`, `0.5`, `-88`, or a power of two whose caret was lost (`2-126`,
/// `2126`, `-224`).
fn spec_number(text: &str) -> f64 {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text),
    };
    if digits == "π" {
        return sign * std::f64::consts::PI;
    }
    let power = digits.len() >= 3
        && digits.starts_with('2')
        && digits[1..]
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit());
    if power {
        let exponent: i32 = digits[1..].parse().unwrap();
        return sign * f64::powi(2.0, exponent);
    }
    sign * digits
        .parse::<f64>()
        .unwrap_or_else(|_| panic!("`{text}` is not a spec number"))
}

/// `[a, b]` or `(a, b)` on one variable.
fn spec_interval(instruction: &str, variable: &str, text: &str) -> Predicate {
    let open_low = text.starts_with('(');
    let open_high = text.ends_with(')');
    let inner = &text[1..text.len() - 1];
    let (low, high) = inner.split_once(", ").expect("interval `[a, b]`");
    let (low, high) = (spec_number(low), spec_number(high));
    let i = argument(instruction, variable);
    Box::new(move |args: &[f64]| {
        let v = args[i];
        let above = if open_low { v > low } else { v >= low };
        let below = if open_high { v < high } else { v <= high };
        above && below
    })
}

fn integer(v: f64) -> bool {
    v.is_finite() && v.fract() == 0.0
}

/// The spec's conditions: `x < 0 and odd y`, `x > 0 or x < 0 and even y`, `x > 0 when y
/// is non-zero`, `x = +/-0 when y > 0`, `x < 0 and y outside the domain [-224, 224]`.
fn spec_condition(instruction: &str, text: &str) -> Predicate {
    let alternatives: Vec<Vec<Predicate>> = text
        .split(" or ")
        .map(|conjunction| {
            conjunction
                .split(" and ")
                .flat_map(|c| c.split(" when "))
                .map(|atom| spec_atom(instruction, atom))
                .collect()
        })
        .collect();
    Box::new(move |args: &[f64]| {
        alternatives
            .iter()
            .any(|conjunction| conjunction.iter().all(|atom| atom(args)))
    })
}

fn spec_atom(instruction: &str, atom: &str) -> Predicate {
    let x = argument(instruction, "x");
    let y = argument(instruction, "y");
    match atom {
        "non-integer y" => return Box::new(move |a: &[f64]| !integer(a[y])),
        "integer values of y" => return Box::new(move |a: &[f64]| integer(a[y])),
        "even y" => return Box::new(move |a: &[f64]| integer(a[y]) && a[y] % 2.0 == 0.0),
        "odd y" | "y is odd" => {
            return Box::new(move |a: &[f64]| integer(a[y]) && (a[y] % 2.0).abs() == 1.0)
        }
        "nonzero y" | "y is non-zero" => return Box::new(move |a: &[f64]| a[y] != 0.0),
        "x = +/-0" => return Box::new(move |a: &[f64]| a[x] == 0.0),
        _ => {}
    }
    if let Some(domain) = atom.strip_prefix("y outside the domain ") {
        let inside = spec_interval(instruction, "y", domain);
        return Box::new(move |a: &[f64]| !a[y].is_nan() && !inside(a));
    }
    let words: Vec<&str> = atom.split(' ').collect();
    let [variable, comparison, value] = words[..] else {
        panic!("`{instruction}`: unrecognised condition `{atom}`");
    };
    let i = argument(instruction, variable);
    let value = spec_number(value);
    match comparison {
        "=" | "==" => Box::new(move |a: &[f64]| a[i] == value),
        "<" => Box::new(move |a: &[f64]| a[i] < value),
        ">" => Box::new(move |a: &[f64]| a[i] > value),
        ">=" => Box::new(move |a: &[f64]| a[i] >= value),
        _ => panic!("`{instruction}`: unrecognised comparison in `{atom}`"),
    }
}

/// The spec's formula in canonical form: no spaces, no `f` suffixes, `1.0` as `1`, the
/// parentheses it leaves open closed (pow's "-exp2( y * log2(fabs(x) )").
fn spec_formula(text: &str) -> String {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digit_at = |k: usize| chars.get(k).is_some_and(|d| d.is_ascii_digit());
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let after_digit = i > 0 && digit_at(i - 1);
        // `0.5f` -> `0.5`; `1.0` -> `1` (a `.0` that ends a number).
        if chars[i] == 'f' && after_digit {
            i += 1;
            continue;
        }
        if chars[i] == '.' && after_digit && chars.get(i + 1) == Some(&'0') && !digit_at(i + 2) {
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    let open = out.matches('(').count() - out.matches(')').count();
    out.push_str(&")".repeat(open));
    out
}

fn always() -> Predicate {
    Box::new(|_: &[f64]| true)
}

/// Reads one instruction's spec rows.
fn meaning(instruction: &str, rows: &[&SpecRow]) -> Meaning {
    let mut meaning = Meaning {
        instruction: instruction.to_string(),
        cases: Vec::new(),
        non_derived: None,
        otherwise: Vec::new(),
    };
    if instruction == "OpFDiv" {
        division_meaning(rows, &mut meaning);
        return meaning;
    }

    assert_eq!(rows.len(), 1, "`{instruction}` has several spec rows");
    let text = rows[0].text.as_str();
    // pow's bracketed paragraph is advice, not a requirement.
    let text = text.split(" [On some implementations").next().unwrap();
    let text = text.strip_suffix('.').unwrap_or(text);
    let mut only_listed = false;
    for s in text.split(". ") {
        let handled = bound_sentence(instruction, s, &mut meaning)
            || formula_sentence(instruction, s, &mut meaning, &mut only_listed);
        assert!(handled, "`{instruction}`: unrecognised sentence `{s}`");
    }
    if meaning.otherwise.is_empty() {
        meaning.otherwise = if only_listed {
            vec![Expect::Undefined]
        } else if let Some((n, _)) = &meaning.non_derived {
            // Inputs no sentence covers (a NaN x in pow) keep the non-derived bound.
            vec![Expect::Ulp(*n, *n)]
        } else if instruction == "atan2" {
            // The spec is silent for x = 0 and for x < 0 with y = 0: Table 3 / 4 applies.
            vec![Expect::Table]
        } else {
            Vec::new()
        };
    }
    // The spec multiplies by M_PI_F where acospi and asinpi divide by pi.
    if matches!(instruction, "acospi" | "asinpi") {
        for case in &mut meaning.cases {
            for e in &mut case.expect {
                if let Expect::Derived(text) = e {
                    *text = text.replace("M_PI_F", "M_1_PI_F");
                }
            }
        }
    }
    meaning
}

/// OpFDiv's spec rows (x / y and 1.0 / x): a ULP bound per profile over domains of x and y;
/// outside both the spec gives no bound.
fn division_meaning(rows: &[&SpecRow], meaning: &mut Meaning) {
    for row in rows {
        let text = row.text.trim_end_matches('.');
        let (full, rest) = text
            .strip_prefix("<= ")
            .and_then(|t| t.split_once(" ulp for "))
            .expect("OpFDiv: `<= N ulp for ...`");
        let (domains, embedded) = rest
            .split_once(" for the full profile, and <= ")
            .expect("OpFDiv: `... for the full profile, and <= M ulp ...`");
        let embedded = embedded
            .strip_suffix(" ulp for the embedded profile")
            .expect("OpFDiv: `... ulp for the embedded profile`");
        let range = |d: &str| {
            let (low, high) = d.split_once(" to ").expect("`domain of a to b`");
            (spec_number(low), spec_number(high))
        };
        let within = |v: f64, (low, high): (f64, f64)| (low..=high).contains(&v.abs());
        let when: Predicate = if row.heading == "OpFDiv for 1.0 / x" {
            // The spec's x is the divisor here: the dividend is exactly 1.0.
            let domain = rest
                .strip_prefix("x in the domain of ")
                .and_then(|d| d.split_once(" for the full profile"))
                .map(|(d, _)| range(d))
                .expect("OpFDiv 1.0 / x: `x in the domain of a to b`");
            Box::new(move |a: &[f64]| a[0] == 1.0 && within(a[1], domain))
        } else {
            let (x_domain, y_domain) = domains
                .strip_prefix("x in the domain of ")
                .and_then(|d| d.split_once(" and y in the domain of "))
                .expect("OpFDiv x / y: two domains");
            let (x_domain, y_domain) = (range(x_domain), range(y_domain));
            Box::new(move |a: &[f64]| within(a[0], x_domain) && within(a[1], y_domain))
        };
        meaning.cases.push(Case {
            when,
            expect: vec![Expect::Ulp(spec_number(full), spec_number(embedded))],
        });
    }
    // Outside both domains the spec gives no bound.
    meaning.otherwise = vec![Expect::Unbounded];
}

/// A sentence of a bound (ulp, absolute, non-derived, mad, sincos), read into `meaning`;
/// `false` where it is none.
fn bound_sentence(instruction: &str, s: &str, meaning: &mut Meaning) -> bool {
    let mut case = |when: Predicate, expect: Vec<Expect>| meaning.cases.push(Case { when, expect });
    if let Some(n) = s.strip_prefix("<= ").and_then(|t| t.strip_suffix(" ulp")) {
        if !n.contains(' ') {
            case(always(), vec![Expect::Ulp(spec_number(n), spec_number(n))]);
            return true;
        }
    }
    if let Some(rest) =
        s.strip_prefix("<= 3 + floor( fabs(2 * x) ) ulp for the full profile, and <= ")
    {
        let n = rest
            .strip_suffix(" ulp for the embedded profile")
            .expect("exp: embedded bound");
        case(always(), vec![Expect::Growing(3.0, 2.0, spec_number(n))]);
        return true;
    }
    if s == "Implemented either as a correctly rounded fma or as a multiply and an add \
             both of which are correctly rounded"
    {
        case(always(), vec![Expect::FmaOrMulAdd]);
        return true;
    }
    if s == "ulp values as defined for sin(x) and cos(x)" {
        case(
            always(),
            vec![Expect::Outputs(vec!["sin".into(), "cos".into()])],
        );
        return true;
    }
    if let Some(rest) = s.strip_prefix("For non-derived implementations, the error is <= ") {
        let (n, domain) = match rest.split_once(" for x in the domain ") {
            Some((n, d)) => (n, Some(d)),
            None => (rest, None),
        };
        let n = n
            .strip_suffix(" ulp")
            .or_else(|| n.strip_suffix(" ULP"))
            .expect("`N ulp`");
        let applies = match domain {
            Some(d) => spec_interval(instruction, "x", d),
            None => always(),
        };
        meaning.non_derived = Some((spec_number(n), applies));
        return true;
    }
    false
}

/// atan2's sentence "Implemented as F1 for C1, F2 for C2 and F3 for C3", read into `case`.
fn atan2_sentence(s: &str, mut case: impl FnMut(Predicate, Vec<Expect>)) {
    let derived = |f: &str| vec![Expect::Derived(spec_formula(f))];
    // "Implemented as F1 for C1, F2 for C2 and F3 for C3": each formula starts with
    // `atan(`.
    let rest = s
        .strip_prefix("Implemented as ")
        .expect("atan2: `Implemented as`");
    let parts: Vec<&str> = rest.split(" for ").collect();
    let mut formula = parts[0];
    for (i, part) in parts.iter().enumerate().skip(1) {
        let (condition, next) = if i + 1 < parts.len() {
            let at = part.find("atan(").expect("atan2: next formula");
            let condition = part[..at]
                .trim_end()
                .trim_end_matches(',')
                .trim_end_matches(" and");
            (condition, &part[at..])
        } else {
            (*part, "")
        };
        case(spec_condition("atan2", condition), derived(formula));
        formula = next;
    }
}

/// A sentence of a formula or a domain (derived, defined, undefined, for x in), read into
/// `meaning`; `false` where it is none. `only_listed`: the listed cases are the only defined
/// ones (rootn).
fn formula_sentence(
    instruction: &str,
    s: &str,
    meaning: &mut Meaning,
    only_listed: &mut bool,
) -> bool {
    let derived = |f: &str| vec![Expect::Derived(spec_formula(f))];
    let mut case = |when: Predicate, expect: Vec<Expect>| meaning.cases.push(Case { when, expect });
    if instruction == "atan2" {
        atan2_sentence(s, &mut case);
        return true;
    }
    if let Some(f) = s
        .strip_prefix("Implemented as ")
        .or_else(|| s.strip_prefix("Derived implementations implement this as "))
    {
        case(always(), derived(f));
        return true;
    }
    if let Some(rest) = s.strip_prefix("For x in the domain ") {
        let (domain, rest) = rest.split_once(']').expect("`[a, b]`");
        let domain = format!("{domain}]");
        let rest = rest.trim_start_matches(',');
        let (bound, otherwise) = if let Some(b) = rest
            .strip_prefix(" the maximum absolute error is <= ")
            .and_then(|b| b.strip_suffix(" and larger otherwise"))
        {
            (b, vec![Expect::Unbounded])
        } else {
            let (b, o) = rest
                .strip_prefix(" the maximum absolute error is <= ")
                .and_then(|r| r.split_once("; otherwise the maximum error is <="))
                .expect("`the maximum absolute error is <= B; otherwise ...`");
            let (full, embedded) = o
                .strip_suffix(" ulp for the embedded profile")
                .and_then(|o| o.split_once(" ulp for the full profile and <= "))
                .expect("`N ulp for the full profile and <= M ulp ...`");
            (
                b,
                vec![Expect::Ulp(spec_number(full), spec_number(embedded))],
            )
        };
        case(
            spec_interval(instruction, "x", &domain),
            vec![Expect::Absolute(spec_number(bound))],
        );
        meaning.otherwise = otherwise;
        return true;
    }
    if let Some(rest) = s.strip_prefix("Defined for x in the domain ") {
        let (domain, formula) = match rest.split_once(" and implemented as ") {
            Some((d, f)) => (d, Some(f)),
            None => (rest, None),
        };
        let inside = spec_interval(instruction, "x", domain);
        case(
            Box::new(move |a: &[f64]| !inside(a)),
            vec![Expect::Undefined],
        );
        if let Some(f) = formula {
            case(always(), derived(f));
        }
        return true;
    }
    if let Some(rest) = s.strip_prefix("For x in ") {
        let (domain, f) = rest.split_once("], ").expect("`For x in [a, b], ...`");
        let f = f
            .strip_prefix("implemented as ")
            .or_else(|| f.strip_prefix("derived implementations implement as "))
            .expect("`implemented as F`");
        case(
            spec_interval(instruction, "x", &format!("{domain}]")),
            derived(f),
        );
        return true;
    }
    if let Some(rest) = s.strip_prefix("For x outside of ") {
        let (domain, f) = rest.split_once("], ").expect("`[a, b], ...`");
        let f = [
            "implemented as ",
            "derived implement as ",
            "derived implementations implement as ",
        ]
        .iter()
        .find_map(|p| f.strip_prefix(p))
        .expect("`implemented as F`");
        let inside = spec_interval(instruction, "x", &format!("{domain}]"));
        case(Box::new(move |a: &[f64]| !inside(a)), derived(f));
        return true;
    }
    if let Some(condition) = s.strip_prefix("Undefined for ") {
        case(
            spec_condition(instruction, condition),
            vec![Expect::Undefined],
        );
        return true;
    }
    if let Some(condition) = s.strip_prefix("Defined only for ") {
        let defined = spec_condition(instruction, condition);
        case(
            Box::new(move |a: &[f64]| !defined(a)),
            vec![Expect::Undefined],
        );
        return true;
    }
    if let Some(rest) = s.strip_prefix("Defined for ") {
        // rootn: the listed cases are the defined ones.
        *only_listed = true;
        let (condition, action) = rest
            .split_once(", derived implementations ")
            .expect("`Defined for C, derived implementations ...`");
        let expect = match action.strip_prefix("implement this case as ") {
            Some(f) => derived(f),
            None => {
                assert_eq!(action, "will return +0 in this case");
                derived("0")
            }
        };
        case(spec_condition(instruction, condition), expect);
        return true;
    }
    if let Some(rest) = s.strip_prefix("For ") {
        let (condition, action) = rest
            .split_once(", derived implementations ")
            .unwrap_or_else(|| panic!("`{instruction}`: unrecognised sentence `{s}`"));
        let expect = match action.strip_prefix("implement this as ") {
            Some(f) => derived(f),
            None => {
                assert_eq!(action, "return zero");
                derived("0")
            }
        };
        case(spec_condition(instruction, condition), expect);
        return true;
    }
    false
}

/// What the data file's rule demands for the inputs.
fn data_expect(rule: &RelaxedRule, args: &[f64]) -> Vec<Expect> {
    let pieces = match rule {
        RelaxedRule::PerOutput { outputs, .. } => {
            return vec![Expect::Outputs(
                outputs
                    .iter()
                    .map(|o| o.instruction().to_string())
                    .collect(),
            )]
        }
        RelaxedRule::Pieces { pieces, .. } => pieces,
    };
    let piece = pieces
        .iter()
        .find(|p| p.condition.as_ref().is_none_or(|c| c.holds(args)))
        .unwrap();
    piece
        .alternatives
        .iter()
        .map(|a| match (&a.full, &a.embedded) {
            (Bound::Ulp(full), Bound::Ulp(embedded)) => Expect::Ulp(*full, *embedded),
            (Bound::UlpGrowing { base, factor, .. }, Bound::Ulp(embedded)) => {
                Expect::Growing(*base, *factor, *embedded)
            }
            (Bound::Absolute(full), Bound::Absolute(embedded)) => {
                assert_eq!(full.value, embedded.value);
                Expect::Absolute(full.value.to_f64())
            }
            (Bound::Derived(full), Bound::Derived(embedded)) => {
                assert_eq!(full.to_string(), embedded.to_string());
                Expect::Derived(full.to_string())
            }
            (Bound::Table(_), Bound::Table(_)) => Expect::Table,
            (Bound::FmaOrMulAdd, Bound::FmaOrMulAdd) => Expect::FmaOrMulAdd,
            (Bound::Unbounded, Bound::Unbounded) => Expect::Unbounded,
            (Bound::Undefined, Bound::Undefined) => Expect::Undefined,
            other => panic!("unexpected profile pair {other:?}"),
        })
        .collect()
}

fn next_float(v: f64, up: bool) -> f64 {
    let f = v as f32;
    let bits = f.to_bits();
    let stepped = if (f >= 0.0) == up {
        f32::from_bits(bits + 1)
    } else {
        f32::from_bits(bits - 1)
    };
    f64::from(stepped)
}

/// Floats at and around every boundary the table names, both signs, plus 0, ±inf, NaN.
fn probe_values(wide: bool) -> Vec<f64> {
    let p = |e: i32| f64::powi(2.0, e);
    let mut bases = vec![p(-62), p(-10), 0.5, 1.0, 2.0, 3.0, p(24), p(62), p(126)];
    if wide {
        bases.extend([
            p(-149),
            p(-126),
            p(-21),
            p(-11),
            0.25,
            1.5,
            f64::from(std::f32::consts::PI),
            4.0,
            10.0,
            88.0,
            100.0,
            p(100),
            p(127),
            f64::from(f32::MAX),
        ]);
    } else {
        bases.extend([2.5, p(25), p(24) + 2.0, p(-70), p(70)]);
    }
    let mut values = vec![0.0, f64::INFINITY, f64::NAN];
    for b in bases {
        values.push(b);
        if b < f64::from(f32::MAX) {
            values.push(next_float(b, true));
        }
        values.push(next_float(b, false));
    }
    let negatives: Vec<f64> = values.iter().map(|v| -v).collect();
    values.extend(negatives);
    values
}

/// Every spec row is in the data file, in the spec's order, with the spec's words in the
/// `spec` column, and the rule means what the spec's sentences mean on every probe input.
/// All differences are listed, not just the first.
#[test]
fn data_file_matches_the_spec() {
    let spec = spec_rows(&spec_text());
    let table = builtin();
    let mut problems = Vec::new();

    let mut spec_order: Vec<String> = Vec::new();
    for row in &spec {
        let name = instruction_of(&row.heading);
        if spec_order.last() != Some(&name) {
            spec_order.push(name);
        }
    }
    let data_order: Vec<String> = table.rows.iter().map(|r| r.instruction.clone()).collect();
    if spec_order != data_order {
        problems.push(format!(
            "{}: instructions {data_order:?}, but the spec lists {spec_order:?}",
            table.source
        ));
    }
    // Guards the extractor itself: Table 5 has 37 rows, two of them OpFDiv.
    assert_eq!(spec.len(), 37, "extracted {} rows from Table 5", spec.len());

    let unary = probe_values(true);
    let pair_values = probe_values(false);
    for instruction in &spec_order {
        let rows: Vec<&SpecRow> = spec
            .iter()
            .filter(|r| instruction_of(&r.heading) == *instruction)
            .collect();
        let Some(data) = table.row(instruction) else {
            problems.push(format!(
                "`{instruction}` (spec line {}) is missing from {}",
                rows[0].line, table.source
            ));
            continue;
        };
        let words: Vec<String> = rows
            .iter()
            .map(|r| format!("{}: {}", r.heading, r.text))
            .collect();
        let words = words.join(" | ");
        if data.spec != words {
            problems.push(format!(
                "{}:{}: `spec` of `{instruction}` is\n  {}\nbut spec line {} says\n  {words}",
                table.source, data.line, data.spec, rows[0].line
            ));
        }
        let meaning = meaning(instruction, &rows);
        let arity = catalog(instruction).unwrap().parameters.len();
        let probes: Vec<Vec<f64>> = match arity {
            1 => unary.iter().map(|&x| vec![x]).collect(),
            2 => pair_values
                .iter()
                .flat_map(|&a| pair_values.iter().map(move |&b| vec![a, b]))
                .collect(),
            _ => vec![vec![1.0, 2.0, 3.0], vec![-0.5, f64::NAN, 0.0]],
        };
        let mut mismatches = 0;
        for args in &probes {
            let expected = meaning.expect(args);
            let found = data_expect(&data.float32, args);
            if expected != found {
                mismatches += 1;
                if mismatches <= 3 {
                    problems.push(format!(
                        "{}:{}: `{instruction}` at {args:?}: the data says {found:?}, \
                         spec line {} says {expected:?}",
                        table.source, data.line, rows[0].line
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} differs from Table 5:\n{}",
        table.source,
        problems.join("\n")
    );
}

// ---- The built-in table ----

fn rule(instruction: &str) -> &'static RelaxedRule {
    builtin()
        .rule(instruction, FloatType::Float)
        .unwrap_or_else(|| panic!("`{instruction}` is not in Table 5"))
}

#[test]
fn builtin_covers_float32_only_and_leaves_the_rest_to_tables_3_and_4() {
    let table = builtin();
    assert_eq!(table.source, "tables/ulp_relaxed.csv");
    assert_eq!(table.rows.len(), 36);
    assert!(table.rule("sin", FloatType::Double).is_none());
    assert!(table.rule("sin", FloatType::Half).is_none());
    for fallback in [
        "OpFAdd", "OpFMul", "sqrt", "rsqrt", "hypot", "mad", "half_sin",
    ] {
        assert!(
            table.rule(fallback, FloatType::Float).is_none(),
            "{fallback}"
        );
    }
    assert_eq!(rule("OpFDiv").instruction(), "OpFDiv");
    // Inner operations carry their own relaxed rule or their Table 3 / 4 cells.
    let RelaxedRule::Pieces { pieces, .. } = rule("tan") else {
        panic!("tan has one output");
    };
    let Bound::Derived(Formula::Operation { arguments, .. }) = &pieces[0].alternatives[0].full
    else {
        panic!("tan is derived");
    };
    let Formula::Operation { error, .. } = &arguments[0] else {
        panic!("sin(x)");
    };
    assert!(matches!(error, OperationError::Relaxed(r) if r.instruction() == "sin"));
    let RelaxedRule::Pieces { pieces, .. } = rule("acosh") else {
        panic!("acosh has one output");
    };
    let text = pieces[0].alternatives[0].full.describe(false);
    assert_eq!(text, "derived:log(x+sqrt(x*x-1))");
}

// ---- Judging ----

pub(super) const F: FloatType = FloatType::Float;

pub(super) fn two(e: i32) -> f64 {
    f64::powi(2.0, e)
}

/// The exact result, as the nearest f64.
pub(super) fn exact(function: ReferenceFn, args: &[f64]) -> f64 {
    let operands: Vec<Float> = args.iter().map(|&a| reference::operand(a)).collect();
    reference::high_precision(function, &operands, F).to_f64()
}

fn judge(instruction: &str, args: &[f64], result: f64, embedded: bool) -> RelaxedOutcome {
    rule(instruction).judge(args, result, F, embedded)
}

fn passes(outcome: RelaxedOutcome) -> bool {
    matches!(outcome, RelaxedOutcome::Pass { .. })
}

fn fails(outcome: RelaxedOutcome) -> bool {
    matches!(outcome, RelaxedOutcome::Fail { .. })
}

#[test]
fn sin_absolute_bound_inside_its_domain_and_nothing_outside() {
    let x = 1.0;
    let s = exact(reference::sin, &[x]);
    let near = F.round(s + two(-12));
    match judge("sin", &[x], near, false) {
        RelaxedOutcome::Pass { error, unit } => {
            assert_eq!(unit, ErrorUnit::Absolute);
            assert!((error - two(-12)).abs() < two(-24), "{error}");
        }
        other => panic!("{other:?}"),
    }
    let far = F.round(s + two(-10));
    assert!(matches!(
        judge("sin", &[x], far, false),
        RelaxedOutcome::Fail {
            unit: ErrorUnit::Absolute,
            ..
        }
    ));
    assert!(fails(judge("sin", &[x], F.round(s - two(-10)), true)));
    // The float nearest -pi lies inside [-pi, pi]; M_PI_F lies just above pi.
    let below_pi = next_float(std::f64::consts::PI, false);
    assert!(passes(judge("sin", &[-below_pi], 0.0, false)));
    let pi_f = f64::from(std::f32::consts::PI);
    assert_eq!(judge("sin", &[pi_f], 0.5, false), RelaxedOutcome::Undefined);
    // "and larger otherwise": outside [-pi, pi] the spec bounds nothing.
    assert_eq!(judge("sin", &[4.0], 0.9, false), RelaxedOutcome::Undefined);
    assert_eq!(
        judge("cos", &[-100.0], -7.0, true),
        RelaxedOutcome::Undefined
    );
    assert!(passes(judge(
        "cospi",
        &[0.25],
        F.round(exact(reference::cospi, &[0.25]) + two(-12)),
        false
    )));
    assert_eq!(
        judge("cospi", &[1.5], 3.0, false),
        RelaxedOutcome::Undefined
    );
    // A NaN reference requires a NaN, inside the domain or not.
    for x in [f64::NAN, f64::INFINITY] {
        assert!(passes(judge("sin", &[x], f64::NAN, false)));
        assert_eq!(
            judge("sin", &[x], 0.0, false),
            RelaxedOutcome::Fail {
                error: f64::INFINITY,
                unit: ErrorUnit::Ulp
            }
        );
    }
    assert!(fails(judge("sin", &[x], f64::NAN, false)));
}

#[test]
fn log_is_absolute_on_its_domain_and_ulp_bounded_elsewhere() {
    let x = 1.5;
    let l = exact(reference::log, &[x]);
    assert!(passes(judge("log", &[x], F.round(l + two(-22)), false)));
    assert!(fails(judge("log", &[x], F.round(l + two(-20)), true)));
    // log2(8) = 3 exactly; ulp(3) = 2^-22: the error is exactly k ulp.
    let k_ulps = |k: f64| 3.0 + k * two(-22);
    assert_eq!(
        judge("log2", &[8.0], k_ulps(3.0), false),
        RelaxedOutcome::Pass {
            error: 3.0,
            unit: ErrorUnit::Ulp
        }
    );
    assert!(fails(judge("log2", &[8.0], k_ulps(4.0), false)));
    assert!(passes(judge("log2", &[8.0], k_ulps(4.0), true)));
    assert!(fails(judge("log2", &[8.0], k_ulps(5.0), true)));
    // log(0) = -inf: only -inf (or the largest finite value, by the overflow rule) is
    // near it.
    assert!(passes(judge("log", &[0.0], f64::NEG_INFINITY, false)));
    assert!(fails(judge("log", &[0.0], -1.0e30, false)));
}

#[test]
fn exp_bound_grows_with_x_in_the_full_profile_only() {
    // exp2(10) = 1024 exactly: ulp(1024) = 2^-14 (the gap below), the gap above is 2^-13.
    // Full profile: 3 + floor(|2 * 10|) = 23 ulp; embedded: 4 ulp.
    let above = |k: f64| 1024.0 + k * two(-13);
    assert_eq!(
        judge("exp2", &[10.0], above(11.0), false),
        RelaxedOutcome::Pass {
            error: 22.0,
            unit: ErrorUnit::Ulp
        }
    );
    assert!(fails(judge("exp2", &[10.0], above(12.0), false)));
    assert!(fails(judge("exp2", &[10.0], above(11.0), true)));
    assert!(passes(judge("exp2", &[10.0], above(2.0), true)));
    // At x = 0.25 the bound is 3 + floor(0.5) = 3.
    assert!(fails(judge(
        "exp2",
        &[0.25],
        F.round(exact(reference::exp2, &[0.25])) + 4.0 * two(-23),
        false
    )));
    // Past FLT_MAX the allowed range reaches beyond it: +inf passes, -inf does not.
    assert!(passes(judge("exp2", &[128.0], f64::INFINITY, false)));
    assert!(passes(judge("exp", &[89.0], f64::from(f32::MAX), true)));
    assert!(fails(judge("exp2", &[128.0], f64::NEG_INFINITY, false)));
    // 3 + floor(|2 * inf|) bounds nothing.
    assert_eq!(
        judge("exp", &[f64::NEG_INFINITY], 5.0, false),
        RelaxedOutcome::Undefined
    );
}

#[test]
fn derived_pow_accepts_its_interval_beyond_the_plain_bound() {
    // pow(1 + 2^-20, 2^20) ~ e. log2(x) may be off by 2^-21 (x in [0.5, 2]), which the
    // multiplication by 2^20 turns into an error of 1/2 in exp2's argument: the derived
    // range is about [1.92, 3.85], so [x - E, x + E] is about [1.59, 3.85].
    let args = [1.0 + two(-20), two(20)];
    let e = exact(reference::pow, &args);
    assert!((e - std::f64::consts::E).abs() < 1e-5);
    match judge("pow", &args, 3.0, false) {
        RelaxedOutcome::Pass { error, unit } => {
            assert_eq!(unit, ErrorUnit::Ulp);
            assert!(
                error > 8192.0,
                "a plain 8192-ulp bound would reject it: {error}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(passes(judge("pow", &args, 1.7, true)));
    assert!(passes(judge("pow", &args, F.round(e), false)));
    assert!(fails(judge("pow", &args, 5.0, false)));
    assert!(fails(judge("pow", &args, 1.0, false)));
    // Negative x: odd y uses -exp2(y * log2(fabs(x))), even y exp2(y * log2(fabs(x))).
    assert!(passes(judge("pow", &[-2.0, 3.0], -8.0, false)));
    assert!(fails(judge("pow", &[-2.0, 3.0], 8.0, false)));
    assert!(passes(judge("pown", &[-2.0, 4.0], 16.0, false)));
    assert!(passes(judge("rootn", &[-8.0, 3.0], -2.0, false)));
    // pow(0, y != 0): derived implementations return zero; the exact value may be inf.
    assert!(passes(judge("pow", &[0.0, 3.0], 0.0, false)));
    assert!(passes(judge("pow", &[0.0, -3.0], 0.0, false)));
    assert!(passes(judge("pow", &[0.0, -3.0], f64::INFINITY, false)));
    assert!(fails(judge("pow", &[0.0, -3.0], 1.0, false)));
    // pown(0, 3): exp2(3 * log2(0)) = exp2(-inf) = +0 exactly (Annex F values).
    assert!(passes(judge("pown", &[0.0, 3.0], 0.0, false)));
    assert!(fails(judge("pown", &[0.0, 3.0], 1.0, false)));
    // A NaN exact result requires a NaN: pow(NaN, 2) falls to the non-derived bound.
    assert!(passes(judge("pow", &[f64::NAN, 2.0], f64::NAN, false)));
    assert!(fails(judge("pow", &[f64::NAN, 2.0], 1.0, false)));
}

#[test]
fn intermediate_overflow_of_a_derived_formula_is_permitted() {
    // acosh(2^70) by log(x + sqrt(x*x - 1)) in float: x*x overflows to +inf, which the
    // multiply's precision rule permits, and the literal result is +inf.
    let x = 2f64.powi(70);
    assert_eq!(
        judge("acosh", &[x], f64::INFINITY, false),
        RelaxedOutcome::Undefined
    );
    // Where nothing overflows the formula still bounds the result.
    let a = exact(reference::acosh, &[4.0]);
    assert!(passes(judge("acosh", &[4.0], F.round(a), false)));
    assert!(fails(judge("acosh", &[4.0], F.round(a * 1.01), false)));
    assert!(fails(judge("acosh", &[4.0], f64::INFINITY, false)));
}

#[test]
fn derived_tan_acospi_and_atan2() {
    // tan(1): sin and cos each within 2^-11, so sin(x) * (1 / cos(x)) may be ~0.0023 off.
    let t = exact(reference::tan, &[1.0]);
    match judge("tan", &[1.0], F.round(t + 0.002), false) {
        RelaxedOutcome::Pass { error, .. } => assert!(error > 8192.0, "{error}"),
        other => panic!("{other:?}"),
    }
    assert!(fails(judge("tan", &[1.0], F.round(t + 0.003), false)));
    // Near the pole cos may be 0 within its error: any result is possible.
    let half_pi = f64::from(std::f32::consts::FRAC_PI_2);
    assert_eq!(
        judge("tan", &[half_pi], 1.0, false),
        RelaxedOutcome::Undefined
    );
    // Outside [-pi, pi] the spec bounds neither sin nor cos, so the derived formula states
    // nothing there and the non-derived 8192 ulp judge.
    assert!(fails(judge("tan", &[4.0], 1.0, false)));
    let t4 = exact(reference::tan, &[4.0]);
    assert!(passes(judge("tan", &[4.0], F.round(t4), false)));
    // tanpi on [-1, 1]: tan(x * M_PI_F), or 8192 ulp.
    // tanpi(1/4) = 1: sin and cos near 0.7071 give about 1 +- 0.0014.
    assert!(passes(judge("tanpi", &[0.25], 1.001, false)));
    assert!(fails(judge("tanpi", &[0.25], 1.002, false)));
    // acospi divides by pi: the spec's acos(x) * M_PI_F would accept acos(x) * pi.
    let a = exact(reference::acospi, &[0.5]);
    assert!(passes(judge("acospi", &[0.5], F.round(a), false)));
    let times_pi = F.round(exact(reference::acos, &[0.5]) * std::f64::consts::PI);
    assert!(fails(judge("acospi", &[0.5], times_pi, false)));
    // atan2(1, 1) = atan(1/1): atan's 4096 ulp (2.4e-4 here) carry through.
    let q = exact(reference::atan2, &[1.0, 1.0]);
    assert!(passes(judge(
        "atan2",
        &[1.0, 1.0],
        F.round(q + 2.0e-4),
        false
    )));
    assert!(fails(judge(
        "atan2",
        &[1.0, 1.0],
        F.round(q + 1.0e-3),
        false
    )));
    assert!(passes(judge(
        "atan2",
        &[1.0, -1.0],
        F.round(exact(reference::atan2, &[1.0, -1.0])),
        false
    )));
}

#[test]
fn inputs_the_spec_leaves_out_fall_back_to_table_3() {
    // atan2(y, x = 0): no derivation covers it; Table 3's atan2 (6 ulp) applies.
    let q = F.round(exact(reference::atan2, &[1.0, 0.0]));
    let ulp = two(-23);
    assert!(passes(judge("atan2", &[1.0, 0.0], q + 5.0 * ulp, false)));
    assert!(fails(judge("atan2", &[1.0, 0.0], q + 7.0 * ulp, true)));
    assert!(rule("atan2")
        .describe(true)
        .ends_with("; else as Table 4: <= 6 ulp"));
}

#[test]
fn undefined_inputs_are_undefined() {
    let cases: [(&str, &[f64]); 14] = [
        ("pow", &[0.0, 0.0]),
        ("pow", &[-0.0, 0.0]),
        ("pow", &[-2.0, 0.5]),
        ("pow", &[-2.0, f64::INFINITY]),
        ("pow", &[-2.0, two(25)]),
        ("pown", &[2.0, 0.5]),
        ("pown", &[0.0, 0.0]),
        ("powr", &[-1.0, 2.0]),
        ("rootn", &[-8.0, 2.0]),
        ("rootn", &[0.0, -1.0]),
        ("cosh", &[89.0]),
        ("atanh", &[1.0]),
        ("atanh", &[f64::NAN]),
        ("tanh", &[-100.0]),
    ];
    for (instruction, args) in cases {
        for result in [0.0, 1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                judge(instruction, args, result, false),
                RelaxedOutcome::Undefined,
                "{instruction}{args:?} -> {result}"
            );
        }
    }
    // Just inside: pow(-2, 2^24) and atanh(1 - 2^-24) are judged.
    assert!(passes(judge("pow", &[-1.0, two(24)], 1.0, false)));
    assert!(passes(judge(
        "atanh",
        &[0.5],
        F.round(exact(reference::atanh, &[0.5])),
        false
    )));
}

#[test]
fn division_domains() {
    // 1 / 2 = 0.5 exactly; ulp(0.5) = 2^-25 below, 2^-24 above.
    assert_eq!(
        judge("OpFDiv", &[1.0, 2.0], 0.5 + two(-24), false),
        RelaxedOutcome::Pass {
            error: 2.0,
            unit: ErrorUnit::Ulp
        }
    );
    assert!(fails(judge(
        "OpFDiv",
        &[1.0, 2.0],
        0.5 - 3.0 * two(-25),
        false
    )));
    assert!(passes(judge(
        "OpFDiv",
        &[1.0, 2.0],
        0.5 - 3.0 * two(-25),
        true
    )));
    assert!(fails(judge(
        "OpFDiv",
        &[1.0, 2.0],
        0.5 + 2.0 * two(-24),
        true
    )));
    // x / y: 3 / 2 = 1.5, ulp 2^-23.
    assert!(passes(judge(
        "OpFDiv",
        &[3.0, 2.0],
        1.5 + 2.0 * two(-23),
        false
    )));
    assert!(fails(judge(
        "OpFDiv",
        &[3.0, 2.0],
        1.5 + 3.0 * two(-23),
        false
    )));
    assert!(passes(judge(
        "OpFDiv",
        &[3.0, 2.0],
        1.5 + 3.0 * two(-23),
        true
    )));
    // 1 / y for |y| in [2^-126, 2^126]; x / y for both in [2^-62, 2^62]; else unbounded.
    assert!(passes(judge("OpFDiv", &[1.0, two(100)], two(-100), false)));
    assert!(passes(judge(
        "OpFDiv",
        &[1.0, -two(-126)],
        -two(126),
        false
    )));
    for args in [
        [2.0, two(100)],
        [two(70), 3.0],
        [0.0, 3.0],
        [1.0, two(127)],
        [1.0, 0.0],
        [two(-63), 1.0],
    ] {
        assert_eq!(
            judge("OpFDiv", &args, 12345.0, false),
            RelaxedOutcome::Undefined,
            "{args:?}"
        );
    }
    assert!(passes(judge(
        "OpFDiv",
        &[two(62), two(-62)],
        two(124),
        false
    )));
}

#[test]
fn fma_or_mul_add_and_sincos_outputs() {
    // x*y = 1 - 2^-48 exactly: the fma gives -2^-48, multiply-then-add gives 0.
    let args = [1.0 - two(-24), 1.0 + two(-24), -1.0];
    assert!(passes(judge("OpFMul_OpFAdd", &args, -two(-48), false)));
    assert!(passes(judge("OpFMul_OpFAdd", &args, 0.0, true)));
    assert!(fails(judge("OpFMul_OpFAdd", &args, two(-48), false)));

    let sincos = rule("sincos");
    let sine = sincos.output(0).unwrap();
    let cosine = sincos.output(1).unwrap();
    assert!(sincos.output(2).is_none());
    assert_eq!(sine.instruction(), "sin");
    assert_eq!(cosine.instruction(), "cos");
    let c = exact(reference::cos, &[0.5]);
    assert!(passes(cosine.judge(
        &[0.5],
        F.round(c + two(-12)),
        F,
        false
    )));
    assert!(fails(cosine.judge(&[0.5], F.round(c + two(-10)), F, false)));
    assert_eq!(rule("sin").output(0).map(|r| r.instruction()), Some("sin"));
}

#[test]
#[should_panic(expected = "several outputs")]
fn judging_sincos_as_one_result_is_a_mistake() {
    rule("sincos").judge(&[0.5], 0.5, F, false);
}

#[test]
fn describe_names_the_cell_applied() {
    assert_eq!(
        rule("sin").describe(false),
        "abs<=2^-11 if x in [-pi,pi]; else unbounded"
    );
    assert_eq!(rule("exp").describe(false), "<=3+floor(|2x|) ulp");
    assert_eq!(rule("exp").describe(true), "<=4 ulp");
    assert_eq!(rule("acos").describe(true), "<=4096 ulp");
    assert_eq!(
        rule("tan").describe(false),
        "derived:sin(x)*(1/cos(x)) or <=8192 ulp"
    );
    assert_eq!(
        rule("OpFDiv").describe(true),
        "<=3 ulp if x==1 and |y| in [2^-126,2^126]; \
         <=3 ulp if |x| in [2^-62,2^62] and |y| in [2^-62,2^62]; else unbounded"
    );
    assert!(rule("pow")
        .describe(false)
        .contains("; derived:-exp2(y*log2(fabs(x))) or <=8192 ulp if x<0 and y odd;"));
    assert!(rule("atanh")
        .describe(false)
        .starts_with("undefined if not x in (-1,1); derived:x or <=8192 ulp if"));
    assert_eq!(
        rule("tanh").describe(false).split("; ").last(),
        Some("else derived:(exp(x)-exp(-x))/(exp(x)+exp(-x)) or <=8192 ulp")
    );
    assert_eq!(
        rule("OpFMul_OpFAdd").describe(false),
        "correctly rounded fma or mul+add"
    );
    assert_eq!(
        rule("sincos").describe(false),
        "sin: [abs<=2^-11 if x in [-pi,pi]; else unbounded], \
         cos: [abs<=2^-11 if x in [-pi,pi]; else unbounded]"
    );
}

/// A correctly rounded result meets every relaxed rule: the rules only loosen Table 3.
/// Exercises the interval evaluation on the probe inputs and on seeded random ones.
#[test]
fn correctly_rounded_results_never_fail() {
    let mut state: u64 = 0x5eed;
    let mut random = move |low: f64, high: f64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
        F.round(low + (high - low) * unit)
    };
    let mut unary = probe_values(true);
    let mut pairs: Vec<[f64; 2]> = Vec::new();
    let small = probe_values(false);
    for &a in &small {
        for &b in &small {
            pairs.push([a, b]);
        }
    }
    for _ in 0..300 {
        unary.push(random(-100.0, 100.0));
        unary.push(random(-1.5, 1.5));
        pairs.push([random(0.0, 10.0), random(-20.0, 20.0)]);
        pairs.push([random(-10.0, 10.0), random(-6.0, 6.0).round()]);
    }
    let mut judged = 0;
    for row in &builtin().rows {
        let rules: Vec<&RelaxedRule> = (0..2).filter_map(|i| row.float32.output(i)).collect();
        for rule in rules {
            let entry = catalog(rule.instruction()).unwrap();
            let inputs: Vec<Vec<f64>> = match entry.parameters.len() {
                1 => unary.iter().map(|&x| vec![x]).collect(),
                2 => pairs.iter().map(|p| p.to_vec()).collect(),
                _ => vec![
                    vec![1.0 - two(-24), 1.0 + two(-24), -1.0],
                    vec![3.0, 0.1, 7.0],
                ],
            };
            for args in inputs {
                let operands: Vec<Float> = args.iter().map(|&a| reference::operand(a)).collect();
                let rounded =
                    reference::correctly_rounded(reference_of(entry.name).unwrap(), &operands, F);
                for embedded in [false, true] {
                    let outcome = rule.judge(&args, rounded.to_f64(), F, embedded);
                    assert!(
                        !fails(outcome),
                        "{}{args:?} = {} ({}) : {outcome:?}",
                        rule.instruction(),
                        rounded.to_f64(),
                        if embedded { "embedded" } else { "full" }
                    );
                    judged += 1;
                }
            }
        }
    }
    assert!(judged > 50_000, "{judged}");
}
