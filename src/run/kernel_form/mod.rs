//! The kernel a unit hands its device, by the run's path ([`KernelPath`]): clacc's SPIR-V module
//! or OpenCL C source for the unit, or the user's own (`--kernel`), written once for the ULP,
//! edge and conversion units. Extension units are SPIR-V only and build their modules
//! themselves.

use crate::device::KernelForm;
use crate::kernel::{self, KernelSpec};
use crate::run::pipeline::UnitError;
use crate::run::vulkan::VulkanModes;
use crate::run::{UserCode, UserKernel};
use crate::spec::conversion::Conversion;
use crate::spec::environment::KernelPath;

/// What a unit runs: one function's kernel, or one conversion's.
#[derive(Clone, Copy, Debug)]
pub(crate) enum UnitKernel<'a> {
    Function(&'a KernelSpec),
    /// The conversion and the device's address bits (which its SPIR-V module depends on).
    Conversion(&'a Conversion, u32),
}

/// The path a unit's kernel takes, with what the vulkan path's shaders also depend on: the
/// execution modes of the unit's type and whether the unit is a RelaxedPrecision one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KernelTarget {
    pub(crate) path: KernelPath,
    pub(crate) vulkan: Option<VulkanShader>,
}

/// How the vulkan path builds a unit's shader.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VulkanShader {
    pub(crate) modes: VulkanModes,
    /// `--profile relaxed`: the instruction is decorated `RelaxedPrecision`.
    pub(crate) relaxed_precision: bool,
}

impl From<KernelPath> for KernelTarget {
    fn from(path: KernelPath) -> KernelTarget {
        KernelTarget { path, vulkan: None }
    }
}

impl VulkanShader {
    /// The emitter's modes for these settings.
    fn shader_modes(self) -> kernel::spirv_vulkan::ShaderModes {
        use kernel::spirv_vulkan::{DenormMode, RoundingMode, ShaderModes};
        ShaderModes {
            relaxed_precision: self.relaxed_precision,
            signed_zero_inf_nan_preserve: self.modes.signed_zero_inf_nan_preserve,
            denorm: self.modes.denorm_preserve.then_some(DenormMode::Preserve),
            rounding: self
                .modes
                .round_to_nearest_even
                .then_some(RoundingMode::Rte),
        }
    }
}

/// A kernel in the form its path builds it from, owned by the unit until the build copies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OwnedKernel {
    Spirv(Vec<u8>),
    OpenclC(String),
    SpirvVulkan(Vec<u8>),
}

impl OwnedKernel {
    /// The form [`crate::device::Device::build`] takes.
    pub(crate) fn form(&self) -> KernelForm<'_> {
        match self {
            OwnedKernel::Spirv(bytes) => KernelForm::SpirvOpencl(bytes),
            OwnedKernel::OpenclC(source) => KernelForm::OpenclC(source),
            OwnedKernel::SpirvVulkan(bytes) => KernelForm::SpirvVulkan(bytes),
        }
    }
}

/// The module's name (for messages and build logs) and the kernel for `unit` on `target`'s
/// path: the user's, when `--kernel` gives one (it must be written for the path), else clacc's
/// own.
pub(crate) fn unit_kernel(
    target: impl Into<KernelTarget>,
    user: Option<&UserKernel>,
    unit: UnitKernel<'_>,
) -> Result<(String, OwnedKernel), UnitError> {
    let target = target.into();
    let path = target.path;
    if let Some(user) = user {
        return match (&user.code, path) {
            (UserCode::Spirv(bytes), KernelPath::Spirv) => {
                Ok((user.path.clone(), OwnedKernel::Spirv(bytes.clone())))
            }
            // A `.spv` is either path's: the device decides which (a Vulkan device's is a
            // compute shader).
            (UserCode::Spirv(bytes), KernelPath::Vulkan) => {
                Ok((user.path.clone(), OwnedKernel::SpirvVulkan(bytes.clone())))
            }
            (UserCode::OpenclC(source), KernelPath::OpenclC) => {
                Ok((user.path.clone(), OwnedKernel::OpenclC(source.clone())))
            }
            (code, path) => Err(UnitError::Check(format!(
                "--kernel {} is {}, which the {path} path does not take",
                user.path,
                code.describe()
            ))),
        };
    }
    let built = match (unit, path) {
        (UnitKernel::Function(spec), KernelPath::Spirv) => (
            spec.file_stem(),
            OwnedKernel::Spirv(kernel::words_to_bytes(&kernel::spirv_opencl::build(spec)?)),
        ),
        (UnitKernel::Function(spec), KernelPath::OpenclC) => (
            format!("{}.cl", spec.file_stem()),
            OwnedKernel::OpenclC(kernel::opencl_c::source(spec)?),
        ),
        (UnitKernel::Conversion(conversion, address_bits), KernelPath::Spirv) => {
            use kernel::spirv_opencl::conversion::{build_module, file_stem};
            let words = build_module(conversion, address_bits)
                .map_err(|e| UnitError::Check(e.to_string()))?;
            (
                file_stem(conversion, address_bits),
                OwnedKernel::Spirv(kernel::words_to_bytes(&words)),
            )
        }
        (UnitKernel::Conversion(conversion, _), KernelPath::OpenclC) => (
            format!("{}.cl", conversion.name()),
            OwnedKernel::OpenclC(kernel::opencl_c::conversion_source(conversion)),
        ),
        (UnitKernel::Function(spec), KernelPath::Vulkan) => {
            let shader = target.vulkan.ok_or_else(|| {
                UnitError::Check(format!(
                    "the vulkan path has no execution modes for {}",
                    spec.element
                ))
            })?;
            let modes = shader.shader_modes();
            let words = kernel::spirv_vulkan::build(spec, &modes)?;
            (
                kernel::spirv_vulkan::file_stem(spec, &modes),
                OwnedKernel::SpirvVulkan(kernel::words_to_bytes(&words)),
            )
        }
        (UnitKernel::Conversion(conversion, _), KernelPath::Vulkan) => {
            return Err(UnitError::Check(format!(
                "{} has no compute shader: the vulkan path runs no conversion units",
                conversion.name()
            )))
        }
    };
    Ok(built)
}

// Every test here drives the Intel and PoCL devices: the device tier.
#[cfg(all(test, feature = "device-tests"))]
mod on_device;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::convert::IntType;
    use crate::num::fp::FloatType;
    use crate::spec::signature::{Instruction, OpenclStd100Op, Shape};

    fn sin() -> KernelSpec {
        KernelSpec {
            instruction: Instruction::Ext(OpenclStd100Op::sin),
            shape: Shape::Unary,
            element: FloatType::Float,
            width: 4,
            address_bits: 64,
        }
    }

    #[test]
    fn each_path_gives_its_own_form_of_the_unit_s_kernel() {
        let (name, spirv) =
            unit_kernel(KernelPath::Spirv, None, UnitKernel::Function(&sin())).unwrap();
        assert_eq!(name, "sin_float_w4_a64");
        assert!(
            matches!(spirv.form(), KernelForm::SpirvOpencl(bytes) if bytes[..4] == [0x03, 0x02, 0x23, 0x07])
        );
        let (name, source) =
            unit_kernel(KernelPath::OpenclC, None, UnitKernel::Function(&sin())).unwrap();
        assert_eq!(name, "sin_float_w4_a64.cl");
        assert_eq!(
            source,
            OwnedKernel::OpenclC(kernel::opencl_c::source(&sin()).unwrap())
        );
        let conversion = Conversion::FloatToInt {
            from: FloatType::Float,
            to: IntType::I32,
            saturated: true,
        };
        let (name, _) = unit_kernel(
            KernelPath::Spirv,
            None,
            UnitKernel::Conversion(&conversion, 32),
        )
        .unwrap();
        assert_eq!(name, "convert_float_to_int_sat_a32");
        let (name, source) = unit_kernel(
            KernelPath::OpenclC,
            None,
            UnitKernel::Conversion(&conversion, 32),
        )
        .unwrap();
        assert_eq!(name, "convert_float_to_int_sat.cl");
        assert!(
            matches!(source.form(), KernelForm::OpenclC(text) if text.contains("convert_int_sat(in0[g])"))
        );
    }

    fn vulkan_target(relaxed_precision: bool) -> KernelTarget {
        KernelTarget {
            path: KernelPath::Vulkan,
            vulkan: Some(VulkanShader {
                modes: VulkanModes {
                    element: FloatType::Float,
                    signed_zero_inf_nan_preserve: true,
                    round_to_nearest_even: true,
                    denorm_preserve: false,
                },
                relaxed_precision,
            }),
        }
    }

    #[test]
    fn the_vulkan_path_builds_a_compute_shader_with_the_run_s_modes() {
        let (name, shader) =
            unit_kernel(vulkan_target(false), None, UnitKernel::Function(&sin())).unwrap();
        let modes = kernel::spirv_vulkan::ShaderModes {
            relaxed_precision: false,
            signed_zero_inf_nan_preserve: true,
            denorm: None,
            rounding: Some(kernel::spirv_vulkan::RoundingMode::Rte),
        };
        assert_eq!(name, kernel::spirv_vulkan::file_stem(&sin(), &modes));
        let built = kernel::words_to_bytes(&kernel::spirv_vulkan::build(&sin(), &modes).unwrap());
        assert!(
            matches!(shader.form(), KernelForm::SpirvVulkan(bytes) if bytes == built.as_slice())
        );
        // RelaxedPrecision is a variant of its own, named apart.
        let (relaxed, _) =
            unit_kernel(vulkan_target(true), None, UnitKernel::Function(&sin())).unwrap();
        assert_ne!(relaxed, name);
        // Without modes (a type the device lacks) there is no shader to build.
        let missing = KernelTarget {
            path: KernelPath::Vulkan,
            vulkan: None,
        };
        assert!(unit_kernel(missing, None, UnitKernel::Function(&sin())).is_err());
        let conversion = Conversion::FloatToInt {
            from: FloatType::Float,
            to: IntType::I32,
            saturated: true,
        };
        let refusal = unit_kernel(
            vulkan_target(false),
            None,
            UnitKernel::Conversion(&conversion, 64),
        )
        .unwrap_err()
        .to_string();
        assert!(refusal.contains("runs no conversion units"), "{refusal}");
    }

    #[test]
    fn a_user_spv_is_a_compute_shader_on_the_vulkan_path() {
        let user = UserKernel {
            function: "sin".into(),
            path: "my_sin.spv".into(),
            code: UserCode::Spirv(vec![0x03, 0x02, 0x23, 0x07]),
        };
        let (name, kernel) = unit_kernel(
            vulkan_target(false),
            Some(&user),
            UnitKernel::Function(&sin()),
        )
        .unwrap();
        assert_eq!(name, "my_sin.spv");
        assert_eq!(
            kernel,
            OwnedKernel::SpirvVulkan(vec![0x03, 0x02, 0x23, 0x07])
        );
        assert!(user.code.takes(KernelPath::Vulkan) && user.code.takes(KernelPath::Spirv));
        assert!(!user.code.takes(KernelPath::OpenclC));
    }

    #[test]
    fn a_user_kernel_is_taken_on_its_own_path_and_refused_on_the_other() {
        let user = UserKernel {
            function: "sin".into(),
            path: "my_sin.cl".into(),
            code: UserCode::OpenclC("__kernel void clacc_kernel() {}".into()),
        };
        let (name, kernel) = unit_kernel(
            KernelPath::OpenclC,
            Some(&user),
            UnitKernel::Function(&sin()),
        )
        .unwrap();
        assert_eq!(name, "my_sin.cl");
        assert_eq!(
            kernel,
            OwnedKernel::OpenclC("__kernel void clacc_kernel() {}".into())
        );
        let refusal = unit_kernel(KernelPath::Spirv, Some(&user), UnitKernel::Function(&sin()))
            .unwrap_err()
            .to_string();
        assert_eq!(
            refusal,
            "--kernel my_sin.cl is OpenCL C source, which the spirv path does not take"
        );
    }
}
