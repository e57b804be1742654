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

Value mlir::cake::shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset) {
  Value offsetValue = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
  Value width = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 32);
  return gpu::ShuffleOp::create(b, loc, value, offsetValue, width, gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

std::pair<Value, Value> mlir::cake::argReduceButterfly(OpBuilder &b, Location loc,
                                                       ArgReduceKind kind, Value value,
                                                       Value index, int64_t lanes) {
  auto better = kind == ArgReduceKind::argmin ? arith::CmpFPredicate::OLT
                                              : arith::CmpFPredicate::OGT;
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    Value otherValue = shuffleXor(b, loc, value, offset);
    Value otherIndex = shuffleXor(b, loc, index, offset);
    // Take the other pair if strictly better, or equal with a smaller index: order-independent.
    Value strictly = arith::CmpFOp::create(b, loc, better, otherValue, value);
    Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, otherValue, value);
    Value smaller = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, otherIndex, index);
    Value take = arith::OrIOp::create(b, loc, strictly, arith::AndIOp::create(b, loc, equal, smaller));
    value = arith::SelectOp::create(b, loc, take, otherValue, value);
    index = arith::SelectOp::create(b, loc, take, otherIndex, index);
  }
  return {value, index};
}

Value mlir::cake::structToVector(OpBuilder &b, Location loc, Value tuple, VectorType type) {
  Value result = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
    result = vector::InsertOp::create(b, loc, LLVM::ExtractValueOp::create(b, loc, tuple, i),
                                      result, i);
  return result;
}

void mlir::cake::emitAccumulatorBlockStore(OpBuilder &b, Location loc, Operation *user,
                                           GlobalTensorType tensor, Value dest, Value acc,
                                           Value row0, Value col, int64_t first, bool masked) {
  Type element = tensor.getElementType();
  auto pairType = VectorType::get({2}, element);
  for (int64_t half = 0; half < 2; ++half) {
    Value row = half ? arith::AddIOp::create(b, loc, row0,
                                             arith::ConstantIndexOp::create(b, loc, 8))
                           .getResult()
                     : row0;
    SmallVector<Value, 2> values;
    for (int64_t j = 0; j < 2; ++j) {
      Value v = vector::ExtractOp::create(b, loc, acc, first + 2 * half + j);
      if (!element.isF32())
        v = arith::TruncFOp::create(b, loc, element, v);
      values.push_back(v);
    }
    Value pair = vector::FromElementsOp::create(b, loc, pairType, values);
    emitGlobalStore(b, loc, user, tensor, dest, ValueRange{row, col}, pair, masked,
                    /*checkAligned=*/masked);
  }
}

Value mlir::cake::i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

Operation *mlir::cake::createInlinePtx(OpBuilder &b, Location loc, TypeRange results,
                                       ValueRange operands, StringRef ptx,
                                       StringRef constraints, bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(b, loc, results, operands, ptx, constraints, hasSideEffects,
                                   /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                                   ArrayAttr());
}
