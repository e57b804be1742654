// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.arrival-count), lib/Verify/VerifyShapes.cpp:526:
//   "arrive in every thread the count includes, whatever the sizes (keep the arrival out of
//    conditions on problem sizes; mask the work instead)"
// The kernel (@arrive_in_bounds_only of cake-verify-shapes.mlir) counts 128 arrivals but only the
// threads inside N arrive. Applied literally: the arrival moves out of the condition on N (the
// load and the store are masked already). All 128 threads arrive, the wait completes. Honest.

cake.kernel @arrive_in_bounds_only(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                                   %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-error @+2 {{[shape.arrival-count] expected 128 arrivals per phase (the init's count) for every shape the manifest allows, but with N = 3 (block (0, 0, 0)) 3 threads arrive}}
    // expected-note @+1 {{fix: arrive in every thread the count includes, whatever the sizes (keep the arrival out of conditions on problem sizes; mask the work instead)}}
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %base = arith.muli %bid, %c128 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<128xf32>
  %n = cake.problem_size "N"
  %inside = arith.cmpi ult, %g, %n : index
  scf.if %inside {
    // expected-note @+1 {{3 threads arrive here}}
    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %next = arith.addi %tid, %c1 : index
  %r = arith.minui %next, %c127 : index
  %w = cake.load %s[%r] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @arrive_in_bounds_only(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                                   %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %s = cake.alloc_smem : !cake.smem<128xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %base = arith.muli %bid, %c128 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<128xf32>
  cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %next = arith.addi %tid, %c1 : index
  %r = arith.minui %next, %c127 : index
  %w = cake.load %s[%r] : !cake.smem<128xf32> -> f32
  cake.store %w, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
