// Reference kernels for the harness task agent/tasks/kmeans_bf16.json (bf16 points, D = 128):
// kmeans_fp16.cu's with bf16 inputs; see kmeans_reference.cuh.
#include "kmeans_reference.cuh"

extern "C" __global__ void kmeans_bf16_ref(const __nv_bfloat16 *x, const __nv_bfloat16 *c,
                                           const float *csq, int *idx, long long B, long long N,
                                           long long K) {
  assignReference<__nv_bfloat16, 128>(x, c, csq, idx, B, N, K);
}

extern "C" __global__ void kmeans_bf16_ref_check(const __nv_bfloat16 *x, const __nv_bfloat16 *c,
                                                 const float *csq, const int *idx, long long B,
                                                 long long N, long long K, double rtol,
                                                 unsigned long long *bad) {
  checkAssignment<__nv_bfloat16, 128>(x, c, csq, idx, B, N, K, rtol, bad);
}
