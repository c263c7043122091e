//! Differential test of every Rust pass: each public oracle case is run
//! through each pass alone and through all of them in sequence, and the
//! reference interpreter must give the same outputs before and after:
//! bit-identical for passes declared exact (`HloPass::EXACT`), within the
//! case's tolerance (meta.json's atol/rtol, check.py's rule) otherwise.
//!
//! `RXLA_PASSES=a,b` limits the single-pass runs to those passes (the
//! all-passes run still runs); a pipeline that leaves the module text
//! unchanged is not re-evaluated.

use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
};
use rxla_interpreter::{npy, Data, Interpreter, Literal};
use rxla_ir::PassOptions;
use rxla_passes::pipeline::{hlo_pipeline, pass_names, Platform};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/oracle/cases");
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(&root) {
        Ok(entries) => entries.flatten().map(|e| e.path()).filter(|p| p.join("module.hlo").exists()).collect(),
        Err(e) => panic!("the oracle corpus is missing: {}: {e}", root.display()),
    };
    dirs.sort();
    dirs
}

/// Runs the module's entry computation on the case's inputs.
fn evaluate(module: &Module, case: &Path) -> Result<Literal, String> {
    let ast = rxla_translate::export::export_ast(module).map_err(|e| e.to_string())?;
    let entry = &ast.computations[ast.entry];
    let args = npy::read_args(case.join("inputs.npz"), &npy::parameter_shapes(entry)).map_err(|e| e.to_string())?;
    Interpreter::new(&ast).run(&args).map_err(|e| e.to_string())
}

/// Bit-for-bit equality (NaN equals a NaN with the same bits).
fn identical(a: &Literal, b: &Literal) -> bool {
    fn bits<T: Copy, U: PartialEq>(x: &[T], y: &[T], f: impl Fn(T) -> U) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(*p) == f(*q))
    }
    match (a, b) {
        (Literal::Array { dims: da, data: x }, Literal::Array { dims: db, data: y }) => {
            da == db
                && match (x, y) {
                    (Data::F32(x), Data::F32(y)) => bits(x, y, f32::to_bits),
                    (Data::F64(x), Data::F64(y)) => bits(x, y, f64::to_bits),
                    (Data::F16(x), Data::F16(y)) => bits(x, y, |v| v.to_bits()),
                    (Data::Bf16(x), Data::Bf16(y)) => bits(x, y, |v| v.to_bits()),
                    (Data::C64(x), Data::C64(y)) => bits(x, y, |v| (v.re.to_bits(), v.im.to_bits())),
                    (Data::C128(x), Data::C128(y)) => bits(x, y, |v| (v.re.to_bits(), v.im.to_bits())),
                    (x, y) => x == y,
                }
        }
        (Literal::Tuple(x), Literal::Tuple(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q)),
        (Literal::Token, Literal::Token) => true,
        _ => false,
    }
}

/// Agreement within `atol + rtol * |expected|` (NaN = NaN, infinities
/// exact), check.py's rule; integers and preds exactly.
fn close(a: &Literal, b: &Literal, atol: f64, rtol: f64) -> bool {
    fn ok(x: f64, y: f64, atol: f64, rtol: f64) -> bool {
        if x.is_nan() || y.is_nan() {
            return x.is_nan() && y.is_nan();
        }
        if x.is_infinite() || y.is_infinite() {
            return x == y;
        }
        (x - y).abs() <= atol + rtol * y.abs()
    }
    fn all<T: Copy>(x: &[T], y: &[T], f: impl Fn(T) -> f64, atol: f64, rtol: f64) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| ok(f(*p), f(*q), atol, rtol))
    }
    match (a, b) {
        (Literal::Array { dims: da, data: x }, Literal::Array { dims: db, data: y }) => {
            da == db
                && match (x, y) {
                    (Data::F32(x), Data::F32(y)) => all(x, y, |v| v as f64, atol, rtol),
                    (Data::F64(x), Data::F64(y)) => all(x, y, |v| v, atol, rtol),
                    (Data::F16(x), Data::F16(y)) => all(x, y, |v| v.to_f64(), atol, rtol),
                    (Data::Bf16(x), Data::Bf16(y)) => all(x, y, |v| v.to_f64(), atol, rtol),
                    (Data::C64(x), Data::C64(y)) => {
                        all(x, y, |v| v.re as f64, atol, rtol) && all(x, y, |v| v.im as f64, atol, rtol)
                    }
                    (Data::C128(x), Data::C128(y)) => {
                        all(x, y, |v| v.re, atol, rtol) && all(x, y, |v| v.im, atol, rtol)
                    }
                    _ => identical(a, b),
                }
        }
        (Literal::Tuple(x), Literal::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| close(p, q, atol, rtol))
        }
        _ => identical(a, b),
    }
}

/// The case's (atol, rtol) from meta.json.
fn tolerance(case: &Path) -> (f64, f64) {
    let meta = std::fs::read_to_string(case.join("meta.json")).unwrap_or_default();
    let field = |name: &str| -> f64 {
        meta.split(&format!("\"{name}\":"))
            .nth(1)
            .and_then(|rest| rest.split([',', '}', '\n']).next())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0)
    };
    (field("atol"), field("rtol"))
}

/// A pipeline under test: one pass, all passes, or a platform's HLO pipeline.
enum Pipeline<'a> {
    Passes(Vec<&'a str>),
    Platform(Platform),
}

impl Pipeline<'_> {
    fn label(&self) -> String {
        match self {
            Pipeline::Passes(p) => format!("{p:?}"),
            Pipeline::Platform(p) => format!("--stage=hlo --platform={}", p.name()),
        }
    }

    fn exact(&self) -> bool {
        let names = match self {
            Pipeline::Passes(p) => p.clone(),
            Pipeline::Platform(p) => pass_names(&hlo_pipeline(*p)),
        };
        names.iter().all(|p| rxla_passes::lookup(p).is_some_and(|i| i.exact))
    }

    fn run<'c>(&self, context: &'c melior::Context, module: &mut Module<'c>) -> Result<(), String> {
        match self {
            Pipeline::Passes(names) => run_passes(context, module, names),
            Pipeline::Platform(p) => {
                let mut options = rxla_passes::pipeline::RunOptions { verify_each: true, ..Default::default() };
                rxla_passes::pipeline::run(context, module, &hlo_pipeline(*p), &mut options).map_err(|e| e.to_string())
            }
        }
    }
}

fn run_passes<'c>(context: &'c melior::Context, module: &mut Module<'c>, names: &[&str]) -> Result<(), String> {
    let manager = PassManager::new(context);
    manager.enable_verifier(true);
    for name in names {
        let info = rxla_passes::lookup(name).ok_or_else(|| format!("no pass {name}"))?;
        manager.add_pass((info.create)(&PassOptions::default()).map_err(|e| e.to_string())?);
    }
    manager.run(module).map_err(|e| format!("{names:?} failed: {e}"))
}

#[test]
fn passes_preserve_interpreter_results_on_the_oracle_corpus() {
    let cases = cases();
    assert!(!cases.is_empty(), "the oracle corpus (the repository's test/oracle) has no cases");
    let context = rxla_dialects::create_context();
    // `test-*` passes change results on purpose (they test the tools).
    let all: Vec<&str> = rxla_passes::registry().iter().map(|p| p.name).filter(|n| !n.starts_with("test-")).collect();
    let only: Option<Vec<String>> =
        std::env::var("RXLA_PASSES").ok().map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let mut pipelines: Vec<Pipeline> = all
        .iter()
        .filter(|p| only.as_ref().is_none_or(|o| o.iter().any(|n| n == *p)))
        .map(|p| Pipeline::Passes(vec![*p]))
        .collect();
    pipelines.push(Pipeline::Passes(all.clone()));
    // The platform pipelines once every pass they name exists.
    for platform in [Platform::Cpu, Platform::Gpu] {
        let missing: Vec<&str> =
            pass_names(&hlo_pipeline(platform)).into_iter().filter(|p| rxla_passes::lookup(p).is_none()).collect();
        if missing.is_empty() {
            pipelines.push(Pipeline::Platform(platform));
        } else {
            eprintln!("note: the {} pipeline is not checked: passes {missing:?} are not registered", platform.name());
        }
    }

    let mut failures = Vec::new();
    let mut checked = 0;
    let mut unchanged = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(case.join("module.hlo")).unwrap();
        let file = case.join("module.hlo").display().to_string();
        let reference = match rxla_translate::import_hlo_text(&context, &text, &file) {
            Ok(module) => evaluate(&module, case),
            Err(e) => Err(e.render(&file)),
        };
        let reference = match reference {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference run failed: {e}"));
                continue;
            }
        };
        let (atol, rtol) = tolerance(case);
        for pipeline in &pipelines {
            let mut module = rxla_translate::import_hlo_text(&context, &text, &file).unwrap();
            let before = module.as_operation().to_string();
            let result = pipeline.run(&context, &mut module).and_then(|_| {
                if !module.as_operation().verify() {
                    return Err("module does not verify after the passes".into());
                }
                if module.as_operation().to_string() == before {
                    return Ok(None);
                }
                evaluate(&module, case).map(Some)
            });
            match result {
                Ok(None) => unchanged += 1,
                Ok(Some(after)) if identical(&after, &reference) => checked += 1,
                Ok(Some(after)) if !pipeline.exact() && close(&after, &reference, atol, rtol) => checked += 1,
                Ok(Some(_)) => failures.push(format!(
                    "{name}: {} changed the result{}",
                    pipeline.label(),
                    if pipeline.exact() { " (bit-exact required)" } else { "" }
                )),
                Err(e) => failures.push(format!("{name}: {}: {e}", pipeline.label())),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{checked} (case, pipeline) pairs changed the module and agree; {unchanged} left it unchanged");
}
