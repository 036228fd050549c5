//! SPIR-V emission for a validated [`KernelSpec`], one small function per module section.
//!
//! Types come from rspirv's `type_*` calls, which return the existing id when an identical type
//! was declared before, so asking twice never declares a type twice. The kernels need no
//! `OpConstant` (the work-item index comes from the builtin and `vloadn`'s `n` is a literal).
//!
//! Integer types are declared with signedness 0, the only one a module with the `Kernel`
//! capability may use (spirv-val refuses 1): `int`, `uint` and `ulong` differ in the
//! instructions that read them, not in their type.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl,
    FunctionParameterAttribute, MemoryAccess, MemoryModel, StorageClass, Word,
};

use crate::kernel::{KernelError, KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::spec::signature::{Instruction, OpenclStd100Op, ValueKind, OPENCL_STD};

/// Builds the module's words. `spec` must have passed `KernelSpec::validate`.
pub(super) fn module(spec: &KernelSpec) -> Result<Vec<u32>, KernelError> {
    let mut emitter = Emitter::new(spec);
    emitter.kernel()?;
    Ok(emitter.builder.module().assemble())
}

/// The capabilities the module's types and addressing need, in declaration order.
pub(super) fn capabilities(spec: &KernelSpec) -> Vec<Capability> {
    let mut needed = vec![Capability::Addresses, Capability::Kernel];
    let integer_bits: Vec<u32> = spec
        .argument_kinds()
        .into_iter()
        .chain(spec.result_kinds())
        .filter(|kind| kind.is_integer())
        .map(|kind| kind.component_bits(spec.element))
        .collect();
    // size_t, and so GlobalInvocationId's components, are 64-bit integers with 64-bit
    // addresses; `nan`'s argument is `ulong` for `double`.
    if spec.address_bits == 64 || integer_bits.contains(&64) {
        needed.push(Capability::Int64);
    }
    // `nan`'s argument is `ushort` for `half`.
    if integer_bits.contains(&16) {
        needed.push(Capability::Int16);
    }
    match spec.element {
        FloatType::Half => needed.push(Capability::Float16),
        FloatType::Float => {}
        FloatType::Double => needed.push(Capability::Float64),
    }
    if spec.width >= 8 {
        needed.push(Capability::Vector16);
    }
    needed
}

/// The SPIR-V types one [`ValueKind`] needs.
#[derive(Clone, Copy, Debug)]
struct ValueTypes {
    /// The type the instruction reads or produces.
    value: Word,
    /// Components of `value`: the spec's width, or 1 for [`ValueKind::FloatScalar`].
    components: u32,
    /// The kernel parameter's type: a `CrossWorkgroup` pointer to `value`, or to its component
    /// type for a 3-vector (see the module doc of `kernel` on the packed layout).
    buffer_pointer: Word,
    /// Bytes of one `value`, used as the `Aligned` operand of loads and stores: buffers are at
    /// least that aligned, and saying so lets the driver use whole-vector memory accesses.
    alignment: u32,
}

/// A kernel parameter and what flows through it.
#[derive(Clone, Copy, Debug)]
struct Buffer {
    parameter: Word,
    types: ValueTypes,
}

struct Emitter<'a> {
    spec: &'a KernelSpec,
    builder: Builder,
    /// The OpenCL.std import, declared the first time an instruction needs it and reused after.
    opencl_std: Option<Word>,
}

impl<'a> Emitter<'a> {
    fn new(spec: &'a KernelSpec) -> Self {
        Emitter {
            spec,
            builder: Builder::new(),
            opencl_std: None,
        }
    }

    /// Emits the whole module: header sections, the kernel function, its entry point.
    fn kernel(&mut self) -> Result<(), KernelError> {
        self.header();
        let global_id = self.global_invocation_id();
        let input_kinds = self.spec.argument_kinds();
        let output_kinds = self.spec.result_kinds();
        let buffer_types: Vec<ValueTypes> = input_kinds
            .iter()
            .chain(&output_kinds)
            .map(|kind| self.value_types(*kind))
            .collect();

        let void = self.builder.type_void();
        let function_type = self
            .builder
            .type_function(void, buffer_types.iter().map(|t| t.buffer_pointer));
        let function =
            self.builder
                .begin_function(void, None, FunctionControl::NONE, function_type)?;
        self.builder.name(function, ENTRY_POINT);
        let (inputs, outputs) = self.parameters(&buffer_types, input_kinds.len())?;
        // The returned value's buffer, then those written through pointer out-arguments.
        let (&returned, pointed_to) = outputs.split_first().expect("every shape returns a value");

        self.builder.begin_block(None)?;
        // OpVariable must open the function's first block, before any other instruction.
        let staging: Vec<Option<Word>> = pointed_to
            .iter()
            .map(|output| self.width_3_staging(*output))
            .collect();
        let index = self.work_item_index(global_id)?;
        let mut operands = inputs
            .iter()
            .map(|input| self.load(*input, index))
            .collect::<Result<Vec<Word>, KernelError>>()?;
        for (output, variable) in pointed_to.iter().zip(&staging) {
            let pointer = match variable {
                Some(variable) => *variable,
                None => self.element_pointer(*output, index)?,
            };
            operands.push(pointer);
        }
        let result = self.apply(returned.types.value, &operands)?;
        self.store(returned, index, result)?;
        for (output, variable) in pointed_to.iter().zip(&staging) {
            if let Some(variable) = variable {
                let value = self
                    .builder
                    .load(output.types.value, None, *variable, None, [])?;
                self.store(*output, index, value)?;
            }
        }
        self.builder.ret()?;
        self.builder.end_function()?;

        // SPIR-V 1.0 interfaces list only Input and Output variables: the builtin, not buffers.
        self.builder
            .entry_point(ExecutionModel::Kernel, function, ENTRY_POINT, [global_id]);
        Ok(())
    }

    /// Version, capabilities and memory model: the sections before any type.
    fn header(&mut self) {
        // rspirv defaults to its newest version; OpenCL drivers take 1.0 most widely.
        self.builder.set_version(1, 0);
        for capability in capabilities(self.spec) {
            self.builder.capability(capability);
        }
        let addressing = if self.spec.address_bits == 64 {
            AddressingModel::Physical64
        } else {
            AddressingModel::Physical32
        };
        self.builder.memory_model(addressing, MemoryModel::OpenCL);
    }

    /// The OpenCL.std import id, declared on first use so modules that need none have none.
    fn opencl_std(&mut self) -> Word {
        match self.opencl_std {
            Some(id) => id,
            None => {
                let id = self.builder.ext_inst_import(OPENCL_STD);
                self.opencl_std = Some(id);
                id
            }
        }
    }

    /// `size_t`: the integer type of work-item ids and of pointer offsets.
    fn size_type(&mut self) -> Word {
        self.builder.type_int(self.spec.address_bits, 0)
    }

    /// Declares the `GlobalInvocationId` builtin variable (a `size_t` 3-vector) and returns it.
    fn global_invocation_id(&mut self) -> Word {
        let size = self.size_type();
        let size3 = self.builder.type_vector(size, 3);
        let pointer = self.builder.type_pointer(None, StorageClass::Input, size3);
        let variable = self
            .builder
            .variable(pointer, None, StorageClass::Input, None);
        self.builder.name(variable, "global_invocation_id");
        self.builder.decorate(
            variable,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
        );
        variable
    }

    /// The value and buffer types of one kind at the spec's element type and width.
    fn value_types(&mut self, kind: ValueKind) -> ValueTypes {
        let bits = kind.component_bits(self.spec.element);
        let component = if kind.is_integer() {
            self.builder.type_int(bits, 0)
        } else {
            self.builder.type_float(bits, None)
        };
        self.gentype(component, bits / 8, kind.components(self.spec.width))
    }

    /// Value and buffer types for `components` of `component`: the component itself for 1, a
    /// vector otherwise.
    fn gentype(&mut self, component: Word, component_bytes: u32, components: u32) -> ValueTypes {
        let value = if components == 1 {
            component
        } else {
            self.builder.type_vector(component, components)
        };
        let pointee = if components == 3 { component } else { value };
        let buffer_pointer = self
            .builder
            .type_pointer(None, StorageClass::CrossWorkgroup, pointee);
        ValueTypes {
            value,
            components,
            buffer_pointer,
            alignment: component_bytes * components,
        }
    }

    /// Declares the kernel parameters, inputs then outputs, named `in0..` and `out0..`.
    fn parameters(
        &mut self,
        buffer_types: &[ValueTypes],
        input_count: usize,
    ) -> Result<(Vec<Buffer>, Vec<Buffer>), KernelError> {
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        for (position, types) in buffer_types.iter().enumerate() {
            let parameter = self.builder.function_parameter(types.buffer_pointer)?;
            let buffer = Buffer {
                parameter,
                types: *types,
            };
            if position < input_count {
                self.builder.name(parameter, format!("in{position}"));
                // Tells the driver the kernel only reads this buffer.
                self.builder.decorate(
                    parameter,
                    Decoration::FuncParamAttr,
                    [Operand::FunctionParameterAttribute(
                        FunctionParameterAttribute::NoWrite,
                    )],
                );
                inputs.push(buffer);
            } else {
                let output_position = position - input_count;
                self.builder
                    .name(parameter, format!("out{output_position}"));
                outputs.push(buffer);
            }
        }
        Ok((inputs, outputs))
    }

    /// `GlobalInvocationId.x`, already `size_t` and so usable as a pointer offset as is.
    fn work_item_index(&mut self, global_id: Word) -> Result<Word, KernelError> {
        let size = self.size_type();
        let size3 = self.builder.type_vector(size, 3);
        let ids = self.builder.load(size3, None, global_id, None, [])?;
        Ok(self.builder.composite_extract(size, None, ids, [0])?)
    }

    /// Reads value `index` of `buffer` (packed layout, see the module doc of `kernel`).
    fn load(&mut self, buffer: Buffer, index: Word) -> Result<Word, KernelError> {
        let ValueTypes {
            value, alignment, ..
        } = buffer.types;
        if buffer.types.components == 3 {
            let opencl_std = self.opencl_std();
            return Ok(self.builder.ext_inst(
                value,
                None,
                opencl_std,
                OpenclStd100Op::vloadn as u32,
                [
                    Operand::IdRef(index),
                    Operand::IdRef(buffer.parameter),
                    Operand::LiteralBit32(3),
                ],
            )?);
        }
        let element = self.element_pointer(buffer, index)?;
        Ok(self.builder.load(
            value,
            None,
            element,
            Some(MemoryAccess::ALIGNED),
            [Operand::LiteralBit32(alignment)],
        )?)
    }

    /// Writes `data` as value `index` of `buffer` (packed layout, see the module doc of `kernel`).
    fn store(&mut self, buffer: Buffer, index: Word, data: Word) -> Result<(), KernelError> {
        if buffer.types.components == 3 {
            let opencl_std = self.opencl_std();
            let void = self.builder.type_void();
            self.builder.ext_inst(
                void,
                None,
                opencl_std,
                OpenclStd100Op::vstoren as u32,
                [
                    Operand::IdRef(data),
                    Operand::IdRef(index),
                    Operand::IdRef(buffer.parameter),
                ],
            )?;
            return Ok(());
        }
        let element = self.element_pointer(buffer, index)?;
        self.builder.store(
            element,
            data,
            Some(MemoryAccess::ALIGNED),
            [Operand::LiteralBit32(buffer.types.alignment)],
        )?;
        Ok(())
    }

    /// A pointer to value `index` of `buffer`, for values other than 3-vectors (whose buffers
    /// point to the scalar type and so cannot address a 3-vector). A [`ValueKind::FloatScalar`]
    /// buffer goes this way at every width, so `length`'s result at width 3 is stored here.
    fn element_pointer(&mut self, buffer: Buffer, index: Word) -> Result<Word, KernelError> {
        Ok(self.builder.in_bounds_ptr_access_chain(
            buffer.types.buffer_pointer,
            None,
            buffer.parameter,
            index,
            [],
        )?)
    }

    /// For a 3-vector output, a `Function`-storage variable of its type for the instruction to
    /// write through, declared in the current block; `None` otherwise, where the instruction
    /// writes the output buffer's element directly.
    ///
    /// A pointer into the packed buffer cannot stand in: a 3-vector occupies 4 components in
    /// memory, so the instruction would write one component past the value, into the next
    /// work-item's, and the value's address is not aligned as a 3-vector's must be.
    fn width_3_staging(&mut self, output: Buffer) -> Option<Word> {
        if output.types.components != 3 {
            return None;
        }
        let pointer = self
            .builder
            .type_pointer(None, StorageClass::Function, output.types.value);
        Some(
            self.builder
                .variable(pointer, None, StorageClass::Function, None),
        )
    }

    /// The instruction under test, applied once to its operands: the loaded arguments, then
    /// the pointer out-argument if the shape has one.
    fn apply(&mut self, result_type: Word, arguments: &[Word]) -> Result<Word, KernelError> {
        let result = match (self.spec.instruction, arguments) {
            (Instruction::FAdd, &[x, y]) => self.builder.f_add(result_type, None, x, y)?,
            (Instruction::FSub, &[x, y]) => self.builder.f_sub(result_type, None, x, y)?,
            (Instruction::FMul, &[x, y]) => self.builder.f_mul(result_type, None, x, y)?,
            (Instruction::FDiv, &[x, y]) => self.builder.f_div(result_type, None, x, y)?,
            (Instruction::Dot, &[x, y]) => self.builder.dot(result_type, None, x, y)?,
            (Instruction::FMulFAdd, &[x, y, z]) => {
                let product = self.builder.f_mul(result_type, None, x, y)?;
                self.builder.f_add(result_type, None, product, z)?
            }
            (Instruction::Ext(op), _) => {
                let opencl_std = self.opencl_std();
                self.builder.ext_inst(
                    result_type,
                    None,
                    opencl_std,
                    op as u32,
                    arguments.iter().map(|id| Operand::IdRef(*id)),
                )?
            }
            (instruction, _) => unreachable!(
                "validate() lets {instruction:?} through only with its own arity, not {}",
                arguments.len()
            ),
        };
        Ok(result)
    }
}
