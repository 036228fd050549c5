//! Binds each [`ReferenceId`] the registry names to the functions that compute it: its MPFR
//! reference, the ground truth, and where one exists its fast tier, the function correctly
//! rounded to double (CORE-MATH, or the host's IEEE operation). Both are exhaustive `match`es:
//! adding an id to the spec does not build until it is bound here.

use super::exact::{self as e, ExactFn};
use super::{self as r, fast as f, FastFn, ReferenceFn};
use crate::spec::reference_id::ReferenceId as Id;
use crate::spec::registry::Output;

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

/// The correctly rounded double version of `id`, where one exists.
pub fn fast(id: Id) -> Option<FastFn> {
    match id {
        Id::Acos => Some(f::acos),
        Id::Acosh => Some(f::acosh),
        Id::Acospi => Some(f::acospi),
        Id::Add => Some(f::add),
        Id::Asin => Some(f::asin),
        Id::Asinh => Some(f::asinh),
        Id::Asinpi => Some(f::asinpi),
        Id::Atan => Some(f::atan),
        Id::Atan2 => Some(f::atan2),
        Id::Atan2pi => Some(f::atan2pi),
        Id::Atanh => Some(f::atanh),
        Id::Atanpi => Some(f::atanpi),
        Id::Cbrt => Some(f::cbrt),
        Id::Cos => Some(f::cos),
        Id::Cosh => Some(f::cosh),
        Id::Cospi => Some(f::cospi),
        Id::Div => Some(f::div),
        Id::Erf => Some(f::erf),
        Id::Erfc => Some(f::erfc),
        Id::Exp => Some(f::exp),
        Id::Exp10 => Some(f::exp10),
        Id::Exp2 => Some(f::exp2),
        Id::Expm1 => Some(f::expm1),
        Id::Fma => Some(f::fma),
        Id::Hypot => Some(f::hypot),
        Id::Lgamma => Some(f::lgamma),
        Id::Log => Some(f::log),
        Id::Log10 => Some(f::log10),
        Id::Log1p => Some(f::log1p),
        Id::Log2 => Some(f::log2),
        Id::Mul => Some(f::mul),
        Id::Pow => Some(f::pow),
        Id::Rsqrt => Some(f::rsqrt),
        Id::Sin => Some(f::sin),
        Id::Sinh => Some(f::sinh),
        Id::Sinpi => Some(f::sinpi),
        Id::Sqrt => Some(f::sqrt),
        Id::Sub => Some(f::sub),
        Id::Tan => Some(f::tan),
        Id::Tanh => Some(f::tanh),
        Id::Tanpi => Some(f::tanpi),
        Id::Tgamma => Some(f::tgamma),
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
        | Id::Fdim
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
        | Id::Pown
        | Id::Powr
        | Id::Radians
        | Id::Recip
        | Id::Remainder
        | Id::RemquoQuotient
        | Id::RemquoRemainder
        | Id::Rint
        | Id::Rootn
        | Id::Round
        | Id::Sign
        | Id::Smoothstep
        | Id::Step
        | Id::Trunc => None,
    }
}

/// The exact host version of `id` ([`super::exact`]), where the host computes the exact
/// result (proof in that module's docs); the judge passes a device result equal to it with
/// error 0 for every output of every row, whatever its `fast_tier` flag.
pub fn exact(id: Id) -> Option<ExactFn> {
    match id {
        Id::Ceil => Some(e::ceil),
        Id::Copysign => Some(e::copysign),
        Id::Fabs => Some(e::fabs),
        Id::Fclamp => Some(e::fclamp),
        Id::Fdim => Some(e::fdim),
        Id::Floor => Some(e::floor),
        Id::Fmax => Some(e::fmax),
        Id::Fmin => Some(e::fmin),
        Id::Fmod => Some(e::fmod),
        Id::FrexpExponent => Some(e::frexp_exponent),
        Id::FrexpMantissa => Some(e::frexp_mantissa),
        Id::Ilogb => Some(e::ilogb),
        Id::Ldexp => Some(e::ldexp),
        Id::Logb => Some(e::logb),
        Id::Maxmag => Some(e::maxmag),
        Id::Minmag => Some(e::minmag),
        Id::ModfFraction => Some(e::modf_fraction),
        Id::Nextafter => Some(e::nextafter),
        Id::Remainder => Some(e::remainder),
        Id::Rint => Some(e::rint),
        Id::Round => Some(e::round),
        Id::Sign => Some(e::sign),
        Id::Step => Some(e::step),
        Id::Trunc => Some(e::trunc),
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
        | Id::Fract
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
        | Id::Nan
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
        | Id::RemquoRemainder
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

/// The fast tier the judge may decide `output` by first: its reference's [`fast`], where the
/// registry's row asks for it (MPFR stays the ground truth, see `judge`).
pub fn fast_tier(output: &Output) -> Option<FastFn> {
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
                assert!(fast_tier(output).is_some());
                asking += 1;
            }
        }
        assert!(asking > 40, "{asking}");
    }
}
