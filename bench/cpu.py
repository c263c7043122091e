#!/usr/bin/env python3
"""Compare rxla's CPU backend with XLA:CPU (through JAX) on the oracle's benchmark modules.

    bash bench/setup_venv.sh && bench/.venv/bin/python bench/cpu.py
    bench/.venv/bin/python bench/cpu.py --filter 'add_64m|gelu|reduce_rows' --json /tmp/cpu.json
    bench/.venv/bin/python bench/cpu.py --runs 20 --warmup 5

For each case in <bench>/<name>/ (module.hlo + meta.json), in one process on one machine:

  1. the inputs are generated from meta.json's gen_inputs (numpy default_rng per input seed, with
     the oracle's bench_xla.gen_input) and saved to a scratch .npz;
  2. XLA:CPU is timed in-process as the oracle's bench_xla.py does: HLO text -> XLA's HLO parser ->
     StableHLO -> compile_and_load on the jaxlib CPU client (parse/convert not timed), `warmup`
     untimed runs, then `runs` timed runs, each ended by block_until_ready on every output.
     The compile is repeated like rxla's: `warmup` untimed compiles, then `runs` timed ones;
  3. rxla is timed by `hlo-run MODULE --platform=cpu --inputs IN.npz --warmup K --iterations N
     --timings-json T.json --output OUT.npz` (a subprocess; hlo-run times its own compiles and
     runs, so process start and file I/O are not counted);
  4. rxla's outputs are checked against XLA's: |rxla - xla| <= atol + rtol*|xla| elementwise, with
     rtol = 2e-3 and atol = 2e-3 * max|xla| per output (integers and pred: exact; NaNs must match).

Printed: one row per case (medians), then the geometric means of rxla/XLA for run and compile
time over the cases rxla ran, and the worst case.  A case that rxla fails (non-zero exit, timeout)
or XLA fails is reported with the error's last line and left out of the geomeans.
"""
import argparse
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_ORACLE = os.environ.get("RXLA_ORACLE", os.path.join(REPO, "test", "oracle"))


# ---------------------------------------------------------------------------------------------
# Input generation: the oracle's own bench_xla.gen_input (test/oracle is in the repository), so the
# inputs are exactly the oracle's.

def load_oracle_helpers(oracle_dir):
    """(gen_input, cpu_model, where they came from)."""
    path = os.path.join(oracle_dir, "bench_xla.py")
    if not os.path.isfile(path):
        raise SystemExit(f"error: {path} not found (the oracle corpus is test/oracle; --oracle overrides it)")
    sys.path.insert(0, oracle_dir)
    try:
        import bench_xla  # noqa: E402
    finally:
        sys.path.remove(oracle_dir)
    return bench_xla.gen_input, bench_xla.cpu_model, path


# ---------------------------------------------------------------------------------------------

def last_line(text):
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def warn_if_busy(rows, summary):
    """Records in `summary` and warns about the cases during which other processes took over
    BUSY_FRACTION of the CPUs (their times are skewed)."""
    busy = [r for r in rows if r.get("other_cpu_fraction", 0) > BUSY_FRACTION]
    summary["busy_cases"] = [r["name"] for r in busy]
    if busy:
        names = ', '.join(short_name(r['name']) for r in busy) if len(busy) <= 6 else 'of ' + str(len(rows))
        print(f"warning: other processes took over {BUSY_FRACTION:.0%} of the CPUs during {len(busy)} case(s) "
              f"({names}): their times are skewed; rerun on an idle machine")


def short_name(name):
    return name[len("bench_"):] if name.startswith("bench_") else name


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


CHUNK = 1 << 22
# a case during which other processes took more than this share of the machine's CPU time is flagged
BUSY_FRACTION = 0.05


def float_stats(e, g, rtol, atol_scale):
    """Elementwise |g - e| <= atol + rtol*|e| with atol = atol_scale * max|e| (finite elements), in
    float64, chunk by chunk so that large outputs need little memory. NaNs and infinities must match."""
    ef_all, gf_all = e.reshape(-1), g.reshape(-1)
    scale = 0.0
    for i in range(0, ef_all.size, CHUNK):
        c = np.abs(ef_all[i:i + CHUNK].astype(np.float64))
        c = c[np.isfinite(c)]
        if c.size:
            scale = max(scale, float(c.max()))
    atol = atol_scale * scale
    floor = atol if atol > 0 else np.finfo(np.float64).tiny
    viol = nan_mm = inf_mm = 0
    max_abs = max_rel = 0.0
    worst = None
    for i in range(0, ef_all.size, CHUNK):
        ec = ef_all[i:i + CHUNK].astype(np.float64)
        gc = gf_all[i:i + CHUNK].astype(np.float64)
        nan_e, nan_g = np.isnan(ec), np.isnan(gc)
        nan_mm += int(np.count_nonzero(nan_e != nan_g))
        inf_e, inf_g = np.isinf(ec), np.isinf(gc)
        inf_mm += int(np.count_nonzero((inf_e | inf_g) & ~(nan_e | nan_g) & (ec != gc)))
        fin = ~(nan_e | nan_g | inf_e | inf_g)
        if not fin.all():
            ec, gc = ec[fin], gc[fin]
        if not ec.size:
            continue
        d = np.abs(gc - ec)
        ae = np.abs(ec)
        viol += int(np.count_nonzero(d > atol + rtol * ae))
        j = int(d.argmax())
        if worst is None or d[j] > max_abs:
            max_abs = float(d[j])
            worst = {"xla": float(ec[j]), "rxla": float(gc[j])}
        max_rel = max(max_rel, float((d / np.maximum(ae, floor)).max()))
    out = {"ok": viol == 0 and nan_mm == 0 and inf_mm == 0, "mismatches": viol, "nan_mismatches": nan_mm,
           "inf_mismatches": inf_mm, "max_abs_err": max_abs, "max_rel_err": max_rel,
           "max_abs_expected": scale, "atol": atol, "rtol": rtol}
    if worst is not None:
        out["worst_element"] = worst
    return out


def check_outputs(expected, got, rtol, atol_scale):
    """Compare rxla's outputs (dict outN -> array) with XLA's (list). Returns a dict."""
    res = {"ok": True, "outputs": [], "error": None}
    names = sorted(got, key=lambda k: int(k[3:]) if k[3:].isdigit() else 1 << 30)
    if len(names) != len(expected):
        res.update(ok=False, error=f"rxla gave {len(names)} outputs, XLA {len(expected)}")
        return res
    worst_abs, worst_rel = 0.0, 0.0
    for name, e in zip(names, expected):
        g = got[name]
        e = np.asarray(e)
        info = {"name": name, "shape": list(e.shape), "dtype": str(e.dtype)}
        if e.dtype.name == "bfloat16" and g.dtype == np.uint16:
            g = g.view(e.dtype)
        if tuple(g.shape) != tuple(e.shape):
            info.update(ok=False, error=f"shape {tuple(g.shape)} != XLA's {tuple(e.shape)}")
            res["outputs"].append(info)
            res.update(ok=False, error=f"{name}: {info['error']}")
            continue
        if np.issubdtype(e.dtype, np.integer) or e.dtype == np.bool_:
            bad = int(np.count_nonzero(g != e))
            e64 = e.astype(np.int64).reshape(-1)
            d = np.abs(g.astype(np.int64).reshape(-1) - e64)
            mx = float(d.max()) if d.size else 0.0
            rel = float((d / np.maximum(np.abs(e64), 1)).max()) if d.size else 0.0
            info.update(ok=bad == 0, mismatches=bad, max_abs_err=mx, max_rel_err=rel, atol=0.0, rtol=0.0)
            worst_abs, worst_rel = max(worst_abs, mx), max(worst_rel, rel)
        else:
            if np.iscomplexobj(e):  # compare real and imaginary parts as floats
                e, g = e.view(e.real.dtype), g.view(g.real.dtype)
            info.update(float_stats(e, g, rtol, atol_scale))
            max_abs, max_rel = info["max_abs_err"], info["max_rel_err"]
            worst_abs, worst_rel = max(worst_abs, max_abs), max(worst_rel, max_rel)
        if not info["ok"] and res["ok"]:
            parts = [f"{info['mismatches']} of {e.size} elements off"] if info.get("mismatches") else []
            if info.get("nan_mismatches"):
                parts.append(f"{info['nan_mismatches']} NaN mismatches")
            if info.get("inf_mismatches"):
                parts.append(f"{info['inf_mismatches']} Inf mismatches")
            res["error"] = f"{name}: " + ", ".join(parts) + f" (max abs err {info['max_abs_err']:.3g})"
        res["ok"] = res["ok"] and info["ok"]
        res["outputs"].append(info)
    res["max_abs_err"], res["max_rel_err"] = worst_abs, worst_rel
    return res


# an output rxla gets within this factor of how far XLA's own output moves when every float input moves
# by one ulp is as close to XLA's as the program's conditioning allows
SENSITIVITY_FACTOR = 2.0


def failed_float_outputs(check):
    """The outputs that failed only as finite float mismatches, or None if another kind failed."""
    failed = [o for o in check["outputs"] if not o.get("ok") and "max_abs_err" in o
              and not o.get("nan_mismatches") and not o.get("inf_mismatches") and "error" not in o]
    if not failed or len(failed) != sum(1 for o in check["outputs"] if not o.get("ok")):
        return None
    return failed


def promote_to_f64(text):
    """The HLO module with every f32 array and scalar made f64 (None if it has no f32)."""
    promoted = re.sub(r"\bf32\[", "f64[", text)
    return promoted if promoted != text else None


def isolated_outliers(size):
    """How many elements of an output of `size` elements may exceed XLA's largest error in
    accuracy_recheck's norm-wise test: one in a thousand, at least one."""
    return max(1, size // 1000)


def accuracy_recheck(check, expected, got, run_xla_f64):
    """Rechecks the outputs that failed the tolerance check against a float64 reference: XLA runs the
    module promoted to f64 on the same inputs (run_xla_f64). An output passes when rxla is as accurate
    as XLA against that reference, in one of two senses:
    - "max": rxla's largest error is at most SENSITIVITY_FACTOR times XLA's largest error;
    - "norm": rxla's norm-wise (L2) error is at most SENSITIVITY_FACTOR times XLA's, and the elements
      whose error exceeds SENSITIVITY_FACTOR times XLA's largest are isolated (isolated_outliers).
    A training step through many batch-norm layers makes some outputs so ill-conditioned (ResNet-50's
    first batch-norm parameters move 0.005 on 0.2 under a one-ulp input change) that two correct f32
    compilers differ by more than any fixed tolerance; the f64 result says which of them is closer.
    The norm-wise sense is for ReLU kinks: where a forward activation lies within rounding error of
    zero, the two compilers (or XLA against itself, with its inputs moved by one ulp) take different
    sides, and the gradients it feeds move by a whole term in a few elements; the largest error then
    measures which side the rounding fell on, not accuracy. Each output passed this way is listed,
    with both errors, in check["accuracy"]. Returns None when the f64 module cannot be run (the
    caller falls back to sensitivity_recheck)."""
    failed = failed_float_outputs(check)
    if failed is None:
        check["accuracy_recheck"] = "not done: a failed output is not a finite float mismatch"
        return check
    reference = run_xla_f64()
    if reference is None:
        return None
    index = {o["name"]: i for i, o in enumerate(check["outputs"])}
    passed = []
    for o in failed:
        i = index[o["name"]]
        ref = np.asarray(reference[i], dtype=np.float64)
        e = np.asarray(expected[i], dtype=np.float64)
        g = np.asarray(got[o["name"]], dtype=np.float64)
        fin = np.isfinite(ref) & np.isfinite(e) & np.isfinite(g)
        xla_d, rxla_d = np.abs(e - ref)[fin], np.abs(g - ref)[fin]
        xla_err = float(xla_d.max()) if xla_d.size else 0.0
        rxla_err = float(rxla_d.max()) if rxla_d.size else 0.0
        entry = {"name": o["name"], "rxla_err_f64": rxla_err, "xla_err_f64": xla_err}
        if rxla_err <= SENSITIVITY_FACTOR * xla_err:
            passed.append(dict(entry, sense="max"))
            continue
        xla_norm, rxla_norm = float(np.linalg.norm(xla_d)), float(np.linalg.norm(rxla_d))
        outliers = int((rxla_d > SENSITIVITY_FACTOR * xla_err).sum())
        entry.update(rxla_norm_err_f64=rxla_norm, xla_norm_err_f64=xla_norm, outliers=outliers)
        if rxla_norm <= SENSITIVITY_FACTOR * xla_norm and outliers <= isolated_outliers(int(fin.sum())):
            passed.append(dict(entry, sense="norm"))
            continue
        check["accuracy_recheck"] = (f"{o['name']}: err vs f64 {rxla_err:.2e} > {SENSITIVITY_FACTOR} x XLA's "
                                     f"{xla_err:.2e}; norm-wise {rxla_norm:.2e} vs XLA's {xla_norm:.2e}, "
                                     f"{outliers} of {int(fin.sum())} elements beyond")
        return check
    for o in failed:
        o["ok"] = True
    check.update(ok=True, error=None, accuracy=passed)
    return check


def sensitivity_recheck(check, expected, got, run_xla_perturbed):
    """The fallback of accuracy_recheck where no f64 reference runs: XLA is run again with every float
    input moved by one ulp (run_xla_perturbed), and an output passes when rxla's largest error is at
    most SENSITIVITY_FACTOR times the largest change of XLA's own output. Each output passed this way
    is listed, with both numbers, in check["sensitivity"]."""
    failed = failed_float_outputs(check)
    if failed is None:
        check["sensitivity_recheck"] = "not done: a failed output is not a finite float mismatch"
        return check
    perturbed = run_xla_perturbed()
    index = {o["name"]: i for i, o in enumerate(check["outputs"])}
    passed = []
    for o in failed:
        i = index[o["name"]]
        e, e2 = np.asarray(expected[i], dtype=np.float64), np.asarray(perturbed[i], dtype=np.float64)
        fin = np.isfinite(e) & np.isfinite(e2)
        noise = float(np.abs(e - e2)[fin].max()) if fin.any() else 0.0
        if o["max_abs_err"] > SENSITIVITY_FACTOR * noise:
            check["sensitivity_recheck"] = (f"{o['name']}: err {o['max_abs_err']:.2e} > {SENSITIVITY_FACTOR} x XLA's "
                                            f"one-ulp change {noise:.2e}")
            return check
        passed.append({"name": o["name"], "max_abs_err": o["max_abs_err"], "xla_one_ulp_change": noise})
    for o in failed:
        o["ok"] = True
    check.update(ok=True, error=None, sensitivity=passed)
    return check


class XlaCpu:
    """XLA:CPU through jaxlib, timed as the oracle's bench_xla.py does."""

    def __init__(self):
        import jax
        jax.config.update("jax_enable_x64", True)
        import jaxlib
        import ml_dtypes
        import jaxlib._hlo as hlo
        from jax._src.lib import _jax, xla_client as xc
        from jax._src import xla_bridge
        self.jax, self.hlo, self._jax, self.xc = jax, hlo, _jax, xc
        self.versions = {"jax": jax.__version__, "jaxlib": jaxlib.__version__}
        self.dt = {"f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16, "f16": np.float16,
                   "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64, "u8": np.uint8,
                   "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "pred": np.bool_}
        self.backend = xla_bridge.get_backend("cpu")
        self.dev = self.backend.devices()[0]

    def time(self, text, inputs, runs, warmup, compile_runs, compile_warmup):
        module = self.hlo.hlo_module_from_text(text)
        shlo = self._jax.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        compile_times, first_compile = [], None
        exe = None
        for i in range(compile_warmup + compile_runs):
            exe = None
            t0 = time.perf_counter()
            exe = self.backend.compile_and_load(shlo, [self.dev], self.xc.CompileOptions())
            dt = time.perf_counter() - t0
            if first_compile is None:
                first_compile = dt
            if i >= compile_warmup:
                compile_times.append(dt)
        bufs = [self.jax.device_put(x, self.dev) for x in inputs]
        for b in bufs:
            b.block_until_ready()

        def run():
            outs = exe.execute(bufs)
            for o in outs:
                o.block_until_ready()
            return outs
        for _ in range(warmup):
            run()
        times, outs = [], None
        for _ in range(runs):
            outs = None
            t0 = time.perf_counter()
            outs = run()
            times.append(time.perf_counter() - t0)
        expected = [np.asarray(o) for o in outs]
        del outs, bufs, exe
        return {"compile_s": compile_times, "first_compile_s": first_compile, "run_s": times}, expected


def run_rxla(hlo_run, module_path, npz, scratch, runs, warmup, timeout, extra_args):
    tj = os.path.join(scratch, "rxla_times.json")
    out = os.path.join(scratch, "rxla_out.npz")
    # XLA gets the module as StableHLO, which carries no layouts: its entry
    # parameters and results are row-major. rxla is given the same contract
    # unless --rxla-arg says otherwise.
    layouts = [] if any(a.startswith("--entry-layouts") for a in extra_args) else ["--entry-layouts=default"]
    cmd = [hlo_run, module_path, "--platform=cpu", "--inputs", npz, "--warmup", str(warmup),
           "--iterations", str(runs), "--timings-json", tj, "--output", out] + layouts + list(extra_args)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return {"ok": False, "error": f"timed out after {timeout:g} s", "cmd": cmd,
                "stderr_tail": (e.stderr or b"")[-4000:].decode("utf-8", "replace") if isinstance(e.stderr, bytes)
                else (e.stderr or "")[-4000:]}, None
    wall = time.perf_counter() - t0
    res = {"cmd": cmd, "returncode": p.returncode, "wall_s": wall}
    if p.returncode != 0:
        if p.returncode < 0:
            err = f"killed by signal {-p.returncode}"
            tail = last_line(p.stderr)
            err += f" ({tail})" if tail else ""
        else:
            err = last_line(p.stderr) or last_line(p.stdout) or f"exit status {p.returncode}"
        res.update(ok=False, error=err, stderr_tail=p.stderr[-4000:])
        return res, None
    try:
        with open(tj) as f:
            t = json.load(f)
        with np.load(out) as z:
            got = {k: z[k] for k in z.files}
    except Exception as e:
        res.update(ok=False, error=f"cannot read hlo-run's results: {e}", stderr_tail=p.stderr[-4000:])
        return res, None
    res.update(ok=True, compile_s=t.get("compile_s", []), run_s=t.get("run_s", []))
    if not res["run_s"]:
        res.update(ok=False, error="hlo-run wrote no run times")
        return res, None
    return res, got


def stats(times):
    if not times:
        return None, None
    return statistics.median(times), min(times)


def stale_binary_note(hlo_run):
    """A warning when some Rust source of the workspace is newer than the hlo-run binary."""
    try:
        mtime = os.path.getmtime(hlo_run)
    except OSError:
        return None
    newest, newest_path = 0.0, None
    for root, dirs, files in os.walk(REPO):
        # sources that cannot be part of the binary: tests, benches, examples, fuzzers, this folder
        dirs[:] = [d for d in dirs if d not in ("target", "bench", "benches", "tests", "test", "examples", "fuzz",
                                                "node_modules", "docs") and not d.startswith(".")]
        for fn in files:
            if fn.endswith((".rs", ".td", ".cpp", ".h", ".toml")):
                p = os.path.join(root, fn)
                try:
                    m = os.path.getmtime(p)
                except OSError:
                    continue
                if m > newest:
                    newest, newest_path = m, p
    if newest > mtime + 1:
        return (f"warning: {os.path.relpath(newest_path, REPO)} is newer than {os.path.relpath(hlo_run, REPO)}; "
                f"rebuild with `cargo build --release --bin hlo-run` if the binary is stale")
    return None


def busy_cpu_s():
    """CPU seconds the whole machine has spent busy (user+nice+system+irq+softirq), from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (v[0] + v[1] + v[2] + v[5] + v[6]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def own_cpu_s():
    """CPU seconds of this process and of its waited-for children (the hlo-run subprocesses)."""
    import resource
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def binary_id(path):
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return None


def fmt_ms(s, width=9):
    if s is None:
        return "-".rjust(width)
    ms = s * 1e3
    return (f"{ms:{width}.2f}" if ms < 1e4 else f"{ms:{width}.0f}")


def fmt_ratio(r, width=7):
    if r is None:
        return "-".rjust(width)
    return f"{r:{width}.2f}" if r < 100 else f"{r:{width}.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(DEFAULT_ORACLE, "bench"),
                    help="folder of <name>/module.hlo + meta.json (default: %(default)s)")
    ap.add_argument("--oracle", default=DEFAULT_ORACLE, help="folder with bench_xla.py (default: %(default)s)")
    ap.add_argument("--hlo-run", default=os.path.join(REPO, "target", "release", "hlo-run"),
                    help="the hlo-run binary (default: %(default)s)")
    ap.add_argument("--filter", default=None, help="only cases whose name matches this regex (re.search)")
    ap.add_argument("--runs", type=int, default=10, help="timed runs (and timed compiles) per side (default 10)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed runs (and compiles) first (default 3)")
    ap.add_argument("--rtol", type=float, default=2e-3, help="relative tolerance of the check (default 2e-3)")
    ap.add_argument("--atol-scale", type=float, default=2e-3,
                    help="absolute tolerance = this * max|XLA output| (default 2e-3)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds for one hlo-run (default 1800)")
    ap.add_argument("--rxla-arg", action="append", default=[],
                    help="extra argument for hlo-run (repeat), e.g. --rxla-arg=--disable-passes=foo")
    ap.add_argument("--scratch", default=None, help="where the input/output .npz go (default: a temp dir "
                    "under bench/.scratch, removed at the end)")
    ap.add_argument("--keep-scratch", action="store_true", help="keep the .npz files")
    ap.add_argument("--json", default=None, metavar="OUT", help="write every number to this JSON file")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be >= 1 and --warmup >= 0")

    names = sorted(n for n in os.listdir(args.bench) if os.path.isfile(os.path.join(args.bench, n, "meta.json")))
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    if args.list:
        print("\n".join(names))
        return 0
    if not names:
        print(f"no bench case in {args.bench}" + (f" matches {args.filter!r}" if args.filter else ""),
              file=sys.stderr)
        return 2
    hlo_run = os.path.abspath(args.hlo_run)
    if not os.access(hlo_run, os.X_OK):
        print(f"error: {hlo_run} not found; build it with `cargo build --release --bin hlo-run`", file=sys.stderr)
        return 2
    note = stale_binary_note(hlo_run)
    if note:
        print(note, file=sys.stderr)

    gen_input, cpu_model, gen_from = load_oracle_helpers(args.oracle)
    xla = XlaCpu()

    if args.scratch:
        os.makedirs(args.scratch, exist_ok=True)
        scratch_root, remove_scratch = args.scratch, False
    else:
        base = os.path.join(HERE, ".scratch")
        os.makedirs(base, exist_ok=True)
        scratch_root, remove_scratch = tempfile.mkdtemp(prefix="cpu-", dir=base), not args.keep_scratch

    try:
        git_head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or None
    except Exception:
        git_head = None

    hdr = (f"{'case':30s} {'xla_ms':>9s} {'rxla_ms':>9s} {'ratio':>7s} {'xla_c_ms':>9s} {'rxla_c_ms':>9s} "
           f"{'c_ratio':>7s}  check")
    print(f"XLA:CPU (jax {xla.versions['jax']}) vs rxla ({os.path.relpath(hlo_run, os.getcwd())}); "
          f"medians of {args.runs} runs after {args.warmup} warm-ups; {os.cpu_count()} CPUs, {cpu_model()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(hdr)
    print("-" * len(hdr), flush=True)
    rows = []
    bin0 = binary_id(hlo_run)
    try:
        for n in names:
            b0, o0, t0 = busy_cpu_s(), own_cpu_s(), time.perf_counter()
            row = run_case(n, args, xla, gen_input, hlo_run, scratch_root)
            b1, o1, wall = busy_cpu_s(), own_cpu_s(), time.perf_counter() - t0
            row["case_wall_s"] = wall
            if b0 is not None and b1 is not None:
                # CPU time that other processes took while this case ran: interference with the timing
                other = max(0.0, (b1 - b0) - (o1 - o0))
                row["other_cpu_s"] = other
                row["other_cpu_fraction"] = other / (wall * (os.cpu_count() or 1)) if wall > 0 else 0.0
            if binary_id(hlo_run) != bin0:
                row["binary_changed"] = True
            rows.append(row)
            print_row(row)
    finally:
        if remove_scratch:
            shutil.rmtree(scratch_root, ignore_errors=True)

    summary = summarize(rows)
    print("-" * len(hdr))
    print_summary(summary, rows)
    warn_if_busy(rows, summary)
    changed = [r["name"] for r in rows if r.get("binary_changed")]
    summary["binary_changed_during"] = changed
    if changed:
        print(f"warning: {os.path.relpath(hlo_run, os.getcwd())} changed during the run (first seen after "
              f"{short_name(changed[0])}): the rxla numbers mix two builds; rerun")

    if args.json:
        info = {
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "nproc": os.cpu_count(),
            "sched_affinity_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
            "cpu_model": cpu_model(),
            "python": sys.version.split()[0], **xla.versions,
            "hlo_run": hlo_run,
            "hlo_run_mtime": datetime.datetime.fromtimestamp(os.path.getmtime(hlo_run)).isoformat(timespec="seconds"),
            "git_head": git_head,
            "stale_binary_warning": note,
            "inputs_from": gen_from,
            "runs": args.runs, "warmup": args.warmup, "rtol": args.rtol, "atol_scale": args.atol_scale,
            "method": {
                "xla": "in-process jaxlib CPU client: HLO text -> XLA HLO parser -> StableHLO (not timed) -> "
                       f"compile_and_load ({args.warmup} untimed + {args.runs} timed compiles); "
                       f"{args.warmup} warm-up runs, {args.runs} timed runs, each ended by block_until_ready",
                "rxla": f"hlo-run --platform=cpu --warmup {args.warmup} --iterations {args.runs} --timings-json: "
                        "compile = HLO text import + HLO pipeline + emit + kernel lowering + LLVM + JIT "
                        f"({args.warmup} untimed + {args.runs} timed); run = execute on prepared buffers",
            },
            "summary": summary,
            "results": rows,
        }
        with open(args.json, "w") as f:
            json.dump(info, f, indent=1)
        print(f"wrote {args.json}")
    return 0


def run_case(n, args, xla, gen_input, hlo_run, scratch_root):
    d = os.path.join(args.bench, n)
    row = {"name": n, "xla": None, "rxla": None, "check": None, "error": None}
    try:
        meta = json.load(open(os.path.join(d, "meta.json")))
        row["description"] = meta.get("description", "")
        row["flops"], row["bytes_moved_min"] = meta.get("flops"), meta.get("bytes_moved_min")
        module_path = os.path.join(d, "module.hlo")
        text = open(module_path).read()
        inputs = [gen_input(s, xla.dt) for s in meta["gen_inputs"]]
    except Exception as e:
        row["error"] = f"setup: {type(e).__name__}: {e}"
        return row
    scratch = os.path.join(scratch_root, n)
    os.makedirs(scratch, exist_ok=True)
    npz = os.path.join(scratch, "inputs.npz")
    try:
        arrays = {}
        for i, a in enumerate(inputs):
            arrays[f"arg{i}"] = a.view(np.uint16) if a.dtype.name == "bfloat16" else a
        np.savez(npz, **arrays)
        del arrays
    except Exception as e:
        row["error"] = f"writing inputs: {type(e).__name__}: {e}"
        return row

    expected = None
    dtypes = [a.dtype for a in inputs]
    try:
        t, expected = xla.time(text, inputs, args.runs, args.warmup, args.runs, args.warmup)
        row["xla"] = summarize_side(t, meta)
    except Exception as e:
        row["xla"] = {"ok": False, "error": f"{type(e).__name__}: {last_line(str(e)) or e!r}"}
    del inputs

    r, got = run_rxla(hlo_run, module_path, npz, scratch, args.runs, args.warmup, args.timeout, args.rxla_arg)
    if r.get("ok"):
        r.update(summarize_side(r, meta))
    row["rxla"] = r
    if got is not None and expected is not None:
        try:
            row["check"] = check_outputs(expected, got, args.rtol, args.atol_scale)

            def run_xla_perturbed():
                with np.load(npz) as f:
                    moved = []
                    for i, dt in enumerate(dtypes):
                        a = f[f"arg{i}"]
                        a = a.view(dt) if a.dtype != dt else a
                        if np.issubdtype(dt, np.floating) and dt.itemsize >= 4:
                            a = (a * (1 + np.finfo(dt).eps)).astype(dt)
                        moved.append(a)
                return xla.time(text, moved, 1, 0, 1, 0)[1]
            def run_xla_f64():
                promoted = promote_to_f64(text)
                if promoted is None:
                    return None
                with np.load(npz) as f:
                    wide = []
                    for i, dt in enumerate(dtypes):
                        a = f[f"arg{i}"]
                        a = a.view(dt) if a.dtype != dt else a
                        wide.append(a.astype(np.float64) if a.dtype == np.float32 else a)
                try:
                    return xla.time(promoted, wide, 1, 0, 1, 0)[1]
                except Exception:
                    return None
            if not row["check"]["ok"]:
                rechecked = accuracy_recheck(row["check"], expected, got, run_xla_f64)
                row["check"] = rechecked if rechecked is not None else sensitivity_recheck(
                    row["check"], expected, got, run_xla_perturbed)
        except Exception as e:
            row["check"] = {"ok": False, "error": f"check crashed: {type(e).__name__}: {e}"}
    del got, expected
    if not args.keep_scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    x, rx = row["xla"], row["rxla"]
    if x and x.get("ok") and rx and rx.get("ok"):
        row["run_ratio"] = rx["median_s"] / x["median_s"]
        row["run_ratio_min"] = rx["min_s"] / x["min_s"]
        if rx.get("compile_median_s") and x.get("compile_median_s"):
            row["compile_ratio"] = rx["compile_median_s"] / x["compile_median_s"]
    return row


def summarize_side(t, meta):
    med, mn = stats(t["run_s"])
    cmed, cmn = stats(t.get("compile_s", []))
    out = {"ok": True, "median_s": med, "min_s": mn, "run_s": t["run_s"],
           "compile_median_s": cmed, "compile_min_s": cmn, "compile_s": t.get("compile_s", [])}
    if "first_compile_s" in t:
        out["first_compile_s"] = t["first_compile_s"]
    fl, by = meta.get("flops"), meta.get("bytes_moved_min")
    out["gflops_per_s"] = fl / med / 1e9 if fl and med else None
    out["gb_per_s"] = by / med / 1e9 if by and med else None
    return out


def print_row(row):
    x, r, c = row.get("xla") or {}, row.get("rxla") or {}, row.get("check")
    errs, check = [], "-"
    if row.get("error"):
        check = "ERROR"
        errs.append(row["error"])
    elif not x.get("ok"):
        check = "XLA FAILED"
        errs.append(f"XLA: {x.get('error')}")
    if not row.get("error") and not r.get("ok"):
        check = "RXLA FAILED" if x.get("ok") else "BOTH FAILED"
        errs.append(f"rxla: {r.get('error')}")
    elif c is not None:
        if c.get("ok"):
            check = f"ok (abs {c['max_abs_err']:.1e}, rel {c['max_rel_err']:.1e})"
            acc = c.get("accuracy", [])
            if acc:
                worst = max(acc, key=lambda o: o["rxla_err_f64"] / max(o["xla_err_f64"], 1e-300))
                n_norm = sum(1 for o in acc if o["sense"] == "norm")
                check += (f"; {len(acc)} outputs as accurate as XLA against f64 ({n_norm} in norm, with "
                          f"isolated kinks; largest error {worst['name']}: {worst['rxla_err_f64']:.1e}, XLA's "
                          f"{worst['xla_err_f64']:.1e})")
            for o in c.get("sensitivity", []):
                check += (f"; {o['name']} within XLA's sensitivity (err {o['max_abs_err']:.1e}, XLA's one-ulp "
                          f"change {o['xla_one_ulp_change']:.1e})")
        else:
            check = "WRONG: " + (c.get("error") or "mismatch")
            if c.get("accuracy_recheck"):
                check += f" [f64 recheck: {c['accuracy_recheck']}]"
            if c.get("sensitivity_recheck"):
                check += f" [sensitivity recheck: {c['sensitivity_recheck']}]"
            if "max_rel_err" in c:
                check += f"; rel {c['max_rel_err']:.1e}"
    if row.get("other_cpu_fraction", 0) > BUSY_FRACTION:
        check += f"  [busy: others took {row['other_cpu_fraction']:.0%} of the CPUs]"
    if row.get("binary_changed"):
        check += "  [hlo-run changed]"
    print(f"{short_name(row['name']):30s} {fmt_ms(x.get('median_s'))} {fmt_ms(r.get('median_s'))} "
          f"{fmt_ratio(row.get('run_ratio'))} {fmt_ms(x.get('compile_median_s'))} "
          f"{fmt_ms(r.get('compile_median_s'))} {fmt_ratio(row.get('compile_ratio'))}  {check}", flush=True)
    for e in errs:
        print(f"{'':30s}   {e}", flush=True)


def summarize(rows):
    timed = [r for r in rows if r.get("run_ratio")]
    checked = [r for r in timed if (r.get("check") or {}).get("ok")]
    failed = [r["name"] for r in rows if not r.get("run_ratio")]
    wrong = [r["name"] for r in timed if not (r.get("check") or {}).get("ok")]
    s = {
        "cases": len(rows), "timed": len(timed), "excluded": failed, "wrong_results": wrong,
        "geomean_run_ratio": geomean([r["run_ratio"] for r in timed]),
        "geomean_run_ratio_min": geomean([r["run_ratio_min"] for r in timed]),
        "geomean_compile_ratio": geomean([r.get("compile_ratio") for r in timed]),
        "geomean_run_ratio_checked_ok": geomean([r["run_ratio"] for r in checked]),
        "geomean_compile_ratio_checked_ok": geomean([r.get("compile_ratio") for r in checked]),
    }
    if timed:
        w = max(timed, key=lambda r: r["run_ratio"])
        b = min(timed, key=lambda r: r["run_ratio"])
        s["worst_run"] = {"name": w["name"], "ratio": w["run_ratio"]}
        s["best_run"] = {"name": b["name"], "ratio": b["run_ratio"]}
        wc = [r for r in timed if r.get("compile_ratio")]
        if wc:
            w = max(wc, key=lambda r: r["compile_ratio"])
            s["worst_compile"] = {"name": w["name"], "ratio": w["compile_ratio"]}
    return s


def print_summary(s, rows):
    def g(v):
        return f"{v:.3f}" if v else "-"
    print(f"geomean rxla/XLA over {s['timed']} of {s['cases']} cases: run {g(s['geomean_run_ratio'])} "
          f"(of min times {g(s['geomean_run_ratio_min'])}), compile {g(s['geomean_compile_ratio'])}")
    if s["wrong_results"]:
        print(f"  {len(s['wrong_results'])} of these gave WRONG results: "
              f"{', '.join(short_name(n) for n in s['wrong_results'])}; over the {s['timed'] - len(s['wrong_results'])} "
              f"that check: run {g(s['geomean_run_ratio_checked_ok'])}, "
              f"compile {g(s['geomean_compile_ratio_checked_ok'])}")
    if s.get("worst_run"):
        print(f"worst run ratio: {short_name(s['worst_run']['name'])} {s['worst_run']['ratio']:.2f}x; "
              f"best: {short_name(s['best_run']['name'])} {s['best_run']['ratio']:.2f}x"
              + (f"; worst compile ratio: {short_name(s['worst_compile']['name'])} "
                 f"{s['worst_compile']['ratio']:.2f}x" if s.get("worst_compile") else ""))
    if s["excluded"]:
        print(f"NOT in the geomeans ({len(s['excluded'])} failed): "
              + "; ".join(f"{short_name(r['name'])}: " + reason(r) for r in rows if r["name"] in s["excluded"]))


def reason(row):
    if row.get("error"):
        return row["error"]
    x, r = row.get("xla") or {}, row.get("rxla") or {}
    parts = []
    if not x.get("ok"):
        parts.append(f"XLA: {x.get('error')}")
    if not r.get("ok"):
        parts.append(f"rxla: {r.get('error')}")
    return ", ".join(parts) or "no ratio"


if __name__ == "__main__":
    sys.exit(main())
