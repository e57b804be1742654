// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :37:10: error: 'cake.load' op [race.missing-barrier]
// BUG: block 256 stages a 32x32 f32 tile with cp.async (thread t copies tile[t/8][4*(t%8)..+3]), commits and waits 0, but has no cake.barrier after the wait: cp.async.wait only covers the thread's OWN copies, and the transposed read takes rows copied by the next warp, e.g. thread 0 (warp 0) reads tile[4][0], copied by thread 32 (warp 1), which may not have issued or completed its copy yet.
cake.kernel @transpose_cp(%x: !cake.tensor<[N, N], f32> {cake.name = "x"},
                          %y: !cake.tensor<[N, N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32, n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %by = cake.block_id y
  %r0 = arith.muli %by, %c32 : index
  %q0 = arith.muli %bx, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %cr = arith.divui %tid, %c8 : index
  %cq = arith.remui %tid, %c8 : index
  %cc = arith.muli %cq, %c4 : index
  %gr = arith.addi %r0, %cr : index
  %gc = arith.addi %q0, %cc : index
  cake.cp_async %x[%gr, %gc], %tile[%cr, %cc], bytes 16 masked : !cake.tensor<[N, N], f32>, !cake.smem<32x32xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  // read: output row q0 + tid%32, columns r0 + 4*((tid/32 + 1) mod 8) .. +3 (rows copied by the next warp)
  %orow = arith.remui %tid, %c32 : index
  %ow = arith.divui %tid, %c32 : index
  %ow1 = arith.addi %ow, %c1 : index
  %oseg = arith.remui %ow1, %c8 : index
  %oc = arith.muli %oseg, %c4 : index
  %gor = arith.addi %q0, %orow : index
  scf.for %j = %c0 to %c4 step %c1 {
    %src = arith.addi %oc, %j : index
    %e = cake.load %tile[%src, %orow] : !cake.smem<32x32xf32> -> f32
    %goc = arith.addi %r0, %src : index
    cake.store %e, %y[%gor, %goc] masked : f32, !cake.tensor<[N, N], f32>
  }
  cake.return
}
