//! Builds the SPIR-V module that applies one instruction to every element of its input buffers,
//! for `clCreateProgramWithIL`.
//!
//! One module per [`KernelSpec`]: instruction, signature class ([`Shape`]), element type, vector
//! width and the device's address bits. Writing SPIR-V directly (instead of OpenCL C) means the
//! device runs exactly the instruction the accuracy tables talk about, with nothing in between.
//!
//! # Kernel convention
//!
//! - One kernel, entry point [`ENTRY_POINT`], execution model `Kernel`, SPIR-V 1.0 (the oldest
//!   version, so every driver that takes IL at all takes it), `OpMemoryModel Physical32` or
//!   `Physical64 OpenCL` after the device's `CL_DEVICE_ADDRESS_BITS`.
//! - Parameters are `CrossWorkgroup` (`__global`) pointers: the inputs first, in the
//!   instruction's operand order, then the outputs. [`KernelSpec::input_count`] and
//!   [`KernelSpec::output_count`] say how many of each.
//! - One work-item per vector: work-item `g` (`GlobalInvocationId.x`) reads vector `g` of each
//!   input, applies the instruction once and writes vector `g` of each output.
//! - Buffers are packed for every width: component `i` of work-item `g` is at element index
//!   `g * width + i`. Widths 1, 2, 4, 8 and 16 get there naturally with pointers to the vector
//!   type (their size equals their stride). A 3-component vector, however, occupies 4 elements
//!   in memory, so width 3 moves through OpenCL.std `vloadn`/`vstoren` with `n = 3` on pointers
//!   to the scalar type, which address in units of 3 elements. The host then never needs a
//!   padded layout or a special case for width 3.

mod emit;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;

use rspirv::grammar::{self, OperandKind};
use rspirv::spirv::Word;

use crate::fp::FloatType;

/// Re-exported so callers name OpenCL.std instructions as enum values, never as bare numbers.
pub use rspirv::spirv::OpenclStd100Op;

/// The name the driver finds the kernel by (`clCreateKernel`).
pub const ENTRY_POINT: &str = "clacc_kernel";

/// Vector widths OpenCL defines for gentype built-ins.
pub const WIDTHS: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// Device address widths (`CL_DEVICE_ADDRESS_BITS`) a module can be built for.
pub const ADDRESS_BITS: [u32; 2] = [32, 64];

/// The name SPIR-V gives the OpenCL extended instruction set.
const OPENCL_STD: &str = "OpenCL.std";

/// The last OpenCL.std opcode of the math and common sections (`sign`); later ones are geometric,
/// integer, memory or miscellaneous instructions, none of which is a per-component float function.
const LAST_FLOAT_MATH_OPCODE: u32 = OpenclStd100Op::sign as u32;

/// Which SPIR-V instruction the kernel applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    FAdd,
    FSub,
    FMul,
    FDiv,
    /// An instruction of the OpenCL.std extended instruction set (`OpExtInst`).
    Ext(OpenclStd100Op),
}

impl Instruction {
    /// The lower-case name used in file names and reports: `fadd`, or the OpenCL.std
    /// instruction's name from the SPIR-V grammar (`sin`, `fmax_common`, `half_exp`).
    pub fn name(&self) -> &'static str {
        match self {
            Instruction::FAdd => "fadd",
            Instruction::FSub => "fsub",
            Instruction::FMul => "fmul",
            Instruction::FDiv => "fdiv",
            Instruction::Ext(op) => opencl_std_grammar(*op).map_or("unknown", |g| g.opname),
        }
    }

    /// The shape this module can build the instruction with, or `None` when its operands or
    /// result are not all of the float gentype (`frexp`, `ldexp`, `ilogb`, ...) or it is not a
    /// per-component float function at all (`length`, `vloadn`, integer instructions, ...).
    ///
    /// Only a guard against modules a driver could crash on: which shape a function has is the
    /// function registry's fact, and the spec carries it.
    fn buildable_shape(&self) -> Option<Shape> {
        match self {
            Instruction::FAdd | Instruction::FSub | Instruction::FMul | Instruction::FDiv => {
                Some(Shape::Binary)
            }
            Instruction::Ext(op) => {
                if *op as u32 > LAST_FLOAT_MATH_OPCODE || takes_non_float_values(*op) {
                    return None;
                }
                // Every operand of these is an id, so the grammar's operand count is the arity.
                let arity = opencl_std_grammar(*op)?.operands.len();
                Shape::ALL
                    .into_iter()
                    .find(|shape| shape.signature().arguments.len() == arity)
            }
        }
    }
}

/// Math and common OpenCL.std instructions with an integer or pointer operand, or an integer
/// result; they need shapes this module does not have yet.
fn takes_non_float_values(op: OpenclStd100Op) -> bool {
    use OpenclStd100Op as Op;
    matches!(
        op,
        Op::fract
            | Op::frexp
            | Op::ilogb
            | Op::ldexp
            | Op::lgamma_r
            | Op::modf
            | Op::nan
            | Op::pown
            | Op::remquo
            | Op::rootn
            | Op::sincos
    )
}

/// The grammar entry (name, operand list) of an OpenCL.std instruction.
fn opencl_std_grammar(
    op: OpenclStd100Op,
) -> Option<&'static grammar::ExtendedInstruction<'static>> {
    grammar::ext_inst_table(OPENCL_STD)?.lookup_opcode(op as u32)
}

/// The signature class: how many float arguments, how results come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `gentype f(gentype x)`
    Unary,
    /// `gentype f(gentype x, gentype y)`
    Binary,
    /// `gentype f(gentype x, gentype y, gentype z)`
    Ternary,
}

impl Shape {
    pub const ALL: [Shape; 3] = [Shape::Unary, Shape::Binary, Shape::Ternary];

    /// What flows in and out, so the emitter and the buffer counts follow from one table.
    fn signature(self) -> Signature {
        use ValueKind::FloatGentype as F;
        match self {
            Shape::Unary => Signature {
                arguments: &[F],
                results: &[F],
            },
            Shape::Binary => Signature {
                arguments: &[F, F],
                results: &[F],
            },
            Shape::Ternary => Signature {
                arguments: &[F, F, F],
                results: &[F],
            },
        }
    }
}

/// The type of one value an instruction reads or produces, relative to the spec's element type
/// and width. Integer gentypes (`ldexp`'s exponent, `ilogb`'s result) and `uint` (`nan`) become
/// further variants; the emitter derives each value's SPIR-V type and buffer pointer from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ValueKind {
    /// The spec's element type, as a `width`-component vector when `width > 1`.
    FloatGentype,
}

/// How values travel between the buffers and one instruction.
///
/// Each argument is an operand read from its own input buffer; each result is written to its
/// own output buffer. Pointer out-arguments (`frexp`, `sincos`, ...) will become an argument
/// kind that is passed the output buffer's element address instead of a loaded value.
#[derive(Clone, Copy, Debug)]
struct Signature {
    arguments: &'static [ValueKind],
    results: &'static [ValueKind],
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
        self.shape.signature().results.len()
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
        let required = self
            .instruction
            .buildable_shape()
            .ok_or(KernelError::UnsupportedInstruction(self.instruction))?;
        if required != self.shape {
            return Err(KernelError::ShapeMismatch {
                instruction: self.instruction,
                declared: self.shape,
                required,
            });
        }
        Ok(())
    }
}

/// Why a module could not be built.
#[derive(Debug)]
pub enum KernelError {
    /// The width is not one of [`WIDTHS`].
    UnsupportedWidth(u32),
    /// The address width is not one of [`ADDRESS_BITS`].
    UnsupportedAddressBits(u32),
    /// No shape of this module fits the instruction: it has integer or pointer operands, an
    /// integer result, or is not a per-component float function.
    UnsupportedInstruction(Instruction),
    /// The spec's shape is not the instruction's signature (e.g. `FAdd` declared `Unary`).
    ShapeMismatch {
        instruction: Instruction,
        declared: Shape,
        required: Shape,
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

/// Builds the kernel module for `spec` as SPIR-V words (see the module doc for its convention).
pub fn build(spec: &KernelSpec) -> Result<Vec<u32>, KernelError> {
    spec.validate()?;
    emit::module(spec)
}

/// Readable text of a module, for snapshots and debugging. Deterministic: the same words always
/// give the same text. Words that do not parse give a one-line `;` comment saying why.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match rspirv::dr::load_words(words) {
        Ok(mut module) => {
            restore_ext_inst_literals(&mut module);
            module.disassemble() + "\n"
        }
        Err(error) => format!("; not a SPIR-V module: {error}\n"),
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

/// The module as little-endian bytes, the byte order `.spv` files and `clCreateProgramWithIL`
/// expect.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|word| word.to_le_bytes()).collect()
}

/// Every shape clacc ships, for the snapshot directory `kernels/`: one instruction per shape
/// plus `OpFAdd`, for `float` at every width with 64-bit addresses, and at width 1 with 32-bit
/// addresses too.
pub fn reference_shapes() -> Vec<KernelSpec> {
    let samples = [
        (Instruction::Ext(OpenclStd100Op::sin), Shape::Unary),
        (Instruction::Ext(OpenclStd100Op::pow), Shape::Binary),
        (Instruction::Ext(OpenclStd100Op::fma), Shape::Ternary),
        (Instruction::FAdd, Shape::Binary),
    ];
    let widths_and_address_bits = WIDTHS.map(|width| (width, 64)).into_iter().chain([(1, 32)]);
    samples
        .into_iter()
        .flat_map(|(instruction, shape)| {
            widths_and_address_bits
                .clone()
                .map(move |(width, address_bits)| KernelSpec {
                    instruction,
                    shape,
                    element: FloatType::Float,
                    width,
                    address_bits,
                })
        })
        .collect()
}
