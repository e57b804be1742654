// A vector op the CAKE lowering does not convert (a 1-D multi_reduction): cake-translate names it.
cake.kernel @k(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %tid = cake.thread_id x
  %v = cake.load %y[%tid] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %f0 = arith.constant 0.0 : f32
  %m = vector.multi_reduction <add>, %v, %f0 [0] : vector<4xf32> to f32
  %s = vector.broadcast %m : f32 to vector<2xf32>
  cake.store %s, %y[%tid] masked : vector<2xf32>, !cake.tensor<[N], f32>
  cake.return
}
