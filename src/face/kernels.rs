//! `clacc kernels --emit`: the SPIR-V modules or the OpenCL C source (`--source opencl-c`)
//! clacc would send to the driver, written out.

use super::args::KernelArgs;
use super::console::out_line;
use super::selection::{select_functions, select_types, select_widths};
use super::{usage, UsageError};
use crate::kernel::{self, KernelError, KernelSpec};
use crate::num::fp::FloatType;
use crate::spec::environment::KernelPath;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the selection's modules, each as `.spv` and `.spvasm`, or its OpenCL C kernels as
/// `.cl` (named without the address bits, which the source does not depend on).
pub(crate) fn emit_kernels(args: &KernelArgs) -> Result<ExitCode, UsageError> {
    let functions = select_functions(&args.selection.function)?;
    let types = select_types(&args.selection.types, None);
    let widths = select_widths(&args.selection.width)?;
    if !kernel::ADDRESS_BITS.contains(&args.address_bits) {
        return usage(format!(
            "--address-bits {} is not 32 or 64",
            args.address_bits
        ));
    }
    std::fs::create_dir_all(&args.emit)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", args.emit.display())))?;
    let mut written = 0;
    // The half_ and native_ functions at half and double: SPIR-V has them, OpenCL C does not.
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
                match args.source {
                    KernelPath::Vulkan => {
                        return usage(
                            "clacc kernels writes no compute shaders yet; give --source spirv or opencl-c",
                        )
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
    if written == 0 {
        return usage(format!(
            "nothing to emit: --width {} selects none of the widths the functions run at",
            args.selection.width.join(",")
        ));
    }
    let (what, skipped) = match args.source {
        KernelPath::Spirv => ("modules (.spv and .spvasm)", String::new()),
        KernelPath::OpenclC if undefined > 0 => (
            "OpenCL C kernels (.cl)",
            format!(
                "; {undefined} left out: OpenCL C declares half_ and native_ functions for float only"
            ),
        ),
        KernelPath::OpenclC | KernelPath::Vulkan => ("OpenCL C kernels (.cl)", String::new()),
    };
    out_line(
        "the count of modules",
        format!("wrote {written} {what} to {}{skipped}", args.emit.display()),
    )?;
    Ok(ExitCode::SUCCESS)
}
