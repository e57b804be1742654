//===- ThreadModel.h - which threads execute what, with which values -*- C++ -*-===//
//
// The verifier passes' view of a kernel's threads. A block has at most 1024 threads, so the model
// simply evaluates index arithmetic for every thread of the block: thread, lane, warp and
// warpgroup ids are known; problem sizes, block ids, kernel parameters and loop counters of
// uniform loops, loads of one address of a read-only tensor and the carried values of while loops
// that keep them uniform are "uniform unknowns" (the same in every thread, identified by a symbol);
// anything else is "varying". From the values it derives, for each op, how each thread
// reaches it: never, always, under uniform conditions, or unknown.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_THREADMODEL_H
#define CAKE_ANALYSIS_THREADMODEL_H

#include "Cake/IR/CakeOps.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <vector>

namespace mlir::cake {

/// What one thread knows about an integer (or i1, or index) value.
struct Lat {
  enum Kind : uint8_t { Known, Sym, Varying };
  Kind kind = Varying;
  /// Known: the value, zero-extended from its bit width; Sym: the id of the uniform unknown.
  int64_t value = 0;

  static Lat known(int64_t v) { return {Known, v}; }
  static Lat sym(int64_t id) { return {Sym, id}; }
  static Lat varying() { return {Varying, 0}; }
  bool operator==(const Lat &other) const {
    return kind == other.kind && (kind == Varying || value == other.value);
  }
  bool operator!=(const Lat &other) const { return !(*this == other); }
};

/// How one thread reaches an op.
struct Reach {
  enum Kind : uint8_t { Never, Always, Cond, Unknown };
  Kind kind = Always;
  /// Cond: the uniform conditions (+id: symbol true, -id: symbol false), sorted.
  llvm::SmallVector<int64_t, 2> conds;
  bool operator==(const Reach &other) const { return kind == other.kind && conds == other.conds; }
  bool operator!=(const Reach &other) const { return !(*this == other); }
};

/// The threads that execute an op (per pass over it, when its uniform conditions hold).
struct Executors {
  llvm::BitVector threads;
  /// False when some thread reaches the op in an undecidable way, or threads reach it under
  /// different uniform conditions.
  bool exact = true;
  int64_t count() const { return threads.count(); }
};

/// One concrete launch to model instead of the general one: every problem size bound to a value,
/// and the block ids and grid extents of one block of that launch (cake-verify-shapes).
struct ShapeProbe {
  llvm::StringMap<int64_t> sizes;
  int64_t blockId[3] = {0, 0, 0};
  int64_t gridDim[3] = {1, 1, 1};
  /// False: block ids and grid extents stay uniform unknowns (a probe of cluster ranks only).
  bool bindBlocks = true;
  /// With bindBlocks false: the grid extents (gridDim) bound all the same (a persistent loop's
  /// step is the grid's size while the block stays unknown).
  bool bindGridDims = false;
  /// The block's rank in its cluster and the cluster's index, per dimension; -1: unbound.
  int64_t clusterBlockId[3] = {-1, -1, -1};
  int64_t clusterId[3] = {-1, -1, -1};
};

/// Sets `probe.gridDim` from the kernel's grid map at `probe.sizes`; false when an extent is not
/// a constant there (a size the grid needs is unbound). An extent may come out below 1.
bool bindGrid(KernelOp kernel, ShapeProbe &probe);

/// The first group of `group` consecutive threads (a warp: 32, a warpgroup: 128) of which some
/// but not all are in `threads`: {first thread of the group, how many of it are in}.
std::optional<std::pair<int64_t, int64_t>> findPartialGroup(const llvm::BitVector &threads,
                                                            int64_t numThreads, int64_t group);

class ThreadModel {
public:
  explicit ThreadModel(KernelOp kernel);
  /// The model of one launch: problem sizes, block ids and grid extents are the probe's
  /// constants (a size the probe does not bind stays a uniform unknown).
  ThreadModel(KernelOp kernel, ShapeProbe probe);

  KernelOp getKernel() { return kernel; }
  int64_t getNumThreads() const { return numThreads; }

  /// The value of `v` in every thread.
  llvm::ArrayRef<Lat> eval(Value v);
  /// True if `v` is the same in every thread (one constant or one uniform unknown).
  bool isInvariant(Value v);
  /// The constant `v` has in every thread, if any.
  std::optional<int64_t> getConstant(Value v);
  /// True if `a` and `b` are provably the same value in every thread.
  bool sameValue(Value a, Value b);

  /// How each thread reaches `op`.
  llvm::ArrayRef<Reach> reach(Operation *op);
  /// The threads that execute `op`.
  Executors executors(Operation *op);
  /// The innermost enclosing op (up to the kernel) whose control flow depends on the thread: an
  /// scf.if on a thread-dependent condition or a loop with thread-dependent bounds.
  Operation *findDivergentAncestor(Operation *op);
  /// True when `v` may differ between threads: it follows from thread ids, or from memory read
  /// at a thread-dependent address, through arithmetic and loop-carried values. (A value the
  /// model calls varying is not necessarily thread-dependent: a loop counter or a loaded value
  /// is the same in every thread when everything it comes from is.)
  bool isThreadDependent(Value v);

private:
  llvm::ArrayRef<Reach> reachRegion(Region *region);
  std::vector<Lat> compute(Value v, unsigned depth);
  std::vector<Lat> computeOp(Operation *op, unsigned resultNumber, unsigned depth);
  std::vector<Lat> computeElect(Operation *op);
  bool whileIsUniform(Operation *whileOp, unsigned depth);
  llvm::ArrayRef<Lat> evalAt(Value v, unsigned depth);
  int64_t newSymbol() { return nextSymbol++; }
  std::vector<Lat> uniform(Value v);
  std::vector<Lat> all(Lat lat) { return std::vector<Lat>(numThreads, lat); }

  KernelOp kernel;
  std::optional<ShapeProbe> probe;
  int64_t numThreads;
  llvm::SmallVector<int64_t, 3> block;
  int64_t nextSymbol = 1;
  llvm::DenseMap<Value, std::vector<Lat>> values;
  llvm::DenseMap<Value, int64_t> symbols;
  llvm::DenseSet<Value> inProgress;
  llvm::DenseMap<Region *, std::vector<Reach>> regions;
  llvm::DenseSet<Region *> regionsInProgress;
  llvm::DenseMap<Value, bool> threadDependent;
  /// scf.while loops whose carried values are the same in every thread (see whileIsUniform);
  /// true while that is being assumed.
  llvm::DenseMap<Operation *, bool> uniformWhile;
};

/// True for the ops that are block-wide barriers every thread must reach.
bool isBlockBarrier(Operation *op);

/// Ops that may make a thread wait for others: block barriers, named barriers, mbarrier waits and
/// the pipeline's waits (consumer_wait, producer_acquire).
bool mayWaitForOthers(Operation *op);

/// Ops that a whole warpgroup issues together (wgmma and its fence, commit and wait).
bool isWarpgroupCollective(Operation *op);

/// How many consecutive threads must execute `op` together: 128 (warpgroup collectives), 32
/// (warp collectives: shuffles, elect, named barriers), or 0.
int64_t getCollectiveGroup(Operation *op);

/// Folds an integer arith or index op (binary, comparison, cast, select) on known operand values,
/// as the model does per thread; nullopt for other ops and undefined results (division by zero).
/// For passes that evaluate indices under their own bindings of loop counters.
std::optional<int64_t> foldIntegerOp(Operation *op, llvm::ArrayRef<int64_t> args);

/// `v` with the values in `bound` substituted (loop counters, iteration arguments: what a pass
/// binds itself), folded through integer arith and index ops. Elsewhere the model's value: in
/// `thread`, or with `thread` < 0 only a value that is the same in every thread. nullopt when
/// unknown or of an absurd size (|x| > `limit`: no overflow in the callers' arithmetic; the
/// cost model's flat offsets at its simulated sizes need more than the verifier's 2^32).
std::optional<int64_t> evaluateWith(ThreadModel &model, Value v, int64_t thread,
                                    const llvm::DenseMap<Value, int64_t> &bound,
                                    int64_t limit = int64_t(1) << 32);

/// The model's values in every thread with some values bound to constants (the loop counters a
/// check enumerates): the arith chains that use a bound value are folded again per thread
/// (foldIntegerOp), everything else is the model's value. With `nextLoop`, the model's uniform
/// unknowns defined in that loop's body are renamed (they belong to its next iteration, so they
/// are not the same unknowns as this iteration's). evaluateWith is the one-thread form.
class BoundEvaluator {
public:
  BoundEvaluator(ThreadModel &model, llvm::DenseMap<Value, int64_t> bound,
                 Operation *nextLoop = nullptr)
      : model(model), bound(std::move(bound)), nextLoop(nextLoop) {}

  llvm::ArrayRef<Lat> eval(Value v, unsigned depth = 0);

private:
  bool dependsOnBound(Value v, unsigned depth);

  ThreadModel &model;
  llvm::DenseMap<Value, int64_t> bound;
  Operation *nextLoop;
  llvm::DenseMap<Value, std::vector<Lat>> cache;
  llvm::DenseMap<Value, bool> dependsCache;
};

/// The nearest op before `op` in its block, or before one of its ancestors in the ancestor's
/// block (up to the kernel), that satisfies `pred`; null if none.
Operation *findPreceding(Operation *op, llvm::function_ref<bool(Operation *)> pred);

/// The threads that arrive per phase on the barrier an init initializes, per group of arrivals
/// (arrive and arrive_expect_tx ops on the same array index, grouped by their enclosing loop).
///
/// A loop whose body neither waits nor synchronizes (no mbarrier or pipeline wait, no block,
/// named or cluster barrier) and has a constant trip count runs all its iterations in one
/// phase: its arrivals count once per iteration and group with the loop around it.
struct ArrivalGroup {
  Operation *loop; // the innermost phase-advancing scf.for around the group's ops, or null
  llvm::SmallVector<Operation *, 2> ops;
  llvm::SmallVector<int64_t, 2> repeats; // per op: how often each thread arrives per phase
  int64_t threads = 0;                   // arrivals per phase
  /// False when who arrives is undecidable (inexact executors, or ops under different
  /// conditions); `threads` is then meaningless.
  bool exact = true;
};

/// The arrival groups of `init`'s barrier, or nothing when an index is not a constant (then no
/// count can be judged). `arrivals` are the arrive and arrive_expect_tx ops on the same array.
llvm::SmallVector<ArrivalGroup> countArrivals(ThreadModel &model, MbarrierInitOp init,
                                              llvm::ArrayRef<Operation *> arrivals);

/// "N threads arrive here[, R times per phase]" on a diagnostic's note.
void describeArrival(Diagnostic &note, ThreadModel &model, Operation *op, int64_t repeat);

/// Program order: the position of every op of `kernel` in a pre-order walk.
llvm::DenseMap<Operation *, unsigned> getProgramOrder(KernelOp kernel);

/// Pretty "[first, last)" text for a role.
std::string describeRole(RoleOp role);

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_THREADMODEL_H
