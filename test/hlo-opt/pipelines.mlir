// Rust and upstream passes mix in --passes and in --pass-pipeline.
// RUN: hlo-opt %s --passes=tuple-simplifier,canonicalize,cse,dce | FileCheck %s
// RUN: hlo-opt %s --pass-pipeline='builtin.module(tuple-simplifier, func.func(cse), dce)' | FileCheck %s
// RUN: hlo-opt %s --passes='canonicalize{max-iterations=3},dce' | FileCheck %s --check-prefix=OPTS

// Bad pipelines are command-line errors that name the problem.
// RUN: not hlo-opt %s --passes=no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not hlo-opt %s --pass-pipeline='builtin.module(func.func(dce))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not hlo-opt %s --passes=dce --pass-pipeline='builtin.module(dce)' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not hlo-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not hlo-opt %s --passes='dce,' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not hlo-opt %s --passes='canonicalize{no-such-option=1}' 2>&1 | FileCheck %s --check-prefix=UPOPT

// UNKNOWN: hlo-opt: error: unknown pass 'no-such-pass' (see --list-passes)
// NESTED: hlo-opt: error: rxla pass 'dce' runs on builtin.module; it cannot be nested under 'func.func'
// BOTH: use either --passes or --pass-pipeline
// ANCHOR: --pass-pipeline must have the form 'builtin.module(pass,...)'
// SYNTAX: hlo-opt: error: empty pass name
// UPOPT: invalid pass 'canonicalize{no-such-option=1}'

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[N:.*]] = hlo.negate %arg0
// CHECK-NEXT:    %[[S:.*]] = hlo.add %[[N]], %[[N]]
// CHECK-NEXT:    return %[[S]]
// OPTS-LABEL: func.func @main
// OPTS:        hlo.add
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %t = hlo.tuple %a : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  %g = hlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  %0 = hlo.negate %g : tensor<4xf32>
  %1 = hlo.negate %g : tensor<4xf32>
  %2 = hlo.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
