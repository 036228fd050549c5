//! `clacc kernels --emit`: the SPIR-V modules clacc would send to the driver, written out.

use super::args::KernelArgs;
use super::console::out_line;
use super::selection::{select_functions, select_types, select_widths};
use super::{usage, UsageError};
use crate::kernel::{self, KernelSpec};
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the selection's modules, each as `.spv` and `.spvasm`.
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
    for function in &functions {
        for element in &types {
            for width in &widths {
                let spec = KernelSpec {
                    instruction: function.instruction,
                    shape: function.shape,
                    element: *element,
                    width: *width,
                    address_bits: args.address_bits,
                };
                let words = kernel::build(&spec)
                    .map_err(|e| UsageError(format!("{}: {e}", spec.file_stem())))?;
                let base = args.emit.join(spec.file_stem());
                let write = |path: PathBuf, bytes: &[u8]| {
                    std::fs::write(&path, bytes)
                        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))
                };
                write(base.with_extension("spv"), &kernel::words_to_bytes(&words))?;
                write(
                    base.with_extension("spvasm"),
                    kernel::disassemble(&words).as_bytes(),
                )?;
                written += 1;
            }
        }
    }
    out_line(
        "the count of modules",
        format!(
            "wrote {written} modules (.spv and .spvasm) to {}",
            args.emit.display()
        ),
    )?;
    Ok(ExitCode::SUCCESS)
}
