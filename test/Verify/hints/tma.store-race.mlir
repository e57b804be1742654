// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tma.store-race), lib/Verify/PathSimulation.cpp:1035:
//   "in the issuing thread, cake.tma.store_wait with pending low enough to retire that group, then
//    a cake.barrier, before the buffer is written again; and publish writes with
//    cake.fence.proxy_async and a barrier before the store"
// The kernel (@refill_during_store of cake-verify-tma.mlir) refills the buffer with a TMA load
// while the previous tile's store may still read it. Applied literally: at the top of the loop,
// scf.if %t0 { cake.tma.store_wait 0 } and cake.barrier (the writes are already published with a
// fence and a barrier). Honest.

cake.kernel @refill_during_store(
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
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      // expected-error @+2 {{'cake.tma.load' op [tma.store-race] expected this write to the buffer to wait for the TMA store that reads it (thread 0's group, retired by a cake.tma.store_wait and then a block barrier), but in thread 0 with M=200,N=200 (iteration 1) nothing orders them}}
      // expected-note @+1 {{fix: in the issuing thread, cake.tma.store_wait with pending low enough to retire that group, then a cake.barrier, before the buffer is written again; and publish writes with cake.fence.proxy_async and a barrier before the store}}
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
      // expected-note @+1 {{the store reads the buffer here (iteration 0)}}
      cake.tma.store %buf[], %ty[%m0, %n0] : !cake.smem<16x32xf32>, !cake.tma<[M, N], f32, box [16, 32]>
      cake.tma.store_commit
    }
  }
  scf.if %t0 {
    // expected-note @+1 {{and is retired here}}
    cake.tma.store_wait 0
  }
  cake.return
}

// -----

cake.kernel @refill_during_store(
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
    }
    cake.barrier
    scf.if %t0 {
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
