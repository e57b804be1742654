// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (mbarrier.phase-overrun), lib/Verify/PathSimulation.cpp:691:
//   "make the waiters hold the arrivers back: let them arrive on a barrier the arriving threads wait
//    on before their next arrival (an "empty" barrier), or put a block barrier in the loop"
// Thread 0 arrives on barrier 0 each step and nothing makes it wait for the other warps. Applied
// literally (second alternative): a cake.barrier in the loop, after the wait. Honest (anywhere in
// the loop body works: thread 0's next arrival then follows every thread's previous wait).

cake.kernel @broadcast_without_backpressure(%y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %kt = %c0 to %kdim step %c1 {
    scf.if %t0 {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    %parity = arith.remui %kt, %c2 : index
    // expected-error @+2 {{[mbarrier.phase-overrun] expected the threads that complete barrier 0's phases to wait for this thread before completing another, but with K=200 they complete 200 phases while thread 32 is held here (iteration 0, waiting for phase 0): a parity wait that checks late sees its parity again and waits for a later phase (a hang or a skipped phase)}}
    // expected-note @+1 {{fix: make the waiters hold the arrivers back: let them arrive on a barrier the arriving threads wait on before their next arrival (an "empty" barrier), or put a block barrier in the loop}}
    cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<1>
  }
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[64], f32>
  cake.return
}

// -----

cake.kernel @broadcast_with_block_barrier(%y: !cake.tensor<[64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.for %kt = %c0 to %kdim step %c1 {
    scf.if %t0 {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    %parity = arith.remui %kt, %c2 : index
    cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<1>
    cake.barrier
  }
  cake.store %one, %y[%tid] masked : f32, !cake.tensor<[64], f32>
  cake.return
}
