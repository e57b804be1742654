//===- BlackwellPatterns.cpp - tcgen05 and tensor memory -> nvvm ----------===//
//
// Tensor-memory addresses travel as !llvm.ptr<6>: bits 31-16 the lane, 15-0 the column.
//
//===----------------------------------------------------------------------===//
#include "ConversionUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

/// True in the threads of warp 0.
Value inWarpZero(OpBuilder &b, Location loc, Operation *op) {
  Value warp = arith::DivUIOp::create(b, loc, linearThreadId(b, loc, op),
                                      arith::ConstantIndexOp::create(b, loc, 32));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// A block barrier that orders tcgen05 operations on both sides of it.
void tcgen05Barrier(OpBuilder &b, Location loc) {
  NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  gpu::BarrierOp::create(b, loc);
  NVVM::Tcgen05FenceOp::create(b, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
}

/// Whether `alloc` is the kernel's last tensor-memory allocation (they are all top-level ops of
/// the body): the block gives up its allocation permit after it.
bool isLastAllocation(TmemAllocOp alloc) {
  for (Operation *op = alloc->getNextNode(); op; op = op->getNextNode())
    if (isa<TmemAllocOp>(op))
      return false;
  return true;
}

struct TmemAllocLowering : OpConversionPattern<TmemAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmemAllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = sharedAllocationAddress(rewriter, loc, op);
    int64_t columns = op.getTmem().getType().getColumns();
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inWarpZero(rewriter, loc, op),
                                  /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      NVVM::Tcgen05AllocOp::create(rewriter, loc, slot, i32Constant(rewriter, loc, columns));
      if (isLastAllocation(op))
        NVVM::Tcgen05RelinquishAllocPermitOp::create(rewriter, loc);
    }
    tcgen05Barrier(rewriter, loc);
    Value address = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), slot);
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
        op, LLVM::LLVMPointerType::get(op.getContext(), 6), address);
    return success();
  }
};

struct TmemDeallocLowering : OpConversionPattern<TmemDeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmemDeallocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tcgen05Barrier(rewriter, loc);
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inWarpZero(rewriter, loc, op),
                                  /*withElse=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    NVVM::Tcgen05DeallocOp::create(rewriter, loc, adaptor.getTmem(),
                                   i32Constant(rewriter, loc, op.getTmem().getType().getColumns()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The instruction descriptor of a dense kind::f16 / kind::tf32 MMA with an f32 accumulator and
/// K-major A and B (PTX ISA, "Instruction descriptor"): D format bits 4-5, A and B formats bits
/// 7-9 and 10-12, N >> 3 at bit 17, M >> 4 at bit 24.
int64_t instructionDescriptor(Type element, int64_t m, int64_t n) {
  int64_t format = element.isBF16() ? 1 : element.isF16() ? 0 : 2; // f16 0, bf16 1, tf32 2
  return (int64_t(1) << 4) | (format << 7) | (format << 10) | ((n >> 3) << 17) |
         ((m >> 4) << 24);
}

/// tcgen05's shared-memory descriptor: wgmma's fields plus the version bits 46-48 = 0b001.
Value tcgen05Descriptor(AccessBuilder &ab, SmemType type, Value base, ValueRange indices) {
  return arith::OrIOp::create(ab.b, ab.loc, wgmmaDescriptor(ab, type, base, indices),
                              ab.constant(int64_t(1) << 46));
}

struct Tcgen05MmaLowering : OpConversionPattern<Tcgen05MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Tcgen05MmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value descA = tcgen05Descriptor(ab, op.getA().getType(), adaptor.getA(), adaptor.getAIndices());
    Value descB = tcgen05Descriptor(ab, op.getB().getType(), adaptor.getB(), adaptor.getBIndices());
    Type element = op.getA().getType().getElementType();
    Value idesc = i32Constant(rewriter, loc, instructionDescriptor(element, 128, op.getN()));
    // Orders the MMA after whatever synchronization published its operands and freed its
    // accumulator (another warp's tcgen05.ld before a barrier).
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    NVVM::Tcgen05MMAOp::create(
        rewriter, loc, element.isF32() ? NVVM::Tcgen05MMAKind::TF32 : NVVM::Tcgen05MMAKind::F16,
        NVVM::CTAGroupKind::CTA_1, NVVM::Tcgen05MMACollectorOp::DISCARD, /*aShift=*/false,
        adaptor.getAcc(), descA, descB, idesc, adaptor.getAccumulate(), Value(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05CommitLowering : OpConversionPattern<Tcgen05CommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Tcgen05CommitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value address =
        barrierAddress(rewriter, op.getLoc(), adaptor.getBarriers(), adaptor.getIndex());
    NVVM::Tcgen05CommitOp::create(rewriter, op.getLoc(), address, Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The address of the calling warp's lane quarter (warp mod 4; bits 31-16) at `column` (15-0).
Value rowAddress(OpBuilder &b, Location loc, Operation *op, Value tmem, Value column) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value warp = arith::DivUIOp::create(b, loc, linearThreadId(b, loc, op), c(32));
  Value lane0 = arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, warp, c(4)), c(32));
  Value offset = arith::AddIOp::create(b, loc, arith::ShLIOp::create(b, loc, lane0, c(16)), column);
  Value base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tmem);
  Value address = arith::AddIOp::create(
      b, loc, base, arith::IndexCastOp::create(b, loc, b.getI32Type(), offset));
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 6), address);
}

/// The 32-bit registers of C columns as tcgen05.ld/st take them: i32 for one, vector<Cxi32>.
Type rawRow(OpBuilder &b, int64_t count) {
  return count == 1 ? Type(b.getI32Type()) : Type(VectorType::get({count}, b.getI32Type()));
}

struct TmemLoadLowering : OpConversionPattern<TmemLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmemLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Orders the read after the thread synchronization (an mbarrier wait) that published the
    // MMAs' completion.
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value pointer = rowAddress(rewriter, loc, op, adaptor.getTmem(), adaptor.getColumn());
    VectorType type = op.getResult().getType();
    int64_t count = type.getNumElements();
    Value bits = NVVM::Tcgen05LdOp::create(rewriter, loc, rawRow(rewriter, count), /*pack=*/false,
                                           NVVM::Tcgen05LdStShape::SHAPE_32X32B, pointer, Value());
    NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::LOAD);
    // And the read before the synchronization that lets an MMA overwrite the columns.
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    if (count == 1)
      bits = vector::BroadcastOp::create(rewriter, loc,
                                         VectorType::get({1}, rewriter.getI32Type()), bits);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, type, bits);
    return success();
  }
};

struct TmemStoreLowering : OpConversionPattern<TmemStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmemStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value pointer = rowAddress(rewriter, loc, op, adaptor.getTmem(), adaptor.getColumn());
    int64_t count = op.getValue().getType().getNumElements();
    Value bits = LLVM::BitcastOp::create(
        rewriter, loc, VectorType::get({count}, rewriter.getI32Type()), adaptor.getValue());
    if (count == 1)
      bits = vector::ExtractOp::create(rewriter, loc, bits, 0);
    NVVM::Tcgen05StOp::create(rewriter, loc, /*unpack=*/false,
                              NVVM::Tcgen05LdStShape::SHAPE_32X32B, pointer, bits, Value());
    NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::STORE);
    // The write before the synchronization after which an MMA reads the columns.
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateCakeBlackwellPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TmemAllocLowering, TmemDeallocLowering, Tcgen05MmaLowering, Tcgen05CommitLowering,
               TmemLoadLowering, TmemStoreLowering>(converter, patterns.getContext());
}
