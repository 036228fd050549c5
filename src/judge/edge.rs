//! The spec's special-value ("edge case") rules as data, and the code that expands and checks
//! them. The rules live in `tables/edge_cases.csv`, one row per rule, each citing its source: a
//! sentence of the OpenCL SPIR-V Environment Specification ("Additional Requirements Beyond
//! ISO/IEC 9899:TC2", "Changes to ISO/IEC 9899: TC2 Behavior", "Edge Case Behavior in Flush To
//! Zero Mode") or a clause of C99 Annex F.9, which the spec's "Edge Case Behavior" adopts. The
//! row grammar is described in `tables/README.md`, section "Edge-case rules".
//!
//! [`parse`] reads a file into [`EdgeRule`]s (symbolic: `±0`, `finite x > 0`, `odd integer n <
//! 0`); [`cases`] expands the rules of one function into concrete [`EdgeCase`]s for one element
//! type, several values per symbol; [`check`] judges a device's results for one case. The spec
//! says these prescribed results are exact ("Those values shall produce exactly the prescribed
//! answers, and no other"), so no ulp allowance applies: a case passes or fails bit for bit,
//! except where a rule itself says otherwise (a NaN, a range, `~`).

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

use rug::float::Constant;
use rug::Float;

use crate::num::fp::FloatType;
use crate::num::hexfloat;
use crate::spec::table::{read_data, DataRecord};

/// The name the built-in rules are known by in errors and messages.
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
    /// `lgamma_r`'s `signp`), handed to [`check`] as an exact `f64`.
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
/// (`half_*` for their NaN rule; not `native_*`, whose results are implementation-defined) and
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
    fn negative(self, row_negative: bool) -> bool {
        match self {
            Sign::Plus => false,
            Sign::Minus => true,
            Sign::PlusMinus => row_negative,
            Sign::MinusPlus => !row_negative,
        }
    }

    fn is_correlated(self) -> bool {
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
    fn value(self, element: FloatType) -> i32 {
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

    fn is_pi(&self) -> bool {
        matches!(self, Magnitude::Pi { .. })
    }
}

/// 2^e as an `f64`, exactly (subnormal doubles included), 0 below and infinity above the range.
fn pow2(e: i32) -> f64 {
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
    fn is_positive(self) -> bool {
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
    fn may_be_nan(self) -> bool {
        matches!(self, Class::Any | Class::NotPlusOne | Class::NotZero)
    }

    /// The concrete values of a floating-point argument; `None` for the integer-only classes.
    fn float_values(self, element: FloatType) -> Option<Vec<f64>> {
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
    fn integer_values(self, kind: ArgKind, element: FloatType) -> Option<Vec<i64>> {
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
    /// `~E`: finite and close to E (see [`near_tolerance`]).
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
    fn is_correlated(&self) -> bool {
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

/// The rules compiled into clacc (`tables/edge_cases.csv`), parsed once. Panics, naming file,
/// line and field, if that file is malformed; the tests guarantee it is not.
pub fn builtin() -> &'static [EdgeRule] {
    static RULES: OnceLock<Vec<EdgeRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        parse(BUILTIN_SOURCE, include_str!("../../tables/edge_cases.csv"))
            .unwrap_or_else(|e| panic!("the built-in edge-case rules are malformed: {e}"))
    })
}

/// The rules of one revision of the text: `tables/edge_cases.csv` (2017) or
/// `tables/edge_cases_2026.csv`, compiled into clacc, parsed once.
pub fn builtin_in(revision: crate::spec::table::Revision) -> &'static [EdgeRule] {
    static CURRENT: OnceLock<Vec<EdgeRule>> = OnceLock::new();
    match revision {
        crate::spec::table::Revision::Spec2017 => builtin(),
        crate::spec::table::Revision::Spec2026 => CURRENT.get_or_init(|| {
            parse(
                "tables/edge_cases_2026.csv",
                include_str!("../../tables/edge_cases_2026.csv"),
            )
            .unwrap_or_else(|e| panic!("the built-in 2026 edge-case rules are malformed: {e}"))
        }),
    }
}

/// [`cases`] from the rules of one revision of the text.
pub fn cases_in(
    revision: crate::spec::table::Revision,
    function: &str,
    element: FloatType,
    flush_to_zero: bool,
) -> Vec<EdgeCase> {
    expand(builtin_in(revision), function, element, flush_to_zero)
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
        let rule =
            parse_row(source_name, line, &cells).map_err(|(field, m)| error(line, field, m))?;
        rules.push(rule);
    }
    Ok(rules)
}

type FieldError = (&'static str, String);

/// Reads one row (six trimmed cells) into a rule, checking it against the function's signature.
fn parse_row(file: &str, line: usize, cells: &[&str]) -> Result<EdgeRule, FieldError> {
    let [function, applies, inputs_cell, expected_cell, outputs_cell, source] = cells else {
        unreachable!("the caller checks the field count");
    };
    let signature = signature(function).ok_or_else(|| {
        (
            "function",
            format!(
                "unknown function `{function}`: expected an OpenCL.std math instruction of \
                 Table 3 (`sin`, `atan2`, `remquo`) or `length`, `distance`, `normalize`"
            ),
        )
    })?;
    let applies = match *applies {
        "always" => Applies::Always,
        "ftz" => Applies::FlushToZero,
        other => {
            return Err((
                "applies",
                format!("cannot read `{other}`: expected `always` or `ftz`"),
            ))
        }
    };
    let inputs = parse_inputs(signature, inputs_cell).map_err(|m| ("inputs", m))?;
    let vector_width = inputs.iter().find_map(|input| match input {
        Input::Vector(elements) => Some(elements.len()),
        _ => None,
    });
    let mut outputs = vec![
        parse_outcome(signature.outputs[0].1, expected_cell, vector_width)
            .map_err(|m| ("expected", m))?,
    ];
    outputs.extend(
        parse_out_parameters(signature, outputs_cell, vector_width).map_err(|m| ("outputs", m))?,
    );
    if source.is_empty() {
        return Err((
            "source",
            "empty: cite the spec sentence or the C99 clause".to_string(),
        ));
    }
    let correlated = outputs.iter().any(Outcome::is_correlated);
    check_consistency(&inputs, &outputs, correlated, vector_width)?;
    let mut text = format!("{inputs_cell} -> {expected_cell}");
    if !outputs_cell.is_empty() {
        text.push_str(&format!("; {outputs_cell}"));
    }
    Ok(EdgeRule {
        function: function.to_string(),
        file: file.to_string(),
        line,
        applies,
        inputs,
        outputs,
        correlated,
        source: source.to_string(),
        text,
    })
}

/// The checks that involve more than one cell: `±` correlation, variables, NaN operands,
/// vector widths.
fn check_consistency(
    inputs: &[Input],
    outputs: &[Outcome],
    correlated: bool,
    vector_width: Option<usize>,
) -> Result<(), FieldError> {
    let scalar_plus_minus = inputs
        .iter()
        .filter(|input| match input {
            Input::Value(sign, _) => *sign == Sign::PlusMinus,
            Input::Class { plus_minus, .. } => *plus_minus,
            _ => false,
        })
        .count();
    let vector_plus_minus = inputs.iter().any(|input| match input {
        Input::Vector(elements) => elements
            .iter()
            .any(|e| matches!(e, Input::Value(Sign::PlusMinus, _))),
        _ => false,
    });
    if correlated && (scalar_plus_minus != 1 || vector_plus_minus) {
        return Err((
            "inputs",
            format!(
                "a `±` or `∓` result takes its sign from the row's one `±` input, but the \
                 inputs have {}{}; write one row per sign instead",
                scalar_plus_minus,
                if vector_plus_minus {
                    " scalar ones and `±` vector elements"
                } else {
                    ""
                }
            ),
        ));
    }

    let mut bound: Vec<char> = Vec::new();
    for input in inputs {
        if let Input::Class { var: Some(var), .. } = input {
            if bound.contains(var) {
                return Err((
                    "inputs",
                    format!("the variable `{var}` names two arguments"),
                ));
            }
            bound.push(*var);
        }
    }
    let may_be_nan = inputs.iter().any(|input| match input {
        Input::Nan => true,
        Input::Class { class, .. } => class.may_be_nan(),
        _ => false,
    });
    for (index, outcome) in outputs.iter().enumerate() {
        let field = if index == 0 { "expected" } else { "outputs" };
        let mut pending = vec![outcome];
        while let Some(outcome) = pending.pop() {
            match outcome {
                Outcome::Argument { var, .. } if !bound.contains(var) => {
                    return Err((field, format!("`{var}` is not the variable of any input")))
                }
                Outcome::NanOperand if !may_be_nan => {
                    return Err((
                        field,
                        "`nan operand` needs an input that can be a NaN".to_string(),
                    ))
                }
                Outcome::InputVector if vector_width.is_none() => {
                    return Err((field, "`v` needs a vector input".to_string()))
                }
                Outcome::Vector(elements) => pending.extend(elements),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Splits the inputs cell on `;` and reads each argument by its kind.
fn parse_inputs(signature: &Signature, cell: &str) -> Result<Vec<Input>, String> {
    let parts: Vec<&str> = cell.split(';').map(str::trim).collect();
    if parts.len() != signature.args.len() {
        return Err(format!(
            "`{}` takes {} argument(s), found {} in `{cell}` (arguments are separated by `;`)",
            signature.name,
            signature.args.len(),
            parts.len()
        ));
    }
    let inputs = signature
        .args
        .iter()
        .zip(&parts)
        .map(|(kind, text)| match kind {
            ArgKind::Float => parse_float_input(text),
            ArgKind::Int | ArgKind::UInt => parse_integer_input(text, *kind),
            ArgKind::Vector => parse_vector_input(text),
        })
        .collect::<Result<Vec<Input>, String>>()?;
    let widths: HashSet<usize> = inputs
        .iter()
        .filter_map(|input| match input {
            Input::Vector(elements) => Some(elements.len()),
            _ => None,
        })
        .collect();
    if widths.len() > 1 {
        return Err(format!(
            "the vectors of `{cell}` differ in width; they must be equally wide"
        ));
    }
    Ok(inputs)
}

const INPUT_FORMS: &str = "a value (`+0`, `-inf`, `±0`, `nan`, `1`, `0.5`, `±smallest normal`, \
    `denorm_min`, `max`, `2^(emax-1)`, `3*2^emin`), a class (`finite x > 0`, `|x| > 1`, \
    `odd integer n < 0`, `n + 0.5`, ...; see tables/README.md) or `±(class)` for a class of \
    positive values";

fn parse_float_input(text: &str) -> Result<Input, String> {
    if text == "nan" {
        return Ok(Input::Nan);
    }
    if let Some(inner) = text
        .strip_prefix("±(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        let (class, var) = parse_class(inner.trim()).ok_or_else(|| {
            format!("cannot read `{text}`: `{inner}` is not a class; expected {INPUT_FORMS}")
        })?;
        if !class.is_positive() {
            return Err(format!(
                "cannot read `{text}`: `±(...)` needs a class of positive values \
                 (`x > 0`, `finite x > 0`, `odd integer n > 0`, ...)"
            ));
        }
        return float_class(text, class, var, true);
    }
    if let Some((class, var)) = parse_class(text) {
        return float_class(text, class, var, false);
    }
    if class_pattern(text).is_none_or(|(_, var)| var.is_some()) {
        return Err(format!(
            "cannot read `{text}`: not a known class; expected {INPUT_FORMS}"
        ));
    }
    let (sign, magnitude) = parse_value(text, ValueContext::Input)?;
    Ok(Input::Value(sign, magnitude))
}

fn float_class(
    text: &str,
    class: Class,
    var: Option<char>,
    plus_minus: bool,
) -> Result<Input, String> {
    if class.float_values(FloatType::Double).is_none() {
        return Err(format!(
            "cannot read `{text}`: this class is for integer arguments only"
        ));
    }
    Ok(Input::Class {
        class,
        var,
        plus_minus,
    })
}

fn parse_integer_input(text: &str, kind: ArgKind) -> Result<Input, String> {
    if let Some(n) = parse_integer(text) {
        let valid = match kind {
            ArgKind::UInt => n >= 0,
            _ => i32::try_from(n).is_ok(),
        };
        if !valid {
            return Err(format!(
                "`{text}` is out of range for this integer argument"
            ));
        }
        return Ok(Input::Integer(n));
    }
    match parse_class(text) {
        Some((class, var)) if class.integer_values(kind, FloatType::Half).is_some() => {
            Ok(Input::Class {
                class,
                var,
                plus_minus: false,
            })
        }
        _ => Err(format!(
            "cannot read `{text}` as an integer argument: expected an integer (`0`, `-1`) or \
             one of the classes `integer n`, `non-zero integer n`, `odd integer n > 0`, \
             `odd integer n < 0`, `even integer n > 0`, `even integer n < 0`, `even integer n`, \
             `positive integer n`, `negative integer n` (`nancode n` for `nan`)"
        )),
    }
}

fn parse_vector_input(text: &str) -> Result<Input, String> {
    let inner = text
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .ok_or_else(|| {
            format!("cannot read `{text}`: a vector argument is written `(a, b, c, d)`")
        })?;
    let elements = inner
        .split(',')
        .map(|element| {
            let element = element.trim();
            if element == "nan" {
                Ok(Input::Nan)
            } else {
                parse_value(element, ValueContext::Input)
                    .map(|(sign, magnitude)| Input::Value(sign, magnitude))
                    .map_err(|m| format!("in the vector `{text}`: {m}"))
            }
        })
        .collect::<Result<Vec<Input>, String>>()?;
    // One element: the geometric functions' scalar gentype (length(x) = |x|, ...).
    if !matches!(elements.len(), 1..=4 | 8 | 16) {
        return Err(format!(
            "the vector `{text}` has {} elements; geometric arguments have 1 (a scalar), 2, 3, \
             4, 8 or 16",
            elements.len()
        ));
    }
    Ok(Input::Vector(elements))
}

/// Matches a class's spelling, the variable replaced by `V`. Returns the class and its variable.
fn parse_class(text: &str) -> Option<(Class, Option<char>)> {
    let (pattern, var) = class_pattern(text)?;
    CLASSES
        .iter()
        .find(|(name, _)| *name == pattern)
        .map(|(_, class)| (*class, var))
}

/// The text with whitespace runs collapsed and its variable (a lone `x`, `y`, `z` or `n`)
/// replaced by `V`, and that variable; `None` if it has two different variables.
fn class_pattern(text: &str) -> Option<(String, Option<char>)> {
    let words = text.split_whitespace().collect::<Vec<&str>>().join(" ");
    let chars: Vec<char> = words.chars().collect();
    let mut var: Option<char> = None;
    let mut pattern = String::with_capacity(words.len());
    for (i, &c) in chars.iter().enumerate() {
        let letter = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
        };
        let alone = !letter(i.checked_sub(1)) && !letter(Some(i + 1));
        if alone && matches!(c, 'x' | 'y' | 'z' | 'n') {
            match var {
                Some(v) if v != c => return None,
                _ => var = Some(c),
            }
            pattern.push('V');
        } else {
            pattern.push(c);
        }
    }
    Some((pattern, var))
}

/// Where a value is written, which decides the forms it may take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueContext {
    /// An argument: exactly representable in every type, no `pi`, no `∓`.
    Input,
    /// An exact result: representable (or `pi`), `∓` allowed.
    Result,
    /// After `~`: any decimal, `∓` allowed.
    Near,
}

const VALUE_FORMS: &str = "`+0`, `-0`, `±0`, `+inf`, `-inf`, `±inf`, a number (`1`, `-0.5`), \
    `denorm_min`, `largest denorm`, `smallest normal`, `max`, `2^E` (E an integer or \
    `(emax-1)`, `(emin-p+1)`, ...), `K*M` (`3*2^emin`, `5*denorm_min`), each with an optional \
    sign `+`, `-`, `±`";

/// Reads a signed value: `[sign] magnitude`.
fn parse_value(text: &str, context: ValueContext) -> Result<(Sign, Magnitude), String> {
    let (sign, rest, explicit) = if let Some(rest) = text.strip_prefix('±') {
        (Sign::PlusMinus, rest, true)
    } else if let Some(rest) = text.strip_prefix('∓') {
        if context == ValueContext::Input {
            return Err(format!("cannot read `{text}`: `∓` is for results only"));
        }
        (Sign::MinusPlus, rest, true)
    } else if let Some(rest) = text.strip_prefix('+') {
        (Sign::Plus, rest, true)
    } else if let Some(rest) = text.strip_prefix('-') {
        (Sign::Minus, rest, true)
    } else {
        (Sign::Plus, text, false)
    };
    let magnitude =
        parse_magnitude(rest.trim(), context).map_err(|m| format!("cannot read `{text}`: {m}"))?;
    if !explicit && matches!(magnitude, Magnitude::Zero | Magnitude::Infinity) {
        return Err(format!(
            "cannot read `{text}`: a zero or an infinity needs its sign: `+{text}`, `-{text}` or \
             `±{text}`"
        ));
    }
    if magnitude.is_pi() && context != ValueContext::Result {
        return Err(format!(
            "cannot read `{text}`: `pi` is for exact results only"
        ));
    }
    Ok((sign, magnitude))
}

fn parse_magnitude(text: &str, context: ValueContext) -> Result<Magnitude, String> {
    let magnitude = match text {
        "0" => Magnitude::Zero,
        "inf" => Magnitude::Infinity,
        "denorm_min" => Magnitude::DenormMin,
        "largest denorm" => Magnitude::LargestDenorm,
        "smallest normal" => Magnitude::SmallestNormal,
        "max" => Magnitude::Max,
        "pi" => Magnitude::Pi { times: 1, over: 1 },
        "pi/2" => Magnitude::Pi { times: 1, over: 2 },
        "pi/4" => Magnitude::Pi { times: 1, over: 4 },
        "3pi/4" => Magnitude::Pi { times: 3, over: 4 },
        _ => {
            if let Some(exponent) = text.strip_prefix("2^") {
                Magnitude::PowerOfTwo(parse_exponent(exponent)?)
            } else if let Some((k, rest)) = text.split_once('*') {
                let k: u32 = match parse_integer(k.trim()) {
                    Some(k) if (2..=1 << 20).contains(&k) => k as u32,
                    _ => {
                        return Err(format!(
                            "the multiplier `{k}` must be a whole number from 2 to 2^20"
                        ))
                    }
                };
                match parse_magnitude(rest.trim(), ValueContext::Input)? {
                    Magnitude::Zero
                    | Magnitude::Infinity
                    | Magnitude::Times(..)
                    | Magnitude::Pi { .. } => {
                        return Err(format!(
                            "`{rest}` cannot be multiplied: write `K*2^E` or `K*denorm_min`"
                        ))
                    }
                    base => Magnitude::Times(k, Box::new(base)),
                }
            } else {
                let value =
                    parse_decimal(text).ok_or_else(|| format!("expected one of {VALUE_FORMS}"))?;
                if value == 0.0 {
                    Magnitude::Zero
                } else {
                    if context != ValueContext::Near && FloatType::Half.round(value) != value {
                        return Err(format!(
                            "`{text}` is not exactly representable in half, float and double; \
                             only results after `~` may be inexact"
                        ));
                    }
                    Magnitude::Decimal(value)
                }
            }
        }
    };
    Ok(magnitude)
}

/// Digits with an optional fraction: `3`, `0.5`, `0.70710678`.
fn parse_decimal(text: &str) -> Option<f64> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let well_formed = match text.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(text),
    };
    if well_formed {
        text.parse().ok()
    } else {
        None
    }
}

/// An optionally negative whole number.
fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The E of `2^E`: an integer, `emin`, `emax` or `p`, or a parenthesised sum of them
/// (`(emin-p+1)`).
fn parse_exponent(text: &str) -> Result<Exponent, String> {
    let bad = || {
        format!(
            "cannot read the exponent `{text}`: expected an integer, `emin`, `emax`, `p`, or a \
             parenthesised sum such as `(emin-p+1)`"
        )
    };
    let (body, grouped) = match text.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => (inner, true),
        None => (text, false),
    };
    // Signed terms: `emin-p+1` is +emin, -p, +1; a sign may only open the first term.
    let mut terms: Vec<(bool, String)> = Vec::new();
    let mut current = String::new();
    let mut negative = false;
    for c in body.chars() {
        if c == '+' || c == '-' {
            let term = current.trim();
            if term.is_empty() {
                if !terms.is_empty() || negative {
                    return Err(bad());
                }
            } else {
                terms.push((negative, term.to_string()));
                current.clear();
            }
            negative = c == '-';
        } else {
            current.push(c);
        }
    }
    let term = current.trim();
    if term.is_empty() {
        return Err(bad());
    }
    terms.push((negative, term.to_string()));
    if !grouped && terms.len() != 1 {
        return Err(bad());
    }
    let mut exponent = Exponent::default();
    for (negative, term) in terms {
        let unit = if negative { -1 } else { 1 };
        match term.as_str() {
            "p" => exponent.p += unit,
            "emin" => exponent.emin += unit,
            "emax" => exponent.emax += unit,
            digits => {
                let n = parse_decimal(digits)
                    .filter(|n| n.fract() == 0.0 && *n <= 4096.0)
                    .ok_or_else(bad)?;
                exponent.constant += unit * n as i32;
            }
        }
    }
    Ok(exponent)
}

/// Reads a result cell for a result of `kind`.
fn parse_outcome(
    kind: OutputKind,
    text: &str,
    vector_width: Option<usize>,
) -> Result<Outcome, String> {
    if text == "*" {
        return Ok(Outcome::Any);
    }
    match kind {
        OutputKind::Int => parse_integer_outcome(text),
        OutputKind::Float => parse_float_outcome(text),
        OutputKind::Vector => {
            if text == "v" {
                return Ok(Outcome::InputVector);
            }
            let inner = text
                .strip_prefix('(')
                .and_then(|rest| rest.strip_suffix(')'))
                .ok_or_else(|| {
                    format!(
                        "cannot read `{text}`: a vector result is `v` (the input vector) or \
                         `(a, b, c, d)`"
                    )
                })?;
            let elements = inner
                .split(',')
                .map(|element| parse_float_outcome(element.trim()))
                .collect::<Result<Vec<Outcome>, String>>()?;
            if Some(elements.len()) != vector_width {
                return Err(format!(
                    "the vector `{text}` has {} elements, the input {}",
                    elements.len(),
                    vector_width.map_or("is not a vector".to_string(), |w| format!("has {w}"))
                ));
            }
            Ok(Outcome::Vector(elements))
        }
    }
}

fn parse_integer_outcome(text: &str) -> Result<Outcome, String> {
    let min = i64::from(i32::MIN);
    let max = i64::from(i32::MAX);
    Ok(match text {
        "INT_MAX" => Outcome::Integer(max),
        "INT_MIN" => Outcome::Integer(min),
        // C99 7.12 paragraph 8: FP_ILOGB0 is INT_MIN or -INT_MAX, FP_ILOGBNAN INT_MAX or INT_MIN.
        "FP_ILOGB0" => Outcome::IntegerOneOf("FP_ILOGB0", vec![min, -max]),
        "FP_ILOGBNAN" => Outcome::IntegerOneOf("FP_ILOGBNAN", vec![max, min]),
        _ => match parse_integer(text) {
            Some(n) if (min..=max).contains(&n) => Outcome::Integer(n),
            _ => {
                return Err(format!(
                    "cannot read `{text}` as an integer result: expected an integer (`0`), \
                     `INT_MAX`, `INT_MIN`, `FP_ILOGB0`, `FP_ILOGBNAN` or `*`"
                ))
            }
        },
    })
}

const OUTCOME_FORMS: &str = "`*`, `nan`, `nan operand`, an exact value (`+0`, `±inf`, `∓0`, \
    `0.5`, `±pi/2`, `+denorm_min`, ...), `~E` (close to E), `±any`, `x`, `|x|`, `-|x|` or \
    `in [a, b)`";

fn parse_float_outcome(text: &str) -> Result<Outcome, String> {
    let single_var = |s: &str| -> Option<char> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c @ ('x' | 'y' | 'z' | 'n')), None) => Some(c),
            _ => None,
        }
    };
    if let Some(var) = single_var(text) {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::Same,
        });
    }
    if let Some(var) = text
        .strip_prefix('|')
        .and_then(|r| r.strip_suffix('|'))
        .and_then(single_var)
    {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::Magnitude,
        });
    }
    if let Some(var) = text
        .strip_prefix("-|")
        .and_then(|r| r.strip_suffix('|'))
        .and_then(single_var)
    {
        return Ok(Outcome::Argument {
            var,
            form: ArgumentForm::NegatedMagnitude,
        });
    }
    match text {
        "*" => return Ok(Outcome::Any),
        "nan" => return Ok(Outcome::Nan),
        "nan operand" => return Ok(Outcome::NanOperand),
        "±any" => return Ok(Outcome::SignOnly(Sign::PlusMinus)),
        "+any" => return Ok(Outcome::SignOnly(Sign::Plus)),
        "-any" => return Ok(Outcome::SignOnly(Sign::Minus)),
        _ => {}
    }
    if let Some(range) = text.strip_prefix("in [").and_then(|r| r.strip_suffix(')')) {
        let bounds = range.split_once(',').and_then(|(a, b)| {
            Some((
                parse_signed_decimal(a.trim())?,
                parse_signed_decimal(b.trim())?,
            ))
        });
        return match bounds {
            Some((low, high)) if low < high => Ok(Outcome::HalfOpen(low, high)),
            _ => Err(format!(
                "cannot read `{text}`: expected `in [a, b)` with numbers a < b"
            )),
        };
    }
    if let Some(rest) = text.strip_prefix('~') {
        let (sign, magnitude) = parse_value(rest.trim(), ValueContext::Near)?;
        if matches!(magnitude, Magnitude::Zero | Magnitude::Infinity) {
            return Err(format!(
                "cannot read `{text}`: `~` needs a finite non-zero value; write the exact zero or \
                 infinity without `~`"
            ));
        }
        return Ok(Outcome::Near(sign, magnitude));
    }
    if text == "any" || text == "0" || text == "inf" {
        let hint = if text == "any" {
            "write `*` for an unconstrained result, or `±any`".to_string()
        } else {
            format!("a zero or an infinity needs its sign: `+{text}`, `-{text}` or `±{text}`")
        };
        return Err(format!("cannot read `{text}`: {hint}"));
    }
    let (sign, magnitude) = parse_value(text, ValueContext::Result)
        .map_err(|m| format!("{m}; a result is one of {OUTCOME_FORMS}"))?;
    Ok(Outcome::Value(sign, magnitude))
}

fn parse_signed_decimal(text: &str) -> Option<f64> {
    match text.strip_prefix('-') {
        Some(rest) => parse_decimal(rest).map(|v| -v),
        None => parse_decimal(text),
    }
}

/// Reads the outputs cell: `name=value` pairs separated by `;`, one per out-parameter; an
/// out-parameter left out is unconstrained.
fn parse_out_parameters(
    signature: &Signature,
    cell: &str,
    vector_width: Option<usize>,
) -> Result<Vec<Outcome>, String> {
    let parameters = &signature.outputs[1..];
    let mut outcomes = vec![Outcome::Any; parameters.len()];
    let mut given = vec![false; parameters.len()];
    if cell.is_empty() {
        return Ok(outcomes);
    }
    for part in cell.split(';').map(str::trim) {
        let Some((name, value)) = part.split_once('=') else {
            return Err(format!(
                "cannot read `{part}`: expected `name=value` (e.g. `iptr=+0`, `exp=0`)"
            ));
        };
        let name = name.trim();
        let Some(index) = parameters.iter().position(|(n, _)| *n == name) else {
            let names: Vec<String> = parameters.iter().map(|(n, _)| format!("`{n}`")).collect();
            return Err(format!(
                "`{}` has no out-parameter `{name}`{}",
                signature.name,
                if names.is_empty() {
                    ": leave the outputs cell empty".to_string()
                } else {
                    format!("; it has {}", names.join(", "))
                }
            ));
        };
        if given[index] {
            return Err(format!("`{name}` is given twice"));
        }
        given[index] = true;
        outcomes[index] = parse_outcome(parameters[index].1, value.trim(), vector_width)
            .map_err(|m| format!("`{name}`: {m}"))?;
    }
    Ok(outcomes)
}

// ---------------------------------------------------------------------------------------------
// Cases: rules expanded to concrete inputs, and the judgement of a device's results.
// ---------------------------------------------------------------------------------------------

/// What one result of one case must be.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// Exactly this value, sign of zero included (never a NaN).
    Exact(f64),
    /// The correctly rounded value of a constant the type cannot hold (`pi/2`), computed with
    /// MPFR at the type's precision: bit for bit, like `Exact`.
    CorrectlyRounded { value: f64, of: String },
    /// Any NaN: "returns a NaN".
    AnyNan,
    /// "one of the NaN operands" or "the NaN": the arguments at these indices are the NaNs. Any
    /// NaN is accepted: the spec lets a signaling NaN be quieted and leaves "the rest of the NaN
    /// payload bits or the sign of NaN" undefined, so no bit of the result can be required.
    OneOfNanOperands(Vec<usize>),
    /// This integer (an integer result handed over as an exact `f64`).
    Integer(i64),
    /// One of these integers (`FP_ILOGB0`: INT_MIN or -INT_MAX).
    OneOfIntegers { name: String, values: Vec<i64> },
    /// Any non-NaN value with this sign bit (C99: "returns a result with the same sign as x").
    Signed { negative: bool },
    /// `low <= result < high`, compared as numbers (so -0 counts as 0); not a NaN.
    HalfOpen { low: f64, high: f64 },
    /// A finite result with |result - value| <= max_relative_error·|value|: the geometric
    /// functions' "without overflow or extraordinary precision loss due to underflow".
    Near { value: f64, max_relative_error: f64 },
    /// Anything: the rule does not constrain this result.
    Any,
}

impl Expected {
    /// Whether `device_result` satisfies this expectation; `args` are the case's arguments.
    pub fn accepts(&self, device_result: f64, args: &[f64]) -> bool {
        // No expectation needs the arguments yet: the one that refers to them (a NaN operand)
        // cannot check a payload the spec leaves undefined. They are part of the signature so
        // that such a check needs no change of callers.
        let _ = args;
        let r = device_result;
        match self {
            Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => {
                !r.is_nan() && r == *v && r.is_sign_negative() == v.is_sign_negative()
            }
            Expected::AnyNan => r.is_nan(),
            // The indices only document which operands were NaNs; see the variant's doc.
            Expected::OneOfNanOperands(_) => r.is_nan(),
            Expected::Integer(n) => r == *n as f64,
            Expected::OneOfIntegers { values, .. } => values.iter().any(|n| r == *n as f64),
            Expected::Signed { negative } => !r.is_nan() && r.is_sign_negative() == *negative,
            Expected::HalfOpen { low, high } => *low <= r && r < *high,
            Expected::Near {
                value,
                max_relative_error,
            } => r.is_finite() && (r - value).abs() <= max_relative_error * value.abs(),
            Expected::Any => true,
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Exact(v) => f.write_str(&show(*v)),
            Expected::CorrectlyRounded { value, of } => {
                write!(f, "{} ({of} correctly rounded)", show(*value))
            }
            Expected::AnyNan => f.write_str("a NaN"),
            Expected::OneOfNanOperands(indices) => {
                let list: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
                write!(
                    f,
                    "a NaN (one of the NaN operands: argument {})",
                    list.join(", ")
                )
            }
            Expected::Integer(n) => write!(f, "{n}"),
            Expected::OneOfIntegers { name, values } => {
                let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                write!(f, "{name} ({})", list.join(" or "))
            }
            Expected::Signed { negative } => write!(
                f,
                "any non-NaN value with a {} sign",
                if *negative { "-" } else { "+" }
            ),
            Expected::HalfOpen { low, high } => write!(f, "a value in [{low}, {high})"),
            Expected::Near {
                value,
                max_relative_error,
            } => write!(
                f,
                "a finite value within a relative {} of {}",
                show(*max_relative_error),
                show(*value)
            ),
            Expected::Any => f.write_str("anything"),
        }
    }
}

/// Another set of acceptable results for a case: an `ftz` rule with the same inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub rule_file: String,
    pub rule_line: usize,
    pub expected: Vec<Expected>,
    pub rule_text: String,
}

/// One rule at one concrete input, in one element type.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeCase {
    pub function: String,
    pub rule_file: String,
    pub rule_line: usize,
    /// The arguments in order. An integer argument (`ldexp`'s n, `nan`'s code) is its exact
    /// value; a vector argument is `width` consecutive elements (`distance`: x's, then y's).
    pub args: Vec<f64>,
    /// The vector width of a geometric function's arguments; 1 for scalar functions.
    pub width: usize,
    /// One per result, in the [`Signature`]'s order; a vector result is `width` entries.
    pub expected: Vec<Expected>,
    /// Further acceptable results, each complete: filled only when expanding for a device that
    /// flushes subnormals, from the `ftz` rules ("Edge Case Behavior in Flush To Zero Mode").
    pub alternatives: Vec<Alternative>,
    /// The rule's source: the spec sentence or C99 clause.
    pub rule_text: String,
}

impl EdgeCase {
    /// Every acceptable result vector: the rule's own first, then the alternatives.
    pub fn acceptable(&self) -> impl Iterator<Item = &[Expected]> {
        std::iter::once(self.expected.as_slice())
            .chain(self.alternatives.iter().map(|a| a.expected.as_slice()))
    }
}

/// The relative tolerance of `~` results: 2^-floor(p/2) (2^-5 half, 2^-12 float, 2^-26 double).
/// Loose enough for any implementation within the accuracy tables, tight enough to catch an
/// overflow to infinity, a flush to zero or a result that lost half its bits to underflow.
pub fn near_tolerance(element: FloatType) -> f64 {
    pow2(-(element.precision() as i32 / 2))
}

/// Every rule of `function` in the built-in data, expanded for `element`. With
/// `flush_to_zero` (a device without denormals for the type), inputs that are subnormal are
/// left out (the device would see a zero of either sign, so no prescribed result applies), and
/// the `ftz` rules are attached to the cases they may replace as [`EdgeCase::alternatives`].
/// An unknown function has no cases.
pub fn cases(function: &str, element: FloatType, flush_to_zero: bool) -> Vec<EdgeCase> {
    expand(builtin(), function, element, flush_to_zero)
}

/// [`cases`] over any rules (a user's file read with [`parse`]). An `ftz` rule whose inputs
/// match no `always` case is dropped: it can only widen what an `always` rule accepts.
pub fn expand(
    rules: &[EdgeRule],
    function: &str,
    element: FloatType,
    flush_to_zero: bool,
) -> Vec<EdgeCase> {
    let mut cases: Vec<EdgeCase> = rules
        .iter()
        .filter(|r| r.function == function && r.applies == Applies::Always)
        .flat_map(|r| expand_rule(r, element, flush_to_zero))
        .collect();
    if flush_to_zero {
        let alternatives = rules
            .iter()
            .filter(|r| r.function == function && r.applies == Applies::FlushToZero)
            .flat_map(|r| expand_rule(r, element, true));
        for alternative in alternatives {
            for case in cases
                .iter_mut()
                .filter(|c| same_bits(&c.args, &alternative.args))
            {
                case.alternatives.push(Alternative {
                    rule_file: alternative.rule_file.clone(),
                    rule_line: alternative.rule_line,
                    expected: alternative.expected.clone(),
                    rule_text: alternative.rule_text.clone(),
                });
            }
        }
    }
    cases
}

/// The functions the built-in rules cover, each once, in the data's order.
pub fn functions() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for rule in builtin() {
        if !names.contains(&rule.function.as_str()) {
            names.push(rule.function.as_str());
        }
    }
    names
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Expands one rule: for a correlated rule once per sign of its `±` input, otherwise once;
/// each time the Cartesian product of the arguments' values, duplicates removed.
fn expand_rule(rule: &EdgeRule, element: FloatType, flush_to_zero: bool) -> Vec<EdgeCase> {
    let signature = signature(&rule.function).expect("parse checked the function");
    let row_signs: &[Option<bool>] = if rule.correlated {
        &[Some(false), Some(true)]
    } else {
        &[None]
    };
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut cases = Vec::new();
    for &row_sign in row_signs {
        let choices: Vec<Vec<Vec<f64>>> = rule
            .inputs
            .iter()
            .zip(signature.args)
            .map(|(input, kind)| input_values(input, *kind, element, row_sign))
            .collect();
        for args in cartesian(&choices) {
            let flat: Vec<f64> = args.iter().flatten().copied().collect();
            let floats_of = |(arg, kind): (&Vec<f64>, &ArgKind)| {
                if matches!(kind, ArgKind::Float | ArgKind::Vector) {
                    arg.clone()
                } else {
                    Vec::new()
                }
            };
            let has_subnormal = args
                .iter()
                .zip(signature.args)
                .flat_map(floats_of)
                .any(|v| element.is_subnormal(v));
            if flush_to_zero && has_subnormal {
                continue;
            }
            if !seen.insert(flat.iter().map(|v| v.to_bits()).collect()) {
                continue;
            }
            let width = args
                .iter()
                .zip(signature.args)
                .find(|(_, kind)| **kind == ArgKind::Vector)
                .map_or(1, |(arg, _)| arg.len());
            let expected = rule
                .outputs
                .iter()
                .zip(signature.outputs)
                .flat_map(|(outcome, (_, kind))| {
                    resolve(
                        outcome,
                        *kind,
                        element,
                        rule,
                        &args,
                        row_sign.unwrap_or(false),
                        width,
                    )
                })
                .collect();
            cases.push(EdgeCase {
                function: rule.function.clone(),
                rule_file: rule.file.clone(),
                rule_line: rule.line,
                args: flat,
                width,
                expected,
                alternatives: Vec::new(),
                rule_text: rule.source.clone(),
            });
        }
    }
    cases
}

/// The values one argument takes: each entry is one argument value (one element, or a
/// vector's elements). `row_sign` is the sign of a correlated row's `±` (`Some(true)`:
/// negative); `None` lets every `±` take both signs.
fn input_values(
    input: &Input,
    kind: ArgKind,
    element: FloatType,
    row_sign: Option<bool>,
) -> Vec<Vec<f64>> {
    let signs = |base: Vec<f64>, plus_minus: bool| -> Vec<f64> {
        match (plus_minus, row_sign) {
            (false, _) => base,
            (true, Some(negative)) => base
                .into_iter()
                .map(|v| if negative { -v } else { v })
                .collect(),
            (true, None) => {
                let mut both = base.clone();
                both.extend(base.iter().map(|v| -v));
                both
            }
        }
    };
    let scalars: Vec<f64> = match input {
        Input::Value(sign, magnitude) => {
            let v = magnitude.value(element);
            match sign {
                Sign::Plus => vec![v],
                Sign::Minus => vec![-v],
                _ => signs(vec![v], true),
            }
        }
        Input::Nan => vec![f64::NAN],
        Input::Integer(n) => vec![*n as f64],
        Input::Class {
            class, plus_minus, ..
        } => {
            let base = match kind {
                ArgKind::Int | ArgKind::UInt => class
                    .integer_values(kind, element)
                    .expect("parse checked the class")
                    .into_iter()
                    .map(|n| n as f64)
                    .collect(),
                _ => class
                    .float_values(element)
                    .expect("parse checked the class"),
            };
            signs(base, *plus_minus)
        }
        Input::Vector(elements) => {
            // Vector elements never take part in a correlated sign (parse refuses it).
            let per_element: Vec<Vec<Vec<f64>>> = elements
                .iter()
                .map(|e| input_values(e, ArgKind::Float, element, None))
                .collect();
            return cartesian(&per_element)
                .into_iter()
                .map(|parts| parts.into_iter().flatten().collect())
                .collect();
        }
    };
    scalars.into_iter().map(|v| vec![v]).collect()
}

/// Every combination taking one entry from each list, the first list varying slowest.
fn cartesian<T: Clone>(lists: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut product: Vec<Vec<T>> = vec![Vec::new()];
    for list in lists {
        product = product
            .iter()
            .flat_map(|prefix| {
                list.iter().map(move |item| {
                    let mut next = prefix.clone();
                    next.push(item.clone());
                    next
                })
            })
            .collect();
    }
    product
}

/// The concrete expectations of one outcome (a vector outcome gives `width` of them).
fn resolve(
    outcome: &Outcome,
    kind: OutputKind,
    element: FloatType,
    rule: &EdgeRule,
    args: &[Vec<f64>],
    row_negative: bool,
    width: usize,
) -> Vec<Expected> {
    let signed = |sign: &Sign, magnitude: &Magnitude| {
        let v = magnitude.value(element);
        if sign.negative(row_negative) {
            -v
        } else {
            v
        }
    };
    let nan_or_exact = |v: f64| {
        if v.is_nan() {
            Expected::AnyNan
        } else {
            Expected::Exact(v)
        }
    };
    let one = match outcome {
        Outcome::Any if kind == OutputKind::Vector => return vec![Expected::Any; width],
        Outcome::Any => Expected::Any,
        Outcome::Nan => Expected::AnyNan,
        Outcome::NanOperand => Expected::OneOfNanOperands(
            args.iter()
                .enumerate()
                .filter(|(_, a)| a.len() == 1 && a[0].is_nan())
                .map(|(i, _)| i)
                .collect(),
        ),
        Outcome::Value(sign, magnitude) => {
            let value = signed(sign, magnitude);
            if let Magnitude::Pi { times, over } = magnitude {
                let mut of = String::new();
                if sign.negative(row_negative) {
                    of.push('-');
                }
                if *times != 1 {
                    of.push_str(&times.to_string());
                }
                of.push_str("pi");
                if *over != 1 {
                    of.push_str(&format!("/{over}"));
                }
                Expected::CorrectlyRounded { value, of }
            } else {
                Expected::Exact(value)
            }
        }
        Outcome::Near(sign, magnitude) => Expected::Near {
            value: signed(sign, magnitude),
            max_relative_error: near_tolerance(element),
        },
        Outcome::SignOnly(sign) => Expected::Signed {
            negative: sign.negative(row_negative),
        },
        Outcome::Argument { var, form } => {
            let index = rule
                .inputs
                .iter()
                .position(|i| matches!(i, Input::Class { var: Some(v), .. } if v == var))
                .expect("parse checked the variable");
            let a = args[index][0];
            nan_or_exact(match form {
                ArgumentForm::Same => a,
                ArgumentForm::Magnitude => a.abs(),
                ArgumentForm::NegatedMagnitude => -a.abs(),
            })
        }
        Outcome::HalfOpen(low, high) => Expected::HalfOpen {
            low: *low,
            high: *high,
        },
        Outcome::Integer(n) => Expected::Integer(*n),
        Outcome::IntegerOneOf(name, values) => Expected::OneOfIntegers {
            name: name.to_string(),
            values: values.clone(),
        },
        Outcome::Vector(elements) => {
            return elements
                .iter()
                .flat_map(|e| resolve(e, OutputKind::Float, element, rule, args, row_negative, 1))
                .collect()
        }
        Outcome::InputVector => {
            let vector = rule
                .inputs
                .iter()
                .position(|i| matches!(i, Input::Vector(_)))
                .expect("parse checked the vector input");
            return args[vector].iter().map(|v| nan_or_exact(*v)).collect();
        }
    };
    vec![one]
}

/// A value for messages: `+0`, `-0`, `+inf`, `-inf`, `nan`, otherwise C99 hex (`0x1p-149`).
fn show(value: f64) -> String {
    if value.is_nan() {
        "nan".to_string()
    } else if value == 0.0 || value.is_infinite() {
        format!(
            "{}{}",
            if value.is_sign_negative() { "-" } else { "+" },
            if value == 0.0 { "0" } else { "inf" }
        )
    } else {
        hexfloat::format_f64(value)
    }
}

/// `sin(-0)`, `distance((a, b), (c, d))`: the call, arguments as [`show`] prints them.
fn describe_call(case: &EdgeCase) -> String {
    let kinds = signature(&case.function).map_or(&[][..], |s| s.args);
    let mut parts = Vec::new();
    let mut next = 0;
    for kind in kinds {
        let take = if *kind == ArgKind::Vector {
            case.width
        } else {
            1
        };
        let values = case.args.get(next..next + take).unwrap_or(&[]);
        next += take;
        let shown: Vec<String> = values
            .iter()
            .map(|v| match kind {
                ArgKind::Int | ArgKind::UInt => format!("{}", *v as i64),
                _ => show(*v),
            })
            .collect();
        parts.push(if *kind == ArgKind::Vector {
            format!("({})", shown.join(", "))
        } else {
            shown.join("")
        });
    }
    format!("{}({})", case.function, parts.join(", "))
}

/// The name of each result position: `result`, `exp`; a vector result's `result[i]`.
fn output_names(case: &EdgeCase) -> Vec<String> {
    let outputs = signature(&case.function).map_or(&[][..], |s| s.outputs);
    let mut names = Vec::new();
    for (name, kind) in outputs {
        match kind {
            OutputKind::Vector => names.extend((0..case.width).map(|i| format!("{name}[{i}]"))),
            _ => names.push(name.to_string()),
        }
    }
    names
}

/// Judges a device's results for one case: `None` if they satisfy the rule (or, on a
/// flush-to-zero device, one of its alternatives); otherwise a message naming the call, what
/// came back, what each acceptable rule required, and each rule's location and source text.
/// `device_results` holds one value per [`EdgeCase::expected`] entry (integer results as exact
/// `f64`s).
pub fn check(case: &EdgeCase, device_results: &[f64]) -> Option<String> {
    let names = output_names(case);
    let name = |i: usize| {
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("output {i}"))
    };
    if device_results.len() != case.expected.len() {
        return Some(format!(
            "{}: {} results given, {} expected (rule {}:{}: \"{}\")",
            describe_call(case),
            device_results.len(),
            case.expected.len(),
            case.rule_file,
            case.rule_line,
            case.rule_text
        ));
    }
    let satisfied = |expected: &[Expected]| {
        expected
            .iter()
            .zip(device_results)
            .all(|(e, r)| e.accepts(*r, &case.args))
    };
    if case.acceptable().any(satisfied) {
        return None;
    }
    let is_integer =
        |e: &Expected| matches!(e, Expected::Integer(_) | Expected::OneOfIntegers { .. });
    let got: Vec<String> = device_results
        .iter()
        .zip(&case.expected)
        .enumerate()
        .map(|(i, (r, e))| {
            let value = if is_integer(e) && r.fract() == 0.0 {
                format!("{}", *r as i64)
            } else {
                show(*r)
            };
            format!("{} = {value}", name(i))
        })
        .collect();
    let wanted = |expected: &[Expected]| -> String {
        let parts: Vec<String> = expected
            .iter()
            .zip(device_results)
            .enumerate()
            .filter(|(_, (e, r))| !e.accepts(**r, &case.args))
            .map(|(i, (e, _))| format!("{} = {e}", name(i)))
            .collect();
        parts.join(", ")
    };
    let mut message = format!(
        "{} gave {}; rule {}:{} (\"{}\") requires {}",
        describe_call(case),
        got.join(", "),
        case.rule_file,
        case.rule_line,
        case.rule_text,
        wanted(&case.expected)
    );
    for alternative in &case.alternatives {
        message.push_str(&format!(
            "; the flush-to-zero alternative {}:{} (\"{}\") requires {}",
            alternative.rule_file,
            alternative.rule_line,
            alternative.rule_text,
            wanted(&alternative.expected)
        ));
    }
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::table::{self, Profile};

    const SPEC: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/spec/003_606d5394990817d6.txt"
    );

    fn spec_text() -> String {
        std::fs::read_to_string(SPEC).unwrap_or_else(|e| {
            panic!(
                "cannot read the spec at {SPEC} ({e}); the edge-case transcription check needs it"
            )
        })
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

    // ---- 3. Expansion ----

    fn has(cases: &[EdgeCase], args: &[f64], expected: &[Expected]) -> bool {
        cases
            .iter()
            .any(|c| same_bits(&c.args, args) && c.expected == expected)
    }

    #[test]
    fn sin_expands_to_signed_zeros_and_nans() {
        let sin = cases("sin", FloatType::Float, false);
        assert!(has(&sin, &[0.0], &[Expected::Exact(0.0)]));
        assert!(has(&sin, &[-0.0], &[Expected::Exact(-0.0)]));
        assert!(has(&sin, &[f64::INFINITY], &[Expected::AnyNan]));
        assert!(has(&sin, &[f64::NEG_INFINITY], &[Expected::AnyNan]));
        let minus_zero = sin.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
        assert_eq!(minus_zero.rule_text, "C99 F.9.1.6");
        assert_eq!(minus_zero.rule_file, BUILTIN_SOURCE);
        assert!(minus_zero.alternatives.is_empty());
        assert!(cases("no_such_function", FloatType::Float, false).is_empty());
    }

    #[test]
    fn pow_of_minus_zero_and_odd_negative_integers_is_minus_infinity() {
        let pow = cases("pow", FloatType::Double, false);
        let odd: Vec<f64> = pow
            .iter()
            .filter(|c| {
                c.args[0] == 0.0
                    && c.args[0].is_sign_negative()
                    && c.expected == [Expected::Exact(f64::NEG_INFINITY)]
            })
            .map(|c| c.args[1])
            .collect();
        for y in [-1.0, -3.0, -(2f64.powi(53) - 1.0)] {
            assert!(odd.contains(&y), "pow(-0, {y}) missing from {odd:?}");
        }
        assert!(odd
            .iter()
            .all(|y| y.fract() == 0.0 && (y % 2.0).abs() == 1.0));
        // pow(+0, odd negative) is +inf, and pow(±0, -inf) = +inf from both sources.
        assert!(has(&pow, &[0.0, -3.0], &[Expected::Exact(f64::INFINITY)]));
        assert!(has(
            &pow,
            &[-0.0, f64::NEG_INFINITY],
            &[Expected::Exact(f64::INFINITY)]
        ));
        // pow(x, ±0) = 1 even for a NaN x.
        assert!(has(&pow, &[f64::NAN, -0.0], &[Expected::Exact(1.0)]));
    }

    /// Every rule of every function, each type, both modes.
    fn all_cases() -> Vec<(FloatType, bool, EdgeCase)> {
        let mut all = Vec::new();
        for element in FloatType::ALL {
            for flush in [false, true] {
                for function in functions() {
                    for case in cases(function, element, flush) {
                        all.push((element, flush, case));
                    }
                }
            }
        }
        all
    }

    #[test]
    fn every_input_and_exact_result_is_a_value_of_its_type() {
        let all = all_cases();
        assert!(all.len() > 5000, "{} cases", all.len());
        for (element, flush, case) in &all {
            let signature = signature(&case.function).unwrap();
            let mut next = 0;
            for kind in signature.args {
                let take = if *kind == ArgKind::Vector {
                    case.width
                } else {
                    1
                };
                for &x in &case.args[next..next + take] {
                    let ok = match kind {
                        ArgKind::Float | ArgKind::Vector => {
                            x.is_nan() || element.round(x).to_bits() == x.to_bits()
                        }
                        ArgKind::Int => x.fract() == 0.0 && i32::try_from(x as i64).is_ok(),
                        ArgKind::UInt => {
                            x.fract() == 0.0 && x >= 0.0 && x < 2f64.powi(element.bits() as i32)
                        }
                    };
                    assert!(
                        ok,
                        "{element} {}: argument {x} is not a value of its kind",
                        case.function
                    );
                    if *flush && matches!(kind, ArgKind::Float | ArgKind::Vector) {
                        assert!(
                            !element.is_subnormal(x),
                            "{element} FTZ {}: subnormal {x}",
                            case.function
                        );
                    }
                }
                next += take;
            }
            assert_eq!(next, case.args.len(), "{}", case.function);
            let outputs: usize = signature
                .outputs
                .iter()
                .map(|(_, k)| {
                    if *k == OutputKind::Vector {
                        case.width
                    } else {
                        1
                    }
                })
                .sum();
            assert_eq!(case.expected.len(), outputs, "{}", case.function);
            for expected in case.acceptable().flatten() {
                match expected {
                    Expected::Exact(v) | Expected::CorrectlyRounded { value: v, .. } => assert!(
                        !v.is_nan() && element.round(*v).to_bits() == v.to_bits(),
                        "{element} {}: expected {v} is not a {element}",
                        case.function
                    ),
                    Expected::OneOfNanOperands(indices) => assert!(
                        !indices.is_empty() && indices.iter().all(|&i| case.args[i].is_nan()),
                        "{element} {}{:?}: `nan operand` without a NaN operand",
                        case.function,
                        case.args
                    ),
                    _ => {}
                }
            }
        }
    }

    /// Two rules that cover the same input must agree: each exact (or NaN, or integer) value
    /// one requires must satisfy the other.
    #[test]
    fn overlapping_rules_agree() {
        let mut problems = Vec::new();
        for element in FloatType::ALL {
            for function in functions() {
                let all = cases(function, element, false);
                for a in &all {
                    for b in all.iter().filter(|b| same_bits(&a.args, &b.args)) {
                        for (i, (ea, eb)) in a.expected.iter().zip(&b.expected).enumerate() {
                            let value = match ea {
                                Expected::Exact(v)
                                | Expected::CorrectlyRounded { value: v, .. } => *v,
                                Expected::AnyNan | Expected::OneOfNanOperands(_) => f64::NAN,
                                Expected::Integer(n) => *n as f64,
                                _ => continue,
                            };
                            if !eb.accepts(value, &b.args) {
                                problems.push(format!(
                                    "{element} {function}{:?} output {i}: line {} wants {ea}, line {} wants {eb}",
                                    a.args, a.rule_line, b.rule_line
                                ));
                            }
                        }
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn signs_follow_the_row() {
        let tanpi = cases("tanpi", FloatType::Half, false);
        assert!(has(&tanpi, &[3.0], &[Expected::Exact(-0.0)]));
        assert!(has(&tanpi, &[-3.0], &[Expected::Exact(0.0)]));
        assert!(has(&tanpi, &[-4.0], &[Expected::Exact(-0.0)]));
        assert!(
            has(&tanpi, &[2047.0], &[Expected::Exact(-0.0)]),
            "largest odd half"
        );
        assert!(has(
            &tanpi,
            &[1023.5],
            &[Expected::Exact(f64::NEG_INFINITY)]
        ));
        assert!(has(&tanpi, &[1022.5], &[Expected::Exact(f64::INFINITY)]));
        // Independent signs: powr(±0, ±0) is all four pairs.
        let powr = cases("powr", FloatType::Float, false);
        for (x, y) in [(0.0, 0.0), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0)] {
            assert!(has(&powr, &[x, y], &[Expected::AnyNan]), "powr({x}, {y})");
        }
        // A `±` class: atan2pi(±y, -inf) = ±1 for finite y > 0, at tiny, 1 and huge y.
        let atan2pi = cases("atan2pi", FloatType::Float, false);
        for y in [2f64.powi(-149), 1.0, f64::from(f32::MAX)] {
            assert!(has(
                &atan2pi,
                &[y, f64::NEG_INFINITY],
                &[Expected::Exact(1.0)]
            ));
            assert!(has(
                &atan2pi,
                &[-y, f64::NEG_INFINITY],
                &[Expected::Exact(-1.0)]
            ));
        }
        // Results computed from an argument: fmod(x, ±inf) = x, hypot(x, ±0) = |x|.
        let fmod = cases("fmod", FloatType::Double, false);
        assert!(has(&fmod, &[-1.5, f64::INFINITY], &[Expected::Exact(-1.5)]));
        let hypot = cases("hypot", FloatType::Double, false);
        assert!(has(
            &hypot,
            &[-f64::MAX, -0.0],
            &[Expected::Exact(f64::MAX)]
        ));
        assert!(has(&hypot, &[f64::NAN, 0.0], &[Expected::AnyNan]));
    }

    #[test]
    fn pi_results_are_correctly_rounded_in_each_type() {
        let rounded = |element: FloatType| {
            cases("atan2", element, false)
                .into_iter()
                .find(|c| same_bits(&c.args, &[0.0, -0.0]))
                .unwrap()
                .expected[0]
                .clone()
        };
        let pi = |e: Expected| match e {
            Expected::CorrectlyRounded { value, of } => {
                assert_eq!(of, "pi");
                value
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(pi(rounded(FloatType::Double)), std::f64::consts::PI);
        assert_eq!(
            pi(rounded(FloatType::Float)),
            f64::from(std::f32::consts::PI)
        );
        assert_eq!(pi(rounded(FloatType::Half)), half::f16::PI.to_f64());
        let atan2 = cases("atan2", FloatType::Float, false);
        let three_quarters = atan2
            .iter()
            .find(|c| same_bits(&c.args, &[f64::NEG_INFINITY, f64::NEG_INFINITY]))
            .unwrap();
        assert_eq!(
            three_quarters.expected,
            [Expected::CorrectlyRounded {
                value: f64::from(-3.0 * std::f32::consts::FRAC_PI_4),
                of: "-3pi/4".to_string()
            }]
        );
    }

    #[test]
    fn integer_arguments_and_results() {
        let ilogb = cases("ilogb", FloatType::Float, false);
        let zero = ilogb.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
        assert!(check(zero, &[f64::from(i32::MIN)]).is_none());
        assert!(check(zero, &[-f64::from(i32::MAX)]).is_none());
        assert!(check(zero, &[0.0]).unwrap().contains("FP_ILOGB0"));
        let rootn = cases("rootn", FloatType::Half, false);
        assert!(has(
            &rootn,
            &[-0.0, -f64::from(i32::MAX)],
            &[Expected::Exact(f64::NEG_INFINITY)]
        ));
        assert!(has(
            &rootn,
            &[-0.0, f64::from(i32::MIN)],
            &[Expected::Exact(f64::INFINITY)]
        ));
        let frexp = cases("frexp", FloatType::Double, false);
        assert!(has(
            &frexp,
            &[f64::NEG_INFINITY],
            &[Expected::Exact(f64::NEG_INFINITY), Expected::Integer(0)]
        ));
        let nan = cases("nan", FloatType::Half, false);
        assert_eq!(nan.len(), 3);
        assert!(nan.iter().all(|c| c.expected == [Expected::AnyNan]));
    }

    #[test]
    fn vectors_are_expanded_at_their_width() {
        let length = cases("length", FloatType::Float, false);
        let huge = length
            .iter()
            .find(|c| c.args == [2f64.powi(126); 4])
            .expect("length of huge components");
        assert_eq!(huge.width, 4);
        assert!(check(huge, &[2f64.powi(127)]).is_none());
        assert!(check(huge, &[2f64.powi(127) * (1.0 - 2f64.powi(-20))]).is_none());
        assert!(check(huge, &[f64::INFINITY])
            .unwrap()
            .contains("without overflow"));
        let tiny = length
            .iter()
            .find(|c| {
                c.args
                    == [
                        2f64.powi(-149),
                        2f64.powi(-149),
                        -(2f64.powi(-149)),
                        2f64.powi(-149),
                    ]
            })
            .expect("length of subnormal components");
        assert!(check(tiny, &[0.0]).is_some());
        assert!(check(tiny, &[2f64.powi(-148)]).is_none());
        // Without denormals, no subnormal vector is a case.
        assert!(cases("length", FloatType::Float, true)
            .iter()
            .all(|c| c.args.iter().all(|v| !FloatType::Float.is_subnormal(*v))));

        let normalize = cases("normalize", FloatType::Float, false);
        let zeros: Vec<&EdgeCase> = normalize
            .iter()
            .filter(|c| c.width == 4 && c.args.iter().all(|v| *v == 0.0))
            .collect();
        assert_eq!(zeros.len(), 16, "every sign pattern of the zero vector");
        // And at widths 1, 2 and 3 (the geometric functions take 1 to 4 components).
        for width in 1..=3 {
            let zeros = normalize
                .iter()
                .filter(|c| c.width == width && c.args.iter().all(|v| *v == 0.0))
                .count();
            assert_eq!(zeros, 1 << width, "zero vectors of width {width}");
            for function in ["length", "distance", "normalize"] {
                assert!(
                    cases(function, FloatType::Float, false)
                        .iter()
                        .any(|c| c.width == width),
                    "{function} has no case at width {width}"
                );
            }
        }
        for case in zeros {
            let expected: Vec<Expected> = case.args.iter().map(|v| Expected::Exact(*v)).collect();
            assert_eq!(case.expected, expected);
        }
        let infinite = normalize
            .iter()
            .find(|c| same_bits(&c.args, &[f64::INFINITY, 1.0, -2.0, 0.0]))
            .unwrap();
        assert!(check(infinite, &[1.0, 0.0, -0.0, 0.0]).is_none());
        let message = check(infinite, &[1.0, 0.0, 0.0, 0.0]).unwrap();
        assert!(message.contains("result[2] = -0"), "{message}");
        assert!(
            message.contains("normalize((+inf, 0x1p+0, -0x1p+1, +0))"),
            "{message}"
        );

        let distance = cases("distance", FloatType::Half, false);
        assert!(distance.iter().all(|c| c.args.len() == 2 * c.width));
        assert!(distance.iter().any(|c| c.width == 4));
    }

    #[test]
    fn flush_to_zero_alternatives_attach_to_their_cases() {
        let smallest = 2f64.powi(-126);
        let denorm_min = 2f64.powi(-149);
        let plain = cases("nextafter", FloatType::Float, false);
        assert!(plain.iter().all(|c| c.alternatives.is_empty()));
        assert!(has(&plain, &[-0.0, 1.0], &[Expected::Exact(denorm_min)]));
        assert!(plain
            .iter()
            .any(|c| same_bits(&c.args, &[-0.0, denorm_min])));

        let flushing = cases("nextafter", FloatType::Float, true);
        let case = flushing
            .iter()
            .find(|c| same_bits(&c.args, &[-0.0, 1.0]))
            .unwrap();
        assert_eq!(case.expected, [Expected::Exact(denorm_min)]);
        assert_eq!(case.alternatives.len(), 1);
        assert_eq!(case.alternatives[0].expected, [Expected::Exact(smallest)]);
        assert!(check(case, &[denorm_min]).is_none());
        assert!(check(case, &[smallest]).is_none());
        let message = check(case, &[0.0]).unwrap();
        assert!(
            message.contains("smallest positive denormal value"),
            "{message}"
        );
        assert!(
            message.contains("smallest positive normal value"),
            "{message}"
        );

        let down = flushing
            .iter()
            .find(|c| same_bits(&c.args, &[smallest, -1.0]))
            .unwrap();
        assert!(check(down, &[0.0]).is_none());
        assert!(check(down, &[smallest - denorm_min]).is_none());
        assert!(check(down, &[-0.0]).is_some());

        // Every `ftz` row widens some `always` case, in every type.
        for element in FloatType::ALL {
            for rule in builtin()
                .iter()
                .filter(|r| r.applies == Applies::FlushToZero)
            {
                let own = expand_rule(rule, element, true);
                assert!(!own.is_empty(), "line {}", rule.line);
                let all = cases(&rule.function, element, true);
                for alternative in own {
                    assert!(
                        all.iter().any(|c| same_bits(&c.args, &alternative.args)
                            && c.alternatives.iter().any(|a| a.rule_line == rule.line)),
                        "{element}: line {} at {:?} attaches to no case",
                        rule.line,
                        alternative.args
                    );
                }
            }
        }
    }

    // ---- 4. Judging ----

    #[test]
    fn check_names_the_rule_and_accepts_any_nan() {
        let sin = cases("sin", FloatType::Float, false);
        let minus_zero = sin.iter().find(|c| same_bits(&c.args, &[-0.0])).unwrap();
        assert!(check(minus_zero, &[-0.0]).is_none());
        let message = check(minus_zero, &[0.0]).expect("+0 for sin(-0)");
        assert!(message.contains("C99 F.9.1.6"), "{message}");
        assert!(message.contains("sin(-0) gave result = +0"), "{message}");
        assert!(message.contains("requires result = -0"), "{message}");
        assert!(message.contains(&format!("{BUILTIN_SOURCE}:{}", minus_zero.rule_line)));

        let infinity = sin
            .iter()
            .find(|c| same_bits(&c.args, &[f64::INFINITY]))
            .unwrap();
        for nan in [
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_0000_dead_beef),
        ] {
            assert!(check(infinity, &[nan]).is_none());
        }
        assert!(check(infinity, &[0.0]).unwrap().contains("a NaN"));
        assert!(check(infinity, &[0.0, 1.0])
            .unwrap()
            .contains("2 results given, 1 expected"));

        // "returns the NaN": any NaN, quieted or not, either sign.
        let fract = cases("fract", FloatType::Double, false);
        let nan = fract
            .iter()
            .find(|c| c.args[0].is_nan() && c.rule_text.starts_with("fract( NaN"))
            .unwrap();
        assert_eq!(nan.expected[0], Expected::OneOfNanOperands(vec![0]));
        assert!(check(nan, &[-f64::NAN, f64::NAN]).is_none());
        let message = check(nan, &[f64::NAN, 0.0]).unwrap();
        let required = message.split("requires").nth(1).unwrap();
        assert_eq!(
            required.trim(),
            "iptr = a NaN",
            "only the failing output: {message}"
        );

        // The OpenCL text, verbatim, in the message.
        let atanpi = cases("atanpi", FloatType::Half, false);
        let case = atanpi
            .iter()
            .find(|c| same_bits(&c.args, &[f64::NEG_INFINITY]))
            .unwrap();
        assert!(check(case, &[-0.5]).is_none());
        assert!(check(case, &[0.5])
            .unwrap()
            .contains("atanpi ( ±∞ ) = ±0.5."));
    }

    #[test]
    fn every_expectation_judges_as_documented() {
        use Expected::*;
        let args = [f64::NAN, 1.0];
        let table: Vec<(Expected, Vec<f64>, Vec<f64>)> = vec![
            (Exact(-0.0), vec![-0.0], vec![0.0, f64::NAN]),
            (Exact(f64::INFINITY), vec![f64::INFINITY], vec![f64::MAX]),
            (AnyNan, vec![f64::NAN, -f64::NAN], vec![0.0, f64::INFINITY]),
            (OneOfNanOperands(vec![0]), vec![f64::NAN], vec![1.0]),
            (Integer(0), vec![0.0, -0.0], vec![1.0, f64::NAN]),
            (
                OneOfIntegers {
                    name: "FP_ILOGBNAN".into(),
                    values: vec![2147483647, -2147483648],
                },
                vec![2147483647.0, -2147483648.0],
                vec![0.0, -2147483647.0],
            ),
            (
                Signed { negative: true },
                vec![-0.0, -1.0, f64::NEG_INFINITY],
                vec![0.0, -f64::NAN],
            ),
            (
                HalfOpen {
                    low: 0.0,
                    high: 1.0,
                },
                vec![0.0, -0.0, 0.5],
                vec![1.0, -1e-300, f64::NAN],
            ),
            (
                Near {
                    value: 2.0,
                    max_relative_error: 0.25,
                },
                vec![1.5, 2.5, 2.0],
                vec![1.4, f64::INFINITY, f64::NAN],
            ),
            (Any, vec![f64::NAN, 0.0, -1.0], vec![]),
        ];
        for (expected, accepted, refused) in table {
            for r in accepted {
                assert!(expected.accepts(r, &args), "{expected:?} refused {r}");
            }
            for r in refused {
                assert!(!expected.accepts(r, &args), "{expected:?} accepted {r}");
            }
        }
    }

    // ---- The value grammar ----

    #[test]
    fn named_values_and_powers_of_two() {
        let value = |text: &str, element: FloatType| {
            let (sign, magnitude) = parse_value(text, ValueContext::Input).unwrap();
            let v = magnitude.value(element);
            if sign == Sign::Minus {
                -v
            } else {
                v
            }
        };
        for element in FloatType::ALL {
            let p = element.precision() as i32;
            let dmin = element.from_bits(1);
            assert_eq!(value("denorm_min", element), dmin);
            assert_eq!(value("2^(emin-p+1)", element), dmin);
            assert_eq!(value("5*denorm_min", element), 5.0 * dmin);
            assert_eq!(value("smallest normal", element), 2f64.powi(element.emin()));
            assert_eq!(
                value("largest denorm", element),
                2f64.powi(element.emin()) - dmin
            );
            assert_eq!(value("-max", element), -element.max_finite());
            assert_eq!(value("2^emax", element), 2f64.powi(element.emax()));
            assert_eq!(
                value("3*2^(emax-3)", element),
                3.0 * 2f64.powi(element.emax() - 3)
            );
            assert_eq!(value("2^(p-1)", element), 2f64.powi(p - 1));
            assert_eq!(value("2^-3", element), 0.125);
        }
        for bad in [
            "2^emax-1",
            "2^(emax--1)",
            "2^()",
            "2^(q)",
            "2^(emax+)",
            "1*max",
            "3*+inf",
            "0.1",
            "1e3",
            "+nan",
            "pi",
        ] {
            assert!(
                parse_value(bad, ValueContext::Input).is_err(),
                "`{bad}` was accepted"
            );
        }
        assert!(parse_value("0.70710678", ValueContext::Near).is_ok());
        assert!(parse_value("∓0", ValueContext::Result).is_ok());
        assert!(parse_value("∓0", ValueContext::Input).is_err());
        assert_eq!(
            parse_class("n + 0.5 for odd n"),
            Some((Class::HalfIntegerOdd, Some('n')))
        );
        assert_eq!(
            parse_class("|y|  > 1"),
            Some((Class::MagnitudeAboveOne, Some('y')))
        );
        assert_eq!(parse_class("n + 0.5 for odd x"), None, "two variables");
        assert_eq!(parse_class("finite max > 0"), None);
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
    fn every_form_of_the_grammar_reads() {
        let text = "\
# comment\n\
\n\
function,applies,inputs,expected,outputs,source\n\
sin,always,±0,±0,,C99 F.9.1.6\n\
atan2,always,±(finite y > 0);-inf,±pi,,C99 F.9.1.4\n\
fract,always,-inf,-0,iptr=-inf,\"fract( -inf, iptr ) returns -0 and -inf in iptr.\"\n\
frexp , always , nan , nan operand , exp = 0 , spec\n\
normalize,always,\"(+inf, 1, -2, +0)\",\"(~1, +0, -0, +0)\",,spec\n\
nextafter,ftz,-0;y > 0,+smallest normal,,spec\n\
ilogb,always,±0,FP_ILOGB0,,C99 7.12.6.5\n\
tanpi,always,±(odd integer n > 0),∓0,,spec\n";
        let rules = parse("t.csv", text).unwrap();
        assert_eq!(rules.len(), 8);
        assert_eq!(rules[0].line, 4, "comment and blank lines count");
        assert_eq!(
            rules[0].inputs,
            [Input::Value(Sign::PlusMinus, Magnitude::Zero)]
        );
        assert!(rules[0].correlated);
        assert_eq!(rules[0].text, "±0 -> ±0");
        assert_eq!(
            rules[1].inputs[0],
            Input::Class {
                class: Class::FinitePositive,
                var: Some('y'),
                plus_minus: true
            }
        );
        assert_eq!(
            rules[1].outputs,
            [Outcome::Value(
                Sign::PlusMinus,
                Magnitude::Pi { times: 1, over: 1 }
            )]
        );
        assert_eq!(
            rules[2].outputs[1],
            Outcome::Value(Sign::Minus, Magnitude::Infinity)
        );
        assert_eq!(rules[3].outputs, [Outcome::NanOperand, Outcome::Integer(0)]);
        assert!(!rules[3].correlated);
        assert_eq!(
            rules[4].inputs[0].clone(),
            Input::Vector(vec![
                Input::Value(Sign::Plus, Magnitude::Infinity),
                Input::Value(Sign::Plus, Magnitude::Decimal(1.0)),
                Input::Value(Sign::Minus, Magnitude::Decimal(2.0)),
                Input::Value(Sign::Plus, Magnitude::Zero),
            ])
        );
        assert_eq!(rules[5].applies, Applies::FlushToZero);
        assert!(matches!(
            rules[6].outputs[0],
            Outcome::IntegerOneOf("FP_ILOGB0", _)
        ));
        assert_eq!(
            rules[7].outputs,
            [Outcome::Value(Sign::MinusPlus, Magnitude::Zero)]
        );
        // A user's rules expand like the built-in ones.
        let tanpi = expand(&rules, "tanpi", FloatType::Float, false);
        assert!(has(&tanpi, &[3.0], &[Expected::Exact(-0.0)]));
        assert!(has(&tanpi, &[-3.0], &[Expected::Exact(0.0)]));
        assert_eq!(tanpi[0].rule_file, "t.csv");
    }

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

/// The 2026 rules against the 2026 text, and against the 2017 rules.
#[cfg(test)]
mod revision_tests {
    use super::*;
    use crate::spec::table::asciidoc::{plain, SPEC_2026};
    use crate::spec::table::Revision;

    /// (line, function heading, bullet text) for every `**` bullet of "Additional
    /// Requirements" (a code block after a bullet joined onto it) and every `*` bullet of the
    /// flush-to-zero section, plus the text of the whole "Edge Case Behavior" section as one
    /// line (code blocks verbatim), for finding sources.
    fn bullets_2026() -> (Vec<(usize, Option<String>, String)>, String) {
        let text = std::fs::read_to_string(SPEC_2026)
            .unwrap_or_else(|e| panic!("cannot read {SPEC_2026} ({e}); the check needs it"));
        let lines: Vec<&str> = text.lines().collect();
        let start = lines
            .iter()
            .position(|l| *l == "=== Edge Case Behavior")
            .expect("an Edge Case Behavior section");
        let mut bullets: Vec<(usize, Option<String>, String)> = Vec::new();
        let mut section = String::new();
        let mut heading: Option<String> = None;
        let mut in_code = false;
        let mut in_bullet = false;
        for (index, raw) in lines.iter().enumerate().skip(start) {
            let line = raw.trim();
            if line == "----" {
                in_code = !in_code;
                continue;
            }
            let content = if in_code {
                line.to_string()
            } else if matches!(line, "+" | "[source,opencl_c]") {
                continue;
            } else {
                plain(line)
            };
            section.push(' ');
            section.push_str(&content);
            if line.is_empty() {
                in_bullet = false;
                continue;
            }
            if in_bullet && (in_code || !line.starts_with('*')) {
                if let Some(last) = bullets.last_mut() {
                    last.2 = format!("{} {content}", last.2)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ");
                }
                continue;
            }
            if let Some(bullet) = line.strip_prefix("** ") {
                bullets.push((index + 1, heading.clone(), plain(bullet)));
                in_bullet = true;
            } else if let Some(bullet) = line.strip_prefix("* ") {
                let bullet = plain(bullet);
                match bullet
                    .strip_prefix("OpExtInst ")
                    .and_then(|b| b.strip_suffix(':'))
                {
                    Some(name) => {
                        heading = Some(name.to_string());
                        in_bullet = false;
                    }
                    None => {
                        bullets.push((index + 1, None, bullet));
                        in_bullet = true;
                    }
                }
            } else {
                in_bullet = false;
            }
        }
        let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
        (bullets, section)
    }

    #[test]
    fn every_2026_bullet_has_a_row() {
        let (bullets, section) = bullets_2026();
        let rules = builtin_in(Revision::Spec2026);
        // Guards the extractor: 81 bullets under 26 headings, and 4 flush-to-zero ones.
        let under_headings = bullets.iter().filter(|b| b.1.is_some()).count();
        assert_eq!((under_headings, bullets.len()), (81, 85), "{bullets:#?}");
        let mut problems = Vec::new();
        for (line, function, text) in &bullets {
            let citing: Vec<&EdgeRule> = rules
                .iter()
                .filter(|r| r.source.split_whitespace().collect::<Vec<_>>().join(" ") == *text)
                .collect();
            let fits = match function {
                Some(name) => citing.iter().any(|r| r.function == *name),
                None => citing.iter().any(|r| r.applies == Applies::FlushToZero),
            };
            if !fits {
                problems.push(format!(
                    "line {line} ({function:?}): no row cites \"{text}\""
                ));
            }
        }
        for rule in rules.iter().filter(|r| !r.source.starts_with("C99 ")) {
            let source = rule.source.split_whitespace().collect::<Vec<_>>().join(" ");
            if !section.contains(&source) {
                problems.push(format!(
                    "{}:{}: the source is not in the 2026 text: {source}",
                    rule.file, rule.line
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn both_revisions_check_the_same_inputs() {
        for function in functions() {
            for element in FloatType::ALL {
                for flush in [false, true] {
                    let inputs = |revision| {
                        let mut args: Vec<Vec<u64>> = cases_in(revision, function, element, flush)
                            .iter()
                            .map(|c| c.args.iter().map(|x| x.to_bits()).collect())
                            .collect();
                        args.sort();
                        args
                    };
                    assert_eq!(
                        inputs(Revision::Spec2017),
                        inputs(Revision::Spec2026),
                        "{function} {element} ftz={flush}"
                    );
                }
            }
        }
        let nan_pair = |revision| {
            cases_in(revision, "fmax", FloatType::Float, false)
                .into_iter()
                .find(|c| c.args.iter().all(|x| x.is_nan()))
                .expect("fmax(NaN, NaN)")
        };
        assert!(nan_pair(Revision::Spec2017)
            .rule_text
            .starts_with("Functions that return"));
        assert_eq!(
            nan_pair(Revision::Spec2026).rule_text,
            "C99 F.9 paragraph 11"
        );
    }
}
