//===- HloOps.h - the hlo dialect --------------------------------*- C++ -*-===//
//
// C++ declarations of the hlo dialect, generated from the .td files in this
// directory. Include this header from a C++ MLIR project that links RxlaHlo.
//
//===----------------------------------------------------------------------===//

#ifndef RXLA_DIALECT_HLO_IR_HLOOPS_H
#define RXLA_DIALECT_HLO_IR_HLOOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace rxla::hlo {
/// `[0, 1]` lists inside hlo attributes.
mlir::FailureOr<llvm::SmallVector<int64_t>> parseDimList(mlir::AsmParser &parser);
void printDimList(mlir::AsmPrinter &printer, llvm::ArrayRef<int64_t> dims);
} // namespace rxla::hlo

#include "rxla/Dialect/Hlo/IR/HloDialect.h.inc"
#include "rxla/Dialect/Hlo/IR/HloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "rxla/Dialect/Hlo/IR/HloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "rxla/Dialect/Hlo/IR/HloTypes.h.inc"

namespace rxla::hlo {
/// `custom<EnumCase>($attr)`: an enum attribute written as its bare case
/// (`LT`, `rng_philox`) inside an op's custom form.
template <typename AttrT>
mlir::ParseResult parseEnumCase(mlir::OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef word;
  if (parser.parseKeyword(&word))
    return mlir::failure();
  std::optional<EnumT> value = symbolizeEnum<EnumT>(word);
  if (!value)
    return parser.emitError(loc) << "'" << word << "' is not a valid "
                                 << AttrT::getMnemonic();
  attr = AttrT::get(parser.getContext(), *value);
  return mlir::success();
}

template <typename AttrT>
void printEnumCase(mlir::OpAsmPrinter &printer, mlir::Operation *, AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}
} // namespace rxla::hlo

#define GET_OP_CLASSES
#include "rxla/Dialect/Hlo/IR/HloOps.h.inc"

#endif // RXLA_DIALECT_HLO_IR_HLOOPS_H
