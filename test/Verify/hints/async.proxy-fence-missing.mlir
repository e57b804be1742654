// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.proxy-fence-missing), lib/Verify/PathSimulation.cpp:1080:
//   "in every thread that writes the buffer, cake.fence.proxy_async after its writes and before
//    the cake.barrier that publishes them"
// Applied literally: cake.fence.proxy_async (in all threads) between the cake.store and the
// cake.barrier before the TMA store. Honest.

cake.kernel @tile_copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32, n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bx = cake.block_id x
  %by = cake.block_id y
  %m0 = arith.muli %bx, %c32 : index
  %n0 = arith.muli %by, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %gcol = arith.addi %n0, %cq : index
  %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
  // expected-note @+1 {{the generic write}}
  cake.store %v, %tile[%r, %cq] : vector<4xf32>, !cake.smem<32x32xf32>
  cake.barrier
  scf.if %t0 {
    // expected-error @+4 {{'cake.tma.store' op [async.proxy-fence-missing] expected a cake.fence.proxy_async in thread 0 after its write to this buffer and before what orders the write before this async-proxy read, with M=200,N=200: the read may not see the write}}
    // expected-note @+3 {{fix: in every thread that writes the buffer, cake.fence.proxy_async after its writes and before the cake.barrier that publishes them}}
    // expected-error @+2 {{'cake.tma.store' op [rule.tma-store-needs-fence] expected a cake.fence.proxy_async between the shared-memory stores and this TMA store: the async proxy may read stale data}}
    // expected-note @+1 {{fix: add cake.fence.proxy_async after the last cake.store (in every writing thread), then a barrier, before the TMA store}}
    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
    cake.tma.store_commit
    cake.tma.store_wait 0
  }
  cake.return
}

// -----

cake.kernel @tile_copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32, n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %bx = cake.block_id x
  %by = cake.block_id y
  %m0 = arith.muli %bx, %c32 : index
  %n0 = arith.muli %by, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %gcol = arith.addi %n0, %cq : index
  %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
  cake.store %v, %tile[%r, %cq] : vector<4xf32>, !cake.smem<32x32xf32>
  cake.fence.proxy_async
  cake.barrier
  scf.if %t0 {
    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
    cake.tma.store_commit
    cake.tma.store_wait 0
  }
  cake.return
}
