//===- ABI.cpp - C API over the host ABI (Cake/ABI) -----------------------===//
#include "Cake-c/ABI.h"

#include "Cake/ABI/Manifest.h"

#include "mlir/CAPI/Support.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace cake::abi;
using llvm::json::Array;
using llvm::json::Object;

namespace {

SymbolMap toSizes(intptr_t count, const MlirStringRef *names, const int64_t *values) {
  SymbolMap sizes;
  for (intptr_t i = 0; i < count; ++i)
    sizes[unwrap(names[i]).str()] = values[i];
  return sizes;
}

void reply(const Object &object, MlirStringCallback callback, void *userData) {
  std::string text = llvm::formatv("{0}", llvm::json::Value(Object(object))).str();
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

} // namespace

void cakeManifestCheckSizes(MlirStringRef manifestText, MlirStringRef kernelName, intptr_t numSizes,
                            const MlirStringRef *names, const int64_t *values,
                            MlirStringCallback callback, void *userData) {
  Object out{{"ok", false},
             {"error", nullptr},
             {"kernel", nullptr},
             {"grid", nullptr},
             {"block", nullptr}};
  std::string error;
  Manifest manifest;
  llvm::StringRef text = unwrap(manifestText);
  const KernelDesc *kernel = nullptr;
  ResolvedLaunch launch;
  if (parseManifestText(std::string_view(text.data(), text.size()), manifest, error) &&
      (kernel = findKernel(manifest, unwrap(kernelName).str(), error))) {
    out["kernel"] = kernel->entry;
    out["block"] = Array(kernel->block);
    if (resolveLaunch(*kernel, toSizes(numSizes, names, values), launch, error)) {
      out["ok"] = true;
      out["grid"] = Array(launch.grid);
    }
  }
  if (!error.empty() && !out.getBoolean("ok").value_or(false))
    out["error"] = error;
  reply(out, callback, userData);
}

void cakeManifestEvaluate(MlirStringRef expression, intptr_t numSizes, const MlirStringRef *names,
                          const int64_t *values, MlirStringCallback callback, void *userData) {
  llvm::StringRef text = unwrap(expression);
  std::string_view source(text.data(), text.size());
  Expr expr;
  std::string error;
  int64_t value = 0;
  // A constraint (one comparison) or an arithmetic expression, whichever parses.
  bool parsed = Expr::parseConstraint(source, expr, error) || Expr::parse(source, expr, error);
  if (parsed && expr.evaluate(toSizes(numSizes, names, values), value, error))
    return reply(Object{{"value", value}}, callback, userData);
  reply(Object{{"error", error}}, callback, userData);
}
