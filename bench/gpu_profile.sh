#!/usr/bin/env bash
# Where the time of GPU bench modules goes, on a machine with an NVIDIA GPU
# (run after bench/gpu.sh has unpacked /tmp/hlo-run, or with HLO_RUN set):
#   1. `hlo-run --profile`: the time of every step of the entry program
#      (kernels, gemms, copies, host steps), the stream drained after each;
#   2. Nsight Compute (`ncu`), where installed: per kernel its duration,
#      DRAM and SM throughput as a share of the peak, registers per thread
#      and achieved occupancy, on one run with random inputs.
# Output goes to $OUT/profile.txt (or build/device-results/profile.txt).
#
#   bash bench/gpu_profile.sh [REGEX]   # bench modules whose name matches
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
results=${OUT:-build/device-results}
mkdir -p "$results"
hlo_run=${HLO_RUN:-/tmp/hlo-run}
filter=${1:-softmax|gelu|layernorm|attention|conv2d|matmul_2048|mlp4|sort}
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
deadline=$((SECONDS + ${PROFILE_SECONDS:-150}))
{
  for d in test/oracle/bench/*/; do
    name=$(basename "$d")
    [[ $name =~ $filter ]] || continue
    ((SECONDS < deadline)) || { echo "out of time: the rest skipped"; break; }
    echo "== $name: hlo-run --profile"
    timeout 60 "$hlo_run" "$d/module.hlo" --platform=gpu --random-inputs --warmup 2 --iterations 3 --profile --output /tmp/profile.npz 2>&1 |
      tail -40
    if [[ -n $ncu ]]; then
      echo "== $name: ncu"
      timeout 60 "$ncu" --clock-control none --metrics "$metrics" --csv --page raw -c 24 \
        "$hlo_run" "$d/module.hlo" --platform=gpu --random-inputs --warmup 0 --iterations 1 --output /tmp/profile.npz 2>/dev/null |
        python3 bench/ncu_table.py
    fi
  done
} 2>&1 | tee "$results/profile.txt"
