//===- Cost.cpp - C API: the cost report ------------------------------------===//
#include "Cake-c/Compile.h"
#include "DiagnosticCollector.h"

#include "Cake/Analysis/Passes.h"
#include "Cake/Analysis/IRJson.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::cake;
using capi::CollectDiagnostics;

void cakeModuleToJson(MlirModule module, MlirStringCallback callback, void *userData) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << getIRAsJson(unwrap(module).getOperation());
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

MlirLogicalResult cakeCost(MlirModule module, MlirStringRef sizes, MlirStringRef profile,
                           CakeDiagnostics diagnostics, MlirStringCallback callback,
                           void *userData) {
  ModuleOp moduleOp = unwrap(module);
  CollectDiagnostics collect(moduleOp.getContext(), diagnostics);
  // The pass writes its JSON report to a file: a private temporary one.
  llvm::SmallString<128> reportPath;
  if (llvm::sys::fs::createTemporaryFile("cake-cost", "json", reportPath))
    return wrap(moduleOp.emitError("cannot create a temporary file for the cost report"));
  auto cleanup = llvm::scope_exit([&] { llvm::sys::fs::remove(reportPath); });

  CakePrintCostPassOptions options;
  options.sizes = unwrap(sizes).str();
  options.profile = unwrap(profile).str();
  options.json = reportPath.str().str();
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(moduleOp->clone());
  PassManager pm(moduleOp.getContext());
  pm.addPass(createCakePrintCostPass(options));
  if (failed(pm.run(*copy)))
    return wrap(failure());
  auto report = llvm::MemoryBuffer::getFile(reportPath);
  if (!report)
    return wrap(moduleOp.emitError("the cost model wrote no report: ")
                << report.getError().message());
  llvm::StringRef text = (*report)->getBuffer();
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
  return wrap(success());
}
