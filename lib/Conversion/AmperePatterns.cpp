//===- AmperePatterns.cpp - cp.async, ldmatrix/stmatrix, mma.sync -> nvvm ===//
//
// cp.async: the global address from the tensor's (symbolic) strides, the shared address with the
// buffer's swizzle; `masked` computes cp.async's src-size (bytes inside the tensor, 0 for a row
// outside it) so the hardware zero-fills the rest. ldmatrix/stmatrix: every lane's own row address
// (swizzled); the registers travel as a vector bitcast to/from i32s. mma.sync: the typed fragments
// are bitcast to the i32 (bf16, tf32) or f16x2 (f16) registers nvvm.mma.sync takes.
//
// Fragment layouts relied on (PTX ISA, "Matrix fragments for mma.m16n8k16" and ldmatrix), lane t,
// g = t / 4, q = t % 4:
//   ldmatrix .x1/.x2/.x4: lane l supplies the address of row l % 8 of matrix l / 8; register j of
//     lane t holds (row g, b16 columns 2q, 2q+1) of matrix j (low half = column 2q).
//   mma m16n8k16 accumulator (f32 c0..c3): (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1).
// cake.mma_sync.store relies on the accumulator layout; the others only move registers.
//
//===----------------------------------------------------------------------===//
#include "ConversionUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

struct CpAsyncLowering : OpConversionPattern<CpAsyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CpAsyncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    GlobalTensorType tensor = op.getSource().getType();
    Type element = tensor.getElementType();
    int64_t bytes = op.getBytes();
    Value dest = ab.smemAddress(op.getDest().getType(), adaptor.getDest(), adaptor.getDestIndices());
    Value offset = ab.tensorOffset(tensor, adaptor.getSourceIndices(), op);
    Value source = ab.gep(adaptor.getSource(), element, offset);
    Value sourceBytes;
    if (op.getMasked()) {
      // Elements to read: min(extent - inner, width) when the row and the first element are in
      // bounds, else 0 (and the tensor's base address, so no wild address is formed).
      auto [rowOk, extent] = ab.outerBounds(tensor, adaptor.getSourceIndices(), op);
      Value inner = adaptor.getSourceIndices().back();
      Value innerOk = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, inner, extent);
      Value ok = arith::AndIOp::create(rewriter, loc, rowOk, innerOk);
      Value remaining = arith::SubIOp::create(rewriter, loc, extent, inner);
      Value count =
          arith::MinUIOp::create(rewriter, loc, remaining, ab.indexConstant(op.getWidth()));
      count = arith::SelectOp::create(rewriter, loc, ok, count, ab.indexConstant(0));
      Value size = ab.mul(count, ab.indexConstant(getElementBytes(element)));
      sourceBytes = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), size);
      source = arith::SelectOp::create(rewriter, loc, ok, source, adaptor.getSource());
    }
    if (Value pred = adaptor.getPred()) {
      // The kernel's own predicate: false reads nothing (src-size 0) from the tensor's base.
      Value full = sourceBytes ? sourceBytes
                               : arith::ConstantOp::create(rewriter, loc,
                                                           rewriter.getI32IntegerAttr(bytes));
      Value none = arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
      sourceBytes = arith::SelectOp::create(rewriter, loc, pred, full, none);
      source = arith::SelectOp::create(rewriter, loc, pred, source, adaptor.getSource());
    }
    // .cg (L2 only) exists for 16-byte copies; smaller ones go through L1 (.ca).
    auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA;
    NVVM::CpAsyncOp::create(rewriter, loc, dest, source, static_cast<uint32_t>(bytes), modifier,
                            sourceBytes);
    rewriter.eraseOp(op);
    return success();
  }
};

struct CpAsyncWaitLowering : OpConversionPattern<CpAsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CpAsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op,
                                                          static_cast<uint32_t>(op.getPending()));
    return success();
  }
};

/// vector<count x i32> of the fragment's registers.
Value fragmentToRegisters(OpBuilder &b, Location loc, Value fragment, int64_t count) {
  auto registers = VectorType::get({count}, b.getI32Type());
  if (fragment.getType() == registers)
    return fragment;
  return LLVM::BitcastOp::create(b, loc, registers, fragment);
}

struct LdmatrixLowering : OpConversionPattern<LdmatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LdmatrixOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    AccessBuilder ab{rewriter, loc};
    // This lane's row address (the op's indices are per lane), swizzled.
    Value address = ab.smemAddress(op.getSource().getType(), adaptor.getSource(),
                                   adaptor.getIndices());
    int64_t count = op.getCount();
    Type i32 = rewriter.getI32Type();
    Type resultType =
        count == 1 ? i32 : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, i32));
    Value loaded = NVVM::LdMatrixOp::create(
        rewriter, loc, resultType, address, static_cast<uint32_t>(count),
        op.getTrans() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
    SmallVector<Value, 4> registers;
    for (int64_t j = 0; j < count; ++j)
      registers.push_back(count == 1 ? loaded
                                     : LLVM::ExtractValueOp::create(rewriter, loc, loaded, j));
    Value vector = vector::FromElementsOp::create(rewriter, loc, VectorType::get({count}, i32),
                                                  registers);
    if (vector.getType() != op.getResult().getType())
      vector = LLVM::BitcastOp::create(rewriter, loc, op.getResult().getType(), vector);
    rewriter.replaceOp(op, vector);
    return success();
  }
};

struct StmatrixLowering : OpConversionPattern<StmatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(StmatrixOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    AccessBuilder ab{rewriter, loc};
    Value address =
        ab.smemAddress(op.getDest().getType(), adaptor.getDest(), adaptor.getIndices());
    int64_t count = op.getCount();
    Value registers = fragmentToRegisters(rewriter, loc, adaptor.getValue(), count);
    SmallVector<Value, 4> sources;
    for (int64_t j = 0; j < count; ++j)
      sources.push_back(vector::ExtractOp::create(rewriter, loc, registers, j));
    NVVM::StMatrixOp::create(rewriter, loc, address, sources,
                             op.getTrans() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
                             NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
                             NVVM::LdStMatrixEltType::B16);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MmaSyncLowering : OpConversionPattern<MmaSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MmaSyncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type element = op.getA().getType().getElementType();
    Type f32 = rewriter.getF32Type();
    // The multiplicands as 32-bit registers: i32 for bf16 and tf32, vector<2xf16> for f16.
    auto registers = [&](Value fragment, int64_t count) {
      Value packed = fragmentToRegisters(rewriter, loc, fragment, count);
      SmallVector<Value, 4> values;
      for (int64_t j = 0; j < count; ++j) {
        Value value = vector::ExtractOp::create(rewriter, loc, packed, j);
        if (element.isF16())
          value = LLVM::BitcastOp::create(rewriter, loc, VectorType::get({2}, element), value);
        values.push_back(value);
      }
      return values;
    };
    bool tf32 = element.isF32();
    SmallVector<Value, 4> a = registers(adaptor.getA(), 4);
    SmallVector<Value, 4> b = registers(adaptor.getB(), 2);
    SmallVector<Value, 4> c;
    for (int64_t j = 0; j < 4; ++j)
      c.push_back(vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), j));
    NVVM::MMATypes type = tf32              ? NVVM::MMATypes::tf32
                          : element.isBF16() ? NVVM::MMATypes::bf16
                                             : NVVM::MMATypes::f16;
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
    Value d = NVVM::MmaOp::create(
        rewriter, loc, structType, a, b, c, ArrayRef<int64_t>{16, 8, tf32 ? 8 : 16},
        std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value, 4> results;
    for (int64_t j = 0; j < 4; ++j)
      results.push_back(LLVM::ExtractValueOp::create(rewriter, loc, d, j));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getResult().getType(), results);
    return success();
  }
};

/// Lane t (g = t / 4, q = t % 4) holds accumulator elements 0-1 at (g, 2q), (g, 2q + 1) and 2-3
/// at (g + 8, 2q), (g + 8, 2q + 1) of the 16x8 tile: two pair stores.
struct MmaSyncStoreLowering : OpConversionPattern<MmaSyncStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MmaSyncStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tensor = cast<GlobalTensorType>(op.getDest().getType());
    auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
    Value lane = arith::RemUIOp::create(rewriter, loc, linearThreadId(rewriter, loc, op), c(32));
    Value g = arith::DivUIOp::create(rewriter, loc, lane, c(4));
    Value q = arith::RemUIOp::create(rewriter, loc, lane, c(4));
    Value row0 = arith::AddIOp::create(rewriter, loc, adaptor.getRow(), g);
    Value col = arith::AddIOp::create(rewriter, loc, adaptor.getCol(),
                                      arith::MulIOp::create(rewriter, loc, q, c(2)));
    emitAccumulatorBlockStore(rewriter, loc, op, tensor, adaptor.getDest(), adaptor.getAcc(), row0,
                              col, /*first=*/0, op.getMasked());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateCakeAmperePatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CpAsyncLowering, SimpleLowering<CpAsyncCommitOp, NVVM::CpAsyncCommitGroupOp>, CpAsyncWaitLowering, LdmatrixLowering,
               StmatrixLowering, MmaSyncLowering, MmaSyncStoreLowering>(converter,
                                                                        patterns.getContext());
}
