//! Accuracy under `-cl-fast-relaxed-math`: Table 5 of the OpenCL SPIR-V Environment
//! Specification ("ULP Values for Single Precision Math Instructions with
//! -cl-fast-relaxed-math", 003_606d5394990817d6.txt), kept as data in `tables/ulp_relaxed.csv`,
//! read by [`parse`]; `crate::judge::relaxed` applies a rule to one device result.
//!
//! The table has one column, Float32; a few cells give a full-profile and an embedded-profile
//! number, so every rule carries both and judging / [`RelaxedRule::describe`] take the profile. An instruction
//! the table does not list ([`RelaxedTable::rule`] gives `None`), and every Float64 and Float16
//! instruction, keeps its Table 3 (full) or Table 4 (embedded) requirement, as the table's
//! introduction says.
//!
//! A rule is a list of pieces tried in order; the first whose condition holds for the inputs
//! decides. A piece allows one or more alternatives ("derived ... or <= 8192 ulp"); a result
//! passes when one of them accepts it. The alternatives (cell grammar in `tables/README.md`):
//! - `<= N ulp`, `<= A+floor(|Kx|) ulp`: `ulp_error` against the exact result, with the
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
//!   outcome is `Undefined`, never pass or fail.

use std::fmt;

use rug::Float;

use crate::num::fp::FloatType;
use crate::spec::cell::RuleCellError;
use crate::spec::table::{self, Profile, Requirement};
use crate::spec::table::{read_data, DataRecord};

mod catalog;
mod grammar;

pub use catalog::{catalog, Direction, Domain, Entry, CATALOG};
use grammar::parse_rule;

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
    /// The doubles next to `value` below and above it (the same double where it is one): a
    /// double argument compares with `value` as with them, with no MPFR call per input.
    doubles_around: (f64, f64),
}

impl Number {
    pub fn new(value: Float, text: String) -> Number {
        let doubles_around = (
            value.to_f64_round(rug::float::Round::Down),
            value.to_f64_round(rug::float::Round::Up),
        );
        Number {
            value,
            text,
            doubles_around,
        }
    }

    /// The largest double at most the number.
    pub fn double_below(&self) -> f64 {
        self.doubles_around.0
    }

    /// The smallest double at least the number.
    pub fn double_above(&self) -> f64 {
        self.doubles_around.1
    }

    /// How the number compares with `v`, exactly; `None` where either is NaN.
    pub fn compare(&self, v: f64) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        let (below, above) = self.doubles_around;
        if below == above {
            return below.partial_cmp(&v);
        }
        // The number lies strictly between two adjacent doubles, so no double equals it, and
        // a double is at most the one below or at least the one above, unless it is NaN.
        if v <= below {
            Some(Ordering::Greater)
        } else if v >= above {
            Some(Ordering::Less)
        } else {
            None
        }
    }
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
        let float32 =
            parse_rule(entry, &record[1]).map_err(|m| error(line, COLUMNS[1], m.to_string()))?;
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

    link_rows(&mut rows).map_err(|(line, message)| error(line, COLUMNS[1], message.to_string()))?;
    Ok(RelaxedTable {
        source: source_name.to_string(),
        rows,
    })
}

/// The SPIR-V environment's 2017 Table 5 (`tables/ulp_relaxed.csv`), compiled into the binary,
/// parsed once. Runs use [`builtin_in`].
pub fn builtin() -> &'static RelaxedTable {
    builtin_in(
        &crate::spec::environment::OPENCL_SPIRV,
        crate::spec::table::Revision::Spec2017,
    )
}

/// The checked-in Table 5 of one revision of an environment's text (the SPIR-V environment's
/// `tables/ulp_relaxed.csv` of 2017 or `tables/ulp_relaxed_2026.csv`, the OpenCL C unsafe-math
/// table `tables/opencl_c/ulp_relaxed.csv`), compiled into the binary, parsed once. Panics,
/// naming the file, if that file is malformed; the tests guarantee it is not.
pub fn builtin_in(
    environment: &'static crate::spec::environment::Environment,
    revision: crate::spec::table::Revision,
) -> &'static RelaxedTable {
    static TABLES: crate::spec::environment::Parsed<RelaxedTable> =
        crate::spec::environment::Parsed::new();
    let (source, text) = environment.data_file("ulp_relaxed", revision);
    TABLES.get(&source, || {
        parse(&source, text).unwrap_or_else(|e| {
            panic!(
                "the built-in {} {revision} relaxed-math table is malformed: {e}",
                environment.name
            )
        })
    })
}

// ---- Linking: formulas and outputs refer to other rows ----

/// Replaces every formula operation's placeholder error with the operation's own rule (a row
/// of this table, linked first) or its Table 3 / 4 cells, and every `outputs` name with that
/// row's rule. Errors carry the line of the row that needs the name.
fn link_rows(rows: &mut [RelaxedRow]) -> Result<(), (usize, RuleCellError)> {
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
) -> Result<(), (usize, RuleCellError)> {
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
            )
            .into(),
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

fn link_rule(rule: &mut RelaxedRule, rows: &[RelaxedRow]) -> Result<(), RuleCellError> {
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
                    )
                    .into());
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

fn link_formula(formula: &mut Formula, rows: &[RelaxedRow]) -> Result<(), RuleCellError> {
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
                        )
                        .into());
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
                            )
                            .into())
                        }
                    }
                }
            };
            Ok(())
        }
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

// ---- Reading a rule ----

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
                use std::cmp::Ordering::{Equal, Greater, Less};
                let c = bound.compare(operand.value(args));
                match comparison {
                    Comparison::Less => c == Some(Greater),
                    Comparison::LessEqual => matches!(c, Some(Greater | Equal)),
                    Comparison::Greater => c == Some(Less),
                    Comparison::GreaterEqual => matches!(c, Some(Less | Equal)),
                    Comparison::Equal => c == Some(Equal),
                    Comparison::NotEqual => c != Some(Equal),
                }
            }
            Condition::Within {
                operand,
                low,
                high,
                open_low,
                open_high,
            } => {
                use std::cmp::Ordering::{Equal, Greater, Less};
                let v = operand.value(args);
                let (low, high) = (low.compare(v), high.compare(v));
                let above = low == Some(Less) || (!*open_low && low == Some(Equal));
                let below = high == Some(Greater) || (!*open_high && high == Some(Equal));
                above && below
            }
            Condition::Integer { operand, parity } => is_integer_of(operand.value(args), *parity),
            Condition::Not(inner) => !inner.holds(args),
            Condition::And(a, b) => a.holds(args) && b.holds(args),
            Condition::Or(a, b) => a.holds(args) || b.holds(args),
        }
    }
}

/// Whether `v` is a finite integer of the parity, if any (`y integer`, `y odd`, `y even`).
pub fn is_integer_of(v: f64, parity: Option<Parity>) -> bool {
    let integer = v.is_finite() && v.fract() == 0.0;
    match parity {
        None => integer,
        // Exact: fmod is, and doubles of 2^53 and beyond are even.
        Some(Parity::Odd) => integer && (v % 2.0).abs() == 1.0,
        Some(Parity::Even) => integer && v % 2.0 == 0.0,
    }
}

impl Operand {
    pub fn value(&self, args: &[f64]) -> f64 {
        let v = args[self.parameter];
        if self.magnitude {
            v.abs()
        } else {
            v
        }
    }
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

    /// A number compares with a double as MPFR compares them, NaN included: numbers that are
    /// doubles (0.5, -88, 2^-126, 2^126) and numbers that are not (pi, 0.1, 2^-1100, beyond
    /// the largest double), against themselves, their neighbouring doubles, zeros, the
    /// infinities and NaN.
    #[test]
    fn catalog_rows_are_one_per_instruction_and_directions_fit_one_argument() {
        for (position, entry) in CATALOG.iter().enumerate() {
            assert!(
                CATALOG[..position].iter().all(|e| e.name != entry.name),
                "{} twice",
                entry.name
            );
            if matches!(
                entry.direction,
                Direction::Monotonic { .. } | Direction::Periodic
            ) {
                assert!(entry.in_formulas, "{}", entry.name);
                assert_eq!(entry.parameters.len(), 1, "{}", entry.name);
            }
        }
    }

    #[test]
    fn numbers_compare_with_doubles_as_mpfr_does() {
        let precision = 256;
        let mut numbers = vec![
            Float::with_val(precision, 0.5),
            Float::with_val(precision, -88.0),
            Float::with_val(precision, 2f64.powi(-126)),
            Float::with_val(precision, 2f64.powi(126)),
            Float::with_val(precision, rug::float::Constant::Pi),
            Float::with_val(precision, Float::parse("0.1").unwrap()),
            Float::with_val(precision, Float::parse("-0.1").unwrap()),
            Float::with_val(precision, Float::parse("1e-330").unwrap()),
            Float::with_val(precision, Float::parse("1e309").unwrap()),
        ];
        numbers.push(-numbers[4].clone());
        let mut inexact = 0;
        for value in numbers {
            let number = Number::new(value.clone(), String::new());
            let (below, above) = number.doubles_around;
            inexact += usize::from(below != above);
            let mut doubles = vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
            for double in [below, above] {
                doubles.extend([double, double.next_down(), double.next_up()]);
            }
            for v in doubles {
                assert_eq!(
                    number.compare(v),
                    value.partial_cmp(&v),
                    "{value} against {v:e}"
                );
            }
        }
        assert_eq!(inexact, 6);
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
        assert!(table
            .rule("sincos", FloatType::Float)
            .unwrap()
            .output(1)
            .is_some());
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
