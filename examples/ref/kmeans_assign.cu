// Reference kernels for examples/kmeans_assign.mlir.
//
// kmeans_assign_ref: for each point i of x[N,D], idx[i] = argmin_k
// ||x_i - c_k||^2 over the centroids c[K,D] (lowest k on exact ties) and
// dist[i] = that squared distance (fp64, stored as float).
//
// kmeans_assign_ref_check: counts into *bad the points whose candidate idx is
// out of range or whose fp64 distance to centroid idx exceeds the true
// minimum by more than rtol * max(min, 1e-30) plus a tiny absolute slack, so
// that a different choice among near-ties is accepted.

__device__ static double squaredDistance(const float *x, const float *c,
                                         long long i, long long k,
                                         long long D) {
  double acc = 0.0;
  for (long long d = 0; d < D; ++d) {
    double diff = (double)x[i * D + d] - (double)c[k * D + d];
    acc += diff * diff;
  }
  return acc;
}

/// The lowest-index nearest centroid of point i; its distance in *best.
__device__ static long long nearest(const float *x, const float *c,
                                    long long i, long long K, long long D,
                                    double *best) {
  long long bestK = 0;
  *best = __builtin_huge_val();
  for (long long k = 0; k < K; ++k) {
    double dist = squaredDistance(x, c, i, k, D);
    if (dist < *best) {
      *best = dist;
      bestK = k;
    }
  }
  return bestK;
}

extern "C" __global__ void kmeans_assign_ref(const float *x, const float *c,
                                             int *idx, float *dist,
                                             long long N, long long K,
                                             long long D) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    double best;
    idx[i] = (int)nearest(x, c, i, K, D, &best);
    dist[i] = (float)best;
  }
}

extern "C" __global__ void
kmeans_assign_ref_check(const float *x, const float *c, const int *idx,
                        const float *dist, long long N, long long K,
                        long long D, double rtol, unsigned long long *bad) {
  (void)dist; // Compared by cake-run's relative L2 check.
  unsigned long long local = 0;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < N;
       i += stride) {
    long long k = idx[i];
    if (k < 0 || k >= K) {
      ++local;
      continue;
    }
    double best;
    nearest(x, c, i, K, D, &best);
    double chosen = squaredDistance(x, c, i, k, D);
    if (chosen > best + rtol * fmax(best, 1e-30) + 1e-12)
      ++local;
  }
  if (local)
    atomicAdd(bad, local);
}
