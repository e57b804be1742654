// CORPUS: verdict=buggy class=shape
// GPU: wrong-result-for-some-shapes: N=1000004 leaves the last 580 elements unchanged; N=1048576 works
// WHY: the grid is N floordiv 1024, so the ragged tail gets no block.
// SIZES: N=1000004
// H200: wrong result vs axpy_masked, seed 7: 580 elements of 'y' differ, rel L2 0.021

cake.kernel @axpy_grid_floor(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n floordiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %ax = arith.mulf %a, %av : vector<4xf32>
  %s = arith.addf %ax, %b : vector<4xf32>
  cake.store %s, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
