// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.cp-async-no-wait), lib/Verify/VerifyAsync.cpp:140:
//   "add cake.cp_async.wait 0 before the data is used or the kernel ends"
// Applied literally: cake.cp_async.wait 0 between the commit and the first read. Honest.

cake.kernel @never_waited(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
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
  // expected-note @+1 {{the copy}}
  cake.cp_async %a[%row, %c0], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 8], bf16>, !cake.smem<64x8xbf16>
  // expected-error @+2 {{'cake.cp_async.commit' op [async.cp-async-no-wait] expected a cake.cp_async.wait after this commit: the group is never waited for}}
  // expected-note @+1 {{fix: add cake.cp_async.wait 0 before the data is used or the kernel ends}}
  cake.cp_async.commit
  // expected-error @+2 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read}}
  // expected-note @+1 {{fix: in every copying thread}}
  %v = cake.load %buf[%t, %c0] : !cake.smem<64x8xbf16> -> vector<8xbf16>
  cake.store %v, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 8], bf16>
  cake.return
}

// -----

cake.kernel @never_waited_fixed(%a: !cake.tensor<[M, 8], bf16> {cake.name = "a"},
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
