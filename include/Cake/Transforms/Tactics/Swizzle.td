//===- Swizzle.td - the tactic cake-tactic-swizzle ---------------------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticSwizzle.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticSwizzle : CakeTactic<"swizzle", 3,
  "Tactic: swizzle shared buffers accessed by plain loads and stores",
  [{
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
  }],
  /*options=*/[IntTacticOption<"bytes", "128", "swizzle span in bytes: 32, 64 or 128">],
  /*presets=*/!foreach(n, [32, 64, 128],
     TacticPreset<"swizzle-" # n, [IntValue<"bytes", n>], ["cake.alloc_smem"]>)>;
