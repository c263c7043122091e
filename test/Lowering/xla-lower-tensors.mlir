// RUN: hlo-opt %s --split-input-file --passes=xla-lower-tensors | FileCheck %s

// The CPU kernel ABI: the kernel takes one noalias, 64-byte aligned
// pointer per buffer and the workgroup id. Accesses become getelementptr +
// load/store, pred elements are bytes, tensor constants are globals.
// CHECK:       llvm.mlir.global internal constant @kernel_cst0(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x f32>
// CHECK-LABEL: func.func @kernel
// CHECK-SAME:    (%[[IN:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias}, %[[FLAGS:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias}, %[[OUT:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias}, %[[WG:.*]]: index)
// CHECK-SAME:    attributes {xla.entry}
// CHECK:         %[[G:.*]] = llvm.mlir.addressof @kernel_cst0 : !llvm.ptr
// CHECK:         %[[I:.*]] = arith.index_cast %[[WG]] : index to i64
// CHECK:         %[[P:.*]] = llvm.getelementptr %[[IN]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK:         %[[F:.*]] = arith.trunci %[[B]] : i8 to i1
// CHECK:         llvm.getelementptr %[[G]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[Q:.*]] = llvm.getelementptr %[[OUT]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.store %{{.*}}, %[[Q]] : f32, !llvm.ptr
// CHECK:         return
// CHECK-NOT:     func.func
func.func @kernel(%in: tensor<8xf32>, %flags: tensor<8xi1>, %out: tensor<8xf32>) -> tensor<8xf32> attributes {xla.entry} {
  %wg = xla.workgroup_id x {xla.range = [0 : index, 7 : index]}
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %x = tensor.extract %in[%wg] : tensor<8xf32>
  %f = tensor.extract %flags[%wg] : tensor<8xi1>
  %c1 = arith.constant 1 : index
  %k = tensor.extract %cst[%c1] : tensor<2xf32>
  %y = arith.addf %x, %k : f32
  %z = arith.select %f, %y, %x : f32
  %t = tensor.insert %z into %out[%wg] : tensor<8xf32>
  return %t : tensor<8xf32>
}

// -----

// A kernel that updates a buffer in place gets no noalias (its output is
// its operand's buffer). An atomic float addition is llvm.atomicrmw; any
// other combiner a compare-and-swap loop.
// CHECK-LABEL: func.func @scatter
// CHECK-SAME:    !llvm.ptr {llvm.align = 64 : i64}
// CHECK-NOT:     llvm.noalias
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.atomicrmw fadd %{{.*}}, %[[V]] monotonic : !llvm.ptr, f32
// CHECK:         scf.while
// CHECK:           arith.maximumf
// CHECK:           llvm.cmpxchg %{{.*}} acq_rel monotonic : !llvm.ptr, i32
// CHECK:           scf.condition
func.func @scatter(%update: tensor<1xf32>, %out: tensor<8xf32>) -> tensor<8xf32> attributes {xla.entry, xla.in_place} {
  %c0 = arith.constant 0 : index
  %i = arith.constant 3 : index
  %v = tensor.extract %update[%c0] : tensor<1xf32>
  %a = xla.atomic_rmw %out[%i] : tensor<8xf32> {
  ^bb0(%cur: f32):
    %s = arith.addf %cur, %v : f32
    xla.yield %s : f32
  }
  %b = xla.atomic_rmw %a[%i] : tensor<8xf32> {
  ^bb0(%cur: f32):
    %m = arith.maximumf %cur, %v : f32
    xla.yield %m : f32
  }
  return %b : tensor<8xf32>
}

// -----

// A kernel with more than 32 buffers takes them as an array: the body is
// `@<name>_impl` with one pointer per buffer (internal and never inlined,
// so LLVM compiles it once), and the entry loads the pointers from the
// array and calls it.
// CHECK-LABEL: func.func private @wide_impl
// CHECK-SAME:    (%[[IN0:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias},
// CHECK-SAME:    {{.*}} %[[OUT:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias}, %[[WG:[^:]*]]: index)
// CHECK-SAME:    llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]
// CHECK:         llvm.getelementptr %[[IN0]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.getelementptr %[[OUT]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-LABEL: func.func @wide(%arg0: !llvm.ptr, %arg1: index) attributes {xla.entry}
// CHECK:         %[[A0:.*]] = llvm.getelementptr %arg0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[S0:.*]] = llvm.load %[[A0]] invariant : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[A32:.*]] = llvm.getelementptr %arg0[32] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[S32:.*]] = llvm.load %[[A32]] invariant
// CHECK:         call @wide_impl(%[[S0]], {{.*}}, %[[S32]], %arg1)
func.func @wide(%in0: tensor<1xf32>, %in1: tensor<1xf32>, %in2: tensor<1xf32>, %in3: tensor<1xf32>, %in4: tensor<1xf32>, %in5: tensor<1xf32>, %in6: tensor<1xf32>, %in7: tensor<1xf32>, %in8: tensor<1xf32>, %in9: tensor<1xf32>, %in10: tensor<1xf32>, %in11: tensor<1xf32>, %in12: tensor<1xf32>, %in13: tensor<1xf32>, %in14: tensor<1xf32>, %in15: tensor<1xf32>, %in16: tensor<1xf32>, %in17: tensor<1xf32>, %in18: tensor<1xf32>, %in19: tensor<1xf32>, %in20: tensor<1xf32>, %in21: tensor<1xf32>, %in22: tensor<1xf32>, %in23: tensor<1xf32>, %in24: tensor<1xf32>, %in25: tensor<1xf32>, %in26: tensor<1xf32>, %in27: tensor<1xf32>, %in28: tensor<1xf32>, %in29: tensor<1xf32>, %in30: tensor<1xf32>, %in31: tensor<1xf32>, %out: tensor<1xf32>) -> tensor<1xf32> attributes {xla.entry} {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %in0[%c0] : tensor<1xf32>
  %t = tensor.insert %x into %out[%c0] : tensor<1xf32>
  return %t : tensor<1xf32>
}

// -----

// Vector transfers (from xla-vectorize-loads-stores) become vector loads
// and stores at the element's address. On the CPU they are aligned to the
// element only: a buffer may be a view at any element offset.
// CHECK-LABEL: func.func @transfers
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK:         %[[Q:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.store %[[V]], %[[Q]] {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
func.func @transfers(%in: tensor<64xf32>, %out: tensor<64xf32>, %i: index) -> tensor<64xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%i], %pad {in_bounds = [true]} : tensor<64xf32>, vector<8xf32>
  %w = vector.transfer_write %v, %out[%i] {in_bounds = [true]} : vector<8xf32>, tensor<64xf32>
  return %w : tensor<64xf32>
}
