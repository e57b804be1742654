// A width other than 32 or 64 is an error at the kernel (cake-lower-to-nvvm) or the module
// (cake-translate). A 32-bit build of a kernel whose static extents already pass the bound is
// refused with the tensor or grid dimension named; nothing is written.
// RUN: cake-opt %s --cake-lower-to-nvvm=index-bitwidth=16 -verify-diagnostics
// RUN: not cake-translate %s --emit=ptx --index-bitwidth=16 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: error: expected index-bitwidth 32 or 64, got 16
// RUN: not test -e %t.ptx
// RUN: not cake-translate %S/Inputs/index32-big-tensor.mlir --emit=manifest --index-bitwidth=32 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: index32-big-tensor.mlir:2:1: error: index-bitwidth=32: tensor 'x' spans more than 2^30 elements; compile it with a 64-bit index
// RUN: cake-translate %S/Inputs/index32-big-tensor.mlir --emit=manifest | FileCheck %s --check-prefix=BIG64
// BIG64: "entry": "big_static"
// RUN: not cake-translate %S/Inputs/index32-many-threads.mlir --emit=manifest --index-bitwidth=32 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: index32-many-threads.mlir:3:1: error: index-bitwidth=32: grid dimension 0 runs more than 2^30 threads; compile it with a 64-bit index

// expected-error @+1 {{expected index-bitwidth 32 or 64, got 16}}
cake.kernel @small(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  cake.return
}
