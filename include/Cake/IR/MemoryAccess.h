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

} // namespace mlir::cake

#include "Cake/IR/CakeInterfaces.h.inc"

#endif // CAKE_IR_MEMORYACCESS_H
