//===- CostWalker.cpp - the walk over a kernel ------------------------------===//
//
// One walk over the kernel: each op's work per unit, bytes per level and latency, loops and
// branches, the per-iteration accumulators of pipelined loops, registers.
//
//===----------------------------------------------------------------------===//
#include "CostWalker.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::costwalk;

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

void CostWalker::addWork(Local &local, const Ctx &ctx, StringRef unit, Expr amount) {
  local.work[unit] += amount;
  a.blockWork[unit] += amount * ctx.mult;
}

void CostWalker::addFlops(const Ctx &ctx, StringRef unit, Expr amount) {
  a.blockFlops[unit] += amount * ctx.mult;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel))
    work->flops[unit] += amount * rel;
}

void CostWalker::addTraffic(const Ctx &ctx, TensorTraffic *t, Expr requested, Expr useful,
                            bool written) {
  if (!t)
    return;
  t->requested += requested * ctx.mult;
  t->useful += useful * ctx.mult;
  t->written |= written;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel)) {
    work->l2 += requested * rel;
    work->useful += useful * rel;
  }
}

void CostWalker::addShared(const Ctx &ctx, Expr bytes) {
  a.sharedBytesMoved += bytes * ctx.mult;
  for (auto [work, rel] : llvm::zip(iterations, ctx.rel))
    work->shared += bytes * rel;
}

Expr CostWalker::combine(const Local &local) {
  Expr tensor(0.0), others(0.0), issue(0.0);
  for (const auto &entry : local.work) {
    Expr time = entry.second / unitRate(entry.first());
    if (entry.first().starts_with("tensor_"))
      tensor += time;
    else if (sharesDispatch(entry.first()))
      issue += time;
    else
      others = Expr::max(others, time);
  }
  others = Expr::max(others, issue);
  // A warpgroup that waits for all its MMAs (wgmma.wait 0) before using the results serializes
  // them with the rest of the iteration; with groups left in flight they overlap.
  return local.wait0 ? tensor + others : Expr::max(tensor, others);
}

void CostWalker::visitLeaf(Operation *op, const Ctx &ctx, Local &local) {
  int64_t warps = ctx.warps(), laneSlots = 32 * warps;
  auto fmaOps = [&](double perThread, double flopsPerThread, bool f64 = false) {
    addWork(local, ctx, f64 ? "fp64" : "fma", Expr(perThread * laneSlots));
    if (flopsPerThread)
      addFlops(ctx, f64 ? "fp64" : "fp32", Expr(flopsPerThread * ctx.threads()));
  };

  if (auto wait = dyn_cast<CpAsyncWaitOp>(op)) {
    int64_t pending = wait.getPending();
    local.cpAsyncStages = std::max<int64_t>(local.cpAsyncStages, pending + 1);
    if (local.hasCpAsync && pending == 0)
      local.cpWaitAfterIssue = true;
    // Outside a ring loop: the copies this region issued land after one global latency.
    if (!local.isLoopBody && local.hasCpAsync) {
      local.chain += ns("global_latency_ns");
      local.hasCpAsync = false;
    }
    return;
  }
  if (auto mma = dyn_cast<MmaSyncOp>(op)) {
    // m16n8k16 (f16/bf16) or m16n8k8 (tf32) per warp, at the mma.sync rate.
    Type element = mma.getA().getType().getElementType();
    int64_t k = element.isF32() ? 8 : 16;
    std::string unit = "mma_sync_" + dtypeName(element);
    double flops = 2.0 * 16 * 8 * k * warps;
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    return;
  }
  if (auto store = dyn_cast<MmaSyncStoreOp>(op)) {
    // Per warp: two pair stores per lane (rows g and g + 8), each 8 rows x 4 lanes x 2 elements.
    int64_t eb = store.getDest().getType().getElementBytes();
    double instrs = 2.0 * warps;
    addWork(local, ctx, "lsu", Expr(8 * instrs));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(instrs * 8 * 32 * ((8 * eb + 31) / 32)),
               Expr(16.0 * 8 * eb * warps), true);
    return;
  }
  // m64nNkK per warpgroup (K = 16 for f16/bf16, 8 for tf32): tensor work, and the operands read
  // from shared memory: the tiles its accesses state (B always, 64 x K of A unless it comes from
  // registers, cake.wgmma.regs), per warpgroup.
  auto wgmma = [&](int64_t n, int64_t k, Type element) {
    int64_t groups = ctx.warpgroups();
    std::string unit = "tensor_" + dtypeName(element);
    double flops = 2.0 * 64 * n * k * groups;
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    double operandBytes = 0;
    for (const MemoryAccess &access : getMemoryAccesses(op)) {
      double tile = cast<SmemType>(access.buffer.getType()).getElementBytes();
      for (int64_t extent : access.tile)
        tile *= static_cast<double>(extent);
      operandBytes += tile;
    }
    operandBytes *= groups;
    addShared(ctx, Expr(operandBytes));
    addWork(local, ctx, "lsu", Expr(operandBytes / 128));
  };
  if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
    // m128nNkK issued by one thread per block: tensor work, both operands read from shared
    // memory; the accumulator stays in tensor memory (no register traffic). A CTA pair's
    // m256nNkK is counted per block: each SM computes its 128 rows from its own A and half of B.
    Type element = mma.getA().getType().getElementType();
    std::string unit = "tensor_" + dtypeName(element);
    double flops = 2.0 * 128 * mma.getN() * mma.getK();
    addWork(local, ctx, unit, Expr(flops));
    addFlops(ctx, unit, Expr(flops));
    double operandBytes =
        (128.0 + mma.getBRowsPerBlock()) * mma.getK() * getElementBytes(element);
    addShared(ctx, Expr(operandBytes));
    return;
  }
  if (isa<Tcgen05CpOp>(op)) {
    // 128 rows x 32 bytes from shared memory into tensor memory.
    addShared(ctx, Expr(128.0 * 32));
    return;
  }
  if (auto mma = dyn_cast<WgmmaRegsOp>(op))
    return wgmma(mma.getN(), mma.getK(), mma.getB().getType().getElementType());
  if (auto mma = dyn_cast<WgmmaOp>(op))
    return wgmma(mma.getN(), mma.getK(), mma.getA().getType().getElementType());
  if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
    if (wait.getPending() == 0)
      local.wait0 = true;
    return;
  }
  if (auto store = dyn_cast<WgmmaStoreOp>(op)) {
    int64_t n = 2 * store.getAcc().getType().getNumElements(), groups = ctx.warpgroups();
    int64_t eb = store.getDest().getType().getElementBytes();
    // Per warp: n/4 stores of an element pair per lane, each 8 rows x 4 lanes x 2 elements.
    double instrs = n / 4.0 * 4 * groups;
    addWork(local, ctx, "lsu", Expr(8 * instrs));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(instrs * 8 * 32 * ((8 * eb + 31) / 32)),
               Expr(64.0 * n * eb * groups), true);
    return;
  }
  if (auto store = dyn_cast<WgmmaStoreRowsOp>(op)) {
    int64_t groups = ctx.warpgroups(), eb = store.getDest().getType().getElementBytes();
    addWork(local, ctx, "lsu", Expr(8.0 * groups));
    addTraffic(ctx, tensorFor(store.getDest()), Expr(4.0 * 32 * ((16 * eb + 31) / 32) * groups),
               Expr(64.0 * eb * groups), true);
    return;
  }
  if (auto reduce = dyn_cast<WgmmaRowArgReduceOp>(op)) {
    int64_t e = reduce.getAcc().getType().getNumElements();
    // Per element: scale * acc + bias (one FMA), compare, two selects; 8 quad shuffles; the
    // bias read as element pairs (lanes of a quad column broadcast).
    fmaOps(4.0 * e + 8, 2.0 * e);
    addWork(local, ctx, "lsu", Expr((8.0 + e / 4.0) * warps));
    addShared(ctx, Expr(2.0 * e * warps * 4));
    return;
  }
  if (auto reduce = dyn_cast<WarpReduceOp>(op)) {
    double steps = std::log2(static_cast<double>(reduce.getLanes()));
    fmaOps(steps, steps);
    addWork(local, ctx, "lsu", Expr(steps * warps));
    return;
  }
  if (auto reduce = dyn_cast<WarpArgReduceOp>(op)) {
    double steps = std::log2(static_cast<double>(reduce.getLanes()));
    fmaOps(3 * steps, steps);
    addWork(local, ctx, "lsu", Expr(2 * steps * warps));
    return;
  }
  if (isa<BarrierOp, NamedBarrierOp, ClusterBarrierOp>(op)) {
    local.sync += ns("barrier_ns");
    a.barriers += ctx.mult;
    return;
  }
  if (isa<PipelineCreateOp>(op)) {
    local.sync += ns("barrier_ns");
    a.barriers += ctx.mult;
    return;
  }
  if (isa<PipelineConsumerWaitOp, PipelineProducerAcquireOp>(op)) {
    if (isa<PipelineConsumerWaitOp>(op)) {
      local.hasConsumerWait = true;
      local.stages = cast<PipelineConsumerWaitOp>(op).getPipeline().getType().getStages();
      local.pipeline = cast<PipelineConsumerWaitOp>(op).getPipeline();
    } else {
      local.producerPipeline = cast<PipelineProducerAcquireOp>(op).getPipeline();
    }
    local.sync += ns("mbarrier_wait_ns");
    a.mbarrierWaits += ctx.mult;
    return;
  }
  if (isa<MbarrierWaitOp>(op)) {
    // Waiting for a TMA copy issued at the start: its latency is on the path once.
    local.sync += ns("mbarrier_wait_ns");
    local.chain += ns("tma_latency_ns");
    local.tmaLatencyPaid = true;
    a.mbarrierWaits += ctx.mult;
    return;
  }
  if (op->getNumResults() == 1 && !op->getResult(0).getType().isIndex()) {
    Type type = op->getResult(0).getType();
    Type element = getElementTypeOrSelf(type);
    double n = elementCount(type);
    bool f64 = element.isF64();
    bool isFloat = isa<FloatType>(element);
    if (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SqrtOp, math::RsqrtOp,
            math::SinOp, math::CosOp, math::TanhOp, math::ErfOp, math::PowFOp>(op)) {
      addWork(local, ctx, "sfu", Expr(n * laneSlots));
      addFlops(ctx, "sfu", Expr(n * ctx.threads()));
      fmaOps(n, 0);
      return;
    }
    if (isa<arith::DivFOp>(op)) {
      addWork(local, ctx, "sfu", Expr(n * laneSlots));
      addFlops(ctx, "sfu", Expr(n * ctx.threads()));
      fmaOps(2 * n, n, f64);
      return;
    }
    if (isa<math::FmaOp, vector::FMAOp>(op))
      return fmaOps(n, 2 * n, f64);
    if (auto red = dyn_cast<vector::ReductionOp>(op)) {
      double m = elementCount(red.getVector().getType()) - 1;
      return fmaOps(m, isFloat ? m : 0, f64);
    }
    if (isa<arith::ConstantOp, vector::BroadcastOp, vector::ExtractOp, vector::InsertOp,
            vector::ShapeCastOp>(op))
      return;
    // A contracted multiply whose every user is a contracted add or subtract becomes part of
    // their FMAs (cake-tactic-contract): its flops count, its instruction does not.
    if (auto mul = dyn_cast<arith::MulFOp>(op);
        mul && hasContract(op) && !mul->use_empty() &&
        llvm::all_of(mul->getUsers(), [](Operation *user) {
          return isa<arith::AddFOp, arith::SubFOp>(user) && hasContract(user);
        }))
      return fmaOps(0, n, f64);
    if (op->getDialect() && op->getDialect()->getNamespace() == "arith") {
      bool counts = isFloat && isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
                                   arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                                   arith::MinNumFOp>(op);
      return fmaOps(n, counts ? n : 0, f64);
    }
    if (op->getDialect() && op->getDialect()->getNamespace() == "math")
      return fmaOps(n, n, f64);
  }
  // Every other op that declares its accesses (CakeMemoryAccessOpInterface: cake.load,
  // cake.store, ldmatrix, stmatrix, TMA copies, atomics, ...) is priced from them: TMA boxes
  // below; otherwise as plain loads and stores, per warp the sectors and lines of global memory
  // and the shared-memory wavefronts of the lanes that pass addresses (ldmatrix .xN: 8N lanes,
  // one 16-byte row each, its one-dimensional tile), so a new memory op has a cost from its
  // interface alone. A read and a write of one buffer (a read-modify-write such as
  // cake.atomic_add, done in L2) count as the write; contention on one address is not modelled.
  // Lanes of a bounds-masked access outside the tensor move nothing; an asynchronous copy's
  // (cp.async: AsyncCopyGroup) latency is charged at its wait, not here.
  if (SmallVector<MemoryAccess, 2> accesses = getMemoryAccesses(op); !accesses.empty()) {
    // A TMA copy (an access through a !cake.tma) moves its descriptor's box, per issuing thread,
    // between global memory (through L2) and shared memory; its shared side is that box too.
    // (A store's elements outside the tensor are not written; the simulated sizes keep the box
    // inside.)
    bool tma = false;
    for (const MemoryAccess &access : accesses)
      if (auto desc = dyn_cast<TmaType>(access.buffer.getType())) {
        double bytes = desc.getBoxBytes() * ctx.threads();
        addTraffic(ctx, tensorFor(access.buffer), Expr(bytes), Expr(bytes), access.isWrite());
        addShared(ctx, Expr(bytes));
        tma = true;
      }
    if (tma)
      return;
    for (const MemoryAccess &access : accesses) {
      if (access.isRead() && llvm::any_of(accesses, [&](const MemoryAccess &other) {
            return other.isWrite() && other.buffer == access.buffer;
          }))
        continue;
      int64_t width = access.tile.size() == 1 ? access.tile.front() : access.width;
      if (auto smem = dyn_cast<SmemType>(access.buffer.getType()))
        sharedAccess(op, smem, access.indices, std::max<int64_t>(1, width), ctx, local,
                     access.lanes);
      else if (isa<GlobalTensorType>(access.buffer.getType()))
        globalAccess(op, access.buffer, access.indices, width, access.isWrite(), ctx, local,
                     access.boundsMasked, access.completion == AccessCompletion::AsyncCopyGroup);
      if (access.completion == AccessCompletion::AsyncCopyGroup)
        local.hasCpAsync = true;
    }
    return;
  }
  if (op->getDialect() && op->getDialect()->getNamespace() == "cake" &&
      !isa<AllocSmemOp, MbarrierAllocOp, MbarrierInitOp, MbarrierArriveOp, MbarrierArriveExpectTxOp,
           FenceMbarrierInitOp, FenceProxyAsyncOp, ElectOneOp, GridDependencyWaitOp,
           GridDependentsLaunchOp, PipelineProducerCommitOp, PipelineConsumerReleaseOp,
           PipelineSlotOp, WgmmaFenceOp, WgmmaCommitOp, Tcgen05CommitOp, ClcTryCancelOp, ClcQueryOp,
           TmemAllocOp, TmemDeallocOp, TmemLoadOp, TmemStoreOp, CpAsyncCommitOp, TmaStoreCommitOp,
           TmaStoreWaitOp, ReturnOp, YieldOp, ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp,
           ClusterIdOp, ClusterBlockIdOp, LaneIdOp, WarpIdOp, WarpgroupIdOp, ProblemSizeOp>(op))
    assume("no cost model for '" + op->getName().getStringRef().str() + "': counted as free");
}

/// `if (%iv + step <= ub)` (ule/sle, either operand order of the add) directly in the body of
/// the loop of %iv, step and ub: true in every iteration but a partial last one.
bool CostWalker::isFullIterationGuard(scf::IfOp ifOp) {
  auto loop = dyn_cast<scf::ForOp>(ifOp->getParentOp());
  auto cmp = ifOp.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!loop || !cmp || cmp.getRhs() != loop.getUpperBound() ||
      (cmp.getPredicate() != arith::CmpIPredicate::ule &&
       cmp.getPredicate() != arith::CmpIPredicate::sle))
    return false;
  auto end = cmp.getLhs().getDefiningOp<arith::AddIOp>();
  if (!end)
    return false;
  Value iv = loop.getInductionVar(), step = loop.getStep();
  auto same = [](Value x, Value y) {
    return x == y || (getConstantIntValue(x) && getConstantIntValue(x) == getConstantIntValue(y));
  };
  return (end.getLhs() == iv && same(end.getRhs(), step)) ||
         (end.getRhs() == iv && same(end.getLhs(), step));
}

Expr CostWalker::walkBlock(Block &block, const Ctx &ctx, Local *parent) {
  Local local;
  if (parent) {
    local.tmaLatencyPaid = parent->tmaLatencyPaid;
    local.isLoopBody = parent->isLoopBody;
    local.deferLoadLatency = parent->deferLoadLatency;
  }
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(&op)) {
      Expr trips = tripCount(loop);
      Ctx inner{ctx.active, ctx.mult * trips, {}};
      for (const Expr &rel : ctx.rel)
        inner.rel.push_back(rel * trips);
      inner.rel.push_back(Expr(1.0));
      IterationWork perIteration;
      iterations.push_back(&perIteration);
      Local body;
      body.isLoopBody = true;
      Expr iteration = walkBlock(*loop.getBody(), inner, &body);
      iterations.pop_back();
      LoopInfo info{loop.getLoc(), trips, 0, iteration, !body.wait0, "", "", {}, Value(), Value(), std::nullopt};
      info.perIteration = std::move(perIteration);
      info.producerPipeline = body.producerPipeline;
      if (body.hasConsumerWait && body.stages > 0) {
        // A TMA ring of S stages keeps S copies in flight: an iteration takes at least the
        // copy latency / S; the first copy's latency is paid once (unless already paid).
        info.stages = body.stages;
        info.ring = "tma";
        info.latencyParam = "tma_latency_ns";
        info.pipeline = body.pipeline;
        Expr perIteration = Expr::max(iteration, ns("tma_latency_ns") / Expr(body.stages));
        local.chain += trips * perIteration;
        if (!local.tmaLatencyPaid)
          local.chain += ns("tma_latency_ns");
        local.tmaLatencyPaid = true;
      } else if (body.cpAsyncStages > 0 && body.cpWaitAfterIssue) {
        // cp.async issued and waited for (wait 0) in the same iteration: the latency is exposed.
        local.chain += trips * (iteration + ns("global_latency_ns"));
        local.hasCpAsync = false;
      } else if (body.cpAsyncStages > 0) {
        // A cp.async ring: `cp_async.wait N` leaves N groups in flight, a pipeline of N + 1
        // stages: an iteration takes at least the global latency / (N + 1), plus one latency to
        // fill.
        info.stages = body.cpAsyncStages;
        info.ring = "cp_async";
        info.latencyParam = "global_latency_ns";
        Expr perIteration =
            Expr::max(iteration, ns("global_latency_ns") / Expr(body.cpAsyncStages));
        local.chain += trips * perIteration + ns("global_latency_ns");
        local.hasCpAsync = false;
      } else if (body.syncGlobalLoad && trips.isConst() && trips.getConst() <= 8) {
        // A short constant loop is unrolled: its loads are in flight together, one latency.
        local.chain += trips * (iteration - ns("global_latency_ns")) + ns("global_latency_ns");
      } else {
        local.chain += trips * iteration;
      }
      // Copies issued in a loop without a wait in it (a prologue) are waited for later.
      if (body.hasCpAsync && body.cpAsyncStages == 0)
        local.hasCpAsync = true;
      local.nestedSync += trips * body.syncAll;
      a.loops.push_back(info);
      continue;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(&op)) {
      // A persistent loop over cluster launch control runs one tile per launched block: the
      // grid covers every tile, and each answer taken replaces a launch that does not happen.
      // Any other while loop has no trip count the model can know: one iteration, said so.
      bool persistent = false;
      loop.walk([&](ClcQueryOp) { persistent = true; });
      if (!persistent)
        assume("scf.while at " + locString(loop.getLoc()) +
               ": trip count unknown, counted as one iteration");
      Expr chain(0.0), sync(0.0);
      for (Region *region : {&loop.getBefore(), &loop.getAfter()}) {
        Local body;
        body.isLoopBody = true;
        body.tmaLatencyPaid = local.tmaLatencyPaid;
        chain += walkBlock(region->front(), ctx, &body);
        sync += body.syncAll;
        local.tmaLatencyPaid |= body.tmaLatencyPaid;
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(&op)) {
      // `if (iv + step <= ub)` in a loop: every iteration but a partial last one takes the then
      // branch; the last one's else branch is not charged (as a grid's partial tail is not).
      bool fullIteration = isFullIterationGuard(ifOp);
      Ctx thenCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
      Ctx elseCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
      for (int t : ctx.active.set_bits()) {
        std::optional<bool> c = condition(ifOp.getCondition(), t);
        if (!c || *c)
          thenCtx.active.set(t);
        if (!c || !*c)
          elseCtx.active.set(t);
      }
      Expr chain(0.0), sync(0.0);
      if (thenCtx.active.any()) {
        Local body;
        body.tmaLatencyPaid = local.tmaLatencyPaid;
        body.deferLoadLatency = true;
        chain = walkBlock(ifOp.getThenRegion().front(), thenCtx, &body);
        sync = body.syncAll;
        local.tmaLatencyPaid |= body.tmaLatencyPaid;
        local.syncGlobalLoad |= body.syncGlobalLoad;
      }
      if (!ifOp.getElseRegion().empty() && elseCtx.active.any() && !fullIteration) {
        Local body;
        body.deferLoadLatency = true;
        chain = Expr::max(chain, walkBlock(ifOp.getElseRegion().front(), elseCtx, &body));
        sync = Expr::max(sync, body.syncAll);
        local.syncGlobalLoad |= body.syncGlobalLoad;
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    if (auto roles = dyn_cast<WarpRolesOp>(&op)) {
      Expr chain(0.0), sync(0.0);
      for (Operation &inner : roles.getBody().front()) {
        auto role = dyn_cast<RoleOp>(&inner);
        if (!role)
          continue;
        Ctx roleCtx{llvm::BitVector(ctx.active.size()), ctx.mult, ctx.rel};
        for (int64_t t = role.getFirst() * 32;
             t < std::min<int64_t>(role.getLast() * 32, ctx.active.size()); ++t)
          if (ctx.active[t])
            roleCtx.active.set(t);
        Local body;
        chain = Expr::max(chain, walkBlock(role.getBody().front(), roleCtx, &body));
        sync = Expr::max(sync, body.syncAll);
      }
      local.chain += chain;
      local.nestedSync += sync;
      continue;
    }
    visitLeaf(&op, ctx, local);
  }
  Expr total = combine(local) + local.chain + local.sync;
  if (local.syncGlobalLoad && !local.deferLoadLatency)
    total += ns("global_latency_ns");
  local.syncAll = local.sync + local.nestedSync;
  if (parent) {
    parent->wait0 = local.wait0;
    parent->syncGlobalLoad = local.syncGlobalLoad;
    parent->hasConsumerWait = local.hasConsumerWait;
    parent->stages = local.stages;
    parent->hasCpAsync = local.hasCpAsync;
    parent->cpAsyncStages = local.cpAsyncStages;
    parent->cpWaitAfterIssue = local.cpWaitAfterIssue;
    parent->pipeline = local.pipeline;
    parent->producerPipeline = local.producerPipeline;
    parent->syncAll = local.syncAll;
    parent->tmaLatencyPaid = local.tmaLatencyPaid;
  } else {
    a.blockSyncChain = local.syncAll;
  }
  return total;
}

int64_t CostWalker::registerWords(Block &block) {
  int64_t most = 0;
  for (Operation &op : block) {
    int64_t own = 0;
    // A loop's carried values; one threaded in from an enclosing loop's carried value (an inner
    // loop over the same accumulator) lives in the registers already counted there.
    if (auto loop = dyn_cast<scf::ForOp>(&op))
      for (Value init : loop.getInitArgs()) {
        auto arg = dyn_cast<BlockArgument>(init);
        if (arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()) && arg.getArgNumber() > 0)
          continue;
        own += elementCount(init.getType()) * ((bitWidth(init.getType()) + 31) / 32);
      }
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &b : region)
        inner = std::max(inner, registerWords(b));
    most = std::max(most, own + inner);
  }
  return most;
}

static Expr affineToExpr(AffineExpr e, ArrayRef<StringRef> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return Expr(static_cast<double>(c.getValue()));
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return Expr::size(symbols[s.getPosition()]);
  auto bin = cast<AffineBinaryOpExpr>(e);
  Expr l = affineToExpr(bin.getLHS(), symbols), r = affineToExpr(bin.getRHS(), symbols);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::CeilDiv:
    return Expr::ceilDiv(l, r);
  case AffineExprKind::FloorDiv:
    return l / r;
  default:
    return r; // mod: at most the divisor
  }
}

void CostWalker::run() {
  a.name = kernel.getSymName().str();
  a.target = kernel.getTarget().str();
  a.threads = kernel.getNumThreads();
  a.sharedBytes = std::max<int64_t>(kernel.getSharedMemoryLayout().totalBytes,
                                    kernel.getDynamicSmem());
  kernel.walk([&](TmemAllocOp alloc) { a.tensorMemoryColumns += alloc.getTmem().getType().getColumns(); });
  SmallVector<StringRef> symbols = kernel.getSymbolNames();
  for (StringRef s : symbols)
    a.symbols.push_back(s.str());

  a.blocks = Expr(1.0);
  for (AffineExpr e : kernel.getGrid().getResults()) {
    gridDims.push_back(affineToExpr(e, symbols));
    a.blocks = a.blocks * gridDims.back();
  }
  while (gridDims.size() < 3)
    gridDims.push_back(Expr(1.0));

  // Tensor parameters (and the TMA descriptors that describe them) share one traffic record.
  Block &entry = kernel.getBody().front();
  llvm::StringMap<unsigned> byName;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    auto type = dyn_cast<GlobalTensorType>(entry.getArgument(i).getType());
    if (!type)
      continue;
    auto name = kernel.getArgAttrOfType<StringAttr>(i, "cake.name");
    TensorTraffic t;
    t.name = name ? name.getValue().str() : llvm::formatv("arg{0}", i).str();
    t.footprint = Expr(static_cast<double>(type.getElementBytes()));
    for (Attribute extent : type.getShape())
      t.footprint = t.footprint * (isa<IntegerAttr>(extent)
                                       ? Expr(static_cast<double>(cast<IntegerAttr>(extent).getInt()))
                                       : Expr::size(cast<StringAttr>(extent).getValue()));
    byName[t.name] = a.tensors.size();
    tensorIndex[entry.getArgument(i)] = a.tensors.size();
    a.tensors.push_back(std::move(t));
  }
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    if (isa<TmaType>(entry.getArgument(i).getType()))
      if (auto describes = kernel.getArgAttrOfType<StringAttr>(i, "cake.describes")) {
        auto it = byName.find(describes.getValue());
        if (it != byName.end())
          tensorIndex[entry.getArgument(i)] = it->second;
      }

  kernel.walk([&](RoleOp role) {
    if (role.getRegs())
      a.roleRegisters = *role.getRegs();
  });
  a.estimatedRegisters = std::min<int64_t>(255, 20 + 2 * registerWords(entry));

  Ctx all{llvm::BitVector(a.threads, true), Expr(1.0), {}};
  a.blockChain = walkBlock(entry, all);

  // Warp-specialized TMA rings: a stage of the consumer loop also carries the copies the
  // producer loop of the same pipeline issues for it (one producer iteration per stage).
  for (LoopInfo &consumer : a.loops) {
    if (!consumer.pipeline || consumer.producerPipeline == consumer.pipeline)
      continue;
    for (const LoopInfo &producer : a.loops)
      if (&producer != &consumer && producer.producerPipeline == consumer.pipeline) {
        for (const auto &f : producer.perIteration.flops)
          consumer.perIteration.flops[f.first()] += f.second;
        consumer.perIteration.l2 += producer.perIteration.l2;
        consumer.perIteration.useful += producer.perIteration.useful;
        consumer.perIteration.shared += producer.perIteration.shared;
        consumer.producerLoc = producer.loc;
        break;
      }
  }
}
