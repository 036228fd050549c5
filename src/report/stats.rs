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
/// results that conform, or that a Table 5 rule or `-cl-finite-math-only` leaves undefined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastVerdict {
    /// The requirement's rule passes the result; its error in ulp, exact to 2^-28 ulp (2^-27
    /// against rootn's near approximation).
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
    /// A Table 5 rule or `-cl-finite-math-only` leaves the result undefined or unbounded
    /// here: counted in `undefined`, its region logged at no error, as
    /// [`UnitStats::record_region`] and [`UnitStats::record`] record MPFR's undefined case
    /// (whose distance is 0 or infinite, neither of which a region's largest error holds).
    Undefined,
    /// A Table 5 absolute bound passes the result; its distance to the double reference,
    /// within 2^-52 relative and half a double ulp of the exact one. Counted as MPFR counts
    /// an absolute pass, except that the unit's largest absolute error is taken only from
    /// the cases built as the worst, which MPFR judges, so it stays exact: in a unit whose
    /// every error is absolute (`crate::judge::relaxed::FastBounds::Absolute`) the worst
    /// case is the one of largest error.
    AbsolutePass(f64),
    /// The requirement's rule fails the result: its error, exact to 2^-28 ulp, lies beyond the
    /// bound by far more, where no allowance can accept it (`crate::judge::Rules`). Counted
    /// as MPFR counts a failure; the worst case, built where the failure ranks so, is MPFR's.
    Fail(f64),
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
    /// Where the unit's width is over 1: every lane's case of the vector the device computed
    /// this input in, in lane order, as it received them (a device may compute a lane by what
    /// the other lanes hold, as PoCL's float cos does); empty otherwise. Filled once per
    /// chunk for its worst case ([`crate::run::ulp`]), not per input.
    pub lanes: Vec<Vec<f64>>,
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

/// An input's cell on the error map: the first argument's [`input_bin`] and the second's (0
/// for one-argument functions), offset to start at 0. Computed once per input and shared by
/// every row judged on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    x: u8,
    y: u8,
}

/// The region of an input for the error map; `None` where an argument is NaN.
#[inline]
pub fn input_region(args: &[f64], element: FloatType) -> Option<Region> {
    let x = input_bin(*args.first()?, element)?;
    let y = match args.get(1) {
        Some(y) => input_bin(*y, element)?,
        None => 0,
    };
    Some(Region::of_bins(x, y))
}

impl Region {
    /// The cell of the first argument's bin `x` and the second's `y`.
    fn of_bins(x: i16, y: i16) -> Region {
        let offset = BINS_PER_SIGN + 1;
        Region {
            x: (x + offset) as u8,
            y: (y + offset) as u8,
        }
    }

    /// The error map's key: the two bins.
    fn key(self) -> (i16, i16) {
        let offset = BINS_PER_SIGN + 1;
        (i16::from(self.x) - offset, i16::from(self.y) - offset)
    }
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
    /// The regions recorded during a run, dense, moved into `error_map` by
    /// [`UnitStats::settle`] when the run ends: a map update per input (or a map merge per
    /// slice) would cost more than the fast tier itself.
    #[serde(skip)]
    pub grid: Grid,
}

/// One [`UnitStats`] per row, for a unit that judges several rows on the same inputs (every
/// width of a function). A row whose results have so far been an earlier row's, bit for bit
/// under the same rules, has that row's regions too: it keeps none of its own until a slice
/// tells them apart, so the regions of identical rows are binned once, not once per row. Its
/// other fields are its own (copies, where a slice was judged once for both rows).
#[derive(Clone, Debug, Default)]
pub struct RowStats {
    rows: Vec<UnitStats>,
    /// Per row: the earlier row whose regions are its own (its grid is empty until they part).
    regions_of: Vec<Option<usize>>,
}

impl RowStats {
    /// Rows that each hold their own regions.
    pub fn new(rows: Vec<UnitStats>) -> RowStats {
        RowStats {
            regions_of: vec![None; rows.len()],
            rows,
        }
    }

    /// Appends a row holding its own regions.
    pub fn push(&mut self, row: UnitStats) {
        self.rows.push(row);
        self.regions_of.push(None);
    }

    /// Appends a row whose every count is row `earlier`'s, and whose regions are that row's.
    pub fn push_copy_of(&mut self, earlier: usize) {
        let copy = self.rows[earlier].without_regions();
        self.rows.push(copy);
        self.regions_of.push(Some(earlier));
    }

    /// The row whose grid holds `row`'s regions.
    fn holder(&self, mut row: usize) -> usize {
        while let Some(earlier) = self.regions_of[row] {
            row = earlier;
        }
        row
    }

    /// Adds `other`'s rows to these, row by row (a tally with no rows takes the other's).
    pub fn merge(&mut self, mut other: RowStats) {
        if self.rows.is_empty() {
            *self = other;
            return;
        }
        assert_eq!(self.rows.len(), other.rows.len(), "tallies of one unit");
        // From the last row down: a row's regions come from a lower row, which must not have
        // taken `other`'s part yet.
        for row in (0..self.rows.len()).rev() {
            let theirs = std::mem::take(&mut other.rows[row]);
            let (mine_shared, theirs_shared) = (
                self.regions_of[row].is_some(),
                other.regions_of[row].is_some(),
            );
            if mine_shared && theirs_shared && self.holder(row) == other.holder(row) {
                // Still the regions of the same row, which gets the same part.
                self.rows[row].merge(theirs);
                continue;
            }
            if mine_shared {
                // The rows part here: this row's regions so far are its holder's.
                let holder = self.holder(row);
                self.rows[row].grid = self.rows[holder].grid.clone();
                self.regions_of[row] = None;
            }
            self.rows[row].merge(theirs);
            if theirs_shared {
                let holder = other.holder(row);
                self.rows[row].grid.merge_from(&other.rows[holder].grid);
            }
        }
    }

    /// Applies `finish` to every row (the rows' regions are not its to change).
    pub fn map_rows(self, mut finish: impl FnMut(usize, UnitStats) -> UnitStats) -> RowStats {
        RowStats {
            rows: self
                .rows
                .into_iter()
                .enumerate()
                .map(|(row, stats)| finish(row, stats))
                .collect(),
            regions_of: self.regions_of,
        }
    }

    /// Settles every row ([`UnitStats::settle`]), a row sharing regions getting its own copy.
    pub fn settle(&mut self) {
        for row in 0..self.rows.len() {
            if self.regions_of[row].is_some() {
                self.rows[row].grid = self.rows[self.holder(row)].grid.clone();
                self.regions_of[row] = None;
            }
        }
        self.rows.iter_mut().for_each(UnitStats::settle);
    }

    /// The one row of a tally of one row, unsettled (empty for a tally of none).
    pub fn into_only_row(mut self) -> UnitStats {
        assert!(self.rows.len() <= 1, "a tally of one row");
        self.rows.pop().unwrap_or_default()
    }

    /// The rows, settled.
    pub fn into_rows(mut self) -> Vec<UnitStats> {
        self.settle();
        self.rows
    }
}

/// Inputs of one class the fast tiers decide alike (every judged result equal to a column of
/// correctly rounded results, or of exact ones, or NaN where that column is NaN, or a pole's
/// infinity, or the infinity of a correctly rounded overflow): counted once for every row
/// judged on them ([`CorrectlyRoundedInputs::record_decided`]), then added to each row
/// ([`UnitStats::add_correctly_rounded`], [`UnitStats::add_overflowed`]) as
/// [`UnitStats::record_fast`] of a [`FastVerdict::CorrectlyRounded`] verdict (of `Pass(0.0)`
/// for exact results, NaNs and poles, of the overflow verdict for overflows) on each would add
/// them.
#[derive(Clone, Debug)]
pub struct CorrectlyRoundedInputs {
    count: u64,
    /// The first of them, the only one that can be a worst case (ties go to the lower index).
    first_index: Option<u64>,
    /// How many fell in each touched cell (row, cell of the row, count): a slice's few cells,
    /// where a grid of their own cost a row allocated per touched row and a merge of every
    /// cell of those rows into each judged row.
    cells: Vec<(u8, u8, u64)>,
    /// The error each counts as: [`BOUND_OF_CORRECTLY_ROUNDED`], 0 for exact results, −inf
    /// for overflows (none).
    error: f64,
}

impl CorrectlyRoundedInputs {
    /// None yet, each to count as `error`: [`BOUND_OF_CORRECTLY_ROUNDED`] for results known to
    /// be correctly rounded, 0 for results known to be exact, −inf (no error: only counted)
    /// for correctly rounded overflows.
    pub fn counted_at(error: f64) -> CorrectlyRoundedInputs {
        CorrectlyRoundedInputs {
            count: 0,
            first_index: None,
            cells: Vec::new(),
            error,
        }
    }

    /// Whether none were counted.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether these are overflows ([`UnitStats::add_overflowed`]), counted at −inf: no error.
    pub fn counts_overflows(&self) -> bool {
        self.error == f64::NEG_INFINITY
    }

    /// Records the inputs of `range` (position `i` is input `index(i)`) by their class in
    /// `decided` (one per input of the range): an input of class `c` > 0 goes to
    /// `classes[c - 1]`, in its input region, what [`Grid::log`] would record for it, counted
    /// per cell; class 0 is not decided. One pass over the inputs serves every class.
    #[inline(always)]
    pub fn record_decided(
        classes: &mut [CorrectlyRoundedInputs],
        columns: &[Vec<f64>],
        range: std::ops::Range<usize>,
        decided: &[u8],
        index: impl Fn(usize) -> u64,
        element: FloatType,
    ) {
        // The counters are 16-bit (a class's two-argument grid of them, 35 KB, stays in the
        // first-level cache, where 64-bit ones took 140 KB): a longer range is recorded in
        // parts.
        for (number, decided) in decided.chunks(PART).enumerate() {
            let start = range.start + number * PART;
            let part = start..start + decided.len();
            Self::record_part(classes, columns, part, decided, &index, element);
        }
    }

    /// [`CorrectlyRoundedInputs::record_decided`] of a range no longer than [`PART`].
    #[inline(always)]
    fn record_part(
        classes: &mut [CorrectlyRoundedInputs],
        columns: &[Vec<f64>],
        range: std::ops::Range<usize>,
        decided: &[u8],
        index: &impl Fn(usize) -> u64,
        element: FloatType,
    ) {
        let kinds = classes.len() + 1;
        // Counted class by class in vectorized passes: one counter per class, incremented input by
        // input, makes each increment wait for the last.
        let mut counted = [0u64; 256];
        count_by_class(decided, kinds, |class, count| counted[class] = count);
        if counted[1..kinds].iter().all(|count| *count == 0) {
            return;
        }
        for (class, (inputs, count)) in classes.iter_mut().zip(&counted[1..kinds]).enumerate() {
            if *count == 0 {
                continue;
            }
            let class = class as u8 + 1;
            let first = decided
                .iter()
                .position(|held| *held == class)
                .expect("a class counted is held");
            let first_index = index(range.start + first);
            inputs.first_index = Some(
                inputs
                    .first_index
                    .map_or(first_index, |f| f.min(first_index)),
            );
            inputs.count += count;
        }
        // Every input of a class counts the same error, so a cell needs only how many fell in it:
        // counted first, then added once per cell.
        let axis = AxisCells::of(element);
        const SIDE: usize = GRID_SIDE + 1;
        // Inputs are counted in blocks of RUN, where a block's values on an axis share one cell
        // ([`AxisCells::shared`]), with no lookup per input: an exhaustive sweep's blocks nearly
        // all do (its inputs run through a binade in order), and the check is a vectorized pass
        // over a random sweep's blocks that fail it.
        const RUN: usize = 64;
        // Class 0's inputs (the undecided ones) are counted too and dropped, which costs less than
        // a branch on every input.
        match columns {
            [] => {}
            [x] => {
                // Every input is in the zero row. Four counters per cell, taken in turn, keep
                // neighbours (which mostly share a cell) from waiting on each other: class c's turn
                // t counts at (4c + t) * SIDE.
                let mut buffer = COUNTS.take();
                let counts = zeroed_counts(&mut buffer, kinds * 4 * SIDE);
                let count_span = |counts: &mut [Counter], cell: usize, span: &[u8]| {
                    count_by_class(span, kinds, |class, count| {
                        counts[class * 4 * SIDE + cell] += count as Counter;
                    });
                };
                // An exhaustive sweep's whole slice mostly lies in one cell: one check and one
                // count. Else runs of one cell in a row are counted as one span (a count per run
                // cost more than the run's compares); `span`: the cell and the positions it covers.
                if let Some(cell) = axis.shared(&x[range.clone()]) {
                    count_span(counts, cell, decided);
                } else {
                    let mut span: Option<(usize, std::ops::Range<usize>)> = None;
                    let mut blocks = BlockCells::of(&axis);
                    for (number, (x, run)) in
                        x[range].chunks(RUN).zip(decided.chunks(RUN)).enumerate()
                    {
                        let positions = number * RUN..number * RUN + run.len();
                        if let Some(cell) = blocks.shared(x) {
                            match &mut span {
                                Some((open, covered)) if *open == cell => {
                                    covered.end = positions.end
                                }
                                _ => {
                                    if let Some((open, covered)) = span.replace((cell, positions)) {
                                        count_span(counts, open, &decided[covered]);
                                    }
                                }
                            }
                            continue;
                        }
                        if let Some((open, covered)) = span.take() {
                            count_span(counts, open, &decided[covered]);
                        }
                        for (turn, (x, class)) in x.iter().zip(run).enumerate() {
                            counts[(usize::from(*class) * 4 + turn % 4) * SIDE + axis.cell(*x)] +=
                                1;
                        }
                    }
                    if let Some((open, covered)) = span {
                        count_span(counts, open, &decided[covered]);
                    }
                }
                // Class 0's counts are only cleared: the buffer goes back zeroed.
                counts[..4 * SIDE].fill(0);
                for (class, inputs) in classes.iter_mut().enumerate() {
                    let turns = &mut counts[(class + 1) * 4 * SIDE..(class + 2) * 4 * SIDE];
                    if turns.iter().all(|count| *count == 0) {
                        continue;
                    }
                    for cell in 0..GRID_SIDE {
                        let total: u64 = (0..4)
                            .map(|turn| u64::from(std::mem::take(&mut turns[turn * SIDE + cell])))
                            .sum();
                        if total > 0 {
                            inputs.cells.push((ZERO_ROW, cell as u8, total));
                        }
                    }
                    // The off-grid cell (NaN) is never read.
                    turns.fill(0);
                }
                COUNTS.set(buffer);
            }
            [x, y, ..] => {
                // Cells of the first two arguments, counted row by row of the second: class c's
                // counts start at c * SIDE * SIDE. An input with a NaN among them has no region and
                // lands off the grid, uncounted.
                let mut buffer = COUNTS.take();
                let counts = zeroed_counts(&mut buffer, kinds * SIDE * SIDE);
                let blocks = x[range.clone()]
                    .chunks(RUN)
                    .zip(y[range].chunks(RUN))
                    .zip(decided.chunks(RUN));
                let mut cells = BlockCells::of(&axis);
                for ((x, y), decided) in blocks {
                    if let Some((x_cell, y_cell)) = cells.shared_pair(x, y) {
                        count_by_class(decided, kinds, |class, count| {
                            counts[class * SIDE * SIDE + y_cell * SIDE + x_cell] +=
                                count as Counter;
                        });
                        continue;
                    }
                    for ((x, y), class) in x.iter().zip(y).zip(decided) {
                        let cell = axis.cell(*y) * SIDE + axis.cell(*x);
                        counts[usize::from(*class) * SIDE * SIDE + cell] += 1;
                    }
                }
                // Every class's counts are taken (class 0's only cleared), row by row, so the
                // buffer goes back zeroed; the off-grid row and column (NaN) are never read.
                let zeroth = std::iter::once(None).chain(classes.iter_mut().map(Some));
                for (mut inputs, class_counts) in zeroth.zip(counts.chunks_exact_mut(SIDE * SIDE)) {
                    for (y, row_counts) in class_counts.chunks_exact_mut(SIDE).enumerate() {
                        if row_counts.iter().all(|count| *count == 0) {
                            continue;
                        }
                        for (x, count) in row_counts.iter_mut().enumerate() {
                            let count = u64::from(std::mem::take(count));
                            if let Some(inputs) = inputs.as_deref_mut() {
                                if count > 0 && x < GRID_SIDE && y < GRID_SIDE {
                                    inputs.cells.push((y as u8, x as u8, count));
                                }
                            }
                        }
                    }
                }
                COUNTS.set(buffer);
            }
        }
    }
}

thread_local! {
    /// [`CorrectlyRoundedInputs::record_decided`]'s counters, reused from slice to slice on each
    /// judging thread and handed back zeroed: a two-argument slice's are 35 KB a class, which
    /// allocated and zeroed afresh cost the kernel's page zeroing on every slice.
    static COUNTS: std::cell::Cell<Vec<Counter>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A counter of [`CorrectlyRoundedInputs::record_decided`]: a count of inputs of one part.
type Counter = u16;

/// The most inputs [`CorrectlyRoundedInputs::record_decided`] counts at once: every count fits
/// a [`Counter`].
const PART: usize = Counter::MAX as usize;

/// The first `length` counters of `buffer`, zero: a buffer handed back is zero throughout.
fn zeroed_counts(buffer: &mut Vec<Counter>, length: usize) -> &mut [Counter] {
    if buffer.len() < length {
        buffer.resize(length, 0);
    }
    &mut buffer[..length]
}

/// The cells of one axis of the region grid for an element's values.
struct AxisCells {
    element: FloatType,
    /// Per sign and exponent field, its cell where the binade lies in one ([`GRID_SIDE`] where
    /// not: zero, infinity, NaN or a binade where bins meet).
    cells: &'static [u8; 4096],
    binade_bins: &'static [i16; 2048],
    /// Per exponent field, the binade's [`BinEdges`] (where bins meet in it).
    edges: &'static [BinEdges],
    /// Per sign and exponent field, and per sixty-fourth of the binade, the cell
    /// ([`FineCells`]).
    fine: &'static FineCells,
}

impl AxisCells {
    fn of(element: FloatType) -> AxisCells {
        AxisCells {
            element,
            cells: &CELL_OF_SIGN_AND_BINADE[element as usize],
            binade_bins: &BINADE_BINS[element as usize],
            edges: &BINADE_EDGES[element as usize * 2048..(element as usize + 1) * 2048],
            fine: &FINE_CELLS[element as usize],
        }
    }

    /// A value's cell on the axis ([`GRID_SIDE`]: off the grid, a NaN): three lookups with no
    /// branch where its sixty-fourth of a binade lies in one cell ([`FineCells`]), nearly every
    /// value.
    #[inline(always)]
    fn cell(&self, x: f64) -> usize {
        let bits = x.to_bits();
        let key = (bits >> 52) as usize;
        let part = (bits >> (52 - FINE_BITS)) as usize & self.fine.mask[key] as usize;
        let cell = usize::from(self.fine.cells[self.fine.start[key] as usize + part]);
        if cell < GRID_SIDE {
            return cell;
        }
        self.cell_slowly(x)
    }

    /// [`AxisCells::cell`] where the fine table does not decide: the binade's own cell, its
    /// edges, or [`bin_by_table`].
    #[inline(never)]
    fn cell_slowly(&self, x: f64) -> usize {
        let key = (x.to_bits() >> 52) as usize;
        let cell = usize::from(self.cells[key]);
        if cell < GRID_SIDE {
            return cell;
        }
        // A binade where bins meet: its edges decide away from them, here rather than in a call
        // to [`bin_by_table`] (a random two-argument sweep has a quarter of its float values in
        // such binades: that call was 4% of float fma's host samples, 2^24 inputs).
        if let Some(bin) = self.edges[key & 0x7ff].bin_away_from_edges(x.to_bits() & FRACTION_BITS)
        {
            let sign = if key & 0x800 == 0 { 1 } else { -1 };
            return usize::from(Region::of_bins(sign * bin, 0).x);
        }
        bin_by_table(x, self.element, self.binade_bins)
            .map_or(GRID_SIDE, |bin| usize::from(Region::of_bins(bin, 0).x))
    }

    /// The cell every value of `values` lies in, where they share one and this shows it: they
    /// share their sign and binade, and that binade lies in one bin, or for half and float its
    /// extremes share a cell. There every value of a column has at most 31 significant bits (a
    /// float, a half, or an integer argument), and for such values [`magnitude_bin`]'s computed
    /// log2 never decreases within a binade (the exact binade plus fraction grows by 2^-30 or
    /// more between two values, its correction term by 0.35 of that, plus roundings of
    /// 2^-54), so neither does the bin, nor the cell on the sign's side. Double values may have
    /// 53 bits, where that argument fails.
    #[inline(always)]
    fn shared(&self, values: &[f64]) -> Option<usize> {
        let key = shared_key(values)?;
        let cell = usize::from(self.cells[key as usize]);
        if cell < GRID_SIDE {
            return Some(cell);
        }
        // Zero, infinity and NaN share a key with values of other cells.
        let exponent = key & 0x7ff;
        if self.element == FloatType::Double || exponent == 0 || exponent == 0x7ff {
            return None;
        }
        let (lowest, highest) = values.iter().fold(
            (f64::INFINITY, f64::NEG_INFINITY),
            |(lowest, highest), value| (lowest.min(*value), highest.max(*value)),
        );
        let cell = self.cell(lowest);
        (cell == self.cell(highest)).then_some(cell)
    }
}

/// [`AxisCells::shared`] over a part's blocks in turn, no longer asked once
/// [`BLOCKS_MISSED_BEFORE_GIVING_UP`] blocks in a row have failed it: every block of a random
/// sweep does (the check was a third of float atan2's tally), an exhaustive sweep's rarely
/// two in a row. Giving up only sends blocks to the count input by input, which counts the
/// same.
struct BlockCells<'a> {
    axis: &'a AxisCells,
    missed: u32,
}

/// See [`BlockCells`].
const BLOCKS_MISSED_BEFORE_GIVING_UP: u32 = 4;

impl<'a> BlockCells<'a> {
    fn of(axis: &'a AxisCells) -> BlockCells<'a> {
        BlockCells { axis, missed: 0 }
    }

    /// The cell every value of `values` lies in, where the check is still asked and shows one.
    #[inline(always)]
    fn shared(&mut self, values: &[f64]) -> Option<usize> {
        self.asked(|axis| axis.shared(values))
    }

    /// The cells every value of `x` and every value of `y` lie in, as [`BlockCells::shared`]
    /// (`y` not checked where `x` fails).
    #[inline(always)]
    fn shared_pair(&mut self, x: &[f64], y: &[f64]) -> Option<(usize, usize)> {
        self.asked(|axis| {
            axis.shared(x)
                .and_then(|x_cell| Some((x_cell, axis.shared(y)?)))
        })
    }

    /// `check`'s answer for one block, while blocks still answer it: the count of blocks in a
    /// row that did not.
    #[inline(always)]
    fn asked<T>(&mut self, check: impl FnOnce(&AxisCells) -> Option<T>) -> Option<T> {
        if self.missed >= BLOCKS_MISSED_BEFORE_GIVING_UP {
            return None;
        }
        let answer = check(self.axis);
        self.missed = if answer.is_some() { 0 } else { self.missed + 1 };
        answer
    }
}

/// The sign and exponent bits every double of `values` has, where they share them (inlined, so
/// that it runs in the vectors of the loop it is in).
#[inline(always)]
fn shared_key(values: &[f64]) -> Option<u64> {
    let key = values[0].to_bits() >> 52;
    let differ = values
        .iter()
        .fold(0, |differ, value| differ | ((value.to_bits() >> 52) ^ key));
    (differ == 0).then_some(key)
}

/// `add(class, count)` for each class from 1 to `kinds - 1` that `classes` holds `count` times.
fn count_by_class(classes: &[u8], kinds: usize, mut add: impl FnMut(usize, u64)) {
    for class in 1..kinds.min(256) {
        // 16-bit counters over runs of 4096 (they cannot overflow): 32 inputs per AVX-512
        // instruction where a count in 64 bits takes 8. (Byte counters over runs of 255 left
        // every run to the scalar remainder loop: AVX-512's unrolled loop takes 256 a turn.)
        let count: usize = classes
            .chunks(4096)
            .map(|run| {
                let held = run
                    .iter()
                    .fold(0u16, |held, value| held + u16::from(*value == class as u8));
                usize::from(held)
            })
            .sum();
        if count > 0 {
            add(class, count as u64);
        }
    }
}

/// The error recorded for a result known only to be correctly rounded.
pub const BOUND_OF_CORRECTLY_ROUNDED: f64 = 0.5;

/// Cells per axis of the dense region grid: every bin from −(BINS_PER_SIGN+1) to +(…+1).
const GRID_SIDE: usize = 2 * (BINS_PER_SIGN as usize + 1) + 1;

/// A dense region map, one row per second-argument bin, each row allocated when first
/// touched: a one-argument function uses one row of `GRID_SIDE` cells, so a slice's grid stays
/// small, and two grids merge cell by cell.
///
/// Inputs are logged first and binned in batches: binning each input as it is judged misses
/// the cache on nearly every input (a two-argument grid is 400 KB, once per width judged on
/// the same inputs), while a batch's cells are fetched together.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    rows: Vec<Option<Box<[BinStats]>>>,
    pending: Vec<Logged>,
}

/// One input waiting to be binned: its region, its error (−∞ where it adds none) and whether
/// it failed.
#[derive(Clone, Copy, Debug)]
struct Logged {
    region: Region,
    error: f64,
    failed: bool,
}

/// The grid row of a zero second argument, which every input of a one-argument function is in.
const ZERO_ROW: u8 = BINS_PER_SIGN as u8 + 1;

/// Inputs logged before a batch is binned.
const BATCH: usize = 8192;

thread_local! {
    /// A batch sorted by row, reused from batch to batch on each judging thread.
    static SORTED: std::cell::RefCell<Vec<Logged>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Grid {
    /// Counts an input in `region`; `error` raises the region's largest error unless it is −∞.
    fn log(&mut self, region: Region, error: f64, failed: bool) {
        // The row of a one-argument function (or of a zero second argument) is binned at
        // once: all of a one-argument grid is that row, small enough to stay in the cache.
        if region.y == ZERO_ROW {
            self.row(ZERO_ROW)[usize::from(region.x)].count(error, failed);
            return;
        }
        self.pending.push(Logged {
            region,
            error,
            failed,
        });
        if self.pending.len() == BATCH {
            self.bin_pending();
        }
    }

    /// Row `y`, allocated when first touched.
    fn row(&mut self, y: u8) -> &mut [BinStats] {
        if self.rows.is_empty() {
            self.rows = vec![None; GRID_SIDE];
        }
        self.rows[usize::from(y)]
            .get_or_insert_with(|| vec![BinStats::default(); GRID_SIDE].into_boxed_slice())
    }

    fn bin_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        // Row by row (a counting sort on the second bin): a row is 3 KB, so its cells stay in
        // the cache while its inputs are binned, where input order would jump across the grid.
        let mut row_starts = [0usize; GRID_SIDE + 1];
        for logged in &self.pending {
            row_starts[usize::from(logged.region.y) + 1] += 1;
        }
        for y in 0..GRID_SIDE {
            row_starts[y + 1] += row_starts[y];
        }
        SORTED.with_borrow_mut(|sorted| {
            sorted.clear();
            sorted.resize(
                self.pending.len(),
                Logged {
                    region: Region { x: 0, y: 0 },
                    error: f64::NEG_INFINITY,
                    failed: false,
                },
            );
            let mut next = row_starts;
            for logged in &self.pending {
                let slot = &mut next[usize::from(logged.region.y)];
                sorted[*slot] = *logged;
                *slot += 1;
            }
            for y in 0..GRID_SIDE {
                let row_inputs = &sorted[row_starts[y]..row_starts[y + 1]];
                if row_inputs.is_empty() {
                    continue;
                }
                let row = self.row(y as u8);
                for logged in row_inputs {
                    row[usize::from(logged.region.x)].count(logged.error, logged.failed);
                }
            }
        });
        self.pending.clear();
    }

    fn merge(&mut self, mut other: Grid) {
        self.bin_pending();
        other.bin_pending();
        if self.rows.is_empty() {
            self.rows = other.rows;
            return;
        }
        for (mine, theirs) in self.rows.iter_mut().zip(other.rows) {
            match (mine.as_mut(), theirs) {
                (_, None) => {}
                (None, theirs) => *mine = theirs,
                (Some(mine), Some(theirs)) => {
                    for (cell, their_cell) in mine.iter_mut().zip(theirs.iter()) {
                        cell.add(their_cell);
                    }
                }
            }
        }
    }

    /// Adds `other` without taking it (its logged inputs are logged here, its cells added).
    fn merge_from(&mut self, other: &Grid) {
        for logged in &other.pending {
            self.log(logged.region, logged.error, logged.failed);
        }
        for (y, theirs) in other.rows.iter().enumerate() {
            if let Some(theirs) = theirs {
                for (cell, their_cell) in self.row(y as u8).iter_mut().zip(theirs.iter()) {
                    cell.add(their_cell);
                }
            }
        }
    }

    /// Counts `count` passing inputs of error `error` in each (row, cell, count) of `cells`, as
    /// [`BinStats::count_many`].
    fn count_cells(&mut self, cells: &[(u8, u8, u64)], error: f64) {
        for (y, x, count) in cells {
            self.row(*y)[usize::from(*x)].count_many(*count, error);
        }
    }

    /// The touched cells, with their keys.
    fn into_cells(mut self) -> impl Iterator<Item = ((i16, i16), BinStats)> {
        self.bin_pending();
        self.rows
            .into_iter()
            .enumerate()
            .filter_map(|(y, row)| Some((y, row?)))
            .flat_map(|(y, row)| {
                row.into_vec()
                    .into_iter()
                    .enumerate()
                    .filter(|(_, bin)| bin.inputs > 0)
                    .map(move |(x, bin)| {
                        let region = Region {
                            x: x as u8,
                            y: y as u8,
                        };
                        (region.key(), bin)
                    })
            })
    }
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

impl BinStats {
    /// Counts one input; `error` raises the largest error unless it is −∞.
    fn count(&mut self, error: f64, failed: bool) {
        self.inputs += 1;
        self.failures += u64::from(failed);
        self.max_error = self.max_error.max(error);
    }

    /// Counts `inputs` inputs that passed, each with error `error`: what that many
    /// [`BinStats::count`] calls of passing inputs would count.
    fn count_many(&mut self, inputs: u64, error: f64) {
        self.inputs += inputs;
        self.max_error = self.max_error.max(error);
    }

    fn add(&mut self, other: &BinStats) {
        self.inputs += other.inputs;
        self.failures += other.failures;
        self.max_error = self.max_error.max(other.max_error);
    }
}

/// Bins per sign on a plot axis.
pub const BINS_PER_SIGN: i16 = 64;

/// The region of an input on a symmetric-log axis: 0 for zero, ±1..±BINS_PER_SIGN for the
/// magnitudes from the smallest subnormal to the largest finite value, ±(BINS_PER_SIGN + 1) for
/// infinities; `None` for NaN.
#[inline]
pub fn input_bin(x: f64, element: FloatType) -> Option<i16> {
    bin_by_table(x, element, &BINADE_BINS[element as usize])
}

/// [`input_bin`] with the element's row of [`BINADE_BINS`] looked up by the caller (once per
/// slice, not once per input).
#[inline]
fn bin_by_table(x: f64, element: FloatType, binade_bins: &[i16; 2048]) -> Option<i16> {
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
    let biased = (x.to_bits() >> 52) & 0x7ff;
    match binade_bins[biased as usize] {
        NOT_ONE_BIN => Some(sign * meeting_bin(x, element, biased as usize)),
        bin => Some(sign * bin),
    }
}

/// [`magnitude_bin`] of a finite, non-zero `x` (of either sign) in a binade (`biased`) where
/// bins meet, by comparing its fraction with the binade's [`BinEdges`]; the arithmetic (a
/// division) only near an edge or an end of the binade.
#[inline]
fn meeting_bin(x: f64, element: FloatType, biased: usize) -> i16 {
    BINADE_EDGES[element as usize * 2048 + biased]
        .bin_away_from_edges(x.to_bits() & FRACTION_BITS)
        .unwrap_or_else(|| magnitude_bin(x.abs(), element))
}

/// A double's fraction field.
const FRACTION_BITS: u64 = (1 << 52) - 1;

/// Fractions (in units of the fraction field's last bit) this close to an edge, or to either
/// end of the binade, take [`magnitude_bin`]'s arithmetic. Its computed bin differs from the
/// exact log2's bin (the exact binade plus fraction plus the correction term, which grows
/// with the fraction at a slope of 0.65 or more) only where the exact scaled position lies
/// within its rounding errors, about 2^-40, of a whole bin: within 2^-33 of the binade
/// (2^19 units of the fraction) of the exact edge. An edge found by bisection lies in that
/// zone, so beyond 2^36 units of it, and of an end of the binade (where an edge just outside
/// the binade shows its zone), the bin is the exact one, the same on each side of the edge.
const EDGE_GUARD: u64 = 1 << 36;

/// Where the bin steps up within a binade where bins meet.
#[derive(Clone, Copy)]
struct BinEdges {
    /// The bin of the binade's smallest magnitude ([`NOT_ONE_BIN`]: a binade without edges
    /// here, which [`magnitude_bin`] bins).
    first: i16,
    /// The fractions from which the bin is one more, then two more (a half binade can hold two
    /// edges: a bin spans 0.625 half binades); `u64::MAX` where there is none.
    edges: [u64; 2],
}

impl BinEdges {
    /// The bin of the magnitudes of fraction `fraction` in this binade, where the fraction is
    /// more than [`EDGE_GUARD`] from every edge and from either end of the binade (there it is
    /// [`magnitude_bin`]'s); `None` near one, or in a binade without edges.
    #[inline(always)]
    fn bin_away_from_edges(&self, fraction: u64) -> Option<i16> {
        let near_edge = self
            .edges
            .iter()
            .chain([&0, &FRACTION_BITS])
            .fold(false, |near, edge| {
                near | (fraction.abs_diff(*edge) <= EDGE_GUARD)
            });
        if self.first == NOT_ONE_BIN || near_edge {
            return None;
        }
        Some(
            self.first
                + i16::from(fraction >= self.edges[0])
                + i16::from(fraction >= self.edges[1]),
        )
    }
}

/// Per type and double binade (biased exponent, `element * 2048 + biased`): the binade's
/// [`BinEdges`] where bins meet in it, found by bisecting [`magnitude_bin`] itself.
static BINADE_EDGES: std::sync::LazyLock<Vec<BinEdges>> = std::sync::LazyLock::new(|| {
    let none = BinEdges {
        first: NOT_ONE_BIN,
        edges: [u64::MAX; 2],
    };
    let mut table = vec![none; 3 * 2048];
    for element in FloatType::ALL {
        for biased in 1..2047u64 {
            if BINADE_BINS[element as usize][biased as usize] != NOT_ONE_BIN {
                continue;
            }
            let bin =
                |fraction: u64| magnitude_bin(f64::from_bits((biased << 52) | fraction), element);
            let first = bin(0);
            let steps = bin(FRACTION_BITS) - first;
            assert!(
                (0..=2).contains(&steps),
                "{element:?} {biased}: {steps} edges"
            );
            let mut edges = [u64::MAX; 2];
            for (step, edge) in (1..=steps).zip(&mut edges) {
                // bin(low) < first + step <= bin(high), down to neighbours.
                let (mut low, mut high) = (0, FRACTION_BITS);
                while high - low > 1 {
                    let middle = low + (high - low) / 2;
                    if bin(middle) >= first + step {
                        high = middle;
                    } else {
                        low = middle;
                    }
                }
                *edge = high;
            }
            table[element as usize * 2048 + biased as usize] = BinEdges { first, edges };
        }
    }
    table
});

/// A binade is cut into 2^FINE_BITS parts by its top fraction bits ([`FineCells`]).
const FINE_BITS: u32 = 6;

/// Per sign and exponent field (a double's top 12 bits), the cells of the parts of its binade,
/// 2^[`FINE_BITS`] of them by the top fraction bits where bins meet in the binade, one where
/// they do not: `cells[start[key] + (part & mask[key])]`. A part's cell is [`GRID_SIDE`] + 1
/// (undecided, [`AxisCells::cell_slowly`] decides) where it comes within [`EDGE_GUARD`] of an
/// edge or of the binade's ends, where its binade has no [`BinEdges`], and for zeros, double
/// subnormals, infinities and NaNs; elsewhere its magnitudes lie between the same edges, so
/// [`BinEdges::bin_away_from_edges`] gives them all the one bin stored. Where bins meet the
/// cell was a branch taken at random in a random sweep (a quarter of its float values), and
/// the edges' arithmetic behind it.
struct FineCells {
    start: [u32; 4096],
    mask: [u8; 4096],
    cells: Vec<u8>,
}

static FINE_CELLS: std::sync::LazyLock<[FineCells; 3]> = std::sync::LazyLock::new(|| {
    FloatType::ALL.map(|element| {
        let undecided = GRID_SIDE as u8 + 1;
        let one_cell = &CELL_OF_SIGN_AND_BINADE[element as usize];
        let mut fine = FineCells {
            start: [0; 4096],
            mask: [0; 4096],
            cells: Vec::new(),
        };
        for (key, &one) in one_cell.iter().enumerate() {
            fine.start[key] = fine.cells.len() as u32;
            if usize::from(one) < GRID_SIDE {
                fine.cells.push(one);
                continue;
            }
            let biased = key & 0x7ff;
            let edges = BINADE_EDGES[element as usize * 2048 + biased];
            if !(1..2047).contains(&biased) || edges.first == NOT_ONE_BIN {
                fine.cells.push(undecided);
                continue;
            }
            let sign = if key & 0x800 == 0 { 1 } else { -1 };
            fine.mask[key] = (1u8 << FINE_BITS) - 1;
            let width = 1u64 << (52 - FINE_BITS);
            for part in 0..1u64 << FINE_BITS {
                let (low, high) = (part * width, (part + 1) * width - 1);
                // Every fraction of the part more than the guard from every edge and end.
                let clear =
                    |edge: u64| edge.saturating_add(EDGE_GUARD) < low || edge > high + EDGE_GUARD;
                let away = low > EDGE_GUARD
                    && high + EDGE_GUARD < FRACTION_BITS
                    && edges
                        .edges
                        .iter()
                        .all(|edge| *edge == u64::MAX || clear(*edge));
                fine.cells.push(match edges.bin_away_from_edges(low) {
                    Some(bin) if away => Region::of_bins(sign * bin, 0).x,
                    _ => undecided,
                });
            }
        }
        fine
    })
});

/// Marks a binade whose magnitudes fall in more than one bin (or subnormal doubles).
const NOT_ONE_BIN: i16 = -1;

/// Per type, per double binade (biased exponent): the bin of all its magnitudes, where they
/// share one, else [`NOT_ONE_BIN`]. Most binades are in one bin (a bin spans 4.3 float or 33
/// double binades), so most inputs need no arithmetic.
///
/// Why one lookup gives [`magnitude_bin`]'s bin: for a normal magnitude of binade e the
/// computed log2 lies in [e, e + 1]: e + f rounds into [e, e + 1] and the added
/// 0.3466 f (1 − f) keeps the real sum at most e + 1 and is too small to round it past e + 1.
/// [`bin_of_log2`] never decreases, so where log2 = e and log2 = e + 1 have the same bin, every
/// magnitude of the binade has it.
static BINADE_BINS: std::sync::LazyLock<[[i16; 2048]; 3]> = std::sync::LazyLock::new(|| {
    let mut table = [[NOT_ONE_BIN; 2048]; 3];
    for element in FloatType::ALL {
        for biased in 1..2047i32 {
            let binade = f64::from(biased - 1023);
            let bin = bin_of_log2(binade, element);
            if bin == bin_of_log2(binade + 1.0, element) {
                table[element as usize][biased as usize] = bin;
            }
        }
    }
    table
});

/// Per type, per sign and double binade (a double's top 12 bits): the grid cell of its
/// magnitudes where [`BINADE_BINS`] gives them one bin, else `GRID_SIDE` (zeros and double
/// subnormals, infinities and NaNs, and binades where bins meet: [`bin_by_table`] decides).
static CELL_OF_SIGN_AND_BINADE: std::sync::LazyLock<[[u8; 4096]; 3]> =
    std::sync::LazyLock::new(|| {
        let mut table = [[GRID_SIDE as u8; 4096]; 3];
        for element in FloatType::ALL {
            for (biased, bin) in BINADE_BINS[element as usize].iter().enumerate() {
                if (1..2047).contains(&biased) && *bin != NOT_ONE_BIN {
                    table[element as usize][biased] = Region::of_bins(*bin, 0).x;
                    table[element as usize][biased | 0x800] = Region::of_bins(-*bin, 0).x;
                }
            }
        }
        table
    });

/// The bin (1..=BINS_PER_SIGN) of a finite, non-zero magnitude.
fn magnitude_bin(x: f64, element: FloatType) -> i16 {
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
    bin_of_log2(log2, element)
}

/// The bin of a magnitude from its log2: the format's range of magnitudes, from the smallest
/// subnormal to the largest finite value, cut into [`BINS_PER_SIGN`] equal parts.
fn bin_of_log2(log2: f64, element: FloatType) -> i16 {
    let lowest = f64::from(element.emin() - element.precision() as i32 + 1);
    let highest = f64::from(element.emax() + 1);
    let position = (log2 - lowest) / (highest - lowest);
    // floor, then clamp to the sign's bins: truncation is floor for the non-negative values
    // the clamp keeps, and libm's floor is a call on every judged input.
    let scaled = position * f64::from(BINS_PER_SIGN);
    1 + if scaled < 0.0 {
        0
    } else {
        (scaled as i16).min(BINS_PER_SIGN - 1)
    }
}

impl UnitStats {
    /// Records `case` in its input region (from [`input_region`]).
    pub fn record_region(&mut self, region: Option<Region>, case: &Case) {
        let Some(region) = region else {
            return;
        };
        let error = if case.error.is_finite() {
            case.error
        } else {
            f64::NEG_INFINITY
        };
        self.grid.log(region, error, case.outcome == Outcome::Fail);
    }

    /// Records a pass the fast tier proved, building its case only when it becomes the worst:
    /// the same counts, region and worst case as `record_region` + `record` of `build()`.
    pub fn record_fast_pass(
        &mut self,
        index: u64,
        error: f64,
        region: Option<Region>,
        build: impl FnOnce() -> Case,
    ) {
        self.record_fast_measured(index, error, false, region, build);
    }

    /// A pass or failure with its error in ulp, as `record_region` + `record` of `build()`
    /// count it; the case is built only where it becomes the worst.
    fn record_fast_measured(
        &mut self,
        index: u64,
        error: f64,
        failed: bool,
        region: Option<Region>,
        build: impl FnOnce() -> Case,
    ) {
        self.inputs += 1;
        self.failures += u64::from(failed);
        if let Some(region) = region {
            self.grid.log(region, error, failed);
        }
        if error > self.max_error {
            self.max_error = error;
        }
        let becomes_worst = self
            .worst
            .as_ref()
            .is_none_or(|worst| ranks_above(failed, false, error, index, worst));
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
        region: Option<Region>,
        build: impl FnOnce() -> Case,
    ) {
        let (error, allowance) = match verdict {
            FastVerdict::Pass(error) => return self.record_fast_pass(index, error, region, build),
            FastVerdict::CorrectlyRounded => {
                // Ranked at its bound, so one correctly rounded result per slice is built (the
                // first), not every one: MPFR's exact error replaces 0.5 only in the case.
                return self.record_fast_pass(index, BOUND_OF_CORRECTLY_ROUNDED, region, || {
                    let mut case = build();
                    case.error = BOUND_OF_CORRECTLY_ROUNDED;
                    case
                });
            }
            FastVerdict::Overflow => (f64::INFINITY, Some(Allowance::Overflow)),
            FastVerdict::CorrectlyRoundedOverflow => (f64::INFINITY, None),
            FastVerdict::Undefined => {
                if let Some(region) = region {
                    self.grid.log(region, 0.0, false);
                }
                self.undefined += 1;
                return;
            }
            FastVerdict::Fail(error) => {
                return self.record_fast_measured(index, error, true, region, build);
            }
            FastVerdict::AbsolutePass(distance) => {
                self.inputs += 1;
                if let Some(region) = region {
                    self.grid.log(region, distance, false);
                }
                let becomes_worst = self
                    .worst
                    .as_ref()
                    .is_none_or(|worst| ranks_above(false, true, distance, index, worst));
                if becomes_worst {
                    // Ranked again by MPFR's distance: the double's may order a near tie
                    // differently.
                    let case = build();
                    self.max_abs_error = self.max_abs_error.max(case.error);
                    if self.worst.as_ref().is_none_or(|worst| case.outranks(worst)) {
                        self.worst = Some(case);
                    }
                }
                return;
            }
        };
        self.inputs += 1;
        if let Some(region) = region {
            // An infinite distance is no finite error: only the count.
            self.grid.log(region, f64::NEG_INFINITY, false);
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

    /// Moves the regions recorded during the run into `error_map`, where reports read them
    /// (the pipeline settles every unit's result when its chunk loop ends).
    pub fn settle(&mut self) {
        for (key, bin) in std::mem::take(&mut self.grid).into_cells() {
            self.error_map.entry(key).or_default().add(&bin);
        }
    }

    pub fn merge(&mut self, other: UnitStats) {
        self.inputs += other.inputs;
        self.failures += other.failures;
        self.undefined += other.undefined;
        for (mine, theirs) in self.allowed.iter_mut().zip(other.allowed) {
            *mine += theirs;
        }
        self.max_error = self.max_error.max(other.max_error);
        self.max_abs_error = self.max_abs_error.max(other.max_abs_error);
        self.grid.merge(other.grid);
        for (key, theirs) in other.error_map {
            self.error_map.entry(key).or_default().add(&theirs);
        }
        if let Some(case) = other.worst {
            if self.worst.as_ref().is_none_or(|worst| case.outranks(worst)) {
                self.worst = Some(case);
            }
        }
    }

    /// Adds inputs whose results were correctly rounded, as [`UnitStats::record_fast`] of
    /// [`FastVerdict::CorrectlyRounded`] on each would: `build` makes the case of an input (by
    /// index) where it becomes the worst.
    pub fn add_correctly_rounded(
        &mut self,
        inputs: &CorrectlyRoundedInputs,
        build: impl FnOnce(u64) -> Case,
    ) {
        let Some(first_index) = inputs.first_index else {
            return;
        };
        self.grid.count_cells(&inputs.cells, inputs.error);
        self.record_fast_pass(first_index, inputs.error, None, || {
            let mut case = build(first_index);
            case.error = inputs.error;
            case
        });
        // record_fast_pass counted the first.
        self.inputs += inputs.count - 1;
    }

    /// Adds `inputs`, whose every result is the correctly rounded infinity of an exact value
    /// past the largest finite one ([`crate::judge::Rules::infinity_verdict`]; counted at
    /// −inf, no error, in their regions), as [`UnitStats::record_fast`] of `verdict` on each
    /// would: counted, and under the overflow allowance where the verdict is
    /// [`FastVerdict::Overflow`]; no error, no worst case.
    pub fn add_overflowed(&mut self, inputs: &CorrectlyRoundedInputs, verdict: FastVerdict) {
        if inputs.first_index.is_none() {
            return;
        }
        self.grid.count_cells(&inputs.cells, inputs.error);
        self.inputs += inputs.count;
        if verdict == FastVerdict::Overflow {
            self.allowed[Allowance::Overflow as usize] += inputs.count;
        }
    }

    /// A copy of everything but the regions (the grid and the error map stay empty).
    pub fn without_regions(&self) -> UnitStats {
        UnitStats {
            worst: self.worst.clone(),
            error_map: BTreeMap::new(),
            grid: Grid::default(),
            ..*self
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

    /// A judged input's case with only what the statistics read: its index (and so its one
    /// argument), error and outcome.
    fn judged_case(index: u64, error: f64, failed: bool) -> Case {
        Case {
            index,
            args: vec![index as f64],
            device_results: Vec::new(),
            references: Vec::new(),
            error,
            absolute: false,
            outcome: if failed { Outcome::Fail } else { Outcome::Pass },
            output: 0,
            lanes: Vec::new(),
        }
    }

    /// Fast failures count as MPFR's cases of the same errors do: inputs, failures, the
    /// largest error, the regions, and the worst case (a failure outranks every pass, the
    /// larger failure the smaller), built only where a failure outranks the worst.
    #[test]
    fn fast_failures_count_as_mpfrs() {
        let region = input_region(&[0.5], FloatType::Float);
        let verdicts = [
            (1, 0.7, false),
            (2, 12.5, true),
            (3, 9.0, true),
            (4, 30.0, true),
        ];
        let mut fast = UnitStats::default();
        let mut exact = UnitStats::default();
        for (index, error, failed) in verdicts {
            let case = judged_case(index, error, failed);
            let verdict = if failed {
                FastVerdict::Fail(error)
            } else {
                FastVerdict::Pass(error)
            };
            let ranks_below = fast.worst.as_ref().is_some_and(|w| !case.outranks(w));
            fast.record_fast(verdict, index, region, || {
                assert!(
                    !ranks_below,
                    "input {index} built though it ranks below the worst"
                );
                case.clone()
            });
            exact.record_region(region, &case);
            exact.record(case);
        }
        assert_eq!(
            (fast.inputs, fast.failures, fast.max_error),
            (exact.inputs, exact.failures, exact.max_error)
        );
        assert_eq!((fast.failures, fast.max_error), (3, 30.0));
        assert_eq!(fast.worst.as_ref().map(|w| w.index), Some(4));
        fast.settle();
        exact.settle();
        let bins = |stats: &UnitStats| {
            let bin = stats.error_map.values().next().cloned().unwrap();
            (bin.inputs, bin.failures, bin.max_error)
        };
        assert_eq!(bins(&fast), bins(&exact));
    }

    /// An absolute pass counts as MPFR's would, and the unit's largest absolute error comes
    /// from the cases built as the worst (MPFR's distances), never from a double's: a pass
    /// that cannot outrank the worst builds no case.
    #[test]
    fn absolute_passes_take_the_largest_error_from_built_cases() {
        let absolute_case = |index: u64, error: f64| Case {
            absolute: true,
            ..judged_case(index, error, false)
        };
        let mut stats = UnitStats::default();
        let region = input_region(&[0.5], FloatType::Float);
        // The double's distance 1e-4; MPFR's, rounded up, a little more.
        let exact = 1e-4 + 1e-19;
        stats.record_fast(FastVerdict::AbsolutePass(1e-4), 3, region, || {
            absolute_case(3, exact)
        });
        assert_eq!(stats.max_abs_error, exact);
        assert_eq!(stats.worst.as_ref().map(|worst| worst.index), Some(3));
        stats.record_fast(FastVerdict::AbsolutePass(5e-5), 4, region, || {
            panic!("a smaller distance is no worst case")
        });
        // A near tie the double ranks above the worst and MPFR below it: counted, not worst.
        stats.record_fast(FastVerdict::AbsolutePass(1e-4 + 2e-19), 5, region, || {
            absolute_case(5, 1e-4)
        });
        assert_eq!(stats.max_abs_error, exact);
        assert_eq!(stats.worst.as_ref().map(|worst| worst.index), Some(3));
        assert_eq!((stats.inputs, stats.max_error), (3, 0.0));
        stats.settle();
        assert_eq!(
            stats.error_map.values().map(|bin| bin.inputs).sum::<u64>(),
            3
        );
    }

    /// Binning in batches (sorted by row, flushed every `BATCH` inputs, merged grid by grid)
    /// gives each region the counts and largest error that binning input by input gives.
    #[test]
    fn regions_binned_in_batches_match_a_direct_count() {
        let float = FloatType::Float;
        let inputs: Vec<(Vec<f64>, f64, bool)> = (0..3 * BATCH + 17)
            .map(|i| {
                let x = f64::from(i as u32 % 97) * 1.5e-3 - 0.07;
                let y = 2f64.powi((i % 251) as i32 - 125) * if i % 3 == 0 { -1.0 } else { 1.0 };
                let error = f64::from((i * 7919 % 1000) as u32) / 100.0;
                (vec![x, y], error, i % 11 == 0)
            })
            .collect();
        let mut direct: BTreeMap<(i16, i16), BinStats> = BTreeMap::new();
        for (args, error, failed) in &inputs {
            let key = input_region(args, float).unwrap().key();
            let bin = direct.entry(key).or_default();
            bin.inputs += 1;
            bin.failures += u64::from(*failed);
            bin.max_error = bin.max_error.max(*error);
        }
        let case = |error: f64, failed: bool| judged_case(0, error, failed);
        // Two halves recorded apart and merged, as two judging threads would.
        let (first, second) = inputs.split_at(inputs.len() / 3);
        let mut halves = [UnitStats::default(), UnitStats::default()];
        for (stats, part) in halves.iter_mut().zip([first, second]) {
            for (args, error, failed) in part {
                stats.record_region(input_region(args, float), &case(*error, *failed));
            }
        }
        let [mut merged, second_half] = halves;
        merged.merge(second_half);
        merged.settle();
        assert_eq!(merged.error_map, direct);
        assert!(direct.keys().any(|(_, y)| *y != 0) && direct.len() > 100);
    }

    /// Rows that share regions while they agree and part when a slice tells them apart end
    /// with the regions and counts each row would have alone, whichever rows agree in which
    /// slice, and whichever earlier row (or copy of one) a row repeats.
    #[test]
    fn rows_sharing_regions_end_as_rows_kept_apart() {
        let float = FloatType::Float;
        let case = |error: f64| judged_case(0, error, error > 3.0);
        // Row r's error on input i of slice s: a row has results of its own in a slice where
        // its pattern says so (row 0 always), else it repeats an earlier row, which the
        // pattern picks, there.
        let differs =
            |slice: usize, row: usize| row == 0 || (slice * 7 + row * 3).is_multiple_of(5);
        let repeated = |slice: usize, row: usize| (slice + row) % row;
        let own = |slice: usize, mut row: usize| {
            while !differs(slice, row) {
                row = repeated(slice, row);
            }
            row
        };
        let error = |slice: usize, row: usize, i: usize| {
            f64::from(((i * 31 + own(slice, row) * 17) % 400) as u32) / 100.0
        };
        let rows = 4;
        let slices = 9;
        let mut apart = vec![UnitStats::default(); rows];
        let mut shared = RowStats::default();
        for slice in 0..slices {
            let inputs: Vec<f64> = (0..50)
                .map(|i| 2f64.powi((slice * 50 + i) as i32 % 200 - 100))
                .collect();
            let mut tally = RowStats::default();
            for (row, row_apart) in apart.iter_mut().enumerate() {
                let mut stats = UnitStats::default();
                for (i, x) in inputs.iter().enumerate() {
                    let case = case(error(slice, row, i));
                    stats.record_region(input_region(&[*x], float), &case);
                    stats.record(case);
                }
                row_apart.merge(stats.clone());
                if !differs(slice, row) {
                    tally.push_copy_of(repeated(slice, row));
                } else {
                    tally.push(stats);
                }
            }
            shared.merge(tally);
        }
        // Every path of the merge ran: rows sharing in both, parting, and kept apart; rows
        // repeating their predecessor, a row further up, and a copy of another row.
        assert!((0..slices).any(|s| (1..rows).any(|r| differs(s, r))));
        assert!((0..slices).any(|s| (1..rows).all(|r| !differs(s, r))));
        let repeats =
            |s: usize, r: usize, of: &dyn Fn(usize) -> bool| !differs(s, r) && of(repeated(s, r));
        assert!((0..slices).any(|s| (1..rows).any(|r| repeats(s, r, &|e| e == r - 1))));
        assert!((0..slices).any(|s| (2..rows).any(|r| repeats(s, r, &|e| e + 1 < r))));
        assert!((0..slices).any(|s| (2..rows).any(|r| repeats(s, r, &|e| !differs(s, e)))));
        // And rows repeating different rows in two slices.
        assert!((1..rows).any(|r| {
            let sources: std::collections::BTreeSet<usize> = (0..slices)
                .filter(|s| !differs(*s, r))
                .map(|s| own(s, r))
                .collect();
            sources.len() > 1
        }));
        for stats in &mut apart {
            stats.settle();
        }
        let summary = |stats: &UnitStats| {
            (
                stats.inputs,
                stats.failures,
                stats.max_error,
                stats.error_map.clone(),
            )
        };
        let shared_rows: Vec<_> = shared.into_rows().iter().map(summary).collect();
        let apart_rows: Vec<_> = apart.iter().map(summary).collect();
        assert_eq!(shared_rows, apart_rows);
        assert_ne!(
            apart_rows[0].3, apart_rows[1].3,
            "rows that differ somewhere"
        );
    }

    /// Correctly rounded (or exact, or overflowed) inputs counted once and added to a row give
    /// the row what recording each as a fast correctly rounded (or `Pass(0.0)`, or overflow)
    /// verdict gives, among other verdicts in any order, for one- and two-argument inputs (NaN,
    /// zeros and infinities among them).
    #[test]
    fn correctly_rounded_inputs_add_as_their_verdicts_would() {
        let case = |index: u64, error: f64| judged_case(index, error, false);
        let specials = [0.0, -0.0, f64::NAN, f64::INFINITY, -1e-310, 3e-45];
        let x = |index: u64, _: FloatType| match specials.get(index as usize % 40) {
            Some(special) => *special,
            None => {
                1.37f64.powi(index as i32 % 90 - 45)
                    * if index.is_multiple_of(3) { -1.0 } else { 1.0 }
            }
        };
        // And long runs of inputs in one binade (a sweep through a binade in order, as in an
        // exhaustive sweep), where inputs are counted a block at a time: a run of each sign
        // in every 40th binade of the type, from about 2^-60 up (bins meet in some).
        let run = |index: u64, _: FloatType| {
            let binade = (index / 300) as i32 * 40 - 60;
            let sign = if (index / 150).is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            sign * 2f64.powi(binade) * (1.0 + (index % 150) as f64 / 160.0)
        };
        // And runs through the type's normal binades where bins meet, 600 inputs in order in
        // each, where a block's cell is its extremes' (blocks across a bin's edge too).
        let meeting = FloatType::ALL.map(|element| {
            let normal = element.emin()..element.emax() + 1;
            let meeting: Vec<i32> = (1..2047)
                .filter(|biased| BINADE_BINS[element as usize][*biased] == NOT_ONE_BIN)
                .map(|biased| biased as i32 - 1023)
                .filter(|exponent| normal.contains(exponent))
                .collect();
            assert!(meeting.len() > 5, "{element:?} {meeting:?}");
            meeting
        });
        let through_meeting = |index: u64, element: FloatType| {
            let meeting = &meeting[element as usize];
            let binade = meeting[(index / 600) as usize % meeting.len()];
            let sign = if (index / 1200).is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            sign * 2f64.powi(binade) * (1.0 + (index % 600) as f64 / 600.0)
        };
        let start = 1000u64;
        let patterns: [&dyn Fn(u64, FloatType) -> f64; 3] = [&x, &run, &through_meeting];
        for ((x, range), element) in patterns
            .into_iter()
            .zip([7..87, 100..2900, 100..9700])
            .flat_map(|pattern| FloatType::ALL.map(|element| (pattern.clone(), element)))
        {
            for arguments in 1..=3 {
                let columns: Vec<Vec<f64>> = (0..arguments)
                    .map(|argument| {
                        (0..range.end as u64)
                            .map(|i| {
                                element
                                    .round(x(i * (argument + 1) as u64 + argument as u64, element))
                            })
                            .collect()
                    })
                    .collect();
                // Correctly rounded: inputs 10..60; 70..80 a second class, passed with no
                // error (a NaN where NaN is expected); 60..70 correctly rounded overflows; the
                // others pass with another error (one below 0.5 ulp, so the worst is a
                // correctly rounded input, and one above). Past 100, the classes in turn.
                let classes: Vec<u8> = range
                    .clone()
                    .map(|i| match i {
                        10..60 => 1,
                        70..80 => 2,
                        60..70 => 3,
                        100.. => ((i / 7) % 4) as u8,
                        _ => 0,
                    })
                    .collect();
                // Exact results (counted at 0) as well: the others then rank above them.
                let kinds = [
                    (FastVerdict::CorrectlyRounded, BOUND_OF_CORRECTLY_ROUNDED),
                    (FastVerdict::Pass(0.0), 0.0),
                ];
                for ((verdict, counted_at), other_error) in kinds
                    .into_iter()
                    .flat_map(|kind| [(kind, 0.25), (kind, 0.75)])
                {
                    // Under a ULP cell's allowance, or as a correctly rounded cell's pass.
                    let overflow = if other_error < 0.5 {
                        FastVerdict::Overflow
                    } else {
                        FastVerdict::CorrectlyRoundedOverflow
                    };
                    let mut one_by_one = UnitStats::default();
                    let mut counted = UnitStats::default();
                    for (i, class) in range.clone().zip(&classes) {
                        let index = start + i as u64;
                        let args: Vec<f64> = columns.iter().map(|column| column[i]).collect();
                        let region = input_region(&args[..arguments.min(2)], element);
                        if *class == 1 {
                            one_by_one
                                .record_fast(verdict, index, region, || case(index, counted_at));
                        } else if *class == 2 {
                            one_by_one.record_fast(FastVerdict::Pass(0.0), index, region, || {
                                case(index, 0.0)
                            });
                        } else if *class == 3 {
                            one_by_one.record_fast(overflow, index, region, || {
                                case(index, f64::INFINITY)
                            });
                        } else {
                            for stats in [&mut one_by_one, &mut counted] {
                                stats.record_fast(
                                    FastVerdict::Pass(other_error),
                                    index,
                                    region,
                                    || case(index, other_error),
                                );
                            }
                        }
                    }
                    let mut bulk = [
                        CorrectlyRoundedInputs::counted_at(counted_at),
                        CorrectlyRoundedInputs::counted_at(0.0),
                        CorrectlyRoundedInputs::counted_at(f64::NEG_INFINITY),
                    ];
                    CorrectlyRoundedInputs::record_decided(
                        &mut bulk,
                        &columns,
                        range.clone(),
                        &classes,
                        |position| start + position as u64,
                        element,
                    );
                    for (inputs, error) in bulk.iter().zip([counted_at, 0.0]) {
                        counted.add_correctly_rounded(inputs, |index| case(index, error));
                    }
                    assert!(bulk[2].counts_overflows() && !bulk[0].counts_overflows());
                    counted.add_overflowed(&bulk[2], overflow);
                    for stats in [&mut one_by_one, &mut counted] {
                        stats.settle();
                    }
                    let summary = |stats: &UnitStats| {
                        let worst = stats.worst.as_ref().map(|worst| (worst.index, worst.error));
                        (
                            stats.inputs,
                            stats.max_error,
                            worst,
                            stats.error_map.clone(),
                            stats.allowed,
                        )
                    };
                    let what = format!("{element:?} {arguments} {other_error}");
                    assert_eq!(summary(&counted), summary(&one_by_one), "{what}");
                    assert!(one_by_one.error_map.len() > 5, "{what}");
                }
            }
        }
    }

    /// Within a binade where bins meet, the bin of every half and every float never decreases
    /// as the magnitude grows, which lets [`CorrectlyRoundedInputs::record_decided`] take a
    /// block's cell from its extremes.
    #[test]
    fn bins_never_decrease_within_a_binade_of_half_or_float_values() {
        for element in [FloatType::Half, FloatType::Float] {
            let fraction_bits = element.fraction_bits();
            for biased in 1..2047u64 {
                if BINADE_BINS[element as usize][biased as usize] != NOT_ONE_BIN {
                    continue;
                }
                let mut last = 0;
                for fraction in 0..1u64 << fraction_bits {
                    let x = f64::from_bits((biased << 52) | (fraction << (52 - fraction_bits)));
                    let bin = magnitude_bin(x, element);
                    assert!(bin >= last, "{element:?} {x:e}: {bin} after {last}");
                    last = bin;
                }
            }
        }
    }

    /// The cell lookup by sign and binade gives the cell of the input's bin wherever it gives
    /// one, and gives one for most binades of every type.
    #[test]
    fn the_cell_of_a_sign_and_binade_is_its_inputs_cell() {
        for element in FloatType::ALL {
            let cells = &CELL_OF_SIGN_AND_BINADE[element as usize];
            for top in 0..4096u64 {
                for fraction in [0, 1, 1 << 40, 1 << 51, (1 << 52) - 1] {
                    let x = f64::from_bits((top << 52) | fraction);
                    let cell = usize::from(cells[top as usize]);
                    if cell != GRID_SIDE {
                        let bin = input_bin(x, element).expect("a number");
                        assert_eq!(cell, usize::from(Region::of_bins(bin, 0).x), "{x:e}");
                    }
                }
            }
            let looked_up = cells
                .iter()
                .filter(|c| usize::from(**c) != GRID_SIDE)
                .count();
            assert!(looked_up > 3000, "{element:?}: {looked_up}");
        }
    }

    /// The binade table gives the bin the arithmetic gives: every float, and doubles around
    /// every bin boundary and across every binade.
    #[test]
    fn binade_table_bins_as_the_arithmetic_does() {
        let check = |x: f64, element: FloatType| {
            if x.is_finite() && x != 0.0 {
                assert_eq!(
                    input_bin(x, element).unwrap().abs(),
                    magnitude_bin(x.abs(), element),
                    "{x:e} {element:?}"
                );
            }
        };
        for bits in (0..=u32::MAX).step_by(97) {
            let x = f64::from(f32::from_bits(bits));
            check(x, FloatType::Float);
            check(x, FloatType::Half);
        }
        for element in FloatType::ALL {
            for biased in 1..2047u64 {
                for fraction in [0, 1, 1 << 51, (1 << 52) - 2, (1 << 52) - 1] {
                    check(f64::from_bits((biased << 52) | fraction), element);
                }
                // Walk a binade in coarse steps, with neighbours of each step.
                for step in 0..512u64 {
                    let bits = (biased << 52) | (step << 43);
                    for neighbour in [bits.saturating_sub(1), bits, bits + 1] {
                        check(f64::from_bits(neighbour), element);
                    }
                }
            }
        }
    }

    /// Every part of a binade the fine table decides has the cell [`AxisCells::cell_slowly`]
    /// gives at its first and last fraction and at pseudorandom ones between, both signs; the
    /// table leaves undecided only the parts by an edge or an end (at most four of the 64 where
    /// one edge meets a binade, six where two do).
    #[test]
    fn fine_cells_are_the_slow_cells() {
        let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move || draws.next_bits();
        let width = 1u64 << (52 - FINE_BITS);
        for element in FloatType::ALL {
            let axis = AxisCells::of(element);
            let fine = &FINE_CELLS[element as usize];
            for key in 0..4096u64 {
                if fine.mask[key as usize] == 0 {
                    continue;
                }
                let mut undecided = 0;
                for part in 0..1u64 << FINE_BITS {
                    let cell = fine.cells[fine.start[key as usize] as usize + part as usize];
                    if usize::from(cell) > GRID_SIDE {
                        undecided += 1;
                        continue;
                    }
                    let fractions = [0, width - 1, next() % width, next() % width];
                    for fraction in fractions.map(|offset| part * width + offset) {
                        let x = f64::from_bits((key << 52) | fraction);
                        assert_eq!(usize::from(cell), axis.cell_slowly(x), "{x:e} {element:?}");
                        assert_eq!(axis.cell(x), axis.cell_slowly(x), "{x:e} {element:?}");
                    }
                }
                assert!(
                    undecided <= 6,
                    "{element:?} {key:#x}: {undecided} parts undecided"
                );
            }
        }
    }

    /// The bin by a binade's edges is [`magnitude_bin`]'s wherever bins meet: for every type, at
    /// every float value within 2^16 floats of an edge or of an end of the binade and every
    /// 61st float elsewhere (so every half value), and for doubles at the guard's borders, all
    /// through the zone around each edge where the arithmetic's rounding may disagree, and at
    /// pseudorandom fractions; both signs, through [`input_bin`] and the axis's cells.
    #[test]
    fn edges_bin_as_the_arithmetic_does() {
        let mut random = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            random
        };
        let mut slow = 0u64;
        let mut checked = 0u64;
        for element in FloatType::ALL {
            let axis = AxisCells::of(element);
            let mut meeting = 0;
            for biased in 1..2047u64 {
                if BINADE_BINS[element as usize][biased as usize] != NOT_ONE_BIN {
                    continue;
                }
                meeting += 1;
                let edges = BINADE_EDGES[element as usize * 2048 + biased as usize];
                assert_ne!(edges.first, NOT_ONE_BIN, "{element:?} {biased}");
                let mut check = |fraction: u64| {
                    let x = f64::from_bits((biased << 52) | fraction);
                    let bin = magnitude_bin(x, element);
                    assert_eq!(
                        meeting_bin(x, element, biased as usize),
                        bin,
                        "{x:e} {element:?}"
                    );
                    assert_eq!(input_bin(-x, element), Some(-bin), "{x:e}");
                    assert_eq!(axis.cell(-x), usize::from(Region::of_bins(-bin, 0).x));
                    assert_eq!(axis.cell(x), usize::from(Region::of_bins(bin, 0).x));
                    checked += 1;
                };
                let marks: Vec<u64> = edges
                    .edges
                    .into_iter()
                    .filter(|edge| *edge != u64::MAX)
                    .chain([0, FRACTION_BITS])
                    .collect();
                // Float values: 2^29 units of the fraction apart.
                for float in 0..1u64 << 23 {
                    let fraction = float << 29;
                    let near = marks.iter().any(|mark| fraction.abs_diff(*mark) < 1 << 45);
                    if near || float % 61 == 0 {
                        check(fraction);
                    }
                }
                for mark in &marks {
                    for border in [EDGE_GUARD, EDGE_GUARD + 1] {
                        for side in [mark.wrapping_sub(border), mark.wrapping_add(border)] {
                            for offset in 0..64 {
                                let fraction = side.wrapping_add(offset).wrapping_sub(32);
                                if fraction <= FRACTION_BITS {
                                    check(fraction);
                                }
                            }
                        }
                    }
                    // The zone where the arithmetic's bin may flicker, and past it.
                    for step in -4096i64..=4096 {
                        let fraction = mark.wrapping_add_signed(step << 10);
                        if fraction <= FRACTION_BITS {
                            check(fraction);
                        }
                    }
                }
                for _ in 0..4096 {
                    let fraction = next() & FRACTION_BITS;
                    slow += u64::from(
                        marks
                            .iter()
                            .any(|mark| fraction.abs_diff(*mark) <= EDGE_GUARD),
                    );
                    check(fraction);
                }
            }
            assert!(
                meeting > 30,
                "{element:?}: {meeting} binades where bins meet"
            );
        }
        // Random fractions take the arithmetic about once in 2^14.
        assert!(slow * 1000 < checked, "{slow} of {checked}");
    }

    /// The counters that [`CorrectlyRoundedInputs::record_decided`] reuses go back zeroed,
    /// NaN arguments' (off the grid) and undecided inputs' included, for one argument and two.
    #[test]
    fn decided_counters_go_back_zeroed() {
        let element = FloatType::Float;
        let column: Vec<f64> = (0..1000)
            .map(|i| match i % 9 {
                0 => f64::NAN,
                1 => f64::INFINITY,
                2 => 0.0,
                _ => f64::from(i as u32) * 1.7e-3 - 0.5,
            })
            .collect();
        let other: Vec<f64> = column.iter().rev().copied().collect();
        let decided: Vec<u8> = (0..1000).map(|i| (i % 3) as u8).collect();
        for columns in [vec![column.clone()], vec![column, other]] {
            let mut classes = [
                CorrectlyRoundedInputs::counted_at(0.5),
                CorrectlyRoundedInputs::counted_at(0.0),
            ];
            CorrectlyRoundedInputs::record_decided(
                &mut classes,
                &columns,
                0..1000,
                &decided,
                |position| position as u64,
                element,
            );
            assert!(classes.iter().all(|class| !class.cells.is_empty()));
            let buffer = COUNTS.take();
            assert!(!buffer.is_empty() && buffer.iter().all(|count| *count == 0));
            COUNTS.set(buffer);
        }
    }

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

    #[test]
    fn ranges_longer_than_a_part_count_every_input() {
        // Three parts' worth, most of it in one cell (more than a counter of one part holds),
        // the rest spread over others, on one and on two arguments, from a position past 0.
        let length = 3 * PART + 1000;
        let start = 5;
        let element = FloatType::Float;
        let value = |i: usize| {
            if i.is_multiple_of(5) {
                (i % 97) as f64 - 48.5
            } else {
                1.5
            }
        };
        let x: Vec<f64> = (0..length).map(value).collect();
        let y: Vec<f64> = (0..length).map(|i| value(i / 3)).collect();
        let decided: Vec<u8> = (start..length).map(|i| u8::from(i % 7 != 3)).collect();
        let axis = AxisCells::of(element);
        for columns in [vec![x.clone()], vec![x, y]] {
            let mut expected = BTreeMap::new();
            for (i, class) in (start..length).zip(&decided) {
                if *class == 1 {
                    let row = columns
                        .get(1)
                        .map_or(usize::from(ZERO_ROW), |y| axis.cell(y[i]));
                    *expected
                        .entry((row, axis.cell(columns[0][i])))
                        .or_insert(0u64) += 1;
                }
            }
            assert!(expected.values().any(|count| *count > PART as u64));
            let mut classes = [CorrectlyRoundedInputs::counted_at(0.0)];
            CorrectlyRoundedInputs::record_decided(
                &mut classes,
                &columns,
                start..length,
                &decided,
                |position| position as u64 + 100,
                element,
            );
            let mut counted = BTreeMap::new();
            for (row, cell, count) in &classes[0].cells {
                *counted
                    .entry((usize::from(*row), usize::from(*cell)))
                    .or_insert(0u64) += count;
            }
            assert_eq!(counted, expected, "{} arguments", columns.len());
            assert_eq!(classes[0].count, expected.values().sum::<u64>());
            assert_eq!(classes[0].first_index, Some(start as u64 + 100));
        }
    }
}
