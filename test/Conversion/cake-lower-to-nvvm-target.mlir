// The lowering pipeline checks each op against the kernel's target before converting anything
// (cake-verify-target runs first), so an op the target lacks is a CAKE finding with its rule id
// at the op, not an error from inside NVVM; op verifiers accept any target, so the file parses.
// RUN: not cake-opt %s --cake-lower-to-nvvm 2>&1 | FileCheck %s --implicit-check-not='not supported' --implicit-check-not=error
// CHECK: cake-lower-to-nvvm-target.mlir:[[@LINE+7]]:3: error: 'cake.wgmma.fence' op [target.wgmma] expected a target with wgmma (sm_90a), got sm_100a
// CHECK: note: the kernel's target is set here
// CHECK: note: fix: set target = "sm_90a" on @wgmma_on_blackwell, or use an op that sm_100a has
// RUN: cake-opt %s -o /dev/null

cake.kernel @wgmma_on_blackwell() attributes {target = "sm_100a", block = array<i64: 128>,
                                              symbols = [], grid = affine_map<() -> (1)>} {
  cake.wgmma.fence
  cake.return
}
