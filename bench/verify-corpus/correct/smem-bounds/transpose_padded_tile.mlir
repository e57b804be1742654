// CORPUS: verdict=correct class=smem-bounds
// GPU: none (correct)
// WHY: one 128x129 f32 padded tile (66 KiB) for a transpose.
// SIZES: M=8192,N=8192
// H200: ok (ran; every output element written)

cake.kernel @transpose_padded_tile(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N, M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %tiles = cake.alloc_smem : !cake.smem<1x128x128xf32, pad = 1>
  %tid = cake.thread_id x
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %half = arith.divui %tid, %c128 : index
  %c = arith.remui %tid, %c128 : index
  %gc = arith.addi %n0, %c : index
  scf.for %r = %c0 to %c128 step %c2 {
    %rr = arith.addi %r, %half : index
    %gr = arith.addi %m0, %rr : index
    %v = cake.load %x[%gr, %gc] masked : !cake.tensor<[M, N], f32> -> f32
    cake.store %v, %tiles[%c0, %rr, %c] : f32, !cake.smem<1x128x128xf32, pad = 1>
  }
  cake.barrier
  scf.for %r = %c0 to %c128 step %c2 {
    %rr = arith.addi %r, %half : index
    %v = cake.load %tiles[%c0, %c, %rr] : !cake.smem<1x128x128xf32, pad = 1> -> f32
    %gr = arith.addi %n0, %rr : index
    %gcol = arith.addi %m0, %c : index
    cake.store %v, %y[%gr, %gcol] masked : f32, !cake.tensor<[N, M], f32>
  }
  cake.return
}
