// 2^31 static elements: more than a 32-bit index build may address (index-bitwidth-invalid.mlir).
cake.kernel @big_static(%x: !cake.tensor<[65536, 32768], f16> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  cake.return
}
