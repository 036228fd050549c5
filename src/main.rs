//! The clacc command line: everything it does is in `clacc::face`. Exit codes: 0 every unit
//! passed (or was skipped), 1 a unit failed or could not be measured, 2 a usage or environment
//! error.

use clacc::face;
use std::process::ExitCode;

// Chunk loops free and re-make columns of hundreds of KiB; glibc hands them back to the OS and
// faults them in again, mimalloc keeps them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    /// mimalloc's option setter (mimalloc.h), linked in with the allocator.
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    fn mi_malloc(size: usize) -> *mut std::ffi::c_void;
    fn mi_realloc(pointer: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void;
    fn mi_free(pointer: *mut std::ffi::c_void);
}

/// `mi_option_purge_delay` in mimalloc.h (v2 and v3): how long freed memory stays mapped.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Keeps freed memory mapped for a second instead of mimalloc's 10 ms: the chunks of a unit
/// come every few tens of milliseconds, and memory handed back between them was faulted in
/// and cleared again (float fma, 2^24 inputs, every width: 0.5 s of system time, 1.40 against
/// 1.24 s). `MIMALLOC_PURGE_DELAY` in the environment still decides where it is set.
fn keep_freed_memory_mapped() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: a plain setter of one of mimalloc's global options; any value is valid.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 1000) };
    }
}

/// Turns transparent huge pages off for this process and the ones it starts (the flag is
/// inherited across fork and exec): mimalloc asks for them on its arenas, and the kernel then
/// zeroes two MiB at the first touch of every column, and again where a purge split one, after
/// compacting memory to find it. float fma, 2^24 inputs, every width, three runs each:
/// 30 to 394 samples of `clear_page_erms` in about 1.5k with them, 16 to 25 without.
/// `MIMALLOC_ALLOW_THP` in the environment still decides where it is set.
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: sets one flag of this process; the call takes no pointers.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
}

/// GMP's allocation: mimalloc's, or the abort GMP's own allocator gives when memory runs out.
extern "C" fn gmp_allocate(size: usize) -> *mut std::ffi::c_void {
    // SAFETY: mimalloc's malloc takes any size.
    let pointer = unsafe { mi_malloc(size) };
    if pointer.is_null() {
        std::process::abort();
    }
    pointer
}

/// GMP's reallocation, through mimalloc (GMP passes the old size, which mimalloc knows).
unsafe extern "C" fn gmp_reallocate(
    pointer: *mut std::ffi::c_void,
    _old_size: usize,
    new_size: usize,
) -> *mut std::ffi::c_void {
    // SAFETY: `pointer` came from `gmp_allocate` or this function (GMP's contract).
    let moved = unsafe { mi_realloc(pointer, new_size) };
    if moved.is_null() {
        std::process::abort();
    }
    moved
}

/// GMP's free, through mimalloc.
unsafe extern "C" fn gmp_free(pointer: *mut std::ffi::c_void, _size: usize) {
    // SAFETY: `pointer` came from `gmp_allocate` or `gmp_reallocate` (GMP's contract).
    unsafe { mi_free(pointer) }
}

/// Hands GMP's (and so MPFR's) allocations to mimalloc: every MPFR value the judge makes
/// allocates its digits, and glibc's malloc and free were a fifth of a double Vulkan `fma`
/// unit's samples (each MPFR interval end is a fresh value). Set before any GMP or MPFR value
/// exists, so that nothing allocated by glibc is freed by mimalloc.
fn gmp_allocates_with_mimalloc() {
    // SAFETY: called first in `main`, before any thread or GMP value exists; the three
    // functions keep GMP's contract (never null, any pointer GMP had from them).
    unsafe {
        gmp_mpfr_sys::gmp::set_memory_functions(
            Some(gmp_allocate),
            Some(gmp_reallocate),
            Some(gmp_free),
        )
    };
}

fn main() -> ExitCode {
    // Like other command-line tools, end quietly when a reader of our output goes away
    // (`clacc devices | head -1`) instead of panicking on the broken pipe.
    // SAFETY: setting a signal disposition before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    gmp_allocates_with_mimalloc();
    keep_freed_memory_mapped();
    no_transparent_huge_pages();
    let outcome = face::reexec_with_local_runtime()
        .and_then(|()| face::args::parse().map_err(face::UsageError::from))
        .and_then(|cli| face::dispatch(&cli));
    face::exit_code(outcome)
}
