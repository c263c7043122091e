#!/usr/bin/env bash
# Builds and installs rxla's C++ package, then builds this example against the
# installed package with find_package(Rxla) and runs its ctest suite.
#
#   bash examples/cxx-consumer/test.sh [BUILD_ROOT]
#
# BUILD_ROOT (default: target/cxx-consumer under the repository root) gets
#   rxla/      the build tree of the package (cmake -S cmake)
#   prefix/    its install prefix
#   consumer/  the build tree of this example
# Re-running reuses them, so it is fast when nothing changed. MLIR is found
# as usual (MLIR_DIR in the environment, else /usr/lib/llvm-22); set
# CMAKE_BUILD_PARALLEL_LEVEL to limit the build jobs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
root="${1:-$repo/target/cxx-consumer}"
mkdir -p "$root"
root="$(cd "$root" && pwd)"

mlir_args=()
if [[ -n "${MLIR_DIR:-}" ]]; then
  mlir_args=("-DMLIR_DIR=$MLIR_DIR")
fi

start=$(date +%s)
cd "$repo"

echo "== rxla package: configure, build, install into $root/prefix"
cmake -S cmake -B "$root/rxla" -G Ninja ${mlir_args[@]+"${mlir_args[@]}"} >"$root/rxla-configure.log" ||
  { cat "$root/rxla-configure.log"; exit 1; }
cmake --build "$root/rxla"
cmake --install "$root/rxla" --prefix "$root/prefix" >"$root/rxla-install.log" ||
  { cat "$root/rxla-install.log"; exit 1; }

echo "== examples/cxx-consumer: configure with find_package(Rxla), build, test"
cmake -S "$here" -B "$root/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$root/prefix" ${mlir_args[@]+"${mlir_args[@]}"} >"$root/consumer-configure.log" ||
  { cat "$root/consumer-configure.log"; exit 1; }
cmake --build "$root/consumer"
ctest --test-dir "$root/consumer" --output-on-failure

echo "== examples/cxx-consumer/test.sh: passed in $(($(date +%s) - start))s"
