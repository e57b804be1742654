// RUN: cake-opt %s | cake-opt | FileCheck %s
// RUN: cake-opt %s --mlir-print-op-generic | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @ids
// CHECK-SAME: attributes {block = array<i64: 128, 2>, cluster = array<i64: 2>
// CHECK-SAME: target = "sm_90a"
cake.kernel @ids(%x: !cake.tensor<[N, 64], f32>, %alpha: f32, %n: i64)
    attributes {target = "sm_90a", block = array<i64: 128, 2>, cluster = array<i64: 2>,
                symbols = ["N"], grid = affine_map<()[n] -> (n ceildiv 2, 1, 1)>} {
  // CHECK: cake.thread_id x
  // CHECK: cake.thread_id y
  // CHECK: cake.block_id z
  // CHECK: cake.block_dim x
  // CHECK: cake.grid_dim y
  // CHECK: cake.cluster_id x
  // CHECK: cake.cluster_block_id x
  // CHECK: cake.lane_id
  // CHECK: cake.warp_id
  // CHECK: cake.warpgroup_id
  // CHECK: cake.problem_size "N"
  %0 = cake.thread_id x
  %1 = cake.thread_id y
  %2 = cake.block_id z
  %3 = cake.block_dim x
  %4 = cake.grid_dim y
  %5 = cake.cluster_id x
  %6 = cake.cluster_block_id x
  %7 = cake.lane_id
  %8 = cake.warp_id
  %9 = cake.warpgroup_id
  %10 = cake.problem_size "N"
  cake.return
}

// CHECK-LABEL: cake.kernel @memory
// CHECK-SAME: !cake.tensor<[M, K], f16, strides [LDA, 1]>
// CHECK-SAME: !cake.tensor<[M], i32>
cake.kernel @memory(%a: !cake.tensor<[M, K], f16, strides [LDA, 1]>, %o: !cake.tensor<[M], i32>)
    attributes {target = "sm_80", block = array<i64: 64>, symbols = ["M", "K", "LDA"],
                grid = affine_map<()[m, k, lda] -> (m)>, dynamic_smem = 1024 : i64} {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  // CHECK: cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  // CHECK: cake.alloc_smem : !cake.smem<16x4xi32>
  %s = cake.alloc_smem : !cake.smem<64x64xf16, swizzle = 128>
  %t = cake.alloc_smem : !cake.smem<16x4xi32>
  // CHECK: cake.load %{{.*}}[%{{.*}}, %{{.*}}] masked pad(%{{.*}} : f16) : !cake.tensor<[M, K], f16, strides [LDA, 1]> -> vector<8xf16>
  %v = cake.load %a[%c0, %c0] masked pad(%pad : f16) : !cake.tensor<[M, K], f16, strides [LDA, 1]> -> vector<8xf16>
  // CHECK: cake.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<8xf16>, !cake.smem<64x64xf16, swizzle = 128>
  cake.store %v, %s[%c0, %c0] : vector<8xf16>, !cake.smem<64x64xf16, swizzle = 128>
  // CHECK: cake.load %{{.*}}[%{{.*}}, %{{.*}}] : !cake.smem<16x4xi32> -> i32
  %i = cake.load %t[%c0, %c0] : !cake.smem<16x4xi32> -> i32
  // CHECK: cake.barrier
  cake.barrier
  // CHECK: cake.store %{{.*}}, %{{.*}}[%{{.*}}] masked : i32, !cake.tensor<[M], i32>
  cake.store %i, %o[%c0] masked : i32, !cake.tensor<[M], i32>
  cake.return
}

// CHECK-LABEL: cake.kernel @reductions
cake.kernel @reductions(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>} {
  %c0 = arith.constant 0 : index
  %v = cake.load %x[%c0] : !cake.tensor<[N], f32> -> f32
  %k = arith.constant 3 : i32
  // CHECK: cake.warp_reduce sum %{{.*}} : f32
  // CHECK: cake.warp_reduce max %{{.*}} {lanes = 8 : i64} : f32
  // CHECK: cake.warp_reduce min %{{.*}} : i32
  // CHECK: cake.warp_arg_reduce argmin %{{.*}}, %{{.*}} : f32, i32
  // CHECK: cake.warp_arg_reduce argmax %{{.*}}, %{{.*}} {lanes = 16 : i64} : f32, i32
  %s = cake.warp_reduce sum %v : f32
  %m = cake.warp_reduce max %v {lanes = 8 : i64} : f32
  %i = cake.warp_reduce min %k : i32
  %b, %bi = cake.warp_arg_reduce argmin %v, %k : f32, i32
  %c, %ci = cake.warp_arg_reduce argmax %v, %k {lanes = 16 : i64} : f32, i32
  cake.return
}

// CHECK-LABEL: cake.kernel @padded
// CHECK: cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
cake.kernel @padded() attributes {target = "sm_80", block = array<i64: 32>, grid = affine_map<() -> (1)>} {
  %s = cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
  cake.return
}

// The occupancy request is an attribute of the kernel; it survives printing and parsing.
// CHECK-LABEL: cake.kernel @occupancy
// CHECK-SAME: min_blocks_per_sm = 8 : i64
cake.kernel @occupancy(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, min_blocks_per_sm = 8 : i64} {
  cake.return
}

// So is the width `index` is lowered to (docs/Manifest.md, 32-bit index).
// CHECK-LABEL: cake.kernel @narrow_index
// CHECK-SAME: index_bitwidth = 32 : i64
cake.kernel @narrow_index(%x: !cake.tensor<[N], f32>)
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n)>, index_bitwidth = 32 : i64} {
  cake.return
}
