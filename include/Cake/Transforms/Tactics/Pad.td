//===- Pad.td - the tactic cake-tactic-pad -----------------------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticPad.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticPad : CakeTactic<"pad", 2,
  "Tactic: pad the rows of shared buffers accessed by plain loads and stores",
  [{
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
  }],
  /*options=*/[IntTacticOption<"elements", "4", "padding per innermost row, in elements">],
  /*presets=*/!foreach(n, [1, 2, 4, 8],
     TacticPreset<"pad-" # n, [IntValue<"elements", n>], ["cake.alloc_smem"]>)>;
