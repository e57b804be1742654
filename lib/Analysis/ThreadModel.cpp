//===- ThreadModel.cpp - which threads execute what, with which values ----===//
#include "Cake/Analysis/ThreadModel.h"
#include "Cake/IR/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cake;

/// Deeper def-use chains than this are treated as varying (no unbounded recursion).
static constexpr unsigned kMaxDepth = 200;

ThreadModel::ThreadModel(KernelOp kernel) : kernel(kernel) {
  block = kernel.getBlockDims();
  numThreads = 1;
  for (int64_t &extent : block) {
    extent = std::max<int64_t>(1, extent);
    numThreads *= extent;
  }
  // The op verifier bounds the block at 1024 threads; stay safe on unverified IR.
  numThreads = std::clamp<int64_t>(numThreads, 1, 1024);
}

ThreadModel::ThreadModel(KernelOp kernel, ShapeProbe shape) : ThreadModel(kernel) {
  probe = std::move(shape);
}

bool mlir::cake::bindGrid(KernelOp kernel, ShapeProbe &probe) {
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  AffineMap grid = kernel.getGrid();
  if (grid.getNumSymbols() != symbols.size())
    return false;
  SmallVector<AffineExpr> values;
  for (StringRef symbol : symbols) {
    auto it = probe.sizes.find(symbol);
    if (it == probe.sizes.end())
      return false;
    values.push_back(getAffineConstantExpr(it->second, kernel.getContext()));
  }
  for (unsigned d = 0; d < grid.getNumResults() && d < 3; ++d) {
    auto c = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(grid.getResult(d).replaceSymbols(values), 0, 0));
    if (!c)
      return false;
    probe.gridDim[d] = c.getValue();
  }
  return true;
}

std::optional<std::pair<int64_t, int64_t>>
mlir::cake::findPartialGroup(const llvm::BitVector &threads, int64_t numThreads, int64_t group) {
  for (int64_t lo = 0; lo < numThreads; lo += group) {
    int64_t hi = std::min(numThreads, lo + group);
    int64_t n = 0;
    for (int64_t t = lo; t < hi; ++t)
      n += threads.test(t);
    if (n != 0 && n != hi - lo)
      return std::make_pair(lo, n);
  }
  return std::nullopt;
}

bool mlir::cake::isWarpgroupCollective(Operation *op) {
  return isa<WgmmaOp, WgmmaFenceOp, WgmmaCommitOp, WgmmaWaitOp>(op);
}

int64_t mlir::cake::getCollectiveGroup(Operation *op) {
  if (isWarpgroupCollective(op))
    return 128;
  // A named barrier is bar.sync, an .aligned instruction: every lane of a warp that executes it
  // must (the hardware counts the warp's arrival as its 32 threads; anything else is undefined).
  if (isa<WarpReduceOp, WarpArgReduceOp, ElectOneOp, NamedBarrierOp>(op))
    return 32;
  return 0;
}

static unsigned bitWidth(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return std::min(64u, integer.getWidth());
  return 0;
}

static int64_t truncate(int64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return v;
  return static_cast<int64_t>(static_cast<uint64_t>(v) & ((uint64_t(1) << width) - 1));
}

static int64_t sext(int64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return v;
  return llvm::SignExtend64(static_cast<uint64_t>(v), width);
}

/// Evaluates a binary or comparison arith op on known operands; nullopt when undefined.
static std::optional<int64_t> fold(Operation *op, ArrayRef<int64_t> args, unsigned width,
                                   unsigned operandWidth) {
  auto s = [&](int64_t v) { return sext(v, operandWidth); };
  auto u = [&](int64_t v) { return static_cast<uint64_t>(v); };
  int64_t result = 0;
  if (isa<arith::AddIOp, index::AddOp>(op)) {
    result = static_cast<int64_t>(u(args[0]) + u(args[1]));
  } else if (isa<arith::SubIOp, index::SubOp>(op)) {
    result = static_cast<int64_t>(u(args[0]) - u(args[1]));
  } else if (isa<arith::MulIOp, index::MulOp>(op)) {
    result = static_cast<int64_t>(u(args[0]) * u(args[1]));
  } else if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, index::DivUOp, index::RemUOp,
                 index::CeilDivUOp>(op)) {
    if (u(args[1]) == 0)
      return std::nullopt;
    if (isa<arith::DivUIOp, index::DivUOp>(op))
      result = u(args[0]) / u(args[1]);
    else if (isa<arith::RemUIOp, index::RemUOp>(op))
      result = u(args[0]) % u(args[1]);
    else
      result = u(args[0]) / u(args[1]) + (u(args[0]) % u(args[1]) != 0);
  } else if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
                 index::DivSOp, index::RemSOp, index::CeilDivSOp, index::FloorDivSOp>(op)) {
    int64_t a = s(args[0]), b = s(args[1]);
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    if (isa<arith::DivSIOp, index::DivSOp>(op))
      result = a / b;
    else if (isa<arith::RemSIOp, index::RemSOp>(op))
      result = a % b;
    else if (isa<arith::CeilDivSIOp, index::CeilDivSOp>(op))
      result = a / b + ((a % b != 0) && ((a < 0) == (b < 0)));
    else
      result = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
  } else if (isa<arith::AndIOp, index::AndOp>(op)) {
    result = args[0] & args[1];
  } else if (isa<arith::OrIOp, index::OrOp>(op)) {
    result = args[0] | args[1];
  } else if (isa<arith::XOrIOp, index::XOrOp>(op)) {
    result = args[0] ^ args[1];
  } else if (isa<arith::MaxUIOp, index::MaxUOp>(op)) {
    result = std::max(u(args[0]), u(args[1]));
  } else if (isa<arith::MinUIOp, index::MinUOp>(op)) {
    result = std::min(u(args[0]), u(args[1]));
  } else if (isa<arith::MaxSIOp, index::MaxSOp>(op)) {
    result = std::max(s(args[0]), s(args[1]));
  } else if (isa<arith::MinSIOp, index::MinSOp>(op)) {
    result = std::min(s(args[0]), s(args[1]));
  } else if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, index::ShlOp, index::ShrUOp,
                 index::ShrSOp>(op)) {
    if (u(args[1]) >= operandWidth)
      return std::nullopt;
    if (isa<arith::ShLIOp, index::ShlOp>(op))
      result = static_cast<int64_t>(u(args[0]) << u(args[1]));
    else if (isa<arith::ShRUIOp, index::ShrUOp>(op))
      result = static_cast<int64_t>(u(args[0]) >> u(args[1]));
    else
      result = s(args[0]) >> u(args[1]);
  } else if (isa<arith::CmpIOp, index::CmpOp>(op)) {
    int64_t a = args[0], b = args[1];
    // index.cmp's predicates are numbered as arith.cmpi's.
    auto cmp = dyn_cast<arith::CmpIOp>(op);
    switch (cmp ? cmp.getPredicate()
                : static_cast<arith::CmpIPredicate>(cast<index::CmpOp>(op).getPred())) {
    case arith::CmpIPredicate::eq:
      result = a == b;
      break;
    case arith::CmpIPredicate::ne:
      result = a != b;
      break;
    case arith::CmpIPredicate::slt:
      result = s(a) < s(b);
      break;
    case arith::CmpIPredicate::sle:
      result = s(a) <= s(b);
      break;
    case arith::CmpIPredicate::sgt:
      result = s(a) > s(b);
      break;
    case arith::CmpIPredicate::sge:
      result = s(a) >= s(b);
      break;
    case arith::CmpIPredicate::ult:
      result = u(a) < u(b);
      break;
    case arith::CmpIPredicate::ule:
      result = u(a) <= u(b);
      break;
    case arith::CmpIPredicate::ugt:
      result = u(a) > u(b);
      break;
    case arith::CmpIPredicate::uge:
      result = u(a) >= u(b);
      break;
    }
  } else if (isa<arith::IndexCastOp, arith::ExtSIOp, index::CastSOp>(op)) {
    result = s(args[0]);
  } else if (isa<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp, index::CastUOp>(op)) {
    result = args[0];
  } else {
    return std::nullopt;
  }
  return truncate(result, width);
}

std::vector<Lat> ThreadModel::uniform(Value v) {
  auto [it, inserted] = symbols.try_emplace(v, 0);
  if (inserted)
    it->second = newSymbol();
  return all(Lat::sym(it->second));
}

ArrayRef<Lat> ThreadModel::eval(Value v) { return evalAt(v, 0); }

ArrayRef<Lat> ThreadModel::evalAt(Value v, unsigned depth) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second;
  if (depth > kMaxDepth || inProgress.contains(v))
    return values.try_emplace(v, all(Lat::varying())).first->second;
  inProgress.insert(v);
  std::vector<Lat> result = compute(v, depth + 1);
  inProgress.erase(v);
  auto &slot = values[v];
  slot = std::move(result);
  return slot;
}

static bool invariant(ArrayRef<Lat> lats) {
  if (lats.empty() || lats[0].kind == Lat::Varying)
    return false;
  return llvm::all_of(lats, [&](const Lat &l) { return l == lats[0]; });
}

bool ThreadModel::isInvariant(Value v) { return invariant(eval(v)); }

std::optional<int64_t> ThreadModel::getConstant(Value v) {
  ArrayRef<Lat> lats = eval(v);
  if (invariant(lats) && lats[0].kind == Lat::Known)
    return lats[0].value;
  return std::nullopt;
}

bool ThreadModel::sameValue(Value a, Value b) {
  if (a == b)
    return true;
  ArrayRef<Lat> x = eval(a);
  ArrayRef<Lat> y = eval(b);
  return invariant(x) && invariant(y) && x[0] == y[0];
}

std::vector<Lat> ThreadModel::compute(Value v, unsigned depth) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa_and_nonnull<KernelOp>(owner))
      return uniform(v);
    if (auto loop = dyn_cast_or_null<scf::ForOp>(owner)) {
      if (arg == loop.getInductionVar() && invariant(evalAt(loop.getLowerBound(), depth)) &&
          invariant(evalAt(loop.getUpperBound(), depth)) &&
          invariant(evalAt(loop.getStep(), depth)))
        return uniform(v);
    }
    if (auto loop = dyn_cast_or_null<scf::WhileOp>(owner))
      if (whileIsUniform(loop, depth))
        return uniform(v);
    return all(Lat::varying());
  }
  auto result = cast<OpResult>(v);
  return computeOp(result.getOwner(), result.getResultNumber(), depth);
}

/// A shared-memory read that every thread makes alike: a buffer only plain loads and stores
/// touch, every store to it before a block barrier that precedes the load in the load's own
/// block, and that block in no loop (a later iteration's stores could race with the reads).
/// One thread's choice broadcast through shared memory is then one value for every thread.
static bool isPublishedBroadcast(LoadOp load) {
  auto alloc = load.getSource().getDefiningOp<AllocSmemOp>();
  if (!alloc)
    return false;
  Block *block = load->getBlock();
  for (Operation *parent = load->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return false;
  Operation *barrier = nullptr;
  for (Operation *op = load->getPrevNode(); op && !barrier; op = op->getPrevNode())
    if (isa<BarrierOp>(op))
      barrier = op;
  if (!barrier)
    return false;
  for (Operation *user : alloc->getUsers()) {
    if (isa<LoadOp>(user))
      continue;
    auto store = dyn_cast<StoreOp>(user);
    if (!store || store.getValue() == alloc.getResult())
      return false;
    Operation *at = block->findAncestorOpInBlock(*store);
    if (!at || !at->isBeforeInBlock(barrier))
      return false;
  }
  return true;
}

std::vector<Lat> ThreadModel::computeOp(Operation *op, unsigned resultNumber, unsigned depth) {
  Value v = op->getResult(resultNumber);
  unsigned width = bitWidth(v.getType());
  std::vector<Lat> out(numThreads);
  auto perThread = [&](auto fn) {
    for (int64_t t = 0; t < numThreads; ++t)
      out[t] = fn(t);
    return out;
  };
  int64_t bx = block[0], by = block[1];

  if (op->hasTrait<OpTrait::ConstantLike>()) { // arith.constant, index.constant, ...
    APInt value;
    if (width && matchPattern(v, m_ConstantInt(&value)))
      return all(Lat::known(truncate(value.getZExtValue(), width)));
    return uniform(v);
  }
  if (auto tid = dyn_cast<ThreadIdOp>(op)) {
    unsigned dim = static_cast<unsigned>(tid.getDim());
    return perThread([&](int64_t t) {
      int64_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
      return Lat::known(dim == 0 ? x : dim == 1 ? y : z);
    });
  }
  if (auto bdim = dyn_cast<BlockDimOp>(op))
    return all(Lat::known(block[static_cast<unsigned>(bdim.getDim())]));
  if (isa<LaneIdOp>(op))
    return perThread([](int64_t t) { return Lat::known(t % 32); });
  if (isa<WarpIdOp>(op))
    return perThread([](int64_t t) { return Lat::known(t / 32); });
  if (isa<WarpgroupIdOp>(op))
    return perThread([](int64_t t) { return Lat::known(t / 128); });
  if (probe) {
    if (auto size = dyn_cast<ProblemSizeOp>(op)) {
      auto it = probe->sizes.find(size.getSymbol());
      if (it != probe->sizes.end())
        return all(Lat::known(it->second));
    }
    if (auto id = dyn_cast<BlockIdOp>(op); id && probe->bindBlocks)
      return all(Lat::known(probe->blockId[static_cast<unsigned>(id.getDim())]));
    if (auto grid = dyn_cast<GridDimOp>(op); grid && (probe->bindBlocks || probe->bindGridDims))
      return all(Lat::known(probe->gridDim[static_cast<unsigned>(grid.getDim())]));
    if (isa<ClusterBlockIdOp, ClusterIdOp>(op)) {
      auto rank = dyn_cast<ClusterBlockIdOp>(op);
      unsigned dim = static_cast<unsigned>(rank ? rank.getDim() : cast<ClusterIdOp>(op).getDim());
      int64_t bound = rank ? probe->clusterBlockId[dim] : probe->clusterId[dim];
      if (bound >= 0) // -1: unbound, a uniform unknown below
        return all(Lat::known(bound));
    }
  }
  if (isa<BlockIdOp, GridDimOp, ClusterIdOp, ClusterBlockIdOp, ProblemSizeOp>(op))
    return uniform(v);
  if (isa<ElectOneOp>(op))
    return computeElect(op);
  if (auto slot = dyn_cast<PipelineSlotOp>(op)) {
    ArrayRef<Lat> it = evalAt(slot.getIteration(), depth);
    int64_t stages = std::max<int64_t>(1, slot.getPipeline().getType().getStages());
    if (invariant(it) && it[0].kind == Lat::Sym)
      return uniform(v);
    return perThread([&](int64_t t) {
      return it[t].kind == Lat::Known
                 ? Lat::known(static_cast<int64_t>(static_cast<uint64_t>(it[t].value) % stages))
                 : Lat::varying();
    });
  }

  // Integer arith and index ops: fold what is known, keep uniform what is uniform.
  if (isa_and_nonnull<arith::ArithDialect, index::IndexDialect>(op->getDialect()) && width &&
      op->getNumRegions() == 0) {
    SmallVector<std::vector<Lat>> operands;
    for (Value operand : op->getOperands())
      operands.emplace_back(evalAt(operand, depth).vec());
    bool allInvariant = llvm::all_of(operands, [](auto &lats) { return invariant(lats); });
    unsigned operandWidth = op->getNumOperands() ? bitWidth(op->getOperand(0).getType()) : width;
    if (isa<arith::SelectOp>(op))
      operandWidth = width;
    for (int64_t t = 0; t < numThreads; ++t) {
      SmallVector<int64_t, 3> args;
      bool known = true;
      for (auto &lats : operands) {
        known &= lats[t].kind == Lat::Known;
        args.push_back(lats[t].value);
      }
      if (auto select = dyn_cast<arith::SelectOp>(op)) {
        if (operands.size() == 3 && operands[0][t].kind == Lat::Known) {
          out[t] = operands[0][t].value ? operands[1][t] : operands[2][t];
          continue;
        }
      }
      if (known && operandWidth) {
        std::optional<int64_t> folded = fold(op, args, width, operandWidth);
        out[t] = folded ? Lat::known(*folded) : Lat::varying();
        continue;
      }
      // One known operand can decide or pass the other through.
      if (operands.size() == 2) {
        const Lat &a = operands[0][t], &b = operands[1][t];
        int64_t ones = truncate(-1, width);
        auto passThrough = [&](const Lat &k, const Lat &other, int64_t neutral) {
          return k.kind == Lat::Known && k.value == neutral && other.kind == Lat::Sym;
        };
        if (isa<arith::AndIOp>(op)) {
          if ((a.kind == Lat::Known && a.value == 0) || (b.kind == Lat::Known && b.value == 0)) {
            out[t] = Lat::known(0);
            continue;
          }
          if (passThrough(a, b, ones)) {
            out[t] = b;
            continue;
          }
          if (passThrough(b, a, ones)) {
            out[t] = a;
            continue;
          }
        } else if (isa<arith::OrIOp>(op)) {
          if ((a.kind == Lat::Known && a.value == ones) ||
              (b.kind == Lat::Known && b.value == ones)) {
            out[t] = Lat::known(ones);
            continue;
          }
          if (passThrough(a, b, 0)) {
            out[t] = b;
            continue;
          }
          if (passThrough(b, a, 0)) {
            out[t] = a;
            continue;
          }
        }
      }
      out[t] = allInvariant ? Lat::sym(0) : Lat::varying();
    }
    // Uniform results of invariant operands share one symbol.
    if (allInvariant &&
        llvm::any_of(out, [](const Lat &l) { return l.kind == Lat::Sym && l.value == 0; }))
      return uniform(v);
    return out;
  }

  // A load of one address from a global tensor the kernel never writes: every thread reads the
  // same value whenever it loads (a sequence's bounds from cu_seqlens, a per-head parameter).
  // The address first: most loads fail there, before the walk over the kernel for writes.
  if (auto load = dyn_cast<LoadOp>(op)) {
    if (!llvm::all_of(load.getIndices(),
                      [&](Value index) { return invariant(evalAt(index, depth)); }))
      return all(Lat::varying());
    if (isPublishedBroadcast(load))
      return uniform(v);
    BlockArgument tensor = getAccessedGlobalTensor(kernel, load.getSource());
    return tensor && !getTensorUse(kernel, tensor).writes ? uniform(v) : all(Lat::varying());
  }

  // scf.if under a test every thread decides alike: the branch's value.
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    ArrayRef<Lat> cond = evalAt(ifOp.getCondition(), depth);
    if (!invariant(cond))
      return all(Lat::varying());
    if (cond[0].kind == Lat::Known) {
      Block *taken = cond[0].value ? ifOp.thenBlock() : ifOp.elseBlock();
      if (!taken)
        return all(Lat::varying());
      return evalAt(taken->getTerminator()->getOperand(resultNumber), depth).vec();
    }
    return invariant(evalAt(ifOp.thenYield().getOperand(resultNumber), depth)) &&
                   invariant(evalAt(ifOp.elseYield().getOperand(resultNumber), depth))
               ? uniform(v)
               : all(Lat::varying());
  }

  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return whileIsUniform(loop, depth) ? uniform(v) : all(Lat::varying());

  // Other side-effect-free ops without regions: uniform when every operand is.
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
      llvm::all_of(op->getOperands(),
                   [&](Value operand) { return invariant(evalAt(operand, depth)); }))
    return uniform(v);
  return all(Lat::varying());
}

/// Whether every thread runs the same iterations of `loop` with the same carried values: its
/// initial values are uniform and, assuming its block arguments are (one symbol each), so are
/// its condition, the values the condition passes on and those the body yields back (by
/// induction over the iterations). A binary search over a read-only tensor, for example. What
/// was evaluated under a failed assumption is forgotten.
bool ThreadModel::whileIsUniform(Operation *whileOp, unsigned depth) {
  auto loop = cast<scf::WhileOp>(whileOp);
  if (auto it = uniformWhile.find(loop); it != uniformWhile.end())
    return it->second;
  uniformWhile[loop] = false;
  for (Value init : loop.getInits())
    if (!invariant(evalAt(init, depth)))
      return false;
  // Values inside the loop evaluated before (without the assumption) are evaluated again.
  auto saved = values;
  loop->walk([&](Operation *inner) {
    for (Region &region : inner->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          values.erase(arg);
    if (inner != loop.getOperation())
      for (Value result : inner->getResults())
        values.erase(result);
  });
  uniformWhile[loop] = true;
  scf::ConditionOp cond = loop.getConditionOp();
  bool ok = invariant(evalAt(cond.getCondition(), depth));
  for (Value x : cond.getArgs())
    ok = ok && invariant(evalAt(x, depth));
  for (Value x : loop.getYieldOp().getOperands())
    ok = ok && invariant(evalAt(x, depth));
  if (!ok) {
    values = std::move(saved);
    uniformWhile[loop] = false;
  }
  return ok;
}

std::vector<Lat> ThreadModel::computeElect(Operation *op) {
  std::vector<Lat> out(numThreads, Lat::known(0));
  ArrayRef<Reach> reaches = reach(op);
  for (int64_t warp = 0; warp * 32 < numThreads; ++warp) {
    int64_t lo = warp * 32, hi = std::min<int64_t>(numThreads, lo + 32);
    std::optional<int64_t> leader;
    bool decidable = true;
    for (int64_t t = lo; t < hi; ++t) {
      if (reaches[t].kind == Reach::Never)
        continue;
      if (reaches[t].kind == Reach::Unknown || (leader && reaches[t] != reaches[*leader]))
        decidable = false;
      if (!leader)
        leader = t;
    }
    for (int64_t t = lo; t < hi; ++t)
      out[t] = !decidable ? Lat::varying() : Lat::known(leader && t == *leader ? 1 : 0);
  }
  return out;
}

static void addCond(Reach &reach, int64_t cond) {
  if (reach.kind == Reach::Always)
    reach.kind = Reach::Cond;
  if (!llvm::is_contained(reach.conds, cond)) {
    reach.conds.push_back(cond);
    llvm::sort(reach.conds);
  }
}

ArrayRef<Reach> ThreadModel::reachRegion(Region *region) {
  auto it = regions.find(region);
  if (it != regions.end())
    return it->second;
  Operation *parent = region->getParentOp();
  std::vector<Reach> out(numThreads);
  if (!parent || isa<KernelOp>(parent) || regionsInProgress.contains(region)) {
    if (parent && !isa<KernelOp>(parent))
      for (Reach &r : out)
        r.kind = Reach::Unknown;
    return regions.try_emplace(region, std::move(out)).first->second;
  }
  regionsInProgress.insert(region);
  out = reach(parent).vec();
  auto markUnknown = [&](int64_t t) {
    if (out[t].kind != Reach::Never) {
      out[t].kind = Reach::Unknown;
      out[t].conds.clear();
    }
  };
  if (isa<WarpRolesOp>(parent)) {
    // Same as the op.
  } else if (auto role = dyn_cast<RoleOp>(parent)) {
    for (int64_t t = 0; t < numThreads; ++t)
      if (t / 32 < static_cast<int64_t>(role.getFirst()) ||
          t / 32 >= static_cast<int64_t>(role.getLast()))
        out[t] = Reach{Reach::Never, {}};
  } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
    bool thenRegion = region == &ifOp.getThenRegion();
    std::vector<Lat> cond = eval(ifOp.getCondition()).vec();
    for (int64_t t = 0; t < numThreads; ++t) {
      if (out[t].kind == Reach::Never || out[t].kind == Reach::Unknown)
        continue;
      const Lat &c = cond[t];
      if (c.kind == Lat::Known) {
        if ((c.value != 0) != thenRegion)
          out[t] = Reach{Reach::Never, {}};
      } else if (c.kind == Lat::Sym) {
        addCond(out[t], thenRegion ? c.value : -c.value);
      } else {
        markUnknown(t);
      }
    }
  } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    if (!isInvariant(forOp.getLowerBound()) || !isInvariant(forOp.getUpperBound()) ||
        !isInvariant(forOp.getStep()))
      for (int64_t t = 0; t < numThreads; ++t)
        markUnknown(t);
  } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    // A condition every thread computes alike: all run the same iterations, as in an scf.for
    // with invariant bounds; a thread-dependent one lets threads leave apart.
    if (isThreadDependent(whileOp.getConditionOp().getCondition()))
      for (int64_t t = 0; t < numThreads; ++t)
        markUnknown(t);
  } else if (isa<scf::ExecuteRegionOp>(parent)) {
    // Same as the op.
  } else {
    for (int64_t t = 0; t < numThreads; ++t)
      markUnknown(t);
  }
  regionsInProgress.erase(region);
  auto &slot = regions[region];
  slot = std::move(out);
  return slot;
}

ArrayRef<Reach> ThreadModel::reach(Operation *op) {
  Region *region = op->getParentRegion();
  if (!region) {
    static thread_local std::vector<Reach> none;
    none.assign(numThreads, Reach{});
    return none;
  }
  return reachRegion(region);
}

Executors ThreadModel::executors(Operation *op) {
  Executors result;
  result.threads.resize(numThreads);
  ArrayRef<Reach> reaches = reach(op);
  const Reach *first = nullptr;
  for (int64_t t = 0; t < numThreads; ++t) {
    const Reach &r = reaches[t];
    if (r.kind == Reach::Never)
      continue;
    result.threads.set(t);
    if (r.kind == Reach::Unknown)
      result.exact = false;
    if (!first)
      first = &r;
    else if (r != *first)
      result.exact = false;
  }
  return result;
}

Operation *ThreadModel::findDivergentAncestor(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      ArrayRef<Lat> cond = eval(ifOp.getCondition());
      ArrayRef<Reach> reaches = reach(ifOp);
      // Divergent when threads that reach the if may disagree on its condition.
      std::optional<Lat> seen;
      for (int64_t t = 0; t < numThreads; ++t) {
        if (reaches[t].kind == Reach::Never)
          continue;
        if (cond[t].kind == Lat::Varying || (seen && *seen != cond[t]))
          return parent;
        seen = cond[t];
      }
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      if (!isInvariant(forOp.getLowerBound()) || !isInvariant(forOp.getUpperBound()) ||
          !isInvariant(forOp.getStep()))
        return parent;
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      // Each thread leaves an scf.while when its own condition fails.
      if (isThreadDependent(whileOp.getConditionOp().getCondition()))
        return parent;
    }
  }
  return nullptr;
}

bool ThreadModel::isThreadDependent(Value v) {
  if (auto it = threadDependent.find(v); it != threadDependent.end())
    return it->second;
  ArrayRef<Lat> lats = eval(v);
  bool varying = llvm::any_of(lats, [](const Lat &l) { return l.kind == Lat::Varying; });
  if (!varying) // one constant or one uniform unknown in every thread, or known per thread
    return threadDependent[v] = !isInvariant(v);
  threadDependent[v] = false; // a cycle through loop-carried values adds nothing
  bool dependent = false;
  auto any = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value x) { return isThreadDependent(x); });
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto whileOp = dyn_cast<scf::WhileOp>(owner)) {
      if (arg.getOwner() == &whileOp.getBefore().front())
        dependent = isThreadDependent(whileOp.getInits()[n]) ||
                    isThreadDependent(whileOp.getYieldOp().getOperand(n));
      else
        dependent = isThreadDependent(whileOp.getConditionOp().getArgs()[n]);
    } else if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
      if (n == 0)
        dependent = any({forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()});
      else
        dependent = isThreadDependent(forOp.getInitArgs()[n - 1]) ||
                    isThreadDependent(forOp.getBody()->getTerminator()->getOperand(n - 1));
    } else {
      dependent = true; // a kernel argument or an unmodelled region: assume the worst
    }
  } else if (Operation *def = v.getDefiningOp()) {
    if (auto load = dyn_cast<LoadOp>(def))
      dependent = any(load.getIndices()); // one address: one value for every thread
    else if (auto query = dyn_cast<ClcQueryOp>(def))
      dependent = any(query.getIndices()); // one answer, read by every thread alike
    else if (isa<ElectOneOp, ThreadIdOp, LaneIdOp, WarpIdOp, WarpgroupIdOp>(def))
      dependent = true;
    else if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      // Every thread takes the same branch and yields the same value when neither depends on
      // the thread (a value one thread chose and the block broadcast, under a uniform test).
      unsigned n = cast<OpResult>(v).getResultNumber();
      dependent = isThreadDependent(ifOp.getCondition()) ||
                  isThreadDependent(ifOp.thenYield().getOperand(n)) ||
                  isThreadDependent(ifOp.elseYield().getOperand(n));
    } else if (auto forOp = dyn_cast<scf::ForOp>(def))
      dependent = isThreadDependent(forOp.getInitArgs()[cast<OpResult>(v).getResultNumber()]) ||
                  isThreadDependent(forOp.getBody()->getTerminator()->getOperand(
                      cast<OpResult>(v).getResultNumber()));
    else if (def->getNumRegions() == 0 && isPure(def))
      dependent = any(def->getOperands());
    else
      dependent = true;
  }
  return threadDependent[v] = dependent;
}

bool mlir::cake::isBlockBarrier(Operation *op) {
  // A cluster barrier (barrier.cluster.arrive/wait.aligned) also needs every thread of the block.
  return isa<BarrierOp, PipelineCreateOp, ClusterBarrierOp>(op);
}

bool mlir::cake::mayWaitForOthers(Operation *op) {
  return isBlockBarrier(op) ||
         isa<NamedBarrierOp, MbarrierWaitOp, PipelineConsumerWaitOp, PipelineProducerAcquireOp>(op);
}

std::optional<int64_t> mlir::cake::foldIntegerOp(Operation *op, ArrayRef<int64_t> args) {
  if (op->getNumResults() != 1 || args.size() != op->getNumOperands() || args.empty())
    return std::nullopt;
  unsigned width = bitWidth(op->getResult(0).getType());
  if (isa<arith::SelectOp>(op))
    return width && args.size() == 3 ? std::optional<int64_t>(args[0] ? args[1] : args[2])
                                     : std::nullopt;
  unsigned operandWidth = bitWidth(op->getOperand(0).getType());
  if (!width || !operandWidth)
    return std::nullopt;
  return fold(op, args, width, operandWidth);
}

static std::optional<int64_t> evaluateBound(ThreadModel &model, Value v, int64_t thread,
                                            const DenseMap<Value, int64_t> &bound, int64_t limit,
                                            unsigned depth) {
  auto sane = [&](std::optional<int64_t> x) {
    return x && *x <= limit && *x >= -limit ? x : std::nullopt;
  };
  if (auto it = bound.find(v); it != bound.end())
    return it->second;
  if (thread >= 0) {
    const Lat &lat = model.eval(v)[thread];
    if (lat.kind == Lat::Known)
      return sane(lat.value);
  } else if (std::optional<int64_t> c = model.getConstant(v)) {
    return sane(c);
  }
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return std::nullopt;
  SmallVector<int64_t> args;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> a = evaluateBound(model, operand, thread, bound, limit, depth + 1);
    if (!a)
      return std::nullopt;
    args.push_back(*a);
  }
  return sane(foldIntegerOp(def, args));
}

std::optional<int64_t> mlir::cake::evaluateWith(ThreadModel &model, Value v, int64_t thread,
                                                const DenseMap<Value, int64_t> &bound,
                                                int64_t limit) {
  return evaluateBound(model, v, thread, bound, limit, 0);
}

namespace {
/// The model's symbol ids are small: a symbol of the next iteration of a loop gets this offset.
constexpr int64_t kNextIteration = int64_t(1) << 40;
/// Deeper arith chains than this are not folded again (no unbounded recursion).
constexpr unsigned kMaxBoundDepth = 200;
} // namespace

ArrayRef<Lat> BoundEvaluator::eval(Value v, unsigned depth) {
  auto it = cache.find(v);
  if (it != cache.end())
    return it->second;
  std::vector<Lat> out(model.getNumThreads());
  if (auto b = bound.find(v); b != bound.end()) {
    out.assign(out.size(), Lat::known(b->second));
  } else if (depth > kMaxBoundDepth) {
    out.assign(out.size(), Lat::varying());
  } else if (!dependsOnBound(v, depth)) {
    out = model.eval(v).vec();
    Region *region = v.getParentRegion();
    if (nextLoop && region && nextLoop->isAncestor(region->getParentOp()))
      for (Lat &lat : out)
        if (lat.kind == Lat::Sym)
          lat.value += kNextIteration;
  } else {
    Operation *op = v.getDefiningOp();
    SmallVector<std::vector<Lat>> operands;
    for (Value operand : op->getOperands())
      operands.push_back(eval(operand, depth + 1).vec());
    for (size_t t = 0; t < out.size(); ++t) {
      SmallVector<int64_t, 3> args;
      for (auto &lats : operands)
        if (lats[t].kind == Lat::Known)
          args.push_back(lats[t].value);
      std::optional<int64_t> folded;
      if (args.size() == operands.size())
        folded = foldIntegerOp(op, args);
      out[t] = folded ? Lat::known(*folded) : Lat::varying();
    }
  }
  return cache.try_emplace(v, std::move(out)).first->second;
}

/// True if `v` is computed by integer arith ops from a bound value.
bool BoundEvaluator::dependsOnBound(Value v, unsigned depth) {
  if (bound.count(v))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || !op->getDialect() || op->getDialect()->getNamespace() != "arith" ||
      op->getNumRegions() || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isIntOrIndex())
    return false;
  auto [it, inserted] = dependsCache.try_emplace(v, false);
  if (!inserted)
    return it->second;
  bool result = depth <= kMaxBoundDepth && llvm::any_of(op->getOperands(), [&](Value operand) {
                  return dependsOnBound(operand, depth + 1);
                });
  dependsCache[v] = result;
  return result;
}

Operation *mlir::cake::findPreceding(Operation *op, function_ref<bool(Operation *)> pred) {
  for (Operation *at = op; at && !isa<KernelOp>(at); at = at->getParentOp()) {
    for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode())
      if (pred(prev))
        return prev;
  }
  return nullptr;
}

void mlir::cake::describeArrival(Diagnostic &note, ThreadModel &model, Operation *op,
                                 int64_t repeat) {
  note << model.executors(op).count() << " threads arrive here";
  if (repeat > 1)
    note << ", " << repeat << " times per phase";
}

DenseMap<Operation *, unsigned> mlir::cake::getProgramOrder(KernelOp kernel) {
  DenseMap<Operation *, unsigned> order;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) { order[op] = order.size(); });
  return order;
}

std::string mlir::cake::describeRole(RoleOp role) {
  return ("role '" + role.getRoleName() + "' (warps [" + Twine(role.getFirst()) + ", " +
          Twine(role.getLast()) + "))")
      .str();
}

SmallVector<ArrivalGroup> mlir::cake::countArrivals(ThreadModel &model, MbarrierInitOp init,
                                                    ArrayRef<Operation *> arrivals) {
  auto indexOf = [](Operation *op) -> Value { return op->getOperand(1); }; // isMbarrierArrival
  if (!model.getConstant(init.getIndex()))
    return {};
  SmallVector<Operation *> mine;
  for (Operation *op : arrivals) {
    Value index = indexOf(op);
    if (!model.getConstant(index))
      return {};
    if (model.sameValue(index, init.getIndex()))
      mine.push_back(op);
  }
  // Loops that cannot end a phase between their iterations: nothing in them waits.
  auto synchronizes = [](scf::ForOp loop) {
    return loop
        .walk([](Operation *op) {
          return mayWaitForOthers(op) || isa<scf::WhileOp>(op) ? WalkResult::interrupt()
                                                               : WalkResult::advance();
        })
        .wasInterrupted();
  };
  auto tripCount = [&](scf::ForOp loop) -> std::optional<int64_t> {
    std::optional<int64_t> lb = model.getConstant(loop.getLowerBound()),
                           ub = model.getConstant(loop.getUpperBound()),
                           step = model.getConstant(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    return *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  };
  llvm::MapVector<Operation *, SmallVector<std::pair<Operation *, int64_t>, 2>> byLoop;
  for (Operation *op : mine) {
    auto loop = op->getParentOfType<scf::ForOp>();
    int64_t repeat = 1;
    for (; loop && !synchronizes(loop); loop = loop->getParentOfType<scf::ForOp>()) {
      std::optional<int64_t> trips = tripCount(loop);
      if (!trips)
        break;
      repeat *= *trips;
    }
    byLoop[loop].push_back({op, repeat});
  }
  SmallVector<ArrivalGroup> groups;
  for (auto &[loop, members] : byLoop) {
    ArrivalGroup group{loop, {}, {}, 0, true};
    std::optional<Reach> common;
    for (auto [op, repeat] : members) {
      Executors ex = model.executors(op);
      group.ops.push_back(op);
      group.repeats.push_back(repeat);
      group.exact &= ex.exact;
      group.threads += ex.count() * repeat;
      if (ex.exact && ex.count()) {
        const Reach &r = model.reach(op)[ex.threads.find_first()];
        if (common && *common != r)
          group.exact = false;
        common = r;
      }
    }
    groups.push_back(std::move(group));
  }
  return groups;
}
