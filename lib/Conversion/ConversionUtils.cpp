//===- ConversionUtils.cpp - helpers shared by the cake lowering patterns -===//
#include "ConversionUtils.h"

using namespace mlir;
using namespace mlir::cake;

Value mlir::cake::sharedAllocationAddress(OpBuilder &b, Location loc, Operation *allocOp) {
  auto offset = allocOp->getAttrOfType<IntegerAttr>(kSmemOffsetAttrName);
  auto pointerType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, pointerType, kSharedSegmentName);
  Value bytes = arith::ConstantIntOp::create(b, loc, b.getI64Type(), offset.getInt());
  return LLVM::GEPOp::create(b, loc, pointerType, b.getI8Type(), base, ValueRange{bytes});
}

SmallVector<int64_t, 3> mlir::cake::knownBlockSize(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  std::optional<ArrayRef<int32_t>> dims = func.getKnownBlockSize();
  return SmallVector<int64_t, 3>(dims->begin(), dims->end());
}

Value mlir::cake::linearThreadId(OpBuilder &b, Location loc, Operation *inKernel) {
  SmallVector<int64_t, 3> block = knownBlockSize(inKernel);
  Value linear = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  int64_t stride = block[0];
  for (unsigned d = 1; d < 3; ++d) {
    if (block[d] == 1)
      continue;
    Value id = gpu::ThreadIdOp::create(b, loc, static_cast<gpu::Dimension>(d));
    Value scaled =
        arith::MulIOp::create(b, loc, id, arith::ConstantIndexOp::create(b, loc, stride));
    linear = arith::AddIOp::create(b, loc, linear, scaled);
    stride *= block[d];
  }
  return linear;
}
