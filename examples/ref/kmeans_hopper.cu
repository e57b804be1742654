// Reference kernels for examples/kmeans_hopper.mlir: for each point x[b, n] (fp16, D = 128),
// idx[b, n] = argmin_k (csq[b, k] - 2 x[b, n] . c[b, k]) in fp64 (lowest k on exact ties).
// With csq = |c|^2 that is the nearest centroid; the runner fills csq with random values, which
// keeps the function well defined. The TMA descriptor parameters are part of the ABI, unused.
#include <cuda_fp16.h>

constexpr int kD = 128;

__device__ double score(const __half *x, const __half *c, const float *csq, long long b,
                        long long n, long long k, long long N, long long K) {
  const __half *xp = x + (b * N + n) * kD, *cp = c + (b * K + k) * kD;
  double dot = 0.0;
  for (int d = 0; d < kD; ++d)
    dot += (double)__half2float(xp[d]) * (double)__half2float(cp[d]);
  return (double)csq[b * K + k] - 2.0 * dot;
}

/// sum_d |x_d c_d|: the scale of the dot product's rounding error.
__device__ double magnitude(const __half *x, const __half *c, long long b, long long n,
                            long long k, long long N, long long K) {
  const __half *xp = x + (b * N + n) * kD, *cp = c + (b * K + k) * kD;
  double m = 0.0;
  for (int d = 0; d < kD; ++d)
    m += fabs((double)__half2float(xp[d]) * (double)__half2float(cp[d]));
  return m;
}

extern "C" __global__ void kmeans_hopper_ref(const __half *x, const void *tx, const __half *c,
                                             const void *tc, const float *csq, const void *tcsq,
                                             int *idx, long long B, long long N, long long K) {
  long long total = B * N;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total;
       p += (long long)gridDim.x * blockDim.x) {
    long long b = p / N, n = p % N;
    double best = 0.0;
    long long arg = 0;
    for (long long k = 0; k < K; ++k) {
      double s = score(x, c, csq, b, n, k, N, K);
      if (k == 0 || s < best) {
        best = s;
        arg = k;
      }
    }
    idx[p] = (int)arg;
  }
}

/// Counts candidates whose centroid is not a near-argmin: its fp64 score may exceed the true
/// minimum by at most rtol times the terms' magnitude (fp32 rounding of a 128-term dot product).
extern "C" __global__ void kmeans_hopper_ref_check(const __half *x, const void *tx,
                                                   const __half *c, const void *tc,
                                                   const float *csq, const void *tcsq,
                                                   const int *idx, long long B, long long N,
                                                   long long K, double rtol,
                                                   unsigned long long *bad) {
  long long total = B * N;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total;
       p += (long long)gridDim.x * blockDim.x) {
    long long b = p / N, n = p % N;
    long long cand = idx[p];
    if (cand < 0 || cand >= K) {
      atomicAdd(bad, 1ull);
      continue;
    }
    double best = score(x, c, csq, b, n, 0, N, K);
    for (long long k = 1; k < K; ++k)
      best = fmin(best, score(x, c, csq, b, n, k, N, K));
    double s = score(x, c, csq, b, n, cand, N, K);
    double slack = rtol * (2.0 * magnitude(x, c, b, n, cand, N, K) + fabs(csq[b * K + cand]) + 1.0);
    if (s > best + slack)
      atomicAdd(bad, 1ull);
  }
}
