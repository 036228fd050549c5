//! clacc: an accuracy checker for OpenCL devices.
//!
//! The layers, each importing only the ones below it (`tests/layers.rs` keeps it so):
//! `run` drives a unit from its table row to its CSV row: `kernel` builds the SPIR-V module,
//! `device` runs it, `sweep` supplies the inputs, `reference` computes the exact results and
//! `judge` measures the error against the table's requirement; `report` writes CSV, summary,
//! JUnit and plots; `spec` holds the function registry and the tables; `num` the formats and
//! the one ULP-distance function.

pub mod device;
pub mod face;
pub mod judge;
pub mod kernel;
pub mod num;
pub mod reference;
pub mod report;
pub mod run;
pub mod spec;
pub mod sweep;
