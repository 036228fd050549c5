//! Compute-shader emission for a validated [`KernelSpec`], one small function per module
//! section.
//!
//! rspirv's `type_*` calls return the existing id for a type declared before, so two buffers of
//! one element type share their array and block types; those types are decorated once
//! (`decorated`), since a repeated decoration is invalid.

use std::collections::{HashMap, HashSet};

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, Op, SelectionControl, StorageClass, Word,
};

use super::{DenormMode, Operation, RoundingMode, ShaderModes, GLSL_STD_450};
use crate::kernel::{KernelError, KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::spec::signature::ValueKind;

/// Invocations per workgroup (`LocalSize 64 1 1`): the host dispatches `ceil(count / 64)`.
pub(crate) const LOCAL_SIZE: u32 = 64;

/// Builds the shader's words. `spec` must have passed `spirv_vulkan::validate`, which gave
/// `operation`.
pub(super) fn module(
    spec: &KernelSpec,
    modes: &ShaderModes,
    operation: Operation,
) -> Result<Vec<u32>, KernelError> {
    let mut emitter = Emitter {
        spec,
        modes,
        operation,
        builder: Builder::new(),
        decorated: HashSet::new(),
        interface: Vec::new(),
        constants: HashMap::new(),
    };
    emitter.shader()?;
    Ok(emitter.builder.module().assemble())
}

/// The capabilities the shader's types and modes need, in declaration order.
pub(crate) fn capabilities(spec: &KernelSpec, modes: &ShaderModes) -> Vec<Capability> {
    let mut needed = vec![Capability::Shader];
    match spec.element {
        // Half values live in storage buffers, which takes the 16-bit storage capability too.
        FloatType::Half => {
            needed.extend([Capability::Float16, Capability::StorageBuffer16BitAccess])
        }
        FloatType::Float => {}
        FloatType::Double => needed.push(Capability::Float64),
    }
    if modes.signed_zero_inf_nan_preserve {
        needed.push(Capability::SignedZeroInfNanPreserve);
    }
    match modes.denorm {
        Some(DenormMode::Preserve) => needed.push(Capability::DenormPreserve),
        Some(DenormMode::FlushToZero) => needed.push(Capability::DenormFlushToZero),
        None => {}
    }
    match modes.rounding {
        Some(RoundingMode::Rte) => needed.push(Capability::RoundingModeRTE),
        Some(RoundingMode::Rtz) => needed.push(Capability::RoundingModeRTZ),
        None => {}
    }
    needed
}

/// The execution modes of the variant, for the element's bit width.
fn float_controls(modes: &ShaderModes) -> Vec<ExecutionMode> {
    let mut execution_modes = Vec::new();
    if modes.signed_zero_inf_nan_preserve {
        execution_modes.push(ExecutionMode::SignedZeroInfNanPreserve);
    }
    match modes.denorm {
        Some(DenormMode::Preserve) => execution_modes.push(ExecutionMode::DenormPreserve),
        Some(DenormMode::FlushToZero) => execution_modes.push(ExecutionMode::DenormFlushToZero),
        None => {}
    }
    match modes.rounding {
        Some(RoundingMode::Rte) => execution_modes.push(ExecutionMode::RoundingModeRTE),
        Some(RoundingMode::Rtz) => execution_modes.push(ExecutionMode::RoundingModeRTZ),
        None => {}
    }
    execution_modes
}

/// One storage buffer and what flows through it.
#[derive(Clone, Copy, Debug)]
struct Buffer {
    /// The `StorageBuffer` variable of the block.
    variable: Word,
    /// The type the instruction reads or produces.
    value: Word,
    /// The array's element type: `value`, or its component type for a 3-vector.
    element: Word,
    /// Components of `value`: the spec's width, or 1 for [`ValueKind::FloatScalar`].
    components: u32,
}

/// A `uint` constant, declared once (rspirv declares a new one per call): `constants` holds
/// those declared so far, by value.
pub(super) fn uint_constant(
    builder: &mut Builder,
    constants: &mut HashMap<u32, Word>,
    value: u32,
) -> Word {
    if let Some(id) = constants.get(&value) {
        return *id;
    }
    let uint = builder.type_int(32, 0);
    let id = builder.constant_bit32(uint, value);
    constants.insert(value, id);
    id
}

/// Declares what every shader of this environment reads besides its buffers, each added to
/// the entry point's `interface`: the `GlobalInvocationId` builtin (a `uint` 3-vector) and the
/// push-constant block `{ uint count; }`. Returns the two variables.
pub(super) fn invocation_variables(
    builder: &mut Builder,
    interface: &mut Vec<Word>,
) -> (Word, Word) {
    let uint = builder.type_int(32, 0);
    let uint3 = builder.type_vector(uint, 3);
    let pointer = builder.type_pointer(None, StorageClass::Input, uint3);
    let global_id = builder.variable(pointer, None, StorageClass::Input, None);
    builder.name(global_id, "global_invocation_id");
    builder.decorate(
        global_id,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    interface.push(global_id);
    // A storage buffer's block holds a runtime array, so this one is never among theirs and
    // is decorated here alone.
    let block = builder.type_struct([uint]);
    builder.decorate(block, Decoration::Block, []);
    builder.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    let pointer = builder.type_pointer(None, StorageClass::PushConstant, block);
    let count = builder.variable(pointer, None, StorageClass::PushConstant, None);
    builder.name(count, "count");
    interface.push(count);
    (global_id, count)
}

/// Declares the storage buffer of argument `binding` (of `inputs` inputs, then the outputs):
/// a block whose one member is a runtime array of `element`s `stride` bytes apart, at
/// `DescriptorSet 0, Binding binding`, added to `interface`. Types in `decorated` (array and
/// block types shared with an earlier buffer) are not decorated again. Returns the variable.
pub(super) fn storage_buffer(
    builder: &mut Builder,
    decorated: &mut HashSet<Word>,
    interface: &mut Vec<Word>,
    (element, stride): (Word, u32),
    binding: u32,
    inputs: usize,
) -> Word {
    let array = builder.type_runtime_array(element);
    let block = builder.type_struct([array]);
    if decorated.insert(array) {
        builder.decorate(
            array,
            Decoration::ArrayStride,
            [Operand::LiteralBit32(stride)],
        );
    }
    if decorated.insert(block) {
        builder.decorate(block, Decoration::Block, []);
        builder.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    }
    let pointer = builder.type_pointer(None, StorageClass::StorageBuffer, block);
    let variable = builder.variable(pointer, None, StorageClass::StorageBuffer, None);
    let input = (binding as usize) < inputs;
    let name = if input {
        format!("in{binding}")
    } else {
        format!("out{}", binding as usize - inputs)
    };
    builder.name(variable, name);
    builder.decorate(
        variable,
        Decoration::DescriptorSet,
        [Operand::LiteralBit32(0)],
    );
    builder.decorate(
        variable,
        Decoration::Binding,
        [Operand::LiteralBit32(binding)],
    );
    if input {
        // Tells the driver the shader only reads this buffer.
        builder.decorate(variable, Decoration::NonWritable, []);
    }
    interface.push(variable);
    variable
}

/// Loads `GlobalInvocationId.x` and the count (the variables of [`invocation_variables`]), and
/// opens the branch taken for `index < count` only; returns the index and the merge block,
/// which [`close_bounds_check`] closes the branch with.
pub(super) fn open_bounds_check(
    builder: &mut Builder,
    constants: &mut HashMap<u32, Word>,
    global_id: Word,
    count: Word,
) -> Result<(Word, Word), rspirv::dr::Error> {
    let uint = builder.type_int(32, 0);
    let uint3 = builder.type_vector(uint, 3);
    let ids = builder.load(uint3, None, global_id, None, [])?;
    let index = builder.composite_extract(uint, None, ids, [0])?;
    let zero = uint_constant(builder, constants, 0);
    let count_pointer = builder.type_pointer(None, StorageClass::PushConstant, uint);
    let member = builder.access_chain(count_pointer, None, count, [zero])?;
    let count = builder.load(uint, None, member, None, [])?;
    let boolean = builder.type_bool();
    let in_range = builder.u_less_than(boolean, None, index, count)?;
    let body = builder.id();
    let end = builder.id();
    builder.selection_merge(end, SelectionControl::NONE)?;
    builder.branch_conditional(in_range, body, end, [])?;
    builder.begin_block(Some(body))?;
    Ok((index, end))
}

/// Closes the branch [`open_bounds_check`] opened, whose merge block is `end`, and returns.
pub(super) fn close_bounds_check(
    builder: &mut Builder,
    end: Word,
) -> Result<(), rspirv::dr::Error> {
    builder.branch(end)?;
    builder.begin_block(Some(end))?;
    builder.ret()?;
    Ok(())
}

struct Emitter<'a> {
    spec: &'a KernelSpec,
    modes: &'a ShaderModes,
    operation: Operation,
    builder: Builder,
    /// Types already decorated (array strides, block layouts).
    decorated: HashSet<Word>,
    /// Every global variable, for the entry point's interface (SPIR-V 1.4 lists them all).
    interface: Vec<Word>,
    /// The `uint` constants declared so far, by value.
    constants: HashMap<u32, Word>,
}

impl Emitter<'_> {
    /// Emits the whole module: header, interface variables, the function, the entry point.
    fn shader(&mut self) -> Result<(), KernelError> {
        self.header();
        let glsl = match self.operation {
            Operation::Glsl(_) => Some(self.builder.ext_inst_import(GLSL_STD_450)),
            Operation::Core(_) => None,
        };
        self.builder
            .memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        let (global_id, count) = invocation_variables(&mut self.builder, &mut self.interface);
        let kinds: Vec<ValueKind> = self
            .spec
            .argument_kinds()
            .into_iter()
            .chain(self.spec.result_kinds())
            .collect();
        let input_count = self.spec.input_count();
        let buffers: Vec<Buffer> = kinds
            .iter()
            .enumerate()
            .map(|(binding, kind)| self.storage_buffer(*kind, binding as u32))
            .collect();
        let (inputs, outputs) = buffers.split_at(input_count);

        let void = self.builder.type_void();
        let function_type = self.builder.type_function(void, []);
        let function =
            self.builder
                .begin_function(void, None, FunctionControl::NONE, function_type)?;
        self.builder.name(function, ENTRY_POINT);
        self.builder.begin_block(None)?;
        let (index, end) =
            open_bounds_check(&mut self.builder, &mut self.constants, global_id, count)?;
        let operands = inputs
            .iter()
            .map(|input| self.load(*input, index))
            .collect::<Result<Vec<Word>, KernelError>>()?;
        let results = self.apply(outputs, &operands, glsl)?;
        for (output, result) in outputs.iter().zip(results) {
            self.store(*output, index, result)?;
        }
        close_bounds_check(&mut self.builder, end)?;
        self.builder.end_function()?;

        self.builder.entry_point(
            ExecutionModel::GLCompute,
            function,
            ENTRY_POINT,
            self.interface.clone(),
        );
        self.builder
            .execution_mode(function, ExecutionMode::LocalSize, [LOCAL_SIZE, 1, 1]);
        let bits = self.spec.element.bits();
        for mode in float_controls(self.modes) {
            self.builder.execution_mode(function, mode, [bits]);
        }
        Ok(())
    }

    /// Version and capabilities: the sections before the imports.
    fn header(&mut self) {
        self.builder.set_version(1, 5);
        for capability in capabilities(self.spec, self.modes) {
            self.builder.capability(capability);
        }
    }

    fn uint(&mut self) -> Word {
        self.builder.type_int(32, 0)
    }

    fn uint_constant(&mut self, value: u32) -> Word {
        uint_constant(&mut self.builder, &mut self.constants, value)
    }

    /// The value type of one kind at the spec's element type and width, and its component.
    fn value_type(&mut self, kind: ValueKind) -> (Word, Word, u32) {
        let bits = kind.component_bits(self.spec.element);
        let component = if kind.is_integer() {
            // The only integer buffers of a Vulkan unit hold `int` (ldexp's k, frexp's exponent).
            self.builder.type_int(bits, 1)
        } else {
            self.builder.type_float(bits, None)
        };
        let components = kind.components(self.spec.width);
        let value = if components == 1 {
            component
        } else {
            self.builder.type_vector(component, components)
        };
        (value, component, components)
    }

    /// Declares the storage buffer of binding `binding` for values of `kind`: a block whose one
    /// member is a runtime array of the packed values (see the module doc of `spirv_vulkan`).
    fn storage_buffer(&mut self, kind: ValueKind, binding: u32) -> Buffer {
        let (value, component, components) = self.value_type(kind);
        let element = if components == 3 { component } else { value };
        let element_components = if components == 3 { 1 } else { components };
        let stride = kind.component_bytes(self.spec.element) as u32 * element_components;
        let variable = storage_buffer(
            &mut self.builder,
            &mut self.decorated,
            &mut self.interface,
            (element, stride),
            binding,
            self.spec.input_count(),
        );
        Buffer {
            variable,
            value,
            element,
            components,
        }
    }

    /// A pointer to array element `element` of `buffer`.
    fn element_pointer(&mut self, buffer: Buffer, element: Word) -> Result<Word, KernelError> {
        let pointer = self
            .builder
            .type_pointer(None, StorageClass::StorageBuffer, buffer.element);
        let zero = self.uint_constant(0);
        Ok(self
            .builder
            .access_chain(pointer, None, buffer.variable, [zero, element])?)
    }

    /// The array indices of the three components of 3-vector `index`: `3 * index + i`.
    fn component_indices(&mut self, index: Word) -> Result<[Word; 3], KernelError> {
        let uint = self.uint();
        let three = self.uint_constant(3);
        let first = self.builder.i_mul(uint, None, index, three)?;
        let mut indices = [first; 3];
        for (component, slot) in indices.iter_mut().enumerate().skip(1) {
            let offset = self.uint_constant(component as u32);
            *slot = self.builder.i_add(uint, None, first, offset)?;
        }
        Ok(indices)
    }

    /// Reads value `index` of `buffer` (packed layout, see the module doc of `spirv_vulkan`).
    fn load(&mut self, buffer: Buffer, index: Word) -> Result<Word, KernelError> {
        if buffer.components != 3 {
            let pointer = self.element_pointer(buffer, index)?;
            return Ok(self.builder.load(buffer.value, None, pointer, None, [])?);
        }
        let mut components = Vec::new();
        for element in self.component_indices(index)? {
            let pointer = self.element_pointer(buffer, element)?;
            components.push(self.builder.load(buffer.element, None, pointer, None, [])?);
        }
        Ok(self
            .builder
            .composite_construct(buffer.value, None, components)?)
    }

    /// Writes `data` as value `index` of `buffer` (packed layout).
    fn store(&mut self, buffer: Buffer, index: Word, data: Word) -> Result<(), KernelError> {
        if buffer.components != 3 {
            let pointer = self.element_pointer(buffer, index)?;
            self.builder.store(pointer, data, None, [])?;
            return Ok(());
        }
        for (component, element) in (0..).zip(self.component_indices(index)?) {
            let value = self
                .builder
                .composite_extract(buffer.element, None, data, [component])?;
            let pointer = self.element_pointer(buffer, element)?;
            self.builder.store(pointer, value, None, [])?;
        }
        Ok(())
    }

    /// The instruction under test, applied once to the loaded operands: its results, one per
    /// output buffer (the two members of `FrexpStruct` and `ModfStruct`).
    fn apply(
        &mut self,
        outputs: &[Buffer],
        operands: &[Word],
        glsl: Option<Word>,
    ) -> Result<Vec<Word>, KernelError> {
        let returned = outputs[0].value;
        let result = match (self.operation, operands) {
            (Operation::Core(Op::FNegate), &[x]) => self.builder.f_negate(returned, None, x)?,
            (Operation::Core(op), &[x, y]) => match op {
                Op::FAdd => self.builder.f_add(returned, None, x, y)?,
                Op::FSub => self.builder.f_sub(returned, None, x, y)?,
                Op::FMul => self.builder.f_mul(returned, None, x, y)?,
                Op::FDiv => self.builder.f_div(returned, None, x, y)?,
                Op::FRem => self.builder.f_rem(returned, None, x, y)?,
                Op::FMod => self.builder.f_mod(returned, None, x, y)?,
                Op::Dot => self.builder.dot(returned, None, x, y)?,
                _ => unreachable!("spirv_vulkan::CORE has no other binary instruction"),
            },
            (Operation::Glsl(op), _) => {
                let glsl = glsl.expect("a GLSL.std.450 shader imports the set");
                let result_type = if outputs.len() == 2 {
                    // FrexpStruct and ModfStruct: { result, second result }.
                    self.builder
                        .type_struct([outputs[0].value, outputs[1].value])
                } else {
                    returned
                };
                self.builder.ext_inst(
                    result_type,
                    None,
                    glsl,
                    op as u32,
                    operands.iter().map(|id| Operand::IdRef(*id)),
                )?
            }
            (operation, _) => unreachable!(
                "validate() lets {operation:?} through only with its own arity, not {}",
                operands.len()
            ),
        };
        if self.modes.relaxed_precision {
            self.builder
                .decorate(result, Decoration::RelaxedPrecision, []);
        }
        if outputs.len() == 1 {
            return Ok(vec![result]);
        }
        outputs
            .iter()
            .enumerate()
            .map(|(member, output)| {
                Ok(self
                    .builder
                    .composite_extract(output.value, None, result, [member as u32])?)
            })
            .collect()
    }
}
