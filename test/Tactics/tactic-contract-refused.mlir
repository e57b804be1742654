// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-contract)' -split-input-file --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// No multiply feeds an add or a subtract: nothing to contract.
// CHECK: error: {{.*}}[tactic.not-applicable] cake-tactic-contract: no floating-point multiply in 'only_adds' feeds an add or a subtract
cake.kernel @only_adds(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] masked : !cake.tensor<[N], f32> -> f32
  %s = arith.addf %v, %v : f32
  %p = arith.mulf %s, %s : f32
  cake.store %p, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// No kernel at all.
// CHECK: error: {{.*}}[tactic.not-applicable] cake-tactic-contract: no cake.kernel
module {
}
