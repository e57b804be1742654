// RUN: cake-opt %s --cake-verify-async -split-input-file -verify-diagnostics=only-expected -o /dev/null
//
// async.cp-async-in-flight along simulated warp paths (kernels written for this test; the verify
// corpus's cp-async class is scored by bench/verify-corpus).



// wait after the barrier: thread 32's copies may land after thread 0 passed the barrier.
cake.kernel @bad_wait_after_barrier(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    cake.barrier
    cake.cp_async.wait 1
    %slot = arith.remui %it, %c2 : index
    // expected-error @+1 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with N=200 thread 0's read (iteration 0) may run while thread 32's copy is in flight: no block barrier lies between the cp.async.wait that retires its group and the read}}
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// No wait in the loop (only wait 0 at the end): the barrier does not wait for copies.
cake.kernel @bad_no_wait_in_loop(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    cake.barrier
    %slot = arith.remui %it, %c2 : index
    // expected-error @+1 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with N=200 thread 0's read (iteration 0) may run while thread 0's copy is in flight: the cp.async.wait that retires its group runs only after the read}}
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Only warp 0 waits: a wait covers the executing thread's groups only.
cake.kernel @bad_wait_in_warp0(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    scf.if %w0 {
      cake.cp_async.wait 1
    }
    cake.barrier
    %slot = arith.remui %it, %c2 : index
    // expected-error @+1 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with N=200 thread 0's read (iteration 0) may run while thread 32's copy is in flight: the cp.async.wait that retires its group runs only after the read}}
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// An extra empty commit per iteration, but wait 3 as if it did not count: no copy is waited.
cake.kernel @bad_empty_commit_uncounted(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    cake.cp_async.commit
    // expected-error @+1 {{'cake.cp_async.wait' op [async.cp-async-wait-count] expected pending below the 3 groups committed before the first execution of this wait, got 3: it waits for no copy}}
    cake.cp_async.wait 3
    cake.barrier
    %slot = arith.remui %it, %c2 : index
    // expected-error @+1 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with N=200 thread 0's read (iteration 0) may run while thread 0's copy is in flight: the cp.async.wait that retires its group runs only after the read}}
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Only lane 0 of each warp waits: the other lanes' copies stay in flight.
cake.kernel @bad_wait_in_lane0(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %lane = cake.lane_id
  %w0 = arith.cmpi eq, %lane, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    scf.if %w0 {
      cake.cp_async.wait 1
    }
    cake.barrier
    %slot = arith.remui %it, %c2 : index
    // expected-error @+1 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with N=200 thread 0's read (iteration 0) may run while thread 1's copy is in flight: the cp.async.wait that retires its group runs only after the read}}
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// The ring of cake-verify-cp-async-ok.mlir without its final wait: the last iteration's prefetch
// (a chunk nobody reads) is still copying into shared memory when the block exits.
cake.kernel @bad_pending_at_exit(%x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %w0 = arith.cmpi eq, %warp, %c0 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<2x256xf32>
  %mine = arith.muli %tid, %c4 : index
  // Thread t copies elements 4t .. 4t+3 of a 256-wide chunk and reads those of thread 63 - t.
  %other = arith.subi %c64, %tid : index
  %other1 = arith.subi %other, %c1 : index
  %theirs = arith.muli %other1, %c4 : index
  %g0 = arith.addi %base, %mine : index
  cake.cp_async %x[%g0], %buf[%c0, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
  cake.cp_async.commit
  %acc = scf.for %it = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %nit = arith.addi %it, %c1 : index
    %ns = arith.remui %nit, %c2 : index
    %off = arith.muli %nit, %c64 : index
    %g = arith.addi %g0, %off : index
    // expected-error @+2 {{'cake.cp_async' op [async.cp-async-pending-at-exit] expected a cake.cp_async.wait to retire this copy's group before the block exits, but in thread 0 with N=200 the group of iteration 3 is still writing shared memory at exit}}
    // expected-note @+1 {{fix: after the last commit, in every copying thread: cake.cp_async.wait 0 (unconditionally, outside the loop)}}
    cake.cp_async %x[%g], %buf[%ns, %mine], bytes 16 masked : !cake.tensor<[N], f32>, !cake.smem<2x256xf32>
    cake.cp_async.commit
    cake.cp_async.wait 1
    cake.barrier
    %slot = arith.remui %it, %c2 : index
    %v = cake.load %buf[%slot, %theirs] : !cake.smem<2x256xf32> -> vector<4xf32>
    %a2 = arith.addf %a, %v : vector<4xf32>
    cake.barrier
    scf.yield %a2 : vector<4xf32>
  }
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
