// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.tcgen05), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_100a\" on @<kernel>, or use an op that sm_90a has"
// The kernel: a cake.tcgen05.commit onto an initialised mbarrier on sm_90a. Applied literally (first option):
// target = "sm_100a". The ops mean the same there; the kernel computes the same. Honest. (The
// second option names no op: on sm_90a there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @tcgen05_commit() attributes {target = "sm_90a", block = array<i64: 128>,
                                          symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %t0 {
    // expected-error @+2 {{'cake.tcgen05.commit' op [target.tcgen05] expected a target with tcgen05 and tensor memory (sm_100a), got sm_90a}}
    // expected-note @+1 {{fix: set target = "sm_100a" on @tcgen05_commit, or use an op that sm_90a has}}
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @tcgen05_commit() attributes {target = "sm_100a", block = array<i64: 128>,
                                          symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %t0 {
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}
