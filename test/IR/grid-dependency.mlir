// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-opt %s --cake-verify -o /dev/null
// RUN: cake-opt %s --cake-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// Programmatic dependent launch: the signal lets the next kernel of the stream launch early, and
// the wait keeps every global access of this kernel after its predecessor has completed. The
// index arithmetic and shared-memory setup before the wait overlap the predecessor's tail.
// ROUNDTRIP: cake.grid_dependency.launch_dependents
// ROUNDTRIP: cake.alloc_smem
// ROUNDTRIP: cake.grid_dependency.wait
// ROUNDTRIP-NEXT: cake.load
// LLVM: nvvm.griddepcontrol launch_dependents
// LLVM: llvm.inline_asm has_side_effects "griddepcontrol.wait;", "~{memory}"
// LLVM: llvm.load
// PTX: griddepcontrol.launch_dependents;
// PTX: griddepcontrol.wait;
// PTX: ld.global
// MANIFEST: "programmatic_launch": true
// COST: scale

cake.kernel @scale(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                   %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  cake.grid_dependency.launch_dependents
  %c128 = arith.constant 128 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %o = arith.muli %b, %c128 : index
  %i = arith.addi %o, %t : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  cake.grid_dependency.wait
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
