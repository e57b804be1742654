//===- HopperPatterns.cpp - mbarriers, TMA, roles, pipelines, wgmma -> nvvm ===//
#include "ConversionUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Blocks until the phase of parity `parity` (an index; its low bit) of the barrier completed.
/// A wait the hang-debug option marked (kHangSiteAttrName on `op`) is bounded and reports.
void waitParity(OpBuilder &b, Location loc, Operation *op, Value address, Value parity) {
  Value low = arith::AndIOp::create(b, loc, parity, arith::ConstantIndexOp::create(b, loc, 1));
  Value phase = arith::IndexCastOp::create(b, loc, b.getI32Type(), low);
  if (auto site = op->getAttrOfType<DenseI64ArrayAttr>(kHangSiteAttrName)) {
    emitBoundedWait(b, loc, op, address, phase, site[0], site[1]);
    return;
  }
  // Suspend-time hint of the try_wait loop, in nanoseconds.
  NVVM::MBarrierTryWaitParityOp::create(b, loc, address, phase, i32Constant(b, loc, 1000000));
}

void arrive(OpBuilder &b, Location loc, Value address) {
  NVVM::MBarrierArriveOp::create(b, loc, Type(), address, Value());
}

void arriveExpectTx(OpBuilder &b, Location loc, Value address, int64_t bytes) {
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), address, i32Constant(b, loc, bytes),
                                         NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
}

/// The slot and round of pipeline `iteration`, and the addresses of the slot's barriers.
struct PipelineSlot {
  Value slot, round, full, empty;
};

PipelineSlot pipelineSlot(OpBuilder &b, Location loc, Value base, PipelineType type,
                          Value iteration) {
  Value stages = arith::ConstantIndexOp::create(b, loc, type.getStages());
  PipelineSlot slot;
  slot.slot = arith::RemUIOp::create(b, loc, iteration, stages);
  slot.round = arith::DivUIOp::create(b, loc, iteration, stages);
  slot.full = barrierAddress(b, loc, base, slot.slot);
  Value emptyIndex = arith::AddIOp::create(b, loc, slot.slot, stages);
  slot.empty = barrierAddress(b, loc, base, emptyIndex);
  return slot;
}

template <typename OpTy>
struct SharedAllocLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, sharedAllocationAddress(rewriter, op.getLoc(), op));
    return success();
  }
};

struct MbarrierInitLowering : OpConversionPattern<MbarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MbarrierInitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    NVVM::MBarrierInitOp::create(rewriter, loc, address, i32Constant(rewriter, loc, op.getCount()),
                                 Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierArriveLowering : OpConversionPattern<MbarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MbarrierArriveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    arrive(rewriter, op.getLoc(),
           barrierAddress(rewriter, op.getLoc(), adaptor.getBarriers(), adaptor.getIndex()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierArriveExpectTxLowering : OpConversionPattern<MbarrierArriveExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MbarrierArriveExpectTxOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    arriveExpectTx(rewriter, loc,
                   barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex()),
                   op.getBytes());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierWaitLowering : OpConversionPattern<MbarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MbarrierWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    waitParity(rewriter, loc, op,
               barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex()),
               adaptor.getParity());
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceProxyAsyncLowering : OpConversionPattern<FenceProxyAsyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FenceProxyAsyncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(op.getContext(), NVVM::SharedSpace::shared_cta));
    return success();
  }
};

/// Inline PTX with a memory clobber rather than nvvm.griddepcontrol: the intrinsic reads no memory
/// as LLVM models it, so nothing would keep a global load from being scheduled above the wait.
struct GridDependencyWaitLowering : OpConversionPattern<GridDependencyWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GridDependencyWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    createInlinePtx(rewriter, op.getLoc(), {}, {}, "griddepcontrol.wait;", "~{memory}");
    rewriter.eraseOp(op);
    return success();
  }
};

struct GridDependentsLaunchLowering : OpConversionPattern<GridDependentsLaunchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GridDependentsLaunchOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::GriddepcontrolOp>(op,
                                                        NVVM::GridDepActionKind::launch_dependents);
    return success();
  }
};

struct ElectOneLowering : OpConversionPattern<ElectOneOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ElectOneOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ElectSyncOp>(op, rewriter.getI1Type(), Value());
    return success();
  }
};

/// Thread 0 initializes every slot's barriers; everyone waits for it at a block barrier.
struct PipelineCreateLowering : OpConversionPattern<PipelineCreateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PipelineCreateOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = sharedAllocationAddress(rewriter, loc, op);
    int64_t stages = op.getPipeline().getType().getStages();
    Value tid = linearThreadId(rewriter, loc, op);
    Value isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                                          arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, isFirst, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t i = 0; i < 2 * stages; ++i) {
        Value index = arith::ConstantIndexOp::create(rewriter, loc, i);
        int64_t count = i < stages ? 1 : op.getConsumers();
        NVVM::MBarrierInitOp::create(rewriter, loc, barrierAddress(rewriter, loc, base, index),
                                     i32Constant(rewriter, loc, count), Value());
      }
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    }
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

/// The four pipeline steps: which barrier, wait or arrive, and the parity.
template <typename OpTy>
struct PipelineStepLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineSlot slot = pipelineSlot(rewriter, loc, adaptor.getPipeline(),
                                     op.getPipeline().getType(), adaptor.getIteration());
    if constexpr (std::is_same_v<OpTy, PipelineProducerAcquireOp>) {
      // A fresh barrier counts as having completed the phase before 0: the first round passes.
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      waitParity(rewriter, loc, op, slot.empty, arith::XOrIOp::create(rewriter, loc, slot.round, one));
    } else if constexpr (std::is_same_v<OpTy, PipelineConsumerWaitOp>) {
      waitParity(rewriter, loc, op, slot.full, slot.round);
    } else if constexpr (std::is_same_v<OpTy, PipelineConsumerReleaseOp>) {
      arrive(rewriter, loc, slot.empty);
    } else {
      arriveExpectTx(rewriter, loc, slot.full, op.getTxBytes());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct PipelineSlotLowering : OpConversionPattern<PipelineSlotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PipelineSlotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value stages = arith::ConstantIndexOp::create(rewriter, op.getLoc(),
                                                  op.getPipeline().getType().getStages());
    rewriter.replaceOpWithNewOp<arith::RemUIOp>(op, adaptor.getIteration(), stages);
    return success();
  }
};

struct TmaLoadLowering : OpConversionPattern<TmaLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value dest = ab.gep(adaptor.getDest(), rewriter.getI8Type(),
                        leadingOffset(ab, op.getDest().getType(), adaptor.getDestIndices()));
    // The copy's destination is shared::cluster (address space 7).
    dest = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 7), dest);
    Value barrier;
    if (auto pipeline = dyn_cast<PipelineType>(op.getBarrier().getType()))
      barrier = pipelineSlot(rewriter, loc, adaptor.getBarrier(), pipeline,
                             adaptor.getBarrierIndex())
                    .full;
    else
      barrier = barrierAddress(rewriter, loc, adaptor.getBarrier(), adaptor.getBarrierIndex());
    // Tensor-map coordinates run innermost first.
    SmallVector<Value> coords;
    for (Value coord : llvm::reverse(adaptor.getCoords()))
      coords.push_back(arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), coord));
    Value mask;
    if (Value multicast = adaptor.getMulticast())
      mask = arith::IndexCastOp::create(rewriter, loc, rewriter.getI16Type(), multicast);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, dest, adaptor.getDescriptor(), coords, barrier, ValueRange{}, mask,
        Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr, Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreLowering : OpConversionPattern<TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Value source = ab.gep(adaptor.getSource(), rewriter.getI8Type(),
                          leadingOffset(ab, op.getSource().getType(), adaptor.getSourceIndices()));
    SmallVector<Value> coords;
    for (Value coord : llvm::reverse(adaptor.getCoords()))
      coords.push_back(arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), coord));
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(rewriter, loc, adaptor.getDescriptor(),
                                                       source, coords, Value(),
                                                       NVVM::TMAStoreMode::TILE, Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreWaitLowering : OpConversionPattern<TmaStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // `.read`: wait only until the groups have finished reading shared memory.
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, static_cast<uint32_t>(op.getPending()), rewriter.getUnitAttr());
    return success();
  }
};

struct ClusterBarrierLowering : OpConversionPattern<ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClusterBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitBarrierMark(rewriter, op.getLoc(), op, /*enter=*/true);
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), rewriter.getUnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, op.getLoc(), rewriter.getUnitAttr());
    emitBarrierMark(rewriter, op.getLoc(), op, /*enter=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

struct NamedBarrierLowering : OpConversionPattern<NamedBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(NamedBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitBarrierMark(rewriter, loc, op, /*enter=*/true);
    NVVM::BarrierOp::create(rewriter, loc, Type(), i32Constant(rewriter, loc, op.getId()),
                            i32Constant(rewriter, loc, op.getThreads()), nullptr, Value());
    emitBarrierMark(rewriter, loc, op, /*enter=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each role: `if (first <= warp < last) { setmaxnreg; body }`.
struct WarpRolesLowering : OpConversionPattern<WarpRolesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpRolesOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t, 3> block = knownBlockSize(op);
    int64_t threads = block[0] * block[1] * block[2];
    // With one block per SM, ptxas caps the entry budget at the register file's share per thread.
    int64_t entryRegs = std::min<int64_t>(255, 65536 / threads / 8 * 8);
    Value warp = arith::DivUIOp::create(rewriter, loc, linearThreadId(rewriter, loc, op),
                                        arith::ConstantIndexOp::create(rewriter, loc, 32));
    for (RoleOp role : llvm::make_early_inc_range(op.getBody().front().getOps<RoleOp>())) {
      Value lo = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, warp,
          arith::ConstantIndexOp::create(rewriter, loc, role.getFirst()));
      Value hi = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, warp,
          arith::ConstantIndexOp::create(rewriter, loc, role.getLast()));
      Value inRole = arith::AndIOp::create(rewriter, loc, lo, hi);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inRole, /*withElse=*/false);
      Block *then = ifOp.thenBlock();
      rewriter.setInsertionPointToStart(then);
      if (std::optional<int64_t> regs = role.getRegs(); regs && *regs != entryRegs)
        NVVM::SetMaxRegisterOp::create(rewriter, loc, *regs,
                                       *regs > entryRegs ? NVVM::SetMaxRegisterAction::increase
                                                         : NVVM::SetMaxRegisterAction::decrease);
      Block &body = role.getBody().front();
      rewriter.eraseOp(body.getTerminator());
      rewriter.inlineBlockBefore(&body, then->getTerminator());
      rewriter.setInsertionPointAfter(ifOp);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct WgmmaWaitLowering : OpConversionPattern<WgmmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::WgmmaWaitGroupSyncOp>(op, op.getPending());
    return success();
  }
};

/// The fragment coordinates of the calling thread: its first row (r; the other is r + 8) in the
/// warpgroup's 64-row fragment, and its first column (c; pairs c, c + 1 in each 8-column block).
std::pair<Value, Value> fragmentOrigin(OpBuilder &b, Location loc, Operation *op) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value t = arith::RemUIOp::create(b, loc, linearThreadId(b, loc, op), c(128));
  Value warp = arith::DivUIOp::create(b, loc, t, c(32));
  Value lane = arith::RemUIOp::create(b, loc, t, c(32));
  Value row = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, warp, c(16)),
                                    arith::DivUIOp::create(b, loc, lane, c(4)));
  Value col = arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, lane, c(4)), c(2));
  return {row, col};
}

/// A chain that starts from zeros (`acc = 0`, as each tile of a GEMM or distance matrix does) is
/// lowered with scale-d = 0, D = A * B, and no accumulator inputs. Materialising the zeros instead
/// puts 32-128 register moves between wgmma.fence and the wgmma, and ptxas then serialises every
/// wgmma of the kernel ("C7511: wgmma.mma_async instructions are serialized due to insufficient
/// register resources").
bool startsFromZero(Value original, Value converted) {
  return matchPattern(original, m_AnyZeroFloat()) || matchPattern(converted, m_AnyZeroFloat());
}

struct WgmmaLowering : OpConversionPattern<WgmmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    AccessBuilder ab{rewriter, loc};
    Value descA = wgmmaDescriptor(ab, op.getA().getType(), adaptor.getA(), adaptor.getAIndices());
    Value descB = wgmmaDescriptor(ab, op.getB().getType(), adaptor.getB(), adaptor.getBIndices());

    // The accumulator travels as a vector; the instruction takes and returns a struct.
    auto accType = op.getAcc().getType();
    int64_t count = accType.getNumElements();
    auto structType =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, rewriter.getF32Type()));
    bool zero = startsFromZero(op.getAcc(), adaptor.getAcc());
    Value packed = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t i = 0; !zero && i < count; ++i) {
      Value element = vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), i);
      packed = LLVM::InsertValueOp::create(rewriter, loc, packed, element, i);
    }
    Type element = op.getA().getType().getElementType();
    auto type = element.isBF16()  ? NVVM::WGMMATypes::bf16
                : element.isF16() ? NVVM::WGMMATypes::f16
                                  : NVVM::WGMMATypes::tf32;
    Value result = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, packed, descA, descB,
        NVVM::MMAShapeAttr::get(ctx, 64, op.getN(), op.getK()), type, type, NVVM::WGMMATypes::f32,
        zero ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
        NVVM::WGMMAScaleIn::one,
        NVVM::MMALayout::row, NVVM::MMALayout::col, nullptr);
    rewriter.replaceOp(op, structToVector(rewriter, loc, result, accType));
    return success();
  }
};

/// wgmma with A from registers. NVVM's wgmma op takes only shared-memory descriptors, so this
/// form is inline PTX: the accumulator registers are outputs tied to the inputs ("0".."n-1"), A is
/// four 32-bit registers ("r"), B's descriptor a 64-bit one ("l"); scale-d is 1 (accumulate), the
/// scales of A and B are 1, and B is K-major (imm-trans-b 0; tf32 takes no imm-trans-b operand:
/// its operands are K-major by definition, and ptxas rejects the operand). From a zero
/// accumulator, scale-d is 0 and the outputs are tied to nothing (startsFromZero).
struct WgmmaRegsLowering : OpConversionPattern<WgmmaRegsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaRegsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    AccessBuilder ab{rewriter, loc};
    Value descB = wgmmaDescriptor(ab, op.getB().getType(), adaptor.getB(), adaptor.getBIndices());
    int64_t count = op.getAcc().getType().getNumElements();
    Type f32 = rewriter.getF32Type();

    SmallVector<Value> operands;
    Value aWords = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({4}, rewriter.getI32Type()), adaptor.getA());
    for (int64_t i = 0; i < 4; ++i)
      operands.push_back(vector::ExtractOp::create(rewriter, loc, aWords, i));
    operands.push_back(descB);
    bool zero = startsFromZero(op.getAcc(), adaptor.getAcc());
    for (int64_t i = 0; !zero && i < count; ++i)
      operands.push_back(vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), i));

    std::string dRegs, constraints;
    for (int64_t i = 0; i < count; ++i) {
      dRegs += (i ? ", $" : "$") + std::to_string(i);
      constraints += (i ? ",=f" : "=f");
    }
    constraints += ",r,r,r,r,l";
    for (int64_t i = 0; !zero && i < count; ++i)
      constraints += "," + std::to_string(i);
    Type element = op.getB().getType().getElementType();
    StringRef type = element.isBF16() ? "bf16" : element.isF16() ? "f16" : "tf32";
    std::string a = "{$" + std::to_string(count) + ", $" + std::to_string(count + 1) + ", $" +
                    std::to_string(count + 2) + ", $" + std::to_string(count + 3) + "}";
    std::string ptx = std::string("{\n.reg .pred p;\nsetp.ne.b32 p, ") + (zero ? "0" : "1") +
                      ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                      std::to_string(op.getN()) + "k" + std::to_string(op.getK()) + ".f32." +
                      type.str() + "." + type.str() + " {" + dRegs + "}, " + a + ", $" +
                      std::to_string(count + 4) + ", p, 1, 1" + (type == "tf32" ? "" : ", 0") +
                      ";\n}";
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, f32));
    Operation *asmOp = createInlinePtx(rewriter, loc, structType, operands, ptx, constraints);
    rewriter.replaceOp(op, structToVector(rewriter, loc, asmOp->getResult(0), op.getAcc().getType()));
    return success();
  }
};

/// Thread t of the warpgroup holds, for each 8-column block i, the pairs at rows
/// 16 * (t / 32) + (t % 32) / 4 (+ 8) and columns 8 * i + 2 * (t % 4) (+ 1): elements 4i..4i+3.
struct WgmmaStoreLowering : OpConversionPattern<WgmmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tensor = cast<GlobalTensorType>(op.getDest().getType());
    auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
    auto [fragmentRow, fragmentCol] = fragmentOrigin(rewriter, loc, op);
    Value row0 = arith::AddIOp::create(rewriter, loc, adaptor.getRow(), fragmentRow);
    Value col0 = arith::AddIOp::create(rewriter, loc, adaptor.getCol(), fragmentCol);
    int64_t n = 2 * op.getAcc().getType().getNumElements();
    for (int64_t i = 0; i < n / 8; ++i) {
      Value col = arith::AddIOp::create(rewriter, loc, col0, c(8 * i));
      emitAccumulatorBlockStore(rewriter, loc, op, tensor, adaptor.getDest(), adaptor.getAcc(),
                                row0, col, /*first=*/4 * i, op.getMasked());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Scans the thread's columns in increasing order (strict comparison keeps the first of equal
/// values), then combines the four lanes of each row's quad.
struct WgmmaRowArgReduceLowering : OpConversionPattern<WgmmaRowArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaRowArgReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    SmemType biasType = op.getBias().getType();
    Value col0 = fragmentOrigin(rewriter, loc, op).second;
    // Address of bias[col0] (the start indices, then this thread's first column).
    SmallVector<Value> indices(adaptor.getBiasIndices());
    indices.back() = arith::AddIOp::create(rewriter, loc, indices.back(), col0);
    Value biasBase = ab.smemAddress(biasType, adaptor.getBias(), indices);
    Value col0I32 = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(), col0);
    Value valid = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                             adaptor.getValid());
    Value scale = arith::ConstantOp::create(rewriter, loc, op.getScaleAttr());
    bool isMin = op.getKind() == ArgReduceKind::argmin;
    float worst = isMin ? std::numeric_limits<float>::infinity()
                        : -std::numeric_limits<float>::infinity();
    Value worstValue = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(worst));
    auto better = isMin ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT;
    int64_t n = 2 * op.getAcc().getType().getNumElements();

    SmallVector<Value, 2> bestValue(2, worstValue), bestColumn(2, col0I32);
    auto pairType = VectorType::get({2}, rewriter.getF32Type());
    for (int64_t i = 0; i < n / 8; ++i) {
      // bias[col0 + 8i], bias[col0 + 8i + 1]: one 8-byte shared load.
      Value pairAddress = ab.gep(biasBase, rewriter.getF32Type(), ab.constant(8 * i));
      Value biasPair = LLVM::LoadOp::create(rewriter, loc, pairType, pairAddress, 8);
      for (int64_t j = 0; j < 2; ++j) {
        Value bias = vector::ExtractOp::create(rewriter, loc, biasPair, j);
        Value column = arith::AddIOp::create(
            rewriter, loc, col0I32, arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 8 * i + j));
        Value inRange =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, column, valid);
        for (int64_t half = 0; half < 2; ++half) {
          Value acc = vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), 4 * i + 2 * half + j);
          Value value = math::FmaOp::create(rewriter, loc, scale, acc, bias);
          value = arith::SelectOp::create(rewriter, loc, inRange, value, worstValue);
          Value take = arith::CmpFOp::create(rewriter, loc, better, value, bestValue[half]);
          bestValue[half] = arith::SelectOp::create(rewriter, loc, take, value, bestValue[half]);
          bestColumn[half] = arith::SelectOp::create(rewriter, loc, take, column, bestColumn[half]);
        }
      }
    }
    SmallVector<Value, 2> values, columns;
    for (int64_t half = 0; half < 2; ++half) {
      auto [value, column] = argReduceButterfly(rewriter, loc, op.getKind(), bestValue[half],
                                                bestColumn[half], /*lanes=*/4);
      values.push_back(value);
      columns.push_back(column);
    }
    Value valueVector = vector::FromElementsOp::create(rewriter, loc, pairType, values);
    Value columnVector = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({2}, rewriter.getI32Type()), columns);
    rewriter.replaceOp(op, {valueVector, columnVector});
    return success();
  }
};

/// The first lane of each quad stores (or, with `min`, merges) its two rows' values.
struct WgmmaStoreRowsLowering : OpConversionPattern<WgmmaStoreRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WgmmaStoreRowsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [row, col] = fragmentOrigin(rewriter, loc, op);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, col,
                                        arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, first, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    auto tensor = cast<GlobalTensorType>(op.getDest().getType());
    for (int64_t half = 0; half < 2; ++half) {
      SmallVector<Value> indices(adaptor.getIndices());
      Value r = arith::AddIOp::create(rewriter, loc, row,
                                      arith::ConstantIndexOp::create(rewriter, loc, 8 * half));
      indices.back() = arith::AddIOp::create(rewriter, loc, indices.back(), r);
      Value value = vector::ExtractOp::create(rewriter, loc, adaptor.getValues(), half);
      if (op.getMin())
        emitGlobalAtomic(rewriter, loc, op, tensor, adaptor.getDest(), indices, value,
                         LLVM::AtomicBinOp::umin, op.getMasked());
      else
        emitGlobalStore(rewriter, loc, op, tensor, adaptor.getDest(), indices, value,
                        op.getMasked(), /*checkAligned=*/false);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// Address of mbarrier `index` (an index value) in the array at `base`.
Value mlir::cake::barrierAddress(OpBuilder &b, Location loc, Value base, Value index) {
  AccessBuilder ab{b, loc};
  Value offset = ab.mul(ab.toI64(index), ab.constant(8));
  return ab.gep(base, b.getI8Type(), offset);
}

/// Byte offset of `indices` (a prefix of the buffer's dimensions) in a row-major shared buffer.
Value mlir::cake::leadingOffset(AccessBuilder &ab, SmemType type, ValueRange indices) {
  Value offset = ab.constant(0);
  for (auto [index, stride] : llvm::zip(indices, type.getElementStrides()))
    offset = ab.add(offset, ab.mul(ab.toI64(index), ab.constant(stride * type.getElementBytes())));
  return offset;
}

/// The 64-bit wgmma shared-memory descriptor of the K-major tile at `indices` of `type`: start
/// address, leading byte offset (unused with swizzle: 1), stride byte offset (8 rows), swizzle mode.
/// It is the buffer's own descriptor plus the tile's offset in 16-byte units: the buffer part is
/// loop-invariant and each wgmma adds integers instead of rebuilding the fields from its address.
/// Exact because buffers are at least 128-byte aligned (floor((base + o) / 16) = base / 16 +
/// floor(o / 16)) and shared addresses stay below 2^18 (the 14-bit field never carries).
Value mlir::cake::wgmmaDescriptor(AccessBuilder &ab, SmemType type, Value base, ValueRange indices) {
  OpBuilder &b = ab.b;
  Location loc = ab.loc;
  int64_t rowBytes = type.getShape().back() * type.getElementBytes();
  int64_t mode = type.getSwizzle() == 128 ? 1 : type.getSwizzle() == 64 ? 2 : 3;
  int64_t fields = (int64_t(1) << 16) | (int64_t((8 * rowBytes) >> 4) << 32) |
                   (int64_t(mode) << 62);
  Value start = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), base);
  Value address = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, start, ab.constant(0x3FFFF)), ab.constant(4));
  Value desc = arith::OrIOp::create(b, loc, address, ab.constant(fields));
  // Steps of whole 16-byte units add directly; the finer ones (a column inside a row) are summed
  // in bytes and added as floor(bytes / 16). With a 32-bit index each step is widened by an
  // opaque cvt.u64.u32: LLVM would fold a plain extension and the scaling into mul.wide.u32,
  // which ptxas (CUDA 13.0) miscompiles on this path into the wgmma descriptor (wrong A rows;
  // bench/results/2026-12-04-library-kmeans-9, README). The indices are non-negative tile
  // positions in shared memory.
  bool narrow = getLoweredIndexBitwidth(base.getParentRegion()->getParentOp()) == 32;
  auto widen = [&](Value index) -> Value {
    if (!narrow)
      return ab.toI64(index);
    if (std::optional<int64_t> value = getConstantIntValue(index))
      return ab.constant(*value);
    Value i32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
    return createInlinePtx(b, loc, b.getI64Type(), i32, "cvt.u64.u32 $0, $1;", "=l,r",
                           /*hasSideEffects=*/false)
        ->getResult(0);
  };
  Value fineBytes;
  for (auto [index, stride] : llvm::zip(indices, type.getElementStrides())) {
    int64_t bytes = stride * type.getElementBytes();
    if (bytes % 16 == 0) {
      desc = ab.add(desc, ab.mul(widen(index), ab.constant(bytes / 16)));
      continue;
    }
    Value term = ab.mul(widen(index), ab.constant(bytes));
    fineBytes = fineBytes ? ab.add(fineBytes, term) : term;
  }
  if (fineBytes)
    desc = ab.add(desc, arith::ShRUIOp::create(b, loc, fineBytes, ab.constant(4)));
  return desc;
}

void populateCakeHopperPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<
      SharedAllocLowering<MbarrierAllocOp>, MbarrierInitLowering, MbarrierArriveLowering,
      MbarrierArriveExpectTxLowering, MbarrierWaitLowering,
      SimpleLowering<FenceMbarrierInitOp, NVVM::FenceMbarrierInitOp>, FenceProxyAsyncLowering,
      ElectOneLowering, GridDependencyWaitLowering, GridDependentsLaunchLowering,
      PipelineCreateLowering, PipelineStepLowering<PipelineProducerAcquireOp>,
      PipelineStepLowering<PipelineProducerCommitOp>, PipelineStepLowering<PipelineConsumerWaitOp>,
      PipelineStepLowering<PipelineConsumerReleaseOp>, PipelineSlotLowering, TmaLoadLowering,
      WarpRolesLowering, SimpleLowering<WgmmaFenceOp, NVVM::WgmmaFenceAlignedOp>,
      SimpleLowering<WgmmaCommitOp, NVVM::WgmmaGroupSyncAlignedOp>, WgmmaWaitLowering,
      WgmmaLowering, WgmmaStoreLowering, WgmmaRowArgReduceLowering, WgmmaStoreRowsLowering,
      TmaStoreLowering, TmaStoreWaitLowering,
      SimpleLowering<TmaStoreCommitOp, NVVM::CpAsyncBulkCommitGroupOp>, NamedBarrierLowering,
      ClusterBarrierLowering, WgmmaRegsLowering>(converter, patterns.getContext());
}
