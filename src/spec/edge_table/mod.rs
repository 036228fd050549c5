//! The spec's special-value ("edge case") rules as data. The rules live in
//! `tables/opencl_spirv/edge_cases.csv` (and `edge_cases_2026.csv`), one row per rule, each citing its source: a sentence of the OpenCL
//! SPIR-V Environment Specification ("Additional Requirements Beyond ISO/IEC 9899:TC2",
//! "Changes to ISO/IEC 9899: TC2 Behavior", "Edge Case Behavior in Flush To Zero Mode") or a
//! clause of C99 Annex F.9, which the spec's "Edge Case Behavior" adopts. The row grammar is
//! described in `tables/README.md`, section "Edge-case rules".
//!
//! [`parse`] reads a file into [`EdgeRule`]s (symbolic: `±0`, `finite x > 0`, `odd integer n <
//! 0`); `crate::judge::edge` expands them into concrete cases and judges a device's results.

use std::collections::HashSet;

use rug::float::Constant;
use rug::Float;

use crate::num::fp::FloatType;
use crate::spec::environment::{Environment, Parsed, OPENCL_SPIRV};
use crate::spec::table::{read_data, DataRecord};

/// The name the built-in rules are known by in errors, messages and the CSV: the path they had
/// before each environment got a folder, kept so that notes and rows stay the same from version
/// to version. The file is `edge_cases.csv` of [`OPENCL_SPIRV`]'s folder.
pub const BUILTIN_SOURCE: &str = "tables/edge_cases.csv";

/// The header every rules file starts with; its names are the `field` of an [`EdgeError`].
const COLUMNS: [&str; 6] = [
    "function", "applies", "inputs", "expected", "outputs", "source",
];

// ---------------------------------------------------------------------------------------------
// Signatures: what each function takes and returns, as far as the rules need to know.
// ---------------------------------------------------------------------------------------------

/// The kind of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A scalar of the element type.
    Float,
    /// A 32-bit signed integer: `ldexp`'s, `pown`'s and `rootn`'s `n`.
    Int,
    /// An unsigned integer as wide as the element type: `nan`'s code.
    UInt,
    /// A vector of the element type (`length`, `distance`, `normalize`).
    Vector,
}

/// The kind of one result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A scalar of the element type.
    Float,
    /// A 32-bit integer (`ilogb`'s result, `frexp`'s `exp`, `remquo`'s `quo`,
    /// `lgamma_r`'s `signp`), handed to `crate::judge::edge::check` as an exact `f64`.
    Int,
    /// A vector of the element type, as wide as the input (`normalize`).
    Vector,
}

/// One function's arguments and results.
#[derive(Debug)]
pub struct Signature {
    /// The OpenCL.std instruction name.
    pub name: &'static str,
    pub args: &'static [ArgKind],
    /// The returned value first, always named `result`, then the pointer out-parameters by
    /// their OpenCL C names (`iptr`, `exp`, `quo`, `signp`, `cosval`).
    pub outputs: &'static [(&'static str, OutputKind)],
}

const F: &[ArgKind] = &[ArgKind::Float];
const FF: &[ArgKind] = &[ArgKind::Float, ArgKind::Float];
const FFF: &[ArgKind] = &[ArgKind::Float, ArgKind::Float, ArgKind::Float];
const FI: &[ArgKind] = &[ArgKind::Float, ArgKind::Int];
const V: &[ArgKind] = &[ArgKind::Vector];
const VV: &[ArgKind] = &[ArgKind::Vector, ArgKind::Vector];
const RESULT: &[(&str, OutputKind)] = &[("result", OutputKind::Float)];

const fn sig(
    name: &'static str,
    args: &'static [ArgKind],
    outputs: &'static [(&'static str, OutputKind)],
) -> Signature {
    Signature {
        name,
        args,
        outputs,
    }
}

/// Every function a rule may name: the OpenCL.std math instructions of the spec's Table 3
/// (`half_*` for their NaN rule, and in the OpenCL C chapter their base function's rules; not
/// `native_*`, whose results are implementation-defined) and
/// the geometric
/// `length`, `distance` and `normalize`.
static SIGNATURES: &[Signature] = &[
    sig("acos", F, RESULT),
    sig("acosh", F, RESULT),
    sig("acospi", F, RESULT),
    sig("asin", F, RESULT),
    sig("asinh", F, RESULT),
    sig("asinpi", F, RESULT),
    sig("atan", F, RESULT),
    sig("atan2", FF, RESULT),
    sig("atan2pi", FF, RESULT),
    sig("atanh", F, RESULT),
    sig("atanpi", F, RESULT),
    sig("cbrt", F, RESULT),
    sig("ceil", F, RESULT),
    sig("copysign", FF, RESULT),
    sig("cos", F, RESULT),
    sig("cosh", F, RESULT),
    sig("cospi", F, RESULT),
    sig("distance", VV, RESULT),
    sig("erf", F, RESULT),
    sig("erfc", F, RESULT),
    sig("exp", F, RESULT),
    sig("exp10", F, RESULT),
    sig("exp2", F, RESULT),
    sig("expm1", F, RESULT),
    sig("fabs", F, RESULT),
    sig("fdim", FF, RESULT),
    sig("floor", F, RESULT),
    sig("fma", FFF, RESULT),
    sig("fmax", FF, RESULT),
    sig("fmin", FF, RESULT),
    sig("fmod", FF, RESULT),
    sig(
        "fract",
        F,
        &[("result", OutputKind::Float), ("iptr", OutputKind::Float)],
    ),
    sig(
        "frexp",
        F,
        &[("result", OutputKind::Float), ("exp", OutputKind::Int)],
    ),
    sig("half_cos", F, RESULT),
    sig("half_divide", FF, RESULT),
    sig("half_exp", F, RESULT),
    sig("half_exp10", F, RESULT),
    sig("half_exp2", F, RESULT),
    sig("half_log", F, RESULT),
    sig("half_log10", F, RESULT),
    sig("half_log2", F, RESULT),
    sig("half_powr", FF, RESULT),
    sig("half_recip", F, RESULT),
    sig("half_rsqrt", F, RESULT),
    sig("half_sin", F, RESULT),
    sig("half_sqrt", F, RESULT),
    sig("half_tan", F, RESULT),
    sig("hypot", FF, RESULT),
    sig("ilogb", F, &[("result", OutputKind::Int)]),
    sig("ldexp", FI, RESULT),
    sig("length", V, RESULT),
    sig("lgamma", F, RESULT),
    sig(
        "lgamma_r",
        F,
        &[("result", OutputKind::Float), ("signp", OutputKind::Int)],
    ),
    sig("log", F, RESULT),
    sig("log10", F, RESULT),
    sig("log1p", F, RESULT),
    sig("log2", F, RESULT),
    sig("logb", F, RESULT),
    sig("mad", FFF, RESULT),
    sig("maxmag", FF, RESULT),
    sig("minmag", FF, RESULT),
    sig(
        "modf",
        F,
        &[("result", OutputKind::Float), ("iptr", OutputKind::Float)],
    ),
    sig("nan", &[ArgKind::UInt], RESULT),
    sig("nextafter", FF, RESULT),
    sig("normalize", V, &[("result", OutputKind::Vector)]),
    sig("pow", FF, RESULT),
    sig("pown", FI, RESULT),
    sig("powr", FF, RESULT),
    sig("remainder", FF, RESULT),
    sig(
        "remquo",
        FF,
        &[("result", OutputKind::Float), ("quo", OutputKind::Int)],
    ),
    sig("rint", F, RESULT),
    sig("rootn", FI, RESULT),
    sig("round", F, RESULT),
    sig("rsqrt", F, RESULT),
    sig("sin", F, RESULT),
    sig(
        "sincos",
        F,
        &[("result", OutputKind::Float), ("cosval", OutputKind::Float)],
    ),
    sig("sinh", F, RESULT),
    sig("sinpi", F, RESULT),
    sig("sqrt", F, RESULT),
    sig("tan", F, RESULT),
    sig("tanh", F, RESULT),
    sig("tanpi", F, RESULT),
    sig("tgamma", F, RESULT),
    sig("trunc", F, RESULT),
];

/// The signature of a function a rule may name, `None` for any other name.
pub fn signature(function: &str) -> Option<&'static Signature> {
    SIGNATURES.iter().find(|s| s.name == function)
}

// ---------------------------------------------------------------------------------------------
// Symbols: signs, named magnitudes and classes of values.
// ---------------------------------------------------------------------------------------------

/// The sign written in front of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// `+`, or no sign on a number such as `1` or `0.5`.
    Plus,
    /// `-`.
    Minus,
    /// `±`: each sign in turn; in a result, the sign of the row's `±` input.
    PlusMinus,
    /// `∓` (results only): the opposite of the row's `±` input.
    MinusPlus,
}

impl Sign {
    /// Whether the value is negated, given the sign the row's `±` input took.
    pub fn negative(self, row_negative: bool) -> bool {
        match self {
            Sign::Plus => false,
            Sign::Minus => true,
            Sign::PlusMinus => row_negative,
            Sign::MinusPlus => !row_negative,
        }
    }

    pub fn is_correlated(self) -> bool {
        matches!(self, Sign::PlusMinus | Sign::MinusPlus)
    }
}

/// An exponent linear in the type's parameters: `constant + p·P + emin·EMIN + emax·EMAX`, as in
/// `2^(emin-p+1)` (the smallest subnormal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Exponent {
    pub constant: i32,
    pub p: i32,
    pub emin: i32,
    pub emax: i32,
}

impl Exponent {
    pub fn value(self, element: FloatType) -> i32 {
        self.constant
            + self.p * element.precision() as i32
            + self.emin * element.emin()
            + self.emax * element.emax()
    }
}

/// A non-negative magnitude named in a rule; its value depends on the element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Magnitude {
    Zero,
    Infinity,
    /// `denorm_min`: the smallest subnormal, 2^(emin-p+1).
    DenormMin,
    /// `largest denorm`: 2^emin - 2^(emin-p+1).
    LargestDenorm,
    /// `smallest normal`: 2^emin.
    SmallestNormal,
    /// `max`: the largest finite value.
    Max,
    /// A decimal number, `1`, `0.5`.
    Decimal(f64),
    /// `2^E`.
    PowerOfTwo(Exponent),
    /// `K*M`, a whole multiple of another magnitude: `3*2^emin`, `5*denorm_min`.
    Times(u32, Box<Magnitude>),
    /// `pi`, `pi/2`, `pi/4`, `3pi/4` (results only): `times`·π/`over`, correctly rounded.
    Pi {
        times: u32,
        over: u32,
    },
}

impl Magnitude {
    /// The value in `element` (for `Pi`, the correctly rounded value; for a `Decimal` that is
    /// not a binary fraction, the nearest `f64`).
    pub fn value(&self, element: FloatType) -> f64 {
        let p = element.precision() as i32;
        match self {
            Magnitude::Zero => 0.0,
            Magnitude::Infinity => f64::INFINITY,
            Magnitude::DenormMin => pow2(element.emin() - p + 1),
            Magnitude::LargestDenorm => pow2(element.emin()) - pow2(element.emin() - p + 1),
            Magnitude::SmallestNormal => pow2(element.emin()),
            Magnitude::Max => element.max_finite(),
            Magnitude::Decimal(v) => *v,
            Magnitude::PowerOfTwo(e) => pow2(e.value(element)),
            Magnitude::Times(k, m) => f64::from(*k) * m.value(element),
            Magnitude::Pi { times, over } => {
                let exact = Float::with_val(256, Constant::Pi) * *times / *over;
                Float::with_val(element.precision(), &exact).to_f64()
            }
        }
    }

    pub fn is_pi(&self) -> bool {
        matches!(self, Magnitude::Pi { .. })
    }
}

/// 2^e as an `f64`, exactly (subnormal doubles included), 0 below and infinity above the range.
pub fn pow2(e: i32) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else if e >= -1074 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        0.0
    }
}

/// A named set of inputs, written with a variable (`finite x > 0`); each expands to a few
/// concrete values per type (listed in `tables/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Any,
    NotNan,
    Finite,
    Positive,
    FinitePositive,
    Negative,
    FiniteNegative,
    NotNegative,
    MagnitudeAboveOne,
    MagnitudeBelowOne,
    BelowMinusOne,
    BelowOne,
    NotPlusOne,
    NotZero,
    NotZeroNotNan,
    MinusOneToZero,
    ZeroToOne,
    MinusHalfClosedToZero,
    MinusHalfToZero,
    FiniteNonInteger,
    OddPositive,
    OddNegative,
    EvenPositive,
    EvenNegative,
    EvenNonZero,
    PositiveNotOdd,
    NegativeNotOdd,
    PositiveInteger,
    NegativeInteger,
    HalfInteger,
    HalfIntegerEven,
    HalfIntegerOdd,
    BelowSmallestNormal,
    AboveMinusSmallestNormal,
    Integer,
    NonZeroInteger,
    NanCode,
}

/// Every class's spelling, `V` standing for the variable (`x`, `y`, `z` or `n`).
const CLASSES: &[(&str, Class)] = &[
    ("any", Class::Any),
    ("any V", Class::Any),
    ("non-NaN V", Class::NotNan),
    ("finite V", Class::Finite),
    ("V > 0", Class::Positive),
    ("finite V > 0", Class::FinitePositive),
    ("V < 0", Class::Negative),
    ("finite V < 0", Class::FiniteNegative),
    ("V >= 0", Class::NotNegative),
    ("|V| > 1", Class::MagnitudeAboveOne),
    ("|V| < 1", Class::MagnitudeBelowOne),
    ("V < -1", Class::BelowMinusOne),
    ("V < 1", Class::BelowOne),
    ("V != +1", Class::NotPlusOne),
    ("V != ±0", Class::NotZero),
    ("non-zero non-NaN V", Class::NotZeroNotNan),
    ("-1 < V < 0", Class::MinusOneToZero),
    ("0 < V < 1", Class::ZeroToOne),
    ("-0.5 <= V < 0", Class::MinusHalfClosedToZero),
    ("-0.5 < V < 0", Class::MinusHalfToZero),
    ("finite non-integer V", Class::FiniteNonInteger),
    ("odd integer V > 0", Class::OddPositive),
    ("odd integer V < 0", Class::OddNegative),
    ("even integer V > 0", Class::EvenPositive),
    ("even integer V < 0", Class::EvenNegative),
    ("even integer V", Class::EvenNonZero),
    ("V > 0 and not an odd integer", Class::PositiveNotOdd),
    ("V < 0 and not an odd integer", Class::NegativeNotOdd),
    ("positive integer V", Class::PositiveInteger),
    ("negative integer V", Class::NegativeInteger),
    ("V + 0.5", Class::HalfInteger),
    ("V + 0.5 for even V", Class::HalfIntegerEven),
    ("V + 0.5 for odd V", Class::HalfIntegerOdd),
    ("V < +smallest normal", Class::BelowSmallestNormal),
    ("V > -smallest normal", Class::AboveMinusSmallestNormal),
    ("integer V", Class::Integer),
    ("non-zero integer V", Class::NonZeroInteger),
    ("nancode V", Class::NanCode),
];

impl Class {
    /// Whether every value is positive, so that `±(class)` means the class and its negation.
    pub fn is_positive(self) -> bool {
        matches!(
            self,
            Class::Positive
                | Class::FinitePositive
                | Class::ZeroToOne
                | Class::OddPositive
                | Class::EvenPositive
                | Class::PositiveNotOdd
                | Class::PositiveInteger
        )
    }

    /// Whether the class holds a NaN (so a `nan operand` result can refer to it).
    pub fn may_be_nan(self) -> bool {
        matches!(self, Class::Any | Class::NotPlusOne | Class::NotZero)
    }

    /// The concrete values of a floating-point argument; `None` for the integer-only classes.
    pub fn float_values(self, element: FloatType) -> Option<Vec<f64>> {
        let p = element.precision() as i32;
        let dmin = pow2(element.emin() - p + 1);
        let nmin = pow2(element.emin());
        let max = element.max_finite();
        let inf = f64::INFINITY;
        // Neighbours of 1 and 0.5, the largest odd integer, the smallest integer above it, and
        // the largest n + 0.5 (n = 2^(p-1) - 1).
        let below_one = 1.0 - pow2(-p);
        let above_one = 1.0 + pow2(1 - p);
        let below_half = 0.5 - pow2(-p - 1);
        let big_odd = pow2(p) - 1.0;
        let big_even = pow2(p);
        let big_half = pow2(p - 1) - 0.5;
        let any = vec![
            0.0,
            -0.0,
            dmin,
            -nmin,
            1.0,
            -1.0,
            1.5,
            max,
            -max,
            inf,
            -inf,
            f64::NAN,
        ];
        let finite_positive = vec![dmin, nmin, 0.5, 1.0, 1.5, 2.0, 3.0, max];
        let positive = [finite_positive.as_slice(), &[inf]].concat();
        let odd = vec![1.0, 3.0, big_odd];
        let even = vec![2.0, 4.0, big_even, max];
        let positive_not_odd = vec![dmin, 0.5, 1.5, 2.0, big_even, max, inf];
        let positive_integer = vec![1.0, 2.0, 3.0, big_odd, big_even, max];
        let below_smallest_normal = vec![0.0, -0.0, nmin - dmin, dmin, -dmin, -1.0, -max, -inf];
        let values = match self {
            Class::Any => any,
            Class::NotNan => any.into_iter().filter(|v| !v.is_nan()).collect(),
            Class::Finite => vec![
                0.0, -0.0, dmin, -dmin, nmin, -nmin, 0.5, -1.5, 1.0, -1.0, 3.0, max, -max,
            ],
            Class::Positive => positive,
            Class::FinitePositive => finite_positive,
            Class::Negative => negated(&positive),
            Class::FiniteNegative => negated(&finite_positive),
            Class::NotNegative => vec![0.0, -0.0, dmin, nmin, 1.0, 1.5, max, inf],
            Class::MagnitudeAboveOne => {
                vec![above_one, -above_one, 1.5, -2.0, max, -max, inf, -inf]
            }
            Class::MagnitudeBelowOne => vec![
                0.0, -0.0, dmin, -dmin, nmin, -nmin, 0.5, -0.5, below_one, -below_one,
            ],
            Class::BelowMinusOne => vec![-above_one, -1.5, -2.0, -max, -inf],
            Class::BelowOne => vec![below_one, 0.5, 0.0, -0.0, -dmin, -1.0, -max, -inf],
            Class::NotPlusOne => any.into_iter().filter(|v| *v != 1.0).collect(),
            Class::NotZero => any.into_iter().filter(|v| *v != 0.0).collect(),
            Class::NotZeroNotNan => vec![dmin, -dmin, 1.0, -1.5, max, -max, inf, -inf],
            Class::MinusOneToZero => vec![-below_one, -0.5, -nmin, -dmin],
            Class::ZeroToOne => vec![dmin, nmin, 0.5, below_one],
            Class::MinusHalfClosedToZero => vec![-0.5, -below_half, -0.25, -nmin, -dmin],
            Class::MinusHalfToZero => vec![-below_half, -0.25, -nmin, -dmin],
            Class::FiniteNonInteger => {
                vec![0.5, -0.5, 1.5, -1.5, big_half, -big_half, dmin, -nmin]
            }
            Class::OddPositive => odd,
            Class::OddNegative => negated(&odd),
            Class::EvenPositive => even,
            Class::EvenNegative => negated(&even),
            Class::EvenNonZero => [even.as_slice(), &negated(&even)].concat(),
            Class::PositiveNotOdd => positive_not_odd,
            Class::NegativeNotOdd => negated(&positive_not_odd),
            Class::PositiveInteger => positive_integer,
            Class::NegativeInteger => negated(&positive_integer),
            Class::HalfInteger => vec![0.5, -0.5, 1.5, -1.5, big_half, -big_half],
            // n = 0, -2, 2, 2^(p-1) - 2, -(2^(p-1) - 2).
            Class::HalfIntegerEven => vec![0.5, -1.5, 2.5, big_half - 1.0, -(big_half - 2.0)],
            // n = -1, 1, -3, 2^(p-1) - 1, -(2^(p-1) - 1).
            Class::HalfIntegerOdd => vec![-0.5, 1.5, -2.5, big_half, -(big_half - 1.0)],
            Class::BelowSmallestNormal => below_smallest_normal,
            Class::AboveMinusSmallestNormal => negated(&below_smallest_normal),
            Class::Integer | Class::NonZeroInteger | Class::NanCode => return None,
        };
        Some(values)
    }

    /// The concrete values of an integer argument; `None` for classes of floating-point values.
    pub fn integer_values(self, kind: ArgKind, element: FloatType) -> Option<Vec<i64>> {
        let max = i64::from(i32::MAX);
        let min = i64::from(i32::MIN);
        let odd = vec![1, 3, max];
        let even = vec![2, 4, 1 << 30];
        let negate = |values: &[i64]| -> Vec<i64> { values.iter().map(|v| -v).collect() };
        let values = match (kind, self) {
            (ArgKind::Int, Class::OddPositive) => odd,
            (ArgKind::Int, Class::OddNegative) => negate(&odd),
            (ArgKind::Int, Class::EvenPositive) => even,
            (ArgKind::Int, Class::EvenNegative) => vec![-2, -4, min],
            (ArgKind::Int, Class::EvenNonZero) => vec![2, 4, 1 << 30, -2, -4, min],
            (ArgKind::Int, Class::PositiveInteger) => vec![1, 2, 3, max],
            (ArgKind::Int, Class::NegativeInteger) => vec![-1, -2, -3, min],
            (ArgKind::Int, Class::Integer) => vec![min, -1000, -1, 0, 1, 1000, max],
            (ArgKind::Int, Class::NonZeroInteger) => vec![min, -1000, -1, 1, 1000, max],
            (ArgKind::UInt, Class::NanCode) => {
                vec![0, 1, 1 << (element.precision() - 2)]
            }
            _ => return None,
        };
        Some(values)
    }
}

fn negated(values: &[f64]) -> Vec<f64> {
    values.iter().map(|v| -v).collect()
}

// ---------------------------------------------------------------------------------------------
// Rules: the parsed rows.
// ---------------------------------------------------------------------------------------------

/// Whether a rule binds every device, or is an alternative for devices that flush subnormals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// `always`: the prescribed result on every device.
    Always,
    /// `ftz`: an alternative a device that flushes subnormals to zero may choose instead of the
    /// `always` rule with the same inputs ("Edge Case Behavior in Flush To Zero Mode").
    FlushToZero,
}

/// One argument of a rule, symbolically.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// A named value: `+0`, `±inf`, `1`, `-smallest normal`, `2^(emax-1)`.
    Value(Sign, Magnitude),
    /// `nan`.
    Nan,
    /// A set of values, `finite x > 0`; with `plus_minus`, `±(class)`: each value and its
    /// negation (the sign taking part in the row's `±`).
    Class {
        class: Class,
        var: Option<char>,
        plus_minus: bool,
    },
    /// An integer argument: `0`, `-1`.
    Integer(i64),
    /// A vector argument, `(+inf, 1, -2, +0)`: each element a `Value` or `Nan`.
    Vector(Vec<Input>),
}

/// How a result refers to an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentForm {
    /// `x`: the argument itself, bit for bit.
    Same,
    /// `|x|`.
    Magnitude,
    /// `-|x|`.
    NegatedMagnitude,
}

/// One result of a rule, symbolically.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// `*`: not constrained by this rule.
    Any,
    /// `nan`: a NaN.
    Nan,
    /// `nan operand`: one of the NaN arguments (the spec's "returns the NaN").
    NanOperand,
    /// An exact value with its sign (`-0`, `±inf`, `∓0`, `0.5`), or the correctly rounded value
    /// of `pi`, `pi/2`, `pi/4`, `3pi/4`.
    Value(Sign, Magnitude),
    /// `~E`: finite and close to E (see `crate::judge::edge::near_tolerance`).
    Near(Sign, Magnitude),
    /// `±any`, `+any`, `-any`: any non-NaN value with that sign.
    SignOnly(Sign),
    /// `x`, `|x|`, `-|x|`: computed from the argument bound to that variable.
    Argument { var: char, form: ArgumentForm },
    /// `in [a, b)`: a <= result < b.
    HalfOpen(f64, f64),
    /// An integer result: `0`, `INT_MAX`.
    Integer(i64),
    /// An integer macro with several permitted values: `FP_ILOGB0`, `FP_ILOGBNAN`.
    IntegerOneOf(&'static str, Vec<i64>),
    /// A vector result, one outcome per element: `(~1, +0, -0, +0)`.
    Vector(Vec<Outcome>),
    /// `v`: the input vector itself.
    InputVector,
}

impl Outcome {
    /// Whether the outcome takes its sign from the row's `±` input.
    pub fn is_correlated(&self) -> bool {
        match self {
            Outcome::Value(sign, _) | Outcome::Near(sign, _) | Outcome::SignOnly(sign) => {
                sign.is_correlated()
            }
            Outcome::Vector(elements) => elements.iter().any(Outcome::is_correlated),
            _ => false,
        }
    }
}

/// One row of a rules file.
#[derive(Clone, Debug)]
pub struct EdgeRule {
    /// The OpenCL.std name (`sin`, `atan2`, `remquo`, `length`).
    pub function: String,
    /// The file the rule was read from, as given to [`parse`].
    pub file: String,
    /// The 1-based line of the row.
    pub line: usize,
    pub applies: Applies,
    /// One per argument.
    pub inputs: Vec<Input>,
    /// One per result of the function's [`Signature`]: the returned value first, then the
    /// out-parameters; `Outcome::Any` for an out-parameter the row leaves out.
    pub outputs: Vec<Outcome>,
    /// Whether the `±` of the results follows the row's single `±` input (`sin(±0) = ±0`);
    /// otherwise every `±` input stands for both signs independently (`powr(±0, ±0)`).
    pub correlated: bool,
    /// The spec sentence (verbatim) or the C99 clause the rule comes from.
    pub source: String,
    /// The row's inputs, expected and outputs cells as written, for messages.
    pub text: String,
}

/// A rules file that cannot be read, located to its file, line and field.
/// An edge-case file that cannot be read: the one error type of the files in `tables/`.
pub type EdgeError = crate::spec::table::TableError;

/// The SPIR-V environment's 2017 rules (`tables/opencl_spirv/edge_cases.csv`, cited as
/// [`BUILTIN_SOURCE`]), parsed once. Runs use [`builtin_in`].
pub fn builtin() -> &'static [EdgeRule] {
    builtin_in(&OPENCL_SPIRV, crate::spec::table::Revision::Spec2017)
}

/// The rules of one revision of an environment's text: the SPIR-V environment's
/// `edge_cases.csv` (2017) or `edge_cases_2026.csv`, the OpenCL C chapter's
/// `tables/opencl_c/edge_cases.csv`; compiled into clacc, parsed once, named as
/// [`Environment::data_file`] cites them. Panics, naming file, line and field, if the file is
/// malformed; the tests guarantee it is not.
pub fn builtin_in(
    environment: &'static Environment,
    revision: crate::spec::table::Revision,
) -> &'static [EdgeRule] {
    static RULES: Parsed<Vec<EdgeRule>> = Parsed::new();
    let (source, text) = environment.data_file("edge_cases", revision);
    RULES.get(&source, || {
        parse(&source, text).unwrap_or_else(|e| {
            panic!(
                "the built-in {} {revision} edge-case rules are malformed: {e}",
                environment.name
            )
        })
    })
}

/// The functions the SPIR-V environment's rules cover, each once, in the data's order (the
/// same in both of its revisions: the 2026 file keeps the 2017 file's rows).
pub fn functions() -> Vec<&'static str> {
    functions_in(&OPENCL_SPIRV, crate::spec::table::Revision::Spec2017)
}

/// The functions one text's rules cover, each once, in the data's order: the edge units a run
/// on that path plans (the OpenCL C chapter's rules cover half_powr too).
pub fn functions_in(
    environment: &'static Environment,
    revision: crate::spec::table::Revision,
) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for rule in builtin_in(environment, revision) {
        if !names.contains(&rule.function.as_str()) {
            names.push(rule.function.as_str());
        }
    }
    names
}

/// Reads rules from CSV text (format in `tables/README.md`). `source_name` names the file in
/// the rules and in errors. Every problem is an error naming file, line and field.
pub fn parse(source_name: &str, text: &str) -> Result<Vec<EdgeRule>, EdgeError> {
    let error = |line: usize, field: &str, message: String| EdgeError {
        file: source_name.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut rules = Vec::new();
    for DataRecord {
        line,
        fields: record,
    } in read_data(source_name, text, &COLUMNS)?
    {
        let cells: Vec<&str> = record.iter().map(String::as_str).collect();
        let rule = parse_row(source_name, line, &cells)
            .map_err(|(field, m)| error(line, field, m.to_string()))?;
        rules.push(rule);
    }
    Ok(rules)
}

mod cells;

use cells::parse_row;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::table::{self, Profile};

    fn spec_text() -> String {
        crate::spec::table::asciidoc::read(crate::spec::table::asciidoc::SPEC_2017)
    }

    /// Runs of whitespace as one space: the extracted HTML doubles some spaces and breaks code
    /// over lines, the data file keeps each source on one line.
    fn collapse(text: &str) -> String {
        text.split_whitespace().collect::<Vec<&str>>().join(" ")
    }

    /// One bullet of the spec: its line, the `OpExtInst name:` bullet it sits under (if any), and
    /// its text with any continuation lines (the normalize code) joined on.
    struct Bullet {
        line: usize,
        function: Option<String>,
        text: String,
    }

    /// The bullets after the line `title`, up to the first line starting with `end`.
    /// `OpExtInst name:` bullets are headings, returned separately.
    fn bullets(text: &str, title: &str, end: &str) -> (Vec<Bullet>, Vec<String>) {
        let lines: Vec<&str> = text.lines().collect();
        let start = lines
            .iter()
            .position(|l| l.trim() == title)
            .unwrap_or_else(|| panic!("the spec has no line `{title}`"));
        let mut headings = Vec::new();
        let mut found: Vec<Bullet> = Vec::new();
        let mut in_bullet = false;
        let mut ended = false;
        for (index, raw) in lines.iter().enumerate().skip(start + 1) {
            let line = raw.trim();
            if line.starts_with(end) {
                ended = true;
                break;
            }
            if line.is_empty() {
                continue;
            }
            if let Some(bullet) = line.strip_prefix('•') {
                let bullet = bullet.trim();
                let heading = bullet
                    .strip_prefix("OpExtInst ")
                    .and_then(|r| r.strip_suffix(':'));
                if let Some(name) = heading {
                    headings.push(name.to_string());
                    in_bullet = false;
                } else {
                    found.push(Bullet {
                        line: index + 1,
                        function: headings.last().cloned(),
                        text: bullet.to_string(),
                    });
                    in_bullet = true;
                }
            } else if in_bullet {
                let last = found.last_mut().expect("in a bullet");
                last.text.push(' ');
                last.text.push_str(line);
            }
        }
        assert!(
            ended,
            "the spec has no line starting `{end}` after `{title}`"
        );
        (found, headings)
    }

    /// The rows whose source is `text` (whitespace collapsed).
    fn rows_citing<'a>(rules: &'a [EdgeRule], text: &str) -> Vec<&'a EdgeRule> {
        let wanted = collapse(text);
        rules
            .iter()
            .filter(|r| collapse(&r.source) == wanted)
            .collect()
    }

    // ---- 1. The data against the spec text ----

    #[test]
    fn every_spec_bullet_has_a_row() {
        let text = spec_text();
        let rules = builtin();
        let mut problems = Vec::new();

        let (additions, headings) = bullets(
            &text,
            "Additional Requirements Beyond ISO/IEC 9899:TC2",
            "Changes to ISO/IEC 9899: TC2 Behavior",
        );
        // Guards the extractor: 26 functions, 81 rules.
        assert_eq!(headings.len(), 26, "headings: {headings:?}");
        assert_eq!(additions.len(), 81, "extracted {} bullets", additions.len());
        for bullet in &additions {
            let function = bullet.function.as_deref().expect("under a heading");
            let rows = rows_citing(rules, &bullet.text);
            if rows.is_empty() {
                problems.push(format!(
                    "spec line {}: no row of {BUILTIN_SOURCE} has the source \"{}\"",
                    bullet.line,
                    collapse(&bullet.text)
                ));
            }
            for row in rows {
                if row.function != function || row.applies != Applies::Always {
                    problems.push(format!(
                        "{BUILTIN_SOURCE}:{}: cites spec line {} (under `{function}`) but is a \
                         `{}` row that applies {:?}",
                        row.line, bullet.line, row.function, row.applies
                    ));
                }
            }
        }

        let (flush, _) = bullets(
            &text,
            "Edge Case Behavior in Flush To Zero Mode",
            "For clarity, subnormals",
        );
        assert_eq!(
            flush.len(),
            4,
            "extracted {} flush-to-zero bullets",
            flush.len()
        );
        for bullet in &flush {
            let rows = rows_citing(rules, &bullet.text);
            let right = rows
                .iter()
                .all(|r| r.function == "nextafter" && r.applies == Applies::FlushToZero);
            if rows.is_empty() || !right {
                problems.push(format!(
                    "spec line {}: needs `nextafter` rows that apply `ftz` citing \"{}\"",
                    bullet.line, bullet.text
                ));
            }
        }

        // "Changes to ISO/IEC 9899: TC2 Behavior": the modf paragraph with its code, and rint.
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let modf = lines
            .iter()
            .position(|l| l.starts_with("OpExtInst modf behaves"))
            .expect("the modf paragraph");
        let rint = lines
            .iter()
            .position(|l| l.starts_with("OpExtInst rint always"))
            .expect("the rint sentence");
        let changes = [
            ("modf", lines[modf..rint].join(" ")),
            ("rint", lines[rint].to_string()),
        ];
        for (function, sentence) in &changes {
            let rows = rows_citing(rules, sentence);
            if rows.is_empty() || rows.iter().any(|r| r.function != *function) {
                problems.push(format!(
                    "the `{function}` change needs `{function}` rows citing \"{}\"",
                    collapse(sentence)
                ));
            }
        }

        // Every OpenCL source is the spec's own words; every other one cites C99.
        let whole = collapse(&text);
        for rule in rules {
            if let Some(clauses) = rule.source.strip_prefix("C99 ") {
                let valid = clauses.split(", ").all(|clause| {
                    let (number, paragraph) = match clause.split_once(" paragraph ") {
                        Some((n, p)) => (n, Some(p)),
                        None => (clause, None),
                    };
                    let numbered = number.starts_with("F.9") || number.starts_with("7.12");
                    numbered
                        && number.split('.').skip(1).all(|n| n.parse::<u32>().is_ok())
                        && paragraph.is_none_or(|p| p.parse::<u32>().is_ok())
                });
                if !valid {
                    problems.push(format!(
                        "{BUILTIN_SOURCE}:{}: `{}` is not a C99 clause reference",
                        rule.line, rule.source
                    ));
                }
            } else if !whole.contains(&collapse(&rule.source)) {
                problems.push(format!(
                    "{BUILTIN_SOURCE}:{}: the source \"{}\" is not in the spec",
                    rule.line, rule.source
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    // ---- 2. The built-in data parses and names known functions ----

    #[test]
    fn builtin_rules_parse_and_name_known_functions() {
        let rules = builtin();
        assert!(rules.len() > 300, "{} rules", rules.len());
        let table3 = table::builtin(Profile::Full);
        let geometric = ["length", "distance", "normalize"];
        for rule in rules {
            assert!(
                table3.row(&rule.function).is_some() || geometric.contains(&rule.function.as_str()),
                "{BUILTIN_SOURCE}:{}: `{}` is neither in Table 3 nor geometric",
                rule.line,
                rule.function
            );
            assert_eq!(rule.file, BUILTIN_SOURCE);
        }
        for signature in SIGNATURES {
            assert!(
                table3.row(signature.name).is_some() || geometric.contains(&signature.name),
                "signature `{}` is not a Table 3 name",
                signature.name
            );
        }
        // Every function the brief's list of Table 3 functions names has rules.
        for name in [
            "acos",
            "asin",
            "atan",
            "atan2",
            "cos",
            "sin",
            "tan",
            "acosh",
            "asinh",
            "atanh",
            "cosh",
            "sinh",
            "tanh",
            "exp",
            "exp2",
            "expm1",
            "frexp",
            "ilogb",
            "ldexp",
            "log",
            "log10",
            "log1p",
            "log2",
            "logb",
            "modf",
            "cbrt",
            "fabs",
            "hypot",
            "pow",
            "sqrt",
            "erf",
            "erfc",
            "lgamma",
            "tgamma",
            "ceil",
            "floor",
            "rint",
            "round",
            "trunc",
            "fmod",
            "remainder",
            "remquo",
            "copysign",
            "nan",
            "nextafter",
            "fdim",
            "fmax",
            "fmin",
            "fma",
            "length",
            "distance",
            "normalize",
        ] {
            assert!(functions().contains(&name), "no rules for `{name}`");
        }
        // The C99 clauses: every function of Annex F.9 the data covers has a clause row.
        let f9: Vec<&EdgeRule> = rules
            .iter()
            .filter(|r| r.source.starts_with("C99 "))
            .collect();
        assert!(f9.len() > 150, "{} C99 rows", f9.len());
    }

    #[test]
    fn every_class_holds_what_its_name_says() {
        for element in FloatType::ALL {
            for (name, class) in CLASSES {
                let Some(values) = class.float_values(element) else {
                    continue;
                };
                assert!(!values.is_empty());
                let odd = |v: f64| v.is_finite() && v.fract() == 0.0 && (v % 2.0).abs() == 1.0;
                let integer = |v: f64| v.is_finite() && v.fract() == 0.0;
                let nmin = 2f64.powi(element.emin());
                for v in values {
                    let holds = match class {
                        Class::Any => true,
                        Class::NotNan => !v.is_nan(),
                        Class::Finite => v.is_finite(),
                        Class::Positive => v > 0.0,
                        Class::FinitePositive => v > 0.0 && v.is_finite(),
                        Class::Negative => v < 0.0,
                        Class::FiniteNegative => v < 0.0 && v.is_finite(),
                        Class::NotNegative => v >= 0.0,
                        Class::MagnitudeAboveOne => v.abs() > 1.0,
                        Class::MagnitudeBelowOne => v.abs() < 1.0,
                        Class::BelowMinusOne => v < -1.0,
                        Class::BelowOne => v < 1.0,
                        Class::NotPlusOne => v != 1.0,
                        Class::NotZero => v != 0.0,
                        Class::NotZeroNotNan => v != 0.0 && !v.is_nan(),
                        Class::MinusOneToZero => -1.0 < v && v < 0.0,
                        Class::ZeroToOne => 0.0 < v && v < 1.0,
                        Class::MinusHalfClosedToZero => (-0.5..0.0).contains(&v),
                        Class::MinusHalfToZero => -0.5 < v && v < 0.0,
                        Class::FiniteNonInteger => v.is_finite() && !integer(v),
                        Class::OddPositive => odd(v) && v > 0.0,
                        Class::OddNegative => odd(v) && v < 0.0,
                        Class::EvenPositive => integer(v) && !odd(v) && v > 0.0,
                        Class::EvenNegative => integer(v) && !odd(v) && v < 0.0,
                        Class::EvenNonZero => integer(v) && !odd(v) && v != 0.0,
                        Class::PositiveNotOdd => v > 0.0 && !odd(v),
                        Class::NegativeNotOdd => v < 0.0 && !odd(v),
                        Class::PositiveInteger => integer(v) && v > 0.0,
                        Class::NegativeInteger => integer(v) && v < 0.0,
                        Class::HalfInteger => integer(v - 0.5),
                        Class::HalfIntegerEven => integer(v - 0.5) && !odd(v - 0.5),
                        Class::HalfIntegerOdd => odd(v - 0.5),
                        Class::BelowSmallestNormal => v < nmin,
                        Class::AboveMinusSmallestNormal => v > -nmin,
                        Class::Integer | Class::NonZeroInteger | Class::NanCode => false,
                    };
                    assert!(holds, "{element}: `{name}` holds {v}");
                    assert!(
                        v.is_nan() || element.round(v) == v,
                        "{element}: `{name}` holds {v}"
                    );
                    if class.is_positive() {
                        assert!(v > 0.0, "`{name}` is marked positive but holds {v}");
                    }
                }
            }
        }
    }

    // ---- 5. Malformed data ----

    const HEADER: &str = "function,applies,inputs,expected,outputs,source\n";

    /// Parses `HEADER` + `body` (so body line k is file line k + 1) and returns the error.
    fn error_of(body: &str) -> EdgeError {
        match parse("bad.csv", &format!("{HEADER}{body}")) {
            Ok(rules) => panic!("accepted: {rules:?}"),
            Err(e) => e,
        }
    }

    use crate::spec::table::assert_error;

    #[test]
    fn unknown_names_are_errors() {
        let e = error_of("sine,always,±0,±0,,C99 F.9.1.6\n");
        assert_error(&e, 2, "function", "unknown function `sine`");
        let e = error_of("native_sin,always,±0,±0,,spec\n");
        assert_error(&e, 2, "function", "unknown function");
        let e = error_of("sin,sometimes,±0,±0,,spec\n");
        assert_error(&e, 2, "applies", "expected `always` or `ftz`");
        let e = error_of("# c\nsin,always,finite x > 00,nan,,spec\n");
        assert_error(
            &e,
            3,
            "inputs",
            "cannot read `finite x > 00`: not a known class",
        );
        let e = error_of("fract,always,+0,+0,exp=0,spec\n");
        assert_error(
            &e,
            2,
            "outputs",
            "`fract` has no out-parameter `exp`; it has `iptr`",
        );
        let e = error_of("sin,always,+0,+0,iptr=+0,spec\n");
        assert_error(&e, 2, "outputs", "leave the outputs cell empty");
        let e = error_of("frexp,always,+0,+0,exp=zero,spec\n");
        assert_error(
            &e,
            2,
            "outputs",
            "`exp`: cannot read `zero` as an integer result",
        );
    }

    #[test]
    fn malformed_values_are_errors() {
        let e = error_of("sin,always,0,+0,,spec\n");
        assert_error(&e, 2, "inputs", "a zero or an infinity needs its sign");
        let e = error_of("sin,always,+0,0,,spec\n");
        assert_error(&e, 2, "expected", "a zero or an infinity needs its sign");
        let e = error_of("sin,always,0.1,+0,,spec\n");
        assert_error(&e, 2, "inputs", "not exactly representable");
        let e = error_of("sin,always,+0,any,,spec\n");
        assert_error(&e, 2, "expected", "write `*`");
        let e = error_of("sin,always,±(x < 0),nan,,spec\n");
        assert_error(&e, 2, "inputs", "needs a class of positive values");
        let e = error_of("sin,always,+0,~+0,,spec\n");
        assert_error(&e, 2, "expected", "`~` needs a finite non-zero value");
        let e = error_of("ldexp,always,+0;finite x,+0,,spec\n");
        assert_error(&e, 2, "inputs", "as an integer argument");
        let e = error_of("sin,always,integer n,nan,,spec\n");
        assert_error(&e, 2, "inputs", "for integer arguments only");
        let e = error_of("fract,always,non-NaN x,\"in [1, 0)\",,spec\n");
        assert_error(&e, 2, "expected", "a < b");
    }

    #[test]
    fn inconsistent_rows_are_errors() {
        let e = error_of("atan2,always,±0;+0,±0;+0,,spec\n");
        assert_error(&e, 2, "expected", "cannot read `±0;+0`");
        let e = error_of("atan2,always,±0,±0,,spec\n");
        assert_error(&e, 2, "inputs", "`atan2` takes 2 argument(s), found 1");
        let e = error_of("atan2,always,±0;±0,±0,,spec\n");
        assert_error(&e, 2, "inputs", "the inputs have 2");
        let e = error_of("sin,always,+0,∓0,,spec\n");
        assert_error(&e, 2, "inputs", "the inputs have 0");
        let e = error_of("fmod,always,finite x;+inf,y,,spec\n");
        assert_error(&e, 2, "expected", "`y` is not the variable of any input");
        let e = error_of("fmod,always,finite x;finite x,+0,,spec\n");
        assert_error(&e, 2, "inputs", "`x` names two arguments");
        let e = error_of("sin,always,+0,nan operand,,spec\n");
        assert_error(&e, 2, "expected", "needs an input that can be a NaN");
        let e = error_of("normalize,always,\"(+0, +0)\",\"(+0, +0, +0)\",,spec\n");
        assert_error(&e, 2, "expected", "has 3 elements, the input has 2");
        let e = error_of("distance,always,\"(+0, +0);(+0, +0, +0)\",+0,,spec\n");
        assert_error(&e, 2, "inputs", "differ in width");
        let e = error_of("sin,always,+0,+0,,\n");
        assert_error(&e, 2, "source", "empty");
    }

    #[test]
    fn malformed_files_are_errors() {
        let e = error_of("sin,always,+0,+0,\n");
        assert_error(
            &e,
            2,
            "source",
            "this field is missing: the row has 5 fields",
        );
        let e = error_of("normalize,always,(+inf, 1, -2, +0),v,,spec\n");
        assert_error(&e, 2, "source", "extra fields follow this one");
        let e = error_of("# c\nsin,always,+0,+0,,\"C99\n");
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("bad.csv:3: unclosed"), "{e}");
        let e = parse(
            "bad.csv",
            "function,applies,input,expected,outputs,source\n",
        )
        .unwrap_err();
        assert_error(&e, 1, "inputs", "the header must be");
        let e = parse("bad.csv", "# only a comment\n").unwrap_err();
        assert!(e.to_string().starts_with("bad.csv:1: no header"), "{e}");
        let e = parse("bad.csv", HEADER).unwrap_err();
        assert!(e.to_string().contains("no rows"), "{e}");
        let crlf = "function,applies,inputs,expected,outputs,source\r\n\r\nsin,always,+0,+0,,s\r\n";
        assert_eq!(parse("crlf.csv", crlf).unwrap()[0].line, 3);
    }
}
