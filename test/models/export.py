#!/usr/bin/env python3
"""Export the real-model test corpus: whole programs of the kinds users bring, small enough for git.

    bash bench/setup_venv.sh && bench/.venv/bin/python test/models/export.py          # every model
    bench/.venv/bin/python test/models/export.py moe_layer lstm_scan                  # some models
    bench/.venv/bin/python test/models/export.py --list

The layout is the oracle corpus's (test/oracle), so the same harness runs both
(runtime/tests/oracle.rs, `python3 test/oracle/check.py --cases test/models/cases`):

    index.json              name, category, ops, rtol, atol of every case
    cases/<name>/module.hlo     jax.jit(f).lower(*args).as_text(dialect="hlo"): what JAX hands XLA
    cases/<name>/dump.hlo       XLA's own dump of the program jitted with shardings on a one-device mesh
                                (--xla_dump_to, *.before_optimizations.txt): Shardy's custom calls and
                                frontend attributes, and large constants elided as `{...}`
    cases/<name>/inputs.npz     arg0, arg1, ...: the flattened arguments (weights from a seeded normal
                                scaled by 1/sqrt(fan-in), token ids in range, optimizer second moments >= 0)
    cases/<name>/expected.npz   out0, out1, ...: XLA:CPU's outputs (jaxlib, this machine) on inputs.npz
    cases/<name>/meta.json      description, config, tolerances, whether dump.hlo elides a constant

The models are the bench's (bench/models/export.py) at test sizes, plus a mixture-of-experts layer, an
EfficientNet block stack, a diffusion UNet block, an LSTM over lax.scan and AlphaFold-style triangle
attention and multiplication. Weights are generated, never downloaded; every file stays under ~2 MB.
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DUMP_DIR = tempfile.mkdtemp(prefix="rxla-model-dumps-")
# Before jax starts XLA: every compiled module's pre-optimization HLO goes to DUMP_DIR.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_dump_to={DUMP_DIR} "
                           "--xla_dump_hlo_module_re=jit_rxla_.* --xla_dump_hlo_pass_re=^$").strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "bench", "models"))
import export as bench  # noqa: E402  (the bench's model builders)

F32, I32 = jnp.float32, jnp.int32
sds = bench.sds


# ---------------------------------------------------------------------------------------------
# Models the bench does not have. Each returns (f, args, argnames, description, config) like the bench's.

def moe_layer(batch=2, seq=16, d=64, experts=8, top_k=2, ffn=128):
    """Top-k routed mixture of experts with gather/scatter dispatch (Mixtral/DeepSeek style)."""
    params = {"router": sds((d, experts)), "w_gate": sds((experts, d, ffn)), "w_up": sds((experts, d, ffn)),
              "w_down": sds((experts, ffn, d)), "norm": sds((d,))}

    def f(params, x):
        b, t, _ = x.shape
        h = bench.rms_norm(x, params["norm"]).reshape(b * t, d)
        logits = h @ params["router"]
        gate, idx = lax.top_k(jax.nn.softmax(logits, axis=-1), top_k)  # [N, k]
        gate = gate / jnp.sum(gate, axis=-1, keepdims=True)
        flat_e = idx.reshape(-1)  # [N*k]
        order = jnp.argsort(flat_e, stable=True)
        token = order // top_k
        xs = h[token]  # gather the routed tokens, grouped by expert
        es = flat_e[order]
        ys = jnp.zeros_like(xs)
        for e in range(experts):  # dense per-expert compute, masked to the expert's group
            y = (jax.nn.silu(xs @ params["w_gate"][e]) * (xs @ params["w_up"][e])) @ params["w_down"][e]
            ys = ys + jnp.where((es == e)[:, None], y, 0.0)
        ys = ys * gate.reshape(-1)[order][:, None]
        out = jnp.zeros((b * t, d), F32).at[token].add(ys)  # scatter-add back to the tokens
        aux = experts * jnp.sum(jnp.mean(jax.nn.one_hot(idx[:, 0], experts), axis=0) *
                                jnp.mean(jax.nn.softmax(logits, axis=-1), axis=0))
        return x + out.reshape(b, t, d), aux

    desc = (f"Mixture-of-experts layer: RMSNorm, softmax router over {experts} experts, top-{top_k} "
            "(lax.top_k), tokens sorted by expert and gathered, SwiGLU experts, gate-weighted scatter-add "
            f"back, load-balancing loss; batch {batch}, seq {seq}, d {d}")
    return f, (params, sds((batch, seq, d))), ("params", "x"), desc, dict(
        batch=batch, seq=seq, d=d, experts=experts, top_k=top_k, ffn=ffn)


def conv(x, w, stride=1, groups=1):
    k = w.shape[0]
    pad = [((k - 1) // 2, k // 2)] * 2
    return lax.conv_general_dilated(x, w, (stride, stride), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                    feature_group_count=groups)


def efficientnet_blocks(batch=2, image=32, stem=16, blocks=((16, 24, 4, 2), (24, 24, 4, 1), (24, 40, 6, 2)),
                        classes=10):
    """MBConv blocks: 1x1 expand, 3x3 depthwise, squeeze-excite, 1x1 project; a grouped 3x3 head conv."""
    bn = lambda c: {"scale": sds((c,)), "bias": sds((c,))}  # noqa: E731 (inference batch norm, folded)
    params = {"stem": {"w": sds((3, 3, 3, stem)), "bn": bn(stem)}, "blocks": []}
    for cin, cout, expand, _stride in blocks:
        ce = cin * expand
        se = max(1, cin // 4)
        params["blocks"].append({"expand": sds((1, 1, cin, ce)), "bn0": bn(ce), "dw": sds((3, 3, 1, ce)),
                                 "bn1": bn(ce), "se1": {"w": sds((ce, se)), "b": sds((se,))},
                                 "se2": {"w": sds((se, ce)), "b": sds((ce,))}, "project": sds((1, 1, ce, cout)),
                                 "bn2": bn(cout)})
    last = blocks[-1][1]
    params["head"] = {"w": sds((3, 3, last // 4, 64)), "bn": bn(64)}
    params["fc"] = {"w": sds((64, classes)), "b": sds((classes,))}

    def apply_bn(x, p):
        return x * p["scale"] + p["bias"]

    def f(params, img):
        x = jax.nn.silu(apply_bn(conv(img, params["stem"]["w"], 2), params["stem"]["bn"]))
        for (cin, cout, _expand, stride), p in zip(blocks, params["blocks"]):
            y = jax.nn.silu(apply_bn(conv(x, p["expand"]), p["bn0"]))
            y = jax.nn.silu(apply_bn(conv(y, p["dw"], stride, groups=y.shape[-1]), p["bn1"]))  # depthwise
            s = jnp.mean(y, axis=(1, 2))
            s = jax.nn.sigmoid(bench.dense(jax.nn.silu(bench.dense(s, p["se1"])), p["se2"]))
            y = apply_bn(conv(y * s[:, None, None, :], p["project"]), p["bn2"])
            x = x + y if (stride == 1 and cin == cout) else y
        x = jax.nn.silu(apply_bn(conv(x, params["head"]["w"], groups=4), params["head"]["bn"]))  # grouped
        return bench.dense(jnp.mean(x, axis=(1, 2)), params["fc"])

    desc = (f"EfficientNet-style inference: stride-2 stem, {len(blocks)} MBConv blocks (1x1 expand, 3x3 "
            "depthwise convolution with feature_group_count=channels, squeeze-and-excite, 1x1 project, "
            f"residual), a 4-group 3x3 convolution, mean pool, {classes}-way head; {image}x{image} NHWC, "
            f"batch {batch}")
    return f, (params, sds((batch, image, image, 3))), ("params", "images"), desc, dict(
        batch=batch, image=image, stem=stem, blocks=[list(b) for b in blocks], classes=classes)


def unet_block(batch=2, image=16, ch=32, groups=8, heads=4, temb=64):
    """A diffusion UNet stage: ResNet blocks with group norm and a time embedding, self-attention,
    a stride-2 downsample and a nearest-neighbour upsample with a skip connection."""
    gn = lambda c: {"scale": sds((c,)), "bias": sds((c,))}  # noqa: E731

    def res_p(cin, cout):
        p = {"gn1": gn(cin), "conv1": sds((3, 3, cin, cout)), "t": {"w": sds((temb, cout)), "b": sds((cout,))},
             "gn2": gn(cout), "conv2": sds((3, 3, cout, cout))}
        if cin != cout:
            p["skip"] = sds((1, 1, cin, cout))
        return p
    params = {"t1": {"w": sds((temb, temb)), "b": sds((temb,))}, "in": sds((3, 3, 4, ch)),
              "res1": res_p(ch, ch), "down": sds((3, 3, ch, 2 * ch)), "res2": res_p(2 * ch, 2 * ch),
              "attn": {"gn": gn(2 * ch), "qkv": sds((2 * ch, 6 * ch)), "o": sds((2 * ch, 2 * ch))},
              "up": sds((3, 3, 2 * ch, ch)), "res3": res_p(2 * ch, ch), "gn_out": gn(ch), "out": sds((3, 3, ch, 4))}

    def group_norm(x, p, eps=1e-5):
        b, h, w, c = x.shape
        g = x.reshape(b, h, w, groups, c // groups)
        mean = jnp.mean(g, axis=(1, 2, 4), keepdims=True)
        var = jnp.mean(jnp.square(g - mean), axis=(1, 2, 4), keepdims=True)
        return ((g - mean) * lax.rsqrt(var + eps)).reshape(b, h, w, c) * p["scale"] + p["bias"]

    def res(x, p, t):
        h = conv(jax.nn.silu(group_norm(x, p["gn1"])), p["conv1"])
        h = h + bench.dense(jax.nn.silu(t), p["t"])[:, None, None, :]
        h = conv(jax.nn.silu(group_norm(h, p["gn2"])), p["conv2"])
        return h + (conv(x, p["skip"]) if "skip" in p else x)

    def attention(x, p):
        b, h, w, c = x.shape
        hd = c // heads
        qkv = group_norm(x, p["gn"]).reshape(b, h * w, c) @ p["qkv"]
        q, k, v = (a.reshape(b, h * w, heads, hd) for a in jnp.split(qkv, 3, axis=-1))
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
        o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v).reshape(b, h * w, c)
        return x + (o @ p["o"]).reshape(b, h, w, c)

    def f(params, x, t):
        # A table computed in NumPy at trace time: a constant in the HLO, which XLA's dumps elide.
        half = temb // 2
        freqs = np.exp(-math.log(10000.0) * np.arange(half, dtype=np.float32) / half).astype(np.float32)
        e = t[:, None] * freqs[None, :]
        te = bench.dense(jnp.concatenate([jnp.sin(e), jnp.cos(e)], axis=-1), params["t1"])
        h0 = conv(x, params["in"])
        h1 = res(h0, params["res1"], te)
        h2 = conv(h1, params["down"], 2)  # downsample
        h2 = attention(res(h2, params["res2"], te), params["attn"])
        u = jnp.repeat(jnp.repeat(h2, 2, axis=1), 2, axis=2)  # nearest upsample
        u = conv(u, params["up"])
        h3 = res(jnp.concatenate([u, h1], axis=-1), params["res3"], te)
        return conv(jax.nn.silu(group_norm(h3, params["gn_out"])), params["out"])

    desc = (f"Diffusion UNet stage (noise prediction): sinusoidal time embedding, ResNet blocks with group norm "
            f"({groups} groups) and SiLU, stride-2 downsample, {heads}-head self-attention, nearest upsample, "
            f"skip concatenation; latents {image}x{image}x4 NHWC, {ch} channels, batch {batch}")
    return f, (params, sds((batch, image, image, 4)), sds((batch,))), ("params", "latents", "timesteps"), desc, \
        dict(batch=batch, image=image, ch=ch, groups=groups, heads=heads, temb=temb)


def lstm_scan(batch=4, steps=16, inputs=32, hidden=64, classes=10):
    """A two-layer LSTM over a sequence with lax.scan, and a classifier on the last state."""
    cell = lambda i: {"wx": sds((i, 4 * hidden)), "wh": sds((hidden, 4 * hidden)), "b": sds((4 * hidden,))}  # noqa
    params = {"l1": cell(inputs), "l2": cell(hidden), "fc": {"w": sds((hidden, classes)), "b": sds((classes,))}}

    def lstm(p, xs):
        def step(carry, x):
            h, c = carry
            z = x @ p["wx"] + h @ p["wh"] + p["b"]
            i, f_, g, o = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(f_ + 1.0) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        zeros = jnp.zeros((xs.shape[1], hidden), F32)
        (h, _), hs = lax.scan(step, (zeros, zeros), xs)
        return h, hs

    def f(params, xs):  # xs [T, B, I]
        _, hs = lstm(params["l1"], xs)
        h, hs2 = lstm(params["l2"], hs)
        return bench.dense(h, params["fc"]), hs2

    desc = (f"Two-layer LSTM (forget-gate bias 1) over {steps} steps with lax.scan (a while loop with a "
            f"dynamic-slice per step), batch {batch}, input {inputs}, hidden {hidden}; a {classes}-way classifier "
            "on the last state, and every state of the second layer")
    return f, (params, sds((steps, batch, inputs))), ("params", "sequence"), desc, dict(
        batch=batch, steps=steps, inputs=inputs, hidden=hidden, classes=classes)


def triangle_attention(batch=1, n=16, c=32, heads=4, hidden=32):
    """AlphaFold 3 pair-representation updates: triangle multiplication (outgoing) and triangle attention
    (starting node), each gated, as einsums."""
    ln = lambda: {"scale": sds((c,)), "bias": sds((c,))}  # noqa: E731
    params = {"mul": {"ln": ln(), "a": sds((c, hidden)), "b": sds((c, hidden)), "ga": sds((c, hidden)),
                      "gb": sds((c, hidden)), "ln_out": {"scale": sds((hidden,)), "bias": sds((hidden,))},
                      "out": sds((hidden, c)), "g": sds((c, c))},
              "att": {"ln": ln(), "q": sds((c, hidden)), "k": sds((c, hidden)), "v": sds((c, hidden)),
                      "bias": sds((c, heads)), "g": sds((c, hidden)), "o": sds((hidden, c))}}
    hd = hidden // heads

    def f(params, z, mask):  # z [B, N, N, C], mask [B, N, N]
        p = params["mul"]
        x = bench.layer_norm(z, **p["ln"])
        m = mask[..., None]
        a = m * jax.nn.sigmoid(x @ p["ga"]) * (x @ p["a"])
        b = m * jax.nn.sigmoid(x @ p["gb"]) * (x @ p["b"])
        t = jnp.einsum("bikc,bjkc->bijc", a, b)  # outgoing edges
        z = z + jax.nn.sigmoid(x @ p["g"]) * (bench.layer_norm(t, **p["ln_out"]) @ p["out"])
        p = params["att"]
        x = bench.layer_norm(z, **p["ln"])
        bsz = x.shape[0]
        q = (x @ p["q"]).reshape(bsz, n, n, heads, hd)
        k = (x @ p["k"]).reshape(bsz, n, n, heads, hd)
        v = (x @ p["v"]).reshape(bsz, n, n, heads, hd)
        tri = jnp.einsum("bjkh->bhjk", x @ p["bias"])[:, None]  # [B, 1, H, N, N]
        s = jnp.einsum("bijhd,bikhd->bihjk", q, k) / math.sqrt(hd) + tri
        s = jnp.where(mask[:, :, None, None, :] > 0, s, -1e9)
        o = jnp.einsum("bihjk,bikhd->bijhd", jax.nn.softmax(s, axis=-1), v).reshape(bsz, n, n, heads * hd)
        return z + (jax.nn.sigmoid(x @ p["g"]) * o) @ p["o"]

    desc = (f"AlphaFold-style pair updates: gated triangle multiplication (outgoing, einsum bikc,bjkc->bijc) "
            f"and {heads}-head triangle attention around the starting node with a pair bias and a mask; "
            f"{n}x{n} pairs, {c} channels, batch {batch}")
    return f, (params, sds((batch, n, n, c)), sds((batch, n, n))), ("params", "pair", "mask"), desc, dict(
        batch=batch, n=n, c=c, heads=heads, hidden=hidden)


SMALL_LLAMA = dict(layers=2, d=128, heads=4, kv_heads=2, ffn=344, vocab=512, rope_theta=10000.0)
# The training step carries parameters, gradients' moments and new copies of both: smaller still.
TRAIN_LLAMA = dict(layers=2, d=64, heads=4, kv_heads=2, ffn=172, vocab=256, rope_theta=10000.0)

# name -> (builder, tolerances (rtol, atol), int ranges {argument name: high}, non-negative argument paths)
MODELS = {
    "llama_prefill": (lambda: bench.llama_prefill(batch=1, seq=16, max_len=32, config=SMALL_LLAMA),
                      (1e-4, 1e-5), {"tokens": 512}),
    "llama_decode": (lambda: bench.llama_decode(batch=1, max_len=32, steps=4, config=SMALL_LLAMA),
                     (1e-4, 1e-5), {"token": 512, "pos": 8}),
    "llama_train_step": (lambda: bench.llama_train_step(layers=2, batch=2, seq=16, config=TRAIN_LLAMA),
                         (1e-3, 1e-4), {"tokens": 256, "opt_state.step": 100}),
    "vit": (lambda: bench.vit_b16(batch=2, image=32, patch=8, layers=2, d=64, heads=4, mlp=128, classes=10),
            (1e-4, 1e-5), {}),
    "mlp_mixer": (lambda: bench.mlp_mixer(batch=2, image=32, patch=8, layers=2, d=64, tokens_mlp=32,
                                          channels_mlp=128, classes=10), (1e-4, 1e-5), {}),
    "resnet_train_step": (lambda: bench.resnet50_train_step(batch=2, image=64, classes=10, stages=(1, 1, 1, 1),
                                                            base=8), (1e-3, 1e-4), {"labels": 10}),
    "t5_train_step": (lambda: bench.t5_encoder_decoder_step(batch=2, src=16, tgt=8, layers=2, d=32, heads=4,
                                                            ffn=64, vocab=256, buckets=8, max_dist=16),
                      (1e-3, 1e-4), {"src_tokens": 256, "tgt_tokens": 256, "opt_state.step": 100}),
    "moe_layer": (moe_layer, (1e-4, 1e-5), {}),
    "efficientnet_blocks": (efficientnet_blocks, (1e-4, 1e-5), {}),
    "unet_block": (unet_block, (1e-4, 1e-5), {}),
    "lstm_scan": (lstm_scan, (1e-4, 1e-5), {}),
    "triangle_attention": (triangle_attention, (1e-4, 1e-5), {}),
}


# ---------------------------------------------------------------------------------------------

def leaves_with_names(args, argnames):
    out = []
    for a, an in zip(args, argnames):
        for path, leaf in jax.tree_util.tree_flatten_with_path(a)[0]:
            out.append((bench.path_str(an, path), leaf))
    return out


def make_inputs(named, int_ranges, seed):
    """One array per flattened argument: floats from a normal scaled by 1/sqrt(fan-in) (vectors: 0.1 around
    1 for scales, 0.1 otherwise), optimizer second moments |x|, ints uniform in [0, high)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for name, leaf in named:
        shape, dtype = tuple(leaf.shape), np.dtype(leaf.dtype)
        if np.issubdtype(dtype, np.integer):
            high = next((h for k, h in int_ranges.items() if name == k or name.startswith(k + "[")
                         or name.startswith(k + ".")), 16)
            arrays.append(rng.integers(0, high, size=shape).astype(dtype))
            continue
        if len(shape) >= 2:
            fan_in = math.prod(shape[:-1])
            x = rng.standard_normal(shape) / math.sqrt(fan_in)
        else:
            x = rng.standard_normal(shape) * 0.1
            if re.search(r"(scale|norm|ln\d?|ln_f|gn\d?)(\]|$|\.scale)", name) and not name.endswith("bias"):
                x = x + 1.0
        if ".v." in name or name.startswith("opt_state.v") or ".var" in name:
            x = np.abs(x)
        arrays.append(x.astype(dtype))
    return arrays


def hlo_dtype(dtype):
    name = np.dtype(dtype).name
    return bench.HLO_DTYPE.get(name, name)


def dump_text(fn_name):
    """The last dump of `jit_<fn_name>` (XLA numbers the modules it compiles in order)."""
    files = sorted(glob.glob(os.path.join(DUMP_DIR, f"module_*.jit_{fn_name}.before_optimizations.txt")))
    if not files:
        raise RuntimeError(f"no dump of jit_{fn_name} in {DUMP_DIR}")
    return open(files[-1]).read()


def export(name, out_root):
    builder, (rtol, atol), int_ranges = MODELS[name]
    f, args, argnames, desc, config = builder()
    f.__name__ = "rxla_" + name
    named = leaves_with_names(args, argnames)
    arrays = make_inputs(named, int_ranges, seed=len(name))
    treedef = jax.tree_util.tree_structure(args)
    jf = jax.jit(f, keep_unused=True)
    text = jf.lower(*args).as_text(dialect="hlo")
    outs = jax.tree_util.tree_leaves(jf(*jax.tree_util.tree_unflatten(treedef, [jnp.asarray(a) for a in arrays])))
    outs = [np.asarray(o) for o in outs]
    for i, o in enumerate(outs):
        if np.issubdtype(o.dtype, np.floating) and not np.all(np.isfinite(o)):
            raise RuntimeError(f"{name}: output {i} is not finite; fix the inputs")
    # XLA's own dump of the program jitted with shardings on a one-device mesh (Shardy by default).
    mesh = jax.make_mesh((1,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
    def sharding(leaf):  # the leading dimension over the mesh's one axis
        return NamedSharding(mesh, P("data", *[None] * (leaf.ndim - 1)) if leaf.ndim else P())
    shardings = jax.tree_util.tree_map(sharding, args)
    sharded = jax.jit(f, keep_unused=True, in_shardings=shardings)
    sharded.lower(*args).compile()
    dump = dump_text(f.__name__)

    d = os.path.join(out_root, "cases", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.hlo"), "w") as fh:
        fh.write(text)
    with open(os.path.join(d, "dump.hlo"), "w") as fh:
        fh.write(dump)
    np.savez(os.path.join(d, "inputs.npz"), **{f"arg{i}": a for i, a in enumerate(arrays)})
    np.savez(os.path.join(d, "expected.npz"), **{f"out{i}": o for i, o in enumerate(outs)})
    ops = sorted({m.group(1) for m in re.finditer(r"\s([a-z][a-z0-9-]*)\(", text)} - {"parameter"})
    import jaxlib
    meta = {"name": name, "category": "model", "description": desc, "config": config, "rtol": rtol, "atol": atol,
            "instructions": bench.count_instructions(text),
            "inputs": [{"name": f"arg{i}", "path": n, "dtype": hlo_dtype(a.dtype), "shape": list(a.shape)}
                       for i, ((n, _), a) in enumerate(zip(named, arrays))],
            "outputs": [{"name": f"out{i}", "dtype": hlo_dtype(o.dtype), "shape": list(o.shape)}
                        for i, o in enumerate(outs)],
            "input_bytes": sum(a.nbytes for a in arrays),
            "dump_elides_constants": "{...}" in dump,
            "jax": jax.__version__, "jaxlib": jaxlib.__version__,
            "exported_by": "test/models/export.py"}
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")
    return {"name": name, "category": "model", "ops": ops, "rtol": rtol, "atol": atol}, meta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", help=f"models to export (default: all of {', '.join(MODELS)})")
    ap.add_argument("--out", default=HERE, help="corpus folder (default: %(default)s)")
    ap.add_argument("--list", action="store_true", help="list the models and exit")
    args = ap.parse_args()
    if args.list:
        print("\n".join(MODELS))
        return 0
    names = args.models or list(MODELS)
    bad = [n for n in names if n not in MODELS]
    if bad:
        ap.error(f"unknown model(s) {', '.join(bad)}; known: {', '.join(MODELS)}")
    index_path = os.path.join(args.out, "index.json")
    index = {e["name"]: e for e in (json.load(open(index_path)) if os.path.exists(index_path) else [])}
    for n in names:
        entry, meta = export(n, args.out)
        index[n] = entry
        print(f"{n:22s} {meta['instructions']:5d} instructions, inputs {meta['input_bytes'] / 1e6:5.2f} MB, "
              f"dump elides constants: {meta['dump_elides_constants']}", flush=True)
    with open(index_path, "w") as fh:
        json.dump([index[k] for k in MODELS if k in index], fh, indent=1)
        fh.write("\n")
    shutil.rmtree(DUMP_DIR, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
