// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-stage-rows)' | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-stage-rows)' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-stage-rows,cake-tactic-pad{elements=8})' | FileCheck %s --check-prefix=PAD

// cake-tactic-stage-rows on the naive KMeans dot product (after cake-tactic-vectorize): every warp
// of the block reads centroid rows k = lane + 32 t; the block now copies each 32-row tile once.

// CHECK-LABEL: cake.kernel @rows
// CHECK: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<32x128xf16>
// CHECK: %[[TID:.*]] = cake.thread_id x
// CHECK: %[[R:.*]]:2 = scf.for %[[K0:.*]] = %{{.*}} to %[[KDIM:.*]] step %{{.*}} iter_args(%[[BS:.*]] = %{{.*}}, %[[BK:.*]] = %{{.*}}) -> (f32, i32) {
// CHECK-NEXT: cake.barrier
// CHECK: scf.for %[[E:.*]] = %[[TID]] to %c512 step %c256 {
// CHECK: %[[ROW:.*]] = arith.divui %[[E]], %c16
// CHECK: %[[GROW:.*]] = arith.addi %[[K0]], %[[ROW]]
// CHECK: %[[V:.*]] = cake.load %{{.*}}[%{{.*}}, %[[GROW]], %{{.*}}] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
// CHECK: cake.store %[[V]], %[[TILE]][%[[ROW]], %{{.*}}] : vector<8xf16>, !cake.smem<32x128xf16>
// CHECK: cake.barrier
// CHECK: %[[K:.*]] = arith.addi %[[K0]], %[[LANE:.*]] : index
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[K]], %[[KDIM]]
// CHECK: scf.if %[[VALID]] -> (f32, i32) {
// CHECK: cake.load %[[TILE]][%[[LANE]], %{{.*}}] : !cake.smem<32x128xf16> -> vector<8xf16>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[BS]], %[[BK]] : f32, i32
// CHECK: cake.warp_arg_reduce argmin %[[R]]#0, %[[R]]#1

// PAD: cake.alloc_smem : !cake.smem<32x128xf16, pad = 8>
cake.kernel @rows(%x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
                  %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
                  %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv 8, b)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %kdim = cake.problem_size "K"
  %bx = cake.block_id x
  %b = cake.block_id y
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %bx, %c8 : index
  %i = arith.addi %p0, %w : index
  %kbig = arith.index_cast %kdim : index to i32
  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {
    %dot = scf.for %j = %c0 to %c128 step %c8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %xh = cake.load %x[%b, %i, %j] masked : !cake.tensor<[B, N, 128], f16> -> vector<8xf16>
      %ch = cake.load %c[%b, %k, %j] : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
      %xv = arith.extf %xh : vector<8xf16> to vector<8xf32>
      %cv = arith.extf %ch : vector<8xf16> to vector<8xf32>
      %acc2 = math.fma %xv, %cv, %acc : vector<8xf32>
      scf.yield %acc2 : vector<8xf32>
    }
    %s = vector.reduction <add>, %dot : vector<8xf32> into f32
    %k32 = arith.index_cast %k : index to i32
    %closer = arith.cmpf olt, %s, %bs : f32
    %ns = arith.select %closer, %s, %bs : f32
    %nk = arith.select %closer, %k32, %bk : i32
    scf.yield %ns, %nk : f32, i32
  }
  %ms, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %mk, %idx[%b, %i] masked : i32, !cake.tensor<[B, N], i32>
  }
  cake.return
}
