//===- StageRows.td - the tactic cake-tactic-stage-rows ----------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticStageRows.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticStageRows : CakeTactic<"stage-rows", 4,
  "Tactic: stage the rows a lane-strided loop reads in shared memory, once per block",
  [{
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
  }],
  /*options=*/[],
  /*presets=*/[TacticPreset<"stage-rows", [], ["cake.lane_id", "scf.for"]>]>;
