// --chip retargets the kernels before anything reads them: the manifest, the target rules and the
// lowering all see the one target (Cake/IR/Targets.def), and an op the chip lacks is a CAKE
// finding with its rule id at the op, never an error from inside NVVM.
// RUN: not cake-translate %s --chip=sm_80 --emit=ptx 2>&1 | FileCheck %s --check-prefix=SM80 --implicit-check-not=nvvm
// SM80: cake-translate-chip.mlir:[[@LINE+19]]:13: error: 'cake.elect_one' op [target.elect] expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80
// SM80: note: the kernel's target is set here
// SM80: note: fix: set target = "sm_90" on @elect_store

// RUN: cake-translate %s --chip=sm_90a --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "target": "sm_90a"
// RUN: cake-translate %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .target sm_90a
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: "target": "sm_90"

// RUN: not cake-translate %s --chip=sm_75 --emit=manifest 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown chip 'sm_75', expected one of sm_80, sm_90, sm_90a, sm_100a

cake.kernel @elect_store(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %leader = cake.elect_one
  scf.if %leader {
    cake.store %one, %y[%c0] masked : i32, !cake.tensor<[N], i32>
  }
  cake.return
}
