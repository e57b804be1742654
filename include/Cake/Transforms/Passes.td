//===- Passes.td - cake tactics ----------------------------*- tablegen -*-===//
//
// Tactics: rewrites of a kernel's schedule (stages, padding, swizzles, vectorized or tensor-core
// code) that the harness's search applies. Each fails with "[tactic.not-applicable]" where its
// precondition does not hold; lib/Transforms/TacticRegistry.cpp lists them with their presets
// (`cake-opt --cake-list-tactics`). Each pass runs its tactic's function (lib/Transforms/
// Tactics.h), which its Transform-dialect op (TacticOps.td) runs too.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_PASSES_TD
#define CAKE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CakeTacticPipelineStagesPass : Pass<"cake-tactic-pipeline-stages"> {
  let summary = "Tactic: change the stage count of every cake.pipeline and its stage buffers";
  let description = [{
    Gives every `cake.pipeline.create` `stages` slots (`!cake.pipeline<N>`) and every shared
    buffer indexed by that pipeline's slot (`cake.pipeline.slot`) a leading (stage) dimension of
    `stages`. The pipeline ops take iteration numbers and derive slot and phase, so nothing else
    changes.

    Preconditions (else `[tactic.not-applicable]` and failure): `stages` >= 1; every stage buffer
    is a `cake.alloc_smem` whose leading dimension equals the old stage count and whose every user
    also takes a slot of the same pipeline (a buffer indexed by a constant stage or shared by two
    pipelines is refused); the pipeline value is used only by pipeline ops; the kernel's shared
    memory after the change fits its target's limit (163 KiB on sm_80, 227 KiB on Hopper and
    Blackwell). A pipeline that already has `stages` slots is left alone (remark).

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=3})'
    ```
  }];
  let options = [
    Option<"stages", "stages", "int64_t", "0", "the new number of stages (1 or more)">,
  ];
}

def CakeTacticPadPass : Pass<"cake-tactic-pad"> {
  let summary = "Tactic: pad the rows of shared buffers accessed by plain loads and stores";
  let description = [{
    Adds `pad = elements` to every `cake.alloc_smem` buffer of rank 2 or more that has no swizzle
    and no pad yet and whose every user is a `cake.load` or `cake.store` (TMA copies, wgmma,
    ldmatrix and cp.async need unpadded layouts: such buffers are skipped with a remark). Padding
    each innermost row spreads a column walk over the 32 banks; loads and stores compute the padded
    addresses themselves, so only the type changes.

    Preconditions: `elements` >= 1; for each buffer, `elements` is a multiple of the widest vector
    access to it (a padded row must keep every access aligned to its size); the kernel's shared
    memory after padding fits its target's limit. When no buffer qualifies the pass fails with
    `[tactic.not-applicable]` and the reason for each buffer.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-pad{elements=4})'
    ```
  }];
  let options = [
    Option<"elements", "elements", "int64_t", "4", "padding per innermost row, in elements">,
  ];
}

def CakeTacticSwizzlePass : Pass<"cake-tactic-swizzle"> {
  let summary = "Tactic: swizzle shared buffers accessed by plain loads and stores";
  let description = [{
    Adds `swizzle = bytes` to every `cake.alloc_smem` buffer of rank 2 or more that has no swizzle
    and no pad yet and whose every user is a `cake.load` or `cake.store` (the buffers
    `cake-tactic-pad` considers; TMA copies, wgmma, ldmatrix/stmatrix and cp.async fix their
    layouts, so such buffers are skipped). Loads and stores XOR the 16-byte chunk index of each
    byte offset `o` with `(o >> 7) mod (bytes / 16)`, which spreads a column walk over the banks
    like a pad but costs no shared memory (only, possibly, alignment: a swizzled buffer is aligned
    to `8 * bytes`). Only the type changes.

    The XOR is a bijection that keeps each byte inside its `bytes`-aligned block and its offset
    inside its 16-byte chunk, and every access of a retyped buffer goes through it, so results are
    unchanged provided no access crosses a 16-byte chunk. Preconditions (per buffer; when none
    qualifies the pass fails with `[tactic.not-applicable]` and the reason for each buffer):
    `bytes` is 32, 64 or 128; the innermost row is a multiple of 16 bytes (the type verifier's
    rule); the buffer's size is a multiple of `bytes` (else the XOR would send accesses near the
    end past it); every vector access is at most 16 bytes and its innermost index is provably a
    multiple of its width (from constants, `scf.for` bounds and steps, and `arith` index
    arithmetic), so it is aligned to its size and inside one chunk. Scalar accesses always are.
    The kernel's shared memory after the change must fit its target's limit.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=128})'
    ```
  }];
  let options = [
    Option<"bytes", "bytes", "int64_t", "128", "swizzle span in bytes: 32, 64 or 128">,
  ];
}

def CakeTacticStageRowsPass : Pass<"cake-tactic-stage-rows"> {
  let summary = "Tactic: stage the rows a lane-strided loop reads in shared memory, once per block";
  let description = [{
    The naive "one warp per item, lanes over candidates" loop, `scf.for %k = %lane to %K step 32`,
    reads one global row per lane (`cake.load %t[..., %k, %j]` in an inner loop over the columns
    `%j`), and every warp of the block reads the same rows. The tactic rewrites the loop into one
    over tiles of 32 rows that every thread runs the same number of times: a block barrier, the
    block copies the tile (rows k0 .. k0 + 31, all columns, masked past the tensor's extent) into
    a `32 x C` shared buffer, a block barrier, then the old body under `k0 + lane < K`, reading
    the row from the tile. Results are unchanged; global reads of those rows drop by the number of
    warps per block. (Lanes read 32 different rows of the tile: `pad` or `swizzle` tactics then
    spread them over the banks.)

    Preconditions (else `[tactic.not-applicable]` with each loop's reason): a 1-D block; the loop
    directly in the kernel body; lower bound `cake.lane_id`, step 32, an upper bound the same in
    every thread; a load of a global tensor in a loop directly inside it whose second-innermost
    index is the loop's induction variable and whose innermost index is the inner loop's (bounds
    0 .. C constant, step = the load's width), the other indices defined outside and the same in
    every thread; the kernel's shared memory, with the tile, within the target's limit.
  }];
}

def CakeTacticVectorizePass : Pass<"cake-tactic-vectorize"> {
  let summary = "Tactic: widen the loads of an inner reduction loop to vector accesses";
  let description = [{
    Rewrites every `scf.for` that walks the innermost dimension one element at a time and only
    reduces (loads whose innermost index is the induction variable, elementwise float arithmetic,
    float accumulators that are the addend of the `arith.addf` / `math.fma` they yield) into the
    same loop stepping by `width`: each load reads `width` consecutive elements in one access, the
    arithmetic runs on `vector<width x T>`, each accumulator becomes a vector of partial sums that
    starts at zero and is added up (`vector.reduction <add>`) and added to the loop's initial value
    after the loop. The sum is reassociated: results change within rounding.

    Preconditions (else the pass fails with `[tactic.not-applicable]` and each loop's reason):
    `width` is 2, 4, 8 or 16; constant bounds, step 1, lower bound and trip count multiples of
    `width`; the other load indices are defined outside the loop; `width` elements are at most 16
    bytes; a shared buffer's rows (and pad) are multiples of `width`. Vector accesses of a global
    tensor add the manifest's row-stride constraint, so shapes that would misalign them are
    refused at launch time, as for any vector access.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-vectorize{width=8})'
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"width", "width", "int64_t", "4", "elements per access">,
  ];
}

def CakeTacticContractPass : Pass<"cake-tactic-contract"> {
  let summary = "Tactic: let floating-point multiplies and the adds they feed fuse into FMAs";
  let description = [{
    Adds `contract` to the fastmath flags of every `arith.mulf` whose result feeds an
    `arith.addf` or `arith.subf`, and of those adds and subtracts, in every kernel (other flags
    are kept). LLVM and ptxas then compute `a * b + c` (or `c - a * b`) as one `fma.rn`: one
    instruction instead of two, one rounding instead of two. Results can therefore differ in the
    last bit, and where `a * b` overflows but the sum would not. The evaluator's tolerance decides
    whether that is acceptable for a task. Without the flag, CAKE's lowering keeps the separately
    rounded `mul.rn` / `add.rn`, which ptxas may not fuse.

    On the tensorized KMeans kernel, contracting the epilogue's `|c|^2 - 2 x . c` measured 3%
    faster on the H200 (bench/results/2026-12-01-kmeans-wgmma/README.md, section 4).

    Preconditions: some kernel has a multiply feeding an add or a subtract, else
    `[tactic.not-applicable]` and failure. When every such pair is already contracted, the IR is
    left unchanged, with a remark.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-contract)'
    ```
  }];
}

def CakeTacticIndexWidthPass : Pass<"cake-tactic-index-width"> {
  let summary = "Tactic: lower a kernel's index arithmetic at another width (32-bit addresses)";
  let description = [{
    Sets `index_bitwidth = bits` on every kernel (32 or 64). With 32, the lowering computes
    global offsets, bounds and columns in i32 and widens each element offset once at its
    address: fewer address instructions, measured on the H200 at 1.06x geomean on the KMeans
    library's best configuration per shape (1.19x wgmma, 0.96x simt:
    bench/results/2026-12-04-library-kmeans-9). The manifest then bounds every tensor's offsets
    and every grid dimension's threads below 2^30, so a task shape past them is refused at its
    shape check, never computed wrong (docs/Manifest.md).

    Preconditions: `bits` is 32 or 64, and some kernel is at another width, else
    `[tactic.not-applicable]` and failure.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})'
    ```
  }];
  let options = [
    Option<"bits", "bits", "int64_t", "32", "the index width, 32 or 64">,
  ];
}

def CakeTacticProgrammaticLaunchPass : Pass<"cake-tactic-programmatic-launch"> {
  let summary = "Tactic: let each kernel start while the previous kernel of its stream finishes";
  let description = [{
    Programmatic dependent launch (sm_90+). In every kernel of a target that has it and no
    `cake.grid_dependency.wait` yet, inserts the wait just before the first op of the body that
    touches global memory: the index arithmetic and shared-memory setup ahead of it overlap the
    previous kernel's tail. The manifest then says `"programmatic_launch": true` and the library
    dispatchers launch the kernel with programmatic stream serialization. On the H200, KMeans
    kernels in graphs of back-to-back calls: 1.30-1.54 -> 0.98-1.15 us for the tiniest, 5-15%
    faster at 5-20 us, unchanged when launched serially (bench/results/2026-12-04-library-
    kmeans-10, call 6).

    The tactic adds no `cake.grid_dependency.launch_dependents`: the next kernel then starts when
    this one exits. At the start of the kernel the signal made split-D and multi-chunk wgmma
    kernels 20-30% slower, even launched serially (same call).

    Preconditions: some kernel of an sm_90+ target has no grid dependency wait yet, else
    `[tactic.not-applicable]` and failure.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)'
    ```
  }];
}

def CakeTacticTensorizePass : Pass<"cake-tactic-tensorize"> {
  let summary = "Tactic: compute a warp's dot-product reduction on tensor cores (mma.sync or wgmma)";
  let description = [{
    The naive reduction "one warp per row, lanes over candidates" computes one dot product per
    (row, candidate) with scalar FMAs: `scf.for %k = %lane to %K step 32` whose body holds an
    inner loop `scf.for %j = 0 to D` accumulating `extf(A[..., %row, %j]) * extf(B[..., %k, %j])`
    (f16 or bf16) into an f32 that starts at 0.0, then an epilogue that folds the dot product of
    candidate `%k` into the loop's state; after the loop, 32-lane warp reductions of the state and
    one lane (`%lane == 0`) storing the row's result.

    The tactic gives each warp `rows` rows (16 or 32: `rows * %row + 0 .. rows - 1`; the grid's x
    extent is divided by `rows`, rounded up) and computes their dot products on tensor cores: the rows' A fragments are
    loaded once into registers (masked); the candidates are walked in tiles of `tile` rows of B
    that the block copies into a padded shared buffer between two block barriers (masked: zero
    past the extent); per 8 candidates, `cake.ldmatrix` x4 and `cake.mma_sync` m16n8k16 give the
    16 x 8 accumulator tile, and the epilogue, cloned, folds each element into the state of its
    row (lane t holds rows t/4 and t/4 + 8 and candidates 2 (t mod 4), 2 (t mod 4) + 1 of each
    8; candidates `>= %K` are skipped; with 32 rows, each B fragment feeds both m16 tiles, half
    the shared-memory reads per mma). The code after the loop is cloned per 8 rows:
    its warp reductions combine the 4 lanes of a quad (`lanes = 4`) and `%lane == 0` becomes
    `%lane mod 4 == 0`.

    With `prefetch` (the default), when the tile's 16-byte chunks divide evenly among the
    block's threads (at most 8 each), every thread loads its chunks of the next tile into
    registers before the current tile is computed, and stores them into the shared buffer after
    a block barrier: the global latency hides behind the tensor-core work. Otherwise the block
    copies each tile between two barriers.

    With `fastpath` (the default), a tile that lies wholly below `%K` (every tile but a ragged
    last one) runs an epilogue without the per-element `k < %K` guard; the last tile keeps it.
    With wgmma, that epilogue's work that needs neither the products nor the rows' state (the
    candidates' indices and global loads, such as KMeans' `|c|^2`) is issued before the wgmma
    chain, so its latency hides behind the tensor cores: nothing moves a load across
    `wgmma.wait` later (5.5% faster on the KMeans seed, bench/results/2026-12-01-evolve-kmeans-contract/README.md).
    With `buffers = 2` the tiles alternate between two slots of the shared buffer: each
    iteration computes one slot, then writes the next tile into the other and ends with one
    block barrier instead of two. `unroll` unrolls the loop over a tile's groups of 8
    candidates (it must divide `tile / 8`). On the naive KMeans seed (H200, B32 N16384 K1024,
    bench/results/2026-12-01-kmeans-wgmma/README.md) `fastpath` gained 2% with mma.sync and 30% with
    wgmma, while `buffers = 2` and `unroll` were slower: they stay off by default.

    With `mma = wgmma` (sm_90a; `rows = 16`; whole warpgroups, i.e. a multiple of 128 threads
    per block; D a multiple of 64) the 4 warps of a warpgroup, which own 64 consecutive rows,
    issue `cake.wgmma.regs` m64nNk16 with N = `tile`: A from the same registers (the wgmma
    register fragment is mma.sync's), B from a 128-byte-swizzled K-major tile
    (`[D/64, tile, 64]`, written by ordinary stores, so each writer fences them with
    `cake.fence.proxy_async` before the barrier), `cake.wgmma.wait 0` before the epilogue. Lane
    t of warp w then holds rows 16 w + t/4 (+ 8) and candidates 8 j + 2 (t mod 4) (+ 1) of
    each 8, the same as with mma.sync; the epilogue is cloned per element of the tile (no loop).

    Each lane still visits its candidates in increasing order and the quad reduction combines
    the lanes' states as the warp reduction did, so a fold that does not depend on how the
    candidates are split between lanes (argmin with ties to the smaller index, a sum up to
    rounding) gives the same result; the dot products are summed in the tensor core's order.

    Preconditions (else `[tactic.not-applicable]` with each loop's reason): `rows` 16 or 32;
    `tile` a multiple of 16 in 16 .. 256; `buffers` 1 or 2; `unroll` dividing `tile / 8`; `mma`
    `sync` or `wgmma` (then `rows = 16`, target sm_90a, a multiple of 128 threads and D a
    multiple of 64); a 1-D block; the loop directly in the kernel body with lower bound
    `cake.lane_id`, step 32 and an upper bound the same in every thread; exactly one loop directly
    inside it: bounds 0 .. D (D a constant multiple of 32 up to 256), step 1, one f32 accumulator
    from 0.0, a body of two scalar loads of global f16/bf16 tensors, their extensions and one
    `math.fma` (or `arith.mulf` + `arith.addf`), one load indexed [..., %k, %j] and the other
    [..., %row, %j] with the outer indices the same in every thread; `%row` is
    `cake.block_id x * (warps per block) + cake.warp_id`; the epilogue only loads and computes,
    with values from outside the loop the same in every thread; the loop's results only feed
    32-lane warp reductions; after the loop, no use of the warp or thread id, the lane only in
    `%lane == 0`, every store masked and indexed by `%row`, loads of `%row` masked, and no other
    side effects; the kernel's shared memory, with the tile, within the target's limit.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=64})'
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"tile", "tile", "int64_t", "64", "candidate rows per shared tile">,
    Option<"rows", "rows", "int64_t", "16",
           "rows per warp: 16 (one m16 tile) or 32 (two, sharing each B fragment)">,
    Option<"prefetch", "prefetch", "bool", "true",
           "load the next tile into registers while the current one is computed">,
    Option<"buffers", "buffers", "int64_t", "1",
           "shared tiles: 1 (two barriers per tile) or 2 (alternating slots, one barrier)">,
    Option<"fastpath", "fastpath", "bool", "true",
           "tiles wholly below the candidate count skip the per-element bounds guard">,
    Option<"mma", "mma", "std::string", "\"sync\"",
           "the tensor-core instruction: sync (mma.sync m16n8k16, sm_80+) or wgmma (a "
           "warpgroup's m64nNk16 with A in registers, N = tile, sm_90a)">,
    Option<"unroll", "unroll", "int64_t", "1",
           "unroll factor of the loop over a tile's groups of 8 candidates (divides tile / 8)">,
  ];
}

#endif // CAKE_TRANSFORMS_PASSES_TD
