//===- PathSimulation.cpp - barriers and store groups along each thread's path ===//
#include "PathSimulation.h"

#include "Cake/IR/HostNames.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/Verify/Findings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::cake;

namespace {
/// Problem sizes tried: every symbol set to one of these (loops of a few tiles for common tile
/// sizes, ragged and not).
constexpr int64_t kSizes[] = {200, 333, 520, 1000};
/// Ops one thread may execute in one simulation before it gives up (no finding): the verifier
/// must stay fast on persistent kernels whose paths are long.
constexpr int64_t kStepLimit = 20000;
/// Access pairs the role hand-off check may compare per problem size (x 64) before it gives up.
constexpr int64_t kPairLimit = 2000000;
/// The async-proxy and cp.async checks compare more: a warp-specialized KMeans kernel at the
/// smallest size has 51200 wgmma operand reads x 2000 writes (examples/kmeans_hopper.mlir: judged
/// in ~2 s; under 2000000 pairs it was not judged at all).
constexpr int64_t kAsyncPairLimit = 128000000;

/// A check that stops at problem size `size` because its run compares too many pairs: at the
/// smallest size it judged nothing, so it says so (a larger size only ends the check).
void stopForSize(KernelOp kernel, int64_t size, StringRef what, const std::string &why) {
  if (size == kSizes[0])
    remarkNotJudged(kernel, what, why);
}

/// One mbarrier wait on a thread's path.
struct Wait {
  MbarrierWaitOp op;
  int64_t parity;
  std::string where; // the loop counters at the wait, "iteration 5, iteration 1"
  int64_t seq;
};

/// A shared-memory region: a buffer, and the stage its first index selects when known.
struct SmemRegion {
  Value buffer;
  std::optional<int64_t> slot;
  bool overlaps(const SmemRegion &other) const {
    return buffer == other.buffer && (!slot || !other.slot || *slot == *other.slot);
  }
};

/// One barrier of one array (or of a pipeline: full = slot, empty = stages + slot).
using BarrierKey = std::pair<Operation *, int64_t>; // (mbarrier.alloc or pipeline.create, index)

/// Where on a thread's path something happened: after `epoch` block barriers, at step `seq`.
struct At {
  Operation *op;
  int64_t epoch, seq;
  std::string where;
  /// A TMA copy's write: the barrier phase its bytes complete (the barrier and the index of the
  /// issuing thread's arrival that opened that phase).
  std::optional<std::pair<BarrierKey, int64_t>> publishedBy;
};

/// A bulk group of TMA stores: issued, then retired by a tma.store_wait (or never).
struct StoreGroup {
  SmallVector<std::pair<SmemRegion, At>> stores;
  std::optional<At> retired;
};

/// A generic load or store of shared memory at known indices: the logical elements [lo, hi) of
/// the buffer (row-major over its shape, whatever its pad or swizzle).
struct ElementAccess {
  Value buffer;
  int64_t lo, hi;
  bool write;
  At at;
};

/// What one simulated thread did.
struct Trace {
  SmallVector<std::pair<SmemRegion, At>> writes; // shared-memory writes (generic and TMA loads)
  SmallVector<StoreGroup> groups;            // committed TMA store groups, in order
  SmallVector<StoreGroup> wgmmaGroups;       // committed wgmma groups (their shared operands)
  SmallVector<StoreGroup> cpGroups;          // committed cp.async groups (their destinations)
  SmallVector<std::pair<SmemRegion, At>> reads; // generic shared-memory reads
  SmallVector<At> fences;                    // fence.proxy_async
  /// Reads through the async proxy (TMA store sources, wgmma operands), which must see generic
  /// writes only after a fence.proxy_async in the writing thread.
  SmallVector<std::pair<SmemRegion, At>> asyncReads;
  /// Which writes were generic (the others are TMA loads, already in the async proxy).
  llvm::DenseSet<Operation *> genericWriters;
  llvm::MapVector<BarrierKey, SmallVector<Wait>> waits;
  /// Barriers whose phases publish data: TMA copies complete on them, or an arrival on them
  /// follows a shared-memory write of the same thread since its previous arrival.
  llvm::DenseSet<BarrierKey> publishing;
  /// When the thread arrived on and passed a wait of each barrier, by step: mbarriers, and a
  /// pipeline's full (commit / consumer_wait) and empty (release / producer_acquire) barriers,
  /// for the order they give between threads.
  llvm::DenseMap<BarrierKey, SmallVector<int64_t>> arrivals, passed;
  /// The iterations each pipeline step named, in order: {create op -> [(iteration, at)]}.
  llvm::MapVector<Operation *, SmallVector<std::pair<int64_t, At>>> consumerWaits, releases,
      commits;
  /// How often each arriving op ran, per barrier.
  llvm::MapVector<BarrierKey, llvm::MapVector<Operation *, int64_t>> arrivalOps;
  /// Every mbarrier arrival and block barrier in path order, for the replay of all threads
  /// together (verifyReplay): (step, barrier (null op for a block barrier), arriving op).
  SmallVector<std::tuple<int64_t, BarrierKey, Operation *>> syncEvents;
  /// Generic shared-memory accesses whose indices the path decides, and each named barrier's
  /// arrivals by step (for the order named barriers give between roles).
  SmallVector<ElementAccess> elements;
  std::map<int64_t, SmallVector<int64_t>> named;
  /// Read-only global tensors whose integer loads the path took as 0 (an empty batch entry).
  std::set<std::string> zeroLoads;
};

/// "M=200,K=200": the sizes a finding was seen with.
std::string sizesText(KernelOp kernel, int64_t size) {
  std::string sizes;
  for (StringRef symbol : kernel.getSymbolNames())
    sizes += (sizes.empty() ? "" : ",") + symbol.str() + "=" + std::to_string(size);
  return sizes;
}

/// The sizes, and the loaded values the paths assumed: "M=200 with every value loaded from lens
/// taken as 0".
std::string sizesText(KernelOp kernel, int64_t size,
                      const std::vector<std::pair<int64_t, Trace>> &traces) {
  std::set<std::string> zeros;
  for (auto &[thread, trace] : traces)
    zeros.insert(trace.zeroLoads.begin(), trace.zeroLoads.end());
  std::string text = sizesText(kernel, size);
  if (!zeros.empty())
    text += " and every value loaded from " + llvm::join(zeros, ", ") + " taken as 0";
  return text;
}

class Simulator {
public:
  Simulator(KernelOp kernel, ThreadModel &model, int64_t thread, int64_t size)
      : kernel(kernel), model(model), thread(thread), size(size) {}

  /// Runs the kernel body; false when the path cannot be decided (a loop bound or condition
  /// that depends on a loaded value, the step limit).
  bool run(Trace &trace) {
    out = &trace;
    return runBlock(kernel.getBody().front());
  }

private:
  std::optional<int64_t> value(Value v) {
    if (auto it = env.find(v); it != env.end())
      return it->second;
    if (auto c = getConstantIntValue(v))
      return *c;
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    // The thread's own ids from the model; everything else from this path's values (the model
    // does not follow loop-carried values).
    if (isa<ThreadIdOp, LaneIdOp, WarpIdOp, WarpgroupIdOp, ElectOneOp>(def)) {
      const Lat &lat = model.eval(v)[thread];
      return lat.kind == Lat::Known ? std::optional<int64_t>(lat.value) : std::nullopt;
    }
    if (isa<ProblemSizeOp>(def))
      return size;
    if (isa<BlockIdOp>(def))
      return 0;
    if (isa<GridDimOp>(def))
      return 1; // block 0 of a one-block grid: every tile of a persistent loop
    // An integer loaded from a tensor the kernel never writes (a length, an offset): the path
    // takes it as 0, a legal input (an empty batch entry) on which both sides of a hand-off
    // must still agree. Its address need not be known.
    if (auto load = dyn_cast<LoadOp>(def)) {
      BlockArgument tensor = getAccessedGlobalTensor(kernel, load.getSource());
      if (!tensor || !v.getType().isIntOrIndex() || getTensorUse(kernel, tensor).writes)
        return std::nullopt;
      out->zeroLoads.insert(getParamName(kernel, tensor.getArgNumber()));
      return 0;
    }
    if (auto slot = dyn_cast<PipelineSlotOp>(def)) {
      std::optional<int64_t> iteration = value(slot->getOperand(1));
      int64_t stages = cast<PipelineType>(slot->getOperand(0).getType()).getStages();
      return iteration ? std::optional<int64_t>(*iteration % stages) : std::nullopt;
    }
    SmallVector<int64_t> args;
    for (Value operand : def->getOperands()) {
      std::optional<int64_t> a = value(operand);
      if (!a)
        return std::nullopt;
      args.push_back(*a);
    }
    std::optional<int64_t> folded = foldIntegerOp(def, args);
    if (folded && isa<arith::ArithDialect>(def->getDialect()) && !def->getParentOfType<scf::ForOp>())
      env[v] = *folded; // loop-invariant: keep it
    return folded;
  }

  std::string counters() {
    std::string text;
    for (auto &[iv, v] : loops)
      text += (text.empty() ? "" : ", ") + std::string("iteration ") + std::to_string(v);
    return text;
  }

  bool runBlock(Block &block) {
    for (Operation &op : block) {
      if (++steps > kStepLimit)
        return false;
      if (!runOp(op))
        return false;
    }
    return true;
  }

  /// Binds the results of a region's terminator to `results`.
  bool bindYield(Block &body, ValueRange results) {
    auto yield = dyn_cast<scf::YieldOp>(body.getTerminator());
    if (!yield)
      return true;
    // Every operand first: binding one result may change the value of another's inputs (a
    // loop's next slot is computed from the current one).
    SmallVector<std::optional<int64_t>> values;
    for (Value operand : yield.getOperands())
      values.push_back(value(operand));
    for (auto [result, v] : llvm::zip(results, values))
      if (v)
        env[result] = *v;
      else
        env.erase(result);
    return true;
  }

  bool runOp(Operation &op) {
    // A persistent loop over cluster launch control: the path takes over kClcTakenAnswers more
    // tiles (block 0's coordinates, like BlockIdOp), then the grid runs out, so a loop whose
    // condition is the answer runs its later iterations (phases, parities) too.
    if (auto query = dyn_cast<ClcQueryOp>(op)) {
      env[query.getCanceled()] = clcAnswers++ < kClcTakenAnswers ? 1 : 0;
      for (Value id : {query.getX(), query.getY(), query.getZ()})
        env[id] = 0;
      return true;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto lb = value(loop.getLowerBound()), ub = value(loop.getUpperBound()),
           step = value(loop.getStep());
      if (!lb || !ub || !step || *step <= 0)
        return false;
      for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
        if (std::optional<int64_t> v = value(init))
          env[arg] = *v;
      loops.push_back({loop.getInductionVar(), 0});
      for (int64_t i = *lb; i < *ub; i += *step) {
        env[loop.getInductionVar()] = i;
        loops.back().second = i;
        clearBody(loop.getBody());
        if (!runBlock(*loop.getBody()))
          return false;
        bindYield(*loop.getBody(), loop.getRegionIterArgs());
      }
      loops.pop_back();
      for (auto [result, arg] : llvm::zip(loop.getResults(), loop.getRegionIterArgs()))
        if (auto it = env.find(arg); it != env.end())
          env[result] = it->second;
      return true;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      std::optional<int64_t> cond = value(ifOp.getCondition());
      if (!cond)
        return false;
      Region &region = *cond ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (region.empty())
        return true;
      clearBody(&region.front());
      return runBlock(region.front()) && bindYield(region.front(), ifOp.getResults());
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return runWhile(loop);
    if (auto roles = dyn_cast<WarpRolesOp>(op)) {
      uint64_t warp = thread / 32;
      for (RoleOp role : roles.getBody().front().getOps<RoleOp>())
        if (warp >= role.getFirst() && warp < role.getLast())
          return runBlock(role.getBody().front());
      return true;
    }
    if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
      auto index = value(wait.getIndex()), parity = value(wait.getParity());
      if (!index || !parity)
        return false;
      out->waits[{wait.getBarriers().getDefiningOp(), *index}].push_back(
          {wait, *parity & 1, counters(), steps});
      out->passed[{wait.getBarriers().getDefiningOp(), *index}].push_back(steps);

      return true;
    }
    if (isMbarrierArrival(&op)) {
      Value bars = op.getOperand(0);
      auto index = value(op.getOperand(1));
      if (!index)
        return false;
      if (wroteShared || isa<MbarrierArriveExpectTxOp>(op))
        out->publishing.insert({bars.getDefiningOp(), *index});
      out->arrivals[{bars.getDefiningOp(), *index}].push_back(steps);
      ++out->arrivalOps[{bars.getDefiningOp(), *index}][&op];
      out->syncEvents.push_back({steps, {bars.getDefiningOp(), *index}, &op});
      wroteShared = false;
      return true;
    }
    if (isa<PipelineProducerCommitOp, PipelineConsumerWaitOp, PipelineConsumerReleaseOp,
            PipelineProducerAcquireOp>(op)) {
      // Pipeline barriers by slot: full = slot, empty = stages + slot.
      Value pipe = op.getOperand(0);
      auto iteration = value(op.getOperand(1));
      if (!iteration)
        return false;
      int64_t stages = cast<PipelineType>(pipe.getType()).getStages();
      bool empty = isa<PipelineConsumerReleaseOp, PipelineProducerAcquireOp>(op);
      BarrierKey key{pipe.getDefiningOp(), (empty ? stages : 0) + *iteration % stages};
      bool arrives = isa<PipelineProducerCommitOp, PipelineConsumerReleaseOp>(op);
      (arrives ? out->arrivals : out->passed)[key].push_back(steps);
      if (!isa<PipelineProducerAcquireOp>(op)) // acquires only order threads (`passed`)
        (isa<PipelineConsumerWaitOp>(op)      ? out->consumerWaits
         : isa<PipelineConsumerReleaseOp>(op) ? out->releases
                                              : out->commits)[pipe.getDefiningOp()]
            .push_back({*iteration, here(op)});
      return true;
    }
    if (auto named = dyn_cast<NamedBarrierOp>(op)) {
      out->named[named.getId()].push_back(steps);
      return true;
    }
    if (isa<BarrierOp, PipelineCreateOp>(op)) { // pipeline.create ends with a block barrier
      ++epoch;
      out->syncEvents.push_back({steps, {nullptr, 0}, &op});
      return true;
    }
    if (auto store = dyn_cast<TmaStoreOp>(op)) {
      open.stores.push_back({region(store.getSource(), store.getSourceIndices()), here(op)});
      out->asyncReads.push_back(open.stores.back());
      return true;
    }
    if (isa<FenceProxyAsyncOp>(op)) {
      out->fences.push_back(here(op));
      return true;
    }
    if (isa<WgmmaOp, WgmmaRegsOp>(op)) {
      for (const MemoryAccess &a : getMemoryAccesses(&op))
        if (isa<SmemType>(a.buffer.getType())) {
          openWgmma.stores.push_back({region(a.buffer, a.indices), here(op)});
          out->asyncReads.push_back(openWgmma.stores.back());
        }
      return true;
    }
    if (isa<WgmmaCommitOp>(op)) {
      commit(out->wgmmaGroups, openWgmma, /*keepEmpty=*/false);
      return true;
    }
    if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
      retire(out->wgmmaGroups, wait.getPending(), op);
      return true;
    }
    if (isa<TmaStoreCommitOp>(op)) {
      commit(out->groups, open, /*keepEmpty=*/false);
      return true;
    }
    if (auto wait = dyn_cast<TmaStoreWaitOp>(op)) {
      retire(out->groups, wait.getPending(), op);
      return true;
    }
    if (auto copy = dyn_cast<CpAsyncOp>(op)) {
      openCp.stores.push_back({region(copy.getDest(), copy.getDestIndices()), here(op)});
      // Also a write of the thread (for the checks that compare writes): fall through below.
    }
    if (isa<CpAsyncCommitOp>(op)) {
      // An empty group is a group too: it counts for cp.async.wait's pending.
      commit(out->cpGroups, openCp, /*keepEmpty=*/true);
      return true;
    }
    if (auto wait = dyn_cast<CpAsyncWaitOp>(op)) {
      retire(out->cpGroups, wait.getPending(), op);
      return true;
    }
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      if (isa<MbarriersType>(load.getBarrier().getType()))
        if (auto index = value(load.getBarrierIndex()))
          out->publishing.insert({load.getBarrier().getDefiningOp(), *index});
      At at = here(op);
      if (auto key = barrierOf(load.getBarrier(), load.getBarrierIndex())) {
        auto &opened = out->arrivals[*key];
        if (!opened.empty())
          at.publishedBy = {*key, static_cast<int64_t>(opened.size()) - 1};
      }
      out->writes.push_back({region(load.getDest(), load.getDestIndices()), at});
      return true;
    }
    if (auto access = dyn_cast<MemoryAccessOpInterface>(op)) {
      for (const MemoryAccess &a : getMemoryAccesses(&op)) {
        if (!isa<SmemType>(a.buffer.getType()))
          continue;
        if (!a.isWrite()) {
          if (isa<LoadOp>(op)) {
            out->reads.push_back({region(a.buffer, a.indices), here(op)});
            recordElements(a, /*write=*/false, op);
          }
          continue;
        }
        wroteShared = true;
        out->writes.push_back({region(a.buffer, a.indices), here(op)});
        if (isa<StoreOp>(op))
          recordElements(a, /*write=*/true, op);
        if (a.proxy == MemoryProxy::Generic)
          out->genericWriters.insert(&op);
      }
      return true;
    }
    for (Region &region : op.getRegions())
      for (Block &block : region)
        if (!runBlock(block))
          return false;
    return true;
  }

  /// scf.while: the before region decides (scf.condition) and passes values to the after
  /// region, whose yield feeds the next pass; a condition it cannot decide ends the simulation.
  bool runWhile(scf::WhileOp loop) {
    SmallVector<std::optional<int64_t>> carried;
    for (Value init : loop.getInits())
      carried.push_back(value(init));
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    loops.push_back({Value(), 0});
    for (int64_t i = 0;; ++i) {
      loops.back().second = i;
      auto bind = [&](Block &block, ArrayRef<std::optional<int64_t>> values) {
        for (auto [arg, v] : llvm::zip(block.getArguments(), values))
          if (v)
            env[arg] = *v;
          else
            env.erase(arg);
      };
      bind(before, carried);
      clearBody(&before);
      if (!runBlock(before))
        return false;
      auto condition = cast<scf::ConditionOp>(before.getTerminator());
      std::optional<int64_t> go = value(condition.getCondition());
      if (!go)
        return false;
      SmallVector<std::optional<int64_t>> passed;
      for (Value arg : condition.getArgs())
        passed.push_back(value(arg));
      if (!*go) {
        for (auto [result, v] : llvm::zip(loop.getResults(), passed))
          if (v)
            env[result] = *v;
        break;
      }
      bind(after, passed);
      clearBody(&after);
      if (!runBlock(after))
        return false;
      carried.clear();
      for (Value operand : cast<scf::YieldOp>(after.getTerminator()).getOperands())
        carried.push_back(value(operand));
    }
    loops.pop_back();
    return true;
  }

  At here(Operation &op) { return At{&op, epoch, steps, counters(), std::nullopt}; }

  /// The key of an mbarrier (array, index) or of a pipeline iteration's full barrier.
  std::optional<BarrierKey> barrierOf(Value barriers, Value index) {
    std::optional<int64_t> i = value(index);
    if (!i)
      return std::nullopt;
    if (auto pipe = dyn_cast<PipelineType>(barriers.getType()))
      return BarrierKey{barriers.getDefiningOp(), *i % pipe.getStages()};
    return BarrierKey{barriers.getDefiningOp(), *i};
  }

  /// A wait with `pending`: retires every committed group but the `pending` most recent ones.
  void retire(SmallVector<StoreGroup> &groups, int64_t pending, Operation &op) {
    int64_t unretired = 0;
    for (StoreGroup &group : groups)
      unretired += !group.retired;
    for (StoreGroup &group : groups)
      if (!group.retired && unretired-- > pending)
        group.retired = here(op);
  }

  /// Closes the open group of an async kind (its copies so far) onto the committed ones.
  static void commit(SmallVector<StoreGroup> &groups, StoreGroup &open, bool keepEmpty) {
    if (keepEmpty || !open.stores.empty())
      groups.push_back(std::move(open));
    open = StoreGroup();
  }

  /// The region an access with `indices` touches: the stage of a multi-stage buffer when the
  /// first index is known and more dimensions follow.
  SmemRegion region(Value buffer, ValueRange indices) {
    auto type = cast<SmemType>(buffer.getType());
    if (indices.empty() || type.getRank() < 2)
      return {buffer, std::nullopt};
    return {buffer, value(indices.front())};
  }

  /// Records the logical elements a generic shared-memory access touches, when its indices are
  /// known on this path.
  void recordElements(const MemoryAccess &a, bool write, Operation &op) {
    auto type = cast<SmemType>(a.buffer.getType());
    if (a.indices.size() != static_cast<size_t>(type.getRank()))
      return;
    int64_t linear = 0;
    for (auto [index, extent] : llvm::zip(a.indices, type.getShape())) {
      std::optional<int64_t> v = value(index);
      if (!v)
        return;
      linear = linear * extent + *v;
    }
    out->elements.push_back({a.buffer, linear, linear + a.width, write, here(op)});
  }

  /// Values defined in a block are recomputed on every pass over it.
  void clearBody(Block *block) {
    block->walk([&](Operation *op) {
      for (Value result : op->getResults())
        env.erase(result);
    });
  }

  KernelOp kernel;
  ThreadModel &model;
  int64_t thread, size;
  int64_t steps = 0, epoch = 0;
  static constexpr int64_t kClcTakenAnswers = 2;
  int64_t clcAnswers = 0;
  bool wroteShared = false;
  StoreGroup open, openWgmma, openCp;
  Trace *out = nullptr;
  DenseMap<Value, int64_t> env;
  SmallVector<std::pair<Value, int64_t>> loops;
};
} // namespace

static bool verifyArrivalCounts(KernelOp kernel, ThreadModel &model,
                                ArrayRef<std::pair<int64_t, Trace>> traces, StringRef sizes);

/// How many lanes of the warp whose first thread is `first` reach `op`; `unknown` is set when
/// the model cannot tell for one of them.
static int64_t lanesReaching(ThreadModel &model, Operation *op, int64_t first, bool &unknown) {
  ArrayRef<Reach> reach = model.reach(op);
  int64_t lanes = 0;
  for (int64_t t = first; t < std::min<int64_t>(first + 32, model.getNumThreads()); ++t) {
    unknown |= reach[t].kind == Reach::Unknown;
    lanes += reach[t].kind != Reach::Never;
  }
  return lanes;
}

/// The mbarrier arrays some lane arrives on where its warp's first thread (the one simulated)
/// does not: their arrivals are not all on the simulated paths.
static llvm::DenseSet<Operation *> arraysWithUnsimulatedArrivals(
    KernelOp kernel, ThreadModel &model, ArrayRef<std::pair<int64_t, Trace>> traces) {
  llvm::DenseSet<Operation *> out;
  for (auto &entry : traces)
    kernel.walk([&, thread = entry.first](Operation *op) {
      if (!isMbarrierArrival(op) || model.reach(op)[thread].kind != Reach::Never)
        return;
      bool unknown = false;
      if (lanesReaching(model, op, thread, unknown) > 0)
        out.insert(op->getOperand(0).getDefiningOp());
    });
  return out;
}

/// Whether the kernel synchronizes through something the paths do not follow (named or cluster
/// barriers, and with `pipelines` the cake.pipeline ops).
static bool hasUnfollowedSync(KernelOp kernel, bool pipelines) {
  return kernel
      ->walk([&](Operation *op) {
        return isa<NamedBarrierOp, ClusterBarrierOp>(op) || (pipelines && isa<PipelineCreateOp>(op))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// `deadlock.replay`: every warp's first thread replayed together against one state of the
/// mbarriers (arrivals counted per warp: the lanes that reach each arriving op) and of the block
/// barriers (a thread passes its k-th one once every unfinished thread has reached its k-th).
/// A wait passes when its barrier's completed phases differ in parity from the wait's; TMA
/// bytes are assumed to land. When no thread can move and some have not finished, those hang.
/// Kernels with pipelines, named or cluster barriers, counts not known, or arrivals by lanes
/// whose warp's first thread does not arrive are left alone.
static bool verifyReplay(KernelOp kernel, ThreadModel &model,
                         ArrayRef<std::pair<int64_t, Trace>> traces, StringRef sizes,
                         llvm::DenseSet<Operation *> &reported) {
  if (hasUnfollowedSync(kernel, /*pipelines=*/true) ||
      !arraysWithUnsimulatedArrivals(kernel, model, traces).empty())
    return true;
  bool unfollowed = false;
  llvm::DenseMap<BarrierKey, int64_t> counts;
  kernel.walk([&](MbarrierInitOp init) {
    if (std::optional<int64_t> index = model.getConstant(init.getIndex()))
      counts[{init.getBarriers().getDefiningOp(), *index}] = init.getCount();
    else
      unfollowed = true;
  });
  if (unfollowed || counts.empty())
    return true;
  struct Event {
    int64_t step;
    BarrierKey key;   // null op: a block barrier
    int64_t lanes;    // arrivals: how many lanes of the warp arrive
    const Wait *wait; // waits
    Operation *op;
    int64_t nth = 0, firstParity = 0; // waits: the thread's how-manieth on the barrier, and its first's parity
  };
  SmallVector<SmallVector<Event>> events;
  for (auto &[thread, trace] : traces) {
    SmallVector<Event> list;
    for (auto &[step, key, op] : trace.syncEvents) {
      int64_t lanes = 0;
      if (key.first) {
        bool unknown = false;
        lanes = lanesReaching(model, op, thread, unknown);
        if (unknown || !counts.count(key))
          return true;
      }
      list.push_back({step, key, lanes, nullptr, op});
    }
    for (auto &[key, waits] : trace.waits) {
      if (!counts.count(key))
        return true;
      for (size_t w = 0; w < waits.size(); ++w)
        list.push_back({waits[w].seq, key, 0, &waits[w], waits[w].op, static_cast<int64_t>(w),
                        waits.front().parity});
    }
    llvm::stable_sort(list, [](const Event &a, const Event &b) { return a.step < b.step; });
    events.push_back(std::move(list));
  }
  size_t n = traces.size();
  SmallVector<size_t> at(n, 0);
  SmallVector<int64_t> blocksReached(n, 0); // block barriers reached (waiting at or passed)
  SmallVector<int64_t> blocksPassed(n, 0);
  llvm::DenseMap<BarrierKey, int64_t> arrived;
  auto finished = [&](size_t i) { return at[i] == events[i].size(); };
  // Round robin, one event per thread and round, until nothing moves; thread `frozen` (if any)
  // stops at its event `frozenAt`.
  auto replay = [&](size_t frozen, size_t frozenAt) {
    at.assign(n, 0);
    blocksReached.assign(n, 0);
    blocksPassed.assign(n, 0);
    arrived.clear();
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t i = 0; i < n; ++i) {
        if (finished(i) || (i == frozen && at[i] == frozenAt))
          continue;
        const Event &e = events[i][at[i]];
        if (!e.key.first) { // the thread's block barrier number k
          int64_t k = blocksPassed[i] + 1;
          blocksReached[i] = k;
          bool all = true;
          for (size_t j = 0; j < n; ++j)
            all &= finished(j) || blocksReached[j] >= k;
          if (!all)
            continue;
          ++blocksPassed[i];
        } else if (e.wait) {
          int64_t phases = arrived.lookup(e.key) / counts.lookup(e.key);
          if (phases % 2 == e.wait->parity)
            continue; // the phase it waits for has not completed
        } else {
          arrived[e.key] += e.lanes;
        }
        ++at[i];
        moved = true;
      }
    }
  };
  replay(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (finished(i))
      continue;
    const Event &e = events[i][at[i]];
    if (!e.wait || !reported.insert(e.op).second)
      continue; // a block barrier some thread never reaches: cake-verify-roles' to report
    int64_t c = counts.lookup(e.key), got = arrived.lookup(e.key);
    InFlightDiagnostic diag =
        emitFinding(e.op, "deadlock.replay")
        << "expected this wait to pass, but replaying every warp together with " << sizes
        << " leaves thread " << traces[i].first << " here forever (" << e.wait->where
        << "): barrier " << e.key.second << " has completed " << got / c << " phases ("
        << got << " arrivals, count " << c << "), so parity " << e.wait->parity
        << " never passes while the threads that could arrive are themselves waiting";
    for (size_t j = 0; j < n; ++j)
      if (j != i && !finished(j) && events[j][at[j]].wait)
        diag.attachNote(events[j][at[j]].op->getLoc())
            << "thread " << traces[j].first << " waits here (" << events[j][at[j]].wait->where
            << ")";
    attachFix(diag, e.op, "deadlock.replay",
              "check the wait's parity against the phases its barrier completes before it (a "
              "barrier that frees a slot is first waited with parity 1), and that the threads "
              "it waits for arrive before their own waits");
    return false;
  }
  // `mbarrier.phase-overrun`: a thread held at one of its first waits while the others run on.
  // A parity wait tells only the last phase's parity: if the others can complete the phase it
  // waits for and the next one without it (nothing they wait for needs it), it may see its
  // parity come back and wait for a later phase, falling behind for good.
  constexpr int64_t kHeldWaits = 6;
  for (size_t i = 0; i < n; ++i) {
    int64_t tried = 0;
    for (size_t k = 0; k < events[i].size() && tried < kHeldWaits; ++k) {
      const Event &e = events[i][k];
      if (!e.wait)
        continue;
      ++tried;
      replay(i, k);
      if (at[i] != k)
        continue; // it never gets there (held by something else)
      int64_t c = counts.lookup(e.key), done = arrived.lookup(e.key) / c;
      int64_t intended = e.nth - e.firstParity; // the phase this wait is for
      if (done < intended + 2 || !reported.insert(e.op).second)
        continue;
      InFlightDiagnostic diag =
          emitFinding(e.op, "mbarrier.phase-overrun")
          << "expected the threads that complete barrier " << e.key.second
          << "'s phases to wait for this thread before completing another, but with " << sizes
          << " they complete " << done << " phases while thread " << traces[i].first
          << " is held here (" << e.wait->where << ", waiting for phase " << intended
          << "): a parity wait that checks late sees its parity again and waits for a later "
             "phase (a hang or a skipped phase)";
      attachFix(diag, e.op, "mbarrier.phase-overrun",
                "make the waiters hold the arrivers back: let them arrive on a barrier the "
                "arriving threads wait on before their next arrival (an \"empty\" barrier), or "
                "put a block barrier in the loop");
      return false;
    }
  }
  return true;
}

/// `mbarrier.refill-unordered`: a thread's TMA copy into a stage it copied into before, while
/// threads of other warps read that stage, with no wait passed in between that can order the
/// copy after those reads. A first wait on a barrier with parity 1 does not count: it passes at
/// once (the phase before the first). Kernels with named or cluster barriers are left alone
/// (the paths do not follow them).
static bool verifyRefills(KernelOp kernel, ArrayRef<std::pair<int64_t, Trace>> traces,
                          StringRef sizes, llvm::DenseSet<Operation *> &reported) {
  if (hasUnfollowedSync(kernel, /*pipelines=*/false))
    return true;
  bool ok = true;
  for (auto &[thread, trace] : traces) {
    // The steps at which this thread passed something that may order it after other threads.
    llvm::DenseSet<int64_t> vacuous;
    for (auto &[key, waits] : trace.waits)
      if (waits.front().parity == 1)
        vacuous.insert(waits.front().seq);
    SmallVector<int64_t> ordering;
    for (auto &[key, steps] : trace.passed)
      for (int64_t step : steps)
        if (!vacuous.contains(step))
          ordering.push_back(step);
    llvm::sort(ordering);
    auto orderedBetween = [&](const At &a, const At &b) {
      auto it = llvm::upper_bound(ordering, a.seq);
      return a.epoch != b.epoch || (it != ordering.end() && *it < b.seq);
    };
    int64_t warp = thread / 32; // a copy: lambdas cannot capture structured bindings in C++17
    auto readByOthers = [&](const SmemRegion &region) {
      return llvm::any_of(traces, [&](const std::pair<int64_t, Trace> &other) {
        return other.first / 32 != warp &&
               llvm::any_of(other.second.reads, [&](const std::pair<SmemRegion, At> &read) {
                 return read.first.overlaps(region);
               });
      });
    };
    SmallVector<std::pair<SmemRegion, At>> last; // the previous TMA copy into each stage
    for (auto &[region, at] : trace.writes) {
      if (!region.slot || trace.genericWriters.contains(at.op) || !isa<TmaLoadOp>(at.op))
        continue;
      const SmemRegion &copied = region; // lambdas cannot capture structured bindings (C++17)
      auto prev = llvm::find_if(last, [&](auto &w) {
        return w.first.buffer == copied.buffer && w.first.slot == copied.slot;
      });
      if (prev == last.end()) {
        last.push_back({region, at});
        continue;
      }
      At before = prev->second;
      prev->second = at;
      if (orderedBetween(before, at) || !readByOthers(region) || !reported.insert(at.op).second)
        continue;
      ok = false;
      InFlightDiagnostic diag =
          emitFinding(at.op, "mbarrier.refill-unordered")
          << "expected a wait that orders this copy into stage " << *region.slot
          << " of the buffer after the other warps' reads of the previous copy into it ("
          << before.where << "), but none passes between them: thread " << thread << " with "
          << sizes << ", " << at.where;
      attachFix(diag, at.op, "mbarrier.refill-unordered",
                "before refilling a stage, wait on the barrier its readers arrive on after "
                "reading it (parity (round - 1) % 2 from the second round on)");
    }
  }
  return ok;
}

namespace {
/// Whether step `from` of thread A is ordered before step `to` of thread B through a barrier:
/// A arrives on it after `from` (its i-th arrival there) and B, before `to`, passes a wait for
/// that phase or a later one (its w-th wait, w >= i).
/// Both lists are in path order (steps never decrease along a path), so the first arrival at or
/// after `from` is found by bisection and the earliest of B's waits w >= i is the i-th.
bool happensBefore(const Trace &a, int64_t from, const Trace &b, int64_t to) {
  for (auto &[key, arrivalSeqs] : a.arrivals) {
    auto waits = b.passed.find(key);
    if (waits == b.passed.end())
      continue;
    size_t i = llvm::partition_point(arrivalSeqs, [&](int64_t s) { return s < from; }) -
               arrivalSeqs.begin();
    if (i < arrivalSeqs.size() && i < waits->second.size() && waits->second[i] < to)
      return true;
  }
  return false;
}

/// The step at which `trace` passed its earliest wait on `key` for phase `phase` or a later one
/// (waits are in path order: its phase-th wait), if it did.
std::optional<int64_t> passedPhase(const Trace &trace, const BarrierKey &key, int64_t phase) {
  auto waits = trace.passed.find(key);
  if (waits == trace.passed.end() || phase < 0 ||
      phase >= static_cast<int64_t>(waits->second.size()))
    return std::nullopt;
  return waits->second[phase];
}
} // namespace

/// The block barriers (and pipeline creations) a thread passed before `step`.
static int64_t epochAt(const Trace &trace, int64_t step) {
  int64_t epoch = 0;
  for (auto &[at, key, op] : trace.syncEvents)
    if (!key.first && at < step)
      ++epoch;
  return epoch;
}

/// Whether some thread passed a wait for phase `phase` (or a later one) of `key` that is ordered
/// before step `at` of `reader`: the reader itself earlier on its path, or another thread before
/// a block barrier or an mbarrier phase that orders it before the read.
static bool waitedBefore(ArrayRef<std::pair<int64_t, Trace>> traces, const BarrierKey &key,
                         int64_t phase, int64_t reader, const Trace &readerTrace, const At &at) {
  for (auto &[thread, trace] : traces) {
    std::optional<int64_t> waited = passedPhase(trace, key, phase);
    if (!waited)
      continue;
    if (thread == reader ? *waited < at.seq
                         : epochAt(trace, *waited) < at.epoch ||
                               happensBefore(trace, *waited, readerTrace, at.seq))
      return true;
  }
  return false;
}

/// `mbarrier.stage-read-race`: a generic read of a stage that a TMA copy writes, ordered neither
/// after the copy nor before it. After: a thread passed a wait on the barrier the copy completes
/// on, at the copy's phase or later, before the read (the reader itself, or a thread a block
/// barrier or an mbarrier phase orders before the read). Before: the copy's issuer passed a
/// wait on a barrier the reader arrived on after the read, or a block barrier separates them.
/// Kernels with named or cluster barriers are left alone (the paths do not follow them).
static bool verifyStageReads(KernelOp kernel, ArrayRef<std::pair<int64_t, Trace>> traces,
                             StringRef sizes, llvm::DenseSet<Operation *> &reported) {
  if (hasUnfollowedSync(kernel, /*pipelines=*/false))
    return true;
  bool ok = true;
  for (auto &[writer, writerTrace] : traces) {
    for (auto &[written, write] : writerTrace.writes) {
      if (!write.publishedBy || !isa<TmaLoadOp>(write.op))
        continue;
      auto &[key, phase] = *write.publishedBy;
      for (auto &[reader, readerTrace] : traces) {
        for (auto &[read, at] : readerTrace.reads) {
          if (!read.overlaps(written) || reported.contains(at.op))
            continue;
          // Before the copy: program order, a block barrier, or the issuer waited for the
          // reader's arrival after the read.
          if (reader == writer ? at.seq < write.seq : at.epoch < write.epoch)
            continue;
          if (reader != writer && happensBefore(readerTrace, at.seq, writerTrace, write.seq))
            continue;
          // After it: a wait for the copy's phase (or a later one) ordered before the read.
          if (waitedBefore(traces, key, phase, reader, readerTrace, at))
            continue;
          reported.insert(at.op);
          ok = false;
          InFlightDiagnostic diag =
              emitFinding(at.op, "mbarrier.stage-read-race")
              << "expected this read of the buffer"
              << (read.slot ? " (stage " + std::to_string(*read.slot) + ")" : std::string())
              << " to wait for the TMA copy into it (phase " << phase << " of barrier "
              << key.second << ") or to finish before that copy is issued, but in thread "
              << reader << " with " << sizes << (at.where.empty() ? "" : " (" + at.where + ")")
              << " neither holds";
          diag.attachNote(write.op->getLoc())
              << "the copy (thread " << writer
              << (write.where.empty() ? "" : ", " + write.where) << ")";
          attachFix(diag, at.op, "mbarrier.stage-read-race",
                    "read the stage the wait covers (the same index as the barrier waited on), "
                    "and release it (arrive on its empty barrier) only after the last read");
        }
      }
    }
  }
  return ok;
}

bool mlir::cake::verifyParitySequences(KernelOp kernel, ThreadModel &model) {
  bool hasWait = false;
  kernel.walk([&](MbarrierWaitOp) { hasWait = true; });
  if (!hasWait)
    return true;
  bool ok = true;
  llvm::DenseSet<Operation *> reported;
  SmallVector<std::pair<std::vector<std::pair<int64_t, Trace>>, std::string>> replays;
  for (int64_t size : kSizes) {
    // Every warp's first thread; the publishing barriers are known once all have run.
    std::vector<std::pair<int64_t, Trace>> traces;
    llvm::DenseSet<BarrierKey> publishing;
    for (int64_t t = 0; t < model.getNumThreads(); t += 32) {
      Trace trace;
      Simulator sim(kernel, model, t, size);
      if (!sim.run(trace))
        return ok; // a path the simulation cannot decide: no judgement
      publishing.insert(trace.publishing.begin(), trace.publishing.end());
      traces.push_back({t, std::move(trace)});
    }
    std::string sizes = sizesText(kernel, size, traces);
    for (auto &[thread, trace] : traces) {
      for (auto &[key, waits] : trace.waits) {
        const Wait &first = waits.front();
        if (publishing.contains(key) && first.parity == 1 && reported.insert(first.op).second) {
          ok = false;
          InFlightDiagnostic diag = emitFinding(first.op, "mbarrier.parity-initial")
                                    << "expected the first wait on barrier " << key.second
                                    << " to wait for its first phase (parity 0), got parity 1 in "
                                    << "thread " << thread << " with " << sizes
                                    << ": it passes at once, before the data its phase publishes";
          attachFix(diag, first.op, "mbarrier.parity-initial",
                    "wait with parity (use / stages) % 2, starting at 0, on a barrier that "
                    "publishes data; parity 1 first is for a barrier that frees a slot");
        }
        for (size_t n = 1; n < waits.size(); ++n) {
          int64_t expected = first.parity ^ (n & 1);
          if (waits[n].parity == expected)
            continue;
          if (reported.insert(waits[n].op).second) {
            ok = false;
            InFlightDiagnostic diag =
                emitFinding(waits[n].op, "mbarrier.parity-sequence")
                << "expected parity " << expected << " (the phase after the one its previous "
                << "wait on barrier " << key.second << " waited for), got " << waits[n].parity
                << ": thread " << thread << " with " << sizes << ", wait " << n + 1
                << " on that barrier (" << waits[n].where << ")";
            if (waits[n - 1].op != waits[n].op)
              diag.attachNote(waits[n - 1].op.getLoc())
                  << "the previous wait on barrier " << key.second << " (" << waits[n - 1].where
                  << ") waited for parity " << waits[n - 1].parity;
            attachFix(diag, waits[n].op, "mbarrier.parity-sequence",
                      "count this thread's uses of each barrier across every loop (carry the "
                      "count over outer tiles) and wait with parity (use count) % 2 (xor 1 for "
                      "a barrier that frees a slot)");
          }
          break;
        }
      }
    }
    if (!ok)
      return false;
    ok &= verifyRefills(kernel, traces, sizes, reported);
    if (!ok)
      return false;
    ok &= verifyStageReads(kernel, traces, sizes, reported);
    if (!ok)
      return false;
    ok &= verifyArrivalCounts(kernel, model, traces, sizes);
    if (!ok)
      return false;
    replays.push_back({std::move(traces), std::move(sizes)});
  }
  // Last, over every size: a hang that a more specific finding above explains (at any size) is
  // reported by that finding.
  for (auto &[traces, sizes] : replays)
    if (!verifyReplay(kernel, model, traces, sizes, reported))
      return false;
  return ok;
}

/// Arrivals against phases over a whole run: each warp arrives as often as its first thread
/// did, times its lanes that reach the arriving op (the model's per-thread reach). A barrier of
/// count C whose waiters need R phases (a wait sequence starting at parity 0 needs one phase per
/// wait, starting at 1 one fewer) needs C x R arrivals; fewer never completes the last phase
/// (a hang), and more than C x (R + 1) completes phases with arrivals meant for later ones (a
/// wait passes before the arrivals it counts).
static bool verifyArrivalCounts(KernelOp kernel, ThreadModel &model,
                                ArrayRef<std::pair<int64_t, Trace>> traces, StringRef sizes) {
  llvm::DenseMap<BarrierKey, int64_t> counts;
  kernel.walk([&](MbarrierInitOp init) {
    if (std::optional<int64_t> index = model.getConstant(init.getIndex()))
      counts[{init.getBarriers().getDefiningOp(), *index}] = init.getCount();
  });
  llvm::MapVector<BarrierKey, int64_t> arrivals, phases;
  llvm::DenseSet<BarrierKey> unknown;
  llvm::DenseMap<BarrierKey, Operation *> firstArrive, firstWait;
  for (auto &[thread, trace] : traces) {
    for (auto &[key, ops] : trace.arrivalOps) {
      for (auto &[op, times] : ops) {
        bool laneUnknown = false;
        int64_t lanes = lanesReaching(model, op, thread, laneUnknown);
        if (laneUnknown)
          unknown.insert(key);
        arrivals[key] += lanes * times;
        firstArrive.try_emplace(key, op);
      }
    }
    for (auto &[key, waits] : trace.waits) {
      int64_t needed = static_cast<int64_t>(waits.size()) - waits.front().parity;
      phases[key] = std::max(phases.lookup(key), needed);
      firstWait.try_emplace(key, waits.front().op);
    }
  }
  // Lanes that arrive while the warp's first thread does not are not counted: leave those out.
  llvm::DenseSet<Operation *> unsimulated = arraysWithUnsimulatedArrivals(kernel, model, traces);
  for (auto &[key, n] : arrivals)
    if (unsimulated.contains(key.first))
      unknown.insert(key);
  bool ok = true;
  for (auto &[key, needed] : phases) {
    auto count = counts.find(key);
    if (needed <= 0 || count == counts.end() || unknown.contains(key))
      continue;
    int64_t got = arrivals.lookup(key), c = count->second;
    if (got >= c * needed && got <= c * (needed + 1))
      continue;
    ok = false;
    bool few = got < c * needed;
    Operation *at = few || !firstArrive.count(key) ? firstWait[key] : firstArrive[key];
    InFlightDiagnostic diag = emitFinding(at, "mbarrier.arrival-total")
                              << "expected " << (few ? "at least " : "at most ")
                              << (few ? c * needed : c * (needed + 1)) << " arrivals on barrier "
                              << key.second << " (count " << c << ", " << needed
                              << " phases waited for), got " << got << " with " << sizes
                              << (few ? ": the last phases never complete (a hang)"
                                      : ": phases complete with arrivals meant for later ones "
                                        "(a wait passes early)");
    diag.attachNote(key.first->getLoc()) << "the mbarriers are allocated here";
    attachFix(diag, at, "mbarrier.arrival-total",
              "make the init count equal the threads that arrive per phase (every lane of a "
              "warp that executes cake.mbarrier.arrive arrives), or arrive from exactly that "
              "many threads");
  }
  return ok;
}

namespace {
/// Whether `write` (by `writer`) is ordered against a group's read `store` (issued by
/// `issuer`): before it (a block barrier the issuer passed after the write, or a barrier phase
/// that publishes the write to the issuer), or after the group's retiring wait (a block barrier
/// or a barrier phase after it); in the issuer itself, by program order.
bool ordered(int64_t writer, const Trace &writerTrace, const At &write, int64_t issuer,
             const Trace &issuerTrace, const At &store, const std::optional<At> &retired) {
  if (writer == issuer)
    return write.seq < store.seq || (retired && write.seq > retired->seq);
  if (write.epoch < store.epoch || (retired && write.epoch > retired->epoch))
    return true;
  if (happensBefore(writerTrace, write.seq, issuerTrace, store.seq))
    return true;
  if (write.publishedBy) { // a TMA copy: ordered before every wait that passes its phase
    std::optional<int64_t> waited =
        passedPhase(issuerTrace, write.publishedBy->first, write.publishedBy->second);
    if (waited && *waited < store.seq)
      return true;
  }
  return retired && happensBefore(issuerTrace, retired->seq, writerTrace, write.seq);
}

/// The writes of `writes` (one thread's, in path order: epoch and step never decrease along
/// it) that `ordered` does not put before the group's read `store` or after its retiring wait
/// by epoch or program order alone: the others are ordered whatever else holds. A contiguous
/// run, so the checks visit the same candidates in the same order as over all writes (the
/// pairwise scan over every write was 91% of cake-verify's time on kmeans_hopper_f32).
ArrayRef<std::pair<SmemRegion, At>> unorderedWindow(int64_t writer,
                                                   ArrayRef<std::pair<SmemRegion, At>> writes,
                                                   int64_t issuer, const At &store,
                                                   const std::optional<At> &retired) {
  bool sameThread = writer == issuer;
  auto key = [&](const At &at) { return sameThread ? at.seq : at.epoch; };
  int64_t lo = key(store);
  auto first = llvm::partition_point(writes, [&](const auto &w) { return key(w.second) < lo; });
  auto last = retired ? std::partition_point(first, writes.end(), [&](const auto &w) {
    return key(w.second) <= key(*retired);
  })
                      : writes.end();
  return writes.slice(first - writes.begin(), last - first);
}

/// The writes of `writes` (one thread's, in path order) before `at`: earlier steps of the same
/// thread, else earlier epochs (a block barrier in between).
ArrayRef<std::pair<SmemRegion, At>> writesBefore(bool sameThread,
                                                 ArrayRef<std::pair<SmemRegion, At>> writes,
                                                 const At &at) {
  auto end = llvm::partition_point(writes, [&](const auto &w) {
    return sameThread ? w.second.seq < at.seq : w.second.epoch < at.epoch;
  });
  return writes.take_front(end - writes.begin());
}
} // namespace

/// The async proxy's reads of shared memory, along the simulated paths: TMA store and wgmma
/// groups against later writes, and generic writes against the async reads they feed.
bool mlir::cake::verifyAsyncAccesses(KernelOp kernel, ThreadModel &model) {
  SmallVector<Operation *> asyncOps;
  kernel.walk([&](Operation *op) {
    if (isa<TmaStoreOp, TmaStoreCommitOp, TmaStoreWaitOp, WgmmaOp, WgmmaRegsOp>(op))
      asyncOps.push_back(op);
  });
  if (asyncOps.empty())
    return true;
  // Each warp's first thread writes as its warp does; every thread that may issue, commit or
  // wait for a store runs too (an issuer may rotate over the lanes).
  llvm::SetVector<int64_t> threads;
  for (int64_t t = 0; t < model.getNumThreads(); t += 32)
    threads.insert(t);
  for (Operation *op : asyncOps) {
    if (isa<WgmmaOp, WgmmaRegsOp>(op))
      continue; // whole warpgroups: their first threads run already
    ArrayRef<Reach> reach = model.reach(op);
    for (int64_t t = 0; t < model.getNumThreads(); ++t)
      if (reach[t].kind != Reach::Never)
        threads.insert(t);
  }
  llvm::DenseSet<Operation *> reported, racing, unfenced;
  bool ok = true;
  for (int64_t size : kSizes) {
    std::vector<std::pair<int64_t, Trace>> traces;
    for (int64_t t : threads) {
      Trace trace;
      if (!Simulator(kernel, model, t, size).run(trace))
        return ok; // a path the simulation cannot decide: no judgement
      traces.push_back({t, std::move(trace)});
    }
    std::string sizes = sizesText(kernel, size, traces);
    int64_t reads = 0, writes = 0;
    for (auto &[t, trace] : traces) {
      reads += trace.asyncReads.size();
      writes += trace.writes.size();
    }
    if (reads * writes > kAsyncPairLimit) {
      stopForSize(kernel, size, "the async-proxy race check",
                  std::to_string(reads) + " async reads x " + std::to_string(writes) +
                      " writes at " + sizes + " exceed the " + std::to_string(kAsyncPairLimit) +
                      " pairs it compares");
      return ok;
    }
    // A group's reads against every write no barrier, mbarrier phase or program order puts
    // before the read or after the group's retiring wait.
    auto checkGroups = [&](int64_t issuer, const Trace &trace, ArrayRef<StoreGroup> groups,
                           bool tma) {
      StringRef rule = tma ? "tma.store-race" : "wgmma.operand-race";
      for (const StoreGroup &group : groups) {
        for (auto &[read, store] : group.stores) {
          if (tma && !group.retired && reported.insert(store.op).second) {
            ok = false;
            InFlightDiagnostic diag = emitFinding(store.op, "tma.store-pending-at-exit")
                                      << "expected a cake.tma.store_wait to retire this store's "
                                         "group before the block exits, but in thread "
                                      << issuer << " with " << sizes << " the group of "
                                      << (store.where.empty() ? "this store" : store.where)
                                      << " is still reading shared memory at exit";
            attachFix(diag, store.op, "tma.store-pending-at-exit",
                      "after the last store's commit, in the issuing thread: "
                      "cake.tma.store_wait 0 (unconditionally, outside the loop)");
          }
          if (racing.contains(store.op))
            continue; // reported: every further write would be skipped below
          for (auto &[writer, other] : traces) {
            for (auto &[written, write] : unorderedWindow(writer, other.writes, issuer, store,
                                                          group.retired)) {
              // One finding per reading op: its first unordered write (the fix is the same).
              if (!read.overlaps(written) ||
                  ordered(writer, other, write, issuer, trace, store, group.retired) ||
                  !racing.insert(store.op).second)
                continue;
              ok = false;
              InFlightDiagnostic diag =
                  emitFinding(write.op, rule)
                  << "expected this write to the buffer to wait for the "
                  << (tma ? "TMA store" : "wgmma") << " that reads it (thread " << issuer
                  << "'s group, retired by a " << (tma ? "cake.tma.store_wait" : "cake.wgmma.wait")
                  << " and then a block barrier), but in thread " << writer << " with " << sizes
                  << (write.where.empty() ? "" : " (" + write.where + ")")
                  << " nothing orders them";
              diag.attachNote(store.op->getLoc())
                  << (tma ? "the store" : "the wgmma") << " reads the buffer here"
                  << (store.where.empty() ? "" : " (" + store.where + ")");
              if (group.retired)
                diag.attachNote(group.retired->op->getLoc()) << "and is retired here";
              attachFix(diag, write.op, rule,
                        tma ? "in the issuing thread, cake.tma.store_wait with pending low enough "
                              "to retire that group, then a cake.barrier, before the buffer is "
                              "written again; and publish writes with cake.fence.proxy_async and "
                              "a barrier before the store"
                            : "cake.wgmma.wait with pending low enough to retire the group that "
                              "reads the buffer (then a barrier for other threads) before "
                              "writing it again, or give the writes another buffer");
            }
          }
        }
      }
    };
    for (auto &[issuer, trace] : traces) {
      checkGroups(issuer, trace, trace.groups, /*tma=*/true);
      // A wgmma group is the warpgroup's: its first thread stands for it (it may be the one
      // that releases the stage for all four warps).
      if (issuer % 128 == 0)
        checkGroups(issuer, trace, trace.wgmmaGroups, /*tma=*/false);
    }
    // Generic writes reach the async proxy only through a fence.proxy_async in the writing
    // thread, after the write and before what orders it before the read.
    for (auto &[reader, trace] : traces) {
      for (auto &[read, at] : trace.asyncReads) {
        if (unfenced.contains(at.op))
          continue; // reported: every further write would be skipped below
        for (auto &[writer, other] : traces) {
          for (auto &[written, write] : writesBefore(writer == reader, other.writes, at)) {
            if (!read.overlaps(written) || !other.genericWriters.contains(write.op))
              continue;
            bool sameThread = writer == reader;
            const At &writeAt = write, &readAt = at; // plain references: captured in C++17
            bool fenced = llvm::any_of(other.fences, [&](const At &fence) {
              return fence.seq > writeAt.seq &&
                     (sameThread ? fence.seq < readAt.seq : fence.epoch < readAt.epoch);
            });
            if (fenced || !unfenced.insert(at.op).second)
              continue;
            ok = false;
            InFlightDiagnostic diag =
                emitFinding(at.op, "async.proxy-fence-missing")
                << "expected a cake.fence.proxy_async in thread " << writer
                << " after its write to this buffer and before what orders the write before this "
                << "async-proxy read, with " << sizes << ": the read may not see the write";
            diag.attachNote(write.op->getLoc())
                << "the generic write" << (write.where.empty() ? "" : " (" + write.where + ")");
            attachFix(diag, at.op, "async.proxy-fence-missing",
                      "in every thread that writes the buffer, cake.fence.proxy_async after its "
                      "writes and before the cake.barrier that publishes them");
          }
        }
      }
    }
    if (!ok)
      return false;
  }
  return ok;
}

/// Pipeline steps along the simulated paths. A pipeline's phases follow its iterations, so each
/// thread must name them in order, once each:
/// - `pipeline.iteration-sequence`: a thread's consumer_wait (or producer_commit) iterations that
///   are not 0, 1, 2, ... (a restarted or skipped count waits on a phase that already passed, or
///   one that never comes);
/// - `pipeline.release-sequence`: a consumer's releases that are not the iterations it waited
///   for, in the same order (releasing the next, the previous at the start, or once per tile).
bool mlir::cake::verifyPipelineSequences(KernelOp kernel, ThreadModel &model) {
  bool hasPipeline = false;
  kernel.walk([&](PipelineCreateOp) { hasPipeline = true; });
  if (!hasPipeline)
    return true;
  llvm::DenseSet<Operation *> reported;
  bool ok = true;
  auto report = [&](Operation *op, StringRef rule, const Twine &message, const Twine &hint) {
    if (!reported.insert(op).second)
      return;
    ok = false;
    InFlightDiagnostic diag = emitFinding(op, rule) << message.str();
    attachFix(diag, op, rule, hint);
  };
  for (int64_t size : kSizes) {
    std::vector<std::pair<int64_t, Trace>> traces;
    for (int64_t t = 0; t < model.getNumThreads(); t += 32) {
      Trace trace;
      if (!Simulator(kernel, model, t, size).run(trace))
        return ok; // a path the simulation cannot decide: no judgement
      traces.push_back({t, std::move(trace)});
    }
    std::string sizes = sizesText(kernel, size, traces);
    for (auto &[thread, trace] : traces) {
      for (auto *steps : {&trace.consumerWaits, &trace.commits}) {
        for (auto &[pipe, list] : *steps) {
          for (auto [n, step] : llvm::enumerate(list)) {
            if (step.first == static_cast<int64_t>(n))
              continue;
            report(step.second.op, "pipeline.iteration-sequence",
                   "expected iteration " + Twine(n) + " (this thread's " + Twine(n + 1) +
                       "th step of the pipeline), got " + Twine(step.first) + " in thread " +
                       Twine(thread) + " with " + sizes +
                       (step.second.where.empty() ? "" : " (" + step.second.where + ")"),
                   "count the pipeline's iterations across every loop (carry the count over "
                   "outer tiles) and pass that count to every step");
            break;
          }
        }
      }
      for (auto &[pipe, waits] : trace.consumerWaits) {
        auto released = trace.releases.find(pipe);
        if (released == trace.releases.end())
          continue; // pipeline.missing-release judges consumers that never release
        const auto &releases = released->second;
        // The last waits may go unreleased (nothing refills those stages); every release must
        // be the next waited iteration.
        for (size_t n = 0; n < releases.size(); ++n) {
          if (n < waits.size() && n < releases.size() && waits[n].first == releases[n].first &&
              releases[n].second.seq > waits[n].second.seq)
            continue;
          const At &at = releases[n].second;
          std::string got = "iteration " + std::to_string(releases[n].first);
          report(at.op, "pipeline.release-sequence",
                 "expected the consumer's release " + Twine(n + 1) + " to release iteration " +
                     (n < waits.size() ? Twine(waits[n].first) : Twine("none")) +
                     " (the iteration it waited for, in order), got " + got + " in thread " +
                     Twine(thread) + " with " + sizes +
                     (at.where.empty() ? "" : " (" + at.where + ")"),
                 "release exactly the iterations the consumer waited for, each once, after its "
                 "last read of the stage (guard a lagging release of it - 1 with it > 0 and "
                 "release the last one after the loop)");
          break;
        }
      }
    }
    if (!ok)
      return false;
    // pipeline.unconsumed-iteration: the producer fills a stage no consumer ever waits for.
    // Nothing reads it, and its copy (a TMA load) may still land in shared memory after the
    // block has exited. Each thread names iterations 0, 1, ... in order (checked above), so a
    // count stands for its iterations.
    llvm::MapVector<Operation *, std::pair<int64_t, const Trace *>> committed;
    llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> waited; // (count, thread)
    for (auto &[thread, trace] : traces) {
      for (auto &[pipe, list] : trace.commits) {
        auto &most = committed[pipe];
        if (static_cast<int64_t>(list.size()) > most.first)
          most = {static_cast<int64_t>(list.size()), &trace};
      }
      for (auto &[pipe, list] : trace.consumerWaits) {
        auto &most = waited[pipe];
        if (static_cast<int64_t>(list.size()) >= most.first)
          most = {static_cast<int64_t>(list.size()), thread};
      }
    }
    for (auto &[pipe, most] : committed) {
      Operation *consumerWait = nullptr, *created = pipe;
      kernel.walk([&](PipelineConsumerWaitOp wait) {
        if (!consumerWait && wait.getPipeline().getDefiningOp() == created)
          consumerWait = wait;
      });
      if (!consumerWait)
        continue; // a pipeline without consumers is judged by the deadlock rules
      auto [consumed, consumer] = waited.lookup(pipe);
      int64_t stages = cast<PipelineType>(pipe->getResult(0).getType()).getStages();
      if (most.first <= consumed)
        continue;
      const At &first = most.second->commits.find(pipe)->second[consumed].second;
      std::string count = consumed == 0 ? std::string("none of them")
                                        : "only the first " + std::to_string(consumed);
      if (!reported.insert(first.op).second)
        continue;
      ok = false;
      InFlightDiagnostic diag =
          emitFinding(first.op, "pipeline.unconsumed-iteration")
          << "expected every committed iteration to be waited for by a consumer, but with "
          << sizes << " the producer commits " << most.first
          << " iterations and the consumers wait for " << count << ": iteration " << consumed
          << "'s stage is filled and never read, and "
          << (most.first - consumed > stages
                  ? "the producer's acquire of iteration " + std::to_string(consumed + stages) +
                        " waits for a release that never comes (a hang)"
                  : std::string("its copy may still be in flight when the block exits"))
          << (first.where.empty() ? "" : " (" + first.where + ")");
      if (consumed == 0)
        diag.attachNote(consumerWait->getLoc()) << "the consumers' wait, never reached";
      else
        diag.attachNote(consumerWait->getLoc())
            << "the consumers' wait (thread " << consumer << " passes it " << consumed << " times)";
      attachFix(diag, first.op, "pipeline.unconsumed-iteration",
                "run the producer's and the consumers' loops over the same iterations (the same "
                "bound in both, e.g. a ceildiv, with the ragged last tile masked or zero-filled)");
    }
    if (!ok)
      return false;
  }
  return ok;
}

/// cp.async visibility along the simulated paths (each warp's first thread stands for its warp).
/// A thread's cp.async copies land in shared memory asynchronously: they are complete for the
/// issuing thread after a cp.async.wait that retires their group, and for other threads only
/// after a block barrier that follows that wait. `async.cp-async-in-flight`: a read of a buffer
/// slot (after a barrier that follows the copy's issue, or later in the issuing thread) whose
/// latest copy is not retired before it, or, from another thread, retired with no block barrier
/// between the wait and the read.
bool mlir::cake::verifyCpAsyncVisibility(KernelOp kernel, ThreadModel &model, bool checkExit) {
  bool any = false;
  kernel.walk([&](CpAsyncOp) { any = true; });
  if (!any)
    return true;
  // Each warp's first thread, and every thread that reaches a cp.async op differently from its
  // warp's first thread (a wait in lane 0 only: the other lanes' groups stay in flight).
  llvm::SetVector<int64_t> threads;
  for (int64_t t = 0; t < model.getNumThreads(); t += 32)
    threads.insert(t);
  kernel.walk([&](Operation *op) {
    if (!isa<CpAsyncOp, CpAsyncCommitOp, CpAsyncWaitOp>(op))
      return;
    ArrayRef<Reach> reach = model.reach(op);
    for (int64_t t = 0; t < model.getNumThreads(); ++t)
      if (reach[t] != reach[t - t % 32])
        threads.insert(t);
  });
  llvm::DenseSet<Operation *> reported;
  for (int64_t size : kSizes) {
    std::vector<std::pair<int64_t, Trace>> traces;
    for (int64_t t : threads) {
      Trace trace;
      if (!Simulator(kernel, model, t, size).run(trace))
        return true; // a path the simulation cannot decide: no judgement
      traces.push_back({t, std::move(trace)});
    }
    int64_t reads = 0, copies = 0;
    for (auto &[t, trace] : traces) {
      reads += trace.reads.size();
      for (const StoreGroup &g : trace.cpGroups)
        copies += g.stores.size();
    }
    std::string sizes = sizesText(kernel, size, traces);
    if (reads * copies > kAsyncPairLimit) {
      stopForSize(kernel, size, "the cp.async visibility check",
                  std::to_string(reads) + " reads x " + std::to_string(copies) + " copies at " +
                      sizes + " exceed the " + std::to_string(kAsyncPairLimit) +
                      " pairs it compares");
      return true;
    }
    // A group still copying when the thread exits writes into shared memory that the next block
    // on the SM may already own.
    for (auto &[issuer, trace] : traces)
      for (const StoreGroup &g : trace.cpGroups) {
        if (!checkExit || g.retired || g.stores.empty() ||
            !reported.insert(g.stores.front().second.op).second)
          continue;
        const At &copy = g.stores.front().second;
        InFlightDiagnostic diag = emitFinding(copy.op, "async.cp-async-pending-at-exit")
                                  << "expected a cake.cp_async.wait to retire this copy's group "
                                     "before the block exits, but in thread "
                                  << issuer << " with " << sizes << " the group of "
                                  << (copy.where.empty() ? "this copy" : copy.where)
                                  << " is still writing shared memory at exit";
        attachFix(diag, copy.op, "async.cp-async-pending-at-exit",
                  "after the last commit, in every copying thread: cake.cp_async.wait 0 "
                  "(unconditionally, outside the loop)");
      }
    for (auto &[reader, rtrace] : traces) {
      for (auto &[read, at] : rtrace.reads) {
        if (reported.contains(at.op))
          continue;
        for (auto &[writer, wtrace] : traces) {
          // The writer's latest copy into the slot that is surely issued before the read.
          const StoreGroup *group = nullptr;
          const At *copy = nullptr;
          for (const StoreGroup &g : wtrace.cpGroups)
            for (auto &[written, issued] : g.stores) {
              bool before = writer == reader ? issued.seq < at.seq : issued.epoch < at.epoch;
              if (before && written.overlaps(read) && (!copy || issued.seq > copy->seq)) {
                group = &g;
                copy = &issued;
              }
            }
          if (!copy)
            continue;
          const std::optional<At> &retired = group->retired;
          bool visible = retired && (writer == reader ? retired->seq < at.seq
                                                      : retired->epoch < at.epoch);
          if (visible)
            continue;
          reported.insert(at.op);
          InFlightDiagnostic diag = emitFinding(at.op, "async.cp-async-in-flight")
                                    << "expected the cp.async copies into this buffer to be "
                                       "complete before the read, but with "
                                    << sizes << " thread " << reader << "'s read"
                                    << (at.where.empty() ? "" : " (" + at.where + ")")
                                    << " may run while thread " << writer << "'s copy"
                                    << (copy->where.empty() ? "" : " (" + copy->where + ")")
                                    << " is in flight: "
                                    << (!retired ? "no cp.async.wait ever retires its group"
                                        : (writer == reader ? retired->seq > at.seq
                                                            : retired->epoch > at.epoch)
                                            ? "the cp.async.wait that retires its group runs "
                                              "only after the read"
                                            : "no block barrier lies between the cp.async.wait "
                                              "that retires its group and the read");
          diag.attachNote(copy->op->getLoc()) << "the copy";
          if (retired)
            diag.attachNote(retired->op->getLoc()) << "its group is retired here";
          attachFix(diag, at.op, "async.cp-async-in-flight",
                    "in every copying thread, cake.cp_async.wait with pending low enough to "
                    "retire the group of this slot, then cake.barrier, before the read");
          break;
        }
      }
    }
    if (!reported.empty())
      return false;
  }
  return true;
}

/// Whether `a` (thread A's access) surely happens before `b` (thread B's): a block barrier
/// between them, or an instance of a named barrier both threads arrive on that A reaches after
/// `a` and B before `b` (the k-th arrivals of the participants complete one instance).
static bool orderedBefore(const Trace &ta, const At &a, const Trace &tb, const At &b) {
  if (a.epoch < b.epoch)
    return true;
  for (auto &[id, arrivalsA] : ta.named) {
    auto it = tb.named.find(id);
    if (it == tb.named.end())
      continue;
    const SmallVector<int64_t> &arrivalsB = it->second;
    // The first instance A reaches after `a`; later ones only come later for B too.
    auto k = llvm::upper_bound(arrivalsA, a.seq) - arrivalsA.begin();
    if (k < static_cast<int64_t>(arrivalsB.size()) && arrivalsB[k] < b.seq)
      return true;
  }
  return false;
}

bool mlir::cake::verifyRoleHandoffs(KernelOp kernel, ThreadModel &model) {
  // Judged where warp roles hand data over through shared memory with named barriers and
  // nothing else orders threads (mbarriers, pipelines and async copies have their own rules).
  bool roles = false, named = false, other = false;
  kernel.walk([&](Operation *op) {
    roles |= isa<WarpRolesOp>(op);
    named |= isa<NamedBarrierOp>(op);
    other |= isa<MbarrierAllocOp, PipelineCreateOp, CpAsyncOp, TmaLoadOp, TmaStoreOp, WgmmaOp,
                 WgmmaRegsOp, ClusterBarrierOp>(op) ||
             llvm::any_of(getMemoryAccesses(op), [](const MemoryAccess &a) { return a.atomic; });
  });
  int64_t numThreads = model.getNumThreads();
  if (!roles || !named || other || numThreads > 512)
    return true;
  llvm::DenseSet<Operation *> reported;
  for (int64_t size : kSizes) {
    std::vector<std::pair<int64_t, Trace>> traces;
    for (int64_t t = 0; t < numThreads; ++t) {
      Trace trace;
      if (!Simulator(kernel, model, t, size).run(trace))
        return true; // a path the simulation cannot decide: no judgement
      traces.push_back({t, std::move(trace)});
    }
    // Instances pair up only when every participant arrives equally often (other rules judge
    // arrival counts).
    std::map<int64_t, size_t> arrivals;
    for (auto &[t, trace] : traces)
      for (auto &[id, steps] : trace.named)
        if (!arrivals.try_emplace(id, steps.size()).second && arrivals[id] != steps.size())
          return true;
    // Every access against every other one: give up on kernels too large to judge quickly.
    int64_t accesses = 0;
    for (auto &[t, trace] : traces)
      accesses += trace.elements.size();
    std::string sizes = sizesText(kernel, size, traces);
    if (accesses * accesses > kPairLimit * 64) {
      stopForSize(kernel, size, "the role hand-off check",
                  std::to_string(accesses) + " accesses at " + sizes +
                      " exceed the pairs it compares");
      return true;
    }
    for (size_t i = 0; i < traces.size(); ++i) {
      auto &[ta, tra] = traces[i];
      for (size_t j = 0; j < traces.size(); ++j) {
        auto &[tb, trb] = traces[j];
        if (ta / 32 == tb / 32)
          continue; // lanes of one warp: race.missing-barrier's intra-warp case
        for (const ElementAccess &w : tra.elements) {
          if (!w.write)
            continue;
          for (const ElementAccess &x : trb.elements) {
            if (x.buffer != w.buffer || x.hi <= w.lo || w.hi <= x.lo ||
                (x.write && tb < ta) || reported.contains(x.at.op))
              continue;
            if (orderedBefore(tra, w.at, trb, x.at) || orderedBefore(trb, x.at, tra, w.at))
              continue;
            reported.insert(x.at.op);
            InFlightDiagnostic diag =
                emitFinding(x.at.op, "race.unordered-handoff")
                << "expected a barrier both threads pass between thread " << ta << "'s write"
                << (w.at.where.empty() ? "" : " (" + w.at.where + ")") << " and thread " << tb
                << "'s " << (x.write ? "write" : "read")
                << (x.at.where.empty() ? "" : " (" + x.at.where + ")") << " of element " << w.lo
                << " of the buffer, with " << sizes
                << ", but no block barrier or named-barrier instance both arrive on separates "
                   "them: one may run while the other does";
            diag.attachNote(w.at.op->getLoc()) << "the write";
            attachFix(diag, x.at.op, "race.unordered-handoff",
                      "order the two accesses with a named barrier both roles arrive on between "
                      "them; a buffer handed over in a loop needs a second one (another id) that "
                      "the reading role arrives on after its last read and the writing role "
                      "before it writes again");
          }
        }
      }
    }
    if (!reported.empty())
      return false;
  }
  return true;
}
