// RUN: cake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// The diagnostics of the hardware-explicit half of the dialect: the mbarrier, pipeline and TMA
// types, TMA kernel parameters, warp roles, wgmma and the TMA load.

//===----------------------------------------------------------------------===//
// !cake.mbarriers, !cake.pipeline
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected 1 to 1024 mbarriers, got 0}}
func.func @f() -> !cake.mbarriers<0>

// -----

// expected-error @+1 {{expected 1 to 1024 mbarriers, got 1025}}
func.func @f() -> !cake.mbarriers<1025>

// -----

// expected-error @+1 {{expected 1 to 32 pipeline stages, got 0}}
func.func @f() -> !cake.pipeline<0>

// -----

// expected-error @+1 {{expected 1 to 32 pipeline stages, got 33}}
func.func @f() -> !cake.pipeline<33>

// -----

//===----------------------------------------------------------------------===//
// !cake.tma
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected a TMA tensor of rank 1 to 5, got 0}}
func.func @f() -> !cake.tma<[], f32, box []>

// -----

// expected-error @+1 {{expected a TMA tensor of rank 1 to 5, got 6}}
func.func @f() -> !cake.tma<[1, 2, 3, 4, 5, 6], f32, box [1, 1, 1, 1, 1, 4]>

// -----

// expected-error @+1 {{expected element type i8, i32, i64, f16, bf16, f32 or f64, got 'i16'}}
func.func @f() -> !cake.tma<[N], i16, box [8]>

// -----

// expected-error @+1 {{expected extent to be positive, got 0}}
func.func @f() -> !cake.tma<[0, K], f32, box [8, 4]>

// -----

// expected-error @+1 {{expected 2 box extents, got 1}}
func.func @f() -> !cake.tma<[M, K], bf16, box [64]>

// -----

// The box is at most 256 elements in each dimension.
// expected-error @+1 {{expected TMA box extents in [1, 256], got 512}}
func.func @f() -> !cake.tma<[M, K], bf16, box [512, 64]>

// -----

// expected-error @+1 {{expected TMA box extents in [1, 256], got 0}}
func.func @f() -> !cake.tma<[M, K], bf16, box [0, 64]>

// -----

// 256 is allowed: the next error is the inner box (4 x bf16 = 8 bytes).
// expected-error @+1 {{expected the inner box extent to be a multiple of 16 bytes, got 8 bytes}}
func.func @f() -> !cake.tma<[M, K], bf16, box [256, 4]>

// -----

// expected-error @+1 {{expected swizzle 32, 64 or 128 (bytes), got 16}}
func.func @f() -> !cake.tma<[M, K], bf16, box [64, 8], swizzle = 16>

// -----

// expected-error @+1 {{expected the inner box (64 bytes) to equal the swizzle span (128 bytes)}}
func.func @f() -> !cake.tma<[M, K], bf16, box [64, 32], swizzle = 128>

// -----

//===----------------------------------------------------------------------===//
// TMA kernel parameters (their target: test/Verify/cake-verify-target.mlir)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{parameter #1: a !cake.tma parameter needs {cake.describes = "<tensor parameter name>"}}}
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// No parameter is named "b".
// expected-error @+1 {{parameter #1 describes 'b', which is not a !cake.tensor parameter of this kernel}}
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "b"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// "s" names a scalar parameter.
// expected-error @+1 {{parameter #2 describes 's', which is not a !cake.tensor parameter of this kernel}}
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"}, %s: f32 {cake.name = "s"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "s"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// The descriptor's shape differs from the tensor's (K vs. N).
// expected-error @+1 {{parameter #1: expected the descriptor's shape and element type to match the row-major tensor 'a' ('!cake.tensor<[M, K], bf16>')}}
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"], grid = affine_map<()[m, n, k] -> (m)>} {
  cake.return
}

// -----

// expected-error @+1 {{parameter #1: expected the descriptor's shape and element type to match the row-major tensor 'a' ('!cake.tensor<[M, K], f16>')}}
cake.kernel @k(%a: !cake.tensor<[M, K], f16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// The tensor must be row-major: explicit strides are rejected even when they match.
// expected-error @+1 {{parameter #1: expected the descriptor's shape and element type to match the row-major tensor 'a' ('!cake.tensor<[M, K], bf16, strides [K, 1]>')}}
cake.kernel @k(%a: !cake.tensor<[M, K], bf16, strides [K, 1]> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

// The descriptor comes first, so its own symbol check reports the unknown symbol.
// expected-error @+1 {{parameter #0 refers to unknown symbol 'Q'}}
cake.kernel @k(%ta: !cake.tma<[Q, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"},
               %a: !cake.tensor<[Q, K], bf16> {cake.name = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// Ops outside a kernel
//===----------------------------------------------------------------------===//

func.func @f() {
  // expected-error @+1 {{'cake.mbarrier.alloc' op expected to be inside a cake.kernel}}
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'cake.wgmma.fence' op expected to be inside a cake.kernel}}
  cake.wgmma.fence
  return
}

// -----

//===----------------------------------------------------------------------===//
// Warp roles
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op expected a register budget in [24, 256] and a multiple of 8, got 16}}
    cake.role "producer" warps [0, 4) regs 16 {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op expected a register budget in [24, 256] and a multiple of 8, got 264}}
    cake.role "consumer" warps [4, 8) regs 264 {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op expected a register budget in [24, 256] and a multiple of 8, got 100}}
    cake.role "consumer" warps [4, 8) regs 100 {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op expected a non-empty warp range [first, last), got [4, 4)}}
    cake.role "idle" warps [4, 4) {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op expected a non-empty warp range [first, last), got [-1, 4)}}
    cake.role "producer" warps [-1, 4) {
    }
  }
  cake.return
}

// -----

// 128 threads are 4 warps.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    // expected-error @+1 {{'cake.role' op warp range [4, 8) is outside the block's 4 warps}}
    cake.role "consumer" warps [4, 8) {
    }
  }
  cake.return
}

// -----

// The block's warps count all three dimensions: 32 x 2 x 2 threads are 4 warps.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 32, 2, 2>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op warp range [0, 5) is outside the block's 4 warps}}
    cake.role "all" warps [0, 5) {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 384>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-note @+1 {{the other role is here}}
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-error @+1 {{'cake.role' op warp range [3, 12) overlaps role 'producer'}}
    cake.role "consumer" warps [3, 12) {
    }
  }
  cake.return
}

// -----

// The note points at the earlier role that overlaps, not at the first role.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 384>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    // expected-note @+1 {{the other role is here}}
    cake.role "math" warps [4, 8) {
    }
    // expected-error @+1 {{'cake.role' op warp range [6, 7) overlaps role 'math'}}
    cake.role "epilogue" warps [6, 7) {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 384>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op a register budget applies to whole warpgroups: expected the warp range to be aligned to 4 warps, got [0, 2)}}
    cake.role "producer" warps [0, 2) regs 40 {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 384>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'cake.role' op a register budget applies to whole warpgroups: expected the warp range to be aligned to 4 warps, got [4, 10)}}
    cake.role "consumer" warps [4, 10) regs 232 {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.warp_roles' op expected at least one cake.role}}
  cake.warp_roles {
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  cake.warp_roles {
    // expected-error @+1 {{'arith.constant' op only cake.role ops may appear in cake.warp_roles}}
    %c0 = arith.constant 0 : index
    cake.role "all" warps [0, 4) {
    }
  }
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.role' op expects parent op 'cake.warp_roles'}}
  cake.role "all" warps [0, 4) {
  }
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x128xi8, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A of f16, bf16 or f32 (tf32), got 'i8'}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x128xi8, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x128xi8, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected B of f16, bf16 or f32 (tf32), got 'i8'}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x128xi8, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A of rank 2 or more with one index per dimension, got rank 1 and 1 indices}}
  %d = cake.wgmma %a[%c0], %b[%c0, %c0], %acc
      : !cake.smem<64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected B of rank 2 or more with one index per dimension, got rank 3 and 2 indices}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

// 32 bf16 are 64-byte rows, but the buffer swizzles 128 bytes.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x32xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A's rows to be one swizzle span (32, 64 or 128 bytes), got 64-byte rows with swizzle 128}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x32xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

// An unswizzled buffer has no span.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected B's rows to be one swizzle span (32, 64 or 128 bytes), got 128-byte rows with swizzle 0}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<68x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A's row count to be a multiple of 8}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<68x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<2x60x32xf16, swizzle = 64>
  %acc = arith.constant dense<0.0> : vector<16xf32>
  // expected-error @+1 {{'cake.wgmma' op expected B's row count to be a multiple of 8}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<2x60x32xf16, swizzle = 64>, vector<16xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A and B of one element type, got 'bf16' and 'f16'}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

// N = 4 is below the smallest shape.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<2xf32>
  // expected-error @+1 {{'cake.wgmma' op expected an accumulator of N/2 elements with N in [8, 256] and a multiple of 8, got 2 elements}}
  %d = cake.wgmma %a[%c0, %c0], %a[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<2xf32>
  cake.return
}

// -----

// N = 12 is not a multiple of 8.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<6xf32>
  // expected-error @+1 {{'cake.wgmma' op expected an accumulator of N/2 elements with N in [8, 256] and a multiple of 8, got 6 elements}}
  %d = cake.wgmma %a[%c0, %c0], %a[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<6xf32>
  cake.return
}

// -----

// N = 264 is above the largest shape.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<264x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<132xf32>
  // expected-error @+1 {{'cake.wgmma' op expected an accumulator of N/2 elements with N in [8, 256] and a multiple of 8, got 132 elements}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<264x64xbf16, swizzle = 128>, vector<132xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<32x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<16xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A to hold at least 64 rows}}
  %d = cake.wgmma %a[%c0, %c0], %a[%c0, %c0], %acc
      : !cake.smem<32x64xbf16, swizzle = 128>, !cake.smem<32x64xbf16, swizzle = 128>, vector<16xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<64xf32>
  // expected-error @+1 {{'cake.wgmma' op expected B to hold at least N = 128 rows}}
  %d = cake.wgmma %a[%c0, %c0], %a[%c0, %c0], %acc
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<64xf32>
  cake.return
}

// -----

// The generic form can state a result type other than the accumulator's.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op failed to verify that result has the accumulator type}}
  %r = "cake.wgmma"(%acc, %a, %c0, %c0, %a, %c0, %c0) <{operandSegmentSizes = array<i32: 1, 1, 2, 1, 2>}>
      : (vector<32xf32>, !cake.smem<64x64xbf16, swizzle = 128>, index, index, !cake.smem<64x64xbf16, swizzle = 128>, index, index) -> vector<16xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.wgmma.wait' op expected 0 to 7 pending groups, got 8}}
  cake.wgmma.wait 8
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.wgmma.wait' op expected 0 to 7 pending groups, got -1}}
  cake.wgmma.wait -1
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// wgmma.store
//===----------------------------------------------------------------------===//

cake.kernel @k(%c: !cake.tensor<[N], f32>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected a rank-2 destination, got rank 1}}
  cake.wgmma.store %acc, %c[%c0, %c0] : vector<32xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], i32>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected a destination of f32, bf16 or f16, got 'i32'}}
  cake.wgmma.store %acc, %c[%c0, %c0] : vector<32xf32>, !cake.tensor<[M, N], i32>
  cake.return
}

// -----

// A column-major destination.
cake.kernel @k(%c: !cake.tensor<[M, N], f32, strides [1, M]>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected stride 1 in the destination's innermost dimension}}
  cake.wgmma.store %acc, %c[%c0, %c0] masked : vector<32xf32>, !cake.tensor<[M, N], f32, strides [1, M]>
  cake.return
}

// -----

// Explicit strides with an innermost 1 are fine; the accumulator is not.
cake.kernel @k(%c: !cake.tensor<[M, N], f32, strides [LD, 1]>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "LD"], grid = affine_map<()[m, n, ld] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<3xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected an accumulator of N/2 elements with N in [8, 256] and a multiple of 8, got 3 elements}}
  cake.wgmma.store %acc, %c[%c0, %c0] : vector<3xf32>, !cake.tensor<[M, N], f32, strides [LD, 1]>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], bf16>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<256xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected an accumulator of N/2 elements with N in [8, 256] and a multiple of 8, got 256 elements}}
  cake.wgmma.store %acc, %c[%c0, %c0] : vector<256xf32>, !cake.tensor<[M, N], bf16>
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// tma.load
//===----------------------------------------------------------------------===//

cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected 2 coordinates, got 1}}
  cake.tma.load %ta[%c0], %buf[], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected a destination of element type 'bf16', got 'f16'}}
  cake.tma.load %ta[%c0, %c0], %buf[], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xf16, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

// A staged buffer needs the stage index.
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<3x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<3>
  // expected-error @+1 {{'cake.tma.load' op expected 1 destination indices (the buffer's leading dimensions), got 0}}
  cake.tma.load %ta[%c0, %c0], %buf[], %pipe[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<3x64x64xbf16, swizzle = 128>, !cake.pipeline<3>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected 0 destination indices (the buffer's leading dimensions), got 1}}
  cake.tma.load %ta[%c0, %c0], %buf[%c0], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

// A buffer of lower rank than the box: the count message then reads "expected 0 ..., got 0"
// (the expected count is clamped at 0), so only its tail is checked.
cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [1, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{expected a destination of rank 2 or more (the box's), got rank 1}}
  cake.tma.load %ta[%c0, %c0], %buf[], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [1, 64], swizzle = 128>, !cake.smem<64xbf16, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected the destination's trailing extents to equal the box [128, 64]}}
  cake.tma.load %ta[%c0, %c0], %buf[%c0], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
               %ta: !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 64>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected the destination's swizzle (64) to equal the descriptor's (128)}}
  cake.tma.load %ta[%c0, %c0], %buf[], %bars[%c0]
      : !cake.tma<[M, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 64>, !cake.mbarriers<1>
  cake.return
}

// -----

// An unswizzled descriptor needs an unswizzled buffer.
cake.kernel @k(%a: !cake.tensor<[N], f32> {cake.name = "a"},
               %ta: !cake.tma<[N], f32, box [256]> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<256xf32, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected the destination's swizzle (128) to equal the descriptor's (0)}}
  cake.tma.load %ta[%c0], %buf[], %bars[%c0]
      : !cake.tma<[N], f32, box [256]>, !cake.smem<256xf32, swizzle = 128>, !cake.mbarriers<1>
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// mbarrier and pipeline counts
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.mbarrier.init' op expected an arrival count in [1, 1048575], got 0}}
  cake.mbarrier.init %bars[%c0], count 0 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.mbarrier.init' op expected an arrival count in [1, 1048575], got 1048576}}
  cake.mbarrier.init %bars[%c0], count 1048576 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // 0 bytes is a plain arrival and allowed; 2^20 is not.
  cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 0 : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.mbarrier.arrive_expect_tx' op expected transaction bytes in [0, 1048575], got 1048576}}
  cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 1048576 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.mbarrier.arrive_expect_tx' op expected transaction bytes in [0, 1048575], got -1}}
  cake.mbarrier.arrive_expect_tx %bars[%c0], bytes -1 : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.pipeline.create' op expected a consumer arrival count in [1, 1048575], got 0}}
  %pipe = cake.pipeline.create consumers 0 : !cake.pipeline<4>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.pipeline.create' op expected a consumer arrival count in [1, 1048575], got 1048576}}
  %pipe = cake.pipeline.create consumers 1048576 : !cake.pipeline<4>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  // expected-error @+1 {{'cake.pipeline.producer_commit' op expected transaction bytes in [1, 1048575], got 0}}
  cake.pipeline.producer_commit %pipe[%c0], tx_bytes 0 : !cake.pipeline<4>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  // expected-error @+1 {{'cake.pipeline.producer_commit' op expected transaction bytes in [1, 1048575], got 1048576}}
  cake.pipeline.producer_commit %pipe[%c0], tx_bytes 1048576 : !cake.pipeline<4>
  cake.return
}

// -----

// Unmasked pair stores with an odd static row stride would be misaligned.
cake.kernel @odd_rows(%c: !cake.tensor<[M, 7], f32>) attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M"], grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{'cake.wgmma.store' op expected an even row stride for unmasked pair stores, got 7 (use 'masked', which checks alignment at run time)}}
  cake.wgmma.store %acc, %c[%c0, %c0] : vector<4xf32>, !cake.tensor<[M, 7], f32>
  cake.return
}

// -----

// tf32 operands (f32 buffers) are legal, but both operands must share the element type.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %a = cake.alloc_smem : !cake.smem<64x32xf32, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma' op expected A and B of one element type, got 'f32' and 'bf16'}}
  %d = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x32xf32, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
               %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 64>
  // expected-error @+1 {{'cake.tma.store' op expected the source's swizzle (64) to equal the descriptor's (128)}}
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 64>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
               %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"], grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  // expected-error @+1 {{'cake.tma.store' op expected 1 source indices (the buffer's leading dimensions), got 0}}
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.tma.store_wait' op expected 0 to 63 pending groups, got 64}}
  cake.tma.store_wait 64
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.named_barrier' op expected a barrier id in [1, 15] (0 is cake.barrier), got 0}}
  cake.named_barrier 0, threads 128
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.named_barrier' op expected a thread count that is a multiple of 32 in [32, 128], got 256}}
  cake.named_barrier 2, threads 256
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.named_barrier' op expected a thread count that is a multiple of 32 in [32, 128], got 40}}
  cake.named_barrier 2, threads 40
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], f32> {cake.name = "a"},
               %ta: !cake.tma<[M, K], f32, box [16, 32]> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"], grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32, pad = 4>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected an unpadded destination (TMA moves dense boxes), got pad = 4}}
  cake.tma.load %ta[%c0, %c0], %buf[], %bars[%c0] : !cake.tma<[M, K], f32, box [16, 32]>, !cake.smem<16x32xf32, pad = 4>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
               %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M"], grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op a multicast copy needs a kernel with a cluster}}
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %c3 : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{'cake.cluster_barrier' op a cluster barrier needs a kernel with a cluster}}
  cake.cluster_barrier
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %a = arith.constant dense<0.0> : vector<8xf16>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.regs' op expected an A fragment of 8 x 'bf16' (the B buffer's element type), got 'vector<8xf16>'}}
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<8xf16>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<32x64xbf16, swizzle = 128>
  %a = arith.constant dense<0.0> : vector<8xbf16>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.regs' op expected B to hold at least N = 64 rows}}
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<8xbf16>, !cake.smem<32x64xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %b = cake.alloc_smem : !cake.smem<64x32xbf16, swizzle = 128>
  %a = arith.constant dense<0.0> : vector<8xbf16>
  %acc = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{'cake.wgmma.regs' op expected B's rows to be one swizzle span (32, 64 or 128 bytes), got 64-byte rows with swizzle 128}}
  %d = cake.wgmma.regs %a, %b[%c0, %c0], %acc : vector<8xbf16>, !cake.smem<64x32xbf16, swizzle = 128>, vector<32xf32>
  cake.return
}

// -----

// A 1-D box of 16 floats (64 bytes) in a 4-slot buffer: slot 1 would start at byte 64 and the
// copy faults with "misaligned address" (seen on the H200 with a KMeans |c|^2 tile of 16).
cake.kernel @k(%q: !cake.tensor<[K], f32> {cake.name = "q"},
               %tq: !cake.tma<[K], f32, box [16]> {cake.describes = "q"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"], grid = affine_map<()[k] -> (k)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = cake.alloc_smem : !cake.smem<4x16xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{'cake.tma.load' op expected the destination's slots to start 128-byte aligned as TMA requires, but a box of 64 bytes puts slot 1 at byte 64 (widen the box to a multiple of 128 bytes)}}
  cake.tma.load %tq[%c0], %buf[%c1], %bars[%c0]
      : !cake.tma<[K], f32, box [16]>, !cake.smem<4x16xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// setmaxnreg budgets assume one resident block per SM: no other occupancy request.
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 256>, grid = affine_map<() -> (1)>,
                             min_blocks_per_sm = 2 : i64} {
  cake.warp_roles {
    cake.role "producer" warps [0, 4) {
    }
    // expected-error @+1 {{'cake.role' op has a register budget, which needs one block per SM, but the kernel asks for min_blocks_per_sm = 2}}
    cake.role "consumer" warps [4, 8) regs 232 {
    }
  }
  cake.return
}
