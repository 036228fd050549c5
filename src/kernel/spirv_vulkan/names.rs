//! The Vulkan instruction of each registry function, until `spec::vulkan` (vktab's map, the
//! one copy) lands and replaces this table.

/// Registry name, Vulkan name (a core instruction `Op...` or a `GLSL.std.450` instruction).
const NAMES: &[(&str, &str)] = &[
    ("OpFAdd", "OpFAdd"),
    ("OpFSub", "OpFSub"),
    ("OpFMul", "OpFMul"),
    ("OpFDiv", "OpFDiv"),
    ("OpDot", "OpDot"),
    ("fmod", "OpFRem"),
    ("acos", "Acos"),
    ("acosh", "Acosh"),
    ("asin", "Asin"),
    ("asinh", "Asinh"),
    ("atan", "Atan"),
    ("atanh", "Atanh"),
    ("atan2", "Atan2"),
    ("ceil", "Ceil"),
    ("cos", "Cos"),
    ("cosh", "Cosh"),
    ("cross", "Cross"),
    ("degrees", "Degrees"),
    ("distance", "Distance"),
    ("exp", "Exp"),
    ("exp2", "Exp2"),
    ("fabs", "FAbs"),
    ("fclamp", "FClamp"),
    ("floor", "Floor"),
    ("fma", "Fma"),
    ("fmax", "NMax"),
    ("fmax_common", "FMax"),
    ("fmin", "NMin"),
    ("fmin_common", "FMin"),
    ("frexp", "Frexp"),
    ("ldexp", "Ldexp"),
    ("length", "Length"),
    ("log", "Log"),
    ("log2", "Log2"),
    ("mix", "FMix"),
    ("modf", "Modf"),
    ("normalize", "Normalize"),
    ("pow", "Pow"),
    ("radians", "Radians"),
    ("rint", "RoundEven"),
    ("round", "Round"),
    ("rsqrt", "InverseSqrt"),
    ("sign", "FSign"),
    ("sin", "Sin"),
    ("sinh", "Sinh"),
    ("smoothstep", "SmoothStep"),
    ("sqrt", "Sqrt"),
    ("step", "Step"),
    ("tan", "Tan"),
    ("tanh", "Tanh"),
    ("trunc", "Trunc"),
];

pub(super) fn vulkan_name(registry_name: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|(registry, _)| *registry == registry_name)
        .map(|(_, vulkan)| *vulkan)
}
