//! Finding the locally installed OpenCL runtimes without the user exporting anything.
//!
//! The Intel runtime (PyPI `intel-opencl-rt`, installed by `scripts/setup` into
//! `.deps/intel-opencl`) only appears as a platform when BOTH `OCL_ICD_FILENAMES` names its
//! `libintelocl.so` AND its lib folder is on `LD_LIBRARY_PATH` when the process starts: its
//! bundled loader and libsvml are resolved through the dynamic linker, which reads
//! `LD_LIBRARY_PATH` only at start-up. That bundled (Khronos) loader is also the one that reads
//! `OCL_ICD_FILENAMES` at all (Debian's ocl-icd 2.3.1 does not), so Mesa rusticl
//! (`scripts/setup-rusticl`, `.deps/rusticl`) joins the same list, after Intel's ICD, when the
//! command line may use it ([`may_use_other_platforms`]): the loader numbers platforms in list
//! order, which keeps the Intel device the default; where the command line uses the default,
//! `OCL_ICD_VENDORS` also keeps the system's ICDs (PoCL) out, unless the user set it. rusticl
//! also needs `RUSTICL_ENABLE=llvmpipe` to show its device and `RUSTICL_FEATURES=fp64,fp16` to
//! advertise double and half; its libraries find each other and libclc by themselves (RUNPATH
//! and the repairs of setup-rusticl). So clacc re-executes itself once with all of these set,
//! and a guard variable stops a loop.

use std::env;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Overrides where the runtime lives (a folder holding `lib/libintelocl.so`).
pub const RUNTIME_DIR_VARIABLE: &str = "CLACC_OPENCL_RUNTIME";
/// Set on the re-executed child so it never re-executes again.
const REEXEC_GUARD: &str = "CLACC_REEXECUTED";
const ICD_LIBRARY: &str = "libintelocl.so";
/// Overrides where rusticl lives (a folder laid out like `.deps/rusticl`).
pub const RUSTICL_DIR_VARIABLE: &str = "CLACC_RUSTICL";
/// The Khronos loader's folder of `.icd` files, instead of `/etc/OpenCL/vendors`.
const VENDORS_VARIABLE: &str = "OCL_ICD_VENDORS";
/// A vendors "folder" the loader cannot open, so that it loads no system ICD (a path not
/// ending in `.icd` is read as a folder).
const NO_VENDORS: &str = "/dev/null";
/// rusticl's ICD inside its folder (the Debian layout `dpkg -x` leaves).
const RUSTICL_ICD: &str = "usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1.0.0";
/// The variables rusticl reads, and the values clacc gives them when they are unset.
const RUSTICL_VARIABLES: [(&str, &str); 2] = [
    ("RUSTICL_ENABLE", "llvmpipe"),
    ("RUSTICL_FEATURES", "fp64,fp16"),
];

/// Where to look for the runtime: the override variable, then the project-local folder of the
/// source tree this binary was built from (so `cargo install --path .` keeps working).
pub fn candidate_runtime_dirs() -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = env::var_os(RUNTIME_DIR_VARIABLE).filter(|dir| !dir.is_empty()) {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".deps/intel-opencl"));
    candidates
}

/// The lib folder of the first candidate that holds `libintelocl.so`.
pub fn find_runtime_lib_dir() -> Option<PathBuf> {
    candidate_runtime_dirs()
        .into_iter()
        .find(|dir| dir.join(RUNTIME_DIR_CONTENT).is_file())
        .map(|dir| dir.join("lib"))
}

/// rusticl's ICD library: under the override variable, else under the source tree's `.deps`.
pub fn find_rusticl_icd() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = env::var_os(RUSTICL_DIR_VARIABLE).filter(|dir| !dir.is_empty()) {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".deps/rusticl"));
    candidates
        .into_iter()
        .map(|dir| dir.join(RUSTICL_ICD))
        .find(|icd| icd.is_file())
}

/// Whether a command line may use a platform other than the Intel runtime's: it lists the
/// devices, or names a platform or a device (an index counts the platforms loaded; a name may
/// be rusticl's or the system's). Any other run takes the first device that accepts SPIR-V,
/// the Intel runtime's, which comes first in the list; loading rusticl and Mesa's LLVM cost
/// every such process 0.08 s and 107 MiB for a platform it never used, and the system's ICDs
/// (`/etc/OpenCL/vendors`: Debian's PoCL, its LLVM, Z3, ICU) a third of the host samples of
/// a short run's start-up. A word that only looks like these (a file named `devices`) loads
/// them for nothing, which is harmless.
fn may_use_other_platforms(args: impl Iterator<Item = OsString>) -> bool {
    args.filter_map(|arg| arg.into_string().ok()).any(|arg| {
        let option = arg.split('=').next().unwrap_or_default();
        arg == "devices" || option == "--platform" || option == "--device"
    })
}

fn path_list_contains(list: Option<&OsString>, wanted: &Path) -> bool {
    list.map(|value| env::split_paths(value).any(|entry| entry == wanted))
        .unwrap_or(false)
}

fn prepend_path(list: Option<OsString>, first: &Path) -> OsString {
    let mut entries = vec![first.to_path_buf()];
    if let Some(value) = list {
        entries.extend(env::split_paths(&value).filter(|entry| !entry.as_os_str().is_empty()));
    }
    env::join_paths(entries).expect("paths from the environment join back")
}

fn append_path(list: Option<OsString>, last: &Path) -> OsString {
    let mut entries: Vec<PathBuf> = list
        .map(|value| {
            env::split_paths(&value)
                .filter(|entry| !entry.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    entries.push(last.to_path_buf());
    env::join_paths(entries).expect("paths from the environment join back")
}

/// Why clacc did not re-execute itself with the local runtimes.
#[derive(Debug, thiserror::Error)]
pub enum ReexecError {
    /// `CLACC_OPENCL_RUNTIME` or `CLACC_RUSTICL` names a folder without the runtime: clacc
    /// refuses rather than run on whatever else the loader finds.
    #[error("{variable}={}: {problem}; point it at a folder holding {expected}, or unset it", dir.display())]
    NoRuntime {
        variable: &'static str,
        dir: PathBuf,
        /// What is wrong with the folder.
        problem: String,
        /// The file it should hold, relative to it.
        expected: &'static str,
    },
    /// The exec failed; clacc goes on without the local runtime.
    #[error("could not re-execute with the local OpenCL runtime: {0}")]
    Exec(#[from] std::io::Error),
}

/// `lib/libintelocl.so`: what `CLACC_OPENCL_RUNTIME`'s folder holds.
const RUNTIME_DIR_CONTENT: &str = "lib/libintelocl.so";

/// Checks the folder a runtime variable names, where it is set (an empty value counts as
/// unset): it must hold `expected`.
fn check_override(variable: &'static str, expected: &'static str) -> Result<(), ReexecError> {
    match env::var_os(variable) {
        Some(dir) if !dir.is_empty() => check_runtime_dir(variable, Path::new(&dir), expected),
        _ => Ok(()),
    }
}

/// `dir`, named by `variable`, holds the file `expected` (a path relative to it).
fn check_runtime_dir(
    variable: &'static str,
    dir: &Path,
    expected: &'static str,
) -> Result<(), ReexecError> {
    let problem = if !dir.exists() {
        "no such folder".to_string()
    } else if !dir.is_dir() {
        "not a folder".to_string()
    } else if !dir.join(expected).is_file() {
        format!("{} does not exist", dir.join(expected).display())
    } else {
        return Ok(());
    };
    Err(ReexecError::NoRuntime {
        variable,
        dir: dir.to_path_buf(),
        problem,
        expected,
    })
}

/// Re-executes the current binary with the local runtimes' variables set, if a local runtime
/// exists and the environment does not already point at it. Returns `Ok` when no re-exec is
/// needed (or possible); on success it does not return. An error when `CLACC_OPENCL_RUNTIME`
/// or `CLACC_RUSTICL` names a folder without its runtime (the command line refuses to go on),
/// or when exec failed (the command line notes it).
pub fn reexec_with_local_runtime() -> Result<(), ReexecError> {
    if env::var_os(REEXEC_GUARD).is_some() {
        return Ok(());
    }
    check_override(RUNTIME_DIR_VARIABLE, RUNTIME_DIR_CONTENT)?;
    check_override(RUSTICL_DIR_VARIABLE, RUSTICL_ICD)?;
    let mut icd_filenames = env::var_os("OCL_ICD_FILENAMES");
    let mut changes: Vec<(&str, OsString)> = Vec::new();
    // rusticl is only reachable through the Intel runtime's loader (see the module comment).
    if let Some(lib_dir) = find_runtime_lib_dir() {
        let icd_library = lib_dir.join(ICD_LIBRARY);
        if !path_list_contains(icd_filenames.as_ref(), &icd_library) {
            icd_filenames = Some(prepend_path(icd_filenames, &icd_library));
        }
        let library_path = env::var_os("LD_LIBRARY_PATH");
        if !path_list_contains(library_path.as_ref(), &lib_dir) {
            changes.push(("LD_LIBRARY_PATH", prepend_path(library_path, &lib_dir)));
        }
        let other_platforms = may_use_other_platforms(env::args_os().skip(1));
        // The system's ICDs only where the command line may use them, and never where the
        // user chose a vendors folder.
        if !other_platforms && env::var_os(VENDORS_VARIABLE).is_none() {
            changes.push((VENDORS_VARIABLE, OsString::from(NO_VENDORS)));
        }
        let rusticl = find_rusticl_icd().filter(|_| other_platforms);
        if let Some(rusticl_icd) = rusticl {
            if !path_list_contains(icd_filenames.as_ref(), &rusticl_icd) {
                icd_filenames = Some(append_path(icd_filenames, &rusticl_icd));
            }
            for (variable, value) in RUSTICL_VARIABLES {
                if env::var_os(variable).is_none() {
                    changes.push((variable, OsString::from(value)));
                }
            }
        }
    }
    if let Some(list) = icd_filenames {
        if env::var_os("OCL_ICD_FILENAMES").as_ref() != Some(&list) {
            changes.push(("OCL_ICD_FILENAMES", list));
        }
    }
    if changes.is_empty() {
        return Ok(());
    }
    let Ok(executable) = env::current_exe() else {
        return Ok(());
    };
    let mut command = Command::new(executable);
    command.args(env::args_os().skip(1));
    command.env(REEXEC_GUARD, "1");
    command.envs(changes);
    // exec only returns on failure; then clacc goes on without the local runtime, and device
    // selection reports what it does see.
    Err(ReexecError::Exec(command.exec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_platforms_are_loaded_for_listings_and_chosen_platforms_or_devices() {
        let may_use = |line: &str| may_use_other_platforms(line.split(' ').map(OsString::from));
        assert!(may_use("devices"));
        assert!(may_use("--kind ulp --platform rusticl"));
        assert!(may_use("--platform=1 --function sin"));
        assert!(may_use("--device llvmpipe"));
        assert!(may_use("certify --device=0"));
        assert!(!may_use("--kind ulp --function sin --type float"));
        assert!(!may_use("--device-only --function exp"));
        assert!(!may_use("merge a.csv b.csv"));
    }

    #[test]
    fn a_runtime_folder_must_hold_its_runtime() {
        let dir = tempfile::tempdir().unwrap();
        let refusal = |path: &Path| {
            check_runtime_dir(RUNTIME_DIR_VARIABLE, path, RUNTIME_DIR_CONTENT)
                .unwrap_err()
                .to_string()
        };
        let missing = dir.path().join("nowhere");
        assert_eq!(
            refusal(&missing),
            format!(
                "CLACC_OPENCL_RUNTIME={}: no such folder; point it at a folder holding lib/libintelocl.so, or unset it",
                missing.display()
            )
        );
        let empty = refusal(dir.path());
        assert!(
            empty.contains(&format!(
                "{}/lib/libintelocl.so does not exist",
                dir.path().display()
            )),
            "{empty}"
        );
        let file = dir.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert!(refusal(&file).contains(": not a folder;"));
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("lib/libintelocl.so"), b"").unwrap();
        assert!(check_runtime_dir(RUNTIME_DIR_VARIABLE, dir.path(), RUNTIME_DIR_CONTENT).is_ok());
    }

    #[test]
    fn path_lists_are_prepended_without_empty_entries() {
        let joined = prepend_path(Some(OsString::from("/a::/b")), Path::new("/rt/lib"));
        assert_eq!(joined, OsString::from("/rt/lib:/a:/b"));
        assert_eq!(prepend_path(None, Path::new("/x")), OsString::from("/x"));
    }

    #[test]
    fn path_lists_are_appended_without_empty_entries() {
        let joined = append_path(Some(OsString::from("/a::/b")), Path::new("/rt/icd.so"));
        assert_eq!(joined, OsString::from("/a:/b:/rt/icd.so"));
        assert_eq!(append_path(None, Path::new("/x")), OsString::from("/x"));
    }

    #[test]
    fn path_list_membership_is_by_whole_entry() {
        let list = OsString::from("/opt/lib:/rt/lib");
        assert!(path_list_contains(Some(&list), Path::new("/rt/lib")));
        assert!(!path_list_contains(Some(&list), Path::new("/rt")));
        assert!(!path_list_contains(None, Path::new("/rt/lib")));
    }
}
