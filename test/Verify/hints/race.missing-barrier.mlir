// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hints under test (race.missing-barrier), lib/Verify/VerifyRaces.cpp:817-836 (four texts):
//   817 (one op, threads of two warps): "let one thread write each element (e.g. under a
//       condition on the thread id)"
//   821 (loop): "add cake.barrier at the end of the loop body, after the last read of the buffer,
//       so that no thread overwrites it in the next iteration before every thread is done"
//   827 (lanes of one warp): "lanes of one warp are not ordered either (...): add cake.barrier
//       after the write and before this read, outside any role or thread-dependent condition,
//       or pass the values between lanes with cake.warp_reduce or shuffles"
//   834 (other): "add cake.barrier after the write and before this read, outside any role or
//       thread-dependent condition"
// Sections 1-2: @broadcast_without_barrier (cake-verify-races.mlir), fixed with cake.barrier
// after the scf.if that writes. Sections 3-4: @tiled_loop_one_barrier, fixed with cake.barrier
// at the end of the loop body. Sections 5-6: @same_elements_every_warp, fixed by storing under
// tid < 32. All three honest. (The 827 text is exercised by @warp_synchronous_tail in
// cake-verify-races.mlir, whose fix @shuffle_tail follows its second option.)
// The issue's suspect: a TMA store's buffer refilled while the store may still read it is no
// longer race.missing-barrier; it is tma.store-race, whose hint asks for cake.tma.store_wait and
// then a barrier (hints/tma.store-race.mlir: no race.missing-barrier there under --cake-verify).

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
    // expected-note @+1 {{fix: add cake.barrier at the end of the loop body, after the last read of the buffer, so that no thread overwrites it in the next iteration before every thread is done}}
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

cake.kernel @same_elements_every_warp(%out: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %one = arith.constant 1.0 : f32
  %buf = cake.alloc_smem : !cake.smem<32xf32>
  %lane = cake.lane_id
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %w0 = arith.cmpi ult, %tid, %c32 : index
  scf.if %w0 {
    cake.store %one, %buf[%lane] : f32, !cake.smem<32xf32>
  }
  cake.return
}
