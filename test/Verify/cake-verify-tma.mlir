// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-tma -o /dev/null

// TMA copies against the kernel: multicast masks within the cluster, coordinates that a loop
// advances by at least the box.

// A mask naming rank 2 in a cluster of 2 blocks.
cake.kernel @mask_beyond_cluster(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (2)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the mask is defined here}}
  %c5 = arith.constant 5 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.tma.load' op [tma.multicast-mask] expected a multicast mask of the cluster's 2 block ranks (a nonzero subset of 0x3), got 0x5}}
  // expected-note @+1 {{fix: set the mask to the ranks that wait for this copy's bytes, a nonzero subset of 0x3 (bit r = block rank r of the cluster; 0x3 when every block of the cluster expects the tile), or enlarge the cluster}}
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %c5
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// An empty mask copies nowhere (and nothing completes on the barriers).
cake.kernel @mask_zero(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2, 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (4)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the mask is defined here}}
  %m = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{[tma.multicast-mask] expected a multicast mask of the cluster's 4 block ranks (a nonzero subset of 0xF), got 0x0}}
  // expected-note @+1 {{fix: set the mask to the ranks that wait for this copy's bytes, a nonzero subset of 0xF}}
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %m
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// Valid: every rank of a cluster of 4 (2 x 2), and a mask that is not a constant.
cake.kernel @mask_ok(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2, 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %c15
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  %rank = cake.cluster_block_id x
  %m = arith.addi %rank, %c1 : index
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %m
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// A k loop whose tile (32) is half the box (64): each copy overlaps the previous one.
cake.kernel @stride_below_box(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %m0 = cake.block_id x
  %buf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-note @+1 {{the loop is here}}
  scf.for %kt = %c0 to %kdim step %c1 {
    %k0 = arith.muli %kt, %c32 : index
    // expected-warning @+2 {{'cake.tma.load' op [tma.coord-stride] coordinate 1 advances by 32 per iteration, less than the box's 64: consecutive iterations copy overlapping tiles}}
    // expected-note @+1 {{fix: advance the coordinate by the box extent 64 per iteration (tile size = box), or shrink the box to the tile}}
    cake.tma.load %ta[%m0, %k0], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  }
  cake.return
}

// -----

// The same through the loop step, for a TMA store.
cake.kernel @store_step_below_box(%c: !cake.tensor<[M, N], f32> {cake.name = "c"},
    %tc: !cake.tma<[M, N], f32, box [64, 32]> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %mdim = cake.problem_size "M"
  %buf = cake.alloc_smem : !cake.smem<64x32xf32>
  // expected-note @+1 {{the loop is here}}
  scf.for %m = %c0 to %mdim step %c16 {
    %m1 = arith.addi %m, %c16 : index
    // expected-warning @+2 {{[tma.coord-stride] coordinate 0 advances by 16 per iteration, less than the box's 64}}
    // expected-note @+1 {{fix: advance the coordinate by the box extent 64}}
    cake.tma.store %buf[], %tc[%m1, %c0] : !cake.smem<64x32xf32>, !cake.tma<[M, N], f32, box [64, 32]>
  }
  cake.tma.store_commit
  cake.tma.store_wait 0
  cake.return
}

// -----

// Valid: a k loop advancing by the box (64), a row coordinate invariant in the loop, and a
// coordinate advancing by more than the box (a split-k stride).
cake.kernel @stride_ok(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %bm = cake.block_id x
  %m0 = arith.muli %bm, %c128 : index
  %buf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  scf.for %kt = %c0 to %kdim step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    cake.tma.load %ta[%m0, %k0], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
    %k1 = arith.muli %c128, %kt : index
    cake.tma.load %ta[%m0, %k1], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  }
  cake.return
}

// -----

// TMA store groups along each thread's path. Valid: the issuer retires the group (store_wait 0)
// before it refills the buffer, and the other threads write only after the mbarrier phase that
// refill completes; a final wait before exit.
cake.kernel @store_groups_ordered(
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

// -----

// The refill does not wait for the previous tile's store group.
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
      // expected-error @+2 {{[tma.store-race] expected this write to the buffer to wait for the TMA store that reads it (thread 0's group, retired by a cake.tma.store_wait and then a block barrier), but in thread 0 with M=200,N=200 (iteration 1) nothing orders them}}
      // expected-note @+1 {{fix: in the issuing thread, cake.tma.store_wait with pending low enough to retire that group, then a cake.barrier}}
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

// No wait for the last store group before the block exits.
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
      // expected-error @+2 {{[tma.store-pending-at-exit] expected a cake.tma.store_wait to retire this store's group before the block exits, but in thread 0 with M=200,N=200 the group of iteration 6 is still reading shared memory at exit}}
      // expected-note @+1 {{fix: after the last store's commit, in the issuing thread: cake.tma.store_wait 0 (unconditionally, outside the loop)}}
      cake.tma.store %buf[], %ty[%m0, %n0] : !cake.smem<16x32xf32>, !cake.tma<[M, N], f32, box [16, 32]>
      cake.tma.store_commit
    }
  }
  cake.return
}

// -----

// The same along an scf.while tile loop. Valid: a wait before each reuse and one after the loop.
cake.kernel @while_tiles_waited(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t32 = arith.cmpi eq, %tid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  %jend = scf.while (%j = %c0) : (index) -> index {
    %go = arith.cmpi ult, %j, %ntiles : index
    scf.condition(%go) %j : index
  } do {
  ^bb0(%jj: index):
    %n0 = arith.muli %jj, %c32 : index
    %gcol = arith.addi %n0, %cq : index
    %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %s = arith.mulf %v, %av : vector<4xf32>
    scf.if %t0 {
      cake.tma.store_wait 0
    }
    cake.barrier
    cake.store %s, %tile[%r, %cq] : vector<4xf32>, !cake.smem<32x32xf32>
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
      cake.tma.store_commit
    }
    %jn = arith.addi %jj, %c1 : index
    scf.yield %jn : index
  }
  scf.if %t0 {
    cake.tma.store_wait 0
  }
  cake.return
}

// -----

// No wait after the scf.while loop.
cake.kernel @while_tiles_unwaited(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t32 = arith.cmpi eq, %tid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  %jend = scf.while (%j = %c0) : (index) -> index {
    %go = arith.cmpi ult, %j, %ntiles : index
    scf.condition(%go) %j : index
  } do {
  ^bb0(%jj: index):
    %n0 = arith.muli %jj, %c32 : index
    %gcol = arith.addi %n0, %cq : index
    %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %s = arith.mulf %v, %av : vector<4xf32>
    scf.if %t0 {
      cake.tma.store_wait 0
    }
    cake.barrier
    cake.store %s, %tile[%r, %cq] : vector<4xf32>, !cake.smem<32x32xf32>
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      // expected-error @+2 {{[tma.store-pending-at-exit] expected a cake.tma.store_wait to retire this store's group before the block exits}}
      // expected-note @+1 {{fix: after the last store's commit}}
      cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
      cake.tma.store_commit
    }
    %jn = arith.addi %jj, %c1 : index
    scf.yield %jn : index
  }
  scf.if %t0 {
    // (no final wait)
  }
  cake.return
}
