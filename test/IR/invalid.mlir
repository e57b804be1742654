// RUN: cake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @+1 {{unknown target 'sm_75', expected one of sm_80, sm_90, sm_90a, sm_100a}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_75", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected 1 to 3 block extents, got 4}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32, 1, 1, 1>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected positive block extents}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32, 0>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected at most 1024 threads per block, got 2048}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 1024, 2>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected a whole number of warps per block (a multiple of 32 threads), got 100}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 100>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected 1 to 3 cluster extents, got 0}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, cluster = array<i64>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected positive cluster extents}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, cluster = array<i64: 0>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected at most 8 blocks per cluster, got 16}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, cluster = array<i64: 4, 4>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected symbol names to be identifiers, got '2N'}}
cake.kernel @k()
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["2N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{symbol 'N' is declared twice}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "N"], grid = affine_map<()[n, m] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected the grid map to have 0 dimensions and one symbol per problem-size symbol (1), got 0 dimensions and 2 symbols}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n, m] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected 1 to 3 grid extents, got 4}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n, 1, 1, 1)>} {
  cake.return
}

// -----

// A grid that divides by zero would fail only when a host evaluates it.
// expected-error @+1 {{grid extent 0 divides by a constant that is not positive (s0 ceildiv 0)}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n ceildiv 0)>} {
  cake.return
}

// -----

// expected-error @+1 {{grid extent 1 divides by a constant that is not positive (s0 mod -4)}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n, n mod -4)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected grid extent 0 in [1, 2147483647], got 4611686018427387904}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (4611686018427387904)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected grid extent 2 in [1, 65535], got 65536}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n, 1, 65536)>} {
  cake.return
}

// -----

// The kernel's name is its PTX entry: LLVM's NVPTX backend aborts on a '-', and renames a '.'
// (the host would not find the kernel).
// expected-error @+1 {{expected the kernel name to be a PTX identifier (a letter, _ or $, then letters, digits, _ and $), got 'row-scale'}}
cake.kernel @"row-scale"(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{got 'row.scale'}}
cake.kernel @row.scale(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{got '1k'}}
cake.kernel @"1k"(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected dynamic_smem in [0, 232448] bytes on sm_90a, got 300000}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, dynamic_smem = 300000 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{expected dynamic_smem in [0, 166912] bytes on sm_80, got 200000}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, dynamic_smem = 200000 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{expected index_bitwidth 32 or 64, got 16}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, index_bitwidth = 16 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{expected min_blocks_per_sm in [1, 32], got 0}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, min_blocks_per_sm = 0 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{expected min_blocks_per_sm in [1, 32], got 33}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, min_blocks_per_sm = 33 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{min_blocks_per_sm = 3 blocks of 768 threads exceed the 2048 threads an SM holds}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 256, 3>, symbols = ["N"], grid = affine_map<()[n] -> (n)>, min_blocks_per_sm = 3 : i64} {
  cake.return
}

// -----

// expected-error @+1 {{parameter #1 must be a !cake.tensor, a !cake.tma or a scalar (i32, i64, f32, f64), got 'memref<4xf32>'}}
cake.kernel @k(%x: !cake.tensor<[N], f32>, %m: memref<4xf32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{parameter #0 refers to unknown symbol 'M'}}
cake.kernel @k(%x: !cake.tensor<[M], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{parameter #0 refers to unknown symbol 'S'}}
cake.kernel @k(%x: !cake.tensor<[N, 4], f32, strides [S, 1]>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

func.func @outside() {
  // expected-error @+1 {{expected to be inside a cake.kernel}}
  %n = cake.problem_size "N"
  return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  // expected-error @+1 {{unknown problem-size symbol 'M', the kernel declares [N]}}
  %m = cake.problem_size "M"
  cake.return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected a tensor of rank 1 or more}}
  %0 = "test.op"() : () -> !cake.tensor<[], f32>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected element type i8, i32, i64, f16, bf16, f32 or f64, got 'i16'}}
  %0 = "test.op"() : () -> !cake.tensor<[N], i16>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected extent to be positive, got 0}}
  %0 = "test.op"() : () -> !cake.tensor<[0], f32>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected 2 strides, got 1}}
  %0 = "test.op"() : () -> !cake.tensor<[N, 4], f32, strides [1]>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected static positive extents, got 0}}
  %0 = "test.op"() : () -> !cake.smem<0x4xf32>
  return
}

// -----

// 2^64 bytes, which a 64-bit byte count wraps to 0 (and the shared-memory limit check passed).
func.func @types() {
  // expected-error @+1 {{expected a shared buffer of fewer than 2^32 bytes (shared memory is addressed in 32 bits)}}
  %0 = "test.op"() : () -> !cake.smem<1152921504606846976x4xf32>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected a shared buffer of fewer than 2^32 bytes}}
  %0 = "test.op"() : () -> !cake.smem<65536x65536xi8>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected element type i8, i32, i64, f16, bf16, f32 or f64, got 'i1'}}
  %0 = "test.op"() : () -> !cake.smem<4xi1>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected swizzle 32, 64 or 128 (bytes), got 16}}
  %0 = "test.op"() : () -> !cake.smem<8x64xf16, swizzle = 16>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected a swizzled buffer's innermost extent to be a multiple of 16 bytes, got 12 bytes}}
  %0 = "test.op"() : () -> !cake.smem<8x3xf32, swizzle = 32>
  return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected 2 indices, got 1}}
  %v = cake.load %x[%c0] : !cake.tensor<[N, 8], f32> -> f32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected element type 'f32', got 'f16'}}
  %v = cake.load %x[%c0, %c0] : !cake.tensor<[N, 8], f32> -> f16
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected an access of 1, 2, 4, 8 or 16 bytes, got 32 bytes (8 x 'f32')}}
  %v = cake.load %x[%c0, %c0] : !cake.tensor<[N, 8], f32> -> vector<8xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected an access of 1, 2, 4, 8 or 16 bytes, got 12 bytes (3 x 'f32')}}
  %v = cake.load %x[%c0, %c0] : !cake.tensor<[N, 8], f32> -> vector<3xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32, strides [1, N]>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op a vector access needs stride 1 in the innermost dimension of '!cake.tensor<[N, 8], f32, strides [1, N]>'}}
  %v = cake.load %x[%c0, %c0] : !cake.tensor<[N, 8], f32, strides [1, N]> -> vector<4xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 6], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected the stride of dimension 0 (6) to be a multiple of the vector width (4), else rows are misaligned}}
  %v = cake.load %x[%c0, %c0] : !cake.tensor<[N, 6], f32> -> vector<4xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %s = cake.alloc_smem : !cake.smem<8xf32>
  // expected-error @+1 {{'cake.load' op 'masked' applies to global tensors only; shared buffers have static extents}}
  %v = cake.load %s[%c0] masked : !cake.smem<8xf32> -> f32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %s = cake.alloc_smem : !cake.smem<4x6xf32>
  // expected-error @+1 {{'cake.load' op expected the innermost extent (6) to be a multiple of the vector width (4)}}
  %v = cake.load %s[%c0, %c0] : !cake.smem<4x6xf32> -> vector<4xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  // expected-error @+1 {{'cake.load' op 'pad' needs 'masked'}}
  %v = cake.load %x[%c0, %c0] pad(%p : f32) : !cake.tensor<[N, 8], f32> -> f32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f64
  // expected-error @+1 {{'cake.load' op expected pad of type 'f32', got 'f64'}}
  %v = cake.load %x[%c0, %c0] masked pad(%p : f64) : !cake.tensor<[N, 8], f32> -> f32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  // expected-error @+1 {{'cake.store' op expected 2 indices, got 3}}
  cake.store %p, %x[%c0, %c0, %c0] : f32, !cake.tensor<[N, 8], f32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0 : i32
  // expected-error @+1 {{'cake.store' op expected element type 'f32', got 'i32'}}
  cake.store %p, %x[%c0, %c0] : i32, !cake.tensor<[N, 8], f32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<8xf32>
  // expected-error @+1 {{'cake.store' op 'masked' applies to global tensors only; shared buffers have static extents}}
  cake.store %p, %s[%c0] masked : f32, !cake.smem<8xf32>
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  // expected-error @+1 {{'cake.warp_reduce' op expected lanes to be 2, 4, 8, 16 or 32, got 3}}
  %r = cake.warp_reduce sum %p {lanes = 3 : i64} : f32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %k = arith.constant 0 : i32
  // expected-error @+1 {{'cake.warp_arg_reduce' op expected lanes to be 2, 4, 8, 16 or 32, got 64}}
  %r, %i = cake.warp_arg_reduce argmin %p, %k {lanes = 64 : i64} : f32, i32
  cake.return
}

// -----

cake.kernel @k(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f16
  // expected-error @+1 {{'cake.warp_reduce' op operand #0 must be 32-bit signless integer or 32-bit float, but got 'f16'}}
  %r = cake.warp_reduce sum %p : f16
  cake.return
}

// -----

func.func @outside_kernel(%x: !cake.tensor<[N], f32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'cake.load' op expected to be inside a cake.kernel}}
  %v = cake.load %x[%c0] : !cake.tensor<[N], f32> -> f32
  return
}

// -----

func.func @outside_kernel_id() {
  // expected-error @+1 {{'cake.warp_id' op expected to be inside a cake.kernel}}
  %w = cake.warp_id
  return
}

// -----

// expected-error @+1 {{parameter name 'x' is used twice (parameters and symbols share one namespace)}}
cake.kernel @k(%a: !cake.tensor<[N], f32> {cake.name = "x"}, %b: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{parameter name 'N' is used twice (parameters and symbols share one namespace)}}
cake.kernel @k(%a: !cake.tensor<[N], f32> {cake.name = "N"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected parameter names to be identifiers, got 'a b'}}
cake.kernel @k(%a: !cake.tensor<[N], f32> {cake.name = "a b"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected no results, got 1}}
cake.kernel @k() -> i32
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  cake.return
}

// -----

cake.kernel @k()
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{block with no terminator}}
  %c0 = arith.constant 0 : index
}

// -----

// expected-error @+1 {{expected the body to end with cake.return}}
cake.kernel @k()
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  llvm.unreachable
}

// -----

func.func @types() {
  // expected-error @+1 {{expected a non-negative pad, got -4}}
  %0 = "test.op"() : () -> !cake.smem<16x64xf32, pad = -4>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected either a swizzle or a pad, not both}}
  %0 = "test.op"() : () -> !cake.smem<16x64xf16, swizzle = 128, pad = 8>
  return
}

// -----

func.func @types() {
  // expected-error @+1 {{expected 'swizzle' or 'pad', got 'padding'}}
  %0 = "test.op"() : () -> !cake.smem<16x64xf32, padding = 4>
  return
}

// -----

cake.kernel @k() attributes {target = "sm_80", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %s = cake.alloc_smem : !cake.smem<16x64xf32, pad = 1>
  // expected-error @+1 {{'cake.load' op expected the pad (1) to be a multiple of the vector width (4), else padded rows are misaligned}}
  %v = cake.load %s[%c0, %c0] : !cake.smem<16x64xf32, pad = 1> -> vector<4xf32>
  cake.return
}

// -----

// A kernel attribute of the wrong type is refused by the parser, at the kernel (`symbols` not an
// array of strings used to be dropped silently, and crashed the verifier once; cake-fuzz).
// expected-error @+1 {{custom op 'cake.kernel' attribute 'symbols' failed to satisfy constraint}}
cake.kernel @symbols_not_an_array(%x: !cake.tensor<[N, 8], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = index, grid = affine_map<()[n] -> (n)>} {
  cake.return
}

// -----

// `dynamic_smem` that is not an integer (it crashed the kernel verifier).
// expected-error @+1 {{custom op 'cake.kernel' attribute 'dynamic_smem' failed to satisfy constraint: 64-bit signless integer attribute}}
cake.kernel @smem_not_an_integer()
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>, dynamic_smem = "x"} {
  cake.return
}

// -----

// expected-error @+1 {{custom op 'cake.kernel' attribute 'min_blocks_per_sm' failed to satisfy constraint: 64-bit signless integer attribute}}
cake.kernel @occupancy_not_an_integer()
    attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>, min_blocks_per_sm = "x"} {
  cake.return
}
