//===- MemoryAccess.cpp - which memory each op touches --------------------===//
//
// CakeMemoryAccessOpInterface for every memory op, in one place: a new memory op adds its case
// here (and its ODS trait), and the manifest, the interface check and the analyses follow.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/MemoryAccess.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/HostNames.h"

using namespace mlir;
using namespace mlir::cake;

#include "Cake/IR/CakeInterfaces.cpp.inc"

namespace {
/// MemoryAccess::make, named for its proxy beside async().
MemoryAccess generic(Value buffer, AccessKind kind, ValueRange indices, int64_t width = 1) {
  return MemoryAccess::make(buffer, kind, indices, width);
}
MemoryAccess async(Value buffer, AccessKind kind, ValueRange indices) {
  MemoryAccess access = MemoryAccess::make(buffer, kind, indices);
  access.proxy = MemoryProxy::Async;
  return access;
}
/// Fragment stores write element pairs: unmasked, a pair is one aligned access; masked ones check
/// their alignment at run time.
int64_t pairWidth(bool masked) { return masked ? 1 : 2; }
/// ldmatrix / stmatrix: lanes 0 .. 8 * matrices - 1 each address one 16-byte row.
MemoryAccess matrixRows(MemoryAccess access, int64_t matrices) {
  auto type = cast<SmemType>(access.buffer.getType());
  int64_t elementBytes = std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
  access.tile = {16 / elementBytes};
  access.lanes = 8 * matrices;
  return access;
}
/// A wgmma operand: the rows x K tile at its (row, k) indices, read until its group retires.
MemoryAccess mmaTile(MemoryAccess access, int64_t rows, int64_t k) {
  access.tile = {rows, k};
  access.completion = AccessCompletion::WgmmaGroup;
  return access;
}
MemoryAccess unknownRegion(MemoryAccess access) {
  access.regionKnown = false;
  return access;
}
/// An access that is over at `completion` (on `barrier` for AccessCompletion::Barrier).
MemoryAccess completes(MemoryAccess access, AccessCompletion completion, Value barrier = {}) {
  access.completion = completion;
  access.completesOn = barrier;
  return access;
}
} // namespace

// cake.load, cake.store and the atomics declare their accesses in ODS (Cake_MemoryAccessOp).
void CpAsyncOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  // Both addresses must be aligned to the copy size, masked or not; a masked copy reads nothing
  // outside the tensor (and zero-fills the destination).
  accesses.push_back(completes(
      generic(getSource(), AccessKind::Read, getSourceIndices(), getWidth())
          .withBoundsMask(getMasked()),
      AccessCompletion::AsyncCopyGroup));
  accesses.push_back(completes(generic(getDest(), AccessKind::Write, getDestIndices(), getWidth()),
                               AccessCompletion::AsyncCopyGroup));
}
void LdmatrixOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(matrixRows(generic(getSource(), AccessKind::Read, getIndices()), getCount()));
}
void StmatrixOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(matrixRows(generic(getDest(), AccessKind::Write, getIndices()), getCount()));
}
void MmaSyncStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  // Operands: acc, dest, row, col.
  accesses.push_back(generic(getDest(), AccessKind::Write, getOperation()->getOperands().slice(2, 2),
                             pairWidth(getMasked()))
                         .withBoundsMask(getMasked()));
}
void TmaLoadOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(completes(async(getDescriptor(), AccessKind::Read, getCoords()),
                               AccessCompletion::Barrier, getBarrier()));
  accesses.push_back(completes(async(getDest(), AccessKind::Write, getDestIndices()),
                               AccessCompletion::Barrier, getBarrier()));
}
void TmaStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(completes(async(getSource(), AccessKind::Read, getSourceIndices()),
                               AccessCompletion::BulkGroup));
  accesses.push_back(completes(async(getDescriptor(), AccessKind::Write, getCoords()),
                               AccessCompletion::BulkGroup));
}
void Tcgen05MmaOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  for (auto [buffer, indices] : {std::pair(getA(), getAIndices()), std::pair(getB(), getBIndices())})
    accesses.push_back(completes(unknownRegion(async(buffer, AccessKind::Read, indices)),
                                 AccessCompletion::Tcgen05Commit));
}

void Tcgen05CpOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(completes(unknownRegion(async(getSrc(), AccessKind::Read, getSrcIndices())),
                               AccessCompletion::Tcgen05Commit));
}
void ClcTryCancelOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(completes(unknownRegion(async(getResponse(), AccessKind::Write, getIndices())),
                               AccessCompletion::Barrier, getBarriers()));
}
void ClcQueryOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getResponse(), AccessKind::Read, getIndices(), 4));
}

void WgmmaOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(mmaTile(async(getA(), AccessKind::Read, getAIndices()), 64, getK()));
  accesses.push_back(mmaTile(async(getB(), AccessKind::Read, getBIndices()), getN(), getK()));
}
void WgmmaRegsOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(mmaTile(async(getB(), AccessKind::Read, getBIndices()), getN(), getK()));
}
void WgmmaStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Write, getOperation()->getOperands().slice(2, 2),
                             pairWidth(getMasked()))
                         .withBoundsMask(getMasked()));
}
void WgmmaStoreRowsOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  if (getMin()) { // an atomic read-modify-write, as cake.atomic_min
    accesses.push_back(generic(getDest(), AccessKind::Read, getIndices()).asAtomic());
    accesses.push_back(generic(getDest(), AccessKind::Write, getIndices()).asAtomic());
    return;
  }
  accesses.push_back(generic(getDest(), AccessKind::Write, getIndices()));
}
void WgmmaRowArgReduceOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(unknownRegion(generic(getBias(), AccessKind::Read, getBiasIndices())));
}

SmallVector<MemoryAccess, 2> mlir::cake::getMemoryAccesses(Operation *op) {
  SmallVector<MemoryAccess, 2> accesses;
  if (auto iface = dyn_cast<MemoryAccessOpInterface>(op))
    iface.getMemoryAccesses(accesses);
  return accesses;
}

BlockArgument mlir::cake::getAccessedGlobalTensor(KernelOp kernel, Value buffer) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation())
    return nullptr;
  if (isa<GlobalTensorType>(arg.getType()))
    return arg;
  if (!isa<TmaType>(arg.getType()))
    return nullptr;
  auto describes = kernel.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "cake.describes");
  if (!describes)
    return nullptr;
  for (BlockArgument other : kernel.getBody().getArguments())
    if (isa<GlobalTensorType>(other.getType()) &&
        getParamName(kernel, other.getArgNumber()) == describes.getValue())
      return other;
  return nullptr;
}

TensorUse mlir::cake::getTensorUse(KernelOp kernel, BlockArgument tensor) {
  TensorUse use;
  kernel.walk([&](MemoryAccessOpInterface op) {
    for (const MemoryAccess &access : getMemoryAccesses(op)) {
      if (getAccessedGlobalTensor(kernel, access.buffer) != tensor)
        continue;
      Operation *&first = access.isWrite() ? use.firstWrite : use.firstRead;
      if (!first)
        first = op;
      (access.isWrite() ? use.writes : use.reads) = true;
      use.maxWidth = std::max(use.maxWidth, access.width);
    }
  });
  return use;
}

Operation *mlir::cake::findGlobalMemoryAccess(Operation *op) {
  Operation *found = nullptr;
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    for (const MemoryAccess &access : getMemoryAccesses(inner))
      if (isa<GlobalTensorType, TmaType>(access.buffer.getType())) {
        found = inner;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return found;
}
