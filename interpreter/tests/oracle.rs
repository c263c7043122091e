//! Runs the interpreter on every case of the oracle corpus
//! (the repository's `test/oracle`)
//! and compares with XLA:CPU's answers exactly as the corpus's `check.py`
//! does:
//!
//! - output keys (`out0`, `out1`, ... over the flattened result), shapes and
//!   element types must match exactly;
//! - integers and pred compare exactly;
//! - floats pass when `|got - expected| <= atol + rtol * |expected|`, NaN
//!   equals NaN, infinities must match exactly (sign included), -0 == +0;
//! - complex numbers compare real and imaginary parts separately with the
//!   modulus `|expected|` in the bound (a NaN modulus counts as 0);
//! - `rtol`/`atol` come from `index.json`.
//!
//! Environment:
//! - `RXLA_ORACLE_FILTER=<substring>`: only cases whose name or category
//!   contains it;
//! - `RXLA_ORACLE_MIN_PASS=<x>`: the test fails when the pass rate is below
//!   `x` (a fraction in 0..=1, or a percentage when above 1; default 0.98);
//! - `RXLA_ORACLE_TIMEOUT=<seconds>`: per-case limit (default 120), a case
//!   over it counts as failed;
//! - `RXLA_ORACLE_DIR=<dir>`: another corpus directory.
//!
//! A failing case never stops the run: errors and panics are caught per
//! case (each case runs on its own thread) and counted as failures.

use rxla_hlo_text::{
    ast::{Dim, PrimitiveType, Shape},
    floats::float_format,
};
use rxla_interpreter::{
    literal::Data,
    npy::{self, RawArray},
    Interpreter, Literal,
};
use serde_json::Value;
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::mpsc,
    time::{Duration, Instant},
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

fn load_index(dir: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(dir.join("index.json")).map_err(|e| e.to_string())?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("index.json: {e}"))?;
    let entries = value.as_array().ok_or("index.json: not a list")?;
    Ok(entries
        .iter()
        .map(|e| Case {
            name: e["name"].as_str().unwrap_or_default().to_string(),
            category: e["category"].as_str().unwrap_or("?").to_string(),
            rtol: e["rtol"].as_f64().unwrap_or(0.0),
            atol: e["atol"].as_f64().unwrap_or(0.0),
        })
        .collect())
}

/// Runs one case; `Err` is the failure reason.
fn run_case(dir: &Path, case: &Case) -> Result<(), String> {
    let case_dir = dir.join("cases").join(&case.name);
    let text = std::fs::read_to_string(case_dir.join("module.hlo")).map_err(|e| format!("module.hlo: {e}"))?;
    let module = rxla_hlo_text::parse_module(&text)
        .map_err(|e| format!("module.hlo:{}:{}: {}", e.pos.line, e.pos.col, e.message))?;
    let entry = &module.computations[module.entry];
    let params = npy::parameter_shapes(entry);
    let args = npy::read_args(case_dir.join("inputs.npz"), &params).map_err(|e| e.to_string())?;
    let result = Interpreter::new(&module).run(&args).map_err(|e| format!("evaluation failed: {e}"))?;
    let got = npy::output_arrays(&result);

    // Logical output types: from meta.json as check.py does, else from the
    // entry's result shape.
    let meta: Option<Value> =
        std::fs::read_to_string(case_dir.join("meta.json")).ok().and_then(|t| serde_json::from_str(&t).ok());
    let expected = npy::read_npz_raw(case_dir.join("expected.npz")).map_err(|e| format!("expected.npz: {e}"))?;
    let logical: Vec<(String, String)> = match meta.as_ref().and_then(|m| m["outputs"].as_array()) {
        Some(outs) => outs
            .iter()
            .map(|o| (o["name"].as_str().unwrap_or("").to_string(), o["dtype"].as_str().unwrap_or("").to_string()))
            .collect(),
        None => {
            let root = &entry.instructions[entry.root].shape;
            let mut leaves = Vec::new();
            flatten_shape(root, &mut leaves);
            leaves.iter().enumerate().map(|(i, t)| (format!("out{i}"), t.name().to_string())).collect()
        }
    };

    let mut got_keys: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
    let mut want_keys: Vec<&str> = logical.iter().map(|(k, _)| k.as_str()).collect();
    got_keys.sort();
    want_keys.sort();
    if got_keys != want_keys {
        return Err(format!("output keys {got_keys:?} != expected {want_keys:?}"));
    }
    let mut reasons = Vec::new();
    for (key, dtype) in &logical {
        let g = &got.iter().find(|(k, _)| k == key).unwrap().1;
        let Some((_, e)) = expected.iter().find(|(k, _)| k == key) else {
            reasons.push(format!("{key}: not in expected.npz"));
            continue;
        };
        if let Err(r) = compare(key, g, e, dtype, case.rtol, case.atol) {
            reasons.push(r);
        }
    }
    if reasons.is_empty() {
        Ok(())
    } else {
        let n = reasons.len();
        if n > 2 {
            reasons.truncate(2);
            reasons.push(format!("(+{} more)", n - 2));
        }
        Err(reasons.join("; "))
    }
}

fn flatten_shape(shape: &Shape, out: &mut Vec<PrimitiveType>) {
    match shape {
        Shape::Tuple(e) => e.iter().for_each(|s| flatten_shape(s, out)),
        Shape::Array { element, .. } => out.push(*element),
        _ => {}
    }
}

fn fmt_index(mut i: usize, dims: &[u64]) -> String {
    let mut idx = vec![0u64; dims.len()];
    for d in (0..dims.len()).rev() {
        let n = dims[d].max(1);
        idx[d] = i as u64 % n;
        i /= n as usize;
    }
    format!("[{}]", idx.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
}

enum Values {
    Exact(Vec<i128>),
    Real(Vec<f64>),
    Complex(Vec<(f64, f64)>),
}

fn values(data: &Data) -> Option<Values> {
    Some(match data {
        Data::Pred(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S8(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S16(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S32(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::S64(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U8(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U16(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U32(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::U64(v) => Values::Exact(v.iter().map(|&x| x as i128).collect()),
        Data::F16(v) => Values::Real(v.iter().map(|x| x.to_f64()).collect()),
        Data::Bf16(v) => Values::Real(v.iter().map(|x| x.to_f64()).collect()),
        Data::F32(v) => Values::Real(v.iter().map(|&x| x as f64).collect()),
        Data::F64(v) => Values::Real(v.clone()),
        Data::C64(v) => Values::Complex(v.iter().map(|c| (c.re as f64, c.im as f64)).collect()),
        Data::C128(v) => Values::Complex(v.iter().map(|c| (c.re, c.im)).collect()),
        Data::Bits(t, v) => match float_format(*t) {
            Some(f) => Values::Real(
                v.iter()
                    .map(|&b| match f.special_text(b as u64) {
                        Some(s) if s.contains("nan") => f64::NAN,
                        Some(s) if s.starts_with('-') => f64::NEG_INFINITY,
                        Some(_) => f64::INFINITY,
                        None => f.finite_value(b as u64),
                    })
                    .collect(),
            ),
            None => Values::Exact(v.iter().map(|&x| x as i8 as i128).collect()),
        },
    })
}

/// check.py's `_close` for one element: Ok, or Err(diff).
fn close(g: f64, e: f64, rtol: f64, atol: f64, mag: f64) -> Result<(), f64> {
    if g == e || (g.is_nan() && e.is_nan()) {
        return Ok(());
    }
    let diff = (g - e).abs();
    if g.is_finite() && e.is_finite() && diff <= atol + rtol * mag {
        return Ok(());
    }
    Err(if diff.is_finite() { diff } else { f64::INFINITY })
}

fn compare(key: &str, got: &Literal, expected: &RawArray, dtype: &str, rtol: f64, atol: f64) -> Result<(), String> {
    let (gdims, gdata) = match got {
        Literal::Array { dims, data } => (dims, data),
        _ => return Err(format!("{key}: not an array")),
    };
    let Some(t) = PrimitiveType::from_name(dtype) else {
        return Err(format!("{key}: unknown logical dtype '{dtype}' in meta.json"));
    };
    // The shape hlo-run would write (a rank-0 bf16/f8 value is stored as
    // (1,), as the corpus stores it).
    let gshape: Vec<u64> = npy::stored_dims(gdata.element_type(), gdims);
    if gshape != expected.shape {
        return Err(format!("{key}: shape mismatch: got {gshape:?}, expected {:?}", expected.shape));
    }
    if gdata.element_type() != t {
        return Err(format!("{key}: dtype mismatch: got {}, expected {dtype}", gdata.element_type().name()));
    }
    let shape = Shape::Array { element: t, dims: gdims.iter().map(|&d| Dim::Static(d)).collect(), layout: None };
    let exp = npy::conform(expected, &shape, key).map_err(|e| format!("{key}: bad expected file: {e}"))?;
    let edata = exp.data().unwrap();
    let n = gdata.len();
    if n == 0 {
        return Ok(());
    }
    let (gv, ev) = (values(gdata).unwrap(), values(edata).unwrap());
    // (index, diff) of every bad element, tracking the first and the worst.
    let mut bad = 0usize;
    let mut first: Option<usize> = None;
    let mut worst: Option<(usize, f64)> = None;
    let mut note = |i: usize, d: f64| {
        bad += 1;
        first.get_or_insert(i);
        if worst.is_none_or(|(_, w)| d > w) {
            worst = Some((i, d));
        }
    };
    let show: Box<dyn Fn(usize) -> String> = match (&gv, &ev) {
        (Values::Exact(g), Values::Exact(e)) => {
            for i in 0..n {
                if g[i] != e[i] {
                    note(i, (g[i] - e[i]).unsigned_abs() as f64);
                }
            }
            Box::new(move |i| format!("got {}, expected {}", g[i], e[i]))
        }
        (Values::Real(g), Values::Real(e)) => {
            for i in 0..n {
                if let Err(d) = close(g[i], e[i], rtol, atol, e[i].abs()) {
                    note(i, d);
                }
            }
            Box::new(move |i| format!("got {:?}, expected {:?}", g[i], e[i]))
        }
        (Values::Complex(g), Values::Complex(e)) => {
            for i in 0..n {
                let (er, ei) = e[i];
                let mag = er.hypot(ei);
                let mag = if mag.is_nan() { 0.0 } else { mag };
                let a = close(g[i].0, er, rtol, atol, mag);
                let b = close(g[i].1, ei, rtol, atol, mag);
                if a.is_err() || b.is_err() {
                    note(i, a.err().unwrap_or(0.0).max(b.err().unwrap_or(0.0)));
                }
            }
            Box::new(move |i| format!("got {:?}, expected {:?}", g[i], e[i]))
        }
        _ => return Err(format!("{key}: internal: value kinds differ")),
    };
    if bad == 0 {
        return Ok(());
    }
    let (wi, wd) = worst.unwrap();
    let fi = first.unwrap();
    let exact = matches!(gv, Values::Exact(_));
    let tol = if exact { "differ".to_string() } else { format!("outside rtol={rtol} atol={atol}") };
    let mut msg = format!(
        "{key}: {bad}/{n} elements {tol}; worst at {}: {} (abs err {wd:.3e})",
        fmt_index(wi, &gshape),
        show(wi)
    );
    if fi != wi {
        msg += &format!("; first at {}: {}", fmt_index(fi, &gshape), show(fi));
    }
    Err(msg)
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".into()
    }
}

#[test]
fn oracle() {
    let dir = corpus_dir();
    if !dir.join("index.json").exists() {
        panic!(
            "oracle corpus not found at {} (it is in the repository under test/oracle; RXLA_ORACLE_DIR overrides it)",
            dir.display()
        );
    }
    let cases = load_index(&dir).expect("read index.json");
    let filter = std::env::var("RXLA_ORACLE_FILTER").unwrap_or_default();
    let timeout = std::env::var("RXLA_ORACLE_TIMEOUT").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(120.0);
    let min_pass = std::env::var("RXLA_ORACLE_MIN_PASS")
        .ok()
        .and_then(|s| s.trim().trim_end_matches('%').parse::<f64>().ok())
        .map(|x| if x > 1.0 { x / 100.0 } else { x })
        // The bar the interpreter is held to (issue: at least 98% of the
        // public cases); lower it only to look at a filtered subset.
        .unwrap_or(0.98);
    let selected: Vec<Case> = cases
        .into_iter()
        .filter(|c| filter.is_empty() || c.name.contains(&filter) || c.category.contains(&filter))
        .collect();

    // Panics are caught and reported per case; keep the default hook from
    // printing each one's backtrace.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));

    let mut per_category: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let started = Instant::now();
    for case in &selected {
        let t0 = Instant::now();
        let (tx, rx) = mpsc::channel();
        let case_dir = dir.clone();
        let c = Case { name: case.name.clone(), category: case.category.clone(), rtol: case.rtol, atol: case.atol };
        let spawned = std::thread::Builder::new().name(case.name.clone()).stack_size(256 << 20).spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_case(&case_dir, &c)));
            let _ = tx.send(r.unwrap_or_else(|p| Err(format!("panic: {}", panic_message(p)))));
        });
        let outcome = match spawned {
            Err(e) => Err(format!("cannot start a thread: {e}")),
            Ok(_) => match rx.recv_timeout(Duration::from_secs_f64(timeout)) {
                Ok(r) => r,
                Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("timeout: no result after {timeout}s")),
                Err(mpsc::RecvTimeoutError::Disconnected) => Err("the case's thread died".into()),
            },
        };
        let secs = t0.elapsed().as_secs_f64();
        let entry = per_category.entry(case.category.clone()).or_default();
        match outcome {
            Ok(()) => {
                passed += 1;
                entry.0 += 1;
                println!("PASS {} ({secs:.2}s)", case.name);
            }
            Err(reason) => {
                failed += 1;
                entry.1 += 1;
                let reason: String = if reason.chars().count() > 600 {
                    format!("{}...", reason.chars().take(600).collect::<String>())
                } else {
                    reason
                };
                println!("FAIL {}: {reason} ({secs:.2}s)", case.name);
            }
        }
    }
    std::panic::set_hook(default_hook);

    println!();
    println!("{:20} {:>5} {:>5} {:>6}", "category", "pass", "fail", "total");
    for (category, (p, f)) in &per_category {
        println!("{category:20} {p:5} {f:5} {:6}", p + f);
    }
    println!("(wall time {:.1}s)", started.elapsed().as_secs_f64());
    println!("{passed} passed, {failed} failed");
    let total = passed + failed;
    let rate = if total == 0 { 1.0 } else { passed as f64 / total as f64 };
    assert!(
        rate + 1e-12 >= min_pass,
        "pass rate {:.1}% ({passed}/{total}) is below RXLA_ORACLE_MIN_PASS={:.1}%",
        rate * 100.0,
        min_pass * 100.0
    );
}

#[test]
fn comparison_follows_check_py() {
    let raw = |descr: &str, kind: char, size: usize, shape: Vec<u64>, bytes: Vec<u8>| RawArray {
        kind,
        size,
        descr: descr.into(),
        shape,
        bytes,
    };
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let expected = raw("<f4", 'f', 4, vec![2, 2], f32s(&[f32::NAN, -0.0, f32::INFINITY, 100.0]));
    let got = |v: Vec<f32>| Literal::array(vec![2, 2], Data::F32(v));
    assert!(compare("out0", &got(vec![f32::NAN, 0.0, f32::INFINITY, 100.0001]), &expected, "f32", 1e-5, 0.0).is_ok());
    let e =
        compare("out0", &got(vec![f32::NAN, 0.0, f32::NEG_INFINITY, 101.0]), &expected, "f32", 1e-5, 0.0).unwrap_err();
    assert!(e.contains("2/4 elements") && e.contains("worst at [1,0]"), "{e}");
    let e = compare("out0", &Literal::array(vec![4], Data::F32(vec![0.0; 4])), &expected, "f32", 0.0, 0.0).unwrap_err();
    assert!(e.contains("shape mismatch"), "{e}");
    let e =
        compare("out0", &Literal::array(vec![2, 2], Data::F64(vec![0.0; 4])), &expected, "f32", 0.0, 0.0).unwrap_err();
    assert!(e.contains("dtype mismatch"), "{e}");
    // bf16 stored as raw bits in <u2; a scalar as (1,), as the corpus does.
    let bits = half::bf16::from_f32(1.5).to_bits().to_le_bytes().to_vec();
    let expected = raw("<u2", 'u', 2, vec![1], bits);
    assert!(compare(
        "out0",
        &Literal::array(vec![], Data::Bf16(vec![half::bf16::from_f32(1.5)])),
        &expected,
        "bf16",
        0.0,
        0.0
    )
    .is_ok());
    // Complex: parts separately, |expected| in the bound.
    let c = |re: f32, im: f32| f32s(&[re, im]);
    let expected = raw("<c8", 'c', 8, vec![1], c(100.0, 0.001));
    let got = Literal::array(vec![1], Data::C64(vec![num_complex::Complex32::new(100.0, 0.002)]));
    assert!(compare("out0", &got, &expected, "c64", 1e-4, 0.0).is_ok());
    assert!(compare("out0", &got, &expected, "c64", 1e-6, 0.0).is_err());
}
