//! clacc: an accuracy checker for OpenCL devices.
//!
//! The layers, each importing only the ones below it (`tests/pure/layers.rs` keeps it so):
//! `run` drives a unit from its table row to its CSV row: `kernel` builds the module,
//! `device` runs it, `sweep` supplies the inputs, `reference` computes the exact results and
//! `judge` measures the error against the table's requirement; `report` writes CSV, summary,
//! JUnit and plots; `spec` holds the function registry and the tables; `num` the formats and
//! the one ULP-distance function. What differs between environments (today OpenCL through
//! SPIR-V) sits in a folder per environment behind small interfaces: `device::opencl` behind
//! `device::Device`, `kernel::spirv_opencl` behind `kernel::KernelSpec`, the environment's
//! tables named by `spec::environment` (docs/architecture.md).

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
