//! SPIR-V emission for the conversion kernels and the extension checks: one kernel that loads
//! one scalar from each input buffer, lets the caller emit the instructions under test, and
//! stores one scalar into each output buffer.
//!
//! The convention is the one of `kernel` and `kernel::spirv_opencl` (see their module docs and
//! `kernels/README.md`): entry point `clacc_kernel`, execution model `Kernel`,
//! `Physical32`/`Physical64 OpenCL` after the device's address bits, `CrossWorkgroup` pointer
//! parameters with the inputs first, one work-item per element (`GlobalInvocationId.x`),
//! packed buffers. Every kernel here is scalar
//! (width 1), so a buffer is simply an array of its element type.
//!
//! Float8 values (SPV_EXT_float8) travel through `uchar` buffers: the kernel loads an 8-bit
//! integer and `OpBitcast`s it to the float8 type (and the reverse before a store), so no
//! pointer to a float8 type is ever declared. `OpBitcast` is a conversion instruction, which
//! the extension allows on float8 values.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FPRoundingMode,
    FunctionControl, FunctionParameterAttribute, MemoryAccess, MemoryModel, StorageClass, Word,
};

use crate::kernel::spirv_checks::{storage_type, value_type};
use crate::kernel::ENTRY_POINT;
use crate::num::convert::Rounding;
use crate::spec::conversion::{Conversion, Scalar};

impl Scalar {
    /// The capabilities declaring this scalar's types needs, beyond `Kernel`.
    fn capabilities(self) -> Vec<Capability> {
        match self {
            Scalar::Float(16) => vec![Capability::Float16],
            Scalar::Float(64) => vec![Capability::Float64],
            Scalar::Int(8) => vec![Capability::Int8],
            Scalar::Int(16) => vec![Capability::Int16],
            Scalar::Int(64) => vec![Capability::Int64],
            Scalar::Float8(_) => vec![Capability::Int8, Capability::Float8EXT],
            _ => Vec::new(),
        }
    }
}

/// What precedes the types: version, extensions, capabilities, addressing.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    /// SPIR-V version (major, minor): 1.0 unless a feature needs a later one.
    pub version: (u8, u8),
    /// `OpExtension` names, in declaration order.
    pub extensions: Vec<&'static str>,
    /// Capabilities the body needs beyond those of the buffers' types.
    pub capabilities: Vec<Capability>,
    /// The device's `CL_DEVICE_ADDRESS_BITS`: 32 or 64.
    pub address_bits: u32,
}

impl Header {
    /// SPIR-V 1.0, no extension, no extra capability.
    pub(crate) fn plain(address_bits: u32) -> Header {
        Header {
            version: (1, 0),
            extensions: Vec::new(),
            capabilities: Vec::new(),
            address_bits,
        }
    }
}

/// What the body closure works with: the builder, the loaded inputs, the entry point's id.
pub(crate) struct Body<'a> {
    pub builder: &'a mut Builder,
    /// One value per input buffer, in order, already of its [`Scalar`]'s value type.
    pub inputs: Vec<Word>,
    /// The kernel function, which is also the entry point's id (for `OpExecutionMode`).
    pub entry_point: Word,
}

impl Body<'_> {
    /// The value type of `scalar` (the float8 type itself for [`Scalar::Float8`]).
    pub(crate) fn value_type(&mut self, scalar: Scalar) -> Word {
        value_type(self.builder, scalar)
    }
}

/// Capabilities in the order the module declares them: `Addresses`, `Kernel`, those of the
/// buffers' types (and of `size_t` for 64-bit addresses), then the header's extra ones. Each
/// appears once.
pub(crate) fn capabilities(header: &Header, scalars: &[Scalar]) -> Vec<Capability> {
    let mut needed = vec![Capability::Addresses, Capability::Kernel];
    let mut wanted: Vec<Capability> = scalars.iter().flat_map(|s| s.capabilities()).collect();
    if header.address_bits == 64 {
        wanted.push(Capability::Int64);
    }
    wanted.extend(header.capabilities.iter().copied());
    // A fixed order for the type capabilities keeps snapshots stable whatever the buffers'
    // order; the header's extras follow in its own order.
    let fixed = [
        Capability::Int8,
        Capability::Int16,
        Capability::Int64,
        Capability::Float16,
        Capability::Float64,
    ];
    for capability in fixed {
        if wanted.contains(&capability) {
            needed.push(capability);
        }
    }
    for capability in wanted {
        if !needed.contains(&capability) {
            needed.push(capability);
        }
    }
    needed
}

/// Builds a kernel reading one `inputs` element and writing one `outputs` element per
/// work-item. `body` gets the loaded inputs and returns the values to store, one per output,
/// each of that output's value type.
pub(crate) fn kernel(
    header: &Header,
    inputs: &[Scalar],
    outputs: &[Scalar],
    body: impl FnOnce(&mut Body) -> Result<Vec<Word>, rspirv::dr::Error>,
) -> Result<Vec<u32>, rspirv::dr::Error> {
    let mut builder = Builder::new();
    builder.set_version(header.version.0, header.version.1);
    let scalars: Vec<Scalar> = inputs.iter().chain(outputs).copied().collect();
    for capability in capabilities(header, &scalars) {
        builder.capability(capability);
    }
    for extension in &header.extensions {
        builder.extension(*extension);
    }
    let addressing = if header.address_bits == 64 {
        AddressingModel::Physical64
    } else {
        AddressingModel::Physical32
    };
    builder.memory_model(addressing, MemoryModel::OpenCL);

    let size = builder.type_int(header.address_bits, 0);
    let size3 = builder.type_vector(size, 3);
    let id_pointer = builder.type_pointer(None, StorageClass::Input, size3);
    let global_id = builder.variable(id_pointer, None, StorageClass::Input, None);
    builder.name(global_id, "global_invocation_id");
    builder.decorate(
        global_id,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );

    let pointers: Vec<Word> = scalars
        .iter()
        .map(|scalar| {
            let element = storage_type(&mut builder, *scalar);
            builder.type_pointer(None, StorageClass::CrossWorkgroup, element)
        })
        .collect();
    let void = builder.type_void();
    let function_type = builder.type_function(void, pointers.iter().copied());
    let function = builder.begin_function(void, None, FunctionControl::NONE, function_type)?;
    builder.name(function, ENTRY_POINT);
    let mut parameters = Vec::with_capacity(pointers.len());
    for (position, pointer) in pointers.iter().enumerate() {
        let parameter = builder.function_parameter(*pointer)?;
        if position < inputs.len() {
            builder.name(parameter, format!("in{position}"));
            builder.decorate(
                parameter,
                Decoration::FuncParamAttr,
                [Operand::FunctionParameterAttribute(
                    FunctionParameterAttribute::NoWrite,
                )],
            );
        } else {
            builder.name(parameter, format!("out{}", position - inputs.len()));
        }
        parameters.push(parameter);
    }

    builder.begin_block(None)?;
    let ids = builder.load(size3, None, global_id, None, [])?;
    let index = builder.composite_extract(size, None, ids, [0])?;
    let mut loaded = Vec::with_capacity(inputs.len());
    for (position, scalar) in inputs.iter().enumerate() {
        let element = builder.in_bounds_ptr_access_chain(
            pointers[position],
            None,
            parameters[position],
            index,
            [],
        )?;
        let stored = storage_type(&mut builder, *scalar);
        let value = builder.load(
            stored,
            None,
            element,
            Some(MemoryAccess::ALIGNED),
            [Operand::LiteralBit32(scalar.bytes() as u32)],
        )?;
        let value = match scalar {
            Scalar::Float8(_) => {
                let float8 = value_type(&mut builder, *scalar);
                builder.bitcast(float8, None, value)?
            }
            _ => value,
        };
        loaded.push(value);
    }
    let results = body(&mut Body {
        builder: &mut builder,
        inputs: loaded,
        entry_point: function,
    })?;
    assert_eq!(
        results.len(),
        outputs.len(),
        "the body returns one value per output"
    );
    for (position, (scalar, value)) in outputs.iter().zip(results).enumerate() {
        let parameter = inputs.len() + position;
        let value = match scalar {
            Scalar::Float8(_) => {
                let uchar = builder.type_int(8, 0);
                builder.bitcast(uchar, None, value)?
            }
            _ => value,
        };
        let element = builder.in_bounds_ptr_access_chain(
            pointers[parameter],
            None,
            parameters[parameter],
            index,
            [],
        )?;
        builder.store(
            element,
            value,
            Some(MemoryAccess::ALIGNED),
            [Operand::LiteralBit32(scalar.bytes() as u32)],
        )?;
    }
    builder.ret()?;
    builder.end_function()?;
    // SPIR-V 1.0-1.3 interfaces list only Input and Output variables: the builtin.
    builder.entry_point(ExecutionModel::Kernel, function, ENTRY_POINT, [global_id]);
    Ok(builder.module().assemble())
}

/// The SPIR-V `FPRoundingMode` of a [`Rounding`].
pub(crate) fn spirv_rounding(rounding: Rounding) -> FPRoundingMode {
    match rounding {
        Rounding::Rte => FPRoundingMode::RTE,
        Rounding::Rtz => FPRoundingMode::RTZ,
        Rounding::Rtp => FPRoundingMode::RTP,
        Rounding::Rtn => FPRoundingMode::RTN,
    }
}

/// Emits `conversion`'s instruction on `value` with its decoration, returning the result.
pub(crate) fn emit_conversion(
    body: &mut Body,
    conversion: &Conversion,
    value: Word,
) -> Result<Word, rspirv::dr::Error> {
    let result_type = body.value_type(conversion.destination());
    let builder = &mut *body.builder;
    let result = match conversion {
        Conversion::FloatToFloat { .. } => builder.f_convert(result_type, None, value)?,
        Conversion::IntToFloat { from, .. } if from.is_signed() => {
            builder.convert_s_to_f(result_type, None, value)?
        }
        Conversion::IntToFloat { .. } => builder.convert_u_to_f(result_type, None, value)?,
        Conversion::FloatToInt { to, .. } if to.is_signed() => {
            builder.convert_f_to_s(result_type, None, value)?
        }
        Conversion::FloatToInt { .. } => builder.convert_f_to_u(result_type, None, value)?,
    };
    match conversion {
        Conversion::FloatToFloat {
            rounding: Some(rounding),
            ..
        }
        | Conversion::IntToFloat {
            rounding: Some(rounding),
            ..
        } => builder.decorate(
            result,
            Decoration::FPRoundingMode,
            [Operand::FPRoundingMode(spirv_rounding(*rounding))],
        ),
        Conversion::FloatToInt {
            saturated: true, ..
        } => builder.decorate(result, Decoration::SaturatedConversion, []),
        _ => {}
    }
    Ok(result)
}

/// Why a module could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("unsupported device address width {0} bits (supported: 32, 64)")]
    AddressBits(u32),
    #[error("internal error building SPIR-V: {0}")]
    Builder(rspirv::dr::Error),
    #[error("clacc has no probe module for {0}")]
    NoProbeModule(String),
}

/// [`kernel`] with its builder error typed.
pub(crate) fn emit_kernel(
    header: &Header,
    inputs: &[Scalar],
    outputs: &[Scalar],
    body: impl FnOnce(&mut Body) -> Result<Vec<Word>, rspirv::dr::Error>,
) -> Result<Vec<u32>, BuildError> {
    kernel(header, inputs, outputs, body).map_err(BuildError::Builder)
}

/// The module for `conversion` on a device with `address_bits`-bit addresses: SPIR-V 1.0, no
/// extension, one scalar conversion per work-item (see the kernel convention in `kernel`).
pub fn build_module(conversion: &Conversion, address_bits: u32) -> Result<Vec<u32>, BuildError> {
    if address_bits != 32 && address_bits != 64 {
        return Err(BuildError::AddressBits(address_bits));
    }
    emit_kernel(
        &Header::plain(address_bits),
        &[conversion.source()],
        &[conversion.destination()],
        |body| {
            let value = body.inputs[0];
            Ok(vec![emit_conversion(body, conversion, value)?])
        },
    )
}

/// A file-name-safe stable name of a module: the unit's name and the address width,
/// `convert_float_to_half_rtz_a64`.
pub fn file_stem(conversion: &Conversion, address_bits: u32) -> String {
    format!("{}_a{address_bits}", conversion.name())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::num::convert::IntType;
    use crate::num::fp::FloatType;

    /// Where this module's disassembly snapshots live: a subfolder of `kernels/`, which the kernel
    /// module's own snapshot test does not list.
    fn snapshot_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/conversions")
    }

    use crate::kernel::spirv_opencl::tests::spirv_val;

    pub(crate) fn target_env(conversion: &Conversion) -> &'static str {
        if conversion.float_types().contains(&FloatType::Half) {
            "spv1.0"
        } else {
            "opencl2.2"
        }
    }

    #[test]
    fn every_conversion_module_passes_spirv_val() {
        let mut failures = Vec::new();
        let all = Conversion::all();
        // 6 float pairs and 24 integer-float pairs with 5 rounding choices, 24 float-integer pairs
        // with and without saturation.
        assert_eq!(all.len(), 6 * 5 + 24 * 5 + 24 * 2);
        for conversion in &all {
            for address_bits in [32, 64] {
                let name = file_stem(conversion, address_bits);
                match build_module(conversion, address_bits) {
                    Ok(words) => {
                        if let Err(complaint) = spirv_val(&name, &words, target_env(conversion)) {
                            failures.push(complaint);
                        }
                    }
                    Err(error) => failures.push(format!("{name}: {error}")),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// The validation above means something: spirv-val refuses a conversion module without the
    /// capability of its integer type, or with an `OpFConvert` between equal widths.
    #[test]
    fn spirv_val_refuses_broken_conversion_modules() {
        use rspirv::binary::Assemble;
        use rspirv::spirv::Capability;
        let conversion = Conversion::IntToFloat {
            from: IntType::U8,
            to: FloatType::Float,
            rounding: None,
        };
        let mut module = rspirv::dr::load_words(build_module(&conversion, 64).unwrap()).unwrap();
        let int8 = Operand::Capability(Capability::Int8);
        module.capabilities.retain(|c| c.operands[0] != int8);
        assert!(spirv_val("no Int8", &module.assemble(), "opencl2.2").is_err());

        let same_width = kernel(
            &Header::plain(64),
            &[Scalar::Float(32)],
            &[Scalar::Float(32)],
            |body| {
                let float = body.value_type(Scalar::Float(32));
                let value = body.inputs[0];
                Ok(vec![body.builder.f_convert(float, None, value)?])
            },
        )
        .unwrap();
        assert!(spirv_val("float to float", &same_width, "opencl2.2").is_err());
    }

    /// The modules with snapshots in `kernels/conversions/`: one per instruction, decoration kind
    /// and type family, and one with 32-bit addresses.
    fn snapshot_conversions() -> Vec<(Conversion, u32)> {
        vec![
            (
                Conversion::FloatToFloat {
                    from: FloatType::Float,
                    to: FloatType::Half,
                    rounding: Some(Rounding::Rtz),
                },
                64,
            ),
            (
                Conversion::FloatToFloat {
                    from: FloatType::Double,
                    to: FloatType::Float,
                    rounding: None,
                },
                64,
            ),
            (
                Conversion::IntToFloat {
                    from: IntType::I32,
                    to: FloatType::Float,
                    rounding: Some(Rounding::Rte),
                },
                64,
            ),
            (
                Conversion::IntToFloat {
                    from: IntType::U64,
                    to: FloatType::Half,
                    rounding: Some(Rounding::Rtp),
                },
                32,
            ),
            (
                Conversion::FloatToInt {
                    from: FloatType::Float,
                    to: IntType::U8,
                    saturated: true,
                },
                64,
            ),
            (
                Conversion::FloatToInt {
                    from: FloatType::Double,
                    to: IntType::I16,
                    saturated: false,
                },
                64,
            ),
        ]
    }

    #[test]
    fn conversion_snapshots_match_checked_in_disassembly() {
        let snapshots = snapshot_conversions()
            .into_iter()
            .map(|(conversion, address_bits)| {
                let words = build_module(&conversion, address_bits).unwrap();
                (
                    format!("{}.spvasm", file_stem(&conversion, address_bits)),
                    crate::kernel::spirv_opencl::disassemble(&words),
                )
            })
            .collect();
        crate::kernel::check_snapshots(
            &snapshot_dir(),
            snapshots,
            |name| name.starts_with("convert_"),
            "CLACC_BLESS=1 cargo test --lib conversion::",
        );
    }

    #[test]
    fn modules_apply_the_decoration_of_their_unit() {
        let text = |conversion: Conversion| {
            crate::kernel::spirv_opencl::disassemble(&build_module(&conversion, 64).unwrap())
        };
        let rtn = text(Conversion::IntToFloat {
            from: IntType::I64,
            to: FloatType::Double,
            rounding: Some(Rounding::Rtn),
        });
        assert!(
            rtn.contains("OpDecorate %") && rtn.contains("FPRoundingMode RTN"),
            "{rtn}"
        );
        assert!(rtn.contains("OpConvertSToF"), "{rtn}");
        let plain = text(Conversion::IntToFloat {
            from: IntType::U16,
            to: FloatType::Half,
            rounding: None,
        });
        assert!(!plain.contains("FPRoundingMode"), "{plain}");
        assert!(plain.contains("OpConvertUToF"), "{plain}");
        let saturated = text(Conversion::FloatToInt {
            from: FloatType::Half,
            to: IntType::I8,
            saturated: true,
        });
        assert!(saturated.contains("SaturatedConversion"), "{saturated}");
        assert!(saturated.contains("OpConvertFToS"), "{saturated}");
        assert!(!saturated.contains("OpExtension"), "{saturated}");
    }
}
