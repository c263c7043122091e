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

The models are the bench's (bench/models/export.py: Llama prefill, decode and training step, ViT,
MLP-Mixer, ResNet, T5, a mixture-of-experts layer, a diffusion UNet block, an LSTM over lax.scan and
AlphaFold-style triangle attention and multiplication) at test sizes, plus an EfficientNet block stack
with a grouped convolution. Weights are generated, never downloaded; every file stays under ~2 MB.
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
conv = bench.conv


# ---------------------------------------------------------------------------------------------
# A model the bench does not have. It returns (f, args, argnames, description, config) like the bench's.


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


def bf16_compute(builder):
    """MaxText's default precision: parameters stored in f32 and cast to bf16 inside the step, activations
    in bf16, outputs returned in f32. XLA:CPU keeps a bf16 result unrounded where the program converts it
    to f32 (xla_allow_excess_precision), which rxla's `excess-precision` pass reproduces."""
    def build():
        f, args, argnames, desc, config = builder()
        to_bf16 = lambda t: jax.tree_util.tree_map(  # noqa: E731
            lambda p: p.astype(jnp.bfloat16) if p.dtype == F32 else p, t)
        to_f32 = lambda t: jax.tree_util.tree_map(  # noqa: E731
            lambda o: o.astype(F32) if o.dtype == jnp.bfloat16 else o, t)

        def g(params, *rest):
            return to_f32(f(to_bf16(params), *rest))
        return g, args, argnames, desc + "; parameters cast to bf16 inside the step", dict(config, compute="bf16")
    return build


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
    "llama_prefill_bf16": (bf16_compute(lambda: bench.llama_prefill(batch=1, seq=16, max_len=32,
                                                                     config=SMALL_LLAMA)),
                           (5e-3, 5e-3), {"tokens": 512}),
    "vit": (lambda: bench.vit_b16(batch=2, image=32, patch=8, layers=2, d=64, heads=4, mlp=128, classes=10),
            (1e-4, 1e-5), {}),
    "mlp_mixer": (lambda: bench.mlp_mixer(batch=2, image=32, patch=8, layers=2, d=64, tokens_mlp=32,
                                          channels_mlp=128, classes=10), (1e-4, 1e-5), {}),
    "resnet_train_step": (lambda: bench.resnet50_train_step(batch=2, image=64, classes=10, stages=(1, 1, 1, 1),
                                                            base=8), (1e-3, 1e-4), {"labels": 10}),
    "t5_train_step": (lambda: bench.t5_encoder_decoder_step(batch=2, src=16, tgt=8, layers=2, d=32, heads=4,
                                                            ffn=64, vocab=256, buckets=8, max_dist=16),
                      (1e-3, 1e-4), {"src_tokens": 256, "tgt_tokens": 256, "opt_state.step": 100}),
    "moe_layer": (lambda: bench.moe_layer(batch=2, seq=16, d=64, experts=8, top_k=2, ffn=128), (1e-4, 1e-5), {}),
    "efficientnet_blocks": (efficientnet_blocks, (1e-4, 1e-5), {}),
    "unet_block": (lambda: bench.unet_block(batch=2, image=16, ch=32, groups=8, heads=4, temb=64),
                   (1e-4, 1e-5), {}),
    "lstm_scan": (lambda: bench.lstm_scan(batch=4, steps=16, inputs=32, hidden=64, classes=10), (1e-4, 1e-5), {}),
    "triangle_attention": (lambda: bench.triangle_attention(batch=1, n=16, c=32, heads=4, hidden=32),
                           (1e-4, 1e-5), {}),
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
