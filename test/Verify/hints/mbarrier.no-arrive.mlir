// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.no-arrive), lib/Verify/VerifyMbarrier.cpp:344:
//   "arrive on the barrier (cake.mbarrier.arrive, or arrive_expect_tx before TMA copies) in the
//    threads it counts, or wait on the barrier they arrive on"
// The consumers never arrive on their "empty" barrier 1 (count 128). Applied literally: the 128
// consumer threads arrive on barrier 1, after their read of the buffer (end of the loop body).
// Honest. The hint does not say where in the threads' code the arrive goes; placing it before the
// reads (a wrong kernel: the producer may refill the buffer under them) is caught by
// [mbarrier.phase-overrun], so the misreading is not silent.

cake.kernel @consumers_never_release(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
      }
    }
  }
  cake.return
}

// -----

cake.kernel @consumers_never_release_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
