use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::*;

/// Where the checked-in disassembly snapshots live.
fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

fn spec(
    instruction: Instruction,
    shape: Shape,
    element: FloatType,
    width: u32,
    address_bits: u32,
) -> KernelSpec {
    KernelSpec {
        instruction,
        shape,
        element,
        width,
        address_bits,
    }
}

fn sin_float(width: u32, address_bits: u32) -> KernelSpec {
    spec(
        Instruction::Ext(OpenclStd100Op::sin),
        Shape::Unary,
        FloatType::Float,
        width,
        address_bits,
    )
}

/// One instruction of each shape.
fn sample_instruction(shape: Shape) -> Instruction {
    match shape {
        Shape::Unary => Instruction::Ext(OpenclStd100Op::sin),
        Shape::Binary => Instruction::Ext(OpenclStd100Op::pow),
        Shape::Ternary => Instruction::Ext(OpenclStd100Op::fma),
    }
}

/// Runs `spirv-val` on the module; `Err` carries its complaint and the disassembly.
///
/// The OpenCL 2.2 environment checks the OpenCL rules but refuses Float16, so half modules are
/// checked against plain SPIR-V 1.0 instead.
fn spirv_val(spec: &KernelSpec, words: &[u32]) -> Result<(), String> {
    let target_env = if spec.element == FloatType::Half {
        "spv1.0"
    } else {
        "opencl2.2"
    };
    let mut file = tempfile::Builder::new()
        .suffix(".spv")
        .tempfile()
        .expect("create a temporary .spv file");
    file.write_all(&words_to_bytes(words))
        .expect("write the temporary .spv file");
    let output = match Command::new("spirv-val")
        .args(["--target-env", target_env])
        .arg(file.path())
        .output()
    {
        Ok(output) => output,
        Err(error) if error.kind() == ErrorKind::NotFound => {
            panic!("spirv-val is not installed ({error}); run scripts/setup to install SPIRV-Tools")
        }
        Err(error) => panic!("could not run spirv-val: {error}"),
    };
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "spirv-val --target-env {target_env} rejected {}:\n{}{}\n{}",
        spec.file_stem(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        disassemble(words)
    ))
}

/// Builds and validates every spec, reporting all failures at once.
fn assert_all_valid(specs: impl IntoIterator<Item = KernelSpec>) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for spec in specs {
        checked += 1;
        match build(&spec) {
            Ok(words) => {
                if let Err(complaint) = spirv_val(&spec, &words) {
                    failures.push(complaint);
                }
            }
            Err(error) => failures.push(format!("{}: {error}", spec.file_stem())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} modules failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_shape_type_width_and_address_width_validates() {
    let mut specs = reference_shapes();
    for shape in Shape::ALL {
        for element in FloatType::ALL {
            for width in WIDTHS {
                for address_bits in ADDRESS_BITS {
                    let instruction = sample_instruction(shape);
                    specs.push(spec(instruction, shape, element, width, address_bits));
                }
            }
        }
    }
    assert_all_valid(specs);
}

#[test]
fn every_buildable_instruction_validates() {
    let mut specs = Vec::new();
    let core = [
        Instruction::FAdd,
        Instruction::FSub,
        Instruction::FMul,
        Instruction::FDiv,
    ];
    let extended = (0..=u8::MAX as u32)
        .filter_map(OpenclStd100Op::from_u32)
        .map(Instruction::Ext);
    for instruction in core.into_iter().chain(extended) {
        let Some(shape) = instruction.buildable_shape() else {
            continue;
        };
        for element in FloatType::ALL {
            // Width 3 and 16 cover both load paths and the Vector16 capability.
            for width in [3, 16] {
                specs.push(spec(instruction, shape, element, width, 64));
            }
        }
    }
    assert_all_valid(specs);
}

#[test]
fn spirv_val_rejects_a_module_missing_a_capability() {
    use rspirv::binary::Assemble;
    let spec = sin_float(16, 64);
    let mut module = rspirv::dr::load_words(build(&spec).unwrap()).unwrap();
    let vector16 = rspirv::dr::Operand::Capability(rspirv::spirv::Capability::Vector16);
    module.capabilities.retain(|c| c.operands[0] != vector16);
    assert!(spirv_val(&spec, &module.assemble()).is_err());
}

#[test]
fn snapshots_match_checked_in_disassembly() {
    let dir = snapshot_dir();
    let bless = std::env::var("CLACC_BLESS").is_ok_and(|value| value == "1");
    let mut stale = Vec::new();
    for spec in reference_shapes() {
        let text = disassemble(&build(&spec).expect("reference shapes build"));
        let path = dir.join(format!("{}.spvasm", spec.file_stem()));
        if bless {
            std::fs::write(&path, &text).expect("write snapshot");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != text {
            stale.push(format!("{}:\n{text}", path.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "kernel snapshots differ; review and re-bless with \
         `CLACC_BLESS=1 cargo test --lib kernel::`. Now built:\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_snapshot_file_is_a_reference_shape() {
    let expected: Vec<String> = reference_shapes()
        .iter()
        .map(|spec| format!("{}.spvasm", spec.file_stem()))
        .collect();
    let entries = std::fs::read_dir(snapshot_dir()).expect("kernels/ exists");
    let orphans: Vec<String> = entries
        .map(|entry| {
            entry
                .expect("list kernels/")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".spvasm") && !expected.contains(name))
        .collect();
    assert!(
        orphans.is_empty(),
        "kernels/ holds snapshots of no reference shape; delete them: {orphans:?}"
    );
}

#[test]
fn width_3_moves_packed_data_through_vloadn_and_vstoren() {
    let text = disassemble(&build(&sin_float(3, 64)).unwrap());
    let vloadn: Vec<&str> = text.lines().filter(|l| l.contains(" vloadn ")).collect();
    assert_eq!(vloadn.len(), 1, "{text}");
    // n = 3 shows as the literal it is, not as an id.
    assert!(vloadn[0].ends_with(" 3"), "{text}");
    assert_eq!(text.matches(" vstoren %").count(), 1, "{text}");
    assert!(!text.contains("OpInBoundsPtrAccessChain"), "{text}");
    // The buffers point to the scalar type, so vloadn's offset counts 3-element groups.
    let float_id = text
        .lines()
        .find_map(|l| l.strip_suffix(" = OpTypeFloat 32"))
        .expect("a float type");
    let scalar_pointer = format!("OpTypePointer CrossWorkgroup {float_id}\n");
    assert!(text.contains(&scalar_pointer), "{text}");
}

#[test]
fn other_widths_index_vector_pointers_directly() {
    for width in [1, 2, 4, 8, 16] {
        let text = disassemble(&build(&sin_float(width, 64)).unwrap());
        assert!(
            !text.contains("vloadn") && !text.contains("vstoren"),
            "{text}"
        );
        assert_eq!(
            text.matches("OpInBoundsPtrAccessChain").count(),
            2,
            "{text}"
        );
        let alignment = 4 * width;
        assert_eq!(
            text.matches(&format!("Aligned {alignment}")).count(),
            2,
            "{text}"
        );
    }
}

#[test]
fn module_header_and_interface_follow_the_convention() {
    let text = disassemble(&build(&sin_float(1, 64)).unwrap());
    assert!(text.contains("; Version: 1.0\n"), "{text}");
    assert!(text.contains("OpMemoryModel Physical64 OpenCL"), "{text}");
    assert_eq!(
        text.matches("OpExtInstImport \"OpenCL.std\"").count(),
        1,
        "{text}"
    );
    assert!(text.contains("OpEntryPoint Kernel %"), "{text}");
    assert!(text.contains(&format!("\"{ENTRY_POINT}\" %")), "{text}");
    assert!(text.contains("OpDecorate %"), "{text}");
    assert!(text.contains("BuiltIn GlobalInvocationId"), "{text}");
    for name in ["\"in0\"", "\"out0\""] {
        assert!(text.contains(name), "{text}");
    }

    let text = disassemble(&build(&sin_float(1, 32)).unwrap());
    assert!(text.contains("OpMemoryModel Physical32 OpenCL"), "{text}");
    assert!(!text.contains("Int64"), "{text}");
}

#[test]
fn one_opencl_std_import_even_when_used_three_times() {
    let spec = spec(
        Instruction::Ext(OpenclStd100Op::fma),
        Shape::Ternary,
        FloatType::Float,
        3,
        64,
    );
    let text = disassemble(&build(&spec).unwrap());
    // Three vloadn, one fma, one vstoren.
    assert_eq!(text.matches("OpExtInst ").count(), 5, "{text}");
    assert_eq!(text.matches("OpExtInstImport").count(), 1, "{text}");
}

#[test]
fn core_instructions_import_nothing() {
    let spec = spec(Instruction::FAdd, Shape::Binary, FloatType::Float, 4, 64);
    let text = disassemble(&build(&spec).unwrap());
    assert!(!text.contains("OpExtInstImport"), "{text}");
    assert!(text.contains("OpFAdd"), "{text}");
}

#[test]
fn capabilities_follow_element_width_and_addressing() {
    use rspirv::spirv::Capability::*;
    let double = spec(Instruction::FAdd, Shape::Binary, FloatType::Double, 8, 64);
    assert_eq!(
        emit::capabilities(&double),
        [Addresses, Kernel, Int64, Float64, Vector16]
    );
    let half = spec(Instruction::FAdd, Shape::Binary, FloatType::Half, 4, 32);
    assert_eq!(emit::capabilities(&half), [Addresses, Kernel, Float16]);
}

#[test]
fn parameters_are_inputs_then_outputs() {
    let spec = spec(
        Instruction::Ext(OpenclStd100Op::fma),
        Shape::Ternary,
        FloatType::Float,
        1,
        64,
    );
    assert_eq!((spec.input_count(), spec.output_count()), (3, 1));
    let text = disassemble(&build(&spec).unwrap());
    let names: Vec<&str> = ["\"in0\"", "\"in1\"", "\"in2\"", "\"out0\""]
        .into_iter()
        .collect();
    let positions: Vec<usize> = names.iter().map(|n| text.find(n).unwrap()).collect();
    assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "{text}");
    // OpName ids follow OpFunctionParameter order, which is the argument order.
    let parameter_ids: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("OpFunctionParameter"))
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    for (id, name) in parameter_ids.iter().zip(&names) {
        assert!(text.contains(&format!("OpName {id} {name}")), "{text}");
    }
    assert_eq!(text.matches("FuncParamAttr NoWrite").count(), 3, "{text}");
}

#[test]
fn file_stems_are_stable() {
    assert_eq!(sin_float(1, 64).file_stem(), "sin_float_w1_a64");
    let fadd = spec(Instruction::FAdd, Shape::Binary, FloatType::Float, 4, 32);
    assert_eq!(fadd.file_stem(), "fadd_float_w4_a32");
    let common = spec(
        Instruction::Ext(OpenclStd100Op::fmax_common),
        Shape::Binary,
        FloatType::Half,
        16,
        64,
    );
    assert_eq!(common.file_stem(), "fmax_common_half_w16_a64");
}

#[test]
fn build_is_deterministic() {
    let spec = sin_float(3, 64);
    assert_eq!(build(&spec).unwrap(), build(&spec).unwrap());
}

#[test]
fn bytes_are_little_endian_words() {
    let words = build(&sin_float(1, 64)).unwrap();
    let bytes = words_to_bytes(&words);
    assert_eq!(bytes.len(), 4 * words.len());
    // The SPIR-V magic number 0x07230203, as a little-endian file starts.
    assert_eq!(bytes[..4], [0x03, 0x02, 0x23, 0x07]);
}

#[test]
fn width_5_is_an_error() {
    let error = build(&sin_float(5, 64)).unwrap_err();
    assert!(matches!(error, KernelError::UnsupportedWidth(5)), "{error}");
    assert!(error.to_string().contains("width 5"), "{error}");
}

#[test]
fn unknown_address_width_is_an_error() {
    let error = build(&sin_float(1, 16)).unwrap_err();
    assert!(
        matches!(error, KernelError::UnsupportedAddressBits(16)),
        "{error}"
    );
}

#[test]
fn fadd_declared_unary_is_an_error() {
    let spec = spec(Instruction::FAdd, Shape::Unary, FloatType::Float, 1, 64);
    let error = build(&spec).unwrap_err();
    assert!(
        matches!(
            error,
            KernelError::ShapeMismatch {
                instruction: Instruction::FAdd,
                declared: Shape::Unary,
                required: Shape::Binary,
            }
        ),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "instruction fadd is Binary, but the spec declares it Unary"
    );
}

#[test]
fn extended_instruction_shapes_come_from_their_arity() {
    let shape_of = |op| Instruction::Ext(op).buildable_shape();
    assert_eq!(shape_of(OpenclStd100Op::sin), Some(Shape::Unary));
    assert_eq!(shape_of(OpenclStd100Op::pow), Some(Shape::Binary));
    assert_eq!(shape_of(OpenclStd100Op::fma), Some(Shape::Ternary));
    assert_eq!(shape_of(OpenclStd100Op::native_divide), Some(Shape::Binary));
    // Integer or pointer operands, integer results, or not a per-component float function.
    for op in [
        OpenclStd100Op::frexp,
        OpenclStd100Op::ldexp,
        OpenclStd100Op::ilogb,
        OpenclStd100Op::nan,
        OpenclStd100Op::sincos,
        OpenclStd100Op::length,
        OpenclStd100Op::vloadn,
        OpenclStd100Op::s_abs,
    ] {
        assert_eq!(shape_of(op), None, "{op:?}");
    }
    let spec = spec(
        Instruction::Ext(OpenclStd100Op::frexp),
        Shape::Binary,
        FloatType::Float,
        1,
        64,
    );
    assert!(matches!(
        build(&spec),
        Err(KernelError::UnsupportedInstruction(_))
    ));
}

#[test]
fn reference_shapes_cover_every_shape_and_width() {
    let specs = reference_shapes();
    for shape in Shape::ALL {
        for width in WIDTHS {
            assert!(specs
                .iter()
                .any(|s| s.shape == shape && s.width == width && s.address_bits == 64));
        }
        assert!(specs
            .iter()
            .any(|s| s.shape == shape && s.width == 1 && s.address_bits == 32));
    }
    assert!(specs.iter().any(|s| s.instruction == Instruction::FAdd));
}

#[test]
fn unparsable_words_disassemble_to_a_comment() {
    let text = disassemble(&[1, 2, 3]);
    assert!(text.starts_with("; not a SPIR-V module"), "{text}");
}
