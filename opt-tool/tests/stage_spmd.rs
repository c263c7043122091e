//! `hlo-opt --stage=spmd` (sharding-propagation, spmd-partitioner,
//! all-reduce-combiner as a pipeline) on every case of the sharded corpus
//! (test/sharded): each partitions, and the per-partition program it
//! prints reads back. The runs themselves are checked against XLA's
//! outputs in runtime/tests/oracle.rs.

use std::{path::PathBuf, process::Command};

#[test]
fn stage_spmd_on_the_sharded_corpus() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../test/sharded/cases");
    let mut names: Vec<String> = std::fs::read_dir(&cases)
        .expect("test/sharded/cases is in the repository")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 60, "only {} sharded cases", names.len());
    let mut failed = Vec::new();
    for name in &names {
        let out = std::env::temp_dir().join(format!("rxla-stage-spmd-{name}-{}.hlo", std::process::id()));
        let run = Command::new(env!("CARGO_BIN_EXE_hlo-opt"))
            .arg(cases.join(name).join("module.hlo"))
            .args(["--platform=cpu", "--stage=spmd", "-o"])
            .arg(&out)
            .output()
            .expect("hlo-opt runs");
        if !run.status.success() {
            failed.push(format!("{name}: {}", String::from_utf8_lossy(&run.stderr)));
            continue;
        }
        let text = std::fs::read_to_string(&out).expect("output written");
        let _ = std::fs::remove_file(&out);
        if !text.contains("_spmd") {
            failed.push(format!("{name}: no partitioned entry in the output"));
            continue;
        }
        // Read back: hlo-opt parses and verifies the printed program.
        let back = std::env::temp_dir().join(format!("rxla-stage-spmd-back-{name}-{}.hlo", std::process::id()));
        std::fs::write(&back, &text).expect("write");
        let reread = Command::new(env!("CARGO_BIN_EXE_hlo-opt")).arg(&back).output().expect("hlo-opt runs");
        let _ = std::fs::remove_file(&back);
        if !reread.status.success() {
            failed.push(format!("{name}: the output does not read back: {}", String::from_utf8_lossy(&reread.stderr)));
        }
    }
    assert!(failed.is_empty(), "{} of {} cases failed:\n{}", failed.len(), names.len(), failed.join("\n"));
}
