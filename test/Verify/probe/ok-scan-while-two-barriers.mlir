// The correct form of bug-scan-while-no-mid-barrier.mlir (session 36): each level's sum is held
// in a register across a barrier before the store, and a second barrier ends the level.
// RUN: cake-opt %s --cake-verify -o /dev/null
cake.kernel @scan_while(%x: !cake.tensor<[M, T], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M, T], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "T"],
                grid = affine_map<()[m, t] -> (m)>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, T], f32> -> f32
  cake.store %v0, %buf[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %last = scf.while (%s = %c1) : (index) -> index {
    %go = arith.cmpi ult, %s, %c256 : index
    scf.condition(%go) %s : index
  } do {
  ^bb0(%s: index):
    %act = arith.cmpi uge, %tid, %s : index
    %sum = scf.if %act -> (f32) {
      %src = arith.subi %tid, %s : index
      %a = cake.load %buf[%src] : !cake.smem<256xf32> -> f32
      %b = cake.load %buf[%tid] : !cake.smem<256xf32> -> f32
      %ab = arith.addf %a, %b : f32
      scf.yield %ab : f32
    } else {
      scf.yield %zero : f32
    }
    cake.barrier
    scf.if %act {
      cake.store %sum, %buf[%tid] : f32, !cake.smem<256xf32>
    }
    cake.barrier
    %s2 = arith.muli %s, %c2 : index
    scf.yield %s2 : index
  }
  %r = cake.load %buf[%tid] : !cake.smem<256xf32> -> f32
  cake.store %r, %out[%row, %tid] masked : f32, !cake.tensor<[M, T], f32>
  cake.return
}
