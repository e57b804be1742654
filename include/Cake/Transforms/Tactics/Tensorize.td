//===- Tensorize.td - the tactic cake-tactic-tensorize -----------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticTensorize.cpp.
//
//===----------------------------------------------------------------------===//

defvar TensorizeReduction = ["cake.lane_id", "scf.for", "arith.extf"];
defvar TensorizeTensorCore = ["cake.mma_sync", "cake.wgmma"];

defm CakeTacticTensorize : CakeTactic<"tensorize", 6,
  "Tactic: compute a warp's dot-product reduction on tensor cores (mma.sync or wgmma)",
  [{
    The naive reduction "one warp per row, lanes over candidates" computes one dot product per
    (row, candidate) with scalar FMAs: `scf.for %k = %lane to %K step 32` whose body holds an
    inner loop `scf.for %j = 0 to D` accumulating `extf(A[..., %row, %j]) * extf(B[..., %k, %j])`
    (f16 or bf16) into an f32 that starts at 0.0, then an epilogue that folds the dot product of
    candidate `%k` into the loop's state; after the loop, 32-lane warp reductions of the state and
    one lane (`%lane == 0`) storing the row's result.

    The tactic gives each warp `rows` rows (16 or 32: `rows * %row + 0 .. rows - 1`; the grid's x
    extent is divided by `rows`, rounded up) and computes their dot products on tensor cores: the
    rows' A fragments are loaded once into registers (masked); the candidates are walked in tiles of
    `tile` rows of B that the block copies into a padded shared buffer between two block barriers
    (masked: zero past the extent); per 8 candidates, `cake.ldmatrix` x4 and `cake.mma_sync`
    m16n8k16 give the 16 x 8 accumulator tile, and the epilogue, cloned, folds each element into the
    state of its row (lane t holds rows t/4 and t/4 + 8 and candidates 2 (t mod 4), 2 (t mod 4) + 1
    of each 8; candidates `>= %K` are skipped; with 32 rows, each B fragment feeds both m16 tiles,
    half the shared-memory reads per mma). The code after the loop is cloned per 8 rows: its warp
    reductions combine the 4 lanes of a quad (`lanes = 4`) and `%lane == 0` becomes
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
    `wgmma.wait` later (5.5% faster on the KMeans seed,
    bench/results/2026-12-01-evolve-kmeans-contract/README.md).
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
  }],
  /*options=*/[
    IntTacticOption<"tile", "64", "candidate rows per shared tile">,
    IntTacticOption<"rows", "16",
        "rows per warp: 16 (one m16 tile) or 32 (two, sharing each B fragment)">,
    BoolTacticOption<"prefetch", "true",
        "load the next tile into registers while the current one is computed">,
    IntTacticOption<"buffers", "1",
        "shared tiles: 1 (two barriers per tile) or 2 (alternating slots, one barrier)">,
    BoolTacticOption<"fastpath", "true",
        "tiles wholly below the candidate count skip the per-element bounds guard">,
    StrTacticOption<"mma", "sync",
        "the tensor-core instruction: sync (mma.sync m16n8k16, sm_80+) or wgmma (a "
        "warpgroup's m64nNk16 with A in registers, N = tile, sm_90a)">,
    IntTacticOption<"unroll", "1",
        "unroll factor of the loop over a tile's groups of 8 candidates (divides tile / 8)">,
  ],
  /*presets=*/!listconcat(
    !foreach(n, [32, 64, 128],
      TacticPreset<"tensorize-" # n, [IntValue<"tile", n>, IntValue<"rows", 16>],
                   TensorizeReduction, TensorizeTensorCore>),
    !foreach(n, [32, 64],
      TacticPreset<"tensorize-r32-" # n, [IntValue<"tile", n>, IntValue<"rows", 32>],
                   TensorizeReduction, TensorizeTensorCore>),
    // The warpgroup form (sm_90a): the tactic refuses other targets and partial warpgroups.
    !foreach(n, [64, 128],
      TacticPreset<"tensorize-wgmma-" # n, [IntValue<"tile", n>, StrValue<"mma", "wgmma">],
                   TensorizeReduction, TensorizeTensorCore>)),
  /*dialects=*/["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"]>;
