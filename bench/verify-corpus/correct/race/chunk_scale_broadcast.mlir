// CORPUS: verdict=correct class=race
// GPU: none (correct)
// WHY: thread 0 stages each chunk's scale; barriers before the reads and before the next overwrite.
// SIZES: C=100000
// H200: ok (ran; every output element written)

cake.kernel @chunk_scale_broadcast(
    %x: !cake.tensor<[C, 256], f32> {cake.name = "x"},
    %scale: !cake.tensor<[C], f32> {cake.name = "scale"},
    %y: !cake.tensor<[C, 256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["C"],
                grid = affine_map<()[c] -> (c ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %sv = cake.alloc_smem : !cake.smem<1xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %c0base = arith.muli %bid, %c64 : index
  scf.for %j = %c0 to %c64 step %c1 {
    %ch = arith.addi %c0base, %j : index
    scf.if %t0 {
      %s = cake.load %scale[%ch] masked : !cake.tensor<[C], f32> -> f32
      cake.store %s, %sv[%c0] : f32, !cake.smem<1xf32>
    }
    cake.barrier
    %f = cake.load %sv[%c0] : !cake.smem<1xf32> -> f32
    %v = cake.load %x[%ch, %tid] masked : !cake.tensor<[C, 256], f32> -> f32
    %p = arith.mulf %v, %f : f32
    cake.store %p, %y[%ch, %tid] masked : f32, !cake.tensor<[C, 256], f32>
    cake.barrier
  }
  cake.return
}
