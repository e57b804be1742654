// CORPUS: verdict=buggy class=cp-async
// GPU: race (wrong result): each thread waited for its own copies, but reads other threads' copies
// WHY: cp.async.wait 1 with no block barrier after it before the cross-thread reads.
// SIZES: R=4096,K=4096
// H200: wrong result vs rowdot_double_buffer, seed 7: 2818 elements of 'y' differ, rel L2 0.16

cake.kernel @rowdot_wait_without_barrier(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c12 = arith.constant 12 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c32 : index
  %as = cake.alloc_smem : !cake.smem<2x32x64xf32>
  %vs = cake.alloc_smem : !cake.smem<2x64xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  // Copy assignment: rows tid / 16 + 8 i (i < 4), columns 4 (tid mod 16); v by threads 0..15.
  %lrow0 = arith.divui %tid, %c16 : index
  %lq = arith.remui %tid, %c16 : index
  %lc = arith.muli %lq, %c4 : index
  %vcopy = arith.cmpi ult, %tid, %c16 : index
  %vc = arith.muli %tid, %c4 : index
  // Compute assignment: row tid / 4, columns 16 (tid mod 4) .. + 16.
  %crow = arith.divui %tid, %c4 : index
  %cq = arith.remui %tid, %c4 : index
  %cc = arith.muli %cq, %c16 : index
  %kp = arith.muli %c0, %c64 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %i8 = arith.muli %i, %c8 : index
    %lr = arith.addi %lrow0, %i8 : index
    %gr = arith.addi %r0, %lr : index
    %gk = arith.addi %kp, %lc : index
    cake.cp_async %a[%gr, %gk], %as[%c0, %lr, %lc], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
  }
  scf.if %vcopy {
    %gv = arith.addi %kp, %vc : index
    cake.cp_async %v[%gv], %vs[%c0, %vc], bytes 16 masked : !cake.tensor<[K], f32>, !cake.smem<2x64xf32>
  }
  cake.cp_async.commit
  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
    %nk = arith.addi %kt, %c1 : index
    %ns = arith.remui %nk, %c2 : index
    %kn = arith.muli %nk, %c64 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %i8 = arith.muli %i, %c8 : index
      %lr = arith.addi %lrow0, %i8 : index
      %gr = arith.addi %r0, %lr : index
      %gk = arith.addi %kn, %lc : index
      cake.cp_async %a[%gr, %gk], %as[%ns, %lr, %lc], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    }
    scf.if %vcopy {
      %gv = arith.addi %kn, %vc : index
      cake.cp_async %v[%gv], %vs[%ns, %vc], bytes 16 masked : !cake.tensor<[K], f32>, !cake.smem<2x64xf32>
    }
    cake.cp_async.commit
    cake.cp_async.wait 1
    %slot = arith.remui %kt, %c2 : index
    %ccol0 = arith.addi %cc, %c0 : index
    %ccol1 = arith.addi %cc, %c4 : index
    %ccol2 = arith.addi %cc, %c8 : index
    %ccol3 = arith.addi %cc, %c12 : index
    %ra0 = cake.load %as[%slot, %crow, %ccol0] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %rv0 = cake.load %vs[%slot, %ccol0] : !cake.smem<2x64xf32> -> vector<4xf32>
    %pr0 = arith.mulf %ra0, %rv0 : vector<4xf32>
    %ra1 = cake.load %as[%slot, %crow, %ccol1] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %rv1 = cake.load %vs[%slot, %ccol1] : !cake.smem<2x64xf32> -> vector<4xf32>
    %pr1 = arith.mulf %ra1, %rv1 : vector<4xf32>
    %ra2 = cake.load %as[%slot, %crow, %ccol2] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %rv2 = cake.load %vs[%slot, %ccol2] : !cake.smem<2x64xf32> -> vector<4xf32>
    %pr2 = arith.mulf %ra2, %rv2 : vector<4xf32>
    %ra3 = cake.load %as[%slot, %crow, %ccol3] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %rv3 = cake.load %vs[%slot, %ccol3] : !cake.smem<2x64xf32> -> vector<4xf32>
    %pr3 = arith.mulf %ra3, %rv3 : vector<4xf32>
    %s01 = arith.addf %pr0, %pr1 : vector<4xf32>
    %s23 = arith.addf %pr2, %pr3 : vector<4xf32>
    %s03 = arith.addf %s01, %s23 : vector<4xf32>
    %dot = vector.reduction <add>, %s03 : vector<4xf32> into f32
    %acc2 = arith.addf %acc, %dot : f32
    cake.barrier
    scf.yield %acc2 : f32
  }
  cake.cp_async.wait 0
  %total = cake.warp_reduce sum %res {lanes = 4 : i64} : f32
  %lead = arith.cmpi eq, %cq, %c0 : index
  scf.if %lead {
    %grow = arith.addi %r0, %crow : index
    cake.store %total, %y[%grow] masked : f32, !cake.tensor<[R], f32>
  }
  cake.return
}
