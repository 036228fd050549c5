//! `clacc kernels --emit`: the SPIR-V modules, the OpenCL C source (`--source opencl-c`) or the
//! Vulkan compute shaders (`--source vulkan`) clacc would send to the driver, written out.

use super::args::KernelArgs;
use super::console::out_line;
use super::selection::{select_functions, select_types, select_widths};
use super::{usage, UsageError};
use crate::kernel::{self, KernelError, KernelSpec};
use crate::num::fp::FloatType;
use crate::spec::environment::KernelPath;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Writes the selection's modules, each as `.spv` and `.spvasm`, or its OpenCL C kernels as
/// `.cl` (named without the address bits, which the source does not depend on).
pub(crate) fn emit_kernels(args: &KernelArgs) -> Result<ExitCode, UsageError> {
    let functions = select_functions(&args.selection.function)?;
    let types = select_types(&args.selection.types, None);
    let widths = select_widths(&args.selection.width)?;
    let source = match (args.source, args.platform) {
        (Some(source), Some(platform)) if source != platform => {
            return usage(format!(
                "--source {source} writes no kernel a {platform} platform takes: leave --source \
                 out or use --source {platform}"
            ))
        }
        (source, platform) => source.or(platform).unwrap_or(KernelPath::Spirv),
    };
    if !kernel::ADDRESS_BITS.contains(&args.address_bits) {
        return usage(format!(
            "--address-bits {} is not 32 or 64",
            args.address_bits
        ));
    }
    std::fs::create_dir_all(&args.emit)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", args.emit.display())))?;
    let mut written = 0;
    // The half_ and native_ functions at half and double: SPIR-V has them, OpenCL C does not;
    // on the vulkan path, the units Vulkan has no shader for.
    let mut undefined = 0;
    for function in &functions {
        // The fast_ geometric instructions exist for float only.
        for element in types
            .iter()
            .filter(|t| !function.instruction.float_only() || **t == FloatType::Float)
        {
            // The geometric instructions take their own widths (length 1 to 4, cross 3 and 4).
            for width in widths
                .iter()
                .filter(|w| function.shape.widths().contains(w))
                // Vulkan has vectors of 2 to 4 only: widths 8 and 16 are not asked of it.
                .filter(|w| {
                    source != KernelPath::Vulkan || kernel::spirv_vulkan::VULKAN_WIDTHS.contains(w)
                })
            {
                let spec = KernelSpec {
                    instruction: function.instruction,
                    shape: function.shape,
                    element: *element,
                    width: *width,
                    address_bits: args.address_bits,
                };
                let write = |path: PathBuf, bytes: &[u8]| {
                    std::fs::write(&path, bytes)
                        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))
                };
                match source {
                    KernelPath::Vulkan => {
                        if write_vulkan_shader(&args.emit, &spec)? == ShaderEmission::LeftOut {
                            undefined += 1;
                            continue;
                        }
                    }
                    KernelPath::Spirv => {
                        let words = kernel::spirv_opencl::build(&spec)
                            .map_err(|e| UsageError(format!("{}: {e}", spec.file_stem())))?;
                        let base = args.emit.join(spec.file_stem());
                        write(base.with_extension("spv"), &kernel::words_to_bytes(&words))?;
                        write(
                            base.with_extension("spvasm"),
                            kernel::spirv_opencl::disassemble(&words).as_bytes(),
                        )?;
                    }
                    KernelPath::OpenclC => {
                        let source = match kernel::opencl_c::source(&spec) {
                            Ok(source) => source,
                            Err(KernelError::UnsupportedElement { .. }) => {
                                undefined += 1;
                                continue;
                            }
                            Err(e) => {
                                return usage(format!("{}: {e}", spec.file_stem()));
                            }
                        };
                        write(
                            args.emit.join(kernel::opencl_c::file_name(&spec)),
                            source.as_bytes(),
                        )?;
                    }
                }
                written += 1;
            }
        }
    }
    if written == 0 && undefined > 0 && source == KernelPath::Vulkan {
        return usage(format!(
            "nothing to emit: Vulkan has no compute shader for the {undefined} units selected \
             (no instruction for the function in spec::vulkan, or none at that type or width)"
        ));
    }
    if written == 0 {
        return usage(format!(
            "nothing to emit: --width {} selects none of the widths the functions run at",
            args.selection.width.join(",")
        ));
    }
    let (what, skipped) = match source {
        KernelPath::Spirv => ("modules (.spv and .spvasm)", String::new()),
        KernelPath::OpenclC if undefined > 0 => (
            "OpenCL C kernels (.cl)",
            format!(
                "; {undefined} left out: OpenCL C declares half_ and native_ functions for float only"
            ),
        ),
        KernelPath::OpenclC => ("OpenCL C kernels (.cl)", String::new()),
        KernelPath::Vulkan if undefined > 0 => (
            "compute shaders (.spv and .spvasm)",
            format!(
                "; {undefined} left out: Vulkan has no instruction for the function (spec::vulkan), \
                 none at double (GLSL.std.450's half and float ones) or none at the width"
            ),
        ),
        KernelPath::Vulkan => ("compute shaders (.spv and .spvasm)", String::new()),
    };
    out_line(
        "the count of modules",
        format!("wrote {written} {what} to {}{skipped}", args.emit.display()),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What [`write_vulkan_shader`] did with one unit.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ShaderEmission {
    /// `.spv` and `.spvasm` written.
    Written,
    /// Vulkan has no shader for the unit: no instruction for the function (`spec::vulkan`
    /// leaves it out), none at this type (GLSL.std.450's 16- and 32-bit-only instructions at
    /// double) or width (`Cross` at 4, widths 8 and 16).
    LeftOut,
}

/// Writes the compute shader of `spec` (the default variant: no RelaxedPrecision, no
/// float-controls mode, which a run adds after the device's properties) as
/// `DIR/STEM.spv` and `DIR/STEM.spvasm`, `STEM` being [`spirv_vulkan::file_stem`].
pub(crate) fn write_vulkan_shader(
    dir: &Path,
    spec: &KernelSpec,
) -> Result<ShaderEmission, UsageError> {
    use crate::kernel::spirv_vulkan::{self, ShaderModes};
    let modes = ShaderModes::default();
    let words = match spirv_vulkan::build(spec, &modes) {
        Ok(words) => words,
        Err(
            KernelError::NoVulkanInstruction(_)
            | KernelError::NoVulkanInstructionForElement { .. }
            | KernelError::UnsupportedVulkanWidth { .. },
        ) => return Ok(ShaderEmission::LeftOut),
        Err(e) => return usage(format!("{}: {e}", spirv_vulkan::file_stem(spec, &modes))),
    };
    let base = dir.join(spirv_vulkan::file_stem(spec, &modes));
    for (path, bytes) in [
        (base.with_extension("spv"), kernel::words_to_bytes(&words)),
        (
            base.with_extension("spvasm"),
            spirv_vulkan::disassemble(&words).into_bytes(),
        ),
    ] {
        std::fs::write(&path, bytes)
            .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(ShaderEmission::Written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::function_spec;

    #[test]
    fn vulkan_shaders_are_written_as_spv_and_spvasm_or_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let sin = function_spec("sin", FloatType::Float, 3);
        assert_eq!(
            write_vulkan_shader(dir.path(), &sin).ok(),
            Some(ShaderEmission::Written)
        );
        let spv = std::fs::read(dir.path().join("sin_float_w3.spv")).unwrap();
        assert_eq!(&spv[..4], &0x0723_0203u32.to_le_bytes());
        let text = std::fs::read_to_string(dir.path().join("sin_float_w3.spvasm")).unwrap();
        assert!(text.contains("OpEntryPoint GLCompute"), "{text}");
        for (name, element, width) in [
            ("cbrt", FloatType::Float, 1),
            ("sin", FloatType::Double, 1),
            ("cross", FloatType::Float, 4),
        ] {
            let spec = function_spec(name, element, width);
            assert_eq!(
                write_vulkan_shader(dir.path(), &spec).ok(),
                Some(ShaderEmission::LeftOut)
            );
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
