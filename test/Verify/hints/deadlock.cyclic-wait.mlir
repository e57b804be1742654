// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (deadlock.cyclic-wait), lib/Verify/VerifyDeadlock.cpp (checkCycles; texts by case):
// Case 1, plain: "break the cycle: in one of the threads, move the arrival (arrive, producer_commit,
//   consumer_release) above the wait it follows, so that one wait of the cycle can pass"
//   Two roles each wait for the other's arrival first (no data handed over). Applied literally in
//   role b: its arrive above its wait. Honest here (also clears [deadlock.replay]). A cycle through
//   a data handoff gets another text: see deadlock.cyclic-wait-handoff.mlir.
// Case 2, ring from zero: "break the cycle: a ring whose slots start free (the producer's 'empty'
//   barriers) is waited on with the inverse of the round's parity, (round mod 2) xor 1, so that
//   round 0 passes; or move an arrival above the wait it follows"
//   A 4-slot ring whose producer waits on 'empty' with the round's parity. Applied literally (first
//   alternative): (round mod 2) xor 1. Honest.
// Case 3, through producer_acquire: "break the cycle: release each stage fewer than `stages`
//   iterations after its consumer_wait (and wait fewer iterations ahead), so that the producer can
//   acquire the slot before the consumer needs its next stage"
//   A consumer releasing stage it - 2 of a 2-stage pipeline. Applied literally: release it - 1
//   (one iteration after its wait). Honest.

cake.kernel @mbarrier_cycle()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      // expected-error @+7 {{[deadlock.replay] expected this wait to pass, but replaying every warp together with  leaves thread 0 here forever (): barrier 0 has completed 0 phases (0 arrivals, count 1), so parity 0 never passes while the threads that could arrive are themselves waiting}}
      // expected-note @+6 {{thread 32 waits here ()}}
      // expected-note @+5 {{thread 64 waits here ()}}
      // expected-note @+4 {{thread 96 waits here ()}}
      // expected-note @+3 {{fix: check the wait's parity against the phases its barrier completes before it (a barrier that frees a slot is first waited with parity 1), and that the threads it waits for arrive before their own waits}}
      // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed}}
      // expected-note @+1 {{fix: break the cycle: in one of the threads, move the arrival (arrive, producer_commit, consumer_release) above the wait it follows, so that one wait of the cycle can pass}}
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
      scf.if %t0 {
        // expected-note @+1 {{the wait on mbarrier 1 needs this arrival, which comes after the wait on mbarrier 0}}
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
    cake.role "b" warps [4, 8) {
      // expected-note @+5 {{thread 128 waits here ()}}
      // expected-note @+4 {{thread 160 waits here ()}}
      // expected-note @+3 {{thread 192 waits here ()}}
      // expected-note @+2 {{thread 224 waits here ()}}
      // expected-note @+1 {{waits on mbarrier 1 here}}
      cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
      scf.if %t128 {
        // expected-note @+1 {{the wait on mbarrier 0 needs this arrival, which comes after the wait on mbarrier 1}}
        cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @mbarrier_handshake()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
      scf.if %t0 {
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
    cake.role "b" warps [4, 8) {
      scf.if %t128 {
        cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
      }
      cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
    }
  }
  cake.return
}

// -----

cake.kernel @ring_empty_parity_not_inverted()
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<8>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    scf.for %s = %c0 to %c4 step %c1 {
      cake.mbarrier.init %bars[%s], count 32 : !cake.mbarriers<8>
    }
    cake.mbarrier.init %bars[%c4], count 64 : !cake.mbarriers<8>
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    cake.mbarrier.init %bars[%c5], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c6], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c7], count 64 : !cake.mbarriers<8>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = arith.remui %kt, %c4 : index
        %round = arith.divui %kt, %c4 : index
        %parity = arith.andi %round, %c1 : index
        %empty = arith.addi %slot, %c4 : index
        // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed}}
        // expected-note @+1 {{fix: break the cycle: a ring whose slots start free (the producer's 'empty' barriers) is waited on with the inverse of the round's parity, (round mod 2) xor 1, so that round 0 passes; or move an arrival above the wait it follows}}
        cake.mbarrier.wait %bars[%empty], %parity : !cake.mbarriers<8>
        // expected-note @+1 {{the wait on the ring of mbarriers 0 1 2 3 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 4 5 6 7 (round r on r's parity: round 0 waits for a first completion)}}
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<8>
      }
    }
    cake.role "consumer" warps [1, 3) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = arith.remui %kt, %c4 : index
        %round = arith.divui %kt, %c4 : index
        %parity = arith.andi %round, %c1 : index
        %empty = arith.addi %slot, %c4 : index
        // expected-note @+1 {{waits on the ring of mbarriers 0 1 2 3 (round r on r's parity: round 0 waits for a first completion) here}}
        cake.mbarrier.wait %bars[%slot], %parity : !cake.mbarriers<8>
        // expected-note @+1 {{the wait on the ring of mbarriers 4 5 6 7 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 0 1 2 3 (round r on r's parity: round 0 waits for a first completion)}}
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<8>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @ring_empty_parity_fixed()
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<8>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    scf.for %s = %c0 to %c4 step %c1 {
      cake.mbarrier.init %bars[%s], count 32 : !cake.mbarriers<8>
    }
    cake.mbarrier.init %bars[%c4], count 64 : !cake.mbarriers<8>
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    cake.mbarrier.init %bars[%c5], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c6], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c7], count 64 : !cake.mbarriers<8>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = arith.remui %kt, %c4 : index
        %round = arith.divui %kt, %c4 : index
        %parity = arith.andi %round, %c1 : index
        %free = arith.xori %parity, %c1 : index
        %empty = arith.addi %slot, %c4 : index
        cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<8>
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<8>
      }
    }
    cake.role "consumer" warps [1, 3) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = arith.remui %kt, %c4 : index
        %round = arith.divui %kt, %c4 : index
        %parity = arith.andi %round, %c1 : index
        %empty = arith.addi %slot, %c4 : index
        cake.mbarrier.wait %bars[%slot], %parity : !cake.mbarriers<8>
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<8>
      }
    }
  }
  cake.return
}

// -----

cake.kernel @release_lag()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed (the cycle closes in iteration 2 of the loop)}}
          // expected-note @+1 {{fix: break the cycle: release each stage fewer than `stages` iterations after its consumer_wait (and wait fewer iterations ahead), so that the producer can acquire the slot before the consumer needs its next stage}}
          cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<2>
          // expected-note @+1 {{the wait on the pipeline's full barrier needs this arrival, which comes after the wait on the pipeline's empty barrier}}
          cake.pipeline.producer_commit %pipe[%it], tx_bytes 1024 : !cake.pipeline<2>
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          // expected-note @+1 {{waits on the pipeline's full barrier here}}
          cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<2>
          %ready = arith.cmpi uge, %it, %c2 : index
          scf.if %ready {
            %old = arith.subi %it, %c2 : index
            // expected-note @+1 {{the wait on the pipeline's empty barrier needs this arrival, which comes after the wait on the pipeline's full barrier}}
            cake.pipeline.consumer_release %pipe[%old] : !cake.pipeline<2>
          }
        }
      }
    }
  }
  cake.return
}

// -----

cake.kernel @release_lag_fixed()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<2>
          cake.pipeline.producer_commit %pipe[%it], tx_bytes 1024 : !cake.pipeline<2>
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<2>
          %ready = arith.cmpi uge, %it, %c1 : index
          scf.if %ready {
            %old = arith.subi %it, %c1 : index
            cake.pipeline.consumer_release %pipe[%old] : !cake.pipeline<2>
          }
        }
      }
    }
  }
  cake.return
}
