// Shared by the reference kernels of examples/kmeans_hopper*.mlir: for each point x[b, n] (D
// features of type T), idx[b, n] = argmin_k (csq[b, k] - 2 x[b, n] . c[b, k]) in fp64 (lowest k on
// exact ties). With csq = |c|^2 that is the nearest centroid; the runner fills csq with random
// values, which keeps the function well defined. The TMA descriptor parameters are unused. |c|^2
// rows may have a pitch KP >= K (the library's staged kernels: KP = K rounded up to 4 when B > 1).
// D is a run-time argument: CAKE_KMEANS_REFERENCE passes its constant (the compiler specializes the
// loops as before), CAKE_KMEANS_REFERENCE_ANY_D the kernel's own D symbol.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ inline double toDouble(__half v) { return (double)__half2float(v); }
__device__ inline double toDouble(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
__device__ inline double toDouble(float v) { return (double)v; }

template <typename T>
__device__ double score(const T *x, const T *c, const float *csq, long long b, long long n,
                        long long k, long long N, long long K, long long D, long long KP) {
  const T *xp = x + (b * N + n) * D, *cp = c + (b * K + k) * D;
  double dot = 0.0;
  for (long long d = 0; d < D; ++d)
    dot += toDouble(xp[d]) * toDouble(cp[d]);
  return (double)csq[b * KP + k] - 2.0 * dot;
}

/// sum_d |x_d c_d|: the scale of the dot product's rounding error.
template <typename T>
__device__ double magnitude(const T *x, const T *c, long long b, long long n, long long k,
                            long long N, long long K, long long D) {
  const T *xp = x + (b * N + n) * D, *cp = c + (b * K + k) * D;
  double m = 0.0;
  for (long long d = 0; d < D; ++d)
    m += fabs(toDouble(xp[d]) * toDouble(cp[d]));
  return m;
}

template <typename T>
__device__ void assignReference(const T *x, const T *c, const float *csq, int *idx, long long B,
                                long long N, long long K, long long D, long long KP = -1) {
  KP = KP < 0 ? K : KP;
  long long total = B * N;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total;
       p += (long long)gridDim.x * blockDim.x) {
    long long b = p / N, n = p % N;
    double best = 0.0;
    long long arg = 0;
    for (long long k = 0; k < K; ++k) {
      double s = score<T>(x, c, csq, b, n, k, N, K, D, KP);
      if (k == 0 || s < best) {
        best = s;
        arg = k;
      }
    }
    idx[p] = (int)arg;
  }
}

/// Counts candidates whose centroid is not a near-argmin: its fp64 score may exceed the true
/// minimum by at most rtol times the terms' magnitude (the rounding scale of the dot product).
template <typename T>
__device__ void checkAssignment(const T *x, const T *c, const float *csq, const int *idx,
                                long long B, long long N, long long K, long long D, double rtol,
                                unsigned long long *bad, long long KP = -1) {
  KP = KP < 0 ? K : KP;
  long long total = B * N;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total;
       p += (long long)gridDim.x * blockDim.x) {
    long long b = p / N, n = p % N;
    long long cand = idx[p];
    if (cand < 0 || cand >= K) {
      atomicAdd(bad, 1ull);
      continue;
    }
    double best = score<T>(x, c, csq, b, n, 0, N, K, D, KP);
    for (long long k = 1; k < K; ++k)
      best = fmin(best, score<T>(x, c, csq, b, n, k, N, K, D, KP));
    double s = score<T>(x, c, csq, b, n, cand, N, K, D, KP);
    double slack =
        rtol * (2.0 * magnitude<T>(x, c, b, n, cand, N, K, D) + fabs(csq[b * KP + cand]) + 1.0);
    if (s > best + slack)
      atomicAdd(bad, 1ull);
  }
}

/// The two entry points cake-run finds for a kernel `NAME(x, c, csq, idx, B, N, K)` (no TMA
/// descriptors): `NAME_ref` computes the assignment, `NAME_ref_check` checks one.
#define CAKE_KMEANS_REFERENCE(NAME, T, D)                                                          \
  extern "C" __global__ void NAME##_ref(const T *x, const T *c, const float *csq, int *idx,      \
                                        long long B, long long N, long long K) {                \
    assignReference<T>(x, c, csq, idx, B, N, K, D);                                             \
  }                                                                                              \
  extern "C" __global__ void NAME##_ref_check(const T *x, const T *c, const float *csq,         \
                                              const int *idx, long long B, long long N,         \
                                              long long K, double rtol, unsigned long long *bad) { \
    checkAssignment<T>(x, c, csq, idx, B, N, K, D, rtol, bad);                                  \
  }

/// The same for a kernel `NAME(x, c, csq, idx, B, N, K, D)` that takes D as a symbol (the
/// library's kernels: libraries/kmeans/evolve.py's tasks).
#define CAKE_KMEANS_REFERENCE_ANY_D(NAME, T)                                                       \
  extern "C" __global__ void NAME##_ref(const T *x, const T *c, const float *csq, int *idx,      \
                                        long long B, long long N, long long K, long long D) {   \
    assignReference<T>(x, c, csq, idx, B, N, K, D);                                             \
  }                                                                                              \
  extern "C" __global__ void NAME##_ref_check(const T *x, const T *c, const float *csq,         \
                                              const int *idx, long long B, long long N,         \
                                              long long K, long long D, double rtol,            \
                                              unsigned long long *bad) {                        \
    checkAssignment<T>(x, c, csq, idx, B, N, K, D, rtol, bad);                                  \
  }

/// The same for a kernel that reads x and c as the flat arrays they are:
/// `NAME(x [BND], c [BKD], csq, idx, B, N, K, D, BND, BKD)` (BND = B * N * D, BKD = B * K * D).
#define CAKE_KMEANS_REFERENCE_FLAT(NAME, T)                                                        \
  extern "C" __global__ void NAME##_ref(const T *x, const T *c, const float *csq, int *idx,      \
                                        long long B, long long N, long long K, long long D,     \
                                        long long BND, long long BKD) {                         \
    assignReference<T>(x, c, csq, idx, B, N, K, D);                                             \
  }                                                                                              \
  extern "C" __global__ void NAME##_ref_check(const T *x, const T *c, const float *csq,         \
                                              const int *idx, long long B, long long N,         \
                                              long long K, long long D, long long BND,          \
                                              long long BKD, double rtol,                       \
                                              unsigned long long *bad) {                        \
    checkAssignment<T>(x, c, csq, idx, B, N, K, D, rtol, bad);                                  \
  }

/// The same for the library's staged TMA kernels (x and c in rows zero-padded to 16 bytes, |c|^2 in
/// rows of pitch KP): `NAME(x, tx, c, tc, csq [BKP], tcsq, idx, B, N, K, D, KP, BKP)`. The runner
/// fills the padding columns like the rest: the reference then scores over D as the kernel does.
#define CAKE_KMEANS_REFERENCE_STAGED(NAME, T)                                                      \
  extern "C" __global__ void NAME##_ref(const T *x, const void *tx, const T *c, const void *tc,  \
                                        const float *csq, const void *tcsq, int *idx,            \
                                        long long B, long long N, long long K, long long D,     \
                                        long long KP, long long BKP) {                          \
    assignReference<T>(x, c, csq, idx, B, N, K, D, KP);                                         \
  }                                                                                              \
  extern "C" __global__ void NAME##_ref_check(                                                   \
      const T *x, const void *tx, const T *c, const void *tc, const float *csq, const void *tcsq, \
      const int *idx, long long B, long long N, long long K, long long D, long long KP,         \
      long long BKP, double rtol, unsigned long long *bad) {                                     \
    checkAssignment<T>(x, c, csq, idx, B, N, K, D, rtol, bad, KP);                              \
  }
