//===- ControlFlowOps.cpp - verifiers of the hlo dialect's controlflow ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult TupleOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult GetTupleElementOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult WhileOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult ConditionalOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ConditionalOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult FusionOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult CustomCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult AddDependencyOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult AsyncStartOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult AsyncStartOp::verifySymbolUses(SymbolTableCollection &symbolTable) { return success(); } // TODO-BOOTSTRAP
LogicalResult AsyncDoneOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CopyStartOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CopyDoneOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RngOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RngBitGeneratorOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RngGetAndUpdateStateOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SendOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RecvOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RecvDoneOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult InfeedOp::verify() { return success(); } // TODO-BOOTSTRAP
