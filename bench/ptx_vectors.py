#!/usr/bin/env python3
"""Counts the global-memory accesses in rxla's PTX by width, with and without
`xla-vectorize-loads-stores`, over the oracle cases, the bench modules and
the real-model corpus (issue 16's measure: contiguous kernels should load
and store 128 bits at a time).

    python3 bench/ptx_vectors.py [--hlo-opt target/release/hlo-opt] [--gpu-target sm_90]

Needs no GPU: `hlo-opt --stage=ptx` stops at PTX. Prints, per corpus, the
number of `ld.global` and `st.global` instructions that move 1, 2 or 4
elements, and how many kernels use any 128-bit access.
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACCESS = re.compile(r"^\s*(ld|st)\.global(?:\.nc)?(?:\.L\w+::\w+)*(\.v[248])?\.(\w+)\s", re.M)
ENTRY = re.compile(r"^\.visible \.entry (\S+)\(", re.M)


def corpus(name):
    base = {
        "oracle": os.path.join(ROOT, "test/oracle/cases"),
        "bench": os.path.join(ROOT, "test/oracle/bench"),
        "models": os.path.join(ROOT, "test/models/cases"),
    }[name]
    if not os.path.isdir(base):
        return []
    return sorted(os.path.join(base, d, "module.hlo") for d in os.listdir(base)
                  if os.path.exists(os.path.join(base, d, "module.hlo")))


def count(hlo_opt, module, target, vectorize):
    cmd = [hlo_opt, module, "--platform=gpu", "--stage=ptx", f"--gpu-target={target}"]
    if not vectorize:
        cmd.append("--disable-passes=xla-vectorize-loads-stores")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return None
    c = Counter()
    # Split by kernel to count the kernels with a 128-bit access.
    kernels = ENTRY.split(out.stdout)[1:]
    for body in kernels[1::2]:
        wide = False
        for kind, vec, ty in ACCESS.findall(body):
            lanes = int(vec[2:]) if vec else 1
            bits = lanes * int(re.sub(r"\D", "", ty) or 8)
            c[f"{kind} x{lanes}"] += 1
            wide |= bits >= 128
        c["kernels"] += 1
        c["kernels with 128-bit"] += wide
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hlo-opt", default=os.path.join(ROOT, "target/release/hlo-opt"))
    ap.add_argument("--gpu-target", default="sm_90")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--corpus", nargs="*", default=["oracle", "bench", "models"])
    args = ap.parse_args()
    keys = ["ld x1", "ld x2", "ld x4", "st x1", "st x2", "st x4", "kernels", "kernels with 128-bit"]
    print(f"{'corpus':8} {'pass':7} " + " ".join(f"{k:>9}" for k in keys[:6]) + f" {'kernels':>8} {'128-bit':>8}")
    failed = 0
    for name in args.corpus:
        modules = corpus(name)
        for vectorize in (False, True):
            total = Counter()
            with cf.ThreadPoolExecutor(args.jobs) as pool:
                for c in pool.map(lambda m: count(args.hlo_opt, m, args.gpu_target, vectorize), modules):
                    if c is None:
                        failed += 1
                    else:
                        total += c
            label = "on" if vectorize else "off"
            print(f"{name:8} {label:7} " + " ".join(f"{total[k]:>9}" for k in keys[:6])
                  + f" {total['kernels']:>8} {total['kernels with 128-bit']:>8}")
    if failed:
        print(f"{failed} compilations failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
