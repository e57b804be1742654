//===- Compile.h - cake IR to PTX and cubin in one call ---------*- C++ -*-===//
//
// The compile path shared by cake-translate and the C API (and so the Python bindings): lower
// cake-level IR with cake-lower-to-nvvm, serialize to PTX, assemble with ptxas. Every failure is
// an MLIR diagnostic, so each host decides where diagnostics go.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_PIPELINES_COMPILE_H
#define CAKE_PIPELINES_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include <string>

namespace mlir::cake {

struct CompileOptions {
  /// Target chip; empty: the kernels' target.
  std::string chip;
  /// PTX features; empty: the pipeline's default.
  std::string features;
  /// LLVM optimization level (0 to 3).
  unsigned optLevel = 3;
  /// The debug lowering against hangs: bound mbarrier waits by this many ms (0: off).
  unsigned hangTimeoutMs = 0;
  /// Width of `index` in the lowered kernels: 64, or 32 with the manifest bounding every
  /// tensor's offsets below 2^30 (cake-lower-to-nvvm's index-bitwidth); 0: the kernels'
  /// index_bitwidth attribute, else 64.
  unsigned indexBitwidth = 0;
  /// Problem sizes to fix at compile time, "D=53,K=8": each kernel that declares the symbol gets
  /// it in its `specialize` (replacing the value it had); empty: the kernels' own.
  std::string specialize;
  /// Also assemble a cubin with ptxas.
  bool assemble = false;
  /// ptxas to use; empty: findPtxas's search.
  std::string ptxasPath;
  /// compile(): write the manifest even of a module without cake kernels, which is an error
  /// (cake-translate --manifest on lowered IR); otherwise such a module has an empty manifest.
  bool requireManifest = false;
};

/// Makes `chip` every kernel's target before anything else reads the module (the manifest, the
/// lowering), then checks the kernels against it with the target rules (cake-verify-target):
/// an op the chip lacks is a `target.*` finding at the op, not an error inside NVVM. An empty
/// chip, or a module without cake kernels (already lowered), is left as it is.
LogicalResult retargetKernels(ModuleOp module, llvm::StringRef chip);

/// Adds "D=53,K=8" to the `specialize` of every kernel that declares the symbol. A malformed list,
/// a negative size or a symbol no kernel declares is an error at the first kernel.
LogicalResult specializeKernels(ModuleOp module, llvm::StringRef sizes);

struct CompiledKernels {
  std::string ptx;
  /// The cubin bytes; empty unless CompileOptions::assemble.
  std::string cubin;
  /// ptxas's resource report (-v); empty unless CompileOptions::assemble.
  std::string ptxasReport;
};

/// Lowers `module` in place with cake-lower-to-nvvm when it holds cake kernels; a module that
/// already holds a gpu.module is left as is. Emits a diagnostic and fails on anything else.
LogicalResult lowerForSerialization(ModuleOp module, const CompileOptions &options);

/// Fails, naming the first op at its location, when a gpu.module still holds an op outside the
/// llvm, nvvm and gpu dialects (one no conversion took; the LLVM IR translation would reject it).
LogicalResult checkFullyLowered(ModuleOp module);

/// PTX (and, with `options.assemble`, the cubin) of a module lowered by lowerForSerialization.
FailureOr<CompiledKernels> serializeKernels(ModuleOp lowered, const CompileOptions &options);

/// How far compile() goes.
enum class CompileStage { Manifest, LLVMIR, PTX, Cubin };

/// What compile() produced, up to its last stage.
struct CompileOutput {
  /// The manifest (docs/Manifest.md) of the module's cake kernels; empty for a module that holds
  /// none (already lowered IR).
  std::string manifest;
  /// The lowered module as LLVM IR (stage LLVMIR only).
  std::string llvmIR;
  /// PTX (stages PTX and Cubin), the cubin and ptxas's report (stage Cubin).
  CompiledKernels kernels;
};

/// The one compile sequence behind cake-translate and the C API (and so the Python bindings):
/// retarget to `options.chip` and check the target rules, write the manifest, lower with
/// cake-lower-to-nvvm, then serialize to LLVM IR, PTX or a cubin, stopping after `last`
/// (`options.assemble` is ignored: the stage says it). Works on `module` in place (callers that
/// keep their module pass a clone). Stage Manifest (or `requireManifest`) on a module without
/// cake kernels fails with the manifest's error; every failure is an MLIR diagnostic.
FailureOr<CompileOutput> compile(ModuleOp module, const CompileOptions &options,
                                 CompileStage last);

} // namespace mlir::cake

#endif // CAKE_PIPELINES_COMPILE_H
