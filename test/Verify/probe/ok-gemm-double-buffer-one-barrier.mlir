// A correct kernel written for session 32's probe of the verifier (in no other file then):
// no finding (a false alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: gemm with double-buffered shared tiles and ONE barrier per k-step (the write of slot k%2 is ordered after the reads of k-2 by iteration k-1's barrier).
cake.kernel @gemm(%a: !cake.tensor<[M, K], f32> {cake.name = "a"},
                  %b: !cake.tensor<[K, N], f32> {cake.name = "b"},
                  %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %kdim = cake.problem_size "K"
  %tid = cake.thread_id x
  %bn = cake.block_id x
  %bm = cake.block_id y
  %tx = arith.remui %tid, %c16 : index
  %ty = arith.divui %tid, %c16 : index
  %row0 = arith.muli %bm, %c64 : index
  %col0 = arith.muli %bn, %c64 : index
  %at = cake.alloc_smem : !cake.smem<2x16x64xf32, pad = 4>
  %bs = cake.alloc_smem : !cake.smem<2x16x64xf32>

  %acc:4 = scf.for %k0 = %c0 to %kdim step %c16
      iter_args(%acc0 = %zero, %acc1 = %zero, %acc2 = %zero, %acc3 = %zero)
      -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
    %kb = arith.divui %k0, %c16 : index
    %sl = arith.remui %kb, %c2 : index
    // Stage the tiles: 1024 elements of each, 4 per thread.
    scf.for %r = %c0 to %c4 step %c1 {
      %rs = arith.muli %r, %c256 : index
      %e = arith.addi %tid, %rs : index
      // A[row0 + e / 16, k0 + e % 16] -> at[e % 16, e / 16]
      %ar = arith.divui %e, %c16 : index
      %ak = arith.remui %e, %c16 : index
      %gar = arith.addi %row0, %ar : index
      %gak = arith.addi %k0, %ak : index
      %av = cake.load %a[%gar, %gak] masked : !cake.tensor<[M, K], f32> -> f32
      cake.store %av, %at[%sl, %ak, %ar] : f32, !cake.smem<2x16x64xf32, pad = 4>
      // B[k0 + e / 64, col0 + e % 64] -> bs[e / 64, e % 64]
      %bk = arith.divui %e, %c64 : index
      %bc = arith.remui %e, %c64 : index
      %gbk = arith.addi %k0, %bk : index
      %gbc = arith.addi %col0, %bc : index
      %bv = cake.load %b[%gbk, %gbc] masked : !cake.tensor<[K, N], f32> -> f32
      cake.store %bv, %bs[%sl, %bk, %bc] : f32, !cake.smem<2x16x64xf32>
    }
    cake.barrier
    %ty4 = arith.muli %ty, %c4 : index
    %tx4 = arith.muli %tx, %c4 : index
    %next:4 = scf.for %kk = %c0 to %c16 step %c1
        iter_args(%s0 = %acc0, %s1 = %acc1, %s2 = %acc2, %s3 = %acc3)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %av = cake.load %at[%sl, %kk, %ty4] : !cake.smem<2x16x64xf32, pad = 4> -> vector<4xf32>
      %bv = cake.load %bs[%sl, %kk, %tx4] : !cake.smem<2x16x64xf32> -> vector<4xf32>
      %a0 = vector.extract %av[0] : f32 from vector<4xf32>
      %a1 = vector.extract %av[1] : f32 from vector<4xf32>
      %a2 = vector.extract %av[2] : f32 from vector<4xf32>
      %a3 = vector.extract %av[3] : f32 from vector<4xf32>
      %b0 = vector.broadcast %a0 : f32 to vector<4xf32>
      %b1 = vector.broadcast %a1 : f32 to vector<4xf32>
      %b2 = vector.broadcast %a2 : f32 to vector<4xf32>
      %b3 = vector.broadcast %a3 : f32 to vector<4xf32>
      %n0 = vector.fma %b0, %bv, %s0 : vector<4xf32>
      %n1 = vector.fma %b1, %bv, %s1 : vector<4xf32>
      %n2 = vector.fma %b2, %bv, %s2 : vector<4xf32>
      %n3 = vector.fma %b3, %bv, %s3 : vector<4xf32>
      scf.yield %n0, %n1, %n2, %n3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    }
    scf.yield %next#0, %next#1, %next#2, %next#3
        : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
  }

  // Epilogue: element-wise masked stores (any N).
  %ty4 = arith.muli %ty, %c4 : index
  %tx4 = arith.muli %tx, %c4 : index
  %crow = arith.addi %row0, %ty4 : index
  %ccol = arith.addi %col0, %tx4 : index
  %crow1 = arith.addi %crow, %c1 : index
  %crow2 = arith.addi %crow, %c2 : index
  %crow3 = arith.addi %crow, %c3 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %col = arith.addi %ccol, %j : index
    %e0 = vector.extract %acc#0[%j] : f32 from vector<4xf32>
    %e1 = vector.extract %acc#1[%j] : f32 from vector<4xf32>
    %e2 = vector.extract %acc#2[%j] : f32 from vector<4xf32>
    %e3 = vector.extract %acc#3[%j] : f32 from vector<4xf32>
    cake.store %e0, %c[%crow, %col] masked : f32, !cake.tensor<[M, N], f32>
    cake.store %e1, %c[%crow1, %col] masked : f32, !cake.tensor<[M, N], f32>
    cake.store %e2, %c[%crow2, %col] masked : f32, !cake.tensor<[M, N], f32>
    cake.store %e3, %c[%crow3, %col] masked : f32, !cake.tensor<[M, N], f32>
  }
  cake.return
}
