//===- CakeHopperOps.td - barriers, TMA, roles, pipelines, wgmma -*- tablegen -*-===//
//
// The hardware-explicit half of the dialect: mbarriers with phases, async-proxy fences, elect-one,
// TMA tile copies, warp roles with register budgets, pipelines as a primitive, and wgmma.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_IR_CAKEHOPPEROPS_TD
#define CAKE_IR_CAKEHOPPEROPS_TD

//===----------------------------------------------------------------------===//
// mbarriers and fences
//===----------------------------------------------------------------------===//

def Cake_MbarrierAllocOp : Cake_Op<"mbarrier.alloc", [Cake_InKernel, MemoryEffects<[MemAlloc]>]> {
  let summary = "allocates an array of mbarriers in shared memory";
  let description = [{
    Reserves `count` mbarriers (8 bytes each, 8-byte aligned) in the block's shared memory. They
    must be initialized with `cake.mbarrier.init` (one thread), fenced with
    `cake.fence.mbarrier_init` and published with a `cake.barrier` before use.

    ```mlir
    %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
    ```
  }];
  let results = (outs Cake_MbarriersType:$barriers);
  let assemblyFormat = "attr-dict `:` qualified(type($barriers))";
}

def Cake_MbarrierInitOp : Cake_Op<"mbarrier.init", [Cake_InKernel]> {
  let summary = "initializes one mbarrier with its arrival count";
  let description = [{
    Sets barrier `index` to phase 0 expecting `count` arrivals per phase. Executed by one thread.

    ```mlir
    cake.mbarrier.init %bars[%i], count 1 : !cake.mbarriers<4>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index, I64Attr:$count);
  let assemblyFormat = "$barriers `[` $index `]` `,` `count` $count attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Cake_MbarrierArriveOp : Cake_Op<"mbarrier.arrive", [Cake_InKernel]> {
  let summary = "arrives on one mbarrier";
  let description = [{
    Counts one arrival of the executing thread on barrier `index` for its current phase.

    ```mlir
    cake.mbarrier.arrive %bars[%i] : !cake.mbarriers<4>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` qualified(type($barriers))";
}

def Cake_MbarrierArriveExpectTxOp : Cake_Op<"mbarrier.arrive_expect_tx", [CakeRequires<"MbarrierTx">, Cake_InKernel]> {
  let summary = "arrives on one mbarrier and expects bytes of asynchronous copies (sm_90)";
  let description = [{
    Counts one arrival and raises the barrier's transaction count by `bytes`; the phase completes
    when all arrivals are in and the TMA copies completing on it have delivered those bytes.

    ```mlir
    cake.mbarrier.arrive_expect_tx %bars[%i], bytes 16384 : !cake.mbarriers<4>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index, I64Attr:$bytes);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` `bytes` $bytes attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Cake_MbarrierWaitOp : Cake_Op<"mbarrier.wait", [CakeRequires<"MbarrierTryWait">, Cake_InKernel]> {
  let summary = "waits until one mbarrier's phase of the given parity has completed";
  let description = [{
    Spins on `mbarrier.try_wait.parity` until the phase with parity `parity` (0 or 1; an `index`,
    only its lowest bit counts) of barrier `index` has completed.

    ```mlir
    cake.mbarrier.wait %bars[%i], %parity : !cake.mbarriers<4>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index, Index:$parity);
  let assemblyFormat = "$barriers `[` $index `]` `,` $parity attr-dict `:` qualified(type($barriers))";
}

def Cake_FenceMbarrierInitOp : Cake_Op<"fence.mbarrier_init", [CakeRequires<"FenceMbarrierInit">, Cake_InKernel]> {
  let summary = "makes mbarrier initialization visible to the async proxy and the cluster";
  let description = [{
    `fence.mbarrier_init.release.cluster`: after `cake.mbarrier.init`, before the barriers are used
    by TMA copies or other blocks of the cluster.

    ```mlir
    cake.fence.mbarrier_init
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_FenceProxyAsyncOp : Cake_Op<"fence.proxy_async", [CakeRequires<"FenceProxyAsync">, Cake_InKernel]> {
  let summary = "orders generic-proxy shared-memory accesses with later async-proxy ones";
  let description = [{
    `fence.proxy.async.shared::cta`: shared memory written by ordinary stores that TMA stores or
    wgmma read next needs this fence in each writing thread before the barrier.

    ```mlir
    cake.fence.proxy_async
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Programmatic dependent launch (griddepcontrol)
//===----------------------------------------------------------------------===//

def Cake_GridDependencyWaitOp : Cake_Op<"grid_dependency.wait",
    [CakeRequires<"GridDependency">, Cake_InKernel]> {
  let summary = "waits until the grids this launch depends on have completed (griddepcontrol.wait)";
  let description = [{
    `griddepcontrol.wait`: blocks until every grid the kernel's launch depends on has completed
    and its memory is visible. A kernel with this op is launched with programmatic stream
    serialization (the manifest says `"programmatic_launch": true`): its blocks may start while
    the previous kernel of the stream is still running, and this op is where they catch up. So
    nothing before it may touch global memory: the op sits directly in the kernel's body, after
    no op that reads or writes a global tensor (or a TMA descriptor's tensor), once per kernel.
    What comes before it (index arithmetic, shared-memory and mbarrier setup) overlaps the
    previous kernel's tail; `cake-tactic-programmatic-launch` places it. Cost model: free (it
    returns at once when the stream's previous kernel has completed).

    ```mlir
    cake.grid_dependency.wait
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Cake_GridDependentsLaunchOp : Cake_Op<"grid_dependency.launch_dependents",
    [CakeRequires<"GridDependency">, Cake_InKernel]> {
  let summary = "lets the next kernel of the stream start early (griddepcontrol.launch_dependents)";
  let description = [{
    `griddepcontrol.launch_dependents`: once every block of this grid has executed it (or
    exited), a kernel launched after it with programmatic stream serialization may start its
    blocks; they wait in their `cake.grid_dependency.wait` for this grid to complete, so the
    signal only moves their launch earlier and is always safe. Without it the next kernel starts
    when this one exits. Early in the kernel hides the most launch latency (measured on the
    H200: a tiny kernel in a graph of back-to-back launches 1.00 -> 0.75 us), but at the start of
    the split-D and multi-chunk wgmma KMeans kernels it made them 20-30% slower, even launched
    the ordinary way (bench/results/2026-12-04-library-kmeans-10, call 6): measure before using
    it.

    ```mlir
    cake.grid_dependency.launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_ElectOneOp : Cake_Op<"elect_one", [CakeRequires<"Elect">, Cake_InKernel]> {
  let summary = "true in exactly one active lane of the warp (elect.sync)";
  let description = [{
    Elects one leader lane among the active lanes of the warp (sm_90). All lanes must execute it.

    ```mlir
    %leader = cake.elect_one
    ```
  }];
  let results = (outs I1:$leader);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def Cake_TmaLoadOp : Cake_Op<"tma.load", [CakeRequires<"Tma">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, AttrSizedOperandSegments]> {
  let summary = "a TMA tile copy from global to shared memory completing on an mbarrier";
  let description = [{
    Copies the box at tensor coordinates `coords` (element indices, outermost first) into the shared
    buffer `dest`; `dest_indices` select a sub-buffer by its leading dimensions (e.g. a pipeline
    stage), and the remaining dimensions must equal the box. The copy completes on `barrier`: an
    `!cake.mbarriers` indexed by `barrier_index`, or a `!cake.pipeline` whose `barrier_index` is
    the iteration (its slot's full barrier). Issued by one thread; the bytes must be announced on
    the barrier with an expect-tx arrival.

    With `multicast %mask` (a kernel with a cluster), the box lands in the same buffer of every
    block of the cluster whose rank is a set bit of `mask`, and completes on the barrier at the
    same place in each of them: every receiving block expects the bytes on its own barrier, and the
    cluster must have initialized its barriers (`cake.cluster_barrier`) before the first copy.

    ```mlir
    cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%it]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.pipeline<4>
    ```
  }];
  let arguments = (ins Cake_TmaType:$descriptor, Variadic<Index>:$coords, Cake_SmemType:$dest,
                       Variadic<Index>:$dest_indices,
                       AnyTypeOf<[Cake_MbarriersType, Cake_PipelineType]>:$barrier,
                       Index:$barrier_index, Optional<Index>:$multicast);
  let assemblyFormat = [{
    $descriptor `[` $coords `]` `,` $dest `[` $dest_indices `]` `,` $barrier `[` $barrier_index `]`
    (`multicast` $multicast^)?
    attr-dict `:` qualified(type($descriptor)) `,` qualified(type($dest)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Cake_TmaStoreOp : Cake_Op<"tma.store", [CakeRequires<"Tma">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, AttrSizedOperandSegments]> {
  let summary = "a TMA tile copy from shared to global memory (bulk async group)";
  let description = [{
    Copies the shared buffer `source` (its trailing dimensions equal to the box; `source_indices`
    select a sub-buffer by its leading dimensions) to the box at tensor coordinates `coords`
    (outermost first). Elements of the box outside the tensor are not written. Issued by one thread;
    the copy joins the thread's bulk async group: close it with `cake.tma.store_commit` and wait with
    `cake.tma.store_wait` before reusing the buffer. Shared memory written by ordinary stores needs
    `cake.fence.proxy_async` in each writing thread and a barrier before the copy reads it.

    ```mlir
    cake.tma.store %cbuf[], %tc[%m0, %n0]
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [128, 64], swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_SmemType:$source, Variadic<Index>:$source_indices,
                       Cake_TmaType:$descriptor, Variadic<Index>:$coords);
  let assemblyFormat = [{
    $source `[` $source_indices `]` `,` $descriptor `[` $coords `]` attr-dict
    `:` qualified(type($source)) `,` qualified(type($descriptor))
  }];
  let hasVerifier = 1;
}

def Cake_TmaStoreCommitOp : Cake_Op<"tma.store_commit", [CakeRequires<"Tma">, Cake_InKernel]> {
  let summary = "closes the thread's bulk async group of TMA stores (cp.async.bulk.commit_group)";
  let description = [{
    ```mlir
    cake.tma.store_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_TmaStoreWaitOp : Cake_Op<"tma.store_wait", [CakeRequires<"Tma">, Cake_InKernel]> {
  let summary = "waits until at most `pending` bulk groups still read shared memory";
  let description = [{
    `cp.async.bulk.wait_group.read pending`: after it, the shared buffers of all but the last
    `pending` committed TMA-store groups may be overwritten.

    ```mlir
    cake.tma.store_wait 0
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

def Cake_ClusterBarrierOp : Cake_Op<"cluster_barrier", [CakeRequires<"Cluster">, Cake_InKernel]> {
  let summary = "a barrier among every thread of every block of the cluster";
  let description = [{
    `barrier.cluster.arrive` then `barrier.cluster.wait` (aligned): every thread of the cluster
    waits for all others; shared-memory writes before it (mbarrier initialization included) are
    visible cluster-wide after it. Needs a kernel with a `cluster`.

    ```mlir
    cake.cluster_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Cake_NamedBarrierOp : Cake_Op<"named_barrier", [Cake_InKernel]> {
  let summary = "a barrier among a subset of the block's threads (bar.sync id, count)";
  let description = [{
    Waits until `threads` threads (a multiple of 32; whole warps) have arrived at barrier `id`
    (1 to 15; 0 is the block barrier, `cake.barrier`). Lets a role synchronize its own warps, e.g.
    one consumer warpgroup before it releases a stage, without stopping the others.

    ```mlir
    cake.named_barrier 1, threads 128
    ```
  }];
  let arguments = (ins I64Attr:$id, I64Attr:$threads);
  let assemblyFormat = "$id `,` `threads` $threads attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp roles
//===----------------------------------------------------------------------===//

def Cake_WarpRolesOp : Cake_Op<"warp_roles", [Cake_InKernel, NoTerminator, SingleBlock]> {
  let summary = "partitions the block's warps into named roles";
  let description = [{
    Holds `cake.role` ops whose warp ranges are disjoint and inside the block. Each warp runs the
    body of the role that contains it (warps in no role skip the op). The roles' register budgets are
    applied with `setmaxnreg` (sm_90a), which works per warpgroup: a role with a budget must cover
    whole warpgroups. All threads of the block reach the end of the op.

    ```mlir
    cake.warp_roles {
      cake.role "producer" warps [0, 4) regs 40 { ... }
      cake.role "consumer" warps [4, 12) regs 232 { ... }
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$body attr-dict";
  let hasRegionVerifier = 1;
}

def Cake_RoleOp : Cake_Op<"role", [HasParent<"WarpRolesOp">,
    DeclareOpInterfaceMethods<CakeTargetRequirementOpInterface>,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "the code one range of warps runs, with an optional register budget";
  let description = [{
    Warps `[first, last)` of the block run the body. With `regs`, the role first sets its per-thread
    register budget (`setmaxnreg.inc` when above the kernel's entry budget, `.dec` when below): a
    multiple of 8 in [24, 256]; the kernel is compiled with one block per SM so the entry budget is
    capped and the reallocation takes effect.

    ```mlir
    cake.role "producer" warps [0, 4) regs 40 {
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$role_name, I64Attr:$first, I64Attr:$last,
                       OptionalAttr<I64Attr>:$regs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $role_name `warps` ` ` `[` $first `,` $last `)` (`regs` $regs^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

def Cake_YieldOp : Cake_Op<"yield", [Pure, Terminator, ReturnLike, HasParent<"RoleOp">]> {
  let summary = "ends a role's body";
  let description = [{
    The implicit terminator of `cake.role`.

    ```mlir
    cake.yield
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

def Cake_PipelineCreateOp : Cake_Op<"pipeline.create", [CakeRequires<"Pipeline">, Cake_InKernel, MemoryEffects<[MemAlloc]>]> {
  let summary = "creates a ring of stages with full and empty barriers";
  let description = [{
    Allocates and initializes the pipeline's 2 x `stages` mbarriers: full barriers expect one
    arrival (the producer's expect-tx arrival), empty barriers expect `consumers` arrivals (one per
    consumer release). Every thread of the block executes it (it ends with a block barrier).

    ```mlir
    %pipe = cake.pipeline.create consumers 2 : !cake.pipeline<4>
    ```
  }];
  let arguments = (ins I64Attr:$consumers);
  let results = (outs Cake_PipelineType:$pipeline);
  let assemblyFormat = "`consumers` $consumers attr-dict `:` qualified(type($pipeline))";
  let hasVerifier = 1;
}

class Cake_PipelineStepOp<string mnemonic, string what, string example>
    : Cake_Op<"pipeline." # mnemonic, [CakeRequires<"Pipeline">, Cake_InKernel]> {
  let summary = what;
  let description = what # [{. `iteration` counts the ring's uses from 0; the slot is
    `iteration mod stages` and the lowering derives the phase parity from `iteration div stages`.

    ```mlir
    }] # example # [{

    ```
  }];
  let arguments = (ins Cake_PipelineType:$pipeline, Index:$iteration);
  let assemblyFormat = "$pipeline `[` $iteration `]` attr-dict `:` qualified(type($pipeline))";
}

def Cake_PipelineProducerAcquireOp : Cake_PipelineStepOp<"producer_acquire",
    "the producer waits until the slot of `iteration` is empty",
    "cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<4>">;
def Cake_PipelineConsumerWaitOp : Cake_PipelineStepOp<"consumer_wait",
    "a consumer waits until the slot of `iteration` is full",
    "cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<4>">;
def Cake_PipelineConsumerReleaseOp : Cake_PipelineStepOp<"consumer_release",
    "a consumer releases the slot of `iteration` (one arrival on its empty barrier)",
    "cake.pipeline.consumer_release %pipe[%it] : !cake.pipeline<4>">;

def Cake_PipelineProducerCommitOp : Cake_Op<"pipeline.producer_commit", [CakeRequires<"Pipeline">, Cake_InKernel]> {
  let summary = "the producer announces the bytes that will fill the slot of `iteration`";
  let description = [{
    One thread arrives on the slot's full barrier expecting `tx_bytes` of TMA copies; issue the copies
    completing on `%pipe[%it]` after it.

    ```mlir
    cake.pipeline.producer_commit %pipe[%it], tx_bytes 49152 : !cake.pipeline<4>
    ```
  }];
  let arguments = (ins Cake_PipelineType:$pipeline, Index:$iteration, I64Attr:$tx_bytes);
  let assemblyFormat = [{
    $pipeline `[` $iteration `]` `,` `tx_bytes` $tx_bytes attr-dict `:` qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def Cake_PipelineSlotOp : Cake_Op<"pipeline.slot", [Cake_InKernel, Pure]> {
  let summary = "the slot (stage index) that `iteration` uses";
  let description = [{
    `iteration mod stages`, to index the stage dimension of the pipeline's shared buffers.

    ```mlir
    %slot = cake.pipeline.slot %pipe[%it] : !cake.pipeline<4>
    ```
  }];
  let arguments = (ins Cake_PipelineType:$pipeline, Index:$iteration);
  let results = (outs Index:$slot);
  let assemblyFormat = "$pipeline `[` $iteration `]` attr-dict `:` qualified(type($pipeline))";
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

def Cake_WgmmaOp : Cake_Op<"wgmma", [CakeRequires<"Wgmma">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel, AttrSizedOperandSegments,
    TypesMatchWith<"result has the accumulator type", "acc", "result", "$_self">]> {
  let summary = "a warpgroup matrix multiply-accumulate from shared memory (sm_90a)";
  let description = [{
    `result = A * B^T + acc` for one m64nNkK step issued asynchronously by a warpgroup: A is the
    64xK tile of buffer `a` at `a_indices` (leading indices, then row and column), B the NxK tile
    of `b` at `b_indices`; both K-major (row-major with K innermost), in shared buffers whose rows
    are exactly one swizzle span (32, 64 or 128 bytes), so the shared-memory descriptors follow from
    the types. K is 16 for f16 and bf16 operands and 8 for f32 operands, which the tensor cores read
    as tf32 (10-bit mantissa). `acc` is the warpgroup's f32 accumulator fragment, `vector<(N/2)xf32>`
    per thread (N = 8 to 256, a multiple of 8). Surround with `cake.wgmma.fence` before (after
    writing the accumulator registers) and `cake.wgmma.commit` / `cake.wgmma.wait` after. An
    `acc` that is a constant zero lowers to scale-d = 0 (`result = A * B^T`) with no accumulator
    inputs, so no register moves land between the fence and the wgmma.

    ```mlir
    %d = cake.wgmma %abuf[%slot, %r, %k], %bbuf[%slot, %c0, %k], %acc
        : !cake.smem<4x128x64xbf16, swizzle = 128>, !cake.smem<4x256x64xbf16, swizzle = 128>,
          vector<128xf32>
    ```
  }];
  // The accumulator comes first so that ODS's result-type inference (which indexes operands
  // without regard to the variadic segments) reads it.
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc, Cake_SmemType:$a,
                       Variadic<Index>:$a_indices, Cake_SmemType:$b, Variadic<Index>:$b_indices);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $a `[` $a_indices `]` `,` $b `[` $b_indices `]` `,` $acc attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N of the m64nNkK shape.
    int64_t getN() { return 2 * getAcc().getType().getNumElements(); }
    /// K of the m64nNkK shape: 8 for tf32 (f32 operands), 16 for f16/bf16.
    int64_t getK() { return getA().getType().getElementType().isF32() ? 8 : 16; }
  }];
}

def Cake_WgmmaRegsOp : Cake_Op<"wgmma.regs", [CakeRequires<"Wgmma">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel,
    TypesMatchWith<"result has the accumulator type", "acc", "result", "$_self">]> {
  let summary = "a warpgroup matrix multiply-accumulate with A from registers (sm_90a)";
  let description = [{
    `result = A * B^T + acc` for one m64nNkK step like `cake.wgmma`, with the 64xK A tile held in
    the warpgroup's registers instead of shared memory: `a` is the thread's fragment,
    `vector<8xbf16>` / `vector<8xf16>` (K = 16) or `vector<4xf32>` (tf32, K = 8). Lane t of warp w
    of the warpgroup holds rows 16 w + t/4 and 16 w + t/4 + 8, columns 2 (t%4), +1, +8, +9 (f16/bf16:
    elements 0-1 row r cols c..c+1, 2-3 row r+8, 4-5 row r cols c+8.., 6-7 row r+8 cols c+8..) —
    the layout `cake.ldmatrix` (x4) returns for a 16x16 tile, and mma.sync's A fragment. B is the
    NxK shared tile at `b_indices`, K-major and swizzled as for `cake.wgmma`. Same fence / commit /
    wait protocol, and the same scale-d = 0 lowering from a zero `acc`; the A registers must not
    change until the group retires.

    ```mlir
    %a = cake.ldmatrix %abuf[%r, %k] : !cake.smem<128x64xbf16, swizzle = 128> -> vector<8xbf16>
    %d = cake.wgmma.regs %a, %bbuf[%c0, %k], %acc
        : vector<8xbf16>, !cake.smem<256x64xbf16, swizzle = 128>, vector<128xf32>
    ```
  }];
  // The accumulator first, as for cake.wgmma (ODS's result-type inference reads operand 0).
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       VectorOfRankAndType<[1], [BF16, F16, F32]>:$a, Cake_SmemType:$b,
                       Variadic<Index>:$b_indices);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $a `,` $b `[` $b_indices `]` `,` $acc attr-dict
    `:` type($a) `,` qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getN() { return 2 * getAcc().getType().getNumElements(); }
    int64_t getK() { return getB().getType().getElementType().isF32() ? 8 : 16; }
  }];
}

def Cake_WgmmaFenceOp : Cake_Op<"wgmma.fence", [CakeRequires<"Wgmma">, Cake_InKernel]> {
  let summary = "orders register and shared-memory accesses before the next wgmma (wgmma.fence)";
  let description = [{
    Required before the first `cake.wgmma` and whenever the accumulator registers or the operand
    buffers were written since.

    ```mlir
    cake.wgmma.fence
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_WgmmaCommitOp : Cake_Op<"wgmma.commit", [CakeRequires<"Wgmma">, Cake_InKernel]> {
  let summary = "closes a group of issued wgmma ops (wgmma.commit_group)";
  let description = [{
    ```mlir
    cake.wgmma.commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_WgmmaWaitOp : Cake_Op<"wgmma.wait", [CakeRequires<"Wgmma">, Cake_InKernel]> {
  let summary = "waits until at most `pending` wgmma groups are in flight (wgmma.wait_group)";
  let description = [{
    After it, the accumulators of all but the last `pending` committed groups are ready and their
    shared-memory operands may be overwritten.

    ```mlir
    cake.wgmma.wait 0
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def Cake_WgmmaStoreOp : Cake_Op<"wgmma.store", [DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel]> {
  let summary = "stores a warpgroup's wgmma accumulator fragment to a global tensor";
  let description = [{
    Writes the warpgroup's 64xN accumulator (`vector<(N/2)xf32>` per thread, wgmma's fragment layout)
    to `dest` with its top-left corner at (`row`, `col`), converting to the tensor's element type
    (f32, bf16 or f16). With `masked`, rows and columns outside the tensor are skipped.

    ```mlir
    cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<128xf32>, !cake.tensor<[M, N], bf16>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc, Cake_TensorType:$dest, Index:$row,
                       Index:$col, UnitAttr:$masked);
  let assemblyFormat = [{
    $acc `,` $dest `[` $row `,` $col `]` (`masked` $masked^)? attr-dict `:` type($acc) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Cake_RowPairF32 : VectorOfLengthAndType<[2], [F32]> {
  let builderCall = "::mlir::VectorType::get({2}, $_builder.getF32Type())";
}
def Cake_RowPairI32 : VectorOfLengthAndType<[2], [I32]> {
  let builderCall = "::mlir::VectorType::get({2}, $_builder.getI32Type())";
}

def Cake_WgmmaRowArgReduceOp : Cake_Op<"wgmma.row_arg_reduce", [DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel]> {
  let summary = "per-row argmin/argmax of `bias[col] + scale * acc[row, col]` over a wgmma fragment";
  let description = [{
    A fused epilogue over a warpgroup's 64xN accumulator fragment (`vector<(N/2)xf32>`): for each
    of the two rows the thread holds (fragment rows r and r + 8), the minimum (`argmin`) or maximum
    (`argmax`) over columns `col < valid` of `bias[col] + scale * acc[row, col]`, and that column
    (ties go to the smaller column). `bias` is read from the shared buffer starting at
    `bias_indices` (its innermost dimension runs over the columns). The four lanes that share a row
    combine their results with shuffles, so every lane returns its two rows' results:
    `vector<2xf32>` values and `vector<2xi32>` columns.

    With bias = |c|^2 and scale = -2 over acc = x * c^T this is KMeans' nearest-centroid search
    without materializing the distance matrix.

    ```mlir
    %best, %col = cake.wgmma.row_arg_reduce argmin %acc, scale -2.0, valid %nvalid,
        %csq[%slot, %c0, %c0] : vector<128xf32>, !cake.smem<2x1x256xf32>
    ```
  }];
  let arguments = (ins Cake_ArgReduceKindAttr:$kind, VectorOfRankAndType<[1], [F32]>:$acc,
                       F32Attr:$scale, Index:$valid, Cake_SmemType:$bias,
                       Variadic<Index>:$bias_indices);
  let results = (outs Cake_RowPairF32:$values, Cake_RowPairI32:$columns);
  let assemblyFormat = [{
    $kind $acc `,` `scale` $scale `,` `valid` $valid `,` $bias `[` $bias_indices `]` attr-dict
    `:` type($acc) `,` qualified(type($bias))
  }];
  let hasVerifier = 1;
}

def Cake_WgmmaStoreRowsOp : Cake_Op<"wgmma.store_rows", [DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>, Cake_InKernel]> {
  let summary = "stores one value per fragment row (the results of a row reduction)";
  let description = [{
    Writes the thread's two per-row values (`vector<2x...>`, rows r and r + 8 of the warpgroup's
    64-row fragment, as `cake.wgmma.row_arg_reduce` returns them) to `dest` at the rows starting
    at the last index; leading indices select the rest. One lane of each row's quad stores. With
    `masked`, rows outside the tensor are skipped.

    With `min` (i32 or i64 values) each row's value is merged into the element instead, by an
    atomic unsigned minimum (as `cake.atomic_min`): how blocks that each saw a share of the
    centroids (split-K) merge packed `(distance key << 32) | index` argmins into one row.

    ```mlir
    cake.wgmma.store_rows %cols, %idx[%b, %m0] masked : vector<2xi32>, !cake.tensor<[B, N], i32>
    cake.wgmma.store_rows %packed, %best[%b, %m0] masked min : vector<2xi64>, !cake.tensor<[B, N], i64>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[2], [I32, I64, F32]>:$values, Cake_TensorType:$dest,
                       Variadic<Index>:$indices, UnitAttr:$masked, UnitAttr:$min);
  let assemblyFormat = [{
    $values `,` $dest `[` $indices `]` (`masked` $masked^)? (`min` $min^)? attr-dict `:`
    type($values) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_IR_CAKEHOPPEROPS_TD
