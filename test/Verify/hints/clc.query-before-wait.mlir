// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (clc.query-before-wait), lib/Verify/VerifyMbarrier.cpp:
//   "cake.mbarrier.wait on the request's barrier (the phase it completes) before cake.clc.query"
// The wait comes after the query; applied: the wait moved before it (phase 0, the barrier's
// first completion). Honest: the same request and answer, read once they have landed.

cake.kernel @query_early() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 16 : !cake.mbarriers<1>
    // expected-note @+1 {{the request, completing on its mbarrier}}
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  }
  // expected-error @+2 {{'cake.clc.query' op [clc.query-before-wait] reads a cluster launch control answer before waiting on the barrier its request completes}}
  // expected-note @+1 {{fix: cake.mbarrier.wait on the request's barrier (the phase it completes) before cake.clc.query}}
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @query_early_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 16 : !cake.mbarriers<1>
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.return
}
