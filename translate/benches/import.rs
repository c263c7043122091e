//! Import speed on a synthetic module of 100,000 instructions:
//! `cargo bench -p rxla-translate --bench import`.
//!
//! Reports the time of each stage (HLO text -> syntax tree -> MLIR text ->
//! verified MLIR module) and of the export back to HLO text, as the median
//! of a few runs.

use std::time::{Duration, Instant};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let text = rxla_hlo_text::synthetic::synthetic_module(100_000);
    let instructions = text.lines().filter(|l| l.contains(" = ")).count();
    let context = rxla_dialects::create_context();
    let (mut syntax, mut lowering, mut mlir, mut total, mut export) = (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..5 {
        let start = Instant::now();
        let ast = rxla_hlo_text::parse_module(&text).expect("synthetic module parses");
        let t1 = Instant::now();
        let (mlir_text, _) = rxla_translate::import::to_mlir_text(&ast, "synthetic.hlo").expect("imports");
        let t2 = Instant::now();
        let module = melior::ir::Module::parse(&context, &mlir_text).expect("verifies");
        let t3 = Instant::now();
        let hlo = rxla_translate::export_hlo_text(&module).expect("exports");
        let t4 = Instant::now();
        assert!(hlo.len() > text.len() / 2);
        syntax.push(t1 - start);
        lowering.push(t2 - t1);
        mlir.push(t3 - t2);
        total.push(t3 - start);
        export.push(t4 - t3);
    }
    println!("synthetic module: {instructions} instructions, {} bytes", text.len());
    println!("  parse HLO text      {:>8.1} ms", median(syntax).as_secs_f64() * 1e3);
    println!("  write MLIR          {:>8.1} ms", median(lowering).as_secs_f64() * 1e3);
    println!("  MLIR parse+verify   {:>8.1} ms", median(mlir).as_secs_f64() * 1e3);
    println!("  import total        {:>8.1} ms", median(total).as_secs_f64() * 1e3);
    println!("  export to HLO text  {:>8.1} ms", median(export).as_secs_f64() * 1e3);
}
