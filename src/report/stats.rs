//! The result monoid: what a unit's judged inputs add up to. [`UnitStats::record`] takes one
//! judged input ([`Case`]), [`UnitStats::merge`] combines two partial results; merge is
//! associative, so threads, chunks and shards combine into what one pass would give, and every
//! report (CSV, JUnit, plots, `merge`) reads the same sums.

use std::collections::BTreeMap;

use rug::Float;

use crate::num::fp::FloatType;

/// Which allowance accepted a result that the plain rule did not.
#[derive(
    Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq, PartialOrd, Ord,
)]
pub enum Allowance {
    /// An infinity or the largest finite value where the bound reaches past it.
    Overflow,
    /// A result that is subnormal before rounding, flushed to zero (FTZ results 2 and 4).
    FlushedResult,
    /// A conforming result for the inputs with subnormal operands flushed to zero (FTZ 3).
    FlushedOperands,
}

impl Allowance {
    pub const ALL: [Allowance; 3] = [
        Allowance::Overflow,
        Allowance::FlushedResult,
        Allowance::FlushedOperands,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Allowance::Overflow => "overflow",
            Allowance::FlushedResult => "ftz-result",
            Allowance::FlushedOperands => "ftz-operands",
        }
    }
}

/// The verdict on one input.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum Outcome {
    Pass,
    Allowed(Allowance),
    Fail,
    /// Implementation-defined accuracy: measured, never failed.
    Measured,
    /// The spec leaves the result undefined for this input (Table 5's "Undefined for",
    /// "Defined for"): neither passed nor failed.
    Undefined,
}

/// What the fast tiers decide about one input (`crate::judge::Rules::fast_verdict`); they only ever decide
/// results that conform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastVerdict {
    /// The requirement's rule passes the result; its error in ulp, exact to 2^-28 ulp.
    Pass(f64),
    /// The correctly rounded bits (error at most 0.5 ulp), whose error no free reference
    /// measures further (double results): recorded as 0.5 ulp, the bound it meets; where it
    /// is the worst case, the case carries MPFR's exact error.
    CorrectlyRounded,
    /// The infinity a finite exact result beyond the largest finite value rounds to, in a ULP
    /// cell: the overflow allowance accepts it.
    Overflow,
    /// The same in a correctly rounded cell: the expected bits, an infinite distance that is no
    /// error (as [`UnitStats::record`] treats it).
    CorrectlyRoundedOverflow,
}

/// One judged input, kept when it is the worst of its unit.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Case {
    /// Position of the input in the unit's sweep (ties between equally bad cases keep the first).
    pub index: u64,
    pub args: Vec<f64>,
    /// What the device returned, one value per output (integers held exactly).
    pub device_results: Vec<f64>,
    /// The high-precision reference of each output.
    pub references: Vec<Float>,
    /// The largest error in ulp ([`ulp_error`](crate::num::ulp::ulp_error)) over the outputs judged in ulp.
    pub error: f64,
    /// `error` is an absolute error (a Table 5 absolute bound judged it), not ulp.
    pub absolute: bool,
    pub outcome: Outcome,
    /// The output that decided the outcome (the first failing one, else the worst).
    pub output: usize,
}

impl Case {
    /// Failures outrank passes; then the larger error; then the earlier input.
    fn outranks(&self, other: &Case) -> bool {
        ranks_above(
            self.outcome == Outcome::Fail,
            self.absolute,
            self.error,
            self.index,
            other,
        )
    }
}

/// Whether a case with these facts outranks `other` as the worst case (see
/// [`Case::outranks`]); lets the fast tier decide before building a case.
fn ranks_above(failed: bool, absolute: bool, error: f64, index: u64, other: &Case) -> bool {
    match (failed, other.outcome == Outcome::Fail) {
        (true, false) => true,
        (false, true) => false,
        // Errors in ulp and absolute errors are not comparable: ulp ones rank first.
        _ if absolute != other.absolute => other.absolute,
        _ => error > other.error || (error == other.error && index < other.index),
    }
}

/// The region of an input for the error map: the first argument's bin and the second's (0
/// for one-argument functions); `None` where an argument is NaN.
fn region(args: &[f64], element: FloatType) -> Option<(i16, i16)> {
    let x = input_bin(*args.first()?, element)?;
    let y = match args.get(1) {
        Some(y) => input_bin(*y, element)?,
        None => 0,
    };
    Some((x, y))
}

/// A unit's results so far. [`UnitStats::merge`] is associative and order-independent for
/// counts, maximum and worst case (ties resolved by input index).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, Default)]
pub struct UnitStats {
    /// Inputs judged (inside the function's domain).
    pub inputs: u64,
    pub failures: u64,
    /// Inputs outside the function's specified domain: neither passed nor failed.
    pub undefined: u64,
    /// How many results each allowance accepted, indexed like [`Allowance::ALL`].
    pub allowed: [u64; 3],
    /// The largest error in ulp among results judged by the plain rule (passes and failures).
    pub max_error: f64,
    /// The largest absolute error among results a Table 5 absolute bound judged.
    pub max_abs_error: f64,
    pub worst: Option<Case>,
    /// Errors by input region, for plots: keyed by the [`input_bin`] of the first argument and
    /// of the second (0 for one-argument functions).
    #[serde(with = "region_list")]
    pub error_map: BTreeMap<(i16, i16), BinStats>,
    /// Fast passes' regions, dense (one cell per (x, y) bin pair), folded into `error_map` by
    /// [`UnitStats::merge`]: a map update per input would cost more than the fast tier itself.
    #[serde(skip)]
    pub grid: Vec<BinStats>,
}

/// The error recorded for a result known only to be correctly rounded.
pub const BOUND_OF_CORRECTLY_ROUNDED: f64 = 0.5;

/// Cells per axis of the dense region grid: every bin from −(BINS_PER_SIGN+1) to +(…+1).
const GRID_SIDE: usize = 2 * (BINS_PER_SIGN as usize + 1) + 1;

fn grid_cell(x: i16, y: i16) -> usize {
    let offset = BINS_PER_SIGN as isize + 1;
    (x as isize + offset) as usize * GRID_SIDE + (y as isize + offset) as usize
}

/// The error map as a list of entries: JSON object keys must be strings, the map's are pairs.
mod region_list {
    use super::BinStats;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<(i16, i16), BinStats>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        map.iter().collect::<Vec<_>>().serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<(i16, i16), BinStats>, D::Error> {
        Ok(Vec::<((i16, i16), BinStats)>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

/// What one input region of a unit saw.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize, Default, PartialEq)]
pub struct BinStats {
    pub inputs: u64,
    pub failures: u64,
    /// Largest finite error in ulp among the region's results.
    pub max_error: f64,
}

/// Bins per sign on a plot axis.
pub const BINS_PER_SIGN: i16 = 64;

/// The region of an input on a symmetric-log axis: 0 for zero, ±1..±BINS_PER_SIGN for the
/// magnitudes from the smallest subnormal to the largest finite value, ±(BINS_PER_SIGN + 1) for
/// infinities; `None` for NaN.
pub fn input_bin(x: f64, element: FloatType) -> Option<i16> {
    if x.is_nan() {
        return None;
    }
    let sign: i16 = if x.is_sign_negative() { -1 } else { 1 };
    if x == 0.0 {
        return Some(0);
    }
    if x.is_infinite() {
        return Some(sign * (BINS_PER_SIGN + 1));
    }
    let lowest = f64::from(element.emin() - element.precision() as i32 + 1);
    let highest = f64::from(element.emax() + 1);
    // log2|x| from the encoding, cheaper than libm's log2 on every judged input: the binade
    // plus log2(1 + f) ≈ f + 0.3466 f (1 − f) (within 0.005 of a binade, under a hundredth of a
    // region); libm's log2 for double subnormals.
    let bits = x.abs().to_bits();
    let biased = (bits >> 52) as i32;
    let log2 = if biased == 0 {
        x.abs().log2()
    } else {
        let fraction = (bits & ((1u64 << 52) - 1)) as f64 / (1u64 << 52) as f64;
        f64::from(biased - 1023) + fraction + 0.346_607 * fraction * (1.0 - fraction)
    };
    let position = (log2 - lowest) / (highest - lowest);
    let bin = 1
        + (position * f64::from(BINS_PER_SIGN))
            .floor()
            .clamp(0.0, f64::from(BINS_PER_SIGN - 1)) as i16;
    Some(sign * bin)
}

impl UnitStats {
    /// Records `case` in its input region (`element` scales the axis).
    pub fn record_region(&mut self, case: &Case, element: FloatType) {
        let Some(key) = region(&case.args, element) else {
            return;
        };
        let bin = self.error_map.entry(key).or_default();
        bin.inputs += 1;
        if case.outcome == Outcome::Fail {
            bin.failures += 1;
        }
        if case.error.is_finite() && case.error > bin.max_error {
            bin.max_error = case.error;
        }
    }

    /// Records a pass the fast tier proved, building its case only when it becomes the worst:
    /// the same counts, region and worst case as `record_region` + `record` of `build()`.
    pub fn record_fast_pass(
        &mut self,
        index: u64,
        error: f64,
        args: &[f64],
        element: FloatType,
        build: impl FnOnce() -> Case,
    ) {
        self.inputs += 1;
        if let Some((x, y)) = region(args, element) {
            if self.grid.is_empty() {
                self.grid = vec![BinStats::default(); GRID_SIDE * GRID_SIDE];
            }
            let bin = &mut self.grid[grid_cell(x, y)];
            bin.inputs += 1;
            bin.max_error = bin.max_error.max(error);
        }
        if error > self.max_error {
            self.max_error = error;
        }
        let becomes_worst = self
            .worst
            .as_ref()
            .is_none_or(|worst| ranks_above(false, false, error, index, worst));
        if becomes_worst {
            self.worst = Some(build());
        }
    }

    /// Records a verdict of the fast tiers: the same counts, region and worst case as judging
    /// the input with MPFR would record, except that a [`FastVerdict::CorrectlyRounded`] result
    /// counts as 0.5 ulp (its bound). So `max_error` is exact wherever it exceeds 0.5 ulp, and
    /// a double unit whose results are all correctly rounded reports 0.5, its worst case the
    /// first such input with its exact error.
    pub fn record_fast(
        &mut self,
        verdict: FastVerdict,
        index: u64,
        args: &[f64],
        element: FloatType,
        build: impl FnOnce() -> Case,
    ) {
        let (error, allowance) = match verdict {
            FastVerdict::Pass(error) => {
                return self.record_fast_pass(index, error, args, element, build)
            }
            FastVerdict::CorrectlyRounded => {
                // Ranked at its bound, so one correctly rounded result per slice is built (the
                // first), not every one: MPFR's exact error replaces 0.5 only in the case.
                return self.record_fast_pass(
                    index,
                    BOUND_OF_CORRECTLY_ROUNDED,
                    args,
                    element,
                    || {
                        let mut case = build();
                        case.error = BOUND_OF_CORRECTLY_ROUNDED;
                        case
                    },
                );
            }
            FastVerdict::Overflow => (f64::INFINITY, Some(Allowance::Overflow)),
            FastVerdict::CorrectlyRoundedOverflow => (f64::INFINITY, None),
        };
        self.inputs += 1;
        if let Some((x, y)) = region(args, element) {
            if self.grid.is_empty() {
                self.grid = vec![BinStats::default(); GRID_SIDE * GRID_SIDE];
            }
            let bin = &mut self.grid[grid_cell(x, y)];
            bin.inputs += 1;
            if error.is_finite() {
                bin.max_error = bin.max_error.max(error);
            }
        }
        if let Some(allowance) = allowance {
            self.allowed[allowance as usize] += 1;
        } else if error.is_finite() && error > self.max_error {
            self.max_error = error;
        }
    }

    pub fn record(&mut self, case: Case) {
        if case.outcome == Outcome::Undefined {
            self.undefined += 1;
            return;
        }
        self.inputs += 1;
        match case.outcome {
            Outcome::Fail => self.failures += 1,
            Outcome::Allowed(allowance) => {
                self.allowed[allowance as usize] += 1;
                return;
            }
            Outcome::Pass | Outcome::Measured | Outcome::Undefined => {}
        }
        // A correctly rounded overflow (an infinity where the exact value is finite) matched
        // the expected bits; its distance is infinite by definition but it is no error.
        if case.outcome == Outcome::Pass && case.error.is_infinite() {
            return;
        }
        if case.absolute {
            self.max_abs_error = self.max_abs_error.max(case.error);
        } else if case.error > self.max_error {
            self.max_error = case.error;
        }
        if self.worst.as_ref().is_none_or(|worst| case.outranks(worst)) {
            self.worst = Some(case);
        }
    }

    /// Moves the dense grid's regions into `error_map`.
    fn fold_grid(&mut self) {
        let grid = std::mem::take(&mut self.grid);
        let offset = BINS_PER_SIGN as usize + 1;
        for (cell, bin) in grid.into_iter().enumerate().filter(|(_, b)| b.inputs > 0) {
            let key = (
                (cell / GRID_SIDE) as i16 - offset as i16,
                (cell % GRID_SIDE) as i16 - offset as i16,
            );
            let mine = self.error_map.entry(key).or_default();
            mine.inputs += bin.inputs;
            mine.failures += bin.failures;
            mine.max_error = mine.max_error.max(bin.max_error);
        }
    }

    pub fn merge(&mut self, mut other: UnitStats) {
        self.fold_grid();
        other.fold_grid();
        self.inputs += other.inputs;
        self.failures += other.failures;
        self.undefined += other.undefined;
        for (mine, theirs) in self.allowed.iter_mut().zip(other.allowed) {
            *mine += theirs;
        }
        self.max_error = self.max_error.max(other.max_error);
        self.max_abs_error = self.max_abs_error.max(other.max_abs_error);
        for (key, theirs) in other.error_map {
            let mine = self.error_map.entry(key).or_default();
            mine.inputs += theirs.inputs;
            mine.failures += theirs.failures;
            mine.max_error = mine.max_error.max(theirs.max_error);
        }
        if let Some(case) = other.worst {
            if self.worst.as_ref().is_none_or(|worst| case.outranks(worst)) {
                self.worst = Some(case);
            }
        }
    }

    /// `ftz-result:12 overflow:3`, empty when no allowance was used.
    pub fn allowances_text(&self) -> String {
        Allowance::ALL
            .iter()
            .zip(self.allowed)
            .filter(|(_, count)| *count > 0)
            .map(|(allowance, count)| format!("{}:{count}", allowance.name()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_bins_cover_the_format_symmetrically() {
        let float = FloatType::Float;
        assert_eq!(input_bin(0.0, float), Some(0));
        assert_eq!(input_bin(-0.0, float), Some(0));
        assert_eq!(input_bin(f64::from(f32::from_bits(1)), float), Some(1));
        assert_eq!(input_bin(f64::from(f32::MAX), float), Some(BINS_PER_SIGN));
        assert_eq!(input_bin(-f64::from(f32::MAX), float), Some(-BINS_PER_SIGN));
        assert_eq!(
            input_bin(f64::NEG_INFINITY, float),
            Some(-BINS_PER_SIGN - 1)
        );
        assert_eq!(input_bin(f64::NAN, float), None);
        let one = input_bin(1.0, float).unwrap();
        assert!(one > 1 && one < BINS_PER_SIGN && input_bin(2.0, float).unwrap() >= one);
    }
}
