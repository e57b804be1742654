//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// cake-run loads libcuda.so.1 with dlopen instead of linking it, so that the
// binary starts on a machine without a driver and reports "no_device" there
// (a link-time dependency would make the loader fail before main).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TOOLS_CAKE_RUN_CUDADRIVER_H
#define CAKE_TOOLS_CAKE_RUN_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace cake::run {

/// Function pointers to the driver entry points of CudaFunctions.def; call
/// them as `driver.cuInit(0)`.
struct CudaDriver {
#define CAKE_CUDA_FN(name) decltype(&::name) name = nullptr;
#include "CudaFunctions.def"

  /// Loads libcuda.so.1 and resolves every function. Fails (with dlerror's
  /// text) when the library or a required function is missing.
  bool load(std::string &error);

  /// cuLaunchKernelEx with `attributes` (a cluster shape, programmatic stream serialization):
  /// the launch configuration, filled in one place. Needs the optional cuLaunchKernelEx.
  CUresult launchEx(CUfunction f, const unsigned grid[3], const unsigned block[3],
                    unsigned sharedBytes, CUstream stream, void **args,
                    CUlaunchAttribute *attributes, unsigned numAttributes) const;

  /// "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  std::string describe(CUresult result, const char *what) const;
};

} // namespace cake::run

#endif // CAKE_TOOLS_CAKE_RUN_CUDADRIVER_H
