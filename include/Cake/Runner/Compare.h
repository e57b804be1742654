//===- Compare.h - Output comparison, timing statistics ---------*- C++ -*-===//

#ifndef CAKE_RUNNER_COMPARE_H
#define CAKE_RUNNER_COMPARE_H

#include "Cake/ABI/DType.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cake::runner {

// The host ABI's names the runner uses throughout.
using abi::DType;

/// The result of checking one output tensor.
struct OutputStats {
  int64_t elements = 0;
  /// Elements still holding the poison pattern (never written).
  int64_t unwritten = 0;
  /// Candidate NaN/Inf where the reference is finite (without a reference:
  /// every non-finite candidate element, informational only).
  int64_t nonfinite = 0;
  /// Integers: elements different from the reference. Floats: elements where
  /// the reference is NaN/Inf and the candidate is not the same value.
  int64_t mismatches = 0;
  /// ||out - ref||_2 / ||ref||_2 over the elements where both are finite
  /// (||out - ref||_2 when ||ref||_2 is 0); NaN without a reference.
  double relErr = 0;
  double maxAbsErr = 0;
  bool hasReference = false;
};

/// Compares `count` elements of the candidate with the reference (`ref` may be
/// null: then only unwritten/non-finite elements are counted). With
/// `checkUnwritten`, candidate elements whose bytes all equal the poison byte
/// count as unwritten and are excluded from the other statistics.
OutputStats compareOutput(const void *candidate, const void *ref, DType type,
                          size_t count, bool checkUnwritten);

/// The verdict for one output: nothing unwritten, no mismatch and, with a
/// reference, no unexpected NaN/Inf and (floats) relErr <= rtol.
bool outputPasses(const OutputStats &stats, DType type, double rtol);

/// Why `outputPasses` fails, e.g. "3 unwritten, rel_err 0.02 > rtol 1e-05"
/// (empty when it passes).
std::string describeFailure(const OutputStats &stats, DType type, double rtol);

/// Copies the logical elements of a strided tensor (row-major order of
/// `shape`) out of its buffer into `dense`.
void gatherLogical(const void *buffer, size_t elementSize,
                   const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &strides,
                   std::vector<unsigned char> &dense);

/// Median (mean of the two middle values for an even count); 0 when empty.
double median(std::vector<double> values);

/// How many copies of the buffers to rotate over when timing so that the
/// rotated footprint exceeds twice the L2 size: 1 when `footprintBytes`
/// already does (or is 0), otherwise the smallest n with
/// n * footprint > 2 * l2, capped at `maxCopies` and at
/// `budgetBytes / footprintBytes` (never below 1).
int64_t rotationCount(uint64_t footprintBytes, uint64_t l2Bytes,
                      uint64_t budgetBytes, int64_t maxCopies = 64);

} // namespace cake::runner

#endif // CAKE_RUNNER_COMPARE_H
