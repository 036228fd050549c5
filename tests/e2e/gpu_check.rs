//! `scripts/gpu-check`, the prepared command for a lent NVIDIA machine, run here against the
//! Intel runtime (`GPU_CHECK_LIB`): it bundles what it needs, finds the library it is given,
//! lists the device and runs the reduced certification into `$OUT`, complete and as a CSV with
//! every planned unit, and says INCOMPLETE when its budget runs out.

mod common;
use common::{repository, text, Results};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Intel runtime's ICD library, which scripts/setup installs (its real path: the script
/// names the library it resolved).
fn intel_library() -> String {
    let library = repository().join(".deps/intel-opencl/lib/libintelocl.so");
    let library = library
        .canonicalize()
        .unwrap_or_else(|e| panic!("run scripts/setup: {}: {e}", library.display()));
    library.to_str().unwrap().to_string()
}

/// Runs scripts/gpu-check with `args` and `settings` (environment), this test's clacc binary.
fn gpu_check(args: &[&str], settings: &[(&str, &str)]) -> Output {
    let mut command = Command::new(repository().join("scripts/gpu-check"));
    command
        .args(args)
        .env("GPU_CHECK_CLACC", env!("CARGO_BIN_EXE_clacc"))
        .env_remove("GPU_CHECK_LIB")
        .env_remove("GPU_CHECK_VULKAN_ICD")
        .env_remove("OCL_ICD_FILENAMES");
    for (name, value) in settings {
        command.env(name, value);
    }
    command.output().expect("run scripts/gpu-check")
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A run of scripts/gpu-check against the Intel runtime, writing into `out` (not created
/// beforehand) inside a folder of its own, which lasts as long as `_dir` is held: bind it.
struct Checked {
    _dir: tempfile::TempDir,
    out: PathBuf,
    library: String,
    output: Output,
}

/// Runs scripts/gpu-check with `args` on the Intel runtime's library (GPU_CHECK_LIB) into a
/// fresh `$OUT`, `settings` added to (or overriding) those two.
fn check_on_intel(args: &[&str], settings: &[(&str, &str)]) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let library = intel_library();
    let mut all = vec![("GPU_CHECK_LIB", library.as_str()), ("OUT", path(&out))];
    all.extend(settings);
    let output = gpu_check(args, &all);
    Checked {
        _dir: dir,
        out,
        library,
        output,
    }
}

/// [`check_on_intel`], which must have run the selection to its end: exit 0 (every unit
/// passed) or 1 (some failed).
fn finished_on_intel(settings: &[(&str, &str)]) -> Checked {
    let checked = check_on_intel(&[], settings);
    assert!(
        matches!(checked.output.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        checked.output.status.code(),
        text(&checked.output.stderr)
    );
    checked
}

#[test]
fn bundle_holds_clacc_the_loader_and_the_libraries_clacc_links() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    let output = gpu_check(&["--bundle"], &[("GPU_CHECK_BUNDLE", path(&bundle))]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // libvulkan.so.1: the Vulkan loader scripts/setup installs into .deps/lavapipe.
    for file in [
        "clacc",
        "libOpenCL.so.1",
        "libmpfr.so.6",
        "libgmp.so.10",
        "libvulkan.so.1",
    ] {
        assert!(bundle.join(file).is_file(), "{file} not in the bundle");
    }
    assert_eq!(
        std::fs::read(bundle.join("clacc")).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_clacc")).unwrap(),
        "the bundle's clacc is the binary it was given"
    );
    // What to carry, on stdout.
    assert!(
        text(&output.stdout).contains("bundle"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn dry_run_names_the_library_and_the_reduced_certification_and_runs_nothing() {
    let Checked {
        _dir,
        out,
        library,
        output,
    } = check_on_intel(&["--dry-run"], &[]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        stdout.contains(&format!("OCL_ICD_FILENAMES={library}")),
        "{library} not in {stdout}"
    );
    assert!(stdout.contains("CLACC_REEXECUTED=1"), "{stdout}");
    for part in [
        "--kind ulp,edge,conversion",
        "--type float,double",
        "--width 1,4",
        "--inputs 65536",
    ] {
        assert!(stdout.contains(part), "`{part}` not in: {stdout}");
    }
    assert!(!out.exists(), "a dry run writes nothing");
}

#[test]
fn without_a_vulkan_manifest_the_vulkan_part_is_skipped_and_says_so() {
    let output = check_on_intel(&["--dry-run"], &[("GPU_CHECK_VULKAN_ICD", "")]).output;
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    // This machine has no NVIDIA driver, so no nvidia_icd.json.
    let vulkan = stdout
        .lines()
        .find(|l| l.starts_with("vulkan "))
        .unwrap_or_else(|| panic!("no vulkan line: {stdout}"));
    assert!(vulkan.contains("skipped: no nvidia_icd.json"), "{vulkan}");
}

#[test]
fn with_lavapipe_as_the_vulkan_driver_the_devices_list_shows_it_through_the_bundled_loader() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    let bundled = gpu_check(&["--bundle"], &[("GPU_CHECK_BUNDLE", path(&bundle))]);
    assert!(bundled.status.success(), "{}", text(&bundled.stderr));
    let manifest = repository().join(".deps/lavapipe/lvp_icd.json");
    let Checked { _dir, out, .. } = finished_on_intel(&[
        ("GPU_CHECK_VULKAN_ICD", path(&manifest)),
        ("GPU_CHECK_BUNDLE", path(&bundle)),
        ("GPU_CHECK_FUNCTIONS", "sin"),
        ("GPU_CHECK_INPUTS", "256"),
    ]);
    let env = std::fs::read_to_string(out.join("env.txt")).unwrap();
    let loader = bundle.join("libvulkan.so.1");
    assert!(
        env.contains(&format!("CLACC_VULKAN_LOADER={}", path(&loader))),
        "{env}"
    );
    assert!(env.contains("VK_DRIVER_FILES="), "{env}");
    let devices = std::fs::read_to_string(out.join("devices.txt")).unwrap();
    assert!(devices.contains("] Vulkan / llvmpipe"), "{devices}");
    assert!(devices.contains("Intel(R) OpenCL"), "{devices}");
    // Every extension check ran on the Vulkan device, whatever GPU_CHECK_FUNCTIONS names:
    // float_controls2 judged (7 checks on each of float, half, double), float8 and the fence
    // skipped with the reason (no VK_EXT_shader_float8 on lavapipe).
    assert!(env.contains("vulkan ext  "), "{env}");
    let summary = std::fs::read_to_string(out.join("summary-vulkan-extension.txt")).unwrap();
    assert!(
        summary.contains("gpu-check: COMPLETE: 60 of 60 units"),
        "{summary}"
    );
    let rows = Results::read(&out.join("gpu-check-vulkan-extension.csv")).maps();
    assert_eq!(rows.len(), 60);
    for row in &rows {
        assert_eq!(row["path"], "vulkan", "{row:?}");
        let ran = row["status"] != "skip";
        assert_eq!(
            ran,
            row["function"].starts_with("float_controls2_"),
            "{row:?}"
        );
    }
}

#[test]
fn a_library_that_is_not_there_is_refused_with_exit_2() {
    let output = gpu_check(
        &[],
        &[("GPU_CHECK_LIB", "/nonexistent/libnvidia-opencl.so.1")],
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("/nonexistent/libnvidia-opencl.so.1: no such file"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn run_against_the_intel_runtime_writes_a_complete_csv_and_summary() {
    let Checked {
        _dir,
        out,
        library,
        output,
    } = finished_on_intel(&[
        // No bundle there: the run uses this test's clacc, not a bundle left in target/.
        ("GPU_CHECK_BUNDLE", "/nonexistent/gpu-check-bundle"),
        ("GPU_CHECK_FUNCTIONS", "sin,exp,convert_float_to_int"),
        ("GPU_CHECK_INPUTS", "4096"),
    ]);
    for file in [
        "env.txt",
        "devices.txt",
        "gpu-check.csv",
        "summary.txt",
        "stderr.log",
    ] {
        assert!(out.join(file).is_file(), "{file} not in $OUT");
    }
    let devices = std::fs::read_to_string(out.join("devices.txt")).unwrap();
    assert!(devices.contains("Intel(R) OpenCL"), "{devices}");
    let env = std::fs::read_to_string(out.join("env.txt")).unwrap();
    assert!(env.contains(&library), "{env}");

    // Every unit of the selection, and nothing else: sin and exp, ULP and edge, float and
    // double, widths 1 and 4 (16), and the one float-to-int conversion at width 1.
    let results = Results::read(&out.join("gpu-check.csv"));
    let units: BTreeSet<(String, String, String, String)> = results
        .maps()
        .iter()
        .map(|row| {
            (
                row["function"].clone(),
                row["kind"].clone(),
                row["type"].clone(),
                row["width"].clone(),
            )
        })
        .collect();
    let mut expected = BTreeSet::new();
    for function in ["sin", "exp"] {
        for kind in ["ulp", "edge"] {
            for ty in ["float", "double"] {
                for width in ["1", "4"] {
                    expected.insert((function, kind, ty, width));
                }
            }
        }
    }
    expected.insert(("convert_float_to_int", "conversion", "float", "1"));
    let expected: BTreeSet<(String, String, String, String)> = expected
        .into_iter()
        .map(|(f, k, t, w)| (f.into(), k.into(), t.into(), w.into()))
        .collect();
    assert_eq!(units, expected);
    assert_eq!(results.rows.len(), 17);
    for row in results.maps() {
        assert_eq!(row["planned_units"], "17");
        // NVIDIA takes OpenCL C only, so the script asks for that path everywhere.
        assert_eq!(row["path"], "opencl-c");
        assert!(matches!(row["status"].as_str(), "pass" | "fail"), "{row:?}");
    }
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("17 units: "), "{summary}");
    assert!(
        summary.contains("gpu-check: COMPLETE: 17 of 17 units"),
        "{summary}"
    );
    assert!(text(&output.stdout).contains("gpu-check: COMPLETE"));
}

#[test]
fn a_budget_that_runs_out_keeps_the_finished_units_and_says_incomplete() {
    let Checked {
        _dir, out, output, ..
    } = check_on_intel(&[], &[("GPU_CHECK_BUDGET", "2")]);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        summary.contains("gpu-check: INCOMPLETE: the budget of 2 s ran out after"),
        "{summary}"
    );
}
