// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// One kernel waits already, the other's target (sm_80) has no griddepcontrol: nothing to do.
// CHECK: error: [tactic.not-applicable] cake-tactic-programmatic-launch: no kernel of an sm_90+ target without a grid dependency wait
cake.kernel @waits(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>} {
  cake.grid_dependency.wait
  cake.return
}

cake.kernel @ampere(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>} {
  cake.return
}
