// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (deadlock.branch-participation, mbarrier form), lib/Verify/VerifyDeadlock.cpp:
//   "make each of the N counted threads arrive exactly once per phase on every path (...); a count
//    lowered to the M threads that can arrive still hangs when the data keeps some of them out"
// Barrier 0 counts 128; only threads 0..63 can arrive, and only those whose x is positive. The hint,
// applied literally (an else arrive in both conditions), is the fixed kernel below. The former text
// ended with "or set count to the threads that always arrive", which was not honest: no thread
// always arrives (count 0 is meaningless), and the reading "the 64 threads that can arrive"
// (count 64) verifies CLEAN but hangs on the GPU whenever some x[0..63] <= 0 (the verifier's own
// mbarrier_arrivals_maybe case accepts it: whether they arrive depends on the data).

cake.kernel @mbarrier_arrivals_in_branch(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-note @+1 {{initialized here with 128 arrivals per phase}}
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[N], f32> -> f32
    %positive = arith.cmpf ogt, %v, %zero : f32
    // expected-note @+1 {{this scf.if decides which threads arrive}}
    scf.if %positive {
      // expected-error @+2 {{[deadlock.branch-participation] expected 128 arrivals on mbarrier 0 (the init's count), but at most 64 threads can arrive: the others take another branch, and the wait for phase 0 never returns}}
      // expected-note @+1 {{fix: make each of the 128 counted threads arrive exactly once per phase on every path (add the arrive to the other branches, or move it out of the conditions); a count lowered to the 64 threads that can arrive still hangs when the data keeps some of them out}}
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
  }
  // expected-note @+1 {{waits for phase 0 here}}
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @mbarrier_arrivals_every_branch(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[N], f32> -> f32
    %positive = arith.cmpf ogt, %v, %zero : f32
    scf.if %positive {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    } else {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
  } else {
    cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}
