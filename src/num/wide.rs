//! Loops compiled for the widest vectors the CPU has. clacc is built for the x86-64 baseline
//! (SSE2, two doubles a vector), so it runs on every x86-64 CPU; [`widest`] runs a closure
//! inlined into a copy compiled for AVX-512 (or AVX2) where the CPU has it, so the loops in
//! it vectorize eight (four) doubles wide. The closure gains only where it is inlined there:
//! mark it `#[inline(always)]` (a large one was otherwise called, compiled for the baseline),
//! and keep to loops the compiler inlines whole.

/// `lane` over `inputs` into `out` (cleared first), in the widest vectors: the one loop every
/// one-argument column tier runs, written so that it vectorizes.
#[inline(always)]
pub fn map_widest(inputs: &[f64], out: &mut Vec<f64>, lane: impl Fn(f64) -> f64) {
    out.clear();
    out.resize(inputs.len(), 0.0);
    widest(
        #[inline(always)]
        || {
            for (x, value) in inputs.iter().zip(out.iter_mut()) {
                *value = lane(*x);
            }
        },
    );
}

/// `work()`, compiled for AVX-512 (F, BW, VL, DQ) or else AVX2 and FMA where this CPU has
/// them (each with the fused multiply-add instruction: AVX-512F implies it).
#[inline(always)]
pub fn widest<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
        unsafe fn avx512<R>(work: impl FnOnce() -> R) -> R {
            work()
        }
        #[target_feature(enable = "avx2,fma")]
        unsafe fn avx2<R>(work: impl FnOnce() -> R) -> R {
            work()
        }
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512dq")
        {
            // SAFETY: the CPU has the features the copy is compiled for.
            return unsafe { avx512(work) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { avx2(work) };
        }
    }
    work()
}
