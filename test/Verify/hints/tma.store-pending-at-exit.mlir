// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tma.store-pending-at-exit), lib/Verify/PathSimulation.cpp:1010:
//   "after the last store's commit, in the issuing thread: cake.tma.store_wait 0 (unconditionally,
//    outside the loop)"
// Applied literally: scf.if %t0 { cake.tma.store_wait 0 } after the tile loop (thread 0 issues
// the stores). Honest. The kernel is @no_final_wait of cake-verify-tma.mlir.

cake.kernel @no_final_wait(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c16 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  scf.for %j = %c0 to %ntiles step %c1 {
    %n0 = arith.muli %j, %c32 : index
    %ph = arith.remui %j, %c2 : index
    scf.if %t0 {
      cake.tma.store_wait 0
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %n0], %buf[], %bar[%c0]
          : !cake.tma<[M, N], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %v = cake.load %buf[%r, %col] : !cake.smem<16x32xf32> -> vector<4xf32>
    %relu = arith.maximumf %v, %zero : vector<4xf32>
    cake.store %relu, %buf[%r, %col] : vector<4xf32>, !cake.smem<16x32xf32>
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      // expected-error @+2 {{'cake.tma.store' op [tma.store-pending-at-exit] expected a cake.tma.store_wait to retire this store's group before the block exits, but in thread 0 with M=200,N=200 the group of iteration 6 is still reading shared memory at exit}}
      // expected-note @+1 {{fix: after the last store's commit, in the issuing thread: cake.tma.store_wait 0 (unconditionally, outside the loop)}}
      cake.tma.store %buf[], %ty[%m0, %n0] : !cake.smem<16x32xf32>, !cake.tma<[M, N], f32, box [16, 32]>
      cake.tma.store_commit
    }
  }
  cake.return
}

// -----

cake.kernel @no_final_wait(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c16 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  scf.for %j = %c0 to %ntiles step %c1 {
    %n0 = arith.muli %j, %c32 : index
    %ph = arith.remui %j, %c2 : index
    scf.if %t0 {
      cake.tma.store_wait 0
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %n0], %buf[], %bar[%c0]
          : !cake.tma<[M, N], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %v = cake.load %buf[%r, %col] : !cake.smem<16x32xf32> -> vector<4xf32>
    %relu = arith.maximumf %v, %zero : vector<4xf32>
    cake.store %relu, %buf[%r, %col] : vector<4xf32>, !cake.smem<16x32xf32>
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      cake.tma.store %buf[], %ty[%m0, %n0] : !cake.smem<16x32xf32>, !cake.tma<[M, N], f32, box [16, 32]>
      cake.tma.store_commit
    }
  }
  scf.if %t0 {
    cake.tma.store_wait 0
  }
  cake.return
}
