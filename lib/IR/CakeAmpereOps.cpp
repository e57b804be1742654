//===- CakeAmpereOps.cpp - verifiers of cp.async, ldmatrix/stmatrix, mma.sync ===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cake;



/// I64Attr getters return uint64_t: read the signed value so negatives print as such.
static int64_t signedValue(IntegerAttr attr) { return attr.getValue().getSExtValue(); }

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

int64_t CpAsyncOp::getWidth() {
  return signedValue(getBytesAttr()) / getElementBytes(getSource().getType().getElementType());
}

LogicalResult CpAsyncOp::verify() {
  GlobalTensorType source = getSource().getType();
  SmemType dest = getDest().getType();
  int64_t bytes = signedValue(getBytesAttr());
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError() << "expected 4, 8 or 16 bytes, got " << bytes;
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "expected source and destination of one element type, got "
                         << source.getElementType() << " and " << dest.getElementType();
  unsigned elementBytes = source.getElementBytes();
  if (bytes % elementBytes != 0)
    return emitOpError() << "expected the copy (" << bytes
                         << " bytes) to be a whole number of elements of " << elementBytes
                         << " bytes";
  if (getSourceIndices().size() != source.getRank())
    return emitOpError() << "expected " << source.getRank() << " source indices, got "
                         << getSourceIndices().size();
  if (getDestIndices().size() != dest.getRank())
    return emitOpError() << "expected " << dest.getRank() << " destination indices, got "
                         << getDestIndices().size();
  if (source.hasExplicitStrides()) {
    auto inner = dyn_cast<IntegerAttr>(source.getStrides()[source.getRank() - 1]);
    if (!inner || inner.getInt() != 1)
      return emitOpError() << "expected stride 1 in the source's innermost dimension";
  }
  int64_t rowBytes = dest.getShape().back() * dest.getElementBytes();
  if (rowBytes % bytes != 0)
    return emitOpError() << "expected the destination's innermost extent (" << rowBytes
                         << " bytes) to be a multiple of the copy size (" << bytes << " bytes)";
  return success();
}


LogicalResult CpAsyncWaitOp::verify() {
  int64_t pending = signedValue(getPendingAttr());
  if (pending < 0 || pending > 63)
    return emitOpError() << "expected 0 to 63 pending groups, got " << pending;
  return success();
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

/// 32-bit registers per lane of a fragment type.
static int64_t fragmentRegisters(VectorType type) {
  return type.getNumElements() * getElementBytes(type.getElementType()) / 4;
}

/// The checks ldmatrix and stmatrix share: the buffer, the indices, the fragment type.
static LogicalResult verifyMatrixAccess(Operation *op, SmemType buffer, size_t numIndices,
                                        VectorType fragment, bool trans, bool store) {
  Type element = buffer.getElementType();
  unsigned elementBytes = buffer.getElementBytes();
  if (elementBytes != 2 && (store || elementBytes != 4))
    return op->emitOpError() << "expected a buffer of 16-bit elements"
                             << (store ? "" : " (or 32-bit ones, for tf32)") << ", got "
                             << element;
  if (trans && elementBytes != 2)
    return op->emitOpError() << "'trans' transposes 16-bit elements: expected a buffer of "
                                "16-bit elements, got "
                             << element;
  if (numIndices != buffer.getRank())
    return op->emitOpError() << "expected " << buffer.getRank() << " indices, got "
                             << numIndices;
  int64_t rowBytes = buffer.getShape().back() * elementBytes;
  if (rowBytes % 16 != 0)
    return op->emitOpError() << "expected the buffer's innermost extent (" << rowBytes
                             << " bytes) to be a multiple of 16 bytes (one matrix row)";
  Type fragmentElement = fragment.getElementType();
  if (!fragmentElement.isInteger(32) && fragmentElement != element)
    return op->emitOpError() << "expected a fragment of i32 or of the buffer's element type "
                             << element << ", got " << fragment;
  int64_t bits = fragment.getNumElements() * getElementBytes(fragmentElement) * 8;
  int64_t registers = bits / 32;
  if (bits % 32 != 0 || (registers != 1 && registers != 2 && registers != 4))
    return op->emitOpError() << "expected a fragment of 1, 2 or 4 32-bit registers, got "
                             << fragment;
  return success();
}

int64_t LdmatrixOp::getCount() { return fragmentRegisters(getResult().getType()); }

LogicalResult LdmatrixOp::verify() {
  return verifyMatrixAccess(*this, getSource().getType(), getIndices().size(),
                            getResult().getType(), getTrans(), /*store=*/false);
}

int64_t StmatrixOp::getCount() { return fragmentRegisters(getValue().getType()); }

LogicalResult StmatrixOp::verify() {
  return verifyMatrixAccess(*this, getDest().getType(), getIndices().size(),
                            getValue().getType(), getTrans(), /*store=*/true);
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

LogicalResult MmaSyncOp::verify() {
  VectorType a = getA().getType(), b = getB().getType();
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "expected A and B of one element type, got " << a.getElementType()
                         << " and " << b.getElementType();
  bool tf32 = a.getElementType().isF32();
  int64_t aElements = tf32 ? 4 : 8, bElements = tf32 ? 2 : 4;
  if (a.getNumElements() != aElements || b.getNumElements() != bElements)
    return emitOpError() << "expected " << (tf32 ? "m16n8k8 tf32" : "m16n8k16")
                         << " fragments: A of " << aElements << " and B of " << bElements
                         << " elements, got " << a << " and " << b;
  return success();
}

LogicalResult MmaSyncStoreOp::verify() {
  return verifyPairStores(*this, getDest().getType(), getMasked());
}
