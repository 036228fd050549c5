//! The Vulkan device on lavapipe (`--features device-tests`, `.deps/lavapipe` from
//! scripts/setup): what it lists, and hand-built compute shaders of clacc's interface run over
//! counts that are not whole groups, in chunks of changing sizes.

use super::*;
use crate::device::{Device, DeviceError, KernelForm, Launch};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::spirv;

/// The entry point of clacc's kernels (`kernel::ENTRY_POINT`; the device layer sits below the
/// kernels and does not import them).
const ENTRY_POINT: &str = "clacc_kernel";

/// lavapipe, which `scripts/setup` installs into `.deps/lavapipe`.
fn lavapipe() -> VulkanDeviceInfo {
    let devices = enumerate().expect("the Vulkan loader of .deps/lavapipe loads");
    devices
        .into_iter()
        .find(|device| device.name.contains("llvmpipe"))
        .expect("lavapipe is listed (run scripts/setup)")
}

/// A shader of clacc's interface over floats: `out[i] = in0[i] * factor` for `i < count`, at
/// binding 1 from binding 0, `LocalSize 64`.
fn scale_shader(factor: f32) -> Vec<u8> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(spirv::Capability::Shader);
    b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
    let void = b.type_void();
    let function_type = b.type_function(void, vec![]);
    let float = b.type_float(32, None);
    let uint = b.type_int(32, 0);
    let boolean = b.type_bool();
    let uint3 = b.type_vector(uint, 3);
    let input_uint3 = b.type_pointer(None, spirv::StorageClass::Input, uint3);
    let array = b.type_runtime_array(float);
    b.decorate(
        array,
        spirv::Decoration::ArrayStride,
        [Operand::LiteralBit32(4)],
    );
    let block = b.type_struct([array]);
    b.member_decorate(
        block,
        0,
        spirv::Decoration::Offset,
        [Operand::LiteralBit32(0)],
    );
    b.decorate(block, spirv::Decoration::Block, []);
    let block_pointer = b.type_pointer(None, spirv::StorageClass::StorageBuffer, block);
    let float_pointer = b.type_pointer(None, spirv::StorageClass::StorageBuffer, float);
    let push = b.type_struct([uint]);
    b.member_decorate(
        push,
        0,
        spirv::Decoration::Offset,
        [Operand::LiteralBit32(0)],
    );
    b.decorate(push, spirv::Decoration::Block, []);
    let push_pointer = b.type_pointer(None, spirv::StorageClass::PushConstant, push);
    let push_uint = b.type_pointer(None, spirv::StorageClass::PushConstant, uint);
    let zero = b.constant_bit32(uint, 0);
    let factor = b.constant_bit32(float, factor.to_bits());
    let global_id = b.variable(input_uint3, None, spirv::StorageClass::Input, None);
    b.decorate(
        global_id,
        spirv::Decoration::BuiltIn,
        [Operand::BuiltIn(spirv::BuiltIn::GlobalInvocationId)],
    );
    let input = b.variable(
        block_pointer,
        None,
        spirv::StorageClass::StorageBuffer,
        None,
    );
    let output = b.variable(
        block_pointer,
        None,
        spirv::StorageClass::StorageBuffer,
        None,
    );
    for (variable, binding) in [(input, 0), (output, 1)] {
        b.decorate(
            variable,
            spirv::Decoration::DescriptorSet,
            [Operand::LiteralBit32(0)],
        );
        b.decorate(
            variable,
            spirv::Decoration::Binding,
            [Operand::LiteralBit32(binding)],
        );
    }
    let count = b.variable(push_pointer, None, spirv::StorageClass::PushConstant, None);
    let main = b
        .begin_function(void, None, spirv::FunctionControl::NONE, function_type)
        .unwrap();
    b.begin_block(None).unwrap();
    let id = b.load(uint3, None, global_id, None, []).unwrap();
    let x = b.composite_extract(uint, None, id, [0]).unwrap();
    let count_pointer = b.access_chain(push_uint, None, count, [zero]).unwrap();
    let count_value = b.load(uint, None, count_pointer, None, []).unwrap();
    let inside = b.u_less_than(boolean, None, x, count_value).unwrap();
    let body = b.id();
    let end = b.id();
    b.selection_merge(end, spirv::SelectionControl::NONE)
        .unwrap();
    b.branch_conditional(inside, body, end, []).unwrap();
    b.begin_block(Some(body)).unwrap();
    let from = b
        .access_chain(float_pointer, None, input, [zero, x])
        .unwrap();
    let value = b.load(float, None, from, None, []).unwrap();
    let scaled = b.f_mul(float, None, value, factor).unwrap();
    let to = b
        .access_chain(float_pointer, None, output, [zero, x])
        .unwrap();
    b.store(to, scaled, None, []).unwrap();
    b.branch(end).unwrap();
    b.begin_block(Some(end)).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(
        spirv::ExecutionModel::GLCompute,
        main,
        ENTRY_POINT,
        [global_id],
    );
    b.execution_mode(main, spirv::ExecutionMode::LocalSize, [64, 1, 1]);
    b.module()
        .assemble()
        .iter()
        .flat_map(|word| word.to_le_bytes())
        .collect()
}

fn floats_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn floats_of(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn enumerate_lists_lavapipe_with_half_double_and_float_controls2() {
    let info = lavapipe();
    assert!(info.api_version >= (1, 3, 0), "{}", info.version_text());
    assert_eq!(info.driver_name, "llvmpipe");
    let features = info.features;
    assert!(features.float16 && features.float64 && features.storage_buffer16);
    assert!(features.float_controls2, "{}", features.describe());
    for element in [FloatType::Half, FloatType::Float, FloatType::Double] {
        let controls = info.float_controls.of(element);
        assert!(
            controls.rte && controls.signed_zero_inf_nan_preserve,
            "{element:?}"
        );
    }
    let device = VulkanDevice::open(&info).expect("lavapipe opens");
    let half = device
        .fp_config(FloatType::Half)
        .expect("half is supported");
    assert!(half.round_to_nearest() && half.inf_nan());
    assert!(!device.full_profile());
    assert_eq!(device.address_bits(), 64);
}

#[test]
fn a_shader_runs_over_a_count_that_is_not_whole_groups() {
    let device = VulkanDevice::open(&lavapipe()).expect("lavapipe opens");
    let device: &dyn Device = &device;
    let kernel = device
        .build(
            "double",
            KernelForm::SpirvVulkan(&scale_shader(2.0)),
            ENTRY_POINT,
            "",
        )
        .expect("the shader builds");
    assert_eq!(kernel.work_group(256), 64);
    let values: Vec<f32> = (0..1000).map(|i| i as f32 * 0.37 - 100.0).collect();
    let mut out = vec![0u8; values.len() * 4];
    device
        .run(
            kernel.as_ref(),
            &[&floats_bytes(&values)],
            &mut [&mut out],
            values.len(),
        )
        .expect("the chunk runs");
    let expected: Vec<f32> = values.iter().map(|v| v * 2.0).collect();
    assert_eq!(floats_of(&out), expected);
}

#[test]
fn buffers_are_kept_across_chunks_of_different_sizes_and_launches_share_inputs() {
    let device = VulkanDevice::open(&lavapipe()).expect("lavapipe opens");
    let device: &dyn Device = &device;
    let double = device
        .build(
            "double",
            KernelForm::SpirvVulkan(&scale_shader(2.0)),
            ENTRY_POINT,
            "",
        )
        .expect("the shader builds");
    let negate = device
        .build(
            "negate",
            KernelForm::SpirvVulkan(&scale_shader(-1.0)),
            ENTRY_POINT,
            "",
        )
        .expect("the shader builds");
    // Shrinking, then growing past the kept buffers' capacity (64 KiB steps).
    for items in [5000usize, 70, 1, 40_000, 3] {
        let values: Vec<f32> = (0..items).map(|i| (i % 977) as f32 + 0.5).collect();
        let input = floats_bytes(&values);
        let launches = [
            Launch {
                kernel: double.as_ref(),
                work_items: items,
                work_group: None,
                outputs: 0..1,
            },
            Launch {
                kernel: negate.as_ref(),
                work_items: items,
                work_group: None,
                outputs: 1..2,
            },
        ];
        let mut results = [Vec::new(), Vec::new()];
        device
            .run_launches(
                &[input.len()],
                &mut |_, bytes| bytes.copy_from_slice(&input),
                &launches,
                &[input.len(), input.len()],
                &mut |output, bytes| results[output] = floats_of(bytes),
            )
            .expect("the chunk runs");
        let doubled: Vec<f32> = values.iter().map(|v| v * 2.0).collect();
        let negated: Vec<f32> = values.iter().map(|v| -v).collect();
        assert_eq!(results[0], doubled, "{items} items");
        assert_eq!(results[1], negated, "{items} items");
    }
}

#[test]
fn modules_it_cannot_run_are_refused_with_the_reason() {
    let device = VulkanDevice::open(&lavapipe()).expect("lavapipe opens");
    let device: &dyn Device = &device;
    let refusal = |form: KernelForm<'_>, entry_point: &str| match device.build(
        "bad",
        form,
        entry_point,
        "",
    ) {
        Err(error) => error,
        Ok(_) => panic!("built {}", form.name()),
    };
    let log_of = |error: DeviceError| match error {
        DeviceError::Build { module, log } => {
            assert_eq!(module, "bad");
            log
        }
        other => panic!("not a build refusal: {other}"),
    };
    let garbage = refusal(KernelForm::SpirvVulkan(&[1; 24]), ENTRY_POINT);
    assert!(log_of(garbage).contains("magic number"));
    let shader = scale_shader(2.0);
    let elsewhere = refusal(KernelForm::SpirvVulkan(&shader), "main");
    assert!(log_of(elsewhere).contains("no GLCompute entry point `main`"));
    let source = refusal(KernelForm::OpenclC("kernel void k() {}"), ENTRY_POINT);
    assert!(
        matches!(
            source,
            DeviceError::WrongForm {
                form: "OpenCL C source",
                ..
            }
        ),
        "{source}"
    );
    // A launch whose arguments are not the shader's bindings is refused before it runs.
    let kernel = device
        .build("double", KernelForm::SpirvVulkan(&shader), ENTRY_POINT, "")
        .expect("the shader builds");
    let mut out = vec![0u8; 16];
    let mismatch = device
        .run(kernel.as_ref(), &[&[0; 16], &[0; 16]], &mut [&mut out], 4)
        .unwrap_err();
    assert!(
        matches!(
            mismatch,
            DeviceError::Vulkan(VulkanError::Arguments {
                bindings: 2,
                arguments: 3,
                ..
            })
        ),
        "{mismatch}"
    );
}
