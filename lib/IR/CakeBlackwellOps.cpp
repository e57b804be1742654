//===- CakeBlackwellOps.cpp - verifiers of the tcgen05 / tensor-memory ops ===//
//
// What each op checks on its own. The protocol across ops (every allocation freed once, after
// its last use; no accumulate into unwritten columns; reads after a commit's phase) is
// cake-verify-tmem's.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cake;

/// The block-collective ops synchronize the whole block: only at the kernel body's top level do
/// all threads reach them.
static LogicalResult requireTopLevel(Operation *op) {
  if (!isa<KernelOp>(op->getParentOp()))
    return op->emitOpError() << "is block-collective: expected it at the top level of the kernel "
                                "body, not inside "
                             << op->getParentOp()->getName();
  return requireTargetFeature(op, FeatureTcgen05, "tensor memory");
}

LogicalResult TmemAllocOp::verify() {
  if (failed(requireTopLevel(*this)))
    return failure();
  // The running total up to this allocation: the one that crosses the limit is reported.
  int64_t columns = 0;
  for (Operation &op : *getOperation()->getBlock()) {
    if (auto alloc = dyn_cast<TmemAllocOp>(op))
      columns += alloc.getTmem().getType().getColumns();
    if (&op == getOperation())
      break;
  }
  if (columns > 512)
    return emitOpError() << "the kernel's allocations take " << columns
                         << " columns of tensor memory, more than the 512 an SM has";
  return success();
}

LogicalResult TmemDeallocOp::verify() { return requireTopLevel(*this); }

LogicalResult Tcgen05MmaOp::verify() {
  SmemType a = getA().getType(), b = getB().getType();
  if (failed(verifyMmaOperands(*this, a, getAIndices().size(), b, getBIndices().size())))
    return failure();
  int64_t n = getN();
  if (n > 256)
    return emitOpError() << "expected an accumulator of at most 256 columns (the MMA's N), got "
                         << n;
  if (a.getShape()[a.getRank() - 2] < 128)
    return emitOpError() << "expected A to hold at least 128 rows (the MMA's M)";
  if (b.getShape()[b.getRank() - 2] < n)
    return emitOpError() << "expected B to hold at least N = " << n << " rows";
  return requireTargetFeature(*this, FeatureTcgen05, "tcgen05.mma");
}

/// A row access of C columns (tcgen05.ld / st .32x32b.xC): C a power of two, at most 128 and at
/// most the allocation's columns.
static LogicalResult verifyRowAccess(Operation *op, VectorType registers, TmemType tmem,
                                     StringRef what) {
  int64_t count = registers.getNumElements();
  if (count > 128 || !llvm::isPowerOf2_64(count))
    return op->emitOpError() << "expected a power of two of at most 128 columns, got " << count;
  if (count > tmem.getColumns())
    return op->emitOpError() << "expected at most the allocation's " << tmem.getColumns()
                             << " columns, got " << count;
  return requireTargetFeature(op, FeatureTcgen05, what);
}

LogicalResult TmemLoadOp::verify() {
  return verifyRowAccess(*this, getResult().getType(), getTmem().getType(), "tcgen05.ld");
}

LogicalResult TmemStoreOp::verify() {
  return verifyRowAccess(*this, getValue().getType(), getTmem().getType(), "tcgen05.st");
}
