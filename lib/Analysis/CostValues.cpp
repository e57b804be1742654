//===- CostValues.cpp - values for the cost walk ----------------------------===//
//
// Values as the walk needs them: symbolic (trip counts, in the problem sizes) and concrete
// (one thread's addresses at the simulated sizes: the thread model's values at those sizes, with
// the loop counters at their first iteration), conditions per thread.
//
//===----------------------------------------------------------------------===//
#include "CostWalker.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::costwalk;

//===----------------------------------------------------------------------===//
// Values: symbolic (trip counts) and concrete (one thread's addresses)
//===----------------------------------------------------------------------===//

std::optional<Expr> CostWalker::symbolic(Value value, int depth) {
  if (depth > 32)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return symbolic(loop.getLowerBound(), depth + 1);
    return std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return Expr(static_cast<double>(i.getInt()));
  if (auto p = dyn_cast<ProblemSizeOp>(op))
    return Expr::size(p.getSymbol());
  // Thread-dependent values: the warp's trip count is its lanes' maximum, reached at index 0.
  if (isa<ThreadIdOp, LaneIdOp, WarpIdOp, WarpgroupIdOp, BlockIdOp, ClusterIdOp,
          ClusterBlockIdOp>(op))
    return Expr(0.0);
  if (auto dim = dyn_cast<BlockDimOp>(op))
    return Expr(static_cast<double>(blockDims[static_cast<unsigned>(dim.getDim())]));
  if (auto dim = dyn_cast<GridDimOp>(op))
    return gridDims[static_cast<unsigned>(dim.getDim())];
  // A select (e.g. a persistent block's tile count, 0 past the last tile): block 0's value.
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Sim sim{0};
    std::optional<int64_t> c = concrete(select.getCondition(), sim);
    return symbolic(c && !*c ? select.getFalseValue() : select.getTrueValue(), depth + 1);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp,
          arith::TruncIOp>(op))
    return symbolic(op->getOperand(0), depth + 1);
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<Expr> l = symbolic(op->getOperand(0), depth + 1);
  std::optional<Expr> r = symbolic(op->getOperand(1), depth + 1);
  if (!l || !r)
    return std::nullopt;
  if (isa<arith::AddIOp>(op))
    return *l + *r;
  if (isa<arith::SubIOp>(op))
    return *l - *r;
  if (isa<arith::MulIOp>(op))
    return *l * *r;
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
    return Expr::ceilDiv(*l, *r);
  if (isa<arith::MinUIOp, arith::MinSIOp>(op))
    return Expr::min(*l, *r);
  if (isa<arith::MaxUIOp, arith::MaxSIOp>(op))
    return Expr::max(*l, *r);
  if (l->isConst() && r->isConst() && r->getConst() != 0) {
    int64_t x = l->getConst(), y = r->getConst();
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(op))
      return Expr(static_cast<double>(x / y));
    if (isa<arith::RemUIOp, arith::RemSIOp>(op))
      return Expr(static_cast<double>(x % y));
  }
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(op))
    return *l / *r;
  return std::nullopt;
}

ThreadModel &CostWalker::threadModel() {
  if (!model) {
    // One launch at the simulated sizes, seen from block 0 (of its cluster too).
    ShapeProbe probe;
    for (const auto &size : simSizes)
      probe.sizes[size.getKey()] = static_cast<int64_t>(size.getValue());
    for (unsigned d = 0; d < 3; ++d) {
      llvm::StringMap<double> none;
      std::optional<double> extent = gridDims[d].evaluate(simSizes, none);
      probe.gridDim[d] = extent ? static_cast<int64_t>(*extent) : 1;
      probe.clusterBlockId[d] = probe.clusterId[d] = 0;
    }
    model = std::make_unique<ThreadModel>(kernel, std::move(probe));
  }
  return *model;
}

/// Binds in `bound`, for thread `tid`, the loop counters `value` is computed from (each at its
/// loop's lower bound: the walk prices a loop by its first iteration) and the pipeline slots
/// (0). Follows integer arith, index and cake ops; a loaded value ends the search.
void CostWalker::bindFirstIteration(Value value, Sim &sim, DenseMap<Value, int64_t> &bound,
                                    int depth) {
  if (depth > 48 || bound.count(value))
    return;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return;
    sim.usedLoopVar = true;
    if (std::optional<int64_t> lb = concrete(loop.getLowerBound(), sim))
      bound[value] = *lb;
    return;
  }
  Operation *op = value.getDefiningOp();
  if (!op || !isa_and_nonnull<arith::ArithDialect, CakeDialect>(op->getDialect()) ||
      op->getNumRegions() || !getMemoryAccesses(op).empty())
    return;
  if (isa<PipelineSlotOp>(op)) {
    sim.usedLoopVar = true;
    bound[value] = 0;
    return;
  }
  for (Value operand : op->getOperands())
    bindFirstIteration(operand, sim, bound, depth + 1);
}

std::optional<int64_t> CostWalker::concrete(Value value, Sim &sim) {
  DenseMap<Value, int64_t> bound;
  bindFirstIteration(value, sim, bound, 0);
  return evaluateWith(threadModel(), value, sim.tid, bound, int64_t(1) << 52);
}

/// The condition's value for one thread; std::nullopt when it depends on data or on a loop
/// variable (then the branch is assumed taken).
std::optional<bool> CostWalker::condition(Value cond, int64_t tid) {
  Operation *op = cond.getDefiningOp();
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(op)) {
    std::optional<bool> l = condition(andOp.getLhs(), tid), r = condition(andOp.getRhs(), tid);
    if ((l && !*l) || (r && !*r))
      return false;
    if (l && r)
      return true;
    return std::nullopt;
  }
  Sim sim{tid};
  std::optional<int64_t> v = concrete(cond, sim);
  if (!v || sim.usedLoopVar)
    return std::nullopt;
  return *v != 0;
}

Expr CostWalker::tripCount(scf::ForOp loop) {
  std::optional<Expr> lb = symbolic(loop.getLowerBound());
  std::optional<Expr> ub = symbolic(loop.getUpperBound());
  std::optional<Expr> step = symbolic(loop.getStep());
  if (!lb || !ub || !step) {
    assume("the trip count of the loop at " + locString(loop.getLoc()) +
           " depends on data: assumed 1");
    return Expr(1.0);
  }
  return Expr::ceilDiv(Expr::max(Expr(0.0), *ub - *lb), *step);
}
