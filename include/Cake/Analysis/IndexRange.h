//===- IndexRange.h - the values an index takes, per thread -----*- C++ -*-===//
//
// Intervals over the ThreadModel: a thread's known values are points; a loop counter runs over
// [lower, upper - 1] of its bounds' ranges; `x mod C` lies in [0, C - 1]; sums, differences,
// products, divisions by constants, min/max and selects combine their operands' ranges. Problem
// sizes and loaded values are unbounded (no range). The verifier passes use it where a property
// must hold for every value an index can take: bounds of shared-memory accesses, which barriers of
// an array an index can name.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_INDEXRANGE_H
#define CAKE_ANALYSIS_INDEXRANGE_H

#include "Cake/Analysis/ThreadModel.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::cake {

struct Interval {
  int64_t lo, hi;
};

class IndexRanges {
public:
  explicit IndexRanges(ThreadModel &model) : model(model) {}

  /// The values `v` takes in `thread` over every iteration of the loops around it; nullopt when
  /// unbounded, unknown, or when it never takes a value (a loop that runs no iteration).
  std::optional<Interval> range(Value v, int64_t thread);

private:
  std::optional<Interval> compute(Value v, int64_t thread, unsigned depth);

  ThreadModel &model;
  llvm::DenseMap<std::pair<Value, int64_t>, std::optional<Interval>> memo;
};

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_INDEXRANGE_H
