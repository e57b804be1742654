//===- CostValues.cpp - values for the cost walk ----------------------------===//
//
// Values as the walk needs them: symbolic (trip counts, in the problem sizes) and concrete
// (one thread's addresses at the simulated sizes), conditions per thread.
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

std::optional<int64_t> CostWalker::concrete(Value value, Sim &sim, int depth) {
  if (depth > 48)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar()) {
        sim.usedLoopVar = true;
        return concrete(loop.getLowerBound(), sim, depth + 1);
      }
    return std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  int64_t tid = sim.tid;
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getValue().getSExtValue();
    return std::nullopt;
  }
  if (auto t = dyn_cast<ThreadIdOp>(op)) {
    switch (t.getDim()) {
    case Dim::x:
      return tid % blockDims[0];
    case Dim::y:
      return tid / blockDims[0] % blockDims[1];
    default:
      return tid / (blockDims[0] * blockDims[1]);
    }
  }
  if (isa<LaneIdOp>(op))
    return tid % 32;
  if (isa<WarpIdOp>(op))
    return tid / 32;
  if (isa<WarpgroupIdOp>(op))
    return tid / 128;
  if (isa<ElectOneOp>(op))
    return tid % 32 == 0 ? 1 : 0;
  if (isa<BlockIdOp, ClusterIdOp, ClusterBlockIdOp>(op))
    return 0;
  if (auto dim = dyn_cast<BlockDimOp>(op))
    return blockDims[static_cast<unsigned>(dim.getDim())];
  if (auto dim = dyn_cast<GridDimOp>(op)) {
    llvm::StringMap<double> none;
    std::optional<double> v =
        gridDims[static_cast<unsigned>(dim.getDim())].evaluate(simSizes, none);
    if (!v)
      return std::nullopt;
    return static_cast<int64_t>(*v);
  }
  if (auto p = dyn_cast<ProblemSizeOp>(op))
    return static_cast<int64_t>(simSizes.lookup(p.getSymbol()));
  if (isa<PipelineSlotOp>(op)) {
    sim.usedLoopVar = true;
    return 0;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp, arith::ExtSIOp,
          arith::TruncIOp>(op))
    return concrete(op->getOperand(0), sim, depth + 1);
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    std::optional<int64_t> c = concrete(select.getCondition(), sim, depth + 1);
    if (!c)
      return std::nullopt;
    return concrete(*c ? select.getTrueValue() : select.getFalseValue(), sim, depth + 1);
  }
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  std::optional<int64_t> l = concrete(op->getOperand(0), sim, depth + 1);
  std::optional<int64_t> r = concrete(op->getOperand(1), sim, depth + 1);
  if (!l || !r)
    return std::nullopt;
  int64_t x = *l, y = *r;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return x == y;
    case arith::CmpIPredicate::ne:
      return x != y;
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::ult:
      return x < y;
    case arith::CmpIPredicate::sle:
    case arith::CmpIPredicate::ule:
      return x <= y;
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::ugt:
      return x > y;
    case arith::CmpIPredicate::sge:
    case arith::CmpIPredicate::uge:
      return x >= y;
    }
  }
  if (isa<arith::AddIOp>(op))
    return x + y;
  if (isa<arith::SubIOp>(op))
    return x - y;
  if (isa<arith::MulIOp>(op))
    return x * y;
  if (isa<arith::AndIOp>(op))
    return x & y;
  if (isa<arith::OrIOp>(op))
    return x | y;
  if (isa<arith::XOrIOp>(op))
    return x ^ y;
  if (isa<arith::ShLIOp>(op))
    return x << y;
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op))
    return x >> y;
  if (isa<arith::MinUIOp, arith::MinSIOp>(op))
    return std::min(x, y);
  if (isa<arith::MaxUIOp, arith::MaxSIOp>(op))
    return std::max(x, y);
  if (y == 0)
    return std::nullopt;
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(op))
    return x / y;
  if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    return x % y;
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(op))
    return (x + y - 1) / y;
  return std::nullopt;
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
