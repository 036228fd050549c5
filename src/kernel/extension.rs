//! The modules of the extension checks: one float8 conversion, the float_controls2
//! arithmetic under fast-math defaults or decorations, the arithmetic fence, and the minimal
//! probe module of each extension.

use rspirv::dr::Operand;
use rspirv::spirv::{Capability, Decoration, ExecutionMode, FPFastMathMode, Word};

use super::conversion::{emit_kernel, Body, BuildError, Header};
use crate::num::float8::Float8Format;
use crate::num::fp::FloatType;
use crate::spec::conversion::Scalar;
use crate::spec::extension::{
    ExtensionCheck, Fc2Check, Flags, Float8Check, Other, Via, ARITHMETIC_FENCE, FLOAT8,
    FLOAT_CONTROLS2,
};

impl ExtensionCheck {
    /// The module the device is handed (unchecked: [`validate::guard`] comes before any
    /// driver).
    pub fn module(&self, address_bits: u32) -> Result<Vec<u32>, BuildError> {
        match self {
            ExtensionCheck::Float8(check) => check.module(address_bits),
            ExtensionCheck::FloatControls2(check) => check.module(address_bits),
            ExtensionCheck::ArithmeticFence => fence_module(address_bits),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SPV_EXT_float8

impl Float8Check {
    /// The module: SPIR-V 1.0, `SPV_EXT_float8`, `Float8EXT`.
    pub fn module(&self, address_bits: u32) -> Result<Vec<u32>, BuildError> {
        let header = Header {
            version: (1, 0),
            extensions: vec![FLOAT8],
            capabilities: vec![Capability::Float8EXT],
            address_bits,
        };
        let check = *self;
        emit_kernel(&header, &[self.source()], &[self.destination()], |body| {
            let value = body.inputs[0];
            Ok(vec![emit_float8(body, &check, value)?])
        })
    }
}

/// The conversion instruction of a float8 check, decorated.
fn emit_float8(
    body: &mut Body,
    check: &Float8Check,
    value: Word,
) -> Result<Word, rspirv::dr::Error> {
    let result_type = body.value_type(check.destination());
    let builder = &mut *body.builder;
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
    match check {
        Float8Check::To { saturate: true, .. } => builder.decorate(
            result,
            Decoration::SaturatedToLargestFloat8NormalConversionEXT,
            [],
        ),
        Float8Check::From { saturate: true, .. } => {
            builder.decorate(result, Decoration::SaturatedConversion, [])
        }
        _ => {}
    }
    Ok(result)
}

// ---------------------------------------------------------------------------------------------
// SPV_KHR_float_controls2

impl Fc2Check {
    /// The module: SPIR-V 1.2, `SPV_KHR_float_controls2`, `FloatControls2`; inputs x, y;
    /// outputs x + y, x − y, x · y, x / y, −x.
    pub fn module(&self, address_bits: u32) -> Result<Vec<u32>, BuildError> {
        let (default, decoration) = match self.via {
            Via::Default => (self.flags.mode().bits(), None),
            Via::Decoration => (0, Some(self.flags.mode())),
        };
        fc2_module(address_bits, default, decoration, |_| {})
    }
}

/// A float_controls2 module with `FPFastMathDefault %float default`, each instruction
/// decorated with `decoration` when given, and `extra` called last (tests break rules there).
pub(crate) fn fc2_module(
    address_bits: u32,
    default: u32,
    decoration: Option<FPFastMathMode>,
    extra: impl FnOnce(&mut Body),
) -> Result<Vec<u32>, BuildError> {
    let header = Header {
        version: (1, 2),
        extensions: vec![FLOAT_CONTROLS2],
        capabilities: vec![Capability::FloatControls2],
        address_bits,
    };
    let float = Scalar::Float(32);
    emit_kernel(&header, &[float, float], &[float; 5], |body| {
        let float_type = body.value_type(float);
        let uint = body.builder.type_int(32, 0);
        let flags = body.builder.constant_bit32(uint, default);
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
        extra(body);
        Ok(results)
    })
}

// ---------------------------------------------------------------------------------------------
// SPV_EXT_arithmetic_fence

/// The flags of "fast" arithmetic in a module without float_controls2: NotNaN, NotInf, NSZ,
/// AllowRecip and Fast.
pub fn full_fast_math() -> FPFastMathMode {
    FPFastMathMode::NOT_NAN
        | FPFastMathMode::NOT_INF
        | FPFastMathMode::NSZ
        | FPFastMathMode::ALLOW_RECIP
        | FPFastMathMode::FAST
}

/// The fence module: SPIR-V 1.0, `SPV_EXT_arithmetic_fence`, `ArithmeticFenceEXT`; inputs
/// a, b, c (float); outputs `fence(a + b) + c` and, for information, `(a + b) + c` unfenced,
/// every addition decorated with [`full_fast_math`].
pub fn fence_module(address_bits: u32) -> Result<Vec<u32>, BuildError> {
    let header = Header {
        version: (1, 0),
        extensions: vec![ARITHMETIC_FENCE],
        capabilities: vec![Capability::ArithmeticFenceEXT],
        address_bits,
    };
    let float = Scalar::Float(32);
    emit_kernel(&header, &[float; 3], &[float; 2], |body| {
        let float_type = body.value_type(float);
        let (a, b, c) = (body.inputs[0], body.inputs[1], body.inputs[2]);
        let builder = &mut *body.builder;
        let sum = builder.f_add(float_type, None, a, b)?;
        let fenced = builder.arithmetic_fence_ext(float_type, None, sum)?;
        let result = builder.f_add(float_type, None, fenced, c)?;
        let open_sum = builder.f_add(float_type, None, a, b)?;
        let open = builder.f_add(float_type, None, open_sum, c)?;
        for add in [sum, result, open_sum, open] {
            builder.decorate(
                add,
                Decoration::FPFastMathMode,
                [Operand::FPFastMathMode(full_fast_math())],
            );
        }
        Ok(vec![result, open])
    })
}

// ---------------------------------------------------------------------------------------------
// Probe modules

/// The smallest module exercising `extension` (see [`crate::run::extension::probe::probe_module`]).
pub fn probe_kernel(extension: &str, address_bits: u32) -> Result<Vec<u32>, BuildError> {
    match extension {
        FLOAT8 => Float8Check::To {
            from: Other::Float(FloatType::Float),
            to: Float8Format::E4M3,
            saturate: false,
        }
        .module(address_bits),
        FLOAT_CONTROLS2 => Fc2Check {
            flags: Flags::None,
            via: Via::Default,
        }
        .module(address_bits),
        ARITHMETIC_FENCE => fence_module(address_bits),
        other => Err(BuildError::NoProbeModule(other.to_string())),
    }
}
