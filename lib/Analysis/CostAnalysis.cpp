//===- CostAnalysis.cpp - the analytical cost model of a kernel -----------===//
//
// One walk over the kernel builds, per block: work per unit, bytes per level, and the critical
// path (CostWalker). Memory accesses are simulated for one warp (addresses of its active lanes)
// to count 32-byte sectors, 128-byte lines and shared-memory bank conflicts (with the swizzle).
// `evaluate` binds the sizes and a profile. docs/CostModel.md gives every formula.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/CostAnalysis.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <cmath>

using namespace mlir;
using namespace mlir::cake;
using cost::Expr;

/// Sizes used to simulate addresses (coalescing and bank conflicts do not depend on them
/// for the kernels we know; the report says so).
static constexpr int64_t kSimulatedSize = 4096;

static Expr param(StringRef name) { return Expr::param(name); }
static Expr ns(StringRef name) { return param(name) * 1e-9; }

/// Work per second of one SM for a unit (docs/CostModel.md, "Units").
static Expr unitRate(StringRef unit) {
  Expr sm = param("sm_count");
  if (unit.starts_with("tensor_"))
    return param(("tensor_TFLOPS." + unit.drop_front(7)).str()) * 1e12 / sm;
  if (unit.starts_with("mma_sync_"))
    return param(("mma_sync_TFLOPS." + unit.drop_front(9)).str()) * 1e12 / sm;
  if (unit == "fma")
    return param("fp32_TFLOPS") * 5e11 / sm;
  if (unit == "fp64")
    return param("fp64_TFLOPS") * 5e11 / sm;
  if (unit == "sfu")
    return param("sfu_ops_per_clk_per_sm") * param("clock_GHz") * 1e9;
  return param("lsu_wavefronts_per_clk_per_sm") * param("clock_GHz") * 1e9;
}

/// FP32 FMAs and load/store (LSU) instructions leave from the same four dispatch ports of an SM.
/// At the full FMA rate every port is busy, so each shared-memory or global access delays the FMA
/// stream: their times add instead of overlapping. Register blocking (fewer loads per FMA) is
/// what this term rewards: without it the model gave a 32x32 tile with 4x4 outputs per thread
/// the time of a 128x128 tile with 8x8 (bench/results/2026-12-01-cost-issue.md).
static bool sharesDispatch(StringRef unit) { return unit == "fma" || unit == "lsu"; }

static bool hasContract(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  return fm && arith::bitEnumContainsAll(fm.getFastMathFlagsAttr().getValue(),
                                         arith::FastMathFlags::contract);
}

static int64_t elementCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

static unsigned bitWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return 64;
  return element.getIntOrFloatBitWidth();
}

static std::string dtypeName(Type type) {
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "tf32";
  if (isFp8Type(type))
    return "f8";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

static std::string locString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("line {0}", file.getLine()).str();
  return "?";
}

namespace mlir::cake {

/// Builds the per-block expressions of a CostAnalysis.
class CostWalker {
public:
  CostWalker(CostAnalysis &analysis, KernelOp kernel) : a(analysis), kernel(kernel) {
    for (StringRef symbol : kernel.getSymbolNames())
      simSizes[symbol] = kSimulatedSize;
    SmallVector<int64_t, 3> dims = kernel.getBlockDims();
    blockDims.assign(dims.begin(), dims.end());
  }

  void run();

private:
  /// The threads of the block that execute an op, and how often per block.
  struct Ctx {
    llvm::BitVector active;
    Expr mult;
    /// Executions per iteration of each enclosing loop (parallel to `iterations`).
    SmallVector<Expr, 2> rel;
    int64_t warps() const {
      int64_t n = 0;
      for (int64_t w = 0, e = (active.size() + 31) / 32; w < e; ++w)
        n += warpLanes(w) > 0;
      return n;
    }
    int64_t warpLanes(int64_t w) const {
      int64_t n = 0;
      for (int64_t t = w * 32, e = std::min<int64_t>(t + 32, active.size()); t < e; ++t)
        n += active[t];
      return n;
    }
    int64_t threads() const { return active.count(); }
    int64_t warpgroups() const {
      int64_t n = 0;
      for (int64_t g = 0, e = (active.size() + 127) / 128; g < e; ++g)
        for (int64_t w = 4 * g; w < 4 * g + 4; ++w)
          if (w * 32 < (int64_t)active.size() && warpLanes(w) > 0) {
            ++n;
            break;
          }
      return n;
    }
    /// The active threads of the first warp that has any.
    SmallVector<int64_t, 32> firstWarpThreads() const {
      SmallVector<int64_t, 32> tids;
      int first = active.find_first();
      if (first < 0)
        return tids;
      for (int64_t t = first / 32 * 32, e = std::min<int64_t>(t + 32, active.size()); t < e; ++t)
        if (active[t])
          tids.push_back(t);
      return tids;
    }
  };

  /// What one execution of a block of ops costs on the critical path.
  struct Local {
    llvm::StringMap<Expr> work;
    Expr chain, sync, nestedSync, syncAll;
    bool syncGlobalLoad = false, wait0 = false, tmaLatencyPaid = false, hasConsumerWait = false;
    int64_t stages = 0;
    // cp.async: copies issued and not yet waited for; the ring depth of a `cp_async.wait N` in a
    // loop body (N + 1); a wait after this block's own copies (their latency is exposed).
    bool hasCpAsync = false, cpWaitAfterIssue = false, isLoopBody = false;
    // A branch body's synchronous global loads are in flight with its siblings': the enclosing
    // block pays their latency once (ptxas predicates short branches and hoists their loads).
    bool deferLoadLatency = false;
    int64_t cpAsyncStages = 0;
    Value pipeline, producerPipeline; ///< consumer_wait / producer_acquire's pipeline
  };

  Expr walkBlock(Block &block, const Ctx &ctx, Local *parent = nullptr);
  bool isFullIterationGuard(scf::IfOp ifOp);
  void visitLeaf(Operation *op, const Ctx &ctx, Local &local);
  Expr combine(const Local &local);
  void addWork(Local &local, const Ctx &ctx, StringRef unit, Expr amount);
  void addFlops(const Ctx &ctx, StringRef unit, Expr amount);
  void addTraffic(const Ctx &ctx, TensorTraffic *t, Expr requested, Expr useful, bool written);
  void addShared(const Ctx &ctx, Expr bytes);
  Expr tripCount(scf::ForOp loop);
  std::optional<Expr> symbolic(Value value, int depth = 0);

  struct Sim {
    int64_t tid;
    bool usedLoopVar = false;
  };
  std::optional<int64_t> concrete(Value value, Sim &sim, int depth = 0);
  std::optional<bool> condition(Value cond, int64_t tid);

  void globalAccess(Operation *op, Value memory, ValueRange indices, int64_t width,
                    bool isStore, const Ctx &ctx, Local &local, bool masked = false,
                    bool async = false);
  void sharedAccess(Operation *op, SmemType type, ValueRange indices, int64_t width,
                    const Ctx &ctx, Local &local, int64_t laneLimit = 32);
  TensorTraffic *tensorFor(Value memory);
  int64_t registerWords(Block &block);
  void assume(const std::string &text) {
    if (!llvm::is_contained(a.assumptions, text))
      a.assumptions.push_back(text);
  }

  CostAnalysis &a;
  KernelOp kernel;
  llvm::StringMap<double> simSizes;
  std::vector<int64_t> blockDims;
  llvm::DenseMap<Value, unsigned> tensorIndex;
  SmallVector<Expr, 3> gridDims;
  /// The per-iteration accumulators of the enclosing loops, outermost first.
  SmallVector<IterationWork *, 4> iterations;
};
} // namespace mlir::cake

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

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

TensorTraffic *CostWalker::tensorFor(Value memory) {
  auto it = tensorIndex.find(memory);
  return it == tensorIndex.end() ? nullptr : &a.tensors[it->second];
}

void CostWalker::globalAccess(Operation *op, Value memory, ValueRange indices, int64_t width,
                              bool isStore, const Ctx &ctx, Local &local, bool masked,
                              bool async) {
  auto type = cast<GlobalTensorType>(memory.getType());
  int64_t eb = type.getElementBytes(), bytes = width * eb;
  SmallVector<int64_t, 32> tids = ctx.firstWarpThreads();
  // Element strides with every size at the simulated value.
  SmallVector<int64_t> strides;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    int64_t stride = 1;
    for (Attribute f : type.getStrideFactors(d))
      stride *= isa<IntegerAttr>(f) ? cast<IntegerAttr>(f).getInt()
                                    : static_cast<int64_t>(simSizes.lookup(
                                          cast<StringAttr>(f).getValue()));
    strides.push_back(stride);
  }
  // Extents at the simulated sizes: a masked access's lanes outside them move no bytes.
  SmallVector<int64_t> extents;
  for (Attribute extent : type.getShape())
    extents.push_back(isa<IntegerAttr>(extent)
                          ? cast<IntegerAttr>(extent).getInt()
                          : static_cast<int64_t>(simSizes.lookup(cast<StringAttr>(extent).getValue())));
  llvm::DenseSet<int64_t> sectors, lines;
  bool known = true;
  int64_t inBounds = 0;
  for (int64_t tid : tids) {
    Sim sim{tid};
    int64_t offset = 0;
    bool outside = false;
    for (auto [d, index, stride] : llvm::enumerate(indices, strides)) {
      std::optional<int64_t> v = concrete(index, sim);
      if (!v) {
        known = false;
        break;
      }
      if (masked && d < extents.size() && (*v < 0 || *v >= extents[d]))
        outside = true;
      offset += *v * stride;
    }
    if (!known)
      break;
    if (outside)
      continue;
    ++inBounds;
    int64_t first = offset * eb, last = first + bytes - 1;
    for (int64_t s = first / 32; s <= last / 32; ++s)
      sectors.insert(s);
    for (int64_t l = first / 128; l <= last / 128; ++l)
      lines.insert(l);
  }
  if (!known)
    inBounds = tids.size();
  int64_t useful = bytes * inBounds;
  int64_t nSectors = known ? sectors.size() : (useful + 31) / 32;
  int64_t nLines = known ? lines.size() : (useful + 127) / 128;
  if (!known)
    assume("the address of the access at " + locString(op->getLoc()) +
           " is not analyzable: assumed coalesced");
  int64_t warps = ctx.warps();
  if (known && nSectors * 32 > 2 * std::max<int64_t>(useful, 32))
    a.accessNotes.push_back(
        {op->getLoc(), llvm::formatv("uncoalesced {0}: a warp access touches {1} sectors "
                                     "({2} B) for {3} B it uses",
                                     isStore ? "store" : "load", nSectors, nSectors * 32, useful)
                           .str()});
  addWork(local, ctx, "lsu", Expr(static_cast<double>(nLines * warps)));
  double usefulBytes = static_cast<double>(ctx.threads() * bytes);
  if (inBounds < static_cast<int64_t>(tids.size()))
    usefulBytes = tids.empty() ? 0 : usefulBytes * inBounds / tids.size();
  addTraffic(ctx, tensorFor(memory), Expr(static_cast<double>(nSectors * 32 * warps)),
             Expr(usefulBytes), isStore);
  // An asynchronous copy's latency is charged at its wait (cp_async.wait), not here.
  if (!isStore && !async)
    local.syncGlobalLoad = true;
}

/// CUTLASS-style swizzle: the 16-byte chunk index inside a `swizzle`-byte row XOR the row.
static int64_t swizzleOffset(int64_t offset, int64_t swizzle) {
  if (!swizzle)
    return offset;
  int64_t mask = swizzle / 16 - 1;
  return offset ^ (((offset >> 7) & mask) << 4);
}

void CostWalker::sharedAccess(Operation *op, SmemType type, ValueRange indices, int64_t width,
                              const Ctx &ctx, Local &local, int64_t laneLimit) {
  int64_t eb = type.getElementBytes(), bytes = width * eb;
  // The buffer type's own strides: padding and all.
  SmallVector<int64_t> strides = type.getElementStrides();
  SmallVector<int64_t, 32> tids = ctx.firstWarpThreads();
  // ldmatrix / stmatrix .xN: only the first 8 N lanes pass row addresses.
  if (static_cast<int64_t>(tids.size()) > laneLimit)
    tids.resize(laneLimit);
  SmallVector<int64_t, 32> addresses;
  bool known = true;
  for (int64_t tid : tids) {
    Sim sim{tid};
    int64_t offset = 0;
    for (auto [d, index] : llvm::enumerate(indices)) {
      std::optional<int64_t> v = concrete(index, sim);
      if (!v) {
        known = false;
        break;
      }
      offset += strides[d] * *v;
    }
    if (!known)
      break;
    addresses.push_back(swizzleOffset(offset * eb, type.getSwizzle()));
  }
  int64_t useful = bytes * static_cast<int64_t>(tids.size());
  int64_t ideal = std::max<int64_t>(1, (useful + 127) / 128);
  int64_t wavefronts = ideal;
  if (known && !addresses.empty()) {
    // 4-byte accesses: one phase of 32 lanes; 8 bytes: two of 16; 16 bytes: four of 8.
    int64_t perPhase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
    wavefronts = 0;
    for (size_t start = 0; start < addresses.size(); start += perPhase) {
      llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> banks;
      for (size_t i = start; i < std::min<size_t>(start + perPhase, addresses.size()); ++i)
        for (int64_t w = addresses[i] / 4; w < (addresses[i] + bytes + 3) / 4; ++w)
          banks[w % 32].insert(w);
      int64_t ways = 1;
      for (auto &[bank, words] : banks)
        ways = std::max<int64_t>(ways, words.size());
      wavefronts += ways;
    }
    if (wavefronts > 2 * ideal)
      a.accessNotes.push_back(
          {op->getLoc(),
           llvm::formatv("shared-memory bank conflicts: {0} wavefronts per warp access, {1} "
                         "without conflicts",
                         wavefronts, ideal)
               .str()});
  } else if (!known) {
    assume("the address of the access at " + locString(op->getLoc()) +
           " is not analyzable: assumed free of bank conflicts");
  }
  addWork(local, ctx, "lsu", Expr(static_cast<double>(wavefronts * ctx.warps())));
  addShared(ctx, Expr(static_cast<double>(laneLimit < 32 ? ctx.warps() * laneLimit * bytes
                                                         : ctx.threads() * bytes)));
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

void CostWalker::addWork(Local &local, const Ctx &ctx, StringRef unit, Expr amount) {
  local.work[unit] += amount;
  a.blockWork[unit] += amount * ctx.mult;
}

void CostWalker::addFlops(const Ctx &ctx, StringRef unit, Expr amount) {
  a.blockFlops[unit] += amount * ctx.mult;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel))
    work->flops[unit] += amount * rel;
}

void CostWalker::addTraffic(const Ctx &ctx, TensorTraffic *t, Expr requested, Expr useful,
                            bool written) {
  if (!t)
    return;
  t->requested += requested * ctx.mult;
  t->useful += useful * ctx.mult;
  t->written |= written;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel)) {
    work->l2 += requested * rel;
    work->useful += useful * rel;
  }
}

void CostWalker::addShared(const Ctx &ctx, Expr bytes) {
  a.sharedBytesMoved += bytes * ctx.mult;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel))
    work->shared += bytes * rel;
}

Expr CostWalker::combine(const Local &local) {
  Expr tensor(0.0), others(0.0), issue(0.0);
  for (const auto &entry : local.work) {
    Expr time = entry.second / unitRate(entry.first());
    if (entry.first().starts_with("tensor_"))
      tensor += time;
    else if (sharesDispatch(entry.first()))
      issue += time;
    else
      others = Expr::max(others, time);
  }
  others = Expr::max(others, issue);
  // A warpgroup that waits for all its MMAs (wgmma.wait 0) before using the results serializes
  // them with the rest of the iteration; with groups left in flight they overlap.
  return local.wait0 ? tensor + others : Expr::max(tensor, others);
}

void CostWalker::visitLeaf(Operation *op, const Ctx &ctx, Local &local) {
  int64_t warps = ctx.warps(), laneSlots = 32 * warps;
  auto fmaOps = [&](double perThread, double flopsPerThread, bool f64 = false) {
    addWork(local, ctx, f64 ? "fp64" : "fma", Expr(perThread * laneSlots));
    if (flopsPerThread)
      addFlops(ctx, f64 ? "fp64" : "fp32", Expr(flopsPerThread * ctx.threads()));
  };

  if (auto load = dyn_cast<LoadOp>(op)) {
    if (auto smem = dyn_cast<SmemType>(load.getSource().getType()))
      return sharedAccess(op, smem, load.getIndices(), load.getWidth(), ctx, local);
    return globalAccess(op, load.getSource(), load.getIndices(), load.getWidth(), false, ctx,
                        local);
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    if (auto smem = dyn_cast<SmemType>(store.getDest().getType()))
      return sharedAccess(op, smem, store.getIndices(), store.getWidth(), ctx, local);
    return globalAccess(op, store.getDest(), store.getIndices(), store.getWidth(), true, ctx,
                        local);
  }
  if (auto tma = dyn_cast<TmaLoadOp>(op)) {
    double bytes = tma.getDescriptor().getType().getBoxBytes() * ctx.threads();
    addTraffic(ctx, tensorFor(tma.getDescriptor()), Expr(bytes), Expr(bytes), false);
    addShared(ctx, Expr(bytes));
    return;
  }
  if (auto tma = dyn_cast<TmaStoreOp>(op)) {
    // The box read from shared memory and written through L2 (elements outside the tensor are
    // not written; the simulated sizes keep the box inside).
    double bytes = tma.getDescriptor().getType().getBoxBytes() * ctx.threads();
    addTraffic(ctx, tensorFor(tma.getDescriptor()), Expr(bytes), Expr(bytes), true);
    addShared(ctx, Expr(bytes));
    return;
  }
  if (auto copy = dyn_cast<CpAsyncOp>(op)) {
    // Global side like a load of its width (sectors / lines, masked lanes move nothing; its
    // latency is charged at the wait), shared side like a store (wavefronts with the swizzle).
    local.hasCpAsync = true;
    int64_t bytes = copy.getBytes();
    auto src = cast<GlobalTensorType>(copy.getSource().getType());
    globalAccess(op, copy.getSource(), copy.getSourceIndices(),
                 std::max<int64_t>(1, bytes / src.getElementBytes()), false, ctx, local,
                 copy.getMasked(), /*async=*/true);
    auto dst = cast<SmemType>(copy.getDest().getType());
    sharedAccess(op, dst, copy.getDestIndices(),
                 std::max<int64_t>(1, bytes / dst.getElementBytes()), ctx, local);
    return;
  }
  if (auto wait = dyn_cast<CpAsyncWaitOp>(op)) {
    int64_t pending = wait.getPending();
    local.cpAsyncStages = std::max<int64_t>(local.cpAsyncStages, pending + 1);
    if (local.hasCpAsync && pending == 0)
      local.cpWaitAfterIssue = true;
    // Outside a ring loop: the copies this region issued land after one global latency.
    if (!local.isLoopBody && local.hasCpAsync) {
      local.chain += ns("global_latency_ns");
      local.hasCpAsync = false;
    }
    return;
  }
  if (auto ld = dyn_cast<LdmatrixOp>(op)) {
    // .xN: N 8x8 matrices, lanes 0 .. 8N-1 pass one 16-byte row each; one wavefront per matrix
    // without conflicts.
    int64_t n = ld.getCount();
    auto type = cast<SmemType>(ld.getSource().getType());
    return sharedAccess(op, type, ld.getIndices(), std::max<int64_t>(1, 16 / type.getElementBytes()),
                        ctx, local, 8 * n);
  }
  if (auto st = dyn_cast<StmatrixOp>(op)) {
    int64_t n = st.getCount();
    auto type = cast<SmemType>(st.getDest().getType());
    return sharedAccess(op, type, st.getIndices(), std::max<int64_t>(1, 16 / type.getElementBytes()),
                        ctx, local, 8 * n);
  }
  if (auto mma = dyn_cast<MmaSyncOp>(op)) {
    // m16n8k16 (f16/bf16) or m16n8k8 (tf32) per warp, at the mma.sync rate.
    Type element = mma.getA().getType().getElementType();
    int64_t k = element.isF32() ? 8 : 16;
    std::string unit = "mma_sync_" + dtypeName(element);
    double flops = 2.0 * 16 * 8 * k * warps;
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    return;
  }
  if (auto store = dyn_cast<MmaSyncStoreOp>(op)) {
    // Per warp: two pair stores per lane (rows g and g + 8), each 8 rows x 4 lanes x 2 elements.
    int64_t eb = store.getDest().getType().getElementBytes();
    double instrs = 2.0 * warps;
    addWork(local, ctx, "lsu", Expr(8 * instrs));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(instrs * 8 * 32 * ((8 * eb + 31) / 32)),
               Expr(16.0 * 8 * eb * warps), true);
    return;
  }
  // m64nNkK per warpgroup (K = 16 for f16/bf16, 8 for tf32): tensor work, and the operands read
  // from shared memory (B always; A unless it comes from registers, cake.wgmma.regs).
  auto wgmma = [&](int64_t n, int64_t k, Type element, bool aFromShared) {
    int64_t groups = ctx.warpgroups();
    std::string unit = "tensor_" + dtypeName(element);
    double flops = 2.0 * 64 * n * k * groups;
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    double rows = (aFromShared ? 64.0 : 0.0) + static_cast<double>(n);
    double operandBytes = rows * k * getElementBytes(element) * groups;
    addShared(ctx, Expr(operandBytes));
    addWork(local, ctx, "lsu", Expr(operandBytes / 128));
  };
  if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
    // m128nNkK issued by one thread per block: tensor work, both operands read from shared
    // memory; the accumulator stays in tensor memory (no register traffic). A CTA pair's
    // m256nNkK is counted per block: each SM computes its 128 rows from its own A and half of B.
    Type element = mma.getA().getType().getElementType();
    std::string unit = "tensor_" + dtypeName(element);
    double flops = 2.0 * 128 * mma.getN() * mma.getK();
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    double operandBytes =
        (128.0 + mma.getBRowsPerBlock()) * mma.getK() * getElementBytes(element);
    addShared(ctx, Expr(operandBytes));
    return;
  }
  if (isa<Tcgen05CpOp>(op)) {
    // 128 rows x 32 bytes from shared memory into tensor memory.
    addShared(ctx, Expr(128.0 * 32));
    return;
  }
  if (auto mma = dyn_cast<WgmmaRegsOp>(op))
    return wgmma(mma.getN(), mma.getK(), mma.getB().getType().getElementType(),
                 /*aFromShared=*/false);
  if (auto mma = dyn_cast<WgmmaOp>(op))
    return wgmma(mma.getN(), mma.getK(), mma.getA().getType().getElementType(),
                 /*aFromShared=*/true);
  if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
    if (wait.getPending() == 0)
      local.wait0 = true;
    return;
  }
  if (auto store = dyn_cast<WgmmaStoreOp>(op)) {
    int64_t n = 2 * store.getAcc().getType().getNumElements(), groups = ctx.warpgroups();
    int64_t eb = store.getDest().getType().getElementBytes();
    // Per warp: n/4 stores of an element pair per lane, each 8 rows x 4 lanes x 2 elements.
    double instrs = n / 4.0 * 4 * groups;
    addWork(local, ctx, "lsu", Expr(8 * instrs));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(instrs * 8 * 32 * ((8 * eb + 31) / 32)),
               Expr(64.0 * n * eb * groups), true);
    return;
  }
  if (auto store = dyn_cast<WgmmaStoreRowsOp>(op)) {
    int64_t groups = ctx.warpgroups(), eb = store.getDest().getType().getElementBytes();
    addWork(local, ctx, "lsu", Expr(8.0 * groups));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(4.0 * 32 * ((16 * eb + 31) / 32) * groups),
               Expr(64.0 * eb * groups), true);
    return;
  }
  if (auto reduce = dyn_cast<WgmmaRowArgReduceOp>(op)) {
    int64_t e = reduce.getAcc().getType().getNumElements();
    // Per element: scale * acc + bias (one FMA), compare, two selects; 8 quad shuffles; the
    // bias read as element pairs (lanes of a quad column broadcast).
    fmaOps(4.0 * e + 8, 2.0 * e);
    addWork(local, ctx, "lsu", Expr((8.0 + e / 4.0) * warps));
    addShared(ctx, Expr(2.0 * e * warps * 4));
    return;
  }
  if (auto reduce = dyn_cast<WarpReduceOp>(op)) {
    double steps = std::log2(static_cast<double>(reduce.getLanes()));
    fmaOps(steps, steps);
    addWork(local, ctx, "lsu", Expr(steps * warps));
    return;
  }
  if (auto reduce = dyn_cast<WarpArgReduceOp>(op)) {
    double steps = std::log2(static_cast<double>(reduce.getLanes()));
    fmaOps(3 * steps, steps);
    addWork(local, ctx, "lsu", Expr(2 * steps * warps));
    return;
  }
  if (isa<BarrierOp, NamedBarrierOp, ClusterBarrierOp>(op)) {
    local.sync += ns("barrier_ns");
    a.barriers += ctx.mult;
    return;
  }
  if (isa<PipelineCreateOp>(op)) {
    local.sync += ns("barrier_ns");
    a.barriers += ctx.mult;
    return;
  }
  if (isa<PipelineConsumerWaitOp, PipelineProducerAcquireOp>(op)) {
    if (isa<PipelineConsumerWaitOp>(op)) {
      local.hasConsumerWait = true;
      local.stages = cast<PipelineConsumerWaitOp>(op).getPipeline().getType().getStages();
      local.pipeline = cast<PipelineConsumerWaitOp>(op).getPipeline();
    } else {
      local.producerPipeline = cast<PipelineProducerAcquireOp>(op).getPipeline();
    }
    local.sync += ns("mbarrier_wait_ns");
    a.mbarrierWaits += ctx.mult;
    return;
  }
  if (isa<MbarrierWaitOp>(op)) {
    // Waiting for a TMA copy issued at the start: its latency is on the path once.
    local.sync += ns("mbarrier_wait_ns");
    local.chain += ns("tma_latency_ns");
    local.tmaLatencyPaid = true;
    a.mbarrierWaits += ctx.mult;
    return;
  }
  if (op->getNumResults() == 1 && !op->getResult(0).getType().isIndex()) {
    Type type = op->getResult(0).getType();
    Type element = getElementTypeOrSelf(type);
    double n = elementCount(type);
    bool f64 = element.isF64();
    bool isFloat = isa<FloatType>(element);
    if (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SqrtOp, math::RsqrtOp,
            math::SinOp, math::CosOp, math::TanhOp, math::ErfOp, math::PowFOp>(op)) {
      addWork(local, ctx, "sfu", Expr(n * laneSlots));
      addFlops(ctx, "sfu", Expr(n * ctx.threads()));
      fmaOps(n, 0);
      return;
    }
    if (isa<arith::DivFOp>(op)) {
      addWork(local, ctx, "sfu", Expr(n * laneSlots));
      addFlops(ctx, "sfu", Expr(n * ctx.threads()));
      fmaOps(2 * n, n, f64);
      return;
    }
    if (isa<math::FmaOp, vector::FMAOp>(op))
      return fmaOps(n, 2 * n, f64);
    if (auto red = dyn_cast<vector::ReductionOp>(op)) {
      double m = elementCount(red.getVector().getType()) - 1;
      return fmaOps(m, isFloat ? m : 0, f64);
    }
    if (isa<arith::ConstantOp, vector::BroadcastOp, vector::ExtractOp, vector::InsertOp,
            vector::ShapeCastOp>(op))
      return;
    // A contracted multiply whose every user is a contracted add or subtract becomes part of
    // their FMAs (cake-tactic-contract): its flops count, its instruction does not.
    if (auto mul = dyn_cast<arith::MulFOp>(op);
        mul && hasContract(op) && !mul->use_empty() &&
        llvm::all_of(mul->getUsers(), [](Operation *user) {
          return isa<arith::AddFOp, arith::SubFOp>(user) && hasContract(user);
        }))
      return fmaOps(0, n, f64);
    if (op->getDialect() && op->getDialect()->getNamespace() == "arith") {
      bool counts = isFloat && isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
                                   arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                                   arith::MinNumFOp>(op);
      return fmaOps(n, counts ? n : 0, f64);
    }
    if (op->getDialect() && op->getDialect()->getNamespace() == "math")
      return fmaOps(n, n, f64);
  }
  // Any other op that declares its accesses (CakeMemoryAccessOpInterface) is priced as plain
  // loads and stores of what it touches, so a new memory op has a cost from its interface
  // alone. A read and a write of one buffer (a read-modify-write such as cake.atomic_add, done
  // in L2) count as the write; contention on one address is not modelled.
  if (SmallVector<MemoryAccess, 2> accesses = getMemoryAccesses(op); !accesses.empty()) {
    for (const MemoryAccess &access : accesses) {
      if (access.isRead() && llvm::any_of(accesses, [&](const MemoryAccess &other) {
            return other.isWrite() && other.buffer == access.buffer;
          }))
        continue;
      if (auto smem = dyn_cast<SmemType>(access.buffer.getType()))
        sharedAccess(op, smem, access.indices, access.width, ctx, local);
      else if (isa<GlobalTensorType>(access.buffer.getType()))
        globalAccess(op, access.buffer, access.indices, access.width, access.isWrite(), ctx, local);
    }
    return;
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "cake" &&
      !isa<AllocSmemOp, MbarrierAllocOp, MbarrierInitOp, MbarrierArriveOp,
           MbarrierArriveExpectTxOp, FenceMbarrierInitOp, FenceProxyAsyncOp, ElectOneOp,
           PipelineProducerCommitOp, PipelineConsumerReleaseOp, PipelineSlotOp, WgmmaFenceOp,
           WgmmaCommitOp, Tcgen05CommitOp, ClcTryCancelOp, ClcQueryOp, TmemAllocOp, TmemDeallocOp, TmemLoadOp, TmemStoreOp, CpAsyncCommitOp, TmaStoreCommitOp, TmaStoreWaitOp, ReturnOp, YieldOp, ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp,
           ClusterIdOp, ClusterBlockIdOp, LaneIdOp, WarpIdOp, WarpgroupIdOp, ProblemSizeOp>(op))
    assume("no cost model for '" + op->getName().getStringRef().str() + "': counted as free");
}

/// `if (%iv + step <= ub)` (ule/sle, either operand order of the add) directly in the body of
/// the loop of %iv, step and ub: true in every iteration but a partial last one.
bool CostWalker::isFullIterationGuard(scf::IfOp ifOp) {
  auto loop = dyn_cast<scf::ForOp>(ifOp->getParentOp());
  auto cmp = ifOp.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!loop || !cmp || cmp.getRhs() != loop.getUpperBound() ||
      (cmp.getPredicate() != arith::CmpIPredicate::ule &&
       cmp.getPredicate() != arith::CmpIPredicate::sle))
    return false;
  auto end = cmp.getLhs().getDefiningOp<arith::AddIOp>();
  if (!end)
    return false;
  Value iv = loop.getInductionVar(), step = loop.getStep();
  auto same = [](Value x, Value y) {
    return x == y || (getConstantIntValue(x) && getConstantIntValue(x) == getConstantIntValue(y));
  };
  return (end.getLhs() == iv && same(end.getRhs(), step)) ||
         (end.getRhs() == iv && same(end.getLhs(), step));
}

Expr CostWalker::walkBlock(Block &block, const Ctx &ctx, Local *parent) {
  Local local;
  if (parent) {
    local.tmaLatencyPaid = parent->tmaLatencyPaid;
    local.isLoopBody = parent->isLoopBody;
    local.deferLoadLatency = parent->deferLoadLatency;
  }
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(&op)) {
      Expr trips = tripCount(loop);
      Ctx inner{ctx.active, ctx.mult * trips, {}};
      for (const Expr &rel : ctx.rel)
        inner.rel.push_back(rel * trips);
      inner.rel.push_back(Expr(1.0));
      IterationWork perIteration;
      iterations.push_back(&perIteration);
      Local body;
      body.isLoopBody = true;
      Expr iteration = walkBlock(*loop.getBody(), inner, &body);
      iterations.pop_back();
      LoopInfo info{loop.getLoc(), trips, 0, iteration, !body.wait0, "", "", {}, Value(), Value(), std::nullopt};
      info.perIteration = std::move(perIteration);
      info.producerPipeline = body.producerPipeline;
      if (body.hasConsumerWait && body.stages > 0) {
        // A TMA ring of S stages keeps S copies in flight: an iteration takes at least the
        // copy latency / S; the first copy's latency is paid once (unless already paid).
        info.stages = body.stages;
        info.ring = "tma";
        info.latencyParam = "tma_latency_ns";
        info.pipeline = body.pipeline;
        Expr perIteration = Expr::max(iteration, ns("tma_latency_ns") / Expr(body.stages));
        local.chain += trips * perIteration;
        if (!local.tmaLatencyPaid)
          local.chain += ns("tma_latency_ns");
        local.tmaLatencyPaid = true;
      } else if (body.cpAsyncStages > 0 && body.cpWaitAfterIssue) {
        // cp.async issued and waited for (wait 0) in the same iteration: the latency is exposed.
        local.chain += trips * (iteration + ns("global_latency_ns"));
        local.hasCpAsync = false;
      } else if (body.cpAsyncStages > 0) {
        // A cp.async ring: `cp_async.wait N` leaves N groups in flight, a pipeline of N + 1
        // stages: an iteration takes at least the global latency / (N + 1), plus one latency to
        // fill.
        info.stages = body.cpAsyncStages;
        info.ring = "cp_async";
        info.latencyParam = "global_latency_ns";
        Expr perIteration =
            Expr::max(iteration, ns("global_latency_ns") / Expr(body.cpAsyncStages));
        local.chain += trips * perIteration + ns("global_latency_ns");
        local.hasCpAsync = false;
      } else if (body.syncGlobalLoad && trips.isConst() && trips.getConst() <= 8) {
        // A short constant loop is unrolled: its loads are in flight together, one latency.
        local.chain += trips * (iteration - ns("global_latency_ns")) + ns("global_latency_ns");
      } else {
        local.chain += trips * iteration;
      }
      // Copies issued in a loop without a wait in it (a prologue) are waited for later.
      if (body.hasCpAsync && body.cpAsyncStages == 0)
        local.hasCpAsync = true;
      local.nestedSync += trips * body.syncAll;
      a.loops.push_back(info);
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(&op)) {
      // A persistent loop over cluster launch control runs one tile per launched block: the
      // grid covers every tile, and each answer taken replaces a launch that does not happen.
      // Any other while loop has no trip count the model can know: one iteration, said so.
      bool persistent = false;
      loop.walk([&](ClcQueryOp) { persistent = true; });
      if (!persistent)
        assume("scf.while at " + locString(loop.getLoc()) +
               ": trip count unknown, counted as one iteration");
      Expr chain(0.0), sync(0.0);
      for (Region *region : {&loop.getBefore(), &loop.getAfter()}) {
        Local body;
        body.isLoopBody = true;
        body.tmaLatencyPaid = local.tmaLatencyPaid;
        chain += walkBlock(region->front(), ctx, &body);
        sync += body.syncAll;
        local.tmaLatencyPaid |= body.tmaLatencyPaid;
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(&op)) {
      // `if (iv + step <= ub)` in a loop: every iteration but a partial last one takes the then
      // branch; the last one's else branch is not charged (as a grid's partial tail is not).
      bool fullIteration = isFullIterationGuard(ifOp);
      Ctx thenCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
      Ctx elseCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
      for (int t : ctx.active.set_bits()) {
        std::optional<bool> c = condition(ifOp.getCondition(), t);
        if (!c || *c)
          thenCtx.active.set(t);
        if (!c || !*c)
          elseCtx.active.set(t);
      }
      Expr chain(0.0), sync(0.0);
      if (thenCtx.active.any()) {
        Local body;
        body.tmaLatencyPaid = local.tmaLatencyPaid;
        body.deferLoadLatency = true;
        chain = walkBlock(ifOp.getThenRegion().front(), thenCtx, &body);
        sync = body.syncAll;
        local.tmaLatencyPaid |= body.tmaLatencyPaid;
        local.syncGlobalLoad |= body.syncGlobalLoad;
      }
      if (!ifOp.getElseRegion().empty() && elseCtx.active.any() && !fullIteration) {
        Local body;
        body.deferLoadLatency = true;
        chain = Expr::max(chain, walkBlock(ifOp.getElseRegion().front(), elseCtx, &body));
        sync = Expr::max(sync, body.syncAll);
        local.syncGlobalLoad |= body.syncGlobalLoad;
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    if (auto roles = dyn_cast<WarpRolesOp>(&op)) {
      Expr chain(0.0), sync(0.0);
      for (Operation &inner : roles.getBody().front()) {
        auto role = dyn_cast<RoleOp>(&inner);
        if (!role)
          continue;
        Ctx roleCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
        for (int64_t t = role.getFirst() * 32;
             t < std::min<int64_t>(role.getLast() * 32, ctx.active.size()); ++t)
          if (ctx.active[t])
            roleCtx.active.set(t);
        Local body;
        chain = Expr::max(chain, walkBlock(role.getBody().front(), roleCtx, &body));
        sync = Expr::max(sync, body.syncAll);
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    visitLeaf(&op, ctx, local);
  }
  Expr total = combine(local) + local.chain + local.sync;
  if (local.syncGlobalLoad && !local.deferLoadLatency)
    total += ns("global_latency_ns");
  local.syncAll = local.sync + local.nestedSync;
  if (parent) {
    parent->wait0 = local.wait0;
    parent->syncGlobalLoad = local.syncGlobalLoad;
    parent->hasConsumerWait = local.hasConsumerWait;
    parent->stages = local.stages;
    parent->hasCpAsync = local.hasCpAsync;
    parent->cpAsyncStages = local.cpAsyncStages;
    parent->cpWaitAfterIssue = local.cpWaitAfterIssue;
    parent->pipeline = local.pipeline;
    parent->producerPipeline = local.producerPipeline;
    parent->syncAll = local.syncAll;
    parent->tmaLatencyPaid = local.tmaLatencyPaid;
  } else {
    a.blockSyncChain = local.syncAll;
  }
  return total;
}

int64_t CostWalker::registerWords(Block &block) {
  int64_t most = 0;
  for (Operation &op : block) {
    int64_t own = 0;
    // A loop's carried values; one threaded in from an enclosing loop's carried value (an inner
    // loop over the same accumulator) lives in the registers already counted there.
    if (auto loop = dyn_cast<scf::ForOp>(&op))
      for (Value init : loop.getInitArgs()) {
        auto arg = dyn_cast<BlockArgument>(init);
        if (arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()) && arg.getArgNumber() > 0)
          continue;
        own += elementCount(init.getType()) * ((bitWidth(init.getType()) + 31) / 32);
      }
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &b : region)
        inner = std::max(inner, registerWords(b));
    most = std::max(most, own + inner);
  }
  return most;
}

static Expr affineToExpr(AffineExpr e, ArrayRef<StringRef> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return Expr(static_cast<double>(c.getValue()));
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return Expr::size(symbols[s.getPosition()]);
  auto bin = cast<AffineBinaryOpExpr>(e);
  Expr l = affineToExpr(bin.getLHS(), symbols), r = affineToExpr(bin.getRHS(), symbols);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::CeilDiv:
    return Expr::ceilDiv(l, r);
  case AffineExprKind::FloorDiv:
    return l / r;
  default:
    return r; // mod: at most the divisor
  }
}

void CostWalker::run() {
  a.name = kernel.getSymName().str();
  a.target = kernel.getTarget().str();
  a.threads = kernel.getNumThreads();
  a.sharedBytes = std::max<int64_t>(kernel.getSharedMemoryLayout().totalBytes,
                                    kernel.getDynamicSmem());
  kernel.walk([&](TmemAllocOp alloc) { a.tensorMemoryColumns += alloc.getTmem().getType().getColumns(); });
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  for (StringRef s : symbols)
    a.symbols.push_back(s.str());

  a.blocks = Expr(1.0);
  for (AffineExpr e : kernel.getGrid().getResults()) {
    gridDims.push_back(affineToExpr(e, symbols));
    a.blocks = a.blocks * gridDims.back();
  }
  while (gridDims.size() < 3)
    gridDims.push_back(Expr(1.0));

  // Tensor parameters (and the TMA descriptors that describe them) share one traffic record.
  Block &entry = kernel.getBody().front();
  llvm::StringMap<unsigned> byName;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    auto type = dyn_cast<GlobalTensorType>(entry.getArgument(i).getType());
    if (!type)
      continue;
    auto name = kernel.getArgAttrOfType<StringAttr>(i, "cake.name");
    TensorTraffic t;
    t.name = name ? name.getValue().str() : llvm::formatv("arg{0}", i).str();
    t.footprint = Expr(static_cast<double>(type.getElementBytes()));
    for (Attribute extent : type.getShape())
      t.footprint = t.footprint * (isa<IntegerAttr>(extent)
                                       ? Expr(static_cast<double>(cast<IntegerAttr>(extent).getInt()))
                                       : Expr::size(cast<StringAttr>(extent).getValue()));
    byName[t.name] = a.tensors.size();
    tensorIndex[entry.getArgument(i)] = a.tensors.size();
    a.tensors.push_back(std::move(t));
  }
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    if (isa<TmaType>(entry.getArgument(i).getType()))
      if (auto describes = kernel.getArgAttrOfType<StringAttr>(i, "cake.describes")) {
        auto it = byName.find(describes.getValue());
        if (it != byName.end())
          tensorIndex[entry.getArgument(i)] = it->second;
      }

  kernel.walk([&](RoleOp role) {
    if (role.getRegs())
      a.roleRegisters = *role.getRegs();
  });
  a.estimatedRegisters = std::min<int64_t>(255, 20 + 2 * registerWords(entry));

  Ctx all{llvm::BitVector(a.threads, true), Expr(1.0), {}};
  a.blockChain = walkBlock(entry, all);

  // Warp-specialized TMA rings: a stage of the consumer loop also carries the copies the
  // producer loop of the same pipeline issues for it (one producer iteration per stage).
  for (LoopInfo &consumer : a.loops) {
    if (!consumer.pipeline || consumer.producerPipeline == consumer.pipeline)
      continue;
    for (const LoopInfo &producer : a.loops)
      if (&producer != &consumer && producer.producerPipeline == consumer.pipeline) {
        for (const auto &f : producer.perIteration.flops)
          consumer.perIteration.flops[f.first()] += f.second;
        consumer.perIteration.l2 += producer.perIteration.l2;
        consumer.perIteration.useful += producer.perIteration.useful;
        consumer.perIteration.shared += producer.perIteration.shared;
        consumer.producerLoc = producer.loc;
        break;
      }
  }
}

//===----------------------------------------------------------------------===//
// CostAnalysis
//===----------------------------------------------------------------------===//

CostAnalysis::CostAnalysis(Operation *op) : kernel(op) {
  if (auto k = dyn_cast<KernelOp>(op))
    CostWalker(*this, k).run();
}

std::optional<int64_t> CostAnalysis::parsePtxasRegisters(StringRef log, StringRef entry) {
  // ptxas -v: "Compiling entry function 'NAME' for 'sm_90a'" ... "Used N registers".
  size_t at = log.find(("Compiling entry function '" + entry + "'").str());
  if (at == StringRef::npos) {
    at = log.find(("Function properties for " + entry).str());
    if (at == StringRef::npos)
      return std::nullopt;
  }
  StringRef rest = log.drop_front(at);
  size_t next = rest.find("Compiling entry function", 10);
  rest = rest.take_front(next);
  llvm::Regex used("Used ([0-9]+) registers");
  SmallVector<StringRef, 2> match;
  if (!used.match(rest, &match))
    return std::nullopt;
  int64_t regs;
  if (match[1].getAsInteger(10, regs))
    return std::nullopt;
  return regs;
}

static std::string fmt(double v) {
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%.4g", v);
  return buffer;
}

llvm::Expected<CostReport> CostAnalysis::evaluate(const HardwareProfile &profile,
                                                  const Options &options) {
  auto error = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  CostReport r;
  r.kernel = name;
  r.target = target;
  if (!isa_and_nonnull<KernelOp>(kernel))
    return error("the cost analysis runs on a cake.kernel");
  if (!profile.coversTarget(target))
    return error("profile '" + profile.name + "' (" + profile.path + ") does not cover target '" +
                 target + "' (it covers " + llvm::join(profile.targets, ", ") + ")");

  llvm::StringMap<double> params = profile.params;
  params["sm_count"] = profile.smCount;
  for (const auto &entry : blockWork)
    if (entry.first().starts_with("tensor_") || entry.first().starts_with("mma_sync_")) {
      StringRef unitName = entry.first();
      std::string key = unitName.starts_with("tensor_")
                            ? ("tensor_TFLOPS." + unitName.drop_front(7)).str()
                            : ("mma_sync_TFLOPS." + unitName.drop_front(9)).str();
      if (!params.count(key))
        return error("profile '" + profile.name + "' (" + profile.path + "): missing field 'params." +
                     key + "', needed by kernel '" + name + "'");
    }

  // Registers: ptxas's count, else the setmaxnreg budget (compiled for one block per SM: the
  // entry budget is the register file over the block), else an estimate.
  int64_t sm = profile.smCount;
  if (options.ptxasRegisters) {
    r.registers = *options.ptxasRegisters;
    r.registersSource = "ptxas";
  } else if (roleRegisters) {
    r.registers = std::min<int64_t>(profile.maxRegistersPerThread,
                                    profile.registersPerSm / threads / 8 * 8);
    r.registersSource = "setmaxnreg";
  } else {
    r.registers = estimatedRegisters;
    r.registersSource = "estimate";
  }
  r.sharedBytes = sharedBytes;
  r.threadsPerBlock = threads;
  int64_t warps = (threads + 31) / 32;
  int64_t perWarp = llvm::alignTo(r.registers * 32, profile.registerAllocUnit);
  struct Limit {
    const char *name;
    int64_t blocks;
  } limits[] = {
      {"threads", profile.maxThreadsPerSm / (warps * 32)},
      {"blocks", profile.maxBlocksPerSm},
      {"registers", profile.registersPerSm / std::max<int64_t>(1, perWarp * warps)},
      {"shared memory",
       sharedBytes ? profile.sharedBytesPerSm / (sharedBytes + profile.sharedReservedPerBlock)
                   : profile.maxBlocksPerSm},
      // A block waits in tcgen05.alloc until its columns are free: 512 per SM.
      {"tensor memory", tensorMemoryColumns ? 512 / tensorMemoryColumns : profile.maxBlocksPerSm}};
  r.blocksPerSm = INT64_MAX;
  for (const Limit &l : limits)
    if (l.blocks < r.blocksPerSm) {
      r.blocksPerSm = l.blocks;
      r.occupancyLimit = l.name;
    }
  if (sharedBytes > profile.sharedBytesPerBlock)
    return error(llvm::formatv("kernel '{0}' needs {1} bytes of shared memory per block; '{2}' "
                               "allows {3}",
                               name, sharedBytes, profile.name, profile.sharedBytesPerBlock)
                     .str());
  if (r.blocksPerSm < 1)
    return error(llvm::formatv("kernel '{0}' does not fit on an SM of '{1}' (limited by {2})", name,
                               profile.name, r.occupancyLimit)
                     .str());

  // Which sizes the prediction needs.
  llvm::StringSet<> used;
  blocks.collectSizes(used);
  blockChain.collectSizes(used);
  for (const auto &e : blockWork)
    e.second.collectSizes(used);
  for (const TensorTraffic &t : tensors) {
    t.requested.collectSizes(used);
    t.footprint.collectSizes(used);
  }
  for (const std::string &s : symbols)
    if (used.contains(s) && !options.sizes.count(s))
      r.missingSizes.push_back(s);

  const llvm::StringMap<double> &sizes = options.sizes;
  Expr smExpr(static_cast<double>(sm));
  Expr busiest = Expr::ceilDiv(blocks, smExpr);
  Expr bytesL2(0.0), bytesDram(0.0), bytesUseful(0.0);
  for (const TensorTraffic &t : tensors) {
    Expr requested = blocks * t.requested;
    Expr once = Expr::min(requested, t.footprint);
    bytesL2 += requested;
    bytesDram += once + param("l2_reread_miss") * Expr::max(Expr(0.0), requested - t.footprint);
    bytesUseful += blocks * t.useful;
  }

  if (!r.missingSizes.empty()) {
    r.formulas.insert({"blocks", blocks.str()});
    r.formulas.insert({"blocks_on_busiest_sm", busiest.str()});
    for (const auto &e : blockFlops)
      r.formulas.insert({e.first(), (blocks * e.second).bind(sizes).str()});
    r.formulas.insert({"bytes_l2", bytesL2.bind(sizes).str()});
    r.formulas.insert({"bytes_useful", bytesUseful.bind(sizes).str()});
    return r;
  }

  // Terms of the max (seconds), each an expression over the profile's parameters.
  llvm::MapVector<StringRef, Expr> terms;
  Expr issue(0.0);
  unsigned issuers = 0;
  for (const auto &e : blockWork) {
    Expr term = busiest * e.second / unitRate(e.first());
    terms.insert({e.first(), term});
    if (sharesDispatch(e.first())) {
      issue += term;
      ++issuers;
    }
  }
  if (issuers > 1)
    terms.insert({"issue", issue});
  Expr occ(static_cast<double>(r.blocksPerSm));
  terms.insert({"latency", Expr::ceilDiv(busiest, occ) * blockChain});
  terms.insert({"dram", bytesDram / (param("dram_bandwidth_GBps") * 1e9)});
  terms.insert({"l2", bytesL2 / (param("l2_bandwidth_GBps") * 1e9)});
  Expr time(0.0);
  for (auto &[key, term] : terms)
    time = Expr::max(time, term);
  Expr launch = param("launch_overhead_us") * 1e-6;
  time = time + launch;

  auto value = [&](const Expr &e) { return e.evaluate(sizes, params).value_or(0.0); };
  r.complete = true;
  r.predictedMs = value(time) * 1e3;
  Expr model = time.bind(sizes);
  r.model = model.toJSON();
  double best = -1;
  for (auto &[key, term] : terms) {
    double ms = value(term) * 1e3;
    r.termsMs.insert({key, ms});
    if (ms > best) {
      best = ms;
      r.boundUnit = key.str();
    }
  }
  r.termsMs.insert({"launch", value(launch) * 1e3});
  r.blocks = static_cast<int64_t>(value(blocks));
  r.busiestSmBlocks = static_cast<int64_t>(value(busiest));
  r.waves = r.blocks / static_cast<double>(sm * r.blocksPerSm);
  r.tailEfficiency = r.waves > 0 ? r.waves / std::ceil(r.waves - 1e-9) : 1;
  double chain = value(blockChain);
  r.blockLatencyUs = chain * 1e6;
  r.syncShare = chain > 0 ? value(blockSyncChain) / chain : 0;
  for (const auto &e : blockFlops)
    r.flops.insert({e.first(), value(blocks * e.second)});
  for (const auto &e : blockWork)
    r.unitWork.insert({e.first(), value(blocks * e.second)});
  r.bytes.insert({"dram", value(bytesDram)});
  r.bytes.insert({"l2", value(bytesL2)});
  r.bytes.insert({"global_useful", value(bytesUseful)});
  r.bytes.insert({"shared", value(blocks * sharedBytesMoved)});

  StringRef unit = r.boundUnit;
  if (unit == "latency")
    r.bound = r.syncShare > 0.5 ? "sync" : "latency";
  else if (unit == "dram" || unit == "l2" || unit == "lsu" ||
           (unit == "issue" && r.termsMs["lsu"] > r.termsMs["fma"]))
    r.bound = "memory";
  else
    r.bound = "compute";

  // Evidence: the winning term's inputs, and the runner-up.
  double second = 0;
  std::string secondName;
  for (auto &[key, ms] : r.termsMs)
    if (key != unit && key != "launch" && ms > second) {
      second = ms;
      secondName = key.str();
    }
  std::string why;
  bool tensorUnit = unit.starts_with("tensor_") || unit.starts_with("mma_sync_");
  if (tensorUnit || unit == "fma" || unit == "fp64" || unit == "sfu" || unit == "lsu") {
    why = llvm::formatv("{0} {1} {2} over {3} SMs, {4} blocks on the busiest SM", fmt(r.unitWork[unit]),
                        unit == "lsu" ? "wavefronts" : tensorUnit ? "FLOP" : "ops",
                        unit, sm, r.busiestSmBlocks)
              .str();
  } else if (unit == "issue") {
    why = llvm::formatv("fma {0} ms + lsu {1} ms: FMAs and loads/stores share the dispatch ports",
                        fmt(r.termsMs["fma"]), fmt(r.termsMs["lsu"]))
              .str();
  } else if (unit == "latency") {
    why = llvm::formatv("critical path of a block {0} us ({1}% in barriers/waits) x {2} rounds of "
                        "{3} block(s)/SM",
                        fmt(r.blockLatencyUs), static_cast<int>(r.syncShare * 100 + 0.5),
                        (r.busiestSmBlocks + r.blocksPerSm - 1) / r.blocksPerSm, r.blocksPerSm)
              .str();
  } else if (unit == "dram") {
    why = llvm::formatv("{0} B from DRAM at {1} GB/s", fmt(r.bytes["dram"]),
                        fmt(params["dram_bandwidth_GBps"]))
              .str();
  } else {
    why = llvm::formatv("{0} B through L2 at {1} GB/s", fmt(r.bytes["l2"]),
                        fmt(params["l2_bandwidth_GBps"]))
              .str();
  }
  r.evidence = llvm::formatv("{0}: {1} ms ({2}); next: {3} {4} ms", unit, fmt(best), why,
                             secondName, fmt(second))
                   .str();
  return r;
}
