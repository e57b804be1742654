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

/// The cta_group of a kernel's tcgen05 ops: 2 for a pair allocation.
NVVM::CTAGroupKindAttr ctaGroup(MLIRContext *context, bool pair) {
  return NVVM::CTAGroupKindAttr::get(context, pair ? NVVM::CTAGroupKind::CTA_2
                                                   : NVVM::CTAGroupKind::CTA_1);
}

/// The block's rank in its cluster (i32); in a CTA pair (ranks 2i, 2i + 1 along an even x extent)
/// its low bit tells the odd block.
Value clusterRank(OpBuilder &b, Location loc) {
  return NVVM::ClusterId::create(b, loc, b.getI32Type());
}

/// Opens `if (rank is even)` (the pair's issuing block) and leaves `b` inside it.
void enterEvenBlock(OpBuilder &b, Location loc, Value rank) {
  Value low = arith::AndIOp::create(b, loc, rank, i32Constant(b, loc, 1));
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, i32Constant(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, even, /*withElse=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
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
    NVVM::CTAGroupKindAttr group = ctaGroup(op.getContext(), op.getTmem().getType().getPair());
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inWarpZero(rewriter, loc, op),
                                  /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      NVVM::Tcgen05AllocOp::create(rewriter, loc, slot, i32Constant(rewriter, loc, columns), group);
      if (isLastAllocation(op))
        NVVM::Tcgen05RelinquishAllocPermitOp::create(rewriter, loc, group);
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
    TmemType type = op.getTmem().getType();
    NVVM::Tcgen05DeallocOp::create(rewriter, loc, adaptor.getTmem(),
                                   i32Constant(rewriter, loc, type.getColumns()),
                                   ctaGroup(op.getContext(), type.getPair()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The A/B format field of the instruction descriptor, per kind: kind::f16 f16 0, bf16 1;
/// kind::tf32 2; kind::f8f6f4 e4m3 0, e5m2 1.
int64_t operandFormat(Type element) {
  if (element.isBF16() || isa<Float8E5M2Type>(element))
    return 1;
  return element.isF32() ? 2 : 0;
}

/// The instruction descriptor of a dense MMA with an f32 accumulator and K-major A and B (PTX
/// ISA, "Instruction descriptor"): D format bits 4-5, A and B formats bits 7-9 and 10-12, N >> 3
/// at bit 17, M >> 4 at bit 24.
int64_t instructionDescriptor(Type a, Type b, int64_t m, int64_t n) {
  return (int64_t(1) << 4) | (operandFormat(a) << 7) | (operandFormat(b) << 10) |
         ((n >> 3) << 17) | ((m >> 4) << 24);
}

NVVM::Tcgen05MMAKind mmaKind(Type element) {
  if (element.isF32())
    return NVVM::Tcgen05MMAKind::TF32;
  if (isFp8Type(element))
    return NVVM::Tcgen05MMAKind::F8F6F4;
  return NVVM::Tcgen05MMAKind::F16;
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
    bool pair = op.getAcc().getType().getPair();
    OpBuilder::InsertionGuard guard(rewriter);
    if (pair) // the even block of the pair issues for both
      enterEvenBlock(rewriter, loc, clusterRank(rewriter, loc));
    AccessBuilder ab{rewriter, loc};
    Value descA = tcgen05Descriptor(ab, op.getA().getType(), adaptor.getA(), adaptor.getAIndices());
    Value descB = tcgen05Descriptor(ab, op.getB().getType(), adaptor.getB(), adaptor.getBIndices());
    Type a = op.getA().getType().getElementType(), b = op.getB().getType().getElementType();
    Value idesc = i32Constant(rewriter, loc, instructionDescriptor(a, b, op.getM(), op.getN()));
    // Orders the MMA after whatever synchronization published its operands and freed its
    // accumulator (another warp's tcgen05.ld before a barrier).
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    NVVM::Tcgen05MMAOp::create(rewriter, loc, mmaKind(a),
                               pair ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1,
                               NVVM::Tcgen05MMACollectorOp::DISCARD, /*aShift=*/false,
                               adaptor.getAcc(), descA, descB, idesc, adaptor.getAccumulate(),
                               Value(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05CommitLowering : OpConversionPattern<Tcgen05CommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Tcgen05CommitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    OpBuilder::InsertionGuard guard(rewriter);
    if (!op.getPair()) {
      NVVM::Tcgen05CommitOp::create(rewriter, loc, address, Value());
      rewriter.eraseOp(op);
      return success();
    }
    // The even block commits the pair's MMAs; the arrival lands in both blocks (mask: the two
    // ranks 2i and 2i + 1).
    Value rank = clusterRank(rewriter, loc);
    rewriter.eraseOp(op);
    enterEvenBlock(rewriter, loc, rank);
    Value mask = arith::ShLIOp::create(rewriter, loc, i32Constant(rewriter, loc, 3), rank);
    mask = arith::TruncIOp::create(rewriter, loc, rewriter.getI16Type(), mask);
    NVVM::Tcgen05CommitOp::create(rewriter, loc, address, mask,
                                  ctaGroup(rewriter.getContext(), /*pair=*/true));
    return success();
  }
};

/// The allocation's address `tmem` plus `offset` (an index: lane << 16 | column).
Value tmemAddress(OpBuilder &b, Location loc, Value tmem, Value offset) {
  Value base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tmem);
  Value address = arith::AddIOp::create(
      b, loc, base, arith::IndexCastOp::create(b, loc, b.getI32Type(), offset));
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 6), address);
}

/// The address of the calling warp's lane quarter (warp mod 4; bits 31-16) at `column` (15-0).
Value rowAddress(OpBuilder &b, Location loc, Operation *op, Value tmem, Value column) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value warp = arith::DivUIOp::create(b, loc, linearThreadId(b, loc, op), c(32));
  Value lane0 = arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, warp, c(4)), c(32));
  Value offset = arith::AddIOp::create(b, loc, arith::ShLIOp::create(b, loc, lane0, c(16)), column);
  return tmemAddress(b, loc, tmem, offset);
}

struct Tcgen05CpLowering : OpConversionPattern<Tcgen05CpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Tcgen05CpOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value desc =
        tcgen05Descriptor(ab, op.getSrc().getType(), adaptor.getSrc(), adaptor.getSrcIndices());
    // Lane 0 at the column: the copy fills lanes 0-127.
    Value pointer = tmemAddress(rewriter, loc, adaptor.getTmem(), adaptor.getColumn());
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    rewriter.replaceOpWithNewOp<NVVM::Tcgen05CpOp>(
        op, NVVM::Tcgen05CpShape::SHAPE_128x256b, NVVM::CTAGroupKind::CTA_1,
        NVVM::Tcgen05CpMulticast::NONE, /*srcFormat=*/nullptr, pointer, desc);
    return success();
  }
};

/// The shared address of the cluster launch control answer at `indices` (its leading dims).
Value answerAddress(AccessBuilder &ab, SmemType type, Value base, ValueRange indices) {
  return ab.gep(base, ab.b.getI8Type(), leadingOffset(ab, type, indices));
}

struct ClcTryCancelLowering : OpConversionPattern<ClcTryCancelOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClcTryCancelOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value answer =
        answerAddress(ab, op.getResponse().getType(), adaptor.getResponse(), adaptor.getIndices());
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    rewriter.replaceOpWithNewOp<NVVM::ClusterLaunchControlTryCancelOp>(op, op.getMulticast(),
                                                                       answer, barrier);
    return success();
  }
};

struct ClcQueryLowering : OpConversionPattern<ClcQueryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClcQueryOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value answer =
        answerAddress(ab, op.getResponse().getType(), adaptor.getResponse(), adaptor.getIndices());
    Value bits = LLVM::LoadOp::create(rewriter, loc, rewriter.getIntegerType(128), answer,
                                      /*alignment=*/16);
    using Query = NVVM::ClusterLaunchControlQueryType;
    Value canceled = NVVM::ClusterLaunchControlQueryCancelOp::create(
        rewriter, loc, rewriter.getI1Type(), Query::IS_CANCELED, bits);
    SmallVector<Value> results{canceled};
    for (Query query : {Query::GET_FIRST_CTA_ID_X, Query::GET_FIRST_CTA_ID_Y,
                        Query::GET_FIRST_CTA_ID_Z}) {
      Value id = NVVM::ClusterLaunchControlQueryCancelOp::create(
          rewriter, loc, rewriter.getI32Type(), query, bits);
      results.push_back(
          arith::IndexCastUIOp::create(rewriter, loc, rewriter.getIndexType(), id));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

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
               Tcgen05CpLowering, TmemLoadLowering, TmemStoreLowering, ClcTryCancelLowering,
               ClcQueryLowering>(converter, patterns.getContext());
}
