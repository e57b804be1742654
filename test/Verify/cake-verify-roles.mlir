// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-roles -o /dev/null

// cake-verify-roles: register budgets, warpgroup-aligned wgmma roles, block barriers every thread
// reaches, collectives executed by whole warps and warpgroups.

// Valid: 4 warps x 40 + 8 warps x 232 registers = 64512 of 65536; wgmma in whole warpgroups.
cake.kernel @valid() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// The consumers take 248 registers: 68608 in all.
cake.kernel @register_file() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  // expected-error @+2 {{[roles.register-file] expected the warps' register budgets to total at most 65536 registers, got 68608}}
  // expected-note @+1 {{fix: lower role 'consumer' to regs 232 (or lower the other roles' budgets)}}
  cake.warp_roles {
    // expected-note @+1 {{role 'producer' (warps [0, 4)): 4 warps x 32 threads x 40 registers = 5120}}
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-note @+1 {{role 'consumer' (warps [4, 12)): 8 warps x 32 threads x 248 registers = 63488}}
    cake.role "consumer" warps [4, 12) regs 248 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// Warps in no role count at the entry budget (65536 / 512 / 8 * 8 = 128): 4 x 32 x 40 +
// 8 x 32 x 232 + 4 x 32 x 128 = 80896.
cake.kernel @roleless_warps() attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  // expected-error @+2 {{[roles.register-file] expected the warps' register budgets to total at most 65536 registers, got 80896}}
  // expected-note @+1 {{fix: lower role 'consumer' to regs 168 (or lower the other roles' budgets)}}
  cake.warp_roles {
    // expected-note @+1 {{role 'producer' (warps [0, 4)): 4 warps x 32 threads x 40 registers = 5120}}
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-note @+1 {{role 'consumer' (warps [4, 12)): 8 warps x 32 threads x 232 registers = 59392}}
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// A wgmma role of six warps.
cake.kernel @wgmma_misaligned() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-error @+2 {{[roles.wgmma-warpgroup] expected a role that issues wgmma to cover whole warpgroups (warps aligned to 4), got [4, 10)}}
    // expected-note @+1 {{fix: give the role warps [4, 12) (whole warpgroups) and move the other roles out of them}}
    cake.role "consumer" warps [4, 10) {
      // expected-note @+1 {{wgmma op here}}
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// A block barrier inside a role: the other roles never arrive.
cake.kernel @barrier_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  cake.warp_roles {
    // expected-note @+1 {{the role is here; warps outside it never arrive}}
    cake.role "producer" warps [0, 4) regs 40 {
      // expected-error @+2 {{[roles.barrier-in-role] expected a block-wide barrier to be reached by every thread, but it is inside role 'producer' (warps [0, 4))}}
      // expected-note @+1 {{fix: move the barrier out of cake.warp_roles, or synchronize the role with mbarriers or a pipeline}}
      cake.barrier
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// A pipeline created inside a role (it ends with a block barrier).
cake.kernel @pipeline_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  cake.warp_roles {
    // expected-note @+1 {{the role is here; warps outside it never arrive}}
    cake.role "producer" warps [0, 4) regs 40 {
      // expected-error @+2 {{[roles.barrier-in-role] expected a block-wide barrier to be reached by every thread, but it is inside role 'producer' (warps [0, 4))}}
      // expected-note @+1 {{fix: create the pipeline before cake.warp_roles}}
      %p = cake.pipeline.create consumers 1 : !cake.pipeline<2>
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

// A block barrier under a thread-dependent condition.
cake.kernel @divergent_barrier() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %low = arith.cmpi ult, %tid, %c64 : index
  // expected-note @+1 {{this scf.if depends on the thread}}
  scf.if %low {
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
    // expected-note @+1 {{fix: split the scf.if at the barrier: end it before the barrier and reopen the same condition after it, so that every thread reaches the barrier}}
    cake.barrier
  }
  cake.return
}

// -----

// A block barrier in a loop whose trip count depends on the thread.
cake.kernel @divergent_loop() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  // expected-note @+1 {{this scf.for depends on the thread}}
  scf.for %i = %c0 to %tid step %c1 {
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
    // expected-note @+1 {{fix: give the loop a trip count every thread shares and mask the per-thread work inside it, so that every thread reaches the barrier equally often}}
    cake.barrier
  }
  cake.return
}

// -----

// Valid: a block barrier under a uniform condition and in a uniform loop.
cake.kernel @uniform_barrier() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %bid = cake.block_id x
  %first = arith.cmpi eq, %bid, %c0 : index
  scf.if %first {
    cake.barrier
  }
  scf.for %i = %c0 to %n step %c1 {
    cake.barrier
  }
  cake.return
}

// -----

// Valid: a block barrier in a loop whose bounds are loaded from a tensor the kernel never writes, at
// one address per block (a sequence's bounds in a varlen batch): every thread reads the same value.
cake.kernel @loaded_uniform_bounds(%cu: !cake.tensor<[S], i64> {cake.name = "cu"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["S"],
                grid = affine_map<()[s] -> (s - 1)>} {
  %c1 = arith.constant 1 : index
  %n = cake.block_id x
  %n1 = arith.addi %n, %c1 : index
  %b = cake.load %cu[%n] : !cake.tensor<[S], i64> -> i64
  %e = cake.load %cu[%n1] : !cake.tensor<[S], i64> -> i64
  %bos = arith.index_cast %b : i64 to index
  %eos = arith.index_cast %e : i64 to index
  scf.for %t = %bos to %eos step %c1 {
    cake.barrier
  }
  cake.return
}

// -----

// The same bounds loaded from a tensor the kernel also writes (another thread may change the value
// between two threads' loads), or at an address that depends on the thread: not uniform.
cake.kernel @loaded_bounds_not_uniform(%cu: !cake.tensor<[S], i64> {cake.name = "cu"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["S"],
                grid = affine_map<()[s] -> (s - 1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = cake.block_id x
  %tid = cake.thread_id x
  %b = cake.load %cu[%n] : !cake.tensor<[S], i64> -> i64
  %bos = arith.index_cast %b : i64 to index
  // expected-note @+1 {{this scf.for depends on the thread}}
  scf.for %t = %c0 to %bos step %c1 {
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread}}
    // expected-note @+1 {{fix: give the loop a trip count every thread shares and mask the per-thread work inside it, so that every thread reaches the barrier equally often}}
    cake.barrier
  }
  %w = arith.index_cast %tid : index to i64
  cake.store %w, %cu[%n] masked : i64, !cake.tensor<[S], i64>
  %x = cake.load %cu[%tid] masked : !cake.tensor<[S], i64> -> i64
  %xi = arith.index_cast %x : i64 to index
  // expected-note @+1 {{this scf.for depends on the thread}}
  scf.for %t = %c0 to %xi step %c1 {
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread}}
    // expected-note @+1 {{fix: give the loop a trip count every thread shares and mask the per-thread work inside it, so that every thread reaches the barrier equally often}}
    cake.barrier
  }
  cake.return
}

// -----

// Valid: the sequence of the block found by a binary search over a read-only tensor (scf.while):
// the carried values stay uniform (uniform start, uniform loads at uniform addresses), so the
// barrier under the condition they decide is reached by every thread of the block or by none.
cake.kernel @bisection_uniform(%cu: !cake.tensor<[S], i64> {cake.name = "cu"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["S", "C"],
                grid = affine_map<()[s, c] -> (c)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %sl = cake.block_id x
  %ns = cake.problem_size "S"
  %r:2 = scf.while (%lo = %c0, %hi = %ns) : (index, index) -> (index, index) {
    %gap = arith.subi %hi, %lo : index
    %more = arith.cmpi ugt, %gap, %c1 : index
    scf.condition(%more) %lo, %hi : index, index
  } do {
  ^bb0(%a: index, %b: index):
    %s = arith.addi %a, %b : index
    %m = arith.divui %s, %c2 : index
    %v = cake.load %cu[%m] : !cake.tensor<[S], i64> -> i64
    %vi = arith.index_cast %v : i64 to index
    %le = arith.cmpi ule, %vi, %sl : index
    %na = arith.select %le, %m, %a : index
    %nb = arith.select %le, %b, %m : index
    scf.yield %na, %nb : index, index
  }
  %live = arith.cmpi ult, %r#0, %sl : index
  scf.if %live {
    cake.barrier
  }
  cake.return
}

// -----

// The same search started from the thread's id: its carried values differ between threads.
cake.kernel @bisection_per_thread(%cu: !cake.tensor<[S], i64> {cake.name = "cu"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["S", "C"],
                grid = affine_map<()[s, c] -> (c)>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %sl = cake.block_id x
  %tid = cake.thread_id x
  %ns = cake.problem_size "S"
  %r:2 = scf.while (%lo = %tid, %hi = %ns) : (index, index) -> (index, index) {
    %gap = arith.subi %hi, %lo : index
    %more = arith.cmpi ugt, %gap, %c1 : index
    scf.condition(%more) %lo, %hi : index, index
  } do {
  ^bb0(%a: index, %b: index):
    %s = arith.addi %a, %b : index
    %m = arith.divui %s, %c2 : index
    %v = cake.load %cu[%m] : !cake.tensor<[S], i64> -> i64
    %vi = arith.index_cast %v : i64 to index
    %le = arith.cmpi ule, %vi, %sl : index
    %na = arith.select %le, %m, %a : index
    %nb = arith.select %le, %b, %m : index
    scf.yield %na, %nb : index, index
  }
  %live = arith.cmpi ult, %r#0, %sl : index
  // expected-note @+1 {{this scf.if depends on the thread}}
  scf.if %live {
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread}}
    // expected-note @+1 {{fix: split the scf.if at the barrier: end it before the barrier and reopen the same condition after it, so that every thread reaches the barrier}}
    cake.barrier
  }
  cake.return
}

// -----

// A warp reduction in half of each warp.
cake.kernel @partial_warp() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %half = arith.cmpi ult, %lane, %c16 : index
  %one = arith.constant 1.0 : f32
  // expected-note @+1 {{threads diverge here}}
  scf.if %half {
    // expected-error @+2 {{[roles.partial-warp] expected all 32 threads of warp 0 to execute this op, got 16}}
    // expected-note @+1 {{fix: execute the reduction in all 32 lanes (move it out of lane-dependent conditions), the lanes outside the condition contributing the identity: arith.select on the condition (0 for a sum, -inf for a max)}}
    %s = cake.warp_reduce sum %one : f32
  }
  cake.return
}

// -----

// A named barrier (bar.sync, .aligned) in lane 0 of each warp: undefined, though the hardware
// counts each warp's arrival as 32 threads and the H200 runs it to completion.
cake.kernel @partial_warp_named_barrier() attributes {target = "sm_90a", block = array<i64: 256>,
                                symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %lane = cake.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  // expected-note @+1 {{threads diverge here}}
  scf.if %first {
    // expected-error @+2 {{[roles.partial-warp] expected all 32 threads of warp 0 to execute this op, got 1}}
    // expected-note @+1 {{fix: execute the named barrier in all 32 lanes of each arriving warp (move it out of lane-dependent conditions): bar.sync is .aligned}}
    cake.named_barrier 1, threads 256
  }
  cake.return
}

// -----

// Valid: a warp reduction in whole warps (warp 0 only).
cake.kernel @whole_warp() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %one = arith.constant 1.0 : f32
  scf.if %w0 {
    %s = cake.warp_reduce sum %one : f32
  }
  cake.return
}

// -----

// wgmma ops in half of a warpgroup.
cake.kernel @partial_warpgroup() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %in = arith.remui %tid, %c128 : index
  %low = arith.cmpi ult, %in, %c64 : index
  // expected-note @+1 {{threads diverge here}}
  scf.if %low {
    // expected-error @+2 {{[roles.partial-warpgroup] expected all 128 threads of warpgroup 0 to execute this op, got 64}}
    // expected-note @+1 {{fix: execute wgmma ops in every thread of the warpgroup (move them out of thread-dependent conditions)}}
    cake.wgmma.fence
  }
  cake.return
}

// -----

// A cluster barrier (barrier.cluster.arrive/wait.aligned) needs every thread of each block too.
cake.kernel @divergent_cluster_barrier()
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  // expected-note @+1 {{this scf.if depends on the thread}}
  scf.if %first {
    // expected-error @+2 {{'cake.cluster_barrier' op [roles.divergent-barrier] expected a block-wide barrier to be reached by every thread}}
    // expected-note @+1 {{fix: split the scf.if at the barrier: end it before the barrier and reopen the same condition after it, so that every thread reaches the barrier}}
    cake.cluster_barrier
  }
  cake.cluster_barrier
  cake.return
}

// -----

// Named barrier counts: every bar.sync of an id names the threads that reach the id.
// Valid: a cross-role handoff (both roles' 256 threads on barrier 1), and one id per role, the
// same id twice in one role being the same barrier.
cake.kernel @handoff() attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                                   grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      cake.named_barrier 1, threads 256
      cake.named_barrier 2, threads 128
      cake.named_barrier 2, threads 128
    }
    cake.role "consumer" warps [4, 8) {
      cake.named_barrier 1, threads 256
      cake.named_barrier 3, threads 128
    }
  }
  cake.return
}

// -----

// Two roles each syncing their own 128 threads on one id: each counts the other's arrivals.
cake.kernel @shared_id() attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                                     grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "a" warps [0, 4) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 1), got 128}}
      // expected-note @+2 {{fix: give each of these barriers its own id (1 to 15, unused elsewhere)}}
      // expected-note @+7 {{barrier 1 is also reached here}}
      cake.named_barrier 1, threads 128
    }
    cake.role "b" warps [4, 8) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 1), got 128}}
      // expected-note @+2 {{fix: give each of these barriers its own id}}
      // expected-note @-5 {{barrier 1 is also reached here}}
      cake.named_barrier 1, threads 128
    }
  }
  cake.return
}

// -----

// A handoff whose count covers one role while two participate (releases early), and one whose
// count exceeds the block's participants (hangs).
cake.kernel @short_count() attributes {target = "sm_90a", block = array<i64: 384>, symbols = [],
                                       grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 4), got 384}}
      // expected-note @+2 {{fix: set threads 256 on every cake.named_barrier 4}}
      // expected-note @+7 {{barrier 4 is also reached here with threads 128}}
      cake.named_barrier 4, threads 384
    }
    cake.role "consumer" warps [4, 8) {
      // expected-error @+3 {{[roles.named-barrier-count] expected threads 256 (every thread that reaches barrier 4), got 128}}
      // expected-note @+2 {{fix: set threads 256 on every cake.named_barrier 4}}
      // expected-note @-5 {{barrier 4 is also reached here with threads 384}}
      cake.named_barrier 4, threads 128
    }
  }
  cake.return
}

// -----

// An scf.while whose condition each thread computes from a count it loads at its own address:
// threads leave the loop after different numbers of trips, so the barrier inside is divergent.
cake.kernel @while_per_thread_trips(%cnt: !cake.tensor<[N], i32> {cake.name = "cnt"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c64 : index
  %g = arith.addi %base, %tid : index
  %n32 = cake.load %cnt[%g] masked : !cake.tensor<[N], i32> -> i32
  %n = arith.index_cast %n32 : i32 to index
  // expected-note @+1 {{this scf.while depends on the thread}}
  %res:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%ii: index, %s: f32):
    // expected-error @+2 {{[roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
    // expected-note @+1 {{fix:}}
    cake.barrier
    %s2 = arith.addf %s, %one : f32
    %in = arith.addi %ii, %c1 : index
    scf.yield %in, %s2 : index, f32
  }
  cake.store %res#1, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// The same with the count loaded at the block's address: every thread loops equally often.
cake.kernel @while_uniform_trips(%cnt: !cake.tensor<[N], i32> {cake.name = "cnt"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c64 : index
  %g = arith.addi %base, %tid : index
  %n32 = cake.load %cnt[%bid] masked : !cake.tensor<[N], i32> -> i32
  %n = arith.index_cast %n32 : i32 to index
  %res:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%ii: index, %s: f32):
    cake.barrier
    %s2 = arith.addf %s, %one : f32
    %in = arith.addi %ii, %c1 : index
    scf.yield %in, %s2 : index, f32
  }
  cake.store %res#1, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
