//! Devices, by environment: what a run needs from any device, and one implementation per
//! environment beside it.
//!
//! The run layer reaches a device through [`Device`] wherever it runs kernels (build a program
//! from the environment's [`KernelForm`], run chunks of launches over byte buffers the device
//! keeps for reuse, read the fp capabilities and address width the judging depends on). There
//! are two implementations:
//! - [`opencl`]: an OpenCL device through the ICD loader, taking SPIR-V and OpenCL C source
//!   (PoCL 3.1 takes source only);
//! - [`vulkan`]: a Vulkan device through `ash` (#45), taking Vulkan compute shaders.
//!
//! Each refuses the forms of the other environment ([`DeviceError::WrongForm`]). No
//! environment imports another (`tests/pure/layers.rs`).

pub mod opencl;
pub mod vulkan;

use crate::num::fp::FloatType;
use crate::spec::fp_config::FpConfig;
use std::any::Any;
use std::ops::Range;

/// Errors of the device layer: those every environment may meet, and each environment's own.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    /// `--platform` / `--device` matched nothing.
    #[error(
        "no {what} matches `{pattern}` (by index or name substring); available: {}",
        available.join("; ")
    )]
    NoMatch {
        what: &'static str,
        pattern: String,
        available: Vec<String>,
    },
    /// `--platform` / `--device` names several (a substring of each name, the whole name of
    /// none or several).
    #[error(
        "`{pattern}` names several {what}s: {}; give the {what}'s index, or enough of its name to name one",
        matched.join("; ")
    )]
    Ambiguous {
        what: &'static str,
        pattern: String,
        matched: Vec<String>,
    },
    /// `--platform ''` / `--device ''`.
    #[error(
        "--{what} is empty; give an index or a name, from: {}",
        available.join("; ")
    )]
    EmptyPattern {
        what: &'static str,
        available: Vec<String>,
    },
    /// The driver refused a module; the build log says why.
    #[error("the driver refused module {module}; build log:\n{log}")]
    Build { module: String, log: String },
    /// A device was handed a kernel form of another environment.
    #[error("device {device} takes {takes}, not {form}")]
    WrongForm {
        device: String,
        form: &'static str,
        takes: &'static str,
    },
    /// An OpenCL call failed, or OpenCL has no device that can run clacc's kernels.
    #[error(transparent)]
    Opencl(#[from] opencl::OpenclError),
    /// A Vulkan call failed, or a Vulkan device cannot run a shader.
    #[error(transparent)]
    Vulkan(#[from] vulkan::VulkanError),
}

/// A kernel in the form a device builds it from, as an environment's emitter in
/// [`crate::kernel`] writes it (borrowed: building copies it).
#[derive(Clone, Copy, Debug)]
pub enum KernelForm<'a> {
    /// A SPIR-V module of the OpenCL SPIR-V environment, as little-endian bytes
    /// ([`crate::kernel::spirv_opencl`]).
    SpirvOpencl(&'a [u8]),
    /// OpenCL C source ([`crate::kernel::opencl_c`]), built for the newest OpenCL C version the
    /// device compiles.
    OpenclC(&'a str),
    /// A compute shader of the Vulkan SPIR-V environment, as little-endian bytes (#45): entry
    /// point `GLCompute`, argument i at `DescriptorSet 0, Binding i`, the work-item count a
    /// push-constant `uint` at offset 0.
    SpirvVulkan(&'a [u8]),
}

impl KernelForm<'_> {
    /// The form in words, for refusals.
    pub fn name(&self) -> &'static str {
        match self {
            KernelForm::SpirvOpencl(_) => "SPIR-V for OpenCL",
            KernelForm::OpenclC(_) => "OpenCL C source",
            KernelForm::SpirvVulkan(_) => "a Vulkan compute shader",
        }
    }
}

/// A device opened for running kernels: what the run layer needs of it in any environment.
/// Shared by the threads of a run.
pub trait Device: Send + Sync {
    /// The fp capabilities of a type, or `None` where the device does not support the type.
    fn fp_config(&self, element: FloatType) -> Option<FpConfig>;

    /// Whether the device claims the full profile, whose rounding and subnormal requirements
    /// its fp capabilities must then meet.
    fn full_profile(&self) -> bool;

    /// The width of the device's addresses, which a module's memory model must match.
    fn address_bits(&self) -> u32;

    /// Builds `form` with `options` and finds its kernel `entry_point`. `module_name` names it
    /// in errors; a refusal is [`DeviceError::Build`] with the build log.
    fn build(
        &self,
        module_name: &str,
        form: KernelForm<'_>,
        entry_point: &str,
        options: &str,
    ) -> Result<Box<dyn BuiltKernel>, DeviceError>;

    /// Runs a chunk: several kernels on the same inputs with one wait. Input `i`
    /// (`input_bytes[i]` long) is written by `fill(i, bytes)` into its device buffer, every
    /// launch runs, and then each output `o` (`output_bytes[o]` long) is handed to
    /// `take(o, bytes)` in order. Buffers are kept for the next chunk.
    fn run_launches(
        &self,
        input_bytes: &[usize],
        fill: &mut dyn FnMut(usize, &mut [u8]),
        launches: &[Launch<'_>],
        output_bytes: &[usize],
        take: &mut dyn FnMut(usize, &[u8]),
    ) -> Result<(), DeviceError>;
}

impl dyn Device + '_ {
    /// Runs `built` over `work_items` items: the inputs are copied in as kernel arguments
    /// 0..n, the outputs follow them as arguments and are read back into `outputs`.
    pub fn run(
        &self,
        built: &dyn BuiltKernel,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
        work_items: usize,
    ) -> Result<(), DeviceError> {
        let input_bytes: Vec<usize> = inputs.iter().map(|input| input.len()).collect();
        let output_bytes: Vec<usize> = outputs.iter().map(|output| output.len()).collect();
        let launch = Launch {
            kernel: built,
            work_items,
            work_group: None,
            outputs: 0..outputs.len(),
        };
        self.run_launches(
            &input_bytes,
            &mut |input, bytes| bytes.copy_from_slice(inputs[input]),
            &[launch],
            &output_bytes,
            &mut |output, bytes| outputs[output].copy_from_slice(bytes),
        )
    }
}

/// A kernel a [`Device`] built, run by that device alone (the device thread owns it).
pub trait BuiltKernel: Any + Send {
    /// The work-group size of launches that ask for groups of `preferred` work-items: the size
    /// the module requires, or else one the device takes for this kernel.
    fn work_group(&self, preferred: usize) -> usize;
}

/// One kernel launch of [`Device::run_launches`]: its kernel, how many work-items in groups
/// of how many, and which of the call's outputs it writes. Its arguments are every input, then
/// those outputs.
pub struct Launch<'a> {
    pub kernel: &'a dyn BuiltKernel,
    pub work_items: usize,
    /// The local size, which divides `work_items`; `None` leaves the groups to the device.
    pub work_group: Option<usize>,
    pub outputs: Range<usize>,
}
