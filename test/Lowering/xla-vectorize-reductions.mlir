// RUN: hlo-opt %s --split-input-file --passes='xla-vectorize-loads-stores{vector-bits=256}' | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='xla-vectorize-loads-stores{target=gpu}' | FileCheck %s --check-prefix=GPU

// A CPU row reduction's row loop: 1024 contiguous elements summed with a
// reassociable add. It steps 32 elements (four 256-bit registers of f32)
// at a time with a vector<32xf32> accumulator starting at -0.0 (the
// identity of addf), then reduces it horizontally and adds the loop's
// initial value. The body's elementwise ops (the fused square) run on
// vectors. The GPU reduces with threads: its loops stay.
// CHECK-LABEL: func.func @row_sum
// CHECK:         %[[ID:.*]] = arith.constant dense<-0.000000e+00> : vector<32xf32>
// CHECK:         %[[V:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ID]]) -> (vector<32xf32>)
// CHECK:           %[[IDX:.*]] = xla.apply_indexing #{{.*}}(%arg2, %[[I]])
// CHECK:           %[[X:.*]] = vector.transfer_read %arg0[%[[IDX]]], %{{.*}} {in_bounds = [true]} : tensor<8192xf32>, vector<32xf32>
// CHECK:           %[[E:.*]] = arith.mulf %[[X]], %[[X]] : vector<32xf32>
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[E]] fastmath<reassoc> : vector<32xf32>
// CHECK:           scf.yield %[[S]]
// CHECK:         %[[R:.*]] = vector.reduction <add>, %[[V]] fastmath<reassoc> : vector<32xf32> into f32
// CHECK:         %[[F:.*]] = arith.addf %arg1, %[[R]] fastmath<reassoc> : f32
// CHECK-NOT:     scf.for
// CHECK:         return %[[F]]
// GPU-LABEL: func.func @row_sum
// GPU-NOT:     vector.
#row = #xla.indexing_map<"(r, k) -> (r * 1024 + k), domain: r in [0, 7], k in [0, 1023]">
func.func @row_sum(%in: tensor<8192xf32>, %init: f32, %r: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %s = scf.for %k = %c0 to %c1024 step %c1 iter_args(%acc = %init) -> (f32) {
    %i = xla.apply_indexing #row(%r, %k)
    %x = tensor.extract %in[%i] : tensor<8192xf32>
    %e = arith.mulf %x, %x : f32
    %n = arith.addf %acc, %e fastmath<reassoc> : f32
    scf.yield %n : f32
  }
  return %s : f32
}

// -----

// A body with a function xla-expand-math expands into a polynomial (a
// softmax's exp) steps two registers (16 f32) at a time: the polynomial's
// latency already separates the additions, and four copies of it would
// only give LLVM twice the code.
// CHECK-LABEL: func.func @expanded_function
// CHECK:         scf.for {{.*}} -> (vector<16xf32>)
// CHECK:           %[[X:.*]] = vector.transfer_read {{.*}} : tensor<8192xf32>, vector<16xf32>
// CHECK:           math.exp %[[X]] : vector<16xf32>
// CHECK:         vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<16xf32> into f32
#rows = #xla.indexing_map<"(r, k) -> (r * 1024 + k), domain: r in [0, 7], k in [0, 1023]">
func.func @expanded_function(%in: tensor<8192xf32>, %init: f32, %r: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %s = scf.for %k = %c0 to %c1024 step %c1 iter_args(%acc = %init) -> (f32) {
    %i = xla.apply_indexing #rows(%r, %k)
    %x = tensor.extract %in[%i] : tensor<8192xf32>
    %e = math.exp %x : f32
    %n = arith.addf %acc, %e fastmath<reassoc> : f32
    scf.yield %n : f32
  }
  return %s : f32
}

// -----

// A trip count that is not a multiple of the step: the vector loop covers
// the first 32 elements, the original loop the last 8, starting from the
// vector loop's result. Max starts at -inf; two accumulators reduce
// together.
// CHECK-LABEL: func.func @remainder
// CHECK-DAG:     arith.constant dense<0xFF800000> : vector<32xf32>
// CHECK-DAG:     arith.constant dense<0> : vector<32xi32>
// CHECK:         %[[V:.*]]:2 = scf.for %{{.*}} -> (vector<32xf32>, vector<32xi32>)
// CHECK:           arith.maximumf %{{.*}}, %{{.*}} fastmath<reassoc> : vector<32xf32>
// CHECK:           arith.addi %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK:         %[[M:.*]] = vector.reduction <maximumf>, %[[V]]#0 fastmath<reassoc> : vector<32xf32> into f32
// CHECK:         %[[FM:.*]] = arith.maximumf %arg2, %[[M]] fastmath<reassoc> : f32
// CHECK:         %[[N:.*]] = vector.reduction <add>, %[[V]]#1 : vector<32xi32> into i32
// CHECK:         %[[FN:.*]] = arith.addi %arg3, %[[N]] : i32
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK:         scf.for %{{.*}} = %[[C32]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FM]], %{{.*}} = %[[FN]]) -> (f32, i32)
// CHECK:           tensor.extract
func.func @remainder(%in: tensor<40xf32>, %ints: tensor<40xi32>, %m0: f32, %n0: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %r:2 = scf.for %k = %c0 to %c40 step %c1 iter_args(%m = %m0, %n = %n0) -> (f32, i32) {
    %x = tensor.extract %in[%k] : tensor<40xf32>
    %y = tensor.extract %ints[%k] : tensor<40xi32>
    %m1 = arith.maximumf %m, %x fastmath<reassoc> : f32
    %n1 = arith.addi %n, %y : i32
    scf.yield %m1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

// -----

// Left to LLVM: a float combiner without reassoc (the order is the
// result), a strided read, and a carried value used by something else.
// CHECK-LABEL: func.func @ordered
// CHECK-NOT:     vector.
#strided = #xla.indexing_map<"(k) -> (k * 2), domain: k in [0, 511]">
func.func @ordered(%in: tensor<1024xf32>, %init: f32) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %a = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %in[%k] : tensor<1024xf32>
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  %b = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
    %i = xla.apply_indexing #strided(%k)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %n = arith.addf %acc, %x fastmath<reassoc> : f32
    scf.yield %n : f32
  }
  %c = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %in[%k] : tensor<1024xf32>
    %t = arith.mulf %acc, %x : f32
    %n = arith.addf %acc, %t fastmath<reassoc> : f32
    scf.yield %n : f32
  }
  return %a, %b, %c : f32, f32, f32
}

// -----

// IEEE maximum needs no reassoc: any order of maximumf gives the same
// result (NaN propagates, -0 is below +0), so the max of a softmax is
// vectorized as it is.
// CHECK-LABEL: func.func @exact_max
// CHECK:         %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<32xf32>
// CHECK:         %[[V:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[NEG]]) -> (vector<32xf32>)
// CHECK:           arith.maximumf %[[ACC]], %{{.*}} : vector<32xf32>
// CHECK:         vector.reduction <maximumf>, %[[V]]
func.func @exact_max(%in: tensor<1024xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %m = scf.for %k = %c0 to %c1024 step %c1 iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %in[%k] : tensor<1024xf32>
    %n = arith.maximumf %acc, %x : f32
    scf.yield %n : f32
  }
  return %m : f32
}

// -----

// A side output (a value written where it is read, as a softmax writes its
// exponentials):
// the carried tensor goes with the vector loop, which writes each step's
// 32 values with one transfer; the scalar loop writes the last 8 into the
// vector loop's tensor.
// CHECK-LABEL: func.func @side_output
// CHECK:         %[[V:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[T:.*]] = %arg1) -> (vector<32xf32>, tensor<1032xf32>)
// CHECK:           %[[X:.*]] = vector.transfer_read %arg0[%[[I]]]
// CHECK:           %[[E:.*]] = arith.mulf %[[X]], %[[X]] : vector<32xf32>
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[E]] fastmath<reassoc> : vector<32xf32>
// CHECK:           %[[W:.*]] = vector.transfer_write %[[E]], %[[T]][%[[I]]] {in_bounds = [true]} : vector<32xf32>, tensor<1032xf32>
// CHECK:           scf.yield %[[S]], %[[W]]
// CHECK:         %[[R:.*]] = vector.reduction <add>, %[[V]]#0
// CHECK:         %[[F:.*]] = arith.addf %arg2, %[[R]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[F]], %{{.*}} = %[[V]]#1) -> (f32, tensor<1032xf32>)
// CHECK:           tensor.insert
func.func @side_output(%in: tensor<1032xf32>, %out: tensor<1032xf32>, %init: f32) -> (f32, tensor<1032xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1032 = arith.constant 1032 : index
  %r:2 = scf.for %k = %c0 to %c1032 step %c1 iter_args(%acc = %init, %t = %out) -> (f32, tensor<1032xf32>) {
    %x = tensor.extract %in[%k] : tensor<1032xf32>
    %e = arith.mulf %x, %x : f32
    %n = arith.addf %acc, %e fastmath<reassoc> : f32
    %w = tensor.insert %e into %t[%k] : tensor<1032xf32>
    scf.yield %n, %w : f32, tensor<1032xf32>
  }
  return %r#0, %r#1 : f32, tensor<1032xf32>
}
