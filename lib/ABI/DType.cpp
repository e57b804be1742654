//===- DType.cpp - Element types and half/bf16 conversions ----------------===//

#include "Cake/ABI/DType.h"

#include <cstring>

using namespace cake::abi;

namespace {
struct DTypeInfo {
  DType type;
  const char *name;
  size_t size;
  bool isFloat;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::F16, "f16", 2, true},  {DType::BF16, "bf16", 2, true},
    {DType::F32, "f32", 4, true},  {DType::F64, "f64", 8, true},
    {DType::I8, "i8", 1, false},   {DType::I32, "i32", 4, false},
    {DType::I64, "i64", 8, false}, {DType::F8E4M3, "f8e4m3", 1, true},
    {DType::F8E5M2, "f8e5m2", 1, true}};

const DTypeInfo &info(DType type) {
  for (const DTypeInfo &entry : kDTypes)
    if (entry.type == type)
      return entry;
  return kDTypes[0];
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

template <typename T> T load(const void *data, size_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + index * sizeof(T),
              sizeof(T));
  return value;
}
} // namespace

bool cake::abi::parseDType(std::string_view name, DType &out) {
  for (const DTypeInfo &entry : kDTypes)
    if (name == entry.name) {
      out = entry.type;
      return true;
    }
  return false;
}

const char *cake::abi::dtypeName(DType type) { return info(type).name; }
size_t cake::abi::dtypeSize(DType type) { return info(type).size; }
bool cake::abi::isFloatType(DType type) { return info(type).isFloat; }

uint16_t cake::abi::floatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7FFFFFFFu;
  if (absx >= 0x7F800000u) // Inf or NaN (NaN keeps payload top bits, quiet).
    return sign | 0x7C00 |
           (absx > 0x7F800000u ? (0x200 | ((absx >> 13) & 0x3FF)) : 0);
  if (absx >= 0x477FF000u) // >= 65520 rounds to infinity.
    return sign | 0x7C00;
  if (absx < 0x38800000u) { // Below 2^-14: half subnormal or zero.
    if (absx <= 0x33000000u) // <= 2^-25 rounds (to even) to zero.
      return sign;
    uint32_t exp = absx >> 23;
    uint32_t mant = (absx & 0x7FFFFF) | 0x800000;
    // value = mant * 2^(exp-150); in units of 2^-24: mant >> (126 - exp).
    uint32_t shift = 126 - exp;
    uint32_t q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
      ++q;
    return sign | static_cast<uint16_t>(q);
  }
  // Normal: rebias the exponent (127 -> 15) and round the low 13 bits.
  uint32_t h = (absx - 0x38000000u) >> 13;
  uint32_t rem = absx & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h; // A carry into the exponent is the correct result.
  return sign | static_cast<uint16_t>(h);
}

float cake::abi::halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1F;
  uint32_t mant = bits & 0x3FF;
  if (exp == 0x1F)
    return bitsToFloat(sign | 0x7F800000u | (mant << 13));
  if (exp == 0) {
    float v = static_cast<float>(mant) * (1.0f / 16777216.0f); // mant * 2^-24
    return sign ? -v : v;
  }
  return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t cake::abi::floatToBF16(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) // NaN: truncate and force quiet.
    return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7FFF + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float cake::abi::bf16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

float cake::abi::e4m3ToFloat(uint8_t bits) {
  uint32_t sign = bits & 0x80, exp = (bits >> 3) & 0xF, mant = bits & 0x7;
  float magnitude;
  if (exp == 0xF && mant == 0x7)
    return bitsToFloat(0x7FC00000u | (sign << 24)); // NaN (e4m3fn has no infinities)
  if (exp == 0)
    magnitude = static_cast<float>(mant) * (1.0f / 512.0f); // mant * 2^-9
  else
    magnitude = bitsToFloat(((exp + 120) << 23) | (mant << 20));
  return sign ? -magnitude : magnitude;
}

float cake::abi::e5m2ToFloat(uint8_t bits) {
  return halfToFloat(static_cast<uint16_t>(bits) << 8);
}

double cake::abi::loadAsDouble(const void *data, DType type, size_t index) {
  switch (type) {
  case DType::F8E4M3:
    return e4m3ToFloat(load<uint8_t>(data, index));
  case DType::F8E5M2:
    return e5m2ToFloat(load<uint8_t>(data, index));
  case DType::F16:
    return halfToFloat(load<uint16_t>(data, index));
  case DType::BF16:
    return bf16ToFloat(load<uint16_t>(data, index));
  case DType::F32:
    return load<float>(data, index);
  case DType::F64:
    return load<double>(data, index);
  default:
    return static_cast<double>(loadAsInt64(data, type, index));
  }
}

int64_t cake::abi::loadAsInt64(const void *data, DType type, size_t index) {
  switch (type) {
  case DType::I8:
    return load<int8_t>(data, index);
  case DType::I32:
    return load<int32_t>(data, index);
  case DType::I64:
    return load<int64_t>(data, index);
  default:
    return 0;
  }
}
