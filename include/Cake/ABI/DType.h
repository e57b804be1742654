//===- DType.h - Element types and half/bf16 conversions --------*- C++ -*-===//

#ifndef CAKE_ABI_DTYPE_H
#define CAKE_ABI_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cake::abi {

/// The manifest's element types (docs/Manifest.md).
/// F8E4M3 and F8E5M2 are OCP fp8 (e4m3fn: no infinities; e5m2: binary16's top byte).
enum class DType { F16, BF16, F32, F64, I8, I32, I64, F8E4M3, F8E5M2 };

/// Parses "f16", "bf16", "f32", "f64", "i8", "i32", "i64", "f8e4m3" or "f8e5m2".
bool parseDType(std::string_view name, DType &out);
const char *dtypeName(DType type);
/// Size of one element in bytes.
size_t dtypeSize(DType type);
bool isFloatType(DType type);

/// IEEE binary16 <-> binary32, round-to-nearest-even; NaN stays NaN (quiet),
/// overflow rounds to infinity, subnormals are handled exactly.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
/// bfloat16 <-> binary32, round-to-nearest-even; NaN stays NaN (quiet).
uint16_t floatToBF16(float value);
float bf16ToFloat(uint16_t bits);
/// fp8 -> binary32 (exact): e4m3fn (bias 7, 0x7F/0xFF NaN) and e5m2 (bias 15).
float e4m3ToFloat(uint8_t bits);
float e5m2ToFloat(uint8_t bits);

/// Element `index` of a buffer of `type`, widened to double (exact for every
/// type except i64 beyond 2^53).
double loadAsDouble(const void *data, DType type, size_t index);
/// Element `index` of an integer buffer, sign-extended (0 for float types).
int64_t loadAsInt64(const void *data, DType type, size_t index);

} // namespace cake::abi

#endif // CAKE_ABI_DTYPE_H
