//! The error of one cell of the edge-case and Table 5 files in `tables/` (whose cells are
//! small grammars of their own; `table::CellError` is the ULP tables').

/// What is wrong with one cell of a table file, in words (what was read, what was expected);
/// the loader places it in a [`TableError`](crate::spec::table::TableError) with the file, the
/// line and the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleCellError(pub String);

impl From<String> for RuleCellError {
    fn from(message: String) -> RuleCellError {
        RuleCellError(message)
    }
}

impl From<&str> for RuleCellError {
    fn from(message: &str) -> RuleCellError {
        RuleCellError(message.to_string())
    }
}
