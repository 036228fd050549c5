use super::probe::{probe_isolated, probe_module, IsolatedOutcome};
use super::*;
use crate::device::opencl::probe::spirv_extensions;
use crate::kernel::spirv_opencl::extension::fence_module;
use crate::kernel::spirv_opencl::extension::tests::accepting_probe;
use crate::num::convert::{IntType, Rounding};
use crate::num::float8::Float8Format;
use crate::report::stats::Allowance;
use crate::spec::conversion::int_bits;
use crate::spec::extension::{Flags, Via, EXTENSIONS};
use crate::spec::fp_config::FpConfig;
use crate::spec::probe::ProbeSource;

/// A device as `DeviceInfo` describes it, for judging without OpenCL: SPIR-V 1.0 to 1.4,
/// float with denormals, half without (like the Intel CPU runtime), double.
fn synthetic_device(extensions: &[&str]) -> DeviceInfo {
    use opencl3::device::{CL_FP_DENORM, CL_FP_INF_NAN, CL_FP_ROUND_TO_NEAREST};
    let full = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
    DeviceInfo {
        platform_index: 0,
        device_index: 0,
        platform_name: "synthetic".into(),
        name: "synthetic".into(),
        vendor: String::new(),
        driver_version: String::new(),
        profile: "FULL_PROFILE".into(),
        version: "OpenCL 3.0".into(),
        il_versions: ["1.0", "1.1", "1.2", "1.3", "1.4"]
            .iter()
            .map(|v| format!("SPIR-V_{v}"))
            .collect(),
        extensions: extensions.iter().map(|e| e.to_string()).collect(),
        single_fp: FpConfig(full),
        double_fp: Some(FpConfig(full)),
        half_fp: Some(FpConfig(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST)),
        address_bits: 64,
        opencl_c_versions: vec![(1, 2), (3, 0)],
        id: std::ptr::null_mut(),
    }
}

fn settings() -> ConversionSettings {
    ConversionSettings {
        seed: 0xc1acc0,
        inputs: 4000,
        exhaustive: false,
        threads: 1,
        explicit: None,
        profile: crate::spec::table::Profile::Full,
        path: crate::spec::environment::KernelPath::Spirv,
    }
}

// ---------------------------------------------------------------------------------------------
// Probe

#[test]
fn a_device_without_the_queries_is_unknown_and_nothing_is_built() {
    let info = synthetic_device(&["cl_khr_fp16"]);
    let probe = spirv_extensions(&info);
    assert_eq!(
        probe.source,
        ProbeSource::Unavailable(crate::device::opencl::probe::NO_QUERIES.to_string())
    );
    assert!(probe
        .describe()
        .starts_with("unknown (device lacks cl_khr_spirv_queries"));
    match probe.acceptance("SPV_EXT_float8") {
        Acceptance::Unknown(why) => assert!(why.contains("does not risk a driver crash"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Without a builder, the combined probe stays unknown; every unit is skipped.
    assert_eq!(super::probe::probe(&info, probe.clone(), None), probe);
    let units = extension_units(&info, &probe);
    assert_eq!(units.len(), ExtensionCheck::all().len());
    assert!(units
        .iter()
        .all(|u| u.skip.as_deref().unwrap().contains("unknown")));
}

/// An OpenCL device that accepts float_controls2 runs each type's checks only where it has
/// the type (`CL_DEVICE_HALF_FP_CONFIG`, `CL_DEVICE_DOUBLE_FP_CONFIG`).
#[test]
fn float_controls2_on_half_and_double_skip_where_the_device_lacks_the_type() {
    let mut info = synthetic_device(&[]);
    let probe = accepting_probe();
    let skip = |info: &DeviceInfo, name: &str| {
        find_unit(info, &probe, name)
            .unwrap_or_else(|| panic!("no unit {name}"))
            .skip
    };
    for name in [
        "float_controls2_ieee",
        "float_controls2_half_ieee",
        "float_controls2_double_notnan_decoration",
    ] {
        assert_eq!(skip(&info, name), None, "{name}");
    }
    info.half_fp = None;
    info.double_fp = None;
    assert_eq!(
        skip(&info, "float_controls2_half_nsz_default").as_deref(),
        Some("device does not support half")
    );
    assert_eq!(
        skip(&info, "float_controls2_double_ieee").as_deref(),
        Some("device does not support double")
    );
    assert_eq!(skip(&info, "float_controls2_nsz_default"), None);
    // 7 checks per type, the type in the CSV's `type` column.
    let fc2: Vec<ExtensionUnit> = extension_units(&info, &probe)
        .into_iter()
        .filter(|unit| unit.check.extension() == crate::spec::extension::FLOAT_CONTROLS2)
        .collect();
    assert_eq!(fc2.len(), 21);
    for element in FC2_TYPES {
        assert_eq!(
            fc2.iter()
                .filter(|unit| unit.check.element() == element)
                .count(),
            7
        );
    }
}

#[test]
fn an_isolated_builder_decides_where_the_queries_are_missing() {
    let info = synthetic_device(&[]);
    let asked = std::cell::RefCell::new(Vec::new());
    let builder = |name: &str, spirv: &[u8]| {
        asked.borrow_mut().push(name.to_string());
        assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes());
        if name.contains("arithmetic_fence") {
            IsolatedOutcome::Built
        } else if name.contains("float8") {
            IsolatedOutcome::Crashed("exit status 10".into())
        } else {
            IsolatedOutcome::Refused("unknown extension".into())
        }
    };
    let probe = super::probe::probe(&info, spirv_extensions(&info), Some(&builder));
    assert_eq!(asked.borrow().len(), 3, "{:?}", asked.borrow());
    assert_eq!(probe.source, ProbeSource::IsolatedBuild);
    assert_eq!(
        probe.extensions,
        vec!["SPV_EXT_arithmetic_fence".to_string()]
    );
    assert_eq!(
        probe.acceptance("SPV_EXT_arithmetic_fence"),
        Acceptance::Accepted
    );
    match probe.acceptance("SPV_EXT_float8") {
        Acceptance::NotAccepted(why) => assert!(why.contains("exit status 10"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(probe
        .describe()
        .contains("refused: SPV_EXT_float8 SPV_KHR_float_controls2"));
    // A float_controls2 probe needs SPIR-V 1.2: a device listing only 1.0 is not asked.
    let mut old = info.clone();
    old.il_versions = vec!["SPIR-V_1.0".into()];
    let probe = probe_isolated(&old, &builder);
    match probe.acceptance("SPV_KHR_float_controls2") {
        Acceptance::NotAccepted(why) => assert!(why.contains("SPIR-V_1.2"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn probe_modules_declare_one_extension_and_pass_clacc_s_validation() {
    for extension in EXTENSIONS {
        let words = probe_module(extension, 64).unwrap();
        let module = crate::kernel::load_module(&words).unwrap();
        assert_eq!(
            validate::declared_extensions(&module),
            vec![extension.to_string()]
        );
    }
    assert!(probe_module("SPV_KHR_unknown", 64).is_err());
}

// ---------------------------------------------------------------------------------------------
// Modules and validation

#[test]
fn guard_refuses_extensions_the_probe_does_not_accept() {
    let info = synthetic_device(&[]);
    let unknown = spirv_extensions(&info);
    let words = fence_module(64).unwrap();
    let refusal = validate::guard(&words, &info.il_versions, &unknown)
        .unwrap_err()
        .to_string();
    assert!(refusal.contains("SPV_EXT_arithmetic_fence"), "{refusal}");
    assert!(
        refusal.contains("does not risk a driver crash"),
        "{refusal}"
    );
    // The version must be one the device lists.
    let mut old = info.clone();
    old.il_versions = vec!["SPIR-V_1.0".into()];
    let fc2 = ExtensionCheck::FloatControls2(Fc2Check {
        flags: Flags::None,
        via: Via::Default,
        element: FloatType::Float,
    })
    .module(64)
    .unwrap();
    let refusal = validate::guard(&fc2, &old.il_versions, &accepting_probe())
        .unwrap_err()
        .to_string();
    assert!(refusal.contains("SPIR-V_1.2"), "{refusal}");
}

// ---------------------------------------------------------------------------------------------
// Judging with synthetic device results

/// A device that converts as `answer` says, element by element (input bits → output bits).
fn fake_device<'a>(
    answer: impl Fn(u64) -> u64 + Sync + 'a,
    input_bytes: usize,
    output_bytes: usize,
) -> Box<DeviceRun<'a>> {
    Box::new(move |inputs: &[Vec<u8>], _: &[usize], _: usize| {
        let sources = decode_bits(&inputs[0], input_bytes);
        let results: Vec<u64> = sources.iter().map(|s| answer(*s)).collect();
        Ok(vec![encode_bits(&results, output_bytes)])
    })
}

fn run_float8(check: Float8Check, answer: impl Fn(u64) -> u64 + Sync) -> UnitStats {
    let info = synthetic_device(&[]);
    let device = fake_device(
        answer,
        check.source_scalar().bytes(),
        check.destination_scalar().bytes(),
    );
    judge_check(
        &ExtensionCheck::Float8(check),
        &info,
        &settings(),
        &|_, _| {},
        &*device,
    )
    .unwrap()
    .stats
}

#[test]
fn float8_conversions_are_judged_against_the_float8_reference() {
    for format in Float8Format::ALL {
        for saturate in [false, true] {
            // Every half to float8: the right codes pass, one wrong code fails.
            let check = Float8Check::To {
                from: Other::Float(FloatType::Half),
                to: format,
                saturate,
            };
            let right = |bits: u64| {
                let x = FloatType::Half.from_bits(bits);
                u64::from(format.encode_f64(x, Rounding::Rte, saturate))
            };
            let stats = run_float8(check, right);
            assert_eq!(
                (stats.inputs, stats.failures),
                (1 << 16, 0),
                "{}",
                check.name()
            );
            let one_wrong = |bits: u64| {
                if bits == 0x3c00 {
                    right(bits) ^ 1
                } else {
                    right(bits)
                }
            };
            let stats = run_float8(check, one_wrong);
            assert_eq!(stats.failures, 1, "{}", check.name());
            assert_eq!(stats.worst.unwrap().args, vec![1.0]);
        }
        // All 256 codes to float: exact, any NaN code for a NaN.
        let check = Float8Check::From {
            from: format,
            to: Other::Float(FloatType::Float),
            saturate: false,
        };
        let decode = |code: u64| FloatType::Float.to_bits(format.decode(code as u8));
        let stats = run_float8(check, decode);
        assert_eq!((stats.inputs, stats.failures), (256, 0));
        let other_nan = |code: u64| {
            if format.is_nan_code(code as u8) {
                0xffc0_0001
            } else {
                decode(code)
            }
        };
        assert_eq!(run_float8(check, other_nan).failures, 0);
        let flipped_zero = |code: u64| if code == 0x80 { 0 } else { decode(code) };
        assert_eq!(run_float8(check, flipped_zero).failures, 1);
    }
}

#[test]
fn float8_overflow_follows_the_extension() {
    let e4m3 = Float8Check::To {
        from: Other::Float(FloatType::Float),
        to: Float8Format::E4M3,
        saturate: false,
    };
    let float = |x: f64| FloatType::Float.to_bits(x);
    // 1000 overflows E4M3: NaN (any NaN code) without saturation, never ±448.
    assert_eq!(
        e4m3.verdict(float(1000.0), 0x7f, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        e4m3.verdict(float(1000.0), 0xff, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        e4m3.verdict(float(1000.0), 0x7e, false, false),
        Verdict8::Fail
    );
    let saturated = Float8Check::To {
        from: Other::Float(FloatType::Float),
        to: Float8Format::E4M3,
        saturate: true,
    };
    assert_eq!(
        saturated.verdict(float(1000.0), 0x7e, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        saturated.verdict(float(-1.0e30), 0xfe, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        saturated.verdict(float(f64::INFINITY), 0x7e, false, false),
        Verdict8::Pass
    );
    // A NaN stays a NaN under saturation.
    assert_eq!(
        saturated.verdict(0x7fc0_0000, 0x7f, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        saturated.verdict(0x7fc0_0000, 0x7e, false, false),
        Verdict8::Fail
    );
    // E5M2 without saturation: the signed infinity.
    let e5m2 = Float8Check::To {
        from: Other::Int(IntType::I32),
        to: Float8Format::E5M2,
        saturate: false,
    };
    assert_eq!(
        e5m2.verdict(int_bits(-70000, IntType::I32), 0xfc, false, false),
        Verdict8::Pass
    );
    assert_eq!(
        e5m2.verdict(int_bits(-70000, IntType::I32), 0xfb, false, false),
        Verdict8::Fail
    );
    // A half subnormal read as zero where half has no denormals.
    let from_half = Float8Check::To {
        from: Other::Float(FloatType::Half),
        to: Float8Format::E5M2,
        saturate: false,
    };
    let tiny = FloatType::Half.to_bits(2f64.powi(-16));
    assert_eq!(from_half.verdict(tiny, 0x01, true, false), Verdict8::Pass);
    assert_eq!(
        from_half.verdict(tiny, 0x80, true, false),
        Verdict8::Allowed(Allowance::FlushedOperands)
    );
    assert_eq!(from_half.verdict(tiny, 0x00, false, false), Verdict8::Fail);
    // From float8 to an integer: out of range without saturation is not judged.
    let to_char = Float8Check::From {
        from: Float8Format::E4M3,
        to: Other::Int(IntType::I8),
        saturate: false,
    };
    let code_448 = 0x7e;
    assert_eq!(
        to_char.verdict(code_448, 0, false, false),
        Verdict8::Undefined
    );
    let to_char_sat = Float8Check::From {
        from: Float8Format::E4M3,
        to: Other::Int(IntType::I8),
        saturate: true,
    };
    assert_eq!(
        to_char_sat.verdict(code_448, 127, false, false),
        Verdict8::Pass
    );
    // 2.5 (E4M3 0x42) truncates to 2.
    assert_eq!(to_char_sat.verdict(0x42, 2, false, false), Verdict8::Pass);
    assert_eq!(to_char_sat.verdict(0x42, 3, false, false), Verdict8::Fail);
}

/// Runs `check` on a device that answers each instruction as `answer` says (values of the
/// check's type, widened to `f64`).
fn run_fc2(check: Fc2Check, answer: impl Fn(Arithmetic, f64, f64) -> f64 + Sync) -> UnitStats {
    let info = synthetic_device(&[]);
    let element = check.element;
    let bytes = element.bytes();
    let device = move |inputs: &[Vec<u8>], _: &[usize], _: usize| {
        let xs = decode_bits(&inputs[0], bytes);
        let ys = decode_bits(&inputs[1], bytes);
        Ok(Arithmetic::ALL
            .into_iter()
            .map(|op| {
                let bits: Vec<u64> = xs
                    .iter()
                    .zip(&ys)
                    .map(|(x, y)| {
                        let (x, y) = (element.from_bits(*x), element.from_bits(*y));
                        element.to_bits(answer(op, x, y))
                    })
                    .collect();
                encode_bits(&bits, bytes)
            })
            .collect())
    };
    judge_check(
        &ExtensionCheck::FloatControls2(check),
        &info,
        &settings(),
        &|_, _| {},
        &device,
    )
    .unwrap()
    .stats
}

/// The float_controls2 types, each with its pair count (121 grid pairs and 5 overflow pairs)
/// times 5 instructions.
const FC2_TYPES: [FloatType; 3] = [FloatType::Float, FloatType::Half, FloatType::Double];
const FC2_RESULTS: u64 = 5 * 126;

fn fc2(flags: Flags, via: Via, element: FloatType) -> Fc2Check {
    Fc2Check {
        flags,
        via,
        element,
    }
}

#[test]
fn float_controls2_without_flags_needs_ieee_results() {
    for element in FC2_TYPES {
        let ieee = fc2(Flags::None, Via::Default, element);
        let stats = run_fc2(ieee, |op, x, y| op.apply(element, x, y));
        assert_eq!(
            (stats.inputs, stats.failures, stats.undefined),
            (FC2_RESULTS, 0, 0),
            "{element}"
        );
        // A device that loses the sign of zero (x + y with x = y = -0 gives +0) fails.
        let unsigned_zero = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(element, x, y);
            if r == 0.0 {
                0.0
            } else {
                r
            }
        };
        let stats = run_fc2(ieee, unsigned_zero);
        assert!(stats.failures > 0, "{element}");
        assert_eq!(stats.worst.as_ref().unwrap().outcome, Outcome::Fail);
        // A device that flushes infinities to the largest finite value fails.
        let no_inf = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(element, x, y);
            if r.is_infinite() {
                element.max_finite().copysign(r)
            } else {
                r
            }
        };
        assert!(run_fc2(ieee, no_inf).failures > 0, "{element}");
        // So does one whose arithmetic keeps a wider range (half in float, float in
        // double): its overflowing sums and products are finite, then saturated.
        let wider = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(FloatType::Double, x, y);
            if r.abs() > element.max_finite() {
                element.max_finite().copysign(r)
            } else {
                element.round(r)
            }
        };
        let stats = run_fc2(ieee, wider);
        assert!(stats.failures > 0, "{element}");
        // A NaN of any payload meets a NaN; a number does not.
        let other_nan = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(element, x, y);
            if r.is_nan() {
                element.from_bits(element.to_bits(f64::NAN) | 0x12)
            } else {
                r
            }
        };
        assert_eq!(run_fc2(ieee, other_nan).failures, 0, "{element}");
        let nan_to_zero = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(element, x, y);
            if r.is_nan() {
                0.0
            } else {
                r
            }
        };
        assert!(run_fc2(ieee, nan_to_zero).failures > 0, "{element}");
    }
}

#[test]
fn float_controls2_flags_free_exactly_their_cases() {
    for (element, via) in FC2_TYPES
        .into_iter()
        .flat_map(|element| [Via::Default, Via::Decoration].map(|via| (element, via)))
    {
        let max = element.max_finite();
        // NSZ: any zero sign passes, a wrong magnitude does not; 1 / -0 may be +inf.
        let nsz = fc2(Flags::Nsz, via, element);
        // Zero operands read as +0, zero results given as -0.
        let unsigned_zero = |op: Arithmetic, x: f64, y: f64| {
            let positive = |v: f64| if v == 0.0 { 0.0 } else { v };
            let r = op.apply(element, positive(x), positive(y));
            if r == 0.0 {
                -0.0
            } else {
                r
            }
        };
        let stats = run_fc2(nsz, unsigned_zero);
        assert_eq!(stats.failures, 0, "{element} {:?}", stats.worst);
        assert_eq!(
            nsz.verdict(Arithmetic::FDiv, 1.0, -0.0, f64::INFINITY),
            Verdict8::Pass
        );
        assert_eq!(
            nsz.verdict(Arithmetic::FDiv, 1.0, -0.0, f64::NEG_INFINITY),
            Verdict8::Pass
        );
        assert_eq!(nsz.verdict(Arithmetic::FAdd, 1.0, 1.0, 3.0), Verdict8::Fail);
        // -M + M is +0; NSZ takes -0 too.
        assert_eq!(
            nsz.verdict(Arithmetic::FAdd, -max, max, -0.0),
            Verdict8::Pass
        );
        let ieee = fc2(Flags::None, Via::Default, element);
        assert_eq!(
            ieee.verdict(Arithmetic::FDiv, 1.0, -0.0, f64::INFINITY),
            Verdict8::Fail
        );
        assert_eq!(
            ieee.verdict(Arithmetic::FAdd, -max, max, -0.0),
            Verdict8::Fail
        );

        // NotInf: any result where an operand or the result is infinite.
        let not_inf = fc2(Flags::NotInf, via, element);
        let garbage_for_inf = |op: Arithmetic, x: f64, y: f64| {
            let r = op.apply(element, x, y);
            if r.is_infinite() || x.is_infinite() || (op != Arithmetic::FNegate && y.is_infinite())
            {
                12.0
            } else {
                r
            }
        };
        let stats = run_fc2(not_inf, garbage_for_inf);
        assert_eq!(stats.failures, 0, "{element}");
        assert!(stats.undefined > 0);
        assert_eq!(stats.inputs + stats.undefined, FC2_RESULTS);
        // ... but not where nothing is infinite.
        assert_eq!(
            not_inf.verdict(Arithmetic::FMul, 4.0, 0.25, 2.0),
            Verdict8::Fail
        );
        assert_eq!(
            not_inf.verdict(Arithmetic::FDiv, 1.0, 0.0, 7.0),
            Verdict8::Undefined
        );
        // M · 4 overflows in the type: free under NotInf, infinite without it.
        assert_eq!(
            not_inf.verdict(Arithmetic::FMul, max, 4.0, max),
            Verdict8::Undefined
        );
        assert_eq!(
            ieee.verdict(Arithmetic::FMul, max, 4.0, max),
            Verdict8::Fail
        );
        assert_eq!(
            ieee.verdict(Arithmetic::FMul, max, 4.0, f64::INFINITY),
            Verdict8::Pass
        );

        // NotNaN: any result where an operand or the result is NaN (0 · inf included).
        let not_nan = fc2(Flags::NotNan, via, element);
        assert_eq!(
            not_nan.verdict(Arithmetic::FMul, 0.0, f64::INFINITY, 1.0),
            Verdict8::Undefined
        );
        assert_eq!(
            not_nan.verdict(Arithmetic::FAdd, f64::NAN, 1.0, 1.0),
            Verdict8::Undefined
        );
        assert_eq!(
            not_nan.verdict(Arithmetic::FSub, -0.0, 0.0, 0.0),
            Verdict8::Fail
        );
        assert_eq!(
            not_nan.verdict(Arithmetic::FSub, -0.0, 0.0, -0.0),
            Verdict8::Pass
        );
    }
}

/// The inputs discriminate in every type: the grid's finite results are exact and normal
/// there (so an OpFDiv that is not correctly rounded cannot fail them, and only the
/// special-value semantics decide), each flag's freedom has inputs to act on, and the
/// overflow pairs overflow in the type but not one format wider, while M ± 4 rounds to M.
#[test]
fn float_controls2_inputs_discriminate_in_every_type() {
    // Enough bits for any sum of two doubles exactly (2^1024 down to 2^-1074).
    const EXACT: u32 = 2200;
    for element in FC2_TYPES {
        let check = fc2(Flags::None, Via::Default, element);
        let pairs = check.inputs();
        assert_eq!(pairs.len() * 5, FC2_RESULTS as usize);
        let max = element.max_finite();
        let (grid, overflow) = pairs.split_at(121);
        let mut freed = [0usize; 3];
        for (x, y) in grid {
            for op in Arithmetic::ALL {
                let got = op.apply(element, *x, *y);
                let operands = op.operands(*x, *y);
                if got.is_finite() {
                    // The exact value is the type's rounded one.
                    let exact = match op {
                        Arithmetic::FAdd => Float::with_val(EXACT, *x) + *y,
                        Arithmetic::FSub => Float::with_val(EXACT, *x) - *y,
                        Arithmetic::FMul => Float::with_val(EXACT, *x) * *y,
                        Arithmetic::FDiv => Float::with_val(EXACT, *x) / *y,
                        Arithmetic::FNegate => -Float::with_val(EXACT, *x),
                    };
                    assert_eq!(exact, got, "{element} {op:?} {x} {y}");
                    assert!(got == 0.0 || !element.is_subnormal(got), "{element}");
                    // An IEEE zero of a set sign that NSZ would free.
                    if got == 0.0 {
                        freed[0] += 1;
                    }
                }
                // NotInf: an infinite result of finite operands (1 / 0).
                if got.is_infinite() && operands.iter().all(|v| v.is_finite()) {
                    freed[1] += 1;
                }
                // NotNaN: a NaN of operands that are no NaN (0 · inf, inf − inf, 0 / 0).
                if got.is_nan() && !operands.iter().any(|v| v.is_nan()) {
                    freed[2] += 1;
                }
            }
        }
        assert!(freed.iter().all(|n| *n > 0), "{element}: {freed:?}");
        // Overflow: infinite in the type, finite in the next wider format (the exact value
        // for double), and the same instruction rounds a finite sum back to M.
        let wider = match element {
            FloatType::Half => FloatType::Float,
            _ => FloatType::Double,
        };
        let mut overflows = 0;
        for (x, y) in overflow {
            for op in [Arithmetic::FAdd, Arithmetic::FSub, Arithmetic::FMul] {
                let got = op.apply(element, *x, *y);
                let exact = match op {
                    Arithmetic::FAdd => Float::with_val(EXACT, *x) + *y,
                    Arithmetic::FSub => Float::with_val(EXACT, *x) - *y,
                    _ => Float::with_val(EXACT, *x) * *y,
                };
                if got.is_infinite() {
                    overflows += 1;
                    assert!(exact.is_finite(), "{element} {op:?}");
                    if element != FloatType::Double {
                        assert!(wider.round(exact.to_f64()).is_finite(), "{element}");
                    }
                } else if *y == 4.0 || *y == -4.0 {
                    assert_eq!(got.abs(), max, "{element} {op:?} {x} {y}");
                    assert_ne!(exact, got, "{element} {op:?}");
                }
            }
            // The divisions are exact.
            let quotient = Arithmetic::FDiv.apply(element, *x, *y);
            assert_eq!(Float::with_val(EXACT, *x) / *y, quotient, "{element}");
        }
        // M·4, M·−4, M+M, M·M, −M−M, −M·M, −M+−M, −M·−M.
        assert_eq!(overflows, 8, "{element}");
    }
}

fn run_fence(answer: impl Fn([f32; 3]) -> f32 + Sync) -> (UnitStats, Vec<String>) {
    let info = synthetic_device(&[]);
    let device = move |inputs: &[Vec<u8>], _: &[usize], _: usize| {
        let columns: Vec<Vec<u64>> = inputs.iter().map(|c| decode_bits(c, 4)).collect();
        let fenced: Vec<u64> = (0..columns[0].len())
            .map(|i| {
                let triple = [0, 1, 2].map(|k| f32::from_bits(columns[k][i] as u32));
                u64::from(answer(triple).to_bits())
            })
            .collect();
        // The unfenced twin reassociates.
        let open: Vec<u64> = (0..columns[0].len())
            .map(|i| {
                let [a, b, c] = [0, 1, 2].map(|k| f32::from_bits(columns[k][i] as u32));
                u64::from((a + (b + c)).to_bits())
            })
            .collect();
        Ok(vec![encode_bits(&fenced, 4), encode_bits(&open, 4)])
    };
    let measured = judge_check(
        &ExtensionCheck::ArithmeticFence,
        &info,
        &settings(),
        &|_, _| {},
        &device,
    )
    .unwrap();
    (measured.stats, measured.notes)
}

#[test]
fn the_fence_must_keep_the_fenced_order() {
    let (stats, notes) = run_fence(fenced);
    assert_eq!((stats.inputs, stats.failures), (4000, 0));
    assert!(notes[1].contains("reassociated 4000 of 4000"), "{notes:?}");
    // Reassociating across the fence changes every input's result.
    let (stats, _) = run_fence(|[a, b, c]| a + (b + c));
    assert_eq!(stats.failures, 4000);
    let worst = stats.worst.unwrap();
    assert_eq!(worst.index, 0);
    assert_eq!(worst.args, vec![1.0e30f32 as f64, -1.0e30f32 as f64, 1.0]);
    assert_eq!(worst.device_results, vec![0.0]);
    assert_eq!(worst.references[0], 1.0);
    // Inputs are seeded and hold both cancellation patterns.
    let triples = fence_inputs(100, 3);
    assert_eq!(triples, fence_inputs(100, 3));
    for triple in &triples {
        let [a, b, c] = *triple;
        assert_ne!(fenced(*triple), a + (b + c), "{triple:?}");
    }
}

/// The Intel device: what the probe finds, and that nothing is risked (the device tier).
#[cfg(feature = "device-tests")]
mod on_device {
    use rspirv::spirv::Capability;

    use super::super::probe::build_in_this_process;
    use super::*;
    use crate::kernel::spirv_opencl::extension::tests::broken_modules;
    use crate::run::conversion::on_device::intel_session;

    #[test]
    fn the_probe_reads_the_intel_queries_and_skips_every_check() {
        let session = intel_session();
        let probe = spirv_extensions(&session.info);
        assert_eq!(probe.source, ProbeSource::SpirvQueries, "{probe:?}");
        assert!(probe
            .extended_instruction_sets
            .contains(&"OpenCL.std".to_string()));
        assert!(
            probe.accepts_capability(Capability::Kernel) == Some(true),
            "{probe:?}"
        );
        eprintln!("Intel CPU probe: {}", probe.describe());
        for extension in EXTENSIONS {
            match probe.acceptance(extension) {
                Acceptance::NotAccepted(why) => {
                    assert!(why.contains("CL_DEVICE_SPIRV_EXTENSIONS_KHR"), "{why}")
                }
                other => panic!("{extension}: {other:?}"),
            }
        }
        for unit in extension_units(&session.info, &probe) {
            let report = run_extension(
                &session,
                &session.info,
                &unit,
                &probe,
                &settings(),
                &|_, _| {},
            )
            .report;
            assert_eq!(report.status, Status::Skip, "{}", unit.name());
            assert_eq!(report.kind, Kind::Extension);
            assert!(report.note.contains("does not accept"), "{}", report.note);
        }
        // Even a unit forced past its skip is stopped by the guard, not by the driver.
        let forced = ExtensionUnit {
            check: ExtensionCheck::ArithmeticFence,
            skip: None,
        };
        let report = run_extension(
            &session,
            &session.info,
            &forced,
            &probe,
            &settings(),
            &|_, _| {},
        )
        .report;
        assert_eq!(report.status, Status::Error);
        assert!(
            report.note.contains("clacc does not hand the driver"),
            "{}",
            report.note
        );
    }

    /// The worker's side of an isolated probe builds what is safe and refuses, before the driver,
    /// what breaks the rules. (Nothing here hands the driver an unknown extension: that would end
    /// the test process.)
    #[test]
    fn building_in_this_process_validates_first() {
        let session = intel_session();
        let conversion = crate::spec::conversion::Conversion::IntToFloat {
            from: IntType::I32,
            to: FloatType::Float,
            rounding: Some(Rounding::Rtz),
        };
        let plain = crate::kernel::spirv_opencl::conversion::build_module(
            &conversion,
            session.info.address_bits,
        )
        .unwrap();
        assert_eq!(
            build_in_this_process(&session, "plain", &kernel::words_to_bytes(&plain), ""),
            IsolatedOutcome::Built
        );
        let (what, broken, _) = broken_modules().remove(0);
        match build_in_this_process(&session, what, &kernel::words_to_bytes(&broken), "") {
            IsolatedOutcome::Refused(why) => {
                assert!(why.starts_with("clacc's validation"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
}
