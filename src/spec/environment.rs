//! The environments whose accuracy rules clacc applies, each with the folder of its spec data
//! (ULP tables, Table 5, edge-case rules) under `tables/`, in the one format the loaders of
//! [`crate::spec`] read (`tables/README.md`).
//!
//! Three: [`OPENCL_SPIRV`] judges SPIR-V kernels on OpenCL, [`OPENCL_C`] OpenCL C source
//! ([`KernelPath::environment`]), [`VULKAN`] SPIR-V compute shaders on Vulkan (`tables/vulkan/`,
//! one table: the appendix has no profiles, no unsafe-math table and no edge-case list).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The way a kernel reaches a device, which decides the text that judges it: SPIR-V through
/// `clCreateProgramWithIL` (the OpenCL SPIR-V environment's tables), OpenCL C source through
/// `clCreateProgramWithSource` (the OpenCL C specification's numerical compliance chapter), or
/// a Vulkan compute shader (the Vulkan environment's precision tables). Chosen with `--source`;
/// named in the `path` CSV column.
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
    /// Compute shaders (SPIR-V of the Vulkan environment) on a Vulkan device: the only path a
    /// Vulkan device takes, and one no OpenCL device takes.
    #[serde(rename = "vulkan")]
    Vulkan,
}

impl KernelPath {
    pub const ALL: [KernelPath; 3] = [KernelPath::Spirv, KernelPath::OpenclC, KernelPath::Vulkan];

    /// The name used by `--source`, in the `path` CSV column and in report headers.
    pub fn name(self) -> &'static str {
        match self {
            KernelPath::Spirv => "spirv",
            KernelPath::OpenclC => "opencl-c",
            KernelPath::Vulkan => "vulkan",
        }
    }

    /// Reads a path's name (`spirv`, `opencl-c`, `vulkan`).
    pub fn parse(text: &str) -> Option<KernelPath> {
        KernelPath::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
    }

    /// The environment whose text judges kernels that take this path: a SPIR-V module is
    /// judged by the OpenCL SPIR-V environment's tables, OpenCL C source (compiled as OpenCL C)
    /// by the OpenCL C specification's numerical compliance chapter, a Vulkan compute shader
    /// by the Vulkan environment's precision tables.
    pub fn environment(self) -> &'static Environment {
        match self {
            KernelPath::Spirv => &OPENCL_SPIRV,
            KernelPath::OpenclC => &OPENCL_C,
            KernelPath::Vulkan => &VULKAN,
        }
    }
}

impl std::fmt::Display for KernelPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which revision of an environment's text judges (`--spec`): the ULP tables, the unsafe-math
/// table and the edge cases all come from the same one. The OpenCL SPIR-V environment holds
/// both, the OpenCL C chapter only today's ([`Environment::holds`]).
#[derive(
    Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq, Eq, Hash,
)]
pub enum Revision {
    /// The OpenCL SPIR-V Environment Specification as extracted in
    /// `shared/spec/003_606d5394990817d6.txt` (2017).
    #[serde(rename = "2017")]
    Spec2017,
    /// The "OpenCL Numerical Compliance" chapter as maintained today
    /// (`shared/spec/numerical_compliance_2026.asciidoc`, last changed 2026-01-06): the
    /// revision devices are certified against, so the default.
    #[default]
    #[serde(rename = "2026")]
    Spec2026,
}

impl Revision {
    pub const ALL: [Revision; 2] = [Revision::Spec2017, Revision::Spec2026];

    /// The name used by `--spec`, in the `spec` CSV column and in report headers.
    pub fn name(self) -> &'static str {
        match self {
            Revision::Spec2017 => "2017",
            Revision::Spec2026 => "2026",
        }
    }

    /// Reads a `--spec` value (`2017`, `2026`).
    pub fn parse(text: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.name() == text.trim())
    }
}

impl std::fmt::Display for Revision {
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
    /// The folder its files are cited from in messages and CSV rows: `tables` for the SPIR-V
    /// environment (the path its files had before the environments got folders, so rows stay
    /// the same from version to version), the folder itself for the others.
    cited_from: &'static str,
    /// The revisions of the text it holds, each with the suffix of its files' names
    /// (`ulp_full{suffix}.csv`).
    revisions: &'static [(Revision, &'static str)],
    /// Each data file of the folder: its name and its text.
    files: &'static [(&'static str, &'static str)],
}

/// The OpenCL SPIR-V Environment Specification (2017 and today's text), `tables/opencl_spirv/`.
pub const OPENCL_SPIRV: Environment = Environment {
    name: "OpenCL SPIR-V",
    folder: "tables/opencl_spirv",
    cited_from: "tables",
    revisions: &[(Revision::Spec2017, ""), (Revision::Spec2026, "_2026")],
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

/// The OpenCL C Specification's chapter "OpenCL Numerical Compliance" (today's text only:
/// `shared/spec/opencl_c_numerical_compliance_2026.asciidoc`), `tables/opencl_c/`. It judges
/// kernels given as OpenCL C source.
pub const OPENCL_C: Environment = Environment {
    name: "OpenCL C",
    folder: "tables/opencl_c",
    cited_from: "tables/opencl_c",
    revisions: &[(Revision::Spec2026, "")],
    files: &[
        (
            "ulp_full.csv",
            include_str!("../../tables/opencl_c/ulp_full.csv"),
        ),
        (
            "ulp_embedded.csv",
            include_str!("../../tables/opencl_c/ulp_embedded.csv"),
        ),
        (
            "ulp_relaxed.csv",
            include_str!("../../tables/opencl_c/ulp_relaxed.csv"),
        ),
        (
            "edge_cases.csv",
            include_str!("../../tables/opencl_c/edge_cases.csv"),
        ),
    ],
};

/// The Vulkan environment for SPIR-V (today's appendix only:
/// `shared/spec/vulkan_spirvenv_2026.adoc`, "Precision of Individual Operations"),
/// `tables/vulkan/`. Its one file is the two precision tables, core and GLSL.std.450, read as a
/// full-profile table (`table::builtin_in(&VULKAN, Revision::Spec2026, Profile::Full)`; it has
/// no embedded table). RelaxedPrecision selects the half column for float results
/// (`spec::vulkan::column`), not a Table 5 file.
pub const VULKAN: Environment = Environment {
    name: "Vulkan SPIR-V",
    folder: "tables/vulkan",
    cited_from: "tables/vulkan",
    revisions: &[(Revision::Spec2026, "")],
    files: &[(
        "ulp_full.csv",
        include_str!("../../tables/vulkan/ulp_full.csv"),
    )],
};

/// Every environment, for tests and listings.
pub const ALL: [&Environment; 3] = [&OPENCL_SPIRV, &OPENCL_C, &VULKAN];

impl Environment {
    /// The revisions of the text this environment holds, oldest first (`--spec` may name only
    /// these).
    pub fn revisions(&self) -> Vec<Revision> {
        self.revisions.iter().map(|(r, _)| *r).collect()
    }

    /// Whether this environment holds the `revision` text.
    pub fn holds(&self, revision: Revision) -> bool {
        self.revisions.iter().any(|(r, _)| *r == revision)
    }

    /// The data file `stem` (`ulp_full`, `ulp_relaxed`, `edge_cases`...) of one revision: the
    /// name it is cited by (`tables/ulp_full_2026.csv`, `tables/opencl_c/ulp_full.csv`) and its
    /// text. Panics on a revision the environment does not hold: the command line refuses it
    /// first ([`Environment::holds`]).
    pub fn data_file(&self, stem: &str, revision: Revision) -> (String, &'static str) {
        let suffix = self
            .revisions
            .iter()
            .find(|(r, _)| *r == revision)
            .map(|(_, suffix)| *suffix)
            .unwrap_or_else(|| {
                panic!(
                    "{} holds only the {} text, not {revision}",
                    self.name,
                    self.revision_names()
                )
            });
        let file = format!("{stem}{suffix}.csv");
        (format!("{}/{file}", self.cited_from), self.data(&file))
    }

    /// Whether the folder has the data file `stem` in `revision` (the Vulkan folder has only
    /// `ulp_full`).
    pub fn has(&self, stem: &str, revision: Revision) -> bool {
        self.revisions
            .iter()
            .filter(|(r, _)| *r == revision)
            .any(|(_, suffix)| {
                self.files
                    .iter()
                    .any(|(name, _)| *name == format!("{stem}{suffix}.csv"))
            })
    }

    /// The revisions it holds as `2017 and 2026`, for messages.
    pub fn revision_names(&self) -> String {
        let names: Vec<&str> = self.revisions.iter().map(|(r, _)| r.name()).collect();
        names.join(" and ")
    }

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

/// One parsed value per data file, made on first use and kept for the run: the loaders'
/// cache, keyed by the name a file is cited by (unique across environments).
pub(crate) struct Parsed<T: 'static>(OnceLock<Mutex<HashMap<String, &'static T>>>);

impl<T: Send + Sync + 'static> Parsed<T> {
    pub(crate) const fn new() -> Parsed<T> {
        Parsed(OnceLock::new())
    }

    /// The value parsed from the file cited as `key`, made by `make` the first time. Each file
    /// is parsed once and lives as long as the program, as the compiled-in text does.
    pub(crate) fn get(&'static self, key: &str, make: impl FnOnce() -> T) -> &'static T {
        let mut map = self
            .0
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(value) = map.get(key) {
            return value;
        }
        let value: &'static T = Box::leak(Box::new(make()));
        map.insert(key.to_string(), value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_file_is_compiled_in() {
        for environment in ALL {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(environment.folder);
            let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
                .expect("the environment's folder exists")
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".csv"))
                .collect();
            on_disk.sort();
            let mut compiled: Vec<String> = environment
                .files
                .iter()
                .map(|(name, _)| name.to_string())
                .collect();
            compiled.sort();
            assert_eq!(on_disk, compiled, "{}", environment.name);
            for name in &compiled {
                let text = std::fs::read_to_string(environment.path(name)).unwrap();
                assert_eq!(environment.data(name), text, "{name}");
            }
            // Every revision it holds has each of the four files (Vulkan: the one table).
            let stems: &[&str] = if environment.folder == VULKAN.folder {
                &["ulp_full"]
            } else {
                &["ulp_full", "ulp_embedded", "ulp_relaxed", "edge_cases"]
            };
            for revision in environment.revisions() {
                for stem in ["ulp_full", "ulp_embedded", "ulp_relaxed", "edge_cases"] {
                    assert_eq!(environment.has(stem, revision), stems.contains(&stem));
                }
                for stem in stems {
                    environment.data_file(stem, revision);
                }
            }
        }
    }

    #[test]
    fn each_path_has_its_environment_and_revisions() {
        assert_eq!(
            KernelPath::Spirv.environment().folder,
            "tables/opencl_spirv"
        );
        assert_eq!(KernelPath::OpenclC.environment().folder, "tables/opencl_c");
        assert_eq!(
            OPENCL_SPIRV.revisions(),
            [Revision::Spec2017, Revision::Spec2026]
        );
        assert_eq!(OPENCL_C.revisions(), [Revision::Spec2026]);
        assert_eq!(VULKAN.revisions(), [Revision::Spec2026]);
        assert_eq!(
            VULKAN.data_file("ulp_full", Revision::Spec2026).0,
            "tables/vulkan/ulp_full.csv"
        );
        assert!(!OPENCL_C.holds(Revision::Spec2017));
        assert_eq!(OPENCL_C.revision_names(), "2026");
        assert_eq!(
            OPENCL_SPIRV.data_file("ulp_full", Revision::Spec2026).0,
            "tables/ulp_full_2026.csv"
        );
        assert_eq!(
            OPENCL_C.data_file("edge_cases", Revision::Spec2026).0,
            "tables/opencl_c/edge_cases.csv"
        );
    }
}
