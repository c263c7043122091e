// Registers the hlo dialect in a C++ MLIRContext, parses a module that uses
// it and prints it back (see CMakeLists.txt for how to build).
#include "rxla/Dialect/Hlo/IR/HloOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
int main() {
  mlir::DialectRegistry registry;
  registry.insert<rxla::hlo::HloDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0 = hlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}", &context);
  if (!module) return 1;
  module->print(llvm::outs());
  return 0;
}
