// C[M,N] = A[M,K] * B[N,K]^T with bf16 inputs and fp32 accumulation (bf16 products are exact in
// fp32), the reference of the bf16 GEMM examples (hopper_gemm*.cu, ampere_gemm.cu). Tiled through
// shared memory so the large checks take well under a second: a block of 256 threads owns 16x16
// output tiles in a grid-stride loop, one element each.
#pragma once
#include <cuda_bf16.h>

constexpr int kTile = 16;

__device__ inline void storeC(float *c, long long i, float v) { c[i] = v; }
__device__ inline void storeC(__nv_bfloat16 *c, long long i, float v) { c[i] = __float2bfloat16(v); }

template <typename C>
__device__ void gemmReference(const __nv_bfloat16 *a, const __nv_bfloat16 *b, C *c, long long M,
                              long long N, long long K) {
  __shared__ float as[kTile][kTile + 1];
  __shared__ float bs[kTile][kTile + 1];
  int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  long long tilesN = (N + kTile - 1) / kTile;
  long long tiles = ((M + kTile - 1) / kTile) * tilesN;
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    long long i = (t / tilesN) * kTile + ty, j = (t % tilesN) * kTile + tx;
    long long bi = (t % tilesN) * kTile + ty; // row of B this thread stages
    float acc = 0.0f;
    for (long long k0 = 0; k0 < K; k0 += kTile) {
      long long k = k0 + tx;
      as[ty][tx] = (i < M && k < K) ? __bfloat162float(a[i * K + k]) : 0.0f;
      bs[ty][tx] = (bi < N && k < K) ? __bfloat162float(b[bi * K + k]) : 0.0f;
      __syncthreads();
      for (int kk = 0; kk < kTile; ++kk)
        acc = fmaf(as[ty][kk], bs[tx][kk], acc);
      __syncthreads();
    }
    if (i < M && j < N)
      storeC(c, i * N + j, acc);
  }
}

