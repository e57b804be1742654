//===- cake-fuzz.cpp - libFuzzer target: parse + cake-verify + lowering ---===//
//
// Each input is MLIR text. It is parsed with every upstream dialect and the cake dialect
// registered (parse errors are swallowed: the parser must reject, not crash); a module that parses
// and verifies runs `cake-verify` (findings are swallowed too) and then, on a fresh copy,
// `cake-convert-to-nvvm`. Any crash, assertion, sanitizer report or hang is a bug: the verifier
// and the lowering must never crash on anything the parser accepts (issue 4).
//
// The cake libraries are compiled into this binary with coverage instrumentation
// (-fsanitize=fuzzer-no-link, tools/cake-fuzz/CMakeLists.txt); MLIR itself comes from libMLIR.so
// and is not instrumented.
//
//   cake-fuzz CORPUS_DIR -runs=100000           # fuzz
//   cake-fuzz crash-<hash>                       # reproduce one input
//
//===----------------------------------------------------------------------===//
#include "Cake/Conversion/Passes.h"
#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/ParseGuard.h"
#include "Cake/Verify/Passes.h"
#include "Cake/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <memory>

namespace {
mlir::DialectRegistry *registry = nullptr;

/// Runs one pass on `module` in a pass manager without threads, instrumentation or crash
/// recovery (a crash must reach libFuzzer).
void runPass(mlir::MLIRContext &context, mlir::ModuleOp module, std::unique_ptr<mlir::Pass> pass) {
  mlir::PassManager pm(&context);
  pm.enableVerifier(true);
  pm.addPass(std::move(pass));
  (void)pm.run(module);
}
} // namespace

/// This target is built with ASan, Debian's libMLIR is not. LLVM's BumpPtrAllocator poisons a new
/// slab from instrumented code (inline header code in cake's TUs) while libMLIR's uninstrumented
/// copies of the same inline code allocate from that slab without unpoisoning: a later memcpy of
/// such an object reads as "use-after-poison" though the memory is live. Ignore manual poisoning
/// (real heap errors are still caught: malloc'd memory and its redzones do not depend on it).
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  // libFuzzer's main reads no --version: answer it here, as every CAKE tool does.
  for (int i = 1; i < *argc; ++i)
    if (llvm::StringRef((*argv)[i]).ltrim('-') == "version") {
      printf("CAKE version " CAKE_VERSION " (cake-fuzz)\n");
      exit(0);
    }
  registry = new mlir::DialectRegistry();
  mlir::registerAllDialects(*registry);
  mlir::registerAllExtensions(*registry);
  registry->insert<mlir::cake::CakeDialect>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Known crashes of upstream MLIR (not cake's), which the tools report before parsing
  // (Cake/IR/ParseGuard.h): skipped so a long run gets past them.
  llvm::StringRef raw(reinterpret_cast<const char *>(data), size);
  if (mlir::cake::findUnparseableInput(raw))
    return -1; // rejected: not added to the corpus
  // A fresh context per input: nothing uniqued by one input leaks into the next.
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  // Diagnostics (parse errors, op verifier errors, findings) are expected; drop them.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  // The lexer needs a NUL-terminated buffer (as files have): copy the bytes into one.
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz-input"),
                               llvm::SMLoc());
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
  runPass(context, *module, mlir::cake::createCakeVerifyPass());
  runPass(context, *copy, mlir::cake::createCakeConvertToNVVMPass());
  return 0;
}
