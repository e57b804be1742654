// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.index-range), lib/Verify/VerifyMbarrier.cpp:130 (constant index):
//   "allocate more mbarriers (!cake.mbarriers<3>) or use an index below 2"
// Case 1: the kernel uses barriers 0 and 2 consistently (init, wait, arrive) but allocates only 2.
// Applied literally (first alternative): every !cake.mbarriers<2> becomes !cake.mbarriers<3>. Honest.
// (For a mistyped index whose barrier is never initialized, the first alternative leaves
// mbarrier.uninitialized / mbarrier.no-arrive and "an index below 2" does not say which one:
// see the report of issue #15.)
//
// Hint under test (mbarrier.index-range), lib/Verify/VerifyMbarrier.cpp:149 (computed index):
//   "keep the computed index inside the array (a ring's second barrier set starts at the stage
//    count: slot + stages), or allocate more mbarriers"
// Case 2: a 3-stage ring whose "empty" barriers start at slot + 4. Applied literally: slot + 3
// (indices 3..5, all initialized). Honest.

cake.kernel @array_too_small(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
  // expected-note @+1 {{the array of 2 mbarriers}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    // expected-error @+2 {{[mbarrier.index-range] expected a barrier index in [0, 2), got 2}}
    // expected-note @+1 {{fix: allocate more mbarriers (!cake.mbarriers<3>) or use an index below 2}}
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<2>
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
            // expected-error @+2 {{[mbarrier.index-range] expected a barrier index in [0, 2), got 2}}
            // expected-note @+1 {{fix: allocate more mbarriers (!cake.mbarriers<3>) or use an index below 2}}
            cake.mbarrier.wait %bars[%c2], %empty : !cake.mbarriers<2>
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
        // expected-error @+2 {{[mbarrier.index-range] expected a barrier index in [0, 2), got 2}}
        // expected-note @+1 {{fix: allocate more mbarriers (!cake.mbarriers<3>) or use an index below 2}}
        cake.mbarrier.arrive %bars[%c2] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @array_too_small_fixed(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
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
  %bars = cake.mbarrier.alloc : !cake.mbarriers<3>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<3>
    cake.mbarrier.init %bars[%c2], count 128 : !cake.mbarriers<3>
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
            cake.mbarrier.wait %bars[%c2], %empty : !cake.mbarriers<3>
            cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 8192 : !cake.mbarriers<3>
            %k0 = arith.muli %i, %c64 : index
            cake.tma.load %ta[%c0, %k0], %buf[], %bars[%c0]
                : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<3>
          }
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      scf.for %i = %c0 to %n step %c1 {
        %phase = arith.remui %i, %c2 : index
        cake.mbarrier.wait %bars[%c0], %phase : !cake.mbarriers<3>
        %v = cake.load %buf[%c0, %lane] : !cake.smem<64x64xbf16, swizzle = 128> -> bf16
        cake.mbarrier.arrive %bars[%c2] : !cake.mbarriers<3>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @ring_empty_off_by_one(%out: !cake.tensor<[K], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %kt = cake.problem_size "K"
  // expected-note @+1 {{the array of 6 mbarriers}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c2], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c3], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c4], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c5], count 32 : !cake.mbarriers<6>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %k = %c0 to %kt step %c1 {
    %slot = arith.remui %k, %c3 : index
    %empty = arith.addi %slot, %c4 : index
    // expected-error @+2 {{'cake.mbarrier.arrive' op [mbarrier.index-range] expected a barrier index in [0, 6), but in thread 0 it reaches 6 (it takes [4, 6])}}
    // expected-note @+1 {{fix: keep the computed index inside the array (a ring's second barrier set starts at the stage count: slot + stages), or allocate more mbarriers}}
    cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
  }
  cake.return
}

// -----

cake.kernel @ring_empty_fixed(%out: !cake.tensor<[K], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %kt = cake.problem_size "K"
    %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c2], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c3], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c4], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c5], count 32 : !cake.mbarriers<6>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %k = %c0 to %kt step %c1 {
    %slot = arith.remui %k, %c3 : index
    %empty = arith.addi %slot, %c3 : index
    cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
  }
  cake.return
}
