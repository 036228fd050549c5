//! Running units in a worker process, so that a driver that crashes (drivers call `exit()` on
//! modules they dislike) or hangs costs one unit, not the run.
//!
//! The parent starts `clacc worker` and names the device; the worker opens it and describes
//! it (an isolated run's parent plans from that description and never loads the driver). The
//! parent then sends the run's settings and one unit at a time; the worker answers with
//! progress frames and one report frame per unit. Frames are a tag
//! byte, a little-endian u32 length and a postcard payload. The worker writes them to a
//! duplicate of its original stdout and points its stdout at stderr, so nothing a driver
//! prints can corrupt the stream.

use crate::device::opencl::DeviceDescription;
use crate::report::UnitReport;
use crate::run::unit::UnitId;
use crate::run::RunSettings;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const TAG_OPEN: u8 = b'O';
const TAG_DEVICE: u8 = b'D';
const TAG_SETTINGS: u8 = b'S';
const TAG_UNIT: u8 = b'U';
const TAG_PROGRESS: u8 = b'P';
const TAG_REPORT: u8 = b'R';

/// How often a wait for the worker's frames checks whether the worker is still alive.
const EXIT_POLL: Duration = Duration::from_millis(200);
/// How long frames a dead worker wrote are still read: they are in the pipe already.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Which device a worker opens: `--platform` and `--device` as given, among the Vulkan devices
/// where `vulkan`, else among the OpenCL ones.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DeviceChoice {
    pub vulkan: bool,
    pub platform: Option<String>,
    pub device: Option<String>,
}

/// The worker's answer to [`DeviceChoice`]: the OpenCL device it opened (none for a Vulkan
/// one, which the parent enumerates itself), or why it opened none.
pub type DeviceAnswer = Result<Option<DeviceDescription>, String>;

/// Why a worker did not start.
#[derive(Debug, thiserror::Error)]
pub enum WorkerStartError {
    #[error("cannot start a worker process: {0}")]
    Spawn(io::Error),
    /// The worker could not open the device: the driver's or the selection's words.
    #[error("{0}")]
    Device(String),
    #[error("the worker ended before it opened the device: {0}")]
    Lost(String),
}

/// A frame from the worker.
#[derive(Debug)]
pub enum Frame {
    Progress { position: u64, length: u64 },
    Report(Box<UnitReport>),
}

pub fn write_frame<T: Serialize>(out: &mut impl Write, tag: u8, value: &T) -> io::Result<()> {
    let payload = postcard::to_stdvec(value).map_err(io::Error::other)?;
    out.write_all(&[tag])?;
    out.write_all(&(payload.len() as u32).to_le_bytes())?;
    out.write_all(&payload)?;
    out.flush()
}

/// Reads one frame; `Ok(None)` at a clean end of stream.
pub fn read_frame(input: &mut impl Read) -> io::Result<Option<(u8, Vec<u8>)>> {
    let mut tag = [0u8; 1];
    match input.read_exact(&mut tag) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut length = [0u8; 4];
    input.read_exact(&mut length)?;
    let mut payload = vec![0u8; u32::from_le_bytes(length) as usize];
    input.read_exact(&mut payload)?;
    Ok(Some((tag[0], payload)))
}

pub fn decode<T: DeserializeOwned>(payload: &[u8]) -> io::Result<T> {
    postcard::from_bytes(payload).map_err(io::Error::other)
}

/// How a unit ended in the worker.
pub enum Outcome {
    Report(Box<UnitReport>),
    /// The worker died; the text says how (exit status or signal).
    Crashed(String),
    TimedOut,
}

/// Why no frame came from a worker.
enum Silence {
    /// It exited (after the grace for what it wrote before dying) or its stream broke: why.
    Lost(String),
    /// The deadline passed; the worker was killed.
    TimedOut,
}

/// A running worker process.
pub struct Worker {
    child: Child,
    input: BufWriter<ChildStdin>,
    frames: Receiver<io::Result<(u8, Vec<u8>)>>,
}

impl Worker {
    /// Starts `executable worker` and has it open `choice`: the worker, ready for
    /// [`Worker::send_settings`], and its description of the device.
    pub fn open(
        executable: &Path,
        choice: &DeviceChoice,
    ) -> Result<(Worker, Option<DeviceDescription>), WorkerStartError> {
        let mut command = Command::new(executable);
        command.arg("worker");
        let mut worker = Worker::start(command).map_err(WorkerStartError::Spawn)?;
        if write_frame(&mut worker.input, TAG_OPEN, choice).is_err() {
            return Err(WorkerStartError::Lost(worker.exit_description()));
        }
        // Opening a device has no time limit, as in the parent before: only its death ends the
        // wait.
        let answer = match worker.next_frame(None, &mut None) {
            Ok((TAG_DEVICE, payload)) => decode::<DeviceAnswer>(&payload)
                .map_err(|error| WorkerStartError::Lost(error.to_string()))?,
            Ok((tag, _)) => {
                return Err(WorkerStartError::Lost(format!(
                    "unknown frame {tag} from the worker"
                )))
            }
            Err(Silence::Lost(why)) => return Err(WorkerStartError::Lost(why)),
            Err(Silence::TimedOut) => unreachable!("no deadline"),
        };
        let description = answer.map_err(WorkerStartError::Device)?;
        Ok((worker, description))
    }

    /// Sends the run's settings, after which the worker takes units.
    pub fn send_settings(&mut self, settings: &RunSettings) -> io::Result<()> {
        write_frame(&mut self.input, TAG_SETTINGS, settings)
    }

    /// Starts `command` with its stdin and stdout piped to this process, and a thread that
    /// reads its frames.
    fn start(mut command: Command) -> io::Result<Worker> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let input = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let output = child.stdout.take().expect("piped stdout");
        let (sender, frames) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                match read_frame(&mut reader) {
                    Ok(Some(frame)) => {
                        if sender.send(Ok(frame)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                }
            }
        });
        Ok(Worker {
            child,
            input,
            frames,
        })
    }

    /// Runs one unit, calling `on_progress` as the worker reports it; `timeout` bounds the whole
    /// unit. On a crash or a time-out the worker is gone; start a new one for the next unit.
    pub fn run(
        &mut self,
        unit: &UnitId,
        timeout: Duration,
        on_progress: &mut dyn FnMut(u64, u64),
    ) -> Outcome {
        self.run_rows(unit, 1, timeout, on_progress)
            .pop()
            .expect("at least one outcome")
    }

    /// Runs a unit that reports `rows` rows ([`UnitId::UlpWidths`]) within `timeout` in all:
    /// the reports in the order they came, ended early by a crash or timeout, which is then
    /// the last outcome.
    pub fn run_rows(
        &mut self,
        unit: &UnitId,
        rows: usize,
        timeout: Duration,
        on_progress: &mut dyn FnMut(u64, u64),
    ) -> Vec<Outcome> {
        if write_frame(&mut self.input, TAG_UNIT, unit).is_err() {
            return vec![Outcome::Crashed(self.exit_description())];
        }
        let deadline = Instant::now() + timeout;
        let mut outcomes = Vec::with_capacity(rows);
        while outcomes.len() < rows.max(1) {
            let outcome = self.receive(deadline, on_progress);
            let ended = !matches!(outcome, Outcome::Report(_));
            outcomes.push(outcome);
            if ended {
                break;
            }
        }
        outcomes
    }

    /// The worker's next report, or why none came before `deadline`.
    ///
    /// A worker's death does not always end its stream: a process the driver started (a
    /// compiler, a helper daemon) inherits the worker's stdout and keeps the pipe open. So the
    /// wait looks at the worker itself every [`EXIT_POLL`], and once it has exited reads what
    /// it wrote before dying for [`EXIT_GRACE`] and then reports the crash.
    fn receive(&mut self, deadline: Instant, on_progress: &mut dyn FnMut(u64, u64)) -> Outcome {
        let mut exited = None;
        loop {
            match self.next_frame(Some(deadline), &mut exited) {
                Ok((TAG_PROGRESS, payload)) => {
                    if let Ok((position, length)) = decode::<(u64, u64)>(&payload) {
                        on_progress(position, length);
                    }
                }
                Ok((TAG_REPORT, payload)) => match decode::<UnitReport>(&payload) {
                    Ok(report) => return Outcome::Report(Box::new(report)),
                    Err(error) => {
                        return Outcome::Crashed(format!(
                            "unreadable report from the worker: {error}"
                        ))
                    }
                },
                Ok((tag, _)) => {
                    return Outcome::Crashed(format!("unknown frame {tag} from the worker"))
                }
                Err(Silence::Lost(why)) => return Outcome::Crashed(why),
                Err(Silence::TimedOut) => return Outcome::TimedOut,
            }
        }
    }

    /// The worker's next frame, waiting until `deadline` (with none, until the worker dies).
    /// The worker is looked at every [`EXIT_POLL`]; once it has exited (`exited`, kept by the
    /// caller across frames), what it wrote before dying is still read for [`EXIT_GRACE`].
    /// Past the deadline the worker is killed.
    fn next_frame(
        &mut self,
        deadline: Option<Instant>,
        exited: &mut Option<(ExitStatus, Instant)>,
    ) -> Result<(u8, Vec<u8>), Silence> {
        loop {
            let now = Instant::now();
            let wait = match exited {
                Some((_, grace_end)) => grace_end.saturating_duration_since(now),
                None => deadline.map_or(EXIT_POLL, |deadline| {
                    deadline.saturating_duration_since(now).min(EXIT_POLL)
                }),
            };
            match self.frames.recv_timeout(wait) {
                Ok(Ok(frame)) => return Ok(frame),
                Ok(Err(error)) => {
                    return Err(Silence::Lost(format!("worker stream broke: {error}")))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Silence::Lost(self.exit_description()))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some((status, _)) = exited {
                        return Err(Silence::Lost(describe_exit(*status)));
                    }
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        let _ = self.child.kill();
                        let _ = self.child.wait();
                        return Err(Silence::TimedOut);
                    }
                    if let Ok(Some(status)) = self.child.try_wait() {
                        *exited = Some((status, Instant::now() + EXIT_GRACE));
                    }
                }
            }
        }
    }

    fn exit_description(&mut self) -> String {
        match self.child.wait() {
            Ok(status) => describe_exit(status),
            Err(error) => format!("worker lost: {error}"),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `the driver exited with status 10`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!(
            "the worker exited with status {code} during the unit (a driver calling exit?)"
        );
    }
    match status.signal() {
        Some(signal) => {
            let name = match signal {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGKILL => " (SIGKILL)",
                _ => "",
            };
            format!("the worker was killed by signal {signal}{name} during the unit")
        }
        None => "the worker ended during the unit".to_string(),
    }
}

/// The worker's side: where its frames go.
pub struct WorkerOutput {
    stream: BufWriter<std::fs::File>,
}

impl WorkerOutput {
    /// Takes stdout for frames and sends everything else written to fd 1 to stderr.
    pub fn take_stdout() -> io::Result<WorkerOutput> {
        use std::os::fd::FromRawFd;
        // SAFETY: plain descriptor duplication on the process's own standard streams; the
        // duplicate is owned by the File from here on.
        let file = unsafe {
            let protocol = libc::dup(1);
            if protocol < 0 || libc::dup2(2, 1) < 0 {
                return Err(io::Error::last_os_error());
            }
            std::fs::File::from_raw_fd(protocol)
        };
        Ok(WorkerOutput {
            stream: BufWriter::new(file),
        })
    }

    pub fn progress(&mut self, position: u64, length: u64) -> io::Result<()> {
        write_frame(&mut self.stream, TAG_PROGRESS, &(position, length))
    }

    pub fn report(&mut self, report: &UnitReport) -> io::Result<()> {
        write_frame(&mut self.stream, TAG_REPORT, report)
    }

    pub fn device(&mut self, answer: &DeviceAnswer) -> io::Result<()> {
        write_frame(&mut self.stream, TAG_DEVICE, answer)
    }
}

/// Reads which device to open, the worker's first frame.
pub fn read_choice(input: &mut impl Read) -> io::Result<DeviceChoice> {
    match read_frame(input)? {
        Some((TAG_OPEN, payload)) => decode(&payload),
        _ => Err(io::Error::other("the worker expected its device first")),
    }
}

/// Reads the run's settings, the frame after the device's answer; `None` where the parent
/// ended first (a run with nothing left to do, a parent killed).
pub fn read_settings(input: &mut impl Read) -> io::Result<Option<RunSettings>> {
    match read_frame(input)? {
        Some((TAG_SETTINGS, payload)) => decode(&payload).map(Some),
        None => Ok(None),
        Some((tag, _)) => Err(io::Error::other(format!(
            "the worker expected its settings, not frame {tag}"
        ))),
    }
}

/// Reads the next unit to run; `None` when the parent is done.
pub fn read_unit(input: &mut impl Read) -> io::Result<Option<UnitId>> {
    match read_frame(input)? {
        Some((TAG_UNIT, payload)) => decode(&payload).map(Some),
        Some((tag, _)) => Err(io::Error::other(format!("unexpected frame {tag}"))),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_with_exact_floats() {
        let values = (f64::NAN, f64::NEG_INFINITY, -0.0f64, 1.5f64);
        let mut buffer = Vec::new();
        write_frame(&mut buffer, TAG_PROGRESS, &values).unwrap();
        write_frame(&mut buffer, TAG_REPORT, &"x".to_string()).unwrap();
        let mut reader = buffer.as_slice();
        let (tag, payload) = read_frame(&mut reader).unwrap().unwrap();
        assert_eq!(tag, TAG_PROGRESS);
        let back: (f64, f64, f64, f64) = decode(&payload).unwrap();
        assert!(back.0.is_nan() && back.1 == f64::NEG_INFINITY && back.2.is_sign_negative());
        assert_eq!(read_frame(&mut reader).unwrap().unwrap().0, TAG_REPORT);
        assert!(read_frame(&mut reader).unwrap().is_none());
    }

    #[test]
    fn a_worker_that_dies_is_a_crash_even_while_its_children_hold_its_stdout() {
        // PoCL 6.0 crashed a worker while a process it had started kept the pipe open: the run
        // then waited for the unit's timeout (an hour by default) instead of moving on.
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30 <&0 & exit 3"]);
        let mut worker = Worker::start(command).unwrap();
        let started = Instant::now();
        let unit = UnitId::Ulp {
            function: "sin".into(),
            element: crate::num::fp::FloatType::Float,
            width: 1,
        };
        let outcome = worker.run(&unit, Duration::from_secs(25), &mut |_, _| {});
        match outcome {
            Outcome::Crashed(description) => {
                assert!(description.contains("status 3"), "{description}")
            }
            Outcome::TimedOut => panic!("waited for the timeout"),
            Outcome::Report(_) => panic!("no report was written"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn exits_are_described_with_their_cause() {
        assert!(describe_exit(ExitStatus::from_raw(10 << 8)).contains("status 10"));
        assert!(describe_exit(ExitStatus::from_raw(libc::SIGSEGV)).contains("SIGSEGV"));
    }
}
