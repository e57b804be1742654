//===- VerifyRoles.cpp - warp roles and collective participation ----------===//
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "ShapeProbes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <memory>
#include <optional>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYROLESPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

static constexpr int64_t kRegisterFile = 65536;

/// Ops that use wgmma fragments or instructions (and so need warpgroup-aligned roles).
static bool isWgmmaFamily(Operation *op) {
  return isWarpgroupCollective(op) || isa<WgmmaStoreOp, WgmmaRowArgReduceOp, WgmmaStoreRowsOp>(op);
}

namespace {
struct CakeVerifyRolesPass : KernelCheckPass<CakeVerifyRolesPass, cake::impl::CakeVerifyRolesPassBase> {
  bool verifyKernel(KernelOp kernel) {
    bool ok = true;
    ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
    int64_t threads = model.getNumThreads();
    int64_t warps = (threads + 31) / 32;
    int64_t entryRegs = std::min<int64_t>(255, kRegisterFile / threads / 8 * 8);

    kernel.walk([&](WarpRolesOp rolesOp) {
      // The register file: each warp at its role's budget, or at the entry budget.
      SmallVector<RoleOp> roles(rolesOp.getBody().front().getOps<RoleOp>());
      int64_t total = 0;
      int64_t roleless = warps;
      for (RoleOp role : roles) {
        int64_t first = std::clamp<int64_t>(role.getFirst(), 0, warps);
        int64_t last = std::clamp<int64_t>(role.getLast(), first, warps);
        roleless -= last - first;
        total += (last - first) * 32 * role.getRegs().value_or(entryRegs);
      }
      total += std::max<int64_t>(0, roleless) * 32 * entryRegs;
      if (total > kRegisterFile) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(rolesOp, "roles.register-file")
                                  << "expected the warps' register budgets to total at most "
                                  << kRegisterFile << " registers, got " << total;
        RoleOp biggest;
        for (RoleOp role : roles) {
          int64_t n = role.getLast() - role.getFirst();
          int64_t regs = role.getRegs().value_or(entryRegs);
          diag.attachNote(role.getLoc())
              << describeRole(role) << ": " << n << " warps x 32 threads x " << regs
              << " registers = " << n * 32 * regs;
          if (role.getRegs() && (!biggest || *role.getRegs() > *biggest.getRegs()))
            biggest = role;
        }
        std::string hint;
        if (biggest) {
          int64_t n = biggest.getLast() - biggest.getFirst();
          int64_t others = total - n * 32 * *biggest.getRegs();
          int64_t fit = (kRegisterFile - others) / (n * 32) / 8 * 8;
          if (fit >= 24)
            hint = "lower role '" + biggest.getRoleName().str() + "' to regs " +
                   std::to_string(fit) + " (or lower the other roles' budgets)";
        }
        if (hint.empty())
          hint = "lower the roles' register budgets so that the sum of warps x 32 x regs is at "
                 "most 65536";
        attachFix(diag, rolesOp, "roles.register-file", hint);
      }

      // wgmma roles cover whole warpgroups.
      for (RoleOp role : roles) {
        if (role.getFirst() % 4 == 0 && role.getLast() % 4 == 0)
          continue;
        Operation *wgmma = nullptr;
        role.walk([&](Operation *op) {
          if (!wgmma && isWgmmaFamily(op))
            wgmma = op;
        });
        if (!wgmma)
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(role, "roles.wgmma-warpgroup")
                                  << "expected a role that issues wgmma to cover whole "
                                     "warpgroups (warps aligned to 4), got ["
                                  << role.getFirst() << ", " << role.getLast() << ")";
        diag.attachNote(wgmma->getLoc()) << "wgmma op here";
        int64_t first = role.getFirst() / 4 * 4, last = (role.getLast() + 3) / 4 * 4;
        attachFix(diag, role, "roles.wgmma-warpgroup",
                  "give the role warps [" + std::to_string(first) + ", " + std::to_string(last) +
                      ") (whole warpgroups) and move the other roles out of them");
      }
    });

    // Block-wide barriers: every thread must reach them.
    kernel.walk([&](Operation *op) {
      if (!isBlockBarrier(op))
        return;
      if (auto role = op->getParentOfType<RoleOp>()) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, "roles.barrier-in-role")
                                  << "expected a block-wide barrier to be reached by every thread, "
                                     "but it is inside "
                                  << describeRole(role);
        diag.attachNote(role.getLoc()) << "the role is here; warps outside it never arrive";
        attachFix(diag, op, "roles.barrier-in-role",
                  isa<PipelineCreateOp>(op)
                      ? "create the pipeline before cake.warp_roles"
                      : "move the barrier out of cake.warp_roles, or synchronize the role with "
                        "mbarriers or a pipeline");
        return;
      }
      if (Operation *divergent = model.findDivergentAncestor(op)) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, "roles.divergent-barrier")
                                  << "expected a block-wide barrier to be reached by every thread, "
                                     "but it is under control flow that depends on the thread";
        diag.attachNote(divergent->getLoc())
            << "this " << divergent->getName() << " depends on the thread";
        // Moving the barrier past the region would drop the ordering it gives the accesses
        // inside the region: split the region at the barrier instead.
        attachFix(diag, op, "roles.divergent-barrier",
                  isa<scf::IfOp>(divergent)
                      ? "split the scf.if at the barrier: end it before the barrier and reopen "
                        "the same condition after it, so that every thread reaches the barrier"
                  : isa<scf::ForOp, scf::WhileOp>(divergent)
                      ? "give the loop a trip count every thread shares and mask the per-thread "
                        "work inside it, so that every thread reaches the barrier equally often"
                      : "split the divergent region at the barrier (end it before the barrier "
                        "and reopen it after), so that every thread reaches the barrier");
      }
    });

    // Collectives: whole warpgroups (wgmma) and whole warps (shuffles, elect).
    kernel.walk([&](Operation *op) {
      int64_t group = getCollectiveGroup(op);
      if (!group)
        return;
      // A misaligned wgmma role is reported once, as roles.wgmma-warpgroup.
      if (auto role = op->getParentOfType<RoleOp>();
          role && group == 128 && (role.getFirst() % 4 != 0 || role.getLast() % 4 != 0))
        return;
      Executors ex = model.executors(op);
      if (!ex.exact)
        return;
      if (auto partial = findPartialGroup(ex.threads, threads, group)) {
        auto [lo, n] = *partial;
        ok = false;
        StringRef rule = group == 128 ? "roles.partial-warpgroup" : "roles.partial-warp";
        InFlightDiagnostic diag = emitFinding(op, rule)
                                  << "expected all " << group << " threads of "
                                  << (group == 128 ? "warpgroup " : "warp ") << lo / group
                                  << " to execute this op, got " << n;
        if (Operation *divergent = model.findDivergentAncestor(op))
          diag.attachNote(divergent->getLoc()) << "threads diverge here";
        attachFix(diag, op, rule,
                  group == 128 ? "execute wgmma ops in every thread of the warpgroup (move them "
                                 "out of thread-dependent conditions)"
                  : isa<NamedBarrierOp>(op)
                      ? "execute the named barrier in all 32 lanes of each arriving warp (move it "
                        "out of lane-dependent conditions): bar.sync is .aligned"
                  // Moved out of the condition, a reduction would combine every lane's value:
                  // the lanes the condition left out must feed it the identity.
                  : isa<WarpReduceOp, WarpArgReduceOp>(op)
                      ? "execute the reduction in all 32 lanes (move it out of lane-dependent "
                        "conditions), the lanes outside the condition contributing the "
                        "identity: arith.select on the condition (0 for a sum, -inf for a max)"
                      : "execute the warp collective in all 32 lanes (move it out of "
                        "lane-dependent conditions)");
        return;
      }
    });
    ok &= verifyNamedBarrierCounts(kernel, model);
    ok &= verifyNamedBarrierInstances(kernel, model);
    return ok;
  }

  /// How many times an op runs per thread that executes it: a coefficient times the trip counts
  /// of the loops around it that are not constant (each keyed by its bounds' values: two loops
  /// over the same SSA bounds run equally often). None when a loop or condition around it is
  /// not followed (scf.while, a condition that does not depend on the thread).
  using Instances = std::map<SmallVector<const void *, 6>, int64_t>;

  static int64_t tripCount(int64_t lb, int64_t ub, int64_t step) {
    return ub > lb ? (ub - lb + step - 1) / step : 0;
  }

  std::optional<Instances> instancesOf(Operation *op, ThreadModel &model) {
    int64_t coefficient = 1;
    SmallVector<std::array<const void *, 3>> loops; // run-time loops: their bound values
    for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp()) {
      if (isa<RoleOp, WarpRolesOp>(p))
        continue;
      if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
        if (!model.isThreadDependent(ifOp.getCondition()))
          return std::nullopt; // data-dependent: may or may not run
        continue;              // thread-dependent: the executors say who runs it
      }
      auto loop = dyn_cast<scf::ForOp>(p);
      if (!loop)
        return std::nullopt;
      auto lb = getConstantIntValue(loop.getLowerBound());
      auto ub = getConstantIntValue(loop.getUpperBound());
      auto step = getConstantIntValue(loop.getStep());
      if (lb && ub && step && *step > 0) {
        coefficient *= tripCount(*lb, *ub, *step);
        continue;
      }
      if (model.isThreadDependent(loop.getLowerBound()) ||
          model.isThreadDependent(loop.getUpperBound()) || model.isThreadDependent(loop.getStep()))
        return std::nullopt;
      loops.push_back({loop.getLowerBound().getAsOpaquePointer(),
                       loop.getUpperBound().getAsOpaquePointer(),
                       loop.getStep().getAsOpaquePointer()});
    }
    llvm::sort(loops); // nesting order does not matter
    SmallVector<const void *, 6> key;
    for (auto &l : loops)
      key.append(l.begin(), l.end());
    Instances out;
    if (coefficient)
      out[key] = coefficient;
    return out;
  }

  /// Different counts whenever the loops involved run: a - b has terms of one sign only (trip
  /// counts are never negative), e.g. constants 1 and 16, 2 x L and L, L + 1 and L for one loop
  /// L (its bound values). Two loops over different bound values may still run equally often (0
  /// to 2n step 2 and 0 to n): mixed signs give no verdict.
  static bool provablyDifferent(const Instances &a, const Instances &b) {
    Instances diff = a;
    for (auto &[key, c] : b)
      diff[key] -= c;
    bool positive = false, negative = false;
    for (auto &[key, c] : diff) {
      positive |= c > 0;
      negative |= c < 0;
    }
    return positive != negative;
  }

  static std::string describe(const Instances &n) {
    if (n.empty())
      return "0 times";
    std::string s;
    for (auto &[key, c] : n) {
      if (!s.empty())
        s += " + ";
      s += std::to_string(c);
      if (!key.empty())
        s += " x (" + std::to_string(key.size() / 3) + " loop(s) with run-time bounds)";
    }
    return s + " time(s)";
  }

  /// Every instance of a named barrier completes when its count of threads arrive: the warps
  /// that take part must reach the id equally often. A warp that reaches it more often than its
  /// partners waits forever at a surplus instance (a start signal given once against a sync per
  /// row, a second sync in one role's loop).
  bool verifyNamedBarrierInstances(KernelOp kernel, ThreadModel &model) {
    llvm::MapVector<int64_t, SmallVector<NamedBarrierOp>> byId;
    kernel.walk([&](NamedBarrierOp op) { byId[op.getId()].push_back(op); });
    bool ok = true;
    int64_t warps = (model.getNumThreads() + 31) / 32;
    std::vector<ShapeProbe> probes;
    std::vector<std::unique_ptr<ThreadModel>> probeModels; // built on first need
    for (auto &entry : byId) {
      int64_t id = entry.first;
      SmallVector<NamedBarrierOp> &ops = entry.second;
      if (llvm::any_of(ops, [&](NamedBarrierOp op) {
            return op.getThreads() != ops.front().getThreads();
          }))
        continue; // two barriers sharing an id: roles.named-barrier-count's
      auto report = [&](int64_t w, int64_t ref, NamedBarrierOp at, NamedBarrierOp refOp,
                        const std::string &mine, const std::string &theirs,
                        const std::string &where) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(at, "roles.named-barrier-instances")
                                  << "warp " << w << " reaches barrier " << id << " " << mine
                                  << " per block, warp " << ref << " " << theirs << where
                                  << ": the warps that reach it more often wait forever at an "
                                     "instance the others never join";
        diag.attachNote(refOp.getLoc()) << "warp " << ref << " reaches barrier " << id << " here";
        attachFix(diag, at, "roles.named-barrier-instances",
                  "make every participating warp reach barrier " + std::to_string(id) +
                      " the same number of times (the same loop and the same syncs per "
                      "iteration), or give the extra syncs their own id");
      };
      // Symbolically: for every size where the loops involved run.
      std::vector<Instances> perWarp(warps);
      std::vector<NamedBarrierOp> firstOp(warps);
      bool known = true;
      for (NamedBarrierOp op : ops) {
        Executors ex = model.executors(op);
        std::optional<Instances> n = instancesOf(op, model);
        if (!ex.exact || !n) {
          known = false;
          break;
        }
        for (int64_t w = 0; w < warps; ++w) {
          int64_t lo = w * 32, hi = std::min<int64_t>(lo + 32, model.getNumThreads());
          if (ex.threads.find_first_in(lo, hi) < 0)
            continue;
          for (auto &[key, c] : *n)
            perWarp[w][key] += c;
          if (!firstOp[w])
            firstOp[w] = op;
        }
      }
      bool reported = false;
      int64_t ref = -1;
      for (int64_t w = 0; known && w < warps && !reported; ++w) {
        if (!firstOp[w])
          continue;
        if (ref < 0) {
          ref = w;
          continue;
        }
        if (!provablyDifferent(perWarp[w], perWarp[ref]))
          continue;
        report(w, ref, firstOp[w], firstOp[ref], describe(perWarp[w]), describe(perWarp[ref]), "");
        reported = true;
      }
      if (reported || (known && llvm::all_of(perWarp, [&](const Instances &n) {
                         return n.empty() || ref < 0 || n == perWarp[ref];
                       })))
        continue;
      // Otherwise at concrete launches (loops over other bound values, bounds that depend on
      // the warp): a size where two warps' counts differ is the witness.
      if (probes.empty()) {
        probes = getProbeSizeSets(kernel);
        for (ShapeProbe &probe : probes)
          probeModels.push_back(std::make_unique<ThreadModel>(kernel, probe));
      }
      for (size_t i = 0; i < probes.size() && !reported; ++i) {
        std::vector<int64_t> counts(warps, -1);
        std::vector<NamedBarrierOp> first(warps);
        if (!concreteInstances(ops, *probeModels[i], counts, first))
          continue;
        int64_t r = -1;
        for (int64_t w = 0; w < warps && !reported; ++w) {
          if (counts[w] < 0)
            continue;
          if (r < 0) {
            r = w;
            continue;
          }
          if (counts[w] == counts[r])
            continue;
          std::string where = " at";
          SmallVector<std::pair<std::string, int64_t>> sizes;
          for (auto &entry : probes[i].sizes)
            sizes.push_back({entry.getKey().str(), entry.getValue()});
          llvm::sort(sizes);
          for (auto &[name, value] : sizes)
            where += " " + name + "=" + std::to_string(value);
          where += " (block 0)";
          report(w, r, first[w], first[r], std::to_string(counts[w]) + " time(s)",
                 std::to_string(counts[r]) + " time(s)", where);
          reported = true;
        }
      }
    }
    return ok;
  }

  /// Per warp, how many times its first thread reaches the ops at one concrete launch (-1: the
  /// warp does not take part: another role, or a thread condition that excludes it); false when
  /// a loop bound or a condition around an op is not known there. Evaluated per thread, so loop
  /// bounds that depend on the warp count too.
  static bool concreteInstances(ArrayRef<NamedBarrierOp> ops, ThreadModel &pm,
                                std::vector<int64_t> &counts, std::vector<NamedBarrierOp> &first) {
    for (NamedBarrierOp op : ops) {
      for (size_t w = 0; w < counts.size(); ++w) {
        int64_t t = w * 32;
        int64_t n = 1;
        bool takesPart = true;
        for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp()) {
          if (isa<WarpRolesOp>(p))
            continue;
          if (auto role = dyn_cast<RoleOp>(p)) {
            takesPart &= uint64_t(w) >= role.getFirst() && uint64_t(w) < role.getLast();
            continue;
          }
          if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
            Lat c = pm.eval(ifOp.getCondition())[t];
            if (c.kind != Lat::Known)
              return false;
            bool inThen = ifOp.getThenRegion().isAncestor(op->getParentRegion());
            if ((c.value != 0) != inThen) {
              if (pm.isThreadDependent(ifOp.getCondition()))
                takesPart = false; // the thread takes the other branch
              else
                n = 0;             // at this size, nobody runs it
            }
            continue;
          }
          auto loop = dyn_cast<scf::ForOp>(p);
          if (!loop)
            return false;
          Lat lb = pm.eval(loop.getLowerBound())[t], ub = pm.eval(loop.getUpperBound())[t],
              step = pm.eval(loop.getStep())[t];
          if (lb.kind != Lat::Known || ub.kind != Lat::Known || step.kind != Lat::Known ||
              step.value <= 0)
            return false;
          n *= tripCount(lb.value, ub.value, step.value);
        }
        if (!takesPart)
          continue;
        counts[w] = std::max<int64_t>(counts[w], 0) + n;
        if (!first[w])
          first[w] = op;
      }
    }
    return true;
  }

  /// A named barrier id is one hardware barrier for the block: every `bar.sync id, N` must name
  /// as N the threads that reach that id (all its ops together, whole warps). A cross-role handoff (two roles
  /// of 128 threads, each `threads 256`) is right; two roles each syncing with their own 128 on
  /// one id count each other's arrivals (early release), and a count above the participants hangs.
  bool verifyNamedBarrierCounts(KernelOp kernel, ThreadModel &model) {
    llvm::MapVector<int64_t, SmallVector<NamedBarrierOp>> byId;
    kernel.walk([&](NamedBarrierOp op) { byId[op.getId()].push_back(op); });
    bool ok = true;
    for (auto &[id, ops] : byId) {
      llvm::BitVector participants(model.getNumThreads());
      bool exact = true;
      SmallVector<int64_t> own; // threads executing each op
      for (NamedBarrierOp op : ops) {
        Executors ex = model.executors(op);
        exact &= ex.exact;
        participants |= ex.threads;
        own.push_back(ex.count());
      }
      if (!exact)
        continue;
      // bar.sync counts a warp's arrival as its 32 threads (a partial warp is roles.partial-warp).
      int64_t reach = 0, threads = model.getNumThreads();
      for (int64_t lo = 0; lo < threads; lo += 32)
        reach += participants.find_first_in(lo, std::min<int64_t>(lo + 32, threads)) >= 0 ? 32 : 0;
      for (auto [op, mine] : llvm::zip(ops, own)) {
        if (static_cast<int64_t>(op.getThreads()) == reach)
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, "roles.named-barrier-count")
                                  << "expected threads " << reach << " (every thread that reaches "
                                  << "barrier " << id << "), got " << op.getThreads();
        for (NamedBarrierOp other : ops)
          if (other != op)
            diag.attachNote(other.getLoc())
                << "barrier " << id << " is also reached here"
                << (other.getThreads() != op.getThreads()
                        ? " with threads " + std::to_string(other.getThreads())
                        : std::string());
        // Each op counting exactly its own threads is two barriers sharing an id: separate
        // them. Otherwise the count is wrong for a barrier all of them share.
        bool separate = ops.size() > 1 && llvm::all_of(llvm::zip(ops, own), [](auto pair) {
          return static_cast<int64_t>(std::get<0>(pair).getThreads()) == std::get<1>(pair);
        });
        attachFix(diag, op, "roles.named-barrier-count",
                  separate ? "give each of these barriers its own id (1 to 15, unused elsewhere)"
                           : "set threads " + std::to_string(reach) + " on every cake.named_barrier " +
                                 std::to_string(id));
      }
    }
    return ok;
  }
};
} // namespace
