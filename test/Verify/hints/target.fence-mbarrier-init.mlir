// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.fence-mbarrier-init), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: an mbarrier hand-off (init, fence.mbarrier_init, arrive, wait) on sm_80; the same kernel also has target.mbarrier-try-wait. Applied literally (first option):
// target = "sm_90". The ops mean the same there; the kernel computes the same. Honest. (The
// second option names no op: on sm_80 there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @handoff(%x: !cake.tensor<[128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[128], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    // expected-error @+2 {{'cake.fence.mbarrier_init' op [target.fence-mbarrier-init] expected a target with fence.mbarrier_init (sm_90, sm_90a, sm_100a), got sm_80}}
    // expected-note @+1 {{fix: set target = "sm_90" on @handoff, or use an op that sm_80 has}}
    cake.fence.mbarrier_init
  }
  cake.barrier
  %v = cake.load %x[%tid] : !cake.tensor<[128], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<128xf32>
  cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.mbarrier.wait' op [target.mbarrier-try-wait] expected a target with mbarrier.try_wait.parity (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @handoff, or use an op that sm_80 has}}
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %r = arith.subi %c127, %tid : index
  %w = cake.load %s[%r] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%tid] : f32, !cake.tensor<[128], f32>
  cake.return
}

// -----

cake.kernel @handoff(%x: !cake.tensor<[128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[128], f32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %v = cake.load %x[%tid] : !cake.tensor<[128], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<128xf32>
  cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %r = arith.subi %c127, %tid : index
  %w = cake.load %s[%r] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%tid] : f32, !cake.tensor<[128], f32>
  cake.return
}
