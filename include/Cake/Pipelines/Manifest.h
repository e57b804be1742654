//===- Manifest.h - the kernel manifest (host ABI) --------------*- C++ -*-===//
#ifndef CAKE_PIPELINES_MANIFEST_H
#define CAKE_PIPELINES_MANIFEST_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::cake {

/// The manifest format version written by buildManifest (docs/Manifest.md).
constexpr int64_t kManifestVersion = 1;

/// Builds the manifest of every cake.kernel in `module` (cake-level IR, before lowering).
/// Emits a diagnostic and fails if the module has no kernel. With `hangTimeoutMs` > 0 (the
/// module is compiled with the hang-debug lowering) each kernel also lists its `hang_debug`
/// sites, so that cake-run can name the op a report points at.
FailureOr<llvm::json::Value> buildManifest(ModuleOp module, unsigned hangTimeoutMs = 0);

/// Prints `expr` in the manifest's expression language, naming symbol i `symbols[i]`.
std::string printManifestExpr(AffineExpr expr, ArrayRef<StringRef> symbols);

} // namespace mlir::cake

#endif // CAKE_PIPELINES_MANIFEST_H
