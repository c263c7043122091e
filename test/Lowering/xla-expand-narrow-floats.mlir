// RUN: not hlo-opt %s --split-input-file --passes=xla-expand-narrow-floats 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// Widening an f8 value reads a table of the 256 values by its bits:
// f8E4M3FN's 0x38 is 1.0, 0x7F is NaN.
// CHECK-LABEL: func.func @extend
// CHECK:         %[[T:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<256xf32>
// CHECK:         %[[B:.*]] = arith.bitcast %arg0 : f8E4M3FN to i8
// CHECK:         %[[I:.*]] = arith.index_castui %[[B]] : i8 to index
// CHECK:         %[[V:.*]] = tensor.extract %[[T]][%[[I]]] : tensor<256xf32>
// CHECK:         return %[[V]]
func.func @extend(%x: f8E4M3FN) -> f32 {
  %y = arith.extf %x : f8E4M3FN to f32
  return %y : f32
}

// -----

// Narrowing from f16 finds the rounding step of the source's bits with a
// binary search over step boundaries (one table per sign), then bitcasts
// the code.
// CHECK-LABEL: func.func @truncate
// CHECK:         %[[B:.*]] = arith.bitcast %arg0 : f16 to i16
// CHECK:         tensor.extract {{.*}} : tensor<{{[0-9]+}}xi16>
// CHECK:         arith.cmpi ule
// CHECK:         arith.select
// CHECK:         tensor.extract {{.*}} : tensor<{{[0-9]+}}xi8>
// CHECK:         arith.cmpi ugt
// CHECK:         %[[R:.*]] = arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK:         return %[[R]]
func.func @truncate(%x: f16) -> f8E5M2 {
  %y = arith.truncf %x : f16 to f8E5M2
  return %y : f8E5M2
}

// -----

// From f32: one lookup keyed by the sign, exponent, the first M+1 = 3
// mantissa bits (the shift keeps bits 31..20) and a sticky bit for the
// rest (2^(1+8+3+1) = 8192 codes).
// CHECK-LABEL: func.func @truncate_f32
// CHECK:         %[[T:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<8192xi8>
// CHECK:         %[[B:.*]] = arith.bitcast %arg0 : f32 to i32
// CHECK:         arith.shrui %[[B]], %c20_i32
// CHECK:         arith.cmpi ne
// CHECK:         %[[K:.*]] = arith.ori
// CHECK:         %[[I:.*]] = arith.index_castui %[[K]]
// CHECK:         %[[C:.*]] = tensor.extract %[[T]][%[[I]]] : tensor<8192xi8>
// CHECK:         %[[R:.*]] = arith.bitcast %[[C]] : i8 to f8E5M2
// CHECK:         return %[[R]]
func.func @truncate_f32(%x: f32) -> f8E5M2 {
  %y = arith.truncf %x : f32 to f8E5M2
  return %y : f8E5M2
}

// -----

// Negation flips the sign bit; in an IEEE-like format a NaN (magnitude above
// infinity, 0x7C) becomes the canonical NaN (0x7E) of the new sign.
// CHECK-LABEL: func.func @negate_ieee
// CHECK:         %[[B:.*]] = arith.bitcast %arg0 : f8E5M2 to i8
// CHECK:         %[[F:.*]] = arith.xori %[[B]], %{{.*}} : i8
// CHECK:         %[[NAN:.*]] = arith.cmpi ugt, %{{.*}}, %c124_i8 : i8
// CHECK:         %[[Q:.*]] = arith.ori %{{.*}}, %c126_i8 : i8
// CHECK:         %[[S:.*]] = arith.select %[[NAN]], %[[Q]], %[[F]] : i8
// CHECK:         %[[R:.*]] = arith.bitcast %[[S]] : i8 to f8E5M2
// CHECK:         return %[[R]]
func.func @negate_ieee(%x: f8E5M2) -> f8E5M2 {
  %y = arith.negf %x : f8E5M2
  return %y : f8E5M2
}

// -----

// fnuz formats have one zero and one NaN (the sign bit alone): both negate
// to themselves. Vectors (CPU lane bodies) work lane by lane.
// CHECK-LABEL: func.func @negate_fnuz
// CHECK:         %[[B:.*]] = arith.bitcast %arg0 : vector<4xf8E4M3FNUZ> to vector<4xi8>
// CHECK:         %[[F:.*]] = arith.xori %[[B]], %{{.*}} : vector<4xi8>
// CHECK:         %[[Z:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : vector<4xi8>
// CHECK:         %[[S:.*]] = arith.select %[[Z]], %[[B]], %[[F]] : vector<4xi1>, vector<4xi8>
// CHECK:         arith.bitcast %[[S]] : vector<4xi8> to vector<4xf8E4M3FNUZ>
func.func @negate_fnuz(%x: vector<4xf8E4M3FNUZ>) -> vector<4xf8E4M3FNUZ> {
  %y = arith.negf %x : vector<4xf8E4M3FNUZ>
  return %y : vector<4xf8E4M3FNUZ>
}

// -----

// Arithmetic in a narrow format is an error at the op.
// ERR: xla-expand-narrow-floats.mlir:[[@LINE+2]]:{{[0-9]+}}: error: `arith.addf` on f8E5M2 has no CPU lowering (convert to f32 first)
func.func @arith(%x: f8E5M2) -> f8E5M2 {
  %y = arith.addf %x, %x : f8E5M2
  return %y : f8E5M2
}
