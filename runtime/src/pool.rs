//! The thread pool kernels and library calls run on, and the floating
//! point environment they run in.
//!
//! XLA:CPU runs with denormals flushed: results that would be subnormal
//! are zero (FTZ) and subnormal inputs read as zero (DAZ). Every worker
//! thread sets both when it starts; the calling thread sets them for the
//! duration of an execution ([`FlushDenormals`]).

use std::sync::OnceLock;

static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();

/// The runtime's pool: one thread per available core.
pub fn pool() -> &'static rayon::ThreadPool {
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("rxla-cpu-{i}"))
            .start_handler(|_| {
                set_flush_denormals();
            })
            .build()
            .expect("the runtime's thread pool starts")
    })
}

/// Number of worker threads.
pub fn threads() -> usize {
    pool().current_num_threads()
}

/// Work (multiply-adds, elements) below which a library step runs on the
/// calling thread. The library parallelizes from 2^19 multiply-adds
/// (`rxla_library::matmul`); below that a step would run on one pool
/// thread anyway, and handing it over to sleeping threads and waiting for
/// it costs 5-14 us, more than a small product takes (a decode loop's
/// matrix-vector products; a [2, 256] x [256, 512] dot in a loop took
/// 21 us through the pool, ~8 us on the calling thread).
pub const INLINE_WORK: usize = 1 << 19;

/// Runs `f` on the pool when `work` is large enough to use it, else on the
/// calling thread (which has the same floating point environment during an
/// execution).
pub fn run<R: Send>(work: usize, f: impl FnOnce() -> R + Send) -> R {
    if work < INLINE_WORK || threads() == 1 {
        f()
    } else {
        pool().install(f)
    }
}

#[cfg(target_arch = "x86_64")]
mod mxcsr {
    /// MXCSR bits: denormals are zero (6) and flush to zero (15).
    pub const FLUSH: u32 = (1 << 6) | (1 << 15);

    pub fn get() -> u32 {
        let mut v: u32 = 0;
        // SAFETY: stmxcsr stores the SSE control register to memory.
        unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack)) };
        v
    }

    pub fn set(v: u32) {
        // SAFETY: ldmxcsr loads the SSE control register from memory.
        unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack)) };
    }
}

/// Sets FTZ and DAZ on this thread (for good: worker threads).
pub fn set_flush_denormals() {
    #[cfg(target_arch = "x86_64")]
    mxcsr::set(mxcsr::get() | mxcsr::FLUSH);
}

/// FTZ and DAZ on this thread until dropped, then the previous mode.
pub struct FlushDenormals {
    #[cfg(target_arch = "x86_64")]
    previous: u32,
}

impl FlushDenormals {
    pub fn new() -> FlushDenormals {
        #[cfg(target_arch = "x86_64")]
        {
            let previous = mxcsr::get();
            mxcsr::set(previous | mxcsr::FLUSH);
            FlushDenormals { previous }
        }
        #[cfg(not(target_arch = "x86_64"))]
        FlushDenormals {}
    }
}

impl Default for FlushDenormals {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        mxcsr::set(self.previous);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn workers_and_scoped_threads_flush_denormals() {
        let tiny = std::hint::black_box(1e-40f32);
        let on_worker = super::pool().install(|| std::hint::black_box(tiny) * std::hint::black_box(1.0f32));
        assert_eq!(on_worker, 0.0);
        {
            let _flush = super::FlushDenormals::new();
            assert_eq!(std::hint::black_box(tiny) * std::hint::black_box(1.0f32), 0.0);
        }
        assert!(std::hint::black_box(tiny) * std::hint::black_box(1.0f32) > 0.0);
    }

    #[test]
    fn small_work_runs_on_the_calling_thread_large_work_on_the_pool() {
        let me = std::thread::current().id();
        assert_eq!(super::run(1000, || std::thread::current().id()), me);
        if super::threads() > 1 {
            let name = super::run(super::INLINE_WORK, || std::thread::current().name().map(str::to_string));
            assert!(name.is_some_and(|n| n.starts_with("rxla-cpu-")));
        }
    }
}
