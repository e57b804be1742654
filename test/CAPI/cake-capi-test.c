/*===- cake-capi-test.c - drives the CAKE C API from C ---------------------===*\
|*                                                                            *|
|* Each step prints what it saw; capi.test checks the output with FileCheck   *|
|* and that nothing reached stderr.                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "Cake-c/ABI.h"
#include "Cake-c/Compile.h"
#include "Cake-c/Dialect.h"

#include <stdio.h>
#include <string.h>

static const char *kKernel =
    "cake.kernel @copy(%x: !cake.tensor<[N], f32> {cake.name = \"x\"},\n"
    "                  %y: !cake.tensor<[N], f32> {cake.name = \"y\"})\n"
    "    attributes {target = \"sm_90a\", block = array<i64: 128>, symbols = [\"N\"],\n"
    "                grid = affine_map<()[n] -> (n ceildiv 128)>} {\n"
    "  %c128 = arith.constant 128 : index\n"
    "  %b = cake.block_id x\n"
    "  %t = cake.thread_id x\n"
    "  %o = arith.muli %b, %c128 : index\n"
    "  %i = arith.addi %o, %t : index\n"
    "  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<1xf32>\n"
    "  cake.store %v, %y[%i] masked : vector<1xf32>, !cake.tensor<[N], f32>\n"
    "  cake.return\n"
    "}\n";

static const char *kBadTarget =
    "cake.kernel @k() attributes {target = \"sm_75\", block = array<i64: 32>,\n"
    "                             grid = affine_map<() -> (1)>} {\n"
    "  cake.return\n"
    "}\n";

static const char *kTwoTargets =
    "cake.kernel @a() attributes {target = \"sm_90a\", block = array<i64: 32>, grid = "
    "affine_map<() -> (1)>} {\n  cake.return\n}\n"
    "cake.kernel @b() attributes {target = \"sm_80\", block = array<i64: 32>, grid = "
    "affine_map<() -> (1)>} {\n  cake.return\n}\n";

static void printPart(MlirStringRef part, void *userData) {
  fwrite(part.data, 1, part.length, (FILE *)userData);
}

static void printRecord(const char *indent, CakeDiagnosticRecord record) {
  printf("%s%.*s:%u:%u: severity %d: %.*s\n", indent, (int)record.file.length, record.file.data,
         record.line, record.column, (int)record.severity, (int)record.message.length,
         record.message.data);
}

/* Prints and then clears what was collected. */
static void dump(CakeDiagnostics diagnostics) {
  for (intptr_t i = 0; i < cakeDiagnosticsGetNum(diagnostics); ++i) {
    CakeDiagnosticRecord record = cakeDiagnosticsGet(diagnostics, i);
    printRecord("diag: ", record);
    for (intptr_t n = 0; n < record.numNotes; ++n)
      printRecord("  note: ", cakeDiagnosticsGetNote(diagnostics, i, n));
  }
  cakeDiagnosticsClear(diagnostics);
}

static MlirModule parse(MlirContext ctx, const char *text, const char *name,
                        CakeDiagnostics diagnostics) {
  return cakeParseModule(ctx, mlirStringRefCreateFromCString(text),
                         mlirStringRefCreateFromCString(name), diagnostics);
}

int main(void) {
  /* The dialect handle alone, MLIR-style. */
  MlirContext bare = mlirContextCreate();
  MlirDialectHandle handle = mlirGetDialectHandle__cake__();
  mlirDialectHandleRegisterDialect(handle, bare);
  MlirDialect dialect = mlirDialectHandleLoadDialect(handle, bare);
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  printf("handle: %.*s\n", (int)ns.length, ns.data);
  mlirContextDestroy(bare);

  MlirContext ctx = cakeContextCreate();
  CakeDiagnostics diagnostics = cakeDiagnosticsCreate();

  MlirModule module = parse(ctx, kKernel, "copy.mlir", diagnostics);
  printf("parse ok: %d\n", !mlirModuleIsNull(module));
  mlirOperationPrint(mlirModuleGetOperation(module), printPart, stdout);
  printf("verify ok: %d\n",
         mlirLogicalResultIsSuccess(cakeVerify(mlirModuleGetOperation(module), diagnostics)));

  CakeCompileOptions options = cakeCompileOptionsGetDefault();
  CakeCompileResult result;
  if (mlirLogicalResultIsSuccess(cakeCompile(module, options, diagnostics, &result))) {
    MlirStringRef ptx = cakeCompileResultGetPTX(result);
    MlirStringRef manifest = cakeCompileResultGetManifest(result);
    printf("compile ok: ptx has entry: %d, cubin bytes: %zu\n",
           strstr(ptx.data, ".entry copy") != NULL, cakeCompileResultGetCubin(result).length);
    printf("manifest:\n%.*s", (int)manifest.length, manifest.data);
    /* The host ABI judges sizes against that manifest, as cake-run --check-sizes does. */
    MlirStringRef names[] = {mlirStringRefCreateFromCString("N")};
    int64_t good[] = {4096}, bad[] = {0};
    printf("check N=4096: ");
    cakeManifestCheckSizes(manifest, mlirStringRefCreateFromCString(""), 1, names, good, printPart,
                           stdout);
    printf("\ncheck N=0: ");
    cakeManifestCheckSizes(manifest, mlirStringRefCreateFromCString("copy"), 1, names, bad,
                           printPart, stdout);
    printf("\n");
    cakeCompileResultDestroy(result);
  }
  printf("evaluate: ");
  MlirStringRef n[] = {mlirStringRefCreateFromCString("N")};
  int64_t ten[] = {10};
  cakeManifestEvaluate(mlirStringRefCreateFromCString("ceildiv(N, 4) * 2"), 1, n, ten, printPart,
                       stdout);
  printf("\nevaluate error: ");
  cakeManifestEvaluate(mlirStringRefCreateFromCString("mod(N, 0)"), 1, n, ten, printPart, stdout);
  printf("\n");
  dump(diagnostics);

  /* The cost report, as JSON through a callback; the model's remarks are collected. */
  printf("cost ok: %d\n",
         mlirLogicalResultIsSuccess(cakeCost(module, mlirStringRefCreateFromCString("N=16777216"),
                                             mlirStringRefCreateFromCString(""), diagnostics,
                                             printPart, stdout)));
  cakeDiagnosticsClear(diagnostics);
  printf("bad profile cost ok: %d\n",
         mlirLogicalResultIsSuccess(cakeCost(module, mlirStringRefCreateFromCString(""),
                                             mlirStringRefCreateFromCString("no-such-gpu"),
                                             diagnostics, printPart, stdout)));
  printf("bad profile diagnostics: %d\n", cakeDiagnosticsGetNum(diagnostics) > 0);
  cakeDiagnosticsClear(diagnostics);

  options.chip = mlirStringRefCreateFromCString("sm_75");
  printf("bad chip ok: %d\n",
         mlirLogicalResultIsSuccess(cakeCompile(module, options, diagnostics, &result)));
  dump(diagnostics);
  options = cakeCompileOptionsGetDefault();
  options.assemble = true;
  options.ptxasPath = mlirStringRefCreateFromCString("/nonexistent/ptxas");
  printf("missing ptxas ok: %d\n",
         mlirLogicalResultIsSuccess(cakeCompile(module, options, diagnostics, &result)));
  dump(diagnostics);

  printf("bad pipeline ok: %d\n",
         mlirLogicalResultIsSuccess(cakeRunPassPipeline(
             module, mlirStringRefCreateFromCString("no-such-pass"), diagnostics)));
  dump(diagnostics);
  printf("pipeline ok: %d\n",
         mlirLogicalResultIsSuccess(cakeRunPassPipeline(
             module, mlirStringRefCreateFromCString("cake-lower-to-nvvm{chip=sm_80}"),
             diagnostics)));
  mlirOperationPrint(mlirModuleGetOperation(module), printPart, stdout);
  printf("\n");
  dump(diagnostics);
  mlirModuleDestroy(module);

  MlirModule bad = parse(ctx, kBadTarget, "bad.mlir", diagnostics);
  printf("bad parse null: %d\n", mlirModuleIsNull(bad));
  dump(diagnostics);
  MlirModule syntax = parse(ctx, "cake.kernel @k(", "syntax.mlir", diagnostics);
  printf("syntax parse null: %d\n", mlirModuleIsNull(syntax));
  dump(diagnostics);

  MlirModule two = parse(ctx, kTwoTargets, "two.mlir", diagnostics);
  printf("two-target compile ok: %d\n", mlirLogicalResultIsSuccess(cakeCompile(
                                            two, cakeCompileOptionsGetDefault(),
                                            diagnostics, &result)));
  dump(diagnostics);
  mlirModuleDestroy(two);

  MlirModule plain = parse(ctx, "func.func @f() { return }", "plain.mlir", diagnostics);
  printf("no-kernel compile ok: %d\n", mlirLogicalResultIsSuccess(cakeCompile(
                                           plain, cakeCompileOptionsGetDefault(),
                                           diagnostics, &result)));
  dump(diagnostics);
  mlirModuleDestroy(plain);

  cakeDiagnosticsDestroy(diagnostics);
  mlirContextDestroy(ctx);
  return 0;
}
