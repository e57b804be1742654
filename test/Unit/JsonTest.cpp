//===- JsonTest.cpp - Tests of the JSON parser and writer -----------------===//

#include "Cake/Runner/Json.h"

#include <gtest/gtest.h>

using namespace cake::runner;

namespace {

JsonValue parseOk(const std::string &text) {
  JsonValue v;
  std::string error;
  EXPECT_TRUE(parseJson(text, v, error)) << error;
  return v;
}

std::string parseError(const std::string &text) {
  JsonValue v;
  std::string error;
  EXPECT_FALSE(parseJson(text, v, error)) << text;
  return error;
}

TEST(Json, ParsesScalars) {
  EXPECT_TRUE(parseOk("null").isNull());
  EXPECT_TRUE(parseOk(" true ").getBool());
  EXPECT_FALSE(parseOk("false").getBool());
  JsonValue i = parseOk("-42");
  EXPECT_TRUE(i.isInteger());
  EXPECT_EQ(i.getInteger(), -42);
  JsonValue d = parseOk("2.5e3");
  EXPECT_FALSE(d.isInteger());
  EXPECT_DOUBLE_EQ(d.getNumber(), 2500.0);
  EXPECT_EQ(parseOk("9223372036854775807").getInteger(), INT64_MAX);
  // Too large for int64: still a number.
  EXPECT_FALSE(parseOk("92233720368547758070").isInteger());
}

TEST(Json, ParsesStringEscapes) {
  EXPECT_EQ(parseOk(R"("a\"b\\c\/d\n\t")").getString(), "a\"b\\c/d\n\t");
  EXPECT_EQ(parseOk(R"("\u00e9")").getString(), "\xC3\xA9");
  EXPECT_EQ(parseOk(R"("\ud83d\ude00")").getString(), "\xF0\x9F\x98\x80");
}

TEST(Json, ParsesNestedStructures) {
  JsonValue v = parseOk(R"({"a": [1, 2, {"b": null}], "c": {}, "d": []})");
  ASSERT_TRUE(v.isObject());
  ASSERT_TRUE(v.find("a"));
  EXPECT_EQ(v.find("a")->getArray().size(), 3u);
  EXPECT_TRUE(v.find("a")->getArray()[2].find("b")->isNull());
  EXPECT_TRUE(v.find("c")->isObject());
  EXPECT_TRUE(v.find("d")->getArray().empty());
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(Json, ReportsErrorPosition) {
  EXPECT_EQ(parseError("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            "line 3, col 7: expected ':'");
  EXPECT_EQ(parseError("[1, 2"), "line 1, col 6: expected ',' or ']'");
  EXPECT_EQ(parseError("[1,]"), "line 1, col 4: unexpected character ']'");
  EXPECT_EQ(parseError("tru"), "line 1, col 1: invalid literal");
  EXPECT_EQ(parseError("\"abc"), "line 1, col 5: unterminated string");
  EXPECT_EQ(parseError("{} x"), "line 1, col 4: unexpected trailing characters");
  EXPECT_EQ(parseError("01"), "line 1, col 2: unexpected trailing characters");
  EXPECT_EQ(parseError(""), "line 1, col 1: unexpected end of input");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"),
            "line 1, col 10: duplicate key \"a\"");
  EXPECT_EQ(parseError("\"\\x\""), "line 1, col 3: invalid escape sequence");
  EXPECT_EQ(parseError("1."), "line 1, col 3: invalid number: digit expected after '.'");
}

TEST(Json, WritesCompactly) {
  JsonValue o = JsonValue::object();
  o.set("s", JsonValue::string("q\"\n\x01"));
  o.set("i", JsonValue::integer(-7));
  o.set("d", JsonValue::number(0.25));
  o.set("nan", JsonValue::number(0.0 / 0.0));
  JsonValue a = JsonValue::array();
  a.push(JsonValue::boolean(true));
  a.push(JsonValue::null());
  o.set("a", std::move(a));
  o.set("i", JsonValue::integer(3)); // Replaces, keeps the position.
  EXPECT_EQ(o.toString(),
            R"({"s": "q\"\n\u0001", "i": 3, "d": 0.25, "nan": null, "a": [true, null]})");
}

TEST(Json, RoundTrips) {
  std::string text = R"({"k": [1, 2.5, "x", {"y": false}], "z": null})";
  EXPECT_EQ(parseOk(text).toString(), text);
  EXPECT_EQ(parseOk(JsonValue::number(0.1).toString()).getNumber(), 0.1);
}

} // namespace
