// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (roles.divergent-barrier), lib/Verify/VerifyRoles.cpp:141:
//   "move the barrier after the end of the divergent region"
// The text quoted above was NOT HONEST when the barrier orders accesses inside the region. The kernel: threads
// below 64 store x into shared memory, cake.barrier, then read it reversed, all under one
// thread-dependent scf.if. Section 2 applies the hint literally (the barrier moved after the
// scf.if): the read now races with the other threads' writes, race.missing-barrier. Section 3 is
// the fix a complete hint leads to: split the region at the barrier (end the scf.if before it,
// cake.barrier, reopen the same condition after it). Clean. (For a barrier in a loop with a
// thread-dependent trip count, the honest fix is a uniform trip count with masked work.)
// Section 1 expects the fixed hint.

cake.kernel @reverse_half(%x: !cake.tensor<[64], f32> {cake.name = "x"},
                          %y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %s = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %low = arith.cmpi ult, %tid, %c64 : index
  // expected-note @+1 {{this scf.if depends on the thread}}
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[64], f32> -> f32
    cake.store %v, %s[%tid] : f32, !cake.smem<64xf32>
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
    // expected-note @+1 {{fix: split the scf.if at the barrier: end it before the barrier and reopen the same condition after it, so that every thread reaches the barrier}}
    cake.barrier
    %r = arith.subi %c63, %tid : index
    %w = cake.load %s[%r] : !cake.smem<64xf32> -> f32
    cake.store %w, %y[%tid] : f32, !cake.tensor<[64], f32>
  }
  cake.return
}

// -----

cake.kernel @reverse_half(%x: !cake.tensor<[64], f32> {cake.name = "x"},
                          %y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %s = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[64], f32> -> f32
    // expected-note @+1 {{the write is here}}
    cake.store %v, %s[%tid] : f32, !cake.smem<64xf32>
    %r = arith.subi %c63, %tid : index
    // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads: thread 63 (warp 1) reads element [0], which thread 0 (warp 0) writes before it, with no barrier in between}}
    // expected-note @+1 {{fix: add cake.barrier after the write and before this read, outside any role or thread-dependent condition}}
    %w = cake.load %s[%r] : !cake.smem<64xf32> -> f32
    cake.store %w, %y[%tid] : f32, !cake.tensor<[64], f32>
  }
  cake.barrier
  cake.return
}

// -----

cake.kernel @reverse_half(%x: !cake.tensor<[64], f32> {cake.name = "x"},
                          %y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %s = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[64], f32> -> f32
    cake.store %v, %s[%tid] : f32, !cake.smem<64xf32>
  }
  cake.barrier
  scf.if %low {
    %r = arith.subi %c63, %tid : index
    %w = cake.load %s[%r] : !cake.smem<64xf32> -> f32
    cake.store %w, %y[%tid] : f32, !cake.tensor<[64], f32>
  }
  cake.return
}
