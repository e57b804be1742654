// Reference kernel for examples/vector_add.mlir: z = x + y.
// Launched by cake-run with 256 threads x (4 * SM count) blocks.

extern "C" __global__ void vector_add_ref(const float *x, const float *y,
                                          float *z, long long N) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += stride)
    z[i] = x[i] + y[i];
}
