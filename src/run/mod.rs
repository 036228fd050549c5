//! Running units: the settings every unit of a run shares, the shard a run does, and the
//! kinds of unit, each an implementation of [`pipeline::Unit`] run through the one chunked
//! device → reference → judge loop ([`pipeline`]); [`campaign`] runs many, in this process or
//! in [`isolate`]d workers.

pub mod campaign;
pub mod conversion;
pub mod edge;
pub mod extension;
pub mod geometric;
pub mod isolate;
pub(crate) mod kernel_form;
pub mod pipeline;
pub mod ulp;
pub mod unit;
pub mod vulkan;

use crate::num::fp::FloatType;
use crate::report::shard::Shard;
use crate::report::Kind;
use crate::spec::table::Judging;

/// The work-groups a ULP or edge unit's kernels run in (`--work-group`). A device may compute a
/// result differently by where its work-item lies: the Intel CPU runtime runs a group's
/// work-items in vector lanes and those left over past the last whole vector down a scalar
/// path, whose float rsqrt and relaxed fdim differ from the vector one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WorkGroup {
    /// Groups of this many work-items (or of the size the kernel requires, or the largest the
    /// device takes for it), the inputs padded to whole groups: every input runs in a group of
    /// the same size wherever it lies in its chunk, so a failure reproduces with `--input`
    /// alone. The default, 256: left to the Intel runtime, a width-3 chunk of 174763
    /// work-items ran float sin 0.35 s slower (2^24 inputs, every width: 1.72 against 1.37 s).
    Size(usize),
    /// The groups the device picks for each launch (a null local size), as the Khronos CTS
    /// launches: the Intel runtime's leftover work-items then take its scalar path.
    Device,
}

impl Default for WorkGroup {
    fn default() -> WorkGroup {
        WorkGroup::Size(256)
    }
}

impl WorkGroup {
    /// `256` or `device`, as `--work-group` takes it.
    pub fn text(self) -> String {
        match self {
            WorkGroup::Size(size) => size.to_string(),
            WorkGroup::Device => "device".to_string(),
        }
    }
}

/// Settings shared by every unit of a run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RunSettings {
    /// The profile's table, or Table 5 first (`--profile relaxed`, built with
    /// `-cl-fast-relaxed-math`).
    pub judging: Judging,
    /// The revision of the spec's text whose Tables 3, 4, 5 and edge cases judge (`--spec`).
    #[serde(default)]
    pub spec: crate::spec::table::Revision,
    /// How the units' kernels reach the device (`--source`), which also decides whose tables
    /// judge them.
    #[serde(default)]
    pub path: crate::spec::environment::KernelPath,
    /// Inputs per unit (special values included; rounded up to whole vectors).
    pub inputs: usize,
    /// Explicit cases (`--input-file`) run instead of the sweep, when given.
    pub explicit_cases: Option<crate::sweep::Cases>,
    /// The ranges the sweeps draw and enumerate in (`--range`), when given.
    #[serde(default)]
    pub range: Option<crate::sweep::InputRanges>,
    pub seed: u64,
    /// Options passed to clBuildProgram.
    pub build_options: String,
    /// Threads computing references.
    pub threads: usize,
    /// Every input where the unit allows it ([`crate::sweep::exhaustive_count`]).
    pub exhaustive: bool,
    /// The part of the work this run does.
    pub shard: Shard,
    /// User modules run in place of clacc's own kernel for a function (`--kernel NAME=FILE`).
    pub user_kernels: Vec<UserKernel>,
    /// Built with `-cl-fp32-correctly-rounded-divide-sqrt`: float divide and sqrt must be
    /// correctly rounded.
    pub correctly_rounded_divide_sqrt: bool,
    /// Built with `-cl-denorms-are-zero`: the flush-to-zero rules apply to float.
    pub denorms_are_zero: bool,
    /// Run the kernels and judge nothing: the device's own time, for benchmarks.
    pub device_only: bool,
    /// The work-groups of a ULP or edge unit's launches (`--work-group`).
    #[serde(default)]
    pub work_group: WorkGroup,
    /// What the device's driver accepts, found by the run before its units start (isolated
    /// probe builds where cl_khr_spirv_queries is missing); `None`: ask the queries.
    #[serde(default)]
    pub extension_probe: Option<crate::spec::probe::Probe>,
    /// On the vulkan path, the float-controls execution modes each type's shaders declare,
    /// chosen from the device's properties before the units start ([`vulkan::VulkanModes::allowed`]):
    /// the workers build, and the judge reads, the same ones. Empty on the OpenCL paths.
    #[serde(default)]
    pub vulkan_modes: Vec<vulkan::VulkanModes>,
}

impl RunSettings {
    /// The path a unit of `element` takes, with its shader's modes on the vulkan path.
    pub(crate) fn kernel_target(&self, element: FloatType) -> kernel_form::KernelTarget {
        kernel_form::KernelTarget {
            path: self.path,
            vulkan: self
                .vulkan_modes(element)
                .map(|modes| kernel_form::VulkanShader {
                    modes,
                    relaxed_precision: self.judging.relaxed(),
                }),
        }
    }

    /// The execution modes of the vulkan path's shaders of `element`; `None` on the OpenCL
    /// paths, and for a type the device does not support.
    pub fn vulkan_modes(&self, element: FloatType) -> Option<vulkan::VulkanModes> {
        self.vulkan_modes
            .iter()
            .find(|modes| modes.element == element)
            .copied()
    }

    /// What judges a unit of `kind`: Table 5 bounds ULP units alone, so under relaxed math the
    /// other kinds are judged, and recorded, by the profile's table.
    pub fn judging_of(&self, kind: Kind) -> Judging {
        match self.judging {
            Judging::Relaxed { otherwise } if kind != Kind::Ulp => Judging::Table(otherwise),
            judging => judging,
        }
    }

    /// Whether inputs and exact results that are not finite are undefined for `element`'s
    /// units: built with -cl-fast-relaxed-math (which implies -cl-finite-math-only: "assume
    /// that arguments and results are not NaNs or ±∞") or that option itself; on the vulkan
    /// path, a shader without SignedZeroInfNanPreserve (NotInf and NotNaN assumed).
    pub fn finite_math_only(&self, element: FloatType) -> bool {
        if self.path == crate::spec::environment::KernelPath::Vulkan {
            return self
                .vulkan_modes(element)
                .is_none_or(|modes| !modes.signed_zero_inf_nan_preserve);
        }
        self.judging.relaxed()
            || self.build_options.contains("-cl-fast-relaxed-math")
            || self.build_options.contains("-cl-finite-math-only")
    }

    /// Why the flush-to-zero rules apply to `element` in this run's units, or `None`
    /// ([`crate::judge::flush_to_zero_reason`], the one reading for ULP and edge units): the
    /// device's config, `--denorms-are-zero` or the same build option given by hand, and a
    /// relaxed build (`-cl-fast-relaxed-math` implies `-cl-unsafe-math-optimizations`); on the
    /// vulkan path, a shader without DenormPreserve.
    pub fn flush_to_zero_reason(
        &self,
        fp_config: crate::spec::fp_config::FpConfig,
        element: FloatType,
    ) -> Option<String> {
        // On the vulkan path a shader's denormals may be flushed unless it declares
        // DenormPreserve, whatever the device's config.
        if self.path == crate::spec::environment::KernelPath::Vulkan {
            let preserved = self
                .vulkan_modes(element)
                .is_some_and(|modes| modes.denorm_preserve);
            return (!preserved).then(|| {
                format!("no DenormPreserve for {element} (the device's float controls do not allow it), so denormals may be flushed")
            });
        }
        let relaxed_build = self.judging.relaxed()
            || self.build_options.contains("-cl-fast-relaxed-math")
            || self.build_options.contains("-cl-unsafe-math-optimizations");
        crate::judge::flush_to_zero_reason(
            fp_config,
            element,
            self.denorms_are_zero || self.build_options.contains("-cl-denorms-are-zero"),
            relaxed_build,
        )
    }
}

/// A user's own kernel implementing one function with clacc's kernel convention
/// (`--kernel FUNCTION=FILE`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct UserKernel {
    pub function: String,
    pub path: String,
    pub code: UserCode,
}

/// A user kernel's code, by its file's extension: a SPIR-V module (`.spv`) for the SPIR-V
/// path, OpenCL C source (`.cl`) for the OpenCL C path.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UserCode {
    Spirv(Vec<u8>),
    OpenclC(String),
}

impl UserCode {
    /// The path that takes it.
    pub fn path(&self) -> crate::spec::environment::KernelPath {
        match self {
            UserCode::Spirv(_) => crate::spec::environment::KernelPath::Spirv,
            UserCode::OpenclC(_) => crate::spec::environment::KernelPath::OpenclC,
        }
    }

    /// Whether `path` builds it: a module on the SPIR-V path, or as a compute shader on the
    /// vulkan path (which of the two a `.spv` is, the device decides); source on the OpenCL C
    /// path.
    pub fn takes(&self, path: crate::spec::environment::KernelPath) -> bool {
        use crate::spec::environment::KernelPath;
        matches!(
            (self, path),
            (UserCode::Spirv(_), KernelPath::Spirv | KernelPath::Vulkan)
                | (UserCode::OpenclC(_), KernelPath::OpenclC)
        )
    }

    /// What it is, in messages: `a SPIR-V module`, `OpenCL C source`.
    pub fn describe(&self) -> &'static str {
        match self {
            UserCode::Spirv(_) => "a SPIR-V module",
            UserCode::OpenclC(_) => "OpenCL C source",
        }
    }

    /// Its bytes (the module, or the source text), which the CSV's options fingerprint.
    pub fn bytes(&self) -> &[u8] {
        match self {
            UserCode::Spirv(bytes) => bytes,
            UserCode::OpenclC(source) => source.as_bytes(),
        }
    }
}

/// Scalars per device launch, and the unit of sharding: large enough to amortise the launch,
/// small enough to bound memory (two chunks in flight, with their inputs and outputs).
pub const CHUNK_SCALARS: usize = 1 << 16;
