//===- VerifyCluster.cpp - TMA multicast accounted across the blocks of a cluster ===//
//
// A multicast copy issued by one block lands in the buffers and completes on the barriers of
// other blocks: what each block expects, initializes and reads depends on what its peers issue.
// The per-block passes see one block with an unknown rank and cannot judge it. This pass models
// every rank of a 1-D cluster (cluster_block_id bound to 0 .. S-1, for cluster ids 0 and 1: masks
// computed from the cluster id differ between them) with the same per-thread evaluator, and
// accounts the copies cluster-wide: bytes per barrier phase, masks, slots written and read,
// barrier initialization. It judges only what every model decides (constant masks, slots,
// barrier indices and byte counts, ops every thread reaches or skips for sure, expect and copies
// in the same loop); anything else is left alone.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/bit.h"

#include <map>
#include <set>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYCLUSTERPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// The scf.for ops around `op`, innermost first: an expect and a copy account against each other
/// only when they sit in the same loops (one phase per iteration).
SmallVector<Operation *> enclosingLoops(Operation *op) {
  SmallVector<Operation *> loops;
  for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp())
    if (isa<scf::ForOp>(p))
      loops.push_back(p);
  return loops;
}

/// How many threads execute `op` in `model`, when every thread surely does or surely does not.
std::optional<int64_t> decidedCount(ThreadModel &model, Operation *op) {
  int64_t count = 0;
  for (const Reach &r : model.reach(op)) {
    if (r.kind == Reach::Always)
      ++count;
    else if (r.kind != Reach::Never)
      return std::nullopt;
  }
  return count;
}

int64_t boxBytes(TmaType tma) {
  int64_t bytes = tma.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t extent : tma.getBox())
    bytes *= extent;
  return bytes;
}

std::string rankList(const std::set<int64_t> &ranks) {
  std::string out;
  for (int64_t r : ranks)
    out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out.empty() ? "none" : out;
}

/// "rank 2" or "ranks 0, 1".
std::string ranksPhrase(const std::set<int64_t> &ranks) {
  return (ranks.size() == 1 ? "rank " : "ranks ") + rankList(ranks);
}

/// A loop's bounds and step when the model knows them as constants (step > 0).
struct ConstantBounds {
  int64_t lb, ub, step;
  int64_t trips() const { return ub > lb ? (ub - lb + step - 1) / step : 0; }
};
std::optional<ConstantBounds> constantBounds(ThreadModel &model, scf::ForOp loop) {
  std::optional<int64_t> lb = model.getConstant(loop.getLowerBound());
  std::optional<int64_t> ub = model.getConstant(loop.getUpperBound());
  std::optional<int64_t> step = model.getConstant(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return ConstantBounds{*lb, *ub, *step};
}

/// Every binding of the counters of the constant-bound loops around `op` (at most `limit`).
std::optional<std::vector<llvm::DenseMap<Value, int64_t>>>
counterBindings(ThreadModel &model, Operation *op, size_t limit = 256) {
  std::vector<llvm::DenseMap<Value, int64_t>> out(1);
  for (Operation *p : enclosingLoops(op)) {
    auto loop = cast<scf::ForOp>(p);
    std::optional<ConstantBounds> bounds = constantBounds(model, loop);
    if (!bounds)
      return std::nullopt;
    std::vector<llvm::DenseMap<Value, int64_t>> next;
    for (const auto &binding : out)
      for (int64_t i = bounds->lb; i < bounds->ub; i += bounds->step) {
        if (next.size() >= limit)
          return std::nullopt;
        next.push_back(binding);
        next.back()[loop.getInductionVar()] = i;
      }
    out = std::move(next);
  }
  return out;
}

/// One thread model per rank of a 1-D cluster of `size` (block ids unknown); the cluster id and
/// every problem size bound when >= 0.
std::vector<std::unique_ptr<ThreadModel>> rankModels(KernelOp kernel, int64_t size,
                                                     int64_t clusterId, int64_t everySize) {
  std::vector<std::unique_ptr<ThreadModel>> models;
  for (int64_t r = 0; r < size; ++r) {
    ShapeProbe probe;
    probe.bindBlocks = false;
    probe.clusterBlockId[0] = r;
    probe.clusterId[0] = clusterId;
    if (everySize >= 0) {
      for (StringRef symbol : kernel.getSymbolNames())
        probe.sizes[symbol] = kernel.getSpecializedSize(symbol).value_or(everySize);
      probe.bindGridDims = bindGrid(kernel, probe);
    }
    models.push_back(std::make_unique<ThreadModel>(kernel, probe));
  }
  return models;
}

/// One TMA copy as one rank issues it.
struct Copy {
  TmaLoadOp op;
  int64_t threads;   // issuing threads
  int64_t receivers; // mask (1 << own rank without multicast)
  SmallVector<int64_t> slot;
  int64_t barrier; // index into the barrier array
};

struct ClusterChecker {
  KernelOp kernel;
  int64_t size;
  std::set<std::pair<Operation *, std::string>> reported;
  bool failed = false;

  void report(Operation *op, StringRef rule, const std::string &text, int64_t clusterId,
              const std::string &hint) {
    if (!reported.insert({op, rule.str()}).second)
      return;
    failed = true;
    InFlightDiagnostic diag = emitFinding(op, rule);
    diag << text;
    if (everySize >= 0)
      diag << " (every problem size " << everySize << ", cluster " << clusterId << ")";
    else if (clusterId)
      diag << " (in odd-numbered clusters)";
    // Found only at an edge cluster: the accounting holds elsewhere, so the fix is to keep the
    // edge rank's copies, not to change what every rank expects.
    attachFix(diag, op, rule,
              everySize < 0
                  ? hint
                  : "this happens only at the edge of the problem (cluster " +
                        std::to_string(clusterId) + " at every size " +
                        std::to_string(everySize) +
                        "), where a rank with no rows skips its copy: keep every rank's TMA "
                        "copies and waits outside conditions on the rows it owns (TMA fills rows "
                        "past the tensor's edge with zeros and still delivers the box's bytes) "
                        "and mask only its global loads and stores");
  }

  /// Accounts the copies of one cluster id; what a rank leaves undecided is not judged.
  void check(int64_t clusterId) { check(clusterId, -1); }
  /// The same with every problem size bound to `everySize` (>= 0): the copies of an edge
  /// cluster, where a rank with no rows may skip its copy.
  void check(int64_t clusterId, int64_t everySize);
  int64_t everySize = -1; // of the check running, for the report
};

void ClusterChecker::check(int64_t clusterId, int64_t bound) {
  everySize = bound;
  SmallVector<TmaLoadOp> loads;
  SmallVector<MbarrierArriveExpectTxOp> expects;
  SmallVector<MbarrierInitOp> inits;
  bool anyMulticast = false;
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      loads.push_back(load);
      anyMulticast |= static_cast<bool>(load.getMulticast());
    } else if (auto expect = dyn_cast<MbarrierArriveExpectTxOp>(op)) {
      expects.push_back(expect);
    } else if (auto init = dyn_cast<MbarrierInitOp>(op)) {
      inits.push_back(init);
    }
  });
  if (!anyMulticast)
    return;
  std::vector<std::unique_ptr<ThreadModel>> models = rankModels(kernel, size, clusterId, bound);

  // Every copy of every rank, decided; a pipeline barrier or an undecided value: no judgement.
  // A mask naming blocks outside the cluster is the finding (no accounting follows it); the
  // copies are still collected so that its hint can propose a mask that balances the bytes.
  std::vector<SmallVector<Copy>> copies(size);
  struct BadMask {
    TmaLoadOp op;
    int64_t rank, value;
  };
  std::optional<BadMask> badMask;
  bool complete = [&] {
    for (int64_t r = 0; r < size; ++r) {
      ThreadModel &m = *models[r];
      for (TmaLoadOp load : loads) {
        if (!isa<MbarriersType>(load.getBarrier().getType()))
          return false;
        std::optional<int64_t> threads = decidedCount(m, load);
        if (!threads)
          return false;
        if (*threads == 0)
          continue;
        Copy c{load, *threads, int64_t(1) << r, {}, 0};
        if (Value mask = load.getMulticast()) {
          std::optional<int64_t> value = m.getConstant(mask);
          if (!value)
            return false;
          c.receivers = *value;
          if ((*value < 0 || *value >= (int64_t(1) << size)) && !badMask)
            badMask = BadMask{load, r, *value};
        }
        std::optional<int64_t> barrier = m.getConstant(load.getBarrierIndex());
        if (!barrier)
          return false;
        c.barrier = *barrier;
        for (Value index : load.getDestIndices()) {
          std::optional<int64_t> v = m.getConstant(index);
          if (!v)
            return false;
          c.slot.push_back(*v);
        }
        copies[r].push_back(std::move(c));
      }
    }
    return true;
  }();
  if (!complete && !badMask)
    return;

  // Per receiving rank and barrier (array value, index): bytes landing per phase, and from whom.
  using BarrierKey = std::pair<void *, int64_t>;
  using Landing = std::vector<std::map<BarrierKey, int64_t>>;
  const int64_t inCluster = (int64_t(1) << size) - 1;
  auto keyOf = [](const Copy &c) {
    return BarrierKey{TmaLoadOp(c.op).getBarrier().getAsOpaquePointer(), c.barrier};
  };
  // The bytes landing per phase when each copy goes to `receivers(copy)`.
  auto landingWith = [&](function_ref<int64_t(const Copy &)> receivers) {
    Landing out(size);
    for (int64_t r = 0; r < size; ++r)
      for (const Copy &c : copies[r]) {
        int64_t mask = receivers(c);
        for (int64_t t = 0; t < size; ++t)
          if ((mask >> t) & 1)
            out[t][keyOf(c)] += c.threads * boxBytes(TmaLoadOp(c.op).getDescriptor().getType());
      }
    return out;
  };
  std::vector<std::map<BarrierKey, std::set<int64_t>>> senders(size);
  // Per receiving rank and buffer: the slots written, and the ranks whose copies land there.
  std::vector<std::map<void *, std::set<SmallVector<int64_t>>>> written(size);
  std::vector<std::map<void *, std::set<int64_t>>> writtenBy(size);
  SmallVector<Operation *> copyLoops;
  bool oneLoopNest = true;
  for (int64_t r = 0; r < size; ++r)
    for (Copy &c : copies[r]) {
      if (copyLoops.empty() && oneLoopNest)
        copyLoops = enclosingLoops(c.op);
      oneLoopNest &= enclosingLoops(c.op) == copyLoops;
      for (int64_t t = 0; t < size; ++t) {
        if (!((c.receivers >> t) & 1))
          continue;
        senders[t][keyOf(c)].insert(r);
        written[t][c.op.getDest().getAsOpaquePointer()].insert(c.slot);
        writtenBy[t][c.op.getDest().getAsOpaquePointer()].insert(r);
      }
    }
  Landing landing = landingWith([](const Copy &c) { return c.receivers; });

  // What each rank expects per phase, and where (nullopt: undecided, or not in the copies' loops).
  struct Expected {
    std::map<BarrierKey, int64_t> bytes;
    std::map<BarrierKey, MbarrierArriveExpectTxOp> where;
    std::map<BarrierKey, int64_t> ops, threads; // expects per key, threads of the last
  };
  std::vector<std::optional<Expected>> expected(size);
  if (oneLoopNest)
    for (int64_t t = 0; t < size; ++t) {
      Expected e;
      bool decided = true;
      for (MbarrierArriveExpectTxOp expect : expects) {
        std::optional<int64_t> index = models[t]->getConstant(expect.getIndex());
        std::optional<int64_t> threads = decidedCount(*models[t], expect);
        if (!index || !threads || enclosingLoops(expect) != copyLoops) {
          decided = false;
          break;
        }
        BarrierKey key{expect.getBarriers().getAsOpaquePointer(), *index};
        e.bytes[key] += *threads * static_cast<int64_t>(expect.getBytes());
        e.where.emplace(key, expect);
        if (*threads > 0) {
          ++e.ops[key];
          e.threads[key] = *threads;
        }
      }
      if (decided)
        expected[t] = std::move(e);
    }
  // Whether every rank receives on each barrier it expects on exactly what it expects.
  auto balanced = [&](const Landing &l) {
    for (int64_t t = 0; t < size; ++t) {
      if (!expected[t])
        return false;
      for (auto &[key, expect] : expected[t]->where) {
        (void)expect;
        auto it = l[t].find(key);
        if ((it == l[t].end() ? 0 : it->second) != expected[t]->bytes[key])
          return false;
      }
    }
    return true;
  };

  // cluster.multicast-mask: the hint proposes a mask only where the bytes then balance.
  if (badMask) {
    int64_t r = badMask->rank, value = badMask->value;
    // The lowest set bit at or above the cluster size.
    int64_t bit = size + llvm::countr_zero(static_cast<uint64_t>(value) >> size);
    std::string bits = "bits 0-" + std::to_string(size - 1);
    auto truncate = [&](const Copy &c) { return c.receivers & inCluster; };
    Landing truncated = landingWith(truncate);
    std::string hint;
    if (complete && balanced(truncated)) {
      hint = "keep only the cluster's " + bits + " of the mask (and it with " +
             std::to_string(inCluster) + ": here " + std::to_string(value) + " & " +
             std::to_string(inCluster) + " = " + std::to_string(value & inCluster) + ")";
    } else {
      // The ranks that count bytes on the copy's barrier, as one mask for every sender.
      std::optional<int64_t> expecting;
      std::optional<BarrierKey> key;
      for (const Copy &c : copies[r])
        if (c.op == badMask->op)
          key = keyOf(c);
      if (complete && key) {
        expecting = 0;
        for (int64_t t = 0; t < size; ++t)
          if (expected[t] && expected[t]->bytes.count(*key) && expected[t]->bytes[*key] > 0)
            *expecting |= int64_t(1) << t;
      }
      hint = "set the multicast mask to the ranks whose arrive_expect_tx counts this copy, "
             "inside the cluster of " +
             std::to_string(size) + " (" + bits;
      Landing uniform;
      if (expecting && *expecting)
        uniform = landingWith([&](const Copy &c) {
          return c.op == badMask->op ? *expecting : truncate(c);
        });
      if (expecting && *expecting && balanced(uniform)) {
        hint += ", here 0x" + llvm::utohexstr(static_cast<uint64_t>(*expecting)) + ")";
        std::set<int64_t> shortRanks, overRanks;
        for (int64_t t = 0; t < size; ++t)
          for (auto &[k, want] : expected[t]->bytes) {
            if (!expected[t]->where.count(k))
              continue;
            int64_t got = truncated[t].count(k) ? truncated[t][k] : 0;
            if (got < want)
              shortRanks.insert(t);
            else if (got > want)
              overRanks.insert(t);
          }
        hint += "; masking off the outside bits alone (" + std::to_string(value) + " & " +
                std::to_string(inCluster) + " = " + std::to_string(value & inCluster) + ")";
        if (!shortRanks.empty())
          hint += " leaves " + ranksPhrase(shortRanks) + " short of bytes";
        if (!shortRanks.empty() && !overRanks.empty())
          hint += " and";
        if (!overRanks.empty())
          hint += " gives " + ranksPhrase(overRanks) + " too many bytes";
      } else {
        hint += ")";
      }
    }
    report(badMask->op, "cluster.multicast-mask",
           "rank " + std::to_string(r) + " multicasts with mask " + std::to_string(value) +
               ": bit " + std::to_string(bit) + " names a block outside the cluster of " +
               std::to_string(size),
           clusterId, hint);
    return;
  }

  // cluster.uninitialized-barrier: a rank that receives completions never initializes the barrier.
  struct Uninitialized {
    int64_t rank;
    BarrierKey key;
    MbarrierInitOp init;
  };
  SmallVector<Uninitialized> uninitialized;
  for (int64_t t = 0; t < size; ++t)
    for (auto &[key, from] : senders[t]) {
      bool initialized = false, decided = true;
      MbarrierInitOp candidate;
      for (MbarrierInitOp init : inits) {
        if (init.getBarriers().getAsOpaquePointer() != key.first)
          continue;
        std::optional<int64_t> index = models[t]->getConstant(init.getIndex());
        std::optional<int64_t> threads = decidedCount(*models[t], init);
        if (!index || !threads) {
          decided = false;
          continue;
        }
        if (*index != key.second)
          continue;
        candidate = init;
        initialized |= *threads > 0;
      }
      if (decided && !initialized && candidate)
        uninitialized.push_back({t, key, candidate});
    }
  for (const Uninitialized &u : uninitialized) {
    std::set<int64_t> missing;
    for (const Uninitialized &other : uninitialized)
      if (other.key == u.key)
        missing.insert(other.rank);
    report(u.init, "cluster.uninitialized-barrier",
           "rank " + std::to_string(u.rank) + " of the cluster of " + std::to_string(size) +
               " never initializes barrier " + std::to_string(u.key.second) +
               ", on which the multicast copies of rank(s) " + rankList(senders[u.rank][u.key]) +
               " complete",
           clusterId,
           "initialize barrier " + std::to_string(u.key.second) +
               " in every rank that receives the copies (" + ranksPhrase(missing) +
               (missing.size() > 1 ? " do" : " does") +
               " not): one thread per block (thread_id x == 0, not conditioned on "
               "cake.cluster_block_id), then cake.fence.mbarrier_init and a cake.cluster_barrier "
               "before the first copy");
  }

  // cluster.init-not-published: a peer's copy completes on a barrier whose init no cluster barrier
  // has made visible to the cluster yet (a block barrier orders one block only).
  llvm::DenseMap<Operation *, unsigned> order = getProgramOrder(kernel);
  SmallVector<ClusterBarrierOp> clusterBarriers;
  kernel.walk([&](ClusterBarrierOp b) { clusterBarriers.push_back(b); });
  for (int64_t r = 0; r < size; ++r)
    for (Copy &c : copies[r]) {
      for (int64_t t = 0; t < size; ++t) {
        if (t == r || !((c.receivers >> t) & 1))
          continue;
        for (MbarrierInitOp init : inits) {
          std::optional<int64_t> index = models[t]->getConstant(init.getIndex());
          if (init.getBarriers() != c.op.getBarrier() || !index || *index != c.barrier ||
              order[init] > order[c.op])
            continue;
          bool published = llvm::any_of(clusterBarriers, [&](ClusterBarrierOp b) {
            return order[init] < order[b] && order[b] < order[c.op];
          });
          if (!published)
            report(c.op, "cluster.init-not-published",
                   "rank " + std::to_string(r) + "'s multicast completes on barrier " +
                       std::to_string(c.barrier) + " of rank " + std::to_string(t) +
                       ", but no cake.cluster_barrier between that barrier's init and this copy "
                       "makes the init visible to the cluster (a block barrier orders one block)",
                   clusterId,
                   "put a cake.cluster_barrier (not a cake.barrier, which orders one block) "
                   "between the barrier's init and fence and the first multicast copy, in every "
                   "rank");
        }
      }
    }

  // cluster.multicast-bytes: what a rank expects per phase against what lands on its barrier.
  // Setting the bytes is the fix only where every rank receives the same amount on the barrier
  // and one expect counts it; where the ranks receive different amounts the masks are wrong.
  auto lookup = [](const std::map<BarrierKey, int64_t> &map, const BarrierKey &key) -> int64_t {
    auto it = map.find(key);
    return it == map.end() ? 0 : it->second;
  };
  auto bytesHint = [&](const BarrierKey &key, int64_t t) -> std::string {
    int64_t got = lookup(landing[0], key);
    bool uniform = true;
    for (int64_t u = 1; u < size; ++u)
      uniform &= lookup(landing[u], key) == got;
    if (!uniform) {
      std::string per;
      for (int64_t u = 0; u < size; ++u)
        per += (per.empty() ? "rank " : ", rank ") + std::to_string(u) +
               (per.empty() ? " receives " : " ") + std::to_string(lookup(landing[u], key));
      return "make the multicast masks deliver to each rank the bytes its arrive_expect_tx "
             "counts (per phase on barrier " +
             std::to_string(key.second) + ": " + per +
             "); setting the bytes cannot fix ranks that receive different amounts";
    }
    if (got == 0)
      return "no copy of the cluster completes on barrier " + std::to_string(key.second) +
             ": make the copies this phase waits for complete on it (their barrier index and "
             "multicast mask), or drop this arrive_expect_tx";
    // One expect op, run by the same number of threads in every rank: its bytes are the fix.
    auto whereOf = [&](int64_t u) -> Operation * {
      auto it = expected[u]->where.find(key);
      return it == expected[u]->where.end() ? nullptr : it->second.getOperation();
    };
    int64_t threads = lookup(expected[t]->threads, key);
    bool oneExpect = threads > 0;
    for (int64_t u = 0; u < size && oneExpect; ++u)
      oneExpect = expected[u] && lookup(expected[u]->ops, key) == 1 &&
                  lookup(expected[u]->threads, key) == threads && whereOf(u) == whereOf(t);
    std::string source = " bytes per phase: the copies of ranks " + rankList(senders[t][key]);
    if (oneExpect && got % threads == 0)
      return "set bytes " + std::to_string(got / threads) +
             " on this arrive_expect_tx (every rank receives the same " + std::to_string(got) +
             source +
             (threads > 1 ? ", counted by " + std::to_string(threads) + " arriving threads"
                          : std::string()) +
             ")";
    return "make the arrive_expect_tx ops on barrier " + std::to_string(key.second) +
           " count " + std::to_string(got) + " bytes per phase in total, in every rank (each "
           "receives the same " + std::to_string(got) + source + ")";
  };
  if (oneLoopNest) {
    for (int64_t t = 0; t < size; ++t) {
      if (!expected[t])
        continue;
      std::map<BarrierKey, int64_t> &want = expected[t]->bytes;
      std::map<BarrierKey, MbarrierArriveExpectTxOp> &where = expected[t]->where;
      for (auto &[key, bytes] : landing[t]) {
        int64_t expect = want.count(key) ? want[key] : 0;
        if (expect == bytes || !where.count(key))
          continue;
        report(where[key], "cluster.multicast-bytes",
               "rank " + std::to_string(t) + " of the cluster of " + std::to_string(size) +
                   " expects " + std::to_string(expect) + " bytes per phase on barrier " +
                   std::to_string(key.second) +
                   ", but the copies that complete on it (from rank(s) " +
                   rankList(senders[t][key]) + ") deliver " + std::to_string(bytes),
               clusterId, bytesHint(key, t));
      }
      // A rank that expects bytes nobody sends it (a mask that skips it) waits forever.
      for (auto &[key, bytes] : want)
        if (bytes > 0 && !landing[t].count(key) && where.count(key))
          report(where[key], "cluster.multicast-bytes",
                 "rank " + std::to_string(t) + " of the cluster of " + std::to_string(size) +
                     " expects " + std::to_string(bytes) + " bytes per phase on barrier " +
                     std::to_string(key.second) + ", but no copy of the cluster completes on it",
                 clusterId, bytesHint(key, t));
    }
  }

  // cluster.multicast-coverage: a slot a rank reads that no copy of the cluster writes in it.
  kernel.walk([&](LoadOp read) {
    Value buffer = read.getSource();
    if (!isa<SmemType>(buffer.getType()))
      return;
    // Only buffers that TMA copies alone write (a store or another writer: not judged).
    for (Operation *user : buffer.getUsers()) {
      if (auto load = dyn_cast<TmaLoadOp>(user); load && load.getDest() == buffer)
        continue;
      if (isa<LoadOp>(user))
        continue;
      return;
    }
    TmaLoadOp writer;
    for (TmaLoadOp load : loads)
      if (load.getDest() == buffer)
        writer = load;
    if (!writer)
      return;
    size_t rank = writer.getDestIndices().size();
    if (rank == 0)
      return;
    for (int64_t t = 0; t < size; ++t) {
      auto it = written[t].find(buffer.getAsOpaquePointer());
      std::set<SmallVector<int64_t>> slots =
          it == written[t].end() ? std::set<SmallVector<int64_t>>() : it->second;
      if (it == written[t].end() && senders[t].empty())
        continue; // this rank receives nothing at all: other rules speak
      ThreadModel &m = *models[t];
      std::optional<int64_t> readers = decidedCount(m, read);
      if (!readers || *readers == 0)
        continue;
      std::optional<std::vector<llvm::DenseMap<Value, int64_t>>> bindings =
          counterBindings(m, read);
      if (!bindings)
        return;
      ArrayRef<Reach> reach = m.reach(read);
      for (int64_t thread = 0; thread < m.getNumThreads(); ++thread) {
        if (reach[thread].kind != Reach::Always)
          continue;
        for (const auto &ivs : *bindings) {
          SmallVector<int64_t> slot;
          for (size_t d = 0; d < rank; ++d) {
            std::optional<int64_t> v = evaluateWith(m, read.getIndices()[d], thread, ivs);
            if (!v)
              return;
            slot.push_back(*v);
          }
          if (slots.count(slot))
            continue;
          std::string text;
          for (int64_t v : slot)
            text += (text.empty() ? "" : ", ") + std::to_string(v);
          std::string landed;
          for (const SmallVector<int64_t> &s : slots) {
            std::string one;
            for (int64_t v : s)
              one += (one.empty() ? "" : ", ") + std::to_string(v);
            landed += (landed.empty() ? "[" : ", [") + one + "]";
          }
          // Several senders landing in fewer slots: multicast copies collide in one slot.
          auto by = writtenBy[t].find(buffer.getAsOpaquePointer());
          bool collide = by != writtenBy[t].end() && by->second.size() > 1 &&
                         slots.size() < by->second.size();
          std::string hint = "make the cluster's copies write slot [" + text + "] in rank " +
                             std::to_string(t);
          if (collide)
            hint += ": a multicast lands in the same slot of every receiver, so give each sender "
                    "its own slot (index the destination by cake.cluster_block_id),";
          hint += std::string(" or read only the slots written (") +
                  (landed.empty() ? "none" : landed) + ")";
          report(read, "cluster.multicast-coverage",
                 "rank " + std::to_string(t) + " of the cluster of " + std::to_string(size) +
                     " reads slot [" + text + "] of the buffer, which no TMA copy of the cluster " +
                     "writes in it (the copies land in " + (landed.empty() ? "no slot" : landed) +
                     ")",
                 clusterId, hint);
          return;
        }
      }
    }
  });
}

/// How many times `op` runs when the conditions around it depend on the counters of the loops
/// around it (a persistent loop's tile index against a size): every binding of those counters
/// enumerated (at most 4096), the block-uniform conditions evaluated under each. nullopt when a
/// condition is undecided or an ancestor is neither an scf.for nor an scf.if.
std::optional<int64_t> executionsByCounters(ThreadModel &model, Operation *op) {
  for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp())
    if (!isa<scf::ForOp, scf::IfOp>(p))
      return std::nullopt;
  std::optional<std::vector<llvm::DenseMap<Value, int64_t>>> bindings =
      counterBindings(model, op, 4096);
  if (!bindings)
    return std::nullopt;
  int64_t count = 0;
  for (const auto &ivs : *bindings) {
    bool runs = true;
    for (Operation *p = op; runs && !isa<KernelOp>(p->getParentOp()); p = p->getParentOp()) {
      auto branch = dyn_cast<scf::IfOp>(p->getParentOp());
      if (!branch)
        continue;
      std::optional<int64_t> taken = evaluateWith(model, branch.getCondition(), -1, ivs);
      if (!taken)
        return std::nullopt;
      runs = (*taken != 0) == (p->getParentRegion() == &branch.getThenRegion());
    }
    count += runs;
  }
  return count;
}

/// How many times each thread-uniform pass reaches `op` in `model`: the product of the trip
/// counts of its loops, 0 when no thread executes it; nullopt when undecided.
std::optional<int64_t> executions(ThreadModel &model, Operation *op) {
  std::optional<int64_t> threads = decidedCount(model, op);
  if (!threads)
    return executionsByCounters(model, op);
  if (*threads == 0)
    return 0;
  int64_t count = 1;
  for (Operation *p : enclosingLoops(op)) {
    std::optional<ConstantBounds> bounds = constantBounds(model, cast<scf::ForOp>(p));
    if (!bounds)
      return std::nullopt;
    count *= bounds->trips();
  }
  return count;
}

/// The index of the last cluster of a launch at `everySize` (-1 when the grid is not decided).
int64_t lastClusterId(KernelOp kernel, int64_t size, int64_t everySize) {
  ShapeProbe probe;
  for (StringRef symbol : kernel.getSymbolNames())
    probe.sizes[symbol] = kernel.getSpecializedSize(symbol).value_or(everySize);
  if (!bindGrid(kernel, probe) || probe.gridDim[0] < size)
    return -1;
  return probe.gridDim[0] / size - 1;
}

/// cluster.barrier-divergence: a cluster barrier the ranks reach different numbers of times (a
/// trip count or a condition that depends on the rank): the cluster hangs. Judged with the
/// problem sizes unknown and bound to ragged values (trip counts often depend on them); at bound
/// sizes also in the first and the last cluster, where a ragged edge can leave one rank with no
/// work while its peers still meet at the barrier.
bool checkBarrierDivergence(KernelOp kernel, int64_t size) {
  SmallVector<ClusterBarrierOp> barriers;
  kernel.walk([&](ClusterBarrierOp b) { barriers.push_back(b); });
  if (barriers.empty())
    return false;
  // One launch: every problem size `bound` (0: unknown), the cluster `clusterId` (-1: unknown).
  auto judge = [&](int64_t bound, int64_t clusterId) {
    std::vector<std::unique_ptr<ThreadModel>> models =
        rankModels(kernel, size, clusterId, bound ? bound : -1);
    for (ClusterBarrierOp barrier : barriers) {
      SmallVector<int64_t> counts;
      for (int64_t r = 0; r < size; ++r) {
        std::optional<int64_t> n = executions(*models[r], barrier);
        if (!n)
          break;
        counts.push_back(*n);
      }
      if (static_cast<int64_t>(counts.size()) != size)
        continue;
      for (int64_t r = 1; r < size; ++r) {
        if (counts[r] == counts[0])
          continue;
        InFlightDiagnostic diag = emitFinding(barrier, "cluster.barrier-divergence");
        diag << "rank 0 of the cluster of " << size << " reaches this cluster barrier " << counts[0]
             << " time(s) and rank " << r << " " << counts[r]
             << (bound ? " (every problem size " + std::to_string(bound) +
                             (clusterId >= 0 ? ", cluster " + std::to_string(clusterId) : "") + ")"
                       : std::string())
             << ": every block of a cluster must meet at each cluster barrier equally often";
        std::string times = "(rank 0 reaches it " + std::to_string(counts[0]) + " times, rank " +
                            std::to_string(r) + " " + std::to_string(counts[r]) + ")";
        // Only an edge cluster diverges: a condition on the work a rank owns (rows past a
        // size) skips the barrier; the rank must still take part and mask its global accesses.
        attachFix(diag, barrier, "cluster.barrier-divergence",
                  clusterId >= 0
                      ? "make every rank reach this cake.cluster_barrier equally often, also a rank "
                        "with no work at the edge of the problem: keep the barrier, and the "
                        "multicast copies and waits the ranks exchange, outside conditions on the "
                        "rows a rank owns, and mask its global loads and stores instead " +
                            times
                      : "make every rank reach this cake.cluster_barrier equally often: the trip "
                        "counts and conditions around it must not depend on "
                        "cake.cluster_block_id " +
                            times);
        return true;
      }
    }
    return false;
  };
  for (int64_t bound : {int64_t(0), int64_t(1001), int64_t(4099)}) {
    if (judge(bound, -1))
      return true;
    // Every cluster of a small (persistent) grid, whose edge tile may fall to any of them;
    // the first and the last of a large one.
    int64_t last = bound ? lastClusterId(kernel, size, bound) : -1;
    for (int64_t clusterId = 0; clusterId <= last;
         clusterId = last < 64 || clusterId == last ? clusterId + 1 : last)
      if (judge(bound, clusterId))
        return true;
  }
  return false;
}

/// Whether some thread may execute `op` in `model` (surely, or under conditions the model
/// leaves open, such as `kt + 1 < ktiles` around the prefetch of the next tile).
bool mayExecute(ThreadModel &model, Operation *op) {
  return llvm::any_of(model.reach(op), [](const Reach &r) { return r.kind != Reach::Never; });
}

/// cluster.multicast-overwrite: a multicast copy in a loop lands in the same slot of a peer rank
/// every iteration, and the peer reads that slot in the loop, with no cluster barrier between the
/// peer's read and the sender's next copy. Nothing else orders them: the sender's next copy waits
/// only for its own barrier's phase, which the peer's copy completes before the peer reads, and a
/// block barrier orders one block. An MMA's read lasts until its completion is waited for. (A ring
/// whose slot moves with the loop is not judged.)
bool checkMulticastOverwrite(KernelOp kernel, int64_t size) {
  SmallVector<TmaLoadOp> copies;
  kernel.walk([&](TmaLoadOp load) {
    if (load.getMulticast())
      copies.push_back(load);
  });
  if (copies.empty())
    return false;
  std::vector<std::unique_ptr<ThreadModel>> models = rankModels(kernel, size, 0, -1);
  bool failed = false;
  for (TmaLoadOp copy : copies) {
    SmallVector<Operation *> loops = enclosingLoops(copy);
    if (loops.empty())
      continue;
    auto loop = cast<scf::ForOp>(loops.front());
    if (!llvm::all_of(copy.getDestIndices(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    // Program order inside one iteration; the cluster barriers among it.
    llvm::DenseMap<Operation *, int64_t> order;
    SmallVector<int64_t> barriers;
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      order[op] = static_cast<int64_t>(order.size());
      if (isa<ClusterBarrierOp>(op))
        barriers.push_back(order[op]);
    });
    // Whether `at` runs after the read of one iteration and before the next copy (later in the
    // same iteration, or around the back edge).
    auto between = [](int64_t at, int64_t read, int64_t next) {
      return read < next ? read < at && at < next : at > read || at < next;
    };
    auto ordered = [&](int64_t read, int64_t next) {
      return llvm::any_of(barriers, [&](int64_t b) { return between(b, read, next); });
    };
    // An asynchronous reader (a tensor-core MMA, a tcgen05 copy) reads until its completion
    // is waited for: the wait on the barrier of the first tcgen05 commit after it, or the first
    // wgmma wait after a wgmma. Without one in the iteration, until the iteration's end.
    int64_t end = static_cast<int64_t>(order.size());
    auto readEnd = [&](Operation *op) -> int64_t {
      int64_t at = order[op];
      if (!isa<Tcgen05MmaOp, Tcgen05CpOp, WgmmaOp, WgmmaRegsOp>(op))
        return at;
      Operation *commit = nullptr, *done = nullptr;
      loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *other) {
        int64_t o = order[other];
        if (done || o <= at)
          return;
        if (isa<WgmmaOp, WgmmaRegsOp>(op) && isa<WgmmaWaitOp>(other))
          done = other;
        else if (!commit && isa<Tcgen05CommitOp>(other))
          commit = other;
        else if (auto wait = dyn_cast<MbarrierWaitOp>(other);
                 wait && commit && wait.getBarriers() == commit->getOperand(0))
          done = other;
      });
      return done ? order[done] : end;
    };
    Value buffer = copy.getDest();
    bool reported = false;
    for (int64_t r = 0; r < size && !reported; ++r) {
      ThreadModel &sender = *models[r];
      std::optional<int64_t> mask = sender.getConstant(copy.getMulticast());
      if (!mayExecute(sender, copy) || !mask)
        continue;
      SmallVector<int64_t> slot;
      for (Value index : copy.getDestIndices())
        if (std::optional<int64_t> v = sender.getConstant(index))
          slot.push_back(*v);
      if (slot.size() != copy.getDestIndices().size())
        continue;
      for (int64_t t = 0; t < size && !reported; ++t) {
        if (t == r || !((*mask >> t) & 1))
          continue;
        ThreadModel &receiver = *models[t];
        loop.getBody()->walk([&](Operation *op) {
          if (reported || op == copy.getOperation())
            return;
          for (const MemoryAccess &access : getMemoryAccesses(op)) {
            if (access.buffer != buffer || !access.isRead())
              continue;
            if (!mayExecute(receiver, op))
              continue;
            // A read that surely misses the slot (every thread's leading indices decided and
            // different) is not overwritten.
            bool mayHit = access.indices.size() < slot.size();
            for (int64_t thread = 0; !mayHit && thread < receiver.getNumThreads(); ++thread) {
              bool same = true;
              for (size_t d = 0; d < slot.size() && same; ++d) {
                Lat v = receiver.eval(access.indices[d])[thread];
                same = v.kind != Lat::Known || v.value == slot[d];
              }
              mayHit = same;
            }
            if (!mayHit || ordered(readEnd(op), order[copy]))
              continue;
            std::string where;
            for (int64_t v : slot)
              where += (where.empty() ? "" : ", ") + std::to_string(v);
            bool blockBarrier = false;
            loop.getBody()->walk(
                [&](BarrierOp b) { blockBarrier |= between(order[b], order[op], order[copy]); });
            InFlightDiagnostic diag = emitFinding(copy, "cluster.multicast-overwrite");
            diag << "rank " << r << "'s multicast writes slot [" << where << "] of this buffer in rank "
                 << t << " in every iteration of the loop, and rank " << t
                 << " reads that slot in the loop with no cluster barrier between its read and "
                    "rank "
                 << r << "'s next copy: the next copy can overwrite the tile rank " << t
                 << " still reads"
                 << (blockBarrier ? " (a block barrier orders one block, not its peers' copies)"
                                  : "")
                 << (readEnd(op) != order[op]
                         ? " (an MMA reads its operands until the wait for its completion)"
                         : "");
            diag.attachNote(op->getLoc()) << "rank " << t << " reads the slot here";
            attachFix(diag, copy, "cluster.multicast-overwrite",
                      blockBarrier
                          ? "make the block barrier between this read and the next copy a "
                            "cake.cluster_barrier, so that no rank issues the next copy before "
                            "every receiver has read the current tile"
                          : "add a cake.cluster_barrier after the read and before the next copy "
                            "(every thread of every rank reaching it once per iteration), so "
                            "that no rank issues the next copy before every receiver has read "
                            "the current tile");
            reported = failed = true;
            return;
          }
        });
      }
    }
  }
  return failed;
}

struct CakeVerifyClusterPass : cake::impl::CakeVerifyClusterPassBase<CakeVerifyClusterPass> {
  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
    bool failed = false;
    getOperation()->walk([&](KernelOp kernel) {
      SmallVector<int64_t, 3> dims = kernel.getClusterDims();
      if (dims[1] != 1 || dims[2] != 1 || dims[0] < 2 || dims[0] > 16)
        return; // no cluster, or a 2-D/3-D one (not modelled)
      ClusterChecker checker{kernel, dims[0], {}, false};
      for (int64_t clusterId : {0, 1})
        checker.check(clusterId);
      // At ragged sizes, the first and the last cluster: a rank with no rows at the edge may
      // skip copies its peers expect bytes from.
      for (int64_t bound : {int64_t(1001), int64_t(4099)})
        if (int64_t last = lastClusterId(kernel, dims[0], bound); !checker.failed && last > 0)
          for (int64_t clusterId : {int64_t(0), last})
            checker.check(clusterId, bound);
      failed |= checker.failed;
      failed |= checkBarrierDivergence(kernel, dims[0]);
      failed |= checkMulticastOverwrite(kernel, dims[0]);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
