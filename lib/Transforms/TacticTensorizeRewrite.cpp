//===- TacticTensorizeRewrite.cpp - cake-tactic-tensorize's rewrite --------===//
//
// Puts a matched warp dot-product reduction (TacticTensorize.h's Site) on tensor cores; the
// layout and the schedule are described in TacticTensorize.cpp's file comment and in Tactics/Tensorize.td.
// The steps, in the order they build the kernel: the warp's rows and their A fragments, the shared
// tile of B rows and its copy, the loop over tiles (prologue, compute, next tile), the epilogue
// folded per accumulator element, the tail per 8 rows, the grid.
//
//===----------------------------------------------------------------------===//
#include "TacticTensorize.h"
#include "Cake/IR/CakeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::tensorize;

namespace {

class Rewriter {
public:
  Rewriter(RewriterBase &rewriter, KernelOp kernel, Site &site, const Options &options)
      : rewriter(rewriter), kernel(kernel), site(site), o(options), loop(site.rows),
        loc(loop.getLoc()), ctx(loop.getContext()),
        kernelTop(OpBuilder::atBlockBegin(&kernel.getBody().front())),
        element(cast<GlobalTensorType>(site.aLoad.getSource().getType()).getElementType()),
        depth(site.depth), tileRows(options.tile), mTiles(options.rows / 16), slots(2 * mTiles),
        stateCount(loop.getNumRegionIterArgs()), doubled(options.buffers == 2),
        warpgroup(options.warpgroup) {}

  void run();

private:
  // Constants once, at the top of the kernel; no `+ 0`: the output is read by people too.
  Value index(int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(kernelTop, loc, v).getResult();
    return c;
  }
  Value add(OpBuilder &at, Value x, Value y) {
    if (getConstantIntValue(y) == 0)
      return x;
    return arith::AddIOp::create(at, loc, x, y).getResult();
  }
  Value mul(OpBuilder &at, Value x, int64_t y) {
    return arith::MulIOp::create(at, loc, x, index(y)).getResult();
  }
  Value extract(OpBuilder &at, Value vector, int64_t position) {
    return vector::ExtractOp::create(at, loc, vector, ArrayRef<int64_t>{position}).getResult();
  }

  void loadRowsAndFragments(OpBuilder &b);
  void allocateTile(OpBuilder &b);
  SmallVector<Value> tileIndex(OpBuilder &at, Value slot, Value r, Value col);
  std::pair<Value, Value> chunkAt(OpBuilder &at, Value e);
  Value loadChunk(OpBuilder &at, Value base, Value r, Value col);
  SmallVector<Value> loadMine(OpBuilder &at, Value base);
  void storeMine(OpBuilder &at, ValueRange values, Value slot);
  void copyTile(OpBuilder &at, Value base, Value slot);
  void publish(OpBuilder &at);
  SmallVector<Value> fold(OpBuilder &g, ArrayRef<Value> states, Value k, bool guarded,
                          function_ref<Value(OpBuilder &, int64_t)> dotOf);
  SmallVector<Value> emitGroups(OpBuilder &at, ValueRange initStates, bool guarded);
  SmallVector<Value> emitWarpgroup(OpBuilder &at, ValueRange initStates, bool guarded);
  void hoistAboveChain(Operation *fence, Operation *wait, Value acc, ValueRange states);
  SmallVector<Value> emitTile(OpBuilder &at, ValueRange initStates, bool guarded) {
    return warpgroup ? emitWarpgroup(at, initStates, guarded)
                     : emitGroups(at, initStates, guarded);
  }
  void cloneTail(scf::ForOp tiles);

  RewriterBase &rewriter; // erases what the rewrite replaces (the transform op's tracking)
  KernelOp kernel;
  Site &site;
  const Options o;
  scf::ForOp loop;
  Location loc;
  MLIRContext *ctx;
  OpBuilder kernelTop;
  DenseMap<int64_t, Value> constants;
  Type element;
  int64_t depth, tileRows, mTiles, slots;
  unsigned stateCount;
  bool doubled, warpgroup;

  Value lane, upper, group, quad, tid, buffer;
  SmallVector<Value> slotRows;               // the lane's rows, slot 2 m + h
  SmallVector<SmallVector<Value>> aFrags;    // per m-tile, per 16 columns of D
  int64_t perRow = 0, chunks = 0, threads = 0, perThread = 0;
  bool inRegisters = false;                  // the next tile is prefetched into registers
  SmallVector<std::pair<Value, Value>> mine; // this thread's chunks (prefetch only)
  Value k0, slot;                            // in the loop over tiles: its first candidate, slot
  SmallVector<scf::ForOp> groupLoops;        // unrolled once their results have users
};

/// The lane's rows (slot 2 m + h is row `rows * %row + 16 m + 8 h + t/4`: m-tile m, half h) and
/// the A fragments of each m-tile: element pairs (rows 16 m + g (+8), 16 kk + 2 q (+8)) in
/// mma.sync order, which is also wgmma's register fragment per warp.
void Rewriter::loadRowsAndFragments(OpBuilder &b) {
  lane = loop.getLowerBound();
  upper = loop.getUpperBound();
  group = arith::DivUIOp::create(b, loc, lane, index(4));
  quad = arith::RemUIOp::create(b, loc, lane, index(4));
  Value base = add(b, mul(b, site.row, o.rows), group);
  for (int64_t s = 0; s < slots; ++s)
    slotRows.push_back(add(b, base, index(8 * s)));

  aFrags.resize(mTiles);
  auto pairType = VectorType::get({2}, element);
  SmallVector<Value> aPrefix(site.aLoad.getIndices().drop_back(2));
  for (int64_t m = 0; m < mTiles; ++m) {
    Value top = slotRows[2 * m], bottom = slotRows[2 * m + 1];
    for (int64_t kk = 0; kk < depth / 16; ++kk) {
      Value col0 = add(b, mul(b, quad, 2), index(16 * kk));
      Value col1 = add(b, col0, index(8));
      SmallVector<Value> pairs;
      for (auto [r, col] : {std::pair{top, col0}, std::pair{bottom, col0}, std::pair{top, col1},
                            std::pair{bottom, col1}}) {
        SmallVector<Value> at(aPrefix);
        at.append({r, col});
        pairs.push_back(LoadOp::create(b, loc, pairType, site.aLoad.getSource(), at,
                                       b.getUnitAttr(), Value()));
      }
      Value lo = vector::ShuffleOp::create(b, loc, pairs[0], pairs[1], ArrayRef<int64_t>{0, 1, 2, 3});
      Value hi = vector::ShuffleOp::create(b, loc, pairs[2], pairs[3], ArrayRef<int64_t>{0, 1, 2, 3});
      aFrags[m].push_back(
          vector::ShuffleOp::create(b, loc, lo, hi, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    }
  }
}

/// The shared tile of B rows; 8 elements (16 bytes) of padding keep ldmatrix conflict-free. With
/// `buffers = 2` the tiles alternate between two slots of one buffer. For wgmma the tile is
/// K-major in 64-column halves of 128-byte swizzled rows ([D/64, tile, 64]), the layout its
/// shared-memory descriptors describe.
void Rewriter::allocateTile(OpBuilder &b) {
  SmallVector<int64_t> shape{tileRows, depth};
  if (warpgroup)
    shape = {depth / 64, tileRows, 64};
  if (doubled)
    shape.insert(shape.begin(), 2);
  auto type = warpgroup ? SmemType::get(ctx, shape, element, /*swizzle=*/128, /*pad=*/0)
                        : SmemType::get(ctx, shape, element, /*swizzle=*/0, /*pad=*/8);
  buffer = AllocSmemOp::create(b, loc, type).getBuffer();
}

/// Indices of (row r, column col) of the tile in `slot` (null: the single buffer).
SmallVector<Value> Rewriter::tileIndex(OpBuilder &at, Value slot, Value r, Value col) {
  SmallVector<Value> indices;
  if (slot)
    indices.push_back(slot);
  if (warpgroup)
    indices.append({arith::DivUIOp::create(at, loc, col, index(64)), r,
                    arith::RemUIOp::create(at, loc, col, index(64))});
  else
    indices.append({r, col});
  return indices;
}

/// The copy of a tile is in 16-byte chunks: chunk e -> row e / (D/8), column 8 (e mod (D/8)).
std::pair<Value, Value> Rewriter::chunkAt(OpBuilder &at, Value e) {
  Value r = arith::DivUIOp::create(at, loc, e, index(perRow));
  Value col = mul(at, arith::RemUIOp::create(at, loc, e, index(perRow)), 8);
  return {r, col};
}

Value Rewriter::loadChunk(OpBuilder &at, Value base, Value r, Value col) {
  SmallVector<Value> source(site.bLoad.getIndices().drop_back(2));
  source.append({add(at, base, r), col});
  return LoadOp::create(at, loc, VectorType::get({8}, element), site.bLoad.getSource(), source,
                        at.getUnitAttr(), Value())
      .getResult();
}

SmallVector<Value> Rewriter::loadMine(OpBuilder &at, Value base) {
  SmallVector<Value> values;
  for (auto [r, col] : mine)
    values.push_back(loadChunk(at, base, r, col));
  return values;
}

void Rewriter::storeMine(OpBuilder &at, ValueRange values, Value slot) {
  for (auto [value, rc] : llvm::zip_equal(values, mine))
    StoreOp::create(at, loc, value, buffer, tileIndex(at, slot, rc.first, rc.second));
}

/// Without registers: the block copies the tile at `base` chunk by chunk.
void Rewriter::copyTile(OpBuilder &at, Value base, Value slot) {
  auto copy = scf::ForOp::create(at, loc, tid, index(chunks), index(threads));
  OpBuilder c = OpBuilder::atBlockBegin(copy.getBody());
  auto [r, col] = chunkAt(c, copy.getInductionVar());
  StoreOp::create(c, loc, loadChunk(c, base, r, col), buffer, tileIndex(c, slot, r, col));
}

/// A barrier after the tile's stores; wgmma reads through the async proxy, so each writer
/// fences its generic-proxy stores first.
void Rewriter::publish(OpBuilder &at) {
  if (warpgroup)
    FenceProxyAsyncOp::create(at, loc);
  BarrierOp::create(at, loc);
}

/// The epilogue, cloned per row slot, folds candidate `k` (its dot product: `dotOf(slot)`) into
/// the states; guarded by k < K unless the whole tile is below K.
SmallVector<Value> Rewriter::fold(OpBuilder &g, ArrayRef<Value> states, Value k, bool guarded,
                                  function_ref<Value(OpBuilder &, int64_t)> dotOf) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  OpBuilder then = g;
  scf::IfOp guard;
  if (guarded) {
    Value valid = arith::CmpIOp::create(g, loc, arith::CmpIPredicate::ult, k, upper);
    guard = scf::IfOp::create(g, loc, TypeRange(ValueRange(states)), valid, /*withElse=*/true);
    then = OpBuilder::atBlockBegin(guard.thenBlock());
  }
  SmallVector<Value> results;
  for (int64_t slotRow = 0; slotRow < slots; ++slotRow) {
    IRMapping map;
    map.map(loop.getInductionVar(), k);
    for (unsigned s = 0; s < stateCount; ++s)
      map.map(loop.getRegionIterArgs()[s], states[slotRow * stateCount + s]);
    map.map(site.dot.getResult(0), dotOf(then, slotRow));
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != site.dot.getOperation())
        then.clone(op, map);
    for (Value v : yield.getOperands())
      results.push_back(map.lookupOrDefault(v));
  }
  if (!guarded)
    return results;
  scf::YieldOp::create(then, loc, results);
  OpBuilder otherwise = OpBuilder::atBlockBegin(guard.elseBlock());
  scf::YieldOp::create(otherwise, loc, states);
  return SmallVector<Value>(guard.getResults());
}

/// mma.sync, per 8 candidates: the 16 x 8 tile of dot products, then the epilogue per element.
SmallVector<Value> Rewriter::emitGroups(OpBuilder &at, ValueRange initStates, bool guarded) {
  auto groups = scf::ForOp::create(at, loc, index(0), index(tileRows), index(8), initStates);
  OpBuilder g = OpBuilder::atBlockBegin(groups.getBody());
  Value n0 = groups.getInductionVar();
  Value ldRow = add(g, n0, arith::RemUIOp::create(g, loc, lane, index(8)));
  Value ldCol = mul(g, arith::DivUIOp::create(g, loc, lane, index(8)), 8);
  auto accType = VectorType::get({4}, g.getF32Type());
  Value zero = arith::ConstantOp::create(g, loc, accType,
                                         DenseElementsAttr::get(accType, g.getF32FloatAttr(0)));
  SmallVector<Value> acc(mTiles, zero);
  for (int64_t kk2 = 0; kk2 < depth / 32; ++kk2) {
    Value frag = LdmatrixOp::create(g, loc, VectorType::get({8}, element), buffer,
                                    tileIndex(g, slot, ldRow, add(g, ldCol, index(32 * kk2))),
                                    UnitAttr());
    for (int64_t half = 0; half < 2; ++half) {
      int64_t first = 4 * half;
      Value bFrag = vector::ShuffleOp::create(
          g, loc, frag, frag, ArrayRef<int64_t>{first, first + 1, first + 2, first + 3});
      for (int64_t m = 0; m < mTiles; ++m) // one B fragment, every m-tile
        acc[m] = MmaSyncOp::create(g, loc, acc[m], aFrags[m][2 * kk2 + half], bFrag);
    }
  }
  SmallVector<Value> states(groups.getRegionIterArgs());
  Value candidateBase = add(g, add(g, k0, n0), mul(g, quad, 2));
  for (int64_t column = 0; column < 2; ++column)
    states = fold(g, states, add(g, candidateBase, index(column)), guarded,
                  [&](OpBuilder &then, int64_t slotRow) {
                    return extract(then, acc[slotRow / 2], 2 * (slotRow % 2) + column);
                  });
  scf::YieldOp::create(g, loc, states);
  groupLoops.push_back(groups);
  return SmallVector<Value>(groups.getResults());
}

/// wgmma: the warpgroup's 64 x tile dot products in D/16 steps (A from the registers), then the
/// epilogue per element: lane t of warp w holds rows 16 w + t/4 (+ 8) and columns 8 j + 2 (t%4)
/// (+ 1), elements 4 j + 2 h + c, as mma.sync's accumulator per 8 columns.
SmallVector<Value> Rewriter::emitWarpgroup(OpBuilder &at, ValueRange initStates, bool guarded) {
  auto accType = VectorType::get({tileRows / 2}, at.getF32Type());
  Value acc = arith::ConstantOp::create(at, loc, accType,
                                        DenseElementsAttr::get(accType, at.getF32FloatAttr(0)));
  auto fence = WgmmaFenceOp::create(at, loc);
  for (int64_t kk = 0; kk < depth / 16; ++kk) {
    SmallVector<Value> indices;
    if (slot)
      indices.push_back(slot);
    indices.append({index(kk / 4), index(0), index(16 * (kk % 4))});
    acc = WgmmaRegsOp::create(at, loc, acc, aFrags[0][kk], buffer, indices);
  }
  WgmmaCommitOp::create(at, loc);
  auto wait = WgmmaWaitOp::create(at, loc, 0);
  SmallVector<Value> states(initStates);
  Value candidateBase = add(at, k0, mul(at, quad, 2));
  for (int64_t j = 0; j < tileRows / 8; ++j)
    for (int64_t column = 0; column < 2; ++column)
      states = fold(at, states, add(at, candidateBase, index(8 * j + column)), guarded,
                    [&](OpBuilder &then, int64_t slotRow) {
                      return extract(then, acc, 4 * j + 2 * slotRow + column);
                    });
  if (!guarded)
    hoistAboveChain(fence, wait, acc, initStates);
  return states;
}

/// Moves the epilogue's work that needs neither the products nor the rows' states (the candidates'
/// indices, their global loads such as KMeans' |c|^2) from after `wait` to before `fence`, so that
/// the loads' latency hides behind the wgmma chain: neither LLVM nor ptxas moves a load across
/// wgmma.wait. Measured 5.5% faster on the tensorized KMeans (bench/results/2026-12-01-evolve-kmeans-contract/README.md).
/// Only the unguarded epilogue is straight-line code in the chain's block; the ragged tile's keeps
/// its guards. No store is crossed: the pass's precondition is an epilogue that only loads and
/// computes.
void Rewriter::hoistAboveChain(Operation *fence, Operation *wait, Value acc, ValueRange states) {
  llvm::DenseSet<Value> dependent(states.begin(), states.end());
  dependent.insert(acc);
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(wait->getIterator()), wait->getBlock()->end()))) {
    bool needsTile = op.getNumRegions() || op.hasTrait<OpTrait::IsTerminator>() ||
                     llvm::any_of(op.getOperands(), [&](Value v) { return dependent.contains(v); });
    auto load = dyn_cast<LoadOp>(op);
    bool movable = load ? isa<GlobalTensorType>(load.getSource().getType()) : isPure(&op);
    if (needsTile || !movable) {
      dependent.insert(op.getResults().begin(), op.getResults().end());
      continue;
    }
    op.moveBefore(fence);
  }
}

/// The tail, once per row slot; quads now hold what the warp held.
void Rewriter::cloneTail(scf::ForOp tiles) {
  OpBuilder end(loop->getBlock()->getTerminator());
  for (int64_t s = 0; s < slots; ++s) {
    IRMapping map;
    for (unsigned i = 0; i < stateCount; ++i)
      map.map(loop.getResult(i), tiles.getResult(s * stateCount + i));
    map.map(site.row, slotRows[s]);
    map.map(lane, quad);
    for (Operation *op : site.tail)
      end.clone(*op, map)->walk([](Operation *nested) {
        if (auto r = dyn_cast<WarpReduceOp>(nested))
          r.setLanes(4);
        if (auto r = dyn_cast<WarpArgReduceOp>(nested))
          r.setLanes(4);
      });
  }
}

void Rewriter::run() {
  OpBuilder b(loop);
  loadRowsAndFragments(b);
  allocateTile(b);
  tid = ThreadIdOp::create(b, loc, DimAttr::get(ctx, Dim::x));
  SmallVector<Value> init;
  for (int64_t s = 0; s < slots; ++s)
    init.append(loop.getInitArgs().begin(), loop.getInitArgs().end());

  // With `prefetch` (when the chunks divide evenly among at most 8 per thread), each thread's
  // chunks of a later tile are loaded into registers while the current tile is computed.
  perRow = depth / 8, chunks = tileRows * perRow, threads = kernel.getNumThreads();
  perThread = chunks % threads == 0 ? chunks / threads : 0;
  inRegisters = o.prefetch && perThread >= 1 && perThread <= 8;
  if (inRegisters)
    for (int64_t c = 0; c < perThread; ++c)
      mine.push_back(chunkAt(b, add(b, tid, index(c * threads))));

  // Double buffering: tile 0 is in slot 0 before the loop; iteration i computes slot i mod 2,
  // then writes tile i + 1 into the other slot (last read in iteration i - 1, before the barrier
  // that ends it), then one barrier. Single buffer: barrier, write, barrier, compute.
  if (doubled) {
    if (inRegisters) {
      storeMine(b, loadMine(b, index(0)), index(0));
      init.append(loadMine(b, index(tileRows)));
    } else {
      copyTile(b, index(0), index(0));
    }
    publish(b);
  } else if (inRegisters) {
    init.append(loadMine(b, index(0)));
  }
  auto tiles = scf::ForOp::create(b, loc, index(0), upper, index(tileRows), init);
  OpBuilder body = OpBuilder::atBlockBegin(tiles.getBody());
  k0 = tiles.getInductionVar();
  auto carried = tiles.getRegionIterArgs();
  auto prefetched = carried.drop_front(slots * stateCount);
  Value tileEnd = add(body, k0, index(tileRows)); // the next tile's first candidate
  SmallVector<Value> next;
  Value otherSlot;
  if (doubled) {
    slot = arith::RemUIOp::create(
        body, loc, arith::DivUIOp::create(body, loc, k0, index(tileRows)), index(2));
    otherSlot = arith::SubIOp::create(body, loc, index(1), slot);
    if (inRegisters)
      next = loadMine(body, add(body, k0, index(2 * tileRows)));
  } else if (inRegisters) {
    storeMine(body, prefetched, Value());
    publish(body);
    next = loadMine(body, tileEnd);
  } else {
    BarrierOp::create(body, loc);
    copyTile(body, k0, Value());
    publish(body);
  }

  SmallVector<Value> carriedOut;
  ValueRange states = carried.take_front(slots * stateCount);
  if (o.fastpath) {
    // With wgmma each branch has its own copy of the tile's wgmma chain, and ptxas warns C7511
    // ("wgmma.mma_async instructions are serialized"). Issuing one chain before the split
    // silences it and compiles 17% faster, but measured 2% slower on the H200
    // (bench/results/2026-12-01-wgmma-serialization/README.md), so the chain stays cloned.
    Value full = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::ule, tileEnd, upper);
    auto split = scf::IfOp::create(body, loc, TypeRange(states), full, /*withElse=*/true);
    OpBuilder fast = OpBuilder::atBlockBegin(split.thenBlock());
    scf::YieldOp::create(fast, loc, emitTile(fast, states, /*guarded=*/false));
    OpBuilder ragged = OpBuilder::atBlockBegin(split.elseBlock());
    scf::YieldOp::create(ragged, loc, emitTile(ragged, states, /*guarded=*/true));
    carriedOut.append(split.getResults().begin(), split.getResults().end());
  } else {
    carriedOut = emitTile(body, states, /*guarded=*/true);
  }
  if (doubled) {
    if (inRegisters)
      storeMine(body, prefetched, otherSlot);
    else
      copyTile(body, tileEnd, otherSlot);
    publish(body); // the next tile is in place, this one free to overwrite
  } else if (inRegisters) {
    BarrierOp::create(body, loc); // every warp is done with the tile before the next store
  }
  carriedOut.append(next);
  scf::YieldOp::create(body, loc, carriedOut);
  // The groups are independent mma chains: unrolled, ptxas interleaves them.
  if (o.unroll > 1)
    for (scf::ForOp groups : groupLoops)
      (void)loopUnrollByFactor(groups, o.unroll);

  cloneTail(tiles);
  for (Operation *op : llvm::reverse(site.tail))
    rewriter.eraseOp(op);
  rewriter.eraseOp(loop);

  AffineMap grid = kernel.getGrid();
  SmallVector<AffineExpr> extents(grid.getResults());
  extents[0] = extents[0].ceilDiv(o.rows);
  kernel.setGrid(AffineMap::get(0, grid.getNumSymbols(), extents, ctx));
}

} // namespace

void mlir::cake::tensorize::rewrite(RewriterBase &rewriter, KernelOp kernel, Site &site,
                                    const Options &options) {
  Rewriter(rewriter, kernel, site, options).run();
}
