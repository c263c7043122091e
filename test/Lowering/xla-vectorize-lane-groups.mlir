// RUN: hlo-opt %s --split-input-file --passes='xla-vectorize-loads-stores{vector-bits=256}' | FileCheck %s
// RUN: hlo-opt %s --split-input-file --passes='xla-vectorize-loads-stores{target=gpu}' | FileCheck %s --check-prefix=GPU

// Lane groups (CPU): four adjacent columns, each carrying a sum and a sum
// of squares through the row loop, interleaved as a CPU column reduction
// carries them. The eight scalars split into two groups of four (the
// scalars at even and at odd positions), whose yielded values pack: the
// loop carries two vector<4xf32>. The epilogue's from_elements (the same
// multiply in every lane, of the sums' lanes in order) becomes the multiply
// on the sum vector, with the uniform scale broadcast. The second
// from_elements mixes lanes: it stays, its lanes extracted from the loop's
// vector. The GPU keeps its scalar lanes.
// CHECK-LABEL: func.func @two_accumulators
// CHECK:         %[[INIT:.*]] = vector.broadcast %arg2 : f32 to vector<4xf32>
// CHECK:         %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[S:.*]] = %[[INIT]], %[[Q:.*]] = %[[INIT]]) -> (vector<4xf32>, vector<4xf32>)
// CHECK:           %[[V:.*]] = vector.transfer_read %arg0
// CHECK-NEXT:      %[[N:.*]] = arith.addf %[[S]], %[[V]] : vector<4xf32>
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[V]], %[[V]] : vector<4xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.addf %[[Q]], %[[M]] : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[N]], %[[P]] : vector<4xf32>, vector<4xf32>
// CHECK:         %[[Q0:.*]] = vector.extract %[[R]]#1[0] : f32 from vector<4xf32>
// CHECK:         %[[SCALE:.*]] = vector.broadcast %cst : f32 to vector<4xf32>
// CHECK:         %[[E:.*]] = arith.mulf %[[R]]#0, %[[SCALE]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[E]], %arg1
// CHECK:         vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %[[Q0]] : vector<4xf32>
// GPU-LABEL: func.func @two_accumulators
// GPU:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
func.func @two_accumulators(%in: tensor<1024xf32>, %out: tensor<8xf32>, %init: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %scale = arith.constant 2.0 : f32
  %r:8 = scf.for %k = %c0 to %c128 step %c1 iter_args(%s0 = %init, %q0 = %init, %s1 = %init, %q1 = %init, %s2 = %init, %q2 = %init, %s3 = %init, %q3 = %init) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
    %i = arith.muli %k, %c1 : index
    %v = vector.transfer_read %in[%i], %init {in_bounds = [true]} : tensor<1024xf32>, vector<4xf32>
    %x0 = vector.extract %v[0] : f32 from vector<4xf32>
    %x1 = vector.extract %v[1] : f32 from vector<4xf32>
    %x2 = vector.extract %v[2] : f32 from vector<4xf32>
    %x3 = vector.extract %v[3] : f32 from vector<4xf32>
    %n0 = arith.addf %s0, %x0 : f32
    %m0 = arith.mulf %x0, %x0 : f32
    %p0 = arith.addf %q0, %m0 : f32
    %n1 = arith.addf %s1, %x1 : f32
    %m1 = arith.mulf %x1, %x1 : f32
    %p1 = arith.addf %q1, %m1 : f32
    %n2 = arith.addf %s2, %x2 : f32
    %m2 = arith.mulf %x2, %x2 : f32
    %p2 = arith.addf %q2, %m2 : f32
    %n3 = arith.addf %s3, %x3 : f32
    %m3 = arith.mulf %x3, %x3 : f32
    %p3 = arith.addf %q3, %m3 : f32
    scf.yield %n0, %p0, %n1, %p1, %n2, %p2, %n3, %p3 : f32, f32, f32, f32, f32, f32, f32, f32
  }
  %e0 = arith.mulf %r#0, %scale : f32
  %e1 = arith.mulf %r#2, %scale : f32
  %e2 = arith.mulf %r#4, %scale : f32
  %e3 = arith.mulf %r#6, %scale : f32
  %o = vector.from_elements %e0, %e1, %e2, %e3 : vector<4xf32>
  %w = vector.transfer_write %o, %out[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<8xf32>
  %f0 = arith.addf %r#1, %r#3 : f32
  %f = vector.from_elements %f0, %r#5, %r#7, %r#1 : vector<4xf32>
  %w2 = vector.transfer_write %f, %w[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<8xf32>
  return %w2 : tensor<8xf32>
}

// -----

// Lanes that do different things (a sum and a max) do not pack: the loop
// stays as it is.
// CHECK-LABEL: func.func @not_isomorphic
// CHECK:         scf.for {{.*}} -> (f32, f32)
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     vector.broadcast

func.func @not_isomorphic(%in: tensor<1024xf32>, %init: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %r:2 = scf.for %k = %c0 to %c128 step %c1 iter_args(%s0 = %init, %s1 = %init) -> (f32, f32) {
    %v = vector.transfer_read %in[%k], %init {in_bounds = [true]} : tensor<1024xf32>, vector<2xf32>
    %x0 = vector.extract %v[0] : f32 from vector<2xf32>
    %x1 = vector.extract %v[1] : f32 from vector<2xf32>
    %n0 = arith.addf %s0, %x0 : f32
    %n1 = arith.maximumf %s1, %x1 : f32
    scf.yield %n0, %n1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
