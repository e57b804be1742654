// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.cluster), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: cake.cluster_block_id on sm_80. Applied literally (first option):
// target = "sm_90". The ops mean the same there; the kernel computes the same. Honest. (The
// second option names no op: on sm_80 there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @cluster_rank(%y: !cake.tensor<[2], i32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %lane = cake.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  %bid = cake.block_id x
  // expected-error @+2 {{'cake.cluster_block_id' op [target.cluster] expected a target with thread block clusters (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @cluster_rank, or use an op that sm_80 has}}
  %r = cake.cluster_block_id x
  %ri = arith.index_cast %r : index to i32
  scf.if %first {
    cake.store %ri, %y[%bid] : i32, !cake.tensor<[2], i32>
  }
  cake.return
}

// -----

cake.kernel @cluster_rank(%y: !cake.tensor<[2], i32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %lane = cake.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  %bid = cake.block_id x
  %r = cake.cluster_block_id x
  %ri = arith.index_cast %r : index to i32
  scf.if %first {
    cake.store %ri, %y[%bid] : i32, !cake.tensor<[2], i32>
  }
  cake.return
}
