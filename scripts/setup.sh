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
# Ninja and the compression libraries LLVM links against. The Rust toolchain
# (cargo) is expected to be preinstalled.
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

if ((${#missing[@]} > 0)); then
  echo "setup.sh: done"
fi
