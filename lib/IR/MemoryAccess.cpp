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
MemoryAccess generic(Value buffer, AccessKind kind, ValueRange indices, int64_t width = 1) {
  return MemoryAccess{buffer, kind, MemoryProxy::Generic, width, indices};
}
MemoryAccess async(Value buffer, AccessKind kind, ValueRange indices) {
  return MemoryAccess{buffer, kind, MemoryProxy::Async, 1, indices};
}
/// Fragment stores write element pairs: unmasked, a pair is one aligned access; masked ones check
/// their alignment at run time.
int64_t pairWidth(bool masked) { return masked ? 1 : 2; }
} // namespace

void LoadOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getSource(), AccessKind::Read, getIndices(), getWidth()));
}
void StoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Write, getIndices(), getWidth()));
}
void AtomicAddOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Read, getIndices(), 1));
  accesses.push_back(generic(getDest(), AccessKind::Write, getIndices(), 1));
}
void CpAsyncOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  // Both addresses must be aligned to the copy size, masked or not.
  accesses.push_back(generic(getSource(), AccessKind::Read, getSourceIndices(), getWidth()));
  accesses.push_back(generic(getDest(), AccessKind::Write, getDestIndices(), getWidth()));
}
void LdmatrixOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getSource(), AccessKind::Read, getIndices()));
}
void StmatrixOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Write, getIndices()));
}
void MmaSyncStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  // Operands: acc, dest, row, col.
  accesses.push_back(generic(getDest(), AccessKind::Write, getOperation()->getOperands().slice(2, 2),
                             pairWidth(getMasked())));
}
void TmaLoadOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getDescriptor(), AccessKind::Read, getCoords()));
  accesses.push_back(async(getDest(), AccessKind::Write, getDestIndices()));
}
void TmaStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getSource(), AccessKind::Read, getSourceIndices()));
  accesses.push_back(async(getDescriptor(), AccessKind::Write, getCoords()));
}
void Tcgen05MmaOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getA(), AccessKind::Read, getAIndices()));
  accesses.push_back(async(getB(), AccessKind::Read, getBIndices()));
}

void Tcgen05CpOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getSrc(), AccessKind::Read, getSrcIndices()));
}
void ClcTryCancelOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getResponse(), AccessKind::Write, getIndices()));
}
void ClcQueryOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getResponse(), AccessKind::Read, getIndices(), 4));
}

void WgmmaOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getA(), AccessKind::Read, getAIndices()));
  accesses.push_back(async(getB(), AccessKind::Read, getBIndices()));
}
void WgmmaRegsOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(async(getB(), AccessKind::Read, getBIndices()));
}
void WgmmaStoreOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Write, getOperation()->getOperands().slice(2, 2),
                             pairWidth(getMasked())));
}
void WgmmaStoreRowsOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getDest(), AccessKind::Write, getIndices()));
}
void WgmmaRowArgReduceOp::getMemoryAccesses(SmallVectorImpl<MemoryAccess> &accesses) {
  accesses.push_back(generic(getBias(), AccessKind::Read, getBiasIndices()));
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
