//! The kernels clacc runs, by environment: what a kernel is, whatever the environment writes
//! it in, and one emitter per environment beside it.
//!
//! One kernel per [`KernelSpec`]: instruction, signature class ([`Shape`]), element type, vector
//! width and the device's address bits. Each environment's emitter writes it in the form its
//! devices take:
//! - [`spirv_opencl`]: SPIR-V for the OpenCL SPIR-V environment (`clCreateProgramWithIL`),
//!   OpenCL.std extended instructions, so the device runs exactly the instruction the accuracy
//!   tables talk about, with nothing in between.
//! - [`opencl_c`]: OpenCL C source (`clCreateProgramWithSource`), each instruction as the
//!   OpenCL C builtin or operator of the same meaning, for devices without SPIR-V input and
//!   for the OpenCL C half of a driver's conformance.
//!
//! - [`spirv_vulkan`]: SPIR-V compute shaders for Vulkan (`vkCreateShaderModule`), core and
//!   GLSL.std.450 instructions, the same buffers bound as storage buffers.
//!
//! No environment's emitter imports another's.
//!
//! # Kernel convention
//!
//! What the host side ([`crate::run`]) relies on, in every environment:
//! - One kernel, entry point [`ENTRY_POINT`].
//! - Parameters are global buffers: the inputs first, in the instruction's operand order, then
//!   the outputs. [`KernelSpec::input_count`] and [`KernelSpec::output_count`] say how many of
//!   each.
//! - One work-item per vector: work-item `g` reads vector `g` of each input, applies the
//!   instruction once and writes vector `g` of each output.
//! - Buffers are packed for every width: component `i` of work-item `g` is at element index
//!   `g * width + i`, width 3 included (the host never needs a padded layout). The rule holds
//!   for every buffer, the integer ones included.
//! - An instruction's result goes to the first output buffer. Instructions with a pointer
//!   out-argument (`frexp`, `sincos`, `remquo`, ...) write a second result through it, which goes
//!   to the second output buffer.
//! - Buffers other than the element type's hold 32-bit integers (`int`: `ldexp`'s exponent,
//!   `ilogb`'s result, `frexp`'s exponent) or unsigned integers as wide as the element (`nan`'s
//!   argument: `ushort`, `uint`, `ulong`), see [`ValueKind`].
//! - The geometric instructions (`length`, `distance`, `normalize` and their `fast_` forms) take
//!   scalars and 2-, 3- and 4-component vectors only ([`GEOMETRIC_WIDTHS`]). `length` and
//!   `distance` return one scalar per work-item whatever the width, so their result buffer holds
//!   one element per work-item ([`ValueKind::FloatScalar`]): element `g` is work-item `g`'s.

pub mod opencl_c;
mod spirv_checks;
pub mod spirv_opencl;
pub mod spirv_vulkan;

use std::fmt;

use rspirv::grammar::OperandKind;

use crate::num::fp::FloatType;
use crate::spec::signature::{
    opencl_std_grammar, Instruction, OpenclStd100Op, Shape, ValueKind, GEOMETRIC_WIDTHS, WIDTHS,
};

/// The name the driver finds the kernel by (`clCreateKernel`).
pub const ENTRY_POINT: &str = "clacc_kernel";

/// Device address widths (`CL_DEVICE_ADDRESS_BITS`) a module can be built for.
pub const ADDRESS_BITS: [u32; 2] = [32, 64];

/// The last OpenCL.std opcode of the math and common sections (`sign`); later ones are geometric,
/// integer, memory or miscellaneous instructions, none of which is a per-component float function.
/// Of those, only the geometric instructions of [`geometric_shape`]'s table are built.
const LAST_FLOAT_MATH_OPCODE: u32 = OpenclStd100Op::sign as u32;

/// The shape a module of this instruction must have (see [`KernelSpec`]'s checks), or
/// `None` when this module cannot build it.
pub fn required_shape(instruction: &Instruction) -> Option<Shape> {
    buildable_shape(instruction)
}

/// The shape this module builds the instruction with, or `None` when it is neither a
/// per-component float math function nor one of the geometric functions of
/// [`geometric_shape`]'s table (`cross`, `vloadn`, integer instructions, ...).
///
/// Only a guard against modules a driver could crash on: which shape a function has is the
/// function registry's fact, and the spec carries it.
fn buildable_shape(instruction: &Instruction) -> Option<Shape> {
    match instruction {
        Instruction::FAdd | Instruction::FSub | Instruction::FMul | Instruction::FDiv => {
            Some(Shape::Binary)
        }
        Instruction::Dot => Some(Shape::Dot),
        Instruction::FMulFAdd => Some(Shape::Ternary),
        Instruction::Ext(op) => {
            let geometric = geometric_shape(*op);
            if geometric.is_none() && *op as u32 > LAST_FLOAT_MATH_OPCODE {
                return None;
            }
            let grammar = opencl_std_grammar(*op)?;
            if !grammar
                .operands
                .iter()
                .all(|operand| operand.kind == OperandKind::IdRef)
            {
                return None;
            }
            // Every operand is an id, so the grammar's operand count is the arity.
            let arity = grammar.operands.len();
            let shape = match geometric.or_else(|| non_float_shape(*op)) {
                Some(shape) => shape,
                // `Normalize` is all-float and unary too, but only its table names it.
                None => Shape::ALL
                    .into_iter()
                    .filter(|shape| shape.signature().is_all_float() && !shape.is_geometric())
                    .find(|shape| shape.signature().operand_count() == arity)?,
            };
            // The table below is checked against the grammar, so a wrong entry refuses to
            // build rather than producing a module with a missing or extra operand.
            (shape.signature().operand_count() == arity).then_some(shape)
        }
    }
}

/// The shapes of the math instructions whose operands or result are not all of the float
/// gentype.
///
/// The SPIR-V grammar gives every OpenCL.std operand the kind `IdRef`, whatever its type, so it
/// tells these apart from the all-float shapes by nothing but arity, and arity is ambiguous
/// (`ldexp(x, k)` and `pow(x, y)` both take two ids). Their types are in the OpenCL.std
/// specification's math section, and this table copies them; every other math instruction
/// takes and returns float gentypes only. `buildable_shape` checks each entry's operand count
/// against the grammar.
fn non_float_shape(op: OpenclStd100Op) -> Option<Shape> {
    use OpenclStd100Op as Op;
    let shape = match op {
        Op::ldexp | Op::pown | Op::rootn => Shape::FloatInt,
        Op::ilogb => Shape::IntResult,
        Op::fract | Op::modf | Op::sincos => Shape::WithFloatOut,
        Op::frexp | Op::lgamma_r => Shape::WithIntOut,
        Op::remquo => Shape::BinaryWithIntOut,
        Op::nan => Shape::Nan,
        _ => return None,
    };
    Some(shape)
}

/// The shapes of the geometric instructions this module builds.
///
/// The grammar cannot tell these from the math instructions either: `length(p)` and
/// `normalize(p)` take one id like `sin(x)`, `distance(p0, p1)` two like `pow(x, y)`, and their
/// opcodes lie past the math section. Their types are in the OpenCL.std specification's
/// geometric section, and this table copies them: `length` and `distance` return one scalar of
/// the element type, `normalize` a vector like its argument, and all take scalars and 2-, 3- and
/// 4-component vectors only; `cross` takes two 3- or 4-component vectors and returns one.
/// `buildable_shape` checks each entry's operand count against the grammar.
fn geometric_shape(op: OpenclStd100Op) -> Option<Shape> {
    use OpenclStd100Op as Op;
    let shape = match op {
        Op::length | Op::fast_length => Shape::Length,
        Op::distance | Op::fast_distance => Shape::Distance,
        Op::normalize | Op::fast_normalize => Shape::Normalize,
        Op::cross => Shape::Cross,
        _ => return None,
    };
    Some(shape)
}

/// Everything that determines one kernel module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    pub instruction: Instruction,
    pub shape: Shape,
    pub element: FloatType,
    /// Components per work-item: one of [`WIDTHS`].
    pub width: u32,
    /// The device's `CL_DEVICE_ADDRESS_BITS`: one of [`ADDRESS_BITS`].
    pub address_bits: u32,
}

impl KernelSpec {
    /// How many input buffers the kernel takes (its first parameters).
    pub fn input_count(&self) -> usize {
        self.shape.signature().arguments.len()
    }

    /// How many output buffers the kernel takes (its parameters after the inputs).
    pub fn output_count(&self) -> usize {
        self.shape.signature().results().count()
    }

    /// What each input buffer holds, in parameter order (`input_count` entries).
    pub fn argument_kinds(&self) -> Vec<ValueKind> {
        self.shape.signature().arguments.to_vec()
    }

    /// What each output buffer holds, in parameter order (`output_count` entries): the
    /// instruction's returned value, then what it writes through its pointer out-argument.
    pub fn result_kinds(&self) -> Vec<ValueKind> {
        self.shape.signature().results().collect()
    }

    /// A file-name-safe stable name, e.g. `sin_float_w1_a64`, `fadd_float_w4_a32`.
    pub fn file_stem(&self) -> String {
        format!(
            "{}_{}_w{}_a{}",
            self.instruction.name(),
            self.element.name(),
            self.width,
            self.address_bits
        )
    }

    /// Checks everything `build` relies on, so a bad spec is an error rather than a module the
    /// driver may crash on (drivers do not validate IL).
    fn validate(&self) -> Result<(), KernelError> {
        if !WIDTHS.contains(&self.width) {
            return Err(KernelError::UnsupportedWidth(self.width));
        }
        if !ADDRESS_BITS.contains(&self.address_bits) {
            return Err(KernelError::UnsupportedAddressBits(self.address_bits));
        }
        let required = buildable_shape(&self.instruction)
            .ok_or(KernelError::UnsupportedInstruction(self.instruction))?;
        if required != self.shape {
            return Err(KernelError::ShapeMismatch {
                instruction: self.instruction,
                declared: self.shape,
                required,
            });
        }
        if !self.shape.widths().contains(&self.width) {
            return Err(KernelError::UnsupportedGeometricWidth {
                instruction: self.instruction,
                width: self.width,
            });
        }
        if self.instruction.float_only() && self.element != FloatType::Float {
            return Err(KernelError::UnsupportedElement {
                instruction: self.instruction,
                element: self.element,
            });
        }
        Ok(())
    }
}

/// A type of a user's module as the interface checks (`spirv_opencl::interface`,
/// `spirv_vulkan::interface`) compare it, named as a user writes it: `float`, `half vector of
/// 4`, `CrossWorkgroup pointer to float`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TypeShape {
    Float(u32),
    Int(u32),
    Vector(Box<TypeShape>, u32),
    Pointer(rspirv::spirv::StorageClass, Box<TypeShape>),
    /// Any other type, by its opcode.
    Other(String),
}

impl fmt::Display for TypeShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeShape::Float(16) => write!(f, "half"),
            TypeShape::Float(32) => write!(f, "float"),
            TypeShape::Float(64) => write!(f, "double"),
            TypeShape::Float(bits) => write!(f, "{bits}-bit float"),
            TypeShape::Int(bits) => write!(f, "{bits}-bit int"),
            TypeShape::Vector(component, count) => write!(f, "{component} vector of {count}"),
            TypeShape::Pointer(storage, pointee) => write!(f, "{storage:?} pointer to {pointee}"),
            TypeShape::Other(name) => write!(f, "{name}"),
        }
    }
}

/// Why a module could not be built.
#[derive(Debug)]
pub enum KernelError {
    /// The width is not one of [`WIDTHS`].
    UnsupportedWidth(u32),
    /// The address width is not one of [`ADDRESS_BITS`].
    UnsupportedAddressBits(u32),
    /// No shape of this module fits the instruction: it is not a per-component float math
    /// function (a geometric, integer, memory or miscellaneous instruction).
    UnsupportedInstruction(Instruction),
    /// The spec's shape is not the instruction's signature (e.g. `FAdd` declared `Unary`).
    ShapeMismatch {
        instruction: Instruction,
        declared: Shape,
        required: Shape,
    },
    /// A geometric instruction (`length`, `distance`, `normalize`, ...) at width 8 or 16: OpenCL
    /// defines those for scalars and 2-, 3- and 4-component vectors only ([`GEOMETRIC_WIDTHS`]).
    UnsupportedGeometricWidth {
        instruction: Instruction,
        width: u32,
    },
    /// The instruction is not defined for the element type (the `fast_` geometric functions are
    /// `float` only).
    UnsupportedElement {
        instruction: Instruction,
        element: FloatType,
    },
    /// Vulkan has no instruction for the function (no core or GLSL.std.450 instruction of its
    /// meaning and signature: `cbrt`, `half_sin`, `ilogb`, ...).
    NoVulkanInstruction(Instruction),
    /// GLSL.std.450 defines the instruction for 16- and 32-bit floats only, not `double`
    /// ([`crate::spec::vulkan::HALF_AND_FLOAT_ONLY`]).
    NoVulkanInstructionForElement {
        instruction: Instruction,
        element: FloatType,
    },
    /// A width Vulkan shaders do not have for the instruction: 8 and 16 for all, and 4 for
    /// `cross` (GLSL.std.450's `Cross` takes 3-vectors only).
    UnsupportedVulkanWidth {
        instruction: Instruction,
        width: u32,
    },
    /// rspirv refused a builder call: a bug in this module, not in the spec.
    Builder(rspirv::dr::Error),
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::UnsupportedWidth(width) => write!(
                f,
                "unsupported vector width {width} (supported: {WIDTHS:?})"
            ),
            KernelError::UnsupportedAddressBits(bits) => write!(
                f,
                "unsupported device address width {bits} bits (supported: {ADDRESS_BITS:?})"
            ),
            KernelError::UnsupportedInstruction(instruction) => write!(
                f,
                "instruction {} has no supported kernel shape",
                instruction.name()
            ),
            KernelError::ShapeMismatch {
                instruction,
                declared,
                required,
            } => write!(
                f,
                "instruction {} is {required:?}, but the spec declares it {declared:?}",
                instruction.name()
            ),
            KernelError::UnsupportedGeometricWidth { instruction, width } => write!(
                f,
                "unsupported vector width {width} for geometric instruction {}: it takes \
                 widths {:?} only",
                instruction.name(),
                buildable_shape(instruction).map_or(&GEOMETRIC_WIDTHS[..], Shape::widths)
            ),
            KernelError::UnsupportedElement {
                instruction,
                element,
            } => write!(
                f,
                "instruction {} is defined for float only, not {}",
                instruction.name(),
                element.name()
            ),
            KernelError::NoVulkanInstruction(instruction) => write!(
                f,
                "instruction {} has no Vulkan (core or GLSL.std.450) instruction",
                instruction.name()
            ),
            KernelError::NoVulkanInstructionForElement {
                instruction,
                element,
            } => write!(
                f,
                "instruction {}: GLSL.std.450 defines it for half and float only, not {}",
                instruction.name(),
                element.name()
            ),
            KernelError::UnsupportedVulkanWidth { instruction, width } => write!(
                f,
                "unsupported vector width {width} for {} in a Vulkan shader",
                instruction.name()
            ),
            KernelError::Builder(error) => write!(f, "internal error building SPIR-V: {error}"),
        }
    }
}

impl std::error::Error for KernelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KernelError::Builder(error) => Some(error),
            _ => None,
        }
    }
}

impl From<rspirv::dr::Error> for KernelError {
    fn from(error: rspirv::dr::Error) -> Self {
        KernelError::Builder(error)
    }
}

/// The module as little-endian bytes, the byte order `.spv` files and `clCreateProgramWithIL`
/// expect.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|word| word.to_le_bytes()).collect()
}

/// Why a module could not be parsed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("not a SPIR-V module: word {0} has length 0")]
    ZeroLength(usize),
    #[error("not a SPIR-V module: {0}")]
    Parse(rspirv::binary::ParseState),
    #[error("not a SPIR-V module: {0} bytes is not a whole number of words")]
    PartialWord(usize),
}

/// [`load_module`] of a module's bytes as a user hands them over, in either byte order (the
/// magic number tells which).
pub fn load_module_bytes(bytes: &[u8]) -> Result<rspirv::dr::Module, LoadError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(LoadError::PartialWord(bytes.len()));
    }
    let little: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
        .collect();
    let words = if little.first() == Some(&rspirv::spirv::MAGIC_NUMBER.swap_bytes()) {
        little.into_iter().map(u32::swap_bytes).collect()
    } else {
        little
    };
    load_module(&words)
}

/// Parses a module of any environment. rspirv 0.13's loader refuses `OpExecutionModeId` ("not
/// inside block"; float_controls2's `FPFastMathDefault` is one), so those instructions are read
/// as `OpExecutionMode` (same layout) and restored afterwards, their parameters as the ids they
/// are.
pub fn load_module(words: &[u32]) -> Result<rspirv::dr::Module, LoadError> {
    use rspirv::dr::{Instruction, Operand};
    use rspirv::spirv::Op;
    const EXECUTION_MODE: u32 = Op::ExecutionMode as u32;
    const EXECUTION_MODE_ID: u32 = Op::ExecutionModeId as u32;
    let mut patched = words.to_vec();
    // In order: whether each execution mode instruction was the Id form.
    let mut id_forms = Vec::new();
    let mut offset = 5;
    while offset < patched.len() {
        let word = patched[offset];
        let count = (word >> 16) as usize;
        if count == 0 {
            return Err(LoadError::ZeroLength(offset));
        }
        match word & 0xffff {
            EXECUTION_MODE => id_forms.push(false),
            EXECUTION_MODE_ID => {
                id_forms.push(true);
                patched[offset] = (word & 0xffff_0000) | EXECUTION_MODE;
            }
            _ => {}
        }
        offset += count;
    }
    let mut module = rspirv::dr::load_words(&patched).map_err(LoadError::Parse)?;
    for (instruction, id_form) in module.execution_modes.iter_mut().zip(id_forms) {
        if !id_form {
            continue;
        }
        let operands = instruction
            .operands
            .iter()
            .enumerate()
            .map(|(position, operand)| match (position, operand) {
                (2.., Operand::LiteralBit32(id)) => Operand::IdRef(*id),
                _ => operand.clone(),
            })
            .collect();
        *instruction = Instruction::new(Op::ExecutionModeId, None, None, operands);
    }
    Ok(module)
}

/// Every shape clacc ships, for the snapshot directory `kernels/`.
///
/// The all-float shapes (one instruction each, plus `OpFAdd`) at every width with 64-bit
/// addresses and at width 1 with 32-bit addresses; the other shapes (one instruction each) at
/// widths 1, 3 and 4 with 64-bit addresses, which covers the scalar, the `vloadn`/`vstoren` and
/// the vector-pointer paths, and `frexp` at width 1 with 32-bit addresses too. The geometric
/// shapes (`length`, `distance`, `normalize`) count among the others, and so does the two-instruction
/// `OpFMul` then `OpFAdd` body. Everything is `float`.
pub fn reference_shapes() -> Vec<KernelSpec> {
    use OpenclStd100Op as Op;
    let every_width = || WIDTHS.map(|width| (width, 64)).into_iter().chain([(1, 32)]);
    let all_float = [
        (Instruction::Ext(Op::sin), Shape::Unary),
        (Instruction::Ext(Op::pow), Shape::Binary),
        (Instruction::Ext(Op::fma), Shape::Ternary),
        (Instruction::FAdd, Shape::Binary),
    ]
    .into_iter()
    .flat_map(|sample| every_width().map(move |placement| (sample, placement)));
    let others = [
        (Op::ldexp, Shape::FloatInt),
        (Op::ilogb, Shape::IntResult),
        (Op::sincos, Shape::WithFloatOut),
        (Op::frexp, Shape::WithIntOut),
        (Op::remquo, Shape::BinaryWithIntOut),
        (Op::nan, Shape::Nan),
        (Op::length, Shape::Length),
        (Op::distance, Shape::Distance),
        (Op::normalize, Shape::Normalize),
    ]
    .into_iter()
    .flat_map(|(op, shape)| {
        [(1, 64), (3, 64), (4, 64)].map(|placement| ((Instruction::Ext(op), shape), placement))
    });
    // OpDot and cross take no scalars: widths 3 and 4.
    let vectors_only = [
        (Instruction::Dot, Shape::Dot),
        (Instruction::Ext(Op::cross), Shape::Cross),
    ]
    .into_iter()
    .flat_map(|sample| [(3, 64), (4, 64)].map(|placement| (sample, placement)));
    let frexp_a32 = [((Instruction::Ext(Op::frexp), Shape::WithIntOut), (1, 32))];
    let mul_add = [(1, 64), (3, 64), (4, 64)]
        .map(|placement| ((Instruction::FMulFAdd, Shape::Ternary), placement));
    all_float
        .chain(others)
        .chain(vectors_only)
        .chain(mul_add)
        .chain(frexp_a32)
        .map(|((instruction, shape), (width, address_bits))| KernelSpec {
            instruction,
            shape,
            element: FloatType::Float,
            width,
            address_bits,
        })
        .collect()
}

/// Every registry function and geometric instruction clacc builds, with its shape, once each
/// (`dot` is both): what the emitters' tests build.
#[cfg(test)]
pub(crate) fn every_instruction() -> Vec<(Instruction, Shape)> {
    use OpenclStd100Op as Op;
    let geometric = [
        (Instruction::Ext(Op::length), Shape::Length),
        (Instruction::Ext(Op::fast_length), Shape::Length),
        (Instruction::Ext(Op::distance), Shape::Distance),
        (Instruction::Ext(Op::fast_distance), Shape::Distance),
        (Instruction::Ext(Op::normalize), Shape::Normalize),
        (Instruction::Ext(Op::fast_normalize), Shape::Normalize),
        (Instruction::Ext(Op::cross), Shape::Cross),
        (Instruction::Dot, Shape::Dot),
    ];
    let mut every: Vec<(Instruction, Shape)> = Vec::new();
    for pair in crate::spec::registry::FUNCTIONS
        .iter()
        .map(|f| (f.instruction, f.shape))
        .chain(geometric)
    {
        if !every.contains(&pair) {
            every.push(pair);
        }
    }
    every
}

/// The spec of registry function `name` for a 64-bit device.
#[cfg(test)]
pub(crate) fn function_spec(name: &str, element: FloatType, width: u32) -> KernelSpec {
    let entry = crate::spec::registry::find(name).unwrap();
    KernelSpec {
        instruction: entry.instruction,
        shape: entry.shape,
        element,
        width,
        address_bits: 64,
    }
}

/// Runs the SPIR-V validator `validator` on `words` in `target_env`: `None` if it is not
/// installed, else `Err` with its complaint about `name` and the disassembly. The one runner of
/// every module-validation test in kernel, whatever the environment.
#[cfg(test)]
pub(crate) fn run_validator(
    validator: &str,
    name: &str,
    words: &[u32],
    target_env: &str,
) -> Option<Result<(), String>> {
    let mut file = tempfile::Builder::new()
        .suffix(".spv")
        .tempfile()
        .expect("create a temporary .spv file");
    std::io::Write::write_all(&mut file, &words_to_bytes(words))
        .expect("write the temporary .spv file");
    let output = match std::process::Command::new(validator)
        .args(["--target-env", target_env])
        .arg(file.path())
        .output()
    {
        Ok(output) => output,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
        Err(error) => panic!("could not run {validator}: {error}"),
    };
    if output.status.success() {
        return Some(Ok(()));
    }
    Some(Err(format!(
        "{validator} --target-env {target_env} rejected {name}:\n{}{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        {
            use rspirv::binary::Disassemble;
            rspirv::dr::load_words(words).map_or_else(|e| e.to_string(), |m| m.disassemble())
        }
    )))
}

/// The spirv-val programs to try for modules that declare one of the SPIR-V FP extensions, in
/// order: `$CLACC_SPIRV_VAL`, the SPIRV-Tools 2025.5 that scripts/setup installs into
/// `.deps/spirv-tools` (it knows all three), then `spirv-val` on the PATH (bookworm's v2023.1
/// knows none). Both environments' extension tests take the first that accepts a probe.
#[cfg(test)]
pub(crate) fn extension_validators() -> Vec<String> {
    let private =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".deps/spirv-tools/bin/spirv-val");
    std::env::var("CLACC_SPIRV_VAL")
        .into_iter()
        .chain([private.display().to_string(), "spirv-val".to_string()])
        .collect()
}

/// Runs `spirv-val` (which scripts/setup installs: a test that expects a refusal must not pass
/// because it is missing).
#[cfg(test)]
pub(crate) fn spirv_val(name: &str, words: &[u32], target_env: &str) -> Result<(), String> {
    run_validator("spirv-val", name, words, target_env).unwrap_or_else(|| {
        panic!("spirv-val is not installed; run scripts/setup to install SPIRV-Tools")
    })
}

/// Checks a folder of kernel snapshots against `snapshots` (file name, text as built now): each
/// file must hold its text, and every file `is_snapshot` claims must be one of them, so a
/// module that is no longer built leaves no stale file. With `CLACC_BLESS=1` it writes them
/// instead; `rebless` is the command that does that for this folder.
#[cfg(test)]
pub(crate) fn check_snapshots(
    dir: &std::path::Path,
    snapshots: Vec<(String, String)>,
    is_snapshot: impl Fn(&str) -> bool,
    rebless: &str,
) {
    let bless = std::env::var("CLACC_BLESS").is_ok_and(|value| value == "1");
    if bless {
        std::fs::create_dir_all(dir).expect("create the snapshot folder");
    }
    let mut stale = Vec::new();
    for (file, text) in &snapshots {
        let path = dir.join(file);
        if bless {
            std::fs::write(&path, text).expect("write snapshot");
        } else if std::fs::read_to_string(&path).unwrap_or_default() != *text {
            stale.push(format!("{}:\n{text}", path.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "kernels drifted from their snapshots in {}; review and re-bless with `{rebless}`. Now built:\n{}",
        dir.display(),
        stale.join("\n")
    );
    let orphans: Vec<String> = std::fs::read_dir(dir)
        .expect("the snapshot folder exists")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| is_snapshot(name) && !snapshots.iter().any(|(file, _)| file == name))
        .collect();
    assert!(orphans.is_empty(), "snapshots of no module: {orphans:?}");
}
