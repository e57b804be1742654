//===- CakeHopperOps.cpp - verifiers of the hardware-explicit ops ---------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cake;



/// mbarrier arrival counts and transaction counts are 20-bit fields.
static constexpr int64_t kMaxMbarrierCount = (1 << 20) - 1;

/// I64Attr getters return uint64_t: read the signed value so negatives print as such.
static int64_t signedValue(IntegerAttr attr) { return attr.getValue().getSExtValue(); }

/// Directly in the kernel's body, once, and after no global memory access: the kernel may start
/// before its predecessor completes, and everything ahead of this op runs in that window.
LogicalResult GridDependencyWaitOp::verify() {
  auto kernel = dyn_cast_or_null<KernelOp>((*this)->getParentOp());
  if (!kernel)
    return emitOpError("must be directly in the kernel's body (not in a loop, branch or role): "
                       "every thread passes it before touching global memory");
  for (Operation &before : kernel.getBody().front()) {
    if (&before == getOperation())
      break;
    if (isa<GridDependencyWaitOp>(before))
      return emitOpError("a kernel waits for its grid dependencies once");
    if (Operation *access = findGlobalMemoryAccess(&before)) {
      InFlightDiagnostic diag = emitOpError(
          "follows a global memory access: what precedes the wait may run before the previous "
          "kernel completes");
      diag.attachNote(access->getLoc()) << "global memory accessed here";
      return diag;
    }
  }
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  int64_t count = signedValue(getCountAttr());
  if (count < 1 || count > kMaxMbarrierCount)
    return emitOpError() << "expected an arrival count in [1, " << kMaxMbarrierCount << "], got "
                         << count;
  return success();
}

LogicalResult MbarrierArriveExpectTxOp::verify() {
  int64_t bytes = signedValue(getBytesAttr());
  if (bytes < 0 || bytes > kMaxMbarrierCount)
    return emitOpError() << "expected transaction bytes in [0, " << kMaxMbarrierCount
                         << "], got " << bytes;
  return success();
}

LogicalResult PipelineCreateOp::verify() {
  int64_t consumers = signedValue(getConsumersAttr());
  if (consumers < 1 || consumers > kMaxMbarrierCount)
    return emitOpError() << "expected a consumer arrival count in [1, " << kMaxMbarrierCount
                         << "], got " << consumers;
  return success();
}

LogicalResult PipelineProducerCommitOp::verify() {
  int64_t bytes = signedValue(getTxBytesAttr());
  if (bytes < 1 || bytes > kMaxMbarrierCount)
    return emitOpError() << "expected transaction bytes in [1, " << kMaxMbarrierCount << "], got "
                         << bytes;
  return success();
}

static LogicalResult verifyTmaTile(Operation *op, TmaType tma, size_t numCoords, SmemType buffer,
                                   size_t numBufferIndices, StringRef role);

/// Fails unless the enclosing kernel is launched in clusters (`what` names the feature).
static LogicalResult requireCluster(Operation *op, StringRef what) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && !kernel.getCluster())
    return op->emitOpError() << what << " needs a kernel with a cluster";
  return success();
}

LogicalResult TmaLoadOp::verify() {
  if (getMulticast() && failed(requireCluster(*this, "a multicast copy")))
    return failure();
  return verifyTmaTile(*this, getDescriptor().getType(), getCoords().size(), getDest().getType(),
                       getDestIndices().size(), "destination");
}

LogicalResult ClusterBarrierOp::verify() {
  return requireCluster(*this, "a cluster barrier");
}

LogicalResult WarpRolesOp::verifyRegions() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  int64_t warps = kernel ? kernel.getNumThreads() / 32 : 0;
  SmallVector<RoleOp> roles;
  for (Operation &op : getBody().front()) {
    auto role = dyn_cast<RoleOp>(op);
    if (!role)
      return op.emitOpError() << "only cake.role ops may appear in cake.warp_roles";
    if (kernel && static_cast<int64_t>(role.getLast()) > warps)
      return role.emitOpError() << "warp range [" << role.getFirst() << ", " << role.getLast()
                                << ") is outside the block's " << warps << " warps";
    for (RoleOp other : roles) {
      if (role.getFirst() < other.getLast() && other.getFirst() < role.getLast()) {
        InFlightDiagnostic diag = role.emitOpError()
                                  << "warp range [" << role.getFirst() << ", " << role.getLast()
                                  << ") overlaps role '" << other.getRoleName() << "'";
        diag.attachNote(other.getLoc()) << "the other role is here";
        return diag;
      }
    }
    roles.push_back(role);
  }
  if (roles.empty())
    return emitOpError() << "expected at least one cake.role";
  return success();
}

LogicalResult RoleOp::verify() {
  int64_t first = signedValue(getFirstAttr()), last = signedValue(getLastAttr());
  if (first < 0 || first >= last)
    return emitOpError() << "expected a non-empty warp range [first, last), got [" << first
                         << ", " << last << ")";
  if (!getRegsAttr())
    return success();
  std::optional<int64_t> regs = signedValue(getRegsAttr());
  if (*regs < 24 || *regs > 256 || *regs % 8 != 0)
    return emitOpError() << "expected a register budget in [24, 256] and a multiple of 8, got "
                         << *regs;
  if (getFirst() % 4 != 0 || getLast() % 4 != 0)
    return emitOpError() << "a register budget applies to whole warpgroups: expected the warp "
                            "range to be aligned to 4 warps, got ["
                         << getFirst() << ", " << getLast() << ")";
  return success();
}

void RoleOp::getTargetRequirements(SmallVectorImpl<TargetRequirement> &requirements) {
  if (getRegsAttr())
    requirements.push_back(TargetRequirement::SetMaxNReg);
}

LogicalResult mlir::cake::verifySwizzledOperand(Operation *op, StringRef name, SmemType type,
                                                size_t indices) {
  if (type.getRank() < 2 || indices != type.getRank())
    return op->emitOpError() << "expected " << name << " of rank 2 or more with one index per "
                             << "dimension, got rank " << type.getRank() << " and " << indices
                             << " indices";
  int64_t rowBytes = type.getShape().back() * type.getElementBytes();
  if (!type.getSwizzle() || rowBytes != type.getSwizzle())
    return op->emitOpError() << "expected " << name << "'s rows to be one swizzle span (32, 64 "
                             << "or 128 bytes), got " << rowBytes << "-byte rows with swizzle "
                             << type.getSwizzle();
  if (type.getShape()[type.getRank() - 2] % 8 != 0)
    return op->emitOpError() << "expected " << name << "'s row count to be a multiple of 8";
  return success();
}

LogicalResult mlir::cake::verifyMmaOperands(Operation *op, SmemType a, size_t aIndices, SmemType b,
                                            size_t bIndices, bool fp8) {
  for (auto [name, type, indices] :
       {std::make_tuple("A", a, aIndices), std::make_tuple("B", b, bIndices)}) {
    Type element = type.getElementType();
    if (!element.isF16() && !element.isBF16() && !element.isF32() && !(fp8 && isFp8Type(element)))
      return op->emitOpError() << "expected " << name << " of f16, bf16"
                               << (fp8 ? ", f32 (tf32), f8E4M3FN or f8E5M2" : " or f32 (tf32)")
                               << ", got " << element;
    if (failed(verifySwizzledOperand(op, name, type, indices)))
      return failure();
  }
  // kind::f8f6f4 takes e4m3 and e5m2 in any mix; the other kinds one type for both.
  bool bothFp8 = isFp8Type(a.getElementType()) && isFp8Type(b.getElementType());
  if (a.getElementType() != b.getElementType() && !bothFp8)
    return op->emitOpError() << "expected A and B of one element type, got "
                             << a.getElementType() << " and " << b.getElementType();
  return success();
}

LogicalResult WgmmaOp::verify() {
  SmemType a = getA().getType(), b = getB().getType();
  if (failed(verifyMmaOperands(*this, a, getAIndices().size(), b, getBIndices().size())))
    return failure();
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "expected an accumulator of N/2 elements with N in [8, 256] and a "
                            "multiple of 8, got "
                         << getAcc().getType().getNumElements() << " elements";
  if (a.getShape()[a.getRank() - 2] < 64)
    return emitOpError() << "expected A to hold at least 64 rows";
  if (b.getShape()[b.getRank() - 2] < n)
    return emitOpError() << "expected B to hold at least N = " << n << " rows";
  return success();
}

LogicalResult WgmmaWaitOp::verify() {
  int64_t pending = signedValue(getPendingAttr());
  if (pending < 0 || pending > 7)
    return emitOpError() << "expected 0 to 7 pending groups, got " << pending;
  return success();
}

LogicalResult WgmmaStoreOp::verify() {
  auto dest = getDest().getType();
  if (failed(verifyPairStores(*this, dest, getMasked())))
    return failure();
  int64_t n = 2 * getAcc().getType().getNumElements();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "expected an accumulator of N/2 elements with N in [8, 256] and a "
                            "multiple of 8, got "
                         << getAcc().getType().getNumElements() << " elements";
  return success();
}


LogicalResult WgmmaRowArgReduceOp::verify() {
  int64_t n = 2 * getAcc().getType().getNumElements();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "expected an accumulator of N/2 elements with N in [8, 256] and a "
                            "multiple of 8, got "
                         << getAcc().getType().getNumElements() << " elements";
  SmemType bias = getBias().getType();
  if (!bias.getElementType().isF32())
    return emitOpError() << "expected an f32 bias buffer, got " << bias.getElementType();
  if (getBiasIndices().size() != bias.getRank())
    return emitOpError() << "expected " << bias.getRank() << " bias indices, got "
                         << getBiasIndices().size();
  if (bias.getShape().back() < n)
    return emitOpError() << "expected the bias buffer's innermost extent to cover N = " << n
                         << " columns, got " << bias.getShape().back();
  return success();
}

LogicalResult WgmmaStoreRowsOp::verify() {
  auto dest = getDest().getType();
  Type element = getElementTypeOrSelf(getValues().getType());
  if (dest.getElementType() != element)
    return emitOpError() << "expected a destination of element type " << element << ", got "
                         << dest.getElementType();
  if (getIndices().size() != dest.getRank())
    return emitOpError() << "expected " << dest.getRank() << " indices, got "
                         << getIndices().size();
  if (getMin() && !element.isInteger())
    return emitOpError() << "'min' merges integers (i32 or i64), got " << element;
  return success();
}

/// The checks TMA loads and stores share: coordinates, element type, sub-buffer shape, swizzle.
static LogicalResult verifyTmaTile(Operation *op, TmaType tma, size_t numCoords, SmemType buffer,
                                   size_t numBufferIndices, StringRef role) {
  if (numCoords != tma.getRank())
    return op->emitOpError() << "expected " << tma.getRank() << " coordinates, got " << numCoords;
  if (buffer.getElementType() != tma.getElementType())
    return op->emitOpError() << "expected a " << role << " of element type "
                             << tma.getElementType() << ", got " << buffer.getElementType();
  ArrayRef<int64_t> shape = buffer.getShape();
  if (shape.size() < tma.getRank())
    return op->emitOpError() << "expected a " << role << " of rank " << tma.getRank()
                             << " or more (the box's), got rank " << shape.size();
  if (numBufferIndices + tma.getRank() != shape.size())
    return op->emitOpError() << "expected " << shape.size() - tma.getRank() << " " << role
                             << " indices (the buffer's leading dimensions), got "
                             << numBufferIndices;
  if (shape.take_back(tma.getRank()) != tma.getBox())
    return op->emitOpError() << "expected the " << role << "'s trailing extents to equal the box ["
                             << llvm::make_range(tma.getBox().begin(), tma.getBox().end()) << "]";
  if (buffer.getPad())
    return op->emitOpError() << "expected an unpadded " << role << " (TMA moves dense boxes), got "
                             << "pad = " << buffer.getPad();
  if (buffer.getSwizzle() != tma.getSwizzle())
    return op->emitOpError() << "expected the " << role << "'s swizzle (" << buffer.getSwizzle()
                             << ") to equal the descriptor's (" << tma.getSwizzle() << ")";
  // A TMA box in shared memory starts 128-byte aligned (1024 under a 128-byte swizzle: the
  // pattern's period); allocations are, so every slot of a multi-slot buffer must be a multiple.
  int64_t boxBytes = buffer.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t extent : tma.getBox())
    boxBytes *= extent;
  int64_t slotAlign = std::max<int64_t>(128, 8 * tma.getSwizzle());
  int64_t slots = 1;
  for (int64_t extent : shape.drop_back(tma.getRank()))
    slots *= extent;
  if (slots > 1 && boxBytes % slotAlign != 0)
    return op->emitOpError() << "expected the " << role << "'s slots to start " << slotAlign
                             << "-byte aligned as TMA requires, but a box of " << boxBytes
                             << " bytes puts slot 1 at byte " << boxBytes
                             << " (widen the box to a multiple of " << slotAlign << " bytes)";
  return success();
}

LogicalResult TmaStoreOp::verify() {
  return verifyTmaTile(*this, getDescriptor().getType(), getCoords().size(),
                       getSource().getType(), getSourceIndices().size(), "source");
}

LogicalResult TmaStoreWaitOp::verify() {
  int64_t pending = signedValue(getPendingAttr());
  if (pending < 0 || pending > 63)
    return emitOpError() << "expected 0 to 63 pending groups, got " << pending;
  return success();
}

LogicalResult NamedBarrierOp::verify() {
  int64_t id = signedValue(getIdAttr()), threads = signedValue(getThreadsAttr());
  if (id < 1 || id > 15)
    return emitOpError() << "expected a barrier id in [1, 15] (0 is cake.barrier), got " << id;
  auto kernel = (*this)->getParentOfType<KernelOp>();
  int64_t blockThreads = kernel ? kernel.getNumThreads() : 1024;
  if (threads < 32 || threads % 32 != 0 || threads > blockThreads)
    return emitOpError() << "expected a thread count that is a multiple of 32 in [32, "
                         << blockThreads << "], got " << threads;
  return success();
}

LogicalResult WgmmaRegsOp::verify() {
  SmemType b = getB().getType();
  Type element = b.getElementType();
  auto a = getA().getType();
  int64_t expected = element.isF32() ? 4 : 8;
  if (a.getElementType() != element || a.getNumElements() != expected)
    return emitOpError() << "expected an A fragment of " << expected << " x " << element
                         << " (the B buffer's element type), got " << a;
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    return emitOpError() << "expected B of f16, bf16 or f32 (tf32), got " << element;
  if (b.getRank() < 2 || getBIndices().size() != b.getRank())
    return emitOpError() << "expected B of rank 2 or more with one index per dimension";
  int64_t rowBytes = b.getShape().back() * b.getElementBytes();
  if (!b.getSwizzle() || rowBytes != b.getSwizzle())
    return emitOpError() << "expected B's rows to be one swizzle span (32, 64 or 128 bytes), got "
                         << rowBytes << "-byte rows with swizzle " << b.getSwizzle();
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "expected an accumulator of N/2 elements with N in [8, 256] and a "
                            "multiple of 8, got "
                         << getAcc().getType().getNumElements() << " elements";
  if (b.getShape()[b.getRank() - 2] < n)
    return emitOpError() << "expected B to hold at least N = " << n << " rows";
  return success();
}
