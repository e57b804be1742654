// 2^31 threads in grid dimension 0: more than a 32-bit index build may number
// (index-bitwidth-invalid.mlir).
cake.kernel @many_threads(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 1024>, symbols = ["N"],
                grid = affine_map<()[n] -> (2097152)>} {
  cake.return
}
