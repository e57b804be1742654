// Written for session 36's second probe of the verifier (a correct, unusual kernel): no finding (a false
// alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: Jacobi smoothing with ping-pong smem buffers (2x256, block 256) in an scf.while whose trip count iters[row] is loaded from global memory (data-dependent but uniform: every thread loads the same element). One barrier per sweep suffices: sweep i reads slot i%2 (written before sweep i-1's barrier) and writes slot (i+1)%2, last read in sweep i-1 before that same barrier.
cake.kernel @jacobi_pingpong(%x: !cake.tensor<[M, 256], f32> {cake.name = "x"},
                             %iters: !cake.tensor<[M], i32> {cake.name = "iters"},
                             %y: !cake.tensor<[M, 256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c255 = arith.constant 255 : index
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 256], f32> -> f32
  cake.store %v0, %buf[%c0, %tid] : f32, !cake.smem<2x256xf32>
  %ni = cake.load %iters[%row] masked : !cake.tensor<[M], i32> -> i32
  %n = arith.index_cast %ni : i32 to index
  cake.barrier
  %lo = arith.cmpi eq, %tid, %c0 : index
  %hi = arith.cmpi eq, %tid, %c255 : index
  %tm1 = arith.subi %tid, %c1 : index
  %tp1 = arith.addi %tid, %c1 : index
  %l = arith.select %lo, %tid, %tm1 : index
  %r = arith.select %hi, %tid, %tp1 : index
  %fin = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %src = arith.remui %i, %c2 : index
    %i1 = arith.addi %i, %c1 : index
    %dst = arith.remui %i1, %c2 : index
    %a = cake.load %buf[%src, %l] : !cake.smem<2x256xf32> -> f32
    %b = cake.load %buf[%src, %tid] : !cake.smem<2x256xf32> -> f32
    %c = cake.load %buf[%src, %r] : !cake.smem<2x256xf32> -> f32
    %ac = arith.addf %a, %c : f32
    %acq = arith.mulf %ac, %quarter : f32
    %bh = arith.mulf %b, %half : f32
    %nv = arith.addf %acq, %bh : f32
    cake.store %nv, %buf[%dst, %tid] : f32, !cake.smem<2x256xf32>
    cake.barrier
    scf.yield %i1 : index
  }
  %fs = arith.remui %fin, %c2 : index
  %o = cake.load %buf[%fs, %tid] : !cake.smem<2x256xf32> -> f32
  cake.store %o, %y[%row, %tid] masked : f32, !cake.tensor<[M, 256], f32>
  cake.return
}
