//! Every public oracle case through the default GPU and CPU HLO pipelines
//! and then the emitters: every fusion must emit and its kernel must
//! parse and verify. Prints the number of kernels per emitter kind (and
//! the loop-emitter fallbacks with their reasons) for each platform.
//!
//! `RXLA_ORACLE_FILTER=substring` limits the cases; `RXLA_ORACLE_VERBOSE=1`
//! prints each case's kernels.

use melior::ir::Module;
use rxla_emitters::{choose::EmitterKind, Target};
use rxla_ir::op::Op;
use rxla_passes::pipeline::{hlo_pipeline, Platform};
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/oracle/cases");
    let filter = std::env::var("RXLA_ORACLE_FILTER").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(&root) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("module.hlo").exists())
            .filter(|p| p.to_string_lossy().contains(&filter))
            .collect(),
        Err(e) => panic!("the oracle corpus is missing: {}: {e}", root.display()),
    };
    dirs.sort();
    dirs
}

#[derive(Default)]
struct Counts {
    cases: usize,
    fusions: usize,
    by_kind: BTreeMap<&'static str, usize>,
    fallbacks: BTreeMap<String, usize>,
    failures: Vec<String>,
}

fn run_platform(platform: Platform, target: &Target) -> Counts {
    let verbose = std::env::var("RXLA_ORACLE_VERBOSE").is_ok();
    let mut counts = Counts::default();
    melior::utility::register_all_passes();
    let context = rxla_dialects::create_context();
    context.enable_multi_threading(false);
    for case in cases() {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(case.join("module.hlo")).unwrap();
        let mut module: Module = match rxla_translate::import_hlo_text(&context, &text, &name) {
            Ok(m) => m,
            Err(_) => {
                counts.failures.push(format!("{name}: does not import"));
                continue;
            }
        };
        let mut options = rxla_passes::pipeline::RunOptions { verify_each: true, ..Default::default() };
        if let Err(e) = rxla_passes::pipeline::run(&context, &mut module, &hlo_pipeline(platform), &mut options) {
            counts.failures.push(format!("{name}: HLO pipeline: {e}"));
            continue;
        }
        counts.cases += 1;
        let op = Op::of(&module.as_operation());
        for result in rxla_emitters::emit_module(op, target) {
            counts.fusions += 1;
            match result {
                Err(e) => counts.failures.push(format!("{name}: {e}")),
                Ok(kernel) => match kernel.module.verify() {
                    Err(e) => counts.failures.push(format!("{name}: {e}")),
                    Ok(_) => {
                        *counts.by_kind.entry(kernel.kind.name()).or_default() += 1;
                        if let Some(reason) = &kernel.fallback {
                            // Group reasons by their first line, without sizes.
                            let key: String = reason.chars().filter(|c| !c.is_ascii_digit()).collect();
                            *counts.fallbacks.entry(key).or_default() += 1;
                        }
                        if verbose {
                            println!("{name}: @{} {} ({})", kernel.name, kernel.kind.name(), kernel.grid.describe());
                        }
                    }
                },
            }
        }
    }
    counts
}

fn report(platform: &str, c: &Counts) -> String {
    let mut s = format!("{platform}: {} cases, {} fusions\n", c.cases, c.fusions);
    for kind in EmitterKind::ALL {
        s.push_str(&format!("  {:32} {}\n", kind.name(), c.by_kind.get(kind.name()).copied().unwrap_or(0)));
    }
    for (reason, n) in &c.fallbacks {
        s.push_str(&format!("  loop instead: {reason} ({n}x)\n"));
    }
    s.push_str(&format!("  failures: {}\n", c.failures.len()));
    for f in &c.failures {
        s.push_str(&format!("    {f}\n"));
    }
    s
}

#[test]
fn every_oracle_fusion_emits_and_verifies() {
    assert!(!cases().is_empty(), "no oracle case matches RXLA_ORACLE_FILTER");
    let gpu = run_platform(Platform::Gpu, &Target::default_gpu());
    let cpu = run_platform(Platform::Cpu, &Target::default_cpu());
    let text = format!("{}{}", report("gpu (sm_90)", &gpu), report("cpu", &cpu));
    println!("{text}");
    assert!(gpu.failures.is_empty() && cpu.failures.is_empty(), "fusions that do not emit or verify:\n{text}");
}
