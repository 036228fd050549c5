//! clacc: an accuracy checker for OpenCL devices.
//!
//! Data flows one way: a table row (`table`) and a registry entry (`registry`) name a unit of
//! work; `kernel` builds its SPIR-V module; `device` runs it; `sweep` supplies the inputs;
//! `reference` computes the exact results; `judge` measures `ulp::ulp_error` against the row's
//! bound; `report` writes the CSV row and the summary.

pub mod fp;
pub mod kernel;
pub mod table;
