// A buggy kernel written for session 32's probe of the verifier (in no other file then),
// and the findings cake-verify gave it.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: {{.*}}[async.cp-async-uncommitted]
// CHECK-DAG: error: {{.*}}[async.cp-async-wait-count]
// CHECK-DAG: error: {{.*}}[async.cp-async-in-flight]
// BUG: the prefetch of tile kt+1 is committed after `wait 1`: at the wait only groups 0..kt exist, so wait 1 leaves tile kt's group pending and the block reads it before it lands.
cake.kernel @cp2_rowsum(%x: !cake.tensor<[M, K], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %red = cake.alloc_smem : !cake.smem<4x32xf32>
  // copy mapping: row tid / 4, columns 8 (tid mod 4) and + 4
  %crow = arith.divui %tid, %c4 : index
  %cq = arith.remui %tid, %c4 : index
  %cc0 = arith.muli %cq, %c8 : index
  %cc1 = arith.addi %cc0, %c4 : index
  %grow = arith.addi %m0, %crow : index
  // read mapping: row tid mod 32, columns 8 (tid / 32) .. + 7
  %rrow = arith.remui %tid, %c32 : index
  %rseg = arith.divui %tid, %c32 : index
  %rc0 = arith.muli %rseg, %c8 : index
  %rc1 = arith.addi %rc0, %c4 : index
  %gk0 = arith.addi %c0, %cc0 : index
  %gk1 = arith.addi %c0, %cc1 : index
  cake.cp_async %x[%grow, %gk0], %buf[%c0, %crow, %cc0], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<2x32x32xf32>
  cake.cp_async %x[%grow, %gk1], %buf[%c0, %crow, %cc1], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<2x32x32xf32>
  cake.cp_async.commit
  %part = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
    %nt = arith.addi %kt, %c1 : index
    %ns = arith.remui %nt, %c2 : index
    %nk = arith.muli %nt, %c32 : index
    %nk0 = arith.addi %nk, %cc0 : index
    %nk1 = arith.addi %nk, %cc1 : index
    cake.cp_async %x[%grow, %nk0], %buf[%ns, %crow, %cc0], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<2x32x32xf32>
    cake.cp_async %x[%grow, %nk1], %buf[%ns, %crow, %cc1], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<2x32x32xf32>
    cake.cp_async.wait 1
    cake.cp_async.commit
    cake.barrier
    %s = arith.remui %kt, %c2 : index
    %v0 = cake.load %buf[%s, %rrow, %rc0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
    %v1 = cake.load %buf[%s, %rrow, %rc1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
    %v = arith.addf %v0, %v1 : vector<4xf32>
    %p = vector.reduction <add>, %v : vector<4xf32> into f32
    %acc2 = arith.addf %acc, %p : f32
    cake.barrier
    scf.yield %acc2 : f32
  }
  cake.cp_async.wait 0
  cake.store %part, %red[%rseg, %rrow] : f32, !cake.smem<4x32xf32>
  cake.barrier
  %w0 = arith.cmpi ult, %tid, %c32 : index
  scf.if %w0 {
    %a0 = cake.load %red[%c0, %tid] : !cake.smem<4x32xf32> -> f32
    %a1 = cake.load %red[%c1, %tid] : !cake.smem<4x32xf32> -> f32
    %a2 = cake.load %red[%c2, %tid] : !cake.smem<4x32xf32> -> f32
    %a3 = cake.load %red[%c3, %tid] : !cake.smem<4x32xf32> -> f32
    %s01 = arith.addf %a0, %a1 : f32
    %s23 = arith.addf %a2, %a3 : f32
    %t = arith.addf %s01, %s23 : f32
    %orow = arith.addi %m0, %tid : index
    cake.store %t, %out[%orow] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
