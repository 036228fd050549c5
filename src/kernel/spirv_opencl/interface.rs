//! Checks a user module (`--kernel FUNCTION=FILE`) against the interface clacc's own kernel for
//! the unit has, before any driver sees it: the entry point's name, the addressing model, and
//! every parameter's type (pointer storage class, element type and width). A module that
//! differs would read or write its buffers out of bounds, or crash the driver, and its results
//! would be judged as if they were the function's.

use crate::kernel::{KernelSpec, TypeShape, ENTRY_POINT};
use crate::spec::signature::ValueKind;
use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{AddressingModel, Op, StorageClass, Word};
use std::fmt;

/// How a user module differs from the unit's interface.
#[derive(Debug, PartialEq, Eq)]
pub enum InterfaceError {
    /// Not a readable SPIR-V module.
    Unreadable(String),
    /// No `OpEntryPoint Kernel` named [`ENTRY_POINT`]; the names it has.
    NoEntryPoint { found: Vec<String> },
    /// Another addressing model than the device's address width needs.
    Addressing { expected: String, found: String },
    /// Another number of parameters.
    ParameterCount {
        expected: usize,
        found: usize,
        expected_types: String,
    },
    /// Parameter `index` (0-based) has another type.
    Parameter {
        index: usize,
        expected: String,
        found: String,
    },
}

impl fmt::Display for InterfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterfaceError::Unreadable(why) => write!(f, "not a readable SPIR-V module: {why}"),
            InterfaceError::NoEntryPoint { found } => write!(
                f,
                "no Kernel entry point named {ENTRY_POINT} (it has: {})",
                if found.is_empty() {
                    "none".to_string()
                } else {
                    found.join(", ")
                }
            ),
            InterfaceError::Addressing { expected, found } => write!(
                f,
                "its addressing model is {found}, the device needs {expected}"
            ),
            InterfaceError::ParameterCount {
                expected,
                found,
                expected_types,
            } => write!(
                f,
                "{ENTRY_POINT} has {found} parameters, expected {expected} (inputs then outputs: {expected_types})"
            ),
            InterfaceError::Parameter {
                index,
                expected,
                found,
            } => write!(
                f,
                "parameter {} of {ENTRY_POINT} is a {found}, expected a {expected}",
                index + 1
            ),
        }
    }
}

impl std::error::Error for InterfaceError {}

/// The buffer type clacc's kernel gives a parameter of `kind` (see `emit::gentype`: packed
/// 3-component vectors are addressed by component).
fn expected_parameter(spec: &KernelSpec, kind: ValueKind) -> TypeShape {
    let bits = kind.component_bytes(spec.element) as u32 * 8;
    let component = match kind {
        ValueKind::IntGentype | ValueKind::UintGentype => TypeShape::Int(bits),
        ValueKind::FloatGentype | ValueKind::FloatScalar => TypeShape::Float(bits),
    };
    let components = kind.components(spec.width);
    let pointee = if components == 1 || components == 3 {
        component
    } else {
        TypeShape::Vector(Box::new(component), components)
    };
    TypeShape::Pointer(StorageClass::CrossWorkgroup, Box::new(pointee))
}

fn shape_of(module: &Module, id: Word, depth: u32) -> TypeShape {
    let Some(instruction) = module
        .types_global_values
        .iter()
        .find(|i| i.result_id == Some(id))
    else {
        return TypeShape::Other(format!("undeclared type %{id}"));
    };
    let literal = |index: usize| match instruction.operands.get(index) {
        Some(Operand::LiteralBit32(value)) => *value,
        _ => 0,
    };
    let reference = |index: usize| match instruction.operands.get(index) {
        Some(Operand::IdRef(value)) => *value,
        _ => 0,
    };
    if depth > 8 {
        return TypeShape::Other("nested type".to_string());
    }
    match instruction.class.opcode {
        Op::TypeFloat => TypeShape::Float(literal(0)),
        Op::TypeInt => TypeShape::Int(literal(0)),
        Op::TypeVector => TypeShape::Vector(
            Box::new(shape_of(module, reference(0), depth + 1)),
            literal(1),
        ),
        Op::TypePointer => match instruction.operands.first() {
            Some(Operand::StorageClass(storage)) => TypeShape::Pointer(
                *storage,
                Box::new(shape_of(module, reference(1), depth + 1)),
            ),
            _ => TypeShape::Other("pointer".to_string()),
        },
        other => TypeShape::Other(format!("Op{other:?}")),
    }
}

fn entry_name(instruction: &Instruction) -> Option<String> {
    match instruction.operands.get(2) {
        Some(Operand::LiteralString(name)) => Some(name.clone()),
        _ => None,
    }
}

/// Checks `spirv` against the interface of clacc's kernel for `spec`.
pub fn check(spec: &KernelSpec, spirv: &[u8]) -> Result<(), InterfaceError> {
    let module = crate::kernel::load_module_bytes(spirv)
        .map_err(|e| InterfaceError::Unreadable(e.to_string()))?;
    let expected_addressing = if spec.address_bits == 64 {
        AddressingModel::Physical64
    } else {
        AddressingModel::Physical32
    };
    let found_addressing = module
        .memory_model
        .as_ref()
        .and_then(|i| match i.operands.first() {
            Some(Operand::AddressingModel(model)) => Some(*model),
            _ => None,
        });
    if found_addressing != Some(expected_addressing) {
        return Err(InterfaceError::Addressing {
            expected: format!("{expected_addressing:?}"),
            found: found_addressing.map_or("missing".to_string(), |m| format!("{m:?}")),
        });
    }
    let kernels: Vec<&Instruction> = module
        .entry_points
        .iter()
        .filter(|i| {
            matches!(
                i.operands.first(),
                Some(Operand::ExecutionModel(
                    rspirv::spirv::ExecutionModel::Kernel
                ))
            )
        })
        .collect();
    let entry = kernels
        .iter()
        .find(|i| entry_name(i).as_deref() == Some(ENTRY_POINT))
        .ok_or_else(|| InterfaceError::NoEntryPoint {
            found: kernels.iter().filter_map(|i| entry_name(i)).collect(),
        })?;
    let function_id = match entry.operands.get(1) {
        Some(Operand::IdRef(id)) => *id,
        _ => return Err(InterfaceError::NoEntryPoint { found: Vec::new() }),
    };
    let function = module
        .functions
        .iter()
        .find(|f| f.def.as_ref().and_then(|d| d.result_id) == Some(function_id))
        .ok_or_else(|| {
            InterfaceError::Unreadable(format!("entry point %{function_id} has no function"))
        })?;
    let expected: Vec<TypeShape> = spec
        .argument_kinds()
        .into_iter()
        .chain(spec.result_kinds())
        .map(|kind| expected_parameter(spec, kind))
        .collect();
    if function.parameters.len() != expected.len() {
        return Err(InterfaceError::ParameterCount {
            expected: expected.len(),
            found: function.parameters.len(),
            expected_types: expected
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    for (index, (parameter, wanted)) in function.parameters.iter().zip(&expected).enumerate() {
        let found = shape_of(&module, parameter.result_type.unwrap_or(0), 0);
        if &found != wanted {
            return Err(InterfaceError::Parameter {
                index,
                expected: wanted.to_string(),
                found: found.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::spirv_opencl::build;
    use crate::kernel::{reference_shapes, words_to_bytes};
    use crate::num::fp::FloatType;

    use crate::kernel::function_spec as spec;

    fn module(spec: &KernelSpec) -> Vec<u8> {
        words_to_bytes(&build(spec).unwrap())
    }

    #[test]
    fn every_module_clacc_builds_has_its_own_interface() {
        for spec in reference_shapes() {
            assert_eq!(check(&spec, &module(&spec)), Ok(()), "{}", spec.file_stem());
        }
    }

    #[test]
    fn another_type_width_count_or_addressing_is_refused_with_both_sides() {
        let float = spec("sin", FloatType::Float, 1);
        let double = module(&spec("sin", FloatType::Double, 1));
        let message = check(&float, &double).unwrap_err().to_string();
        assert!(
            message.contains("parameter 1") && message.contains("pointer to double"),
            "{message}"
        );
        assert!(message.contains("pointer to float"), "{message}");
        let wide = module(&spec("sin", FloatType::Float, 16));
        let message = check(&float, &wide).unwrap_err().to_string();
        assert!(message.contains("float vector of 16"), "{message}");
        let binary = module(&spec("pow", FloatType::Float, 1));
        let message = check(&float, &binary).unwrap_err().to_string();
        assert!(
            message.contains("has 3 parameters, expected 2"),
            "{message}"
        );
        let mut narrow = float;
        narrow.address_bits = 32;
        let message = check(&narrow, &module(&float)).unwrap_err().to_string();
        assert!(
            message.contains("Physical64") && message.contains("Physical32"),
            "{message}"
        );
        // frexp's second output is an int buffer.
        let frexp = spec("frexp", FloatType::Double, 4);
        let sin = spec("sin", FloatType::Double, 4);
        assert!(check(&frexp, &module(&sin)).is_err());
    }

    #[test]
    fn an_entry_point_of_another_name_is_refused_naming_what_is_there() {
        let float = spec("sin", FloatType::Float, 1);
        let mut module = rspirv::dr::load_bytes(module(&float)).unwrap();
        module.entry_points[0].operands[2] = Operand::LiteralString("main".into());
        let bytes = words_to_bytes(&rspirv::binary::Assemble::assemble(&module));
        assert_eq!(
            check(&float, &bytes),
            Err(InterfaceError::NoEntryPoint {
                found: vec!["main".to_string()]
            })
        );
        assert!(matches!(
            check(&float, &[1, 2, 3, 4]),
            Err(InterfaceError::Unreadable(_))
        ));
    }
}
