// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-races -o /dev/null

// cake-verify-races: shared-memory accesses of threads in different warps (or different roles)
// that touch one element with nothing ordering them. Only provable overlaps are reported.

// One thread writes, every thread reads, no barrier.
cake.kernel @broadcast_without_barrier(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<4xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // expected-note @+1 {{the write is here}}
    cake.store %one, %buf[%c0] : f32, !cake.smem<4xf32>
  }
  // expected-error @+2 {{'cake.load' op [race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads: thread 32 (warp 1) reads element [0], which thread 0 (warp 0) writes before it, with no barrier in between}}
  // expected-note @+1 {{fix: add cake.barrier after the write and before this read, outside any role or thread-dependent condition}}
  %v = cake.load %buf[%c0] : !cake.smem<4xf32> -> f32
  cake.store %v, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Each thread reads its neighbour's element: thread 31 reads what thread 32 (another warp) wrote.
cake.kernel @neighbour(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  // expected-note @+1 {{the write is here}}
  cake.store %one, %buf[%tid] : f32, !cake.smem<256xf32>
  %next = arith.addi %tid, %c1 : index
  // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads: thread 31 (warp 0) reads element [32], which thread 32 (warp 1) writes before it}}
  // expected-note @+1 {{fix: add cake.barrier}}
  %v = cake.load %buf[%next] : !cake.smem<256xf32> -> f32
  cake.store %v, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// A tiled loop with one barrier: the next iteration's stores overwrite the tile while other
// threads may still read it (the missing second __syncthreads).
cake.kernel @tiled_loop_one_barrier(%a: !cake.tensor<[K], f32>, %out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %k = cake.problem_size "K"
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c128, %tid : index
  %mirror = arith.subi %rev, %c1 : index
  // expected-note @+1 {{the loop is here}}
  %sum = scf.for %k0 = %c0 to %k step %c128 iter_args(%s = %zero) -> (f32) {
    %g = arith.addi %k0, %tid : index
    %x = cake.load %a[%g] masked : !cake.tensor<[K], f32> -> f32
    // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this write of shared memory and the read by other threads in the previous iteration of the loop: thread 0 (warp 0) writes element [0], which thread 127 (warp 3) reads one iteration earlier, with no barrier in between}}
    // expected-note @+1 {{fix: add cake.barrier at the end of the loop body, after the last read of the buffer}}
    cake.store %x, %tile[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    // expected-note @+1 {{the read in the previous iteration is here}}
    %y = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %y : f32
    scf.yield %s2 : f32
  }
  cake.store %sum, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Valid: the same loop with both barriers.
cake.kernel @tiled_loop_two_barriers(%a: !cake.tensor<[K], f32>, %out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %k = cake.problem_size "K"
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c128, %tid : index
  %mirror = arith.subi %rev, %c1 : index
  %sum = scf.for %k0 = %c0 to %k step %c128 iter_args(%s = %zero) -> (f32) {
    %g = arith.addi %k0, %tid : index
    %x = cake.load %a[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %tile[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %y = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %y : f32
    cake.barrier
    scf.yield %s2 : f32
  }
  cake.store %sum, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Valid: a barrier between the write and the reads.
cake.kernel @broadcast_with_barrier(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<4xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.store %one, %buf[%c0] : f32, !cake.smem<4xf32>
  }
  cake.barrier
  %v = cake.load %buf[%c0] : !cake.smem<4xf32> -> f32
  cake.store %v, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Valid: every thread reads back only the elements it wrote itself (vector accesses of the same
// four elements); an index the model cannot evaluate (a loaded value) is not reported either.
// (A neighbour read inside one warp is: see @warp_synchronous_tail.)
cake.kernel @own_elements(%idx: !cake.tensor<[N], i32>, %out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ones = arith.constant dense<1.0> : vector<4xf32>
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %i4 = arith.muli %tid, %c4 : index
  cake.store %ones, %buf[%i4] : vector<4xf32>, !cake.smem<256xf32>
  %v = cake.load %buf[%i4] : !cake.smem<256xf32> -> vector<4xf32>
  %raw = cake.load %idx[%tid] masked : !cake.tensor<[N], i32> -> i32
  %j = arith.index_cast %raw : i32 to index
  %w = cake.load %buf[%j] : !cake.smem<256xf32> -> f32
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %s = arith.addf %e, %w : f32
  cake.store %s, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// One role stores to a plain buffer that another role reads, with no synchronization.
cake.kernel @roles_unsynchronized(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      // expected-note @+1 {{the write in role 'writer' (warps [0, 4)) is here}}
      cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
    }
    cake.role "reader" warps [4, 8) {
      %c128 = arith.constant 128 : index
      %i = arith.subi %tid, %c128 : index
      // expected-error @+2 {{'cake.load' op [race.cross-role] expected synchronization between role 'writer' (warps [0, 4)) and role 'reader' (warps [4, 8)) on this shared memory: thread 128 reads element [0] here and thread 0 writes it, with no mbarrier arrival (or named barrier) after one access that the other role waits for before the other}}
      // expected-note @+1 {{fix: after the write, arrive on an mbarrier (a TMA copy: complete on it) and wait on it in role 'reader' before this read; or pass the buffer through a cake.pipeline}}
      %v = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
      cake.store %v, %out[%i] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}

// -----

// Valid: the writer arrives on an mbarrier after its stores, the reader waits on it first.
cake.kernel @roles_mbarrier(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    cake.role "reader" warps [4, 8) {
      %c128 = arith.constant 128 : index
      %i = arith.subi %tid, %c128 : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %v = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
      cake.store %v, %out[%i] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}

// -----

// Valid: a named barrier both roles reach, after the write and before the read.
cake.kernel @roles_named_barrier(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
      cake.named_barrier 1, threads 256
    }
    cake.role "reader" warps [4, 8) {
      %c128 = arith.constant 128 : index
      %i = arith.subi %tid, %c128 : index
      cake.named_barrier 1, threads 256
      %v = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
      cake.store %v, %out[%i] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}

// -----

// A TMA copy completes on mbarrier 0, but the reader waits on mbarrier 1, which the producer
// arrives on after issuing the copy: the arrival does not cover the asynchronous write.
cake.kernel @tma_wrong_barrier(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 2048 : !cake.mbarriers<2>
        // expected-note @+1 {{the write in role 'producer' (warps [0, 4)) is here}}
        cake.tma.load %tx[%c0, %c0], %buf[], %bars[%c0]
            : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<2>
        cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
      // expected-error @+2 {{[race.cross-role] expected synchronization between role 'producer' (warps [0, 4)) and role 'consumer' (warps [4, 8)) on this shared memory: thread 128 reads element [0, 0] here and thread 0 writes it}}
      // expected-note @+1 {{fix: after the write, arrive on an mbarrier}}
      %v = cake.load %buf[%c0, %lane] : !cake.smem<16x32xf32> -> f32
      cake.store %v, %out[%lane] masked : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}

// -----

// Valid: the reader waits on the barrier the copy completes on.
cake.kernel @tma_completion_barrier(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32>)
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
      scf.if %t0 {
        cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 2048 : !cake.mbarriers<1>
        cake.tma.load %tx[%c0, %c0], %buf[], %bars[%c0]
            : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
      }
    }
    cake.role "consumer" warps [4, 8) {
      %lane = cake.lane_id
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %v = cake.load %buf[%c0, %lane] : !cake.smem<16x32xf32> -> f32
      cake.store %v, %out[%lane] masked : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}

// -----

// Every warp writes the same 32 elements.
cake.kernel @same_elements_every_warp(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<32xf32>
  %lane = cake.lane_id
  // expected-error @+2 {{'cake.store' op [race.missing-barrier] expected a block barrier between this write of shared memory and the write by other threads: thread 32 (warp 1) writes element [0], which thread 0 (warp 0) writes at the same time, with no barrier in between}}
  // expected-note @+1 {{fix: let one thread write each element (e.g. under a condition on the thread id)}}
  cake.store %one, %buf[%lane] : f32, !cake.smem<32xf32>
  cake.return
}

// -----

// The loop's trailing barrier is skipped on its last iteration ("no refill follows"), but the
// code after the loop writes the buffer the last iteration read: a race on every trip count.
cake.kernel @last_iteration_skips_barrier(%v: !cake.tensor<[K], f32> {cake.name = "v"},
                                          %y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %tiles = arith.ceildivui %kdim, %c128 : index
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c127, %tid : index
  %acc = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %zero) -> (f32) {
    %k0 = arith.muli %t, %c128 : index
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %buf[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    // expected-note @+1 {{the read is here}}
    %w = cake.load %buf[%rev] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %w : f32
    %next = arith.addi %t, %c1 : index
    %more = arith.cmpi ult, %next, %tiles : index
    scf.if %more {
      // expected-note @+1 {{this barrier does not run in the loop's last iteration (its condition is false there)}}
      cake.barrier
    }
    scf.yield %s2 : f32
  }
  // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this write of shared memory and the read by other threads: thread 0 (warp 0) writes element [0], which thread 127 (warp 3) reads before it, with no barrier in between}}
  // expected-note @+1 {{fix: add cake.barrier}}
  cake.store %acc, %buf[%tid] : f32, !cake.smem<128xf32>
  cake.store %acc, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

// Correct: the same loop with a barrier after it.
cake.kernel @last_iteration_skips_barrier_then_barrier(%v: !cake.tensor<[K], f32> {cake.name = "v"},
                                                       %y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %tiles = arith.ceildivui %kdim, %c128 : index
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c127, %tid : index
  %acc = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %zero) -> (f32) {
    %k0 = arith.muli %t, %c128 : index
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %buf[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %w = cake.load %buf[%rev] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %w : f32
    %next = arith.addi %t, %c1 : index
    %more = arith.cmpi ult, %next, %tiles : index
    scf.if %more {
      cake.barrier
    }
    scf.yield %s2 : f32
  }
  cake.barrier
  cake.store %acc, %buf[%tid] : f32, !cake.smem<128xf32>
  cake.store %acc, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

// An scf.while with one barrier per step: the next step's store overwrites what other warps
// still read in this one (the back edge of a while loop, as of a for loop).
cake.kernel @while_loop_one_barrier(%v: !cake.tensor<[K], f32> {cake.name = "v"},
                                    %y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c127, %tid : index
  // expected-note @+1 {{the loop is here}}
  %res:2 = scf.while (%k = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %k, %kdim : index
    scf.condition(%go) %k, %acc : index, f32
  } do {
  ^bb0(%k0: index, %s: f32):
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this write of shared memory and the read by other threads in the previous iteration of the loop: thread 0 (warp 0) writes element [0], which thread 127 (warp 3) reads one iteration earlier, with no barrier in between}}
    // expected-note @+1 {{fix: add cake.barrier at the end of the loop body}}
    cake.store %x, %buf[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    // expected-note @+1 {{the read in the previous iteration is here}}
    %w = cake.load %buf[%rev] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %w : f32
    %kn = arith.addi %k0, %c128 : index
    scf.yield %kn, %s2 : index, f32
  }
  cake.store %res#1, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

// Correct: the same while loop with the second barrier at the end of its body.
cake.kernel @while_loop_two_barriers(%v: !cake.tensor<[K], f32> {cake.name = "v"},
                                     %y: !cake.tensor<[K], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %rev = arith.subi %c127, %tid : index
  %res:2 = scf.while (%k = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %k, %kdim : index
    scf.condition(%go) %k, %acc : index, f32
  } do {
  ^bb0(%k0: index, %s: f32):
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %buf[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %w = cake.load %buf[%rev] : !cake.smem<128xf32> -> f32
    %s2 = arith.addf %s, %w : f32
    %kn = arith.addi %k0, %c128 : index
    cake.barrier
    scf.yield %kn, %s2 : index, f32
  }
  cake.store %res#1, %y[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

// The warp-synchronous tail of a tree reduction: below a stride of 32 the steps run in warp 0
// without a barrier, and lanes of one warp are not ordered (since Volta) — lane 0 reads the
// element lane 16 wrote one step before.
cake.kernel @warp_synchronous_tail(%out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %s = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  cake.store %one, %s[%tid] : f32, !cake.smem<64xf32>
  cake.barrier
  %in32 = arith.cmpi ult, %tid, %c32 : index
  scf.if %in32 {
    %o32 = arith.addi %tid, %c32 : index
    %a = cake.load %s[%tid] : !cake.smem<64xf32> -> f32
    %b = cake.load %s[%o32] : !cake.smem<64xf32> -> f32
    %p = arith.addf %a, %b : f32
    // expected-note @+1 {{the write is here}}
    cake.store %p, %s[%tid] : f32, !cake.smem<64xf32>
  }
  %in16 = arith.cmpi ult, %tid, %c16 : index
  scf.if %in16 {
    %o16 = arith.addi %tid, %c16 : index
    // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads: thread 0 (warp 0) reads element [16], which thread 16 (warp 0) writes before it, with no barrier in between}}
    // expected-note @+1 {{fix: lanes of one warp are not ordered either}}
    %b = cake.load %s[%o16] : !cake.smem<64xf32> -> f32
    cake.store %b, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// Correct: the same steps with a shuffle reduction instead of shared memory below 32.
cake.kernel @shuffle_tail(%out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %s = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  cake.store %one, %s[%tid] : f32, !cake.smem<64xf32>
  cake.barrier
  %in32 = arith.cmpi ult, %tid, %c32 : index
  scf.if %in32 {
    %o32 = arith.addi %tid, %c32 : index
    %a = cake.load %s[%tid] : !cake.smem<64xf32> -> f32
    %b = cake.load %s[%o32] : !cake.smem<64xf32> -> f32
    %p = arith.addf %a, %b : f32
    %r = cake.warp_reduce sum %p : f32
    %t0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %t0 {
      cake.store %r, %out[%c0] masked : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}

// -----

// A named barrier over warps 0 and 1 stands in for the block barrier: it orders its 64
// participants only, and warps 2 and 3 read what others wrote with nothing in between.
cake.kernel @named_barrier_two_warps(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c2 = arith.constant 2 : index
  %c127 = arith.constant 127 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  // expected-note @+1 {{the write is here}}
  cake.store %one, %buf[%tid] : f32, !cake.smem<128xf32>
  %warp = cake.warp_id
  %lo = arith.cmpi ult, %warp, %c2 : index
  scf.if %lo {
    // expected-note @+1 {{this named barrier orders only the threads that execute it, not threads 64 and 63}}
    cake.named_barrier 1, threads 64
  }
  %rev = arith.subi %c127, %tid : index
  // expected-error @+2 {{[race.missing-barrier] expected a block barrier between this read of shared memory and the write by other threads: thread 63 (warp 1) reads element [64], which thread 64 (warp 2) writes before it, with no barrier in between}}
  // expected-note @+1 {{fix: add cake.barrier}}
  %v = cake.load %buf[%rev] : !cake.smem<128xf32> -> f32
  cake.store %v, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Correct: the two warps that exchange data both take part in the named barrier.
cake.kernel @named_barrier_pair_exchange(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c2 = arith.constant 2 : index
  %c63 = arith.constant 63 : index
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<64xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %lo = arith.cmpi ult, %warp, %c2 : index
  scf.if %lo {
    cake.store %one, %buf[%tid] : f32, !cake.smem<64xf32>
    cake.named_barrier 1, threads 64
    %rev = arith.subi %c63, %tid : index
    %v = cake.load %buf[%rev] : !cake.smem<64xf32> -> f32
    cake.store %v, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// A shared histogram with a plain load, add and store: the bin comes from the data, and two
// threads of different warps with the same key lose one increment.
cake.kernel @histogram_plain_increment(%keys: !cake.tensor<[N], i32> {cake.name = "keys"},
                                       %hist: !cake.tensor<[64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %tid = cake.thread_id x
  %k = cake.load %keys[%tid] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  // expected-note @+1 {{the load is here}}
  %old = cake.load %bins[%bin] : !cake.smem<64xi32> -> i32
  %new = arith.addi %old, %one : i32
  // expected-error @+2 {{[race.lost-update] expected an atomic update: this store writes back a value computed from the load of the same shared element, at an index the data decides, in threads of 4 warps; for inputs where two of them compute the same index, one update is lost}}
  // expected-note @+1 {{fix: replace the load and the store with cake.atomic_add of the increment on the shared element}}
  cake.store %new, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.barrier
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%tid] masked : i32, !cake.tensor<[64], i32>
  }
  cake.return
}

// -----

// Correct: the same histogram with an atomic add; and a read-modify-write of each thread's own
// element (the index is the thread's, not the data's).
cake.kernel @histogram_atomic(%keys: !cake.tensor<[N], i32> {cake.name = "keys"},
                              %hist: !cake.tensor<[64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %own = cake.alloc_smem : !cake.smem<128xi32>
  %tid = cake.thread_id x
  %k = cake.load %keys[%tid] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  cake.atomic_add %one, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.store %k, %own[%tid] : i32, !cake.smem<128xi32>
  %o = cake.load %own[%tid] : !cake.smem<128xi32> -> i32
  %o2 = arith.addi %o, %one : i32
  cake.store %o2, %own[%tid] : i32, !cake.smem<128xi32>
  cake.barrier
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%tid] masked : i32, !cake.tensor<[64], i32>
  }
  cake.return
}

// -----

// race.unordered-handoff: one role fills a row, the other drains it, one "ready" named barrier
// per row and no "consumed" one: the filler's next row overwrites what the drainer still reads.
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

// Valid: the same hand-off with a "consumed" barrier (id 2) the drainer arrives on after its
// read and the filler before it writes the next row.
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
