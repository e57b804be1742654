// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (roles.partial-warpgroup), lib/Verify/VerifyRoles.cpp:168:
//   "execute wgmma ops in every thread of the warpgroup (move them out of thread-dependent
//    conditions)"
// The kernel (@partial_warpgroup of cake-verify-roles.mlir) runs cake.wgmma.fence in half of
// each warpgroup. Applied literally: the fence out of the condition. Honest (wgmma ops are
// warpgroup-wide; the accumulators they produce are per thread, nothing to mask).

cake.kernel @partial_warpgroup() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %in = arith.remui %tid, %c128 : index
  %low = arith.cmpi ult, %in, %c64 : index
  // expected-note @+1 {{threads diverge here}}
  scf.if %low {
    // expected-error @+2 {{[roles.partial-warpgroup] expected all 128 threads of warpgroup 0 to execute this op, got 64}}
    // expected-note @+1 {{fix: execute wgmma ops in every thread of the warpgroup (move them out of thread-dependent conditions)}}
    cake.wgmma.fence
  }
  cake.return
}

// -----

cake.kernel @partial_warpgroup() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
                                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = cake.problem_size "N"
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %in = arith.remui %tid, %c128 : index
  %low = arith.cmpi ult, %in, %c64 : index
  cake.wgmma.fence
  cake.return
}
