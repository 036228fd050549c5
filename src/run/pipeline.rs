//! THE pipeline: every unit kind (ULP, geometric, edge, conversion, extension) runs through
//! one chunked loop, device → reference → judge. A kind says how its unit is prepared (kernel
//! built, inputs planned), which chunks this run walks, how a chunk's inputs are made and run
//! on the device, how a chunk is judged into the one result monoid [`UnitStats`], and how its
//! report ends; the loop owns the rest: the overlap of device and judging, the order in which
//! chunks merge, progress, and the error that ends a unit.
//!
//! Three stages overlap: an input thread makes the inputs of the chunk after next, a device
//! thread runs the kernel on the next, and the caller's thread judges this one. Channels (one
//! chunk of inputs, two of results) bound the memory in flight. Chunks merge in the order
//! they were made, so the result does not depend on timing or on the number of judging
//! threads. (Drawing inputs on the device's thread made them wait for each other: fma's three
//! random arguments cost more than its six kernels.)

use crate::device::DeviceError;
use crate::kernel::KernelError;
use crate::report::stats::{RowStats, UnitStats};
use crate::report::UnitReport;

/// Why a unit ended without a verdict: its row is `error` with this text in `note`.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    /// clacc could not make the unit's module.
    #[error("kernel not built: {0}")]
    Kernel(#[from] KernelError),
    /// The driver refused the module; `note` is the one line the row shows, `log` the whole
    /// build log, which the command line prints ([`Ran::refused`]).
    #[error("{note}")]
    Refused {
        module: String,
        note: String,
        log: String,
    },
    /// An OpenCL call failed (a build failure kept as the driver's own words).
    #[error("{0}")]
    Device(#[from] DeviceError),
    /// `--input-file` cases do not fit the function.
    #[error("--input-file cases have {given} arguments; {function} takes {takes}")]
    InputArity {
        function: String,
        given: usize,
        takes: usize,
    },
    /// A check of the conversion or extension layers refused the unit (module emission, the
    /// extension guard, a device run they report in their own words).
    #[error("{0}")]
    Check(String),
}

/// What a row's note says of a build log: the first line naming an error; else every line,
/// joined (a log without one, "Compilation failed" above the reason, says why only together),
/// cut short.
pub fn telling_line(log: &str) -> String {
    const MOST: usize = 300;
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let text = match lines.iter().find(|l| l.to_lowercase().contains("error")) {
        Some(line) => line.to_string(),
        None if lines.is_empty() => "(empty build log)".to_string(),
        None => lines.join("; "),
    };
    match text.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A driver's refusal of a module, with its whole build log, for the command line to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedBuild {
    pub module: String,
    pub log: String,
}

impl UnitError {
    /// The refused module and its build log, where the driver refused one.
    pub fn refused(&self) -> Option<RefusedBuild> {
        match self {
            UnitError::Refused { module, log, .. } => Some(RefusedBuild {
                module: module.clone(),
                log: log.clone(),
            }),
            _ => None,
        }
    }
}

/// A finished unit: its row, and the build log of a module the driver refused (the row's note
/// holds only its telling line).
#[derive(Clone, Debug)]
pub struct Ran {
    pub report: UnitReport,
    pub refused: Option<RefusedBuild>,
}

impl Ran {
    /// A unit that ended before its chunk loop (skipped, or judged by its setup alone).
    pub fn settled(report: UnitReport) -> Ran {
        Ran {
            report,
            refused: None,
        }
    }
}

/// The chunks a run of one unit walks (its shard's, lazily: a sweep of 2^40 inputs must not
/// list its chunk numbers first) and the progress length they make.
pub struct Chunks {
    pub numbers: Box<dyn Iterator<Item = u64> + Send>,
    /// The length progress is reported against; each chunk advances it by
    /// [`Unit::advance`], capped here.
    pub planned: u64,
}

/// What judging a chunk yields and the loop merges, chunk after chunk in order: the result
/// monoid [`UnitStats`] for a unit with one row; [`RowStats`], one per row, for a unit
/// that judges several rows on the same inputs, such as every width of a function on one
/// reference pass.
pub trait Tally: Default + Send {
    fn merge(&mut self, other: Self);

    /// Makes the merged result final for the reports ([`UnitStats::settle`]).
    fn settle(&mut self);
}

impl Tally for UnitStats {
    fn merge(&mut self, other: UnitStats) {
        UnitStats::merge(self, other);
    }

    fn settle(&mut self) {
        UnitStats::settle(self);
    }
}

/// Row by row ([`RowStats::merge`]).
impl Tally for RowStats {
    fn merge(&mut self, other: RowStats) {
        RowStats::merge(self, other);
    }

    fn settle(&mut self) {
        RowStats::settle(self);
    }
}

/// One unit of one kind, set up and ready for the pipeline.
///
/// Several widths on the same inputs (one reference pass for all widths) fit as they are: a
/// unit whose `Kernel` holds one built kernel per width makes one `Chunk` of inputs with every
/// width's device results in [`Unit::device`], judges them in [`Unit::judge`] against
/// references computed once per input into a [`RowStats`] tally (one per width), and
/// finishes one row per width.
pub trait Unit: Sync + Sized {
    /// The unit's built kernel; the device thread owns it (OpenCL objects are not shared).
    type Kernel: Send;
    /// What the chunk loop needs besides the kernel: the input plan, shared by the input and
    /// device threads and the judge.
    type Prepared: Sync;
    /// A chunk's inputs, made ahead of the device on a thread of their own (`()` where the
    /// device makes them itself).
    type Inputs: Send;
    /// One chunk as the device leaves it: its inputs and the device's results.
    type Chunk: Send;
    /// What judging yields ([`UnitStats`] for one row).
    type Tally: Tally;

    /// Builds the unit's kernel for the device.
    fn build(&self) -> Result<Self::Kernel, UnitError>;

    /// Plans the inputs (after the kernel is built).
    fn prepare(&self) -> Result<Self::Prepared, UnitError>;

    /// The chunks this run walks.
    fn chunks(&self, prepared: &Self::Prepared) -> Chunks;

    /// Makes chunk `number`'s inputs (on the input thread, one chunk ahead of the device).
    fn inputs(&self, prepared: &Self::Prepared, number: u64) -> Self::Inputs;

    /// Runs chunk `number` on the device (on the device thread), on `inputs`.
    fn device(
        &self,
        kernel: &Self::Kernel,
        prepared: &Self::Prepared,
        number: u64,
        inputs: Self::Inputs,
    ) -> Result<Self::Chunk, UnitError>;

    /// Judges one chunk (on the caller's thread, which may spread it over the run's threads).
    fn judge(&self, prepared: &Self::Prepared, chunk: &Self::Chunk) -> Self::Tally;

    /// What a chunk counts when the run judges nothing (`--device-only`); `None` where the kind
    /// judges anyway.
    fn unjudged(&self, _prepared: &Self::Prepared, _chunk: &Self::Chunk) -> Option<Self::Tally> {
        None
    }

    /// How far a chunk moves the progress (in [`Chunks::planned`]'s units).
    fn advance(&self, chunk: &Self::Chunk) -> u64;

    /// Takes back a chunk the loop is done with: a kind that keeps its buffers for the
    /// chunks after it ([`Spares`]) takes them here; the rest is dropped.
    fn recycle(&self, _chunk: Self::Chunk) {}

    /// The merged result of every chunk, made final (the ULP units confirm their worst case
    /// with MPFR here).
    fn conclude(&self, _prepared: &Self::Prepared, tally: Self::Tally) -> Self::Tally {
        tally
    }
}

/// A unit that ends in one row ([`run`] drives it whole). A unit of several rows on the same
/// inputs (every width of a function on one reference pass) makes its rows itself from
/// [`measure`]'s tally.
pub trait OneRow: Unit {
    /// The unit's row from what the loop measured, or from why it stopped.
    fn finish(self, measured: Result<(Self::Prepared, Self::Tally), UnitError>) -> UnitReport;
}

/// Runs one unit through the pipeline: build, prepare, the chunk loop, finish.
pub fn run<U: OneRow>(unit: U, progress: &dyn Fn(u64, u64)) -> Ran {
    let measured = unit.build().and_then(|kernel| {
        let prepared = unit.prepare()?;
        let stats = measure(&unit, kernel, &prepared, progress)?;
        Ok((prepared, stats))
    });
    let refused = measured.as_ref().err().and_then(UnitError::refused);
    Ran {
        report: unit.finish(measured),
        refused,
    }
}

/// The chunk loop: inputs are made on one thread and run on the device on another, this
/// thread judges the chunks in order and merges them; the first device error ends the unit.
pub fn measure<U: Unit>(
    unit: &U,
    kernel: U::Kernel,
    prepared: &U::Prepared,
    progress: &dyn Fn(u64, u64),
) -> Result<U::Tally, UnitError> {
    let Chunks { numbers, planned } = unit.chunks(prepared);
    progress(0, planned);
    let (inputs_sender, inputs_receiver) = std::sync::mpsc::sync_channel::<(u64, U::Inputs)>(1);
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Result<U::Chunk, UnitError>>(2);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for number in numbers {
                if inputs_sender
                    .send((number, unit.inputs(prepared, number)))
                    .is_err()
                {
                    return;
                }
            }
        });
        scope.spawn(move || {
            for (number, inputs) in inputs_receiver {
                let outcome = unit.device(&kernel, prepared, number, inputs);
                let failed = outcome.is_err();
                if sender.send(outcome).is_err() || failed {
                    return;
                }
            }
        });
        let mut tally = U::Tally::default();
        let mut done = 0u64;
        for received in receiver {
            let chunk = received?;
            match unit.unjudged(prepared, &chunk) {
                Some(counted) => tally.merge(counted),
                None => tally.merge(unit.judge(prepared, &chunk)),
            }
            done = done.saturating_add(unit.advance(&chunk));
            unit.recycle(chunk);
            progress(done.min(planned), planned);
        }
        let mut tally = unit.conclude(prepared, tally);
        tally.settle();
        Ok(tally)
    })
}

/// Buffers a unit keeps for its later chunks, which any of the loop's threads takes or gives
/// back: a chunk's columns freed and allocated anew came back as fresh pages, which the
/// kernel faults in and zeroes again (float fma, 2^24 inputs, every width, one process:
/// 43.7k page faults before, 31.8k with the columns, their parts and the results kept). As
/// many are kept as chunks were in flight at once.
pub(crate) struct Spares<T>(std::sync::Mutex<Vec<T>>);

impl<T> Default for Spares<T> {
    fn default() -> Self {
        Spares(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T> Spares<T> {
    /// A buffer given back, whatever it holds; `None` before the first is.
    pub(crate) fn take(&self) -> Option<T> {
        self.kept().pop()
    }

    pub(crate) fn give(&self, spares: impl IntoIterator<Item = T>) {
        self.kept().extend(spares);
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Vec<T>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The fewest inputs a judging slice holds: enough that a slice's setup (its tally, its
/// scratch) is noise beside its judging.
const SLICE_INPUTS: usize = 4096;

/// Judges `0 .. count` on `threads` threads. The range is cut into slices, several per
/// thread and none longer than `longest` (unless [`SLICE_INPUTS`] is), which the threads take
/// in turn as they finish one: a thread slowed down (by the device's own threads, or by the
/// slice's inputs) leaves its slices to the others instead of holding up the chunk. The slices
/// merge in their order, so the result depends neither on the thread count nor on timing.
pub(crate) fn judge_in_slices<T: Tally>(
    count: usize,
    threads: usize,
    longest: usize,
    judge_slice: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> T {
    let slice_length = count
        .div_ceil(4 * threads.max(1))
        .min(longest)
        .max(SLICE_INPUTS);
    let slices = count.div_ceil(slice_length);
    let mut merged = T::default();
    for tally in in_order_on_threads(slices, threads, |slice| {
        let start = slice * slice_length;
        judge_slice(start..(start + slice_length).min(count))
    }) {
        Tally::merge(&mut merged, tally);
    }
    merged
}

/// `make(0) .. make(count - 1)`, in that order, made on up to `threads` threads that take the
/// next number as they finish one (the work of a number may vary, and the device's threads
/// share the cores).
pub(crate) fn in_order_on_threads<T: Send>(
    count: usize,
    threads: usize,
    make: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let threads = threads.max(1);
    let workers = threads.min(count);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let made = std::sync::Mutex::new(Vec::with_capacity(count));
    let (make, next, made_ref) = (&make, &next, &made);
    pool_of(threads).scope(|scope| {
        for _ in 0..workers {
            scope.spawn(move |_| {
                let mut mine = Vec::new();
                loop {
                    let number = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if number >= count {
                        break;
                    }
                    mine.push((number, make(number)));
                }
                made_ref.lock().expect("a worker panicked").extend(mine);
            });
        }
    });
    let mut made = made.into_inner().expect("a worker panicked");
    made.sort_unstable_by_key(|(number, _)| *number);
    made.into_iter().map(|(_, value)| value).collect()
}

/// A pool of at least `threads` threads, kept for the whole process: threads spawned afresh
/// for every batch start with empty allocator heaps, whose fresh pages the kernel zeroes
/// (fma, 2^24 inputs, every width, `--device-only`: 0.77 s with threads spawned per batch,
/// 0.67 s with this pool). A call asking for more threads than the pool has gets a larger
/// pool; a run asks for one count throughout.
fn pool_of(threads: usize) -> std::sync::Arc<rayon::ThreadPool> {
    static POOL: std::sync::Mutex<Option<std::sync::Arc<rayon::ThreadPool>>> =
        std::sync::Mutex::new(None);
    let mut pool = POOL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match pool.as_ref() {
        Some(kept) if kept.current_num_threads() >= threads => kept.clone(),
        _ => {
            let larger = std::sync::Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|index| format!("clacc-worker-{index}"))
                    .build()
                    .expect("the operating system refused a worker thread"),
            );
            *pool = Some(larger.clone());
            larger
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(inputs: u64, failures: u64, max_error: f64) -> UnitStats {
        UnitStats {
            inputs,
            failures,
            max_error,
            ..UnitStats::default()
        }
    }

    /// Every input is judged once (the slices' lengths add up to the count and the last ends
    /// it), whatever the thread count, and no slice is longer than asked.
    #[test]
    fn slices_cover_every_input_once_whatever_the_thread_count() {
        let count = 3 * SLICE_INPUTS * 5 + 123;
        for threads in [1, 2, 3, 8] {
            for longest in [usize::MAX, 2 * SLICE_INPUTS, 1] {
                let longest_seen = std::sync::atomic::AtomicUsize::new(0);
                let judged = judge_in_slices(count, threads, longest, |slice| {
                    longest_seen.fetch_max(slice.len(), std::sync::atomic::Ordering::Relaxed);
                    stats(slice.len() as u64, 0, slice.end as f64)
                });
                let what = format!("{threads} threads, slices of at most {longest}");
                assert_eq!(judged.inputs, count as u64, "{what}");
                assert_eq!(judged.max_error, count as f64, "{what}");
                assert!(
                    longest_seen.into_inner() <= longest.max(SLICE_INPUTS),
                    "{what}"
                );
            }
        }
    }

    /// The values come back in their numbers' order however the threads finish them (the
    /// early numbers here take longest), none twice, none missing, for any count of threads,
    /// and a pool grows when a call asks for more threads than it has.
    #[test]
    fn values_made_on_threads_come_back_in_order() {
        for threads in [0, 1, 2, 3, 8] {
            for count in [0, 1, 5, 40] {
                let made = in_order_on_threads(count, threads, |number| {
                    std::thread::sleep(std::time::Duration::from_micros(
                        (count - number) as u64 * 50,
                    ));
                    number * 3
                });
                let expected: Vec<usize> = (0..count).map(|number| number * 3).collect();
                assert_eq!(made, expected, "{threads} threads, {count} values");
            }
        }
        assert!(pool_of(5).current_num_threads() >= 5);
    }

    #[test]
    fn a_tally_of_rows_merges_row_by_row() {
        let mut tally = RowStats::default();
        Tally::merge(
            &mut tally,
            RowStats::new(vec![stats(10, 0, 1.5), stats(10, 1, 3.0)]),
        );
        Tally::merge(
            &mut tally,
            RowStats::new(vec![stats(5, 2, 0.5), stats(5, 0, 4.0)]),
        );
        let rows: Vec<(u64, u64, f64)> = tally
            .into_rows()
            .iter()
            .map(|row| (row.inputs, row.failures, row.max_error))
            .collect();
        assert_eq!(rows, [(15, 2, 1.5), (15, 1, 4.0)]);
    }

    #[test]
    fn a_refused_module_keeps_one_line_in_the_row_and_its_whole_log_for_the_command_line() {
        let refused = UnitError::Refused {
            module: "sin_float_w4_a64".to_string(),
            note: "driver refused the module: error: bad".to_string(),
            log: "warning: w\nerror: bad\n".to_string(),
        };
        assert_eq!(refused.to_string(), "driver refused the module: error: bad");
        assert_eq!(
            refused.refused(),
            Some(RefusedBuild {
                module: "sin_float_w4_a64".to_string(),
                log: "warning: w\nerror: bad\n".to_string(),
            })
        );
        // Other errors carry no log: the row says it all.
        let no_devices = || DeviceError::from(crate::device::opencl::OpenclError::NoDevices);
        let device = UnitError::Device(no_devices());
        assert_eq!(device.refused(), None);
        assert_eq!(device.to_string(), no_devices().to_string());
    }
}
