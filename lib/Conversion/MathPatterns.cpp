//===- MathPatterns.cpp - approximate math ops to NVVM intrinsics ----------===//
//
// `math.exp2` on f32 with `fastmath<afn>` (approximate functions allowed) becomes the single
// MUFU instruction `ex2.approx.ftz.f32`. Without it the NVPTX backend emits the non-ftz
// `ex2.approx.f32`, which ptxas expands to a compare, two multiplies and the MUFU to keep
// denormal results: a quarter of the cost of an exp2-heavy kernel (KDA's chunk preparation
// computes three per element). Flushing denormals is part of what `afn` allows: results below
// 2^-126 become 0.
//
//===----------------------------------------------------------------------===//
#include "ConversionUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

constexpr llvm::StringLiteral kEx2Ftz = "llvm.nvvm.ex2.approx.ftz.f";

struct ApproxExp2Lowering : OpConversionPattern<math::Exp2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isApproxExp2(op))
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto ex2 = [&](Value x) {
      return LLVM::CallIntrinsicOp::create(rewriter, loc, f32, rewriter.getStringAttr(kEx2Ftz),
                                           ValueRange{x})
          .getResult(0);
    };
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType) {
      rewriter.replaceOp(op, ex2(adaptor.getOperand()));
      return success();
    }
    SmallVector<Value> lanes;
    for (int64_t i = 0; i < vectorType.getNumElements(); ++i)
      lanes.push_back(ex2(vector::ExtractOp::create(rewriter, loc, adaptor.getOperand(), i)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vectorType, lanes);
    return success();
  }
};

} // namespace

bool mlir::cake::isApproxExp2(math::Exp2Op op) {
  Type type = op.getType();
  auto vectorType = dyn_cast<VectorType>(type);
  if (vectorType && (vectorType.getRank() != 1 || vectorType.isScalable()))
    return false;
  return getElementTypeOrSelf(type).isF32() &&
         bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
}

void populateCakeMathPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ApproxExp2Lowering>(converter, patterns.getContext());
}
