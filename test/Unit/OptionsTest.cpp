//===- OptionsTest.cpp - Tests of cake-run's command line -----------------===//

#include "Cake/Runner/Options.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace cake::abi;
using namespace cake::runner;

namespace {

bool parse(std::vector<const char *> args, RunOptions &out, std::string &error) {
  return parseRunOptions(static_cast<int>(args.size()), args.data(), out, error);
}

TEST(Options, ParsesFullCommandLine) {
  RunOptions o;
  std::string error;
  ASSERT_TRUE(parse({"--cubin", "k.cubin", "--manifest=k.json", "--kernel", "gemm",
                     "--sizes", "M=64,N=32", "--sizes", "K=16", "--scalar",
                     "alpha=2.5", "--seed", "9", "--ref", "r.cubin",
                     "--ref-entry", "gemm_ref", "--rtol", "1e-3", "--warmup", "2",
                     "--iters", "7", "--timeout", "1.5", "--device", "1"},
                    o, error))
      << error;
  EXPECT_EQ(o.cubin, "k.cubin");
  EXPECT_EQ(o.manifest, "k.json");
  EXPECT_EQ(o.kernel, "gemm");
  EXPECT_EQ(o.sizes, (SymbolMap{{"M", 64}, {"N", 32}, {"K", 16}}));
  EXPECT_EQ(o.scalars.at("alpha"), "2.5");
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.ref, "r.cubin");
  EXPECT_EQ(o.refEntry, "gemm_ref");
  EXPECT_EQ(o.rtol, 1e-3);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_EQ(o.iters, 7);
  EXPECT_EQ(o.timeoutSeconds, 1.5);
  EXPECT_EQ(o.device, 1);
  EXPECT_FALSE(o.noTime);
}

TEST(Options, Errors) {
  RunOptions o;
  std::string error;
  EXPECT_FALSE(parse({"--cubin", "k"}, o, error));
  EXPECT_EQ(error, "--cubin and --manifest are required");
  EXPECT_FALSE(parse({"--cubin", "k", "--manifest", "m", "--sizes", "N"}, o, error));
  EXPECT_EQ(error, "invalid size 'N' (expected NAME=VALUE)");
  EXPECT_FALSE(parse({"--sizes", "N=1x"}, o, error));
  EXPECT_EQ(error, "invalid value '1x' for size 'N' (expected an integer)");
  EXPECT_FALSE(parse({"--sizes", "N=1,N=2"}, o, error));
  EXPECT_EQ(error, "size 'N' given twice");
  EXPECT_FALSE(parse({"--bogus", "1"}, o, error));
  EXPECT_EQ(error, "unknown option '--bogus'");
  EXPECT_FALSE(parse({"--iters"}, o, error));
  EXPECT_EQ(error, "option '--iters' needs a value");
  EXPECT_FALSE(parse({"--iters", "-1"}, o, error));
  EXPECT_EQ(error, "invalid value '-1' for --iters (expected a non-negative integer)");
  EXPECT_FALSE(parse({"--cubin", "k", "--manifest", "m", "--iters", "0"}, o, error));
  EXPECT_EQ(error, "--iters must be at least 1 (or use --no-time)");
  EXPECT_TRUE(parse({"--cubin", "k", "--manifest", "m", "--iters", "0", "--no-time"},
                    o, error));
  EXPECT_FALSE(parse({"--cubin", "k", "--manifest", "m", "--ref-entry", "x"}, o, error));
  EXPECT_EQ(error, "--ref-entry needs --ref");
  EXPECT_FALSE(parse({"--outputs", "y,,z"}, o, error));
  EXPECT_EQ(error, "--outputs expects a comma-separated list of tensor names");
  EXPECT_TRUE(parse({"--cubin", "k", "--manifest", "m", "--outputs", "y,z", "--inouts=w"}, o, error));
  EXPECT_EQ(o.outputs, (std::vector<std::string>{"y", "z"}));
  EXPECT_EQ(o.inouts, (std::vector<std::string>{"w"}));
  EXPECT_FALSE(parse({"stray"}, o, error));
  EXPECT_EQ(error, "unexpected argument 'stray'");
  EXPECT_TRUE(parse({"--help"}, o, error));
  EXPECT_TRUE(o.help);
  EXPECT_NE(std::strstr(runUsage(), "--cubin"), nullptr);
}

TEST(Options, StatusNames) {
  EXPECT_STREQ(runStatusName(RunStatus::Ok), "ok");
  EXPECT_STREQ(runStatusName(RunStatus::Timeout), "timeout");
  EXPECT_EQ(static_cast<int>(RunStatus::NoDevice), 5);
}

TEST(Options, EncodesScalars) {
  unsigned char bytes[8];
  size_t size = 0;
  std::string error;
  ASSERT_TRUE(encodeScalar("2.5", DType::F32, bytes, size, error));
  float f;
  std::memcpy(&f, bytes, 4);
  EXPECT_EQ(f, 2.5f);
  EXPECT_EQ(size, 4u);
  ASSERT_TRUE(encodeScalar("-7", DType::I64, bytes, size, error));
  int64_t i;
  std::memcpy(&i, bytes, 8);
  EXPECT_EQ(i, -7);
  EXPECT_FALSE(encodeScalar("3000000000", DType::I32, bytes, size, error));
  EXPECT_EQ(error, "invalid value '3000000000' for a i32 scalar (expected a "
                   "32-bit integer)");
  EXPECT_FALSE(encodeScalar("x", DType::F64, bytes, size, error));
  EXPECT_FALSE(encodeScalar("1e39", DType::F32, bytes, size, error));
  EXPECT_FALSE(encodeScalar("1", DType::F16, bytes, size, error));
}

} // namespace
