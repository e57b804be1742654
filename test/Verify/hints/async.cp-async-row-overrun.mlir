// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.cp-async-row-overrun), lib/Verify/VerifyAsync.cpp:479 (two texts):
//   destination: "keep the innermost index at most 16 (split the row into 3 copies of 8 elements)"
//   source:      "add 'masked' (it zero-fills past the extent) or keep the innermost coordinate at most 16"
// Kernel 1 copies a row of 24 bf16 in four 8-element copies; fixed by dropping the fourth (three
// copies, the last at 16). Kernel 3 copies rows of 20 f32 into rows of 24, the last copy
// unmasked; fixed with 'masked' (columns 20..23 become zeros). Both honest.

cake.kernel @row_overrun(%a: !cake.tensor<[M, 24], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 24], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  // expected-note @+2 {{the buffer '!cake.smem<32x24xbf16>' is allocated here}}
  // expected-note @+1 {{the buffer is allocated here}}
  %buf = cake.alloc_smem : !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c8], %buf[%t, %c8], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c16], %buf[%t, %c16], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  // expected-error @+4 {{'cake.cp_async' op [smem.out-of-bounds] expected index 1 in [0, 24), but in thread 0 it reaches 31 (a 8-element access)}}
  // expected-note @+3 {{fix: give dimension 1 of the buffer 32 elements, or bound the index below 24}}
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-row-overrun] expected the copy of 8 elements to stay inside the destination's innermost row of 24 elements, got elements [24, 32) in thread 0 (and 31 other threads)}}
  // expected-note @+1 {{fix: keep the innermost index at most 16 (split the row into 3 copies of 8 elements)}}
  cake.cp_async %a[%row, %c24], %buf[%t, %c24], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async.commit
  cake.cp_async.wait 0
  %v0 = cake.load %buf[%t, %c0] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  %v1 = cake.load %buf[%t, %c8] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  %v2 = cake.load %buf[%t, %c16] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  cake.store %v0, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.store %v1, %b[%row, %c8] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.store %v2, %b[%row, %c16] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.return
}

// -----

cake.kernel @row_overrun_fixed(%a: !cake.tensor<[M, 24], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 24], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c8], %buf[%t, %c8], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async %a[%row, %c16], %buf[%t, %c16], bytes 16 masked : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async.commit
  cake.cp_async.wait 0
  %v0 = cake.load %buf[%t, %c0] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  %v1 = cake.load %buf[%t, %c8] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  %v2 = cake.load %buf[%t, %c16] : !cake.smem<32x24xbf16> -> vector<8xbf16>
  cake.store %v0, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.store %v1, %b[%row, %c8] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.store %v2, %b[%row, %c16] masked : vector<8xbf16>, !cake.tensor<[M, 24], bf16>
  cake.return
}

// -----

cake.kernel @source_overrun(%a: !cake.tensor<[M, 20], f32> {cake.name = "a"},
    %b: !cake.tensor<[M, 24], f32> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c4], %buf[%t, %c4], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c8], %buf[%t, %c8], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c12], %buf[%t, %c12], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c16], %buf[%t, %c16], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  // expected-error @+4 {{'cake.cp_async' op [shape.out-of-bounds] expected index 1 of 'a' in [0, 20) for every shape the manifest allows, but with M = 3 (block (0, 0, 0)) thread 0 reaches 23}}
  // expected-note @+3 {{fix: add `masked` to the access (out-of-range elements read as the pad value and are not written), or bound the index by 20 in the loop or the grid}}
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-row-overrun] expected the copy of 4 elements to stay inside the source's innermost row of 20 elements, got elements [20, 24) in thread 0 (and 31 other threads)}}
  // expected-note @+1 {{fix: add 'masked' (it zero-fills past the extent) or keep the innermost coordinate at most 16}}
  cake.cp_async %a[%row, %c20], %buf[%t, %c20], bytes 16 : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  scf.for %j = %c0 to %c6 step %c1 {
    %col = arith.muli %j, %c4 : index
    %v = cake.load %buf[%t, %col] : !cake.smem<32x24xf32> -> vector<4xf32>
    cake.store %v, %b[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 24], f32>
  }
  cake.return
}

// -----

cake.kernel @source_overrun_fixed(%a: !cake.tensor<[M, 20], f32> {cake.name = "a"},
    %b: !cake.tensor<[M, 24], f32> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c4], %buf[%t, %c4], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c8], %buf[%t, %c8], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c12], %buf[%t, %c12], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c16], %buf[%t, %c16], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async %a[%row, %c20], %buf[%t, %c20], bytes 16 masked : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  scf.for %j = %c0 to %c6 step %c1 {
    %col = arith.muli %j, %c4 : index
    %v = cake.load %buf[%t, %col] : !cake.smem<32x24xf32> -> vector<4xf32>
    cake.store %v, %b[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 24], f32>
  }
  cake.return
}
