// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (deadlock.cyclic-wait, handoff text), lib/Verify/VerifyDeadlock.cpp
// (checkCycles): when the cycle mixes arrivals that publish data (producer_commit,
// arrive_expect_tx, an arrive after a shared-memory write that follows its wait) with arrivals
// that only free a slot, the hint says to move one that frees a slot. The plain text ("break the
// cycle: in one of the threads, move the arrival (arrive, producer_commit, consumer_release) above
// the wait it follows, ...") was not honest here:
// A one-slot handoff (the [deadlock.replay] kernel): the producer waits on "empty" (barrier 1) with
// parity kt % 2, stores, arrives on "full" (barrier 0); the consumer waits on "full", loads,
// arrives on "empty". "In one of the threads" allows the producer: its arrive on "full" moved above
// its wait gives wait-free "full" phases before the store, so the consumer reads the slot before
// it is written. That kernel verifies CLEAN with --cake-verify, but it is wrong (a race the
// verifier misses). Only the consumer-side move is right (its arrive in iteration kt then follows
// its load of iteration kt - 1: the slot starts free), which is the fixed kernel below. The hint
// names the kind of arrival to move.

cake.kernel @handoff_cycle(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<1xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %kdim step %c1 {
          %parity = arith.remui %kt, %c2 : index
          // expected-error @+4 {{[deadlock.replay] expected this wait to pass, but replaying every warp together with K=200 leaves thread 0 here forever (iteration 0): barrier 1 has completed 0 phases (0 arrivals, count 32), so parity 0 never passes while the threads that could arrive are themselves waiting}}
          // expected-note @+3 {{fix: check the wait's parity against the phases its barrier completes before it (a barrier that frees a slot is first waited with parity 1), and that the threads it waits for arrive before their own waits}}
          // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed}}
          // expected-note @+1 {{fix: break the cycle: move an arrival that frees a slot (an arrive on a barrier the producer waits on before writing, consumer_release) above the wait it follows, so that one wait of the cycle can pass; an arrival that publishes data (producer_commit, an arrive after the writes) must stay after those writes}}
          cake.mbarrier.wait %bars[%c1], %parity : !cake.mbarriers<2>
          cake.store %one, %buf[%c0] : f32, !cake.smem<1xf32>
          // expected-note @+1 {{the wait on mbarrier 0 needs this arrival, which comes after the wait on mbarrier 1}}
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "consumer" warps [1, 2) {
      %lane = cake.lane_id
      scf.for %kt = %c0 to %kdim step %c1 {
        %parity = arith.remui %kt, %c2 : index
        // expected-note @+2 {{thread 32 waits here (iteration 0)}}
        // expected-note @+1 {{waits on mbarrier 0 here}}
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        %v = cake.load %buf[%c0] : !cake.smem<1xf32> -> f32
        // expected-note @+1 {{the wait on mbarrier 1 needs this arrival, which comes after the wait on mbarrier 0}}
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        %t = arith.cmpi eq, %lane, %c0 : index
        scf.if %t {
          cake.store %v, %y[%kt] masked : f32, !cake.tensor<[K], f32>
        }
      }
    }
  }
  cake.return
}

// -----

cake.kernel @handoff_cycle_consumer_arrives_first(%y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<1xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %kdim step %c1 {
          %parity = arith.remui %kt, %c2 : index
          cake.mbarrier.wait %bars[%c1], %parity : !cake.mbarriers<2>
          cake.store %one, %buf[%c0] : f32, !cake.smem<1xf32>
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "consumer" warps [1, 2) {
      %lane = cake.lane_id
      scf.for %kt = %c0 to %kdim step %c1 {
        %parity = arith.remui %kt, %c2 : index
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        %v = cake.load %buf[%c0] : !cake.smem<1xf32> -> f32
        %t = arith.cmpi eq, %lane, %c0 : index
        scf.if %t {
          cake.store %v, %y[%kt] masked : f32, !cake.tensor<[K], f32>
        }
      }
    }
  }
  cake.return
}
