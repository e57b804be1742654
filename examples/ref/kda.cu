// Reference kernel for the harness task agent/tasks/kda.json: the KDA forward (FlashKDA's
// interface as libraries/kda/kda_common.py declares it, K = V = 128) as the plain token recurrence
// in fp32, written from the definition, not from the CAKE kernels. Per sequence n and head h:
//   a = exp(lower_bound * sigmoid(exp(A_log[h]) * (g_t + dt_bias[h])))   per channel k
//   q^ = q_t / sqrt(|q_t|^2 + 1e-6), k^ likewise, b = sigmoid(beta_t)
//   S = diag(a) S;  S += b k^ (v_t - k^T S)^T;  out_t = scale * q^T S       (S: [K, V])
// initial_state / final_state are [N, H, V, K]. Sequence n is tokens cu_seqlens[n] ..
// cu_seqlens[n + 1], clamped to 0 <= bos <= eos <= T as the kernels do. One block per (sequence,
// head) in a grid-stride loop; thread v < 128 owns state column v (128 floats in registers).
#include <cuda_bf16.h>

#define KV 128

extern "C" __global__ void kda_ref(const __nv_bfloat16 *q, const __nv_bfloat16 *k,
                                   const __nv_bfloat16 *v, const __nv_bfloat16 *g,
                                   const __nv_bfloat16 *beta, const float *A_log,
                                   const float *dt_bias, const long long *cu_seqlens,
                                   const float *initial_state, float *final_state,
                                   __nv_bfloat16 *out, float scale, float lower_bound,
                                   int use_initial_state, int store_final_state, long long T,
                                   long long H, long long N, long long S) {
  __shared__ float qs[KV], ks[KV], as[KV];
  const int col = threadIdx.x;
  const bool owner = col < KV;
  for (long long pair = blockIdx.x; pair < N * H; pair += gridDim.x) {
    const long long n = pair / H, h = pair % H;
    long long bos = cu_seqlens[n], eos = cu_seqlens[n + 1];
    bos = bos < 0 ? 0 : (bos > T ? T : bos);
    eos = eos < bos ? bos : (eos > T ? T : eos);
    const float aexp = expf(A_log[h]);
    const long long state = ((n * H + h) * KV + (owner ? col : 0)) * KV;
    float st[KV];
#pragma unroll
    for (int i = 0; i < KV; ++i)
      st[i] = owner && use_initial_state ? initial_state[state + i] : 0.0f;
    for (long long t = bos; t < eos; ++t) {
      const long long row = (t * H + h) * KV;
      __syncthreads();  // the previous token's readers are done
      if (owner) {
        qs[col] = __bfloat162float(q[row + col]);
        ks[col] = __bfloat162float(k[row + col]);
        const float x = aexp * (__bfloat162float(g[row + col]) + dt_bias[h * KV + col]);
        as[col] = expf(lower_bound / (1.0f + expf(-x)));
      }
      __syncthreads();
      if (!owner)
        continue;
      float qq = 0.0f, kk = 0.0f;
      for (int i = 0; i < KV; ++i) {
        qq += qs[i] * qs[i];
        kk += ks[i] * ks[i];
      }
      const float qn = 1.0f / sqrtf(qq + 1e-6f), kn = 1.0f / sqrtf(kk + 1e-6f);
      const float b = 1.0f / (1.0f + expf(-__bfloat162float(beta[t * H + h])));
      float u = 0.0f;
#pragma unroll
      for (int i = 0; i < KV; ++i) {
        st[i] *= as[i];
        u += ks[i] * kn * st[i];
      }
      const float w = b * (__bfloat162float(v[row + col]) - u);
      float o = 0.0f;
#pragma unroll
      for (int i = 0; i < KV; ++i) {
        st[i] += ks[i] * kn * w;
        o += qs[i] * qn * st[i];
      }
      out[row + col] = __float2bfloat16(scale * o);
    }
    if (owner && store_final_state)
#pragma unroll
      for (int i = 0; i < KV; ++i)
        final_state[state + i] = st[i];
    __syncthreads();  // the next pair's first token overwrites qs, ks, as
  }
}
