//! Timing of elementwise kernels on 16M elements (`cargo bench -p rxla-interpreter --bench elementwise`).

use rxla_interpreter::{Data, Interpreter, Literal};
use std::time::Instant;

const N: usize = 1 << 24;

fn time(label: &str, hlo: &str, args: &[Literal]) -> Literal {
    let module = rxla_hlo_text::parse_module(hlo).unwrap();
    let start = Instant::now();
    let out = Interpreter::new(&module).run(args).unwrap();
    println!("{label:<28} {:>8.3} s", start.elapsed().as_secs_f64());
    out
}

fn unary_module(t: &str, out: &str, body: &str) -> String {
    format!("HloModule m\n\nENTRY e {{\n  p0 = {t}[{N}] parameter(0)\n  ROOT r = {out}[{N}] {body}\n}}\n")
}

fn binary_module(t: &str, out: &str, body: &str) -> String {
    format!(
        "HloModule m\n\nENTRY e {{\n  p0 = {t}[{N}] parameter(0)\n  p1 = {t}[{N}] parameter(1)\n  ROOT r = {out}[{N}] {body}\n}}\n"
    )
}

fn main() {
    let x: Vec<f32> = (0..N).map(|i| ((i as f32) * 0.000123).sin() * 3.0).collect();
    let xs = Literal::array(vec![N as i64], Data::F32(x.clone()));
    let ys = Literal::array(vec![N as i64], Data::F32(x.iter().map(|v| v * 0.5 + 1.0).collect()));
    let ints = Literal::array(vec![N as i64], Data::S32((0..N as i32).collect()));
    let bf = Literal::array(vec![N as i64], Data::Bf16(x.iter().map(|&v| half::bf16::from_f32(v)).collect()));

    time("add f32", &binary_module("f32", "f32", "add(p0, p1)"), &[xs.clone(), ys.clone()]);
    time("multiply f32", &binary_module("f32", "f32", "multiply(p0, p1)"), &[xs.clone(), ys.clone()]);
    time("maximum f32", &binary_module("f32", "f32", "maximum(p0, p1)"), &[xs.clone(), ys.clone()]);
    time("compare f32", &binary_module("f32", "pred", "compare(p0, p1), direction=LT"), &[xs.clone(), ys.clone()]);
    time("tanh f32", &unary_module("f32", "f32", "tanh(p0)"), std::slice::from_ref(&xs));
    time("exponential f32", &unary_module("f32", "f32", "exponential(p0)"), std::slice::from_ref(&xs));
    time("erf f32", &unary_module("f32", "f32", "erf(p0)"), std::slice::from_ref(&xs));
    time("add s32", &binary_module("s32", "s32", "add(p0, p1)"), &[ints.clone(), ints.clone()]);
    time("divide s32", &binary_module("s32", "s32", "divide(p0, p1)"), &[ints.clone(), ints.clone()]);
    time("add bf16", &binary_module("bf16", "bf16", "add(p0, p1)"), &[bf.clone(), bf.clone()]);
    time("convert f32->bf16", &unary_module("f32", "bf16", "convert(p0)"), std::slice::from_ref(&xs));
    time("convert f32->s32", &unary_module("f32", "s32", "convert(p0)"), std::slice::from_ref(&xs));
    time("convert s32->f16", &unary_module("s32", "f16", "convert(p0)"), std::slice::from_ref(&ints));
    time("convert f32->f8e4m3fn", &unary_module("f32", "f8e4m3fn", "convert(p0)"), std::slice::from_ref(&xs));
    time("bitcast-convert f32->u32", &unary_module("f32", "u32", "bitcast-convert(p0)"), std::slice::from_ref(&xs));
    let iota = "HloModule m\n\nENTRY e {\n  ROOT r = f32[4096,4096] iota(), iota_dimension=1\n}\n";
    time("iota f32 4096x4096", iota, &[]);
    let select = format!(
        "HloModule m\n\nENTRY e {{\n  p0 = f32[{N}] parameter(0)\n  p1 = f32[{N}] parameter(1)\n  \
         c = pred[{N}] compare(p0, p1), direction=GT\n  ROOT r = f32[{N}] select(c, p0, p1)\n}}\n"
    );
    time("compare+select f32", &select, &[xs.clone(), ys.clone()]);
    let gelu = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../test/oracle/bench/bench_gelu_16m_f32/module.hlo"
    ));
    if let Ok(gelu) = gelu {
        time("bench_gelu_16m_f32", &gelu, &[xs]);
    }
}
