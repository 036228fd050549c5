use std::path::{Path, PathBuf};

use super::*;
use crate::kernel::{function_spec, reference_shapes, KernelSpec, ADDRESS_BITS};
use crate::num::convert::{IntType, Rounding};
use crate::spec::signature::Shape;

/// Where the checked-in source snapshots live, beside the SPIR-V ones.
fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/opencl_c")
}

/// Every spec the SPIR-V emitter builds, by function: each registry function and geometric
/// instruction at each element and width it takes.
fn every_spec() -> Vec<KernelSpec> {
    let mut specs = Vec::new();
    for (instruction, shape) in crate::kernel::every_instruction() {
        for element in FloatType::ALL {
            if (instruction.float_only() || float_only_in_opencl_c(instruction))
                && element != FloatType::Float
            {
                continue;
            }
            for width in shape.widths() {
                for address_bits in ADDRESS_BITS {
                    specs.push(KernelSpec {
                        instruction,
                        shape,
                        element,
                        width: *width,
                        address_bits,
                    });
                }
            }
        }
    }
    specs
}

#[test]
fn every_shape_element_and_width_gives_source_following_the_convention() {
    let specs = every_spec();
    for shape in Shape::ALL {
        assert!(specs.iter().any(|s| s.shape == shape), "{shape:?} untested");
    }
    for spec in specs {
        let text = source(&spec).unwrap_or_else(|e| panic!("{}: {e}", spec.file_stem()));
        let stem = spec.file_stem();
        assert!(
            text.contains(&format!("__kernel void {ENTRY_POINT}(")),
            "{stem}\n{text}"
        );
        // One parameter per buffer, inputs (const) then outputs.
        let inputs = spec.input_count();
        let outputs = spec.output_count();
        assert_eq!(text.matches("__global const ").count(), inputs, "{stem}");
        assert_eq!(
            text.matches("__global ").count(),
            inputs + outputs,
            "{stem}"
        );
        for index in 0..inputs {
            let components = spec.argument_kinds()[index].components(spec.width);
            let read = if components == 1 {
                format!("in{index}[g]")
            } else {
                format!("vload{components}(g, in{index})")
            };
            assert!(text.contains(&read), "{stem}: {read}\n{text}");
        }
        for (index, kind) in spec.result_kinds().iter().enumerate() {
            let components = kind.components(spec.width);
            let write = if components == 1 {
                format!("out{index}[g] = r{index}")
            } else {
                format!("vstore{components}(r{index}, g, out{index})")
            };
            assert!(text.contains(&write), "{stem}: {write}\n{text}");
        }
        assert_eq!(
            text.contains("cl_khr_fp64"),
            spec.element == FloatType::Double,
            "{stem}"
        );
        assert_eq!(
            text.contains("cl_khr_fp16"),
            spec.element == FloatType::Half,
            "{stem}"
        );
        // The pointer out-argument is a private variable the call writes.
        assert_eq!(text.contains("&r1)"), outputs == 2, "{stem}\n{text}");
    }
}

#[test]
fn the_source_does_not_depend_on_the_address_width() {
    let mut narrow = function_spec("sincos", FloatType::Float, 3);
    let wide = narrow;
    narrow.address_bits = 32;
    assert_eq!(source(&narrow).unwrap(), source(&wide).unwrap());
}

#[test]
fn each_shape_reads_calls_and_writes_as_its_signature_says() {
    let frexp = source(&function_spec("frexp", FloatType::Double, 3)).unwrap();
    assert!(frexp.contains(
        "__kernel void clacc_kernel(__global const double *in0, __global double *out0, \
         __global int *out1)"
    ));
    assert!(frexp.contains("    int3 r1;\n    double3 r0 = frexp(a0, &r1);\n"));
    assert!(frexp.contains("vstore3(r0, g, out0);\n    vstore3(r1, g, out1);"));
    let remquo = source(&function_spec("remquo", FloatType::Float, 1)).unwrap();
    assert!(remquo.contains("    int r1;\n    float r0 = remquo(a0, a1, &r1);\n"));
    assert!(remquo.contains("out1[g] = r1;"));
    let nan = source(&function_spec("nan", FloatType::Half, 16)).unwrap();
    assert!(nan.contains("__global const ushort *in0, __global half *out0"));
    assert!(nan.contains("ushort16 a0 = vload16(g, in0);\n    half16 r0 = nan(a0);"));
    let ldexp = source(&function_spec("ldexp", FloatType::Float, 8)).unwrap();
    assert!(ldexp.contains("int8 a1 = vload8(g, in1);"));
    assert!(ldexp.contains("float8 r0 = ldexp(a0, a1);"));
    let ilogb = source(&function_spec("ilogb", FloatType::Double, 2)).unwrap();
    assert!(ilogb.contains("__global int *out0"));
    assert!(ilogb.contains("int2 r0 = ilogb(a0);\n    vstore2(r0, g, out0);"));
    let length = source(&function_spec("length", FloatType::Float, 4)).unwrap();
    assert!(length.contains("float r0 = length(a0);\n    out0[g] = r0;"));
    let dot = source(&KernelSpec {
        instruction: Instruction::Dot,
        shape: Shape::Dot,
        element: FloatType::Float,
        width: 3,
        address_bits: 64,
    })
    .unwrap();
    assert!(dot.contains("float r0 = dot(a0, a1);\n    out0[g] = r0;"));
    let divide = source(&function_spec("OpFDiv", FloatType::Float, 1)).unwrap();
    assert!(divide.contains("float r0 = a0 / a1;"));
    let mul_add = source(&function_spec("OpFMul_OpFAdd", FloatType::Float, 4)).unwrap();
    assert!(mul_add.contains("#pragma OPENCL FP_CONTRACT OFF\n"));
    assert!(mul_add.contains("float4 r0 = a0 * a1 + a2;"));
    let fma = source(&function_spec("fma", FloatType::Float, 4)).unwrap();
    assert!(!fma.contains("FP_CONTRACT"));
}

#[test]
fn builtins_take_their_opencl_c_names() {
    use OpenclStd100Op as Op;
    assert_eq!(builtin(Op::fclamp), "clamp");
    assert_eq!(builtin(Op::fmax_common), "max");
    assert_eq!(builtin(Op::fmin_common), "min");
    assert_eq!(builtin(Op::fmax), "fmax");
    assert_eq!(builtin(Op::half_divide), "half_divide");
    assert_eq!(builtin(Op::native_exp10), "native_exp10");
    let clamp = source(&function_spec("fclamp", FloatType::Float, 1)).unwrap();
    assert!(clamp.contains("float r0 = clamp(a0, a1, a2);"), "{clamp}");
}

#[test]
fn invalid_specs_are_refused_as_by_the_spirv_emitter() {
    let mut wide = function_spec("length", FloatType::Float, 8);
    assert!(matches!(
        source(&wide),
        Err(KernelError::UnsupportedGeometricWidth { .. })
    ));
    wide.width = 5;
    assert!(matches!(
        source(&wide),
        Err(KernelError::UnsupportedWidth(5))
    ));
    let mut mismatched = function_spec("sin", FloatType::Float, 1);
    mismatched.shape = Shape::Binary;
    assert!(matches!(
        source(&mismatched),
        Err(KernelError::ShapeMismatch { .. })
    ));
}

#[test]
fn half_and_native_functions_are_float_only_in_opencl_c() {
    for name in ["half_sin", "native_tan", "half_divide"] {
        let mut spec = function_spec(name, FloatType::Float, 4);
        assert!(source(&spec).is_ok(), "{name}");
        for element in [FloatType::Half, FloatType::Double] {
            spec.element = element;
            assert!(
                matches!(source(&spec), Err(KernelError::UnsupportedElement { .. })),
                "{name} {element}"
            );
        }
    }
    assert!(source(&function_spec("sin", FloatType::Half, 4)).is_ok());
}

#[test]
fn conversions_call_the_opencl_c_convert_builtin() {
    let all = Conversion::all();
    for conversion in &all {
        let text = conversion_source(conversion);
        let call = format!("out0[g] = {}(in0[g]);", conversion_builtin(conversion));
        assert!(text.contains(&call), "{conversion}\n{text}");
    }
    let rtz = Conversion::FloatToFloat {
        from: FloatType::Float,
        to: FloatType::Half,
        rounding: Some(Rounding::Rtz),
    };
    assert_eq!(
        conversion_source(&rtz),
        "// clacc kernel convert_float_to_half_rtz, OpenCL C\n\
         #pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         __kernel void clacc_kernel(__global const float *in0, __global half *out0)\n\
         {\n    size_t g = get_global_id(0);\n    out0[g] = convert_half_rtz(in0[g]);\n}\n"
    );
    let saturated = Conversion::FloatToInt {
        from: FloatType::Double,
        to: IntType::U8,
        saturated: true,
    };
    assert_eq!(conversion_builtin(&saturated), "convert_uchar_sat");
    let text = conversion_source(&saturated);
    assert!(text.contains("__global const double *in0, __global uchar *out0"));
    assert!(text.contains("cl_khr_fp64") && !text.contains("cl_khr_fp16"));
    let plain = Conversion::IntToFloat {
        from: IntType::I64,
        to: FloatType::Float,
        rounding: None,
    };
    assert_eq!(conversion_builtin(&plain), "convert_float");
    assert!(conversion_source(&plain).contains("__global const long *in0"));
}

#[test]
fn snapshots_match_checked_in_source() {
    // The source is the same for both address widths: one snapshot per shape and width.
    let snapshots = reference_shapes()
        .iter()
        .filter(|s| s.address_bits == 64)
        .map(|spec| {
            let file = format!(
                "{}_{}_w{}.cl",
                spec.instruction.name(),
                spec.element,
                spec.width
            );
            (file, source(spec).expect("reference shapes build"))
        })
        .collect();
    crate::kernel::check_snapshots(
        &snapshot_dir(),
        snapshots,
        |name| name.ends_with(".cl"),
        "CLACC_BLESS=1 cargo test --lib kernel::opencl_c",
    );
}
