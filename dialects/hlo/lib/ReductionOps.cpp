//===- ReductionOps.cpp - verifiers of the hlo dialect's reduction ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult ReduceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult ReduceWindowOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReduceWindowOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult SelectAndScatterOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SelectAndScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult MapOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult MapOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult ScanOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ScanOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult SortOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SortOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult TopKOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult GatherOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ScatterOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
