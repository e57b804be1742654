// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-roles -o /dev/null

// roles.named-barrier-instances: every instance of a named barrier needs all its participants,
// so the warps that reach an id must reach it equally often.

// fill signals barrier 1 once, before its loop; drain syncs on it every row (hangs on row 2).
cake.kernel @signal_once(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      // expected-note @+1 {{warp 0 reaches barrier 1 here}}
      cake.named_barrier 1, threads 256
      scf.for %i = %c0 to %c16 step %c1 {
        %v = cake.load %x[%i, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %c16 step %c1 {
        // expected-error @+2 {{'cake.named_barrier' op [roles.named-barrier-instances] warp 4 reaches barrier 1 16 time(s) per block, warp 0 1 time(s): the warps that reach it more often wait forever at an instance the others never join}}
        // expected-note @+1 {{fix: make every participating warp reach barrier 1 the same number of times}}
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// Run-time trip counts: drain syncs twice per iteration of a loop over the same bounds.
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
        // expected-error @+2 {{warp 4 reaches barrier 2 2 x (1 loop(s) with run-time bounds) time(s) per block, warp 0 1 x (1 loop(s) with run-time bounds) time(s)}}
        // expected-note @+1 {{fix:}}
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

// Valid: both roles sync twice per row over the same run-time loop bounds, and a private
// barrier (id 3, one role) is reached by its own warps only.
cake.kernel @handoff(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
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
        cake.named_barrier 3, threads 128
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 1, threads 256
        cake.named_barrier 2, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %j = %c0 to %rows step %c1 {
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.named_barrier 2, threads 256
        cake.store %e, %y[%j, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// Loops over different bound values (R + 1 against R): no symbolic verdict, so the pass counts
// at concrete sizes and names one where the warps differ.
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
        // expected-error @+2 {{warp 4 reaches barrier 1 3 time(s) per block, warp 0 4 time(s) at R=3 (block 0)}}
        // expected-note @+1 {{fix:}}
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}

// -----

// Valid: 0 to 2n step 2 and 0 to n run equally often (different bound values, same counts at
// every size).
cake.kernel @step_two_over_double(%x: !cake.tensor<[R, 128], f32>, %y: !cake.tensor<[R, 128], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %rows = cake.problem_size "R"
  %twice = arith.muli %rows, %c2 : index
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %twice step %c2 {
        %r = arith.divui %i, %c2 : index
        %v = cake.load %x[%r, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 1, threads 256
        cake.named_barrier 2, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %rows step %c1 {
        cake.named_barrier 1, threads 256
        %e = cake.load %buf[%u] : !cake.smem<128xf32> -> f32
        cake.named_barrier 2, threads 256
        cake.store %e, %y[%i, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}
