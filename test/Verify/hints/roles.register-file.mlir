// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (roles.register-file), lib/Verify/VerifyRoles.cpp:89 (text built at 77-88):
//   "lower role 'consumer' to regs 232 (or lower the other roles' budgets)"
// The kernels (@register_file and @roleless_warps of cake-verify-roles.mlir) ask for more than
// the 65536 registers of an SM's register file. Applied literally: regs 232, and regs 168 where
// four warps sit in no role at the entry budget. setmaxnreg only moves registers between warps,
// so the kernels compute the same (the compiler fits the role in the lower budget). Honest.

cake.kernel @register_file() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
  // expected-error @+2 {{[roles.register-file] expected the warps' register budgets to total at most 65536 registers, got 68608}}
  // expected-note @+1 {{fix: lower role 'consumer' to regs 232 (or lower the other roles' budgets)}}
  cake.warp_roles {
    // expected-note @+1 {{role 'producer' (warps [0, 4)): 4 warps x 32 threads x 40 registers = 5120}}
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-note @+1 {{role 'consumer' (warps [4, 12)): 8 warps x 32 threads x 248 registers = 63488}}
    cake.role "consumer" warps [4, 12) regs 248 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

cake.kernel @register_file() attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["N"],
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
  cake.return
}

// -----

cake.kernel @roleless_warps() attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["N"],
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
  // expected-error @+2 {{[roles.register-file] expected the warps' register budgets to total at most 65536 registers, got 80896}}
  // expected-note @+1 {{fix: lower role 'consumer' to regs 168 (or lower the other roles' budgets)}}
  cake.warp_roles {
    // expected-note @+1 {{role 'producer' (warps [0, 4)): 4 warps x 32 threads x 40 registers = 5120}}
    cake.role "producer" warps [0, 4) regs 40 {
    }
    // expected-note @+1 {{role 'consumer' (warps [4, 12)): 8 warps x 32 threads x 232 registers = 59392}}
    cake.role "consumer" warps [4, 12) regs 232 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}

// -----

cake.kernel @roleless_warps() attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["N"],
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
    cake.role "consumer" warps [4, 12) regs 168 {
      cake.wgmma.fence
      cake.wgmma.commit
      cake.wgmma.wait 0
    }
  }
  cake.return
}
