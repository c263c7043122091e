//===- CollectiveOps.cpp - verifiers of the hlo dialect's collective ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult AllReduceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult AllReduceStartOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult AllGatherOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult AllToAllOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RaggedAllToAllOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReduceScatterOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReduceScatterOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult CollectiveBroadcastOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CollectiveReduceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CollectiveReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult CollectivePermuteOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CollectivePermuteStartOp::verify() { return success(); } // TODO-BOOTSTRAP
