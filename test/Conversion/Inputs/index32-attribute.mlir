// A kernel that asks for a 32-bit index itself (index-bitwidth-attribute.mlir).
cake.kernel @self_narrow(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>, index_bitwidth = 32 : i64} {
  %c128 = arith.constant 128 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %o = arith.muli %b, %c128 : index
  %i = arith.addi %o, %t : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %x[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
