//! The one registry of functions clacc knows: per function, the fact that is not in the spec's
//! tables — its SPIR-V instruction, its signature class, its MPFR reference and where its
//! inputs are drawn from. The accuracy each function must meet lives in `tables/`, keyed by
//! the same name.

use crate::kernel::{Instruction, OpenclStd100Op as Op, Shape};
use crate::reference::{self as r, ReferenceFn};

/// One function clacc checks.
#[derive(Clone, Copy, Debug)]
pub struct Function {
    /// The spec tables' name for it: `OpFAdd`, or the OpenCL.std instruction name (`sin`).
    pub name: &'static str,
    pub instruction: Instruction,
    pub shape: Shape,
    pub reference: ReferenceFn,
    /// Interval per argument where half of the random inputs are drawn uniformly (the other
    /// half are uniform bit patterns over the whole format). One entry serves every argument.
    pub sample_ranges: &'static [(f64, f64)],
    /// Inputs outside this interval are not judged (the function is only specified inside it).
    pub domain: Option<(f64, f64)>,
}

impl Function {
    /// The range random inputs of argument `index` are drawn from.
    pub fn sample_range(&self, index: usize) -> (f64, f64) {
        self.sample_ranges[index.min(self.sample_ranges.len() - 1)]
    }

    /// Whether `args` lie where the function is specified.
    pub fn in_domain(&self, args: &[f64]) -> bool {
        match self.domain {
            None => true,
            Some((low, high)) => args.iter().all(|x| (low..=high).contains(x)),
        }
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
    reference: ReferenceFn,
    sample_ranges: &'static [(f64, f64)],
) -> Function {
    Function {
        name,
        instruction,
        shape,
        reference,
        sample_ranges,
        domain: None,
    }
}

const fn unary(
    name: &'static str,
    op: Op,
    reference: ReferenceFn,
    ranges: &'static [(f64, f64)],
) -> Function {
    function(name, Instruction::Ext(op), Shape::Unary, reference, ranges)
}

const fn binary(
    name: &'static str,
    op: Op,
    reference: ReferenceFn,
    ranges: &'static [(f64, f64)],
) -> Function {
    function(name, Instruction::Ext(op), Shape::Binary, reference, ranges)
}

const fn restricted(mut entry: Function, domain: Option<(f64, f64)>) -> Function {
    entry.domain = domain;
    entry
}

/// Every function clacc checks, in the order of the spec's tables.
pub const FUNCTIONS: &[Function] = &[
    function("OpFAdd", Instruction::FAdd, Shape::Binary, r::add, WIDE),
    function("OpFSub", Instruction::FSub, Shape::Binary, r::sub, WIDE),
    function("OpFMul", Instruction::FMul, Shape::Binary, r::mul, WIDE),
    function("OpFDiv", Instruction::FDiv, Shape::Binary, r::div, WIDE),
    unary("acos", Op::acos, r::acos, UNIT),
    unary("acosh", Op::acosh, r::acosh, &[(1.0, 1.0e4)]),
    unary("acospi", Op::acospi, r::acospi, UNIT),
    unary("asin", Op::asin, r::asin, UNIT),
    unary("asinh", Op::asinh, r::asinh, WIDE),
    unary("asinpi", Op::asinpi, r::asinpi, UNIT),
    unary("atan", Op::atan, r::atan, WIDE),
    unary("atanh", Op::atanh, r::atanh, UNIT),
    unary("atanpi", Op::atanpi, r::atanpi, WIDE),
    binary("atan2", Op::atan2, r::atan2, WIDE),
    binary("atan2pi", Op::atan2pi, r::atan2pi, WIDE),
    unary("cbrt", Op::cbrt, r::cbrt, WIDE),
    unary("ceil", Op::ceil, r::ceil, WIDE),
    binary("copysign", Op::copysign, r::copysign, WIDE),
    unary("cos", Op::cos, r::cos, TRIG),
    unary("cosh", Op::cosh, r::cosh, EXP),
    unary("cospi", Op::cospi, r::cospi, TRIG_PI),
    unary("erfc", Op::erfc, r::erfc, ERF),
    unary("erf", Op::erf, r::erf, ERF),
    unary("exp", Op::exp, r::exp, EXP),
    unary("exp2", Op::exp2, r::exp2, &[(-130.0, 130.0)]),
    unary("exp10", Op::exp10, r::exp10, &[(-40.0, 40.0)]),
    unary("expm1", Op::expm1, r::expm1, EXP),
    unary("fabs", Op::fabs, r::fabs, WIDE),
    binary("fdim", Op::fdim, r::fdim, WIDE),
    unary("floor", Op::floor, r::floor, WIDE),
    function(
        "fma",
        Instruction::Ext(Op::fma),
        Shape::Ternary,
        r::fma,
        WIDE,
    ),
    binary("fmax", Op::fmax, r::fmax, WIDE),
    binary("fmin", Op::fmin, r::fmin, WIDE),
    binary("fmod", Op::fmod, r::fmod, WIDE),
    binary("hypot", Op::hypot, r::hypot, WIDE),
    unary("lgamma", Op::lgamma, r::lgamma, GAMMA),
    unary("log", Op::log, r::log, LOG),
    unary("log2", Op::log2, r::log2, LOG),
    unary("log10", Op::log10, r::log10, LOG),
    unary("log1p", Op::log1p, r::log1p, &[(-1.0, 1.0e4)]),
    unary("logb", Op::logb, r::logb, WIDE),
    function(
        "mad",
        Instruction::Ext(Op::mad),
        Shape::Ternary,
        r::fma,
        WIDE,
    ),
    binary("maxmag", Op::maxmag, r::maxmag, WIDE),
    binary("minmag", Op::minmag, r::minmag, WIDE),
    binary("pow", Op::pow, r::pow, POW),
    binary("powr", Op::powr, r::powr, POW),
    binary("remainder", Op::remainder, r::remainder, WIDE),
    unary("rint", Op::rint, r::rint, WIDE),
    unary("round", Op::round, r::round, WIDE),
    unary("rsqrt", Op::rsqrt, r::rsqrt, LOG),
    unary("sin", Op::sin, r::sin, TRIG),
    unary("sinh", Op::sinh, r::sinh, EXP),
    unary("sinpi", Op::sinpi, r::sinpi, TRIG_PI),
    unary("sqrt", Op::sqrt, r::sqrt, LOG),
    unary("tan", Op::tan, r::tan, TRIG),
    unary("tanh", Op::tanh, r::tanh, ERF),
    unary("tanpi", Op::tanpi, r::tanpi, TRIG_PI),
    unary("tgamma", Op::tgamma, r::tgamma, GAMMA),
    unary("trunc", Op::trunc, r::trunc, WIDE),
    restricted(
        unary("half_cos", Op::half_cos, r::cos, TRIG),
        HALF_TRIG_DOMAIN,
    ),
    binary("half_divide", Op::half_divide, r::div, WIDE),
    unary("half_exp", Op::half_exp, r::exp, EXP),
    unary("half_exp2", Op::half_exp2, r::exp2, &[(-130.0, 130.0)]),
    unary("half_exp10", Op::half_exp10, r::exp10, &[(-40.0, 40.0)]),
    unary("half_log", Op::half_log, r::log, LOG),
    unary("half_log2", Op::half_log2, r::log2, LOG),
    unary("half_log10", Op::half_log10, r::log10, LOG),
    binary("half_powr", Op::half_powr, r::powr, POW),
    unary("half_recip", Op::half_recip, r::recip, WIDE),
    unary("half_rsqrt", Op::half_rsqrt, r::rsqrt, LOG),
    restricted(
        unary("half_sin", Op::half_sin, r::sin, TRIG),
        HALF_TRIG_DOMAIN,
    ),
    unary("half_sqrt", Op::half_sqrt, r::sqrt, LOG),
    restricted(
        unary("half_tan", Op::half_tan, r::tan, TRIG),
        HALF_TRIG_DOMAIN,
    ),
    unary("native_cos", Op::native_cos, r::cos, TRIG),
    binary("native_divide", Op::native_divide, r::div, WIDE),
    unary("native_exp", Op::native_exp, r::exp, EXP),
    unary("native_exp2", Op::native_exp2, r::exp2, &[(-130.0, 130.0)]),
    unary("native_exp10", Op::native_exp10, r::exp10, &[(-40.0, 40.0)]),
    unary("native_log", Op::native_log, r::log, LOG),
    unary("native_log2", Op::native_log2, r::log2, LOG),
    unary("native_log10", Op::native_log10, r::log10, LOG),
    binary("native_powr", Op::native_powr, r::powr, POW),
    unary("native_recip", Op::native_recip, r::recip, WIDE),
    unary("native_rsqrt", Op::native_rsqrt, r::rsqrt, LOG),
    unary("native_sin", Op::native_sin, r::sin, TRIG),
    unary("native_sqrt", Op::native_sqrt, r::sqrt, LOG),
    unary("native_tan", Op::native_tan, r::tan, TRIG),
];

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
    use crate::table::{builtin, Profile};
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_found_in_any_spelling() {
        let names: HashSet<_> = FUNCTIONS.iter().map(|f| matching_key(f.name)).collect();
        assert_eq!(names.len(), FUNCTIONS.len());
        assert_eq!(find("SIN").unwrap().name, "sin");
        assert_eq!(find("fadd").unwrap().name, "OpFAdd");
        assert_eq!(find("OpFDiv").unwrap().name, "OpFDiv");
        assert!(find("sine").is_none());
    }

    #[test]
    fn every_function_has_a_row_in_both_spec_tables() {
        for profile in Profile::ALL {
            for entry in FUNCTIONS {
                assert!(
                    builtin(profile).row(entry.name).is_some(),
                    "{} has no row in {}",
                    entry.name,
                    builtin(profile).source
                );
            }
        }
    }

    #[test]
    fn every_function_names_its_own_instruction() {
        for entry in FUNCTIONS {
            let expected = match entry.instruction {
                Instruction::Ext(_) => entry.name.to_string(),
                _ => matching_key(entry.name),
            };
            assert_eq!(entry.instruction.name(), expected);
        }
    }
}
