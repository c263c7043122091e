//! Every case of the oracle corpus (`test/oracle`) and of the real-model
//! corpus (`test/models`, the same layout) compiled for the
//! host CPU, run on the case's inputs and compared with XLA:CPU's outputs
//! under check.py's rules (`rxla_interpreter::compare`: exact integers and
//! preds; `|got - want| <= atol + rtol * |want|` for floats, NaN == NaN,
//! infinities exact, -0 == +0; complex parts against the modulus) and the
//! case's tolerances from `index.json`.
//!
//! The bar is 95% of the public cases; rxla passes all of them, so
//! the test holds it to `RXLA_ORACLE_MIN_PASS` (default 1.0: every case).
//! Environment: `RXLA_ORACLE_FILTER=<substring>`, `RXLA_ORACLE_MIN_PASS`,
//! `RXLA_ORACLE_DIR`. Cases run two at a time, each on its own thread with
//! a panic caught as a failure.

use rxla_hlo_text::ast::Shape;
use rxla_interpreter::{compare::first_mismatch, npy, Literal};
use serde_json::Value;
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

struct Case {
    name: String,
    category: String,
    rtol: f64,
    atol: f64,
}

fn corpus_dir() -> PathBuf {
    match std::env::var("RXLA_ORACLE_DIR") {
        Ok(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/oracle"),
    }
}

/// The real-model corpus (`test/models/export.py` writes it).
fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/models")
}

/// The linear-algebra corpus (`test/linalg/export.py`: JAX's LAPACK
/// custom calls with XLA:CPU's outputs).
fn linalg_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/linalg")
}

fn leaves(shape: &Shape, out: &mut Vec<Shape>) {
    match shape {
        Shape::Tuple(items) => items.iter().for_each(|s| leaves(s, out)),
        Shape::Token => {}
        s => out.push(s.clone()),
    }
}

fn flatten(l: Literal, out: &mut Vec<Literal>) {
    match l {
        Literal::Tuple(items) => items.into_iter().for_each(|i| flatten(i, out)),
        Literal::Token => {}
        a => out.push(a),
    }
}

/// Compiles and runs one case; `Err` is why it fails.
fn run_case(dir: &Path, case: &Case) -> Result<(), String> {
    run_case_with(dir, case, &Default::default())
}

fn run_case_with(dir: &Path, case: &Case, options: &rxla_runtime::Options) -> Result<(), String> {
    run_case_using(dir, case, &|text, args| {
        let exe = rxla_runtime::compile_hlo_text(text, "module.hlo", options).map_err(|e| format!("compile: {e}"))?;
        exe.run(args).map_err(|e| format!("run: {e}"))
    })
}

/// Compiles and runs a module's text on the arguments.
type RunFn<'a> = dyn Fn(&str, &[Literal]) -> Result<Literal, String> + 'a;

/// Runs one case with `run` (compile and run the module text on the
/// arguments); `Err` is why it fails.
fn run_case_using(dir: &Path, case: &Case, run: &RunFn<'_>) -> Result<(), String> {
    run_file_using(dir, case, "module.hlo", true, run)
}

/// Runs the case's `file` with `run`; compares with XLA's outputs when
/// `compare`.
fn run_file_using(dir: &Path, case: &Case, file: &str, compare: bool, run: &RunFn<'_>) -> Result<(), String> {
    let case_dir = dir.join("cases").join(&case.name);
    let text = std::fs::read_to_string(case_dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
    let ast = rxla_hlo_text::parse_module(&text).map_err(|e| format!("{file}: {}", e.message))?;
    let entry = &ast.computations[ast.entry];
    let params = npy::parameter_shapes(entry);
    let args = npy::read_args(case_dir.join("inputs.npz"), &params).map_err(|e| e.to_string())?;
    let result = run(&text, &args)?;
    if !compare {
        return Ok(());
    }
    let mut got = Vec::new();
    flatten(result, &mut got);
    let root = entry.instructions.iter().find(|i| i.is_root).map(|i| i.shape.clone()).ok_or("no root")?;
    let mut shapes = Vec::new();
    leaves(&root, &mut shapes);
    let expected = npy::read_npz_raw(case_dir.join("expected.npz")).map_err(|e| e.to_string())?;
    if expected.len() != got.len() {
        return Err(format!("{} outputs, XLA has {}", got.len(), expected.len()));
    }
    for (i, (g, shape)) in got.iter().zip(&shapes).enumerate() {
        let key = format!("out{i}");
        let raw = &expected.iter().find(|(k, _)| *k == key).ok_or(format!("expected.npz has no {key}"))?.1;
        let want = npy::conform(raw, shape, &key)?;
        if let Some(m) = first_mismatch(g, &want, case.atol, case.rtol) {
            return Err(format!("{key}: {m}"));
        }
    }
    Ok(())
}

#[test]
fn oracle_on_cpu() {
    run_corpus("cpu", &|dir, case| run_case(dir, case));
}

#[test]
fn models_on_cpu() {
    run_corpus_in(models_dir(), "models on cpu", &|dir, case| run_case(dir, case));
}

/// XLA's own dumps of the models (`dump.hlo`: Shardy's custom calls and
/// attributes, elided constants): they import, compile and run; outputs
/// match XLA's unless the dump elided a constant (which then holds XLA's
/// placeholder values, not the model's).
#[test]
fn model_dumps_on_cpu() {
    run_corpus_in(models_dir(), "model dumps on cpu", &|dir, case| {
        let meta = std::fs::read_to_string(dir.join("cases").join(&case.name).join("meta.json"))
            .map_err(|e| format!("meta.json: {e}"))?;
        let meta: Value = serde_json::from_str(&meta).map_err(|e| format!("meta.json: {e}"))?;
        let elided = meta["dump_elides_constants"].as_bool().ok_or("meta.json has no dump_elides_constants")?;
        run_file_using(dir, case, "dump.hlo", !elided, &|text, args| {
            let exe = rxla_runtime::compile_hlo_text(text, "dump.hlo", &Default::default())
                .map_err(|e| format!("compile: {e}"))?;
            if elided && exe.warnings.is_empty() {
                return Err("the dump elides a constant, but the import did not warn".into());
            }
            exe.run(args).map_err(|e| format!("run: {e}"))
        })
    });
}

/// The sharded corpus (`test/sharded/export.py`: JAX programs jitted with
/// shardings over 2, 4 and 8 devices, GSPMD and Shardy forms).
fn sharded_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/sharded")
}

/// Compiles and runs a per-partition program's text on every device's
/// arguments (partitions, arguments per device).
type RunDevicesFn<'a> = dyn Fn(&str, usize, &[Vec<Literal>]) -> Result<Vec<Literal>, String> + Sync + 'a;

/// Runs a sharded case partitioned for its `partitions` with `run` (the
/// per-partition program's text, every device's arguments) and returns
/// the global result; checks that each partition holds only its block of
/// each sharded argument.
fn run_partitioned(dir: &Path, case: &Case, run: &RunDevicesFn<'_>) -> Result<(), String> {
    let meta = std::fs::read_to_string(dir.join("cases").join(&case.name).join("meta.json"))
        .map_err(|e| format!("meta.json: {e}"))?;
    let meta: Value = serde_json::from_str(&meta).map_err(|e| format!("meta.json: {e}"))?;
    let n = meta["partitions"].as_u64().ok_or("meta.json has no partitions")? as usize;
    run_case_using(dir, case, &|text, args| {
        let p = rxla_runtime::spmd::partition_source(text, "module.hlo", false, n)?
            .ok_or("the module was not partitioned")?;
        let per_device = p.split_arguments(args, n)?;
        for (i, (global, local)) in args.iter().zip(&per_device[0]).enumerate() {
            let blocks = p.params[i].0.tiles().map_or(1, |t| t.blocks()) as usize;
            let (g, l) = (global.element_count(), local.element_count());
            if l * blocks < g || (blocks > 1 && l == g) {
                return Err(format!("argument {i}: {l} of {g} elements on a partition, in {blocks} blocks"));
            }
        }
        p.gather_result(&run(&p.hlo_text, n, &per_device)?)
    })
}

#[test]
fn sharded_on_cpu() {
    run_corpus_in(sharded_dir(), "sharded on cpu", &|dir, case| {
        run_partitioned(dir, case, &|text, n, per_device| {
            let exe = rxla_runtime::compile_hlo_text(text, "module.hlo", &Default::default())
                .map_err(|e| format!("compile: {e}"))?;
            exe.run_devices(1, n, per_device).map_err(|e| format!("run: {e}"))
        })
    });
}

/// The GPU runtime's path for several devices (host threads, collectives as
/// host steps), with the GPU emulated.
#[test]
fn sharded_on_emulated_gpu() {
    let options = rxla_runtime::gpu::GpuOptions { emulate: true, ..Default::default() };
    run_corpus_in(sharded_dir(), "sharded on emulated gpu", &|dir, case| {
        run_partitioned(dir, case, &|text, n, per_device| {
            let exe = rxla_runtime::gpu::compile_hlo_text(text, "module.hlo", &options)
                .map_err(|e| format!("compile: {e}"))?;
            exe.run_devices(1, n, per_device).map_err(|e| format!("run: {e}"))
        })
    });
}

#[test]
fn sharded_on_interpreter() {
    run_corpus_in(sharded_dir(), "sharded on the interpreter", &|dir, case| {
        run_partitioned(dir, case, &|text, n, per_device| {
            let ast = rxla_hlo_text::parse_module(text).map_err(|e| format!("partitioned module: {}", e.message))?;
            rxla_interpreter::replicated::run_devices(&ast, 1, n, per_device).map_err(|e| format!("run: {e}"))
        })
    });
}

/// Every oracle case partitioned over two devices: each entry parameter of
/// rank >= 1 split in two along its first dimension (unevenly where it is
/// odd), the module partitioned, run on two CPU devices with the global
/// inputs split, and the assembled outputs compared with XLA's. This
/// reaches every op's partitioning rule (or its fallback) on the whole
/// corpus.
#[test]
fn oracle_partitioned_on_cpu() {
    run_corpus("partitioned on cpu", &|dir, case| run_split(dir, case, 0, 2));
}

/// The real models the same way, split along their second dimension (a
/// model's parameters are mostly weights: features and heads split).
#[test]
fn models_partitioned_on_cpu() {
    run_corpus_in(models_dir(), "models partitioned on cpu", &|dir, case| run_split(dir, case, 1, 2));
}

/// Runs `case` with every entry array parameter of rank above `dim` split
/// along `dim` into `parts` blocks (unevenly where it does not divide),
/// partitioned, on `parts` CPU devices.
fn run_split(dir: &Path, case: &Case, dim: usize, parts: usize) -> Result<(), String> {
    use rxla_hlo_text::ast::{AttrValue, Attribute};
    run_case_using(dir, case, &|text, args| {
        let mut module = rxla_hlo_text::parse_module(text).map_err(|e| e.message)?;
        let entry = module.entry;
        for inst in &mut module.computations[entry].instructions {
            let Shape::Array { dims, .. } = &inst.shape else { continue };
            if inst.parameter_number.is_none()
                || dims.len() <= dim
                || inst.attributes.iter().any(|a| a.name == "sharding")
            {
                continue;
            }
            let mut tiles = vec!["1".to_string(); dims.len()];
            tiles[dim] = parts.to_string();
            let text = format!("{{devices=[{}]<=[{parts}]}}", tiles.join(","));
            let value = AttrValue { text, pos: inst.pos };
            inst.attributes.push(Attribute { name: "sharding".into(), value, pos: inst.pos });
        }
        let sharded = rxla_hlo_text::print_module(&module);
        let Some(p) = rxla_runtime::spmd::partition_source(&sharded, "module.hlo", false, parts)? else {
            // No array parameter to split: the case runs whole.
            let exe = rxla_runtime::compile_hlo_text(text, "module.hlo", &Default::default())
                .map_err(|e| format!("compile: {e}"))?;
            return exe.run(args).map_err(|e| format!("run: {e}"));
        };
        let exe = rxla_runtime::compile_hlo_text(&p.hlo_text, "module.hlo", &Default::default())
            .map_err(|e| format!("compile: {e}"))?;
        let per_device = p.split_arguments(args, parts)?;
        p.gather_result(&exe.run_devices(1, parts, &per_device).map_err(|e| format!("run: {e}"))?)
    })
}

/// The GPU backend's thunk sequences on the host (`GpuOptions::emulate`):
/// the GPU compiler, plan, executor, host staging, control flow and gemm
/// mapping, with the GPU kernels' CPU versions (the same fusions and
/// emitters' choices, CPU code), on every case.
#[test]
fn oracle_on_emulated_gpu() {
    run_corpus("emulated gpu", &run_case_on_emulated_gpu);
}

#[test]
fn models_on_emulated_gpu() {
    run_corpus_in(models_dir(), "models on emulated gpu", &run_case_on_emulated_gpu);
}

/// LAPACK's custom calls (cholesky, LU, QR, triangular solves, Hermitian
/// eigenvalues, SVD) on both backends, against XLA:CPU.
#[test]
fn linalg_on_cpu() {
    run_corpus_in(linalg_dir(), "linalg on cpu", &|dir, case| run_case(dir, case));
}

#[test]
fn linalg_on_emulated_gpu() {
    run_corpus_in(linalg_dir(), "linalg on emulated gpu", &run_case_on_emulated_gpu);
}

fn run_case_on_emulated_gpu(dir: &Path, case: &Case) -> Result<(), String> {
    let options = rxla_runtime::gpu::GpuOptions { emulate: true, ..Default::default() };
    run_case_using(dir, case, &|text, args| {
        let exe =
            rxla_runtime::gpu::compile_hlo_text(text, "module.hlo", &options).map_err(|e| format!("compile: {e}"))?;
        exe.run(args).map_err(|e| format!("run: {e}"))
    })
}

/// Runs every case (two at a time) with `run_one` and checks the pass
/// rate against `RXLA_ORACLE_MIN_PASS`.
fn run_corpus(platform: &str, run_one: &(dyn Fn(&Path, &Case) -> Result<(), String> + Sync)) {
    run_corpus_in(corpus_dir(), platform, run_one)
}

/// [`run_corpus`] on the corpus in `dir`.
fn run_corpus_in(dir: PathBuf, platform: &str, run_one: &(dyn Fn(&Path, &Case) -> Result<(), String> + Sync)) {
    let Ok(index) = std::fs::read_to_string(dir.join("index.json")) else {
        panic!("no corpus at {} (test/oracle, test/models and test/linalg are in the repository; RXLA_ORACLE_DIR overrides the oracle's)", dir.display());
    };
    let index: Value = serde_json::from_str(&index).expect("index.json");
    let filter = std::env::var("RXLA_ORACLE_FILTER").unwrap_or_default();
    let min_pass = std::env::var("RXLA_ORACLE_MIN_PASS")
        .ok()
        .and_then(|s| s.trim().trim_end_matches('%').parse::<f64>().ok())
        .map(|x| if x > 1.0 { x / 100.0 } else { x })
        .unwrap_or(1.0);
    let cases: Vec<Case> = index
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| Case {
            name: e["name"].as_str().unwrap_or_default().to_string(),
            category: e["category"].as_str().unwrap_or("?").to_string(),
            rtol: e["rtol"].as_f64().unwrap_or(0.0),
            atol: e["atol"].as_f64().unwrap_or(0.0),
        })
        .filter(|c| filter.is_empty() || c.name.contains(&filter) || c.category.contains(&filter))
        .collect();
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let queue = Arc::new(Mutex::new(cases.into_iter().collect::<Vec<_>>()));
    let results = Arc::new(Mutex::new(Vec::<(String, String, Result<(), String>)>::new()));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (queue, results, dir) = (queue.clone(), results.clone(), dir.clone());
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(scope, move || loop {
                        let Some(case) = queue.lock().unwrap().pop() else { break };
                        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_one(&dir, &case)))
                            .unwrap_or_else(|p| {
                                Err(format!(
                                    "panic: {}",
                                    p.downcast_ref::<String>()
                                        .cloned()
                                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                        .unwrap_or_default()
                                ))
                            });
                        results.lock().unwrap().push((case.name, case.category, outcome));
                    })
                    .expect("a worker thread")
            })
            .collect();
        for w in workers {
            w.join().expect("workers do not panic");
        }
    });
    std::panic::set_hook(default_hook);
    let mut results = Arc::try_unwrap(results).ok().unwrap().into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut per_category: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failed = Vec::new();
    for (name, category, outcome) in &results {
        let e = per_category.entry(category.clone()).or_default();
        match outcome {
            Ok(()) => e.0 += 1,
            Err(reason) => {
                e.1 += 1;
                failed.push(format!("{name}: {}", reason.chars().take(400).collect::<String>()));
            }
        }
    }
    for f in &failed {
        println!("FAIL {f}");
    }
    println!("{:20} {:>5} {:>5}", "category", "pass", "fail");
    for (c, (p, f)) in &per_category {
        println!("{c:20} {p:5} {f:5}");
    }
    let total = results.len();
    let passed = total - failed.len();
    println!("{platform}: {passed} passed, {} failed", failed.len());
    let rate = if total == 0 { 1.0 } else { passed as f64 / total as f64 };
    assert!(
        rate + 1e-12 >= min_pass,
        "pass rate {:.1}% ({passed}/{total}) below {:.1}%:\n{}",
        rate * 100.0,
        min_pass * 100.0,
        failed.join("\n")
    );
}

/// The convolutions the GPU backend emits as kernels, checked on the CPU:
/// every case with a convolution, compiled with `emitted_convolutions`
/// (and at least one of them really taking that path).
#[test]
fn oracle_convolutions_as_emitted_kernels() {
    let dir = corpus_dir();
    let Ok(index) = std::fs::read_to_string(dir.join("index.json")) else {
        panic!(
            "oracle corpus not found at {} (it is in the repository under test/oracle; RXLA_ORACLE_DIR overrides it)",
            dir.display()
        );
    };
    let index: Value = serde_json::from_str(&index).expect("index.json");
    let options = rxla_runtime::Options { emitted_convolutions: true, ..Default::default() };
    let mut checked = Vec::new();
    let mut failed = Vec::new();
    for e in index.as_array().expect("a list") {
        let case = Case {
            name: e["name"].as_str().unwrap_or_default().to_string(),
            category: e["category"].as_str().unwrap_or("?").to_string(),
            rtol: e["rtol"].as_f64().unwrap_or(0.0),
            atol: e["atol"].as_f64().unwrap_or(0.0),
        };
        let text = std::fs::read_to_string(dir.join("cases").join(&case.name).join("module.hlo")).unwrap_or_default();
        if !text.contains(" convolution(") {
            continue;
        }
        let exe = rxla_runtime::compile_hlo_text(&text, "module.hlo", &options);
        let emitted =
            exe.as_ref().map(|x| x.kernels().iter().filter(|k| k.name.starts_with("convolution")).count()).unwrap_or(0);
        match run_case_with(&dir, &case, &options) {
            Ok(()) => checked.push(format!("{} ({emitted} emitted)", case.name)),
            Err(e) => failed.push(format!("{}: {e}", case.name)),
        }
    }
    println!("convolutions as kernels: {} passed: {}", checked.len(), checked.join(", "));
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(checked.iter().any(|c| !c.contains("(0 emitted)")), "no case emitted a convolution kernel");
}
