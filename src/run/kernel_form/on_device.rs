//! The OpenCL C path on the devices (`--features device-tests`): every function's source
//! builds on Intel and on PoCL, and units measure through it what they measure through SPIR-V.

use super::*;
use crate::device::opencl::Session;
use crate::device::Device;
use crate::num::fp::FloatType;
use crate::report::{Status, UnitReport};
use crate::run::conversion::on_device::{intel_session, pocl_session};
use crate::run::RunSettings;
use crate::spec::environment::KernelPath;
use crate::spec::registry;
use crate::spec::signature::{Instruction, OpenclStd100Op as Op, Shape};

/// Builds every instruction's kernel for `element` at widths 1, 3, 4 and 16 (those its
/// shape takes) on `session`, as one program (one build, not hundreds): each kernel's
/// source as the unit hands it, its entry point renamed after its file stem. Returns how
/// many kernels it wrote and how many the driver found in it.
fn build_every_kernel(session: &Session, element: FloatType) -> (usize, usize) {
    let mut program = String::new();
    let mut count = 0;
    for (instruction, shape) in crate::kernel::every_instruction() {
        for width in [1, 3, 4, 16]
            .into_iter()
            .filter(|w| shape.widths().contains(w))
        {
            let spec = KernelSpec {
                instruction,
                shape,
                element,
                width,
                address_bits: session.info.address_bits,
            };
            let source = match unit_kernel(KernelPath::OpenclC, None, UnitKernel::Function(&spec)) {
                Ok((_, OwnedKernel::OpenclC(source))) => source,
                // The half_, native_ and fast_ functions are float only.
                Err(UnitError::Kernel(crate::kernel::KernelError::UnsupportedElement {
                    ..
                })) => continue,
                other => panic!("{}: {other:?}", spec.file_stem()),
            };
            program.push_str(&source.replace(
                crate::kernel::ENTRY_POINT,
                &format!("k_{}", spec.file_stem()),
            ));
            count += 1;
        }
    }
    let described = session
        .describe_source(
            &format!("every {element} kernel"),
            &program,
            crate::kernel::ENTRY_POINT,
            "",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", session.info.label()));
    (count, described.names.len())
}

#[test]
fn every_function_s_source_builds_on_intel_and_on_pocl() {
    for session in [intel_session(), pocl_session()] {
        let mut elements = vec![FloatType::Float, FloatType::Double];
        // Half where the device has it (Intel's CPU runtime; PoCL 3.1 here has none).
        if session.fp_config(FloatType::Half).is_some() {
            elements.push(FloatType::Half);
        }
        for element in elements {
            let (written, built) = build_every_kernel(&session, element);
            assert!(written > 250, "{written} {element} kernels");
            assert_eq!(built, written, "{} {element}", session.info.label());
        }
    }
}

fn settings(path: KernelPath) -> RunSettings {
    RunSettings {
        judging: crate::spec::table::Judging::Table(crate::spec::table::Profile::Full),
        spec: crate::spec::table::Revision::Spec2026,
        path,
        inputs: 2000,
        explicit_cases: None,
        range: None,
        seed: 0x44,
        build_options: String::new(),
        threads: 2,
        exhaustive: false,
        shard: crate::report::shard::Shard::WHOLE,
        user_kernels: Vec::new(),
        correctly_rounded_divide_sqrt: false,
        denorms_are_zero: false,
        device_only: false,
        work_group: crate::run::WorkGroup::default(),
        extension_probe: None,
        vulkan_modes: Vec::new(),
    }
}

/// What two runs of a unit must share to have measured the same results.
fn measured(report: &UnitReport) -> String {
    format!(
        "{:?} inputs={} failures={} max_error={} worst={:?}",
        report.status,
        report.stats.inputs,
        report.stats.failures,
        report.stats.max_error,
        report.stats.worst
    )
}

#[test]
fn units_measure_through_opencl_c_what_they_measure_through_spirv() {
    let intel = intel_session();
    let pocl = pocl_session();
    let spirv = settings(KernelPath::Spirv);
    let opencl_c = settings(KernelPath::OpenclC);
    for (name, element, width) in [
        ("sin", FloatType::Float, 1),
        ("sin", FloatType::Double, 3),
        ("frexp", FloatType::Float, 4),
        ("remquo", FloatType::Double, 1),
        ("length", FloatType::Float, 3),
    ] {
        let function = registry::find(name).unwrap();
        let run = |session: &Session, settings: &RunSettings| {
            crate::run::ulp::run_unit(session, settings, function, element, width, &|_, _| {})
                .report
        };
        let through_spirv = run(&intel, &spirv);
        let through_source = run(&intel, &opencl_c);
        assert_eq!(
            through_spirv.status,
            Status::Pass,
            "{name}: {through_spirv:?}"
        );
        assert_eq!(
            measured(&through_source),
            measured(&through_spirv),
            "{name} {element} w{width} on Intel: {}",
            through_source.note
        );
        let on_pocl = run(&pocl, &opencl_c);
        assert_eq!(on_pocl.stats.inputs, through_spirv.stats.inputs, "{name}");
        assert!(
            matches!(on_pocl.status, Status::Pass | Status::Fail),
            "{name} {element} w{width} on PoCL: {:?} {}",
            on_pocl.status,
            on_pocl.note
        );
    }
    // Edge units: every prescribed case, scalar lanes and a geometric vector.
    for (name, width) in [("sin", 4), ("frexp", 1), ("length", 3)] {
        let run = |session: &Session, settings: &RunSettings| {
            crate::run::edge::run_edge_unit(
                session,
                settings,
                name,
                FloatType::Float,
                width,
                &|_, _| {},
            )
            .report
        };
        let through_spirv = run(&intel, &spirv);
        assert_eq!(
            through_spirv.status,
            Status::Pass,
            "{name}: {through_spirv:?}"
        );
        assert!(through_spirv.stats.inputs > 0, "{name}");
        assert_eq!(
            measured(&run(&intel, &opencl_c)),
            measured(&through_spirv),
            "edge {name} w{width} on Intel"
        );
    }
    let conversion = |session: &Session, path: KernelPath| {
        let unit =
            crate::run::conversion::find_unit(&session.info, "convert_float_to_int_sat").unwrap();
        let settings = crate::sweep::conversion::ConversionSettings {
            seed: 0x44,
            inputs: 2000,
            exhaustive: false,
            threads: 2,
            explicit: None,
            profile: crate::spec::table::Profile::Full,
            path,
        };
        crate::run::conversion::run_conversion(session, &unit, &settings, &|_, _| {}).report
    };
    let through_spirv = conversion(&intel, KernelPath::Spirv);
    assert_eq!(through_spirv.status, Status::Pass, "{through_spirv:?}");
    assert_eq!(
        measured(&conversion(&intel, KernelPath::OpenclC)),
        measured(&through_spirv)
    );
    assert_eq!(
        measured(&conversion(&pocl, KernelPath::OpenclC)),
        measured(&through_spirv)
    );
}

#[test]
fn a_driver_s_description_of_a_source_finds_its_kernels_and_parameters() {
    for session in [intel_session(), pocl_session()] {
        let spec = KernelSpec {
            instruction: Instruction::Ext(Op::frexp),
            shape: Shape::WithIntOut,
            element: FloatType::Float,
            width: 4,
            address_bits: session.info.address_bits,
        };
        let source = crate::kernel::opencl_c::source(&spec).unwrap();
        let described = session
            .describe_source("frexp", &source, crate::kernel::ENTRY_POINT, "")
            .unwrap();
        assert_eq!(described.names, [crate::kernel::ENTRY_POINT]);
        let types: Vec<(bool, &str)> = described
            .parameters
            .iter()
            .map(|p| (p.global, p.type_name.as_str()))
            .collect();
        assert_eq!(
            types,
            [(true, "float*"), (true, "float*"), (true, "int*")],
            "{}",
            session.info.label()
        );
        let refusal = session
            .build(
                "broken.cl",
                KernelForm::OpenclC(
                    "__kernel void clacc_kernel(__global float *o) { o[0] = undefined_thing; }",
                ),
                crate::kernel::ENTRY_POINT,
                "",
            )
            .err()
            .expect("the driver refuses source that does not compile");
        assert!(
            refusal.to_string().contains("undefined_thing"),
            "{}: {refusal}",
            session.info.label()
        );
    }
}

/// A user's OpenCL C kernel runs in place of clacc's on the OpenCL C path and is judged as the
/// function: a Taylor sin (x - x^3/6) fails, clacc's own source handed in as the user's passes.
#[test]
fn a_user_s_opencl_c_kernel_is_judged_as_the_function() {
    let taylor = "__kernel void clacc_kernel(__global const float *x, __global float *y)\n\
                  {\n    size_t g = get_global_id(0);\n    float v = x[g];\n    \
                  y[g] = v - v * v * v / 6.0f;\n}\n";
    let sin = registry::find("sin").unwrap();
    let own = crate::kernel::opencl_c::source(&KernelSpec {
        instruction: sin.instruction,
        shape: sin.shape,
        element: FloatType::Float,
        width: 1,
        address_bits: 64,
    })
    .unwrap();
    for session in [intel_session(), pocl_session()] {
        let judged = |code: &str| {
            let mut settings = settings(KernelPath::OpenclC);
            settings.user_kernels = vec![UserKernel {
                function: "sin".into(),
                path: "user_sin.cl".into(),
                code: UserCode::OpenclC(code.into()),
            }];
            crate::run::ulp::run_unit(&session, &settings, sin, FloatType::Float, 1, &|_, _| {})
                .report
        };
        let label = session.info.label();
        let defective = judged(taylor);
        assert_eq!(defective.status, Status::Fail, "{label}: {defective:?}");
        assert!(defective.stats.failures > 0, "{label}");
        let conforming = judged(&own);
        assert_eq!(
            conforming.status,
            Status::Pass,
            "{label}: {}",
            conforming.note
        );
    }
}
