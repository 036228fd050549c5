//! Which SPIR-V extensions a device's driver accepts, asked through `cl_khr_spirv_queries`.
//!
//! Asking is the only safe way to find out: drivers do not validate modules, and the Intel CPU
//! runtime calls `exit(10)` inside `clBuildProgram` on an `OpExtension` it does not know, which
//! ends the whole process. Where the device has `cl_khr_spirv_queries`, its
//! `CL_DEVICE_SPIRV_EXTENSIONS_KHR` (0x12BA, an array of `const char*`) lists the extensions,
//! and `CL_DEVICE_SPIRV_CAPABILITIES_KHR` (0x12BB, `cl_uint[]`) and
//! `CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR` (0x12B9) complete the picture
//! ([`spirv_extensions`]). Elsewhere the answer is unknown (see
//! [`crate::run::extension::probe`] for the isolated builds that may tell).

use std::ffi::CStr;
use std::os::raw::c_char;

use super::DeviceInfo;
use crate::spec::probe::{Probe, ProbeSource};

/// `CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR`: `const char*[]`.
pub const CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: u32 = 0x12B9;
/// `CL_DEVICE_SPIRV_EXTENSIONS_KHR`: `const char*[]`.
pub const CL_DEVICE_SPIRV_EXTENSIONS_KHR: u32 = 0x12BA;
/// `CL_DEVICE_SPIRV_CAPABILITIES_KHR`: `cl_uint[]`.
pub const CL_DEVICE_SPIRV_CAPABILITIES_KHR: u32 = 0x12BB;

/// Why nothing is built to find out, for a device without `cl_khr_spirv_queries`.
pub const NO_QUERIES: &str =
    "device lacks cl_khr_spirv_queries; clacc does not risk a driver crash";

/// The SPIR-V extensions, capabilities and extended instruction sets the device accepts, read
/// from `cl_khr_spirv_queries`; [`ProbeSource::Unavailable`] where the device lacks the
/// extension or the query fails. Never builds a module.
pub fn spirv_extensions(info: &DeviceInfo) -> Probe {
    if !info.has_extension("cl_khr_spirv_queries") {
        return Probe::unavailable(NO_QUERIES);
    }
    let strings = |query: u32| -> Result<Vec<String>, QueryError> {
        let bytes = cl3::device::get_device_data(info.id, query)
            .map_err(|code| QueryError { query, code })?;
        // SAFETY: the query's value is an array of pointers to NUL-terminated strings owned
        // by the implementation, valid while the device exists (cl_khr_spirv_queries).
        Ok(unsafe { c_string_array(&bytes) })
    };
    let capabilities = |query: u32| -> Result<Vec<u32>, QueryError> {
        let bytes = cl3::device::get_device_data(info.id, query)
            .map_err(|code| QueryError { query, code })?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let read = || -> Result<Probe, QueryError> {
        Ok(Probe {
            source: ProbeSource::SpirvQueries,
            extensions: strings(CL_DEVICE_SPIRV_EXTENSIONS_KHR)?,
            capabilities: capabilities(CL_DEVICE_SPIRV_CAPABILITIES_KHR)?,
            extended_instruction_sets: strings(CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR)?,
            refused: Vec::new(),
        })
    };
    read().unwrap_or_else(|error| {
        Probe::unavailable(format!(
            "cl_khr_spirv_queries failed: {error}; clacc does not risk a driver crash"
        ))
    })
}

/// A `cl_khr_spirv_queries` query the device refused.
#[derive(Debug, thiserror::Error)]
#[error("clGetDeviceInfo({query:#x}) failed ({code})")]
struct QueryError {
    query: u32,
    code: i32,
}

/// The strings of a `const char*[]` query value.
///
/// # Safety
/// `bytes` must hold native-endian pointers to NUL-terminated strings that are alive.
unsafe fn c_string_array(bytes: &[u8]) -> Vec<String> {
    const POINTER: usize = std::mem::size_of::<*const c_char>();
    bytes
        .chunks_exact(POINTER)
        .filter_map(|chunk| {
            let mut word = [0u8; POINTER];
            word.copy_from_slice(chunk);
            let pointer = usize::from_ne_bytes(word) as *const c_char;
            (!pointer.is_null()).then(|| CStr::from_ptr(pointer).to_string_lossy().into_owned())
        })
        .collect()
}
