#!/usr/bin/env bash
# Create bench/.venv with the packages bench/cpu.py needs to time XLA:CPU through JAX.
# Idempotent: when the venv already has the pinned versions it returns at once.
#
#   bash bench/setup_venv.sh            # create / check
#   PYTHON=python3.11 bash bench/setup_venv.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
py="${PYTHON:-python3}"
JAX_VERSION=0.10.2
reqs=("jax==$JAX_VERSION" "jaxlib==$JAX_VERSION" numpy ml_dtypes)

check() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$JAX_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
want = sys.argv[1]
ok = version("jax") == want and version("jaxlib") == want and version("numpy") and version("ml_dtypes")
sys.exit(0 if ok else 1)
PY
}

if check; then
  echo "bench/.venv is ready (jax==$JAX_VERSION)"
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  if ! "$py" -m venv "$venv"; then
    echo "setup_venv.sh: '$py -m venv' failed (on Debian: apt-get install python3-venv)" >&2
    exit 1
  fi
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${reqs[@]}"
check || { echo "setup_venv.sh: bench/.venv still lacks jax==$JAX_VERSION, jaxlib==$JAX_VERSION, numpy or ml_dtypes after pip install" >&2; exit 1; }
echo "bench/.venv is ready (jax==$JAX_VERSION)"
