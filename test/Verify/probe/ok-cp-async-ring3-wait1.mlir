// Written for session 36's second probe of the verifier (a correct, unusual kernel): no finding (a false
// alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: 3-stage cp.async ring with ONE barrier per step (block 64, rows read by the other warp): at `wait 1` groups 0..kt+1 are committed so tile kt has landed for this thread, the barrier publishes all threads' copies, and the refill of slot (kt+2)%3 = (kt-1)%3 is issued after that same barrier, i.e. after every read of iteration kt-1.
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
    cake.cp_async.wait 1
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
