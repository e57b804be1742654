// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-vectorize{width=8})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-vectorize{width=3})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-vectorize{width=4})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMM

// cake-tactic-vectorize refuses every loop it cannot widen, with the reason for each.
// WIDTH: error: [tactic.not-applicable] cake-tactic-vectorize: expected width 2, 4, 8 or 16, got 3
// GEMM: error: [tactic.not-applicable] cake-tactic-vectorize: no reduction loop qualifies

// CHECK: error: [tactic.not-applicable] cake-tactic-vectorize: no reduction loop qualifies
// CHECK: note: bounds or step not constant
// CHECK: note: step 2, not 1
// CHECK: note: bounds [0, 100) not multiples of the width
// CHECK: note: no reduction (no iteration arguments)
// CHECK: note: a load's innermost index is not the induction variable
// CHECK: note: a load's outer index is computed in the loop
// CHECK: note: 64-byte accesses (at most 16)
// CHECK: note: an accumulator used more than once
// CHECK: note: an accumulator that is not the addend of an add or fma
// CHECK: note: 'cake.store' in the body
// CHECK: note: a shared buffer's rows are not a multiple of the width
cake.kernel @refused(%x: !cake.tensor<[N, 128], f32> {cake.name = "x"},
                     %h: !cake.tensor<[N, 128], f16> {cake.name = "h"},
                     %d: !cake.tensor<[N, 128], f64> {cake.name = "d"},
                     %out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %i = cake.block_id x
  %n = cake.problem_size "N"
  %buf = cake.alloc_smem : !cake.smem<4x12xf16>
  // Symbolic bound.
  %r0 = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  // Step 2.
  %r1 = scf.for %j = %c0 to %c128 step %c2 iter_args(%a = %r0) -> (f32) {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  // 100 is not a multiple of 8.
  %r2 = scf.for %j = %c0 to %c100 step %c1 iter_args(%a = %r1) -> (f32) {
    %v = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %w = arith.extf %v : f16 to f32
    %a2 = arith.addf %a, %w : f32
    scf.yield %a2 : f32
  }
  // No reduction.
  scf.for %j = %c0 to %c128 step %c1 {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
  }
  // The induction variable is not the innermost index.
  %r3 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %r2) -> (f32) {
    %vh = cake.load %h[%j, %c0] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  // An outer index computed in the loop (here the induction variable itself).
  %r4 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %r3) -> (f32) {
    %vh = cake.load %h[%j, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  // 8 x f64 = 64 bytes.
  %r5 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %zd) -> (f64) {
    %v = cake.load %d[%i, %j] : !cake.tensor<[N, 128], f64> -> f64
    %a2 = arith.addf %a, %v : f64
    scf.yield %a2 : f64
  }
  // The accumulator is also multiplied.
  %r6 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %r4) -> (f32) {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %s = arith.mulf %a, %v : f32
    %a2 = arith.addf %a, %s : f32
    scf.yield %a2 : f32
  }
  // A product, not a sum.
  %r7 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %r6) -> (f32) {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = math.fma %a, %v, %v : f32
    scf.yield %a2 : f32
  }
  // A store in the body.
  %r8 = scf.for %j = %c0 to %c128 step %c1 iter_args(%a = %r7) -> (f32) {
    %vh = cake.load %h[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
    %v = arith.extf %vh : f16 to f32
    cake.store %vh, %h[%i, %j] : f16, !cake.tensor<[N, 128], f16>
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  // Shared rows of 12 elements.
  %c8 = arith.constant 8 : index
  %r9 = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %r8) -> (f32) {
    %vh = cake.load %buf[%c0, %j] : !cake.smem<4x12xf16> -> f16
    %v = arith.extf %vh : f16 to f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  %dd = arith.truncf %r5 : f64 to f32
  %t = arith.addf %r9, %dd : f32
  cake.store %t, %out[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
