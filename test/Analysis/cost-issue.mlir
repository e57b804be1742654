// RUN: cake-opt %s -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=4096 profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s

// FP32 FMAs and shared-memory loads leave from the same dispatch ports, so their times add (the
// "issue" term). One block per SM, N = 4096 iterations of one broadcast 4-byte shared load (one
// wavefront per warp) and 16 FMAs per thread; the test profile has 51 TFLOP/s fp32 and 1 wavefront
// per clock per SM at 1.83 GHz on 132 SMs:
//   fma: 4096 x 16 x 128 lane-ops / (51e12 / 2 / 132 per second) = 43.42 us
//   lsu: 4096 x 4 wavefronts / 1.83e9 per second                  =  8.955 us
//   issue = 52.38 us (the model used to take the larger, 43.42 us), plus 4 us of launch.
// CHECK: remark: cost: predicted 0.05638 ms on h200-test v1: compute-bound (issue: 0.05238 ms (fma 0.04342 ms + lsu 0.008955 ms: FMAs and loads/stores share the dispatch ports)
cake.kernel @blocked(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %ndim = cake.problem_size "N"
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<32xf32>
  %acc = scf.for %k = %c0 to %ndim step %c1 iter_args(%a = %zero) -> (vector<16xf32>) {
    %v = cake.load %buf[%c0] : !cake.smem<32xf32> -> f32
    %w = vector.broadcast %v : f32 to vector<16xf32>
    %t = math.fma %w, %w, %a : vector<16xf32>
    scf.yield %t : vector<16xf32>
  }
  %e = vector.extract %acc[0] : f32 from vector<16xf32>
  cake.store %e, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
