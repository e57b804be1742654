// CORPUS: verdict=buggy class=race
// GPU: race (wrong result): level 64 reads slots 64..127 that level 128 may still be writing
// WHY: the barrier after the first tree level is missing.
// SIZES: N=1000000,B=3907
// H200: wrong result vs block_sum_tree_then_shuffle, seed 7: 3901 elements of 'out' differ, rel L2 0.5

cake.kernel @block_sum_tree_level_unsynced(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %out: !cake.tensor<[B], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %in128 = arith.cmpi ult, %tid, %c128 : index
  scf.if %in128 {
    %o128 = arith.addi %tid, %c128 : index
    %a128 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b128 = cake.load %s[%o128] : !cake.smem<256xf32> -> f32
    %p128 = arith.addf %a128, %b128 : f32
    cake.store %p128, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %in64 = arith.cmpi ult, %tid, %c64 : index
  scf.if %in64 {
    %o64 = arith.addi %tid, %c64 : index
    %a64 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b64 = cake.load %s[%o64] : !cake.smem<256xf32> -> f32
    %p64 = arith.addf %a64, %b64 : f32
    cake.store %p64, %s[%tid] : f32, !cake.smem<256xf32>
  }
  cake.barrier
  %in32 = arith.cmpi ult, %tid, %c32 : index
  scf.if %in32 {
    %o32 = arith.addi %tid, %c32 : index
    %a32 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b32 = cake.load %s[%o32] : !cake.smem<256xf32> -> f32
    %p32 = arith.addf %a32, %b32 : f32
    cake.store %p32, %s[%tid] : f32, !cake.smem<256xf32>
  }
  cake.barrier
  %w0 = arith.cmpi ult, %tid, %c32 : index
  scf.if %w0 {
    %q = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %qs = cake.warp_reduce sum %q : f32
    %l0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %l0 {
      cake.store %qs, %s[%c0] : f32, !cake.smem<256xf32>
    }
  }
  cake.barrier
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %r = cake.load %s[%c0] : !cake.smem<256xf32> -> f32
    cake.store %r, %out[%bid] masked : f32, !cake.tensor<[B], f32>
  }
  cake.return
}
