//===- OptionsTest.cpp - Tests of cake-run's command line -----------------===//

#include "Cake/Runner/Options.h"
#include "Cake/Version.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace cake::abi;
using namespace cake::runner;

namespace {

bool parse(std::vector<const char *> args, RunOptions &out, std::string &error) {
  return parseRunOptions(static_cast<int>(args.size()), args.data(), out, error);
}

/// The error of a command line that must fail.
std::string errorOf(std::vector<const char *> args) {
  RunOptions o;
  std::string error;
  EXPECT_FALSE(parse(args, o, error));
  return error;
}

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// What a parse that must exit(0) (--help, --version) prints on stdout, run in
/// a child process.
std::string stdoutOfExitingParse(std::vector<const char *> args) {
  std::string path = testing::TempDir() + "cake-run-options-stdout.txt";
  EXPECT_EXIT(
      {
        dup2(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDOUT_FILENO);
        RunOptions o;
        std::string error;
        parse(args, o, error);
      },
      testing::ExitedWithCode(0), "");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Options, ParsesFullCommandLine) {
  RunOptions o;
  std::string error;
  ASSERT_TRUE(parse({"--cubin", "k.cubin", "--manifest=k.json", "--kernel", "gemm",
                     "--sizes", "M=64,N=32", "--sizes", "K=16", "--scalar",
                     "alpha=2.5", "--seed", "9", "--ref", "r.cubin",
                     "--ref-entry", "gemm_ref", "--rtol", "1e-3", "--warmup", "2",
                     "--iters", "7", "--timeout", "1.5", "--device", "1",
                     "--input", "a=a.bin,b=b.bin", "--output-dir", "out",
                     "--outputs", "c", "--inouts=d,e"},
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
  EXPECT_EQ(o.inputFiles, (std::map<std::string, std::string>{{"a", "a.bin"}, {"b", "b.bin"}}));
  EXPECT_EQ(o.outputDir, "out");
  EXPECT_EQ(o.outputs, (std::vector<std::string>{"c"}));
  EXPECT_EQ(o.inouts, (std::vector<std::string>{"d", "e"}));
  EXPECT_FALSE(o.noTime);
  EXPECT_FALSE(o.checkSizes);
}

// llvm::cl's options are globals: each parse must start again from the
// defaults, whatever the one before it set (or failed on).
TEST(Options, ParsesRepeatedly) {
  RunOptions o;
  std::string error;
  ASSERT_TRUE(parse({"-cubin", "a.cubin", "-manifest=a.json", "-kernel", "k", "-sizes",
                     "N=8", "-scalar", "x=1", "-input", "x=x.bin", "-outputs", "y",
                     "-inouts", "z", "-output-dir", "d", "-ref", "r", "-ref-entry", "e",
                     "-seed", "5", "-rtol=0.5", "-warmup", "3", "-iters", "0",
                     "-no-time", "-timeout", "0", "-device", "2"},
                    o, error))
      << error;
  EXPECT_EQ(o.sizes, (SymbolMap{{"N", 8}}));
  EXPECT_EQ(o.seed, 5u);
  EXPECT_EQ(o.timeoutSeconds, 0);
  EXPECT_TRUE(o.noTime);

  ASSERT_TRUE(parse({"--cubin", "b.cubin", "--manifest", "b.json", "--sizes", "M=4"}, o,
                    error))
      << error;
  const RunOptions defaults;
  EXPECT_EQ(o.cubin, "b.cubin");
  EXPECT_EQ(o.manifest, "b.json");
  EXPECT_EQ(o.sizes, (SymbolMap{{"M", 4}}));
  EXPECT_EQ(o.kernel, "");
  EXPECT_TRUE(o.scalars.empty());
  EXPECT_TRUE(o.inputFiles.empty());
  EXPECT_TRUE(o.outputs.empty());
  EXPECT_TRUE(o.inouts.empty());
  EXPECT_EQ(o.outputDir, "");
  EXPECT_EQ(o.ref, "");
  EXPECT_EQ(o.refEntry, "");
  EXPECT_EQ(o.seed, defaults.seed);
  EXPECT_EQ(o.rtol, defaults.rtol);
  EXPECT_EQ(o.warmup, defaults.warmup);
  EXPECT_EQ(o.iters, defaults.iters);
  EXPECT_EQ(o.timeoutSeconds, defaults.timeoutSeconds);
  EXPECT_EQ(o.device, defaults.device);
  EXPECT_FALSE(o.noTime);

  EXPECT_EQ(errorOf({"--check-sizes", "--sizes", "N=1", "--iters", "x"}),
            "invalid value 'x' for --iters (expected a non-negative integer)");
  ASSERT_TRUE(parse({"--check-sizes", "--manifest", "m"}, o, error)) << error;
  EXPECT_TRUE(o.checkSizes);
  EXPECT_TRUE(o.sizes.empty());
  EXPECT_EQ(o.iters, defaults.iters);
}

TEST(Options, Errors) {
  RunOptions o;
  std::string error;
  EXPECT_EQ(errorOf({"--cubin", "k"}), "--cubin and --manifest are required");
  EXPECT_EQ(errorOf({"--cubin", "k", "--manifest", "m", "--sizes", "N"}),
            "invalid size 'N' (expected NAME=VALUE)");
  EXPECT_EQ(errorOf({"--sizes", "N=1x"}),
            "invalid value '1x' for size 'N' (expected an integer)");
  EXPECT_EQ(errorOf({"--sizes", "N=1,N=2"}), "size 'N' given twice");
  EXPECT_EQ(errorOf({"--sizes", "N=1", "--sizes=N=2"}), "size 'N' given twice");
  EXPECT_EQ(errorOf({"--scalar", "a=1", "--scalar", "a=2"}), "scalar 'a' given twice");
  EXPECT_EQ(errorOf({"--input", "x"}), "invalid input 'x' (expected NAME=VALUE)");
  EXPECT_EQ(errorOf({"--seed", "-1"}),
            "invalid value '-1' for --seed (expected a non-negative integer)");
  EXPECT_EQ(errorOf({"--rtol", "-1"}),
            "invalid value '-1' for --rtol (expected a non-negative number)");
  EXPECT_EQ(errorOf({"--timeout=2e6"}),
            "invalid value '2e6' for --timeout (expected a number of seconds, 0 for none)");
  EXPECT_EQ(errorOf({"--iters", "-1"}),
            "invalid value '-1' for --iters (expected a non-negative integer)");
  EXPECT_EQ(errorOf({"--cubin", "k", "--manifest", "m", "--iters", "0"}),
            "--iters must be at least 1 (or use --no-time)");
  EXPECT_TRUE(parse({"--cubin", "k", "--manifest", "m", "--iters", "0", "--no-time"},
                    o, error));
  EXPECT_EQ(errorOf({"--cubin", "k", "--manifest", "m", "--ref-entry", "x"}),
            "--ref-entry needs --ref");
  EXPECT_EQ(errorOf({"--outputs", "y,,z"}),
            "--outputs expects a comma-separated list of tensor names");
  EXPECT_EQ(errorOf({"--check-sizes", "--sizes", "N=1"}), "--check-sizes needs --manifest");
}

// llvm::cl's own errors, made one line; stderr stays cake-run's.
TEST(Options, CommandLineErrors) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(errorOf({"--iters"}), "for the --iters option: requires a value!");
  std::string unknown = errorOf({"--bogus", "1"});
  EXPECT_TRUE(startsWith(unknown, "Unknown command line argument '--bogus'")) << unknown;
  EXPECT_NE(unknown.find("; Unknown command line argument '1'"), std::string::npos) << unknown;
  EXPECT_EQ(errorOf({"--cubn", "k"}), "Unknown command line argument '--cubn'; Did you "
                                      "mean '--cubin'?; Unknown command line argument 'k'");
  EXPECT_EQ(errorOf({"stray"}), "Unknown command line argument 'stray'");
  EXPECT_EQ(errorOf({"--no-time=x"}),
            "for the --no-time option: 'x' is invalid value for boolean argument! Try 0 or 1");
  // libLLVMSupport's own options are not cake-run's.
  for (const char *foreign : {"--stats", "--color", "--rng-seed=1"})
    EXPECT_TRUE(startsWith(errorOf({foreign}), "Unknown command line argument")) << foreign;
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(OptionsDeathTest, VersionPrintsCakeVersion) {
  EXPECT_EQ(stdoutOfExitingParse({"--version"}), "CAKE version " CAKE_VERSION " (cake-run)\n");
}

TEST(OptionsDeathTest, HelpListsOnlyCakeRunOptions) {
  std::string help = stdoutOfExitingParse({"--help"});
  for (const char *option :
       {"--cubin=", "--manifest=", "--kernel=", "--sizes=", "--scalar=", "--seed=",
        "--input=", "--output-dir=", "--outputs=", "--inouts=", "--ref=", "--ref-entry=",
        "--rtol=", "--warmup=", "--iters=", "--timeout=", "--no-time", "--device=",
        "--check-sizes", "--version"})
    EXPECT_NE(help.find(option), std::string::npos) << option;
  for (const char *foreign : {"--stats", "--color", "--rng-seed", "--debug"})
    EXPECT_EQ(help.find(foreign), std::string::npos) << foreign;
  EXPECT_EQ(stdoutOfExitingParse({"-h"}), help);
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
