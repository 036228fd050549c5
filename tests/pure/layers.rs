//! The architecture, kept: every path into the crate (`crate::…`, `super::…`, `clacc::…`) in
//! every source file must point at its own layer or a layer below it, and no two files may
//! import each other, directly or through others. Pure: reads the sources, runs nothing.
//!
//! face → run → {device, kernel, sweep, reference, judge} → report → spec → num
//!
//! Within the layers, each environment clacc judges has its own modules ([`ENVIRONMENTS`]), and
//! none imports another's: an environment is added beside the others, not threaded through
//! them.

mod common;
use common::{module_path, source_files};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each layer and the layers it may import (its own is always allowed).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "face",
        &[
            "run",
            "device",
            "kernel",
            "sweep",
            "reference",
            "judge",
            "report",
            "spec",
            "num",
        ],
    ),
    (
        "run",
        &[
            "device",
            "kernel",
            "sweep",
            "reference",
            "judge",
            "report",
            "spec",
            "num",
        ],
    ),
    // Runs the modules it is handed; each environment's device in a folder of its own.
    ("device", &["spec", "num"]),
    ("kernel", &["spec", "num"]),
    ("sweep", &["spec", "num"]),
    // Exact values know nothing of devices or modules.
    ("reference", &["spec", "num"]),
    // Verdicts never look at a device.
    ("judge", &["reference", "sweep", "report", "spec", "num"]),
    ("report", &["spec", "num"]),
    ("spec", &["num"]),
    ("num", &[]),
];

/// Every environment's module, as `layer::module`: the OpenCL device, the OpenCL SPIR-V emitter
/// and the OpenCL C emitter today. A new environment's modules join the list (Vulkan:
/// `device::vulkan`, `kernel::spirv_vulkan`); each must exist, and every folder of
/// [`ENVIRONMENT_LAYERS`] must be one of them.
const ENVIRONMENTS: &[&str] = &[
    "device::opencl",
    "device::vulkan",
    "kernel::spirv_opencl",
    "kernel::opencl_c",
    "kernel::spirv_vulkan",
];

/// The layers whose folders are environments (their `mod.rs` is what every environment shares).
const ENVIRONMENT_LAYERS: &[&str] = &["device", "kernel"];

/// `src/run/conversion/mod.rs` → `["run", "conversion"]`; `src/main.rs` is the face's.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let parts = module_path(src, file);
    if parts == ["main"] {
        vec!["face".to_string()]
    } else {
        parts
    }
}

/// The module paths a line names: `crate::a::b`, `clacc::a::b`, `super::a` (resolved against
/// `module`). Comments are not imports.
fn named_paths(line: &str, module: &[String], is_mod_rs: bool) -> Vec<Vec<String>> {
    let code = line.split("//").next().unwrap_or("");
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    for prefix in ["crate::", "clacc::", "super::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(prefix) {
            let start = from + found;
            from = start + prefix.len();
            if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                continue;
            }
            if prefix == "super::" && start >= 2 && &code[start - 2..start] == "::" {
                continue; // the tail of `super::super::…`, counted with its head
            }
            let tail: String = code[start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut segments: Vec<&str> = tail.split("::").filter(|s| !s.is_empty()).collect();
            let mut base: Vec<String> = Vec::new();
            match segments.first().copied() {
                Some("crate") | Some("clacc") => {
                    segments.remove(0);
                }
                Some("super") => {
                    // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` (module `a::b`) also `a`.
                    base = module.to_vec();
                    let _ = is_mod_rs;
                    while segments.first() == Some(&"super") {
                        segments.remove(0);
                        base.pop();
                    }
                }
                _ => continue,
            }
            base.extend(segments.iter().map(|s| s.to_string()));
            paths.push(base);
        }
    }
    paths
}

struct Graph {
    /// module path → file
    modules: BTreeMap<Vec<String>, PathBuf>,
    /// file → the module files it names
    edges: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        let is_mod_rs = file.ends_with("mod.rs");
        let text = std::fs::read_to_string(file).unwrap();
        let targets = edges.entry(file.clone()).or_default();
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") {
                continue;
            }
            for mut path in named_paths(line, &module, is_mod_rs) {
                // The longest prefix that is a module file.
                while !path.is_empty() && !modules.contains_key(&path) {
                    path.pop();
                }
                if let Some(target) = modules.get(&path) {
                    if target != file && !path.is_empty() {
                        targets.insert(target.clone());
                    }
                }
            }
        }
    }
    Graph { modules, edges }
}

fn layer_of(src: &Path, file: &Path) -> String {
    module_of(src, file)
        .first()
        .cloned()
        .unwrap_or_else(|| "lib".to_string())
}

#[test]
fn every_folder_is_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph();
    let known: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    let strays: Vec<String> = graph
        .modules
        .values()
        .map(|file| layer_of(&src, file))
        .filter(|layer| layer != "lib" && !known.contains(layer.as_str()))
        .collect();
    assert!(strays.is_empty(), "files outside the layers: {strays:?}");
}

#[test]
fn layers_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph();
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut upward = Vec::new();
    for (file, targets) in &graph.edges {
        let from = layer_of(&src, file);
        if from == "lib" {
            continue;
        }
        for target in targets {
            let to = layer_of(&src, target);
            if to != from && !allowed[from.as_str()].contains(&to.as_str()) {
                upward.push(format!(
                    "{} imports {} ({from} may not import {to})",
                    file.strip_prefix(&src).unwrap().display(),
                    target.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}

#[test]
fn no_two_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph();
    // A child naming its parent (`super::`) is the parent's own code split off: not a cycle.
    let is_ancestor = |ancestor: &Path, file: &Path| {
        let a = module_of(&src, ancestor);
        let f = module_of(&src, file);
        f.len() > a.len() && f.starts_with(&a)
    };
    // Depth-first search for a cycle, reported as the files on it.
    let mut cycles = Vec::new();
    let mut state: BTreeMap<&PathBuf, u8> = BTreeMap::new(); // 1 on the stack, 2 done
    fn visit<'a>(
        file: &'a PathBuf,
        graph: &'a Graph,
        state: &mut BTreeMap<&'a PathBuf, u8>,
        stack: &mut Vec<&'a PathBuf>,
        cycles: &mut Vec<Vec<&'a PathBuf>>,
        is_ancestor: &dyn Fn(&Path, &Path) -> bool,
    ) {
        state.insert(file, 1);
        stack.push(file);
        for target in graph.edges.get(file).into_iter().flatten() {
            if is_ancestor(target, file) || is_ancestor(file, target) {
                continue;
            }
            match state.get(target) {
                Some(1) => {
                    let at = stack.iter().position(|f| *f == target).unwrap();
                    cycles.push(stack[at..].to_vec());
                }
                Some(_) => {}
                None => visit(target, graph, state, stack, cycles, is_ancestor),
            }
        }
        stack.pop();
        state.insert(file, 2);
    }
    for file in graph.edges.keys() {
        if !state.contains_key(file) {
            visit(
                file,
                &graph,
                &mut state,
                &mut Vec::new(),
                &mut cycles,
                &is_ancestor,
            );
        }
    }
    let described: Vec<String> = cycles
        .iter()
        .map(|cycle| {
            cycle
                .iter()
                .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
                .collect::<Vec<_>>()
                .join(" → ")
        })
        .collect();
    assert!(
        described.is_empty(),
        "import cycles:\n{}",
        described.join("\n")
    );
}

/// The environment of `module` (an entry of [`ENVIRONMENTS`] it lies in), if any.
fn environment_of(module: &[String]) -> Option<&'static str> {
    ENVIRONMENTS.iter().copied().find(|environment| {
        let path: Vec<&str> = environment.split("::").collect();
        module.len() >= path.len() && module.iter().zip(&path).all(|(a, b)| a == b)
    })
}

#[test]
fn every_environment_is_a_module_and_every_environment_folder_is_listed() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph();
    for environment in ENVIRONMENTS {
        let path: Vec<String> = environment.split("::").map(str::to_string).collect();
        assert!(
            graph.modules.contains_key(&path),
            "{environment} is listed as an environment but is no module"
        );
    }
    // A file in a folder of a layer: `src/<layer>/<folder>/….rs`.
    let in_a_folder = |file: &&PathBuf| file.strip_prefix(&src).unwrap().components().count() >= 3;
    let unlisted: BTreeSet<String> = graph
        .modules
        .values()
        .filter(in_a_folder)
        .map(|file| module_of(&src, file))
        .filter(|module| ENVIRONMENT_LAYERS.contains(&module[0].as_str()))
        .filter(|module| environment_of(module).is_none())
        .map(|module| format!("{}::{}", module[0], module[1]))
        .collect();
    assert!(
        unlisted.is_empty(),
        "folders of {ENVIRONMENT_LAYERS:?} that ENVIRONMENTS does not list: {unlisted:?}"
    );
}

#[test]
fn no_environment_imports_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph();
    let mut crossings = Vec::new();
    for (file, targets) in &graph.edges {
        let Some(from) = environment_of(&module_of(&src, file)) else {
            continue;
        };
        for target in targets {
            if let Some(to) = environment_of(&module_of(&src, target)) {
                if to != from {
                    crossings.push(format!(
                        "{} imports {} ({from} may not import {to})",
                        file.strip_prefix(&src).unwrap().display(),
                        target.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(crossings.is_empty(), "{}", crossings.join("\n"));
}
