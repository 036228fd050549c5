//! The extension checks on a Vulkan device (#45 item 4): the same checks, inputs and verdicts
//! as on OpenCL ([`super`]), run as compute shaders
//! ([`crate::kernel::spirv_vulkan::extension`]). Whether a device can run a check is read from
//! what it reports (its extensions, features and float-controls properties) instead of an
//! OpenCL probe: Vulkan makes a driver list what it accepts, and a shader using a capability
//! whose feature is not enabled is invalid usage, never handed over.
//!
//! What the Vulkan environment adds to the judging: a float8 denormal converted to binary16
//! is kept whatever the denorm mode ("must be preserved during conversions to IEEE 754 binary
//! 16"); elsewhere a half or float denormal may be flushed unless the shader declares
//! `DenormPreserve` for its width, which it does wherever the device allows it.

use super::{flushing_of, skeleton, ExtensionRun, ExtensionUnit, Launch};
use crate::device::vulkan::{VulkanDevice, VulkanDeviceInfo};
use crate::kernel::spirv_vulkan::extension::{float_side, not_in_vulkan};
use crate::num::fp::FloatType;
use crate::run::pipeline::{self, Ran};
use crate::spec::conversion::Scalar;
use crate::spec::extension::{ExtensionCheck, Float8Check};
use crate::sweep::conversion::ConversionSettings;

/// Every extension unit on a Vulkan device, in report order, each with the reason it is
/// skipped there, if it is.
pub fn vulkan_extension_units(info: &VulkanDeviceInfo) -> Vec<ExtensionUnit> {
    ExtensionCheck::all()
        .into_iter()
        .map(|check| ExtensionUnit {
            check,
            skip: skip_reason(info, &check),
        })
        .collect()
}

/// The unit named `name` on this device.
pub fn find_vulkan_unit(info: &VulkanDeviceInfo, name: &str) -> Option<ExtensionUnit> {
    vulkan_extension_units(info)
        .into_iter()
        .find(|unit| unit.name() == name)
}

/// Why `check` does not run on the device, if it does not.
fn skip_reason(info: &VulkanDeviceInfo, check: &ExtensionCheck) -> Option<String> {
    if let Some(reason) = not_in_vulkan(check) {
        return Some(reason.to_string());
    }
    let features = &info.features;
    match check {
        ExtensionCheck::FloatControls2(fc2) => {
            if !features.float_controls2 {
                return Some(
                    "device does not offer VK_KHR_shader_float_controls2 with \
                     shaderFloatControls2 (SPV_KHR_float_controls2)"
                        .to_string(),
                );
            }
            fc2_needs(info, fc2.element)
        }
        ExtensionCheck::Float8(float8) => {
            if !features.float8 {
                return Some(
                    "device does not offer VK_EXT_shader_float8 with shaderFloat8 \
                     (SPV_EXT_float8)"
                        .to_string(),
                );
            }
            float8_needs(info, float8)
        }
        ExtensionCheck::ArithmeticFence => unreachable!("not_in_vulkan refuses it"),
    }
}

/// What a float_controls2 check on `element` needs besides the extension: the type in shaders
/// and buffers, and `shaderSignedZeroInfNanPreserveFloat<bits>`, without which every
/// `FPFastMathDefault` and `FPFastMathMode` on the type must include NSZ, NotInf and NotNaN
/// (VUID-RuntimeSpirv-shaderSignedZeroInfNanPreserveFloat16-09559/09560, Float32-09561/09562,
/// Float64-09563/09564), which the checks leave out.
fn fc2_needs(info: &VulkanDeviceInfo, element: FloatType) -> Option<String> {
    if !info.features.supports(element) {
        let missing = match element {
            FloatType::Half => "shaderFloat16 and storageBuffer16BitAccess (half)",
            FloatType::Double => "shaderFloat64 (double)",
            FloatType::Float => unreachable!("every Vulkan device has float"),
        };
        return Some(format!("device lacks {missing}"));
    }
    if !info.float_controls.of(element).signed_zero_inf_nan_preserve {
        let (bits, vuid) = match element {
            FloatType::Half => (16, "09559"),
            FloatType::Float => (32, "09561"),
            FloatType::Double => (64, "09563"),
        };
        return Some(format!(
            "device reports no shaderSignedZeroInfNanPreserveFloat{bits}, so FPFastMathDefault \
             and FPFastMathMode on {element} must include NSZ, NotInf and NotNaN \
             (VUID-RuntimeSpirv-shaderSignedZeroInfNanPreserveFloat{bits}-{vuid}), which this \
             check leaves out"
        ));
    }
    None
}

/// What a float8 conversion's buffers need that the device may lack: 8-bit storage for the
/// codes, 16-bit integers, the float type.
fn float8_needs(info: &VulkanDeviceInfo, check: &Float8Check) -> Option<String> {
    let features = &info.features;
    for scalar in [check.source_scalar(), check.destination_scalar()] {
        let missing = match scalar {
            Scalar::Float8(_) | Scalar::Int(8) if !features.int8 => {
                Some("shaderInt8 and storageBuffer8BitAccess (8-bit buffers)")
            }
            Scalar::Int(16) if !(features.int16 && features.storage_buffer16) => {
                Some("shaderInt16 and storageBuffer16BitAccess (16-bit integer buffers)")
            }
            Scalar::Float(16) if !features.supports(FloatType::Half) => {
                Some("shaderFloat16 and storageBuffer16BitAccess (half)")
            }
            Scalar::Float(64) if !features.supports(FloatType::Double) => {
                Some("shaderFloat64 (double)")
            }
            _ => None,
        };
        if let Some(missing) = missing {
            return Some(format!("device lacks {missing}"));
        }
    }
    None
}

/// Whether the check's shader declares `DenormPreserve` on `info`: for a float8 conversion's
/// float side, where the device allows it for that width.
pub fn declares_denorm_preserve(info: &VulkanDeviceInfo, check: &ExtensionCheck) -> bool {
    float_side(check).is_some_and(|element| info.float_controls.of(element).denorm_preserve)
}

/// Runs one extension unit on a Vulkan device and judges it as the OpenCL side does (see the
/// module doc for what Vulkan changes); a skipped unit comes back `skip` with its reason.
/// Never panics on device trouble (`error` with the reason).
pub fn run_vulkan_extension(
    device: &VulkanDevice,
    unit: &ExtensionUnit,
    settings: &ConversionSettings,
    progress: &dyn Fn(u64, u64),
) -> Ran {
    let mut report = skeleton(unit, settings.profile);
    if let Some(reason) = &unit.skip {
        report.note = reason.clone();
        return Ran::settled(report);
    }
    let info = &device.info;
    pipeline::run(
        ExtensionRun {
            check: &unit.check,
            flushing: flushing_of(|element| info.float_controls.of(element).denorm_preserve),
            float8_denormals_kept_in_half: true,
            settings,
            launch: Launch::Vulkan {
                session: device,
                denorm_preserve: declares_denorm_preserve(info, &unit.check),
            },
            report,
        },
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::vulkan::lavapipe_as_measured;
    use crate::num::convert::IntType;
    use crate::num::float8::Float8Format;
    use crate::spec::extension::{Fc2Check, Flags, Other, Via};

    fn skip_of(info: &VulkanDeviceInfo, name: &str) -> Option<String> {
        find_vulkan_unit(info, name)
            .unwrap_or_else(|| panic!("no unit {name}"))
            .skip
    }

    #[test]
    fn on_lavapipe_float_controls2_runs_and_float8_and_the_fence_skip_with_the_reason() {
        let info = lavapipe_as_measured();
        let units = vulkan_extension_units(&info);
        assert_eq!(units.len(), ExtensionCheck::all().len());
        for unit in &units {
            match unit.check {
                ExtensionCheck::FloatControls2(_) => {
                    assert_eq!(unit.skip, None, "{}", unit.name())
                }
                ExtensionCheck::Float8(Float8Check::From { saturate: true, .. }) => {
                    let why = unit.skip.as_deref().unwrap();
                    assert!(why.contains("SaturatedConversion is a Kernel"), "{why}");
                }
                ExtensionCheck::Float8(_) => {
                    let why = unit.skip.as_deref().unwrap();
                    assert!(why.contains("VK_EXT_shader_float8"), "{why}");
                }
                ExtensionCheck::ArithmeticFence => {
                    let why = unit.skip.as_deref().unwrap();
                    assert!(why.contains("SPV_EXT_arithmetic_fence"), "{why}");
                }
            }
        }
    }

    #[test]
    fn a_device_with_float8_runs_what_its_buffers_allow() {
        let mut info = lavapipe_as_measured();
        info.features.float8 = true;
        assert_eq!(skip_of(&info, "float8_half_to_e4m3"), None);
        assert_eq!(skip_of(&info, "float8_e5m2_to_double"), None);
        assert_eq!(skip_of(&info, "float8_short_to_e5m2_sat"), None);
        info.features.float64 = false;
        info.features.int16 = false;
        let double = skip_of(&info, "float8_e5m2_to_double").unwrap();
        assert!(double.contains("shaderFloat64"), "{double}");
        let short = skip_of(&info, "float8_short_to_e4m3").unwrap();
        assert!(short.contains("shaderInt16"), "{short}");
        info.features.int8 = false;
        let codes = skip_of(&info, "float8_float_to_e4m3").unwrap();
        assert!(codes.contains("storageBuffer8BitAccess"), "{codes}");
    }

    #[test]
    fn float_controls2_needs_the_extension_and_signed_zero_inf_nan_preserve() {
        let mut info = lavapipe_as_measured();
        info.float_controls.float.signed_zero_inf_nan_preserve = false;
        let why = skip_of(&info, "float_controls2_nsz_default").unwrap();
        assert!(why.contains("09561"), "{why}");
        // Each type has its own property and VUID; the others still run.
        assert_eq!(skip_of(&info, "float_controls2_half_nsz_default"), None);
        info.float_controls.half.signed_zero_inf_nan_preserve = false;
        let why = skip_of(&info, "float_controls2_half_nsz_default").unwrap();
        assert!(why.contains("Float16-09559"), "{why}");
        assert!(why.contains("on half"), "{why}");
        assert_eq!(skip_of(&info, "float_controls2_double_ieee"), None);
        info.float_controls.double.signed_zero_inf_nan_preserve = false;
        let why = skip_of(&info, "float_controls2_double_ieee").unwrap();
        assert!(why.contains("Float64-09563"), "{why}");
        info.features.float_controls2 = false;
        for name in [
            "float_controls2_ieee",
            "float_controls2_half_ieee",
            "float_controls2_double_notinf_decoration",
        ] {
            let why = skip_of(&info, name).unwrap();
            assert!(
                why.contains("VK_KHR_shader_float_controls2"),
                "{name}: {why}"
            );
        }
    }

    #[test]
    fn half_and_double_float_controls2_need_their_type() {
        let mut info = lavapipe_as_measured();
        info.features.storage_buffer16 = false;
        let why = skip_of(&info, "float_controls2_half_notnan_decoration").unwrap();
        assert!(why.contains("storageBuffer16BitAccess"), "{why}");
        info.features.float64 = false;
        let why = skip_of(&info, "float_controls2_double_nsz_default").unwrap();
        assert!(why.contains("shaderFloat64"), "{why}");
        assert_eq!(skip_of(&info, "float_controls2_notnan_decoration"), None);
    }

    #[test]
    fn denorm_preserve_is_declared_for_the_float_side_where_allowed() {
        let mut info = lavapipe_as_measured();
        let to_half = ExtensionCheck::Float8(Float8Check::From {
            from: Float8Format::E5M2,
            to: Other::Float(FloatType::Half),
            saturate: false,
        });
        let from_int = ExtensionCheck::Float8(Float8Check::To {
            from: Other::Int(IntType::I32),
            to: Float8Format::E4M3,
            saturate: false,
        });
        let fc2 = ExtensionCheck::FloatControls2(Fc2Check {
            flags: Flags::None,
            via: Via::Default,
            element: FloatType::Float,
        });
        assert!(!declares_denorm_preserve(&info, &to_half));
        info.float_controls.half.denorm_preserve = true;
        assert!(declares_denorm_preserve(&info, &to_half));
        assert!(!declares_denorm_preserve(&info, &from_int));
        assert!(!declares_denorm_preserve(&info, &fc2));
    }
}
