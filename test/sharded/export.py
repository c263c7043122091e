#!/usr/bin/env python3
"""Export the sharded test corpus: small SPMD programs as JAX hands them to XLA, before partitioning.

    bench/.venv/bin/python test/sharded/export.py                         # every case
    bench/.venv/bin/python test/sharded/export.py tp_mlp_gspmd_4 reshard   # some cases (or whole programs)
    bench/.venv/bin/python test/sharded/export.py --list

Every program runs on N simulated host devices (XLA_FLAGS=--xla_force_host_platform_device_count=8) under
a jax.sharding.Mesh, jitted with in_shardings / out_shardings (and with_sharding_constraint inside where
the program says so), once per partitioner front end:

    gspmd   jax_use_shardy_partitioner=False: mhlo/HLO `sharding={...}` attributes and `Sharding` custom calls
    shardy  jax_use_shardy_partitioner=True (jax 0.10's default): the same HLO shardings plus Shardy's
            `xla.sdy.*` frontend attributes (the module's xla.sdy.meshes, per-value xla.sdy.sharding)

Cases are named <program>_<form>_<N>. Layout (the oracle corpus's, test/oracle, plus the sharding data):

    index.json                     name, category "sharded", partitions, form, ops, rtol, atol of every case
    cases/<name>/module.hlo        XLA's dump of the jit before any pass (--xla_dump_to, --xla_dump_hlo_pass_re=^$,
                                   *.before_optimizations.txt): HloModule line with num_partitions=N, every
                                   parameter's sharding={...}, Sharding custom calls, the ROOT's sharding, and in
                                   the shardy form the xla.sdy.* frontend attributes. Nothing stripped.
    cases/<name>/inputs.npz        arg0, arg1, ...: the GLOBAL (logical, unsharded) flattened arguments
                                   (weights from a seeded normal scaled by 1/sqrt(fan-in), ids in range)
    cases/<name>/expected.npz      out0, out1, ...: XLA:CPU's outputs of the sharded jit on N host devices,
                                   gathered to global arrays (np.asarray of the jax result)
    cases/<name>/meta.json         description, partitions, mesh, form, in/out PartitionSpecs, tolerances,
                                   inputs/outputs with per-device bytes under their sharding, jax version
    cases/<name>/partitioned.hlo   XLA's per-device program after optimizations (*.cpu_after_optimizations.txt
                                   of the same dump), for reference; left out when over 100 KB

Every array is at most 64k elements and the whole corpus stays under 3 MB.
"""
import argparse
import glob
import inspect
import json
import math
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DUMP_DIR = tempfile.mkdtemp(prefix="rxla-sharded-dumps-")
# Before jax starts XLA: 8 host devices, and every rxla_* jit's HLO dumped before/after optimization.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
                           f" --xla_dump_to={DUMP_DIR} --xla_dump_hlo_module_re=jit_rxla_.*"
                           " --xla_dump_hlo_pass_re=^$").strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

F32, I32 = np.float32, np.int32
PARTITIONED_LIMIT = 100 * 1024
HLO_DTYPE = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int32": "s32",
             "int64": "s64", "int8": "s8", "uint8": "u8", "uint32": "u32", "bool": "pred"}
DEFAULT_TOL = (1e-4, 1e-5)


def ident(x, spec):  # the unsharded reference's stand-in for with_sharding_constraint
    return x


# ---------------------------------------------------------------------------------------------
# Programs. Each builder returns a dict:
#   fn(wsc, *args) -> output or tuple of outputs; wsc(x, spec) is with_sharding_constraint on the case's
#                     mesh (ident for the unsharded reference run)
#   args: [(name, shape, dtype, spec, int_high or None)], outs: [(name, spec)], mesh: (axis names, sizes)
#   desc, tol (rtol, atol), tol_reason (only when looser than the default)
#   ref (optional): fn for the unsharded reference run when fn itself needs the mesh (wsc.mesh; shard_map)
#   rxla_expected (optional): a known rxla gap, copied into meta.json and index.json (harnesses skip it)


def softmax_xent(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
    y = (x - mu) * lax.rsqrt(var + eps)
    if gamma is not None:
        y = y * gamma + beta
    return y


def tp_mlp():
    def fn(wsc, x, w1, w2):
        return jax.nn.gelu(x @ w1, approximate=True) @ w2
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("x", (8, 32), F32, P(), None), ("w1", (32, 64), F32, P(None, "model"), None),
              ("w2", (64, 32), F32, P("model", None), None)],
        outs=[("y", P())],
        desc="Megatron-style tensor-parallel MLP: y = gelu_tanh(x @ w1) @ w2 with w1 column-sharded and w2 "
             "row-sharded over 'model' (4), x and y replicated (the second matmul needs an all-reduce)")


def dp_train_step():
    lr = 0.1

    def fn(wsc, w1, b1, w2, b2, x, labels):
        def loss_fn(params):
            w1, b1, w2, b2 = params
            h = jax.nn.relu(x @ w1 + b1)
            return softmax_xent(h @ w2 + b2, labels)
        loss, grads = jax.value_and_grad(loss_fn)((w1, b1, w2, b2))
        new = [p - lr * g for p, g in zip((w1, b1, w2, b2), grads)]
        return (*new, loss)
    return dict(
        fn=fn, mesh=(("data",), (4,)),
        args=[("w1", (32, 64), F32, P(), None), ("b1", (64,), F32, P(), None),
              ("w2", (64, 10), F32, P(), None), ("b2", (10,), F32, P(), None),
              ("batch", (16, 32), F32, P("data"), None), ("labels", (16,), I32, P("data"), 10)],
        outs=[("w1", P()), ("b1", P()), ("w2", P()), ("b2", P()), ("loss", P())],
        desc="Data-parallel training step: 2-layer ReLU MLP (32-64-10) with mean softmax cross-entropy, "
             "jax.value_and_grad, SGD lr 0.1; batch[16,32] and labels[16] sharded over 'data' (4), params "
             "replicated; outputs (new w1, b1, w2, b2, loss) replicated (gradients all-reduced)")


def attention_heads():
    def fn(wsc, q, k, v):
        d = q.shape[-1]
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d)
        return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)
    spec = P(None, "model")
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[(n, (2, 8, 16, 16), F32, spec, None) for n in ("q", "k", "v")],
        outs=[("o", spec)],
        desc="Head-parallel attention: softmax(q k^T / sqrt(16)) v on [batch 2, heads 8, seq 16, head_dim 16] "
             "with the heads dimension sharded over 'model' (4) in and out (no communication needed)")


def matmul_2d(n):
    shape = (2, n // 2)

    def fn(wsc, a, b):
        return a @ b
    return dict(
        fn=fn, mesh=(("x", "y"), shape),
        args=[("a", (16, 32), F32, P("x", "y"), None), ("b", (32, 24), F32, P("y", None), None)],
        outs=[("c", P("x", None))],
        desc=f"2-D sharded matmul on a {shape[0]}x{shape[1]} ('x','y') mesh: a[16,32] P('x','y') @ "
             "b[32,24] P('y',None) -> c P('x',None) (contracting dim sharded over 'y': partial sums "
             "all-reduced over 'y')")


def layernorm_features():
    def fn(wsc, x, gamma, beta):
        return layer_norm(x, gamma, beta)
    return dict(
        fn=fn, mesh=(("model",), (2,)),
        args=[("x", (8, 64), F32, P(None, "model"), None), ("gamma", (64,), F32, P("model"), None),
              ("beta", (64,), F32, P("model"), None)],
        outs=[("y", P(None, "model"))],
        desc="Layer norm over a feature dimension sharded over 'model' (2): x[8,64] P(None,'model'), "
             "gamma/beta[64] P('model'), eps 1e-5; mean and variance need cross-device reductions")


def vocab_embedding_xent():
    def fn(wsc, table, ids, labels):
        emb = jnp.take(table, ids, axis=0)            # [8,16] gather from the vocab-sharded table
        logits = emb @ table.T                        # tied output projection: [8,64]
        logits = wsc(logits, P(None, "model"))
        return softmax_xent(logits, labels), logits
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("table", (64, 16), F32, P("model", None), None), ("ids", (8,), I32, P(), 64),
              ("labels", (8,), I32, P(), 64)],
        outs=[("loss", P()), ("logits", P(None, "model"))],
        desc="Vocab-parallel embedding with tied output projection: table[64,16] sharded over vocab "
             "('model', 4), ids[8] and labels[8] replicated; logits = table[ids] @ table.T "
             "(with_sharding_constraint P(None,'model')), mean softmax cross-entropy; outputs (loss "
             "replicated, logits P(None,'model'))")


def reshard():
    def fn(wsc, x):
        y = wsc(jnp.sin(x), P("y", "x"))
        return wsc(y * 2, P(None, "x"))
    return dict(
        fn=fn, mesh=(("x", "y"), (2, 2)),
        args=[("x", (8, 12), F32, P("x", "y"), None)],
        outs=[("y", P(None, "x"))],
        desc="Resharding chain on a 2x2 ('x','y') mesh: x[8,12] P('x','y') -> sin -> "
             "with_sharding_constraint P('y','x') (transpose of the device assignment) -> *2 -> "
             "with_sharding_constraint P(None,'x'); out P(None,'x')")


def cumsum_sequence():
    def fn(wsc, x):
        return jnp.cumsum(x, axis=1)
    return dict(
        fn=fn, mesh=(("seq",), (4,)),
        args=[("x", (4, 32), F32, P(None, "seq"), None)],
        outs=[("y", P(None, "seq"))],
        desc="Prefix sum along a sequence dimension sharded over 'seq' (4): jnp.cumsum(x[4,32], axis=1), "
             "in and out P(None,'seq') (a reduce-window / scan across shards)")


def conv_spatial():
    def fn(wsc, img, kernel):
        y = lax.conv_general_dilated(img, kernel, window_strides=(1, 1), padding="SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jax.nn.relu(y)
    return dict(
        fn=fn, mesh=(("h",), (2,)),
        args=[("image", (2, 16, 16, 4), F32, P(None, "h"), None), ("kernel", (3, 3, 4, 8), F32, P(), None)],
        outs=[("y", P(None, "h"))],
        desc="Spatially partitioned convolution: NHWC image[2,16,16,4] with H sharded over 'h' (2), "
             "replicated 3x3x4x8 HWIO kernel, SAME padding, stride 1, then ReLU; out P(None,'h') "
             "(needs a halo exchange of one row)")


def transformer_block():
    heads = 4

    def fn(wsc, x, ln1_g, ln1_b, wq, wk, wv, wo, ln2_g, ln2_b, w1, w2):
        b, s, d = x.shape
        hd = d // heads
        h = layer_norm(x, ln1_g, ln1_b)
        split = lambda t: t.reshape(b, s, heads, hd).transpose(0, 2, 1, 3)  # noqa: E731
        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(hd)
        causal = jnp.tril(jnp.ones((s, s), dtype=bool))
        att = jnp.where(causal, att, -1e9)
        o = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(att, axis=-1), v)
        x = x + o.transpose(0, 2, 1, 3).reshape(b, s, d) @ wo
        h = layer_norm(x, ln2_g, ln2_b)
        return x + jax.nn.gelu(h @ w1, approximate=True) @ w2
    col, row = P(None, "model"), P("model", None)
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("x", (2, 8, 32), F32, P(), None),
              ("ln1.scale", (32,), F32, P(), None), ("ln1.bias", (32,), F32, P(), None),
              ("wq", (32, 32), F32, col, None), ("wk", (32, 32), F32, col, None), ("wv", (32, 32), F32, col, None),
              ("wo", (32, 32), F32, row, None),
              ("ln2.scale", (32,), F32, P(), None), ("ln2.bias", (32,), F32, P(), None),
              ("w1", (32, 64), F32, col, None), ("w2", (64, 32), F32, row, None)],
        outs=[("y", P())],
        desc="Pre-norm transformer block, Megatron tensor parallel over 'model' (4): x[2,8,32] replicated, "
             "LN -> causal 4-head attention (wq/wk/wv[32,32] P(None,'model') = one head per device, "
             "wo P('model',None)) -> residual -> LN -> tanh-GELU MLP (w1[32,64] P(None,'model'), "
             "w2[64,32] P('model',None)) -> residual; LN params replicated; out replicated")


def dp_tp_train_step():
    lr = 0.1

    def fn(wsc, x, y, w1, w2):
        def loss_fn(ws):
            w1, w2 = ws
            pred = jnp.tanh(x @ w1) @ w2
            return jnp.mean(jnp.square(pred - y))
        loss, (g1, g2) = jax.value_and_grad(loss_fn)((w1, w2))
        return w1 - lr * g1, w2 - lr * g2, loss
    return dict(
        fn=fn, mesh=(("data", "model"), (2, 4)),
        args=[("x", (8, 32), F32, P("data", None), None), ("y", (8, 8), F32, P("data", None), None),
              ("w1", (32, 64), F32, P(None, "model"), None), ("w2", (64, 8), F32, P("model", None), None)],
        outs=[("w1", P(None, "model")), ("w2", P("model", None)), ("loss", P())],
        desc="2-D (data x model = 2x4) parallel training step: tanh MLP 32-64-8, MSE loss against y, "
             "SGD lr 0.1; x[8,32] and y[8,8] P('data',None), w1[32,64] P(None,'model'), w2[64,8] "
             "P('model',None); outputs (new w1, new w2 with the same shardings, loss replicated)")


def uneven_rows():
    def fn(wsc, x):
        x = wsc(x, P("x", None))
        y = jnp.tanh(x) * 2 + x.sum(axis=1, keepdims=True)
        return wsc(y, P("x", None))
    return dict(
        fn=fn, mesh=(("x",), (4,)),
        args=[("x", (10, 8), F32, P(), None)],
        outs=[("y", P())],
        desc="Uneven split: 10 rows over 4 devices (shards of 3,3,3,1 rows, padded to 12). JAX refuses an "
             "indivisible NamedSharding for jit inputs and outputs (IndivisibleError: 'axis 0 is "
             "partitioned 4 times, but the dimension size is 10'), so x[10,8] comes in replicated, "
             "with_sharding_constraint(x, P('x',None)) shards it inside, y = tanh(x)*2 + x.sum(axis=1, "
             "keepdims=True) is constrained to P('x',None) again, and the output is replicated")


# --- Second batch: what real sharded models do that the programs above do not --------------------------


def head_split_reshape():
    heads, hd = 4, 8

    def fn(wsc, x):
        b, s, d = x.shape
        h = x.reshape(b, s, heads, hd).transpose(0, 2, 1, 3)          # [4,4,16,8] (b, heads, seq, hd)
        h = wsc(h, P(None, "model"))                                  # heads sharded
        h = jax.nn.softmax(h, axis=2)                                 # per head, over the sequence
        return h.transpose(0, 2, 1, 3).reshape(b, s, d)
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("x", (4, 16, 32), F32, P(None, None, "model"), None)],
        outs=[("y", P(None, None, "model"))],
        desc="Head split and merge: x[4,16,32] P(None,None,'model') (4) reshaped to [4,16,4 heads,8] and "
             "transposed to [4,4,16,8] (with_sharding_constraint P(None,'model'): one head per device), "
             "softmax over the sequence axis per head, transposed and reshaped back to [4,16,32]; out "
             "P(None,None,'model') (the feature split lines up with the head split: no communication)")


def argmax_sharded():
    def fn(wsc, x):
        return jnp.argmax(x, axis=1).astype(jnp.int32), jnp.max(x, axis=1)
    return dict(
        fn=fn, mesh=(("x",), (8,)),
        args=[("x", (8, 64), F32, P(None, "x"), None)],
        outs=[("argmax", P()), ("max", P())],
        desc="Arg-max and max over a sharded axis: x[8,64] P(None,'x') (8); jnp.argmax(x, axis=1) (a "
             "variadic (value, index) reduce; int32) and jnp.max(x, axis=1), both replicated [8] (the "
             "index needs the shard offset and a cross-device (value, index) combine)")


def softmax_sharded_axis():
    def fn(wsc, x):
        return jax.nn.softmax(x, axis=-1)
    return dict(
        fn=fn, mesh=(("model",), (2,)),
        args=[("x", (16, 64), F32, P(None, "model"), None)],
        outs=[("y", P(None, "model"))],
        desc="Softmax along the sharded axis: x[16,64] P(None,'model') (2), jax.nn.softmax(x, axis=-1) "
             "(a max reduce and a sum reduce across devices); out P(None,'model')")


def concat_pad_sharded():
    def fn(wsc, a, b, start):
        c = jnp.concatenate([a, b], axis=1)                           # [8,64]
        padded = jnp.pad(a, ((0, 0), (3, 5)))                         # [8,40]
        window = lax.dynamic_slice(c, (0, start), (8, 16))            # traced start on the sharded dim
        return c, padded, window
    return dict(
        fn=fn, mesh=(("x",), (4,)),
        args=[("a", (8, 32), F32, P(None, "x"), None), ("b", (8, 32), F32, P(None, "x"), None),
              ("start", (), I32, P(), 49)],
        outs=[("concat", P(None, "x")), ("pad", P(None, "x")), ("window", P(None, "x"))],
        desc="Concatenate, pad and dynamic-slice along a sharded dim (x=4): a, b[8,32] P(None,'x'); "
             "concatenate([a,b], axis=1) -> [8,64] P(None,'x') (shards move between devices); "
             "jnp.pad(a, ((0,0),(3,5))) -> [8,40] P(None,'x') (the pad shifts every shard boundary); "
             "lax.dynamic_slice(concat, (0, start), (8,16)) with a traced int32 scalar start (replicated) "
             "-> [8,16] P(None,'x')")


def embedding_gather_dp():
    def fn(wsc, table, ids, w):
        emb = jnp.take(table, ids, axis=0)                            # [8,8,16] gather, batch sharded
        h = jnp.tanh(emb @ w)                                         # dense layer [8,8,32]
        g = h @ w.T                                                   # a per-token "gradient" [8,8,16]
        gtable = jnp.zeros_like(table).at[ids].add(g)                 # scatter-add into the table
        return h, gtable
    return dict(
        fn=fn, mesh=(("data",), (4,)),
        args=[("table", (64, 16), F32, P(), None), ("ids", (8, 8), I32, P("data"), 64),
              ("w", (16, 32), F32, P(), None)],
        outs=[("h", P("data")), ("table_grad", P())],
        desc="Data-parallel embedding: table[64,16] and w[16,32] replicated, ids[8,8] P('data') (4); "
             "h = tanh(table[ids] @ w) (a gather with sharded indices, then a dense layer) out P('data'); "
             "table_grad = zeros.at[ids].add(h @ w.T) (a scatter-add with sharded indices and updates into "
             "a replicated operand: partial tables all-reduced) out replicated")


def scan_sharded_carry():
    def fn(wsc, h0, xs, w):
        def body(h, x):
            h = wsc(jnp.tanh(h @ w + x), P(None, "model"))
            return h, h
        h, hs = lax.scan(body, h0, xs)
        return h, hs
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("h0", (8, 32), F32, P(None, "model"), None), ("xs", (8, 8, 32), F32, P(None, None, "model"), None),
              ("w", (32, 32), F32, P("model", None), None)],
        outs=[("h", P(None, "model")), ("hs", P(None, None, "model"))],
        desc="lax.scan (an HLO while loop) over 8 steps: carry h[8,32] P(None,'model') (4), "
             "h = tanh(h @ w + xs[t]) with w[32,32] P('model',None) (contracting dim sharded: partial sums "
             "reduced inside the loop body), with_sharding_constraint P(None,'model') on the new carry; "
             "xs[8,8,32] P(None,None,'model'); outputs final h P(None,'model') and stacked hs[8,8,32] "
             "P(None,None,'model')")


def int_and_bool():
    def fn(wsc, a, b, mask):
        gt = a > b
        w = jnp.where(gt, a, b * 2 - 3)
        rowsum = jnp.sum(w, axis=1)                                   # int32 sum over 'y'
        any_row = jnp.any(gt & (a % 3 == 0), axis=1)                  # logical-or reduce over 'y'
        all_col = jnp.all(gt | mask | (b < 2), axis=0)                # logical-and reduce over 'x'
        count = jnp.sum(gt & mask, dtype=jnp.int32)                   # int32 sum over both axes
        flag = jnp.any(gt) & ~jnp.all(mask)
        imax = jnp.max(jnp.abs(a - b), axis=0)                        # int32 max over 'x'
        return w, rowsum, any_row, all_col, count, flag, imax
    return dict(
        fn=fn, mesh=(("x", "y"), (2, 2)),
        args=[("a", (16, 32), I32, P("x", "y"), 10), ("b", (16, 32), I32, P("x", "y"), 10),
              ("mask", (16, 32), np.bool_, P("x", "y"), 2)],
        outs=[("where", P("x", "y")), ("rowsum", P("x")), ("any_row", P("x")), ("all_col", P("y")),
              ("count", P()), ("flag", P()), ("absmax", P("y"))],
        desc="int32 and bool ops on a 2x2 ('x','y') mesh: a, b[16,32] int32 in [0,10) and mask[16,32] bool, "
             "all P('x','y'); gt = a > b, where(gt, a, 2b-3) P('x','y'), int32 row sums over 'y' P('x'), "
             "jnp.any(gt & (a % 3 == 0), axis=1) P('x'), jnp.all(gt | mask | (b < 2), axis=0) P('y'), "
             "int32 count of gt & mask and jnp.any(gt) & ~jnp.all(mask) replicated scalars, "
             "max |a-b| over axis 0 P('y')")


def bf16_matmul():
    def fn(wsc, a, b):
        c = jnp.dot(a, b, preferred_element_type=jnp.float32)
        return c, jnp.sum((a * b.T).astype(jnp.float32), axis=1)
    return dict(
        fn=fn, mesh=(("x", "y"), (2, 2)),
        args=[("a", (32, 64), jnp.bfloat16, P("x", "y"), None), ("b", (64, 32), jnp.bfloat16, P("y", None), None)],
        outs=[("c", P("x", None)), ("rowdot", P("x"))],
        tol=(1e-2, 1e-2),
        tol_reason="bfloat16 (8-bit significand, eps 2^-8): the HLO multiplies a * b.T in bf16 and "
                   "converts to f32, but XLA:CPU computes that product in f32 without rounding it to bf16 "
                   "(its bf16 normalization drops the f32->bf16->f32 round trip), so expected rowdot "
                   "differs from an evaluation that rounds each product to bf16 by up to ~7e-4 here; an "
                   "implementation may also accumulate the bf16 dot in another order or precision. 1e-2 "
                   "covers a few bf16 ulps on these O(1) sums",
        desc="bfloat16 matmul on a 2x2 ('x','y') mesh: a[32,64] bf16 P('x','y') @ b[64,32] bf16 "
             "P('y',None) with preferred_element_type=float32 -> c f32 P('x',None) (partial sums over "
             "'y' all-reduced in f32); plus rowdot = sum(f32(a * b.T), axis=1) (bf16 multiply of a sharded "
             "operand against a transposed one, f32 reduce over 'y') P('x')")


def batched_dot_heads():
    def fn(wsc, q, k, v):
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(q.shape[-1])
        o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v)
        return s, o
    spec = P("data", None, "model", None)
    return dict(
        fn=fn, mesh=(("data", "model"), (2, 4)),
        args=[(n, (4, 8, 8, 8), F32, spec, None) for n in ("q", "k", "v")],
        outs=[("scores", P("data", "model")), ("o", spec)],
        desc="Batched dot with batch and heads sharded on a 2x4 ('data','model') mesh: q, k, v[4 batch, "
             "8 seq, 8 heads, 8 hd] P('data',None,'model',None); scores = einsum('bqhd,bkhd->bhqk') / "
             "sqrt(8) out P('data','model') (dot batch dims b,h both sharded, in a different position in "
             "the output), o = einsum('bhqk,bkhd->bqhd', softmax(scores), v) out P('data',None,'model',None)")


def layernorm_rows_cols():
    def fn(wsc, x, gamma, beta):
        return layer_norm(x, gamma, beta)
    return dict(
        fn=fn, mesh=(("x", "y"), (2, 4)),
        args=[("x", (16, 64), F32, P("x", "y"), None), ("gamma", (64,), F32, P("y"), None),
              ("beta", (64,), F32, P("y"), None)],
        outs=[("y", P("x", "y"))],
        desc="Layer norm of a 2-D sharded x[16,64] P('x','y') on a 2x4 mesh over its last axis (sharded "
             "over 'y', 4): mean/variance all-reduced over 'y' only (within each 'x' row group); "
             "gamma/beta[64] P('y'); out P('x','y')")


def transpose_reshard():
    def fn(wsc, x):
        t = x.T
        y = wsc(jnp.sin(x), P(None, "x"))
        y = wsc(y * 2 + 1, P("y", "x"))
        y = wsc(jnp.cos(y), P(("x", "y"), None))
        return t, y
    return dict(
        fn=fn, mesh=(("x", "y"), (4, 2)),
        args=[("x", (16, 32), F32, P("x", None), None)],
        outs=[("xt", P("x", None)), ("y", P(None, "y"))],
        desc="Transpose and resharding chain on a 4x2 ('x','y') mesh: x[16,32] P('x',None); x.T [32,16] "
             "with out sharding P('x',None) (the sharded dim moves: all-to-all); y = sin(x) -> "
             "with_sharding_constraint P(None,'x') -> 2y+1 -> P('y','x') -> cos -> P(('x','y'),None) "
             "(rows over all 8 devices), out P(None,'y')")


def resnet_block_dp():
    lr = 0.1
    dn = ("NHWC", "HWIO", "NHWC")

    def fn(wsc, image, target, k1, gamma, beta, k2):
        def bn(y, g, b):                                               # batch statistics over N, H, W
            mu = jnp.mean(y, axis=(0, 1, 2))
            var = jnp.mean(jnp.square(y - mu), axis=(0, 1, 2))
            return (y - mu) * lax.rsqrt(var + 1e-5) * g + b

        def loss_fn(params):
            k1, gamma, beta, k2 = params
            y = lax.conv_general_dilated(image, k1, (1, 1), "SAME", dimension_numbers=dn)
            y = jax.nn.relu(bn(y, gamma, beta))
            y = lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=dn)
            out = jax.nn.relu(image + y)
            return jnp.mean(jnp.square(out - target))
        params = (k1, gamma, beta, k2)
        loss, grads = jax.value_and_grad(loss_fn)(params)
        return (*[p - lr * g for p, g in zip(params, grads)], loss)
    return dict(
        fn=fn, mesh=(("data",), (2,)),
        args=[("image", (4, 8, 8, 4), F32, P("data"), None), ("target", (4, 8, 8, 4), F32, P("data"), None),
              ("k1", (3, 3, 4, 8), F32, P(), None), ("gamma", (8,), F32, P(), None),
              ("beta", (8,), F32, P(), None), ("k2", (3, 3, 8, 4), F32, P(), None)],
        outs=[("k1", P()), ("gamma", P()), ("beta", P()), ("k2", P()), ("loss", P())],
        desc="Data-parallel ResNet-style block training step: NHWC image[4,8,8,4] and target P('data') "
             "(2); conv 3x3 4->8 (SAME) -> batch norm with statistics over batch+H+W (cross-device mean and "
             "variance), gamma/beta[8] -> ReLU -> conv 3x3 8->4 -> residual add -> ReLU; MSE loss; "
             "jax.value_and_grad, SGD lr 0.1 on k1, gamma, beta, k2 (replicated; gradients include the "
             "batch-norm backward's cross-device sums); outputs new params and loss, replicated")


def moe_topk():
    experts = 4

    def fn(wsc, x, w_router, w_in, w_out):
        logits = x @ w_router                                         # [16,4] (16 tokens, 4 experts)
        top_vals, top_idx = lax.top_k(logits, 2)                      # [16,2]
        gates = jax.nn.softmax(top_vals, axis=-1)
        dispatch = jax.nn.one_hot(top_idx, experts, dtype=x.dtype)    # [16,2,4]
        combine = jnp.einsum("tk,tke->te", gates, dispatch)           # [16,4]
        mask = jnp.sum(dispatch, axis=1)                              # [16,4] 0/1
        xe = wsc(jnp.einsum("te,td->etd", mask, x), P("expert"))      # tokens to experts [4,16,16]
        h = jax.nn.relu(jnp.einsum("etd,edf->etf", xe, w_in))
        ye = jnp.einsum("etf,efd->etd", h, w_out)
        y = jnp.einsum("etd,te->td", ye, combine)                     # back to tokens
        return y, top_idx.astype(jnp.int32)
    return dict(
        fn=fn, mesh=(("expert",), (4,)),
        args=[("x", (16, 16), F32, P(), None), ("w_router", (16, 4), F32, P(), None),
              ("w_in", (4, 16, 32), F32, P("expert"), None), ("w_out", (4, 32, 16), F32, P("expert"), None)],
        outs=[("y", P()), ("top_idx", P())],
        desc="Tiny top-2 mixture of experts, expert parallel over 'expert' (4, one expert per device): "
             "x[16,16] tokens and router w_router[16,4] replicated; lax.top_k(x @ w_router, 2) over the "
             "experts, softmax gates, jax.nn.one_hot dispatch, tokens masked per expert [4,16,16] "
             "(with_sharding_constraint P('expert')), expert FFN relu(xe @ w_in[e]) @ w_out[e] with "
             "w_in[4,16,32], w_out[4,32,16] P('expert'), gate-weighted combine back to tokens (a sum over "
             "the sharded expert dim); outputs y[16,16] and top_idx[16,2] int32 replicated")


def shard_map_simple():
    def body(a, w):                                                   # per device: a[8,8], w[8,8]
        y = lax.psum(a @ w, "x")                                      # row-parallel matmul
        z = a * lax.psum(jnp.sum(a * a), "x")
        return y, z

    def fn(wsc, x, w):
        return jax.shard_map(body, mesh=wsc.mesh, in_specs=(P(None, "x"), P("x", None)),
                             out_specs=(P(), P(None, "x")))(x, w)

    def ref(wsc, x, w):
        return x @ w, x * jnp.sum(x * x)
    return dict(
        fn=fn, ref=ref, mesh=(("x",), (2,)),
        args=[("x", (8, 16), F32, P(None, "x"), None), ("w", (16, 8), F32, P("x", None), None)],
        outs=[("y", P()), ("z", P(None, "x"))],
        desc="jax.shard_map (MANUAL sharding) on x=2: x[8,16] P(None,'x'), w[16,8] P('x',None); the body "
             "runs per device on x[8,8], w[8,8]: y = psum(x @ w, 'x') (out_specs P(), a row-parallel "
             "matmul) and z = x * psum(sum(x*x), 'x') (out_specs P(None,'x')). The module carries "
             "{manual} shardings and the SPMDFullToShardShape / SPMDShardToFullShape custom calls (Shardy "
             "form: its manual-computation custom calls) with an explicit all-reduce")


def conv_spatial_2d():
    dn = ("NHWC", "HWIO", "NHWC")

    def fn(wsc, image, k1, k2):
        y = lax.conv_general_dilated(image, k1, (2, 2), "SAME", dimension_numbers=dn)       # stride 2
        y = jnp.tanh(y)
        y = lax.conv_general_dilated(y, k2, (1, 1), "SAME", rhs_dilation=(2, 2), dimension_numbers=dn)
        return y
    return dict(
        fn=fn, mesh=(("h", "w"), (2, 2)),
        args=[("image", (2, 16, 16, 4), F32, P(None, "h", "w"), None), ("k1", (3, 3, 4, 8), F32, P(), None),
              ("k2", (3, 3, 8, 8), F32, P(), None)],
        outs=[("y", P(None, "h", "w"))],
        desc="Convolutions with both spatial dims sharded on a 2x2 ('h','w') mesh: NHWC image[2,16,16,4] "
             "P(None,'h','w'), replicated kernels; conv 3x3 stride 2 SAME (4->8) -> tanh -> conv 3x3 "
             "dilation 2 SAME (8->8); out P(None,'h','w') (halos of different widths on each side)")


def tp_embedding():
    def fn(wsc, table, ids, w):
        emb = jnp.take(table, ids, axis=0)                            # [8,8,32], table split on features
        g = jnp.tanh(emb) * w                                         # a per-token "gradient"
        gtable = jnp.zeros_like(table).at[ids].add(g)                 # scatter-add, features split
        return emb, gtable
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("table", (64, 32), F32, P(None, "model"), None), ("ids", (8, 8), I32, P(), 64),
              ("w", (32,), F32, P("model"), None)],
        outs=[("emb", P(None, None, "model")), ("table_grad", P(None, "model"))],
        desc="Tensor-parallel embedding: table[64,32] split along its features over 'model' (4), ids[8,8] "
             "replicated; emb = table[ids] out P(None,None,'model') (a gather whose windows take every "
             "feature: each device gathers its features); table_grad = zeros.at[ids].add(tanh(emb) * w) "
             "out P(None,'model') (a scatter-add whose windows take every feature)")


def vocab_scatter():
    def fn(wsc, table, ids, upd):
        ids = ids * 2 - 20                                            # some ids outside [0, 64)
        added = table.at[ids].add(upd, mode="drop")
        maxed = table.at[ids].max(upd, mode="drop")
        looked = jnp.take(table, ids, axis=0, mode="clip")            # clamped reads of split rows
        return added, maxed, looked
    return dict(
        fn=fn, mesh=(("model",), (4,)),
        args=[("table", (64, 16), F32, P("model", None), None), ("ids", (24,), I32, P(), 52),
              ("upd", (24, 16), F32, P(), None)],
        outs=[("added", P("model", None)), ("maxed", P("model", None)), ("looked", P())],
        desc="Scatters and a gather on a table split along its rows (vocab) over 'model' (4): ids[24] "
             "replicated, mapped to ids*2-20 so that some fall outside [0,64); table.at[ids].add(upd) and "
             ".max(upd) with mode='drop' out P('model',None) (each device scatters into its rows, the rest "
             "fall outside its block and are dropped); jnp.take(table, ids, mode='clip') out replicated "
             "(each device gathers what is in its rows, the rest masked, summed across devices)")


def vocab_gather_2d():
    def fn(wsc, table, ids):
        return jnp.take(table, ids, axis=0) * 2.0
    return dict(
        fn=fn, mesh=(("data", "model"), (2, 2)),
        args=[("table", (64, 16), F32, P("model", None), None), ("ids", (8, 6), I32, P("data"), 64)],
        outs=[("y", P("data"))],
        desc="Embedding lookup with the table's vocab split over 'model' and the ids' batch over 'data' "
             "on a 2x2 mesh: table[64,16] P('model',None), ids[8,6] P('data'); out [8,6,16] P('data') "
             "(masked gathers summed over 'model' only)")


def take_along_rows():
    def fn(wsc, logits, labels):
        picked = jnp.take_along_axis(logits, labels[:, None], axis=1)   # a batched gather
        return picked[:, 0] - jax.nn.logsumexp(logits, axis=1)
    return dict(
        fn=fn, mesh=(("data",), (4,)),
        args=[("logits", (16, 64), F32, P("data"), None), ("labels", (16,), I32, P("data"), 64)],
        outs=[("logp", P("data"))],
        desc="Per-row log-probability of a label, rows split over 'data' (4): logits[16,64] P('data'), "
             "labels[16] P('data'); jnp.take_along_axis (a gather with operand_batching_dims) minus "
             "logsumexp; out P('data')")


def shard_map_partial():
    def body(a, w):                                                   # manual over 'x' only; 'y' stays automatic
        h = jnp.tanh(a @ w)                                           # a[4,16] (rows of x), w[16,8]
        return h - lax.pmean(jnp.mean(h, axis=0, keepdims=True), "x")

    def fn(wsc, x, w):
        return jax.shard_map(body, mesh=wsc.mesh, in_specs=(P("x", None), P()), out_specs=P("x", None),
                             axis_names={"x"})(x, w)

    def ref(wsc, x, w):
        h = jnp.tanh(x @ w)
        return h - jnp.mean(h, axis=0, keepdims=True)
    return dict(
        fn=fn, ref=ref, mesh=(("x", "y"), (2, 2)),
        args=[("x", (8, 16), F32, P("x", "y"), None), ("w", (16, 8), F32, P(None, "y"), None)],
        outs=[("y", P("x", "y"))],
        desc="A partially manual jax.shard_map on a 2x2 ('x','y') mesh: manual over 'x' (axis_names={'x'}), "
             "'y' left to the partitioner; x[8,16] P('x','y'), w[16,8] P(None,'y'); the body computes "
             "tanh(a @ w) on its rows and subtracts the pmean over 'x' of the row mean; out P('x','y'). The "
             "module carries shardings with last_tile_dims={manual}")


PROGRAMS = {
    "tp_mlp": (tp_mlp, 4),
    "dp_train_step": (dp_train_step, 4),
    "attention_heads": (attention_heads, 4),
    "matmul_2d@4": (lambda: matmul_2d(4), 4),
    "matmul_2d@8": (lambda: matmul_2d(8), 8),
    "layernorm_features": (layernorm_features, 2),
    "vocab_embedding_xent": (vocab_embedding_xent, 4),
    "reshard": (reshard, 4),
    "cumsum_sequence": (cumsum_sequence, 4),
    "conv_spatial": (conv_spatial, 2),
    "transformer_block": (transformer_block, 4),
    "dp_tp_train_step": (dp_tp_train_step, 8),
    "uneven_rows": (uneven_rows, 4),
    "head_split_reshape": (head_split_reshape, 4),
    "argmax_sharded": (argmax_sharded, 8),
    "softmax_sharded_axis": (softmax_sharded_axis, 2),
    "concat_pad_sharded": (concat_pad_sharded, 4),
    "embedding_gather_dp": (embedding_gather_dp, 4),
    "scan_sharded_carry": (scan_sharded_carry, 4),
    "int_and_bool": (int_and_bool, 4),
    "bf16_matmul": (bf16_matmul, 4),
    "batched_dot_heads": (batched_dot_heads, 8),
    "layernorm_rows_cols": (layernorm_rows_cols, 8),
    "transpose_reshard": (transpose_reshard, 8),
    "resnet_block_dp": (resnet_block_dp, 2),
    "moe_topk": (moe_topk, 4),
    "shard_map_simple": (shard_map_simple, 2),
    "conv_spatial_2d": (conv_spatial_2d, 4),
    "tp_embedding": (tp_embedding, 4),
    "vocab_scatter": (vocab_scatter, 4),
    "vocab_gather_2d": (vocab_gather_2d, 4),
    "take_along_rows": (take_along_rows, 4),
    "shard_map_partial": (shard_map_partial, 4),
}
FORMS = ("gspmd", "shardy")


def all_cases():
    """case name -> (program, builder, N, form), in corpus order."""
    out = {}
    for key, (builder, n) in PROGRAMS.items():
        prog = key.split("@")[0]
        for form in FORMS:
            out[f"{prog}_{form}_{n}"] = (prog, builder, n, form)
    return out


# ---------------------------------------------------------------------------------------------

def make_inputs(args, seed):
    """Floats: matrices from a normal scaled by 1/sqrt(fan-in) (all dims but the last), activations
    (x, batch, image, q/k/v, y) unit normal, vectors 0.1 * normal (+1 for layer-norm scales); ints uniform
    in [0, high); bools fair coin flips. bfloat16 arrays are the float32 draws rounded."""
    rng = np.random.default_rng(seed)
    out = []
    for name, shape, dtype, _spec, high in args:
        if np.dtype(dtype) == np.bool_:
            out.append(rng.integers(0, 2, size=shape).astype(np.bool_))
            continue
        if np.issubdtype(dtype, np.integer):
            out.append(rng.integers(0, high, size=shape).astype(dtype))
            continue
        if name in ("x", "batch", "image", "q", "k", "v", "y"):
            a = rng.standard_normal(shape)
        elif len(shape) >= 2:
            a = rng.standard_normal(shape) / math.sqrt(math.prod(shape[:-1]))
        else:
            a = rng.standard_normal(shape) * 0.1
            if name in ("gamma",) or name.endswith(".scale"):
                a = a + 1.0
        out.append(a.astype(dtype))
    return out


def dump_files(fn_name, suffix):
    return sorted(glob.glob(os.path.join(DUMP_DIR, f"module_*.jit_{fn_name}.{suffix}")))


def clear_dumps():
    for p in glob.glob(os.path.join(DUMP_DIR, "*")):
        if os.path.isdir(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            os.remove(p)


def per_device_bytes(sharding, shape, dtype):
    return int(math.prod(sharding.shard_shape(tuple(shape)))) * np.dtype(dtype).itemsize


def spec_str(spec):
    return "P(" + ", ".join(repr(p) for p in spec) + ")"


def export(name, out_root):
    prog, builder, n, form = all_cases()[name]
    p = builder()
    axes, sizes = p["mesh"]
    assert math.prod(sizes) == n, (name, sizes, n)
    rtol, atol = p.get("tol", DEFAULT_TOL)
    for a in p["args"]:
        assert math.prod(a[1]) <= 65536, a

    jax.config.update("jax_use_shardy_partitioner", form == "shardy")
    mesh = Mesh(np.array(jax.devices()[:n]).reshape(sizes), axes)

    def wsc(x, spec):
        return lax.with_sharding_constraint(x, NamedSharding(mesh, spec))
    wsc.mesh = mesh  # for programs that need the mesh itself (shard_map)

    def f(*xs):
        return p["fn"](wsc, *xs)
    fn_name = "rxla_" + name
    f.__name__ = f.__qualname__ = fn_name
    # Name the parameters after the arguments (HLO parameter names and op_name metadata come from these).
    f.__signature__ = inspect.Signature([inspect.Parameter(re.sub(r"\W", "_", a[0]),
                                                           inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                         for a in p["args"]])

    arrays = make_inputs(p["args"], seed=sum(map(ord, prog)))
    in_sh = tuple(NamedSharding(mesh, a[3]) for a in p["args"])
    out_sh = tuple(NamedSharding(mesh, o[1]) for o in p["outs"])
    single = len(out_sh) == 1
    jf = jax.jit(f, in_shardings=in_sh, out_shardings=out_sh[0] if single else out_sh, keep_unused=True)

    clear_dumps()
    dev_args = [jax.device_put(a, s) for a, s in zip(arrays, in_sh)]
    compiled = jf.lower(*dev_args).compile()
    res = compiled(*dev_args)
    res = [res] if single else list(res)
    outs = [np.asarray(r) for r in res]
    out_shardings_seen = [str(r.sharding.spec) for r in res]
    for i, o in enumerate(outs):
        if np.issubdtype(o.dtype, np.floating) and not np.all(np.isfinite(o)):
            raise RuntimeError(f"{name}: output {i} is not finite")

    before = dump_files(fn_name, "before_optimizations.txt")
    after = dump_files(fn_name, "cpu_after_optimizations.txt") or dump_files(fn_name, "after_optimizations.txt")
    if len(before) != 1 or len(after) != 1:
        raise RuntimeError(f"{name}: expected one dump of jit_{fn_name}, got {before} / {after}")
    module = open(before[0]).read()
    partitioned = open(after[0]).read()

    # The unsharded reference (one device, no constraints): how far partitioning moves the numbers.
    ref_f = jax.jit(lambda *xs: p.get("ref", p["fn"])(ident, *xs))
    ref = ref_f(*[jnp.asarray(a) for a in arrays])
    ref = [ref] if single else list(ref)
    diffs = []
    for o, r in zip(outs, ref):
        r = np.asarray(r)
        if np.issubdtype(o.dtype, np.floating):
            diffs.append(float(np.max(np.abs(o.astype(np.float64) - r))) if o.size else 0.0)
            if not np.allclose(o, r, rtol=rtol, atol=atol):
                raise RuntimeError(f"{name}: sharded and unsharded results differ beyond rtol {rtol} atol {atol}")
        else:
            diffs.append(float(np.max(np.abs(o.astype(np.int64) - r))) if o.size else 0.0)
            if diffs[-1] != 0:
                raise RuntimeError(f"{name}: sharded and unsharded integer/bool results differ")

    d = os.path.join(out_root, "cases", name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, "module.hlo"), "w") as fh:
        fh.write(module)
    wrote_partitioned = len(partitioned.encode()) <= PARTITIONED_LIMIT
    if wrote_partitioned:
        with open(os.path.join(d, "partitioned.hlo"), "w") as fh:
            fh.write(partitioned)
    np.savez(os.path.join(d, "inputs.npz"), **{f"arg{i}": a for i, a in enumerate(arrays)})
    np.savez(os.path.join(d, "expected.npz"), **{f"out{i}": o for i, o in enumerate(outs)})

    ops = sorted({m.group(1) for m in re.finditer(r"\s([a-z][a-z0-9-]*)\(", module)} - {"parameter"})
    targets = sorted(set(re.findall(r'custom_call_target="([^"]+)"', module)))
    import jaxlib
    meta = {
        "name": name, "program": prog, "category": "sharded", "description": p["desc"],
        "partitions": n, "mesh": {"axis_names": list(axes), "axis_sizes": list(sizes),
                                  "devices": np.asarray(mesh.device_ids).tolist()},
        "form": form, "jax_use_shardy_partitioner": form == "shardy",
        "in_specs": [spec_str(a[3]) for a in p["args"]],
        "out_specs": [spec_str(o[1]) for o in p["outs"]],
        "rtol": rtol, "atol": atol,
        **({"tolerance_reason": p["tol_reason"]} if "tol_reason" in p else {}),
        **({"rxla_expected": p["rxla_expected"]} if "rxla_expected" in p else {}),
        "hlo_module": "jit_" + fn_name,
        "instructions": sum(1 for ln in module.splitlines() if re.match(r"\s+(ROOT\s+)?%?[\w.\-]+ = ", ln)),
        "custom_call_targets": targets,
        "inputs": [{"name": f"arg{i}", "path": a[0], "dtype": HLO_DTYPE[np.dtype(a[2]).name], "shape": list(a[1]),
                    "spec": spec_str(a[3]), "bytes": int(arr.nbytes),
                    "per_device_bytes": per_device_bytes(s, a[1], a[2]),
                    "per_device_shape": list(s.shard_shape(tuple(a[1])))}
                   for i, (a, arr, s) in enumerate(zip(p["args"], arrays, in_sh))],
        "outputs": [{"name": f"out{i}", "path": o[0], "dtype": HLO_DTYPE[o_arr.dtype.name],
                     "shape": list(o_arr.shape), "spec": spec_str(o[1]),
                     "per_device_bytes": per_device_bytes(s, o_arr.shape, o_arr.dtype),
                     "per_device_shape": list(s.shard_shape(o_arr.shape)),
                     "max_abs_diff_vs_unsharded": dd}
                    for i, (o, o_arr, s, dd) in enumerate(zip(p["outs"], outs, out_sh, diffs))],
        "result_shardings": out_shardings_seen,
        "partitioned_hlo": wrote_partitioned,
        "partitioned_hlo_bytes": len(partitioned.encode()),
        "jax": jax.__version__, "jaxlib": jaxlib.__version__,
        "exported_by": "test/sharded/export.py",
    }
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")
    check(meta, module)
    entry = {"name": name, "category": "sharded", "partitions": n, "form": form, "ops": ops,
             "rtol": rtol, "atol": atol}
    if "rxla_expected" in p:  # a known gap: a harness skips (or expects the failure of) this case
        entry["rxla_expected"] = p["rxla_expected"]
    return entry, meta


def check(meta, module):
    """The module must say how many partitions and carry the shardings."""
    name, n = meta["name"], meta["partitions"]
    header = module.splitlines()[0]
    if not header.startswith("HloModule ") or f"num_partitions={n}" not in header:
        raise RuntimeError(f"{name}: header lacks num_partitions={n}: {header}")
    params = [ln for ln in module.splitlines() if " parameter(" in ln and "ENTRY" not in ln]
    entry = module[module.index("\nENTRY "):]
    entry_params = [ln for ln in entry.splitlines() if " parameter(" in ln]
    if len(entry_params) != len(meta["inputs"]) or not all("sharding={" in ln for ln in entry_params):
        raise RuntimeError(f"{name}: entry parameters without sharding: {entry_params}")
    root = [ln for ln in entry.splitlines() if ln.lstrip().startswith("ROOT ")]
    if not root or "sharding={" not in root[0]:
        raise RuntimeError(f"{name}: ROOT without sharding: {root}")
    if meta["form"] == "shardy" and ("xla.sdy.meshes" not in header or "xla.sdy.sharding" not in module):
        raise RuntimeError(f"{name}: shardy form without xla.sdy attributes")
    if meta["form"] == "gspmd" and "xla.sdy" in module:
        raise RuntimeError(f"{name}: gspmd form carries xla.sdy attributes")
    del params


def main():
    cases = all_cases()
    programs = sorted({c[0] for c in cases.values()})
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case names (or program names: every case of the program); "
                                             "default: all")
    ap.add_argument("--out", default=HERE, help="corpus folder (default: %(default)s)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()
    if args.list:
        for c, (prog, _b, n, form) in cases.items():
            print(f"{c:34s} {prog:22s} N={n} {form}")
        return 0
    names = []
    for a in args.cases or list(cases):
        if a in cases:
            names.append(a)
        elif a in programs:
            names += [c for c, v in cases.items() if v[0] == a]
        else:
            ap.error(f"unknown case {a}; --list shows them")
    index_path = os.path.join(args.out, "index.json")
    index = {e["name"]: e for e in (json.load(open(index_path)) if os.path.exists(index_path) else [])}
    try:
        for c in dict.fromkeys(names):
            entry, meta = export(c, args.out)
            index[c] = entry
            header = open(os.path.join(args.out, "cases", c, "module.hlo")).readline()
            print(f"{c:34s} N={meta['partitions']} {meta['form']:6s} {meta['instructions']:4d} instrs  "
                  f"header {'ok' if 'num_partitions=%d' % meta['partitions'] in header else 'MISSING'}  "
                  f"max|sharded-unsharded| {max(o['max_abs_diff_vs_unsharded'] for o in meta['outputs']):.2e}  "
                  f"partitioned.hlo {'yes' if meta['partitioned_hlo'] else 'no'} "
                  f"({meta['partitioned_hlo_bytes'] // 1024} KB)", flush=True)
    finally:
        with open(index_path, "w") as fh:
            json.dump([index[k] for k in cases if k in index], fh, indent=1)
            fh.write("\n")
        shutil.rmtree(DUMP_DIR, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(DUMP_DIR, ignore_errors=True)
