//===- HardwareProfile.h - per-target hardware profiles ---------*- C++ -*-===//
//
// A hardware profile is a versioned JSON data file (profiles/*.json, units in docs/CostModel.md):
// the structural limits of one GPU (SMs, registers, shared memory: what occupancy needs) and the
// effective parameters of the cost model (rates, bandwidths, latencies, overheads), which the
// calibration tool refits from measurements.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_HARDWAREPROFILE_H
#define CAKE_ANALYSIS_HARDWAREPROFILE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::cake {

struct HardwareProfile {
  std::string name;
  int64_t version = 0;
  std::string path;
  std::vector<std::string> targets;

  // Structure (integers, not fitted).
  int64_t smCount = 0;
  int64_t maxThreadsPerSm = 0;
  int64_t maxBlocksPerSm = 0;
  int64_t registersPerSm = 0;
  int64_t registerAllocUnit = 0;
  int64_t maxRegistersPerThread = 0;
  int64_t sharedBytesPerSm = 0;
  int64_t sharedBytesPerBlock = 0;
  int64_t sharedReservedPerBlock = 0;
  int64_t l2Bytes = 0;

  /// The effective parameters by name (`params` in the file; `tensor_TFLOPS.<dtype>` flattened).
  llvm::StringMap<double> params;

  /// The parameters every profile must have.
  static llvm::ArrayRef<llvm::StringRef> requiredParams();

  /// Reads and checks a profile file; the error names the file and the missing or bad field.
  static llvm::Expected<HardwareProfile> load(llvm::StringRef path);

  /// The profile for `target` among the *.json files of `dir` (for sm_90/sm_90a the one marked
  /// `"default_for"` the target when several cover it).
  static llvm::Expected<HardwareProfile> findForTarget(llvm::StringRef dir, llvm::StringRef target);

  /// Where profiles are looked up by default: $CAKE_PROFILE_DIR, else share/cake/profiles of the
  /// prefix that holds this code (the C API library or plugin a program loaded, or the tool), else
  /// of the running executable's prefix (build and install trees), else the source tree's
  /// profiles/.
  static std::string defaultDirectory();

  bool coversTarget(llvm::StringRef target) const;
};

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_HARDWAREPROFILE_H
