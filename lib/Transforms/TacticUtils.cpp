//===- TacticUtils.cpp - the shared-buffer tactics' driver ---------------===//
#include "TacticUtils.h"

using namespace mlir;
using namespace mlir::cake;

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
    int64_t total = kernel.getSharedMemoryLayout().totalBytes + kernel.getDynamicSmem();
    int64_t limit = kernel.getMaxSharedBytes();
    if (total > limit) {
      for (auto &[alloc, type] : changed)
        alloc.getBuffer().setType(type);
      kernel.emitError() << "[tactic.not-applicable] " << tactic << ": " << what << " needs "
                         << total << " bytes of shared memory, over the " << limit
                         << " bytes of " << kernel.getTarget();
      overLimit = true;
      return;
    }
    retyped += changed.size();
  });
  if (overLimit)
    return failure();
  if (retyped == 0) {
    InFlightDiagnostic diag = mlir::emitError(root->getLoc())
                              << "[tactic.not-applicable] " << tactic
                              << ": no shared buffer qualifies";
    for (auto &[loc, r] : reasons)
      diag.attachNote(loc) << r;
    return failure();
  }
  return success();
}
