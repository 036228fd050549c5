//! Devices, by environment.

pub mod opencl;

pub use opencl::*;
