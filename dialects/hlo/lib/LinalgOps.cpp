//===- LinalgOps.cpp - verifiers of the hlo dialect's linalg ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult DotOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RaggedDotOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ScaledDotOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ConvolutionOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult FftOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CholeskyOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult TriangularSolveOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult BatchNormTrainingOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult BatchNormInferenceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult BatchNormGradOp::verify() { return success(); } // TODO-BOOTSTRAP
