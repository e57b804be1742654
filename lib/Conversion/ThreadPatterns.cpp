//===- ThreadPatterns.cpp - cake ids, barriers, warp reductions -> gpu ----===//
#include "Cake/Conversion/CakeToNVVM.h"
#include "ConversionUtils.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

gpu::Dimension toGPU(Dim dim) { return static_cast<gpu::Dimension>(dim); }

/// Lowers `OpTy` (with a `dim`) to the gpu op `GPUOpTy` of the same dimension.
template <typename OpTy, typename GPUOpTy>
struct DimIdLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<GPUOpTy>(op, toGPU(op.getDim()));
    return success();
  }
};

struct BlockDimLowering : OpConversionPattern<BlockDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BlockDimOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    int64_t extent = knownBlockSize(op)[static_cast<unsigned>(op.getDim())];
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, extent);
    return success();
  }
};

/// Linear thread index over the static block, divided by `groupSize` threads.
Value linearThreadGroup(Operation *op, ConversionPatternRewriter &rewriter, int64_t groupSize) {
  Location loc = op->getLoc();
  return arith::DivUIOp::create(rewriter, loc, linearThreadId(rewriter, loc, op),
                                arith::ConstantIndexOp::create(rewriter, loc, groupSize));
}

template <typename OpTy, int64_t GroupSize>
struct GroupIdLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, linearThreadGroup(op, rewriter, GroupSize));
    return success();
  }
};

struct LaneIdLowering : OpConversionPattern<LaneIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LaneIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::LaneIdOp>(op, /*upper_bound=*/nullptr);
    return success();
  }
};

struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitBarrierMark(rewriter, op.getLoc(), op, /*enter=*/true);
    gpu::BarrierOp::create(rewriter, op.getLoc());
    emitBarrierMark(rewriter, op.getLoc(), op, /*enter=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

Value combine(ConversionPatternRewriter &rewriter, Location loc, ReduceKind kind, Value lhs,
              Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case ReduceKind::sum:
    return isFloat ? arith::AddFOp::create(rewriter, loc, lhs, rhs).getResult()
                   : arith::AddIOp::create(rewriter, loc, lhs, rhs).getResult();
  case ReduceKind::max:
    return isFloat ? arith::MaximumFOp::create(rewriter, loc, lhs, rhs).getResult()
                   : arith::MaxSIOp::create(rewriter, loc, lhs, rhs).getResult();
  case ReduceKind::min:
    return isFloat ? arith::MinimumFOp::create(rewriter, loc, lhs, rhs).getResult()
                   : arith::MinSIOp::create(rewriter, loc, lhs, rhs).getResult();
  }
  llvm_unreachable("unknown reduction");
}

struct WarpReduceLowering : OpConversionPattern<WarpReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    for (int64_t offset = op.getLanes() / 2; offset >= 1; offset /= 2)
      value = combine(rewriter, loc, op.getKind(), value, shuffleXor(rewriter, loc, value, offset));
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct WarpArgReduceLowering : OpConversionPattern<WarpArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpArgReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto [value, index] = argReduceButterfly(rewriter, op.getLoc(), op.getKind(),
                                             adaptor.getValue(), adaptor.getIndex(), op.getLanes());
    rewriter.replaceOp(op, {value, index});
    return success();
  }
};

} // namespace

void populateCakeThreadPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DimIdLowering<ThreadIdOp, gpu::ThreadIdOp>, DimIdLowering<BlockIdOp, gpu::BlockIdOp>,
               DimIdLowering<GridDimOp, gpu::GridDimOp>, DimIdLowering<ClusterIdOp, gpu::ClusterIdOp>,
               DimIdLowering<ClusterBlockIdOp, gpu::ClusterBlockIdOp>, BlockDimLowering,
               GroupIdLowering<WarpIdOp, 32>, GroupIdLowering<WarpgroupIdOp, 128>, LaneIdLowering,
               BarrierLowering, WarpReduceLowering, WarpArgReduceLowering>(converter,
                                                                          patterns.getContext());
}
