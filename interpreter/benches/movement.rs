//! Timing of the movement/reduce benchmark modules of the oracle corpus
//! (`bench/*`) on pseudo-random inputs: `cargo bench -p rxla-interpreter --bench movement`.

use rxla_interpreter::{literal::Data, Interpreter, Literal};
use std::{path::Path, time::Instant};

/// xorshift64* values.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0).collect()
    }
    fn ints(&mut self, n: usize, high: u64) -> Vec<i32> {
        (0..n).map(|_| (self.next() % high) as i32).collect()
    }
}

fn time_bench(name: &str, args: Vec<Literal>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/oracle/bench").join(name).join("module.hlo");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("{name}: no module at {}", path.display());
        return;
    };
    let module = rxla_hlo_text::parse_module(&text).unwrap();
    let start = Instant::now();
    let out = Interpreter::new(&module).run(&args).unwrap();
    eprintln!("{name}: {:.3}s ({} elements out)", start.elapsed().as_secs_f64(), out.element_count());
}

fn f32_array(dims: &[i64], v: Vec<f32>) -> Literal {
    Literal::array(dims.to_vec(), Data::F32(v))
}

fn main() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let big = || f32_array(&[8192, 8192], Rng(7).f32s(8192 * 8192));
    time_bench("bench_transpose_8192x8192_f32", vec![big()]);
    time_bench("bench_reduce_rows_8192x8192_f32", vec![big()]);
    time_bench("bench_reduce_cols_8192x8192_f32", vec![big()]);
    time_bench("bench_sort_4m_f32", vec![f32_array(&[4194304], rng.f32s(4194304))]);
    time_bench(
        "bench_scatter_add_1m_f32",
        vec![
            f32_array(&[1048576], rng.f32s(1048576)),
            Literal::array(vec![4194304], Data::S32(rng.ints(4194304, 1048576))),
            f32_array(&[4194304], rng.f32s(4194304)),
        ],
    );
    time_bench(
        "bench_gather_embedding_f32",
        vec![
            f32_array(&[100000, 256], rng.f32s(100000 * 256)),
            Literal::array(vec![65536], Data::S32(rng.ints(65536, 100000))),
        ],
    );
    time_bench("bench_maxpool_8x112x112x64_f32", vec![f32_array(&[8, 112, 112, 64], rng.f32s(8 * 112 * 112 * 64))]);
}
