#!/usr/bin/env python3
"""Cold compile times of rxla's CPU backend and of XLA:CPU (through JAX), same modules, same run.

    bash bench/setup_venv.sh && bench/.venv/bin/python bench/models/export.py   # once: bench/models/*/module.hlo
    bench/.venv/bin/python bench/compile.py
    bench/.venv/bin/python bench/compile.py --models-only --runs 5 --json /tmp/compile.json
    bench/.venv/bin/python bench/compile.py --filter 'llama|matmul' --xla-only

The cases are the oracle's bench modules (<bench>/<name>/module.hlo, as bench/cpu.py finds them) and
the real-model programs exported by bench/models/export.py (<models>/<name>/module.hlo). Only
compiles are timed; nothing is run. For each case, one after the other:

  1. XLA:CPU, in this process: HLO text -> XLA's HLO parser (jaxlib._hlo.hlo_module_from_text) ->
     StableHLO (both timed separately, not counted as compile) -> `warmup` untimed, then `runs` timed
     compile_and_load calls on the jaxlib CPU client with default options, each on the same StableHLO
     module, each executable dropped before the next. JAX's compilation caches are not on this path
     (the client is called directly; the persistent cache is switched off anyway); a timed compile
     much faster than the first one is flagged in the notes. So are the fusions of XLA's optimized
     module that call a library (YNNPACK's `__ynn_fusion`, ...) instead of code XLA generates with
     LLVM: XLA:CPU runs reductions, softmax, layer norm and dots that way, and compiles a module made
     only of them in ~10 ms, with no code generation at all;
  2. rxla, as a subprocess: `hlo-run MODULE --platform=cpu --compile-only --warmup W --iterations N
     --timings-json T.json --entry-layouts=default`, which compiles W+N times from the HLO text
     (import, HLO pipeline, emitters, kernel lowering, LLVM, JIT) and reports the N timed compiles
     and the phases of the last one. An hlo-run without --compile-only is reported as such.

Printed: one row per case (medians; min in the JSON), with rxla's phase breakdown, then the
geometric means of rxla/XLA over all cases, over the bench modules and over the models, and the
worst case. A case that fails on either side is shown with the error's last line and left out of
the geometric means.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cpu import (DEFAULT_ORACLE, REPO, BUSY_FRACTION, load_oracle_helpers, binary_id,  # noqa: E402
                 busy_cpu_s, fmt_ms, fmt_ratio, geomean, last_line, own_cpu_s, short_name, stale_binary_note, warn_if_busy)

def cpu_model():
    """The CPU's name, as the oracle's bench_xla.py reports it."""
    return load_oracle_helpers(DEFAULT_ORACLE)[1]()

DEFAULT_MODELS = os.path.join(HERE, "models")
PHASES = ("import", "hlo_pipeline", "emit", "lower", "llvm")
INSTR_RE = re.compile(r"^\s+(?:ROOT\s+)?[^\s=]+ = ")
# a timed compile this much faster than the first one of the case looks like a cache hit
SUSPICIOUS_SPEEDUP = 0.25


def count_instructions(text):
    """Lines of the HLO text that define an instruction (as bench/models/export.py counts them)."""
    return sum(1 for ln in text.splitlines() if INSTR_RE.match(ln))


def find_cases(args):
    cases = []
    roots = []
    if not args.models_only:
        roots.append(("bench", args.bench))
    if not args.bench_only:
        roots.append(("model", args.models))
    for kind, root in roots:
        if not os.path.isdir(root):
            print(f"note: no {kind} folder {root}" + (" (run bench/models/export.py)" if kind == "model" else ""),
                  file=sys.stderr)
            continue
        for n in sorted(os.listdir(root)):
            p = os.path.join(root, n, "module.hlo")
            if os.path.isfile(p):
                cases.append({"kind": kind, "name": n, "path": p, "meta": os.path.join(root, n, "meta.json")})
    if args.filter:
        cases = [c for c in cases if re.search(args.filter, c["name"])]
    return cases


def stats(xs):
    return (statistics.median(xs), min(xs)) if xs else (None, None)


class XlaCpuCompiler:
    """compile_and_load on the jaxlib CPU client, as bench/cpu.py (and the oracle's bench_xla.py) do."""

    def __init__(self):
        os.environ.pop("JAX_COMPILATION_CACHE_DIR", None)
        import jax
        jax.config.update("jax_enable_compilation_cache", False)
        import jaxlib
        import jaxlib._hlo as hlo
        from jax._src.lib import _jax, xla_client as xc
        from jax._src import xla_bridge
        self.hlo, self._jax, self.xc = hlo, _jax, xc
        self.versions = {"jax": jax.__version__, "jaxlib": jaxlib.__version__}
        self.backend = xla_bridge.get_backend("cpu")
        self.dev = self.backend.devices()[0]
        # one-time initialization of the compiler (LLVM, thread pools) outside every case's numbers
        t0 = time.perf_counter()
        self.compile_text("HloModule warm\n\nENTRY e {\n  p = f32[8]{0} parameter(0)\n"
                          "  ROOT a = f32[8]{0} add(p, p)\n}\n", 0, 1)
        self.init_s = time.perf_counter() - t0

    def compile_text(self, text, runs, warmup):
        t0 = time.perf_counter()
        module = self.hlo.hlo_module_from_text(text)
        t1 = time.perf_counter()
        shlo = self._jax.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        t2 = time.perf_counter()
        del module
        times, first, kinds = [], None, None
        for i in range(warmup + runs):
            t = time.perf_counter()
            exe = self.backend.compile_and_load(shlo, [self.dev], self.xc.CompileOptions())
            dt = time.perf_counter() - t
            if kinds is None:
                kinds = fusion_kinds(exe)
            del exe
            if first is None:
                first = dt
            if i >= warmup:
                times.append(dt)
        return {"parse_s": t1 - t0, "convert_s": t2 - t1, "first_compile_s": first, "compile_s": times,
                "fusions": kinds}


# XLA:CPU's fusions that call a library instead of code it generates with LLVM (YNNPACK, XNNPACK,
# oneDNN), by their backend_config's fusion kind.
LIBRARY_FUSION_RE = re.compile(r'"kind":"(__(?:ynn|xnn|onednn)_fusion)"')


def fusion_kinds(exe):
    """{'fusions': N, 'library': M}: the top-level fusions of XLA's optimized entry computation and how
    many of them are library calls (`__ynn_fusion` ...): XLA compiles those without LLVM, which is
    why its compile of a module made only of them takes ~10 ms. None if the HLO is not available."""
    try:
        text = "\n".join(m.to_string() for m in exe.hlo_modules())
    except Exception:
        return None
    entry = text[text.rfind("\nENTRY "):]
    lines = [ln for ln in entry.splitlines() if " fusion(" in ln]
    return {"fusions": len(lines), "library": sum(1 for ln in lines if LIBRARY_FUSION_RE.search(ln))}


def rxla_supports_compile_only(hlo_run):
    """None when hlo-run lists --compile-only in its --help, else why not."""
    if not os.access(hlo_run, os.X_OK):
        return f"{os.path.relpath(hlo_run, os.getcwd())} not found (cargo build --release --bin hlo-run)"
    try:
        p = subprocess.run([hlo_run, "--help"], capture_output=True, text=True, errors="replace", timeout=60)
    except Exception as e:
        return f"hlo-run --help failed: {e}"
    return None if "--compile-only" in (p.stdout + p.stderr) else "no --compile-only"


def run_rxla(hlo_run, module_path, scratch, runs, warmup, timeout, extra_args):
    tj = os.path.join(scratch, "rxla_times.json")
    if os.path.exists(tj):
        os.remove(tj)
    layouts = [] if any(a.startswith("--entry-layouts") for a in extra_args) else ["--entry-layouts=default"]
    cmd = [hlo_run, module_path, "--platform=cpu", "--compile-only", "--warmup", str(warmup), "--iterations",
           str(runs), "--timings-json", tj] + layouts + list(extra_args)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {timeout:g} s", "cmd": cmd}
    except OSError as e:  # e.g. the binary is being relinked by a cargo build
        return {"ok": False, "error": f"cannot start hlo-run: {e}", "cmd": cmd}
    res = {"cmd": cmd, "returncode": p.returncode, "wall_s": time.perf_counter() - t0}
    if p.returncode != 0:
        if "--compile-only" in p.stderr and re.search(r"unexpected argument|unrecognized|unknown", p.stderr):
            err = "no --compile-only"
        elif p.returncode < 0:
            err = f"killed by signal {-p.returncode}" + (f" ({last_line(p.stderr)})" if last_line(p.stderr) else "")
        else:
            err = last_line(p.stderr) or last_line(p.stdout) or f"exit status {p.returncode}"
        res.update(ok=False, error=err, stderr_tail=p.stderr[-4000:])
        return res
    try:
        with open(tj) as f:
            t = json.load(f)
    except Exception as e:
        res.update(ok=False, error=f"cannot read hlo-run's timings: {e}", stderr_tail=p.stderr[-4000:])
        return res
    times = t.get("compile_s") or []
    if not times:
        res.update(ok=False, error="hlo-run wrote no compile times")
        return res
    med, mn = stats(times)
    res.update(ok=True, compile_s=times, compile_median_s=med, compile_min_s=mn, phases_s=t.get("phases_s") or {})
    return res


def run_case(c, args, xla, hlo_run, rxla_missing, scratch_root):
    row = {"name": c["name"], "kind": c["kind"], "path": os.path.relpath(c["path"], REPO), "xla": None,
           "rxla": None, "error": None, "notes": []}
    try:
        text = open(c["path"]).read()
        row["hlo_bytes"] = len(text.encode())
        row["instructions"] = count_instructions(text)
        if os.path.isfile(c["meta"]):
            meta = json.load(open(c["meta"]))
            row["description"] = meta.get("description", "")
    except Exception as e:
        row["error"] = f"setup: {type(e).__name__}: {e}"
        return row
    if not args.rxla_only:
        try:
            t = xla.compile_text(text, args.runs, args.warmup)
            med, mn = stats(t["compile_s"])
            t.update(ok=True, compile_median_s=med, compile_min_s=mn)
            if t["first_compile_s"] > 0.05 and mn < SUSPICIOUS_SPEEDUP * t["first_compile_s"]:
                row["notes"].append(f"XLA repeat compile {mn / t['first_compile_s']:.0%} of the first: cached?")
            f = t.get("fusions")
            if f and f["library"]:
                row["notes"].append(f"XLA: {f['library']} of {f['fusions']} fusions library calls")
            row["xla"] = t
        except Exception as e:
            row["xla"] = {"ok": False, "error": f"{type(e).__name__}: {last_line(str(e)) or e!r}"}
    del text
    if args.xla_only:
        pass
    elif rxla_missing:
        row["rxla"] = {"ok": False, "error": rxla_missing}
    else:
        scratch = os.path.join(scratch_root, c["name"])
        os.makedirs(scratch, exist_ok=True)
        row["rxla"] = run_rxla(hlo_run, c["path"], scratch, args.runs, args.warmup, args.timeout, args.rxla_arg)
    x, r = row["xla"] or {}, row["rxla"] or {}
    if x.get("ok") and r.get("ok"):
        row["ratio"] = r["compile_median_s"] / x["compile_median_s"]
        row["ratio_min"] = r["compile_min_s"] / x["compile_min_s"]
    return row


def header():
    return (f"{'case':28s} {'instrs':>6s} {'xla_ms':>9s} {'xla_min':>9s} {'rxla_ms':>9s} {'rxla_min':>9s} "
            f"{'ratio':>7s} | {'import':>7s} {'pipe':>7s} {'emit':>7s} {'lower':>7s} {'llvm':>8s}  notes")


def print_row(row):
    x, r = row.get("xla") or {}, row.get("rxla") or {}
    ph = r.get("phases_s") or {}
    phases = " ".join(fmt_ms(ph.get(k), 8 if k == "llvm" else 7) for k in PHASES)
    notes = list(row.get("notes", []))
    errs = []
    if row.get("error"):
        errs.append(row["error"])
    if row.get("xla") and not x.get("ok"):
        errs.append(f"XLA FAILED: {x.get('error')}")
    if row.get("rxla") and not r.get("ok"):
        errs.append(f"rxla: {r.get('error')}" if r.get("error") in ("no --compile-only",) or
                    "not found" in (r.get("error") or "") else f"rxla FAILED: {r.get('error')}")
    if row.get("other_cpu_fraction", 0) > BUSY_FRACTION:
        notes.append(f"[busy: others took {row['other_cpu_fraction']:.0%} of the CPUs]")
    if row.get("binary_changed"):
        notes.append("[hlo-run changed]")
    # a short error that fits the row goes there, a long one below it
    short = [e for e in errs if len(e) <= 40]
    long_ = [e for e in errs if len(e) > 40]
    print(f"{short_name(row['name']):28s} {row.get('instructions', 0):6d} {fmt_ms(x.get('compile_median_s'))} "
          f"{fmt_ms(x.get('compile_min_s'))} {fmt_ms(r.get('compile_median_s'))} {fmt_ms(r.get('compile_min_s'))} "
          f"{fmt_ratio(row.get('ratio'))} | {phases}  {' '.join(['; '.join(short)] + notes).strip()}", flush=True)
    for e in long_:
        print(f"{'':28s}   {e}", flush=True)


def summarize(rows):
    def part(rs):
        timed = [r for r in rs if r.get("ratio")]
        out = {"cases": len(rs), "timed": len(timed), "geomean_ratio": geomean([r["ratio"] for r in timed]),
               "geomean_ratio_min": geomean([r["ratio_min"] for r in timed]),
               "xla_total_median_s": sum(r["xla"]["compile_median_s"] for r in timed) if timed else None,
               "rxla_total_median_s": sum(r["rxla"]["compile_median_s"] for r in timed) if timed else None}
        if timed:
            w = max(timed, key=lambda r: r["ratio"])
            b = min(timed, key=lambda r: r["ratio"])
            out["worst"] = {"name": w["name"], "ratio": w["ratio"]}
            out["best"] = {"name": b["name"], "ratio": b["ratio"]}
        return out
    s = {"all": part(rows), "bench": part([r for r in rows if r["kind"] == "bench"]),
         "models": part([r for r in rows if r["kind"] == "model"])}
    s["excluded"] = [r["name"] for r in rows if not r.get("ratio")]
    xla_ok = [r for r in rows if (r.get("xla") or {}).get("ok")]
    s["xla_geomean_compile_s"] = geomean([r["xla"]["compile_median_s"] for r in xla_ok])
    return s


def print_summary(s, rows):
    def g(v):
        return f"{v:.3f}" if v else "-"
    both = s["bench"]["cases"] and s["models"]["cases"]
    for key, label in (("all", "cases"), ("bench", "bench modules"), ("models", "models")):
        p = s[key]
        if not p["cases"] or (key == "all" and not both):
            continue
        line = (f"geomean rxla/XLA compile over {p['timed']} of {p['cases']} {label}: {g(p['geomean_ratio'])} "
                f"(of min times {g(p['geomean_ratio_min'])})")
        if p["timed"]:
            line += (f"; total {p['rxla_total_median_s']:.2f} s vs {p['xla_total_median_s']:.2f} s")
        print(line)
    a = s["all"]
    if a.get("worst"):
        print(f"worst case: {short_name(a['worst']['name'])} {a['worst']['ratio']:.2f}x; best: "
              f"{short_name(a['best']['name'])} {a['best']['ratio']:.2f}x")
    if s["excluded"]:
        reasons = {}
        for r in rows:
            if r["name"] in s["excluded"]:
                why = reason(r)
                reasons.setdefault(why, []).append(short_name(r["name"]))
        print(f"NOT in the geomeans ({len(s['excluded'])}): " +
              "; ".join(f"{', '.join(ns)}: {why}" if len(ns) < 6 else f"{len(ns)} cases: {why}"
                        for why, ns in reasons.items()))


def reason(row):
    if row.get("error"):
        return row["error"]
    x, r = row.get("xla") or {}, row.get("rxla") or {}
    parts = []
    if row.get("xla") is None:
        parts.append("XLA not run (--rxla-only)")
    elif not x.get("ok"):
        parts.append(f"XLA: {x.get('error')}")
    if row.get("rxla") is None:
        parts.append("rxla not run (--xla-only)")
    elif not r.get("ok"):
        parts.append(f"rxla: {r.get('error')}")
    return ", ".join(parts) or "no ratio"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(DEFAULT_ORACLE, "bench"),
                    help="folder of <name>/module.hlo: the oracle's bench modules (default: %(default)s)")
    ap.add_argument("--models", default=DEFAULT_MODELS,
                    help="folder of <name>/module.hlo from export.py (default: %(default)s)")
    ap.add_argument("--hlo-run", default=os.path.join(REPO, "target", "release", "hlo-run"),
                    help="the hlo-run binary (default: %(default)s)")
    ap.add_argument("--filter", default=None, help="only cases whose name matches this regex (re.search)")
    ap.add_argument("--runs", type=int, default=3, help="timed compiles per side (default 3)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed compiles first, per side and case (default 1)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds for one hlo-run (default 1800)")
    ap.add_argument("--rxla-arg", action="append", default=[],
                    help="extra argument for hlo-run (repeat), e.g. --rxla-arg=--disable-passes=foo")
    ap.add_argument("--models-only", action="store_true", help="only the exported models")
    ap.add_argument("--bench-only", action="store_true", help="only the oracle's bench modules")
    ap.add_argument("--xla-only", action="store_true", help="do not run hlo-run")
    ap.add_argument("--rxla-only", action="store_true", help="do not compile with XLA")
    ap.add_argument("--json", default=None, metavar="OUT", help="write every number to this JSON file")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be >= 1 and --warmup >= 0")
    if args.models_only and args.bench_only:
        ap.error("--models-only and --bench-only exclude each other")
    if args.xla_only and args.rxla_only:
        ap.error("--xla-only and --rxla-only exclude each other")

    cases = find_cases(args)
    if args.list:
        for c in cases:
            print(f"{c['kind']:6s} {c['name']}")
        return 0
    if not cases:
        print("no case" + (f" matches {args.filter!r}" if args.filter else ""), file=sys.stderr)
        return 2

    hlo_run = os.path.abspath(args.hlo_run)
    rxla_missing = None if args.xla_only else rxla_supports_compile_only(hlo_run)
    note = None
    if not args.xla_only:
        if rxla_missing:
            print(f"note: rxla side not run: {rxla_missing}", file=sys.stderr)
        else:
            note = stale_binary_note(hlo_run)
            if note:
                print(note, file=sys.stderr)
    xla = None if args.rxla_only else XlaCpuCompiler()
    base = os.path.join(HERE, ".scratch")
    os.makedirs(base, exist_ok=True)
    scratch_root = tempfile.mkdtemp(prefix="compile-", dir=base)
    try:
        git_head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or None
    except Exception:
        git_head = None

    who = f"XLA:CPU (jax {xla.versions['jax']})" if xla else "XLA:CPU (not run)"
    rwho = "rxla (not run)" if args.xla_only else f"rxla ({os.path.relpath(hlo_run, os.getcwd())} --compile-only)"
    print(f"cold compile times, {who} vs {rwho}; "
          f"medians of {args.runs} compiles after {args.warmup} warm-up(s); {os.cpu_count()} CPUs, {cpu_model()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print("(ms; XLA: compile_and_load of the StableHLO, parse+convert excluded; rxla: HLO text to JIT-ed "
          "executable; phases of rxla's last compile)")
    hdr = header()
    print(hdr)
    print("-" * len(hdr), flush=True)
    rows = []
    bin0 = binary_id(hlo_run) if not (args.xla_only or rxla_missing) else None
    try:
        for c in cases:
            b0, o0, t0 = busy_cpu_s(), own_cpu_s(), time.perf_counter()
            row = run_case(c, args, xla, hlo_run, rxla_missing, scratch_root)
            b1, o1, wall = busy_cpu_s(), own_cpu_s(), time.perf_counter() - t0
            row["case_wall_s"] = wall
            if b0 is not None and b1 is not None:
                other = max(0.0, (b1 - b0) - (o1 - o0))
                row["other_cpu_s"] = other
                row["other_cpu_fraction"] = other / (wall * (os.cpu_count() or 1)) if wall > 0 else 0.0
            if bin0 is not None and binary_id(hlo_run) != bin0:
                row["binary_changed"] = True
            rows.append(row)
            print_row(row)
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)

    summary = summarize(rows)
    print("-" * len(hdr))
    print_summary(summary, rows)
    warn_if_busy(rows, summary)
    summary["binary_changed_during"] = [r["name"] for r in rows if r.get("binary_changed")]
    if summary["binary_changed_during"]:
        print("warning: hlo-run changed during the run: the rxla numbers mix two builds; rerun")

    if args.json:
        info = {
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "nproc": os.cpu_count(), "cpu_model": cpu_model(), "python": sys.version.split()[0],
            **(xla.versions if xla else {}),
            "xla_init_s": xla.init_s if xla else None,
            "hlo_run": hlo_run, "hlo_run_missing": rxla_missing,
            "hlo_run_mtime": (datetime.datetime.fromtimestamp(os.path.getmtime(hlo_run)).isoformat(timespec="seconds")
                              if os.path.exists(hlo_run) else None),
            "git_head": git_head, "stale_binary_warning": note, "runs": args.runs, "warmup": args.warmup,
            "method": {
                "xla": "in-process jaxlib CPU client: HLO text -> XLA HLO parser (parse_s) -> StableHLO (convert_s), "
                       f"neither counted; {args.warmup} untimed + {args.runs} timed compile_and_load with default "
                       "CompileOptions (first_compile_s = the case's first); JAX's compilation caches not involved",
                "rxla": f"hlo-run --platform=cpu --compile-only --warmup {args.warmup} --iterations {args.runs} "
                        "--timings-json --entry-layouts=default: HLO text import + HLO pipeline + emit + kernel "
                        "lowering + LLVM + JIT; phases_s of the last compile",
            },
            "summary": summary, "results": rows,
        }
        with open(args.json, "w") as f:
            json.dump(info, f, indent=1)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
