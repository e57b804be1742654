// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @wrong_type(%s: !cake.tensor<[K], f32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  // expected-error @+1 {{'cake.atomic_add' op expected element type 'f32', got 'i32'}}
  cake.atomic_add %one, %s[%c0] : i32, !cake.tensor<[K], f32>
  cake.return
}

// -----

cake.kernel @wrong_rank(%s: !cake.tensor<[B, K], f32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["B", "K"],
                grid = affine_map<()[b, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'cake.atomic_add' op expected 2 indices, got 1}}
  cake.atomic_add %v, %s[%c0] : f32, !cake.tensor<[B, K], f32>
  cake.return
}

// -----

cake.kernel @f16_value(%s: !cake.tensor<[K], f16> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f16
  // expected-error @+1 {{'cake.atomic_add' op operand #0 must be 32-bit float or 32-bit signless integer, but got 'f16'}}
  cake.atomic_add %v, %s[%c0] : f16, !cake.tensor<[K], f16>
  cake.return
}
