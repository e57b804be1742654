//===- CostWalker.h - the walk that builds a CostAnalysis -------*- C++ -*-===//
//
// Private to lib/Analysis. The walk (CostWalker.cpp) visits each op of the kernel once and adds
// its work, traffic and latency; it evaluates values symbolically (trip counts) or concretely for
// one thread (CostValues.cpp) and simulates one warp's memory accesses (CostAccess.cpp: sectors,
// lines, bank conflicts). CostAnalysis.cpp binds sizes and a profile and writes the report.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_ANALYSIS_COSTWALKER_H
#define CAKE_LIB_ANALYSIS_COSTWALKER_H

#include "Cake/Analysis/CostAnalysis.h"
#include "Cake/Analysis/ThreadModel.h"
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

namespace mlir::cake::costwalk {
using cost::Expr;

/// Sizes used to simulate addresses (coalescing and bank conflicts do not depend on them
/// for the kernels we know; the report says so).
inline constexpr int64_t kSimulatedSize = 4096;

inline Expr param(StringRef name) { return Expr::param(name); }
inline Expr ns(StringRef name) { return param(name) * 1e-9; }

/// Work per second of one SM for a unit (docs/CostModel.md, "Units").
inline Expr unitRate(StringRef unit) {
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
/// the time of a 128x128 tile with 8x8 (bench/results/2026-12-01-cost-issue/README.md).
inline bool sharesDispatch(StringRef unit) { return unit == "fma" || unit == "lsu"; }

inline bool hasContract(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  return fm && arith::bitEnumContainsAll(fm.getFastMathFlagsAttr().getValue(),
                                         arith::FastMathFlags::contract);
}

inline int64_t elementCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

inline unsigned bitWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return 64;
  return element.getIntOrFloatBitWidth();
}

inline std::string dtypeName(Type type) {
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

inline std::string locString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("line {0}", file.getLine()).str();
  return "?";
}
} // namespace mlir::cake::costwalk

namespace mlir::cake {

/// Builds the per-block expressions of a CostAnalysis.
class CostWalker {
public:
  using Expr = cost::Expr;
  CostWalker(CostAnalysis &analysis, KernelOp kernel) : a(analysis), kernel(kernel) {
    for (StringRef symbol : kernel.getSymbolNames())
      simSizes[symbol] = costwalk::kSimulatedSize;
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
  std::optional<int64_t> concrete(Value value, Sim &sim);
  void bindFirstIteration(Value value, Sim &sim, llvm::DenseMap<Value, int64_t> &bound, int depth);
  ThreadModel &threadModel();
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
  /// The threads' values at the simulated sizes (built on the first concrete value).
  std::unique_ptr<ThreadModel> model;
};
} // namespace mlir::cake

#endif // CAKE_LIB_ANALYSIS_COSTWALKER_H
