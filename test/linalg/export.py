#!/usr/bin/env python3
"""Export the linear-algebra corpus: JAX's jnp.linalg / jax.scipy.linalg programs, which XLA:CPU runs as LAPACK
custom calls (lapack_?potrf_ffi, ?trsm, ?getrf, ?geqrf, ?orgqr, ?syevd, ?gesdd, ...), with XLA:CPU's outputs.

    bash bench/setup_venv.sh && bench/.venv/bin/python test/linalg/export.py

The layout is the oracle's (index.json, cases/<name>/{module.hlo,inputs.npz,expected.npz,meta.json});
runtime/tests/oracle.rs runs it on the CPU and the emulated GPU, and
`python3 test/oracle/check.py --cases test/linalg/cases` checks any runner. Eigenvectors and singular vectors
are unique only up to sign (a unit factor for complex), which LAPACK picks by its algorithm and rxla by a fixed
rule (docs/interpreter.md), so programs returning them are left out; what users compute from them
(reconstructions, projections, pseudo-inverses, least squares) is in.
"""
import json, os, sys
import numpy as np
import jax, jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax import lax
jax.config.update("jax_enable_x64", True)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "cases")
rng = np.random.default_rng(7)
HLO = {"float32": "f32", "float64": "f64", "complex64": "c64", "complex128": "c128", "int32": "s32", "int64": "s64", "bool": "pred"}

def rnd(shape, dtype):
    x = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)

def spd(shape, dtype):
    a = rnd(shape, dtype)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)

def herm(shape, dtype):
    a = rnd(shape, dtype)
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2).astype(dtype)

def tri(shape, dtype, lower):
    a = rnd(shape, dtype) + 4 * np.eye(shape[-1])
    return (np.tril(a) if lower else np.triu(a)).astype(dtype)

CASES = {}
def case(name, f, args, tol=None, vectors=()):
    CASES[name] = (f, args, tol, vectors)

f32, f64, c64, c128 = np.float32, np.float64, np.complex64, np.complex128
# Cholesky
case("chol_f64_batched", jnp.linalg.cholesky, [spd((3, 5, 5), f64)])
case("chol_c64", jnp.linalg.cholesky, [spd((4, 4), c64)])
case("chol_upper_f32", lambda a: jsl.cholesky(a, lower=False), [spd((5, 5), f32)])
case("chol_not_pd_f32", jnp.linalg.cholesky, [np.array([[[4, 2, 0], [2, 1, 0], [0, 0, 1]], [[4, 2, 0], [2, 5, 0], [0, 0, 1]]], f32)])
case("cho_solve_f64", lambda a, b: jsl.cho_solve(jsl.cho_factor(a), b), [spd((6, 6), f64), rnd((6, 2), f64)])
# LU and its users
case("solve_f64_batched", jnp.linalg.solve, [rnd((2, 6, 6), f64), rnd((2, 6, 3), f64)])
case("solve_c64", jnp.linalg.solve, [rnd((5, 5), c64), rnd((5, 2), c64)])
case("inv_f32_batched", jnp.linalg.inv, [rnd((3, 4, 4), f32)])
case("det_f64", jnp.linalg.det, [rnd((6, 6), f64)])
case("slogdet_c64_batched", lambda a: jnp.linalg.slogdet(a), [rnd((2, 5, 5), c64)])
case("lu_factor_f32", jsl.lu_factor, [rnd((6, 6), f32)])
case("lu_tall_f64", lax.linalg.lu, [rnd((5, 3), f64)])
case("lu_wide_c128", lax.linalg.lu, [rnd((3, 5), c128)])
case("lu_singular_f32", lax.linalg.lu, [np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], f32)])
case("lu_solve_c64", lambda a, b: jsl.lu_solve(jsl.lu_factor(a), b), [rnd((4, 4), c64), rnd((4,), c64)])
case("expm_f32", jsl.expm, [rnd((4, 4), f32) * 0.5])
# Triangular solves
for lower in (True, False):
    for trans in (0, 1, 2):
        for unit in (False, True):
            case(f"trsolve_{'l' if lower else 'u'}{trans}{'u' if unit else 'n'}_f32",
                 (lambda lower, trans, unit: lambda a, b: jsl.solve_triangular(a, b, lower=lower, trans=trans, unit_diagonal=unit))(lower, trans, unit),
                 [tri((4, 4), f32, lower), rnd((4, 3), f32)])
case("trsolve_right_c64", lambda a, b: lax.linalg.triangular_solve(a, b, left_side=False, lower=True, conjugate_a=True, transpose_a=True), [tri((4, 4), c64, True), rnd((2, 4), c64)])
case("trsolve_batched_f64", lambda a, b: jsl.solve_triangular(a, b, lower=False, trans=1), [tri((3, 5, 5), f64, False), rnd((3, 5, 2), f64)])
# QR
case("qr_f64_reduced", jnp.linalg.qr, [rnd((6, 4), f64)])
case("qr_f32_complete", lambda a: jnp.linalg.qr(a, mode="complete"), [rnd((5, 3), f32)])
case("qr_c64_wide", jnp.linalg.qr, [rnd((3, 5), c64)])
case("qr_r_f32_batched", lambda a: jnp.linalg.qr(a, mode="r"), [rnd((2, 4, 4), f32)])
case("qr_c128_batched", jnp.linalg.qr, [rnd((2, 4, 3), c128)])
case("lstsq_f32", lambda a, b: jnp.linalg.lstsq(a, b)[0], [rnd((6, 3), f32), rnd((6,), f32)])
# Hermitian eigenproblem
case("eigh_f64", jnp.linalg.eigh, [herm((6, 6), f64)], vectors=("out1",))
case("eigh_c64", jnp.linalg.eigh, [herm((4, 4), c64)], vectors=("out1",))
case("eigh_upper_f32", lambda a: lax.linalg.eigh(a, lower=False, symmetrize_input=False), [herm((5, 5), f32)], vectors=("out0",))
case("eigvalsh_f32_batched", jnp.linalg.eigvalsh, [herm((3, 5, 5), f32)])
case("eigh_reconstruct_f32_batched", lambda a: (lambda w, v: (v * w[..., None, :]) @ jnp.swapaxes(v, -1, -2))(*jnp.linalg.eigh(a)), [herm((2, 5, 5), f32)])
case("eigh_degenerate_f64", jnp.linalg.eigvalsh, [np.diag([1.0, 2.0, 2.0, 3.0]).astype(f64)])
# SVD
case("svd_f64_full", jnp.linalg.svd, [rnd((5, 3), f64)], vectors=("out0", "out2"))
case("svd_c64_reduced_wide", lambda a: jnp.linalg.svd(a, full_matrices=False), [rnd((3, 5), c64)], vectors=("out0", "out2"))
case("svd_values_f32_batched", lambda a: jnp.linalg.svd(a, compute_uv=False), [rnd((2, 4, 6), f32)])
case("svd_c128_full_wide", jnp.linalg.svd, [rnd((2, 4), c128)], vectors=("out0", "out2"))
case("svd_reconstruct_f32", lambda a: (lambda u, s, vt: (u * s[..., None, :]) @ vt)(*jnp.linalg.svd(a, full_matrices=False)), [rnd((4, 6), f32)])
case("svd_rank_deficient_f64", lambda a: jnp.linalg.svd(a, compute_uv=False), [np.outer(np.arange(1, 5), np.arange(1, 4)).astype(f64)])
case("pinv_f32", jnp.linalg.pinv, [rnd((5, 4), f32)])
case("matrix_rank_f64", jnp.linalg.matrix_rank, [np.outer(np.arange(1, 5), np.arange(1, 4)).astype(f64)])
case("svd_qr_algorithm_f32", lambda a: lax.linalg.svd(a, algorithm=lax.linalg.SvdAlgorithm.QR, compute_uv=False), [rnd((4, 3), f32)])
case("norm2_f32", lambda a: jnp.linalg.norm(a, ord=2), [rnd((4, 4), f32)])
case("cond_f64", jnp.linalg.cond, [rnd((4, 4), f64)])

# Larger sizes
case("big_eigvalsh_f32", jnp.linalg.eigvalsh, [herm((96, 96), f32)], tol=(1e-4, 1e-4))
case("big_eigh_reconstruct_f64", lambda a: (lambda w, v: (v * w[None, :]) @ v.T)(*jnp.linalg.eigh(a)), [herm((64, 64), f64)])
case("big_svd_values_f64", lambda a: jnp.linalg.svd(a, compute_uv=False), [rnd((100, 60), f64)])
case("big_solve_f32", jnp.linalg.solve, [rnd((120, 120), f32) + 10 * np.eye(120, dtype=f32), rnd((120, 4), f32)], tol=(1e-4, 1e-4))
case("big_chol_f64", jnp.linalg.cholesky, [spd((128, 128), f64)])
case("big_qr_f32", jnp.linalg.qr, [rnd((80, 50), f32)], tol=(1e-3, 1e-4))
case("big_pinv_c64", jnp.linalg.pinv, [rnd((40, 30), c64)], tol=(1e-3, 1e-4))

def tol_of(args):
    t = args[0].dtype
    return (1e-4, 1e-5) if t in (np.float32, np.complex64) else (1e-8, 1e-10)

index = []
for name, (f, args, tol, vectors) in CASES.items():
    if vectors:  # sign-dependent outputs: not comparable with XLA's
        continue
    jf = jax.jit(f)
    text = jf.lower(*args).as_text(dialect="hlo")
    outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jf(*args))]
    rtol, atol = tol or tol_of(args)
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "module.hlo"), "w").write(text)
    np.savez(os.path.join(d, "inputs.npz"), **{f"arg{i}": a for i, a in enumerate(args)})
    np.savez(os.path.join(d, "expected.npz"), **{f"out{i}": o for i, o in enumerate(outs)})
    meta = {"name": name, "category": "linalg", "description": name, "config": {}, "rtol": rtol, "atol": atol,
            "inputs": [{"name": f"arg{i}", "path": f"a{i}", "dtype": HLO[a.dtype.name], "shape": list(a.shape)} for i, a in enumerate(args)],
            "outputs": [{"name": f"out{i}", "dtype": HLO[o.dtype.name], "shape": list(o.shape)} for i, o in enumerate(outs)],
            "vector_outputs": list(vectors), "jax": jax.__version__, "exported_by": "test/linalg/export.py"}
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"), indent=1)
    targets = sorted(set(l.split('custom_call_target="')[1].split('"')[0] for l in text.splitlines() if "custom_call_target" in l))
    print(f"{name:30s} {targets}")
    index.append({"name": name, "category": "linalg", "ops": targets, "rtol": rtol, "atol": atol})
with open(os.path.join(HERE, "index.json"), "w") as fh:
    json.dump(index, fh, indent=1)
    fh.write("\n")
