//===- XlaGpuOps.h - the xla_gpu emitter dialect -----------------*- C++ -*-===//
//
// C++ declarations of the xla_gpu dialect, generated from the .td files in
// this directory. Include this header from a C++ MLIR project that links
// RxlaXlaGpu.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_H
#define RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "rxla/Dialect/XlaGpu/IR/XlaGpuDialect.h.inc"

#define GET_OP_CLASSES
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.h.inc"

#endif // RXLA_DIALECT_XLAGPU_IR_XLAGPUOPS_H
