//! Device tests: real kernels on the Intel OpenCL CPU runtime that scripts/setup installs
//! (found by clacc's own runtime lookup), never a mock.

use clacc::device::opencl::{self, Session};
use clacc::device::{self, Device, DeviceError, KernelForm};
use clacc::judge::Rules;
use clacc::kernel::{self, KernelSpec, ENTRY_POINT};
use clacc::num::fp::FloatType;
use clacc::reference;
use clacc::report::stats::UnitStats;
use clacc::spec::signature::{Instruction, OpenclStd100Op, Shape, ValueKind};
use clacc::spec::table::Requirement;
use clacc::sweep;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv;
use std::process::Command;
use std::sync::Once;

static RUNTIME: Once = Once::new();

/// Points the loader at the local runtime the way clacc's re-exec does; the test binary cannot
/// re-exec itself, so the variables are set before the first OpenCL call.
fn spirv_session() -> Session {
    RUNTIME.call_once(|| {
        let lib = clacc::device::opencl::runtime::find_runtime_lib_dir()
            .expect("the Intel OpenCL runtime is missing: run scripts/setup");
        let library_path = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
        assert!(
            library_path
                .split(':')
                .any(|p| std::path::Path::new(p) == lib),
            "run the device tests through scripts/test (LD_LIBRARY_PATH must hold {} when the \
             process starts)",
            lib.display()
        );
        // scripts/test exports it; setting it here while other threads start is a data race.
        if std::env::var_os("OCL_ICD_FILENAMES").is_none() {
            std::env::set_var("OCL_ICD_FILENAMES", lib.join("libintelocl.so"));
        }
    });
    // PoCL's clGetDeviceInfo is not safe to call from two threads at once: enumerate in turn.
    static ENUMERATION: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ENUMERATION.lock().unwrap_or_else(|e| e.into_inner());
    let devices = opencl::enumerate().expect("enumerate OpenCL devices");
    let info = opencl::select(&devices, Some("Intel"), None).expect("the Intel CPU device");
    Session::open(info.clone()).expect("open a session on the Intel device")
}

fn run_kernel(session: &dyn Device, spec: &KernelSpec, columns: &[Vec<f64>]) -> Vec<f64> {
    let words = kernel::spirv_opencl::build(spec).expect("build the module");
    let built = session
        .build(
            &spec.file_stem(),
            KernelForm::SpirvOpencl(&kernel::words_to_bytes(&words)),
            ENTRY_POINT,
            "",
        )
        .expect("the driver builds clacc's module");
    let encoded: Vec<Vec<u8>> = columns.iter().map(|c| spec.element.encode(c)).collect();
    let inputs: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
    let mut output = vec![0u8; columns[0].len() * spec.element.bytes()];
    session
        .run(
            built.as_ref(),
            &inputs,
            &mut [output.as_mut_slice()],
            columns[0].len() / spec.width as usize,
        )
        .expect("run the kernel");
    spec.element.decode(&output)
}

#[test]
fn every_width_and_type_puts_each_lane_where_the_host_expects() {
    let session = spirv_session();
    for element in FloatType::ALL {
        for width in clacc::spec::signature::WIDTHS {
            let spec = KernelSpec {
                instruction: Instruction::FSub,
                shape: Shape::Binary,
                element,
                width,
                address_bits: session.info.address_bits,
            };
            let count = 48usize; // a multiple of every width
            let x: Vec<f64> = (0..count).map(|i| (i * 3) as f64).collect();
            let y: Vec<f64> = (0..count).map(|i| i as f64).collect();
            let result = run_kernel(&session, &spec, &[x, y]);
            let expected: Vec<f64> = (0..count).map(|i| (i * 2) as f64).collect();
            assert_eq!(result, expected, "{element} width {width}");
        }
    }
}

/// Runs `native_sin` on the device but judges it as `sin` (Table 3: <= 4 ulp for float): the
/// pipeline must report the real inaccuracy of an implementation-defined function as failures.
#[test]
fn a_real_inaccurate_device_result_is_reported_as_failing() {
    let session = spirv_session();
    let spec = KernelSpec {
        instruction: Instruction::Ext(OpenclStd100Op::native_sin),
        shape: Shape::Unary,
        element: FloatType::Float,
        width: 1,
        address_bits: session.info.address_bits,
    };
    let sin = clacc::spec::registry::find("sin").unwrap();
    let columns = sweep::generate(
        sin,
        FloatType::Float,
        &[ValueKind::FloatGentype],
        20000,
        1,
        11,
    );
    let device_results = run_kernel(&session, &spec, &columns);
    let rules = Rules {
        function: "sin",
        outputs: sin.outputs.to_vec(),
        requirement: Requirement::Ulp(4.0),
        element: FloatType::Float,
        flushes_subnormals: false,
        rounding: rug::float::Round::Nearest,
        relaxed: None,
        embedded: false,
        finite_math_only: false,
        vulkan: None,
    };
    let mut stats = UnitStats::default();
    for (index, (x, device_result)) in columns[0].iter().zip(&device_results).enumerate() {
        stats.record(rules.judge(index as u64, &[*x], &[*device_result]));
    }
    assert!(
        stats.failures > 0,
        "native_sin met sin's 4 ulp bound everywhere: {stats:?}"
    );
    let worst = stats.worst.expect("a worst case");
    assert!(worst.error > 4.0);
    // The worst case is confirmed independently: the error recomputed from scratch.
    let again = reference::high_precision(
        reference::sin,
        &[reference::operand(worst.args[0])],
        FloatType::Float,
    );
    assert_eq!(
        clacc::num::ulp::ulp_error(worst.device_results[0], &again, FloatType::Float),
        worst.error
    );
}

/// A module that passes spirv-val but cannot be linked: it imports a function nobody defines.
fn unresolvable_module() -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 0);
    b.capability(spirv::Capability::Addresses);
    b.capability(spirv::Capability::Kernel);
    b.capability(spirv::Capability::Linkage);
    b.memory_model(
        spirv::AddressingModel::Physical64,
        spirv::MemoryModel::OpenCL,
    );
    let void = b.type_void();
    let float = b.type_float(32, None);
    let missing_type = b.type_function(float, vec![float]);
    let kernel_type = b.type_function(void, vec![]);
    let missing = b
        .begin_function(float, None, spirv::FunctionControl::NONE, missing_type)
        .unwrap();
    b.function_parameter(float).unwrap();
    b.end_function().unwrap();
    b.decorate(
        missing,
        spirv::Decoration::LinkageAttributes,
        vec![
            Operand::LiteralString("clacc_missing_function".into()),
            Operand::LinkageType(spirv::LinkageType::Import),
        ],
    );
    let main = b
        .begin_function(void, None, spirv::FunctionControl::NONE, kernel_type)
        .unwrap();
    b.begin_block(None).unwrap();
    let one = b.constant_bit32(float, 1.0f32.to_bits());
    b.function_call(float, None, missing, vec![one]).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(spirv::ExecutionModel::Kernel, main, ENTRY_POINT, vec![]);
    rspirv::binary::Assemble::assemble(&b.module())
}

#[test]
fn a_rejected_module_reports_the_build_log() {
    let words = unresolvable_module();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.spv");
    std::fs::write(&path, kernel::words_to_bytes(&words)).unwrap();
    let validation = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&path)
        .output()
        .expect("spirv-val is installed by scripts/setup");
    assert!(
        validation.status.success(),
        "{}",
        String::from_utf8_lossy(&validation.stderr)
    );

    let session = spirv_session();
    let error = match session.build(
        "bad",
        KernelForm::SpirvOpencl(&kernel::words_to_bytes(&words)),
        ENTRY_POINT,
        "",
    ) {
        Ok(_) => panic!("the driver built a module with an unresolved import"),
        Err(error) => error,
    };
    assert!(matches!(error, DeviceError::Build { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("build log"), "{message}");
    assert!(message.contains("clacc_missing_function"), "{message}");
}

#[test]
fn a_vulkan_shader_is_refused_by_the_opencl_device() {
    let session = spirv_session();
    let words = unresolvable_module();
    let error = match session.build(
        "shader",
        KernelForm::SpirvVulkan(&kernel::words_to_bytes(&words)),
        ENTRY_POINT,
        "",
    ) {
        Ok(_) => panic!("the OpenCL device built a Vulkan shader"),
        Err(error) => error,
    };
    assert!(matches!(error, DeviceError::WrongForm { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("not a Vulkan compute shader"), "{message}");
}

/// Several widths' kernels on one write of padded inputs (`run_launches`, as a width group
/// runs them), then again on fewer inputs: the session's buffers are reused from run to run,
/// and neither a width that does not divide the inputs (3) nor what an earlier, longer run
/// left in a reused buffer may show in the results.
#[test]
fn kernels_of_every_width_share_one_write_and_reused_buffers_hold_nothing_stale() {
    let session = spirv_session();
    let widths = [1u32, 3, 4];
    let built: Vec<_> = widths
        .iter()
        .map(|width| {
            let spec = KernelSpec {
                instruction: Instruction::FSub,
                shape: Shape::Binary,
                element: FloatType::Float,
                width: *width,
                address_bits: session.info.address_bits,
            };
            let words = kernel::spirv_opencl::build(&spec).expect("build the module");
            session
                .build(
                    &spec.file_stem(),
                    KernelForm::SpirvOpencl(&kernel::words_to_bytes(&words)),
                    ENTRY_POINT,
                    "",
                )
                .expect("the driver builds clacc's module")
        })
        .collect();
    for (length, offset) in [(1000usize, 0.0f32), (10, 5000.0), (1000, 9000.0)] {
        // Padded to whole vectors of every width with the last input, as run::ulp does.
        let padded = length.div_ceil(12) * 12;
        let x: Vec<f32> = (0..padded)
            .map(|i| offset + 3.0 * i.min(length - 1) as f32)
            .collect();
        let y: Vec<f32> = (0..padded).map(|i| i.min(length - 1) as f32).collect();
        let launches: Vec<device::Launch> = built
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(position, (kernel, width))| device::Launch {
                kernel: kernel.as_ref(),
                work_items: length.div_ceil(width as usize),
                work_group: None,
                outputs: position..position + 1,
            })
            .collect();
        let output_bytes: Vec<usize> = launches
            .iter()
            .zip(widths)
            .map(|(l, w)| l.work_items * w as usize * 4)
            .collect();
        let mut results: Vec<Vec<f32>> = Vec::new();
        session
            .run_launches(
                &[padded * 4, padded * 4],
                &mut |input, bytes| {
                    let column = if input == 0 { &x } else { &y };
                    for (slot, value) in bytes.chunks_exact_mut(4).zip(column) {
                        slot.copy_from_slice(&value.to_le_bytes());
                    }
                },
                &launches,
                &output_bytes,
                &mut |_, bytes| {
                    results.push(
                        bytes
                            .chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect(),
                    )
                },
            )
            .expect("run every width");
        for (result, width) in results.iter().zip(widths) {
            assert_eq!(
                result.len(),
                length.div_ceil(width as usize) * width as usize
            );
            for (i, value) in result.iter().enumerate() {
                let expected = offset + 2.0 * i.min(length - 1) as f32;
                assert_eq!(*value, expected, "width {width}, length {length}, item {i}");
            }
        }
    }
}
