//===- CAPI.cpp - C API of the xla dialect --------------------------------===//

#include "rxla-c/Dialect/Xla.h"
#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace rxla::xla;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Xla, xla, rxla::xla::XlaDialect)

bool rxlaAttributeIsAIndexingMap(MlirAttribute attr) {
  return llvm::isa<IndexingMapAttr>(unwrap(attr));
}

MlirAttribute rxlaIndexingMapAttrGet(MlirContext context, MlirStringRef text) {
  mlir::MLIRContext *ctx = unwrap(context);
  return wrap(getIndexingMapAttr(ctx, unwrap(text), [ctx] {
    return mlir::emitError(mlir::UnknownLoc::get(ctx));
  }));
}

MlirStringRef rxlaIndexingMapAttrGetText(MlirAttribute attr) {
  return wrap(llvm::cast<IndexingMapAttr>(unwrap(attr)).getText());
}

MlirAttribute rxlaWorkGroupDimensionAttrGet(MlirContext context, int32_t dim) {
  return wrap(WorkGroupDimensionAttr::get(
      unwrap(context), static_cast<WorkGroupDimension>(dim)));
}

MlirAttribute rxlaArithFastMathAttrGet(MlirContext context, uint32_t flags) {
  return wrap(mlir::arith::FastMathFlagsAttr::get(
      unwrap(context), static_cast<mlir::arith::FastMathFlags>(flags)));
}
