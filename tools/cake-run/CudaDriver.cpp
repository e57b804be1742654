//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <cstring>
#include <dlfcn.h>

using namespace cake::run;

#define CAKE_STRINGIFY_IMPL(x) #x
/// Stringizes after macro expansion: cuMemAlloc -> "cuMemAlloc_v2".
#define CAKE_STRINGIFY(x) CAKE_STRINGIFY_IMPL(x)

bool CudaDriver::load(std::string &error) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    error = std::string("cannot load the CUDA driver libcuda.so.1: ") +
            (reason ? reason : "unknown error");
    return false;
  }
  bool ok = true;
  auto resolve = [&](const char *symbol, void *&slot, bool required) {
    slot = dlsym(library, symbol);
    if (!slot && required && ok) {
      error = std::string("the CUDA driver lacks ") + symbol +
              " (driver too old?)";
      ok = false;
    }
  };
#define CAKE_CUDA_FN(name)                                                     \
  resolve(CAKE_STRINGIFY(name), reinterpret_cast<void *&>(name), true);
#define CAKE_CUDA_OPTIONAL_FN(name)                                            \
  resolve(CAKE_STRINGIFY(name), reinterpret_cast<void *&>(name), false);
#include "CudaFunctions.def"
  return ok;
}

CUresult CudaDriver::launchEx(CUfunction f, const unsigned grid[3], const unsigned block[3],
                              unsigned sharedBytes, CUstream stream, void **args,
                              CUlaunchAttribute *attributes, unsigned numAttributes) const {
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = sharedBytes;
  config.hStream = stream;
  config.attrs = attributes;
  config.numAttrs = numAttributes;
  return cuLaunchKernelEx(&config, f, args, nullptr);
}

std::string CudaDriver::describe(CUresult result, const char *what) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string out = std::string(what) + ": ";
  out += name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}
