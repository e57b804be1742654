//===- Passes.td - cake verification passes ----------------*- tablegen -*-===//
//
// Whole-kernel checks of the schedule: each pass reports every finding it makes as an error with a
// stable rule id (`[rule.id]` after the op name), notes at the related ops and a last note
// `fix: ...`, then fails. `cake-verify` runs them all. docs/Verification.md lists the rule ids;
// include/Cake/Verify/Rules.def declares them.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_VERIFY_PASSES_TD
#define CAKE_VERIFY_PASSES_TD

include "mlir/Pass/PassBase.td"

def CakeVerifySmemPass : Pass<"cake-verify-smem"> {
  let summary = "Check each kernel's shared memory against its target's limit, and its accesses' bounds";
  let description = [{
    Lays out every `cake.kernel`'s shared allocations as the lowering does
    (`KernelOp::getSharedMemoryLayout`: `cake.alloc_smem` buffers with all their stages at their
    alignment, `cake.mbarrier.alloc` arrays, the 2 x stages barriers of each `cake.pipeline.create`)
    and adds `dynamic_smem`. A kernel that needs more than one block may use on its target (163 KiB
    on sm_80, 227 KiB on sm_90, sm_90a and sm_100a) fails to launch; the error names the total,
    the limit, the bytes lost to alignment padding, and carries notes at the biggest allocations.
    A kernel with `min_blocks_per_sm = n` must also fit n blocks in an SM's shared memory (the
    per-block limit + 1 KiB, with 1 KiB reserved per block): `smem.occupancy` otherwise.

    It also checks that every shared-memory access (`CakeMemoryAccessOpInterface`) stays inside
    its buffer: for each thread that reaches the op unconditionally, each index over every value
    it takes (the thread's known values; loop counters over their bounds; `mod`, `div`, sums,
    products, `min`/`max`) lies in its dimension, the innermost with the access's width. Accesses
    under conditions on loop counters or problem sizes are not judged (the condition may be the
    bound); an index that depends on a problem size is unbounded and not judged.

    Rules: `smem.over-limit`, `smem.out-of-bounds`.
  }];
}

def CakeVerifyRolesPass : Pass<"cake-verify-roles"> {
  let summary = "Check warp roles: register budgets, warpgroup alignment, collective participation";
  let description = [{
    Checks every `cake.warp_roles` and the collectives that all threads (or a whole warp or
    warpgroup) must reach:

    - `roles.register-file`: the registers of all warps (each role's `regs`, or the entry budget
      `min(255, 65536 / threads / 8 * 8)` for roles without `regs` and warps in no role) must fit
      the 65536-register file;
    - `roles.wgmma-warpgroup`: a role that issues `cake.wgmma*` ops must cover whole warpgroups;
    - `roles.barrier-in-role`: `cake.barrier`, `cake.cluster_barrier` and `cake.pipeline.create`
      (block-wide barriers)
      inside a `cake.role`, where the other roles' warps never reach them;
    - `roles.divergent-barrier`: the same ops under control flow that depends on the thread
      (`scf.if` on a thread-dependent condition, `scf.for` with thread-dependent bounds, `scf.while`
      whose condition follows from thread ids or from memory read at a thread-dependent address);
    - `roles.named-barrier-count`: a `cake.named_barrier` whose `threads` differs from the number
      of threads that reach its id (all ops with that id together: a cross-role handoff counts
      both roles); more hangs, fewer releases early and lets two unrelated barriers that share
      an id count each other's arrivals;
    - `roles.named-barrier-instances`: the warps that reach a named barrier id (with one
      `threads` count) reach it unequally often per block; the warps with more instances wait
      forever at one the others never join (a start signal given once against a sync per row; a
      second sync in one role's loop). Symbolically: each op runs (constant trip counts) x (the
      run-time loops around it, keyed by their bound values); a difference whose terms all have
      one sign differs whenever those loops run. Otherwise (loops over other bound values, bounds
      that depend on the warp) at the probe sizes of cake-verify-shapes, block 0: a size where
      two warps' counts differ is reported as the witness. Not checked where a condition around
      an op depends on data, or a bound is not known at the probe;
    - `roles.partial-warpgroup` / `roles.partial-warp`: wgmma ops executed by part of a warpgroup,
      `cake.warp_reduce`, `cake.warp_arg_reduce`, `cake.elect_one` or `cake.named_barrier`
      (bar.sync is `.aligned`: the hardware counts a warp's arrival as its 32 threads, and a
      partial warp is undefined) by part of a warp.

    Which threads execute an op is computed by evaluating the conditions around it for every thread
    of the block (thread, lane, warp and warpgroup ids are known; problem sizes, block ids and loop
    counters are uniform unknowns); when that is not decidable, nothing is reported.
  }];
}

def CakeVerifyClusterPass : Pass<"cake-verify-cluster"> {
  let summary = "Account TMA multicast copies across the blocks of a cluster";
  let description = [{
    A multicast copy issued by one block lands in the buffers and completes on the barriers of
    its peers, so what one block must expect, initialize and may read depends on the others. This
    pass models every rank of a 1-D cluster (`cake.cluster_block_id` bound to 0 .. S-1, for
    cluster ids 0 and 1, and at the ragged sizes 1001 and 4099 also for the first and the last
    cluster of the grid, where a rank may own no rows) with the per-thread evaluator of the other
    passes and accounts the copies cluster-wide. It judges only what every rank decides (constant masks, slots, barrier indices
    and byte counts; ops each thread surely executes or skips; expect and copies in the same
    loops); 2-D and 3-D clusters and pipeline barriers are not modelled.

    - `cluster.multicast-mask`: a multicast mask with a bit at or above the cluster size (a mask
      computed from the cluster id instead of the rank).
    - `cluster.multicast-bytes`: the bytes a rank expects per phase on a barrier differ from the
      bytes the cluster's copies deliver to it (each rank expecting only its own box; a mask that
      skips the issuing rank; the same mask in every pair of a larger cluster).
    - `cluster.multicast-coverage`: a rank reads a slot of a buffer that only TMA copies write and
      no copy of the cluster writes in that rank (every rank multicasting into the same half).
    - `cluster.uninitialized-barrier`: a rank receives multicast completions on a barrier it never
      initializes (the init guarded by rank 0 as if one init served the cluster).
    - `cluster.init-not-published`: a multicast copy completes on a peer's barrier with no
      `cake.cluster_barrier` between the barrier's init and the copy (a block barrier orders one
      block only: the peer's complete-tx can reach the barrier before its init).
    - `cluster.barrier-divergence`: a `cake.cluster_barrier` the ranks reach different numbers of
      times (a loop trip count or a condition that depends on the rank), with the problem sizes
      unknown or bound to 1001 and 4099, and at those sizes also cluster by cluster (every
      cluster of a grid of at most 64, else the first and the last; a persistent loop's
      iterations enumerated with the grid bound): a ragged edge that leaves a rank with no rows
      skips the barrier and the cluster hangs.
    - `cluster.multicast-overwrite`: a multicast copy in a loop lands in the same slot of a peer
      every iteration and the peer reads that slot in the loop, with no `cake.cluster_barrier`
      between the peer's read and the sender's next copy (a block barrier orders one block only):
      the next tile overwrites the one the peer still reads. A copy or read under a condition
      the model leaves open (the prefetch of the next tile under `kt + 1 < ktiles`) counts as
      executed. Rings whose slot moves with the loop are not judged.
  }];
}

def CakeVerifyShapesPass : Pass<"cake-verify-shapes"> {
  let summary = "Check each kernel at ragged problem sizes its manifest allows";
  let description = [{
    A kernel's manifest promises every problem size >= 1 (with 16-byte row strides where vector
    accesses or TMA need them), so the kernel must be right for ragged sizes, not only for the
    multiples of its tiles it was written for. The general thread model treats a problem size as
    an unknown and cannot judge what depends on it; this pass models concrete launches instead:
    four size sets (every symbol 3, 33, 1001 or 4099; a symbol that sets the row stride of a
    tensor accessed with vectors or through TMA 16, 48, 1008 or 4112), each at the grid's first
    and last block, with the same per-thread evaluator and index ranges as the other passes.

    - `shape.out-of-bounds`: an access to a global tensor without `masked` (TMA copies clip at
      the tensor's edge and are not judged) whose index, in a thread that surely reaches it
      (every enclosing `scf.if` known and taken, every enclosing loop able to run), leaves the
      tensor's extent at one of the probe sizes.
    - `shape.index-bound` (warning): an access to a global tensor without `masked` whose index
      is computed from loaded data (the offsets of variable-length sequences), which no probe
      size judges. Its linear bounds at the access (Analysis/SymbolicBound: clamps, loop
      bounds and the conditions of the `scf.if` regions around it, with bounds of differences
      cancelling) must put it below the extent; the warning names the tightest bound they give
      when that is the extent or more (inside `if (t0 < eos)` with eos <= T, the index t0 + 15
      is bounded only by T + 14). An index nothing relates to the extent (a gather through
      loaded indices) is the host's duty and not judged.
    - `shape.partial-collective`: a warp collective (shuffle reduction, elect, named barrier), a
      warpgroup collective (wgmma) or a block-wide barrier that only some threads of the group
      execute at one of the probe sizes (for example a warp reduction under `lane < N`), where
      the general model could not decide who executes it. What `cake-verify-roles` reports is
      not repeated.
    - `shape.arrival-count`: an mbarrier whose arrivals per phase differ from its init's count
      at one of the probe sizes (an arrival under `i < N`: the last block hangs), where
      `cake-verify-mbarrier` could not decide who arrives.
    - `shape.uninitialized-smem`: a shared-memory element a thread surely reads (one index
      value) that no `cake.store` to the buffer may write at one of the probe sizes (partials
      written only by the threads that have an element, read by all). Writes are
      over-approximated and program order ignored; buffers also written by TMA, cp.async or
      stmatrix are not judged.
    - `shape.pad-identity`: a masked load with the default pad (0) whose result feeds a max or
      min directly (`arith.maximumf`/`maxnumf`/`minimumf`/`minnumf`, `cake.warp_reduce`,
      `vector.reduction`) and whose padding happens at one of the probe sizes along a reduced
      dimension (its index varies over a loop or across the warp's lanes) while the other
      indices are inside: padded elements enter the max as 0. Rows wholly past the edge are
      discarded work and not judged; an explicit `pad(...)` is taken as the author's intent.
    - `shape.uncovered-output`: at one of the probe sizes the grid has no block while the kernel
      writes a global tensor, or an output (a tensor written and never read, by `cake.store`
      or `cake.tma.store` only) has an element no block writes. Judged per dimension on the
      union, over every block of the launch (up to 512 blocks) and every thread that may reach
      a store, of the index ranges it writes: an over-approximation, so a gap is real.

    A size the kernel never sees (not in its grid, no `cake.problem_size`) is the host's to
    match to the grid (an output of one value per block, say): extents it sets are not judged.
    Sizes are probed independently: a relation the host keeps between two sizes (`BKP = B * KP`)
    is unknown here, so an unmasked access that is in bounds only through it is reported (mask
    it, or reach that tensor through TMA).
    Each finding names the sizes (and the block) it happens at.
  }];
}

def CakeVerifyTargetPass : Pass<"cake-verify-target"> {
  let summary = "Check that each op is available on its kernel's target";
  let description = [{
    The one check of what ops need from their kernel's `target`. Each op states its need in ODS
    (the `CakeRequires<"Name">` trait, or `CakeTargetRequirementOpInterface` where the need depends
    on attributes: a role with `regs`, a kernel with a `cluster` or TMA parameters); the needs,
    their rule ids and feature bits are listed once in `include/Cake/IR/TargetRequirements.def`,
    and which targets have which features in `Targets.def`. One finding per op the target lacks:
    `target.cp-async`, `target.ldmatrix`, `target.mma-sync` (sm_80), `target.tma`,
    `target.mbarrier-tx`, `target.mbarrier-try-wait`, `target.fence-mbarrier-init`,
    `target.fence-proxy-async`, `target.elect`, `target.grid-dependency`, `target.stmatrix`, `target.pipeline`,
    `target.cluster` (sm_90), `target.wgmma` (sm_90a only: Blackwell has no wgmma),
    `target.setmaxnreg` (sm_90a, sm_100a), `target.tcgen05` and
    `target.cluster-launch-control` (sm_100a). Op verifiers do not check targets; the lowering
    pipeline (`cake-lower-to-nvvm`) runs this pass first, and `--chip` runs it after retargeting.
  }];
}

def CakeVerifyMbarrierPass : Pass<"cake-verify-mbarrier"> {
  let summary = "Check the mbarrier protocol: initialization, arrivals, transaction bytes, parity";
  let description = [{
    For every `cake.mbarrier.alloc` array and every barrier index the kernel uses:

    - `mbarrier.index-range`: a constant index outside the array, or a computed one that
      takes a value outside it (its range over the loops around it, in a thread that reaches
      the op unconditionally: a ring's second barrier set addressed at slot + stages + 1);
    - `mbarrier.uninitialized`: arrive, expect-tx, wait or a TMA copy on an index no
      `cake.mbarrier.init` initializes, or a use before the init (a computed index is checked over
      the values its arithmetic allows, e.g. `kt mod 2`, else over the whole array);
    - `mbarrier.init-threads`: an init executed by more than one thread;
    - `mbarrier.init-fence`: no `cake.fence.mbarrier_init` between the inits and the first use;
    - `mbarrier.init-barrier`: no block-wide barrier (`cake.barrier`, `cake.cluster_barrier`, or
      `cake.pipeline.create` which ends with one) between the inits and the first use by other
      threads;
    - `mbarrier.tx-bytes`: `arrive_expect_tx` bytes differ from the bytes of the TMA copies
      completing on that barrier in the same region (`box` x element size each; a multicast copy
      with a constant mask once per set bit, as every block of the mask issues it; unchecked for
      a mask that is not a constant, and in 1-D clusters, where `cake-verify-cluster` accounts
      who issues each multicast);
    - `clc.query-before-wait`: a `cake.clc.query` not preceded, after its request
      (`cake.clc.try_cancel`, whose 16-byte answer counts as transaction bytes like a copy's),
      by a wait on the barrier the request completes;
    - `mbarrier.tx-missing`: a TMA copy completes on a barrier nobody expects bytes on (a copy
      whose barrier index is not known may match any expect on the array);
    - `mbarrier.no-arrive`: a wait on a barrier nothing arrives on (a hang);
    - `mbarrier.arrival-count`: the threads arriving per phase (when statically known) differ from
      the init's arrival count (a loop with no wait or barrier in it and a constant trip count
      arrives once per iteration within one phase);
    - `mbarrier.parity-constant`: a wait inside a loop with a loop-invariant barrier and parity,
      which hangs in the second iteration;
    - `mbarrier.parity-sequence`: along one thread's path (each warp's first thread, run for a
      few concrete problem sizes with loops unrolled, conditions decided and loop-carried values
      carried), successive waits on one barrier whose parities do not alternate: a repeated
      parity waits for a phase that already passed, or skips one;
    - `mbarrier.parity-initial`: the first wait on a barrier whose phases publish data (TMA copies
      complete on it, or its arrivals follow shared-memory writes) with parity 1, which passes at
      once, before the data;
    - `mbarrier.refill-unordered`: along the same paths, a thread's TMA copy into a stage it
      copied into before, while other warps read that stage, with no wait passed in between
      that could order it after their reads (a first wait with parity 1 passes at once and does
      not count): the producer overwrites data the consumers may still read;
    - `mbarrier.stage-read-race`: along the same paths, a generic read of a stage that a TMA
      copy writes, ordered neither after the copy (a wait for the copy's phase or a later one,
      by the reader or by a thread a block barrier or mbarrier phase orders before the read)
      nor before it (the copy's issuer waits for an arrival the reader makes after the read, or
      a block barrier separates them): e.g. a consumer that waits on one stage's barrier and
      reads another stage;
    - `deadlock.replay` (judged last, over every size): every warp's first thread replayed
      together, round robin one event at a time, against one state of the mbarriers (each
      warp's arrivals counted by the lanes that reach the arriving op; TMA bytes assumed to
      land) and of the block barriers; a wait passes when its barrier's completed phases
      differ in parity from the wait's. When no thread can move and some have not finished,
      the first waiting one is reported with the others' waits (a parity that needs a phase
      only its own waiters could complete). Kernels with pipelines, named or cluster barriers
      are left to `deadlock.cyclic-wait`;
    - `mbarrier.phase-overrun` (same replay): a thread held at one of its first six waits while
      the others run on; if they complete the phase it waits for and the next one without it,
      a late check of its parity sees the parity come back and waits for a later phase (a hang
      or a skipped phase): the arrivers need back-pressure from the waiters (an "empty"
      barrier they arrive on, or a block barrier);
    - `mbarrier.arrival-total`: over a whole simulated run, the arrivals on a barrier (each warp
      arriving as often as its first thread did, times its lanes that reach the op) against
      count x the phases its waiters wait for: fewer than count x R never completes the last
      phase; more than count x (R + 1) completes phases with arrivals meant for later ones.

    The last six are judged only where every path can be decided (no bound or condition on a
    loaded value; `scf.for` and `scf.while` are unrolled); a finding names the sizes and the
    iteration that show it.
  }];
}

def CakeVerifyPipelinePass : Pass<"cake-verify-pipeline"> {
  let summary = "Check the pipeline protocol: acquire, commit, wait, release";
  let description = [{
    For every `cake.pipeline.create`, with its stage buffers (the shared buffers TMA copies
    completing on the pipeline fill):

    - `pipeline.tx-bytes`: `producer_commit` `tx_bytes` differ from the bytes of the TMA copies on
      the same pipeline and iteration in the same region (for a commit under an `scf.if` whose
      region has none, in the region around it: a ragged last tile announced apart still
      receives whole boxes);
    - `pipeline.commit-missing`: TMA copies on a pipeline iteration with no `producer_commit`;
    - `pipeline.acquire-missing`: a TMA copy into a stage without a `producer_acquire` of that
      iteration before it (one under `scf.if it >= C` with C <= stages counts: the ring starts
      empty; so does the rotated loop's acquire of `it + step` at the end of iteration `it`, with
      the first iteration acquired before the loop);
    - `pipeline.read-before-wait`: a read of a stage buffer (wgmma operand, `cake.wgmma.regs` B,
      load, ldmatrix, reduction bias) without a `consumer_wait` of its iteration before it;
    - `pipeline.release-before-use`: a `consumer_release` followed by a read of the released stage;
    - `pipeline.release-in-flight`: a `consumer_release` while a wgmma that reads the stage may
      still be running (no `cake.wgmma.wait` retiring its group in between);
    - `pipeline.missing-release`: consumers wait but never release (the producer stalls after
      `stages` iterations);
    - `pipeline.consumer-count`: the threads executing `consumer_release` per iteration differ from
      `consumers` (when statically known);
    - `pipeline.commit-threads`: `producer_commit` executed by other than exactly one thread;
    - `pipeline.slot-mismatch`: a constant stage index, or the slot of another iteration than the
      one the copy completes on;
    - `pipeline.stage-count`: a stage buffer whose leading dimension is smaller than the stages;
    - `pipeline.iteration-sequence`: along one thread's path (each warp's first thread, simulated
      for a few concrete problem sizes), consumer waits or producer commits that do not name
      iterations 0, 1, 2, ... (a count restarted per outer tile, or skipping);
    - `pipeline.release-sequence`: a consumer's releases that are not the iterations it waited
      for, in order (the next iteration, iteration -1 at the start, once per tile); the last
      waited iterations may stay unreleased;
    - `pipeline.unconsumed-iteration`: along the same paths, the producer commits iterations
      that no consumer waits for (loop bounds that differ, e.g. a ceildiv against a floor
      division, for some problem sizes): the stage is never read and its TMA load may land
      after the block has exited.
  }];
}

//===----------------------------------------------------------------------===//
// Tactics: schedule rewrites the harness (agent/cake_agent/tactics.py) applies to candidates.
// Each checks its preconditions: when the rewrite would be unsafe it fails with an error
// `[tactic.not-applicable] ...` naming the reason; when the IR already has the requested form it
// leaves the IR unchanged and says so in a remark.
//===----------------------------------------------------------------------===//

def CakeVerifyAsyncPass : Pass<"cake-verify-async"> {
  let summary = "Check cp.async and TMA-store groups and cp.async addresses";
  let description = [{
    Follows each kernel in program order (the pre-order of its body; a loop body also wraps around
    to its own start for the next iteration) and checks the bulk-group protocols of `cake.cp_async`
    (`cake.cp_async.commit` / `cake.cp_async.wait`) and of `cake.tma.store`
    (`cake.tma.store_commit` / `cake.tma.store_wait`):

    - `async.cp-async-uncommitted`: a `cake.cp_async` that reaches a `cake.cp_async.wait` (or the
      end of the kernel) before any commit: the wait does not cover it;
    - `async.cp-async-no-wait`: a commit that no later `cake.cp_async.wait` retires;
    - `async.cp-async-wait-count`: a wait whose `pending` is at least the number of groups
      committed before its first execution (counted where loop trip counts are constants): it
      waits for no copy;
    - `async.cp-async-in-flight`: along each warp's simulated path (its first thread, and every
      thread that reaches a cp.async op differently from it; loops unrolled at a few problem sizes), a `cake.load` of a shared-memory slot whose latest
      cp.async copy, issued before the read (earlier in the same thread, or before a block
      barrier the reader passed), is not complete for the reader: its group is not retired by a
      `cake.cp_async.wait` of the copying thread before the read, or (another thread's copy) no
      block barrier follows that wait before the read. Empty commits count as groups.
    - `async.cp-async-pending-at-exit`: along the same simulated paths, a committed group with
      copies that no `cake.cp_async.wait` retires before the thread exits (typically the
      prefetch of a tile past the last one, whose wait in the next iteration never runs): it
      may still write shared memory that the next block on the SM already owns.
    - `async.tma-store-uncommitted`, `async.tma-store-no-wait`, `async.tma-store-wait-count`: the
      same for TMA stores and their bulk groups (the kernel must not exit, nor the buffer be
      rewritten, while a store still reads shared memory).

    And each `cake.cp_async`'s addresses, in every thread that may execute it (the op verifier
    already requires 4, 8 or 16 bytes, a whole number of elements and a destination row that
    is a whole number of copies):

    - `async.cp-async-align`: the shared destination's byte offset (with the buffer's pad; the
      swizzle moves only 16-byte chunks) or the global source's (the element offset times the
      element size; symbolic strides count as multiples of the copy's width, which the manifest
      requires; the buffer and the tensor start 16-byte aligned) is not a multiple of the copy
      size. The offset is evaluated per thread: exactly where the indices are known (thread,
      lane and warp ids, constants, arithmetic), else modulo the power of two their known low
      bits give (a loop counter from 0 by 32 is 0 modulo 32; a block id times 128 too);
    - `async.cp-async-row-overrun`: the copy's elements [i, i + bytes / element size) run past
      the innermost extent of the destination buffer (into the pad or the next row), or, for an
      unmasked copy from a tensor with a static innermost extent, past the source row; only
      threads whose innermost index is known exactly.
  }];
}

def CakeVerifyWgmmaPass : Pass<"cake-verify-wgmma"> {
  let summary = "Check wgmma groups against the registers they read";
  let description = [{
    `cake.wgmma.regs` reads its A fragment from registers while the group runs asynchronously:
    the registers must not change until a `cake.wgmma.wait` retires the group.

    - `wgmma.a-registers-in-flight`: in a loop, the op defining a `cake.wgmma.regs` A fragment
      (e.g. `cake.ldmatrix`) runs again in the next iteration while the group that read the
      previous value may still be in flight: between the wgmma (through the end of the loop body
      and around to the defining op) there is no `cake.wgmma.wait 0` that every path reaches
      (only waits with `pending` > 0, waits under conditions, or none). Fix: `cake.wgmma.wait 0` before the fragment is
      rewritten, or double-buffer the fragments (load the next one into an iteration argument).
    - `wgmma.accumulator-in-flight`: an op other than the next wgmma of the chain reads an
      accumulator (a wgmma result, or an `scf.for` result or iteration argument or an `scf.if`
      result carrying one: a store, a reduction, arithmetic) while its group may be in flight on
      some path. Going back from the read in program order, the most recent `cake.wgmma.wait`
      on each path decides: `wait N` retires the group when at least N + 1 commits lie between
      the accumulator's wgmma and the wait in the blocks that hold or enclose either (a commit
      in a branch or loop beside them may not run; a wgmma that no commit closed is never
      retired); no wait leaves it in flight. An `scf.if` counts per arm, and an `scf.for` whose
      trip count is not known to be positive also as skipped; a loop result is judged at the
      end of its body, an iteration argument read in the body at the end of the previous
      iteration. Fix: `cake.wgmma.wait 0` before the read (after the group's commit).
  }];
}

def CakeVerifyTmemPass : Pass<"cake-verify-tmem"> {
  let summary = "Check the tensor-memory protocol: frees, MMA issue, accumulation, reads";
  let description = [{
    Whole-kernel checks of the tcgen05 ops (sm_100a; the op verifiers check each op on its own,
    and allocation and free are block-collective by construction):

    - `tmem.dealloc-count`: an allocation freed by no `cake.tmem.dealloc` (its columns stay
      allocated and the next block on the SM waits for them forever) or by more than one;
    - `tmem.use-after-dealloc`: an MMA, load or free of an allocation after its free;
    - `tmem.mma-threads`: a `cake.tcgen05.mma` or `cake.tcgen05.cp` that more than one thread
      executes (each issues its own MMA, so the product is added once per thread);
    - `tmem.accumulate-unwritten`: the first MMA into an allocation (in program order) whose
      `accumulate` is true on its first execution (a constant, or a loop counter / iteration
      argument at its start, folded) and no `cake.tmem.store` or `cake.tcgen05.cp` before it: it
      adds to undefined tensor memory;
    - `tmem.read-before-commit`: a `cake.tmem.load` with no `cake.tcgen05.commit` after the
      allocation's last earlier MMA or copy followed by a `cake.mbarrier.wait` on the same
      barrier before the load (program order);
    - `tmem.dealloc-in-flight`: the same for `cake.tmem.dealloc`: its block barrier orders the
      threads, not the asynchronous MMAs and copies, which could still write freed columns. For
      both, the wait must lie on every path from the writer: one in a branch every thread may
      skip alike (a data-dependent `scf.if` without a wait in its other branch, an `scf.while`)
      does not count;
    - `tmem.cta-group-mixed`: CTA-pair (`pair`) and one-block allocations or commits in one
      kernel (PTX requires one cta_group per kernel);
    - `tmem.pair-unsynced`: a CTA-pair MMA with no `cake.cluster_barrier` between the last write
      of an operand buffer and the MMA (the even block reads the odd block's operands).
  }];
}

def CakeVerifyTmaPass : Pass<"cake-verify-tma"> {
  let summary = "Check TMA copies against the kernel: multicast masks, coordinate strides";
  let description = [{
    Whole-kernel checks of `cake.tma.load` and `cake.tma.store` (the op verifier checks each
    descriptor, box and buffer on its own; the transaction bytes are checked by
    `cake-verify-mbarrier` and `cake-verify-pipeline`):

    - `tma.multicast-mask` (error): a constant multicast mask that is 0 or names a block rank
      at or beyond the cluster size (the product of the kernel's `cluster` extents);
    - `tma.coord-stride` (warning): inside an `scf.for`, a coordinate that advances by a constant
      per iteration (the induction variable, optionally times a constant, plus loop-invariant
      terms) smaller than the box's extent in that dimension: consecutive iterations copy
      overlapping tiles, usually a tile size that does not match the box;
    - `tma.store-race`: along the paths of every warp's first thread and of every thread that
      may issue, commit or wait for a TMA store (run for a few concrete problem sizes), a write to
      a buffer a store's bulk group still reads, not ordered against it: in another thread,
      neither before a block barrier the issuer passed before the store nor after a barrier (or
      an mbarrier phase the issuer arrived on) that follows the wait retiring the group; in the
      issuer, between the store and that wait;
    - `tma.store-pending-at-exit`: a store whose group no `cake.tma.store_wait` retires before
      the block exits;
    - `wgmma.operand-race`: the same for a buffer a wgmma group (its shared operands, until the
      `cake.wgmma.wait` that retires it) still reads;
    - `async.proxy-fence-missing`: a generic write (`cake.store`, `stmatrix`, `cp.async`) that a
      TMA store or a wgmma reads after it, with no `cake.fence.proxy_async` in the writing thread
      between the write and what orders it before the read.

    Ordering between threads on these paths: block barriers, mbarrier and pipeline phases (an
    arrival before a wait that passes that phase or a later one; a TMA copy before every wait
    that passes the phase it completes) and, within a thread, program order. The path checks
    give up (no finding) on paths they cannot decide or that are too long to compare.
  }];
}

def CakeVerifyRacesPass : Pass<"cake-verify-races"> {
  let summary = "Check shared-memory accesses of different threads and roles for missing ordering";
  let description = [{
    Reports two accesses of one `cake.alloc_smem` buffer, at least one a write, by threads of
    different warps with nothing ordering them. Only certain races are reported: the thread model
    evaluates the indices for every thread (loop counters are bound to iterations that certainly
    run: iterations of a loop with constant bounds, up to 16 and fewer when the combinations of
    nested loops exceed a cap, or the first iteration of one with a constant lower bound), and a
    finding names two threads whose regions provably share an element; a condition around an
    access that depends on bound loop counters (`scf.if` under `scf.for` only: `tid < (128 >>
    lvl)`) is evaluated per thread under them; unknown indices, other thread-dependent or uniform
    conditions around an access, and anything that may order the two are never reported. Accesses: `cake.load` / `cake.store`,
    `cake.cp_async` (a write), `cake.ldmatrix` / `cake.stmatrix` (16 bytes per lane that passes a
    used address), wgmma operand tiles, the boxes of `cake.tma.load` (a write) and
    `cake.tma.store` (a read). Buffers of a `cake.pipeline` (TMA copies completing on a pipeline,
    or indices from `cake.pipeline.slot`) are `cake-verify-pipeline`'s and skipped.

    - `race.missing-barrier` (block code outside `cake.warp_roles`): thread A accesses an element
      that thread B (another warp; or another lane of A's warp, when the two accesses are
      different ops with no warp collective between them: lanes of a warp are not ordered since
      Volta) wrote, or writes one B read or wrote, with no op that may order
      them in program order between the two: no block barrier (`cake.barrier`,
      `cake.cluster_barrier`, `cake.pipeline.create`), no named barrier that both threads may
      execute (it orders its participants only) and, conservatively, no wait
      (`cake.mbarrier.wait`, pipeline acquire and wait) or `cake.warp_roles`. Either in one
      iteration of the loops around both (an access inside a loop of its own counts in the
      iterations that reach the other with no sync op: all of them, or the last (first) when that
      loop's body holds one), or around the back edge of a loop around both: the rest of the body
      after the first access and the body up to the second in the next iteration (the missing
      second `__syncthreads` of a tiled loop; reported when the loop runs at least twice; an
      `scf.while` whose condition every thread computes alike counts as such a loop). Loop
      counters are bound to iterations that certainly run: an `scf.for`'s from constant bounds,
      an `scf.while`'s integer arguments folded per iteration while they are the same constant in
      every thread (a tree reduction's stride 128, 64, ..., 1), so that guards such as
      `tid < s` say which threads run each iteration. A sync op between the two accesses that
      may not run on the way counts for nothing: at one of the probe sizes (as
      `cake-verify-shapes` binds them) a block-uniform `scf.if` around it takes the other side,
      or a loop around it runs no iteration (the only barrier inside `for ch = 0 to K / 32`);
      the note names the sizes. A block
      barrier under a condition that the loop's last iteration does not take (`%i + 1 < %n`)
      does not order that iteration's accesses with the code after the loop. An
      asynchronous write (`cp.async`, TMA) counts as issued where it is; its completion mechanism
      is not checked here.
    - `race.lost-update` (block code): a load of a shared element and a store, at the same
      indices with nothing ordering threads in between, of a value computed from it, where an
      index is computed from loaded data and threads of several warps run the store (a
      histogram's plain increment): for inputs where two threads meet one element, an update
      is lost; the fix is `cake.atomic_add`.
    - `race.unordered-handoff`: in a kernel whose `cake.warp_roles` hand data over through shared
      memory with named barriers only (no mbarriers, pipelines, async copies or atomics), every
      thread's path is simulated for a few problem sizes; a write and another warp's load or
      store of the same logical element are ordered only by a block barrier or by an instance of
      a named barrier both threads arrive on (the k-th arrivals of its participants) that one
      reaches after its access and the other before its own. A pair ordered in neither direction
      is reported with the threads, iterations and sizes: a row handed over in a loop with one
      "ready" barrier and no "consumed" one, the writer's next iteration overwriting what the
      reader still reads.
    - `race.cross-role`: a buffer written in one `cake.role` and read or written in another of the
      same `cake.warp_roles` with no synchronization edge between the two accesses, in either
      direction: no arrival after the first access in its role (`cake.mbarrier.arrive`,
      `arrive_expect_tx`, pipeline commit or release, a named barrier; "after" includes the next
      iteration of a loop in the role; for a TMA copy only the barrier it completes on, as later
      arrivals of the issuing thread do not cover the asynchronous write) on a
      barrier the other role waits on (`cake.mbarrier.wait` on the same array and an index not
      provably different, pipeline acquire or wait, the same named barrier id) before its access
      (or in a loop around it), directly or through other roles.

    Not checked: accesses inside one role against each other, accesses in a role against block
    code, and pairs in one warp (no cross-warp witness). A read or write in flight (wgmma, TMA
    store, cp.async) after a barrier is not checked either.
  }];
}

def CakeVerifyDeadlockPass : Pass<"cake-verify-deadlock"> {
  let summary = "Check waits and barriers for deadlocks: wait-for cycles, partial participation";
  let description = [{
    Reports only certain deadlocks (a thread that reaches the wait never passes it):

    - `deadlock.cyclic-wait`: waits that form a wait-for cycle. The waits are
      `cake.mbarrier.wait`, `cake.pipeline.consumer_wait` / `producer_acquire`,
      `cake.named_barrier` and the block barrier (`cake.barrier`, `cake.pipeline.create`). A wait
      W depends on a wait W' when every arrival that can complete the phase W waits for comes,
      in its thread and in the same loop iteration, after W' (W' precedes it in its block or an
      enclosing one, or every thread executing the arrival certainly executes W' earlier): then
      W cannot pass before W' has. The dependence carries an iteration distance d (W at
      iteration n needs W' at iteration n - d or later), from the pipeline's iteration numbers:
      `consumer_wait(i)` needs a `producer_commit` of iteration i or later, `producer_acquire(i)`
      a `consumer_release` of iteration i - stages or later and passes without one for
      i < stages. (Only rings nothing can shift: the wait runs in every iteration of a loop by 1
      from a first round that cannot alias by parity; the arrivals have one iteration offset,
      are never negative, guards like `it >= 2` around a release of `it - 2` included, and number
      at most 1 commit or `consumers` releases per iteration.) A cycle whose
      distances add up to 0 or less is a deadlock: the first pass of each of its waits would
      have to come after itself. A correct pipeline's cycle acquire -> consumer_wait -> acquire
      has distance `stages` minus the release's lag, which is positive. The finding is reported
      at the cycle's first wait in program order, with notes at the other waits and at the
      arrivals that come too late; for pipelines it names the iteration in which the cycle
      closes (a loop with a constant trip count that ends earlier is not reported).
      Which arrivals complete which phase: mbarrier waits outside loops on parity 0 (any arrival
      on the index); waits in every iteration of a loop from 0 by 1 on a ring of mbarriers:
      the barrier index and the parity, evaluated at the loop's first 64 counters (arith or index
      ops on the counter, or values carried through the loop's iteration arguments from their
      initial values, as a PipelineState does), must show a period of S distinct barriers and
      the round's parity (counter div S) mod 2, inverted or not, and each barrier must get at
      most its count of arrivals per iteration, each arrival on the barrier the wait uses in that
      iteration (arrivals on another ring are told apart). The wait of round r then needs phase r
      (an arrival of the same iteration or later) or, inverted, phase r - 1 (S iterations
      earlier; round 0 passes freely); a producer that waits on its 'empty' ring with the
      round's own parity waits in round 0 for a release of data it has not produced, and the
      fix note says to invert it. When an iteration's arrivals are exactly the count (several
      roles each bringing part of it), the wait depends on the waits before each arrival.
      Barriers whose counted threads are exactly the threads that can arrive (each of them must
      arrive, after its own earlier waits). Ops in nested loops, in other loops than `scf.for`,
      or with iteration numbers other than counter + constant are left out (never reported).
    - `deadlock.branch-participation`: a barrier with a fixed count that fewer threads can reach
      than it counts, because the branches around it (`scf.if` on the thread, `cake.role`) keep
      the others away: a `cake.named_barrier` whose `threads` exceed the threads of the warps that
      can execute any named barrier of its id (the hardware counts arrivals by whole warps), or
      an mbarrier whose arrivals (none of them in a loop) come from fewer threads than the
      init's count while some thread waits for its phase 0. The
      mbarrier case covers only arrivals whose threads `cake-verify-mbarrier` cannot decide
      (`mbarrier.arrival-count` reports the rest); block barriers under divergent control flow
      are `roles.divergent-barrier`.
  }];
}

def CakeVerifyOpsPass : Pass<"cake-verify-ops"> {
  let summary = "Check that kernels use only ops CAKE can reason about (no escape hatches)";
  let description = [{
    A kernel body may hold ops of the `cake`, `arith`, `math`, `scf`, `vector`, `index` and `ub`
    dialects only: every other op is outside what the verifier, the cost model and the manifest
    model, so a kernel could use it to do work nobody checks (or to observe the evaluator). One
    finding per op, with a rule id per kind of escape:

    - `ops.inline-asm`: `llvm.inline_asm`;
    - `ops.timer`: a clock or `%globaltimer` read (`nvvm.read.ptx.sreg.clock`, `clock64`,
      `globaltimer`), which lets a kernel behave differently when it is timed;
    - `ops.atomic`: atomics and reductions to memory (`llvm.atomicrmw`, `llvm.cmpxchg`,
      `memref.atomic_rmw`, `memref.generic_atomic_rmw`, `nvvm.red*`, `nvvm.atom*`);
    - `ops.raw-intrinsic`: any other op of the `llvm`, `nvvm`, `nvgpu`, `gpu` or `rocdl` dialects;
    - `ops.foreign`: an op of any other dialect (`memref`, `func.call`, ...), and any op at module
      level besides `cake.kernel`.

    `allow` lists what a kernel may use anyway: rule ids (`ops.atomic`) or op names
    (`llvm.atomicrmw`). A task that reduces into its outputs with atomics allows `ops.atomic`.
    An entry that is neither (an unknown `ops.` id, a word without a dot) is an error: it would
    allow nothing.
  }];
  let options = [
    ListOption<"allow", "allow", "std::string",
               "rule ids (ops.atomic) or op names (llvm.atomicrmw) kernels may use">,
  ];
}

def CakeVerifyInterfacePass : Pass<"cake-verify-interface"> {
  let summary = "Check a kernel against its declared interface: parameters, inputs, outputs";
  let description = [{
    Reads an interface (a JSON file, `interface=FILE`; the same object as a task's `interface`
    field, docs/Tasks.md):

    ```json
    {"kernel": "softmax", "symbols": ["M", "N"],
     "params": [{"name": "x", "dtype": "f32", "shape": ["M", "N"], "role": "in"},
                {"name": "y", "dtype": "f32", "shape": ["M", "N"], "role": "out"},
                {"name": "alpha", "kind": "scalar", "dtype": "f32"} ]}
    ```

    and checks the kernel of that name. TMA descriptor parameters are not part of an interface
    (the host encodes them from the manifest); every other parameter is, in order.

    - `interface.kernel-missing`: no `cake.kernel` of that name;
    - `interface.params`: a parameter missing, extra, or of another name, kind, element type or
      shape (extents compared as written: symbol names or integers); one finding per kernel
      with a note per differing parameter;
    - `interface.symbols`: other problem-size symbols, or another order;
    - `interface.output-unwritten`: an `out` or `inout` tensor no op writes (directly, through a
      TMA descriptor of it, or with a fragment store): the kernel cannot compute it;
    - `interface.input-written`: an `in` tensor some op writes (inputs are read-only: a kernel that
      writes its input can fake a result in place).

    What the static check cannot see (a store under a condition that never holds) the runner
    sees: cake-run poisons every declared output and fails a run that leaves elements unwritten.
    An unreadable or malformed interface file is an error at the module.
  }];
  let options = [
    Option<"interface", "interface", "std::string", "\"\"",
           "the interface to check against (a JSON file)">,
  ];
}

def CakeVerifyPass : Pass<"cake-verify"> {
  let summary = "Run every cake-verify-* pass and the loaded rules; fail after all of them";
  let description = [{
    Runs `cake-verify-ops`, `-target`, `-smem`, `-roles`, `-shapes`, `-mbarrier`, `-pipeline`, `-async`,
    `-wgmma`, `-tmem`, `-tma`, `-races`, `-deadlock`, `-interface` (when `interface` names a file) and then
    every rule loaded with `--cake-load-rules` (`cake-rule-<name>`), each on the whole input,
    and fails at the end when any of them had findings: one run reports every finding.
    `allow` is passed to `cake-verify-ops`, `interface` to `cake-verify-interface`.
  }];
  let options = [
    ListOption<"allow", "allow", "std::string",
               "what cake-verify-ops lets kernels use (rule ids or op names)">,
    Option<"interface", "interface", "std::string", "\"\"",
           "a declared interface to check the kernel against (JSON file)">,
  ];
}

#endif // CAKE_VERIFY_PASSES_TD
