//! What the vulkan path adds to a run: the execution modes each type's shaders declare, chosen
//! from the device's float-controls properties, and the device a run (or its worker) opens.

use crate::device::vulkan::{FloatControls, VulkanDeviceInfo};
use crate::device::DeviceError;
use crate::num::fp::FloatType;

/// The float-controls execution modes the vulkan path's shaders of one type declare: each one
/// the device's properties allow for that width, so that as much as the device can promise is
/// asked of it. A mode left out leaves the shader the latitude the Vulkan environment gives
/// without it (NSZ, NotInf and NotNaN assumed; either rounding neighbour; denormals flushed or
/// not), which the judge allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VulkanModes {
    pub element: FloatType,
    /// `SignedZeroInfNanPreserve`.
    pub signed_zero_inf_nan_preserve: bool,
    /// `RoundingModeRTE`.
    pub round_to_nearest_even: bool,
    /// `DenormPreserve`.
    pub denorm_preserve: bool,
}

impl VulkanModes {
    /// The modes the device's float-controls properties allow for `element`'s width: each one
    /// asked wherever allowed. DenormFlushToZero is never asked for: without a denorm mode the
    /// shader may flush or not, which the judge allows, and a device that can only flush gives
    /// nothing more by being told to.
    pub fn allowed(controls: &FloatControls, element: FloatType) -> VulkanModes {
        let width = controls.of(element);
        VulkanModes {
            element,
            signed_zero_inf_nan_preserve: width.signed_zero_inf_nan_preserve,
            round_to_nearest_even: width.rte,
            denorm_preserve: width.denorm_preserve,
        }
    }

    /// The modes as the judge reads them ([`crate::judge::vulkan::judge`]): what "correctly
    /// rounded" means, whether denormals may be flushed, whether NaN, infinities and signed
    /// zeros are preserved.
    pub fn judge_modes(self) -> crate::judge::vulkan::Modes {
        crate::judge::vulkan::Modes {
            rounding: self
                .round_to_nearest_even
                .then_some(crate::judge::vulkan::Rounding::Rte),
            denorm_preserve: self.denorm_preserve,
            signed_zero_inf_nan_preserve: self.signed_zero_inf_nan_preserve,
            reassociate: true,
        }
    }

    /// The modes, as the CSV's and the summary's words: `rte szinfnan-preserve`, or `none`.
    pub fn describe(self) -> String {
        let words: Vec<&str> = [
            (self.round_to_nearest_even, "rte"),
            (self.denorm_preserve, "denorm-preserve"),
            (self.signed_zero_inf_nan_preserve, "szinfnan-preserve"),
        ]
        .into_iter()
        .filter(|(set, _)| *set)
        .map(|(_, word)| word)
        .collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }
}

/// Every type's modes on a device, for the run's settings: the types the device supports.
pub fn modes_of(info: &VulkanDeviceInfo) -> Vec<VulkanModes> {
    FloatType::ALL
        .into_iter()
        .filter(|element| info.features.supports(*element))
        .map(|element| VulkanModes::allowed(&info.float_controls, element))
        .collect()
}

/// The Vulkan device `--device` names (its index, or a substring of its name that names one,
/// case-insensitive), or without `--device` the first usable one.
pub fn select<'a>(
    devices: &'a [VulkanDeviceInfo],
    pattern: Option<&str>,
) -> Result<&'a VulkanDeviceInfo, DeviceError> {
    let listed = || {
        devices
            .iter()
            .map(|d| format!("{} {}", d.index, d.label()))
            .collect()
    };
    let Some(pattern) = pattern else {
        return devices
            .iter()
            .find(|d| d.unusable_reason().is_none())
            .ok_or_else(|| DeviceError::NoMatch {
                what: "usable Vulkan device",
                pattern: "*".to_string(),
                available: listed(),
            });
    };
    if pattern.trim().is_empty() {
        return Err(DeviceError::EmptyPattern {
            what: "device",
            available: listed(),
        });
    }
    let wanted = pattern.trim().to_lowercase();
    let matched: Vec<&VulkanDeviceInfo> = match wanted.parse::<usize>() {
        Ok(index) => devices.iter().filter(|d| d.index == index).collect(),
        Err(_) => devices
            .iter()
            .filter(|d| d.name.to_lowercase().contains(&wanted))
            .collect(),
    };
    let whole: Vec<&VulkanDeviceInfo> = matched
        .iter()
        .copied()
        .filter(|d| d.name.to_lowercase() == wanted)
        .collect();
    match (matched.as_slice(), whole.as_slice()) {
        ([one], _) | (_, [one]) => Ok(one),
        ([], _) => Err(DeviceError::NoMatch {
            what: "Vulkan device",
            pattern: pattern.to_string(),
            available: listed(),
        }),
        (several, _) => Err(DeviceError::Ambiguous {
            what: "Vulkan device",
            pattern: pattern.to_string(),
            matched: several
                .iter()
                .map(|d| format!("{} {}", d.index, d.label()))
                .collect(),
        }),
    }
}

/// The judge's modes of a unit of `element` whose shader is the user's `--kernel` module
/// `user` (the modes ITS entry point declares; nothing where it cannot be read, and its build
/// then fails on its own), else clacc's own (`modes`, nothing declared where the run chose
/// none).
pub fn unit_judge_modes(
    modes: Option<VulkanModes>,
    element: FloatType,
    user: Option<&[u8]>,
) -> crate::judge::vulkan::Modes {
    match (user, modes) {
        (Some(spirv), _) => {
            use crate::kernel::spirv_vulkan::interface;
            crate::judge::vulkan::Modes {
                reassociate: interface::reassociation_allowed(spirv, element),
                ..shader_judge_modes(&interface::declared_modes(spirv, element).unwrap_or_default())
            }
        }
        (None, Some(modes)) => modes.judge_modes(),
        (None, None) => shader_judge_modes(&Default::default()),
    }
}

/// The judge's reading of a shader's declared modes (AllowReassoc, which they do not speak
/// of, assumed as the environment assumes it).
pub fn shader_judge_modes(
    modes: &crate::kernel::spirv_vulkan::ShaderModes,
) -> crate::judge::vulkan::Modes {
    use crate::kernel::spirv_vulkan::{DenormMode, RoundingMode};
    crate::judge::vulkan::Modes {
        rounding: modes.rounding.map(|rounding| match rounding {
            RoundingMode::Rte => crate::judge::vulkan::Rounding::Rte,
            RoundingMode::Rtz => crate::judge::vulkan::Rounding::Rtz,
        }),
        denorm_preserve: modes.denorm == Some(DenormMode::Preserve),
        signed_zero_inf_nan_preserve: modes.signed_zero_inf_nan_preserve,
        reassociate: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::vulkan::{lavapipe_as_measured, WidthControls};

    /// lavapipe as measured, listed at `index` under `name`.
    fn lavapipe(index: usize, name: &str) -> VulkanDeviceInfo {
        VulkanDeviceInfo {
            index,
            name: name.to_string(),
            ..lavapipe_as_measured()
        }
    }

    #[test]
    fn each_mode_the_properties_allow_is_asked_for() {
        let modes = modes_of(&lavapipe(0, "llvmpipe"));
        assert_eq!(modes.len(), 3);
        for modes in &modes {
            assert!(modes.round_to_nearest_even && modes.signed_zero_inf_nan_preserve);
            assert!(!modes.denorm_preserve);
            assert_eq!(modes.describe(), "rte szinfnan-preserve");
        }
        let mut bare = lavapipe(0, "llvmpipe");
        bare.features.float64 = false;
        bare.float_controls.float = WidthControls {
            denorm_preserve: true,
            rtz: true,
            ..WidthControls::default()
        };
        let modes = modes_of(&bare);
        // No Float64: no double modes, so double units are skipped for the type.
        assert_eq!(
            modes.iter().map(|m| m.element).collect::<Vec<_>>(),
            [FloatType::Half, FloatType::Float]
        );
        assert_eq!(modes[1].describe(), "denorm-preserve");
        let none = VulkanModes::allowed(&FloatControls::default(), FloatType::Float);
        assert_eq!(none.describe(), "none");
        // Nothing declared: either rounding neighbour, flushing, NaN and infinities undefined.
        assert_eq!(
            none.judge_modes(),
            crate::judge::vulkan::Modes {
                rounding: None,
                denorm_preserve: false,
                signed_zero_inf_nan_preserve: false,
                reassociate: true,
            }
        );
        assert_eq!(
            modes[1].judge_modes().rounding,
            None,
            "RTZ alone is allowed, never asked for"
        );
    }

    /// A user's shader is judged by what it declares: its modes, and AllowReassoc unless it
    /// takes it away (a `NoContraction` decoration); clacc's own shaders keep AllowReassoc.
    #[test]
    fn a_user_shader_s_modes_and_reassociation_are_its_own() {
        use crate::kernel::spirv_vulkan::{build, RoundingMode, ShaderModes};
        use rspirv::dr::{Instruction, Operand};
        use rspirv::spirv::{Decoration, Op};
        let spec = crate::kernel::function_spec("sin", FloatType::Float, 1);
        let declared = ShaderModes {
            rounding: Some(RoundingMode::Rte),
            ..ShaderModes::default()
        };
        let bytes = crate::kernel::words_to_bytes(&build(&spec, &declared).unwrap());
        let own = VulkanModes::allowed(&lavapipe(0, "llvmpipe").float_controls, FloatType::Float);
        let judged = unit_judge_modes(Some(own), FloatType::Float, Some(&bytes));
        assert_eq!(judged.rounding, Some(crate::judge::vulkan::Rounding::Rte));
        assert!(!judged.signed_zero_inf_nan_preserve && judged.reassociate);
        assert!(unit_judge_modes(Some(own), FloatType::Float, None).reassociate);
        let mut module = crate::kernel::load_module_bytes(&bytes).unwrap();
        let target = module.types_global_values[0].result_id.unwrap();
        module.annotations.push(Instruction::new(
            Op::Decorate,
            None,
            None,
            vec![
                Operand::IdRef(target),
                Operand::Decoration(Decoration::NoContraction),
            ],
        ));
        let words = rspirv::binary::Assemble::assemble(&module);
        let strict = crate::kernel::words_to_bytes(&words);
        assert!(!unit_judge_modes(Some(own), FloatType::Float, Some(&strict)).reassociate);
    }

    #[test]
    fn device_picks_by_index_or_a_name_that_names_one() {
        let devices = [
            lavapipe(0, "llvmpipe (LLVM 15.0.6, 256 bits)"),
            lavapipe(1, "NVIDIA H100"),
        ];
        assert_eq!(select(&devices, None).unwrap().index, 0);
        assert_eq!(select(&devices, Some("1")).unwrap().index, 1);
        assert_eq!(select(&devices, Some("LLVMpipe")).unwrap().index, 0);
        assert_eq!(select(&devices, Some("h100")).unwrap().index, 1);
        let none = select(&devices, Some("radv")).unwrap_err().to_string();
        assert!(none.contains("no Vulkan device matches `radv`"), "{none}");
        assert!(none.contains("1 NVIDIA H100"), "{none}");
        let several = select(&devices, Some("i")).unwrap_err().to_string();
        assert!(several.contains("names several"), "{several}");
        assert!(select(&devices, Some(" ")).is_err());
    }
}
