//! The extension checks: their kernels, their inputs and how their results are judged.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rspirv::dr::Operand;
use rspirv::spirv::{Capability, Decoration, ExecutionMode, FPFastMathMode, Word};
use rug::Float;

use crate::num::convert::{self, ConvertResult, IntType, Rounding};
use crate::num::float8::Float8Format;
use crate::num::fp::FloatType;
use crate::report::stats::Allowance;
use crate::run::conversion::{self, int_bits, int_value, Body, Header, Scalar};

pub const FLOAT8: &str = "SPV_EXT_float8";
pub const FLOAT_CONTROLS2: &str = "SPV_KHR_float_controls2";
pub const ARITHMETIC_FENCE: &str = "SPV_EXT_arithmetic_fence";

// ---------------------------------------------------------------------------------------------
// SPV_EXT_float8

/// The most inputs a sampled float8 check runs: they go to the device in one launch (as the
/// arithmetic_fence check's 2^20), so `--inputs` near 2^40 would exhaust memory.
pub const SAMPLE_CAP: usize = 1 << 20;

/// The non-float8 side of a float8 conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Other {
    Float(FloatType),
    Int(IntType),
}

impl Other {
    pub fn name(self) -> &'static str {
        match self {
            Other::Float(element) => element.name(),
            Other::Int(int) => int.name(),
        }
    }

    fn scalar(self) -> Scalar {
        match self {
            Other::Float(element) => Scalar::Float(element.bits()),
            Other::Int(int) => Scalar::Int(int.bits()),
        }
    }
}

/// One float8 conversion: to a float8 encoding (`OpFConvert`, `OpConvertSToF`,
/// `OpConvertUToF`, optionally `SaturatedToLargestFloat8NormalConversionEXT`) or from one
/// (`OpFConvert`, `OpConvertFToS`, `OpConvertFToU`, optionally `SaturatedConversion`), in the
/// default rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float8Check {
    To {
        from: Other,
        to: Float8Format,
        saturate: bool,
    },
    From {
        from: Float8Format,
        to: Other,
        saturate: bool,
    },
}

impl Float8Check {
    /// Every float8 check: from half, float and the integers `char`, `uchar`, `short`, `int`
    /// to each encoding, with and without saturation; from each encoding to half, float,
    /// double, and to `char` and `int` with and without `SaturatedConversion`.
    pub fn all() -> Vec<Float8Check> {
        let sources = [
            Other::Float(FloatType::Half),
            Other::Float(FloatType::Float),
            Other::Int(IntType::I8),
            Other::Int(IntType::U8),
            Other::Int(IntType::I16),
            Other::Int(IntType::I32),
        ];
        let destinations = [
            (Other::Float(FloatType::Half), false),
            (Other::Float(FloatType::Float), false),
            (Other::Float(FloatType::Double), false),
            (Other::Int(IntType::I8), false),
            (Other::Int(IntType::I8), true),
            (Other::Int(IntType::I32), false),
            (Other::Int(IntType::I32), true),
        ];
        let mut all = Vec::new();
        for format in Float8Format::ALL {
            for from in sources {
                for saturate in [false, true] {
                    all.push(Float8Check::To {
                        from,
                        to: format,
                        saturate,
                    });
                }
            }
            for (to, saturate) in destinations {
                all.push(Float8Check::From {
                    from: format,
                    to,
                    saturate,
                });
            }
        }
        all
    }

    /// `float8_half_to_e4m3`, `float8_int_to_e5m2_sat`, `float8_e4m3_to_float`,
    /// `float8_e5m2_to_char_sat`.
    pub fn name(&self) -> String {
        let format = |f: Float8Format| f.name().to_lowercase();
        let sat = |s: bool| if s { "_sat" } else { "" };
        match self {
            Float8Check::To { from, to, saturate } => {
                format!(
                    "float8_{}_to_{}{}",
                    from.name(),
                    format(*to),
                    sat(*saturate)
                )
            }
            Float8Check::From { from, to, saturate } => {
                format!(
                    "float8_{}_to_{}{}",
                    format(*from),
                    to.name(),
                    sat(*saturate)
                )
            }
        }
    }

    /// The CSV's `type`: the float type on the other side, `float` where that is an integer
    /// (float8 is no [`FloatType`]; see the module doc of `extension`).
    pub fn element(&self) -> FloatType {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            }
            | Float8Check::From {
                to: Other::Float(element),
                ..
            } => *element,
            _ => FloatType::Float,
        }
    }

    pub fn float_types(&self) -> Vec<FloatType> {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            }
            | Float8Check::From {
                to: Other::Float(element),
                ..
            } => vec![*element],
            _ => Vec::new(),
        }
    }

    fn format(&self) -> Float8Format {
        match self {
            Float8Check::To { to, .. } => *to,
            Float8Check::From { from, .. } => *from,
        }
    }

    fn source(&self) -> Scalar {
        match self {
            Float8Check::To { from, .. } => from.scalar(),
            Float8Check::From { from, .. } => Scalar::Float8(*from),
        }
    }

    fn destination(&self) -> Scalar {
        match self {
            Float8Check::To { to, .. } => Scalar::Float8(*to),
            Float8Check::From { to, .. } => to.scalar(),
        }
    }

    /// Every input where it fits: the 256 codes, every half, every 8- and 16-bit integer.
    fn exhaustive_count(&self) -> Option<u64> {
        match self.source() {
            Scalar::Float8(_) => Some(256),
            Scalar::Int(8) => Some(1 << 8),
            Scalar::Float(16) | Scalar::Int(16) => Some(1 << 16),
            _ => None,
        }
    }

    /// The module: SPIR-V 1.0, `SPV_EXT_float8`, `Float8EXT`.
    pub fn module(&self, address_bits: u32) -> Result<Vec<u32>, String> {
        let header = Header {
            version: (1, 0),
            extensions: vec![FLOAT8],
            capabilities: vec![Capability::Float8EXT],
            address_bits,
        };
        let check = *self;
        conversion::emit_kernel(&header, &[self.source()], &[self.destination()], |body| {
            let value = body.inputs[0];
            Ok(vec![emit_float8(body, &check, value)?])
        })
    }

    /// The source bit pattern of `value` (a CSV's `worst_input`, as a reproduce line gives
    /// it): a float in its own format, an integer truncated to its width, a float8 value as
    /// its code (a NaN as the first NaN code).
    pub fn source_bits(&self, value: f64) -> u64 {
        match *self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            } => element.to_bits(value),
            Float8Check::To {
                from: Other::Int(int),
                ..
            } => int_bits(value as i128, int),
            Float8Check::From { from, .. } => (0..=255u8)
                .find(|code| {
                    let decoded = from.decode(*code);
                    decoded.to_bits() == value.to_bits() || (decoded.is_nan() && value.is_nan())
                })
                .map_or_else(
                    || u64::from(from.encode_f64(value, Rounding::TO_FLOAT_DEFAULT, false)),
                    u64::from,
                ),
        }
    }

    /// The input bits of a sampled check (float and `int` sources), specials first.
    fn sampled(&self, count: usize, seed: u64) -> Vec<u64> {
        let format = self.format();
        let mut values: Vec<u64> = Vec::new();
        match self.source() {
            Scalar::Float(32) => {
                let element = FloatType::Float;
                let mut finite: Vec<f64> = (0..=255u8)
                    .map(|code| format.decode(code))
                    .filter(|x| x.is_finite())
                    .collect();
                finite.sort_by(|a, b| a.partial_cmp(b).unwrap());
                finite.dedup();
                // Every float8 value, every midpoint (a tie) and a hair either side of it.
                let mut specials = finite.clone();
                specials.push(-0.0);
                for pair in finite.windows(2) {
                    let middle = (pair[0] + pair[1]) / 2.0;
                    let hair = (pair[1] - pair[0]) / 1024.0;
                    specials.extend([middle, middle - hair, middle + hair]);
                }
                // The overflow region: past the largest finite value, its tie with the next
                // (virtual) value, and beyond.
                let max = format.max_finite();
                let gap = max - finite[finite.len() - 2];
                specials.extend([max + gap / 2.0, max + gap / 4.0, max + gap, 2.0 * max]);
                specials.extend([format.min_subnormal() / 2.0, format.min_subnormal() / 4.0]);
                specials.extend([1.0e30, f64::INFINITY, f64::NEG_INFINITY]);
                for x in specials {
                    values.push(element.to_bits(element.round(x)));
                }
                values.push(0x7fc0_0000);
                values.push(0xffc0_0000);
                dedup(&mut values);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while values.len() < count {
                    let random: u32 = rng.random();
                    let value = if values.len().is_multiple_of(2) {
                        random
                    } else {
                        // A float in the float8 range (2^-18 to 2^17), random sign.
                        let exponent = rng.random_range(-18i32..=17);
                        let fraction = random & 0x7f_ffff;
                        let sign = random & 0x8000_0000;
                        sign | (((exponent + 127) as u32) << 23) | fraction
                    };
                    values.push(u64::from(value));
                }
            }
            Scalar::Int(bits) => {
                let int = match self {
                    Float8Check::To {
                        from: Other::Int(int),
                        ..
                    } => *int,
                    _ => unreachable!("integer sources are To checks"),
                };
                let mut specials: Vec<i128> = vec![0, 1, -1, int.min(), int.max()];
                for k in 0..bits {
                    let power = 1i128 << k;
                    specials.extend([power - 1, power, power + 1, -power, -power - 1]);
                }
                for value in [448, 464, 465, 480, 57344, 61440, 61441, 65536] {
                    specials.extend([value, -value]);
                }
                specials.retain(|n| int.contains(*n));
                values.extend(specials.into_iter().map(|n| int_bits(n, int)));
                dedup(&mut values);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while values.len() < count {
                    let length = rng.random_range(1..=bits);
                    let raw: u64 = rng.random();
                    values.push(raw & (u64::MAX >> (64 - length)));
                }
            }
            _ => unreachable!("exhaustive sources are not sampled"),
        }
        values
    }

    /// The inputs (source bits) of the check; a sample holds at most [`SAMPLE_CAP`].
    pub fn inputs(&self, count: usize, seed: u64) -> Vec<u64> {
        match self.exhaustive_count() {
            Some(all) => (0..all).collect(),
            None => self.sampled(count.min(SAMPLE_CAP), seed),
        }
    }

    pub fn is_exhaustive(&self) -> bool {
        self.exhaustive_count().is_some()
    }

    /// The exact value of a source element (a float, an integer or a float8 code).
    fn source_value(&self, bits: u64) -> Float {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            } => Float::with_val(64, element.from_bits(bits)),
            Float8Check::To {
                from: Other::Int(int),
                ..
            } => Float::with_val(128, int_value(bits, *int)),
            Float8Check::From { from, .. } => Float::with_val(64, from.decode(bits as u8)),
        }
    }

    /// Judges one element. `flush_operand`: the device has no denormals for a half or float
    /// source; `flush_result`: none for a half or float destination.
    pub fn verdict(
        &self,
        source_bits: u64,
        device_bits: u64,
        flush_operand: bool,
        flush_result: bool,
    ) -> Verdict8 {
        match *self {
            Float8Check::To { from, to, saturate } => {
                let value = self.source_value(source_bits);
                let code = device_bits as u8;
                if to.accepts(&value, Rounding::TO_FLOAT_DEFAULT, saturate, code) {
                    return Verdict8::Pass;
                }
                // A subnormal half or float operand read as ±0 converts to ±0.
                if let Other::Float(element) = from {
                    let x = element.from_bits(source_bits);
                    if flush_operand && element.is_subnormal(x) && code & 0x7f == 0 {
                        return Verdict8::Allowed(Allowance::FlushedOperands);
                    }
                }
                Verdict8::Fail
            }
            Float8Check::From { from, to, saturate } => {
                let x = from.decode(source_bits as u8);
                match to {
                    Other::Float(element) => {
                        let got = element.from_bits(device_bits);
                        if x.is_nan() && got.is_nan() || element.to_bits(x) == device_bits {
                            return Verdict8::Pass;
                        }
                        if flush_result && element.is_subnormal(x) && got == 0.0 {
                            return Verdict8::Allowed(Allowance::FlushedResult);
                        }
                        Verdict8::Fail
                    }
                    Other::Int(int) => {
                        match convert::float_to_int(x, int, Rounding::TO_INT_DEFAULT, saturate) {
                            ConvertResult::Int(want) if int_value(device_bits, int) == want => {
                                Verdict8::Pass
                            }
                            ConvertResult::Undefined(_) => Verdict8::Undefined,
                            _ => Verdict8::Fail,
                        }
                    }
                }
            }
        }
    }

    /// (argument, device result, required result) of an element, for a report's worst case:
    /// float8 codes are shown as their values.
    pub fn case_values(&self, source_bits: u64, device_bits: u64) -> (f64, f64, Float) {
        match *self {
            Float8Check::To { to, saturate, .. } => {
                let value = self.source_value(source_bits);
                let want = to.decode(to.encode(&value, Rounding::TO_FLOAT_DEFAULT, saturate));
                (
                    value.to_f64(),
                    to.decode(device_bits as u8),
                    Float::with_val(53, want),
                )
            }
            Float8Check::From { from, to, saturate } => {
                let x = from.decode(source_bits as u8);
                match to {
                    Other::Float(element) => {
                        (x, element.from_bits(device_bits), Float::with_val(53, x))
                    }
                    Other::Int(int) => {
                        let want =
                            match convert::float_to_int(x, int, Rounding::TO_INT_DEFAULT, saturate)
                            {
                                ConvertResult::Int(n) => Float::with_val(128, n),
                                _ => Float::with_val(53, f64::NAN),
                            };
                        (x, int_value(device_bits, int) as f64, want)
                    }
                }
            }
        }
    }

    pub fn integer_output(&self) -> bool {
        matches!(
            self,
            Float8Check::From {
                to: Other::Int(_),
                ..
            }
        )
    }

    pub(crate) fn source_scalar(&self) -> Scalar {
        self.source()
    }

    pub(crate) fn destination_scalar(&self) -> Scalar {
        self.destination()
    }
}

/// Drops repeated values, keeping the first of each.
fn dedup(values: &mut Vec<u64>) {
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(*v));
}

/// The verdict on one float8 element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict8 {
    Pass,
    Allowed(Allowance),
    Fail,
    Undefined,
}

/// The conversion instruction of a float8 check, decorated.
fn emit_float8(
    body: &mut Body,
    check: &Float8Check,
    value: Word,
) -> Result<Word, rspirv::dr::Error> {
    let result_type = body.value_type(check.destination());
    let builder = &mut *body.builder;
    let result = match check {
        Float8Check::To {
            from: Other::Float(_),
            ..
        }
        | Float8Check::From {
            to: Other::Float(_),
            ..
        } => builder.f_convert(result_type, None, value)?,
        Float8Check::To {
            from: Other::Int(int),
            ..
        } if int.is_signed() => builder.convert_s_to_f(result_type, None, value)?,
        Float8Check::To { .. } => builder.convert_u_to_f(result_type, None, value)?,
        Float8Check::From {
            to: Other::Int(int),
            ..
        } if int.is_signed() => builder.convert_f_to_s(result_type, None, value)?,
        Float8Check::From { .. } => builder.convert_f_to_u(result_type, None, value)?,
    };
    match check {
        Float8Check::To { saturate: true, .. } => builder.decorate(
            result,
            Decoration::SaturatedToLargestFloat8NormalConversionEXT,
            [],
        ),
        Float8Check::From { saturate: true, .. } => {
            builder.decorate(result, Decoration::SaturatedConversion, [])
        }
        _ => {}
    }
    Ok(result)
}

// ---------------------------------------------------------------------------------------------
// SPV_KHR_float_controls2

/// The fast-math flags a float_controls2 check sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flags {
    /// No flag: IEEE semantics for signed zeros, infinities and NaNs.
    None,
    /// `NSZ`: the sign of a zero argument or result is not significant.
    Nsz,
    /// `NotInf`: arguments and result are assumed not to be ±inf.
    NotInf,
    /// `NotNaN`: arguments and result are assumed not to be NaN.
    NotNan,
}

impl Flags {
    pub const ALL: [Flags; 4] = [Flags::None, Flags::Nsz, Flags::NotInf, Flags::NotNan];

    pub fn name(self) -> &'static str {
        match self {
            Flags::None => "none",
            Flags::Nsz => "nsz",
            Flags::NotInf => "notinf",
            Flags::NotNan => "notnan",
        }
    }

    pub fn mode(self) -> FPFastMathMode {
        match self {
            Flags::None => FPFastMathMode::NONE,
            Flags::Nsz => FPFastMathMode::NSZ,
            Flags::NotInf => FPFastMathMode::NOT_INF,
            Flags::NotNan => FPFastMathMode::NOT_NAN,
        }
    }
}

/// How the flags reach the instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// `OpExecutionModeId %entry FPFastMathDefault %float %flags`.
    Default,
    /// `FPFastMathMode` decorations on each instruction, under `FPFastMathDefault %float 0`.
    Decoration,
}

/// The instructions a float_controls2 kernel applies, each to its own output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arithmetic {
    FAdd,
    FSub,
    FMul,
    FDiv,
    FNegate,
}

impl Arithmetic {
    pub const ALL: [Arithmetic; 5] = [
        Arithmetic::FAdd,
        Arithmetic::FSub,
        Arithmetic::FMul,
        Arithmetic::FDiv,
        Arithmetic::FNegate,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Arithmetic::FAdd => "OpFAdd",
            Arithmetic::FSub => "OpFSub",
            Arithmetic::FMul => "OpFMul",
            Arithmetic::FDiv => "OpFDiv",
            Arithmetic::FNegate => "OpFNegate",
        }
    }

    /// The IEEE result in binary32, round to nearest even (the host's own arithmetic).
    pub fn apply(self, x: f32, y: f32) -> f32 {
        match self {
            Arithmetic::FAdd => x + y,
            Arithmetic::FSub => x - y,
            Arithmetic::FMul => x * y,
            Arithmetic::FDiv => x / y,
            Arithmetic::FNegate => -x,
        }
    }

    /// The operands the instruction reads.
    fn operands(self, x: f32, y: f32) -> Vec<f32> {
        match self {
            Arithmetic::FNegate => vec![x],
            _ => vec![x, y],
        }
    }
}

/// One float_controls2 check: the flags and how they are set, on `float`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fc2Check {
    pub flags: Flags,
    pub via: Via,
}

impl Fc2Check {
    /// `None` by execution mode, and each of NSZ, NotInf, NotNaN both ways.
    pub fn all() -> Vec<Fc2Check> {
        let mut all = vec![Fc2Check {
            flags: Flags::None,
            via: Via::Default,
        }];
        for flags in [Flags::Nsz, Flags::NotInf, Flags::NotNan] {
            for via in [Via::Default, Via::Decoration] {
                all.push(Fc2Check { flags, via });
            }
        }
        all
    }

    /// `float_controls2_ieee`, `float_controls2_nsz_default`, `float_controls2_notinf_decoration`.
    pub fn name(&self) -> String {
        match (self.flags, self.via) {
            (Flags::None, _) => "float_controls2_ieee".to_string(),
            (flags, Via::Default) => format!("float_controls2_{}_default", flags.name()),
            (flags, Via::Decoration) => format!("float_controls2_{}_decoration", flags.name()),
        }
    }

    /// The module: SPIR-V 1.2, `SPV_KHR_float_controls2`, `FloatControls2`; inputs x, y;
    /// outputs x + y, x − y, x · y, x / y, −x.
    pub fn module(&self, address_bits: u32) -> Result<Vec<u32>, String> {
        let (default, decoration) = match self.via {
            Via::Default => (self.flags.mode().bits(), None),
            Via::Decoration => (0, Some(self.flags.mode())),
        };
        fc2_module(address_bits, default, decoration, |_| {})
    }

    /// Judges one instruction's result: `Undefined` where a flag applies (NotInf with an
    /// infinite operand or result, NotNaN with a NaN one: "anything" is allowed), otherwise
    /// the IEEE result, where NSZ also accepts the results of zero operands of the other sign
    /// and a zero of either sign for a zero.
    pub fn verdict(&self, op: Arithmetic, x: f32, y: f32, device: f32) -> Verdict8 {
        let operands = op.operands(x, y);
        let ieee = op.apply(x, y);
        let applies = match self.flags {
            Flags::NotInf => ieee.is_infinite() || operands.iter().any(|v| v.is_infinite()),
            Flags::NotNan => ieee.is_nan() || operands.iter().any(|v| v.is_nan()),
            Flags::None | Flags::Nsz => false,
        };
        if applies {
            return Verdict8::Undefined;
        }
        let same =
            |want: f32| (want.is_nan() && device.is_nan()) || want.to_bits() == device.to_bits();
        if same(ieee) || op == Arithmetic::FDiv && division_overflow(ieee, device) {
            return Verdict8::Pass;
        }
        if self.flags != Flags::Nsz {
            return Verdict8::Fail;
        }
        // NSZ: every choice of sign for the zero operands, and either sign of a zero result.
        let flips = |v: f32| if v == 0.0 { vec![v, -v] } else { vec![v] };
        for xs in flips(x) {
            for ys in flips(y) {
                let want = op.apply(xs, ys);
                if same(want) || want == 0.0 && device == 0.0 {
                    return Verdict8::Pass;
                }
            }
        }
        Verdict8::Fail
    }

    /// Inputs: every pair of ±0, ±0.25, ±1, ±4, ±inf and NaN (121 pairs). Every finite result
    /// is exact and normal, so only the special-value semantics decide.
    pub fn inputs() -> Vec<(f32, f32)> {
        let values = [
            0.0f32,
            -0.0,
            0.25,
            -0.25,
            1.0,
            -1.0,
            4.0,
            -4.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        values
            .iter()
            .flat_map(|x| values.iter().map(move |y| (*x, *y)))
            .collect()
    }
}

/// OpFDiv need not be correctly rounded; where the exact quotient overflows, the largest
/// finite value of the right sign is as good as the infinity (no test input overflows, but
/// a caller's may).
fn division_overflow(ieee: f32, device: f32) -> bool {
    ieee.is_infinite() && device.abs() == f32::MAX && ieee.signum() == device.signum()
}

/// A float_controls2 module with `FPFastMathDefault %float default`, each instruction
/// decorated with `decoration` when given, and `extra` called last (tests break rules there).
pub(crate) fn fc2_module(
    address_bits: u32,
    default: u32,
    decoration: Option<FPFastMathMode>,
    extra: impl FnOnce(&mut Body),
) -> Result<Vec<u32>, String> {
    let header = Header {
        version: (1, 2),
        extensions: vec![FLOAT_CONTROLS2],
        capabilities: vec![Capability::FloatControls2],
        address_bits,
    };
    let float = Scalar::Float(32);
    conversion::emit_kernel(&header, &[float, float], &[float; 5], |body| {
        let float_type = body.value_type(float);
        let uint = body.builder.type_int(32, 0);
        let flags = body.builder.constant_bit32(uint, default);
        body.builder.execution_mode_id(
            body.entry_point,
            ExecutionMode::FPFastMathDefault,
            [float_type, flags],
        );
        let (x, y) = (body.inputs[0], body.inputs[1]);
        let b = &mut *body.builder;
        let results = vec![
            b.f_add(float_type, None, x, y)?,
            b.f_sub(float_type, None, x, y)?,
            b.f_mul(float_type, None, x, y)?,
            b.f_div(float_type, None, x, y)?,
            b.f_negate(float_type, None, x)?,
        ];
        if let Some(mode) = decoration {
            for result in &results {
                b.decorate(
                    *result,
                    Decoration::FPFastMathMode,
                    [Operand::FPFastMathMode(mode)],
                );
            }
        }
        extra(body);
        Ok(results)
    })
}

// ---------------------------------------------------------------------------------------------
// SPV_EXT_arithmetic_fence

/// The flags of "fast" arithmetic in a module without float_controls2: NotNaN, NotInf, NSZ,
/// AllowRecip and Fast.
pub fn full_fast_math() -> FPFastMathMode {
    FPFastMathMode::NOT_NAN
        | FPFastMathMode::NOT_INF
        | FPFastMathMode::NSZ
        | FPFastMathMode::ALLOW_RECIP
        | FPFastMathMode::FAST
}

/// The fence module: SPIR-V 1.0, `SPV_EXT_arithmetic_fence`, `ArithmeticFenceEXT`; inputs
/// a, b, c (float); outputs `fence(a + b) + c` and, for information, `(a + b) + c` unfenced,
/// every addition decorated with [`full_fast_math`].
pub fn fence_module(address_bits: u32) -> Result<Vec<u32>, String> {
    let header = Header {
        version: (1, 0),
        extensions: vec![ARITHMETIC_FENCE],
        capabilities: vec![Capability::ArithmeticFenceEXT],
        address_bits,
    };
    let float = Scalar::Float(32);
    conversion::emit_kernel(&header, &[float; 3], &[float; 2], |body| {
        let float_type = body.value_type(float);
        let (a, b, c) = (body.inputs[0], body.inputs[1], body.inputs[2]);
        let builder = &mut *body.builder;
        let sum = builder.f_add(float_type, None, a, b)?;
        let fenced = builder.arithmetic_fence_ext(float_type, None, sum)?;
        let result = builder.f_add(float_type, None, fenced, c)?;
        let open_sum = builder.f_add(float_type, None, a, b)?;
        let open = builder.f_add(float_type, None, open_sum, c)?;
        for add in [sum, result, open_sum, open] {
            builder.decorate(
                add,
                Decoration::FPFastMathMode,
                [Operand::FPFastMathMode(full_fast_math())],
            );
        }
        Ok(vec![result, open])
    })
}

/// (a, b, c) triples where the order matters: `(X + −X) + s` is `s` but `X + (−X + s)` is 0,
/// and `(s + X) + −X` is 0 but `s + (X + −X)` is `s`, for |X| in [2^20, 2^100) and |s| below
/// a quarter of X's ulp (so `X + s` rounds to X), at least 2^-30. Seeded.
pub fn fence_inputs(count: usize, seed: u64) -> Vec<[f32; 3]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut triples = vec![
        [1.0e30f32, -1.0e30, 1.0],
        [1.0, 1.0e30, -1.0e30],
        [16777216.0, -16777216.0, 0.25],
        [0.25, 16777216.0, -16777216.0],
    ];
    let float = |exponent: i32, fraction: u32| {
        f32::from_bits((((exponent + 127) as u32) << 23) | (fraction & 0x7f_ffff))
    };
    while triples.len() < count {
        let exponent = rng.random_range(20i32..100);
        let big = float(exponent, rng.random());
        let big = if rng.random() { big } else { -big };
        // ulp(X) = 2^(exponent - 23); below 2^(exponent - 25) is below a quarter of it.
        let small = float(rng.random_range(-30..exponent - 25), rng.random());
        let small = if rng.random() { small } else { -small };
        triples.push(if triples.len().is_multiple_of(2) {
            [big, -big, small]
        } else {
            [small, big, -big]
        });
    }
    triples
}

/// The fenced order's result: `(a + b) + c`, each addition rounded once.
pub fn fenced(triple: [f32; 3]) -> f32 {
    (triple[0] + triple[1]) + triple[2]
}

/// Whether a device's fenced result is right: the fenced order's value (zeros by value: the
/// additions carry NSZ).
pub fn fence_verdict(triple: [f32; 3], device: f32) -> bool {
    device == fenced(triple)
}

// ---------------------------------------------------------------------------------------------
// Probe modules

/// The smallest module exercising `extension` (see [`super::probe::probe_module`]).
pub fn probe_kernel(extension: &str, address_bits: u32) -> Result<Vec<u32>, String> {
    match extension {
        FLOAT8 => Float8Check::To {
            from: Other::Float(FloatType::Float),
            to: Float8Format::E4M3,
            saturate: false,
        }
        .module(address_bits),
        FLOAT_CONTROLS2 => Fc2Check {
            flags: Flags::None,
            via: Via::Default,
        }
        .module(address_bits),
        ARITHMETIC_FENCE => fence_module(address_bits),
        other => Err(format!("clacc has no probe module for {other}")),
    }
}
