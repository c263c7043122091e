//===- CAPI.cpp - C API of the xla dialect --------------------------------===//

#include "rxla-c/Dialect/Xla.h"
#include "rxla/Dialect/Xla/IR/XlaOps.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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
  mlir::MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<mlir::arith::ArithDialect>();
  return wrap(mlir::arith::FastMathFlagsAttr::get(
      ctx, static_cast<mlir::arith::FastMathFlags>(flags)));
}

int64_t rxlaArithFastMathAttrGetFlags(MlirAttribute attr) {
  if (auto fm = llvm::dyn_cast<mlir::arith::FastMathFlagsAttr>(unwrap(attr)))
    return static_cast<int64_t>(fm.getValue());
  return -1;
}

MlirAttribute rxlaArithOverflowAttrGet(MlirContext context, uint32_t flags) {
  mlir::MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<mlir::arith::ArithDialect>();
  return wrap(mlir::arith::IntegerOverflowFlagsAttr::get(
      ctx, static_cast<mlir::arith::IntegerOverflowFlags>(flags)));
}

MlirAttribute rxlaVectorCombiningKindAttrGet(MlirContext context,
                                             MlirStringRef kind) {
  auto value = mlir::vector::symbolizeCombiningKind(unwrap(kind));
  if (!value)
    return MlirAttribute{nullptr};
  mlir::MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<mlir::vector::VectorDialect>();
  return wrap(mlir::vector::CombiningKindAttr::get(ctx, *value));
}

MlirAttribute rxlaNVVMShflKindAttrGet(MlirContext context, MlirStringRef kind) {
  auto value = mlir::NVVM::symbolizeShflKind(unwrap(kind));
  if (!value)
    return MlirAttribute{nullptr};
  mlir::MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<mlir::NVVM::NVVMDialect>();
  return wrap(mlir::NVVM::ShflKindAttr::get(ctx, *value));
}

MlirAttribute rxlaLLVMConstantRangeAttrGet(MlirContext context,
                                           uint32_t bitWidth, int64_t lower,
                                           int64_t upper) {
  mlir::MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<mlir::LLVM::LLVMDialect>();
  return wrap(mlir::LLVM::ConstantRangeAttr::get(ctx, bitWidth, lower, upper));
}
