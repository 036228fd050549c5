//! Finding the locally installed Intel OpenCL CPU runtime without the user exporting anything.
//!
//! The runtime (PyPI `intel-opencl-rt`, installed by `scripts/setup` into `.deps/intel-opencl`)
//! only appears as a platform when BOTH `OCL_ICD_FILENAMES` names its `libintelocl.so` AND its
//! lib folder is on `LD_LIBRARY_PATH` when the process starts: its bundled loader and libsvml
//! are resolved through the dynamic linker, which reads `LD_LIBRARY_PATH` only at start-up.
//! So clacc re-executes itself once with both set, and a guard variable stops a loop.

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

/// Where to look for the runtime: the override variable, then the project-local folder of the
/// source tree this binary was built from (so `cargo install --path .` keeps working).
pub fn candidate_runtime_dirs() -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = env::var_os(RUNTIME_DIR_VARIABLE) {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".deps/intel-opencl"));
    candidates
}

/// The lib folder of the first candidate that holds `libintelocl.so`.
pub fn find_runtime_lib_dir() -> Option<PathBuf> {
    candidate_runtime_dirs()
        .into_iter()
        .map(|dir| dir.join("lib"))
        .find(|lib| lib.join(ICD_LIBRARY).is_file())
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

/// Re-executes the current binary with the runtime's variables set, if a local runtime exists
/// and the environment does not already point at it. Returns normally when no re-exec is needed
/// (or possible); on success it does not return.
pub fn reexec_with_local_runtime() {
    if env::var_os(REEXEC_GUARD).is_some() {
        return;
    }
    let Some(lib_dir) = find_runtime_lib_dir() else {
        return;
    };
    let icd_library = lib_dir.join(ICD_LIBRARY);
    let icd_filenames = env::var_os("OCL_ICD_FILENAMES");
    let library_path = env::var_os("LD_LIBRARY_PATH");
    let icd_listed = path_list_contains(icd_filenames.as_ref(), &icd_library);
    let lib_listed = path_list_contains(library_path.as_ref(), &lib_dir);
    if icd_listed && lib_listed {
        return;
    }
    let Ok(executable) = env::current_exe() else {
        return;
    };
    let mut command = Command::new(executable);
    command.args(env::args_os().skip(1));
    command.env(REEXEC_GUARD, "1");
    if !icd_listed {
        command.env(
            "OCL_ICD_FILENAMES",
            prepend_path(icd_filenames, &icd_library),
        );
    }
    if !lib_listed {
        command.env("LD_LIBRARY_PATH", prepend_path(library_path, &lib_dir));
    }
    // exec only returns on failure; then clacc goes on without the local runtime, and device
    // selection reports what it does see.
    let error = command.exec();
    eprintln!("clacc: note: could not re-execute with the local OpenCL runtime: {error}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_lists_are_prepended_without_empty_entries() {
        let joined = prepend_path(Some(OsString::from("/a::/b")), Path::new("/rt/lib"));
        assert_eq!(joined, OsString::from("/rt/lib:/a:/b"));
        assert_eq!(prepend_path(None, Path::new("/x")), OsString::from("/x"));
    }

    #[test]
    fn path_list_membership_is_by_whole_entry() {
        let list = OsString::from("/opt/lib:/rt/lib");
        assert!(path_list_contains(Some(&list), Path::new("/rt/lib")));
        assert!(!path_list_contains(Some(&list), Path::new("/rt")));
        assert!(!path_list_contains(None, Path::new("/rt/lib")));
    }
}
