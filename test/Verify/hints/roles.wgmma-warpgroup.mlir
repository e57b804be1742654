// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (roles.wgmma-warpgroup), lib/Verify/VerifyRoles.cpp:110:
//   "give the role warps [4, 12) (whole warpgroups) and move the other roles out of them"
// The kernel (@wgmma_misaligned of cake-verify-roles.mlir) issues wgmma from warps [4, 10).
// Applied literally: warps [4, 12) (no other role sits there). Honest.

cake.kernel @wgmma_misaligned() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-error @+2 {{[roles.wgmma-warpgroup] expected a role that issues wgmma to cover whole warpgroups (warps aligned to 4), got [4, 10)}}
    // expected-note @+1 {{fix: give the role warps [4, 12) (whole warpgroups) and move the other roles out of them}}
    cake.role "consumer" warps [4, 10) {
      // expected-note @+1 {{wgmma op here}}
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

cake.kernel @wgmma_misaligned() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
    }
    cake.role "consumer" warps [4, 12) {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}
