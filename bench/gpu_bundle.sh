#!/usr/bin/env bash
# Prepares what bench/gpu.sh needs on a GPU machine that has no Rust
# toolchain and takes at most 64 MiB of files: build/device/ with
#   hlo-run.xz          the release hlo-run, stripped and xz-compressed (with
#                       the x86 filter: the bundle and the tracked tree
#                       together must stay under the device's 64 MiB)
#   libdevice.10.bc     libdevice (hlo-run compiles there, linking it in)
# The oracle (test/oracle) and the model corpus (test/models) are tracked,
# so they travel with the working tree.
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
rm -rf "$out"
mkdir -p "$out"
strip -o "$out/hlo-run" "$bin"
xz -T1 --x86 --lzma2=preset=9e,dict=192MiB "$out/hlo-run"
cp "$libdevice" "$out/"
du -sh "$out" "$out"/*
# What travels: the tracked tree, untracked files git does not ignore, and
# this bundle, 64 MiB at most (the device tool counts more than the files'
# bytes: with this bundle, 31 MiB of tracked files were refused, 15 MiB
# taken). When it is refused, set aside for that call what its steps
# do not read: bench/models (compile benches), the large cases of
# test/models/cases, test/oracle/cases for a run without the check step.
tree=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s}')
bundle=$(du -sb "$out" | cut -f1)
echo "gpu_bundle.sh: working tree $((tree / 1048576)) MiB + bundle $((bundle / 1048576)) MiB = $(((tree + bundle) / 1048576)) MiB"
if ((tree + bundle > 56 * 1048576)); then
  echo "gpu_bundle.sh: warning: the device tool may refuse this much; see the comment above" >&2
fi
