//! SPIR-V emission for the conversion kernels and the extension checks: one kernel that loads
//! one scalar from each input buffer, lets the caller emit the instructions under test, and
//! stores one scalar into each output buffer.
//!
//! The convention is the one of `kernel` (see its module doc and `kernels/README.md`): entry
//! point `clacc_kernel`, execution model `Kernel`, `Physical32`/`Physical64 OpenCL` after the
//! device's address bits, `CrossWorkgroup` pointer parameters with the inputs first, one
//! work-item per element (`GlobalInvocationId.x`), packed buffers. Every kernel here is scalar
//! (width 1), so a buffer is simply an array of its element type.
//!
//! Float8 values (SPV_EXT_float8) travel through `uchar` buffers: the kernel loads an 8-bit
//! integer and `OpBitcast`s it to the float8 type (and the reverse before a store), so no
//! pointer to a float8 type is ever declared. `OpBitcast` is a conversion instruction, which
//! the extension allows on float8 values.

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FPEncoding, FunctionControl,
    FunctionParameterAttribute, MemoryAccess, MemoryModel, StorageClass, Word,
};

use crate::kernel::ENTRY_POINT;
use crate::num::float8::Float8Format;

/// The type of one buffer element and of the value the kernel loads from it or stores to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Scalar {
    /// An IEEE binary float of 16, 32 or 64 bits.
    Float(u32),
    /// An integer of 8, 16, 32 or 64 bits (SPIR-V integer types of a `Kernel` module have
    /// signedness 0; signedness lives in the instructions).
    Int(u32),
    /// A float8 value held in a `uchar` buffer.
    Float8(Float8Format),
}

impl Scalar {
    /// Bytes per buffer element.
    pub(crate) fn bytes(self) -> usize {
        match self {
            Scalar::Float(bits) | Scalar::Int(bits) => bits as usize / 8,
            Scalar::Float8(_) => 1,
        }
    }

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

/// The type of a buffer element: the value type, but `uchar` for float8.
fn storage_type(builder: &mut Builder, scalar: Scalar) -> Word {
    match scalar {
        Scalar::Float8(_) => builder.type_int(8, 0),
        other => value_type(builder, other),
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
