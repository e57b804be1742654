// CORPUS: verdict=correct class=race
// GPU: none (correct)
// WHY: the k loop ends every iteration with a barrier, so the epilogue may rewrite the staging buffer.
// SIZES: R=5000,K=3000
// H200: ok (ran; every output element written)

cake.kernel @kloop_then_epilogue_reuse(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c128 : index
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %rbase = arith.muli %bid, %c128 : index
  %row = arith.addi %rbase, %tid : index
  %rev = arith.subi %c127, %tid : index
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%s = %zero) -> (f32) {
    %k0 = arith.muli %kt, %c128 : index
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %kk = arith.addi %k0, %rev : index
    %w = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
    %e = cake.load %a[%row, %kk] masked : !cake.tensor<[R, K], f32> -> f32
    %p = arith.mulf %w, %e : f32
    %s2 = arith.addf %s, %p : f32
    cake.barrier
    scf.yield %s2 : f32
  }
  // Epilogue: normalise by the block's mean result, staged through the same buffer.
  cake.store %acc, %stage[%tid] : f32, !cake.smem<128xf32>
  cake.barrier
  %o = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
  %q = arith.subf %acc, %o : f32
  cake.store %q, %y[%row] masked : f32, !cake.tensor<[R], f32>
  cake.return
}
