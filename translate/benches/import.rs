//! Import speed on a synthetic module of 100,000 instructions:
//! `cargo bench -p rxla-translate --bench import`.
//!
//! Reports the time of each stage (HLO text -> syntax tree -> MLIR text ->
//! verified MLIR module) and of the export back to HLO text, as the median
//! of a few runs.

use std::time::{Duration, Instant};

/// A module of `n` instructions: parameters, constants, broadcasts,
/// elementwise chains, reductions with a called computation, tuples.
fn synthetic_module(n: usize) -> String {
    let mut text = String::from(
        "HloModule synthetic, entry_computation_layout={(f32[64,128]{1,0}, f32[128]{0})->f32[64]{0}}\n\n\
         %add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n\n\
         ENTRY %main (x: f32[64,128], v: f32[128]) -> f32[64] {\n  %x = f32[64,128]{1,0} parameter(0)\n  %v = f32[128]{0} parameter(1)\n  %zero = f32[] constant(0)\n",
    );
    let mut last = "x".to_string();
    let mut i = 0;
    while i < n {
        let k = i;
        match k % 8 {
            0 => text += &format!("  %b{k} = f32[64,128]{{1,0}} broadcast(%v), dimensions={{1}}\n  %e{k} = f32[64,128]{{1,0}} add(%{last}, %b{k})\n"),
            1 => text += &format!("  %e{k} = f32[64,128]{{1,0}} multiply(%{last}, %{last})\n"),
            2 => text += &format!("  %c{k} = f32[] constant(0.5)\n  %cb{k} = f32[64,128]{{1,0}} broadcast(%c{k}), dimensions={{}}\n  %e{k} = f32[64,128]{{1,0}} maximum(%{last}, %cb{k})\n"),
            3 => text += &format!("  %e{k} = f32[64,128]{{1,0}} tanh(%{last})\n"),
            4 => text += &format!("  %r{k} = f32[64]{{0}} reduce(%{last}, %zero), dimensions={{1}}, to_apply=%add\n  %rb{k} = f32[64,128]{{1,0}} broadcast(%r{k}), dimensions={{0}}\n  %e{k} = f32[64,128]{{1,0}} subtract(%{last}, %rb{k})\n"),
            5 => text += &format!("  %t{k} = (f32[64,128]{{1,0}}, f32[]) tuple(%{last}, %zero)\n  %e{k} = f32[64,128]{{1,0}} get-tuple-element(%t{k}), index=0\n"),
            6 => text += &format!("  %e{k} = f32[64,128]{{1,0}} exponential(%{last})\n"),
            _ => text += &format!("  %p{k} = pred[64,128]{{1,0}} compare(%{last}, %x), direction=GT\n  %e{k} = f32[64,128]{{1,0}} select(%p{k}, %{last}, %x)\n"),
        }
        i += match k % 8 { 0 | 5 | 7 => 2, 2 | 4 => 3, _ => 1 };
        last = format!("e{k}");
    }
    text += &format!("  ROOT %out = f32[64]{{0}} reduce(%{last}, %zero), dimensions={{1}}, to_apply=%add\n}}\n");
    text
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let text = synthetic_module(100_000);
    let instructions = text.lines().filter(|l| l.contains(" = ")).count();
    let context = rxla_dialects::create_context();
    let (mut syntax, mut lowering, mut mlir, mut total, mut export) = (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..5 {
        let start = Instant::now();
        let ast = rxla_hlo_text::parse_module(&text).expect("synthetic module parses");
        let t1 = Instant::now();
        let mlir_text = rxla_translate::import::to_mlir_text(&ast, "synthetic.hlo").expect("imports");
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
