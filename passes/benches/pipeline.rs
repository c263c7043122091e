//! Compile-time scaling of the HLO pipelines:
//! `cargo bench -p rxla-passes --bench pipeline`.
//!
//! Runs the full CPU and GPU HLO pipelines (`--stage=hlo`) on the largest
//! public oracle module and on synthetic modules of 10k, 30k and 100k
//! instructions, reporting the median of a few runs, the time per
//! instruction (flat when the pipeline is linear) and the passes that take
//! the most time. Pass names a pipeline lists but the registry lacks are
//! skipped and reported.

use rxla_passes::pipeline::{hlo_pipeline, pass_names, run, Platform, RunOptions};
use std::{
    collections::BTreeMap,
    path::Path,
    time::{Duration, Instant},
};

fn instructions(text: &str) -> usize {
    text.lines().filter(|l| l.contains(" = ") && !l.trim_start().starts_with("HloModule")).count()
}

/// The largest module (by instruction count) of the oracle's cases and
/// benchmarks.
fn largest_oracle_module() -> Option<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/oracle");
    let mut best: Option<(usize, String, String)> = None;
    for dir in ["cases", "bench"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.flatten() {
            let path = entry.path().join("module.hlo");
            if let Ok(text) = std::fs::read_to_string(&path) {
                let n = instructions(&text);
                if best.as_ref().is_none_or(|(m, _, _)| n > *m) {
                    best = Some((n, entry.file_name().to_string_lossy().to_string(), text));
                }
            }
        }
    }
    best.map(|(_, name, text)| (name, text))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench(label: &str, text: &str, platform: Platform, runs: usize, missing: &[&str]) {
    let context = rxla_dialects::create_context();
    let steps = hlo_pipeline(platform);
    let n = instructions(text);
    let mut times = Vec::new();
    let mut per_pass: BTreeMap<&str, Duration> = BTreeMap::new();
    for run_index in 0..runs {
        let mut module = rxla_translate::import_hlo_text(&context, text, label).expect("imports");
        let mut timings = Vec::new();
        let mut options = RunOptions { disabled: missing, verify_each: false, timings: Some(&mut timings) };
        let start = Instant::now();
        run(&context, &mut module, &steps, &mut options).unwrap_or_else(|e| panic!("{label}: {e}"));
        times.push(start.elapsed());
        if run_index == 0 {
            for (name, t) in timings {
                *per_pass.entry(name).or_default() += t;
            }
        }
    }
    let t = median(times);
    let mut top: Vec<(&str, Duration)> = per_pass.into_iter().collect();
    top.sort_by_key(|b| std::cmp::Reverse(b.1));
    let top: Vec<String> = top.iter().take(4).map(|(n, d)| format!("{n} {:.0} ms", d.as_secs_f64() * 1e3)).collect();
    println!(
        "{label:<34} {:<4} {n:>7} instr  {:>9.1} ms  {:>6.2} us/instr  slowest: {}",
        platform.name(),
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() * 1e6 / n.max(1) as f64,
        top.join(", ")
    );
}

fn main() {
    let mut missing: Vec<&str> = Vec::new();
    for platform in [Platform::Cpu, Platform::Gpu] {
        for name in pass_names(&hlo_pipeline(platform)) {
            if rxla_passes::lookup(name).is_none() && !missing.contains(&name) {
                missing.push(name);
            }
        }
    }
    if !missing.is_empty() {
        println!("note: not registered, skipped: {missing:?}");
    }
    for platform in [Platform::Cpu, Platform::Gpu] {
        if let Some((name, text)) = largest_oracle_module() {
            bench(&format!("oracle {name}"), &text, platform, 5, &missing);
        }
        for n in [10_000, 30_000, 100_000] {
            let text = rxla_hlo_text::synthetic::synthetic_module(n);
            bench(&format!("synthetic {n}"), &text, platform, 3, &missing);
        }
    }
}
