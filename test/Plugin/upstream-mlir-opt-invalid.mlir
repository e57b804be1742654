// The plugin's verifiers run inside upstream mlir-opt: its diagnostics, its -verify-diagnostics.
// REQUIRES: upstream-mlir-opt
// RUN: %upstream_mlir_opt %s --load-dialect-plugin=%cake_plugin -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown target 'sm_75', expected one of sm_80, sm_90, sm_90a, sm_100a}}
cake.kernel @k() attributes {target = "sm_75", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  cake.return
}

// -----

// expected-error @+1 {{expected at most 1024 threads per block, got 2048}}
cake.kernel @k() attributes {target = "sm_90a", block = array<i64: 1024, 2>, grid = affine_map<() -> (1)>} {
  cake.return
}
