// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --cake-verify -o /dev/null
// RUN: cake-opt %s --cake-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// cake.atomic_add: the centroid update's sums and counts (one warp per point: lanes over D).
// ROUNDTRIP: cake.atomic_add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] masked : f32, !cake.tensor<[B, K, D], f32>
// ROUNDTRIP: cake.atomic_add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : i32, !cake.tensor<[B, K], i32>
// LLVM: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, f32
// LLVM: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
// PTX: {{(red|atom)}}.global.add.f32
// PTX: {{(red|atom)}}.global.add.{{(u|s)}}32
// COST: update

cake.kernel @update(%x: !cake.tensor<[B, N, D], f32> {cake.name = "x"},
                    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"},
                    %sums: !cake.tensor<[B, K, D], f32> {cake.name = "sums"},
                    %counts: !cake.tensor<[B, K], i32> {cake.name = "counts"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["B", "N", "K", "D"],
                grid = affine_map<()[b, n, k, d] -> (n ceildiv 8, b)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %ndim = cake.problem_size "N"
  %ddim = cake.problem_size "D"
  %bx = cake.block_id x
  %b = cake.block_id y
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %bx, %c8 : index
  %n = arith.addi %p0, %w : index
  %inside = arith.cmpi ult, %n, %ndim : index
  scf.if %inside {
    %k32 = cake.load %idx[%b, %n] : !cake.tensor<[B, N], i32> -> i32
    %k = arith.index_cast %k32 : i32 to index
    scf.for %d = %lane to %ddim step %c32 {
      %v = cake.load %x[%b, %n, %d] : !cake.tensor<[B, N, D], f32> -> f32
      cake.atomic_add %v, %sums[%b, %k, %d] masked : f32, !cake.tensor<[B, K, D], f32>
    }
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      cake.atomic_add %one, %counts[%b, %k] : i32, !cake.tensor<[B, K], i32>
    }
  }
  cake.return
}
