// CORPUS: verdict=buggy class=race
// GPU: race (wrong result): the last 5 levels run in warp 0 without any barrier or __syncwarp, so
//      lanes may read partial sums their neighbours have not stored yet
// WHY: the classic warp-synchronous tail (no sync for strides below 32), invalid since Volta.
// SIZES: N=1000000,B=3907
// H200: wrong result vs block_sum_tree_then_shuffle, seed 7: 3907 elements of 'out' differ, rel L2 0.77

cake.kernel @block_sum_warp_synchronous_tail(
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
  cake.barrier
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
  %in16 = arith.cmpi ult, %tid, %c16 : index
  scf.if %in16 {
    %o16 = arith.addi %tid, %c16 : index
    %a16 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b16 = cake.load %s[%o16] : !cake.smem<256xf32> -> f32
    %p16 = arith.addf %a16, %b16 : f32
    cake.store %p16, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %in8 = arith.cmpi ult, %tid, %c8 : index
  scf.if %in8 {
    %o8 = arith.addi %tid, %c8 : index
    %a8 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b8 = cake.load %s[%o8] : !cake.smem<256xf32> -> f32
    %p8 = arith.addf %a8, %b8 : f32
    cake.store %p8, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %in4 = arith.cmpi ult, %tid, %c4 : index
  scf.if %in4 {
    %o4 = arith.addi %tid, %c4 : index
    %a4 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b4 = cake.load %s[%o4] : !cake.smem<256xf32> -> f32
    %p4 = arith.addf %a4, %b4 : f32
    cake.store %p4, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %in2 = arith.cmpi ult, %tid, %c2 : index
  scf.if %in2 {
    %o2 = arith.addi %tid, %c2 : index
    %a2 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b2 = cake.load %s[%o2] : !cake.smem<256xf32> -> f32
    %p2 = arith.addf %a2, %b2 : f32
    cake.store %p2, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %in1 = arith.cmpi ult, %tid, %c1 : index
  scf.if %in1 {
    %o1 = arith.addi %tid, %c1 : index
    %a1 = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %b1 = cake.load %s[%o1] : !cake.smem<256xf32> -> f32
    %p1 = arith.addf %a1, %b1 : f32
    cake.store %p1, %s[%tid] : f32, !cake.smem<256xf32>
  }
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %r = cake.load %s[%c0] : !cake.smem<256xf32> -> f32
    cake.store %r, %out[%bid] masked : f32, !cake.tensor<[B], f32>
  }
  cake.return
}
