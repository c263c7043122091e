//! `mpirun -n N hlo-run ...`: cases of the sharded corpus (test/sharded)
//! run as N processes, one device each, their collectives over MPI, and
//! the global outputs rank 0 writes match XLA's. Needs Open MPI's `mpirun`
//! (scripts/setup.sh installs it).

use std::{path::PathBuf, process::Command};

use rxla_interpreter::{compare::first_mismatch, npy};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/sharded")
}

fn mpirun(n: usize) -> Command {
    let mut c = Command::new("mpirun");
    // Root in containers and CI; more processes than this machine's cores.
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c.args(["--oversubscribe", "-n", &n.to_string()]);
    c
}

/// Runs `case` under mpirun on `platform` and compares with expected.npz.
fn run_case(case: &str, platform: &str) {
    let dir = corpus().join("cases").join(case);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).expect("meta.json")).expect("json");
    let n = meta["partitions"].as_u64().expect("partitions") as usize;
    let (rtol, atol) = (meta["rtol"].as_f64().unwrap_or(0.0), meta["atol"].as_f64().unwrap_or(0.0));
    let out = std::env::temp_dir().join(format!("rxla-mpi-{case}-{platform}-{}.npz", std::process::id()));
    let status = mpirun(n)
        .arg(env!("CARGO_BIN_EXE_hlo-run"))
        .arg(dir.join("module.hlo"))
        .args(["--platform", platform, "--partitions", &n.to_string(), "--inputs"])
        .arg(dir.join("inputs.npz"))
        .arg("--output")
        .arg(&out)
        .output()
        .expect("mpirun runs (scripts/setup.sh installs openmpi-bin)");
    assert!(
        status.status.success(),
        "{case} on {platform} under mpirun -n {n} failed:\n{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let got = npy::read_npz(&out).expect("rank 0 wrote the outputs");
    let want = npy::read_npz(dir.join("expected.npz")).expect("expected.npz");
    let _ = std::fs::remove_file(&out);
    assert_eq!(got.len(), want.len(), "{case}: {} outputs, XLA has {}", got.len(), want.len());
    for ((name, g), (_, w)) in got.iter().zip(&want) {
        if let Some(m) = first_mismatch(g, w, atol, rtol) {
            panic!("{case} on {platform} under mpirun: {name}: {m}");
        }
    }
}

#[test]
fn sharded_cases_under_mpirun_on_cpu() {
    for case in [
        "tp_mlp_gspmd_4",
        "dp_tp_train_step_shardy_8",
        "uneven_rows_gspmd_4",
        "scan_sharded_carry_shardy_4",
        "argmax_sharded_gspmd_8",
        "conv_spatial_shardy_2",
    ] {
        run_case(case, "cpu");
    }
}

#[test]
fn sharded_case_under_mpirun_on_the_interpreter() {
    run_case("reshard_gspmd_4", "interpreter");
}

#[test]
fn a_job_of_the_wrong_size_is_an_error_on_every_rank() {
    let dir = corpus().join("cases/tp_mlp_gspmd_4");
    let out = mpirun(3)
        .arg(env!("CARGO_BIN_EXE_hlo-run"))
        .arg(dir.join("module.hlo"))
        .args(["--platform", "cpu", "--partitions", "4", "--random-inputs"])
        .output()
        .expect("mpirun runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mpirun started 3 processes for 4 devices"), "the error names the job's size: {stderr}");
}
