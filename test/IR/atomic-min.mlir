// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=LLVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-opt %s --cake-verify -o /dev/null
// RUN: cake-opt %s --cake-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// cake.atomic_min: merging split-K argmin partials. Each block holds the nearest of its share of
// the centroids for a point and packs (distance bits << 32 | index) into an i64: distances are
// non-negative floats, whose bit patterns order as unsigned integers, so the unsigned 64-bit min
// of the packed values is the nearest centroid, ties to the lower index. A shared-memory i32 min
// merges within the block first.
// ROUNDTRIP: cake.atomic_min %{{.*}}, %{{.*}}[%{{.*}}] : i32, !cake.smem<128xi32>
// ROUNDTRIP: cake.atomic_min %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked : i64, !cake.tensor<[B, N], i64>
// LLVM: llvm.atomicrmw umin %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// LLVM: llvm.atomicrmw umin %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i64
// PTX: {{(red|atom)}}.shared.min.u32
// PTX: {{(red|atom)}}.global.min.u64
// COST: merge

cake.kernel @merge(%dist: !cake.tensor<[B, N], f32> {cake.name = "dist"},
                   %best: !cake.tensor<[B, N], i64> {cake.name = "best"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["B", "N"],
                grid = affine_map<()[b, n] -> (n ceildiv 128, b)>} {
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : i64
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %b = cake.block_id y
  %base = arith.muli %bx, %c128 : index
  %n = arith.addi %base, %tid : index
  %slots = cake.alloc_smem : !cake.smem<128xi32>
  %d = cake.load %dist[%b, %n] masked : !cake.tensor<[B, N], f32> -> f32
  %bits = arith.bitcast %d : f32 to i32
  cake.atomic_min %bits, %slots[%tid] : i32, !cake.smem<128xi32>
  %wide = arith.extui %bits : i32 to i64
  %high = arith.shli %wide, %c32 : i64
  %k = arith.index_cast %bx : index to i64
  %packed = arith.ori %high, %k : i64
  cake.atomic_min %packed, %best[%b, %n] masked : i64, !cake.tensor<[B, N], i64>
  cake.return
}

// Every thread takes the minimum into one shared slot: atomic, so no race; the block barrier
// orders the minimum before thread 0 reads it.
cake.kernel @block_min(%dist: !cake.tensor<[N], i32> {cake.name = "dist"},
                       %out: !cake.tensor<[1], i32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %max = arith.constant -1 : i32
  %tid = cake.thread_id x
  %slot = cake.alloc_smem : !cake.smem<1xi32>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    cake.store %max, %slot[%c0] : i32, !cake.smem<1xi32>
  }
  cake.barrier
  %d = cake.load %dist[%tid] masked : !cake.tensor<[N], i32> -> i32
  cake.atomic_min %d, %slot[%c0] : i32, !cake.smem<1xi32>
  cake.barrier
  scf.if %first {
    %m = cake.load %slot[%c0] : !cake.smem<1xi32> -> i32
    cake.store %m, %out[%c0] : i32, !cake.tensor<[1], i32>
  }
  cake.return
}
