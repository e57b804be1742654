// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (race.unordered-handoff), lib/Verify/PathSimulation.cpp:1369:
//   "order the two accesses with a named barrier both roles arrive on between them; a buffer
//    handed over in a loop needs a second one (another id) that the reading role arrives on
//    after its last read and the writing role before it writes again"
// The kernel (@handoff_without_return of cake-verify-races.mlir) hands a row over with one
// "ready" barrier per row. Applied (= @handoff_with_return): barrier 2, the drainer after its
// read except in the last iteration, the filler before its write except in the first. Honest,
// but "after its last read" is ambiguous: read as "after every read", the drainer arrives 8
// times and the filler 7, and its 8th arrival waits forever; cake-verify reports nothing for
// that kernel (a missed roles.named-barrier-instances). Proposed text in the report.

cake.kernel @handoff_without_return(%x: !cake.tensor<[R, 64], f32> {cake.name = "x"},
                                    %y: !cake.tensor<[R, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %row = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c8 : index
  cake.warp_roles {
    cake.role "fill" warps [0, 2) {
      scf.for %i = %c0 to %c8 step %c1 {
        %r = arith.addi %r0, %i : index
        %v = cake.load %x[%r, %tid] masked : !cake.tensor<[R, 64], f32> -> f32
        // expected-note @+1 {{the write}}
        cake.store %v, %row[%tid] : f32, !cake.smem<64xf32>
        cake.named_barrier 1, threads 128
      }
    }
    cake.role "drain" warps [2, 4) {
      %u = arith.subi %tid, %c64 : index
      %m = arith.subi %c63, %u : index
      scf.for %i = %c0 to %c8 step %c1 {
        %r = arith.addi %r0, %i : index
        cake.named_barrier 1, threads 128
        // expected-error @+2 {{[race.unordered-handoff] expected a barrier both threads pass between thread 0's write (iteration 1) and thread 127's read (iteration 0) of element 0 of the buffer}}
        // expected-note @+1 {{fix: order the two accesses with a named barrier both roles arrive on between them}}
        %e = cake.load %row[%m] : !cake.smem<64xf32> -> f32
        cake.store %e, %y[%r, %u] masked : f32, !cake.tensor<[R, 64], f32>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @handoff_with_return(%x: !cake.tensor<[R, 64], f32> {cake.name = "x"},
                                 %y: !cake.tensor<[R, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %row = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c8 : index
  cake.warp_roles {
    cake.role "fill" warps [0, 2) {
      scf.for %i = %c0 to %c8 step %c1 {
        %r = arith.addi %r0, %i : index
        %v = cake.load %x[%r, %tid] masked : !cake.tensor<[R, 64], f32> -> f32
        %first = arith.cmpi eq, %i, %c0 : index
        scf.if %first {
        } else {
          cake.named_barrier 2, threads 128
        }
        cake.store %v, %row[%tid] : f32, !cake.smem<64xf32>
        cake.named_barrier 1, threads 128
      }
    }
    cake.role "drain" warps [2, 4) {
      %u = arith.subi %tid, %c64 : index
      %m = arith.subi %c63, %u : index
      scf.for %i = %c0 to %c8 step %c1 {
        %r = arith.addi %r0, %i : index
        cake.named_barrier 1, threads 128
        %e = cake.load %row[%m] : !cake.smem<64xf32> -> f32
        %last = arith.cmpi eq, %i, %c8 : index
        %more = arith.addi %i, %c1 : index
        %notlast = arith.cmpi ult, %more, %c8 : index
        scf.if %notlast {
          cake.named_barrier 2, threads 128
        }
        cake.store %e, %y[%r, %u] masked : f32, !cake.tensor<[R, 64], f32>
      }
    }
  }
  cake.return
}
