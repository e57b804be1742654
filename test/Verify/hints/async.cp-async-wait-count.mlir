// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (async.cp-async-wait-count), lib/Verify/VerifyAsync.cpp (checkProtocol):
//   "wait with pending 0 (pending up to N-1 keeps the newest groups in flight only where a later
//    wait retires them before their data is read or the kernel ends)"
// The former hint, "wait with pending 1 (or fewer)", was not honest: applied literally
// (cake.cp_async.wait 1) the group of the second copy is still in flight when the kernel reads it
// and when the block exits ([async.cp-async-in-flight] on both reads,
// [async.cp-async-pending-at-exit]). The second kernel is the hint applied (pending 0).

cake.kernel @rows(%a: !cake.tensor<[M, 16], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 16], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x16xbf16>
  scf.for %h = %c0 to %c2 step %c1 {
    %col = arith.muli %h, %c8 : index
    // expected-note @+1 {{the copy}}
    cake.cp_async %a[%row, %col], %buf[%t, %col], bytes 16 masked : !cake.tensor<[M, 16], bf16>, !cake.smem<64x16xbf16>
    // expected-note @+1 {{a group is committed here}}
    cake.cp_async.commit
  }
  // expected-error @+2 {{'cake.cp_async.wait' op [async.cp-async-wait-count] expected pending below the 2 groups committed before the first execution of this wait, got 2: it waits for no copy}}
  // expected-note @+1 {{fix: wait with pending 0 (pending up to 1 keeps the newest groups in flight only where a later wait retires them before their data is read or the kernel ends)}}
  cake.cp_async.wait 2
  // expected-error @+2 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with M=200 thread 0's read may run while thread 0's copy (iteration 1) is in flight: no cp.async.wait ever retires its group}}
  // expected-note @+1 {{fix: in every copying thread, cake.cp_async.wait with pending low enough to retire the group of this slot, then cake.barrier, before the read}}
  %v0 = cake.load %buf[%t, %c0] : !cake.smem<64x16xbf16> -> vector<8xbf16>
  // expected-error @+2 {{'cake.load' op [async.cp-async-in-flight] expected the cp.async copies into this buffer to be complete before the read, but with M=200 thread 0's read may run while thread 0's copy (iteration 1) is in flight: no cp.async.wait ever retires its group}}
  // expected-note @+1 {{fix: in every copying thread, cake.cp_async.wait with pending low enough to retire the group of this slot, then cake.barrier, before the read}}
  %v1 = cake.load %buf[%t, %c8] : !cake.smem<64x16xbf16> -> vector<8xbf16>
  cake.store %v0, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 16], bf16>
  cake.store %v1, %b[%row, %c8] masked : vector<8xbf16>, !cake.tensor<[M, 16], bf16>
  cake.return
}

// -----

cake.kernel @rows(%a: !cake.tensor<[M, 16], bf16> {cake.name = "a"},
    %b: !cake.tensor<[M, 16], bf16> {cake.name = "b"})
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c64 : index
  %t = cake.thread_id x
  %row = arith.addi %m0, %t : index
  %buf = cake.alloc_smem : !cake.smem<64x16xbf16>
  scf.for %h = %c0 to %c2 step %c1 {
    %col = arith.muli %h, %c8 : index
    cake.cp_async %a[%row, %col], %buf[%t, %col], bytes 16 masked : !cake.tensor<[M, 16], bf16>, !cake.smem<64x16xbf16>
    cake.cp_async.commit
  }
  cake.cp_async.wait 0
  %v0 = cake.load %buf[%t, %c0] : !cake.smem<64x16xbf16> -> vector<8xbf16>
  %v1 = cake.load %buf[%t, %c8] : !cake.smem<64x16xbf16> -> vector<8xbf16>
  cake.store %v0, %b[%row, %c0] masked : vector<8xbf16>, !cake.tensor<[M, 16], bf16>
  cake.store %v1, %b[%row, %c8] masked : vector<8xbf16>, !cake.tensor<[M, 16], bf16>
  cake.return
}
