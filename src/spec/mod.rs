//! The specification as data: the function registry and the loaders of `tables/`.

pub mod conversion;
pub mod diff;
pub mod extension;
pub mod probe;
pub mod registry;
pub mod table;
