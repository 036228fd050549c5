//! `--kernel FUNCTION=FILE`: the user's own modules, read, validated and checked against the
//! interface of clacc's kernel before any reaches a driver.

use super::args::SelectionArgs;
use super::console::err_line;
use super::selection::known_function_names;
use super::{usage, UsageError};
use crate::kernel::KernelSpec;
use crate::num::fp::FloatType;
use crate::run::UserKernel;
use crate::spec::registry;

/// Reads `--kernel FUNCTION=FILE` modules and refuses what would be unsafe to hand a driver
/// (drivers do not validate modules): not SPIR-V, or rejected by `spirv-val`.
pub(crate) fn read_user_kernels(
    specs: &[String],
    selection: &SelectionArgs,
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
                    "--kernel `{spec}`: write FUNCTION=FILE.spv, e.g. sin=my_sin.spv"
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
                    "--kernel {path} is not a regular file; give a .spv module"
                ));
            }
            let spirv = std::fs::read(path)
                .map_err(|e| UsageError(format!("--kernel: cannot read {path}: {e}")))?;
            crate::kernel::spirv_opencl::validate::check_binary(&spirv)
                .map_err(|e| UsageError(format!("--kernel {path}: {e}")))?;
            validate_with_spirv_val(path, element)?;
            Ok(UserKernel {
                function: function.to_string(),
                path: path.to_string(),
                spirv,
            })
        })
        .collect()
}

/// Runs `spirv-val` on a --kernel module; without it installed the module goes on, with a note.
fn validate_with_spirv_val(path: &str, element: FloatType) -> Result<(), UsageError> {
    // spirv-val's OpenCL environment refuses Float16; half modules are checked as plain SPIR-V.
    let environment = if element == FloatType::Half {
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

/// Checks each --kernel module against the interface of clacc's kernel for its unit.
pub(crate) fn check_user_interfaces(
    user_kernels: &[UserKernel],
    selection: &SelectionArgs,
    address_bits: u32,
) -> Result<(), UsageError> {
    let (Some(element), Some(width)) = (
        selection.types.first().map(|t| t.float_type()),
        selection.width.first().and_then(|w| w.parse::<u32>().ok()),
    ) else {
        return Ok(());
    };
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
        crate::kernel::spirv_opencl::interface::check(&spec, &user.spirv).map_err(|e| {
            UsageError(format!(
                "--kernel {}: does not fit {} {element} w{width} on this device: {e}",
                user.path, user.function
            ))
        })?;
    }
    Ok(())
}
