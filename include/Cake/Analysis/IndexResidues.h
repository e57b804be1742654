//===- IndexResidues.h - the low bits of an index, per thread ----*- C++ -*-===//
//
// Known low bits over the ThreadModel (an index modulo 2^k): exact where the model knows a
// thread's value, else derived from the arithmetic, as LLVM's KnownBits does for trailing bits:
// a loop counter starting at a multiple of 2^k with a step that is one is itself one, a product
// inherits its factors' trailing zeros, `x mod 2^p` and `x & mask` keep what they keep. The
// verifier's cp.async check proves 4-, 8- and 16-byte alignment with it where the values
// themselves are unknown (a tile index times 64 is 0 modulo 64 in every thread).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_INDEXRESIDUES_H
#define CAKE_ANALYSIS_INDEXRESIDUES_H

#include "Cake/Analysis/ThreadModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <vector>

namespace mlir::cake {

/// What one thread knows about the low bits of an index: its value modulo 2^bits. Alignment needs
/// no more than 4 bits (16-byte copies); 16 leave room for the scaling by strides.
struct Residue {
  static constexpr unsigned kMaxBits = 16;
  unsigned bits = 0;
  uint64_t value = 0;

  static uint64_t mask(unsigned b) { return b >= 64 ? ~uint64_t(0) : (uint64_t(1) << b) - 1; }
  static Residue make(unsigned bits, uint64_t value) {
    bits = std::min(bits, kMaxBits);
    return {bits, value & mask(bits)};
  }
  static Residue exact(int64_t v) { return make(kMaxBits, static_cast<uint64_t>(v)); }
  /// Known trailing zero bits (all known bits when the known part is zero).
  unsigned zeros() const { return value ? llvm::countr_zero(value) : bits; }
  bool knownModulo(int64_t power) const { return (uint64_t(1) << bits) >= uint64_t(power); }
};

/// The sum (or difference) of two residues.
Residue addResidue(Residue a, Residue b, bool subtract = false);
/// (ra + 2^A x)(rb + 2^B y) = ra rb + ra 2^B y + rb 2^A x + 2^(A+B) x y.
Residue mulResidue(Residue a, Residue b);
/// The low bits both sides agree on (a select, a min or max of two values).
Residue meetResidue(Residue a, Residue b);

/// Per-thread residues of index values (memoized per value).
class ResidueModel {
public:
  explicit ResidueModel(ThreadModel &model) : model(model) {}

  std::vector<Residue> get(Value v, unsigned depth = 0);

private:
  std::vector<Residue> compute(Value v, unsigned depth);

  ThreadModel &model;
  llvm::DenseMap<Value, std::vector<Residue>> memo;
};

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_INDEXRESIDUES_H
