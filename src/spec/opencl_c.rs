//! The names of the OpenCL C chapter's tables. The chapter names a function as OpenCL C does
//! (`x / y`, `clamp`, `max`, `pow(x, y)`); clacc's function registry, and so the rows of every
//! data file of `tables/opencl_c/`, name it as the SPIR-V tables do (`OpFDiv`, `fclamp`,
//! `fmax_common`, `pow`), so that `UlpTable::row(function.name)` finds it on either path.
//! [`NAMES`] is the one mapping between the two.

/// Every OpenCL C name of the chapter that is not the registry's own, with the registry's
/// name. `1.0 / x` and `x / y` are both `OpFDiv` (the chapter gives them the same cell in every
/// ULP table, and its unsafe-math rows are one rule, as in the SPIR-V tables); `x * y + z` is
/// the unsafe-math table's multiply feeding an add. Every other function of the chapter is
/// named as the registry names it, and each has a registry function (test
/// `every_name_of_the_text_is_a_registry_function`).
pub const NAMES: &[(&str, &str)] = &[
    ("x + y", "OpFAdd"),
    ("x - y", "OpFSub"),
    ("x * y", "OpFMul"),
    ("1.0 / x", "OpFDiv"),
    ("x / y", "OpFDiv"),
    ("clamp", "fclamp"),
    ("dot", "OpDot"),
    ("max", "fmax_common"),
    ("min", "fmin_common"),
    ("x * y + z", "OpFMul_OpFAdd"),
];

/// The registry's name for a function as the chapter writes it: `x / y` is `OpFDiv`, `clamp`
/// is `fclamp`, `pow(x, y)` is `pow` (a name's argument list is dropped).
pub fn registry_name(text_name: &str) -> &str {
    let text_name = text_name.trim();
    let bare = match text_name.split_once('(') {
        Some((name, _)) if is_name(name) && text_name.ends_with(')') => name,
        _ => text_name,
    };
    NAMES
        .iter()
        .find(|(opencl_c, _)| *opencl_c == bare)
        .map_or(bare, |(_, registry)| registry)
}

/// The chapter's names for a registry function: `OpFDiv` is `1.0 / x` and `x / y`,
/// `fmax_common` is `max`; a function without an entry of [`NAMES`] is its own name.
pub fn opencl_c_names(registry_name: &str) -> Vec<&str> {
    let names: Vec<&str> = NAMES
        .iter()
        .filter(|(_, registry)| *registry == registry_name)
        .map(|(opencl_c, _)| *opencl_c)
        .collect();
    if names.is_empty() {
        vec![registry_name]
    } else {
        names
    }
}

/// `pow`, `half_sin`: a C identifier.
fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod text_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_both_ways() {
        assert_eq!(registry_name("x / y"), "OpFDiv");
        assert_eq!(registry_name("1.0 / x"), "OpFDiv");
        assert_eq!(registry_name("clamp"), "fclamp");
        assert_eq!(registry_name("max"), "fmax_common");
        assert_eq!(registry_name("fmax"), "fmax");
        assert_eq!(registry_name("pow(x, y)"), "pow");
        assert_eq!(registry_name("acos(x)"), "acos");
        assert_eq!(registry_name("half_sin"), "half_sin");
        assert_eq!(registry_name("x * y + z"), "OpFMul_OpFAdd");
        assert_eq!(opencl_c_names("OpFDiv"), ["1.0 / x", "x / y"]);
        assert_eq!(opencl_c_names("fmin_common"), ["min"]);
        assert_eq!(opencl_c_names("sin"), ["sin"]);
        for (_, registry) in NAMES {
            assert!(
                crate::spec::registry::FUNCTIONS
                    .iter()
                    .any(|f| f.name == *registry),
                "{registry} is not a registry function"
            );
        }
    }
}
