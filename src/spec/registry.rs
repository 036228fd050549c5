//! The one registry of functions clacc knows: per function, the fact that is not in the spec's
//! tables — its SPIR-V instruction, its signature class, its MPFR reference and where its
//! inputs are drawn from. The accuracy each function must meet lives in `tables/`, keyed by
//! the same name.

use crate::spec::reference_id::ReferenceId;
use crate::spec::signature::{Instruction, OpenclStd100Op as Op, Shape};

/// How one result of a function is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputCheck {
    /// By the spec table's cell for the function and type (a float result).
    Table,
    /// An integer result that must equal the reference exactly where the reference specifies it
    /// (a NaN reference means the spec leaves it unspecified): ilogb, frexp's exponent,
    /// lgamma_r's sign ("checked exactly where the value is defined").
    Integer,
    /// remquo's quotient: its sign and at least the low bits the table's cell names.
    QuotientLowBits,
}

/// One result of a function: the returned value first, then a pointer out-argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// The exact function the result is measured against (`reference::binding` binds it to
    /// its MPFR reference).
    pub reference: ReferenceId,
    pub check: OutputCheck,
    /// Whether the judge decides the result by the reference's correctly rounded double
    /// version (CORE-MATH) first, the fast tier for half and float results; MPFR stays the
    /// ground truth (see `judge`; `reference::binding::fast_tier`).
    pub fast_tier: bool,
}

impl Output {
    /// Whether the result is an integer (printed in decimal, never measured in ulp).
    pub fn is_integer(&self) -> bool {
        self.check != OutputCheck::Table
    }
}

const fn judged_by_table(reference: ReferenceId) -> Output {
    Output {
        reference,
        check: OutputCheck::Table,
        fast_tier: false,
    }
}

/// An output judged by the table with a fast tier beside its MPFR reference.
const fn with_fast(reference: ReferenceId) -> Output {
    Output {
        reference,
        check: OutputCheck::Table,
        fast_tier: true,
    }
}

/// One function clacc checks.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    /// The spec tables' name for it: `OpFAdd`, or the OpenCL.std instruction name (`sin`).
    pub name: &'static str,
    pub instruction: Instruction,
    pub shape: Shape,
    /// One per result, in the kernel's result order.
    pub outputs: &'static [Output],
    /// Interval per argument where half of the random inputs are drawn uniformly (the other
    /// half are uniform bit patterns over the whole format). One entry serves every argument.
    pub sample_ranges: &'static [(f64, f64)],
    /// Inputs outside this interval are not judged (the function is only specified inside it).
    pub domain: Option<(f64, f64)>,
    /// Interval of integer arguments (ldexp's k, pown's and rootn's n).
    pub int_range: (i32, i32),
    /// Where the function is defined, when the definition excludes some inputs (fclamp with
    /// minval > maxval, mix with a outside [0, 1], ...): inputs outside are not judged.
    pub defined: Option<fn(&[f64]) -> bool>,
    /// Only Table 5 (`--profile relaxed`) bounds it: Tables 3 and 4 have no row for it, so
    /// other profiles report it `skip`.
    pub table_5_only: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt` makes it correctly rounded in float (OpenCL C:
    /// "single precision floating-point divide (x/y and 1/x) and sqrt used in the program
    /// source are correctly rounded").
    pub correctly_rounded_by_option: bool,
}

impl Function {
    /// The range random inputs of argument `index` are drawn from.
    pub fn sample_range(&self, index: usize) -> (f64, f64) {
        self.sample_ranges[index.min(self.sample_ranges.len() - 1)]
    }

    /// Whether every input lies where the function is specified ([`Function::in_domain`]
    /// needs no call).
    pub fn specified_everywhere(&self) -> bool {
        self.domain.is_none() && self.defined.is_none()
    }

    /// Whether `args` lie where the function is specified.
    pub fn in_domain(&self, args: &[f64]) -> bool {
        let in_range = match self.domain {
            None => true,
            Some((low, high)) => args.iter().all(|x| (low..=high).contains(x)),
        };
        in_range && self.defined.is_none_or(|defined| defined(args))
    }

    /// The reference of the first result.
    pub fn reference(&self) -> ReferenceId {
        self.outputs[0].reference
    }
}

const WIDE: &[(f64, f64)] = &[(-1.0e4, 1.0e4)];
const UNIT: &[(f64, f64)] = &[(-1.0, 1.0)];
const TRIG: &[(f64, f64)] = &[(-100.0, 100.0)];
const TRIG_PI: &[(f64, f64)] = &[(-10.0, 10.0)];
const EXP: &[(f64, f64)] = &[(-90.0, 90.0)];
const LOG: &[(f64, f64)] = &[(0.0, 1.0e4)];
const ERF: &[(f64, f64)] = &[(-10.0, 10.0)];
const GAMMA: &[(f64, f64)] = &[(-20.0, 36.0)];
const POW: &[(f64, f64)] = &[(0.0, 100.0), (-20.0, 20.0)];
/// OpenCL C restricts half_cos, half_sin and half_tan to |x| <= 2^16.
const HALF_TRIG_DOMAIN: Option<(f64, f64)> = Some((-65536.0, 65536.0));

const fn function(
    name: &'static str,
    instruction: Instruction,
    shape: Shape,
    outputs: &'static [Output],
    sample_ranges: &'static [(f64, f64)],
) -> Function {
    Function {
        name,
        instruction,
        shape,
        outputs,
        sample_ranges,
        domain: None,
        int_range: (-64, 64),
        defined: None,
        table_5_only: false,
        correctly_rounded_by_option: false,
    }
}

const fn unary(
    name: &'static str,
    op: Op,
    outputs: &'static [Output],
    ranges: &'static [(f64, f64)],
) -> Function {
    function(name, Instruction::Ext(op), Shape::Unary, outputs, ranges)
}

const fn binary(
    name: &'static str,
    op: Op,
    outputs: &'static [Output],
    ranges: &'static [(f64, f64)],
) -> Function {
    function(name, Instruction::Ext(op), Shape::Binary, outputs, ranges)
}

const fn ternary(name: &'static str, op: Op, outputs: &'static [Output]) -> Function {
    function(name, Instruction::Ext(op), Shape::Ternary, outputs, WIDE)
}

const fn with_outputs(
    name: &'static str,
    op: Op,
    shape: Shape,
    outputs: &'static [Output],
    ranges: &'static [(f64, f64)],
) -> Function {
    function(name, Instruction::Ext(op), shape, outputs, ranges)
}

const fn integer(reference: ReferenceId) -> Output {
    Output {
        reference,
        check: OutputCheck::Integer,
        fast_tier: false,
    }
}

impl Function {
    /// The same function with integer arguments drawn from [low, high].
    const fn integers(mut self, low: i32, high: i32) -> Function {
        self.int_range = (low, high);
        self
    }

    /// The same function, bounded by Table 5 alone.
    const fn only_in_table_5(mut self) -> Function {
        self.table_5_only = true;
        self
    }

    /// The same function, made correctly rounded in float by
    /// `-cl-fp32-correctly-rounded-divide-sqrt`.
    const fn correctly_rounded_by_option(mut self) -> Function {
        self.correctly_rounded_by_option = true;
        self
    }
}

const fn restricted(mut entry: Function, domain: Option<(f64, f64)>) -> Function {
    entry.domain = domain;
    entry
}

/// A function defined only where `defined` holds.
const fn defined_where(mut entry: Function, defined: fn(&[f64]) -> bool) -> Function {
    entry.defined = Some(defined);
    entry
}

// Where OpenCL C's common functions are defined (their definitions: "results are undefined
// if ..."); the 2026 text's Tables 3 and 4 bound them only there.

/// fclamp: "Results are undefined if minval > maxval".
fn clamp_defined(args: &[f64]) -> bool {
    args[1] <= args[2]
}

/// fmax and fmin (common): "If x or y are infinite or NaN, the return values are undefined".
fn all_finite(args: &[f64]) -> bool {
    args.iter().all(|x| x.is_finite())
}

/// mix: "If a is not in the range 0.0 … 1.0, the return values are undefined". And the
/// 2026 text's absolute 1e-3 is judged only where it is attainable: beyond |x|, |y| = 2^14
/// half a float ulp of the result exceeds 1e-3, so even the correctly rounded result would
/// fail (docs/judging.md, "Readings": the reading clacc takes); infinite x or y give a NaN or an
/// infinity no absolute tolerance judges.
fn mix_defined(args: &[f64]) -> bool {
    const ATTAINABLE: f64 = 16384.0;
    all_finite(args)
        && (0.0..=1.0).contains(&args[2])
        && args[..2].iter().all(|x| x.abs() <= ATTAINABLE)
}

/// smoothstep: "Results are undefined if edge0 >= edge1 or if x, edge0 or edge1 is a NaN";
/// and only where OpenCL C's own formula, (x − edge0) / (edge1 − edge0), has finite terms in
/// float, the one type the 2026 text bounds (edge1 − edge0 beyond FLT_MAX makes it 0 or
/// ∞/∞ however exactly a device computes): the reading docs/judging.md's "Readings" states.
fn smoothstep_defined(args: &[f64]) -> bool {
    let float_max = f64::from(f32::MAX);
    all_finite(args)
        && args[0] < args[1]
        && args[1] - args[0] <= float_max
        && (args[2] - args[0]).abs() <= float_max
}

/// step: no rule for a NaN argument (x < edge is false, but a NaN edge or x compares
/// nothing); such inputs are not judged.
fn not_nan(args: &[f64]) -> bool {
    args.iter().all(|x| !x.is_nan())
}

const CLAMP: &[(f64, f64)] = &[(-100.0, 100.0), (-50.0, 0.0), (0.0, 50.0)];
const MIX: &[(f64, f64)] = &[(-100.0, 100.0), (-100.0, 100.0), (0.0, 1.0)];
const SMOOTHSTEP: &[(f64, f64)] = &[(-10.0, 0.0), (0.0, 10.0), (-20.0, 20.0)];

/// Every function clacc checks, in the order of the spec's tables.
pub const FUNCTIONS: &[Function] = &[
    function(
        "OpFAdd",
        Instruction::FAdd,
        Shape::Binary,
        &[with_fast(ReferenceId::Add)],
        WIDE,
    ),
    function(
        "OpFSub",
        Instruction::FSub,
        Shape::Binary,
        &[with_fast(ReferenceId::Sub)],
        WIDE,
    ),
    function(
        "OpFMul",
        Instruction::FMul,
        Shape::Binary,
        &[with_fast(ReferenceId::Mul)],
        WIDE,
    ),
    function(
        "OpFDiv",
        Instruction::FDiv,
        Shape::Binary,
        &[with_fast(ReferenceId::Div)],
        WIDE,
    )
    .correctly_rounded_by_option(),
    unary("acos", Op::acos, &[with_fast(ReferenceId::Acos)], UNIT),
    unary(
        "acosh",
        Op::acosh,
        &[with_fast(ReferenceId::Acosh)],
        &[(1.0, 1.0e4)],
    ),
    unary(
        "acospi",
        Op::acospi,
        &[with_fast(ReferenceId::Acospi)],
        UNIT,
    ),
    unary("asin", Op::asin, &[with_fast(ReferenceId::Asin)], UNIT),
    unary("asinh", Op::asinh, &[with_fast(ReferenceId::Asinh)], WIDE),
    unary(
        "asinpi",
        Op::asinpi,
        &[with_fast(ReferenceId::Asinpi)],
        UNIT,
    ),
    unary("atan", Op::atan, &[with_fast(ReferenceId::Atan)], WIDE),
    unary("atanh", Op::atanh, &[with_fast(ReferenceId::Atanh)], UNIT),
    unary(
        "atanpi",
        Op::atanpi,
        &[with_fast(ReferenceId::Atanpi)],
        WIDE,
    ),
    binary("atan2", Op::atan2, &[with_fast(ReferenceId::Atan2)], WIDE),
    binary(
        "atan2pi",
        Op::atan2pi,
        &[with_fast(ReferenceId::Atan2pi)],
        WIDE,
    ),
    unary("cbrt", Op::cbrt, &[with_fast(ReferenceId::Cbrt)], WIDE),
    unary(
        "ceil",
        Op::ceil,
        &[judged_by_table(ReferenceId::Ceil)],
        WIDE,
    ),
    binary(
        "copysign",
        Op::copysign,
        &[judged_by_table(ReferenceId::Copysign)],
        WIDE,
    ),
    unary("cos", Op::cos, &[with_fast(ReferenceId::Cos)], TRIG),
    unary("cosh", Op::cosh, &[with_fast(ReferenceId::Cosh)], EXP),
    unary(
        "cospi",
        Op::cospi,
        &[with_fast(ReferenceId::Cospi)],
        TRIG_PI,
    ),
    unary(
        "degrees",
        Op::degrees,
        &[judged_by_table(ReferenceId::Degrees)],
        TRIG,
    ),
    unary("erfc", Op::erfc, &[with_fast(ReferenceId::Erfc)], ERF),
    unary("erf", Op::erf, &[with_fast(ReferenceId::Erf)], ERF),
    unary("exp", Op::exp, &[with_fast(ReferenceId::Exp)], EXP),
    unary(
        "exp2",
        Op::exp2,
        &[with_fast(ReferenceId::Exp2)],
        &[(-130.0, 130.0)],
    ),
    unary(
        "exp10",
        Op::exp10,
        &[with_fast(ReferenceId::Exp10)],
        &[(-40.0, 40.0)],
    ),
    unary("expm1", Op::expm1, &[with_fast(ReferenceId::Expm1)], EXP),
    unary(
        "fabs",
        Op::fabs,
        &[judged_by_table(ReferenceId::Fabs)],
        WIDE,
    ),
    defined_where(
        function(
            "fclamp",
            Instruction::Ext(Op::fclamp),
            Shape::Ternary,
            &[judged_by_table(ReferenceId::Fclamp)],
            CLAMP,
        ),
        clamp_defined,
    ),
    binary("fdim", Op::fdim, &[with_fast(ReferenceId::Fdim)], WIDE),
    unary(
        "floor",
        Op::floor,
        &[judged_by_table(ReferenceId::Floor)],
        WIDE,
    ),
    ternary("fma", Op::fma, &[with_fast(ReferenceId::Fma)]),
    binary(
        "fmax",
        Op::fmax,
        &[judged_by_table(ReferenceId::Fmax)],
        WIDE,
    ),
    defined_where(
        binary(
            "fmax_common",
            Op::fmax_common,
            &[judged_by_table(ReferenceId::Fmax)],
            WIDE,
        ),
        all_finite,
    ),
    binary(
        "fmin",
        Op::fmin,
        &[judged_by_table(ReferenceId::Fmin)],
        WIDE,
    ),
    defined_where(
        binary(
            "fmin_common",
            Op::fmin_common,
            &[judged_by_table(ReferenceId::Fmin)],
            WIDE,
        ),
        all_finite,
    ),
    binary(
        "fmod",
        Op::fmod,
        &[judged_by_table(ReferenceId::Fmod)],
        WIDE,
    ),
    with_outputs(
        "fract",
        Op::fract,
        Shape::WithFloatOut,
        &[
            judged_by_table(ReferenceId::Fract),
            judged_by_table(ReferenceId::Floor),
        ],
        WIDE,
    ),
    with_outputs(
        "frexp",
        Op::frexp,
        Shape::WithIntOut,
        &[
            judged_by_table(ReferenceId::FrexpMantissa),
            integer(ReferenceId::FrexpExponent),
        ],
        WIDE,
    ),
    binary("hypot", Op::hypot, &[with_fast(ReferenceId::Hypot)], WIDE),
    with_outputs(
        "ilogb",
        Op::ilogb,
        Shape::IntResult,
        &[integer(ReferenceId::Ilogb)],
        WIDE,
    ),
    with_outputs(
        "ldexp",
        Op::ldexp,
        Shape::FloatInt,
        &[judged_by_table(ReferenceId::Ldexp)],
        WIDE,
    )
    .integers(-300, 300),
    unary(
        "lgamma",
        Op::lgamma,
        &[with_fast(ReferenceId::Lgamma)],
        GAMMA,
    ),
    with_outputs(
        "lgamma_r",
        Op::lgamma_r,
        Shape::WithIntOut,
        &[
            with_fast(ReferenceId::Lgamma),
            integer(ReferenceId::LgammaSign),
        ],
        GAMMA,
    ),
    unary("log", Op::log, &[with_fast(ReferenceId::Log)], LOG),
    unary("log2", Op::log2, &[with_fast(ReferenceId::Log2)], LOG),
    unary("log10", Op::log10, &[with_fast(ReferenceId::Log10)], LOG),
    unary(
        "log1p",
        Op::log1p,
        &[with_fast(ReferenceId::Log1p)],
        &[(-1.0, 1.0e4)],
    ),
    unary(
        "logb",
        Op::logb,
        &[judged_by_table(ReferenceId::Logb)],
        WIDE,
    ),
    ternary("mad", Op::mad, &[with_fast(ReferenceId::Fma)]),
    // Table 5's "OpFMul and OpFAdd for x * y + z": no built-in, the two instructions themselves,
    // judged by the exact x * y + z (the row accepts the correctly rounded fma or the correctly
    // rounded multiply then add). Tables 3 and 4 have no such row.
    function(
        "OpFMul_OpFAdd",
        Instruction::FMulFAdd,
        Shape::Ternary,
        &[judged_by_table(ReferenceId::Fma)],
        WIDE,
    )
    .only_in_table_5(),
    binary(
        "maxmag",
        Op::maxmag,
        &[judged_by_table(ReferenceId::Maxmag)],
        WIDE,
    ),
    binary(
        "minmag",
        Op::minmag,
        &[judged_by_table(ReferenceId::Minmag)],
        WIDE,
    ),
    defined_where(
        function(
            "mix",
            Instruction::Ext(Op::mix),
            Shape::Ternary,
            &[judged_by_table(ReferenceId::Mix)],
            MIX,
        ),
        mix_defined,
    ),
    with_outputs(
        "modf",
        Op::modf,
        Shape::WithFloatOut,
        &[
            judged_by_table(ReferenceId::ModfFraction),
            judged_by_table(ReferenceId::Trunc),
        ],
        WIDE,
    ),
    with_outputs(
        "nan",
        Op::nan,
        Shape::Nan,
        &[judged_by_table(ReferenceId::Nan)],
        WIDE,
    ),
    binary(
        "nextafter",
        Op::nextafter,
        &[judged_by_table(ReferenceId::Nextafter)],
        WIDE,
    ),
    binary("pow", Op::pow, &[with_fast(ReferenceId::Pow)], POW),
    with_outputs(
        "pown",
        Op::pown,
        Shape::FloatInt,
        &[with_fast(ReferenceId::Pown)],
        &[(-100.0, 100.0)],
    )
    .integers(-40, 40),
    binary("powr", Op::powr, &[with_fast(ReferenceId::Powr)], POW),
    unary(
        "radians",
        Op::radians,
        &[judged_by_table(ReferenceId::Radians)],
        WIDE,
    ),
    binary(
        "remainder",
        Op::remainder,
        &[judged_by_table(ReferenceId::Remainder)],
        WIDE,
    ),
    with_outputs(
        "remquo",
        Op::remquo,
        Shape::BinaryWithIntOut,
        &[
            judged_by_table(ReferenceId::RemquoRemainder),
            Output {
                reference: ReferenceId::RemquoQuotient,
                check: OutputCheck::QuotientLowBits,
                fast_tier: false,
            },
        ],
        WIDE,
    ),
    unary(
        "rint",
        Op::rint,
        &[judged_by_table(ReferenceId::Rint)],
        WIDE,
    ),
    with_outputs(
        "rootn",
        Op::rootn,
        Shape::FloatInt,
        &[with_fast(ReferenceId::Rootn)],
        LOG,
    )
    .integers(-20, 20),
    unary(
        "round",
        Op::round,
        &[judged_by_table(ReferenceId::Round)],
        WIDE,
    ),
    unary("rsqrt", Op::rsqrt, &[with_fast(ReferenceId::Rsqrt)], LOG),
    unary(
        "sign",
        Op::sign,
        &[judged_by_table(ReferenceId::Sign)],
        WIDE,
    ),
    unary("sin", Op::sin, &[with_fast(ReferenceId::Sin)], TRIG),
    with_outputs(
        "sincos",
        Op::sincos,
        Shape::WithFloatOut,
        &[with_fast(ReferenceId::Sin), with_fast(ReferenceId::Cos)],
        TRIG,
    ),
    unary("sinh", Op::sinh, &[with_fast(ReferenceId::Sinh)], EXP),
    unary(
        "sinpi",
        Op::sinpi,
        &[with_fast(ReferenceId::Sinpi)],
        TRIG_PI,
    ),
    defined_where(
        function(
            "smoothstep",
            Instruction::Ext(Op::smoothstep),
            Shape::Ternary,
            &[judged_by_table(ReferenceId::Smoothstep)],
            SMOOTHSTEP,
        ),
        smoothstep_defined,
    ),
    unary("sqrt", Op::sqrt, &[with_fast(ReferenceId::Sqrt)], LOG).correctly_rounded_by_option(),
    defined_where(
        binary(
            "step",
            Op::step,
            &[judged_by_table(ReferenceId::Step)],
            WIDE,
        ),
        not_nan,
    ),
    unary("tan", Op::tan, &[with_fast(ReferenceId::Tan)], TRIG),
    unary("tanh", Op::tanh, &[with_fast(ReferenceId::Tanh)], ERF),
    unary(
        "tanpi",
        Op::tanpi,
        &[with_fast(ReferenceId::Tanpi)],
        TRIG_PI,
    ),
    unary(
        "tgamma",
        Op::tgamma,
        &[with_fast(ReferenceId::Tgamma)],
        GAMMA,
    ),
    unary(
        "trunc",
        Op::trunc,
        &[judged_by_table(ReferenceId::Trunc)],
        WIDE,
    ),
    restricted(
        unary(
            "half_cos",
            Op::half_cos,
            &[with_fast(ReferenceId::Cos)],
            TRIG,
        ),
        HALF_TRIG_DOMAIN,
    ),
    binary(
        "half_divide",
        Op::half_divide,
        &[with_fast(ReferenceId::Div)],
        WIDE,
    ),
    unary(
        "half_exp",
        Op::half_exp,
        &[with_fast(ReferenceId::Exp)],
        EXP,
    ),
    unary(
        "half_exp2",
        Op::half_exp2,
        &[with_fast(ReferenceId::Exp2)],
        &[(-130.0, 130.0)],
    ),
    unary(
        "half_exp10",
        Op::half_exp10,
        &[with_fast(ReferenceId::Exp10)],
        &[(-40.0, 40.0)],
    ),
    unary(
        "half_log",
        Op::half_log,
        &[with_fast(ReferenceId::Log)],
        LOG,
    ),
    unary(
        "half_log2",
        Op::half_log2,
        &[with_fast(ReferenceId::Log2)],
        LOG,
    ),
    unary(
        "half_log10",
        Op::half_log10,
        &[with_fast(ReferenceId::Log10)],
        LOG,
    ),
    binary(
        "half_powr",
        Op::half_powr,
        &[with_fast(ReferenceId::Powr)],
        POW,
    ),
    unary(
        "half_recip",
        Op::half_recip,
        &[with_fast(ReferenceId::Recip)],
        WIDE,
    ),
    unary(
        "half_rsqrt",
        Op::half_rsqrt,
        &[with_fast(ReferenceId::Rsqrt)],
        LOG,
    ),
    restricted(
        unary(
            "half_sin",
            Op::half_sin,
            &[with_fast(ReferenceId::Sin)],
            TRIG,
        ),
        HALF_TRIG_DOMAIN,
    ),
    unary(
        "half_sqrt",
        Op::half_sqrt,
        &[with_fast(ReferenceId::Sqrt)],
        LOG,
    ),
    restricted(
        unary(
            "half_tan",
            Op::half_tan,
            &[with_fast(ReferenceId::Tan)],
            TRIG,
        ),
        HALF_TRIG_DOMAIN,
    ),
    unary(
        "native_cos",
        Op::native_cos,
        &[judged_by_table(ReferenceId::Cos)],
        TRIG,
    ),
    binary(
        "native_divide",
        Op::native_divide,
        &[judged_by_table(ReferenceId::Div)],
        WIDE,
    ),
    unary(
        "native_exp",
        Op::native_exp,
        &[judged_by_table(ReferenceId::Exp)],
        EXP,
    ),
    unary(
        "native_exp2",
        Op::native_exp2,
        &[judged_by_table(ReferenceId::Exp2)],
        &[(-130.0, 130.0)],
    ),
    unary(
        "native_exp10",
        Op::native_exp10,
        &[judged_by_table(ReferenceId::Exp10)],
        &[(-40.0, 40.0)],
    ),
    unary(
        "native_log",
        Op::native_log,
        &[judged_by_table(ReferenceId::Log)],
        LOG,
    ),
    unary(
        "native_log2",
        Op::native_log2,
        &[judged_by_table(ReferenceId::Log2)],
        LOG,
    ),
    unary(
        "native_log10",
        Op::native_log10,
        &[judged_by_table(ReferenceId::Log10)],
        LOG,
    ),
    binary(
        "native_powr",
        Op::native_powr,
        &[judged_by_table(ReferenceId::Powr)],
        POW,
    ),
    unary(
        "native_recip",
        Op::native_recip,
        &[judged_by_table(ReferenceId::Recip)],
        WIDE,
    ),
    unary(
        "native_rsqrt",
        Op::native_rsqrt,
        &[judged_by_table(ReferenceId::Rsqrt)],
        LOG,
    ),
    unary(
        "native_sin",
        Op::native_sin,
        &[judged_by_table(ReferenceId::Sin)],
        TRIG,
    ),
    unary(
        "native_sqrt",
        Op::native_sqrt,
        &[judged_by_table(ReferenceId::Sqrt)],
        LOG,
    ),
    unary(
        "native_tan",
        Op::native_tan,
        &[judged_by_table(ReferenceId::Tan)],
        TRIG,
    ),
    // The geometric instructions the 2026 text bounds per vector: one case is one work-item,
    // its arguments every component (see `crate::run::geometric`). normalize's outputs are one per
    // component, taken at the unit's width there.
    defined_where(
        with_outputs("length", Op::length, Shape::Length, GEOMETRIC_LENGTH, WIDE),
        not_nan_and_infinity,
    ),
    defined_where(
        with_outputs(
            "distance",
            Op::distance,
            Shape::Distance,
            GEOMETRIC_DISTANCE,
            WIDE,
        ),
        difference_not_nan_and_infinity,
    ),
    with_outputs(
        "normalize",
        Op::normalize,
        Shape::Normalize,
        GEOMETRIC_NORMALIZE,
        WIDE,
    ),
    defined_where(
        with_outputs(
            "fast_length",
            Op::fast_length,
            Shape::Length,
            GEOMETRIC_LENGTH,
            WIDE,
        ),
        fast_length_defined,
    ),
    defined_where(
        with_outputs(
            "fast_distance",
            Op::fast_distance,
            Shape::Distance,
            GEOMETRIC_DISTANCE,
            WIDE,
        ),
        fast_distance_defined,
    ),
    defined_where(
        with_outputs(
            "fast_normalize",
            Op::fast_normalize,
            Shape::Normalize,
            GEOMETRIC_NORMALIZE,
            WIDE,
        ),
        fast_normalize_defined,
    ),
    function(
        "OpDot",
        Instruction::Dot,
        Shape::Dot,
        &[judged_by_table(ReferenceId::Dot)],
        WIDE,
    ),
    with_outputs("cross", Op::cross, Shape::Cross, GEOMETRIC_CROSS, WIDE),
];

/// One output per component of `cross(x, y)` at width 4; width 3 takes the first three.
const GEOMETRIC_CROSS: &[Output] = &[
    judged_by_table(ReferenceId::Cross0),
    judged_by_table(ReferenceId::Cross1),
    judged_by_table(ReferenceId::Cross2),
    judged_by_table(ReferenceId::Cross3),
];

// Where the geometric results are judged. The text's edge cases fix normalize's NaN and
// infinite components, and say length and distance work "without overflow or extraordinary
// precision loss due to underflow"; it says nothing of a vector holding both a NaN and an
// infinity (hypot's +∞, or NaN?), and gives the `fast_` forms no such sentence.

/// length: judged unless the vector holds both a NaN and an infinity.
fn not_nan_and_infinity(components: &[f64]) -> bool {
    !(components.iter().any(|x| x.is_nan()) && components.iter().any(|x| x.is_infinite()))
}

/// p0 − p1, component by component, from distance's arguments (p0's components, then p1's).
fn differences(args: &[f64]) -> Vec<f64> {
    let (p0, p1) = args.split_at(args.len() / 2);
    p0.iter().zip(p1).map(|(a, b)| a - b).collect()
}

/// distance: judged unless p0 − p1 holds both a NaN and an infinity.
fn difference_not_nan_and_infinity(args: &[f64]) -> bool {
    not_nan_and_infinity(&differences(args))
}

/// The `fast_` forms (float only): judged where Σ pᵢ² is zero or a normal float, or p has a
/// component that is not finite. Without the "no overflow, no underflow" sentence the plain
/// forms have, clacc reads them as the plain sum of squares OpenCL C computes them with, as
/// the CTS does: a sum that overflows or underflows float is not judged (docs/judging.md,
/// "Readings").
fn fast_length_defined(components: &[f64]) -> bool {
    if !components.iter().all(|x| x.is_finite()) {
        return not_nan_and_infinity(components);
    }
    let sum: f64 = components.iter().map(|x| x * x).sum();
    sum == 0.0 || (f64::from(f32::MIN_POSITIVE)..=f64::from(f32::MAX)).contains(&sum)
}

/// fast_normalize: [`fast_length_defined`], and no infinite component (the text's rule for
/// infinite components names normalize alone; p · rsqrt(Σ pᵢ²) gives NaNs there).
fn fast_normalize_defined(components: &[f64]) -> bool {
    !components.iter().any(|x| x.is_infinite()) && fast_length_defined(components)
}

/// fast_distance: [`fast_length_defined`] of p0 − p1.
fn fast_distance_defined(args: &[f64]) -> bool {
    fast_length_defined(&differences(args))
}

const GEOMETRIC_LENGTH: &[Output] = &[judged_by_table(ReferenceId::Length)];
const GEOMETRIC_DISTANCE: &[Output] = &[judged_by_table(ReferenceId::Distance)];
/// One output per component of `normalize(p)`, for the widest vector (4); a unit takes the
/// first `width` ([`outputs_at_width`]).
const GEOMETRIC_NORMALIZE: &[Output] = &[
    judged_by_table(ReferenceId::Normalize0),
    judged_by_table(ReferenceId::Normalize1),
    judged_by_table(ReferenceId::Normalize2),
    judged_by_table(ReferenceId::Normalize3),
];

/// The outputs of `function` at `width`: normalize and cross return one value per component,
/// every other function the registry's outputs.
pub fn outputs_at_width(function: &Function, width: u32) -> Vec<Output> {
    match function.shape {
        Shape::Normalize => GEOMETRIC_NORMALIZE[..width as usize].to_vec(),
        Shape::Cross => GEOMETRIC_CROSS[..width as usize].to_vec(),
        _ => function.outputs.to_vec(),
    }
}

/// The functions only Table 5 (`--profile relaxed`) bounds ([`Function::table_5_only`]).
pub fn table_5_only() -> Vec<&'static str> {
    FUNCTIONS
        .iter()
        .filter(|f| f.table_5_only)
        .map(|f| f.name)
        .collect()
}

/// Normalises a name for matching: case-insensitive, and `fadd` finds `OpFAdd`.
fn matching_key(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    lower
        .strip_prefix("op")
        .map(str::to_string)
        .unwrap_or(lower)
}

/// The function called `name` (`sin`, `OpFAdd`, `fadd`; any case).
pub fn find(name: &str) -> Option<&'static Function> {
    let wanted = matching_key(name);
    FUNCTIONS.iter().find(|f| matching_key(f.name) == wanted)
}

/// Every known name, for error messages.
pub fn known_names() -> Vec<&'static str> {
    FUNCTIONS.iter().map(|f| f.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::environment::{self, OPENCL_C, OPENCL_SPIRV};
    use crate::spec::table::{builtin, builtin_in, changes, Profile, Revision};
    use std::collections::HashSet;

    /// The Table-5-only functions are exactly the registry's functions with a Table 5 row and
    /// no Table 3 or 4 row, in both revisions.
    #[test]
    fn table_5_only_functions_have_a_table_5_row_and_no_other() {
        for revision in [Revision::Spec2017, Revision::Spec2026] {
            for name in table_5_only() {
                assert!(find(name).is_some(), "{name} is not registered");
                assert!(
                    crate::spec::relaxed_table::builtin_in(&OPENCL_SPIRV, revision)
                        .row(name)
                        .is_some(),
                    "{name}: no Table 5 row ({revision})"
                );
            }
            let only_in_table_5: Vec<&str> = FUNCTIONS
                .iter()
                .filter(|f| {
                    Profile::ALL.into_iter().all(|profile| {
                        builtin_in(&OPENCL_SPIRV, revision, profile)
                            .row(f.name)
                            .is_none()
                    })
                })
                .filter(|f| {
                    crate::spec::relaxed_table::builtin_in(&OPENCL_SPIRV, revision)
                        .row(f.name)
                        .is_some()
                })
                .map(|f| f.name)
                .collect();
            assert_eq!(only_in_table_5, table_5_only(), "{revision}");
        }
    }

    #[test]
    fn names_are_unique_and_found_in_any_spelling() {
        let names: HashSet<_> = FUNCTIONS.iter().map(|f| matching_key(f.name)).collect();
        assert_eq!(names.len(), FUNCTIONS.len());
        assert_eq!(find("SIN").unwrap().name, "sin");
        assert_eq!(find("fadd").unwrap().name, "OpFAdd");
        assert_eq!(find("OpFDiv").unwrap().name, "OpFDiv");
        assert!(find("sine").is_none());
    }

    /// In today's text of every environment, save the two rows the OpenCL C chapter's
    /// embedded table leaves out (lgamma and lgamma_r: it lists neither, so nothing bounds them
    /// there), and OpenCL C's unsafe-math table holds the Table-5-only functions too.
    #[test]
    fn every_function_has_a_row_in_both_spec_tables() {
        // Vulkan's table holds the planned functions only (`spec::vulkan` checks it).
        for environment in environment::ALL
            .into_iter()
            .filter(|e| e.has("ulp_embedded", Revision::Spec2026))
        {
            for profile in Profile::ALL {
                let table = builtin_in(environment, Revision::Spec2026, profile);
                let missing: Vec<&str> = FUNCTIONS
                    .iter()
                    .filter(|f| !f.table_5_only && table.row(f.name).is_none())
                    .map(|f| f.name)
                    .collect();
                let expected: &[&str] =
                    if environment.folder == OPENCL_C.folder && profile == Profile::Embedded {
                        &["lgamma", "lgamma_r"]
                    } else {
                        &[]
                    };
                assert_eq!(missing, expected, "{}", table.source);
            }
            for name in table_5_only() {
                assert!(
                    crate::spec::relaxed_table::builtin_in(environment, Revision::Spec2026)
                        .row(name)
                        .is_some(),
                    "{name}: no unsafe-math row in {}",
                    environment.name
                );
            }
        }
    }

    /// A function without a 2017 row is one whose row the 2026 text added.
    #[test]
    fn functions_missing_from_2017_are_rows_the_2026_text_added() {
        let added: HashSet<String> = changes(
            (&OPENCL_SPIRV, Revision::Spec2017),
            (&OPENCL_SPIRV, Revision::Spec2026),
        )
        .into_iter()
        .filter(|c| c.before.is_none())
        .map(|c| c.instruction)
        .collect();
        let missing: Vec<&str> = FUNCTIONS
            .iter()
            .filter(|f| !f.table_5_only)
            .filter(|f| builtin(Profile::Full).row(f.name).is_none())
            .map(|f| f.name)
            .collect();
        assert_eq!(
            missing,
            [
                "degrees",
                "fclamp",
                "fmax_common",
                "fmin_common",
                "mix",
                "radians",
                "sign",
                "smoothstep",
                "step",
                "length",
                "distance",
                "normalize",
                "fast_length",
                "fast_distance",
                "fast_normalize",
                "OpDot",
                "cross"
            ]
        );
        assert!(missing.iter().all(|name| added.contains(*name)));
    }

    #[test]
    fn common_functions_are_judged_only_where_defined() {
        let find = |name| find(name).unwrap();
        assert!(find("fclamp").in_domain(&[5.0, -1.0, 1.0]));
        assert!(!find("fclamp").in_domain(&[5.0, 1.0, -1.0]));
        assert!(!find("mix").in_domain(&[1.0, 2.0, 1.5]));
        assert!(!find("mix").in_domain(&[f64::INFINITY, 2.0, 0.5]));
        assert!(find("mix").in_domain(&[1.0, 2.0, 0.5]));
        assert!(
            !find("mix").in_domain(&[1.0e5, 2.0, 0.5]),
            "1e-3 is not attainable there"
        );
        assert!(!find("smoothstep").in_domain(&[f64::NEG_INFINITY, 0.0, 0.0]));
        let max = f64::from(f32::MAX);
        assert!(!find("smoothstep").in_domain(&[-max, max / 4.0, 0.0]));
        assert!(find("smoothstep").in_domain(&[-1.0e30, 1.0e30, 5.0]));
        assert!(!find("smoothstep").in_domain(&[1.0, 1.0, 0.5]));
        assert!(!find("fmax_common").in_domain(&[f64::NAN, 1.0]));
        assert!(!find("step").in_domain(&[f64::NAN, 1.0]));
        assert!(find("sign").in_domain(&[f64::NAN]));
    }

    #[test]
    fn geometric_functions_are_judged_where_the_text_defines_them() {
        let find = |name| find(name).unwrap();
        // length and distance of a vector holding a NaN and an infinity: not said.
        assert!(!find("length").in_domain(&[f64::NAN, f64::INFINITY, 1.0]));
        assert!(find("length").in_domain(&[f64::NAN, 1.0, 1.0]));
        assert!(find("length").in_domain(&[f64::INFINITY, 1.0e300]));
        // distance((inf, 1), (inf, nan)): p0 − p1 = (NaN, NaN) is judged; (inf, nan) is not.
        assert!(find("distance").in_domain(&[f64::INFINITY, 1.0, f64::INFINITY, f64::NAN]));
        assert!(!find("distance").in_domain(&[f64::INFINITY, f64::NAN, 0.0, 0.0]));
        // The fast_ forms: Σ pᵢ² must be zero or a normal float.
        assert!(find("fast_length").in_domain(&[3.0, 4.0]));
        assert!(find("fast_length").in_domain(&[0.0, -0.0]));
        assert!(!find("fast_length").in_domain(&[1.0e20, 1.0]));
        assert!(!find("fast_length").in_domain(&[1.0e-30, 0.0]));
        assert!(!find("fast_distance").in_domain(&[1.0e20, 0.0, -1.0e20, 0.0]));
        assert!(!find("fast_normalize").in_domain(&[f64::INFINITY, 1.0]));
        assert!(find("normalize").in_domain(&[f64::INFINITY, 1.0e-30]));
    }

    /// OpenCL C: "-cl-fp32-correctly-rounded-divide-sqrt ... single precision floating-point
    /// divide (x/y and 1/x) and sqrt used in the program source are correctly rounded": the
    /// registry's divide and sqrt, nothing else.
    #[test]
    fn the_divide_sqrt_option_covers_divide_and_sqrt() {
        let covered: Vec<&str> = FUNCTIONS
            .iter()
            .filter(|f| f.correctly_rounded_by_option)
            .map(|f| f.name)
            .collect();
        assert_eq!(covered, ["OpFDiv", "sqrt"]);
        assert_eq!(table_5_only(), ["OpFMul_OpFAdd"]);
    }

    #[test]
    fn every_function_names_its_own_instruction() {
        for entry in FUNCTIONS {
            let expected = match entry.instruction {
                Instruction::Ext(_) => entry.name.to_string(),
                Instruction::FMulFAdd => "fmul_fadd".to_string(),
                _ => matching_key(entry.name),
            };
            assert_eq!(entry.instruction.name(), expected);
        }
    }
}
