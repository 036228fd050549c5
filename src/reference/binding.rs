//! Binds each [`ReferenceId`] the registry names to the functions that compute it: its MPFR
//! reference, the ground truth; where they exist its fast tiers, a double tier and the
//! function correctly rounded to float (CORE-MATH, or the host's IEEE operation); and its
//! exact host version. All are exhaustive `match`es: adding an id to the spec does not build
//! until it is bound here.

use super::exact::{self as e, ExactColumnFn, ExactFn};
use super::past_double::{self as p, PastDoubleFn};
use super::side::{self as s, SideFn};
use super::{self as r, fast as f, FastFn, ReferenceFn};
use crate::num::fp::FloatType;
use crate::spec::reference_id::ReferenceId as Id;
use crate::spec::registry::Output;

/// Every output's exact reference ([`super::high_precision`]'s value) from one MPFR call.
pub type JointFn = fn(&[rug::Float], FloatType) -> Vec<rug::Float>;

/// The exact references of a function's outputs from one MPFR call, where one serves them all
/// (each value the one [`super::high_precision`] gives for its output): sincos's sine and
/// cosine; normalize's components, from one length.
pub fn joint_mpfr(outputs: &[Output]) -> Option<JointFn> {
    match outputs {
        [sine, cosine] if (sine.reference, cosine.reference) == (Id::Sin, Id::Cos) => {
            Some(r::high_precision_sin_cos)
        }
        // normalize's components in order, one per argument (a unit's first `width`).
        components
            if !components.is_empty()
                && components.iter().map(|output| output.reference).eq([
                    Id::Normalize0,
                    Id::Normalize1,
                    Id::Normalize2,
                    Id::Normalize3,
                ]
                .into_iter()
                .take(components.len())) =>
        {
            Some(r::high_precision_normalize)
        }
        _ => None,
    }
}

/// The MPFR reference of `id`.
pub fn mpfr(id: Id) -> ReferenceFn {
    match id {
        Id::Acos => r::acos,
        Id::Acosh => r::acosh,
        Id::Acospi => r::acospi,
        Id::Add => r::add,
        Id::Asin => r::asin,
        Id::Asinh => r::asinh,
        Id::Asinpi => r::asinpi,
        Id::Atan => r::atan,
        Id::Atan2 => r::atan2,
        Id::Atan2pi => r::atan2pi,
        Id::Atanh => r::atanh,
        Id::Atanpi => r::atanpi,
        Id::Cbrt => r::cbrt,
        Id::Ceil => r::ceil,
        Id::Copysign => r::copysign,
        Id::Cos => r::cos,
        Id::Cosh => r::cosh,
        Id::Cospi => r::cospi,
        Id::Cross0 => r::cross_0,
        Id::Cross1 => r::cross_1,
        Id::Cross2 => r::cross_2,
        Id::Cross3 => r::cross_3,
        Id::Degrees => r::degrees,
        Id::Distance => r::distance,
        Id::Div => r::div,
        Id::Dot => r::dot,
        Id::Erf => r::erf,
        Id::Erfc => r::erfc,
        Id::Exp => r::exp,
        Id::Exp10 => r::exp10,
        Id::Exp2 => r::exp2,
        Id::Expm1 => r::expm1,
        Id::Fabs => r::fabs,
        Id::Fclamp => r::fclamp,
        Id::Fdim => r::fdim,
        Id::Floor => r::floor,
        Id::Fma => r::fma,
        Id::Fmax => r::fmax,
        Id::Fmin => r::fmin,
        Id::Fmod => r::fmod,
        Id::Fract => r::fract,
        Id::FrexpExponent => r::frexp_exponent,
        Id::FrexpMantissa => r::frexp_mantissa,
        Id::Hypot => r::hypot,
        Id::Ilogb => r::ilogb,
        Id::Ldexp => r::ldexp,
        Id::Length => r::length,
        Id::Lgamma => r::lgamma,
        Id::LgammaSign => r::lgamma_sign,
        Id::Log => r::log,
        Id::Log10 => r::log10,
        Id::Log1p => r::log1p,
        Id::Log2 => r::log2,
        Id::Logb => r::logb,
        Id::Maxmag => r::maxmag,
        Id::Minmag => r::minmag,
        Id::Mix => r::mix,
        Id::ModfFraction => r::modf_fraction,
        Id::Mul => r::mul,
        Id::Nan => r::nan,
        Id::Nextafter => r::nextafter,
        Id::Normalize0 => r::normalize_0,
        Id::Normalize1 => r::normalize_1,
        Id::Normalize2 => r::normalize_2,
        Id::Normalize3 => r::normalize_3,
        Id::Pow => r::pow,
        Id::Pown => r::pown,
        Id::Powr => r::powr,
        Id::Radians => r::radians,
        Id::Recip => r::recip,
        Id::Remainder => r::remainder,
        Id::RemquoQuotient => r::remquo_quotient,
        Id::RemquoRemainder => r::remquo_remainder,
        Id::Rint => r::rint,
        Id::Rootn => r::rootn,
        Id::Round => r::round,
        Id::Rsqrt => r::rsqrt,
        Id::Sign => r::sign,
        Id::Sin => r::sin,
        Id::Sinh => r::sinh,
        Id::Sinpi => r::sinpi,
        Id::Smoothstep => r::smoothstep,
        Id::Sqrt => r::sqrt,
        Id::Step => r::step,
        Id::Sub => r::sub,
        Id::Tan => r::tan,
        Id::Tanh => r::tanh,
        Id::Tanpi => r::tanpi,
        Id::Tgamma => r::tgamma,
        Id::Trunc => r::trunc,
    }
}

/// A reference's fast tiers: its double tier, and its float version (for float arguments:
/// CORE-MATH's float function, or the host's binary32 operation), which gives the correctly
/// rounded float bits outright.
#[derive(Clone, Copy, Debug)]
pub struct FastTiers {
    pub double: DoubleTier,
    pub float: FastFn,
    /// Which side of a power of two the exact value lies on ([`super::side`]), where the
    /// function's shape settles it: where the double tier gives ±2^k, the binade of the exact
    /// value (and so the spec's ulp) without MPFR.
    pub side: Option<SideFn>,
}

/// A fast tier in double, for half and float results.
#[derive(Clone, Copy, Debug)]
pub enum DoubleTier {
    /// The function correctly rounded to double (for double arguments too).
    CorrectlyRounded(FastFn),
    /// Within [`super::NEAR_ERROR`] of the exact value, relative, for half and float
    /// arguments: where nothing cheap rounds the function correctly to double (rootn).
    Near(FastFn),
}

fn tiers(double: FastFn, float: FastFn) -> Option<FastTiers> {
    Some(FastTiers {
        double: DoubleTier::CorrectlyRounded(double),
        float,
        side: None,
    })
}

fn near(double: FastFn, float: FastFn) -> Option<FastTiers> {
    Some(FastTiers {
        double: DoubleTier::Near(double),
        float,
        side: None,
    })
}

/// `tiers` with the side rule `side`.
fn beside(tiers: Option<FastTiers>, side: SideFn) -> Option<FastTiers> {
    tiers.map(|tiers| FastTiers {
        side: Some(side),
        ..tiers
    })
}

/// The fast tiers of `id`, where they exist. Inlined: the per-input verdicts ask for one of
/// its fields several times an input, and the call that built the whole struct each time was
/// 1.3% of an exhaustive float sin run's CPU.
#[inline]
pub fn fast(id: Id) -> Option<FastTiers> {
    match id {
        Id::Acos => tiers(f::acos, f::acosf),
        Id::Acosh => tiers(f::acosh, f::acoshf),
        Id::Acospi => beside(tiers(f::acospi, f::acospif), s::acospi),
        Id::Add => tiers(f::add, f::addf),
        Id::Asin => tiers(f::asin, f::asinf),
        Id::Asinh => tiers(f::asinh, f::asinhf),
        Id::Asinpi => tiers(f::asinpi, f::asinpif),
        Id::Atan => tiers(f::atan, f::atanf),
        Id::Atan2 => tiers(f::atan2, f::atan2f),
        Id::Atan2pi => beside(tiers(f::atan2pi, f::atan2pif), s::atan2pi),
        Id::Atanh => tiers(f::atanh, f::atanhf),
        Id::Atanpi => tiers(f::atanpi, f::atanpif),
        Id::Cbrt => tiers(f::cbrt, f::cbrtf),
        Id::Cos => beside(tiers(f::cos, f::cosf), s::cos),
        Id::Cosh => beside(tiers(f::cosh, f::coshf), s::cosh),
        Id::Cospi => beside(tiers(f::cospi, f::cospif), s::cospi),
        Id::Div => tiers(f::div, f::divf),
        Id::Erf => tiers(f::erf, f::erff),
        Id::Erfc => beside(tiers(f::erfc, f::erfcf), s::erfc),
        Id::Exp => beside(tiers(f::exp, f::expf), s::exp),
        Id::Exp10 => beside(tiers(f::exp10, f::exp10f), s::exp),
        Id::Exp2 => beside(tiers(f::exp2, f::exp2f), s::exp2),
        Id::Expm1 => tiers(f::expm1, f::expm1f),
        Id::Fdim => tiers(f::fdim, f::fdimf),
        Id::Fma => tiers(f::fma, f::fmaf),
        Id::Hypot => tiers(f::hypot, f::hypotf),
        Id::Lgamma => tiers(f::lgamma, f::lgammaf),
        Id::Log => tiers(f::log, f::logf),
        Id::Log10 => tiers(f::log10, f::log10f),
        Id::Log1p => tiers(f::log1p, f::log1pf),
        Id::Log2 => tiers(f::log2, f::log2f),
        Id::Mul => tiers(f::mul, f::mulf),
        Id::Pow => beside(tiers(f::pow, f::powf), s::pow),
        Id::Pown => beside(tiers(f::pown, f::pownf), s::pow),
        Id::Powr => beside(tiers(f::powr, f::powrf), s::powr),
        Id::Recip => tiers(f::recip, f::recipf),
        Id::Rootn => beside(near(f::rootn_near, f::rootnf), s::rootn),
        Id::Rsqrt => tiers(f::rsqrt, f::rsqrtf),
        Id::Sin => tiers(f::sin, f::sinf),
        Id::Sinh => tiers(f::sinh, f::sinhf),
        Id::Sinpi => tiers(f::sinpi, f::sinpif),
        Id::Sqrt => tiers(f::sqrt, f::sqrtf),
        Id::Sub => tiers(f::sub, f::subf),
        Id::Tan => tiers(f::tan, f::tanf),
        Id::Tanh => tiers(f::tanh, f::tanhf),
        Id::Tanpi => tiers(f::tanpi, f::tanpif),
        Id::Tgamma => beside(tiers(f::tgamma, f::tgammaf), s::tgamma),
        Id::Ceil
        | Id::Copysign
        | Id::Cross0
        | Id::Cross1
        | Id::Cross2
        | Id::Cross3
        | Id::Degrees
        | Id::Distance
        | Id::Dot
        | Id::Fabs
        | Id::Fclamp
        | Id::Floor
        | Id::Fmax
        | Id::Fmin
        | Id::Fmod
        | Id::Fract
        | Id::FrexpExponent
        | Id::FrexpMantissa
        | Id::Ilogb
        | Id::Ldexp
        | Id::Length
        | Id::LgammaSign
        | Id::Logb
        | Id::Maxmag
        | Id::Minmag
        | Id::Mix
        | Id::ModfFraction
        | Id::Nan
        | Id::Nextafter
        | Id::Normalize0
        | Id::Normalize1
        | Id::Normalize2
        | Id::Normalize3
        | Id::Radians
        | Id::Remainder
        | Id::RemquoQuotient
        | Id::RemquoRemainder
        | Id::Rint
        | Id::Round
        | Id::Sign
        | Id::Smoothstep
        | Id::Step
        | Id::Trunc => None,
    }
}

/// Where `id`'s exact value is past the largest double by a bound on its arguments
/// ([`super::past_double`]), for the functions whose sweeps overflow double often.
pub fn past_double(id: Id) -> Option<PastDoubleFn> {
    match id {
        Id::Exp => Some(p::exp),
        Id::Exp2 => Some(p::exp2),
        Id::Exp10 => Some(p::exp10),
        Id::Expm1 => Some(p::expm1),
        Id::Sinh | Id::Cosh => Some(p::hyperbolic),
        Id::Pow => Some(p::pow),
        Id::Powr => Some(p::powr),
        Id::Tgamma => Some(p::tgamma),
        _ => None,
    }
}

/// The exact value of `id` at double arguments as a sum of doubles
/// ([`super::sum_of_doubles`]): `false` where it declines.
pub type ExactSumFn = fn(&[f64], &mut crate::num::exact_sum::ExactSum) -> bool;

/// [`ExactSumFn`] of `id`, where its exact value is a sum of products of the arguments.
pub fn exact_sum(id: Id) -> Option<ExactSumFn> {
    use super::sum_of_doubles as s;
    match id {
        Id::Fma => Some(s::fma),
        Id::Dot => Some(s::dot),
        Id::Cross0 => Some(s::cross_0),
        Id::Cross1 => Some(s::cross_1),
        Id::Cross2 => Some(s::cross_2),
        Id::Cross3 => Some(s::cross_3),
        Id::Mix => Some(s::mix),
        Id::Fmod => Some(s::fmod),
        _ => None,
    }
}

/// The exact host version of `id` ([`super::exact`]), where the host computes the exact
/// result (proof in that module's docs); the judge passes a device result equal to it with
/// error 0 for every output of every row, whatever its `fast_tier` flag.
#[inline(always)]
pub fn exact(id: Id) -> Option<ExactFn> {
    exact_tiers(id).map(|(exact, _)| exact)
}

/// [`exact`] over columns of inputs: the same function (its [`e::column`]), for a sweep's
/// slices.
pub fn exact_column(id: Id) -> Option<ExactColumnFn> {
    exact_tiers(id).map(|(_, column)| column)
}

/// An exact function and its column version, one pair per id so that the two cannot disagree.
macro_rules! exact_pair {
    ($exact:path) => {
        (
            $exact as ExactFn,
            (|arguments: &[&[f64]], element: FloatType, out: &mut e::ExactColumn| {
                e::column(arguments, element, out, $exact)
            }) as ExactColumnFn,
        )
    };
}

/// [`exact`] and [`exact_column`] of `id`. Inlined: the per-input verdicts ask for [`exact`]
/// several times an input, and its call was 1.5% of float ldexp's host samples.
#[inline(always)]
fn exact_tiers(id: Id) -> Option<(ExactFn, ExactColumnFn)> {
    match id {
        Id::Ceil => Some(exact_pair!(e::ceil)),
        Id::Copysign => Some(exact_pair!(e::copysign)),
        Id::Fabs => Some(exact_pair!(e::fabs)),
        Id::Fclamp => Some(exact_pair!(e::fclamp)),
        Id::Fdim => Some(exact_pair!(e::fdim)),
        Id::Floor => Some(exact_pair!(e::floor)),
        Id::Fract => Some(exact_pair!(e::fract)),
        Id::Fmax => Some(exact_pair!(e::fmax)),
        Id::Fmin => Some(exact_pair!(e::fmin)),
        Id::Fmod => Some(exact_pair!(e::fmod)),
        Id::FrexpExponent => Some(exact_pair!(e::frexp_exponent)),
        Id::FrexpMantissa => Some(exact_pair!(e::frexp_mantissa)),
        Id::Ilogb => Some(exact_pair!(e::ilogb)),
        Id::Ldexp => Some(exact_pair!(e::ldexp)),
        Id::Logb => Some(exact_pair!(e::logb)),
        Id::Maxmag => Some(exact_pair!(e::maxmag)),
        Id::Minmag => Some(exact_pair!(e::minmag)),
        Id::ModfFraction => Some(exact_pair!(e::modf_fraction)),
        Id::Nan => Some(exact_pair!(e::nan)),
        Id::Nextafter => Some(exact_pair!(e::nextafter)),
        Id::Remainder => Some(exact_pair!(e::remainder)),
        // remquo's remainder is remainder's: x − k·y with k the integer nearest x/y, ties to
        // even (remquo's quotient output has no exact tier, so remquo is judged as before by
        // `Rules::remquo_verdict`; this proves its remainder finite under finite math).
        Id::RemquoRemainder => Some(exact_pair!(e::remainder)),
        Id::Rint => Some(exact_pair!(e::rint)),
        Id::Round => Some(exact_pair!(e::round)),
        Id::Sign => Some(exact_pair!(e::sign)),
        Id::Step => Some(exact_pair!(e::step)),
        Id::Trunc => Some(exact_pair!(e::trunc)),
        Id::Acos
        | Id::Acosh
        | Id::Acospi
        | Id::Add
        | Id::Asin
        | Id::Asinh
        | Id::Asinpi
        | Id::Atan
        | Id::Atan2
        | Id::Atan2pi
        | Id::Atanh
        | Id::Atanpi
        | Id::Cbrt
        | Id::Cos
        | Id::Cosh
        | Id::Cospi
        | Id::Cross0
        | Id::Cross1
        | Id::Cross2
        | Id::Cross3
        | Id::Degrees
        | Id::Distance
        | Id::Div
        | Id::Dot
        | Id::Erf
        | Id::Erfc
        | Id::Exp
        | Id::Exp10
        | Id::Exp2
        | Id::Expm1
        | Id::Fma
        | Id::Hypot
        | Id::Length
        | Id::Lgamma
        | Id::LgammaSign
        | Id::Log
        | Id::Log10
        | Id::Log1p
        | Id::Log2
        | Id::Mix
        | Id::Mul
        | Id::Normalize0
        | Id::Normalize1
        | Id::Normalize2
        | Id::Normalize3
        | Id::Pow
        | Id::Pown
        | Id::Powr
        | Id::Radians
        | Id::Recip
        | Id::RemquoQuotient
        | Id::Rootn
        | Id::Rsqrt
        | Id::Sin
        | Id::Sinh
        | Id::Sinpi
        | Id::Smoothstep
        | Id::Sqrt
        | Id::Sub
        | Id::Tan
        | Id::Tanh
        | Id::Tanpi
        | Id::Tgamma => None,
    }
}

/// The fast tier the judge may decide `output` by first: its reference's [`fast`] correctly
/// rounded double, where the registry's row asks for it (MPFR stays the ground truth, see
/// `judge`).
pub fn fast_tier(output: &Output) -> Option<FastFn> {
    match output_tiers(output)?.double {
        DoubleTier::CorrectlyRounded(double) => Some(double),
        DoubleTier::Near(_) => None,
    }
}

/// [`fast_tier`]'s approximation where the reference has no correctly rounded double
/// ([`DoubleTier::Near`]).
pub fn near_tier(output: &Output) -> Option<FastFn> {
    match output_tiers(output)?.double {
        DoubleTier::Near(near) => Some(near),
        DoubleTier::CorrectlyRounded(_) => None,
    }
}

/// [`fast_tier`]'s float version, for float arguments.
pub fn float_tier(output: &Output) -> Option<FastFn> {
    output_tiers(output).map(|tiers| tiers.float)
}

/// [`fast_tier`]'s side rule at a power of two ([`FastTiers::side`]).
pub fn side_tier(output: &Output) -> Option<SideFn> {
    output_tiers(output)?.side
}

/// Whether [`fast_tier`]'s double is the exact value itself for arguments of `element`, not
/// only its rounding: the sum or difference of two halves (its bits lie between 2^16 and
/// 2^-24: 41 < 53), the product of two halves or two floats (22 or 48 bits, in double's normal
/// range). A double there that is a midpoint of the format is the exact value, which rounds
/// to even.
pub fn double_tier_is_exact(output: &Output, element: FloatType) -> bool {
    fast_tier(output).is_some()
        && matches!(
            (output.reference, element),
            (Id::Add | Id::Sub, FloatType::Half) | (Id::Mul, FloatType::Half | FloatType::Float)
        )
}

fn output_tiers(output: &Output) -> Option<FastTiers> {
    if output.fast_tier {
        fast(output.reference)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::registry::FUNCTIONS;

    /// A row that asks for a fast tier gets one: an output cannot ask for it and silently be
    /// judged by MPFR alone.
    #[test]
    fn every_output_that_asks_for_a_fast_tier_has_one() {
        let mut asking = 0;
        for function in FUNCTIONS {
            for output in function.outputs.iter().filter(|output| output.fast_tier) {
                assert!(
                    fast(output.reference).is_some(),
                    "{}: {:?} has no fast tier",
                    function.name,
                    output.reference
                );
                assert!(float_tier(output).is_some());
                asking += 1;
            }
        }
        assert!(asking > 40, "{asking}");
    }
}
