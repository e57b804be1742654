// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-wgmma -o /dev/null

// A wgmma writes its accumulator registers asynchronously: every other read of them (a store,
// a reduction, arithmetic) must follow a cake.wgmma.wait that retires the group. The corpus found
// two ways to miss it: a loop whose `wait 1` keeps the last group in flight with no `wait 0`
// after the loop, and an epilogue that reads the accumulator before the final wait.

// The loop's wait 1 keeps the last group in flight; the store follows the loop directly.
cake.kernel @loop_wait_one_no_final_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %zero = arith.constant dense<0.0> : vector<32xf32>
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    cake.wgmma.fence
    %acc1 = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    // expected-note @+1 {{this wait (pending 1) does not retire the accumulator's group on every path to the read}}
    cake.wgmma.wait 1
    scf.yield %acc1 : vector<32xf32>
  }
  // expected-error @+2 {{'cake.wgmma.store' op [wgmma.accumulator-in-flight] reads wgmma accumulator registers while the group writing them may be in flight: expected a cake.wgmma.wait that retires it before this read}}
  // expected-note @+1 {{fix: add cake.wgmma.wait 0 before this read}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// The epilogue scales the accumulator before the final wait (the store after it is fine: it
// reads the scaled copy).
cake.kernel @scale_before_final_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %half = arith.constant dense<0.5> : vector<32xf32>
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    cake.wgmma.fence
    %acc1 = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    // expected-note @+1 {{this wait (pending 1) does not retire}}
    cake.wgmma.wait 1
    scf.yield %acc1 : vector<32xf32>
  }
  // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
  // expected-note @+1 {{fix: add cake.wgmma.wait 0 before this read}}
  %scaled = arith.mulf %acc, %half : vector<32xf32>
  cake.wgmma.wait 0
  cake.wgmma.store %scaled, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Straight-line code: committed, never waited.
cake.kernel @commit_no_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.wgmma.fence
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.commit
  // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
  // expected-note @+1 {{fix:}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: two groups in flight, `wait 1` retires the older one, whose accumulator is then read;
// the newer one is read after `wait 0`. A loop ending in `wait 0` needs no wait after it.
cake.kernel @ping_pong_and_loop_wait_zero(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.wgmma.fence
  %first = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.commit
  %second = cake.wgmma %abuf[%c0, %c0], %bbuf[%c32, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.commit
  cake.wgmma.wait 1
  cake.wgmma.store %first, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.wgmma.wait 0
  cake.wgmma.store %second, %c[%c0, %c32] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    cake.wgmma.fence
    %acc1 = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 0
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// The only wait is in one arm of an scf.if: on the other path the group is still in flight.
cake.kernel @wait_in_one_branch(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %bid = cake.block_id x
  %first = arith.cmpi ult, %bid, %c1 : index
  cake.wgmma.fence
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.commit
  scf.if %first {
    // expected-note @+1 {{this wait (pending 0) does not retire}}
    cake.wgmma.wait 0
  }
  // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
  // expected-note @+1 {{fix:}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// No commit closes the wgmma's group: wait 0 retires nothing it could belong to.
cake.kernel @no_commit(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.wgmma.fence
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  // expected-note @+1 {{this wait (pending 0) does not retire}}
  cake.wgmma.wait 0
  // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
  // expected-note @+1 {{fix:}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: both arms wait.
cake.kernel @wait_in_both_branches(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %bid = cake.block_id x
  %first = arith.cmpi ult, %bid, %c1 : index
  cake.wgmma.fence
  %acc = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.wgmma.commit
  scf.if %first {
    cake.wgmma.wait 0
  } else {
    cake.wgmma.wait 0
  }
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// The only wait is in a loop that may run no iteration (a grid-stride loop), and the
// accumulator read after it is an scf.if's result.
cake.kernel @wait_in_maybe_empty_loop(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %m = cake.problem_size "M"
  %k = cake.problem_size "K"
  %bid = cake.block_id x
  %nb = cake.grid_dim x
  %some = arith.cmpi ugt, %k, %c0 : index
  // expected-note @+1 {{the accumulator comes from here}}
  %acc = scf.if %some -> (vector<32xf32>) {
    cake.wgmma.fence
    %a = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    scf.yield %a : vector<32xf32>
  } else {
    scf.yield %zero : vector<32xf32>
  }
  scf.for %t = %bid to %m step %nb {
    // expected-note @+1 {{this wait (pending 0) does not retire}}
    cake.wgmma.wait 0
  }
  // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
  // expected-note @+1 {{fix:}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// An outer (persistent) loop carries the inner k loop's accumulator and stores it at the top of
// the next tile; the inner loop ends on wait 1.
cake.kernel @deferred_epilogue_wait_one(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %m = cake.problem_size "M"
  %k = cake.problem_size "K"
  %last = scf.for %t = %c0 to %m step %c1 iter_args(%prev = %zero) -> (vector<32xf32>) {
    // expected-error @+2 {{[wgmma.accumulator-in-flight]}}
    // expected-note @+1 {{fix:}}
    cake.wgmma.store %prev, %c[%t, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
    %acc = scf.for %kt = %c0 to %k step %c1 iter_args(%a0 = %zero) -> (vector<32xf32>) {
      cake.wgmma.fence
      %a1 = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %a0
          : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
      cake.wgmma.commit
      // expected-note @+1 {{this wait (pending 1) does not retire}}
      cake.wgmma.wait 1
      scf.yield %a1 : vector<32xf32>
    }
    scf.yield %acc : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %last, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: a deferred epilogue. The previous tile's accumulator (an iteration argument) is stored
// after this tile's commit and `wait 1`, which retires every group but this tile's.
cake.kernel @deferred_epilogue_after_wait_one(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %tiles = cake.problem_size "K"
  %last = scf.for %t = %c0 to %tiles step %c1 iter_args(%prev = %zero) -> (vector<32xf32>) {
    cake.wgmma.fence
    %d = cake.wgmma %abuf[%c0, %c0], %bbuf[%c0, %c0], %zero
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 1
    cake.wgmma.store %prev, %c[%t, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
    scf.yield %d : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %last, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
