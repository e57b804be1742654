// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.tma-store-wait-count), lib/Verify/VerifyAsync.cpp (checkProtocol):
//   "wait with pending 0"
// Applied literally: cake.tma.store_wait 0. Honest (one group committed; with several, see
// async.cp-async-wait-count: the same hint text is built by the same code).

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
    // expected-error @+2 {{'cake.tma.store' op [tma.store-pending-at-exit] expected a cake.tma.store_wait to retire this store's group before the block exits, but in thread 0 with M=200,N=200 the group of this store is still reading shared memory at exit}}
    // expected-note @+1 {{fix: after the last store's commit, in the issuing thread: cake.tma.store_wait 0 (unconditionally, outside the loop)}}
    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
    // expected-note @+1 {{a group is committed here}}
    cake.tma.store_commit
    // expected-error @+2 {{'cake.tma.store_wait' op [async.tma-store-wait-count] expected pending below the 1 groups committed before the first execution of this wait, got 1: it waits for no copy}}
    // expected-note @+1 {{fix: wait with pending 0}}
    cake.tma.store_wait 1
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
