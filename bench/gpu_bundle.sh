#!/usr/bin/env bash
# Prepares what bench/gpu.sh needs on a GPU machine that has no Rust
# toolchain and takes at most 64 MiB of files: build/device/ with
#   hlo-run.xz          the release hlo-run, stripped and xz-compressed
#   libdevice.10.bc     libdevice (hlo-run compiles there, linking it in)
#   oracle/             test/oracle (cases, bench modules, check.py)
# Run here, from the repository root, after `cargo build --release --bin hlo-run`;
# then, on the GPU machine (the device tool: carry build/device):
#   bash bench/gpu.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=build/device
bin=target/release/hlo-run
[[ -x $bin ]] || { echo "gpu_bundle.sh: $bin is missing: cargo build --release --bin hlo-run" >&2; exit 1; }
libdevice=.cuda/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc
[[ -f $libdevice ]] || { echo "gpu_bundle.sh: $libdevice is missing: bash scripts/setup.sh" >&2; exit 1; }
oracle=${RXLA_ORACLE_DIR:-test/oracle}
rm -rf "$out"
mkdir -p "$out"
strip -o "$out/hlo-run" "$bin"
xz -T0 -6 "$out/hlo-run"
cp "$libdevice" "$out/"
mkdir -p "$out/oracle"
cp -r "$oracle/cases" "$oracle/bench" "$oracle/check.py" "$oracle/bench_xla.py" "$oracle/index.json" "$out/oracle/"
du -sh "$out" "$out"/*
total=$(du -sm "$out" | cut -f1)
if ((total > 60)); then
  echo "gpu_bundle.sh: $out is ${total} MiB; the device takes 64 MiB with the working tree" >&2
  exit 1
fi
