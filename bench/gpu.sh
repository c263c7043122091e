#!/usr/bin/env bash
# The GPU checks, on a machine with an NVIDIA GPU, CUDA's libraries and JAX
# with CUDA (no Rust toolchain needed): unpacks build/device/ (made by
# bench/gpu_bundle.sh), then runs these steps, each with a time limit so
# that one that hangs leaves the others their time:
#   smoke      examples/mlp_jax.hlo on the GPU against the interpreter;
#   check      check.py with --platform=gpu on every oracle case
#              (test/oracle, against XLA:CPU's outputs);
#   sort       the device radix sort: test/hlo-run/gpu-sort.hlo against the
#              interpreter, and 5M-element sorts (more than 1024 tiles)
#              against the CPU backend, exactly;
#   vectors    bench/gpu_vectors.hlo (the transposes and column reductions
#              that read and write vectors) against the CPU backend;
#   bench      bench/gpu.py: every bench module on rxla and on XLA:GPU
#              (JAX), same inputs, same machine; times, achieved bandwidth
#              and a device-to-device copy baseline;
#   models     check.py with --platform=gpu on the real-model corpus
#              (test/models, against XLA:CPU's outputs);
#   sanitizer  compute-sanitizer (memcheck, racecheck) on a sample of cases;
#   xla        the oracle cases that differ from XLA:CPU's outputs, again
#              against XLA:GPU's (through JAX): where the platforms differ
#              (XLA:CPU flushes denormals, XLA:GPU keeps them), XLA:GPU is
#              the reference;
#   profile    bench/gpu_profile.sh: where the bench modules' time goes.
# Results go to $OUT (or build/device-results/): gpu.log (everything
# printed), check.json, bench.json, models.json, xla-gpu.json, profile.txt
# (the device tool brings back at most 8 files).
#
#   bash bench/gpu.sh                  # every step but profile
#   GPU_STEPS="check models" CHECK_FILTER='^binary_rem' MODELS_FILTER='^llama' \
#     BENCH_FILTER='softmax' PROFILE_FILTER='softmax' bash bench/gpu.sh
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle=build/device
oracle=test/oracle
results=${OUT:-build/device-results}
mkdir -p "$results"
steps=" ${GPU_STEPS:-smoke check sort vectors bench models sanitizer xla} "
step() { [[ $steps == *" $1 "* ]]; }
filter_args() { [[ -n ${1:-} ]] && echo "--filter=$1"; }
export PYTHONUNBUFFERED=1
exec > >(tee "$results/gpu.log") 2>&1

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

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
/tmp/hlo-run --version

runner="/tmp/hlo-run {module} --platform=gpu --inputs {inputs} --output {output}"

if step smoke; then
  echo "== smoke test"
  /tmp/hlo-run examples/mlp_jax.hlo --platform=gpu --inputs examples/mlp_jax_inputs.npz \
    --reference-platform=interpreter --atol 1e-4 --rtol 1e-4 --profile --output /tmp/smoke.npz 2>&1 | tail -12
fi

if step check; then
  echo "== check.py --platform=gpu"
  timeout 180 python3 "$oracle/check.py" --cases "$oracle/cases" -q --jobs 12 --timeout 60 \
    $(filter_args "${CHECK_FILTER:-}") --runner "$runner" --json "$results/check.json" 2>&1 | tail -40
fi

if step sort; then
  echo "== device sort"
  timeout 60 /tmp/hlo-run test/hlo-run/gpu-sort.hlo --platform=gpu --random-inputs --seed 5 \
    --reference-platform=interpreter --atol 0 --rtol 0 --output /tmp/sort.npz 2>&1 | tail -2
  cat > /tmp/sort-big.hlo <<'HLO'
HloModule sort_big

less_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
}

greater_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT gt = pred[] compare(a, b), direction=GT
}

ENTRY main {
  x = f32[5000000] parameter(0)
  i = s32[5000000] iota(), iota_dimension=0
  argsort = (f32[5000000], s32[5000000]) sort(x, i), dimensions={0}, is_stable=true, to_apply=less_f32
  k = s32[3,1700000] parameter(1)
  j = s32[3,1700000] iota(), iota_dimension=1
  rows = (s32[3,1700000], s32[3,1700000]) sort(k, j), dimensions={1}, is_stable=true, to_apply=greater_s32
  a0 = f32[5000000] get-tuple-element(argsort), index=0
  a1 = s32[5000000] get-tuple-element(argsort), index=1
  r0 = s32[3,1700000] get-tuple-element(rows), index=0
  r1 = s32[3,1700000] get-tuple-element(rows), index=1
  ROOT t = (f32[5000000], s32[5000000], s32[3,1700000], s32[3,1700000]) tuple(a0, a1, r0, r1)
}
HLO
  timeout 90 /tmp/hlo-run /tmp/sort-big.hlo --platform=gpu --random-inputs --reference-platform=cpu \
    --atol 0 --rtol 0 --output /tmp/sort-big.npz 2>&1 | tail -2
fi

if step vectors; then
  echo "== vector kernels"
  # Transposes move elements exactly; the sums differ from the CPU's only
  # by their order of accumulation.
  timeout 90 /tmp/hlo-run bench/gpu_vectors.hlo --platform=gpu --random-inputs --seed 3 \
    --reference-platform=cpu --atol 1e-3 --rtol 1e-3 --output /tmp/vectors.npz 2>&1 | tail -3
fi

if step bench; then
  echo "== bench"
  timeout 150 python3 bench/gpu.py --hlo-run /tmp/hlo-run --oracle "$oracle" --timeout 60 \
    $(filter_args "${BENCH_FILTER:-}") --json "$results/bench.json" 2>&1
fi

if step models; then
  echo "== models: check.py --platform=gpu on test/models"
  timeout 150 python3 "$oracle/check.py" --cases test/models/cases --jobs 4 --timeout 120 \
    $(filter_args "${MODELS_FILTER:-}") --runner "$runner" --json "$results/models.json" 2>&1 | tail -20
fi

if step sanitizer; then
  echo "== compute-sanitizer"
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
  if [[ -z $sanitizer ]]; then
    echo "no compute-sanitizer on this machine"
  else
    # The device sort first, then one case of each kernel family: loop, row
    # and column reductions, transpose, scatter, top-k, dot, reduce-window,
    # dynamic-update-slice.
    deadline=$((SECONDS + 60))
    for tool in memcheck racecheck; do
      printf 'gpu-sort.hlo %s: ' "$tool"
      timeout 30 "$sanitizer" --tool "$tool" --error-exitcode 3 /tmp/hlo-run test/hlo-run/gpu-sort.hlo --platform=gpu \
        --random-inputs --output /tmp/sanitized.npz > /tmp/sanitizer.log 2>&1
      rc=$?
      if ((rc == 0)); then echo ok; else echo "exit $rc"; grep -E "=========" /tmp/sanitizer.log | head -8; fi
    done
    for c in binary_add_bcast_scalar_f32 reduce_sum_axis2_f32 reduce_sum_axes02_f32 shape_transpose_2d_f32 \
      scatter_add_dup_f32 model_topk_topp_f32 dot_matmul_f32 reduce_window_avgpool_f32 dynamic_update_slice_f32; do
      d=$(ls -d "$oracle/cases/$c"* 2>/dev/null | head -1)
      [[ -n $d ]] || continue
      for tool in memcheck racecheck; do
        ((SECONDS < deadline)) || { echo "out of time: the rest skipped"; break 2; }
        printf '%s %s: ' "$(basename "$d")" "$tool"
        timeout 30 "$sanitizer" --tool "$tool" --error-exitcode 3 /tmp/hlo-run "$d/module.hlo" --platform=gpu \
          --inputs "$d/inputs.npz" --output /tmp/sanitized.npz > /tmp/sanitizer.log 2>&1
        rc=$?
        if ((rc == 0)); then echo ok; else echo "exit $rc"; grep -E "=========" /tmp/sanitizer.log | head -8; fi
      done
    done 2>&1
  fi
fi

if step xla; then
  echo "== cases that differ from XLA:CPU, against XLA:GPU"
  # The failures of the check step, or the cases XLA_CASES names.
  failed=${XLA_CASES:-$(python3 -c 'import json, sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["results"] if r["status"] != "PASS"))' "$results/check.json" 2>/dev/null)}
  if [[ -n $failed ]]; then
    xla=/tmp/xla-gpu-cases
    rm -rf "$xla"
    for n in $failed; do
      mkdir -p "$xla/$n"
      for f in module.hlo inputs.npz meta.json; do ln -s "$PWD/$oracle/cases/$n/$f" "$xla/$n/$f"; done
      XLA_PYTHON_CLIENT_PREALLOCATE=false timeout 60 python3 "$oracle/xla_runner.py" "$xla/$n/module.hlo" \
        --inputs "$xla/$n/inputs.npz" --output "$xla/$n/expected.npz" --platform gpu 2>&1 | tail -2
    done
    timeout 60 python3 "$oracle/check.py" --cases "$xla" --jobs 4 --timeout 60 \
      --runner "$runner" --json "$results/xla-gpu.json" 2>&1
  fi
fi

if step profile; then
  PROFILE_SECONDS=${PROFILE_SECONDS:-150} bash bench/gpu_profile.sh "${PROFILE_FILTER:-}"
fi
