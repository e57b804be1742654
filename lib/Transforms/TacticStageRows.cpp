//===- TacticStageRows.cpp - tactic: stage lane-strided rows in shared memory ===//
//
// The naive "one warp per item, lanes over candidates" loop reads a global row per lane:
//
//   scf.for %k = %lane to %K step 32 iter_args(...) {            // L1, in the kernel body
//     scf.for %j = 0 to C step w { ... cake.load %t[..., %k, %j] : -> vector<w x T> ... }
//     ...
//   }
//
// Every warp of the block reads the same rows k, so the block can read them once. The tactic
// rewrites L1 into a loop over row tiles that every thread runs the same number of times:
//
//   scf.for %k0 = 0 to %K step 32 iter_args(...) {
//     cake.barrier                                   // the previous tile's readers are done
//     (the block copies rows k0 .. k0+31, columns 0 .. C, of %t into a 32 x C shared tile,
//      masked past the tensor's extent)
//     cake.barrier                                   // the tile is complete
//     %k = k0 + lane
//     scf.if %k < %K { the old body, reading tile[lane, %j] } else { keep the iteration values }
//   }
//
// Preconditions (else [tactic.not-applicable] with the reason): a 1-D block; L1 directly in the
// kernel body (every thread runs it); lower bound `cake.lane_id`, step 32, an upper bound defined
// outside it; a load in a loop L2 directly inside L1 whose second-innermost index is L1's
// induction variable, whose innermost index is L2's (constant bounds 0 .. C, step = the load's
// width), and whose other indices are defined outside L1 and the same in every thread; the tile
// fits the target's shared memory. Only that load changes; results are the same.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"
#include "TacticUtils.h"
#include "Cake/Analysis/ThreadModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

/// A loop and the load it stages.
struct Site {
  scf::ForOp rows;    // L1
  scf::ForOp columns; // L2
  LoadOp load;
  int64_t columnCount = 0;
};

/// Why `loop` is not a loop the tactic stages ("" when it is; `site` is filled).
std::string reason(KernelOp kernel, ThreadModel &model, scf::ForOp loop, Site &site) {
  SmallVector<int64_t, 3> block = kernel.getBlockDims();
  if (block.size() > 1 && (block[1] != 1 || (block.size() > 2 && block[2] != 1)))
    return "a block of more than one dimension";
  if (std::string why = laneStridedLoopReason(model, loop); !why.empty())
    return why;
  Value row = loop.getInductionVar();
  for (auto inner : loop.getBody()->getOps<scf::ForOp>()) {
    std::optional<int64_t> lb = getConstantIntValue(inner.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(inner.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(inner.getStep());
    if (lb != 0 || !ub || !step)
      continue;
    for (auto load : inner.getBody()->getOps<LoadOp>()) {
      auto indices = load.getIndices();
      if (!isa<GlobalTensorType>(load.getSource().getType()) || indices.size() < 2 ||
          indices.back() != inner.getInductionVar() || indices[indices.size() - 2] != row ||
          load.getWidth() != *step || *ub % *step != 0)
        continue;
      bool outerOk = llvm::all_of(indices.drop_back(2), [&](Value index) {
        return !loop->isAncestor(index.getParentRegion()->getParentOp()) &&
               model.isInvariant(index);
      });
      if (!outerOk)
        continue;
      site = {loop, inner, load, *ub};
      return "";
    }
  }
  return "no load reads row = the induction variable, column = an inner loop's";
}

void rewrite(RewriterBase &rewriter, Site &site) {
  scf::ForOp loop = site.rows;
  LoadOp load = site.load;
  Location loc = loop.getLoc();
  auto kernel = loop->getParentOfType<KernelOp>();
  MLIRContext *ctx = loop.getContext();
  OpBuilder b(loop);
  Type element = cast<GlobalTensorType>(load.getSource().getType()).getElementType();
  int64_t width = load.getWidth();
  int64_t columns = site.columnCount;
  auto tileType = SmemType::get(ctx, {32, columns}, element, /*swizzle=*/0, /*pad=*/0);
  Value tile = AllocSmemOp::create(b, loc, tileType).getBuffer();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value c0 = index(0), c32 = index(32);
  int64_t threads = 1;
  for (int64_t d : kernel.getBlockDims())
    threads *= d;
  Value tid = ThreadIdOp::create(b, loc, DimAttr::get(ctx, Dim::x));
  Value lane = loop.getLowerBound();
  Value upper = loop.getUpperBound();

  auto tiles = scf::ForOp::create(b, loc, c0, upper, c32, loop.getInitArgs());
  OpBuilder body = OpBuilder::atBlockBegin(tiles.getBody());
  Value k0 = tiles.getInductionVar();
  BarrierOp::create(body, loc);
  // The copy: 32 x columns elements in chunks of `width`, chunk e -> row e / per, col e % per.
  int64_t perRow = columns / width;
  auto copy = scf::ForOp::create(
      body, loc, tid, arith::ConstantIndexOp::create(body, loc, 32 * perRow),
      arith::ConstantIndexOp::create(body, loc, threads));
  {
    OpBuilder c = OpBuilder::atBlockBegin(copy.getBody());
    Value e = copy.getInductionVar();
    Value per = arith::ConstantIndexOp::create(c, loc, perRow);
    Value r = arith::DivUIOp::create(c, loc, e, per);
    Value col = arith::MulIOp::create(c, loc, arith::RemUIOp::create(c, loc, e, per),
                                      arith::ConstantIndexOp::create(c, loc, width));
    SmallVector<Value> source(load.getIndices().drop_back(2));
    source.push_back(arith::AddIOp::create(c, loc, k0, r));
    source.push_back(col);
    Value v = LoadOp::create(c, loc, load.getResult().getType(), load.getSource(), source,
                             c.getUnitAttr(), Value());
    StoreOp::create(c, loc, v, tile, ValueRange{r, col});
  }
  BarrierOp::create(body, loc);
  Value k = arith::AddIOp::create(body, loc, k0, lane);
  Value valid = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::ult, k, upper);
  auto guard = scf::IfOp::create(body, loc, loop.getResultTypes(), valid, /*withElse=*/true);
  IRMapping map;
  map.map(loop.getInductionVar(), k);
  for (auto [from, to] : llvm::zip(loop.getRegionIterArgs(), tiles.getRegionIterArgs()))
    map.map(from, to);
  {
    OpBuilder then = OpBuilder::atBlockBegin(guard.thenBlock());
    for (Operation &op : loop.getBody()->without_terminator())
      then.clone(op, map);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<Value> results;
    for (Value v : yield.getOperands())
      results.push_back(map.lookupOrDefault(v));
    scf::YieldOp::create(then, loc, results);
    OpBuilder otherwise = OpBuilder::atBlockBegin(guard.elseBlock());
    scf::YieldOp::create(otherwise, loc, tiles.getRegionIterArgs());
  }
  scf::YieldOp::create(body, loc, guard.getResults());

  // The staged load now reads the tile: row = lane, column = the inner loop's variable.
  auto staged = cast<LoadOp>(map.lookup(load.getResult()).getDefiningOp());
  OpBuilder at(staged);
  Value column = staged.getIndices().back();
  Value fromTile = LoadOp::create(at, staged.getLoc(), staged.getResult().getType(), tile,
                                  ValueRange{lane, column}, UnitAttr(), Value());
  rewriter.replaceOp(staged, fromTile);
  rewriter.replaceOp(loop, tiles.getResults());
}
} // namespace

LogicalResult CakeTacticStageRowsOp::applyTactic(RewriterBase &rewriter, Operation *root,
                                                 const Options &) {
  SmallVector<Site> sites;
  SmallVector<std::pair<Location, std::string>> reasons;
  root->walk([&](KernelOp kernel) {
    ThreadModel model(kernel);
    for (auto loop : kernel.getBody().front().getOps<scf::ForOp>()) {
      Site site;
      std::string why = reason(kernel, model, loop, site);
      if (why.empty())
        sites.push_back(site);
      else
        reasons.push_back({loop.getLoc(), why});
    }
  });
  if (sites.empty())
    return reportNothingQualifies(root, passArgument, "lane-strided row loop", reasons);
  for (Site &site : sites) {
    auto kernel = site.rows->getParentOfType<KernelOp>();
    rewrite(rewriter, site);
    if (failed(checkSharedMemoryLimit(kernel, passArgument, "the tile")))
      return failure();
  }
  return success();
}
