// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (ops.timer), lib/Verify/VerifyOps.cpp:62:
//   "express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if
//    the task needs it, allow it with cake-verify{allow=ops.timer}"
// The kernel stores clock64 reads into an extra output. Applied: nothing expresses a clock read
// with cake ops; the honest edit is to delete the read and what it feeds (done here). VAGUE:
// "express it with cake ops" cannot be followed for a timer.

cake.kernel @timed_copy(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %ticks: !cake.tensor<[N], i64> {cake.name = "ticks"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  // expected-error @+2 {{'nvvm.read.ptx.sreg.clock64' op [ops.timer] expected only cake, arith, math, scf and vector ops in a kernel, got a clock read}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.timer}}}
  %t = nvvm.read.ptx.sreg.clock64 : i64
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.store %t, %ticks[%i] masked : i64, !cake.tensor<[N], i64>
  cake.return
}

// -----

cake.kernel @timed_copy(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %ticks: !cake.tensor<[N], i64> {cake.name = "ticks"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
