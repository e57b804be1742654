// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-deadlock -o /dev/null

// Wait-for cycles between roles (deadlock.cyclic-wait) and barriers that fewer threads can reach
// than they count (deadlock.branch-participation). Each invalid case has a valid counterpart.

// Two roles, each waiting for the other's arrival before its own.
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
      // expected-error @+2 {{'cake.mbarrier.wait' op [deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed}}
      // expected-note @+1 {{fix: break the cycle}}
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
      scf.if %t0 {
        // expected-note @+1 {{the wait on mbarrier 1 needs this arrival, which comes after the wait on mbarrier 0}}
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
    cake.role "b" warps [4, 8) {
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

// Valid: role b arrives before it waits.
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

// A thread waits for the arrival it makes itself afterwards.
cake.kernel @self_wait()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %t0 {
    // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but the arrivals it needs come only after it has passed: the wait waits for itself}}
    // expected-note @+1 {{fix: break the cycle}}
    cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
    // expected-note @+1 {{the wait on mbarrier 0 needs this arrival, which comes after that wait itself}}
    cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  }
  cake.return
}

// -----

// Two pipelines in opposite directions, each role waiting on its input before producing its
// output: iteration 0 of each waits for iteration 0 of the other.
cake.kernel @pipelines_crossed()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %ab = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %ba = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
          // expected-note @+1 {{fix: break the cycle}}
          cake.pipeline.consumer_wait %ba[%it] : !cake.pipeline<2>
          cake.pipeline.producer_acquire %ab[%it] : !cake.pipeline<2>
          // expected-note @+1 {{the wait on the pipeline's full barrier needs this arrival, which comes after the wait on the pipeline's full barrier}}
          cake.pipeline.producer_commit %ab[%it], tx_bytes 1024 : !cake.pipeline<2>
          cake.pipeline.consumer_release %ba[%it] : !cake.pipeline<2>
        }
      }
    }
    cake.role "b" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          // expected-note @+1 {{waits on the pipeline's full barrier here}}
          cake.pipeline.consumer_wait %ab[%it] : !cake.pipeline<2>
          cake.pipeline.producer_acquire %ba[%it] : !cake.pipeline<2>
          // expected-note @+1 {{the wait on the pipeline's full barrier needs this arrival, which comes after the wait on the pipeline's full barrier}}
          cake.pipeline.producer_commit %ba[%it], tx_bytes 1024 : !cake.pipeline<2>
          cake.pipeline.consumer_release %ab[%it] : !cake.pipeline<2>
        }
      }
    }
  }
  cake.return
}

// -----

// Valid: role a produces before it consumes; every cycle runs through a producer_acquire, which
// waits for a release `stages` iterations back.
cake.kernel @pipelines_ping_pong()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %ab = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %ba = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          cake.pipeline.producer_acquire %ab[%it] : !cake.pipeline<2>
          cake.pipeline.producer_commit %ab[%it], tx_bytes 1024 : !cake.pipeline<2>
          cake.pipeline.consumer_wait %ba[%it] : !cake.pipeline<2>
          cake.pipeline.consumer_release %ba[%it] : !cake.pipeline<2>
        }
      }
    }
    cake.role "b" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          cake.pipeline.consumer_wait %ab[%it] : !cake.pipeline<2>
          cake.pipeline.producer_acquire %ba[%it] : !cake.pipeline<2>
          cake.pipeline.producer_commit %ba[%it], tx_bytes 1024 : !cake.pipeline<2>
          cake.pipeline.consumer_release %ab[%it] : !cake.pipeline<2>
        }
      }
    }
  }
  cake.return
}

// -----

// A consumer that releases each stage `stages` iterations late: producer_acquire(i) needs
// release(i - 2), which the consumer makes in iteration i, after waiting for commit(i).
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
          // expected-note @+1 {{fix: break the cycle}}
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

// Valid: the same with a lag of one stage (stages - 1 in flight), and with a lag of two in a loop
// of two iterations, which ends before the cycle closes.
cake.kernel @release_lag_ok()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  %short = cake.pipeline.create consumers 1 : !cake.pipeline<2>
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
        scf.for %it = %c0 to %c2 step %c1 {
          cake.pipeline.producer_acquire %short[%it] : !cake.pipeline<2>
          cake.pipeline.producer_commit %short[%it], tx_bytes 1024 : !cake.pipeline<2>
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
        scf.for %it = %c0 to %c2 step %c1 {
          cake.pipeline.consumer_wait %short[%it] : !cake.pipeline<2>
          %ready = arith.cmpi uge, %it, %c2 : index
          scf.if %ready {
            %old = arith.subi %it, %c2 : index
            cake.pipeline.consumer_release %short[%old] : !cake.pipeline<2>
          }
        }
      }
    }
  }
  cake.return
}

// -----

// A wait two iterations ahead of the producer and a release two behind, with four stages:
// consumer_wait(i + 2) needs commit(i + 2), whose acquire needs the release of iteration i - 2,
// which comes after that wait.
cake.kernel @wait_ahead()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle: each needs an arrival that comes only after the next one has passed (the cycle closes in iteration 2 of the loop)}}
          // expected-note @+1 {{fix: break the cycle}}
          cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<4>
          // expected-note @+1 {{which comes after the wait on the pipeline's empty barrier}}
          cake.pipeline.producer_commit %pipe[%it], tx_bytes 1024 : !cake.pipeline<4>
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          %ahead = arith.addi %it, %c2 : index
          // expected-note @+1 {{waits on the pipeline's full barrier here}}
          cake.pipeline.consumer_wait %pipe[%ahead] : !cake.pipeline<4>
          %ready = arith.cmpi uge, %it, %c2 : index
          scf.if %ready {
            %old = arith.subi %it, %c2 : index
            // expected-note @+1 {{which comes after the wait on the pipeline's full barrier}}
            cake.pipeline.consumer_release %pipe[%old] : !cake.pipeline<4>
          }
        }
      }
    }
  }
  cake.return
}

// -----

// Valid, though it would close the same cycle in the abstract: the release of i - 2 is guarded by
// i > 0 only, so iteration 1 releases iteration -1, a stray arrival that completes a later round
// of slot 3 early and gives the producer one more stage. The pass does not follow such rings.
cake.kernel @stray_release()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        scf.for %it = %c0 to %k step %c1 {
          cake.pipeline.producer_acquire %pipe[%it] : !cake.pipeline<4>
          cake.pipeline.producer_commit %pipe[%it], tx_bytes 1024 : !cake.pipeline<4>
        }
      }
    }
    cake.role "consumer" warps [4, 8) {
      scf.if %t128 {
        scf.for %it = %c0 to %k step %c1 {
          %ahead = arith.addi %it, %c2 : index
          cake.pipeline.consumer_wait %pipe[%ahead] : !cake.pipeline<4>
          %ready = arith.cmpi ugt, %it, %c0 : index
          scf.if %ready {
            %old = arith.subi %it, %c2 : index
            cake.pipeline.consumer_release %pipe[%old] : !cake.pipeline<4>
          }
        }
      }
    }
  }
  cake.return
}

// -----

// mbarriers in a loop with alternating parity: both roles wait before they arrive.
cake.kernel @loop_cycle()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
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
      scf.for %it = %c0 to %k step %c1 {
        %parity = arith.remui %it, %c2 : index
        // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
        // expected-note @+1 {{fix: break the cycle}}
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        scf.if %t0 {
          // expected-note @+1 {{the wait on mbarrier 1 needs this arrival}}
          cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "b" warps [4, 8) {
      scf.for %it = %c0 to %k step %c1 {
        %parity = arith.remui %it, %c2 : index
        // expected-note @+1 {{waits on mbarrier 1 here}}
        cake.mbarrier.wait %bars[%c1], %parity : !cake.mbarriers<2>
        scf.if %t128 {
          // expected-note @+1 {{the wait on mbarrier 0 needs this arrival}}
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
  }
  cake.return
}

// -----

// Valid: the ping-pong of the same barriers, role b arriving first in each iteration (its arrival
// follows its wait of the previous iteration only).
cake.kernel @loop_ping_pong()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %k = cake.problem_size "K"
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
      scf.for %it = %c0 to %k step %c1 {
        %parity = arith.remui %it, %c2 : index
        cake.mbarrier.wait %bars[%c0], %parity : !cake.mbarriers<2>
        scf.if %t0 {
          cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "b" warps [4, 8) {
      scf.for %it = %c0 to %k step %c1 {
        scf.if %t128 {
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
        %parity = arith.remui %it, %c2 : index
        cake.mbarrier.wait %bars[%c1], %parity : !cake.mbarriers<2>
      }
    }
  }
  cake.return
}

// -----

// A named barrier of both roles that role a reaches only after a wait whose arrival role b makes
// after the named barrier.
cake.kernel @named_barrier_cycle()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
      // expected-note @+1 {{fix: break the cycle}}
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      // expected-note @+1 {{the wait on named barrier 1 needs this arrival, which comes after the wait on mbarrier 0}}
      cake.named_barrier 1, threads 256
    }
    cake.role "b" warps [4, 8) {
      // expected-note @+1 {{waits on named barrier 1 here}}
      cake.named_barrier 1, threads 256
      scf.if %t128 {
        // expected-note @+1 {{the wait on mbarrier 0 needs this arrival, which comes after the wait on named barrier 1}}
        cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
      }
    }
  }
  cake.return
}

// -----

// Valid: role b arrives before the named barrier.
cake.kernel @named_barrier_ok()
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %t128 = arith.cmpi eq, %tid, %c128 : index
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      cake.named_barrier 1, threads 256
    }
    cake.role "b" warps [4, 8) {
      scf.if %t128 {
        cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
      }
      cake.named_barrier 1, threads 256
    }
  }
  cake.return
}

// -----

// The block barrier: warp 0 waits for an arrival that comes after a cake.barrier all threads
// (warp 0 included) must reach.
cake.kernel @block_barrier_cycle()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %w0 = arith.cmpi eq, %warp, %c0 : index
  scf.if %w0 {
    // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
    // expected-note @+1 {{fix: break the cycle}}
    cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  }
  // expected-note @+1 {{waits on the block barrier here}}
  cake.barrier
  %t32 = arith.cmpi eq, %tid, %c32 : index
  scf.if %t32 {
    // expected-note @+1 {{the wait on mbarrier 0 needs this arrival, which comes after the wait on the block barrier}}
    cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  }
  cake.return
}

// -----

// A named barrier for a whole warpgroup inside a branch only warps 0 and 1 take (arrivals count
// by whole warps: a branch on lanes is roles.partial-warp, see cake-verify-roles.mlir).
cake.kernel @named_barrier_in_branch()
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c2 = arith.constant 2 : index
  %warp = cake.warp_id
  %low = arith.cmpi ult, %warp, %c2 : index
  // expected-note @+1 {{this scf.if decides which threads get there}}
  scf.if %low {
    // expected-error @+2 {{'cake.named_barrier' op [deadlock.branch-participation] expected 128 threads to arrive at named barrier 1, but at most 64 can reach it: the others take another branch, and the threads that arrive wait forever}}
    // expected-note @+1 {{fix: execute the barrier in every participating thread (outside the branch), or set threads 64 if only these threads synchronize}}
    cake.named_barrier 1, threads 128
  }
  cake.return
}

// -----

// A named barrier for two warpgroups in a role of one.
cake.kernel @named_barrier_in_small_role()
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    // expected-note @+1 {{only the warps of role 'consumer' (warps [4, 8)) run it}}
    cake.role "consumer" warps [4, 8) {
      // expected-error @+2 {{[deadlock.branch-participation] expected 256 threads to arrive at named barrier 2, but at most 128 can reach it}}
      // expected-note @+1 {{fix: execute the barrier in every participating thread}}
      cake.named_barrier 2, threads 256
    }
  }
  cake.return
}

// -----

// Valid: a named barrier per consumer warpgroup; one in both branches of a thread-dependent if.
cake.kernel @named_barrier_ok_branches()
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c64 = arith.constant 64 : index
  %tid = cake.thread_id x
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    cake.named_barrier 3, threads 128
  } else {
    cake.named_barrier 3, threads 128
  }
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    cake.role "consumer" warps [4, 8) {
      cake.named_barrier 1, threads 128
    }
    cake.role "consumer2" warps [8, 12) {
      cake.named_barrier 2, threads 128
    }
  }
  cake.return
}

// -----

// mbarrier arrivals from a data-dependent branch of the first 64 threads, on a barrier that
// counts 128: cake-verify-mbarrier cannot count them, but no more than 64 can ever arrive.
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
      // expected-note @+1 {{fix: make each of the 128 counted threads arrive exactly once per phase on every path}}
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
  }
  // expected-note @+1 {{waits for phase 0 here}}
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

// Valid: the same with a count of 64 (enough threads may arrive; whether they do depends on the
// data, which the pass does not decide).
cake.kernel @mbarrier_arrivals_maybe(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 64 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %low = arith.cmpi ult, %tid, %c64 : index
  scf.if %low {
    %v = cake.load %x[%tid] : !cake.tensor<[N], f32> -> f32
    %positive = arith.cmpf ogt, %v, %zero : f32
    scf.if %positive {
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

// A ring of 4 full/empty barrier pairs walked by a loop: iteration kt uses slot kt mod 4 in round
// kt div 4. The producer's wait on 'empty' uses the round's parity, not its inverse, so in round 0
// it waits for a release of data it has not produced yet.
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
        // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
        // expected-note @+1 {{fix: break the cycle: a ring whose slots start free (the producer's 'empty' barriers) is waited on with the inverse of the round's parity, (round mod 2) xor 1, so that round 0 passes}}
        cake.mbarrier.wait %bars[%empty], %parity : !cake.mbarriers<8>
        // expected-note @+1 {{the wait on the ring of mbarriers 0 1 2 3 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 4 5 6 7}}
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
        // expected-note @+1 {{the wait on the ring of mbarriers 4 5 6 7 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 0 1 2 3}}
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<8>
      }
    }
  }
  cake.return
}

// -----

// The same ring, correct: the empty wait's parity is inverted (1 - round mod 2, slot spelled
// kt - 4 (kt div 4)), so round 0 passes freely and round r needs the release of round r - 1.
cake.kernel @ring_empty_parity_inverted()
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<8>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    cake.mbarrier.init %bars[%c0], count 32 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c2], count 32 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c3], count 32 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c4], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c5], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c6], count 64 : !cake.mbarriers<8>
    cake.mbarrier.init %bars[%c7], count 64 : !cake.mbarriers<8>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %round = arith.divui %kt, %c4 : index
        %base = arith.muli %round, %c4 : index
        %slot = arith.subi %kt, %base : index
        %odd = arith.remui %round, %c2 : index
        %parity = arith.subi %c1, %odd : index
        %empty = arith.addi %slot, %c4 : index
        cake.mbarrier.wait %bars[%empty], %parity : !cake.mbarriers<8>
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<8>
      }
    }
    cake.role "consumer" warps [1, 3) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = arith.remui %kt, %c4 : index
        %round = arith.divui %kt, %c4 : index
        %parity = arith.remui %round, %c2 : index
        %empty = arith.addi %slot, %c4 : index
        cake.mbarrier.wait %bars[%slot], %parity : !cake.mbarriers<8>
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<8>
      }
    }
  }
  cake.return
}

// -----

// The same bug with the ring's arithmetic in the index dialect, and two consumer roles that each
// bring half of an empty barrier's count: the producer's wait needs both roles' releases.
cake.kernel @ring_index_dialect_two_consumer_roles()
    attributes {target = "sm_90a", block = array<i64: 96>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<4>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 32 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c1], count 32 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c2], count 64 : !cake.mbarriers<4>
    cake.mbarrier.init %bars[%c3], count 64 : !cake.mbarriers<4>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %i2 = index.constant 2
  %i1 = index.constant 1
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = index.remu %kt, %i2
        %round = index.divu %kt, %i2
        %parity = index.and %round, %i1
        %empty = index.add %slot, %i2
        // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
        // expected-note @+1 {{fix: break the cycle: a ring whose slots start free}}
        cake.mbarrier.wait %bars[%empty], %parity : !cake.mbarriers<4>
        // expected-note @+1 {{the wait on the ring of mbarriers 0 1 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 2 3}}
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<4>
      }
    }
    cake.role "left" warps [1, 2) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = index.remu %kt, %i2
        %round = index.divu %kt, %i2
        %parity = index.and %round, %i1
        %empty = index.add %slot, %i2
        cake.mbarrier.wait %bars[%slot], %parity : !cake.mbarriers<4>
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
      }
    }
    cake.role "right" warps [2, 3) {
      scf.for %kt = %c0 to %tiles step %c1 {
        %slot = index.remu %kt, %i2
        %round = index.divu %kt, %i2
        %parity = index.and %round, %i1
        %empty = index.add %slot, %i2
        // expected-note @+1 {{waits on the ring of mbarriers 0 1 (round r on r's parity: round 0 waits for a first completion) here}}
        cake.mbarrier.wait %bars[%slot], %parity : !cake.mbarriers<4>
        // expected-note @+1 {{the wait on the ring of mbarriers 2 3 (round r on r's parity: round 0 waits for a first completion) needs this arrival, which comes after the wait on the ring of mbarriers 0 1}}
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<4>
      }
    }
  }
  cake.return
}

// -----

// Slot and phase carried through the loops' iteration arguments (CUTLASS's PipelineState style):
// the producer starts its empty phase at 0 like the consumers, so round 0 waits for a release.
cake.kernel @ring_carried_state()
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    scf.for %s = %c0 to %c3 step %c1 {
      cake.mbarrier.init %bars[%s], count 32 : !cake.mbarriers<6>
      %e = arith.addi %s, %c3 : index
      cake.mbarrier.init %bars[%e], count 32 : !cake.mbarriers<6>
    }
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %r:2 = scf.for %kt = %c0 to %tiles step %c1 iter_args(%slot = %c0, %phase = %c0) -> (index, index) {
        %empty = arith.addi %slot, %c3 : index
        // expected-error @+2 {{[deadlock.cyclic-wait] expected an arrival that can complete this wait, but 2 waits form a wait-for cycle}}
        // expected-note @+1 {{fix: break the cycle: a ring whose slots start free}}
        cake.mbarrier.wait %bars[%empty], %phase : !cake.mbarriers<6>
        // expected-note @+1 {{the wait on the ring of mbarriers 0 1 2 (round r on r's parity: round 0 waits for a first completion) needs this arrival}}
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<6>
        %next = arith.addi %slot, %c1 : index
        %wrap = arith.cmpi eq, %next, %c3 : index
        %slot2 = arith.select %wrap, %c0, %next : index
        %flipped = arith.xori %phase, %c1 : index
        %phase2 = arith.select %wrap, %flipped, %phase : index
        scf.yield %slot2, %phase2 : index, index
      }
    }
    cake.role "consumer" warps [1, 2) {
      %r:2 = scf.for %kt = %c0 to %tiles step %c1 iter_args(%slot = %c0, %phase = %c0) -> (index, index) {
        %empty = arith.addi %slot, %c3 : index
        // expected-note @+1 {{waits on the ring of mbarriers 0 1 2 (round r on r's parity: round 0 waits for a first completion) here}}
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<6>
        // expected-note @+1 {{the wait on the ring of mbarriers 3 4 5 (round r on r's parity: round 0 waits for a first completion) needs this arrival}}
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
        %next = arith.addi %slot, %c1 : index
        %wrap = arith.cmpi eq, %next, %c3 : index
        %slot2 = arith.select %wrap, %c0, %next : index
        %flipped = arith.xori %phase, %c1 : index
        %phase2 = arith.select %wrap, %flipped, %phase : index
        scf.yield %slot2, %phase2 : index, index
      }
    }
  }
  cake.return
}

// -----

// The same, correct: the producer's empty phase starts at 1 (round 0 passes).
cake.kernel @ring_carried_state_producer_from_one()
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %tiles = cake.problem_size "T"
  %bars = cake.mbarrier.alloc : !cake.mbarriers<6>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    scf.for %s = %c0 to %c3 step %c1 {
      cake.mbarrier.init %bars[%s], count 32 : !cake.mbarriers<6>
      %e = arith.addi %s, %c3 : index
      cake.mbarrier.init %bars[%e], count 32 : !cake.mbarriers<6>
    }
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %r:2 = scf.for %kt = %c0 to %tiles step %c1 iter_args(%slot = %c0, %phase = %c1) -> (index, index) {
        %empty = arith.addi %slot, %c3 : index
        cake.mbarrier.wait %bars[%empty], %phase : !cake.mbarriers<6>
        cake.mbarrier.arrive %bars[%slot] : !cake.mbarriers<6>
        %next = arith.addi %slot, %c1 : index
        %wrap = arith.cmpi eq, %next, %c3 : index
        %slot2 = arith.select %wrap, %c0, %next : index
        %flipped = arith.xori %phase, %c1 : index
        %phase2 = arith.select %wrap, %flipped, %phase : index
        scf.yield %slot2, %phase2 : index, index
      }
    }
    cake.role "consumer" warps [1, 2) {
      %r:2 = scf.for %kt = %c0 to %tiles step %c1 iter_args(%slot = %c0, %phase = %c0) -> (index, index) {
        %empty = arith.addi %slot, %c3 : index
        cake.mbarrier.wait %bars[%slot], %phase : !cake.mbarriers<6>
        cake.mbarrier.arrive %bars[%empty] : !cake.mbarriers<6>
        %next = arith.addi %slot, %c1 : index
        %wrap = arith.cmpi eq, %next, %c3 : index
        %slot2 = arith.select %wrap, %c0, %next : index
        %flipped = arith.xori %phase, %c1 : index
        %phase2 = arith.select %wrap, %flipped, %phase : index
        scf.yield %slot2, %phase2 : index, index
      }
    }
  }
  cake.return
}
