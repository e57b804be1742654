// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.elect), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: elect_one on sm_80. Applied literally (first option): target = "sm_90". The ops mean
// the same there; the kernel computes the same. Honest. (The second option names no op: on sm_80
// there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @leader_store(%y: !cake.tensor<[1], i32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  // expected-error @+2 {{'cake.elect_one' op [target.elect] expected a target with elect.sync (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @leader_store, or use an op that sm_80 has}}
  %leader = cake.elect_one
  scf.if %leader {
    cake.store %one, %y[%c0] : i32, !cake.tensor<[1], i32>
  }
  cake.return
}

// -----

cake.kernel @leader_store(%y: !cake.tensor<[1], i32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %leader = cake.elect_one
  scf.if %leader {
    cake.store %one, %y[%c0] : i32, !cake.tensor<[1], i32>
  }
  cake.return
}
