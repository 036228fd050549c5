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
//!    ([`crate::device::opencl::probe::spirv_extensions`]).
//! 2. Elsewhere the answer is unknown, and clacc builds nothing that declares an extension,
//!    unless the caller supplies an [`IsolatedBuilder`]: something that hands a module to the
//!    driver in a process whose death costs nothing (the command line's worker process). Then
//!    [`probe_isolated`] builds, for each extension clacc checks, a minimal module that declares
//!    that extension and no other ([`probe_module`]), and reads the outcome: built means
//!    accepted; refused or crashed means not.

use crate::device::opencl::DeviceInfo;
use crate::device::{Device, DeviceError, KernelForm};
use crate::kernel::spirv_opencl::conversion::BuildError;
use crate::kernel::spirv_opencl::extension::probe_kernel;
use crate::kernel::spirv_opencl::validate;
use crate::kernel::ENTRY_POINT;
use crate::spec::extension::EXTENSIONS;
use crate::spec::probe::{Probe, ProbeSource};

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
    session: &dyn Device,
    module_name: &str,
    spirv: &[u8],
    options: &str,
) -> IsolatedOutcome {
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Err(problems) = validate::check_module(&words) {
        return IsolatedOutcome::Refused(format!("clacc's validation: {}", problems.join("; ")));
    }
    match session.build(
        module_name,
        KernelForm::SpirvOpencl(spirv),
        ENTRY_POINT,
        options,
    ) {
        Ok(_) => IsolatedOutcome::Built,
        Err(DeviceError::Build { log, .. }) => {
            IsolatedOutcome::Refused(crate::run::pipeline::telling_line(&log))
        }
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
                probe
                    .refused
                    .push((extension.to_string(), error.to_string()));
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

/// The queries' answer (`queried`, [`crate::device::opencl::probe::spirv_extensions`]) where the device has them, else
/// isolated builds where `builder` is given, else [`ProbeSource::Unavailable`].
pub fn probe(info: &DeviceInfo, queried: Probe, builder: Option<&dyn IsolatedBuilder>) -> Probe {
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
pub fn probe_module(extension: &str, address_bits: u32) -> Result<Vec<u32>, ProbeModuleError> {
    let words = probe_kernel(extension, address_bits)?;
    validate::check_module(&words).map_err(ProbeModuleError::Invalid)?;
    Ok(words)
}

/// Why there is no probe module for an extension.
#[derive(Debug, thiserror::Error)]
pub enum ProbeModuleError {
    #[error(transparent)]
    Build(#[from] BuildError),
    /// clacc's own validation refused it: every broken rule.
    #[error("{}", .0.join("; "))]
    Invalid(Vec<String>),
}
