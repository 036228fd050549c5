//! [`VulkanDevice`]: a logical device with one compute queue, its compute pipelines, and the
//! host-visible storage buffers its chunks run over.

use super::{
    call, create_instance, loader, physical_devices, shader, ShaderFloat8Features,
    VulkanDeviceInfo, VulkanError,
};
use crate::device::{BuiltKernel, Device, DeviceError, KernelForm, Launch};
use crate::num::fp::FloatType;
use crate::spec::fp_config::FpConfig;
use ash::vk;
use opencl3::device::{CL_FP_DENORM, CL_FP_INF_NAN, CL_FP_ROUND_TO_NEAREST, CL_FP_ROUND_TO_ZERO};
use std::any::Any;
use std::ffi::CString;
use std::sync::{Arc, Mutex, PoisonError};

/// Buffers are made in whole steps of this many bytes, so a chunk a few bytes larger than the
/// last (an input padded to whole 3-vectors) still fits the buffer kept from it.
const BUFFER_STEP: u64 = 1 << 16;

/// How long a chunk may run before clacc gives up on the device (a chunk on lavapipe takes
/// seconds at most; a hung driver should not hang the run).
const CHUNK_TIMEOUT_SECONDS: u64 = 600;

/// A device opened for running shaders: this environment's [`Device`].
pub struct VulkanDevice {
    pub info: VulkanDeviceInfo,
    shared: Arc<Shared>,
}

/// What the device and the kernels it built share: the instance and logical device, destroyed
/// when the last of them goes (pipelines must go before their device).
struct Shared {
    label: String,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    memory: vk::PhysicalDeviceMemoryProperties,
    max_group_count_x: u32,
    /// Descriptor-set and pipeline layouts, one per storage-buffer count.
    layouts: Mutex<Vec<Layout>>,
    /// The objects of a chunk; the queue too is used only under this lock (Vulkan requires
    /// external synchronisation of a queue, a command pool and a descriptor pool).
    run: Mutex<RunState>,
}

#[derive(Clone, Copy)]
struct Layout {
    bindings: u32,
    set_layout: vk::DescriptorSetLayout,
    pipeline_layout: vk::PipelineLayout,
}

/// A storage buffer bound to its own host-visible, host-coherent memory, mapped for its life.
struct Slot {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    capacity: u64,
    mapped: *mut u8,
}

/// The objects every chunk reuses. Handles start null: destroying a null handle does nothing,
/// so a device opened halfway is torn down by the same code as a whole one.
struct RunState {
    command_pool: vk::CommandPool,
    command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    descriptor_pool: vk::DescriptorPool,
    /// How many sets and storage-buffer descriptors `descriptor_pool` holds.
    pool_capacity: (u32, u32),
    inputs: Vec<Option<Slot>>,
    outputs: Vec<Option<Slot>>,
    /// Why a chunk's wait failed (a timeout, a lost device): its command buffer may still be
    /// in flight, so no later chunk may reuse it or the buffers.
    failed: Option<String>,
}

// SAFETY: Vulkan handles may be used from any thread; those that need external synchronisation
// (the queue, the command and descriptor pools, the mapped memory the slots point into) are
// only used under `Shared::run`, and the layouts under `Shared::layouts`.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Drop for Shared {
    fn drop(&mut self) {
        let device = &self.device;
        let run = self.run.get_mut().unwrap_or_else(PoisonError::into_inner);
        let layouts = self
            .layouts
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        if run.failed.is_some() {
            // A chunk may still be running (a hung or lost device): waiting could hang the
            // process and destroying what it uses is undefined, so everything is left as it
            // is, for the process's exit to reclaim.
            return;
        }
        // SAFETY: every object was made from this device and is destroyed once, after the
        // device is idle; kernels (pipelines) hold this value, so none is left.
        unsafe {
            // An error here (device lost) cannot be acted on; destruction goes on.
            let _ = device.device_wait_idle();
            for slot in run.inputs.drain(..).chain(run.outputs.drain(..)).flatten() {
                free_slot(device, &slot);
            }
            device.destroy_descriptor_pool(run.descriptor_pool, None);
            device.destroy_fence(run.fence, None);
            device.destroy_command_pool(run.command_pool, None);
            for layout in layouts.drain(..) {
                device.destroy_pipeline_layout(layout.pipeline_layout, None);
                device.destroy_descriptor_set_layout(layout.set_layout, None);
            }
            device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// Frees a slot's buffer and memory (unmapped with it).
///
/// # Safety
/// The slot was made on `device` and the device no longer uses it.
unsafe fn free_slot(device: &ash::Device, slot: &Slot) {
    device.destroy_buffer(slot.buffer, None);
    device.free_memory(slot.memory, None);
}

/// A compute pipeline built from one shader: this environment's [`BuiltKernel`].
pub struct VulkanKernel {
    module_name: String,
    pipeline: vk::Pipeline,
    layout: Layout,
    local_size: u32,
    shared: Arc<Shared>,
}

impl Drop for VulkanKernel {
    fn drop(&mut self) {
        // Under the run lock, so that no chunk records or runs it meanwhile; after a failed
        // wait it may still be in flight, and is left (see `Drop for Shared`).
        let run = self.shared.lock_run();
        if run.failed.is_none() {
            // SAFETY: the pipeline was made on this device; chunks wait for their fence before
            // returning, so no command buffer in flight uses it.
            unsafe { self.shared.device.destroy_pipeline(self.pipeline, None) };
        }
    }
}

impl BuiltKernel for VulkanKernel {
    /// The module's `LocalSize`, which Vulkan fixes at build.
    fn work_group(&self, _preferred: usize) -> usize {
        self.local_size as usize
    }
}

/// The features clacc's shaders may use, each enabled where the device offers it.
struct Enabled {
    core: vk::PhysicalDeviceFeatures,
    vk11: vk::PhysicalDeviceVulkan11Features<'static>,
    vk12: vk::PhysicalDeviceVulkan12Features<'static>,
    float_controls2: bool,
    /// `VK_EXT_shader_float8`'s `shaderFloat8`.
    float8: bool,
}

fn enabled_features(info: &VulkanDeviceInfo) -> Enabled {
    let f = &info.features;
    let on = |offered: bool| vk::Bool32::from(offered);
    Enabled {
        core: vk::PhysicalDeviceFeatures::default()
            .shader_float64(f.float64)
            .shader_int64(f.int64)
            .shader_int16(f.int16),
        vk11: vk::PhysicalDeviceVulkan11Features {
            storage_buffer16_bit_access: on(f.storage_buffer16),
            ..Default::default()
        },
        vk12: vk::PhysicalDeviceVulkan12Features {
            shader_float16: on(f.float16),
            shader_int8: on(f.int8),
            storage_buffer8_bit_access: on(f.int8),
            scalar_block_layout: on(f.scalar_block_layout),
            ..Default::default()
        },
        float_controls2: f.float_controls2,
        float8: f.float8,
    }
}

/// A logical device just made, before [`Shared`] owns it.
struct Opened {
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
}

impl VulkanDevice {
    /// Makes an instance and a logical device on `info`'s physical device (found again by its
    /// UUID) with every feature clacc's shaders may need that it offers, one compute queue and
    /// a command pool.
    pub fn open(info: &VulkanDeviceInfo) -> Result<VulkanDevice, VulkanError> {
        if let Some(reason) = info.unusable_reason() {
            return Err(VulkanError::Unusable {
                device: info.label(),
                reason,
            });
        }
        let entry = &loader::loader()?.entry;
        let instance = create_instance(entry)?;
        match Self::open_on(&instance, info) {
            Ok(parts) => Self::finish(instance, info, parts),
            Err(error) => {
                // SAFETY: nothing made from the instance outlives this failure.
                unsafe { instance.destroy_instance(None) };
                Err(error)
            }
        }
    }

    /// The logical device and its queue, on `instance`.
    fn open_on(instance: &ash::Instance, info: &VulkanDeviceInfo) -> Result<Opened, VulkanError> {
        let physical = physical_devices(instance)?
            .into_iter()
            .find(|(listed, _)| listed.uuid == info.uuid && listed.name == info.name)
            .map(|(_, handle)| handle)
            .ok_or_else(|| VulkanError::Gone(info.label()))?;
        // SAFETY: a physical device of this instance.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|family| {
                family.queue_flags.contains(vk::QueueFlags::COMPUTE) && family.queue_count > 0
            })
            .ok_or_else(|| VulkanError::Unusable {
                device: info.label(),
                reason: "no queue family takes compute work".to_string(),
            })? as u32;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut enabled = enabled_features(info);
        let mut float_controls2 = vk::PhysicalDeviceShaderFloatControls2FeaturesKHR::default()
            .shader_float_controls2(true);
        let mut extensions = Vec::new();
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .features(enabled.core)
            .push_next(&mut enabled.vk11)
            .push_next(&mut enabled.vk12);
        if enabled.float_controls2 {
            extensions.push(c"VK_KHR_shader_float_controls2".as_ptr());
            features = features.push_next(&mut float_controls2);
        }
        let mut float8 = ShaderFloat8Features {
            shader_float8: vk::TRUE,
            ..ShaderFloat8Features::default()
        };
        if enabled.float8 {
            extensions.push(c"VK_EXT_shader_float8".as_ptr());
            features = features.push_next(&mut float8);
        }
        let create_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extensions)
            .push_next(&mut features);
        // SAFETY: the features and extensions enabled are those the device reports offering;
        // every pointer lives for the call.
        let device = unsafe { instance.create_device(physical, &create_info, None) }
            .map_err(call("vkCreateDevice"))?;
        // SAFETY: the family and index were created above.
        let queue = unsafe { device.get_device_queue(family, 0) };
        // SAFETY: a physical device of this instance.
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        // The command pool is made by `finish`, once the device is owned by `Shared`.
        Ok(Opened {
            device,
            queue,
            family,
            memory,
        })
    }

    fn finish(
        instance: ash::Instance,
        info: &VulkanDeviceInfo,
        opened: Opened,
    ) -> Result<VulkanDevice, VulkanError> {
        let Opened {
            device,
            queue,
            family,
            memory,
        } = opened;
        let shared = Arc::new(Shared {
            label: info.label(),
            instance,
            device,
            queue,
            memory,
            max_group_count_x: info.max_group_count_x.max(1),
            layouts: Mutex::new(Vec::new()),
            run: Mutex::new(RunState {
                command_pool: vk::CommandPool::null(),
                command_buffer: vk::CommandBuffer::null(),
                fence: vk::Fence::null(),
                descriptor_pool: vk::DescriptorPool::null(),
                pool_capacity: (0, 0),
                inputs: Vec::new(),
                outputs: Vec::new(),
                failed: None,
            }),
        });
        shared.make_command_objects(family)?;
        Ok(VulkanDevice {
            info: info.clone(),
            shared,
        })
    }
}

impl Shared {
    fn lock_run(&self) -> std::sync::MutexGuard<'_, RunState> {
        self.run.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The command pool, its one command buffer and the chunk fence.
    fn make_command_objects(&self, family: u32) -> Result<(), VulkanError> {
        let mut run = self.lock_run();
        let pool_info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER)
            .queue_family_index(family);
        // SAFETY: a valid create info; the pool is destroyed by `Drop for Shared`.
        run.command_pool = unsafe { self.device.create_command_pool(&pool_info, None) }
            .map_err(call("vkCreateCommandPool"))?;
        let allocate_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(run.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool above, used under the lock.
        let buffers = unsafe { self.device.allocate_command_buffers(&allocate_info) }
            .map_err(call("vkAllocateCommandBuffers"))?;
        run.command_buffer = buffers[0];
        // SAFETY: a valid create info; destroyed by `Drop for Shared`.
        run.fence = unsafe {
            self.device
                .create_fence(&vk::FenceCreateInfo::default(), None)
        }
        .map_err(call("vkCreateFence"))?;
        Ok(())
    }

    /// The layouts of shaders binding `bindings` storage buffers (bindings 0..n of set 0,
    /// compute stage) and a 4-byte push constant (the work-item count).
    fn layout_for(&self, bindings: u32) -> Result<Layout, VulkanError> {
        let mut layouts = self.layouts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(layout) = layouts.iter().find(|l| l.bindings == bindings) {
            return Ok(*layout);
        }
        let entries: Vec<vk::DescriptorSetLayoutBinding> = (0..bindings)
            .map(|binding| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let set_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&entries);
        // SAFETY: a valid create info; destroyed by `Drop for Shared`.
        let set_layout = unsafe { self.device.create_descriptor_set_layout(&set_info, None) }
            .map_err(call("vkCreateDescriptorSetLayout"))?;
        let set_layouts = [set_layout];
        let push = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(4)];
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&set_layouts)
            .push_constant_ranges(&push);
        // SAFETY: as above.
        let pipeline_layout =
            match unsafe { self.device.create_pipeline_layout(&layout_info, None) } {
                Ok(layout) => layout,
                Err(result) => {
                    // SAFETY: made above and used by nothing yet.
                    unsafe { self.device.destroy_descriptor_set_layout(set_layout, None) };
                    return Err(call("vkCreatePipelineLayout")(result));
                }
            };
        let layout = Layout {
            bindings,
            set_layout,
            pipeline_layout,
        };
        layouts.push(layout);
        Ok(layout)
    }

    /// The memory type for a buffer whose requirements allow `type_bits`: host-visible and
    /// host-coherent (no flushes), host-cached where there is such a type (reading results
    /// back from uncached memory is slow).
    fn memory_type(&self, type_bits: u32) -> Option<u32> {
        let needed = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
        let allowed = |index: usize, flags: vk::MemoryPropertyFlags| {
            type_bits & (1 << index) != 0 && types[index].property_flags.contains(flags)
        };
        let cached = needed | vk::MemoryPropertyFlags::HOST_CACHED;
        (0..types.len())
            .find(|&index| allowed(index, cached))
            .or_else(|| (0..types.len()).find(|&index| allowed(index, needed)))
            .map(|index| index as u32)
    }

    /// A new slot of at least `bytes` bytes, in whole [`BUFFER_STEP`]s.
    fn make_slot(&self, bytes: usize) -> Result<Slot, VulkanError> {
        let capacity = (bytes.max(1) as u64).div_ceil(BUFFER_STEP) * BUFFER_STEP;
        let buffer_info = vk::BufferCreateInfo::default()
            .size(capacity)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: a valid create info.
        let buffer = unsafe { self.device.create_buffer(&buffer_info, None) }
            .map_err(call("vkCreateBuffer"))?;
        let slot = self.bind_memory(buffer, capacity);
        if slot.is_err() {
            // SAFETY: made above, bound to nothing in use.
            unsafe { self.device.destroy_buffer(buffer, None) };
        }
        slot
    }

    fn bind_memory(&self, buffer: vk::Buffer, capacity: u64) -> Result<Slot, VulkanError> {
        // SAFETY: a buffer of this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(buffer) };
        let memory_type = self
            .memory_type(requirements.memory_type_bits)
            .ok_or_else(|| VulkanError::Resources {
                device: self.label.clone(),
                reason: "no host-visible, host-coherent memory type for storage buffers"
                    .to_string(),
            })?;
        let allocate_info = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(memory_type);
        // SAFETY: a valid allocate info.
        let memory = unsafe { self.device.allocate_memory(&allocate_info, None) }
            .map_err(call("vkAllocateMemory"))?;
        // SAFETY: fresh memory of a type the buffer allows, bound once at offset 0, then
        // mapped whole (host-visible) for the slot's life.
        let bound = unsafe {
            self.device
                .bind_buffer_memory(buffer, memory, 0)
                .map_err(call("vkBindBufferMemory"))
                .and_then(|()| {
                    self.device
                        .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                        .map_err(call("vkMapMemory"))
                })
        };
        match bound {
            Ok(mapped) => Ok(Slot {
                buffer,
                memory,
                capacity,
                mapped: mapped.cast(),
            }),
            Err(error) => {
                // SAFETY: allocated above, in use by nothing.
                unsafe { self.device.free_memory(memory, None) };
                Err(error)
            }
        }
    }

    /// Makes every slot of `slots` at least as large as `sizes` asks (one slot per size),
    /// growing those too small and keeping the rest.
    fn ensure_slots(
        &self,
        slots: &mut Vec<Option<Slot>>,
        sizes: &[usize],
    ) -> Result<(), VulkanError> {
        if slots.len() < sizes.len() {
            slots.resize_with(sizes.len(), || None);
        }
        for (slot, bytes) in slots.iter_mut().zip(sizes) {
            if slot.as_ref().is_some_and(|s| s.capacity >= *bytes as u64) {
                continue;
            }
            if let Some(old) = slot.take() {
                // SAFETY: the previous chunk waited for its fence: the device is done with it.
                unsafe { free_slot(&self.device, &old) };
            }
            *slot = Some(self.make_slot(*bytes)?);
        }
        Ok(())
    }

    /// A descriptor pool of at least `sets` sets and `descriptors` storage-buffer descriptors,
    /// emptied.
    fn ready_descriptor_pool(
        &self,
        run: &mut RunState,
        sets: u32,
        descriptors: u32,
    ) -> Result<(), VulkanError> {
        let (held_sets, held_descriptors) = run.pool_capacity;
        if held_sets >= sets
            && held_descriptors >= descriptors
            && run.descriptor_pool != vk::DescriptorPool::null()
        {
            // SAFETY: the previous chunk waited for its fence: no set of the pool is in use.
            return unsafe {
                self.device.reset_descriptor_pool(
                    run.descriptor_pool,
                    vk::DescriptorPoolResetFlags::empty(),
                )
            }
            .map_err(call("vkResetDescriptorPool"));
        }
        // SAFETY: as above; a null pool is no object.
        unsafe {
            self.device
                .destroy_descriptor_pool(run.descriptor_pool, None)
        };
        run.descriptor_pool = vk::DescriptorPool::null();
        run.pool_capacity = (0, 0);
        let capacity = (
            sets.max(held_sets * 2).max(4),
            descriptors.max(held_descriptors * 2).max(16),
        );
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(capacity.1)];
        let pool_info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(capacity.0)
            .pool_sizes(&sizes);
        // SAFETY: a valid create info; destroyed by `Drop for Shared` or here on growth.
        run.descriptor_pool = unsafe { self.device.create_descriptor_pool(&pool_info, None) }
            .map_err(call("vkCreateDescriptorPool"))?;
        run.pool_capacity = capacity;
        Ok(())
    }
}

/// The byte range a descriptor binds: the argument's bytes (a range of 0 is invalid, so an
/// empty argument binds the whole buffer, which the shader does not read for want of items).
fn descriptor_range(bytes: usize) -> u64 {
    if bytes == 0 {
        vk::WHOLE_SIZE
    } else {
        bytes as u64
    }
}

/// The slice of `slot` the host fills or reads.
///
/// # Safety
/// `slot` is mapped and the device does not use it while the slice lives.
unsafe fn host_bytes(slot: &mut Slot, bytes: usize) -> &mut [u8] {
    std::slice::from_raw_parts_mut(slot.mapped, bytes)
}

impl VulkanDevice {
    /// A refusal of `module_name` by this device, as [`DeviceError::Build`].
    fn refused(module_name: &str, log: String) -> DeviceError {
        DeviceError::Build {
            module: module_name.to_string(),
            log,
        }
    }

    /// Records one launch: its pipeline and descriptor set, the count pushed, and as many
    /// dispatches as the device's group-count limit needs (`vkCmdDispatchBase` offsets
    /// `GlobalInvocationId` so each covers its own items).
    fn record_launch(
        &self,
        command_buffer: vk::CommandBuffer,
        kernel: &VulkanKernel,
        set: vk::DescriptorSet,
        work_items: u32,
    ) {
        let device = &self.shared.device;
        let groups = work_items.div_ceil(kernel.local_size);
        // SAFETY: recording into the chunk's command buffer (begun, under the run lock) with
        // objects of this device that outlive the chunk's wait.
        unsafe {
            device.cmd_bind_pipeline(
                command_buffer,
                vk::PipelineBindPoint::COMPUTE,
                kernel.pipeline,
            );
            device.cmd_bind_descriptor_sets(
                command_buffer,
                vk::PipelineBindPoint::COMPUTE,
                kernel.layout.pipeline_layout,
                0,
                &[set],
                &[],
            );
            device.cmd_push_constants(
                command_buffer,
                kernel.layout.pipeline_layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &work_items.to_le_bytes(),
            );
            let mut base = 0;
            while base < groups {
                let count = (groups - base).min(self.shared.max_group_count_x);
                device.cmd_dispatch_base(command_buffer, base, 0, 0, count, 1, 1);
                base += count;
            }
        }
    }
}

impl Device for VulkanDevice {
    /// The float-controls properties read as OpenCL's fp config: round to nearest where
    /// `RoundingModeRTE` may be set, to zero where RTZ may, denormals where `DenormPreserve`
    /// may (else they may be flushed), Inf and NaN where `SignedZeroInfNanPreserve` may.
    /// `None` where shaders cannot compute in the type.
    fn fp_config(&self, element: FloatType) -> Option<FpConfig> {
        if !self.info.features.supports(element) {
            return None;
        }
        let controls = self.info.float_controls.of(element);
        let bits = [
            (controls.rte, CL_FP_ROUND_TO_NEAREST),
            (controls.rtz, CL_FP_ROUND_TO_ZERO),
            (controls.denorm_preserve, CL_FP_DENORM),
            (controls.signed_zero_inf_nan_preserve, CL_FP_INF_NAN),
        ];
        Some(FpConfig(
            bits.iter()
                .filter(|(set, _)| *set)
                .fold(0, |all, (_, bit)| all | bit),
        ))
    }

    /// Vulkan has no full profile: its precision is the environment's table.
    fn full_profile(&self) -> bool {
        false
    }

    /// Storage buffers are addressed logically; 64 stands for the host's pointers, which
    /// clacc's buffers are sized by.
    fn address_bits(&self) -> u32 {
        64
    }

    /// Checks the module (SPIR-V words, the `GLCompute` entry point, a one-dimensional
    /// `LocalSize`), reads how many storage buffers it binds, and makes its compute pipeline
    /// with a layout of that many, so that a driver's refusal surfaces here and not at the
    /// first launch. Vulkan has no build options: `options` must be empty.
    fn build(
        &self,
        module_name: &str,
        form: KernelForm<'_>,
        entry_point: &str,
        options: &str,
    ) -> Result<Box<dyn BuiltKernel>, DeviceError> {
        let KernelForm::SpirvVulkan(bytes) = form else {
            return Err(DeviceError::WrongForm {
                device: self.info.label(),
                form: form.name(),
                takes: KernelForm::SpirvVulkan(&[]).name(),
            });
        };
        if !options.trim().is_empty() {
            return Err(Self::refused(
                module_name,
                format!("Vulkan takes no build options; given `{options}`"),
            ));
        }
        let words = shader::words_of(bytes).map_err(|why| Self::refused(module_name, why))?;
        let facts =
            shader::read(&words, entry_point).map_err(|why| Self::refused(module_name, why))?;
        let layout = self.shared.layout_for(facts.bindings)?;
        let device = &self.shared.device;
        let module_info = vk::ShaderModuleCreateInfo::default().code(&words);
        // SAFETY: whole SPIR-V words with a GLCompute entry point; the driver copies them.
        let module =
            unsafe { device.create_shader_module(&module_info, None) }.map_err(|result| {
                Self::refused(
                    module_name,
                    format!("vkCreateShaderModule failed: {result}"),
                )
            })?;
        let entry_name = CString::new(entry_point).map_err(|_| {
            Self::refused(
                module_name,
                "the entry point's name holds a NUL".to_string(),
            )
        })?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry_name);
        let pipeline_info = vk::ComputePipelineCreateInfo::default()
            .flags(vk::PipelineCreateFlags::DISPATCH_BASE)
            .stage(stage)
            .layout(layout.pipeline_layout);
        // SAFETY: a valid create info whose module and layout live for the call.
        let created = unsafe {
            device.create_compute_pipelines(vk::PipelineCache::null(), &[pipeline_info], None)
        };
        // SAFETY: the pipeline (made or not) no longer needs the module.
        unsafe { device.destroy_shader_module(module, None) };
        let pipeline = match created {
            Ok(pipelines) => pipelines[0],
            Err((pipelines, result)) => {
                for pipeline in pipelines {
                    // SAFETY: null or made just now, used by nothing.
                    unsafe { device.destroy_pipeline(pipeline, None) };
                }
                return Err(Self::refused(
                    module_name,
                    format!("vkCreateComputePipelines failed: {result}"),
                ));
            }
        };
        Ok(Box::new(VulkanKernel {
            module_name: module_name.to_string(),
            pipeline,
            layout,
            local_size: facts.local_size,
            shared: Arc::clone(&self.shared),
        }))
    }

    /// Fills the kept host-visible buffers (grown where a chunk needs more), records every
    /// launch into one command buffer, submits it once and waits for its fence, then hands
    /// each output to `take` straight from its mapped buffer.
    fn run_launches(
        &self,
        input_bytes: &[usize],
        fill: &mut dyn FnMut(usize, &mut [u8]),
        launches: &[Launch<'_>],
        output_bytes: &[usize],
        take: &mut dyn FnMut(usize, &[u8]),
    ) -> Result<(), DeviceError> {
        let shared = &self.shared;
        let device = &shared.device;
        let mut kernels = Vec::with_capacity(launches.len());
        for launch in launches {
            let kernel = (launch.kernel as &dyn Any)
                .downcast_ref::<VulkanKernel>()
                .expect("a Vulkan device runs the shaders it built");
            assert!(
                Arc::ptr_eq(&kernel.shared, shared),
                "a Vulkan device runs the shaders it built"
            );
            let arguments = input_bytes.len() + launch.outputs.len();
            if kernel.layout.bindings as usize != arguments {
                return Err(VulkanError::Arguments {
                    module: kernel.module_name.clone(),
                    bindings: kernel.layout.bindings,
                    arguments,
                }
                .into());
            }
            let work_items =
                u32::try_from(launch.work_items).map_err(|_| VulkanError::Resources {
                    device: shared.label.clone(),
                    reason: format!("{} work-items exceed the uint count", launch.work_items),
                })?;
            kernels.push((kernel, work_items));
        }
        let mut guard = shared.lock_run();
        let run = &mut *guard;
        if let Some(reason) = &run.failed {
            return Err(VulkanError::Failed {
                device: shared.label.clone(),
                reason: reason.clone(),
            }
            .into());
        }
        shared.ensure_slots(&mut run.inputs, input_bytes)?;
        shared.ensure_slots(&mut run.outputs, output_bytes)?;
        for (input, bytes) in input_bytes.iter().enumerate() {
            let slot = run.inputs[input].as_mut().expect("ensured above");
            // SAFETY: mapped, at least `bytes` long, and the device is idle (the last chunk
            // waited for its fence).
            fill(input, unsafe { host_bytes(slot, *bytes) });
        }
        let descriptors: usize = launches
            .iter()
            .map(|launch| input_bytes.len() + launch.outputs.len())
            .sum();
        let too_many = |what: &str| VulkanError::Resources {
            device: shared.label.clone(),
            reason: format!("a chunk of {what} does not fit Vulkan's 32-bit counts"),
        };
        shared.ready_descriptor_pool(
            run,
            u32::try_from(launches.len()).map_err(|_| too_many("launches"))?,
            u32::try_from(descriptors).map_err(|_| too_many("descriptors"))?,
        )?;
        let set_layouts: Vec<vk::DescriptorSetLayout> = kernels
            .iter()
            .map(|(kernel, _)| kernel.layout.set_layout)
            .collect();
        let sets = if set_layouts.is_empty() {
            Vec::new()
        } else {
            let allocate_info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(run.descriptor_pool)
                .set_layouts(&set_layouts);
            // SAFETY: the pool holds enough sets and descriptors (ready_descriptor_pool).
            unsafe { device.allocate_descriptor_sets(&allocate_info) }
                .map_err(call("vkAllocateDescriptorSets"))?
        };
        for (launch, set) in launches.iter().zip(&sets) {
            let arguments = run.inputs.iter().zip(input_bytes).chain(
                run.outputs[launch.outputs.clone()]
                    .iter()
                    .zip(&output_bytes[launch.outputs.clone()]),
            );
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = arguments
                .map(|(slot, bytes)| {
                    [vk::DescriptorBufferInfo::default()
                        .buffer(slot.as_ref().expect("ensured above").buffer)
                        .offset(0)
                        .range(descriptor_range(*bytes))]
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = infos
                .iter()
                .enumerate()
                .map(|(binding, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(*set)
                        .dst_binding(binding as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            // SAFETY: sets of this chunk, not in use; buffers alive until the chunk ends.
            unsafe { device.update_descriptor_sets(&writes, &[]) };
        }
        let command_buffer = run.command_buffer;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the command buffer is not in flight (the last chunk waited), pool flag
        // RESET_COMMAND_BUFFER lets begin reset it.
        unsafe { device.begin_command_buffer(command_buffer, &begin) }
            .map_err(call("vkBeginCommandBuffer"))?;
        for ((kernel, work_items), set) in kernels.iter().zip(&sets) {
            self.record_launch(command_buffer, kernel, *set, *work_items);
        }
        // The shaders' writes made visible to the host's reads after the fence.
        let to_host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording as above.
        unsafe {
            device.cmd_pipeline_barrier(
                command_buffer,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &to_host,
                &[],
                &[],
            );
            device.end_command_buffer(command_buffer)
        }
        .map_err(call("vkEndCommandBuffer"))?;
        let command_buffers = [command_buffer];
        let submit = [vk::SubmitInfo::default().command_buffers(&command_buffers)];
        // SAFETY: the queue is used under the run lock; the fence is unsignalled (reset after
        // each wait, made unsignalled).
        unsafe { device.queue_submit(shared.queue, &submit, run.fence) }
            .map_err(call("vkQueueSubmit"))?;
        // SAFETY: the fence of the submit above.
        let waited = unsafe {
            device.wait_for_fences(&[run.fence], true, CHUNK_TIMEOUT_SECONDS * 1_000_000_000)
        };
        let failure = match waited {
            Ok(()) => None,
            Err(vk::Result::TIMEOUT) => Some(VulkanError::Timeout {
                device: shared.label.clone(),
                seconds: CHUNK_TIMEOUT_SECONDS,
            }),
            Err(result) => Some(call("vkWaitForFences")(result)),
        };
        if let Some(error) = failure {
            run.failed = Some(error.to_string());
            return Err(error.into());
        }
        // SAFETY: signalled and no longer waited on.
        unsafe { device.reset_fences(&[run.fence]) }.map_err(call("vkResetFences"))?;
        for (output, bytes) in output_bytes.iter().enumerate() {
            let slot = run.outputs[output].as_mut().expect("ensured above");
            // SAFETY: mapped, at least `bytes` long, coherent, and the device is done (fence).
            take(output, unsafe { host_bytes(slot, *bytes) });
        }
        Ok(())
    }
}
