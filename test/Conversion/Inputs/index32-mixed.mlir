// Two kernels of one module that disagree on their index width (index-bitwidth-attribute.mlir).
cake.kernel @wide(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>} {
  cake.return
}
cake.kernel @narrow(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, index_bitwidth = 32 : i64} {
  cake.return
}
