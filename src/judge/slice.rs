//! Judging a slice of a sweep's inputs in bulk, for every row (width) of a unit at once: the
//! one call [`SliceJudge::judge`] takes the argument columns and each row's result columns
//! and gives each row's statistics, exactly as judging each input alone
//! ([`Rules::judge`]) would. The rows' fast tiers are found once ([`SliceJudge::new`]); per
//! slice, the column tiers ([`ColumnTiers`]) and scalar tiers compute a column of correctly
//! rounded (or exact) values, the inputs whose results equal it are decided in vectorized
//! passes, and the rest one by one: the fast tiers first, MPFR only where no tier decides.
//! The caller (`run`) moves buffers and spreads slices over threads; it decides nothing.

use crate::judge::{ColumnTiers, FastReference, KnownColumnsVerdict, RemquoColumnVerdict, Rules};
use crate::num::fp::FloatType;
use crate::reference::exact::{ExactColumn, ExactColumnFn};
use crate::reference::FastFn;
use crate::report::stats::{
    input_region, Case, CorrectlyRoundedInputs, FastVerdict, RowStats, UnitStats,
    BOUND_OF_CORRECTLY_ROUNDED,
};
use crate::spec::registry::Function;

/// One output's results of one row over a batch, as the device wrote them: a slice's
/// results are decoded when it is judged ([`SliceJudge::judge`]).
pub trait ResultColumn: Sync {
    /// The values at batch positions `positions`, as doubles.
    fn decoded(&self, positions: std::ops::Range<usize>) -> Vec<f64>;

    /// Whether `other` holds the same bits at `positions` (then its row, under the same
    /// rules, gets the same verdicts).
    fn same_bits(&self, other: &Self, positions: std::ops::Range<usize>) -> bool;
}

/// Which inputs of the plan the positions of a batch's columns hold: segment `s` (positions
/// `s * length ..`, `length` being `2^shift`) holds the inputs from `starts[s]` on. Chunks
/// grow, so positions and input indices are in the same order.
#[derive(Clone, Debug)]
pub struct Segments {
    starts: Vec<u64>,
    /// A power of two, so that [`Segments::index`] shifts and masks: it runs on every input
    /// judged one by one, where a division took 15% of the per-input loop's time.
    shift: u32,
}

impl Segments {
    /// One run of inputs from `start` on (a segment longer than any batch).
    pub fn one(start: u64) -> Segments {
        Segments {
            starts: vec![start],
            shift: usize::BITS - 1,
        }
    }

    /// Segments of `length` positions each (a power of two), from `starts`.
    pub fn of_chunks(starts: Vec<u64>, length: usize) -> Segments {
        assert!(length.is_power_of_two(), "segments of {length} positions");
        Segments {
            starts,
            shift: length.trailing_zeros(),
        }
    }

    /// Where each segment's inputs start.
    pub fn starts(&self) -> &[u64] {
        &self.starts
    }

    /// Positions per segment.
    pub fn length(&self) -> usize {
        1 << self.shift
    }

    /// The input index at `position`.
    #[inline]
    fn index(&self, position: usize) -> u64 {
        self.starts[position >> self.shift] + (position & (self.length() - 1)) as u64
    }

    /// The position of input `index` (one the segments hold).
    pub fn position(&self, index: u64) -> usize {
        let segment = self.starts.partition_point(|start| *start <= index) - 1;
        segment * self.length() + (index - self.starts[segment]) as usize
    }
}

/// One row's verdict on one input, kept for the next row (the case boxed: it is moved from
/// row to row on every input, and is rare).
enum Judged {
    Fast(FastVerdict),
    Exact(Box<Case>),
}

/// The most inputs a judging slice of a one-row unit holds. Its columns (inputs, results,
/// references and classes: about 25 bytes an input for one argument) then stay in a core's
/// 1 MiB L2 cache between the passes over them: exhaustive float sin, shard 0/16, took 1.49
/// against 1.56 s. A unit of several rows keeps the longer slices: their tallies merge row by
/// row, slice by slice, and slices this short made every float function's run (six widths)
/// 2.5% slower.
const ONE_ROW_SLICE_INPUTS: usize = 16384;

/// A batch's rows judged slice by slice: row `r` holds `rules[r]`. Each input's fast
/// reference and MPFR references are computed at most once, when the first row needs them,
/// and every row is judged against them exactly as it would be alone. Slices merge in any
/// grouping ([`RowStats`] merges associatively), so the caller may spread them over threads.
/// A unit of one width is one row.
pub struct SliceJudge<'a> {
    rules: &'a [&'a Rules],
    function: &'a Function,
    /// `same_rules[row][earlier]`: whether row `row`'s rules are row `earlier`'s.
    same_rules: Vec<Vec<bool>>,
    correctly_rounded_fns: Vec<Option<FastFn>>,
    column_tiers: Vec<Option<ColumnTiers>>,
    correctly_rounded_fns_per_output: Vec<Option<Vec<(usize, FastFn)>>>,
    exact_fns: Vec<Option<Vec<(ExactColumnFn, bool)>>>,
    declined_fns: Vec<Option<FastFn>>,
    known_columns_verdicts: Vec<Option<KnownColumnsVerdict<'a>>>,
    remquo_verdicts: Vec<Option<RemquoColumnVerdict>>,
    nan_passes: Vec<bool>,
    finite_arguments: Vec<bool>,
    element: FloatType,
}

impl<'a> SliceJudge<'a> {
    /// The rows' tiers, found once for a batch (or a unit).
    pub fn new(rules: &'a [&'a Rules], function: &'a Function) -> SliceJudge<'a> {
        // A row whose rules are an earlier row's and whose results are the same bits gets the
        // same verdict: widths mostly agree, so most inputs are judged once, not once per width.
        // `same_rules[row][earlier]` says whether row `row`'s rules are row `earlier`'s.
        let same_rules: Vec<Vec<bool>> = rules
            .iter()
            .map(|mine| rules.iter().map(|theirs| mine == theirs).collect())
            .collect();
        // Where a row's fast tier first compares its result with the correctly rounded one, a
        // column of those is computed once per slice and shared by the rows (one function, one
        // type): most results equal it, and are then decided by one comparison.
        let correctly_rounded_fns: Vec<_> = rules
            .iter()
            .map(|rules| rules.correctly_rounded_fn())
            .collect();
        // And that column many lanes at a time, where the function has a column tier (float
        // sin), whose double column is also the reference of the per-input verdicts, computed for
        // a slice's undecided inputs at once.
        let column_tiers: Vec<_> = rules.iter().map(|rules| rules.column_tiers()).collect();
        // And for a function of several outputs (sincos), a column per output.
        let correctly_rounded_fns_per_output: Vec<_> = rules
            .iter()
            .map(|rules| rules.correctly_rounded_fns())
            .collect();
        // Where instead every row has an exact tier, the inputs whose every result is the exact
        // one are decided the same way, each exact result computed once, a column at a time.
        let exact_fns: Vec<_> = rules.iter().map(|rules| rules.exact_columns()).collect();
        // And where the exact tier declines an input, the correctly rounded value decides it the
        // same way, where the rows have one.
        let declined_fns: Vec<_> = rules
            .iter()
            .map(|rules| rules.correctly_rounded_fn_where_exact_declines())
            .collect();
        // And each row's verdict with its rule and tiers found once, for the inputs whose values
        // in both columns are known.
        let known_columns_verdicts: Vec<_> = rules
            .iter()
            .map(|rules| rules.known_columns_verdict())
            .collect();
        // And float remquo's rows, whose passes its exact columns decide.
        let remquo_verdicts: Vec<_> = rules
            .iter()
            .map(|rules| rules.remquo_column_verdict())
            .collect();
        // Where a NaN result beside a NaN in that column is the fast tier's pass at 0.
        let nan_passes: Vec<bool> = rules
            .iter()
            .map(|rules| rules.correctly_rounded_nan_passes())
            .collect();
        // Where a row decides in bulk only inputs of finite arguments (finite math).
        let finite_arguments: Vec<bool> = rules
            .iter()
            .map(|rules| rules.bulk_needs_finite_arguments())
            .collect();
        // The rows share one element type.
        let element = rules
            .first()
            .map_or(FloatType::Float, |rules| rules.element);
        SliceJudge {
            rules,
            function,
            same_rules,
            correctly_rounded_fns,
            column_tiers,
            correctly_rounded_fns_per_output,
            exact_fns,
            declined_fns,
            known_columns_verdicts,
            remquo_verdicts,
            nan_passes,
            finite_arguments,
            element,
        }
    }

    /// The most inputs a slice should hold ([`ONE_ROW_SLICE_INPUTS`] for one row).
    pub fn longest_slice(&self) -> usize {
        if self.rules.len() == 1 {
            ONE_ROW_SLICE_INPUTS
        } else {
            usize::MAX
        }
    }

    /// Judges batch positions `inputs` (`segments` says which inputs of the plan they hold;
    /// `columns` are the batch's arguments, `device_results[r]` row `r`'s result columns)
    /// for every row.
    pub fn judge<R: ResultColumn>(
        &self,
        segments: &Segments,
        columns: &[Vec<f64>],
        device_results: &[Vec<R>],
        inputs: std::ops::Range<usize>,
    ) -> RowStats {
        let SliceJudge {
            rules,
            function,
            same_rules,
            correctly_rounded_fns,
            column_tiers,
            correctly_rounded_fns_per_output,
            exact_fns,
            declined_fns,
            known_columns_verdicts,
            remquo_verdicts,
            nan_passes,
            finite_arguments,
            element,
        } = self;
        let (function, element) = (*function, *element);
        // Where a row repeats an earlier row on the whole slice (the usual case: the widths of
        // a device's function agree), its tally is a copy of the first such row's, which is
        // judged (a row repeated by another is repeated by what that one repeats): it is not
        // judged input by input. Not only the predecessor: half_rsqrt and half_recip give
        // the same bits at widths 1 and 16 on every input, other ones at widths 2 to 8.
        let copy_of: Vec<Option<usize>> = (0..rules.len())
            .map(|row| {
                (0..row).find(|earlier| {
                    same_rules[row][*earlier]
                        && device_results[row]
                            .iter()
                            .zip(&device_results[*earlier])
                            .all(|(mine, theirs)| mine.same_bits(theirs, inputs.clone()))
                })
            })
            .collect();
        let judged_rows: Vec<usize> = (0..rules.len())
            .filter(|row| copy_of[*row].is_none())
            .collect();
        // The judged rows' results on the slice, per row and output (`[row][output][k]`, `k`
        // counted from the slice's first input; none for a copied row).
        let slice_results: Vec<Vec<Vec<f64>>> = (0..rules.len())
            .map(|row| {
                if copy_of[row].is_some() {
                    Vec::new()
                } else {
                    device_results[row]
                        .iter()
                        .map(|output| output.decoded(inputs.clone()))
                        .collect()
                }
            })
            .collect();
        let correctly_rounded = judged_rows.iter().find_map(|row| {
            let correctly_rounded = correctly_rounded_fns[*row]?;
            let in_bulk = column_tiers[*row].and_then(|tiers| {
                let arguments: Vec<&[f64]> = columns
                    .iter()
                    .map(|column| &column[inputs.clone()])
                    .collect();
                tiers.floats(&arguments)
            });
            Some(in_bulk.unwrap_or_else(|| column_of(columns, &inputs, correctly_rounded)))
        });
        // Inputs the column decides alone: where every judged row has the column, an input
        // whose every result equals it (and is finite) is correctly rounded in every row.
        let column_decides = judged_rows
            .iter()
            .all(|row| correctly_rounded_fns[*row].is_some());
        let exact = judged_rows
            .first()
            .and_then(|first| exact_fns[*first].as_deref())
            .filter(|_| judged_rows.iter().all(|row| exact_fns[*row].is_some()));
        let declined = judged_rows
            .first()
            .and_then(|first| declined_fns[*first])
            .filter(|_| judged_rows.iter().all(|row| declined_fns[*row].is_some()));
        let results: Vec<&[f64]> = judged_rows
            .iter()
            .map(|row| slice_results[*row][0].as_slice())
            .collect();
        // Per output, its correctly rounded column, where every judged row has them.
        let correctly_rounded_per_output: Option<Vec<(usize, Vec<f64>)>> = judged_rows
            .first()
            .and_then(|first| correctly_rounded_fns_per_output[*first].as_deref())
            .filter(|_| {
                judged_rows
                    .iter()
                    .all(|row| correctly_rounded_fns_per_output[*row].is_some())
            })
            .map(|fns| {
                fns.iter()
                    .map(|(output, correctly_rounded)| {
                        (*output, column_of(columns, &inputs, correctly_rounded))
                    })
                    .collect()
            });
        // The exact tier's value of every input, one column per output, where it decides in
        // bulk (a function with an exact tier has no correctly rounded column): the per-input
        // verdicts below reuse a one-output function's.
        let exact_values: Vec<ExactColumn> = exact
            .map(|exact| {
                let arguments: Vec<&[f64]> = columns
                    .iter()
                    .map(|column| &column[inputs.clone()])
                    .collect();
                exact
                    .iter()
                    .map(|(column, _)| {
                        let mut values = ExactColumn::default();
                        column(&arguments, element, &mut values);
                        values
                    })
                    .collect()
            })
            .unwrap_or_default();
        // The inputs decided in bulk, by class, and the error each class counts as (class c in
        // `bulk[c - 1]`, 0 undecided): correctly rounded results at their bound; NaN where
        // the correctly rounded result is NaN (outside the function's range: rsqrt or log of a
        // negative number, a NaN argument), which the fast tier passes with no error where it
        // is a correctly rounded double, and poles, which it passes with no error too; the
        // correctly rounded overflows, with no error; exact results at 0, and where the exact
        // tier declines, correctly rounded results at their bound.
        let nan_passes = judged_rows.iter().all(|row| nan_passes[*row]);
        // Under finite math the classes decided hold finite results only (no NaN passes, no
        // infinity verdict, an exact table value finite); they also need finite arguments.
        let finite_only = judged_rows.iter().any(|row| finite_arguments[*row]);
        let (classes, mut bulk): (Vec<u8>, Vec<CorrectlyRoundedInputs>) =
            match (&correctly_rounded, exact) {
                (Some(correct), _) if column_decides => (
                    classify_finite_first(
                        function,
                        columns,
                        &inputs,
                        correct,
                        &results,
                        nan_passes,
                        |k| {
                            let correct = correct[k];
                            if results.iter().all(|column| column[k] == correct) {
                                // An overflow, where the fast verdict's overflow decides it, or a
                                // pole, which it passes with no error (for every row alike:
                                // `Rules::infinity_verdict`).
                                let mut buffer = [0.0; MAX_ARGUMENTS];
                                let first = rules[judged_rows[0]];
                                let decided = input_in(columns, inputs.start + k, &mut buffer)
                                    .and_then(|args| first.infinity_verdict(args, correct));
                                match decided {
                                    Some(FastVerdict::Pass(_)) => 2,
                                    Some(_) => 3,
                                    None => 0,
                                }
                            } else {
                                0
                            }
                        },
                    ),
                    vec![
                        CorrectlyRoundedInputs::counted_at(BOUND_OF_CORRECTLY_ROUNDED),
                        CorrectlyRoundedInputs::counted_at(0.0),
                        CorrectlyRoundedInputs::counted_at(f64::NEG_INFINITY),
                    ],
                ),
                (_, Some(exact)) => (
                    classify_exact(
                        function,
                        columns,
                        &inputs,
                        &exact_values
                            .iter()
                            .zip(exact)
                            .enumerate()
                            .map(|(output, (values, (_, integer)))| {
                                let results: Vec<&[f64]> = judged_rows
                                    .iter()
                                    .map(|row| slice_results[*row][output].as_slice())
                                    .collect();
                                (values, *integer, results)
                            })
                            .collect::<Vec<_>>(),
                        finite_only,
                        |k| match (declined, exact_values.len()) {
                            // Where the exact tier declines, a one-output function's correctly
                            // rounded value decides as a correctly rounded column does.
                            (Some(correctly_rounded), 1) => {
                                let mut buffer = [0.0; MAX_ARGUMENTS];
                                let all_correct = input_in(columns, inputs.start + k, &mut buffer)
                                    .map(correctly_rounded)
                                    .is_some_and(|correct| {
                                        correct.is_finite()
                                            && results.iter().all(|column| column[k] == correct)
                                    });
                                if all_correct {
                                    2
                                } else {
                                    0
                                }
                            }
                            _ => 0,
                        },
                    ),
                    vec![
                        CorrectlyRoundedInputs::counted_at(0.0),
                        CorrectlyRoundedInputs::counted_at(BOUND_OF_CORRECTLY_ROUNDED),
                    ],
                ),
                _ => match &correctly_rounded_per_output {
                    // Every output of every row its correctly rounded value.
                    Some(per_output) => (
                        classify(function, columns, &inputs, |k| {
                            u8::from(per_output.iter().all(|(output, correct)| {
                                let (output, correct) = (*output, correct[k]);
                                correct.is_finite()
                                    && judged_rows
                                        .iter()
                                        .all(|row| slice_results[*row][output][k] == correct)
                            }))
                        }),
                        vec![CorrectlyRoundedInputs::counted_at(
                            BOUND_OF_CORRECTLY_ROUNDED,
                        )],
                    ),
                    None => match judged_rows
                        .iter()
                        .map(|row| remquo_verdicts[*row])
                        .collect::<Option<Vec<_>>>()
                    {
                        // Float remquo: every row's results pass its rule against the
                        // column's exact remainder and quotient bits, with no error.
                        Some(verdicts) if !verdicts.is_empty() && columns.len() == 2 => {
                            let (mut remainders, mut low_bits) = (Vec::new(), Vec::new());
                            let (x, y) = (&columns[0][inputs.clone()], &columns[1][inputs.clone()]);
                            crate::reference::remquo_column::remquof(
                                x,
                                y,
                                &mut remainders,
                                &mut low_bits,
                            );
                            (
                                classify(function, columns, &inputs, |k| {
                                    u8::from(judged_rows.iter().zip(&verdicts).all(
                                        |(row, verdict)| {
                                            verdict.passes(
                                                (x[k], y[k]),
                                                remainders[k],
                                                low_bits[k],
                                                slice_results[*row][0][k],
                                                slice_results[*row][1][k],
                                            )
                                        },
                                    ))
                                }),
                                vec![CorrectlyRoundedInputs::counted_at(0.0)],
                            )
                        }
                        _ => (vec![0; inputs.len()], Vec::new()),
                    },
                },
            };
        let classes = if finite_only {
            finite_arguments_only(columns, &inputs, classes)
        } else {
            classes
        };
        // The tally's passes over bytes and doubles in the widest vectors: in SSE2 they were
        // 0.45 ns an input of an exhaustive sweep.
        crate::num::wide::widest(
            #[inline(always)]
            || {
                CorrectlyRoundedInputs::record_decided(
                    &mut bulk,
                    columns,
                    inputs.clone(),
                    &classes,
                    |position| segments.index(position),
                    element,
                )
            },
        );
        let mut tally = vec![UnitStats::default(); rules.len()];
        let mut args = vec![0.0; columns.len()];
        let mut results = Vec::new();
        let mut previous_results = Vec::new();
        let mut fast_reference = FastReference::new();
        // The undecided inputs (class 0): nearly every input of an exhaustive sweep is
        // decided in bulk.
        let undecided = zero_positions(&classes);
        // Their double tier, where the rows have it over a column: `cr_sin` was 7% of an
        // exhaustive float sin run's CPU, for the 4% of inputs the device did not round
        // correctly.
        let doubles = match judged_rows.first().and_then(|row| column_tiers[*row]) {
            Some(tiers) => {
                let undecided_arguments: Vec<Vec<f64>> = columns
                    .iter()
                    .map(|column| undecided.iter().map(|k| column[inputs.start + k]).collect())
                    .collect();
                let arguments: Vec<&[f64]> =
                    undecided_arguments.iter().map(Vec::as_slice).collect();
                tiers.doubles(&arguments).unwrap_or_default()
            }
            None => Vec::new(),
        };
        // One judged row whose verdict takes both columns' values (float sin and cos, where
        // the device's widths agree) is judged by a loop of its own, without the rows'
        // bookkeeping below: that loop took two thirds of an exhaustive float sin run's
        // per-input time.
        let known_columns = match (judged_rows.as_slice(), &correctly_rounded) {
            ([row], Some(correct))
                if columns.len() <= MAX_ARGUMENTS
                    && doubles.len() == undecided.len()
                    && exact_values.is_empty()
                    && slice_results[*row].len() == 1 =>
            {
                known_columns_verdicts[*row].map(|verdict| KnownColumns {
                    verdict,
                    columns,
                    correct,
                    doubles: &doubles,
                    results: &slice_results[*row][0],
                    row: *row,
                })
            }
            _ => None,
        };
        if let Some(known) = known_columns {
            let row = known.row;
            known.judge(
                rules[row],
                function,
                &mut tally[row],
                &undecided,
                |k| segments.index(inputs.start + k),
                inputs.start,
            );
        } else {
            for (number, &k) in undecided.iter().enumerate() {
                let i = inputs.start + k;
                let index = segments.index(i);
                read_input(columns, i, &mut args);
                if !function.in_domain(&args) {
                    for row in &judged_rows {
                        tally[*row].undefined += 1;
                    }
                    continue;
                }
                let region = input_region(&args[..args.len().min(2)], element);
                // The column's correctly rounded result, where the rows have one.
                let column_value = correctly_rounded
                    .as_ref()
                    .map(|column| column[i - inputs.start]);
                // The same, where a result equal to it is correctly rounded outright: finite, and
                // under finite math only for finite arguments.
                let correct = column_value.filter(|correct| {
                    correct.is_finite() && (!finite_only || args.iter().all(|x| x.is_finite()))
                });
                match (exact_values.as_slice(), column_value) {
                    ([one], _) => fast_reference.clear_knowing_exact(one.value(i - inputs.start)),
                    (_, Some(value)) => fast_reference.clear_knowing_correctly_rounded(value),
                    (_, None) => fast_reference.clear(),
                }
                let double = doubles.get(number).copied();
                if let Some(double) = double {
                    fast_reference.know_double(double);
                }
                let mut exact_references = None;
                let mut previous: Option<Judged> = None;
                for (position, &row) in judged_rows.iter().enumerate() {
                    let rules = rules[row];
                    let stats = &mut tally[row];
                    results.clear();
                    results.extend(slice_results[row].iter().map(|output| output[k]));
                    // Repeating the last judged row's results under its rules, this row has its
                    // verdict.
                    let repeats = position > 0
                        && same_rules[row][judged_rows[position - 1]]
                        && results
                            .iter()
                            .zip(&previous_results)
                            .all(|(mine, theirs): (&f64, &f64)| mine.to_bits() == theirs.to_bits());
                    let matches_column = correctly_rounded_fns[row].is_some()
                        && correct.is_some_and(|correct| results[0] == correct);
                    let judged = match previous.take() {
                        Some(judged) if repeats => judged,
                        _ if matches_column => Judged::Fast(FastVerdict::CorrectlyRounded),
                        _ => match match (known_columns_verdicts[row], column_value, double) {
                            (Some(known), Some(correct), Some(double)) => {
                                known.verdict(&args, correct, double, results[0])
                            }
                            _ => rules.fast_verdict_with(&mut fast_reference, &args, &results),
                        } {
                            Some(verdict) => Judged::Fast(verdict),
                            None => {
                                let references = exact_references
                                    .get_or_insert_with(|| rules.exact_references(&args));
                                Judged::Exact(Box::new(
                                    rules.judge_exactly_with(index, &args, &results, references),
                                ))
                            }
                        },
                    };
                    // Kept only where the next judged row may repeat it: a unit of one width never
                    // copies a case.
                    let next_may_repeat = judged_rows
                        .get(position + 1)
                        .is_some_and(|next| same_rules[*next][row]);
                    match judged {
                        Judged::Fast(verdict) => {
                            stats.record_fast(verdict, index, region, || {
                                rules.judge(index, &args, &results)
                            });
                            previous = next_may_repeat.then_some(Judged::Fast(verdict));
                        }
                        Judged::Exact(case) => {
                            stats.record_region(region, &case);
                            previous = next_may_repeat.then(|| Judged::Exact(case.clone()));
                            stats.record(*case);
                        }
                    }
                    std::mem::swap(&mut results, &mut previous_results);
                }
            }
        }
        for &row in &judged_rows {
            for bulk in &bulk {
                if bulk.counts_overflows() {
                    // No rule under finite math, where no overflow is decided in bulk.
                    match rules[row].overflow_of_rule() {
                        Some(verdict) => tally[row].add_overflowed(bulk, verdict),
                        None => assert!(bulk.is_empty(), "overflows decided without a rule"),
                    }
                    continue;
                }
                tally[row].add_correctly_rounded(bulk, |index| {
                    let i = segments.position(index);
                    let args: Vec<f64> = columns.iter().map(|column| column[i]).collect();
                    let results: Vec<f64> = slice_results[row]
                        .iter()
                        .map(|output| output[i - inputs.start])
                        .collect();
                    rules[row].judge(index, &args, &results)
                });
            }
        }
        let mut rows = RowStats::default();
        for (stats, copied) in tally.into_iter().zip(copy_of) {
            match copied {
                Some(earlier) => rows.push_copy_of(earlier),
                None => rows.push(stats),
            }
        }
        rows
    }
}

/// The undecided inputs of a slice that one row judges, whose correctly rounded float and
/// double the sweep's columns hold (`correct` over the slice, `doubles` per undecided input),
/// with the row's [`KnownColumnsVerdict`]: [`SliceJudge::judge`]'s per-input loop for that case.
struct KnownColumns<'a> {
    verdict: KnownColumnsVerdict<'a>,
    /// The argument columns of the whole batch (at most [`MAX_ARGUMENTS`]).
    columns: &'a [Vec<f64>],
    correct: &'a [f64],
    doubles: &'a [f64],
    results: &'a [f64],
    row: usize,
}

impl KnownColumns<'_> {
    /// Judges the slice's `undecided` inputs (counted from the slice's first, at batch
    /// position `start`; `index_of` gives their input indices) into `stats`, each as
    /// `SliceJudge::judge`'s loop over rows judges an input of one row: out of the function's domain
    /// undefined, else the fast verdict, or MPFR's where it gives none.
    fn judge(
        &self,
        rules: &Rules,
        function: &Function,
        stats: &mut UnitStats,
        undecided: &[usize],
        index_of: impl Fn(usize) -> u64,
        start: usize,
    ) {
        let element = rules.element;
        let mut buffer = [0.0; MAX_ARGUMENTS];
        let args = &mut buffer[..self.columns.len()];
        for (&k, &double) in undecided.iter().zip(self.doubles) {
            read_input(self.columns, start + k, args);
            let args = &*args;
            if !function.in_domain(args) {
                stats.undefined += 1;
                continue;
            }
            let region = input_region(&args[..args.len().min(2)], element);
            let index = index_of(k);
            let device_results = [self.results[k]];
            match self
                .verdict
                .verdict(args, self.correct[k], double, device_results[0])
            {
                Some(verdict) => stats.record_fast(verdict, index, region, || {
                    rules.judge(index, args, &device_results)
                }),
                None => {
                    let references = rules.exact_references(args);
                    let case = rules.judge_exactly_with(index, args, &device_results, &references);
                    stats.record_region(region, &case);
                    stats.record(case);
                }
            }
        }
    }
}

/// Per input of `inputs`, its class `class_of(k)` (`k` counts from the first) where the input
/// is in the function's domain, else 0 (undecided: the per-input loop counts it undefined).
fn classify(
    function: &Function,
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    class_of: impl Fn(usize) -> u8,
) -> Vec<u8> {
    in_domain_only(
        function,
        columns,
        inputs,
        (0..inputs.len()).map(class_of).collect(),
    )
}

/// [`classify`] where the exact tier decides, per output `(values, integer, results)` its
/// exact values, whether it is an integer and the judged rows' results: class 1 where every
/// result matches its exact value ([`crate::judge::exact_output_matches`], the per-input
/// verdict's rule) and, where `finite_only`, a table output's value is finite;
/// `class_of_declined(k)` where the host declines an output's value. In vectorized passes, one
/// per output and row ([`and_exact_matches`]), and a step per declined input: input by input,
/// through a closure and an `Option` per value, this was a third of float fabs's judging.
fn classify_exact(
    function: &Function,
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    outputs: &[(&ExactColumn, bool, Vec<&[f64]>)],
    finite_only: bool,
    class_of_declined: impl Fn(usize) -> u8,
) -> Vec<u8> {
    let mut classes = vec![1; inputs.len()];
    for (exact, integer, results) in outputs {
        for result in results {
            match (*integer, finite_only) {
                (true, _) => and_exact_matches::<true, false>(&mut classes, &exact.values, result),
                (false, true) => {
                    and_exact_matches::<false, true>(&mut classes, &exact.values, result)
                }
                (false, false) => {
                    and_exact_matches::<false, false>(&mut classes, &exact.values, result)
                }
            }
        }
    }
    for (exact, ..) in outputs {
        for k in exact.declined_positions() {
            classes[k] = class_of_declined(k);
        }
    }
    in_domain_only(function, columns, inputs, classes)
}

/// `classes[k]` made 0 where `result[k]` does not match the exact value `values[k]` of an
/// output that is an integer where `INTEGER` ([`crate::judge::exact_output_matches`]), or
/// where `FINITE` and the value is not finite; in the widest vectors this CPU has.
fn and_exact_matches<const INTEGER: bool, const FINITE: bool>(
    classes: &mut [u8],
    values: &[f64],
    result: &[f64],
) {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            for ((class, value), result) in classes.iter_mut().zip(values).zip(result) {
                let matches = crate::judge::exact_output_matches(*result, *value, INTEGER)
                    & (!FINITE | value.is_finite());
                *class &= u8::from(matches);
            }
        },
    )
}

/// [`classify`] where the correctly rounded column `correct` decides: class 1 where it is
/// finite and every column of `results` equals it; where it is NaN, 2 if `nan_passes` and
/// every result is NaN, else 0; `class_of_infinite(k)` where it is infinite. The finite inputs
/// (nearly all) are classed in one vectorized pass with the first column of results
/// ([`finite_and_equal`]): input by input, with a loop over the rows inside, this was 11% of an
/// exhaustive float sin run's CPU, and as three passes (finite, blocks with a value that is
/// not, equal) 0.6 ns an input. The NaNs are classed in vectorized passes too, and only the
/// infinities one by one: a random sweep of pow or fma has a NaN or infinite value at a
/// quarter of its inputs and more, at random, where a branch on each input was a fifth of the
/// judging threads' samples.
fn classify_finite_first(
    function: &Function,
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    correct: &[f64],
    results: &[&[f64]],
    nan_passes: bool,
    class_of_infinite: impl Fn(usize) -> u8,
) -> Vec<u8> {
    let mut classes = vec![0; correct.len()];
    let any_not_finite = match results.first() {
        Some(first) => finite_and_equal(correct, first, &mut classes),
        None => finite_and_equal(correct, correct, &mut classes),
    };
    for column in results.iter().skip(1) {
        for ((class, result), correct) in classes.iter_mut().zip(*column).zip(correct) {
            *class &= u8::from(result == correct);
        }
    }
    // Few slices of an exhaustive sweep hold a value that is not finite.
    if any_not_finite {
        if nan_passes {
            nan_results_pass(correct, results, &mut classes);
        }
        for k in infinite_positions(correct) {
            classes[k] = class_of_infinite(k);
        }
    }
    in_domain_only(function, columns, inputs, classes)
}

/// Class 2 where `correct` is NaN and every column of `results` (the column itself where there
/// are none) is NaN too, in the widest vectors; the other classes as they were (a NaN's is 0,
/// from [`finite_and_equal`]).
fn nan_results_pass(correct: &[f64], results: &[&[f64]], classes: &mut [u8]) {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            let first = results.first().copied().unwrap_or(correct);
            for ((class, correct), result) in classes.iter_mut().zip(correct).zip(first) {
                *class = if correct.is_nan() & result.is_nan() {
                    2
                } else {
                    *class
                };
            }
            for column in results.iter().skip(1) {
                for ((class, correct), result) in classes.iter_mut().zip(correct).zip(*column) {
                    *class = if correct.is_nan() & !result.is_nan() {
                        0
                    } else {
                        *class
                    };
                }
            }
        },
    )
}

/// The positions of the infinities of `values`, in order: a mask of each 64 values in the
/// widest vectors, then one step per infinity.
fn infinite_positions(values: &[f64]) -> Vec<usize> {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            let mut positions = Vec::new();
            for (number, chunk) in values.chunks(64).enumerate() {
                let infinities = chunk.iter().enumerate().fold(0u64, |mask, (bit, value)| {
                    mask | (u64::from(value.is_infinite()) << bit)
                });
                push_positions(&mut positions, number * 64, infinities);
            }
            positions
        },
    )
}

/// `classes[k]` 1 where `correct[k]` is finite and `result[k]` equals it, else 0, in the
/// widest vectors this CPU has: for the baseline's SSE2 the compiler narrows each comparison
/// to a byte in several shuffles, 0.5 ns an input of an exhaustive sweep, where AVX-512
/// stores the comparison's mask. Returns whether a value of `correct` is not finite (in the
/// same pass: a second one, in SSE2, took 2% of an exhaustive float sin run's CPU).
fn finite_and_equal(correct: &[f64], result: &[f64], classes: &mut [u8]) -> bool {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            let mut any_not_finite = false;
            for ((class, correct), result) in classes.iter_mut().zip(correct).zip(result) {
                let finite = correct.is_finite();
                any_not_finite |= !finite;
                *class = u8::from(finite & (result == correct));
            }
            any_not_finite
        },
    )
}

/// The positions of the zeros of `classes` (the undecided inputs), in order, 64 bytes at a
/// time in the widest vectors: a comparison's mask, then one step per zero. Nearly every input
/// of an exhaustive sweep is decided in bulk, but about one in 25 is not, so a byte search
/// (`memchr`) stopped every 25 bytes: 4.5 ns a zero, 1.7% of an exhaustive float sin run's CPU.
fn zero_positions(classes: &[u8]) -> Vec<usize> {
    crate::num::wide::widest(
        #[inline(always)]
        || {
            // About one zero in 25 bytes in an exhaustive sweep: room for that many and more.
            let mut positions = Vec::with_capacity(classes.len() / 16);
            let chunks = classes.chunks_exact(64);
            let tail = chunks.remainder();
            for (number, chunk) in chunks.enumerate() {
                push_positions(&mut positions, number * 64, zero_mask(chunk));
            }
            push_positions(&mut positions, classes.len() - tail.len(), zero_mask(tail));
            positions
        },
    )
}

/// `start + k` for each set bit `k` of `mask`, in order, one step a bit.
#[inline(always)]
fn push_positions(positions: &mut Vec<usize>, start: usize, mut mask: u64) {
    while mask != 0 {
        positions.push(start + mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

/// The mask of the zero bytes of `bytes` (at most 64; bit `k` for byte `k`). On x86-64 a whole
/// chunk takes four of SSE2's byte comparisons and `movemask`s (the baseline, so in every
/// copy [`crate::num::wide::widest`] makes): the compiler's own vectorization of the loop
/// below gathered the bits through shuffles and took twice as long.
#[inline(always)]
fn zero_mask(bytes: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Ok(chunk) = <&[u8; 64]>::try_from(bytes) {
        use std::arch::x86_64::{__m128i, _mm_setzero_si128};
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
        let mut mask = 0;
        for quarter in 0..4 {
            // SAFETY: SSE2 is part of the x86-64 baseline, and the load reads bytes
            // 16·quarter .. 16·quarter + 16 of the chunk's 64.
            let bits = unsafe {
                let sixteen = _mm_loadu_si128(chunk.as_ptr().add(16 * quarter).cast::<__m128i>());
                _mm_movemask_epi8(_mm_cmpeq_epi8(sixteen, _mm_setzero_si128()))
            };
            mask |= u64::from(bits as u16) << (16 * quarter);
        }
        return mask;
    }
    bytes
        .iter()
        .enumerate()
        .fold(0, |mask, (bit, byte)| mask | (u64::from(*byte == 0) << bit))
}

/// `classes` with the inputs that have an argument that is not finite made 0.
fn finite_arguments_only(
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    mut classes: Vec<u8>,
) -> Vec<u8> {
    for column in columns {
        for (class, x) in classes.iter_mut().zip(&column[inputs.clone()]) {
            *class = if x.is_finite() { *class } else { 0 };
        }
    }
    classes
}

/// `classes` with the inputs outside the function's domain made 0.
fn in_domain_only(
    function: &Function,
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    mut classes: Vec<u8>,
) -> Vec<u8> {
    if function.specified_everywhere() {
        return classes;
    }
    let mut args = vec![0.0; columns.len()];
    for (class, i) in classes.iter_mut().zip(inputs.clone()) {
        if *class != 0 {
            read_input(columns, i, &mut args);
            if !function.in_domain(&args) {
                *class = 0;
            }
        }
    }
    classes
}

/// `value(args)` of every input of `inputs`.
fn column_of<T>(
    columns: &[Vec<f64>],
    inputs: &std::ops::Range<usize>,
    value: impl Fn(&[f64]) -> T,
) -> Vec<T> {
    // Up to three arguments, each input's arguments an array read from the columns in step
    // (float fma: reading them through a buffer, a bounds check per column, took 3% of its
    // host samples, 2^24 inputs, every width).
    match columns {
        // One argument (every exhaustive float sweep): each input is its own slice.
        [x] => {
            return x[inputs.clone()]
                .iter()
                .map(|x| value(std::slice::from_ref(x)))
                .collect()
        }
        [x, y] => {
            return x[inputs.clone()]
                .iter()
                .zip(&y[inputs.clone()])
                .map(|(x, y)| value(&[*x, *y]))
                .collect()
        }
        [x, y, z] => {
            return x[inputs.clone()]
                .iter()
                .zip(&y[inputs.clone()])
                .zip(&z[inputs.clone()])
                .map(|((x, y), z)| value(&[*x, *y, *z]))
                .collect()
        }
        _ => {}
    }
    let mut args = vec![0.0; columns.len()];
    inputs
        .clone()
        .map(|i| {
            read_input(columns, i, &mut args);
            value(&args)
        })
        .collect()
}

/// The most arguments a function takes (fma, mad, smoothstep, mix, fclamp: 3).
const MAX_ARGUMENTS: usize = 3;

/// Input `i` of `columns` read into `buffer`, with no allocation (the bulk classes read one
/// per input they decide); `None` for a function of more arguments than it holds.
fn input_in<'a>(
    columns: &[Vec<f64>],
    i: usize,
    buffer: &'a mut [f64; MAX_ARGUMENTS],
) -> Option<&'a [f64]> {
    let args = buffer.get_mut(..columns.len())?;
    read_input(columns, i, args);
    Some(args)
}

/// Input `i` of argument columns `columns` into `args` (one per column).
fn read_input(columns: &[Vec<f64>], i: usize, args: &mut [f64]) {
    for (arg, column) in args.iter_mut().zip(columns) {
        *arg = column[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One function's argument columns: `values` alone (a one-argument function), or mix's
    /// `(1, 2, a)` as long as `values` with `a = 0.5` up to input 240 and `outside` past it
    /// (mix is specified for `a` in [0, 1]: inputs past 240 lie outside where `outside` does).
    fn arguments_of(values: &[f64], outside: Option<f64>) -> Vec<Vec<f64>> {
        let count = values.len();
        match outside {
            None => vec![values.to_vec()],
            Some(outside) => vec![
                vec![1.0; count],
                vec![2.0; count],
                (0..count)
                    .map(|k| if k < 240 { 0.5 } else { outside })
                    .collect(),
            ],
        }
    }

    /// The bulk classes of a correctly rounded column are, input by input: 1 where it is finite
    /// and every row's result equals it, else 0; a NaN's 2 where NaN passes and every result is
    /// NaN, else 0; the infinite inputs' own class (wherever they lie in their blocks); 0
    /// outside the function's domain.
    #[test]
    fn bulk_classes_follow_the_correctly_rounded_column_input_by_input() {
        let count = 300;
        let correct: Vec<f64> = (0..count)
            .map(|k| match k {
                3 | 64 => f64::NAN,
                70 => f64::INFINITY,
                199 => f64::NEG_INFINITY,
                _ => k as f64 / 8.0,
            })
            .collect();
        let mut first = correct.clone();
        let mut second = correct.clone();
        first[10] = 99.0;
        second[150] = -1.0;
        second[151] = f64::NAN;
        // Where a result is wrong at an infinity, its class says so (here by parity).
        first[70] = 0.0;
        let infinite_class = |k: usize| if k.is_multiple_of(2) { 5 } else { 6 };
        // NaNs pass where every result is NaN, and NaN passes.
        second[64] = 1.0;
        let results: [&[f64]; 2] = [&first, &second];
        for (name, outside_weight) in [("sin", None), ("mix", Some(1.5))] {
            for nan_passes in [false, true] {
                let function = crate::spec::registry::find(name).unwrap();
                let columns = arguments_of(&correct, outside_weight);
                let inputs = 0..count;
                let classes = classify_finite_first(
                    function,
                    &columns,
                    &inputs,
                    &correct,
                    &results,
                    nan_passes,
                    infinite_class,
                );
                let expected: Vec<u8> = inputs
                    .clone()
                    .map(|k| {
                        let all_equal = results.iter().all(|column| column[k] == correct[k]);
                        let all_nan = results.iter().all(|column| column[k].is_nan());
                        let class = if correct[k].is_nan() {
                            if nan_passes && all_nan {
                                2
                            } else {
                                0
                            }
                        } else if correct[k].is_infinite() {
                            infinite_class(k)
                        } else {
                            u8::from(all_equal)
                        };
                        if outside_weight.is_some() && k >= 240 {
                            0
                        } else {
                            class
                        }
                    })
                    .collect();
                assert_eq!(classes, expected, "{name} {nan_passes}");
                assert_eq!(classes[10..12], [0, 1], "{name}");
                let nan_class = if nan_passes { 2 } else { 0 };
                assert_eq!(
                    [classes[3], classes[64], classes[70], classes[199]],
                    [nan_class, 0, 5, 6],
                    "{name} {nan_passes}"
                );
            }
        }
    }

    /// The bulk classes of exact columns are, input by input, the per-input rule: 1 where every
    /// row's result of every output matches its exact value (`exact_output_matches`: NaN for
    /// NaN, zeros of either sign, an integer output's NaN unspecified) and a table output's
    /// value is finite where only finite ones count; the declined inputs' own class, wherever
    /// an output declines; 0 outside the function's domain.
    #[test]
    fn exact_classes_follow_the_exact_values_input_by_input() {
        let count = 300;
        let declined_at = |k: usize| k % 37 == 5;
        let value_at = |k: usize| match k % 10 {
            0 => f64::NAN,
            1 => 0.0,
            2 => -0.0,
            3 => f64::INFINITY,
            4 => f64::NEG_INFINITY,
            _ => k as f64 * 0.25,
        };
        let column = |declined_at: &dyn Fn(usize) -> bool| {
            let declined: Vec<bool> = (0..count).map(declined_at).collect();
            ExactColumn {
                values: (0..count)
                    .map(|k| if declined[k] { f64::NAN } else { value_at(k) })
                    .collect(),
                any_declined: declined.contains(&true),
                declined,
            }
        };
        let (first_output, second_output) = (column(&declined_at), column(&|k| k == 200));
        let values: Vec<f64> = (0..count).map(value_at).collect();
        let first: Vec<f64> = values
            .iter()
            .enumerate()
            .map(|(k, v)| match k {
                _ if k % 13 == 7 => v + 1.0,
                _ if k % 10 == 1 => -0.0,
                _ => *v,
            })
            .collect();
        let second: Vec<f64> = values
            .iter()
            .enumerate()
            .map(|(k, v)| match k {
                _ if k % 17 == 3 => f64::NAN,
                _ if k % 10 == 0 => f64::from_bits(0x7ff0_0000_0000_0abc),
                _ => *v,
            })
            .collect();
        let class_of_declined = |k: usize| if k.is_multiple_of(2) { 2 } else { 3 };
        for (name, outside_weight) in [("fabs", None), ("mix", Some(1.5))] {
            let function = crate::spec::registry::find(name).unwrap();
            let columns = arguments_of(&values, outside_weight);
            for integer in [false, true] {
                for finite_only in [false, true] {
                    for two_outputs in [false, true] {
                        let results = vec![first.as_slice(), second.as_slice()];
                        let mut outputs = vec![(&first_output, integer, results.clone())];
                        if two_outputs {
                            outputs.push((&second_output, false, results));
                        }
                        let classes = classify_exact(
                            function,
                            &columns,
                            &(0..count),
                            &outputs,
                            finite_only,
                            class_of_declined,
                        );
                        let expected: Vec<u8> = (0..count)
                            .map(|k| {
                                let matches = |(exact, integer, results): &(
                                    &ExactColumn,
                                    bool,
                                    Vec<&[f64]>,
                                )| {
                                    let value = exact.values[k];
                                    (*integer || !finite_only || value.is_finite())
                                        && results.iter().all(|column| {
                                            crate::judge::exact_output_matches(
                                                column[k], value, *integer,
                                            )
                                        })
                                };
                                let declined = outputs.iter().any(|(exact, ..)| exact.declined[k]);
                                if outside_weight.is_some() && k >= 240 {
                                    0
                                } else if declined {
                                    class_of_declined(k)
                                } else {
                                    u8::from(outputs.iter().all(matches))
                                }
                            })
                            .collect();
                        let what = format!("{name} {integer} {finite_only} {two_outputs}");
                        assert_eq!(classes, expected, "{what}");
                        assert!(classes.contains(&0) && classes.contains(&1), "{what}");
                        // A zero of the other sign matches; a NaN value, results NaN of
                        // other payloads, where a value need not be finite.
                        assert_eq!(classes[11], 1, "{what}");
                        let nan_counts = !finite_only || (integer && !two_outputs);
                        assert_eq!(classes[10], u8::from(nan_counts), "{what}");
                    }
                }
            }
        }
    }

    /// The undecided inputs are every zero class, in order, at every length and wherever a
    /// 64-byte chunk's boundary falls.
    #[test]
    fn zero_positions_are_every_zero_in_order() {
        for length in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 1000] {
            for pattern in 0..5usize {
                let classes: Vec<u8> = (0..length)
                    .map(|k| match pattern {
                        0 => 0,
                        1 => 1,
                        2 => u8::from(k % 3 != 0) * 2,
                        3 => u8::from(k != 0 && k + 1 != length),
                        _ => u8::from(k.wrapping_mul(2_654_435_761) % 7 != 0),
                    })
                    .collect();
                let expected: Vec<usize> = (0..length).filter(|k| classes[*k] == 0).collect();
                assert_eq!(zero_positions(&classes), expected, "{length} {pattern}");
            }
        }
    }

    /// A column of values holds `value` of each input of the range, its arguments in order,
    /// for one argument as for several.
    #[test]
    fn a_column_holds_the_value_of_each_input_of_the_range() {
        let x: Vec<f64> = (0..10).map(f64::from).collect();
        let y: Vec<f64> = (0..10).map(|k| f64::from(k) * 100.0).collect();
        let sum = |args: &[f64]| args.iter().sum::<f64>() + args.len() as f64 / 10.0;
        assert_eq!(
            column_of(std::slice::from_ref(&x), &(2..5), sum),
            [2.1, 3.1, 4.1]
        );
        assert_eq!(column_of(&[x, y], &(2..5), sum), [202.2, 303.2, 404.2]);
    }

    /// A batch's positions map to the inputs of its chunks and back, a shard's chunks (not
    /// next to each other) as well as one run of inputs.
    #[test]
    fn batch_positions_map_to_their_chunks_inputs_and_back() {
        let length = 16;
        let segments = Segments {
            starts: vec![3 * 16, 10 * 16, 17 * 16],
            shift: 4,
        };
        let indices: Vec<u64> = (0..3 * length).map(|p| segments.index(p)).collect();
        let expected: Vec<u64> = [3u64, 10, 17]
            .iter()
            .flat_map(|chunk| chunk * 16..(chunk + 1) * 16)
            .collect();
        assert_eq!(indices, expected);
        for (position, index) in indices.iter().enumerate() {
            assert_eq!(segments.position(*index), position);
        }
        let one = Segments::one(1000);
        assert_eq!((one.index(0), one.index(70_000)), (1000, 71_000));
        assert_eq!(one.position(71_000), 70_000);
    }
}
