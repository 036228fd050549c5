//! The SPIR-V of the conversion and extension checks that is the same in every environment:
//! the types of a [`Scalar`]'s values and of its buffer elements, one float8 conversion, and
//! float_controls2's five instructions. Each environment's emitter (`spirv_opencl::conversion`
//! and `spirv_opencl::extension`, `spirv_vulkan::extension`) writes its own header, interface,
//! loads and stores around them.

use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{Decoration, FPEncoding, FPFastMathMode, Word};

use crate::num::float8::Float8Format;
use crate::spec::conversion::Scalar;
use crate::spec::extension::{Fc2Check, Float8Check, Other, Via};

/// The type of values of `scalar`: the float8 type itself for [`Scalar::Float8`]. Integers
/// carry no signedness in the type; the conversions read it from the instruction.
pub(crate) fn value_type(builder: &mut Builder, scalar: Scalar) -> Word {
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

/// The type of a buffer element: the value type, but `uchar` for float8 (float8 values travel
/// as bytes and are `OpBitcast` after the load and before the store, so no pointer to a float8
/// type is ever declared).
pub(crate) fn storage_type(builder: &mut Builder, scalar: Scalar) -> Word {
    match scalar {
        Scalar::Float8(_) => builder.type_int(8, 0),
        other => value_type(builder, other),
    }
}

/// The conversion instruction of `check` on `value`, its result of type `result_type`,
/// decorated `SaturatedToLargestFloat8NormalConversionEXT` where the check saturates to float8.
/// (Saturation to an integer is `SaturatedConversion`, a `Kernel` decoration: the OpenCL
/// emitter's alone.)
pub(crate) fn float8_conversion(
    builder: &mut Builder,
    check: &Float8Check,
    result_type: Word,
    value: Word,
) -> Result<Word, rspirv::dr::Error> {
    let result = match check {
        Float8Check::To {
            from: Other::Float(_),
            ..
        }
        | Float8Check::From {
            to: Other::Float(_),
            ..
        } => builder.f_convert(result_type, None, value)?,
        Float8Check::To {
            from: Other::Int(int),
            ..
        } if int.is_signed() => builder.convert_s_to_f(result_type, None, value)?,
        Float8Check::To { .. } => builder.convert_u_to_f(result_type, None, value)?,
        Float8Check::From {
            to: Other::Int(int),
            ..
        } if int.is_signed() => builder.convert_f_to_s(result_type, None, value)?,
        Float8Check::From { .. } => builder.convert_f_to_u(result_type, None, value)?,
    };
    if let Float8Check::To { saturate: true, .. } = check {
        builder.decorate(
            result,
            Decoration::SaturatedToLargestFloat8NormalConversionEXT,
            [],
        );
    }
    Ok(result)
}

/// What a float_controls2 check declares: the flags of its `FPFastMathDefault` for its type, and
/// the `FPFastMathMode` decoration of each instruction, if any. Through the default the flags
/// are the check's; through decorations the default is 0 and each instruction carries them.
pub(crate) fn fc2_flags(check: &Fc2Check) -> (u32, Option<FPFastMathMode>) {
    match check.via {
        Via::Default => (check.flags.mode().bits(), None),
        Via::Decoration => (0, Some(check.flags.mode())),
    }
}

/// float_controls2's five instructions on `float_type`: `x + y`, `x − y`, `x · y`, `x / y`,
/// `−x`, in that order, each decorated `FPFastMathMode` `decoration` where given.
pub(crate) fn fc2_arithmetic(
    builder: &mut Builder,
    float_type: Word,
    (x, y): (Word, Word),
    decoration: Option<FPFastMathMode>,
) -> Result<Vec<Word>, rspirv::dr::Error> {
    let results = vec![
        builder.f_add(float_type, None, x, y)?,
        builder.f_sub(float_type, None, x, y)?,
        builder.f_mul(float_type, None, x, y)?,
        builder.f_div(float_type, None, x, y)?,
        builder.f_negate(float_type, None, x)?,
    ];
    if let Some(mode) = decoration {
        for result in &results {
            builder.decorate(
                *result,
                Decoration::FPFastMathMode,
                [Operand::FPFastMathMode(mode)],
            );
        }
    }
    Ok(results)
}
