// RUN: hlo-opt %s --split-input-file --passes='xla-vectorize-loads-stores{target=gpu}' | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes=xla-vectorize-loads-stores | FileCheck %s --check-prefix=CPU

// A lane loop (0 to 4, step 1) reading and writing base + lane, base a
// multiple of 4: one transfer_read per input before the loop, a lane
// extract inside it, the results inserted into a loop-carried vector and
// written once after the loop. The base is the index chain with the lane
// at 0. On the CPU the whole body becomes vector code and the loop goes.
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[BASE:.*]] = xla.apply_indexing #{{.*}}(%arg2, %[[Z]])
// CHECK:         %[[A:.*]] = vector.transfer_read %arg0[%[[BASE]]], %{{.*}} {in_bounds = [true]} : tensor<1024xf32>, vector<4xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         %[[R:.*]]:2 = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %arg1, %[[V:.*]] = %[[ZERO]])
// CHECK-NOT:       tensor.extract
// CHECK:           %[[X:.*]] = vector.extract %[[A]][%[[L]]] : f32 from vector<4xf32>
// CHECK:           %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:           %[[I:.*]] = vector.insert %[[Y]], %[[V]] [%[[L]]] : f32 into vector<4xf32>
// CHECK:           scf.yield %[[T]], %[[I]]
// CHECK:         %[[W:.*]] = vector.transfer_write %[[R]]#1, %arg1[%{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<1024xf32>
// CHECK:         return %[[W]]
// CPU-LABEL: func.func @elementwise
// CPU:         %[[A:.*]] = vector.transfer_read %arg0
// CPU-NOT:     scf.for
// CPU-NOT:     dense<0.000000e+00>
// CPU:         %[[Y:.*]] = arith.mulf %[[A]], %[[A]] : vector<4xf32>
// CPU:         %[[W:.*]] = vector.transfer_write %[[Y]], %arg1
// CPU:         return %[[W]]
#map = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 255], l in [0, 3]">
func.func @elementwise(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %d: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #map(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %y = arith.mulf %x, %x : f32
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// What stays scalar: a broadcast operand (stride 0), a strided read
// (stride 2), a base that is not a multiple of the vector (d0 * 2), an
// element stored as a byte (i1), and a tensor too small for whole vectors.
// CHECK-LABEL: func.func @not_contiguous
// CHECK-NOT:     vector.transfer_read
// CHECK:         scf.for
// CHECK-COUNT-5:   tensor.extract
#bcast = #xla.indexing_map<"(d0, l) -> (d0), domain: d0 in [0, 255], l in [0, 3]">
#strided = #xla.indexing_map<"(d0, l) -> (d0 * 8 + l * 2), domain: d0 in [0, 63], l in [0, 3]">
#misaligned = #xla.indexing_map<"(d0, l) -> (d0 * 2 + l), domain: d0 in [0, 63], l in [0, 3]">
func.func @not_contiguous(%a: tensor<256xf32>, %b: tensor<1024xf32>, %p: tensor<1024xi1>, %s: tensor<6xf32>,
                          %out: tensor<1024xf32>, %d: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #bcast(%d, %l)
    %x = tensor.extract %a[%i] : tensor<256xf32>
    %j = xla.apply_indexing #strided(%d, %l)
    %y = tensor.extract %b[%j] : tensor<1024xf32>
    %k = xla.apply_indexing #misaligned(%d, %l)
    %z = tensor.extract %b[%k] : tensor<1024xf32>
    %q = tensor.extract %p[%k] : tensor<1024xi1>
    %w = tensor.extract %s[%l] : tensor<6xf32>
    %s0 = arith.addf %x, %y : f32
    %s1 = arith.addf %s0, %z : f32
    %s2 = arith.addf %s1, %w : f32
    %v = arith.select %q, %s2, %x : f32
    %t = tensor.insert %v into %acc[%j] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// Loops that are not lane loops: a bound that is not a power of two, and
// an access under a per-lane guard (not done for every lane).
// CHECK-LABEL: func.func @not_lanes
// CHECK-NOT:     vector.
// CPU-LABEL: func.func @not_lanes
// CPU-NOT:     vector.
#lanes = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 255], l in [0, 3]">
func.func @not_lanes(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %d: index, %ok: i1) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r0 = scf.for %l = %c0 to %c3 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #lanes(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %t = tensor.insert %x into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  %r1 = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %r0) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #lanes(%d, %l)
    %g = scf.if %ok -> (tensor<1024xf32>) {
      %x = tensor.extract %in[%i] : tensor<1024xf32>
      %t = tensor.insert %x into %acc[%i] : tensor<1024xf32>
      scf.yield %t : tensor<1024xf32>
    } else {
      scf.yield %acc : tensor<1024xf32>
    }
    scf.yield %g : tensor<1024xf32>
  }
  return %r1 : tensor<1024xf32>
}

// -----

// The vector is at most 128 bits on the GPU (8 x f32 stays scalar there)
// and 256 bits on the CPU (8 x f32 is one AVX register).
// CHECK-LABEL: func.func @eight_lanes
// CHECK-NOT:     vector.transfer_read
// CPU-LABEL: func.func @eight_lanes
// CPU:         %[[X:.*]] = vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1024xf32>, vector<8xf32>
// CPU:         %[[Y:.*]] = math.exp %[[X]] : vector<8xf32>
// CPU:         vector.transfer_write %[[Y]], %arg1[%{{.*}}] {in_bounds = [true]} : vector<8xf32>, tensor<1024xf32>
#eight = #xla.indexing_map<"(d0, l) -> (d0 * 8 + l), domain: d0 in [0, 127], l in [0, 7]">
func.func @eight_lanes(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %d: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %l = %c0 to %c8 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #eight(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %y = math.exp %x : f32
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// A row reduction's vector loop: the read is vectorized on the GPU; the
// scalar accumulator stays (the insert is not into a loop-carried
// tensor). On the CPU a carried scalar is not vector code: LLVM's loop
// vectorizer keeps the loop.
// CHECK-LABEL: func.func @reduction_vector
// CHECK:         vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4096xf32>, vector<4xf32>
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:           vector.extract
// CHECK:           arith.addf
// CPU-LABEL: func.func @reduction_vector
// CPU-NOT:     vector.
#row = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 1023], l in [0, 3]">
func.func @reduction_vector(%in: tensor<4096xf32>, %d: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (f32) {
    %i = xla.apply_indexing #row(%d, %l)
    %x = tensor.extract %in[%i] : tensor<4096xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

// On the CPU, values that are the same in every lane stay scalars: an
// index result that does not depend on the lane (the window row of a
// pooling kernel), the comparisons on it and a select's condition. The
// index op is copied before the loop with the lane at 0.
// CPU-LABEL: func.func @uniform_values
// CPU:         %[[X:.*]] = vector.transfer_read %arg0
// CPU-NOT:     scf.for
// CPU:         %[[OK:.*]] = arith.cmpi sle, %{{[0-9]+}}#0, %{{.*}} : index
// CPU:         %[[F:.*]] = arith.constant 1.000000e+00 : f32
// CPU:         %[[FV:.*]] = vector.broadcast %[[F]] : f32 to vector<8xf32>
// CPU:         %[[S:.*]] = arith.addf %[[X]], %[[FV]] : vector<8xf32>
// CPU:         %[[R:.*]] = arith.select %[[OK]], %[[S]], %[[X]] : vector<8xf32>
// CPU:         vector.transfer_write %[[R]], %arg1
#split = #xla.indexing_map<"(d0, l) -> (d0 floordiv 4, (d0 mod 4) * 8 + l), domain: d0 in [0, 127], l in [0, 7]">
#flat = #xla.indexing_map<"(r, c) -> (r * 32 + c), domain: r in [0, 31], c in [0, 31]">
func.func @uniform_values(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %d: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %r = scf.for %l = %c0 to %c8 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %rc:2 = xla.apply_indexing #split(%d, %l)
    %i = xla.apply_indexing #flat(%rc#0, %rc#1)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %ok = arith.cmpi sle, %rc#0, %c15 : index
    %one = arith.constant 1.0 : f32
    %s = arith.addf %x, %one : f32
    %y = arith.select %ok, %s, %x : f32
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// On the CPU a body with an op that has no vector form here (`math.sin`
// calls the C library) is left to LLVM; the GPU still vectorizes its
// loads and stores.
// CHECK-LABEL: func.func @scalar_body
// CHECK:         vector.transfer_read
// CHECK:         math.sin %{{.*}} : f32
// CHECK:         vector.transfer_write
// CPU-LABEL: func.func @scalar_body
// CPU-NOT:     vector.
#sin = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 255], l in [0, 3]">
func.func @scalar_body(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %d: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #sin(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %y = math.sin %x : f32
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// rsqrt has a vector form on f32 (one divided by the exact root, as for a
// scalar), so a batch norm's normalization vectorizes on the CPU; on f16,
// whose scalar rsqrt is computed in f32, the loop is left to LLVM.
// CPU-LABEL: func.func @rsqrt_body
// CPU:         %[[X:.*]] = vector.transfer_read %arg0
// CPU:         math.rsqrt %[[X]] : vector<4xf32>
// CPU:         vector.transfer_write
// CPU:         scf.for
// CPU:           math.rsqrt %{{.*}} : f16
#rs = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 255], l in [0, 3]">
func.func @rsqrt_body(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %hin: tensor<1024xf16>, %hout: tensor<1024xf16>, %d: index) -> (tensor<1024xf32>, tensor<1024xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (tensor<1024xf32>) {
    %i = xla.apply_indexing #rs(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %y = math.rsqrt %x : f32
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf32>
    scf.yield %t : tensor<1024xf32>
  }
  %h = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %hout) -> (tensor<1024xf16>) {
    %i = xla.apply_indexing #rs(%d, %l)
    %x = tensor.extract %hin[%i] : tensor<1024xf16>
    %y = math.rsqrt %x : f16
    %t = tensor.insert %y into %acc[%i] : tensor<1024xf16>
    scf.yield %t : tensor<1024xf16>
  }
  return %r, %h : tensor<1024xf32>, tensor<1024xf16>
}

// -----

// A CPU column reduction's lane loop over the vectors the emitter carries:
// lane %l of an accumulator defined outside the loop is read with a
// dynamic vector.extract and written into a carried vector with a dynamic
// vector.insert. With a contiguous input read of 32 f32 (1024 bits, four
// AVX registers) the loop becomes straight-line vector code: the
// accumulator itself, one 32-wide read, one vector add. A vector whose
// length is not the lane count stays (on the GPU, whose lane loops stay
// loops, both do).
// CPU-LABEL: func.func @vector_accumulators
// CPU:         %[[X:.*]] = vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4096xf32>, vector<32xf32>
// CPU:         %[[S:.*]] = arith.addf %arg1, %[[X]] : vector<32xf32>
// CPU-NOT:     scf.for
// CPU:         return %[[S]]
// CPU-LABEL: func.func @other_length
// CPU:         scf.for
// CPU:           vector.extract %arg1[%{{.*}}] : f32 from vector<64xf32>
#va = #xla.indexing_map<"(d0, l) -> (d0 * 32 + l), domain: d0 in [0, 127], l in [0, 31]">
func.func @vector_accumulators(%in: tensor<4096xf32>, %acc: vector<32xf32>, %d: index) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %r = scf.for %l = %c0 to %c32 step %c1 iter_args(%lanes = %acc) -> (vector<32xf32>) {
    %a = vector.extract %acc[%l] : f32 from vector<32xf32>
    %i = xla.apply_indexing #va(%d, %l)
    %x = tensor.extract %in[%i] : tensor<4096xf32>
    %s = arith.addf %a, %x : f32
    %n = vector.insert %s, %lanes[%l] : f32 into vector<32xf32>
    scf.yield %n : vector<32xf32>
  }
  return %r : vector<32xf32>
}
func.func @other_length(%in: tensor<4096xf32>, %acc: vector<64xf32>, %d: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %r = scf.for %l = %c0 to %c32 step %c1 iter_args(%lanes = %acc) -> (vector<64xf32>) {
    %a = vector.extract %acc[%l] : f32 from vector<64xf32>
    %i = xla.apply_indexing #va(%d, %l)
    %x = tensor.extract %in[%i] : tensor<4096xf32>
    %s = arith.addf %a, %x : f32
    %n = vector.insert %s, %lanes[%l] : f32 into vector<64xf32>
    scf.yield %n : vector<64xf32>
  }
  return %r : vector<64xf32>
}

// -----

// A lane loop over vectors whose body does not become vector code (a call
// the inliner left) is unrolled for the CPU, each lane's copy reading and
// writing a constant lane, which LLVM keeps in registers, instead of a loop
// of dynamic lane accesses through memory; the copies' reads are then
// grouped like any unrolled code.
// CPU-LABEL: func.func @unrolled_lanes
// CPU-NOT:     scf.for
// CPU:         %[[C0:c0_[0-9]+]] = arith.constant 0 : index
// CPU-NEXT:    %[[A0:.*]] = vector.extract %arg1[%[[C0]]] : f32 from vector<4xf32>
// CPU:         %[[X:.*]] = vector.transfer_read %arg0
// CPU:         %[[X0:.*]] = vector.extract %[[X]][0]
// CPU:         %[[S0:.*]] = call @step(%[[A0]], %[[X0]])
// CPU:         %[[V0:.*]] = vector.insert %[[S0]], %arg1 [%[[C0]]] : f32 into vector<4xf32>
// CPU:         %[[C1:c1_[0-9]+]] = arith.constant 1 : index
// CPU-NEXT:    vector.extract %arg1[%[[C1]]]
// CPU:         %[[V1:.*]] = vector.insert %{{.*}}, %[[V0]] [%[[C1]]]
// CPU:         %[[C3:.*]] = arith.constant 3 : index
// CPU:         %[[V3:.*]] = vector.insert %{{.*}}, %{{.*}} [%[[C3]]]
// CPU-NEXT:    return %[[V3]]
#ul = #xla.indexing_map<"(d0, l) -> (d0 * 4 + l), domain: d0 in [0, 255], l in [0, 3]">
func.func private @step(%a: f32, %x: f32) -> f32
func.func @unrolled_lanes(%in: tensor<1024xf32>, %acc: vector<4xf32>, %d: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%lanes = %acc) -> (vector<4xf32>) {
    %a = vector.extract %acc[%l] : f32 from vector<4xf32>
    %i = xla.apply_indexing #ul(%d, %l)
    %x = tensor.extract %in[%i] : tensor<1024xf32>
    %s = func.call @step(%a, %x) : (f32, f32) -> f32
    %n = vector.insert %s, %lanes[%l] : f32 into vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// Straight-line code (accesses the emitters unrolled themselves): four
// reads of base + 0..3 (base a multiple of 4) become one transfer_read
// before the first and constant-lane extracts; a chain of inserts writing
// base + 0..3 becomes one from_elements and one transfer_write after the
// chain, in any order of the lanes.
// CHECK-LABEL: func.func @straight_line
// CHECK:         %[[V:.*]] = vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64xf32>, vector<4xf32>
// CHECK-DAG:     %[[X0:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK-DAG:     %[[X1:.*]] = vector.extract %[[V]][1] : f32 from vector<4xf32>
// CHECK-DAG:     %[[X2:.*]] = vector.extract %[[V]][2] : f32 from vector<4xf32>
// CHECK-DAG:     %[[X3:.*]] = vector.extract %[[V]][3] : f32 from vector<4xf32>
// CHECK-NOT:     tensor.insert
// CHECK:         %[[E:.*]] = vector.from_elements %[[X0]], %[[X1]], %[[X2]], %[[X3]] : vector<4xf32>
// CHECK:         %[[W:.*]] = vector.transfer_write %[[E]], %arg1[%{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<64xf32>
// CHECK:         return %[[W]]
// CPU-LABEL: func.func @straight_line
// CPU:         vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64xf32>, vector<4xf32>
// CPU:         vector.transfer_write %{{.*}}, %arg1[%{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<64xf32>
#row4 = #xla.indexing_map<"(d0) -> (d0 * 4), domain: d0 in [0, 15]">
#plus = #xla.indexing_map<"(i)[k] -> (i + k), domain: i in [0, 60], k in [0, 3]">
func.func @straight_line(%in: tensor<64xf32>, %out: tensor<64xf32>, %d: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %b = xla.apply_indexing #row4(%d)
  %i0 = xla.apply_indexing #plus(%b)[%c0]
  %i1 = xla.apply_indexing #plus(%b)[%c1]
  %i2 = xla.apply_indexing #plus(%b)[%c2]
  %i3 = xla.apply_indexing #plus(%b)[%c3]
  %x0 = tensor.extract %in[%i0] : tensor<64xf32>
  %x1 = tensor.extract %in[%i1] : tensor<64xf32>
  %x2 = tensor.extract %in[%i2] : tensor<64xf32>
  %x3 = tensor.extract %in[%i3] : tensor<64xf32>
  %t0 = tensor.insert %x2 into %out[%i2] : tensor<64xf32>
  %t1 = tensor.insert %x0 into %t0[%i0] : tensor<64xf32>
  %t2 = tensor.insert %x3 into %t1[%i3] : tensor<64xf32>
  %t3 = tensor.insert %x1 into %t2[%i1] : tensor<64xf32>
  return %t3 : tensor<64xf32>
}

// -----

// A chain in one branch of an `scf.if` whose other branch yields the
// chain's start (a GPU column reduction's lane 0 writing its adjacent
// outputs): the other branch does not run with the chain, so the writes
// still become one vector write. A read of the start between the chain's
// inserts keeps them scalar (the writes would move past it).
// CHECK-LABEL: func.func @straight_line_in_branch
// CHECK:         scf.if
// CHECK:           %[[E:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK:           %[[W:.*]] = vector.transfer_write %[[E]], %arg1[%{{.*}}] {in_bounds = [true]} : vector<2xf32>, tensor<64xf32>
// CHECK:           scf.yield %[[W]]
// CHECK:         } else {
// CHECK:           scf.yield %arg1
// CHECK-LABEL: func.func @read_during_chain
// CHECK-NOT:     vector.
#row2b = #xla.indexing_map<"(d0) -> (d0 * 2), domain: d0 in [0, 31]">
#plus2b = #xla.indexing_map<"(i)[k] -> (i + k), domain: i in [0, 62], k in [0, 1]">
func.func @straight_line_in_branch(%x: f32, %out: tensor<64xf32>, %d: index, %ok: i1) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %ok -> (tensor<64xf32>) {
    %b = xla.apply_indexing #row2b(%d)
    %i0 = xla.apply_indexing #plus2b(%b)[%c0]
    %t0 = tensor.insert %x into %out[%i0] : tensor<64xf32>
    %i1 = xla.apply_indexing #plus2b(%b)[%c1]
    %t1 = tensor.insert %x into %t0[%i1] : tensor<64xf32>
    scf.yield %t1 : tensor<64xf32>
  } else {
    scf.yield %out : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
func.func @read_during_chain(%x: f32, %out: tensor<64xf32>, %d: index) -> (tensor<64xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %b = xla.apply_indexing #row2b(%d)
  %i0 = xla.apply_indexing #plus2b(%b)[%c0]
  %t0 = tensor.insert %x into %out[%i0] : tensor<64xf32>
  %y = tensor.extract %out[%c9] : tensor<64xf32>
  %i1 = xla.apply_indexing #plus2b(%b)[%c1]
  %t1 = tensor.insert %y into %t0[%i1] : tensor<64xf32>
  return %t1, %y : tensor<64xf32>, f32
}

// -----

// What stays scalar: reads of a tensor the function also writes (the
// writes could reach the reads), a base that is not a multiple of the
// vector (d0 * 2 + 1), a chain that writes one address twice (the later
// write wins), and an in-place kernel (its buffers may alias).
// CHECK-LABEL: func.func @straight_line_scalar
// CHECK-NOT:     vector.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT:     vector.
// CPU-LABEL: func.func @straight_line_scalar
// CPU-NOT:     vector.
// CPU-LABEL: func.func @in_place
// CPU-NOT:     vector.
#plus2 = #xla.indexing_map<"(i)[k] -> (i + k), domain: i in [0, 60], k in [0, 3]">
#row2 = #xla.indexing_map<"(d0) -> (d0 * 2 + 1), domain: d0 in [0, 29]">
func.func @straight_line_scalar(%io: tensor<64xf32>, %in: tensor<64xf32>, %d: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = xla.apply_indexing #row2(%d)
  %i0 = xla.apply_indexing #plus2(%b)[%c0]
  %i1 = xla.apply_indexing #plus2(%b)[%c1]
  %x0 = tensor.extract %io[%c0] : tensor<64xf32>
  %x1 = tensor.extract %io[%c1] : tensor<64xf32>
  %y0 = tensor.extract %in[%i0] : tensor<64xf32>
  %y1 = tensor.extract %in[%i1] : tensor<64xf32>
  %t0 = tensor.insert %x0 into %io[%c0] : tensor<64xf32>
  %t1 = tensor.insert %y0 into %t0[%c1] : tensor<64xf32>
  %t2 = tensor.insert %y1 into %t1[%c0] : tensor<64xf32>
  %t3 = tensor.insert %x1 into %t2[%c1] : tensor<64xf32>
  return %t3 : tensor<64xf32>
}
func.func @in_place(%in: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.in_place} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x0 = tensor.extract %in[%c0] : tensor<64xf32>
  %x1 = tensor.extract %in[%c1] : tensor<64xf32>
  %t0 = tensor.insert %x0 into %out[%c0] : tensor<64xf32>
  %t1 = tensor.insert %x1 into %t0[%c1] : tensor<64xf32>
  return %t1 : tensor<64xf32>
}
