// Reference kernel for examples/tma_multicast.mlir: y[i, j] = x[i, j mod 32], y of M x 64.
// The TMA descriptor parameter (tx) is unused here.
extern "C" __global__ void tma_multicast_ref(const float *x, const void *tx, float *y,
                                             long long M) {
  long long total = M * 64;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total;
       p += (long long)gridDim.x * blockDim.x)
    y[p] = x[(p / 64) * 32 + (p % 64) % 32];
}
