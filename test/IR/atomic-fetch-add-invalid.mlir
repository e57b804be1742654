// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @float_value(%s: !cake.tensor<[K], f32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'cake.atomic_fetch_add' op operand #0 must be 32-bit signless integer, but got 'f32'}}
  %old = "cake.atomic_fetch_add"(%v, %s, %c0) : (f32, !cake.tensor<[K], f32>, index) -> i32
  cake.return
}

// -----

cake.kernel @wide_element(%s: !cake.tensor<[K], i64> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i32
  // expected-error @+1 {{'cake.atomic_fetch_add' op expected element type 'i64', got 'i32'}}
  %old = cake.atomic_fetch_add %v, %s[%c0] acq_rel : !cake.tensor<[K], i64>
  cake.return
}

// -----

cake.kernel @index_count(%s: !cake.tensor<[B, K], i32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["B", "K"],
                grid = affine_map<()[b, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i32
  // expected-error @+1 {{'cake.atomic_fetch_add' op expected 2 indices, got 1}}
  %old = cake.atomic_fetch_add %v, %s[%c0] : !cake.tensor<[B, K], i32>
  cake.return
}

// -----

cake.kernel @no_masked_form(%s: !cake.tensor<[K], i32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i32
  // expected-error @+1 {{expected ':'}}
  %old = cake.atomic_fetch_add %v, %s[%c0] masked : !cake.tensor<[K], i32>
  cake.return
}

// -----

cake.kernel @unknown_scope() attributes {target = "sm_90a", block = array<i64: 32>,
                                                grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{expected ::mlir::cake::MemoryScope to be one of: cta, gpu}}
  cake.fence sys
  // expected-error @+1 {{failed to parse Cake_MemoryScopeAttr parameter 'value'}}
  cake.return
}

// -----

func.func @fence_outside_a_kernel() {
  // expected-error @+1 {{'cake.fence' op expected to be inside a cake.kernel}}
  cake.fence gpu
  return
}
