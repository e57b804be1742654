// RUN: cake-opt %s --cake-verify -verify-diagnostics=only-expected -o /dev/null
// Hand-seeded async mutant of ampere_gemm (the main loop waits with pending 3 after 3 prologue groups), caught as async.cp-async-wait-count.

cake.kernel @ampere_gemm(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
                         %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
                         %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_80", block = array<i64: 256>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %lane = cake.lane_id

  %abuf = cake.alloc_smem : !cake.smem<4x128x32xbf16, swizzle = 64>
  %bbuf = cake.alloc_smem : !cake.smem<4x128x32xbf16, swizzle = 64>

  // Copy assignment: 128 rows x 4 chunks of 16 bytes per operand and stage, 2 chunks per thread:
  // rows tid / 4 and tid / 4 + 64, columns 8 (tid mod 4).
  %crow0 = arith.divui %tid, %c4 : index
  %crow1 = arith.addi %crow0, %c64 : index
  %cq = arith.remui %tid, %c4 : index
  %ccol = arith.muli %cq, %c8 : index
  %ga0 = arith.addi %m0, %crow0 : index
  %ga1 = arith.addi %m0, %crow1 : index
  %gb0 = arith.addi %n0, %crow0 : index
  %gb1 = arith.addi %n0, %crow1 : index
  // Prologue: tiles 0, 1, 2 into slots 0, 1, 2, one group each (tiles past K read nothing and
  // zero-fill).
  scf.for %pt = %c0 to %c3 step %c1 {
    %k0_pt = arith.muli %pt, %c32 : index
    %gk_pt = arith.addi %k0_pt, %ccol : index
    cake.cp_async %a[%ga0, %gk_pt], %abuf[%pt, %crow0, %ccol], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %a[%ga1, %gk_pt], %abuf[%pt, %crow1, %ccol], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %b[%gb0, %gk_pt], %bbuf[%pt, %crow0, %ccol], bytes 16 masked : !cake.tensor<[N, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %b[%gb1, %gk_pt], %bbuf[%pt, %crow1, %ccol], bytes 16 masked : !cake.tensor<[N, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async.commit
  }

  // Per-lane ldmatrix rows and columns (see the header).
  %wm = arith.divui %warp, %c4 : index
  %wn = arith.remui %warp, %c4 : index
  %wrow = arith.muli %wm, %c64 : index
  %wcol = arith.muli %wn, %c32 : index
  %l8 = arith.remui %lane, %c8 : index
  %lmat = arith.divui %lane, %c8 : index
  %lodd = arith.remui %lmat, %c2 : index
  %lhi = arith.divui %lane, %c16 : index
  %lodd8 = arith.muli %lodd, %c8 : index
  %lhi8 = arith.muli %lhi, %c8 : index
  %arow_l = arith.addi %lodd8, %l8 : index
  %arow = arith.addi %wrow, %arow_l : index
  %brow_l = arith.addi %lhi8, %l8 : index
  %brow = arith.addi %wcol, %brow_l : index
  %arow0 = arith.addi %arow, %c0 : index
  %arow1 = arith.addi %arow, %c16 : index
  %arow2 = arith.addi %arow, %c32 : index
  %arow3 = arith.addi %arow, %c48 : index
  %brow0 = arith.addi %brow, %c0 : index
  %brow1 = arith.addi %brow, %c16 : index

  %acc:16 = scf.for %kt = %c0 to %ktiles step %c1
      iter_args(%acc00_in = %zero, %acc01_in = %zero, %acc02_in = %zero, %acc03_in = %zero, %acc10_in = %zero, %acc11_in = %zero, %acc12_in = %zero, %acc13_in = %zero, %acc20_in = %zero, %acc21_in = %zero, %acc22_in = %zero, %acc23_in = %zero, %acc30_in = %zero, %acc31_in = %zero, %acc32_in = %zero, %acc33_in = %zero)
      -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
    // Tile kt has landed for this thread; the barrier publishes all threads' copies and frees the
    // slot read at step kt - 1.
// expected-error @+1 {{[async.cp-async-wait-count]}}
    cake.cp_async.wait 3
    cake.barrier
    %nt = arith.addi %kt, %c3 : index
    %nslot = arith.remui %nt, %c4 : index
    %k0_nt = arith.muli %nt, %c32 : index
    %gk_nt = arith.addi %k0_nt, %ccol : index
    cake.cp_async %a[%ga0, %gk_nt], %abuf[%nslot, %crow0, %ccol], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %a[%ga1, %gk_nt], %abuf[%nslot, %crow1, %ccol], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %b[%gb0, %gk_nt], %bbuf[%nslot, %crow0, %ccol], bytes 16 masked : !cake.tensor<[N, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async %b[%gb1, %gk_nt], %bbuf[%nslot, %crow1, %ccol], bytes 16 masked : !cake.tensor<[N, K], bf16>, !cake.smem<4x128x32xbf16, swizzle = 64>
    cake.cp_async.commit
    %slot = arith.remui %kt, %c4 : index
    %step:16 = scf.for %kk = %c0 to %c32 step %c16
        iter_args(%acc00_k = %acc00_in, %acc01_k = %acc01_in, %acc02_k = %acc02_in, %acc03_k = %acc03_in, %acc10_k = %acc10_in, %acc11_k = %acc11_in, %acc12_k = %acc12_in, %acc13_k = %acc13_in, %acc20_k = %acc20_in, %acc21_k = %acc21_in, %acc22_k = %acc22_in, %acc23_k = %acc23_in, %acc30_k = %acc30_in, %acc31_k = %acc31_in, %acc32_k = %acc32_in, %acc33_k = %acc33_in)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %acol_l = arith.addi %kk, %lhi8 : index
      %bcol_l = arith.addi %kk, %lodd8 : index
      %fa0 = cake.ldmatrix %abuf[%slot, %arow0, %acol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fa1 = cake.ldmatrix %abuf[%slot, %arow1, %acol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fa2 = cake.ldmatrix %abuf[%slot, %arow2, %acol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fa3 = cake.ldmatrix %abuf[%slot, %arow3, %acol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fbp0 = cake.ldmatrix %bbuf[%slot, %brow0, %bcol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fb0 = vector.shuffle %fbp0, %fbp0 [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
      %fb1 = vector.shuffle %fbp0, %fbp0 [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
      %fbp1 = cake.ldmatrix %bbuf[%slot, %brow1, %bcol_l] : !cake.smem<4x128x32xbf16, swizzle = 64> -> vector<8xbf16>
      %fb2 = vector.shuffle %fbp1, %fbp1 [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
      %fb3 = vector.shuffle %fbp1, %fbp1 [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
      %acc00_out = cake.mma_sync %fa0, %fb0, %acc00_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc01_out = cake.mma_sync %fa0, %fb1, %acc01_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc02_out = cake.mma_sync %fa0, %fb2, %acc02_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc03_out = cake.mma_sync %fa0, %fb3, %acc03_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc10_out = cake.mma_sync %fa1, %fb0, %acc10_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc11_out = cake.mma_sync %fa1, %fb1, %acc11_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc12_out = cake.mma_sync %fa1, %fb2, %acc12_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc13_out = cake.mma_sync %fa1, %fb3, %acc13_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc20_out = cake.mma_sync %fa2, %fb0, %acc20_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc21_out = cake.mma_sync %fa2, %fb1, %acc21_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc22_out = cake.mma_sync %fa2, %fb2, %acc22_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc23_out = cake.mma_sync %fa2, %fb3, %acc23_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc30_out = cake.mma_sync %fa3, %fb0, %acc30_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc31_out = cake.mma_sync %fa3, %fb1, %acc31_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc32_out = cake.mma_sync %fa3, %fb2, %acc32_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      %acc33_out = cake.mma_sync %fa3, %fb3, %acc33_k : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
      scf.yield %acc00_out, %acc01_out, %acc02_out, %acc03_out, %acc10_out, %acc11_out, %acc12_out, %acc13_out, %acc20_out, %acc21_out, %acc22_out, %acc23_out, %acc30_out, %acc31_out, %acc32_out, %acc33_out
          : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    }
    scf.yield %step#0, %step#1, %step#2, %step#3, %step#4, %step#5, %step#6, %step#7, %step#8, %step#9, %step#10, %step#11, %step#12, %step#13, %step#14, %step#15
        : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
  }
  cake.cp_async.wait 0

  // Epilogue: each 16x8 accumulator tile straight to C, masked at the edges.
  %crow_w = arith.addi %m0, %wrow : index
  %ccol_w = arith.addi %n0, %wcol : index
  %er0 = arith.addi %crow_w, %c0 : index
  %er1 = arith.addi %crow_w, %c16 : index
  %er2 = arith.addi %crow_w, %c32 : index
  %er3 = arith.addi %crow_w, %c48 : index
  %ec0 = arith.addi %ccol_w, %c0 : index
  %ec1 = arith.addi %ccol_w, %c8 : index
  %ec2 = arith.addi %ccol_w, %c16 : index
  %ec3 = arith.addi %ccol_w, %c24 : index
  cake.mma_sync.store %acc#0, %c[%er0, %ec0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#1, %c[%er0, %ec1] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#2, %c[%er0, %ec2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#3, %c[%er0, %ec3] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#4, %c[%er1, %ec0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#5, %c[%er1, %ec1] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#6, %c[%er1, %ec2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#7, %c[%er1, %ec3] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#8, %c[%er2, %ec0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#9, %c[%er2, %ec1] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#10, %c[%er2, %ec2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#11, %c[%er2, %ec3] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#12, %c[%er3, %ec0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#13, %c[%er3, %ec1] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#14, %c[%er3, %ec2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc#15, %c[%er3, %ec3] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
