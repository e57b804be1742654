// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-contract)' -split-input-file | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-contract,cake-lower-to-nvvm)' -split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-contract)' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// `csq - 2 * dot` (the KMeans epilogue): the multiply and the subtract it feeds get `contract`,
// existing flags are kept, and a multiply that feeds no add or subtract stays as it was.
// CHECK-LABEL: cake.kernel @epilogue
// CHECK: %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.subf %{{.*}}, %[[T]] fastmath<nnan,contract> : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: fastmath
// The flags reach the LLVM dialect, where the NVPTX backend fuses the pair into one fma.
// LLVM-LABEL: llvm.func @epilogue
// LLVM: llvm.fmul {{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// LLVM: llvm.fsub {{.*}} {fastmathFlags = #llvm.fastmath<nnan, contract>} : f32
cake.kernel @epilogue(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %tid = cake.thread_id x
  %two = arith.constant 2.0 : f32
  %dot = cake.load %x[%tid] masked : !cake.tensor<[N], f32> -> f32
  %t = arith.mulf %two, %dot : f32
  %d = arith.subf %dot, %t fastmath<nnan> : f32
  %sq = arith.mulf %d, %d : f32
  cake.store %sq, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Vectors too: a vector multiply feeding an add.
// CHECK-LABEL: cake.kernel @vectors
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf32>
cake.kernel @vectors(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = cake.load %x[%c0] : !cake.tensor<[N], f32> -> vector<4xf32>
  %p = arith.mulf %v, %v : vector<4xf32>
  %s = arith.addf %p, %v : vector<4xf32>
  cake.store %s, %y[%c0] : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}

// -----

// Already contracted: unchanged, with a remark (so applying the tactic twice is not an error).
// CHECK-LABEL: cake.kernel @done
// REMARK: remark: cake-tactic-contract: every multiply-add of 'done' is already contracted: unchanged
cake.kernel @done(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 32>, symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %tid = cake.thread_id x
  %v = cake.load %x[%tid] masked : !cake.tensor<[N], f32> -> f32
  %p = arith.mulf %v, %v fastmath<contract> : f32
  %s = arith.addf %p, %v fastmath<contract> : f32
  cake.store %s, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
