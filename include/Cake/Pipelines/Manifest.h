//===- Manifest.h - the kernel manifest (host ABI) --------------*- C++ -*-===//
#ifndef CAKE_PIPELINES_MANIFEST_H
#define CAKE_PIPELINES_MANIFEST_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::cake {

/// Builds the manifest text of every cake.kernel in `module` (cake-level IR, before lowering),
/// through the host ABI's struct and writer (Cake/ABI/Manifest.h).
/// Emits a diagnostic and fails if the module has no kernel. With `hangTimeoutMs` > 0 (the
/// module is compiled with the hang-debug lowering) each kernel also lists its `hang_debug`
/// sites, so that cake-run can name the op a report points at.
FailureOr<std::string> buildManifest(ModuleOp module, unsigned hangTimeoutMs = 0);

/// Prints `expr` in the manifest's expression language, naming symbol i `symbols[i]`.
std::string printManifestExpr(AffineExpr expr, ArrayRef<StringRef> symbols);

} // namespace mlir::cake

#endif // CAKE_PIPELINES_MANIFEST_H
