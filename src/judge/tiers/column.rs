//! Column tiers: a function's references over whole columns of float inputs, many lanes at a
//! time, for a sweep's bulk passes ([`crate::judge::slice`]). A column tier is one
//! implementation of [`ColumnTier`] (one argument), [`PairColumnTier`] (two) or
//! [`TripleColumnTier`] (three); [`column_tier`], [`pair_column_tier`] and
//! [`triple_column_tier`] list them. What a tier leaves undecided (NaN in its
//! column) the scalar tiers decide, input by input ([`ColumnTiers`]), so a column holds the
//! same values as the scalar tiers, bit for bit, NaN where they give NaN. A tier may also
//! declare where the function's value is NaN (its domain test, `nan_at`): those NaNs are
//! decided, and no scalar tier is asked for them (half of a random sweep's log inputs are
//! negative).

use crate::judge::Rules;
use crate::num::fp::FloatType;
use crate::reference::column as c;
use crate::reference::exp_column as e;
use crate::reference::expm1_column as m;
use crate::reference::fma_column;
use crate::reference::hyperbolic_column as h;
use crate::reference::log_column as l;
use crate::reference::pair_column::{atan2, hypot, pow};
use crate::reference::{binding, FastFn};
use crate::spec::reference_id::ReferenceId as Id;
use crate::spec::registry::OutputCheck;

/// A fast tier over a column of floats (as doubles) for a function of one argument.
pub trait ColumnTier: Sync {
    /// The function at each float of `x`, correctly rounded to float, into `out` (cleared,
    /// then as long as `x`), or NaN where the tier cannot decide that value exactly. Every
    /// value that is not NaN must be the correctly rounded float: the tier's doc comment
    /// proves it, and a test compares the column with MPFR or CORE-MATH.
    fn floats(&self, x: &[f64], out: &mut Vec<f64>);

    /// The function at each float of `x`, correctly rounded to double, into `out` as
    /// [`ColumnTier::floats`] (NaN where undecided); `false`, `out` untouched, where the tier
    /// has no double column.
    fn doubles(&self, _x: &[f64], _out: &mut Vec<f64>) -> bool {
        false
    }

    /// Whether the function's value at `x` is NaN, known without computing it (a NaN
    /// argument, or one outside the domain: log of a negative number). Where it says so, a
    /// NaN in the tier's columns is decided and the scalar tiers are not asked; it may say
    /// `false` at any input (the scalar tiers then give NaN again), and must never say `true`
    /// where the value is not NaN: the tier's doc proves it, and a test holds it to the scalar
    /// tiers and MPFR.
    fn nan_at(&self, _x: f64) -> bool {
        false
    }

    /// The positions of `out` (this tier's float or double column at `x`) that the scalar
    /// tiers decide: NaN, where [`ColumnTier::nan_at`] does not say the value is NaN. A tier
    /// writes `nan_at`, not this: the pass is compiled for each tier, its test inlined.
    fn undecided(&self, x: &[f64], out: &[f64]) -> Vec<usize> {
        positions_where(out, |i| !self.nan_at(x[i]))
    }
}

/// A fast tier over columns of floats (as doubles) for a function of two arguments, taken in
/// the function's order (atan2's `y` first): [`ColumnTier`]'s contract for each input
/// `(x[i], y[i])`.
pub trait PairColumnTier: Sync {
    /// The function at each pair, correctly rounded to float, into `out` (cleared, then as
    /// long as `x`, which `y` is as long as), or NaN where the tier cannot decide that value
    /// exactly.
    fn floats(&self, x: &[f64], y: &[f64], out: &mut Vec<f64>);

    /// The function at each pair, correctly rounded to double, as [`PairColumnTier::floats`];
    /// `false`, `out` untouched, where the tier has no double column.
    fn doubles(&self, _x: &[f64], _y: &[f64], _out: &mut Vec<f64>) -> bool {
        false
    }

    /// Whether the function's value at `(x, y)` is NaN, known without computing it:
    /// [`ColumnTier::nan_at`]'s contract.
    fn nan_at(&self, _x: f64, _y: f64) -> bool {
        false
    }

    /// [`ColumnTier::undecided`] for two arguments.
    fn undecided(&self, x: &[f64], y: &[f64], out: &[f64]) -> Vec<usize> {
        positions_where(out, |i| !self.nan_at(x[i], y[i]))
    }
}

/// A fast tier over columns of floats (as doubles) for a function of three arguments:
/// [`ColumnTier`]'s contract for each input `(x[i], y[i], z[i])`.
pub trait TripleColumnTier: Sync {
    /// The function at each triple, correctly rounded to float, into `out` (cleared, then as
    /// long as `x`, which `y` and `z` are as long as), or NaN where the tier cannot decide
    /// that value exactly.
    fn floats(&self, x: &[f64], y: &[f64], z: &[f64], out: &mut Vec<f64>);

    /// The function at each triple, correctly rounded to double, as
    /// [`TripleColumnTier::floats`]; `false`, `out` untouched, where the tier has no double
    /// column.
    fn doubles(&self, _x: &[f64], _y: &[f64], _z: &[f64], _out: &mut Vec<f64>) -> bool {
        false
    }

    /// Whether the function's value at `(x, y, z)` is NaN, known without computing it:
    /// [`ColumnTier::nan_at`]'s contract.
    fn nan_at(&self, _x: f64, _y: f64, _z: f64) -> bool {
        false
    }

    /// [`ColumnTier::undecided`] for three arguments.
    fn undecided(&self, x: &[f64], y: &[f64], z: &[f64], out: &[f64]) -> Vec<usize> {
        positions_where(out, |i| !self.nan_at(x[i], y[i], z[i]))
    }
}

/// The three-argument column tier of reference `id`, where one is written.
fn triple_column_tier(id: Id) -> Option<&'static dyn TripleColumnTier> {
    match id {
        Id::Fma => Some(&Fma),
        _ => None,
    }
}

/// Float fma ([`crate::reference::fma_column`]'s proof), both columns, which decide every
/// input: NaN only where the value is.
struct Fma;

impl TripleColumnTier for Fma {
    fn floats(&self, x: &[f64], y: &[f64], z: &[f64], out: &mut Vec<f64>) {
        fma_column::fmaf(x, y, z, out);
    }

    fn doubles(&self, x: &[f64], y: &[f64], z: &[f64], out: &mut Vec<f64>) -> bool {
        fma_column::fma_of_floats(x, y, z, out);
        true
    }

    #[inline(always)]
    fn nan_at(&self, x: f64, y: f64, z: f64) -> bool {
        fma_column::fma_is_nan(x, y, z)
    }
}

/// The positions `i` of `out` whose value is NaN and where `undecided(i)` holds, in one pass
/// in the widest vectors, with no branch on the NaN test (half of a random log column is
/// NaN, at random), after a pass that finds none in most columns.
#[inline(always)]
fn positions_where(out: &[f64], undecided: impl Fn(usize) -> bool) -> Vec<usize> {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            let mut positions = Vec::new();
            if out.iter().fold(false, |any, value| any | value.is_nan()) {
                for (i, value) in out.iter().enumerate() {
                    if value.is_nan() & undecided(i) {
                        positions.push(i);
                    }
                }
            }
            positions
        },
    )
}

/// The two-argument column tier of reference `id`, where one is written.
fn pair_column_tier(id: Id) -> Option<&'static dyn PairColumnTier> {
    match id {
        Id::Hypot => Some(&Hypot),
        Id::Atan2 => Some(&PairFloatsOnly {
            floats: atan2::atan2f,
            nan_at: never_two,
        }),
        // pow's column takes a negative base to an integer power too, powr's (NaN there) does
        // not; zeros and infinities, where they differ too, go to the scalar tiers.
        Id::Pow => Some(&PairFloatsOnly {
            floats: pow::powf,
            nan_at: pow::pow_is_nan,
        }),
        Id::Powr => Some(&PairFloatsOnly {
            floats: pow::powrf,
            nan_at: pow::powr_is_nan,
        }),
        _ => None,
    }
}

/// A two-argument tier with a float column only, as [`FloatsOnly`].
struct PairFloatsOnly<N> {
    floats: fn(&[f64], &[f64], &mut Vec<f64>),
    nan_at: N,
}

impl<N: Fn(f64, f64) -> bool + Sync> PairColumnTier for PairFloatsOnly<N> {
    fn floats(&self, x: &[f64], y: &[f64], out: &mut Vec<f64>) {
        (self.floats)(x, y, out);
    }

    #[inline(always)]
    fn nan_at(&self, x: f64, y: f64) -> bool {
        (self.nan_at)(x, y)
    }
}

/// The domain test of a tier that declares no NaN (the scalar tiers give every NaN).
fn never(_x: f64) -> bool {
    false
}

/// [`never`] for two arguments.
fn never_two(_x: f64, _y: f64) -> bool {
    false
}

/// The column tier of reference `id`, where one is written.
fn column_tier(id: Id) -> Option<&'static dyn ColumnTier> {
    match id {
        Id::Sin => Some(&Sine),
        Id::Cos => Some(&Cosine),
        Id::Tan => Some(&Tangent),
        Id::Exp => Some(&FloatsOnly {
            floats: e::expf,
            nan_at: never,
        }),
        Id::Exp2 => Some(&FloatsOnly {
            floats: e::exp2f,
            nan_at: never,
        }),
        Id::Exp10 => Some(&FloatsOnly {
            floats: e::exp10f,
            nan_at: never,
        }),
        Id::Expm1 => Some(&FloatsOnly {
            floats: m::expm1f,
            nan_at: never,
        }),
        Id::Log => Some(&FloatsOnly {
            floats: l::logf,
            nan_at: l::log_is_nan,
        }),
        Id::Log2 => Some(&FloatsOnly {
            floats: l::log2f,
            nan_at: l::log_is_nan,
        }),
        Id::Log10 => Some(&FloatsOnly {
            floats: l::log10f,
            nan_at: l::log_is_nan,
        }),
        Id::Log1p => Some(&FloatsOnly {
            floats: l::log1pf,
            nan_at: l::log1p_is_nan,
        }),
        Id::Sinh => Some(&FloatsOnly {
            floats: h::sinhf,
            nan_at: h::hyperbolic_is_nan,
        }),
        Id::Cosh => Some(&FloatsOnly {
            floats: h::coshf,
            nan_at: h::hyperbolic_is_nan,
        }),
        Id::Tanh => Some(&FloatsOnly {
            floats: h::tanhf,
            nan_at: h::hyperbolic_is_nan,
        }),
        _ => None,
    }
}

/// A tier with a float column only ([`crate::reference::exp_column`]'s proof for exp, exp2
/// and exp10, [`crate::reference::expm1_column`]'s for expm1,
/// [`crate::reference::log_column`]'s for log, log2, log10 and log1p,
/// [`crate::reference::hyperbolic_column`]'s for sinh, cosh and tanh): the
/// per-input verdicts take their doubles from the scalar double tier. `nan_at` is the
/// tier's domain test ([`ColumnTier::nan_at`]).
struct FloatsOnly<N> {
    floats: fn(&[f64], &mut Vec<f64>),
    nan_at: N,
}

impl<N: Fn(f64) -> bool + Sync> ColumnTier for FloatsOnly<N> {
    fn floats(&self, x: &[f64], out: &mut Vec<f64>) {
        (self.floats)(x, out);
    }

    #[inline(always)]
    fn nan_at(&self, x: f64) -> bool {
        (self.nan_at)(x)
    }
}

/// Float hypot ([`crate::reference::pair_column::hypot`]'s proofs), both columns.
struct Hypot;

impl PairColumnTier for Hypot {
    fn floats(&self, x: &[f64], y: &[f64], out: &mut Vec<f64>) {
        hypot::hypotf(x, y, out);
    }

    fn doubles(&self, x: &[f64], y: &[f64], out: &mut Vec<f64>) -> bool {
        hypot::hypot_of_floats(x, y, out);
        true
    }
}

/// Float sin ([`crate::reference::column`]'s proofs), both columns.
struct Sine;

impl ColumnTier for Sine {
    fn floats(&self, x: &[f64], out: &mut Vec<f64>) {
        c::sinf(x, out);
    }

    fn doubles(&self, x: &[f64], out: &mut Vec<f64>) -> bool {
        c::sin_of_floats(x, out);
        true
    }
}

/// Float cos ([`crate::reference::column`]'s proofs), both columns.
struct Cosine;

impl ColumnTier for Cosine {
    fn floats(&self, x: &[f64], out: &mut Vec<f64>) {
        c::cosf(x, out);
    }

    fn doubles(&self, x: &[f64], out: &mut Vec<f64>) -> bool {
        c::cos_of_floats(x, out);
        true
    }
}

/// Float tan ([`crate::reference::column`]'s proofs), both columns.
struct Tangent;

impl ColumnTier for Tangent {
    fn floats(&self, x: &[f64], out: &mut Vec<f64>) {
        c::tanf(x, out);
    }

    fn doubles(&self, x: &[f64], out: &mut Vec<f64>) -> bool {
        c::tan_of_floats(x, out);
        true
    }
}

/// A row's column tier, of one argument, two or three.
#[derive(Clone, Copy)]
enum Tier {
    One(&'static dyn ColumnTier),
    Two(&'static dyn PairColumnTier),
    Three(&'static dyn TripleColumnTier),
}

impl Tier {
    /// The column tier of reference `id`, of whichever arity has one.
    fn of(id: Id) -> Option<Tier> {
        column_tier(id)
            .map(Tier::One)
            .or_else(|| pair_column_tier(id).map(Tier::Two))
            .or_else(|| triple_column_tier(id).map(Tier::Three))
    }
}

/// A row's column tier with the scalar tiers that decide what it leaves undecided
/// ([`Rules::column_tiers`]).
#[derive(Clone, Copy)]
pub struct ColumnTiers {
    tier: Tier,
    /// The correctly rounded float tier, where a bulk pass may compare results with the float
    /// column ([`Rules::correctly_rounded_fn`]); `None` where no float column is asked for.
    float: Option<FastFn>,
    /// The correctly rounded double tier.
    double: FastFn,
}

impl ColumnTiers {
    /// The correctly rounded float of every input of `arguments` (one column per argument, of
    /// one length): the column tier's, the scalar tier's where it leaves one undecided; `None`
    /// where the row asks for no float column.
    pub fn floats(&self, arguments: &[&[f64]]) -> Option<Vec<f64>> {
        let scalar = self.float?;
        let mut out = Vec::new();
        match (self.tier, arguments) {
            (Tier::One(tier), [x]) => tier.floats(x, &mut out),
            (Tier::Two(tier), [x, y]) => tier.floats(x, y, &mut out),
            (Tier::Three(tier), [x, y, z]) => tier.floats(x, y, z, &mut out),
            _ => return None,
        }
        self.decide_the_rest(arguments, &mut out, scalar);
        Some(out)
    }

    /// The correctly rounded double of every input of `arguments` likewise, where the tier has
    /// a double column.
    pub fn doubles(&self, arguments: &[&[f64]]) -> Option<Vec<f64>> {
        let mut out = Vec::new();
        let written = match (self.tier, arguments) {
            (Tier::One(tier), [x]) => tier.doubles(x, &mut out),
            (Tier::Two(tier), [x, y]) => tier.doubles(x, y, &mut out),
            (Tier::Three(tier), [x, y, z]) => tier.doubles(x, y, z, &mut out),
            _ => false,
        };
        if !written {
            return None;
        }
        self.decide_the_rest(arguments, &mut out, self.double);
        Some(out)
    }

    /// `scalar` at each input of `arguments` whose value in `out` is NaN (undecided, or the
    /// function's value NaN, which the scalar tier gives again), but where the tier's domain
    /// test says the value is NaN ([`ColumnTier::nan_at`]): few are.
    fn decide_the_rest(&self, arguments: &[&[f64]], out: &mut [f64], scalar: FastFn) {
        assert!(
            arguments.iter().all(|column| column.len() == out.len()),
            "a column tier left its column short"
        );
        let undecided = match (self.tier, arguments) {
            (Tier::One(tier), [x]) => tier.undecided(x, out),
            (Tier::Two(tier), [x, y]) => tier.undecided(x, y, out),
            (Tier::Three(tier), [x, y, z]) => tier.undecided(x, y, z, out),
            _ => unreachable!("a column tier of {} arguments", arguments.len()),
        };
        let mut args = vec![0.0; arguments.len()];
        for i in undecided {
            for (arg, column) in args.iter_mut().zip(arguments) {
                *arg = column[i];
            }
            out[i] = scalar(&args);
        }
    }
}

impl Rules {
    /// The column tier of a float function of one table output (of one argument or two),
    /// where it has one, with its scalar tiers: its double column is the per-input verdicts'
    /// reference for a float result that is not the correctly rounded float
    /// ([`crate::judge::FastReference::know_double`]), and its float column, where the rule
    /// has a [`Rules::correctly_rounded_fn`], the same values as that function.
    pub fn column_tiers(&self) -> Option<ColumnTiers> {
        let (FloatType::Float, [output]) = (self.element, self.outputs.as_slice()) else {
            return None;
        };
        if output.check != OutputCheck::Table {
            return None;
        }
        let tier = Tier::of(output.reference)?;
        Some(ColumnTiers {
            tier,
            float: self.correctly_rounded_fn(),
            double: binding::fast_tier(output)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::registry::FUNCTIONS;

    /// A column with its undecided values filled in is the scalar tiers' column, bit for bit
    /// where a value is a number and NaN where theirs is: the domain tests ([`ColumnTier::nan_at`])
    /// leave no NaN out and add none. Every function of the registry with a column tier, on
    /// special values and random floats of every sign and exponent (half of them negative:
    /// the domain errors of log and pow), for the float and the double column.
    #[test]
    fn filled_columns_are_the_scalar_tiers_columns() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut draw = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from(f32::from_bits((state >> 16) as u32))
        };
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            -2.0,
            0.5,
            -0.5,
            2.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let mut checked = Vec::new();
        for function in FUNCTIONS {
            let [output] = function.outputs else {
                continue;
            };
            let (Some(float), Some(double)) =
                (binding::float_tier(output), binding::fast_tier(output))
            else {
                continue;
            };
            let Some(tier) = Tier::of(output.reference) else {
                continue;
            };
            let arity = match tier {
                Tier::One(_) => 1,
                Tier::Two(_) => 2,
                Tier::Three(_) => 3,
            };
            // Every combination of the special values.
            let mut columns: Vec<Vec<f64>> = vec![Vec::new(); arity];
            for number in 0..specials.len().pow(arity as u32) {
                let mut rest = number;
                for column in &mut columns {
                    column.push(specials[rest % specials.len()]);
                    rest /= specials.len();
                }
            }
            for _ in 0..100_000 {
                for column in &mut columns {
                    column.push(draw());
                }
            }
            let tiers = ColumnTiers {
                tier,
                float: Some(float),
                double,
            };
            let arguments: Vec<&[f64]> = columns.iter().map(Vec::as_slice).collect();
            let floats = tiers.floats(&arguments).expect("a float column");
            let doubles = tiers.doubles(&arguments);
            let mut args = vec![0.0; arity];
            for i in 0..floats.len() {
                for (arg, column) in args.iter_mut().zip(&columns) {
                    *arg = column[i];
                }
                let expected = float(&args);
                assert!(
                    floats[i].to_bits() == expected.to_bits()
                        || (floats[i].is_nan() && expected.is_nan()),
                    "{}{args:?}: column {}, scalar {expected}",
                    function.name,
                    floats[i]
                );
                if let Some(doubles) = &doubles {
                    let expected = double(&args);
                    assert!(
                        doubles[i].to_bits() == expected.to_bits()
                            || (doubles[i].is_nan() && expected.is_nan()),
                        "{} (double){args:?}: column {}, scalar {expected}",
                        function.name,
                        doubles[i]
                    );
                }
            }
            checked.push(function.name);
        }
        for name in [
            "log", "log1p", "pow", "powr", "sinh", "cosh", "tanh", "sin", "hypot", "fma", "mad",
        ] {
            assert!(checked.contains(&name), "{name} not checked: {checked:?}");
        }
    }
}
