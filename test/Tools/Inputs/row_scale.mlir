// A 2-D kernel with named parameters, a scalar, a symbolic row stride and a shared buffer; the
// cake-translate tests read it.
cake.kernel @row_scale(%x: !cake.tensor<[M, D], f16> {cake.name = "x"}, %alpha: f32 {cake.name = "alpha"},
                       %y: !cake.tensor<[M, D], f16> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64, 2>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m ceildiv 2, d ceildiv 512)>, dynamic_smem = 256 : i64} {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %buf = cake.alloc_smem : !cake.smem<2x512xf16, swizzle = 128>
  %t = cake.thread_id x
  %ty = cake.thread_id y
  %bx = cake.block_id x
  %by = cake.block_id y
  %r0 = arith.muli %bx, %c8 : index
  %row = arith.addi %r0, %ty : index
  %c0 = arith.muli %by, %c512 : index
  %c1 = arith.muli %t, %c8 : index
  %col = arith.addi %c0, %c1 : index
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, D], f16> -> vector<8xf16>
  cake.store %v, %buf[%ty, %c1] : vector<8xf16>, !cake.smem<2x512xf16, swizzle = 128>
  cake.barrier
  %w = cake.load %buf[%ty, %c1] : !cake.smem<2x512xf16, swizzle = 128> -> vector<8xf16>
  %a16 = arith.truncf %alpha : f32 to f16
  %s = vector.broadcast %a16 : f16 to vector<8xf16>
  %p = arith.mulf %w, %s : vector<8xf16>
  cake.store %p, %y[%row, %col] masked : vector<8xf16>, !cake.tensor<[M, D], f16>
  cake.return
}
