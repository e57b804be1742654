// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hints under test (roles.barrier-in-role), lib/Verify/VerifyRoles.cpp:127:
//   "move the barrier out of cake.warp_roles, or synchronize the role with mbarriers or a
//    pipeline"
//   (for a cake.pipeline.create: "create the pipeline before cake.warp_roles")
// The kernels (@barrier_in_role and @pipeline_in_role of cake-verify-roles.mlir) run a block
// barrier (a pipeline's creation ends with one) inside a role. Applied literally: the barrier
// after cake.warp_roles; the pipeline created before it. Honest for these kernels. (Where the
// barrier was meant to order a hand-off between roles, moving it out orders nothing inside the
// roles: that needs the second option, which race.cross-role then asks for.)

cake.kernel @barrier_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
    // expected-note @+1 {{the role is here; warps outside it never arrive}}
    cake.role "producer" warps [0, 4) regs 40 {
      // expected-error @+2 {{[roles.barrier-in-role] expected a block-wide barrier to be reached by every thread, but it is inside role 'producer' (warps [0, 4))}}
      // expected-note @+1 {{fix: move the barrier out of cake.warp_roles, or synchronize the role with mbarriers or a pipeline}}
      cake.barrier
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

cake.kernel @barrier_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.barrier
  cake.return
}

// -----

cake.kernel @pipeline_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
    // expected-note @+1 {{the role is here; warps outside it never arrive}}
    cake.role "producer" warps [0, 4) regs 40 {
      // expected-error @+2 {{[roles.barrier-in-role] expected a block-wide barrier to be reached by every thread, but it is inside role 'producer' (warps [0, 4))}}
      // expected-note @+1 {{fix: create the pipeline before cake.warp_roles}}
      %p = cake.pipeline.create consumers 1 : !cake.pipeline<2>
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

cake.kernel @pipeline_in_role() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
  %p = cake.pipeline.create consumers 1 : !cake.pipeline<2>
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
    }
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}
