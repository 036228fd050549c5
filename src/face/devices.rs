//! `clacc devices`, opening the device a run names, and the isolated extension probe (`clacc
//! probe-build`).

use super::args::DeviceArgs;
use super::console::{out, out_line};
use super::{usage, UsageError};
use crate::device::opencl::{self, DeviceInfo, Session};
use crate::device::vulkan::{self, VulkanDeviceInfo, VulkanError};
use crate::device::{Device, DeviceError, KernelForm};
use crate::kernel::ENTRY_POINT;
use crate::run::extension::probe::{self as extension, IsolatedOutcome};
use std::path::PathBuf;
use std::process::ExitCode;

/// The device --platform and --device name (the default: the first that takes SPIR-V).
pub(crate) fn open_device(args: &DeviceArgs) -> Result<DeviceInfo, UsageError> {
    let devices = opencl::enumerate()?;
    Ok(opencl::select(&devices, args.platform.as_deref(), args.device.as_deref())?.clone())
}

/// `clacc probe-build`: builds one module (or, from a `.cl` file, OpenCL C source) on the
/// device in this process; exit 0 built, 3 refused, 4 the build failed otherwise (the reason on
/// stdout).
pub(crate) fn probe_build(
    device: &DeviceArgs,
    module: &std::path::Path,
    name: &str,
    options: &str,
) -> Result<ExitCode, UsageError> {
    let info = open_device(device)?;
    let code = std::fs::read(module)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", module.display())))?;
    let session = Session::open(info)?;
    let outcome = if module.extension().is_some_and(|e| e == "cl") {
        let source = String::from_utf8_lossy(&code);
        match session.build(name, KernelForm::OpenclC(&source), ENTRY_POINT, options) {
            Ok(_) => IsolatedOutcome::Built,
            Err(DeviceError::Build { log, .. }) => {
                IsolatedOutcome::Refused(crate::run::pipeline::telling_line(&log))
            }
            Err(other) => IsolatedOutcome::Refused(other.to_string()),
        }
    } else {
        extension::build_in_this_process(&session, name, &code, options)
    };
    match outcome {
        IsolatedOutcome::Built => Ok(ExitCode::SUCCESS),
        IsolatedOutcome::Refused(why) => {
            out_line("the build's outcome", why)?;
            Ok(ExitCode::from(3))
        }
        IsolatedOutcome::Crashed(why) => {
            out_line("the build's outcome", why)?;
            Ok(ExitCode::from(4))
        }
    }
}

/// Probes by building each extension's minimal module in its own `clacc probe-build`
/// process, for devices that cannot be asked (no cl_khr_spirv_queries): a driver that dies on
/// an extension it does not know takes only that process with it.
pub(crate) fn isolated_builder(info: &DeviceInfo) -> impl Fn(&str, &[u8]) -> IsolatedOutcome + '_ {
    move |name: &str, spirv: &[u8]| build_isolated(info, name, KernelForm::SpirvOpencl(spirv), "")
}

/// Builds `kernel` (a SPIR-V module, or OpenCL C source) with `options` in a `clacc
/// probe-build` process of its own.
pub(crate) fn build_isolated(
    info: &DeviceInfo,
    name: &str,
    kernel: KernelForm<'_>,
    options: &str,
) -> IsolatedOutcome {
    let (extension, bytes) = match kernel {
        KernelForm::SpirvOpencl(spirv) | KernelForm::SpirvVulkan(spirv) => ("spv", spirv),
        KernelForm::OpenclC(source) => ("cl", source.as_bytes()),
    };
    {
        let Ok(executable) = std::env::current_exe() else {
            return IsolatedOutcome::Crashed("cannot find clacc's own executable".to_string());
        };
        let Ok(dir) = tempfile_dir() else {
            return IsolatedOutcome::Crashed("cannot write a temporary module".to_string());
        };
        let path = dir.join(format!(
            "{}.{extension}",
            name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        ));
        if std::fs::write(&path, bytes).is_err() {
            return IsolatedOutcome::Crashed("cannot write a temporary module".to_string());
        }
        let output = std::process::Command::new(executable)
            .args([
                "probe-build",
                "--platform",
                &info.platform_index.to_string(),
                "--device",
                &info.device_index.to_string(),
                "--name",
                name,
                "--with-options",
                options,
            ])
            .arg(&path)
            .output();
        let _ = std::fs::remove_dir_all(&dir);
        match output {
            Ok(output) => match output.status.code() {
                Some(0) => IsolatedOutcome::Built,
                Some(3) => IsolatedOutcome::Refused(
                    String::from_utf8_lossy(&output.stdout).trim().to_string(),
                ),
                _ => IsolatedOutcome::Crashed(crate::run::isolate::describe_exit(output.status)),
            },
            Err(error) => {
                IsolatedOutcome::Crashed(format!("cannot start clacc probe-build: {error}"))
            }
        }
    }
}

/// A fresh private folder under the system's temporary directory.
fn tempfile_dir() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "clacc-probe-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// `clacc devices`: every platform and device, what it offers and whether clacc can use it:
/// the OpenCL platforms, then the Vulkan physical devices under a platform named `Vulkan`.
pub(crate) fn print_devices() -> Result<ExitCode, UsageError> {
    let devices = opencl::enumerate()?;
    if devices.is_empty() {
        return usage("the OpenCL loader sees no platform; run scripts/setup to install the Intel CPU runtime");
    }
    let default = opencl::select(&devices, None, None).ok().map(|d| d.id);
    for info in &devices {
        let fp = |config: Option<crate::spec::fp_config::FpConfig>| {
            config.map_or("not supported".to_string(), |c| c.describe())
        };
        let default_mark = if Some(info.id) == default {
            " (default)"
        } else {
            ""
        };
        let usable = match (info.no_kernel_path_reason(), info.unusable_reason()) {
            (Some(reason), _) => format!("no: {reason}"),
            (None, None) => format!("yes{default_mark}"),
            // PoCL 3.1: its runs take the OpenCL C path.
            (None, Some(spirv)) => format!("yes{default_mark}, OpenCL C only ({spirv})"),
        };
        let opencl_c = match (info.newest_opencl_c(), info.opencl_c_std_option()) {
            (None, _) => "no compiler".to_string(),
            (Some((major, minor)), Some(std)) => format!("{major}.{minor} (built with {std})"),
            (Some((major, minor)), None) => format!("{major}.{minor}"),
        };
        let il_versions = if info.il_versions.is_empty() {
            "no SPIR-V".to_string()
        } else {
            info.il_versions.join(" ")
        };
        let mut lines = vec![
            format!(
                "[{}:{}] {} / {}",
                info.platform_index, info.device_index, info.platform_name, info.name
            ),
            format!("    profile        {}", info.profile),
            format!("    version        {}", info.version),
            format!("    driver         {}", info.driver_version),
            format!("    IL versions    {il_versions}"),
            format!("    OpenCL C       {opencl_c}"),
        ];
        if let Some(entry_point) = info.il_entry_point() {
            lines.push(format!("    IL entry point {}", entry_point.call_name()));
        }
        lines.push(format!("    float          {}", fp(Some(info.single_fp))));
        lines.push(format!("    double         {}", fp(info.double_fp)));
        lines.push(format!("    half           {}", fp(info.half_fp)));
        lines.push(format!("    address bits   {}", info.address_bits));
        // What is known is shown before the probe, which may take a while.
        out("the device list", &(lines.join("\n") + "\n"))?;
        let builder = isolated_builder(info);
        let probe = extension::probe(info, opencl::probe::spirv_extensions(info), Some(&builder));
        out(
            "the device list",
            &format!(
                "    SPIR-V ext.    {}\n    usable         {usable}\n",
                probe.describe()
            ),
        )?;
    }
    print_vulkan_devices()?;
    Ok(ExitCode::SUCCESS)
}

/// The Vulkan part of `clacc devices`: each physical device with its shader features and
/// float-controls properties, or one line saying why there is none (no loader is no failure:
/// the OpenCL devices are usable without one).
fn print_vulkan_devices() -> Result<(), UsageError> {
    let devices = match vulkan::enumerate() {
        Ok(devices) if devices.is_empty() => {
            return out_line(
                "the device list",
                "Vulkan: the loader sees no device (scripts/setup installs lavapipe)",
            )
        }
        Ok(devices) => devices,
        Err(error @ VulkanError::NoLoader(_)) => {
            return out_line("the device list", format!("Vulkan: {error}"))
        }
        Err(error) => {
            return out_line(
                "the device list",
                format!("Vulkan: the devices cannot be listed: {error}"),
            )
        }
    };
    for info in &devices {
        out(
            "the device list",
            &(describe_vulkan(info).join("\n") + "\n"),
        )?;
    }
    Ok(())
}

/// One Vulkan physical device's lines in `clacc devices`.
fn describe_vulkan(info: &VulkanDeviceInfo) -> Vec<String> {
    use crate::num::fp::FloatType;
    let controls = |element: FloatType| {
        if info.features.supports(element) {
            info.float_controls.of(element).describe()
        } else {
            "not supported".to_string()
        }
    };
    let usable = match info.unusable_reason() {
        Some(reason) => format!("no: {reason}"),
        None => "yes, path vulkan".to_string(),
    };
    vec![
        format!("[vulkan:{}] Vulkan / {}", info.index, info.name),
        format!("    type           {}", info.device_type),
        format!("    version        Vulkan {}", info.version_text()),
        format!(
            "    driver         {} ({})",
            info.driver_name, info.driver_info
        ),
        format!("    features       {}", info.features.describe()),
        format!(
            "    float8         {}",
            if info.features.float8 {
                "yes (VK_EXT_shader_float8: SPV_EXT_float8 units run)"
            } else {
                "no (no VK_EXT_shader_float8 with shaderFloat8: SPV_EXT_float8 units skip)"
            }
        ),
        format!("    float          {}", controls(FloatType::Float)),
        format!("    double         {}", controls(FloatType::Double)),
        format!("    half           {}", controls(FloatType::Half)),
        format!(
            "    independence   denorm {}, rounding {}",
            info.float_controls.denorm_independence.name(),
            info.float_controls.rounding_independence.name()
        ),
        format!("    usable         {usable}"),
    ]
}
