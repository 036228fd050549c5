//! clacc: an accuracy checker for OpenCL devices.
//!
//! Data flows one way: a table row (`table`) and a registry entry (`registry`) name a unit of
//! work; `kernel` builds its SPIR-V module; `device` runs it; `sweep` supplies the inputs;
//! `reference` computes the exact results; `judge` measures `ulp::ulp_error` against the row's
//! requirement; `report` writes the CSV row and the summary. `run` drives one unit through
//! that pipeline.

pub mod campaign;
pub mod compare;
pub mod conversion;
pub mod convert;
pub mod device;
pub mod edge;
pub mod edge_run;
pub mod extension;
pub mod float8;
pub mod fp;
pub mod geometric;
pub mod hexfloat;
pub mod isolate;
pub mod judge;
pub mod junit;
pub mod kernel;
pub mod merge;
pub mod plot;
pub mod reference;
pub mod registry;
pub mod relaxed;
pub mod report;
pub mod run;
pub mod runtime;
pub mod spec_diff;
pub mod sweep;
pub mod table;
pub mod ulp;
