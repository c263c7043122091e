//! Times the interpreter's dot kernel: `cargo bench -p rxla-interpreter --bench dot`.
//!
//! A 1024x1024x1024 f32 matrix product (the size of the oracle's matmul
//! benchmark), then a batched and an f64 one; prints seconds and GFLOP/s.

use rxla_interpreter::{Data, Interpreter, Literal};
use std::time::Instant;

fn matrix(dims: &[i64], seed: u32) -> Vec<f32> {
    let n: i64 = dims.iter().product();
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

fn time_dot(label: &str, text: &str, args: Vec<Literal>, flops: f64) {
    let module = rxla_hlo_text::parse_module(text).expect("module parses");
    let interpreter = Interpreter::new(&module);
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let out = interpreter.run(&args).expect("dot runs");
        best = best.min(start.elapsed().as_secs_f64());
        std::hint::black_box(out);
    }
    println!("{label}: {best:.3} s ({:.2} GFLOP/s, best of 3)", flops / best / 1e9);
}

fn main() {
    let n = 1024i64;
    let f32_args = vec![
        Literal::array(vec![n, n], Data::F32(matrix(&[n, n], 1))),
        Literal::array(vec![n, n], Data::F32(matrix(&[n, n], 2))),
    ];
    time_dot(
        "dot f32 1024x1024x1024",
        "HloModule m\n\nENTRY e {\n  a = f32[1024,1024] parameter(0)\n  b = f32[1024,1024] parameter(1)\n  ROOT d = f32[1024,1024] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
        f32_args,
        2.0 * (n * n * n) as f64,
    );
    let (b, m) = (16i64, 256i64);
    let batch_args = vec![
        Literal::array(vec![b, m, m], Data::F32(matrix(&[b, m, m], 3))),
        Literal::array(vec![b, m, m], Data::F32(matrix(&[b, m, m], 4))),
    ];
    time_dot(
        "dot f32 batch 16x256x256x256 (rhs transposed)",
        "HloModule m\n\nENTRY e {\n  a = f32[16,256,256] parameter(0)\n  b = f32[16,256,256] parameter(1)\n  ROOT d = f32[16,256,256] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}\n}\n",
        batch_args,
        2.0 * (b * m * m * m) as f64,
    );
    let k = 512i64;
    let f64_args = vec![
        Literal::array(vec![k, k], Data::F64(matrix(&[k, k], 5).into_iter().map(f64::from).collect())),
        Literal::array(vec![k, k], Data::F64(matrix(&[k, k], 6).into_iter().map(f64::from).collect())),
    ];
    time_dot(
        "dot f64 512x512x512",
        "HloModule m\n\nENTRY e {\n  a = f64[512,512] parameter(0)\n  b = f64[512,512] parameter(1)\n  ROOT d = f64[512,512] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
        f64_args,
        2.0 * (k * k * k) as f64,
    );
}
