//! Finding the Vulkan loader and the driver manifests without the user exporting anything.
//!
//! `scripts/setup-lavapipe` unpacks bookworm's loader (`libvulkan.so.1`) and Mesa lavapipe into
//! `.deps/lavapipe`, with an ICD manifest `lvp_icd.json`. clacc loads that loader with
//! `dlopen` (ash's `Entry::load_from`), so nothing needs `LD_LIBRARY_PATH`, and adds the
//! manifest to the loader's driver search through `VK_ADD_DRIVER_FILES`: the drivers the system
//! installs (NVIDIA's `nvidia_icd.json` on a GPU machine) stay visible beside lavapipe. Where
//! the user names the drivers (`VK_DRIVER_FILES`, or the older `VK_ICD_FILENAMES`) clacc adds
//! nothing; where no private loader is installed it loads the system's `libvulkan.so.1`.
//!
//! The loader reads these variables when an instance is made, so they are set once, before the
//! first instance, under a `OnceLock`: the first Vulkan call of the process sets them while no
//! other Vulkan call can run.

use super::VulkanError;
use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Overrides where lavapipe lives (a folder laid out like `.deps/lavapipe`).
pub const LAVAPIPE_DIR_VARIABLE: &str = "CLACC_LAVAPIPE";
/// Overrides which Vulkan loader library clacc loads (`scripts/gpu-check` points it at the
/// bundle's copy).
pub const LOADER_VARIABLE: &str = "CLACC_VULKAN_LOADER";
/// The loader inside the lavapipe folder (the Debian layout `dpkg -x` leaves).
const PRIVATE_LOADER: &str = "usr/lib/x86_64-linux-gnu/libvulkan.so.1";
/// lavapipe's ICD manifest inside its folder, written by `scripts/setup-lavapipe`.
const PRIVATE_MANIFEST: &str = "lvp_icd.json";
/// The system loader's soname.
const SYSTEM_LOADER: &str = "libvulkan.so.1";
/// The variables by which a user names the drivers, replacing the loader's search.
const DRIVER_VARIABLES: [&str; 2] = ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"];
/// The variable that adds drivers to the loader's search.
const ADD_DRIVER_VARIABLE: &str = "VK_ADD_DRIVER_FILES";

/// The lavapipe folder: the override variable, else the source tree's `.deps/lavapipe` (so
/// `cargo install --path .` keeps working), if it holds the manifest.
pub fn find_lavapipe_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = env::var_os(LAVAPIPE_DIR_VARIABLE).filter(|dir| !dir.is_empty()) {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".deps/lavapipe"));
    candidates
        .into_iter()
        .find(|dir| dir.join(PRIVATE_MANIFEST).is_file())
}

/// Which loader library to load: the override, else the private one, else the system's.
fn loader_path(lavapipe: Option<&Path>) -> OsString {
    if let Some(path) = env::var_os(LOADER_VARIABLE).filter(|path| !path.is_empty()) {
        return path;
    }
    lavapipe
        .map(|dir| dir.join(PRIVATE_LOADER))
        .filter(|path| path.is_file())
        .map_or_else(|| OsString::from(SYSTEM_LOADER), PathBuf::into_os_string)
}

/// The loaded Vulkan loader and where it came from (for `clacc devices` and errors).
#[derive(Clone)]
pub struct Loader {
    pub entry: ash::Entry,
    /// The library loaded.
    pub library: String,
    /// The manifest clacc added to the driver search, if any.
    pub added_manifest: Option<PathBuf>,
}

/// The process's loader, loaded and its driver variables set on the first call.
pub fn loader() -> Result<&'static Loader, VulkanError> {
    static LOADER: OnceLock<Result<Loader, String>> = OnceLock::new();
    LOADER
        .get_or_init(|| {
            let lavapipe = find_lavapipe_dir();
            let user_names_drivers = DRIVER_VARIABLES
                .iter()
                .any(|name| env::var_os(name).is_some_and(|value| !value.is_empty()));
            let added_manifest = match &lavapipe {
                Some(dir) if !user_names_drivers => {
                    let manifest = dir.join(PRIVATE_MANIFEST);
                    let list = env::var_os(ADD_DRIVER_VARIABLE).filter(|v| !v.is_empty());
                    let mut entries: Vec<PathBuf> = list
                        .map(|v| env::split_paths(&v).collect())
                        .unwrap_or_default();
                    if !entries.contains(&manifest) {
                        entries.push(manifest.clone());
                    }
                    let joined = env::join_paths(entries).map_err(|e| e.to_string())?;
                    // Before the loader is loaded and before any instance: see the module's
                    // comment on why this is the only moment the variable is written.
                    env::set_var(ADD_DRIVER_VARIABLE, joined);
                    Some(manifest)
                }
                _ => None,
            };
            let library = loader_path(lavapipe.as_deref());
            // SAFETY: the Vulkan loader's initialisation has no preconditions; the library
            // stays loaded for the process (the `Entry` lives in this static).
            let entry = unsafe { ash::Entry::load_from(&library) }
                .map_err(|error| format!("cannot load {}: {error}", library.to_string_lossy()))?;
            Ok(Loader {
                entry,
                library: library.to_string_lossy().into_owned(),
                added_manifest,
            })
        })
        .as_ref()
        .map_err(|reason| VulkanError::NoLoader(reason.clone()))
}
