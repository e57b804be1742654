// Written for session 36's second probe of the verifier (a correct, unusual kernel): no finding (a false
// alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: odd-even transposition sort of 128 keys by a 64-thread block: phase p, thread t compare-exchanges the pair (2t + p%2, 2t + p%2 + 1) when it is inside the array; pairs of one phase are disjoint, and the barrier after every phase orders each phase's stores before the next phase's overlapping loads (pair of thread t in an odd phase straddles threads t and t+1 of the even phase, in different warps for t = 31).
cake.kernel @oets128(%x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = cake.block_id x
  %tid = cake.thread_id x
  %keys = cake.alloc_smem : !cake.smem<128xf32>
  %hi = arith.addi %tid, %c64 : index
  %a0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
  %a1 = cake.load %x[%row, %hi] masked : !cake.tensor<[M, 128], f32> -> f32
  cake.store %a0, %keys[%tid] : f32, !cake.smem<128xf32>
  cake.store %a1, %keys[%hi] : f32, !cake.smem<128xf32>
  cake.barrier
  %t2 = arith.muli %tid, %c2 : index
  scf.for %p = %c0 to %c128 step %c1 {
    %off = arith.remui %p, %c2 : index
    %i = arith.addi %t2, %off : index
    %j = arith.addi %i, %c1 : index
    %inside = arith.cmpi ult, %j, %c128 : index
    scf.if %inside {
      %u = cake.load %keys[%i] : !cake.smem<128xf32> -> f32
      %v = cake.load %keys[%j] : !cake.smem<128xf32> -> f32
      %mn = arith.minimumf %u, %v : f32
      %mx = arith.maximumf %u, %v : f32
      cake.store %mn, %keys[%i] : f32, !cake.smem<128xf32>
      cake.store %mx, %keys[%j] : f32, !cake.smem<128xf32>
    }
    cake.barrier
  }
  %o0 = cake.load %keys[%tid] : !cake.smem<128xf32> -> f32
  %o1 = cake.load %keys[%hi] : !cake.smem<128xf32> -> f32
  cake.store %o0, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.store %o1, %y[%row, %hi] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}
