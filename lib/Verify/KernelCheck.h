//===- KernelCheck.h - what every cake-verify-* pass does around its checks -*- C++ -*-===//
//
// A cake-verify-* pass judges each kernel of the module on its own, reports every finding as it
// finds it (Cake/Verify/Findings.h), and fails when any kernel has one. KernelCheckPass is that
// loop; a pass derives from it with its generated base and implements
// `bool verifyKernel(KernelOp)` (true: no finding in this kernel). ModelCheckPass does the same
// for passes that judge a kernel through its thread model and program order.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_VERIFY_KERNELCHECK_H
#define CAKE_LIB_VERIFY_KERNELCHECK_H

#include "Cake/Analysis/ThreadModel.h"
#include "Cake/IR/CakeOps.h"
#include "mlir/Pass/AnalysisManager.h"

namespace mlir::cake {

/// The ThreadModel of `kernel`, kept by the analysis manager `am` (the pass's): the cake-verify-*
/// passes change no IR and preserve their analyses, so one cake-verify run builds each kernel's
/// model once, not once per pass.
inline ThreadModel &getThreadModel(AnalysisManager am, KernelOp kernel) {
  return am.nest(kernel).getAnalysis<ThreadModel, KernelOp>();
}

template <typename Derived, template <typename> class GeneratedBase>
class KernelCheckPass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() final {
    bool ok = true;
    this->getOperation()->walk(
        [&](KernelOp kernel) { ok &= static_cast<Derived *>(this)->verifyKernel(kernel); });
    this->markAllAnalysesPreserved(); // A check changes no IR.
    if (!ok)
      this->signalPassFailure();
  }
};

/// KernelCheckPass for the passes that read a kernel through its ThreadModel: while
/// `void verifyKernel(KernelOp)` runs, `model` and `order` are the kernel's, and the helpers
/// that report a finding set `ok` to false.
template <typename Derived, template <typename> class GeneratedBase>
class ModelCheckPass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() final {
    bool passOk = true;
    this->getOperation()->walk([&](KernelOp kernel) {
      model = &getThreadModel(this->getAnalysisManager(), kernel);
      order = getProgramOrder(kernel);
      ok = true;
      static_cast<Derived *>(this)->verifyKernel(kernel);
      passOk &= ok;
      model = nullptr;
    });
    this->markAllAnalysesPreserved(); // A check changes no IR.
    if (!passOk)
      this->signalPassFailure();
  }

protected:
  ThreadModel *model = nullptr;
  DenseMap<Operation *, unsigned> order;
  bool ok = true;
};

} // namespace mlir::cake

#endif // CAKE_LIB_VERIFY_KERNELCHECK_H
