//! The instructions Table 5's rules can name, one row each: parameters, the reference a result
//! is measured against, whether a formula may call it, and which way its exact value moves.

use crate::spec::reference_id::ReferenceId;
use crate::spec::reference_id::ReferenceId as Id;

/// An instruction the rules can name, one row per instruction: its parameters in argument
/// order, the exact function its result is measured against (the judge binds the id to MPFR's,
/// `crate::judge::relaxed`), whether a formula may call it by name, and how its exact value
/// moves with its argument.
pub struct Entry {
    pub name: &'static str,
    pub parameters: &'static [&'static str],
    pub reference: ReferenceId,
    /// A formula may call it by name (`sqrt(x)`), with one argument per parameter.
    pub in_formulas: bool,
    pub direction: Direction,
}

/// How an instruction's exact value moves with its one argument, which the judge's interval
/// evaluations of a formula step read (its exact range over a range of arguments, enclosed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Direction {
    /// Monotonic on its domain (rising, or falling where `rising` is false), NaN outside it.
    Monotonic { rising: bool, domain: Domain },
    /// sin, cos and tan: extrema at multiples of pi/2, and tan's poles.
    Periodic,
    /// Within [low, high] whatever its arguments (atan2: within [-pi, pi], enclosed by ±3.5),
    /// the enclosure of a range of arguments that are not all points.
    Bounded { low: f64, high: f64 },
    /// Arithmetic and the rest: each evaluation's own case, by name.
    Other,
}

/// The arguments [low, high] where an instruction is defined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Domain {
    pub low: f64,
    pub high: f64,
}

impl Domain {
    /// Whether [lo, hi] reaches outside the domain.
    pub fn excludes<T: PartialOrd<f64>>(&self, lo: &T, hi: &T) -> bool {
        *lo < self.low || *hi > self.high
    }
}

const X: &[&str] = &["x"];
const XY: &[&str] = &["x", "y"];
const YX: &[&str] = &["y", "x"];
const XYZ: &[&str] = &["x", "y", "z"];

const EVERYWHERE: Domain = Domain {
    low: f64::NEG_INFINITY,
    high: f64::INFINITY,
};
const NON_NEGATIVE: Domain = Domain {
    low: 0.0,
    high: f64::INFINITY,
};
const UNIT: Domain = Domain {
    low: -1.0,
    high: 1.0,
};
const RISING: Direction = Direction::Monotonic {
    rising: true,
    domain: EVERYWHERE,
};
const RISING_FROM_ZERO: Direction = Direction::Monotonic {
    rising: true,
    domain: NON_NEGATIVE,
};

const fn entry(
    name: &'static str,
    parameters: &'static [&'static str],
    reference: ReferenceId,
) -> Entry {
    Entry {
        name,
        parameters,
        reference,
        in_formulas: false,
        direction: Direction::Other,
    }
}

/// [`entry`] for an instruction a formula may call.
const fn callable(
    name: &'static str,
    parameters: &'static [&'static str],
    reference: ReferenceId,
    direction: Direction,
) -> Entry {
    Entry {
        in_formulas: true,
        direction,
        ..entry(name, parameters, reference)
    }
}

/// Every Table 5 instruction and every operation a formula may use.
pub const CATALOG: &[Entry] = &[
    entry("OpFDiv", XY, Id::Div),
    callable(
        "acos",
        X,
        Id::Acos,
        Direction::Monotonic {
            rising: false,
            domain: UNIT,
        },
    ),
    entry("acosh", X, Id::Acosh),
    entry("acospi", X, Id::Acospi),
    callable(
        "asin",
        X,
        Id::Asin,
        Direction::Monotonic {
            rising: true,
            domain: UNIT,
        },
    ),
    entry("asinh", X, Id::Asinh),
    entry("asinpi", X, Id::Asinpi),
    callable("atan", X, Id::Atan, RISING),
    entry("atanh", X, Id::Atanh),
    entry("atanpi", X, Id::Atanpi),
    callable(
        "atan2",
        YX,
        Id::Atan2,
        Direction::Bounded {
            low: -3.5,
            high: 3.5,
        },
    ),
    entry("atan2pi", YX, Id::Atan2pi),
    entry("cbrt", X, Id::Cbrt),
    callable("cos", X, Id::Cos, Direction::Periodic),
    entry("cosh", X, Id::Cosh),
    entry("cospi", X, Id::Cospi),
    callable("exp", X, Id::Exp, RISING),
    callable("exp2", X, Id::Exp2, RISING),
    entry("exp10", X, Id::Exp10),
    entry("expm1", X, Id::Expm1),
    callable("log", X, Id::Log, RISING_FROM_ZERO),
    callable("log2", X, Id::Log2, RISING_FROM_ZERO),
    callable("log10", X, Id::Log10, RISING_FROM_ZERO),
    entry("log1p", X, Id::Log1p),
    entry("pow", XY, Id::Pow),
    // pown(x, n) = pow(x, n) for an integer n; its y is an int.
    entry("pown", XY, Id::Pow),
    entry("powr", XY, Id::Powr),
    callable("rootn", XY, Id::Rootn, Direction::Other),
    callable("sin", X, Id::Sin, Direction::Periodic),
    // Judged per output through the sin and cos rows.
    entry("sincos", X, Id::Sin),
    entry("sinh", X, Id::Sinh),
    entry("sinpi", X, Id::Sinpi),
    callable("tan", X, Id::Tan, Direction::Periodic),
    entry("tanh", X, Id::Tanh),
    entry("tanpi", X, Id::Tanpi),
    entry("OpFMul_OpFAdd", XYZ, Id::Fma),
    entry("OpFAdd", XY, Id::Add),
    entry("OpFSub", XY, Id::Sub),
    entry("OpFMul", XY, Id::Mul),
    callable("sqrt", X, Id::Sqrt, RISING_FROM_ZERO),
    callable("fabs", X, Id::Fabs, Direction::Other),
];

/// The instruction `name` as the rules know it; `None` when no rule can name it.
pub fn catalog(name: &str) -> Option<&'static Entry> {
    CATALOG.iter().find(|entry| entry.name == name)
}
