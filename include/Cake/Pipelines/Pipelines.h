//===- Pipelines.h - named cake pipelines -----------------------*- C++ -*-===//
#ifndef CAKE_PIPELINES_PIPELINES_H
#define CAKE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::cake {

struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip; default: the kernels' target"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features; default +ptx80 (+ptx86 for sm_100a)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{*this, "opt-level",
                                         llvm::cl::desc("LLVM optimization level (0 to 3)"),
                                         llvm::cl::init(3)};
  PassOptions::Option<unsigned> hangTimeoutMs{
      *this, "hang-timeout-ms",
      llvm::cl::desc("Debug lowering: bound every mbarrier wait by N ms, then report and trap "
                     "(0: off)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Width of `index` in the lowered kernels: 64, or 32 where every tensor's "
                     "offsets stay below 2^30 (the manifest then says so as constraints the "
                     "host checks); 0: the kernels' index_bitwidth, else 64"),
      llvm::cl::init(0)};
};

/// cake -> gpu.module of LLVM-dialect NVVM kernels with an #nvvm.target, ready for
/// gpu-module-to-binary. Fails if a pass it needs is not registered.
LogicalResult buildLowerToNVVMPipeline(OpPassManager &pm, const LowerToNVVMOptions &options);

/// Registers `cake-lower-to-nvvm` and `cake-verify` with the pass registry (cake-opt --help
/// lists them).
void registerCakePipelines();

} // namespace mlir::cake

#endif // CAKE_PIPELINES_PIPELINES_H
