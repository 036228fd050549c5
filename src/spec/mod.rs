//! The specification as data: the function registry, the environments
//! ([`environment`]) and the loaders of their data in `tables/`.

pub mod cell;
pub mod conversion;
pub mod diff;
pub mod edge_table;
pub mod environment;
pub mod extension;
pub mod fp_config;
pub mod opencl_c;
pub mod probe;
pub mod reference_id;
pub mod registry;
pub mod relaxed_table;
pub mod signature;
pub mod table;
pub mod vulkan;
