//! The specification as data: the function registry and the loaders of `tables/`.

pub mod diff;
pub mod fp_config;
pub mod reference_id;
pub mod registry;
pub mod signature;
pub mod table;
