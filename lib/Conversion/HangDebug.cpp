//===- HangDebug.cpp - bounded mbarrier waits that report the stalled op --===//
//
// The debug lowering against hangs (cake-convert-to-nvvm{hang-timeout-ms=N}). Every wait on an
// mbarrier phase (cake.mbarrier.wait, cake.pipeline.consumer_wait, producer_acquire) becomes a
// try_wait loop bounded by %globaltimer. On expiry the first thread to time out (an atomic claim
// in device memory) writes one record to the host-mapped buffer whose device address the host
// stored in @__cake_hang_report, fences at system scope and traps; the other expired threads
// sleep until the trap ends the grid, so they cannot tear the record. The record names the site
// (an id the manifest maps to op, location and role), the block, the thread and the parity.
//
// Block, named and cluster barriers (bar.sync, barrier.cluster.wait) have no bounded form. Around
// each, lane 0 of the warp marks {site + 1, block} in the warp's slot of a table after the report
// (slot = %smid * 64 + %warpid) and clears it once through: after a timeout the host reads which
// warps still sit at which barrier.
//
//===----------------------------------------------------------------------===//
#include "ConversionUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::cake;

SmallVector<Operation *> mlir::cake::collectHangSites(Operation *root) {
  SmallVector<Operation *> sites;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<MbarrierWaitOp, PipelineConsumerWaitOp, PipelineProducerAcquireOp, BarrierOp,
            NamedBarrierOp, ClusterBarrierOp>(op))
      sites.push_back(op);
  });
  return sites;
}

void mlir::cake::addHangDebugGlobals(OpBuilder &b, Location loc) {
  // Visible definitions, so that the host finds them with cuModuleGetGlobal.
  LLVM::GlobalOp::create(b, loc, b.getI64Type(), /*isConstant=*/false, LLVM::Linkage::External,
                         kHangReportSymbol, b.getI64IntegerAttr(0), /*alignment=*/8,
                         /*addrSpace=*/1);
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/false, LLVM::Linkage::External,
                         kHangClaimSymbol, b.getI32IntegerAttr(0), /*alignment=*/4,
                         /*addrSpace=*/1);
}

namespace {

Value asmOp(OpBuilder &b, Location loc, Type result, ValueRange operands, StringRef ptx,
            StringRef constraints) {
  Operation *op = createInlinePtx(b, loc, result ? TypeRange(result) : TypeRange(), operands, ptx,
                                  constraints);
  return result ? op->getResult(0) : Value();
}

Value globalAddress(OpBuilder &b, Location loc, StringRef symbol) {
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), symbol);
}

Value toI32(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
}

/// Sleeps forever: an expired thread that lost the claim waits for the winner's trap.
void sleepForever(OpBuilder &b, Location loc) {
  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getBefore());
  asmOp(b, loc, Type(), {}, "nanosleep.u32 1000000;", "");
  scf::ConditionOp::create(b, loc, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1),
                           ValueRange{});
  b.createBlock(&loop.getAfter());
  scf::YieldOp::create(b, loc);
}

/// Claims the report, writes it (when the host mapped a buffer) and traps.
void reportAndTrap(OpBuilder &b, Location loc, Operation *site, int64_t siteId, Value phase,
                   int64_t timeoutMs) {
  auto claimed = LLVM::AtomicCmpXchgOp::create(
      b, loc, globalAddress(b, loc, kHangClaimSymbol), i32Constant(b, loc, 0), i32Constant(b, loc, 1),
      LLVM::AtomicOrdering::acq_rel, LLVM::AtomicOrdering::monotonic);
  Value won = LLVM::ExtractValueOp::create(b, loc, claimed, 1);
  auto ifWon = scf::IfOp::create(b, loc, TypeRange{}, won, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifWon.thenBlock());
    Value holder = globalAddress(b, loc, kHangReportSymbol);
    Value buffer = LLVM::LoadOp::create(b, loc, b.getI64Type(), holder, /*alignment=*/8,
                                        /*isVolatile=*/true);
    Value mapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, buffer,
                                         arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
    auto ifMapped = scf::IfOp::create(b, loc, TypeRange{}, mapped, /*withElse=*/false);
    b.setInsertionPointToStart(ifMapped.thenBlock());
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value base = LLVM::IntToPtrOp::create(b, loc, ptrType, buffer);
    auto word = [&](int64_t index, Value value) {
      Value at = LLVM::GEPOp::create(b, loc, ptrType, b.getI32Type(), base,
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(b, loc, value, at, /*alignment=*/4, /*isVolatile=*/true);
    };
    word(1, i32Constant(b, loc, siteId));
    word(2, toI32(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x)));
    word(3, toI32(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y)));
    word(4, toI32(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::z)));
    word(5, toI32(b, loc, linearThreadId(b, loc, site)));
    word(6, phase);
    word(7, i32Constant(b, loc, timeoutMs));
    // The magic last, after a system-scope fence: a reader never sees a partial record.
    asmOp(b, loc, Type(), {}, "fence.sc.sys;", "");
    word(0, i32Constant(b, loc, kHangReportMagic));
    asmOp(b, loc, Type(), {}, "fence.sc.sys;", "");
    b.setInsertionPointAfter(ifMapped);
    asmOp(b, loc, Type(), {}, "trap;", "");
    b.setInsertionPointToStart(ifWon.elseBlock());
    sleepForever(b, loc);
  }
}

} // namespace

void mlir::cake::emitBoundedWait(OpBuilder &b, Location loc, Operation *site, Value address,
                                 Value phase, int64_t siteId, int64_t timeoutMs) {
  Type i64 = b.getI64Type();
  Value start = NVVM::GlobalTimerOp::create(b, loc, i64);
  Value limit = arith::ConstantIntOp::create(b, loc, i64, timeoutMs * 1000000);
  // try_wait takes the 32-bit shared-window address (as CUTLASS passes it).
  Value shared32 = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), address);

  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getBefore());
  Value done = asmOp(b, loc, b.getI32Type(), {shared32, phase},
                     "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;\n"
                     "selp.u32 $0, 1, 0, p;\n}",
                     "=r,r,r");
  Value pending = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, done, i32Constant(b, loc, 0));
  Value elapsed =
      arith::SubIOp::create(b, loc, NVVM::GlobalTimerOp::create(b, loc, i64), start);
  Value late = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, elapsed, limit);
  Value expired = arith::AndIOp::create(b, loc, pending, late);
  auto ifExpired = scf::IfOp::create(b, loc, TypeRange{}, expired, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifExpired.thenBlock());
    reportAndTrap(b, loc, site, siteId, phase, timeoutMs);
  }
  scf::ConditionOp::create(b, loc, pending, ValueRange{});
  b.createBlock(&loop.getAfter());
  scf::YieldOp::create(b, loc);
}

void mlir::cake::emitBarrierMark(OpBuilder &b, Location loc, Operation *site, bool enter) {
  auto attr = site->getAttrOfType<DenseI64ArrayAttr>(kHangSiteAttrName);
  if (!attr)
    return;
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value buffer = LLVM::LoadOp::create(b, loc, i64, globalAddress(b, loc, kHangReportSymbol),
                                      /*alignment=*/8, /*isVolatile=*/true);
  Value mapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, buffer,
                                       arith::ConstantIntOp::create(b, loc, i64, 0));
  Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      NVVM::LaneIdOp::create(b, loc, i32), i32Constant(b, loc, 0));
  auto ifMark = scf::IfOp::create(b, loc, TypeRange{}, arith::AndIOp::create(b, loc, mapped, lane0),
                                  /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifMark.thenBlock());
  Value slot = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, NVVM::SmIdOp::create(b, loc, i32),
                            i32Constant(b, loc, kHangTableWarpsPerSm)),
      NVVM::WarpIdOp::create(b, loc, i32));
  Value slot64 = arith::ExtUIOp::create(b, loc, i64, slot);
  Value offset = arith::AddIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, i64, kHangTableOffset),
      arith::MulIOp::create(b, loc, slot64, arith::ConstantIntOp::create(b, loc, i64, 8)));
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value address = arith::AddIOp::create(b, loc, buffer, offset);
  Value entry = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
  if (enter) {
    Value blockWord = LLVM::GEPOp::create(b, loc, ptrType, i32, entry, ArrayRef<LLVM::GEPArg>{1});
    LLVM::StoreOp::create(b, loc, toI32(b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x)),
                          blockWord, /*alignment=*/4, /*isVolatile=*/true);
  }
  LLVM::StoreOp::create(b, loc, i32Constant(b, loc, enter ? attr[0] + 1 : 0), entry, /*alignment=*/4,
                        /*isVolatile=*/true);
  // Out to host memory now: a hung warp never gets to flush it later.
  asmOp(b, loc, Type(), {}, "fence.sc.sys;", "");
}

