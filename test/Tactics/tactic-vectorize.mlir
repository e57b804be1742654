// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-vectorize{width=8})' | FileCheck %s
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-vectorize{width=8})' | cake-opt --cake-verify -o /dev/null
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-vectorize{width=4})' | FileCheck %s --check-prefix=W4

// cake-tactic-vectorize widens the loads of an inner reduction loop: the dot product of the
// naive KMeans seed (fp16 rows, fp32 fma accumulator) and a sum of differences over a shared row.

// CHECK-LABEL: cake.kernel @dot
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[SUM:.*]] = scf.for %[[J:.*]] = %c0 to %c128 step %[[C8]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<8xf32>) {
// CHECK-NEXT: %[[X:.*]] = cake.load %arg0[%{{.*}}, %[[J]]] masked : !cake.tensor<[N, 128], f16> -> vector<8xf16>
// CHECK-NEXT: %[[C:.*]] = cake.load %arg1[%{{.*}}, %[[J]]] masked : !cake.tensor<[K, 128], f16> -> vector<8xf16>
// CHECK-NEXT: %[[XF:.*]] = arith.extf %[[X]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT: %[[CF:.*]] = arith.extf %[[C]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT: %[[F:.*]] = math.fma %[[XF]], %[[CF]], %[[ACC]] : vector<8xf32>
// CHECK-NEXT: scf.yield %[[F]] : vector<8xf32>
// CHECK: %[[R:.*]] = vector.reduction <add>, %[[SUM]] : vector<8xf32> into f32
// CHECK: arith.addf %{{.*}}, %[[R]] : f32

// W4: scf.for {{.*}} -> (vector<4xf32>)
// W4: cake.load {{.*}} -> vector<4xf16>
cake.kernel @dot(%x: !cake.tensor<[N, 128], f16> {cake.name = "x"},
                 %c: !cake.tensor<[K, 128], f16> {cake.name = "c"},
                 %out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (n)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %i = cake.block_id x
  %k = cake.lane_id
  %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
    %xh = cake.load %x[%i, %j] masked : !cake.tensor<[N, 128], f16> -> f16
    %ch = cake.load %c[%k, %j] masked : !cake.tensor<[K, 128], f16> -> f16
    %xv = arith.extf %xh : f16 to f32
    %cv = arith.extf %ch : f16 to f32
    %acc2 = math.fma %xv, %cv, %acc : f32
    scf.yield %acc2 : f32
  }
  %first = arith.cmpi eq, %k, %c0 : index
  scf.if %first {
    cake.store %dot, %out[%i] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// W4-LABEL: cake.kernel @shared_row
// At width 8 the f32 row would need 32-byte accesses, so it stays as it is; width 4 widens it.
// CHECK-LABEL: cake.kernel @shared_row
// CHECK: scf.for {{.*}} -> (f32)
// A sum of squared differences from a loop-invariant scalar over a shared row; the scalar and the
// constant are broadcast, the loop's initial value is added after the reduction.
// W4: %[[S:.*]] = scf.for {{.*}} -> (vector<4xf32>) {
// W4: cake.load %{{.*}} : !cake.smem<4x64xf32> -> vector<4xf32>
// W4: arith.constant dense<2.000000e+00> : vector<4xf32>
// W4: vector.broadcast %{{.*}} : f32 to vector<4xf32>
// W4: arith.addf %{{.*}} : vector<4xf32>
// W4: %[[R:.*]] = vector.reduction <add>, %[[S]] : vector<4xf32> into f32
// W4: arith.addf %{{.*}}, %[[R]] : f32
cake.kernel @shared_row(%out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant 1.5 : f32
  %buf = cake.alloc_smem : !cake.smem<4x64xf32>
  %tid = cake.thread_id x
  %row = arith.remui %tid, %c1 : index
  %m = cake.load %out[%c0] masked : !cake.tensor<[N], f32> -> f32
  %c32 = arith.constant 32 : index
  scf.for %w = %tid to %c64 step %c32 {
    cake.store %m, %buf[%row, %w] : f32, !cake.smem<4x64xf32>
  }
  cake.barrier
  %s = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
    %v = cake.load %buf[%row, %j] : !cake.smem<4x64xf32> -> f32
    %two = arith.constant 2.0 : f32
    %d = arith.subf %v, %m : f32
    %e = arith.mulf %d, %two : f32
    %acc2 = arith.addf %acc, %e : f32
    scf.yield %acc2 : f32
  }
  cake.store %s, %out[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
