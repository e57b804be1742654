// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :26:8: error: 'cake.load' op [shape.pad-identity]
// CHECK: [race.lost-update]
// BUG: per-bucket running max in shared memory done with a plain load / maxf / store at a data-dependent index (bucket = key mod 32): two threads of different warps with the same bucket (e.g. thread 3 and thread 70 both with key 5) both load best[5], and one of the two stores overwrites the other's larger value (lost update; needs an atomic or a reduction).
cake.kernel @bucket_max(%keys: !cake.tensor<[N], i32> {cake.name = "keys"},
                        %vals: !cake.tensor<[N], f32> {cake.name = "vals"},
                        %out: !cake.tensor<[B, 32], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 96)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %ninf = arith.constant 0xFF800000 : f32
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %best = cake.alloc_smem : !cake.smem<32xf32>
  %init = arith.cmpi ult, %tid, %c32 : index
  scf.if %init {
    cake.store %ninf, %best[%tid] : f32, !cake.smem<32xf32>
  }
  cake.barrier
  %base = arith.muli %bid, %c96 : index
  %i = arith.addi %base, %tid : index
  %k = cake.load %keys[%i] masked : !cake.tensor<[N], i32> -> i32
  %v = cake.load %vals[%i] masked : !cake.tensor<[N], f32> -> f32
  %ki = arith.index_cast %k : i32 to index
  %bk = arith.remui %ki, %c32 : index
  %old = cake.load %best[%bk] : !cake.smem<32xf32> -> f32
  %new = arith.maximumf %old, %v : f32
  cake.store %new, %best[%bk] : f32, !cake.smem<32xf32>
  cake.barrier
  scf.if %init {
    %h = cake.load %best[%tid] : !cake.smem<32xf32> -> f32
    cake.store %h, %out[%bid, %tid] masked : f32, !cake.tensor<[B, 32], f32>
  }
  cake.return
}
