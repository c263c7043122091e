//! Parse and print times for a synthetic 100,000-instruction module.
//!
//! `cargo bench -p rxla-hlo-text` (release). The module mixes what real
//! dumps hold: parameters, constants (scalars and small arrays),
//! broadcasts with `dimensions`, elementwise ops with layouts and
//! metadata, reduces with `to_apply`, and tuples.

use std::time::{Duration, Instant};

use rxla_hlo_text::{parse_module, print_module};

const INSTRUCTIONS: usize = 100_000;
const RUNS: usize = 7;

fn synthetic_module() -> String {
    let mut s = String::with_capacity(INSTRUCTIONS * 120);
    s.push_str("HloModule bench, is_scheduled=true, entry_computation_layout={(f32[128,256]{1,0}, f32[128,256]{1,0})->f32[128]{0}}\n\n");
    s.push_str("%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n\n");
    s.push_str("%max (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %m = f32[] maximum(%a, %b)\n}\n\n");
    s.push_str("ENTRY %main (x: f32[128,256], y: f32[128,256]) -> f32[128] {\n");
    s.push_str("  %x = f32[128,256]{1,0} parameter(0), metadata={op_name=\"x\"}\n");
    s.push_str("  %y = f32[128,256]{1,0} parameter(1), metadata={op_name=\"y\"}\n");
    let mut last = "x".to_string();
    // Numbering starts at 10 so that every reference points backwards; the
    // two small computations, x, y and the root make up the rest.
    let mut n = 10;
    let ops = ["add", "multiply", "subtract", "maximum", "exponential", "tanh", "negate", "divide"];
    while n < 10 + INSTRUCTIONS - 9 {
        let i = n;
        match i % 10 {
            0 => s.push_str(&format!("  %c.{i} = f32[] constant({}.5)\n", i % 97)),
            1 => s.push_str(&format!(
                "  %b.{i} = f32[128,256]{{1,0}} broadcast(f32[] %c.{}), dimensions={{}}\n",
                i - 1
            )),
            2 => s.push_str(&format!("  %v.{i} = f32[4]{{0}} constant({{1, -2.5e-3, inf, {i}}})\n")),
            5 => s.push_str(&format!(
                "  %r.{i} = f32[128]{{0}} reduce(f32[128,256]{{1,0}} %{last}, f32[] %c.{}), dimensions={{1}}, to_apply=%{}\n",
                i - 5,
                if i % 20 == 5 { "add" } else { "max" }
            )),
            6 => s.push_str(&format!(
                "  %rb.{i} = f32[128,256]{{1,0}} broadcast(%r.{}), dimensions={{0}}, metadata={{op_name=\"jit(f)/broadcast_in_dim\" source_file=\"model.py\" source_line={i}}}\n",
                i - 1
            )),
            9 => s.push_str(&format!("  %t.{i} = (f32[128,256]{{1,0}}, f32[]) tuple(%{last}, %c.{})\n", i - 9)),
            k => {
                let op = ops[(i / 10 + k) % ops.len()];
                let binary = !matches!(op, "exponential" | "tanh" | "negate");
                let operand = if k == 7 { format!("rb.{}", i - 1) } else { "y".to_string() };
                if binary {
                    s.push_str(&format!("  %e.{i} = f32[128,256]{{1,0}} {op}(%{last}, %{operand}), metadata={{op_name=\"jit(f)/{op}\"}}\n"));
                } else {
                    s.push_str(&format!("  %e.{i} = f32[128,256]{{1,0}} {op}(%{last})\n"));
                }
                last = format!("e.{i}");
            }
        }
        n += 1;
    }
    s.push_str(&format!(
        "  ROOT %out = f32[128]{{0}} reduce(%{last}, f32[] %c.10), dimensions={{1}}, to_apply=%add\n}}\n\n"
    ));
    s
}

/// Median time of `RUNS` calls; results are dropped outside the timing.
fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(RUNS);
    let mut out = None;
    for _ in 0..RUNS {
        drop(out.take());
        let start = Instant::now();
        out = Some(std::hint::black_box(f()));
        times.push(start.elapsed());
    }
    times.sort();
    (times[RUNS / 2], out.unwrap())
}

fn main() {
    let text = synthetic_module();
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render("synthetic")));
    let count: usize = m.computations.iter().map(|c| c.instructions.len()).sum();
    let mb = text.len() as f64 / 1e6;
    println!("synthetic module: {count} instructions, {mb:.1} MB of text");

    let (lex, tokens) = time(|| {
        let mut lexer = rxla_hlo_text::lexer::Lexer::new(&text);
        let mut n = 0usize;
        while lexer.next_token().unwrap().kind != rxla_hlo_text::lexer::Tok::Eof {
            n += 1;
        }
        n
    });
    let (parse, m) = time(|| parse_module(&text).unwrap());
    let (print, printed) = time(|| print_module(&m));
    assert_eq!(parse_module(&printed).unwrap().without_positions(), m.without_positions());
    let (check, _) = time(|| rxla_hlo_text::attrs::check_module(&m).unwrap());
    let per = |d: Duration| d.as_secs_f64() * 1e9 / count as f64;
    println!("lex:   {:>8.2} ms  ({tokens} tokens, {:.0} MB/s)", lex.as_secs_f64() * 1e3, mb / lex.as_secs_f64());
    println!(
        "parse: {:>8.2} ms  ({:.0} ns/instruction, {:.0} MB/s)",
        parse.as_secs_f64() * 1e3,
        per(parse),
        mb / parse.as_secs_f64()
    );
    println!(
        "print: {:>8.2} ms  ({:.0} ns/instruction, {:.0} MB/s)",
        print.as_secs_f64() * 1e3,
        per(print),
        printed.len() as f64 / 1e6 / print.as_secs_f64()
    );
    println!("check: {:>8.2} ms  (attrs::check_module, every attribute read)", check.as_secs_f64() * 1e3);
    println!("(median of {RUNS} runs)");
}
