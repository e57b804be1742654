// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-mbarrier -o /dev/null

// cake-verify-mbarrier: a producer/consumer ring over two explicit mbarriers (full and empty),
// and one bug per case.

// Valid: full barrier 0 (one expect-tx arrival plus the copy's bytes), empty barrier 1 (128
// consumer arrivals), parities that alternate with the iteration.
cake.kernel @valid(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// Barrier 1 is never initialized.
cake.kernel @uninitialized(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  // expected-note @+1 {{the mbarriers are allocated here}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{[mbarrier.uninitialized] expected mbarrier 1 to be initialized by cake.mbarrier.init before use}}
            // expected-note @+1 {{fix: in one thread (e.g. under thread_id == 0) add cake.mbarrier.init %bars[1], count <arriving threads> and cake.fence.mbarrier_init, then a cake.barrier before the first use}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// Two threads initialize the barriers.
cake.kernel @init_threads(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi ult, %tid, %c2 : index
  scf.if %t0 {
    // expected-error @+2 {{[mbarrier.init-threads] expected one thread to initialize the mbarrier, got 2}}
    // expected-note @+1 {{fix: guard the init with scf.if on thread_id x == 0}}
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-error @+2 {{[mbarrier.init-threads] expected one thread to initialize the mbarrier, got 2}}
    // expected-note @+1 {{fix: guard the init with scf.if on thread_id x == 0}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// No fence after the inits.
cake.kernel @init_fence(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-error @+2 {{[mbarrier.init-fence] expected cake.fence.mbarrier_init between the mbarrier initialization and its first use}}
    // expected-note @+1 {{fix: add cake.fence.mbarrier_init right after the init, in the same thread}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-note @+1 {{first use here}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// No block barrier between the inits and the first use by other threads.
cake.kernel @init_barrier(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-error @+2 {{[mbarrier.init-barrier] expected a block-wide barrier (cake.barrier) between the mbarrier initialization and its first use}}
    // expected-note @+1 {{fix: add cake.barrier after the init and fence, outside any role or thread-dependent condition}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    // expected-note @+1 {{fenced here}}
    cake.fence.mbarrier_init
  }
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-note @+1 {{first use here, possibly by another thread}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// The barriers are initialized after the roles use them.
cake.kernel @use_before_init(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{[mbarrier.uninitialized] expected the mbarrier to be initialized before this use}}
            // expected-note @+1 {{fix: move the cake.mbarrier.init (with its fence and barrier) before the first use}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-note @+1 {{initialized only here, later}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.return
}

// -----

// The expect-tx announces half the bytes of the copy.
cake.kernel @tx_bytes(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            // expected-error @+2 {{[mbarrier.tx-bytes] expected the transaction bytes to equal the 8192 bytes of the TMA copies completing on mbarrier 0, got 4096}}
            // expected-note @+1 {{fix: set bytes 8192}}
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 4096 : !cake.mbarriers<2>
            // expected-note @+1 {{copies 8192 bytes}}
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// No expect-tx: the copy's bytes are never expected and nothing arrives on barrier 0.
cake.kernel @tx_missing(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-note @+1 {{initialized here with 1 arrivals per phase}}
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            // expected-error @+2 {{[mbarrier.tx-missing] expected a cake.mbarrier.arrive_expect_tx announcing this copy's 8192 bytes on mbarrier 0}}
            // expected-note @+1 {{fix: before the copy, in the same thread: cake.mbarrier.arrive_expect_tx %bars[0], bytes <total bytes of the copies on it>}}
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        // expected-error @+2 {{[mbarrier.no-arrive] expected an arrival on mbarrier 0, but nothing arrives on it: the wait never returns}}
        // expected-note @+1 {{fix: arrive on the barrier (cake.mbarrier.arrive, or arrive_expect_tx before TMA copies) in the threads it counts, or wait on the barrier they arrive on}}
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// The consumers never arrive on the empty barrier: the producer's wait hangs.
cake.kernel @no_arrive(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-note @+1 {{initialized here with 128 arrivals per phase}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{[mbarrier.no-arrive] expected an arrival on mbarrier 1, but nothing arrives on it: the wait never returns}}
            // expected-note @+1 {{fix: arrive on the barrier (cake.mbarrier.arrive, or arrive_expect_tx before TMA copies) in the threads it counts, or wait on the barrier they arrive on}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
      }
    }
  }
  cake.return
}

// -----

// 128 consumer threads arrive on a barrier initialized for 256.
cake.kernel @arrival_count(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-error @+2 {{[mbarrier.arrival-count] expected 256 arrivals per phase (the init's count) to match the threads that arrive, got 128}}
    // expected-note @+1 {{fix: set count 128 on the init, or make exactly that many threads arrive (e.g. under cake.elect_one)}}
    cake.mbarrier.init %bars[%c1], count 256 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        // expected-note @+1 {{128 threads arrive here}}
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// The consumers wait on parity 0 in every iteration.
cake.kernel @parity_constant(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      // expected-note @+1 {{the loop is here}}
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        // expected-error @+2 {{[mbarrier.parity-constant] expected the wait's parity to alternate across iterations of the enclosing loop, but barrier and parity are loop-invariant}}
        // expected-note @+1 {{fix: wait on parity (iteration / stages) mod 2 (or use a cake.pipeline, which tracks phases itself)}}
        cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// Index 2 of an array of two.
cake.kernel @index_range(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  // expected-note @+2 {{the array of 2 mbarriers}}
  // expected-note @+1 {{the mbarriers are allocated here}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-note @+1 {{initialized here with 128 arrivals per phase}}
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{[mbarrier.no-arrive] expected an arrival on mbarrier 1, but nothing arrives on it: the wait never returns}}
            // expected-note @+1 {{fix: arrive on the barrier (cake.mbarrier.arrive, or arrive_expect_tx before TMA copies) in the threads it counts, or wait on the barrier they arrive on}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        // expected-error @+4 {{[mbarrier.index-range] expected a barrier index in [0, 2), got 2}}
        // expected-note @+3 {{fix: allocate more mbarriers (!cake.mbarriers<3>) or use an index below 2}}
        // expected-error @+2 {{[mbarrier.uninitialized] expected mbarrier 2 to be initialized by cake.mbarrier.init before use}}
        // expected-note @+1 {{fix: in one thread (e.g. under thread_id == 0) add cake.mbarrier.init %bars[2], count <arriving threads> and cake.fence.mbarrier_init, then a cake.barrier before the first use}}
        cake.mbarrier.arrive %bars[%c2] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// Valid: one elected lane per consumer warp arrives (4 arrivals, count 4).
cake.kernel @elected_arrive(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 4 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            cake.tma.load %ta[%c0, %i], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        %e = cake.elect_one
        scf.if %e {
          cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        }
      }
    }
  }
  cake.return
}

// -----

// Multicast: each block of the mask receives every block's copy, so a block's barrier expects
// the box once per set bit of a constant mask (here 2 x 2048 bytes). A cluster barrier publishes
// the initialization like a block barrier (valid: examples/tma_multicast.mlir).
cake.kernel @multicast_ok(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %buf = cake.alloc_smem : !cake.smem<2x16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  scf.if %first {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
    cake.tma.load %tx[%c0, %c0], %buf[%rank], %bar[%c0] multicast %c3
        : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  cake.cluster_barrier
  cake.return
}

// -----

// The same expecting only this block's own box.
cake.kernel @multicast_tx_bytes(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %buf = cake.alloc_smem : !cake.smem<2x16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  scf.if %first {
    // Not judged here: in a 1-D cluster cake-verify-cluster accounts who issues each multicast
    // (test/Verify/cake-verify-cluster.mlir reports this case as cluster.multicast-bytes).
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
    cake.tma.load %tx[%c0, %c0], %buf[%rank], %bar[%c0] multicast %c3
        : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  cake.cluster_barrier
  cake.return
}

// -----

// Valid: a ring's barriers initialized with constant indices and used with a computed one
// (`kt mod 2`, whose every value is initialized).
cake.kernel @ring_constant_inits() attributes {target = "sm_90a", block = array<i64: 128>,
                                               symbols = ["K"], grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c2 : index
    %round = arith.divui %kt, %c2 : index
    %phase = arith.remui %round, %c2 : index
    cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<2>
    cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<2>
  }
  cake.return
}

// -----

// The same ring with only barrier 0 initialized: `kt mod 2` also reaches barrier 1.
cake.kernel @ring_partly_initialized() attributes {target = "sm_90a", block = array<i64: 128>,
                                                   symbols = ["K"], grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the mbarriers are allocated here}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c2 : index
    %round = arith.divui %kt, %c2 : index
    %phase = arith.remui %round, %c2 : index
    // expected-error @+2 {{[mbarrier.uninitialized] expected mbarrier ? to be initialized by cake.mbarrier.init before use}}
    // expected-note @+1 {{fix: in one thread}}
    cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<2>
    cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<2>
  }
  cake.return
}

// -----

// The phases each thread waits for, simulated along its path (parity-sequence, parity-initial).
// Valid: a 2-slot ring, consumers waiting for round parity (kt / 2) % 2, the producer for its inverse.
cake.kernel @ring_parities(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// The consumers' parity alternates with the iteration, not the round: slot 0's second use waits
// for the phase its first already waited for.
cake.kernel @parity_from_iteration(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        %kparity = arith.remui %kt, %c2 : index
        // expected-error @+2 {{[mbarrier.parity-sequence] expected parity 1 (the phase after the one its previous wait on barrier 0 waited for), got 0: thread 32 with M=200,K=200, wait 2 on that barrier (iteration 2)}}
        // expected-note @+1 {{fix: count this thread's uses of each barrier across every loop}}
        cake.mbarrier.wait %bars[%slot], %kparity : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// The consumers wait with the producer's (inverted) parity: the first wait passes before the copy.
cake.kernel @consumer_parity_inverted(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        // expected-error @+2 {{[mbarrier.parity-initial] expected the first wait on barrier 0 to wait for its first phase (parity 0), got parity 1 in thread 32 with M=200,K=200: it passes at once, before the data its phase publishes}}
        // expected-note @+1 {{fix: wait with parity (use / stages) % 2, starting at 0}}
        cake.mbarrier.wait %bars[%slot], %free : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// Arrivals over a whole run against the phases waited for: barrier 2 counts the block (160)
// while the 128 consumer threads arrive.
cake.kernel @empty_count_block(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  // expected-note @+1 {{the mbarriers are allocated here}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 160 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          // expected-error @+2 {{[mbarrier.arrival-total] expected at least 800 arrivals on barrier 2 (count 160, 5 phases waited for), got 768 with M=333,K=333: the last phases never complete (a hang)}}
          // expected-note @+1 {{fix: make the init count equal the threads that arrive per phase}}
          cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// Every thread arrives twice in one phase: the loop around the arrival has no wait or barrier,
// so its iterations share the phase and 2 x 128 arrivals meet a count of 128.
cake.kernel @arrive_in_sync_free_loop(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-error @+2 {{[mbarrier.arrival-count] expected 128 arrivals per phase (the init's count) to match the threads that arrive, got 256}}
    // expected-note @+1 {{fix: set count 256 on the init, or make exactly that many threads arrive (e.g. under cake.elect_one)}}
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %h = %c0 to %c2 step %c1 {
    // expected-note @+1 {{128 threads arrive here, 2 times per phase}}
    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Correct: the same loop with the wait inside it; each iteration is its own phase.
cake.kernel @arrive_and_wait_per_iteration(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %h = %c0 to %c2 step %c1 {
    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
    cake.mbarrier.wait %bar[%c0], %h : !cake.mbarriers<1>
  }
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// The producer waits on "empty" only in the first round (kt < 2, where the wait passes at once)
// and refills each stage from round 1 on while the consumers may still read it.
cake.kernel @refill_without_wait(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          %first = arith.cmpi ult, %kt, %c2 : index
          scf.if %first {
            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          }
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          // expected-error @+2 {{[mbarrier.refill-unordered] expected a wait that orders this copy into stage 0 of the buffer after the other warps' reads of the previous copy into it (iteration 0), but none passes between them: thread 0 with M=200,K=200, iteration 2}}
          // expected-note @+1 {{fix: before refilling a stage, wait on the barrier its readers arrive on after reading it}}
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        %kparity = arith.remui %kt, %c2 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// Correct: the round-0 wait skipped (the stages start empty), every refill after a real wait.
cake.kernel @refill_after_wait(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 128 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c2 : index
          %round = arith.divui %kt, %c2 : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c2 : index
          %later = arith.cmpi uge, %kt, %c2 : index
          scf.if %later {
            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<4>
          }
          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<4>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.mbarriers<4>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c2 : index
        %round = arith.divui %kt, %c2 : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c2 : index
        %kparity = arith.remui %kt, %c2 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<4>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}

// -----

// A one-slot handoff whose producer waits on "empty" with parity kt % 2 instead of
// (kt % 2) ^ 1: its first wait needs the consumer's first release, and the consumer waits for
// the producer's first fill. Replaying both warps together, neither ever moves.
cake.kernel @handoff_producer_parity_not_inverted(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<1xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %kdim step %c1 {
          %parity = arith.remui %kt, %c2 : index
          // expected-error @+2 {{[deadlock.replay] expected this wait to pass, but replaying every warp together with K=200 leaves thread 0 here forever (iteration 0): barrier 1 has completed 0 phases (0 arrivals, count 32), so parity 0 never passes while the threads that could arrive are themselves waiting}}
          // expected-note @+1 {{fix: check the wait's parity}}
          cake.mbarrier.wait %bars[%c1], %parity : !cake.mbarriers<2>
          cake.store %one, %buf[%c0] : f32, !cake.smem<1xf32>
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "consumer" warps [1, 2) {
      %lane = cake.lane_id
      scf.for %kt = %c0 to %kdim step %c1 {
        %parity = arith.remui %kt, %c2 : index
        // expected-note @+1 {{thread 32 waits here (iteration 0)}}
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        %v = cake.load %buf[%c0] : !cake.smem<1xf32> -> f32
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        %t = arith.cmpi eq, %lane, %c0 : index
        scf.if %t {
          cake.store %v, %y[%kt] masked : f32, !cake.tensor<[K], f32>
        }
      }
    }
  }
  cake.return
}

// -----

// Correct: the producer's parity inverted, so its first wait passes (the slot starts empty).
cake.kernel @handoff_producer_parity_inverted(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<1xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %kdim step %c1 {
          %parity = arith.remui %kt, %c2 : index
          %free = arith.xori %parity, %c1 : index
          cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>
          cake.store %one, %buf[%c0] : f32, !cake.smem<1xf32>
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "consumer" warps [1, 2) {
      %lane = cake.lane_id
      scf.for %kt = %c0 to %kdim step %c1 {
        %parity = arith.remui %kt, %c2 : index
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        %v = cake.load %buf[%c0] : !cake.smem<1xf32> -> f32
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        %t = arith.cmpi eq, %lane, %c0 : index
        scf.if %t {
          cake.store %v, %y[%kt] masked : f32, !cake.tensor<[K], f32>
        }
      }
    }
  }
  cake.return
}

// -----

// Only thread 0 arrives on the barrier each step; the other warps only wait. Nothing makes
// thread 0 wait for them, so it can complete two phases before a slow warp checks its parity,
// which then sees the parity it waits for again and waits for a later phase.
cake.kernel @broadcast_without_backpressure(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %kt = %c0 to %kdim step %c1 {
    scf.if %t0 {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    %parity = arith.remui %kt, %c2 : index
    // expected-error @+2 {{[mbarrier.phase-overrun] expected the threads that complete barrier 0's phases to wait for this thread before completing another, but with K=200 they complete 200 phases while thread 32 is held here (iteration 0, waiting for phase 0): a parity wait that checks late sees its parity again and waits for a later phase (a hang or a skipped phase)}}
    // expected-note @+1 {{fix: make the waiters hold the arrivers back}}
    cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<1>
  }
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

// Correct: a block barrier per step holds thread 0 back until every warp has passed the wait.
cake.kernel @broadcast_with_block_barrier(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %kt = %c0 to %kdim step %c1 {
    scf.if %t0 {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    %parity = arith.remui %kt, %c2 : index
    cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<1>
    cake.barrier
  }
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}
