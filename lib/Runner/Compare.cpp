//===- Compare.cpp - Output comparison, timing statistics -----------------===//

#include "Cake/Runner/Compare.h"

#include "Cake/Runner/Fill.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace cake::abi;
using namespace cake::runner;

namespace {
bool isPoisoned(const unsigned char *element, size_t size) {
  for (size_t i = 0; i < size; ++i)
    if (element[i] != kPoisonByte)
      return false;
  return true;
}

/// Same non-finite value: both NaN, or the same infinity.
bool sameNonFinite(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}
} // namespace

OutputStats cake::runner::compareOutput(const void *candidate, const void *ref,
                                        DType type, size_t count,
                                        bool checkUnwritten) {
  OutputStats stats;
  stats.elements = static_cast<int64_t>(count);
  stats.hasReference = ref != nullptr;
  const size_t size = dtypeSize(type);
  const bool isFloat = isFloatType(type);
  const auto *bytes = static_cast<const unsigned char *>(candidate);
  double sumSqDiff = 0, sumSqRef = 0;
  for (size_t i = 0; i < count; ++i) {
    if (checkUnwritten && isPoisoned(bytes + i * size, size)) {
      ++stats.unwritten;
      continue;
    }
    double c = loadAsDouble(candidate, type, i);
    if (!ref) {
      if (!std::isfinite(c))
        ++stats.nonfinite;
      continue;
    }
    double r = loadAsDouble(ref, type, i);
    if (!isFloat) {
      if (loadAsInt64(candidate, type, i) != loadAsInt64(ref, type, i))
        ++stats.mismatches;
    } else if (!std::isfinite(r)) {
      if (!sameNonFinite(c, r))
        ++stats.mismatches;
      continue;
    } else if (!std::isfinite(c)) {
      ++stats.nonfinite;
      continue;
    }
    double diff = c - r;
    sumSqDiff += diff * diff;
    sumSqRef += r * r;
    stats.maxAbsErr = std::max(stats.maxAbsErr, std::fabs(diff));
  }
  if (!ref)
    stats.relErr = std::numeric_limits<double>::quiet_NaN();
  else
    stats.relErr = sumSqRef > 0 ? std::sqrt(sumSqDiff) / std::sqrt(sumSqRef)
                                : std::sqrt(sumSqDiff);
  return stats;
}

bool cake::runner::outputPasses(const OutputStats &stats, DType type,
                                double rtol) {
  if (stats.unwritten || stats.mismatches)
    return false;
  if (!stats.hasReference) // Non-finite values are then informational.
    return true;
  if (stats.nonfinite)
    return false;
  return !isFloatType(type) || stats.relErr <= rtol; // False for a NaN relErr.
}

std::string cake::runner::describeFailure(const OutputStats &stats, DType type,
                                          double rtol) {
  std::string out;
  auto add = [&](int64_t count, const char *what) {
    if (count)
      out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + what;
  };
  add(stats.unwritten, "unwritten");
  add(stats.mismatches, "mismatches");
  if (stats.hasReference)
    add(stats.nonfinite, "non-finite");
  if (stats.hasReference && isFloatType(type) && !(stats.relErr <= rtol)) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "rel_err %g > rtol %g", stats.relErr, rtol);
    out += (out.empty() ? "" : ", ") + std::string(buf);
  }
  return out;
}

void cake::runner::gatherLogical(const void *buffer, size_t elementSize,
                                 const std::vector<int64_t> &shape,
                                 const std::vector<int64_t> &strides,
                                 std::vector<unsigned char> &dense) {
  size_t rank = shape.size();
  size_t count = 1;
  for (int64_t extent : shape)
    count *= static_cast<size_t>(extent);
  dense.resize(count * elementSize);
  if (count == 0)
    return;
  const auto *src = static_cast<const unsigned char *>(buffer);
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    std::memcpy(dense.data() + i * elementSize, src + offset * elementSize,
                elementSize);
    // Odometer increment of the multi-index, innermost dimension first.
    for (size_t d = rank; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

double cake::runner::median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

int64_t cake::runner::rotationCount(uint64_t footprintBytes, uint64_t l2Bytes,
                                    uint64_t budgetBytes, int64_t maxCopies) {
  if (footprintBytes == 0 || footprintBytes > 2 * l2Bytes)
    return 1;
  uint64_t copies = (2 * l2Bytes) / footprintBytes + 1;
  copies = std::min<uint64_t>(copies, static_cast<uint64_t>(std::max<int64_t>(maxCopies, 1)));
  copies = std::min<uint64_t>(copies, budgetBytes / footprintBytes);
  return std::max<int64_t>(1, static_cast<int64_t>(copies));
}
