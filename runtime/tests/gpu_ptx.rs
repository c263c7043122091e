//! The GPU compiler without a GPU: every public oracle case and every
//! bench module (`test/oracle`) and every model of `test/models` is
//! compiled for sm_90 and for sm_80,
//! and `ptxas` (from the `nvidia-cuda-nvcc-cu12` wheel that
//! `scripts/setup.sh` installs) must accept the PTX for that SM. Prints
//! the counts; fails on the first case that does not compile or assemble
//! (all failures are listed).
//!
//! Environment: `RXLA_ORACLE_DIR`, `RXLA_ORACLE_FILTER=<substring>`,
//! `RXLA_PTXAS` (the ptxas binary). Without ptxas the test fails and says
//! how to install it.

use rxla_codegen::gpu::{ptxas_check, ptxas_path, PtxTarget};
use rxla_emitters::GpuTarget;
use rxla_runtime::gpu::{compile_hlo_text, GpuOptions};
use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

fn corpus_dir() -> PathBuf {
    match std::env::var("RXLA_ORACLE_DIR") {
        Ok(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/oracle"),
    }
}

/// Every module: (name, path).
fn modules(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for sub in ["cases", "bench"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for e in entries.flatten() {
            let path = e.path().join("module.hlo");
            if path.is_file() {
                out.push((format!("{sub}/{}", e.file_name().to_string_lossy()), path));
            }
        }
    }
    out.sort();
    if let Ok(filter) = std::env::var("RXLA_ORACLE_FILTER") {
        out.retain(|(n, _)| n.contains(&filter));
    }
    out
}

/// Compiles one module for `device` and assembles its PTX.
fn check(path: &Path, device: &GpuTarget, ptxas: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let options = GpuOptions { ptx: PtxTarget::for_sm(device.name)?, device: device.clone(), ..GpuOptions::default() };
    let exe = compile_hlo_text(&text, "module.hlo", &options).map_err(|e| format!("compile: {e}"))?;
    let kernels = exe.kernels().iter().filter(|k| k.launch.is_some()).count();
    if kernels > 0 {
        ptxas_check(ptxas, &exe.ptx, device.name)?;
    }
    Ok(kernels)
}

#[test]
fn every_oracle_module_assembles_for_sm_90_and_sm_80() {
    let dir = corpus_dir();
    let mut all = modules(&dir);
    assert!(!all.is_empty(), "no oracle modules under {} (set RXLA_ORACLE_DIR)", dir.display());
    // The real-model corpus too (test/models: the same layout).
    let models = modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/models"));
    assert!(!models.is_empty(), "no model modules under test/models");
    all.extend(models.into_iter().map(|(name, path)| (format!("models/{name}"), path)));
    let ptxas = ptxas_path().unwrap_or_else(|| {
        panic!("ptxas not found: run `bash scripts/setup.sh` (it installs the nvidia-cuda-nvcc-cu12 wheel into .cuda/) or set RXLA_PTXAS")
    });
    let work = Arc::new(Mutex::new(all.clone()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let (work, results, ptxas) = (work.clone(), results.clone(), ptxas.clone());
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || loop {
                    let Some((name, path)) = work.lock().unwrap().pop() else { break };
                    for device in [GpuTarget::sm_90(), GpuTarget::sm_80()] {
                        let outcome = std::panic::catch_unwind(|| check(&path, &device, &ptxas))
                            .unwrap_or_else(|_| Err("panicked".to_string()));
                        results.lock().unwrap().push((name.clone(), device.name, outcome));
                    }
                })
                .expect("spawn a worker")
        })
        .collect();
    for t in threads {
        t.join().expect("worker");
    }
    let results = results.lock().unwrap();
    let mut failures: Vec<String> = Vec::new();
    let mut kernels = 0;
    for (name, sm, outcome) in results.iter() {
        match outcome {
            Ok(k) => kernels += k,
            Err(e) => failures.push(format!("{name} ({sm}): {}", e.lines().take(6).collect::<Vec<_>>().join("\n    "))),
        }
    }
    failures.sort();
    let passed = results.len() - failures.len();
    println!(
        "gpu ptx: {passed}/{} module compilations assembled by ptxas ({} modules x sm_90, sm_80; {kernels} kernels)",
        results.len(),
        all.len()
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} compilations failed:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

/// The device library's radix sort is hand-written PTX: ptxas checks it for
/// every GPU the compiler targets.
#[test]
fn the_sort_library_assembles_for_sm_90_and_sm_80() {
    let ptxas = ptxas_path().unwrap_or_else(|| {
        panic!("ptxas not found: run `bash scripts/setup.sh` (it installs the nvidia-cuda-nvcc-cu12 wheel into .cuda/) or set RXLA_PTXAS")
    });
    for sm in ["sm_90", "sm_80"] {
        ptxas_check(&ptxas, rxla_runtime::gpu::sort::PTX, sm).unwrap_or_else(|e| panic!("radix_sort.ptx ({sm}): {e}"));
    }
}

/// The kernels are compiled in parts on several threads and their PTX put
/// together: two kernels in different parts that both use libdevice's
/// trigonometric reduction table each get their own copy, under names
/// apart, and ptxas takes the whole.
#[test]
fn parts_that_share_libdevice_tables_assemble_together() {
    let ptxas = ptxas_path().unwrap_or_else(|| {
        panic!("ptxas not found: run `bash scripts/setup.sh` (it installs the nvidia-cuda-nvcc-cu12 wheel into .cuda/) or set RXLA_PTXAS")
    });
    let text = "HloModule trig
ENTRY main {
  x = f32[1000] parameter(0)
  y = f32[37,3] parameter(1)
  s = f32[1000] sine(x)
  c = f32[37,3] cosine(y)
  ROOT t = (f32[1000], f32[37,3]) tuple(s, c)
}
";
    let device = GpuTarget::sm_90();
    let options =
        GpuOptions { ptx: PtxTarget::for_sm(device.name).unwrap(), device: device.clone(), ..GpuOptions::default() };
    let exe = compile_hlo_text(text, "trig.hlo", &options).expect("compiles");
    let tables = exe.ptx.lines().filter(|l| l.starts_with(".global") && l.contains("__cudart_i2opi_f")).count();
    if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
        assert_eq!(tables, 2, "one table per part:\n{}", exe.ptx);
        assert!(exe.ptx.contains("__cudart_i2opi_f_p1["), "the second part's table is renamed");
    }
    assert_eq!(exe.ptx.matches(".version").count(), 1, "one header");
    ptxas_check(&ptxas, &exe.ptx, device.name).expect("ptxas takes the merged PTX");
    // Compiled again, the parts link the reduced libdevice kept from the
    // first compile: the same PTX.
    let again = compile_hlo_text(text, "trig.hlo", &options).expect("compiles again");
    assert_eq!(again.ptx, exe.ptx, "the kept reduced libdevice gives the same PTX");
}
