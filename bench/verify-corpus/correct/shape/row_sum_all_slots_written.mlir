// CORPUS: verdict=correct class=shape
// GPU: none (correct)
// WHY: every thread writes its partial (0 when the row has no element for it) before the tree.
// SIZES: M=50000,N=100
// H200: ok (ran; every output element written)

cake.kernel @row_sum_all_slots_written(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %part = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %s = scf.for %j = %tid to %n step %c256 iter_args(%a = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  cake.store %s, %part[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  // Warp w sums slots 32 w .. 32 w + 31, warp 0 then sums the 8 warp totals.
  %w32 = arith.muli %warp, %c32 : index
  %slot = arith.addi %w32, %lane : index
  %p = cake.load %part[%slot] : !cake.smem<256xf32> -> f32
  %ws = cake.warp_reduce sum %p : f32
  cake.barrier
  %l0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %l0 {
    cake.store %ws, %part[%warp] : f32, !cake.smem<256xf32>
  }
  cake.barrier
  %w0 = arith.cmpi eq, %warp, %c0 : index
  scf.if %w0 {
    %c8 = arith.constant 8 : index
    %in8 = arith.cmpi ult, %lane, %c8 : index
    %q = scf.if %in8 -> (f32) {
      %t = cake.load %part[%lane] : !cake.smem<256xf32> -> f32
      scf.yield %t : f32
    } else {
      scf.yield %zero : f32
    }
    %total = cake.warp_reduce sum %q : f32
    %t0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %t0 {
      cake.store %total, %y[%row] masked : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}
