// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.cp-async-uncommitted), lib/Verify/VerifyAsync.cpp (checkProtocol):
//   with a later wait:  "add cake.cp_async.commit after the last copy of the group, before this wait"
//   with none:          "..., then cake.cp_async.wait 0 before the data is used or the kernel ends"
// Kernels 1 and 2: the first case and its fix. Kernels 3 and 4: the second. (The second hint used
// to stop at the commit, which left a commit nothing waits for: [async.cp-async-no-wait], and the
// reads raced the copies, [async.cp-async-in-flight].)

cake.kernel @uncommitted(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 8], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x8xbf16>
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-uncommitted] expected a cake.cp_async.commit after this cp.async copy before the wait}}
  // expected-note @+1 {{fix: add cake.cp_async.commit after the last copy of the group, before this wait}}
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 8], bf16>, !cake.smem<64x8xbf16>
  // expected-note @+1 {{the next wait is here}}
  cake.cp_async.wait 0
  %v = cake.load %buf[%t, %c0] : !cake.smem<64x8xbf16> -> vector<8xbf16>
  cake.store %v, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 8], bf16>
  cake.return
}

// -----

cake.kernel @uncommitted_fixed(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 8], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x8xbf16>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 8], bf16>, !cake.smem<64x8xbf16>
  cake.cp_async.commit
  cake.cp_async.wait 0
  %v = cake.load %buf[%t, %c0] : !cake.smem<64x8xbf16> -> vector<8xbf16>
  cake.store %v, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 8], bf16>
  cake.return
}

// -----

// No commit and no wait at all.
cake.kernel @uncommitted_no_wait(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 8], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x8xbf16>
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-uncommitted] expected a cake.cp_async.commit after this cp.async copy before the kernel ends}}
  // expected-note @+1 {{fix: add cake.cp_async.commit after the last copy of the group, then cake.cp_async.wait 0 before the data is used or the kernel ends}}
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 8], bf16>, !cake.smem<64x8xbf16>
  %v = cake.load %buf[%t, %c0] : !cake.smem<64x8xbf16> -> vector<8xbf16>
  cake.store %v, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 8], bf16>
  cake.return
}

// -----

cake.kernel @uncommitted_no_wait_fixed(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 8], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x8xbf16>
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 8], bf16>, !cake.smem<64x8xbf16>
  cake.cp_async.commit
  cake.cp_async.wait 0
  %v = cake.load %buf[%t, %c0] : !cake.smem<64x8xbf16> -> vector<8xbf16>
  cake.store %v, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 8], bf16>
  cake.return
}
