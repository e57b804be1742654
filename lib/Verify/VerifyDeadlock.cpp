//===- VerifyDeadlock.cpp - wait-for cycles and barrier participation -----===//
//
// Two deadlock shapes that no single protocol check sees:
//
// deadlock.cyclic-wait: waits (mbarrier.wait, pipeline.consumer_wait / producer_acquire, named
// and block barriers) form a wait-for graph. An edge W -> W' (weight d) says: W at iteration n
// cannot pass before some thread passed W' at an iteration >= n - d, because every arrival that
// can complete the phase W waits for comes, in its thread, after W' (of the same loop iteration).
// Along a cycle of total weight <= 0, the first pass of W would have to follow itself: no thread
// ever passes any wait of the cycle, and the threads that reach one hang. Weights come from the
// pipeline's iteration numbers: consumer_wait(i) needs a producer_commit of iteration >= i;
// producer_acquire(i) a consumer_release of iteration >= i - stages, and passes freely for
// i < stages. A correct pipeline has a cycle acquire -> wait -> acquire of weight
// stages - (release lag) > 0. Rings whose phases could shift (parity aliasing, stray releases of
// negative iterations, more arrivals per iteration than the count) get no edges.
//
// deadlock.branch-participation: a barrier with a fixed count that fewer threads can ever reach
// than it counts (named barriers; mbarrier arrivals where cake-verify-mbarrier cannot decide the
// count): the branches around it keep the others away, and the threads that do arrive wait
// forever. Block barriers under divergent control flow are cake-verify-roles' (roles.divergent-
// barrier).
//
// Everything is conservative: an op whose loop nest or iteration the pass cannot follow has no
// edges, and only arrivals the pass can place bound a wait.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYDEADLOCKPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
constexpr int64_t kHuge = int64_t(1) << 32;

/// Where an op runs: once, or once per iteration of one scf.for (the only loop around it).
struct Scope {
  bool supported = false;
  scf::ForOp loop; // null: once
};

Scope scopeOf(Operation *op) {
  Scope scope;
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (scope.loop)
        return {}; // nested loops: iterations are not followed
      scope.loop = loop;
    } else if (!isa<scf::IfOp, WarpRolesOp, RoleOp>(parent)) {
      return {};
    }
  }
  scope.supported = true;
  return scope;
}

/// An edge of the wait-for graph: `to` must have passed (at iteration >= n - weight) before the
/// wait passes at iteration n; `via` is an arrival the wait needs that follows `to`.
struct Edge {
  unsigned to;
  int64_t weight;
  Operation *via;
};

/// A ring of mbarriers walked by a loop counting from 0 by 1: iteration n uses barrier
/// index(n) = index(n mod slots), `slots` distinct barriers, and waits on the parity of its round
/// n div slots, inverted or not (ringOf: judged by evaluating the index and parity at the loop's
/// first counters, so any spelling of the arithmetic is recognized).
struct Ring {
  int64_t slots = 0;
  bool inverted = false;
  SmallVector<int64_t> indices; // index(0 .. slots - 1)
};

struct Node {
  Operation *op;
  Scope scope;
  /// The first iteration at which the wait can block (producer_acquire passes freely before).
  int64_t threshold = 0;
  SmallVector<Edge> edges;
  /// The ring of an mbarrier wait in a loop, once mbarrierEdges recognized it.
  std::optional<Ring> ring;
};

struct CakeVerifyDeadlockPass
    : ModelCheckPass<CakeVerifyDeadlockPass, cake::impl::CakeVerifyDeadlockPassBase> {
  std::vector<Node> nodes;
  DenseMap<Operation *, unsigned> nodeOf;

  void verifyKernel(KernelOp kernel) {
    nodes.clear();
    nodeOf.clear();
    carriedMemo.clear();
    checkParticipation(kernel);
    checkCycles(kernel);
  }

  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  static bool isWait(Operation *op) {
    return isa<MbarrierWaitOp, PipelineConsumerWaitOp, PipelineProducerAcquireOp, NamedBarrierOp,
               BarrierOp, PipelineCreateOp>(op);
  }

  /// The constant `v` has in every thread; constants of an absurd size count as unknown, so that
  /// the iteration arithmetic below cannot overflow on fuzzed input.
  std::optional<int64_t> constant(Value v) {
    std::optional<int64_t> c = model->getConstant(v);
    if (c && (*c > kHuge || *c < -kHuge))
      return std::nullopt;
    return c;
  }

  /// Two loops whose iteration k has the same counter value: same bounds, a constant step.
  bool aligned(scf::ForOp a, scf::ForOp b) {
    if (a == b)
      return true;
    std::optional<int64_t> step = constant(a.getStep());
    return step && *step > 0 && model->sameValue(a.getStep(), b.getStep()) &&
           model->sameValue(a.getLowerBound(), b.getLowerBound()) &&
           model->sameValue(a.getUpperBound(), b.getUpperBound());
  }

  bool sameIterationSpace(const Scope &a, const Scope &b) {
    if (!a.supported || !b.supported || !a.loop != !b.loop)
      return false;
    return !a.loop || aligned(a.loop, b.loop);
  }

  /// An iteration operand as (counter of the op's loop) + offset, or a constant for ops that
  /// run once.
  std::optional<int64_t> iterationOffset(Value v, Scope scope) {
    if (!scope.loop)
      return constant(v);
    int64_t offset = 0;
    while (v != scope.loop.getInductionVar()) {
      Operation *def = v.getDefiningOp();
      if (!def || !isa<arith::AddIOp, arith::SubIOp>(def))
        return std::nullopt;
      std::optional<int64_t> rhs = constant(def->getOperand(1));
      std::optional<int64_t> lhs = constant(def->getOperand(0));
      if (rhs) {
        offset += isa<arith::SubIOp>(def) ? -*rhs : *rhs;
        v = def->getOperand(0);
      } else if (lhs && isa<arith::AddIOp>(def)) {
        offset += *lhs;
        v = def->getOperand(1);
      } else {
        return std::nullopt;
      }
      if (offset > kHuge || offset < -kHuge)
        return std::nullopt;
    }
    return offset;
  }

  /// True if `w` comes before `op` in one iteration of the same loop (or both run once), in
  /// program order; with `structural`, also in `op`'s block or an enclosing one (up to the
  /// loop), so that every thread executing `op` has passed `w` first.
  bool before(Operation *w, Operation *op, bool &structural) {
    Scope sw = scopeOf(w), so = scopeOf(op);
    if (!sw.supported || !so.supported || sw.loop != so.loop ||
        order.lookup(w) >= order.lookup(op))
      return false;
    Operation *stop = so.loop ? so.loop.getOperation() : nullptr;
    structural = false;
    for (Operation *at = op; at && at != stop && !isa<KernelOp>(at); at = at->getParentOp())
      if (at->getBlock() == w->getBlock() && w->isBeforeInBlock(at))
        structural = true;
    return true;
  }

  /// True if every thread that may execute `op` has passed the wait `w` before it, in the same
  /// iteration: `w` precedes it structurally, or each of these threads certainly executes `w`.
  bool precedesInAll(Operation *w, Operation *op) {
    bool structural;
    if (!before(w, op, structural))
      return false;
    if (structural)
      return true;
    llvm::BitVector threads = model->executors(op).threads;
    ArrayRef<Reach> reach = model->reach(w);
    return threads.any() && llvm::all_of(threads.set_bits(), [&](unsigned t) {
             return reach[t].kind == Reach::Always;
           });
  }

  /// True if some thread that may execute `op` has certainly passed `w` before it.
  bool precedesInSome(Operation *w, Operation *op) {
    bool structural;
    if (!before(w, op, structural))
      return false;
    if (structural)
      return model->executors(op).threads.any();
    llvm::BitVector threads = model->executors(op).threads;
    ArrayRef<Reach> reach = model->reach(w);
    return llvm::any_of(threads.set_bits(),
                        [&](unsigned t) { return reach[t].kind == Reach::Always; });
  }

  std::string describeWait(Operation *op) {
    if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
      std::optional<int64_t> index = constant(wait.getIndex());
      auto it = nodeOf.find(op);
      const std::optional<Ring> *ring = it == nodeOf.end() ? nullptr : &nodes[it->second].ring;
      if (index || !ring || !*ring)
        return "mbarrier " + (index ? std::to_string(*index) : std::string("?"));
      std::string text = "the ring of mbarriers";
      for (int64_t i : (*ring)->indices)
        text += " " + std::to_string(i);
      return text + ((*ring)->inverted ? " (round r on the inverse of r's parity: round 0 passes)"
                                    : " (round r on r's parity: round 0 waits for a first completion)");
    }
    if (isa<PipelineConsumerWaitOp>(op))
      return "the pipeline's full barrier";
    if (isa<PipelineProducerAcquireOp>(op))
      return "the pipeline's empty barrier";
    if (auto named = dyn_cast<NamedBarrierOp>(op))
      return "named barrier " + std::to_string(named.getId());
    return "the block barrier";
  }

  void addNotesForBranches(InFlightDiagnostic &diag, Operation *op) {
    if (Operation *divergent = model->findDivergentAncestor(op))
      diag.attachNote(divergent->getLoc())
          << "this " << divergent->getName() << " decides which threads get there";
    if (auto role = op->getParentOfType<RoleOp>())
      diag.attachNote(role.getLoc()) << "only the warps of " << describeRole(role) << " run it";
  }

  //===--------------------------------------------------------------------===//
  // deadlock.branch-participation
  //===--------------------------------------------------------------------===//

  void checkParticipation(KernelOp kernel) {
    // Named barriers: a phase needs `threads` arrivals and a waiting thread cannot arrive twice,
    // so a barrier fewer threads can reach than it counts never completes.
    llvm::MapVector<int64_t, SmallVector<NamedBarrierOp>> byId;
    kernel.walk([&](NamedBarrierOp op) { byId[op.getId()].push_back(op); });
    for (auto &[id, ops] : byId) {
      int64_t threads = ops.front().getThreads();
      if (llvm::any_of(ops, [&](NamedBarrierOp op) {
            return static_cast<int64_t>(op.getThreads()) != threads;
          }))
        continue; // mixed counts: the id-collision rule's business
      llvm::BitVector reach(model->getNumThreads());
      for (NamedBarrierOp op : ops)
        reach |= model->executors(op).threads;
      // The hardware counts arrivals by warp (bar.sync is .aligned; a partial warp is
      // roles.partial-warp): a warp that can reach the barrier brings all its threads.
      int64_t can = 0;
      for (int64_t lo = 0, n = model->getNumThreads(); lo < n; lo += 32) {
        int64_t hi = std::min(n, lo + 32);
        if (reach.find_first_in(lo, hi) != -1)
          can += hi - lo;
      }
      if (can == 0 || can >= threads)
        continue;
      ok = false;
      NamedBarrierOp first = ops.front();
      InFlightDiagnostic diag = emitFinding(first, "deadlock.branch-participation")
                                << "expected " << threads << " threads to arrive at named barrier "
                                << id << ", but at most " << can
                                << " can reach it: the others take another branch, and the "
                                   "threads that arrive wait forever";
      addNotesForBranches(diag, first);
      for (NamedBarrierOp op : ArrayRef(ops).drop_front())
        diag.attachNote(op.getLoc()) << "also arrives here";
      attachFix(diag, first, "deadlock.branch-participation",
                "execute the barrier in every participating thread (outside the branch), or set "
                "threads " +
                    std::to_string(can) + " if only these threads synchronize");
    }

    // mbarriers: arrivals outside loops happen at most once per thread, so the threads that can
    // arrive bound the arrivals of phase 0. cake-verify-mbarrier reports the count when every
    // arrival's threads are known exactly (mbarrier.arrival-count); this covers the rest.
    kernel.walk([&](MbarrierAllocOp alloc) {
      Value bars = alloc.getBarriers();
      SmallVector<MbarrierInitOp> inits;
      SmallVector<Operation *> arrivals, waits;
      for (Operation *user : bars.getUsers()) {
        if (auto init = dyn_cast<MbarrierInitOp>(user))
          inits.push_back(init);
        else if (isMbarrierArrival(user))
          arrivals.push_back(user);
        else if (isa<MbarrierWaitOp>(user))
          waits.push_back(user);
      }
      auto indexOf = [&](Operation *op) { return constant(op->getOperand(1)); };
      if (llvm::any_of(arrivals, [&](Operation *op) { return !indexOf(op); }))
        return;
      for (MbarrierInitOp init : inits) {
        std::optional<int64_t> index = constant(init.getIndex());
        if (!index || llvm::count_if(inits, [&](MbarrierInitOp other) {
              return constant(other.getIndex()) == index;
            }) != 1)
          continue;
        SmallVector<Operation *> mine;
        for (Operation *op : arrivals)
          if (indexOf(op) == index)
            mine.push_back(op);
        if (mine.empty())
          continue; // mbarrier.no-arrive
        int64_t can = 0;
        bool exact = true, inLoop = false;
        std::optional<Reach> common;
        for (Operation *op : mine) {
          Executors ex = model->executors(op);
          can += ex.count();
          exact &= ex.exact;
          if (ex.exact && ex.count()) {
            const Reach &r = model->reach(op)[ex.threads.find_first()];
            if (common && *common != r)
              exact = false;
            common = r;
          }
          inLoop |= op->getParentOfType<scf::ForOp>() || op->getParentOfType<scf::WhileOp>();
        }
        int64_t count = init.getCount();
        if (inLoop || exact || can >= count)
          continue;
        // Someone must wait for phase 0 for the shortfall to hang.
        Operation *wait = nullptr;
        for (Operation *op : waits) {
          auto w = cast<MbarrierWaitOp>(op);
          std::optional<int64_t> parity = constant(w.getParity());
          if (constant(w.getIndex()) == index && parity && (*parity & 1) == 0) {
            wait = op;
            break;
          }
        }
        if (!wait)
          continue;
        ok = false;
        Operation *first = mine.front();
        InFlightDiagnostic diag = emitFinding(first, "deadlock.branch-participation")
                                  << "expected " << count << " arrivals on mbarrier " << *index
                                  << " (the init's count), but at most " << can
                                  << " threads can arrive: the others take another branch, and "
                                     "the wait for phase 0 never returns";
        for (Operation *op : mine)
          if (Operation *divergent = model->findDivergentAncestor(op)) {
            diag.attachNote(divergent->getLoc())
                << "this " << divergent->getName() << " decides which threads arrive";
            break;
          }
        diag.attachNote(init.getLoc()) << "initialized here with " << count << " arrivals per phase";
        diag.attachNote(wait->getLoc()) << "waits for phase 0 here";
        // Which of the threads that can arrive do arrive is not known here (that is why
        // mbarrier.arrival-count did not judge it): lowering the count to them is no fix.
        attachFix(diag, first, "deadlock.branch-participation",
                  "make each of the " + std::to_string(count) +
                      " counted threads arrive exactly once per phase on every path (add the "
                      "arrive to the other branches, or move it out of the conditions); a count "
                      "lowered to the " +
                      std::to_string(can) +
                      " threads that can arrive still hangs when the data keeps some of them out");
      }
    });
  }

  //===--------------------------------------------------------------------===//
  // deadlock.cyclic-wait: the graph
  //===--------------------------------------------------------------------===//

  unsigned addNode(Operation *op) {
    auto [it, inserted] = nodeOf.try_emplace(op, nodes.size());
    if (inserted)
      nodes.push_back(Node{op, scopeOf(op), 0, {}, std::nullopt});
    return it->second;
  }

  /// Edges of an arrival-completed wait: to every wait that precedes all its possible arrivals
  /// (each with the iteration distance it is served from), weight the largest distance.
  void addArrivalEdges(unsigned w, ArrayRef<std::pair<Operation *, int64_t>> arrivals) {
    if (arrivals.empty())
      return;
    for (unsigned target = 0; target < nodes.size(); ++target) {
      bool all = true;
      for (auto &[arrival, distance] : arrivals) {
        if (!precedesInAll(nodes[target].op, arrival)) {
          all = false;
          break;
        }
      }
      if (!all)
        continue;
      int64_t weight = INT64_MIN;
      for (auto &[arrival, distance] : arrivals)
        weight = std::max(weight, distance);
      nodes[w].edges.push_back({target, weight, arrivals.front().first});
    }
  }

  /// True if every thread that executes `op` does so in every iteration of `loop`: the
  /// conditions between them are known per thread (thread ids, not loop counters or data).
  bool everyIteration(Operation *op, scf::ForOp loop) {
    for (Operation *parent = op->getParentOp(); parent && parent != loop.getOperation();
         parent = parent->getParentOp())
      if (auto ifOp = dyn_cast<scf::IfOp>(parent))
        if (llvm::any_of(model->eval(ifOp.getCondition()),
                         [](const Lat &l) { return l.kind != Lat::Known; }))
          return false;
    return true;
  }

  /// A lower bound on the counter of `loop` where `op` executes: the lower bound, raised by the
  /// conditions of the scf.if ops whose then-branch holds `op` (`counter + k >= c`, also through
  /// arith.andi; unsigned comparisons only where counter + k cannot wrap).
  std::optional<int64_t> counterLowerBound(Operation *op, scf::ForOp loop) {
    std::optional<int64_t> lb = constant(loop.getLowerBound());
    if (!lb)
      return std::nullopt;
    Scope scope{true, loop};
    SmallVector<Value> conds;
    for (Operation *at = op; at->getParentOp() != loop.getOperation(); at = at->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(at->getParentOp());
      if (ifOp && at->getParentRegion() == &ifOp.getThenRegion())
        conds.push_back(ifOp.getCondition());
    }
    int64_t bound = *lb;
    for (int pass = 0; pass < 2; ++pass) {
      SmallVector<Value> work = conds;
      while (!work.empty()) {
        Value cond = work.pop_back_val();
        auto cmp = cond.getDefiningOp<arith::CmpIOp>();
        if (!cmp) {
          if (auto both = cond.getDefiningOp<arith::AndIOp>()) {
            work.push_back(both.getLhs());
            work.push_back(both.getRhs());
          }
          continue;
        }
        using P = arith::CmpIPredicate;
        P pred = cmp.getPredicate();
        Value x = cmp.getLhs();
        std::optional<int64_t> c = constant(cmp.getRhs());
        if (!c) { // `c <= x` and the like, the other way round
          x = cmp.getRhs();
          c = constant(cmp.getLhs());
          pred = pred == P::ule   ? P::uge
                 : pred == P::ult ? P::ugt
                 : pred == P::sle ? P::sge
                 : pred == P::slt ? P::sgt
                 : pred == P::eq  ? P::eq
                                  : P::ne;
        }
        std::optional<int64_t> k = iterationOffset(x, scope);
        if (!c || !k)
          continue;
        bool isUnsigned = pred == P::uge || pred == P::ugt;
        if (isUnsigned && bound + *k < 0)
          continue;
        if (pred == P::sge || pred == P::uge || pred == P::eq)
          bound = std::max(bound, *c - *k);
        else if (pred == P::sgt || pred == P::ugt)
          bound = std::max(bound, *c + 1 - *k);
      }
    }
    return bound;
  }

  /// Pipeline waits: consumer_wait(i) needs a producer_commit of iteration >= i, and
  /// producer_acquire(i) a consumer_release of iteration >= i - stages (`shift`). This holds when
  /// the barrier of each slot completes its phases in iteration order: the waiting thread waits
  /// on every round of the slot (a loop from a first round that cannot alias by parity, by one,
  /// every iteration), and the arrivals are one iteration number per loop iteration (one offset),
  /// never negative (a stray release completes a later round early), at most `count` per
  /// iteration (1 commit, `consumers` releases). Then round r needs r (or r + 1) phases, which
  /// the arrivals of earlier iterations of the slot cannot complete.
  template <typename ArrivalOp>
  void pipelineEdges(unsigned w, Value pipe, Value iteration, int64_t shift, int64_t count) {
    Node &node = nodes[w];
    int64_t stages = cast<PipelineType>(pipe.getType()).getStages();
    std::optional<int64_t> a = iterationOffset(iteration, node.scope);
    if (!a)
      return;
    // The first value the wait sees; it must block on round 0 (wait) or round 1 (acquire).
    int64_t first = *a, lo = shift ? stages : 0;
    if (scf::ForOp loop = node.scope.loop) {
      std::optional<int64_t> lb = constant(loop.getLowerBound());
      if (!lb || constant(loop.getStep()) != 1 || !everyIteration(node.op, loop))
        return;
      first += *lb;
      if (first < 0 || first >= lo + stages)
        return;
      node.threshold = std::max<int64_t>(0, lo - first);
    } else if (first < lo || first >= lo + stages) {
      return;
    }
    SmallVector<std::pair<Operation *, int64_t>> arrivals;
    std::optional<int64_t> offset;
    DenseMap<int64_t, int64_t> perValue; // arrivals per iteration number (once) or iteration
    for (Operation *user : pipe.getUsers()) {
      auto arrival = dyn_cast<ArrivalOp>(user);
      if (!arrival)
        continue;
      Scope scope = scopeOf(arrival);
      std::optional<int64_t> b = iterationOffset(arrival.getIteration(), scope);
      if (!sameIterationSpace(node.scope, scope) || !b)
        return; // an arrival the pass cannot place may serve this wait
      int64_t threads = model->executors(arrival).count();
      if (!node.scope.loop) {
        if (*b < 0 || (perValue[*b] += threads) > count)
          return;
        if (*b >= first + shift)
          arrivals.push_back({arrival, 0});
        continue;
      }
      std::optional<int64_t> low = counterLowerBound(arrival, scope.loop);
      if ((offset && *offset != *b) || !low || *low + *b < 0 || (perValue[0] += threads) > count)
        return;
      offset = b;
      // Iteration m of the arrival has number lb + m + b >= lb + n + a + shift when
      // m >= n - (b - a - shift).
      arrivals.push_back({arrival, *b - *a - shift});
    }
    addArrivalEdges(w, arrivals);
  }

  /// The value of `v` in the iteration of `loop` whose counter is `n`, given the values of its
  /// iteration arguments there (`carried`, unknown where nullopt): folded through arith and index
  /// ops down to the counter, those arguments and values the same in every thread.
  std::optional<int64_t> valueAt(Value v, scf::ForOp loop, int64_t n,
                                 ArrayRef<std::optional<int64_t>> carried = {}) {
    DenseMap<Value, int64_t> bound{{loop.getInductionVar(), n}};
    for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), carried))
      if (value)
        bound[arg] = *value;
    return evaluateWith(*model, v, /*thread=*/-1, bound);
  }

  /// The loop's iteration arguments at the start of each of its first kRingSamples iterations
  /// (counter 0, 1, ...), run from their initial values through the yield: a ring's slot and
  /// phase carried from iteration to iteration (CUTLASS's PipelineState style). Unknown values
  /// (data, an unknown initial value) stay unknown.
  ArrayRef<SmallVector<std::optional<int64_t>>> carriedValues(scf::ForOp loop) {
    auto [it, inserted] = carriedMemo.try_emplace(loop.getOperation());
    if (!inserted)
      return it->second;
    std::vector<SmallVector<std::optional<int64_t>>> seq;
    SmallVector<std::optional<int64_t>> state;
    for (Value init : loop.getInitArgs())
      state.push_back(constant(init));
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (int64_t n = 0; n < kRingSamples; ++n) {
      seq.push_back(state);
      SmallVector<std::optional<int64_t>> next;
      for (Value v : yield.getOperands())
        next.push_back(valueAt(v, loop, n, seq.back()));
      state = std::move(next);
    }
    return carriedMemo[loop.getOperation()] = std::move(seq);
  }
  DenseMap<Operation *, std::vector<SmallVector<std::optional<int64_t>>>> carriedMemo;

  static constexpr int64_t kMaxSlots = 16, kRingSamples = 4 * kMaxSlots;

  std::optional<SmallVector<int64_t>> sample(Value v, scf::ForOp loop) {
    SmallVector<int64_t> out;
    ArrayRef<SmallVector<std::optional<int64_t>>> carried = carriedValues(loop);
    for (int64_t n = 0; n < kRingSamples; ++n) {
      std::optional<int64_t> x = valueAt(v, loop, n, carried[n]);
      if (!x)
        return std::nullopt;
      out.push_back(*x);
    }
    return out;
  }

  std::optional<Ring> ringOf(MbarrierWaitOp wait, scf::ForOp loop) {
    std::optional<SmallVector<int64_t>> index = sample(wait.getIndex(), loop);
    std::optional<SmallVector<int64_t>> parity = sample(wait.getParity(), loop);
    if (!index || !parity)
      return std::nullopt;
    for (int64_t slots = 1; slots <= kMaxSlots; ++slots) {
      bool periodic = true;
      for (int64_t n = slots; n < kRingSamples && periodic; ++n)
        periodic = (*index)[n] == (*index)[n % slots];
      if (!periodic)
        continue;
      Ring ring{slots, false, SmallVector<int64_t>(index->begin(), index->begin() + slots)};
      SmallVector<int64_t> sorted(ring.indices);
      llvm::sort(sorted);
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return std::nullopt; // one barrier twice per period: its rounds are not the loop's
      ring.inverted = (((*parity)[0] & 1) != 0);
      for (int64_t n = 0; n < kRingSamples; ++n)
        if ((((*parity)[n] & 1) != 0) != ((((n / slots) & 1) != 0) != ring.inverted))
          return std::nullopt;
      return ring;
    }
    return std::nullopt;
  }

  /// The barriers an init sets up: its constant index, or each value of its index over the
  /// iterations of a constant loop around it (scf.for %s = 0 to 4 { init %bars[%s] }).
  SmallVector<int64_t> initializedIndices(MbarrierInitOp init) {
    if (std::optional<int64_t> at = constant(init.getIndex()))
      return {*at};
    auto loop = dyn_cast<scf::ForOp>(init->getParentOp());
    if (!loop)
      return {};
    std::optional<int64_t> lb = constant(loop.getLowerBound()), ub = constant(loop.getUpperBound()),
                           step = constant(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || (*ub - *lb) / *step > kRingSamples)
      return {};
    SmallVector<int64_t> out;
    for (int64_t n = *lb; n < *ub; n += *step) {
      std::optional<int64_t> at = valueAt(init.getIndex(), loop, n);
      if (!at)
        return {};
      out.push_back(*at);
    }
    return out;
  }

  /// mbarrier waits with a known first blocking phase: a wait outside loops on parity 0 (it
  /// passes only once a phase completed: after some arrival), or a wait in every iteration of a
  /// loop counting from 0 by 1 on a ring of barriers (ringOf; one barrier is a ring of one slot)
  /// with at most `count` arrivals per iteration, each on the barrier the wait uses in that
  /// iteration. Then the barrier of iteration n completes its phases in rounds: the wait in round
  /// r = n div slots needs phase r (parity r mod 2) or, inverted, phase r - 1, which the arrivals
  /// of the iterations before n - (0 or slots) cannot complete.
  void mbarrierEdges(unsigned w, MbarrierWaitOp wait) {
    Node &node = nodes[w];
    Value bars = wait.getBarriers();
    scf::ForOp loop = node.scope.loop;
    std::optional<Ring> ring;
    if (!loop) {
      std::optional<int64_t> parity = constant(wait.getParity());
      std::optional<int64_t> index = constant(wait.getIndex());
      if (!index || !parity || (*parity & 1) != 0)
        return;
      ring = Ring{1, false, {*index}};
    } else {
      if (constant(loop.getLowerBound()) != 0 || constant(loop.getStep()) != 1 ||
          !everyIteration(wait, loop))
        return;
      ring = ringOf(wait, loop);
      if (!ring)
        return;
      node.ring = ring;
    }
    DenseMap<int64_t, int64_t> counts;
    SmallVector<std::pair<Operation *, int64_t>> arrivals;
    int64_t perIteration = 0;
    bool exact = true;
    int64_t distance = ring->inverted ? ring->slots : 0;
    for (Operation *user : bars.getUsers()) {
      if (auto init = dyn_cast<MbarrierInitOp>(user)) {
        // An init at an index the pass cannot evaluate leaves its barrier's count unknown
        // (below: no edges in loops).
        for (int64_t at : initializedIndices(init))
          if (llvm::is_contained(ring->indices, at) && !counts.try_emplace(at, init.getCount()).second)
            return; // initialized twice
        continue;
      }
      if (!isMbarrierArrival(user))
        continue;
      Value index = user->getOperand(1);
      std::optional<int64_t> at = constant(index);
      if (at && !llvm::is_contained(ring->indices, *at))
        continue;
      Scope scope = scopeOf(user);
      if (!sameIterationSpace(node.scope, scope))
        return; // an arrival the pass cannot place may serve this wait
      if (loop) {
        // The arrival of iteration m targets the barrier the wait uses in iteration m, or never
        // one of the ring's (another ring's arrival).
        std::optional<SmallVector<int64_t>> targets = sample(index, scope.loop);
        if (!targets)
          return;
        bool same = true, disjoint = true;
        for (int64_t n = 0; n < kRingSamples; ++n) {
          same &= (*targets)[n] == ring->indices[n % ring->slots];
          disjoint &= !llvm::is_contained(ring->indices, (*targets)[n]);
        }
        if (disjoint)
          continue;
        if (!same)
          return;
      } else if (!at) {
        return;
      }
      Executors ex = model->executors(user);
      perIteration += ex.count();
      exact &= ex.exact;
      arrivals.push_back({user, distance});
    }
    bool everyArrivalNeeded = loop && exact && !arrivals.empty();
    for (int64_t index : ring->indices) {
      auto it = counts.find(index);
      if (loop && (it == counts.end() || perIteration > it->second))
        return;
      everyArrivalNeeded &= it != counts.end() && perIteration == it->second;
    }
    // When the arrivals of an iteration are exactly the count (several roles, each arriving with
    // part of it), the phase needs every one of them: the wait depends on the waits before each
    // arrival, not only on those before all of them.
    if (everyArrivalNeeded) {
      for (auto &arrival : arrivals)
        addArrivalEdges(w, arrival);
      return;
    }
    addArrivalEdges(w, arrivals);
  }

  /// Barriers (bar.sync): a phase needs every counted thread. When the threads that can arrive
  /// are exactly the count, each arriving thread passes its own earlier waits first: edges to
  /// all of them. Either every op is executed by the same threads (each op is a phase of its
  /// own), or the ops split the threads between them in one iteration space (one phase per
  /// iteration).
  void barrierEdges(ArrayRef<Operation *> ops, int64_t threads) {
    if (ops.empty())
      return;
    SmallVector<Executors> ex;
    for (Operation *op : ops) {
      ex.push_back(model->executors(op));
      if (!ex.back().exact || !nodes[nodeOf.lookup(op)].scope.supported)
        return;
    }
    bool identical = llvm::all_of(ex, [&](const Executors &e) {
      return e.threads == ex.front().threads && e.count() == threads;
    });
    bool split = !identical;
    if (split) {
      llvm::BitVector all(model->getNumThreads());
      int64_t sum = 0;
      for (const Executors &e : ex) {
        if (all.anyCommon(e.threads))
          return;
        all |= e.threads;
        sum += e.count();
      }
      if (sum != threads)
        return;
      Scope first = nodes[nodeOf.lookup(ops.front())].scope;
      for (Operation *op : ops)
        if (!sameIterationSpace(first, nodes[nodeOf.lookup(op)].scope))
          return;
    }
    for (Operation *op : ops) {
      unsigned w = nodeOf.lookup(op);
      SmallVector<unsigned> partners;
      if (split)
        for (Operation *other : ops)
          partners.push_back(nodeOf.lookup(other));
      else
        partners.push_back(w);
      // Every counted thread must arrive, each after its own earlier waits.
      for (unsigned target = 0; target < nodes.size(); ++target)
        for (unsigned p : partners)
          if (precedesInSome(nodes[target].op, nodes[p].op)) {
            nodes[w].edges.push_back({target, 0, nodes[p].op});
            break;
          }
    }
  }

  void buildGraph(KernelOp kernel) {
    kernel.walk([&](Operation *op) {
      if (isWait(op) && scopeOf(op).supported)
        addNode(op);
    });
    for (unsigned w = 0, e = nodes.size(); w < e; ++w) {
      Operation *op = nodes[w].op;
      if (auto wait = dyn_cast<PipelineConsumerWaitOp>(op)) {
        pipelineEdges<PipelineProducerCommitOp>(w, wait.getPipeline(), wait.getIteration(), 0,
                                                /*count=*/1);
      } else if (auto acquire = dyn_cast<PipelineProducerAcquireOp>(op)) {
        if (auto create = acquire.getPipeline().getDefiningOp<PipelineCreateOp>())
          pipelineEdges<PipelineConsumerReleaseOp>(w, acquire.getPipeline(),
                                                   acquire.getIteration(),
                                                   -acquire.getPipeline().getType().getStages(),
                                                   create.getConsumers());
      } else if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
        mbarrierEdges(w, wait);
      }
    }
    // Barriers, grouped by id (0: cake.barrier and the barrier ending pipeline.create).
    llvm::MapVector<int64_t, SmallVector<Operation *>> byId;
    kernel.walk([&](Operation *op) {
      if (!isa<NamedBarrierOp, BarrierOp, PipelineCreateOp>(op))
        return;
      auto named = dyn_cast<NamedBarrierOp>(op);
      byId[named ? static_cast<int64_t>(named.getId()) : 0].push_back(op);
    });
    for (auto &[id, ops] : byId) {
      // A barrier op the pass cannot place (nested loops) may arrive in any phase.
      if (llvm::any_of(ops, [&](Operation *op) { return !nodeOf.count(op); }))
        continue;
      int64_t threads = model->getNumThreads();
      if (id != 0) {
        threads = cast<NamedBarrierOp>(ops.front()).getThreads();
        if (llvm::any_of(ops, [&](Operation *op) {
              return static_cast<int64_t>(cast<NamedBarrierOp>(op).getThreads()) != threads;
            }))
          continue;
      }
      barrierEdges(ops, threads);
    }
  }

  //===--------------------------------------------------------------------===//
  // deadlock.cyclic-wait: cycles of total weight <= 0
  //===--------------------------------------------------------------------===//

  /// A cycle as the edges taken from each node (nodes[i] -> edges[i].to).
  struct Cycle {
    SmallVector<unsigned> nodes;
    SmallVector<Edge> edges;
  };

  /// Finds, per start node, a shortest simple cycle through it (over nodes numbered >= start)
  /// whose weight is at most 0. The graphs are small; the search is bounded anyway.
  SmallVector<Cycle> findCycles() {
    SmallVector<Cycle> cycles;
    int64_t budget = 200000;
    for (unsigned start = 0; start < nodes.size(); ++start) {
      std::optional<Cycle> found;
      for (unsigned length = 1; length <= 8 && !found && budget > 0; ++length) {
        Cycle path;
        path.nodes.push_back(start);
        std::function<bool(unsigned, int64_t)> dfs = [&](unsigned at, int64_t weight) -> bool {
          if (--budget <= 0)
            return false;
          for (const Edge &edge : nodes[at].edges) {
            if (path.nodes.size() == length) {
              if (edge.to == start && weight + edge.weight <= 0) {
                path.edges.push_back(edge);
                if (feasible(path))
                  return true;
                path.edges.pop_back();
              }
              continue;
            }
            if (edge.to <= start || llvm::is_contained(path.nodes, edge.to))
              continue;
            path.nodes.push_back(edge.to);
            path.edges.push_back(edge);
            if (dfs(edge.to, weight + edge.weight))
              return true;
            path.nodes.pop_back();
            path.edges.pop_back();
          }
          return false;
        };
        if (dfs(start, 0))
          found = path;
      }
      if (found)
        cycles.push_back(*found);
    }
    return cycles;
  }

  /// The first iteration at which the cycle closes (every wait of it blocks), if the loops can
  /// get there, and some thread certainly reaches one of its waits.
  std::optional<int64_t> firstIteration(const Cycle &cycle) {
    // Wait i is met at iteration n - P_i (P_i: the weights before it) and blocks from its
    // threshold on: n >= threshold_i + P_i. Any wait of the cycle may come first.
    std::optional<int64_t> best;
    size_t k = cycle.nodes.size();
    for (size_t r = 0; r < k; ++r) {
      int64_t prefix = 0, need = 0;
      for (size_t j = 0; j < k; ++j) {
        size_t i = (r + j) % k;
        need = std::max(need, nodes[cycle.nodes[i]].threshold + prefix);
        prefix += cycle.edges[i].weight;
      }
      if (!best || need < *best)
        best = need;
    }
    return best;
  }

  bool feasible(const Cycle &cycle) {
    std::optional<int64_t> first = firstIteration(cycle);
    if (!first)
      return false;
    // A loop with a constant trip count may end before the cycle closes.
    if (scf::ForOp loop = nodes[cycle.nodes.front()].scope.loop) {
      std::optional<int64_t> lb = constant(loop.getLowerBound());
      std::optional<int64_t> ub = constant(loop.getUpperBound());
      std::optional<int64_t> step = constant(loop.getStep());
      if (lb && ub && step && *step > 0 && (*ub - *lb + *step - 1) / *step <= *first)
        return false;
    } else if (*first > 0) {
      return false;
    }
    return llvm::any_of(cycle.nodes, [&](unsigned n) {
      return llvm::any_of(model->reach(nodes[n].op),
                          [](const Reach &r) { return r.kind == Reach::Always; });
    });
  }

  /// Whether `arrival`, which follows `wait` in its thread, publishes data: a producer_commit, an
  /// arrive_expect_tx (its copies complete the phase), or an arrive after a write to shared
  /// memory that follows the wait (through the loop's back edge when the arrival comes first).
  /// Such an arrival cannot move above the wait without publishing the slot before it is written.
  bool publishesData(Operation *wait, Operation *arrival) {
    if (isa<PipelineProducerCommitOp, MbarrierArriveExpectTxOp>(arrival))
      return true;
    if (isa<PipelineConsumerReleaseOp>(arrival))
      return false;
    unsigned from = order.lookup(wait), to = order.lookup(arrival);
    Operation *loop = nullptr;
    if (to < from) {
      for (Operation *p = arrival->getParentOp(); p && !loop; p = p->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(p) && p->isProperAncestor(wait))
          loop = p;
      if (!loop)
        return false;
    }
    auto writesSmem = [](Operation *op) {
      return llvm::any_of(getMemoryAccesses(op), [](const MemoryAccess &a) {
        return a.isWrite() && isa<SmemType>(a.buffer.getType());
      });
    };
    for (auto &[op, at] : order) {
      bool between = loop ? loop->isProperAncestor(op) && (at > from || at < to)
                          : at > from && at < to;
      if (between && writesSmem(op))
        return true;
    }
    return false;
  }

  void checkCycles(KernelOp kernel) {
    buildGraph(kernel);
    DenseSet<Operation *> reported;
    for (Cycle &cycle : findCycles()) {
      // Report at the wait that comes first in program order.
      size_t k = cycle.nodes.size(), r = 0;
      for (size_t i = 1; i < k; ++i)
        if (order.lookup(nodes[cycle.nodes[i]].op) < order.lookup(nodes[cycle.nodes[r]].op))
          r = i;
      std::rotate(cycle.nodes.begin(), cycle.nodes.begin() + r, cycle.nodes.end());
      std::rotate(cycle.edges.begin(), cycle.edges.begin() + r, cycle.edges.end());
      Operation *at = nodes[cycle.nodes.front()].op;
      if (!reported.insert(at).second)
        continue;
      int64_t first = firstIteration(cycle).value_or(0);
      ok = false;
      InFlightDiagnostic diag = emitFinding(at, "deadlock.cyclic-wait");
      if (k == 1)
        diag << "expected an arrival that can complete this wait, but the arrivals it needs come "
                "only after it has passed: the wait waits for itself";
      else
        diag << "expected an arrival that can complete this wait, but " << k
             << " waits form a wait-for cycle: each needs an arrival that comes only after the "
                "next one has passed";
      if (first > 0)
        diag << " (the cycle closes in iteration " << first << " of the loop)";
      for (size_t i = 0; i < k; ++i) {
        Operation *wait = nodes[cycle.nodes[i]].op;
        Operation *next = nodes[cycle.edges[i].to].op;
        if (i > 0)
          diag.attachNote(wait->getLoc()) << "waits on " << describeWait(wait) << " here";
        if (cycle.edges[i].via != wait)
          diag.attachNote(cycle.edges[i].via->getLoc())
              << "the wait on " << describeWait(wait) << " needs this arrival, which comes after "
              << (next == wait ? "that wait itself" : "the wait on " + describeWait(next));
      }
      bool throughAcquire = llvm::any_of(cycle.nodes, [&](unsigned n) {
        return isa<PipelineProducerAcquireOp>(nodes[n].op);
      });
      // A ring wait on its round's own parity blocks in round 0: for an 'empty' ring (slots that
      // start free) the usual bug is the parity, not the order.
      bool ringFromZero = llvm::any_of(cycle.nodes, [&](unsigned n) {
        const std::optional<Ring> &ring = nodes[n].ring;
        return ring && ring->slots > 1 && !ring->inverted;
      });
      // Which arrivals of the cycle publish data (must stay after their writes) and which only
      // free a slot (may move above the wait they follow).
      int64_t publishing = 0, freeing = 0;
      for (size_t i = 0; i < k; ++i) {
        Operation *via = cycle.edges[i].via, *after = nodes[cycle.edges[i].to].op;
        if (via == after)
          continue;
        ++(publishesData(after, via) ? publishing : freeing);
      }
      attachFix(diag, at, "deadlock.cyclic-wait",
                throughAcquire
                    ? "break the cycle: release each stage fewer than `stages` iterations after "
                      "its consumer_wait (and wait fewer iterations ahead), so that the producer "
                      "can acquire the slot before the consumer needs its next stage"
                : ringFromZero
                    ? "break the cycle: a ring whose slots start free (the producer's 'empty' "
                      "barriers) is waited on with the inverse of the round's parity, "
                      "(round mod 2) xor 1, so that round 0 passes; or move an arrival above the "
                      "wait it follows"
                : publishing && freeing
                    ? "break the cycle: move an arrival that frees a slot (an arrive on a "
                      "barrier the producer waits on before writing, consumer_release) above the "
                      "wait it follows, so that one wait of the cycle can pass; an arrival that "
                      "publishes data (producer_commit, an arrive after the writes) must stay "
                      "after those writes"
                : publishing
                    ? "break the cycle: every arrival in it publishes data written after the "
                      "wait it follows, so none can move above its wait; let one thread's first "
                      "write go ahead (its first wait on a barrier whose slot starts free takes "
                      "parity 1)"
                    : "break the cycle: in one of the threads, move the arrival (arrive, "
                      "producer_commit, consumer_release) above the wait it follows, so that one "
                      "wait of the cycle can pass");
    }
  }
};
} // namespace
