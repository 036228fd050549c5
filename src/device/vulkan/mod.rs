//! The Vulkan device (#45): compute shaders of the Vulkan SPIR-V environment on any Vulkan
//! driver the loader finds (Mesa lavapipe from `.deps/lavapipe`, a GPU's driver), through
//! `ash`, which hands the SPIR-V words to `vkCreateShaderModule` untouched.
//!
//! [`enumerate`] lists the physical devices with what judging and planning need of them (the
//! shader features, the float-controls properties per width); [`VulkanDevice`] is this
//! environment's [`super::Device`]. What only Vulkan has stays Vulkan-typed here.
//!
//! The shader interface every kernel follows (`docs/architecture.md`, #45): entry point
//! `GLCompute`, argument i (every input, then the launch's outputs) a storage buffer at
//! `DescriptorSet 0, Binding i`, a push-constant `uint` at offset 0 holding the work-item count.

pub mod loader;
mod session;
mod shader;

pub use session::{VulkanDevice, VulkanKernel};

use crate::num::fp::FloatType;
use ash::vk;
use std::ffi::{c_char, CStr};

/// Errors only Vulkan has, each naming the call or the device concerned.
#[derive(Debug, thiserror::Error)]
pub enum VulkanError {
    /// No Vulkan loader could be loaded.
    #[error("no Vulkan loader could be loaded ({0}); run scripts/setup to install lavapipe and the loader into .deps/lavapipe")]
    NoLoader(String),
    /// A Vulkan call returned an error code.
    #[error("{call} failed: {result}")]
    Call {
        call: &'static str,
        result: vk::Result,
    },
    /// The device [`VulkanDevice::open`] was asked for is no longer listed.
    #[error("Vulkan device {0} is not listed by the loader any more")]
    Gone(String),
    /// The device cannot run clacc's shaders.
    #[error("Vulkan device {device} cannot run clacc's shaders: {reason}")]
    Unusable { device: String, reason: String },
    /// No memory type the host can map, or a size Vulkan cannot take.
    #[error("Vulkan device {device}: {reason}")]
    Resources { device: String, reason: String },
    /// A launch's arguments are not the storage buffers the shader binds.
    #[error("shader {module} binds {bindings} storage buffers; the launch has {arguments} arguments (inputs, then outputs)")]
    Arguments {
        module: String,
        bindings: u32,
        arguments: usize,
    },
    /// An earlier chunk's wait failed, so the device runs nothing more.
    #[error("Vulkan device {device} runs no more chunks after an earlier one failed: {reason}")]
    Failed { device: String, reason: String },
    /// A chunk did not finish within the wait clacc allows it.
    #[error("Vulkan device {device}: a chunk did not finish within {seconds} s")]
    Timeout { device: String, seconds: u64 },
}

/// The `map_err` of a Vulkan call's result.
pub(crate) fn call(call: &'static str) -> impl Fn(vk::Result) -> VulkanError {
    move |result| VulkanError::Call { call, result }
}

/// What the float-controls properties allow for one width (`VkPhysicalDeviceFloatControlsProperties`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WidthControls {
    /// `RoundingModeRTE` may be set.
    pub rte: bool,
    /// `RoundingModeRTZ` may be set.
    pub rtz: bool,
    /// `DenormPreserve` may be set.
    pub denorm_preserve: bool,
    /// `DenormFlushToZero` may be set.
    pub denorm_flush_to_zero: bool,
    /// `SignedZeroInfNanPreserve` may be set.
    pub signed_zero_inf_nan_preserve: bool,
}

impl WidthControls {
    /// The modes allowed, as short words (`rte szinfnan`), or `none`.
    pub fn describe(self) -> String {
        let flags = [
            (self.rte, "rte"),
            (self.rtz, "rtz"),
            (self.denorm_preserve, "denorm-preserve"),
            (self.denorm_flush_to_zero, "denorm-ftz"),
            (self.signed_zero_inf_nan_preserve, "szinfnan-preserve"),
        ];
        let words: Vec<&str> = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }
}

/// How the widths' denorm or rounding modes may be set (`VkShaderFloatControlsIndependence`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Independence {
    /// Each width's mode is set on its own.
    #[default]
    All,
    /// 16 and 64 bits share, 32 bits is on its own.
    Only32Bit,
    /// One mode for every width.
    None,
}

impl Independence {
    fn from_vk(value: vk::ShaderFloatControlsIndependence) -> Independence {
        match value {
            vk::ShaderFloatControlsIndependence::ALL => Independence::All,
            vk::ShaderFloatControlsIndependence::TYPE_32_ONLY => Independence::Only32Bit,
            _ => Independence::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Independence::All => "all",
            Independence::Only32Bit => "32-bit only",
            Independence::None => "none",
        }
    }
}

/// The float-controls properties: what each width allows, and how independently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatControls {
    pub half: WidthControls,
    pub float: WidthControls,
    pub double: WidthControls,
    pub denorm_independence: Independence,
    pub rounding_independence: Independence,
}

impl FloatControls {
    /// What `element`'s width allows.
    pub fn of(&self, element: FloatType) -> WidthControls {
        match element {
            FloatType::Half => self.half,
            FloatType::Float => self.float,
            FloatType::Double => self.double,
        }
    }
}

/// The shader features clacc's units may need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaderFeatures {
    /// `shaderFloat16` (Float16 arithmetic).
    pub float16: bool,
    /// `shaderFloat64`.
    pub float64: bool,
    /// `storageBuffer16BitAccess` (16-bit values in storage buffers).
    pub storage_buffer16: bool,
    /// `shaderInt64` (64-bit integer results, `long` conversions).
    pub int64: bool,
    /// `shaderInt16`.
    pub int16: bool,
    /// `shaderInt8` and `storageBuffer8BitAccess`.
    pub int8: bool,
    /// `scalarBlockLayout`: 3-vectors packed in storage buffers with a 12-byte stride.
    pub scalar_block_layout: bool,
    /// `VK_KHR_shader_float_controls2` and its `shaderFloatControls2` feature.
    pub float_controls2: bool,
    /// `VK_EXT_shader_float8` and its `shaderFloat8` feature (SPV_EXT_float8).
    pub float8: bool,
}

impl ShaderFeatures {
    /// Whether shaders may compute in `element` and keep it in storage buffers.
    pub fn supports(&self, element: FloatType) -> bool {
        match element {
            FloatType::Half => self.float16 && self.storage_buffer16,
            FloatType::Float => true,
            FloatType::Double => self.float64,
        }
    }

    /// The features offered, as their Vulkan names.
    pub fn describe(&self) -> String {
        let flags = [
            (self.float16, "shaderFloat16"),
            (self.float64, "shaderFloat64"),
            (self.storage_buffer16, "storageBuffer16BitAccess"),
            (self.int64, "shaderInt64"),
            (self.int16, "shaderInt16"),
            (self.int8, "shaderInt8+storageBuffer8BitAccess"),
            (self.scalar_block_layout, "scalarBlockLayout"),
            (self.float_controls2, "shaderFloatControls2"),
            (self.float8, "shaderFloat8"),
        ];
        let words: Vec<&str> = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }
}

/// The device extension that lets shaders use SPV_EXT_float8.
pub const FLOAT8_EXTENSION: &str = "VK_EXT_shader_float8";

/// `VkPhysicalDeviceShaderFloat8FeaturesEXT` (`VK_EXT_shader_float8`), which ash 0.38 (Vulkan
/// 1.3.281) predates: declared here as `vulkan_core.h` has it, with its structure type from the
/// registry (`VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT8_FEATURES_EXT = 1000567000`), so it
/// chains into `vkGetPhysicalDeviceFeatures2` and `vkCreateDevice` like ash's own structures.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShaderFloat8Features {
    pub s_type: vk::StructureType,
    pub p_next: *mut std::ffi::c_void,
    pub shader_float8: vk::Bool32,
    pub shader_float8_cooperative_matrix: vk::Bool32,
}

impl ShaderFloat8Features {
    pub(crate) const STRUCTURE_TYPE: vk::StructureType = vk::StructureType::from_raw(1_000_567_000);
}

impl Default for ShaderFloat8Features {
    fn default() -> Self {
        ShaderFloat8Features {
            s_type: Self::STRUCTURE_TYPE,
            p_next: std::ptr::null_mut(),
            shader_float8: vk::FALSE,
            shader_float8_cooperative_matrix: vk::FALSE,
        }
    }
}

// SAFETY: a `#[repr(C)]` structure that starts with `sType` and `pNext`, as the registry says
// `VkPhysicalDeviceShaderFloat8FeaturesEXT` extends both structures.
unsafe impl vk::ExtendsPhysicalDeviceFeatures2 for ShaderFloat8Features {}
// SAFETY: as above.
unsafe impl vk::ExtendsDeviceCreateInfo for ShaderFloat8Features {}

/// One physical device as the loader lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VulkanDeviceInfo {
    /// Its position in the loader's list.
    pub index: usize,
    pub name: String,
    /// `VkPhysicalDeviceType`, in words (`cpu`, `discrete gpu`).
    pub device_type: String,
    /// The driver's name and information (`VkPhysicalDeviceDriverProperties`), e.g. `llvmpipe`
    /// / `Mesa 25.0.7 (LLVM 15.0.6)`.
    pub driver_name: String,
    pub driver_info: String,
    /// The device's Vulkan version (major, minor, patch).
    pub api_version: (u32, u32, u32),
    /// `deviceUUID`, which finds the device again in another instance.
    pub uuid: [u8; vk::UUID_SIZE],
    pub features: ShaderFeatures,
    pub float_controls: FloatControls,
    /// `maxComputeWorkGroupCount[0]`: a launch of more groups is split.
    pub max_group_count_x: u32,
    /// The device's extensions.
    pub extensions: Vec<String>,
}

/// The oldest Vulkan clacc's shaders and queries need (float controls and the driver's
/// properties are core there).
pub const MINIMUM_VERSION: (u32, u32) = (1, 2);

impl VulkanDeviceInfo {
    /// `llvmpipe (LLVM 15.0.6, 256 bits)` and its driver, for lists and errors.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.driver_name)
    }

    pub fn has_extension(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e == extension)
    }

    /// `1.4.305`.
    pub fn version_text(&self) -> String {
        let (major, minor, patch) = self.api_version;
        format!("{major}.{minor}.{patch}")
    }

    /// Why clacc cannot run shaders on it, if it cannot.
    pub fn unusable_reason(&self) -> Option<String> {
        let (major, minor, _) = self.api_version;
        ((major, minor) < MINIMUM_VERSION).then(|| {
            format!(
                "Vulkan {}; clacc needs {}.{} (float controls)",
                self.version_text(),
                MINIMUM_VERSION.0,
                MINIMUM_VERSION.1
            )
        })
    }
}

/// lavapipe as #45 measured it (Mesa 25.0.7), for the tests of the layers above that need a
/// device's properties without opening one: float_controls2, Float16, Float64, 8-, 16- and
/// 64-bit integers, 16-bit storage, scalar block layout; RTE and SignedZeroInfNanPreserve for
/// every width, no denorm mode; no float8.
#[cfg(test)]
pub(crate) fn lavapipe_as_measured() -> VulkanDeviceInfo {
    let width = WidthControls {
        rte: true,
        signed_zero_inf_nan_preserve: true,
        ..WidthControls::default()
    };
    VulkanDeviceInfo {
        index: 0,
        name: "llvmpipe".to_string(),
        device_type: "cpu".to_string(),
        driver_name: "llvmpipe".to_string(),
        driver_info: "Mesa 25.0.7".to_string(),
        api_version: (1, 4, 305),
        uuid: [0; 16],
        features: ShaderFeatures {
            float16: true,
            float64: true,
            storage_buffer16: true,
            int64: true,
            int16: true,
            int8: true,
            scalar_block_layout: true,
            float_controls2: true,
            float8: false,
        },
        float_controls: FloatControls {
            half: width,
            float: width,
            double: width,
            ..FloatControls::default()
        },
        max_group_count_x: 65535,
        extensions: Vec::new(),
    }
}

/// A fixed-size C string field as text.
fn text_of(field: &[c_char]) -> String {
    // SAFETY: reinterpreting c_char (i8 or u8) as u8 of the same size and count.
    let bytes = unsafe { std::slice::from_raw_parts(field.as_ptr().cast::<u8>(), field.len()) };
    CStr::from_bytes_until_nul(bytes)
        .map(|text| text.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(bytes).into_owned())
}

/// An instance for listing and opening devices: Vulkan 1.3 where the loader offers it (1.2 at
/// least, whose core has everything clacc queries), no layers, no extensions.
pub(crate) fn create_instance(entry: &ash::Entry) -> Result<ash::Instance, VulkanError> {
    // SAFETY: a global command with no preconditions.
    let loader_version = unsafe { entry.try_enumerate_instance_version() }
        .map_err(call("vkEnumerateInstanceVersion"))?
        .unwrap_or(vk::API_VERSION_1_0);
    let api_version = loader_version.min(vk::API_VERSION_1_3);
    if api_version < vk::make_api_version(0, MINIMUM_VERSION.0, MINIMUM_VERSION.1, 0) {
        return Err(VulkanError::NoLoader(format!(
            "the loader offers Vulkan {}.{}; clacc needs {}.{}",
            vk::api_version_major(loader_version),
            vk::api_version_minor(loader_version),
            MINIMUM_VERSION.0,
            MINIMUM_VERSION.1
        )));
    }
    let application = vk::ApplicationInfo::default()
        .application_name(c"clacc")
        .application_version(1)
        .api_version(api_version);
    let create_info = vk::InstanceCreateInfo::default().application_info(&application);
    // SAFETY: a valid create info whose pointers live for the call.
    unsafe { entry.create_instance(&create_info, None) }.map_err(call("vkCreateInstance"))
}

/// Every physical device the loader lists, with its features and float-controls properties.
/// No driver at all is an empty list; no loader is [`VulkanError::NoLoader`].
pub fn enumerate() -> Result<Vec<VulkanDeviceInfo>, VulkanError> {
    let loader = loader::loader()?;
    let instance = match create_instance(&loader.entry) {
        Ok(instance) => instance,
        // The loader's answer when it finds no driver.
        Err(VulkanError::Call {
            result: vk::Result::ERROR_INCOMPATIBLE_DRIVER,
            ..
        }) => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let listed = physical_devices(&instance);
    // SAFETY: the instance is destroyed once, after its last use; nothing made from it lives on.
    unsafe { instance.destroy_instance(None) };
    listed.map(|devices| devices.into_iter().map(|(info, _)| info).collect())
}

/// The instance's physical devices, described.
pub(crate) fn physical_devices(
    instance: &ash::Instance,
) -> Result<Vec<(VulkanDeviceInfo, vk::PhysicalDevice)>, VulkanError> {
    // SAFETY: a valid instance.
    let handles = unsafe { instance.enumerate_physical_devices() }
        .map_err(call("vkEnumeratePhysicalDevices"))?;
    handles
        .into_iter()
        .enumerate()
        .map(|(index, handle)| Ok((describe(instance, handle, index)?, handle)))
        .collect()
}

/// One physical device's [`VulkanDeviceInfo`].
fn describe(
    instance: &ash::Instance,
    device: vk::PhysicalDevice,
    index: usize,
) -> Result<VulkanDeviceInfo, VulkanError> {
    // SAFETY: a physical device of this instance.
    let properties = unsafe { instance.get_physical_device_properties(device) };
    // SAFETY: as above.
    let extensions: Vec<String> = unsafe { instance.enumerate_device_extension_properties(device) }
        .map_err(call("vkEnumerateDeviceExtensionProperties"))?
        .iter()
        .map(|e| text_of(&e.extension_name))
        .collect();
    let api_version = (
        vk::api_version_major(properties.api_version),
        vk::api_version_minor(properties.api_version),
        vk::api_version_patch(properties.api_version),
    );
    let mut info = VulkanDeviceInfo {
        index,
        name: text_of(&properties.device_name),
        device_type: device_type_name(properties.device_type).to_string(),
        driver_name: String::new(),
        driver_info: String::new(),
        api_version,
        uuid: properties.pipeline_cache_uuid,
        features: ShaderFeatures::default(),
        float_controls: FloatControls::default(),
        max_group_count_x: properties.limits.max_compute_work_group_count[0],
        extensions,
    };
    if info.unusable_reason().is_some() {
        // The 1.2 structures below are not valid to ask of an older device.
        // SAFETY: a physical device of this instance.
        let core = unsafe { instance.get_physical_device_features(device) };
        info.features.float64 = core.shader_float64 != 0;
        return Ok(info);
    }
    let mut vk11_properties = vk::PhysicalDeviceVulkan11Properties::default();
    let mut vk12_properties = vk::PhysicalDeviceVulkan12Properties::default();
    let mut properties2 = vk::PhysicalDeviceProperties2::default()
        .push_next(&mut vk11_properties)
        .push_next(&mut vk12_properties);
    // SAFETY: a 1.2 device and a chain of structures it knows.
    unsafe { instance.get_physical_device_properties2(device, &mut properties2) };
    info.uuid = vk11_properties.device_uuid;
    info.driver_name = text_of(&vk12_properties.driver_name);
    info.driver_info = text_of(&vk12_properties.driver_info);
    let p = &vk12_properties;
    let yes = |value: vk::Bool32| value != 0;
    info.float_controls = FloatControls {
        half: WidthControls {
            rte: yes(p.shader_rounding_mode_rte_float16),
            rtz: yes(p.shader_rounding_mode_rtz_float16),
            denorm_preserve: yes(p.shader_denorm_preserve_float16),
            denorm_flush_to_zero: yes(p.shader_denorm_flush_to_zero_float16),
            signed_zero_inf_nan_preserve: yes(p.shader_signed_zero_inf_nan_preserve_float16),
        },
        float: WidthControls {
            rte: yes(p.shader_rounding_mode_rte_float32),
            rtz: yes(p.shader_rounding_mode_rtz_float32),
            denorm_preserve: yes(p.shader_denorm_preserve_float32),
            denorm_flush_to_zero: yes(p.shader_denorm_flush_to_zero_float32),
            signed_zero_inf_nan_preserve: yes(p.shader_signed_zero_inf_nan_preserve_float32),
        },
        double: WidthControls {
            rte: yes(p.shader_rounding_mode_rte_float64),
            rtz: yes(p.shader_rounding_mode_rtz_float64),
            denorm_preserve: yes(p.shader_denorm_preserve_float64),
            denorm_flush_to_zero: yes(p.shader_denorm_flush_to_zero_float64),
            signed_zero_inf_nan_preserve: yes(p.shader_signed_zero_inf_nan_preserve_float64),
        },
        denorm_independence: Independence::from_vk(p.denorm_behavior_independence),
        rounding_independence: Independence::from_vk(p.rounding_mode_independence),
    };
    let offers_float_controls2 = info.has_extension("VK_KHR_shader_float_controls2");
    let offers_float8 = info.has_extension(FLOAT8_EXTENSION);
    let mut vk11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut vk12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut float_controls2 = vk::PhysicalDeviceShaderFloatControls2FeaturesKHR::default();
    let mut features2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut vk11)
        .push_next(&mut vk12);
    if offers_float_controls2 {
        features2 = features2.push_next(&mut float_controls2);
    }
    let mut float8 = ShaderFloat8Features::default();
    if offers_float8 {
        features2 = features2.push_next(&mut float8);
    }
    // SAFETY: a 1.2 device and a chain of structures it knows (the last only where offered).
    unsafe { instance.get_physical_device_features2(device, &mut features2) };
    let core = features2.features;
    info.features = ShaderFeatures {
        float16: yes(vk12.shader_float16),
        float64: yes(core.shader_float64),
        storage_buffer16: yes(vk11.storage_buffer16_bit_access),
        int64: yes(core.shader_int64),
        int16: yes(core.shader_int16),
        int8: yes(vk12.shader_int8) && yes(vk12.storage_buffer8_bit_access),
        scalar_block_layout: yes(vk12.scalar_block_layout),
        float_controls2: offers_float_controls2 && yes(float_controls2.shader_float_controls2),
        float8: offers_float8 && yes(float8.shader_float8),
    };
    Ok(info)
}

fn device_type_name(device_type: vk::PhysicalDeviceType) -> &'static str {
    match device_type {
        vk::PhysicalDeviceType::CPU => "cpu",
        vk::PhysicalDeviceType::DISCRETE_GPU => "discrete gpu",
        vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated gpu",
        vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual gpu",
        _ => "other",
    }
}

// Every test here loads the Vulkan loader and runs shaders on lavapipe: the device tier.
#[cfg(all(test, feature = "device-tests"))]
mod on_device;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_features_describe_what_is_set() {
        let lavapipe_float = WidthControls {
            rte: true,
            signed_zero_inf_nan_preserve: true,
            ..WidthControls::default()
        };
        assert_eq!(lavapipe_float.describe(), "rte szinfnan-preserve");
        assert_eq!(WidthControls::default().describe(), "none");
        let features = ShaderFeatures {
            float16: true,
            storage_buffer16: false,
            ..ShaderFeatures::default()
        };
        let float8 = ShaderFloat8Features::default();
        assert_eq!(float8.s_type.as_raw(), 1_000_567_000);
        // vulkan_core.h's layout: the two Bool32s right after the pNext pointer.
        let pointer = std::mem::size_of::<*mut std::ffi::c_void>();
        assert_eq!(
            std::mem::offset_of!(ShaderFloat8Features, shader_float8),
            pointer * 2
        );
        assert_eq!(
            std::mem::offset_of!(ShaderFloat8Features, shader_float8_cooperative_matrix),
            pointer * 2 + 4
        );
        assert!(!features.supports(FloatType::Half));
        assert!(features.supports(FloatType::Float));
        assert!(!features.supports(FloatType::Double));
        assert_eq!(features.describe(), "shaderFloat16");
    }

    #[test]
    fn devices_older_than_vulkan_1_2_are_unusable() {
        let mut info = VulkanDeviceInfo {
            index: 0,
            name: "old".into(),
            device_type: "cpu".into(),
            driver_name: String::new(),
            driver_info: String::new(),
            api_version: (1, 1, 0),
            uuid: [0; vk::UUID_SIZE],
            features: ShaderFeatures::default(),
            float_controls: FloatControls::default(),
            max_group_count_x: 65535,
            extensions: Vec::new(),
        };
        assert!(info.unusable_reason().is_some_and(|r| r.contains("1.1.0")));
        info.api_version = (1, 4, 305);
        assert_eq!(info.unusable_reason(), None);
        assert_eq!(info.version_text(), "1.4.305");
    }
}
