// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :30:9: error: 'cake.load' op [race.missing-barrier]
// BUG: softmax-style max broadcast, block 512: the tree reduction puts its barrier at the START of each level (which orders levels correctly), but there is none after the last level: thread 0 (warp 0) writes red[0] in the last level (s = 1) and then all 512 threads read red[0] as the row max, e.g. thread 32 (warp 1) reads red[0] with no barrier after thread 0's write.
cake.kernel @row_max_sub(%x: !cake.tensor<[M, 512], f32> {cake.name = "x"},
                         %y: !cake.tensor<[M, 512], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c256 = arith.constant 256 : index
  %row = cake.block_id x
  %tid = cake.thread_id x
  %red = cake.alloc_smem : !cake.smem<512xf32>
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 512], f32> -> f32
  cake.store %v, %red[%tid] : f32, !cake.smem<512xf32>
  scf.for %lvl = %c0 to %c9 step %c1 {
    cake.barrier
    %s = arith.shrui %c256, %lvl : index
    %act = arith.cmpi ult, %tid, %s : index
    scf.if %act {
      %o = arith.addi %tid, %s : index
      %a = cake.load %red[%tid] : !cake.smem<512xf32> -> f32
      %b = cake.load %red[%o] : !cake.smem<512xf32> -> f32
      %m = arith.maximumf %a, %b : f32
      cake.store %m, %red[%tid] : f32, !cake.smem<512xf32>
    }
  }
  %mx = cake.load %red[%c0] : !cake.smem<512xf32> -> f32
  %d = arith.subf %v, %mx : f32
  cake.store %d, %y[%row, %tid] masked : f32, !cake.tensor<[M, 512], f32>
  cake.return
}
