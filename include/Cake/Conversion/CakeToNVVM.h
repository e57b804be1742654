//===- CakeToNVVM.h - cake to gpu/nvvm conversion ---------------*- C++ -*-===//
#ifndef CAKE_CONVERSION_CAKETONVVM_H
#define CAKE_CONVERSION_CAKETONVVM_H

#include "Cake/ABI/HangLayout.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::cake {
class KernelOp;

/// Maps !cake.tensor to !llvm.ptr<1> and !cake.smem to !llvm.ptr<3>; other types are kept.
class CakeTypeConverter : public TypeConverter {
public:
  explicit CakeTypeConverter(MLIRContext *context);
};

/// The width `index` is lowered to for the kernels of `module`: `requested` when non-zero (a
/// tool's --index-bitwidth), else the kernels' own `index_bitwidth` (every kernel of a module the
/// same), else 64. A bad request or kernels that disagree are errors at the first kernel.
FailureOr<unsigned> resolveIndexBitwidth(ModuleOp module, unsigned requested);

/// The width of `index` where `op` is, from the data layout (cake-convert-to-nvvm puts
/// `#dlti.dl_spec<index = 32>` on the gpu.module of 32-bit kernels; convert-gpu-to-nvvm reads it).
unsigned getLoweredIndexBitwidth(Operation *op);

/// The attribute on a lowered gpu.func that lists its problem-size symbols (its trailing i64
/// parameters), so that patterns can find a symbol's value.
constexpr llvm::StringLiteral kSymbolsAttrName = "cake.symbols";
/// The kernel's `specialize` on its gpu.func: the symbols whose value is a compile-time constant.
constexpr llvm::StringLiteral kSpecializeAttrName = "cake.specialize";

/// LLVM's NVPTX backend aborts the process (LLVM ERROR) on a PTX version too old for the chip
/// and prints to stderr on features it does not know: only `+ptxNN` at or above CAKE's floor
/// (PTX 8.0; 8.6 for sm_100a) is accepted. Empty features are the default. Errors go to `anchor`.
LogicalResult verifyPtxFeatures(llvm::StringRef chip, llvm::StringRef features,
                                Operation *anchor);

/// The debug lowering against hangs (cake-convert-to-nvvm{hang-timeout-ms=N}): the global that
/// holds the device address of the host-mapped report buffer, the claim word the first expired
/// thread takes, the attribute {site id, timeout} the pass puts on each bounded wait, and the
/// value of the report's first word once a record is complete. docs/Runner.md has the layout.
/// The layout the host reads (the symbols, the magic, the barrier table) is the host ABI's,
/// Cake/ABI/HangLayout.h, which cake-run includes too.
constexpr llvm::StringLiteral kHangReportSymbol = ::cake::abi::kHangReportSymbol;
constexpr llvm::StringLiteral kHangClaimSymbol = ::cake::abi::kHangClaimSymbol;
constexpr llvm::StringLiteral kHangSiteAttrName = "cake.hang_site";
constexpr uint32_t kHangReportMagic = ::cake::abi::kHangReportMagic;
constexpr int64_t kHangTableOffset = ::cake::abi::kHangTableOffsetBytes;
constexpr int64_t kHangTableWarpsPerSm = ::cake::abi::kHangTableWarpsPerSm;
constexpr int64_t kHangTableSms = ::cake::abi::kHangTableSms;

/// The waits the debug lowering bounds (mbarrier phases) or marks (block, named and cluster
/// barriers), in pre-order under `root`; a wait's site id is its position here (the manifest's
/// hang_debug sites use the same numbering).
llvm::SmallVector<Operation *> collectHangSites(Operation *root);

/// Patterns lowering cake ops inside a lowered kernel (ids, memory, barriers, reductions).
void populateCakeToNVVMPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);

/// Replaces `kernel` by a gpu.func kernel in `gpuModule` with the manifest's ABI; the body moves
/// over, problem sizes become the trailing i64 parameters. The cake ops inside stay for the patterns.
LogicalResult convertKernelToGPUFunc(KernelOp kernel, Operation *gpuModule);
} // namespace mlir::cake

#endif // CAKE_CONVERSION_CAKETONVVM_H
