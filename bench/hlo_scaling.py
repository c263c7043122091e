#!/usr/bin/env python3
"""How rxla's HLO pipeline scales with module size: the same Llama-style training step at growing depth.

    bench/.venv/bin/python bench/hlo_scaling.py                       # 16, 64, 256 layers (10k-160k instructions)
    bench/.venv/bin/python bench/hlo_scaling.py --layers 16,64 --xla  # also XLA:CPU's whole compile, same modules
    bench/.venv/bin/python bench/hlo_scaling.py --json /tmp/scaling.json

Issue 13 asks for the HLO pipeline of a 100k-instruction module in under a second. The bench models
stop at ~7k instructions, where superlinear passes hide. This exports bench/models/export.py's
`llama_train_step` (value_and_grad, global-norm clipping, AdamW; unrolled layers) with small widths
(d 256, 4 heads, 2 KV heads, ffn 512, vocab 1024; batch 1, seq 32) and 16, 64 and 256 layers, as
`jit(f).lower(...).as_text(dialect="hlo")`, into --out-dir (kept: exporting the 256-layer module takes
about 20 s). Only the module's size grows; every layer is the same.

For each module: `hlo-opt MODULE --platform=P --stage=hlo --mlir-timing --verify-each=false` (the
platform's whole HLO pipeline, as `hlo-run` runs it before the emitters), the wall time of each pass
summed over its runs, the total, microseconds per instruction, and the growth exponent between
successive sizes (log(t2/t1) / log(n2/n1): 1.0 is linear). With --xla, XLA:CPU's whole compile of the
same HLO text (one cold compile_and_load after an untimed one, as bench/compile.py does) for scale;
that includes XLA's LLVM work, which the rxla numbers do not.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compile import XlaCpuCompiler, count_instructions  # noqa: E402
SMALL = dict(d=256, heads=4, kv_heads=2, ffn=512, vocab=1024)
TIMING_RE = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*)$")


def export(layers, out_dir):
    """The module for `layers` layers (exported once, then reused)."""
    path = os.path.join(out_dir, f"llama_train_{layers}.hlo")
    if os.path.isfile(path):
        return path
    sys.path.insert(0, os.path.join(HERE, "models"))
    import jax
    import export as models
    f, args, *_ = models.llama_train_step(layers=layers, batch=1, seq=32, config=dict(models.LLAMA, **SMALL))
    text = jax.jit(f, keep_unused=True).lower(*args).as_text(dialect="hlo")
    os.makedirs(out_dir, exist_ok=True)
    with open(path + ".tmp", "w") as fh:
        fh.write(text)
    os.replace(path + ".tmp", path)
    return path


def rxla_pipeline(hlo_opt, path, platform, timeout):
    """Per-pass wall times (summed over a pass's runs) and the total, from --mlir-timing."""
    cmd = [hlo_opt, path, f"--platform={platform}", "--stage=hlo", "--mlir-timing", "--verify-each=false",
           "-o", os.devnull]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    passes, total = {}, None
    for line in proc.stderr.splitlines():
        m = TIMING_RE.match(line)
        if not m:
            continue
        seconds, name = float(m.group(1)), m.group(2).strip()
        if name == "Total":
            total = seconds
        else:
            passes[name] = passes.get(name, 0.0) + seconds
    if total is None:
        raise RuntimeError(f"no timing report from {' '.join(cmd)}")
    return passes, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layers", default="16,64,256", help="comma-separated layer counts")
    ap.add_argument("--platform", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--hlo-opt", default=os.path.join(REPO, "target", "release", "hlo-opt"))
    ap.add_argument("--out-dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "rxla-hlo-scaling"))
    ap.add_argument("--xla", action="store_true", help="also time XLA:CPU's whole compile of each module")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per hlo-opt run")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    if not os.access(args.hlo_opt, os.X_OK):
        sys.exit(f"error: no hlo-opt at {args.hlo_opt} (cargo build --release --bin hlo-opt, or --hlo-opt)")
    try:
        layers = [int(x) for x in args.layers.split(",") if x]
    except ValueError:
        sys.exit(f"error: --layers expects comma-separated integers, got '{args.layers}'")
    xla = XlaCpuCompiler() if args.xla else None
    rows = []
    for n in layers:
        t0 = time.perf_counter()
        path = export(n, args.out_dir)
        with open(path) as fh:
            text = fh.read()
        row = {"layers": n, "path": path, "instructions": count_instructions(text),
               "export_s": round(time.perf_counter() - t0, 2)}
        passes, total = rxla_pipeline(args.hlo_opt, path, args.platform, args.timeout)
        row.update(total_s=total, passes=passes)
        if xla:
            row["xla_compile_s"] = xla.compile_text(text, 1, 1)["compile_s"][0]
        rows.append(row)
        top = sorted(passes.items(), key=lambda kv: -kv[1])[:4]
        print(f"{n:4d} layers {row['instructions']:7d} instr  HLO pipeline {total:8.3f} s "
              f"({1e6 * total / row['instructions']:6.1f} us/instr)"
              + (f"  XLA:CPU compile {row['xla_compile_s']:7.3f} s" if args.xla else "")
              + "  | " + ", ".join(f"{k} {v:.2f}" for k, v in top), flush=True)
    for a, b in zip(rows, rows[1:]):
        k = math.log(b["total_s"] / a["total_s"]) / math.log(b["instructions"] / a["instructions"])
        per = {p: math.log(max(b["passes"].get(p, 0), 1e-6) / max(a["passes"][p], 1e-6))
               / math.log(b["instructions"] / a["instructions"])
               for p in a["passes"] if a["passes"][p] > 0.01 and p in b["passes"]}
        worst = sorted(per.items(), key=lambda kv: -kv[1])[:3]
        print(f"growth {a['instructions']} -> {b['instructions']} instr: exponent {k:.2f} (1.0 = linear); "
              "steepest: " + ", ".join(f"{p} {e:.2f}" for p, e in worst))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"platform": args.platform, "hlo_opt": args.hlo_opt, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
