// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (ops.raw-intrinsic), lib/Verify/VerifyOps.cpp:62:
//   "express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if
//    the task needs it, allow it with cake-verify{allow=ops.raw-intrinsic}"
// The kernel reads its thread id with nvvm.read.ptx.sreg.tid.x. Applied: cake.thread_id x (and
// an index_cast the other way). Clean and right, but VAGUE: the hint's list (loads, stores,
// reductions, barriers) does not name the cake op that replaces the intrinsic; for the sreg
// reads it should (cake.thread_id / cake.block_id / cake.lane_id / cake.warp_id).

cake.kernel @raw_intrinsic(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  // expected-error @+2 {{'nvvm.read.ptx.sreg.tid.x' op [ops.raw-intrinsic] expected only cake, arith, math, scf and vector ops in a kernel, got a raw intrinsic}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.raw-intrinsic}}}
  %t32 = nvvm.read.ptx.sreg.tid.x : i32
  %tid = arith.index_cast %t32 : i32 to index
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  cake.store %t32, %y[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}

// -----

cake.kernel @raw_intrinsic(%y: !cake.tensor<[N], i32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %t32 = arith.index_cast %tid : index to i32
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  cake.store %t32, %y[%i] masked : i32, !cake.tensor<[N], i32>
  cake.return
}
