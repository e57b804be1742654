// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-pad{elements=4})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s


// Not applicable: padding would push the kernel over sm_80's 166912 bytes.
// CHECK: error: {{.*}}[tactic.not-applicable] cake-tactic-pad: padding needs 180224 bytes of shared memory, over the 166912 bytes of sm_80
cake.kernel @full() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %big = cake.alloc_smem : !cake.smem<1024x40xf32>
  %v = cake.load %big[%c0, %c0] : !cake.smem<1024x40xf32> -> f32
  cake.return
}

