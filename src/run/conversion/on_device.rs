//! The conversion units on the Intel OpenCL CPU device, and the session every device-tier unit
//! test opens ([`intel_session`]).

use std::path::Path;
use std::sync::Once;

use super::*;
use crate::device::opencl::{self as device, Session};
use crate::kernel::spirv_opencl::conversion::build_module;
use crate::kernel::spirv_opencl::conversion::tests::target_env;
use crate::kernel::spirv_opencl::tests::spirv_val;

static RUNTIME: Once = Once::new();

/// A session on the Intel OpenCL CPU device. The variables are set before the first OpenCL
/// call, as `tests/device/device.rs` does: `LD_LIBRARY_PATH` must already hold the runtime's lib
/// folder when the test process starts (scripts/test sets it).
pub(crate) fn intel_session() -> Session {
    RUNTIME.call_once(|| {
        let lib = crate::device::opencl::runtime::find_runtime_lib_dir()
            .expect("the Intel OpenCL runtime is missing: run scripts/setup");
        let library_path = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
        assert!(
            library_path.split(':').any(|p| Path::new(p) == lib),
            "run the device tests through scripts/test (LD_LIBRARY_PATH must hold {} when the \
             process starts)",
            lib.display()
        );
        // Setting a variable races with threads reading the environment (other tests spawn
        // spirv-val), so it is only set where scripts/test has not set it already.
        let icd = lib.join("libintelocl.so");
        let listed = std::env::var_os("OCL_ICD_FILENAMES")
            .is_some_and(|value| std::env::split_paths(&value).any(|p| p == icd));
        if !listed {
            std::env::set_var("OCL_ICD_FILENAMES", icd);
        }
    });
    // PoCL's clGetDeviceInfo is not safe while another thread enumerates (it crashed in
    // strlen under parallel tests), so sessions are opened one at a time.
    let _one_at_a_time = ENUMERATION
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let devices = device::enumerate().expect("enumerate OpenCL devices");
    let info = device::select(&devices, Some("Intel"), None).expect("the Intel CPU device");
    Session::open(info.clone()).expect("open a session on the Intel device")
}

/// A session on PoCL, the system's ICD (`/etc/OpenCL/vendors/pocl.icd`), which the loader of
/// the Intel runtime lists after the Intel platform: PoCL 3.1 takes OpenCL C only.
pub(crate) fn pocl_session() -> Session {
    // The loader must be the one the Intel session sets up, whichever test opens first.
    drop(intel_session());
    let _one_at_a_time = ENUMERATION
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let devices = device::enumerate().expect("enumerate OpenCL devices");
    let info = device::select(&devices, Some("Portable Computing Language"), None)
        .expect("the PoCL device (Debian's pocl-opencl-icd)");
    Session::open(info.clone()).expect("open a session on PoCL")
}

static ENUMERATION: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn settings(inputs: usize) -> ConversionSettings {
    ConversionSettings {
        seed: 0xc1acc0,
        inputs,
        exhaustive: false,
        threads: 2,
        explicit: None,
        profile: crate::spec::table::Profile::Full,
        path: crate::spec::environment::KernelPath::Spirv,
    }
}

fn unit_named(session: &Session, name: &str) -> ConversionUnit {
    find_unit(&session.info, name).unwrap_or_else(|| panic!("no unit {name}"))
}

/// Every module a device test hands the driver passes spirv-val first.
fn validated(session: &Session, unit: &ConversionUnit) {
    let words = build_module(&unit.conversion, session.info.address_bits).unwrap();
    spirv_val(&unit.name(), &words, target_env(&unit.conversion)).unwrap();
}

#[test]
fn conversions_pass_on_the_intel_cpu() {
    let session = intel_session();
    for name in [
        "convert_half_to_float",
        "convert_float_to_half_rtz",
        "convert_double_to_float_rtn",
        "convert_int_to_float_rtp",
        "convert_ushort_to_half",
        "convert_long_to_double_rtz",
        "convert_float_to_uchar_sat",
        "convert_float_to_int",
        "convert_half_to_short_sat",
    ] {
        let unit = unit_named(&session, name);
        assert!(unit.skip.is_none(), "{name}: {:?}", unit.skip);
        validated(&session, &unit);
        let report = run_conversion(&session, &unit, &settings(20_000), &|_, _| {}).report;
        assert_eq!(report.status, Status::Pass, "{name}: {report:?}");
        assert_eq!(report.kind, Kind::Conversion);
        let planned = unit.planned_inputs(&settings(20_000));
        assert_eq!(
            report.stats.inputs + report.stats.undefined,
            planned,
            "{name}: {report:?}"
        );
        assert!(report.stats.worst.is_some(), "{name}");
    }
}

#[test]
fn exhaustive_units_cover_every_source_value() {
    let session = intel_session();
    let unit = unit_named(&session, "convert_half_to_double_rtp");
    validated(&session, &unit);
    let report = run_conversion(&session, &unit, &settings(10), &|_, _| {}).report;
    assert_eq!(report.status, Status::Pass, "{report:?}");
    assert_eq!(report.stats.inputs, 1 << 16);
    assert!(
        report.note.starts_with("exhaustive: every half"),
        "{}",
        report.note
    );
    // Unsaturated half to char: most halves are out of range and not judged.
    let unit = unit_named(&session, "convert_half_to_char");
    let report = run_conversion(&session, &unit, &settings(10), &|_, _| {}).report;
    assert_eq!(report.status, Status::Pass, "{report:?}");
    assert!(report.stats.undefined > 20_000, "{report:?}");
    assert_eq!(report.stats.inputs + report.stats.undefined, 1 << 16);
}

#[test]
fn a_wrong_device_result_fails_the_unit() {
    let session = intel_session();
    let unit = unit_named(&session, "convert_float_to_half_rtz");
    // Input 1000's result is replaced by its neighbour.
    let stats = run_tampered(&session, &unit, &settings(5000), &|index, result| {
        if index == 1000 {
            *result ^= 1;
        }
    })
    .unwrap();
    assert_eq!(stats.failures, 1, "{stats:?}");
    let worst = stats.worst.unwrap();
    assert_eq!(worst.index, 1000);
    assert_eq!(worst.outcome, Outcome::Fail);
    let unit = unit_named(&session, "convert_double_to_int_sat");
    let stats = run_tampered(&session, &unit, &settings(5000), &|index, result| {
        if index == 7 {
            *result = result.wrapping_add(1) & 0xffff_ffff;
        }
    })
    .unwrap();
    assert_eq!(stats.failures, 1, "{stats:?}");
}

#[test]
fn units_respect_device_support() {
    let session = intel_session();
    let mut info = session.info.clone();
    info.half_fp = None;
    info.double_fp = None;
    let units = conversion_units(&info);
    let skipped = |name: &str| {
        units
            .iter()
            .find(|u| u.name() == name)
            .unwrap()
            .skip
            .clone()
    };
    assert!(skipped("convert_float_to_half")
        .unwrap()
        .contains("cl_khr_fp16"));
    assert!(skipped("convert_double_to_int_sat")
        .unwrap()
        .contains("cl_khr_fp64"));
    assert!(skipped("convert_int_to_float").is_none());
    let unit = units
        .iter()
        .find(|u| u.name() == "convert_half_to_double")
        .unwrap();
    let report = run_conversion(&session, unit, &settings(10), &|_, _| {}).report;
    assert_eq!(report.status, Status::Skip);
    assert!(report.note.contains("cl_khr_fp16"), "{}", report.note);
}

/// The exhaustive float sweep's cost: `cargo test --release --features device-tests --lib
/// conversion::on_device::timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_exhaustive_float_to_half() {
    let session = intel_session();
    let unit = unit_named(&session, "convert_float_to_half_rtz");
    let mut settings = settings(10);
    settings.exhaustive = true;
    let start = std::time::Instant::now();
    let report = run_conversion(&session, &unit, &settings, &|position, length| {
        if position % (1 << 28) == 0 {
            eprintln!("{position}/{length} after {:?}", start.elapsed());
        }
    })
    .report;
    eprintln!("{:?} in {:?}", report.status, start.elapsed());
    eprintln!("{report:?}");
}

/// Every conversion unit on the Intel device at the default 65,536 inputs, with the time:
/// `cargo test --release --features device-tests --lib conversion::on_device::every_unit --
/// --ignored --nocapture`.
///
/// About 6 s for the 198 units (two cores). The Intel CPU runtime that scripts/setup
/// installs (driver 2026.22.10.0.01_160000 when written) converts NaN to `uint` under
/// `SaturatedConversion` as 0xffffffff where SPIR-V requires 0 ("NaN will be converted to
/// 0."), from half and float (not from double, and not to the other integer types): those
/// two units fail, on NaN inputs only, and nothing else does.
#[test]
#[ignore]
fn every_unit_on_the_intel_device() {
    let session = intel_session();
    let start = std::time::Instant::now();
    let mut unexpected = Vec::new();
    for unit in conversion_units(&session.info) {
        let report = run_conversion(&session, &unit, &settings(65_536), &|_, _| {}).report;
        let worst = report.stats.worst.as_ref();
        eprintln!(
            "{} {} {} inputs, {} failures, allowed {:?}",
            report.function,
            report.status.name(),
            report.stats.inputs,
            report.stats.failures,
            report.stats.allowed
        );
        let known_nan_bug = ["convert_half_to_uint_sat", "convert_float_to_uint_sat"]
            .contains(&report.function.as_str())
            && worst.is_some_and(|c| c.args[0].is_nan() && c.device_results[0] == 4294967295.0);
        if report.status != Status::Pass && !known_nan_bug {
            unexpected.push(format!(
                "{} {:?} ({} of {}): {}\n  worst {:?}",
                report.function,
                report.status,
                report.stats.failures,
                report.stats.inputs,
                report.note,
                worst
            ));
        }
    }
    eprintln!("all units in {:?}", start.elapsed());
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}
