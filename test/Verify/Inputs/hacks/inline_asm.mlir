// The trust issue's 'inline_asm' hack for the softmax task (agent/tasks/softmax.json).
// cake-verify with the task's interface rejects it: [ops.inline-asm].
cake.kernel @softmax(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %v = llvm.inline_asm has_side_effects "mov.b32 $0, 0x3f800000;", "=f" : () -> f32
  cake.store %v, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
