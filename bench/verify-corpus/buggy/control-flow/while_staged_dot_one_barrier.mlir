// CORPUS: verdict=buggy class=control-flow
// GPU: race (wrong result): the next step's stores overwrite entries other warps are still reading
// WHY: the missing second barrier of a tiled loop, in an scf.while.
// SIZES: R=5000,K=3000
// H200: no difference from while_staged_dot_two_barriers in 5 run(s) (seeds 7,8,9,10,11)

cake.kernel @while_staged_dot_one_barrier(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %rbase = arith.muli %bid, %c128 : index
  %row = arith.addi %rbase, %tid : index
  %rev = arith.subi %c127, %tid : index
  %res:2 = scf.while (%k = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %k, %kdim : index
    scf.condition(%go) %k, %acc : index, f32
  } do {
  ^bb0(%k0: index, %s: f32):
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %kk = arith.addi %k0, %rev : index
    %w = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
    %e = cake.load %a[%row, %kk] masked : !cake.tensor<[R, K], f32> -> f32
    %p = arith.mulf %w, %e : f32
    %s2 = arith.addf %s, %p : f32
    %kn = arith.addi %k0, %c128 : index
    scf.yield %kn, %s2 : index, f32
  }
  cake.store %res#1, %y[%row] masked : f32, !cake.tensor<[R], f32>
  cake.return
}
