//! `--kernel FUNCTION=FILE`: the user's own kernels (SPIR-V modules, `.spv`, or OpenCL C
//! source, `.cl`), read, validated and checked against the interface of clacc's kernel before
//! any runs.

use super::args::SelectionArgs;
use super::console::err_line;
use super::selection::known_function_names;
use super::{usage, UsageError};
use crate::device::opencl::{DeviceInfo, Session};
use crate::kernel::opencl_c::interface::{self as source_interface, Parameter};
use crate::kernel::{KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::run::{UserCode, UserKernel};
use crate::spec::environment::KernelPath;
use crate::spec::registry;

/// Reads `--kernel FUNCTION=FILE` kernels: a `.cl` file as OpenCL C source, any other as a
/// SPIR-V module, refusing a module that would be unsafe to hand a driver (drivers do not
/// validate modules): not SPIR-V, or rejected by `spirv-val`. Source is checked by the driver's
/// compiler ([`check_user_interfaces`]). For a Vulkan device (`vulkan`) a module is a compute
/// shader, validated for Vulkan, and source is refused.
pub(crate) fn read_user_kernels(
    specs: &[String],
    selection: &SelectionArgs,
    vulkan: bool,
) -> Result<Vec<UserKernel>, UsageError> {
    if specs.is_empty() {
        return Ok(Vec::new());
    }
    let single_width = selection.width.len() == 1 && selection.width[0] != "all";
    if selection.types.len() != 1 || !single_width {
        return usage("--kernel needs exactly one --type and one --width (the module is built for one of each)");
    }
    let element = selection.types[0].float_type();
    specs
        .iter()
        .map(|spec| {
            let (name, path) = spec.split_once('=').ok_or_else(|| {
                UsageError(format!(
                    "--kernel `{spec}`: write FUNCTION=FILE.spv or FUNCTION=FILE.cl, e.g. sin=my_sin.spv"
                ))
            })?;
            // The geometric functions have no ULP row but edge-case rules: their edge units
            // take a module too.
            let function = registry::find(name)
                .map(|f| f.name)
                .or_else(|| {
                    crate::spec::edge_table::functions()
                        .into_iter()
                        .find(|f| *f == name)
                })
                .ok_or_else(|| {
                    UsageError(format!(
                        "--kernel `{spec}`: unknown function `{name}`; known functions: {}",
                        known_function_names()
                    ))
                })?;
            // A device file or FIFO would be read without end.
            if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
                return usage(format!(
                    "--kernel {path} is not a regular file; give a .spv module or .cl source"
                ));
            }
            let bytes = std::fs::read(path)
                .map_err(|e| UsageError(format!("--kernel: cannot read {path}: {e}")))?;
            if vulkan && path.ends_with(".cl") {
                return usage(format!(
                    "--kernel {path}: a Vulkan device takes compute shaders (.spv), not OpenCL C source"
                ));
            }
            let code = if path.ends_with(".cl") {
                let source = String::from_utf8(bytes).map_err(|_| {
                    UsageError(format!("--kernel {path}: OpenCL C source must be UTF-8 text"))
                })?;
                UserCode::OpenclC(source)
            } else {
                crate::kernel::spirv_opencl::validate::check_binary(&bytes)
                    .map_err(|e| UsageError(format!("--kernel {path}: {e}")))?;
                validate_with_spirv_val(path, element, vulkan)?;
                UserCode::Spirv(bytes)
            };
            Ok(UserKernel {
                function: function.to_string(),
                path: path.to_string(),
                code,
            })
        })
        .collect()
}

/// Runs `spirv-val` on a --kernel module (a compute shader for a Vulkan device: `vulkan`);
/// without it installed the module goes on, with a note.
fn validate_with_spirv_val(path: &str, element: FloatType, vulkan: bool) -> Result<(), UsageError> {
    // spirv-val's OpenCL environment refuses Float16; half modules are checked as plain SPIR-V.
    let environment = if vulkan {
        "vulkan1.3"
    } else if element == FloatType::Half {
        "spv1.0"
    } else {
        "opencl2.2"
    };
    match std::process::Command::new("spirv-val").args(["--target-env", environment, path]).output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => usage(format!(
            "--kernel {path}: spirv-val --target-env {environment} refuses it, so clacc will not hand it to a driver: {}",
            String::from_utf8_lossy(&output.stderr).trim().replace('\n', " ")
        )),
        Err(_) => {
            err_line(format!("clacc: note: spirv-val not found (scripts/setup installs it): {path} goes to the driver unvalidated"));
            Ok(())
        }
    }
}

/// Refuses a --kernel file the run's kernel path does not build: a `.cl` source on the SPIR-V
/// path, a `.spv` module on the OpenCL C path. (A `.spv` on a Vulkan device is a compute
/// shader: the device decides.)
pub(crate) fn check_user_paths(
    user_kernels: &[UserKernel],
    path: KernelPath,
) -> Result<(), UsageError> {
    match user_kernels.iter().find(|user| !user.code.takes(path)) {
        Some(user) => usage(format!(
            "--kernel {} is {}, which the {path} path does not build; run it with --source {}",
            user.path,
            user.code.describe(),
            user.code.path()
        )),
        None => Ok(()),
    }
}

/// Checks each --kernel module or source against the interface of clacc's kernel for its unit
/// on `info`'s OpenCL device: a module by reading it, a source by the driver's description of
/// what it compiled (built with `-cl-kernel-arg-info`). Without `info` (a Vulkan device) each
/// module is a compute shader, checked against the vulkan path's shader interface.
pub(crate) fn check_user_interfaces(
    user_kernels: &[UserKernel],
    selection: &SelectionArgs,
    info: Option<&DeviceInfo>,
) -> Result<(), UsageError> {
    let (Some(element), Some(width)) = (
        selection.types.first().map(|t| t.float_type()),
        selection.width.first().and_then(|w| w.parse::<u32>().ok()),
    ) else {
        return Ok(());
    };
    let address_bits = info.map_or(64, |info| info.address_bits);
    // Opened for the first source only: a module needs no device.
    let mut session: Option<Session> = None;
    for user in user_kernels {
        let spec = match registry::find(&user.function) {
            Some(function) => KernelSpec {
                instruction: function.instruction,
                shape: function.shape,
                element,
                width,
                address_bits,
            },
            // A geometric function: the kernel its edge units build.
            None => crate::run::edge::kernel_spec(&user.function, element, width, address_bits)
                .expect("read_user_kernels accepts only functions with a kernel"),
        };
        let misfit = |e: &dyn std::fmt::Display| {
            UsageError(format!(
                "--kernel {}: does not fit {} {element} w{width} on this device: {e}",
                user.path, user.function
            ))
        };
        match (&user.code, info) {
            (UserCode::Spirv(spirv), None) => {
                // Mismatches shows each mismatch on its own line.
                crate::kernel::spirv_vulkan::interface::check(&spec, spirv)
                    .map_err(|e| misfit(&e))?;
            }
            (UserCode::Spirv(spirv), Some(_)) => {
                crate::kernel::spirv_opencl::interface::check(&spec, spirv)
                    .map_err(|e| misfit(&e))?;
            }
            (UserCode::OpenclC(_), None) => {
                return usage(format!(
                    "--kernel {}: a Vulkan device takes compute shaders (.spv), not OpenCL C source",
                    user.path
                ));
            }
            (UserCode::OpenclC(source), Some(info)) => {
                let session = match &mut session {
                    Some(session) => session,
                    None => session.insert(Session::open(info.clone())?),
                };
                let described = session
                    .describe_source(&user.path, source, ENTRY_POINT, "")
                    .map_err(|error| match error {
                        crate::device::DeviceError::Build { log, .. } => UsageError(format!(
                            "--kernel {}: the driver does not compile it: {}",
                            user.path,
                            crate::run::pipeline::telling_line(&log)
                        )),
                        other => UsageError(format!("--kernel {}: {other}", user.path)),
                    })?;
                let parameters: Vec<Parameter> = described
                    .parameters
                    .into_iter()
                    .map(|parameter| Parameter {
                        global: parameter.global,
                        type_name: parameter.type_name,
                    })
                    .collect();
                source_interface::check(&spec, &described.names, &parameters)
                    .map_err(|e| misfit(&e))?;
            }
        }
    }
    Ok(())
}
