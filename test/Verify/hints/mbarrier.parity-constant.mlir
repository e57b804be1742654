// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.parity-constant), lib/Verify/VerifyMbarrier.cpp:
//   parity 0 (or not constant): "wait on parity (iteration / stages) mod 2 (or use a cake.pipeline, ...)"
//   constant parity 1:          "wait on parity ((iteration / stages) mod 2) xor 1: ..."
// Case 1: the consumers wait on the full barrier 0 with constant parity 0. Applied literally:
// parity i % 2 (one stage).
// Case 2: the producer waits on the "empty" barrier 1 with constant parity 1. The first text,
// applied there, gave parity i % 2, whose first wait needs a release of data not yet produced: the
// kernel hangs ([deadlock.replay] + [deadlock.cyclic-wait]). The second text gives
// ((i / 1) mod 2) xor 1 (the fixed kernel below).

cake.kernel @full_parity_constant(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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

cake.kernel @full_parity_constant_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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

// -----

cake.kernel @empty_parity_constant(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
          // expected-note @+1 {{the loop is here}}
          scf.for %i = %c0 to %n step %c1 {
            %phase = arith.remui %i, %c2 : index
            %empty = arith.xori %phase, %c1 : index
            // expected-error @+2 {{[mbarrier.parity-constant] expected the wait's parity to alternate across iterations of the enclosing loop, but barrier and parity are loop-invariant}}
            // expected-note @+1 {{fix: wait on parity ((iteration / stages) mod 2) xor 1: a constant parity 1 marks a barrier that frees a slot, whose first wait passes at once (or use a cake.pipeline, which tracks phases itself)}}
            cake.mbarrier.wait %bars[%c1], %c1 : !cake.mbarriers<2>
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

cake.kernel @empty_parity_constant_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
