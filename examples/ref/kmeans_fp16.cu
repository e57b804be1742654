// Reference kernels for the harness task agent/tasks/kmeans_fp16.json (fp16 points, D = 128): the
// parameters of examples/kmeans_hopper.mlir without the TMA descriptors; see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

extern "C" __global__ void kmeans_fp16_ref(const __half *x, const __half *c, const float *csq,
                                           int *idx, long long B, long long N, long long K) {
  assignReference<__half, 128>(x, c, csq, idx, B, N, K);
}

extern "C" __global__ void kmeans_fp16_ref_check(const __half *x, const __half *c,
                                                 const float *csq, const int *idx, long long B,
                                                 long long N, long long K, double rtol,
                                                 unsigned long long *bad) {
  checkAssignment<__half, 128>(x, c, csq, idx, B, N, K, rtol, bad);
}
