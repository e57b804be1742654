// A buggy kernel written for session 32's probe of the verifier, which it missed then: the
// guard's executors depend on the loop counter, now evaluated under the bound iterations.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :34:12: error: 'cake.load' op [race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads in the previous iteration of the loop: thread 0 (warp 0) reads element [64], which thread 64 (warp 2) writes one iteration earlier, with no barrier in between
// CHECK: :36:7: note: the write in the previous iteration is here
// BUG: no barrier between tree levels (scf.for over 8 levels, s = 128 >> lvl): level lvl+1 thread t reads red[t + s/2] written by another warp in level lvl.
cake.kernel @rowsum_tree(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                         %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %tid = cake.thread_id x
  %red = cake.alloc_smem : !cake.smem<256xf32>
  %part = scf.for %j = %tid to %n step %c256 iter_args(%s = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] : !cake.tensor<[M, N], f32> -> f32
    %s2 = arith.addf %s, %v : f32
    scf.yield %s2 : f32
  }
  cake.store %part, %red[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  scf.for %lvl = %c0 to %c8 step %c1 {
    %s = arith.shrui %c128, %lvl : index
    %act = arith.cmpi ult, %tid, %s : index
    scf.if %act {
      %o = arith.addi %tid, %s : index
      %a = cake.load %red[%tid] : !cake.smem<256xf32> -> f32
      %b = cake.load %red[%o] : !cake.smem<256xf32> -> f32
      %ab = arith.addf %a, %b : f32
      cake.store %ab, %red[%tid] : f32, !cake.smem<256xf32>
    }
  }
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %r = cake.load %red[%c0] : !cake.smem<256xf32> -> f32
    cake.store %r, %out[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
