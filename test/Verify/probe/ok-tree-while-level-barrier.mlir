// The correct form of bug-tree-while-no-level-barrier.mlir (session 36): the tree reduction over
// an scf.while stride s = 128, 64, .., 1 with a barrier between the level's loads and its store
// and one after the store. Binding the while's iterations must not report it.
// RUN: cake-opt %s --cake-verify -o /dev/null
cake.kernel @rowsum_tree_w(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                           %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %tid = cake.thread_id x
  %red = cake.alloc_smem : !cake.smem<256xf32>
  %part = scf.for %j = %tid to %n step %c256 iter_args(%s = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %s2 = arith.addf %s, %v : f32
    scf.yield %s2 : f32
  }
  cake.barrier
  cake.store %part, %red[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %fin = scf.while (%s = %c128) : (index) -> index {
    %go = arith.cmpi ugt, %s, %c0 : index
    scf.condition(%go) %s : index
  } do {
  ^bb0(%s: index):
    %act = arith.cmpi ult, %tid, %s : index
    %v = scf.if %act -> (f32) {
      %o = arith.addi %tid, %s : index
      %a = cake.load %red[%tid] : !cake.smem<256xf32> -> f32
      %b = cake.load %red[%o] : !cake.smem<256xf32> -> f32
      %ab = arith.addf %a, %b : f32
      scf.yield %ab : f32
    } else {
      scf.yield %zero : f32
    }
    cake.barrier
    scf.if %act {
      cake.store %v, %red[%tid] : f32, !cake.smem<256xf32>
    }
    cake.barrier
    %s2 = arith.shrui %s, %c1 : index
    scf.yield %s2 : index
  }
  cake.barrier
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %r = cake.load %red[%c0] : !cake.smem<256xf32> -> f32
    cake.store %r, %out[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
