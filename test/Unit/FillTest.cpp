//===- FillTest.cpp - Tests of the seeded input generator -----------------===//

#include "Cake/Runner/Fill.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

using namespace cake::abi;
using namespace cake::runner;

namespace {

std::vector<double> fill(DType type, size_t n, uint64_t seed, uint64_t stream) {
  std::vector<unsigned char> bytes(n * dtypeSize(type));
  fillRandom(bytes.data(), type, n, seed, stream);
  std::vector<double> values;
  for (size_t i = 0; i < n; ++i)
    values.push_back(loadAsDouble(bytes.data(), type, i));
  return values;
}

TEST(Fill, IsDeterministic) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I8,
                  DType::I32, DType::I64}) {
    EXPECT_EQ(fill(t, 1000, 7, 2), fill(t, 1000, 7, 2)) << dtypeName(t);
    EXPECT_NE(fill(t, 1000, 7, 2), fill(t, 1000, 8, 2)) << dtypeName(t);
    EXPECT_NE(fill(t, 1000, 7, 2), fill(t, 1000, 7, 3)) << dtypeName(t);
  }
}

TEST(Fill, PrefixIsStable) {
  // The first elements do not depend on the buffer length.
  std::vector<double> a = fill(DType::F32, 10, 1, 0);
  std::vector<double> b = fill(DType::F32, 100, 1, 0);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
}

TEST(Fill, FloatsInRange) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
    std::vector<double> v = fill(t, 100000, 3, 1);
    double lo = 1, hi = -1, sum = 0;
    for (double x : v) {
      EXPECT_GE(x, -1.0);
      EXPECT_LT(x, 1.0);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
    }
    EXPECT_LT(lo, -0.99) << dtypeName(t);
    EXPECT_GT(hi, 0.99) << dtypeName(t);
    EXPECT_NEAR(sum / v.size(), 0.0, 0.02) << dtypeName(t);
  }
}

TEST(Fill, IntegersInRange) {
  for (DType t : {DType::I8, DType::I32, DType::I64}) {
    std::vector<double> v = fill(t, 10000, 5, 0);
    std::set<double> distinct(v.begin(), v.end());
    EXPECT_EQ(distinct.size(), 64u) << dtypeName(t);
    EXPECT_EQ(*distinct.begin(), 0.0);
    EXPECT_EQ(*distinct.rbegin(), 63.0);
  }
}

TEST(Fill, PoisonIsNaNForFloats) {
  std::vector<unsigned char> poison(8, kPoisonByte);
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64})
    EXPECT_TRUE(std::isnan(loadAsDouble(poison.data(), t, 0))) << dtypeName(t);
  EXPECT_EQ(loadAsInt64(poison.data(), DType::I32, 0), -1);
}

} // namespace
