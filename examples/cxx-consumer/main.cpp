//===- main.cpp - a C++ MLIR program that uses rxla's dialects ------------===//
//
// Registers the hlo, xla and xla_gpu dialects (found with
// find_package(Rxla), see CMakeLists.txt), the upstream dialects the emitter
// IR mixes in, and the example's own `consumer` dialect (ODS that includes
// rxla's installed .td files); parses a module, runs the verifier, prints the
// module and parses the printed form back.
//
//   rxla-consumer FILE [--expect-op=NAME]... [--expect-error=TEXT]
//
// Exits 0 when FILE parses and verifies and contains every --expect-op; with
// --expect-error, exits 0 only when the module is rejected with a diagnostic
// containing TEXT. ctest runs it on inputs/*.mlir.
//
//===----------------------------------------------------------------------===//

#include "ConsumerDialect.h"
#include "rxla/Dialect/Hlo/IR/HloOps.h"
#include "rxla/Dialect/Xla/IR/XlaOps.h"
#include "rxla/Dialect/XlaGpu/IR/XlaGpuOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace {

int usage() {
  llvm::errs() << "usage: rxla-consumer FILE [--expect-op=NAME]... "
                  "[--expect-error=TEXT]\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string path, expectError;
  std::vector<std::string> expectOps;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--expect-op="))
      expectOps.push_back(arg.str());
    else if (arg.consume_front("--expect-error="))
      expectError = arg.str();
    else if (path.empty() && !arg.starts_with("--"))
      path = arg.str();
    else
      return usage();
  }
  if (path.empty())
    return usage();

  // rxla's dialects, the upstream ones the emitter IR uses (hlo, xla and
  // xla_gpu load func themselves) and the example's own.
  mlir::DialectRegistry registry;
  registry.insert<rxla::hlo::HloDialect, rxla::xla::XlaDialect,
                  rxla::xla_gpu::XlaGpuDialect, consumer::ConsumerDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect, mlir::math::MathDialect,
                  mlir::gpu::GPUDialect>();
  mlir::MLIRContext context(registry);

  // Print every diagnostic and keep its text for --expect-error.
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << diag.getLocation() << ": " << diag;
    llvm::errs() << text << "\n";
    diagnostics += text + "\n";
    return mlir::success();
  });

  // Parse without verifying, then verify: a rejected module is the
  // verifier's doing, not the parser's.
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, config);
  if (!module) {
    llvm::errs() << path << ": parse error\n";
    return 1;
  }
  bool verified = mlir::succeeded(mlir::verify(*module));

  if (!expectError.empty()) {
    if (verified) {
      llvm::errs() << path << ": the verifier accepted a module it must reject\n";
      return 1;
    }
    if (diagnostics.find(expectError) == std::string::npos) {
      llvm::errs() << path << ": rejected, but no diagnostic contains '"
                   << expectError << "'\n";
      return 1;
    }
    llvm::outs() << path << ": rejected as expected\n";
    return 0;
  }
  if (!verified) {
    llvm::errs() << path << ": verification failed\n";
    return 1;
  }

  // Which ops the module uses, by name.
  llvm::StringMap<unsigned> opCounts;
  module->walk([&](mlir::Operation *op) {
    ++opCounts[op->getName().getStringRef()];
  });
  for (const std::string &name : expectOps) {
    if (!opCounts.count(name)) {
      llvm::errs() << path << ": no '" << name << "' op in the module\n";
      return 1;
    }
  }

  // The printers must produce text the parsers accept.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  mlir::OwningOpRef<mlir::ModuleOp> reparsed =
      mlir::parseSourceString<mlir::ModuleOp>(printed, &context);
  if (!reparsed) {
    llvm::errs() << path << ": the printed module does not parse back:\n"
                 << printed;
    return 1;
  }

  llvm::outs() << printed;
  llvm::outs() << "// " << path << ": verified, " << opCounts.size()
               << " distinct ops\n";
  return 0;
}
