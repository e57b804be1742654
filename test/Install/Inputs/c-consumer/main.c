/* c-consumer KERNEL.mlir SIZES: parses a kernel through the installed C API, verifies it and
 * prints the cost report (JSON) with the hardware profile the library finds on its own. */
#include "Cake-c/Compile.h"
#include "Cake-c/Dialect.h"
#include "Cake-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static int report(CakeDiagnostics diagnostics) {
  for (intptr_t i = 0; i < cakeDiagnosticsGetNum(diagnostics); ++i) {
    CakeDiagnosticRecord r = cakeDiagnosticsGet(diagnostics, i);
    fprintf(stderr, "%.*s:%u:%u: %.*s\n", (int)r.file.length, r.file.data, r.line, r.column,
            (int)r.message.length, r.message.data);
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c-consumer KERNEL.mlir SIZES\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file)
    return 2;
  static char text[1 << 20];
  size_t length = fread(text, 1, sizeof(text) - 1, file);
  fclose(file);
  text[length] = 0;

  MlirContext context = cakeContextCreate();
  CakeDiagnostics diagnostics = cakeDiagnosticsCreate();
  MlirModule module = cakeParseModule(context, mlirStringRefCreate(text, length),
                                      mlirStringRefCreateFromCString(argv[1]), diagnostics);
  if (mlirModuleIsNull(module))
    return report(diagnostics);
  if (mlirLogicalResultIsFailure(cakeVerify(mlirModuleGetOperation(module), diagnostics)) ||
      mlirLogicalResultIsFailure(cakeCost(module, mlirStringRefCreateFromCString(argv[2]),
                                          mlirStringRefCreateFromCString(""), diagnostics, print,
                                          NULL)))
    return report(diagnostics);
  printf("\n");
  mlirModuleDestroy(module);
  cakeDiagnosticsDestroy(diagnostics);
  mlirContextDestroy(context);
  return 0;
}
