#!/usr/bin/env bash
# The Python package's tests, as CI runs them: a fresh virtualenv, `pip install`
# of the repository (maturin builds the extension with cargo), then pytest on
# python/tests.
#
#   python/test.sh [PYTEST ARGS...]
#
# Environment:
#   PYTHON            the interpreter the venv is made from (default: python3)
#   RXLA_PYTHON_VENV  where the venv goes (default: <repo>/target/python-venv; recreated)
#   CARGO_TARGET_DIR  cargo's target directory for the build (default: <repo>/target,
#                     so the build reuses the workspace's release artifacts)
set -euo pipefail

start=$(date +%s)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="${RXLA_PYTHON_VENV:-$root/target/python-venv}"
python="${PYTHON:-python3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

step() { echo "== python/test.sh: $* ($(($(date +%s) - start))s)"; }

step "fresh virtualenv $venv ($("$python" --version 2>&1))"
rm -rf "$venv"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --upgrade pip

step "pip install pytest numpy ml_dtypes jax==0.10.2 jaxlib==0.10.2"
"${pip[@]}" install --quiet pytest numpy ml_dtypes "jax==0.10.2" "jaxlib==0.10.2"

step "pip install $root (maturin, cargo target $CARGO_TARGET_DIR)"
log="$venv/pip-install.log"
if ! "${pip[@]}" install --verbose "$root" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "python/test.sh: pip install $root failed (log: $log)" >&2
    exit 1
fi
grep -E "Finished .release|Built wheel|Successfully installed" "$log" || true
"$venv/bin/python" -c "import rxla, sys; print('rxla from', rxla.__file__)" \
    || { echo "python/test.sh: the package did not install" >&2; exit 1; }

step "pytest python/tests"
# From a directory outside the source tree, so `import rxla` is the installed package.
status=0
(cd "$venv" && "$venv/bin/python" -m pytest "$here/tests" -q -p no:cacheprovider "$@") || status=$?

step "done, exit status $status"
exit $status
