// cake-tactic-index-width sets the width every kernel's index is lowered to; the manifest and the
// lowering follow it (the 32-bit bounds, i32 offsets). Back to 64 drops the attribute.
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})' | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})' | cake-translate --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32}, cake-tactic-index-width{bits=64})' | FileCheck %s --check-prefix=BACK
// CHECK-LABEL: cake.kernel @scale
// CHECK-SAME: index_bitwidth = 32 : i64
// MANIFEST: "N <= 1073741824"
// MANIFEST: "index_bits": 32
// BACK-LABEL: cake.kernel @scale
// BACK-NOT: index_bitwidth
cake.kernel @scale(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c128 = arith.constant 128 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %o = arith.muli %b, %c128 : index
  %i = arith.addi %o, %t : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %x[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
