//===- TacticPad.cpp - tactic: pad shared buffers of plain loads/stores ----===//
//
// Adds `pad = elements` to the unswizzled, unpadded shared buffers (rank >= 2) that only
// cake.load / cake.store touch, keeping every access aligned and the kernel within its target's
// shared-memory limit. Buffers used by TMA, wgmma, ldmatrix or cp.async are skipped (remark).
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"
#include "TacticUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cake;

namespace {
/// Why `alloc` cannot be padded by `elements` ("" when it can).
std::string reason(AllocSmemOp alloc, int64_t elements) {
  SmemType type = alloc.getBuffer().getType();
  if (type.getRank() < 2)
    return "rank 1 (no rows to pad)";
  if (type.getSwizzle())
    return "swizzled";
  if (type.getPad())
    return "already padded";
  int64_t widest = 1;
  bool used = false;
  for (Operation *user : alloc.getBuffer().getUsers()) {
    used = true;
    if (auto load = dyn_cast<LoadOp>(user))
      widest = std::max(widest, load.getWidth());
    else if (auto store = dyn_cast<StoreOp>(user))
      widest = std::max(widest, store.getWidth());
    else
      return ("used by '" + user->getName().getStringRef() +
              "' (only cake.load/cake.store can address a padded buffer)")
          .str();
  }
  if (!used)
    return "unused";
  if (elements % widest != 0)
    return "a pad of " + std::to_string(elements) + " elements would misalign its " +
           std::to_string(widest) + "-wide accesses";
  return "";
}
} // namespace

std::string CakeTacticPadOp::checkOptions(const Options &options) {
  int64_t elements = options.elements;
  if (elements < 1)
    return "expected elements >= 1, got " + std::to_string(elements);
  return "";
}

LogicalResult CakeTacticPadOp::applyTactic(RewriterBase &, Operation *root,
                                           const Options &options) {
  int64_t elements = options.elements;
  return retypeSharedBuffers(
      root, passArgument, "padding",
      [&](AllocSmemOp alloc) { return reason(alloc, elements); },
      [&](SmemType type) {
        return SmemType::get(type.getContext(), type.getShape(), type.getElementType(), 0,
                             elements);
      });
}
