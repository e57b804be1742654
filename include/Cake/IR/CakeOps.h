//===- CakeOps.h - cake operations ------------------------------*- C++ -*-===//
#ifndef CAKE_IR_CAKEOPS_H
#define CAKE_IR_CAKEOPS_H

#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/CakeTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "Cake/IR/MemoryAccess.h"

namespace mlir::cake {
/// Where a kernel's shared allocations live in its (dynamic) shared-memory segment.
struct SharedMemoryLayout {
  /// Byte offset of each allocating op (alloc_smem, mbarrier.alloc, pipeline.create).
  llvm::DenseMap<Operation *, int64_t> offsets;
  /// Bytes of the segment the allocations need.
  int64_t totalBytes = 0;
};

/// Emits an error unless `op` is nested in a cake.kernel.
LogicalResult verifyInKernel(Operation *op);

/// Ops that only make sense inside a kernel (ids, memory, sync, warp collectives).
template <typename ConcreteType>
class InKernel : public OpTrait::TraitBase<ConcreteType, InKernel> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyInKernel(op); }
};

/// `CakeRequires<"Name">` in ODS: the op needs `Requirement` from its kernel's target (checked by
/// cake-verify-target, which reads it through TargetRequirementOpInterface).
template <TargetRequirement Requirement>
struct Requires {
  template <typename ConcreteOp>
  class Impl : public OpTrait::TraitBase<ConcreteOp, Requires<Requirement>::Impl>,
               public TargetRequirementOpInterface::Trait<ConcreteOp> {
  public:
    void getTargetRequirements(llvm::SmallVectorImpl<TargetRequirement> &requirements) {
      requirements.push_back(Requirement);
    }
  };
};
} // namespace mlir::cake

namespace mlir::cake {
/// The fragment stores (wgmma.store, mma_sync.store) write element pairs to a rank-2 f32/bf16/f16
/// tensor with unit inner stride: unmasked, they also need an even row stride in `dest`.
LogicalResult verifyPairStores(Operation *op, GlobalTensorType dest, bool masked);

/// Whether `op` counts one arrival on an mbarrier: mbarrier.arrive, mbarrier.arrive_expect_tx or
/// tcgen05.commit (its arrival lands when the thread's MMAs complete). Each has the barrier
/// array as operand 0 and the barrier's index as operand 1.
bool isMbarrierArrival(Operation *op);

/// The shared operands of a tensor-core MMA (wgmma, tcgen05.mma): f16, bf16 or f32 (and fp8
/// e4m3/e5m2 when `fp8` is set), one index per dimension, rows of one swizzle span, row counts a
/// multiple of 8, one element type.
LogicalResult verifyMmaOperands(Operation *op, SmemType a, size_t aIndices, SmemType b,
                                size_t bIndices, bool fp8 = false);
/// A buffer read like an MMA's K-major shared operand (the two operands above, the source of
/// tcgen05.cp): rank 2 or more with one index per dimension, rows of one swizzle span, row count
/// a multiple of 8. `name` names it in the message.
LogicalResult verifySwizzledOperand(Operation *op, llvm::StringRef name, SmemType type,
                                    size_t indices);
} // namespace mlir::cake

#define GET_OP_CLASSES
#include "Cake/IR/CakeOps.h.inc"

#endif // CAKE_IR_CAKEOPS_H
