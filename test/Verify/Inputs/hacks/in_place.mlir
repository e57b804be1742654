// The trust issue's 'in_place' hack for the softmax task (agent/tasks/softmax.json).
// cake-verify with the task's interface rejects it: [interface.input-written].
cake.kernel @softmax(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f32> -> f32
  cake.store %v, %x[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
