//! `clacc devices` on the Vulkan side: lavapipe (scripts/setup-lavapipe, `.deps/lavapipe`) is
//! listed after the OpenCL platforms under a platform named `Vulkan`, with its shader features
//! and float-controls properties; without a Vulkan loader the list says so in one line and the
//! OpenCL devices are listed as before.

mod common;
use common::{clacc, text};
use std::process::Command;

#[test]
fn devices_lists_lavapipe_under_vulkan_after_the_opencl_platforms() {
    let output = clacc(&["devices"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let listing = text(&output.stdout);
    let vulkan_at = listing
        .find("] Vulkan / llvmpipe")
        .unwrap_or_else(|| panic!("lavapipe is not listed:\n{listing}"));
    let intel_at = listing.find("Intel(R) OpenCL").expect("the Intel platform");
    assert!(intel_at < vulkan_at, "OpenCL comes first:\n{listing}");
    let block = &listing[vulkan_at..];
    // What lavapipe 25.0.7 reports (docs/devices/lavapipe.md).
    for line in [
        "version        Vulkan 1.4.305",
        "float          rte szinfnan-preserve",
        "double         rte szinfnan-preserve",
        "half           rte szinfnan-preserve",
        "independence   denorm all, rounding all",
        "usable         yes, path vulkan",
    ] {
        assert!(block.contains(line), "no `{line}`:\n{block}");
    }
    let features = block
        .lines()
        .find(|l| l.trim_start().starts_with("features"))
        .unwrap_or_else(|| panic!("no features line:\n{block}"));
    for feature in [
        "shaderFloat16",
        "shaderFloat64",
        "storageBuffer16BitAccess",
        "shaderFloatControls2",
    ] {
        assert!(features.contains(feature), "{features}");
    }
    // lavapipe offers no VK_EXT_shader_float8 (#45).
    assert!(!features.contains("shaderFloat8"), "{features}");
    assert!(
        block.contains("    float8         no (no VK_EXT_shader_float8"),
        "{block}"
    );
}

#[test]
fn devices_without_a_vulkan_loader_says_so_in_one_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_clacc"))
        .arg("devices")
        .env("CLACC_VULKAN_LOADER", "/nonexistent/libvulkan.so.1")
        .output()
        .expect("run the clacc binary");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let listing = text(&output.stdout);
    assert!(listing.contains("Intel(R) OpenCL"), "{listing}");
    assert!(!listing.contains("] Vulkan /"), "{listing}");
    let lines: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with("Vulkan:"))
        .collect();
    assert_eq!(lines.len(), 1, "{listing}");
    assert!(lines[0].contains("no Vulkan loader"), "{}", lines[0]);
    assert!(lines[0].contains("scripts/setup"), "{}", lines[0]);
}
