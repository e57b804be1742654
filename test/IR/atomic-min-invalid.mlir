// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @float_value(%s: !cake.tensor<[K], f32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'cake.atomic_min' op operand #0 must be 32-bit signless integer or 64-bit signless integer, but got 'f32'}}
  cake.atomic_min %v, %s[%c0] : f32, !cake.tensor<[K], f32>
  cake.return
}

// -----

cake.kernel @wrong_element(%s: !cake.tensor<[K], i32> {cake.name = "s"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i64
  // expected-error @+1 {{'cake.atomic_min' op expected element type 'i32', got 'i64'}}
  cake.atomic_min %v, %s[%c0] : i64, !cake.tensor<[K], i32>
  cake.return
}

// -----

cake.kernel @masked_smem(%k: !cake.tensor<[K], i32> {cake.name = "k"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i32
  %s = cake.alloc_smem : !cake.smem<32xi32>
  // expected-error @+1 {{'cake.atomic_min' op 'masked' applies to global tensors only}}
  cake.atomic_min %v, %s[%c0] masked : i32, !cake.smem<32xi32>
  cake.return
}
