// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.stmatrix), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90\" on @<kernel>, or use an op that sm_80 has"
// The kernel: stmatrix on sm_80. Applied literally (first option): target = "sm_90". The ops mean
// the same there; the kernel computes the same. Honest. (The second option names no op: on sm_80
// there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @stage_fragment(%y: !cake.tensor<[32], bf16> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = cake.lane_id
  %row = arith.remui %lane, %c16 : index
  %buf = cake.alloc_smem : !cake.smem<16x16xbf16>
  %v = arith.constant dense<0> : vector<4xi32>
  // expected-error @+2 {{'cake.stmatrix' op [target.stmatrix] expected a target with stmatrix (sm_90, sm_90a, sm_100a), got sm_80}}
  // expected-note @+1 {{fix: set target = "sm_90" on @stage_fragment, or use an op that sm_80 has}}
  cake.stmatrix %v, %buf[%row, %c0] : vector<4xi32>, !cake.smem<16x16xbf16>
  cake.barrier
  %x = cake.load %buf[%row, %c0] : !cake.smem<16x16xbf16> -> bf16
  cake.store %x, %y[%lane] : bf16, !cake.tensor<[32], bf16>
  cake.return
}

// -----

cake.kernel @stage_fragment(%y: !cake.tensor<[32], bf16> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = cake.lane_id
  %row = arith.remui %lane, %c16 : index
  %buf = cake.alloc_smem : !cake.smem<16x16xbf16>
  %v = arith.constant dense<0> : vector<4xi32>
  cake.stmatrix %v, %buf[%row, %c0] : vector<4xi32>, !cake.smem<16x16xbf16>
  cake.barrier
  %x = cake.load %buf[%row, %c0] : !cake.smem<16x16xbf16> -> bf16
  cake.store %x, %y[%lane] : bf16, !cake.tensor<[32], bf16>
  cake.return
}
