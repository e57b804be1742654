//===- TacticUtils.cpp - what the tactics share ---------------------------===//
#include "TacticUtils.h"
#include "Cake/Analysis/ThreadModel.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult
mlir::cake::reportNothingQualifies(Operation *root, StringRef tactic, StringRef what,
                                   ArrayRef<std::pair<Location, std::string>> reasons) {
  InFlightDiagnostic diag = mlir::emitError(root->getLoc()) << "[tactic.not-applicable] " << tactic
                                                            << ": no " << what << " qualifies";
  for (auto &[loc, why] : reasons)
    diag.attachNote(loc) << why;
  return failure();
}

LogicalResult mlir::cake::checkSharedMemoryLimit(KernelOp kernel, StringRef tactic,
                                                 StringRef what) {
  int64_t total = kernel.getSharedMemoryLayout().totalBytes + kernel.getDynamicSmem();
  int64_t limit = kernel.getMaxSharedBytes();
  if (total <= limit)
    return success();
  return kernel.emitError() << "[tactic.not-applicable] " << tactic << ": " << what << " needs "
                            << total << " bytes of shared memory, over the " << limit
                            << " bytes of " << kernel.getTarget();
}

std::string mlir::cake::laneStridedLoopReason(ThreadModel &model, scf::ForOp loop) {
  if (!loop.getLowerBound().getDefiningOp<LaneIdOp>())
    return "the lower bound is not cake.lane_id";
  if (getConstantIntValue(loop.getStep()) != 32)
    return "the step is not 32";
  if (!model.isInvariant(loop.getUpperBound()))
    return "the upper bound differs between threads";
  return "";
}

LogicalResult mlir::cake::retypeSharedBuffers(Operation *root, StringRef tactic, StringRef what,
                                              function_ref<std::string(AllocSmemOp)> reason,
                                              function_ref<SmemType(SmemType)> retype) {
  SmallVector<std::pair<Location, std::string>> reasons;
  int retyped = 0;
  bool overLimit = false;
  root->walk([&](KernelOp kernel) {
    SmallVector<std::pair<AllocSmemOp, SmemType>> changed;
    kernel.walk([&](AllocSmemOp alloc) {
      std::string why = reason(alloc);
      if (!why.empty()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << alloc.getBuffer().getType() << ": " << why;
        reasons.push_back({alloc.getLoc(), text});
        return;
      }
      SmemType type = alloc.getBuffer().getType();
      changed.push_back({alloc, type});
      alloc.getBuffer().setType(retype(type));
    });
    if (changed.empty())
      return;
    if (failed(checkSharedMemoryLimit(kernel, tactic, what))) {
      for (auto &[alloc, type] : changed)
        alloc.getBuffer().setType(type);
      overLimit = true;
      return;
    }
    retyped += changed.size();
  });
  if (overLimit)
    return failure();
  if (retyped == 0)
    return reportNothingQualifies(root, tactic, "shared buffer", reasons);
  return success();
}
