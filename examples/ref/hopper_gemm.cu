// Reference kernels for examples/hopper_gemm.mlir (f32 output) and hopper_gemm_bf16.mlir
// (bf16 output): C[M,N] = A[M,K] * B[N,K]^T with bf16 inputs and fp32 accumulation (bf16
// products are exact in fp32). The TMA descriptor parameters (ta, tb) are unused here.
#include "gemm_reference.cuh"

extern "C" __global__ void hopper_gemm_ref(const __nv_bfloat16 *a, const void *ta,
                                           const __nv_bfloat16 *b, const void *tb, float *c,
                                           long long M, long long N, long long K) {
  gemmReference(a, b, c, M, N, K);
}

extern "C" __global__ void hopper_gemm_bf16_ref(const __nv_bfloat16 *a, const void *ta,
                                                const __nv_bfloat16 *b, const void *tb,
                                                __nv_bfloat16 *c, long long M, long long N,
                                                long long K) {
  gemmReference(a, b, c, M, N, K);
}
