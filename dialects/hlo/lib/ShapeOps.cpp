//===- ShapeOps.cpp - verifiers of the hlo dialect's shape ops ---===//

#include "VerifyUtils.h"

using namespace mlir;
using namespace rxla::hlo;

LogicalResult BroadcastOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReshapeOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult DynamicReshapeOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult BitcastOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult TransposeOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ReverseOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SliceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult DynamicSliceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult DynamicUpdateSliceOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ConcatenateOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult PadOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult GetDimensionSizeOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult SetDimensionSizeOp::verify() { return success(); } // TODO-BOOTSTRAP
LogicalResult ShuffleOp::verify() { return success(); } // TODO-BOOTSTRAP
