//! The OpenCL C environment's kernels: source text for `clCreateProgramWithSource`, one
//! template per signature class ([`Shape`]) as the SPIR-V emitter has, plus the conversion
//! units' kernels and the check of a user's `.cl` kernel interface ([`interface`]).
//!
//! # How the kernel convention is written in OpenCL C
//!
//! [`crate::kernel`]'s convention, as this environment's kernels follow it:
//! - `__kernel void clacc_kernel(...)`, every parameter a `__global` pointer to the
//!   component type (`const` for the inputs); work-item `g` is `get_global_id(0)`.
//! - Width 1 indexes its buffers (`in0[g]`); widths 2, 3, 4, 8 and 16 move through
//!   `vloadN(g, in0)` / `vstoreN(value, g, out0)`, which address in units of `N` components, so
//!   every buffer is packed whatever the width (a 3-vector included, which would take 4
//!   components through a `float3 *`).
//! - A pointer out-argument (`frexp`, `sincos`, `remquo`, `modf`, `fract`, `lgamma_r`) points to
//!   a private variable, stored to the second output after the call: OpenCL C 1.2 declares these
//!   built-ins for `__global`, `__local` and `__private` pointers, and a private one works in
//!   every version, with or without the generic address space.
//! - `length`, `distance` and `dot` store one scalar per work-item (`out0[g]`).
//! - A `half` or `double` element enables `cl_khr_fp16` / `cl_khr_fp64`.
//!
//! The instruction is written as the OpenCL C builtin of the same name (`sin`, `half_exp`,
//! `native_divide`), but where OpenCL C names it otherwise ([`builtin`]: `fclamp` is `clamp`,
//! `fmax_common` `max`), and the core arithmetic as the operators (`x + y`, `x / y`).
//! The source does not depend on the device's address bits: `size_t` follows the device.

pub mod interface;
#[cfg(test)]
mod tests;

use std::fmt::Write;

use super::{KernelError, KernelSpec, ENTRY_POINT};
use crate::num::fp::FloatType;
use crate::spec::conversion::Conversion;
use crate::spec::signature::{Instruction, OpenclStd100Op, ValueKind};

/// The kernel for `spec` as OpenCL C source (see the module doc for its convention).
pub fn source(spec: &KernelSpec) -> Result<String, KernelError> {
    spec.validate()?;
    if spec.element != FloatType::Float && float_only_in_opencl_c(spec.instruction) {
        return Err(KernelError::UnsupportedElement {
            instruction: spec.instruction,
            element: spec.element,
        });
    }
    let inputs = spec.argument_kinds();
    let outputs = spec.result_kinds();
    let mut text = format!(
        "// clacc kernel: {} {} w{} ({:?}), OpenCL C\n",
        spec.instruction.name(),
        spec.element.name(),
        spec.width,
        spec.shape
    );
    text.push_str(&extension_pragmas(&[spec.element]));
    if spec.instruction == Instruction::FMulFAdd {
        // The SPIR-V module's OpFMul then OpFAdd: two correctly rounded operations, not an
        // fma the compiler may otherwise contract them to (FP_CONTRACT is ON by default).
        // A relaxed build (-cl-mad-enable) may still fuse them, as Table 5's row allows.
        text.push_str("#pragma OPENCL FP_CONTRACT OFF\n");
    }
    let parameters: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(index, kind)| {
            format!(
                "__global const {} *in{index}",
                component_type(*kind, spec.element)
            )
        })
        .chain(outputs.iter().enumerate().map(|(index, kind)| {
            format!(
                "__global {} *out{index}",
                component_type(*kind, spec.element)
            )
        }))
        .collect();
    let _ = writeln!(
        text,
        "__kernel void {ENTRY_POINT}({})\n{{\n    size_t g = get_global_id(0);",
        parameters.join(", ")
    );
    let mut operands = Vec::new();
    for (index, kind) in inputs.iter().enumerate() {
        let components = kind.components(spec.width);
        let _ = writeln!(
            text,
            "    {} a{index} = {};",
            value_type(*kind, spec.element, spec.width),
            load(&format!("in{index}"), components)
        );
        operands.push(format!("a{index}"));
    }
    // The pointer out-argument's private variable, declared before the call that writes it.
    let pointed_to = outputs.get(1);
    if let Some(kind) = pointed_to {
        let _ = writeln!(
            text,
            "    {} r1;",
            value_type(*kind, spec.element, spec.width)
        );
        operands.push("&r1".to_string());
    }
    let _ = writeln!(
        text,
        "    {} r0 = {};",
        value_type(outputs[0], spec.element, spec.width),
        apply(spec.instruction, &operands)
    );
    for (index, kind) in outputs.iter().enumerate() {
        let _ = writeln!(
            text,
            "    {};",
            store(
                &format!("r{index}"),
                &format!("out{index}"),
                kind.components(spec.width)
            )
        );
    }
    text.push_str("}\n");
    Ok(text)
}

/// The file name of `spec`'s kernel, as `clacc kernels --emit --source opencl-c` writes it and
/// `kernels/opencl_c/` holds it: `sin_float_w4.cl`, without the address bits the source does
/// not depend on.
pub fn file_name(spec: &KernelSpec) -> String {
    format!(
        "{}_{}_w{}.cl",
        spec.instruction.name(),
        spec.element.name(),
        spec.width
    )
}

/// Whether OpenCL C declares the builtin for `float` only, where OpenCL.std takes every float
/// type: the `half_` and `native_` functions ("Built-in Math Functions": gentype is float only
/// for them, and `cl_khr_fp16` / `cl_khr_fp64` add no such overloads).
fn float_only_in_opencl_c(instruction: Instruction) -> bool {
    match instruction {
        Instruction::Ext(op) => {
            let name = builtin(op);
            name.starts_with("half_") || name.starts_with("native_")
        }
        _ => false,
    }
}

/// The OpenCL C builtin that is `op`: the OpenCL.std instruction's own name, but for the common
/// functions the OpenCL C chapter names otherwise (`fclamp` is `clamp`, `fmax_common` `max`),
/// as [`crate::spec::opencl_c::NAMES`] maps them.
pub fn builtin(op: OpenclStd100Op) -> &'static str {
    crate::spec::opencl_c::opencl_c_names(Instruction::Ext(op).name())[0]
}

/// The expression applying `instruction` to `operands` (the loaded arguments, then `&r1`).
fn apply(instruction: Instruction, operands: &[String]) -> String {
    let operator = |symbol: &str| format!("{} {symbol} {}", operands[0], operands[1]);
    match instruction {
        Instruction::FAdd => operator("+"),
        Instruction::FSub => operator("-"),
        Instruction::FMul => operator("*"),
        Instruction::FDiv => operator("/"),
        Instruction::FMulFAdd => format!("{} * {} + {}", operands[0], operands[1], operands[2]),
        Instruction::Dot => format!("dot({})", operands.join(", ")),
        Instruction::Ext(op) => format!("{}({})", builtin(op), operands.join(", ")),
    }
}

/// The `#pragma OPENCL EXTENSION` lines the element types need (`cl_khr_fp16`, `cl_khr_fp64`).
fn extension_pragmas(elements: &[FloatType]) -> String {
    let mut text = String::new();
    if elements.contains(&FloatType::Half) {
        text.push_str("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    }
    if elements.contains(&FloatType::Double) {
        text.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    text
}

/// The OpenCL C type of one component of a `kind` buffer.
pub fn component_type(kind: ValueKind, element: FloatType) -> &'static str {
    match kind {
        ValueKind::FloatGentype | ValueKind::FloatScalar => element.name(),
        ValueKind::IntGentype => "int",
        ValueKind::UintGentype => match element {
            FloatType::Half => "ushort",
            FloatType::Float => "uint",
            FloatType::Double => "ulong",
        },
    }
}

/// The OpenCL C type of the value of a `kind` at `width`: `float`, `float4`, `int3`.
fn value_type(kind: ValueKind, element: FloatType, width: u32) -> String {
    match kind.components(width) {
        1 => component_type(kind, element).to_string(),
        components => format!("{}{components}", component_type(kind, element)),
    }
}

/// Reads work-item `g`'s value of `buffer`, packed (see the module doc).
fn load(buffer: &str, components: u32) -> String {
    match components {
        1 => format!("{buffer}[g]"),
        n => format!("vload{n}(g, {buffer})"),
    }
}

/// Writes `value` as work-item `g`'s value of `buffer`, packed (see the module doc).
fn store(value: &str, buffer: &str, components: u32) -> String {
    match components {
        1 => format!("{buffer}[g] = {value}"),
        n => format!("vstore{n}({value}, g, {buffer})"),
    }
}

/// The OpenCL C name of a conversion unit's builtin: `convert_<destination>[_sat][_<mode>]`.
/// A conversion without a rounding decoration takes OpenCL C's default, as the SPIR-V
/// instruction without one does (to nearest even to a float, toward zero to an integer).
pub fn conversion_builtin(conversion: &Conversion) -> String {
    match conversion {
        Conversion::FloatToFloat { to, rounding, .. }
        | Conversion::IntToFloat { to, rounding, .. } => match rounding {
            Some(rounding) => format!("convert_{to}_{}", rounding.name()),
            None => format!("convert_{to}"),
        },
        Conversion::FloatToInt { to, saturated, .. } => {
            format!(
                "convert_{}{}",
                to.name(),
                if *saturated { "_sat" } else { "" }
            )
        }
    }
}

/// The kernel of a conversion unit: one scalar of the source read, converted and written per
/// work-item, the buffers those of the SPIR-V module
/// ([`crate::kernel::spirv_opencl::conversion`]'s convention: inputs then outputs, packed).
pub fn conversion_source(conversion: &Conversion) -> String {
    let (source, destination) = match conversion {
        Conversion::FloatToFloat { from, to, .. } => (from.name(), to.name()),
        Conversion::IntToFloat { from, to, .. } => (from.name(), to.name()),
        Conversion::FloatToInt { from, to, .. } => (from.name(), to.name()),
    };
    let mut text = format!("// clacc kernel {}, OpenCL C\n", conversion.name());
    text.push_str(&extension_pragmas(&conversion.float_types()));
    let _ = writeln!(
        text,
        "__kernel void {ENTRY_POINT}(__global const {source} *in0, __global {destination} *out0)\n\
         {{\n    size_t g = get_global_id(0);\n    out0[g] = {}(in0[g]);\n}}",
        conversion_builtin(conversion)
    );
    text
}
