//===- MemoryPatterns.cpp - cake memory ops -> llvm -----------------------===//
//
// Global tensors: element offsets from (possibly symbolic) strides, a GEP and one vector access.
// A masked access checks the outer indices against the extents and branches between the full
// vector access and element-wise accesses for the ragged tail. Shared buffers: static strides,
// then the XOR swizzle on the byte offset.
//
//===----------------------------------------------------------------------===//
#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Builds i64 address arithmetic for one access.
struct AccessBuilder {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }

  /// The value of an extent or stride entry: an integer or a problem-size symbol.
  Value entryValue(Attribute entry, Operation *user) {
    if (auto intAttr = dyn_cast<IntegerAttr>(entry))
      return constant(intAttr.getInt());
    auto func = user->getParentOfType<gpu::GPUFuncOp>();
    auto symbols = func->getAttrOfType<ArrayAttr>(kSymbolsAttrName);
    auto name = cast<StringAttr>(entry);
    ArrayRef<BlockArgument> args = func.getArguments().take_back(symbols.size());
    for (auto [symbol, arg] : llvm::zip(symbols, args))
      if (symbol == name)
        return arg;
    llvm_unreachable("the kernel verifier checked symbol names");
  }

  Value product(ArrayRef<Attribute> factors, Operation *user) {
    Value result = constant(1);
    for (Attribute factor : factors)
      result = mul(result, entryValue(factor, user));
    return result;
  }

  /// Element offset of `indices` in `type`.
  Value tensorOffset(GlobalTensorType type, ValueRange indices, Operation *user) {
    Value offset = constant(0);
    for (auto [dim, index] : llvm::enumerate(indices)) {
      SmallVector<Attribute> factors = type.getStrideFactors(dim);
      Value term = toI64(index);
      if (!factors.empty())
        term = mul(term, product(factors, user));
      offset = add(offset, term);
    }
    return offset;
  }

  /// Address of element `offset` past `base`.
  Value gep(Value base, Type elementType, Value offset) {
    return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base, ValueRange{offset});
  }

  /// Byte address of `indices` in a shared buffer, with the buffer's swizzle applied.
  Value smemAddress(SmemType type, Value base, ValueRange indices) {
    ArrayRef<int64_t> shape = type.getShape();
    Value offset = constant(0);
    int64_t stride = type.getElementBytes();
    for (int dim = shape.size() - 1; dim >= 0; --dim) {
      offset = add(offset, mul(toI64(indices[dim]), constant(stride)));
      stride *= shape[dim];
    }
    if (int64_t swizzle = type.getSwizzle()) {
      // Swizzle<B,4,3>: the 16-byte chunk index (bits 4..) XOR the 128-byte row index (bits 7..).
      Value row = arith::ShRUIOp::create(b, loc, offset, constant(7));
      Value bits = arith::AndIOp::create(b, loc, row, constant(swizzle / 16 - 1));
      Value mask = arith::ShLIOp::create(b, loc, bits, constant(4));
      offset = arith::XOrIOp::create(b, loc, offset, mask);
    }
    return gep(base, b.getI8Type(), offset);
  }

  /// (all outer indices in bounds, innermost extent) for a masked access of `type`.
  std::pair<Value, Value> outerBounds(GlobalTensorType type, ValueRange indices, Operation *user) {
    Value inBounds = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    unsigned rank = type.getRank();
    for (unsigned dim = 0; dim + 1 < rank; ++dim) {
      Value extent = entryValue(type.getShape()[dim], user);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, toI64(indices[dim]),
                                       extent);
      inBounds = arith::AndIOp::create(b, loc, inBounds, ok);
    }
    return {inBounds, entryValue(type.getShape()[rank - 1], user)};
  }

  /// True when element `lane` of an access starting at `inner` lies inside `extent`.
  Value laneInBounds(Value rowOk, Value inner, int64_t lane, Value extent) {
    Value position = add(inner, constant(lane));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, position, extent);
    return arith::AndIOp::create(b, loc, rowOk, ok);
  }
};

unsigned accessAlignment(Type registerType) {
  Type element = getElementTypeOrSelf(registerType);
  int64_t width = 1;
  if (auto vector = dyn_cast<VectorType>(registerType))
    width = vector.getNumElements();
  return width * getElementBytes(element);
}

struct AllocSmemLowering : OpConversionPattern<AllocSmemOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AllocSmemOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not inside a lowered kernel");
    SmemType type = op.getBuffer().getType();
    auto arrayType = LLVM::LLVMArrayType::get(rewriter.getI8Type(), type.getSizeInBytes());

    // A unique name per buffer; the symbol table of the gpu.module decides.
    SymbolTable symbols(module);
    std::string name;
    for (unsigned i = 0;; ++i) {
      name = ("__cake_smem_" + llvm::Twine(i)).str();
      if (!symbols.lookup(name))
        break;
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&module.getBodyRegion().front());
      LLVM::GlobalOp::create(rewriter, op.getLoc(), arrayType, /*isConstant=*/false,
                             LLVM::Linkage::Internal, name, Attribute(), type.getAlignment(),
                             /*addrSpace=*/3);
    }
    auto pointerType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(op, pointerType, name);
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
    Value inner = ab.toI64(adaptor.getIndices().back());

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
    AccessBuilder ab{rewriter, loc};
    Value value = adaptor.getValue();
    unsigned alignment = accessAlignment(value.getType());

    if (auto smem = dyn_cast<SmemType>(op.getDest().getType())) {
      Value address = ab.smemAddress(smem, adaptor.getDest(), adaptor.getIndices());
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, value, address, alignment);
      return success();
    }

    auto tensor = cast<GlobalTensorType>(op.getDest().getType());
    Type element = tensor.getElementType();
    Value offset = ab.tensorOffset(tensor, adaptor.getIndices(), op);
    Value address = ab.gep(adaptor.getDest(), element, offset);
    if (!op.getMasked()) {
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, value, address, alignment);
      return success();
    }

    int64_t width = op.getWidth();
    auto [rowOk, extent] = ab.outerBounds(tensor, adaptor.getIndices(), op);
    Value inner = ab.toI64(adaptor.getIndices().back());
    Value fullOk = ab.laneInBounds(rowOk, inner, width - 1, extent);
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, fullOk, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      LLVM::StoreOp::create(rewriter, loc, value, address, alignment);

      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      for (int64_t lane = 0; lane < width; ++lane) {
        Value ok = ab.laneInBounds(rowOk, inner, lane, extent);
        auto laneIf = scf::IfOp::create(rewriter, loc, TypeRange{}, ok, /*withElse=*/false);
        rewriter.setInsertionPointToStart(laneIf.thenBlock());
        Value laneValue = value;
        if (isa<VectorType>(value.getType()))
          laneValue = vector::ExtractOp::create(rewriter, loc, value, lane);
        Value laneAddress = ab.gep(address, element, ab.constant(lane));
        LLVM::StoreOp::create(rewriter, loc, laneValue, laneAddress, getElementBytes(element));
        rewriter.setInsertionPointAfter(laneIf);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateCakeMemoryPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AllocSmemLowering, LoadLowering, StoreLowering>(converter, patterns.getContext());
}
