//===- RecordTest.cpp - Tests of cake-run's output record -----------------===//

#include "Cake/Runner/Record.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cake::runner;

namespace {

TEST(Record, KeepsTheOrderKeysWereFirstSet) {
  Record r;
  r.set("status", nullptr);
  r.set("exit_code", nullptr);
  r.set("error", nullptr);
  r.set("status", "ok");
  r.set("exit_code", 0);
  r.set("sizes", llvm::json::Object{{"N", 8}, {"M", 4}});
  EXPECT_EQ(r.toString(),
            R"({"status": "ok", "exit_code": 0, "error": null, "sizes": {"M": 4, "N": 8}})");
  ASSERT_NE(r.find("exit_code"), nullptr);
  EXPECT_EQ(r.find("exit_code")->getAsInteger(), 0);
  EXPECT_EQ(r.find("missing"), nullptr);
}

TEST(Record, MergeKeepsKnownPlacesAndAppendsNewKeysSorted) {
  Record r;
  r.set("status", nullptr);
  r.set("device", nullptr);
  llvm::Expected<llvm::json::Value> worker =
      llvm::json::parse(R"({"time_ms": 1.5, "device": "H200", "status": "ok", "a": [1]})");
  ASSERT_TRUE(bool(worker));
  r.merge(*worker->getAsObject());
  EXPECT_EQ(r.toString(), R"({"status": "ok", "device": "H200", "a": [1], "time_ms": 1.5})");
}

TEST(Record, EscapesStrings) {
  Record r;
  r.set("error", "a \"quoted\"\nline");
  EXPECT_EQ(r.toString(), R"({"error": "a \"quoted\"\nline"})");
}

TEST(Record, PrintsNumbersShortestAndNonFiniteAsNull) {
  Record r;
  r.set("rtol", 1e-5);
  r.set("time_ms", 0.0123);
  r.set("count", int64_t(1) << 40);
  r.set("bad", std::nan(""));
  EXPECT_EQ(r.toString(),
            R"({"rtol": 1e-05, "time_ms": 0.0123, "count": 1099511627776, "bad": null})");
}

} // namespace
