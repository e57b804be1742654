// Reference kernel for examples/ampere_gemm.mlir (see gemm_reference.cuh). Same ABI as the
// kernel's manifest: (a, b, c, M, N, K).
#include "gemm_reference.cuh"

extern "C" __global__ void ampere_gemm_ref(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                           float *c, long long M, long long N, long long K) {
  gemmReference(a, b, c, M, N, K);
}
