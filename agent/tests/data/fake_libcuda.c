/* A stand-in for libcuda.so.1 that runs nothing: every entry point CAKE's hosts resolve succeeds,
 * and the ones that matter for launching (allocation, 2-D copies, tensor-map encoding, module
 * loading, launches) append one JSON line each to $FAKE_CUDA_LOG. Lets the tests check a host's
 * launch path (staging, tensor maps, grid, parameter packing) on a machine without a GPU.
 * $FAKE_CUDA_PARAMS_<kernel name> (else $FAKE_CUDA_PARAMS): how many 8-byte kernel parameters a
 * launch of that kernel logs. */
#include <cuda.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static FILE *logFile(void) {
  static FILE *f;
  if (!f) {
    const char *path = getenv("FAKE_CUDA_LOG");
    f = fopen(path ? path : "/dev/null", "a");
    setvbuf(f, NULL, _IOLBF, 0);
  }
  return f;
}

static CUdeviceptr next = 0x7f0000000000ull;

CUresult cuGetErrorName(CUresult e, const char **s) { (void)e; *s = "FAKE_ERROR"; return CUDA_SUCCESS; }
CUresult cuGetErrorString(CUresult e, const char **s) { (void)e; *s = "fake"; return CUDA_SUCCESS; }
CUresult cuInit(unsigned int f) { (void)f; return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *v) { *v = 12080; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int *c) { *c = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *d, int o) { *d = o; return CUDA_SUCCESS; }
CUresult cuDeviceGetName(char *n, int len, CUdevice d) { (void)d; snprintf(n, len, "fake"); return CUDA_SUCCESS; }
CUresult cuDeviceGetAttribute(int *p, CUdevice_attribute a, CUdevice d) { (void)a; (void)d; *p = 0; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)0x1000; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)0x1000; return CUDA_SUCCESS; }
CUresult cuCtxSynchronize(void) { return CUDA_SUCCESS; }
CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  (void)image;
  *m = (CUmodule)0x2000;
  fprintf(logFile(), "{\"call\": \"cuModuleLoadData\"}\n");
  return CUDA_SUCCESS;
}
/* Function handles are indices into this table of names (a launch logs its kernel's name). */
static char names[64][128];
static int numNames;

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  (void)m;
  if (numNames == 64)
    return CUDA_ERROR_OUT_OF_MEMORY;
  snprintf(names[numNames], sizeof(names[0]), "%s", name);
  *f = (CUfunction)(uintptr_t)(0x3000 + numNames++);
  fprintf(logFile(), "{\"call\": \"cuModuleGetFunction\", \"name\": \"%s\"}\n", name);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetGlobal(CUdeviceptr *p, size_t *b, CUmodule m, const char *n) {
  (void)p; (void)b; (void)m; (void)n; return CUDA_ERROR_NOT_FOUND;
}
CUresult cuMemHostRegister(void *p, size_t b, unsigned int f) { (void)p; (void)b; (void)f; return CUDA_SUCCESS; }
CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned int f) { (void)f; *d = (CUdeviceptr)p; return CUDA_SUCCESS; }
CUresult cuFuncGetAttribute(int *p, CUfunction_attribute a, CUfunction f) { (void)a; (void)f; *p = 0; return CUDA_SUCCESS; }
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  (void)f;
  fprintf(logFile(), "{\"call\": \"cuFuncSetAttribute\", \"attribute\": %d, \"value\": %d}\n", (int)a, v);
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo(size_t *f, size_t *t) { *f = *t = (size_t)1 << 34; return CUDA_SUCCESS; }
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  *p = next;
  next += (bytes + 255) / 256 * 256 + 256;
  fprintf(logFile(), "{\"call\": \"cuMemAlloc\", \"ptr\": %llu, \"bytes\": %zu}\n",
          (unsigned long long)*p, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) { (void)p; return CUDA_SUCCESS; }
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  (void)s;
  fprintf(logFile(), "{\"call\": \"cuMemcpyHtoD\", \"dst\": %llu, \"bytes\": %zu}\n", (unsigned long long)d, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) { (void)d; (void)s; (void)n; return CUDA_SUCCESS; }
CUresult cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t n) { (void)d; (void)s; (void)n; return CUDA_SUCCESS; }
CUresult cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  fprintf(logFile(), "{\"call\": \"cuMemsetD8\", \"dst\": %llu, \"value\": %d, \"bytes\": %zu}\n",
          (unsigned long long)d, v, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *c, CUstream s) {
  (void)s;
  fprintf(logFile(),
          "{\"call\": \"cuMemcpy2DAsync\", \"src\": %llu, \"src_pitch\": %zu, \"dst\": %llu, "
          "\"dst_pitch\": %zu, \"width\": %zu, \"height\": %zu}\n",
          (unsigned long long)c->srcDevice, c->srcPitch, (unsigned long long)c->dstDevice,
          c->dstPitch, c->WidthInBytes, c->Height);
  return CUDA_SUCCESS;
}
CUresult cuTensorMapEncodeTiled(CUtensorMap *m, CUtensorMapDataType t, cuuint32_t rank, void *addr,
                                const cuuint64_t *dims, const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *es,
                                CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)m; (void)es; (void)il; (void)l2; (void)oob;
  FILE *f = logFile();
  fprintf(f, "{\"call\": \"cuTensorMapEncodeTiled\", \"dtype\": %d, \"rank\": %u, \"addr\": %llu, \"dims\": [",
          (int)t, rank, (unsigned long long)(uintptr_t)addr);
  for (cuuint32_t i = 0; i < rank; ++i)
    fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)dims[i]);
  fprintf(f, "], \"strides\": [");
  for (cuuint32_t i = 0; i + 1 < rank; ++i)
    fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)strides[i]);
  fprintf(f, "], \"box\": [");
  for (cuuint32_t i = 0; i < rank; ++i)
    fprintf(f, "%s%u", i ? ", " : "", box[i]);
  fprintf(f, "], \"swizzle\": %d}\n", (int)sw);
  return CUDA_SUCCESS;
}
static CUresult logLaunch(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz,
                          unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                          void **params, int programmatic) {
  static int quiet = -1; /* no $FAKE_CUDA_LOG: launches cost nothing (host-time benchmarks) */
  if (quiet < 0)
    quiet = getenv("FAKE_CUDA_LOG") == NULL;
  if (quiet)
    return CUDA_SUCCESS;
  FILE *f = logFile();
  const char *name = names[(uintptr_t)fn - 0x3000];
  char var[160];
  snprintf(var, sizeof(var), "FAKE_CUDA_PARAMS_%s", name);
  const char *count = getenv(var) ? getenv(var) : getenv("FAKE_CUDA_PARAMS");
  int n = count ? atoi(count) : 0;
  fprintf(f,
          "{\"call\": \"cuLaunchKernel\", \"name\": \"%s\", \"grid\": [%u, %u, %u], "
          "\"block\": [%u, %u, %u], \"smem\": %u, \"programmatic\": %d, \"params\": [",
          name, gx, gy, gz, bx, by, bz, smem, programmatic);
  for (int i = 0; i < n; ++i)
    fprintf(f, "%s%llu", i ? ", " : "", *(unsigned long long *)params[i]);
  fprintf(f, "]}\n");
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                        CUstream s, void **params, void **extra) {
  (void)s;
  (void)extra;
  return logLaunch(fn, gx, gy, gz, bx, by, bz, smem, params, 0);
}
/* Logged as a cuLaunchKernel with "programmatic": 1 when the launch asks for programmatic stream
   serialization (the only attribute the dispatcher sets). */
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction fn, void **params, void **extra) {
  (void)extra;
  int programmatic = 0;
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      programmatic = c->attrs[i].value.programmaticStreamSerializationAllowed;
  return logLaunch(fn, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
                   c->blockDimZ, c->sharedMemBytes, params, programmatic);
}
/* $FAKE_CUDA_CAPTURING=1: every stream reports an active graph capture. */
CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status) {
  (void)s;
  const char *c = getenv("FAKE_CUDA_CAPTURING");
  *status = c && *c == '1' ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned int f) { (void)f; *e = (CUevent)0x4000; return CUDA_SUCCESS; }
CUresult cuEventDestroy(CUevent e) { (void)e; return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e; (void)s; return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { (void)a; (void)b; *ms = 1.0f; return CUDA_SUCCESS; }
/* Graph capture (cake-run --timer graph): the capture and each replay are logged; launches made
   while capturing are logged as usual (the fake runs nothing either way). */
CUresult cuStreamCreate(CUstream *s, unsigned int f) { (void)f; *s = (CUstream)0x5000; return CUDA_SUCCESS; }
CUresult cuStreamDestroy(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult cuStreamBeginCapture(CUstream s, CUstreamCaptureMode m) {
  (void)s; (void)m;
  fprintf(logFile(), "{\"call\": \"cuStreamBeginCapture\"}\n");
  return CUDA_SUCCESS;
}
CUresult cuStreamEndCapture(CUstream s, CUgraph *g) {
  (void)s;
  *g = (CUgraph)0x6000;
  fprintf(logFile(), "{\"call\": \"cuStreamEndCapture\"}\n");
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiate(CUgraphExec *e, CUgraph g, unsigned long long f) {
  (void)g; (void)f; *e = (CUgraphExec)0x7000; return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec e, CUstream s) {
  (void)e; (void)s;
  fprintf(logFile(), "{\"call\": \"cuGraphLaunch\"}\n");
  return CUDA_SUCCESS;
}
CUresult cuGraphExecDestroy(CUgraphExec e) { (void)e; return CUDA_SUCCESS; }
CUresult cuGraphDestroy(CUgraph g) { (void)g; return CUDA_SUCCESS; }
