// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hints under test (roles.named-barrier-count), lib/Verify/VerifyRoles.cpp:467:
//   "give each of these barriers its own id (1 to 15, unused elsewhere)"
//   "set threads 256 on every cake.named_barrier 4"
// @shared_id (cake-verify-roles.mlir): two roles each sync their own 128 threads on id 1.
// Applied literally: role b's barrier on id 2. @short_count: a hand-off between two 128-thread
// roles counted 384 and 128. Applied literally: threads 256 on both. Honest.

cake.kernel @shared_id() attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                                     grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 1), got 128}}
      // expected-note @+2 {{fix: give each of these barriers its own id (1 to 15, unused elsewhere)}}
      // expected-note @+7 {{barrier 1 is also reached here}}
      cake.named_barrier 1, threads 128
    }
    cake.role "b" warps [4, 8) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 1), got 128}}
      // expected-note @+2 {{fix: give each of these barriers its own id}}
      // expected-note @-5 {{barrier 1 is also reached here}}
      cake.named_barrier 1, threads 128
    }
  }
  cake.return
}

// -----

cake.kernel @shared_id() attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                                     grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      cake.named_barrier 1, threads 128
    }
    cake.role "b" warps [4, 8) {
      cake.named_barrier 2, threads 128
    }
  }
  cake.return
}

// -----

cake.kernel @short_count() attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                                       grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 4), got 384}}
      // expected-note @+2 {{fix: set threads 256 on every cake.named_barrier 4}}
      // expected-note @+7 {{barrier 4 is also reached here with threads 128}}
      cake.named_barrier 4, threads 384
    }
    cake.role "consumer" warps [4, 8) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 4), got 128}}
      // expected-note @+2 {{fix: set threads 256 on every cake.named_barrier 4}}
      // expected-note @-5 {{barrier 4 is also reached here with threads 384}}
      cake.named_barrier 4, threads 128
    }
  }
  cake.return
}

// -----

cake.kernel @short_count() attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                                       grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      cake.named_barrier 4, threads 256
    }
    cake.role "consumer" warps [4, 8) {
      cake.named_barrier 4, threads 256
    }
  }
  cake.return
}
