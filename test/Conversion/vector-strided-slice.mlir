// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s
// 1-D strided slices, which the upstream conversion to LLVM takes only as shuffles, are rewritten
// into shuffles first (the KDA kernels split mma accumulators into row pairs this way).

// CHECK-LABEL: llvm.func @halves
// CHECK: %[[HI:.*]] = llvm.shufflevector %[[V:.*]], %[[V]] [2, 3] : vector<4xf32>
// CHECK: %[[WIDE:.*]] = llvm.shufflevector %[[HI]], %[[HI]] [0, 1, 0, 0] : vector<2xf32>
// CHECK: llvm.shufflevector %[[WIDE]], %[[V]] [4, 5, 0, 1] : vector<4xf32>
// CHECK-NOT: vector.extract_strided_slice
// CHECK-NOT: vector.insert_strided_slice
cake.kernel @halves(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %tid = cake.thread_id x
  %v = cake.load %y[%tid] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %hi = vector.extract_strided_slice %v {offsets = [2], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
  %w = vector.insert_strided_slice %hi, %v {offsets = [2], strides = [1]} : vector<2xf32> into vector<4xf32>
  cake.store %w, %y[%tid] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
