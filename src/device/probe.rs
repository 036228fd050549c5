//! Which SPIR-V extensions a device's driver accepts.
//!
//! Asking is the only safe way to find out: drivers do not validate modules, and the Intel CPU
//! runtime calls `exit(10)` inside `clBuildProgram` on an `OpExtension` it does not know, which
//! ends the whole process. So:
//!
//! 1. Where the device has `cl_khr_spirv_queries`, its `CL_DEVICE_SPIRV_EXTENSIONS_KHR`
//!    (0x12BA, an array of `const char*`) lists the extensions, and
//!    `CL_DEVICE_SPIRV_CAPABILITIES_KHR` (0x12BB, `cl_uint[]`) and
//!    `CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR` (0x12B9) complete the picture
//!    ([`spirv_extensions`]).
//! 2. Elsewhere the answer is unknown, and clacc builds nothing that declares an extension,
//!    unless the caller supplies an [`IsolatedBuilder`]: something that hands a module to the
//!    driver in a process whose death costs nothing (the command line's worker process). Then
//!    [`probe_isolated`] builds, for each extension clacc checks, a minimal module that declares
//!    that extension and no other ([`probe_module`]), and reads the outcome: built means
//!    accepted; refused or crashed means not.

use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_char;

use rspirv::spirv::Capability;

use crate::device::{DeviceError, DeviceInfo, Session};
use crate::kernel::extension as checks;
use crate::kernel::validate;
use crate::kernel::ENTRY_POINT;
use crate::run::extension::EXTENSIONS;

/// `CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR`: `const char*[]`.
pub const CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: u32 = 0x12B9;
/// `CL_DEVICE_SPIRV_EXTENSIONS_KHR`: `const char*[]`.
pub const CL_DEVICE_SPIRV_EXTENSIONS_KHR: u32 = 0x12BA;
/// `CL_DEVICE_SPIRV_CAPABILITIES_KHR`: `cl_uint[]`.
pub const CL_DEVICE_SPIRV_CAPABILITIES_KHR: u32 = 0x12BB;

/// Where a [`Probe`]'s answers come from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ProbeSource {
    /// The device's `cl_khr_spirv_queries`.
    SpirvQueries,
    /// Minimal modules built in an isolated process, one per extension clacc checks.
    IsolatedBuild,
    /// Nothing could be asked; the text says why.
    Unavailable(String),
}

/// What the driver accepts, as far as it could be found out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    pub source: ProbeSource,
    /// SPIR-V extensions the driver accepts: every one the queries list, or those of
    /// [`EXTENSIONS`] whose probe module built.
    pub extensions: Vec<String>,
    /// SPIR-V capabilities the driver accepts (queries only; empty otherwise).
    pub capabilities: Vec<u32>,
    /// Extended instruction sets (queries only).
    pub extended_instruction_sets: Vec<String>,
    /// Extensions whose probe module was refused or killed the isolated process, with what
    /// happened (isolated builds only).
    pub refused: Vec<(String, String)>,
}

/// The answer for one extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acceptance {
    Accepted,
    /// The driver does not accept it; the text says how that is known.
    NotAccepted(String),
    /// Nobody could tell without risking the process; the text says why.
    Unknown(String),
}

impl Probe {
    /// A probe that could not ask anything, for `reason`.
    pub fn unavailable(reason: impl Into<String>) -> Probe {
        Probe {
            source: ProbeSource::Unavailable(reason.into()),
            extensions: Vec::new(),
            capabilities: Vec::new(),
            extended_instruction_sets: Vec::new(),
            refused: Vec::new(),
        }
    }

    /// Whether the driver accepts `extension`, and how that is known.
    pub fn acceptance(&self, extension: &str) -> Acceptance {
        if self.extensions.iter().any(|e| e == extension) {
            return Acceptance::Accepted;
        }
        match &self.source {
            ProbeSource::SpirvQueries => Acceptance::NotAccepted(format!(
                "the device does not accept {extension} (not in its CL_DEVICE_SPIRV_EXTENSIONS_KHR)"
            )),
            ProbeSource::IsolatedBuild => match self.refused.iter().find(|(e, _)| e == extension) {
                Some((_, what)) => Acceptance::NotAccepted(format!(
                    "the device does not accept {extension} (an isolated build of a module \
                     declaring it {what})"
                )),
                None => Acceptance::Unknown(format!("{extension} was not probed")),
            },
            ProbeSource::Unavailable(reason) => {
                Acceptance::Unknown(format!("{extension} support unknown ({reason})"))
            }
        }
    }

    /// Whether the driver accepts `capability`, where the queries tell (`None` otherwise).
    pub fn accepts_capability(&self, capability: Capability) -> Option<bool> {
        (self.source == ProbeSource::SpirvQueries)
            .then(|| self.capabilities.contains(&(capability as u32)))
    }

    /// One line for `clacc devices`: `SPV_KHR_bit_instructions SPV_... (cl_khr_spirv_queries)`,
    /// or why nothing is known.
    pub fn describe(&self) -> String {
        let list = if self.extensions.is_empty() {
            "none".to_string()
        } else {
            self.extensions.join(" ")
        };
        match &self.source {
            ProbeSource::SpirvQueries => format!("{list} (cl_khr_spirv_queries)"),
            ProbeSource::IsolatedBuild => {
                let refused: Vec<&str> = self.refused.iter().map(|(e, _)| e.as_str()).collect();
                if refused.is_empty() {
                    format!("{list} (isolated probe builds)")
                } else {
                    format!(
                        "{list} (isolated probe builds; refused: {})",
                        refused.join(" ")
                    )
                }
            }
            ProbeSource::Unavailable(reason) => format!("unknown ({reason})"),
        }
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

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
    let strings = |query: u32| -> Result<Vec<String>, String> {
        let bytes = cl3::device::get_device_data(info.id, query)
            .map_err(|code| format!("clGetDeviceInfo({query:#x}) failed ({code})"))?;
        // SAFETY: the query's value is an array of pointers to NUL-terminated strings owned
        // by the implementation, valid while the device exists (cl_khr_spirv_queries).
        Ok(unsafe { c_string_array(&bytes) })
    };
    let capabilities = |query: u32| -> Result<Vec<u32>, String> {
        let bytes = cl3::device::get_device_data(info.id, query)
            .map_err(|code| format!("clGetDeviceInfo({query:#x}) failed ({code})"))?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let read = || -> Result<Probe, String> {
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

/// What became of a module handed to the driver in an isolated process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IsolatedOutcome {
    /// `clBuildProgram` succeeded.
    Built,
    /// The driver refused it; the text is the build log's first line or the error.
    Refused(String),
    /// The process died (an exit status or a signal, in words).
    Crashed(String),
}

/// Hands a SPIR-V module to the device's driver in a process that may die without harm, and
/// tells what happened. The command line implements it with its worker process; a closure
/// `Fn(&str, &[u8]) -> IsolatedOutcome` (module name, SPIR-V bytes) is one too.
pub trait IsolatedBuilder {
    fn build(&self, module_name: &str, spirv: &[u8]) -> IsolatedOutcome;
}

impl<F: Fn(&str, &[u8]) -> IsolatedOutcome> IsolatedBuilder for F {
    fn build(&self, module_name: &str, spirv: &[u8]) -> IsolatedOutcome {
        self(module_name, spirv)
    }
}

/// The isolated process's side of an [`IsolatedBuilder`]: checks `spirv` with clacc's own
/// validation ([`validate::check_module`]), then hands it to the driver in *this*
/// process. Only for a process whose death costs nothing (the command line's worker): an
/// extension the driver does not know may end it inside `clBuildProgram`. The parent reads a
/// dead process as [`IsolatedOutcome::Crashed`].
pub fn build_in_this_process(
    session: &Session,
    module_name: &str,
    spirv: &[u8],
) -> IsolatedOutcome {
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Err(problems) = validate::check_module(&words) {
        return IsolatedOutcome::Refused(format!("clacc's validation: {}", problems.join("; ")));
    }
    match session.build(module_name, spirv, ENTRY_POINT, "") {
        Ok(_) => IsolatedOutcome::Built,
        Err(DeviceError::Build { log, .. }) => IsolatedOutcome::Refused(
            log.lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("no build log")
                .trim()
                .to_string(),
        ),
        Err(other) => IsolatedOutcome::Refused(other.to_string()),
    }
}

/// Probes each extension of [`EXTENSIONS`] by building its [`probe_module`] through `builder`.
/// Extensions whose module needs a SPIR-V version the device does not list are refused
/// without building anything.
pub fn probe_isolated(info: &DeviceInfo, builder: &dyn IsolatedBuilder) -> Probe {
    let mut probe = Probe {
        source: ProbeSource::IsolatedBuild,
        extensions: Vec::new(),
        capabilities: Vec::new(),
        extended_instruction_sets: Vec::new(),
        refused: Vec::new(),
    };
    for extension in EXTENSIONS {
        let module = match probe_module(extension, info.address_bits) {
            Ok(module) => module,
            Err(error) => {
                probe.refused.push((extension.to_string(), error));
                continue;
            }
        };
        let version = validate::version_name(&module);
        if !info.il_versions.contains(&version) {
            probe.refused.push((
                extension.to_string(),
                format!("was not built: it needs {version}, which the device does not list"),
            ));
            continue;
        }
        let name = format!("probe_{extension}");
        match builder.build(&name, &crate::kernel::words_to_bytes(&module)) {
            IsolatedOutcome::Built => probe.extensions.push(extension.to_string()),
            IsolatedOutcome::Refused(log) => probe
                .refused
                .push((extension.to_string(), format!("was refused: {log}"))),
            IsolatedOutcome::Crashed(how) => probe
                .refused
                .push((extension.to_string(), format!("ended the process: {how}"))),
        }
    }
    probe
}

/// The queries where the device has them, else isolated builds where `builder` is given, else
/// [`ProbeSource::Unavailable`].
pub fn probe(info: &DeviceInfo, builder: Option<&dyn IsolatedBuilder>) -> Probe {
    let queried = spirv_extensions(info);
    match (&queried.source, builder) {
        (ProbeSource::Unavailable(_), Some(builder)) if info.accepts_spirv() => {
            probe_isolated(info, builder)
        }
        _ => queried,
    }
}

/// The minimal module declaring `extension` and no other, using the extension's feature once
/// (so a driver cannot accept the declaration and ignore the rest): SPV_EXT_float8 converts a
/// float to E4M3 and back, SPV_KHR_float_controls2 sets `FPFastMathDefault` for float to no
/// flags around one `OpFAdd`, SPV_EXT_arithmetic_fence fences one `OpFAdd`. It passes
/// clacc's own validation ([`validate::check_module`]).
pub fn probe_module(extension: &str, address_bits: u32) -> Result<Vec<u32>, String> {
    let words = checks::probe_kernel(extension, address_bits)?;
    validate::check_module(&words).map_err(|problems| problems.join("; "))?;
    Ok(words)
}
