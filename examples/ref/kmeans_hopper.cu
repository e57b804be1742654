// Reference kernels for examples/kmeans_hopper.mlir (fp16 points, D = 128); see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

extern "C" __global__ void kmeans_hopper_ref(const __half *x, const void *tx, const __half *c, const void *tc,
                                                 const float *csq, const void *tcsq, int *idx, long long B,
                                                 long long N, long long K) {
  assignReference<__half>(x, c, csq, idx, B, N, K, 128);
}

extern "C" __global__ void kmeans_hopper_ref_check(const __half *x, const void *tx, const __half *c,
                                                       const void *tc, const float *csq, const void *tcsq,
                                                       const int *idx, long long B, long long N, long long K,
                                                       double rtol, unsigned long long *bad) {
  checkAssignment<__half>(x, c, csq, idx, B, N, K, 128, rtol, bad);
}
