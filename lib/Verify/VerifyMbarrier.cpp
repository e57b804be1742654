//===- VerifyMbarrier.cpp - the mbarrier protocol -------------------------===//
#include "Cake/Analysis/IndexRange.h"
#include "PathSimulation.h"
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYMBARRIERPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// One use of a barrier array at an index.
struct Use {
  Operation *op;
  Value index;
};

std::string indexText(ThreadModel &model, Value index) {
  if (std::optional<int64_t> c = model.getConstant(index))
    return std::to_string(*c);
  return "?";
}

/// Every op nested in `block` (at any depth).
template <typename Fn> void walkBlock(Block *block, Fn fn) {
  for (Operation &op : *block)
    op.walk(fn);
}

/// The bytes a cluster launch control answer completes on its barrier.
constexpr int64_t kClcAnswerBytes = 16;

struct BarrierArray {
  MbarrierAllocOp alloc;
  SmallVector<MbarrierInitOp> inits;
  SmallVector<Operation *> arrives; // mbarrier.arrive, tcgen05.commit
  SmallVector<MbarrierArriveExpectTxOp> expects;
  SmallVector<MbarrierWaitOp> waits;
  SmallVector<TmaLoadOp> loads;
  SmallVector<ClcTryCancelOp> cancels; // each completes 16 transaction bytes (its answer)
};

struct CakeVerifyMbarrierPass : KernelCheckPass<CakeVerifyMbarrierPass, cake::impl::CakeVerifyMbarrierPassBase> {
  bool verifyKernel(KernelOp kernel) {
    ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
    DenseMap<Operation *, unsigned> order = getProgramOrder(kernel);
    bool ok = true;
    kernel.walk([&](MbarrierAllocOp alloc) {
      BarrierArray bars{alloc, {}, {}, {}, {}, {}, {}};
      Value value = alloc.getBarriers();
      for (Operation *user : value.getUsers()) {
        if (auto init = dyn_cast<MbarrierInitOp>(user); init && init.getBarriers() == value)
          bars.inits.push_back(init);
        else if (isa<MbarrierArriveOp, Tcgen05CommitOp>(user) && user->getOperand(0) == value)
          bars.arrives.push_back(user);
        else if (auto expect = dyn_cast<MbarrierArriveExpectTxOp>(user);
                 expect && expect.getBarriers() == value)
          bars.expects.push_back(expect);
        else if (auto wait = dyn_cast<MbarrierWaitOp>(user); wait && wait.getBarriers() == value)
          bars.waits.push_back(wait);
        else if (auto load = dyn_cast<TmaLoadOp>(user); load && load.getBarrier() == value)
          bars.loads.push_back(load);
        else if (auto cancel = dyn_cast<ClcTryCancelOp>(user); cancel && cancel.getBarriers() == value)
          bars.cancels.push_back(cancel);
      }
      auto byOrder = [&](Operation *a, Operation *b) { return order.lookup(a) < order.lookup(b); };
      llvm::sort(bars.inits, byOrder);
      llvm::sort(bars.arrives, byOrder);
      llvm::sort(bars.expects, byOrder);
      llvm::sort(bars.waits, byOrder);
      llvm::sort(bars.loads, byOrder);
      ok &= verifyArray(model, order, bars);
    });
    ok &= verifyClcAnswers(kernel, model, order);
    // The phases each thread waits for, along its path for a few problem sizes.
    if (ok)
      ok &= verifyParitySequences(kernel, model);
    return ok;
  }

  /// A cluster launch control answer is written asynchronously: a query must follow a wait on
  /// the barrier phase its request completes, after the request (in the same iteration, or, for
  /// a request at the end of a loop body, anywhere after it around the loop).
  bool verifyClcAnswers(KernelOp kernel, ThreadModel &model,
                        DenseMap<Operation *, unsigned> &order) {
    SmallVector<ClcTryCancelOp> cancels;
    SmallVector<MbarrierWaitOp> waits;
    kernel.walk([&](Operation *op) {
      if (auto cancel = dyn_cast<ClcTryCancelOp>(op))
        cancels.push_back(cancel);
      else if (auto wait = dyn_cast<MbarrierWaitOp>(op))
        waits.push_back(wait);
    });
    auto sameSlot = [&](ValueRange a, ValueRange b) {
      return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [&](auto pair) {
               return model.sameValue(std::get<0>(pair), std::get<1>(pair));
             });
    };
    bool ok = true;
    kernel.walk([&](ClcQueryOp query) {
      unsigned at = order.lookup(query);
      // The request whose answer the query reads: the last one before it, else (around a
      // loop) the last one.
      ClcTryCancelOp lastBefore, last;
      for (ClcTryCancelOp cancel : cancels) {
        if (cancel.getResponse() != query.getResponse() ||
            !sameSlot(cancel.getIndices(), query.getIndices()))
          continue;
        unsigned c = order.lookup(cancel);
        if (!last || c > order.lookup(last))
          last = cancel;
        if (c < at && (!lastBefore || c > order.lookup(lastBefore)))
          lastBefore = cancel;
      }
      ClcTryCancelOp request = lastBefore ? lastBefore : last;
      bool waited = false;
      if (request) {
        unsigned r = order.lookup(request);
        for (MbarrierWaitOp wait : waits) {
          if (wait.getBarriers() != request.getBarriers() ||
              !model.sameValue(wait.getIndex(), request.getIndex()))
            continue;
          unsigned w = order.lookup(wait);
          // Around a loop (the request after the query in program order), a wait after the
          // request or before the query lies between them on the next iteration.
          waited |= r < at ? (w > r && w < at) : (w > r || w < at);
        }
      }
      if (waited)
        return;
      ok = false;
      InFlightDiagnostic diag = emitFinding(query, "clc.query-before-wait")
                                << (request ? "reads a cluster launch control answer before "
                                              "waiting on the barrier its request completes"
                                            : "reads a cluster launch control answer that no "
                                              "cake.clc.try_cancel writes");
      if (request)
        diag.attachNote(request.getLoc()) << "the request, completing on its mbarrier";
      attachFix(diag, query, "clc.query-before-wait",
                request ? "cake.mbarrier.wait on the request's barrier (the phase it completes) "
                          "before cake.clc.query"
                        : "issue cake.clc.try_cancel into this buffer (and wait on its barrier) "
                          "before the query");
    });
    return ok;
  }

  bool verifyArray(ThreadModel &model, DenseMap<Operation *, unsigned> &order, BarrierArray &bars) {
    bool ok = true;
    int64_t count = bars.alloc.getBarriers().getType().getCount();
    SmallVector<Use> uses; // everything but the inits, in program order
    for (Operation *op : bars.arrives)
      uses.push_back({op, op->getOperand(1)});
    for (auto op : bars.expects)
      uses.push_back({op, op.getIndex()});
    for (auto op : bars.waits)
      uses.push_back({op, op.getIndex()});
    for (auto op : bars.loads)
      uses.push_back({op, op.getBarrierIndex()});
    for (auto op : bars.cancels)
      uses.push_back({op, op.getIndex()});
    llvm::sort(uses,
               [&](const Use &a, const Use &b) { return order.lookup(a.op) < order.lookup(b.op); });
    auto same = [&](Value a, Value b) { return model.sameValue(a, b); };
    auto unknownIndex = [&](Value index) { return !model.getConstant(index); };

    // Indices inside the array.
    SmallVector<std::pair<Operation *, Value>> indexed;
    for (auto op : bars.inits)
      indexed.push_back({op, op.getIndex()});
    for (const Use &use : uses)
      indexed.push_back({use.op, use.index});
    // A constant index, or every value a computed one takes (IndexRanges over the loops around
    // it, in each thread that reaches the op unconditionally: an op under a condition on a loop
    // counter or a size may be guarded by it) names a barrier of the array.
    IndexRanges ranges(model);
    for (auto [op, index] : indexed) {
      std::optional<int64_t> c = model.getConstant(index);
      if (c) {
        if (*c >= 0 && *c < count)
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, "mbarrier.index-range")
                                  << "expected a barrier index in [0, " << count << "), got " << *c;
        diag.attachNote(bars.alloc.getLoc()) << "the array of " << count << " mbarriers";
        attachFix(diag, op, "mbarrier.index-range",
                  "allocate more mbarriers (!cake.mbarriers<" + std::to_string(*c + 1) +
                      ">) or use an index below " + std::to_string(count));
        continue;
      }
      ArrayRef<Reach> reach = model.reach(op);
      for (int64_t t = 0; t < model.getNumThreads(); ++t) {
        if (reach[t].kind != Reach::Always)
          continue;
        std::optional<Interval> r = ranges.range(index, t);
        if (!r || (r->lo >= 0 && r->hi < count))
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, "mbarrier.index-range")
                                  << "expected a barrier index in [0, " << count
                                  << "), but in thread " << t << " it reaches "
                                  << (r->lo < 0 ? r->lo : r->hi) << " (it takes [" << r->lo
                                  << ", " << r->hi << "])";
        diag.attachNote(bars.alloc.getLoc()) << "the array of " << count << " mbarriers";
        attachFix(diag, op, "mbarrier.index-range",
                  "keep the computed index inside the array (a ring's second barrier set "
                  "starts at the stage count: slot + stages), or allocate more mbarriers");
        break;
      }
    }

    // Initialization: every index used is initialized, by one thread, then fenced and published.
    bool anyInitCoversAll = llvm::any_of(
        bars.inits, [&](MbarrierInitOp init) { return unknownIndex(init.getIndex()); });
    llvm::BitVector initializedIndices(count);
    for (MbarrierInitOp init : bars.inits)
      if (std::optional<int64_t> c = model.getConstant(init.getIndex()); c && *c >= 0 && *c < count)
        initializedIndices.set(*c);
    // A computed index is initialized when every value it can take is (its range, else the
    // whole array): constant inits of a ring's barriers cover `kt mod stages`.
    auto coveredByConstantInits = [&](Value index) {
      if (model.getConstant(index))
        return false; // compared by value below
      int64_t lo = count, hi = -1;
      for (int64_t t = 0; t < model.getNumThreads(); ++t) {
        std::optional<Interval> r = ranges.range(index, t);
        lo = std::min(lo, r ? r->lo : 0);
        hi = std::max(hi, r ? r->hi : count - 1);
      }
      lo = std::max<int64_t>(lo, 0);
      hi = std::min<int64_t>(hi, count - 1);
      return lo <= hi && initializedIndices.find_first_unset_in(lo, hi + 1) == -1;
    };
    SmallVector<std::string> reported;
    for (const Use &use : uses) {
      bool initialized = anyInitCoversAll || coveredByConstantInits(use.index) ||
                         llvm::any_of(bars.inits, [&](MbarrierInitOp init) {
                           return same(init.getIndex(), use.index);
                         });
      if (initialized)
        continue;
      std::string key = indexText(model, use.index);
      if (llvm::is_contained(reported, key))
        continue;
      reported.push_back(key);
      ok = false;
      InFlightDiagnostic diag = emitFinding(use.op, "mbarrier.uninitialized")
                                << "expected mbarrier " << key
                                << " to be initialized by cake.mbarrier.init before use";
      diag.attachNote(bars.alloc.getLoc()) << "the mbarriers are allocated here";
      attachFix(diag, use.op, "mbarrier.uninitialized",
                "in one thread (e.g. under thread_id == 0) add cake.mbarrier.init %bars[" + key +
                    "], count <arriving threads> and cake.fence.mbarrier_init, then a "
                    "cake.barrier before the first use");
    }
    for (MbarrierInitOp init : bars.inits) {
      Executors ex = model.executors(init);
      if (!ex.exact || ex.count() <= 1)
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(init, "mbarrier.init-threads")
                                << "expected one thread to initialize the mbarrier, got "
                                << ex.count();
      attachFix(diag, init, "mbarrier.init-threads",
                "guard the init with scf.if on thread_id x == 0");
    }
    if (!bars.inits.empty() && !uses.empty()) {
      Operation *lastInit = bars.inits.back();
      Operation *firstUse = uses.front().op;
      unsigned initAt = order.lookup(lastInit), useAt = order.lookup(firstUse);
      if (useAt < initAt) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(firstUse, "mbarrier.uninitialized")
                                  << "expected the mbarrier to be initialized before this use";
        diag.attachNote(lastInit->getLoc()) << "initialized only here, later";
        attachFix(diag, firstUse, "mbarrier.uninitialized",
                  "move the cake.mbarrier.init (with its fence and barrier) before the first use");
      } else {
        Operation *fence = nullptr, *barrier = nullptr;
        getOperationBetween(order, initAt, useAt, fence, barrier);
        if (!fence) {
          ok = false;
          InFlightDiagnostic diag = emitFinding(lastInit, "mbarrier.init-fence")
                                    << "expected cake.fence.mbarrier_init between the mbarrier "
                                       "initialization and its first use";
          diag.attachNote(firstUse->getLoc()) << "first use here";
          attachFix(diag, lastInit, "mbarrier.init-fence",
                    "add cake.fence.mbarrier_init right after the init, in the same thread");
        } else if (!barrier) {
          ok = false;
          InFlightDiagnostic diag = emitFinding(lastInit, "mbarrier.init-barrier")
                                    << "expected a block-wide barrier (cake.barrier) between the "
                                       "mbarrier initialization and its first use";
          diag.attachNote(fence->getLoc()) << "fenced here";
          diag.attachNote(firstUse->getLoc()) << "first use here, possibly by another thread";
          attachFix(diag, lastInit, "mbarrier.init-barrier",
                    "add cake.barrier after the init and fence, outside any role or "
                    "thread-dependent condition");
        }
      }
    }

    // Transaction bytes: expect_tx against the copies in its region; copies without an expect.
    for (MbarrierArriveExpectTxOp expect : bars.expects) {
      int64_t bytes = expect.getBytes();
      SmallVector<TmaLoadOp> local;
      walkBlock(expect->getBlock(), [&](TmaLoadOp load) {
        if (load.getBarrier() == bars.alloc.getBarriers() &&
            same(load.getBarrierIndex(), expect.getIndex()))
          local.push_back(load);
      });
      SmallVector<ClcTryCancelOp> localCancels;
      walkBlock(expect->getBlock(), [&](ClcTryCancelOp cancel) {
        if (cancel.getBarriers() == bars.alloc.getBarriers() &&
            same(cancel.getIndex(), expect.getIndex()))
          localCancels.push_back(cancel);
      });
      bool anywhere = llvm::any_of(bars.loads, [&](TmaLoadOp load) {
        return same(load.getBarrierIndex(), expect.getIndex()) ||
               unknownIndex(load.getBarrierIndex());
      }) || llvm::any_of(bars.cancels, [&](ClcTryCancelOp cancel) {
        return same(cancel.getIndex(), expect.getIndex()) || unknownIndex(cancel.getIndex());
      });
      // A multicast copy with a constant mask lands in every block of the mask; assuming each of
      // them issues its own copy (the same op runs in every block), a block's barrier receives
      // the box once per set bit. A mask that is not a constant leaves the bytes unknown. In a
      // 1-D cluster, cake-verify-cluster models every rank and accounts exactly who issues what
      // (a copy only rank 0 broadcasts breaks the assumption): multicast is left to it there.
      SmallVector<int64_t, 3> cluster = model.getKernel().getClusterDims();
      bool clusterModelled = cluster[0] > 1 && cluster[1] == 1 && cluster[2] == 1;
      // A copy in a loop inside the expect's block lands once per trip: constant trip counts
      // multiply its box, any other leaves the bytes unknown.
      auto trips = [&](Operation *op) -> std::optional<int64_t> {
        int64_t n = 1;
        for (Operation *p = op->getParentOp(); p && p != expect->getParentOp();
             p = p->getParentOp()) {
          auto loop = dyn_cast<scf::ForOp>(p);
          if (!loop)
            continue;
          std::optional<APInt> count = loop.getStaticTripCount();
          if (!count)
            return std::nullopt;
          n *= static_cast<int64_t>(count->getZExtValue());
        }
        return n;
      };
      auto copyBytes = [&](TmaLoadOp load) -> std::optional<int64_t> {
        std::optional<int64_t> n = trips(load);
        if (!n)
          return std::nullopt;
        int64_t box = *n * load.getDescriptor().getType().getBoxBytes();
        if (!load.getMulticast())
          return box;
        if (clusterModelled)
          return std::nullopt;
        APInt mask;
        if (!matchPattern(load.getMulticast(), m_ConstantInt(&mask)))
          return std::nullopt;
        return box * static_cast<int64_t>(llvm::popcount(mask.getZExtValue() & 0xffff));
      };
      int64_t sum = 0;
      bool knownBytes = true;
      for (TmaLoadOp load : local) {
        std::optional<int64_t> b = copyBytes(load);
        knownBytes &= b.has_value();
        sum += b.value_or(0);
      }
      if (!knownBytes)
        continue;
      sum += kClcAnswerBytes * static_cast<int64_t>(localCancels.size());
      bool none = local.empty() && localCancels.empty();
      if ((none && (anywhere || bytes == 0)) || (!none && sum == bytes))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(expect, "mbarrier.tx-bytes")
                                << "expected the transaction bytes to equal the " << sum
                                << " bytes of the TMA copies "
                                << (localCancels.empty() ? "" : "and launch-control answers ")
                                << "completing on mbarrier "
                                << indexText(model, expect.getIndex()) << ", got " << bytes;
      for (TmaLoadOp load : local)
        diag.attachNote(load.getLoc())
            << "copies " << copyBytes(load).value_or(0) << " bytes";
      for (ClcTryCancelOp cancel : localCancels)
        diag.attachNote(cancel.getLoc()) << "answers in " << kClcAnswerBytes << " bytes";
      attachFix(diag, expect, "mbarrier.tx-bytes",
                none ? "issue the TMA copies completing on this barrier after the "
                                "arrive, or set bytes 0"
                              : "set bytes " + std::to_string(sum));
    }
    // Whether an expect announces bytes on barrier `index`. A copy whose barrier index is not
    // known (it depends on the cluster rank, say) may match any expect on the array.
    auto announced = [&](Value index) {
      return llvm::any_of(bars.expects, [&](MbarrierArriveExpectTxOp expect) {
        return same(expect.getIndex(), index) || unknownIndex(expect.getIndex()) ||
               unknownIndex(index);
      });
    };
    for (TmaLoadOp load : bars.loads) {
      if (announced(load.getBarrierIndex()))
        continue;
      ok = false;
      int64_t bytes = load.getDescriptor().getType().getBoxBytes();
      InFlightDiagnostic diag = emitFinding(load, "mbarrier.tx-missing")
                                << "expected a cake.mbarrier.arrive_expect_tx announcing this "
                                   "copy's "
                                << bytes << " bytes on mbarrier "
                                << indexText(model, load.getBarrierIndex());
      attachFix(diag, load, "mbarrier.tx-missing",
                "before the copy, in the same thread: cake.mbarrier.arrive_expect_tx %bars[" +
                    indexText(model, load.getBarrierIndex()) +
                    "], bytes <total bytes of the "
                    "copies on it>");
    }

    for (ClcTryCancelOp cancel : bars.cancels) {
      if (announced(cancel.getIndex()))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(cancel, "mbarrier.tx-missing")
                                << "expected a cake.mbarrier.arrive_expect_tx announcing the "
                                << kClcAnswerBytes << " bytes of this answer on mbarrier "
                                << indexText(model, cancel.getIndex());
      attachFix(diag, cancel, "mbarrier.tx-missing",
                "before the request, in the same thread: cake.mbarrier.arrive_expect_tx %bars[" +
                    indexText(model, cancel.getIndex()) + "], bytes " +
                    std::to_string(kClcAnswerBytes));
    }

    // Waits need arrivals.
    for (MbarrierWaitOp wait : bars.waits) {
      auto arrivesHere = [&](Value index) {
        return same(index, wait.getIndex()) || unknownIndex(index) || unknownIndex(wait.getIndex());
      };
      bool arrived =
          llvm::any_of(bars.arrives, [&](Operation *op) { return arrivesHere(op->getOperand(1)); }) ||
          llvm::any_of(bars.expects, [&](auto op) { return arrivesHere(op.getIndex()); });
      if (arrived)
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(wait, "mbarrier.no-arrive")
                                << "expected an arrival on mbarrier "
                                << indexText(model, wait.getIndex())
                                << ", but nothing arrives on it: the wait never returns";
      for (MbarrierInitOp init : bars.inits)
        if (same(init.getIndex(), wait.getIndex()))
          diag.attachNote(init.getLoc())
              << "initialized here with " << init.getCount() << " arrivals per phase";
      attachFix(diag, wait, "mbarrier.no-arrive",
                "arrive on the barrier (cake.mbarrier.arrive, or arrive_expect_tx before TMA "
                "copies) in the threads it counts, or wait on the barrier they arrive on");
    }

    // Arrival counts: the threads that arrive per phase, grouped by the loop they are in.
    SmallVector<Operation *> arrivals(bars.arrives.begin(), bars.arrives.end());
    arrivals.append(bars.expects.begin(), bars.expects.end());
    for (MbarrierInitOp init : bars.inits) {
      for (const ArrivalGroup &group : countArrivals(model, init, arrivals)) {
        int64_t expected = init.getCount();
        if (!group.exact || group.threads == expected)
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(init, "mbarrier.arrival-count")
                                  << "expected " << expected
                                  << " arrivals per phase (the init's count) to match the "
                                     "threads that arrive, got "
                                  << group.threads;
        for (auto [op, repeat] : llvm::zip(group.ops, group.repeats))
          describeArrival(diag.attachNote(op->getLoc()), model, op, repeat);
        attachFix(diag, init, "mbarrier.arrival-count",
                  "set count " + std::to_string(group.threads) +
                      " on the init, or make exactly that many threads arrive (e.g. under "
                      "cake.elect_one)");
      }
    }

    // Parity: a wait in a loop whose barrier and parity do not change per iteration.
    for (MbarrierWaitOp wait : bars.waits) {
      auto loop = wait->getParentOfType<scf::ForOp>();
      if (!loop || !loop->isProperAncestor(wait) ||
          !loop.isDefinedOutsideOfLoop(wait.getParity()) ||
          !loop.isDefinedOutsideOfLoop(wait.getIndex()))
        continue;
      if (!wait->getParentOfType<KernelOp>()->isProperAncestor(loop))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(wait, "mbarrier.parity-constant")
                                << "expected the wait's parity to alternate across iterations of "
                                   "the enclosing loop, but barrier and parity are loop-invariant";
      diag.attachNote(loop.getLoc()) << "the loop is here";
      // A constant parity 1 is the "empty" side of a slot (its first wait passes at once):
      // the alternating parity must start at 1 too, or the first wait needs a release that
      // comes only after the data it guards.
      std::optional<int64_t> parity = getConstantIntValue(wait.getParity());
      bool startsAtOne = parity && (*parity & 1) == 1;
      attachFix(diag, wait, "mbarrier.parity-constant",
                startsAtOne ? "wait on parity ((iteration / stages) mod 2) xor 1: a constant "
                              "parity 1 marks a barrier that frees a slot, whose first wait "
                              "passes at once (or use a cake.pipeline, which tracks phases itself)"
                            : "wait on parity (iteration / stages) mod 2 (or use a cake.pipeline, "
                              "which tracks phases itself)");
    }
    return ok;
  }

  /// The first fence (or pipeline creation, which fences its own inits) and the first block
  /// barrier after it, strictly between the positions `from` and `to`.
  static void getOperationBetween(DenseMap<Operation *, unsigned> &order, unsigned from,
                                  unsigned to, Operation *&fence, Operation *&barrier) {
    SmallVector<std::pair<unsigned, Operation *>> between;
    for (auto &[op, at] : order)
      if (at > from && at < to && (isa<FenceMbarrierInitOp>(op) || isBlockBarrier(op)))
        between.push_back({at, op});
    llvm::sort(between, [](auto &a, auto &b) { return a.first < b.first; });
    for (auto &[at, op] : between) {
      if (!fence && (isa<FenceMbarrierInitOp, PipelineCreateOp>(op))) {
        fence = op;
        if (isa<PipelineCreateOp>(op))
          barrier = op;
        continue;
      }
      if (fence && !barrier && isBlockBarrier(op))
        barrier = op;
    }
  }
};
} // namespace
