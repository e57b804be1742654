// cake-tactic-programmatic-launch: the wait just before the first op that touches global memory
// (here a loop whose body loads), no early signal, and the manifest's flag follows.
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)' | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)' | cake-translate --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=BEFORE
// CHECK-LABEL: cake.kernel @row_sum
// CHECK-NOT: launch_dependents
// CHECK: cake.alloc_smem
// CHECK: arith.constant 0.0
// CHECK-NEXT: cake.grid_dependency.wait
// CHECK-NEXT: scf.for
// CHECK-LABEL: cake.kernel @no_memory
// CHECK-NEXT: cake.grid_dependency.wait
// CHECK-NEXT: cake.return
// MANIFEST-COUNT-2: "programmatic_launch": true
// BEFORE-NOT: programmatic_launch
cake.kernel @row_sum(%x: !cake.tensor<[M, D], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %d = cake.problem_size "D"
  %b = cake.block_id x
  %t = cake.thread_id x
  %o = arith.muli %b, %c128 : index
  %row = arith.addi %o, %t : index
  %scratch = cake.alloc_smem : !cake.smem<128xf32>
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, D], f32> -> f32
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  cake.store %sum, %y[%row] masked : f32, !cake.tensor<[M], f32>
  cake.return
}

cake.kernel @no_memory() attributes {target = "sm_90", block = array<i64: 32>, symbols = [],
                                     grid = affine_map<() -> (1)>} {
  cake.return
}
