// A row sum over a [M, D] tensor with a loop over D: the generic kernel of specialize.mlir.
cake.kernel @row_sum(%x: !cake.tensor<[M, D], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %d = cake.problem_size "D"
  %m = cake.problem_size "M"
  %b = cake.block_id x
  %t = cake.thread_id x
  %base = arith.muli %b, %c32 : index
  %row = arith.addi %base, %t : index
  %inside = arith.cmpi ult, %row, %m : index
  scf.if %inside {
    %sum = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = cake.load %x[%row, %j] : !cake.tensor<[M, D], f32> -> f32
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    }
    cake.store %sum, %y[%row] : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
