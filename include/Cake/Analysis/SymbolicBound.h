//===- SymbolicBound.h - linear bounds of indices at a program point -*- C++ -*-===//
//
// Upper and lower bounds of an index as linear forms over other values and problem sizes, at
// the op that uses it: what its definition gives (sums, differences, products by constants,
// min/max, clamps, loop bounds), what the conditions of the scf.if regions around the op give
// (`a < b` in the then-region bounds a by b - 1), and the constant ranges the thread model knows.
// Every value is also its own bound, so bounds of a difference cancel: inside `if (i < eos - t0)`
// the index t0 + i is below eos. Where IndexRanges judges indices in numbers at one launch, this
// judges the data-dependent ones (offsets loaded from memory) for every launch.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_SYMBOLICBOUND_H
#define CAKE_ANALYSIS_SYMBOLICBOUND_H

#include "Cake/Analysis/IndexRange.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::cake {

/// sum of coefficient * atom + constant. An atom is a problem size (by name: every
/// `cake.problem_size "T"` is the same atom) or any other SSA value.
struct LinearForm {
  /// (atom, coefficient), sorted by atom, no zero coefficients.
  llvm::SmallVector<std::pair<const void *, int64_t>, 4> terms;
  int64_t constant = 0;

  static LinearForm constantForm(int64_t c) { return {{}, c}; }
  bool isConstant() const { return terms.empty(); }
  LinearForm operator+(const LinearForm &other) const;
  LinearForm scaled(int64_t factor) const;
  bool operator==(const LinearForm &other) const {
    return terms == other.terms && constant == other.constant;
  }
};

class SymbolicBounds {
public:
  explicit SymbolicBounds(ThreadModel &model) : model(model), ranges(model) {}

  /// Bounds of `v` where `at` runs (at most a few, tightest first).
  llvm::SmallVector<LinearForm> upper(Value v, Operation *at);
  llvm::SmallVector<LinearForm> lower(Value v, Operation *at);

  /// The atom of problem size `name`.
  static const void *sizeAtom(MLIRContext *context, llvm::StringRef name);

  /// Whether `v` is computed from a value loaded from memory (data-dependent).
  bool dependsOnLoad(Value v);

private:
  struct Fact { // lhs <= rhs + offset
    Value lhs, rhs;
    int64_t offset;
  };
  void setContext(Operation *at);
  llvm::SmallVector<LinearForm> bounds(Value v, bool upperBound, unsigned depth);
  std::optional<Interval> constantRange(Value v);

  ThreadModel &model;
  IndexRanges ranges;
  Region *context = nullptr;
  llvm::SmallVector<Fact> facts;
  llvm::DenseMap<std::pair<Value, unsigned>, llvm::SmallVector<LinearForm>> memo;
  llvm::DenseSet<std::pair<Value, unsigned>> active;
  llvm::DenseMap<Value, std::optional<Interval>> constants;
  llvm::DenseMap<Value, bool> loaded;
};

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_SYMBOLICBOUND_H
