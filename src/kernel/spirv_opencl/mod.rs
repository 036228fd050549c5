//! The OpenCL SPIR-V environment's kernels: SPIR-V modules for `clCreateProgramWithIL`, built
//! with rspirv, one template per signature class (`emit.rs`), plus the conversion and extension
//! checks' modules, the checks of a user's module and clacc's own validation.
//!
//! # How the kernel convention is written in SPIR-V
//!
//! [`crate::kernel`]'s convention, as this environment's modules follow it:
//! - Execution model `Kernel`, SPIR-V 1.0 (the oldest version, so every driver that takes IL at
//!   all takes it), `OpMemoryModel Physical32` or `Physical64 OpenCL` after the device's
//!   `CL_DEVICE_ADDRESS_BITS`.
//! - Parameters are `CrossWorkgroup` (`__global`) pointers; work-item `g` is
//!   `GlobalInvocationId.x`.
//! - Widths 1, 2, 4, 8 and 16 reach their packed elements naturally with pointers to the vector
//!   type (their size equals their stride). A 3-component vector, however, occupies 4 elements
//!   in memory, so width 3 moves through OpenCL.std `vloadn`/`vstoren` with `n = 3` on pointers
//!   to the scalar type, which address in units of 3 elements.
//! - A pointer out-argument is handed, for widths other than 3, a pointer to the second output
//!   buffer's element itself (`OpInBoundsPtrAccessChain`, storage class `CrossWorkgroup`, which
//!   OpenCL.std allows for these operands); for width 3 it writes a `Function`-storage 3-vector
//!   variable, which is then stored with `vstoren` like any other width-3 value.

pub mod conversion;
mod emit;
pub mod extension;
pub mod interface;
#[cfg(test)]
pub(crate) mod tests;
pub mod validate;

use std::collections::HashMap;

use rspirv::grammar::{self, OperandKind};
use rspirv::spirv::Word;

use super::{KernelError, KernelSpec};

/// Builds the kernel module for `spec` as SPIR-V words (see the module doc for its convention).
pub fn build(spec: &KernelSpec) -> Result<Vec<u32>, KernelError> {
    spec.validate()?;
    emit::module(spec)
}

/// Readable text of a module, for snapshots and debugging. Deterministic: the same words always
/// give the same text. Words that do not parse give a one-line `;` comment saying why.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match super::load_module(words) {
        Ok(mut module) => {
            restore_ext_inst_literals(&mut module);
            module.disassemble() + "\n"
        }
        Err(error) => format!("; {error}\n"),
    }
}

/// rspirv's parser reads every `OpExtInst` operand as an id, so `vloadn`'s literal `n` would
/// print as `%3`, which reads like a reference to id 3. This turns the operands the extended
/// set's grammar declares literal back into literals.
fn restore_ext_inst_literals(module: &mut rspirv::dr::Module) {
    use rspirv::dr::Operand;
    let sets: HashMap<Word, &grammar::InstructionTable<grammar::ExtInstOp>> = module
        .ext_inst_imports
        .iter()
        .filter_map(|import| match import.operands.first() {
            Some(Operand::LiteralString(name)) => {
                Some((import.result_id?, grammar::ext_inst_table(name)?))
            }
            _ => None,
        })
        .collect();
    let instructions = module
        .functions
        .iter_mut()
        .flat_map(|function| function.blocks.iter_mut())
        .flat_map(|block| block.instructions.iter_mut());
    for instruction in instructions {
        let (Some(&Operand::IdRef(set)), Some(&Operand::LiteralExtInstInteger(opcode))) =
            (instruction.operands.first(), instruction.operands.get(1))
        else {
            continue;
        };
        let Some(ext_grammar) = sets.get(&set).and_then(|table| table.lookup_opcode(opcode)) else {
            continue;
        };
        for (operand, logical) in instruction.operands[2..]
            .iter_mut()
            .zip(ext_grammar.operands)
        {
            if let (Operand::IdRef(value), OperandKind::LiteralInteger) = (&*operand, logical.kind)
            {
                *operand = Operand::LiteralBit32(*value);
            }
        }
    }
}
