// CORPUS: verdict=correct class=smem-bounds
// GPU: none (correct)
// WHY: every thread reads s[255], the block's last staged element.
// SIZES: N=1048576
// H200: ok (ran; every output element written)

cake.kernel @normalise_by_last_element(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %clast = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  // Normalise by the block's last element.
  %last = cake.load %s[%clast] : !cake.smem<256xf32> -> f32
  %q = arith.divf %v, %last : f32
  cake.store %q, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
