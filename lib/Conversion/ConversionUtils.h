//===- ConversionUtils.h - helpers shared by the cake lowering patterns -===//
//
// Internal to lib/Conversion: address arithmetic for global and shared accesses, the kernel's
// dynamic shared-memory segment, and thread indexing over the static block.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_CONVERSION_CONVERSIONUTILS_H
#define CAKE_LIB_CONVERSION_CONVERSIONUTILS_H

#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::cake {

/// The extern shared array every kernel's allocations live in (dynamic shared memory).
constexpr llvm::StringLiteral kSharedSegmentName = "__cake_smem";
/// The attribute carrying an allocating op's byte offset in that segment.
constexpr llvm::StringLiteral kSmemOffsetAttrName = "cake.smem_offset";

/// Address of the shared allocation made by `allocOp` (its offset in the segment).
Value sharedAllocationAddress(OpBuilder &b, Location loc, Operation *allocOp);

/// The linear thread index (x fastest) over the kernel's static block, as an index.
Value linearThreadId(OpBuilder &b, Location loc, Operation *inKernel);

/// The static block size recorded on the lowered kernel enclosing `op`.
SmallVector<int64_t, 3> knownBlockSize(Operation *op);

/// The elements of an LLVM struct result (an instruction's register tuple) as a vector of `type`.
Value structToVector(OpBuilder &b, Location loc, Value tuple, VectorType type);

/// One butterfly step: the value `offset` lanes away (xor), over the full warp.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset);

/// Reduces (value, index) pairs over groups of `lanes` consecutive lanes with xor shuffles; every
/// lane of a group gets the winner (ties go to the smaller index).
std::pair<Value, Value> argReduceButterfly(OpBuilder &b, Location loc, ArgReduceKind kind,
                                           Value value, Value index, int64_t lanes);

/// Bytes of one access of `registerType` (its natural alignment).
unsigned accessAlignment(Type registerType);

/// Stores `value` (a scalar or 1-D vector) at `indices` of a global tensor; with `masked`,
/// one vector store when fully in bounds (and, with `checkAligned`, when the element offset is a
/// multiple of the width), else element-wise stores of the in-bounds lanes.
void emitGlobalStore(OpBuilder &b, Location loc, Operation *user, GlobalTensorType tensor,
                     Value base, ValueRange indices, Value value, bool masked,
                     bool checkAligned);

/// An atomic read-modify-write (`kind`, monotonic) of `value` into the element at `indices` of a
/// global tensor; with `masked`, skipped when the element is outside the tensor. Returns the
/// element's previous value (a null Value when masked).
Value emitGlobalAtomic(OpBuilder &b, Location loc, Operation *user, GlobalTensorType tensor,
                       Value base, ValueRange indices, Value value, LLVM::AtomicBinOp kind,
                       bool masked);

/// Defines the hang report globals (kHangReportSymbol, kHangClaimSymbol) at `b`'s insertion point.
void addHangDebugGlobals(OpBuilder &b, Location loc);

/// Waits for the phase `phase` (an i32, its low bit) of the mbarrier at `address` for at most
/// `timeoutMs`; on expiry reports site `siteId` and traps (HangDebug.cpp).
void emitBoundedWait(OpBuilder &b, Location loc, Operation *site, Value address, Value phase,
                     int64_t siteId, int64_t timeoutMs);

/// Around a barrier the hang-debug option marked: lane 0 records (enter) or clears (leave) the
/// barrier's site in its warp's slot of the host-mapped table. No-op on unmarked ops.
void emitBarrierMark(OpBuilder &b, Location loc, Operation *site, bool enter);

/// An i32 constant.
Value i32Constant(OpBuilder &b, Location loc, int64_t value);

/// Inline PTX: `results` from `operands` under `constraints`; with side effects unless told
/// otherwise (a pure one is still opaque to LLVM's folds, which is sometimes its purpose).
Operation *createInlinePtx(OpBuilder &b, Location loc, TypeRange results, ValueRange operands,
                           StringRef ptx, StringRef constraints, bool hasSideEffects = true);

/// Stores one 16x8 accumulator block of an mma fragment (mma.sync's tile, or one 8-column block of
/// a wgmma fragment): elements `first`, `first + 1` of `acc` as a pair at (row0, col) and
/// `first + 2`, `first + 3` at (row0 + 8, col), converted to the tensor's element type. Row strides
/// may be odd (N = 8189): with `masked`, pairs take the vector store only when aligned.
void emitAccumulatorBlockStore(OpBuilder &b, Location loc, Operation *user, GlobalTensorType tensor,
                               Value dest, Value acc, Value row0, Value col, int64_t first,
                               bool masked);

/// Replaces `OpTy` (no operands, no results) by the operand-less NVVM op `NVVMOpTy`.
template <typename OpTy, typename NVVMOpTy>
struct SimpleLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVMOpTy>(op);
    return success();
  }
};

/// Builds the address arithmetic for one access. Global tensor offsets and bounds are computed
/// in `index`, so they take the width the lowering gives it (cake-lower-to-nvvm's
/// index-bitwidth: 32 where the manifest bounds every offset), and are sign-extended to i64 once,
/// at the address. Shared-memory offsets and descriptors are i64.
struct AccessBuilder {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  Value indexConstant(int64_t value) { return arith::ConstantIndexOp::create(b, loc, value); }
  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }

  /// The value of an extent or stride entry as an index: an integer, a specialized symbol's
  /// constant or a problem-size symbol (an i64 kernel argument).
  Value entryIndex(Attribute entry, Operation *user) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry))
      return indexConstant(intAttr.getInt());
    auto func = user->getParentOfType<gpu::GPUFuncOp>();
    auto name = cast<StringAttr>(entry);
    if (auto fixed = func->getAttrOfType<DictionaryAttr>(kSpecializeAttrName))
      if (auto value = fixed.getAs<IntegerAttr>(name))
        return indexConstant(value.getInt());
    auto symbols = func->getAttrOfType<ArrayAttr>(kSymbolsAttrName);
    ArrayRef<BlockArgument> args = func.getArguments().take_back(symbols.size());
    for (auto [symbol, arg] : llvm::zip(symbols, args))
      if (symbol == name)
        return arith::IndexCastOp::create(b, loc, b.getIndexType(), arg);
    llvm_unreachable("the kernel verifier checked symbol names");
  }

  /// Element offset of `indices` in `type`, as an i64 for a GEP.
  Value tensorOffset(GlobalTensorType type, ValueRange indices, Operation *user) {
    Value offset;
    for (auto [dim, index] : llvm::enumerate(indices)) {
      Value stride;
      for (Attribute factor : type.getStrideFactors(dim)) {
        Value value = entryIndex(factor, user);
        stride = stride ? mul(stride, value) : value;
      }
      Value term = stride ? mul(index, stride) : index;
      offset = offset ? add(offset, term) : term;
    }
    return toI64(offset ? offset : indexConstant(0));
  }

  /// Address of element `offset` past `base`.
  Value gep(Value base, Type elementType, Value offset) {
    return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base, ValueRange{offset});
  }

  /// Byte address of `indices` in a shared buffer, with the buffer's swizzle applied.
  Value smemAddress(SmemType type, Value base, ValueRange indices) {
    Value offset = constant(0);
    SmallVector<int64_t> strides = type.getElementStrides();
    for (int dim = strides.size() - 1; dim >= 0; --dim)
      offset = add(offset, mul(toI64(indices[dim]), constant(strides[dim] * type.getElementBytes())));
    if (int64_t swizzle = type.getSwizzle()) {
      // Swizzle<B,4,3>: the 16-byte chunk index (bits 4..) XOR the 128-byte row index (bits 7..).
      Value row = arith::ShRUIOp::create(b, loc, offset, constant(7));
      Value bits = arith::AndIOp::create(b, loc, row, constant(swizzle / 16 - 1));
      Value mask = arith::ShLIOp::create(b, loc, bits, constant(4));
      offset = arith::XOrIOp::create(b, loc, offset, mask);
    }
    return gep(base, b.getI8Type(), offset);
  }

  /// (all outer indices in bounds, innermost extent as an index) for a masked access of `type`.
  std::pair<Value, Value> outerBounds(GlobalTensorType type, ValueRange indices, Operation *user) {
    Value inBounds = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    unsigned rank = type.getRank();
    for (unsigned dim = 0; dim + 1 < rank; ++dim) {
      Value extent = entryIndex(type.getShape()[dim], user);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, indices[dim], extent);
      inBounds = arith::AndIOp::create(b, loc, inBounds, ok);
    }
    return {inBounds, entryIndex(type.getShape()[rank - 1], user)};
  }

  /// True when element `lane` of an access starting at `inner` (an index) lies inside `extent`.
  Value laneInBounds(Value rowOk, Value inner, int64_t lane, Value extent) {
    Value position = lane ? add(inner, indexConstant(lane)) : inner;
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, position, extent);
    return arith::AndIOp::create(b, loc, rowOk, ok);
  }
};


/// Address of mbarrier `index` (an index value) in the array at `base`.
Value barrierAddress(OpBuilder &b, Location loc, Value base, Value index);

/// Byte offset of `indices` (a prefix of the buffer's dimensions) in a row-major shared buffer.
Value leadingOffset(AccessBuilder &ab, SmemType type, ValueRange indices);

/// The 64-bit shared-memory descriptor of the K-major swizzled tile at `indices` of `type`
/// (wgmma's layout; tcgen05's adds its version bit).
Value wgmmaDescriptor(AccessBuilder &ab, SmemType type, Value base, ValueRange indices);

/// Whether cake-convert-to-nvvm lowers this exp2 to `ex2.approx.ftz.f32` (f32 or a 1-D vector of
/// f32 with fastmath<afn>; MathPatterns.cpp).
bool isApproxExp2(math::Exp2Op op);

} // namespace mlir::cake

#endif // CAKE_LIB_CONVERSION_CONVERSIONUTILS_H
