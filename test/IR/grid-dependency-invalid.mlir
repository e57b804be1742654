// RUN: cake-opt %s -split-input-file -verify-diagnostics

// What precedes the wait may run while the previous kernel still writes: no global access there.
cake.kernel @load_before_wait(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{global memory accessed here}}
  %v = cake.load %x[%c0] : !cake.tensor<[N], f32> -> f32
  // expected-error @+1 {{'cake.grid_dependency.wait' op follows a global memory access: what precedes the wait may run before the previous kernel completes}}
  cake.grid_dependency.wait
  cake.store %v, %x[%c0] : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// A global access nested in a region counts too.
cake.kernel @store_in_branch_before_wait(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  %v = arith.constant 1.0 : f32
  scf.if %first {
    // expected-note @+1 {{global memory accessed here}}
    cake.store %v, %x[%c0] : f32, !cake.tensor<[N], f32>
  }
  // expected-error @+1 {{'cake.grid_dependency.wait' op follows a global memory access}}
  cake.grid_dependency.wait
  cake.return
}

// -----

// Every thread must pass the wait before touching global memory: not inside a branch or loop.
cake.kernel @wait_in_branch(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    // expected-error @+1 {{'cake.grid_dependency.wait' op must be directly in the kernel's body (not in a loop, branch or role)}}
    cake.grid_dependency.wait
  }
  cake.return
}

// -----

cake.kernel @two_waits(%x: !cake.tensor<[N], f32> {cake.name = "x"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  cake.grid_dependency.wait
  // expected-error @+1 {{'cake.grid_dependency.wait' op a kernel waits for its grid dependencies once}}
  cake.grid_dependency.wait
  cake.return
}

// -----

// Outside a kernel.
func.func @outside() {
  // expected-error @+1 {{'cake.grid_dependency.wait' op expected to be inside a cake.kernel}}
  cake.grid_dependency.wait
  return
}
