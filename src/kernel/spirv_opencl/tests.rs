use std::path::{Path, PathBuf};

use super::*;
use crate::kernel::*;

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
    use OpenclStd100Op as Op;
    if shape == Shape::Dot {
        return Instruction::Dot;
    }
    Instruction::Ext(match shape {
        Shape::Unary => Op::sin,
        Shape::Binary => Op::pow,
        Shape::Ternary => Op::fma,
        Shape::FloatInt => Op::ldexp,
        Shape::IntResult => Op::ilogb,
        Shape::WithFloatOut => Op::sincos,
        Shape::WithIntOut => Op::frexp,
        Shape::BinaryWithIntOut => Op::remquo,
        Shape::Nan => Op::nan,
        Shape::Length => Op::length,
        Shape::Distance => Op::distance,
        Shape::Normalize => Op::normalize,
        Shape::Cross => Op::cross,
        Shape::Dot => unreachable!("OpDot is a core instruction"),
    })
}

/// The sample instruction of `shape` as a spec.
fn sample(shape: Shape, element: FloatType, width: u32, address_bits: u32) -> KernelSpec {
    spec(
        sample_instruction(shape),
        shape,
        element,
        width,
        address_bits,
    )
}

/// The instruction names of the spec's Table 3 (full profile), from the transcription in
/// `tables/opencl_spirv/ulp_full.csv`: the first cell of every record after the header.
fn table_3_names() -> Vec<String> {
    let path = crate::spec::environment::OPENCL_SPIRV.path("ulp_full.csv");
    let text = std::fs::read_to_string(&path).expect("read tables/opencl_spirv/ulp_full.csv");
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .skip(1)
        .map(|line| line.split(',').next().unwrap().to_string())
        .collect()
}

/// The instruction a Table 3 row names: `OpFAdd` and friends, or an OpenCL.std instruction.
fn instruction_named(name: &str) -> Option<Instruction> {
    let core = [
        Instruction::FAdd,
        Instruction::FSub,
        Instruction::FMul,
        Instruction::FDiv,
    ];
    let extended = (0..=u8::MAX as u32)
        .filter_map(OpenclStd100Op::from_u32)
        .map(Instruction::Ext);
    core.into_iter()
        .find(|instruction| format!("Op{}", instruction.name()).eq_ignore_ascii_case(name))
        .or_else(|| extended.into_iter().find(|i| i.name() == name))
}

// The validator runners are shared with the other environments' tests.
pub(crate) use crate::kernel::{run_validator, spirv_val};

/// Runs `spirv-val` on a math module. The OpenCL 2.2 environment checks the OpenCL rules but
/// refuses Float16, so half modules are checked against plain SPIR-V 1.0 instead.
fn spirv_val_spec(spec: &KernelSpec, words: &[u32]) -> Result<(), String> {
    let target_env = if spec.element == FloatType::Half {
        "spv1.0"
    } else {
        "opencl2.2"
    };
    spirv_val(&spec.file_stem(), words, target_env)
}

/// Builds and validates every spec, reporting all failures at once.
fn assert_all_valid(specs: impl IntoIterator<Item = KernelSpec>) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for spec in specs {
        checked += 1;
        match build(&spec) {
            Ok(words) => {
                if let Err(complaint) = spirv_val_spec(&spec, &words) {
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
            for &width in shape.widths() {
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
fn every_table_3_instruction_builds_in_its_shape_and_validates() {
    let names = table_3_names();
    // 4 core instructions, 67 math, 14 half_ and 14 native_ ones.
    assert_eq!(names.len(), 99, "{names:?}");
    let mut specs = Vec::new();
    let mut unbuildable = Vec::new();
    for name in &names {
        let instruction =
            instruction_named(name).unwrap_or_else(|| panic!("no instruction {name}"));
        let Some(shape) = buildable_shape(&instruction) else {
            unbuildable.push(name.as_str());
            continue;
        };
        for element in FloatType::ALL {
            for width in [1, 3] {
                for address_bits in ADDRESS_BITS {
                    specs.push(spec(instruction, shape, element, width, address_bits));
                }
            }
        }
    }
    assert!(unbuildable.is_empty(), "no shape for {unbuildable:?}");
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
        Instruction::FMulFAdd,
    ];
    let extended = (0..=u8::MAX as u32)
        .filter_map(OpenclStd100Op::from_u32)
        .map(Instruction::Ext);
    for instruction in core.into_iter().chain(extended) {
        let Some(shape) = buildable_shape(&instruction) else {
            continue;
        };
        for element in FloatType::ALL {
            if instruction.float_only() && element != FloatType::Float {
                continue;
            }
            // Width 3 and the widest cover both load paths and, but for the geometric
            // instructions, the Vector16 capability.
            let widest = *shape.widths().last().unwrap();
            for width in [3, widest] {
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
    assert!(spirv_val_spec(&spec, &module.assemble()).is_err());
}

/// `spec`'s module with its instruction under test replaced by `op`, operands unchanged.
fn with_opcode_swapped(spec: &KernelSpec, op: OpenclStd100Op) -> Vec<u32> {
    use rspirv::binary::Assemble;
    use rspirv::dr::Operand;
    let Instruction::Ext(original) = spec.instruction else {
        panic!("{spec:?} applies no OpenCL.std instruction");
    };
    let mut module = rspirv::dr::load_words(build(spec).unwrap()).unwrap();
    let applied = module
        .functions
        .iter_mut()
        .flat_map(|function| function.blocks.iter_mut())
        .flat_map(|block| block.instructions.iter_mut())
        .find(|i| i.operands.get(1) == Some(&Operand::LiteralExtInstInteger(original as u32)))
        .expect("the instruction under test");
    applied.operands[1] = Operand::LiteralExtInstInteger(op as u32);
    module.assemble()
}

/// The validation tests above mean something for the new shapes only if spirv-val checks the
/// OpenCL.std operand types, which it does: an operand of the wrong type is refused.
#[test]
fn spirv_val_rejects_opencl_std_operands_of_the_wrong_type() {
    use OpenclStd100Op as Op;
    let cases = [
        // A float exponent.
        (sample(Shape::Binary, FloatType::Float, 1, 64), Op::ldexp),
        // A pointer to float where frexp writes int.
        (
            sample(Shape::WithFloatOut, FloatType::Float, 4, 64),
            Op::frexp,
        ),
        // A pointer to int where sincos writes float.
        (
            sample(Shape::WithIntOut, FloatType::Float, 3, 64),
            Op::sincos,
        ),
        // A float argument where nan takes an unsigned integer.
        (sample(Shape::Unary, FloatType::Double, 2, 64), Op::nan),
        // An int result where fabs returns float.
        (sample(Shape::IntResult, FloatType::Float, 1, 32), Op::fabs),
        // A vector result where length returns a scalar.
        (
            sample(Shape::Normalize, FloatType::Float, 4, 64),
            Op::length,
        ),
        // A scalar result where normalize returns a vector like its argument.
        (
            sample(Shape::Length, FloatType::Double, 2, 32),
            Op::normalize,
        ),
    ];
    for (spec, op) in cases {
        let words = with_opcode_swapped(&spec, op);
        assert!(spirv_val_spec(&spec, &words).is_err(), "{op:?} in {spec:?}");
    }
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

    let remquo = sample(Shape::BinaryWithIntOut, FloatType::Float, 4, 64);
    assert_eq!((remquo.input_count(), remquo.output_count()), (2, 2));
    let text = disassemble(&build(&remquo).unwrap());
    let ids: Vec<String> = ["in0", "in1", "out0", "out1"]
        .into_iter()
        .map(|name| named(&text, name))
        .collect();
    let parameters: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("OpFunctionParameter"))
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    assert_eq!(parameters, ids, "{text}");
    assert_eq!(text.matches("FuncParamAttr NoWrite").count(), 2, "{text}");
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
    let shape_of = |op| buildable_shape(&Instruction::Ext(op));
    assert_eq!(shape_of(OpenclStd100Op::sin), Some(Shape::Unary));
    assert_eq!(shape_of(OpenclStd100Op::pow), Some(Shape::Binary));
    assert_eq!(shape_of(OpenclStd100Op::fma), Some(Shape::Ternary));
    assert_eq!(shape_of(OpenclStd100Op::native_divide), Some(Shape::Binary));
    // Not per-component float math functions, nor geometric ones this module builds.
    for op in [
        OpenclStd100Op::vloadn,
        OpenclStd100Op::s_abs,
        OpenclStd100Op::printf,
    ] {
        assert_eq!(shape_of(op), None, "{op:?}");
    }
    let spec = spec(
        Instruction::Ext(OpenclStd100Op::vloadn),
        Shape::Binary,
        FloatType::Float,
        4,
        64,
    );
    assert!(matches!(
        build(&spec),
        Err(KernelError::UnsupportedInstruction(_))
    ));
    // cross has the arity of pow, but its own shape (widths 3 and 4 only).
    assert_eq!(shape_of(OpenclStd100Op::cross), Some(Shape::Cross));
    assert_eq!(Shape::Cross.widths(), [3, 4]);
    assert_eq!(buildable_shape(&Instruction::Dot), Some(Shape::Dot));
    assert_eq!(Shape::Dot.widths(), [2, 3, 4]);
}

#[test]
fn geometric_instructions_have_their_own_shapes() {
    use OpenclStd100Op as Op;
    let expected = [
        (Op::length, Shape::Length),
        (Op::fast_length, Shape::Length),
        (Op::distance, Shape::Distance),
        (Op::fast_distance, Shape::Distance),
        (Op::normalize, Shape::Normalize),
        (Op::fast_normalize, Shape::Normalize),
    ];
    for (op, shape) in expected {
        assert_eq!(
            buildable_shape(&Instruction::Ext(op)),
            Some(shape),
            "{op:?}"
        );
        let arity = opencl_std_grammar(op).unwrap().operands.len();
        assert_eq!(shape.signature().operand_count(), arity, "{op:?}");
        assert_eq!(shape.widths(), GEOMETRIC_WIDTHS, "{shape:?}");
    }
    // Arity alone never picks a geometric shape: normalize's table entry does.
    assert_eq!(
        buildable_shape(&Instruction::Ext(Op::sqrt)),
        Some(Shape::Unary)
    );
    for shape in [Shape::Unary, Shape::Nan, Shape::Ternary] {
        assert_eq!(shape.widths(), WIDTHS, "{shape:?}");
    }
    // length is no Unary, and sin no Normalize.
    let length_unary = spec(
        Instruction::Ext(Op::length),
        Shape::Unary,
        FloatType::Float,
        1,
        64,
    );
    let error = build(&length_unary).unwrap_err();
    assert_eq!(
        error.to_string(),
        "instruction length is Length, but the spec declares it Unary"
    );
    let sin_normalize = spec(
        Instruction::Ext(Op::sin),
        Shape::Normalize,
        FloatType::Float,
        4,
        64,
    );
    assert!(matches!(
        build(&sin_normalize),
        Err(KernelError::ShapeMismatch {
            required: Shape::Unary,
            ..
        })
    ));
}

#[test]
fn geometric_instructions_refuse_widths_8_and_16() {
    use OpenclStd100Op as Op;
    for op in [
        Op::length,
        Op::distance,
        Op::normalize,
        Op::fast_length,
        Op::fast_distance,
        Op::fast_normalize,
    ] {
        let instruction = Instruction::Ext(op);
        let shape = buildable_shape(&instruction).unwrap();
        for element in FloatType::ALL {
            for width in [8, 16] {
                let error = build(&spec(instruction, shape, element, width, 64)).unwrap_err();
                assert!(
                    matches!(
                        error,
                        KernelError::UnsupportedGeometricWidth { instruction: i, width: w }
                            if i == instruction && w == width
                    ),
                    "{error}"
                );
            }
        }
    }
    let error = build(&sample(Shape::Distance, FloatType::Double, 16, 32)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unsupported vector width 16 for geometric instruction distance: it takes widths \
         [1, 2, 3, 4] only"
    );
    // OpDot takes no scalar, cross neither a scalar nor a 2-vector.
    for (instruction, shape, width) in [
        (Instruction::Dot, Shape::Dot, 1),
        (Instruction::Ext(Op::cross), Shape::Cross, 2),
    ] {
        let error = build(&spec(instruction, shape, FloatType::Float, width, 64)).unwrap_err();
        assert!(
            matches!(error, KernelError::UnsupportedGeometricWidth { .. }),
            "{error}"
        );
    }
    // A width no shape takes is refused as before.
    let error = build(&sample(Shape::Length, FloatType::Float, 5, 64)).unwrap_err();
    assert!(matches!(error, KernelError::UnsupportedWidth(5)), "{error}");
}

#[test]
fn fast_geometric_instructions_are_float_only() {
    use OpenclStd100Op as Op;
    for op in [Op::fast_length, Op::fast_distance, Op::fast_normalize] {
        let instruction = Instruction::Ext(op);
        let shape = buildable_shape(&instruction).unwrap();
        for element in [FloatType::Half, FloatType::Double] {
            let error = build(&spec(instruction, shape, element, 2, 64)).unwrap_err();
            assert!(
                matches!(error, KernelError::UnsupportedElement { element: e, .. } if e == element),
                "{error}"
            );
        }
        assert!(build(&spec(instruction, shape, FloatType::Float, 2, 64)).is_ok());
    }
    let fast_length = spec(
        Instruction::Ext(Op::fast_length),
        Shape::Length,
        FloatType::Half,
        4,
        32,
    );
    assert_eq!(
        build(&fast_length).unwrap_err().to_string(),
        "instruction fast_length is defined for float only, not half"
    );
}

#[test]
fn every_geometric_shape_type_width_and_address_width_validates() {
    use OpenclStd100Op as Op;
    let mut specs = Vec::new();
    for op in [
        Op::length,
        Op::distance,
        Op::normalize,
        Op::fast_length,
        Op::fast_distance,
        Op::fast_normalize,
    ] {
        let instruction = Instruction::Ext(op);
        let shape = buildable_shape(&instruction).unwrap();
        for element in FloatType::ALL {
            if instruction.float_only() && element != FloatType::Float {
                continue;
            }
            for width in GEOMETRIC_WIDTHS {
                for address_bits in ADDRESS_BITS {
                    specs.push(spec(instruction, shape, element, width, address_bits));
                }
            }
        }
    }
    assert_eq!(specs.len(), 3 * 3 * 4 * 2 + 3 * 4 * 2);
    assert_all_valid(specs);
}

#[test]
fn length_and_distance_write_one_scalar_per_work_item() {
    for (shape, inputs) in [(Shape::Length, 1), (Shape::Distance, 2)] {
        for width in GEOMETRIC_WIDTHS {
            let spec = sample(shape, FloatType::Double, width, 64);
            let text = disassemble(&build(&spec).unwrap());
            let double = id_of(&text, "OpTypeFloat 64");
            let scalar_pointer = id_of(&text, &format!("OpTypePointer CrossWorkgroup {double}"));
            // The instruction returns a scalar, and out0 points to the scalar element type.
            assert!(text.contains(&format!("OpExtInst  {double} ")), "{text}");
            let out0 = named(&text, "out0");
            assert!(
                text.contains(&format!("{out0} = OpFunctionParameter  {scalar_pointer}")),
                "{text}"
            );
            // Stored through an access chain at the work-item's index, aligned as one double,
            // never through vstoren (which would write three elements per work-item).
            assert!(!text.contains(" vstoren "), "{text}");
            let chains: Vec<&str> = text
                .lines()
                .filter(|l| l.contains("OpInBoundsPtrAccessChain") && l.contains(&out0))
                .collect();
            assert_eq!(chains.len(), 1, "{text}");
            assert!(
                text.contains("OpStore ")
                    && text.contains(
                        "Aligned 8
"
                    ),
                "{text}"
            );
            // The inputs are gentypes in the packed layout: vloadn at width 3.
            let loads = if width == 3 { inputs } else { 0 };
            assert_eq!(text.matches(" vloadn ").count(), loads, "{text}");
            if width != 1 && width != 3 {
                let vector = id_of(&text, &format!("OpTypeVector {double} {width}"));
                id_of(&text, &format!("OpTypePointer CrossWorkgroup {vector}"));
                assert!(text.contains(&format!("Aligned {}", 8 * width)), "{text}");
            }
            assert_eq!(spec.result_kinds(), [ValueKind::FloatScalar]);
        }
    }
}

#[test]
fn normalize_writes_a_gentype_per_work_item() {
    let text = disassemble(&build(&sample(Shape::Normalize, FloatType::Float, 3, 32)).unwrap());
    assert_eq!(text.matches(" vloadn ").count(), 1, "{text}");
    assert_eq!(text.matches(" vstoren ").count(), 1, "{text}");
    let float = id_of(&text, "OpTypeFloat 32");
    let float3 = id_of(&text, &format!("OpTypeVector {float} 3"));
    assert!(text.contains(&format!("OpExtInst  {float3} ")), "{text}");
}

#[test]
fn instructions_with_integer_or_pointer_operands_have_their_own_shapes() {
    use OpenclStd100Op as Op;
    let expected = [
        (Op::ldexp, Shape::FloatInt),
        (Op::pown, Shape::FloatInt),
        (Op::rootn, Shape::FloatInt),
        (Op::ilogb, Shape::IntResult),
        (Op::fract, Shape::WithFloatOut),
        (Op::modf, Shape::WithFloatOut),
        (Op::sincos, Shape::WithFloatOut),
        (Op::frexp, Shape::WithIntOut),
        (Op::lgamma_r, Shape::WithIntOut),
        (Op::remquo, Shape::BinaryWithIntOut),
        (Op::nan, Shape::Nan),
    ];
    for (op, shape) in expected {
        assert_eq!(
            buildable_shape(&Instruction::Ext(op)),
            Some(shape),
            "{op:?}"
        );
        // buildable_shape checks the table against the grammar's operand count.
        let arity = opencl_std_grammar(op).unwrap().operands.len();
        assert_eq!(shape.signature().operand_count(), arity, "{op:?}");
    }
    // Every shape has an instruction, and sample_instruction picks one of that shape.
    for shape in Shape::ALL {
        assert_eq!(buildable_shape(&sample_instruction(shape)), Some(shape));
    }
    let spec = spec(
        Instruction::Ext(Op::frexp),
        Shape::Binary,
        FloatType::Float,
        1,
        64,
    );
    let error = build(&spec).unwrap_err();
    assert!(
        matches!(
            error,
            KernelError::ShapeMismatch {
                declared: Shape::Binary,
                required: Shape::WithIntOut,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "instruction frexp is WithIntOut, but the spec declares it Binary"
    );
}

#[test]
fn buffer_kinds_follow_the_shape() {
    use ValueKind::{FloatGentype as F, FloatScalar as S, IntGentype as I, UintGentype as U};
    let expected: [(Shape, &[ValueKind], &[ValueKind]); 14] = [
        (Shape::Unary, &[F], &[F]),
        (Shape::Binary, &[F, F], &[F]),
        (Shape::Ternary, &[F, F, F], &[F]),
        (Shape::FloatInt, &[F, I], &[F]),
        (Shape::IntResult, &[F], &[I]),
        (Shape::WithFloatOut, &[F], &[F, F]),
        (Shape::WithIntOut, &[F], &[F, I]),
        (Shape::BinaryWithIntOut, &[F, F], &[F, I]),
        (Shape::Nan, &[U], &[F]),
        (Shape::Length, &[F], &[S]),
        (Shape::Distance, &[F, F], &[S]),
        (Shape::Normalize, &[F], &[F]),
        (Shape::Dot, &[F, F], &[S]),
        (Shape::Cross, &[F, F], &[F]),
    ];
    for (shape, arguments, results) in expected {
        let spec = sample(shape, FloatType::Double, 4, 64);
        assert_eq!(spec.argument_kinds(), arguments, "{shape:?}");
        assert_eq!(spec.result_kinds(), results, "{shape:?}");
        assert_eq!(spec.input_count(), arguments.len(), "{shape:?}");
        assert_eq!(spec.output_count(), results.len(), "{shape:?}");
    }
    assert_eq!(Shape::ALL.len(), expected.len());
}

#[test]
fn component_bytes_follow_the_element() {
    let bytes = |kind: ValueKind| FloatType::ALL.map(|element| kind.component_bytes(element));
    assert_eq!(bytes(ValueKind::FloatGentype), [2, 4, 8]);
    assert_eq!(bytes(ValueKind::IntGentype), [4, 4, 4]);
    assert_eq!(bytes(ValueKind::UintGentype), [2, 4, 8]);
    assert_eq!(bytes(ValueKind::FloatScalar), [2, 4, 8]);
}

#[test]
fn only_float_scalars_hold_one_component_per_work_item() {
    for width in WIDTHS {
        assert_eq!(ValueKind::FloatScalar.components(width), 1);
        for kind in [
            ValueKind::FloatGentype,
            ValueKind::IntGentype,
            ValueKind::UintGentype,
        ] {
            assert_eq!(kind.components(width), width, "{kind:?}");
        }
    }
}

/// The id a line such as `%12 = OpTypeInt 32 0` defines, found by what follows ` = `.
fn id_of(text: &str, definition: &str) -> String {
    let suffix = format!(" = {definition}");
    text.lines()
        .find_map(|line| line.strip_suffix(&suffix))
        .unwrap_or_else(|| panic!("no `{definition}` in:\n{text}"))
        .to_string()
}

/// The id `OpName` gives `name`.
fn named(text: &str, name: &str) -> String {
    let suffix = format!(" \"{name}\"");
    text.lines()
        .find_map(|line| line.strip_prefix("OpName ")?.strip_suffix(&suffix))
        .unwrap_or_else(|| panic!("nothing named {name} in:\n{text}"))
        .to_string()
}

/// The last operand of the one `OpExtInst` that applies `op`.
fn last_operand_of(text: &str, op: &str) -> String {
    let needle = format!(" {op} ");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(&needle)).collect();
    assert_eq!(lines.len(), 1, "{text}");
    lines[0].rsplit(' ').next().unwrap().to_string()
}

#[test]
fn pointer_out_arguments_point_into_the_output_buffer_except_at_width_3() {
    for width in [1, 2, 4, 8, 16] {
        let spec = sample(Shape::WithIntOut, FloatType::Float, width, 64);
        let text = disassemble(&build(&spec).unwrap());
        assert!(!text.contains("Function\n"), "{text}");
        // in0's load, out0's store, and out1's element handed to frexp.
        assert_eq!(
            text.matches("OpInBoundsPtrAccessChain").count(),
            3,
            "{text}"
        );
        let pointer = last_operand_of(&text, "frexp");
        let out1 = named(&text, "out1");
        let chain = format!("{pointer} = OpInBoundsPtrAccessChain ");
        let chain = text
            .lines()
            .find(|l| l.starts_with(&chain))
            .unwrap_or_else(|| panic!("frexp's pointer is no access chain:\n{text}"));
        assert!(chain.contains(&format!(" {out1} ")), "{text}");
        // The out buffer holds packed ints: a CrossWorkgroup pointer to int or intn.
        let int = id_of(&text, "OpTypeInt 32 0");
        let int_vector = if width == 1 {
            int
        } else {
            id_of(&text, &format!("OpTypeVector {int} {width}"))
        };
        id_of(&text, &format!("OpTypePointer CrossWorkgroup {int_vector}"));
    }
}

#[test]
fn width_3_pointer_out_arguments_go_through_a_function_variable_and_vstoren() {
    let spec = sample(Shape::BinaryWithIntOut, FloatType::Double, 3, 32);
    let text = disassemble(&build(&spec).unwrap());
    assert!(!text.contains("OpInBoundsPtrAccessChain"), "{text}");
    let int = id_of(&text, "OpTypeInt 32 0");
    let int3 = id_of(&text, &format!("OpTypeVector {int} 3"));
    let pointer = id_of(&text, &format!("OpTypePointer Function {int3}"));
    let variable = id_of(&text, &format!("OpVariable  {pointer}  Function"));
    assert_eq!(last_operand_of(&text, "remquo"), variable);
    // The variable opens the function's first block.
    let label = text.find("= OpLabel\n").unwrap();
    let after_label = &text[label..];
    let second_line = after_label.lines().nth(1).unwrap();
    assert!(second_line.starts_with(&variable), "{text}");
    // After remquo, the variable is loaded and stored packed into out1 with vstoren.
    let loaded = id_of(&text, &format!("OpLoad  {int3}  {variable}"));
    let out1 = named(&text, "out1");
    assert!(
        text.contains(&format!(" vstoren {loaded} ")) && text.contains(&format!(" {out1}\n")),
        "{text}"
    );
    assert_eq!(text.matches(" vstoren ").count(), 2, "{text}");
    // Two vloadn, remquo, two vstoren.
    assert_eq!(text.matches("OpExtInst ").count(), 5, "{text}");
    // out1 points to the scalar int, so vstoren's offset counts 3-element groups.
    let int_pointer = id_of(&text, &format!("OpTypePointer CrossWorkgroup {int}"));
    assert!(
        text.contains(&format!("{out1} = OpFunctionParameter  {int_pointer}")),
        "{text}"
    );
}

#[test]
fn integer_buffers_are_packed_and_aligned_as_ints() {
    // ilogb of double4: the result buffer holds int4 (16 bytes), the argument double4 (32).
    let text = disassemble(&build(&sample(Shape::IntResult, FloatType::Double, 4, 64)).unwrap());
    assert!(text.contains("Aligned 32"), "{text}");
    assert!(text.contains("Aligned 16"), "{text}");
    let int = id_of(&text, "OpTypeInt 32 0");
    let int4 = id_of(&text, &format!("OpTypeVector {int} 4"));
    assert!(text.contains(&format!("OpExtInst  {int4} ")), "{text}");
}

#[test]
fn nan_takes_unsigned_integers_as_wide_as_the_element() {
    for (element, bits) in [
        (FloatType::Half, 16),
        (FloatType::Float, 32),
        (FloatType::Double, 64),
    ] {
        let text = disassemble(&build(&sample(Shape::Nan, element, 2, 32)).unwrap());
        let uint = id_of(&text, &format!("OpTypeInt {bits} 0"));
        let uint2 = id_of(&text, &format!("OpTypeVector {uint} 2"));
        id_of(&text, &format!("OpTypePointer CrossWorkgroup {uint2}"));
        assert!(text.contains(&format!("Aligned {}", bits / 4)), "{text}");
    }
}

#[test]
fn integer_capabilities_follow_the_integer_types() {
    use rspirv::spirv::Capability::*;
    let caps =
        |shape, element, address_bits| emit::capabilities(&sample(shape, element, 1, address_bits));
    assert_eq!(
        caps(Shape::Nan, FloatType::Half, 32),
        [Addresses, Kernel, Int16, Float16]
    );
    assert_eq!(
        caps(Shape::Nan, FloatType::Half, 64),
        [Addresses, Kernel, Int64, Int16, Float16]
    );
    assert_eq!(caps(Shape::Nan, FloatType::Float, 32), [Addresses, Kernel]);
    assert_eq!(
        caps(Shape::Nan, FloatType::Double, 32),
        [Addresses, Kernel, Int64, Float64]
    );
    // int is 32-bit: no integer capability.
    assert_eq!(
        caps(Shape::WithIntOut, FloatType::Half, 32),
        [Addresses, Kernel, Float16]
    );
    assert_eq!(
        caps(Shape::FloatInt, FloatType::Double, 32),
        [Addresses, Kernel, Float64]
    );
    // length's scalar result is a float: no integer capability either.
    assert_eq!(
        caps(Shape::Length, FloatType::Double, 32),
        [Addresses, Kernel, Float64]
    );
    assert_eq!(
        caps(Shape::Distance, FloatType::Half, 32),
        [Addresses, Kernel, Float16]
    );
}

#[test]
fn reference_shapes_cover_every_shape_and_width() {
    let specs = reference_shapes();
    let has = |shape, width, address_bits| {
        specs
            .iter()
            .any(|s| s.shape == shape && s.width == width && s.address_bits == address_bits)
    };
    for shape in [Shape::Unary, Shape::Binary, Shape::Ternary] {
        for width in WIDTHS {
            assert!(has(shape, width, 64), "{shape:?} w{width}");
        }
        assert!(has(shape, 1, 32), "{shape:?}");
    }
    for shape in Shape::ALL {
        for width in [1, 3, 4].into_iter().filter(|w| shape.widths().contains(w)) {
            assert!(has(shape, width, 64), "{shape:?} w{width}");
        }
    }
    assert!(has(Shape::WithIntOut, 1, 32));
    assert!(specs.iter().any(|s| s.instruction == Instruction::FAdd));
    assert!(specs.iter().any(|s| s.instruction == Instruction::FMulFAdd));
    assert!(specs.iter().all(|s| s.element == FloatType::Float));
    assert!(specs
        .iter()
        .all(|s| buildable_shape(&s.instruction) == Some(s.shape)));
}

#[test]
fn unparsable_words_disassemble_to_a_comment() {
    let text = disassemble(&[1, 2, 3]);
    assert!(text.starts_with("; not a SPIR-V module"), "{text}");
}

#[test]
fn every_function_declares_the_shape_the_kernel_builder_requires() {
    for entry in crate::spec::registry::FUNCTIONS {
        assert_eq!(
            required_shape(&entry.instruction),
            Some(entry.shape),
            "{}",
            entry.name
        );
    }
}
