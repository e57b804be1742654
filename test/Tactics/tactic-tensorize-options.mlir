// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{buffers=2})' | FileCheck %s --check-prefix=DOUBLE
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{buffers=2})' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{buffers=2 prefetch=false})' | FileCheck %s --check-prefix=DOUBLESYNC
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{unroll=8 fastpath=false})' | FileCheck %s --check-prefix=UNROLL
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=wgmma})' | FileCheck %s --check-prefix=WGMMA
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=wgmma buffers=2})' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=wgmma tile=128 buffers=2})' | cake-translate --emit=ptx | FileCheck %s --check-prefix=WGMMA-PTX

// cake-tactic-tensorize's options on the naive fp16 KMeans assignment (the kernel of
// tactic-tensorize.mlir).

// Two tile slots: tile 0 goes to slot 0 before the loop; each iteration computes slot
// (k0 / 64) mod 2, writes the prefetched next tile into the other slot, and ends with one barrier.
// DOUBLE: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<2x64x128xf16, pad = 8>
// DOUBLE-COUNT-4: cake.store %{{.*}}, %[[TILE]][%c0, %{{.*}}, %{{.*}}]
// DOUBLE-COUNT-4: cake.load %{{.*}} masked : !cake.tensor<[B, K, 128], f16> -> vector<8xf16>
// DOUBLE-NEXT: cake.barrier
// DOUBLE: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c64 iter_args
// DOUBLE: %[[IDX:.*]] = arith.divui %[[K0]], %c64
// DOUBLE: %[[SLOT:.*]] = arith.remui %[[IDX]], %c2
// DOUBLE: %[[OTHER:.*]] = arith.subi %c1, %[[SLOT]]
// DOUBLE-NOT: cake.barrier
// DOUBLE: cake.ldmatrix %[[TILE]][%[[SLOT]], %{{.*}}, %{{.*}}]
// DOUBLE-NOT: cake.barrier
// DOUBLE-COUNT-4: cake.store %{{.*}}, %[[TILE]][%[[OTHER]], %{{.*}}, %{{.*}}]
// DOUBLE-NEXT: cake.barrier
// DOUBLE-NEXT: scf.yield
// DOUBLE-NOT: cake.barrier
// DOUBLE: cake.warp_arg_reduce

// Without registers, the block copies the next tile into the other slot at the end.
// DOUBLESYNC: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<2x64x128xf16, pad = 8>
// DOUBLESYNC: cake.store %{{.*}}, %[[TILE]][%c0, %{{.*}}, %{{.*}}]
// DOUBLESYNC: cake.barrier
// DOUBLESYNC: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c64 iter_args
// DOUBLESYNC: %[[OTHER:.*]] = arith.subi %c1, %{{.*}}
// DOUBLESYNC-NOT: cake.barrier
// DOUBLESYNC: cake.store %{{.*}}, %[[TILE]][%[[OTHER]], %{{.*}}, %{{.*}}]
// DOUBLESYNC: cake.barrier
// DOUBLESYNC-NEXT: scf.yield

// Unrolled by 8 (the whole tile), without the fast path: no loop over groups, 8 x 8 mma.sync.
// UNROLL: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64 iter_args
// UNROLL-NOT: scf.for
// UNROLL-COUNT-64: cake.mma_sync
// UNROLL-NOT: cake.mma_sync
// UNROLL: cake.warp_arg_reduce

// wgmma: the tile in 128-byte-swizzled halves of 64 columns, fenced for the async proxy; each
// warpgroup issues D/16 = 8 wgmma.regs m64n64k16 with the A fragments of its rows, waits, and
// folds the 32 accumulator elements (8 per 8 candidates: 4 j + 2 h + c) into its rows' state.
// WGMMA: #[[GRID:.*]] = affine_map<()[s0, s1, s2] -> ((s1 ceildiv 8) ceildiv 16, s0)>
// WGMMA: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<2x64x64xf16, swizzle = 128>
// WGMMA: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c64 iter_args
// WGMMA: %[[HALF:.*]] = arith.divui %{{.*}}, %c64
// WGMMA: %[[COL:.*]] = arith.remui %{{.*}}, %c64
// WGMMA: cake.store %{{.*}}, %[[TILE]][%[[HALF]], %{{.*}}, %[[COL]]]
// WGMMA: cake.fence.proxy_async
// WGMMA-NEXT: cake.barrier
// In the full tile's branch the epilogue's |c|^2 loads come before the chain, their latency behind
// the wgmmas; the ragged tile's stay behind their guards.
// WGMMA: scf.if
// WGMMA-COUNT-32: cake.load %{{.*}} : !cake.tensor<[B, K], f32> -> f32
// WGMMA-NOT: vector.extract
// WGMMA-NOT: else
// WGMMA: cake.wgmma.fence
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c0, %c0, %c0]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c0, %c0, %c16]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c0, %c0, %c32]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c0, %c0, %c48]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c1, %c0, %c0]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c1, %c0, %c16]
// WGMMA-NEXT: cake.wgmma.regs %{{.*}}, %[[TILE]][%c1, %c0, %c32]
// WGMMA-NEXT: %[[ACC:.*]] = cake.wgmma.regs %{{.*}}, %[[TILE]][%c1, %c0, %c48]{{.*}} vector<32xf32>
// WGMMA-NEXT: cake.wgmma.commit
// WGMMA-NEXT: cake.wgmma.wait 0
// WGMMA: vector.extract %[[ACC]][0]
// WGMMA: vector.extract %[[ACC]][2]
// WGMMA: vector.extract %[[ACC]][1]
// WGMMA: vector.extract %[[ACC]][3]
// WGMMA: vector.extract %[[ACC]][4]
// WGMMA: vector.extract %[[ACC]][31]
// WGMMA: } else {
// WGMMA: cake.wgmma.wait 0
// WGMMA: arith.cmpi ult
// WGMMA: scf.if
// WGMMA: cake.load %{{.*}} : !cake.tensor<[B, K], f32> -> f32
// WGMMA: cake.warp_arg_reduce argmin {{.*}} {lanes = 4 : i64}

// WGMMA-PTX: fence.proxy.async.shared::cta
// WGMMA-PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
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
