//===- ManifestTest.cpp - Tests of manifest loading and resolution --------===//

#include "Cake/ABI/Manifest.h"

#include <gtest/gtest.h>

using namespace cake::abi;

namespace {

const char *kVectorAdd = R"json({
  "cake_manifest_version": 1,
  "kernels": [{
    "entry": "vector_add", "target": "sm_90a",
    "block": [256, 1, 1], "cluster": [1, 1, 1],
    "dynamic_shared_bytes": 0, "static_shared_bytes": 0,
    "symbols": ["N"],
    "grid": ["ceildiv(N, 1024)", "1", "1"],
    "constraints": ["N >= 1"],
    "params": [
      {"name": "x", "kind": "tensor", "dtype": "f32", "shape": ["N"], "strides": ["1"], "access": "read"},
      {"name": "alpha", "kind": "scalar", "dtype": "f32"},
      {"name": "z", "kind": "tensor", "dtype": "f32", "shape": ["N"], "strides": ["1"], "access": "write"},
      {"name": "N", "kind": "symbol", "dtype": "i64"}
    ]
  }]
})json";

/// kVectorAdd with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string &from, const std::string &to) {
  std::string text = kVectorAdd;
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

std::string loadError(const std::string &text) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifestText(text, m, error));
  return error;
}

Manifest load(const std::string &text) {
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifestText(text, m, error)) << error;
  return m;
}

TEST(Manifest, LoadsExample) {
  Manifest m = load(kVectorAdd);
  ASSERT_EQ(m.kernels.size(), 1u);
  const KernelDesc &k = m.kernels[0];
  EXPECT_EQ(k.entry, "vector_add");
  EXPECT_EQ(k.target, "sm_90a");
  EXPECT_EQ(k.block[0], 256);
  EXPECT_FALSE(k.hasCluster());
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[0].access, Access::Read);
  EXPECT_EQ(k.params[1].kind, ParamKind::Scalar);
  EXPECT_EQ(k.params[2].access, Access::Write);
  EXPECT_TRUE(k.params[2].isOutput());
  EXPECT_EQ(k.params[3].kind, ParamKind::Symbol);
  std::string error;
  EXPECT_EQ(findKernel(m, "", error), &k);
  EXPECT_EQ(findKernel(m, "vector_add", error), &k);
  EXPECT_EQ(findKernel(m, "nope", error), nullptr);
  EXPECT_EQ(error, "unknown kernel 'nope' (manifest has: vector_add)");
}

TEST(Manifest, RejectsBadDocuments) {
  EXPECT_EQ(loadError("[1]"), "the manifest must be a JSON object");
  EXPECT_EQ(loadError("{\"kernels\": []}"),
            "missing required field 'cake_manifest_version'");
  EXPECT_EQ(loadError(edited("\"cake_manifest_version\": 1",
                             "\"cake_manifest_version\": 2")),
            "unsupported cake_manifest_version 2 (this runner reads 1)");
  EXPECT_EQ(loadError("{\"cake_manifest_version\": 1,"),
            "invalid JSON: line 1, col 28: expected object key");
  EXPECT_EQ(loadError(edited("\"entry\": \"vector_add\",", "")),
            "kernels[0]: missing required field 'entry'");
  EXPECT_EQ(loadError(edited("\"block\": [256, 1, 1],", "")),
            "kernels[0] ('vector_add'): missing required field 'block'");
  EXPECT_EQ(loadError(edited("[256, 1, 1]", "[256, 0, 1]")),
            "kernels[0] ('vector_add'): field 'block' must hold positive integers");
  EXPECT_EQ(loadError(edited("\"dtype\": \"f32\"", "\"dtype\": \"f8\"")),
            "kernels[0] ('vector_add').params[0] ('x'): unknown dtype 'f8'");
  EXPECT_EQ(loadError(edited("\"kind\": \"scalar\", \"dtype\": \"f32\"",
                             "\"kind\": \"scalar\", \"dtype\": \"f16\"")),
            "kernels[0] ('vector_add').params[1] ('alpha'): scalar dtype 'f16' "
            "is not supported (i32 i64 f32 f64)");
  EXPECT_EQ(loadError(edited("\"access\": \"read\"", "\"access\": \"rw\"")),
            "kernels[0] ('vector_add').params[0] ('x'): unknown access 'rw'");
  EXPECT_EQ(loadError(edited("\"kind\": \"tensor\"", "\"kind\": \"buffer\"")),
            "kernels[0] ('vector_add').params[0] ('x'): unknown kind 'buffer'");
  EXPECT_EQ(loadError(edited("\"strides\": [\"1\"]", "\"strides\": [\"1\", \"1\"]")),
            "kernels[0] ('vector_add').params[0] ('x'): 'shape' and 'strides' "
            "have different lengths");
  EXPECT_EQ(loadError(edited("\"ceildiv(N, 1024)\"", "\"ceildiv(M, 1024)\"")),
            "kernels[0] ('vector_add').grid[0]: unknown symbol 'M' in "
            "'ceildiv(M, 1024)' (not in 'symbols')");
  EXPECT_EQ(loadError(edited("\"ceildiv(N, 1024)\"", "\"ceildiv(N, 1024\"")),
            "kernels[0] ('vector_add').grid[0]: col 16: expected ')' in "
            "'ceildiv(N, 1024'");
  EXPECT_EQ(loadError(edited("\"N >= 1\"", "\"N + 1\"")),
            "kernels[0] ('vector_add').constraints[0]: col 6: expected a "
            "comparison (== != < <= > >=) in 'N + 1'");
  EXPECT_EQ(loadError(edited("\"symbols\": [\"N\"]", "\"symbols\": [\"N\", \"D\"]")),
            "kernels[0] ('vector_add'): the symbol parameters must be exactly "
            "'symbols', in the same order");
  EXPECT_EQ(loadError(edited("{\"name\": \"N\", \"kind\": \"symbol\", \"dtype\": \"i64\"}",
                             "{\"name\": \"N\", \"kind\": \"symbol\", \"dtype\": \"i32\"}")),
            "kernels[0] ('vector_add').params[3] ('N'): a symbol parameter "
            "must have dtype i64");
  EXPECT_EQ(loadError(edited("\"name\": \"alpha\"", "\"name\": \"x\"")),
            "kernels[0] ('vector_add').params[1]: duplicate parameter name 'x'");
  EXPECT_EQ(loadError(edited("\"block\": [256, 1, 1],", "\"block\": [256, 1, 1], \"index_bits\": 16,")),
            "kernels[0] ('vector_add'): field 'index_bits' must be 32 or 64");
  EXPECT_EQ(loadError(edited("\"block\": [256, 1, 1],",
                             "\"block\": [256, 1, 1], \"programmatic_launch\": 1,")),
            "kernels[0] ('vector_add'): field 'programmatic_launch' must be a boolean");
}

TEST(Manifest, ResolvesLaunch) {
  Manifest m = load(kVectorAdd);
  ResolvedLaunch launch;
  std::string error;
  ASSERT_TRUE(resolveLaunch(m.kernels[0], {{"N", 5000}}, launch, error)) << error;
  EXPECT_EQ(launch.grid, (std::array<int64_t, 3>{5, 1, 1}));
  EXPECT_EQ(launch.symbolValues, (std::vector<int64_t>{5000}));
  ASSERT_EQ(launch.tensors.size(), 2u);
  EXPECT_EQ(launch.tensors[0].paramIndex, 0u);
  EXPECT_EQ(launch.tensors[1].paramIndex, 2u);
  EXPECT_EQ(launch.tensors[1].elements, 5000);
  EXPECT_EQ(launch.tensors[1].spanElements, 5000);
  EXPECT_TRUE(launch.tensors[1].contiguous);
}

std::string resolveError(const std::string &text, const SymbolMap &sizes) {
  Manifest m = load(text);
  ResolvedLaunch launch;
  std::string error;
  EXPECT_FALSE(resolveLaunch(m.kernels[0], sizes, launch, error));
  return error;
}

TEST(Manifest, ResolveErrors) {
  EXPECT_EQ(resolveError(kVectorAdd, {}), "missing size for symbol 'N'");
  EXPECT_EQ(resolveError(kVectorAdd, {{"N", 4}, {"D", 2}}),
            "unknown size 'D' (kernel 'vector_add' has symbols: N)");
  EXPECT_EQ(resolveError(kVectorAdd, {{"N", 0}}),
            "constraint N >= 1 violated for N=0");
  EXPECT_EQ(resolveError(edited("\"N >= 1\"", "\"N >= -5\""), {{"N", -3}}),
            "grid[0] = ceildiv(N, 1024) evaluates to 0 for N=-3 (must be in "
            "[1, 2147483647])");
  EXPECT_EQ(resolveError(edited("[\"N\"], \"strides\"", "[\"N - 10\"], \"strides\""),
                         {{"N", 5}}),
            "tensor 'x' shape[0] = N - 10 is negative (-5)");
  EXPECT_EQ(resolveError(edited("\"1\", \"1\"]", "\"65536\", \"1\"]"), {{"N", 5}}),
            "grid[1] = 65536 evaluates to 65536 (must be in [1, 65535])");
  EXPECT_EQ(resolveError(edited("\"ceildiv(N, 1024)\"", "\"floordiv(N, N - 4)\""),
                         {{"N", 4}}),
            "grid[0] = floordiv(N, N - 4): division by zero");
}

TEST(Manifest, StridedAndDefaultStrides) {
  std::string text = edited("\"shape\": [\"N\"], \"strides\": [\"1\"]",
                            "\"shape\": [\"N\", \"4\"], \"strides\": [\"8\", \"2\"]");
  text = text.replace(text.find("\"strides\": [\"1\"], \"access\": \"write\""),
                      std::string("\"strides\": [\"1\"], \"access\": \"write\"").size(),
                      "\"access\": \"write\"");
  Manifest m = load(text);
  ResolvedLaunch launch;
  std::string error;
  ASSERT_TRUE(resolveLaunch(m.kernels[0], {{"N", 3}}, launch, error)) << error;
  const ResolvedTensor &x = launch.tensors[0];
  EXPECT_EQ(x.elements, 12);
  EXPECT_EQ(x.spanElements, 2 * 8 + 3 * 2 + 1);
  EXPECT_FALSE(x.contiguous);
  const ResolvedTensor &z = launch.tensors[1];
  EXPECT_EQ(z.strides, (std::vector<int64_t>{1}));
  EXPECT_TRUE(z.contiguous);
}

TEST(Manifest, ClusterMustDivideGrid) {
  std::string text = edited("\"cluster\": [1, 1, 1]", "\"cluster\": [2, 1, 1]");
  EXPECT_EQ(resolveError(text, {{"N", 3000}}),
            "grid[0] = 3 is not a multiple of the cluster size 2");
  Manifest m = load(text);
  EXPECT_TRUE(m.kernels[0].hasCluster());
}

} // namespace

namespace {
TEST(Manifest, DeclaredRolesOverrideTheManifest) {
  Manifest m = load(edited("\"access\": \"write\"", "\"access\": \"read\""));
  KernelDesc &k = m.kernels[0];
  EXPECT_FALSE(hasOutput(k)); // the candidate never stores z: nothing to compare
  std::string error;
  ASSERT_TRUE(applyDeclaredRoles(k, {}, {}, error));
  EXPECT_FALSE(hasOutput(k)); // no declaration: unchanged
  ASSERT_TRUE(applyDeclaredRoles(k, {"z"}, {}, error)) << error;
  EXPECT_EQ(k.params[2].access, Access::Write);
  EXPECT_EQ(k.params[0].access, Access::Read);
  EXPECT_TRUE(hasOutput(k));
  ASSERT_TRUE(applyDeclaredRoles(k, {}, {"x"}, error)) << error;
  EXPECT_EQ(k.params[0].access, Access::ReadWrite);
  EXPECT_EQ(k.params[2].access, Access::Read); // undeclared: an input
  EXPECT_FALSE(applyDeclaredRoles(k, {"alpha"}, {}, error));
  EXPECT_EQ(error, "declared output 'alpha' is not a tensor parameter of kernel 'vector_add'");
  EXPECT_FALSE(applyDeclaredRoles(k, {"z"}, {"z"}, error));
  EXPECT_EQ(error, "tensor 'z' declared twice (--outputs, --inouts)");
}
} // namespace

namespace {
// The writer is the compiler's side of the same struct: what it writes reads back to the same
// struct, field for field (written again, the text is identical).
TEST(ManifestWriter, RoundTrips) {
  Manifest m = load(edited("\"constraints\": [\"N >= 1\"]",
                           "\"constraints\": [\"N >= 1\", \"mod(N, 4) == 0\"]"));
  std::string written = writeManifest(m);
  Manifest again = load(written);
  EXPECT_EQ(writeManifest(again), written);
  const KernelDesc &k = again.kernels[0];
  EXPECT_EQ(k.grid[0].text(), "ceildiv(N, 1024)");
  ASSERT_EQ(k.constraints.size(), 2u);
  EXPECT_EQ(k.constraints[1].text(), "mod(N, 4) == 0");
  EXPECT_EQ(k.params[1].kind, ParamKind::Scalar);
  EXPECT_EQ(k.params[2].access, Access::Write);
  EXPECT_EQ(written.back(), '\n');
  EXPECT_EQ(written.find("hang_debug"), std::string::npos);
  EXPECT_EQ(k.indexBits, 64);
  EXPECT_EQ(written.find("index_bits"), std::string::npos); // the default is not written
  EXPECT_FALSE(k.programmaticLaunch);
  EXPECT_EQ(written.find("programmatic_launch"), std::string::npos);
}

// A kernel that waits for its grid dependencies says so; the flag reads back.
TEST(ManifestWriter, WritesProgrammaticLaunch) {
  Manifest m = load(kVectorAdd);
  m.kernels[0].programmaticLaunch = true;
  std::string written = writeManifest(m);
  EXPECT_NE(written.find("\"programmatic_launch\": true"), std::string::npos);
  EXPECT_TRUE(load(written).kernels[0].programmaticLaunch);
}

// A kernel compiled with a 32-bit index says so; the field reads back.
TEST(ManifestWriter, WritesIndexBits) {
  Manifest m = load(kVectorAdd);
  m.kernels[0].indexBits = 32;
  std::string written = writeManifest(m);
  EXPECT_NE(written.find("\"index_bits\": 32"), std::string::npos);
  EXPECT_EQ(load(written).kernels[0].indexBits, 32);
}

TEST(ManifestWriter, WritesTmaStridesAndHangSites) {
  Manifest m = load(edited("\"strides\": [\"1\"], \"access\": \"read\"", "\"access\": \"read\""));
  KernelDesc &k = m.kernels[0];
  k.hangTimeoutMs = 200;
  k.hangSites.push_back({0, "cake.mbarrier.wait", "k.mlir:3:5", ""});
  k.hangSites.push_back({1, "cake.pipeline.consumer_wait", "k.mlir:9:7", "consumer"});
  ParamDesc tma;
  tma.name = "x_desc";
  tma.kind = ParamKind::Tma;
  tma.tensorName = "x";
  tma.box = {64};
  tma.swizzle = 128;
  k.params.insert(k.params.begin() + 3, std::move(tma));
  std::string written = writeManifest(m);
  Manifest again = load(written);
  const KernelDesc &r = again.kernels[0];
  EXPECT_TRUE(r.params[0].strides.empty()); // row-major: none written, none read
  EXPECT_EQ(r.params[3].tensorParam, 0u);
  EXPECT_EQ(r.params[3].box, (std::vector<int64_t>{64}));
  EXPECT_EQ(r.params[3].swizzle, 128);
  EXPECT_EQ(r.hangTimeoutMs, 200);
  ASSERT_EQ(r.hangSites.size(), 2u);
  EXPECT_EQ(r.hangSites[0].role, "");
  EXPECT_EQ(r.hangSites[1].role, "consumer");
  EXPECT_NE(written.find("\"role\": null"), std::string::npos);
}
} // namespace
