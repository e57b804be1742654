// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s
// RUN: cake-opt %s --cake-lower-to-nvvm="chip=sm_80 opt-level=1" | FileCheck %s --check-prefix=SM80
// RUN: not cake-opt %s --cake-lower-to-nvvm="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not cake-opt %s --cake-lower-to-nvvm="opt-level=7" 2>&1 | FileCheck %s --check-prefix=BADOPT

// CHECK: gpu.module @cake_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.func @row_sum(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.fadd
// CHECK-NOT: cake.
// CHECK-NOT: builtin.unrealized_conversion_cast
// SM80: #nvvm.target<O = 1, chip = "sm_80", features = "+ptx80">
// BADCHIP: error: unknown chip 'sm_75', expected one of sm_80, sm_90, sm_90a, sm_100a
// BADOPT: error: expected opt-level 0 to 3, got 7

// One warp per row: lanes stride over the columns, then a butterfly sum.
cake.kernel @row_sum(%x: !cake.tensor<[M, N], f32>, %y: !cake.tensor<[M], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 4)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %b = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %r0 = arith.muli %b, %c4 : index
  %row = arith.addi %r0, %w : index
  %acc = scf.for %j = %lane to %n step %c32 iter_args(%a = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %s = arith.addf %a, %v : f32
    scf.yield %s : f32
  }
  %total = cake.warp_reduce sum %acc : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %total, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
// RUN: not cake-opt %s --cake-lower-to-nvvm="features=+ptx70" 2>&1 | FileCheck %s --check-prefix=BADFEAT
// BADFEAT: error: unsupported features '+ptx70' for sm_90a: expected +ptxNN with NN >= 80
