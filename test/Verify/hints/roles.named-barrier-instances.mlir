// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (roles.named-barrier-instances), lib/Verify/VerifyRoles.cpp:290:
//   "make every participating warp reach barrier 2 the same number of times (the same loop and
//    the same syncs per iteration), or give the extra syncs their own id"
// PARTLY HONEST. Section 1 (@extra_sync of cake-verify-roles-barrier-instances.mlir): role
// "drain" syncs twice per iteration on barrier 2, role "fill" once. Section 2, the first option
// literally (a second named_barrier 2 in fill's loop): clean and right, the second instance keeps
// fill from overwriting buf before drain has read it. Section 3, the second option literally
// (drain's extra sync on id 3): roles.named-barrier-count and deadlock.branch-participation; and
// after their own fix (threads 128) the kernel is clean but WRONG: nothing keeps fill from
// overwriting buf in iteration i + 1 while drain reads it in iteration i (the verifier misses
// this race). Sections 4-5 (@off_by_one): the first option (the same loop bounds): honest.
// The second option should go (or say when it applies: a sync that orders only one role).

cake.kernel @extra_sync(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %rows step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        // expected-note @+1 {{warp 0 reaches barrier 2 here}}
        cake.named_barrier 2, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        // expected-error @+2 {{[roles.named-barrier-instances] warp 4 reaches barrier 2 2 x (1 loop(s) with run-time bounds) time(s) per block, warp 0 1 x (1 loop(s) with run-time bounds) time(s)}}
        // expected-note @+1 {{fix: make every participating warp reach barrier 2 the same number of times (the same loop and the same syncs per iteration), or give the extra syncs their own id}}
        cake.named_barrier 2, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.named_barrier 2, threads 256
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// The hand-off check compares no pairs at this size (51200 accesses): it says so.
// expected-remark @+2 {{[verify.not-judged] the role hand-off check gave no judgement: 51200 accesses at R=200 exceed the pairs it compares}}
// expected-note @+1 {{fix: a smaller block or fewer unrolled copies per thread}}
cake.kernel @extra_sync(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %rows step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 2, threads 256
        cake.named_barrier 2, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        cake.named_barrier 2, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.named_barrier 2, threads 256
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// The hand-off check compares no pairs at this size (51200 accesses): it says so.
// expected-remark @+2 {{[verify.not-judged] the role hand-off check gave no judgement: 51200 accesses at R=200 exceed the pairs it compares}}
// expected-note @+1 {{fix: a smaller block or fewer unrolled copies per thread}}
cake.kernel @extra_sync(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %rows step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 2, threads 256
      }
    }
    // expected-note @+1 {{only the warps of role 'drain' (warps [4, 8)) run it}}
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        cake.named_barrier 2, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        // expected-error @+4 {{[roles.named-barrier-count] expected threads 128 (every thread that reaches barrier 3), got 256}}
        // expected-note @+3 {{fix: set threads 128 on every cake.named_barrier 3}}
        // expected-error @+2 {{[deadlock.branch-participation] expected 256 threads to arrive at named barrier 3, but at most 128 can reach it}}
        // expected-note @+1 {{fix: execute the barrier in every participating thread}}
        cake.named_barrier 3, threads 256
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @off_by_one(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %more = arith.addi %rows, %c1 : index
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %more step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        // expected-note @+1 {{warp 0 reaches barrier 1 here}}
        cake.named_barrier 1, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        // expected-error @+2 {{[roles.named-barrier-instances] warp 4 reaches barrier 1 3 time(s) per block, warp 0 4 time(s) at R=3 (block 0)}}
        // expected-note @+1 {{fix: make every participating warp reach barrier 1 the same number of times (the same loop and the same syncs per iteration), or give the extra syncs their own id}}
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// The hand-off check compares no pairs at this size (51200 accesses): it says so.
// expected-remark @+2 {{[verify.not-judged] the role hand-off check gave no judgement: 51200 accesses at R=200 exceed the pairs it compares}}
// expected-note @+1 {{fix: a smaller block or fewer unrolled copies per thread}}
cake.kernel @off_by_one(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %rows step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 1, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}
