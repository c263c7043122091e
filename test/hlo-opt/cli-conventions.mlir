// mlir-opt's spellings: single-dash long options (as in MLIR RUN lines),
// the IR printed after or before named passes only, and per-pass timing.
// RUN: hlo-opt %s -passes=dce -mlir-print-op-generic | FileCheck %s --check-prefix=DASH
// RUN: hlo-opt %s --passes=dce,canonicalize --mlir-print-ir-after=canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER
// RUN: hlo-opt %s --passes=dce,canonicalize -mlir-print-ir-before=dce 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: hlo-opt %s --passes=dce,canonicalize,dce --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: hlo-opt %s --passes=dce,canonicalize,dce --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: not hlo-opt %s -no-such-flag 2>&1 | FileCheck %s --check-prefix=BAD

// DASH: "hlo.negate"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>

// AFTER-NOT: IR Dump After dce
// AFTER:     // -----// IR Dump After canonicalize //----- //
// AFTER-NEXT: module {
// AFTER:     hlo.negate
// AFTER-NOT: IR Dump

// BEFORE:     // -----// IR Dump Before dce //----- //
// BEFORE-NOT: IR Dump

// TIMING:      ... Execution time report ...
// TIMING:      Total Execution Time: {{[0-9.]+}} seconds
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  dce
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  canonicalize
// TIMING-NEXT: {{[0-9.]+}} (100.0%)  Total

// Statistics every pass has: runs, runs that changed the module, and the
// operation counts around them (dce removes the unused negate).
// STATS:      ... Pass statistics report ...
// STATS:      dce
// STATS-NEXT:   (S) 2 runs - Number of times the pass ran
// STATS-NEXT:   (S) 1 runs-changed - Runs after which the module was different
// STATS-NEXT:   (S) 9 ops-before - Operations in the module before each run, summed
// STATS-NEXT:   (S) 8 ops-after - Operations in the module after each run, summed
// STATS-NEXT: canonicalize
// STATS-NEXT:   (S) 1 runs

// BAD: error: unexpected argument '-n' found
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> attributes {hlo.entry} {
  %0 = hlo.negate %a : tensor<2xf32>
  %dead = hlo.negate %0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
