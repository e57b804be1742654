// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.tma), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: a TMA producer and a consumer role synchronized by mbarriers with transaction
// counts, on sm_80 (every Hopper op of it is a finding; one hint fixes all). Applied literally
// (first option): target = "sm_90". The ops mean the same there; the kernel computes the same.
// Honest. (The second option names no op: on sm_80 there is none with this meaning.)

// expected-error @+3 {{'cake.kernel' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
// expected-note @+2 {{the kernel's target is set here}}
// expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
cake.kernel @tma_rows(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_80", block = array<i64: 256>, symbols = ["M", "K"],
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
    // expected-error @+2 {{'cake.fence.mbarrier_init' op [target.fence-mbarrier-init] expected a target with fence.mbarrier_init (sm_90, sm_90a, sm_100a), got sm_80}}
    // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      %warp = cake.warp_id
      %w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %w0 {
        // expected-error @+2 {{'cake.elect_one' op [target.elect] expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80}}
        // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
        %leader = cake.elect_one
        scf.if %leader {
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{'cake.mbarrier.wait' op [target.mbarrier-try-wait] expected a target with mbarrier.try_wait.parity (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
            cake.mbarrier.wait %bars[%c1], %empty : !cake.mbarriers<2>
            // expected-error @+2 {{'cake.mbarrier.arrive_expect_tx' op [target.mbarrier-tx] expected a target with mbarrier transaction counts (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<2>
            %k0 = arith.muli %i, %c64 : index
            // expected-error @+2 {{'cake.tma.load' op [target.tma] expected a target with TMA (sm_90, sm_90a, sm_100a), got sm_80}}
            // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
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
        // expected-error @+2 {{'cake.mbarrier.wait' op [target.mbarrier-try-wait] expected a target with mbarrier.try_wait.parity (sm_90, sm_90a, sm_100a), got sm_80}}
        // expected-note @+1 {{fix: set target = "sm_90" on @tma_rows, or use an op that sm_80 has}}
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<2>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @tma_rows(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90", block = array<i64: 256>, symbols = ["M", "K"],
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
