//===- TacticPipelineStages.cpp - tactic: change a pipeline's stage count --===//
//
// Retypes every cake.pipeline.create to `stages` slots and the shared buffers indexed by its slot
// to a leading dimension of `stages`; refuses (error [tactic.not-applicable]) when a buffer is used
// without the slot, its leading dimension is not the old stage count, the pipeline value escapes
// the pipeline ops, or the kernel's shared memory would exceed its target's limit.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::cake;

namespace {
InFlightDiagnostic notApplicable(Operation *op) {
  InFlightDiagnostic diag = mlir::emitError(op->getLoc());
  diag << "'" << op->getName() << "' op [tactic.not-applicable] cake-tactic-pipeline-stages: ";
  return diag;
}

/// Gives `create` `stages` slots (false, with the error emitted, when the tactic cannot).
bool rewrite(KernelOp kernel, PipelineCreateOp create, int64_t stages) {
  TypedValue<PipelineType> pipe = create.getPipeline();
  int64_t old = pipe.getType().getStages();
  if (old == stages) {
    create->emitRemark() << CakeTacticPipelineStagesOp::passArgument << ": already "
                         << int64_t(stages) << " stages: unchanged";
    return true;
  }
  // The pipeline value may only feed pipeline ops (and TMA copies completing on it).
  llvm::SetVector<Value> slots;
  for (Operation *user : pipe.getUsers()) {
    StringRef name = user->getName().getStringRef();
    if (!name.starts_with("cake.pipeline.") && !name.starts_with("cake.tma.")) {
      notApplicable(create) << "the pipeline is used by '" << name
                            << "', which the tactic does not know how to retype";
      return false;
    }
    if (auto slot = dyn_cast<PipelineSlotOp>(user))
      slots.insert(slot.getSlot());
  }
  // Stage buffers: shared allocations taken by an op that also takes one of the slots.
  llvm::SetVector<AllocSmemOp> buffers;
  for (Value slot : slots)
    for (Operation *user : slot.getUsers())
      for (Value operand : user->getOperands())
        if (auto alloc = operand.getDefiningOp<AllocSmemOp>())
          buffers.insert(alloc);
  auto takesSlot = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value v) { return slots.contains(v); });
  };
  for (AllocSmemOp alloc : buffers) {
    SmemType type = alloc.getBuffer().getType();
    if (type.getShape().front() != old) {
      notApplicable(alloc) << "the stage buffer " << type << " has a leading dimension of "
                           << type.getShape().front() << ", not the pipeline's " << old
                           << " stages";
      return false;
    }
    for (Operation *user : alloc.getBuffer().getUsers())
      if (!takesSlot(user)) {
        InFlightDiagnostic diag = notApplicable(user);
        diag << "the stage buffer " << type
             << " is accessed without the pipeline's slot (a constant or computed stage)";
        diag.attachNote(alloc.getLoc()) << "the buffer";
        return false;
      }
  }
  if (buffers.empty())
    create->emitRemark() << CakeTacticPipelineStagesOp::passArgument
                         << ": no shared buffer is indexed by the pipeline's slot; only the "
                            "barrier ring changes";

  // Retype, then check the shared memory; undo on failure.
  SmallVector<std::pair<Value, Type>> undo;
  auto retype = [&](Value v, Type t) {
    undo.push_back({v, v.getType()});
    v.setType(t);
  };
  retype(pipe, PipelineType::get(create.getContext(), stages));
  for (AllocSmemOp alloc : buffers) {
    SmemType type = alloc.getBuffer().getType();
    SmallVector<int64_t> shape(type.getShape());
    shape.front() = stages;
    retype(alloc.getBuffer(), SmemType::get(type.getContext(), shape, type.getElementType(),
                                            type.getSwizzle(), type.getPad()));
  }
  int64_t total = kernel.getSharedMemoryLayout().totalBytes + kernel.getDynamicSmem();
  int64_t limit = kernel.getMaxSharedBytes();
  if (total > limit) {
    for (auto &[v, t] : llvm::reverse(undo))
      v.setType(t);
    notApplicable(create) << int64_t(stages) << " stages need " << total
                          << " bytes of shared memory, over the " << limit << " bytes of "
                          << kernel.getTarget();
    return false;
  }
  return true;
}
} // namespace

std::string CakeTacticPipelineStagesOp::checkOptions(const Options &options) {
  int64_t stages = options.stages;
  if (stages < 1)
    return "expected stages >= 1, got " + std::to_string(stages);
  return "";
}

LogicalResult CakeTacticPipelineStagesOp::applyTactic(RewriterBase &, Operation *root,
                                                      const Options &options) {
  int64_t stages = options.stages;
  bool failed = false, any = false;
  root->walk([&](KernelOp kernel) {
    kernel.walk([&](PipelineCreateOp create) {
      any = true;
      failed |= !rewrite(kernel, create, stages);
    });
  });
  if (!any)
    root->emitRemark() << passArgument << ": no cake.pipeline.create: nothing to do";
  return failure(failed);
}
