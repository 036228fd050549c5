//! The Vulkan environment's kernels: SPIR-V compute shaders for `vkCreateShaderModule`, built
//! with rspirv, one template per signature class (`emit.rs`), and the check of a user's own
//! shader (`interface.rs`).
//!
//! # How the kernel convention is written in a compute shader
//!
//! [`crate::kernel`]'s convention, as this environment's shaders follow it:
//! - SPIR-V 1.5 (the newest Vulkan 1.2 takes; the float-controls execution modes are core since
//!   1.4), `Shader` capability, `OpMemoryModel Logical GLSL450`, `GLSL.std.450` for the extended
//!   instructions, entry point [`crate::kernel::ENTRY_POINT`] of model `GLCompute` with
//!   `LocalSize 64 1 1`.
//! - Kernel argument `i` (the inputs, then the outputs) is `DescriptorSet 0, Binding i`: a
//!   `StorageBuffer` block whose one member is a runtime array of the packed values. Widths 1,
//!   2 and 4 are arrays of the value type (its size is its `ArrayStride`, as the standard layout
//!   requires); a 3-component vector has no such layout, so width 3 is an array of the component
//!   type, read and written one component at a time (`3 * g + i`).
//! - A push-constant block holds one `uint` at offset 0, the work-item count; work-item `g` is
//!   `GlobalInvocationId.x` and does nothing for `g >= count` (the dispatch rounds up to 64).
//! - The instruction comes from the registry function's Vulkan name (`spec::vulkan::instruction`, the one map): a core
//!   instruction (`OpFAdd`, `OpDot`, ...) or a `GLSL.std.450` one (`Sin`, `InverseSqrt`, ...).
//!   `Frexp` and `Modf` write their second result through a pointer; the shaders use their
//!   `FrexpStruct` and `ModfStruct` forms, whose two members go to the two output buffers.
//! - [`ShaderModes`] add the `RelaxedPrecision` decoration on the instruction's result and the
//!   float-controls execution modes for the element's bit width.

mod emit;
pub mod extension;
pub mod interface;
#[cfg(test)]
mod tests;

use rspirv::grammar;
use rspirv::spirv::{GlslStd450Op, Op};

use super::{KernelError, KernelSpec};
use crate::spec::signature::Shape;
use crate::spec::{registry, vulkan};

/// The name SPIR-V gives the GLSL extended instruction set.
pub const GLSL_STD_450: &str = "GLSL.std.450";

/// Vector widths Vulkan shaders have: scalars and 2-, 3- and 4-component vectors.
pub const VULKAN_WIDTHS: [u32; 4] = [1, 2, 3, 4];

/// How denormals are handled, when the shader says (`DenormPreserve`, `DenormFlushToZero`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenormMode {
    Preserve,
    FlushToZero,
}

/// The rounding mode of correctly rounded operations, when the shader says
/// (`RoundingModeRTE`, `RoundingModeRTZ`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundingMode {
    /// Round to nearest, ties to even.
    Rte,
    /// Round toward zero.
    Rtz,
}

/// The unit variant a shader is built for: what the shader declares about precision. Each
/// execution mode applies to the element type's bit width only. The default declares nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShaderModes {
    /// Decorate the instruction's result `RelaxedPrecision` (judged by the half column).
    pub relaxed_precision: bool,
    /// `SignedZeroInfNanPreserve`: without it the shader may assume no signed zero, infinity
    /// or NaN.
    pub signed_zero_inf_nan_preserve: bool,
    pub denorm: Option<DenormMode>,
    pub rounding: Option<RoundingMode>,
}

impl ShaderModes {
    /// The part of a file name that tells the variants apart: empty for the default.
    fn suffix(&self) -> String {
        let mut suffix = String::new();
        if self.relaxed_precision {
            suffix.push_str("_relaxed");
        }
        if self.signed_zero_inf_nan_preserve {
            suffix.push_str("_szinp");
        }
        match self.denorm {
            Some(DenormMode::Preserve) => suffix.push_str("_denormpreserve"),
            Some(DenormMode::FlushToZero) => suffix.push_str("_denormftz"),
            None => {}
        }
        match self.rounding {
            Some(RoundingMode::Rte) => suffix.push_str("_rte"),
            Some(RoundingMode::Rtz) => suffix.push_str("_rtz"),
            None => {}
        }
        suffix
    }
}

/// What the shader applies: a core instruction or a `GLSL.std.450` one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operation {
    Core(Op),
    Glsl(GlslStd450Op),
}

/// The core instructions the shaders apply, with their operand counts.
const CORE: [(Op, usize); 8] = [
    (Op::FNegate, 1),
    (Op::FAdd, 2),
    (Op::FSub, 2),
    (Op::FMul, 2),
    (Op::FDiv, 2),
    (Op::FRem, 2),
    (Op::FMod, 2),
    (Op::Dot, 2),
];

/// The registry's name of the function `spec` builds (`OpFAdd`, `sin`, `length`).
fn registry_name(spec: &KernelSpec) -> Option<&'static str> {
    registry::FUNCTIONS
        .iter()
        .find(|function| function.instruction == spec.instruction && function.shape == spec.shape)
        .map(|function| function.name)
}

/// The instruction `spec`'s function is in a shader, checked against the shape: the operand
/// count of the instruction's grammar must be the shape's (a pointer out-argument counted),
/// the core instructions take float gentypes only (`OpDot` the two vectors of its shape), and
/// a GLSL.std.450 one must be defined for the element type (`spec::vulkan::defined_for`).
fn operation(spec: &KernelSpec) -> Result<Operation, KernelError> {
    let unsupported = || KernelError::NoVulkanInstruction(spec.instruction);
    let name = registry_name(spec)
        .and_then(vulkan::instruction)
        .ok_or_else(unsupported)?;
    let signature = spec.shape.signature();
    if let Some(core) = name.strip_prefix("Op") {
        let (op, arity) = CORE
            .into_iter()
            .find(|(op, _)| format!("{op:?}") == core)
            .ok_or_else(unsupported)?;
        let fits = match op {
            Op::Dot => spec.shape == Shape::Dot,
            _ => signature.is_all_float(),
        };
        return if fits && signature.operand_count() == arity {
            Ok(Operation::Core(op))
        } else {
            Err(unsupported())
        };
    }
    let instruction = grammar::ext_inst_table(GLSL_STD_450)
        .and_then(|table| table.iter().find(|instruction| instruction.opname == name))
        .ok_or_else(unsupported)?;
    if instruction.operands.len() != signature.operand_count() {
        return Err(unsupported());
    }
    if !vulkan::defined_for(name, spec.element) {
        return Err(KernelError::NoVulkanInstructionForElement {
            instruction: spec.instruction,
            element: spec.element,
        });
    }
    let op = GlslStd450Op::from_u32(instruction.opcode.into()).ok_or_else(unsupported)?;
    // Of the GLSL.std.450 instructions, only these two write through a pointer.
    let op = match (op, signature.pointer_out) {
        (_, None) => op,
        (GlslStd450Op::Frexp, Some(_)) => GlslStd450Op::FrexpStruct,
        (GlslStd450Op::Modf, Some(_)) => GlslStd450Op::ModfStruct,
        (_, Some(_)) => return Err(unsupported()),
    };
    Ok(Operation::Glsl(op))
}

/// Checks everything `build` relies on beyond [`KernelSpec`]'s own checks: a Vulkan width, an
/// instruction defined for the element type ([`operation`]), `Cross` on 3-vectors only
/// (GLSL.std.450 defines no 4-component cross product).
fn validate(spec: &KernelSpec) -> Result<Operation, KernelError> {
    spec.validate()?;
    if !VULKAN_WIDTHS.contains(&spec.width) {
        return Err(KernelError::UnsupportedVulkanWidth {
            instruction: spec.instruction,
            width: spec.width,
        });
    }
    let operation = operation(spec)?;
    if operation == Operation::Glsl(GlslStd450Op::Cross) && spec.width != 3 {
        return Err(KernelError::UnsupportedVulkanWidth {
            instruction: spec.instruction,
            width: spec.width,
        });
    }
    Ok(operation)
}

/// Builds the compute shader for `spec` in the variant `modes` as SPIR-V words (see the module
/// doc for its convention). `spec.address_bits` plays no part: shaders address logically.
pub fn build(spec: &KernelSpec, modes: &ShaderModes) -> Result<Vec<u32>, KernelError> {
    let operation = validate(spec)?;
    emit::module(spec, modes, operation)
}

/// A file-name-safe stable name, e.g. `sin_float_w1`, `fadd_half_w4_relaxed_szinp_rte`:
/// [`KernelSpec::file_stem`] without the address bits, with the variant's modes.
pub fn file_stem(spec: &KernelSpec, modes: &ShaderModes) -> String {
    format!(
        "{}_{}_w{}{}",
        spec.instruction.name(),
        spec.element.name(),
        spec.width,
        modes.suffix()
    )
}

/// Readable text of a shader, for `clacc kernels --emit` and the snapshots. Deterministic:
/// the same words always give the same text. Words that do not parse give a one-line `;`
/// comment saying why.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match crate::kernel::load_module(words) {
        Ok(module) => module.disassemble() + "\n",
        Err(error) => format!("; {error}\n"),
    }
}
