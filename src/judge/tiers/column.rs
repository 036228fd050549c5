//! Column tiers: a function's references over whole columns of float inputs, many lanes at a
//! time, for a sweep's bulk passes ([`crate::judge::slice`]). A column tier is one
//! implementation of [`ColumnTier`] (one argument) or [`PairColumnTier`] (two);
//! [`column_tier`] and [`pair_column_tier`] list them. What a tier leaves undecided (NaN in its
//! column) the scalar tiers decide, input by input ([`ColumnTiers`]), so a column holds the
//! same values as the scalar tiers, bit for bit.

use crate::judge::Rules;
use crate::num::fp::FloatType;
use crate::reference::column as c;
use crate::reference::exp_column as e;
use crate::reference::expm1_column as m;
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
}

/// The two-argument column tier of reference `id`, where one is written.
fn pair_column_tier(id: Id) -> Option<&'static dyn PairColumnTier> {
    match id {
        Id::Hypot => Some(&Hypot),
        Id::Atan2 => Some(&PairFloatsOnly(atan2::atan2f)),
        // Where they differ (x < 0, zeros, infinities) the column leaves pow and powr to the
        // scalar tiers.
        Id::Pow | Id::Powr => Some(&PairFloatsOnly(pow::powf)),
        _ => None,
    }
}

/// A two-argument tier with a float column only, as [`FloatsOnly`].
struct PairFloatsOnly(fn(&[f64], &[f64], &mut Vec<f64>));

impl PairColumnTier for PairFloatsOnly {
    fn floats(&self, x: &[f64], y: &[f64], out: &mut Vec<f64>) {
        (self.0)(x, y, out);
    }
}

/// The column tier of reference `id`, where one is written.
fn column_tier(id: Id) -> Option<&'static dyn ColumnTier> {
    match id {
        Id::Sin => Some(&Sine),
        Id::Cos => Some(&Cosine),
        Id::Exp => Some(&FloatsOnly(e::expf)),
        Id::Exp2 => Some(&FloatsOnly(e::exp2f)),
        Id::Exp10 => Some(&FloatsOnly(e::exp10f)),
        Id::Expm1 => Some(&FloatsOnly(m::expm1f)),
        Id::Log => Some(&FloatsOnly(l::logf)),
        Id::Log2 => Some(&FloatsOnly(l::log2f)),
        Id::Log10 => Some(&FloatsOnly(l::log10f)),
        Id::Log1p => Some(&FloatsOnly(l::log1pf)),
        _ => None,
    }
}

/// A tier with a float column only ([`crate::reference::exp_column`]'s proof for exp, exp2
/// and exp10, [`crate::reference::expm1_column`]'s for expm1,
/// [`crate::reference::log_column`]'s for log, log2, log10 and log1p): the
/// per-input verdicts take their doubles from the scalar double tier.
struct FloatsOnly(fn(&[f64], &mut Vec<f64>));

impl ColumnTier for FloatsOnly {
    fn floats(&self, x: &[f64], out: &mut Vec<f64>) {
        (self.0)(x, out);
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

/// A row's column tier, of one argument or two.
#[derive(Clone, Copy)]
enum Tier {
    One(&'static dyn ColumnTier),
    Two(&'static dyn PairColumnTier),
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
            _ => return None,
        }
        decide_the_rest(arguments, &mut out, scalar);
        Some(out)
    }

    /// The correctly rounded double of every input of `arguments` likewise, where the tier has
    /// a double column.
    pub fn doubles(&self, arguments: &[&[f64]]) -> Option<Vec<f64>> {
        let mut out = Vec::new();
        let written = match (self.tier, arguments) {
            (Tier::One(tier), [x]) => tier.doubles(x, &mut out),
            (Tier::Two(tier), [x, y]) => tier.doubles(x, y, &mut out),
            _ => false,
        };
        if !written {
            return None;
        }
        decide_the_rest(arguments, &mut out, self.double);
        Some(out)
    }
}

/// `scalar` at each input of `arguments` whose value in `out` is NaN (undecided, or the
/// function's value NaN, which the scalar tier gives again). Few are: the check is one
/// vectorized pass.
fn decide_the_rest(arguments: &[&[f64]], out: &mut [f64], scalar: FastFn) {
    assert!(
        arguments.iter().all(|column| column.len() == out.len()),
        "a column tier left its column short"
    );
    let any_nan = crate::num::wide::widest(
        #[inline(always)]
        || out.iter().fold(false, |any, value| any | value.is_nan()),
    );
    if any_nan {
        let mut args = vec![0.0; arguments.len()];
        for (i, value) in out.iter_mut().enumerate() {
            if value.is_nan() {
                for (arg, column) in args.iter_mut().zip(arguments) {
                    *arg = column[i];
                }
                *value = scalar(&args);
            }
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
        let tier = match column_tier(output.reference) {
            Some(tier) => Tier::One(tier),
            None => Tier::Two(pair_column_tier(output.reference)?),
        };
        Some(ColumnTiers {
            tier,
            float: self.correctly_rounded_fn(),
            double: binding::fast_tier(output)?,
        })
    }
}
