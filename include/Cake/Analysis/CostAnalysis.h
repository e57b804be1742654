//===- CostAnalysis.h - the analytical cost model of a kernel ---*- C++ -*-===//
//
// CostAnalysis walks one cake.kernel once and builds, as expressions over the problem sizes and
// the hardware-profile parameters (CostExpr.h), what one block does: work per unit (tensor cores
// by dtype, FMA pipe, SFU, load/store pipe), bytes per memory level, the critical path of a block
// (latency, pipelines, synchronization), the grid. `evaluate` binds sizes and a profile and
// returns the report: occupancy, waves, the predicted time and the bound with its evidence.
// docs/CostModel.md gives the formulas.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_COSTANALYSIS_H
#define CAKE_ANALYSIS_COSTANALYSIS_H

#include "Cake/Analysis/CostExpr.h"
#include "Cake/Analysis/HardwareProfile.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/MapVector.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::cake {
class KernelOp;

/// Global-memory traffic of one tensor parameter (per block; bytes).
struct TensorTraffic {
  std::string name;
  cost::Expr requested;   ///< bytes requested from L2 (32-byte sectors, TMA boxes)
  cost::Expr useful;      ///< bytes the threads asked for
  cost::Expr footprint;   ///< bytes of the whole tensor
  bool written = false;
};

/// What one iteration of a loop does, for one block (per-stage breakdown of pipelined loops).
struct IterationWork {
  llvm::StringMap<cost::Expr> flops; ///< useful FLOPs by unit
  cost::Expr l2;                     ///< bytes requested from L2 (sectors, TMA boxes)
  cost::Expr useful;                 ///< global bytes the threads asked for
  cost::Expr shared;                 ///< shared-memory bytes moved
};

/// A loop of the kernel with its trip count and, for pipelined loops, its depth.
struct LoopInfo {
  Location loc;
  cost::Expr trips;
  int64_t stages = 0;          ///< 0: not a pipelined loop (TMA ring or cp.async ring)
  cost::Expr iterationTime;    ///< seconds per iteration of one block alone, before latency
  bool asyncOverlap = false;   ///< the iteration's tensor-core work overlaps the rest
  std::string ring;            ///< pipelined loops: "tma" or "cp_async"
  std::string latencyParam;    ///< the copy latency the ring hides (a profile parameter)
  IterationWork perIteration;  ///< one iteration of one block
  /// TMA rings: the loop's pipeline (consumer side) or the one it fills (producer side); the
  /// consumer loop's perIteration also counts the producer loop's copies (one stage each).
  mlir::Value pipeline, producerPipeline;
  std::optional<Location> producerLoc;
};

/// A finding about the kernel's memory accesses (coalescing, bank conflicts).
struct AccessNote {
  Location loc;
  std::string message;
};

/// The evaluated cost of a kernel for given sizes on a profile.
struct CostReport {
  std::string kernel, target;
  bool complete = false;                 ///< all sizes given: numbers below are set
  std::vector<std::string> missingSizes; ///< the sizes a prediction needs
  llvm::MapVector<llvm::StringRef, std::string> formulas; ///< per-size formulas when incomplete

  double predictedMs = 0;
  std::string bound, boundUnit, evidence;
  llvm::MapVector<llvm::StringRef, double> termsMs; ///< every candidate of the max, ms
  llvm::MapVector<llvm::StringRef, double> flops, unitWork, bytes;
  int64_t threadsPerBlock = 0, blocks = 0, blocksPerSm = 0, busiestSmBlocks = 0, registers = 0, sharedBytes = 0;
  std::string registersSource, occupancyLimit;
  double waves = 0, tailEfficiency = 0, blockLatencyUs = 0, syncShare = 0;
  llvm::json::Value model = nullptr;  ///< the time in seconds as an expression over parameters
  llvm::json::Value json = nullptr;   ///< the whole report (DESIGN.md's cost report)
};

class CostAnalysis {
public:
  /// Analyzes `op`, a cake.kernel (for getAnalysis<> / getChildAnalysis<>).
  explicit CostAnalysis(Operation *op);

  struct Options {
    llvm::StringMap<double> sizes;
    /// Registers per thread from ptxas (`ptxas -v` / --ptxas-log), if known.
    std::optional<int64_t> ptxasRegisters;
  };
  /// Binds sizes and a profile. Errors only for what the model cannot do (the kernel does not fit
  /// on the profile's SM, a dtype the profile has no rate for); missing sizes are not an error:
  /// the report lists them with per-size formulas.
  llvm::Expected<CostReport> evaluate(const HardwareProfile &profile, const Options &options);

  llvm::ArrayRef<LoopInfo> getLoops() const { return loops; }
  llvm::ArrayRef<AccessNote> getAccessNotes() const { return accessNotes; }
  llvm::ArrayRef<std::string> getAssumptions() const { return assumptions; }
  const llvm::StringMap<cost::Expr> &getBlockWork() const { return blockWork; }

  /// Parses `ptxas -v` output (cake-translate --ptxas-log) for the registers of `entry`.
  static std::optional<int64_t> parsePtxasRegisters(llvm::StringRef log, llvm::StringRef entry);

private:
  friend class CostWalker;
  Operation *kernel;
  std::string name, target;
  int64_t threads = 0, sharedBytes = 0;
  int64_t tensorMemoryColumns = 0;      ///< tcgen05: the columns its allocations hold (of 512)
  std::optional<int64_t> roleRegisters; ///< setmaxnreg kernels: compiled for one block per SM
  int64_t estimatedRegisters = 0;
  std::vector<std::string> symbols;

  cost::Expr blocks;                          ///< grid size
  llvm::StringMap<cost::Expr> blockWork;      ///< per block, by unit (see docs/CostModel.md)
  llvm::StringMap<cost::Expr> blockFlops;     ///< useful FLOPs per block, by unit
  cost::Expr sharedBytesMoved;                ///< shared-memory bytes per block
  cost::Expr blockChain;                      ///< seconds: the critical path of one block
  cost::Expr blockSyncChain;                  ///< seconds of it spent in barriers / waits
  cost::Expr barriers, mbarrierWaits;         ///< per block
  std::vector<TensorTraffic> tensors;
  std::vector<LoopInfo> loops;
  std::vector<AccessNote> accessNotes;
  std::vector<std::string> assumptions;
};

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_COSTANALYSIS_H
