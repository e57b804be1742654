// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-interface=interface=%S/Inputs/copy-interface.json -o /dev/null
// RUN: not cake-opt %s -split-input-file --cake-verify-interface=interface=%S/Inputs/absent.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=ABSENT
// RUN: not cake-opt %s -split-input-file --cake-verify-interface=interface=%S/Inputs/bad-role-interface.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROLE
// RUN: not cake-opt %s -split-input-file --cake-verify-interface=interface=%S/Inputs/truncated-interface.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not cake-opt %s --cake-verify=interface=%S/Inputs/copy-interface.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// cake-verify-interface: the kernel against the task's declared interface (x in, y out, a scalar
// alpha; symbols M, N). The hacks it stops: a kernel that writes no output, one that fakes its
// result in place, one with another signature.

// ABSENT: error: cannot read interface '{{.*}}absent.json'
// ROLE: error: interface '{{.*}}bad-role-interface.json': params[0] ('x'): expected role in, out or inout, got 'sideways'
// JSON: error: interface '{{.*}}truncated-interface.json' is not JSON
// PIPELINE: [interface.output-unwritten] expected output 'y' to be written, but no op writes it
// PIPELINE: [interface.input-written] expected input 'x' to be read only, but this op writes it

// Valid: reads x, writes y.
cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f32> -> f32
  %s = arith.mulf %v, %alpha : f32
  cake.store %s, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// The hack that computes nothing: y is never written.
// expected-error @+2 {{[interface.output-unwritten] expected output 'y' to be written, but no op writes it}}
// expected-note @+1 {{fix: store the results into 'y' (cake.store, a fragment store or a TMA store)}}
cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  cake.return
}

// -----

// The in-place hack: x copied onto itself, y never touched.
// expected-error @+3 {{[interface.output-unwritten] expected output 'y' to be written, but no op writes it}}
// expected-note @+2 {{fix: store the results into 'y'}}
// expected-note @+1 {{the task declares 'x' an input of @copy}}
cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f32> -> f32
  // expected-error @+2 {{[interface.input-written] expected input 'x' to be read only, but this op writes it}}
  // expected-note @+1 {{fix: write results only into the outputs ('y')}}
  cake.store %v, %x[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// Another signature: y renamed, x of another element type, the scalar dropped, N and M swapped.
// expected-error @+7 {{[interface.params] expected the task's 3 parameters, got 2 with 3 different}}
// expected-note @+6 {{parameter 0: expected 'x' (tensor f32 [M, N]), got 'x' (tensor f16 [M, N])}}
// expected-note @+5 {{parameter 1: expected 'y' (tensor f32 [M, N]), got 'out' (tensor f32 [M, N])}}
// expected-note @+4 {{parameter 2: expected 'alpha' (scalar f32), got none}}
// expected-note @+3 {{fix: keep the task's parameters, in order: 'x' (tensor f32 [M, N]), 'y' (tensor f32 [M, N]), 'alpha' (scalar f32)}}
// expected-error @+2 {{[interface.symbols] expected symbols [M, N], got [N, M]}}
// expected-note @+1 {{fix: declare symbols = ["M", "N"]}}
cake.kernel @copy(%x: !cake.tensor<[M, N], f16> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "M"],
                grid = affine_map<()[n, m] -> (m)>} {
  %row = cake.block_id x
  %col = cake.thread_id x
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f16> -> f16
  %w = arith.extf %v : f16 to f32
  cake.store %w, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

// expected-error @below {{[interface.kernel-missing] expected a cake.kernel named @copy (the task's interface), found none}}
// expected-note @below {{fix: keep the kernel's name @copy}}
module {
  cake.kernel @copy_fast(%x: !cake.tensor<[N], f32> {cake.name = "x"})
      attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                  grid = affine_map<()[n] -> (n)>} {
    cake.return
  }
}
