//===- ElementwiseOps.cpp - verifiers of the hlo dialect's elementwise ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult AbsOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ImagOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult RealOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult BitcastConvertOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ComplexOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult CompareOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SelectOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ClampOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult StochasticConvertOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ConstantOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult IotaOp::verify() { return success(); } // TODO-BOOTSTRAP
