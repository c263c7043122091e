// --compilation-cache-dir caches `hlo`-dialect input too: the second
// compile of the same text loads the entry.
// REQUIRES: linux
// RUN: rm -rf %t.cache
// RUN: hlo-run %s --platform=cpu --compilation-cache-dir=%t.cache --compile-only | FileCheck %s --check-prefix=MISS
// RUN: hlo-run %s --platform=cpu --compilation-cache-dir=%t.cache --compile-only | FileCheck %s --check-prefix=HIT
// RUN: hlo-run %s --platform=cpu --compilation-cache-dir=%t.cache --random-inputs --reference-platform=interpreter | FileCheck %s

// MISS: compilation cache: 0 hits, 1 misses, 0 replaced, 0 bypassed, 0 not written
// HIT: hlo_pipeline 0.000 ms
// HIT: compilation cache: 1 hits, 0 misses, 0 replaced, 0 bypassed, 0 not written
// CHECK: cpu agrees with interpreter

module @m {
  func.func @e(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {hlo.entry} {
    %0 = hlo.add %arg0, %arg1 : tensor<2x3xf32>
    %1 = hlo.tanh %0 : tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
