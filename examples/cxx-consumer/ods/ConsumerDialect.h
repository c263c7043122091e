//===- ConsumerDialect.h - the example's own dialect ---------------*- C++ -*-===//
//
// C++ declarations generated from ConsumerOps.td (which includes rxla's
// installed HloOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef CONSUMER_DIALECT_H
#define CONSUMER_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ConsumerDialect.h.inc"

#define GET_OP_CLASSES
#include "ConsumerOps.h.inc"

#endif // CONSUMER_DIALECT_H
