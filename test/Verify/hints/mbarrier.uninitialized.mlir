// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.uninitialized), lib/Verify/VerifyMbarrier.cpp:195 (index never initialized):
//   "in one thread (e.g. under thread_id == 0) add cake.mbarrier.init %bars[1], count <arriving threads>
//    and cake.fence.mbarrier_init, then a cake.barrier before the first use"
// Case 1: barrier 1 (the consumers' "empty" barrier) is never initialized. Applied literally: a new
// thread-0 block with the init (count 128: the consumer threads that arrive) and the fence, then a
// cake.barrier, before the roles. Honest (the count is a placeholder the reader fills in; the
// message does not say 128).
//
// Hint under test (mbarrier.uninitialized), lib/Verify/VerifyMbarrier.cpp:220 (init after the first use):
//   "move the cake.mbarrier.init (with its fence and barrier) before the first use"
// Case 2: the init block and its cake.barrier come after the roles. Applied literally: moved above
// the roles. Honest.

cake.kernel @never_initialized(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %kd = cake.problem_size "K"
  %n = arith.ceildivui %kd, %c64 : index
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
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[], %bars[%c0]
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

cake.kernel @never_initialized_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %kd = cake.problem_size "K"
  %n = arith.ceildivui %kd, %c64 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %t0 {
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
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[], %bars[%c0]
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

cake.kernel @use_before_init(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %kd = cake.problem_size "K"
  %n = arith.ceildivui %kd, %c64 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
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
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[], %bars[%c0]
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

cake.kernel @use_before_init_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %kd = cake.problem_size "K"
  %n = arith.ceildivui %kd, %c64 : index
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
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[], %bars[%c0]
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
