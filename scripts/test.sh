#!/usr/bin/env bash
# Runs every test of rxla (after scripts/setup.sh):
#   1. cargo test --workspace: unit and integration tests, the oracle and
#      real-model corpora, the lit/FileCheck suite;
#   2. the downstream uses, each from outside the workspace, as a user
#      would build them: the Rust example (examples/downstream-opt: its own
#      opt tool and lit tests), the C++ package (cmake --install, then
#      examples/cxx-consumer with find_package and ctest), and the Python
#      package (pip install into a fresh virtualenv, then pytest).
# Every part runs even when an earlier one fails; the exit status is
# non-zero if any failed, and a summary names them.
#
#   bash scripts/test.sh                 # everything
#   RXLA_TEST_PARTS="rust cxx" bash scripts/test.sh   # some parts
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
parts=${RXLA_TEST_PARTS:-"workspace rust cxx python"}
# One target directory for all of it: the example reuses the workspace's
# compiled crates, and the Python build its release ones.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}

failed=()
summary=()
part() {
  local name=$1
  shift
  local start=$(date +%s)
  echo "==> scripts/test.sh: $name"
  if "$@"; then
    summary+=("$(printf '%-10s ok     %4ds' "$name" $(($(date +%s) - start)))")
  else
    summary+=("$(printf '%-10s FAILED %4ds' "$name" $(($(date +%s) - start)))")
    failed+=("$name")
  fi
}

for p in $parts; do
  case $p in
    workspace) part workspace cargo test --workspace ;;
    rust) part rust cargo test --manifest-path examples/downstream-opt/Cargo.toml ;;
    cxx) part cxx bash examples/cxx-consumer/test.sh ;;
    python) part python bash python/test.sh ;;
    *)
      echo "scripts/test.sh: unknown part '$p' (workspace, rust, cxx, python)" >&2
      failed+=("$p")
      ;;
  esac
done

echo "scripts/test.sh: summary"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]} > 0)); then
  echo "scripts/test.sh: failed: ${failed[*]}" >&2
  exit 1
fi
