// RUN: cake-opt %s | cake-opt | FileCheck %s
// RUN: cake-opt %s --mlir-print-op-generic | cake-opt | FileCheck %s

// The Ampere-path ops round-trip: cp.async (with and without masking), commit/wait groups,
// ldmatrix (typed and i32 fragments, x1/x2/x4, trans), mma.sync (bf16, f16, tf32) and the
// accumulator store; stmatrix in an sm_90a kernel.

// CHECK-LABEL: cake.kernel @ampere
cake.kernel @ampere(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
                    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
                    %c: !cake.tensor<[M, N], f32> {cake.name = "c"},
                    %h: !cake.tensor<[M, N], bf16> {cake.name = "h"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %i = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<2x64x32xbf16, swizzle = 64>
  %fbuf = cake.alloc_smem : !cake.smem<16x32xf32>
  // CHECK: cake.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x32xbf16, swizzle = 64>
  cake.cp_async %a[%i, %c0], %buf[%c0, %i, %c0], bytes 16 masked : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x32xbf16, swizzle = 64>
  // CHECK: cake.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], bytes 4 : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  cake.cp_async %x[%i, %c0], %fbuf[%c0, %i], bytes 4 : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  // CHECK: %[[P:.*]] = arith.cmpi
  // CHECK: cake.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], bytes 4 if %[[P]] : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  %inside = arith.cmpi ult, %i, %c0 : index
  cake.cp_async %x[%i, %c0], %fbuf[%c0, %i], bytes 4 if %inside : !cake.tensor<[M, K], f32>, !cake.smem<16x32xf32>
  // CHECK: cake.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], bytes 16 masked if %[[P]] : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x32xbf16, swizzle = 64>
  cake.cp_async %a[%i, %c0], %buf[%c0, %i, %c0], bytes 16 masked if %inside : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x32xbf16, swizzle = 64>
  // CHECK: cake.cp_async.commit
  cake.cp_async.commit
  // CHECK: cake.cp_async.wait 1
  cake.cp_async.wait 1
  // CHECK: cake.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<8xbf16>
  %fa = cake.ldmatrix %buf[%c0, %i, %c0] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<8xbf16>
  // CHECK: cake.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<4xbf16>
  %fb = cake.ldmatrix %buf[%c0, %i, %c0] : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<4xbf16>
  // CHECK: cake.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] trans : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<1xi32>
  %ft = cake.ldmatrix %buf[%c0, %i, %c0] trans : !cake.smem<2x64x32xbf16, swizzle = 64> -> vector<1xi32>
  %acc0 = arith.constant dense<0.0> : vector<4xf32>
  // CHECK: cake.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
  %acc1 = cake.mma_sync %fa, %fb, %acc0 : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
  // CHECK: cake.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] : !cake.smem<16x32xf32> -> vector<4xf32>
  %ta = cake.ldmatrix %fbuf[%i, %c0] : !cake.smem<16x32xf32> -> vector<4xf32>
  %tb = cake.ldmatrix %fbuf[%i, %c0] : !cake.smem<16x32xf32> -> vector<2xf32>
  // CHECK: cake.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>, vector<2xf32>, vector<4xf32>
  %acc2 = cake.mma_sync %ta, %tb, %acc1 : vector<4xf32>, vector<2xf32>, vector<4xf32>
  %ha = vector.bitcast %fa : vector<8xbf16> to vector<8xf16>
  %hb = vector.bitcast %fb : vector<4xbf16> to vector<4xf16>
  // CHECK: cake.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>, vector<4xf16>, vector<4xf32>
  %acc3 = cake.mma_sync %ha, %hb, %acc2 : vector<8xf16>, vector<4xf16>, vector<4xf32>
  // CHECK: cake.mma_sync.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  cake.mma_sync.store %acc3, %c[%i, %c0] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  // CHECK: cake.mma_sync.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<4xf32>, !cake.tensor<[M, N], bf16>
  cake.mma_sync.store %acc3, %h[%i, %c0] : vector<4xf32>, !cake.tensor<[M, N], bf16>
  cake.return
}

// CHECK-LABEL: cake.kernel @hopper_stmatrix
cake.kernel @hopper_stmatrix() attributes {target = "sm_90a", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %l = cake.lane_id
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %v = cake.ldmatrix %buf[%l, %c0] : !cake.smem<64x64xbf16, swizzle = 128> -> vector<8xbf16>
  // CHECK: cake.stmatrix %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
  cake.stmatrix %v, %buf[%l, %c0] : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
  %w = arith.constant dense<0> : vector<2xi32>
  // CHECK: cake.stmatrix %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] trans : vector<2xi32>, !cake.smem<64x64xbf16, swizzle = 128>
  cake.stmatrix %w, %buf[%l, %c0] trans : vector<2xi32>, !cake.smem<64x64xbf16, swizzle = 128>
  cake.return
}
