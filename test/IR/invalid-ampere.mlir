// RUN: cake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// The diagnostics of the Ampere-path ops: cp.async, ldmatrix/stmatrix, mma.sync and its store.
// (Their sm_80+ target checks cannot fire: every target a kernel accepts is sm_80 or later.)

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected 4, 8 or 16 bytes, got 12}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 12 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

// The predicate is an i1.
cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-note @-2 {{prior use here}}
  // expected-error @+1 {{use of value '%c0' expects different type than prior uses: 'i1' vs 'index'}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 4 if %c0 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xf16>
  // expected-error @+1 {{expected source and destination of one element type, got 'bf16' and 'f16'}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xf16>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], f64>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xf64>
  // expected-error @+1 {{expected the copy (4 bytes) to be a whole number of elements of 8 bytes}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 4 : !cake.tensor<[M, K], f64>, !cake.smem<64x32xf64>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected 2 source indices, got 1}}
  cake.cp_async %a[%c0], %buf[%c0, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected 2 destination indices, got 1}}
  cake.cp_async %a[%c0, %c0], %buf[%c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16, strides [1, M]>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected stride 1 in the source's innermost dimension}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 16 : !cake.tensor<[M, K], bf16, strides [1, M]>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

cake.kernel @k(%a: !cake.tensor<[M, K], bf16>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x12xbf16>
  // expected-error @+1 {{expected the destination's innermost extent (24 bytes) to be a multiple of the copy size (16 bytes)}}
  cake.cp_async %a[%c0, %c0], %buf[%c0, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x12xbf16>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected 0 to 63 pending groups, got 64}}
  cake.cp_async.wait 64
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected 0 to 63 pending groups, got -1}}
  cake.cp_async.wait -1
  cake.return
}

// -----

func.func @f() {
  // expected-error @+1 {{expected to be inside a cake.kernel}}
  cake.cp_async.commit
  return
}

// -----

//===----------------------------------------------------------------------===//
// ldmatrix
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xi8>
  // expected-error @+1 {{expected a buffer of 16-bit elements (or 32-bit ones, for tf32), got 'i8'}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<64x32xi8> -> vector<4xi32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xf32>
  // expected-error @+1 {{'trans' transposes 16-bit elements: expected a buffer of 16-bit elements, got 'f32'}}
  %v = cake.ldmatrix %buf[%c0, %c0] trans : !cake.smem<64x32xf32> -> vector<4xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<2x64x32xbf16>
  // expected-error @+1 {{expected 3 indices, got 2}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<2x64x32xbf16> -> vector<4xi32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x4xbf16>
  // expected-error @+1 {{expected the buffer's innermost extent (8 bytes) to be a multiple of 16 bytes (one matrix row)}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<64x4xbf16> -> vector<4xi32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected a fragment of i32 or of the buffer's element type 'bf16', got 'vector<8xf16>'}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<64x32xbf16> -> vector<8xf16>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected a fragment of 1, 2 or 4 32-bit registers, got 'vector<3xi32>'}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<64x32xbf16> -> vector<3xi32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  // expected-error @+1 {{expected a fragment of 1, 2 or 4 32-bit registers, got 'vector<1xbf16>'}}
  %v = cake.ldmatrix %buf[%c0, %c0] : !cake.smem<64x32xbf16> -> vector<1xbf16>
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// stmatrix
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xf32>
  %v = arith.constant dense<0> : vector<4xi32>
  // expected-error @+1 {{expected a buffer of 16-bit elements, got 'f32'}}
  cake.stmatrix %v, %buf[%c0, %c0] : vector<4xi32>, !cake.smem<64x32xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x32xbf16>
  %v = arith.constant dense<0> : vector<8xi32>
  // expected-error @+1 {{expected a fragment of 1, 2 or 4 32-bit registers, got 'vector<8xi32>'}}
  cake.stmatrix %v, %buf[%c0, %c0] : vector<8xi32>, !cake.smem<64x32xbf16>
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// mma_sync
//===----------------------------------------------------------------------===//

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  %fa = "test.a"() : () -> vector<8xbf16>
  %fb = "test.b"() : () -> vector<4xf16>
  // expected-error @+1 {{expected A and B of one element type, got 'bf16' and 'f16'}}
  %d = cake.mma_sync %fa, %fb, %acc : vector<8xbf16>, vector<4xf16>, vector<4xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  %fa = "test.a"() : () -> vector<4xbf16>
  %fb = "test.b"() : () -> vector<4xbf16>
  // expected-error @+1 {{expected m16n8k16 fragments: A of 8 and B of 4 elements, got 'vector<4xbf16>' and 'vector<4xbf16>'}}
  %d = cake.mma_sync %fa, %fb, %acc : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  %fa = "test.a"() : () -> vector<4xf32>
  %fb = "test.b"() : () -> vector<4xf32>
  // expected-error @+1 {{expected m16n8k8 tf32 fragments: A of 4 and B of 2 elements, got 'vector<4xf32>' and 'vector<4xf32>'}}
  %d = cake.mma_sync %fa, %fb, %acc : vector<4xf32>, vector<4xf32>, vector<4xf32>
  cake.return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  %fa = "test.a"() : () -> vector<4xi32>
  %fb = "test.b"() : () -> vector<2xi32>
  // expected-error @+1 {{operand #1 must be vector of 16-bit float or bfloat16 type or 32-bit float values of ranks 1}}
  %d = cake.mma_sync %fa, %fb, %acc : vector<4xi32>, vector<2xi32>, vector<4xf32>
  cake.return
}

// -----

//===----------------------------------------------------------------------===//
// mma_sync.store
//===----------------------------------------------------------------------===//

cake.kernel @k(%c: !cake.tensor<[M, N, K], f32>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{expected a rank-2 destination, got rank 3}}
  cake.mma_sync.store %acc, %c[%c0, %c0] masked : vector<4xf32>, !cake.tensor<[M, N, K], f32>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], i32>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{expected a destination of f32, bf16 or f16, got 'i32'}}
  cake.mma_sync.store %acc, %c[%c0, %c0] masked : vector<4xf32>, !cake.tensor<[M, N], i32>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, N], f32, strides [1, M]>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{expected stride 1 in the destination's innermost dimension}}
  cake.mma_sync.store %acc, %c[%c0, %c0] masked : vector<4xf32>, !cake.tensor<[M, N], f32, strides [1, M]>
  cake.return
}

// -----

cake.kernel @k(%c: !cake.tensor<[M, 7], f32>) attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                                 grid = affine_map<()[m, n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{expected an even row stride for unmasked pair stores, got 7 (use 'masked', which checks alignment at run time)}}
  cake.mma_sync.store %acc, %c[%c0, %c0] : vector<4xf32>, !cake.tensor<[M, 7], f32>
  cake.return
}
