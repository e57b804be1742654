//===- TacticContract.cpp - tactic: contract multiply-adds into FMAs ------===//
//
// Marks every arith.mulf that feeds an arith.addf / arith.subf, and those users, with
// fastmath<contract>, so that the NVPTX backend emits one fma.rn per pair. Refuses
// ([tactic.not-applicable]) a module with no such pair; leaves already-contracted pairs alone.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

bool contracted(Operation *op) {
  auto fm = cast<arith::ArithFastMathInterface>(op);
  return arith::bitEnumContainsAll(fm.getFastMathFlagsAttr().getValue(),
                                   arith::FastMathFlags::contract);
}

void contract(Operation *op) {
  auto fm = cast<arith::ArithFastMathInterface>(op);
  arith::FastMathFlags flags = fm.getFastMathFlagsAttr().getValue() | arith::FastMathFlags::contract;
  op->setAttr(fm.getFastMathAttrName(), arith::FastMathFlagsAttr::get(op->getContext(), flags));
}

} // namespace

LogicalResult CakeTacticContractOp::applyTactic(RewriterBase &, Operation *root,
                                                const Options &) {
  // Per kernel, the pairs: each multiply with an add or subtract that takes its result.
  SmallVector<std::pair<KernelOp, llvm::SetVector<Operation *>>> kernels;
  root->walk([&](KernelOp kernel) {
    llvm::SetVector<Operation *> members;
    kernel.walk([&](arith::MulFOp mul) {
      for (Operation *user : mul->getUsers())
        if (isa<arith::AddFOp, arith::SubFOp>(user)) {
          members.insert(mul);
          members.insert(user);
        }
    });
    kernels.push_back({kernel, std::move(members)});
  });
  if (llvm::all_of(kernels, [](auto &k) { return k.second.empty(); })) {
    for (auto &[kernel, members] : kernels)
      mlir::emitError(kernel.getLoc())
          << "[tactic.not-applicable] cake-tactic-contract: no floating-point multiply in '"
          << kernel.getSymName() << "' feeds an add or a subtract";
    if (kernels.empty())
      mlir::emitError(root->getLoc())
          << "[tactic.not-applicable] cake-tactic-contract: no cake.kernel";
    return failure();
  }
  for (auto &[kernel, members] : kernels) {
    if (members.empty())
      continue;
    if (llvm::all_of(members, contracted)) {
      kernel.emitRemark() << passArgument << ": every multiply-add of '" << kernel.getSymName()
                          << "' is already contracted: unchanged";
      continue;
    }
    for (Operation *op : members)
      contract(op);
  }
  return success();
}
