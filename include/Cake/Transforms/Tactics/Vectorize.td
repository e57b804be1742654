//===- Vectorize.td - the tactic cake-tactic-vectorize -----------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticVectorize.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticVectorize : CakeTactic<"vectorize", 5,
  "Tactic: widen the loads of an inner reduction loop to vector accesses",
  [{
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
  }],
  /*options=*/[IntTacticOption<"width", "4", "elements per access">],
  /*presets=*/!foreach(n, [2, 4, 8],
     TacticPreset<"vectorize-" # n, [IntValue<"width", n>], ["cake.load", "scf.for"]>),
  /*dialects=*/["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"]>;
