// Reference kernel for examples/gemm.mlir: C[M,N] = A[M,K] * B[K,N], all
// row-major, fp64 accumulation. One thread per output element (grid-stride).

extern "C" __global__ void gemm_ref(const float *a, const float *b, float *c,
                                    long long M, long long N, long long K) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long total = M * N;
  for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
       idx < total; idx += stride) {
    long long i = idx / N, j = idx % N;
    double acc = 0.0;
    for (long long k = 0; k < K; ++k)
      acc += (double)a[i * K + k] * (double)b[k * N + j];
    c[idx] = (float)acc;
  }
}
