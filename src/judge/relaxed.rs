//! Accuracy under `-cl-fast-relaxed-math`: Table 5 of the OpenCL SPIR-V Environment
//! Specification ("ULP Values for Single Precision Math Instructions with
//! -cl-fast-relaxed-math", 003_606d5394990817d6.txt), kept as data in `tables/ulp_relaxed.csv`,
//! read by [`parse`], and applied to one device result by [`RelaxedRule::judge`].
//!
//! The table has one column, Float32; a few cells give a full-profile and an embedded-profile
//! number, so every rule carries both and `judge` / `describe` take the profile. An instruction
//! the table does not list ([`RelaxedTable::rule`] gives `None`), and every Float64 and Float16
//! instruction, keeps its Table 3 (full) or Table 4 (embedded) requirement, as the table's
//! introduction says.
//!
//! A rule is a list of pieces tried in order; the first whose condition holds for the inputs
//! decides. A piece allows one or more alternatives ("derived ... or <= 8192 ulp"); a result
//! passes when one of them accepts it. The alternatives (cell grammar in `tables/README.md`):
//! - `<= N ulp`, `<= A+floor(|Kx|) ulp`: [`ulp_error`] against the exact result, with the
//!   Vulkan appendix's overflow allowance (002_8f60b82f04afe871.txt, "ULP": an infinity or the
//!   largest finite value of the right sign where the allowed range reaches past it);
//! - `abs <= B`: |device − exact| <= B;
//! - `derived F`: the appendix's "Inherited From" rule. F is evaluated on the inputs in interval
//!   arithmetic, every operation's exact range (MPFR, rounded outwards) widened by that
//!   operation's own allowed error — its Table 5 rule when it has one ("the operations used in
//!   the derivation may themselves be relaxed"), else its Table 3 / Table 4 cell (correctly
//!   rounded operations widen to the two neighbouring floats, "either the floating-point value
//!   closest to and no less than x or the value closest to and no greater than x"). That gives
//!   [Fmin, Fmax]; the result must lie in [x − E, x + E] with x the exact result of the
//!   instruction and E = max(|x − Fmin|, |x − Fmax|);
//! - `fma_or_mul_add`: the correctly rounded fma or the correctly rounded multiply-then-add;
//! - `table`: the instruction's Table 3 / Table 4 cell;
//! - `unbounded` (the spec bounds nothing there: "and larger otherwise", a division outside its
//!   domain) and `undefined` (the spec says so, or "Defined for" excludes the input): the
//!   outcome is [`RelaxedOutcome::Undefined`], never pass or fail.
//!
//! Values without a number, decided here once:
//! - an `undefined` piece wins over everything, NaN included;
//! - otherwise a NaN exact result requires a NaN (any NaN), whatever the piece says;
//! - a derived range that may contain NaN (an operation outside its domain) or is unbounded (a
//!   pole, an operation without a bound, an infinite input reaching a finite result) permits any
//!   result: the outcome is `Undefined`, as is an x-dependent bound that is infinite;
//! - an exact result that is infinite must come back as that infinity or a value of the derived
//!   range; overflow of intermediate operations is not modelled (their ranges are real
//!   intervals), the final range gets the overflow allowance instead;
//! - inside a formula, an operation whose inputs and exact result are all among ±0, ±1, ±inf
//!   returns its exact result: ISO C Annex F prescribes those values (exp2(−inf) = +0,
//!   log(1) = +0, cos(0) = 1, ...), and "the usual allowances for rounding error" do not apply.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use rug::float::{Constant, Round};
use rug::ops::AssignRound;
use rug::{Float, Integer};

use crate::num::fp::FloatType;
use crate::num::ulp::{ulp_error, ulp_of};
use crate::reference::{self, ReferenceFn};
use crate::spec::table::{self, Profile, Requirement};
use crate::spec::table::{read_data, DataRecord};

// ---- The table ----

/// Table 5, rows in the spec's order.
#[derive(Clone, Debug)]
pub struct RelaxedTable {
    /// The file the rows were read from, as given to [`parse`].
    pub source: String,
    pub rows: Vec<RelaxedRow>,
}

/// One instruction of Table 5.
#[derive(Clone, Debug)]
pub struct RelaxedRow {
    /// The name `tables/ulp_full.csv` uses (`OpFDiv`, `exp`); `OpFMul_OpFAdd` for the spec's
    /// "OpFMul and OpFAdd for x * y + z".
    pub instruction: String,
    /// Line of the row in its data file.
    pub line: usize,
    /// The rule for Float32, the table's only column (profile-specific numbers inside).
    pub float32: RelaxedRule,
    /// The spec's words for the row: "heading: cell", two spec rows joined by ` | `.
    pub spec: String,
}

impl RelaxedTable {
    /// The rule of one instruction for one element type; `None` when Table 5 does not list it
    /// (every Float64 and Float16 instruction included): the caller falls back to Table 3 / 4.
    pub fn rule(&self, instruction: &str, element: FloatType) -> Option<&RelaxedRule> {
        if element != FloatType::Float {
            return None;
        }
        self.row(instruction).map(|row| &row.float32)
    }

    /// The row of one instruction.
    pub fn row(&self, instruction: &str) -> Option<&RelaxedRow> {
        self.rows.iter().find(|row| row.instruction == instruction)
    }
}

/// What one Table 5 cell demands.
#[derive(Clone, Debug)]
pub enum RelaxedRule {
    /// One result, decided by the first piece whose condition holds; the last piece has no
    /// condition, so every input has one.
    Pieces {
        instruction: String,
        pieces: Vec<Piece>,
    },
    /// `sincos`: "ulp values as defined for sin(x) and cos(x)": one rule per output, in output
    /// order; judge each output with [`RelaxedRule::output`].
    PerOutput {
        instruction: String,
        outputs: Vec<RelaxedRule>,
    },
}

/// One piece of a rule: where it applies (`None`: everywhere left) and what it allows.
#[derive(Clone, Debug)]
pub struct Piece {
    pub condition: Option<Condition>,
    /// A result passes when one alternative accepts it.
    pub alternatives: Vec<Alternative>,
}

/// One alternative, per profile; the two are equal unless the cell says `full A embedded B`.
#[derive(Clone, Debug)]
pub struct Alternative {
    pub full: Bound,
    pub embedded: Bound,
}

impl Alternative {
    pub fn bound(&self, embedded: bool) -> &Bound {
        if embedded {
            &self.embedded
        } else {
            &self.full
        }
    }
}

/// One kind of requirement.
#[derive(Clone, Debug)]
pub enum Bound {
    /// `<= N ulp`.
    Ulp(f64),
    /// `<= A+floor(|Kx|) ulp`: base + floor(|factor * argument|) ulp.
    UlpGrowing {
        base: f64,
        factor: f64,
        parameter: usize,
        name: String,
    },
    /// `abs <= B`: the absolute error is at most B.
    Absolute(Number),
    /// `derived F`: inherited from the formula (module docs).
    Derived(Formula),
    /// `fma_or_mul_add`: a correctly rounded fma, or a correctly rounded multiply followed by a
    /// correctly rounded add.
    FmaOrMulAdd,
    /// `table`: the instruction's cell in Table 3 (in `Alternative::full`) or Table 4.
    Table(Requirement),
    /// `unbounded`: the spec bounds nothing.
    Unbounded,
    /// `undefined`: the result is undefined.
    Undefined,
}

/// A number of the cell grammar, exact (`pi` to 256 bits), with its text for reports.
#[derive(Clone, Debug)]
pub struct Number {
    pub value: Float,
    pub text: String,
}

/// Where a piece applies, over the instruction's parameters.
#[derive(Clone, Debug)]
pub enum Condition {
    /// `x < 1`, `|y| == 0`, ...
    Compare {
        operand: Operand,
        comparison: Comparison,
        bound: Number,
    },
    /// `x in [a, b]`, `x in (a, b)`.
    Within {
        operand: Operand,
        low: Number,
        high: Number,
        open_low: bool,
        open_high: bool,
    },
    /// `y integer` (parity `None`), `y odd`, `y even`: finite integers only.
    Integer {
        operand: Operand,
        parity: Option<Parity>,
    },
    Not(Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
}

/// A parameter, or its magnitude (`|x|`).
#[derive(Clone, Debug)]
pub struct Operand {
    pub parameter: usize,
    pub name: String,
    pub magnitude: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    Odd,
    Even,
}

/// A derived implementation's formula.
#[derive(Clone, Debug)]
pub enum Formula {
    Parameter {
        index: usize,
        name: String,
    },
    /// A float constant: a number or `M_PI_F` / `M_1_PI_F` (the floats nearest π and 1/π).
    Constant {
        value: f64,
        name: String,
    },
    /// Unary minus, exact.
    Negate(Box<Formula>),
    /// An instruction: `OpFAdd`, `OpFSub`, `OpFMul`, `OpFDiv` for `+ - * /`, or a function.
    Operation {
        instruction: String,
        arguments: Vec<Formula>,
        error: OperationError,
    },
}

/// The error an operation inside a formula may make.
#[derive(Clone, Debug)]
pub enum OperationError {
    /// None (only before the table is linked; [`parse`] replaces it).
    Exact,
    /// Not in Table 5: its Table 3 and Table 4 Float32 cells.
    Table {
        full: Requirement,
        embedded: Requirement,
    },
    /// Its own Table 5 rule.
    Relaxed(Box<RelaxedRule>),
}

/// How an error is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorUnit {
    /// [`ulp_error`] against the exact result.
    Ulp,
    /// |device − exact|.
    Absolute,
}

/// The verdict on one result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RelaxedOutcome {
    Pass {
        error: f64,
        unit: ErrorUnit,
    },
    Fail {
        error: f64,
        unit: ErrorUnit,
    },
    /// The spec leaves the result undefined or unbounded for these inputs.
    Undefined,
}

// ---- Instructions clacc knows here ----

/// An instruction the rules can name: its parameters (in argument order) and exact reference.
struct Entry {
    name: &'static str,
    parameters: &'static [&'static str],
    reference: ReferenceFn,
}

const X: &[&str] = &["x"];
const XY: &[&str] = &["x", "y"];
const YX: &[&str] = &["y", "x"];
const XYZ: &[&str] = &["x", "y", "z"];

const fn entry(
    name: &'static str,
    parameters: &'static [&'static str],
    reference: ReferenceFn,
) -> Entry {
    Entry {
        name,
        parameters,
        reference,
    }
}

/// Every Table 5 instruction and every operation a formula may use.
const CATALOG: &[Entry] = &[
    entry("OpFDiv", XY, reference::div),
    entry("acos", X, reference::acos),
    entry("acosh", X, reference::acosh),
    entry("acospi", X, reference::acospi),
    entry("asin", X, reference::asin),
    entry("asinh", X, reference::asinh),
    entry("asinpi", X, reference::asinpi),
    entry("atan", X, reference::atan),
    entry("atanh", X, reference::atanh),
    entry("atanpi", X, reference::atanpi),
    entry("atan2", YX, reference::atan2),
    entry("atan2pi", YX, reference::atan2pi),
    entry("cbrt", X, reference::cbrt),
    entry("cos", X, reference::cos),
    entry("cosh", X, reference::cosh),
    entry("cospi", X, reference::cospi),
    entry("exp", X, reference::exp),
    entry("exp2", X, reference::exp2),
    entry("exp10", X, reference::exp10),
    entry("expm1", X, reference::expm1),
    entry("log", X, reference::log),
    entry("log2", X, reference::log2),
    entry("log10", X, reference::log10),
    entry("log1p", X, reference::log1p),
    entry("pow", XY, reference::pow),
    // pown(x, n) = pow(x, n) for an integer n; its y is an int.
    entry("pown", XY, reference::pow),
    entry("powr", XY, reference::powr),
    entry("rootn", XY, reference::rootn),
    entry("sin", X, reference::sin),
    // Judged per output through the sin and cos rows.
    entry("sincos", X, reference::sin),
    entry("sinh", X, reference::sinh),
    entry("sinpi", X, reference::sinpi),
    entry("tan", X, reference::tan),
    entry("tanh", X, reference::tanh),
    entry("tanpi", X, reference::tanpi),
    entry("OpFMul_OpFAdd", XYZ, reference::fma),
    entry("OpFAdd", XY, reference::add),
    entry("OpFSub", XY, reference::sub),
    entry("OpFMul", XY, reference::mul),
    entry("sqrt", X, reference::sqrt),
    entry("fabs", X, reference::fabs),
];

/// The functions a formula may call, with their argument counts.
const FORMULA_FUNCTIONS: &[(&str, usize)] = &[
    ("sqrt", 1),
    ("log", 1),
    ("log2", 1),
    ("log10", 1),
    ("exp", 1),
    ("exp2", 1),
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("acos", 1),
    ("asin", 1),
    ("atan", 1),
    ("fabs", 1),
    ("atan2", 2),
    ("rootn", 2),
];

fn catalog(name: &str) -> Option<&'static Entry> {
    CATALOG.iter().find(|entry| entry.name == name)
}

// ---- Errors and the loader ----

/// A Table 5 file that cannot be read: the one error type of the files in `tables/`.
pub type RelaxedError = crate::spec::table::TableError;

/// The header the file starts with, and the field names errors use.
const COLUMNS: [&str; 3] = ["instruction", "float32", "spec"];

/// Reads Table 5 from CSV text (format in `tables/README.md`). `source_name` is only used in
/// the table's `source` and in errors. Every problem (CSV syntax, header, field count,
/// instruction, rule text, a name the rule cannot resolve, an empty `spec`, a duplicate) is an
/// error naming file, line and field. Formulas and `table` bounds are resolved against this
/// table and the built-in Tables 3 and 4.
pub fn parse(source_name: &str, text: &str) -> Result<RelaxedTable, RelaxedError> {
    let error = |line: usize, field: &str, message: String| RelaxedError {
        file: source_name.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut rows: Vec<RelaxedRow> = Vec::new();
    for DataRecord {
        line,
        fields: record,
    } in read_data(source_name, text, &COLUMNS)?
    {
        let instruction = &record[0];
        let Some(entry) = catalog(instruction) else {
            let known: Vec<&str> = CATALOG.iter().map(|e| e.name).collect();
            return Err(error(
                line,
                COLUMNS[0],
                format!(
                    "unknown instruction `{instruction}`: expected one of {}",
                    known.join(", ")
                ),
            ));
        };
        if let Some(first) = rows.iter().find(|row| row.instruction == *instruction) {
            return Err(error(
                line,
                COLUMNS[0],
                format!(
                    "duplicate instruction `{instruction}`: first given on line {}",
                    first.line
                ),
            ));
        }
        let float32 = parse_rule(entry, &record[1]).map_err(|m| error(line, COLUMNS[1], m))?;
        let spec = record[2].to_string();
        if spec.is_empty() {
            return Err(error(
                line,
                COLUMNS[2],
                "empty: give the spec's words for the row".to_string(),
            ));
        }
        rows.push(RelaxedRow {
            instruction: instruction.to_string(),
            line,
            float32,
            spec,
        });
    }

    link_rows(&mut rows).map_err(|(line, message)| error(line, COLUMNS[1], message))?;
    Ok(RelaxedTable {
        source: source_name.to_string(),
        rows,
    })
}

/// The checked-in Table 5: `tables/ulp_relaxed.csv` compiled into the binary, parsed once.
/// Panics, naming the file, if that file is malformed; the tests guarantee it is not.
pub fn builtin() -> &'static RelaxedTable {
    static TABLE: OnceLock<RelaxedTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse(
            "tables/ulp_relaxed.csv",
            include_str!("../../tables/ulp_relaxed.csv"),
        )
        .unwrap_or_else(|e| panic!("the built-in relaxed-math table is malformed: {e}"))
    })
}

/// The checked-in Table 5 of one revision of the text: `tables/ulp_relaxed.csv` (2017) or
/// `tables/ulp_relaxed_2026.csv`, compiled into the binary, parsed once.
pub fn builtin_in(revision: crate::spec::table::Revision) -> &'static RelaxedTable {
    static CURRENT: OnceLock<RelaxedTable> = OnceLock::new();
    match revision {
        crate::spec::table::Revision::Spec2017 => builtin(),
        crate::spec::table::Revision::Spec2026 => CURRENT.get_or_init(|| {
            parse(
                "tables/ulp_relaxed_2026.csv",
                include_str!("../../tables/ulp_relaxed_2026.csv"),
            )
            .unwrap_or_else(|e| panic!("the built-in 2026 relaxed-math table is malformed: {e}"))
        }),
    }
}

// ---- Linking: formulas and outputs refer to other rows ----

/// Replaces every formula operation's placeholder error with the operation's own rule (a row
/// of this table, linked first) or its Table 3 / 4 cells, and every `outputs` name with that
/// row's rule. Errors carry the line of the row that needs the name.
fn link_rows(rows: &mut [RelaxedRow]) -> Result<(), (usize, String)> {
    let mut done = vec![false; rows.len()];
    for index in 0..rows.len() {
        link_row(index, rows, &mut done, &mut Vec::new())?;
    }
    Ok(())
}

fn link_row(
    index: usize,
    rows: &mut [RelaxedRow],
    done: &mut [bool],
    path: &mut Vec<usize>,
) -> Result<(), (usize, String)> {
    if done[index] {
        return Ok(());
    }
    if let Some(start) = path.iter().position(|&i| i == index) {
        let names: Vec<&str> = path[start..]
            .iter()
            .chain([&index])
            .map(|&i| rows[i].instruction.as_str())
            .collect();
        return Err((
            rows[index].line,
            format!(
                "`{}` depends on itself: {}",
                rows[index].instruction,
                names.join(" -> ")
            ),
        ));
    }
    path.push(index);
    let mut names = Vec::new();
    rule_names(&rows[index].float32, &mut names);
    for name in names {
        if let Some(other) = rows.iter().position(|row| row.instruction == name) {
            link_row(other, rows, done, path)?;
        }
    }
    let mut rule = rows[index].float32.clone();
    link_rule(&mut rule, rows).map_err(|message| (rows[index].line, message))?;
    rows[index].float32 = rule;
    done[index] = true;
    path.pop();
    Ok(())
}

/// Every instruction a rule refers to: formula operations and `outputs` names.
fn rule_names(rule: &RelaxedRule, names: &mut Vec<String>) {
    match rule {
        RelaxedRule::PerOutput { outputs, .. } => names.extend(
            outputs
                .iter()
                .map(|output| output.instruction().to_string()),
        ),
        RelaxedRule::Pieces { pieces, .. } => {
            for alternative in pieces.iter().flat_map(|p| &p.alternatives) {
                for bound in [&alternative.full, &alternative.embedded] {
                    if let Bound::Derived(formula) = bound {
                        formula_names(formula, names);
                    }
                }
            }
        }
    }
}

fn formula_names(formula: &Formula, names: &mut Vec<String>) {
    match formula {
        Formula::Parameter { .. } | Formula::Constant { .. } => {}
        Formula::Negate(inner) => formula_names(inner, names),
        Formula::Operation {
            instruction,
            arguments,
            ..
        } => {
            names.push(instruction.clone());
            for argument in arguments {
                formula_names(argument, names);
            }
        }
    }
}

fn link_rule(rule: &mut RelaxedRule, rows: &[RelaxedRow]) -> Result<(), String> {
    match rule {
        RelaxedRule::PerOutput { outputs, .. } => {
            for output in outputs.iter_mut() {
                let name = output.instruction().to_string();
                let row = rows
                    .iter()
                    .find(|row| row.instruction == name)
                    .ok_or_else(|| {
                        format!("`outputs` names `{name}`, which is not a row of this table")
                    })?;
                if matches!(row.float32, RelaxedRule::PerOutput { .. }) {
                    return Err(format!(
                        "`outputs` names `{name}`, which has several outputs itself"
                    ));
                }
                *output = row.float32.clone();
            }
        }
        RelaxedRule::Pieces { pieces, .. } => {
            for alternative in pieces.iter_mut().flat_map(|p| &mut p.alternatives) {
                for bound in [&mut alternative.full, &mut alternative.embedded] {
                    if let Bound::Derived(formula) = bound {
                        link_formula(formula, rows)?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn link_formula(formula: &mut Formula, rows: &[RelaxedRow]) -> Result<(), String> {
    match formula {
        Formula::Parameter { .. } | Formula::Constant { .. } => Ok(()),
        Formula::Negate(inner) => link_formula(inner, rows),
        Formula::Operation {
            instruction,
            arguments,
            error,
        } => {
            for argument in arguments.iter_mut() {
                link_formula(argument, rows)?;
            }
            *error = match rows.iter().find(|row| row.instruction == *instruction) {
                Some(row) => {
                    if matches!(row.float32, RelaxedRule::PerOutput { .. }) {
                        return Err(format!(
                            "the formula uses `{instruction}`, which has several outputs"
                        ));
                    }
                    OperationError::Relaxed(Box::new(row.float32.clone()))
                }
                None => {
                    let cell = |profile: Profile| {
                        table::builtin(profile)
                            .row(instruction)
                            .map(|row| row.float32.clone())
                    };
                    match (cell(Profile::Full), cell(Profile::Embedded)) {
                        (Some(full), Some(embedded)) => OperationError::Table { full, embedded },
                        _ => {
                            return Err(format!(
                                "the formula uses `{instruction}`, which is neither a row of \
                                 this table nor of Tables 3 and 4"
                            ))
                        }
                    }
                }
            };
            Ok(())
        }
    }
}

// ---- The cell grammar ----

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Number(String),
    Symbol(&'static str),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(text) | Token::Number(text) => write!(f, "`{text}`"),
            Token::Symbol(symbol) => write!(f, "`{symbol}`"),
        }
    }
}

/// Two-character symbols first, so `<=` is not read as `<` then `=`.
const SYMBOLS: [&str; 19] = [
    "<=", ">=", "==", "!=", "<", ">", "(", ")", "[", "]", ",", ";", ":", "+", "-", "*", "/", "|",
    "^",
];

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && chars[i] == '.' {
                i += 1;
                if !(i < chars.len() && chars[i].is_ascii_digit()) {
                    return Err(format!(
                        "`{}` is not a number: digits must follow the `.`",
                        chars[start..i].iter().collect::<String>()
                    ));
                }
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            tokens.push(Token::Number(chars[start..i].iter().collect()));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let symbol = SYMBOLS
                .iter()
                .find(|s| rest.starts_with(**s))
                .ok_or_else(|| format!("unexpected character `{c}`"))?;
            tokens.push(Token::Symbol(symbol));
            i += symbol.len();
        }
    }
    Ok(tokens)
}

/// Precision of the grammar's numbers: `pi` to 256 bits compares exactly with any f64.
const NUMBER_PRECISION: u32 = 256;

/// A cell being read. Messages say what was expected and what was found.
struct Parser<'a> {
    tokens: Vec<Token>,
    position: usize,
    entry: &'a Entry,
}

/// What a cell holds before linking.
enum Cell {
    Pieces(Vec<Piece>),
    Outputs(Vec<String>),
}

fn parse_rule(entry: &Entry, text: &str) -> Result<RelaxedRule, String> {
    let tokens = tokenize(text).map_err(|m| format!("cannot read `{text}`: {m}"))?;
    if tokens.is_empty() {
        return Err("empty rule: expected a bound such as `<= 4096 ulp`".to_string());
    }
    let mut parser = Parser {
        tokens,
        position: 0,
        entry,
    };
    let cell = parser
        .cell()
        .map_err(|m| format!("cannot read `{text}`: {m}"))?;
    let instruction = entry.name.to_string();
    Ok(match cell {
        Cell::Pieces(pieces) => RelaxedRule::Pieces {
            instruction,
            pieces,
        },
        Cell::Outputs(names) => RelaxedRule::PerOutput {
            instruction,
            // Placeholders naming the rows; `link_rule` puts the rows' rules in their place.
            outputs: names
                .into_iter()
                .map(|name| RelaxedRule::Pieces {
                    instruction: name,
                    pieces: Vec::new(),
                })
                .collect(),
        },
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.position).cloned();
        self.position += 1;
        token
    }

    fn at_end(&self) -> bool {
        self.position >= self.tokens.len()
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(token) => format!("found {token}"),
            None => "found the end of the rule".to_string(),
        }
    }

    fn at_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(w)) if w == word)
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let hit = self.at_word(word);
        if hit {
            self.position += 1;
        }
        hit
    }

    fn eat_symbol(&mut self, symbol: &str) -> bool {
        let hit = matches!(self.peek(), Some(Token::Symbol(s)) if *s == symbol);
        if hit {
            self.position += 1;
        }
        hit
    }

    fn expect_symbol(&mut self, symbol: &str, context: &str) -> Result<(), String> {
        if self.eat_symbol(symbol) {
            Ok(())
        } else {
            Err(format!("expected `{symbol}` {context}, {}", self.found()))
        }
    }

    fn expect_word(&mut self, word: &str, context: &str) -> Result<(), String> {
        if self.eat_word(word) {
            Ok(())
        } else {
            Err(format!("expected `{word}` {context}, {}", self.found()))
        }
    }

    fn cell(&mut self) -> Result<Cell, String> {
        if self.eat_word("outputs") {
            let mut names = Vec::new();
            loop {
                match self.next() {
                    Some(Token::Word(name)) => names.push(name),
                    _ => {
                        self.position -= 1;
                        return Err(format!(
                            "expected an instruction name after `outputs`, {}",
                            self.found()
                        ));
                    }
                }
                if !self.eat_symbol(",") {
                    break;
                }
            }
            if !self.at_end() {
                return Err(format!("expected `,` or the end, {}", self.found()));
            }
            return Ok(Cell::Outputs(names));
        }
        let mut pieces = Vec::new();
        loop {
            if self.eat_word("when") {
                let condition = self.condition()?;
                self.expect_symbol(":", "after the condition")?;
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: Some(condition),
                    alternatives,
                });
            } else if self.eat_word("else") {
                self.expect_symbol(":", "after `else`")?;
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: None,
                    alternatives,
                });
                if !self.at_end() {
                    return Err(format!("`else` must be the last piece, {}", self.found()));
                }
                break;
            } else if pieces.is_empty() {
                let alternatives = self.alternatives()?;
                pieces.push(Piece {
                    condition: None,
                    alternatives,
                });
                if !self.at_end() {
                    return Err(format!(
                        "expected `or` or the end after a rule without `when`, {}",
                        self.found()
                    ));
                }
                break;
            } else {
                return Err(format!("expected `when` or `else`, {}", self.found()));
            }
            if self.at_end() {
                break;
            }
            self.expect_symbol(";", "between pieces")?;
        }
        if pieces.last().is_some_and(|p| p.condition.is_some()) {
            return Err(
                "the last piece has a condition: end with `else: ...` so every input has a rule"
                    .to_string(),
            );
        }
        Ok(Cell::Pieces(pieces))
    }

    fn alternatives(&mut self) -> Result<Vec<Alternative>, String> {
        let mut alternatives = vec![self.alternative()?];
        while self.eat_word("or") {
            alternatives.push(self.alternative()?);
        }
        let alone = |b: &Bound| matches!(b, Bound::Undefined | Bound::Unbounded);
        if alternatives.len() > 1
            && alternatives
                .iter()
                .any(|a| alone(&a.full) || alone(&a.embedded))
        {
            return Err("`undefined` and `unbounded` stand alone: no `or`".to_string());
        }
        Ok(alternatives)
    }

    fn alternative(&mut self) -> Result<Alternative, String> {
        if self.eat_word("full") {
            let full = self.bound(Profile::Full)?;
            self.expect_word("embedded", "after the full-profile bound")?;
            let embedded = self.bound(Profile::Embedded)?;
            return Ok(Alternative { full, embedded });
        }
        let start = self.position;
        let full = self.bound(Profile::Full)?;
        let embedded = if matches!(full, Bound::Table(_)) {
            self.position = start;
            self.bound(Profile::Embedded)?
        } else {
            full.clone()
        };
        Ok(Alternative { full, embedded })
    }

    fn bound(&mut self, profile: Profile) -> Result<Bound, String> {
        const FORMS: &str = "`<= N ulp`, `<= A+floor(|Kx|) ulp`, `abs <= B`, `derived FORMULA`, \
            `fma_or_mul_add`, `table`, `unbounded` or `undefined`";
        if self.eat_symbol("<=") {
            let count = self.count()?;
            if self.eat_symbol("+") {
                self.expect_word("floor", "in `<= A+floor(|Kx|) ulp`")?;
                self.expect_symbol("(", "after `floor`")?;
                self.expect_symbol("|", "in `floor(|Kx|)`")?;
                let factor = self.count()?;
                let (parameter, name) = self.parameter()?;
                self.expect_symbol("|", "in `floor(|Kx|)`")?;
                self.expect_symbol(")", "in `floor(|Kx|)`")?;
                self.expect_word("ulp", "after `floor(...)`")?;
                return Ok(Bound::UlpGrowing {
                    base: count,
                    factor,
                    parameter,
                    name,
                });
            }
            self.expect_word("ulp", "after the number of ulps")?;
            return Ok(Bound::Ulp(count));
        }
        let word = match self.peek() {
            Some(Token::Word(word)) => word.clone(),
            _ => return Err(format!("expected one of {FORMS}, {}", self.found())),
        };
        self.position += 1;
        match word.as_str() {
            "abs" => {
                self.expect_symbol("<=", "after `abs`")?;
                let bound = self.number()?;
                if bound.value <= 0 {
                    return Err(format!(
                        "an absolute bound must be positive, found `{}`",
                        bound.text
                    ));
                }
                Ok(Bound::Absolute(bound))
            }
            "derived" => Ok(Bound::Derived(self.expression()?)),
            "fma_or_mul_add" => Ok(Bound::FmaOrMulAdd),
            "table" => {
                let name = self.entry.name;
                table::builtin(profile)
                    .row(name)
                    .map(|row| Bound::Table(row.float32.clone()))
                    .ok_or_else(|| format!("`table`: `{name}` has no row in Table 3 / Table 4"))
            }
            "unbounded" => Ok(Bound::Unbounded),
            "undefined" => Ok(Bound::Undefined),
            _ => {
                self.position -= 1;
                Err(format!("expected one of {FORMS}, {}", self.found()))
            }
        }
    }

    /// A number of ulps: digits with an optional decimal part (`4`, `2.5`).
    fn count(&mut self) -> Result<f64, String> {
        match self.next() {
            Some(Token::Number(text)) => text
                .parse::<f64>()
                .map_err(|_| format!("`{text}` is not a number of ulps")),
            _ => {
                self.position -= 1;
                Err(format!(
                    "expected a number such as `4` or `2.5`, {}",
                    self.found()
                ))
            }
        }
    }

    /// `0.5`, `-88`, `2^-126`, `pi`, `-pi`.
    fn number(&mut self) -> Result<Number, String> {
        let negative = self.eat_symbol("-");
        let (mut value, mut text) = if self.eat_word("pi") {
            (
                Float::with_val(NUMBER_PRECISION, Constant::Pi),
                "pi".to_string(),
            )
        } else {
            let digits = match self.next() {
                Some(Token::Number(digits)) => digits,
                _ => {
                    self.position -= 1;
                    return Err(format!(
                        "expected a number (`0.5`, `2^-126`, `pi`), {}",
                        self.found()
                    ));
                }
            };
            if self.eat_symbol("^") {
                if digits != "2" {
                    return Err(format!(
                        "only powers of two take `^`: expected `2^N`, found `{digits}^`"
                    ));
                }
                let negative_exponent = self.eat_symbol("-");
                let exponent = match self.next() {
                    Some(Token::Number(e)) if e.bytes().all(|b| b.is_ascii_digit()) => e,
                    _ => {
                        self.position -= 1;
                        return Err(format!(
                            "expected a whole exponent after `2^`, {}",
                            self.found()
                        ));
                    }
                };
                let magnitude: i32 = exponent
                    .parse()
                    .ok()
                    .filter(|e| *e <= 100_000)
                    .ok_or_else(|| format!("the exponent `{exponent}` is too large"))?;
                let sign = if negative_exponent { "-" } else { "" };
                let mut value = Float::with_val(NUMBER_PRECISION, 1);
                value <<= if negative_exponent {
                    -magnitude
                } else {
                    magnitude
                };
                (value, format!("2^{sign}{exponent}"))
            } else {
                let parsed = Float::parse(&digits).map_err(|e| format!("`{digits}`: {e}"))?;
                (Float::with_val(NUMBER_PRECISION, parsed), digits)
            }
        };
        if negative {
            value = -value;
            text = format!("-{text}");
        }
        Ok(Number { value, text })
    }

    fn parameter(&mut self) -> Result<(usize, String), String> {
        let parameters = self.entry.parameters;
        if let Some(Token::Word(name)) = self.peek() {
            if let Some(index) = parameters.iter().position(|p| p == name) {
                let name = name.clone();
                self.position += 1;
                return Ok((index, name));
            }
        }
        Err(format!(
            "expected a parameter of `{}` ({}), {}",
            self.entry.name,
            parameters.join(", "),
            self.found()
        ))
    }

    fn condition(&mut self) -> Result<Condition, String> {
        let mut condition = self.conjunction()?;
        while self.eat_word("or") {
            let right = self.conjunction()?;
            condition = Condition::Or(Box::new(condition), Box::new(right));
        }
        Ok(condition)
    }

    fn conjunction(&mut self) -> Result<Condition, String> {
        let mut condition = self.negation()?;
        while self.eat_word("and") {
            let right = self.negation()?;
            condition = Condition::And(Box::new(condition), Box::new(right));
        }
        Ok(condition)
    }

    fn negation(&mut self) -> Result<Condition, String> {
        if self.eat_word("not") {
            return Ok(Condition::Not(Box::new(self.negation()?)));
        }
        if self.eat_symbol("(") {
            let condition = self.condition()?;
            self.expect_symbol(")", "to close the condition")?;
            return Ok(condition);
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Condition, String> {
        let magnitude = self.eat_symbol("|");
        let (parameter, name) = self.parameter()?;
        if magnitude {
            self.expect_symbol("|", "after the parameter")?;
        }
        let operand = Operand {
            parameter,
            name,
            magnitude,
        };
        let comparisons = [
            ("<", Comparison::Less),
            ("<=", Comparison::LessEqual),
            (">", Comparison::Greater),
            (">=", Comparison::GreaterEqual),
            ("==", Comparison::Equal),
            ("!=", Comparison::NotEqual),
        ];
        for (symbol, comparison) in comparisons {
            if self.eat_symbol(symbol) {
                let bound = self.number()?;
                return Ok(Condition::Compare {
                    operand,
                    comparison,
                    bound,
                });
            }
        }
        if self.eat_word("in") {
            let open_low = if self.eat_symbol("(") {
                true
            } else if self.eat_symbol("[") {
                false
            } else {
                return Err(format!("expected `[` or `(` after `in`, {}", self.found()));
            };
            let low = self.number()?;
            self.expect_symbol(",", "between the interval's ends")?;
            let high = self.number()?;
            let open_high = if self.eat_symbol(")") {
                true
            } else if self.eat_symbol("]") {
                false
            } else {
                return Err(format!(
                    "expected `]` or `)` to close the interval, {}",
                    self.found()
                ));
            };
            if low.value > high.value {
                return Err(format!(
                    "the interval's ends are reversed: `{}` > `{}`",
                    low.text, high.text
                ));
            }
            return Ok(Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            });
        }
        for (word, parity) in [
            ("integer", None),
            ("odd", Some(Parity::Odd)),
            ("even", Some(Parity::Even)),
        ] {
            if self.eat_word(word) {
                return Ok(Condition::Integer { operand, parity });
            }
        }
        Err(format!(
            "expected `<`, `<=`, `>`, `>=`, `==`, `!=`, `in`, `integer`, `odd` or `even` \
             after `{}`, {}",
            operand.name,
            self.found()
        ))
    }

    fn expression(&mut self) -> Result<Formula, String> {
        let mut left = self.product()?;
        loop {
            let instruction = if self.eat_symbol("+") {
                "OpFAdd"
            } else if self.eat_symbol("-") {
                "OpFSub"
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = operation(instruction, vec![left, right]);
        }
    }

    fn product(&mut self) -> Result<Formula, String> {
        let mut left = self.unary()?;
        loop {
            let instruction = if self.eat_symbol("*") {
                "OpFMul"
            } else if self.eat_symbol("/") {
                "OpFDiv"
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = operation(instruction, vec![left, right]);
        }
    }

    fn unary(&mut self) -> Result<Formula, String> {
        if self.eat_symbol("-") {
            return Ok(Formula::Negate(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Formula, String> {
        match self.next() {
            Some(Token::Number(digits)) => {
                let value: f64 = digits
                    .parse()
                    .map_err(|_| format!("`{digits}` is not a number"))?;
                let exact = Float::with_val(
                    NUMBER_PRECISION,
                    Float::parse(&digits).map_err(|e| format!("`{digits}`: {e}"))?,
                );
                if exact != value || f64::from(value as f32) != value {
                    return Err(format!(
                        "the constant `{digits}` is not a float: formulas compute in Float32"
                    ));
                }
                Ok(Formula::Constant {
                    value,
                    name: format!("{value}"),
                })
            }
            Some(Token::Word(word)) => {
                let constant = match word.as_str() {
                    "M_PI_F" => Some(std::f32::consts::PI),
                    "M_1_PI_F" => Some(std::f32::consts::FRAC_1_PI),
                    _ => None,
                };
                if let Some(value) = constant {
                    return Ok(Formula::Constant {
                        value: f64::from(value),
                        name: word,
                    });
                }
                if let Some(index) = self.entry.parameters.iter().position(|p| *p == word) {
                    return Ok(Formula::Parameter { index, name: word });
                }
                if let Some(&(_, arity)) = FORMULA_FUNCTIONS.iter().find(|(f, _)| *f == word) {
                    self.expect_symbol("(", &format!("after `{word}`"))?;
                    let mut arguments = vec![self.expression()?];
                    while self.eat_symbol(",") {
                        arguments.push(self.expression()?);
                    }
                    self.expect_symbol(")", &format!("to close `{word}(`"))?;
                    if arguments.len() != arity {
                        return Err(format!(
                            "`{word}` takes {arity} argument(s), found {}",
                            arguments.len()
                        ));
                    }
                    return Ok(operation(&word, arguments));
                }
                let functions: Vec<&str> = FORMULA_FUNCTIONS.iter().map(|(f, _)| *f).collect();
                self.position -= 1;
                Err(format!(
                    "unknown name `{word}` in the formula: expected a parameter ({}), \
                     `M_PI_F`, `M_1_PI_F`, a number or one of the functions {}",
                    self.entry.parameters.join(", "),
                    functions.join(", ")
                ))
            }
            Some(Token::Symbol("(")) => {
                let inner = self.expression()?;
                self.expect_symbol(")", "to close `(`")?;
                Ok(inner)
            }
            _ => {
                self.position -= 1;
                Err(format!(
                    "expected a formula (a parameter, a number, a function call), {}",
                    self.found()
                ))
            }
        }
    }
}

fn operation(instruction: &str, arguments: Vec<Formula>) -> Formula {
    Formula::Operation {
        instruction: instruction.to_string(),
        arguments,
        error: OperationError::Exact,
    }
}

// ---- Formulas clacc corrects ----

/// The note for a failure that rests on a Table 5 formula clacc reads differently from its
/// printed text (the corrections are explained in `tables/ulp_relaxed.csv`), given the
/// failing input; `None` when the input's piece is printed as the spec has it.
pub fn correction(instruction: &str, args: &[f64]) -> Option<&'static str> {
    let even_power_of_negative =
        || matches!(args, [x, y] if *x < 0.0 && y.fract() == 0.0 && (y / 2.0).fract() == 0.0);
    match instruction {
        "acospi" => Some(
            "judged by a corrected formula: acos(x) * M_1_PI_F where Table 5 prints \
             acos(x) * M_PI_F",
        ),
        "asinpi" => Some(
            "judged by a corrected formula: asin(x) * M_1_PI_F where Table 5 prints \
             asin(x) * M_PI_F",
        ),
        "pow" | "pown" if even_power_of_negative() => Some(
            "judged by a corrected formula: exp2(y * log2(fabs(x))) where Table 5 prints \
             exp2(y * log2(x)) for x < 0 and even y",
        ),
        _ => None,
    }
}

// ---- Judging one result ----

/// One alternative's verdict.
enum Verdict {
    Pass(f64, ErrorUnit),
    Fail(f64, ErrorUnit),
    /// The alternative permits any result.
    Unconstrained,
    /// The alternative states no bound here: a derived formula through an operation the spec
    /// leaves unbounded for its arguments ("larger otherwise", a division outside its domain,
    /// an implementation-defined operation). Another alternative ("For non-derived
    /// implementations, the error is <= 8192 ulp") then judges.
    Unstated,
}

impl RelaxedRule {
    /// The instruction the rule belongs to.
    pub fn instruction(&self) -> &str {
        match self {
            RelaxedRule::Pieces { instruction, .. }
            | RelaxedRule::PerOutput { instruction, .. } => instruction,
        }
    }

    /// The rule of one output: output 0 of a single-output rule is the rule itself; `sincos`
    /// has the sin rule (0) and the cos rule (1).
    pub fn output(&self, index: usize) -> Option<&RelaxedRule> {
        match self {
            RelaxedRule::Pieces { .. } => (index == 0).then_some(self),
            RelaxedRule::PerOutput { outputs, .. } => outputs.get(index),
        }
    }

    /// `args` are the inputs as given to the device (values of `element`), `device_result` what
    /// it returned; `embedded` selects the embedded-profile numbers where the table has them.
    ///
    /// Panics on a rule with several outputs (judge each [`RelaxedRule::output`]) and when
    /// `args` does not hold one value per parameter of the instruction.
    pub fn judge(
        &self,
        args: &[f64],
        device_result: f64,
        element: FloatType,
        embedded: bool,
    ) -> RelaxedOutcome {
        self.judge_with_rounding(args, device_result, element, embedded, Round::Nearest)
    }

    /// [`RelaxedRule::judge`] on a device whose default rounding ("Rounding Modes") is
    /// `rounding`: what a correctly rounded alternative means.
    pub fn judge_with_rounding(
        &self,
        args: &[f64],
        device_result: f64,
        element: FloatType,
        embedded: bool,
        rounding: Round,
    ) -> RelaxedOutcome {
        let (instruction, pieces) = match self {
            RelaxedRule::Pieces {
                instruction,
                pieces,
            } => (instruction, pieces),
            RelaxedRule::PerOutput { instruction, .. } => panic!(
                "`{instruction}` has several outputs: judge each with RelaxedRule::output(i)"
            ),
        };
        let entry =
            catalog(instruction).unwrap_or_else(|| panic!("no reference for `{instruction}`"));
        assert_eq!(
            args.len(),
            entry.parameters.len(),
            "`{instruction}` takes {} argument(s)",
            entry.parameters.len()
        );
        let piece = pieces
            .iter()
            .find(|p| p.condition.as_ref().is_none_or(|c| c.holds(args)))
            .expect("the last piece of a rule has no condition");
        let bounds: Vec<&Bound> = piece
            .alternatives
            .iter()
            .map(|a| a.bound(embedded))
            .collect();
        if bounds.iter().any(|b| matches!(b, Bound::Undefined)) {
            return RelaxedOutcome::Undefined;
        }
        let operands: Vec<Float> = args.iter().map(|&a| reference::operand(a)).collect();
        let exact = reference::high_precision(entry.reference, &operands, element);
        if exact.is_nan() {
            return if device_result.is_nan() {
                RelaxedOutcome::Pass {
                    error: 0.0,
                    unit: ErrorUnit::Ulp,
                }
            } else {
                RelaxedOutcome::Fail {
                    error: f64::INFINITY,
                    unit: ErrorUnit::Ulp,
                }
            };
        }
        let mut context = Context::new(element, embedded);
        context.rounding = rounding;
        let verdicts: Vec<Verdict> = bounds
            .iter()
            .map(|bound| {
                let judged = Judged {
                    args,
                    operands: &operands,
                    exact: &exact,
                    device_result,
                    entry,
                    context: &context,
                };
                judged.verdict(bound)
            })
            .collect();
        if verdicts.iter().any(|v| matches!(v, Verdict::Unconstrained)) {
            return RelaxedOutcome::Undefined;
        }
        if let Some(Verdict::Pass(error, unit)) =
            verdicts.iter().find(|v| matches!(v, Verdict::Pass(..)))
        {
            return RelaxedOutcome::Pass {
                error: *error,
                unit: *unit,
            };
        }
        // The alternatives that state a bound and refuse the result decide; when none states
        // one, the spec bounds nothing here.
        match verdicts.iter().find(|v| matches!(v, Verdict::Fail(..))) {
            Some(Verdict::Fail(error, unit)) => RelaxedOutcome::Fail {
                error: *error,
                unit: *unit,
            },
            _ => RelaxedOutcome::Undefined,
        }
    }

    /// Short text for the CSV `rule` column, e.g. `abs<=2^-11 if x in [-pi,pi]; else
    /// unbounded`, `derived:exp2(y*log2(x)) or <=8192 ulp`, `<=3+floor(|2x|) ulp`.
    pub fn describe(&self, embedded: bool) -> String {
        match self {
            RelaxedRule::Pieces { pieces, .. } => pieces
                .iter()
                .map(|piece| {
                    let alternatives: Vec<String> = piece
                        .alternatives
                        .iter()
                        .map(|a| a.bound(embedded).describe(embedded))
                        .collect();
                    let alternatives = alternatives.join(" or ");
                    match &piece.condition {
                        Some(condition) => format!("{alternatives} if {condition}"),
                        None if pieces.len() == 1 => alternatives,
                        None => format!("else {alternatives}"),
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            RelaxedRule::PerOutput { outputs, .. } => outputs
                .iter()
                .map(|o| format!("{}: [{}]", o.instruction(), o.describe(embedded)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl Bound {
    /// Short text, with the profile's numbers.
    pub fn describe(&self, embedded: bool) -> String {
        match self {
            Bound::Ulp(n) => format!("<={n} ulp"),
            Bound::UlpGrowing {
                base, factor, name, ..
            } => format!("<={base}+floor(|{factor}{name}|) ulp"),
            Bound::Absolute(bound) => format!("abs<={}", bound.text),
            Bound::Derived(formula) => format!("derived:{formula}"),
            Bound::FmaOrMulAdd => "correctly rounded fma or mul+add".to_string(),
            Bound::Table(requirement) => format!(
                "as Table {}: {}",
                if embedded { 4 } else { 3 },
                requirement.describe()
            ),
            Bound::Unbounded => "unbounded".to_string(),
            Bound::Undefined => "undefined".to_string(),
        }
    }
}

/// One result being judged, and what every alternative needs.
struct Judged<'a> {
    args: &'a [f64],
    operands: &'a [Float],
    exact: &'a Float,
    device_result: f64,
    entry: &'a Entry,
    context: &'a Context,
}

impl Judged<'_> {
    fn verdict(&self, bound: &Bound) -> Verdict {
        let element = self.context.element;
        match bound {
            Bound::Ulp(n) => self.within_ulps(*n),
            Bound::UlpGrowing {
                base,
                factor,
                parameter,
                ..
            } => {
                let n = base + (factor * self.args[*parameter]).abs().floor();
                if n.is_finite() {
                    self.within_ulps(n)
                } else {
                    Verdict::Unconstrained
                }
            }
            Bound::Absolute(bound) => {
                let d = self.device_result;
                let error = if d.is_finite() {
                    let mut difference = Float::with_val(self.exact.prec() + 64, d);
                    difference -= self.exact;
                    difference.abs().to_f64_round(Round::Up)
                } else {
                    f64::INFINITY
                };
                if bound.value >= error {
                    Verdict::Pass(error, ErrorUnit::Absolute)
                } else {
                    Verdict::Fail(error, ErrorUnit::Absolute)
                }
            }
            Bound::Derived(formula) => {
                let inputs: Vec<Permitted> =
                    self.args.iter().map(|&a| self.context.point(a)).collect();
                self.context.unstated.set(false);
                let range = evaluate(formula, &inputs, self.context);
                let error = ulp_error(self.device_result, self.exact, element);
                match self.inherited_accepts(range) {
                    None if self.context.unstated.get() => Verdict::Unstated,
                    None => Verdict::Unconstrained,
                    Some(true) => Verdict::Pass(error, ErrorUnit::Ulp),
                    Some(false) => Verdict::Fail(error, ErrorUnit::Ulp),
                }
            }
            Bound::FmaOrMulAdd => self.fma_or_mul_add(),
            Bound::Table(requirement) => match requirement {
                Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => self.within_ulps(*n),
                Requirement::CorrectlyRounded
                | Requirement::Exact
                | Requirement::RemquoExact { .. } => self.matches_rounded(&[self.entry.reference]),
                Requirement::MadFmaOrMulAdd => self.fma_or_mul_add(),
                // Table 5's instructions have none of the geometric cells; nothing to bound.
                Requirement::ImplementationDefined
                | Requirement::NotApplicable
                | Requirement::UlpPerWidth(_)
                | Requirement::Absolute(_)
                | Requirement::AbsoluteMaxSquared { .. } => Verdict::Unconstrained,
            },
            Bound::Unbounded => Verdict::Unconstrained,
            Bound::Undefined => unreachable!("undefined pieces are decided before judging"),
        }
    }

    fn within_ulps(&self, n: f64) -> Verdict {
        let element = self.context.element;
        let error = ulp_error(self.device_result, self.exact, element);
        if error <= n || overflow_allowed(self.exact, n, self.device_result, element) {
            Verdict::Pass(error, ErrorUnit::Ulp)
        } else {
            Verdict::Fail(error, ErrorUnit::Ulp)
        }
    }

    fn fma_or_mul_add(&self) -> Verdict {
        self.matches_rounded(&[reference::fma, reference::mul_then_add])
    }

    /// Whether the result is one of the correctly rounded results of `functions`, in the
    /// device's default rounding.
    fn matches_rounded(&self, functions: &[ReferenceFn]) -> Verdict {
        let element = self.context.element;
        let error = ulp_error(self.device_result, self.exact, element);
        let d = self.device_result;
        let hit = functions.iter().any(|&function| {
            let expected = reference::correctly_rounded_in(
                function,
                self.operands,
                element,
                self.context.rounding,
            )
            .to_f64();
            (d.is_nan() && expected.is_nan()) || d == expected
        });
        if hit {
            Verdict::Pass(error, ErrorUnit::Ulp)
        } else {
            Verdict::Fail(error, ErrorUnit::Ulp)
        }
    }

    /// The "Inherited From" acceptance for a derived range `[Fmin, Fmax]` around the exact
    /// result x (module docs); `None` when any result is permitted.
    fn inherited_accepts(&self, range: Permitted) -> Option<bool> {
        let (low, high) = match range {
            Permitted::Anything => return None,
            Permitted::Between(low, high) => (low, high),
        };
        let d = self.device_result;
        if d.is_nan() {
            return Some(false);
        }
        let max = self.context.element.max_finite();
        let x = self.exact;
        let (low, high) = if x.is_infinite() {
            // The permitted values: the formula's range, and x itself.
            if *x == d {
                return Some(true);
            }
            (low, high)
        } else {
            if low.is_infinite() || high.is_infinite() {
                return None;
            }
            let precision = self.context.precision;
            let e = larger(up(x - &low, precision), up(&high - x, precision));
            (down(x - &e, precision), up(x + &e, precision))
        };
        let inside = low <= d && high >= d;
        let overflow = (d == f64::INFINITY || d == max) && high > max
            || (d == f64::NEG_INFINITY || d == -max) && low < -max;
        Some(inside || overflow)
    }
}

/// The Vulkan appendix's overflow rule: the allowed range [x − n·ulp(x), x + n·ulp(x)] reaches
/// beyond the largest finite value, so ±inf or ±max (with x's sign) are allowed too.
fn overflow_allowed(exact: &Float, bound: f64, device_result: f64, element: FloatType) -> bool {
    let max = element.max_finite();
    let candidate = device_result.is_infinite() || device_result.abs() == max;
    if !candidate || !exact.is_finite() {
        return false;
    }
    if device_result.is_sign_negative() != exact.is_sign_negative() {
        return false;
    }
    let mut reach = Float::with_val(exact.prec() + 64, &*exact.as_abs());
    reach += bound * ulp_of(exact, element);
    reach > max
}

// ---- Conditions ----

/// A three-valued truth over interval inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    Yes,
    No,
    Maybe,
}

impl Truth {
    fn of(value: bool) -> Truth {
        if value {
            Truth::Yes
        } else {
            Truth::No
        }
    }

    fn not(self) -> Truth {
        match self {
            Truth::Yes => Truth::No,
            Truth::No => Truth::Yes,
            Truth::Maybe => Truth::Maybe,
        }
    }

    fn and(self, other: Truth) -> Truth {
        match (self, other) {
            (Truth::No, _) | (_, Truth::No) => Truth::No,
            (Truth::Yes, Truth::Yes) => Truth::Yes,
            _ => Truth::Maybe,
        }
    }

    fn or(self, other: Truth) -> Truth {
        self.not().and(other.not()).not()
    }
}

impl Condition {
    /// Whether the condition holds for the inputs. As in IEEE 754, a NaN compares false except
    /// with `!=`, and it is no integer.
    pub fn holds(&self, args: &[f64]) -> bool {
        match self {
            Condition::Compare {
                operand,
                comparison,
                bound,
            } => {
                let v = operand.value(args);
                let c = &bound.value;
                match comparison {
                    Comparison::Less => *c > v,
                    Comparison::LessEqual => *c >= v,
                    Comparison::Greater => *c < v,
                    Comparison::GreaterEqual => *c <= v,
                    Comparison::Equal => *c == v,
                    Comparison::NotEqual => *c != v,
                }
            }
            Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            } => {
                let v = operand.value(args);
                let above = if *open_low {
                    low.value < v
                } else {
                    low.value <= v
                };
                let below = if *open_high {
                    high.value > v
                } else {
                    high.value >= v
                };
                above && below
            }
            Condition::Integer { operand, parity } => {
                let v = operand.value(args);
                let integer = v.is_finite() && v.fract() == 0.0;
                match parity {
                    None => integer,
                    Some(Parity::Odd) => integer && (v % 2.0).abs() == 1.0,
                    Some(Parity::Even) => integer && v % 2.0 == 0.0,
                }
            }
            Condition::Not(inner) => !inner.holds(args),
            Condition::And(a, b) => a.holds(args) && b.holds(args),
            Condition::Or(a, b) => a.holds(args) || b.holds(args),
        }
    }

    /// Whether the condition holds for every, no, or some point of the input intervals.
    fn over(&self, inputs: &[Permitted]) -> Truth {
        match self {
            Condition::Compare {
                operand,
                comparison,
                bound,
            } => {
                let Some((lo, hi)) = operand.range(inputs) else {
                    return Truth::Maybe;
                };
                let c = &bound.value;
                let decide = |yes: bool, no: bool| {
                    if yes {
                        Truth::Yes
                    } else if no {
                        Truth::No
                    } else {
                        Truth::Maybe
                    }
                };
                let equal = decide(lo == *c && hi == *c, hi < *c || lo > *c);
                match comparison {
                    Comparison::Less => decide(hi < *c, lo >= *c),
                    Comparison::LessEqual => decide(hi <= *c, lo > *c),
                    Comparison::Greater => decide(lo > *c, hi <= *c),
                    Comparison::GreaterEqual => decide(lo >= *c, hi < *c),
                    Comparison::Equal => equal,
                    Comparison::NotEqual => equal.not(),
                }
            }
            Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            } => {
                let Some((lo, hi)) = operand.range(inputs) else {
                    return Truth::Maybe;
                };
                let above = |v: &Float| {
                    if *open_low {
                        *v > low.value
                    } else {
                        *v >= low.value
                    }
                };
                let below = |v: &Float| {
                    if *open_high {
                        *v < high.value
                    } else {
                        *v <= high.value
                    }
                };
                if above(&lo) && below(&hi) {
                    Truth::Yes
                } else if !above(&hi) || !below(&lo) {
                    Truth::No
                } else {
                    Truth::Maybe
                }
            }
            Condition::Integer { operand, parity } => match operand.range(inputs) {
                Some((lo, hi)) if lo == hi => {
                    let integer = lo.to_integer().filter(|_| lo.is_integer());
                    Truth::of(match (integer, parity) {
                        (None, _) => false,
                        (Some(_), None) => true,
                        (Some(n), Some(Parity::Odd)) => n.is_odd(),
                        (Some(n), Some(Parity::Even)) => n.is_even(),
                    })
                }
                _ => Truth::Maybe,
            },
            Condition::Not(inner) => inner.over(inputs).not(),
            Condition::And(a, b) => a.over(inputs).and(b.over(inputs)),
            Condition::Or(a, b) => a.over(inputs).or(b.over(inputs)),
        }
    }
}

impl Operand {
    fn value(&self, args: &[f64]) -> f64 {
        let v = args[self.parameter];
        if self.magnitude {
            v.abs()
        } else {
            v
        }
    }

    /// The operand's range over interval inputs; `None` when it may be anything.
    fn range(&self, inputs: &[Permitted]) -> Option<(Float, Float)> {
        let Permitted::Between(lo, hi) = &inputs[self.parameter] else {
            return None;
        };
        if !self.magnitude || *lo >= 0 {
            return Some((lo.clone(), hi.clone()));
        }
        if *hi <= 0 {
            return Some((-hi.clone(), -lo.clone()));
        }
        let zero = Float::with_val(lo.prec(), 0);
        Some((zero, larger(-lo.clone(), hi.clone())))
    }
}

// ---- Interval evaluation of derived formulas ----

/// The values an operation may return: any (NaN among them, or the spec bounds nothing), or a
/// closed interval of the extended reals (an infinite end: unbounded on that side).
#[derive(Clone, Debug)]
enum Permitted {
    Anything,
    Between(Float, Float),
}

/// The element type, the profile, and the precision interval ends are computed at.
struct Context {
    element: FloatType,
    embedded: bool,
    precision: u32,
    /// The device's default rounding, what "correctly rounded" means for the result itself.
    rounding: Round,
    /// Set while evaluating a formula when an operation had no stated bound for its
    /// arguments ([`Verdict::Unstated`]).
    unstated: std::cell::Cell<bool>,
}

impl Context {
    fn new(element: FloatType, embedded: bool) -> Context {
        Context {
            element,
            embedded,
            precision: reference::working_precision(element) + 64,
            rounding: Round::Nearest,
            unstated: std::cell::Cell::new(false),
        }
    }

    fn float(&self, value: f64) -> Float {
        Float::with_val(self.precision, value)
    }

    fn point(&self, value: f64) -> Permitted {
        if value.is_nan() {
            Permitted::Anything
        } else {
            Permitted::Between(self.float(value), self.float(value))
        }
    }

    fn unbounded(&self) -> Permitted {
        Permitted::Between(self.float(f64::NEG_INFINITY), self.float(f64::INFINITY))
    }
}

fn smaller(a: Float, b: Float) -> Float {
    if b < a {
        b
    } else {
        a
    }
}

fn larger(a: Float, b: Float) -> Float {
    if b > a {
        b
    } else {
        a
    }
}

/// `value` (a `&Float` or an operation on floats) rounded down / up to `precision` bits.
fn down<T>(value: T, precision: u32) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(precision, value, Round::Down).0
}

fn up<T>(value: T, precision: u32) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(precision, value, Round::Up).0
}

fn hull(a: Permitted, b: Permitted) -> Permitted {
    match (a, b) {
        (Permitted::Between(a_lo, a_hi), Permitted::Between(b_lo, b_hi)) => {
            Permitted::Between(smaller(a_lo, b_lo), larger(a_hi, b_hi))
        }
        _ => Permitted::Anything,
    }
}

/// The values `formula` may produce when every operation errs as its rule allows.
fn evaluate(formula: &Formula, inputs: &[Permitted], context: &Context) -> Permitted {
    match formula {
        Formula::Parameter { index, .. } => inputs[*index].clone(),
        Formula::Constant { value, .. } => context.point(*value),
        Formula::Negate(inner) => match evaluate(inner, inputs, context) {
            Permitted::Anything => Permitted::Anything,
            Permitted::Between(lo, hi) => Permitted::Between(-hi, -lo),
        },
        Formula::Operation {
            instruction,
            arguments,
            error,
        } => {
            let arguments: Vec<Permitted> = arguments
                .iter()
                .map(|a| overflowed(evaluate(a, inputs, context), context))
                .collect();
            permitted(instruction, error, &arguments, context)
        }
    }
}

/// An intermediate value's range as the float evaluation sees it: where the permitted range
/// reaches past the largest finite value, the operation "may, additionally, return either an
/// infinity of the appropriate sign or the finite number with the largest magnitude"
/// (002_8f60b82f04afe871.txt, "ULP"), and the next operation receives that. So acosh's
/// x*x for x >= 2^64 in float may be +inf, and the formula's range becomes unbounded.
fn overflowed(range: Permitted, context: &Context) -> Permitted {
    let Permitted::Between(mut lo, mut hi) = range else {
        return range;
    };
    // Only finite values beyond the largest one overflow: an exact infinity (log2(0)) stays.
    let max = context.float(context.element.max_finite());
    let positive_infinity = context.float(f64::INFINITY);
    if hi > max && lo < positive_infinity {
        lo = smaller(lo, max.clone());
        hi = positive_infinity.clone();
    }
    if lo < -max.clone() && hi > -positive_infinity.clone() {
        hi = larger(hi, -max);
        lo = -positive_infinity;
    }
    Permitted::Between(lo, hi)
}

/// The values one operation may return for arguments in the given ranges.
fn permitted(
    instruction: &str,
    error: &OperationError,
    arguments: &[Permitted],
    context: &Context,
) -> Permitted {
    let mut spans = Vec::new();
    for argument in arguments {
        match argument {
            Permitted::Anything => return Permitted::Anything,
            Permitted::Between(lo, hi) => spans.push((lo.clone(), hi.clone())),
        }
    }
    let Some(exact) = exact_range(instruction, &spans, context) else {
        return Permitted::Anything;
    };
    // Already unbounded on both sides (a pole inside the arguments' ranges): no error rule can
    // widen it, and a rule's unbounded piece must not mark it as unstated.
    if prescribed(&spans, &exact) || (exact.0.is_infinite() && exact.1.is_infinite()) {
        return Permitted::Between(exact.0, exact.1);
    }
    match error {
        OperationError::Exact => Permitted::Between(exact.0, exact.1),
        OperationError::Table { full, embedded } => {
            let requirement = if context.embedded { embedded } else { full };
            requirement_range(requirement, &exact, context)
        }
        OperationError::Relaxed(rule) => rule_range(rule, arguments, &exact, context),
    }
}

/// Annex F's exact special values: every argument a single value among ±0, ±1, ±inf, and the
/// exact result a single such value.
fn prescribed(arguments: &[(Float, Float)], exact: &(Float, Float)) -> bool {
    let special = |v: &Float| v.is_infinite() || v.is_zero() || *v.as_abs() == 1;
    arguments.iter().all(|(lo, hi)| lo == hi && special(lo))
        && exact.0 == exact.1
        && special(&exact.0)
}

fn requirement_range(
    requirement: &Requirement,
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    match requirement {
        Requirement::CorrectlyRounded | Requirement::RemquoExact { .. } => Permitted::Between(
            to_grid(&exact.0, false, context),
            to_grid(&exact.1, true, context),
        ),
        Requirement::Exact => Permitted::Between(exact.0.clone(), exact.1.clone()),
        Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => widen_ulps(exact, *n, context),
        // Stated bounds that are not ULP bounds on one value (none of Table 5's formulas uses
        // an operation with one): any result is within them here.
        Requirement::MadFmaOrMulAdd
        | Requirement::UlpPerWidth(_)
        | Requirement::Absolute(_)
        | Requirement::AbsoluteMaxSquared { .. } => context.unbounded(),
        Requirement::ImplementationDefined | Requirement::NotApplicable => {
            context.unstated.set(true);
            context.unbounded()
        }
    }
}

/// The hull of the pieces of `rule` that may apply to the arguments.
fn rule_range(
    rule: &RelaxedRule,
    arguments: &[Permitted],
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    let RelaxedRule::Pieces { pieces, .. } = rule else {
        return Permitted::Anything;
    };
    let mut result: Option<Permitted> = None;
    for piece in pieces {
        let applies = piece
            .condition
            .as_ref()
            .map_or(Truth::Yes, |c| c.over(arguments));
        if applies == Truth::No {
            continue;
        }
        for alternative in &piece.alternatives {
            let bound = alternative.bound(context.embedded);
            let range = bound_range(bound, arguments, exact, context);
            result = Some(match result {
                None => range,
                Some(so_far) => hull(so_far, range),
            });
        }
        if applies == Truth::Yes {
            break;
        }
    }
    result.unwrap_or(Permitted::Anything)
}

fn bound_range(
    bound: &Bound,
    arguments: &[Permitted],
    exact: &(Float, Float),
    context: &Context,
) -> Permitted {
    let precision = context.precision;
    match bound {
        Bound::Ulp(n) => widen_ulps(exact, *n, context),
        Bound::UlpGrowing {
            base,
            factor,
            parameter,
            ..
        } => match &arguments[*parameter] {
            Permitted::Anything => context.unbounded(),
            Permitted::Between(lo, hi) => {
                let magnitude = larger(lo.clone().abs(), hi.clone().abs());
                let n = base + (factor * magnitude.to_f64_round(Round::Up)).floor();
                widen_ulps(exact, n, context)
            }
        },
        Bound::Absolute(bound) => Permitted::Between(
            down(&exact.0 - &bound.value, precision),
            up(&exact.1 + &bound.value, precision),
        ),
        Bound::Derived(formula) => inherit(exact, evaluate(formula, arguments, context), context),
        Bound::FmaOrMulAdd => {
            // Multiply then add, each correctly rounded, encloses the fma too.
            let product = permitted(
                "OpFMul",
                &OperationError::Table {
                    full: Requirement::CorrectlyRounded,
                    embedded: Requirement::CorrectlyRounded,
                },
                &arguments[..2],
                context,
            );
            permitted(
                "OpFAdd",
                &OperationError::Table {
                    full: Requirement::CorrectlyRounded,
                    embedded: Requirement::CorrectlyRounded,
                },
                &[product, arguments[2].clone()],
                context,
            )
        }
        Bound::Table(requirement) => requirement_range(requirement, exact, context),
        Bound::Unbounded => {
            context.unstated.set(true);
            context.unbounded()
        }
        Bound::Undefined => Permitted::Anything,
    }
}

/// A derived operation's own permitted range: [x − E, x + E] for every exact x in the range,
/// with E the largest distance from x to the formula's range.
fn inherit(exact: &(Float, Float), formula: Permitted, context: &Context) -> Permitted {
    let Permitted::Between(f_lo, f_hi) = formula else {
        return Permitted::Anything;
    };
    let (x_lo, x_hi) = exact;
    if !x_lo.is_finite() || !x_hi.is_finite() {
        return Permitted::Between(smaller(x_lo.clone(), f_lo), larger(x_hi.clone(), f_hi));
    }
    if !f_lo.is_finite() || !f_hi.is_finite() {
        return context.unbounded();
    }
    let precision = context.precision;
    let zero = context.float(0.0);
    let e = larger(
        larger(up(x_hi - &f_lo, precision), up(&f_hi - x_lo, precision)),
        zero,
    );
    Permitted::Between(down(x_lo - &e, precision), up(x_hi + &e, precision))
}

/// Widens exact values by n ulp of the element type. Infinite ends stay.
///
/// The largest v + n·ulp(v) over the range is at its upper end `hi` when `hi >= 0` (ulp grows
/// with |v|). When `hi < 0`, values beyond 2|hi| in magnitude stay below `hi` (as long as
/// n·2^(1−p) <= 1/2), so the gap at max(lo, 2·hi) bounds the rest. Symmetrically for the lower
/// end. Larger counts use the gap at the range's largest magnitude.
fn widen_ulps(exact: &(Float, Float), n: f64, context: &Context) -> Permitted {
    if !n.is_finite() {
        return context.unbounded();
    }
    let element = context.element;
    let precision = context.precision;
    let (lo, hi) = exact;
    let small = n <= f64::powi(2.0, element.precision() as i32 - 2);
    let widest = ulp_of(&larger(lo.clone().abs(), hi.clone().abs()), element);
    let (lower_gap, upper_gap) = if !small {
        (widest, widest)
    } else {
        let lower = if *lo > 0 {
            smaller(hi.clone(), lo.clone() * 2u32)
        } else {
            lo.clone()
        };
        let upper = if *hi < 0 {
            larger(lo.clone(), hi.clone() * 2u32)
        } else {
            hi.clone()
        };
        (ulp_of(&lower, element), ulp_of(&upper, element))
    };
    let new_lo = if lo.is_infinite() {
        lo.clone()
    } else {
        down(lo - &(context.float(lower_gap) * n), precision)
    };
    let new_hi = if hi.is_infinite() {
        hi.clone()
    } else {
        up(hi + &(context.float(upper_gap) * n), precision)
    };
    Permitted::Between(new_lo, new_hi)
}

/// `value` rounded down or up to the element type's grid (its precision and subnormal spacing,
/// no overflow: above the largest finite value the top binade's spacing continues).
fn to_grid(value: &Float, up: bool, context: &Context) -> Float {
    if !value.is_finite() || value.is_zero() {
        return value.clone();
    }
    let element = context.element;
    let binade = value.get_exp().expect("finite non-zero value") - 1;
    let exponent = binade.max(element.emin()) - element.precision() as i32 + 1;
    let mut scaled = value.clone();
    scaled >>= exponent;
    let mut rounded = if up { scaled.ceil() } else { scaled.floor() };
    rounded <<= exponent;
    rounded
}

/// f(args) at the context's precision, as an interval that holds the exact value: the
/// correctly rounded result, widened by one unit of that precision unless MPFR says it is
/// exact. `None` for NaN.
fn at(function: ReferenceFn, args: &[&Float], context: &Context) -> Option<(Float, Float)> {
    let operands: Vec<Float> = args.iter().map(|a| (*a).clone()).collect();
    let mut out = Float::new(context.precision);
    let rounding = function(&mut out, &operands);
    if out.is_nan() {
        return None;
    }
    if rounding == Ordering::Equal || out.is_infinite() {
        return Some((out.clone(), out));
    }
    let (mut lo, mut hi) = (out.clone(), out);
    lo.next_down();
    hi.next_up();
    Some((lo, hi))
}

/// The exact values of an operation over argument ranges, enclosed; `None` when NaN is
/// possible.
fn exact_range(
    instruction: &str,
    spans: &[(Float, Float)],
    context: &Context,
) -> Option<(Float, Float)> {
    let reference = catalog(instruction)?.reference;
    let all_points = spans.iter().all(|(lo, hi)| lo == hi);
    let increasing = |(lo, hi): &(Float, Float)| -> Option<(Float, Float)> {
        Some((
            at(reference, &[lo], context)?.0,
            at(reference, &[hi], context)?.1,
        ))
    };
    match instruction {
        "OpFAdd" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            Some((
                at(reference, &[a_lo, b_lo], context)?.0,
                at(reference, &[a_hi, b_hi], context)?.1,
            ))
        }
        "OpFSub" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            Some((
                at(reference, &[a_lo, b_hi], context)?.0,
                at(reference, &[a_hi, b_lo], context)?.1,
            ))
        }
        "OpFMul" => corners(reference, &spans[0], &spans[1], context),
        "OpFDiv" => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (&spans[0], &spans[1]);
            if *b_lo <= 0 && *b_hi >= 0 {
                if *a_lo <= 0 && *a_hi >= 0 {
                    return None;
                }
                return match context.unbounded() {
                    Permitted::Between(lo, hi) => Some((lo, hi)),
                    Permitted::Anything => None,
                };
            }
            corners(reference, &spans[0], &spans[1], context)
        }
        "fabs" => {
            let (lo, hi) = &spans[0];
            if *lo >= 0 {
                Some((lo.clone(), hi.clone()))
            } else if *hi <= 0 {
                Some((-hi.clone(), -lo.clone()))
            } else {
                Some((context.float(0.0), larger(-lo.clone(), hi.clone())))
            }
        }
        "sqrt" | "log" | "log2" | "log10" => {
            if spans[0].0 < 0 {
                return None;
            }
            increasing(&spans[0])
        }
        "asin" | "acos" => {
            let (lo, hi) = &spans[0];
            if *lo < -1 || *hi > 1 {
                return None;
            }
            if instruction == "asin" {
                increasing(&spans[0])
            } else {
                Some((
                    at(reference, &[hi], context)?.0,
                    at(reference, &[lo], context)?.1,
                ))
            }
        }
        "exp" | "exp2" | "atan" => increasing(&spans[0]),
        "sin" | "cos" | "tan" => periodic(instruction, reference, &spans[0], context),
        _ if all_points => {
            let points: Vec<&Float> = spans.iter().map(|(lo, _)| lo).collect();
            at(reference, &points, context)
        }
        // atan2 over a box: within [-pi, pi].
        "atan2" => Some((context.float(-3.5), context.float(3.5))),
        _ => match context.unbounded() {
            Permitted::Between(lo, hi) => Some((lo, hi)),
            Permitted::Anything => None,
        },
    }
}

/// The extremes of f over the four corners of two ranges (f monotone in each argument on the
/// box: multiplication, or division away from a zero divisor).
fn corners(
    function: ReferenceFn,
    a: &(Float, Float),
    b: &(Float, Float),
    context: &Context,
) -> Option<(Float, Float)> {
    let mut result: Option<(Float, Float)> = None;
    for x in [&a.0, &a.1] {
        for y in [&b.0, &b.1] {
            let (lo, hi) = at(function, &[x, y], context)?;
            result = Some(match result {
                None => (lo, hi),
                Some((l, h)) => (smaller(l, lo), larger(h, hi)),
            });
        }
    }
    result
}

/// sin, cos and tan over a range: the ends, plus ±1 where an extremum of sin or cos may lie
/// inside; tan is unbounded where a pole may lie inside.
fn periodic(
    instruction: &str,
    function: ReferenceFn,
    (lo, hi): &(Float, Float),
    context: &Context,
) -> Option<(Float, Float)> {
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    if lo == hi {
        return at(function, &[lo], context);
    }
    let wide = Float::with_val(context.precision, hi - lo) > 6.25;
    let unbounded = || match context.unbounded() {
        Permitted::Between(lo, hi) => Some((lo, hi)),
        Permitted::Anything => None,
    };
    if wide {
        return if instruction == "tan" {
            unbounded()
        } else {
            Some((context.float(-1.0), context.float(1.0)))
        };
    }
    let a = at(function, &[lo], context)?;
    let b = at(function, &[hi], context)?;
    // Extrema of sin and poles of tan at pi/2 + k pi; extrema of cos at k pi.
    let critical = critical_points(lo, hi, instruction != "cos", context);
    if instruction == "tan" {
        return if critical.is_empty() {
            Some((a.0, b.1))
        } else {
            unbounded()
        };
    }
    let mut low = smaller(a.0, b.0);
    let mut high = larger(a.1, b.1);
    for k in critical {
        let value = context.float(if k.is_even() { 1.0 } else { -1.0 });
        low = smaller(low, value.clone());
        high = larger(high, value);
    }
    Some((low, high))
}

/// The integers k for which offset + k·pi (offset pi/2 or 0) may lie in [lo, hi], with a
/// slack of 2^-40 so that rounding can only add candidates.
fn critical_points(lo: &Float, hi: &Float, half_pi: bool, context: &Context) -> Vec<Integer> {
    let magnitude = [lo, hi]
        .iter()
        .filter_map(|v| v.get_exp())
        .max()
        .unwrap_or(0)
        .max(0);
    let precision = context.precision + magnitude as u32 + 32;
    let pi = Float::with_val(precision, Constant::Pi);
    let offset = if half_pi {
        Float::with_val(precision, &pi / 2u32)
    } else {
        Float::with_val(precision, 0)
    };
    let slack = Float::with_val(precision, 1) >> 40u32;
    let first = Float::with_val(precision, lo - &offset) / &pi - &slack;
    let last = Float::with_val(precision, hi - &offset) / &pi + &slack;
    let (Some(mut k), Some(last)) = (first.ceil().to_integer(), last.floor().to_integer()) else {
        return Vec::new();
    };
    let mut points = Vec::new();
    while k <= last {
        points.push(k.clone());
        k += 1;
    }
    points
}

// ---- Text ----

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.magnitude {
            write!(f, "|{}|", self.name)
        } else {
            f.write_str(&self.name)
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grouped =
            |c: &Condition, f: &mut fmt::Formatter<'_>, around: fn(&Condition) -> bool| {
                if around(c) {
                    write!(f, "({c})")
                } else {
                    write!(f, "{c}")
                }
            };
        match self {
            Condition::Compare {
                operand,
                comparison,
                bound,
            } => {
                let symbol = match comparison {
                    Comparison::Less => "<",
                    Comparison::LessEqual => "<=",
                    Comparison::Greater => ">",
                    Comparison::GreaterEqual => ">=",
                    Comparison::Equal => "==",
                    Comparison::NotEqual => "!=",
                };
                write!(f, "{operand}{symbol}{}", bound.text)
            }
            Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            } => write!(
                f,
                "{operand} in {}{},{}{}",
                if *open_low { "(" } else { "[" },
                low.text,
                high.text,
                if *open_high { ")" } else { "]" }
            ),
            Condition::Integer { operand, parity } => {
                let word = match parity {
                    None => "integer",
                    Some(Parity::Odd) => "odd",
                    Some(Parity::Even) => "even",
                };
                write!(f, "{operand} {word}")
            }
            Condition::Not(inner) => {
                f.write_str("not ")?;
                grouped(inner, f, |c| {
                    matches!(c, Condition::And(..) | Condition::Or(..))
                })
            }
            Condition::And(a, b) => {
                let is_or = |c: &Condition| matches!(c, Condition::Or(..));
                grouped(a, f, is_or)?;
                f.write_str(" and ")?;
                grouped(b, f, is_or)
            }
            Condition::Or(a, b) => write!(f, "{a} or {b}"),
        }
    }
}

/// The infix symbol of the four arithmetic instructions.
fn infix(instruction: &str) -> Option<(char, u8)> {
    match instruction {
        "OpFAdd" => Some(('+', 1)),
        "OpFSub" => Some(('-', 1)),
        "OpFMul" => Some(('*', 2)),
        "OpFDiv" => Some(('/', 2)),
        _ => None,
    }
}

impl Formula {
    /// Binding strength when printed: sums 1, products 2, unary minus 3, the rest 4.
    fn precedence(&self) -> u8 {
        match self {
            Formula::Operation { instruction, .. } => infix(instruction).map_or(4, |(_, p)| p),
            Formula::Negate(_) => 3,
            _ => 4,
        }
    }
}

/// Canonical text: no spaces, the parentheses the tree needs (operators associate left).
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Formula::Parameter { name, .. } | Formula::Constant { name, .. } => f.write_str(name),
            Formula::Negate(inner) => {
                if inner.precedence() < 4 {
                    write!(f, "-({inner})")
                } else {
                    write!(f, "-{inner}")
                }
            }
            Formula::Operation {
                instruction,
                arguments,
                ..
            } => match infix(instruction) {
                Some((symbol, precedence)) => {
                    let (left, right) = (&arguments[0], &arguments[1]);
                    if left.precedence() < precedence {
                        write!(f, "({left})")?;
                    } else {
                        write!(f, "{left}")?;
                    }
                    write!(f, "{symbol}")?;
                    if right.precedence() <= precedence {
                        write!(f, "({right})")
                    } else {
                        write!(f, "{right}")
                    }
                }
                None => {
                    let texts: Vec<String> = arguments.iter().map(|a| a.to_string()).collect();
                    write!(f, "{instruction}({})", texts.join(","))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // ---- Transcription check: the data file against the spec text ----

    const SPEC: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/spec/003_606d5394990817d6.txt"
    );

    const TITLE: &str =
        "Table 5. ULP Values for Single Precision Math Instructions with -cl-fast-relaxed-math";

    /// One row as the spec prints it: its heading line and its cell (lines joined by spaces).
    struct SpecRow {
        line: usize,
        heading: String,
        text: String,
    }

    fn spec_text() -> String {
        std::fs::read_to_string(SPEC).unwrap_or_else(|e| {
            panic!("cannot read the spec at {SPEC} ({e}); the transcription check needs it")
        })
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
            if chars[i] == '.' && after_digit && chars.get(i + 1) == Some(&'0') && !digit_at(i + 2)
            {
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
            return meaning;
        }

        assert_eq!(rows.len(), 1, "`{instruction}` has several spec rows");
        let text = rows[0].text.as_str();
        // pow's bracketed paragraph is advice, not a requirement.
        let text = text.split(" [On some implementations").next().unwrap();
        let text = text.strip_suffix('.').unwrap_or(text);
        let mut only_listed = false;
        let derived = |f: &str| vec![Expect::Derived(spec_formula(f))];
        for sentence in text.split(". ") {
            let s = sentence;
            let mut case =
                |when: Predicate, expect: Vec<Expect>| meaning.cases.push(Case { when, expect });
            if let Some(n) = s.strip_prefix("<= ").and_then(|t| t.strip_suffix(" ulp")) {
                if !n.contains(' ') {
                    case(always(), vec![Expect::Ulp(spec_number(n), spec_number(n))]);
                    continue;
                }
            }
            if let Some(rest) =
                s.strip_prefix("<= 3 + floor( fabs(2 * x) ) ulp for the full profile, and <= ")
            {
                let n = rest
                    .strip_suffix(" ulp for the embedded profile")
                    .expect("exp: embedded bound");
                case(always(), vec![Expect::Growing(3.0, 2.0, spec_number(n))]);
                continue;
            }
            if s == "Implemented either as a correctly rounded fma or as a multiply and an add \
                     both of which are correctly rounded"
            {
                case(always(), vec![Expect::FmaOrMulAdd]);
                continue;
            }
            if s == "ulp values as defined for sin(x) and cos(x)" {
                case(
                    always(),
                    vec![Expect::Outputs(vec!["sin".into(), "cos".into()])],
                );
                continue;
            }
            if let Some(rest) = s.strip_prefix("For non-derived implementations, the error is <= ")
            {
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
                continue;
            }
            if instruction == "atan2" {
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
                    case(spec_condition(instruction, condition), derived(formula));
                    formula = next;
                }
                continue;
            }
            if let Some(f) = s
                .strip_prefix("Implemented as ")
                .or_else(|| s.strip_prefix("Derived implementations implement this as "))
            {
                case(always(), derived(f));
                continue;
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
                continue;
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
                continue;
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
                continue;
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
                continue;
            }
            if let Some(condition) = s.strip_prefix("Undefined for ") {
                case(
                    spec_condition(instruction, condition),
                    vec![Expect::Undefined],
                );
                continue;
            }
            if let Some(condition) = s.strip_prefix("Defined only for ") {
                let defined = spec_condition(instruction, condition);
                case(
                    Box::new(move |a: &[f64]| !defined(a)),
                    vec![Expect::Undefined],
                );
                continue;
            }
            if let Some(rest) = s.strip_prefix("Defined for ") {
                // rootn: the listed cases are the defined ones.
                only_listed = true;
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
                continue;
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
                continue;
            }
            panic!("`{instruction}`: unrecognised sentence `{s}`");
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

    const F: FloatType = FloatType::Float;

    fn two(e: i32) -> f64 {
        f64::powi(2.0, e)
    }

    /// The exact result, as the nearest f64.
    fn exact(function: ReferenceFn, args: &[f64]) -> f64 {
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
                    let operands: Vec<Float> =
                        args.iter().map(|&a| reference::operand(a)).collect();
                    let rounded = reference::correctly_rounded(entry.reference, &operands, F);
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

    // ---- The interval arithmetic ----

    fn context() -> Context {
        Context::new(F, false)
    }

    fn span(permitted: &Permitted) -> (f64, f64) {
        match permitted {
            Permitted::Between(lo, hi) => (lo.to_f64(), hi.to_f64()),
            Permitted::Anything => panic!("anything"),
        }
    }

    #[test]
    fn rounding_to_the_float_grid_and_widening_by_ulps() {
        let cx = context();
        let v = cx.float(1.0 + two(-30));
        assert_eq!(to_grid(&v, true, &cx).to_f64(), 1.0 + two(-23));
        assert_eq!(to_grid(&v, false, &cx).to_f64(), 1.0);
        let tiny = cx.float(3.0 * two(-151));
        assert_eq!(to_grid(&tiny, true, &cx).to_f64(), two(-149));
        assert_eq!(to_grid(&tiny, false, &cx).to_f64(), 0.0);
        let one = (cx.float(1.0), cx.float(1.0));
        // At 1 the ulp is the gap below, 2^-24, on both sides.
        assert_eq!(
            span(&widen_ulps(&one, 2.0, &cx)),
            (1.0 - two(-23), 1.0 + two(-23))
        );
        let range = (cx.float(-3.0), cx.float(-1.0));
        // Below -3: the gap at -3 (2^-22); above -1: the gap at -2 (2^-23) covers -1 - tiny.
        assert_eq!(
            span(&widen_ulps(&range, 1.0, &cx)),
            (-3.0 - two(-22), -1.0 + two(-23))
        );
        let infinite = (cx.float(f64::NEG_INFINITY), cx.float(0.0));
        assert_eq!(
            span(&widen_ulps(&infinite, 3.0, &cx)),
            (f64::NEG_INFINITY, 3.0 * two(-149))
        );
    }

    #[test]
    fn exact_ranges_find_extrema_and_poles() {
        let cx = context();
        let range = |instruction: &str, lo: f64, hi: f64| {
            exact_range(instruction, &[(cx.float(lo), cx.float(hi))], &cx)
                .map(|(lo, hi)| (lo.to_f64(), hi.to_f64()))
        };
        let (lo, hi) = range("sin", 1.5, 1.7).unwrap();
        assert_eq!(hi, 1.0);
        assert!((lo - 1.7f64.sin()).abs() < 1e-15);
        let (lo, _) = range("cos", 3.1, 3.2).unwrap();
        assert_eq!(lo, -1.0);
        let (lo, hi) = range("sin", 0.1, 0.2).unwrap();
        assert!((lo - exact(reference::sin, &[0.1])).abs() < 1e-16);
        assert!((hi - exact(reference::sin, &[0.2])).abs() < 1e-16);
        assert_eq!(
            range("tan", 1.5, 1.6),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(range("sin", 0.0, 10.0), Some((-1.0, 1.0)));
        assert_eq!(range("sin", 0.0, f64::INFINITY), None);
        assert_eq!(range("log", -1.0, 2.0), None);
        assert_eq!(range("acos", 0.5, 1.5), None);
        let (lo, hi) = range("acos", 0.0, 1.0).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        let divide = |a: (f64, f64), b: (f64, f64)| {
            exact_range(
                "OpFDiv",
                &[
                    (cx.float(a.0), cx.float(a.1)),
                    (cx.float(b.0), cx.float(b.1)),
                ],
                &cx,
            )
            .map(|(lo, hi)| (lo.to_f64(), hi.to_f64()))
        };
        assert_eq!(
            divide((1.0, 2.0), (-1.0, 1.0)),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(divide((-1.0, 2.0), (0.0, 1.0)), None);
        assert_eq!(divide((1.0, 2.0), (4.0, 8.0)), Some((0.125, 0.5)));
    }

    #[test]
    fn inherited_range_is_symmetric_around_the_exact_value() {
        let cx = context();
        let exact = (cx.float(2.0), cx.float(2.0));
        let formula = Permitted::Between(cx.float(1.0), cx.float(2.5));
        assert_eq!(span(&inherit(&exact, formula, &cx)), (1.0, 3.0));
        let unbounded = Permitted::Between(cx.float(1.0), cx.float(f64::INFINITY));
        assert_eq!(
            span(&inherit(&exact, unbounded, &cx)),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        assert!(matches!(
            inherit(&exact, Permitted::Anything, &cx),
            Permitted::Anything
        ));
    }

    // ---- Malformed input ----

    const HEADER: &str = "instruction,float32,spec\n";

    /// Parses `HEADER` + `body` (so body line k is file line k + 1) and returns the error.
    fn error_of(body: &str) -> RelaxedError {
        match parse("bad.csv", &format!("{HEADER}{body}")) {
            Ok(table) => panic!("accepted: {table:?}"),
            Err(e) => e,
        }
    }

    use crate::spec::table::assert_error;

    #[test]
    fn every_form_reads() {
        let text = "\
# comment\n\
\n\
instruction,float32,spec\n\
sin,\"when |x| <= pi and not (x < -3 or x > 3): abs <= 2^-11; else: table\",s\n\
exp,full <= 3+floor(|2x|) ulp embedded <= 4 ulp,e\n\
pown,\"when not y integer: undefined; when x >= 0 and y even: derived exp2(y * log2(x)) or <= 8192 ulp; else: unbounded\",p\n\
sincos,\"outputs sin, sin\",sc\n\
OpFMul_OpFAdd,fma_or_mul_add,m\n";
        let table = parse("t.csv", text).unwrap();
        assert_eq!(table.rows.len(), 5);
        assert_eq!(table.rows[0].line, 4, "comment and blank lines count");
        assert_eq!(table.rows[0].spec, "s");
        assert_eq!(
            table.rows[0].float32.describe(true),
            "abs<=2^-11 if |x|<=pi and not (x<-3 or x>3); else as Table 4: <= 4 ulp"
        );
        assert_eq!(
            table.rows[2].float32.describe(false),
            "undefined if not y integer; derived:exp2(y*log2(x)) or <=8192 ulp if x>=0 and y \
             even; else unbounded"
        );
        assert!(table.rule("sincos", F).unwrap().output(1).is_some());
    }

    #[test]
    fn bad_rule_text_is_an_error() {
        let cases = [
            ("sin,about 4 ulp,s\n", "expected one of `<= N ulp`"),
            ("sin,<= x ulp,s\n", "expected a number such as `4`"),
            (
                "sin,<= 4 ulps,s\n",
                "expected `ulp` after the number of ulps",
            ),
            (
                "sin,\"when z > 0: <= 1 ulp; else: unbounded\",s\n",
                "expected a parameter of `sin` (x)",
            ),
            ("sin,when x > 0: <= 1 ulp,s\n", "end with `else: ...`"),
            (
                "sin,\"else: <= 1 ulp; when x > 0: <= 2 ulp\",s\n",
                "`else` must be the last piece",
            ),
            ("sin,derived foo(x),s\n", "unknown name `foo`"),
            (
                "atan2,\"derived atan2(x)\",s\n",
                "`atan2` takes 2 argument(s), found 1",
            ),
            (
                "sin,derived x * 0.1,s\n",
                "the constant `0.1` is not a float",
            ),
            ("sin,undefined or <= 3 ulp,s\n", "stand alone"),
            (
                "sin,\"when x in [1, -1]: <= 1 ulp; else: unbounded\",s\n",
                "reversed",
            ),
            (
                "sin,\"when x > 3^2: <= 1 ulp; else: unbounded\",s\n",
                "only powers of two",
            ),
            ("sin,abs <= 0,s\n", "must be positive"),
            ("sin,<= 4 ulp $,s\n", "unexpected character `$`"),
            ("sin,<= 4. ulp,s\n", "digits must follow the `.`"),
            (
                "sin,\"when x is 3: <= 1 ulp; else: unbounded\",s\n",
                "expected `<`, `<=`",
            ),
            ("sin,,s\n", "empty rule"),
        ];
        for (body, words) in cases {
            let e = error_of(body);
            assert_error(&e, 2, "float32", words);
        }
    }

    #[test]
    fn unresolvable_names_are_errors_on_the_row_that_uses_them() {
        let e = error_of("cos,<= 1 ulp,c\nsincos,\"outputs sin, cos\",s\n");
        assert_error(
            &e,
            3,
            "float32",
            "`outputs` names `sin`, which is not a row",
        );
        let e = error_of("tan,derived sin(x) * (1 / tan(x)),t\n");
        assert_error(&e, 2, "float32", "`tan` depends on itself: tan -> tan");
        let e = error_of("# x\ntan,derived sin(x),t\nsin,derived tan(x),s\n");
        assert_error(&e, 3, "float32", "depends on itself");
        let e = error_of("sin,<= 1 ulp,s\nsincos,\"outputs sin\",x\ncos,derived sincos(x),c\n");
        assert_error(&e, 4, "float32", "unknown name `sincos`");
    }

    #[test]
    fn bad_rows_are_errors() {
        let e = error_of("foo,<= 1 ulp,f\n");
        assert_error(&e, 2, "instruction", "unknown instruction `foo`");
        let e = error_of("sin,<= 1 ulp,s\ncos,<= 1 ulp,c\nsin,<= 2 ulp,s\n");
        assert_error(
            &e,
            4,
            "instruction",
            "duplicate instruction `sin`: first given on line 2",
        );
        let e = error_of("sin,<= 1 ulp\n");
        assert_error(&e, 2, "spec", "this field is missing: the row has 2 fields");
        let e = error_of("sin,<= 1 ulp,s,extra\n");
        assert_error(&e, 2, "spec", "extra fields follow this one");
        let e = error_of("sin,<= 1 ulp,\n");
        assert_error(&e, 2, "spec", "empty");
        let e = error_of("# c\nsin,\"<= 1 ulp,s\n");
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("bad.csv:3: unclosed"), "{e}");
        let e = parse("bad.csv", "instruction,float64,spec\n").unwrap_err();
        assert_error(
            &e,
            1,
            "float32",
            "the header must be `instruction,float32,spec`",
        );
        let e = parse("bad.csv", "# only a comment\n").unwrap_err();
        assert!(e.to_string().starts_with("bad.csv:1: no header"), "{e}");
        let e = parse("bad.csv", HEADER).unwrap_err();
        assert!(e.to_string().contains("no rows"), "{e}");
    }
}

/// The 2026 Table 5 against its text, and the rules that changed since 2017.
#[cfg(test)]
mod revision_tests {
    use super::*;
    use crate::spec::table::asciidoc::{plain, SPEC_2026};
    use crate::spec::table::Revision;

    /// (line, "heading: cell") per row of the 2026 Table 5.
    fn rows_2026() -> Vec<(usize, String)> {
        let text = std::fs::read_to_string(SPEC_2026)
            .unwrap_or_else(|e| panic!("cannot read {SPEC_2026} ({e}); the check needs it"));
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
        let table = builtin_in(Revision::Spec2026);
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
        let rule = builtin_in(revision)
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
}
