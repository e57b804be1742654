//===- Contract.td - the tactic cake-tactic-contract -------------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticContract.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticContract : CakeTactic<"contract", 7,
  "Tactic: let floating-point multiplies and the adds they feed fuse into FMAs",
  [{
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
  }],
  /*options=*/[],
  /*presets=*/[TacticPreset<"contract", [], ["arith.mulf"]>]>;
