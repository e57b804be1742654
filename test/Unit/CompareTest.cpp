//===- CompareTest.cpp - Tests of comparisons and timing statistics -------===//

#include "Cake/Runner/Compare.h"
#include "Cake/Runner/Fill.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace cake::abi;
using namespace cake::runner;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

float poisonFloat() {
  float f;
  std::memset(&f, kPoisonByte, sizeof(f));
  return f;
}

TEST(Compare, RelativeL2Error) {
  std::vector<float> ref = {3, 4, 0, 0};
  std::vector<float> out = {3, 4, 0.5f, 0};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::F32, 4, true);
  EXPECT_DOUBLE_EQ(s.relErr, 0.5 / 5.0);
  EXPECT_DOUBLE_EQ(s.maxAbsErr, 0.5);
  EXPECT_EQ(s.unwritten, 0);
  EXPECT_EQ(s.nonfinite, 0);
  EXPECT_TRUE(outputPasses(s, DType::F32, 0.2));
  EXPECT_FALSE(outputPasses(s, DType::F32, 0.05));
}

TEST(Compare, ZeroReferenceUsesAbsoluteNorm) {
  std::vector<float> ref = {0, 0}, out = {0, 0};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::F32, 2, true);
  EXPECT_EQ(s.relErr, 0.0);
  out[1] = 1e-3f;
  s = compareOutput(out.data(), ref.data(), DType::F32, 2, true);
  EXPECT_NEAR(s.relErr, 1e-3, 1e-9);
}

TEST(Compare, NonFinite) {
  std::vector<float> ref = {1, kNaN, kInf, 2};
  std::vector<float> out = {kNaN, kNaN, kInf, kInf};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::F32, 4, true);
  EXPECT_EQ(s.nonfinite, 2); // Elements 0 and 3.
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_FALSE(outputPasses(s, DType::F32, 1.0));
  // The reference's NaN/Inf must be matched exactly.
  out = {1, 0, -kInf, 2};
  s = compareOutput(out.data(), ref.data(), DType::F32, 4, true);
  EXPECT_EQ(s.mismatches, 2);
  EXPECT_EQ(s.nonfinite, 0);
  // Without a reference, non-finite values are counted but do not fail.
  s = compareOutput(out.data(), nullptr, DType::F32, 4, true);
  EXPECT_EQ(s.nonfinite, 1);
  EXPECT_TRUE(std::isnan(s.relErr));
  EXPECT_TRUE(outputPasses(s, DType::F32, 0));
}

TEST(Compare, Unwritten) {
  std::vector<float> ref = {1, 2, 3};
  std::vector<float> out = {1, poisonFloat(), 3};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::F32, 3, true);
  EXPECT_EQ(s.unwritten, 1);
  EXPECT_EQ(s.nonfinite, 0);
  EXPECT_EQ(s.relErr, 0.0);
  EXPECT_FALSE(outputPasses(s, DType::F32, 1.0));
  // Read-write outputs are not poisoned, so the check is off for them.
  s = compareOutput(out.data(), ref.data(), DType::F32, 3, false);
  EXPECT_EQ(s.unwritten, 0);
  EXPECT_EQ(s.nonfinite, 1);
  // Without a reference an unwritten element still fails.
  s = compareOutput(out.data(), nullptr, DType::F32, 3, true);
  EXPECT_FALSE(outputPasses(s, DType::F32, 1.0));
}

TEST(Compare, IntegersExactly) {
  std::vector<int32_t> ref = {1, 2, 3, 4}, out = {1, 5, 3, -1};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::I32, 4, true);
  EXPECT_EQ(s.unwritten, 1); // -1 is the poison pattern.
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_FALSE(outputPasses(s, DType::I32, 1e9));
  out = ref;
  s = compareOutput(out.data(), ref.data(), DType::I32, 4, true);
  EXPECT_TRUE(outputPasses(s, DType::I32, 0));
}

TEST(Compare, HalfOutputs) {
  std::vector<uint16_t> ref = {floatToHalf(1.0f), floatToHalf(2.0f)};
  std::vector<uint16_t> out = {floatToHalf(1.0f), floatToHalf(2.001953125f)};
  OutputStats s = compareOutput(out.data(), ref.data(), DType::F16, 2, true);
  EXPECT_NEAR(s.relErr, 0.001953125 / std::sqrt(5.0), 1e-12);
}

TEST(Compare, DescribesFailures) {
  OutputStats s;
  s.hasReference = true;
  EXPECT_EQ(describeFailure(s, DType::F32, 1e-5), "");
  s.unwritten = 3;
  s.nonfinite = 2;
  s.relErr = 0.5;
  EXPECT_EQ(describeFailure(s, DType::F32, 1e-5),
            "3 unwritten, 2 non-finite, rel_err 0.5 > rtol 1e-05");
  s = OutputStats();
  s.hasReference = true;
  s.mismatches = 4;
  s.relErr = 0.5; // Not a criterion for integers.
  EXPECT_EQ(describeFailure(s, DType::I32, 1e-5), "4 mismatches");
}

TEST(Compare, GatherLogical) {
  // A 2x3 view with row stride 4 over an 8-element buffer.
  std::vector<int32_t> buffer = {0, 1, 2, 9, 3, 4, 5, 9};
  std::vector<unsigned char> dense;
  gatherLogical(buffer.data(), 4, {2, 3}, {4, 1}, dense);
  ASSERT_EQ(dense.size(), 6 * 4u);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(loadAsInt64(dense.data(), DType::I32, i), i);
  // Transposed view.
  gatherLogical(buffer.data(), 4, {3, 2}, {1, 4}, dense);
  std::vector<int64_t> expected = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(loadAsInt64(dense.data(), DType::I32, i), expected[i]);
  gatherLogical(buffer.data(), 4, {0, 3}, {3, 1}, dense);
  EXPECT_TRUE(dense.empty());
  gatherLogical(buffer.data(), 4, {}, {}, dense); // Rank 0: one element.
  EXPECT_EQ(dense.size(), 4u);
}

TEST(Stats, Median) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({5}), 5.0);
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(Stats, RotationCount) {
  const uint64_t MiB = 1 << 20, GiB = 1ull << 30;
  const uint64_t l2 = 50 * MiB;
  EXPECT_EQ(rotationCount(0, l2, GiB), 1);
  EXPECT_EQ(rotationCount(200 * MiB, l2, GiB), 1);
  EXPECT_EQ(rotationCount(100 * MiB, l2, GiB), 2); // 2 * 100 > 100.
  EXPECT_EQ(rotationCount(30 * MiB, l2, GiB), 4);  // 4 * 30 > 100.
  EXPECT_EQ(rotationCount(25 * MiB, l2, GiB), 5);  // 5 * 25 > 100.
  EXPECT_EQ(rotationCount(1024, l2, 64 * GiB), 64); // Capped.
  EXPECT_EQ(rotationCount(1024, l2, 64 * GiB, 16), 16);
  EXPECT_EQ(rotationCount(30 * MiB, l2, 60 * MiB), 2); // Memory budget.
  EXPECT_EQ(rotationCount(30 * MiB, l2, 10 * MiB), 1); // Never below 1.
}

} // namespace
