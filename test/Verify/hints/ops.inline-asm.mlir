// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (ops.inline-asm), lib/Verify/VerifyOps.cpp:62:
//   "express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if
//    the task needs it, allow it with cake-verify{allow=ops.inline-asm}"
// The kernel stores the result of inline PTX "mov.u32 $0, 7". Applied (first option): the asm
// becomes arith.constant 7 : i32. Honest here, but only because this asm is trivial: in general
// "express it with cake ops" names no op, so the hint is a pointer, not a mechanical fix (the
// second option silences the rule rather than fixing the kernel).

cake.kernel @inline_asm(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  // expected-error @+2 {{'llvm.inline_asm' op [ops.inline-asm] expected only cake, arith, math, scf and vector ops in a kernel, got inline assembly}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.inline-asm}}}
  %v = llvm.inline_asm has_side_effects "mov.u32 $0, 7;", "=r" : () -> i32
  cake.store %v, %y[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}

// -----

cake.kernel @inline_asm(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = arith.constant 7 : i32
  cake.store %v, %y[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}
