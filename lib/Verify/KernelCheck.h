//===- KernelCheck.h - what every cake-verify-* pass does around its checks -*- C++ -*-===//
//
// A cake-verify-* pass judges each kernel of the module on its own, reports every finding as it
// finds it (Cake/Verify/Findings.h), and fails when any kernel has one. KernelCheckPass is that
// loop; a pass derives from it with its generated base and implements
// `bool verifyKernel(KernelOp)` (true: no finding in this kernel).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_VERIFY_KERNELCHECK_H
#define CAKE_LIB_VERIFY_KERNELCHECK_H

#include "Cake/IR/CakeOps.h"

namespace mlir::cake {

template <typename Derived, template <typename> class GeneratedBase>
class KernelCheckPass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() final {
    bool ok = true;
    this->getOperation()->walk(
        [&](KernelOp kernel) { ok &= static_cast<Derived *>(this)->verifyKernel(kernel); });
    if (!ok)
      this->signalPassFailure();
  }
};

} // namespace mlir::cake

#endif // CAKE_LIB_VERIFY_KERNELCHECK_H
