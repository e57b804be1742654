// Bad `specialize` requests: the attribute on a kernel and cake-translate's --specialize.
// RUN: cake-opt %s -split-input-file -verify-diagnostics
// RUN: not cake-translate %S/Inputs/row-sum.mlir --emit=manifest --specialize=K=8 2>&1 | FileCheck %s --check-prefix=UNDECLARED
// UNDECLARED: row-sum.mlir:2:1: error: --specialize names 'K', which no kernel of the module declares
// RUN: not cake-translate %S/Inputs/row-sum.mlir --emit=manifest --specialize=D=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: row-sum.mlir:2:1: error: --specialize expects SYMBOL=SIZE[,SYMBOL=SIZE...] with non-negative sizes, got 'D=-1'
// RUN: not cake-translate %S/Inputs/row-sum.mlir --emit=manifest --specialize=D 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: error: --specialize expects SYMBOL=SIZE[,SYMBOL=SIZE...] with non-negative sizes, got 'D'

// expected-error @+1 {{specialize names 'K', which is not one of the kernel's symbols}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, specialize = {K = 4}} {
  cake.return
}

// -----

// expected-error @+1 {{expected specialize's 'N' to be a non-negative integer, got -3 : i64}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, specialize = {N = -3}} {
  cake.return
}

// -----

// expected-error @+1 {{expected specialize's 'N' to be a non-negative integer, got "64"}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, specialize = {N = "64"}} {
  cake.return
}

// -----

// expected-error @+1 {{expected specialize's 'N' to be a non-negative integer, got true}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, specialize = {N = true}} {
  cake.return
}

// -----

// expected-error @+1 {{'specialize'}}
cake.kernel @k(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, specialize = [64]} {
  cake.return
}
