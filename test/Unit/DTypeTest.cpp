//===- DTypeTest.cpp - Tests of dtypes and half/bf16 conversions ----------===//

#include "Cake/ABI/DType.h"
#include "Cake/Runner/Fill.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace cake::abi;
using namespace cake::runner;

namespace {

float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(DType, NamesAndSizes) {
  DType t;
  ASSERT_TRUE(parseDType("bf16", t));
  EXPECT_EQ(t, DType::BF16);
  EXPECT_EQ(dtypeSize(t), 2u);
  EXPECT_TRUE(isFloatType(t));
  ASSERT_TRUE(parseDType("i64", t));
  EXPECT_EQ(dtypeSize(t), 8u);
  EXPECT_FALSE(isFloatType(t));
  EXPECT_STREQ(dtypeName(DType::I8), "i8");
  EXPECT_FALSE(parseDType("f8", t));
  EXPECT_FALSE(parseDType("i1", t));
}

TEST(Half, ExactValuesRoundTrip) {
  for (float v : {0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, -65504.0f, 6.103515625e-05f,
                  5.9604644775390625e-08f /* smallest subnormal */, 0.333251953125f}) {
    EXPECT_EQ(halfToFloat(floatToHalf(v)), v) << v;
  }
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(5.9604644775390625e-08f), 0x0001);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
}

TEST(Half, AllHalvesRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
    else
      EXPECT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11 is halfway between 0x3C01 and 0x3C02: ties to 0x3C02.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  // Just above the halfway point rounds up.
  EXPECT_EQ(floatToHalf(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3C01);
  // Subnormals: 2^-25 is halfway between 0 and 2^-24: ties to 0.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002); // 1.5 ulp -> even 2.
  // Largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(1023.75f, -24)), 0x0400);
}

TEST(Half, OverflowInfAndNaN) {
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xFC00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_TRUE(std::isinf(halfToFloat(0xFC00)));
  EXPECT_LT(halfToFloat(0xFC00), 0);
  uint16_t nan = floatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x3FF, 0);
  EXPECT_TRUE(std::isnan(halfToFloat(0xFFFF)));
  // A signalling NaN whose payload lives only in the low bits stays NaN.
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(bitsToFloat(0x7F800001u)))));
}

TEST(BF16, ConversionsAndRounding) {
  EXPECT_EQ(floatToBF16(1.0f), 0x3F80);
  EXPECT_EQ(bf16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(bf16ToFloat(floatToBF16(-3.5f)), -3.5f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(floatToBF16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(floatToBF16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_EQ(floatToBF16(std::nextafter(1.0f + std::ldexp(1.0f, -8), 2.0f)), 0x3F81);
  EXPECT_EQ(floatToBF16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(floatToBF16(-std::numeric_limits<float>::infinity()), 0xFF80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBF16(bitsToFloat(0x7F800001u)))));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16ToFloat(static_cast<uint16_t>(h));
    if (!std::isnan(f))
      EXPECT_EQ(floatToBF16(f), h);
  }
}

TEST(FP8, Decoding) {
  // e4m3fn: bias 7, 3 mantissa bits, no infinities; 0x7F / 0xFF are NaN, 0x7E = 448 the largest.
  EXPECT_EQ(e4m3ToFloat(0x38), 1.0f);
  EXPECT_EQ(e4m3ToFloat(0xC0), -2.0f);
  EXPECT_EQ(e4m3ToFloat(0x7E), 448.0f);
  EXPECT_EQ(e4m3ToFloat(0x01), std::ldexp(1.0f, -9)); // the smallest subnormal
  EXPECT_EQ(e4m3ToFloat(0x08), std::ldexp(1.0f, -6)); // the smallest normal
  EXPECT_TRUE(std::isnan(e4m3ToFloat(0x7F)));
  EXPECT_TRUE(std::isnan(e4m3ToFloat(0xFF)));
  // e5m2: binary16's top byte.
  EXPECT_EQ(e5m2ToFloat(0x3C), 1.0f);
  EXPECT_EQ(e5m2ToFloat(0x7B), 57344.0f);
  EXPECT_TRUE(std::isinf(e5m2ToFloat(0x7C)));
  DType type;
  ASSERT_TRUE(parseDType("f8e4m3", type));
  EXPECT_EQ(type, DType::F8E4M3);
  EXPECT_EQ(dtypeSize(type), 1u);
  EXPECT_TRUE(isFloatType(type));
  ASSERT_TRUE(parseDType("f8e5m2", type));
  EXPECT_STREQ(dtypeName(type), "f8e5m2");
}

TEST(FP8, RandomFillStaysBelowOne) {
  uint8_t e4m3[4096], e5m2[4096];
  fillRandom(e4m3, DType::F8E4M3, sizeof(e4m3), 1, 0);
  fillRandom(e5m2, DType::F8E5M2, sizeof(e5m2), 1, 1);
  int negative = 0;
  for (size_t i = 0; i < sizeof(e4m3); ++i) {
    float a = e4m3ToFloat(e4m3[i]), b = e5m2ToFloat(e5m2[i]);
    EXPECT_TRUE(std::abs(a) < 1.0f && std::abs(b) < 1.0f) << i;
    negative += a < 0;
  }
  EXPECT_GT(negative, 1500); // both signs
  EXPECT_LT(negative, 2600);
}

TEST(DType, LoadsElements) {
  int8_t i8[] = {-3, 5};
  EXPECT_EQ(loadAsInt64(i8, DType::I8, 0), -3);
  EXPECT_EQ(loadAsDouble(i8, DType::I8, 1), 5.0);
  uint16_t h[] = {0x3C00, 0xC000};
  EXPECT_EQ(loadAsDouble(h, DType::F16, 1), -2.0);
  double d[] = {0.125};
  EXPECT_EQ(loadAsDouble(d, DType::F64, 0), 0.125);
}

} // namespace
