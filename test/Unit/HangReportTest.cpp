//===- HangReportTest.cpp - Tests of hang_debug parsing and report decoding ===//

#include "Cake/Runner/HangReport.h"

#include <gtest/gtest.h>

#include <vector>

using namespace cake::abi;
using namespace cake::runner;

namespace {

const char *kWithSites = R"json({
  "cake_manifest_version": 1,
  "kernels": [{
    "entry": "k", "block": [384, 1, 1], "symbols": [], "grid": ["1", "1", "1"],
    "params": [],
    "hang_debug": {"timeout_ms": 200, "sites": [
      {"id": 0, "op": "cake.mbarrier.wait", "loc": "k.mlir:3:5", "role": null},
      {"id": 1, "op": "cake.pipeline.consumer_wait", "loc": "k.mlir:9:7", "role": "consumer"}]}
  }]
})json";

Manifest load(const std::string &text) {
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifestText(text, m, error)) << error;
  return m;
}

std::string loadError(std::string text, const std::string &from, const std::string &to) {
  text.replace(text.find(from), from.size(), to);
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifestText(text, m, error));
  return error;
}

TEST(HangReport, ParsesSites) {
  Manifest m = load(kWithSites);
  const KernelDesc &k = m.kernels[0];
  EXPECT_EQ(k.hangTimeoutMs, 200);
  ASSERT_EQ(k.hangSites.size(), 2u);
  EXPECT_EQ(k.hangSites[1].op, "cake.pipeline.consumer_wait");
  EXPECT_EQ(k.hangSites[1].role, "consumer");
  EXPECT_EQ(k.hangSites[0].role, "");
}

TEST(HangReport, RejectsMalformedSites) {
  EXPECT_NE(loadError(kWithSites, R"("id": 1,)", R"("id": -1,)").find("field 'id'"),
            std::string::npos);
  EXPECT_NE(loadError(kWithSites, R"("op": "cake.mbarrier.wait", )", "").find("'op'"),
            std::string::npos);
  EXPECT_NE(loadError(kWithSites, R"("sites": [)", R"("sitez": [)").find("sites"),
            std::string::npos);
}

TEST(HangReport, DecodesARecord) {
  Manifest m = load(kWithSites);
  uint32_t words[kHangReportWords] = {kHangReportMagic, 1, 6, 0, 0, 130, 3, 200};
  llvm::json::Object report;
  std::string message;
  ASSERT_TRUE(decodeHangReport(words, m.kernels[0], report, message));
  EXPECT_EQ(message, "hang: block (6, 0, 0) thread 130 (warp 4, role 'consumer') waited more "
                     "than 200 ms at cake.pipeline.consumer_wait (k.mlir:9:7) for parity 1");
  EXPECT_EQ(report.getString("op"), "cake.pipeline.consumer_wait");
  EXPECT_EQ(report.getInteger("warp"), 4);
  EXPECT_EQ(report.getInteger("parity"), 1);
}

TEST(HangReport, NoRecordWithoutMagic) {
  Manifest m = load(kWithSites);
  uint32_t words[kHangReportWords] = {0, 1, 6, 0, 0, 130, 3, 200};
  llvm::json::Object report;
  std::string message;
  EXPECT_FALSE(decodeHangReport(words, m.kernels[0], report, message));
}

TEST(HangReport, UnknownSiteStillReports) {
  Manifest m = load(kWithSites);
  uint32_t words[kHangReportWords] = {kHangReportMagic, 7, 0, 0, 0, 0, 0, 200};
  llvm::json::Object report;
  std::string message;
  ASSERT_TRUE(decodeHangReport(words, m.kernels[0], report, message));
  EXPECT_NE(message.find("wait site 7"), std::string::npos);
  EXPECT_TRUE(report.getNull("op").has_value());
}

} // namespace

namespace {

TEST(HangReport, TableGroupsWarpsBySite) {
  Manifest m = load(kWithSites);
  std::vector<uint32_t> table(2 * kHangTableEntries, 0);
  auto mark = [&](size_t slot, uint32_t site, uint32_t block) {
    table[2 * slot] = site + 1;
    table[2 * slot + 1] = block;
  };
  mark(3, 0, 7);
  mark(70, 0, 2);
  mark(71, 0, 2);
  llvm::json::Array barriers;
  std::string summary;
  ASSERT_TRUE(decodeHangTable(table.data(), m.kernels[0], barriers, summary));
  EXPECT_EQ(summary, "3 warps at cake.mbarrier.wait (k.mlir:3:5), blocks 2, 7");
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].getAsObject()->getInteger("warps"), 3);
}

TEST(HangReport, EmptyTableIsNoReport) {
  Manifest m = load(kWithSites);
  std::vector<uint32_t> table(2 * kHangTableEntries, 0);
  llvm::json::Array barriers;
  std::string summary;
  EXPECT_FALSE(decodeHangTable(table.data(), m.kernels[0], barriers, summary));
}

} // namespace
