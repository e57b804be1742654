// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.tma-store-uncommitted), lib/Verify/VerifyAsync.cpp (checkProtocol):
//   with a later wait:  "add cake.tma.store_commit after the last copy of the group, before this wait"
//   with none:          "..., then cake.tma.store_wait 0 before the data is used or the kernel ends"
// Kernels 1 and 2: the first case and its fix. Kernels 3 and 4: the second. (The second hint used
// to stop at the commit, which left a commit nothing waits for: [async.tma-store-no-wait],
// [tma.store-pending-at-exit].)

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
    // expected-error @+2 {{'cake.tma.store' op [async.tma-store-uncommitted] expected a cake.tma.store_commit after this TMA store before the wait: no wait covers an uncommitted copy}}
    // expected-note @+1 {{fix: add cake.tma.store_commit after the last copy of the group, before this wait}}
    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
    // expected-note @+1 {{the next wait is here}}
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
    // expected-error @+2 {{'cake.tma.store' op [async.tma-store-uncommitted] expected a cake.tma.store_commit after this TMA store before the kernel ends: no wait covers an uncommitted copy}}
    // expected-note @+1 {{fix: add cake.tma.store_commit after the last copy of the group, then cake.tma.store_wait 0 before the data is used or the kernel ends}}
    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
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
