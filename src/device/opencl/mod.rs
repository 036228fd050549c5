//! The OpenCL device: what the ICD loader sees, which device a run uses, and running one kernel
//! built from SPIR-V (`clCreateProgramWithIL`, or `clCreateProgramWithILKHR` on an OpenCL 1.2
//! or 2.0 device with `cl_khr_il_program`) or from OpenCL C source
//! (`clCreateProgramWithSource`, built with the `-cl-std=` of the newest OpenCL C the device
//! compiles) over byte buffers.
//!
//! [`Session`] is this environment's [`Device`]. What only OpenCL has stays OpenCL-typed here
//! and is used as such by the layers above: the platform and device lists ([`enumerate`],
//! [`select`], [`DeviceInfo`] with its extensions, profile and IL versions), the SPIR-V queries
//! ([`probe`]) and the local runtimes' re-execution ([`runtime`]).

pub mod probe;
pub mod runtime;

use super::{BuiltKernel, Device, DeviceError, KernelForm, Launch};
use crate::num::fp::FloatType;
use crate::spec::fp_config::FpConfig;
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device as ClDevice, CL_DEVICE_TYPE_ALL};
use opencl3::error_codes::ClError;
use opencl3::kernel::Kernel;
use opencl3::memory::{
    Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE_INVALIDATE_REGION, CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_READ_WRITE,
};
use opencl3::platform::get_platforms;
use opencl3::types::{
    cl_context, cl_device_id, cl_int, cl_map_flags, cl_platform_id, cl_program, cl_uint,
    CL_BLOCKING,
};
use std::any::Any;
use std::ffi::{c_void, CString};
use std::ptr;
use std::sync::{Mutex, PoisonError};

/// Errors only OpenCL has, each naming the call or the device concerned.
#[derive(Debug, thiserror::Error)]
pub enum OpenclError {
    /// No OpenCL ICD loader (`libOpenCL.so.1`) could be loaded.
    #[error("no OpenCL ICD loader could be loaded ({0}); run scripts/setup to install one")]
    NoLoader(String),
    /// An OpenCL call returned an error code.
    #[error("{call} failed: {} ({code})", ClError(*code))]
    Call { call: &'static str, code: i32 },
    /// The loader sees no device at all.
    #[error(
        "the OpenCL loader sees no device; run scripts/setup to install the Intel CPU runtime"
    )]
    NoDevices,
    /// The chosen device reports no SPIR-V IL version.
    #[error(
        "device {device} cannot take SPIR-V (it reports no IL version for clCreateProgramWithIL); {}",
        spirv_devices(usable)
    )]
    NoSpirv { device: String, usable: Vec<String> },
    /// The chosen device takes neither SPIR-V nor OpenCL C source.
    #[error(
        "device {device} cannot run clacc's kernels: {reason}; {}",
        spirv_devices(usable)
    )]
    Unusable {
        device: String,
        reason: String,
        usable: Vec<String>,
    },
}

/// Where a device without SPIR-V sends the user: the devices that take it, or the setup.
fn spirv_devices(usable: &[String]) -> String {
    if usable.is_empty() {
        "no device here can; run scripts/setup to install the Intel OpenCL CPU runtime".to_string()
    } else {
        format!("devices that can: {}", usable.join("; "))
    }
}

fn call_error(call: &'static str) -> impl Fn(ClError) -> DeviceError {
    move |error| {
        DeviceError::from(OpenclError::Call {
            call,
            code: error.0,
        })
    }
}

/// The call that hands SPIR-V to a device. OpenCL 2.1 made `clCreateProgramWithIL` core; before
/// it (OpenCL 1.2, 2.0) the `cl_khr_il_program` extension provides `clCreateProgramWithILKHR`,
/// reached through `clGetExtensionFunctionAddressForPlatform` (a core call there answers
/// CL_INVALID_OPERATION, -59, e.g. on Intel's OpenCL 1.2 FPGA emulation platform).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IlEntryPoint {
    Core,
    Khr,
}

impl IlEntryPoint {
    pub fn call_name(self) -> &'static str {
        match self {
            IlEntryPoint::Core => "clCreateProgramWithIL",
            IlEntryPoint::Khr => "clCreateProgramWithILKHR",
        }
    }
}

/// `(major, minor)` of a `CL_DEVICE_VERSION` string, `OpenCL <major>.<minor> <vendor text>`.
fn opencl_version(version: &str) -> Option<(u32, u32)> {
    version_number(version.strip_prefix("OpenCL ")?)
}

/// `(major, minor)` of a `CL_DEVICE_OPENCL_C_VERSION` string, `OpenCL C <major>.<minor> <vendor
/// text>`.
fn opencl_c_version(version: &str) -> Option<(u32, u32)> {
    version_number(version.strip_prefix("OpenCL C ")?)
}

/// `(major, minor)` of `<major>.<minor> <anything>`.
fn version_number(text: &str) -> Option<(u32, u32)> {
    let number = text.split_whitespace().next()?;
    let (major, minor) = number.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// What clacc needs to know about one device, read once at start-up. An isolated run's parent
/// has it from the worker that opened the device ([`DeviceInfo::id`] is then null: the parent
/// never calls the driver).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DeviceInfo {
    pub platform_index: usize,
    pub device_index: usize,
    pub platform_name: String,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    pub profile: String,
    pub version: String,
    /// e.g. `["SPIR-V_1.0", "SPIR-V_1.1"]`; empty when the device takes no IL.
    pub il_versions: Vec<String>,
    pub extensions: Vec<String>,
    pub single_fp: FpConfig,
    pub double_fp: Option<FpConfig>,
    pub half_fp: Option<FpConfig>,
    pub address_bits: u32,
    /// Every OpenCL C version the device compiles, `(major, minor)`, oldest first: its
    /// `CL_DEVICE_OPENCL_C_ALL_VERSIONS` on OpenCL 3.0, else its `CL_DEVICE_OPENCL_C_VERSION`
    /// (which the earlier ones it also compiles do not change: clacc builds for the newest).
    /// Empty when the device has no compiler (`CL_DEVICE_COMPILER_AVAILABLE` false).
    pub opencl_c_versions: Vec<(u32, u32)>,
    /// The driver's handle, valid in the process that enumerated the devices.
    #[serde(skip, default = "std::ptr::null_mut")]
    pub id: cl_device_id,
}

/// A device as an isolated run's parent plans with it: its info and its
/// `cl_khr_spirv_queries` answer, read by the worker that opened it, so that the parent never
/// loads the driver (whose libraries cost a CPU runtime's start-up a second time).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DeviceDescription {
    pub info: DeviceInfo,
    pub spirv_queries: crate::spec::probe::Probe,
}

impl DeviceDescription {
    /// Reads the queries of a device this process opened.
    pub fn of(info: DeviceInfo) -> DeviceDescription {
        let spirv_queries = probe::spirv_extensions(&info);
        DeviceDescription {
            info,
            spirv_queries,
        }
    }
}

impl DeviceInfo {
    pub fn accepts_spirv(&self) -> bool {
        self.il_versions.iter().any(|v| v.starts_with("SPIR-V"))
    }

    /// Whether clacc can hand this device SPIR-V (`KernelForm::SpirvOpencl`): it lists
    /// SPIR-V 1.0 and has a call that takes it ([`DeviceInfo::unusable_reason`] says why not).
    /// A device that does not may still take OpenCL C ([`DeviceInfo::takes_opencl_c`]), so the
    /// OpenCL C path is the one that works there.
    pub fn takes_il(&self) -> bool {
        self.unusable_reason().is_none()
    }

    /// Whether the device compiles OpenCL C source (`KernelForm::OpenclC`).
    pub fn takes_opencl_c(&self) -> bool {
        !self.opencl_c_versions.is_empty()
    }

    /// The newest OpenCL C version the device compiles.
    pub fn newest_opencl_c(&self) -> Option<(u32, u32)> {
        self.opencl_c_versions.iter().copied().max()
    }

    /// The `-cl-std=` option for the newest OpenCL C the device compiles (`-cl-std=CL3.0`):
    /// without one, compilers take OpenCL C 1.2 at most, whatever the device supports. `None`
    /// for OpenCL C 1.0, which has no such option, or a device without a compiler.
    pub fn opencl_c_std_option(&self) -> Option<String> {
        self.newest_opencl_c()
            .filter(|version| *version >= (1, 1))
            .map(|(major, minor)| format!("-cl-std=CL{major}.{minor}"))
    }

    /// `Intel(R) OpenCL / Intel(R) Xeon(R) Processor (--platform 0 --device 0)`.
    pub fn label(&self) -> String {
        format!(
            "{} / {} (--platform {} --device {})",
            self.platform_name, self.name, self.platform_index, self.device_index
        )
    }

    pub fn has_extension(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e == extension)
    }

    /// The fp config for a type, or `None` where the device does not support the type.
    pub fn fp_config(&self, element: FloatType) -> Option<FpConfig> {
        match element {
            FloatType::Half => self.half_fp,
            FloatType::Float => Some(self.single_fp),
            FloatType::Double => self.double_fp,
        }
    }

    /// How this device takes SPIR-V: the core call from OpenCL 2.1 on, the `cl_khr_il_program`
    /// call before it; `None` when it takes no SPIR-V.
    pub fn il_entry_point(&self) -> Option<IlEntryPoint> {
        if !self.accepts_spirv() {
            return None;
        }
        match opencl_version(&self.version) {
            Some(version) if version < (2, 1) => self
                .has_extension("cl_khr_il_program")
                .then_some(IlEntryPoint::Khr),
            _ => Some(IlEntryPoint::Core),
        }
    }

    /// Why clacc cannot run kernels on this device by either path, or `None` when it can (it
    /// takes SPIR-V, OpenCL C source, or both).
    pub fn no_kernel_path_reason(&self) -> Option<String> {
        let spirv = self.unusable_reason()?;
        if self.takes_opencl_c() {
            return None;
        }
        Some(format!("{spirv}, and no OpenCL C compiler"))
    }

    /// Why clacc cannot hand this device SPIR-V, or `None` when it can (see
    /// [`DeviceInfo::takes_il`]; OpenCL C may still work there).
    pub fn unusable_reason(&self) -> Option<String> {
        if !self.accepts_spirv() {
            return Some("no SPIR-V: clCreateProgramWithIL is not supported".to_string());
        }
        if self.il_entry_point().is_none() {
            return Some(format!(
                "{} without cl_khr_il_program: no call takes SPIR-V",
                self.version.trim()
            ));
        }
        if !self.il_versions.iter().any(|v| v == "SPIR-V_1.0") {
            return Some("does not list SPIR-V 1.0, the version clacc emits".to_string());
        }
        None
    }
}

const CL_DEVICE_HALF_FP_CONFIG: u32 = 0x1033;

fn read_device(
    platform_index: usize,
    platform_name: &str,
    device_index: usize,
    id: cl_device_id,
) -> Result<DeviceInfo, DeviceError> {
    let device = ClDevice::new(id);
    let extensions: Vec<String> = device
        .extensions()
        .map_err(call_error("clGetDeviceInfo(CL_DEVICE_EXTENSIONS)"))?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let has = |name: &str| extensions.iter().any(|e| e == name);
    // Devices without IL support answer the IL query with an error or an empty string.
    let il_versions = device
        .il_version()
        .map(|text| text.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let double_fp = device
        .double_fp_config()
        .ok()
        .filter(|bits| *bits != 0 || has("cl_khr_fp64"))
        .map(FpConfig);
    let opencl_c_versions = if device.compiler_available().unwrap_or(false) {
        opencl_c_versions_of(&device)
    } else {
        Vec::new()
    };
    let half_fp = if has("cl_khr_fp16") {
        opencl3::device::get_device_info(id, CL_DEVICE_HALF_FP_CONFIG)
            .ok()
            .map(|value| FpConfig(u64::from(value)))
    } else {
        None
    };
    Ok(DeviceInfo {
        platform_index,
        device_index,
        platform_name: platform_name.to_string(),
        name: device
            .name()
            .map_err(call_error("clGetDeviceInfo(CL_DEVICE_NAME)"))?,
        vendor: device.vendor().unwrap_or_default(),
        driver_version: device.driver_version().unwrap_or_default(),
        profile: device.profile().unwrap_or_default(),
        version: device.version().unwrap_or_default(),
        il_versions,
        extensions,
        single_fp: FpConfig(
            device
                .single_fp_config()
                .map_err(call_error("clGetDeviceInfo(CL_DEVICE_SINGLE_FP_CONFIG)"))?,
        ),
        double_fp,
        half_fp,
        address_bits: device
            .address_bits()
            .map_err(call_error("clGetDeviceInfo(CL_DEVICE_ADDRESS_BITS)"))?,
        opencl_c_versions,
        id,
    })
}

/// The OpenCL C versions `device` compiles, oldest first (see [`DeviceInfo::opencl_c_versions`]).
fn opencl_c_versions_of(device: &ClDevice) -> Vec<(u32, u32)> {
    // A cl_version: major in the top 10 bits, minor in the next 10, patch in the low 12.
    let mut versions: Vec<(u32, u32)> = device
        .opencl_c_all_versions()
        .unwrap_or_default()
        .iter()
        .map(|named| (named.version >> 22, (named.version >> 12) & 0x3ff))
        .collect();
    // Before OpenCL 3.0 (and on 3.0 devices that leave the list empty), the one version string.
    if versions.is_empty() {
        versions.extend(
            device
                .opencl_c_version()
                .ok()
                .and_then(|text| opencl_c_version(&text)),
        );
    }
    versions.sort_unstable();
    versions.dedup();
    versions
}

/// Every device on every platform the ICD loader sees, in loader order.
pub fn enumerate() -> Result<Vec<DeviceInfo>, DeviceError> {
    if let Err(error) = cl3::load_library() {
        return Err(OpenclError::NoLoader(error.to_string()).into());
    }
    let platforms = match get_platforms() {
        Ok(platforms) => platforms,
        // CL_PLATFORM_NOT_FOUND_KHR: a loader without any ICD.
        Err(ClError(-1001)) => Vec::new(),
        Err(error) => return Err(call_error("clGetPlatformIDs")(error)),
    };
    let mut devices = Vec::new();
    for (platform_index, platform) in platforms.iter().enumerate() {
        let platform_name = platform
            .name()
            .map_err(call_error("clGetPlatformInfo(CL_PLATFORM_NAME)"))?;
        // CL_DEVICE_NOT_FOUND on a platform with no device is not an error for a listing.
        let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default();
        for (device_index, id) in ids.into_iter().enumerate() {
            devices.push(read_device(
                platform_index,
                &platform_name,
                device_index,
                id,
            )?);
        }
    }
    Ok(devices)
}

/// Whether `pattern` names the entry at `index` called `name`: a number is an index, anything
/// else a case-insensitive substring of the name.
fn matches(pattern: &str, index: usize, name: &str) -> bool {
    match pattern.parse::<usize>() {
        Ok(wanted) => wanted == index,
        Err(_) => name.to_lowercase().contains(&pattern.to_lowercase()),
    }
}

/// The entries `pattern` names among `candidates`, as `key` (the platform's index, or the
/// device itself) tells them apart: an index, a substring that names one, or the one whose
/// whole name it is (case-insensitive) where a substring names several. An empty pattern, a
/// pattern that names none, or one that names several is an error that lists them.
fn narrow<'a, K: PartialEq>(
    what: &'static str,
    pattern: &str,
    candidates: Vec<&'a DeviceInfo>,
    key: impl Fn(&DeviceInfo) -> K,
    index_and_name: impl Fn(&DeviceInfo) -> (usize, &str),
    describe: impl Fn(&DeviceInfo) -> String,
) -> Result<Vec<&'a DeviceInfo>, DeviceError> {
    let describe_distinct = |entries: &[&DeviceInfo]| {
        let mut seen: Vec<K> = Vec::new();
        let mut described = Vec::new();
        for entry in entries {
            let entry_key = key(entry);
            if !seen.contains(&entry_key) {
                seen.push(entry_key);
                described.push(describe(entry));
            }
        }
        described
    };
    if pattern.trim().is_empty() {
        return Err(DeviceError::EmptyPattern {
            what,
            available: describe_distinct(&candidates),
        });
    }
    let matched: Vec<&DeviceInfo> = candidates
        .iter()
        .copied()
        .filter(|d| {
            let (index, name) = index_and_name(d);
            matches(pattern, index, name)
        })
        .collect();
    let named = describe_distinct(&matched);
    let is_index = pattern.parse::<usize>().is_ok();
    if named.is_empty() {
        return Err(DeviceError::NoMatch {
            what,
            pattern: pattern.to_string(),
            available: describe_distinct(&candidates),
        });
    }
    // An index names the entry of that number in each platform left: the first usable of
    // them is taken, as without the flag.
    if named.len() == 1 || is_index {
        return Ok(matched);
    }
    let whole_name: Vec<&DeviceInfo> = matched
        .iter()
        .copied()
        .filter(|d| index_and_name(d).1.to_lowercase() == pattern.to_lowercase())
        .collect();
    if describe_distinct(&whole_name).len() == 1 {
        return Ok(whole_name);
    }
    Err(DeviceError::Ambiguous {
        what,
        pattern: pattern.to_string(),
        matched: named,
    })
}

/// Picks the device a run uses: `platform` and `device` each by index or by a case-insensitive
/// name that names one platform (device): a substring only it has, or its whole name. Of the
/// devices they leave, the first that takes SPIR-V, else the first that takes OpenCL C only
/// (whose runs take the OpenCL C path). A device that takes neither is an error naming the
/// devices that can; an empty name, or one that several platforms (devices) have, is an error
/// naming them.
pub fn select<'a>(
    devices: &'a [DeviceInfo],
    platform: Option<&str>,
    device: Option<&str>,
) -> Result<&'a DeviceInfo, DeviceError> {
    if devices.is_empty() {
        return Err(OpenclError::NoDevices.into());
    }
    let mut candidates: Vec<&DeviceInfo> = devices.iter().collect();
    if let Some(pattern) = platform {
        candidates = narrow(
            "platform",
            pattern,
            candidates,
            |d| d.platform_index,
            |d| (d.platform_index, &d.platform_name),
            |d| format!("{} {}", d.platform_index, d.platform_name),
        )?;
    }
    if let Some(pattern) = device {
        candidates = narrow(
            "device",
            pattern,
            candidates,
            |d| (d.platform_index, d.device_index),
            |d| (d.device_index, &d.name),
            DeviceInfo::label,
        )?;
    }
    let preferred = candidates.iter().find(|d| d.takes_il()).or_else(|| {
        candidates
            .iter()
            .find(|d| d.no_kernel_path_reason().is_none())
    });
    if let Some(usable) = preferred {
        return Ok(usable);
    }
    Err(OpenclError::Unusable {
        device: candidates[0].label(),
        reason: candidates[0].no_kernel_path_reason().unwrap_or_default(),
        usable: devices
            .iter()
            .filter(|d| d.no_kernel_path_reason().is_none())
            .map(DeviceInfo::label)
            .collect(),
    }
    .into())
}

/// A context and in-order queue on one device.
pub struct Session {
    pub info: DeviceInfo,
    context: Context,
    queue: CommandQueue,
    /// Buffers of finished runs, each with its size, kept for the next run: a chunk loop that
    /// created its buffers afresh for every launch spent a quarter of its time in the OS
    /// faulting in and clearing new pages.
    spare_buffers: Mutex<Vec<(usize, Buffer<u8>)>>,
}

/// How many spare buffers a session keeps (a run of every width of a two-output function
/// holds 13 at once); beyond it the smallest go.
const SPARE_BUFFERS: usize = 32;

/// Buffers are made in whole steps of this many bytes, so a run that needs a few bytes more
/// than the last (an input padded to whole 3-vectors) still finds a spare one.
const BUFFER_STEP: usize = 1 << 16;

// SAFETY: OpenCL contexts, queues and device ids are thread-safe handles (OpenCL 3.0 "Multiple
// Host Threads": all API calls are thread-safe except clSetKernelArg on one kernel object,
// which clacc only calls from the one thread that owns the `OpenclKernel`).
unsafe impl Send for Session {}
unsafe impl Sync for Session {}

/// A program object, released when dropped (whichever call created it).
struct ProgramHandle(cl_program);

// SAFETY: program objects are thread-safe handles (OpenCL 3.0 "Multiple Host Threads"), as
// opencl3's own Program declares.
unsafe impl Send for ProgramHandle {}
unsafe impl Sync for ProgramHandle {}

impl Drop for ProgramHandle {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful create call and is released once. An error
        // here cannot be acted on.
        let _ = unsafe { cl3::program::release_program(self.0) };
    }
}

/// A built program and its one kernel: this environment's [`BuiltKernel`].
pub struct OpenclKernel {
    // Dropped after the kernel: fields drop in declaration order.
    kernel: Kernel,
    _program: ProgramHandle,
    /// The work-group size its module requires (`LocalSize`, a user kernel's
    /// `reqd_work_group_size`), if any.
    required_work_group: Option<usize>,
    /// The largest work-group the device takes for this kernel (`CL_KERNEL_WORK_GROUP_SIZE`).
    largest_work_group: usize,
}

impl BuiltKernel for OpenclKernel {
    /// The size the module requires, or else `preferred` halved until the device takes it for
    /// this kernel.
    fn work_group(&self, preferred: usize) -> usize {
        if let Some(required) = self.required_work_group {
            return required;
        }
        let mut size = preferred.max(1);
        while size > self.largest_work_group.max(1) {
            size /= 2;
        }
        size
    }
}

/// What the device says of `kernel`'s work-groups: the size its module requires, if any, and
/// the largest it takes (1, which every kernel takes, where it does not say).
fn work_groups_of(kernel: &Kernel, device: cl_device_id) -> (Option<usize>, usize) {
    use cl3::kernel::{
        get_kernel_work_group_info, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, CL_KERNEL_WORK_GROUP_SIZE,
    };
    let required: Vec<usize> =
        get_kernel_work_group_info(kernel.get(), device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE)
            .map(Vec::from)
            .unwrap_or_default();
    let largest = get_kernel_work_group_info(kernel.get(), device, CL_KERNEL_WORK_GROUP_SIZE)
        .map(usize::from)
        .unwrap_or(1);
    (required.first().copied().filter(|size| *size > 0), largest)
}

type CreateProgramWithIlKhr =
    unsafe extern "C" fn(cl_context, *const c_void, usize, *mut cl_int) -> cl_program;
type GetExtensionFunctionAddressForPlatform =
    unsafe extern "C" fn(cl_platform_id, *const std::ffi::c_char) -> *mut c_void;

/// `clCreateProgramWithILKHR` of the device's platform, through
/// `clGetExtensionFunctionAddressForPlatform` of the loaded ICD loader (cl3 has no wrapper for
/// it, and loaders do not export extension calls themselves).
fn create_program_with_il_khr(
    device: cl_device_id,
    context: cl_context,
    il: &[u8],
) -> Result<cl_program, OpenclError> {
    let not_found = OpenclError::Call {
        call: "clGetExtensionFunctionAddressForPlatform(clCreateProgramWithILKHR)",
        code: -30,
    };
    let platform = ClDevice::new(device)
        .platform()
        .map_err(|error| OpenclError::Call {
            call: "clGetDeviceInfo(CL_DEVICE_PLATFORM)",
            code: error.0,
        })?;
    // SAFETY: dlopen/dlsym with NUL-terminated names; RTLD_NOLOAD only finds the loader cl3
    // already loaded (the same soname resolves to the same object).
    let lookup = unsafe {
        let loader = libc::dlopen(
            c"libOpenCL.so.1".as_ptr(),
            libc::RTLD_NOW | libc::RTLD_NOLOAD,
        );
        if loader.is_null() {
            return Err(not_found);
        }
        libc::dlsym(loader, c"clGetExtensionFunctionAddressForPlatform".as_ptr())
    };
    if lookup.is_null() {
        return Err(not_found);
    }
    // SAFETY: the symbol is the OpenCL 1.2 function of this signature.
    let lookup: GetExtensionFunctionAddressForPlatform = unsafe { std::mem::transmute(lookup) };
    let name = CString::new("clCreateProgramWithILKHR").expect("no NUL in the name");
    // SAFETY: a valid platform id and a NUL-terminated name.
    let address = unsafe { lookup(platform, name.as_ptr()) };
    if address.is_null() {
        return Err(not_found);
    }
    // SAFETY: cl_khr_il_program defines the function with this signature.
    let create: CreateProgramWithIlKhr = unsafe { std::mem::transmute(address) };
    let mut status: cl_int = 0;
    // SAFETY: `il` is live for the call, which copies it.
    let program = unsafe { create(context, il.as_ptr().cast(), il.len(), &mut status) };
    if status != 0 || program.is_null() {
        return Err(OpenclError::Call {
            call: "clCreateProgramWithILKHR",
            code: if status != 0 { status } else { -30 },
        });
    }
    Ok(program)
}

impl Session {
    pub fn open(info: DeviceInfo) -> Result<Session, DeviceError> {
        let device = ClDevice::new(info.id);
        let context = Context::from_device(&device).map_err(call_error("clCreateContext"))?;
        #[allow(deprecated)] // clCreateCommandQueue works on every OpenCL version.
        let queue = CommandQueue::create_default(&context, 0)
            .map_err(call_error("clCreateCommandQueue"))?;
        Ok(Session {
            info,
            context,
            queue,
            spare_buffers: Mutex::new(Vec::new()),
        })
    }

    /// Maps the first `bytes` of `buffer` (blocking, so after every command before it), hands
    /// them to `work` and unmaps them.
    fn mapped(
        &self,
        buffer: &Buffer<u8>,
        bytes: usize,
        flags: cl_map_flags,
        work: impl FnOnce(&mut [u8]),
    ) -> Result<(), DeviceError> {
        if bytes == 0 {
            // A map of no bytes is CL_INVALID_VALUE.
            work(&mut []);
            return Ok(());
        }
        let mut address = ptr::null_mut();
        // SAFETY: a blocking map of a range inside the buffer (buffers are at least `bytes`
        // long, `spare_buffers_for`).
        unsafe {
            self.queue
                .enqueue_map_buffer(buffer, CL_BLOCKING, flags, 0, bytes, &mut address, &[])
        }
        .map_err(call_error("clEnqueueMapBuffer"))?;
        // SAFETY: a finished map gives `bytes` bytes at `address` to the host alone until the
        // unmap below; nothing else refers to them meanwhile.
        work(unsafe { std::slice::from_raw_parts_mut(address.cast::<u8>(), bytes) });
        // SAFETY: `address` came from the map of this buffer above and is unmapped once; the
        // in-order queue runs the unmap before anything enqueued after it.
        unsafe {
            self.queue
                .enqueue_unmap_mem_object(buffer.get(), address, &[])
        }
        .map_err(call_error("clEnqueueUnmapMemObject"))?;
        Ok(())
    }

    /// A buffer of at least `bytes` bytes for each entry: the smallest spare one that fits,
    /// else a new one (host-allocatable, so mapping it is the device's zero-copy path).
    fn spare_buffers_for(&self, sizes: &[usize]) -> Result<Vec<(usize, Buffer<u8>)>, DeviceError> {
        let mut buffers = Vec::with_capacity(sizes.len());
        for bytes in sizes {
            let bytes = (*bytes).max(1);
            let spare = {
                let mut spares = self
                    .spare_buffers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                let best = spares
                    .iter()
                    .enumerate()
                    .filter(|(_, (size, _))| *size >= bytes)
                    .min_by_key(|(_, (size, _))| *size)
                    .map(|(index, _)| index);
                best.map(|index| spares.swap_remove(index))
            };
            let buffer = match spare {
                Some(buffer) => buffer,
                None => {
                    let size = bytes.div_ceil(BUFFER_STEP) * BUFFER_STEP;
                    // SAFETY: no host pointer is passed; the driver allocates.
                    let buffer = unsafe {
                        Buffer::<u8>::create(
                            &self.context,
                            CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                            size,
                            ptr::null_mut(),
                        )
                    }
                    .map_err(call_error("clCreateBuffer"))?;
                    (size, buffer)
                }
            };
            buffers.push(buffer);
        }
        Ok(buffers)
    }

    /// Keeps `buffers` for later runs, the largest [`SPARE_BUFFERS`] of all spares.
    fn keep_spare(&self, buffers: impl IntoIterator<Item = (usize, Buffer<u8>)>) {
        let mut spares = self
            .spare_buffers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        spares.extend(buffers);
        if spares.len() > SPARE_BUFFERS {
            spares.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
            spares.truncate(SPARE_BUFFERS);
        }
    }

    /// A program of `spirv` (not yet built), by the call the device takes IL through.
    fn program_from_il(&self, spirv: &[u8]) -> Result<ProgramHandle, DeviceError> {
        let entry_point_call = self.info.il_entry_point().unwrap_or(IlEntryPoint::Core);
        let created = match entry_point_call {
            IlEntryPoint::Core => cl3::program::create_program_with_il(self.context.get(), spirv)
                .map_err(|code| OpenclError::Call {
                    call: "clCreateProgramWithIL",
                    code,
                }),
            IlEntryPoint::Khr => {
                create_program_with_il_khr(self.info.id, self.context.get(), spirv)
            }
        };
        match created {
            Ok(program) => Ok(ProgramHandle(program)),
            Err(OpenclError::Call { code, .. }) if code == -30 || code == -42 => {
                // CL_INVALID_VALUE / CL_INVALID_BINARY: the usual answer of a device without IL.
                Err(OpenclError::NoSpirv {
                    device: self.info.label(),
                    usable: Vec::new(),
                }
                .into())
            }
            Err(error) => Err(error.into()),
        }
    }

    /// A program of OpenCL C `source` (not yet built).
    fn program_from_source(&self, source: &str) -> Result<ProgramHandle, DeviceError> {
        let program = cl3::program::create_program_with_source(self.context.get(), &[source])
            .map_err(|code| OpenclError::Call {
                call: "clCreateProgramWithSource",
                code,
            })?;
        Ok(ProgramHandle(program))
    }

    /// A source build's options: the run's, then the `-cl-std=` the device's newest OpenCL C
    /// needs, unless the run's options name a version themselves.
    fn source_options(&self, options: &str) -> String {
        match self.info.opencl_c_std_option() {
            Some(std) if !options.contains("-cl-std=") => {
                format!("{options} {std}").trim().to_string()
            }
            _ => options.to_string(),
        }
    }

    /// Builds `program` for the device; a refusal is [`DeviceError::Build`] with the build log.
    fn build_program(
        &self,
        program: &ProgramHandle,
        module_name: &str,
        options: &str,
    ) -> Result<(), DeviceError> {
        let options_c = CString::new(options).map_err(|_| DeviceError::Build {
            module: module_name.to_string(),
            log: "build options contain a NUL character".to_string(),
        })?;
        if let Err(code) = cl3::program::build_program(
            program.0,
            &[self.info.id],
            &options_c,
            None,
            ptr::null_mut(),
        ) {
            let log = cl3::program::get_program_build_info(
                program.0,
                self.info.id,
                cl3::program::CL_PROGRAM_BUILD_LOG,
            )
            .map(String::from)
            .unwrap_or_default();
            return Err(DeviceError::Build {
                module: module_name.to_string(),
                log: format!(
                    "{}\n({} {})",
                    log.trim(),
                    "clBuildProgram returned",
                    ClError(code)
                ),
            });
        }
        Ok(())
    }

    /// What the driver says of the kernels OpenCL C `source` holds, built with `options` and
    /// `-cl-kernel-arg-info`: every kernel's name, and `entry_point`'s parameters when it has
    /// one (for checking a user's kernel against a unit's interface before running it).
    pub fn describe_source(
        &self,
        module_name: &str,
        source: &str,
        entry_point: &str,
        options: &str,
    ) -> Result<SourceKernels, DeviceError> {
        use cl3::kernel::{
            get_kernel_arg_info, get_kernel_info, CL_KERNEL_ARG_ADDRESS_GLOBAL,
            CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_NUM_ARGS,
        };
        let program = self.program_from_source(source)?;
        let options = self.source_options(&format!("{options} -cl-kernel-arg-info"));
        self.build_program(&program, module_name, &options)?;
        let names: Vec<String> =
            cl3::program::get_program_info(program.0, cl3::program::CL_PROGRAM_KERNEL_NAMES)
                .map(String::from)
                .map_err(|code| {
                    call_error("clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)")(ClError(code))
                })?
                .split(';')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_string)
                .collect();
        if !names.iter().any(|name| name == entry_point) {
            return Ok(SourceKernels {
                names,
                parameters: Vec::new(),
            });
        }
        let entry_name = CString::new(entry_point).expect("kernel names hold no NUL");
        let kernel = Kernel::new(cl3::kernel::create_kernel(program.0, &entry_name).map_err(
            |code| OpenclError::Call {
                call: "clCreateKernel",
                code,
            },
        )?);
        let count = get_kernel_info(kernel.get(), CL_KERNEL_NUM_ARGS)
            .map(cl_uint::from)
            .map_err(|code| call_error("clGetKernelInfo(CL_KERNEL_NUM_ARGS)")(ClError(code)))?;
        let parameters = (0..count)
            .map(|index| {
                let address =
                    get_kernel_arg_info(kernel.get(), index, CL_KERNEL_ARG_ADDRESS_QUALIFIER)
                        .map(cl_uint::from)
                        .map_err(|code| {
                            call_error("clGetKernelArgInfo(CL_KERNEL_ARG_ADDRESS_QUALIFIER)")(
                                ClError(code),
                            )
                        })?;
                let type_name = get_kernel_arg_info(kernel.get(), index, CL_KERNEL_ARG_TYPE_NAME)
                    .map(String::from)
                    .map_err(|code| {
                        call_error("clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_NAME)")(ClError(code))
                    })?;
                Ok(SourceParameter {
                    global: address == CL_KERNEL_ARG_ADDRESS_GLOBAL,
                    type_name: type_name.trim_end_matches('\0').to_string(),
                })
            })
            .collect::<Result<Vec<_>, DeviceError>>()?;
        Ok(SourceKernels { names, parameters })
    }
}

/// The kernels of an OpenCL C program as the driver describes them ([`Session::describe_source`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceKernels {
    /// Every kernel's name (`CL_PROGRAM_KERNEL_NAMES`).
    pub names: Vec<String>,
    /// The entry point's parameters, in order; empty when it has none or is not there.
    pub parameters: Vec<SourceParameter>,
}

/// One kernel parameter as `clGetKernelArgInfo` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceParameter {
    /// Its address qualifier is `__global`.
    pub global: bool,
    /// The unqualified type (`CL_KERNEL_ARG_TYPE_NAME`): `float*`, `int4*`.
    pub type_name: String,
}

impl Device for Session {
    fn fp_config(&self, element: FloatType) -> Option<FpConfig> {
        self.info.fp_config(element)
    }

    fn full_profile(&self) -> bool {
        self.info.profile.contains("FULL_PROFILE")
    }

    fn address_bits(&self) -> u32 {
        self.info.address_bits
    }

    /// Hands a SPIR-V module or OpenCL C source to the driver and builds it with `options`
    /// (and, for source, the `-cl-std=` of the newest OpenCL C the device compiles).
    fn build(
        &self,
        module_name: &str,
        form: KernelForm<'_>,
        entry_point: &str,
        options: &str,
    ) -> Result<Box<dyn BuiltKernel>, DeviceError> {
        let (program, options) = match form {
            KernelForm::SpirvOpencl(spirv) => (self.program_from_il(spirv)?, options.to_string()),
            KernelForm::OpenclC(source) => (
                self.program_from_source(source)?,
                self.source_options(options),
            ),
            KernelForm::SpirvVulkan(_) => {
                return Err(DeviceError::WrongForm {
                    device: self.info.label(),
                    form: form.name(),
                    takes: "SPIR-V for OpenCL or OpenCL C source",
                })
            }
        };
        self.build_program(&program, module_name, &options)?;
        let entry_name = CString::new(entry_point).expect("kernel names hold no NUL");
        let kernel = cl3::kernel::create_kernel(program.0, &entry_name).map_err(|code| {
            OpenclError::Call {
                call: "clCreateKernel",
                code,
            }
        })?;
        let kernel = Kernel::new(kernel);
        let (required_work_group, largest_work_group) = work_groups_of(&kernel, self.info.id);
        Ok(Box::new(OpenclKernel {
            kernel,
            _program: program,
            required_work_group,
            largest_work_group,
        }))
    }

    /// Writes each input straight into its mapped device buffer, enqueues every launch, and
    /// hands each output mapped to `take`. Buffers come from the session's spares and go back
    /// to them.
    fn run_launches(
        &self,
        input_bytes: &[usize],
        fill: &mut dyn FnMut(usize, &mut [u8]),
        launches: &[Launch<'_>],
        output_bytes: &[usize],
        take: &mut dyn FnMut(usize, &[u8]),
    ) -> Result<(), DeviceError> {
        let inputs = self.spare_buffers_for(input_bytes)?;
        let outputs = self.spare_buffers_for(output_bytes)?;
        for (input, (buffer, bytes)) in inputs.iter().zip(input_bytes).enumerate() {
            self.mapped(
                &buffer.1,
                *bytes,
                CL_MAP_WRITE_INVALIDATE_REGION,
                |mapped| fill(input, mapped),
            )?;
        }
        for launch in launches {
            let kernel = &(launch.kernel as &dyn Any)
                .downcast_ref::<OpenclKernel>()
                .expect("an OpenCL session runs the kernels it built")
                .kernel;
            let arguments = inputs.iter().chain(&outputs[launch.outputs.clone()]);
            for (index, (_, buffer)) in arguments.enumerate() {
                // SAFETY: every argument of clacc's kernels is a global buffer pointer.
                unsafe { kernel.set_arg(index as u32, &buffer.get()) }
                    .map_err(call_error("clSetKernelArg"))?;
            }
            let global_size = [launch.work_items];
            let work_group = launch.work_group.map(|size| [size]);
            let local_size = work_group
                .as_ref()
                .map_or(ptr::null(), |size| size.as_ptr());
            // SAFETY: one-dimensional range over buffers sized for the launch by the caller.
            unsafe {
                self.queue.enqueue_nd_range_kernel(
                    kernel.get(),
                    1,
                    ptr::null(),
                    global_size.as_ptr(),
                    local_size,
                    &[],
                )
            }
            .map_err(call_error("clEnqueueNDRangeKernel"))?;
        }
        for (output, (buffer, bytes)) in outputs.iter().zip(output_bytes).enumerate() {
            self.mapped(&buffer.1, *bytes, CL_MAP_READ, |mapped| {
                take(output, mapped)
            })?;
        }
        self.queue.finish().map_err(call_error("clFinish"))?;
        self.keep_spare(inputs.into_iter().chain(outputs));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencl3::device::{CL_FP_INF_NAN, CL_FP_ROUND_TO_NEAREST};

    #[test]
    fn opencl_versions_parse_from_the_device_version_string() {
        assert_eq!(opencl_version("OpenCL 3.0 "), Some((3, 0)));
        assert_eq!(opencl_version("OpenCL 1.2 (Build 0)"), Some((1, 2)));
        assert_eq!(opencl_version("OpenCL 2.1 foo"), Some((2, 1)));
        assert_eq!(opencl_version("CUDA 12"), None);
    }

    fn device(version: &str, il_versions: &[&str], extensions: &[&str]) -> DeviceInfo {
        DeviceInfo {
            platform_index: 0,
            device_index: 0,
            platform_name: "p".into(),
            name: "d".into(),
            vendor: String::new(),
            driver_version: String::new(),
            profile: "FULL_PROFILE".into(),
            version: version.into(),
            il_versions: il_versions.iter().map(|v| v.to_string()).collect(),
            extensions: extensions.iter().map(|e| e.to_string()).collect(),
            single_fp: FpConfig(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST),
            double_fp: None,
            half_fp: None,
            address_bits: 64,
            opencl_c_versions: Vec::new(),
            id: ptr::null_mut(),
        }
    }

    #[test]
    fn il_entry_point_is_the_khr_call_before_opencl_2_1() {
        let spirv = ["SPIR-V_1.0"];
        let khr = ["cl_khr_il_program"];
        // Intel's FPGA emulation platform: OpenCL 1.2 with the extension.
        let fpga = device("OpenCL 1.2 ", &spirv, &khr);
        assert_eq!(fpga.il_entry_point(), Some(IlEntryPoint::Khr));
        assert_eq!(fpga.unusable_reason(), None);
        assert_eq!(
            device("OpenCL 2.0 x", &spirv, &khr).il_entry_point(),
            Some(IlEntryPoint::Khr)
        );
        assert_eq!(
            device("OpenCL 2.1", &spirv, &[]).il_entry_point(),
            Some(IlEntryPoint::Core)
        );
        assert_eq!(
            device("OpenCL 3.0 ", &spirv, &khr).il_entry_point(),
            Some(IlEntryPoint::Core)
        );
        // IL versions without a call that takes them, and no IL at all.
        let stranded = device("OpenCL 1.2", &spirv, &[]);
        assert_eq!(stranded.il_entry_point(), None);
        assert!(stranded
            .unusable_reason()
            .is_some_and(|r| r.contains("without cl_khr_il_program")));
        assert_eq!(device("OpenCL 3.0", &[], &[]).il_entry_point(), None);
    }

    #[test]
    fn a_device_without_spirv_is_usable_through_opencl_c() {
        // PoCL 3.1: OpenCL 3.0, no IL, OpenCL C 1.0 to 1.2 and 3.0.
        let pocl = DeviceInfo {
            opencl_c_versions: vec![(1, 0), (1, 1), (1, 2), (3, 0)],
            ..device("OpenCL 3.0 PoCL", &[], &[])
        };
        assert!(!pocl.takes_il() && pocl.takes_opencl_c());
        assert_eq!(pocl.no_kernel_path_reason(), None);
        assert!(pocl
            .unusable_reason()
            .is_some_and(|r| r.starts_with("no SPIR-V")));
        assert_eq!(pocl.opencl_c_std_option().as_deref(), Some("-cl-std=CL3.0"));
        let both = DeviceInfo {
            opencl_c_versions: vec![(1, 2)],
            ..device("OpenCL 2.1", &["SPIR-V_1.0"], &[])
        };
        assert!(both.takes_il() && both.takes_opencl_c());
        assert_eq!(both.opencl_c_std_option().as_deref(), Some("-cl-std=CL1.2"));
        // OpenCL C 1.0 has no -cl-std= value; a device without a compiler has no version.
        let old = DeviceInfo {
            opencl_c_versions: vec![(1, 0)],
            ..device("OpenCL 1.0", &[], &[])
        };
        assert_eq!(old.opencl_c_std_option(), None);
        let neither = device("OpenCL 3.0", &[], &[]);
        assert!(neither
            .no_kernel_path_reason()
            .is_some_and(|r| r.ends_with("and no OpenCL C compiler")));
        assert_eq!(opencl_c_version("OpenCL C 1.2 PoCL"), Some((1, 2)));
        assert_eq!(opencl_c_version("OpenCL 1.2"), None);
    }

    #[test]
    fn selection_prefers_spirv_and_takes_an_opencl_c_only_device_when_named() {
        let pocl = DeviceInfo {
            platform_index: 0,
            platform_name: "Portable Computing Language".into(),
            name: "pthread-haswell".into(),
            opencl_c_versions: vec![(1, 2), (3, 0)],
            ..device("OpenCL 3.0 PoCL", &[], &[])
        };
        let devices = [pocl, listed(1, "Intel(R) OpenCL", 0, "AMD EPYC")];
        // Without a choice, the device that takes both paths, though listed second.
        assert_eq!(selected(&devices, None, None), "[1:0]");
        assert_eq!(selected(&devices, Some("portable"), None), "[0:0]");
        let mut compilerless = devices[0].clone();
        compilerless.opencl_c_versions.clear();
        let refusal = selected(&[compilerless], None, None);
        assert!(
            refusal.contains("cannot run clacc's kernels: no SPIR-V")
                && refusal.contains("and no OpenCL C compiler"),
            "{refusal}"
        );
    }

    /// A SPIR-V device `name` at `[platform:device]` of platform `platform_name`.
    fn listed(platform: usize, platform_name: &str, index: usize, name: &str) -> DeviceInfo {
        DeviceInfo {
            platform_index: platform,
            device_index: index,
            platform_name: platform_name.into(),
            name: name.into(),
            ..device("OpenCL 3.0", &["SPIR-V_1.0"], &[])
        }
    }

    /// Where `select` lands (`[platform:device]`), or its refusal.
    fn selected(devices: &[DeviceInfo], platform: Option<&str>, device: Option<&str>) -> String {
        match select(devices, platform, device) {
            Ok(info) => format!("[{}:{}]", info.platform_index, info.device_index),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn a_name_that_several_platforms_or_devices_have_is_refused_naming_them() {
        let devices = [
            listed(0, "Intel(R) OpenCL", 0, "AMD EPYC"),
            listed(1, "rusticl", 0, "llvmpipe"),
            listed(2, "Intel(R) OpenCL Graphics", 0, "Arc A770"),
            listed(2, "Intel(R) OpenCL Graphics", 1, "Arc A770"),
        ];
        let refusal = selected(&devices, Some("cl"), None);
        assert!(
            refusal.starts_with("`cl` names several platforms: 0 Intel(R) OpenCL; 1 rusticl; 2 Intel(R) OpenCL Graphics;"),
            "{refusal}"
        );
        // A whole name (any case) wins over the longer names it is part of.
        assert_eq!(selected(&devices, Some("intel(r) opencl"), None), "[0:0]");
        assert_eq!(selected(&devices, Some("Graphics"), None), "[2:0]");
        assert_eq!(selected(&devices, Some("rust"), Some("LLVM")), "[1:0]");
        // Two devices of one name: only their indices tell them apart.
        let refusal = selected(&devices, Some("2"), Some("Arc A770"));
        assert!(refusal.contains("names several devices"), "{refusal}");
        assert!(
            refusal.contains("--platform 2 --device 0")
                && refusal.contains("--platform 2 --device 1"),
            "{refusal}"
        );
        assert_eq!(selected(&devices, Some("2"), Some("1")), "[2:1]");
        // An index names that entry of each platform left; the first is taken, as before.
        assert_eq!(selected(&devices, None, Some("0")), "[0:0]");
        assert!(
            selected(&devices, Some("nvidia"), None).starts_with("no platform matches `nvidia`")
        );
    }

    #[test]
    fn an_empty_name_is_refused() {
        let devices = [listed(0, "Intel(R) OpenCL", 0, "AMD EPYC")];
        assert_eq!(
            selected(&devices, Some(""), None),
            "--platform is empty; give an index or a name, from: 0 Intel(R) OpenCL"
        );
        assert!(selected(&devices, None, Some(" ")).starts_with("--device is empty;"));
    }

    #[test]
    fn patterns_match_by_index_or_name_substring() {
        assert!(matches("0", 0, "Intel(R) OpenCL"));
        assert!(!matches("1", 0, "Intel(R) OpenCL"));
        assert!(matches("portable", 3, "Portable Computing Language"));
        assert!(!matches("nvidia", 3, "Portable Computing Language"));
    }
}
