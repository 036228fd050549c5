//! Checks a user's OpenCL C kernel (`--kernel FUNCTION=FILE.cl`) against the interface of
//! clacc's own kernel for the unit, from the driver's description of what it compiled
//! (`clGetKernelArgInfo` after a build with `-cl-kernel-arg-info`) rather than from the C text,
//! which macros, typedefs and includes make unreliable to read: one kernel named
//! [`ENTRY_POINT`], as many parameters as the unit has buffers, each a `__global` pointer to the
//! buffer's component type. A kernel that differs would read or write its buffers out of
//! bounds, and its results would be judged as if they were the function's.

use std::fmt;

use super::component_type;
use crate::kernel::{KernelSpec, ENTRY_POINT};
use crate::spec::signature::ValueKind;

/// One kernel parameter as the driver describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Whether its address qualifier is `__global` (`CL_KERNEL_ARG_ADDRESS_GLOBAL`).
    pub global: bool,
    /// `CL_KERNEL_ARG_TYPE_NAME`: the unqualified type, e.g. `float*`, `float4*`, `int*`.
    pub type_name: String,
}

impl fmt::Display for Parameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let address = if self.global { "__global " } else { "" };
        write!(f, "{address}{}", self.type_name)
    }
}

/// How a user's kernel differs from the unit's interface.
#[derive(Debug, PartialEq, Eq)]
pub enum InterfaceError {
    /// No kernel named [`ENTRY_POINT`]; the names it has.
    NoEntryPoint { found: Vec<String> },
    /// Another number of parameters.
    ParameterCount {
        expected: usize,
        found: usize,
        expected_types: String,
    },
    /// Parameter `index` (0-based) is another type or not `__global`.
    Parameter {
        index: usize,
        expected: String,
        found: String,
    },
}

impl fmt::Display for InterfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterfaceError::NoEntryPoint { found } => write!(
                f,
                "no kernel named {ENTRY_POINT} (it has: {})",
                if found.is_empty() {
                    "none".to_string()
                } else {
                    found.join(", ")
                }
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
                "parameter {} of {ENTRY_POINT} is {found}, expected {expected}",
                index + 1
            ),
        }
    }
}

impl std::error::Error for InterfaceError {}

/// The pointee types a parameter of `kind` may have: its component type, which clacc's own
/// kernel takes (`vloadN` reads the packed buffer), or the vector of the unit's width, which
/// addresses the same packed elements. Never a 3-vector, whose 4-component stride would read
/// past each work-item's value.
fn allowed_pointees(spec: &KernelSpec, kind: ValueKind) -> Vec<String> {
    let component = component_type(kind, spec.element);
    let mut allowed = vec![component.to_string()];
    match kind.components(spec.width) {
        1 | 3 => {}
        n => allowed.push(format!("{component}{n}")),
    }
    allowed
}

/// What the expected parameter looks like in a message: `__global float*`.
fn expected_text(spec: &KernelSpec, kind: ValueKind) -> String {
    let pointees: Vec<String> = allowed_pointees(spec, kind)
        .iter()
        .map(|pointee| format!("__global {pointee}*"))
        .collect();
    pointees.join(" or ")
}

/// Checks a user's kernel against the interface of clacc's kernel for `spec`: `kernels` are
/// the names the program holds (`CL_PROGRAM_KERNEL_NAMES`), `parameters` those of its
/// [`ENTRY_POINT`] kernel.
pub fn check(
    spec: &KernelSpec,
    kernels: &[String],
    parameters: &[Parameter],
) -> Result<(), InterfaceError> {
    if !kernels.iter().any(|name| name == ENTRY_POINT) {
        return Err(InterfaceError::NoEntryPoint {
            found: kernels.to_vec(),
        });
    }
    let kinds: Vec<ValueKind> = spec
        .argument_kinds()
        .into_iter()
        .chain(spec.result_kinds())
        .collect();
    if parameters.len() != kinds.len() {
        return Err(InterfaceError::ParameterCount {
            expected: kinds.len(),
            found: parameters.len(),
            expected_types: kinds
                .iter()
                .map(|kind| expected_text(spec, *kind))
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    for (index, (parameter, kind)) in parameters.iter().zip(&kinds).enumerate() {
        let pointee = parameter
            .type_name
            .trim()
            .strip_suffix('*')
            .map(str::trim_end);
        let fits = parameter.global
            && pointee.is_some_and(|pointee| {
                allowed_pointees(spec, *kind)
                    .iter()
                    .any(|allowed| allowed == pointee)
            });
        if !fits {
            return Err(InterfaceError::Parameter {
                index,
                expected: expected_text(spec, *kind),
                found: parameter.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fp::FloatType;

    use crate::kernel::function_spec as spec;

    fn global(type_name: &str) -> Parameter {
        Parameter {
            global: true,
            type_name: type_name.to_string(),
        }
    }

    fn entry() -> Vec<String> {
        vec![ENTRY_POINT.to_string()]
    }

    #[test]
    fn clacc_s_own_parameters_and_vector_pointers_fit() {
        let frexp = spec("frexp", FloatType::Double, 4);
        let own = [global("double*"), global("double*"), global("int*")];
        assert_eq!(check(&frexp, &entry(), &own), Ok(()));
        let vectors = [global("double4*"), global("double4 *"), global("int4*")];
        assert_eq!(check(&frexp, &entry(), &vectors), Ok(()));
        let nan = spec("nan", FloatType::Half, 1);
        assert_eq!(
            check(&nan, &entry(), &[global("ushort*"), global("half*")]),
            Ok(())
        );
        let length = spec("length", FloatType::Float, 4);
        assert_eq!(
            check(&length, &entry(), &[global("float4*"), global("float*")]),
            Ok(())
        );
    }

    #[test]
    fn another_type_count_address_space_or_a_3_vector_is_refused_with_both_sides() {
        let sin = spec("sin", FloatType::Float, 3);
        let message = check(&sin, &entry(), &[global("float3*"), global("float*")])
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "parameter 1 of clacc_kernel is __global float3*, expected __global float*"
        );
        let local = Parameter {
            global: false,
            type_name: "float*".into(),
        };
        let message = check(&sin, &entry(), &[global("float*"), local])
            .unwrap_err()
            .to_string();
        assert!(message.contains("parameter 2") && message.contains("is float*"));
        let message = check(&sin, &entry(), &[global("float*")])
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "clacc_kernel has 1 parameters, expected 2 (inputs then outputs: __global float*, \
             __global float*)"
        );
        let ldexp = spec("ldexp", FloatType::Double, 2);
        let message = check(
            &ldexp,
            &entry(),
            &[global("double2*"), global("long2*"), global("double2*")],
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("expected __global int* or __global int2*"),
            "{message}"
        );
    }

    #[test]
    fn a_program_without_the_entry_point_names_what_it_has() {
        let sin = spec("sin", FloatType::Float, 1);
        let found = vec!["my_sin".to_string(), "helper".to_string()];
        assert_eq!(
            check(&sin, &found, &[]).unwrap_err().to_string(),
            "no kernel named clacc_kernel (it has: my_sin, helper)"
        );
    }
}
