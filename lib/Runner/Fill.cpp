//===- Fill.cpp - Deterministic seeded input generation -------------------===//

#include "Cake/Runner/Fill.h"

#include <cstring>

using namespace cake::abi;
using namespace cake::runner;

namespace {
template <typename T> void store(void *data, size_t index, T value) {
  std::memcpy(static_cast<char *>(data) + index * sizeof(T), &value, sizeof(T));
}

/// Uniform float in [-1, 1) with 24 random bits (exact in binary32).
float uniformFloat(uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

/// Rounds to a 16-bit format; a value that rounded up to 1.0 is pulled back
/// below 1 so the range stays [-1, 1).
uint16_t toHalfBelowOne(float v, bool bf16) {
  uint16_t h = bf16 ? floatToBF16(v) : floatToHalf(v);
  const uint16_t one = bf16 ? 0x3F80 : 0x3C00;
  return h == one ? one - 1 : h;
}
} // namespace

void cake::runner::fillRandom(void *data, DType type, size_t count,
                              uint64_t seed, uint64_t stream) {
  // Decorrelate (seed, stream) pairs before starting the sequence.
  SplitMix64 mixer(seed ^ (stream * 0xD1B54A32D192ED03ull));
  SplitMix64 rng(mixer.next());
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits = rng.next();
    switch (type) {
    case DType::F16:
      store(data, i, toHalfBelowOne(uniformFloat(bits), /*bf16=*/false));
      break;
    case DType::BF16:
      store(data, i, toHalfBelowOne(uniformFloat(bits), /*bf16=*/true));
      break;
    case DType::F32:
      store(data, i, uniformFloat(bits));
      break;
    case DType::F64:
      store(data, i,
            static_cast<double>(bits >> 11) * (1.0 / 4503599627370496.0) - 1.0);
      break;
    case DType::I8:
      store(data, i, static_cast<int8_t>(bits >> 58));
      break;
    // fp8: a random sign, exponent field and mantissa with the exponent field below the bias, so
    // every value lies in (-1, 1) like the other float types (not uniform: denser near 0).
    case DType::F8E4M3:
      store(data, i, static_cast<uint8_t>((bits >> 56 & 0x80) | ((bits >> 40) % 7) << 3 |
                                          (bits >> 32 & 0x7)));
      break;
    case DType::F8E5M2:
      store(data, i, static_cast<uint8_t>((bits >> 56 & 0x80) | ((bits >> 40) % 15) << 2 |
                                          (bits >> 32 & 0x3)));
      break;
    case DType::I32:
      store(data, i, static_cast<int32_t>(bits >> 58));
      break;
    case DType::I64:
      store(data, i, static_cast<int64_t>(bits >> 58));
      break;
    }
  }
}
