// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=64})' | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize)' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=32})' | cake-translate --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=32})' | FileCheck %s --check-prefix=TILE32
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{prefetch=false})' | FileCheck %s --check-prefix=SYNC
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{rows=32 tile=32})' | FileCheck %s --check-prefix=ROWS32
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{rows=32})' | cake-translate --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{prefetch=false})' | cake-opt --cake-verify -o /dev/null

// cake-tactic-tensorize on the naive fp16 KMeans assignment (agent/tasks/seeds/kmeans_fp16.mlir
// with PPB = 8): one warp per point, lanes over the centroids, scalar FMAs. After it, each warp
// owns 16 points, its A fragments are in registers, centroid tiles go through shared memory and
// ldmatrix into mma.sync, and the argmin combines the 4 lanes of a quad.

// CHECK: #[[GRID:.*]] = affine_map<()[s0, s1, s2] -> ((s1 ceildiv 8) ceildiv 16, s0)>
// CHECK-LABEL: cake.kernel @kmeans
// CHECK-SAME: grid = #[[GRID]]
// CHECK: %[[LANE:.*]] = cake.lane_id
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c4
// CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %c4
// CHECK: %[[R16:.*]] = arith.muli %[[ROW]], %c16
// CHECK: %[[R0:.*]] = arith.addi %[[R16]], %[[G]]
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %c8
// CHECK-COUNT-32: cake.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
// CHECK: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<64x128xf16, pad = 8>
// CHECK-COUNT-4: cake.load %{{.*}} masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
// CHECK: %[[R:.*]]:8 = scf.for %[[K0:.*]] = %{{.*}} to %[[KDIM:.*]] step %c64 iter_args
// CHECK: %[[NEXT:.*]] = arith.addi %[[K0]], %c64
// CHECK-COUNT-4: cake.store %{{.*}}, %[[TILE]]
// CHECK-NEXT: cake.barrier
// CHECK-COUNT-4: cake.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c8 iter_args
// CHECK-COUNT-4: cake.ldmatrix %[[TILE]]
// CHECK: arith.cmpi ult, %{{.*}}, %[[KDIM]]
// CHECK: scf.if
// CHECK: cake.load %{{.*}} : !cake.tensor<[B, K], f32> -> f32
// CHECK: } else {
// CHECK: cake.barrier
// CHECK-NEXT: scf.yield
// CHECK: %[[M0:.*]], %[[K0I:.*]] = cake.warp_arg_reduce argmin %[[R]]#0, %[[R]]#1 {lanes = 4 : i64}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[Q]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: cake.store %[[K0I]], %{{.*}}[%{{.*}}, %[[R0]]] masked
// CHECK: cake.warp_arg_reduce argmin %[[R]]#2, %[[R]]#3 {lanes = 4 : i64}
// CHECK: cake.store %{{.*}}, %{{.*}}[%{{.*}}, %[[R1]]] masked

// Without prefetch the block copies each tile between two barriers.
// SYNC: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<64x128xf16, pad = 8>
// SYNC: %[[TID:.*]] = cake.thread_id x
// SYNC: %{{.*}}:4 = scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c64 iter_args
// SYNC-NEXT: arith.addi %[[K0]], %c64
// SYNC-NEXT: cake.barrier
// SYNC-NEXT: scf.for %[[E:.*]] = %[[TID]] to %c1024 step %c256 {
// SYNC: cake.load %{{.*}} masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
// SYNC: cake.store %{{.*}}, %[[TILE]]
// SYNC: cake.barrier
// SYNC-NOT: cake.barrier
// SYNC: cake.warp_arg_reduce

// 32 rows per warp: two m16 tiles share each B fragment, four row slots.
// ROWS32: #[[GRID:.*]] = affine_map<()[s0, s1, s2] -> ((s1 ceildiv 8) ceildiv 32, s0)>
// ROWS32-COUNT-64: masked : !cake.tensor<[B, N, 128], f16> -> vector<2xf16>
// ROWS32: scf.for %{{.*}} = %{{.*}} to %c32 step %c8 iter_args({{.*}}) -> (f32, i32, f32, i32, f32, i32, f32, i32)
// ROWS32-COUNT-16: cake.mma_sync
// ROWS32: scf.for %{{.*}} = %{{.*}} to %c32 step %c8 iter_args({{.*}}) -> (f32, i32, f32, i32, f32, i32, f32, i32)
// ROWS32-COUNT-16: cake.mma_sync
// ROWS32-NOT: cake.mma_sync
// ROWS32-COUNT-4: cake.warp_arg_reduce argmin {{.*}} {lanes = 4 : i64}

// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// The mma.sync count: D/16 = 8 per group of 8 candidates, in the full-tile loop and again in the
// guarded one for a ragged last tile.
// TILE32: cake.smem<32x128xf16, pad = 8>
// TILE32: %[[END:.*]] = arith.addi %[[K0:.*]], %c32 : index
// TILE32: %[[FULL:.*]] = arith.cmpi ule, %[[END]], %[[KDIM:.*]] : index
// TILE32: scf.if %[[FULL]]
// TILE32: scf.for %{{.*}} = %c0 to %c32 step %c8
// TILE32-COUNT-8: cake.mma_sync
// TILE32-NOT: arith.cmpi ult
// TILE32: } else {
// TILE32: scf.for %{{.*}} = %c0 to %c32 step %c8
// TILE32-COUNT-8: cake.mma_sync
// TILE32: arith.cmpi ult, %{{.*}}, %[[KDIM]]
// TILE32-NOT: cake.mma_sync
cake.kernel @kmeans(%x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
                    %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
                    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
                    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv 8, b)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %cppb = arith.constant 8 : index
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %kdim = cake.problem_size "K"
  %bx = cake.block_id x
  %b = cake.block_id y
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %bx, %cppb : index
  %i = arith.addi %p0, %w : index
  %kbig = arith.index_cast %kdim : index to i32
  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %xh = cake.load %x[%b, %i, %j] masked : !cake.tensor<[B, N, 128], f16> -> f16
      %ch = cake.load %c[%b, %k, %j] : !cake.tensor<[B, K, 128], f16> -> f16
      %xv = arith.extf %xh : f16 to f32
      %cv = arith.extf %ch : f16 to f32
      %acc2 = math.fma %xv, %cv, %acc : f32
      scf.yield %acc2 : f32
    }
    %sq = cake.load %csq[%b, %k] : !cake.tensor<[B, K], f32> -> f32
    %twodot = arith.mulf %two, %dot : f32
    %s = arith.subf %sq, %twodot : f32
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
