// Micro-benchmark: does programmatic dependent launch shorten back-to-back tiny kernels in a graph?
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

template <int MODE>  // 0: plain; 1: wait+trigger at start; 2: wait at start, trigger at end
__global__ void tiny(const float* __restrict__ x, const float* __restrict__ c, float* y, int n, int k) {
  if (MODE) asm volatile("griddepcontrol.wait;" ::: "memory");
  if (MODE == 1) asm volatile("griddepcontrol.launch_dependents;");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float best = 1e30f;
  if (i < n) {
    float xv = x[i];
    for (int j = 0; j < k; ++j) { float d = xv - c[j]; best = fminf(best, d * d); }
    y[i] = best;
  }
  if (MODE == 2) asm volatile("griddepcontrol.launch_dependents;");
}

template <int MODE>
float run(bool pdl, bool graph, int blocks, int k, float* x, float* c, float* y, int n) {
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaLaunchConfig_t cfg = {}; cfg.gridDim = blocks; cfg.blockDim = 128; cfg.stream = s;
  cudaLaunchAttribute attr[1]; attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr; cfg.numAttrs = pdl ? 1 : 0;
  const int calls = 200;
  auto launch_all = [&] { for (int i = 0; i < calls; ++i) cudaLaunchKernelEx(&cfg, tiny<MODE>, (const float*)x, (const float*)c, y, n, k); };
  cudaGraphExec_t exec = nullptr;
  if (graph) {
    cudaGraph_t g; cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); launch_all();
    cudaStreamEndCapture(s, &g); cudaGraphInstantiate(&exec, g, 0);
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) {
    cudaEventRecord(a, s);
    if (graph) cudaGraphLaunch(exec, s); else launch_all();
    cudaEventRecord(b, s); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000.f / calls);
  }
  std::sort(t.begin(), t.end());
  cudaError_t e = cudaGetLastError(); if (e) printf("error %s\n", cudaGetErrorString(e));
  return t[t.size() / 2];
}

int main() {
  int n = 1 << 20; float *x, *c, *y;
  cudaMalloc(&x, n * 4); cudaMalloc(&c, 4096 * 4); cudaMalloc(&y, n * 4);
  cudaMemset(x, 0, n * 4); cudaMemset(c, 0, 4096 * 4);
  for (int blocks : {1, 16, 132, 1024})
    for (int k : {4, 64, 512})
      for (int graph : {0, 1}) {
        int nn = blocks * 128;
        float p = run<0>(false, graph, blocks, k, x, c, y, nn);
        float q0 = run<0>(true, graph, blocks, k, x, c, y, nn);  // attribute, no griddepcontrol (implicit trigger)
        float q1 = run<1>(true, graph, blocks, k, x, c, y, nn);
        float q2 = run<2>(true, graph, blocks, k, x, c, y, nn);
        printf("blocks %4d k %4d %s: plain %.3f us  pdl-noctl %.3f  pdl-trigger-start %.3f  pdl-trigger-end %.3f\n",
               blocks, k, graph ? "graph" : "eager", p, q0, q1, q2);
      }
  return 0;
}
