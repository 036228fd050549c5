use std::path::Path;

use super::*;
use crate::kernel::{check_snapshots, every_instruction, function_spec, spirv_val};
use crate::num::fp::FloatType;
use crate::spec::signature::{Instruction, OpenclStd100Op};

const TYPES: [FloatType; 3] = [FloatType::Half, FloatType::Float, FloatType::Double];

/// The variants the tests build besides the default: everything at once, and each denorm and
/// rounding mode.
fn mode_sets() -> Vec<ShaderModes> {
    vec![
        ShaderModes {
            relaxed_precision: true,
            signed_zero_inf_nan_preserve: true,
            denorm: Some(DenormMode::Preserve),
            rounding: Some(RoundingMode::Rte),
        },
        ShaderModes {
            denorm: Some(DenormMode::FlushToZero),
            rounding: Some(RoundingMode::Rtz),
            ..ShaderModes::default()
        },
        ShaderModes {
            relaxed_precision: true,
            ..ShaderModes::default()
        },
    ]
}

/// Every registry function with a Vulkan instruction, with its spec at `element` and `width`
/// (the widths its shape and instruction take).
fn vulkan_specs(element: FloatType, width: u32) -> Vec<KernelSpec> {
    every_instruction()
        .into_iter()
        .map(|(instruction, shape)| KernelSpec {
            instruction,
            shape,
            element,
            width,
            address_bits: 64,
        })
        .filter(|spec| !spec.instruction.float_only() || element == FloatType::Float)
        .filter(|spec| validate(spec).is_ok())
        .collect()
}

/// Builds each spec in each variant and runs `spirv-val --target-env vulkan1.3` on it,
/// reporting every failure at once; returns how many shaders passed.
fn assert_all_valid(specs: &[KernelSpec], variants: &[ShaderModes]) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for spec in specs {
        for modes in variants {
            let name = file_stem(spec, modes);
            match build(spec, modes) {
                Ok(words) => match spirv_val(&name, &words, "vulkan1.3") {
                    Ok(()) => checked += 1,
                    Err(complaint) => failures.push(complaint),
                },
                Err(error) => failures.push(format!("{name}: {error}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shaders invalid:\n{}",
        failures.len(),
        checked + failures.len(),
        failures.join("\n")
    );
    checked
}

#[test]
fn every_instruction_type_and_width_is_a_valid_vulkan_shader() {
    let mut checked = 0;
    for element in TYPES {
        for width in VULKAN_WIDTHS {
            checked += assert_all_valid(&vulkan_specs(element, width), &[ShaderModes::default()]);
        }
    }
    // 49 functions at three types and their widths, less the fp64-less `fast_` forms.
    assert!(checked > 500, "only {checked} shaders built");
}

#[test]
fn every_instruction_and_type_is_valid_in_every_variant() {
    let mut checked = 0;
    for element in TYPES {
        // Width 3 takes the per-component path; geometric shapes without it run at width 2.
        for width in [3, 2] {
            let specs: Vec<KernelSpec> = vulkan_specs(element, width)
                .into_iter()
                .filter(|spec| width == 3 || !spec.shape.widths().contains(&3))
                .collect();
            checked += assert_all_valid(&specs, &mode_sets());
        }
    }
    assert!(checked > 350, "only {checked} shaders built");
}

#[test]
fn every_registry_name_of_the_map_builds() {
    // A name the map gives that resolves to no instruction of the function's shape would leave
    // the function silently off the vulkan path.
    for function in crate::spec::registry::FUNCTIONS {
        if crate::spec::vulkan::instruction(function.name).is_none() {
            continue;
        }
        let width = function
            .shape
            .widths()
            .iter()
            .copied()
            .find(|w| *w == 3)
            .unwrap_or(2);
        let spec = function_spec(function.name, FloatType::Float, width);
        assert!(
            validate(&spec).is_ok(),
            "{} maps to {:?}, which does not fit its shape {:?}",
            function.name,
            crate::spec::vulkan::instruction(function.name),
            function.shape
        );
    }
}

#[test]
fn functions_without_a_vulkan_instruction_are_refused() {
    for name in [
        "cbrt",
        "half_sin",
        "native_exp",
        "ilogb",
        "remquo",
        "nan",
        "sincos",
    ] {
        let spec = function_spec(name, FloatType::Float, 1);
        assert!(
            matches!(
                build(&spec, &ShaderModes::default()),
                Err(KernelError::NoVulkanInstruction(_))
            ),
            "{name} built"
        );
    }
}

#[test]
fn double_is_refused_where_glsl_defines_half_and_float_only() {
    for name in ["sin", "exp", "pow", "atan2", "degrees"] {
        let spec = function_spec(name, FloatType::Double, 1);
        assert!(
            matches!(
                build(&spec, &ShaderModes::default()),
                Err(KernelError::NoVulkanInstructionForElement { .. })
            ),
            "{name} built for double"
        );
    }
    for name in ["sqrt", "fma", "floor", "OpFDiv", "length", "frexp"] {
        assert!(build(
            &function_spec(name, FloatType::Double, 1),
            &ShaderModes::default()
        )
        .is_ok());
    }
}

#[test]
fn widths_vulkan_lacks_are_refused() {
    let sin = function_spec("sin", FloatType::Float, 8);
    assert!(matches!(
        build(&sin, &ShaderModes::default()),
        Err(KernelError::UnsupportedVulkanWidth { width: 8, .. })
    ));
    let cross = function_spec("cross", FloatType::Float, 4);
    assert!(matches!(
        build(&cross, &ShaderModes::default()),
        Err(KernelError::UnsupportedVulkanWidth { width: 4, .. })
    ));
    let error = build(&cross, &ShaderModes::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unsupported vector width 4 for cross in a Vulkan shader"
    );
}

#[test]
fn modes_become_execution_modes_for_the_element_width() {
    let spec = function_spec("sqrt", FloatType::Half, 4);
    let modes = ShaderModes {
        relaxed_precision: true,
        signed_zero_inf_nan_preserve: true,
        denorm: Some(DenormMode::FlushToZero),
        rounding: Some(RoundingMode::Rtz),
    };
    let text = disassemble(&build(&spec, &modes).unwrap());
    for line in [
        "OpCapability SignedZeroInfNanPreserve",
        "OpCapability DenormFlushToZero",
        "OpCapability RoundingModeRTZ",
        "OpExecutionMode %",
        "SignedZeroInfNanPreserve 16",
        "DenormFlushToZero 16",
        "RoundingModeRTZ 16",
        "LocalSize 64 1 1",
        "RelaxedPrecision",
    ] {
        assert!(text.contains(line), "{line} missing:\n{text}");
    }
    let plain = disassemble(&build(&spec, &ShaderModes::default()).unwrap());
    assert!(!plain.contains("RelaxedPrecision") && !plain.contains("RoundingMode"));
    assert_eq!(
        file_stem(&spec, &modes),
        "sqrt_half_w4_relaxed_szinp_denormftz_rtz"
    );
    assert_eq!(file_stem(&spec, &ShaderModes::default()), "sqrt_half_w4");
}

#[test]
fn the_map_names_glsl_and_core_instructions() {
    let sin = function_spec("sin", FloatType::Float, 1);
    assert_eq!(operation(&sin).unwrap(), Operation::Glsl(GlslStd450Op::Sin));
    let rsqrt = function_spec("rsqrt", FloatType::Float, 1);
    assert_eq!(
        operation(&rsqrt).unwrap(),
        Operation::Glsl(GlslStd450Op::InverseSqrt)
    );
    let frexp = function_spec("frexp", FloatType::Float, 1);
    assert_eq!(
        operation(&frexp).unwrap(),
        Operation::Glsl(GlslStd450Op::FrexpStruct)
    );
    let fdiv = function_spec("OpFDiv", FloatType::Float, 1);
    assert_eq!(operation(&fdiv).unwrap(), Operation::Core(Op::FDiv));
    let dot = function_spec("OpDot", FloatType::Float, 3);
    assert_eq!(operation(&dot).unwrap(), Operation::Core(Op::Dot));
}

/// One shader per signature class (and the width-3 and mode paths once each), as `clacc
/// kernels --emit --source vulkan` writes them.
fn reference_shaders() -> Vec<(KernelSpec, ShaderModes)> {
    let plain = ShaderModes::default();
    let float = |name, width| (function_spec(name, FloatType::Float, width), plain);
    let all_modes = ShaderModes {
        relaxed_precision: true,
        signed_zero_inf_nan_preserve: true,
        denorm: Some(DenormMode::Preserve),
        rounding: Some(RoundingMode::Rte),
    };
    vec![
        float("sin", 1),
        float("sin", 3),
        (function_spec("sin", FloatType::Half, 4), plain),
        float("OpFAdd", 4),
        float("pow", 2),
        float("fma", 4),
        float("ldexp", 3),
        float("frexp", 2),
        float("modf", 1),
        float("length", 3),
        float("distance", 4),
        float("normalize", 2),
        float("OpDot", 3),
        float("cross", 3),
        (function_spec("sqrt", FloatType::Half, 1), all_modes),
        (function_spec("sqrt", FloatType::Double, 2), plain),
    ]
}

#[test]
fn reference_shaders_match_snapshots() {
    let snapshots = reference_shaders()
        .iter()
        .map(|(spec, modes)| {
            let words = build(spec, modes).unwrap();
            spirv_val(&file_stem(spec, modes), &words, "vulkan1.3").unwrap();
            (
                format!("{}.spvasm", file_stem(spec, modes)),
                disassemble(&words),
            )
        })
        .collect();
    check_snapshots(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/spirv_vulkan"),
        snapshots,
        |name| name.ends_with(".spvasm"),
        "CLACC_BLESS=1 cargo test --lib kernel::spirv_vulkan",
    );
}

#[test]
fn fmul_fadd_has_no_vulkan_instruction() {
    // Table 5's x * y + z body is OpenCL's; the Vulkan tables have no row for it.
    let spec = KernelSpec {
        instruction: Instruction::FMulFAdd,
        shape: crate::spec::signature::Shape::Ternary,
        element: FloatType::Float,
        width: 1,
        address_bits: 64,
    };
    assert!(build(&spec, &ShaderModes::default()).is_err());
    let sin = KernelSpec {
        instruction: Instruction::Ext(OpenclStd100Op::sin),
        ..spec
    };
    assert!(matches!(
        build(&sin, &ShaderModes::default()),
        Err(KernelError::ShapeMismatch { .. })
    ));
}

/// The Vulkan verdict corpus's manifest rows: (module, function).
fn corpus_rows() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/corpus/vulkan");
    let text = std::fs::read_to_string(root.join("corpus.csv")).expect("read the manifest");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let module = fields.next().unwrap().to_string();
            let function = fields.next().expect("a function column").to_string();
            (module, function)
        })
        .collect()
}

#[test]
fn every_corpus_shader_assembles_validates_and_has_its_function_interface() {
    // The device run of the corpus is an end-to-end test; this one needs no device: each
    // shader must assemble for Vulkan 1.3, pass spirv-val and clacc's own interface check for
    // its row's function, so a device run cannot fail for a broken shader.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/corpus/vulkan");
    let dir = tempfile::tempdir().unwrap();
    let rows = corpus_rows();
    let mut failures = Vec::new();
    for (module, function) in &rows {
        let binary = dir.path().join(format!("{module}.spv"));
        let output = std::process::Command::new("spirv-as")
            .args(["--target-env", "vulkan1.3", "-o"])
            .arg(&binary)
            .arg(root.join(format!("{module}.spvasm")))
            .output()
            .expect("spirv-as is installed (scripts/setup installs SPIRV-Tools)");
        if !output.status.success() {
            failures.push(format!(
                "{module}: spirv-as: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
            continue;
        }
        let bytes = std::fs::read(&binary).unwrap();
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|word| u32::from_le_bytes(word.try_into().unwrap()))
            .collect();
        if let Err(complaint) = spirv_val(module, &words, "vulkan1.3") {
            failures.push(complaint);
        }
        let spec = function_spec(function, FloatType::Float, 1);
        if let Err(errors) = interface::check(&spec, &bytes) {
            for error in errors.0 {
                failures.push(format!("{module} as {function}: {error}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every shader of the folder has a row, and the rows come in conforming/defect pairs.
    let mut shaders: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".spvasm").map(str::to_string)
        })
        .collect();
    shaders.sort();
    let mut listed: Vec<String> = rows.into_iter().map(|(module, _)| module).collect();
    listed.sort();
    listed.dedup();
    assert_eq!(
        shaders, listed,
        "shaders without a manifest row, or rows without a shader"
    );
    assert_eq!(shaders.len(), 16);
}

#[test]
fn declared_modes_read_back_what_the_emitter_declares_for_the_width() {
    for element in TYPES {
        let spec = function_spec("sqrt", element, 1);
        for modes in mode_sets().into_iter().chain([ShaderModes::default()]) {
            let words = build(&spec, &modes).unwrap();
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            // RelaxedPrecision is a decoration the run decides, not an execution mode.
            let expected = ShaderModes {
                relaxed_precision: false,
                ..modes
            };
            assert_eq!(
                interface::declared_modes(&bytes, element),
                Some(expected),
                "{element} {modes:?}"
            );
            // Modes for another width say nothing about this one.
            let other = if element == FloatType::Float {
                FloatType::Half
            } else {
                FloatType::Float
            };
            assert_eq!(
                interface::declared_modes(&bytes, other),
                Some(ShaderModes::default())
            );
        }
    }
    assert_eq!(
        interface::declared_modes(&[1, 2, 3, 4], FloatType::Float),
        None
    );
}
