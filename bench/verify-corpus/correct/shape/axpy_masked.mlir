// CORPUS: verdict=correct class=shape
// GPU: none (correct)
// WHY: masked accesses and a ceildiv grid cover the ragged tail.
// SIZES: N=1000004
// H200: ok (ran; every output element written)

cake.kernel @axpy_masked(
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
  %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %ax = arith.mulf %a, %av : vector<4xf32>
  %s = arith.addf %ax, %b : vector<4xf32>
  cake.store %s, %y[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
