// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-index-width{bits=16})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BITS

// Every kernel is at 32 bits already: nothing to do.
// CHECK: error: [tactic.not-applicable] cake-tactic-index-width: every kernel already lowers index at 32 bits
// BITS: error: [tactic.not-applicable] cake-tactic-index-width: expected bits 32 or 64, got 16
cake.kernel @narrow(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, index_bitwidth = 32 : i64} {
  cake.return
}
