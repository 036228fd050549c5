//! The error of one cell of a file in `tables/`.

/// What is wrong with one cell of a table file, in words (what was read, what was expected);
/// the loader places it in a [`TableError`](crate::spec::table::TableError) with the file, the
/// line and the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CellError(pub String);

impl From<String> for CellError {
    fn from(message: String) -> CellError {
        CellError(message)
    }
}

impl From<&str> for CellError {
    fn from(message: &str) -> CellError {
        CellError(message.to_string())
    }
}
