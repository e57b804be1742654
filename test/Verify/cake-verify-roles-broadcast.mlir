// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-roles -o /dev/null

// The thread model and values one thread chooses and the block broadcasts through shared memory:
// a load every thread makes at one address of a buffer whose every store precedes a block barrier
// before the load (in the load's block, outside any loop) is one value for every thread, and so is
// an scf.if result under a uniform test whose branches yield such values. A loop bounded by it may
// hold block barriers.

// Thread 0 reads a count from memory and broadcasts it; every thread loops to it.
cake.kernel @broadcast_count(%cnt: !cake.tensor<[G], i32> {cake.name = "cnt"},
                             %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["G", "M"],
                grid = affine_map<()[g, m] -> (g)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %g = cake.problem_size "G"
  %few = arith.cmpi ule, %g, %c16 : index
  %box = cake.alloc_smem : !cake.smem<1xi32>
  %acc = cake.alloc_smem : !cake.smem<64xf32>
  %n = scf.if %few -> (index) {
    %lead = arith.cmpi eq, %t, %c0 : index
    scf.if %lead {
      %v = cake.load %cnt[%b] : !cake.tensor<[G], i32> -> i32
      cake.store %v, %box[%c0] : i32, !cake.smem<1xi32>
    }
    cake.barrier
    %r = cake.load %box[%c0] : !cake.smem<1xi32> -> i32
    %ri = arith.index_cast %r : i32 to index
    scf.yield %ri : index
  } else {
    scf.yield %c1 : index
  }
  %zero = arith.constant 0.0 : f32
  cake.store %zero, %acc[%t] : f32, !cake.smem<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    cake.barrier
    %x = cake.load %acc[%t] : !cake.smem<64xf32> -> f32
    %one = arith.constant 1.0 : f32
    %x1 = arith.addf %x, %one : f32
    cake.store %x1, %acc[%t] : f32, !cake.smem<64xf32>
  }
  %out = cake.load %acc[%t] : !cake.smem<64xf32> -> f32
  %row = arith.muli %b, %c16 : index
  %lt = arith.cmpi ult, %t, %c16 : index
  scf.if %lt {
    %at = arith.addi %row, %t : index
    cake.store %out, %y[%at] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

// The store comes after the barrier: thread 0 may write while the others read.
cake.kernel @unpublished_count(%cnt: !cake.tensor<[G], i32> {cake.name = "cnt"},
                               %y: !cake.tensor<[G], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["G"],
                grid = affine_map<()[g] -> (g)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %box = cake.alloc_smem : !cake.smem<1xi32>
  cake.barrier
  %lead = arith.cmpi eq, %t, %c0 : index
  scf.if %lead {
    %v = cake.load %cnt[%b] : !cake.tensor<[G], i32> -> i32
    cake.store %v, %box[%c0] : i32, !cake.smem<1xi32>
  }
  %r = cake.load %box[%c0] : !cake.smem<1xi32> -> i32
  %n = arith.index_cast %r : i32 to index
  // expected-note @+1 {{this scf.for depends on the thread}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+2 {{'cake.barrier' op [roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
    // expected-note @+1 {{fix: give the loop a trip count every thread shares and mask the per-thread work inside it, so that every thread reaches the barrier equally often}}
    cake.barrier
  }
  %f = arith.constant 1.0 : f32
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.store %f, %y[%b] : f32, !cake.tensor<[G], f32>
  }
  cake.return
}

// -----

// Broadcast inside a loop: thread 0's store of the next iteration may land while a slow thread
// still reads this one.
cake.kernel @broadcast_in_loop(%cnt: !cake.tensor<[G], i32> {cake.name = "cnt"},
                               %y: !cake.tensor<[G], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["G"],
                grid = affine_map<()[g] -> (g)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = cake.block_id x
  %t = cake.thread_id x
  %box = cake.alloc_smem : !cake.smem<1xi32>
  scf.for %k = %c0 to %c4 step %c1 {
    %lead = arith.cmpi eq, %t, %c0 : index
    scf.if %lead {
      %v = cake.load %cnt[%b] : !cake.tensor<[G], i32> -> i32
      cake.store %v, %box[%c0] : i32, !cake.smem<1xi32>
    }
    cake.barrier
    %r = cake.load %box[%c0] : !cake.smem<1xi32> -> i32
    %n = arith.index_cast %r : i32 to index
    // expected-note @+1 {{this scf.for depends on the thread}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+2 {{'cake.barrier' op [roles.divergent-barrier] expected a block-wide barrier to be reached by every thread, but it is under control flow that depends on the thread}}
      // expected-note @+1 {{fix: give the loop a trip count every thread shares and mask the per-thread work inside it, so that every thread reaches the barrier equally often}}
      cake.barrier
    }
  }
  %f = arith.constant 1.0 : f32
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.store %f, %y[%b] : f32, !cake.tensor<[G], f32>
  }
  cake.return
}
