//===- MemoryAccess.h - which memory an op touches ---------------*- C++ -*-===//
//
// The value type of CakeMemoryAccessOpInterface (CakeInterfaces.td) and the queries built on it.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_IR_MEMORYACCESS_H
#define CAKE_IR_MEMORYACCESS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include "Cake/IR/Target.h" // TargetRequirement, the other interface's value type

namespace mlir::cake {
class KernelOp;

enum class AccessKind { Read, Write };

/// Generic: ld/st/cp.async/ldmatrix. Async: TMA copies and wgmma operand reads, which need a
/// fence.proxy.async to see (or to be seen by) generic shared-memory accesses.
enum class MemoryProxy { Generic, Async };

/// When an access is over, so that another thread may rely on it or reuse the memory: when the op
/// returns (generic loads and stores, ldmatrix), when the barrier or pipeline in `completesOn`
/// completes the phase it arrives on (TMA loads, the cluster launch control answer), when its
/// wgmma group retires (wgmma operands), when its bulk-async group retires (TMA stores), at a
/// tcgen05 commit (tcgen05 operands), or at the cp.async.wait_group that retires its commit group
/// (cp.async; the async check keeps its own model of the groups).
enum class AccessCompletion {
  Immediate,
  Barrier,
  WgmmaGroup,
  BulkGroup,
  Tcgen05Commit,
  AsyncCopyGroup
};

/// One buffer an op reads or writes.
struct MemoryAccess {
  /// A !cake.tensor, !cake.smem or !cake.tma value.
  Value buffer;
  AccessKind kind;
  MemoryProxy proxy;
  /// Consecutive elements one thread accesses at once (1: no alignment beyond the element's).
  int64_t width = 1;
  /// The indices into `buffer` (tile coordinates for TMA); empty where the op has none.
  ValueRange indices;

  /// The region one thread's access covers, for the analyses that compare regions (races): the
  /// dimensions after `indices` are whole (a TMA box into a sub-buffer); `tile` gives the extents
  /// of the last tile.size() indexed dimensions (a wgmma operand's rows x K, ldmatrix's 16-byte
  /// row); without it the access is `width` elements of the innermost dimension.
  llvm::SmallVector<int64_t, 2> tile;
  /// Lanes of each warp whose indices address memory (ldmatrix / stmatrix: 8 per matrix).
  int64_t lanes = 32;
  /// False where the op's operands do not state the region (a reduction's bias row, tcgen05
  /// operands, the cluster launch control answer): analyses that compare regions leave it alone.
  bool regionKnown = true;
  /// Atomic read-modify-writes do not race with one another.
  bool atomic = false;
  /// Lanes whose indices fall outside the global tensor's extents access nothing (`masked`
  /// loads, stores, atomics, cp.async and fragment stores): the cost model counts no bytes for
  /// them.
  bool boundsMasked = false;
  AccessCompletion completion = AccessCompletion::Immediate;
  /// With AccessCompletion::Barrier, the mbarrier array or pipeline it completes on.
  Value completesOn;

  /// A generic-proxy access completing when the op returns: what ops declare in ODS
  /// (CakeRead / CakeWrite of CakeInterfaces.td), with the modifiers below.
  static MemoryAccess make(Value buffer, AccessKind kind, ValueRange indices, int64_t width = 1) {
    MemoryAccess access;
    access.buffer = buffer;
    access.kind = kind;
    access.proxy = MemoryProxy::Generic;
    access.width = width;
    access.indices = indices;
    return access;
  }
  MemoryAccess withBoundsMask(bool masked) const {
    MemoryAccess access = *this;
    access.boundsMasked = masked;
    return access;
  }
  MemoryAccess asAtomic() const {
    MemoryAccess access = *this;
    access.atomic = true;
    return access;
  }

  bool isRead() const { return kind == AccessKind::Read; }
  bool isWrite() const { return kind == AccessKind::Write; }
};

/// Every access of `op` (none when it does not implement the interface).
llvm::SmallVector<MemoryAccess, 2> getMemoryAccesses(Operation *op);

/// The global tensor parameter of `kernel` that `buffer` reads or writes: the parameter itself,
/// or the tensor a TMA descriptor parameter describes (`cake.describes`); null for shared memory.
BlockArgument getAccessedGlobalTensor(KernelOp kernel, Value buffer);

/// Whether any op in `kernel` reads and whether any writes the tensor parameter `tensor`, and the
/// widest access of it (for the manifest's stride constraints).
struct TensorUse {
  bool reads = false, writes = false;
  int64_t maxWidth = 1;
  /// The first op that reads and the first that writes, for diagnostics.
  Operation *firstRead = nullptr, *firstWrite = nullptr;
};
TensorUse getTensorUse(KernelOp kernel, BlockArgument tensor);

/// The first op of `op` and the ops nested in it (in program order) that reads or writes global
/// memory, a !cake.tensor or the tensor behind a !cake.tma; null when none does. What a kernel
/// launched before its predecessor completes must not do ahead of `cake.grid_dependency.wait`.
Operation *findGlobalMemoryAccess(Operation *op);

} // namespace mlir::cake

#include "Cake/IR/CakeInterfaces.h.inc"

#endif // CAKE_IR_MEMORYACCESS_H
