// The trust issue's 'timer' hack for the softmax task (agent/tasks/softmax.json).
// cake-verify with the task's interface rejects it: [ops.timer].
cake.kernel @softmax(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %t = nvvm.read.ptx.sreg.globaltimer : i64
  %f = arith.sitofp %t : i64 to f32
  cake.store %f, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
