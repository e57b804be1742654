// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :33:7: error: 'cake.store' op [race.missing-barrier]
// BUG: in-place 3-point smoothing repeated R times over a 128-float smem row with only one barrier per sweep (after the store): thread 32 (warp 1) reads buf[31] while thread 31 (warp 0) overwrites buf[31] in the same sweep (also thread 31 reads buf[32] that thread 32 writes).
cake.kernel @smooth_inplace(%x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
                            %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "R"],
                grid = affine_map<()[m, r] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %third = arith.constant 0.333333 : f32
  %reps = cake.problem_size "R"
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
  cake.store %v0, %buf[%tid] : f32, !cake.smem<128xf32>
  cake.barrier
  %lo = arith.cmpi ugt, %tid, %c0 : index
  %hi = arith.cmpi ult, %tid, %c127 : index
  %inner = arith.andi %lo, %hi : i1
  scf.for %it = %c0 to %reps step %c1 {
    scf.if %inner {
      %l = arith.subi %tid, %c1 : index
      %r = arith.addi %tid, %c1 : index
      %a = cake.load %buf[%l] : !cake.smem<128xf32> -> f32
      %b = cake.load %buf[%tid] : !cake.smem<128xf32> -> f32
      %c = cake.load %buf[%r] : !cake.smem<128xf32> -> f32
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      %m = arith.mulf %abc, %third : f32
      cake.store %m, %buf[%tid] : f32, !cake.smem<128xf32>
    }
    cake.barrier
  }
  %o = cake.load %buf[%tid] : !cake.smem<128xf32> -> f32
  cake.store %o, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}
