// CORPUS: verdict=buggy class=shape
// GPU: wrong-result-for-some-shapes: N=1000004 reads and writes past the end in the last block
//      (illegal address or corruption); N=1048576 works
// WHY: the accesses are not masked but the grid rounds up.
// SIZES: N=1000004
// H200: no difference from axpy_masked in 5 run(s) (seeds 7,8,9,10,11)

cake.kernel @axpy_unmasked_tail(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  %a = cake.load %x[%i] : !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] : !cake.tensor<[N], f32> -> vector<4xf32>
  %ax = arith.mulf %a, %av : vector<4xf32>
  %s = arith.addf %ax, %b : vector<4xf32>
  cake.store %s, %y[%i] : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
