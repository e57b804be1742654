// Reference kernels for examples/kmeans_hopper_f32.mlir (fp32 points, D = 64); see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

extern "C" __global__ void kmeans_hopper_f32_ref(const float *x, const void *tx, const float *c, const void *tc,
                                                     const float *csq, const void *tcsq, int *idx, long long B,
                                                     long long N, long long K) {
  assignReference<float>(x, c, csq, idx, B, N, K, 64);
}

extern "C" __global__ void kmeans_hopper_f32_ref_check(const float *x, const void *tx, const float *c,
                                                           const void *tc, const float *csq, const void *tcsq,
                                                           const int *idx, long long B, long long N, long long K,
                                                           double rtol, unsigned long long *bad) {
  checkAssignment<float>(x, c, csq, idx, B, N, K, 64, rtol, bad);
}
