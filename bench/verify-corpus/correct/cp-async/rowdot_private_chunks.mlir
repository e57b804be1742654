// CORPUS: verdict=correct class=cp-async
// GPU: none (correct)
// WHY: every thread copies only the chunks it reads itself, so cp.async.wait 0 alone (no barrier)
//      orders its reads after its copies.
// SIZES: R=4096,K=4096
// H200: ok, output identical to rowdot_double_buffer (seed 7)

cake.kernel @rowdot_private_chunks(
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
  %pc0 = arith.addi %cc, %c0 : index
  %pc1 = arith.addi %cc, %c4 : index
  %pc2 = arith.addi %cc, %c8 : index
  %pc3 = arith.addi %cc, %c12 : index
  %prow = arith.addi %r0, %crow : index
  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
    %slot = arith.remui %kt, %c2 : index
    %k0 = arith.muli %kt, %c64 : index
    // Each thread copies exactly the 64 bytes of A it reads itself: no barrier needed.
    %g0 = arith.addi %k0, %pc0 : index
    cake.cp_async %a[%prow, %g0], %as[%slot, %crow, %pc0], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g1 = arith.addi %k0, %pc1 : index
    cake.cp_async %a[%prow, %g1], %as[%slot, %crow, %pc1], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g2 = arith.addi %k0, %pc2 : index
    cake.cp_async %a[%prow, %g2], %as[%slot, %crow, %pc2], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g3 = arith.addi %k0, %pc3 : index
    cake.cp_async %a[%prow, %g3], %as[%slot, %crow, %pc3], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    cake.cp_async.commit
    // v straight from global (masked), while the copies fly.
    %v0 = cake.load %v[%g0] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v1 = cake.load %v[%g1] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v2 = cake.load %v[%g2] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v3 = cake.load %v[%g3] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    cake.cp_async.wait 0
    %a0 = cake.load %as[%slot, %crow, %pc0] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a1 = cake.load %as[%slot, %crow, %pc1] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a2 = cake.load %as[%slot, %crow, %pc2] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a3 = cake.load %as[%slot, %crow, %pc3] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %p0 = arith.mulf %a0, %v0 : vector<4xf32>
    %p1 = arith.mulf %a1, %v1 : vector<4xf32>
    %p2 = arith.mulf %a2, %v2 : vector<4xf32>
    %p3 = arith.mulf %a3, %v3 : vector<4xf32>
    %s01 = arith.addf %p0, %p1 : vector<4xf32>
    %s23 = arith.addf %p2, %p3 : vector<4xf32>
    %s03 = arith.addf %s01, %s23 : vector<4xf32>
    %dot = vector.reduction <add>, %s03 : vector<4xf32> into f32
    %acc2 = arith.addf %acc, %dot : f32
    scf.yield %acc2 : f32
  }
  %total = cake.warp_reduce sum %res {lanes = 4 : i64} : f32
  %lead = arith.cmpi eq, %cq, %c0 : index
  scf.if %lead {
    %grow = arith.addi %r0, %crow : index
    cake.store %total, %y[%grow] masked : f32, !cake.tensor<[R], f32>
  }
  cake.return
}
