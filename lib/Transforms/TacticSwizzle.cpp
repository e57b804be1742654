//===- TacticSwizzle.cpp - tactic: swizzle shared buffers of plain loads/stores ===//
//
// Adds `swizzle = bytes` to the unswizzled, unpadded shared buffers (rank >= 2) that only
// cake.load / cake.store touch (the buffers cake-tactic-pad considers): the lowering's XOR then
// spreads a column walk over the banks without the shared memory a pad costs.
//
// Why the results cannot change: loads and stores of shared buffers all compute their address
// with AccessBuilder::smemAddress (lib/Conversion/ConversionUtils.h): the row-major byte offset
// `o`, then `o ^ (((o >> 7) & (bytes / 16 - 1)) << 4)`. That XOR flips only bits 4..log2(bytes)-1,
// as a function of bits 7 and up, which it does not change: a bijection (its own inverse) that
// keeps each byte's offset within its 16-byte chunk and the byte inside its `bytes`-aligned block:
//  - a buffer whose size is a multiple of `bytes` maps onto itself (no access leaves it);
//  - an access moves as a whole iff its bytes lie in one 16-byte chunk (one XOR mask). The op
//    verifier caps accesses at 16 bytes (a power of two), so an access aligned to its size does:
//    scalars always are (offsets are element multiples); a vector access is when its innermost
//    index is a multiple of its width (rows are 16-byte multiples, the innermost extent a multiple
//    of the width). The lowering already emits such accesses with `align = size`, so an
//    unswizzled kernel relies on that too; the pass asks for a proof: the index's known low bits
//    in every thread (IndexResidues, over the ThreadModel).
// Every user of a retyped buffer is a load or store, so every access uses the same permutation:
// what a store writes at logical indices, a load at the same indices reads back.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"
#include "TacticUtils.h"
#include "Cake/Analysis/IndexResidues.h"
#include "Cake/Analysis/ThreadModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cake;

namespace {
/// The known low bits of indices, one residue model per kernel (built when first asked).
class KernelResidues {
public:
  /// Whether `index` is a multiple of 2^bits in every thread of its kernel.
  bool multipleOfPowerOfTwo(Value index, unsigned bits) {
    Operation *kernel = index.getParentRegion()->getParentOfType<KernelOp>();
    std::unique_ptr<Models> &models = perKernel[kernel];
    if (!models)
      models = std::make_unique<Models>(cast<KernelOp>(kernel));
    return llvm::all_of(models->residues.get(index),
                        [&](const Residue &r) { return r.zeros() >= bits; });
  }

private:
  struct Models {
    explicit Models(KernelOp kernel) : threads(kernel), residues(threads) {}
    ThreadModel threads;
    ResidueModel residues;
  };
  llvm::DenseMap<Operation *, std::unique_ptr<Models>> perKernel;
};

/// Why `alloc` cannot be swizzled by `bytes` ("" when it can).
std::string reason(AllocSmemOp alloc, int64_t bytes, KernelResidues &residues) {
  SmemType type = alloc.getBuffer().getType();
  std::string span = std::to_string(int64_t(bytes));
  if (type.getRank() < 2)
    return "rank 1 (no rows to swizzle)";
  if (type.getSwizzle())
    return "already swizzled";
  if (type.getPad())
    return "padded (a buffer has a pad or a swizzle, not both)";
  // The type verifier's condition: the swizzle permutes 16-byte chunks of a row.
  int64_t rowBytes = type.getShape().back() * type.getElementBytes();
  if (rowBytes % 16 != 0)
    return std::to_string(rowBytes) + "-byte rows (a swizzled row must be a multiple of 16 bytes)";
  // The XOR permutes each `bytes`-aligned block: a partial last block would send accesses
  // past the end of the buffer.
  if (type.getSizeInBytes() % bytes != 0)
    return std::to_string(type.getSizeInBytes()) + " bytes, not a multiple of the " + span +
           "-byte swizzle span (accesses near the end would leave the buffer)";
  bool used = false;
  for (Operation *user : alloc.getBuffer().getUsers()) {
    used = true;
    Type registerType;
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(user)) {
      registerType = load.getResult().getType();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<StoreOp>(user)) {
      registerType = store.getValue().getType();
      indices = store.getIndices();
    } else {
      // TMA, wgmma, ldmatrix/stmatrix, cp.async: layouts fixed by descriptors or instruction
      // shapes (or, for cp.async, not worth the risk); only plain accesses are retyped.
      return ("used by '" + user->getName().getStringRef() +
              "' (only buffers that just cake.load/cake.store touch are swizzled)")
          .str();
    }
    auto vector = dyn_cast<VectorType>(registerType);
    if (!vector)
      continue; // a scalar never crosses a 16-byte chunk
    int64_t width = vector.getNumElements();
    int64_t accessBytes = width * type.getElementBytes();
    if (accessBytes > 16 || !llvm::isPowerOf2_64(accessBytes))
      return "a " + std::to_string(accessBytes) +
             "-byte access (the swizzle moves 16-byte chunks apart)";
    if (!residues.multipleOfPowerOfTwo(indices.back(), llvm::Log2_64(width))) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "a " << registerType << " access whose innermost index is not provably a multiple of "
         << width << " (it could cross a 16-byte chunk, which the swizzle moves)";
      return text;
    }
  }
  if (!used)
    return "unused";
  return "";
}
} // namespace

std::string CakeTacticSwizzleOp::checkOptions(const Options &options) {
  int64_t bytes = options.bytes;
  if (!llvm::is_contained({32, 64, 128}, bytes))
    return "expected bytes 32, 64 or 128, got " + std::to_string(bytes);
  return "";
}

LogicalResult CakeTacticSwizzleOp::applyTactic(RewriterBase &, Operation *root,
                                               const Options &options) {
  int64_t bytes = options.bytes;
  KernelResidues residues;
  // Same size, but a swizzled buffer is aligned to 8 rows of the span (up to 1 KiB), which can
  // add alignment gaps.
  return retypeSharedBuffers(
      root, passArgument,
      "the swizzled buffers' " + std::to_string(8 * bytes) + "-byte alignment",
      [&](AllocSmemOp alloc) { return reason(alloc, bytes, residues); },
      [&](SmemType type) {
        return SmemType::get(type.getContext(), type.getShape(), type.getElementType(), bytes, 0);
      });
}
