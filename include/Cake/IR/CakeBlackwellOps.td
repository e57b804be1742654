//===- CakeBlackwellOps.td - tcgen05 and tensor memory (sm_100a) -*- tablegen -*-===//
//
// Blackwell's fifth-generation tensor cores: MMAs issued by one thread, accumulating in tensor
// memory (TMEM) instead of registers, completing through an mbarrier. The allocation ops are
// block-collective, so the protocol's easy mistakes (two allocating warps, a permit never
// relinquished, a free while another warp still reads) cannot be written.
//
//===----------------------------------------------------------------------===//

def Cake_TmemAllocOp : Cake_Op<"tmem.alloc", [Cake_InKernel, MemoryEffects<[MemAlloc]>]> {
  let summary = "allocates tensor memory for the block (sm_100a; block-collective)";
  let description = [{
    Every thread of the block executes it, at the top level of the kernel body: warp 0 allocates
    the type's columns (`tcgen05.alloc`, the address through one shared-memory word) and gives up
    the block's right to allocate again (`tcgen05.relinquish_alloc_permit`), then the block
    synchronizes and every thread holds the address. Free it with `cake.tmem.dealloc` before the
    kernel returns. The columns of all of a kernel's allocations are at most 512.

    ```mlir
    %acc = cake.tmem.alloc : !cake.tmem<128x256xf32>
    ```
  }];
  let results = (outs Cake_TmemType:$tmem);
  let assemblyFormat = "attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}

def Cake_TmemDeallocOp : Cake_Op<"tmem.dealloc", [Cake_InKernel]> {
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

def Cake_Tcgen05MmaOp : Cake_Op<"tcgen05.mma", [DeclareOpInterfaceMethods<CakeMemoryAccessOpInterface>,
    Cake_InKernel, AttrSizedOperandSegments]> {
  let summary = "a tensor-memory matrix multiply-accumulate from shared memory (sm_100a)";
  let description = [{
    `D = A * B^T + D` (or `D = A * B^T` when `accumulate` is false) for one m128nNkK step, issued
    asynchronously by the one thread that executes it (put it under `cake.elect_one` or a thread
    test): A is the 128xK tile of buffer `a` at `a_indices` (leading indices, then row and
    column), B the NxK tile of `b` at `b_indices`, both K-major in shared buffers whose rows are
    one swizzle span (32, 64 or 128 bytes), as for `cake.wgmma`; D is the whole 128xN allocation
    `acc` in tensor memory (N = its columns, at most 256). K is 16 for f16 and bf16 operands and 8
    for f32 operands, read as tf32. The result is ready, and the operand buffers free, once a
    `cake.tcgen05.commit` the same thread issued after it has completed its barrier phase.

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
    /// N of the m128nNkK shape: the accumulator's columns.
    int64_t getN() { return getAcc().getType().getColumns(); }
    /// K of the m128nNkK shape: 8 for tf32 (f32 operands), 16 for f16/bf16.
    int64_t getK() { return getA().getType().getElementType().isF32() ? 8 : 16; }
  }];
}

def Cake_Tcgen05CommitOp : Cake_Op<"tcgen05.commit", [Cake_InKernel]> {
  let summary = "arrives on an mbarrier when the thread's issued tcgen05 MMAs complete (sm_100a)";
  let description = [{
    Makes barrier `index` track the completion of every `cake.tcgen05.mma` the executing thread
    issued before it: one arrival lands when they have all completed. Waiting on that phase
    (`cake.mbarrier.wait`) makes their accumulators readable (`cake.tmem.load`) and their shared
    operands reusable.

    ```mlir
    cake.tcgen05.commit %bars[%c1] : !cake.mbarriers<2>
    ```
  }];
  let arguments = (ins Cake_MbarriersType:$barriers, Index:$index);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` qualified(type($barriers))";
}

def Cake_TmemLoadOp : Cake_Op<"tmem.load", [Cake_InKernel]> {
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

def Cake_TmemStoreOp : Cake_Op<"tmem.store", [Cake_InKernel]> {
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
