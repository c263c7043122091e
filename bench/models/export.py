#!/usr/bin/env python3
"""Export real-model programs from JAX as HLO text, for bench/compile.py and bench/models.py.

    bash bench/setup_venv.sh && bench/.venv/bin/python bench/models/export.py
    bench/.venv/bin/python bench/models/export.py llama_decode vit_b16     # some models
    bench/.venv/bin/python bench/models/export.py --list

For each model, `jax.jit(f, keep_unused=True).lower(*args).as_text(dialect="hlo")` is written to
bench/models/<name>/module.hlo and a description to bench/models/<name>/meta.json. The arguments are
jax.ShapeDtypeStructs (nothing is allocated, nothing is downloaded): the weights, optimizer state and
batch are all entry *parameters*, so the HLO text has no large constants and stays small. The
parameters are in the order of jax.tree_util's flattening of the arguments (dict keys sorted),
listed with their pytree paths in meta.json, with `gen_inputs`: how bench/models.py (bench/cpu.py) draws
each one for a run (the oracle's bench_xla.gen_input specs).

Pure JAX (jax, jax.numpy, jax.lax; NumPy for a trace-time table); f32 throughout; AdamW and SGD-momentum
are written out here. The same builders at test sizes make test/models (test/models/export.py).
"""
import argparse
import json
import math
import os
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
F32, I32 = jnp.float32, jnp.int32


def sds(shape, dtype=F32):
    return jax.ShapeDtypeStruct(tuple(shape), dtype)


# ---------------------------------------------------------------------------------------------
# Common pieces

def layer_norm(x, scale, bias, eps=1e-6):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * scale + bias


def rms_norm(x, w, eps=1e-5):
    return x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * w


def gelu(x):
    return jax.nn.gelu(x, approximate=False)  # erf form, as ViT / Mixer use


def dense(x, p):
    return x @ p["w"] + p["b"]


def softmax_xent(logits, labels):
    """Mean cross-entropy; labels are int32 class indices."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


def global_norm_clip(grads, max_norm=1.0):
    leaves = jax.tree_util.tree_leaves(grads)
    norm = jnp.sqrt(sum(jnp.sum(jnp.square(g)) for g in leaves))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda g: g * scale, grads), norm


def adamw_init(params):
    zeros = lambda p: jax.ShapeDtypeStruct(p.shape, p.dtype)  # noqa: E731 (shapes only)
    return {"m": jax.tree_util.tree_map(zeros, params), "v": jax.tree_util.tree_map(zeros, params),
            "step": sds((), I32)}


def adamw_update(params, grads, opt, peak_lr=3e-4, warmup=2000, total=100000, b1=0.9, b2=0.95, eps=1e-8,
                 wd=0.1):
    """AdamW with a linear-warmup + cosine learning-rate schedule; decay on matrices only."""
    step = opt["step"] + 1
    t = step.astype(F32)
    lr = jnp.where(t < warmup, peak_lr * t / warmup,
                   0.5 * peak_lr * (1 + jnp.cos(math.pi * jnp.minimum(1.0, (t - warmup) / (total - warmup)))))
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, opt["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, opt["v"], grads)
    c1, c2 = 1 - b1 ** t, 1 - b2 ** t

    def upd(p, m, v):
        u = (m / c1) / (jnp.sqrt(v / c2) + eps)
        if p.ndim >= 2:
            u = u + wd * p
        return p - lr * u
    new_params = jax.tree_util.tree_map(upd, params, m, v)
    return new_params, {"m": m, "v": v, "step": step}


# ---------------------------------------------------------------------------------------------
# Llama-style decoder: RMSNorm, RoPE, grouped-query attention, SwiGLU MLP, untied LM head.

LLAMA = dict(layers=8, d=1024, heads=16, kv_heads=4, ffn=2816, vocab=32000, rope_theta=10000.0)


def llama_params(c):
    d, hd = c["d"], c["d"] // c["heads"]
    layer = {"attn_norm": sds((d,)), "wq": sds((d, c["heads"] * hd)), "wk": sds((d, c["kv_heads"] * hd)),
             "wv": sds((d, c["kv_heads"] * hd)), "wo": sds((c["heads"] * hd, d)), "mlp_norm": sds((d,)),
             "w_gate": sds((d, c["ffn"])), "w_up": sds((d, c["ffn"])), "w_down": sds((c["ffn"], d))}
    return {"embed": sds((c["vocab"], d)), "layers": [dict(layer) for _ in range(c["layers"])],
            "final_norm": sds((d,)), "lm_head": sds((d, c["vocab"]))}


def rope(x, pos, theta):
    """x [B, T, H, Dh], pos [T] (int32): rotate the two halves of each head (GPT-NeoX / HF Llama)."""
    dh = x.shape[-1]
    inv = 1.0 / (theta ** (jnp.arange(0, dh, 2, dtype=F32) / dh))
    ang = pos.astype(F32)[:, None] * inv[None, :]  # [T, Dh/2]
    cos, sin = jnp.cos(ang)[None, :, None, :], jnp.sin(ang)[None, :, None, :]
    x1, x2 = x[..., : dh // 2], x[..., dh // 2:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def gqa_attention(q, k, v, mask):
    """q [B, T, H, Dh]; k, v [B, S, KV, Dh]; mask broadcastable to [B, KV, G, T, S] (True = keep)."""
    b, t, h, dh = q.shape
    kv = k.shape[2]
    q = q.reshape(b, t, kv, h // kv, dh)
    s = jnp.einsum("btkgd,bskd->bkgts", q, k) / math.sqrt(dh)
    s = jnp.where(mask, s, jnp.finfo(F32).min)
    p = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bkgts,bskd->btkgd", p, v)
    return o.reshape(b, t, h * dh)


def llama_block(x, lp, c, pos, kv_fn):
    """One decoder layer. kv_fn(k, v) -> (k_all, v_all, mask) picks the keys/values to attend to."""
    b, t, _ = x.shape
    hd = c["d"] // c["heads"]
    h = rms_norm(x, lp["attn_norm"])
    q = (h @ lp["wq"]).reshape(b, t, c["heads"], hd)
    k = (h @ lp["wk"]).reshape(b, t, c["kv_heads"], hd)
    v = (h @ lp["wv"]).reshape(b, t, c["kv_heads"], hd)
    q, k = rope(q, pos, c["rope_theta"]), rope(k, pos, c["rope_theta"])
    k_all, v_all, mask = kv_fn(k, v)
    x = x + gqa_attention(q, k_all, v_all, mask) @ lp["wo"]
    h = rms_norm(x, lp["mlp_norm"])
    x = x + (jax.nn.silu(h @ lp["w_gate"]) * (h @ lp["w_up"])) @ lp["w_down"]
    return x, k, v


def llama_forward(params, tokens, c):
    """Full-sequence causal forward: logits [B, T, V] and each layer's (k, v) [B, T, KV, Dh]."""
    t = tokens.shape[1]
    x = params["embed"][tokens]
    pos = jnp.arange(t, dtype=I32)
    causal = (pos[:, None] >= pos[None, :])[None, None, None]
    kvs = []
    for lp in params["layers"]:
        x, k, v = llama_block(x, lp, c, pos, lambda k, v: (k, v, causal))
        kvs.append((k, v))
    return rms_norm(x, params["final_norm"]) @ params["lm_head"], kvs


def llama_prefill(batch=1, seq=128, max_len=256, config=None):
    c = config or LLAMA

    def f(params, tokens):
        logits, kvs = llama_forward(params, tokens, c)
        pad = ((0, 0), (0, 0), (0, max_len - seq), (0, 0), (0, 0))
        k_cache = jnp.pad(jnp.stack([k for k, _ in kvs]), pad)
        v_cache = jnp.pad(jnp.stack([v for _, v in kvs]), pad)
        return logits, k_cache, v_cache

    args = (llama_params(c), sds((batch, seq), I32))
    desc = (f"Llama-style decoder LM prefill: {c['layers']} layers, d_model {c['d']}, {c['heads']} heads / "
            f"{c['kv_heads']} KV heads (GQA), SwiGLU ffn {c['ffn']}, RMSNorm, RoPE, vocab {c['vocab']}; "
            f"batch {batch}, seq {seq}; returns logits [B,T,V] and the KV cache [L,B,{max_len},KV,Dh] "
            "(zero-padded past the prompt)")
    return f, args, ("params", "tokens"), desc, dict(c, batch=batch, seq=seq, max_len=max_len)


def llama_decode(batch=1, max_len=256, steps=8, config=None):
    c = config or LLAMA
    hd = c["d"] // c["heads"]

    def f(params, k_cache, v_cache, token, pos0):
        def step(i, carry):
            token, kc, vc, out = carry
            pos = pos0 + i
            x = params["embed"][token][:, None, :]  # [B, 1, D]
            posv = pos[None]
            keep = (jnp.arange(max_len, dtype=I32) <= pos)[None, None, None, None, :]
            for li, lp in enumerate(params["layers"]):
                def kv_fn(k, v, li=li):
                    nonlocal kc, vc
                    kc = lax.dynamic_update_slice(kc, k[None], (li, 0, pos, 0, 0))
                    vc = lax.dynamic_update_slice(vc, v[None], (li, 0, pos, 0, 0))
                    return kc[li], vc[li], keep
                x, _, _ = llama_block(x, lp, c, posv, kv_fn)
            logits = rms_norm(x[:, 0], params["final_norm"]) @ params["lm_head"]
            nxt = jnp.argmax(logits, axis=-1).astype(I32)
            out = lax.dynamic_update_slice(out, nxt[:, None], (0, i))
            return nxt, kc, vc, out

        out0 = jnp.zeros((token.shape[0], steps), I32)
        _, kc, vc, out = lax.fori_loop(0, steps, step, (token, k_cache, v_cache, out0))
        return out, kc, vc

    cache = sds((c["layers"], batch, max_len, c["kv_heads"], hd))
    args = (llama_params(c), cache, cache, sds((batch,), I32), sds((), I32))
    desc = (f"Llama-style decoder (as llama_prefill) greedy decoding: {steps} tokens in a lax.fori_loop, one "
            f"token per step against a KV cache of max length {max_len} (lax.dynamic_update_slice at the "
            f"position, masked attention over the cache), argmax; batch {batch}")
    return f, args, ("params", "k_cache", "v_cache", "token", "pos"), desc, dict(c, batch=batch, max_len=max_len,
                                                                                  steps=steps)


def llama_train_step(layers=16, batch=2, seq=128, config=None):
    c = dict(config or LLAMA, layers=layers)

    def f(params, opt, tokens):
        def loss_fn(p):
            logits, _ = llama_forward(p, tokens[:, :-1], c)
            return softmax_xent(logits, tokens[:, 1:])
        loss, grads = jax.value_and_grad(loss_fn)(params)
        grads, gnorm = global_norm_clip(grads, 1.0)
        new_params, new_opt = adamw_update(params, grads, opt)
        return loss, gnorm, new_params, new_opt

    params = llama_params(c)
    args = (params, adamw_init(params), sds((batch, seq + 1), I32))
    desc = (f"Llama-style decoder (as llama_prefill, {layers} layers, unrolled) training step: next-token "
            "cross-entropy, value_and_grad, global-norm clipping to 1.0, AdamW (warmup+cosine lr, weight decay "
            f"on matrices); batch {batch}, seq {seq}; returns loss, grad norm, new params and optimizer state")
    return f, args, ("params", "opt_state", "tokens"), desc, dict(c, batch=batch, seq=seq)


# ---------------------------------------------------------------------------------------------
# ViT-B/16 and MLP-Mixer B/16 (inference)

def patch_embed(img, p, patch):
    """img [B, H, W, 3] NHWC, kernel HWIO: a stride-`patch` convolution -> [B, N, D]."""
    y = lax.conv_general_dilated(img, p["w"], (patch, patch), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = y + p["b"]
    b, h, w, d = y.shape
    return y.reshape(b, h * w, d)


def vit_b16(batch=2, image=224, patch=16, layers=12, d=768, heads=12, mlp=3072, classes=1000):
    n = (image // patch) ** 2 + 1
    hd = d // heads
    ln = lambda: {"scale": sds((d,)), "bias": sds((d,))}  # noqa: E731
    lin = lambda i, o: {"w": sds((i, o)), "b": sds((o,))}  # noqa: E731
    layer = {"ln1": ln(), "q": lin(d, d), "k": lin(d, d), "v": lin(d, d), "out": lin(d, d), "ln2": ln(),
             "fc1": lin(d, mlp), "fc2": lin(mlp, d)}
    params = {"patch": {"w": sds((patch, patch, 3, d)), "b": sds((d,))}, "cls": sds((1, 1, d)),
              "pos": sds((1, n, d)), "layers": [dict(layer) for _ in range(layers)], "ln_f": ln(),
              "head": lin(d, classes)}

    def f(params, img):
        x = patch_embed(img, params["patch"], patch)
        b = x.shape[0]
        x = jnp.concatenate([jnp.broadcast_to(params["cls"], (b, 1, d)), x], axis=1) + params["pos"]
        for lp in params["layers"]:
            h = layer_norm(x, **lp["ln1"])
            q, k, v = (dense(h, lp[w]).reshape(b, n, heads, hd) for w in ("q", "k", "v"))
            s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
            o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v).reshape(b, n, d)
            x = x + dense(o, lp["out"])
            h = layer_norm(x, **lp["ln2"])
            x = x + dense(gelu(dense(h, lp["fc1"])), lp["fc2"])
        x = layer_norm(x, **params["ln_f"])
        return dense(x[:, 0], params["head"])

    args = (params, sds((batch, image, image, 3)))
    desc = (f"ViT-B/16 inference: {image}x{image} NHWC images, batch {batch}, 16x16 patch convolution, class "
            f"token + learned position embedding, {layers} pre-LN layers (d {d}, {heads} heads, MLP {mlp}, exact "
            f"GELU), {classes}-way head")
    return f, args, ("params", "images"), desc, dict(batch=batch, image=image, patch=patch, layers=layers, d=d,
                                                     heads=heads, mlp=mlp, classes=classes)


def mlp_mixer(batch=2, image=224, patch=16, layers=12, d=768, tokens_mlp=384, channels_mlp=3072, classes=1000):
    n = (image // patch) ** 2
    ln = lambda: {"scale": sds((d,)), "bias": sds((d,))}  # noqa: E731
    lin = lambda i, o: {"w": sds((i, o)), "b": sds((o,))}  # noqa: E731
    layer = {"ln1": ln(), "tok1": lin(n, tokens_mlp), "tok2": lin(tokens_mlp, n), "ln2": ln(),
             "ch1": lin(d, channels_mlp), "ch2": lin(channels_mlp, d)}
    params = {"stem": {"w": sds((patch, patch, 3, d)), "b": sds((d,))},
              "layers": [dict(layer) for _ in range(layers)], "ln_f": ln(), "head": lin(d, classes)}

    def f(params, img):
        x = patch_embed(img, params["stem"], patch)  # [B, N, D]
        for lp in params["layers"]:
            y = jnp.swapaxes(layer_norm(x, **lp["ln1"]), 1, 2)  # [B, D, N]
            y = dense(gelu(dense(y, lp["tok1"])), lp["tok2"])
            x = x + jnp.swapaxes(y, 1, 2)
            y = layer_norm(x, **lp["ln2"])
            x = x + dense(gelu(dense(y, lp["ch1"])), lp["ch2"])
        x = layer_norm(x, **params["ln_f"])
        return dense(jnp.mean(x, axis=1), params["head"])

    args = (params, sds((batch, image, image, 3)))
    desc = (f"MLP-Mixer B/16 inference: {image}x{image} NHWC images, batch {batch}, {n} patches, {layers} layers "
            f"(hidden {d}, token MLP {tokens_mlp}, channel MLP {channels_mlp}, exact GELU), mean pool, "
            f"{classes}-way head")
    return f, args, ("params", "images"), desc, dict(batch=batch, image=image, patch=patch, layers=layers, d=d,
                                                     tokens_mlp=tokens_mlp, channels_mlp=channels_mlp,
                                                     classes=classes)


# ---------------------------------------------------------------------------------------------
# ResNet-50 (v1.5: the stride on the 3x3 conv) training step, batch norm with batch statistics

def resnet50_train_step(batch=2, image=224, classes=1000, stages=(3, 4, 6, 3), momentum=0.9, bn_momentum=0.9,
                        base=64):
    def conv_p(kh, kw, cin, cout):
        return sds((kh, kw, cin, cout))

    def bn_p(c):
        return {"scale": sds((c,)), "bias": sds((c,))}, {"mean": sds((c,)), "var": sds((c,))}

    params, stats = {"stem": {"conv": conv_p(7, 7, 3, base)}}, {"stem": {}}
    params["stem"]["bn"], stats["stem"]["bn"] = bn_p(base)
    blocks, cin = [], base
    for si, nb in enumerate(stages):
        width = base * 2 ** si
        for bi in range(nb):
            stride = 2 if (bi == 0 and si > 0) else 1
            name = f"s{si + 1}b{bi + 1}"
            p, s = {}, {}
            p["conv1"], (p["bn1"], s["bn1"]) = conv_p(1, 1, cin, width), bn_p(width)
            p["conv2"], (p["bn2"], s["bn2"]) = conv_p(3, 3, width, width), bn_p(width)
            p["conv3"], (p["bn3"], s["bn3"]) = conv_p(1, 1, width, 4 * width), bn_p(4 * width)
            if bi == 0:
                p["proj"], (p["bn_proj"], s["bn_proj"]) = conv_p(1, 1, cin, 4 * width), bn_p(4 * width)
            params[name], stats[name] = p, s
            blocks.append((name, stride, bi == 0))
            cin = 4 * width
    params["fc"] = {"w": sds((cin, classes)), "b": sds((classes,))}

    def conv(x, w, stride=1):
        k = w.shape[0]
        pad = [((k - 1) // 2, k // 2)] * 2
        return lax.conv_general_dilated(x, w, (stride, stride), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def bn(x, p, s, new_stats, key):
        mean = jnp.mean(x, axis=(0, 1, 2))
        var = jnp.mean(jnp.square(x - mean), axis=(0, 1, 2))
        new_stats[key] = {"mean": bn_momentum * s["mean"] + (1 - bn_momentum) * mean,
                          "var": bn_momentum * s["var"] + (1 - bn_momentum) * var}
        return (x - mean) * lax.rsqrt(var + 1e-5) * p["scale"] + p["bias"]

    def forward(p, st, x):
        ns = {}
        ns["stem"] = {}
        x = jax.nn.relu(bn(conv(x, p["stem"]["conv"], 2), p["stem"]["bn"], st["stem"]["bn"], ns["stem"], "bn"))
        x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), ((0, 0), (1, 1), (1, 1), (0, 0)))
        for name, stride, first in blocks:
            bp, bs = p[name], st[name]
            ns[name] = {}
            y = jax.nn.relu(bn(conv(x, bp["conv1"]), bp["bn1"], bs["bn1"], ns[name], "bn1"))
            y = jax.nn.relu(bn(conv(y, bp["conv2"], stride), bp["bn2"], bs["bn2"], ns[name], "bn2"))
            y = bn(conv(y, bp["conv3"]), bp["bn3"], bs["bn3"], ns[name], "bn3")
            sc = bn(conv(x, bp["proj"], stride), bp["bn_proj"], bs["bn_proj"], ns[name], "bn_proj") if first else x
            x = jax.nn.relu(y + sc)
        x = jnp.mean(x, axis=(1, 2))
        return dense(x, p["fc"]), ns

    def f(params, batch_stats, mom, images, labels):
        def loss_fn(p):
            logits, ns = forward(p, batch_stats, images)
            l2 = sum(jnp.sum(jnp.square(w)) for w in jax.tree_util.tree_leaves(p) if w.ndim >= 2)
            return softmax_xent(logits, labels) + 0.5 * 1e-4 * l2, ns
        (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        lr = 0.1
        new_mom = jax.tree_util.tree_map(lambda m, g: momentum * m + g, mom, grads)
        new_params = jax.tree_util.tree_map(lambda p, m: p - lr * m, params, new_mom)
        return loss, new_params, new_stats, new_mom

    args = (params, stats, params, sds((batch, image, image, 3)), sds((batch,), I32))
    desc = (f"ResNet-50 (v1.5) training step: {image}x{image} NHWC images, batch {batch}, "
            "lax.conv_general_dilated NHWC/HWIO, batch norm with batch statistics (running stats updated), "
            "3x3/2 max pool, softmax cross-entropy + L2 1e-4, value_and_grad, SGD with momentum 0.9; returns "
            "loss, new params, new batch stats, new momentum")
    return f, args, ("params", "batch_stats", "momentum", "images", "labels"), desc, dict(
        batch=batch, image=image, classes=classes, stages=list(stages), base=base)


# ---------------------------------------------------------------------------------------------
# T5-style encoder-decoder training-free step (optional extra): one teacher-forced forward

def t5_encoder_decoder_step(batch=2, src=128, tgt=64, layers=6, d=512, heads=8, ffn=2048, vocab=32128,
                            buckets=32, max_dist=128):
    """T5-small-like: relative-position buckets, RMSNorm, ReLU FFN, tied embeddings, cross-entropy loss and
    grads + AdamW (a second, mid-sized training module)."""
    hd = d // heads

    def attn_p():
        return {"q": sds((d, d)), "k": sds((d, d)), "v": sds((d, d)), "o": sds((d, d))}
    enc_layer = {"ln1": sds((d,)), "attn": attn_p(), "ln2": sds((d,)), "wi": sds((d, ffn)), "wo": sds((ffn, d))}
    dec_layer = {"ln1": sds((d,)), "self": attn_p(), "ln2": sds((d,)), "cross": attn_p(), "ln3": sds((d,)),
                 "wi": sds((d, ffn)), "wo": sds((ffn, d))}
    params = {"embed": sds((vocab, d)), "enc_rel": sds((buckets, heads)), "dec_rel": sds((buckets, heads)),
              "enc": [dict(enc_layer) for _ in range(layers)], "dec": [dict(dec_layer) for _ in range(layers)],
              "enc_ln": sds((d,)), "dec_ln": sds((d,))}

    def rel_bucket(rel, bidirectional):
        nb = buckets
        ret = jnp.zeros_like(rel)
        if bidirectional:
            nb //= 2
            ret = ret + (rel > 0).astype(I32) * nb
            n = jnp.abs(rel)
        else:
            n = jnp.maximum(-rel, 0)
        max_exact = nb // 2
        large = max_exact + (jnp.log(jnp.maximum(n, 1).astype(F32) / max_exact) / math.log(max_dist / max_exact)
                             * (nb - max_exact)).astype(I32)
        large = jnp.minimum(large, nb - 1)
        return ret + jnp.where(n < max_exact, n, large)

    def bias(table, tq, tk, bidirectional):
        rel = jnp.arange(tk, dtype=I32)[None, :] - jnp.arange(tq, dtype=I32)[:, None]
        return jnp.transpose(table[rel_bucket(rel, bidirectional)], (2, 0, 1))[None]  # [1, H, tq, tk]

    def mha(p, xq, xkv, bias_, mask=None):
        b, tq, _ = xq.shape
        tk = xkv.shape[1]
        q = (xq @ p["q"]).reshape(b, tq, heads, hd)
        k = (xkv @ p["k"]).reshape(b, tk, heads, hd)
        v = (xkv @ p["v"]).reshape(b, tk, heads, hd)
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k)
        if bias_ is not None:
            s = s + bias_
        if mask is not None:
            s = jnp.where(mask, s, -1e9)
        o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v).reshape(b, tq, d)
        return o @ p["o"]

    def forward(p, src_tok, tgt_in):
        x = p["embed"][src_tok]
        eb = bias(p["enc_rel"], src, src, True)
        for lp in p["enc"]:
            x = x + mha(lp["attn"], rms_norm(x, lp["ln1"]), rms_norm(x, lp["ln1"]), eb)
            x = x + jax.nn.relu(rms_norm(x, lp["ln2"]) @ lp["wi"]) @ lp["wo"]
        enc = rms_norm(x, p["enc_ln"])
        y = p["embed"][tgt_in]
        db = bias(p["dec_rel"], tgt, tgt, False)
        causal = (jnp.arange(tgt)[:, None] >= jnp.arange(tgt)[None, :])[None, None]
        for lp in p["dec"]:
            h = rms_norm(y, lp["ln1"])
            y = y + mha(lp["self"], h, h, db, causal)
            y = y + mha(lp["cross"], rms_norm(y, lp["ln2"]), enc, None)
            y = y + jax.nn.relu(rms_norm(y, lp["ln3"]) @ lp["wi"]) @ lp["wo"]
        y = rms_norm(y, p["dec_ln"]) * (d ** -0.5)
        return y @ p["embed"].T

    def f(params, opt, src_tok, tgt_tok):
        def loss_fn(p):
            return softmax_xent(forward(p, src_tok, tgt_tok[:, :-1]), tgt_tok[:, 1:])
        loss, grads = jax.value_and_grad(loss_fn)(params)
        grads, gnorm = global_norm_clip(grads, 1.0)
        new_params, new_opt = adamw_update(params, grads, opt)
        return loss, gnorm, new_params, new_opt

    args = (params, adamw_init(params), sds((batch, src), I32), sds((batch, tgt + 1), I32))
    desc = (f"T5-small-like encoder-decoder training step: {layers}+{layers} layers, d {d}, {heads} heads, "
            f"ReLU FFN {ffn}, RMSNorm, relative-position buckets, tied embeddings (vocab {vocab}); batch {batch}, "
            f"source {src}, target {tgt}; cross-entropy, value_and_grad, clipping, AdamW")
    return f, args, ("params", "opt_state", "src_tokens", "tgt_tokens"), desc, dict(
        batch=batch, src=src, tgt=tgt, layers=layers, d=d, heads=heads, ffn=ffn, vocab=vocab)


# ---------------------------------------------------------------------------------------------
# EfficientNet-B0 inference: MBConv blocks with depthwise convolutions

def efficientnet_b0(batch=8, image=224, classes=1000):
    """EfficientNet-B0 (Tan & Le 2019) inference: stem, 16 MBConv blocks (1x1 expand, depthwise 3x3/5x5
    with feature_group_count=channels, squeeze-and-excite, 1x1 project, residual), 1x1 head, mean pool,
    classifier; batch norm folded into scale and bias, SiLU."""
    # (expand ratio, output channels, repeats, stride, kernel) per stage
    stages = ((1, 16, 1, 1, 3), (6, 24, 2, 2, 3), (6, 40, 2, 2, 5), (6, 80, 3, 2, 3), (6, 112, 3, 1, 5),
              (6, 192, 4, 2, 5), (6, 320, 1, 1, 3))
    stem, head = 32, 1280

    def bn(c):
        return {"scale": sds((c,)), "bias": sds((c,))}

    blocks = []
    cin = stem
    for expand, cout, repeats, stride, k in stages:
        for r in range(repeats):
            blocks.append((cin, cout, expand, stride if r == 0 else 1, k))
            cin = cout
    params = {"stem": {"w": sds((3, 3, 3, stem)), "bn": bn(stem)}, "blocks": []}
    for cin, cout, expand, _stride, k in blocks:
        ce = cin * expand
        se = max(1, cin // 4)
        blk = {"dw": sds((k, k, 1, ce)), "bn1": bn(ce), "se1": {"w": sds((ce, se)), "b": sds((se,))},
               "se2": {"w": sds((se, ce)), "b": sds((ce,))}, "project": sds((1, 1, ce, cout)), "bn2": bn(cout)}
        if expand != 1:
            blk.update({"expand": sds((1, 1, cin, ce)), "bn0": bn(ce)})
        params["blocks"].append(blk)
    params["head"] = {"w": sds((1, 1, blocks[-1][1], head)), "bn": bn(head)}
    params["fc"] = {"w": sds((head, classes)), "b": sds((classes,))}

    def conv(x, w, stride=1, groups=1):
        k = w.shape[0]
        pad = [((k - 1) // 2, k // 2)] * 2
        return lax.conv_general_dilated(x, w, (stride, stride), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                        feature_group_count=groups)

    def apply_bn(x, p):
        return x * p["scale"] + p["bias"]

    def f(params, img):
        x = jax.nn.silu(apply_bn(conv(img, params["stem"]["w"], 2), params["stem"]["bn"]))
        for (cin, cout, expand, stride, _k), p in zip(blocks, params["blocks"]):
            y = x
            if expand != 1:
                y = jax.nn.silu(apply_bn(conv(y, p["expand"]), p["bn0"]))
            y = jax.nn.silu(apply_bn(conv(y, p["dw"], stride, groups=y.shape[-1]), p["bn1"]))
            s = jnp.mean(y, axis=(1, 2))
            s = jax.nn.sigmoid(dense(jax.nn.silu(dense(s, p["se1"])), p["se2"]))
            y = apply_bn(conv(y * s[:, None, None, :], p["project"]), p["bn2"])
            x = x + y if (stride == 1 and cin == cout) else y
        x = jax.nn.silu(apply_bn(conv(x, params["head"]["w"]), params["head"]["bn"]))
        return dense(jnp.mean(x, axis=(1, 2)), params["fc"])

    desc = (f"EfficientNet-B0 inference: {len(blocks)} MBConv blocks (depthwise 3x3/5x5 convolutions, "
            f"squeeze-and-excite), folded batch norm, SiLU; {image}x{image} NHWC, batch {batch}, {classes} classes")
    return f, (params, sds((batch, image, image, 3))), ("params", "images"), desc, dict(
        batch=batch, image=image, classes=classes, blocks=[list(b) for b in blocks])


# ---------------------------------------------------------------------------------------------
# Mixture of experts, a diffusion UNet stage, an LSTM over lax.scan, AlphaFold-style triangle updates

def moe_layer(batch=2, seq=128, d=768, experts=8, top_k=2, ffn=2048):
    """Top-k routed mixture of experts with gather/scatter dispatch (Mixtral/DeepSeek style)."""
    params = {"router": sds((d, experts)), "w_gate": sds((experts, d, ffn)), "w_up": sds((experts, d, ffn)),
              "w_down": sds((experts, ffn, d)), "norm": sds((d,))}

    def f(params, x):
        b, t, _ = x.shape
        h = rms_norm(x, params["norm"]).reshape(b * t, d)
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


def unet_block(batch=2, image=32, ch=256, groups=32, heads=8, temb=256):
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
        h = h + dense(jax.nn.silu(t), p["t"])[:, None, None, :]
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
        te = dense(jnp.concatenate([jnp.sin(e), jnp.cos(e)], axis=-1), params["t1"])
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


def lstm_scan(batch=16, steps=128, inputs=256, hidden=512, classes=10):
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
        return dense(h, params["fc"]), hs2

    desc = (f"Two-layer LSTM (forget-gate bias 1) over {steps} steps with lax.scan (a while loop with a "
            f"dynamic-slice per step), batch {batch}, input {inputs}, hidden {hidden}; a {classes}-way classifier "
            "on the last state, and every state of the second layer")
    return f, (params, sds((steps, batch, inputs))), ("params", "sequence"), desc, dict(
        batch=batch, steps=steps, inputs=inputs, hidden=hidden, classes=classes)


def triangle_attention(batch=1, n=128, c=128, heads=4, hidden=128):
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
        x = layer_norm(z, **p["ln"])
        m = mask[..., None]
        a = m * jax.nn.sigmoid(x @ p["ga"]) * (x @ p["a"])
        b = m * jax.nn.sigmoid(x @ p["gb"]) * (x @ p["b"])
        t = jnp.einsum("bikc,bjkc->bijc", a, b)  # outgoing edges
        z = z + jax.nn.sigmoid(x @ p["g"]) * (layer_norm(t, **p["ln_out"]) @ p["out"])
        p = params["att"]
        x = layer_norm(z, **p["ln"])
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


MODELS = {
    "llama_prefill": llama_prefill,
    "llama_decode": llama_decode,
    "llama_train_step": llama_train_step,
    "vit_b16": vit_b16,
    "resnet50_train_step": resnet50_train_step,
    "mlp_mixer": mlp_mixer,
    "t5_encoder_decoder_step": t5_encoder_decoder_step,
    "efficientnet_b0": efficientnet_b0,
    "moe_layer": moe_layer,
    "unet_block": unet_block,
    "lstm_scan": lstm_scan,
    "triangle_attention": triangle_attention,
}


# ---------------------------------------------------------------------------------------------

INSTR_RE = re.compile(r"^\s+(?:ROOT\s+)?[^\s=]+ = ")
HLO_DTYPE = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int8": "s8", "int16": "s16",
             "int32": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
             "bool": "pred", "complex64": "c64", "complex128": "c128", "float8_e4m3fn": "f8e4m3fn",
             "float8_e5m2": "f8e5m2"}


def count_instructions(text):
    """Lines of the HLO text that define an instruction (`  [ROOT] name = ...` inside a computation)."""
    return sum(1 for ln in text.splitlines() if INSTR_RE.match(ln))


def count_computations(text):
    return sum(1 for ln in text.splitlines() if ln.rstrip().endswith("{") and not ln.startswith((" ", "HloModule")))


def entry_parameters(text):
    entry = text[text.index("\nENTRY "):]
    entry = entry[:entry.index("\n}")]
    return sum(1 for ln in entry.splitlines() if " parameter(" in ln)


def path_str(argname, path):
    return argname + "".join(f"[{k.idx}]" if hasattr(k, "idx") else f".{k.key}" if hasattr(k, "key")
                             else str(k) for k in path)


def input_spec(i, p, config):
    """How bench/cpu.py generates parameter i (bench_xla.gen_input's spec): weights ~ N(0, 1/fan-in),
    norm scales ~ N(1, 0.1), biases ~ N(0, 0.02), AdamW/momentum state small (second moments >= 0),
    batch-norm variances in [0.5, 1.5), images ~ N(0, 1), integer ids within their ranges."""
    name, shape, dtype = p["name"], p["shape"], p["dtype"]
    spec = {"name": f"arg{i}", "shape": shape, "dtype": dtype, "seed": i + 1}
    if dtype[0] in "su":  # s32 token ids, positions, labels, step counters
        if "step" in name:
            low, high = 1, 1000
        elif "pos" in name:
            low, high = 0, config["max_len"] - config.get("steps", 1)
        elif "label" in name:
            low, high = 0, config["classes"]
        else:
            low, high = 0, config["vocab"]
        return dict(spec, dist="randint", low=low, high=high)
    if re.search(r"opt_state\.v[.\[]", name):
        return dict(spec, dist="uniform", low=0.0, high=1e-4)
    if re.search(r"opt_state\.m[.\[]|^momentum", name):
        return dict(spec, dist="normal", std=1e-3)
    if name.endswith(".var"):
        return dict(spec, dist="uniform", low=0.5, high=1.5)
    if name == "mask":  # triangle attention's pair mask: 0 or 1
        return dict(spec, dist="randint", low=0, high=2)
    if name == "timesteps":  # diffusion steps
        return dict(spec, dist="uniform", low=0.0, high=1000.0)
    if not name.startswith(("params", "batch_stats")):
        return dict(spec, dist="normal")  # images, latents, sequences
    if len(shape) >= 2:
        return dict(spec, dist="normal", std=1.0 / math.sqrt(math.prod(shape[:-1])))
    if re.search(r"(scale|norm|ln\d?)$", name):
        return dict(spec, dist="normal", mean=1.0, std=0.1)
    return dict(spec, dist="normal", std=0.02)


def export(name, out_root, check=True):
    f, args, argnames, desc, config = MODELS[name]()
    lowered = jax.jit(f, keep_unused=True).lower(*args)
    text = lowered.as_text(dialect="hlo")
    params = []
    for a, an in zip(args, argnames):
        for path, leaf in jax.tree_util.tree_flatten_with_path(a)[0]:
            dt = jnp.dtype(leaf.dtype).name
            params.append({"name": path_str(an, path), "shape": list(leaf.shape), "dtype": HLO_DTYPE.get(dt, dt)})
    outs = [{"shape": list(o.shape), "dtype": HLO_DTYPE.get(jnp.dtype(o.dtype).name, str(o.dtype))}
            for o in jax.tree_util.tree_leaves(lowered.out_info)]
    import jaxlib
    meta = {
        "name": name, "category": "model", "description": desc, "config": config,
        "instructions": count_instructions(text), "computations": count_computations(text),
        "hlo_bytes": len(text.encode()),
        "parameters": params, "num_parameters": len(params),
        "parameter_elements": sum(math.prod(p["shape"]) for p in params),
        "outputs": outs, "num_outputs": len(outs),
        "gen_inputs": [input_spec(i, p, config) for i, p in enumerate(params)],
        "jax": jax.__version__, "jaxlib": jaxlib.__version__,
        "exported_by": "bench/models/export.py: jax.jit(f, keep_unused=True).lower(*ShapeDtypeStructs)"
                       ".as_text(dialect='hlo')",
    }
    if check:  # XLA's HLO parser must take it back, with one entry parameter per flattened argument
        import jaxlib._hlo as hlo
        hlo.hlo_module_from_text(text)
        n_params = entry_parameters(text)
        if n_params != len(params):
            raise RuntimeError(f"{name}: HLO entry has {n_params} parameters, expected {len(params)}")
    big = [ln for ln in text.splitlines() if " constant(" in ln and len(ln) > 2000]
    if big:
        raise RuntimeError(f"{name}: {len(big)} large constant(s) in the HLO text (weights captured?)")
    d = os.path.join(out_root, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.hlo"), "w") as fh:
        fh.write(text)
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")
    return meta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", help=f"models to export (default: all of {', '.join(MODELS)})")
    ap.add_argument("--out", default=HERE, help="where <name>/module.hlo + meta.json go (default: %(default)s)")
    ap.add_argument("--no-check", action="store_true", help="skip re-parsing the text with XLA's HLO parser")
    ap.add_argument("--list", action="store_true", help="list the models and exit")
    args = ap.parse_args()
    if args.list:
        for n, fn in MODELS.items():
            print(n)
        return 0
    names = args.models or list(MODELS)
    bad = [n for n in names if n not in MODELS]
    if bad:
        ap.error(f"unknown model(s) {', '.join(bad)}; known: {', '.join(MODELS)}")
    print(f"jax {jax.__version__}, writing to {args.out}")
    for n in names:
        meta = export(n, args.out, check=not args.no_check)
        print(f"{n:26s} {meta['instructions']:6d} instructions, {meta['computations']:4d} computations, "
              f"{meta['num_parameters']:4d} parameters ({meta['parameter_elements'] / 1e6:.1f} M elements), "
              f"{meta['hlo_bytes'] / 1e6:6.2f} MB", flush=True)
        if meta["hlo_bytes"] > 8e6:
            print(f"warning: {n}/module.hlo is over 8 MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
