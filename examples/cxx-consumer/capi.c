/*===- capi.c - rxla's dialects from C ------------------------------------===*\
|*                                                                            *|
|* Uses only C: registers the hlo and xla dialects through their C API       *|
|* (rxla-c/Dialect/*.h, linked as rxla::RxlaHloCAPI and rxla::RxlaXlaCAPI)   *|
|* and MLIR's C API, then                                                     *|
|*   - parses and verifies VALID.mlir and asks rxla's C API about its first  *|
|*     hlo op;                                                                *|
|*   - checks that INVALID.mlir is rejected with a diagnostic containing     *|
|*     EXPECTED_ERROR;                                                        *|
|*   - builds an #xla.indexing_map from its text.                             *|
|*                                                                            *|
|*   rxla-consumer-c VALID.mlir INVALID.mlir EXPECTED_ERROR                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "rxla-c/Dialect/Hlo.h"
#include "rxla-c/Dialect/Xla.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <string.h>

/* Collects the text of every diagnostic (and prints it). */
struct Diagnostics {
  char text[4096];
  size_t length;
};

static void appendText(MlirStringRef piece, void *userData) {
  struct Diagnostics *diags = (struct Diagnostics *)userData;
  size_t room = sizeof(diags->text) - 1 - diags->length;
  size_t n = piece.length < room ? piece.length : room;
  memcpy(diags->text + diags->length, piece.data, n);
  diags->length += n;
  diags->text[diags->length] = '\0';
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic diagnostic, void *userData) {
  struct Diagnostics *diags = (struct Diagnostics *)userData;
  size_t start = diags->length;
  mlirDiagnosticPrint(diagnostic, appendText, userData);
  appendText(mlirStringRefCreateFromCString("\n"), userData);
  fprintf(stderr, "diagnostic: %s", diags->text + start);
  return mlirLogicalResultSuccess();
}

static int fail(const char *message) {
  fprintf(stderr, "rxla-consumer-c: %s\n", message);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: rxla-consumer-c VALID.mlir INVALID.mlir EXPECTED_ERROR\n");
    return 2;
  }

  /* Register rxla's dialects through their handles and load hlo (which
   * loads func, its dependent dialect). */
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__hlo__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__xla__(), registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__hlo__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__xla__(), ctx);

  struct Diagnostics diags = {{0}, 0};
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, &diags, NULL);

  /* A valid module: parsed, verified, and its first hlo op is pure. */
  MlirModule module =
      mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module))
    return fail("the valid module does not parse");
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(moduleOp))
    return fail("the valid module does not verify");
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(body);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(first));
  if (name.length < 4 || strncmp(name.data, "hlo.", 4) != 0)
    return fail("the first op of the first function is not an hlo op");
  if (!rxlaOperationIsMemoryEffectFree(first))
    return fail("rxlaOperationIsMemoryEffectFree: an elementwise hlo op has effects");
  printf("valid module: verified; first op %.*s is memory-effect free\n",
         (int)name.length, name.data);
  mlirModuleDestroy(module);

  /* An invalid module: the verifier must reject it. */
  diags.length = 0;
  diags.text[0] = '\0';
  module = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[2]));
  if (!mlirModuleIsNull(module)) {
    mlirModuleDestroy(module);
    return fail("the invalid module was accepted");
  }
  if (!strstr(diags.text, argv[3]))
    return fail("the invalid module was rejected without the expected diagnostic");
  printf("invalid module: rejected as expected\n");

  /* The xla dialect's C API: an indexing map from its text. */
  const char *mapText = "(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 31], s0 in [0, 3]";
  MlirAttribute map = rxlaIndexingMapAttrGet(ctx, mlirStringRefCreateFromCString(mapText));
  if (mlirAttributeIsNull(map) || !rxlaAttributeIsAIndexingMap(map))
    return fail("rxlaIndexingMapAttrGet did not build an indexing map");
  MlirStringRef text = rxlaIndexingMapAttrGetText(map);
  if (text.length != strlen(mapText) || strncmp(text.data, mapText, text.length) != 0)
    return fail("rxlaIndexingMapAttrGetText does not give the map's text back");
  printf("indexing map: %.*s\n", (int)text.length, text.data);

  mlirContextDestroy(ctx);
  return 0;
}
