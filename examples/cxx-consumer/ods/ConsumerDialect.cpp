//===- ConsumerDialect.cpp - the example's own dialect ----------------------===//

#include "ConsumerDialect.h"

#include "mlir/IR/Builders.h"

#include "ConsumerDialect.cpp.inc"

#define GET_OP_CLASSES
#include "ConsumerOps.cpp.inc"

void consumer::ConsumerDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ConsumerOps.cpp.inc"
      >();
}
