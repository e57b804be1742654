//===- VerifyRaces.cpp - shared-memory races ------------------------------===//
//
// Two accesses of one shared buffer, at least one a write, by threads of different warps, with
// nothing ordering them. Every finding is meant to be a certain race, so the pass only reports
// what it can prove: the thread model evaluates the indices for every thread, loop counters are
// bound to iterations that certainly run (all of a loop with constant bounds, up to a cap; the
// first of one with a constant lower bound), guards that depend on those counters are evaluated
// under them (`if tid < (128 >> lvl)`: which threads run a level), and a finding names two
// threads whose accesses touch the same element. Unknown indices, conditions and orderings are
// never reported.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "PathSimulation.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"
#include "ShapeProbes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <unordered_map>
#include <set>
#include <tuple>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYRACESPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// At most this many iterations of one loop, and combinations per access, are evaluated.
constexpr size_t kMaxIterations = 16, kMaxEnvironments = 64;
/// Combinations of the loops around both accesses (each multiplies the work on both sides).
constexpr size_t kMaxSharedEnvironments = 4;
/// Large regions (boxes, tiles) compared pairwise per pair of ops; beyond it that comparison is
/// skipped (nothing reported from it).
constexpr size_t kMaxRegionPairs = size_t(1) << 22;

/// One access of a shared buffer: per dimension the start index (null: the whole dimension) and
/// the extent of the region it touches.
struct Access {
  Operation *op;
  bool write;
  SmallVector<Value, 4> starts;
  SmallVector<int64_t, 4> extents;
  /// ldmatrix / stmatrix: only lanes below this pass an address the instruction uses.
  int64_t lanes = 32;
  mutable RoleOp role; // mutable: MLIR op accessors are not const
};

/// Values of loop counters (induction variables) bound for one evaluation.
using Env = DenseMap<Value, int64_t>;

/// The iterations of one loop to try: per iteration the values of its counters (an scf.for's
/// induction variable; an scf.while's integer arguments, in both regions), or none bound (the
/// counters stay the model's uniform unknowns).
struct Pick {
  SmallVector<Value, 2> counters;
  SmallVector<SmallVector<int64_t, 2>> values;
};

/// A region of the buffer, per dimension (kind, start, extent); and which threads touch it: the
/// first, the first of another warp, and the first other thread of the first's warp.
using RegionKey = std::vector<int64_t>;
struct Who {
  int64_t first = -1, otherWarp = -1, sameWarp = -1;
  void add(int64_t t) {
    if (first < 0)
      first = t;
    else if (otherWarp < 0 && t / 32 != first / 32)
      otherWarp = t;
    else if (sameWarp < 0 && t != first && t / 32 == first / 32)
      sameWarp = t;
  }
};
using Regions = std::map<RegionKey, Who>;

struct Witness {
  int64_t firstThread, secondThread;
  std::string element;
};

/// Both regions provably share an element: known starts whose ranges meet, or the same uniform
/// unknown as start. Sets `element` to the first shared element when it is known.
bool overlap(const RegionKey &a, const RegionKey &b, std::string &element) {
  std::string text = "[";
  bool known = true;
  for (size_t i = 0; i + 2 < a.size(); i += 3) {
    if (a[i] == Lat::Known && b[i] == Lat::Known) {
      if (a[i + 1] >= b[i + 1] + b[i + 2] || b[i + 1] >= a[i + 1] + a[i + 2])
        return false;
      text += (i ? ", " : "") + std::to_string(std::max(a[i + 1], b[i + 1]));
    } else if (a[i] == Lat::Sym && b[i] == Lat::Sym && a[i + 1] == b[i + 1]) {
      known = false;
    } else {
      return false;
    }
  }
  element = known ? text + "]" : "the same element";
  return true;
}

/// Regions of at most this many elements are compared element by element (hashed); larger ones
/// (TMA boxes, wgmma tiles) pairwise against the other side's regions.
constexpr int64_t kMaxPoints = 64;

int64_t volume(const RegionKey &key) {
  int64_t v = 1;
  for (size_t i = 0; i + 2 < key.size(); i += 3)
    if (key[i] == Lat::Known)
      v = std::min<int64_t>(v * key[i + 2], kMaxPoints + 1);
  return v;
}

struct KeyHash {
  size_t operator()(const RegionKey &key) const {
    return llvm::hash_combine_range(key.begin(), key.end());
  }
};
using Points = std::unordered_map<RegionKey, Who, KeyHash>;

/// The elements of the small regions, per dimension (kind, index). A uniform unknown start names
/// only its first element (the others have no name to match).
Points expand(const Regions &regions) {
  Points points;
  for (auto &[key, who] : regions) {
    if (volume(key) > kMaxPoints)
      continue;
    size_t dims = key.size() / 3;
    RegionKey point(2 * dims);
    SmallVector<int64_t, 4> offset(dims, 0);
    while (true) {
      for (size_t d = 0; d < dims; ++d) {
        point[2 * d] = key[3 * d];
        point[2 * d + 1] = key[3 * d + 1] + offset[d];
      }
      Who &at = points[point];
      at.add(who.first);
      if (who.otherWarp >= 0)
        at.add(who.otherWarp);
      // Next offset (odometer over the known dimensions).
      size_t d = dims;
      while (d-- > 0) {
        if (key[3 * d] == Lat::Known && ++offset[d] < key[3 * d + 2])
          break;
        offset[d] = 0;
      }
      if (d == size_t(-1))
        break;
    }
  }
  return points;
}

/// A thread of `a` and one of `b` in different warps, or (with `sameWarp`) two different
/// threads of one warp when no pair of different warps exists.
std::optional<std::pair<int64_t, int64_t>> otherWarps(const Who &a, const Who &b,
                                                      bool sameWarp = false) {
  for (int64_t x : {a.first, a.otherWarp})
    for (int64_t y : {b.first, b.otherWarp})
      if (x >= 0 && y >= 0 && x / 32 != y / 32)
        return std::make_pair(x, y);
  if (sameWarp)
    for (int64_t x : {a.first, a.otherWarp, a.sameWarp})
      for (int64_t y : {b.first, b.otherWarp, b.sameWarp})
        if (x >= 0 && y >= 0 && x != y)
          return std::make_pair(x, y);
  return std::nullopt;
}

/// Two threads of different warps (or, with `sameWarp`, two threads of one warp), one from each
/// side, whose regions share an element.
std::optional<Witness> findWitness(const Regions &first, const Regions &second, bool sameWarp) {
  if (first.empty() || second.empty())
    return std::nullopt;
  // Small regions: by element; the smallest shared element, so that the message is stable.
  Points a = expand(first), b = expand(second);
  bool swap = a.size() > b.size();
  const RegionKey *best = nullptr;
  std::pair<int64_t, int64_t> bestThreads;
  for (auto &[point, who] : swap ? b : a) {
    auto it = (swap ? a : b).find(point);
    if (it == (swap ? a : b).end() || (best && !(point < *best)))
      continue;
    std::optional<std::pair<int64_t, int64_t>> threads =
        swap ? otherWarps(it->second, who, sameWarp) : otherWarps(who, it->second, sameWarp);
    if (threads) {
      best = &point;
      bestThreads = *threads;
    }
  }
  if (best) {
    const RegionKey &point = *best;
    std::string element = "[";
    for (size_t i = 0; i < point.size(); i += 2) {
      if (point[i] != Lat::Known) {
        element = "the same element";
        break;
      }
      element += (i ? ", " : "") + std::to_string(point[i + 1]) + (i + 2 == point.size() ? "]" : "");
    }
    return Witness{bestThreads.first, bestThreads.second, element};
  }
  // Large regions against everything on the other side.
  SmallVector<const Regions::value_type *> largeFirst, largeSecond;
  for (auto &r : first)
    if (volume(r.first) > kMaxPoints)
      largeFirst.push_back(&r);
  for (auto &r : second)
    if (volume(r.first) > kMaxPoints)
      largeSecond.push_back(&r);
  if (largeFirst.size() * second.size() + largeSecond.size() * first.size() > kMaxRegionPairs)
    return std::nullopt;
  auto test = [&](const Regions::value_type &x,
                  const Regions::value_type &y) -> std::optional<Witness> {
    std::string element;
    if (!overlap(x.first, y.first, element))
      return std::nullopt;
    if (std::optional<std::pair<int64_t, int64_t>> threads =
            otherWarps(x.second, y.second, sameWarp))
      return Witness{threads->first, threads->second, element};
    return std::nullopt;
  };
  for (const Regions::value_type *x : largeFirst)
    for (auto &y : second)
      if (std::optional<Witness> w = test(*x, y))
        return w;
  for (const Regions::value_type *y : largeSecond)
    for (auto &x : first)
      if (volume(x.first) <= kMaxPoints)
        if (std::optional<Witness> w = test(x, *y))
          return w;
  return std::nullopt;
}

/// Ops that may order two threads' accesses in plain block code: block barriers, and
/// (conservatively) anything that waits for other threads.
bool isSync(Operation *op) { return mayWaitForOthers(op) || isa<WarpRolesOp>(op); }

/// Ops after which the lanes of one warp have converged (conservatively: every .sync/.aligned
/// warp instruction). Lanes of one warp are otherwise unordered (independent thread scheduling,
/// since Volta): a lane's shared-memory write is not seen by another lane without one of these
/// or a block barrier.
bool isWarpSync(Operation *op) {
  return getCollectiveGroup(op) >= 32 ||
         isa<MmaSyncOp, MmaSyncStoreOp, LdmatrixOp, StmatrixOp, WgmmaRowArgReduceOp,
             WgmmaStoreRowsOp>(op);
}

struct CakeVerifyRacesPass
    : ModelCheckPass<CakeVerifyRacesPass, cake::impl::CakeVerifyRacesPassBase> {
  SmallVector<std::pair<unsigned, Operation *>> syncs; // isSync ops by position, sorted
  SmallVector<unsigned> warpSyncs; // positions of isWarpSync ops, sorted
  /// One finding per buffer and kind: (buffer, back-edge loop or null) for block code,
  /// (buffer, role, role) between roles.
  std::set<std::tuple<Operation *, Operation *, Operation *>> reported;
  Operation *buffer = nullptr;
  /// Per probe size set with blocks: the problem sizes bound (cake.problem_size results) and
  /// how a finding names them.
  SmallVector<std::pair<Env, std::string>> sizeSets;
  /// Why a sync op between two accesses cannot be counted on (mayNotRun), for the note.
  DenseMap<Operation *, std::string> notRunning;

  void verifyKernel(KernelOp kernel) {
    syncs.clear();
    reported.clear();
    warpSyncs.clear();
    sizeSets.clear();
    notRunning.clear();
    for (const ShapeProbe &probe : getProbeSizeSets(kernel)) {
      if (!hasBlocks(probe))
        continue;
      Env env;
      kernel.walk([&](ProblemSizeOp size) {
        auto it = probe.sizes.find(size.getSymbol());
        if (it != probe.sizes.end())
          env[size.getResult()] = it->second;
      });
      sizeSets.push_back({std::move(env), describeProbe(kernel, probe, /*withBlock=*/false)});
    }
    kernel.walk([&](Operation *op) {
      if (isSync(op))
        syncs.push_back({order.lookup(op), op});
      if (isWarpSync(op))
        warpSyncs.push_back(order.lookup(op));
    });
    llvm::sort(warpSyncs);
    llvm::sort(syncs);
    kernel.walk([&](AllocSmemOp alloc) { verifyBuffer(alloc); });
    ok &= verifyRoleHandoffs(kernel, *model);
  }

  unsigned pos(Operation *op) { return order.lookup(op); }
  /// The position of the last op nested in `op`.
  unsigned end(Operation *op) {
    unsigned last = pos(op);
    op->walk([&](Operation *nested) { last = std::max(last, pos(nested)); });
    return last;
  }
  /// A sync op at a position in (from, to).
  /// The first sync op after position `from` (syncs.end() if none).
  auto syncAfter(unsigned from) {
    return llvm::upper_bound(syncs, from, [](unsigned at, const auto &s) { return at < s.first; });
  }
  bool syncBetween(unsigned from, unsigned to) {
    auto it = syncAfter(from);
    return it != syncs.end() && it->first < to;
  }
  /// A warp collective at a position in (from, to).
  bool warpSyncBetween(unsigned from, unsigned to) {
    auto it = llvm::upper_bound(warpSyncs, from);
    return it != warpSyncs.end() && *it < to;
  }

  /// Whether `sync`, inside a loop around `first` that does not hold `second`, sits under an
  /// scf.if that its loop's last iteration does not take (`cmpi ult, %i + 1, %ub`: "more
  /// iterations follow"), for some trip count: the path from `first` in the last iteration out
  /// of the loop to `second` then passes no such sync.
  bool skippedOnLastIteration(Operation *sync, Operation *first, Operation *second) {
    for (Operation *p = sync->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(p);
      if (!loop || !loop->isProperAncestor(first) || loop->isProperAncestor(second))
        continue;
      std::optional<int64_t> lb = small(loop.getLowerBound()), step = small(loop.getStep()),
                             ub = small(loop.getUpperBound());
      if (!lb || !step || *step <= 0)
        return false;
      for (Operation *q = sync->getParentOp(); q != loop.getOperation(); q = q->getParentOp()) {
        auto branch = dyn_cast<scf::IfOp>(q);
        if (!branch)
          continue;
        bool inThen = branch.getThenRegion().isAncestor(sync->getParentRegion());
        for (int64_t trips = 1; trips <= 3; ++trips) {
          if (ub && *ub != *lb + trips * *step)
            continue;                       // a constant bound: only its own trip count
          DenseMap<Value, int64_t> bound = {{loop.getInductionVar(), *lb + (trips - 1) * *step},
                                            {loop.getUpperBound(), *lb + trips * *step}};
          std::optional<int64_t> taken = evaluateWith(*model, branch.getCondition(), -1, bound);
          if (taken && (*taken != 0) != inThen)
            return true;
        }
      }
      return false;
    }
    return false;
  }

  /// Whether `sync` (between `first` and `second`, inside neither's enclosing region) may not
  /// run on the way from one to the other: at some probe size set, a block-uniform scf.if around
  /// it takes the other side, or an scf.for or scf.while around it runs no iteration (the only
  /// barrier inside `for ch = 0 to K / 32`, K < 32). Records the reason in `notRunning`.
  bool mayNotRun(Operation *sync, Operation *first, Operation *second) {
    for (const auto &[env, named] : sizeSets) {
      for (Operation *child = sync, *p = sync->getParentOp(); p && !isa<KernelOp>(p);
           child = p, p = p->getParentOp()) {
        if (p->isAncestor(first) || p->isAncestor(second))
          break;
        std::string why;
        if (auto branch = dyn_cast<scf::IfOp>(p)) {
          bool inThen = &branch.getThenRegion() == child->getParentRegion();
          std::optional<int64_t> taken = evaluateWith(*model, branch.getCondition(), -1, env);
          if (taken && (*taken != 0) != inThen)
            why = "its condition is " + std::string(inThen ? "false" : "true");
        } else if (auto loop = dyn_cast<scf::ForOp>(p)) {
          std::optional<int64_t> lb = evaluateWith(*model, loop.getLowerBound(), -1, env),
                                 ub = evaluateWith(*model, loop.getUpperBound(), -1, env);
          if (lb && ub && *ub <= *lb)
            why = "its loop runs no iteration";
        } else if (auto loop = dyn_cast<scf::WhileOp>(p)) {
          bool ends = false;
          if (whileIterations(loop, ends, env, 1).empty() && ends)
            why = "its loop runs no iteration";
        }
        if (!why.empty()) {
          notRunning[sync] = "this barrier does not run when " + named + " (" + why + ")";
          return true;
        }
      }
    }
    return false;
  }

  /// A sync op between `first` and `second` (in program order) that the path from one to the
  /// other certainly passes; the syncs it cannot count on go to `skipped`. Named barriers order
  /// only the threads that take part: when they are the only syncs in between, `participants`
  /// gets every thread that may execute one of them (the others stay unordered) and the result
  /// is false.
  bool certainSyncBetween(Operation *first, Operation *second, SmallVector<Operation *> &skipped,
                          llvm::BitVector &participants, SmallVector<Operation *> &named) {
    for (auto it = syncAfter(pos(first)); it != syncs.end() && it->first < pos(second); ++it) {
      Operation *sync = it->second;
      if (skippedOnLastIteration(sync, first, second) || mayNotRun(sync, first, second)) {
        skipped.push_back(sync);
        continue;
      }
      if (!isa<NamedBarrierOp>(sync))
        return true;
      named.push_back(sync);
    }
    participants.resize(model->getNumThreads());
    for (Operation *sync : named) {
      ArrayRef<Reach> reach = model->reach(sync);
      for (int64_t t = 0; t < model->getNumThreads(); ++t)
        if (reach[t].kind != Reach::Never)
          participants.set(t);
    }
    return participants.all();
  }

  //===--------------------------------------------------------------------===//
  // Accesses
  //===--------------------------------------------------------------------===//

  /// The accesses of `buffer` this pass understands (CakeMemoryAccessOpInterface: each op's
  /// indices and the region they address); false if it is a pipeline stage buffer
  /// (cake-verify-pipeline checks those).
  bool collect(Value buffer, SmallVector<Access> &out) {
    ArrayRef<int64_t> shape = cast<SmemType>(buffer.getType()).getShape();
    for (OpOperand &use : buffer.getUses()) {
      Operation *op = use.getOwner();
      for (const MemoryAccess &a : getMemoryAccesses(op)) {
        if (a.buffer != buffer)
          continue;
        if (a.completion == AccessCompletion::Barrier && isa<PipelineType>(a.completesOn.getType()))
          return false;
        // Regions the op does not state (a reduction's bias) and atomics are not candidates.
        if (!a.regionKnown || a.atomic || a.indices.size() > shape.size())
          continue;
        // One start per indexed dimension; the dimensions after the indices are whole.
        Access access{op, a.isWrite(), SmallVector<Value, 4>(a.indices), {}, a.lanes, {}};
        access.extents.assign(shape.size(), 1);
        for (size_t d = a.indices.size(); d < shape.size(); ++d) {
          access.starts.push_back(Value());
          access.extents[d] = shape[d];
        }
        if (!a.tile.empty()) {
          if (a.tile.size() > a.indices.size())
            continue;
          for (size_t t = 0; t < a.tile.size(); ++t)
            access.extents[a.indices.size() - a.tile.size() + t] = a.tile[t];
        } else if (a.indices.size() == shape.size()) {
          access.extents.back() = std::max<int64_t>(1, a.width);
        }
        out.push_back(std::move(access));
      }
    }
    for (Access &access : out) {
      for (Value start : access.starts)
        if (start && start.getDefiningOp<PipelineSlotOp>())
          return false;
      access.role = access.op->getParentOfType<RoleOp>();
    }
    return true;
  }

  /// The threads that certainly execute `op` in the iterations `env` binds, when the model's
  /// reach cannot say (a guard that depends on a loop counter: `if tid < (128 >> lvl)`): every
  /// enclosing scf.if must take `op`'s side in the thread under the bound counters, and every
  /// enclosing loop must be an scf.for or scf.while. A counter `env` does not bind (bounds the model cannot
  /// evaluate: a persistent kernel's share of the tiles) stays unknown: a guard or index that
  /// depends on it is not known, so nothing is claimed from it; the loop itself is taken to
  /// run, as a bound one's first iteration is. Anything else around `op` (roles): nullopt.
  std::optional<llvm::BitVector> boundExecutors(Operation *op, const Env &env,
                                                BoundEvaluator &eval) {
    llvm::BitVector runs(model->getNumThreads(), true);
    for (Operation *child = op, *p = op->getParentOp(); p && !isa<KernelOp>(p);
         child = p, p = p->getParentOp()) {
      if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
        bool thenSide = &ifOp.getThenRegion() == child->getParentRegion();
        ArrayRef<Lat> cond = eval.eval(ifOp.getCondition());
        for (int64_t t = 0; t < model->getNumThreads(); ++t)
          if (cond[t].kind != Lat::Known || (cond[t].value != 0) != thenSide)
            runs.reset(t);
      } else if (!isa<scf::ForOp, scf::WhileOp>(p)) {
        return std::nullopt;
      }
    }
    return runs;
  }

  /// The regions `access` touches in each thread that certainly executes it, for every
  /// combination of the bound loop counters.
  void regions(const Access &access, const Env &shared, ArrayRef<Pick> own, Operation *nextLoop,
               Regions &out, const llvm::BitVector *excluded = nullptr) {
    ArrayRef<Reach> reach = model->reach(access.op);
    bool allAlways = llvm::all_of(reach, [](const Reach &r) { return r.kind == Reach::Always; });
    forEachEnv(own, shared, [&](const Env &env) {
      BoundEvaluator eval(*model, env, nextLoop);
      std::optional<llvm::BitVector> bound =
          allAlways ? std::nullopt : boundExecutors(access.op, env, eval);
      SmallVector<std::vector<Lat>> starts;
      for (Value start : access.starts)
        starts.push_back(start ? eval.eval(start).vec() : std::vector<Lat>());
      for (int64_t t = 0; t < model->getNumThreads(); ++t) {
        bool executes = reach[t].kind == Reach::Always || (bound && bound->test(t));
        if (!executes || t % 32 >= access.lanes || (excluded && excluded->test(t)))
          continue;
        RegionKey key;
        bool known = true;
        for (size_t d = 0; d < starts.size() && known; ++d) {
          Lat lat = starts[d].empty() ? Lat::known(0) : starts[d][t];
          known = lat.kind != Lat::Varying;
          key.insert(key.end(), {lat.kind, lat.value, access.extents[d]});
        }
        if (known)
          out[key].add(t);
      }
    });
  }

  /// Calls `fn` with `base` extended by every combination of the picks' values.
  void forEachEnv(ArrayRef<Pick> picks, const Env &base, function_ref<void(const Env &)> fn) {
    Env env = base;
    std::function<void(size_t)> rec = [&](size_t i) {
      if (i == picks.size())
        return fn(env);
      if (picks[i].values.empty())
        return rec(i + 1);
      for (ArrayRef<int64_t> values : picks[i].values) {
        for (auto [counter, v] : llvm::zip(picks[i].counters, values))
          env[counter] = v;
        rec(i + 1);
      }
      for (Value counter : picks[i].counters)
        env.erase(counter);
    };
    rec(0);
  }

  //===--------------------------------------------------------------------===//
  // Iterations
  //===--------------------------------------------------------------------===//

  enum class Which { Any, First, Last };

  /// A loop bound as the model has it (zero-extended), if it is a small non-negative constant:
  /// only those are taken at face value, so that no signedness question (or overflow) arises.
  std::optional<int64_t> small(Value v) {
    std::optional<int64_t> c = model->getConstant(v);
    return c && *c >= 0 && *c < (int64_t(1) << 31) ? c : std::nullopt;
  }

  /// The iterations of `loop` (scf.for or scf.while) to try; nullopt when the loop certainly
  /// runs no iteration.
  std::optional<Pick> pick(Operation *loop, Which which) {
    if (auto counted = dyn_cast<scf::ForOp>(loop))
      return pick(counted, which);
    auto whileLoop = cast<scf::WhileOp>(loop);
    Pick p{whileCounters(whileLoop), {}};
    bool ends = false;
    SmallVector<SmallVector<int64_t, 2>> runs = whileIterations(whileLoop, ends);
    if (runs.empty())
      return ends ? std::nullopt : std::optional<Pick>(p);
    if (which == Which::Last) {
      if (ends)
        p.values = {runs.back()};
    } else if (which == Which::First) {
      p.values = {runs.front()};
    } else {
      p.values = std::move(runs);
    }
    return p;
  }

  /// The integer arguments of an scf.while, of its condition region then of its body: the
  /// values whileIterations binds.
  static SmallVector<Value, 2> whileCounters(scf::WhileOp loop) {
    SmallVector<Value, 2> out;
    for (Block *block : {&loop.getBefore().front(), &loop.getAfter().front()})
      for (BlockArgument arg : block->getArguments())
        if (arg.getType().isIntOrIndex())
          out.push_back(arg);
    return out;
  }

  /// The iterations of an scf.while that certainly run (at most kMaxIterations), as the values
  /// of whileCounters: the inits, then per iteration the condition's forwarded values and the
  /// body's yielded ones folded under the previous ones, while they are the same constant in
  /// every thread (a tree reduction's halving stride: 128, 64, ... 1). `ends`: the condition is
  /// known false after the last one. `base`: values bound besides (problem sizes), `limit`: the
  /// most iterations to fold.
  SmallVector<SmallVector<int64_t, 2>> whileIterations(scf::WhileOp loop, bool &ends,
                                                       const Env &base = Env(),
                                                       size_t limit = kMaxIterations) {
    ends = false;
    SmallVector<SmallVector<int64_t, 2>> out;
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    scf::ConditionOp condition = loop.getConditionOp();
    // The condition region's arguments: the inits, then what the body yields.
    SmallVector<std::optional<int64_t>, 2> args;
    for (Value init : loop.getInits())
      args.push_back(init.getType().isIntOrIndex() ? evaluateWith(*model, init, -1, base)
                                                   : std::nullopt);
    while (out.size() < limit) {
      Env env = base;
      SmallVector<int64_t, 2> values;
      for (auto [arg, value] : llvm::zip(before.getArguments(), args)) {
        if (!arg.getType().isIntOrIndex())
          continue;
        if (!value)
          return out;
        env[arg] = *value;
        values.push_back(*value);
      }
      std::optional<int64_t> go = evaluateWith(*model, condition.getCondition(), -1, env);
      if (!go)
        return out;
      if (*go == 0) {
        ends = true;
        return out;
      }
      for (auto [arg, forwarded] : llvm::zip(after.getArguments(), condition.getArgs())) {
        if (!arg.getType().isIntOrIndex())
          continue;
        std::optional<int64_t> value = evaluateWith(*model, forwarded, -1, env);
        if (!value)
          return out;
        env[arg] = *value;
        values.push_back(*value);
      }
      out.push_back(std::move(values));
      args.clear();
      for (Value yielded : loop.getYieldOp().getResults())
        args.push_back(yielded.getType().isIntOrIndex() ? evaluateWith(*model, yielded, -1, env)
                                                        : std::nullopt);
    }
    return out;
  }

  std::optional<Pick> pick(scf::ForOp loop, Which which) {
    Pick p{{loop.getInductionVar()}, {}};
    std::optional<int64_t> lb = small(loop.getLowerBound()), ub = small(loop.getUpperBound()),
                           step = small(loop.getStep());
    if (lb && ub && step && *step > 0) {
      int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
      if (trips == 0)
        return std::nullopt;
      if (which == Which::Last)
        p.values = {{*lb + (trips - 1) * *step}};
      else if (which == Which::First)
        p.values = {{*lb}};
      else
        for (int64_t i = 0; i < trips && i < static_cast<int64_t>(kMaxIterations); ++i)
          p.values.push_back({*lb + i * *step});
    } else if (lb && which != Which::Last) {
      // The first iteration runs whenever the loop does.
      p.values = {{*lb}};
    }
    return p;
  }

  /// Tries fewer iterations (halving the longest list; each is still one that runs) until the
  /// combinations fit the cap.
  static void capPicks(SmallVector<Pick> &picks, size_t cap) {
    while (true) {
      size_t n = 1;
      Pick *longest = nullptr;
      for (Pick &p : picks) {
        n *= std::max<size_t>(1, p.values.size());
        if (!longest || p.values.size() > longest->values.size())
          longest = &p;
      }
      if (n <= cap || !longest || longest->values.size() <= 1)
        return;
      longest->values.resize(longest->values.size() / 2);
    }
  }

  /// The loops (scf.for, scf.while) enclosing `op`, innermost first, up to (not including)
  /// `stop`.
  static SmallVector<Operation *> loopsOf(Operation *op, Operation *stop) {
    SmallVector<Operation *> loops;
    for (Operation *p = op->getParentOp(); p && p != stop && !isa<KernelOp>(p);
         p = p->getParentOp())
      if (isa<scf::ForOp, scf::WhileOp>(p))
        loops.push_back(p);
    return loops;
  }

  bool loopHasSync(Operation *loop) { return syncBetween(pos(loop), end(loop) + 1); }

  /// Picks for `loops` on one side: `which`, or (when the loop's body holds a sync op, so that
  /// only its first or last iteration reaches the other access unsynchronized) `ifSync`.
  bool sidePicks(ArrayRef<Operation *> loops, Which ifSync, SmallVector<Pick> &out,
                 size_t cap = kMaxEnvironments) {
    for (Operation *loop : loops) {
      std::optional<Pick> p = pick(loop, loopHasSync(loop) ? ifSync : Which::Any);
      if (!p)
        return false;
      out.push_back(*p);
    }
    capPicks(out, cap);
    return true;
  }

  /// A witness that `first` (in threads of one warp) and `second` (in another's) touch one
  /// element: `shared` loops take the same iteration on both sides; `firstLoops` and
  /// `secondLoops` their own (with `firstWhich` / `secondWhich` for loops with a sync op inside);
  /// `nextLoop` is the loop whose next iteration `second` runs in (its counters bound to two
  /// consecutive iterations on the two sides, when known: an scf.for's first two, each pair of
  /// an scf.while's known ones).
  std::optional<Witness> check(const Access &first, const Access &second,
                               ArrayRef<Operation *> shared, ArrayRef<Operation *> firstLoops,
                               Which firstWhich, ArrayRef<Operation *> secondLoops,
                               Which secondWhich, Operation *nextLoop = nullptr,
                               bool sameWarp = false,
                               const llvm::BitVector *excludedFirst = nullptr,
                               const llvm::BitVector *excludedSecond = nullptr) {
    SmallVector<Pick> sharedPicks, firstPicks, secondPicks;
    if (!sidePicks(shared, Which::Any, sharedPicks, kMaxSharedEnvironments) ||
        !sidePicks(firstLoops, firstWhich, firstPicks) ||
        !sidePicks(secondLoops, secondWhich, secondPicks))
      return std::nullopt;
    // (first side, second side) bindings of nextLoop's counters; one unbound pair without.
    SmallVector<std::pair<Env, Env>> bases;
    if (auto counted = dyn_cast_or_null<scf::ForOp>(nextLoop)) {
      // Iterations lb and lb + step, when both are known to run.
      std::optional<int64_t> lb = small(counted.getLowerBound()),
                             ub = small(counted.getUpperBound()), step = small(counted.getStep());
      if (ub && lb && step && *ub - *lb <= *step)
        return std::nullopt; // fewer than two iterations
      if (lb && step) {
        Value iv = counted.getInductionVar();
        bases.push_back({Env{{iv, *lb}}, Env{{iv, *lb + *step}}});
      }
    } else if (auto whileLoop = dyn_cast_or_null<scf::WhileOp>(nextLoop)) {
      bool ends = false;
      SmallVector<SmallVector<int64_t, 2>> runs = whileIterations(whileLoop, ends);
      if (ends && runs.size() < 2)
        return std::nullopt; // fewer than two iterations
      SmallVector<Value, 2> counters = whileCounters(whileLoop);
      auto bind = [&](ArrayRef<int64_t> values) {
        Env env;
        for (auto [counter, v] : llvm::zip(counters, values))
          env[counter] = v;
        return env;
      };
      for (size_t i = 0; i + 1 < runs.size(); ++i)
        bases.push_back({bind(runs[i]), bind(runs[i + 1])});
    }
    if (bases.empty())
      bases.emplace_back();
    std::optional<Witness> found;
    for (const std::pair<Env, Env> &base : bases) {
      const Env &firstBase = base.first, &secondBase = base.second;
      forEachEnv(sharedPicks, Env(), [&](const Env &env) {
        if (found)
          return;
        Env a = env, b = env;
        a.insert(firstBase.begin(), firstBase.end());
        b.insert(secondBase.begin(), secondBase.end());
        Regions ra, rb;
        regions(first, a, firstPicks, nullptr, ra, excludedFirst);
        regions(second, b, secondPicks, nextLoop, rb, excludedSecond);
        // Threads of two warps first (the classic message); lanes of one warp otherwise.
        found = findWitness(ra, rb, false);
        if (!found && sameWarp)
          found = findWitness(ra, rb, true);
      });
      if (found)
        break;
    }
    return found;
  }

  //===--------------------------------------------------------------------===//
  // Plain block code: race.missing-barrier
  //===--------------------------------------------------------------------===//

  /// `second` after `first` in program order, or in the next iteration of a loop around both,
  /// with no sync op in between.
  void verifyPlainPair(const Access &x, const Access &y) {
    SmallVector<std::pair<const Access *, const Access *>, 2> orders = {{&x, &y}};
    if (&x != &y)
      orders.push_back({&y, &x});
    for (const auto &order : orders) {
      const Access *first = order.first, *second = order.second;
      SmallVector<Operation *> firstLoops = loopsOf(first->op, nullptr);
      SmallVector<Operation *> secondLoops = loopsOf(second->op, nullptr);
      SmallVector<Operation *> common;
      for (Operation *loop : firstLoops)
        if (llvm::is_contained(secondLoops, loop))
          common.push_back(loop);
      // The loops around one side only (innermost first, up to the first common one).
      auto own = [&](ArrayRef<Operation *> loops) {
        SmallVector<Operation *> out;
        for (Operation *loop : loops) {
          if (llvm::is_contained(common, loop))
            break;
          out.push_back(loop);
        }
        return out;
      };
      // In one iteration of the common loops.
      SmallVector<Operation *> skipped;
      llvm::BitVector participants;
      SmallVector<Operation *> named;
      if (!reported.count({buffer, nullptr, nullptr}) && pos(first->op) <= pos(second->op) &&
          !certainSyncBetween(first->op, second->op, skipped, participants, named)) {
        // Two ops: lanes of one warp race too, unless a warp collective converges them.
        bool sameWarp = first->op != second->op &&
                        !warpSyncBetween(pos(first->op), pos(second->op));
        // With named barriers in between, a pair is unordered when one of its threads does
        // not take part: the first side's, then the second side's threads outside them.
        auto attempt = [&](const llvm::BitVector *exFirst, const llvm::BitVector *exSecond) {
          return check(*first, *second, common, own(firstLoops), Which::Last, own(secondLoops),
                       Which::First, nullptr, sameWarp, exFirst, exSecond);
        };
        std::optional<Witness> w = participants.any() ? attempt(&participants, nullptr)
                                                      : attempt(nullptr, nullptr);
        if (!w && participants.any())
          w = attempt(nullptr, &participants);
        if (w) {
          report(*first, *second, *w, nullptr, skipped, named);
          continue;
        }
      }
      // Around the back edge of a common loop (scf.for or scf.while): the rest of its body
      // after `first`, then its body (a while loop's condition region first) up to `second`.
      SmallVector<Operation *> backEdges;
      for (Operation *p = first->op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(p) && p->isProperAncestor(second->op))
          backEdges.push_back(p);
      for (Operation *loop : backEdges) {
        unsigned loopEnd = end(loop);
        if (reported.count({buffer, loop, nullptr}) ||
            syncBetween(pos(first->op), loopEnd + 1) || syncBetween(pos(loop), pos(second->op)))
          continue;
        // Loops inside `loop` run independently on each side; the common ones outside it take
        // the same iteration on both.
        SmallVector<Operation *> firstInside, secondInside, outside;
        for (Operation *l : firstLoops)
          if (loop->isProperAncestor(l))
            firstInside.push_back(l);
        for (Operation *l : secondLoops)
          if (loop->isProperAncestor(l))
            secondInside.push_back(l);
        for (Operation *l : common)
          if (l->isProperAncestor(loop))
            outside.push_back(l);
        bool sameWarp = !warpSyncBetween(pos(first->op), loopEnd + 1) &&
                        !warpSyncBetween(pos(loop), pos(second->op));
        if (std::optional<Witness> w = check(*first, *second, outside, firstInside, Which::Last,
                                             secondInside, Which::First, loop, sameWarp)) {
          report(*first, *second, *w, loop);
          break;
        }
      }
    }
  }

  static StringRef verb(const Access &a) { return a.write ? "writes" : "reads"; }
  static StringRef noun(const Access &a) { return a.write ? "write" : "read"; }

  void report(const Access &first, const Access &second, const Witness &w, Operation *loop,
              ArrayRef<Operation *> skipped = {}, ArrayRef<Operation *> partial = {}) {
    ok = false;
    reported.insert({buffer, loop, nullptr});
    StringRef rule = "race.missing-barrier";
    bool same = first.op == second.op && !loop; // one op, run by threads of two warps
    std::string thread1 = "thread " + std::to_string(w.firstThread) + " (warp " +
                          std::to_string(w.firstThread / 32) + ")";
    std::string thread2 = "thread " + std::to_string(w.secondThread) + " (warp " +
                          std::to_string(w.secondThread / 32) + ")";
    InFlightDiagnostic diag =
        emitFinding(second.op, rule)
        << "expected a block barrier between this " << noun(second) << " of shared memory and the "
        << noun(first) << " by other threads"
        << (loop ? " in the previous iteration of the loop" : "") << ": " << thread2 << " "
        << verb(second) << " " << (w.element.front() == '[' ? "element " : "") << w.element
        << ", which " << thread1 << " " << verb(first)
        << (loop ? " one iteration earlier" : same ? " at the same time" : " before it")
        << ", with no barrier in between";
    if (!same)
      diag.attachNote(first.op->getLoc())
          << "the " << noun(first) << (loop ? " in the previous iteration" : "") << " is here";
    for (Operation *sync : skipped) {
      auto why = notRunning.find(sync);
      diag.attachNote(sync->getLoc())
          << (why != notRunning.end() ? why->second
                                      : "this barrier does not run in the loop's last iteration "
                                        "(its condition is false there)");
    }
    for (Operation *sync : partial)
      diag.attachNote(sync->getLoc())
          << "this named barrier orders only the threads that execute it, not threads "
          << w.firstThread << " and " << w.secondThread;
    if (same) {
      attachFix(diag, second.op, rule,
                "let one thread write each element (e.g. under a condition on the thread id)");
    } else if (loop) {
      diag.attachNote(loop->getLoc()) << "the loop is here";
      attachFix(diag, second.op, rule,
                "add cake.barrier at the end of the loop body, after the last " +
                    noun(first).str() + " of the buffer, so that no thread " +
                    (second.write ? "overwrites" : "reads") + " it in the next iteration before " +
                    "every thread is done");
    } else if (w.firstThread / 32 == w.secondThread / 32) {
      attachFix(diag, second.op, rule,
                "lanes of one warp are not ordered either (no warp-synchronous shared memory "
                "since Volta): add cake.barrier after the " +
                    noun(first).str() + " and before this " + noun(second).str() +
                    ", outside any role or thread-dependent condition, or pass the values "
                    "between lanes with cake.warp_reduce or shuffles");
    } else {
      attachFix(diag, second.op, rule,
                "add cake.barrier after the " + noun(first).str() + " and before this " +
                    noun(second).str() + ", outside any role or thread-dependent condition");
    }
  }

  //===--------------------------------------------------------------------===//
  // Warp roles: race.cross-role
  //===--------------------------------------------------------------------===//

  /// A barrier an op arrives on or waits on: an mbarrier (array, index), a pipeline, or a named
  /// barrier (id; block barriers are id 0).
  struct SyncPoint {
    Value barrier;
    Value index;
    int64_t named = -1;
  };

  bool matches(const SyncPoint &a, const SyncPoint &b) {
    if (a.named >= 0 || b.named >= 0)
      return a.named == b.named;
    if (a.barrier != b.barrier)
      return false;
    if (!a.index || !b.index)
      return true;
    std::optional<int64_t> x = model->getConstant(a.index), y = model->getConstant(b.index);
    return !x || !y || *x == *y;
  }

  static std::optional<SyncPoint> arrivesOn(Operation *op) {
    if (auto a = dyn_cast<MbarrierArriveOp>(op))
      return SyncPoint{a.getBarriers(), a.getIndex()};
    if (auto a = dyn_cast<MbarrierArriveExpectTxOp>(op))
      return SyncPoint{a.getBarriers(), a.getIndex()};
    if (auto a = dyn_cast<Tcgen05CommitOp>(op)) // when the thread's MMAs complete
      return SyncPoint{a.getBarriers(), a.getIndex()};
    if (auto a = dyn_cast<TmaLoadOp>(op)) // completes on its barrier
      return SyncPoint{a.getBarrier(), isa<PipelineType>(a.getBarrier().getType())
                                           ? Value()
                                           : a.getBarrierIndex()};
    if (auto a = dyn_cast<PipelineProducerCommitOp>(op))
      return SyncPoint{a.getPipeline(), {}};
    if (auto a = dyn_cast<PipelineConsumerReleaseOp>(op))
      return SyncPoint{a.getPipeline(), {}};
    if (auto a = dyn_cast<NamedBarrierOp>(op))
      return SyncPoint{{}, {}, static_cast<int64_t>(a.getId())};
    if (isBlockBarrier(op))
      return SyncPoint{{}, {}, 0};
    return std::nullopt;
  }

  static std::optional<SyncPoint> waitsOn(Operation *op) {
    if (auto w = dyn_cast<MbarrierWaitOp>(op))
      return SyncPoint{w.getBarriers(), w.getIndex()};
    if (auto w = dyn_cast<PipelineConsumerWaitOp>(op))
      return SyncPoint{w.getPipeline(), {}};
    if (auto w = dyn_cast<PipelineProducerAcquireOp>(op))
      return SyncPoint{w.getPipeline(), {}};
    if (auto w = dyn_cast<NamedBarrierOp>(op))
      return SyncPoint{{}, {}, static_cast<int64_t>(w.getId())};
    if (isBlockBarrier(op))
      return SyncPoint{{}, {}, 0};
    return std::nullopt;
  }

  /// `b` may run after `a` in the same thread of `role`: later in program order, or in a loop
  /// inside the role around both (its next iteration).
  bool mayFollow(Operation *a, Operation *b, RoleOp role) {
    if (pos(b) > pos(a))
      return true;
    for (Operation *p = a->getParentOp(); p && p != role; p = p->getParentOp())
      if (isa<LoopLikeOpInterface>(p) && p->isProperAncestor(b))
        return true;
    return false;
  }

  /// Something may order `x` (in its role) before `y` (in another): an arrival after `x` that
  /// `y`'s role waits for before `y`, directly or through other roles (conservatively, any
  /// arrival of a role that waits on one of the signals counts).
  bool mayOrder(const Access &x, const Access &y, WarpRolesOp roles) {
    SmallVector<SyncPoint> signals;
    if (isa<TmaLoadOp>(x.op)) {
      // The async proxy writes: only the barrier the copy completes on orders them, not later
      // arrivals of the issuing thread.
      signals.push_back(*arrivesOn(x.op));
    } else {
      x.role.walk([&](Operation *op) {
        if (std::optional<SyncPoint> s = arrivesOn(op); s && mayFollow(x.op, op, x.role))
          signals.push_back(*s);
      });
    }
    auto waitsOnSignal = [&](Operation *op) {
      std::optional<SyncPoint> w = waitsOn(op);
      return w && llvm::any_of(signals, [&](const SyncPoint &s) { return matches(s, *w); });
    };
    DenseSet<Operation *> reached = {x.role};
    for (bool changed = true; changed;) {
      changed = false;
      for (RoleOp role : roles.getBody().getOps<RoleOp>()) {
        if (reached.contains(role) || role == y.role)
          continue;
        bool waits = false;
        role.walk([&](Operation *op) { waits |= waitsOnSignal(op); });
        if (!waits)
          continue;
        reached.insert(role);
        changed = true;
        role.walk([&](Operation *op) {
          if (std::optional<SyncPoint> s = arrivesOn(op))
            signals.push_back(*s);
        });
      }
    }
    bool ordered = false;
    y.role.walk([&](Operation *op) {
      ordered |= waitsOnSignal(op) && mayFollow(op, y.op, y.role);
    });
    return ordered;
  }

  void verifyRolePair(const Access &x, const Access &y) {
    auto roles = cast<WarpRolesOp>(x.role->getParentOp());
    if (x.role == y.role || y.role->getParentOp() != roles)
      return;
    // Report at the read (or at the later write).
    const Access &second = !y.write || (x.write && pos(y.op) > pos(x.op)) ? y : x;
    const Access &first = &second == &y ? x : y;
    auto key = std::make_tuple(buffer, std::min<Operation *>(x.role, y.role),
                               std::max<Operation *>(x.role, y.role));
    if (reported.count(key) || mayOrder(x, y, roles) || mayOrder(y, x, roles))
      return;
    SmallVector<Operation *> shared = loopsOf(roles, nullptr);
    std::optional<Witness> w =
        check(first, second, shared, loopsOf(first.op, first.role), Which::Any,
              loopsOf(second.op, second.role), Which::Any);
    if (!w)
      return;
    ok = false;
    reported.insert(key);
    StringRef rule = "race.cross-role";
    InFlightDiagnostic diag =
        emitFinding(second.op, rule)
        << "expected synchronization between " << describeRole(first.role) << " and "
        << describeRole(second.role) << " on this shared memory: thread " << w->secondThread
        << " " << verb(second) << " " << (w->element.front() == '[' ? "element " : "")
        << w->element << " here and thread " << w->firstThread << " " << verb(first)
        << " it, with no mbarrier arrival (or named barrier) after one access that the other "
           "role waits for before the other";
    diag.attachNote(first.op->getLoc()) << "the " << noun(first) << " in "
                                        << describeRole(first.role) << " is here";
    attachFix(diag, second.op, rule,
              "after the " + noun(first).str() + ", arrive on an mbarrier (a TMA copy: complete "
              "on it) and wait on it in role '" + second.role.getRoleName().str() + "' before " +
              "this " + noun(second).str() + "; or pass the buffer through a cake.pipeline");
  }

  //===--------------------------------------------------------------------===//
  // race.lost-update
  //===--------------------------------------------------------------------===//

  /// Whether `v` is computed (through integer arith) from a value loaded from memory: an index
  /// the data decides, which two threads may share for some inputs.
  static bool fromData(Value v, unsigned depth = 0) {
    Operation *def = v.getDefiningOp();
    if (!def || depth > 32)
      return false;
    if (isa<LoadOp>(def))
      return true;
    if (!def->getDialect() || def->getDialect()->getNamespace() != "arith")
      return false;
    return llvm::any_of(def->getOperands(), [&](Value x) { return fromData(x, depth + 1); });
  }

  /// Whether `to` is computed from `from` through ops of the same block (a stored value derived
  /// from a loaded one).
  static bool derivedFrom(Value to, Value from, unsigned depth = 0) {
    if (to == from)
      return true;
    Operation *def = to.getDefiningOp();
    if (!def || depth > 32 || def->getNumRegions())
      return false;
    return llvm::any_of(def->getOperands(), [&](Value x) { return derivedFrom(x, from, depth + 1); });
  }

  /// A read-modify-write of a shared element (a load, then a store of a value computed from it at
  /// the same indices, nothing ordering threads in between) whose index the data decides, run by
  /// threads of several warps: two of them hitting one element for some inputs lose an update.
  void verifyLostUpdates(AllocSmemOp alloc) {
    for (Operation *user : alloc.getBuffer().getUsers()) {
      auto store = dyn_cast<StoreOp>(user);
      if (!store || store->getParentOfType<RoleOp>())
        continue;
      for (Operation *prior = store->getPrevNode(); prior; prior = prior->getPrevNode()) {
        if (isSync(prior) || isWarpSync(prior))
          break;
        auto load = dyn_cast<LoadOp>(prior);
        if (!load || load.getSource() != store.getDest() || load.getIndices() != store.getIndices() ||
            !derivedFrom(store.getValue(), load.getResult()) ||
            !llvm::any_of(store.getIndices(), [](Value i) { return fromData(i); }))
          continue;
        ArrayRef<Reach> reach = model->reach(store);
        llvm::SmallDenseSet<int64_t, 4> warps;
        for (int64_t t = 0; t < model->getNumThreads(); ++t)
          if (reach[t].kind != Reach::Never)
            warps.insert(t / 32);
        if (warps.size() < 2)
          break;
        ok = false;
        InFlightDiagnostic diag =
            emitFinding(store, "race.lost-update")
            << "expected an atomic update: this store writes back a value computed from the "
               "load of the same shared element, at an index the data decides, in threads of "
            << warps.size() << " warps; for inputs where two of them compute the same index, "
                               "one update is lost";
        diag.attachNote(load.getLoc()) << "the load is here";
        attachFix(diag, store, "race.lost-update",
                  "replace the load and the store with cake.atomic_add of the increment on the "
                  "shared element");
        break;
      }
    }
  }

  void verifyBuffer(AllocSmemOp alloc) {
    verifyLostUpdates(alloc);
    SmallVector<Access> accesses;
    if (!collect(alloc.getBuffer(), accesses))
      return;
    buffer = alloc;
    llvm::sort(accesses, [&](const Access &a, const Access &b) { return pos(a.op) < pos(b.op); });
    for (size_t i = 0; i < accesses.size(); ++i)
      for (size_t j = i; j < accesses.size(); ++j) {
        const Access &x = accesses[i], &y = accesses[j];
        if (!x.write && !y.write)
          continue;
        if (i == j && x.role)
          continue; // one op in one role: the role's own threads (not checked)
        if (!x.role && !y.role)
          verifyPlainPair(x, y);
        else if (x.role && y.role)
          verifyRolePair(x, y);
        // An access in a role against one in plain code: not checked.
      }
  }
};
} // namespace
