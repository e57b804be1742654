// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-mbarrier -o /dev/null

// Cluster launch control under cake-verify-mbarrier: the 16-byte answer counts as transaction
// bytes on its barrier, and a query must follow a wait on the phase its request completes.

// The query reads the answer right after the request: nothing waited.
cake.kernel @query_before_wait() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 16 : !cake.mbarriers<1>
    // expected-note @+1 {{the request, completing on its mbarrier}}
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  }
  // expected-error @+2 {{'cake.clc.query' op [clc.query-before-wait] reads a cluster launch control answer before waiting on the barrier its request completes}}
  // expected-note @+1 {{fix: cake.mbarrier.wait on the request's barrier (the phase it completes) before cake.clc.query}}
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.return
}

// -----

// No request writes the answer buffer.
cake.kernel @query_unanswered() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  // expected-error @+2 {{[clc.query-before-wait] reads a cluster launch control answer that no cake.clc.try_cancel writes}}
  // expected-note @+1 {{fix: issue cake.clc.try_cancel into this buffer (and wait on its barrier) before the query}}
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.return
}

// -----

// The answer's 16 bytes are transaction bytes: 32 announced.
cake.kernel @answer_bytes() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    // expected-error @+2 {{[mbarrier.tx-bytes] expected the transaction bytes to equal the 16 bytes of the TMA copies and launch-control answers completing on mbarrier 0, got 32}}
    // expected-note @+1 {{fix: set bytes 16}}
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32 : !cake.mbarriers<1>
    // expected-note @+1 {{answers in 16 bytes}}
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.return
}

// -----

// No arrive_expect_tx announces the answer.
cake.kernel @answer_unannounced() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    // expected-error @+2 {{[mbarrier.tx-missing] expected a cake.mbarrier.arrive_expect_tx announcing the 16 bytes of this answer on mbarrier 0}}
    // expected-note @+1 {{fix: before the request, in the same thread: cake.mbarrier.arrive_expect_tx %bars[0], bytes 16}}
    cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
    cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
  cake.return
}

// -----

// Valid: a persistent loop; the request at the end of an iteration, its wait and the query at the
// start of the next (the phase counts the answers).
cake.kernel @persistent_loop() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %bx = cake.block_id x
  %last:2 = scf.while (%go = %true, %n = %c0) : (i1, index) -> (i1, index) {
    scf.condition(%go) %go, %n : i1, index
  } do {
  ^bb0(%g: i1, %i: index):
    cake.barrier
    scf.if %one {
      cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 16 : !cake.mbarriers<1>
      cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bars[%c0], %i : !cake.mbarriers<1>
    %taken, %x, %y, %z = cake.clc.query %resp[] : !cake.smem<4xi32>
    %next = arith.addi %i, %c1 : index
    scf.yield %taken, %next : i1, index
  }
  cake.return
}
