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
