// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.cluster-launch-control), lib/Verify/VerifyTarget.cpp:
//   "set target = \"sm_100a\" on @<kernel>, or use an op that sm_90a has"
// A persistent kernel asking for the next block with cluster launch control on sm_90a. Applied
// literally (first option): target = "sm_100a"; the ops mean the same there. Honest. (The
// second option names no op: sm_90a has no launch control; a static tile schedule is a
// different kernel.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @next_block() attributes {target = "sm_90a", block = array<i64: 128>,
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
    // expected-error @+2 {{'cake.clc.try_cancel' op [target.cluster-launch-control] expected a target with cluster launch control (sm_100a), got sm_90a}}
    // expected-note @+1 {{fix: set target = "sm_100a" on @next_block, or use an op that sm_90a has}}
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.clc.query' op [target.cluster-launch-control] expected a target with cluster launch control (sm_100a), got sm_90a}}
  // expected-note @+1 {{fix: set target = "sm_100a" on @next_block, or use an op that sm_90a has}}
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.return
}

// -----

cake.kernel @next_block_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
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
