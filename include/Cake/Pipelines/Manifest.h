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
/// With `indexBitwidth` 32, each kernel states it (index_bits) and every tensor's largest element
/// offset is bounded below 2^30 by a constraint; a tensor whose static extents break the bound
/// is an error at the kernel.
FailureOr<std::string> buildManifest(ModuleOp module, unsigned hangTimeoutMs = 0,
                                     unsigned indexBitwidth = 64);

/// Prints `expr` in the manifest's expression language, naming symbol i `symbols[i]`.
std::string printManifestExpr(AffineExpr expr, ArrayRef<StringRef> symbols);

} // namespace mlir::cake

#endif // CAKE_PIPELINES_MANIFEST_H
