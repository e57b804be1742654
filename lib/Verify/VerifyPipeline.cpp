//===- VerifyPipeline.cpp - the pipeline protocol -------------------------===//
#include "PathSimulation.h"
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYPIPELINEPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// A read of a stage buffer: the op, and the index selecting the stage (null if none).
struct Read {
  Operation *op;
  Value stageIndex;
  bool async; // wgmma: reads until a wgmma.wait retires its group
  Value buffer;
};

struct Pipeline {
  PipelineCreateOp create;
  SmallVector<PipelineProducerAcquireOp> acquires;
  SmallVector<PipelineProducerCommitOp> commits;
  SmallVector<PipelineConsumerWaitOp> waits;
  SmallVector<PipelineConsumerReleaseOp> releases;
  SmallVector<TmaLoadOp> loads;
  llvm::SetVector<Value> buffers;
  SmallVector<Read> reads;
};

struct CakeVerifyPipelinePass
    : ModelCheckPass<CakeVerifyPipelinePass, cake::impl::CakeVerifyPipelinePassBase> {
  void verifyKernel(KernelOp kernel) {
    kernel.walk([&](PipelineCreateOp create) { verifyPipeline(create); });
    // The iterations each thread names, along its path (only where the above found nothing).
    if (ok)
      ok &= verifyPipelineSequences(kernel, *model);
  }

  bool same(Value a, Value b) { return model->sameValue(a, b); }
  bool before(Operation *a, Operation *b) { return order.lookup(a) < order.lookup(b); }

  /// The iteration whose slot `index` is (pipeline.slot or remui by the stage count), if known.
  Value slotIteration(Value index, Pipeline &p) {
    if (!index)
      return {};
    if (auto slot = index.getDefiningOp<PipelineSlotOp>())
      return slot.getPipeline() == p.create.getPipeline() ? slot.getIteration() : Value();
    if (auto rem = index.getDefiningOp<arith::RemUIOp>()) {
      std::optional<int64_t> c = model->getConstant(rem.getRhs());
      if (c && *c == p.create.getPipeline().getType().getStages())
        return rem.getLhs();
    }
    return {};
  }

  void collect(Pipeline &p) {
    Value pipe = p.create.getPipeline();
    for (Operation *user : pipe.getUsers()) {
      if (auto op = dyn_cast<PipelineProducerAcquireOp>(user))
        p.acquires.push_back(op);
      else if (auto op = dyn_cast<PipelineProducerCommitOp>(user))
        p.commits.push_back(op);
      else if (auto op = dyn_cast<PipelineConsumerWaitOp>(user))
        p.waits.push_back(op);
      else if (auto op = dyn_cast<PipelineConsumerReleaseOp>(user))
        p.releases.push_back(op);
      else if (auto op = dyn_cast<TmaLoadOp>(user); op && op.getBarrier() == pipe)
        p.loads.push_back(op);
    }
    auto byOrder = [&](Operation *a, Operation *b) { return before(a, b); };
    llvm::sort(p.acquires, byOrder);
    llvm::sort(p.commits, byOrder);
    llvm::sort(p.waits, byOrder);
    llvm::sort(p.releases, byOrder);
    llvm::sort(p.loads, byOrder);
    for (TmaLoadOp load : p.loads)
      p.buffers.insert(load.getDest());
    for (Value buffer : p.buffers) {
      for (OpOperand &use : buffer.getUses()) {
        Operation *op = use.getOwner();
        // Every read of a stage buffer (CakeMemoryAccessOpInterface), at its first index (the
        // stage); wgmma operands are read until their group retires. Writes are the fills.
        for (const MemoryAccess &a : getMemoryAccesses(op)) {
          if (a.buffer != buffer || !a.isRead())
            continue;
          Value index = a.indices.empty() ? Value() : a.indices.front();
          p.reads.push_back({op, index, a.completion == AccessCompletion::WgmmaGroup, buffer});
        }
      }
    }
    llvm::sort(p.reads, [&](const Read &a, const Read &b) { return before(a.op, b.op); });
  }

  /// Whether TMA copies completing on `pipe` write `buffer`.
  static bool fills(Value pipe, Value buffer) {
    return llvm::any_of(pipe.getUsers(), [&](Operation *user) {
      auto load = dyn_cast<TmaLoadOp>(user);
      return load && load.getBarrier() == pipe && load.getDest() == buffer;
    });
  }

  /// An acquire of `iteration` of `pipe` is `op` or lies inside it.
  bool acquires(Operation *op, Value pipe, Value iteration) {
    bool found = false;
    op->walk([&](PipelineProducerAcquireOp acquire) {
      found |= acquire.getPipeline() == pipe && same(acquire.getIteration(), iteration);
    });
    return found;
  }

  /// Whether `cond` holds exactly when `value >= C` for some C <= `stages`.
  bool holdsFromBelowStages(Value cond, Value value, int64_t stages) {
    auto cmp = cond.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return false;
    using P = arith::CmpIPredicate;
    P pred = cmp.getPredicate();
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    if (!same(lhs, value)) { // C <= value, written the other way round
      std::swap(lhs, rhs);
      pred = swapPredicate(pred);
    }
    std::optional<int64_t> c = model->getConstant(rhs);
    if (!same(lhs, value) || !c)
      return false;
    if (pred == P::uge || pred == P::sge)
      return *c <= stages;
    if (pred == P::ugt || pred == P::sgt)
      return *c + 1 <= stages;
    return false;
  }

  static arith::CmpIPredicate swapPredicate(arith::CmpIPredicate pred) {
    using P = arith::CmpIPredicate;
    switch (pred) {
    case P::ult: return P::ugt;
    case P::ule: return P::uge;
    case P::ugt: return P::ult;
    case P::uge: return P::ule;
    case P::slt: return P::sgt;
    case P::sle: return P::sge;
    case P::sgt: return P::slt;
    case P::sge: return P::sle;
    default: return pred;
    }
  }

  /// Whether iteration `it` is acquired before `load` writes its stage:
  /// - an acquire of `it` earlier on the path;
  /// - one that only iterations below `stages` skip (under `scf.if it >= C`, C <= stages): the
  ///   ring starts empty and the lowering's round-0 acquire is a parity wait that passes at once;
  /// - in a loop over `it`, an acquire of the next iteration (`it + step`) anywhere in the body
  ///   (the rotated loop), with the first iteration acquired before the loop or below `stages`.
  bool acquiredBefore(TmaLoadOp load, Value it, int64_t stages, Value pipe) {
    if (findPreceding(load, [&](Operation *op) {
          if (auto ifOp = dyn_cast<scf::IfOp>(op);
              ifOp && holdsFromBelowStages(ifOp.getCondition(), it, stages))
            return llvm::any_of(ifOp.getThenRegion().front(),
                                [&](Operation &inner) { return acquires(&inner, pipe, it); });
          return isa<PipelineProducerAcquireOp>(op) && acquires(op, pipe, it);
        }))
      return true;
    auto iv = dyn_cast<BlockArgument>(it);
    auto loop = iv ? dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp()) : scf::ForOp();
    if (!loop || loop.getInductionVar() != iv || !loop->isAncestor(load))
      return false;
    bool acquiresNext = false;
    loop.getBody()->walk([&](PipelineProducerAcquireOp acquire) {
      auto add = acquire.getIteration().getDefiningOp<arith::AddIOp>();
      acquiresNext |= acquire.getPipeline() == pipe && add &&
                      ((add.getLhs() == iv && same(add.getRhs(), loop.getStep())) ||
                       (add.getRhs() == iv && same(add.getLhs(), loop.getStep())));
    });
    if (!acquiresNext)
      return false;
    std::optional<int64_t> first = model->getConstant(loop.getLowerBound());
    return (first && *first < stages) ||
           findPreceding(loop, [&](Operation *op) { return acquires(op, pipe, loop.getLowerBound()); });
  }

  void finding(Operation *op, StringRef rule, const Twine &message,
               ArrayRef<std::pair<Operation *, std::string>> notes, const Twine &hint) {
    ok = false;
    InFlightDiagnostic diag = emitFinding(op, rule) << message.str();
    for (auto &[at, text] : notes)
      diag.attachNote(at->getLoc()) << text;
    attachFix(diag, op, rule, hint);
  }

  void verifyPipeline(PipelineCreateOp create) {
    Pipeline p{create, {}, {}, {}, {}, {}, {}, {}};
    collect(p);
    int64_t stages = create.getPipeline().getType().getStages();
    int64_t consumers = create.getConsumers();
    std::string createNote = "the pipeline (" + std::to_string(stages) + " stages, " +
                             std::to_string(consumers) + " consumer arrivals) is created here";

    // Producer side: one thread commits the bytes of the copies that follow.
    for (PipelineProducerCommitOp commit : p.commits) {
      Executors ex = model->executors(commit);
      if (ex.exact && ex.count() != 1)
        finding(commit, "pipeline.commit-threads",
                "expected exactly one thread to commit (the full barrier counts one arrival), "
                "got " +
                    Twine(ex.count()),
                {}, "guard the producer with cake.elect_one in one warp");
      // The copies it announces: those of its iteration in its block, or, for a commit under a
      // condition (a ragged last tile announced apart), in the block around the scf.if.
      SmallVector<TmaLoadOp> local;
      for (Block *scope = commit->getBlock(); scope && local.empty();) {
        for (Operation &op : *scope)
          op.walk([&](TmaLoadOp load) {
            if (load.getBarrier() == create.getPipeline() &&
                same(load.getBarrierIndex(), commit.getIteration()))
              local.push_back(load);
          });
        Operation *parent = scope->getParentOp();
        scope = isa_and_nonnull<scf::IfOp>(parent) ? parent->getBlock() : nullptr;
      }
      if (local.empty())
        continue;
      int64_t sum = 0;
      SmallVector<std::pair<Operation *, std::string>> notes;
      for (TmaLoadOp load : local) {
        int64_t bytes = load.getDescriptor().getType().getBoxBytes();
        sum += bytes;
        notes.push_back({load, "copies " + std::to_string(bytes) + " bytes"});
      }
      if (sum != static_cast<int64_t>(commit.getTxBytes()))
        finding(commit, "pipeline.tx-bytes",
                "expected tx_bytes to equal the " + Twine(sum) +
                    " bytes of the TMA copies into this iteration's stage, got " +
                    Twine(commit.getTxBytes()),
                notes, "set tx_bytes " + Twine(sum));
    }
    for (TmaLoadOp load : p.loads) {
      Value it = load.getBarrierIndex();
      if (!llvm::any_of(p.commits, [&](auto c) { return same(c.getIteration(), it); }))
        finding(load, "pipeline.commit-missing",
                "expected a cake.pipeline.producer_commit of this iteration announcing the copy's "
                "bytes",
                {{create, createNote}},
                "before the copies: cake.pipeline.producer_commit %pipe[%it], tx_bytes <bytes of "
                "this iteration's copies>");
      if (!acquiredBefore(load, it, stages, create.getPipeline()))
        finding(load, "pipeline.acquire-missing",
                "expected a cake.pipeline.producer_acquire of this iteration before writing its "
                "stage: the consumers may still be reading it",
                {{create, createNote}},
                "add cake.pipeline.producer_acquire %pipe[%it] before the commit and the copies");
      // The stage written must be the iteration's slot.
      auto indices = load.getDestIndices();
      SmemType dest = load.getDest().getType();
      if (indices.empty()) {
        if (stages > 1)
          finding(load, "pipeline.stage-count",
                  "expected the destination to have a stage dimension of " + Twine(stages) +
                      " (the pipeline's stages), got a single-stage buffer",
                  {{create, createNote}},
                  "give the buffer a leading dimension of " + Twine(stages) +
                      " and index it with cake.pipeline.slot");
        continue;
      }
      Value slotOf = slotIteration(indices[0], p);
      std::optional<int64_t> constant = model->getConstant(indices[0]);
      if ((slotOf && !same(slotOf, it)) || (!slotOf && constant && stages > 1)) {
        finding(load, "pipeline.slot-mismatch",
                "expected the destination stage to be the slot of the iteration the copy "
                "completes on",
                {{create, createNote}},
                "index the destination with cake.pipeline.slot %pipe[<the copy's iteration>]");
        continue;
      }
      if (slotOf && dest.getShape()[0] < stages)
        finding(load, "pipeline.stage-count",
                "expected the destination's stage dimension to hold " + Twine(stages) +
                    " stages, got " + Twine(dest.getShape()[0]),
                {{create, createNote}},
                "give the buffer a leading dimension of " + Twine(stages) + " or the pipeline " +
                    Twine(dest.getShape()[0]) + " stages");
    }

    // Consumer side: wait before reading, release after the last read.
    for (const Read &read : p.reads) {
      // A slot of another pipeline, which does not fill this buffer: its stage is that
      // pipeline's iteration count modulo its stages, unrelated to what was waited for here.
      if (auto other = read.stageIndex ? read.stageIndex.getDefiningOp<PipelineSlotOp>()
                                       : PipelineSlotOp();
          other && other.getPipeline() != create.getPipeline() &&
          !fills(other.getPipeline(), read.buffer)) {
        finding(read.op, "pipeline.slot-mismatch",
                "expected the stage read to be a slot of the pipeline whose copies fill the "
                "buffer, got a slot of another pipeline",
                {{create, createNote}, {other, "the slot read is of this pipeline"}},
                "index the stage with cake.pipeline.slot of the pipeline that fills the buffer, "
                "at the iteration waited for");
        continue;
      }
      Value it = slotIteration(read.stageIndex, p);
      if (!it && read.stageIndex && model->getConstant(read.stageIndex) && stages > 1) {
        finding(read.op, "pipeline.slot-mismatch",
                "expected the stage read to be the slot of the iteration waited for, got the "
                "constant stage " +
                    Twine(*model->getConstant(read.stageIndex)),
                {{create, createNote}},
                "index the stage with cake.pipeline.slot %pipe[<the waited iteration>]");
        continue;
      }
      Operation *wait = findPreceding(read.op, [&](Operation *op) {
        auto w = dyn_cast<PipelineConsumerWaitOp>(op);
        return w && w.getPipeline() == create.getPipeline() && (!it || same(w.getIteration(), it));
      });
      if (wait)
        continue;
      SmallVector<std::pair<Operation *, std::string>> notes = {{create, createNote}};
      for (TmaLoadOp load : p.loads)
        if (load.getDest() == read.op->getOperand(0) ||
            llvm::is_contained(read.op->getOperands(), load.getDest())) {
          notes.push_back({load, "the stage is filled here"});
          break;
        }
      finding(read.op, "pipeline.read-before-wait",
              "expected a cake.pipeline.consumer_wait of this iteration before reading its stage",
              notes,
              "add cake.pipeline.consumer_wait %pipe[%it] before the first read of the stage");
    }
    if (!p.waits.empty() && p.releases.empty())
      finding(p.waits.front(), "pipeline.missing-release",
              "expected a cake.pipeline.consumer_release after the consumers' last read of the "
              "stage: without it the producer stalls after " +
                  Twine(stages) + " iterations",
              {{create, createNote}},
              "after the last read of the stage (and a cake.wgmma.wait that retires the wgmma "
              "reading it): cake.pipeline.consumer_release %pipe[%it]");
    verifyReleases(p);
  }

  /// `v` as a sum of leaf values plus a constant, through arith.addi and constants (a few
  /// levels deep): enough to tell `%it0 + 2q` from `%it0 + (2q + 1)`.
  void linearize(Value v, SmallVectorImpl<Value> &leaves, int64_t &constant, unsigned depth = 0) {
    if (std::optional<int64_t> c = model->getConstant(v)) {
      constant += *c;
      return;
    }
    if (auto add = v.getDefiningOp<arith::AddIOp>(); add && depth < 6) {
      linearize(add.getLhs(), leaves, constant, depth + 1);
      linearize(add.getRhs(), leaves, constant, depth + 1);
      return;
    }
    leaves.push_back(v);
  }

  /// Whether iterations `a` and `b` provably differ: the same leaves, different constants.
  bool differentIterations(Value a, Value b) {
    SmallVector<Value> la, lb;
    int64_t ca = 0, cb = 0;
    linearize(a, la, ca);
    linearize(b, lb, cb);
    if (ca == cb || la.size() != lb.size())
      return false;
    SmallVector<bool> used(lb.size(), false);
    for (Value x : la) {
      bool found = false;
      for (size_t i = 0; i < lb.size() && !found; ++i)
        if (!used[i] && same(x, lb[i]))
          used[i] = found = true;
      if (!found)
        return false;
    }
    return true;
  }

  void verifyReleases(Pipeline &p) {
    int64_t consumers = p.create.getConsumers();
    // The threads that release per iteration, grouped by loop and, within a loop, by the
    // iteration released: a loop body may release several stages (tiles taken in pairs:
    // %it and %it + 1), each by all the consumers. Releases join one group unless their
    // iterations provably differ.
    SmallVector<std::pair<Operation *, SmallVector<Operation *>>> groups;
    for (PipelineConsumerReleaseOp release : p.releases) {
      Operation *loop = release->getParentOfType<scf::ForOp>();
      auto *group = llvm::find_if(groups, [&](const auto &g) {
        return g.first == loop &&
               !differentIterations(cast<PipelineConsumerReleaseOp>(g.second.front()).getIteration(),
                                    release.getIteration());
      });
      if (group == groups.end())
        groups.push_back({loop, {release}});
      else
        group->second.push_back(release);
    }
    for (auto &[loop, group] : groups) {
      int64_t sum = 0;
      bool exact = true;
      std::optional<Reach> common;
      for (Operation *op : group) {
        Executors ex = model->executors(op);
        exact &= ex.exact;
        sum += ex.count();
        if (ex.exact && ex.count()) {
          const Reach &r = model->reach(op)[ex.threads.find_first()];
          if (common && *common != r)
            exact = false;
          common = r;
        }
      }
      if (!exact || sum == consumers)
        continue;
      SmallVector<std::pair<Operation *, std::string>> notes = {
          {p.create, "the empty barriers expect " + std::to_string(consumers) +
                         " arrivals per stage (consumers)"}};
      finding(group.front(), "pipeline.consumer-count",
              "expected " + Twine(consumers) +
                  " threads to release each stage (the pipeline's consumers), got " + Twine(sum),
              notes,
              "set consumers " + Twine(sum) +
                  " on cake.pipeline.create, or release from exactly that many threads");
    }

    for (PipelineConsumerReleaseOp release : p.releases) {
      Value x = release.getIteration();
      auto loop = release->getParentOfType<scf::ForOp>();
      auto inScope = [&](Operation *op) { return !loop || loop->isProperAncestor(op); };
      // A read of the released stage after the release, in the same iteration.
      for (const Read &read : p.reads) {
        Value it = slotIteration(read.stageIndex, p);
        if (!it || !same(it, x) || !inScope(read.op) || !before(release, read.op))
          continue;
        finding(release, "pipeline.release-before-use",
                "expected the release after the last read of the stage, but it is read later",
                {{read.op, "read here, after the release"}},
                "move cake.pipeline.consumer_release after this read");
        break;
      }
      if (loop)
        verifyInFlight(p, release, loop);
    }
  }

  /// A release while a wgmma that reads the stage may still run.
  void verifyInFlight(Pipeline &p, PipelineConsumerReleaseOp release, scf::ForOp loop) {
    Value x = release.getIteration();
    // Which iteration's reads are released: this one's (distance 0) or d iterations back.
    int64_t distance = -1;
    Read *last = nullptr;
    SmallVector<Operation *> events; // wgmma reads, commits and waits directly in this loop
    loop.getBody()->walk([&](Operation *op) {
      if (op->getParentOfType<scf::ForOp>() != loop)
        return;
      if (isa<WgmmaCommitOp, WgmmaWaitOp>(op))
        events.push_back(op);
    });
    for (Read &read : p.reads) {
      if (!read.async || !loop->isProperAncestor(read.op) ||
          read.op->getParentOfType<scf::ForOp>() != loop)
        continue;
      Value it = slotIteration(read.stageIndex, p);
      if (!it)
        continue;
      int64_t d = -1;
      if (same(it, x)) {
        d = 0;
      } else if (auto sub = x.getDefiningOp<arith::SubIOp>()) {
        std::optional<int64_t> c = model->getConstant(sub.getRhs());
        if (c && *c > 0 && same(sub.getLhs(), it))
          d = *c;
      }
      if (d < 0 || (distance >= 0 && d != distance))
        continue;
      distance = d;
      if (d > 0 || before(read.op, release))
        if (!last || before(last->op, read.op))
          last = &read;
    }
    if (!last || distance < 0)
      return;
    llvm::sort(events, [&](Operation *a, Operation *b) { return before(a, b); });
    int64_t commitsPerIteration =
        llvm::count_if(events, [](Operation *op) { return isa<WgmmaCommitOp>(op); });
    int64_t commitsAfterRead = llvm::count_if(
        events, [&](Operation *op) { return isa<WgmmaCommitOp>(op) && before(last->op, op); });
    bool retired = false;
    for (Operation *op : events) {
      auto wait = dyn_cast<WgmmaWaitOp>(op);
      if (!wait || !before(op, release))
        continue;
      int64_t since;
      if (distance == 0) {
        if (!before(last->op, op))
          continue;
        since = llvm::count_if(events, [&](Operation *e) {
          return isa<WgmmaCommitOp>(e) && before(last->op, e) && before(e, op);
        });
      } else {
        int64_t before_ = llvm::count_if(
            events, [&](Operation *e) { return isa<WgmmaCommitOp>(e) && before(e, op); });
        since = commitsAfterRead + (distance - 1) * commitsPerIteration + before_;
      }
      if (since >= 1 && static_cast<int64_t>(wait.getPending()) <= since - 1)
        retired = true;
    }
    if (retired)
      return;
    finding(release, "pipeline.release-in-flight",
            "expected the wgmma reading the stage to be retired (cake.wgmma.commit, then "
            "cake.wgmma.wait) before the release, but it may still be reading",
            {{last->op, "this wgmma reads the stage"}},
            distance == 0
                ? "after the wgmma: cake.wgmma.commit and cake.wgmma.wait 0, then release"
                : "lower the cake.wgmma.wait count before the release so that the group reading "
                  "the stage has retired (wait " +
                      std::to_string(std::max<int64_t>(
                          0, commitsAfterRead + (distance - 1) * commitsPerIteration)) +
                      " or less)");
  }
};
} // namespace
