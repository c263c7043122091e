#!/usr/bin/env python3
"""Run one module with ``rxla.compile``, in hlo-run's file conventions (for test/oracle/check.py).

    python oracle_runner.py MODULE INPUTS.npz OUTPUT.npz [--platform cpu|gpu|interpreter] [--emulate-gpu]

    python test/oracle/check.py --jobs 2 -q \\
        --runner 'python python/tools/oracle_runner.py {module} {inputs} {output}'

Inputs are ``arg0``, ``arg1``, ... in parameter order; bf16 and the f8/f6/f4
types may be stored as raw bits (``<u2`` / ``|u1``, as the oracle corpus does)
or as ml_dtypes arrays, and are reinterpreted according to the parameter's
type. Outputs are ``out0``, ``out1``, ... over the flattened result, with bf16
and the narrow float types written as raw bits (``<u2`` / ``|u1``), and
rank-0 values of those types with shape ``(1,)``, as hlo-run writes them
(docs/hlo-run.md). Errors go to stderr with exit status 1.
"""
import argparse
import sys

import numpy as np

import rxla

# Types NumPy lacks (ml_dtypes'): written as raw bits, as hlo-run does.
_RAW_BITS = {
    "bfloat16", "int4", "uint4", "int2", "uint2", "float8_e4m3fn", "float8_e5m2", "float8_e4m3", "float8_e3m4",
    "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
    "float4_e2m1fn",
}


def _is_raw_bits(dtype):
    return dtype.name in _RAW_BITS


def _argument(i, arr, dtype, shape):
    """``arr`` as parameter ``i`` of ``dtype`` and ``shape``."""
    if _is_raw_bits(dtype) and arr.dtype != dtype:
        if arr.dtype.itemsize != dtype.itemsize or arr.dtype.kind not in "uiV":
            raise SystemExit(f"parameter {i} (arg{i}): expected {dtype.name} bits, the file has {arr.dtype.str}")
        arr = np.ascontiguousarray(arr).view(dtype)
        if shape == () and arr.shape == (1,):
            arr = arr.reshape(())
    return arr


def _stored(out):
    """An output as hlo-run stores it."""
    if _is_raw_bits(out.dtype):
        bits = np.ascontiguousarray(out).view(np.uint16 if out.dtype.itemsize == 2 else np.uint8)
        if out.dtype.name in ("int4", "int2"):
            # Sub-byte signed integers: one sign-extended value per byte.
            bits = out.astype(np.int8)
        return bits.reshape((1,)) if out.ndim == 0 else bits
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("module", help="HLO text (.hlo) or hlo-dialect MLIR (.mlir)")
    ap.add_argument("inputs", help=".npz with arg0, arg1, ...")
    ap.add_argument("output", help=".npz to write out0, out1, ... to")
    ap.add_argument("--platform", default="cpu", choices=["cpu", "gpu", "interpreter"])
    ap.add_argument("--emulate-gpu", action="store_true", help="with --platform=gpu: run the GPU kernels on the host")
    ap.add_argument("--entry-layouts", default="module", choices=["module", "default"])
    args = ap.parse_args(argv)

    try:
        exe = rxla.compile_file(
            args.module, args.platform, emulate_gpu=args.emulate_gpu, entry_layouts=args.entry_layouts
        )
        for w in exe.warnings:
            print(w, file=sys.stderr)
        with np.load(args.inputs, allow_pickle=False) as z:
            files = {k: z[k] for k in z.files}
        arrays = []
        for i, (dtype, shape) in enumerate(exe.parameters):
            key = f"arg{i}"
            if key not in files:
                have = ", ".join(sorted(files)) or "no arrays"
                raise SystemExit(f"{args.inputs}: parameter {i} ({key}): no array '{key}' in the file (it has {have})")
            arrays.append(_argument(i, files[key], dtype, shape))
        outputs = exe(*arrays)
    except (rxla.CompileError, rxla.RunError, TypeError, ValueError) as e:
        print(f"oracle_runner: error: {e}", file=sys.stderr)
        return 1
    np.savez(args.output, **{f"out{i}": _stored(o) for i, o in enumerate(outputs)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
