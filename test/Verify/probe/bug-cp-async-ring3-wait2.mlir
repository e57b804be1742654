// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :38:5: error: 'cake.cp_async.wait' op [async.cp-async-wait-count]
// BUG: 3-stage cp.async ring (block 64, row tiles read by the OTHER warp). At the wait of iteration kt each thread has committed groups 0..kt+1; `wait 2` lets both kt and kt+1 stay pending, so tile kt may not have landed when it is read (needs `wait 1`). E.g. iteration 0: thread 32 (warp 1, row 8) copies buf[0][8][0..3] in group 0, and thread 0 (warp 0) reads buf[0][8][0..3] after the barrier while that copy may still be in flight.
cake.kernel @cp3_rowsum(%x: !cake.tensor<[M, K], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c16 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c16 : index
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<3x16x16xf32>
  // copy mapping: row tid / 4, columns 4 (tid mod 4)
  %crow = arith.divui %tid, %c4 : index
  %cq = arith.remui %tid, %c4 : index
  %cc = arith.muli %cq, %c4 : index
  %grow = arith.addi %m0, %crow : index
  // read mapping: the other warp's rows: row (tid / 4 + 8) mod 16, same columns
  %c8 = arith.constant 8 : index
  %rr8 = arith.addi %crow, %c8 : index
  %rrow = arith.remui %rr8, %c16 : index
  %rc = arith.addi %cc, %c0 : index
  cake.cp_async %x[%grow, %cc], %buf[%c0, %crow, %cc], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<3x16x16xf32>
  cake.cp_async.commit
  %k1 = arith.addi %c16, %cc : index
  cake.cp_async %x[%grow, %k1], %buf[%c1, %crow, %cc], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<3x16x16xf32>
  cake.cp_async.commit
  %part = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
    cake.cp_async.wait 2
    cake.barrier
    %s = arith.remui %kt, %c3 : index
    %v = cake.load %buf[%s, %rrow, %rc] : !cake.smem<3x16x16xf32> -> vector<4xf32>
    %p = vector.reduction <add>, %v : vector<4xf32> into f32
    %acc2 = arith.addf %acc, %p : f32
    %nt = arith.addi %kt, %c2 : index
    %ns = arith.remui %nt, %c3 : index
    %nk = arith.muli %nt, %c16 : index
    %nkc = arith.addi %nk, %cc : index
    cake.cp_async %x[%grow, %nkc], %buf[%ns, %crow, %cc], bytes 16 masked : !cake.tensor<[M, K], f32>, !cake.smem<3x16x16xf32>
    cake.cp_async.commit
    scf.yield %acc2 : f32
  }
  cake.cp_async.wait 0
  %sum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
  %orow = arith.addi %m0, %rrow : index
  %lead = arith.cmpi eq, %cq, %c0 : index
  scf.if %lead {
    cake.store %sum, %out[%orow] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
