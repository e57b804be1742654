//===- Passes.td - cake verification passes ----------------*- tablegen -*-===//
//
// Whole-kernel checks of the schedule: each pass reports every finding it makes as an error with a
// stable rule id (`[rule.id]` after the op name), notes at the related ops and a last note
// `fix: ...`, then fails. `cake-verify` runs them all. docs/Verification.md lists the rule ids.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_PASSES_TD
#define CAKE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CakeVerifySmemPass : Pass<"cake-verify-smem"> {
  let summary = "Check each kernel's shared memory against its target's limit";
  let description = [{
    Lays out every `cake.kernel`'s shared allocations as the lowering does
    (`KernelOp::getSharedMemoryLayout`: `cake.alloc_smem` buffers with all their stages at their
    alignment, `cake.mbarrier.alloc` arrays, the 2 x stages barriers of each `cake.pipeline.create`)
    and adds `dynamic_smem`. A kernel that needs more than one block may use on its target (163 KiB
    on sm_80, 227 KiB on sm_90, sm_90a and sm_100a) fails to launch; the error names the total,
    the limit, the bytes lost to alignment padding, and carries notes at the biggest allocations.

    Rule: `smem.over-limit`.
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
    - `roles.barrier-in-role`: `cake.barrier` and `cake.pipeline.create` (block-wide barriers)
      inside a `cake.role`, where the other roles' warps never reach them;
    - `roles.divergent-barrier`: the same ops under control flow that depends on the thread
      (`scf.if` on a thread-dependent condition, `scf.for` with thread-dependent bounds);
    - `roles.partial-warpgroup` / `roles.partial-warp`: wgmma ops executed by part of a warpgroup,
      `cake.warp_reduce`, `cake.warp_arg_reduce` or `cake.elect_one` by part of a warp.

    Which threads execute an op is computed by evaluating the conditions around it for every thread
    of the block (thread, lane, warp and warpgroup ids are known; problem sizes, block ids and loop
    counters are uniform unknowns); when that is not decidable, nothing is reported.
  }];
}

def CakeVerifyTargetPass : Pass<"cake-verify-target"> {
  let summary = "Check that each op is available on its kernel's target";
  let description = [{
    Compares every op with the oldest target that has it and reports those the kernel's `target`
    lacks, one finding per op, with a rule id per feature: `target.cp-async` (sm_80),
    `target.tma`, `target.mbarrier-tx`, `target.mbarrier-try-wait`, `target.fence-mbarrier-init`,
    `target.fence-proxy-async`, `target.elect`, `target.pipeline`, `target.cluster` (sm_90),
    `target.wgmma` (sm_90a only: Blackwell has no wgmma), `target.setmaxnreg` (sm_90a, sm_100a) and
    `target.tcgen05` (sm_100a). Op verifiers reject some of these already; this pass covers the
    whole kernel (fences, waits, wgmma groups, cluster ids, ops of later extensions).
  }];
}

def CakeVerifyMbarrierPass : Pass<"cake-verify-mbarrier"> {
  let summary = "Check the mbarrier protocol: initialization, arrivals, transaction bytes, parity";
  let description = [{
    For every `cake.mbarrier.alloc` array and every barrier index the kernel uses:

    - `mbarrier.index-range`: a constant index outside the array;
    - `mbarrier.uninitialized`: arrive, expect-tx, wait or a TMA copy on an index no
      `cake.mbarrier.init` initializes, or a use before the init;
    - `mbarrier.init-threads`: an init executed by more than one thread;
    - `mbarrier.init-fence`: no `cake.fence.mbarrier_init` between the inits and the first use;
    - `mbarrier.init-barrier`: no block-wide barrier (`cake.barrier`, or `cake.pipeline.create`
      which ends with one) between the inits and the first use by other threads;
    - `mbarrier.tx-bytes`: `arrive_expect_tx` bytes differ from the bytes of the TMA copies
      completing on that barrier in the same region (`box` x element size each);
    - `mbarrier.tx-missing`: a TMA copy completes on a barrier nobody expects bytes on;
    - `mbarrier.no-arrive`: a wait on a barrier nothing arrives on (a hang);
    - `mbarrier.arrival-count`: the threads arriving per phase (when statically known) differ from
      the init's arrival count;
    - `mbarrier.parity-constant`: a wait inside a loop with a loop-invariant barrier and parity,
      which hangs in the second iteration.
  }];
}

def CakeVerifyPipelinePass : Pass<"cake-verify-pipeline"> {
  let summary = "Check the pipeline protocol: acquire, commit, wait, release";
  let description = [{
    For every `cake.pipeline.create`, with its stage buffers (the shared buffers TMA copies
    completing on the pipeline fill):

    - `pipeline.tx-bytes`: `producer_commit` `tx_bytes` differ from the bytes of the TMA copies on
      the same pipeline and iteration in the same region;
    - `pipeline.commit-missing`: TMA copies on a pipeline iteration with no `producer_commit`;
    - `pipeline.acquire-missing`: a TMA copy into a stage without a `producer_acquire` of that
      iteration before it;
    - `pipeline.read-before-wait`: a read of a stage buffer (wgmma operand, load, reduction bias)
      without a `consumer_wait` of its iteration before it;
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
    - `pipeline.stage-count`: a stage buffer whose leading dimension is smaller than the stages.
  }];
}

#endif // CAKE_TRANSFORMS_PASSES_TD
