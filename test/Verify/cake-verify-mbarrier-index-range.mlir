// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-mbarrier -o /dev/null

// mbarrier.index-range with a computed index: every value it takes over the loops around it
// must name a barrier of the array (a ring whose "empty" barriers start one past the stage
// count reaches index 6 of 6).
cake.kernel @ring_empty_off_by_one(%out: !cake.tensor<[K], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %kt = cake.problem_size "K"
  // expected-note @+1 {{the array of 6 mbarriers}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c2], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c3], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c4], count 32 : !cake.mbarriers<6>
    cake.mbarrier.init %bars[%c5], count 32 : !cake.mbarriers<6>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %k = %c0 to %kt step %c1 {
    %slot = arith.remui %k, %c3 : index
    %empty = arith.addi %slot, %c4 : index
    // expected-error @+2 {{'cake.mbarrier.arrive' op [mbarrier.index-range] expected a barrier index in [0, 6), but in thread 0 it reaches 6 (it takes [4, 6])}}
    // expected-note @+1 {{fix:}}
    cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
  }
  cake.return
}
