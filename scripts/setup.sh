#!/usr/bin/env bash
# Installs what rxla needs to build and test on Debian 12 (run as root).
#
# Idempotent: installs only missing packages (running `apt-get update` only
# when something has to be installed), so on a ready machine it prints nothing
# and takes well under a second. Safe to run again at any time:
#
#   bash scripts/setup.sh
#
# Needs: LLVM/MLIR 22 (headers, CMake config, tblgen, FileCheck, lit), CMake,
# Ninja and the compression libraries LLVM links against; Open MPI for
# multi-process runs; and, for the GPU
# backend, the CUDA compiler wheel from PyPI (libdevice for the math
# functions, ptxas for the PTX checks), unpacked into .cuda/ of the checkout
# (no CUDA driver or GPU is needed). The Rust toolchain (cargo) is expected to
# be preinstalled.
set -euo pipefail

PACKAGES=(
  llvm-22-dev
  libmlir-22-dev
  mlir-22-tools
  llvm-22-tools
  libclang-22-dev
  libpolly-22-dev
  cmake
  ninja-build
  zlib1g-dev
  libzstd-dev
  # Multi-process runs (`mpirun -n N hlo-run ...`): Open MPI to build
  # against (the `mpi` crate) and to launch with.
  libopenmpi-dev
  openmpi-bin
)

LLVM_PREFIX=/usr/lib/llvm-22

die() {
  echo "setup.sh: error: $*" >&2
  exit 1
}

is_installed() {
  # `dpkg-query` fails for unknown packages; its output is e.g.
  # "install ok installed" for installed ones.
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

missing=()
for pkg in "${PACKAGES[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if ((${#missing[@]} > 0)); then
  command -v apt-get >/dev/null 2>&1 ||
    die "apt-get not found; install these packages by hand: ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    die "must run as root to install: ${missing[*]}"
  fi
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}" ||
    die "apt-get install failed for: ${missing[*]} (are the Debian 12 repositories that carry LLVM 22 configured in /etc/apt/sources.list.d/?)"
fi

# The Rust toolchain is preinstalled on the project's machines; do not try to
# install one here.
if ! command -v cargo >/dev/null 2>&1; then
  [[ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]] &&
    die "cargo is at ${CARGO_HOME:-$HOME/.cargo}/bin/cargo but not on PATH; add that directory to PATH"
  die "cargo not found: install a Rust toolchain (rustup, stable) and put cargo on PATH"
fi

for f in \
  "$LLVM_PREFIX/bin/FileCheck" \
  "$LLVM_PREFIX/bin/lit" \
  "$LLVM_PREFIX/bin/mlir-tblgen" \
  "$LLVM_PREFIX/lib/cmake/mlir/MLIRConfig.cmake" \
  "$LLVM_PREFIX/lib/cmake/llvm/LLVMConfig.cmake"; do
  [[ -e "$f" ]] || die "$f is missing after installing ${PACKAGES[*]}"
done

# The CUDA compiler wheel: downloaded with pip and unpacked (a wheel is a zip
# file), so no Python environment is modified.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVCC_WHEEL="nvidia-cuda-nvcc-cu12==12.9.86"
NVCC_DIR="$ROOT/.cuda/nvidia/cuda_nvcc"
if [[ ! -x "$NVCC_DIR/bin/ptxas" || ! -f "$NVCC_DIR/nvvm/libdevice/libdevice.10.bc" ]]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1 ||
      die "python3 -m pip is needed to fetch $NVCC_WHEEL (install python3-pip)"
    echo "setup.sh: installing python3-pip"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q python3-pip || die "apt-get install python3-pip failed"
  fi
  echo "setup.sh: fetching $NVCC_WHEEL into .cuda/"
  download="$(mktemp -d)"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --dest "$download" "$NVCC_WHEEL" || die "could not download $NVCC_WHEEL from PyPI"
  rm -rf "$ROOT/.cuda"
  mkdir -p "$ROOT/.cuda"
  python3 -m zipfile -e "$download"/nvidia_cuda_nvcc_cu12-*.whl "$ROOT/.cuda" || die "could not unpack $NVCC_WHEEL"
  rm -rf "$download"
  chmod +x "$NVCC_DIR"/bin/*
  [[ -x "$NVCC_DIR/bin/ptxas" && -f "$NVCC_DIR/nvvm/libdevice/libdevice.10.bc" ]] ||
    die "$NVCC_WHEEL has no bin/ptxas or nvvm/libdevice/libdevice.10.bc"
  missing+=("$NVCC_WHEEL")
fi

if ((${#missing[@]} > 0)); then
  echo "setup.sh: done"
fi
