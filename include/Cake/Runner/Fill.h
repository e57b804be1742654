//===- Fill.h - Deterministic seeded input generation -----------*- C++ -*-===//

#ifndef CAKE_RUNNER_FILL_H
#define CAKE_RUNNER_FILL_H

#include "Cake/ABI/DType.h"

#include <cstddef>
#include <cstdint>

namespace cake::runner {

// The host ABI's names the runner uses throughout.
using abi::DType;

/// SplitMix64: a tiny, fast, well-mixed 64-bit generator.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

private:
  uint64_t state;
};

/// Fills `count` elements of `type` at `data`, deterministically from
/// (`seed`, `stream`); different streams (e.g. parameter indices) give
/// independent data. Floats are uniform in [-1, 1) (after rounding to the
/// type), integers uniform in [0, 64).
void fillRandom(void *data, DType type, size_t count, uint64_t seed,
                uint64_t stream);

/// The byte every element of an output buffer is poisoned with before a
/// launch (0xFF...: NaN for every float type, -1 for integers).
constexpr unsigned char kPoisonByte = 0xFF;

} // namespace cake::runner

#endif // CAKE_RUNNER_FILL_H
