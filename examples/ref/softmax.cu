// Reference kernel for examples/softmax.mlir: row softmax over the last
// dimension of a row-major MxN matrix, max-subtracted, fp64 sums.
// One thread per row (grid-stride over rows): slow but obviously correct.

extern "C" __global__ void softmax_ref(const float *x, float *y, long long M,
                                       long long N) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
       row < M; row += stride) {
    const float *in = x + row * N;
    float *out = y + row * N;
    double maxValue = -__builtin_huge_val();
    for (long long j = 0; j < N; ++j)
      maxValue = fmax(maxValue, (double)in[j]);
    double sum = 0.0;
    for (long long j = 0; j < N; ++j)
      sum += exp((double)in[j] - maxValue);
    for (long long j = 0; j < N; ++j)
      out[j] = (float)(exp((double)in[j] - maxValue) / sum);
  }
}
