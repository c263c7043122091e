#!/usr/bin/env bash
# The GPU checks, on a machine with an NVIDIA GPU, CUDA's libraries and JAX
# with CUDA (no Rust toolchain needed): unpacks build/device/ (made by
# bench/gpu_bundle.sh), then
#   1. the lit-style smoke test: examples/mlp_jax.hlo on the GPU against the
#      interpreter;
#   2. check.py with --platform=gpu on every public oracle case;
#   3. bench/gpu.py: every bench module on rxla and on XLA:GPU (JAX), same
#      inputs, same machine; times, achieved bandwidth, and a copy baseline.
# Results go to $OUT (or build/device-results/): check.txt, check.json,
# bench.txt, bench.json.
#
#   bash bench/gpu.sh [--quick]        # --quick: 40 cases and 4 bench modules
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/device
results=${OUT:-build/device-results}
mkdir -p "$results"
quick=${1:-}
export PYTHONUNBUFFERED=1

xz -dc "$bundle/hlo-run.xz" > /tmp/hlo-run && chmod +x /tmp/hlo-run || { echo "gpu.sh: cannot unpack $bundle/hlo-run.xz (run bench/gpu_bundle.sh)"; exit 1; }
export RXLA_LIBDEVICE=$PWD/$bundle/libdevice.10.bc

# cudarc dlopens libcuda.so.1 and libcublas: put the CUDA wheels' lib folders
# on the path, and name cuBLAS as cudarc looks for it.
libs=/tmp/rxla-cuda-libs
mkdir -p "$libs"
for d in $(python3 - <<'PY'
import importlib, os
for m in ("nvidia.cublas", "nvidia.cu13", "nvidia.cuda_runtime"):
    try:
        mod = importlib.import_module(m)
        for p in getattr(mod, "__path__", []):
            for sub in ("lib", "lib64", "."):
                q = os.path.join(p, sub)
                if os.path.isdir(q):
                    print(q)
    except Exception:
        pass
PY
); do
  for f in "$d"/libcublas.so.* "$d"/libcublasLt.so.*; do
    [[ -e $f ]] || continue
    base=$(basename "$f"); stem=${base%%.so*}
    ln -sf "$f" "$libs/$stem.so"
  done
  LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
export LD_LIBRARY_PATH="$libs:/usr/local/nvidia/lib64:${LD_LIBRARY_PATH:-}"

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$results/device.txt"
/tmp/hlo-run --version

echo "== smoke test"
/tmp/hlo-run examples/mlp_jax.hlo --platform=gpu --inputs examples/mlp_jax_inputs.npz \
  --reference-platform=interpreter --atol 1e-4 --rtol 1e-4 --profile 2>&1 | tail -12 | tee "$results/smoke.txt"

echo "== check.py --platform=gpu"
filter=()
[[ $quick == --quick ]] && filter=(--filter '^(binary_add|unary_exp|reduce_|dot_|scatter_|sort_|transpose|control_|model_)')
python3 "$bundle/oracle/check.py" --cases "$bundle/oracle/cases" -q --jobs 8 --timeout 120 "${filter[@]}" \
  --runner "/tmp/hlo-run {module} --platform=gpu --inputs {inputs} --output {output}" \
  --json "$results/check.json" 2>&1 | tee "$results/check.txt" | tail -40

echo "== bench"
bfilter=()
[[ $quick == --quick ]] && bfilter=(--filter 'add_64m|softmax|reduce_rows|matmul_2048')
python3 bench/gpu.py --hlo-run /tmp/hlo-run --oracle "$bundle/oracle" "${bfilter[@]}" \
  --json "$results/bench.json" 2>&1 | tee "$results/bench.txt"
