#!/usr/bin/env python3
"""rxla against XLA:CPU (through JAX) on the real models, side by side in one run.

    bash bench/setup_venv.sh && bench/.venv/bin/python bench/models/export.py   # (re)export the models
    cargo build --release --bin hlo-run
    bench/.venv/bin/python bench/models.py                       # every model in bench/models
    bench/.venv/bin/python bench/models.py --filter 'vit|mixer' --json /tmp/models.json

The models are bench/models/<name>/module.hlo (bench/models/export.py: Llama-style prefill, decode loop
and AdamW training step, ViT-B/16, MLP-Mixer B/16, a ResNet-50 training step, a T5 training step,
EfficientNet-B0, a mixture-of-experts layer, a diffusion UNet stage, a two-layer LSTM over lax.scan and
AlphaFold-style triangle updates, at realistic sizes with generated weights). For each, in one process: inputs drawn from the model's
meta.json `gen_inputs` (weights ~ N(0, 1/fan-in), norm scales ~ N(1, 0.1), optimizer state small, ids in
range), XLA:CPU compiled and timed in-process, rxla timed by `hlo-run --inputs ... --timings-json`, and
rxla's outputs checked against XLA's. Printed per model: run time, compile time and their ratios
(rxla/XLA), the check; then the geometric means. This is bench/cpu.py over bench/models with fewer
runs (3 timed, 1 warm-up: a model runs for seconds); every bench/cpu.py option applies.

The small versions of the same programs (and more kinds) with XLA's outputs are the test corpus,
test/models, which `cargo test` runs on the CPU and the emulated GPU.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cpu  # noqa: E402

if __name__ == "__main__":
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__)
    # Defaults first: options given on the command line come later and win.
    sys.argv[1:1] = ["--bench", os.path.join(HERE, "models"), "--runs", "3", "--warmup", "1"]
    sys.exit(cpu.main())
