// Tunable seed of examples/vector_add.mlir: z = x + y. Double-brace placeholders are filled from the task's
// tunables (agent/tasks/vector_add.json): BLOCK threads per block, VEC f32 lanes per access (4 B to
// 16 B), UNROLL accesses per thread (strided by BLOCK * VEC so each pass stays coalesced). Masked
// accesses cover any N.
cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: {{BLOCK}}>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv {{BLOCK * VEC * UNROLL}})>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cvec = arith.constant {{VEC}} : index
  %ctile = arith.constant {{BLOCK * VEC * UNROLL}} : index
  %cstride = arith.constant {{BLOCK * VEC}} : index
  %cunroll = arith.constant {{UNROLL}} : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %ctile : index
  %off = arith.muli %tid, %cvec : index
  %i0 = arith.addi %base, %off : index
  scf.for %u = %c0 to %cunroll step %c1 {
    %uo = arith.muli %u, %cstride : index
    %i = arith.addi %i0, %uo : index
    %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<{{VEC}}xf32>
    %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<{{VEC}}xf32>
    %s = arith.addf %a, %b : vector<{{VEC}}xf32>
    cake.store %s, %z[%i] masked : vector<{{VEC}}xf32>, !cake.tensor<[N], f32>
  }
  cake.return
}
