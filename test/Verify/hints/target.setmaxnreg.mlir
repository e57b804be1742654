// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (target.setmaxnreg), lib/Verify/VerifyTarget.cpp (the report lambda):
//   "set target = \"sm_90a\" on @<kernel>, or use an op that sm_90 has"
// The kernel: roles with register budgets on sm_90. Applied literally (first option): target =
// "sm_90a". The ops mean the same there; the kernel computes the same. Honest. (The second option
// names no op: on sm_90 there is none with this meaning.)

// expected-note @+1 {{the kernel's target is set here}}
cake.kernel @budgeted_roles(%y: !cake.tensor<[256], f32> {cake.name = "y"})
    attributes {target = "sm_90", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  cake.warp_roles {
    // expected-error @+2 {{'cake.role' op [target.setmaxnreg] expected a target with register reallocation (setmaxnreg) (sm_90a, sm_100a), got sm_90}}
    // expected-note @+1 {{fix: set target = "sm_90a" on @budgeted_roles, or use an op that sm_90 has}}
    cake.role "producer" warps [0, 4) regs 40 {
      cake.store %one, %y[%tid] : f32, !cake.tensor<[256], f32>
    }
    // expected-error @+2 {{'cake.role' op [target.setmaxnreg] expected a target with register reallocation (setmaxnreg) (sm_90a, sm_100a), got sm_90}}
    // expected-note @+1 {{fix: set target = "sm_90a" on @budgeted_roles, or use an op that sm_90 has}}
    cake.role "consumer" warps [4, 8) regs 232 {
      cake.store %two, %y[%tid] : f32, !cake.tensor<[256], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @budgeted_roles(%y: !cake.tensor<[256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %tid = cake.thread_id x
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  cake.warp_roles {
    cake.role "producer" warps [0, 4) regs 40 {
      cake.store %one, %y[%tid] : f32, !cake.tensor<[256], f32>
    }
    cake.role "consumer" warps [4, 8) regs 232 {
      cake.store %two, %y[%tid] : f32, !cake.tensor<[256], f32>
    }
  }
  cake.return
}
