//! Checks a user's compute shader (`--kernel FUNCTION=FILE` on the vulkan path) against the
//! interface clacc's own shader for the unit has, before any driver sees it: the `GLCompute`
//! entry point [`ENTRY_POINT`] with `LocalSize 64 1 1`, one storage buffer per kernel argument
//! at `DescriptorSet 0, Binding i` holding the packed values of the argument's type, and the
//! push-constant work-item count. A shader that differs would read or write its buffers out of
//! bounds, or miss work-items, and its results would be judged as if they were the function's.
//!
//! Every mismatch is reported, one line each, so a user fixes them in one go.

use std::fmt;

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{Decoration, ExecutionMode, ExecutionModel, Op, StorageClass, Word};

use super::emit::LOCAL_SIZE;
use super::{DenormMode, RoundingMode, ShaderModes};
use crate::kernel::{KernelSpec, TypeShape, ENTRY_POINT};
use crate::spec::signature::ValueKind;

/// The bytes a value of a scalar or vector type takes (integer signedness aside: the bytes are
/// what the host reads); 0 for any other type.
fn bytes(value: &TypeShape) -> u32 {
    match value {
        TypeShape::Float(bits) | TypeShape::Int(bits) => bits / 8,
        TypeShape::Vector(component, count) => bytes(component) * count,
        TypeShape::Pointer(..) | TypeShape::Other(_) => 0,
    }
}

/// One way a user shader differs from the unit's interface.
#[derive(Debug, PartialEq, Eq)]
pub enum InterfaceError {
    /// Not a readable SPIR-V module.
    Unreadable(String),
    /// No `OpEntryPoint GLCompute` named [`ENTRY_POINT`]; the entry points it has.
    NoEntryPoint { found: Vec<String> },
    /// Another local size than `LocalSize 64 1 1`, which the host's dispatch counts on.
    LocalSize { found: String },
    /// No storage buffer at `DescriptorSet 0, Binding binding`; `expected` says what it holds.
    MissingBuffer { binding: u32, expected: String },
    /// The buffer at `binding` is not a block of one runtime array of the packed values.
    Buffer {
        binding: u32,
        expected: String,
        found: String,
    },
    /// A resource at `DescriptorSet 0, Binding binding` past the kernel's arguments (or in
    /// another set), which the host binds nothing to.
    ExtraBinding { set: u32, binding: u32 },
    /// No push-constant block whose first member is the `uint` work-item count at offset 0.
    PushConstant { found: String },
}

impl fmt::Display for InterfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterfaceError::Unreadable(why) => write!(f, "not a readable SPIR-V module: {why}"),
            InterfaceError::NoEntryPoint { found } => write!(
                f,
                "no GLCompute entry point named {ENTRY_POINT} (it has: {})",
                if found.is_empty() {
                    "none".to_string()
                } else {
                    found.join(", ")
                }
            ),
            InterfaceError::LocalSize { found } => write!(
                f,
                "{ENTRY_POINT} has local size {found}, expected LocalSize {LOCAL_SIZE} 1 1"
            ),
            InterfaceError::MissingBuffer { binding, expected } => write!(
                f,
                "no StorageBuffer at DescriptorSet 0, Binding {binding} (expected {expected})"
            ),
            InterfaceError::Buffer {
                binding,
                expected,
                found,
            } => write!(
                f,
                "the buffer at Binding {binding} is {found}, expected {expected}"
            ),
            InterfaceError::ExtraBinding { set, binding } => write!(
                f,
                "DescriptorSet {set}, Binding {binding} is none of the kernel's buffers, which \
                 are DescriptorSet 0, Bindings 0 to the argument count"
            ),
            InterfaceError::PushConstant { found } => write!(
                f,
                "expected a push-constant block with the uint work-item count at offset 0, found {found}"
            ),
        }
    }
}

impl std::error::Error for InterfaceError {}

/// Every way a user shader differs from the unit's interface (at least one), shown one per line.
#[derive(Debug, PartialEq, Eq)]
pub struct Mismatches(pub Vec<InterfaceError>);

impl fmt::Display for Mismatches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0[..] {
            [only] => write!(f, "{only}"),
            all => {
                write!(f, "{} mismatches:", all.len())?;
                for error in all {
                    write!(f, "\n  {error}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Mismatches {}

/// What binding `binding` of `spec`'s unit holds, as a line's words: "argument 1: float vector
/// of 4 values, packed (stride 16, or float elements of stride 4)".
fn describe(binding: u32, component: &TypeShape, components: u32, input: bool) -> String {
    let role = if input { "input" } else { "output" };
    let value = if components == 1 {
        component.clone()
    } else {
        TypeShape::Vector(Box::new(component.clone()), components)
    };
    let layout = if components == 1 || components == 3 {
        format!("{component} elements of ArrayStride {}", bytes(component))
    } else {
        format!(
            "{value} elements of ArrayStride {} or {component} elements of ArrayStride {}",
            bytes(&value),
            bytes(component)
        )
    };
    format!("{role} buffer {binding} of {value} values: a Block of one runtime array of {layout}")
}

/// The expected component type of a buffer of `kind`, and components per work-item.
fn expected_component(spec: &KernelSpec, kind: ValueKind) -> (TypeShape, u32) {
    let bits = kind.component_bits(spec.element);
    let component = if kind.is_integer() {
        TypeShape::Int(bits)
    } else {
        TypeShape::Float(bits)
    };
    (component, kind.components(spec.width))
}

/// The module's facts the check reads.
struct Facts<'a> {
    module: &'a Module,
}

impl<'a> Facts<'a> {
    fn definition(&self, id: Word) -> Option<&'a Instruction> {
        self.module
            .types_global_values
            .iter()
            .find(|instruction| instruction.result_id == Some(id))
    }

    /// The literal operands of `decoration` on `id`, if decorated.
    fn decoration(&self, id: Word, decoration: Decoration) -> Option<Vec<u32>> {
        self.module.annotations.iter().find_map(|instruction| {
            match (instruction.class.opcode, instruction.operands.as_slice()) {
                (Op::Decorate, [Operand::IdRef(target), Operand::Decoration(found), rest @ ..])
                    if *target == id && *found == decoration =>
                {
                    Some(literals(rest))
                }
                _ => None,
            }
        })
    }

    /// The literal operands of `decoration` on member `member` of struct `id`.
    fn member_decoration(&self, id: Word, member: u32, decoration: Decoration) -> Option<Vec<u32>> {
        self.module.annotations.iter().find_map(|instruction| {
            match (instruction.class.opcode, instruction.operands.as_slice()) {
                (
                    Op::MemberDecorate,
                    [Operand::IdRef(target), Operand::LiteralBit32(index), Operand::Decoration(found), rest @ ..],
                ) if *target == id && *index == member && *found == decoration => {
                    Some(literals(rest))
                }
                _ => None,
            }
        })
    }

    fn value_type(&self, id: Word, depth: u32) -> TypeShape {
        let Some(instruction) = self.definition(id) else {
            return TypeShape::Other(format!("undeclared type %{id}"));
        };
        let literal = |index: usize| match instruction.operands.get(index) {
            Some(Operand::LiteralBit32(value)) => *value,
            _ => 0,
        };
        match instruction.class.opcode {
            Op::TypeFloat => TypeShape::Float(literal(0)),
            Op::TypeInt => TypeShape::Int(literal(0)),
            Op::TypeVector if depth == 0 => match instruction.operands.first() {
                Some(Operand::IdRef(component)) => {
                    TypeShape::Vector(Box::new(self.value_type(*component, depth + 1)), literal(1))
                }
                _ => TypeShape::Other("vector".to_string()),
            },
            other => TypeShape::Other(format!("Op{other:?}")),
        }
    }

    /// The type `pointer_type` points to, if it is a pointer of storage class `storage`.
    fn pointee(&self, pointer_type: Word, storage: StorageClass) -> Option<Word> {
        let pointer = self.definition(pointer_type)?;
        match (pointer.class.opcode, pointer.operands.as_slice()) {
            (Op::TypePointer, [Operand::StorageClass(found), Operand::IdRef(pointee)])
                if *found == storage =>
            {
                Some(*pointee)
            }
            _ => None,
        }
    }

    /// The global variables of `storage` class, with their pointer types.
    fn variables(&self, storage: StorageClass) -> Vec<(Word, Word)> {
        self.module
            .types_global_values
            .iter()
            .filter(|instruction| instruction.class.opcode == Op::Variable)
            .filter(|instruction| {
                instruction.operands.first() == Some(&Operand::StorageClass(storage))
            })
            .filter_map(|instruction| Some((instruction.result_id?, instruction.result_type?)))
            .collect()
    }

    /// A buffer block's layout: `Block { T data[] }` with the array's element type and stride,
    /// or a one-line description of what it is instead.
    fn runtime_array_block(&self, block: Word) -> Result<(TypeShape, u32), String> {
        let definition = self
            .definition(block)
            .ok_or_else(|| format!("undeclared type %{block}"))?;
        let members: Vec<Word> = match definition.class.opcode {
            Op::TypeStruct => definition
                .operands
                .iter()
                .filter_map(|operand| match operand {
                    Operand::IdRef(id) => Some(*id),
                    _ => None,
                })
                .collect(),
            other => return Err(format!("an Op{other:?}, not a struct")),
        };
        if self.decoration(block, Decoration::Block).is_none() {
            return Err("a struct not decorated Block".to_string());
        }
        let [array] = members[..] else {
            return Err(format!("a Block of {} members", members.len()));
        };
        if self.member_decoration(block, 0, Decoration::Offset) != Some(vec![0]) {
            return Err("a Block whose array is not at Offset 0".to_string());
        }
        let array_definition = self
            .definition(array)
            .filter(|instruction| instruction.class.opcode == Op::TypeRuntimeArray)
            .ok_or_else(|| "a Block whose member is not a runtime array".to_string())?;
        let Some(Operand::IdRef(element)) = array_definition.operands.first() else {
            return Err("a runtime array of no type".to_string());
        };
        let stride = match self.decoration(array, Decoration::ArrayStride).as_deref() {
            Some([stride]) => *stride,
            _ => return Err("a runtime array without ArrayStride".to_string()),
        };
        Ok((self.value_type(*element, 0), stride))
    }
}

fn literals(operands: &[Operand]) -> Vec<u32> {
    operands
        .iter()
        .filter_map(|operand| match operand {
            Operand::LiteralBit32(value) => Some(*value),
            _ => None,
        })
        .collect()
}

/// Checks `spirv` (little-endian SPIR-V bytes) against the interface of clacc's shader for
/// `spec`: every mismatch, one line each.
pub fn check(spec: &KernelSpec, spirv: &[u8]) -> Result<(), Mismatches> {
    let module = crate::kernel::load_module_bytes(spirv)
        .map_err(|error| Mismatches(vec![InterfaceError::Unreadable(error.to_string())]))?;
    let facts = Facts { module: &module };
    let mut errors = Vec::new();
    entry_point(&facts, &mut errors);
    buffers(spec, &facts, &mut errors);
    push_constant(&facts, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Mismatches(errors))
    }
}

/// The float-controls execution modes `spirv`'s entry point [`ENTRY_POINT`] declares for
/// `element`'s bit width (`RoundingModeRTE`/`RTZ`, `DenormPreserve`/`DenormFlushToZero`,
/// `SignedZeroInfNanPreserve`): what a user's shader is judged by, not the modes clacc's own
/// shader would declare. `relaxed_precision` is left false: the run decides it. `None` where
/// the module cannot be read or has no such entry point.
pub fn declared_modes(spirv: &[u8], element: crate::num::fp::FloatType) -> Option<ShaderModes> {
    let module = crate::kernel::load_module_bytes(spirv).ok()?;
    let function = module
        .entry_points
        .iter()
        .find_map(|instruction| match instruction.operands.as_slice() {
            [Operand::ExecutionModel(ExecutionModel::GLCompute), Operand::IdRef(function), Operand::LiteralString(name), ..]
                if name == ENTRY_POINT =>
            {
                Some(*function)
            }
            _ => None,
        })?;
    let mut modes = ShaderModes::default();
    for instruction in &module.execution_modes {
        let [Operand::IdRef(target), Operand::ExecutionMode(mode), rest @ ..] =
            instruction.operands.as_slice()
        else {
            continue;
        };
        if *target != function || literals(rest) != [element.bits()] {
            continue;
        }
        match mode {
            ExecutionMode::RoundingModeRTE => modes.rounding = Some(RoundingMode::Rte),
            ExecutionMode::RoundingModeRTZ => modes.rounding = Some(RoundingMode::Rtz),
            ExecutionMode::DenormPreserve => modes.denorm = Some(DenormMode::Preserve),
            ExecutionMode::DenormFlushToZero => modes.denorm = Some(DenormMode::FlushToZero),
            ExecutionMode::SignedZeroInfNanPreserve => modes.signed_zero_inf_nan_preserve = true,
            _ => {}
        }
    }
    Some(modes)
}

/// Whether AllowReassoc holds for `spirv`'s instructions of `element`'s width, as the Vulkan
/// environment assumes it for an operation not decorated `NoContraction` where no fast-math
/// flags are given: `false` where the module decorates anything `NoContraction`, or gives
/// flags without AllowReassoc (an `FPFastMathMode` decoration, or the entry point's
/// `FPFastMathDefault` for a float type of that width), or cannot be read. Read for the whole
/// module, not only the instruction under test: a shader's other operations may only narrow it.
pub fn reassociation_allowed(spirv: &[u8], element: crate::num::fp::FloatType) -> bool {
    use rspirv::spirv::FPFastMathMode;
    let Ok(module) = crate::kernel::load_module_bytes(spirv) else {
        return false;
    };
    let narrowed = |flags: u32| flags & FPFastMathMode::ALLOW_REASSOC.bits() == 0;
    let decorated = module.annotations.iter().any(|instruction| {
        match instruction.operands.as_slice() {
            [_, Operand::Decoration(Decoration::NoContraction), ..] => true,
            [_, Operand::Decoration(Decoration::FPFastMathMode), Operand::FPFastMathMode(flags)] => {
                narrowed(flags.bits())
            }
            _ => false,
        }
    });
    let of_width = |id: Word| {
        module.types_global_values.iter().any(|instruction| {
            instruction.class.opcode == Op::TypeFloat
                && instruction.result_id == Some(id)
                && literals(&instruction.operands).first() == Some(&element.bits())
        })
    };
    let constant = |id: Word| {
        module.types_global_values.iter().find_map(|instruction| {
            (instruction.class.opcode == Op::Constant && instruction.result_id == Some(id))
                .then(|| literals(&instruction.operands).first().copied())
                .flatten()
        })
    };
    let by_default = module.execution_modes.iter().any(|instruction| {
        match instruction.operands.as_slice() {
            [_, Operand::ExecutionMode(ExecutionMode::FPFastMathDefault), Operand::IdRef(ty), Operand::IdRef(flags)] => {
                of_width(*ty) && constant(*flags).is_none_or(narrowed)
            }
            _ => false,
        }
    });
    !(decorated || by_default)
}

/// The `GLCompute` entry point [`ENTRY_POINT`] and its `LocalSize 64 1 1`.
fn entry_point(facts: &Facts, errors: &mut Vec<InterfaceError>) {
    let entry = facts.module.entry_points.iter().find(|instruction| {
        matches!(
            instruction.operands.as_slice(),
            [Operand::ExecutionModel(ExecutionModel::GLCompute), _, Operand::LiteralString(name), ..]
                if name == ENTRY_POINT
        )
    });
    let Some(Operand::IdRef(function)) = entry.and_then(|entry| entry.operands.get(1)) else {
        let found = facts
            .module
            .entry_points
            .iter()
            .filter_map(|instruction| match instruction.operands.as_slice() {
                [Operand::ExecutionModel(model), _, Operand::LiteralString(name), ..] => {
                    Some(format!("{model:?} {name}"))
                }
                _ => None,
            })
            .collect();
        errors.push(InterfaceError::NoEntryPoint { found });
        return;
    };
    let local_size = facts
        .module
        .execution_modes
        .iter()
        .find_map(|instruction| match instruction.operands.as_slice() {
            [Operand::IdRef(target), Operand::ExecutionMode(ExecutionMode::LocalSize), rest @ ..]
                if target == function =>
            {
                Some(literals(rest))
            }
            [Operand::IdRef(target), Operand::ExecutionMode(mode), ..]
                if target == function && *mode == ExecutionMode::LocalSizeId =>
            {
                Some(Vec::new())
            }
            _ => None,
        });
    match local_size {
        Some(size) if size == [LOCAL_SIZE, 1, 1] => {}
        Some(size) if size.is_empty() => errors.push(InterfaceError::LocalSize {
            found: "LocalSizeId (specialization constants)".to_string(),
        }),
        Some(size) => errors.push(InterfaceError::LocalSize {
            found: size
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        }),
        None => errors.push(InterfaceError::LocalSize {
            found: "none".to_string(),
        }),
    }
}

/// One storage buffer per kernel argument at `DescriptorSet 0, Binding i`, and nothing else
/// bound.
fn buffers(spec: &KernelSpec, facts: &Facts, errors: &mut Vec<InterfaceError>) {
    let kinds: Vec<ValueKind> = spec
        .argument_kinds()
        .into_iter()
        .chain(spec.result_kinds())
        .collect();
    let mut bound: Vec<(u32, u32, Word, Word, StorageClass)> = Vec::new();
    for storage in [
        StorageClass::StorageBuffer,
        StorageClass::Uniform,
        StorageClass::UniformConstant,
    ] {
        for (variable, pointer) in facts.variables(storage) {
            let set = facts.decoration(variable, Decoration::DescriptorSet);
            let binding = facts.decoration(variable, Decoration::Binding);
            if let (Some([set]), Some([binding])) = (set.as_deref(), binding.as_deref()) {
                bound.push((*set, *binding, variable, pointer, storage));
            }
        }
    }
    for (binding, kind) in (0u32..).zip(&kinds) {
        let (component, components) = expected_component(spec, *kind);
        let input = (binding as usize) < spec.input_count();
        let expected = describe(binding, &component, components, input);
        let Some(&(_, _, _, pointer, storage)) = bound
            .iter()
            .find(|(set, found, ..)| *set == 0 && *found == binding)
        else {
            errors.push(InterfaceError::MissingBuffer { binding, expected });
            continue;
        };
        let found = match facts.pointee(pointer, StorageClass::StorageBuffer) {
            None => Err(format!("a {storage:?} variable, not a StorageBuffer")),
            Some(block) => facts.runtime_array_block(block),
        };
        let vector = TypeShape::Vector(Box::new(component.clone()), components);
        let fits = |element: &TypeShape, stride: u32| {
            let scalar = *element == component && stride == bytes(&component);
            let whole = components != 1
                && components != 3
                && *element == vector
                && stride == bytes(&vector);
            scalar || whole
        };
        match found {
            Ok((element, stride)) if fits(&element, stride) => {}
            Ok((element, stride)) => errors.push(InterfaceError::Buffer {
                binding,
                expected,
                found: format!("a runtime array of {element} with ArrayStride {stride}"),
            }),
            Err(found) => errors.push(InterfaceError::Buffer {
                binding,
                expected,
                found,
            }),
        }
    }
    for (set, binding, ..) in bound {
        if set != 0 || binding as usize >= kinds.len() {
            errors.push(InterfaceError::ExtraBinding { set, binding });
        }
    }
}

/// The push-constant block whose first member is the `uint` count at offset 0.
fn push_constant(facts: &Facts, errors: &mut Vec<InterfaceError>) {
    let variables = facts.variables(StorageClass::PushConstant);
    let [(_, pointer)] = variables[..] else {
        errors.push(InterfaceError::PushConstant {
            found: format!("{} push-constant variables", variables.len()),
        });
        return;
    };
    let Some(block) = facts.pointee(pointer, StorageClass::PushConstant) else {
        return;
    };
    let first_member = facts
        .definition(block)
        .filter(|definition| definition.class.opcode == Op::TypeStruct)
        .and_then(|definition| match definition.operands.first() {
            Some(Operand::IdRef(member)) => Some(facts.value_type(*member, 0)),
            _ => None,
        });
    let offset = facts.member_decoration(block, 0, Decoration::Offset);
    match (first_member, offset.as_deref()) {
        (Some(TypeShape::Int(32)), Some([0])) => {}
        (Some(member), Some([offset])) => errors.push(InterfaceError::PushConstant {
            found: format!("a {member} at offset {offset}"),
        }),
        (Some(member), _) => errors.push(InterfaceError::PushConstant {
            found: format!("a {member} without an Offset"),
        }),
        (None, _) => errors.push(InterfaceError::PushConstant {
            found: "a push constant that is not a struct".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::spirv_vulkan::{build, ShaderModes};
    use crate::kernel::{function_spec as spec, words_to_bytes};
    use crate::num::fp::FloatType;

    fn shader(spec: &KernelSpec) -> Vec<u8> {
        words_to_bytes(&build(spec, &ShaderModes::default()).unwrap())
    }

    fn messages(spec: &KernelSpec, bytes: &[u8]) -> Vec<String> {
        check(spec, bytes)
            .unwrap_err()
            .0
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn every_shader_clacc_builds_has_its_own_interface() {
        for (name, width) in [
            ("sin", 1),
            ("sin", 3),
            ("pow", 4),
            ("fma", 2),
            ("ldexp", 3),
            ("frexp", 4),
            ("modf", 3),
            ("length", 3),
            ("distance", 2),
            ("OpDot", 4),
            ("cross", 3),
        ] {
            for element in [FloatType::Half, FloatType::Float] {
                let spec = spec(name, element, width);
                assert_eq!(check(&spec, &shader(&spec)), Ok(()), "{name} w{width}");
            }
        }
    }

    #[test]
    fn another_type_width_or_count_is_refused_one_line_per_buffer() {
        let float = spec("sin", FloatType::Float, 1);
        let double = messages(&float, &shader(&spec("sqrt", FloatType::Double, 1)));
        assert_eq!(double.len(), 2, "{double:?}");
        assert!(
            double[0].contains("Binding 0 is a runtime array of double with ArrayStride 8")
                && double[0].contains("input buffer 0 of float values"),
            "{double:?}"
        );
        assert!(double[1].contains("output buffer 1"), "{double:?}");
        let wide = messages(&float, &shader(&spec("sin", FloatType::Float, 4)));
        assert!(
            wide[0].contains("float vector of 4 with ArrayStride 16"),
            "{wide:?}"
        );
        let four = spec("sin", FloatType::Float, 4);
        assert_eq!(
            check(&four, &shader(&spec("sin", FloatType::Float, 4))),
            Ok(())
        );
        let binary = messages(&float, &shader(&spec("pow", FloatType::Float, 1)));
        assert_eq!(
            binary,
            [
                "DescriptorSet 0, Binding 2 is none of the kernel's buffers, which are \
              DescriptorSet 0, Bindings 0 to the argument count"
            ]
        );
        let pow = spec("pow", FloatType::Float, 1);
        let unary = messages(&pow, &shader(&float));
        assert!(
            unary[0].starts_with("no StorageBuffer at DescriptorSet 0, Binding 2"),
            "{unary:?}"
        );
        // frexp's second output is an int buffer.
        let frexp = spec("frexp", FloatType::Float, 2);
        let modf = messages(&frexp, &shader(&spec("modf", FloatType::Float, 2)));
        assert!(
            modf[0].contains("Binding 2") && modf[0].contains("32-bit int"),
            "{modf:?}"
        );
    }

    /// float_controls2's `FPFastMathDefault` is an `OpExecutionModeId`, which rspirv's own
    /// loader refuses: a user's shader declaring it must still be read, in either byte order.
    #[test]
    fn a_shader_with_an_execution_mode_id_is_read_in_either_byte_order() {
        use rspirv::dr::Instruction;
        use rspirv::spirv::{ExecutionMode, Op};
        let float = spec("sin", FloatType::Float, 1);
        let mut module = crate::kernel::load_module_bytes(&shader(&float)).unwrap();
        let function = module.entry_points[0].operands[1].clone();
        let id_of = |op: Op| {
            module
                .types_global_values
                .iter()
                .find(|i| i.class.opcode == op)
                .and_then(|i| i.result_id)
                .unwrap()
        };
        let (float_type, constant) = (id_of(Op::TypeFloat), id_of(Op::Constant));
        module.execution_modes.push(Instruction::new(
            Op::ExecutionModeId,
            None,
            None,
            vec![
                function,
                Operand::ExecutionMode(ExecutionMode::FPFastMathDefault),
                Operand::IdRef(float_type),
                Operand::IdRef(constant),
            ],
        ));
        let words = rspirv::binary::Assemble::assemble(&module);
        assert_eq!(check(&float, &words_to_bytes(&words)), Ok(()));
        let big_endian: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(check(&float, &big_endian), Ok(()));
        let read = crate::kernel::load_module_bytes(&big_endian).unwrap();
        assert_eq!(
            read.execution_modes.last().unwrap().class.opcode,
            Op::ExecutionModeId
        );
    }

    /// AllowReassoc holds for clacc's own shader; NoContraction anywhere, an FPFastMathMode
    /// decoration without it, or FPFastMathDefault without it for the element's width take it
    /// away; FPFastMathDefault with it, or for another width, does not.
    #[test]
    fn reassociation_is_allowed_unless_the_shader_takes_it_away() {
        use rspirv::dr::Instruction;
        use rspirv::spirv::FPFastMathMode;
        let float = spec("sin", FloatType::Float, 1);
        let bytes = shader(&float);
        assert!(reassociation_allowed(&bytes, FloatType::Float));
        let module = crate::kernel::load_module_bytes(&bytes).unwrap();
        let function = module.entry_points[0].operands[1].clone();
        let id_of = |module: &Module, op: Op, width: u32| {
            module
                .types_global_values
                .iter()
                .find(|i| i.class.opcode == op && literals(&i.operands).first() == Some(&width))
                .and_then(|i| i.result_id)
                .unwrap()
        };
        let (float_type, uint) = (
            id_of(&module, Op::TypeFloat, 32),
            id_of(&module, Op::TypeInt, 32),
        );
        let words = |module: &Module| words_to_bytes(&rspirv::binary::Assemble::assemble(module));
        let with_default = |ty: Word, flags: FPFastMathMode| {
            let mut module = module.clone();
            let header = module.header.as_mut().unwrap();
            let constant = header.bound;
            header.bound += 1;
            module.types_global_values.push(Instruction::new(
                Op::Constant,
                Some(uint),
                Some(constant),
                vec![Operand::LiteralBit32(flags.bits())],
            ));
            module.execution_modes.push(Instruction::new(
                Op::ExecutionModeId,
                None,
                None,
                vec![
                    function.clone(),
                    Operand::ExecutionMode(ExecutionMode::FPFastMathDefault),
                    Operand::IdRef(ty),
                    Operand::IdRef(constant),
                ],
            ));
            words(&module)
        };
        let strict = with_default(float_type, FPFastMathMode::NONE);
        assert!(!reassociation_allowed(&strict, FloatType::Float));
        assert!(reassociation_allowed(&strict, FloatType::Double));
        let reassoc = FPFastMathMode::ALLOW_REASSOC | FPFastMathMode::ALLOW_CONTRACT;
        assert!(reassociation_allowed(
            &with_default(float_type, reassoc),
            FloatType::Float
        ));
        let decorated = |decoration: Vec<Operand>| {
            let mut module = module.clone();
            let target = module.types_global_values[0].result_id.unwrap();
            let mut operands = vec![Operand::IdRef(target)];
            operands.extend(decoration);
            module
                .annotations
                .push(Instruction::new(Op::Decorate, None, None, operands));
            words(&module)
        };
        let no_contraction = decorated(vec![Operand::Decoration(Decoration::NoContraction)]);
        assert!(!reassociation_allowed(&no_contraction, FloatType::Float));
        let flags = |flags| {
            decorated(vec![
                Operand::Decoration(Decoration::FPFastMathMode),
                Operand::FPFastMathMode(flags),
            ])
        };
        assert!(!reassociation_allowed(
            &flags(FPFastMathMode::NSZ),
            FloatType::Float
        ));
        assert!(reassociation_allowed(&flags(reassoc), FloatType::Float));
        assert!(!reassociation_allowed(&[1, 2, 3, 4], FloatType::Float));
    }

    #[test]
    fn entry_point_local_size_and_push_constant_are_checked() {
        let float = spec("sin", FloatType::Float, 1);
        let mut module = rspirv::dr::load_bytes(shader(&float)).unwrap();
        module.entry_points[0].operands[2] = Operand::LiteralString("main".into());
        module.execution_modes[0].operands[2] = Operand::LiteralBit32(32);
        module.types_global_values.retain(|i| {
            i.operands.first() != Some(&Operand::StorageClass(StorageClass::PushConstant))
        });
        let bytes = words_to_bytes(&rspirv::binary::Assemble::assemble(&module));
        let errors = check(&float, &bytes).unwrap_err();
        assert_eq!(
            errors.to_string(),
            "2 mismatches:\n  no GLCompute entry point named clacc_kernel (it has: GLCompute \
             main)\n  expected a push-constant block with the uint work-item count at offset 0, \
             found 0 push-constant variables"
        );
        assert_eq!(
            errors.0,
            [
                InterfaceError::NoEntryPoint {
                    found: vec!["GLCompute main".to_string()]
                },
                InterfaceError::PushConstant {
                    found: "0 push-constant variables".to_string()
                }
            ]
        );
        let mut module = rspirv::dr::load_bytes(shader(&float)).unwrap();
        module.execution_modes[0].operands[2] = Operand::LiteralBit32(32);
        let bytes = words_to_bytes(&rspirv::binary::Assemble::assemble(&module));
        assert_eq!(
            messages(&float, &bytes),
            ["clacc_kernel has local size 32 1 1, expected LocalSize 64 1 1"]
        );
        assert!(matches!(
            check(&float, &[1, 2, 3, 4]).unwrap_err().0[..],
            [InterfaceError::Unreadable(_)]
        ));
    }
}
