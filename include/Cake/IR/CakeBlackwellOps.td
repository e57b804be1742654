//===- CakeBlackwellOps.td - tcgen05 and tensor memory (sm_100a) -*- tablegen -*-===//
//
// Blackwell's fifth-generation tensor cores: MMAs issued by one thread, accumulating in tensor
// memory (TMEM) instead of registers, completing through an mbarrier. The allocation ops are
// block-collective, so the protocol's easy mistakes (two allocating warps, a permit never
// relinquished, a free while another warp still reads) cannot be written.
//
//===----------------------------------------------------------------------===//

def Cake_TmemAllocOp : Cake_Op<"tmem.alloc", [CakeRequires<"Tcgen05">, Cake_InKernel, MemoryEffects<[MemAlloc]>]> {
  let summary = "allocates tensor memory for the block (sm_100a; block-collective)";
  let description = [{
    Every thread of the block executes it, at the top level of the kernel body: warp 0 allocates
    the type's columns (`tcgen05.alloc`, the address through one shared-memory word) and gives up
    the block's right to allocate again (`tcgen05.relinquish_alloc_permit`), then the block
    synchronizes and every thread holds the address. Free it with `cake.tmem.dealloc` before the
    kernel returns. The columns of all of a kernel's allocations are at most 512.

    A `pair` type allocates in both blocks of each CTA pair (`tcgen05.alloc.cta_group::2`, warp 0
    of each block); the kernel needs a cluster whose x extent is even, and then every tensor-memory
    allocation and every `cake.tcgen05.commit` of the kernel must be a pair one (one `cta_group`
    per kernel, as PTX requires).

    ```mlir
    %acc = cake.tmem.alloc : !cake.tmem<128x256xf32>
    ```
  }];
  let results = (outs Cake_TmemType:$tmem);
  let assemblyFormat = "attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}

def Cake_TmemDeallocOp : Cake_Op<"tmem.dealloc", [CakeRequires<"Tcgen05">, Cake_InKernel]> {
  let summary = "frees a tensor-memory allocation (sm_100a; block-collective)";
  let description = [{
    Every thread of the block executes it, at the top level of the kernel body after the last use
    of the allocation: the block synchronizes (so no warp still reads the columns), then warp 0
    frees them (`tcgen05.dealloc`).

    ```mlir
    cake.tmem.dealloc %acc : !cake.tmem<128x256xf32>
    ```
  }];
  let arguments = (ins Cake_TmemType:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}

def Cake_Tcgen05MmaOp : Cake_Op<"tcgen05.mma", [CakeRequires<"Tcgen05">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>,
    Cake_InKernel, AttrSizedOperandSegments]> {
  let summary = "a tensor-memory matrix multiply-accumulate from shared memory (sm_100a)";
  let description = [{
    `D = A * B^T + D` (or `D = A * B^T` when `accumulate` is false) for one m128nNkK step, issued
    asynchronously by the one thread that executes it (put it under `cake.elect_one` or a thread
    test): A is the 128xK tile of buffer `a` at `a_indices` (leading indices, then row and
    column), B the NxK tile of `b` at `b_indices`, both K-major in shared buffers whose rows are
    one swizzle span (32, 64 or 128 bytes), as for `cake.wgmma`; D is the whole 128xN allocation
    `acc` in tensor memory (N = its columns, at most 256). K spans 32 bytes of a row: 16 for f16
    and bf16 operands (`kind::f16`), 8 for f32 operands read as tf32 (`kind::tf32`), 32 for fp8
    operands, e4m3 (`f8E4M3FN`) or e5m2 (`f8E5M2`) (`kind::f8f6f4`). The result is ready, and
    the operand buffers free, once a `cake.tcgen05.commit` the same thread issued after it has
    completed its barrier phase.

    Into a `pair` accumulator the MMA is one m256nNkK step of the CTA pair
    (`cta_group::2`): the even block of the pair issues it (in the odd block the op does
    nothing), A's 128 rows come from each block's own buffer (the even block's are rows 0-127 of
    the 256-row tile), and B's N rows are split: rows 0 to N/2 - 1 from the even block's buffer,
    N/2 to N - 1 from the odd block's, each at `b_indices`. Both blocks' operands must have
    landed before the even block issues (a `cake.cluster_barrier` after each block's wait).

    ```mlir
    cake.tcgen05.mma %abuf[%c0, %k], %bbuf[%c0, %k], %acc, accumulate %more
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<256x64xbf16, swizzle = 128>,
          !cake.tmem<128x256xf32>
    ```
  }];
  let arguments = (ins Cake_SmemType:$a, Variadic<Index>:$a_indices, Cake_SmemType:$b,
                       Variadic<Index>:$b_indices, Cake_TmemType:$acc, I1:$accumulate);
  let assemblyFormat = [{
    $a `[` $a_indices `]` `,` $b `[` $b_indices `]` `,` $acc `,` `accumulate` $accumulate attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N of the mMnNkK shape: the accumulator's columns.
    int64_t getN() { return getAcc().getType().getColumns(); }
    /// M of the shape: 128 rows per block, 256 for a CTA pair.
    int64_t getM() { return getAcc().getType().getPair() ? 256 : 128; }
    /// B's rows in one block's buffer: N, or N/2 for a CTA pair.
    int64_t getBRowsPerBlock() { return getAcc().getType().getPair() ? getN() / 2 : getN(); }
    /// K of the shape: one 32-byte span of a row (8 tf32, 16 f16/bf16, 32 fp8 elements).
    int64_t getK() { return 32 / getA().getType().getElementBytes(); }
  }];
}

def Cake_Tcgen05CommitOp : Cake_Op<"tcgen05.commit", [CakeRequires<"Tcgen05">, Cake_InKernel]> {
  let summary = "arrives on an mbarrier when the thread's issued tcgen05 MMAs complete (sm_100a)";
  let description = [{
    Makes barrier `index` track the completion of every `cake.tcgen05.mma` and `cake.tcgen05.cp`
    the executing thread issued before it: one arrival lands when they have all completed.
    Waiting on that phase (`cake.mbarrier.wait`) makes their accumulators readable
    (`cake.tmem.load`) and their shared operands reusable.

    With `pair` (a kernel whose allocations are `pair`): the even block of each CTA pair commits
    its pair MMAs (`tcgen05.commit.cta_group::2`, multicast) and the arrival lands on barrier
    `index` of both blocks of the pair; in the odd block the op does nothing, and that block's
    threads wait on their own barrier for the pair's MMAs.

    ```mlir
    cake.tcgen05.commit %bars[%c1] : !cake.mbarriers<2>
    cake.tcgen05.commit %bars[%c1] pair : !cake.mbarriers<2>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index, UnitAttr:$pair);
  let assemblyFormat =
      "$barriers `[` $index `]` (`pair` $pair^)? attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Cake_Tcgen05CpOp : Cake_Op<"tcgen05.cp", [CakeRequires<"Tcgen05">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>,
    Cake_InKernel]> {
  let summary = "copies a 128-row tile from shared memory into tensor memory (sm_100a)";
  let description = [{
    An asynchronous copy (`tcgen05.cp.cta_group::1.128x256b`) of the 128 x 8 f32 tile of buffer
    `src` at `src_indices` (leading indices, then row and column) into columns `column` to
    `column` + 7 of `tmem`, row r into lane r. The source is read as a `cake.tcgen05.mma` reads
    its A operand: K-major rows of one swizzle span (32, 64 or 128 bytes), the tile 32 bytes wide
    at the column index. Issued by the one thread that executes it, like an MMA: MMAs the same
    thread issues after it see the columns (an initial accumulator or a bias), and a
    `cake.tcgen05.commit` after it, once its phase completes, makes them readable by
    `cake.tmem.load` and the source buffer reusable.

    ```mlir
    cake.tcgen05.cp %bias[%c0, %c0], %acc[%c0]
        : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x256xf32>
    ```
  }];
  let arguments = (ins Cake_SmemType:$src, Variadic<Index>:$src_indices, Cake_TmemType:$tmem,
                       Index:$column);
  let assemblyFormat = [{
    $src `[` $src_indices `]` `,` $tmem `[` $column `]` attr-dict `:` qualified(type($src)) `,`
    qualified(type($tmem))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The columns one copy writes (128x256b: 256 bits of 32-bit columns).
    static constexpr int64_t kColumns = 8;
  }];
}

def Cake_ClcTryCancelOp : Cake_Op<"clc.try_cancel", [CakeRequires<"ClusterLaunchControl">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>,
    Cake_InKernel]> {
  let summary = "asks to take over a block (cluster) whose launch has not started (sm_100a)";
  let description = [{
    Cluster launch control for persistent kernels (`clusterlaunchcontrol.try_cancel`): the
    executing thread asks the hardware to cancel the launch of a cluster of this grid that has
    not started; the 16-byte answer is written asynchronously into `response` at `indices` (a
    buffer whose innermost dimension is 4 x i32, indexed by its leading dimensions) and
    completes 16 transaction bytes on mbarrier `index`: announce them with
    `cake.mbarrier.arrive_expect_tx ..., bytes 16` and wait on the phase before
    `cake.clc.query` reads the answer. With `multicast` (a kernel with a cluster), the answer
    lands in the same buffer and barrier of every block of the cluster.

    ```mlir
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
    ```
  }];
  let arguments = (ins Cake_SmemType:$response, Variadic<Index>:$indices,
                       Cake_MbarriersType:$barriers, Index:$index, UnitAttr:$multicast);
  let assemblyFormat = [{
    (`multicast` $multicast^)? $response `[` $indices `]` `,` $barriers `[` $index `]` attr-dict
    `:` qualified(type($response)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Cake_ClcQueryOp : Cake_Op<"clc.query", [CakeRequires<"ClusterLaunchControl">, DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>,
    Cake_InKernel]> {
  let summary = "reads a cluster launch control answer (sm_100a)";
  let description = [{
    Decodes the answer of a `cake.clc.try_cancel` (`clusterlaunchcontrol.query_cancel`):
    `canceled` is true when the request took over a cluster, and then `x`, `y`, `z` are the
    block id of that cluster's first block (undefined otherwise: test `canceled` first). Every
    thread may execute it once the try_cancel's barrier phase has completed.

    ```mlir
    %taken, %bx, %by, %bz = cake.clc.query %resp[] : !cake.smem<4xi32>
    ```
  }];
  let arguments = (ins Cake_SmemType:$response, Variadic<Index>:$indices);
  let results = (outs I1:$canceled, Index:$x, Index:$y, Index:$z);
  let assemblyFormat = "$response `[` $indices `]` attr-dict `:` qualified(type($response))";
  let hasVerifier = 1;
}

def Cake_TmemLoadOp : Cake_Op<"tmem.load", [CakeRequires<"Tcgen05">, Cake_InKernel]> {
  let summary = "reads a thread's row of a tensor-memory accumulator into registers (sm_100a)";
  let description = [{
    Warp w of each warpgroup reads lanes 32 (w mod 4) to 32 (w mod 4) + 31 of `tmem`, columns
    `column` to `column` + C - 1 (`tcgen05.ld.32x32b`, C a power of two up to 128): each thread
    gets the C values of its own row (its lane), and the load has completed when the op returns.
    All 32 lanes of the warp execute it. The MMAs that wrote the columns must have completed (a
    `cake.tcgen05.commit` phase waited on).

    ```mlir
    %row = cake.tmem.load %acc[%c32] : !cake.tmem<128x256xf32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins Cake_TmemType:$tmem, Index:$column);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $tmem `[` $column `]` attr-dict `:` qualified(type($tmem)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Cake_TmemStoreOp : Cake_Op<"tmem.store", [CakeRequires<"Tcgen05">, Cake_InKernel]> {
  let summary = "writes a thread's row of a tensor-memory allocation from registers (sm_100a)";
  let description = [{
    The inverse of `cake.tmem.load` (`tcgen05.st.32x32b`): warp w of each warpgroup writes lanes
    32 (w mod 4) to 32 (w mod 4) + 31, each thread the C values of its row from `column` on (C a
    power of two up to 128); the store has completed when the op returns. All 32 lanes of the
    warp execute it. An MMA that accumulates into the columns after it (an initial value, a
    bias) reads them once a block synchronization orders the two.

    ```mlir
    cake.tmem.store %bias, %acc[%c0] : vector<32xf32>, !cake.tmem<128x256xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$value, Cake_TmemType:$tmem, Index:$column);
  let assemblyFormat = [{
    $value `,` $tmem `[` $column `]` attr-dict `:` type($value) `,` qualified(type($tmem))
  }];
  let hasVerifier = 1;
}
