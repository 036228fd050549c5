//! The environments whose accuracy rules clacc applies, each with the folder of its spec data
//! (ULP tables, Table 5, edge-case rules) under `tables/`, in the one format the loaders of
//! [`crate::spec`] read (`tables/README.md`).
//!
//! Today there is one, [`OPENCL_SPIRV`]. OpenCL C (#44) and Vulkan (#45) add theirs beside it
//! (`tables/opencl_c/`, `tables/vulkan/`), each a value of its own.

/// The way a kernel reaches an OpenCL device, which decides the text that judges it: SPIR-V
/// through `clCreateProgramWithIL` (the OpenCL SPIR-V environment's tables) or OpenCL C source
/// through `clCreateProgramWithSource` (the OpenCL C specification's numerical compliance
/// chapter). Chosen with `--source`; named in the `path` CSV column.
#[derive(
    Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq, Eq, Hash,
)]
pub enum KernelPath {
    /// SPIR-V modules, the path conformance covers first and clacc's default where the device
    /// takes IL.
    #[default]
    #[serde(rename = "spirv")]
    Spirv,
    /// OpenCL C source built by the driver's own compiler.
    #[serde(rename = "opencl-c")]
    OpenclC,
}

impl KernelPath {
    pub const ALL: [KernelPath; 2] = [KernelPath::Spirv, KernelPath::OpenclC];

    /// The name used by `--source`, in the `path` CSV column and in report headers.
    pub fn name(self) -> &'static str {
        match self {
            KernelPath::Spirv => "spirv",
            KernelPath::OpenclC => "opencl-c",
        }
    }

    /// Reads a path's name (`spirv`, `opencl-c`).
    pub fn parse(text: &str) -> Option<KernelPath> {
        KernelPath::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
    }
}

impl std::fmt::Display for KernelPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One environment and its checked-in data files, compiled into clacc.
#[derive(Debug)]
pub struct Environment {
    /// How the environment is named in messages, e.g. `OpenCL SPIR-V`.
    pub name: &'static str,
    /// Its data folder, relative to the repository, e.g. `tables/opencl_spirv`.
    pub folder: &'static str,
    /// Each data file of the folder: its name and its text.
    files: &'static [(&'static str, &'static str)],
}

/// The OpenCL SPIR-V Environment Specification (2017 and today's text), `tables/opencl_spirv/`.
pub const OPENCL_SPIRV: Environment = Environment {
    name: "OpenCL SPIR-V",
    folder: "tables/opencl_spirv",
    files: &[
        (
            "ulp_full.csv",
            include_str!("../../tables/opencl_spirv/ulp_full.csv"),
        ),
        (
            "ulp_embedded.csv",
            include_str!("../../tables/opencl_spirv/ulp_embedded.csv"),
        ),
        (
            "ulp_full_2026.csv",
            include_str!("../../tables/opencl_spirv/ulp_full_2026.csv"),
        ),
        (
            "ulp_embedded_2026.csv",
            include_str!("../../tables/opencl_spirv/ulp_embedded_2026.csv"),
        ),
        (
            "ulp_relaxed.csv",
            include_str!("../../tables/opencl_spirv/ulp_relaxed.csv"),
        ),
        (
            "ulp_relaxed_2026.csv",
            include_str!("../../tables/opencl_spirv/ulp_relaxed_2026.csv"),
        ),
        (
            "edge_cases.csv",
            include_str!("../../tables/opencl_spirv/edge_cases.csv"),
        ),
        (
            "edge_cases_2026.csv",
            include_str!("../../tables/opencl_spirv/edge_cases_2026.csv"),
        ),
    ],
};

impl Environment {
    /// The text of the data file `file` of this environment's folder. Panics on a file the
    /// folder does not hold: the loaders name only files it has (test
    /// `every_data_file_is_compiled_in`).
    pub fn data(&self, file: &str) -> &'static str {
        self.files
            .iter()
            .find(|(name, _)| *name == file)
            .map(|(_, text)| *text)
            .unwrap_or_else(|| panic!("{} ({}) has no data file {file}", self.name, self.folder))
    }

    /// Where the data file `file` lies in the repository, e.g.
    /// `tables/opencl_spirv/ulp_full.csv`, for tests that read it beside the spec text.
    pub fn path(&self, file: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(self.folder)
            .join(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_file_is_compiled_in() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(OPENCL_SPIRV.folder);
        let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
            .expect("the environment's folder exists")
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".csv"))
            .collect();
        on_disk.sort();
        let mut compiled: Vec<String> = OPENCL_SPIRV
            .files
            .iter()
            .map(|(name, _)| name.to_string())
            .collect();
        compiled.sort();
        assert_eq!(on_disk, compiled);
        for name in &compiled {
            let text = std::fs::read_to_string(OPENCL_SPIRV.path(name)).unwrap();
            assert_eq!(OPENCL_SPIRV.data(name), text, "{name}");
        }
    }
}
