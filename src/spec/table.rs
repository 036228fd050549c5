//! The spec's accuracy tables as data: Table 3 (full profile) and Table 4 (embedded profile) of
//! the OpenCL SPIR-V Environment Specification, one set of files per [`Revision`] of the text
//! (`ulp_full.csv` and `ulp_embedded.csv` for 2017, `ulp_full_2026.csv` and
//! `ulp_embedded_2026.csv` for the text maintained today, in `tables/opencl_spirv/`,
//! [`crate::spec::environment`]) so a reviewer can diff each
//! against its text, read here by the one loader, [`parse`]. The cell grammar is described in
//! `tables/README.md`; the tests `data_files_match_the_spec` and
//! `data_files_match_the_2026_text` re-read both texts and check every cell of every file.

use std::collections::HashMap;
use std::fmt;

use crate::num::fp::FloatType;
use crate::spec::environment::{Environment, Parsed, OPENCL_SPIRV};

/// The OpenCL device profile, which decides which of the spec's two tables applies.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq, Hash)]
pub enum Profile {
    /// `FULL_PROFILE`: Table 3.
    Full,
    /// `EMBEDDED_PROFILE`: Table 4.
    Embedded,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::Full, Profile::Embedded];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Full => "full",
            Profile::Embedded => "embedded",
        }
    }

    /// Reads a command-line name (`full`, `embedded`) or the string a device reports as
    /// `CL_DEVICE_PROFILE` (`FULL_PROFILE`, `EMBEDDED_PROFILE`), ignoring case.
    pub fn parse(text: &str) -> Option<Profile> {
        let lower = text.trim().to_ascii_lowercase();
        let name = lower.strip_suffix("_profile").unwrap_or(&lower);
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What judges a unit: the profile's table, or under relaxed math (`-cl-fast-relaxed-math`)
/// Table 5 where it lists the function, the profile's table otherwise.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq, Hash)]
pub enum Judging {
    /// Table 3 or Table 4.
    Table(Profile),
    /// Table 5, else `otherwise`'s table.
    Relaxed { otherwise: Profile },
}

impl Judging {
    /// The profile whose table (3 or 4) judges what Table 5 does not.
    pub fn profile(self) -> Profile {
        match self {
            Judging::Table(profile) | Judging::Relaxed { otherwise: profile } => profile,
        }
    }

    /// Whether Table 5 judges the functions it lists.
    pub fn relaxed(self) -> bool {
        matches!(self, Judging::Relaxed { .. })
    }

    /// The CSV's `profile`: `full`, `embedded` or `relaxed`.
    pub fn name(self) -> &'static str {
        match self {
            Judging::Table(profile) => profile.name(),
            Judging::Relaxed { .. } => "relaxed",
        }
    }
}

/// Which text of the spec judges: defined beside the environments that hold the texts.
pub use crate::spec::environment::Revision;

/// `A + B·n`, a bound that grows with the vector width `n` of a geometric function (the 2026
/// text: "<= 2.5 + 2n ulp, for gentype with vector width n", dot's "(2n - 1)" operations).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Linear {
    pub constant: f64,
    pub per_component: f64,
}

impl Linear {
    /// The value at vector width `n`.
    pub fn at(self, n: u32) -> f64 {
        self.constant + self.per_component * f64::from(n)
    }
}

impl fmt::Display for Linear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = match self.per_component {
            0.0 => String::new(),
            1.0 => "n".to_string(),
            k => format!("{k}n"),
        };
        match (self.constant, n.is_empty()) {
            (c, true) => write!(f, "{c}"),
            (0.0, false) => f.write_str(&n),
            (c, false) if c < 0.0 => write!(f, "{n}-{}", -c),
            (c, false) => write!(f, "{c}+{n}"),
        }
    }
}

/// The machine epsilon a cell names: `FLT_EPSILON` (2^-23), `HALF_EPSILON` (2^-10) or
/// `DBL_EPSILON` (2^-52), the C constants for each type.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub enum Epsilon {
    Half,
    Flt,
    Dbl,
}

impl Epsilon {
    pub fn name(self) -> &'static str {
        match self {
            Epsilon::Half => "HALF_EPSILON",
            Epsilon::Flt => "FLT_EPSILON",
            Epsilon::Dbl => "DBL_EPSILON",
        }
    }

    pub fn value(self) -> f64 {
        match self {
            Epsilon::Half => 2f64.powi(-10),
            Epsilon::Flt => 2f64.powi(-23),
            Epsilon::Dbl => 2f64.powi(-52),
        }
    }

    fn parse(text: &str) -> Option<Epsilon> {
        [Epsilon::Half, Epsilon::Flt, Epsilon::Dbl]
            .into_iter()
            .find(|e| e.name() == text)
    }
}

/// What one cell of the spec's table demands of one instruction on one element type.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum Requirement {
    /// "Correctly rounded": the result must be exactly the correctly rounded value (round to
    /// nearest even). Not the same as "<= 0.5 ulp": at a tie both neighbours are 0.5 ulp away.
    CorrectlyRounded,
    /// "0 ulp": the function needs no rounding, so the result must equal the infinitely precise
    /// value.
    Exact,
    /// "<= N ulp": the spec's ulp error against the infinitely precise result is at most N.
    Ulp(f64),
    /// "Implementation-defined": nothing to check beyond the special-value rules.
    ImplementationDefined,
    /// Float32 `mad`, full profile: either a correctly rounded fma, or a correctly rounded
    /// multiply followed by a correctly rounded add. Two candidate references, so no single
    /// ulp bound.
    MadFmaOrMulAdd,
    /// `remquo`: the remainder is exact (0 ulp) and at least the low `quotient_bits` bits of the
    /// integral quotient are right.
    RemquoExact { quotient_bits: u32 },
    /// `sincos`: the bound applies to the sine and the cosine output separately.
    UlpEachOutput(f64),
    /// The spec gives no such column (Float64 and Float16 of `half_*` and `native_*`).
    NotApplicable,
    /// "<= A + Bn ulp, for gentype with vector width n" (2026: `length`, `distance`,
    /// `normalize` and their `fast_` forms). [`Requirement::at_width`] turns it into `Ulp`.
    UlpPerWidth(Linear),
    /// "absolute error tolerance of B": |result − exact| <= B (2026: Float32 `mix`,
    /// `smoothstep`).
    Absolute(f64),
    /// "absolute error tolerance of max * max * K * EPSILON" (2026: `cross` with K = 3 per
    /// component, `OpDot` with K = 2n − 1), `max` the largest input magnitude across every
    /// component of every argument.
    AbsoluteMaxSquared {
        operations: Linear,
        epsilon: Epsilon,
    },
    /// A cell of the Vulkan appendix's tables beyond the OpenCL grammar (bounds on ranges,
    /// bounds growing with |x|, inherited formulas), judged by `judge::vulkan`.
    Vulkan(crate::spec::vulkan::cell::Cell),
}

impl Requirement {
    /// The bound on the spec's ulp error (measured against the infinitely precise result) for
    /// each floating-point output, under this contract: a result that is bit-identical to the
    /// correctly rounded reference always passes; any other result passes when its ulp error
    /// is at most the bound.
    ///
    /// So `CorrectlyRounded` and `Exact` give `Some(0.0)`: every representable value other than
    /// the correctly rounded one has a non-zero error, hence only that value passes. (Returning
    /// 0.5 for `CorrectlyRounded` would wrongly accept the other neighbour of a tie.)
    /// `RemquoExact` gives `Some(0.0)` for the remainder; its quotient is checked separately.
    /// `UlpEachOutput(n)` gives `Some(n)` for each of sine and cosine.
    /// `MadFmaOrMulAdd` (two references), `ImplementationDefined` and `NotApplicable` give
    /// `None`: no ulp bound decides them.
    /// `UlpPerWidth` gives `None` until [`Requirement::at_width`] resolves it; the absolute
    /// tolerances give `None` too.
    pub fn ulp_bound(&self) -> Option<f64> {
        match *self {
            Requirement::CorrectlyRounded | Requirement::Exact => Some(0.0),
            Requirement::RemquoExact { .. } => Some(0.0),
            Requirement::Ulp(n) | Requirement::UlpEachOutput(n) => Some(n),
            Requirement::MadFmaOrMulAdd
            | Requirement::ImplementationDefined
            | Requirement::NotApplicable
            | Requirement::UlpPerWidth(_)
            | Requirement::Absolute(_)
            | Requirement::AbsoluteMaxSquared { .. }
            | Requirement::Vulkan(_) => None,
        }
    }

    /// The requirement for one vector width: `<= A + Bn ulp` becomes `<= A + B·width ulp`,
    /// and dot's `2n − 1` operations become a number; every other cell is the same at every
    /// width.
    pub fn at_width(&self, width: u32) -> Requirement {
        match *self {
            Requirement::UlpPerWidth(bound) => Requirement::Ulp(bound.at(width)),
            Requirement::AbsoluteMaxSquared {
                operations,
                epsilon,
            } => Requirement::AbsoluteMaxSquared {
                operations: Linear {
                    constant: operations.at(width),
                    per_component: 0.0,
                },
                epsilon,
            },
            ref other => other.clone(),
        }
    }

    /// The absolute tolerance for one input, when the cell is an absolute one: `Absolute(B)`
    /// gives B, `AbsoluteMaxSquared` max² · K · EPSILON with max the largest |argument| (K
    /// taken at width 0 unless [`Requirement::at_width`] resolved it).
    pub fn absolute_tolerance(&self, args: &[f64]) -> Option<f64> {
        match *self {
            Requirement::Absolute(bound) => Some(bound),
            Requirement::AbsoluteMaxSquared {
                operations,
                epsilon,
            } => {
                let max = args.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                Some(max * max * operations.constant * epsilon.value())
            }
            _ => None,
        }
    }

    /// Short text for reports, e.g. `<= 4 ulp`, `correctly rounded`.
    pub fn describe(&self) -> String {
        match self {
            Requirement::CorrectlyRounded => "correctly rounded".to_string(),
            Requirement::Exact => "0 ulp".to_string(),
            Requirement::Ulp(n) => format!("<= {n} ulp"),
            Requirement::ImplementationDefined => "implementation-defined".to_string(),
            Requirement::MadFmaOrMulAdd => "correctly rounded fma or mul+add".to_string(),
            Requirement::RemquoExact { quotient_bits } => {
                format!("0 ulp remainder, low {quotient_bits} quotient bits")
            }
            Requirement::UlpEachOutput(n) => format!("<= {n} ulp each (sin, cos)"),
            Requirement::NotApplicable => "not applicable".to_string(),
            Requirement::UlpPerWidth(bound) => format!("<= {bound} ulp"),
            Requirement::Absolute(bound) => format!("abs <= {bound:e}"),
            Requirement::AbsoluteMaxSquared {
                operations,
                epsilon,
            } => match operations.per_component {
                0.0 => format!("abs <= max*max*{}*{}", operations, epsilon.name()),
                _ => format!("abs <= max*max*({})*{}", operations, epsilon.name()),
            },
            Requirement::Vulkan(cell) => cell.describe(),
        }
    }
}

/// One row of a table: one SPIR-V instruction and its requirement per element type.
#[derive(Clone, Debug)]
pub struct UlpRow {
    /// `OpFAdd`, `OpFSub`, `OpFMul`, `OpFDiv`, or the OpenCL.std extended instruction's name.
    pub instruction: String,
    pub float64: Requirement,
    pub float32: Requirement,
    pub float16: Requirement,
    /// Line of the row in its data file, so a report can cite it.
    pub line: usize,
}

impl UlpRow {
    /// The requirement for one element type.
    pub fn requirement(&self, element: FloatType) -> &Requirement {
        match element {
            FloatType::Double => &self.float64,
            FloatType::Float => &self.float32,
            FloatType::Half => &self.float16,
        }
    }
}

/// One whole table, rows in the spec's order.
#[derive(Clone, Debug)]
pub struct UlpTable {
    pub profile: Profile,
    /// The file the rows were read from, as given to [`parse`].
    pub source: String,
    pub rows: Vec<UlpRow>,
}

impl UlpTable {
    /// The row of one instruction. A linear search: it runs once per unit of work, not per
    /// element.
    pub fn row(&self, instruction: &str) -> Option<&UlpRow> {
        self.rows.iter().find(|row| row.instruction == instruction)
    }
}

/// A table file that cannot be read, located to its file, line and field.
#[derive(Debug)]
pub struct TableError {
    pub file: String,
    /// 1-based line; 0 when the error concerns the whole file (e.g. it cannot be opened).
    pub line: usize,
    /// The column name (`instruction`, `float64`, ...); empty when no field is concerned.
    pub field: String,
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for TableError {}

/// What is wrong with one line or cell of a table file: one variant per problem. The loader
/// places it in a [`TableError`] with the file, the line and the field.
#[derive(Debug, thiserror::Error)]
pub enum CellError {
    #[error("unclosed `\"`: a quoted cell must end on its own line")]
    UnclosedQuote,
    #[error("not valid CSV: {0}")]
    NotCsv(#[source] csv::Error),
    #[error(
        "empty cell: write `-` for a column the spec does not give; expected one of {}",
        CELL_FORMS
    )]
    Empty,
    #[error("cannot read `{cell}`: expected one of {}", CELL_FORMS)]
    Unknown { cell: String },
    #[error("cannot read `{cell}`: expected `max*max*K*EPSILON`")]
    NoEpsilon { cell: String },
    #[error(
        "cannot read `{cell}`: expected FLT_EPSILON, HALF_EPSILON or DBL_EPSILON, found \
         `{epsilon}`"
    )]
    UnknownEpsilon { cell: String, epsilon: String },
    #[error("cannot read `{cell}`: expected a whole number of quotient bits, found `{bits}`")]
    QuotientBits { cell: String, bits: String },
    /// A `mad:`, `remquo:` or `sincos:` form on another function's row.
    #[error(
        "cannot read `{cell}` on the row of `{instruction}`: this form belongs to the \
         `{owner}` row only"
    )]
    WrongRow {
        cell: String,
        instruction: String,
        owner: &'static str,
    },
    #[error(
        "cannot read `{cell}`: expected a number of ulps such as `4` or `2.5`, found `{text}`"
    )]
    UlpCount { cell: String, text: String },
    #[error(
        "cannot read `{cell}`: expected a bound linear in the width such as `2.5+2n`, `2n` or \
         `2n-1`, found `{text}`"
    )]
    Linear { cell: String, text: String },
    #[error("cannot read `{cell}`: expected an absolute tolerance such as `1e-3`, found `{text}`")]
    Absolute { cell: String, text: String },
    /// A Vulkan cell (`inherited:`, `... inside [A, B]`, `<= A+B|x| ulp`) that is malformed.
    #[error("{0}")]
    Vulkan(String),
}

/// The header every table file starts with, and the field names errors use.
const COLUMNS: [&str; 4] = ["instruction", "float64", "float32", "float16"];

/// The cell forms a data file may use, for error messages.
const CELL_FORMS: &str = "`correctly-rounded`, `0 ulp`, `<= N ulp`, `<= A+Bn ulp`, \
    `implementation-defined`, `mad: fma or mul+add`, `remquo: 0 ulp remainder, low N quotient \
    bits`, `sincos: <= N ulp each`, `abs <= B`, `abs <= max*max*K*FLT_EPSILON`, `-`, or the \
    Vulkan forms `correct-result`, `<= N ulp where |y| in [A, B] or y == 0`, `<= A+B|x| ulp`, \
    `<= N ulp outside [A, B]; abs < E inside`, `abs <= E inside [A, B]`, `inherited: FORMULA`";

/// Reads one table from CSV text (format in `tables/README.md`). `source_name` is only used
/// in the table's `source` and in errors. Every problem (CSV syntax, header, field count,
/// instruction name, cell text, duplicate instruction) is an error naming file, line and field.
pub fn parse(source_name: &str, profile: Profile, text: &str) -> Result<UlpTable, TableError> {
    let error = |line: usize, field: &str, message: String| TableError {
        file: source_name.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut rows: Vec<UlpRow> = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for DataRecord {
        line,
        fields: record,
    } in read_data(source_name, text, &COLUMNS)?
    {
        let instruction = &record[0];
        if !is_identifier(instruction) {
            return Err(error(
                line,
                COLUMNS[0],
                format!(
                    "cannot read `{instruction}`: expected `OpFAdd`, `OpFSub`, `OpFMul`, \
                     `OpFDiv` or an extended instruction's name such as `acos`"
                ),
            ));
        }
        if let Some(first) = first_line.insert(instruction.to_string(), line) {
            return Err(error(
                line,
                COLUMNS[0],
                format!("duplicate instruction `{instruction}`: first given on line {first}"),
            ));
        }
        let cell = |i: usize| {
            parse_cell(instruction, &record[i]).map_err(|m| error(line, COLUMNS[i], m.to_string()))
        };
        rows.push(UlpRow {
            instruction: instruction.to_string(),
            float64: cell(1)?,
            float32: cell(2)?,
            float16: cell(3)?,
            line,
        });
    }

    Ok(UlpTable {
        profile,
        source: source_name.to_string(),
        rows,
    })
}

/// Asserts that a `tables/` file error names `bad.csv`, `line` and `field`, and says `words`:
/// the check every loader's malformed-input tests share.
#[cfg(test)]
pub(crate) fn assert_error(e: &TableError, line: usize, field: &str, words: &str) {
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("bad.csv:{line}: field `{field}`: ")),
        "{shown}"
    );
    assert!(shown.contains(words), "`{words}` not in: {shown}");
    assert_eq!((e.line, e.field.as_str()), (line, field));
}

/// One data row of a file in `tables/`: its 1-based line and its trimmed fields.
pub struct DataRecord {
    pub line: usize,
    pub fields: Vec<String>,
}

/// The one reader of the files in `tables/` (Tables 3 and 4, Table 5, the edge-case rules):
/// `#` comments and blank lines skipped; one RFC 4180 record per line; the header must be
/// `columns`; every row has exactly that many fields; at least one row. Errors name the file,
/// the line and the field.
pub fn read_data(
    source_name: &str,
    text: &str,
    columns: &[&str],
) -> Result<Vec<DataRecord>, TableError> {
    let error = |line: usize, field: &str, message: String| TableError {
        file: source_name.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut header_seen = false;
    let mut records = Vec::new();
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let content = text_line.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let record = read_record(content).map_err(|m| error(line, "", m.to_string()))?;
        if record.len() != columns.len() {
            let (field, problem) = match columns.get(record.len()) {
                Some(missing) => (*missing, "this field is missing"),
                None => (columns[columns.len() - 1], "extra fields follow this one"),
            };
            return Err(error(
                line,
                field,
                format!(
                    "{problem}: the row has {} fields, expected {} ({}); \
                     quote a cell that contains a comma",
                    record.len(),
                    columns.len(),
                    columns.join(",")
                ),
            ));
        }
        if !header_seen {
            if let Some(i) = (0..columns.len()).find(|&i| &record[i] != columns[i]) {
                return Err(error(
                    line,
                    columns[i],
                    format!(
                        "the header must be `{}`, found `{}` here",
                        columns.join(","),
                        &record[i]
                    ),
                ));
            }
            header_seen = true;
            continue;
        }
        records.push(DataRecord {
            line,
            fields: record.iter().map(str::to_string).collect(),
        });
    }
    let last_line = text.lines().count();
    if !header_seen {
        return Err(error(
            last_line,
            "",
            format!("no header: the first row must be `{}`", columns.join(",")),
        ));
    }
    if records.is_empty() {
        return Err(error(last_line, "", "no rows after the header".to_string()));
    }
    Ok(records)
}

/// Reads one line as one CSV record, cells trimmed. The table is read line by line, not as
/// one CSV stream, because the csv crate's record positions skip comment and blank lines and
/// errors must name the true line; so a quoted cell cannot span lines, and an odd number of
/// `"` (an unclosed quote, which the csv crate would read silently) is refused.
fn read_record(line: &str) -> Result<csv::StringRecord, CellError> {
    if line.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
        return Err(CellError::UnclosedQuote);
    }
    let mut record = csv::StringRecord::new();
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(line.as_bytes())
        .read_record(&mut record)
        .map_err(CellError::NotCsv)?;
    Ok(record)
}

/// `OpFAdd` or `acos`: letters, digits and underscores, not starting with a digit. Catches
/// `OpExtInst acos` copied from the spec, and stray text.
fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reads one cell (already trimmed by the CSV reader). Words are compared after splitting on
/// whitespace, so `<=  4 ulp` reads like `<= 4 ulp`. The `mad:`, `remquo:` and `sincos:` forms
/// belong to their own row: on any other row they would change how outputs are judged.
fn parse_cell(instruction: &str, cell: &str) -> Result<Requirement, CellError> {
    if let Some(vulkan) = crate::spec::vulkan::cell::parse_cell(cell) {
        return vulkan.map(Requirement::Vulkan).map_err(CellError::Vulkan);
    }
    let words: Vec<&str> = cell.split_whitespace().collect();
    let requirement = match words.as_slice() {
        ["correctly-rounded"] => Requirement::CorrectlyRounded,
        // The Vulkan appendix's "correct result": the infinitely precise value, which needs no
        // rounding, so `0 ulp`.
        ["correct-result"] => Requirement::Exact,
        ["0", "ulp"] => Requirement::Exact,
        ["<=", n, "ulp"] if n.contains('n') => Requirement::UlpPerWidth(linear(cell, n)?),
        ["<=", n, "ulp"] => Requirement::Ulp(ulp_count(cell, n)?),
        ["abs", "<=", bound] if bound.starts_with("max*max*") => {
            let (operations, epsilon) =
                bound["max*max*".len()..]
                    .rsplit_once('*')
                    .ok_or_else(|| CellError::NoEpsilon {
                        cell: cell.to_string(),
                    })?;
            let operations = operations
                .strip_prefix('(')
                .and_then(|o| o.strip_suffix(')'))
                .unwrap_or(operations);
            Requirement::AbsoluteMaxSquared {
                operations: linear(cell, operations)?,
                epsilon: Epsilon::parse(epsilon).ok_or_else(|| CellError::UnknownEpsilon {
                    cell: cell.to_string(),
                    epsilon: epsilon.to_string(),
                })?,
            }
        }
        ["abs", "<=", bound] => Requirement::Absolute(absolute_bound(cell, bound)?),
        ["implementation-defined"] => Requirement::ImplementationDefined,
        ["mad:", "fma", "or", "mul+add"] => Requirement::MadFmaOrMulAdd,
        ["remquo:", "0", "ulp", "remainder,", "low", n, "quotient", "bits"] => {
            Requirement::RemquoExact {
                quotient_bits: n.parse().map_err(|_| CellError::QuotientBits {
                    cell: cell.to_string(),
                    bits: n.to_string(),
                })?,
            }
        }
        ["sincos:", "<=", n, "ulp", "each"] => Requirement::UlpEachOutput(ulp_count(cell, n)?),
        ["-"] => Requirement::NotApplicable,
        [] => return Err(CellError::Empty),
        _ => {
            return Err(CellError::Unknown {
                cell: cell.to_string(),
            })
        }
    };
    let owner = match requirement {
        Requirement::MadFmaOrMulAdd => Some("mad"),
        Requirement::RemquoExact { .. } => Some("remquo"),
        Requirement::UlpEachOutput(_) => Some("sincos"),
        _ => None,
    };
    match owner {
        Some(owner) if owner != instruction => Err(CellError::WrongRow {
            cell: cell.to_string(),
            instruction: instruction.to_string(),
            owner,
        }),
        _ => Ok(requirement),
    }
}

/// The N of `<= N ulp`: digits with an optional decimal part (`4`, `2.5`). Signs, exponents,
/// `inf` and `nan` are refused, since a negative or infinite bound would make no sense.
fn ulp_count(cell: &str, text: &str) -> Result<f64, CellError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let well_formed = match text.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(text),
    };
    match text.parse::<f64>() {
        Ok(n) if well_formed => Ok(n),
        _ => Err(CellError::UlpCount {
            cell: cell.to_string(),
            text: text.to_string(),
        }),
    }
}

/// `A+Bn`, `Bn`, `Bn-A`, `n`: a bound linear in the vector width `n`, numbers as in
/// [`ulp_count`].
fn linear(cell: &str, text: &str) -> Result<Linear, CellError> {
    let bad = || CellError::Linear {
        cell: cell.to_string(),
        text: text.to_string(),
    };
    let mut result = Linear {
        constant: 0.0,
        per_component: 0.0,
    };
    let mut rest = text;
    let mut sign = 1.0;
    let mut terms = 0;
    while !rest.is_empty() {
        let end = rest[1..].find(['+', '-']).map_or(rest.len(), |i| i + 1);
        let (term, tail) = rest.split_at(end);
        let term = match term.strip_prefix('+') {
            Some(t) if terms > 0 => t,
            _ => match term.strip_prefix('-') {
                Some(t) if terms > 0 => {
                    sign = -1.0;
                    t
                }
                _ => term,
            },
        };
        match term.strip_suffix('n') {
            Some("") => result.per_component += sign,
            Some(k) => result.per_component += sign * ulp_count(cell, k).map_err(|_| bad())?,
            None => result.constant += sign * ulp_count(cell, term).map_err(|_| bad())?,
        }
        sign = 1.0;
        terms += 1;
        rest = tail;
    }
    if terms == 0 {
        return Err(bad());
    }
    Ok(result)
}

/// The B of `abs <= B`: a positive decimal, exponent allowed (`1e-3`, `0.001`).
fn absolute_bound(cell: &str, text: &str) -> Result<f64, CellError> {
    let well_formed = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'-')
        && text.starts_with(|c: char| c.is_ascii_digit());
    match text.parse::<f64>() {
        Ok(b) if well_formed && b.is_finite() && b > 0.0 => Ok(b),
        _ => Err(CellError::Absolute {
            cell: cell.to_string(),
            text: text.to_string(),
        }),
    }
}

/// The SPIR-V environment's 2017 table of a profile, for callers whose cells are the same in
/// every environment and revision (Table 5's derived formulas use Float32 cells only, and no
/// Float32 cell of a 2017 row changed in 2026 or differs in the OpenCL C text: tests
/// `float32_cells_of_2017_rows_are_the_same_in_2026` and
/// `opencl_c::text_tests::float32_cells_are_the_spirv_ones`). Runs use [`builtin_in`].
pub fn builtin(profile: Profile) -> &'static UlpTable {
    builtin_in(&OPENCL_SPIRV, Revision::Spec2017, profile)
}

/// The checked-in table of a profile in one revision of an environment's text: the file of
/// its folder compiled into the binary, parsed once. Its `source` is the name the file is cited
/// by ([`Environment::data_file`]: `tables/ulp_full.csv` for the SPIR-V environment, as before
/// the environments got folders, so that notes and rows stay the same from version to
/// version). Panics, naming the file, if that file is malformed (the tests guarantee it is
/// not), or if the environment does not hold the revision (the command line refuses it).
pub fn builtin_in(
    environment: &'static Environment,
    revision: Revision,
    profile: Profile,
) -> &'static UlpTable {
    static TABLES: Parsed<UlpTable> = Parsed::new();
    let stem = match profile {
        Profile::Full => "ulp_full",
        Profile::Embedded => "ulp_embedded",
    };
    let (source, text) = environment.data_file(stem, revision);
    TABLES.get(&source, || {
        parse(&source, profile, text).unwrap_or_else(|e| {
            panic!(
                "the built-in {} {revision} {profile} profile table is malformed: {e}",
                environment.name
            )
        })
    })
}

/// One cell that differs between the revisions: the instruction, the element type and the
/// profile, with the cell in each (`None`: the row is not in that revision).
#[derive(Clone, Debug, PartialEq)]
pub struct CellChange {
    pub instruction: String,
    pub element: FloatType,
    pub profile: Profile,
    pub before: Option<Requirement>,
    pub after: Option<Requirement>,
}

/// One text the tables come from: an environment and a revision it holds.
pub type Text = (&'static Environment, Revision);

/// Every Table 3 and Table 4 cell that differs between two texts (two revisions of one
/// environment, or two environments), in the later text's row order (rows only the earlier
/// one has come last). A row that is new gives a change per column the spec fills (`-`
/// columns are left out).
pub fn changes(before: Text, after: Text) -> Vec<CellChange> {
    let columns = [FloatType::Double, FloatType::Float, FloatType::Half];
    let mut changes = Vec::new();
    for profile in Profile::ALL {
        let (old, new) = (
            builtin_in(before.0, before.1, profile),
            builtin_in(after.0, after.1, profile),
        );
        let names = new.rows.iter().map(|r| &r.instruction).chain(
            old.rows
                .iter()
                .map(|r| &r.instruction)
                .filter(|name| new.row(name).is_none()),
        );
        for name in names {
            for element in columns {
                let cell = |table: &UlpTable| {
                    table
                        .row(name)
                        .map(|row| row.requirement(element).clone())
                        .filter(|r| *r != Requirement::NotApplicable)
                };
                let (was, is) = (cell(old), cell(new));
                if was != is {
                    changes.push(CellChange {
                        instruction: name.clone(),
                        element,
                        profile,
                        before: was,
                        after: is,
                    });
                }
            }
        }
    }
    changes
}

/// The 2026 text as the table tests read it: its path, and its prose with the AsciiDoc markup
/// removed, so that every test compares the data files with one reading of the text.
#[cfg(test)]
pub(crate) mod asciidoc {
    /// The 2026 text's file and the 2017 text's, in the spec folder ([`read`]).
    pub(crate) const SPEC_2026: &str = "numerical_compliance_2026.asciidoc";
    pub(crate) const SPEC_2017: &str = "003_606d5394990817d6.txt";
    /// The OpenCL C Specification's numerical compliance chapter, today's text.
    pub(crate) const SPEC_OPENCL_C: &str = "opencl_c_numerical_compliance_2026.asciidoc";
    /// The Vulkan specification's appendix "Vulkan Environment for SPIR-V", today's text.
    pub(crate) const SPEC_VULKAN: &str = "vulkan_spirvenv_2026.adoc";

    /// A spec text the transcription checks compare the data files with. They are read from
    /// `CLACC_SPEC_DIR` if set, else from `shared/spec` beside the repository (where the
    /// workplace and CI keep them); without them these checks cannot run, and say so.
    pub(crate) fn read(file: &str) -> String {
        let dir = std::env::var_os("CLACC_SPEC_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec")
            });
        let path = dir.join(file);
        std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "the transcription checks need the spec text {} ({error}): put the spec folder \
                 at ../shared/spec beside the repository or set CLACC_SPEC_DIR to it",
                path.display()
            )
        })
    }

    /// Prose with the markup removed: `*bold*` (an asterisk with a space on both sides is a
    /// multiplication and stays), `_italic_` (an underscore between two letters, as in
    /// `M_PI_F`, stays), backticks, `{plusmn}`, `{leq}`, `{pi}`, `{inf}`, `\<=`, `\(`, the
    /// closing `^` of a superscript, a trailing ` +` hard line break; runs of spaces collapsed.
    pub(crate) fn plain(text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let kept = |k: usize| {
            let before = k.checked_sub(1).map(|i| chars[i]);
            let after = chars.get(k + 1).copied();
            match chars[k] {
                '*' => before == Some(' ') && after == Some(' '),
                '_' => {
                    before.is_some_and(char::is_alphanumeric)
                        && after.is_some_and(char::is_alphanumeric)
                }
                '^' => after.is_some_and(|a| a.is_ascii_digit() || a == '-'),
                '`' => false,
                _ => true,
            }
        };
        let stripped: String = (0..chars.len())
            .filter(|k| kept(*k))
            .map(|k| chars[k])
            .collect();
        let stripped = stripped
            .replace("{plusmn}", "±")
            .replace("{leq}", "<=")
            .replace("{pi}", "π")
            .replace("{inf}", "∞")
            .replace("\\<=", "<=")
            .replace("\\(", "(")
            .replace(", + ", ", ");
        stripped.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    // ---- Transcription check: the data files against the spec text ----

    /// The spec's wording of the Float32 mad rule in Table 3.
    const SPEC_MAD_RULE: &str = "Implemented either as a correctly rounded fma, or as a \
        multiply followed by an add, both of which are correctly rounded";

    /// One row as the spec prints it: cells in column order Float64, Float32, Float16.
    pub(crate) struct SpecRow {
        pub(crate) line: usize,
        pub(crate) instruction: String,
        pub(crate) cells: [Requirement; 3],
    }

    fn spec_text() -> String {
        crate::spec::table::asciidoc::read(crate::spec::table::asciidoc::SPEC_2017)
    }

    /// Extracts one table from the extracted-HTML layout: the title line, a header line naming
    /// the columns, then for each row an instruction line followed by its cell lines (blank
    /// lines between). The table ends at the next section heading or table title.
    fn spec_table(text: &str, title: &str) -> Vec<SpecRow> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        lines
            .by_ref()
            .find(|(_, l)| *l == title)
            .unwrap_or_else(|| panic!("the spec has no line `{title}`"));
        let (header_line, header) = lines.next().expect("the spec ends after a table title");
        assert_eq!(
            header,
            "SPIR-V Instruction Minimum Accuracy - Float64 Minimum Accuracy - Float32 \
             Minimum Accuracy - Float16",
            "spec line {header_line}: the column order is not what the data files assume"
        );

        // Each group: the instruction line, then its cell lines.
        let mut groups: Vec<Vec<(usize, &str)>> = Vec::new();
        for (n, line) in lines {
            if line.starts_with("Table ") || line.starts_with("ULP Values for Math Instructions") {
                break;
            }
            let is_instruction =
                line.starts_with("OpExtInst ") || (line.starts_with("Op") && !line.contains(' '));
            if is_instruction {
                groups.push(vec![(n, line)]);
            } else {
                groups
                    .last_mut()
                    .unwrap_or_else(|| panic!("spec line {n}: a cell before any instruction"))
                    .push((n, line));
            }
        }

        groups
            .iter()
            .map(|group| {
                let (line, head) = group[0];
                let instruction = head.strip_prefix("OpExtInst ").unwrap_or(head).to_string();
                let cells = &group[1..];
                let cell = |i: usize| spec_cell(cells[i].0, cells[i].1);
                let cells = match cells.len() {
                    3 => [cell(0), cell(1), cell(2)],
                    1 => {
                        assert!(
                            instruction.starts_with("half_") || instruction.starts_with("native_"),
                            "spec line {line}: `{instruction}` has only one cell"
                        );
                        [
                            Requirement::NotApplicable,
                            cell(0),
                            Requirement::NotApplicable,
                        ]
                    }
                    k => panic!("spec line {line}: `{instruction}` has {k} cells"),
                };
                SpecRow {
                    line,
                    instruction,
                    cells,
                }
            })
            .collect()
    }

    /// The spec's wording of a cell, read independently of the data-file grammar.
    fn spec_cell(line: usize, text: &str) -> Requirement {
        let number = |n: &str| -> f64 {
            n.parse()
                .unwrap_or_else(|_| panic!("spec line {line}: `{n}` in `{text}` is not a number"))
        };
        let remquo = text
            .strip_prefix("0 ulp for the remainder, at least the lower ")
            .and_then(|t| t.strip_suffix(" bits of the integral quotient"));
        let sincos = text
            .strip_prefix("<= ")
            .and_then(|t| t.strip_suffix(" ulp for sine and cosine values"));
        let plain = text
            .strip_prefix("<= ")
            .and_then(|t| t.strip_suffix(" ulp"));
        match text {
            "Correctly rounded" => Requirement::CorrectlyRounded,
            "0 ulp" => Requirement::Exact,
            // Table 4 misspells the mad cells "Implemention-defined".
            "Implementation-defined" | "Implemention-defined" => Requirement::ImplementationDefined,
            SPEC_MAD_RULE => Requirement::MadFmaOrMulAdd,
            _ => match (remquo, sincos, plain) {
                (Some(bits), _, _) => Requirement::RemquoExact {
                    quotient_bits: bits.parse().unwrap_or_else(|_| {
                        panic!("spec line {line}: `{bits}` in `{text}` is not a bit count")
                    }),
                },
                (_, Some(n), _) => Requirement::UlpEachOutput(number(n)),
                (_, _, Some(n)) => Requirement::Ulp(number(n)),
                _ => panic!("spec line {line}: unrecognised cell `{text}`"),
            },
        }
    }

    /// Every spec row is in the data file with the same cells, in the same order, and the data
    /// file has no other rows. All differences are listed, not just the first.
    fn check_against_spec(profile: Profile, title: &str) {
        let spec = spec_table(&spec_text(), title);
        compare(&spec, builtin(profile), title);
        // Guards the extractor itself: both tables list 99 instructions.
        assert_eq!(spec.len(), 99, "extracted {} rows from {title}", spec.len());
    }

    /// Every spec row is in `table` with the same cells, in the same order, and the table has
    /// no other rows. All differences are listed, not just the first.
    pub(crate) fn compare(spec: &[SpecRow], table: &UlpTable, title: &str) {
        let columns = [FloatType::Double, FloatType::Float, FloatType::Half];
        let mut problems = Vec::new();
        for row in spec {
            let Some(data) = table.row(&row.instruction) else {
                problems.push(format!(
                    "`{}` (spec line {}) is missing from {}",
                    row.instruction, row.line, table.source
                ));
                continue;
            };
            for (element, expected) in columns.iter().zip(&row.cells) {
                let found = data.requirement(*element);
                if found != expected {
                    problems.push(format!(
                        "{}:{}: `{}` {}: {:?}, but spec line {} says {:?}",
                        table.source,
                        data.line,
                        row.instruction,
                        element.spirv_name(),
                        found,
                        row.line,
                        expected
                    ));
                }
            }
        }
        for data in &table.rows {
            if !spec.iter().any(|row| row.instruction == data.instruction) {
                problems.push(format!(
                    "{}:{}: `{}` is not in {title}",
                    table.source, data.line, data.instruction
                ));
            }
        }
        let spec_order: Vec<&str> = spec.iter().map(|r| r.instruction.as_str()).collect();
        let data_order: Vec<&str> = table.rows.iter().map(|r| r.instruction.as_str()).collect();
        if problems.is_empty() && spec_order != data_order {
            problems.push(format!(
                "{}: rows are not in the spec's order",
                table.source
            ));
        }
        assert!(
            problems.is_empty(),
            "{} differs from {title}:\n{}",
            table.source,
            problems.join("\n")
        );
    }

    // ---- The 2026 text (AsciiDoc source) against the 2026 data files ----

    use super::asciidoc::SPEC_2026;

    /// Extracts one table from the AsciiDoc source: the `.Title` line, the `|====` opening,
    /// the header cells up to the first blank line, then groups of one `| *Instruction*` cell
    /// and its `|` cells, continuation lines joined, `//` comment lines skipped, up to the
    /// closing `|====`.
    fn asciidoc_table(text: &str, title: &str) -> Vec<SpecRow> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        lines
            .by_ref()
            .find(|(_, l)| l.trim() == format!(".{title}"))
            .unwrap_or_else(|| panic!("the 2026 text has no table `.{title}`"));
        lines.by_ref().find(|(_, l)| l.trim() == "|====");
        let header: Vec<String> = lines
            .by_ref()
            .map(|(_, l)| l.trim().to_string())
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(
            header,
            [
                "| *SPIR-V Instruction*",
                "| *Minimum Accuracy - Float64*",
                "| *Minimum Accuracy - Float32*",
                "| *Minimum Accuracy - Float16*"
            ],
            "{title}: the column order is not what the data files assume"
        );
        // (line, instruction, [(line, cell)])
        type Group = (usize, String, Vec<(usize, String)>);
        let mut groups: Vec<Group> = Vec::new();
        for (n, line) in lines {
            let line = line.trim();
            if line == "|====" {
                break;
            }
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            match line.strip_prefix('|').map(str::trim) {
                Some(head) if head.starts_with('*') => {
                    let name = head.replace("*OpExtInst* ", "").replace('*', "");
                    groups.push((n, name, Vec::new()));
                }
                Some(cell) => groups
                    .last_mut()
                    .unwrap_or_else(|| panic!("line {n}: a cell before any instruction"))
                    .2
                    .push((n, cell.to_string())),
                None => {
                    let cells = &mut groups.last_mut().expect("a continuation line").2;
                    let last = cells.last_mut().expect("a continuation of a cell");
                    last.1 = format!("{} {line}", last.1);
                }
            }
        }
        groups
            .into_iter()
            .map(|(line, instruction, cells)| {
                assert_eq!(cells.len(), 3, "line {line}: `{instruction}` has {cells:?}");
                let cell = |i: usize| asciidoc_cell(cells[i].0, &cells[i].1);
                SpecRow {
                    line,
                    instruction,
                    cells: [cell(0), cell(1), cell(2)],
                }
            })
            .collect()
    }

    /// The 2026 text's wording of a cell, read independently of the data-file grammar.
    pub(crate) fn asciidoc_cell(line: usize, text: &str) -> Requirement {
        let text = text.replace("\\<=", "<=");
        let number = |n: &str| -> f64 {
            n.parse()
                .unwrap_or_else(|_| panic!("line {line}: `{n}` in `{text}` is not a number"))
        };
        // "<= A + Bn ulp, for gentype with vector width _n_", B and A optional.
        let per_width = |bound: &str| -> Linear {
            let (constant, per) = match bound.split_once(" + ") {
                Some((a, b)) => (number(a), b),
                None => (0.0, bound),
            };
            let per = per.strip_suffix('n').expect("a term in n");
            Linear {
                constant,
                per_component: if per.is_empty() { 1.0 } else { number(per) },
            }
        };
        let epsilon = |name: &str| match name {
            "FLT_EPSILON" => Epsilon::Flt,
            "HALF_EPSILON" => Epsilon::Half,
            other => panic!("line {line}: unknown epsilon `{other}`"),
        };
        let cross = "absolute error tolerance of 'max * max * (3 * ";
        let cross_end =
            ")' per vector component, where _max_ is the maximum input operand magnitude";
        let dot = "absolute error tolerance of 'max * max * (2n - 1) * ";
        let dot_end = "', for vector width _n_ and maximum input operand magnitude _max_ across \
            all vector components";
        if let Some(e) = text
            .strip_prefix(cross)
            .and_then(|t| t.strip_suffix(cross_end))
        {
            return Requirement::AbsoluteMaxSquared {
                operations: Linear {
                    constant: 3.0,
                    per_component: 0.0,
                },
                epsilon: epsilon(e),
            };
        }
        if let Some(e) = text.strip_prefix(dot).and_then(|t| t.strip_suffix(dot_end)) {
            return Requirement::AbsoluteMaxSquared {
                operations: Linear {
                    constant: -1.0,
                    per_component: 2.0,
                },
                epsilon: epsilon(e),
            };
        }
        if let Some(b) = text.strip_prefix("absolute error tolerance of ") {
            return Requirement::Absolute(number(b));
        }
        if let Some(bound) = text
            .strip_prefix("<= ")
            .and_then(|t| t.strip_suffix(" ulp, for gentype with vector width _n_"))
        {
            return Requirement::UlpPerWidth(per_width(bound));
        }
        match text.as_str() {
            "" => Requirement::NotApplicable,
            // The 2026 text writes mad's rule over two source lines; they are joined above.
            SPEC_MAD_RULE => Requirement::MadFmaOrMulAdd,
            _ => spec_cell(line, &text),
        }
    }

    fn check_against_2026_text(profile: Profile, title: &str) {
        let text = crate::spec::table::asciidoc::read(SPEC_2026);
        let spec = asciidoc_table(&text, title);
        compare(
            &spec,
            builtin_in(&OPENCL_SPIRV, Revision::Spec2026, profile),
            title,
        );
        // Guards the extractor: 99 rows of 2017 and 17 common and geometric ones.
        assert_eq!(
            spec.len(),
            116,
            "extracted {} rows from {title}",
            spec.len()
        );
    }

    #[test]
    fn data_files_match_the_2026_text() {
        check_against_2026_text(
            Profile::Full,
            "ULP Values for Math Instructions - Full Profile",
        );
        check_against_2026_text(
            Profile::Embedded,
            "ULP Values for Math Instructions - Embedded Profile",
        );
    }

    #[test]
    fn float32_cells_of_2017_rows_are_the_same_in_2026() {
        for profile in Profile::ALL {
            for row in &builtin_in(&OPENCL_SPIRV, Revision::Spec2017, profile).rows {
                let now = builtin_in(&OPENCL_SPIRV, Revision::Spec2026, profile)
                    .row(&row.instruction)
                    .unwrap_or_else(|| panic!("{} dropped in 2026", row.instruction));
                assert_eq!(row.float32, now.float32, "{profile} {}", row.instruction);
            }
        }
    }

    #[test]
    fn changes_list_the_half_rows_the_2026_text_relaxed() {
        let changes = changes(
            (&OPENCL_SPIRV, Revision::Spec2017),
            (&OPENCL_SPIRV, Revision::Spec2026),
        );
        let find = |name: &str, element: FloatType, profile: Profile| {
            changes
                .iter()
                .find(|c| c.instruction == name && c.element == element && c.profile == profile)
                .map(|c| (c.before.clone(), c.after.clone()))
        };
        use FloatType::{Double, Float, Half};
        use Profile::{Embedded, Full};
        assert_eq!(
            find("sqrt", Half, Full),
            Some((
                Some(Requirement::CorrectlyRounded),
                Some(Requirement::Ulp(1.5))
            ))
        );
        assert_eq!(
            find("sqrt", Half, Embedded),
            Some((Some(Requirement::Ulp(1.0)), Some(Requirement::Ulp(1.5))))
        );
        assert_eq!(
            find("OpFDiv", Half, Full),
            Some((
                Some(Requirement::CorrectlyRounded),
                Some(Requirement::Ulp(1.0))
            ))
        );
        assert_eq!(
            find("tan", Half, Full),
            Some((Some(Requirement::Ulp(2.0)), Some(Requirement::Ulp(2.5))))
        );
        assert_eq!(
            find("mad", Double, Full),
            Some((
                Some(Requirement::ImplementationDefined),
                Some(Requirement::MadFmaOrMulAdd)
            ))
        );
        assert_eq!(find("sin", Float, Full), None);
        assert_eq!(find("tan", Half, Embedded), None, "Table 4 kept 3 ulp");
        assert_eq!(
            find("degrees", Float, Embedded),
            Some((None, Some(Requirement::Ulp(2.0))))
        );
        assert_eq!(find("fast_length", Double, Full), None, "a `-` cell");
        let new_full_rows = changes
            .iter()
            .filter(|c| c.profile == Full && c.before.is_none())
            .count();
        // 14 rows with three columns and the three fast_ rows with one.
        assert_eq!(new_full_rows, 14 * 3 + 3);
        assert!(changes.iter().all(|c| c.after.is_some()), "nothing dropped");
        assert!(super::changes(
            (&OPENCL_SPIRV, Revision::Spec2026),
            (&OPENCL_SPIRV, Revision::Spec2026)
        )
        .is_empty());
    }

    #[test]
    fn revision_names() {
        assert_eq!(Revision::default(), Revision::Spec2026);
        assert_eq!(Revision::parse("2017"), Some(Revision::Spec2017));
        assert_eq!(Revision::parse(" 2026"), Some(Revision::Spec2026));
        assert_eq!(Revision::parse("2025"), None);
        assert_eq!(Revision::Spec2017.to_string(), "2017");
    }

    #[test]
    fn width_dependent_and_absolute_cells_read_and_resolve() {
        let text = "instruction,float64,float32,float16\n\
length,<= 5.5+n ulp,<= 2.75+0.5n ulp,<= 2n ulp\n\
OpDot,abs <= max*max*(2n-1)*FLT_EPSILON,abs <= 1e-3,abs <= max*max*3*HALF_EPSILON\n";
        let table = parse("t.csv", Profile::Full, text).unwrap();
        let length = table.row("length").unwrap();
        let linear = |constant, per_component| Linear {
            constant,
            per_component,
        };
        assert_eq!(length.float64, Requirement::UlpPerWidth(linear(5.5, 1.0)));
        assert_eq!(length.float32.at_width(4), Requirement::Ulp(4.75));
        assert_eq!(length.float16.at_width(3), Requirement::Ulp(6.0));
        assert_eq!(length.float32.ulp_bound(), None, "unresolved");
        assert_eq!(length.float32.describe(), "<= 2.75+0.5n ulp");
        let dot = table.row("OpDot").unwrap();
        let at_3 = dot.float64.at_width(3);
        assert_eq!(
            at_3,
            Requirement::AbsoluteMaxSquared {
                operations: linear(5.0, 0.0),
                epsilon: Epsilon::Flt
            }
        );
        assert_eq!(
            at_3.absolute_tolerance(&[1.0, -4.0, 2.0]),
            Some(16.0 * 5.0 * 2f64.powi(-23))
        );
        assert_eq!(dot.float64.describe(), "abs <= max*max*(2n-1)*FLT_EPSILON");
        assert_eq!(dot.float32, Requirement::Absolute(1e-3));
        assert_eq!(dot.float32.absolute_tolerance(&[1e9]), Some(1e-3));
        assert_eq!(dot.float16.describe(), "abs <= max*max*3*HALF_EPSILON");
        assert_eq!(Requirement::Ulp(3.0).absolute_tolerance(&[1.0]), None);
        for bad in [
            "<= 2+nn ulp",
            "<= +n ulp",
            "abs <= -1",
            "abs <= inf",
            "abs <= max*max*3*EPS",
        ] {
            let e = parse(
                "bad.csv",
                Profile::Full,
                &format!("{HEADER}length,-,{bad},-\n"),
            )
            .unwrap_err();
            assert_error(&e, 2, "float32", "cannot read");
        }
    }

    #[test]
    fn data_files_match_the_spec() {
        check_against_spec(
            Profile::Full,
            "Table 3. ULP Values for Math Instructions - Full Profile",
        );
        check_against_spec(
            Profile::Embedded,
            "Table 4. ULP Values for Math Instructions - Embedded Profile",
        );
    }

    // ---- The built-in tables ----

    #[test]
    fn builtin_rows_hold_the_spec_values() {
        let full = builtin(Profile::Full);
        let embedded = builtin(Profile::Embedded);
        assert_eq!(full.source, "tables/ulp_full.csv");
        assert_eq!(embedded.profile, Profile::Embedded);

        let sin = full.row("sin").expect("sin");
        assert_eq!(sin.requirement(FloatType::Float), &Requirement::Ulp(4.0));
        assert_eq!(sin.requirement(FloatType::Half), &Requirement::Ulp(2.0));

        let fdiv = |t: &UlpTable| t.row("OpFDiv").expect("OpFDiv").float32.clone();
        assert_eq!(fdiv(full), Requirement::Ulp(2.5));
        assert_eq!(fdiv(embedded), Requirement::Ulp(3.0));

        let sqrt = full.row("sqrt").expect("sqrt");
        assert_eq!(sqrt.float32, Requirement::Ulp(3.0));
        assert_eq!(sqrt.float64, Requirement::CorrectlyRounded);

        let half_sin = full.row("half_sin").expect("half_sin");
        assert_eq!(half_sin.float64, Requirement::NotApplicable);
        assert_eq!(half_sin.float32, Requirement::Ulp(8192.0));

        assert_eq!(
            full.row("mad").unwrap().float32,
            Requirement::MadFmaOrMulAdd
        );
        assert_eq!(
            embedded.row("mad").unwrap().float32,
            Requirement::ImplementationDefined
        );
        assert_eq!(
            full.row("remquo").unwrap().float16,
            Requirement::RemquoExact { quotient_bits: 7 }
        );
        assert_eq!(
            embedded.row("sincos").unwrap().float16,
            Requirement::UlpEachOutput(2.0)
        );
        assert!(full.row("OpExtInst sin").is_none());
    }

    // ---- The cell grammar and the requirement's meaning ----

    #[test]
    fn every_cell_form_reads() {
        let text = "\
# comment\n\
\n\
instruction,float64,float32,float16\n\
OpFAdd,correctly-rounded,0 ulp,<=  2.5   ulp\n\
mad, implementation-defined ,mad: fma or mul+add,-\n\
remquo,\"remquo: 0 ulp remainder, low 7 quotient bits\",-,-\n\
sincos,sincos: <= 4 ulp each,-,<= 0 ulp\n";
        let table = parse("t.csv", Profile::Full, text).unwrap();
        assert_eq!(table.rows.len(), 4);
        let add = table.row("OpFAdd").unwrap();
        assert_eq!(add.line, 4, "comment and blank lines count");
        assert_eq!(add.float64, Requirement::CorrectlyRounded);
        assert_eq!(add.float32, Requirement::Exact);
        assert_eq!(add.float16, Requirement::Ulp(2.5));
        let mad = table.row("mad").unwrap();
        assert_eq!(mad.float64, Requirement::ImplementationDefined);
        assert_eq!(mad.float32, Requirement::MadFmaOrMulAdd);
        assert_eq!(mad.float16, Requirement::NotApplicable);
        assert_eq!(
            table.row("remquo").unwrap().float64,
            Requirement::RemquoExact { quotient_bits: 7 }
        );
        let sincos = table.row("sincos").unwrap();
        assert_eq!(sincos.float64, Requirement::UlpEachOutput(4.0));
        assert_eq!(sincos.float16, Requirement::Ulp(0.0));
        assert_eq!(sincos.line, 7);
    }

    #[test]
    fn ulp_bound_and_describe() {
        use Requirement::*;
        let cases = [
            (CorrectlyRounded, Some(0.0), "correctly rounded"),
            (Exact, Some(0.0), "0 ulp"),
            (Ulp(4.0), Some(4.0), "<= 4 ulp"),
            (Ulp(2.5), Some(2.5), "<= 2.5 ulp"),
            (ImplementationDefined, None, "implementation-defined"),
            (MadFmaOrMulAdd, None, "correctly rounded fma or mul+add"),
            (
                RemquoExact { quotient_bits: 7 },
                Some(0.0),
                "0 ulp remainder, low 7 quotient bits",
            ),
            (UlpEachOutput(2.0), Some(2.0), "<= 2 ulp each (sin, cos)"),
            (NotApplicable, None, "not applicable"),
        ];
        for (requirement, bound, text) in cases {
            assert_eq!(requirement.ulp_bound(), bound, "{requirement:?}");
            assert_eq!(requirement.describe(), text);
        }
    }

    #[test]
    fn profile_names() {
        assert_eq!(Profile::Full.to_string(), "full");
        assert_eq!(Profile::Embedded.name(), "embedded");
        assert_eq!(Profile::parse("FULL_PROFILE"), Some(Profile::Full));
        assert_eq!(Profile::parse("embedded"), Some(Profile::Embedded));
        assert_eq!(Profile::parse("Embedded_Profile"), Some(Profile::Embedded));
        assert_eq!(Profile::parse("fullish"), None);
        assert_eq!(Profile::parse("full_"), None);
    }

    // ---- Malformed input ----

    const HEADER: &str = "instruction,float64,float32,float16\n";

    /// Parses `HEADER` + `body` (so body line k is file line k + 1) and returns the error.
    fn error_of(body: &str) -> TableError {
        match parse("bad.csv", Profile::Full, &format!("{HEADER}{body}")) {
            Ok(table) => panic!("accepted: {table:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn unknown_cell_text_is_an_error() {
        let e = error_of("sin,<= 4 ulp,about 4 ulp,<= 2 ulp\n");
        assert_error(
            &e,
            2,
            "float32",
            "cannot read `about 4 ulp`: expected one of",
        );
        // The spec's own wording is not the data-file grammar.
        let e = error_of("sin,Correctly rounded,-,-\n");
        assert_error(&e, 2, "float64", "cannot read `Correctly rounded`");
        let e = error_of("sin,-,-,\n");
        assert_error(&e, 2, "float16", "empty cell");
    }

    #[test]
    fn bad_numbers_are_errors() {
        for bad in ["x", "-1", "1e3", "inf", "NaN", "2.", ".5", "+4", "1.2.3"] {
            let e = error_of(&format!("# c\nsin,-,<= {bad} ulp,-\n"));
            assert_error(&e, 3, "float32", &format!("found `{bad}`"));
        }
        let e = error_of("sincos,-,sincos: <= four ulp each,-\n");
        assert_error(&e, 2, "float32", "found `four`");
        let e = error_of("remquo,-,-,\"remquo: 0 ulp remainder, low -7 quotient bits\"\n");
        assert_error(&e, 2, "float16", "quotient bits, found `-7`");
    }

    #[test]
    fn wrong_field_counts_are_errors() {
        let e = error_of("sin,<= 4 ulp,<= 4 ulp\n");
        assert_error(
            &e,
            2,
            "float16",
            "this field is missing: the row has 3 fields",
        );
        // An unquoted comma splits the remquo cell.
        let e = error_of("remquo,-,-,remquo: 0 ulp remainder, low 7 quotient bits\n");
        assert_error(
            &e,
            2,
            "float16",
            "extra fields follow this one: the row has 5 fields",
        );
        let e = error_of("\nsin\n");
        assert_error(&e, 3, "float64", "the row has 1 fields");
    }

    #[test]
    fn duplicate_instruction_is_an_error() {
        let e = error_of("sin,-,<= 4 ulp,-\ncos,-,<= 4 ulp,-\nsin,-,<= 4 ulp,-\n");
        assert_error(
            &e,
            4,
            "instruction",
            "duplicate instruction `sin`: first given on line 2",
        );
    }

    #[test]
    fn bad_instruction_names_and_misplaced_forms_are_errors() {
        let e = error_of("OpExtInst sin,-,<= 4 ulp,-\n");
        assert_error(&e, 2, "instruction", "cannot read `OpExtInst sin`");
        let e = error_of("sin,-,sincos: <= 4 ulp each,-\n");
        assert_error(&e, 2, "float32", "belongs to the `sincos` row only");
        let e = error_of("fma,-,mad: fma or mul+add,-\n");
        assert_error(&e, 2, "float32", "belongs to the `mad` row only");
    }

    #[test]
    fn bad_header_and_empty_files_are_errors() {
        let e = parse(
            "bad.csv",
            Profile::Full,
            "# c\ninstruction,float32,float64,float16\n",
        )
        .unwrap_err();
        assert_error(
            &e,
            2,
            "float64",
            "the header must be `instruction,float64,float32,float16`",
        );
        let e = parse("bad.csv", Profile::Full, "# only a comment\n").unwrap_err();
        assert!(e.to_string().starts_with("bad.csv:1: no header"), "{e}");
        let e = parse("bad.csv", Profile::Full, HEADER).unwrap_err();
        assert!(e.to_string().contains("no rows"), "{e}");
    }

    #[test]
    fn unclosed_quotes_are_errors_and_crlf_reads() {
        let e = error_of("# c\nremquo,-,-,\"remquo: 0 ulp remainder, low 7 quotient bits\n");
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("bad.csv:3: unclosed"), "{e}");
        let text = "instruction,float64,float32,float16\r\n\r\nsin,-,<= 4 ulp,-\r\n";
        let table = parse("crlf.csv", Profile::Full, text).unwrap();
        assert_eq!(table.rows[0].line, 3);
        assert_eq!(table.rows[0].float32, Requirement::Ulp(4.0));
    }
}
