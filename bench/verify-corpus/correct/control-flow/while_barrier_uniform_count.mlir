// CORPUS: verdict=correct class=control-flow
// GPU: none (correct)
// WHY: the same loop with a uniform trip count (64 steps, elements past the thread's count read as
//      part of the row), so every thread reaches every barrier.
// SIZES: N=100000
// H200: ok (ran; every output element written)

cake.kernel @while_barrier_uniform_count(
    %cnt: !cake.tensor<[N], i32> {cake.name = "cnt"},
    %x: !cake.tensor<[N, 64], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c128 : index
  %g = arith.addi %base, %tid : index
  %n32 = cake.load %cnt[%g] masked : !cake.tensor<[N], i32> -> i32
  %n = arith.index_cast %n32 : i32 to index
  %mine = arith.minui %n, %c64 : index
  %nb1 = arith.addi %tid, %c1 : index
  %nb = arith.remui %nb1, %c128 : index
  %res:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %i, %c64 : index
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%ii: index, %s: f32):
    %v = cake.load %x[%g, %ii] masked : !cake.tensor<[N, 64], f32> -> f32
    cake.store %v, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %w = cake.load %stage[%nb] : !cake.smem<128xf32> -> f32
    %p = arith.mulf %v, %w : f32
    %s2 = arith.addf %s, %p : f32
    cake.barrier
    %in = arith.addi %ii, %c1 : index
    scf.yield %in, %s2 : index, f32
  }
  cake.store %res#1, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
