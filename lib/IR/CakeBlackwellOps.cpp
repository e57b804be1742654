//===- CakeBlackwellOps.cpp - verifiers of the tcgen05 / tensor-memory ops ===//
//
// What each op checks on its own. The protocol across ops (every allocation freed once, after
// its last use; no accumulate into unwritten columns; reads after a commit's phase) is
// cake-verify-tmem's.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
  return success();
}

/// A pair op (`what`: "allocation (...)", "commit") needs CTA pairs: a cluster whose x extent is
/// even.
static LogicalResult requirePairCluster(Operation *op, StringRef what) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && kernel.getClusterDims()[0] % 2 != 0)
    return op->emitOpError() << "expected a kernel whose cluster has an even x extent for a pair "
                             << what << ", got " << kernel.getClusterDims()[0];
  return success();
}

LogicalResult TmemAllocOp::verify() {
  if (failed(requireTopLevel(*this)))
    return failure();
  if (getTmem().getType().getPair() &&
      failed(requirePairCluster(
          *this, "allocation (CTA pairs are cluster ranks 2i and 2i + 1)")))
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
  if (failed(verifyMmaOperands(*this, a, getAIndices().size(), b, getBIndices().size(),
                               /*fp8=*/true)))
    return failure();
  int64_t n = getN();
  if (n > 256)
    return emitOpError() << "expected an accumulator of at most 256 columns (the MMA's N), got "
                         << n;
  if (a.getShape()[a.getRank() - 2] < 128)
    return emitOpError() << "expected A to hold at least 128 rows (the MMA's M)";
  int64_t bRows = getBRowsPerBlock();
  if (b.getShape()[b.getRank() - 2] < bRows)
    return emitOpError() << "expected B to hold at least " << (bRows == n ? "N" : "N/2")
                         << " = " << bRows << " rows";
  return success();
}

LogicalResult Tcgen05CommitOp::verify() {
  return getPair() ? requirePairCluster(*this, "commit") : success();
}

LogicalResult Tcgen05CpOp::verify() {
  SmemType src = getSrc().getType();
  if (!src.getElementType().isF32())
    return emitOpError() << "expected an f32 source (32-bit columns), got "
                         << src.getElementType();
  if (failed(verifySwizzledOperand(*this, "the source", src, getSrcIndices().size())))
    return failure();
  if (src.getShape()[src.getRank() - 2] < 128)
    return emitOpError() << "expected the source to hold at least 128 rows (one per lane)";
  if (getTmem().getType().getPair())
    return emitOpError() << "expected a one-block allocation: copies into a pair allocation "
                            "(cta_group::2) are not supported";
  if (std::optional<int64_t> column = getConstantIntValue(getColumn());
      column && (*column < 0 || *column + kColumns > getTmem().getType().getColumns()))
    return emitOpError() << "expected columns " << *column << " to " << *column + kColumns - 1
                         << " inside the allocation's " << getTmem().getType().getColumns();
  return success();
}

/// The answer buffer of cluster launch control: 16 bytes (4 x i32 innermost), indexed by its
/// leading dimensions.
static LogicalResult verifyClcResponse(Operation *op, SmemType type, size_t indices) {
  if (!type.getElementType().isInteger(32) || type.getShape().back() != 4 || type.getSwizzle())
    return op->emitOpError() << "expected an answer buffer whose innermost dimension is 4 x i32 "
                                "(16 bytes, no swizzle), got "
                             << type;
  if (indices != type.getRank() - 1)
    return op->emitOpError() << "expected " << type.getRank() - 1
                             << " indices (the answer's leading dimensions), got " << indices;
  return success(); // the target: cake-verify-target (target.cluster-launch-control)
}

LogicalResult ClcTryCancelOp::verify() {
  if (failed(verifyClcResponse(*this, getResponse().getType(), getIndices().size())))
    return failure();
  auto kernel = getOperation()->getParentOfType<KernelOp>();
  if (getMulticast() && kernel && llvm::product_of(kernel.getClusterDims()) == 1)
    return emitOpError() << "expected a kernel with a cluster for a multicast answer";
  return success();
}

LogicalResult ClcQueryOp::verify() {
  return verifyClcResponse(*this, getResponse().getType(), getIndices().size());
}

/// A row access of C columns (tcgen05.ld / st .32x32b.xC): C a power of two, at most 128 and at
/// most the allocation's columns.
static LogicalResult verifyRowAccess(Operation *op, VectorType registers, TmemType tmem) {
  int64_t count = registers.getNumElements();
  if (count > 128 || !llvm::isPowerOf2_64(count))
    return op->emitOpError() << "expected a power of two of at most 128 columns, got " << count;
  if (count > tmem.getColumns())
    return op->emitOpError() << "expected at most the allocation's " << tmem.getColumns()
                             << " columns, got " << count;
  return success();
}

LogicalResult TmemLoadOp::verify() {
  return verifyRowAccess(*this, getResult().getType(), getTmem().getType());
}

LogicalResult TmemStoreOp::verify() {
  return verifyRowAccess(*this, getValue().getType(), getTmem().getType());
}
