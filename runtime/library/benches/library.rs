//! Library kernel timings (median of N runs) with GFLOP/s, next to
//! XLA:CPU's times on the 2-core development machine:
//! `CARGO_TARGET_DIR=/work/target-library cargo bench -p rxla-library`.

use rxla_library::array::{ArrayMut, ArrayRef, Buffer, ElementType};
use rxla_library::conv::{convolution, ConvDims, WindowDim};
use rxla_library::dot::{dot, DotDims};
use rxla_library::fft::{fft, FftKind};
use rxla_library::sort::sort;
use std::time::Instant;

/// A buffer of `n` pseudo-random f32 in [-1, 1).
fn random_f32(n: usize, seed: u64) -> Buffer {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let v: Vec<u8> = (0..n)
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (((x >> 40) as f32 / (1u64 << 23) as f32) - 1.0).to_le_bytes()
        })
        .collect();
    Buffer::from_bytes(&v)
}

/// Median wall time in seconds of `runs` calls (after one warm-up call).
fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[runs / 2]
}

/// Benchmarks whose name contains `$LIBRARY_BENCH` (all when unset).
fn selected(name: &str) -> bool {
    std::env::var("LIBRARY_BENCH").map(|f| name.contains(&f)).unwrap_or(true)
}

fn report(name: &str, secs: f64, flops: f64, xla_ms: Option<f64>) {
    let xla = xla_ms.map(|ms| format!("  (XLA:CPU {ms} ms)")).unwrap_or_default();
    if flops > 0.0 {
        println!("{name:<44} {:>9.2} ms {:>8.1} GFLOP/s{xla}", secs * 1e3, flops / secs / 1e9);
    } else {
        println!("{name:<44} {:>9.2} ms{xla}", secs * 1e3);
    }
}

#[allow(clippy::too_many_arguments)]
fn bench_dot(
    name: &str,
    ld: &[i64],
    rd: &[i64],
    od: &[i64],
    dims: &DotDims,
    k: usize,
    runs: usize,
    xla_ms: Option<f64>,
) {
    if !selected(name) {
        return;
    }
    let n = |d: &[i64]| d.iter().product::<i64>() as usize;
    let (a, b) = (random_f32(n(ld), 1), random_f32(n(rd), 2));
    let mut out = Buffer::zeroed(n(od) * 4);
    let secs = median(runs, || {
        dot(
            ArrayRef::new(ElementType::F32, ld, a.as_slice()),
            ArrayRef::new(ElementType::F32, rd, b.as_slice()),
            ArrayMut::new(ElementType::F32, od, out.as_mut_slice()),
            dims,
        )
        .unwrap()
    });
    report(name, secs, 2.0 * n(od) as f64 * k as f64, xla_ms);
}

fn main() {
    println!("rayon threads: {}", rayon::current_num_threads());
    let mm = DotDims::matmul();
    bench_dot("dot f32 1024^3", &[1024, 1024], &[1024, 1024], &[1024, 1024], &mm, 1024, 21, Some(7.4));
    bench_dot("dot f32 2048^3", &[2048, 2048], &[2048, 2048], &[2048, 2048], &mm, 2048, 7, Some(63.0));
    let bmm = DotDims { lhs_batch: vec![0], rhs_batch: vec![0], lhs_contracting: vec![2], rhs_contracting: vec![1] };
    bench_dot("batch dot f32 32x512^3", &[32, 512, 512], &[32, 512, 512], &[32, 512, 512], &bmm, 512, 7, Some(51.0));
    let qk = DotDims { lhs_batch: vec![0], rhs_batch: vec![0], lhs_contracting: vec![2], rhs_contracting: vec![2] };
    bench_dot(
        "attention q.k^T [16,1024,64]x[16,1024,64]",
        &[16, 1024, 64],
        &[16, 1024, 64],
        &[16, 1024, 1024],
        &qk,
        64,
        7,
        None,
    );
    bench_dot(
        "attention p.v [16,1024,1024]x[16,1024,64]",
        &[16, 1024, 1024],
        &[16, 1024, 64],
        &[16, 1024, 64],
        &bmm,
        1024,
        7,
        None,
    );

    // ResNet 3x3 convolution, NHWC x HWIO -> NHWC, pad 1.
    if selected("conv") {
        let (ld, rd, od) = ([8i64, 56, 56, 64], [3i64, 3, 64, 64], [8i64, 56, 56, 64]);
        let (x, w) = (random_f32(8 * 56 * 56 * 64, 3), random_f32(3 * 3 * 64 * 64, 4));
        let mut out = Buffer::zeroed(8 * 56 * 56 * 64 * 4);
        let dims = ConvDims {
            input_batch: 0,
            input_feature: 3,
            input_spatial: vec![1, 2],
            kernel_input_feature: 2,
            kernel_output_feature: 3,
            kernel_spatial: vec![0, 1],
            output_batch: 0,
            output_feature: 3,
            output_spatial: vec![1, 2],
        };
        let win = WindowDim { pad_low: 1, pad_high: 1, ..WindowDim::new(3) };
        let secs = median(15, || {
            convolution(
                ArrayRef::new(ElementType::F32, &ld, x.as_slice()),
                ArrayRef::new(ElementType::F32, &rd, w.as_slice()),
                ArrayMut::new(ElementType::F32, &od, out.as_mut_slice()),
                &dims,
                &[win, win],
                1,
                1,
            )
            .unwrap()
        });
        report("conv f32 [8,56,56,64] 3x3x64x64 pad 1", secs, 2.0 * (8 * 56 * 56 * 64) as f64 * 576.0, Some(14.0));
    }

    // Sorts of 4M f32 with a total-order comparator closure.
    if selected("sort") {
        let n = 4 << 20;
        let keys = random_f32(n, 5);
        let total = |p: &[*const u8]| {
            let key = |q: *const u8| {
                // SAFETY: the sort passes pointers to f32 elements.
                let i = unsafe { (q as *const i32).read() };
                if i < 0 {
                    i ^ 0x7fff_ffff
                } else {
                    i
                }
            };
            key(p[0]) < key(p[1])
        };
        let d = [n as i64];
        let secs = median(5, || {
            let mut k = keys.clone();
            sort(&mut [ArrayMut::new(ElementType::F32, &d, k.as_mut_slice())], 0, &total).unwrap();
        });
        report("sort 4M f32 (total order closure)", secs, 0.0, Some(1250.0));
        let values = random_f32(n, 6);
        let secs = median(5, || {
            let (mut k, mut v) = (keys.clone(), values.clone());
            sort(
                &mut [
                    ArrayMut::new(ElementType::F32, &d, k.as_mut_slice()),
                    ArrayMut::new(ElementType::S32, &d, v.as_mut_slice()),
                ],
                0,
                &total,
            )
            .unwrap();
        });
        report("sort 4M f32 + s32 operand", secs, 0.0, None);
    }

    // FFT of 256 lines of 4096 (c64), 5 n log2 n flops.
    if selected("fft") {
        let x = random_f32(256 * 4096 * 2, 7);
        let mut out = Buffer::zeroed(256 * 4096 * 8);
        let secs = median(11, || {
            fft(
                ArrayRef::new(ElementType::C64, &[256, 4096], x.as_slice()),
                ArrayMut::new(ElementType::C64, &[256, 4096], out.as_mut_slice()),
                FftKind::Fft,
                &[4096],
            )
            .unwrap()
        });
        report("fft c64 [256,4096]", secs, 5.0 * 256.0 * 4096.0 * 12.0, None);
    }
}
