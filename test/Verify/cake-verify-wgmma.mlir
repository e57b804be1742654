// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-wgmma -o /dev/null

// cake.wgmma.regs reads its A fragment from registers until its group retires: a loop that
// redefines the fragment each iteration needs a cake.wgmma.wait 0 in between (found on the GPU:
// examples/hopper_gemm_rs.mlir with wait 1 computes wrong results).

// A wait that keeps one group in flight while the next ldmatrix rewrites A.
cake.kernel @wait_one(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  // expected-note @+1 {{in this loop}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    // expected-note @+1 {{the next iteration redefines the fragment here}}
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.fence
    // expected-note @+1 {{cake.wgmma.regs reads the A fragment from registers here}}
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    // expected-error @+2 {{'cake.wgmma.wait' op [wgmma.a-registers-in-flight] expected pending 0: this wait leaves 1 wgmma group(s) in flight, and the next iteration rewrites the A registers they read}}
    // expected-note @+1 {{fix: wait with pending 0 before rewriting A, or double-buffer the A fragments}}
    cake.wgmma.wait 1
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// No wait at all in the loop: reported at the op that redefines the fragment.
cake.kernel @no_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  // expected-note @+1 {{in this loop}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    // expected-error @+2 {{'cake.ldmatrix' op [wgmma.a-registers-in-flight] expected a cake.wgmma.wait 0 before the next iteration rewrites the A registers this value holds}}
    // expected-note @+1 {{fix: add cake.wgmma.wait 0 after the cake.wgmma.commit, before the fragment is redefined}}
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.fence
    // expected-note @+1 {{cake.wgmma.regs reads the A fragment from registers here}}
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// A wait 0 under a condition does not retire the group in every iteration.
cake.kernel @conditional_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  // expected-note @+1 {{in this loop}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    // expected-error @+2 {{[wgmma.a-registers-in-flight]}}
    // expected-note @+1 {{fix: add cake.wgmma.wait 0}}
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.fence
    // expected-note @+1 {{cake.wgmma.regs reads the A fragment from registers here}}
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    %r = arith.remui %k, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    scf.if %even {
      cake.wgmma.wait 0
    }
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: wait 0 after each group, before the next ldmatrix (examples/hopper_gemm_rs.mlir).
cake.kernel @wait_zero(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 0
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: the wait 0 at the top of the body, before the ldmatrix, also retires the previous
// iteration's group in time.
cake.kernel @wait_before_load(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    cake.wgmma.wait 0
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: double-buffered fragments. The next fragment is loaded into an iteration argument while
// the group reading the current one runs; wait 1 keeps one group in flight, and the fragment it
// reads is not rewritten until the iteration after.
cake.kernel @double_buffered(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %f0 = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
  %acc, %last = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero, %fa = %f0)
      -> (vector<32xf32>, vector<8xbf16>) {
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    %next = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    cake.wgmma.wait 1
    scf.yield %acc1, %next : vector<32xf32>, vector<8xbf16>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: a fragment defined once, outside the loop, is never rewritten.
cake.kernel @invariant_fragment(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %acc0
        : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 1
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Valid: the fragment is loaded per k tile (outer loop) and used by several wgmmas of an inner
// loop, each group waited for inside the inner loop.
cake.kernel @inner_loop_wait(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    %accn = scf.for %j = %c0 to %c2 step %c1 iter_args(%accj = %acc0) -> (vector<32xf32>) {
      cake.wgmma.fence
      %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %accj
          : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
      cake.wgmma.commit
      cake.wgmma.wait 0
      scf.yield %acc1 : vector<32xf32>
    }
    scf.yield %accn : vector<32xf32>
  }
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// The same with wait 1 in the inner loop: the last group of a k tile is still in flight when
// the next tile's ldmatrix rewrites the fragment.
cake.kernel @inner_loop_wait_one(%c: !cake.tensor<[M, N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %abuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %kt = cake.problem_size "K"
  %t = cake.thread_id x
  %zero = arith.constant dense<0.0> : vector<32xf32>
  // expected-note @+1 {{in this loop}}
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    // expected-note @+1 {{the next iteration redefines the fragment here}}
    %fa = cake.ldmatrix %abuf[%t, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
    %accn = scf.for %j = %c0 to %c2 step %c1 iter_args(%accj = %acc0) -> (vector<32xf32>) {
      cake.wgmma.fence
      // expected-note @+1 {{cake.wgmma.regs reads the A fragment from registers here}}
      %acc1 = cake.wgmma.regs %fa, %bbuf[%c0, %c0], %accj
          : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
      cake.wgmma.commit
      // expected-error @+2 {{[wgmma.a-registers-in-flight] expected pending 0: this wait leaves 1 wgmma group(s) in flight}}
      // expected-note @+1 {{fix: wait with pending 0}}
      cake.wgmma.wait 1
      scf.yield %acc1 : vector<32xf32>
    }
    scf.yield %accn : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
