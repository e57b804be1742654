//===- MemoryPatterns.cpp - cake memory ops -> llvm -----------------------===//
//
// Global tensors: element offsets from (possibly symbolic) strides, a GEP and one vector access.
// A masked access checks the outer indices against the extents and branches between the full
// vector access and element-wise accesses for the ragged tail. Shared buffers: static strides,
// then the XOR swizzle on the byte offset.
//
//===----------------------------------------------------------------------===//
#include "Cake/Conversion/CakeToNVVM.h"
#include "ConversionUtils.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::cake;

unsigned mlir::cake::accessAlignment(Type registerType) {
  Type element = getElementTypeOrSelf(registerType);
  int64_t width = 1;
  if (auto vector = dyn_cast<VectorType>(registerType))
    width = vector.getNumElements();
  return width * getElementBytes(element);
}

void mlir::cake::emitGlobalStore(OpBuilder &b, Location loc, Operation *user,
                                 GlobalTensorType tensor, Value base, ValueRange indices,
                                 Value value, bool masked, bool checkAligned) {
  AccessBuilder ab{b, loc};
  unsigned alignment = accessAlignment(value.getType());
  Type element = tensor.getElementType();
  Value offset = ab.tensorOffset(tensor, indices, user);
  Value address = ab.gep(base, element, offset);
  if (!masked) {
    LLVM::StoreOp::create(b, loc, value, address, alignment);
    return;
  }
  int64_t width = 1;
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    width = vector.getNumElements();
  auto [rowOk, extent] = ab.outerBounds(tensor, indices, user);
  Value inner = indices.back();
  Value fullOk = ab.laneInBounds(rowOk, inner, width - 1, extent);
  if (checkAligned) {
    Value lanes = ab.constant(width);
    Value misaligned = arith::RemUIOp::create(b, loc, offset, lanes);
    Value aligned =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misaligned, ab.constant(0));
    fullOk = arith::AndIOp::create(b, loc, fullOk, aligned);
  }
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, fullOk, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  LLVM::StoreOp::create(b, loc, value, address, alignment);
  b.setInsertionPointToStart(ifOp.elseBlock());
  for (int64_t lane = 0; lane < width; ++lane) {
    Value ok = ab.laneInBounds(rowOk, inner, lane, extent);
    auto laneIf = scf::IfOp::create(b, loc, TypeRange{}, ok, /*withElse=*/false);
    b.setInsertionPointToStart(laneIf.thenBlock());
    Value laneValue = value;
    if (isa<VectorType>(value.getType()))
      laneValue = vector::ExtractOp::create(b, loc, value, lane);
    Value laneAddress = ab.gep(address, element, ab.constant(lane));
    LLVM::StoreOp::create(b, loc, laneValue, laneAddress, getElementBytes(element));
    b.setInsertionPointAfter(laneIf);
  }
}

Value mlir::cake::emitGlobalAtomic(OpBuilder &b, Location loc, Operation *user,
                                   GlobalTensorType tensor, Value base, ValueRange indices,
                                   Value value, LLVM::AtomicBinOp kind, bool masked) {
  AccessBuilder ab{b, loc};
  Value offset = ab.tensorOffset(tensor, indices, user);
  Value address = ab.gep(base, tensor.getElementType(), offset);
  OpBuilder::InsertionGuard guard(b);
  if (masked) {
    auto [rowOk, extent] = ab.outerBounds(tensor, indices, user);
    Value ok = ab.laneInBounds(rowOk, indices.back(), 0, extent);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, ok, /*withElse=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
  }
  Value old =
      LLVM::AtomicRMWOp::create(b, loc, kind, address, value, LLVM::AtomicOrdering::monotonic);
  return masked ? Value() : old;
}

/// A relaxed atomic read-modify-write of a cake.atomic_* op's element, shared memory or global
/// (masked: see emitGlobalAtomic); the previous value, except for a masked global access.
static Value emitAtomic(OpBuilder &b, Location loc, Operation *op, Type destType, Value dest,
                        ValueRange indices, Value value, LLVM::AtomicBinOp kind, bool masked) {
  if (auto smem = dyn_cast<SmemType>(destType)) {
    AccessBuilder ab{b, loc};
    return LLVM::AtomicRMWOp::create(b, loc, kind, ab.smemAddress(smem, dest, indices), value,
                                     LLVM::AtomicOrdering::monotonic);
  }
  return emitGlobalAtomic(b, loc, op, cast<GlobalTensorType>(destType), dest, indices, value, kind,
                          masked);
}

namespace {

struct AllocSmemLowering : OpConversionPattern<AllocSmemOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AllocSmemOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, sharedAllocationAddress(rewriter, op.getLoc(), op));
    return success();
  }
};

struct LoadLowering : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccessBuilder ab{rewriter, loc};
    Type resultType = op.getResult().getType();
    unsigned alignment = accessAlignment(resultType);

    if (auto smem = dyn_cast<SmemType>(op.getSource().getType())) {
      Value address = ab.smemAddress(smem, adaptor.getSource(), adaptor.getIndices());
      rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, address, alignment);
      return success();
    }

    auto tensor = cast<GlobalTensorType>(op.getSource().getType());
    Type element = tensor.getElementType();
    Value offset = ab.tensorOffset(tensor, adaptor.getIndices(), op);
    Value address = ab.gep(adaptor.getSource(), element, offset);
    if (!op.getMasked()) {
      rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, resultType, address, alignment);
      return success();
    }

    int64_t width = op.getWidth();
    Value pad = adaptor.getPad();
    if (!pad)
      pad = arith::ConstantOp::create(rewriter, loc, element, rewriter.getZeroAttr(element));
    auto [rowOk, extent] = ab.outerBounds(tensor, adaptor.getIndices(), op);
    Value inner = adaptor.getIndices().back();

    // Whole access in bounds: one vector load; else element by element with padding.
    Value fullOk = ab.laneInBounds(rowOk, inner, width - 1, extent);
    auto ifOp = scf::IfOp::create(rewriter, loc, resultType, fullOk, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value full = LLVM::LoadOp::create(rewriter, loc, resultType, address, alignment);
      scf::YieldOp::create(rewriter, loc, full);

      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      Value result = isa<VectorType>(resultType)
                         ? vector::BroadcastOp::create(rewriter, loc, resultType, pad).getResult()
                         : pad;
      for (int64_t lane = 0; lane < width; ++lane) {
        Value ok = ab.laneInBounds(rowOk, inner, lane, extent);
        auto laneIf = scf::IfOp::create(rewriter, loc, element, ok, /*withElse=*/true);
        rewriter.setInsertionPointToStart(laneIf.thenBlock());
        Value laneAddress = ab.gep(address, element, ab.constant(lane));
        Value value = LLVM::LoadOp::create(rewriter, loc, element, laneAddress,
                                           getElementBytes(element));
        scf::YieldOp::create(rewriter, loc, value);
        rewriter.setInsertionPointToStart(laneIf.elseBlock());
        scf::YieldOp::create(rewriter, loc, pad);
        rewriter.setInsertionPointAfter(laneIf);
        if (isa<VectorType>(resultType))
          result = vector::InsertOp::create(rewriter, loc, laneIf.getResult(0), result, lane);
        else
          result = laneIf.getResult(0);
      }
      scf::YieldOp::create(rewriter, loc, result);
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct StoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    if (auto smem = dyn_cast<SmemType>(op.getDest().getType())) {
      AccessBuilder ab{rewriter, loc};
      Value address = ab.smemAddress(smem, adaptor.getDest(), adaptor.getIndices());
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, value, address,
                                                 accessAlignment(value.getType()));
      return success();
    }
    emitGlobalStore(rewriter, loc, op, cast<GlobalTensorType>(op.getDest().getType()),
                    adaptor.getDest(), adaptor.getIndices(), value, op.getMasked(),
                    /*checkAligned=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// llvm.atomicrmw add (monotonic: an add needs no ordering with other memory; the NVPTX
/// backend emits red/atom .add), guarded by the bounds check when masked.
/// The llvm.atomicrmw operation of each cake atomic op for a value of `type`.
static LLVM::AtomicBinOp atomicKind(AtomicAddOp, Type type) {
  return type.isF32() ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
}
static LLVM::AtomicBinOp atomicKind(AtomicMinOp, Type) { return LLVM::AtomicBinOp::umin; }

template <typename AtomicOp> struct AtomicLowering : OpConversionPattern<AtomicOp> {
  using OpConversionPattern<AtomicOp>::OpConversionPattern;
  using OpAdaptor = typename AtomicOp::Adaptor;

  LogicalResult matchAndRewrite(AtomicOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value value = adaptor.getValue();
    emitAtomic(rewriter, op.getLoc(), op, op.getDest().getType(), adaptor.getDest(),
               adaptor.getIndices(), value, atomicKind(op, value.getType()), op.getMasked());
    rewriter.eraseOp(op);
    return success();
  }
};

/// NVPTX's scope names (LLVM syncscope): "block" is .cta, "device" is .gpu.
StringRef syncScope(MemoryScope scope) { return scope == MemoryScope::cta ? "block" : "device"; }

/// An acquire-release fence of the scope: LLVM's NVPTX backend (LLVM 22) emits `fence.acq_rel`
/// for it, but lowers the ordering of an atomicrmw to a plain relaxed `atom` (checked with
/// llc-22 -mcpu=sm_90a: acq_rel and seq_cst atomicrmw add both give `atom.global.add.u32`), so
/// ordered atomics are built from fences around a relaxed one.
void emitFence(OpBuilder &b, Location loc, MemoryScope scope) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, syncScope(scope));
}

struct FenceLowering : OpConversionPattern<FenceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(FenceOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    emitFence(rewriter, op.getLoc(), op.getScope());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The relaxed `atom.add` between two fences when `acq_rel` (release before: this thread's
/// earlier accesses are ordered before the add; acquire after: its later ones after), of the
/// device for global memory and of the block for shared memory.
struct AtomicFetchAddLowering : OpConversionPattern<AtomicFetchAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AtomicFetchAddOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemoryScope scope = isa<SmemType>(op.getDest().getType()) ? MemoryScope::cta : MemoryScope::gpu;
    if (op.getAcqRel())
      emitFence(rewriter, loc, scope);
    Value old = emitAtomic(rewriter, loc, op, op.getDest().getType(), adaptor.getDest(),
                           adaptor.getIndices(), adaptor.getValue(), LLVM::AtomicBinOp::add,
                           /*masked=*/false);
    if (op.getAcqRel())
      emitFence(rewriter, loc, scope);
    rewriter.replaceOp(op, old);
    return success();
  }
};

} // namespace

void populateCakeMemoryPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AllocSmemLowering, LoadLowering, StoreLowering, AtomicLowering<AtomicAddOp>,
               AtomicLowering<AtomicMinOp>, AtomicFetchAddLowering, FenceLowering>(
      converter, patterns.getContext());
}
