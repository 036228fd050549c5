//! The Vulkan environment for SPIR-V: which registry function is which Vulkan instruction
//! ([`INSTRUCTIONS`], written once: the emitter and the tables read it), which the vulkan path
//! plans ([`PLANNED`]) and which rows of the appendix's precision tables it leaves out
//! ([`LEFT_OUT`], each with why), and the cells the appendix needs beyond the OpenCL tables'
//! grammar ([`Cell`], read by [`parse_cell`]; `tables/README.md`, "The Vulkan cells").

use crate::num::fp::FloatType;
use crate::spec::table::{Requirement, UlpRow};

pub mod cell;
pub mod formula;
pub use cell::{number_text, parse_cell, Cell};

/// Every registry function the vulkan path plans, with its Vulkan instruction: a core
/// instruction (`OpFDiv`) or a GLSL.std.450 one (`InverseSqrt`). `fmin`/`fmax` are NMin/NMax
/// (a NaN operand gives the other, as OpenCL's fmin); `fmin_common`/`fmax_common` are FMin/FMax
/// (undefined with a NaN operand, as OpenCL's min/max); `fclamp` is FClamp; `fmod` is OpFRem
/// (the result takes x's sign, as C's fmod); `sign` is FSign. Order: the text's.
pub const INSTRUCTIONS: &[(&str, &str)] = &[
    ("OpFAdd", "OpFAdd"),
    ("OpFSub", "OpFSub"),
    ("OpFMul", "OpFMul"),
    ("OpDot", "OpDot"),
    ("OpFDiv", "OpFDiv"),
    ("fmod", "OpFRem"),
    ("fma", "Fma"),
    ("exp", "Exp"),
    ("exp2", "Exp2"),
    ("log", "Log"),
    ("log2", "Log2"),
    ("pow", "Pow"),
    ("sqrt", "Sqrt"),
    ("rsqrt", "InverseSqrt"),
    ("radians", "Radians"),
    ("degrees", "Degrees"),
    ("sin", "Sin"),
    ("cos", "Cos"),
    ("tan", "Tan"),
    ("asin", "Asin"),
    ("acos", "Acos"),
    ("atan", "Atan"),
    ("atan2", "Atan2"),
    ("sinh", "Sinh"),
    ("cosh", "Cosh"),
    ("tanh", "Tanh"),
    ("asinh", "Asinh"),
    ("acosh", "Acosh"),
    ("atanh", "Atanh"),
    ("frexp", "Frexp"),
    ("ldexp", "Ldexp"),
    ("length", "Length"),
    ("distance", "Distance"),
    ("cross", "Cross"),
    ("normalize", "Normalize"),
    ("rint", "RoundEven"),
    ("trunc", "Trunc"),
    ("fabs", "FAbs"),
    ("sign", "FSign"),
    ("floor", "Floor"),
    ("ceil", "Ceil"),
    ("modf", "Modf"),
    ("fmin_common", "FMin"),
    ("fmax_common", "FMax"),
    ("fclamp", "FClamp"),
    ("mix", "FMix"),
    ("step", "Step"),
    ("smoothstep", "SmoothStep"),
    ("fmin", "NMin"),
    ("fmax", "NMax"),
];

/// The registry functions the vulkan path plans: those with a Vulkan instruction and a row in
/// `tables/vulkan/ulp_full.csv` (test `the_rows_are_the_planned_functions`). Every other
/// registry function (the OpenCL-only ones: acospi, cbrt, erf, hypot, remquo, half_*, native_*,
/// ...) has no Vulkan instruction and is not planned there.
pub const PLANNED: [&str; 50] = {
    let mut names = [""; 50];
    let mut i = 0;
    while i < names.len() {
        names[i] = INSTRUCTIONS[i].0;
        i += 1;
    }
    names
};

/// The GLSL.std.450 instructions of [`INSTRUCTIONS`] that the extended set defines for 16- and
/// 32-bit floats only (spirv-val refuses them on 64-bit types): the trigonometric, hyperbolic,
/// exponential and logarithmic ones, `Pow`, `Radians` and `Degrees`. They have no `double` unit.
pub const HALF_AND_FLOAT_ONLY: [&str; 20] = [
    "Radians", "Degrees", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh",
    "Asinh", "Acosh", "Atanh", "Atan2", "Pow", "Exp", "Log", "Exp2", "Log2",
];

/// Whether Vulkan instruction `vulkan_instruction` (a name of [`INSTRUCTIONS`]) is defined for
/// values of type `element`: every one is but those of [`HALF_AND_FLOAT_ONLY`] at `double`.
pub fn defined_for(vulkan_instruction: &str, element: FloatType) -> bool {
    element != FloatType::Double || !HALF_AND_FLOAT_ONLY.contains(&vulkan_instruction)
}

/// The rows of the two precision tables the vulkan path does not check, by the text's
/// instruction names, with why.
pub const LEFT_OUT: &[(&str, &str)] = &[
    ("OpFNegate", "no registry function: negation is exact in every environment"),
    (
        "OpVectorTimesScalar",
        "no registry shape: a vector times a scalar is OpFMul per component",
    ),
    ("OpMatrixTimesScalar", "matrix operands: no registry shape"),
    ("OpMatrixTimesVector", "matrix operands: no registry shape"),
    ("OpVectorTimesMatrix", "matrix operands: no registry shape"),
    ("OpMatrixTimesMatrix", "matrix operands: no registry shape"),
    ("OpOuterProduct", "matrix result: no registry shape"),
    (
        "OpFmaKHR",
        "no registry function of its own (needs SPV_KHR_fma): the registry's fma is GLSL.std.450 Fma",
    ),
    ("OpIsNan", "boolean result: no registry shape"),
    ("OpIsInf", "boolean result: no registry shape"),
    ("OpFOrdEqual", "comparison: boolean result, no registry shape"),
    ("OpFUnordEqual", "comparison: boolean result, no registry shape"),
    ("OpFOrdNotEqual", "comparison: boolean result, no registry shape"),
    ("OpFUnordNotEqual", "comparison: boolean result, no registry shape"),
    ("OpFOrdLessThan", "comparison: boolean result, no registry shape"),
    ("OpFUnordLessThan", "comparison: boolean result, no registry shape"),
    ("OpFOrdGreaterThan", "comparison: boolean result, no registry shape"),
    ("OpFUnordGreaterThan", "comparison: boolean result, no registry shape"),
    ("OpFOrdLessThanEqual", "comparison: boolean result, no registry shape"),
    ("OpFUnordLessThanEqual", "comparison: boolean result, no registry shape"),
    ("OpFOrdGreaterThanEqual", "comparison: boolean result, no registry shape"),
    ("OpFUnordGreaterThanEqual", "comparison: boolean result, no registry shape"),
    ("OpSubgroupAllEqualKHR", "subgroup operation: no registry shape"),
    ("OpGroupNonUniformAllEqual", "subgroup operation: no registry shape"),
    ("OpGroupNonUniformFMin", "subgroup operation: no registry shape"),
    ("OpGroupNonUniformFMax", "subgroup operation: no registry shape"),
    (
        "OpFMod",
        "no registry function: a remainder with y's sign (x - y * floor(x / y)) is neither fmod nor remainder",
    ),
    (
        "OpQuantizeToF16",
        "no registry function: clacc's conversion checks cover OpFConvert",
    ),
    (
        "conversions between types",
        "judged by clacc's conversion checks, not by this table",
    ),
    ("OpAtomicCompareExchange", "atomic: no registry shape"),
    ("OpAtomicCompareExchangeWeak", "atomic: no registry shape"),
    ("OpAtomicFAddEXT", "atomic: no registry shape"),
    ("OpAtomicFMinEXT", "atomic: no registry shape"),
    ("OpAtomicFMaxEXT", "atomic: no registry shape"),
    ("OpDPdx", "derivative: fragment shaders only"),
    ("OpDPdy", "derivative: fragment shaders only"),
    ("OpFwidth", "derivative: fragment shaders only"),
    ("OpDPdxCoarse", "derivative: fragment shaders only"),
    ("OpDPdyCoarse", "derivative: fragment shaders only"),
    ("OpFwidthCoarse", "derivative: fragment shaders only"),
    ("OpDPdxFine", "derivative: fragment shaders only"),
    ("OpDPdyFine", "derivative: fragment shaders only"),
    ("OpFwidthFine", "derivative: fragment shaders only"),
    ("faceforward", "no registry function (faceforward, reflect, refract are GLSL-only)"),
    ("reflect", "no registry function (faceforward, reflect, refract are GLSL-only)"),
    ("refract", "no registry function (faceforward, reflect, refract are GLSL-only)"),
    (
        "round",
        "GLSL Round rounds 0.5 in a direction the implementation chooses; the registry's round \
         (OpenCL's) rounds it away from zero, so its reference would fail a conforming device",
    ),
    (
        "fract",
        "GLSL Fract is x - floor(x) correctly rounded (1.0 for a tiny negative x) with one \
         result; the registry's fract (OpenCL's) clamps below 1.0 and writes floor(x) too",
    ),
    (
        "nclamp",
        "no registry function of its own: the registry's fclamp is FClamp",
    ),
    (
        "packHalf2x16",
        "packing: no registry shape (conversion to half is checked as OpFConvert)",
    ),
];

/// The Vulkan instruction of a registry function, `None` where the vulkan path does not plan it.
pub fn instruction(registry_name: &str) -> Option<&'static str> {
    INSTRUCTIONS
        .iter()
        .find(|(registry, _)| *registry == registry_name)
        .map(|(_, vulkan)| *vulkan)
}

/// Whether GLSL.std.450 leaves the instruction of registry function `function` undefined at
/// `args` of type `element` (its text: Log and Log2 for x <= 0, InverseSqrt for x <= 0, Pow for
/// x < 0 or x = 0 with y <= 0, Atan2 for x and y both 0, Ldexp where the product is too large
/// for the type or the exponent is above +128 (single) or +1024 (double); the text names no
/// half limit, and clacc reads half's as its own emax + 1, +16, as the other two are).
pub fn undefined_at(function: &str, element: FloatType, args: &[f64]) -> bool {
    let x = args.first().copied().unwrap_or(f64::NAN);
    let y = args.get(1).copied().unwrap_or(f64::NAN);
    match function {
        "log" | "log2" | "rsqrt" => x <= 0.0,
        "pow" => x < 0.0 || (x == 0.0 && y <= 0.0),
        "atan2" => x == 0.0 && y == 0.0,
        "ldexp" => {
            // k clamped to f64's reach (2^k then inf or 0, which compares the same); a zero
            // or infinite x is left out, so 0 * inf never arises.
            let product = x.abs() * 2f64.powf(y.clamp(-4096.0, 4096.0));
            y > f64::from(element.emax() + 1)
                || (x.is_finite() && x != 0.0 && product > element.max_finite())
        }
        _ => false,
    }
}

/// Whether GLSL.std.450 lets the instruction of `function` return zero at `args` of type
/// `element` whatever its exact result: Ldexp "may be flushed to zero" when the exponent is
/// below -126 (single) or -1022 (double), half's read as its own emin, -14.
pub fn may_return_zero(function: &str, element: FloatType, args: &[f64]) -> bool {
    let k = args.get(1).copied().unwrap_or(f64::NAN);
    function == "ldexp" && k < f64::from(element.emin())
}

/// The registry name of a Vulkan instruction (`InverseSqrt` is `rsqrt`).
pub fn registry_name(vulkan_instruction: &str) -> Option<&'static str> {
    INSTRUCTIONS
        .iter()
        .find(|(_, vulkan)| *vulkan == vulkan_instruction)
        .map(|(registry, _)| *registry)
}

/// Which column of `tables/vulkan/ulp_full.csv` judges a result of type `element`, and the
/// type whose ulp its ULP counts are measured in. A float result decorated RelaxedPrecision
/// (`--profile relaxed` on the vulkan path) is judged by the half column (the table's header:
/// "Single precision, unless decorated with RelaxedPrecision | Half precision"), its ULP counted
/// in half's ulp, as the Vulkan CTS judges RelaxedPrecision results at mediump. Half and double
/// results ignore the decoration: the text relaxes only single precision.
pub fn column(row: &UlpRow, element: FloatType, relaxed: bool) -> (&Requirement, FloatType) {
    match (element, relaxed) {
        (FloatType::Float, true) => (&row.float16, FloatType::Half),
        _ => (row.requirement(element), element),
    }
}

#[cfg(test)]
mod text_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::environment::{Revision, VULKAN};
    use crate::spec::registry::FUNCTIONS;
    use crate::spec::table::{builtin_in, Profile};

    #[test]
    fn every_name_is_a_registry_function_once() {
        for (i, (registry, vulkan)) in INSTRUCTIONS.iter().enumerate() {
            assert!(
                FUNCTIONS.iter().any(|f| f.name == *registry),
                "{registry} is not a registry function"
            );
            assert_eq!(instruction(registry), Some(*vulkan));
            assert_eq!(registry_name(vulkan), Some(*registry));
            assert!(
                INSTRUCTIONS[..i]
                    .iter()
                    .all(|(r, v)| r != registry && v != vulkan),
                "{registry} / {vulkan} mapped twice"
            );
        }
        assert_eq!(PLANNED.len(), INSTRUCTIONS.len());
        assert_eq!(instruction("rsqrt"), Some("InverseSqrt"));
        assert_eq!(instruction("acospi"), None);
        assert_eq!(registry_name("RoundEven"), Some("rint"));
    }

    #[test]
    fn the_half_and_float_only_instructions_are_planned_ones() {
        for name in HALF_AND_FLOAT_ONLY {
            assert!(
                registry_name(name).is_some(),
                "{name} is no planned instruction"
            );
            assert!(!defined_for(name, FloatType::Double), "{name}");
            assert!(defined_for(name, FloatType::Half), "{name}");
        }
        assert!(defined_for("Sqrt", FloatType::Double));
    }

    #[test]
    fn the_rows_are_the_planned_functions_in_order() {
        let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
        let rows: Vec<&str> = table.rows.iter().map(|r| r.instruction.as_str()).collect();
        assert_eq!(rows, PLANNED);
        // "at least that of single precision": the double column reads the single cells.
        for row in &table.rows {
            assert_eq!(row.float64, row.float32, "{}", row.instruction);
        }
    }

    #[test]
    fn relaxed_precision_reads_the_half_column_in_half_ulp() {
        let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
        let exp = table.row("exp").unwrap();
        let half = Requirement::Vulkan(Cell::UlpPerMagnitude {
            constant: 1.0,
            per_magnitude: 2.0,
        });
        assert_eq!(
            column(exp, FloatType::Float, true),
            (&half, FloatType::Half)
        );
        assert_eq!(column(exp, FloatType::Half, true), (&half, FloatType::Half));
        assert_eq!(column(exp, FloatType::Double, true).1, FloatType::Double);
        assert_eq!(column(exp, FloatType::Float, false).1, FloatType::Float);
    }
}
