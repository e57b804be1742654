// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hints under test (roles.partial-warp), lib/Verify/VerifyRoles.cpp:168:
//   "execute the warp collective in all 32 lanes (move it out of lane-dependent conditions)"
//   (for a named barrier: "execute the named barrier in all 32 lanes of each arriving warp (move
//    it out of lane-dependent conditions): bar.sync is .aligned")
// The text quoted above was NOT HONEST for a reduction. Section 1: lanes 0-15 sum their x with a warp_reduce
// under a lane condition. Section 2 applies the hint literally (the warp_reduce moved out of the
// condition): clean, but WRONG, the sum now adds all 32 elements instead of 16. Section 3 is the
// fix a complete hint leads to (as shape.partial-collective's hint says): every lane reduces,
// lanes outside the condition contribute the identity (arith.select on the condition, 0 for a
// sum). Clean and right. Sections 4-5: the named-barrier text, moved out of the lane condition:
// honest. Section 1 expects the fixed hint.

cake.kernel @half_warp_sum(%x: !cake.tensor<[32], f32> {cake.name = "x"},
                           %y: !cake.tensor<[1], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = cake.lane_id
  %half = arith.cmpi ult, %lane, %c16 : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %v = cake.load %x[%lane] : !cake.tensor<[32], f32> -> f32
  // expected-note @+1 {{threads diverge here}}
  scf.if %half {
    // expected-error @+2 {{[roles.partial-warp] expected all 32 threads of warp 0 to execute this op, got 16}}
    // expected-note @+1 {{fix: execute the reduction in all 32 lanes (move it out of lane-dependent conditions), the lanes outside the condition contributing the identity: arith.select on the condition (0 for a sum, -inf for a max)}}
    %s = cake.warp_reduce sum %v : f32
    scf.if %first {
      cake.store %s, %y[%c0] : f32, !cake.tensor<[1], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @half_warp_sum(%x: !cake.tensor<[32], f32> {cake.name = "x"},
                           %y: !cake.tensor<[1], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = cake.lane_id
  %half = arith.cmpi ult, %lane, %c16 : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %v = cake.load %x[%lane] : !cake.tensor<[32], f32> -> f32
  %s = cake.warp_reduce sum %v : f32
  scf.if %half {
    scf.if %first {
      cake.store %s, %y[%c0] : f32, !cake.tensor<[1], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @half_warp_sum(%x: !cake.tensor<[32], f32> {cake.name = "x"},
                           %y: !cake.tensor<[1], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = [],
                grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = cake.lane_id
  %half = arith.cmpi ult, %lane, %c16 : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %v = cake.load %x[%lane] : !cake.tensor<[32], f32> -> f32
  %zero = arith.constant 0.0 : f32
  %z = arith.select %half, %v, %zero : f32
  %s = cake.warp_reduce sum %z : f32
  scf.if %half {
    scf.if %first {
      cake.store %s, %y[%c0] : f32, !cake.tensor<[1], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @partial_warp_named_barrier() attributes {target = "sm_90a", block = array<i64: 256>,
                                symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %lane = cake.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  // expected-note @+1 {{threads diverge here}}
  scf.if %first {
    // expected-error @+2 {{[roles.partial-warp] expected all 32 threads of warp 0 to execute this op, got 1}}
    // expected-note @+1 {{fix: execute the named barrier in all 32 lanes of each arriving warp (move it out of lane-dependent conditions): bar.sync is .aligned}}
    cake.named_barrier 1, threads 256
  }
  cake.return
}

// -----

cake.kernel @partial_warp_named_barrier() attributes {target = "sm_90a", block = array<i64: 256>,
                                symbols = [], grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %lane = cake.lane_id
  %first = arith.cmpi eq, %lane, %c0 : index
  cake.named_barrier 1, threads 256
  cake.return
}
