// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @float_min(%d: !cake.tensor<[N], f32> {cake.name = "d"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<1.0> : vector<2xf32>
  // expected-error @+1 {{'cake.wgmma.store_rows' op 'min' merges integers (i32 or i64), got 'f32'}}
  cake.wgmma.store_rows %v, %d[%c0] min : vector<2xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @wrong_element(%d: !cake.tensor<[N], i32> {cake.name = "d"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<1> : vector<2xi64>
  // expected-error @+1 {{'cake.wgmma.store_rows' op expected a destination of element type 'i64', got 'i32'}}
  cake.wgmma.store_rows %v, %d[%c0] min : vector<2xi64>, !cake.tensor<[N], i32>
  cake.return
}

// -----

cake.kernel @wrong_rank(%d: !cake.tensor<[B, N], i64> {cake.name = "d"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["B", "N"],
                grid = affine_map<()[b, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<1> : vector<2xi64>
  // expected-error @+1 {{'cake.wgmma.store_rows' op expected 2 indices, got 1}}
  cake.wgmma.store_rows %v, %d[%c0] min : vector<2xi64>, !cake.tensor<[B, N], i64>
  cake.return
}
