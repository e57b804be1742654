// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (deadlock.branch-participation, named barrier), lib/Verify/VerifyDeadlock.cpp:298:
//   "execute the barrier in every participating thread (outside the branch), or set threads 64 if
//    only these threads synchronize"
// Named barrier 1 counts 128 threads inside a branch only warps 0 and 1 take (also
// [roles.named-barrier-count]). Applied literally: (1) the barrier moved out of the branch (all 128
// threads reach it); (2) threads 64. Both honest.
// The mbarrier form of the rule (VerifyDeadlock.cpp:379) is NOT honest and is tested in
// deadlock.branch-participation-mbarrier.mlir.

cake.kernel @named_barrier_in_branch()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c2 = arith.constant 2 : index
  %warp = cake.warp_id
  %low = arith.cmpi ult, %warp, %c2 : index
  // expected-note @+1 {{this scf.if decides which threads get there}}
  scf.if %low {
    // expected-error @+4 {{[roles.named-barrier-count] expected threads 64 (every thread that reaches barrier 1), got 128}}
    // expected-note @+3 {{fix: set threads 64 on every cake.named_barrier 1}}
    // expected-error @+2 {{[deadlock.branch-participation] expected 128 threads to arrive at named barrier 1, but at most 64 can reach it: the others take another branch, and the threads that arrive wait forever}}
    // expected-note @+1 {{fix: execute the barrier in every participating thread (outside the branch), or set threads 64 if only these threads synchronize}}
    cake.named_barrier 1, threads 128
  }
  cake.return
}

// -----

cake.kernel @named_barrier_in_branch_fixed()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c2 = arith.constant 2 : index
  %warp = cake.warp_id
  %low = arith.cmpi ult, %warp, %c2 : index
  scf.if %low {
  }
  cake.named_barrier 1, threads 128
  cake.return
}

// -----

cake.kernel @named_barrier_in_branch_fixed_count()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c2 = arith.constant 2 : index
  %warp = cake.warp_id
  %low = arith.cmpi ult, %warp, %c2 : index
  scf.if %low {
    cake.named_barrier 1, threads 64
  }
  cake.return
}
