// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.cp-async-pending-at-exit), lib/Verify/PathSimulation.cpp:1229:
//   "after the last commit, in every copying thread: cake.cp_async.wait 0 (unconditionally, outside the loop)"
// Applied literally: cake.cp_async.wait 0 after the loop (every thread copies). Honest.
// The kernel is @bad_pending_at_exit of cake-verify-cp-async-in-flight.mlir.

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

// -----

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
  cake.cp_async.wait 0
  %gy = arith.addi %base, %mine : index
  cake.store %acc, %y[%gy] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
