#!/usr/bin/env python3
"""rxla's GPU backend against XLA:GPU (through JAX) on the oracle's bench modules.

Same machine, same run, same inputs: for each bench/<name>/module.hlo,

  1. inputs from meta.json's gen_inputs with the oracle's bench_xla.gen_input,
     written to an uncompressed .npz;
  2. XLA:GPU in this process, as bench_xla.py does for the CPU: the HLO text
     through XLA's parser, to StableHLO, compiled by the CUDA client;
     `--warmup` untimed runs, then 5 times `--runs` runs dispatched back to
     back and waited for at the end (per-run time: XLA's dispatch overlaps
     the GPU's work, and Python's per-call overhead is left out);
  3. rxla: `hlo-run MODULE --platform=gpu --inputs IN.npz --warmup K
     --iterations N --timings-json T.json --output OUT.npz` (hlo-run times
     each run alone, from its first launch to the GPU's end: rxla's host
     overhead per run is counted, XLA's is not);
  4. the check: rxla's outputs against XLA's, |d| <= atol + rtol*|xla| with
     rtol 2e-3 and atol 2e-3 * max|xla| (integers exact).

Achieved bandwidth is meta.json's bytes_moved_min over the median time; the
baseline is a device-to-device copy of 1 GiB through JAX (bytes read and
written), measured first.

Precision: XLA:GPU computes f32 dots and convolutions of DEFAULT precision
in TF32 on tensor cores (10-bit mantissas); rxla computes them in f32, as
XLA:CPU does and as the oracle's tolerances expect. So modules with dots or
convolutions also run on XLA:GPU with `operand_precision={highest,highest}`
(f32 like rxla): the `xla_f32_ms` column, and `ratio_f32` against it.

    python3 bench/gpu.py --hlo-run /tmp/hlo-run --oracle build/device/oracle [--filter RE] [--json OUT]
"""
import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def load_gen_input(oracle):
    spec = importlib.util.spec_from_file_location("bench_xla", os.path.join(oracle, "bench_xla.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.gen_input


class XlaGpu:
    """XLA:GPU through jaxlib, HLO text in."""

    def __init__(self):
        import jax

        jax.config.update("jax_enable_x64", True)
        self.jax = jax
        from jax._src import xla_bridge
        from jax._src.lib import xla_client as xc

        self.xc = xc
        self.backend = xla_bridge.get_backend("gpu")
        self.dev = self.backend.devices()[0]

    def compile(self, text):
        from jax._src.lib import _jax
        import jaxlib._hlo as hlo

        module = hlo.hlo_module_from_text(text)
        shlo = _jax.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        t0 = time.perf_counter()
        exe = self.backend.compile_and_load(shlo, [self.dev], self.xc.CompileOptions())
        return exe, time.perf_counter() - t0

    def time(self, exe, inputs, warmup, runs):
        """Per-run times: `runs` executions dispatched back to back, waited
        for at the end, 5 times (XLA's best case: its dispatch overlaps the
        GPU's work, and Python's overhead per call is not counted)."""
        bufs = [self.jax.device_put(x, self.dev) for x in inputs]
        for b in bufs:
            b.block_until_ready()

        def wait(outs):
            for o in outs:
                o.block_until_ready()

        for _ in range(warmup):
            wait(exe.execute(bufs))
        times = []
        outs = None
        for _ in range(5):
            t0 = time.perf_counter()
            pending = [exe.execute(bufs) for _ in range(runs)]
            wait(pending[-1])
            times.append((time.perf_counter() - t0) / runs)
            outs = pending[-1]
            del pending
        return times, [np.asarray(o) for o in outs]

    def copy_gbs(self):
        jnp = self.jax.numpy
        x = jnp.ones((1 << 28,), jnp.float32)  # 1 GiB
        copy = self.jax.jit(lambda a: a + 0.0)
        copy(x).block_until_ready()
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            ys = [copy(x) for _ in range(10)]
            ys[-1].block_until_ready()
            times.append((time.perf_counter() - t0) / 10)
            del ys
        return 2 * x.nbytes / statistics.median(times) / 1e9


PRECISION_OPS = re.compile(r"^(\s*(?:ROOT\s+)?[\w.\-]+ = .*\b(?:dot|convolution)\(.*)$", re.M)


def highest_precision(text):
    """The module with every dot and convolution at HIGHEST precision, or
    None when it has neither."""
    if not PRECISION_OPS.search(text):
        return None

    def fix(m):
        line = re.sub(r",\s*operand_precision=\{[^}]*\}", "", m.group(1))
        return line + ", operand_precision={highest,highest}"

    return PRECISION_OPS.sub(fix, text)


def check(expected, got):
    worst = 0.0
    for e, g in zip(expected, got):
        if e.shape != g.shape:
            return f"WRONG shape {g.shape} vs {e.shape}"
        if e.dtype.kind in "iub":
            bad = int(np.count_nonzero(e != g))
            if bad:
                return f"WRONG ({bad} elements differ)"
            continue
        e64, g64 = e.astype(np.float64), g.astype(np.float64)
        atol = 2e-3 * float(np.nanmax(np.abs(e64))) if e64.size else 0.0
        d = np.abs(g64 - e64)
        ok = (d <= atol + 2e-3 * np.abs(e64)) | (np.isnan(e64) & np.isnan(g64))
        if not ok.all():
            return f"WRONG ({int((~ok).sum())} elements off)"
        if d.size:
            worst = max(worst, float(np.nanmax(d / np.maximum(np.abs(e64), max(atol, 1e-30)))))
    return f"ok (rel {worst:.1e})"


def rxla(hlo_run, module, npz, scratch, warmup, runs, timeout):
    timings = os.path.join(scratch, "t.json")
    out = os.path.join(scratch, "out.npz")
    cmd = [hlo_run, module, "--platform=gpu", "--inputs", npz, "--warmup", str(warmup), "--iterations", str(runs),
           "--timings-json", timings, "--output", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError((p.stderr or p.stdout).strip().splitlines()[-1] if (p.stderr or p.stdout) else f"exit {p.returncode}")
    t = json.load(open(timings))
    with np.load(out) as z:
        outs = [z[f"out{i}"] for i in range(len(z.files))]
    return t["run_s"], t["compile_s"], outs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hlo-run", default="target/release/hlo-run")
    ap.add_argument("--oracle", default="test/oracle")
    ap.add_argument("--filter", default=None)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()

    import ml_dtypes

    dt = {"f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16, "f16": np.float16, "s8": np.int8,
          "s32": np.int32, "s64": np.int64, "u8": np.uint8, "u32": np.uint32, "pred": np.bool_}
    gen_input = load_gen_input(args.oracle)
    bench = os.path.join(args.oracle, "bench")
    names = sorted(n for n in os.listdir(bench) if os.path.isfile(os.path.join(bench, n, "meta.json")))
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    try:
        xla = XlaGpu()
        copy = xla.copy_gbs()
        print(f"device-to-device copy (JAX, 1 GiB): {copy:.0f} GB/s")
    except Exception as e:  # no JAX with CUDA: rxla alone
        xla, copy = None, None
        print(f"XLA:GPU unavailable: {e}")
    hdr = (f"{'case':34s} {'xla_ms':>8s} {'xla_f32_ms':>10s} {'rxla_ms':>8s} {'ratio':>6s} {'ratio_f32':>9s} "
           f"{'rxla GB/s':>9s} {'% copy':>6s}  check")
    print(hdr)
    print("-" * len(hdr))
    rows = []
    for n in names:
        d = os.path.join(bench, n)
        meta = json.load(open(os.path.join(d, "meta.json")))
        module = os.path.join(d, "module.hlo")
        row = {"name": n}
        with tempfile.TemporaryDirectory() as scratch:
            inputs = [gen_input(s, dt) for s in meta["gen_inputs"]]
            npz = os.path.join(scratch, "in.npz")
            np.savez(npz, **{f"arg{i}": (x.view(np.uint16) if x.dtype == ml_dtypes.bfloat16 else x) for i, x in enumerate(inputs)})
            expected = None
            if xla:
                text = open(module).read()
                try:
                    exe, compile_s = xla.compile(text)
                    times, expected = xla.time(exe, inputs, args.warmup, args.runs)
                    row.update(xla_median_s=statistics.median(times), xla_min_s=min(times), xla_compile_s=compile_s)
                    del exe
                except Exception as e:
                    row["xla_error"] = str(e)
                f32_text = highest_precision(text)
                if f32_text is not None:
                    try:
                        exe, _ = xla.compile(f32_text)
                        times, f32_expected = xla.time(exe, inputs, args.warmup, args.runs)
                        row["xla_f32_median_s"] = statistics.median(times)
                        # The f32 results are the reference for rxla's f32.
                        expected = f32_expected
                        del exe
                    except Exception as e:
                        row["xla_f32_error"] = str(e)
            try:
                times, compiles, got = rxla(args.hlo_run, module, npz, scratch, args.warmup, args.runs, args.timeout)
                row.update(rxla_median_s=statistics.median(times), rxla_min_s=min(times),
                           rxla_compile_s=statistics.median(compiles) if compiles else None)
                row["check"] = check(expected, got) if expected is not None else "no XLA result"
            except Exception as e:
                row["rxla_error"] = str(e)
                row["check"] = "rxla failed"
        med = row.get("rxla_median_s")
        gbs = meta.get("bytes_moved_min") and med and meta["bytes_moved_min"] / med / 1e9
        row["rxla_gb_per_s"] = gbs
        row["percent_of_copy"] = gbs and copy and 100 * gbs / copy
        ratio = med and row.get("xla_median_s") and med / row["xla_median_s"]
        row["ratio"] = ratio
        ratio_f32 = med and row.get("xla_f32_median_s") and med / row["xla_f32_median_s"]
        row["ratio_f32"] = ratio_f32
        rows.append(row)
        def ms(s):
            return f"{s * 1e3:8.3f}" if s else f"{'-':>8s}"
        pct = row["percent_of_copy"]
        ratio_text = f"{ratio:6.2f}" if ratio else "     -"
        gbs_text = f"{gbs:9.0f}" if gbs else " " * 9
        pct_text = f"{pct:6.1f}" if pct else " " * 6
        error = " " + row["rxla_error"] if "rxla_error" in row else ""
        f32_ms = f"{row['xla_f32_median_s'] * 1e3:10.3f}" if row.get("xla_f32_median_s") else f"{'-':>10s}"
        ratio_f32_text = f"{ratio_f32:9.2f}" if ratio_f32 else f"{'-':>9s}"
        print(f"{n:34s} {ms(row.get('xla_median_s'))} {f32_ms} {ms(med)} {ratio_text} {ratio_f32_text} {gbs_text} "
              f"{pct_text}  {row['check']}{error}", flush=True)
    ratios = [r["ratio"] for r in rows if r.get("ratio")]
    if ratios:
        g = float(np.exp(np.mean(np.log(ratios))))
        print(f"geomean rxla/XLA:GPU over {len(ratios)} of {len(rows)} cases: {g:.3f}")
    # Against XLA at the same precision: f32 where the module has dots or
    # convolutions, the default elsewhere.
    same = [r.get("ratio_f32") or r.get("ratio") for r in rows if r.get("ratio_f32") or r.get("ratio")]
    if same:
        g = float(np.exp(np.mean(np.log(same))))
        print(f"geomean rxla/XLA:GPU at the same (f32) precision over {len(same)} of {len(rows)} cases: {g:.3f}")
    if args.json:
        json.dump({"copy_gb_per_s": copy, "results": rows}, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
