//! What every end-to-end test file needs: running the clacc binary, reading the CSV it wrote
//! by column name, and assembling SPIR-V modules of known behaviour as a user would.
// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

pub mod corpus;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository: kernels/, tables/ and the corpus are read from here.
pub fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the clacc binary built for these tests with `args`, waiting for it to finish.
pub fn clacc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clacc"))
        .args(args)
        .output()
        .expect("run the clacc binary")
}

/// A process's output as text (lossy: a driver may print anything).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The one-line refusal of bad input: exit 2 and an error line containing `wanted`.
pub fn assert_refused(output: &Output, wanted: &str) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(wanted), "expected `{wanted}` in: {stderr}");
}

/// A finished run that judged its units: exit 0 (every unit passed) or 1 (some failed), never
/// a refusal or a crash of the run. What the device gets wrong is not asserted.
pub fn assert_judged(output: &Output) {
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        output.status.code(),
        text(&output.stderr)
    );
}

/// The flags of a small ULP run of a user's own kernel (`kernel` is `FUNCTION=FILE`) for
/// `functions`: float at width 1, 1000 inputs.
pub fn own_kernel_unit<'a>(functions: &'a str, kernel: &'a str) -> Vec<&'a str> {
    vec![
        "--kind",
        "ulp",
        "--function",
        functions,
        "--kernel",
        kernel,
        "--type",
        "float",
        "--width",
        "1",
        "--inputs",
        "1000",
    ]
}

/// A results CSV read whole; cells are found by column name, as every reader of clacc's CSV
/// should (columns are only ever added).
pub struct Results {
    pub header: Vec<String>,
    pub rows: Vec<csv::StringRecord>,
}

impl Results {
    pub fn read(path: &Path) -> Results {
        let mut reader = csv::Reader::from_path(path)
            .unwrap_or_else(|e| panic!("open the CSV {}: {e}", path.display()));
        let header = reader
            .headers()
            .unwrap()
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader.records().map(|r| r.unwrap()).collect();
        Results { header, rows }
    }

    pub fn column(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    /// `row`'s cell in column `name`.
    pub fn cell<'a>(&self, row: &'a csv::StringRecord, name: &str) -> &'a str {
        &row[self.column(name)]
    }

    /// Every row as column name → cell.
    pub fn maps(&self) -> Vec<HashMap<String, String>> {
        self.rows
            .iter()
            .map(|row| {
                self.header
                    .iter()
                    .cloned()
                    .zip(row.iter().map(str::to_string))
                    .collect()
            })
            .collect()
    }

    /// The first row's cell in column `name` (a run of one unit).
    pub fn first(&self, name: &str) -> &str {
        self.cell(&self.rows[0], name)
    }

    /// The row of a run that must have exactly one unit.
    pub fn only_row(&self) -> &csv::StringRecord {
        assert_eq!(self.rows.len(), 1, "one unit expected: {:?}", self.rows);
        &self.rows[0]
    }
}

/// Assembles `source` (a `.spvasm` file) into `binary` as a user would: `spirv-as
/// --target-env spv1.0`.
pub fn assemble_file(source: &Path, binary: &Path) {
    assemble_file_for(source, binary, "spv1.0");
}

/// Assembles `source` into `binary` with `spirv-as --target-env target_env`.
pub fn assemble_file_for(source: &Path, binary: &Path, target_env: &str) {
    let output = Command::new("spirv-as")
        .args(["--target-env", target_env])
        .arg(source)
        .arg("-o")
        .arg(binary)
        .output()
        .expect("spirv-as is installed by scripts/setup");
    assert!(
        output.status.success(),
        "spirv-as refused {}: {}",
        source.display(),
        text(&output.stderr)
    );
}

/// Assembles `kernels/corpus/{module}.spvasm` into `out_dir/{module}.spv`.
pub fn assemble_corpus(module: &str, out_dir: &Path) -> PathBuf {
    let binary = out_dir.join(format!("{module}.spv"));
    assemble_file(
        &repository().join(format!("kernels/corpus/{module}.spvasm")),
        &binary,
    );
    binary
}

/// Assembles the module text `source` into `dir/{name}.spv`.
pub fn assemble_text(dir: &Path, name: &str, source: &str) -> PathBuf {
    let source_path = dir.join(format!("{name}.spvasm"));
    let binary = dir.join(format!("{name}.spv"));
    std::fs::write(&source_path, source).unwrap();
    assemble_file(&source_path, &binary);
    binary
}

/// clacc's sin float w1 kernel, except that it stores 2^40 elements past the output buffer:
/// a real SIGSEGV in the worker as soon as a chunk runs (it builds and validates fine).
pub const SEGFAULTING_SIN: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
%17 = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %9 "clacc_kernel" %4
OpDecorate %4 BuiltIn GlobalInvocationId
%1 = OpTypeInt 64 0
%2 = OpTypeVector %1 3
%3 = OpTypePointer Input %2
%4 = OpVariable %3 Input
%5 = OpTypeFloat 32
%6 = OpTypePointer CrossWorkgroup %5
%7 = OpTypeVoid
%8 = OpTypeFunction %7 %6 %6
%far = OpConstant %1 1099511627776
%9 = OpFunction %7 None %8
%10 = OpFunctionParameter %6
%11 = OpFunctionParameter %6
%12 = OpLabel
%13 = OpLoad %2 %4
%14 = OpCompositeExtract %1 %13 0
%15 = OpInBoundsPtrAccessChain %6 %10 %14
%16 = OpLoad %5 %15 Aligned 4
%18 = OpExtInst %5 %17 sin %16
%idx = OpIAdd %1 %14 %far
%19 = OpPtrAccessChain %6 %11 %idx
OpStore %19 %18 Aligned 4
OpReturn
OpFunctionEnd
"#;

/// `clacc merge INPUTS --csv OUT`.
pub fn merge(inputs: &[&Path], out: &Path) -> Output {
    let mut args = vec!["merge"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--csv", out.to_str().unwrap()]);
    clacc(&args)
}

/// kernels/examples/taylor_sin.spvasm (sin(x) = x - x³/6, good near 0 and bad beyond)
/// assembled into `dir/taylor_sin.spv`, as a user would.
pub fn taylor_sin(dir: &Path) -> PathBuf {
    let module = dir.join("taylor_sin.spv");
    assemble_file(
        &repository().join("kernels/examples/taylor_sin.spvasm"),
        &module,
    );
    module
}

/// The flags that pick PoCL (Debian's, the system's ICD; OpenCL C only) through the OpenCL C
/// path: clacc lists it after the Intel runtime (and rusticl), as `Portable Computing Language`.
pub const POCL: [&str; 4] = ["--platform", "Portable", "--source", "opencl-c"];

/// The flags that pick the Intel runtime (the default device) through the OpenCL C path.
pub const INTEL_OPENCL_C: [&str; 2] = ["--source", "opencl-c"];

/// The flags that pick Mesa lavapipe's Vulkan device (`.deps/lavapipe`, installed by
/// scripts/setup).
pub const LAVAPIPE: [&str; 4] = ["--platform", "vulkan", "--device", "llvmpipe"];

/// Runs clacc on lavapipe with `flags`, writing `csv`.
pub fn on_lavapipe(csv: &Path, flags: &[&str]) -> Output {
    let mut args: Vec<&str> = LAVAPIPE.to_vec();
    args.extend(flags);
    args.extend(["--csv", csv.to_str().unwrap()]);
    clacc(&args)
}
